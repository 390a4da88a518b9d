/*
 * Removing rows of a least-squares QR factorisation, written once for
 * both precisions against the backend table.
 *
 * The dissertation's algorithm (Andrew 2012, sections 2.4.4 and 4.4):
 *
 *  - removing the p rows after row k (needs Q): strips of Givens rotations
 *      (makeGivens / applyGivens, section 3.2, figure 3.1) reduce the rows
 *      k+1..k+p of Q to [D 0] (D diagonal, |D| = I), sweep q removing row
 *      k+q from the right, the sweeps staggered by two steps.  The rotations
 *      act on pairs of adjacent columns of Q and of the composite
 *      [R'; d'] (figure 4.5, kept transposed in workspace so that the rows
 *      of R and d are contiguous); then R1, d1 are rows p+1..n of the
 *      rotated R, d and Q1 is Q without rows k+1..k+p and columns 1..p.
 *
 * QRU_UPDATE_FAST: faster variants of the QR updates that need Q, written
 * once for both precisions against the backend table (only existing ops:
 * transpose, copy, gemm through qru_geqr_wy, givens_make / givens_apply).
 *
 * Removing the p rows K = k .. k+p-1 (qru_upd_fast_remove_rows).  The
 * dissertation's algorithm (above) reduces the rows K of Q to
 * [D 0] with p sweeps of adjacent Givens rotations that run over all n
 * columns of Q: p n rotations of length n, 6 n^2 p flops, memory-bound.
 * Here the rows m .. n-1 of R are zero, so on the columns m .. n-1 of Q any
 * orthogonal transformation H may be used without touching R (R := H' R
 * leaves the zero rows zero):
 *
 *  1. H = p Householder reflectors in compact WY form from the QR of the
 *     (n-m) x p block Z = Q(K, m:n)' (qru_geqr_wy on its transpose), so
 *     that Q(K, m:n) H = [L 0] with L p x p lower triangular.  Q(:, m:n)
 *     := Q(:, m:n) H and d(m:n, :) := H' d(m:n, :) are GEMMs with inner
 *     dimension p: 4 n (n-m) p flops at GEMM speed.
 *  2. Row k+q of Q now has no entries right of column m+q, so sweep q of
 *     the Givens strips only has to remove the entries q+1 .. m+q: p m
 *     rotations (instead of p n).  They are computed on a p x (m+p) copy
 *     QK of Q(K, 0:m+p) alone (rotation (q, j), zeroing QK(q, j) with the
 *     columns (j-1, j), runs at step t = m - j + 2q, so that one
 *     givens_make / givens_apply call handles the disjoint rotations of a
 *     step: the staggered sweeps of the dissertation's figure 3.1, over
 *     m + p - 1 steps instead of n + p - 2), and then applied to Q(:, 0:m+p)
 *     and to the rows 0 .. m+p-1 of R and d (kept transposed in C, as in
 *     the dissertation's; a rotation of the rows (j-1, j) in sweep q starts at
 *     column j-1-q, left of which both rows are still zero) by
 *     qru_upd_sweeps_apply: for p >= 16 (the tuning's sweeps_acc_min_p)
 *     the rotations are accumulated in groups into (b+p) x (b+p)
 *     orthogonal matrices (b = max(p, 48), 48 the tuning's sweeps_acc_nb)
 *     applied with GEMMs, 8 n m p flops at GEMM speed instead of 6 n m p
 *     flops of memory-bound rotations.
 *  3. As in the dissertation: Q(K, :) = [D 0] with |D| = I, so R1 and d1
 *     are the rows p .. of the rotated R and d, and Q1 is Q without the
 *     rows K and the columns 0 .. p-1.
 *
 * Flops: 4 n (n-m) p + 8 n m p (p >= 16; 6 n m p below) + O(m^2 p) instead
 * of 6 n^2 p (docs/performance.md).
 *
 * The add-columns update uses qru_upd_sweeps_apply too, for its Givens
 * phase on Q (add_cols.c).
 */

#include <math.h>
#include <stdlib.h>

#include "chol_internal.h"
#include "qru_flops.h"
#include "update.h"

static int remove_rows_econ(qru_context *ctx, qru_lsq *f,
                            const qru_upd_req *rq);
/* *tiles := 1 if the fast removal of the rows of rq (full Q) runs the
 * Householder tiles (tiles.c) rather than the sweeps: always, never or
 * where their plan is priced faster (qru_upd_tiles_mode,
 * qru_upd_variant). */
static int rr_use_tiles(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                        int *tiles)
{
    *tiles = qru_upd_tiles_mode(f, ctx, 1, f->m);
    return *tiles == 2 ? qru_upd_variant(ctx, f, rq, 2, tiles) : 0;
}

/* Phases 2 and 3 of the fast row removal on the m + p columns: QK
 * (p x (m+p), ld p) = [Qk L], L lower triangular.  The sweeps that turn it
 * into [0 D] are computed on QK alone and applied to the columns 0 .. m+p-1
 * of Q (nq rows; none if Q.h is NULL) and to the rows 0 .. m+p-1 of R
 * (m columns) and d (r columns), kept transposed in C = [R'; d'] (the
 * dissertation's layout; a rotation of the rows (j-1, j) in sweep q starts
 * at column j-1-q, left of which both rows are still zero).  Then R(0:m,
 * :) := rows p .. m+p-1 of G'R with exact zeros below the diagonal and
 * d(0:m, :) := rows p .. m+p-1 of G'd.  ws: rr_sweeps_ws(...) elements. */
static size_t rr_sweeps_ws(const qru_context *ctx, qru_dtype dt, int m,
                           int r, int p, int nq)
{
    int lc = m + r;
    return (size_t)lc * (m + p) + 2 * (size_t)p * m +
           (nq > 0 ? qru_upd_sweeps_workspace(ctx, dt, m, p, nq, lc)
                   : qru_upd_sweeps_workspace(ctx, dt, m, p, lc, 0)) + 1;
}

static int rr_sweeps(qru_context *ctx, qru_dtype dt, int m, int r, int p,
                     qru_ptr QK, qru_ptr Q, int ldq, int nq, qru_ptr R,
                     qru_ptr d, int ldr, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int mp = m + p, lc = m + r;
    qru_ptr C = ws, cs = qru_ptr_add(C, (size_t)lc * mp),
            sw = qru_ptr_add(cs, 2 * (size_t)p * m);
    QRU_TRY(o->transpose(ctx, dt, mp, m, R, ldr, C, lc));
    QRU_TRY(o->transpose(ctx, dt, mp, r, d, ldr, qru_ptr_add(C, (size_t)m),
                         lc));
    /* the sweeps (L = m): sweep q zeroes QK(q, m+q .. q+1); all the steps in
     * one call when the backend's fused sweeps pay off */
    QRU_TRY((qru_upd_use_sweeps(ctx, dt, m, p, p) ? o->givens_sweeps
                                                  : qru_ref_givens_sweeps)(
        ctx, dt, m, p, 1, QK, 1, p, p, 0, cs));
    if (Q.h) {
        QRU_TRY(qru_upd_sweeps_apply(ctx, dt, m, p, cs, Q, ldq, nq, C, lc, lc,
                                     sw));
    } else {
        qru_ptr none = {0, 0};
        QRU_TRY(qru_upd_sweeps_apply(ctx, dt, m, p, cs, C, lc, lc, none, 1, 0,
                                     sw));
    }
    QRU_TRY(o->transpose(ctx, dt, m, m, qru_ptr_at(C, lc, 0, p), lc, R, ldr));
    /* (exact zeros already; cheap insurance against a GEMM that would not
     * keep 0 * x + 0 * y exactly 0) */
    if (m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(R, 1), ldr));
    return o->transpose(ctx, dt, r, m, qru_ptr_at(C, lc, m, p), lc, d, ldr);
}

/* The checks of f (1), k (2) and p (3; argument pi) of both public
 * functions. */
static int remove_rows_args(const qru_lsq *f, int k, int p, int pi)
{
    int n = f->n, m = f->m;
    if (k < 0 || k >= n)
        return qru_fail_arg(2, "k = %d, but 0 <= k < n = %d must hold", k, n);
    if (p < 1)
        return qru_fail_arg(pi, "p = %d, but p must be >= 1", p);
    if (p > n - k)
        return qru_fail_arg(pi, "p = %d, but k + p must be <= n = %d (k = %d)",
                            p, n, k);
    if (n - p < m)
        return qru_fail_arg(pi, "p = %d, but n - p must stay >= m = %d "
                                "(n = %d): A stays tall", p, m, n);
    return 0;
}

int qru_lsq_remove_rows(qru_lsq *f, int k, int p)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_CHECK(ctx, remove_rows_args(f, k, p, 3));
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation is Q-less "
                                            "(QRU_Q_NONE): remove rows with "
                                            "qru_lsq_remove_rows_data"));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                             (qru_upd_req){QRU_UPD_OP_REMOVE_ROWS, k, p, NULL,
                                           NULL, NULL, NULL, 0, NULL, -1}));
}

int qru_lsq_remove_rows_data(qru_lsq *f, int k, const qru_matrix *U,
                             const qru_matrix *e)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 2, k >= 0 && k < f->n,
            "k = %d, but 0 <= k < n = %d must hold", k, f->n);
    QRU_ARG_MAT(ctx, 3, "U", U, f->dtype);
    QRU_ARG(ctx, 3, U->cols == f->m && U->rows >= 1,
            "U is %d x %d, but it needs >= 1 row and m = %d columns",
            U->rows, U->cols, f->m);
    QRU_CHECK(ctx, remove_rows_args(f, k, U->rows, 3));
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 3, "U", U));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, U, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 4, "e", e, f->dtype);
    QRU_ARG(ctx, 4, e->rows == U->rows && e->cols == f->r,
            "e is %d x %d, but it must be %d x r = %d x %d (U's rows)",
            e->rows, e->cols, U->rows, U->rows, f->r);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 4, "e", e));
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, e, 'A', 'N', 0));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                             (qru_upd_req){QRU_UPD_OP_REMOVE_ROWS, k, U->rows,
                                           U, e, NULL, NULL, 0, NULL, -1}));
}

int qru_upd_remove_rows(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, p = rq->p;
    if (qru_upd_qless_wide(f, p))
        return qru_upd_qless_downdate_wide(ctx, f, rq);
    int done; /* one row: the structured passes or a Givens chain */
    QRU_TRY(qru_upd_p1_run(ctx, f, rq, &done));
    if (done)
        return 0;
    if (f->q != QRU_Q_FULL)
        return remove_rows_econ(ctx, f, rq);
    if (rq->alg == QRU_UPDATE_FAST)
        return qru_upd_fast_remove_rows(ctx, f, rq);

    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n1 = n - p;
    int lc = m + r; /* composite [R'; d'] is lc x n */
    size_t total = (size_t)lc * n + 2 * (size_t)p + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr C = ws, cs = qru_ptr_add(ws, (size_t)lc * n);
    int ld = f->ncap;
    qru_ptr Q = f->Q;

    QRU_TRY(o->transpose(ctx, dt, n, m, f->R, ld, C, lc));
    QRU_TRY(o->transpose(ctx, dt, n, r, f->d, ld, qru_ptr_add(C, (size_t)m),
                         lc));
    /* sweep q (0 <= q < p) zeroes Q(k+q, j), j = n-1 down to q+1, with the
     * columns (j-1, j); rotation (q, j) runs at step n-1-j+2q */
    int nsteps = n + p - 2;
    for (int t = 0; t < nsteps; ++t) {
        int qlo = t - n + 2 > 0 ? t - n + 2 : 0;
        int qhi = t / 2 < p - 1 ? t / 2 : p - 1;
        if (qhi < qlo)
            continue;
        int cnt = qhi - qlo + 1;
        int j0 = n - 1 - t + 2 * qlo; /* column zeroed by sweep qlo */
        QRU_TRY(o->givens_make(ctx, dt, cnt,
                               qru_ptr_at(Q, ld, k + qlo, j0 - 1), 1 + 2 * ld,
                               ld, cs));
        QRU_TRY(o->givens_apply(ctx, dt, cnt, n, cs,
                                qru_ptr_at(Q, ld, 0, j0 - 1), 2 * ld, ld, 1));
        QRU_TRY(o->givens_apply(ctx, dt, cnt, lc, cs,
                                qru_ptr_at(C, lc, 0, j0 - 1), 2 * lc, lc, 1));
    }
    /* R1 = rows p+1..n of G'R, d1 likewise; Q1 = Q([1:k k+p+1:n], p+1:n) */
    QRU_TRY(o->transpose(ctx, dt, m, n1, qru_ptr_at(C, lc, 0, p), lc, f->R,
                         ld));
    QRU_TRY(o->transpose(ctx, dt, r, n1, qru_ptr_at(C, lc, m, p), lc, f->d,
                         ld));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ld, p, n, n1, k, p));
    f->n = n1;
    return 0;
}

/* ---- staggered sweeps of adjacent rotations ----
 * Sweep j (0 <= j < p) is the chain of rotations of the local column
 * pairs (i-1, i), i = L+j down to j+1 (it moves an entry of "row j" from
 * column L+j to column j).  Rotation (j, i) runs at step t = L + 2j - i,
 * so one step holds the sweeps jlo .. jlo+cnt-1 at the columns i0,
 * i0+2, ... (disjoint pairs) and the sweeps are applied in a valid order
 * (each rotation after those of the earlier sweeps that share a column
 * with it).  The c, s of the rotations are stored in cs in step order,
 * 2 cnt values per step.  The add-columns update (L = m-k) and the fast
 * remove-rows update (L = m) both have this structure. */
int qru_upd_rr_nb(const qru_lsq *f, int p)
{
    int nb = f->upd_nb > 0 ? f->upd_nb
                           : qru_ctx_tuning(f->ctx, f->dtype)->upd_rows_nb;
    return nb > p ? p : nb;
}

int qru_upd_fast_remove_rows(qru_context *ctx, qru_lsq *f,
                             const qru_upd_req *rq)
{
    int k = rq->k, p = rq->p;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r;
    int n1 = n - p;
    int nz = n - m; /* >= p: rows of Z */
    int mp = m + p; /* columns the rotations act on */
    int nb = qru_upd_rr_nb(f, p);
    int ld = f->ncap;
    qru_ptr Q = f->Q, R = f->R, d = f->d;

    /* with the tiles (tiles.c) instead of the sweeps: X = QK' and the
     * tiles' workspace in place of the sweeps' */
    int tiles;
    QRU_TRY(rr_use_tiles(ctx, f, rq, &tiles));

    /* workspace (elements) */
    size_t o_zt = 0;
    size_t o_qk = o_zt + (size_t)nz * p;
    size_t o_c = o_qk + (size_t)p * mp;
    size_t o_hw = o_c + (tiles ? (size_t)mp * p +
                                     qru_upd_tiles_ws(f, ctx, m, p, n, r, 1)
                               : rr_sweeps_ws(ctx, dt, m, r, p, n));
    size_t total = o_hw + qru_geqr_wy_workspace(nz, p, n, r, nb) + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr Zt = qru_ptr_add(ws, o_zt), QK = qru_ptr_add(ws, o_qk),
            C = qru_ptr_add(ws, o_c), hw = qru_ptr_add(ws, o_hw);

    /* 1. Zt = Q(K, m:n)'; Zt := P' Zt = [Rz; 0], Q(:, m:n) := Q(:, m:n) P,
     *    d(m:n, :) := P' d(m:n, :) */
    QRU_TRY(o->transpose(ctx, dt, p, nz, qru_ptr_at(Q, ld, k, m), ld, Zt, nz));
    QRU_TRY(qru_geqr_wy(ctx, dt, nz, p, Zt, nz, qru_ptr_at(Q, ld, 0, m), ld, n,
                        qru_ptr_add(d, (size_t)m), ld, r, nb, hw));

    /* QK = [Q(K, 0:m)  Rz'] (Rz' lower triangular with exact zeros) */
    QRU_TRY(o->copy(ctx, dt, p, m, qru_ptr_add(Q, (size_t)k), ld, QK, p));
    QRU_TRY(o->transpose(ctx, dt, p, p, Zt, nz, qru_ptr_at(QK, p, 0, m), p));
    if (tiles) {
        /* 2. the tiles on X = QK' = [Qk'; Rz] (Rz upper triangular): X's
         * rows pair with R's rows 0 .. m+p-1 (the last p zero), d's and
         * Q's columns; afterwards Q(K, 0:m+p) = [0 D], |D| = I, and R's
         * rows 0 .. m-1 are R1 */
        qru_upd_tiles tl = {0};
        qru_ptr X = C;
        QRU_TRY(o->transpose(ctx, dt, p, mp, QK, p, X, mp));
        tl.L = m;
        tl.p = p;
        tl.X = X;
        tl.ldx = mp;
        tl.R = R;
        tl.ldr = ld;
        tl.d = d;
        tl.ldd = ld;
        tl.r = r;
        tl.Q = Q;
        tl.ldq = ld;
        tl.nq = n;
        tl.direct = 1;
        QRU_TRY(qru_upd_tiles_run(ctx, f, &tl,
                                  qru_ptr_add(X, (size_t)mp * p)));
        /* 3. R1 = R(0:m, :), the triangle's rows (m .. m+p-1) dropped
         * from R, d and Q's columns: Q1 = Q([0:k, k+p:n], [0:m, m+p:n]) */
        QRU_TRY(o->laset(ctx, dt, 'A', p, m, 0.0, 0.0,
                         qru_ptr_add(R, (size_t)m), ld));
        if (m > 1)
            QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                             qru_ptr_add(R, 1), ld));
        if (n1 > m)
            QRU_TRY(o->copy(ctx, dt, n1 - m, r, qru_ptr_add(d, (size_t)mp),
                            ld, qru_ptr_add(d, (size_t)m), ld));
        QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ld, 0, n, m, k, p));
        QRU_TRY(qru_upd_drop_rows(ctx, dt, qru_ptr_at(Q, ld, 0, m), ld, p, n,
                                  n1 - m, k, p));
        f->n = n1;
        return 0;
    }
    /* 2 and 3 */
    QRU_TRY(rr_sweeps(ctx, dt, m, r, p, QK, Q, ld, n, R, d, ld, C));
    /* d1 = [rows p .. m+p-1 of G'd; d(m+p:n, :)], Q1 = Q([0:k, k+p:n], p:n) */
    if (n1 > m)
        QRU_TRY(o->copy(ctx, dt, n1 - m, r, qru_ptr_add(d, (size_t)mp), ld,
                        qru_ptr_add(d, (size_t)m), ld));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ld, p, n, n1, k, p));
    f->n = n1;
    return 0;
}

/* ---- the thin and Q-less forms ----
 * The removed rows K are completed against Q1: Z = (I - Q1 Q1') E_K (thin:
 * E_K - Q1 Qk' and one reorthogonalisation; E_K = I(:, K)), Z = Qz Rz (Householder), so that [Q1 Qz] has
 * orthonormal columns whose span holds E_K, Qz(K, :) = Rz' (as Z(K, :) =
 * Z' Z = Rz' Rz) and Rz' Rz = I - Qk Qk' with Qk = Q1(K, :).  Without Q1
 * (Q-less, rows U and e given), Qk = U / R and Rz' = chol(I - Qk Qk',
 * 'lower').  The entries of d for Qz are dz = Qz' b = Rz' \ (b(K) - Qk d)
 * (thin: Qz' E).  The sweeps of the fast removal then turn [Qk Rz'] into
 * [0 D] on the m + p columns of [R; 0], [d; dz] and [Q1 Qz].  The
 * residuals lose Qz dz (thin: E := E - Qz dz, whose rows K are then zero
 * and are dropped; Q-less: rho^2 := rho^2 - ||dz||^2). */

/* The thin form's completion of the rows K = k .. k+p-1 and its rank
 * rule: QK (ld p) gets Qk = Q1(K, :), Z (n x p) = E_K - Q1 Qk' once
 * reorthogonalised, then its Householder QR (qru_upd_house: Rz in
 * Z(0:p, :), the reflectors in hh) and Rz's diagonal in diag (p host
 * doubles), judged by qru_upd_downdate_rank.  Qz = Z inv(Rz) carries the
 * error of CGS2 in Q1' Z (eps relative to the columns of Z, of norm up to
 * 1) times ||inv(Rz)||, up to the downdate condition c: removing 3 of 8
 * rows near a common dominant row at c = 529 left ||Q1'Q1 - I|| at
 * 91 n eps.  Where Rz is ill-conditioned (p > 1 and ||inv(Rz)||_F =
 * 1 / s, the rank rule's, above QRU_RR_AGAIN_RMS sqrt(p) = 2 sqrt(p):
 * the root mean square of the inverses of Rz's singular values above 2,
 * so ||inv(Rz)||_2 > 2; a removal it passes has ||inv(Rz)||_2 <=
 * 2 sqrt(p)), Qz is formed here
 * (in Qz, ld n; *formed = 1) and made orthogonal to Q1 once more
 * (qru_upd_basis_again: Qz := Qz2, Rz := S Rz, S within O((c eps)^2) of
 * a diagonal of signs), and the corrected Rz is judged again: the sweeps
 * and the reported condition see it.  Otherwise (*formed = 0) the caller
 * forms Qz from hh, and the well-conditioned removal pays nothing more
 * (a random 20 of 120 rows of a 120 x 50 A: root mean square about 1.4,
 * ||inv(Rz)||_2 below 3; removals that leave A1 nearly square are
 * ill-conditioned by nature: 30 of 90 rows of a 90 x 60 A, median
 * ||inv(Rz)||_2 about 70).  One row
 * (Rz 1 x 1) needs no second pass: CGS2 leaves Z orthogonal to Q1
 * relative to its own norm.  hh: qru_upd_basis_workspace(n, m, p, nb)
 * elements; ws: rr_thin_ws(m, p). */
static size_t rr_thin_ws(int m, int p)
{
    return 2 * (size_t)m * p + (size_t)p * p;
}

static int rr_thin_complete(qru_context *ctx, const qru_lsq *f, int k, int p,
                            int nb, qru_ptr QK, qru_ptr Z, qru_ptr Qz,
                            qru_ptr hh, qru_ptr ws, double *diag, int *formed)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, ldq = f->ncap;
    qru_ptr C = ws, I = qru_ptr_add(ws, 2 * (size_t)m * p);
    const char *what = "Rz' * Rz = I - Qk * Qk'";
    double tol = qru_upd_downdate_tol(f), s = 0.0;
    *formed = 0;
    QRU_TRY(o->copy(ctx, dt, p, m, qru_ptr_add(f->Q, (size_t)k), ldq, QK, p));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'C', n, p, m, -1.0, f->Q, ldq, QK, p, 0.0,
                    Z, n));
    QRU_TRY(o->laset(ctx, dt, 'A', p, p, 0.0, 1.0, I, p));
    QRU_TRY(o->geadd(ctx, dt, p, p, 1.0, I, p, 1.0, qru_ptr_add(Z, (size_t)k),
                     n));
    /* Z = (I - Q1 Q1') E_K already: one reorthogonalisation */
    QRU_TRY(qru_upd_cgs(ctx, dt, n, m, p, 1, f->Q, ldq, Z, n, C, m, C));
    QRU_TRY(qru_upd_house(ctx, dt, n, p, nb, Z, n, hh));
    QRU_TRY(qru_chol_read_row(ctx, dt, p, Z, n + 1, diag));
    QRU_TRY(qru_upd_downdate_rank(ctx, dt, 'U', p, Z, n, diag, 1, tol, I,
                                  what, &s));
    /* (a dry run, whose reads are ones, prices the well-conditioned
     * removal: both of AUTO's paths pay the pass alike, the
     * refactorisation's judge too) */
    if (p == 1 || !(s * sqrt((double)p) * QRU_RR_AGAIN_RMS < 1.0) ||
        qru_plan_healthy_info(ctx))
        return 0;
    QRU_TRY(qru_upd_house_merge(ctx, dt, n, p, nb, hh));
    QRU_TRY(qru_upd_house_q(ctx, dt, n, p, hh, Qz, n));
    QRU_TRY(qru_upd_basis_again(ctx, dt, n, m, p, nb, f->Q, ldq, Z, n, Qz, n,
                                hh));
    *formed = 1;
    QRU_TRY(qru_chol_read_row(ctx, dt, p, Z, n + 1, diag));
    return qru_upd_downdate_rank(ctx, dt, 'U', p, Z, n, diag, 1, tol, I, what,
                                 NULL);
}

int qru_upd_thin_rows_judge(qru_context *ctx, const qru_lsq *f, int k, int p,
                            double *cond)
{
    int n = f->n, m = f->m, nb = qru_upd_nb(f, p), formed;
    size_t o_z = (size_t)p * m, o_qz = o_z + (size_t)n * p,
           o_hh = o_qz + (size_t)n * p,
           o_w = o_hh + qru_upd_basis_workspace(n, m, p, nb),
           total = o_w + rr_thin_ws(m, p);
    double *diag = malloc(sizeof(double) * (size_t)p);
    if (!diag)
        return QRU_HOST_ALLOC_FAILED;
    qru_ptr ws;
    int st = qru_ctx_workspace(ctx, total * qru_dtype_size(f->dtype), &ws);
    if (!st)
        st = rr_thin_complete(ctx, f, k, p, nb, ws, qru_ptr_add(ws, o_z),
                              qru_ptr_add(ws, o_qz), qru_ptr_add(ws, o_hh),
                              qru_ptr_add(ws, o_w), diag, &formed);
    if (!st) {
        double dmin = fabs(diag[0]);
        for (int j = 1; j < p; ++j)
            dmin = fabs(diag[j]) < dmin ? fabs(diag[j]) : dmin;
        *cond = 1.0 / dmin;
    }
    free(diag);
    return st;
}

static int remove_rows_econ(qru_context *ctx, qru_lsq *f,
                            const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, k = rq->k, p = rq->p, st;
    int n1 = n - p, mp = m + p;
    int thin = f->q == QRU_Q_THIN;
    int ld = f->ldr, ldq = f->ncap;
    int nb = qru_upd_nb(f, p);

    size_t o_qk = 0;                                /* QK, p x (m + p) */
    size_t o_dz = o_qk + (size_t)p * mp;            /* dz, p x r */
    size_t o_z = o_dz + (size_t)p * r;              /* thin: Z; Q-less: M */
    size_t nchol = 0;
    if (!thin)
        QRU_TRY(qru_chol_run_ws(ctx, dt, p, QRU_CHOL_LEFT, 0, &nchol));
    size_t o_qz = o_z + (thin ? (size_t)n * p : (size_t)p * p + nchol);
    size_t o_c = o_qz + (thin ? (size_t)n * p : 0); /* rr_thin_ws, or the
                                                       inverse (p x p) */
    size_t o_hh = o_c + (thin ? rr_thin_ws(m, p) : (size_t)p * p);
    size_t o_sw = o_hh + (thin ? qru_upd_basis_workspace(n, m, p, nb) : 0);
    size_t total = o_sw + rr_sweeps_ws(ctx, dt, m, r, p, thin ? n : 0);
    double *diag = malloc(sizeof(double) * (2 * (size_t)p + (size_t)r));
    if (!diag)
        return QRU_HOST_ALLOC_FAILED;
    double *rho1 = diag + p, *piv = rho1 + r;
    qru_ptr ws;
    if ((st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws)) != 0)
        goto done;
    qru_ptr QK = qru_ptr_add(ws, o_qk), dz = qru_ptr_add(ws, o_dz),
            Z = qru_ptr_add(ws, o_z), Qz = qru_ptr_add(ws, o_qz),
            C = qru_ptr_add(ws, o_c), hh = qru_ptr_add(ws, o_hh),
            sw = qru_ptr_add(ws, o_sw);
    qru_ptr Lz = qru_ptr_at(QK, p, 0, m);
    double dmin = 0.0;
    if (thin) {
        /* Qk, Z = E_K - Q1 Qk', [Qz, Rz] = qr(Z, 0), the rank rule (Qz
         * formed there where it needed a second pass) */
        int formed;
        QRU_TRY_GOTO(rr_thin_complete(ctx, f, k, p, nb, QK, Z, Qz, hh, C,
                                      diag, &formed));
        if (!formed) {
            QRU_TRY_GOTO(qru_upd_house_merge(ctx, dt, n, p, nb, hh));
            QRU_TRY_GOTO(qru_upd_house_q(ctx, dt, n, p, hh, Qz, n));
        }
        QRU_TRY_GOTO(o->transpose(ctx, dt, p, p, Z, n, Lz, p));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', p, r, n, 1.0, Qz, n, f->E,
                             ldq, 0.0, dz, p));
    } else {
        const qru_matrix *U = rq->U, *e = rq->e;
        qru_ptr cws = qru_ptr_add(Z, (size_t)p * p); /* qru_chol_run's */
        QRU_TRY_GOTO(qru_chol_ops_check(ctx));
        /* Qk = U / R, M = I - Qk Qk' = Lz Lz' */
        QRU_TRY_GOTO(o->copy(ctx, dt, p, m, U->p, U->ld, QK, p));
        QRU_TRY_GOTO(o->trsm(ctx, dt, 'R', 'U', 'N', 'N', p, m, 1.0, f->R, ld,
                             QK, p));
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', p, p, 0.0, 1.0, Z, p));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'C', p, p, m, -1.0, QK, p, QK, p,
                             1.0, Z, p));
        /* the Cholesky factor by the library's whole factorisation (the
         * backend's vendor potrf where it is faster), judged by its
         * definiteness rule and then by the downdate's rank rule */
        QRU_TRY_GOTO(qru_upd_downdate_chol(ctx, dt, p, Z, p, cws,
                                           qru_upd_downdate_tol(f), piv, C,
                                           "I - Qk * Qk'"));
        for (int j = 0; j < p; ++j)
            diag[j] = piv[j];
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', p, p, 0.0, 0.0, Lz, p));
        QRU_TRY_GOTO(o->lacpy(ctx, dt, 'L', p, p, Z, p, Lz, p));
        /* dz = Lz \ (e - Qk d) and the residual norms */
        QRU_TRY_GOTO(o->copy(ctx, dt, p, r, e->p, e->ld, dz, p));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', p, r, m, -1.0, QK, p, f->d, ld,
                             1.0, dz, p));
        QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'L', 'N', 'N', p, r, 1.0, Lz, p, dz,
                             p));
        QRU_TRY_GOTO(o->col_norms(ctx, dt, p, r, dz, p, rho1));
        /* rho^2 - ||dz||^2 is accurate to about eps rho^2 (the data of
         * the Q-less form determine no more); a square A1 has no
         * residual */
        for (int j = 0; j < r; ++j) {
            double v = f->rho[j] * f->rho[j] - rho1[j] * rho1[j];
            rho1[j] = v > 0.0 && n1 > m ? sqrt(v) : 0.0;
        }
    }
    for (int j = 0; j < p; ++j)
        if (j == 0 || fabs(diag[j]) < dmin)
            dmin = fabs(diag[j]);

    /* commit: p spare rows of R and d (and columns of Q1) */
    QRU_TRY_GOTO(qru_lsq_reserve(f, n, mp));
    ld = f->ldr;
    ldq = f->ncap;
    QRU_TRY_GOTO(o->copy(ctx, dt, p, r, dz, p, qru_ptr_add(f->d, (size_t)m),
                         ld));
    QRU_TRY_GOTO(o->laset(ctx, dt, 'A', p, m, 0.0, 0.0,
                          qru_ptr_add(f->R, (size_t)m), ld));
    if (thin) {
        QRU_TRY_GOTO(o->copy(ctx, dt, n, p, Qz, n,
                             qru_ptr_at(f->Q, ldq, 0, m), ldq));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, p, -1.0, Qz, n, dz, p,
                             1.0, f->E, ldq));
    }
    QRU_TRY_GOTO(rr_sweeps(ctx, dt, m, r, p, QK, thin ? f->Q : (qru_ptr){0, 0},
                           ldq, n, f->R, f->d, ld, sw));
    if (thin) {
        QRU_TRY_GOTO(qru_upd_drop_rows(ctx, dt, f->Q, ldq, p, n, m, k, p));
        QRU_TRY_GOTO(qru_upd_drop_rows(ctx, dt, f->E, ldq, 0, n, r, k, p));
    } else {
        for (int j = 0; j < r; ++j)
            f->rho[j] = rho1[j];
        QRU_TRY_GOTO(qru_upd_gram_rows(ctx, f, p, rq->U->p, rq->U->ld,
                                       rq->e->p, rq->e->ld, -1.0));
    }
    f->n = n1;
    f->dd_cond = 1.0 / dmin;
done:
    free(diag);
    return st;
}

