/*
 * Device kernels of the QR-update ops (src/qru_internal.h, "update
 * kernels"): the strip-wise Givens rotations of Andrew (2012) section 3.2
 * (makeGivens / applyGivens) and the matrix sum of section 4.3 (doubleSum).
 * Same conventions as kernels/qru_base.cl: (pointer, element offset)
 * arguments, grid-stride loops, written once against kernels/qru_kdefs.h.
 * The CPU versions (src/cpu/cpu_update_kernels.inc) are the reference.
 */
#ifndef QRU_UPDATE_CL
#define QRU_UPDATE_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif

/* makeGivens: rotation t from a = X[ox + t*inc], b = X[ox + t*inc + ps]:
 * r = |(a, b)| without overflow, c = a / r, s = b / r; c = 1, s = 0 when
 * b = 0.  cs[ocs + 2t], cs[ocs + 2t + 1] = c, s.  1-D, any group size. */
QRU_KERNEL void qru_givens_make(int cnt, QRU_GLOBAL const T *X, long ox,
                                long inc, long ps, QRU_GLOBAL T *cs, long ocs)
{
    for (int t = QRU_GID_X; t < cnt; t += QRU_LSIZE_X * QRU_NGROUPS_X) {
        T a = X[ox + (long)t * inc], b = X[ox + (long)t * inc + ps];
        T c = (T)1, s = (T)0;
        if (b != (T)0) {
            T fa = QRU_FABS(a), fb = QRU_FABS(b);
            T big = fa > fb ? fa : fb;
            T ra = a / big, rb = b / big;
            T r = big * QRU_SQRT(ra * ra + rb * rb);
            c = a / r;
            s = b / r;
        }
        cs[ocs + 2 * (long)t] = c;
        cs[ocs + 2 * (long)t + 1] = s;
    }
}

/* applyGivens: for every rotation t and e = 0 .. len-1, with
 * x = X[ox + t*inc + e*es] and y = X[ox + t*inc + ps + e*es]:
 * x := c x + s y, y := c y - s x (rotations with c = 1, s = 0 are skipped,
 * leaving x and y bit-for-bit unchanged).  2-D: the x dimension of the
 * grid runs over t when tfirst != 0 (pairs adjacent in t are adjacent in
 * memory), else over e; any group shape. */
QRU_KERNEL void qru_givens_apply(int cnt, int len, QRU_GLOBAL const T *cs,
                                 long ocs, QRU_GLOBAL T *X, long ox, long inc,
                                 long ps, long es, int tfirst)
{
    int n0 = tfirst ? cnt : len, n1 = tfirst ? len : cnt;
    for (int b = QRU_GID_Y; b < n1; b += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int a = QRU_GID_X; a < n0; a += QRU_LSIZE_X * QRU_NGROUPS_X) {
            int t = tfirst ? a : b, e = tfirst ? b : a;
            T c = cs[ocs + 2 * (long)t], s = cs[ocs + 2 * (long)t + 1];
            if (c == (T)1 && s == (T)0)
                continue;
            long px = ox + (long)t * inc + (long)e * es;
            T x = X[px], y = X[px + ps];
            X[px] = c * x + s * y;
            X[px + ps] = c * y - s * x;
        }
}

/* doubleSum: B := alpha A + beta B for m x n A, B; beta == 0: B is not
 * read; alpha == 0: A is not read.  Any 2-D group shape. */
QRU_KERNEL void qru_geadd(int m, int n, T alpha, QRU_GLOBAL const T *A,
                          long oa, int lda, T beta, QRU_GLOBAL T *B, long ob,
                          int ldb)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            long pb = QRU_IDX(ob, i, j, ldb);
            T r = (T)0;
            if (alpha != (T)0)
                r = alpha * A[QRU_IDX(oa, i, j, lda)];
            if (beta != (T)0)
                r = alpha != (T)0 ? r + beta * B[pb] : beta * B[pb];
            B[pb] = r;
        }
}

#endif /* QRU_UPDATE_CL */
