/*
 * Device kernels of the Cholesky ops (src/qru_internal.h, "Cholesky
 * kernels"): LAPACK lacpy, triangular scaling (syrk with k = 0), the fused
 * unblocked Cholesky of one diagonal block and the rank-k update/downdate
 * of a Cholesky factor by rotations.  Same conventions as
 * kernels/qru_base.cl.  The CPU versions (src/cpu/cpu_chol_kernels.inc) are
 * the reference.  'info' is ONE element of type T in device memory.
 * Barriers inside the one-work-group kernels below also order global memory
 * (QRU_BARRIER_GLOBAL): items read elements of A, L, W written by others.
 */
#ifndef QRU_CHOL_CL
#define QRU_CHOL_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif
#ifndef QRU_RED /* as in qru_base.cl */
#define QRU_RED 256
#endif

/* B = A on the part named by uplo (0: all, 1: upper trapezoid with the
 * diagonal, 2: lower trapezoid with the diagonal).  Any 2-D group shape. */
QRU_KERNEL void qru_lacpy(int uplo, int m, int n, QRU_GLOBAL const T *A,
                          long oa, int lda, QRU_GLOBAL T *B, long ob, int ldb)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            if ((uplo == 1 && i > j) || (uplo == 2 && i < j))
                continue;
            B[QRU_IDX(ob, i, j, ldb)] = A[QRU_IDX(oa, i, j, lda)];
        }
}

#ifndef QRU_CPLX_PROG /* real data only (as qru_update.cl's sweeps) */
/* syrk with n = 1 (the one new point of a GP append): C[oc] = alpha
 * sum_i a_i^2 + beta C[oc] for a_i = A[oa + i inc], 0 <= i < k; beta == 0:
 * C is not read.  ONE work-group of a power of two items (at most
 * QRU_RED): a dot product of k elements, where the vendor's 1 x 1 GEMM
 * took tens of microseconds. */
QRU_KERNEL void qru_syrk1(int k, T alpha, QRU_GLOBAL const T *A, long oa,
                          long inc, T beta, QRU_GLOBAL T *C, long oc)
{
    QRU_LOCAL_DECL(T, red, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    T s = (T)0;
    for (int i = lid; i < k; i += nt) {
        T a = A[oa + (long)i * inc];
        s += a * a;
    }
    red[lid] = s;
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h)
            red[lid] += red[lid + h];
        QRU_BARRIER;
    }
    if (lid == 0) {
        T r = alpha * red[0];
        C[oc] = beta == (T)0 ? r : r + beta * C[oc];
    }
}

#endif /* QRU_CPLX_PROG */

/* A = beta A on the part named by uplo (as qru_lacpy); exactly 0 where
 * beta == 0.  Any 2-D group shape. */
QRU_KERNEL void qru_scal_tri(int uplo, int m, int n, T beta, QRU_GLOBAL T *A,
                             long oa, int lda)
{
    for (int j = QRU_GID_Y; j < n; j += QRU_LSIZE_Y * QRU_NGROUPS_Y)
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            if ((uplo == 1 && i > j) || (uplo == 2 && i < j))
                continue;
            long p = QRU_IDX(oa, i, j, lda);
            A[p] = QRU_ISZERO(beta) ? (T)0 : QRU_MUL(beta, A[p]);
        }
}

/* Element (i, j) of the lower factor L, stored as L (upper == 0) or as
 * U = L' in the upper triangle (upper != 0). */
#define QRU_LIJ(oa, i, j, lda, upper)                                          \
    ((upper) ? QRU_IDX(oa, j, i, lda) : QRU_IDX(oa, i, j, lda))

/* Unblocked right-looking Cholesky of the n x n block in ONE work-group
 * (1-D, any size): for each column j, item 0 checks the pivot d = A(j,j)
 * (already reduced by the earlier columns); unless d > 0 and finite:
 * info = base + j + 1, columns j.. of L set to those of the identity (the
 * failure state of potrf_panel: later solves by this block see only
 * finite values there) and stop; else L(j,j) = sqrt(d), the column below
 * is scaled, and the trailing lower triangle of the block is updated in
 * parallel.  upper != 0 works on U = L' in the upper triangle.  Nothing is
 * done if info != 0 on entry; info is not written on success.  Complex:
 * the Hermitian factor (the pivot is the diagonal's real part, A(i, c) -=
 * L(i, j) conj(L(c, j)), which holds for the stored U = L' too). */
QRU_KERNEL void qru_potrf_panel(int upper, int n, QRU_GLOBAL T *A, long oa,
                                int lda, QRU_GLOBAL T *info, long oi,
                                int base)
{
    QRU_LOCAL_DECL(T, sh, 1);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    /* info is read once, by item 0, before anyone may write it */
    if (lid == 0)
        sh[0] = info[oi];
    QRU_BARRIER_GLOBAL;
    if (!QRU_ISZERO(sh[0]))
        return; /* uniform */
    QRU_BARRIER_GLOBAL;
    for (int j = 0; j < n; ++j) {
        if (lid == 0) {
            long pj = QRU_IDX(oa, j, j, lda);
            QRU_R d = QRU_RE(A[pj]);
            /* d - d == 0 exactly when d is finite */
            if (d > (QRU_R)0 && d - d == (QRU_R)0) {
                d = QRU_SQRT(d);
                A[pj] = QRU_MKR(d);
                sh[0] = QRU_MKR(d);
            } else {
                info[oi] = QRU_MKR(base + j + 1);
                sh[0] = (T)0;
            }
        }
        QRU_BARRIER_GLOBAL;
        QRU_R d = QRU_RE(sh[0]);
        if (!(d > (QRU_R)0)) { /* uniform */
            int w = n - j;
            for (long q = lid; q < (long)w * w; q += nt) {
                int i = j + (int)(q % w), c = j + (int)(q / w);
                if (i >= c)
                    A[QRU_LIJ(oa, i, c, lda, upper)] =
                        i == c ? QRU_MKR(1) : (T)0;
            }
            return;
        }
        QRU_R inv = (QRU_R)1 / d;
        for (int i = j + 1 + lid; i < n; i += nt)
            A[QRU_LIJ(oa, i, j, lda, upper)] *= inv;
        QRU_BARRIER_GLOBAL;
        /* A(i, c) -= L(i, j) L(c, j) for j < c <= i < n */
        int w = n - j - 1;
        for (long q = lid; q < (long)w * w; q += nt) {
            int i = j + 1 + (int)(q % w), c = j + 1 + (int)(q / w);
            if (i >= c)
                A[QRU_LIJ(oa, i, c, lda, upper)] -=
                    QRU_MUL(A[QRU_LIJ(oa, i, j, lda, upper)],
                            QRU_CONJ(A[QRU_LIJ(oa, c, j, lda, upper)]));
        }
        QRU_BARRIER_GLOBAL;
    }
}

/* Rank-k update (sign > 0) or downdate (sign < 0) of the n x n lower
 * factor L by the n x k W with rotations (the contract of chol_rot): for
 * i = 0..n-1, q = 0..k-1 in order, item 0 forms r, c = r / a, s = b / a
 * from a = L(i,i), b = W(i,q) (failure: info = base + i + 1, stop), then
 * all items update L(j,i), W(j,q) for j > i.  ONE work-group, 1-D, any
 * size.  Nothing is done if info != 0 on entry.  Complex (the CPU's
 * chol_rot): a the real part of L(i,i), r from |b| (c real, s = b / a
 * complex), L(j,i) := (L(j,i) +/- conj(s) W(j,q)) / c, W(j,q) :=
 * c W(j,q) - s L(j,i), and L(i,i) = r real. */
QRU_KERNEL void qru_chol_rot(int n, int k, int sign, QRU_GLOBAL T *L, long ol,
                             int ldl, QRU_GLOBAL T *W, long ow, int ldw,
                             QRU_GLOBAL T *info, long oi, int base)
{
    QRU_LOCAL_DECL(T, sh, 3);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    /* info is read once, by item 0, before anyone may write it */
    if (lid == 0)
        sh[2] = info[oi];
    QRU_BARRIER_GLOBAL;
    if (!QRU_ISZERO(sh[2]))
        return; /* uniform */
    QRU_BARRIER_GLOBAL;
    for (int i = 0; i < n; ++i)
        for (int q = 0; q < k; ++q) {
            if (lid == 0) {
                long pa = QRU_IDX(ol, i, i, ldl);
                T b = W[QRU_IDX(ow, i, q, ldw)];
                QRU_R a = QRU_RE(L[pa]);
                /* kernels/qru_batch.cl; |b| of a complex b */
                QRU_R r = qru_rot_r(a, QRU_CPLX ? QRU_ABS(b) : QRU_RE(b),
                                    sign);
                if (r == (QRU_R)0) {
                    info[oi] = QRU_MKR(base + i + 1);
                    sh[2] = QRU_MKR(1);
                } else {
                    sh[0] = QRU_MKR(r / a);
                    sh[1] = b / a;
                    sh[2] = (T)0;
                    L[pa] = QRU_MKR(r);
                }
            }
            QRU_BARRIER_GLOBAL;
            if (!QRU_ISZERO(sh[2]))
                return; /* uniform */
            QRU_R c = QRU_RE(sh[0]);
            T s = sh[1];
            T sg = sign > 0 ? QRU_CONJ(s) : -QRU_CONJ(s);
            for (int j = i + 1 + lid; j < n; j += nt) {
                long pl = QRU_IDX(ol, j, i, ldl), pw = QRU_IDX(ow, j, q, ldw);
                T lj = (L[pl] + QRU_MUL(sg, W[pw])) / c;
                L[pl] = lj;
                W[pw] = c * W[pw] - QRU_MUL(s, lj);
            }
            QRU_BARRIER_GLOBAL;
        }
}

#ifndef QRU_CPLX_PROG /* the Cholesky kernels below: real data only */

/* ---- the structured rank-k update (the contract of chol_r1_prep and
 * chol_r1_apply, src/qru_ops.h) ----
 * work (offset ow; qru_chol_r1_work, src/qru_internal.h): delta (n), g
 * (n x k, ld n; k = 1: gamma), then per tile column tj and vector entry m
 * the n row sums D(tj, i, m) of L(i, j) P(j, m) over the tile's columns
 * j <= i, then per tile column the n row sums S(tj, i) of L(i, j)^2;
 * qru_chol_r1_rows turns D into the sums over the tiles right of tj
 * (exclusive suffix sums along the row).  k > 1 adds per tile column the
 * k x k sum Sg(tj) of its p_c p_c', the matrix Mt(tj) = M_j of its first
 * column j = tj QRU_R1T, and n failure flags. */
#define QRU_R1T 32 /* QRU_CHOL_R1_TILE */
#define QRU_R1LD (QRU_R1T + 1)
#define QRU_RKMAX 32 /* the largest k */
#define QRU_RKC 8    /* vector entries a chunk of qru_chol_r1_apply */
#define QRU_RKB ((QRU_R1T + 1) * (QRU_R1T + 1)) /* QRU_CHOL_RK_LOCAL */

/* Tile (i0, j0) of L into sh (element (r, c) = L(i0 + r, j0 + c) at
 * sh[r QRU_R1LD + c], zero outside the triangle), loaded along L's
 * columns (lower) or U's (upper); 2-D work-group QRU_R1T x any. */
QRU_DEVICE void qru_r1_load(int upper, int n, int i0, int j0,
                            QRU_GLOBAL const T *L, long ol, int ldl,
                            QRU_LOCAL T *sh, int x, int y, int ny)
{
    for (int s = y; s < QRU_R1T; s += ny) {
        int r = upper ? s : x, c = upper ? x : s;
        int i = i0 + r, j = j0 + c;
        T v = (T)0;
        if (i < n && j <= i)
            v = upper ? L[QRU_IDX(ol, j, i, ldl)] : L[QRU_IDX(ol, i, j, ldl)];
        sh[r * QRU_R1LD + c] = v;
    }
}

/* Rank 1 (k = 1) has tile kernels of its own: the general ones, with
 * their local memory for k vectors, took 3x the tile sums' time and 1.2x
 * the apply's at n = 4096 on an H200. */
/* Row sums of tile (group x, group y) = (ti, tj), tj <= ti: D and S.
 * Work-group QRU_R1T x 8, grid of nt x nt groups. */
QRU_KERNEL void qru_chol_r1_part(int upper, int n, QRU_GLOBAL const T *L,
                                 long ol, int ldl, QRU_GLOBAL const T *p,
                                 long op, QRU_GLOBAL T *work, long ow)
{
    QRU_LOCAL_DECL(T, sh, QRU_R1T * QRU_R1LD);
    QRU_LOCAL_DECL(T, pv, QRU_R1T);
    QRU_LOCAL_DECL(T, red, 2 * QRU_R1T * 8);
    int ti = QRU_GROUP_X, tj = QRU_GROUP_Y;
    if (tj > ti)
        return; /* the whole group */
    int x = QRU_LID_X, y = QRU_LID_Y, ny = QRU_LSIZE_Y;
    int i0 = ti * QRU_R1T, j0 = tj * QRU_R1T;
    if (y == 0)
        pv[x] = j0 + x < n ? p[op + j0 + x] : (T)0;
    qru_r1_load(upper, n, i0, j0, L, ol, ldl, sh, x, y, ny);
    QRU_BARRIER;
    T d = (T)0, q = (T)0;
    for (int c = y; c < QRU_R1T; c += ny) {
        T v = sh[x * QRU_R1LD + c];
        d += v * pv[c];
        q += v * v;
    }
    red[y * QRU_R1T + x] = d;
    red[(8 + y) * QRU_R1T + x] = q;
    QRU_BARRIER;
    if (y == 0 && i0 + x < n) {
        for (int t = 1; t < ny; ++t) {
            d += red[t * QRU_R1T + x];
            q += red[(8 + t) * QRU_R1T + x];
        }
        long nt = (n + QRU_R1T - 1) / QRU_R1T, e = (long)tj * n + i0 + x;
        work[ow + 2 * (long)n + e] = d;
        work[ow + 2 * (long)n + nt * n + e] = q;
    }
}

/* k > 1: row sums of tile (group x, group y) = (ti, tj), tj <= ti: D (k
 * values a row) and S; the diagonal tile's groups also sum Sg(tj).
 * Work-group QRU_R1T x 8, grid of nt x nt groups. */
QRU_KERNEL void qru_chol_rk_part(int upper, int n, int k,
                                 QRU_GLOBAL const T *L, long ol, int ldl,
                                 QRU_GLOBAL const T *p, long op, int ldp,
                                 QRU_GLOBAL T *work, long ow)
{
    QRU_LOCAL_DECL(T, sh, QRU_R1T * QRU_R1LD);
    QRU_LOCAL_DECL(T, pv, QRU_R1T * QRU_RKMAX);
    QRU_LOCAL_DECL(T, red, QRU_R1T * 8);
    int ti = QRU_GROUP_X, tj = QRU_GROUP_Y;
    if (tj > ti)
        return; /* the whole group */
    int x = QRU_LID_X, y = QRU_LID_Y, ny = QRU_LSIZE_Y;
    int i0 = ti * QRU_R1T, j0 = tj * QRU_R1T;
    for (int m = y; m < k; m += ny) /* pv[m QRU_R1T + c] = P(j0 + c, m) */
        pv[m * QRU_R1T + x] =
            j0 + x < n ? p[op + j0 + x + (long)m * ldp] : (T)0;
    qru_r1_load(upper, n, i0, j0, L, ol, ldl, sh, x, y, ny);
    QRU_BARRIER;
    T q = (T)0;
    for (int c = y; c < QRU_R1T; c += ny) {
        T v = sh[x * QRU_R1LD + c];
        q += v * v;
    }
    red[y * QRU_R1T + x] = q;
    QRU_BARRIER;
    long nt = (n + QRU_R1T - 1) / QRU_R1T, D = ow + (long)n * (1 + k);
    long S = D + nt * n * k;
    if (y == 0 && i0 + x < n) {
        for (int t = 1; t < ny; ++t)
            q += red[t * QRU_R1T + x];
        work[S + (long)tj * n + i0 + x] = q;
    }
    for (int m = y; i0 + x < n && m < k; m += ny) {
        T s = (T)0;
        for (int c = 0; c < QRU_R1T; ++c)
            s += sh[x * QRU_R1LD + c] * pv[m * QRU_R1T + c];
        work[D + ((long)tj * k + m) * n + i0 + x] = s;
    }
    if (ti != tj)
        return;
    long Sg = S + nt * n + (long)tj * k * k;
    for (int e = y * QRU_R1T + x; e < k * k; e += QRU_R1T * ny) {
        int a = e % k, b = e / k;
        T s = (T)0;
        for (int c = 0; c < QRU_R1T; ++c)
            s += pv[a * QRU_R1T + c] * pv[b * QRU_R1T + c];
        work[Sg + e] = s;
    }
}

/* Per row i and vector entry m: D(., i, m) := its exclusive suffix sums
 * over the tiles, adiag[i] = sum_tj S(tj, i) + sign ||W(i, 0:kw)||^2;
 * for k > 1 also Mt(ti) = I + sign sum_{t < ti} Sg(t).  Work-group
 * QRU_R1T x ny (ny <= 8), one group a tile row ti (grid nt x 1): item
 * (x, y) takes row ti QRU_R1T + x and the y-th of ny runs of its ti + 1
 * tiles (reads along the rows: coalesced), the runs' sums meet in local
 * memory, and each item then writes its run's suffix sums. */
QRU_KERNEL void qru_chol_r1_rows(int n, int k, int sign, int kw,
                                 QRU_GLOBAL const T *W, long owk, int ldw,
                                 QRU_GLOBAL T *work, long ow,
                                 QRU_GLOBAL T *adiag, long oa)
{
    QRU_LOCAL_DECL(T, cs, 2 * 8 * QRU_R1T);
    int x = QRU_LID_X, y = QRU_LID_Y, ny = QRU_LSIZE_Y;
    int ti = QRU_GROUP_X, i = ti * QRU_R1T + x;
    long nt = (n + QRU_R1T - 1) / QRU_R1T;
    long D = ow + (long)n * (1 + k), S = D + nt * n * k;
    int len = (ti + ny) / ny; /* ceil((ti + 1) / ny) */
    int t0 = y * len, t1 = t0 + len < ti + 1 ? t0 + len : ti + 1;
    for (int m = 0; m < k; ++m) {
        T d = (T)0, q = (T)0;
        for (int tj = t0; i < n && tj < t1; ++tj) {
            d += work[D + ((long)tj * k + m) * n + i];
            if (m == 0)
                q += work[S + (long)tj * n + i];
        }
        cs[y * QRU_R1T + x] = d;
        if (m == 0)
            cs[(8 + y) * QRU_R1T + x] = q;
        QRU_BARRIER;
        if (i < n) {
            T run = (T)0;
            for (int u = y + 1; u < ny; ++u)
                run += cs[u * QRU_R1T + x];
            for (int tj = t1 - 1; tj >= t0; --tj) {
                long e = D + ((long)tj * k + m) * n + i;
                T v = work[e];
                work[e] = run;
                run += v;
            }
        }
        if (m == 0 && y == 0 && i < n) {
            T sq = (T)0, wq = (T)0;
            for (int u = 0; u < ny; ++u)
                sq += cs[(8 + u) * QRU_R1T + x];
            for (int c = 0; c < kw; ++c) {
                T w = W[QRU_IDX(owk, i, c, ldw)];
                wq += w * w;
            }
            adiag[oa + i] = sign > 0 ? sq + wq : sq - wq;
        }
        if (k == 1)
            return; /* no barrier follows */
        QRU_BARRIER; /* cs is free */
    }
    long Sg = S + nt * n, Mt = Sg + nt * k * k;
    for (int e = y * QRU_R1T + x; e < k * k; e += QRU_R1T * ny) {
        T s = (T)0;
        for (int t = 0; t < ti; ++t)
            s += work[Sg + (long)t * k * k + e];
        work[Mt + (long)ti * k * k + e] =
            (e % k == e / k ? (T)1 : (T)0) + (sign > 0 ? s : -s);
    }
}

/* k = 1: delta, gamma, the new pivots into head and the failure into
 * info: ONE work-group, 1-D, a power of two items up to QRU_RED.  The
 * columns go in chunks of QRU_R1C: the chunk's p and diag(L) come into
 * local memory together (one round trip to memory a chunk, not one a
 * column), item l takes the l-th segment of the chunk: its sum of sign
 * p_j^2, a scan of the segment sums (the chunks before carried in t),
 * then t_j along its segment.  Nothing if info != 0. */
#define QRU_R1C 1024
QRU_KERNEL void qru_chol_r1_coef(int upper, int n, int sign,
                                 QRU_GLOBAL const T *L, long ol, int ldl,
                                 QRU_GLOBAL const T *p, long op,
                                 QRU_GLOBAL T *work, long ow,
                                 QRU_GLOBAL T *head, long oh,
                                 QRU_GLOBAL T *info, long oi, int base)
{
    QRU_LOCAL_DECL(T, sp, QRU_R1C);
    QRU_LOCAL_DECL(T, sd, QRU_R1C);
    QRU_LOCAL_DECL(T, sc, QRU_RED);
    QRU_LOCAL_DECL(int, fj, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    if (lid == 0)
        fj[0] = info[oi] != (T)0;
    QRU_BARRIER_GLOBAL;
    if (fj[0])
        return; /* uniform */
    QRU_BARRIER;
    T carry = (T)1; /* t before the chunk */
    int bad = n;
    for (int c0 = 0; c0 < n; c0 += QRU_R1C) {
        int cn = n - c0 < QRU_R1C ? n - c0 : QRU_R1C;
        for (int e = lid; e < cn; e += nt) {
            sp[e] = p[op + c0 + e];
            sd[e] = L[QRU_IDX(ol, c0 + e, c0 + e, ldl)];
        }
        QRU_BARRIER;
        int seg = (cn + nt - 1) / nt, j0 = lid * seg;
        int j1 = j0 + seg < cn ? j0 + seg : cn;
        T s = (T)0;
        for (int j = j0; j < j1; ++j)
            s += sp[j] * sp[j];
        sc[lid] = sign > 0 ? s : -s;
        QRU_BARRIER;
        for (int h = 1; h < nt; h <<= 1) { /* inclusive scan */
            T a = lid >= h ? sc[lid - h] : (T)0;
            QRU_BARRIER;
            sc[lid] += a;
            QRU_BARRIER;
        }
        T t = carry + (lid > 0 ? sc[lid - 1] : (T)0);
        for (int j = j0; bad == n && j < j1; ++j) {
            T pj = sp[j], tp = t;
            t = sign > 0 ? tp + pj * pj : tp - pj * pj;
            T ljj = sd[j];
            /* t - t == 0 exactly when t is finite; a zero pivot of L
             * fails whatever the solve made of it */
            if (!(t > (T)0) || !(t - t == (T)0) || ljj == (T)0) {
                bad = c0 + j;
                break;
            }
            T st = QRU_SQRT(t), sq = QRU_SQRT(tp);
            T dl = st / sq, gm = (sign > 0 ? pj : -pj) / (st * sq);
            work[ow + c0 + j] = dl;
            work[ow + n + c0 + j] = gm;
            head[oh + c0 + j] = dl * ljj;
        }
        carry += sc[nt - 1];
        QRU_BARRIER; /* sp, sd and sc are free */
    }
    fj[lid] = bad;
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h && fj[lid + h] < fj[lid])
            fj[lid] = fj[lid + h];
        QRU_BARRIER;
    }
    if (lid == 0 && fj[0] < n)
        info[oi] = (T)(base + fj[0] + 1);
    (void)upper;
}

/* k > 1: delta, g, the new pivots into head and per column j the flag
 * F[j] (j if the column fails, else n), each column on its own: the
 * bordered (k+1) x (k+1) matrix B = [M_j p_j; p_j' -sign] (M_j = Mt of
 * the column's tile plus sign p_c p_c' of the tile's columns before j),
 * its LDL' elimination over the first k pivots (the last row becomes
 * y = L_M^{-1} p_j, scaled by the pivots, and the last pivot -sign
 * delta_j^2), then v_j = L_M^{-T} D^{-1} y, a step a column of L_M'.
 * Work-group 1-D, any number of items, one group ncol
 * (qru_chol_rk_cols(k), dividing QRU_R1T) consecutive columns; nothing
 * if info != 0. */
QRU_KERNEL void qru_chol_rk_coef(int n, int k, int ncol, int sign,
                                 QRU_GLOBAL const T *L, long ol, int ldl,
                                 QRU_GLOBAL const T *p, long op, int ldp,
                                 QRU_GLOBAL T *work, long ow,
                                 QRU_GLOBAL T *head, long oh,
                                 QRU_GLOBAL const T *info, long oi)
{
    QRU_LOCAL_DECL(T, B, QRU_RKB);
    QRU_LOCAL_DECL(T, pl, QRU_R1T * QRU_RKMAX);
    QRU_LOCAL_DECL(T, rv, QRU_R1T * 8);
    QRU_LOCAL_DECL(int, fl, 1);
    int lid = QRU_LID_X, nl = QRU_LSIZE_X;
    int jg = QRU_GROUP_X * ncol, tile = jg / QRU_R1T, j0 = tile * QRU_R1T;
    int kb = k + 1, kk = kb * kb, cn = (jg + ncol < n ? jg + ncol : n) - j0;
    T sg = sign > 0 ? (T)1 : (T)-1;
    long nt = (n + QRU_R1T - 1) / QRU_R1T;
    long Mt = ow + (long)n * (1 + k) + nt * n * (k + 1) + nt * k * k;
    long F = Mt + nt * k * k;
    if (lid == 0)
        fl[0] = info[oi] != (T)0;
    QRU_BARRIER;
    if (fl[0])
        return; /* uniform */
    for (int e = lid; e < cn * k; e += nl) { /* the tile's rows of P */
        int c = e % cn, m = e / cn;
        pl[m * QRU_R1T + c] = p[op + j0 + c + (long)m * ldp];
    }
    QRU_BARRIER;
    for (int e = lid; e < ncol * kk; e += nl) {
        int u = e / kk, a = e % kk % kb, b = e % kk / kb, j = jg + u;
        if (a < b || j >= n)
            continue;
        T v;
        if (a == k) {
            v = b == k ? -sg : pl[b * QRU_R1T + j - j0];
        } else {
            T s = (T)0;
            for (int c = 0; c < j - j0; ++c)
                s += pl[a * QRU_R1T + c] * pl[b * QRU_R1T + c];
            v = work[Mt + (long)tile * k * k + a + b * k] + sg * s;
        }
        B[e] = v;
    }
    QRU_BARRIER;
    for (int m = 0; m < k; ++m) {
        for (int e = lid; e < ncol * kk; e += nl) {
            int u = e / kk, a = e % kk % kb, b = e % kk / kb;
            if (b <= m || a < b || jg + u >= n)
                continue;
            QRU_LOCAL T *Bu = B + u * kk;
            Bu[a + b * kb] -= Bu[a + m * kb] * (Bu[b + m * kb] / Bu[m + m * kb]);
        }
        QRU_BARRIER;
    }
    for (int e = lid; e < ncol * k; e += nl) {
        int u = e / k, a = e % k;
        if (jg + u < n)
            rv[e] = B[u * kk + k + a * kb];
    }
    QRU_BARRIER;
    for (int a = k - 1; a > 0; --a) {
        for (int e = lid; e < ncol * a; e += nl) {
            int u = e / a, c = e % a;
            if (jg + u >= n)
                continue;
            QRU_LOCAL T *Bu = B + u * kk;
            rv[u * k + c] -= Bu[a + c * kb] * (rv[u * k + a] / Bu[a + a * kb]);
        }
        QRU_BARRIER;
    }
    for (int e = lid; e < ncol * k; e += nl) {
        int u = e / k, a = e % k, j = jg + u;
        if (j >= n)
            continue;
        QRU_LOCAL T *Bu = B + u * kk;
        T d2 = -sg * Bu[k + k * kb], d = QRU_SQRT(d2);
        work[ow + n + (long)a * n + j] = sg * (rv[e] / Bu[a + a * kb]) / d;
        if (a != 0)
            continue;
        /* x - x == 0 exactly when x is finite */
        int bad = !(d2 > (T)0) || !(d2 - d2 == (T)0);
        for (int m = 0; m < k; ++m) {
            T pv = Bu[m + m * kb];
            bad |= !(pv > (T)0) || !(pv - pv == (T)0);
        }
        T ljj = L[QRU_IDX(ol, j, j, ldl)];
        bad |= ljj == (T)0;
        work[ow + j] = d;
        head[oh + j] = d * ljj;
        work[F + j] = bad ? (T)j : (T)n;
    }
}

/* k > 1: info from qru_chol_rk_coef's flags (the first failing column):
 * ONE work-group, 1-D, a power of two items up to QRU_RED; nothing if
 * info != 0. */
QRU_KERNEL void qru_chol_rk_info(int n, int k, QRU_GLOBAL const T *work,
                                 long ow, QRU_GLOBAL T *info, long oi,
                                 int base)
{
    QRU_LOCAL_DECL(T, fm, QRU_RED);
    int lid = QRU_LID_X, nl = QRU_LSIZE_X;
    if (info[oi] != (T)0)
        return; /* uniform: written only after the barriers below */
    long nt = (n + QRU_R1T - 1) / QRU_R1T;
    long F = ow + (long)n * (1 + k) + nt * n * (k + 1) + 2 * nt * k * k;
    T mn = (T)n;
    for (int j = lid; j < n; j += nl) {
        T f = work[F + j];
        mn = f < mn ? f : mn;
    }
    fm[lid] = mn;
    QRU_BARRIER;
    for (int h = nl / 2; h > 0; h >>= 1) {
        if (lid < h && fm[lid + h] < fm[lid])
            fm[lid] = fm[lid + h];
        QRU_BARRIER;
    }
    if (lid == 0 && fm[0] < (T)n)
        info[oi] = (T)base + fm[0] + (T)1;
}

/* L1 from tile (ti, tj) of L: work-group QRU_R1T x 8, grid nt x nt. */
QRU_KERNEL void qru_chol_r1_apply(int upper, int n, QRU_GLOBAL const T *L,
                                  long ol, int ldl, QRU_GLOBAL T *L1, long o1,
                                  int ld1, QRU_GLOBAL const T *p, long op,
                                  QRU_GLOBAL const T *work, long ow)
{
    QRU_LOCAL_DECL(T, sh, QRU_R1T * QRU_R1LD);
    QRU_LOCAL_DECL(T, cf, 3 * QRU_R1T);
    int ti = QRU_GROUP_X, tj = QRU_GROUP_Y;
    if (tj > ti)
        return; /* the whole group */
    int x = QRU_LID_X, y = QRU_LID_Y, ny = QRU_LSIZE_Y;
    int i0 = ti * QRU_R1T, j0 = tj * QRU_R1T;
    if (y == 0 && j0 + x < n) {
        cf[x] = p[op + j0 + x];
        cf[QRU_R1T + x] = work[ow + j0 + x];
        cf[2 * QRU_R1T + x] = work[ow + n + j0 + x];
    }
    qru_r1_load(upper, n, i0, j0, L, ol, ldl, sh, x, y, ny);
    QRU_BARRIER;
    int i = i0 + x;
    if (y == 0 && i < n) {
        T run = work[ow + 2 * (long)n + (long)tj * n + i];
        int c1 = i - j0 < QRU_R1T - 1 ? i - j0 : QRU_R1T - 1;
        for (int c = c1; c >= 0; --c) {
            T v = sh[x * QRU_R1LD + c];
            sh[x * QRU_R1LD + c] = cf[QRU_R1T + c] * v + cf[2 * QRU_R1T + c] * run;
            run += v * cf[c];
        }
    }
    QRU_BARRIER;
    for (int s = y; s < QRU_R1T; s += ny) {
        int r = upper ? s : x, c = upper ? x : s;
        int ii = i0 + r, j = j0 + c;
        if (ii < n && j <= ii) {
            T v = sh[r * QRU_R1LD + c];
            if (upper)
                L1[QRU_IDX(o1, j, ii, ld1)] = v;
            else
                L1[QRU_IDX(o1, ii, j, ld1)] = v;
        }
    }
}

/* k > 1: L1 from tile (ti, tj) of L: work-group QRU_R1T x 8, grid nt x
 * nt.  With Q(c', c) = p_{c'}' g_c for the tile's columns and E(r, c) =
 * D(tj, r, :) g_c (the tiles right of it), both summed over the vector
 * entries in chunks of QRU_RKC, every element on its own:
 *   L1(r, c) = delta_c L(r, c) + E(r, c) + sum_{c < c' <= r} L(r, c') Q(c', c),
 * stored by the item that loaded it (coalesced for either uplo). */
QRU_KERNEL void qru_chol_rk_apply(int upper, int n, int k,
                                  QRU_GLOBAL const T *L, long ol, int ldl,
                                  QRU_GLOBAL T *L1, long o1, int ld1,
                                  QRU_GLOBAL const T *p, long op, int ldp,
                                  QRU_GLOBAL const T *work, long ow)
{
    QRU_LOCAL_DECL(T, lm, 3 * QRU_R1T * QRU_R1LD);
    int ti = QRU_GROUP_X, tj = QRU_GROUP_Y;
    if (tj > ti)
        return; /* the whole group */
    int x = QRU_LID_X, y = QRU_LID_Y, ny = QRU_LSIZE_Y;
    int i0 = ti * QRU_R1T, j0 = tj * QRU_R1T;
    long D = ow + (long)n * (1 + k);
    QRU_LOCAL T *Q = lm, *E = lm + QRU_R1T * QRU_R1LD;
    QRU_LOCAL T *sh = lm + 2 * QRU_R1T * QRU_R1LD; /* the chunks, then L */
    QRU_LOCAL T *pc = sh, *gc = sh + QRU_R1T * QRU_RKC;
    QRU_LOCAL T *dc = sh + 2 * QRU_R1T * QRU_RKC;
    for (int s = y; s < QRU_R1T; s += ny) {
        Q[x * QRU_R1LD + s] = (T)0;
        E[x * QRU_R1LD + s] = (T)0;
    }
    for (int m0 = 0; m0 < k; m0 += QRU_RKC) {
        int kc = k - m0 < QRU_RKC ? k - m0 : QRU_RKC;
        for (int mm = y; mm < kc; mm += ny) {
            long m = m0 + mm;
            int jx = j0 + x, ix = i0 + x;
            pc[mm * QRU_R1T + x] = jx < n ? p[op + jx + m * ldp] : (T)0;
            gc[mm * QRU_R1T + x] = jx < n ? work[ow + n + m * n + jx] : (T)0;
            dc[mm * QRU_R1T + x] =
                ix < n ? work[D + ((long)tj * k + m) * n + ix] : (T)0;
        }
        QRU_BARRIER;
        for (int s = y; s < QRU_R1T; s += ny) {
            T q = (T)0, e = (T)0;
            for (int mm = 0; mm < kc; ++mm) {
                T g = gc[mm * QRU_R1T + s];
                q += pc[mm * QRU_R1T + x] * g;
                e += dc[mm * QRU_R1T + x] * g;
            }
            Q[x * QRU_R1LD + s] += q;
            E[x * QRU_R1LD + s] += e;
        }
        QRU_BARRIER; /* the chunks are free */
    }
    qru_r1_load(upper, n, i0, j0, L, ol, ldl, sh, x, y, ny);
    QRU_BARRIER;
    for (int s = y; s < QRU_R1T; s += ny) {
        int r = upper ? s : x, c = upper ? x : s;
        int ii = i0 + r, j = j0 + c;
        if (ii >= n || j > ii)
            continue;
        T v = work[ow + j] * sh[r * QRU_R1LD + c] + E[r * QRU_R1LD + c];
        for (int cc = c + 1; cc < QRU_R1T; ++cc)
            v += sh[r * QRU_R1LD + cc] * Q[cc * QRU_R1LD + c];
        if (upper)
            L1[QRU_IDX(o1, j, ii, ld1)] = v;
        else
            L1[QRU_IDX(o1, ii, j, ld1)] = v;
    }
}

/* chol_r1_rhs: ONE work-group (1-D, a power of two items up to
 * QRU_RED) a column j (group x); item l takes the l-th segment of the
 * rows: its sums of sign p_i^2, p_i x_i and p_i X(i,j), a scan of the
 * first two over the items, then y along its segment. */
QRU_KERNEL void qru_chol_r1_rhs(int n, int sign, QRU_GLOBAL const T *p,
                                long op, QRU_GLOBAL const T *work, long ow,
                                QRU_GLOBAL const T *X, long ox, int ldx,
                                QRU_GLOBAL T *Y, long oy, int ldy,
                                QRU_GLOBAL const T *e, long oe, int ince,
                                QRU_GLOBAL T *du, long od)
{
    QRU_LOCAL_DECL(T, sa, QRU_RED);
    QRU_LOCAL_DECL(T, sb, QRU_RED);
    QRU_LOCAL_DECL(T, sc, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, j = QRU_GROUP_X;
    T sg = sign > 0 ? (T)1 : (T)-1;
    T ej = e[oe + (long)j * ince];
    long cx = ox + (long)j * ldx, cy = oy + (long)j * ldy;
    int seg = (n + nt - 1) / nt, i0 = lid * seg;
    int i1 = i0 + seg < n ? i0 + seg : n;
    T a = (T)0, b = (T)0, c = (T)0;
    for (int i = i0; i < i1; ++i) {
        T pi = p[op + i], xd = X[cx + i];
        a += pi * pi;
        b += pi * (xd + sg * ej * pi);
        c += pi * xd;
    }
    sa[lid] = sg * a;
    sb[lid] = b;
    sc[lid] = c;
    QRU_BARRIER;
    for (int h = 1; h < nt; h <<= 1) { /* inclusive scans */
        T va = lid >= h ? sa[lid - h] : (T)0;
        T vb = lid >= h ? sb[lid - h] : (T)0;
        QRU_BARRIER;
        sa[lid] += va;
        sb[lid] += vb;
        QRU_BARRIER;
    }
    T t = (T)1 + (lid > 0 ? sa[lid - 1] : (T)0);
    T s = lid > 0 ? sb[lid - 1] : (T)0, tn = (T)1 + sa[nt - 1];
    for (int i = i0; i < i1; ++i) {
        T pi = p[op + i], x = X[cx + i] + sg * ej * pi;
        Y[cy + i] = (x - sg * pi * s / t) / work[ow + i];
        s += pi * x;
        t += sg * pi * pi;
    }
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h)
            sc[lid] += sc[lid + h];
        QRU_BARRIER;
    }
    if (lid == 0)
        du[od + j] = (ej - sc[0]) / QRU_SQRT(tn);
}

#endif /* QRU_CPLX_PROG */

#endif /* QRU_CHOL_CL */
