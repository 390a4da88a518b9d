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
 * b = 0 (complex: zlartg's, c = |a| / r real, s = sign(a) conj(b) / r; a = 0
 * gives c = 0, s = conj(b) / |b|).  cs[ocs + 2t], cs[ocs + 2t + 1] = c, s.
 * 1-D, any group size. */
QRU_KERNEL void qru_givens_make(int cnt, QRU_GLOBAL const T *X, long ox,
                                long inc, long ps, QRU_GLOBAL T *cs, long ocs)
{
    for (int t = QRU_GID_X; t < cnt; t += QRU_LSIZE_X * QRU_NGROUPS_X) {
        T a = X[ox + (long)t * inc], b = X[ox + (long)t * inc + ps];
        T c = QRU_MKR(1), s = (T)0;
        if (!QRU_ISZERO(b)) {
            QRU_R fa = QRU_ABS(a), fb = QRU_ABS(b);
            QRU_R big = fa > fb ? fa : fb;
            QRU_R ra = fa / big, rb = fb / big;
            QRU_R r = big * QRU_SQRT(ra * ra + rb * rb);
            if (!QRU_CPLX) {
                c = a / r;
                s = b / r;
            } else if (fa == (QRU_R)0) {
                c = (T)0;
                s = QRU_CONJ(b) / fb;
            } else {
                c = QRU_MKR(fa / r);
                s = QRU_MUL(a / fa, QRU_CONJ(b)) / r;
            }
        }
        cs[ocs + 2 * (long)t] = c;
        cs[ocs + 2 * (long)t + 1] = s;
    }
}

/* applyGivens: for every rotation t and e = 0 .. len-1, with
 * x = X[ox + t*inc + e*es] and y = X[ox + t*inc + ps + e*es]:
 * x := c x + s y, y := c y - conj(s) x (c real; rotations with c = 1,
 * s = 0 are skipped,
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
            QRU_R cr = QRU_RE(c);
            if (cr == (QRU_R)1 && QRU_ISZERO(s))
                continue;
            long px = ox + (long)t * inc + (long)e * es;
            T x = X[px], y = X[px + ps];
            X[px] = cr * x + QRU_MUL(s, y);
            X[px + ps] = cr * y - QRU_CMUL(s, x);
        }
}

/* doubleSum on count pages: B_p := alpha A_p + beta B_p for m x n A_p,
 * B_p, the pages sa and sb elements apart (the geadd op: count 1);
 * beta == 0: B is not read; alpha == 0: A is not read (alpha and beta
 * real: their real parts for a complex T).  The columns of all pages, n a
 * page, as one range of n count columns.  Any 2-D group shape. */
QRU_KERNEL void qru_geadd(int m, int n, int count, T alpha,
                          QRU_GLOBAL const T *A, long oa, int lda, long sa,
                          T beta, QRU_GLOBAL T *B, long ob, int ldb, long sb)
{
    long cols = (long)n * count;
    QRU_R al = QRU_RE(alpha), be = QRU_RE(beta);
    for (long c = QRU_GID_Y; c < cols; c += QRU_LSIZE_Y * QRU_NGROUPS_Y) {
        long pg = c / n;
        int j = (int)(c - pg * n);
        long pa = oa + pg * sa, pb0 = ob + pg * sb;
        for (int i = QRU_GID_X; i < m; i += QRU_LSIZE_X * QRU_NGROUPS_X) {
            long pb = QRU_IDX(pb0, i, j, ldb);
            T r = (T)0;
            if (al != (QRU_R)0)
                r = al * A[QRU_IDX(pa, i, j, lda)];
            if (be != (QRU_R)0)
                r = al != (QRU_R)0 ? r + be * B[pb] : be * B[pb];
            B[pb] = r;
        }
    }
}

/* ---- fused Givens sweeps -------------------------------------
 * The staggered sweeps of the givens_sweeps op (src/qru_ops.h): step t (0 <= t <= L+p-2) holds
 * the sweeps jlo .. jlo+cnt-1, jlo = max(0, t-L+1), cnt = min(t, p-1) -
 * jlo + 1, whose rotations act on the column pairs (i0-1+2q, i0+2q),
 * i0 = L + 2 jlo - t.  cs holds them step by step; the rotations before
 * step t number QRU_SWEEP_TOFF(L, p, t). */
#define QRU_SWEEP_TOFF(L, p, t)                                                \
    (((long)(t) <= (long)(p)                                                   \
          ? (long)(t) * ((long)(t) + 1) / 2                                    \
          : (long)(p) * ((long)(p) + 1) / 2 + ((long)(t) - (p)) * (long)(p)) - \
     ((long)(t) <= (long)(L)                                                   \
          ? 0L                                                                 \
          : ((long)(t) - (L)) * ((long)(t) - (L) + 1) / 2))

/* Step t of the staggered sweeps (t < nsteps = L + p - 1): the first
 * sweep lo, the count cnt, the column i0 of the first rotation's pair
 * (i0 - 1, i0) and the window [a, b] of the columns the step touches;
 * for t = nsteps an empty step with an empty window (cnt = 0, b < a). */
QRU_DEVICE_PLAIN void qru_sweep_at(int L, int p, int t, int nsteps, int *lo,
                                   int *cnt, int *i0, int *a, int *b)
{
    *lo = 0;
    *cnt = 0;
    *i0 = 0;
    *a = 0;
    *b = -1;
    if (t < nsteps) {
        *lo = t - L + 1 > 0 ? t - L + 1 : 0;
        int hi = t < p - 1 ? t : p - 1;
        *cnt = hi - *lo + 1;
        *i0 = L + 2 * *lo - t;
        *a = *i0 - 1;
        *b = *i0 - 2 + 2 * *cnt;
    }
}

/* Accumulation group g of ab u-values: u = uhi - bb + 1 .. uhi, uhi =
 * L - g ab, its matrix acting on the local columns base = uhi - bb ..;
 * 0 if the group is empty. */
QRU_DEVICE_PLAIN int qru_accum_group(int L, int ab, int g, int *uhi, int *bb,
                                     int *base)
{
    *uhi = L - g * ab;
    if (*uhi < 1)
        return 0;
    int ulo = *uhi - ab + 1 > 1 ? *uhi - ab + 1 : 1;
    *bb = *uhi - ulo + 1;
    *base = ulo - 1;
    return 1;
}

/* Step s of accumulation group uhi (bb u-values): the sweeps qlo .. qhi,
 * the column i0 zeroed by sweep qlo, and the offset in cs (elements, from
 * ocs) of its first rotation (the global step L - uhi + s). */
QRU_DEVICE_PLAIN void qru_accum_step(int L, int p, int uhi, int bb, int s,
                                     long ocs, int *qlo, int *qhi, int *i0,
                                     long *coff)
{
    *qlo = s - bb + 1 > 0 ? s - bb + 1 : 0;
    *qhi = s < p - 1 ? s : p - 1;
    *i0 = uhi + 2 * *qlo - s;
    int t = L - uhi + s;
    int jlo = t - L + 1 > 0 ? t - L + 1 : 0;
    *coff = ocs + 2 * (QRU_SWEEP_TOFF(L, p, t) + (*qlo - jlo));
}

/* Teams of the sweeps kernels: QRU_SWEEP_TEAM items take a rotation
 * (CUDA: 8 lanes of a warp, cuda/cuda_update.cu; OpenCL: one item);
 * QRU_SWEEP_SYNC orders the accesses of a team. */
#ifndef QRU_SWEEP_TEAM
#define QRU_SWEEP_TEAM QRU_TEAM
#define QRU_SWEEP_SYNC QRU_TEAM_SYNC
#endif

/* makeGivens for the sweeps: c = a / r, s = b / r, r = |(a, b)|, with one
 * square root and one division where a^2 + b^2 can neither overflow nor
 * lose everything to underflow, else scaled by max(|a|, |b|) as
 * qru_givens_make (c = 1, s = 0 for b = 0; a NaN propagates).  A complex
 * T takes qru_givens_make's formula itself (zlartg's: c real, s complex),
 * so that the fused sweeps form the rotations of the reference op. */
#define QRU_GIV_LO ((QRU_R)(sizeof(QRU_R) == 8 ? 1e-280 : 1e-30))
#define QRU_GIV_HI ((QRU_R)(sizeof(QRU_R) == 8 ? 1e280 : 1e30))
QRU_DEVICE void qru_sweep_cs(T a, T b, T *c, T *s)
{
    *c = QRU_MKR(1);
    *s = (T)0;
    if (QRU_ISZERO(b))
        return;
    if (QRU_CPLX) {
        QRU_R fa = QRU_ABS(a), fb = QRU_ABS(b);
        QRU_R big = fa > fb ? fa : fb;
        QRU_R ra = fa / big, rb = fb / big;
        QRU_R r = big * QRU_SQRT(ra * ra + rb * rb);
        if (fa == (QRU_R)0) {
            *c = (T)0;
            *s = QRU_CONJ(b) / fb;
        } else {
            *c = QRU_MKR(fa / r);
            *s = QRU_MUL(a / fa, QRU_CONJ(b)) / r;
        }
        return;
    }
    QRU_R ss = QRU_ABS2(a) + QRU_ABS2(b);
    if (ss > QRU_GIV_LO && ss < QRU_GIV_HI) {
        QRU_R ir = (QRU_R)1 / QRU_SQRT(ss);
        *c = a * ir;
        *s = b * ir;
    } else {
        QRU_R fa = QRU_ABS(a), fb = QRU_ABS(b);
        QRU_R big = fa > fb ? fa : fb;
        T ra = a / big, rb = b / big;
        QRU_R r = big * QRU_SQRT(QRU_ABS2(ra) + QRU_ABS2(rb));
        *c = a / r;
        *s = b / r;
    }
}

/* A rotation (c, s) of the sweeps (c real, stored as a T) on the pair
 * (x, y), as qru_givens_apply: x := c x + s y (qru_rot_x), y := c y -
 * conj(s) x (qru_rot_y); qru_rot_skip: c = 1, s = 0, which the kernels
 * skip (x and y unchanged). */
QRU_DEVICE int qru_rot_skip(T c, T s)
{
    return QRU_RE(c) == (QRU_R)1 && QRU_ISZERO(s);
}
QRU_DEVICE T qru_rot_x(T c, T s, T x, T y)
{
    return QRU_RE(c) * x + QRU_MUL(s, y);
}
QRU_DEVICE T qru_rot_y(T c, T s, T x, T y)
{
    return QRU_RE(c) * y - QRU_CMUL(s, x);
}

/* All the steps in ONE work-group (a barrier between steps): with make,
 * rotation q of a step is formed from X(jlo+q, i0-1+2q), X(jlo+q, i0+2q)
 * (makeGivens) and stored in cs, else read from cs; then it is applied to
 * the rows r0 .. nr-1 of its column pair (r0 = jlo with from_jlo, else 0;
 * a rotation c = 1, s = 0 is skipped).  X(row, col) = X[ox + row xrs +
 * col xcs].  A team (QRU_SWEEP_TEAM items) takes a rotation: it forms it (every
 * item the same), then rotates its rows. */
QRU_KERNEL void qru_givens_sweeps(int L, int p, int make, QRU_GLOBAL T *X,
                                  long ox, long xrs, long xcs, int nr,
                                  int from_jlo, QRU_GLOBAL T *cs, long ocs)
{
    int lid = QRU_LID_X;
    int team = lid / QRU_SWEEP_TEAM, lane = lid % QRU_SWEEP_TEAM;
    int nteam = QRU_LSIZE_X / QRU_SWEEP_TEAM;
    int nsteps = L > 0 ? L + p - 1 : 0;
    long off = 0;
    for (int t = 0; t < nsteps; ++t) {
        int lo = t - L + 1 > 0 ? t - L + 1 : 0;
        int hi = t < p - 1 ? t : p - 1;
        int cnt = hi - lo + 1, i0 = L + 2 * lo - t;
        int r0 = from_jlo ? lo : 0;
        for (int q = team; q < cnt; q += nteam) {
            long pa = ox + (long)(i0 - 1 + 2 * q) * xcs, pb = pa + xcs;
            long pc = ocs + 2 * (off + q);
            T c = QRU_MKR(1), s = (T)0;
            if (make) {
                long pj = (long)(lo + q) * xrs;
                qru_sweep_cs(X[pa + pj], X[pb + pj], &c, &s);
                QRU_SWEEP_SYNC; /* a, b read by every item of the team */
                if (lane == 0) {
                    cs[pc] = c;
                    cs[pc + 1] = s;
                }
            } else {
                c = cs[pc];
                s = cs[pc + 1];
            }
            if (qru_rot_skip(c, s))
                continue;
            for (int r = r0 + lane; r < nr; r += QRU_SWEEP_TEAM) {
                long e = (long)r * xrs;
                T x = X[pa + e], y = X[pb + e];
                X[pa + e] = qru_rot_x(c, s, x, y);
                X[pb + e] = qru_rot_y(c, s, x, y);
            }
        }
        off += cnt;
        QRU_BARRIER_GLOBAL;
    }
}

/* Moves the window of active columns of the sweeps from [a0, b0] to
 * [a, b] (column c in slot c mod W of the ring S, ld nrs): the columns
 * that leave go back to X, those that enter come from X (distinct slots:
 * both lie in a range of at most W); the rows rlo .. rhi-1 of X, in the
 * rows 0 .. rhi-rlo-1 of S, by the items lid, lid + nt, ... */
QRU_DEVICE void qru_sweeps_window(QRU_GLOBAL T *X, long ox, long xrs,
                                  long xcs, int rlo, int rhi, int W,
                                  QRU_LOCAL T *S, int nrs, int a0, int b0,
                                  int a, int b, int lid, int nt)
{
    /* leaving: [a0, b0] minus [a, b] = [a0, l1] and [l2, b0] */
    int l1 = b0 < a - 1 ? b0 : a - 1;
    int l2 = a0 > b + 1 ? a0 : b + 1;
    if (l2 <= l1)
        l2 = l1 + 1;
    for (int c = a0; c <= b0; ++c) {
        if (c > l1 && c < l2) { /* the columns kept: skip them */
            c = l2 - 1;
            continue;
        }
        QRU_LOCAL T *sc = S + (long)(c % W) * nrs;
        for (int r = rlo + lid; r < rhi; r += nt)
            X[ox + (long)c * xcs + (long)r * xrs] = sc[r - rlo];
    }
    /* entering: [a, b] minus [a0, b0] = [a, e1] and [e2, b] */
    int e1 = b < a0 - 1 ? b : a0 - 1;
    int e2 = a > b0 + 1 ? a : b0 + 1;
    if (e2 <= e1)
        e2 = e1 + 1;
    for (int c = a; c <= b; ++c) {
        if (c > e1 && c < e2) {
            c = e2 - 1;
            continue;
        }
        QRU_LOCAL T *sc = S + (long)(c % W) * nrs;
        for (int r = rlo + lid; r < rhi; r += nt)
            sc[r - rlo] = X[ox + (long)c * xcs + (long)r * xrs];
    }
}

/* The same steps with the active columns in local memory.  The columns a
 * step touches, [i0 - 1, i0 - 2 + 2 cnt], form a window whose edges move by
 * one column a step and whose width is at most 2 min(p, L), so a circular
 * buffer of W >= 2 min(p, L) + 2 columns (column c in slot c mod W, all nr
 * rows) holds it: each step stores the columns that leave the window and
 * loads those that enter it (one or two each), then rotates in local
 * memory; at the end the last window is stored.  The rotations, their order
 * and their arithmetic are those of qru_givens_sweeps. */
QRU_DEVICE void qru_sweeps_lds_body(int L, int p, int make,
                                    QRU_GLOBAL T *X, long ox, long xrs,
                                    long xcs, int nr, int from_jlo,
                                    QRU_GLOBAL T *cs, long ocs, int W,
                                    QRU_LOCAL T *S)
{
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int team = lid / QRU_SWEEP_TEAM, lane = lid % QRU_SWEEP_TEAM;
    int nteam = nt / QRU_SWEEP_TEAM;
    int nsteps = L > 0 ? L + p - 1 : 0;
    int a0 = 0, b0 = -1; /* the previous window (empty) */
    long off = 0;
    for (int t = 0; t <= nsteps; ++t) {
        int lo, cnt, i0, a, b;
        qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &b);
        qru_sweeps_window(X, ox, xrs, xcs, 0, nr, W, S, nr, a0, b0, a, b, lid,
                          nt);
        if (t == nsteps)
            break;
        QRU_BARRIER_GLOBAL;
        int r0 = from_jlo ? lo : 0;
        for (int q = team; q < cnt; q += nteam) {
            int ca = i0 - 1 + 2 * q;
            QRU_LOCAL T *xa = S + (long)(ca % W) * nr;
            QRU_LOCAL T *xb = S + (long)((ca + 1) % W) * nr;
            long pc = ocs + 2 * (off + q);
            T c = QRU_MKR(1), s = (T)0;
            if (make) {
                qru_sweep_cs(xa[lo + q], xb[lo + q], &c, &s);
                QRU_SWEEP_SYNC;
                if (lane == 0) {
                    cs[pc] = c;
                    cs[pc + 1] = s;
                }
            } else {
                c = cs[pc];
                s = cs[pc + 1];
            }
            if (qru_rot_skip(c, s))
                continue;
            for (int r = r0 + lane; r < nr; r += QRU_SWEEP_TEAM) {
                T x = xa[r], y = xb[r];
                xa[r] = qru_rot_x(c, s, x, y);
                xb[r] = qru_rot_y(c, s, x, y);
            }
        }
        off += cnt;
        QRU_BARRIER_GLOBAL;
        a0 = a;
        b0 = b;
    }
}

/* ---- the sweeps as a chain of rows (make, nr = p) ----------------------
 * Row r of X meets only the rotations of the sweeps j <= r (where sweep j
 * acts, the rows above j are zero), and at step t only the columns
 * [a, L + 2 min(r, hi) - t] of the step's window [a, b]: row r keeps them
 * in a ring of 2 r + 3 slots of local memory (column c in slot c mod
 * (2 r + 3), the ring at r (r + 2); p (p + 2) elements for all rows).  A
 * step: the item of row r moves its window (stores the columns that
 * leave, loads those that enter) and, if row r is a sweep of the step,
 * forms its rotation into R (2 cnt elements, local) and cs; barrier;
 * every (rotation q, row r >= lo + q) pair is applied (the work of a
 * step, about p cnt / 2 pairs, spread evenly), barrier.  The work of a step is about p cnt / 2 element pairs in local
 * memory instead of p cnt, and the window of all rows p^2 elements
 * instead of 2 p^2.  Same rotations, order (per element) and arithmetic
 * as qru_givens_sweeps on the rows r >= the sweep (the others are zero
 * there and stay zero). */
QRU_DEVICE_PLAIN void qru_chain_window(int L, int p, int t, int nsteps,
                                       int r, int *wa, int *wb)
{
    int lo, cnt, i0, a, b;
    *wa = 0;
    *wb = -1;
    if (t < 0)
        return;
    qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &b);
    if (cnt == 0 || r < lo)
        return;
    int m = r < lo + cnt - 1 ? r : lo + cnt - 1;
    *wa = a;
    *wb = L + 2 * m - t;
}

/* X(r, c) <-> ring slot of row r for the columns c0 .. c1 (to_x: store). */
QRU_DEVICE void qru_chain_move(QRU_GLOBAL T *X, long xr, long xcs,
                               QRU_LOCAL T *ring, int W, int c0, int c1,
                               int to_x)
{
    for (int c = c0; c <= c1; ++c) {
        if (to_x)
            X[xr + (long)c * xcs] = ring[c % W];
        else
            ring[c % W] = X[xr + (long)c * xcs];
    }
}

/* qru_chain_move for the columns [fa, fb] minus [ga, gb]. */
QRU_DEVICE void qru_chain_diff(QRU_GLOBAL T *X, long xr, long xcs,
                               QRU_LOCAL T *ring, int W, int fa, int fb,
                               int ga, int gb, int to_x)
{
    if (gb < ga) {
        qru_chain_move(X, xr, xcs, ring, W, fa, fb, to_x);
        return;
    }
    qru_chain_move(X, xr, xcs, ring, W, fa, fb < ga - 1 ? fb : ga - 1, to_x);
    qru_chain_move(X, xr, xcs, ring, W, fa > gb + 1 ? fa : gb + 1, fb, to_x);
}

/* Phase 1 of a chain step, rows rlo .. rhi-1 (their rings from S, row r
 * at r (r + 2) - rlo (rlo + 2)), item r - rlo for row r: move the row's
 * window from step t - 1 to step t and, if row r is the sweep lo + q of
 * the step, form its rotation into R[2 q] (and cs).  No barrier inside:
 * each row is moved and read by one item.  (Loading the entering columns
 * a step ahead is no faster.) */
QRU_DEVICE void qru_chain_move_make(int L, int p, int t, int nsteps, int rlo,
                                    int rhi, QRU_GLOBAL T *X, long ox,
                                    long xrs, long xcs, QRU_GLOBAL T *cs,
                                    long ocs, long off, QRU_LOCAL T *S,
                                    QRU_LOCAL T *R)
{
    int lo, cnt, i0, a, b;
    qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &b);
    long s0 = (long)rlo * (rlo + 2);
    for (int r = rlo + QRU_LID_X; r < rhi; r += QRU_LSIZE_X) {
        int pa, pb, na, nb, W = 2 * r + 3;
        QRU_LOCAL T *ring = S + (long)r * (r + 2) - s0;
        long xr = ox + (long)r * xrs;
        qru_chain_window(L, p, t - 1, nsteps, r, &pa, &pb);
        qru_chain_window(L, p, t, nsteps, r, &na, &nb);
        /* leaving: [pa, pb] minus [na, nb]; then entering */
        qru_chain_diff(X, xr, xcs, ring, W, pa, pb, na, nb, 1);
        qru_chain_diff(X, xr, xcs, ring, W, na, nb, pa, pb, 0);
        int q = r - lo;
        if (q >= 0 && q < cnt) {
            int ca = i0 - 1 + 2 * q;
            T c, sn;
            qru_sweep_cs(ring[ca % W], ring[(ca + 1) % W], &c, &sn);
            R[2 * q] = c;
            R[2 * q + 1] = sn;
            cs[ocs + 2 * (off + q)] = c;
            cs[ocs + 2 * (off + q) + 1] = sn;
        }
    }
}

/* Phase 2: the rotations of step t (R) on the rows rlo .. rhi-1; rows
 * rlo + g and rhi - 1 - g share nl items (about as many rotations between
 * them as any other pair), each item stepping through its rows'
 * rotations q, q + nl, ... with the ring slot advanced without a
 * division. */
QRU_DEVICE void qru_chain_apply(int L, int p, int t, int nsteps, int rlo,
                                int rhi, QRU_LOCAL T *S, QRU_LOCAL const T *R)
{
    int lo, cnt, i0, a, b;
    qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &b);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, nrow = rhi - rlo;
    int ng = (nrow + 1) / 2, nl = ng > 0 && nt / ng > 0 ? nt / ng : 1;
    long s0 = (long)rlo * (rlo + 2);
    for (int g = lid / nl; g < ng; g += nt / nl > 0 ? nt / nl : 1) {
        for (int side = 0; side < 2; ++side) {
            int r = side ? rhi - 1 - g : rlo + g;
            if (side && r == rlo + g)
                break;
            int qmax = (r < lo + cnt - 1 ? r : lo + cnt - 1) - lo;
            int W = 2 * r + 3, q = lid % nl;
            if (qmax < q)
                continue;
            QRU_LOCAL T *ring = S + (long)r * (r + 2) - s0;
            int ka = (i0 - 1 + 2 * q) % W, d = (2 * nl) % W;
            for (; q <= qmax; q += nl) {
                T c = R[2 * q], sn = R[2 * q + 1];
                int kb = ka + 1 == W ? 0 : ka + 1;
                if (!qru_rot_skip(c, sn)) {
                    T x = ring[ka], y = ring[kb];
                    ring[ka] = qru_rot_x(c, sn, x, y);
                    ring[kb] = qru_rot_y(c, sn, x, y);
                }
                ka += d;
                if (ka >= W)
                    ka -= W;
            }
        }
    }
}

/* All the steps in one work-group: phase 1 (with the final step t =
 * nsteps storing every ring), barrier, phase 2, barrier. */
QRU_DEVICE void qru_sweeps_chain_body(int L, int p, QRU_GLOBAL T *X,
                                      long ox, long xrs, long xcs,
                                      QRU_GLOBAL T *cs, long ocs,
                                      QRU_LOCAL T *S, QRU_LOCAL T *R)
{
    int nsteps = L > 0 ? L + p - 1 : 0;
    long off = 0;
    for (int t = 0; t <= nsteps; ++t) {
        qru_chain_move_make(L, p, t, nsteps, 0, p, X, ox, xrs, xcs, cs, ocs,
                            off, S, R);
        if (t == nsteps)
            break;
        QRU_BARRIER_GLOBAL;
        qru_chain_apply(L, p, t, nsteps, 0, p, S, R);
        int lo, cnt, i0, a, b;
        qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &b);
        off += cnt;
        QRU_BARRIER;
    }
}

#if defined(__OPENCL_VERSION__)
__kernel void qru_givens_sweeps_lds(int L, int p, int make, __global T *X,
                                    long ox, long xrs, long xcs, int nr,
                                    int from_jlo, __global T *cs, long ocs,
                                    int W, __local T *S)
{
    qru_sweeps_lds_body(L, p, make, X, ox, xrs, xcs, nr, from_jlo, cs, ocs,
                        W, S);
}
#endif

/* The groups of qru_upd_sweeps_apply (src/update/sweeps.c) at once: group g
 * (the y index of the work-group) covers u = ulo .. uhi, uhi = L - g ab,
 * ulo = max(1, uhi - ab + 1); its w x w orthogonal G_g (w = uhi - ulo + 1 +
 * p, at G + g ldg (ab + p), leading dimension ldg) is the identity rotated
 * from the right by the group's rotations in step order.  A row of G_g
 * only ever meets its own elements, so an item owns a row and applies all
 * of the group's rotations to it, no barrier at all. */
QRU_KERNEL void qru_givens_accum(int L, int p, int ab,
                                 QRU_GLOBAL const T *cs, long ocs,
                                 QRU_GLOBAL T *G, long og, int ldg)
{
    int g = QRU_GROUP_Y, uhi, bb, base;
    if (!qru_accum_group(L, ab, g, &uhi, &bb, &base))
        return;
    int w = bb + p;
    long og2 = og + (long)g * ldg * (ab + p);
    for (int r = QRU_GID_X; r < w; r += QRU_LSIZE_X * QRU_NGROUPS_X) {
        for (int c = 0; c < w; ++c)
            G[og2 + r + (long)c * ldg] = r == c ? QRU_MKR(1) : (T)0;
        for (int s = 0; s < bb + p - 1; ++s) {
            int qlo, qhi, i0;
            long coff;
            qru_accum_step(L, p, uhi, bb, s, ocs, &qlo, &qhi, &i0, &coff);
            for (int q = 0; q <= qhi - qlo; ++q) {
                T c = cs[coff + 2 * q], sn = cs[coff + 2 * q + 1];
                if (qru_rot_skip(c, sn))
                    continue;
                long pa = og2 + r + (long)(i0 - 1 - base + 2 * q) * ldg;
                T x = G[pa], y = G[pa + ldg];
                G[pa] = qru_rot_x(c, sn, x, y);
                G[pa + ldg] = qru_rot_y(c, sn, x, y);
            }
        }
    }
}

/* qru_givens_accum with a work-group's rows of G_g in local memory: the
 * work-group (x index) takes the rows r0 .. r0 + rb - 1 of group g's
 * matrix (S: rb x w, column-major, ld rb), an item a (row, lane) pair of
 * its QRU_LSIZE_X = rb nl items; the rotations of one group step act on
 * disjoint column pairs, so lane l takes the rotations l, l + nl, ... of
 * the step for its row, with a barrier between steps.  Same rotations,
 * order (per element) and arithmetic as qru_givens_accum. */
QRU_DEVICE void qru_givens_accum_lds_body(int L, int p, int ab,
                                          QRU_GLOBAL const T *cs, long ocs,
                                          QRU_GLOBAL T *G, long og, int ldg,
                                          int rb, QRU_LOCAL T *S)
{
    int g = QRU_GROUP_Y, uhi, bb, base;
    if (!qru_accum_group(L, ab, g, &uhi, &bb, &base))
        return;
    int w = bb + p;
    int r0 = QRU_GROUP_X * rb;
    if (r0 >= w)
        return;
    long og2 = og + (long)g * ldg * (ab + p);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int rr = lid % rb, lane = lid / rb, nl = nt / rb;
    for (int e = lid; e < w * rb; e += nt)
        S[e] = r0 + e % rb == e / rb ? QRU_MKR(1) : (T)0;
    QRU_BARRIER;
    for (int s = 0; s < bb + p - 1; ++s) {
        int qlo, qhi, i0;
        long coff;
        qru_accum_step(L, p, uhi, bb, s, ocs, &qlo, &qhi, &i0, &coff);
        for (int q = lane; q <= qhi - qlo; q += nl) {
            T c = cs[coff + 2 * q], sn = cs[coff + 2 * q + 1];
            if (qru_rot_skip(c, sn))
                continue;
            QRU_LOCAL T *xa = S + (long)(i0 - 1 - base + 2 * q) * rb + rr;
            T x = xa[0], y = xa[rb];
            xa[0] = qru_rot_x(c, sn, x, y);
            xa[rb] = qru_rot_y(c, sn, x, y);
        }
        QRU_BARRIER;
    }
    int nrow = w - r0 < rb ? w - r0 : rb;
    for (int e = lid; e < w * rb; e += nt)
        if (e % rb < nrow)
            G[og2 + r0 + e % rb + (long)(e / rb) * ldg] = S[e];
}

/* The compact-WY block reflector of a panel on a two-part matrix
 * (wy_left, src/qru_ops.h):  C := C + Y (W' C),  C = [A; B] (rows 0 ..
 * mt-1 in A, mt .. m-1 in B, m = mt + mb), Y and W m x nb (ident: Y's
 * first mt rows are the identity, mt = nb, not read).  A group takes
 * QRU_WYL_CB columns of C:
 *   1. S = W' C (nb x QRU_WYL_CB) in local memory, C and W streamed in
 *      chunks of QRU_WYL_KC rows through local memory (W transposed, its
 *      rows padded to QRU_WYL_NB + 1); an item sums S(k, c) for one k and
 *      the columns c = c1, c1 + cstep, ... (cstep = items / QRU_WYL_NB);
 *   2. C(i, :) += Y(i, :) S, a row an item (rows stride by the items;
 *      Y's loads coalesce along the rows, 16 in flight, S's are
 *      broadcasts).
 * QRU_WYL_NB and QRU_WYL_CB: src/qru_internal.h (build options on
 * OpenCL).  Needs nb <= QRU_WYL_NB and a multiple of QRU_WYL_NB items, at
 * least 2 QRU_WYL_NB (a chunk's loads: QRU_WYL_KC / 2 an item).  OpenCL
 * runs it for m <= QRU_WYL_MAX_M (W and Y are read again by every group)
 * and GEMMs beyond; CUDA runs cuBLAS (cuda/cuda_update.cu says why).  C
 * is read twice (for S, then for the update) and written once. */
#define QRU_WYL_KC 32
QRU_KERNEL void qru_wy_left(int ident, int mt, int mb, int nb, int nc,
                            QRU_GLOBAL const T *Y, long oy, int ldy,
                            QRU_GLOBAL const T *W, long ow, int ldw,
                            QRU_GLOBAL T *A, long oa, int lda,
                            QRU_GLOBAL T *B, long ob, int ldb)
{
    QRU_LOCAL_DECL(T, ws, QRU_WYL_KC * (QRU_WYL_NB + 1));
    QRU_LOCAL_DECL(T, xs, QRU_WYL_KC * QRU_WYL_CB);
    QRU_LOCAL_DECL(T, s, QRU_WYL_NB * QRU_WYL_CB);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X, m = mt + mb;
    int c0 = QRU_GROUP_X * QRU_WYL_CB;
    int cw = nc - c0 < QRU_WYL_CB ? nc - c0 : QRU_WYL_CB;
    int k = lid % QRU_WYL_NB, c1 = lid / QRU_WYL_NB,
        cstep = nt / QRU_WYL_NB;
    T acc[QRU_WYL_CB], wr[QRU_WYL_KC / 2], xr[QRU_WYL_KC * QRU_WYL_CB /
                                              (2 * QRU_WYL_NB)];
#pragma unroll
    for (int u = 0; u < QRU_WYL_CB; ++u)
        acc[u] = (T)0;
    /* a chunk's W and C into registers, every load issued before any is
     * used (nt >= 2 QRU_WYL_NB: at most QRU_WYL_KC / 2 elements of W and
     * QRU_WYL_KC QRU_WYL_CB / (2 QRU_WYL_NB) of C an item), the next
     * chunk's while the current one is summed */
#define QRU_WYL_FETCH(i0)                                                     \
    {                                                                         \
        _Pragma("unroll") for (int u = 0; u < QRU_WYL_KC / 2; ++u)            \
        {                                                                     \
            int f = lid + u * nt, ii = f % QRU_WYL_KC, kk = f / QRU_WYL_KC,   \
                i = (i0) + ii;                                                \
            wr[u] = f < QRU_WYL_KC * QRU_WYL_NB && i < m && kk < nb           \
                        ? W[QRU_IDX(ow, i, kk, ldw)]                          \
                        : (T)0;                                               \
        }                                                                     \
        _Pragma("unroll") for (int u = 0;                                     \
                               u < QRU_WYL_KC * QRU_WYL_CB / (2 * QRU_WYL_NB); \
                               ++u)                                           \
        {                                                                     \
            int f = lid + u * nt, ii = f % QRU_WYL_KC, c = f / QRU_WYL_KC,    \
                i = (i0) + ii;                                                \
            xr[u] = f >= QRU_WYL_KC * QRU_WYL_CB || i >= m || c >= cw ? (T)0  \
                    : i < mt ? A[QRU_IDX(oa, i, c0 + c, lda)]                 \
                             : B[QRU_IDX(ob, i - mt, c0 + c, ldb)];           \
        }                                                                     \
    }
    QRU_WYL_FETCH(0)
    for (int i0 = 0; i0 < m; i0 += QRU_WYL_KC) {
#pragma unroll
        for (int u = 0; u < QRU_WYL_KC / 2; ++u) {
            int f = lid + u * nt;
            if (f < QRU_WYL_KC * QRU_WYL_NB)
                ws[(f % QRU_WYL_KC) * (QRU_WYL_NB + 1) + f / QRU_WYL_KC] =
                    wr[u];
        }
#pragma unroll
        for (int u = 0; u < QRU_WYL_KC * QRU_WYL_CB / (2 * QRU_WYL_NB); ++u) {
            int f = lid + u * nt;
            if (f < QRU_WYL_KC * QRU_WYL_CB)
                xs[(f % QRU_WYL_KC) * QRU_WYL_CB + f / QRU_WYL_KC] = xr[u];
        }
        QRU_BARRIER;
        if (i0 + QRU_WYL_KC < m)
            QRU_WYL_FETCH(i0 + QRU_WYL_KC)
#pragma unroll 8
        for (int ii = 0; ii < QRU_WYL_KC; ++ii) {
            T w = ws[ii * (QRU_WYL_NB + 1) + k];
#pragma unroll
            for (int u = 0; u < QRU_WYL_CB; ++u)
                if (c1 + u * cstep < QRU_WYL_CB)
                    acc[u] +=
                        QRU_CMUL(w, xs[ii * QRU_WYL_CB + c1 + u * cstep]);
        }
        QRU_BARRIER;
    }
#undef QRU_WYL_FETCH
#pragma unroll
    for (int u = 0; u < QRU_WYL_CB; ++u)
        if (c1 + u * cstep < QRU_WYL_CB)
            s[k * QRU_WYL_CB + c1 + u * cstep] = acc[u];
    QRU_BARRIER;
    /* C(i, :) += Y(i, :) S, Y's row in batches of 16 loads in flight */
    for (int i = lid; i < m; i += nt) {
        T d[QRU_WYL_CB];
#pragma unroll
        for (int c = 0; c < QRU_WYL_CB; ++c)
            d[c] = ident && i < mt ? s[i * QRU_WYL_CB + c] : (T)0;
        for (int kb = 0; kb < nb && !(ident && i < mt); kb += 16) {
            T y[16];
#pragma unroll
            for (int u = 0; u < 16; ++u)
                y[u] = kb + u < nb ? Y[QRU_IDX(oy, i, kb + u, ldy)] : (T)0;
            /* kb + u <= 63: kb < nb <= QRU_WYL_NB = 64, a multiple of 16 */
#pragma unroll
            for (int u = 0; u < 16; ++u)
#pragma unroll
                for (int c = 0; c < QRU_WYL_CB; ++c)
                    d[c] += QRU_MUL(y[u], s[(kb + u) * QRU_WYL_CB + c]);
        }
        for (int c = 0; c < cw; ++c) {
            if (i < mt)
                A[QRU_IDX(oa, i, c0 + c, lda)] += d[c];
            else
                B[QRU_IDX(ob, i - mt, c0 + c, ldb)] += d[c];
        }
    }
}

/* The kernels below take real data only (QRU_CPLX_PROG: the OpenCL
 * program of a complex type leaves them out; their ops refuse complex
 * data). */
#ifndef QRU_CPLX_PROG

/* ---- the rotations of a structured rank-1 row update (chol_r1_rotate,
 * src/qru_ops.h) ----
 * The columns go in segments of QRU_ROTW; row i's recurrence over
 * segment z is affine in the x it enters with: x_out = a_z x_in + b_z(i),
 * so the rows and the segments run in parallel: qru_r1rot_part forms a_z
 * and b_z(i) (x_in = 0), qru_r1rot_apply composes them to the x that
 * enters its segment and replays it.  work (offset ow), with S segments:
 * c (m), s (m), a (S), b (S x n), v (S x n: each segment's last value of
 * X, read before a shifted Y overwrites it), x0 (n: a copy of xin, which
 * a shifted Y may overwrite). */
#define QRU_ROTW 32 /* QRU_CHOL_R1_ROTW */
#ifndef QRU_RED /* as in qru_base.cl */
#define QRU_RED 256
#endif

/* c_j = sqrt(t_{j-1} / t_j), s_j = p_j / sqrt(t_j), p_j = alpha
 * p[j incp]: ONE work-group (a
 * power of two items up to QRU_RED), item l takes the l-th run of the
 * columns: its sum of p_j^2, a scan of the sums, then t_j along its run. */
QRU_KERNEL void qru_r1rot_cs(int m, T alpha, QRU_GLOBAL const T *p, long op,
                             int incp, QRU_GLOBAL T *work, long ow)
{
    QRU_LOCAL_DECL(T, sc, QRU_RED);
    int lid = QRU_LID_X, nt = QRU_LSIZE_X;
    int seg = (m + nt - 1) / nt, j0 = lid * seg;
    int j1 = j0 + seg < m ? j0 + seg : m;
    T s = (T)0;
    for (int j = j0; j < j1; ++j) {
        T pj = alpha * p[op + (long)j * incp];
        s += pj * pj;
    }
    sc[lid] = s;
    QRU_BARRIER;
    for (int h = 1; h < nt; h <<= 1) { /* inclusive scan */
        T a = lid >= h ? sc[lid - h] : (T)0;
        QRU_BARRIER;
        sc[lid] += a;
        QRU_BARRIER;
    }
    T t = (T)1 + (lid > 0 ? sc[lid - 1] : (T)0);
    for (int j = j0; j < j1; ++j) {
        T pj = alpha * p[op + (long)j * incp], sq = QRU_SQRT(t);
        t += pj * pj;
        T st = QRU_SQRT(t);
        work[ow + j] = sq / st;
        work[ow + m + j] = pj / st;
    }
}

/* Item (row i, segment z) of an n x S grid. */
QRU_KERNEL void qru_r1rot_part(int n, int m, QRU_GLOBAL const T *X, long ox,
                               int ldx, QRU_GLOBAL const T *xin, long oxi,
                               QRU_GLOBAL T *work, long ow)
{
    int i = QRU_GID_X, z = QRU_GID_Y;
    int S = (m + QRU_ROTW - 1) / QRU_ROTW;
    if (i >= n || z >= S)
        return;
    long A = ow + 2 * (long)m, B = A + S, V = B + (long)S * n,
         X0 = V + (long)S * n;
    int j0 = z * QRU_ROTW, j1 = j0 + QRU_ROTW < m ? j0 + QRU_ROTW : m;
    T b = (T)0, a = (T)1, v = (T)0;
    for (int j = j0; j < j1; ++j) {
        v = X[ox + (long)i + (long)j * ldx];
        T c = work[ow + j], s = work[ow + m + j];
        b = c * b - s * v;
        a *= c;
    }
    work[B + (long)z * n + i] = b;
    work[V + (long)z * n + i] = v;
    if (i == 0)
        work[A + z] = a;
    if (z == 0)
        work[X0 + i] = xin[oxi + i];
}

QRU_KERNEL void qru_r1rot_apply(int n, int m, QRU_GLOBAL const T *X, long ox,
                                int ldx, QRU_GLOBAL T *Y, long oy, int ldy,
                                QRU_GLOBAL T *xout, long oxo,
                                QRU_GLOBAL const T *work, long ow)
{
    int i = QRU_GID_X, z = QRU_GID_Y;
    int S = (m + QRU_ROTW - 1) / QRU_ROTW;
    if (i >= n || z >= S)
        return;
    long A = ow + 2 * (long)m, B = A + S, V = B + (long)S * n,
         X0 = V + (long)S * n;
    int j0 = z * QRU_ROTW, j1 = j0 + QRU_ROTW < m ? j0 + QRU_ROTW : m;
    T x = work[X0 + i];
    for (int q = 0; q < z; ++q)
        x = work[A + q] * x + work[B + (long)q * n + i];
    for (int j = j0; j < j1; ++j) {
        T v = j == j1 - 1 ? work[V + (long)z * n + i]
                          : X[ox + (long)i + (long)j * ldx];
        T c = work[ow + j], s = work[ow + m + j];
        Y[oy + (long)i + (long)j * ldy] = c * v + s * x;
        x = c * x - s * v;
    }
    if (z == S - 1)
        xout[oxo + i] = x;
}

#endif /* QRU_CPLX_PROG */

#endif /* QRU_UPDATE_CL */
