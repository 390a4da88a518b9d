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
 * Every public update hands its checked request to qru_upd_run(), which
 * picks the strategy, runs it and records the path of each successful
 * update (qru_lsq_last_update_path()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_update.h"
#include "qru_flops.h"

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
/* Calls of givens_accum for L-rotation sweeps in groups of ab: one, or
 * with the reference op a laset per group and a givens_apply per group
 * step (L + groups * p in all, less one per group). */
static double accum_calls(const qru_context *ctx, int L, int p, int ab)
{
    if (qru_op_native(ctx, QRU_OP_givens_accum))
        return 1.0;
    double ng = ceil((double)L / ab);
    return L + ng * p;
}

void qru_upd_fast_cost(const qru_lsq *f, const qru_context *ctx, int op,
                       int k, int p, double *flops, double *calls,
                       double *steps, double *sweeps)
{
    int n = f->n, m = f->m, r = f->r;
    double fl = 0.0, c = 0.0, st = 0.0, sw = 0.0;
    /* the fused panels of QRU_UPDATE_FAST (update_common.c) */
    int fused = qru_use_fused_panel(ctx);
    switch (op) {
    case QRU_UPD_OP_ADD_COLS: {
        int L = m - k;
        fl = flops_add_cols(n, m, p, k, r, f->upd_nb);
        /* Householder phase: 3 a column, 6 a block beyond the first
         * (merging the block reflectors), 17 more */
        c = 3.0 * p + 11.0 + 6.0 * ceil((double)p / qru_upd_nb(f, p));
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
                     accum_calls(ctx, L, p, ab);
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
            /* the first phase, qru_geqr_wy of the p columns: a panel and
             * 4 GEMMs (2 with r = 0) a block, or 3 calls a column in
             * the reference panels */
            int nb = qru_upd_rr_nb(f, p);
            double nblk = ceil(dp / nb);
            c = (qru_use_fused_panel(ctx) ? nblk : 3.0 * dp + nblk) +
                (r > 0 ? 6.0 : 4.0) * nblk - 2.0 + 12.0;
            if (qru_upd_use_sweeps(ctx, f->dtype, m, p, p)) { /* one call */
                sw = nst;
            } else {
                c += 2.0 * nst;
            }
            /* on Q and [R'; d']: accumulated groups, 4 calls each */
            if (ab)
                c += 4.0 * ceil(dm / ab) + accum_calls(ctx, m, p, ab);
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
    const qru_cost_model *c = &qru_ctx_tuning(ctx, f->dtype)->cost;
    double fl, calls, steps, sweeps;
    qru_upd_fast_cost(f, ctx, op, k, p, &fl, &calls, &steps, &sweeps);
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
static int refactor(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int op = rq->op, k = rq->k, p = rq->p;
    const qru_matrix *U = rq->U, *e = rq->e;
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

/* The updates by operation (QRU_UPD_OP_*). */
static int run_update(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    static const qru_upd_fn update_of[] = {
        qru_upd_add_cols, qru_upd_remove_cols, qru_upd_add_rows,
        qru_upd_remove_rows};
    return update_of[rq->op](ctx, f, rq);
}

int qru_upd_run(qru_context *ctx, qru_lsq *f, qru_upd_req rq)
{
    int path = QRU_PATH_UPDATE;
    rq.alg = f->upd_alg;
    if (rq.alg == QRU_UPDATE_AUTO) {
        rq.alg = QRU_UPDATE_FAST;
        if (f->has_q) { /* R-only: nothing to rebuild A from */
            double t_upd, t_ref;
            predict(f, ctx, rq.op, rq.k, rq.p, &t_upd, &t_ref);
            if (t_ref < t_upd)
                path = QRU_PATH_REFACTOR;
        }
    }
    int st = path == QRU_PATH_REFACTOR ? refactor(ctx, f, &rq)
                                       : run_update(ctx, f, &rq);
    if (st == 0)
        f->last_path = path;
    return st;
}

int qru_lsq_last_update_path(const qru_lsq *f)
{
    return f ? f->last_path : -1;
}
