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

/* ---- fused Givens sweeps -------------------------------------
 * The staggered sweeps of src/qru_update.h: step t (0 <= t <= L+p-2) holds
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
 * qru_givens_make (c = 1, s = 0 for b = 0; a NaN propagates). */
#define QRU_GIV_LO ((T)(sizeof(T) == 8 ? 1e-280 : 1e-30))
#define QRU_GIV_HI ((T)(sizeof(T) == 8 ? 1e280 : 1e30))
QRU_DEVICE void qru_sweep_cs(T a, T b, T *c, T *s)
{
    *c = (T)1;
    *s = (T)0;
    if (b != (T)0) {
        T ss = a * a + b * b;
        if (ss > QRU_GIV_LO && ss < QRU_GIV_HI) {
            T ir = (T)1 / QRU_SQRT(ss);
            *c = a * ir;
            *s = b * ir;
        } else {
            T fa = QRU_FABS(a), fb = QRU_FABS(b);
            T big = fa > fb ? fa : fb;
            T ra = a / big, rb = b / big;
            T r = big * QRU_SQRT(ra * ra + rb * rb);
            *c = a / r;
            *s = b / r;
        }
    }
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
            T c = (T)1, s = (T)0;
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
            if (c == (T)1 && s == (T)0)
                continue;
            for (int r = r0 + lane; r < nr; r += QRU_SWEEP_TEAM) {
                long e = (long)r * xrs;
                T x = X[pa + e], y = X[pb + e];
                X[pa + e] = c * x + s * y;
                X[pb + e] = c * y - s * x;
            }
        }
        off += cnt;
        QRU_BARRIER_GLOBAL;
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
        int lo = 0, cnt = 0, i0 = 0, a = 0, b = -1;
        if (t < nsteps) {
            lo = t - L + 1 > 0 ? t - L + 1 : 0;
            int hi = t < p - 1 ? t : p - 1;
            cnt = hi - lo + 1;
            i0 = L + 2 * lo - t;
            a = i0 - 1;
            b = i0 - 2 + 2 * cnt;
        }
        /* columns that leave the window go back to X, those that enter come
         * from X (distinct slots: both lie in a range of at most W) */
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
            QRU_LOCAL T *sc = S + (long)(c % W) * nr;
            for (int r = lid; r < nr; r += nt)
                X[ox + (long)c * xcs + (long)r * xrs] = sc[r];
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
            QRU_LOCAL T *sc = S + (long)(c % W) * nr;
            for (int r = lid; r < nr; r += nt)
                sc[r] = X[ox + (long)c * xcs + (long)r * xrs];
        }
        if (t == nsteps)
            break;
        QRU_BARRIER_GLOBAL;
        int r0 = from_jlo ? lo : 0;
        for (int q = team; q < cnt; q += nteam) {
            int ca = i0 - 1 + 2 * q;
            QRU_LOCAL T *xa = S + (long)(ca % W) * nr;
            QRU_LOCAL T *xb = S + (long)((ca + 1) % W) * nr;
            long pc = ocs + 2 * (off + q);
            T c = (T)1, s = (T)0;
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
            if (c == (T)1 && s == (T)0)
                continue;
            for (int r = r0 + lane; r < nr; r += QRU_SWEEP_TEAM) {
                T x = xa[r], y = xb[r];
                xa[r] = c * x + s * y;
                xb[r] = c * y - s * x;
            }
        }
        off += cnt;
        QRU_BARRIER_GLOBAL;
        a0 = a;
        b0 = b;
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

/* The groups of qru_upd_sweeps_apply (src/update_fast.c) at once: group g
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
    int g = QRU_GROUP_Y;
    int uhi = L - g * ab;
    if (uhi < 1)
        return;
    int ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
    int bb = uhi - ulo + 1, w = bb + p, base = ulo - 1;
    long og2 = og + (long)g * ldg * (ab + p);
    for (int r = QRU_GID_X; r < w; r += QRU_LSIZE_X * QRU_NGROUPS_X) {
        for (int c = 0; c < w; ++c)
            G[og2 + r + (long)c * ldg] = r == c ? (T)1 : (T)0;
        for (int s = 0; s < bb + p - 1; ++s) {
            int qlo = s - bb + 1 > 0 ? s - bb + 1 : 0;
            int qhi = s < p - 1 ? s : p - 1;
            int i0 = uhi + 2 * qlo - s; /* column zeroed by sweep qlo */
            int t = L - uhi + s;        /* the global step */
            int jlo = t - L + 1 > 0 ? t - L + 1 : 0;
            long coff = ocs + 2 * (QRU_SWEEP_TOFF(L, p, t) + (qlo - jlo));
            for (int q = 0; q <= qhi - qlo; ++q) {
                T c = cs[coff + 2 * q], sn = cs[coff + 2 * q + 1];
                if (c == (T)1 && sn == (T)0)
                    continue;
                long pa = og2 + r + (long)(i0 - 1 - base + 2 * q) * ldg;
                T x = G[pa], y = G[pa + ldg];
                G[pa] = c * x + sn * y;
                G[pa + ldg] = c * y - sn * x;
            }
        }
    }
}

#endif /* QRU_UPDATE_CL */
