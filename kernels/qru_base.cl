/*
 * Device kernels of the base backend ops (src/qru_internal.h): laset,
 * scaling, 2-D copy, the padded-tile transpose, column norms, the
 * non-finite count, the Householder kernels of Andrew (2012) section 3.1
 * (house, larf) and the WY accumulation.  Written once against
 * kernels/qru_kdefs.h: nvcc compiles them as templates over T (cuda/),
 * OpenCL with -DT=float/double (opencl/), and for the complex types
 * (LAPACK's conventions: zlarfg, zlarf; ' the conjugate transpose) with
 * the arithmetic of kernels/qru_kdefs.h, which is the plain operators for
 * a real T.
 *
 * Conventions shared by every kernel here:
 *  - every array is passed as (base pointer, offset in elements): OpenCL
 *    buffers cannot be offset on the host, so the offset of a qru_ptr
 *    travels as a 'long' argument; leading dimensions are ints;
 *  - matrices are column-major, element (i, j) of A is A[oa + i + j*lda];
 *  - every kernel loops grid-stride over its index space, so any grid size
 *    is correct (the host caps it); local sizes are given per kernel below
 *    and must be powers of two where a reduction is done;
 *  - scalars computed on the device (tau) are read from device memory.
 */
#ifndef QRU_BASE_CL
#define QRU_BASE_CL

/* Threads of a 1-D reduction work-group (house, col_norms); a backend may
 * predefine it (OpenCL tuning, opencl/qru_opencl.h). */
#ifndef QRU_RED
#define QRU_RED 256
#endif
/* Transpose tile: QRU_TILE x QRU_TILE elements, work-group QRU_TILE x 8. */
#ifndef QRU_TILE
#define QRU_TILE 32
#endif

#ifndef QRU_IDX
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif

/* ---- helpers ------------------------------------------------------------ */

/* Adds |a| to the scaled sum of squares (scale *sc, sum *sq): the norm of
 * the values seen is sc * sqrt(sq) (LAPACK lassq, start sc = 0, sq = 1). */
QRU_DEVICE void qru_ssq_add(QRU_RH a, QRU_RH *sc, QRU_RH *sq)
{
    if (a != (QRU_RH)0) {
        if (*sc < a) {
            QRU_RH r = *sc / a;
            *sq = (QRU_RH)1 + *sq * r * r;
            *sc = a;
        } else {
            QRU_RH r = a / *sc;
            *sq += r * r;
        }
    }
}

/* Tree reduction of nt (a power of two) scaled sums of squares in local
 * memory; on return ssc[0] * sqrt(ssq[0]) is the norm of all of them.
 * Must be called by every work-item of the group, after a barrier. */
QRU_DEVICE void qru_ssq_reduce(QRU_LOCAL QRU_RH *ssc, QRU_LOCAL QRU_RH *ssq,
                               int lid, int nt)
{
    for (int s = nt / 2; s > 0; s >>= 1) {
        if (lid < s) {
            QRU_RH a = ssc[lid], b = ssc[lid + s];
            QRU_RH qa = ssq[lid], qb = ssq[lid + s];
            if (a < b) { /* swap so that a >= b */
                QRU_RH t = a;
                a = b;
                b = t;
                t = qa;
                qa = qb;
                qb = t;
            }
            if (a != (QRU_RH)0) {
                QRU_RH r = b / a;
                qa += qb * r * r;
            }
            ssc[lid] = a;
            ssq[lid] = qa;
        }
        QRU_BARRIER;
    }
}

/* Sum over the x dimension of a (nx x ny) work-group: red[ly*nx + lx]
 * holds each item's value; on return red[ly*nx] is the sum of row ly.
 * nx is a power of two; every work-item must call it after a barrier. */
QRU_DEVICE void qru_row_sum(QRU_LOCAL T *red, int lx, int ly, int nx)
{
    for (int s = nx / 2; s > 0; s >>= 1) {
        if (lx < s)
            red[ly * nx + lx] += red[ly * nx + lx + s];
        QRU_BARRIER;
    }
}

/* ---- elementwise -------------------------------------------------------- */

/* A(i,j) = diag if i == j, else offdiag; uplo 0: all, 1: upper (i <= j),
 * 2: lower (i >= j).  Any 2-D work-group shape. */
QRU_KERNEL void qru_laset(int uplo, int m, int n, T offdiag, T diag,
                          QRU_GLOBAL T *A, long oa, int lda)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            if ((uplo == 1 && i > j) || (uplo == 2 && i < j))
                continue;
            A[QRU_IDX(oa, i, j, lda)] = (i == j) ? diag : offdiag;
        }
}

/* A = beta A, with A = 0 exactly when beta == 0 (BLAS convention: no NaN
 * propagation from the old A).  Any 2-D work-group shape. */
QRU_KERNEL void qru_scal2d(int m, int n, T beta, QRU_GLOBAL T *A, long oa,
                           int lda)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            long p = QRU_IDX(oa, i, j, lda);
            A[p] = QRU_ISZERO(beta) ? (T)0 : QRU_MUL(beta, A[p]);
        }
}

/* B(0:m-1, 0:n-1) = A(0:m-1, 0:n-1); A and B must not overlap.  Any 2-D
 * work-group shape. */
QRU_KERNEL void qru_copy2d(int m, int n, QRU_GLOBAL const T *A, long oa,
                           int lda, QRU_GLOBAL T *B, long ob, int ldb)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X)
            B[QRU_IDX(ob, i, j, ldb)] = A[QRU_IDX(oa, i, j, lda)];
}

/* B = A' (conjugated) for the m x n A (Andrew 2012, figure 3.4): a QRU_TILE x QRU_TILE
 * tile is read along A's columns, kept in local memory padded to
 * QRU_TILE + 1 columns so that reading it along rows hits distinct banks,
 * and written along B's columns.  Work-group QRU_TILE x 8 (y any divisor
 * of QRU_TILE). */
QRU_KERNEL void qru_transpose(int m, int n, QRU_GLOBAL const T *A, long oa,
                              int lda, QRU_GLOBAL T *B, long ob, int ldb)
{
    QRU_LOCAL_DECL(T, tile, QRU_TILE * (QRU_TILE + 1));
    int tx = QRU_LID_X, ty = QRU_LID_Y;
    for (int bj = QRU_GROUP_Y * QRU_TILE; bj < n;
         bj += QRU_NGROUPS_Y * QRU_TILE)
        for (int bi = QRU_GROUP_X * QRU_TILE; bi < m;
             bi += QRU_NGROUPS_X * QRU_TILE) {
            for (int k = ty; k < QRU_TILE; k += QRU_LSIZE_Y) {
                int i = bi + tx, j = bj + k;
                if (i < m && j < n)
                    tile[k * (QRU_TILE + 1) + tx] = A[QRU_IDX(oa, i, j, lda)];
            }
            QRU_BARRIER;
            for (int k = ty; k < QRU_TILE; k += QRU_LSIZE_Y) {
                int j = bj + tx, i = bi + k; /* B(j, i) = A(i, j) */
                if (i < m && j < n)
                    B[QRU_IDX(ob, j, i, ldb)] =
                        QRU_CONJ(tile[tx * (QRU_TILE + 1) + k]);
            }
            QRU_BARRIER;
        }
}

/* ---- reductions ----------------------------------------------------------- */

/* Adds the parts of a to the scaled sum of squares (both parts of a
 * complex a, as LAPACK's zlassq). */
#define QRU_SSQ_ADD(a, sc, sq)                                                 \
    do {                                                                       \
        T a_ = (a);                                                            \
        qru_ssq_add(QRU_FABS(QRU_RE(a_)), sc, sq);                             \
        if (QRU_CPLX)                                                          \
            qru_ssq_add(QRU_FABS(QRU_IM(a_)), sc, sq);                         \
    } while (0)

/* out[oo + j] = ||A(:, j)||_2 for the m x n A, overflow-safe (scaled sum of
 * squares; complex: the norm as the real part).  One work-group of QRU_RED
 * items per column. */
QRU_KERNEL void qru_col_norms(int m, int n, QRU_GLOBAL const T *A, long oa,
                              int lda, QRU_GLOBAL T *out, long oo)
{
    QRU_LOCAL_DECL(QRU_R, ssc, QRU_RED);
    QRU_LOCAL_DECL(QRU_R, ssq, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    for (int j = QRU_GROUP_X; j < n; j += QRU_NGROUPS_X) {
        QRU_R sc = (QRU_R)0, sq = (QRU_R)1;
        for (int i = lid; i < m; i += nt)
            QRU_SSQ_ADD(A[QRU_IDX(oa, i, j, lda)], &sc, &sq);
        ssc[lid] = sc;
        ssq[lid] = sq;
        QRU_BARRIER;
        qru_ssq_reduce(ssc, ssq, lid, nt);
        if (lid == 0)
            out[oo + j] = QRU_MKR(ssc[0] * QRU_SQRT(ssq[0]));
        QRU_BARRIER;
    }
}

/* Non-finite elements (NaN, +-Inf; nz: nonzero elements) of the uplo
 * part of the m x n A (count_nonfinite, count_nonzero; uplo 0: all, 1:
 * upper i <= j, 2: lower i >= j).
 * 1-D work-groups of a power of two items (at most QRU_RED) on a 2-D grid:
 * the groups along x share the rows of a column, those along y take the
 * columns; group (gx, gy) writes the count it saw to
 * counts[gx + gy * ngroups_x], which the host adds up. */
QRU_KERNEL void qru_count_nonfinite(int nz, int uplo, int m, int n,
                                    QRU_GLOBAL const T *A, long oa, int lda,
                                    QRU_GLOBAL int *counts)
{
    QRU_LOCAL_DECL(int, red, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int c = 0;
    for (int j = QRU_GROUP_Y; j < n; j += QRU_NGROUPS_Y) {
        int i0 = uplo == 2 ? j : 0;
        int i1 = uplo == 1 ? (j + 1 < m ? j + 1 : m) : m;
        for (int i = i0 + QRU_GID_X; i < i1; i += nt * QRU_NGROUPS_X) {
            T v = A[QRU_IDX(oa, i, j, lda)];
            c += (nz ? QRU_ISZERO(v) : QRU_FINITE(v)) ? 0 : 1;
        }
    }
    red[lid] = c;
    QRU_BARRIER;
    for (int s = nt / 2; s > 0; s >>= 1) {
        if (lid < s)
            red[lid] += red[lid + s];
        QRU_BARRIER;
    }
    if (lid == 0)
        counts[QRU_GROUP_X + QRU_GROUP_Y * QRU_NGROUPS_X] = red[0];
}

/* larfg's reflector from alpha and xnorm != 0 (the norm of the rest of the
 * column): returns beta = -sign(re alpha) |(alpha, xnorm)| (no overflow;
 * real) and sets tau = (beta - alpha) / beta and the scale of v,
 * 1 / (alpha - beta) (zlarfg's for a complex alpha). */
QRU_DEVICE T qru_larfg_beta(T a, QRU_R xnorm, T *tau, T *f)
{
    QRU_R fa = QRU_FABS(QRU_RE(a));
    if (QRU_CPLX && QRU_FABS(QRU_IM(a)) > fa)
        fa = QRU_FABS(QRU_IM(a));
    QRU_R s = fa > xnorm ? fa : xnorm;
    QRU_R ra = QRU_RE(a) / s, rx = xnorm / s;
    QRU_R q = ra * ra + rx * rx;
    if (QRU_CPLX) {
        QRU_R ri = QRU_IM(a) / s;
        q += ri * ri;
    }
    QRU_R beta = s * QRU_SQRT(q);
    if (QRU_RE(a) >= (QRU_R)0)
        beta = -beta;
    *tau = (QRU_MKR(beta) - a) / beta;
    *f = QRU_INV(a - QRU_MKR(beta));
    return QRU_MKR(beta);
}

/* The houseKernel (Andrew 2012, section 3.1) with LAPACK larfg
 * conventions, in one work-group of QRU_RED items: the norm of the
 * n-vector x is reduced in local memory, item 0 forms beta and tau, then
 * all items write v = x / (alpha - beta) and clear x (unless 'same', i.e.
 * v and x are the same memory).  On exit alpha = beta and tau is in device
 * memory; if x == 0, tau = 0, v = 0 and alpha is kept. */
QRU_KERNEL void qru_house(int n, QRU_GLOBAL T *alpha, long oal,
                          QRU_GLOBAL T *x, long ox, QRU_GLOBAL T *v, long ov,
                          QRU_GLOBAL T *tau, long ot, int same)
{
    QRU_LOCAL_DECL(QRU_R, ssc, QRU_RED);
    QRU_LOCAL_DECL(QRU_R, ssq, QRU_RED);
    QRU_LOCAL_DECL(T, fac, 1);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    QRU_R sc = (QRU_R)0, sq = (QRU_R)1;
    for (int i = lid; i < n; i += nt)
        QRU_SSQ_ADD(x[ox + i], &sc, &sq);
    ssc[lid] = sc;
    ssq[lid] = sq;
    QRU_BARRIER;
    qru_ssq_reduce(ssc, ssq, lid, nt);
    if (lid == 0) {
        QRU_R xnorm = ssc[0] * QRU_SQRT(ssq[0]);
        T f = (T)0, t = (T)0;
        if (xnorm != (QRU_R)0)
            alpha[oal] = qru_larfg_beta(alpha[oal], xnorm, &t, &f);
        tau[ot] = t;
        fac[0] = f;
    }
    QRU_BARRIER;
    T f = fac[0];
    for (int i = lid; i < n; i += nt) {
        T xi = x[ox + i];
        v[ov + i] = QRU_MUL(xi, f);
        if (!same)
            x[ox + i] = (T)0;
    }
}

/* Applies H' = I - conj(tau) [1; v][1; v]' from the left to [top; C] (top:
 * row of n elements with stride ldt; C: m x n): for each column j,
 * w = conj(tau) (top_j + v' C(:, j)), top_j -= w, C(:, j) -= v w (H' = H
 * for a real T).
 * Work-group nx x ny (nx a power of two, nx * ny <= QRU_RED): ny columns per
 * group, nx items reduce along each column.  Nothing is done if tau == 0. */
QRU_KERNEL void qru_larf(int m, int n, QRU_GLOBAL const T *v, long ov,
                         QRU_GLOBAL const T *tau, long ot, QRU_GLOBAL T *top,
                         long otop, int ldt, QRU_GLOBAL T *C, long oc,
                         int ldc)
{
    QRU_LOCAL_DECL(T, red, QRU_RED);
    T t = QRU_CONJ(tau[ot]);
    if (QRU_ISZERO(t))
        return; /* uniform over the whole grid */
    int lx = QRU_LID_X, ly = QRU_LID_Y, nx = QRU_LSIZE_X, ny = QRU_LSIZE_Y;
    for (int jb = QRU_GROUP_X * ny; jb < n; jb += QRU_NGROUPS_X * ny) {
        int j = jb + ly;
        T s = (T)0;
        if (j < n)
            for (int i = lx; i < m; i += nx)
                s += QRU_CMUL(v[ov + i], C[QRU_IDX(oc, i, j, ldc)]);
        red[ly * nx + lx] = s;
        QRU_BARRIER;
        qru_row_sum(red, lx, ly, nx);
        T w = (T)0;
        if (j < n)
            w = QRU_MUL(t, red[ly * nx] + top[otop + (long)j * ldt]);
        /* top_j (global memory) and red are read before anyone writes */
        QRU_BARRIER_GLOBAL;
        if (j < n) {
            if (lx == 0)
                top[otop + (long)j * ldt] -= w;
            for (int i = lx; i < m; i += nx)
                C[QRU_IDX(oc, i, j, ldc)] -= QRU_MUL(v[ov + i], w);
        }
    }
}

/* y(0:k-1) = A(:, 0:k-1)' x for the m x k A (m-vector x): work-group
 * nx x ny as in qru_larf. */
QRU_KERNEL void qru_gemv_t(int m, int k, QRU_GLOBAL const T *A, long oa,
                           int lda, QRU_GLOBAL const T *x, long ox,
                           QRU_GLOBAL T *y, long oy)
{
    QRU_LOCAL_DECL(T, red, QRU_RED);
    int lx = QRU_LID_X, ly = QRU_LID_Y, nx = QRU_LSIZE_X, ny = QRU_LSIZE_Y;
    for (int jb = QRU_GROUP_X * ny; jb < k; jb += QRU_NGROUPS_X * ny) {
        int j = jb + ly;
        T s = (T)0;
        if (j < k)
            for (int i = lx; i < m; i += nx)
                s += QRU_CMUL(A[QRU_IDX(oa, i, j, lda)], x[ox + i]);
        red[ly * nx + lx] = s;
        QRU_BARRIER;
        qru_row_sum(red, lx, ly, nx);
        if (j < k && lx == 0)
            y[oy + j] = red[ly * nx];
        QRU_BARRIER;
    }
}

/* Second half of the WY accumulation (Andrew 2012, section 3.1):
 * W(:, j) = -tau (Y(:, j) + W(:, 0:j-1) z) with z = Y(:, 0:j-1)' Y(:, j)
 * already in z (qru_gemv_t).  1-D, any work-group size. */
QRU_KERNEL void qru_wy_col(int m, int j, QRU_GLOBAL const T *Y, long oy,
                           int ldy, QRU_GLOBAL T *W, long ow, int ldw,
                           QRU_GLOBAL const T *z, long oz,
                           QRU_GLOBAL const T *tau, long ot)
{
    T t = tau[ot];
    for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
        T s = Y[QRU_IDX(oy, i, j, ldy)];
        for (int c = 0; c < j; ++c)
            s += QRU_MUL(W[QRU_IDX(ow, i, c, ldw)], z[oz + c]);
        W[QRU_IDX(ow, i, j, ldw)] = QRU_MUL(-t, s);
    }
}

#endif /* QRU_BASE_CL */
