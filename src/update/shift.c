/*
 * The column shift of a QR factorisation (Octave's qrshift), written once
 * for the four element types against the backend table, and its engine, which
 * the Cholesky shift (chol_shift.c) runs on a factor alone:
 *
 *  - column i moves to position j (the columns between move by one), so
 *    R(:, p) differs from upper triangular only in the rows lo .. hi
 *    (lo = min(i, j), hi = max(i, j)):
 *      i < j: the columns lo .. hi-1 are upper Hessenberg (one
 *        subdiagonal), reduced by Householder panels of nb columns, each
 *        ONE panel_qr of (jb + 1) x jb (the reflectors have length 2, the
 *        zeros below the subdiagonal stay exact), with the block
 *        reflectors applied to the trailing columns, d and Q by GEMMs
 *        (wy_left / wy_right), as the column removal reduces its band;
 *      i > j: column lo carries a spike down to row hi; one sweep of
 *        hi - lo Givens rotations from the bottom up, which depend on
 *        that column alone (givens_sweeps with p = 1, in one call where
 *        the backend's fused sweeps pay off), zeroes it and leaves the
 *        other columns upper triangular.
 *  - Q (full or thin) takes the transformations from the right, d from
 *    the left; the thin form's residuals and the Q-less form's residual
 *    norms do not change (the transformations act inside the triangle),
 *    and the Q-less form's Gram data A'A and A'b are permuted.
 */
#include "update.h"

int qru_upd_cycle(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                  int rows, int cols, int left, int by_rows, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int s = by_rows ? rows : cols;
    if (s < 2 || rows < 1 || cols < 1)
        return 0;
    QRU_TRY(o->copy(ctx, dt, rows, cols, X, ldx, ws, rows));
    /* element offsets of the item t (a column, or a row) in X and ws */
    size_t sx = by_rows ? 1 : (size_t)ldx, sw = by_rows ? 1 : (size_t)rows;
    int r1 = by_rows ? 1 : rows, c1 = by_rows ? cols : 1; /* one item */
    int rn = by_rows ? s - 1 : rows, cn = by_rows ? cols : s - 1;
    if (left) { /* X := ws([1:s-1, 0]) */
        QRU_TRY(o->copy(ctx, dt, rn, cn, qru_ptr_add(ws, sw), rows, X, ldx));
        return o->copy(ctx, dt, r1, c1, ws, rows,
                       qru_ptr_add(X, sx * (size_t)(s - 1)), ldx);
    }
    /* X := ws([s-1, 0:s-1]) */
    QRU_TRY(o->copy(ctx, dt, r1, c1, qru_ptr_add(ws, sw * (size_t)(s - 1)),
                    rows, X, ldx));
    return o->copy(ctx, dt, rn, cn, ws, rows, qru_ptr_add(X, sx), ldx);
}

size_t qru_upd_shift_ws(int m, int i, int j, int nb, int nq, int r)
{
    int lo = i < j ? i : j, hi = i < j ? j : i, s = hi - lo + 1;
    size_t perm = (size_t)(hi + 1) * (size_t)s;
    size_t rest;
    if (i < j) {
        int wide = m > nq ? m : nq;
        if (r > wide)
            wide = r;
        size_t work = (size_t)nb * (size_t)wide;
        if (qru_panel_work(nb + 1, nb) > work)
            work = qru_panel_work(nb + 1, nb);
        rest = 2 * (size_t)(nb + 1) * (size_t)nb + (size_t)nb + work;
    } else { /* the rotations, and Q's (conjugated, complex) */
        rest = 4 * (size_t)s;
    }
    return (perm > rest ? perm : rest) + 1;
}

/* givens_sweeps (p = 1) of the shift on the view X (strides xrs, xcs; nr
 * rows): the backend's fused op where it pays off, else the loop of
 * givens_make / givens_apply calls. */
static int shift_sweep(qru_context *ctx, qru_dtype dt, int L, int make,
                       qru_ptr X, long xrs, long xcs, int nr, qru_ptr cs)
{
    if (nr < 1)
        return 0;
    return (qru_upd_use_sweeps(ctx, dt, L, 1, nr) ? ctx->ops->givens_sweeps
                                                  : qru_ref_givens_sweeps)(
        ctx, dt, L, 1, make, X, xrs, xcs, nr, 0, cs);
}

int qru_upd_shift(qru_context *ctx, qru_dtype dt, int m, int i, int j,
                  int nb, qru_ptr R, int ldr, qru_ptr d, int ldd, int r,
                  qru_ptr Q, int ldq, int nq, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    if (i == j)
        return 0;
    int lo = i < j ? i : j, hi = i < j ? j : i, s = hi - lo + 1;
    QRU_TRY(qru_upd_cycle(ctx, dt, qru_ptr_at(R, ldr, 0, lo), ldr, hi + 1, s,
                          i < j, 0, ws));
    if (i > j) {
        /* the rotations (hi-1, hi), ..., (lo, lo+1) of R's rows, formed
         * from column lo; on R's columns lo .. m-1 (X = R(lo:hi, lo:m)'),
         * then d's columns (X = d(lo:hi, :)') and Q's rows (X = Q(:,
         * lo:hi)) */
        int L = s - 1;
        QRU_TRY(shift_sweep(ctx, dt, L, 1, qru_ptr_at(R, ldr, lo, lo), ldr, 1,
                            m - lo, ws));
        QRU_TRY(o->laset(ctx, dt, 'A', L, 1, 0.0, 0.0,
                         qru_ptr_at(R, ldr, lo + 1, lo), ldr));
        QRU_TRY(shift_sweep(ctx, dt, L, 0, qru_ptr_at(d, ldd, lo, 0), ldd, 1,
                            r, ws));
        qru_ptr qcs = ws;
        if (qru_dtype_complex(dt) && nq > 0) {
            /* Q takes G' from the right: the rotations with conj(s), the
             * conjugate transpose of the (c, s) column (c is real) */
            qcs = qru_ptr_add(ws, 2 * (size_t)s);
            QRU_TRY(o->transpose(ctx, dt, 2 * L, 1, ws, 2 * L, qcs, 1));
        }
        return shift_sweep(ctx, dt, L, 0, qru_ptr_at(Q, ldq, 0, lo), 1, ldq,
                           nq, qcs);
    }
    /* the Hessenberg columns lo .. hi-1, a panel of jb at a time: its
     * block reflector P = I + W Y' acts on the rows c0 .. c0+jb */
    int ldy = nb + 1;
    qru_ptr Y = ws, W = qru_ptr_add(Y, (size_t)ldy * nb);
    qru_ptr tau = qru_ptr_add(W, (size_t)ldy * nb);
    qru_ptr work = qru_ptr_add(tau, (size_t)nb);
    for (int c0 = lo; c0 < hi; c0 += nb) {
        int jb = hi - c0 < nb ? hi - c0 : nb, rb = jb + 1;
        QRU_TRY(o->panel_qr(ctx, dt, rb, jb, qru_ptr_at(R, ldr, c0, c0), ldr,
                            Y, ldy, W, ldy, tau, work));
        QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, m - c0 - jb, Y, ldy, W, ldy,
                                qru_ptr_at(R, ldr, c0, c0 + jb), ldr, work));
        QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, r, Y, ldy, W, ldy,
                                qru_ptr_at(d, ldd, c0, 0), ldd, work));
        QRU_TRY(qru_upd_wy_right(ctx, dt, nq, rb, jb, Y, ldy, W, ldy,
                                 qru_ptr_at(Q, ldq, 0, c0), ldq, work));
    }
    return 0;
}

/* The Q-less form's Gram data after the shift: G := G(p, p) on its upper
 * triangle (the only part G holds) and c := c(p, :).  Through ws: the
 * symmetric T (from G's upper triangle alone), its columns cycled, the
 * transpose S of that, its columns cycled (2 m m elements, and m s more
 * for the cycles). */
static int shift_gram(qru_context *ctx, qru_lsq *f, int i, int j,
                      qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, ld = f->ldr, lo = i < j ? i : j, hi = i < j ? j : i;
    int s = hi - lo + 1, left = i < j;
    qru_ptr T = ws, S = qru_ptr_add(ws, (size_t)m * m);
    qru_ptr cyc = qru_ptr_add(S, (size_t)m * m);
    QRU_TRY(o->laset(ctx, dt, 'A', m, m, 0.0, 0.0, S, m));
    QRU_TRY(o->lacpy(ctx, dt, 'U', m, m, f->G, ld, S, m));
    QRU_TRY(o->transpose(ctx, dt, m, m, S, m, T, m));
    QRU_TRY(o->lacpy(ctx, dt, 'U', m, m, f->G, ld, T, m));
    QRU_TRY(qru_upd_cycle(ctx, dt, qru_ptr_at(T, m, 0, lo), m, m, s, left, 0,
                          cyc));
    QRU_TRY(o->transpose(ctx, dt, m, m, T, m, S, m));
    QRU_TRY(qru_upd_cycle(ctx, dt, qru_ptr_at(S, m, 0, lo), m, m, s, left, 0,
                          cyc));
    QRU_TRY(o->lacpy(ctx, dt, 'U', m, m, S, m, f->G, ld));
    return qru_upd_cycle(ctx, dt, qru_ptr_add(f->c, (size_t)lo), ld, s, f->r,
                         left, 1, cyc);
}

int qru_lsq_shift_cols(qru_lsq *f, int i, int j)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int m = f->m;
    QRU_ARG(ctx, 2, i >= 0 && i < m, "i = %d, but 0 <= i < m = %d must hold",
            i, m);
    QRU_ARG(ctx, 3, j >= 0 && j < m, "j = %d, but 0 <= j < m = %d must hold",
            j, m);
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, f->dtype, QRU_OPS_QR));
    if (i != j) {
        qru_dtype dt = f->dtype;
        int lo = i < j ? i : j, hi = i < j ? j : i, s = hi - lo + 1;
        int nq = f->q != QRU_Q_NONE ? f->n : 0, r = f->r;
        int nb = qru_upd_fused_nb(f, ctx, s - 1, 1);
        size_t sh = qru_upd_shift_ws(m, i, j, nb, nq, r);
        size_t gram = 0;
        if (f->q == QRU_Q_NONE) {
            gram = 2 * (size_t)m * m + (size_t)m * s;
            if ((size_t)s * r > (size_t)m * s)
                gram += (size_t)s * r - (size_t)m * s;
        }
        qru_ptr ws;
        QRU_CHECK(ctx, qru_ctx_workspace(ctx, (sh + gram) * qru_dtype_size(dt),
                                         &ws));
        QRU_CHECK(ctx, qru_upd_shift(ctx, dt, m, i, j, nb, f->R, f->ldr, f->d,
                                     f->ldr, r, f->Q, f->ncap, nq, ws));
        if (f->q == QRU_Q_NONE)
            QRU_CHECK(ctx, shift_gram(ctx, f, i, j, qru_ptr_add(ws, sh)));
    }
    f->last_path = QRU_PATH_UPDATE;
    QRU_RET(ctx, 0);
}
