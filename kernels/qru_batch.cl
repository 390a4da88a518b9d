/*
 * Device kernels of the batched ops (src/qru_ops.h): the rank-k update or
 * downdate of count independent Cholesky factors (chol_update_batch).
 * Same conventions as kernels/qru_base.cl; the CPU version
 * (src/cpu/cpu_batch_kernels.inc) is the reference.
 */
#ifndef QRU_BATCH_CL
#define QRU_BATCH_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif
/* The largest work-group of qru_chol_update_batch (a power of two). */
#ifndef QRU_BATCH_WG
#define QRU_BATCH_WG 256
#endif
/* Elements of local memory for the working copy of a small problem
 * (QRU_CHOL_BATCH_LM of src/qru_internal.h, which says which fit). */
#ifndef QRU_BATCH_LM
#define QRU_BATCH_LM 2560
#endif

/* The rotation of chol_rot (its contract, src/qru_ops.h) that zeroes b
 * against the pivot a: r = sqrt(a^2 + b^2) (update, without overflow) or
 * sqrt((a - b)(a + b)) (downdate); 0 when it fails (a = 0, or r not > 0
 * and finite).  Also the rotations of qru_chol_rot (kernels/qru_chol.cl,
 * after this file in the OpenCL program; cuda/cuda_chol.cu includes this
 * file first). */
QRU_DEVICE T qru_rot_r(T a, T b, int sign)
{
    T r;
    if (sign > 0) {
        T fa = QRU_FABS(a), fb = QRU_FABS(b);
        T big = fa > fb ? fa : fb, sml = fa > fb ? fb : fa;
        if (big == (T)0) {
            r = (T)0;
        } else {
            T q2 = sml / big;
            r = big * QRU_SQRT((T)1 + q2 * q2);
        }
    } else {
        T r2 = (a - b) * (a + b);
        r = r2 > (T)0 ? QRU_SQRT(r2) : (T)0;
    }
    /* r - r == 0 exactly when r is finite */
    return (a == (T)0 || !(r > (T)0) || !(r - r == (T)0)) ? (T)0 : r;
}

/*
 * chol_update_batch: ONE work-group per problem (groups loop over the
 * problems b = group, group + groups, ...), a power of two items, at most
 * QRU_BATCH_WG.  Item t owns the rows i = t, t + items, ...: it copies row
 * i of the factor (uplo 'U': column i of U) and of W into the problem's
 * working copy (lm: in local memory, the triangle packed by rows, then
 * W, then A1's diagonal; else in work: T n x n, ld n, Wd n x k, ld n,
 * then A1's diagonal), and every later write to those rows is its own,
 * so the copy needs no barrier.  Per column i every item forms the k
 * rotations (the order of chol_rot) from T(i,i) and Wd(i,:), which no
 * item writes in that step, and judges the new pivot by the definiteness
 * rule: the same values everywhere, so the verdict is uniform without a
 * flag; then each item applies the rotations, formed again, to its rows
 * j > i, and after ONE barrier a column the owner of row i writes the
 * pivot.  The page of L1 is written only when no column failed; info[b]
 * (a T holding the failing column or 0) always.
 */
/* The working copy's element at local index li (lm) or at work[gi]. */
#define QRU_BW_GET(li, gi) (lm ? loc[li] : work[gi])
#define QRU_BW_SET(li, gi, v)                                                  \
    do {                                                                       \
        if (lm)                                                                \
            loc[li] = (v);                                                     \
        else                                                                   \
            work[gi] = (v);                                                    \
    } while (0)

QRU_KERNEL void qru_chol_update_batch(
    int upper, int n, int k, int sign, int count, T eps,
    QRU_GLOBAL const T *L, long ol, int ldl, long sl, QRU_GLOBAL const T *W,
    long ow, int ldw, long sw, QRU_GLOBAL T *L1, long o1, int ld1, long s1,
    QRU_GLOBAL T *info, long oi, QRU_GLOBAL T *work, long ok, int lm)
{
    QRU_LOCAL_DECL(T, red, QRU_BATCH_WG);
    QRU_LOCAL_DECL(T, loc, QRU_BATCH_LM);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    long pw = (long)n * ((long)n + (long)k + 1);
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        long pl = ol + (long)b * sl, pwb = ow + (long)b * sw;
        long tb = ok + (long)b * pw, wb = tb + (long)n * n,
             ab = wb + (long)n * k;
        /* local: the triangle packed by rows, then W, then A1's diagonal */
        int tri = n * (n + 1) / 2, lw = tri, la = tri + n * k;
        /* the copies and A1's diagonal; its largest finite entry */
        T amax = (T)0;
        for (int i = lid; i < n; i += nt) {
            T sl2 = (T)0, sw2 = (T)0;
            for (int c = 0; c <= i; ++c) {
                T v = upper ? L[QRU_IDX(pl, c, i, ldl)]
                            : L[QRU_IDX(pl, i, c, ldl)];
                QRU_BW_SET(i * (i + 1) / 2 + c, QRU_IDX(tb, i, c, n), v);
                sl2 += v * v;
            }
            for (int q = 0; q < k; ++q) {
                T v = W[QRU_IDX(pwb, i, q, ldw)];
                QRU_BW_SET(lw + i + q * n, QRU_IDX(wb, i, q, n), v);
                sw2 += v * v;
            }
            T a = sign > 0 ? sl2 + sw2 : sl2 - sw2;
            QRU_BW_SET(la + i, ab + i, a);
            if (a - a == (T)0 && a > amax) /* finite */
                amax = a;
        }
        red[lid] = amax;
        QRU_BARRIER;
        for (int s = nt / 2; s > 0; s >>= 1) {
            if (lid < s && red[lid + s] > red[lid])
                red[lid] = red[lid + s];
            QRU_BARRIER;
        }
        T tol = (T)n * eps * red[0];
        T sg = sign > 0 ? (T)1 : (T)-1;
        int fail = 0;
        for (int i = 0; i < n; ++i) {
            /* every item forms column i's k rotations from the pivot row
             * (final since the last barrier) and judges the new pivot:
             * the same values in every item, so the verdict is uniform */
            long pii = QRU_IDX(tb, i, i, n);
            int lii = i * (i + 1) / 2 + i;
            T a0 = QRU_BW_GET(lii, pii), a = a0;
            for (int q = 0; q < k && !fail; ++q) {
                T r = qru_rot_r(
                    a, QRU_BW_GET(lw + i + q * n, QRU_IDX(wb, i, q, n)),
                    sign);
                if (r == (T)0)
                    fail = i + 1;
                a = r;
            }
            if (!fail) { /* the rule on the pivot */
                T d = a * a, ai = QRU_BW_GET(la + i, ab + i);
                if (!(ai - ai == (T)0) || !(d - d == (T)0) || !(d > tol))
                    fail = i + 1;
            }
            if (fail)
                break; /* uniform */
            /* the rotations, formed again, on this item's rows j > i */
            for (int j = lid; j < n; j += nt) {
                if (j <= i)
                    continue;
                long pj = QRU_IDX(tb, j, i, n);
                int lj0 = j * (j + 1) / 2 + i;
                T lj = QRU_BW_GET(lj0, pj), aq = a0;
                for (int q = 0; q < k; ++q) {
                    long pq = QRU_IDX(wb, j, q, n);
                    int lq = lw + j + q * n;
                    T bq = QRU_BW_GET(lw + i + q * n, QRU_IDX(wb, i, q, n));
                    T r = qru_rot_r(aq, bq, sign);
                    T c = r / aq, s = bq / aq, w = QRU_BW_GET(lq, pq);
                    aq = r;
                    lj = (lj + sg * s * w) / c;
                    QRU_BW_SET(lq, pq, c * w - s * lj);
                }
                QRU_BW_SET(lj0, pj, lj);
            }
            QRU_BARRIER; /* rows > i final for column i + 1 */
            if (lid == i % nt) /* T(i, i) is read no more */
                QRU_BW_SET(lii, pii, a);
        }
        if (fail == 0) {
            long p1 = o1 + (long)b * s1;
            for (int i = lid; i < n; i += nt)
                for (int c = 0; c <= i; ++c) {
                    T v = QRU_BW_GET(i * (i + 1) / 2 + c,
                                     QRU_IDX(tb, i, c, n));
                    if (upper)
                        L1[QRU_IDX(p1, c, i, ld1)] = v;
                    else
                        L1[QRU_IDX(p1, i, c, ld1)] = v;
                }
        }
        if (lid == 0)
            info[oi + b] = (T)fail;
        QRU_BARRIER; /* red and the copy are set again for the next problem */
    }
}

#undef QRU_BW_GET
#undef QRU_BW_SET

#endif /* QRU_BATCH_CL */
