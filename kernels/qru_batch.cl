/*
 * Device kernels of the batched ops (src/qru_ops.h): the rank-k update or
 * downdate of count independent Cholesky factors (chol_update_batch), rows
 * and columns inserted into and removed from them (chol_insert_batch,
 * chol_delete_batch), and
 * rows added to and solves of count Q-less least-squares factorisations
 * (lsq_batch_add_rows, lsq_batch_solve).
 * Same conventions as kernels/qru_base.cl; the CPU version
 * (src/cpu/cpu_batch_kernels.inc) is the reference.  The Cholesky and
 * least-squares batches take complex data too (zlartg's rotations, real
 * pivots, moduli in the sums of squares); OpenCL's complex program holds
 * them all.
 */
#ifndef QRU_BATCH_CL
#define QRU_BATCH_CL

#ifndef QRU_IDX /* as in qru_base.cl */
#define QRU_IDX(o, i, j, ld) ((o) + (long)(i) + (long)(j) * (long)(ld))
#endif
/* The largest work-group of qru_chol_update_batch (a power of two) and
 * the rotations formed per step (their c, s and 1 / c in local memory). */
#ifndef QRU_BATCH_WG
#define QRU_BATCH_WG 256
#endif
#ifndef QRU_BATCH_KB
#define QRU_BATCH_KB 32
#endif
/* Elements of local memory for the working copy of a small problem
 * (QRU_CHOL_BATCH_LM of src/qru_internal.h, which says which fit). */
#ifndef QRU_BATCH_LM
#define QRU_BATCH_LM 2560
#endif

/* The problems of a work-group: tp items each (a power of two), as many
 * problems as the group has tp items, each with its own seg elements of
 * the local buffer S.  Inside a body, lid is the item's index in its
 * problem's items, nt = tp, act whether the slot has a problem (a group's
 * last slots may not: they follow the steps of the others on a copy of
 * the group's first problem and write nothing), b the problem.  Every
 * problem of a group runs the same steps (its size is the batch's), so
 * QRU_BATCH_SYNC is reached by all items alike: a team sync when a
 * problem's items are one team (a CUDA warp), else a work-group barrier.  Several problems a group run only where each fits
 * local memory (lm): a problem in device memory runs alone. */
#define QRU_BATCH_ITEMS(tp, seg)                                               \
    int np_ = QRU_LSIZE_X / (tp), sub_ = QRU_LID_X / (tp);                     \
    int lid = QRU_LID_X % (tp), nt = (tp);                                     \
    S += (long)sub_ * (seg)
#define QRU_BATCH_PROBLEMS(count)                                              \
    for (int b0_ = QRU_GROUP_X * np_, act = b0_ + sub_ < (count),             \
             b = act ? b0_ + sub_ : b0_;                                       \
         b0_ < (count); b0_ += QRU_NGROUPS_X * np_,                            \
             act = b0_ + sub_ < (count), b = act ? b0_ + sub_ : b0_)
#if QRU_TEAM > 1
#define QRU_BATCH_SYNC                                                         \
    do {                                                                       \
        if (nt <= QRU_TEAM) {                                                  \
            QRU_TEAM_SYNC;                                                     \
        } else {                                                               \
            QRU_BARRIER;                                                       \
        }                                                                      \
    } while (0)
#else /* teams of one item (OpenCL 1.2): a barrier, never conditional */
#define QRU_BATCH_SYNC QRU_BARRIER
#endif
/* QRU_BATCH_SYNC where it also hands over data in device memory: CUDA's
 * syncs order device memory too; OpenCL's barrier needs the global
 * fence */
#if defined(__OPENCL_VERSION__)
#define QRU_BATCH_GSYNC QRU_BARRIER_GLOBAL
#else
#define QRU_BATCH_GSYNC QRU_BATCH_SYNC
#endif

/* The rotation of chol_rot (its contract, src/qru_ops.h) that zeroes b
 * against the pivot a: r = sqrt(a^2 + b^2) (update, without overflow) or
 * sqrt((a - b)(a + b)) (downdate); 0 when it fails (a = 0, or r not > 0
 * and finite).  Real values (complex data: a the real pivot, b = |w|).
 * Also the rotations of qru_chol_rot (kernels/qru_chol.cl, after this
 * file in the OpenCL program; cuda/cuda_chol.cu includes this file
 * first). */
QRU_DEVICE QRU_RH qru_rot_r(QRU_RH a, QRU_RH b, int sign)
{
    QRU_RH r;
    if (sign > 0) {
        QRU_RH fa = QRU_FABS(a), fb = QRU_FABS(b);
        QRU_RH big = fa > fb ? fa : fb, sml = fa > fb ? fb : fa;
        if (big == (QRU_RH)0) {
            r = (QRU_RH)0;
        } else {
            QRU_RH q2 = sml / big;
            r = big * QRU_SQRT((QRU_RH)1 + q2 * q2);
        }
    } else {
        QRU_RH r2 = (a - b) * (a + b);
        r = r2 > (QRU_RH)0 ? QRU_SQRT(r2) : (QRU_RH)0;
    }
    /* r - r == 0 exactly when r is finite */
    return (a == (QRU_RH)0 || !(r > (QRU_RH)0) || !(r - r == (QRU_RH)0))
               ? (QRU_RH)0
               : r;
}

/* The working copy's element at local index li (lm) or at work[gi]. */
#define QRU_BW_GET(li, gi) (lm ? loc[li] : work[gi])
#define QRU_BW_SET(li, gi, v)                                                  \
    do {                                                                       \
        if (lm)                                                                \
            loc[li] = (v);                                                     \
        else                                                                   \
            work[gi] = (v);                                                    \
    } while (0)

/* The structured passes of qru_chol_batch_pass (its contract) on a
 * problem in local memory: real values (flag and the copy loc read as
 * arrays of QRU_RH).  The host keeps a complex problem in device memory
 * (qru_chol_batch_local is 0 for a complex type), which takes the
 * rotations: a complex instance compiles this helper but never runs it. */
QRU_DEVICE void qru_chol_batch_struct(int n, int k, int kb, int sign, int r0,
                                      QRU_RH tol, int lid, int nt,
                                      QRU_LOCAL QRU_RH *flag,
                                      QRU_LOCAL QRU_RH *loc)
{
    int tri = n * (n + 1) / 2, lw = tri, la = tri + n * k;
    QRU_RH sg = sign > 0 ? (QRU_RH)1 : (QRU_RH)-1;
    QRU_LOCAL QRU_RH *pv = loc + la + n, *dl = pv + n, *gm = dl + n,
                *zs = gm + n;
    for (int q = 0; q < k; ++q) {
        QRU_LOCAL QRU_RH *z = loc + lw + q * n;
        int on = q < kb; /* a column of the problem's rank */
        /* p = L \ z by columns: zs(i) = z(i) - L(i,r0:j-1) p(r0:j-1)
         * is the owner's; dl holds 1 / L(j,j) meanwhile */
        for (int i = lid; i < n && on; i += nt)
            if (i >= r0) {
                zs[i] = z[i];
                dl[i] = (QRU_RH)1 / loc[i * (i + 1) / 2 + i];
            }
        QRU_BATCH_SYNC;
        for (int j = r0, jo = r0 % nt; j < n;
             ++j, jo = jo + 1 < nt ? jo + 1 : 0) {
            if (lid == jo && on) /* jo = j mod nt */
                pv[j] = zs[j] * dl[j];
            QRU_BATCH_SYNC;
            QRU_RH pj = on ? pv[j] : (QRU_RH)0;
            for (int i = lid; i < n && on; i += nt)
                if (i > j)
                    zs[i] -= loc[i * (i + 1) / 2 + j] * pj;
        }
        QRU_BATCH_SYNC;
        /* t(j) = 1 + sign sum p(r0:j).^2, the verdict (t(j) > 0
         * finite; on the last pass also the rule on the new pivot
         * L(j,j)^2 t(j) / t(j-1)) and the owners' delta(j) and
         * gamma(j): every item runs the whole prefix (n - r0 terms),
         * so every item has the same verdict without a sync */
        QRU_RH t0 = (QRU_RH)1, f = flag[0];
        for (int j = r0, jo = r0 % nt; j < n && on;
             ++j, jo = jo + 1 < nt ? jo + 1 : 0) {
            QRU_RH t1 = t0 + sg * pv[j] * pv[j];
            if (f == (QRU_RH)0) {
                QRU_RH ljj = loc[j * (j + 1) / 2 + j], ai = loc[la + j];
                QRU_RH d = t1 / t0 * ljj * ljj;
                if (!(t1 > (QRU_RH)0) || !(t1 - t1 == (QRU_RH)0) ||
                    (q == kb - 1 &&
                     (!(ai - ai == (QRU_RH)0) || !(d - d == (QRU_RH)0) ||
                      !(d > tol))))
                    f = (QRU_RH)(j + 1);
            }
            if (jo == lid) {
                gm[j] = sg * pv[j] / QRU_SQRT(t1 * t0);
                dl[j] = QRU_SQRT(t1 / t0);
            }
            t0 = t1;
        }
        QRU_BATCH_SYNC; /* every item has read flag */
        if (lid == 0)
            flag[0] = f;
        /* L1(i,j) = delta(j) L(i,j) + gamma(j) (z(i) - S(i,j)), S
         * the prefix sums of L(i,r0:) .* p' along the row: each
         * owner its rows, no sync */
        for (int i = lid; i < n && f == (QRU_RH)0 && on; i += nt) {
            if (i < r0)
                continue;
            QRU_LOCAL QRU_RH *row = loc + i * (i + 1) / 2;
            QRU_RH zr = z[i];
            for (int j = r0; j < i; ++j) {
                QRU_RH lij = row[j];
                zr -= lij * pv[j];
                row[j] = dl[j] * lij + gm[j] * zr;
            }
            row[i] = dl[i] * row[i];
        }
        QRU_BATCH_SYNC;
    }
    if (k == 0 && lid == 0) { /* the rule on the factor as it is */
        QRU_RH f = flag[0];
        for (int j = r0; j < n; ++j) {
            QRU_RH ljj = loc[j * (j + 1) / 2 + j], ai = loc[la + j];
            QRU_RH d = ljj * ljj;
            if (f == (QRU_RH)0 &&
                (ljj == (QRU_RH)0 || !(ai - ai == (QRU_RH)0) ||
                 !(d - d == (QRU_RH)0) || !(d > tol)))
                f = (QRU_RH)(j + 1);
        }
        flag[0] = f;
    }
    QRU_BATCH_SYNC;
}

/* The rank-k pass of the batched Cholesky kernels on one problem's working
 * copy of order n (lm: at loc, the triangle packed by rows, then W n x k
 * at lw, then A1's diagonal at la; else in work: T at tb (ld n), W at wb
 * (ld n), the diagonal at ab), restricted to its trailing rows and
 * columns r0..n-1 (the leading ones are final): the update (sign > 0) or
 * downdate of that block by the rows r0..n-1 of W's first kb <= k
 * columns (the problem's rank: the steps of the others are taken, every
 * problem of a group meeting the same syncs, and change nothing),
 * judged on its pivots by the definiteness rule with tol; the first
 * failing column (1-based) goes to flag[0] where it holds 0, and a
 * problem whose flag is set runs on without changing its copy.  Items
 * own the rows i with i mod nt = lid, as in the copies.  lm: the
 * structured passes (real data); else the rotations (complex: the CPU's
 * chol_rot step, c real, s = w(i) / a, l := (l +/- conj(s) w) / c,
 * w := c w - s l). */
QRU_DEVICE void qru_chol_batch_pass(int n, int k, int kb, int sign, int r0,
                                    QRU_R tol,
                                    int lm, int lid, int nt,
                                    QRU_LOCAL T *cs, QRU_LOCAL T *flag,
                                    QRU_LOCAL T *loc, QRU_GLOBAL T *work,
                                    long tb, long wb, long ab)
{
    int tri = n * (n + 1) / 2, lw = tri, la = tri + n * k;
    int nch = k > 0 ? (k + QRU_BATCH_KB - 1) / QRU_BATCH_KB : 1;
    QRU_R sg = sign > 0 ? (QRU_R)1 : (QRU_R)-1;
    if (lm)
        qru_chol_batch_struct(n, k, kb, sign, r0, tol, lid, nt,
                              (QRU_LOCAL QRU_R *)flag,
                              (QRU_LOCAL QRU_R *)loc);
    /* the rotations: the verdict of a step goes to a slot of its own,
     * flag[1 + (step & 1)], which every item reads after the step's sync
     * into its private copy fp (the same in every item), so that the next
     * owner's write never meets a read of the step before; flag[0] holds
     * fp after the last step */
    int step = 0;
    QRU_R fp = lm ? (QRU_R)0 : QRU_RE(flag[0]);
    for (int i = r0; i < n && !lm; ++i) {
        for (int ch = 0; ch < nch; ++ch, ++step) {
            int q0 = ch * QRU_BATCH_KB; /* this chunk's columns of the rank */
            int qn = kb - q0 < QRU_BATCH_KB ? kb - q0 : QRU_BATCH_KB;
            qn = qn > 0 ? qn : 0;
            QRU_LOCAL T *sl3 = cs + 3 * QRU_BATCH_KB * (step & 1);
            QRU_LOCAL T *fs = flag + 1 + (step & 1);
            if (lid == i % nt && fp == (QRU_R)0) {
                long pii = QRU_IDX(tb, i, i, n);
                int lii = i * (i + 1) / 2 + i;
                QRU_R a = QRU_RE(QRU_BW_GET(lii, pii));
                int bad = 0;
                for (int q = 0; q < qn && !bad; ++q) {
                    T bq = QRU_BW_GET(lw + i + (q0 + q) * n,
                                      QRU_IDX(wb, i, q0 + q, n));
                    /* |b| of a complex b */
                    QRU_R r = qru_rot_r(
                        a, QRU_CPLX ? QRU_ABS(bq) : QRU_RE(bq), sign);
                    if (r == (QRU_R)0) {
                        bad = 1;
                    } else {
                        QRU_R ia = (QRU_R)1 / a;
                        sl3[3 * q] = QRU_MKR(r * ia);
                        sl3[3 * q + 1] = bq * ia;
                        sl3[3 * q + 2] = QRU_MKR(a / r);
                        a = r;
                    }
                }
                if (!bad)
                    QRU_BW_SET(lii, pii, QRU_MKR(a));
                if (!bad && ch == nch - 1) { /* the rule on the pivot */
                    QRU_R d = a * a,
                          ai = QRU_RE(QRU_BW_GET(la + i, ab + i));
                    if (!(ai - ai == (QRU_R)0) || !(d - d == (QRU_R)0) ||
                        !(d > tol))
                        bad = 1;
                }
                fs[0] = bad ? QRU_MKR(i + 1) : (T)0;
            }
            QRU_BATCH_SYNC;
            if (fp == (QRU_R)0)
                fp = QRU_RE(fs[0]);
            /* a failed problem runs on without changing its copy: the
             * steps stay uniform across the problems of the group */
            for (int j = lid; j < n && fp == (QRU_R)0; j += nt) {
                if (j <= i)
                    continue;
                long pj = QRU_IDX(tb, j, i, n);
                int lj0 = j * (j + 1) / 2 + i;
                T lj = QRU_BW_GET(lj0, pj);
                for (int q = 0; q < qn; ++q) {
                    long pq = QRU_IDX(wb, j, q0 + q, n);
                    int lq = lw + j + (q0 + q) * n;
                    QRU_R c = QRU_RE(sl3[3 * q]), ic = QRU_RE(sl3[3 * q + 2]);
                    T s = sl3[3 * q + 1], w = QRU_BW_GET(lq, pq);
                    lj = (lj + sg * QRU_MUL(QRU_CONJ(s), w)) * ic;
                    QRU_BW_SET(lq, pq, c * w - QRU_MUL(s, lj));
                }
                QRU_BW_SET(lj0, pj, lj);
            }
        }
    }
    if (!lm) {
        QRU_BATCH_SYNC;
        if (lid == 0)
            flag[0] = QRU_MKR(fp);
        QRU_BATCH_SYNC;
    }
}

/* The end of a problem of the batched Cholesky kernels: the pass (above)
 * from r0 with the problem's rank kb, then, where no column failed, the
 * slot has a problem (act) and the problem takes part (on), the working
 * copy of order n written to the uplo triangle of the page L1 + p1 (ld
 * ld1: lm, element by element down its columns, coalesced stores; else
 * each owner its rows), and the verdict to info[ib] (0 where it does not
 * take part); a last sync, so that the next problem may set the local
 * buffer again.  An upper page takes the conjugate transpose. */
QRU_DEVICE void qru_chol_batch_end(int upper, int n, int k, int kb, int sign,
                                   int r0, QRU_R tol, int lm, int lid, int nt,
                                   int act, int on,
                                   QRU_LOCAL T *cs, QRU_LOCAL T *flag,
                                   QRU_LOCAL T *loc, QRU_GLOBAL T *work,
                                   long tb, long wb, long ab,
                                   QRU_GLOBAL T *L1, long p1, int ld1,
                                   QRU_GLOBAL T *info, long ib)
{
    qru_chol_batch_pass(n, k, kb, sign, r0, tol, lm, lid, nt, cs, flag, loc,
                        work, tb, wb, ab);
    int fail = on ? (int)QRU_RE(flag[0]) : 0, wr = act && on;
    if (fail == 0 && wr && lm) { /* as the copy in */
        for (int e = lid; e < n * n; e += nt) {
            int r = e % n, c = e / n;
            if (upper ? r <= c : r >= c)
                L1[QRU_IDX(p1, r, c, ld1)] =
                    upper ? QRU_CONJ(loc[c * (c + 1) / 2 + r])
                          : loc[r * (r + 1) / 2 + c];
        }
    } else if (fail == 0 && wr) {
        for (int i = lid; i < n; i += nt)
            for (int c = 0; c <= i; ++c) {
                T v = QRU_BW_GET(i * (i + 1) / 2 + c, QRU_IDX(tb, i, c, n));
                if (upper)
                    L1[QRU_IDX(p1, c, i, ld1)] = QRU_CONJ(v);
                else
                    L1[QRU_IDX(p1, i, c, ld1)] = v;
            }
    }
    if (lid == 0 && act)
        info[ib] = QRU_MKR(fail);
    QRU_BATCH_SYNC; /* red, flag and the copy are set again */
}

/* A tolerance: scale times the largest of the items' values v (real;
 * red: nt elements; the first barrier also orders what the items wrote to
 * device memory before it) */
QRU_DEVICE QRU_RH qru_batch_tol(QRU_RH scale, QRU_RH v, int lid, int nt,
                                QRU_LOCAL QRU_RH *red)
{
    red[lid] = v;
    QRU_BATCH_GSYNC;
    for (int s = nt / 2; s > 0; s >>= 1) {
        if (lid < s && red[lid + s] > red[lid])
            red[lid] = red[lid + s];
        QRU_BATCH_SYNC;
    }
    return scale * red[0];
}


/*
 * chol_update_batch: ONE work-group per problem (groups loop over the
 * problems b = group, group + groups, ...), a power of two items, at most
 * QRU_BATCH_WG, and a local buffer S (qru_chol_batch_local_elems: the
 * reduction, two slots of rotations, the failure flag, then the copy).
 * Item t owns the rows i = t, t + items, ...: it copies row i of the
 * factor (uplo 'U': column i of U) and of W into the problem's working
 * copy (lm: in S, the triangle packed by rows, then W, then A1's
 * diagonal; else in work: T n x n, ld n, Wd n x k, ld n, then A1's
 * diagonal), and every later access to those rows is its own, so the
 * copy needs no barrier.  Per column i the owner of row i forms up to
 * QRU_BATCH_KB rotations (the order of chol_rot: c, s and 1 / c) from
 * T(i,i) and Wd(i,:), which its own earlier steps updated, and after the
 * last one judges the pivot by the definiteness rule; ONE barrier, then
 * every item applies them to its rows j > i.  The rotations alternate
 * between two slots, so the next owner never overwrites a set still
 * being read; the failure flag is set before a barrier and read after
 * it, so every branch on it is uniform.  The page of L1 is written only
 * when no column failed; info[b] (a T holding the failing column or 0)
 * always.  With per-problem ranks (hc: cnt[oc + b] = kb <= k) a problem
 * reads and uses only W's first kb columns (the steps of the others are
 * taken and change nothing, so every problem of a group meets the same
 * syncs), and one of rank 0 writes no page and info[b] = 0.  The pass
 * and the store are qru_chol_batch_pass and qru_chol_batch_end, which
 * the insertion and deletion share.
 */
QRU_DEVICE void qru_chol_batch_run(
    int upper, int n, int k, int sign, int count, T eps,
    QRU_GLOBAL const T *L, long ol, int ldl, long sl, QRU_GLOBAL const T *W,
    long ow, int ldw, long sw, QRU_GLOBAL T *L1, long o1, int ld1, long s1,
    QRU_GLOBAL T *info, long oi, QRU_GLOBAL const T *cnt, long oc, int hc,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    QRU_BATCH_ITEMS(tp, seg);
    /* the rotations' slots only for the rotations (lm 0) */
    QRU_LOCAL T *red = S, *cs = S + nt,
                *flag = cs + (lm ? 0 : 6 * QRU_BATCH_KB),
                *loc = flag + 1;
    long pw = (long)n * ((long)n + (long)k + 1);
    QRU_BATCH_PROBLEMS(count) {
        long pl = ol + (long)b * sl, pwb = ow + (long)b * sw;
        long tb = ok + (long)b * pw, wb = tb + (long)n * n,
             ab = wb + (long)n * k;
        int kb = hc ? (int)QRU_RE(cnt[oc + b]) : k; /* the problem's rank */
        /* local: the triangle packed by rows, then W, then A1's diagonal */
        int tri = n * (n + 1) / 2, lw = tri, la = tri + n * k;
        /* the copies and A1's diagonal; its largest finite entry.  In
         * local memory the items copy the page element by element down
         * its columns (independent, coalesced loads), then each owner
         * reads its rows back; in device memory each owner copies its
         * rows (so no barrier over device memory is needed) */
        if (lm) {
            for (int e = lid; e < n * n; e += nt) {
                int r = e % n, c = e / n; /* page element (r, c) */
                if (upper ? r <= c : r >= c)
                    loc[upper ? c * (c + 1) / 2 + r : r * (r + 1) / 2 + c] =
                        upper ? QRU_CONJ(L[QRU_IDX(pl, r, c, ldl)])
                              : L[QRU_IDX(pl, r, c, ldl)];
            }
            for (int e = lid; e < n * kb; e += nt)
                loc[lw + e] = W[QRU_IDX(pwb, e % n, e / n, ldw)];
            QRU_BATCH_SYNC;
        }
        QRU_R amax = (QRU_R)0;
        for (int i = lid; i < n; i += nt) {
            QRU_R sl2 = (QRU_R)0, sw2 = (QRU_R)0;
            for (int c = 0; c <= i; ++c) {
                T v;
                if (lm) {
                    v = loc[i * (i + 1) / 2 + c];
                } else {
                    v = upper ? QRU_CONJ(L[QRU_IDX(pl, c, i, ldl)])
                              : L[QRU_IDX(pl, i, c, ldl)];
                    work[QRU_IDX(tb, i, c, n)] = v;
                }
                sl2 += QRU_ABS2(v);
            }
            for (int q = 0; q < kb; ++q) {
                T v;
                if (lm) {
                    v = loc[lw + i + q * n];
                } else {
                    v = W[QRU_IDX(pwb, i, q, ldw)];
                    work[QRU_IDX(wb, i, q, n)] = v;
                }
                sw2 += QRU_ABS2(v);
            }
            QRU_R a = sign > 0 ? sl2 + sw2 : sl2 - sw2;
            QRU_BW_SET(la + i, ab + i, QRU_MKR(a));
            if (a - a == (QRU_R)0 && a > amax) /* finite */
                amax = a;
        }
        if (lid == 0)
            flag[0] = (T)0;
        QRU_R tol = qru_batch_tol((QRU_R)n * QRU_RE(eps), amax, lid, nt,
                                  (QRU_LOCAL QRU_R *)red);
        qru_chol_batch_end(upper, n, k, kb, sign, 0, tol, lm, lid, nt, act,
                           !hc || kb > 0, cs, flag, loc, work, tb, wb, ab, L1,
                           o1 + (long)b * s1, ld1, info, oi + b);
    }
}

/* The body with lm a constant in each branch, so that each copy loses the
 * other's branches and registers. */
QRU_DEVICE void qru_chol_batch_body(
    int upper, int n, int k, int sign, int count, T eps,
    QRU_GLOBAL const T *L, long ol, int ldl, long sl, QRU_GLOBAL const T *W,
    long ow, int ldw, long sw, QRU_GLOBAL T *L1, long o1, int ld1, long s1,
    QRU_GLOBAL T *info, long oi, QRU_GLOBAL const T *cnt, long oc, int hc,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    if (lm)
        qru_chol_batch_run(upper, n, k, sign, count, eps, L, ol, ldl, sl, W,
                            ow, ldw, sw, L1, o1, ld1, s1, info, oi, cnt, oc,
                            hc, work, ok, 1, tp, seg, S);
    else
        qru_chol_batch_run(upper, n, k, sign, count, eps, L, ol, ldl, sl, W,
                            ow, ldw, sw, L1, o1, ld1, s1, info, oi, cnt, oc,
                            hc, work, ok, 0, tp, seg, S);
}

/* Element (r, q) of the new columns C (count pages (n1) x p) as the
 * insertion reads it: in the diagonal block (rows kp..kp+p-1) only the
 * uplo triangle, the other half by symmetry (complex: its conjugate). */
QRU_DEVICE T qru_chol_ins_c(int upper, int kp, int p, int r, int q,
                            QRU_GLOBAL const T *C, long pc, int ldc)
{
    int d = r - kp;
    if (d >= 0 && d < p && (upper ? d > q : d < q))
        return QRU_CONJ(C[QRU_IDX(pc, kp + q, d, ldc)]);
    return C[QRU_IDX(pc, r, q, ldc)];
}

/* The insertion's element T(i, kp+c) = (W(i,c) - T(i, kp:kp+c-1)
 * T(kp+c, kp:kp+c-1)') / T(kp+c, kp+c) of its working copy (order n1,
 * rank p as qru_chol_batch_pass's layout; ' the conjugate transpose, the
 * diagonal real): an element of D below its diagonal, or of Y; stored and
 * returned. */
QRU_DEVICE T qru_chol_ins_elem(int i, int c, int kp, int n1, int lm,
                               QRU_LOCAL T *loc, QRU_GLOBAL T *work, long tb,
                               long wb)
{
    int lw = n1 * (n1 + 1) / 2, ic = kp + c;
    T v = QRU_BW_GET(lw + i + c * n1, QRU_IDX(wb, i, c, n1));
    for (int t = 0; t < c; ++t)
        v -= QRU_MUL(
            QRU_BW_GET(i * (i + 1) / 2 + kp + t, QRU_IDX(tb, i, kp + t, n1)),
            QRU_CONJ(QRU_BW_GET(ic * (ic + 1) / 2 + kp + t,
                                QRU_IDX(tb, ic, kp + t, n1))));
    v = v / QRU_RE(QRU_BW_GET(ic * (ic + 1) / 2 + ic,
                              QRU_IDX(tb, ic, ic, n1)));
    QRU_BW_SET(i * (i + 1) / 2 + ic, QRU_IDX(tb, i, ic, n1), v);
    return v;
}

/*
 * chol_insert_batch (ins 1) and chol_delete_batch (ins 0): the items,
 * working copy and pass of chol_update_batch for the new factor of order
 * n1 = n + p (insertion) or n - p (deletion) and rank p.  The copy puts
 * each kept element of L where it lands in the new factor (the deletion:
 * the removed columns' rows kp+p.. into W, the update's vectors; the
 * insertion: C into W, its diagonal block symmetric), and A1's diagonal
 * is that of the kept rows of A (||L(i,:)||^2, which a deletion does not
 * change) and C's diagonal block's.  The leading columns 0..kp-1 are
 * final: one item judges their pivots.  The insertion then forms the new
 * rows: X = L11 \ C(0:kp,:) column by column (the owner of row j puts
 * X(j,:) into the new rows' T(kp+q, j), one barrier, every item
 * subtracts T(i,j) X(j,:) from its W rows i > j: so C's diagonal block
 * becomes C2 - X'X and C's rows below it C3 - L21 X), one item factors
 * the p x p block D = chol(C2 - X'X) and judges its pivots, and every
 * owner of a row below forms Y = (C3 - L21 X) / D' into its T and W.
 * The pass updates (deletion: by L32) or downdates (insertion: by Y)
 * the trailing block from r0 = kp (deletion) or kp + p.  In device
 * memory the barriers that hand data to other items order device memory
 * (QRU_BATCH_GSYNC).  With a mask (hc: cnt[om + b]) a problem whose
 * entry is 0 takes the steps without writing its page, and info[b] = 0.
 */
QRU_DEVICE void qru_chol_insdel_batch_run(
    int ins, int upper, int n, int kp, int p, int count, T eps,
    QRU_GLOBAL const T *L, long ol, int ldl, long sl, QRU_GLOBAL const T *C,
    long oc, int ldc, long sc, QRU_GLOBAL T *L1, long o1, int ld1, long s1,
    QRU_GLOBAL T *info, long oi, QRU_GLOBAL const T *cnt, long om, int hc,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    QRU_BATCH_ITEMS(tp, seg);
    int n1 = ins ? n + p : n - p, r0 = ins ? kp + p : kp;
    QRU_LOCAL T *red = S, *cs = S + nt,
                *flag = cs + (lm ? 0 : 6 * QRU_BATCH_KB),
                *loc = flag + 1;
    long pw = (long)n1 * ((long)n1 + (long)p + 1);
    int tri = n1 * (n1 + 1) / 2, lw = tri, la = tri + n1 * p;
/* T(i,j) and W(i,q) of the working copy (ld n1) */
#define QRU_IT(i, j) ((i) * ((i) + 1) / 2 + (j))
#define QRU_GT(i, j) QRU_IDX(tb, i, j, n1)
#define QRU_IW(i, q) (lw + (i) + (q) * n1)
#define QRU_GW(i, q) QRU_IDX(wb, i, q, n1)
    QRU_BATCH_PROBLEMS(count) {
        long pl = ol + (long)b * sl, pc = oc + (long)b * sc;
        long tb = ok + (long)b * pw, wb = tb + (long)n1 * n1,
             ab = wb + (long)n1 * p;
        if (lm) { /* down the page's columns, each element where it lands */
            for (int e = lid; e < n * n; e += nt) {
                int r = e % n, c = e / n;
                int lr = upper ? c : r, lc = upper ? r : c; /* of L */
                if (lr < lc || (!ins && lr >= kp && lr < kp + p))
                    continue; /* not in the triangle, or a removed row */
                T v = upper ? QRU_CONJ(L[QRU_IDX(pl, r, c, ldl)])
                            : L[QRU_IDX(pl, r, c, ldl)];
                if (ins) {
                    int i = lr < kp ? lr : lr + p, j = lc < kp ? lc : lc + p;
                    loc[QRU_IT(i, j)] = v;
                } else {
                    int i = lr < kp ? lr : lr - p;
                    if (lc < kp)
                        loc[QRU_IT(i, lc)] = v;
                    else if (lc < kp + p)
                        loc[QRU_IW(i, lc - kp)] = v;
                    else
                        loc[QRU_IT(i, lc - p)] = v;
                }
            }
            for (int e = lid; ins && e < n1 * p; e += nt)
                loc[lw + e] =
                    qru_chol_ins_c(upper, kp, p, e % n1, e / n1, C, pc, ldc);
            QRU_BATCH_SYNC;
        }
        QRU_R amax = (QRU_R)0;
        for (int i = lid; i < n1; i += nt) {
            int nw = ins && i >= kp && i < kp + p; /* a new row */
            int io = i < kp ? i : (ins ? i - p : i + p); /* its row in L */
            if (!lm) { /* the owner copies its rows */
                for (int q = 0; ins && q < p; ++q)
                    work[QRU_GW(i, q)] =
                        qru_chol_ins_c(upper, kp, p, i, q, C, pc, ldc);
                for (int c = 0; !nw && c <= io; ++c) {
                    T v = upper ? QRU_CONJ(L[QRU_IDX(pl, c, io, ldl)])
                                : L[QRU_IDX(pl, io, c, ldl)];
                    if (ins)
                        work[QRU_GT(i, c < kp ? c : c + p)] = v;
                    else if (c < kp)
                        work[QRU_GT(i, c)] = v;
                    else if (c < kp + p)
                        work[QRU_GW(i, c - kp)] = v;
                    else
                        work[QRU_GT(i, c - p)] = v;
                }
            }
            QRU_R a = (QRU_R)0;
            if (nw) {
                a = QRU_RE(QRU_BW_GET(QRU_IW(i, i - kp), QRU_GW(i, i - kp)));
            } else {
                for (int j = 0; j <= i; ++j) {
                    if (ins && j >= kp && j < kp + p)
                        continue;
                    T v = QRU_BW_GET(QRU_IT(i, j), QRU_GT(i, j));
                    a += QRU_ABS2(v);
                }
                for (int q = 0; !ins && i >= kp && q < p; ++q) {
                    T v = QRU_BW_GET(QRU_IW(i, q), QRU_GW(i, q));
                    a += QRU_ABS2(v);
                }
            }
            QRU_BW_SET(la + i, ab + i, QRU_MKR(a));
            if (a - a == (QRU_R)0 && a > amax) /* finite */
                amax = a;
        }
        QRU_R tol = qru_batch_tol((QRU_R)n1 * QRU_RE(eps), amax, lid, nt,
                                  (QRU_LOCAL QRU_R *)red);
        if (lid == 0) { /* the leading columns' pivots, final */
            QRU_R f = (QRU_R)0;
            for (int j = 0; j < kp && f == (QRU_R)0; ++j) {
                QRU_R ljj = QRU_RE(QRU_BW_GET(QRU_IT(j, j), QRU_GT(j, j))),
                      ai = QRU_RE(QRU_BW_GET(la + j, ab + j)),
                      d = ljj * ljj;
                if (!(ai - ai == (QRU_R)0) || !(d - d == (QRU_R)0) ||
                    !(d > tol))
                    f = (QRU_R)(j + 1);
            }
            flag[0] = QRU_MKR(f);
        }
        QRU_BATCH_SYNC;
        if (ins) {
            /* X = L11 \ C(0:kp,:): row j by its owner into T(kp+q, j)
             * (as X', conjugated) */
            for (int j = 0, jo = 0; j < kp;
                 ++j, jo = jo + 1 < nt ? jo + 1 : 0) {
                if (lid == jo) {
                    QRU_R ijj = (QRU_R)1 /
                                QRU_RE(QRU_BW_GET(QRU_IT(j, j), QRU_GT(j, j)));
                    for (int q = 0; q < p; ++q)
                        QRU_BW_SET(
                            QRU_IT(kp + q, j), QRU_GT(kp + q, j),
                            QRU_CONJ(QRU_BW_GET(QRU_IW(j, q), QRU_GW(j, q))) *
                                ijj);
                }
                QRU_BATCH_GSYNC;
                for (int i = lid; i < n1; i += nt) {
                    if (i <= j)
                        continue;
                    T tij = QRU_BW_GET(QRU_IT(i, j), QRU_GT(i, j));
                    for (int q = 0; q < p; ++q) {
                        T x = QRU_BW_GET(QRU_IT(kp + q, j), QRU_GT(kp + q, j));
                        T w = QRU_BW_GET(QRU_IW(i, q), QRU_GW(i, q));
                        QRU_BW_SET(QRU_IW(i, q), QRU_GW(i, q),
                                   w - QRU_MUL(tij, QRU_CONJ(x)));
                    }
                }
            }
            QRU_BATCH_GSYNC;
            if (lid == 0) { /* D = chol(C2 - X'X), its pivots judged */
                QRU_R f = QRU_RE(flag[0]);
                for (int c = 0; c < p && f == (QRU_R)0; ++c) {
                    int ic = kp + c;
                    QRU_R d = QRU_RE(QRU_BW_GET(QRU_IW(ic, c), QRU_GW(ic, c)));
                    for (int t = 0; t < c; ++t) {
                        T v = QRU_BW_GET(QRU_IT(ic, kp + t),
                                         QRU_GT(ic, kp + t));
                        d -= QRU_ABS2(v);
                    }
                    QRU_R ai = QRU_RE(QRU_BW_GET(la + ic, ab + ic));
                    if (!(ai - ai == (QRU_R)0) || !(d - d == (QRU_R)0) ||
                        !(d > tol)) {
                        f = (QRU_R)(ic + 1);
                    } else {
                        QRU_R dc = QRU_SQRT(d);
                        QRU_BW_SET(QRU_IT(ic, ic), QRU_GT(ic, ic),
                                   QRU_MKR(dc));
                        for (int r = c + 1; r < p; ++r)
                            qru_chol_ins_elem(kp + r, c, kp, n1, lm, loc,
                                              work, tb, wb);
                    }
                }
                flag[0] = QRU_MKR(f);
            }
            QRU_BATCH_GSYNC;
            /* Y = (C3 - L21 X) / D': each owner its rows, into T and W */
            for (int i = lid; i < n1 && QRU_ISZERO(flag[0]); i += nt) {
                if (i < r0)
                    continue;
                for (int c = 0; c < p; ++c) {
                    T v = qru_chol_ins_elem(i, c, kp, n1, lm, loc, work, tb,
                                            wb);
                    QRU_BW_SET(QRU_IW(i, c), QRU_GW(i, c), v);
                }
            }
        }
        qru_chol_batch_end(upper, n1, p, p, ins ? -1 : 1, r0, tol, lm, lid,
                           nt, act, !hc || !QRU_ISZERO(cnt[om + b]), cs, flag,
                           loc, work, tb, wb, ab, L1, o1 + (long)b * s1, ld1,
                           info, oi + b);
    }
#undef QRU_IT
#undef QRU_GT
#undef QRU_IW
#undef QRU_GW
}

/* The body with lm a constant in each branch (as qru_chol_batch_body);
 * ins is a constant of each OpenCL kernel, so that no barrier stands in a
 * branch on a run-time value (PoCL's compiler then replicates the code
 * after such a branch). */
QRU_DEVICE void qru_chol_insdel_batch_body(
    int ins, int upper, int n, int kp, int p, int count, T eps,
    QRU_GLOBAL const T *L, long ol, int ldl, long sl, QRU_GLOBAL const T *C,
    long oc, int ldc, long sc, QRU_GLOBAL T *L1, long o1, int ld1, long s1,
    QRU_GLOBAL T *info, long oi, QRU_GLOBAL const T *cnt, long om, int hc,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    if (lm)
        qru_chol_insdel_batch_run(ins, upper, n, kp, p, count, eps, L, ol,
                                  ldl, sl, C, oc, ldc, sc, L1, o1, ld1, s1,
                                  info, oi, cnt, om, hc, work, ok, 1, tp, seg,
                                  S);
    else
        qru_chol_insdel_batch_run(ins, upper, n, kp, p, count, eps, L, ol,
                                  ldl, sl, C, oc, ldc, sc, L1, o1, ld1, s1,
                                  info, oi, cnt, om, hc, work, ok, 0, tp, seg,
                                  S);
}


/* dlartg's (complex: zlartg's) rotation that zeroes g against f, as the
 * least-squares batches form it: c real, s, and the new pivot returned;
 * g = 0: c = 1, s = 0 and f returned as it is.  Where g != 0: f = 0 gives
 * c = 0, s = conj(g) / |g|, |g|; else sf = sign(f) = f / |f| (real: +-1
 * exactly), s = conj(g) sf / t and sf t with t = sqrt(|f|^2 + |g|^2):
 * one reciprocal square root where the sum of squares cannot over- or
 * underflow, else by the larger modulus.  The usual case (f and g
 * nonzero, the sum within the unscaled range) is straight-line code and
 * the others (qru_batch_lartg_rare) a branch rarely taken, so that a
 * caller's step is one block the compiler can order (a branch a case
 * would cut the chain of the next pivot into pieces it cannot). */
QRU_DEVICE T qru_batch_lartg_rare(T f, T g, QRU_R *c, T *s)
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
    QRU_R fa = QRU_ABS(f);
    QRU_R big = fa > ga ? fa : ga;
    QRU_R q2 = (fa > ga ? ga : fa) / big;
    QRU_R t = big * QRU_SQRT((QRU_R)1 + q2 * q2);
    T sf = f / fa;
    *c = fa / t;
    *s = QRU_MUL(QRU_CONJ(g), sf) / t;
    return sf * t;
}

QRU_DEVICE T qru_batch_lartg(T f, T g, QRU_R *c, T *s)
{
    QRU_R h = QRU_ABS2(f) + QRU_ABS2(g);
    QRU_R inv = QRU_RSQRT(h), fa = QRU_ABS(f);
    T sf = QRU_UNIT(f, fa);
    T r = sf * (h * inv);
    *c = fa * inv;
    *s = QRU_MUL(QRU_CONJ(g), sf) * inv;
    if (!(!QRU_ISZERO(g) && !QRU_ISZERO(f) && h > QRU_RANGE_LO &&
          h < QRU_RANGE_HI))
        r = qru_batch_lartg_rare(f, g, c, s);
    return r;
}

/*
 * lsq_batch_add_rows: ONE work-group per problem (groups loop over the
 * problems), a power of two items, at most QRU_BATCH_WG.  Item t owns
 * the columns k = t, t + items, ... of [R d] (m + r columns) and the
 * same entries of the new row [u e].  Where lm, the working copy is in
 * local memory (R packed by columns, R(i,k) at k (k + 1) / 2 + i, then
 * d (m x r, ld m), then the row), copied in and out by the owners; else
 * R and d are worked on in place in their pages and the row lives in
 * work (m + r elements a problem).  Per step j the owner of column j forms
 * dlartg's (complex: zlartg's) rotation from R(j,j) and u(j) (both its
 * own, already rotated
 * by the steps before), one barrier, then every item rotates its columns
 * k > j.  With per-problem row counts (hc: cnt[oc + b]), a problem's rows
 * from its count on are taken as zeros: a zero row rotates nothing (g = 0:
 * c = 1, s = 0, skipped) and adds nothing to rho2, so the problem is left
 * bit for bit, and every problem of a work-group meets the same barriers.
 * The c and s alternate between two local slots, so the next
 * step's owner never overwrites a pair still being read.
 */
#define QRU_LR_GET(li, gi) (lm ? loc[li] : R[gi])
#define QRU_LR_SET(li, gi, v)                                                  \
    do {                                                                       \
        if (lm)                                                                \
            loc[li] = (v);                                                     \
        else                                                                   \
            R[gi] = (v);                                                       \
    } while (0)
#define QRU_LD_GET(li, gi) (lm ? loc[li] : D[gi])
#define QRU_LD_SET(li, gi, v)                                                  \
    do {                                                                       \
        if (lm)                                                                \
            loc[li] = (v);                                                     \
        else                                                                   \
            D[gi] = (v);                                                       \
    } while (0)

QRU_DEVICE void qru_lsq_batch_add_rows_run(
    int m, int r, int p, int count, QRU_GLOBAL T *R, long orr, int ldr,
    long sr, QRU_GLOBAL T *D, long od, int ldd, long sd,
    QRU_GLOBAL T *rho2, long oh, QRU_GLOBAL const T *U, long ou, int ldu,
    long su, QRU_GLOBAL const T *E, long oe, int lde, long se,
    QRU_GLOBAL const T *cnt, long oc, int hc, QRU_GLOBAL T *work, long ok,
    int lm, int tp, int seg, QRU_LOCAL T *S)
{
    QRU_BATCH_ITEMS(tp, seg);
    QRU_LOCAL T *cs = S, *loc = S + 4;
    int mr = m + r;
    int ld0 = m * (m + 1) / 2, lw0 = ld0 + m * r;
    QRU_BATCH_PROBLEMS(count) {
        long rb = orr + (long)b * sr, db = od + (long)b * sd;
        long wb = ok + (long)b * (long)mr, hb = oh + (long)b * r;
        if (lm) { /* the copy in, element by element down the columns */
            for (int e = lid; e < m * m; e += nt) {
                int i = e % m, c = e / m;
                if (i <= c)
                    loc[c * (c + 1) / 2 + i] = R[QRU_IDX(rb, i, c, ldr)];
            }
            for (int e = lid; e < m * r; e += nt)
                loc[ld0 + e] = D[QRU_IDX(db, e % m, e / m, ldd)];
            QRU_BATCH_SYNC;
        }
        int pb = hc ? (int)QRU_RE(cnt[oc + b]) : p;
        for (int i = 0; i < p; ++i) {
            for (int k = lid; k < mr; k += nt) {
                T v = i >= pb ? (T)0
                      : k < m ? U[QRU_IDX(ou + (long)b * su, i, k, ldu)]
                              : E[QRU_IDX(oe + (long)b * se, i, k - m, lde)];
                QRU_BW_SET(lw0 + k, wb + k, v);
            }
            for (int j = 0, jo = 0; j < m;
                 ++j, jo = jo + 1 < nt ? jo + 1 : 0) {
                int slot = 2 * (((long)i * m + j) & 1);
                if (lid == jo) { /* jo = j mod nt */
                    long gjj = QRU_IDX(rb, j, j, ldr);
                    int ljj = j * (j + 1) / 2 + j;
                    T f = QRU_LR_GET(ljj, gjj), g = QRU_BW_GET(lw0 + j, wb + j);
                    QRU_R c;
                    T sn;
                    T fn = qru_batch_lartg(f, g, &c, &sn);
                    if (!QRU_ISZERO(g))
                        QRU_LR_SET(ljj, gjj, fn);
                    cs[slot] = QRU_MKR(c);
                    cs[slot + 1] = sn;
                }
                QRU_BATCH_SYNC;
                QRU_R c = QRU_RE(cs[slot]);
                T sn = cs[slot + 1];
                if (!QRU_ISZERO(sn) || c != (QRU_R)1)
                    for (int k = lid; k < mr; k += nt) {
                        if (k <= j)
                            continue;
                        T y = QRU_BW_GET(lw0 + k, wb + k), x;
                        if (k < m) {
                            long g = QRU_IDX(rb, j, k, ldr);
                            int l = k * (k + 1) / 2 + j;
                            x = QRU_LR_GET(l, g);
                            QRU_LR_SET(l, g, c * x + QRU_MUL(sn, y));
                        } else {
                            long g = QRU_IDX(db, j, k - m, ldd);
                            int l = ld0 + j + (k - m) * m;
                            x = QRU_LD_GET(l, g);
                            QRU_LD_SET(l, g, c * x + QRU_MUL(sn, y));
                        }
                        QRU_BW_SET(lw0 + k, wb + k, c * y - QRU_CMUL(sn, x));
                    }
            }
            for (int k = lid; k < mr && act; k += nt)
                if (k >= m) {
                    T e = QRU_BW_GET(lw0 + k, wb + k);
                    rho2[hb + k - m] += QRU_MKR(QRU_ABS2(e));
                }
        }
        if (lm) { /* the copy out, as the copy in */
            QRU_BATCH_SYNC;
            for (int e = lid; e < m * m && act; e += nt) {
                int i = e % m, c = e / m;
                if (i <= c)
                    R[QRU_IDX(rb, i, c, ldr)] = loc[c * (c + 1) / 2 + i];
            }
            for (int e = lid; e < m * r && act; e += nt)
                D[QRU_IDX(db, e % m, e / m, ldd)] = loc[ld0 + e];
        }
        QRU_BATCH_SYNC; /* cs and loc are set again for the next problem */
    }
}

/* The body with lm a constant in each branch, so that each copy loses the
 * other's branches and registers. */
QRU_DEVICE void qru_lsq_batch_add_rows_body(
    int m, int r, int p, int count, QRU_GLOBAL T *R, long orr, int ldr,
    long sr, QRU_GLOBAL T *D, long od, int ldd, long sd,
    QRU_GLOBAL T *rho2, long oh, QRU_GLOBAL const T *U, long ou, int ldu,
    long su, QRU_GLOBAL const T *E, long oe, int lde, long se,
    QRU_GLOBAL const T *cnt, long oc, int hc, QRU_GLOBAL T *work, long ok,
    int lm, int tp, int seg, QRU_LOCAL T *S)
{
    if (lm)
        qru_lsq_batch_add_rows_run(m, r, p, count, R, orr, ldr, sr, D, od,
                                   ldd, sd, rho2, oh, U, ou, ldu, su, E, oe,
                                   lde, se, cnt, oc, hc, work, ok, 1, tp,
                                   seg, S);
    else
        qru_lsq_batch_add_rows_run(m, r, p, count, R, orr, ldr, sr, D, od,
                                   ldd, sd, rho2, oh, U, ou, ldu, su, E, oe,
                                   lde, se, cnt, oc, hc, work, ok, 0, tp,
                                   seg, S);
}

/*
 * lsq_batch_solve: ONE work-group per problem, as above.  The owners of
 * R's columns form their norms (and, where lm, copy R packed by columns
 * into local memory); a max reduction gives the rank rule's tolerance, a
 * min reduction the first failing column.  Then back substitution on a
 * copy w of d (lm: after R in local memory; else the problem's m r
 * elements of work), item t owning the rows i = t, t + items, ...: per
 * row i from the last, its owner divides by R(i,i), one barrier, every
 * owner of a row above subtracts R(k,i) x(i,:).  X's page is written
 * only when no column failed; info[b] always.
 */
QRU_DEVICE void qru_lsq_batch_solve_run(
    int m, int r, int n, int count, T eps, QRU_GLOBAL const T *R, long orr,
    int ldr, long sr, QRU_GLOBAL const T *D, long od, int ldd, long sd,
    QRU_GLOBAL T *X, long ox, int ldx, long sx, QRU_GLOBAL T *info, long oi,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    QRU_BATCH_ITEMS(tp, seg);
    QRU_LOCAL T *red = S, *loc = S + nt;
    int lw0 = m * (m + 1) / 2;
    QRU_R nf = (QRU_R)(n > m ? n : m), ep = QRU_RE(eps);
    QRU_BATCH_PROBLEMS(count) {
        long rb = orr + (long)b * sr, db = od + (long)b * sd;
        long wb = ok + (long)b * (long)m * r;
        QRU_R nmax = (QRU_R)0;
        if (lm) { /* the copy in, element by element down the columns */
            for (int e = lid; e < m * m; e += nt) {
                int i = e % m, c = e / m;
                if (i <= c)
                    loc[c * (c + 1) / 2 + i] = R[QRU_IDX(rb, i, c, ldr)];
            }
            QRU_BATCH_SYNC;
        }
        for (int k = lid; k < m; k += nt) {
            QRU_R s2 = (QRU_R)0;
            for (int i = 0; i <= k; ++i) {
                T v = lm ? loc[k * (k + 1) / 2 + i] : R[QRU_IDX(rb, i, k, ldr)];
                s2 += QRU_ABS2(v);
            }
            QRU_R nc = QRU_SQRT(s2);
            if (nc - nc == (QRU_R)0 && nc > nmax) /* finite */
                nmax = nc;
        }
        QRU_R tol = qru_batch_tol(nf * ep, nmax, lid, nt,
                                  (QRU_LOCAL QRU_R *)red);
        QRU_BATCH_SYNC; /* red is set again */
        QRU_R first = (QRU_R)(m + 1);
        for (int j = lid; j < m; j += nt) {
            T djj = R[QRU_IDX(rb, j, j, ldr)];
            if ((!QRU_FINITE(djj) || !(QRU_ABS(djj) > tol)) &&
                (QRU_R)(j + 1) < first)
                first = (QRU_R)(j + 1);
        }
        red[lid] = QRU_MKR(first);
        QRU_BATCH_SYNC;
        for (int s = nt / 2; s > 0; s >>= 1) {
            if (lid < s && QRU_RE(red[lid + s]) < QRU_RE(red[lid]))
                red[lid] = red[lid + s];
            QRU_BATCH_SYNC;
        }
        int fail = QRU_RE(red[0]) <= (QRU_R)m ? (int)QRU_RE(red[0]) : 0;
        { /* every problem of the group substitutes (uniform steps); a
           * failed one's result is not written */
            for (int i = lid; i < m; i += nt)
                for (int q = 0; q < r; ++q)
                    QRU_BW_SET(lw0 + i + q * m, wb + i + (long)q * m,
                               D[QRU_IDX(db, i, q, ldd)]);
            for (int i = m - 1, io = (m - 1) % nt; i >= 0;
                 --i, io = io > 0 ? io - 1 : nt - 1) {
                if (lid == io) { /* io = i mod nt */
                    T dii = QRU_LR_GET(i * (i + 1) / 2 + i,
                                       QRU_IDX(rb, i, i, ldr));
                    for (int q = 0; q < r; ++q) {
                        long g = wb + i + (long)q * m;
                        int l = lw0 + i + q * m;
                        QRU_BW_SET(l, g, QRU_DIV(QRU_BW_GET(l, g), dii));
                    }
                }
                QRU_BATCH_SYNC;
                for (int k = lid; k < i; k += nt) {
                    T rki = QRU_LR_GET(i * (i + 1) / 2 + k,
                                       QRU_IDX(rb, k, i, ldr));
                    for (int q = 0; q < r; ++q) {
                        long g = wb + k + (long)q * m;
                        int l = lw0 + k + q * m;
                        T xi = QRU_BW_GET(lw0 + i + q * m,
                                          wb + i + (long)q * m);
                        QRU_BW_SET(l, g, QRU_BW_GET(l, g) - QRU_MUL(rki, xi));
                    }
                }
            }
            long xb = ox + (long)b * sx;
            for (int i = lid; i < m && fail == 0 && act; i += nt)
                for (int q = 0; q < r; ++q)
                    X[QRU_IDX(xb, i, q, ldx)] =
                        QRU_BW_GET(lw0 + i + q * m, wb + i + (long)q * m);
        }
        if (lid == 0 && act)
            info[oi + b] = QRU_MKR(fail);
        QRU_BATCH_SYNC; /* red and loc are set again for the next problem */
    }
}

/* The body with lm a constant in each branch, so that each copy loses the
 * other's branches and registers. */
QRU_DEVICE void qru_lsq_batch_solve_body(
    int m, int r, int n, int count, T eps, QRU_GLOBAL const T *R, long orr,
    int ldr, long sr, QRU_GLOBAL const T *D, long od, int ldd, long sd,
    QRU_GLOBAL T *X, long ox, int ldx, long sx, QRU_GLOBAL T *info, long oi,
    QRU_GLOBAL T *work, long ok, int lm, int tp, int seg, QRU_LOCAL T *S)
{
    if (lm)
        qru_lsq_batch_solve_run(m, r, n, count, eps, R, orr, ldr, sr, D,
                                od, ldd, sd, X, ox, ldx, sx, info, oi, work,
                                ok, 1, tp, seg, S);
    else
        qru_lsq_batch_solve_run(m, r, n, count, eps, R, orr, ldr, sr, D,
                                od, ldd, sd, X, ox, ldx, sx, info, oi, work,
                                ok, 0, tp, seg, S);
}

#if defined(__OPENCL_VERSION__)
/* The OpenCL entry points: S is the local buffer of the launch (CUDA's
 * are in cuda/cuda_batch.cu, S its dynamic shared memory). */
__kernel void qru_chol_update_batch(
    int upper, int n, int k, int sign, int count, T eps,
    __global const T *L, long ol, int ldl, long sl, __global const T *W,
    long ow, int ldw, long sw, __global T *L1, long o1, int ld1, long s1,
    __global T *info, long oi, __global const T *cnt, long oc, int hc,
    __global T *work, long ok, int lm, int tp, int seg, __local T *S)
{
    qru_chol_batch_body(upper, n, k, sign, count, eps, L, ol, ldl, sl, W, ow,
                        ldw, sw, L1, o1, ld1, s1, info, oi, cnt, oc, hc, work,
                        ok, lm, tp, seg, S);
}

__kernel void qru_chol_insert_batch(
    int upper, int n, int kp, int p, int count, T eps, __global const T *L,
    long ol, int ldl, long sl, __global const T *C, long oc, int ldc,
    long sc, __global T *L1, long o1, int ld1, long s1, __global T *info,
    long oi, __global const T *cnt, long om, int hc, __global T *work,
    long ok, int lm, int tp, int seg, __local T *S)
{
    qru_chol_insdel_batch_body(1, upper, n, kp, p, count, eps, L, ol, ldl,
                               sl, C, oc, ldc, sc, L1, o1, ld1, s1, info, oi,
                               cnt, om, hc, work, ok, lm, tp, seg, S);
}

__kernel void qru_chol_delete_batch(
    int upper, int n, int kp, int p, int count, T eps, __global const T *L,
    long ol, int ldl, long sl, __global T *L1, long o1, int ld1, long s1,
    __global T *info, long oi, __global const T *cnt, long om, int hc,
    __global T *work, long ok, int lm, int tp, int seg, __local T *S)
{
    qru_chol_insdel_batch_body(0, upper, n, kp, p, count, eps, L, ol, ldl,
                               sl, L, ol, ldl, sl, L1, o1, ld1, s1, info, oi,
                               cnt, om, hc, work, ok, lm, tp, seg, S);
}

__kernel void qru_lsq_batch_add_rows(
    int m, int r, int p, int count, __global T *R, long orr, int ldr,
    long sr, __global T *D, long od, int ldd, long sd, __global T *rho2,
    long oh, __global const T *U, long ou, int ldu, long su,
    __global const T *E, long oe, int lde, long se, __global const T *cnt,
    long oc, int hc, __global T *work, long ok, int lm, int tp, int seg,
    __local T *S)
{
    qru_lsq_batch_add_rows_body(m, r, p, count, R, orr, ldr, sr, D, od, ldd,
                                sd, rho2, oh, U, ou, ldu, su, E, oe, lde, se,
                                cnt, oc, hc, work, ok, lm, tp, seg, S);
}

__kernel void qru_lsq_batch_solve(
    int m, int r, int n, int count, T eps, __global const T *R, long orr,
    int ldr, long sr, __global const T *D, long od, int ldd, long sd,
    __global T *X, long ox, int ldx, long sx, __global T *info, long oi,
    __global T *work, long ok, int lm, int tp, int seg, __local T *S)
{
    qru_lsq_batch_solve_body(m, r, n, count, eps, R, orr, ldr, sr, D, od,
                             ldd, sd, X, ox, ldx, sx, info, oi, work, ok, lm,
                             tp, seg, S);
}
#endif

#undef QRU_BATCH_ITEMS
#undef QRU_BATCH_PROBLEMS
#undef QRU_BATCH_SYNC
#undef QRU_BATCH_GSYNC
#undef QRU_LR_GET
#undef QRU_LR_SET
#undef QRU_LD_GET
#undef QRU_LD_SET
#undef QRU_BW_GET
#undef QRU_BW_SET

#endif /* QRU_BATCH_CL */
