/*
 * Device kernels of the Gram active set's ops gram_border and gram_solve
 * (contracts in src/qru_ops.h; the state is described in
 * src/solvers/gram_set.c; the reference is ref_ops.c's sequence of basic
 * ops, which the CPU backend runs):
 *   qru_gram_coldot   y(c) = sum_{r < hw, r != q} A(r, c) x(r incx),
 *                     c < hw (a product with W'), one work-group a
 *                     column, with x(qs) = sv (written, read by none);
 *                     where incx2 > 0 also y2(c) with x2 (the bordering's
 *                     and the solve's products in one pass over W); the
 *                     groups from hw on copy ncp elements of a column
 *                     (G(:, t) to Gs(:, q) when bordering);
 *   qru_gram_rowdot   y(r) = sum_{c < ncol, c != q} A(r, c) x(c),
 *                     r < nrow (a product with W or Gs), work-groups of
 *                     QRU_GRAMK_ROWS rows (x) by a power of two slices of
 *                     the columns (y); with gtt (bordering) the sums are
 *                     -W v and finish the new column of W in place:
 *                     W(r, q) = (r == q ? 1 : -(W v)(r)) / d; border 2
 *                     also finishes the solve that qru_gram_coldot began
 *                     (x2 = W' S but for the new column): V(q) = (S(q) -
 *                     v' x2) / d and y(r) = z(r) = (W x2)(r) + W(r, q)
 *                     V(q) (lars_gram_step's bordering and solve in two
 *                     launches).
 * Every sum runs in an order fixed by the work-group shape (a run
 * repeats bit for bit); the work-group sums are qru_base.cl's
 * qru_row_sum.
 */
#ifndef QRU_GRAM_CL
#define QRU_GRAM_CL

#define QRU_GRAMK_ROWS 32   /* rows of a qru_gram_rowdot work-group */
#define QRU_GRAMK_SLICES 8  /* the most slices of one */
#define QRU_GRAMK_COLDOT 128 /* the most items of a qru_gram_coldot group */

QRU_KERNEL void qru_gram_coldot(int hw, int q, QRU_GLOBAL const T *A,
                                long oa, int lda, QRU_GLOBAL T *x, long ox,
                                int incx, int qs, T sv, QRU_GLOBAL T *y,
                                long oy, QRU_GLOBAL const T *x2, long ox2,
                                int incx2, QRU_GLOBAL T *y2, long oy2,
                                int ncp, QRU_GLOBAL const T *src, long os,
                                QRU_GLOBAL T *dst, long od)
{
    QRU_LOCAL_DECL(T, red, QRU_GRAMK_COLDOT);
    QRU_LOCAL_DECL(T, red2, QRU_GRAMK_COLDOT);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, c = QRU_GROUP_X;
    if (c >= hw) { /* the copy: every item its elements */
        int ng = QRU_NGROUPS_X - hw;
        for (int i = (c - hw) * nt + lid; i < ncp; i += ng * nt)
            dst[od + i] = src[os + i];
        return;
    }
    T s = (T)0, s2 = (T)0;
    long ac = oa + (long)c * lda;
    for (int r = lid; r < hw; r += nt)
        if (r != q) {
            T a = A[ac + r];
            s += a * (r == qs ? sv : x[ox + (long)r * incx]);
            if (incx2 > 0)
                s2 += a * x2[ox2 + (long)r * incx2];
        }
    if (c == 0 && lid == 0 && qs >= 0) /* (read by no group) */
        x[ox + (long)qs * incx] = sv;
    red[lid] = s;
    red2[lid] = s2;
    QRU_BARRIER;
    qru_row_sum(red, lid, 0, nt);
    if (incx2 > 0)
        qru_row_sum(red2, lid, 0, nt);
    if (lid == 0) {
        y[oy + c] = red[0];
        if (incx2 > 0)
            y2[oy2 + c] = red2[0];
    }
}

/* border 0: the plain product (gtt, out, x2, S not read); 1: bordering,
 * G(t, t) at gtt[ogt], x = v (ncol = hw elements), A = W (nrow = hw),
 * y not written, and out[oo] = d, out[oo + 1] = 1 where d2 = G(t, t) -
 * v' v is not > 0 or not finite (d = 1 then); 2: bordering as 1, and
 * with x2 = W' S but for column q and S(q) at S[osq], y = z = W V with
 * V = x2 but V(q) = (S(q) - v' x2) / d. */
QRU_KERNEL void qru_gram_rowdot(int border, int nrow, int ncol, int q,
                                QRU_GLOBAL T *A, long oa, int lda,
                                QRU_GLOBAL const T *x, long ox,
                                QRU_GLOBAL T *y, long oy,
                                QRU_GLOBAL const T *gtt, long ogt,
                                QRU_GLOBAL T *out, long oo,
                                QRU_GLOBAL const T *x2, long ox2,
                                QRU_GLOBAL const T *S, long osq)
{
    QRU_LOCAL_DECL(T, red, QRU_GRAMK_ROWS * QRU_GRAMK_SLICES);
    QRU_LOCAL_DECL(T, red2, QRU_GRAMK_ROWS * QRU_GRAMK_SLICES);
    QRU_LOCAL_DECL(T, dd, 2);
    int lx = QRU_LID_X, ly = QRU_LID_Y, ns = QRU_LSIZE_Y;
    int f = ly * QRU_GRAMK_ROWS + lx, nt = QRU_GRAMK_ROWS * ns;
    int r = QRU_GROUP_X * QRU_GRAMK_ROWS + lx, two = border == 2;
    if (border) { /* d from v' v, the same order in every group */
        T vv = (T)0, vx = (T)0;
        for (int c = f; c < ncol; c += nt) {
            vv += x[ox + c] * x[ox + c];
            if (two)
                vx += x[ox + c] * x2[ox2 + c];
        }
        red[f] = vv;
        red2[f] = vx;
        QRU_BARRIER;
        qru_row_sum(red, f, 0, nt);
        if (two)
            qru_row_sum(red2, f, 0, nt);
        if (f == 0) {
            T d2 = gtt[ogt] - red[0];
            int ok = d2 > (T)0 && isfinite(d2);
            dd[0] = ok ? QRU_SQRT(d2) : (T)1;
            if (two)
                dd[1] = (S[osq] - red2[0]) / dd[0];
            if (QRU_GROUP_X == 0) {
                out[oo] = dd[0];
                if (!ok)
                    out[oo + 1] = (T)1;
            }
        }
        QRU_BARRIER;
    }
    T s = (T)0, s2 = (T)0;
    if (r < nrow)
        for (int c = ly; c < ncol; c += ns)
            if (c != q) {
                T a = A[oa + r + (long)c * lda];
                s += a * x[ox + c];
                if (two)
                    s2 += a * x2[ox2 + c];
            }
    red[lx * ns + ly] = s; /* the slices of a row adjacent */
    red2[lx * ns + ly] = s2;
    QRU_BARRIER;
    qru_row_sum(red, ly, lx, ns);
    if (two)
        qru_row_sum(red2, ly, lx, ns);
    if (ly != 0 || r >= nrow)
        return;
    if (!border) {
        y[oy + r] = red[lx * ns];
    } else {
        T wrq = (r == q ? (T)1 : -red[lx * ns]) / dd[0];
        A[oa + r + (long)q * lda] = wrq;
        if (two)
            y[oy + r] = red2[lx * ns] + wrq * dd[1];
    }
}

#endif /* QRU_GRAM_CL */
