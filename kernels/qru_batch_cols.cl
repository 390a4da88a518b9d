/*
 * Device kernels of the column updates of the batched least squares
 * (src/qru_ops.h): columns removed from count factorisations in either
 * form (lsq_batch_remove_cols, in place) and inserted into count thin
 * factorisations (lsq_batch_add_cols_q, from the old pages into new
 * ones).  ONE work-group a problem (groups loop over the problems b =
 * group, group + groups, ...), a power of two items, at most QRU_BQ_WG;
 * the local buffer (nt + 1 elements) holds the reductions.  Item t owns
 * the columns c = t, t + items, ... of [R d] (the rotations of R are
 * formed by the owner of their pivot column from that column alone, ONE
 * barrier a column, then every owner applies them to its columns), or
 * the rows i = t, t + items, ... of Q1, E and Z (a row carries the
 * rotations of a column of R along it in a register).  Every rotation
 * zeroes the lower of two adjacent rows against the upper: g = 0: c = 1,
 * s = 0; else t = sqrt(f^2 + g^2) without overflow, c = f / t, s = g / t.
 * After the barrier of a column, the owners' loop over their columns
 * makes the same trips in every item (c0 = 0, nt, ..., the column
 * c0 + lid checked in the body): PoCL ran the loop from c = lid once in
 * items whose first c was already past the end.
 * Same conventions as kernels/qru_batch_q.cl; the CPU version
 * (src/cpu/cpu_batch_cols_kernels.inc) is the reference.  The kernels
 * take complex data too (zlartg's rotation of the pair, |f| / t and
 * conj(g) sign(f) / t, applied to a row of Q1 with conj(s); moduli in
 * rho2 and in the insertion's rank rule; ' the conjugate transpose in its
 * Gram-Schmidt steps, kernels/qru_batch_cgs.cl).
 */
#ifndef QRU_BATCH_COLS_CL
#define QRU_BATCH_COLS_CL

#include "qru_batch.cl"
#include "qru_batch_cgs.cl"

/* A chain of len rotations up a vector X (element t at X[o + t inc]):
 * for u = 0 .. len-1 the pair (top - u - 1, top - u), the rotation's c
 * and s at work[ocs + 2 u].  form 1: the rotations are made (each zeroes
 * X(top - u) against X(top - u - 1), which the rotations before it
 * changed) and stored; else they are read and applied (form 2: with
 * conj(s), along a row of Q1, whose column pairs take G').  The lower
 * element is carried in a register: one read and one write a rotation. */
QRU_DEVICE void qru_bc_chain(QRU_GLOBAL T *X, long o, long inc, int top,
                             int len, QRU_GLOBAL T *work, long ocs, int form)
{
    T x = X[o + (long)top * inc];
    for (int u = 0; u < len; ++u) {
        long iy = o + (long)(top - u - 1) * inc;
        T y = X[iy], s;
        QRU_R c;
        if (form == 1) {
            c = (QRU_R)1;
            s = (T)0;
            if (!QRU_ISZERO(x)) {
                QRU_R fa = QRU_ABS(y), ga = QRU_ABS(x);
                QRU_R big = fa > ga ? fa : ga, sml = fa > ga ? ga : fa;
                QRU_R t = big * QRU_SQRT((QRU_R)1 + (sml / big) * (sml / big));
                if (QRU_CPLX) { /* zlartg's: sign(y) = y / |y| (1 at 0) */
                    T sf = fa > (QRU_R)0 ? y / fa : QRU_MKR(1);
                    c = fa / t;
                    s = QRU_MUL(QRU_CONJ(x), sf) / t;
                } else {
                    c = QRU_RE(y) / t;
                    s = x / t;
                }
            }
            work[ocs + 2 * u] = QRU_MKR(c);
            work[ocs + 2 * u + 1] = s;
        } else {
            c = QRU_RE(work[ocs + 2 * u]);
            s = work[ocs + 2 * u + 1];
            if (form == 2)
                s = QRU_CONJ(s);
        }
        X[iy + inc] = form == 1 ? (T)0 : c * x - QRU_CMUL(s, y);
        x = c * y + QRU_MUL(s, x);
    }
    X[o + (long)(top - len) * inc] = x;
}

/* The common parameters of the kernels of lsq_batch_remove_cols, and the
 * pages and work of problem b (offsets as qru_lsq_batch_rmc_work): H, the
 * columns k+p .. m-1 of R then d (m x (L + r), ld m, L = m1 - k, m1 =
 * m - p), the rotations (L steps of p), the rows m1 .. m-1 of the
 * rotated d (p x r). */
#define QRU_BC_RM_PARAMS                                                       \
    int m, int r, int n, int k, int p, int count, QRU_GLOBAL T *R, long orr, \
        int ldr, long sr, QRU_GLOBAL T *D, long od, int ldd, long sd,         \
        QRU_GLOBAL T *rho2, long orh, QRU_GLOBAL T *Q, long oq, int ldq,      \
        long sq, QRU_GLOBAL T *E, long oe, int lde, long se,                   \
        QRU_GLOBAL T *work, long ok
#define QRU_BC_RM_ARGS                                                         \
    m, r, n, k, p, count, R, orr, ldr, sr, D, od, ldd, sd, rho2, orh, Q, oq,  \
        ldq, sq, E, oe, lde, se, work, ok
#define QRU_BC_RM_PAGES(b)                                                     \
    int m1 = m - p, L = m1 - k;                                                \
    long pw = (long)m * (L + r) + 2 * (long)p * L + (long)p * r;               \
    long rb = orr + (long)(b) * sr, db = od + (long)(b) * sd;                 \
    long qb = oq + (long)(b) * sq, eb = oe + (long)(b) * se;                  \
    long oh = ok + (long)(b) * pw, ocs = oh + (long)m * (L + r),               \
         ogd = ocs + 2 * (long)p * L;                                          \
    (void)rb, (void)db, (void)qb, (void)eb, (void)ogd

/*
 * lsq_batch_remove_cols.  (1, every form) The owners of the columns of
 * H copy them (R's upper triangle, zeros below; d), then for each column
 * j of H its owner forms the p rotations that clear its subdiagonals
 * (rows k+j+p .. k+j+1, from the bottom), ONE barrier, every owner
 * applies them to its columns after j; then the owners write back R's
 * columns k .. m1-1 and d's rows 0 .. m1-1, keep the rest of d in work
 * and (Q-less: thin 0) add its squares to rho2.  (2, thin) Each row of
 * Q1 takes the rotations of every column of H in turn, then E += the
 * row's last p columns times the kept rows of d.
 */
QRU_DEVICE void qru_bc_rm_rotate(QRU_BC_RM_PARAMS, int thin)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        QRU_BC_RM_PAGES(b);
        for (long e = lid; e < (long)m * (L + r); e += nt) {
            int i = (int)(e % m), c = (int)(e / m);
            work[oh + e] = c >= L ? D[QRU_IDX(db, i, c - L, ldd)]
                           : i <= k + p + c
                               ? R[QRU_IDX(rb, i, k + p + c, ldr)]
                               : (T)0;
        }
        QRU_BARRIER_GLOBAL;
        for (int j = 0; j < L; ++j) {
            if (lid == j % nt)
                qru_bc_chain(work, oh + (long)j * m, 1, k + j + p, p, work,
                             ocs + 2 * (long)j * p, 1);
            QRU_BARRIER_GLOBAL;
            for (int c0 = 0; c0 < L + r; c0 += nt)
                if (c0 + lid > j && c0 + lid < L + r)
                    qru_bc_chain(work, oh + (long)(c0 + lid) * m, 1,
                                 k + j + p, p, work, ocs + 2 * (long)j * p, 0);
        }
        for (int c = lid; c < L + r; c += nt) {
            long hc = oh + (long)c * m;
            if (c < L) {
                for (int i = 0; i < m; ++i)
                    R[QRU_IDX(rb, i, k + c, ldr)] =
                        i <= k + c ? work[hc + i] : (T)0;
                continue;
            }
            QRU_R ss = (QRU_R)0;
            for (int i = 0; i < m; ++i) {
                T v = work[hc + i];
                if (i < m1)
                    D[QRU_IDX(db, i, c - L, ldd)] = v;
                else
                    work[ogd + (i - m1) + (long)(c - L) * p] = v;
                ss += i < m1 ? (QRU_R)0 : QRU_ABS2(v);
            }
            if (!thin)
                rho2[orh + (long)b * r + (c - L)] += QRU_MKR(ss);
        }
        QRU_BARRIER_GLOBAL; /* work of the next problem */
    }
}

QRU_DEVICE void qru_bc_rm_q(QRU_BC_RM_PARAMS)
{
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        QRU_BC_RM_PAGES(b);
        for (int i = QRU_LID_X; i < n; i += QRU_LSIZE_X) {
            for (int j = 0; j < L; ++j)
                qru_bc_chain(Q, qb + i, ldq, k + j + p, p, work,
                             ocs + 2 * (long)j * p, 2);
            for (int q = 0; q < r; ++q) {
                T t = (T)0;
                for (int a = 0; a < p; ++a)
                    t += QRU_MUL(Q[QRU_IDX(qb, i, m1 + a, ldq)],
                                 work[ogd + a + (long)q * p]);
                E[QRU_IDX(eb, i, q, lde)] += t;
            }
        }
    }
}

/* The common parameters of the kernels of lsq_batch_add_cols_q, and the
 * pages and work of problem b (offsets as qru_lsq_batch_acq_work): W =
 * Q1' V and the correction C (m x p each, ld m), the partial sums of the
 * products, Rz (p x p), dz (p x r), the rotations (p steps of m - k). */
#define QRU_BC_AC_PARAMS                                                       \
    int m, int r, int n, int k, int p, int count, T eps,                       \
        QRU_GLOBAL const T *R, long orr, int ldr, long sr,                     \
        QRU_GLOBAL const T *D, long od, int ldd, long sd,                      \
        QRU_GLOBAL const T *Q, long oq, int ldq, long sq,                      \
        QRU_GLOBAL const T *E, long oe, int lde, long se,                      \
        QRU_GLOBAL const T *V, long ov, int ldv, long sv, QRU_GLOBAL T *R1,   \
        long or1, int ld1, long s1, QRU_GLOBAL T *D1, long od1, int ldd1,     \
        long sd1, QRU_GLOBAL T *Q1, long oq1, int ldq1, long sq1,             \
        QRU_GLOBAL T *E1, long oe1, int lde1, long se1, QRU_GLOBAL T *info,   \
        long oi, QRU_GLOBAL T *work, long ok
#define QRU_BC_AC_ARGS                                                         \
    m, r, n, k, p, count, eps, R, orr, ldr, sr, D, od, ldd, sd, Q, oq, ldq,   \
        sq, E, oe, lde, se, V, ov, ldv, sv, R1, or1, ld1, s1, D1, od1, ldd1,  \
        sd1, Q1, oq1, ldq1, sq1, E1, oe1, lde1, se1, info, oi, work, ok
#define QRU_BC_AC_PAGES(b)                                                     \
    int mp = m + p, L = m - k;                                                 \
    long pw = 4 * (long)m * p + (long)QRU_BQ_WG * p + 3 * (long)p * p +        \
              (long)p * r + 2 * (long)p * L;                                   \
    long rb = orr + (long)(b) * sr, db = od + (long)(b) * sd;                 \
    long qb = oq + (long)(b) * sq, eb = oe + (long)(b) * se;                  \
    long vb = ov + (long)(b) * sv, r1b = or1 + (long)(b) * s1;                \
    long d1b = od1 + (long)(b) * sd1, q1b = oq1 + (long)(b) * sq1;            \
    long e1b = oe1 + (long)(b) * se1;                                          \
    long ow = ok + (long)(b) * pw, oc = ow + (long)m * p,                      \
         ocp = oc + (long)m * p, orz = ocp + ((long)m + QRU_BQ_WG) * p,        \
         odz = orz + (long)p * p, ocs = odz + (long)p * r,                     \
         oc3 = ocs + 2 * (long)p * L, os = oc3 + (long)m * p,                  \
         ost = os + (long)p * p;                                               \
    (void)mp, (void)rb, (void)db, (void)qb, (void)eb, (void)vb, (void)r1b,    \
        (void)d1b, (void)q1b, (void)e1b, (void)ocp, (void)ocs, (void)oc3,     \
        (void)os, (void)ost

/*
 * lsq_batch_add_cols_q, in three kernels launched one after the other
 * (the same arguments):
 *  1. (complete, row owners) Q1' = [Q1 V]; W = Q1' Z, Z -= Q1 W,
 *     C = Q1' Z, Z -= Q1 C (Z the last p columns of Q1'); Z = Qz Rz by
 *     modified Gram-Schmidt twice; for p > 1 Qz projected against Q1
 *     and orthonormalised once more, Rz := S Rz; dz = Qz' E.
 *  2. (commit, column owners) the columns of [R1 d1] =
 *     [R(:,0:k) W+C R(:,k:m) d; 0 Rz 0 dz]; for each new column k+j the
 *     owner forms the m - k rotations that clear it below row k+j (from
 *     row m+j up), ONE barrier, every owner applies them to its columns
 *     after it; the rank rule on the columns k .. m+p-1 (the largest
 *     column norm by a reduction, the pivots judged by item 0) into
 *     info.
 *  3. (rotate, row owners; a refused problem skips it) E1 = E - Qz dz, then
 *     each row of Q1' takes the rotations of the new columns in turn.
 */
QRU_DEVICE void qru_bc_ac_complete(QRU_BC_AC_PARAMS, QRU_LOCAL T *S)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    (void)eps, (void)R, (void)D, (void)R1, (void)D1, (void)E1, (void)info,
        (void)oi;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        QRU_BC_AC_PAGES(b);
        long oz = q1b + (long)m * ldq1;
        for (int i = lid; i < n; i += nt) {
            for (int j = 0; j < m; ++j)
                Q1[QRU_IDX(q1b, i, j, ldq1)] = Q[QRU_IDX(qb, i, j, ldq)];
            for (int a = 0; a < p; ++a)
                Q1[QRU_IDX(oz, i, a, ldq1)] = V[QRU_IDX(vb, i, a, ldv)];
        }
        qru_bq_qtz(Q, qb, ldq, n, m, p, Q1, oz, ldq1, work, ocp, ow);
        qru_bq_zpass(Q, qb, ldq, n, m, 0, p, Q1, oz, ldq1, work, ow, m, 1, 0);
        qru_bq_qtz(Q, qb, ldq, n, m, p, Q1, oz, ldq1, work, ocp, oc);
        qru_bq_zpass(Q, qb, ldq, n, m, 0, p, Q1, oz, ldq1, work, oc, m, 1, 0);
        qru_bq_mgs2(n, p, Q1, oz, ldq1, work, orz, S);
        if (p > 1) {
            /* Qz = Z inv(Rz) carries CGS2's error times the condition of
             * Rz (columns near each other's span): Qz - Q1 (Q1' Qz) =
             * Qz2 S, Qz := Qz2, Rz := S Rz (as qru_upd_basis) */
            qru_bq_qtz(Q, qb, ldq, n, m, p, Q1, oz, ldq1, work, ocp, oc3);
            qru_bq_zpass(Q, qb, ldq, n, m, 0, p, Q1, oz, ldq1, work, oc3, m,
                         1, 0);
            qru_bq_mgs2(n, p, Q1, oz, ldq1, work, os, S);
            QRU_BARRIER_GLOBAL;
            for (long e = lid; e < (long)p * p; e += nt) {
                long i = e % p, j = e / p;
                T t = (T)0;
                for (long l = i; l <= j; ++l)
                    t += QRU_MUL(work[os + i + l * p], work[orz + l + j * p]);
                work[ost + e] = t;
            }
            QRU_BARRIER_GLOBAL;
            for (long e = lid; e < (long)p * p; e += nt)
                work[orz + e] = work[ost + e];
        }
        qru_bq_ztx(n, p, (long)p * r, Q1, oz, ldq1, E, eb, lde, work, odz,
                   S);
        QRU_BARRIER_GLOBAL; /* the next problem's sums */
    }
}

QRU_DEVICE void qru_bc_ac_commit(QRU_BC_AC_PARAMS, QRU_LOCAL T *S)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    (void)Q, (void)E, (void)V, (void)Q1, (void)E1;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        QRU_BC_AC_PAGES(b);
        /* the columns, each by its owner */
        for (int c = lid; c < mp + r; c += nt) {
            if (c >= mp) {
                for (int i = 0; i < mp; ++i)
                    D1[QRU_IDX(d1b, i, c - mp, ldd1)] =
                        i < m ? D[QRU_IDX(db, i, c - mp, ldd)]
                              : work[odz + (i - m) + (long)(c - mp) * p];
                continue;
            }
            int a = c - k, cr = c < k ? c : c - p; /* new: a < p */
            for (int i = 0; i < mp; ++i) {
                T v = (T)0;
                if (c >= k && a < p)
                    v = i < m   ? work[ow + i + (long)a * m] +
                                    work[oc + i + (long)a * m]
                        : i - m <= a ? work[orz + (i - m) + (long)a * p]
                                     : (T)0;
                else if (i <= cr)
                    v = R[QRU_IDX(rb, i, cr, ldr)];
                R1[QRU_IDX(r1b, i, c, ld1)] = v;
            }
        }
        for (int j = 0; j < p; ++j) {
            int cj = k + j;
            if (lid == cj % nt)
                qru_bc_chain(R1, r1b + (long)cj * ld1, 1, m + j, L, work,
                             ocs + 2 * (long)j * L, 1);
            QRU_BARRIER_GLOBAL;
            for (int c0 = 0; c0 < mp + r; c0 += nt) {
                int c = c0 + lid;
                if (c > cj && c < mp)
                    qru_bc_chain(R1, r1b + (long)c * ld1, 1, m + j, L, work,
                                 ocs + 2 * (long)j * L, 0);
                else if (c > cj && c < mp + r)
                    qru_bc_chain(D1, d1b + (long)(c - mp) * ldd1, 1, m + j,
                                 L, work, ocs + 2 * (long)j * L, 0);
            }
        }
        /* the rank rule: the largest finite column norm, then the pivots */
        QRU_R big = (QRU_R)0;
        for (int c = lid; c < mp; c += nt) {
            QRU_R s = (QRU_R)0;
            for (int i = 0; i <= c; ++i) {
                T v = R1[QRU_IDX(r1b, i, c, ld1)];
                s += QRU_ABS2(v);
            }
            s = QRU_SQRT(s);
            if (s - s == (QRU_R)0 && s > big)
                big = s;
        }
        QRU_R tol = qru_batch_tol((QRU_R)(n > mp ? n : mp) * QRU_RE(eps),
                                  big, lid, nt, (QRU_LOCAL QRU_R *)S);
        if (lid == 0) {
            int fail = 0;
            for (int c = k; c < mp && !fail; ++c) {
                QRU_R v = QRU_ABS(R1[QRU_IDX(r1b, c, c, ld1)]);
                if (!(v - v == (QRU_R)0) || !(v > tol))
                    fail = c + 1;
            }
            info[oi + b] = QRU_MKR(fail);
        }
        QRU_BARRIER; /* red of the next problem */
    }
}

QRU_DEVICE void qru_bc_ac_rotate(QRU_BC_AC_PARAMS)
{
    (void)eps, (void)R, (void)D, (void)Q, (void)V, (void)R1, (void)D1;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        QRU_BC_AC_PAGES(b);
        if (!QRU_ISZERO(info[oi + b]))
            continue;
        long oz = q1b + (long)m * ldq1;
        for (int i = QRU_LID_X; i < n; i += QRU_LSIZE_X) {
            for (int q = 0; q < r; ++q) {
                T t = E[QRU_IDX(eb, i, q, lde)];
                for (int a = 0; a < p; ++a)
                    t -= QRU_MUL(Q1[QRU_IDX(oz, i, a, ldq1)],
                                 work[odz + a + (long)q * p]);
                E1[QRU_IDX(e1b, i, q, lde1)] = t;
            }
            for (int j = 0; j < p; ++j)
                qru_bc_chain(Q1, q1b + i, ldq1, m + j, L, work,
                             ocs + 2 * (long)j * L, 2);
        }
    }
}

#if defined(__OPENCL_VERSION__)
/* The OpenCL entry points (CUDA's are in cuda/cuda_batch_cols.cu). */
__kernel void qru_lsq_batch_rmc_rotate(QRU_BC_RM_PARAMS, int thin)
{
    qru_bc_rm_rotate(QRU_BC_RM_ARGS, thin);
}
__kernel void qru_lsq_batch_rmc_q(QRU_BC_RM_PARAMS)
{
    qru_bc_rm_q(QRU_BC_RM_ARGS);
}
__kernel void qru_lsq_batch_acq_complete(QRU_BC_AC_PARAMS, __local T *S)
{
    qru_bc_ac_complete(QRU_BC_AC_ARGS, S);
}
__kernel void qru_lsq_batch_acq_commit(QRU_BC_AC_PARAMS, __local T *S)
{
    qru_bc_ac_commit(QRU_BC_AC_ARGS, S);
}
__kernel void qru_lsq_batch_acq_rotate(QRU_BC_AC_PARAMS)
{
    qru_bc_ac_rotate(QRU_BC_AC_ARGS);
}
#endif

#endif /* QRU_BATCH_COLS_CL */
