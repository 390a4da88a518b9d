/*
 * Plans: what a strategy costs, from the strategy itself.
 *
 * qru_plan_run() runs an algorithm against a dry-run op table generated
 * from the op list (qru_ops.h): every op records its call, its host wait,
 * its arithmetic and the time the context's cost model gives it, and
 * queues nothing.  The algorithm runs as it would for real (the same
 * loops, block sizes, workspace requests and choices), so its plan and
 * its run cannot drift apart; the statistics of the real run equal the
 * plan's counts (tests/test_plan.c).
 *
 * In a dry run:
 *  - the context and the factorisation are copies: the ops queue nothing,
 *    allocations return placeholders, frees do nothing, the workspace
 *    request is recorded (qru_ctx_workspace), and nothing the caller holds
 *    changes;
 *  - questions about the backend (the QUERY ops, workspace queries of the
 *    vendor routines) are answered by the backend; ops the backend lacks
 *    run their reference implementation on the dry table, as for real;
 *  - values read back to the host are those of a healthy problem: ones
 *    (diagonals, norms), no non-finite entries, and no failure reported
 *    by a Cholesky info slot (qru_plan_healthy_info).
 *
 * The time of an op (qru_cost_model, src/qru_tuning.h):
 *     per_call + max(flops / rate, bytes / bandwidth)
 *              + col_step * (column steps of a fused panel)
 *              + sweep_step * (steps of fused Givens sweeps)
 *              + blas3_call (a level-3 BLAS call),
 * with rate_gemm for the level-3 BLAS, rate_upd for the update kernels
 * and rate_qr for the vendor factorisations; a host wait adds per_wait.
 * The flops of an op are the real ones (src/qru_flops.h) times
 * flops_type_factor of the plan's type: 4 for complex data.
 * Two queues (the lane ops) are simulated: the plan's time is when both
 * are done.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_flops.h"
#include "qru_internal.h"

/* How an op's arithmetic is priced. */
enum { PK_MOVE, PK_BLAS3, PK_KERNEL, PK_VENDOR };

/* Records one op: its call and the cost model's time on the current
 * queue. */
static int plan_op(qru_context *ctx, qru_op_id op, int kind, double flops,
                   double elems, double steps, double sweeps)
{
    qru_plan *p = ctx->plan;
    const qru_cost_model *c = p->cost;
    flops *= flops_type_factor(p->dt); /* complex: 4 real flops */
    double rate = kind == PK_BLAS3    ? c->rate_gemm
                  : kind == PK_VENDOR ? c->rate_qr
                                      : c->rate_upd;
    double t = kind == PK_MOVE || rate <= 0.0 ? 0.0 : flops / rate;
    double tm = c->bandwidth > 0.0
                    ? elems * (double)qru_dtype_size(p->dt) / c->bandwidth
                    : 0.0;
    double sec = c->per_call + (t > tm ? t : tm) + steps * c->col_step +
                 sweeps * c->sweep_step +
                 (kind == PK_BLAS3 ? c->blas3_call : 0.0);
    ++p->calls[op];
    p->flops += flops;
    p->op_seconds[op] += sec;
    p->seconds[p->lane] += sec;
    return 0;
}

/* A host wait on the current queue. */
static void plan_wait(qru_context *ctx)
{
    qru_plan *p = ctx->plan;
    ++p->host_waits;
    p->seconds[p->lane] += p->cost->per_wait;
}

static double dd(int v) { return v > 0 ? (double)v : 0.0; }

/* ---- the ops (the contracts are in qru_ops.h) ---- */

static int plan_sync(qru_context *ctx)
{
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_sync, PK_MOVE, 0, 0, 0, 0);
}
static int plan_upload(qru_context *ctx, qru_dtype dt, int m, int n,
                       const void *src, int lds, qru_ptr dst, int ldd)
{
    (void)dt, (void)src, (void)lds, (void)dst, (void)ldd;
    return plan_op(ctx, QRU_OP_upload, PK_MOVE, 0, dd(m) * dd(n), 0, 0);
}
/* ones: a healthy diagonal or norm */
static int plan_download(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr src, int lds, void *dst, int ldd)
{
    (void)src, (void)lds;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            size_t at = (size_t)i + (size_t)j * (size_t)ldd;
            if (qru_dtype_complex(dt)) /* 1 + 0i */
                at *= 2;
            if (qru_dtype_real(dt) == QRU_DOUBLE)
                ((double *)dst)[at] = 1.0;
            else
                ((float *)dst)[at] = 1.0f;
            if (qru_dtype_complex(dt) && qru_dtype_real(dt) == QRU_DOUBLE)
                ((double *)dst)[at + 1] = 0.0;
            else if (qru_dtype_complex(dt))
                ((float *)dst)[at + 1] = 0.0f;
        }
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_download, PK_MOVE, 0, dd(m) * dd(n), 0, 0);
}
static int plan_copy(qru_context *ctx, qru_dtype dt, int m, int n,
                     qru_ptr src, int lds, qru_ptr dst, int ldd)
{
    (void)dt, (void)src, (void)lds, (void)dst, (void)ldd;
    return plan_op(ctx, QRU_OP_copy, PK_MOVE, 0, 2.0 * dd(m) * dd(n), 0, 0);
}
static int plan_laset(qru_context *ctx, qru_dtype dt, char uplo, int m,
                      int n, double offdiag, double diag, qru_ptr A, int lda)
{
    (void)dt, (void)uplo, (void)offdiag, (void)diag, (void)A, (void)lda;
    return plan_op(ctx, QRU_OP_laset, PK_MOVE, 0, dd(m) * dd(n), 0, 0);
}
static int plan_transpose(qru_context *ctx, qru_dtype dt, int m, int n,
                          qru_ptr A, int lda, qru_ptr B, int ldb)
{
    (void)dt, (void)A, (void)lda, (void)B, (void)ldb;
    return plan_op(ctx, QRU_OP_transpose, PK_MOVE, 0, 2.0 * dd(m) * dd(n), 0,
                   0);
}
static int plan_gemm(qru_context *ctx, qru_dtype dt, char transa,
                     char transb, int m, int n, int k, double alpha,
                     qru_ptr A, int lda, qru_ptr B, int ldb, double beta,
                     qru_ptr C, int ldc)
{
    (void)dt, (void)transa, (void)transb, (void)alpha, (void)A, (void)lda,
        (void)B, (void)ldb, (void)C, (void)ldc;
    double em = dd(m), en = dd(n), ek = dd(k);
    return plan_op(ctx, QRU_OP_gemm, PK_BLAS3, 2.0 * em * en * ek,
                   em * ek + ek * en + (beta != 0.0 ? 2.0 : 1.0) * em * en,
                   0, 0);
}
/* one call for the count pages: gemm's price once, its work count times */
static int plan_gemm_batched(qru_context *ctx, qru_dtype dt, char transa,
                             char transb, int m, int n, int k, double alpha,
                             qru_ptr A, int lda, size_t sA, qru_ptr B,
                             int ldb, size_t sB, double beta, qru_ptr C,
                             int ldc, size_t sC, int count)
{
    (void)dt, (void)transa, (void)transb, (void)alpha, (void)A, (void)lda,
        (void)sA, (void)B, (void)ldb, (void)sB, (void)C, (void)ldc, (void)sC;
    double em = dd(m), en = dd(n), ek = dd(k), c = dd(count);
    return plan_op(ctx, QRU_OP_gemm_batched, PK_BLAS3, 2.0 * c * em * en * ek,
                   c * (em * ek + ek * en +
                        (beta != 0.0 ? 2.0 : 1.0) * em * en),
                   0, 0);
}
static int plan_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo,
                     char transa, char diag, int m, int n, double alpha,
                     qru_ptr A, int lda, qru_ptr B, int ldb)
{
    (void)dt, (void)uplo, (void)transa, (void)diag, (void)alpha, (void)A,
        (void)lda, (void)B, (void)ldb;
    double t = side == 'L' ? dd(m) : dd(n);
    return plan_op(ctx, QRU_OP_trsm, PK_BLAS3, t * dd(m) * dd(n),
                   t * t / 2.0 + 2.0 * dd(m) * dd(n), 0, 0);
}
static int plan_col_norms(qru_context *ctx, qru_dtype dt, int m, int n,
                          qru_ptr A, int lda, double *norms)
{
    (void)dt, (void)A, (void)lda;
    for (int j = 0; j < n; ++j)
        norms[j] = 1.0;
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_col_norms, PK_KERNEL, 2.0 * dd(m) * dd(n),
                   dd(m) * dd(n), 0, 0);
}
static int plan_col_norms_dev(qru_context *ctx, qru_dtype dt, int m,
                              int n, qru_ptr A, int lda, qru_ptr out)
{
    (void)dt, (void)A, (void)lda, (void)out;
    return plan_op(ctx, QRU_OP_col_norms_dev, PK_KERNEL, 2.0 * dd(m) * dd(n),
                   dd(m) * dd(n) + dd(n), 0, 0);
}
static int plan_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo,
                                int m, int n, qru_ptr A, int lda, int *count)
{
    (void)dt, (void)uplo, (void)A, (void)lda;
    *count = 0;
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_count_nonfinite, PK_MOVE, 0, dd(m) * dd(n), 0,
                   0);
}
static int plan_count_nonzero(qru_context *ctx, qru_dtype dt, int n,
                              qru_ptr x, int *count)
{
    (void)dt, (void)x;
    *count = 0;
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_count_nonzero, PK_MOVE, 0, dd(n), 0, 0);
}
static int plan_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha,
                      qru_ptr x, qru_ptr v, qru_ptr tau)
{
    (void)dt, (void)alpha, (void)x, (void)v, (void)tau;
    return plan_op(ctx, QRU_OP_house, PK_KERNEL, 3.0 * dd(n) + 4.0,
                   2.0 * dd(n), 0, 0);
}
static int plan_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
                     qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
                     qru_ptr work)
{
    (void)dt, (void)v, (void)tau, (void)top, (void)ldt, (void)C, (void)ldc,
        (void)work;
    return plan_op(ctx, QRU_OP_larf, PK_KERNEL, 4.0 * (dd(m) + 1.0) * dd(n),
                   2.0 * (dd(m) + 1.0) * dd(n), 0, 0);
}
static int plan_wy_append(qru_context *ctx, qru_dtype dt, int m, int j,
                          qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                          qru_ptr work)
{
    (void)dt, (void)Y, (void)ldy, (void)W, (void)ldw, (void)tau, (void)work;
    return plan_op(ctx, QRU_OP_wy_append, PK_KERNEL,
                   4.0 * dd(m) * dd(j) + dd(m), 2.0 * dd(m) * dd(j), 0, 0);
}
static int plan_givens_make(qru_context *ctx, qru_dtype dt, int cnt,
                            qru_ptr X, int inc, int ps, qru_ptr cs)
{
    (void)dt, (void)X, (void)inc, (void)ps, (void)cs;
    return plan_op(ctx, QRU_OP_givens_make, PK_KERNEL, 6.0 * dd(cnt),
                   4.0 * dd(cnt), 0, 0);
}
static int plan_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                             qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    (void)dt, (void)cs, (void)X, (void)inc, (void)ps, (void)es;
    return plan_op(ctx, QRU_OP_givens_apply, PK_KERNEL,
                   6.0 * dd(cnt) * dd(len), 4.0 * dd(cnt) * dd(len), 0, 0);
}
static int plan_geadd(qru_context *ctx, qru_dtype dt, int m, int n,
                      double alpha, qru_ptr A, int lda, double beta,
                      qru_ptr B, int ldb)
{
    (void)dt, (void)alpha, (void)A, (void)lda, (void)beta, (void)B, (void)ldb;
    return plan_op(ctx, QRU_OP_geadd, PK_KERNEL, dd(m) * dd(n),
                   3.0 * dd(m) * dd(n), 0, 0);
}
static int plan_geadd_batched(qru_context *ctx, qru_dtype dt, int m, int n,
                              double alpha, qru_ptr A, int lda, size_t sA,
                              double beta, qru_ptr B, int ldb, size_t sB,
                              int count)
{
    (void)dt, (void)alpha, (void)A, (void)lda, (void)sA, (void)beta, (void)B,
        (void)ldb, (void)sB;
    double e = dd(m) * dd(n) * dd(count);
    return plan_op(ctx, QRU_OP_geadd_batched, PK_KERNEL, e, 3.0 * e, 0, 0);
}
static int plan_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans,
                     int n, int k, double alpha, qru_ptr A, int lda,
                     double beta, qru_ptr C, int ldc)
{
    (void)dt, (void)uplo, (void)trans, (void)alpha, (void)A, (void)lda,
        (void)beta, (void)C, (void)ldc;
    return plan_op(ctx, QRU_OP_syrk, PK_BLAS3, dd(n) * dd(n) * dd(k),
                   dd(n) * dd(k) + dd(n) * dd(n), 0, 0);
}
static int plan_lacpy(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                      qru_ptr A, int lda, qru_ptr B, int ldb)
{
    (void)dt, (void)uplo, (void)A, (void)lda, (void)B, (void)ldb;
    return plan_op(ctx, QRU_OP_lacpy, PK_MOVE, 0, 2.0 * dd(m) * dd(n), 0, 0);
}
/* the unblocked kernels run their columns one after the other */
static int plan_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                            qru_ptr A, int lda, qru_ptr info, int base)
{
    (void)dt, (void)uplo, (void)A, (void)lda, (void)info, (void)base;
    double en = dd(n);
    return plan_op(ctx, QRU_OP_potrf_panel, PK_KERNEL, en * en * en / 3.0,
                   en * en, en, 0);
}
static int plan_chol_rot(qru_context *ctx, qru_dtype dt, int n, int k,
                         int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                         qru_ptr info, int base)
{
    (void)dt, (void)sign, (void)L, (void)ldl, (void)W, (void)ldw, (void)info,
        (void)base;
    double en = dd(n), ek = dd(k);
    return plan_op(ctx, QRU_OP_chol_rot, PK_KERNEL, 3.0 * en * en * ek,
                   en * en / 2.0 + en * ek, 0, en);
}
/* the batch: chol_rot's rotations on every problem, the pages copied in
 * and out; the problems' columns run side by side */
static int plan_chol_update_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                  int n, int k, int sign, int count,
                                  qru_ptr L, int ldl, size_t sL, qru_ptr W,
                                  int ldw, size_t sW, qru_ptr L1, int ld1,
                                  size_t s1, qru_ptr info, qru_ptr cnt,
                                  qru_ptr work)
{
    (void)dt, (void)uplo, (void)sign, (void)L, (void)ldl, (void)sL, (void)W,
        (void)ldw, (void)sW, (void)L1, (void)ld1, (void)s1, (void)info,
        (void)cnt, (void)work;
    double en = dd(n), ek = dd(k), ec = dd(count);
    return plan_op(ctx, QRU_OP_chol_update_batch, PK_KERNEL,
                   3.0 * en * en * ek * ec,
                   ec * (2.0 * en * en + 2.0 * en * ek), 0, en * (ek + 1));
}
/* the batched insertion: the solve for the new rows (k^2 p), D and Y,
 * the trailing block's downdate (chol_rot's rotations on n - k rows); a
 * problem's pages read and written once, the steps of its columns */
static int plan_chol_insert_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                  int n, int k, int p, int count, qru_ptr L,
                                  int ldl, size_t sL, qru_ptr C, int ldc,
                                  size_t sC, qru_ptr L1, int ld1, size_t s1,
                                  qru_ptr info, qru_ptr cnt, qru_ptr work)
{
    (void)dt, (void)uplo, (void)L, (void)ldl, (void)sL, (void)C, (void)ldc,
        (void)sC, (void)L1, (void)ld1, (void)s1, (void)info, (void)cnt,
        (void)work;
    double en = dd(n), ek = dd(k), ep = dd(p), ec = dd(count),
           eq = en - ek, e1 = en + ep;
    return plan_op(ctx, QRU_OP_chol_insert_batch, PK_KERNEL,
                   ec * (ek * ek * ep + 2.0 * eq * ek * ep +
                         ep * ep * (ek + eq) + 3.0 * eq * eq * ep),
                   ec * (en * en + 2.0 * e1 * e1 + e1 * ep), 0,
                   ek + ep + eq * (ep + 1));
}
/* the batched deletion: the trailing block's update by L32 */
static int plan_chol_delete_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                  int n, int k, int p, int count, qru_ptr L,
                                  int ldl, size_t sL, qru_ptr L1, int ld1,
                                  size_t s1, qru_ptr info, qru_ptr cnt,
                                  qru_ptr work)
{
    (void)dt, (void)uplo, (void)L, (void)ldl, (void)sL, (void)L1, (void)ld1,
        (void)s1, (void)info, (void)cnt, (void)work;
    double en = dd(n), ek = dd(k), ep = dd(p), ec = dd(count),
           eq = en - ek - ep, e1 = en - ep;
    return plan_op(ctx, QRU_OP_chol_delete_batch, PK_KERNEL,
                   3.0 * eq * eq * ep * ec,
                   ec * (en * en + 2.0 * e1 * e1 + e1 * ep), 0,
                   ek + eq * (ep + 1));
}
/* the batched thin QR: geqrf, orgqr and two ormqr of each page; the
 * unblocked kernel reads and writes the trailing columns (Q1's and E's)
 * a step, forward and backward: about m (m/2 + r) n elements each way */
static int plan_lsq_batch_geqr_thin(qru_context *ctx, qru_dtype dt, int m,
                                    int r, int n, int count, qru_ptr A,
                                    int lda, size_t sA, qru_ptr B, int ldb,
                                    size_t sB, qru_ptr R, int ldr, size_t sR,
                                    qru_ptr D, int ldd, size_t sD, qru_ptr Q,
                                    int ldq, size_t sQ, qru_ptr E, int lde,
                                    size_t sE, qru_ptr work,
                                    size_t *work_elems)
{
    if (!work.h) /* a workspace query: the backend's answer, uncounted */
        return ctx->table.lsq_batch_geqr_thin(
            ctx, dt, m, r, n, count, A, lda, sA, B, ldb, sB, R, ldr, sR, D,
            ldd, sD, Q, ldq, sQ, E, lde, sE, work, work_elems);
    double em = dd(m), er = dd(r), en = dd(n), ec = dd(count);
    double fl = flops_geqrf(en, em) + flops_orgqr(en, em, em) +
                2.0 * flops_ormqr(en, em, er);
    return plan_op(ctx, QRU_OP_lsq_batch_geqr_thin, PK_KERNEL, ec * fl,
                   ec * 4.0 * em * (em / 2.0 + er) * en, 0, 2.0 * em);
}
/* the batched Q-less row additions: p m rotations of [R d] a problem,
 * each on m + r - j columns; R, d read and written once, the rows read */
static int plan_lsq_batch_add_rows(qru_context *ctx, qru_dtype dt, int m,
                                   int r, int p, int count, qru_ptr R,
                                   int ldr, size_t sR, qru_ptr D, int ldd,
                                   size_t sD, qru_ptr rho2, qru_ptr U,
                                   int ldu, size_t sU, qru_ptr E, int lde,
                                   size_t sE, qru_ptr cnt, qru_ptr work)
{
    (void)dt, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd, (void)sD,
        (void)rho2, (void)U, (void)ldu, (void)sU, (void)E, (void)lde,
        (void)sE, (void)cnt, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count);
    return plan_op(ctx, QRU_OP_lsq_batch_add_rows, PK_KERNEL,
                   6.0 * ep * em * (em / 2.0 + er) * ec,
                   ec * (em * em + 2.0 * em * er + ep * (em + er) + er), 0,
                   ep * em);
}
/* the thin-form batched row additions: p m rotations of [R d] a problem
 * and of Q1's rows (n + p of them); R, d read and written once, Q1 and E
 * once per block of 8 rows */
static int plan_lsq_batch_add_rows_q(qru_context *ctx, qru_dtype dt, int m,
                                     int r, int n, int p, int count,
                                     qru_ptr R, int ldr, size_t sR,
                                     qru_ptr D, int ldd, size_t sD,
                                     qru_ptr Q, int ldq, size_t sQ,
                                     qru_ptr E, int lde, size_t sE,
                                     qru_ptr U, int ldu, size_t sU,
                                     qru_ptr F, int ldf, size_t sF,
                                     qru_ptr work)
{
    (void)dt, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd, (void)sD,
        (void)Q, (void)ldq, (void)sQ, (void)E, (void)lde, (void)sE, (void)U,
        (void)ldu, (void)sU, (void)F, (void)ldf, (void)sF, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count);
    double en = dd(n) + ep, passes = ceil(ep / 8.0);
    return plan_op(ctx, QRU_OP_lsq_batch_add_rows_q, PK_KERNEL,
                   6.0 * ep * em * (em / 2.0 + er + en) * ec,
                   ec * (em * em + 2.0 * em * er + ep * (em + er) +
                         2.0 * passes * en * (em + er)),
                   0, ep * em);
}
/* the thin-form batched row removals: three passes over Q1 for Z and its
 * reorthogonalisation (6 n m p flops), the Gram-Schmidt of Z (4 n p^2),
 * the sweeps on [Q1 Qz] (6 n m p, one pass per block of 8 sweeps) and
 * on [R d] (6 m p (m + r)), the drop of the rows K */
static int plan_lsq_batch_remove_rows_q(qru_context *ctx, qru_dtype dt,
                                        int m, int r, int n, int k, int p,
                                        int count, qru_ptr R, int ldr,
                                        size_t sR, qru_ptr D, int ldd,
                                        size_t sD, qru_ptr Q, int ldq,
                                        size_t sQ, qru_ptr E, int lde,
                                        size_t sE, qru_ptr info,
                                        qru_ptr cnt, qru_ptr work)
{
    (void)dt, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd, (void)sD,
        (void)Q, (void)ldq, (void)sQ, (void)E, (void)lde, (void)sE,
        (void)info, (void)cnt, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count), en = dd(n);
    double passes = 3.0 + ceil(ep / 8.0) + 2.0 * dd(n - k - p) / en;
    return plan_op(ctx, QRU_OP_lsq_batch_remove_rows_q, PK_KERNEL,
                   ec * (12.0 * en * em * ep + 4.0 * en * ep * ep +
                         6.0 * em * ep * (em + er) + 4.0 * en * ep * er),
                   ec * (passes * en * em + 4.0 * en * er + 3.0 * en * ep +
                         em * em + 2.0 * em * er),
                   0, ep * (em + 2.0 * ep + 3.0 * em));
}
/* the batched column removals: p rotations of [H d] a column of H (each
 * on the columns after it), and in the thin form of Q1's rows, then
 * E += Q1(:, m1:m) G; R, d read and written once, Q1 and E (thin) once */
static int plan_lsq_batch_remove_cols(qru_context *ctx, qru_dtype dt, int m,
                                      int r, int n, int k, int p, int count,
                                      int thin, qru_ptr R, int ldr, size_t sR,
                                      qru_ptr D, int ldd, size_t sD,
                                      qru_ptr rho2, qru_ptr Q, int ldq,
                                      size_t sQ, qru_ptr E, int lde,
                                      size_t sE, qru_ptr work)
{
    (void)dt, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd, (void)sD,
        (void)rho2, (void)Q, (void)ldq, (void)sQ, (void)E, (void)lde,
        (void)sE, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count);
    double eL = dd(m - p - k), en = thin ? dd(n) : 0.0;
    return plan_op(ctx, QRU_OP_lsq_batch_remove_cols, PK_KERNEL,
                   ec * (6.0 * ep * eL * (eL / 2.0 + er + en) +
                         2.0 * en * ep * er),
                   ec * (2.0 * em * (eL + er) + 2.0 * en * (em + er)), 0,
                   eL);
}
/* the thin-form batched column insertions: two passes of classical
 * Gram-Schmidt against Q1 (8 n m p), the Gram-Schmidt of Z (4 n p^2),
 * dz and E1 (4 n p r), the p (m - k) rotations of [R1 d1] and of Q1's
 * rows; the old pages read, the new ones written, Q1 four times */
static int plan_lsq_batch_add_cols_q(
    qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p,
    int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD,
    qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr V,
    int ldv, size_t sV, qru_ptr R1, int ld1, size_t s1, qru_ptr D1, int ldd1,
    size_t sD1, qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1, int lde1,
    size_t sE1, qru_ptr info, qru_ptr work)
{
    (void)dt, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd, (void)sD,
        (void)Q, (void)ldq, (void)sQ, (void)E, (void)lde, (void)sE, (void)V,
        (void)ldv, (void)sV, (void)R1, (void)ld1, (void)s1, (void)D1,
        (void)ldd1, (void)sD1, (void)Q1n, (void)ldq1, (void)sQ1, (void)E1,
        (void)lde1, (void)sE1, (void)info, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count), en = dd(n);
    double eL = dd(m - k), mp = em + ep;
    return plan_op(ctx, QRU_OP_lsq_batch_add_cols_q, PK_KERNEL,
                   ec * (8.0 * en * em * ep + 4.0 * en * ep * ep +
                         4.0 * en * ep * er +
                         6.0 * ep * eL * (eL / 2.0 + er + en)),
                   ec * (4.0 * en * em + 2.0 * en * (mp + er) + em * em +
                         mp * mp + 2.0 * mp * er),
                   0, 4.0 + ep * (ep + er) + ep);
}
/* the batched back substitutions: the column norms, then m r (m + 1)
 * flops a problem; R and d read, X written */
static int plan_lsq_batch_solve(qru_context *ctx, qru_dtype dt, int m, int r,
                                int n, int count, qru_ptr R, int ldr,
                                size_t sR, qru_ptr D, int ldd, size_t sD,
                                qru_ptr X, int ldx, size_t sX, qru_ptr info,
                                qru_ptr any, qru_ptr work)
{
    (void)dt, (void)n, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd,
        (void)sD, (void)X, (void)ldx, (void)sX, (void)info, (void)any,
        (void)work;
    double em = dd(m), er = dd(r), ec = dd(count);
    return plan_op(ctx, QRU_OP_lsq_batch_solve, PK_KERNEL,
                   ec * em * (em + er * (em + 1.0)),
                   ec * (em * em / 2.0 + 2.0 * em * er + 1.0), 0, em);
}
/* the row additions and the back substitutions of one pass: R and d
 * read and written once, the rows read, X written */
static int plan_lsq_batch_add_solve(qru_context *ctx, qru_dtype dt, int m,
                                    int r, int p, int n, int count,
                                    qru_ptr R, int ldr, size_t sR, qru_ptr D,
                                    int ldd, size_t sD, qru_ptr rho2,
                                    qru_ptr U, int ldu, size_t sU, qru_ptr E,
                                    int lde, size_t sE, qru_ptr X, int ldx,
                                    size_t sX, qru_ptr info, qru_ptr any,
                                    qru_ptr work)
{
    (void)dt, (void)n, (void)R, (void)ldr, (void)sR, (void)D, (void)ldd,
        (void)sD, (void)rho2, (void)U, (void)ldu, (void)sU, (void)E,
        (void)lde, (void)sE, (void)X, (void)ldx, (void)sX, (void)info,
        (void)any, (void)work;
    double em = dd(m), er = dd(r), ep = dd(p), ec = dd(count);
    return plan_op(ctx, QRU_OP_lsq_batch_add_solve, PK_KERNEL,
                   ec * (6.0 * ep * em * (em / 2.0 + er) +
                         em * (em + er * (em + 1.0))),
                   ec * (em * em + 3.0 * em * er + ep * (em + er) + er + 1.0),
                   0, ep * em + em);
}
/* the structured rank-k update: prep reads the triangle (its row sums of
 * L .* P: k + 1 per element) and, for k > 1, eliminates a bordered k x k
 * matrix per column; apply reads and writes it */
static int plan_chol_r1_prep(qru_context *ctx, qru_dtype dt, char uplo, int n,
                             int k, int sign, qru_ptr L, int ldl, qru_ptr p,
                             int ldp, int kw, qru_ptr W, int ldw, qru_ptr work,
                             qru_ptr head, qru_ptr adiag, qru_ptr info,
                             int base)
{
    (void)dt, (void)uplo, (void)sign, (void)L, (void)ldl, (void)p, (void)ldp,
        (void)W, (void)ldw, (void)work, (void)head, (void)adiag, (void)info,
        (void)base;
    double en = dd(n), ek = dd(k);
    double elim = k > 1 ? en * (ek + 1) * (ek + 1) * (ek + 1) / 3.0 : 0.0;
    return plan_op(ctx, QRU_OP_chol_r1_prep, PK_KERNEL,
                   (1.0 + ek) * en * en + elim,
                   en * en / 2.0 + en * (dd(kw) + 3.0 + ek) +
                       en * en / QRU_CHOL_R1_TILE * (ek - 1.0),
                   0, 0);
}
/* the fused solve and prep: one read of the triangle */
static int plan_chol_r1_solve_prep(qru_context *ctx, qru_dtype dt, char uplo,
                                   int n, int sign, qru_ptr L, int ldl,
                                   qru_ptr w, qru_ptr p, qru_ptr work,
                                   qru_ptr head, qru_ptr adiag, qru_ptr info,
                                   int base)
{
    (void)dt, (void)uplo, (void)sign, (void)L, (void)ldl, (void)w, (void)p,
        (void)work, (void)head, (void)adiag, (void)info, (void)base;
    double en = dd(n);
    return plan_op(ctx, QRU_OP_chol_r1_solve_prep, PK_KERNEL, 4.0 * en * en,
                   en * en / 2.0 + 6.0 * en, 0, 0);
}
static int plan_chol_r1_apply(qru_context *ctx, qru_dtype dt, char uplo,
                              int n, int k, qru_ptr L, int ldl, qru_ptr L1,
                              int ld1, qru_ptr p, int ldp, qru_ptr work)
{
    (void)dt, (void)uplo, (void)L, (void)ldl, (void)L1, (void)ld1, (void)p,
        (void)ldp, (void)work;
    double en = dd(n), ek = dd(k);
    return plan_op(ctx, QRU_OP_chol_r1_apply, PK_KERNEL,
                   (1.0 + ek) * en * en,
                   en * en + en * en / QRU_CHOL_R1_TILE * (ek - 1.0), 0, 0);
}
static int plan_chol_r1_rhs(qru_context *ctx, qru_dtype dt, int n, int r,
                            int sign, qru_ptr p, qru_ptr work, qru_ptr X,
                            int ldx, qru_ptr Y, int ldy, qru_ptr e, int ince,
                            qru_ptr du)
{
    (void)dt, (void)sign, (void)p, (void)work, (void)X, (void)ldx, (void)Y,
        (void)ldy, (void)e, (void)ince, (void)du;
    double en = dd(n), er = dd(r);
    return plan_op(ctx, QRU_OP_chol_r1_rhs, PK_KERNEL, 10.0 * en * er,
                   2.0 * en * er + 2.0 * en, 0, 0);
}
/* The launches of an op beyond its first (whose per_call is plan_op's). */
static void plan_extra_calls(qru_context *ctx, qru_op_id op, int extra)
{
    double sec = (double)extra * ctx->plan->cost->per_call;
    ctx->plan->op_seconds[op] += sec;
    ctx->plan->seconds[ctx->plan->lane] += sec;
}
/* a step of the Gram form of OMP: the grid reads B and Qb (k columns)
 * and G(:,j), X(:,j), updates c and r and writes the new columns; the
 * pick reads the partial results and B(j, :).  Two launches. */
static int plan_omp_gram_step(qru_context *ctx, qru_dtype dt, int n, int m,
                              int ncoef, int k, double inv, double rr0,
                              double thr, qru_ptr X, int ldx, qru_ptr y,
                              qru_ptr ws)
{
    (void)dt, (void)ncoef, (void)inv, (void)rr0, (void)thr, (void)X,
        (void)ldx, (void)y, (void)ws;
    double en = dd(n), em = dd(m), ek = dd(k), rows = en + em;
    plan_op(ctx, QRU_OP_omp_gram_step, PK_KERNEL, 2.0 * rows * ek + 6.0 * rows,
            rows * ek + 5.0 * rows + 2.0 * ek, 0, 0);
    plan_extra_calls(ctx, QRU_OP_omp_gram_step, 1);
    return 0;
}
/* The Gram active set's ops: products with W (hw x hw) and Gs (m x hw),
 * each a launch. */
static int plan_gram_border(qru_context *ctx, qru_dtype dt, int m, int kmax,
                            int hw, int t, int q, qru_ptr G, qru_ptr Gs,
                            qru_ptr W, qru_ptr V, qru_ptr T, qru_ptr out)
{
    (void)dt, (void)kmax, (void)t, (void)q, (void)G, (void)Gs, (void)W,
        (void)V, (void)T, (void)out;
    double em = dd(m), eh = dd(hw);
    plan_op(ctx, QRU_OP_gram_border, PK_KERNEL, 4.0 * eh * eh,
            2.0 * eh * eh + 2.0 * em + 3.0 * eh, 0, 0);
    plan_extra_calls(ctx, QRU_OP_gram_border, 1);
    return 0;
}
static int plan_gram_solve(qru_context *ctx, qru_dtype dt, int m, int kmax,
                           int hw, qru_ptr Gs, qru_ptr W, qru_ptr S, int qs,
                           double sv, qru_ptr V, qru_ptr out)
{
    (void)dt, (void)kmax, (void)Gs, (void)W, (void)S, (void)qs, (void)sv,
        (void)V, (void)out;
    double em = dd(m), eh = dd(hw);
    plan_op(ctx, QRU_OP_gram_solve, PK_KERNEL, 4.0 * eh * eh + 2.0 * em * eh,
            2.0 * eh * eh + em * eh + em + 4.0 * eh, 0, 0);
    plan_extra_calls(ctx, QRU_OP_gram_solve, 2);
    return 0;
}
/* a step of the Gram form of LARS: the bordering and the solve (products
 * with W and Gs, as gram_border's and gram_solve's), a pass over the
 * m correlations for gamma and one for the update and the pick; the
 * launches of the GPU kernels (QRU_LARS_STEP_LAUNCHES), two for the
 * other modes. */
static int plan_lars_gram_step(qru_context *ctx, qru_dtype dt, int m,
                               int kmax, int hw, int mode, int flags, int it,
                               int t, int q, int ci, int u, int na, int qs,
                               double sv, double piv, double C, qru_ptr G,
                               qru_ptr Gs, qru_ptr W, qru_ptr S, qru_ptr V,
                               qru_ptr Vb, qru_ptr out, qru_ptr ls, qru_ptr P)
{
    (void)dt, (void)kmax, (void)flags, (void)it, (void)q, (void)ci, (void)u,
        (void)na, (void)qs, (void)sv, (void)piv, (void)C, (void)G, (void)Gs,
        (void)W, (void)S, (void)V, (void)Vb, (void)out, (void)ls, (void)P;
    double em = dd(m), eh = dd(hw);
    if (mode != QRU_LARS_STEP) {
        plan_op(ctx, QRU_OP_lars_gram_step, PK_KERNEL, 2.0 * em, 4.0 * em, 0,
                0);
        return 0;
    }
    double bf = t >= 0 ? 4.0 * eh * eh : 0.0,
           bb = t >= 0 ? 2.0 * eh * eh + 2.0 * em : 0.0;
    plan_op(ctx, QRU_OP_lars_gram_step, PK_KERNEL,
            bf + 4.0 * eh * eh + 2.0 * em * eh + 12.0 * em,
            bb + 2.0 * eh * eh + em * eh + 10.0 * em + 4.0 * eh, 0, 0);
    plan_extra_calls(ctx, QRU_OP_lars_gram_step, QRU_LARS_STEP_LAUNCHES - 1);
    return 0;
}
/* the closed-form rotations: two passes over X's columns, one write */
static int plan_chol_r1_rotate(qru_context *ctx, qru_dtype dt, int n, int m,
                               double alpha, qru_ptr p, int incp, qru_ptr X,
                               int ldx, qru_ptr Y, int ldy, qru_ptr xin,
                               qru_ptr xout, qru_ptr work)
{
    (void)dt, (void)alpha, (void)p, (void)incp, (void)X, (void)ldx, (void)Y,
        (void)ldy, (void)xin, (void)xout, (void)work;
    double en = dd(n), em = dd(m);
    return plan_op(ctx, QRU_OP_chol_r1_rotate, PK_KERNEL, 10.0 * en * em,
                   3.0 * en * em + 4.0 * en, 0, 0);
}
/* A fused panel: nb column steps; taller than the model's panel_rows, the
 * slower kernel: 2 + log2(m / panel_rows) / 2 times the steps (twice just
 * above the limit, 3.4 times at 7 times the rows: H200, 2000 x 50). */
static int plan_panel(qru_context *ctx, qru_op_id op, int m, int nb)
{
    double em = dd(m), en = dd(nb);
    double pr = ctx->plan->cost->panel_rows;
    double steps = en * (pr > 0.0 && em > pr ? 2.0 + 0.5 * log2(em / pr)
                                             : 1.0);
    return plan_op(ctx, op, PK_KERNEL, 4.0 * em * en * en, 3.0 * em * en,
                   steps, 0);
}
static int plan_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb,
                         qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W,
                         int ldw, qru_ptr tau, qru_ptr work)
{
    (void)dt, (void)A, (void)lda, (void)Y, (void)ldy, (void)W, (void)ldw,
        (void)tau, (void)work;
    return plan_panel(ctx, QRU_OP_panel_qr, m, nb);
}
static int plan_panel_qr_tp(qru_context *ctx, qru_dtype dt, int mt, int mb,
                            int nb, qru_ptr A, int lda, qru_ptr B, int ldb,
                            qru_ptr Y, int ldy, qru_ptr W, int ldw,
                            qru_ptr tau, qru_ptr work)
{
    (void)dt, (void)A, (void)lda, (void)B, (void)ldb, (void)Y, (void)ldy,
        (void)W, (void)ldw, (void)tau, (void)work;
    return plan_panel(ctx, QRU_OP_panel_qr_tp, mt + mb, nb);
}
static int plan_wy_left(qru_context *ctx, qru_dtype dt, char ytop, int mt,
                        int mb, int nb, int nc, qru_ptr Y, int ldy, qru_ptr W,
                        int ldw, qru_ptr A, int lda, qru_ptr B, int ldb,
                        qru_ptr work)
{
    (void)dt, (void)ytop, (void)Y, (void)ldy, (void)W, (void)ldw, (void)A,
        (void)lda, (void)B, (void)ldb, (void)work;
    double m = dd(mt) + dd(mb), b = dd(nb), c = dd(nc);
    return plan_op(ctx, QRU_OP_wy_left, PK_BLAS3, 4.0 * m * b * c,
                   2.0 * m * b + 2.0 * m * c, 0, 0);
}
/* The queues: lane(1) starts the second after the mark (or all of the
 * first so far); lane_join orders the first after the second. */
static int plan_lane(qru_context *ctx, qru_dtype dt, int l)
{
    qru_plan *p = ctx->plan;
    int on = qru_ctx_tuning(ctx, dt)->lookahead;
    plan_op(ctx, QRU_OP_lane, PK_MOVE, 0, 0, 0, 0);
    if (on && l) {
        double from = p->marked ? p->mark : p->seconds[0];
        if (p->seconds[1] < from)
            p->seconds[1] = from;
        p->lane = 1;
    } else {
        p->lane = 0;
    }
    return 0;
}
static int plan_lane_mark(qru_context *ctx, qru_dtype dt)
{
    qru_plan *p = ctx->plan;
    plan_op(ctx, QRU_OP_lane_mark, PK_MOVE, 0, 0, 0, 0);
    if (qru_ctx_tuning(ctx, dt)->lookahead) {
        p->mark = p->seconds[0];
        p->marked = 1;
    }
    return 0;
}
static int plan_lane_join(qru_context *ctx)
{
    qru_plan *p = ctx->plan;
    plan_op(ctx, QRU_OP_lane_join, PK_MOVE, 0, 0, 0, 0);
    if (p->seconds[0] < p->seconds[1])
        p->seconds[0] = p->seconds[1];
    p->lane = 0;
    p->marked = 0;
    return 0;
}
static int plan_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra,
                                int *nb)
{ /* a QUERY: answered by the backend (never reached) */
    return ctx->table.panel_qr_max_nb(ctx, dt, extra, nb);
}
static int plan_verdict_flag(qru_context *ctx, qru_dtype dt, qru_ptr *flag,
                             void **hp)
{ /* a QUERY: answered by the backend (never reached) */
    return ctx->table.verdict_flag(ctx, dt, flag, hp);
}
static int plan_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                              int make, qru_ptr X, long xrs, long xcs,
                              int nr, int from_jlo, qru_ptr cs)
{
    (void)dt, (void)make, (void)X, (void)xrs, (void)xcs, (void)from_jlo,
        (void)cs;
    double rot = dd(L) * dd(p);
    return plan_op(ctx, QRU_OP_givens_sweeps, PK_KERNEL, 6.0 * rot * dd(nr),
                   4.0 * rot * dd(nr), 0, dd(L + p - 1));
}
static int plan_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p,
                             int ab, qru_ptr cs, qru_ptr G, int ldg)
{
    (void)dt, (void)cs, (void)G, (void)ldg;
    double w = dd(ab) + dd(p);
    return plan_op(ctx, QRU_OP_givens_accum, PK_KERNEL,
                   6.0 * dd(L) * dd(p) * w, dd(L) * w, 0, 0);
}
/* the vendor's QR: its flops at rate_qr, or where it is latency-bound
 * qr_elem a matrix element or qr_col a column plus qr_fixed, the
 * larger */
static int plan_geqrf_full(qru_context *ctx, qru_dtype dt, int n, int m,
                           qru_ptr A, int lda, qru_ptr Q, int ldq, int qc,
                           qru_ptr B, int ldb, int r, qru_ptr ws,
                           size_t *ws_elems)
{
    if (!ws.h) /* a workspace query: the backend's answer, uncounted (the
                * algorithms ask the raw table; qru_ops.h) */
        return ctx->table.geqrf_full(ctx, dt, n, m, A, lda, Q, ldq, qc, B,
                                     ldb, r, ws, ws_elems);
    double en = dd(n), em = dd(m), k = en < em ? en : em;
    double fl = flops_geqrf(en, em) + (B.h ? flops_ormqr(en, k, dd(r)) : 0) +
                (Q.h ? flops_orgqr(en, dd(qc), k) : 0);
    double lat = ctx->plan->cost->qr_elem * en * em;
    double lc = ctx->plan->cost->qr_col * k + ctx->plan->cost->qr_fixed;
    if (lat < lc)
        lat = lc;
    double rate = ctx->plan->cost->rate_qr;
    double cf = flops_type_factor(ctx->plan->dt); /* plan_op's factor */
    if (rate > 0.0 && lat > cf * fl / rate) /* priced as that many flops */
        fl = lat * rate / cf;
    plan_wait(ctx);
    return plan_op(ctx, QRU_OP_geqrf_full, PK_VENDOR, fl, 0, 0, 0);
}
static int plan_potrf_full(qru_context *ctx, qru_dtype dt, char uplo, int n,
                           qru_ptr A, int lda, qru_ptr info, qru_ptr ws,
                           size_t *ws_elems)
{
    if (!ws.h) /* a workspace query, as geqrf_full's */
        return ctx->table.potrf_full(ctx, dt, uplo, n, A, lda, info, ws,
                                     ws_elems);
    double en = dd(n);
    return plan_op(ctx, QRU_OP_potrf_full, PK_VENDOR, en * en * en / 3.0,
                   en * en, 0, 0);
}

/* ---- the dry-run table ---- */

/* A QUERY op, or an op the backend lacks (its reference runs on the dry
 * table), is not priced itself. */
#define PLAN_PRICED_QUERY 0
#define PLAN_PRICED_ASYNC 1
#define PLAN_PRICED_WAIT 1
#define PLAN_PRICED_H2D 1
#define PLAN_PRICED_D2H 1
#define QRU_DRY_(name, params, args, need, stat)                             \
    static int dry_##name params                                             \
    {                                                                          \
        if (!PLAN_PRICED_##stat ||                                             \
            !qru_op_native_dt(ctx, QRU_OP_##name, QRU_OP_DT(args)))            \
            return ctx->table.name args;                                       \
        return plan_##name args;                                               \
    }
QRU_OPS(QRU_DRY_)
#undef QRU_DRY_

/* The placeholder every dry allocation returns (never dereferenced). */
static char placeholder;
static int dry_alloc(qru_context *ctx, size_t bytes, void **h)
{
    (void)ctx, (void)bytes;
    *h = &placeholder;
    return 0;
}
static void dry_free(qru_context *ctx, void *h) { (void)ctx, (void)h; }

void *qru_plan_placeholder(void) { return &placeholder; }

int qru_plan_healthy_info(const qru_context *ctx) { return ctx->plan != NULL; }

int qru_plan_run(qru_context *ctx, qru_lsq *f, qru_dtype dt, qru_plan_fn fn,
                 const void *arg, qru_plan *out)
{
    qru_context dry = *ctx;
    memset(out, 0, sizeof *out);
    out->dt = dt;
    out->variant = -1;
    out->cost = &qru_ctx_tuning(ctx, dt)->cost;
    dry.plan = out;
    dry.counted = dry.table;
#define QRU_DRY_SET_(name, params, args, need, stat)                         \
    if (dry.table.name)                                                        \
        dry.counted.name = dry_##name;
    QRU_OPS(QRU_DRY_SET_)
#undef QRU_DRY_SET_
    dry.counted.mem_alloc = dry_alloc;
    dry.counted.mem_free = dry_free;
    dry.ops = &dry.counted;
    dry.ws.h = NULL;
    dry.ws.bytes = 0;
    qru_lsq fd, *fp = NULL;
    double *rho = NULL;
    if (f) {
        fd = *f;
        fd.ctx = &dry;
        if (f->rho) { /* host state the run may write */
            size_t nr = 2 * (size_t)(f->r > 0 ? f->r : 1);
            rho = malloc(nr * sizeof *rho);
            if (!rho)
                return QRU_HOST_ALLOC_FAILED;
            memcpy(rho, f->rho, nr * sizeof *rho);
            fd.rho = rho;
        }
        fp = &fd;
    }
    int st = fn(&dry, fp, arg);
    free(rho);
    return st;
}

double qru_plan_seconds(const qru_plan *p)
{
    return p->seconds[0] > p->seconds[1] ? p->seconds[0] : p->seconds[1];
}

long long qru_plan_calls(const qru_plan *p)
{
    long long c = 0;
    for (int i = 0; i < QRU_OP_COUNT; ++i)
        c += p->calls[i];
    return c;
}
