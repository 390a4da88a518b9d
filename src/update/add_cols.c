/*
 * Column updates of a least-squares QR factorisation (Andrew 2012,
 * sections 2.4.1 and 4.1), written once for both precisions
 * against the backend table:
 *
 *  - adding a block of p columns U after column k (needs Q):
 *      U_Q = Q' U; a blocked Householder QR of U_Q(m+1:n, :) (the rows where
 *      R is zero); then strips of Givens rotations (makeGivens /
 *      applyGivens of section 3.2) on the transposed active block
 *      R1(k+1:m+p, k+1:m+p) remove the p subdiagonals of the new columns.
 *      Everything that concerns R is computed in workspace first, so that a
 *      rank-deficient result leaves the factorisation unchanged; the stored
 *      reflectors (the panels' W, Y merged into one block reflector) and
 *      rotations (c, s) are then applied to Q and d.
 */
#include <math.h>
#include <stdlib.h>

#include "qru_flops.h"
#include "update.h"

/* Number of Givens steps of the add-columns update and the rotations of
 * step t: new column j (local, 0 <= j < p) has L = m - k entries below its
 * diagonal after the Householder phase, removed bottom-up with rotations
 * of the local rows (i-1, i), i = L+j, ..., j+1.  Rotation (i, j) runs at
 * step t = L + 2j - i, so the rotations of one step act on disjoint pairs
 * of rows (i grows by 2 with j) and never disturb zeros made before. */
/* Number of Givens steps of the add-columns update and the rotations of
 * step t: new column j (local, 0 <= j < p) has L = m - k entries below its
 * diagonal after the Householder phase, removed bottom-up with rotations
 * of the local rows (i-1, i), i = L+j, ..., j+1.  Rotation (i, j) runs at
 * step t = L + 2j - i, so the rotations of one step act on disjoint pairs
 * of rows (i grows by 2 with j) and never disturb zeros made before. */
int qru_lsq_add_cols(qru_lsq *f, int k, const qru_matrix *U)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int n = f->n, m = f->m;
    QRU_ARG(ctx, 2, k >= 0 && k <= m,
            "k = %d, but 0 <= k <= m = %d must hold", k, m);
    qru_dtype dt = f->dtype;
    QRU_ARG_MAT(ctx, 3, "U", U, dt);
    QRU_ARG(ctx, 3, U->rows == n, "U has %d rows, but it needs n = %d",
            U->rows, n);
    QRU_ARG(ctx, 3, U->cols >= 1 && U->cols <= n - m,
            "U has %d columns, but 1 <= p <= n - m = %d must hold (A stays "
            "tall: m + p <= n = %d, m = %d)", U->cols, n - m, n, m);
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, U, 'A', 'N', 0));
    if (!f->has_q)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation was created "
                                            "without QRU_LSQ_KEEP_Q"));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                       (qru_upd_req){QRU_UPD_OP_ADD_COLS, k, U->cols, U, NULL,
                                     0}));
}

int qru_upd_add_cols(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, st;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U;
    const qru_backend_ops *o = ctx->ops;
    int p = U->cols;
    int nz = n - m;     /* rows of the Householder phase, >= p */
    int L = m - k;      /* entries to remove below each new diagonal */
    int s = m + p - k;  /* order of the active block */
    int mr = m + p;     /* rows of the workspace copy of R1(:, k+1:m+p) */
    int nb = qru_upd_nb(f, p);
    size_t nsteps = L > 0 ? (size_t)(p + L - 1) : 0;

    /* workspace (elements) */
    size_t o_uq = 0;
    size_t o_y = o_uq + (size_t)n * p;
    size_t o_w = o_y + (size_t)nz * p;
    size_t o_tau = o_w + (size_t)nz * p;
    size_t o_rw = o_tau + (size_t)p;
    size_t o_rt = o_rw + (size_t)mr * s;
    size_t o_cs = o_rt + (L > 0 ? (size_t)s * s : 0);
    size_t o_work = o_cs + 2 * (size_t)p * (size_t)L;
    size_t nwork = (size_t)p * (size_t)(p > r ? p : r);
    if ((size_t)n * p > nwork)
        nwork = (size_t)n * p;
    /* QRU_UPDATE_FAST: the rotations are applied to Q through
     * qru_upd_sweeps_apply (accumulated into GEMMs for p >= 16) */
    int fast = rq->alg == QRU_UPDATE_FAST && L > 0;
    size_t o_sw = o_work + nwork + 1;
    size_t total = o_sw + (fast ? qru_upd_sweeps_workspace(ctx, L, p, n, 0) : 0);
    double *hdiag = malloc(sizeof(double) * 2 * (size_t)mr);
    if (!hdiag)
        return QRU_HOST_ALLOC_FAILED;
    double *hnorm = hdiag + mr;
    qru_ptr ws;
    st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws);
    if (st) {
        free(hdiag);
        return st;
    }
    qru_ptr Uq = qru_ptr_add(ws, o_uq), Y = qru_ptr_add(ws, o_y),
            W = qru_ptr_add(ws, o_w), tau = qru_ptr_add(ws, o_tau),
            Rw = qru_ptr_add(ws, o_rw), RT = qru_ptr_add(ws, o_rt),
            cs = qru_ptr_add(ws, o_cs), work = qru_ptr_add(ws, o_work),
            sw = qru_ptr_add(ws, o_sw);
    qru_ptr Z = qru_ptr_add(Uq, (size_t)m); /* U_Q(m+1:n, :), ld n */

    /* PHASE 0: U_Q = Q' U */
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'T', 'N', n, p, n, 1.0, f->Q, f->ncap, U->p, U->ld,
               0.0, Uq, n));
    /* PHASE 1: Householder QR of U_Q(m+1:n, :); block i keeps its Y, W in
     * Y(i:nz, i:i+jb), W(i:nz, i:i+jb) for the later application to Q, d */
    for (int i = 0; i < p; i += nb) {
        int jb = p - i < nb ? p - i : nb;
        QRU_TRY_GOTO(qru_upd_panel(ctx, dt, Z, n, nz, p, i, jb, nz,
                         qru_ptr_at(Y, nz, i, i), nz, qru_ptr_at(W, nz, i, i),
                         nz, qru_ptr_add(tau, (size_t)i), work));
    }
    /* Rw = [U_Q(1:m, :)  R(1:m, k+1:m); triu(U_Q(m+1:m+p, :))  0] */
    QRU_TRY_GOTO(o->copy(ctx, dt, m, p, Uq, n, Rw, mr));
    QRU_TRY_GOTO(o->copy(ctx, dt, p, p, Z, n, qru_ptr_add(Rw, (size_t)m), mr));
    if (L > 0) {
        QRU_TRY_GOTO(o->copy(ctx, dt, m, L, qru_ptr_at(f->R, f->ncap, 0, k), f->ncap,
                   qru_ptr_at(Rw, mr, 0, p), mr));
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', p, L, 0.0, 0.0, qru_ptr_at(Rw, mr, m, p),
                    mr));
    }
    /* PHASE 2: Givens strips on RT = Rw(k+1:m+p, :)' (row major active
     * block: the rows of R are contiguous columns of RT) */
    if (L > 0) {
        QRU_TRY_GOTO(o->transpose(ctx, dt, s, s, qru_ptr_add(Rw, (size_t)k), mr, RT, s));
        /* in one call when the backend's fused sweeps pay off */
        QRU_TRY_GOTO(((fast && qru_upd_use_sweeps(ctx, dt, L, p, s)) ? o->givens_sweeps
                                                      : qru_ref_givens_sweeps)(
            ctx, dt, L, p, 1, RT, 1, s, s, 1, cs));
        QRU_TRY_GOTO(o->transpose(ctx, dt, s, s, RT, s, qru_ptr_add(Rw, (size_t)k), mr));
        /* the rotated-away entries are rounding-level: make them exact 0 */
        QRU_TRY_GOTO(o->laset(ctx, dt, 'L', s - 1, s, 0.0, 0.0,
                    qru_ptr_add(Rw, (size_t)k + 1), mr));
    }

    /* the rank rule on the columns k+1..m+p this update computes, with the
     * tolerance of all of R1 = [R(:, 1:k)  Rw] (host round trip) */
    QRU_TRY_GOTO(qru_qr_rank_gather(ctx, dt, k, k, f->R, f->R, f->ncap, hdiag, hnorm));
    QRU_TRY_GOTO(qru_qr_rank_gather(ctx, dt, mr, s, Rw, qru_ptr_add(Rw, (size_t)k), mr,
                          hdiag + k, hnorm + k));
    if ((st = qru_qr_rank_first(dt, n, mr, k, hdiag, hnorm)) != 0)
        goto done;

    /* commit: capacity, then Q := Q H G', d := G H' d, R(:, k+1:m+p) */
    QRU_TRY_GOTO(qru_lsq_reserve(f, n, m + p));
    {
        int ld = f->ncap;
        /* merge the panels' block reflectors into one, P = I + W Y' with
         * Y, W nz x p (P1 P2 = I + [W1, W2 + W1 (Y1' W2)] [Y1 Y2]'), so that
         * Q and d are swept once with GEMMs of inner size p instead of once
         * per panel */
        QRU_TRY_GOTO(o->laset(ctx, dt, 'U', nz, p, 0.0, 1.0, Y, nz));
        for (int i = nb; i < p; i += nb) {
            int jb = p - i < nb ? p - i : nb;
            qru_ptr Wb = qru_ptr_at(W, nz, 0, i);
            QRU_TRY_GOTO(o->laset(ctx, dt, 'A', i, jb, 0.0, 0.0, Wb, nz));
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'T', 'N', i, jb, nz, 1.0, Y, nz, Wb, nz, 0.0,
                       work, i));
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', nz, jb, i, 1.0, W, nz, work, i, 1.0,
                       Wb, nz));
        }
        QRU_TRY_GOTO(qru_upd_wy_right(ctx, dt, n, nz, p, Y, nz, W, nz,
                            qru_ptr_at(f->Q, ld, 0, m), ld, work));
        QRU_TRY_GOTO(qru_upd_wy_left(ctx, dt, nz, p, r, Y, nz, W, nz,
                           qru_ptr_add(f->d, (size_t)m), ld, work));
        if (fast) {
            qru_ptr none = {0, 0};
            QRU_TRY_GOTO(qru_upd_sweeps_apply(ctx, dt, L, p, cs,
                                    qru_ptr_at(f->Q, ld, 0, k), ld, n, none, 1,
                                    0, sw));
        }
        size_t off = 0;
        if (fast && r > 0 && qru_upd_use_sweeps(ctx, dt, L, p, r)) { /* d */
            QRU_TRY_GOTO(o->givens_sweeps(ctx, dt, L, p, 0, qru_ptr_add(f->d, (size_t)k),
                                ld, 1, r, 0, cs));
            off = 2 * (size_t)p * (size_t)L;
        }
        for (size_t t = 0; off < 2 * (size_t)p * (size_t)L && t < nsteps;
             ++t) {
            int jlo, cnt, i0;
            qru_sweep_step(L, p, (int)t, &jlo, &cnt, &i0);
            if (cnt == 0)
                continue;
            qru_ptr c = qru_ptr_add(cs, off);
            if (!fast)
                QRU_TRY_GOTO(o->givens_apply(ctx, dt, cnt, n, c,
                                   qru_ptr_at(f->Q, ld, 0, k + i0 - 1), 2 * ld,
                                   ld, 1));
            QRU_TRY_GOTO(o->givens_apply(ctx, dt, cnt, r, c,
                               qru_ptr_at(f->d, ld, k + i0 - 1, 0), 2, 1, ld));
            off += 2 * (size_t)cnt;
        }
        QRU_TRY_GOTO(o->copy(ctx, dt, mr, s, Rw, mr, qru_ptr_at(f->R, ld, 0, k), ld));
        if (n > mr)
            QRU_TRY_GOTO(o->laset(ctx, dt, 'A', n - mr, s, 0.0, 0.0,
                        qru_ptr_at(f->R, ld, mr, k), ld));
        f->m = m + p;
    }
done:
    free(hdiag);
    return st;
}

/* The cost of the fast update (qru_upd_cost, update.h): 3 calls per column
 * of the Householder phase (house, larf, wy_append), 6 per panel beyond
 * the first, 2 per Givens step on R and 1 on d (one call each with the
 * fused sweeps: then a sweeps step per step), the accumulated groups on
 * Q; flops of qru_flops.h. */
void qru_upd_add_cols_cost(const qru_lsq *f, const qru_context *ctx, int k, int p,
                           qru_upd_cost *out)
{
    int n = f->n, m = f->m, r = f->r;
    double fl = 0.0, c = 0.0, st = 0.0, sw = 0.0;

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
                 qru_upd_accum_calls(ctx, L, p, ab);
        else
            c += nst;
    }

    out->flops = fl;
    out->calls = c;
    out->steps = st;
    out->sweeps = sw;
}
