/*
 * Row updates of a least-squares QR factorisation (Andrew 2012, sections
 * 2.4.3 and 4.3), written once for both precisions against the
 * backend table:
 *
 *  - adding a block of p rows U (right-hand-side rows e) after row k
 *      (R only): [R; U] is reduced by m Householder reflectors, reflector c
 *      acting on row c of R and the p rows of U only.  They are blocked in
 *      panels of nb columns in the compact WY form Y = [I; V] (the identity
 *      is the panel's rows of R, V the p x nb tails on U's rows, the rows of
 *      R in between are skipped), so the trailing matrix, d and Q are
 *      updated with GEMMs that never touch the zero rows (figure 4.3 and
 *      the T/V formulas of section 4.3).  U and e are stored below R and d
 *      as rows n+1 .. n+p; with Q held, Q1 = P' [Q 0; 0 I] H, where P' is
 *      applied by moving rows k+1..n of Q down by p (new rows sit at k+1).
 *      QRU_UPDATE_FAST (when the backend has the fused panel_qr): each
 *      block of nb (default: the tuning block's upd_panel_nb) columns, the
 *      (nb + p) x nb panel [R(c0:c0+nb, c0:c0+nb); U(:, c0:c0+nb)], is
 *      factored where it lies with ONE panel_qr_tp call (R's block is upper
 *      triangular with exact zeros, so the dense panel's reflectors are the
 *      structured ones, Y = [I; V]; a backend without its own op gathers
 *      the panel): 1 call per block instead of 3 nb + 1, then the same
 *      GEMMs (docs/performance.md).
 *      Look-ahead: the next block's columns take the block reflector
 *      first; the next panel then runs on the first queue while the
 *      second (the lane op) takes the rest of the trailing update.
 */
#include <math.h>

#include "qru_flops.h"
#include "update.h"

int qru_lsq_add_rows(qru_lsq *f, int k, const qru_matrix *U,
                     const qru_matrix *e)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int n = f->n, m = f->m, r = f->r;
    QRU_ARG(ctx, 2, k >= 0 && k <= n,
            "k = %d, but 0 <= k <= n = %d must hold", k, n);
    qru_dtype dt = f->dtype;
    QRU_ARG_MAT(ctx, 3, "U", U, dt);
    QRU_ARG(ctx, 3, U->cols == m && U->rows >= 1,
            "U is %d x %d, but it needs >= 1 row and m = %d columns",
            U->rows, U->cols, m);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 3, "U", U));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, U, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 4, "e", e, dt);
    QRU_ARG(ctx, 4, e->rows == U->rows && e->cols == r,
            "e is %d x %d, but it must be %d x r = %d x %d (U's rows)",
            e->rows, e->cols, U->rows, U->rows, r);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 4, "e", e));
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, e, 'A', 'N', 0));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                       (qru_upd_req){QRU_UPD_OP_ADD_ROWS, k, U->rows, U, e, NULL, NULL, 0, NULL, -1}));
}

int qru_upd_add_rows(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U, *e = rq->e;
    int done; /* one row: the structured passes or a Givens chain */
    QRU_TRY(qru_upd_p1_run(ctx, f, rq, &done));
    if (done)
        return 0;

    const qru_backend_ops *o = ctx->ops;
    int p = U->rows;
    int n1 = n + p;
    /* the stored rows of R and d (U and e go below them), and the
     * columns of Q ([Q 0; 0 I] gets p more): n and n (full form), m and m
     * (thin), m and none (Q-less) */
    int s = qru_lsq_rrows(f);
    int hq = f->q != QRU_Q_NONE;
    int qc = f->q == QRU_Q_FULL ? n : m;
    /* QRU_UPDATE_FAST with a fused panel op: one panel_qr call per block */
    int fused = qru_upd_use_fused(rq->alg, ctx, f->dtype);
    int nb = fused ? qru_upd_fused_nb(f, ctx, m, U->rows) : qru_upd_nb(f, m);
    int ldy = nb + p;
    /* workspace: the row shift of Q (and E), then (reusing the same
     * memory) two sets of Y and W (a block's are read on the second queue
     * while the next block's panel writes the other set), tau, the first
     * queue's work array (the panel op's and the next block's columns)
     * and the second's (the other trailing columns, d, Q) */
    size_t nwork = (size_t)nb * (size_t)(m > r ? m : r);
    if (hq && (size_t)n1 * nb > nwork)
        nwork = (size_t)n1 * nb;
    size_t nwork0 = (size_t)nb * nb;
    if (fused && qru_panel_tp_work(ldy, nb) > nwork0)
        nwork0 = qru_panel_tp_work(ldy, nb);
    size_t need = qru_upd_la_elems(ldy, nb, nwork0) + nwork + 1;
    size_t shift = hq ? (size_t)(n - k) * (size_t)(qc > r ? qc : r) : 0;
    if (shift > need)
        need = shift;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, need * qru_dtype_size(dt), &ws));
    /* the thin and Q-less forms: p spare rows of R and d, p spare columns
     * of Q1 */
    QRU_TRY(qru_lsq_reserve(f, n1, f->q == QRU_Q_FULL ? m : m + p));
    int ld = f->ldr, ldq = f->ncap;
    qru_ptr R = f->R, d = f->d, Q = f->Q;

    /* [R; U], [d; e] */
    QRU_TRY(o->copy(ctx, dt, p, m, U->p, U->ld, qru_ptr_add(R, (size_t)s), ld));
    QRU_TRY(o->copy(ctx, dt, p, r, e->p, e->ld, qru_ptr_add(d, (size_t)s), ld));
    if (hq) {
        /* [Q 0; 0 I] with the rows permuted: rows k+1..n move to k+p+1..n+p,
         * the new rows k+1..k+p are [0 I] (thin: E's rows move alike, the
         * new ones are zero) */
        QRU_TRY(qru_upd_shift_rows(ctx, dt, Q, ldq, n, qc, k, p, ws));
        QRU_TRY(o->laset(ctx, dt, 'A', p, qc, 0.0, 0.0,
                         qru_ptr_add(Q, (size_t)k), ldq));
        QRU_TRY(o->laset(ctx, dt, 'A', n1, p, 0.0, 0.0,
                         qru_ptr_at(Q, ldq, 0, qc), ldq));
        QRU_TRY(o->laset(ctx, dt, 'A', p, p, 0.0, 1.0,
                         qru_ptr_at(Q, ldq, k, qc), ldq));
    }
    if (f->q == QRU_Q_THIN) {
        QRU_TRY(qru_upd_shift_rows(ctx, dt, f->E, ldq, n, r, k, p, ws));
        QRU_TRY(o->laset(ctx, dt, 'A', p, r, 0.0, 0.0,
                         qru_ptr_add(f->E, (size_t)k), ldq));
    }
    qru_upd_la_ws la = qru_upd_la_carve(ws, ldy, nb, nwork0);
    qru_ptr Ru = qru_ptr_add(R, (size_t)s); /* U's rows below R */
    qru_ptr du = qru_ptr_add(d, (size_t)s);

    /* fused: the panel [R(c0:c0+jb, c0:c0+jb); U(:, c0:c0+jb)] is factored
     * as a dense (jb + p) x jb panel, so the zeros of R's diagonal block
     * below its diagonal must be exact (they are an invariant of the
     * factorisation; one call makes sure).  Reflector j then has exact
     * zeros on the rows j+1 .. jb-1 (they are 0 * f) and leaves them zero
     * in the later columns, so Y = [I_jb; V] and R, W are those of the
     * structured reflectors above, up to rounding. */
    if (fused && m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(R, 1), ld));

    /* [R; U] by the blocked tpqrt (tpqrt.c) with look-ahead: block b's
     * reflectors go to the next block's columns on the first queue and
     * the next panel is queued there, then the second queue (lane 1,
     * ordered after the mark, not after that panel) takes the other
     * trailing columns, [d; e] and [Q(:, 0:m) Q(:, qc:qc+p)]; the first
     * waits for it (lane_join) before it touches those columns again.  A
     * backend with one queue runs the same calls in this order. */
    qru_upd_tp t = {0};
    t.fused = fused;
    t.nb = nb;
    t.w = m;
    t.h = p;
    t.la = 1;
    t.T = R;
    t.B = Ru;
    t.ld = ld;
    t.side[0] = (qru_upd_tp_side){d, du, r, ld};
    t.nside = 1;
    if (hq) {
        t.Qc = Q;
        t.Qn = qru_ptr_at(Q, ldq, 0, qc);
        t.nq = n1;
        t.ldq = ldq;
    }
    t.ws = la;
    t.ldy = ldy;
    QRU_TRY(qru_upd_tp_run(ctx, dt, &t));
    /* the rows of [d; e] below the triangle: rows of the full d; in the
     * thin form E := E + Q(:, m:m+p) du (the new complement columns of
     * [Q1 0; 0 I] H); in the Q-less form rho^2 := rho^2 + ||du||^2 */
    if (f->q == QRU_Q_THIN)
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n1, r, p, 1.0,
                        qru_ptr_at(Q, ldq, 0, m), ldq, du, ld, 1.0, f->E,
                        ldq));
    if (f->q == QRU_Q_NONE) {
        QRU_TRY(qru_upd_rho_add(ctx, f, p, du, ld, 1.0));
        QRU_TRY(qru_upd_gram_rows(ctx, f, p, U->p, U->ld, e->p, e->ld, 1.0));
    }
    f->n = n1;
    return 0;
}

