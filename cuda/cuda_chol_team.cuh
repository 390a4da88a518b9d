/*
 * chol_update_batch on LN lanes a problem, 32 / LN problems a warp
 * (CUDA only; included by cuda/cuda_batch.cu after kernels/qru_batch.cl,
 * whose rotation modulus qru_rot_r it uses): the op's contract for orders
 * n <= LN RPL and ranks k <= KM, with nothing in shared memory but the
 * rotations and no block barrier.
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
        T ai[RPL], amax = (T)0;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            ai[r] = sign > 0 ? s2[r] + sw2[r] : s2[r] - sw2[r];
            if (lane + LN * r < n && ai[r] - ai[r] == (T)0 && ai[r] > amax)
                amax = ai[r];
        }
#pragma unroll
        for (int o = LN / 2; o > 0; o >>= 1) {
            T v = __shfl_xor_sync(0xffffffffu, amax, o);
            amax = v > amax ? v : amax; /* finite values only */
        }
        T tol = (T)n * eps * amax;
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
#pragma unroll
        for (int o = LN / 2; o > 0; o >>= 1) {
            int v = __shfl_xor_sync(0xffffffffu, first, o);
            first = v < first ? v : first;
        }
        int on = !hc || kb > 0;
        int fail = on && first < n ? first + 1 : 0;
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
