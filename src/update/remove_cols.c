/*
 * Column updates of a least-squares QR factorisation (Andrew 2012,
 * sections 2.4.2 and 4.2), written once for both precisions against the
 * backend table:
 *
 *  - removing the p columns after column k (R only): the columns are
 *      deleted from R and the band of p subdiagonals left behind is reduced
 *      with blocked Householder reflectors of length p + 1, applied to d and
 *      (when held) to Q.  QRU_UPDATE_FAST with the backend's fused
 *      panel_qr: one call per (nb + p) x nb panel of the band, in place
 *      (nb from the backend's on-chip limit), instead of 3 nb + 1, with
 *      look-ahead on a second queue as in adding rows.
 *  - one column (p = 1, QRU_UPDATE_FAST): the band is one subdiagonal,
 *      removed top-down by a chain of Givens rotations of R's adjacent
 *      rows (each formed and applied by one givens_make and one
 *      givens_apply), then applied to d's rows and to Q's adjacent
 *      columns, one column pair at a time along Q's contiguous columns:
 *      6 n (m - k) flops on Q against the panels' 4 nb n (m - k) in
 *      GEMMs.  The variant whose plan is priced faster runs
 *      (qru_upd_variant), so a backend on which the many small calls
 *      cost more than the panels' GEMMs keeps the panels.
 *  - one column by the structured rank-1 passes (rows_r1.c): the chain on
 *      R is the row u = R(k, k+1:m) added to the trailing triangle
 *      R22 = R(k+1:m, k+1:m) (rhs d(k) to d(k+1:m)), so R22 and d come
 *      from one solve p = R22' \ u and a pass over R22, Q's columns from
 *      the same rotations in closed form (chol_r1_rotate: Q(:, k+1:m)
 *      rotated against Q(:, k), moving one column left, the last one
 *      leaving as the complement); about ten calls and one host wait
 *      whatever m - k, where its plan is priced faster.  Where R22 is
 *      singular or p longer than QRU_UPD_R1_PMAX (R22 ill-conditioned:
 *      the passes would add the row R22' p, far from u) the Givens chain
 *      or the panels take the column instead.
 */
#include <math.h>
#include <stdlib.h>

#include "../chol_internal.h"
#include "qru_flops.h"
#include "update.h"

int qru_lsq_remove_cols(qru_lsq *f, int k, int p)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int m = f->m;
    QRU_ARG(ctx, 2, k >= 0 && k < m,
            "k = %d, but 0 <= k < m = %d must hold", k, m);
    QRU_ARG(ctx, 3, p >= 1, "p = %d, but p must be >= 1", p);
    QRU_ARG(ctx, 3, p <= m - k,
            "p = %d, but k + p must be <= m = %d (k = %d)", p, m, k);
    QRU_ARG(ctx, 3, p < m,
            "p = %d, but at least one of the m = %d columns must stay", p,
            m);
    QRU_RET(ctx, qru_upd_run(ctx, f,
                       (qru_upd_req){QRU_UPD_OP_REMOVE_COLS, k, p, NULL, NULL, NULL, NULL,
                                     0, NULL, -1}));
}

/* The chain of Givens rotations of one removed column (p = 1): rotation
 * j - k (j = k .. m - 2) acts on rows j, j + 1 of R and d and on columns
 * j, j + 1 of Q; cs holds 2 (m - 1 - k) elements. */
static int rc_givens(qru_context *ctx, qru_lsq *f, int k, qru_ptr cs)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m1 = f->m - 1, r = f->r, ld = f->ldr, ldq = f->ncap;
    int hq = f->q != QRU_Q_NONE;
    for (int j = k; j < m1; ++j) {
        qru_ptr c = qru_ptr_add(cs, 2 * (size_t)(j - k));
        QRU_TRY(o->givens_make(ctx, dt, 1, qru_ptr_at(f->R, ld, j, j), 0, 1,
                               c));
        QRU_TRY(o->givens_apply(ctx, dt, 1, m1 - j, c,
                                qru_ptr_at(f->R, ld, j, j), 0, 1, ld));
    }
    /* the subdiagonal R(j+1, j), rounding noise now: exact zeros */
    QRU_TRY(o->laset(ctx, dt, 'A', 1, m1 - k, 0.0, 0.0,
                     qru_ptr_at(f->R, ld, k + 1, k), ld + 1));
    for (int j = k; j < m1; ++j) {
        qru_ptr c = qru_ptr_add(cs, 2 * (size_t)(j - k));
        if (r > 0)
            QRU_TRY(o->givens_apply(ctx, dt, 1, r, c,
                                    qru_ptr_at(f->d, ld, j, 0), 0, 1, ld));
        if (hq)
            QRU_TRY(o->givens_apply(ctx, dt, 1, n, c,
                                    qru_ptr_at(f->Q, ldq, 0, j), 0, ldq, 1));
    }
    return 0;
}

/* The rows m1 .. m-1 of d leave the triangle: rows of the full d; the
 * thin form adds Q(:, m1:m) d(m1:m, :) to the residuals, the Q-less form
 * their norms; then f has m1 columns. */
static int rc_leave(qru_context *ctx, qru_lsq *f, int k, int p)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m1 = f->m - p, r = f->r, ld = f->ldr, ldq = f->ncap;
    if (f->q == QRU_Q_THIN)
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, r, p, 1.0,
                        qru_ptr_at(f->Q, ldq, 0, m1), ldq,
                        qru_ptr_add(f->d, (size_t)m1), ld, 1.0, f->E, ldq));
    if (f->q == QRU_Q_NONE) {
        QRU_TRY(qru_upd_rho_add(ctx, f, p, qru_ptr_add(f->d, (size_t)m1), ld,
                                1.0));
        QRU_TRY(qru_upd_gram_drop(ctx, f, k, p));
    }
    f->m = m1;
    return 0;
}

/* Column k (p = 1) by the structured passes, up to the rows of d that
 * leave the triangle (d(m-1) := the row's residual; the caller takes
 * them): *done = 0 (f unchanged) where R22 is singular, so that the
 * chain cannot be formed, or where ||p|| > QRU_UPD_R1_PMAX, and the
 * caller's path runs. */
static int rc_r1(qru_context *ctx, qru_lsq *f, int k, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, m1 = m - 1, nr = m1 - k;
    int ld = f->ldr, ldq = f->ncap, hq = f->q != QRU_Q_NONE;
    *done = 0;
    size_t a = qru_chol_align((size_t)nr);
    size_t nws = 3 * a + qru_chol_align(2 + (size_t)r) +
                 qru_chol_align(qru_chol_r1_work(nr, 1)) +
                 qru_chol_align((size_t)nr * (size_t)(r > nr ? r : nr)) +
                 qru_chol_align((size_t)nr * (size_t)nr) +
                 (hq ? qru_chol_r1_rotate_work(n, nr) : 0);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr u = ws, p = qru_ptr_add(u, a), head = qru_ptr_add(p, a),
            info = qru_ptr_add(head, a), pp = qru_ptr_add(info, 1),
            du = qru_ptr_add(info, 2),
            work = qru_ptr_add(info, qru_chol_align(2 + (size_t)r)),
            d1 = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(nr, 1))),
            T1 = qru_ptr_add(d1, qru_chol_align((size_t)nr *
                                                (size_t)(r > nr ? r : nr))),
            rw = qru_ptr_add(T1, qru_chol_align((size_t)nr * (size_t)nr));
    qru_ptr R22 = qru_ptr_at(f->R, ld, k + 1, k + 1);
    /* A1's diagonal is not needed: d1 holds it, overwritten by rhs */
    QRU_TRY(o->copy(ctx, dt, 1, nr, qru_ptr_at(f->R, ld, k, k + 1), ld, u,
                    1));
    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    QRU_TRY(o->chol_r1_solve_prep(ctx, dt, 'U', nr, 1, R22, ld, u, p, work,
                                  head, d1, info, 0));
    QRU_TRY(o->chol_r1_rhs(ctx, dt, nr, r, 1, p, work,
                           qru_ptr_add(f->d, (size_t)(k + 1)), ld, d1, nr,
                           qru_ptr_add(f->d, (size_t)k), ld, du));
    /* ||p||^2, read back with the flag */
    QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, 1, nr, 1.0, p, nr, p, nr, 0.0, pp,
                    1));
    double h[2] = {0.0, 0.0};
    QRU_TRY(qru_chol_read_row(ctx, dt, 2, info, 1, h));
    if (!qru_plan_healthy_info(ctx) &&
        (h[0] != 0.0 || !(sqrt(h[1]) <= QRU_UPD_R1_PMAX)))
        return 0; /* R22 singular or p too long: the caller's path */
    /* commit: R1's block into T1, R's first k rows move left, then the
     * block, d1, the leaving row of d, Q */
    QRU_TRY(o->chol_r1_apply(ctx, dt, 'U', nr, 1, R22, ld, T1, nr, p, nr,
                             work));
    if (k > 0)
        QRU_TRY(o->copy(ctx, dt, k, nr, qru_ptr_at(f->R, ld, 0, k + 1), ld,
                        qru_ptr_at(f->R, ld, 0, k), ld));
    QRU_TRY(o->lacpy(ctx, dt, 'U', nr, nr, T1, nr,
                     qru_ptr_at(f->R, ld, k, k), ld));
    if (r > 0) {
        QRU_TRY(o->copy(ctx, dt, nr, r, d1, nr,
                        qru_ptr_add(f->d, (size_t)k), ld));
        QRU_TRY(o->copy(ctx, dt, 1, r, du, 1,
                        qru_ptr_add(f->d, (size_t)m1), ld));
    }
    if (hq)
        QRU_TRY(o->chol_r1_rotate(ctx, dt, n, nr, 1.0, p, 1,
                                  qru_ptr_at(f->Q, ldq, 0, k + 1), ldq,
                                  qru_ptr_at(f->Q, ldq, 0, k), ldq,
                                  qru_ptr_at(f->Q, ldq, 0, k),
                                  qru_ptr_at(f->Q, ldq, 0, m1), rw));
    *done = 1;
    return 0;
}

int qru_upd_remove_cols(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, p = rq->p;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m1 = m - p;
    int nred = m1 - k; /* columns to reduce */
    /* QRU_UPDATE_FAST with a fused panel op: each (nb + p) x nb panel of the
     * band in ONE panel_qr call, in place in R (the band's zeros below row
     * c + p of column c are exact and stay exact: the panel's reflectors are
     * those of length p + 1, up to rounding) */
    /* one column: the Givens chain, the structured passes or the panels,
     * by their plans */
    int v = 0, done = 0;
    if (nred > 0)
        QRU_TRY(qru_upd_p1_variant(ctx, f, rq, &v));
    if (v == QRU_UPD_VARIANT_R1)
        QRU_TRY(rc_r1(ctx, f, k, &done));
    if (done) /* reduced; the rows that leave d remain */
        return rc_leave(ctx, f, k, p);
    int givens = v == QRU_UPD_VARIANT_GIVENS;
    int fused = qru_upd_use_fused(rq->alg, ctx, f->dtype);
    int nb = fused ? qru_upd_fused_nb(f, ctx, nred > 0 ? nred : 1, p)
                   : qru_upd_nb(f, nred);
    int ldy = p + nb;
    size_t nwork = (size_t)nb * (size_t)(nred > r ? nred : r);
    int hq = f->q != QRU_Q_NONE;
    if (hq && (size_t)n * nb > nwork)
        nwork = (size_t)n * nb;
    if (!fused && qru_panel_work(ldy, nb) > nwork)
        nwork = qru_panel_work(ldy, nb);
    /* fused: two sets of Y and W and the first queue's work array besides
     * (look-ahead, as in adding rows) */
    size_t nwork0 = (size_t)nb * nb;
    if (qru_panel_work(ldy, nb) > nwork0)
        nwork0 = qru_panel_work(ldy, nb);
    size_t total = givens ? 2 * (size_t)nred + 1
                          : qru_upd_la_elems(ldy, nb, nwork0) + nwork + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    int ld = f->ldr, ldq = f->ncap;
    int s = qru_lsq_rrows(f);

    /* delete the columns: R(:, k+1:m1) = R(:, k+p+1:m) (rows below m are
     * zero in both) */
    if (nred > 0)
        QRU_TRY(o->copy(ctx, dt, m, nred, qru_ptr_at(f->R, ld, 0, k + p), ld,
                        qru_ptr_at(f->R, ld, 0, k), ld));
    if (givens) {
        QRU_TRY(rc_givens(ctx, f, k, ws));
        nred = 0, fused = 0; /* reduced: no panels */
    }
    qru_upd_la_ws la = qru_upd_la_carve(ws, ldy, nb, nwork0);
    qru_ptr *Ys = la.Y, *Ws = la.W, tau = la.tau, work0 = la.work0,
            work = la.work;
    /* reduce the band of p subdiagonals with reflectors of length p + 1 */
    /* fused: look-ahead as in adding rows (the next block's columns and
     * its panel on the first queue, the other trailing columns, d and Q on
     * the second, ordered after the mark) */
    if (fused && nred > 0) {
        int jb = nred < nb ? nred : nb;
        QRU_TRY(o->panel_qr(ctx, dt, jb + p, jb, qru_ptr_at(f->R, ld, k, k),
                            ld, Ys[0], ldy, Ws[0], ldy, tau, work0));
    }
    for (int c0 = k, b = 0; c0 < k + nred; c0 += nb, b ^= 1) {
        int jb = m1 - c0 < nb ? m1 - c0 : nb;
        int rb = jb + p; /* rows c0 .. c0+jb+p-1 <= m-1 < n */
        qru_ptr Y = Ys[b], W = Ws[b];
        if (fused) {
            int nct = m1 - c0 - jb, nn = nct < nb ? nct : nb;
            QRU_TRY(o->lane_join(ctx));
            if (nn > 0) {
                QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, nn, Y, ldy, W, ldy,
                                        qru_ptr_at(f->R, ld, c0, c0 + jb), ld,
                                        work0));
                QRU_TRY(o->lane_mark(ctx, dt));
                QRU_TRY(o->panel_qr(ctx, dt, nn + p, nn,
                                    qru_ptr_at(f->R, ld, c0 + jb, c0 + jb), ld,
                                    Ys[b ^ 1], ldy, Ws[b ^ 1], ldy, tau,
                                    work0));
            }
            QRU_TRY(o->lane(ctx, dt, 1));
            QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, nct - nn, Y, ldy, W,
                                    ldy,
                                    qru_ptr_at(f->R, ld, c0, c0 + jb + nn),
                                    ld, work));
        } else {
            QRU_TRY(qru_upd_panel(ctx, dt, f->R, ld, s, m1, c0, jb, p, Y, ldy,
                                  W, ldy, tau, work));
        }
        QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, r, Y, ldy, W, ldy,
                                qru_ptr_at(f->d, ld, c0, 0), ld, work));
        if (hq)
            QRU_TRY(qru_upd_wy_right(ctx, dt, n, rb, jb, Y, ldy, W, ldy,
                                     qru_ptr_at(f->Q, ldq, 0, c0), ldq,
                                     work));
        if (fused)
            QRU_TRY(o->lane(ctx, dt, 0));
    }
    if (fused)
        QRU_TRY(o->lane_join(ctx));
    return rc_leave(ctx, f, k, p);
}

