/*
 * Device kernels of the thin-form batched least squares (src/qru_ops.h):
 * rows added to count factorisations Q1 R = A with their Q1 and residuals
 * E (lsq_batch_add_rows_q) and rows removed from them
 * (lsq_batch_remove_rows_q).  ONE work-group a problem (groups loop over
 * the problems b = group, group + groups, ...), a power of two items, at
 * most QRU_BQ_WG; the working data lie in the op's work in global memory
 * (a problem's Q1 is n x m, far beyond local memory) and the pages are
 * changed in place; the local buffer holds the reductions (nt elements)
 * and the verdict.  Item t owns the rows i = t, t + items, ... of Q1, E
 * and Z (every pass over Q1 reads and writes its columns in row order:
 * consecutive items, consecutive addresses), or the columns of [R d].
 * The rotations are formed once per problem and applied to each row of
 * Q1 in ONE pass per block of QRU_BQ_PB rotations carried in registers.
 * Same conventions as kernels/qru_batch.cl; the CPU version
 * (src/cpu/cpu_batch_q_kernels.inc) is the reference.  A complex T (the
 * conventions of src/qru_ops.h): the rotations of the rows zlartg's
 * (qru_bq_lartg), applied to the column pairs of Q1 with conj(s); ' the
 * conjugate transpose in the completions (qru_batch_cgs.cl) and the
 * reflectors (zgeqr2's H' forward, zung2r's H backward); the rank rule
 * and the norms on moduli, real values held in T where they share a
 * buffer or a sum with complex ones.
 */
#ifndef QRU_BATCH_Q_CL
#define QRU_BATCH_Q_CL

#include "qru_batch_cgs.cl"

/* The second pass's threshold (QRU_RR_AGAIN_RMS of src/qru_internal.h) */
#ifndef QRU_RR_AGAIN_RMS
#define QRU_RR_AGAIN_RMS 2
#endif

/* The elements each item moves per step of the row drop (QRU_BQ_WG and
 * QRU_BQ_PB, the largest work-group and the rows or sweeps carried
 * through one pass over a row of Q1: kernels/qru_batch_cgs.cl). */
#define QRU_BQ_EPI 4

/* The rows k+p .. n-1 of the cols columns of X (from xb, ld ldx) moved up
 * by p, in place: the moving block taken in column order, QRU_BQ_EPI
 * elements an item a step, read, one barrier, written (a later step never
 * reads what an earlier one wrote: a destination lies p rows above its
 * source in the same column, earlier in that order). */
QRU_DEVICE void qru_bq_drop(QRU_GLOBAL T *X, long xb, int ldx, int cols,
                            int n, int k, int p)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    long L = (long)(n - k - p), tot = L * (long)cols;
    long ch = (long)nt * QRU_BQ_EPI;
    for (long s = 0; s < tot; s += ch) {
        T v[QRU_BQ_EPI];
        for (int u = 0; u < QRU_BQ_EPI; ++u) {
            long e = s + lid + (long)u * nt;
            v[u] = e < tot ? X[QRU_IDX(xb, k + p + e % L, e / L, ldx)]
                           : (T)0;
        }
        QRU_BARRIER_GLOBAL;
        for (int u = 0; u < QRU_BQ_EPI; ++u) {
            long e = s + lid + (long)u * nt;
            if (e < tot)
                X[QRU_IDX(xb, k + e % L, e / L, ldx)] = v[u];
        }
    }
}

/* zlartg's rotation (the CPU's lsq_lartg) that zeroes g against f,
 * returning r: g = 0: c = 1, s = 0, r = f; f = 0: c = 0, s = conj(g) /
 * |g|, r = |g|; else t = sqrt(|f|^2 + |g|^2) without overflow,
 * c = |f| / t, r = sign(f) t, s = conj(g) sign(f) / t (sign(f) =
 * f / |f|).  The complex data's; the real kernels keep their own
 * formulas, which are these for a real T. */
QRU_DEVICE T qru_bq_lartg(T f, T g, QRU_R *c, T *s)
{
    *c = (QRU_R)1;
    *s = (T)0;
    if (QRU_ISZERO(g))
        return f;
    QRU_R ga = QRU_ABS(g);
    if (QRU_ISZERO(f)) {
        *c = (QRU_R)0;
        *s = QRU_CONJ(g) / ga;
        return QRU_MKR(ga);
    }
    QRU_R fa = QRU_ABS(f), big = fa > ga ? fa : ga;
    QRU_R q2 = (fa > ga ? ga : fa) / big;
    QRU_R t = big * QRU_SQRT((QRU_R)1 + q2 * q2);
    T sf = f / fa;
    *c = fa / t;
    *s = QRU_MUL(QRU_CONJ(g), sf) / t;
    return sf * t;
}

/*
 * lsq_batch_add_rows_q.  Per new row i: the owner of column j of [R d]
 * forms dlartg's (complex: zlartg's) rotation from R(j,j) and u(j) (both
 * its own), writes R(j,j) and the rotation's c, s into work, one
 * barrier, every item rotates its columns k > j with the row (in work,
 * each entry its column owner's);
 * the rotated e-part du_i stays in work.  Then ONE pass over Q1 per
 * QRU_BQ_PB new rows: the owner of row ii of [Q1; 0] carries the entries
 * x_i(ii) of the new columns in registers along the row, rotating
 * (Q1(ii,j), x_i) with the rotations (i, j), i in the block, for
 * j = 0..m-1 (complex: with conj(s)), and adds x_i(ii) du_i to E(ii,:).
 */
QRU_DEVICE void qru_lsq_batch_add_rows_q_body(
    int m, int r, int n, int p, int count, QRU_GLOBAL T *R, long orr,
    int ldr, long sr, QRU_GLOBAL T *D, long od, int ldd, long sd,
    QRU_GLOBAL T *Q, long oq, int ldq, long sq, QRU_GLOBAL T *E, long oe,
    int lde, long se, QRU_GLOBAL const T *U, long ou, int ldu, long su,
    QRU_GLOBAL const T *F, long of, int ldf, long sf, QRU_GLOBAL T *work,
    long ok)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, mr = m + r;
    long pw = 2 * (long)p * m + (long)p * r + mr + n + p;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        long rb = orr + (long)b * sr, db = od + (long)b * sd;
        long qb = oq + (long)b * sq, eb = oe + (long)b * se;
        long ub = ou + (long)b * su, fb = of + (long)b * sf;
        long cs = ok + (long)b * pw, du = cs + 2 * (long)p * m,
             row = du + (long)p * r;
        /* the new rows of [Q1 E] start as zeros */
        for (long e = lid; e < (long)p * m; e += nt)
            Q[QRU_IDX(qb, n + e % p, e / p, ldq)] = (T)0;
        for (long e = lid; e < (long)p * r; e += nt)
            E[QRU_IDX(eb, n + e % p, e / p, lde)] = (T)0;
        for (int i = 0; i < p; ++i) {
            for (int k = lid; k < mr; k += nt)
                work[row + k] = k < m ? U[QRU_IDX(ub, i, k, ldu)]
                                      : F[QRU_IDX(fb, i, k - m, ldf)];
            for (int j = 0; j < m; ++j) {
                long cj = cs + 2 * ((long)i * m + j);
                if (lid == j % nt) {
                    long gjj = QRU_IDX(rb, j, j, ldr);
                    T f = R[gjj], g = work[row + j];
                    QRU_R c = (QRU_R)1;
                    T sn = (T)0;
                    if (QRU_CPLX) {
                        R[gjj] = qru_bq_lartg(f, g, &c, &sn);
                    } else if (!QRU_ISZERO(g)) {
                        if (QRU_ISZERO(f)) {
                            c = (QRU_R)0;
                            sn = QRU_MKR(QRU_RE(g) > (QRU_R)0 ? 1 : -1);
                            R[gjj] = QRU_MKR(QRU_ABS(g));
                        } else {
                            QRU_R fa = QRU_ABS(f), ga = QRU_ABS(g);
                            QRU_R big = fa > ga ? fa : ga;
                            QRU_R q2 = (fa > ga ? ga : fa) / big;
                            QRU_R t = big * QRU_SQRT((QRU_R)1 + q2 * q2);
                            T rr = QRU_MKR(QRU_RE(f) > (QRU_R)0 ? t : -t);
                            c = fa / t;
                            sn = QRU_DIV(g, rr);
                            R[gjj] = rr;
                        }
                    }
                    work[cj] = QRU_MKR(c);
                    work[cj + 1] = sn;
                }
                QRU_BARRIER_GLOBAL;
                QRU_R c = QRU_RE(work[cj]);
                T sn = work[cj + 1];
                if (!QRU_ISZERO(sn) || c != (QRU_R)1)
                    for (int k = lid; k < mr; k += nt) {
                        if (k <= j)
                            continue;
                        T y = work[row + k], x;
                        if (k < m) {
                            long g = QRU_IDX(rb, j, k, ldr);
                            x = R[g];
                            R[g] = c * x + QRU_MUL(sn, y);
                        } else {
                            long g = QRU_IDX(db, j, k - m, ldd);
                            x = D[g];
                            D[g] = c * x + QRU_MUL(sn, y);
                        }
                        work[row + k] = c * y - QRU_CMUL(sn, x);
                    }
            }
            for (int k = lid; k < mr; k += nt)
                if (k >= m)
                    work[du + i + (long)(k - m) * p] = work[row + k];
        }
        QRU_BARRIER_GLOBAL;
        /* Q1 and E, a pass per block of new rows */
        for (int ii = lid; ii < n + p; ii += nt)
            for (int a0 = 0; a0 < p; a0 += QRU_BQ_PB) {
                int pb = p - a0 < QRU_BQ_PB ? p - a0 : QRU_BQ_PB;
                T x[QRU_BQ_PB];
                for (int u = 0; u < QRU_BQ_PB; ++u)
                    x[u] = ii == n + a0 + u ? QRU_MKR(1) : (T)0;
                for (int j = 0; j < m; ++j) {
                    long g = QRU_IDX(qb, ii, j, ldq);
                    T qv = Q[g];
                    for (int u = 0; u < QRU_BQ_PB; ++u)
                        if (u < pb) {
                            long cj = cs + 2 * ((long)(a0 + u) * m + j);
                            QRU_R c = QRU_RE(work[cj]);
                            T sn = work[cj + 1];
                            T qn = c * qv + QRU_CMUL(sn, x[u]);
                            x[u] = c * x[u] - QRU_MUL(sn, qv);
                            qv = qn;
                        }
                    Q[g] = qv;
                }
                for (int q = 0; q < r; ++q) {
                    T t = (T)0;
                    for (int u = 0; u < QRU_BQ_PB; ++u)
                        if (u < pb)
                            t += QRU_MUL(x[u],
                                         work[du + a0 + u + (long)q * p]);
                    E[QRU_IDX(eb, ii, q, lde)] += t;
                }
            }
        QRU_BARRIER_GLOBAL; /* the next problem */
    }
}

/* An element of the rotated [Q1 Qz]: column c of Q1 (c < m) or of Qz,
 * which lies in work at oz (n x p, ld n). */
#define QRU_BQ_QZ(i, c)                                                        \
    ((c) < m ? Q + QRU_IDX(qb, i, c, ldq)                                      \
             : work + (oz + (long)(i) + (long)((c) - m) * n))

/* The common parameters of the four stages of lsq_batch_remove_rows_q,
 * and the pages and work of problem b (offsets as
 * qru_lsq_batch_q_rm_work). */
#define QRU_BQ_RM_PARAMS                                                       \
    int m, int r, int n, int k, int p, int count, T eps, QRU_GLOBAL T *R,    \
        long orr, int ldr, long sr, QRU_GLOBAL T *D, long od, int ldd,        \
        long sd, QRU_GLOBAL T *Q, long oq, int ldq, long sq,                  \
        QRU_GLOBAL T *E, long oe, int lde, long se, QRU_GLOBAL T *info,       \
        long oi, QRU_GLOBAL const T *cnt, long oc, int hc,                    \
        QRU_GLOBAL T *work, long ok
#define QRU_BQ_RM_ARGS                                                         \
    m, r, n, k, p, count, eps, R, orr, ldr, sr, D, od, ldd, sd, Q, oq, ldq,   \
        sq, E, oe, lde, se, info, oi, cnt, oc, hc, work, ok
/* The problems of the work-group in the four stages: b = group, group +
 * groups, ..., those with cnt[oc + b] = p where there are counts (hc).
 * The next from b: every item reads the same counts, so the loop over
 * the problems, which holds the barriers, stays uniform. */
QRU_DEVICE int qru_bq_rm_next(int b, int count, int p,
                              QRU_GLOBAL const T *cnt, long oc, int hc)
{
    while (hc && b < count && QRU_RE(cnt[oc + b]) != (QRU_R)p)
        b += QRU_NGROUPS_X;
    return b;
}
#define QRU_BQ_RM_PROBLEMS(b)                                                  \
    for (int b = qru_bq_rm_next(QRU_GROUP_X, count, p, cnt, oc, hc);          \
         b < count;                                                           \
         b = qru_bq_rm_next(b + QRU_NGROUPS_X, count, p, cnt, oc, hc))
#define QRU_BQ_RM_PAGES(b)                                                     \
    int mp = m + p, mr = m + r;                                                \
    long pp = (long)p * p;                                                     \
    long pw = 3 * (long)p * mp + (long)n * p + ((long)m + QRU_BQ_WG) * p +    \
              (long)m * p + 2 * pp + (long)p * r + (long)mp * mr;             \
    long rb = orr + (long)(b) * sr, db = od + (long)(b) * sd;                 \
    long qb = oq + (long)(b) * sq, eb = oe + (long)(b) * se;                  \
    long oqk = ok + (long)(b) * pw, ocs = oqk + (long)p * mp,                 \
         oz = ocs + 2 * (long)p * mp, ocp = oz + (long)n * p,                 \
         ocm = ocp + ((long)m + QRU_BQ_WG) * p, orz = ocm + (long)m * p,      \
         oiv = orz + pp, odz = oiv + pp, occ = odz + (long)p * r;             \
    (void)mr, (void)rb, (void)db, (void)qb, (void)eb, (void)oqk, (void)ocs,   \
        (void)oz, (void)ocp, (void)ocm, (void)orz, (void)oiv, (void)odz,      \
        (void)occ

/*
 * lsq_batch_remove_rows_q, in four kernels launched one after the other
 * (each a flat run of few barriers: one kernel with them all took PoCL
 * minutes to compile), all with the same arguments; in work per problem
 * (offsets as qru_lsq_batch_q_rm_work): QK = [Qk Rz'] (p x (m+p), ld p),
 * the sweeps' c and s, Z (n x p, ld n; becomes Qz), the partial sums of
 * Q1' Z, Q1' Z (m x p), Rz and inv(Rz) (p x p), dz (p x r), the columns
 * of [R d; 0 dz] ((m+p) x (m+r), ld m+p).  The stages after the first
 * read the problem's verdict from info and leave a refused problem's
 * pages as they are.  With counts (hc) every stage takes only the
 * problems whose count is p (QRU_BQ_RM_PROBLEMS).
 *  1. (complete) Z = E_K - Q1 Qk' (row owners, one pass over Q1 per
 *     QRU_BQ_PB rows), C = Q1' Z (column owners over slices of rows,
 *     partial sums added), Z -= Q1 C (row owners): two more passes.
 *     Z = Qz Rz by modified Gram-Schmidt, each column twice against the
 *     ones before, a work-group sum per product.  The rank rule: the
 *     columns of inv(Rz) by back substitution (one item a column), a sum
 *     for ||inv(Rz)||_F^2, the verdict by item 0 into info; where Rz is
 *     ill-conditioned, Qz projected once more and judged again; then
 *     (only work written) dz = Qz' E.
 *  2. (commit) E -= Qz dz (rows); item 0 forms the sweeps' rotations on
 *     QK = [Qk Rz'] alone (complex: zlartg's on the conjugates of the
 *     pair, the row rotation G' applied from the right to QK's column
 *     pairs); the column owners of [R d; 0 dz] apply them to
 *     their columns and write back rows p .. m+p-1.
 *  3. (rotate, no barrier) ONE pass over [Q1 Qz] per QRU_BQ_PB sweeps:
 *     the row owner carries a window of pb + 1 columns in registers from
 *     the right (sweep q0 + u at step t rotates the columns
 *     (m + q0 + u - t - 1, m + q0 + u - t): the sweeps staggered by one
 *     column, the order of the sweeps one after the other up to
 *     rotations that commute); one sweep block (p <= QRU_BQ_PB) writes
 *     each finished column straight to its place in Q1 (column c + p of
 *     the rotated matrix to column c), more blocks shift the columns
 *     after the last.
 *  4. (drop) the rows K dropped from Q1 and E (qru_bq_drop).
 */
QRU_DEVICE void qru_bq_rm_complete(QRU_BQ_RM_PARAMS, QRU_LOCAL T *S)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    QRU_LOCAL T *red = S, *flag = S + nt;
    QRU_R tol = (QRU_R)2 * (QRU_R)(n > m ? n : m) * QRU_RE(eps);
    QRU_BQ_RM_PROBLEMS(b) {
        QRU_BQ_RM_PAGES(b);
        for (long e = lid; e < (long)p * m; e += nt)
            work[oqk + e] = Q[QRU_IDX(qb, k + e % p, e / p, ldq)];
        QRU_BARRIER_GLOBAL;
        qru_bq_zpass(Q, qb, ldq, n, m, k, p, work, oz, n, work, oqk, 1, p,
                     1);
        qru_bq_qtz(Q, qb, ldq, n, m, p, work, oz, n, work, ocp, ocm);
        qru_bq_zpass(Q, qb, ldq, n, m, k, p, work, oz, n, work, ocm, m, 1,
                     0);
        qru_bq_mgs2(n, p, work, oz, n, work, orz, red);
        QRU_BARRIER_GLOBAL;
        /* the rank rule; where a removal passes it with ||inv(Rz)||_F^2
         * > QRU_RR_AGAIN_RMS^2 p (p > 1: Rz ill-conditioned, and Qz's error in
         * Q1' Qz grows with ||inv(Rz)||), Qz is projected against Q1 once
         * more, Qz = Qz2 S by the same Gram-Schmidt (S in the inverse's
         * place), Rz := S Rz, and the rule judges again (the single
         * removal's second pass, qru_upd_basis_again).  ssum and the
         * verdict are the same in every item: the branches are uniform. */
        for (int pass = 0; pass < 2; ++pass) {
            T part = (T)0;
            for (int c = lid; c < p; c += nt)
                for (int i = c; i >= 0; --i) {
                    T x = i == c ? QRU_MKR(1) : (T)0;
                    for (int l = i + 1; l <= c; ++l)
                        x -= QRU_MUL(work[orz + i + (long)l * p],
                                     work[oiv + l + (long)c * p]);
                    x = x / QRU_RE(work[orz + i + (long)i * p]);
                    work[oiv + i + (long)c * p] = x;
                    part += QRU_MKR(QRU_ABS2(x));
                }
            QRU_R ssum = QRU_RE(qru_bq_sum(part, red));
            if (lid == 0) {
                int fail = 0;
                for (int j = 0; j < p && !fail; ++j) {
                    QRU_R v = QRU_ABS(work[orz + j + (long)j * p]);
                    if (!(v - v == (QRU_R)0) || !(v > tol))
                        fail = j + 1;
                }
                if (!fail) {
                    QRU_R s = ssum - ssum == (QRU_R)0 && ssum > (QRU_R)0
                                  ? (QRU_R)1 / QRU_SQRT(ssum)
                                  : (QRU_R)0;
                    if (!(s > tol)) {
                        int bad = 0;
                        for (int j = 1; j < p; ++j)
                            if (QRU_ABS(work[orz + j + (long)j * p]) <
                                QRU_ABS(work[orz + bad + (long)bad * p]))
                                bad = j;
                        fail = bad + 1;
                    }
                }
                flag[0] = QRU_MKR(fail);
                info[oi + b] = QRU_MKR(fail);
            }
            QRU_BARRIER;
            if (pass == 1 || p == 1 || !QRU_ISZERO(flag[0]) ||
                !(ssum > (QRU_R)(QRU_RR_AGAIN_RMS * QRU_RR_AGAIN_RMS) * (QRU_R)p))
                break;
            qru_bq_qtz(Q, qb, ldq, n, m, p, work, oz, n, work, ocp, ocm);
            qru_bq_zpass(Q, qb, ldq, n, m, k, p, work, oz, n, work, ocm, m, 1,
                         0);
            qru_bq_mgs2(n, p, work, oz, n, work, oiv, red);
            QRU_BARRIER_GLOBAL;
            for (int c = lid; c < p; c += nt) /* Rz := S Rz, down column c */
                for (int i = 0; i <= c; ++i) {
                    T x = (T)0;
                    for (int l = i; l <= c; ++l)
                        x += QRU_MUL(work[oiv + i + (long)l * p],
                                     work[orz + l + (long)c * p]);
                    work[orz + i + (long)c * p] = x;
                }
            QRU_BARRIER_GLOBAL;
        }
        /* dz = Qz' E (none for a refused problem) */
        qru_bq_ztx(n, p, QRU_ISZERO(flag[0]) ? (long)p * r : 0, work, oz, n, E,
                   eb, lde, work, odz, red);
        QRU_BARRIER_GLOBAL; /* flag and red of the next problem */
    }
}

QRU_DEVICE void qru_bq_rm_commit(QRU_BQ_RM_PARAMS)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    QRU_BQ_RM_PROBLEMS(b) {
        QRU_BQ_RM_PAGES(b);
        int go = QRU_ISZERO(info[oi + b]);
        for (int i = lid; i < (go ? n : 0); i += nt)
            for (int q = 0; q < r; ++q) {
                T t = (T)0;
                for (int a = 0; a < p; ++a)
                    t += QRU_MUL(work[oz + i + (long)a * n],
                                 work[odz + a + (long)q * p]);
                E[QRU_IDX(eb, i, q, lde)] -= t;
            }
        /* [R d; 0 dz] into work, element (i, cc) at occ + cc + i mr
         * (read down the columns of R and d; the column owners below
         * then read and write consecutive addresses) */
        for (int e = lid; e < (go ? mp * mr : 0); e += nt) {
            int i = e % mp, cc = e / mp;
            T v = (T)0;
            if (cc < m && i <= cc)
                v = R[QRU_IDX(rb, i, cc, ldr)];
            else if (cc >= m && i < m)
                v = D[QRU_IDX(db, i, cc - m, ldd)];
            else if (cc >= m)
                v = work[odz + (i - m) + (long)(cc - m) * p];
            work[occ + cc + (long)i * mr] = v;
        }
        for (long e = lid; e < (go ? pp : 0); e += nt) {
            long a = e % p, a2 = e / p;
            work[oqk + a + (m + a2) * (long)p] =
                a2 <= a ? QRU_CONJ(work[orz + a2 + a * (long)p]) : (T)0;
        }
        /* sweep q zeroes row q of QK from the right, the rotation of the
         * columns (j - 1, j) for j = m + q down to q + 1: item 0 forms
         * them on row q (the new f carried in a register from one to the
         * next, the next element loaded a step ahead; row q is not read
         * again, so its zeros and its last entry are not stored), then
         * the items owning rows q + 1 .. p - 1 apply them to theirs the
         * same way (every stored element is final: no load waits on a
         * store) */
        for (int q = 0; q < p; ++q) {
            QRU_BARRIER_GLOBAL;
            if (lid == 0 && go) {
                long rq = oqk + q;
                T g = work[rq + (long)(m + q) * p];
                T fn = work[rq + (long)(m + q - 1) * p];
                for (int j = m + q; j >= q + 1; --j) {
                    T f = fn, sn = (T)0;
                    if (j - 2 >= q)
                        fn = work[rq + (long)(j - 2) * p];
                    QRU_R c = (QRU_R)1;
                    if (QRU_CPLX) { /* on the conjugates */
                        T t = qru_bq_lartg(QRU_CONJ(f), QRU_CONJ(g), &c, &sn);
                        g = QRU_CONJ(t);
                    } else {
                        QRU_R h = QRU_RE(f) * QRU_RE(f) +
                                  QRU_RE(g) * QRU_RE(g);
                        if (QRU_ISZERO(g)) {
                        } else if (h > QRU_RANGE_LO && h < QRU_RANGE_HI) {
                            /* one reciprocal square root for the chain */
                            QRU_R inv = QRU_RSQRT(h);
                            c = QRU_RE(f) * inv;
                            sn = g * inv;
                        } else {
                            QRU_R fa = QRU_ABS(f), ga = QRU_ABS(g);
                            QRU_R big = fa > ga ? fa : ga;
                            QRU_R q2 = (fa > ga ? ga : fa) / big;
                            QRU_R rr = big * QRU_SQRT((QRU_R)1 + q2 * q2);
                            c = QRU_RE(f) / rr;
                            sn = g / rr;
                        }
                        g = c * f + QRU_MUL(sn, g);
                    }
                    long cj = ocs + 2 * ((long)q * mp + j);
                    work[cj] = QRU_MKR(c);
                    work[cj + 1] = sn;
                }
            }
            QRU_BARRIER_GLOBAL;
            for (int q3 = q + 1 + lid; q3 < (go ? p : 0); q3 += nt) {
                long rq = oqk + q3;
                T y = work[rq + (long)(m + q) * p];
                T xn = work[rq + (long)(m + q - 1) * p];
                for (int j = m + q; j >= q + 1; --j) {
                    T x = xn;
                    if (j - 2 >= q)
                        xn = work[rq + (long)(j - 2) * p];
                    long cj = ocs + 2 * ((long)q * mp + j);
                    QRU_R c = QRU_RE(work[cj]);
                    T sn = work[cj + 1];
                    work[rq + (long)j * p] = c * y - QRU_MUL(sn, x);
                    y = c * x + QRU_CMUL(sn, y);
                }
                work[rq + (long)q * p] = y;
            }
        }
        QRU_BARRIER_GLOBAL;
        /* [R d; 0 dz] (copied in above): each column by its owner */
        for (int cc = lid; cc < (go ? mr : 0); cc += nt) {
            long cb = occ + cc;
            for (int q = 0; q < p; ++q) { /* y carried, as above */
                T y = work[cb + (long)(m + q) * mr],
                  xn = work[cb + (long)(m + q - 1) * mr];
                for (int j = m + q; j >= q + 1; --j) {
                    T x = xn;
                    if (j - 2 >= q)
                        xn = work[cb + (long)(j - 2) * mr];
                    long cj = ocs + 2 * ((long)q * mp + j);
                    QRU_R c = QRU_RE(work[cj]);
                    T sn = work[cj + 1];
                    work[cb + (long)j * mr] = c * y - QRU_CMUL(sn, x);
                    y = c * x + QRU_MUL(sn, y);
                }
                work[cb + (long)q * mr] = y;
            }
        }
        QRU_BARRIER_GLOBAL;
        /* rows p .. m+p-1 of the rotated columns back to R and d, down
         * their columns */
        for (int e = lid; e < (go ? m * mr : 0); e += nt) {
            int i = e % m, cc = e / m;
            T v = work[occ + cc + (long)(p + i) * mr];
            if (cc >= m)
                D[QRU_IDX(db, i, cc - m, ldd)] = v;
            else if (i <= cc)
                R[QRU_IDX(rb, i, cc, ldr)] = v;
        }
    }
}

QRU_DEVICE void qru_bq_rm_rotate(QRU_BQ_RM_PARAMS)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int nbk = (p + QRU_BQ_PB - 1) / QRU_BQ_PB;
    QRU_BQ_RM_PROBLEMS(b) {
        QRU_BQ_RM_PAGES(b);
        if (!QRU_ISZERO(info[oi + b]))
            continue;
        for (int i = lid; i < n; i += nt) {
            for (int q0 = 0; q0 < p; q0 += QRU_BQ_PB) {
                int pb = p - q0 < QRU_BQ_PB ? p - q0 : QRU_BQ_PB;
                int shift = nbk == 1;
                T w[QRU_BQ_PB + 1];
                w[0] = (T)0;
#pragma unroll
                for (int u = 1; u <= QRU_BQ_PB; ++u)
                    w[u] = u <= pb ? *QRU_BQ_QZ(i, m + q0 - 1 + u) : (T)0;
                /* the next two columns' elements are loaded two steps
                 * ahead (their loads in flight while the rotations of
                 * this step run; none of them is written before) */
                T nx0 = *QRU_BQ_QZ(i, m + q0 - 1);
                T nx1 = m > 1 ? *QRU_BQ_QZ(i, m + q0 - 2) : (T)0;
                for (int t = 0; t < m; ++t) {
                    int c = m + q0 - t;
                    w[0] = nx0;
                    nx0 = nx1;
                    if (t + 2 < m)
                        nx1 = *QRU_BQ_QZ(i, c - 3);
#pragma unroll
                    for (int u = 0; u < QRU_BQ_PB; ++u)
                        if (u < pb) {
                            long cj = ocs + 2 * ((long)(q0 + u) * mp + c + u);
                            QRU_R cr = QRU_RE(work[cj]);
                            T sn = work[cj + 1];
                            T x = w[u], y = w[u + 1];
                            w[u] = cr * x + QRU_CMUL(sn, y);
                            w[u + 1] = cr * y - QRU_MUL(sn, x);
                        }
                    T out = w[1];
#pragma unroll
                    for (int u = 2; u <= QRU_BQ_PB; ++u)
                        if (u == pb)
                            out = w[u];
                    if (shift) /* rotated column c + p - 1 */
                        Q[QRU_IDX(qb, i, c - 1, ldq)] = out;
                    else
                        *QRU_BQ_QZ(i, c + pb - 1) = out;
#pragma unroll
                    for (int u = QRU_BQ_PB; u >= 1; --u)
                        if (u <= pb)
                            w[u] = w[u - 1];
                }
                if (!shift) {
#pragma unroll
                    for (int u = 1; u <= QRU_BQ_PB; ++u)
                        if (u <= pb)
                            *QRU_BQ_QZ(i, q0 + u - 1) = w[u];
                }
            }
            if (nbk > 1)
                for (int c = 0; c < m; ++c)
                    Q[QRU_IDX(qb, i, c, ldq)] = *QRU_BQ_QZ(i, c + p);
        }
    }
}

QRU_DEVICE void qru_bq_rm_drop(QRU_BQ_RM_PARAMS)
{
    QRU_BQ_RM_PROBLEMS(b) {
        QRU_BQ_RM_PAGES(b);
        int n1 = QRU_ISZERO(info[oi + b]) ? n : k + p; /* k + p: nothing */
        qru_bq_drop(Q, qb, ldq, m, n1, k, p);
        qru_bq_drop(E, eb, lde, r, n1, k, p);
    }
}

#undef QRU_BQ_QZ

/* a + b, or (mx; real values) the larger of a and b with NaN first */
QRU_DEVICE T qru_bq_comb(T a, T b, int mx)
{
    QRU_R ar = QRU_RE(a), br = QRU_RE(b);
    return mx ? (br > ar || br != br ? b : a) : a + b;
}

/* The sums (mx: maxima, of real values) over the work-group of the nv <= QRU_BQ_PB values
 * v[u] of each item, into v[u] of every item: the teams' sums, then G
 * items a value add P / G of the P = nt / QRU_TEAM partials, one item a
 * value the G sums, every item reads them (the same sums in the same
 * order everywhere; NaN propagates).  red: qru_lsq_batch_qr_local_elems
 * (nt) local elements.  Four barriers: call it uniformly. */
QRU_DEVICE void qru_bq_sumv(T *v, int nv, int mx, QRU_LOCAL T *red)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, P = nt / QRU_TEAM, G = 1;
    while (G * G < P)
        G *= 2;
    int L = P / G;
    QRU_LOCAL T *lv1 = red + QRU_BQ_PB * P, *lv2 = lv1 + QRU_BQ_PB * G;
    for (int u = 0; u < QRU_BQ_PB; ++u)
        if (u < nv) {
            T t = mx ? QRU_MKR(QRU_TEAM_MAX(QRU_RE(v[u])))
                     : QRU_TEAM_SUM(v[u]);
            if (lid % QRU_TEAM == 0)
                red[u * P + lid / QRU_TEAM] = t;
        }
    QRU_BARRIER;
    for (int h = lid; h < nv * G; h += nt) {
        QRU_LOCAL T *p = red + (h / G) * P + (h % G) * L;
        T t = p[0];
        for (int e = 1; e < L; ++e)
            t = qru_bq_comb(t, p[e], mx);
        lv1[h] = t;
    }
    QRU_BARRIER;
    if (lid < nv) {
        T t = lv1[lid * G];
        for (int g = 1; g < G; ++g)
            t = qru_bq_comb(t, lv1[lid * G + g], mx);
        lv2[lid] = t;
    }
    QRU_BARRIER;
    for (int u = 0; u < QRU_BQ_PB; ++u)
        if (u < nv)
            v[u] = lv2[u];
    QRU_BARRIER;
}

/*
 * lsq_batch_geqr_thin: the thin QR of each page by Householder
 * reflectors, column by column in its Q page in global memory (LAPACK's
 * dgeqr2, then dorg2r), one work-group a problem.  Reflectors rather
 * than Gram-Schmidt: Q1 = H_0 ... H_{m-1} [I; 0] is a product of
 * reflectors, orthonormal to working precision (||I - Q1'Q1|| ~ n eps)
 * whatever the page's condition or rank, where modified Gram-Schmidt
 * loses orthogonality in proportion to cond(A), and even run twice
 * breaks down on the rank-deficient pages that creation factors without
 * judging them.  Item t owns the rows t, t + nt, ... of the Q and E pages
 * and is the only one to touch them (and R's and D's rows of the same
 * numbers), so the work-group shares only its block sums (qru_bq_sumv)
 * and the tau in work.  The steps s = 0 .. 2m-1 run one body (a flat
 * loop: PoCL replicates the code after a barrier in a branch):
 *  - forward (j = s < m): the squares of the column below the diagonal
 *    and its diagonal alpha summed (unscaled where the sum of squares
 *    lies in [QRU_RANGE_LO, QRU_RANGE_HI], else by the column's largest
 *    magnitude, two more sums), dlarfg's beta, tau and 1 / (alpha - beta)
 *    in every item (qru_larfg_beta), v stored below the diagonal,
 *    R(j,j) = beta, tau_j into work;
 *  - backward (j = 2m-1-s): tau_j read back;
 *  - both: H_j applied to the columns j+1 .. m-1 of the page and the r
 *    of E, rows j .. n-1, QRU_BQ_PB columns a block: each item's partial
 *    dots v'X, one block sum, each item updates its rows (nothing where
 *    tau_j = 0).  Forward this makes R and C = H_{m-1} ... H_0 B;
 *    backward (dorg2r) it builds Q1 from the columns after j, and then
 *    column j: 1 - tau at j, -tau v below, zeros above.  E's rows
 *    0 .. m-1 are zero by then, so the same reflectors turn [0; C2]
 *    into E.
 * Before the backward pass (s = m) the row owners copy R and
 * D = C(0:m-1, :) out and zero E's first m rows.  A complex T: zlarfg's
 * beta and tau (a real beta where xnorm != 0), v' X the conjugated dots,
 * H_j' = I - conj(tau_j) v v' forward (zgeqr2) and H_j backward (zung2r),
 * the column norms of moduli (the largest modulus the scale).
 */
QRU_DEVICE void qru_lsq_batch_geqr_thin_body(
    int m, int r, int n, int count, QRU_GLOBAL const T *A, long oa, int lda,
    long sa, QRU_GLOBAL const T *B, long ob, int ldb, long sb,
    QRU_GLOBAL T *R, long orr, int ldr, long sr, QRU_GLOBAL T *D, long od,
    int ldd, long sd, QRU_GLOBAL T *Q, long oq, int ldq, long sq,
    QRU_GLOBAL T *E, long oe, int lde, long se, QRU_GLOBAL T *work, long ok,
    QRU_LOCAL T *red)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    for (int b = QRU_GROUP_X; b < count; b += QRU_NGROUPS_X) {
        long ab = oa + (long)b * sa, bb = ob + (long)b * sb;
        long rb = orr + (long)b * sr, db = od + (long)b * sd;
        long qb = oq + (long)b * sq, eb = oe + (long)b * se;
        long tb = ok + (long)b * m;
        for (int i = lid; i < n; i += nt) {
            for (int k = 0; k < m; ++k)
                Q[QRU_IDX(qb, i, k, ldq)] = A[QRU_IDX(ab, i, k, lda)];
            for (int q = 0; q < r; ++q)
                E[QRU_IDX(eb, i, q, lde)] = B[QRU_IDX(bb, i, q, ldb)];
        }
        for (int s = 0; s < 2 * m; ++s) {
            int fwd = s < m, j = fwd ? s : 2 * m - 1 - s;
            /* this item's first row >= j */
            int i0 = lid >= j ? lid : lid + ((j - lid + nt - 1) / nt) * nt;
            QRU_BARRIER_GLOBAL; /* the forward steps' tau */
            if (s == m)
                for (int i = lid; i < m; i += nt) {
                    for (int k = 0; k < m; ++k)
                        R[QRU_IDX(rb, i, k, ldr)] =
                            k >= i ? Q[QRU_IDX(qb, i, k, ldq)] : (T)0;
                    for (int q = 0; q < r; ++q) {
                        long g = QRU_IDX(eb, i, q, lde);
                        D[QRU_IDX(db, i, q, ldd)] = E[g];
                        E[g] = (T)0;
                    }
                }
            /* forward: the column's norm, in 1 to 3 sums */
            T alpha = (T)0;
            QRU_R xnorm = (QRU_R)0, mx = (QRU_R)0;
            for (int pass = 0, more = fwd; more; ++pass) {
                T part[QRU_BQ_PB];
                T a0 = (T)0, a1 = (T)0;
                for (int i = i0; i < n; i += nt) {
                    T x = Q[QRU_IDX(qb, i, j, ldq)];
                    if (i == j)
                        a1 = x;
                    else if (pass == 1)
                        a0 = qru_bq_comb(a0, QRU_MKR(QRU_ABS(x)), 1);
                    else {
                        x = pass == 2 ? x / mx : x;
                        a0 += QRU_MKR(QRU_ABS2(x));
                    }
                }
                part[0] = a0;
                part[1] = a1;
                qru_bq_sumv(part, pass == 0 ? 2 : 1, pass == 1, red);
                QRU_R p0 = QRU_RE(part[0]);
                if (pass == 0) {
                    alpha = part[1];
                    xnorm = QRU_SQRT(p0);
                    more = !(p0 >= QRU_RANGE_LO && p0 <= QRU_RANGE_HI);
                } else if (pass == 1) {
                    mx = p0;
                    xnorm = mx; /* 0, or not finite */
                    more = mx > (QRU_R)0 && mx - mx == (QRU_R)0;
                } else {
                    xnorm = mx * QRU_SQRT(p0);
                    more = 0;
                }
                more = QRU_TEAM_UNIFORM(more);
            }
            T tau = (T)0;
            if (fwd) {
                T f = (T)0, beta = alpha;
                if (xnorm != (QRU_R)0)
                    beta = qru_larfg_beta(alpha, xnorm, &tau, &f);
                for (int i = i0; i < n; i += nt) {
                    long g = QRU_IDX(qb, i, j, ldq);
                    Q[g] = i == j ? beta : QRU_MUL(Q[g], f);
                }
                if (lid == 0)
                    work[tb + j] = tau;
            } else {
                tau = work[tb + j];
            }
            /* H_j' (forward) or H_j (backward) on the columns after j,
             * QRU_BQ_PB a block */
            T tt = QRU_CPLX && fwd ? QRU_CONJ(tau) : tau;
            int cend = QRU_TEAM_UNIFORM(!QRU_ISZERO(tau)) ? m + r : j + 1;
            for (int c0 = j + 1; c0 < cend; c0 += QRU_BQ_PB) {
                int nb = cend - c0 < QRU_BQ_PB ? cend - c0 : QRU_BQ_PB;
                QRU_GLOBAL T *xp[QRU_BQ_PB];
                T w[QRU_BQ_PB];
                for (int u = 0; u < QRU_BQ_PB; ++u) {
                    int c = c0 + (u < nb ? u : 0);
                    xp[u] = c < m ? Q + (qb + (long)c * ldq)
                                  : E + (eb + (long)(c - m) * lde);
                    w[u] = (T)0;
                }
                for (int i = i0; i < n; i += nt) {
                    T vi = i == j ? QRU_MKR(1) : Q[QRU_IDX(qb, i, j, ldq)];
                    for (int u = 0; u < QRU_BQ_PB; ++u)
                        if (u < nb)
                            w[u] += QRU_CMUL(vi, xp[u][i]);
                }
                qru_bq_sumv(w, nb, 0, red);
                for (int i = i0; i < n; i += nt) {
                    T tv = QRU_MUL(tt, i == j ? QRU_MKR(1)
                                              : Q[QRU_IDX(qb, i, j, ldq)]);
                    for (int u = 0; u < QRU_BQ_PB; ++u)
                        if (u < nb)
                            xp[u][i] -= QRU_MUL(tv, w[u]);
                }
            }
            if (!fwd) /* column j of Q1 */
                for (int i = lid; i < n; i += nt) {
                    long g = QRU_IDX(qb, i, j, ldq);
                    Q[g] = i < j    ? (T)0
                           : i == j ? QRU_MKR(1) - tau
                                    : QRU_MUL(-tau, Q[g]);
                }
        }
    }
}

#if defined(__OPENCL_VERSION__)
/* The OpenCL entry points (CUDA's are in cuda/cuda_batch_q.cu). */
__kernel void qru_lsq_batch_add_rows_q(
    int m, int r, int n, int p, int count, __global T *R, long orr, int ldr,
    long sr, __global T *D, long od, int ldd, long sd, __global T *Q, long oq,
    int ldq, long sq, __global T *E, long oe, int lde, long se,
    __global const T *U, long ou, int ldu, long su, __global const T *F,
    long of, int ldf, long sf, __global T *work, long ok)
{
    qru_lsq_batch_add_rows_q_body(m, r, n, p, count, R, orr, ldr, sr, D, od,
                                  ldd, sd, Q, oq, ldq, sq, E, oe, lde, se, U,
                                  ou, ldu, su, F, of, ldf, sf, work, ok);
}

__kernel void qru_lsq_batch_geqr_thin(
    int m, int r, int n, int count, __global const T *A, long oa, int lda,
    long sa, __global const T *B, long ob, int ldb, long sb, __global T *R,
    long orr, int ldr, long sr, __global T *D, long od, int ldd, long sd,
    __global T *Q, long oq, int ldq, long sq, __global T *E, long oe,
    int lde, long se, __global T *work, long ok, __local T *red)
{
    qru_lsq_batch_geqr_thin_body(m, r, n, count, A, oa, lda, sa, B, ob, ldb,
                                 sb, R, orr, ldr, sr, D, od, ldd, sd, Q, oq,
                                 ldq, sq, E, oe, lde, se, work, ok, red);
}

__kernel void qru_lsq_batch_rmq_complete(QRU_BQ_RM_PARAMS, __local T *S)
{
    qru_bq_rm_complete(QRU_BQ_RM_ARGS, S);
}
__kernel void qru_lsq_batch_rmq_commit(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_commit(QRU_BQ_RM_ARGS);
}
__kernel void qru_lsq_batch_rmq_rotate(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_rotate(QRU_BQ_RM_ARGS);
}
__kernel void qru_lsq_batch_rmq_drop(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_drop(QRU_BQ_RM_ARGS);
}
#endif

#endif /* QRU_BATCH_Q_CL */
