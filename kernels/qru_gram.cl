/*
 * Device kernels of the Gram active set's ops gram_border and gram_solve
 * (contracts in src/qru_ops.h; the state is described in
 * src/solvers/gram_set.c; the reference is ref_ops.c's sequence of basic
 * ops, which the CPU backend runs):
 *   qru_gram_coldot   y(c) = sum_{r < hw, r != q} A(r, c) x(r incx),
 *                     c < hw (a product with W'), one work-group a
 *                     column, with x(qs) = sv (written, read by none);
 *                     the groups from hw on copy ncp elements of a
 *                     column (G(:, t) to Gs(:, q) when bordering);
 *   qru_gram_rowdot   y(r) = sum_{c < ncol, c != q} A(r, c) x(c),
 *                     r < nrow (a product with W or Gs), work-groups of
 *                     QRU_GRAMK_ROWS rows (x) by a power of two slices of
 *                     the columns (y); with gtt (bordering) the sums are
 *                     -W v and finish the new column of W in place:
 *                     W(r, q) = (r == q ? 1 : -(W v)(r)) / d.
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
                                long oy,
                                int ncp, QRU_GLOBAL const T *src, long os,
                                QRU_GLOBAL T *dst, long od)
{
    QRU_LOCAL_DECL(T, red, QRU_GRAMK_COLDOT);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, c = QRU_GROUP_X;
    if (c >= hw) { /* the copy: every item its elements */
        int ng = QRU_NGROUPS_X - hw;
        for (int i = (c - hw) * nt + lid; i < ncp; i += ng * nt)
            dst[od + i] = src[os + i];
        return;
    }
    T s = (T)0;
    long ac = oa + (long)c * lda;
    for (int r = lid; r < hw; r += nt)
        if (r != q)
            s += A[ac + r] * (r == qs ? sv : x[ox + (long)r * incx]);
    if (c == 0 && lid == 0 && qs >= 0) /* (read by no group) */
        x[ox + (long)qs * incx] = sv;
    red[lid] = s;
    QRU_BARRIER;
    qru_row_sum(red, lid, 0, nt);
    if (lid == 0)
        y[oy + c] = red[0];
}

/* border 0: the plain product (gtt and out not read); 1: bordering,
 * G(t, t) at gtt[ogt], x = v (ncol = hw elements), A = W (nrow = hw),
 * y not written, and out[oo] = d, out[oo + 1] = 1 where d2 = G(t, t) -
 * v' v is not > 0 or not finite (d = 1 then). */
QRU_KERNEL void qru_gram_rowdot(int border, int nrow, int ncol, int q,
                                QRU_GLOBAL T *A, long oa, int lda,
                                QRU_GLOBAL const T *x, long ox,
                                QRU_GLOBAL T *y, long oy,
                                QRU_GLOBAL const T *gtt, long ogt,
                                QRU_GLOBAL T *out, long oo)
{
    QRU_LOCAL_DECL(T, red, QRU_GRAMK_ROWS * QRU_GRAMK_SLICES);
    QRU_LOCAL_DECL(T, dd, 1);
    int lx = QRU_LID_X, ly = QRU_LID_Y, ns = QRU_LSIZE_Y;
    int f = ly * QRU_GRAMK_ROWS + lx, nt = QRU_GRAMK_ROWS * ns;
    int r = QRU_GROUP_X * QRU_GRAMK_ROWS + lx;
    if (border) { /* d from v' v, the same order in every group */
        T vv = (T)0;
        for (int c = f; c < ncol; c += nt)
            vv += x[ox + c] * x[ox + c];
        red[f] = vv;
        QRU_BARRIER;
        qru_row_sum(red, f, 0, nt);
        if (f == 0) {
            T d2 = gtt[ogt] - red[0];
            int ok = d2 > (T)0 && isfinite(d2);
            dd[0] = ok ? QRU_SQRT(d2) : (T)1;
            if (QRU_GROUP_X == 0) {
                out[oo] = dd[0];
                if (!ok)
                    out[oo + 1] = (T)1;
            }
        }
        QRU_BARRIER;
    }
    T s = (T)0;
    if (r < nrow)
        for (int c = ly; c < ncol; c += ns)
            if (c != q)
                s += A[oa + r + (long)c * lda] * x[ox + c];
    red[lx * ns + ly] = s; /* the slices of a row adjacent */
    QRU_BARRIER;
    qru_row_sum(red, ly, lx, ns);
    if (ly != 0 || r >= nrow)
        return;
    if (!border)
        y[oy + r] = red[lx * ns];
    else
        A[oa + r + (long)q * lda] = (r == q ? (T)1 : -red[lx * ns]) / dd[0];
}

#endif /* QRU_GRAM_CL */
