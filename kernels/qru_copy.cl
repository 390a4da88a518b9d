/*
 * Overlapping device copy (the "towards the start" case of the copy op in
 * src/qru_internal.h, as when rows or columns are deleted), written once
 * against kernels/qru_kdefs.h; conventions as in kernels/qru_base.cl.
 *
 *   qru_copy_back(m, n, A, oa, B, ob, ld, percol)
 *       B(0:m-1, 0:n-1) = A(0:m-1, 0:n-1) where A and B share one buffer
 *       and one leading dimension and B starts at a lower or equal address
 *       (ob <= oa).  1-D work-groups of any size (x); percol = 1: one
 *       work-group per column (y = n groups; allowed when columns do not
 *       interact, i.e. oa - ob <= ld - m); percol = 0: exactly one work-group
 *       walks all columns in order.  A group copies its elements in chunks
 *       of QRU_COPY_BACK_U times its size in column order (each item
 *       QRU_COPY_BACK_U elements, a group's size apart): read the chunk,
 *       barrier, write it, barrier.  Every write lands below every read
 *       still to come, so no element is overwritten before it has been
 *       read.  (Four elements an item keep more loads in flight than
 *       one, for the long columns of a Q losing rows.)
 */
#ifndef QRU_COPY_CL
#define QRU_COPY_CL

#define QRU_COPY_BACK_U 4

QRU_KERNEL void qru_copy_back(int m, int n, QRU_GLOBAL const T *A, long oa,
                              QRU_GLOBAL T *B, long ob, int ld, int percol)
{
    int j0 = percol ? QRU_GROUP_Y : 0;
    int nc = percol ? 1 : n;
    long total = (long)nc * m;
    long step = (long)QRU_LSIZE_X;
    if (j0 >= n)
        return; /* uniform over the group */
    for (long base = 0; base < total; base += step * QRU_COPY_BACK_U) {
        long idx[QRU_COPY_BACK_U];
        T val[QRU_COPY_BACK_U];
#pragma unroll
        for (int u = 0; u < QRU_COPY_BACK_U; ++u) {
            long p = base + QRU_LID_X + u * step;
            idx[u] = -1;
            val[u] = (T)0;
            if (p < total) {
                int j = j0 + (int)(p / m);
                int i = (int)(p % m);
                idx[u] = (long)i + (long)j * (long)ld;
                val[u] = A[oa + idx[u]];
            }
        }
        QRU_BARRIER_GLOBAL;
#pragma unroll
        for (int u = 0; u < QRU_COPY_BACK_U; ++u)
            if (idx[u] >= 0)
                B[ob + idx[u]] = val[u];
        QRU_BARRIER_GLOBAL;
    }
}

#endif /* QRU_COPY_CL */
