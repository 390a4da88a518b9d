/*
 * chol_update_batch on LN lanes a problem, 32 / LN problems a warp
 * (CUDA only; included by cuda/cuda_batch.cu after kernels/qru_batch.cl,
 * whose rotation modulus qru_rot_r it uses): the op's contract for orders
 * n <= LN RPL and ranks k <= KM, with nothing in shared memory but the
 * rotations and no block barrier.  Rank 1 takes the structured pass
 * below (qru_chol_update_struct), ranks 2 to 4 the rotations.
 *
 *   - Lane l of a problem owns the rows i = l + LN r (r < RPL) of the
 *     lower factor L (of R' for the upper one) and holds their rows of W
 *     (the problem's rank kb <= KM columns) in registers.  A warp's
 *     problems take the same steps (their order is the batch's), so the
 *     shuffles, LN lanes wide, are reached by every lane.
 *   - The factor streams through the warp column by column: column j of L
 *     (lower: down the column, one coalesced load a lane; upper: row j of
 *     R, each lane down its own column of R), read one column ahead.
 *   - Column j: the owner of row j broadcasts its pivot a = L(j,j) and its
 *     w(j, 0:kb-1); every lane of the problem forms the same kb
 *     rotations from them (qru_rot_r, c = r / a, s = w / a, a / r, as
 *     the work-group body's rotations) and turns its L(i,j), i > j, and
 *     w(i,:) by them.
 *   - Two sweeps.  The first writes nothing but the rotations, into the
 *     problem's slice of shared memory: it gives the pivots and the
 *     diagonal of A1 = L L' + sign W W' (the rows' sums of squares met on
 *     the way), then the verdict, the first column (1-based) whose
 *     rotation fails (r = 0) or whose pivot breaks the rule (d =
 *     L1(j,j)^2 finite, A1(j,j) finite, d > n eps max finite diag(A1)), a
 *     minimum over the problem's lanes.  The second runs only where the
 *     verdict is 0 and the problem takes part: it applies the kept
 *     rotations (no chain from column to column) and stores L1, so a
 *     failing problem's page is never written, and L1 may be L.
 */

#include <cuda_pipeline.h>

/* The row slot r of a lane's registers v (r a run-time value): a select
 * over the unrolled slots, so v stays in registers. */
template <typename T, int RPL>
__device__ __forceinline__ T team_slot(const T (&v)[RPL], int r)
{
    T x = v[0];
#pragma unroll
    for (int s = 1; s < RPL; ++s)
        if (r == s)
            x = v[s];
    return x;
}

/* Element (i, j), i >= j, of L (lower) or of R = L' (upper) in a page. */
__device__ __forceinline__ long team_at(int upper, int i, int j, int ld)
{
    return upper ? (long)j + (long)i * ld : (long)i + (long)j * ld;
}

/* Columns of the factor a lane has in flight ahead of the one it turns. */
#define QRU_TEAM_AHEAD 4

/* The kb rotations of column j from the pivot a and the owner's w(j,:)
 * (the slots after kb: the identity): rot[3 q .. 3 q + 2] = c, s, a / r
 * with r = sqrt(a^2 + sign w^2), as qru_rot_r and the work-group body;
 * one reciprocal square root and one reciprocal where a^2 + sign w^2 needs
 * no scaling.  Returns the new pivot; *fail where a rotation fails
 * (r = 0, the downdate's a^2 - w^2 <= 0). */
template <typename T, int KM>
__device__ __forceinline__ T team_rot(T a, const T (&wj)[KM], int kb,
                                      int sign, T (&rot)[3 * KM], int *fail)
{
#pragma unroll
    for (int q = 0; q < KM; ++q) {
        rot[3 * q] = (T)1;
        rot[3 * q + 1] = (T)0;
        rot[3 * q + 2] = (T)1;
        if (q < kb && !*fail) {
            T h = sign > 0 ? a * a + wj[q] * wj[q]
                           : (a - wj[q]) * (a + wj[q]);
            T ia = (T)1 / a, rr, f;
            if (h > QRU_RANGE_LO && h < QRU_RANGE_HI && a != (T)0) {
                T inv = QRU_RSQRT(h);
                rr = h * inv;
                f = a * inv;
            } else {
                rr = qru_rot_r<T>(a, wj[q], sign);
                f = a / rr;
            }
            if (rr == (T)0 || !(rr - rr == (T)0)) {
                *fail = 1;
            } else {
                rot[3 * q] = rr * ia;
                rot[3 * q + 1] = wj[q] * ia;
                rot[3 * q + 2] = f;
                a = rr;
            }
        }
    }
    return a;
}

/* One sweep over the problem at L + pl (ld ldl).  The first (first 1)
 * forms each column's rotations from the owner's pivot and w(j,:), keeps
 * them in the warp's slice of shared memory (rs: n KM triples), and
 * returns in piv / bad the new pivot of each of the lane's rows and
 * whether its rotation failed, in s2 ||L(i,:)||^2; it writes nothing.
 * The second takes the rotations from rs (no chain from column to
 * column: each lane's rows are independent) and stores L1 + p1 (ld ld1).
 * w: the lane's rows of W, turned in place.  The factor's columns are
 * read QRU_TEAM_AHEAD ahead. */
template <typename T, int RPL, int KM, int LN>
__device__ __forceinline__ void team_sweep(int upper, int n, int kb, int sign,
                                           int lane, const T *L, long pl,
                                           int ldl, T *L1, long p1, int ld1,
                                           int first, T *rs,
                                           T (&w)[RPL][KM], T (&piv)[RPL],
                                           int (&bad)[RPL], T (&s2)[RPL])
{
    const int D = QRU_TEAM_AHEAD;
    T sg = sign > 0 ? (T)1 : (T)-1;
    T buf[D][RPL];
#pragma unroll
    for (int d = 0; d < D; ++d)
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            buf[d][r] = d < n && i < n && i >= d
                            ? L[pl + team_at(upper, i, d, ldl)]
                            : (T)0;
        }
#pragma unroll
    for (int r = 0; r < RPL && first; ++r) {
        s2[r] = (T)0;
        piv[r] = (T)0;
        bad[r] = 0;
    }
    int fail = 0;
    for (int j0 = 0; j0 < n; j0 += D) {
#pragma unroll
        for (int d = 0; d < D; ++d) {
            int j = j0 + d;
            if (j >= n)
                break;
            T cur[RPL];
#pragma unroll
            for (int r = 0; r < RPL; ++r) {
                int i = lane + LN * r;
                cur[r] = buf[d][r];
                buf[d][r] = i < n && i >= j + D
                                ? L[pl + team_at(upper, i, j + D, ldl)]
                                : (T)0;
                if (first && i >= j)
                    s2[r] += cur[r] * cur[r];
            }
            T rot[3 * KM], a;
            int oj = j % LN, rj = j / LN;
            if (first) {
                T wj[KM];
#pragma unroll
                for (int q = 0; q < KM; ++q) {
                    T v = (T)0;
#pragma unroll
                    for (int r = 0; r < RPL; ++r)
                        if (r == rj)
                            v = w[r][q];
                    wj[q] = __shfl_sync(0xffffffffu, v, oj, LN);
                }
                a = __shfl_sync(0xffffffffu, team_slot<T, RPL>(cur, rj), oj,
                                LN);
                a = team_rot<T, KM>(a, wj, kb, sign, rot, &fail);
                if (lane == 0)
#pragma unroll
                    for (int e = 0; e < 3 * KM; ++e)
                        rs[j * 3 * KM + e] = rot[e];
            } else {
#pragma unroll
                for (int e = 0; e < 3 * KM; ++e)
                    rot[e] = rs[j * 3 * KM + e];
                a = (T)0; /* the owner stores its pivot of the first */
            }
#pragma unroll
            for (int r = 0; r < RPL; ++r) {
                int i = lane + LN * r;
                T lj = cur[r];
                if (i == j) {
                    if (first) {
                        piv[r] = a;
                        bad[r] = fail;
                    } else {
                        L1[p1 + team_at(upper, j, j, ld1)] = piv[r];
                    }
                } else if (i > j && i < n) {
#pragma unroll
                    for (int q = 0; q < KM; ++q)
                        if (q < kb) {
                            T c = rot[3 * q], s = rot[3 * q + 1],
                              f = rot[3 * q + 2];
                            lj = (lj + sg * s * w[r][q]) * f;
                            w[r][q] = c * w[r][q] - s * lj;
                        }
                    if (!first)
                        L1[p1 + team_at(upper, i, j, ld1)] = lj;
                }
            }
        }
    }
}

/* The lane's rows of W's first kb columns (0 elsewhere). */
template <typename T, int RPL, int KM, int LN>
__device__ __forceinline__ void team_load_w(int n, int kb, int lane,
                                            const T *W, long pw, int ldw,
                                            T (&w)[RPL][KM])
{
#pragma unroll
    for (int r = 0; r < RPL; ++r)
#pragma unroll
        for (int q = 0; q < KM; ++q) {
            int i = lane + LN * r;
            w[r][q] = i < n && q < kb ? W[pw + i + (long)q * ldw] : (T)0;
        }
}

/* n eps times the largest finite ai(r) of the problem's rows (the rule's
 * tolerance from A1's diagonal; rows past n left out), on every lane of
 * the problem. */
template <typename T, int RPL, int LN>
__device__ __forceinline__ T team_tol(int n, int lane, T eps,
                                      const T (&ai)[RPL])
{
    T amax = (T)0;
#pragma unroll
    for (int r = 0; r < RPL; ++r)
        if (lane + LN * r < n && ai[r] - ai[r] == (T)0 && ai[r] > amax)
            amax = ai[r];
#pragma unroll
    for (int o = LN / 2; o > 0; o >>= 1) {
        T v = __shfl_xor_sync(0xffffffffu, amax, o, LN);
        amax = v > amax ? v : amax; /* finite values only */
    }
    return (T)n * eps * amax;
}

/* The problem's first failing row from each lane's own (n + 1 where
 * none), on every lane: the verdict, that row + 1, or 0. */
template <int LN> __device__ __forceinline__ int team_first(int n, int first)
{
#pragma unroll
    for (int o = LN / 2; o > 0; o >>= 1) {
        int v = __shfl_xor_sync(0xffffffffu, first, o, LN);
        first = v < first ? v : first;
    }
    return first < n ? first + 1 : 0;
}

template <typename T, int RPL, int KM, int LN>
__global__ void __launch_bounds__(128)
    qru_chol_update_team(int upper, int n, int k, int sign, int count, T eps,
                         const T *L, long ol, int ldl, long sl, const T *W,
                         long ow, int ldw, long sw, T *L1, long o1, int ld1,
                         long s1, T *info, long oi, const T *cnt, long oc,
                         int hc)
{
    extern __shared__ __align__(16) unsigned char qru_team_smem_[];
    /* LN lanes a problem, 32 / LN problems a warp: a warp's problems run
     * the same steps (their order is the batch's), so its shuffles are
     * reached by every lane; a slot past the batch's end follows the
     * warp's first problem and writes nothing */
    int lane = threadIdx.x % LN, slot = threadIdx.x / LN,
        teams = blockDim.x / LN;
    T *rs = (T *)qru_team_smem_ + (long)slot * n * 3 * KM;
    for (int b0 = blockIdx.x * teams + slot / (32 / LN) * (32 / LN);
         b0 < count; b0 += gridDim.x * teams) {
        int b = b0 + slot % (32 / LN), act = b < count;
        if (!act)
            b = b0;
        int kb = hc ? (int)cnt[oc + b] : k;
        long pl = ol + (long)b * sl, pw = ow + (long)b * sw;
        T w[RPL][KM], sw2[RPL];
        team_load_w<T, RPL, KM, LN>(n, kb, lane, W, pw, ldw, w);
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            sw2[r] = (T)0;
#pragma unroll
            for (int q = 0; q < KM; ++q)
                sw2[r] += w[r][q] * w[r][q];
        }
        T piv[RPL], s2[RPL];
        int bad[RPL];
        team_sweep<T, RPL, KM, LN>(upper, n, kb, sign, lane, L, pl, ldl, L1,
                                   0, 0, 1, rs, w, piv, bad, s2);
        /* the verdict: tol from the largest finite diagonal of A1 */
        T ai[RPL];
#pragma unroll
        for (int r = 0; r < RPL; ++r)
            ai[r] = sign > 0 ? s2[r] + sw2[r] : s2[r] - sw2[r];
        T tol = team_tol<T, RPL, LN>(n, lane, eps, ai);
        int first = n + 1;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            T d = piv[r] * piv[r];
            if (i < n && i < first &&
                (bad[r] || !(ai[r] - ai[r] == (T)0) || !(d - d == (T)0) ||
                 !(d > tol)))
                first = i;
        }
        /* (every lane of the warp reduces: its problems' ranks differ) */
        int on = !hc || kb > 0, f1 = team_first<LN>(n, first);
        int fail = on ? f1 : 0;
        __syncwarp(); /* lane 0's rotations in rs */
        if (act && on && fail == 0) {
            team_load_w<T, RPL, KM, LN>(n, kb, lane, W, pw, ldw, w);
            team_sweep<T, RPL, KM, LN>(upper, n, kb, sign, lane, L, pl, ldl,
                                       L1, o1 + (long)b * s1, ld1, 0, rs, w,
                                       piv, bad, s2);
        }
        if (lane == 0 && act)
            info[oi + b] = (T)fail;
        __syncwarp(); /* rs is the next problem's */
    }
}

/*
 * Rank 1 (k = 1, or per-problem ranks of 0 and 1) by one structured pass
 * (the work-group body's qru_chol_batch_struct on lanes): with p = L \ w,
 * t(j) = 1 + sign sum p(0:j).^2 (t(-1) = 1),
 *   L1(i,j) = delta(j) L(i,j) + gamma(j) (w(i) - L(i,0:j) p(0:j)),
 *   L1(j,j) = delta(j) L(j,j),
 * delta(j) = sqrt(t(j) / t(j-1)), gamma(j) = sign p(j) / sqrt(t(j) t(j-1)),
 * so that L1 L1' = L L' + sign w w'.  The rows are the lanes' as above.
 *   - TL (orders up to 64): the factor's triangle comes first into a
 *     tile in the problem's slice of shared memory (packed by columns,
 *     every element in flight at once by cp.async, one wait), which
 *     both sweeps read; else they stream the factor from device memory
 *     a column at a time, four ahead.
 *   - The forward sweep solves for p: the owner of row j scales its
 *     running w(j) by 1 / L(j,j) (formed before the sweep, off the
 *     chain) and broadcasts p(j); the lanes take L(i,j) p(j) from their
 *     rows i > j.  The chain of a column is a shuffle, a multiply-add
 *     and a multiply: the rotations' square root and reciprocal are not
 *     on it.  It also sums the rows' squares (A1's diagonal, for the
 *     rule).
 *   - t is a scan over the problem's lanes (the rows in the lanes' order
 *     within a slot r, the slots in turn); each row's owner forms
 *     delta, gamma, its verdict (t(j) > 0 finite, A1(j,j) finite, the
 *     new pivot's square L(j,j)^2 t(j) / t(j-1) finite and above n eps
 *     max finite diag(A1)) and keeps p, delta, gamma in the problem's
 *     slice of shared memory; the verdict is a minimum over the lanes.
 *   - Where it is 0 the storing sweep applies the formula, each lane its
 *     rows with a running sum (no chain between lanes or columns), so a
 *     failing problem's page is never written, and L1 may be L.
 */

/* Where element (i,j), i >= j, of a factor of order n lies in a tile of
 * its lower triangle packed by columns: at team_tri(n, j) + i. */
__host__ __device__ __forceinline__ int team_tri(int n, int j)
{
    return j * n - j * (j + 1) / 2;
}

/* One sweep of the structured pass over the problem's factor: TL, from
 * its tile tl (team_tri); else at L (element (i,j) at i ri + j cj: a
 * lower page ri = 1, cj = ld, an upper one, whose rows are R's columns,
 * the other way round), its columns read QRU_TEAM_AHEAD ahead.  FIRST:
 * the forward solve (z, the lane's rows of w, turned into the
 * residuals; p(j) to pv[3 j]) and s2 the rows' sums of squares, nothing
 * written to the factor.  Else: L1 stored (ri1, cj1 as ri, cj) from p,
 * delta, gamma (ps: 3 a column), z the lane's rows of w again. */
template <typename T, int RPL, int LN, bool FIRST, bool TL>
__device__ __forceinline__ void
team_struct_sweep(int n, int lane, const T *L, long ri, long cj,
                  const T *tl, T *L1, long ri1, long cj1, const T *ps,
                  T (&z)[RPL], const T (&dinv)[RPL], T (&s2)[RPL], T *pv)
{
    const int D = QRU_TEAM_AHEAD;
    const T *src[RPL];
    T *dst[RPL];
    T buf[D][RPL];
    int bj = 0; /* column j's start in the tile, team_tri(n, j) */
#pragma unroll
    for (int r = 0; r < RPL; ++r) {
        int i = lane + LN * r;
        src[r] = L + i * ri;
        dst[r] = FIRST ? nullptr : L1 + i * ri1;
#pragma unroll
        for (int d = 0; d < D; ++d)
            buf[d][r] = !TL && i < n && i >= d ? src[r][d * cj] : (T)0;
        src[r] += D * cj;
    }
    /* the columns in runs of LN, run rr owned by the lanes' slot rr,
     * each up to a multiple of D: those past n change nothing (their
     * rows and w are 0), so that every lane takes every step */
    int nd = (n + D - 1) / D * D;
#pragma unroll
    for (int rr = 0; rr < RPL; ++rr) {
        for (int j1 = 0; j1 < LN && rr * LN + j1 < nd; j1 += D) {
#pragma unroll
            for (int d = 0; d < D; ++d) {
                int j = rr * LN + j1 + d;
                T cur[RPL];
#pragma unroll
                for (int r = 0; r < RPL; ++r) {
                    int i = lane + LN * r;
                    if constexpr (TL) {
                        cur[r] = i < n && i >= j ? tl[bj + i] : (T)0;
                    } else {
                        cur[r] = buf[d][r];
                        buf[d][r] = i < n && i >= j + D ? *src[r] : (T)0;
                        src[r] += cj;
                    }
                }
                bj += n - j - 1;
                if constexpr (FIRST) {
                    /* p(j) from its owner, lane j1 + d of the run; every
                     * lane keeps it (the same value to the same place) */
                    T pj = __shfl_sync(0xffffffffu, z[rr] * dinv[rr], j1 + d,
                                       LN);
                    if (j < n)
                        pv[3 * j] = pj;
#pragma unroll
                    for (int r = 0; r < RPL; ++r) {
                        /* (row j's own z(j) is spent: turning it is
                         * harmless) */
                        s2[r] += cur[r] * cur[r];
                        z[r] -= cur[r] * pj;
                    }
                } else if (j < n) {
                    T pj = ps[3 * j], dj = ps[3 * j + 1],
                      gj = ps[3 * j + 2];
#pragma unroll
                    for (int r = 0; r < RPL; ++r) {
                        int i = lane + LN * r;
                        z[r] -= cur[r] * pj;
                        T o = dj * cur[r];
                        T v = i == j ? o : o + gj * z[r];
                        if (i >= j && i < n)
                            *dst[r] = v;
                        dst[r] += cj1;
                    }
                }
            }
        }
    }
}

/* Elements of a problem's slice of shared memory in
 * qru_chol_update_struct: p, delta and gamma a column, then (TL) the
 * factor's tile, rounded up to an even count (16-byte slices). */
__host__ __device__ __forceinline__ int team_struct_slice(int n, int tl)
{
    int e = 3 * n + (tl ? n * (n + 1) / 2 : 0);
    return e + (e & 1);
}

template <typename T, int RPL, int LN, bool TL>
__global__ void __launch_bounds__(128, RPL >= 4 ? 4 : 5)
    qru_chol_update_struct(int upper, int n, int sign, int count, T eps,
                           const T *L, long ol, int ldl, long sl, const T *W,
                           long ow, long sw, T *L1, long o1, int ld1, long s1,
                           T *info, long oi, const T *cnt, long oc, int hc)
{
    extern __shared__ __align__(16) unsigned char qru_team_smem_[];
    /* the slots and steps as qru_chol_update_team's */
    int lane = threadIdx.x % LN, slot = threadIdx.x / LN,
        teams = blockDim.x / LN;
    T *sp = (T *)qru_team_smem_ + (long)slot * team_struct_slice(n, TL),
      *tl = sp + 3 * n; /* p, delta, gamma; the tile */
    T sg = sign > 0 ? (T)1 : (T)-1;
    /* element (i,j) of L at i ri + j cj (of L1: ri1, cj1) */
    long ri = upper ? ldl : 1, cj = upper ? 1 : ldl;
    long ri1 = upper ? ld1 : 1, cj1 = upper ? 1 : ld1;
    for (int b0 = blockIdx.x * teams + slot / (32 / LN) * (32 / LN);
         b0 < count; b0 += gridDim.x * teams) {
        int b = b0 + slot % (32 / LN), act = b < count;
        if (!act)
            b = b0;
        int kb = hc ? (int)cnt[oc + b] : 1;
        long pl = ol + (long)b * sl, pw = ow + (long)b * sw;
        if constexpr (TL) { /* the triangle in, every element in flight */
            const T *src[RPL]; /* row i's element of column c */
#pragma unroll
            for (int r = 0; r < RPL; ++r)
                src[r] = L + pl + (lane + LN * r) * ri;
            unsigned sh = (unsigned)__cvta_generic_to_shared(tl);
            for (int c = 0, bc = 0; c < n; bc += n - ++c) {
#pragma unroll
                for (int r = 0; r < RPL; ++r) {
                    int i = lane + LN * r;
                    if (i >= c && i < n)
                        asm volatile(
                            "cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(
                                sh + (unsigned)((bc + i) * sizeof(T))),
                            "l"(src[r]), "n"((int)sizeof(T))
                            : "memory");
                    src[r] += cj;
                }
            }
            __pipeline_commit();
            __pipeline_wait_prior(0);
            __syncwarp();
        }
        T z[RPL], dinv[RPL], s2[RPL];
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            z[r] = i < n && kb > 0 ? W[pw + i] : (T)0;
            dinv[r] = i >= n ? (T)1
                      : TL   ? (T)1 / tl[team_tri(n, i) + i]
                             : (T)1 / L[pl + i * (ri + cj)];
            s2[r] = (T)0;
        }
        team_struct_sweep<T, RPL, LN, true, TL>(n, lane, L + pl, ri, cj, tl,
                                                nullptr, ri1, cj1, sp, z,
                                                dinv, s2, sp);
        __syncwarp(); /* p in sp */
        /* t(j - 1) and t(j) of the lane's rows: a scan a slot */
        T t0[RPL], t1[RPL], pv[RPL], base = (T)1;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            pv[r] = i < n ? sp[3 * i] : (T)0;
            T v = sg * pv[r] * pv[r], inc = v;
#pragma unroll
            for (int o = 1; o < LN; o <<= 1) {
                T y = __shfl_up_sync(0xffffffffu, inc, o, LN);
                if (lane >= o)
                    inc += y;
            }
            T exc = __shfl_up_sync(0xffffffffu, inc, 1, LN);
            if (lane == 0)
                exc = (T)0;
            t0[r] = base + exc;
            t1[r] = base + inc;
            base += __shfl_sync(0xffffffffu, inc, LN - 1, LN);
        }
        /* the verdict: tol from the largest finite diagonal of A1 */
        T ai[RPL];
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            T w = i < n && kb > 0 ? W[pw + i] : (T)0; /* (read again) */
            ai[r] = sign > 0 ? s2[r] + w * w : s2[r] - w * w;
        }
        T tol = team_tol<T, RPL, LN>(n, lane, eps, ai);
        int first = n + 1;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + LN * r;
            if (i >= n)
                continue;
            T ljj = TL ? tl[team_tri(n, i) + i] : L[pl + i * (ri + cj)];
            T d = t1[r] / t0[r] * ljj * ljj;
            if (i < first &&
                (!(t1[r] > (T)0) || !(t1[r] - t1[r] == (T)0) ||
                 !(ai[r] - ai[r] == (T)0) || !(d - d == (T)0) || !(d > tol)))
                first = i;
            sp[3 * i + 1] = QRU_SQRT(t1[r] / t0[r]);
            sp[3 * i + 2] = sg * pv[r] / QRU_SQRT(t1[r] * t0[r]);
        }
        /* (every lane of the warp reduces: its problems' ranks differ) */
        int on = !hc || kb > 0, f1 = team_first<LN>(n, first);
        int fail = on ? f1 : 0;
        __syncwarp(); /* p, delta and gamma in sp */
        if (act && on && fail == 0) {
#pragma unroll
            for (int r = 0; r < RPL; ++r) {
                int i = lane + LN * r;
                z[r] = i < n && kb > 0 ? W[pw + i] : (T)0;
            }
            team_struct_sweep<T, RPL, LN, false, TL>(
                n, lane, L + pl, ri, cj, tl, L1 + o1 + (long)b * s1, ri1, cj1,
                sp, z, dinv, s2, sp);
        }
        if (lane == 0 && act)
            info[oi + b] = (T)fail;
        __syncwarp(); /* sp is the next problem's */
    }
}
