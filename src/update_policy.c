/*
 * Update-or-refactor policy of the QR updates (QRU_UPDATE_AUTO, issue 8
 * item 2, first version), written once for both precisions against the
 * backend table.
 *
 * With QRU_UPDATE_AUTO, an update of a factorisation that holds Q first
 * predicts two times with one cost model,
 *
 *     time ~ sum_i flops_i / rate_i  +  calls * per_call,
 *
 * (a) the QRU_UPDATE_FAST update, and
 * (b) a refactorisation: rebuild A = Q(:,1:m) R(1:m,:) and b = Q d with
 *     GEMMs (only the rows / columns that A1 keeps), apply the change
 *     (insert U / e or drop rows / columns), and factor A1 with
 *     qru_qr_full (the factorisation of qru_lsq_create: R, Q, Q' b),
 *
 * and runs the cheaper one.  R-only factorisations always update (there is
 * no A to rebuild).  The flop counts are those of src/qru_flops.h (included
 * below: the same formulas the benchmark tables were computed with), the
 * call counts those of the code paths (see upd_calls()).  The constants
 * (table below) are per backend, taken from the measured tables cited
 * there; they are NOT calibrated per device at run time.
 *
 * The refactorisation is all-or-nothing: A1, b1, Q1 and R1 are computed in
 * the context's workspace and copied into the factorisation's buffers
 * (capacity reserved first, which keeps the contents) only when everything
 * before succeeded, the add-columns rank check included.
 *
 * Every public update calls qru_upd_policy() (QRU_UPD_POLICY in
 * qru_update.h) after its argument checks; it also records the path of
 * each successful update (qru_lsq_last_update_path()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_update.h"
#include "qru_flops.h"

/* Per-backend constants of the model.  rate_upd: the arithmetic of the
 * updates (GEMMs, panels, rotations; flops per second); rate_qr: the
 * Householder factorisation geqrf of A1; rate_gemm: GEMM-rich work of the
 * refactorisation (forming Q, Q' b, rebuilding A and b); per_call: the
 * cost of one backend call (launch, latency of a dependent step).  Float
 * uses the double constants (the H100 tables show float within ~10% of
 * double at these sizes, docs/benchmarks-fast.md). */
typedef struct upd_costs {
    double rate_upd, rate_qr, rate_gemm, per_call, col_step, sweep_step;
} upd_costs;

static const upd_costs cost_table[3] = {
    /* QRU_BACKEND_CPU: docs/benchmarks.md, "n = 4000, m = 1000, double,
     * backend cpu" table (2 cores, OpenBLAS):
     *  - rate_upd: FAST remove rows 100 rows, 0.149 s for about
     *    4 n (n-m) p + 8 n m p = 8.0 GFLOP (54 GFLOP/s); FAST add columns
     *    200 columns 0.269 s for about 19 GFLOP (70 GFLOP/s) -> 50e9;
     *  - rate_qr: "LAPACKE solve" geqrf + ormqr, about 7-9 GFLOP in
     *    0.12-0.18 s -> 50e9;
     *  - rate_gemm: qru_lsq_create of 4000 x 1000 with Q, 1.086 s for about
     *    7.3 GFLOP geqrf + 48 GFLOP forming Q (line under the table)
     *    -> 50e9 for the Q part;
     *  - per_call: no table has it; measured once while writing this
     *    file (same machine, build-auto, small shapes): the FAST removal
     *    of 3 of 30 columns of a 150 x 30 problem, about 130 calls, in
     *    10 us; small calls also run below the large-size rates, so the
     *    constant is taken larger than the bare call overhead: 0.3e-6. */
    {50e9, 50e9, 50e9, 0.3e-6, 0.0, 0.0},
    /* QRU_BACKEND_CUDA: docs/benchmarks-fast.md (H100, TUS tables):
     *  - rate_upd: "TFLOP/s upd" of add columns set 0 (5.5 double, 6.1
     *    float) -> 5e12 (the slower updates are slow through their calls,
     *    which per_call accounts for);
     *  - rate_qr: "TFLOP/s ref" (cuSOLVER geqrf + ormqr + trsm) 3.2 - 4.3 at
     *    n = 6000 - 8000 (remove columns / add rows / add columns set 0;
     *    8.4 at 12000 x 6000, remove rows set 0) -> 4e12;
     *  - rate_gemm: t_orgqr (the n x n Q from m reflectors, flops_orgqr):
     *    0.51 TFLOP in 19.2 ms (add rows set 0, keepq 1) and 1.73 TFLOP in
     *    65 ms (remove rows set 0), 26 TFLOP/s -> 25e12;
     *  - per_call: "us/call" 3.9 (remove rows set 0, Givens calls) to 8.8
     *    (remove columns set 0, Householder calls) -> 6e-6;
     *  - col_step: one column step of a fused panel (bench/bench_panel.c on
     *    an H200, 2026-11-21: a 264 x 64 panel in 158 us, a 264 x 32 one in
     *    78 us, both ~2.4 us a column; they are serial steps of one thread
     *    block, not flops) -> 2.4e-6.  With it the model predicts 9.6 ms
     *    for removing 200 of 3000 columns (n = 6000, measured 8.3-8.8 ms)
     *    and 11 ms for adding 200 rows to 8000 x 3000 (measured 9.5-10.2
     *    ms, docs/benchmarks-fast.md);
     *  - sweep_step: one step of the fused Givens sweeps (givens_sweeps,
     *    one thread block, teams of 8 lanes, a barrier or two a step):
     *    removing 100 rows of 12000 x 6000 (6099 steps) took 36.6 ms, of
     *    which about 15 ms are GEMMs, copies and the Householder panel of
     *    the first phase (H200, 2026-11-21; Nsight Compute timed the
     *    sweeps kernel of the version before at 55 ms of 61) -> 3.5e-6. */
    {5e12, 4e12, 25e12, 6e-6, 2.4e-6, 3.5e-6},
    /* QRU_BACKEND_OPENCL: no OpenCL table has been measured; the tests
     * run on PoCL (a CPU OpenCL) with CLBlast.  Measured once while
     * writing this file (PoCL on this machine, build-auto, best of 3):
     * FAST removal of 10 of 1000 rows of a 1000 x 300 problem (about
     * 52 MFLOP, 1330 calls) 25 ms; FAST removal of 4 of 150 rows of a
     * 150 x 30 problem (about 170 calls) 0.64 ms; refactorisations of
     * 120 x 102 (4 MFLOP, ~420 calls) 2.2 ms -> rate_upd 3e9, rate_qr 3e9
     * (no vendor geqrf: qru's own blocked QR on CLBlast GEMMs),
     * rate_gemm 5e9, per_call 5e-6.  Not measured on a GPU OpenCL; the
     * panels' column steps are counted as flops only (col_step 0), a step
     * of the fused Givens sweeps as the 4 calls it replaces. */
    {3e9, 3e9, 5e9, 5e-6, 0.0, 20e-6},
};

static const upd_costs *costs_of(const qru_context *ctx)
{
    switch (ctx->backend) {
    case QRU_BACKEND_CUDA:
        return &cost_table[1];
    case QRU_BACKEND_OPENCL:
        return &cost_table[2];
    default:
        return &cost_table[0];
    }
}

/* FAST update: flops (src/qru_flops.h, or the formula of include/qru.h for
 * the FAST row removal, which src/qru_flops.h counts as the dissertation's
 * algorithm) and backend calls, counted along the code:
 *  - add columns (update_cols.c): 3 calls per column of the Householder
 *    phase (house, larf, wy_append), 4 per Givens step (make, apply to
 *    R, d, Q), ~20 more;  measured 1551 for the add columns set 0 row;
 *  - remove columns with the fused panels: 5 per panel (7 with Q) plus
 *    one column step per reduced column (col_step); measured 219 / 307
 *    calls;  without: 3 per reduced column, 6 per panel (measured 8449);
 *  - add rows with the fused panels (update_rows.c): 12 per panel (16
 *    with Q) plus one column step per column; measured 564 / 757 calls;
 *    without: 3 per column, 13 per panel;
 *  - remove rows (update_fast.c): 3 per Householder column of the first
 *    phase, 4 per Givens step over the m + 2 p steps (measured 24453);
 *    with the backend's fused sweeps (givens_sweeps, givens_accum): one
 *    sweeps step (sweep_step) per step and 4 calls per group of
 *    accumulated rotations (measured 255 calls);
 *  - add columns with the fused sweeps likewise (measured 674 calls). */
static void fast_cost(const qru_lsq *f, const qru_context *ctx, int op, int k,
                      int p, double *flops, double *calls, double *steps,
                      double *sweeps)
{
    int n = f->n, m = f->m, r = f->r;
    double fl = 0.0, c = 0.0, st = 0.0, sw = 0.0;
    /* the fused panels of QRU_UPDATE_FAST (update_common.c) */
    int fused = qru_use_fused_panel(ctx);
    switch (op) {
    case QRU_UPD_OP_ADD_COLS: {
        int L = m - k;
        fl = flops_add_cols(n, m, p, k, r, f->upd_nb);
        c = 3.0 * p + 20.0;
        if (L > 0) {
            double nst = p + L - 1;
            int ab = qru_upd_sweeps_block(L, p);
            /* the sweeps on R (transposed, s = m + p - k rows a rotation) */
            if (qru_upd_use_sweeps(ctx, f->dtype, L, p, m + p - k)) {
                c += 1.0;
                sw += nst;
            } else {
                c += 2.0 * nst;
            }
            /* on d */
            c += qru_upd_use_sweeps(ctx, f->dtype, L, p, r) ? 1.0 : nst;
            /* on Q: accumulated groups (2 calls each) */
            if (ab)
                c += 2.0 * ceil((double)L / ab) +
                     (qru_op_native(ctx, QRU_OP_givens_accum) ? 1.0 : (double)nst);
            else
                c += nst;
        }
        break;
    }
    case QRU_UPD_OP_REMOVE_COLS: {
        int nred = m - p - k;
        int nb = fused ? qru_upd_fused_nb(f, ctx, nred > 0 ? nred : 1, p)
                       : qru_upd_nb(f, nred > 0 ? nred : 1);
        fl = flops_remove_cols(n, m, p, k, r, f->has_q, f->upd_nb);
        double nblk = ceil((double)nred / nb);
        if (fused) { /* a panel call, 2 + 2 (+ 2 with Q) GEMMs a panel */
            c = (f->has_q ? 7.0 : 5.0) * nblk + 1.0;
            st = nred;
        } else {
            c = 3.0 * nred + 6.0 * nblk + 4.0;
        }
        break;
    }
    case QRU_UPD_OP_ADD_ROWS: {
        int nb = fused ? qru_upd_fused_nb(f, ctx, m, p) : qru_upd_nb(f, m);
        if (nb > m)
            nb = m;
        fl = flops_add_rows(n, m, p, k, r, f->has_q, nb);
        double nblk = ceil((double)m / nb);
        if (fused) { /* 4 + 8 (+ 4 with Q) calls a panel */
            c = (f->has_q ? 16.0 : 12.0) * nblk;
            st = m;
        } else {
            c = 3.0 * m + 13.0 * nblk;
        }
        c += 8.0;
        break;
    }
    default: { /* QRU_UPD_OP_REMOVE_ROWS */
        double dn = n, dm = m, dp = p;
        fl = 4.0 * dn * (dn - dm) * dp + 8.0 * dn * dm * dp +
             6.0 * dp * (dm + dp) * (dm + r);
        {
            int ab = qru_upd_sweeps_block(m, p);
            double nst = dm + dp - 1.0;
            c = 3.0 * dp + 12.0;
            if (qru_upd_use_sweeps(ctx, f->dtype, m, p, p)) { /* one call */
                sw = nst;
            } else {
                c += 2.0 * nst;
            }
            /* on Q and [R'; d']: accumulated groups, 4 calls each */
            if (ab)
                c += 4.0 * ceil(dm / ab) +
                     (qru_op_native(ctx, QRU_OP_givens_accum) ? 1.0 : nst);
            else
                c += 2.0 * nst;
        }
        break;
    }
    }
    *flops = fl;
    *calls = c;
    *steps = st;
    *sweeps = sw;
}

/* Sizes of the updated problem. */
static void new_size(const qru_lsq *f, int op, int p, int *n1, int *m1)
{
    *n1 = f->n;
    *m1 = f->m;
    if (op == QRU_UPD_OP_ADD_COLS)
        *m1 += p;
    else if (op == QRU_UPD_OP_REMOVE_COLS)
        *m1 -= p;
    else if (op == QRU_UPD_OP_ADD_ROWS)
        *n1 += p;
    else
        *n1 -= p;
}

static int refactor_nb(const qru_lsq *f, const qru_context *ctx, int m1)
{
    int nb = f->nb ? f->nb : qru_ctx_tuning(ctx, f->dtype)->qr_nb;
    if (nb > m1)
        nb = m1;
    return nb < 1 ? 1 : nb;
}

/* Predicted seconds of the two paths. */
static void predict(const qru_lsq *f, const qru_context *ctx, int op, int k,
                    int p, double *t_upd, double *t_ref)
{
    const upd_costs *c = costs_of(ctx);
    double fl, calls, steps, sweeps;
    fast_cost(f, ctx, op, k, p, &fl, &calls, &steps, &sweeps);
    *t_upd = fl / c->rate_upd + calls * c->per_call + steps * c->col_step +
             sweeps * c->sweep_step;

    int n = f->n, m = f->m, r = f->r, n1, m1;
    new_size(f, op, p, &n1, &m1);
    /* rebuild: the rows (row updates) or columns (column updates) of
     * A = Q(:,1:m) R(1:m,:) and b = Q d that A1 keeps */
    double rows_kept = op == QRU_UPD_OP_ADD_ROWS     ? n
                       : op == QRU_UPD_OP_REMOVE_ROWS ? n1
                                                      : n;
    double cols_kept = op == QRU_UPD_OP_REMOVE_COLS ? m1 : m;
    double rebuild = flops_gemm(rows_kept, cols_kept, m) +
                     flops_gemm(rows_kept, r, n);
    int kk = n1 < m1 ? n1 : m1;
    double fq = flops_geqrf(n1, m1);
    double fg = rebuild + flops_ormqr(n1, m1, r) + flops_orgqr(n1, n1, kk);
    double rcalls = 12.0;
    if (!qru_qr_use_vendor(ctx, f->dtype, n1, m1, f->nb))
        rcalls += 4.0 * m1; /* qru's own (fused) panels, counted as the
                               add-rows update's */
    *t_ref = fq / c->rate_qr + fg / c->rate_gemm + rcalls * c->per_call;
}

/* The refactorisation path (f holds Q; arguments already checked). */
static int refactor(qru_context *ctx, qru_lsq *f, int op, int k, int p,
                    const qru_matrix *U, const qru_matrix *e)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, n1, m1;
    new_size(f, op, p, &n1, &m1);
    int nb = refactor_nb(f, ctx, m1);
    size_t nqr = 0;
    QRU_TRY(qru_qr_full_workspace(ctx, dt, n1, m1, 1, r, nb, f->nb, &nqr));
    size_t oA = 0, oB = oA + (size_t)n1 * m1, oQ = oB + (size_t)n1 * r,
           oW = oQ + (size_t)n1 * n1, total = oW + nqr + 1;
    /* add columns: the update's rank check (the rank rule) on the new R1 */
    int s = op == QRU_UPD_OP_ADD_COLS ? m1 : 0;
    double *hnorm = NULL;
    if (s > 0) {
        hnorm = malloc(sizeof(double) * 2 * (size_t)s);
        if (!hnorm)
            return QRU_ERR_ALLOC;
    }
    qru_ptr ws;
    int st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws);
    if (!st) /* keeps the contents; f is unchanged as a factorisation */
        st = qru_lsq_reserve(f, n1, m1);
    if (st) {
        free(hnorm);
        return st;
    }
    int ld = f->ncap;
    qru_ptr A1 = qru_ptr_add(ws, oA), B1 = qru_ptr_add(ws, oB),
            Q1 = qru_ptr_add(ws, oQ), W = qru_ptr_add(ws, oW);
    qru_ptr Q = f->Q, R = f->R, d = f->d;

#define CK(x)                                                                  \
    do {                                                                       \
        if ((st = (x)) != 0)                                                   \
            goto done;                                                         \
    } while (0)

    if (op == QRU_UPD_OP_ADD_ROWS || op == QRU_UPD_OP_REMOVE_ROWS) {
        /* segments (source row, count, destination row) of A and b */
        int seg[2][3];
        if (op == QRU_UPD_OP_ADD_ROWS) {
            int a[2][3] = {{0, k, 0}, {k, n - k, k + p}};
            memcpy(seg, a, sizeof seg);
        } else {
            int a[2][3] = {{0, k, 0}, {k + p, n - k - p, k}};
            memcpy(seg, a, sizeof seg);
        }
        for (int i = 0; i < 2; ++i) {
            int s0 = seg[i][0], cnt = seg[i][1], d0 = seg[i][2];
            if (cnt <= 0)
                continue;
            CK(o->gemm(ctx, dt, 'N', 'N', cnt, m, m, 1.0,
                       qru_ptr_add(Q, (size_t)s0), ld, R, ld, 0.0,
                       qru_ptr_add(A1, (size_t)d0), n1));
            CK(o->gemm(ctx, dt, 'N', 'N', cnt, r, n, 1.0,
                       qru_ptr_add(Q, (size_t)s0), ld, d, ld, 0.0,
                       qru_ptr_add(B1, (size_t)d0), n1));
        }
        if (op == QRU_UPD_OP_ADD_ROWS) {
            CK(o->copy(ctx, dt, p, m, U->p, U->ld, qru_ptr_add(A1, (size_t)k),
                       n1));
            CK(o->copy(ctx, dt, p, r, e->p, e->ld, qru_ptr_add(B1, (size_t)k),
                       n1));
        }
    } else {
        /* segments (source column, count, destination column) of A */
        int seg[2][3];
        if (op == QRU_UPD_OP_ADD_COLS) {
            int a[2][3] = {{0, k, 0}, {k, m - k, k + p}};
            memcpy(seg, a, sizeof seg);
        } else {
            int a[2][3] = {{0, k, 0}, {k + p, m - k - p, k}};
            memcpy(seg, a, sizeof seg);
        }
        for (int i = 0; i < 2; ++i) {
            int s0 = seg[i][0], cnt = seg[i][1], d0 = seg[i][2];
            if (cnt <= 0)
                continue;
            CK(o->gemm(ctx, dt, 'N', 'N', n, cnt, m, 1.0, Q, ld,
                       qru_ptr_at(R, ld, 0, s0), ld, 0.0,
                       qru_ptr_at(A1, n1, 0, d0), n1));
        }
        CK(o->gemm(ctx, dt, 'N', 'N', n, r, n, 1.0, Q, ld, d, ld, 0.0, B1,
                   n1));
        if (op == QRU_UPD_OP_ADD_COLS)
            CK(o->copy(ctx, dt, n, p, U->p, U->ld, qru_ptr_at(A1, n1, 0, k),
                       n1));
    }
    CK(qru_qr_full(ctx, dt, n1, m1, A1, n1, Q1, n1, B1, n1, r, nb, f->nb, W));
    if (s > 0) {
        /* R1's rows 0 .. m1-1 hold all of its nonzeros */
        double *hdiag = hnorm + s;
        CK(qru_qr_rank_gather(ctx, dt, m1, m1, A1, A1, n1, hdiag, hnorm));
        if ((st = qru_qr_rank_first(dt, n1, m1, k, hdiag, hnorm)) != 0)
            goto done;
    }
    /* commit */
    CK(o->copy(ctx, dt, n1, m1, A1, n1, R, ld));
    CK(o->copy(ctx, dt, n1, n1, Q1, n1, Q, ld));
    CK(o->copy(ctx, dt, n1, r, B1, n1, d, ld));
    f->n = n1;
    f->m = m1;
done:
#undef CK
    free(hnorm);
    return st;
}

int qru_upd_policy(qru_context *ctx, qru_lsq *f, int op, int k, int p,
                   const qru_matrix *U, const qru_matrix *e, int *st)
{
    if (f->in_policy)
        return 0; /* called back by the update below: run it */
    int alg = f->upd_alg;
    int path = QRU_PATH_UPDATE;
    if (alg == QRU_UPDATE_AUTO && f->has_q) {
        double t_upd, t_ref;
        predict(f, ctx, op, k, p, &t_upd, &t_ref);
        if (t_ref < t_upd)
            path = QRU_PATH_REFACTOR;
    }
    int s;
    if (path == QRU_PATH_REFACTOR) {
        s = refactor(ctx, f, op, k, p, U, e);
    } else {
        f->in_policy = 1;
        if (alg == QRU_UPDATE_AUTO)
            f->upd_alg = QRU_UPDATE_FAST;
        switch (op) {
        case QRU_UPD_OP_ADD_COLS:
            s = qru_qr_update_add_cols(ctx, f, k, U);
            break;
        case QRU_UPD_OP_REMOVE_COLS:
            s = qru_qr_update_remove_cols(ctx, f, k, p);
            break;
        case QRU_UPD_OP_ADD_ROWS:
            s = qru_qr_update_add_rows(ctx, f, k, U, e);
            break;
        default:
            s = qru_qr_update_remove_rows(ctx, f, k, p);
            break;
        }
        f->upd_alg = alg;
        f->in_policy = 0;
    }
    if (s == 0)
        f->last_path = path;
    *st = s;
    return 1;
}

int qru_lsq_last_update_path(const qru_lsq *f)
{
    return f ? f->last_path : -1;
}
