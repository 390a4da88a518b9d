/*
 * chol_update_batch one warp a problem (CUDA only; included by
 * cuda/cuda_batch.cu after kernels/qru_batch.cl, whose rotation modulus
 * qru_rot_r it uses): the op's contract for orders n <= 32 RPL and ranks
 * k <= KM, with nothing in shared memory and no block barrier.
 *
 *   - Lane l owns the rows i = l + 32 r (r < RPL) of the lower factor L
 *     (of R' for the upper one) and holds their rows of W (the problem's
 *     rank kb <= KM columns) in registers.
 *   - The factor streams through the warp column by column: column j of L
 *     (lower: down the column, one coalesced load a lane; upper: row j of
 *     R, each lane down its own column of R), read one column ahead.
 *   - Column j: the owner of row j broadcasts its pivot a = L(j,j) and its
 *     w(j, 0:kb-1); every lane forms the same kb rotations from them
 *     (qru_rot_r, c = r / a, s = w / a, a / r, as the work-group body's
 *     rotations) and turns its L(i,j), i > j, and w(i,:) by them.
 *   - Two sweeps.  The first writes nothing: it gives the pivots and the
 *     diagonal of A1 = L L' + sign W W' (the rows' sums of squares met on
 *     the way), then the verdict, the first column (1-based) whose
 *     rotation fails (r = 0) or whose pivot breaks the rule (d = L1(j,j)^2
 *     finite, A1(j,j) finite, d > n eps max finite diag(A1)), a warp
 *     minimum.  The second runs only where the verdict is 0 and the
 *     problem takes part, repeats the same arithmetic and stores L1 (so a
 *     failing problem's page is never written, and L1 may be L).
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

/* One sweep over the problem at L + pl (ld ldl); store: write L1 + p1
 * (ld ld1).  w: the lane's rows of W, turned in place; piv: the new pivot
 * of each of the lane's rows, bad: its rotation failed, s2: ||L(i,:)||^2
 * of the rows (the first sweep's). */
template <typename T, int RPL, int KM>
__device__ __forceinline__ void team_sweep(int upper, int n, int kb, int sign,
                                           int lane, const T *L, long pl,
                                           int ldl, T *L1, long p1, int ld1,
                                           int store, T (&w)[RPL][KM],
                                           T (&piv)[RPL], int (&bad)[RPL],
                                           T (&s2)[RPL])
{
    T sg = sign > 0 ? (T)1 : (T)-1;
    T nxt[RPL];
#pragma unroll
    for (int r = 0; r < RPL; ++r) {
        int i = lane + 32 * r;
        nxt[r] = i < n ? L[pl + team_at(upper, i, 0, ldl)] : (T)0;
        s2[r] = (T)0;
        piv[r] = (T)0;
        bad[r] = 0;
    }
    for (int j = 0; j < n; ++j) {
        T cur[RPL];
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + 32 * r;
            cur[r] = nxt[r];
            nxt[r] = i < n && i > j ? L[pl + team_at(upper, i, j + 1, ldl)]
                                    : (T)0;
            if (i >= j)
                s2[r] += cur[r] * cur[r];
        }
        int oj = j & 31, rj = j >> 5;
        T a = __shfl_sync(0xffffffffu, team_slot<T, RPL>(cur, rj), oj);
        T c[KM], s[KM], f[KM];
        int fail = 0;
#pragma unroll
        for (int q = 0; q < KM; ++q) {
            T wq = (T)0;
#pragma unroll
            for (int r = 0; r < RPL; ++r)
                if (r == rj)
                    wq = w[r][q];
            wq = __shfl_sync(0xffffffffu, wq, oj);
            c[q] = (T)1;
            s[q] = (T)0;
            f[q] = (T)1;
            if (q < kb && !fail) {
                T rr = qru_rot_r<T>(a, wq, sign);
                if (rr == (T)0) {
                    fail = 1;
                } else {
                    T ia = (T)1 / a;
                    c[q] = rr * ia;
                    s[q] = wq * ia;
                    f[q] = a / rr;
                    a = rr;
                }
            }
        }
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + 32 * r;
            if (i == j) {
                piv[r] = a;
                bad[r] = fail;
                if (store)
                    L1[p1 + team_at(upper, j, j, ld1)] = a;
            } else if (i > j && i < n) {
                T lj = cur[r];
#pragma unroll
                for (int q = 0; q < KM; ++q)
                    if (q < kb) {
                        lj = (lj + sg * s[q] * w[r][q]) * f[q];
                        w[r][q] = c[q] * w[r][q] - s[q] * lj;
                    }
                if (store)
                    L1[p1 + team_at(upper, i, j, ld1)] = lj;
            }
        }
    }
}

/* The lane's rows of W's first kb columns (0 elsewhere). */
template <typename T, int RPL, int KM>
__device__ __forceinline__ void team_load_w(int n, int kb, int lane,
                                            const T *W, long pw, int ldw,
                                            T (&w)[RPL][KM])
{
#pragma unroll
    for (int r = 0; r < RPL; ++r)
#pragma unroll
        for (int q = 0; q < KM; ++q) {
            int i = lane + 32 * r;
            w[r][q] = i < n && q < kb ? W[pw + i + (long)q * ldw] : (T)0;
        }
}

template <typename T, int RPL, int KM>
__global__ void __launch_bounds__(128)
    qru_chol_update_team(int upper, int n, int k, int sign, int count, T eps,
                         const T *L, long ol, int ldl, long sl, const T *W,
                         long ow, int ldw, long sw, T *L1, long o1, int ld1,
                         long s1, T *info, long oi, const T *cnt, long oc,
                         int hc)
{
    int lane = threadIdx.x % 32, teams = blockDim.x / 32;
    for (int b = blockIdx.x * teams + threadIdx.x / 32; b < count;
         b += gridDim.x * teams) {
        int kb = hc ? (int)cnt[oc + b] : k;
        long pl = ol + (long)b * sl, pw = ow + (long)b * sw;
        T w[RPL][KM], sw2[RPL];
        team_load_w<T, RPL, KM>(n, kb, lane, W, pw, ldw, w);
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            sw2[r] = (T)0;
#pragma unroll
            for (int q = 0; q < KM; ++q)
                sw2[r] += w[r][q] * w[r][q];
        }
        T piv[RPL], s2[RPL];
        int bad[RPL];
        team_sweep<T, RPL, KM>(upper, n, kb, sign, lane, L, pl, ldl, L1, 0, 0,
                               0, w, piv, bad, s2);
        /* the verdict: tol from the largest finite diagonal of A1 */
        T ai[RPL], amax = (T)0;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            ai[r] = sign > 0 ? s2[r] + sw2[r] : s2[r] - sw2[r];
            if (lane + 32 * r < n && ai[r] - ai[r] == (T)0 && ai[r] > amax)
                amax = ai[r];
        }
        T tol = (T)n * eps * qru_team_max_(amax);
        int first = n + 1;
#pragma unroll
        for (int r = 0; r < RPL; ++r) {
            int i = lane + 32 * r;
            T d = piv[r] * piv[r];
            if (i < n && i < first &&
                (bad[r] || !(ai[r] - ai[r] == (T)0) || !(d - d == (T)0) ||
                 !(d > tol)))
                first = i;
        }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            int v = __shfl_xor_sync(0xffffffffu, first, o);
            first = v < first ? v : first;
        }
        int on = !hc || kb > 0;
        int fail = on && first < n ? first + 1 : 0;
        if (on && fail == 0) {
            team_load_w<T, RPL, KM>(n, kb, lane, W, pw, ldw, w);
            team_sweep<T, RPL, KM>(upper, n, kb, sign, lane, L, pl, ldl, L1,
                                   o1 + (long)b * s1, ld1, 1, w, piv, bad,
                                   s2);
        }
        if (lane == 0)
            info[oi + b] = (T)fail;
    }
}
