/*
 * lsq_batch_add_rows and lsq_batch_solve on LN lanes a problem, 32 / LN
 * problems a warp (CUDA only, real data; included by cuda/cuda_batch.cu
 * after kernels/qru_batch.cl, whose rotation qru_batch_lartg the addition
 * forms): the ops' contracts for m + r <= LN NT (the addition) and
 * m <= LN NT (the solve), with nothing in shared memory but each
 * problem's tile and no block barrier.
 *
 *   - A problem's page comes in through its tile in shared memory
 *     (column c of [R d] at c st, st = QRU_LT_LD(m), odd, so that lanes
 *     reading down their own columns find their own banks): a column a
 *     step, its rows on the problem's lanes (coalesced, where a lane
 *     reading its column down the page would touch a cache line a lane);
 *     the addition's goes out the same way.
 *   - Addition: R and d stay in the tile; lane l of a problem owns the
 *     columns k = l + LN t (t < NT) of [R d] and holds their entries of
 *     the new row in registers.  Per step j (a loop, not unrolled: the
 *     unrolled steps of double data outgrew the instruction cache) the
 *     problem's lanes take R(j,j) and u(j) from the owner of column j and
 *     each forms dlartg's rotation from them (lt_lartg: qru_batch_lartg's
 *     values, as the work-group body); the owner writes the new pivot
 *     and the lanes turn R(j,k) and u(k) of their columns k > j (skipped
 *     where c = 1 and s = 0, as there).  A problem's rows from its count
 *     on (hc) are zero rows, which rotate nothing.
 *   - Solve: R stays in the tile.  Lane l holds the rows k = l + LN t of
 *     d (a right-hand side at a time) and 1 / R(k,k) and forms the norms
 *     of its columns k (down the column, the work-group body's order);
 *     the tolerance and the first failing column are reductions over the
 *     problem's lanes; then back substitution from the last row: the
 *     owner of row i scales it by 1 / R(i,i), the lanes take x(i) from it
 *     and subtract R(k,i) x(i) (from the tile) from their rows k < i.
 *
 * A warp's problems take the same steps (the batch's m, r and p), so each
 * shuffle, LN lanes wide, is reached by every lane.
 */

#define QRU_LT_ALL 0xffffffffu

/* The column stride of a problem's tile of m rows (odd: see above); the
 * kernels and their launches' shared-memory sizes take it from here. */
#define QRU_LT_LD(m) ((m) | 1)

/* Columns of a page a lane loads before it stores any into the tile:
 * the loads of a chunk are in flight together (each is a branch of its
 * own, and a load waited for before the next would make the copy a chain
 * of memory latencies). */
#define QRU_LT_CHUNK 8

/* The upper triangle of R (m x m, ld ldr, at R + rb) and d (m x r, ld
 * ldd, at D + db) into the problem's tile W (ld st); lane l of the
 * problem takes the rows l + LN q of each column. */
template <typename T, int LN, int NT>
__device__ __forceinline__ void lt_tile_in(int m, int r, const T *R,
                                           long rb, int ldr, const T *D,
                                           long db, int ldd, T *W, int st,
                                           int l, int act)
{
#pragma unroll
    for (int c0 = 0; c0 < LN * NT; c0 += QRU_LT_CHUNK) {
        if (c0 >= m + r)
            break;
        T v[QRU_LT_CHUNK][NT];
#pragma unroll
        for (int e = 0; e < QRU_LT_CHUNK; ++e)
#pragma unroll
            for (int q = 0; q < NT; ++q) {
                int c = c0 + e, i = l + LN * q;
                v[e][q] = act && c < m + r && i < (c < m ? c + 1 : m)
                              ? (c < m ? R[rb + i + (long)c * ldr]
                                       : D[db + i + (long)(c - m) * ldd])
                              : (T)0;
            }
#pragma unroll
        for (int e = 0; e < QRU_LT_CHUNK; ++e)
#pragma unroll
            for (int q = 0; q < NT; ++q) {
                int c = c0 + e, i = l + LN * q;
                if (act && c < m + r && i < (c < m ? c + 1 : m))
                    W[c * st + i] = v[e][q];
            }
    }
}

/* qru_batch_lartg's rotation (the same values), its usual case (f, g
 * nonzero, f^2 + g^2 within the unscaled range) in straight-line code
 * and the others in a branch that is rarely taken: a step's instructions
 * are one block the compiler can order (a branch a case would cut the
 * chain of the next column's pivot into pieces it cannot). */
template <typename T>
__device__ __forceinline__ T lt_lartg(T f, T g, T *c, T *s)
{
    T h = f * f + g * g;
    T inv = QRU_RSQRT(h), sf = copysign((T)1, f);
    T r = sf * (h * inv);
    *c = QRU_FABS(f) * inv;
    *s = g * sf * inv;
    if (!(g != (T)0 && f != (T)0 && h > QRU_RANGE_LO && h < QRU_RANGE_HI))
        r = qru_batch_lartg<T>(f, g, c, s);
    return r;
}

/* The tile back into the pages (as lt_tile_in). */
template <typename T, int LN, int NT>
__device__ __forceinline__ void lt_tile_out(int m, int r, T *R, long rb,
                                            int ldr, T *D, long db, int ldd,
                                            const T *W, int st, int l,
                                            int act)
{
#pragma unroll
    for (int c = 0; c < LN * NT; ++c) {
        if (c >= m + r)
            break;
#pragma unroll
        for (int q = 0; q < NT; ++q) {
            int i = l + LN * q;
            if (act && i < (c < m ? c + 1 : m)) {
                if (c < m)
                    R[rb + i + (long)c * ldr] = W[c * st + i];
                else
                    D[db + i + (long)(c - m) * ldd] = W[c * st + i];
            }
        }
    }
}

template <typename T, int LN, int NT>
__global__ void __launch_bounds__(128, 4)
    qru_lsq_add_team(int m, int r, int p, int count, T *R, long orr,
                     int ldr, long sr, T *D, long od, int ldd, long sd,
                     T *rho2, long oh, const T *U, long ou, int ldu, long su,
                     const T *E, long oe, int lde, long se, const T *cnt,
                     long oc, int hc)
{
    extern __shared__ __align__(16) unsigned char qru_batch_smem_[];
    const int PW = 32 / LN;
    int lane = threadIdx.x % 32, l = lane % LN;
    int mr = m + r, st = QRU_LT_LD(m);
    T *W = (T *)qru_batch_smem_ + (long)(threadIdx.x / LN) * mr * st;
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
        lt_tile_in<T, LN, NT>(m, r, R, rb, ldr, D, db, ldd, W, st, l, act);
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
            for (int j = 0; j < m; ++j) {
                int jl = j % LN, jt = j / LN;
                T g = u[0];
#pragma unroll
                for (int t = 1; t < NT; ++t)
                    g = jt == t ? u[t] : g;
                /* R(j,j): the owner's, which only it reads and writes */
                T f = act && l == jl ? W[j * st + j] : (T)0, c, sn;
                g = __shfl_sync(QRU_LT_ALL, g, jl, LN);
                f = __shfl_sync(QRU_LT_ALL, f, jl, LN);
                T fn = lt_lartg<T>(f, g, &c, &sn);
                int turn = sn != (T)0 || c != (T)1;
                if (act && l == jl)
                    W[j * st + j] = fn;
#pragma unroll
                for (int t = 0; t < NT; ++t) {
                    int k = l + LN * t;
                    if (act && turn && k > j && k < mr) {
                        T x = W[k * st + j], y = u[t];
                        W[k * st + j] = c * x + sn * y;
                        u[t] = c * y - sn * x;
                    }
                }
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
        lt_tile_out<T, LN, NT>(m, r, R, rb, ldr, D, db, ldd, W, st, l, act);
    }
}

template <typename T, int LN, int NT>
__global__ void __launch_bounds__(128, 4)
    qru_lsq_solve_team(int m, int r, int n, int count, T eps, const T *R,
                       long orr, int ldr, long sr, const T *D, long od,
                       int ldd, long sd, T *X, long ox, int ldx, long sx,
                       T *info, long oi)
{
    extern __shared__ __align__(16) unsigned char qru_batch_smem_[];
    const int PW = 32 / LN;
    int lane = threadIdx.x % 32, l = lane % LN, st = QRU_LT_LD(m);
    T *W = (T *)qru_batch_smem_ + (long)(threadIdx.x / LN) * m * st;
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
        lt_tile_in<T, LN, NT>(m, 0, R, rb, ldr, D, db, ldd, W, st, l, act);
        __syncwarp();
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
                    T v = W[k * st + i];
                    s2 += v * v;
                }
            T nc = QRU_SQRT(s2);
            if (nc - nc == (T)0 && nc > nmax) /* finite */
                nmax = nc;
            dinv[t] = (T)1 / W[k * st + k];
        }
#pragma unroll
        for (int o = LN / 2; o > 0; o >>= 1) {
            T v = __shfl_xor_sync(QRU_LT_ALL, nmax, o, LN);
            nmax = v > nmax ? v : nmax;
        }
        T tol = nf * eps * nmax;
#pragma unroll
        for (int t = NT - 1; t >= 0; --t) {
            int k = l + LN * t;
            if (act && k < m) {
                T dkk = W[k * st + k];
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
                       : act && k < m ? D[db + k + (long)q * ldd]
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
                    /* R(k,i) read whatever k (in the tile: k < m), used
                     * where k < i, so that no branch cuts the step */
                    T w = W[i * st + (k < m ? k : m - 1)];
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
        if (act && l == 0)
            info[oi + b] = (T)fail;
    }
}
