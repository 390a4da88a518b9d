/*
 * Device kernels of omp_gram_step (src/qru_ops.h): one step of the Gram
 * form of orthogonal matching pursuit (src/solvers/omp.c) in two
 * launches, so that the host only queues steps:
 *   qru_omp_gram_rows   the grid: work-groups of QRU_OMPK_ROWS rows (x)
 *                       by up to QRU_OMPK_SLICES slices of the k chosen
 *                       columns (y); the first ngm groups take the rows
 *                       of B and c, the next ngn those of Qb and r; each
 *                       writes its partial result (the argmax of |c| over
 *                       its rows, or the sum of their r(i)^2);
 *   qru_omp_gram_pick   ONE work-group (1-D, a power of two items up to
 *                       QRU_RED): the partial results reduced, the stop
 *                       rules, the next column and its pivot.
 * Both read the status first and do nothing after a stop.  The state ws
 * is one array W (the layout of qru_omp_ws_of, qru_internal.h, whose
 * offsets the host passes); the state block's indices and the statuses
 * are those of qru_internal.h (checked where the CUDA backend includes
 * this file).  The CPU version (src/cpu/cpu_kernels.inc) is the
 * reference.  Every sum and the argmax run in an order fixed by the
 * work-group shape, so a run repeats bit for bit, and equal rows of B,
 * Qb (equal columns of X) give equal results.
 */
#ifndef QRU_OMP_CL
#define QRU_OMP_CL

#ifndef QRU_RED /* as in qru_base.cl */
#define QRU_RED 256
#endif
#define QRU_OMPK_ROWS 32  /* QRU_OMP_ROWS of qru_internal.h */
#define QRU_OMPK_SLICES 8 /* the most slices (y) of qru_omp_gram_rows */
/* the state block (QRU_OMP_ST_* of qru_internal.h) */
#define QRU_OMPK_STATUS 0
#define QRU_OMPK_K 1
#define QRU_OMPK_J 2
#define QRU_OMPK_CJ 3
#define QRU_OMPK_L 4
#define QRU_OMPK_ZK 5
#define QRU_OMPK_RR 6
#define QRU_OMPK_GMAX 7
#define QRU_OMPK_PIV 8
#define QRU_OMPK_LIM 9
/* the statuses (QRU_OMP_RUN ... of qru_internal.h) */
#define QRU_OMPK_RUN 0
#define QRU_OMPK_DONE 1
#define QRU_OMPK_TOL 2
#define QRU_OMPK_SPAN 3
#define QRU_OMPK_NONFINITE 4
#define QRU_OMPK_ZERO 5
#define QRU_OMPK_CHOSEN 6
#define QRU_OMPK_REFUSED 7

/* Whether the candidate (a = |c(ia)|) comes before (b, ib) in the order
 * of the argmax: NaN first, then the larger value, then the lower index
 * (qru_key_order of kernels/qru_kdefs.h). */
QRU_DEVICE int qru_omp_before(T a, int ia, T b, int ib)
{
    int o = qru_key_order(a, b, 1);
    return o >= 0 ? o : ia < ib;
}

/* The grid of a step (k >= 0) or of the start (k < 0: c = c0, r = inv y).
 * Partial results: part[2 g], part[2 g + 1] = c(i), i of the group's
 * argmax (g < ngm); part[2 ngm + g - ngm] = the group's sum of r(i)^2. */
QRU_KERNEL void qru_omp_gram_rows(int k, int m, int n, int ngm, T inv,
                                  QRU_GLOBAL const T *X, long ox, int ldx,
                                  QRU_GLOBAL const T *y, long oy,
                                  QRU_GLOBAL T *W, long oG, long oc0, long oB,
                                  long oQ, long oR, int ldr, long oc, long orr,
                                  long ost, long op)
{
    QRU_LOCAL_DECL(T, acc, QRU_OMPK_SLICES * QRU_OMPK_ROWS);
    QRU_LOCAL_DECL(T, bv, QRU_OMPK_ROWS);
    QRU_LOCAL_DECL(T, bc, QRU_OMPK_ROWS);
    QRU_LOCAL_DECL(int, bi, QRU_OMPK_ROWS);
    int lx = QRU_LID_X, ly = QRU_LID_Y, ns = QRU_LSIZE_Y, g = QRU_GROUP_X;
    int first = k < 0;
    if (!first && W[ost + QRU_OMPK_STATUS] != (T)QRU_OMPK_RUN)
        return; /* the whole group: one value */
    int rows = g < ngm, len = rows ? m : n;
    int i = (rows ? g : g - ngm) * QRU_OMPK_ROWS + lx;
    int j = first ? 0 : (int)W[ost + QRU_OMPK_J];
    long ob = rows ? oB : oQ, wk = oR + (long)(first ? 0 : k) * ldr;
    /* the slice's part of B(i, :) w (or Qb(i, :) w): four sums, so that
     * four loads are in flight */
    T s0 = (T)0, s1 = (T)0, s2 = (T)0, s3 = (T)0;
    if (!first && i < len) {
        int t = ly;
        for (; t + 3 * ns < k; t += 4 * ns) {
            s0 += W[ob + i + (long)t * len] * W[wk + t];
            s1 += W[ob + i + (long)(t + ns) * len] * W[wk + t + ns];
            s2 += W[ob + i + (long)(t + 2 * ns) * len] * W[wk + t + 2 * ns];
            s3 += W[ob + i + (long)(t + 3 * ns) * len] * W[wk + t + 3 * ns];
        }
        for (; t < k; t += ns)
            s0 += W[ob + i + (long)t * len] * W[wk + t];
    }
    acc[ly * QRU_OMPK_ROWS + lx] = (s0 + s1) + (s2 + s3);
    QRU_BARRIER;
    if (ly == 0) {
        T v = rows ? (T)-1 : (T)0, cv = (T)0;
        if (i < len) {
            T a = acc[lx];
            for (int t = 1; t < ns; ++t)
                a += acc[t * QRU_OMPK_ROWS + lx];
            T l = W[ost + QRU_OMPK_L], zk = W[ost + QRU_OMPK_ZK];
            if (rows) {
                if (first) {
                    cv = W[oc0 + i];
                } else {
                    T gij = i <= j ? W[oG + i + (long)j * m]
                                   : W[oG + j + (long)i * m];
                    T b = (gij - a) / l;
                    W[oB + i + (long)k * m] = b;
                    cv = W[oc + i] - b * zk;
                }
                W[oc + i] = cv;
                v = QRU_FABS(cv);
            } else {
                T ri;
                if (first) {
                    ri = y[oy + i] * inv;
                } else {
                    T q = (X[ox + i + (long)j * ldx] - a) / l;
                    W[oQ + i + (long)k * n] = q;
                    ri = W[orr + i] - q * (zk * inv);
                }
                W[orr + i] = ri;
                v = ri * ri;
            }
        }
        bv[lx] = v;
        bc[lx] = cv;
        bi[lx] = i < len ? i : len;
    }
    QRU_BARRIER;
    for (int h = QRU_OMPK_ROWS / 2; h > 0; h >>= 1) {
        if (ly == 0 && lx < h) {
            if (!rows)
                bv[lx] += bv[lx + h];
            else if (qru_omp_before(bv[lx + h], bi[lx + h], bv[lx], bi[lx])) {
                bv[lx] = bv[lx + h];
                bc[lx] = bc[lx + h];
                bi[lx] = bi[lx + h];
            }
        }
        QRU_BARRIER;
    }
    if (lx == 0 && ly == 0) {
        if (rows) {
            W[op + 2 * (long)g] = bc[0];
            W[op + 2 * (long)g + 1] = (T)bi[0];
        } else {
            W[op + 2 * (long)ngm + (g - ngm)] = bv[0];
        }
    }
}

/* The pick of a step (K = k + 1 chosen) or of the start (k < 0: K = 0,
 * rr = rr0): see omp_gram_step in src/qru_ops.h.  The reductions of the
 * partial results, then item 0 decides (the local dec: status, j), then
 * the items gather w = B(j, 0:K-1)' and look for j in S, then item 0
 * judges the pivot and writes the state. */
QRU_KERNEL void qru_omp_gram_pick(int k, int n, int m, int ncoef, int ngm,
                                  int ngn, T eps, T rr0, T thr,
                                  QRU_GLOBAL T *W, long oG, long oB, long oR,
                                  int ldr, long oz, long ost, long oS,
                                  long op)
{
    QRU_LOCAL_DECL(T, sv, QRU_RED); /* |c| of the candidates */
    QRU_LOCAL_DECL(T, sc, QRU_RED); /* their c */
    QRU_LOCAL_DECL(T, si, QRU_RED); /* their index; then the hits */
    QRU_LOCAL_DECL(T, sr, QRU_RED); /* the sums of r(i)^2; then of w^2 */
    QRU_LOCAL_DECL(int, dec, 2);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, first = k < 0;
    int K = first ? 0 : k + 1;
    if (!first && W[ost + QRU_OMPK_STATUS] != (T)QRU_OMPK_RUN)
        return; /* the whole group: one value */
    T v = (T)-1, cv = (T)0, iv = (T)m, rs = (T)0;
    for (int t = lid; t < ngm; t += nt) {
        T c = W[op + 2 * (long)t], ic = W[op + 2 * (long)t + 1];
        if (qru_omp_before(QRU_FABS(c), (int)ic, v, (int)iv)) {
            v = QRU_FABS(c);
            cv = c;
            iv = ic;
        }
    }
    if (!first)
        for (int t = lid; t < ngn; t += nt)
            rs += W[op + 2 * (long)ngm + t];
    sv[lid] = v;
    sc[lid] = cv;
    si[lid] = iv;
    sr[lid] = rs;
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h) {
            sr[lid] += sr[lid + h];
            if (qru_omp_before(sv[lid + h], (int)si[lid + h], sv[lid],
                               (int)si[lid])) {
                sv[lid] = sv[lid + h];
                sc[lid] = sc[lid + h];
                si[lid] = si[lid + h];
            }
        }
        QRU_BARRIER;
    }
    if (lid == 0) {
        T rr = first ? rr0 : sr[0], cj = sc[0];
        int status = QRU_OMPK_RUN;
        if (!first && K == ncoef) {
            status = QRU_OMPK_DONE;
        } else if (K > 0) {
            T rel = QRU_SQRT(rr > (T)0 ? rr : (T)0);
            int spanned = rel <= (T)(n > K + 1 ? n : K + 1) * eps;
            if (thr >= (T)0 && (rel <= thr || spanned))
                status = QRU_OMPK_TOL;
            else if (spanned)
                status = QRU_OMPK_SPAN;
        }
        if (status == QRU_OMPK_RUN) {
            if (!isfinite(cj))
                status = QRU_OMPK_NONFINITE;
            else if (cj == (T)0)
                status = QRU_OMPK_ZERO;
        }
        W[ost + QRU_OMPK_RR] = rr;
        if (status == QRU_OMPK_RUN || status >= QRU_OMPK_NONFINITE)
            W[ost + QRU_OMPK_CJ] = cj;
        dec[0] = status;
        dec[1] = status == QRU_OMPK_RUN || status >= QRU_OMPK_NONFINITE
                     ? (int)si[0]
                     : 0;
    }
    QRU_BARRIER;
    int status = dec[0], j = dec[1];
    /* is j chosen?  then w = B(j, 0:K-1)' into R(0:K-1, K), and w' w */
    T hit = (T)0, ww = (T)0;
    long rk = oR + (long)K * ldr;
    if (status == QRU_OMPK_RUN)
        for (int t = lid; t < K; t += nt) {
            if ((int)W[oS + t] == j)
                hit = (T)1;
            T wt = W[oB + j + (long)t * m];
            W[rk + t] = wt;
            ww += wt * wt;
        }
    si[lid] = hit;
    sr[lid] = ww;
    QRU_BARRIER;
    for (int h = nt / 2; h > 0; h >>= 1) {
        if (lid < h) {
            si[lid] = si[lid] > si[lid + h] ? si[lid] : si[lid + h];
            sr[lid] += sr[lid + h];
        }
        QRU_BARRIER;
    }
    if (lid != 0)
        return;
    if (status == QRU_OMPK_RUN && si[0] != (T)0) {
        status = QRU_OMPK_CHOSEN;
    } else if (status == QRU_OMPK_RUN) {
        T gj = W[oG + j + (long)j * m], d = gj - sr[0];
        T gmax = first ? (T)0 : W[ost + QRU_OMPK_GMAX];
        if (isfinite(gj) && gj > gmax)
            gmax = gj;
        T lim = (T)(n > K + 1 ? n : K + 1) * eps * gmax;
        if (isfinite(d) && d > lim) {
            T l = QRU_SQRT(d), cj = W[ost + QRU_OMPK_CJ];
            W[rk + K] = l;
            W[oz + K] = cj / l;
            W[oS + K] = (T)j;
            W[ost + QRU_OMPK_GMAX] = gmax;
            W[ost + QRU_OMPK_L] = l;
            W[ost + QRU_OMPK_ZK] = cj / l;
        } else {
            status = QRU_OMPK_REFUSED;
            W[ost + QRU_OMPK_PIV] = d;
            W[ost + QRU_OMPK_LIM] = lim;
        }
    }
    W[ost + QRU_OMPK_STATUS] = (T)status;
    W[ost + QRU_OMPK_K] = (T)K;
    W[ost + QRU_OMPK_J] = (T)j;
}

#endif /* QRU_OMP_CL */
