/*
 * lsq_batch_add_rows and lsq_batch_solve on LN lanes a problem, 32 / LN
 * problems a warp (CUDA only, real data; included by cuda/cuda_batch.cu
 * after kernels/qru_batch.cl, whose rotation qru_batch_lartg the addition
 * forms): the ops' contracts for m + r <= LN NT (the addition) and
 * m <= LN NT (the solve), with nothing in shared memory but each
 * problem's tile and no block barrier.
 *
 *   - A problem's page comes in through its tile in shared memory: R's
 *     upper triangle packed by columns, then d (lt_off), half the square
 *     page, so that a wave of blocks holds the usual batch (10,000
 *     problems of m = 20 in double: 18.6 MB of tiles, where the H200's
 *     SMs have 30 MB).  Column c of the page goes in with its rows on
 *     the problem's lanes (coalesced, where a lane reading its column
 *     down the page would touch a cache line a lane), by asynchronous
 *     copies (cp.async): every element in flight at once, held in no
 *     register, one wait; the addition's goes out the same way.  The
 *     packed offsets of 8 (or 16) consecutive columns fall in distinct
 *     banks (k (k + 1) / 2 runs through every residue mod a power of
 *     two), and the tiles of the problems that share a bank phase start
 *     8 elements apart modulo 32 (lt_size), so a step's reads by
 *     column meet no conflict in double.
 *   - Addition: R and d stay in the tile; lane l of a problem owns the
 *     columns k = l + LN t (t < NT) of [R d] and holds their entries of
 *     the new row in registers.  The steps j run in NT runs of LN (run
 *     jt a loop, the runs unrolled: the unrolled steps of double data
 *     outgrew the instruction cache), so that the owner's u(j) is its
 *     slot jt and a step turns the slots from jt on only (the others'
 *     columns k < j).  Per step j the problem's lanes take R(j,j) and
 *     u(j) from the owner of column j and each forms dlartg's rotation
 *     from them (qru_batch_lartg, as the work-group body); the owner
 *     writes the new pivot and the lanes turn R(j,k) and u(k) of their
 *     columns k > j (skipped where c = 1 and s = 0, as there).  A
 *     problem's rows from its count on (hc) are zero rows, which rotate
 *     nothing.
 *   - Solve: R stays in the tile.  Lane l holds the rows k = l + LN t of
 *     d (a right-hand side at a time) and 1 / R(k,k) and forms the norms
 *     of its columns k (down the column, the work-group body's order);
 *     the tolerance and the first failing column are reductions over the
 *     problem's lanes; then back substitution from the last row: the
 *     owner of row i scales it by 1 / R(i,i), the lanes take x(i) from it
 *     and subtract R(k,i) x(i) (from the tile) from their rows k < i.
 *     A failing problem also sets the verdict flag (any, where given).
 *   - Addition and solve (lsq_batch_add_solve): the addition, then the
 *     solve from the tile it leaves, while the tile's copy out drains.
 *
 * A warp's problems take the same steps (the batch's m, r and p), so each
 * shuffle, LN lanes wide, is reached by every lane.
 */

#include <cuda_pipeline.h>

#define QRU_LT_ALL 0xffffffffu

/* Where column c of [R d] starts in a problem's tile: R's upper triangle
 * packed by columns (column c < m holds its rows 0..c at c (c + 1) / 2),
 * then the m rows of each column of d. */
__host__ __device__ __forceinline__ int lt_off(int m, int c)
{
    return c < m ? c * (c + 1) / 2 : m * (m + 1) / 2 + (c - m) * m;
}

/* Elements from one problem's tile to the next (m rows, r columns of d):
 * the packed [R d] rounded up to 8 (mod 32).  The kernels and their
 * launches' shared-memory sizes take it from here. */
__host__ __device__ __forceinline__ int lt_size(int m, int r)
{
    int e = lt_off(m, m + r);
    return e + (40 - e % 32) % 32;
}

/* The upper triangle of R (m x m, ld ldr, at R + rb) and d (m x r, ld
 * ldd, at D + db) into the problem's tile W; lane l of the problem takes
 * the rows l + LN q of each column.  Returns when they have arrived (each
 * lane waits for its own copies; the team's __syncwarp after it orders
 * them for the others). */
template <typename T, int LN>
__device__ __forceinline__ void lt_tile_in(int m, int r, const T *R,
                                           long rb, int ldr, const T *D,
                                           long db, int ldd, T *W, int l,
                                           int act)
{
    if (!act)
        return;
    for (int c = 0; c < m + r; ++c) {
        const T *src = c < m ? R + rb + (long)c * ldr
                             : D + db + (long)(c - m) * ldd;
        int rows = c < m ? c + 1 : m, o = lt_off(m, c);
        for (int i = l; i < rows; i += LN)
            __pipeline_memcpy_async(W + o + i, src + i, sizeof(T));
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
}

/* The tile back into the pages (as lt_tile_in; a loop: the stores are
 * not waited for). */
template <typename T, int LN>
__device__ __forceinline__ void lt_tile_out(int m, int r, T *R, long rb,
                                            int ldr, T *D, long db, int ldd,
                                            const T *W, int l, int act)
{
    if (!act)
        return;
    for (int c = 0; c < m + r; ++c) {
        T *dst = c < m ? R + rb + (long)c * ldr : D + db + (long)(c - m) * ldd;
        int rows = c < m ? c + 1 : m, o = lt_off(m, c);
        for (int i = l; i < rows; i += LN)
            dst[i] = W[o + i];
    }
}

/* One problem's solve from its tile W (R packed by lt_off) on its lanes:
 * the QR rank rule with the tolerance tolf max_c ||R(0:c,c)||, then back
 * substitution of each column q of d (at Dq + q ldq; x0 the first, read
 * ahead) into the page X + xb where the problem passes.  Returns the
 * verdict: 0, or the first failing column (1-based), on every lane. */
template <typename T, int LN, int NT>
__device__ __forceinline__ int lt_solve(int m, int r, T tolf, const T *W,
                                        const T *Dq, long ldq,
                                        const T (&x0)[NT], T *X, long xb,
                                        int ldx, int l, int act)
{
    T nmax = (T)0, dinv[NT];
    int first = m + 1;
#pragma unroll
    for (int t = 0; t < NT; ++t) {
        int k = l + LN * t;
        dinv[t] = (T)1;
        if (!act || k >= m)
            continue;
        T s2 = (T)0;
#pragma unroll
        for (int i = 0; i < LN * (t + 1); ++i)
            if (i <= k) {
                T v = W[lt_off(m, k) + i];
                s2 += v * v;
            }
        T nc = QRU_SQRT(s2);
        if (nc - nc == (T)0 && nc > nmax) /* finite */
            nmax = nc;
        dinv[t] = (T)1 / W[lt_off(m, k) + k];
    }
#pragma unroll
    for (int o = LN / 2; o > 0; o >>= 1) {
        T v = __shfl_xor_sync(QRU_LT_ALL, nmax, o, LN);
        nmax = v > nmax ? v : nmax;
    }
    T tol = tolf * nmax;
#pragma unroll
    for (int t = NT - 1; t >= 0; --t) {
        int k = l + LN * t;
        if (act && k < m) {
            T dkk = W[lt_off(m, k) + k];
            if (!(dkk - dkk == (T)0) || !(QRU_FABS(dkk) > tol))
                first = k + 1;
        }
    }
#pragma unroll
    for (int o = LN / 2; o > 0; o >>= 1) {
        int v = __shfl_xor_sync(QRU_LT_ALL, first, o, LN);
        first = v < first ? v : first;
    }
    int fail = first <= m ? first : 0;
    for (int q = 0; q < r; ++q) {
        T x[NT];
#pragma unroll
        for (int t = 0; t < NT; ++t) {
            int k = l + LN * t;
            x[t] = q == 0            ? x0[t]
                   : act && k < m ? Dq[k + (long)q * ldq]
                                  : (T)0;
        }
#pragma unroll
        for (int i = LN * NT - 1; i >= 0; --i) {
            if (i >= m)
                continue;
            const int il = i % LN, it = i / LN;
            x[it] = l == il ? x[it] * dinv[it] : x[it];
            T xi = __shfl_sync(QRU_LT_ALL, x[it], il, LN);
#pragma unroll
            for (int t = 0; t < NT; ++t) {
                int k = l + LN * t;
                /* R(k,i) read whatever k (in column i of the tile:
                 * k <= i), used where k < i, so that no branch cuts
                 * the step */
                T w = W[lt_off(m, i) + (k < i ? k : i)];
                x[t] = k < i ? x[t] - w * xi : x[t];
            }
        }
#pragma unroll
        for (int t = 0; t < NT; ++t) {
            int k = l + LN * t;
            if (act && fail == 0 && k < m)
                X[xb + k + (long)q * ldx] = x[t];
        }
    }
    return fail;
}

/* The addition; SV: then the solve of lsq_batch_add_solve from the tile
 * (n the row count after the addition; X, info as the solve's). */
template <typename T, int LN, int NT, bool SV>
__global__ void __launch_bounds__(128, SV ? 5 : 4)
    qru_lsq_add_team(int m, int r, int p, int count, T *R, long orr,
                     int ldr, long sr, T *D, long od, int ldd, long sd,
                     T *rho2, long oh, const T *U, long ou, int ldu, long su,
                     const T *E, long oe, int lde, long se, const T *cnt,
                     long oc, int hc, int n, T eps, T *X, long ox, int ldx,
                     long sx, T *info, long oi, T *any)
{
    extern __shared__ __align__(16) unsigned char qru_batch_smem_[];
    const int PW = 32 / LN;
    int lane = threadIdx.x % 32, l = lane % LN;
    int mr = m + r;
    T *W = (T *)qru_batch_smem_ + (long)(threadIdx.x / LN) * lt_size(m, r);
    int ok[NT]; /* where the lane's columns start in the tile */
#pragma unroll
    for (int t = 0; t < NT; ++t)
        ok[t] = lt_off(m, l + LN * t);
    long per = (long)(blockDim.x / 32) * PW;
    for (long b0 = (long)blockIdx.x * per + (threadIdx.x / 32) * PW;
         b0 < count; b0 += (long)gridDim.x * per) {
        long b = b0 + lane / LN;
        int act = b < count;
        long rb = orr + b * sr, db = od + b * sd;
        int pb = !act ? 0 : hc ? (int)cnt[oc + b] : p;
        T u[NT], h[NT];
#pragma unroll
        for (int t = 0; t < NT; ++t) { /* read ahead of the tile */
            int k = l + LN * t;
            h[t] = act && k >= m && k < mr ? rho2[oh + b * r + (k - m)]
                                           : (T)0;
            u[t] = pb > 0 && k < mr
                       ? (k < m ? U[ou + b * su + (long)k * ldu]
                                : E[oe + b * se + (long)(k - m) * lde])
                       : (T)0;
        }
        __syncwarp(); /* the tile's last reads are done */
        lt_tile_in<T, LN>(m, r, R, rb, ldr, D, db, ldd, W, l, act);
        __syncwarp();
        for (int i = 0; i < p; ++i) {
#pragma unroll
            for (int t = 0; t < NT; ++t) {
                int k = l + LN * t;
                if (i > 0)
                    u[t] = i < pb && k < mr
                               ? (k < m ? U[ou + b * su + i + (long)k * ldu]
                                        : E[oe + b * se + i +
                                            (long)(k - m) * lde])
                               : (T)0;
            }
            /* the pivots j in runs of LN, run jt owned by the lanes' slot
             * jt, so that the owner's u(j) is u[jt] and a step turns the
             * slots from jt on (k > j: every column of the later runs,
             * those of lanes past jl in run jt) */
            int pj = 0; /* column j's start, lt_off(m, j) */
#pragma unroll
            for (int jt = 0; jt < NT; ++jt)
                for (int jl = 0; jl < LN && jt * LN + jl < m; ++jl) {
                    int j = jt * LN + jl;
                    /* R(j,j): the owner's, which only it reads and
                     * writes */
                    T f = act && l == jl ? W[pj + j] : (T)0, c, sn;
                    T g = __shfl_sync(QRU_LT_ALL, u[jt], jl, LN);
                    f = __shfl_sync(QRU_LT_ALL, f, jl, LN);
                    T fn = qru_batch_lartg<T>(f, g, &c, &sn);
                    int turn = sn != (T)0 || c != (T)1;
                    if (act && l == jl)
                        W[pj + j] = fn;
#pragma unroll
                    for (int t = jt; t < NT; ++t) {
                        int k = l + LN * t;
                        if (act && turn && (t > jt || l > jl) && k < mr) {
                            T x = W[ok[t] + j], y = u[t];
                            W[ok[t] + j] = c * x + sn * y;
                            u[t] = c * y - sn * x;
                        }
                    }
                    pj += j + 1;
                }
#pragma unroll
            for (int t = 0; t < NT; ++t)
                h[t] += u[t] * u[t]; /* the rotated e (columns k >= m) */
        }
#pragma unroll
        for (int t = 0; t < NT; ++t) {
            int k = l + LN * t;
            if (act && k >= m && k < mr)
                rho2[oh + b * r + (k - m)] = h[t];
        }
        __syncwarp();
        lt_tile_out<T, LN>(m, r, R, rb, ldr, D, db, ldd, W, l, act);
        if constexpr (SV) {
            const T *Wd = W + lt_off(m, m);
            T x0[NT];
#pragma unroll
            for (int t = 0; t < NT; ++t) {
                int k = l + LN * t;
                x0[t] = act && k < m ? Wd[k] : (T)0;
            }
            T nf = (T)(n > m ? n : m);
            int fail = lt_solve<T, LN, NT>(m, r, nf * eps, W, Wd, m, x0, X,
                                           ox + b * sx, ldx, l, act);
            if (act && l == 0) {
                info[oi + b] = (T)fail;
                if (fail && any)
                    *any = (T)1;
            }
        }
    }
}

template <typename T, int LN, int NT>
__global__ void __launch_bounds__(128, 4)
    qru_lsq_solve_team(int m, int r, int n, int count, T eps, const T *R,
                       long orr, int ldr, long sr, const T *D, long od,
                       int ldd, long sd, T *X, long ox, int ldx, long sx,
                       T *info, long oi, T *any)
{
    extern __shared__ __align__(16) unsigned char qru_batch_smem_[];
    const int PW = 32 / LN;
    int lane = threadIdx.x % 32, l = lane % LN;
    T *W = (T *)qru_batch_smem_ + (long)(threadIdx.x / LN) * lt_size(m, 0);
    T nf = (T)(n > m ? n : m);
    long per = (long)(blockDim.x / 32) * PW;
    for (long b0 = (long)blockIdx.x * per + (threadIdx.x / 32) * PW;
         b0 < count; b0 += (long)gridDim.x * per) {
        long b = b0 + lane / LN;
        int act = b < count;
        long rb = orr + b * sr, db = od + b * sd, xb = ox + b * sx;
        T x0[NT]; /* the first right-hand side, read ahead */
#pragma unroll
        for (int t = 0; t < NT; ++t) {
            int k = l + LN * t;
            x0[t] = act && k < m ? D[db + k] : (T)0;
        }
        __syncwarp(); /* the tile's last reads are done */
        lt_tile_in<T, LN>(m, 0, R, rb, ldr, D, db, ldd, W, l, act);
        __syncwarp();
        int fail = lt_solve<T, LN, NT>(m, r, nf * eps, W, D + db, ldd, x0, X,
                                       xb, ldx, l, act);
        if (act && l == 0) {
            info[oi + b] = (T)fail;
            if (fail && any) /* the verdict flag */
                *any = (T)1;
        }
    }
}
