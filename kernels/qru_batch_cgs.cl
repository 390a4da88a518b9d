/*
 * The Gram-Schmidt steps of the thin-form batched kernels: the removal of
 * rows (kernels/qru_batch_q.cl) and the insertion of columns
 * (kernels/qru_batch_cols.cl) complete a block Z (n x p) against a
 * problem's Q1 (n x m) and orthonormalise it.  ONE work-group a problem,
 * a power of two items, at most QRU_BQ_WG; item t owns the rows i = t,
 * t + items, ... of Q1 and Z, or (for the products Q1' Z) a column of Q1
 * over a slice of its rows.  Z lies wherever its kernel keeps it (its
 * own pointer, offset and leading dimension); the coefficients and the
 * partial sums lie in the kernel's work.  This file comes before both
 * users in the OpenCL program (the sources are joined in name order) and
 * is included by their CUDA files.  A complex T: ' the conjugate
 * transpose (Q1' Z, Qz' E and the products of Gram-Schmidt conjugate
 * their left factor), the norms of moduli.
 */
#ifndef QRU_BATCH_CGS_CL
#define QRU_BATCH_CGS_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif
/* The largest work-group (QRU_BQ_WG of src/qru_internal.h) and the columns
 * of Z carried through one pass over a row of Q1. */
#ifndef QRU_BQ_WG
#define QRU_BQ_WG 256
#endif
#ifndef QRU_BQ_PB /* as in src/qru_internal.h */
#define QRU_BQ_PB 8
#endif

/* for (int i = lid; i < n; i += items): the rows (columns) i of this
 * item.  In OpenCL's complex program every item makes the same trips
 * (i0 = 0, items, ...) and checks i = i0 + lid in the body: PoCL ran the
 * plain loop's body once in items whose first i was past the end (Z of
 * qru_bq_zpass not updated for the next product), as in
 * kernels/qru_batch_cols.cl; elsewhere the plain loop. */
#ifdef QRU_CPLX_PROG
#define QRU_BQ_OWN(i, n)                                                       \
    for (int i##_0 = 0, i = QRU_LID_X; i##_0 < (n);                            \
         i##_0 += QRU_LSIZE_X, i += QRU_LSIZE_X)                               \
        if (i < (n))
#else
#define QRU_BQ_OWN(i, n) for (int i = QRU_LID_X; i < (n); i += QRU_LSIZE_X)
#endif

/* The sum of v over the work-group, in every item: the teams' sums
 * (QRU_TEAM_SUM), then each item adds the nt / QRU_TEAM of them in the
 * same order (the same sum everywhere); red: nt local elements.  Two
 * barriers and no loop around them (few sums run, and a flat body keeps
 * PoCL's barrier regions few): call it uniformly. */
QRU_DEVICE T qru_bq_sum(T v, QRU_LOCAL T *red)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    T tv = QRU_TEAM_SUM(v);
    if (lid % QRU_TEAM == 0)
        red[lid / QRU_TEAM] = tv;
    QRU_BARRIER;
    T r = (T)0;
    for (int t = 0; t < nt / QRU_TEAM; ++t)
        r += red[t];
    QRU_BARRIER;
    return r;
}

/* The rows i = lid, lid + nt, ... of Z (n x p at Z[oz], ld ldz):
 * Z(i,a) := B(i,a) - sum_j Q1(i,j) C(a,j), C(a,j) at work[oc + a sa +
 * j sj], B the unit vectors of the rows k + a (set; then C(a,j)
 * conjugated: Z = E_K - Q1 Qk', Qk at work[oc]) or Z itself; one pass
 * over the row of Q1 per QRU_BQ_PB columns of Z. */
QRU_DEVICE void qru_bq_zpass(QRU_GLOBAL const T *Q, long qb, int ldq, int n,
                             int m, int k, int p, QRU_GLOBAL T *Z, long oz,
                             long ldz, QRU_GLOBAL const T *work, long oc,
                             long sa, long sj, int set)
{
    QRU_BQ_OWN(i, n)
        for (int a0 = 0; a0 < p; a0 += QRU_BQ_PB) {
            int pb = p - a0 < QRU_BQ_PB ? p - a0 : QRU_BQ_PB;
            T acc[QRU_BQ_PB];
            for (int u = 0; u < QRU_BQ_PB; ++u)
                acc[u] = (T)0;
#pragma unroll 2
            for (int j = 0; j < m; ++j) { /* two loads in flight */
                T qv = Q[QRU_IDX(qb, i, j, ldq)];
#pragma unroll
                for (int u = 0; u < QRU_BQ_PB; ++u)
                    if (u < pb) {
                        T cv = work[oc + (a0 + u) * sa + j * sj];
                        acc[u] += QRU_MUL(qv, set ? QRU_CONJ(cv) : cv);
                    }
            }
            for (int u = 0; u < QRU_BQ_PB; ++u)
                if (u < pb) {
                    long z = oz + i + (long)(a0 + u) * ldz;
                    T base = set ? (i == k + a0 + u ? QRU_MKR(1) : (T)0)
                                 : Z[z];
                    Z[z] = base - acc[u];
                }
        }
}

/* C = Q1' Z (m x p at work[ocm], ld m), from the rows Z wrote before (a
 * barrier first): the G = max(nt / m, 1) slices of the rows, item v the
 * column v % m of slice v / m, its partial sums at work[ocp + (g m + j) p
 * + a] ((m + QRU_BQ_WG) p elements), added in slice order after a
 * barrier; a barrier last, so that every item reads C. */
QRU_DEVICE void qru_bq_qtz(QRU_GLOBAL const T *Q, long qb, int ldq, int n,
                           int m, int p, QRU_GLOBAL const T *Z, long oz,
                           long ldz, QRU_GLOBAL T *work, long ocp, long ocm)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int G = nt >= m ? nt / m : 1;
    QRU_BARRIER_GLOBAL;
    for (int v = lid; v < G * m; v += nt) {
        int j = v % m, g = v / m;
        int i0 = (int)((long)n * g / G), i1 = (int)((long)n * (g + 1) / G);
        for (int a0 = 0; a0 < p; a0 += QRU_BQ_PB) {
            int pb = p - a0 < QRU_BQ_PB ? p - a0 : QRU_BQ_PB;
            T acc[QRU_BQ_PB];
            for (int u = 0; u < QRU_BQ_PB; ++u)
                acc[u] = (T)0;
#pragma unroll 2
            for (int i = i0; i < i1; ++i) { /* two loads in flight */
                T qv = Q[QRU_IDX(qb, i, j, ldq)];
#pragma unroll
                for (int u = 0; u < QRU_BQ_PB; ++u)
                    if (u < pb)
                        acc[u] +=
                            QRU_CMUL(qv, Z[oz + i + (long)(a0 + u) * ldz]);
            }
            for (int u = 0; u < QRU_BQ_PB; ++u)
                if (u < pb)
                    work[ocp + ((long)g * m + j) * p + a0 + u] = acc[u];
        }
    }
    QRU_BARRIER_GLOBAL;
    for (long e = lid; e < (long)m * p; e += nt) {
        long j = e % m, a = e / m;
        T s = (T)0;
        for (int g = 0; g < G; ++g)
            s += work[ocp + ((long)g * m + j) * p + a];
        work[ocm + e] = s;
    }
    QRU_BARRIER_GLOBAL;
}

/* Z = Qz Rz (Z n x p at Z[oz], ld ldz, becomes Qz; Rz p x p upper at
 * work[orz], ld p, zeros below, its diagonal real) by modified
 * Gram-Schmidt run twice per column (the products z2' za of a pass added
 * to Rz), a work-group sum a product; a column is divided by its norm
 * (the real part of za' za) where that is > 0 and finite.
 * Each item works on its own rows of Z, and only item 0 writes Rz: the
 * caller puts a barrier between this and a read of Rz by other items. */
QRU_DEVICE void qru_bq_mgs2(int n, int p, QRU_GLOBAL T *Z, long oz, long ldz,
                            QRU_GLOBAL T *work, long orz, QRU_LOCAL T *red)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    long pp = (long)p * p;
    /* the products (a2, a) in one loop, a2 = a the norm */
    for (long t = 0; t < pp; ++t) {
        /* t runs over the columns a, for each its 2 a products (two
         * passes over the columns before), then its norm: a^2 <= t <
         * (a + 1)^2 */
        long a = 0, rest = t;
        while (rest >= 2 * a + 1) {
            rest -= 2 * a + 1;
            ++a;
        }
        int norm = rest == 2 * a, a2 = (int)(rest % (a > 0 ? a : 1));
        int pass = rest >= a;
        long za = oz + a * ldz, z2 = oz + (long)(norm ? a : a2) * ldz;
        T part = (T)0;
        for (int i = lid; i < n; i += nt)
            part += QRU_CMUL(Z[z2 + i], Z[za + i]);
        T s = qru_bq_sum(part, red);
        if (norm) {
            QRU_R nrm = QRU_SQRT(QRU_RE(s));
            if (lid == 0)
                for (int i = (int)a; i < p; ++i)
                    work[orz + i + a * p] = i == a ? QRU_MKR(nrm) : (T)0;
            if (nrm > (QRU_R)0 && nrm - nrm == (QRU_R)0)
                for (int i = lid; i < n; i += nt)
                    Z[za + i] = Z[za + i] / nrm;
        } else {
            for (int i = lid; i < n; i += nt)
                Z[za + i] -= QRU_MUL(s, Z[z2 + i]);
            if (lid == 0)
                work[orz + a2 + a * p] = pass ? work[orz + a2 + a * p] + s : s;
        }
    }
}

/* The first cnt (in column order; p r or none) entries of Qz' E (p x r
 * at work[ox], ld p), Qz n x p at Z[oz] (ld ldz), E n x r at E[eb] (ld
 * lde): a work-group sum each, written by item 0. */
QRU_DEVICE void qru_bq_ztx(int n, int p, long cnt, QRU_GLOBAL const T *Z,
                           long oz, long ldz, QRU_GLOBAL const T *E, long eb,
                           int lde, QRU_GLOBAL T *work, long ox,
                           QRU_LOCAL T *red)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    for (long t = 0; t < cnt; ++t) {
        long a = t % p, q = t / p;
        T pt = (T)0;
        for (int i = lid; i < n; i += nt)
            pt += QRU_CMUL(Z[oz + i + a * ldz], E[QRU_IDX(eb, i, q, lde)]);
        T s = qru_bq_sum(pt, red);
        if (lid == 0)
            work[ox + t] = s;
    }
}

#endif /* QRU_BATCH_CGS_CL */
