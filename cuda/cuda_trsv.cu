/*
 * A latency-bound triangular solve with few right-hand sides (side 'L',
 * every uplo / transa / diag, nrhs <= QRU_CU_TRSV_MAX_RHS): the CUDA trsm
 * op takes it instead of cuBLAS (cuda_blas.cu), where cuBLAS's trsm with
 * one right-hand side runs far from the memory floor (0.28 ms for
 * n = 4096 in double on an H100, against about 0.02 ms to read the
 * triangle).
 *
 * One "sync-free" kernel: op(A) is taken in the order in which it is
 * solved (forward for a lower op(A), backward for an upper one), its rows
 * in blocks of NB; each thread block draws its logical block index b from
 * an atomic ticket (so it waits only on blocks that already run: no
 * deadlock, whatever the scheduler starts first) and
 *   1. loads its diagonal block and inverts it in shared memory (before
 *      any wait: off the critical path except for the first block),
 *   2. for each earlier block q, streams the tile op(A)(b, q) from memory
 *      (one tile ahead), waits until the values of x(q) are there (up to
 *      8 blocks' x read at once) and accumulates op(A)(b, q) x(q),
 *   3. forms x(b) = inv(D_b) (alpha b(b) - sum) and publishes it: each
 *      value written once into a copy of x that was all ones bits (a NaN
 *      no arithmetic produces), so the values are their own ready flags
 *      (no fence, no flag: a flag a block needs a fence and a barrier,
 *      which cost more than the solve of the block).
 * From the third block on, the block before is folded out of the block's
 * barriers: with M = inv(D_b) op(A)(b, b-1), formed in registers while
 * the block waits, steps 2 and 3 stop at block b - 2 and give
 * y = inv(D_b) (alpha b(b) - sum over q <= b - 2), and each warp, for
 * its 8 rows, reads x(b-1) itself (two values a lane, shuffled) and
 * forms x(b) = y - M x(b-1): what lies between two blocks is one
 * warp's product and shuffles, no barrier (faster with several
 * right-hand sides; with one, the tiles loaded two ahead below gain
 * more).
 * The ticket and that copy live in a scratch buffer set by one memset
 * a call.  With the inverted diagonal block the solve of a block is a
 * matrix-vector product (as MAGMA's trsm does), so its error bound is that
 * of the inverse of each NB x NB diagonal block times the vector rather
 * than substitution's; off-diagonal products are the same.
 */
#include "qru_cuda.h"

constexpr int TRSV_NB = 64, TRSV_THREADS = 256;
constexpr int TRSV_G = TRSV_THREADS / TRSV_NB; /* thread groups a tile */
constexpr int TRSV_PER = TRSV_NB / TRSV_G;     /* tile elements a thread */
constexpr int TRSV_LD = TRSV_NB + 1;           /* padded shared rows */
constexpr int TRSV_KC = 8; /* blocks whose x come in at once */

/* The tile op(A)(block pb, logical block q) a thread holds: for op N,
 * element (r, g + G s) of the tile (coalesced along r); for op T, element
 * (e / NB, e % NB) with e = tid + THREADS s read along A's columns
 * (coalesced), put in place through shared memory by the caller. */
template <typename T>
static __device__ __forceinline__ void
trsv_tile(T *a, int trans, int fwd, int nblk, int m, int q, long i0, int ni,
          int r, int g, int tid, const T *__restrict__ A, long lda)
{
    const int qb = fwd ? q : nblk - 1 - q;
    const long j0 = (long)qb * TRSV_NB;
    const int nj = (int)min((long)TRSV_NB, (long)m - j0);
    if (!trans) {
#pragma unroll
        for (int s = 0; s < TRSV_PER; ++s) {
            int jj = g + TRSV_G * s;
            a[s] = (r < ni && jj < nj) ? A[i0 + r + (j0 + jj) * lda] : T(0);
        }
    } else {
#pragma unroll
        for (int s = 0; s < TRSV_PER; ++s) {
            int e = tid + TRSV_THREADS * s;
            int ar = e % TRSV_NB, ac = e / TRSV_NB;
            a[s] = (ar < nj && ac < ni) ? A[j0 + ar + (i0 + ac) * lda] : T(0);
        }
    }
}

/* The published x: xw (m x nr, ld m) is all ones bits before the call (a
 * NaN with the sign set, which no arithmetic here produces: results that
 * are NaN are canonical, sign clear) and each value is written once, so a
 * block sees x(q) ready by the values themselves: no flag and no fence. */
template <typename T> static __device__ __forceinline__ bool trsv_unset(T v);
template <> __device__ __forceinline__ bool trsv_unset<double>(double v)
{
    return __double_as_longlong(v) == -1LL;
}
template <> __device__ __forceinline__ bool trsv_unset<float>(float v)
{
    return __float_as_int(v) == -1;
}

/* ticket: all ones before the call (the first block draws 0) */
template <typename T, int R>
__global__ void __launch_bounds__(TRSV_THREADS, 1)
    qru_trsv_sf(int m, int nr, int trans, int fwd, int unit, T alpha,
                const T *__restrict__ A, long lda, T *B, long ldb,
                unsigned *ticket, T *xw)
{
    extern __shared__ __align__(16) unsigned char trsv_smem[];
    T *sD = (T *)trsv_smem;          /* NB x LD: diagonal block, tiles */
    T *sI = sD + TRSV_NB * TRSV_LD;  /* NB x LD: its inverse */
    T *sx = sI + TRSV_NB * TRSV_LD;  /* KC x NB x R: x of blocks, residual */
    __shared__ unsigned s_b;
    __shared__ int s_ok[TRSV_KC];
    const int tid = threadIdx.x;
    const int nblk = (m + TRSV_NB - 1) / TRSV_NB;
    if (tid == 0)
        s_b = atomicAdd(ticket, 1u) + 1u;
    __syncthreads();
    const int b = (int)s_b;
    const int pb = fwd ? b : nblk - 1 - b;
    const long i0 = (long)pb * TRSV_NB;
    const int ni = (int)min((long)TRSV_NB, (long)m - i0);

    /* own right-hand side, alpha b (rows tid < ni) */
    T bown[R];
#pragma unroll
    for (int c = 0; c < R; ++c)
        bown[c] = (tid < ni && c < nr) ? alpha * B[i0 + tid + c * ldb] : T(0);

    /* the tile op(A)(b, b-1) of the fold (b >= 2), loaded before the
     * inversion */
    const int fold = b >= 2;
    const int r = tid % TRSV_NB, g = tid / TRSV_NB;
    T at[TRSV_PER];
    if (fold)
        trsv_tile<T>(at, trans, fwd, nblk, m, b - 1, i0, ni, r, g, tid, A,
                     lda);

    /* 1. diagonal block in logical lower orientation: sD[li][lk] =
     * op(A)(p(li), p(lk)), p(l) = l forward, ni - 1 - l backward; the
     * padding rows of a short block are the identity */
    for (int e = tid; e < TRSV_NB * TRSV_NB; e += TRSV_THREADS) {
        int li = e / TRSV_NB, lk = e % TRSV_NB;
        sD[li * TRSV_LD + lk] = (li == lk && li >= ni) ? T(1) : T(0);
    }
    __syncthreads();
    for (int e = tid; e < TRSV_NB * TRSV_NB; e += TRSV_THREADS) {
        int ar = e % TRSV_NB, ac = e / TRSV_NB; /* A(i0 + ar, i0 + ac) */
        if (ar >= ni || ac >= ni)
            continue;
        int mr = trans ? ac : ar, mc = trans ? ar : ac; /* op(A)(mr, mc) */
        int li = fwd ? mr : ni - 1 - mr, lk = fwd ? mc : ni - 1 - mc;
        if (lk > li)
            continue; /* the triangle not referenced */
        T v = A[i0 + ar + (i0 + ac) * lda];
        sD[li * TRSV_LD + lk] = (li == lk && unit) ? T(1) : v;
    }
    __syncthreads();
    /* inverse by recursive doubling: the reciprocal diagonal, then for
     * h = 1, 2, 4, .., NB / 2 each diagonal block [A 0; B C] of order 2h
     * (A, C inverted already) gets its lower left block -inv(C) B inv(A),
     * in two products through that block's place in sI; log2(NB) steps of
     * short dots instead of NB dependent substitution steps */
    for (int e = tid; e < TRSV_NB * TRSV_NB; e += TRSV_THREADS) {
        int i = e / TRSV_NB, k = e % TRSV_NB;
        sI[i * TRSV_LD + k] = i == k ? T(1) / sD[i * TRSV_LD + i] : T(0);
    }
    __syncthreads();
    for (int h = 1; h < TRSV_NB; h *= 2) {
        const int nel = TRSV_NB * h / 2; /* pairs x h x h */
        /* B inv(A), into the lower left block */
        for (int e = tid; e < nel; e += TRSV_THREADS) {
            int p = e / (h * h), w = e % (h * h), rr = w % h, cc = w / h;
            int s0 = p * 2 * h;
            const T *Brow = sD + (s0 + h + rr) * TRSV_LD + s0;
            T acc = T(0);
            for (int k = cc; k < h; ++k)
                acc += Brow[k] * sI[(s0 + k) * TRSV_LD + s0 + cc];
            sI[(s0 + h + rr) * TRSV_LD + s0 + cc] = acc;
        }
        __syncthreads();
        /* -inv(C) (B inv(A)), in registers first */
        constexpr int MAXE = TRSV_NB * TRSV_NB / 4 / TRSV_THREADS;
        T xv[MAXE];
#pragma unroll
        for (int q = 0; q < MAXE; ++q) {
            int e = tid + q * TRSV_THREADS;
            xv[q] = T(0);
            if (e < nel) {
                int p = e / (h * h), w = e % (h * h), rr = w % h, cc = w / h;
                int s0 = p * 2 * h;
                const T *Crow = sI + (s0 + h + rr) * TRSV_LD + s0 + h;
                T acc = T(0);
                for (int k = 0; k <= rr; ++k)
                    acc += Crow[k] * sI[(s0 + h + k) * TRSV_LD + s0 + cc];
                xv[q] = -acc;
            }
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < MAXE; ++q) {
            int e = tid + q * TRSV_THREADS;
            if (e < nel) {
                int p = e / (h * h), w = e % (h * h), rr = w % h, cc = w / h;
                int s0 = p * 2 * h;
                sI[(s0 + h + rr) * TRSV_LD + s0 + cc] = xv[q];
            }
        }
        __syncthreads();
    }
    /* sD is free from here (the last barrier above).  The fold's
     * M = inv(D_b) T, T = op(A)(b, b-1) with its rows in logical order
     * (a block of the fold is full: only the last logical block can be
     * short, and it is b = 0 when solving backward): T goes into sD, each
     * thread forms a 4 x 4 block of M, M goes back into sD, and each
     * thread keeps the 16 elements M[li][part + 4 i] (li = tid / 4, part =
     * tid % 4) of the warp product in step 3 */
    T Mr[TRSV_NB / TRSV_G];
    if (fold) {
#pragma unroll
        for (int s = 0; s < TRSV_PER; ++s) {
            int tr_, tc_; /* T(tr_, tc_), physical row, column */
            if (!trans) {
                tr_ = r;
                tc_ = g + TRSV_G * s;
            } else {
                int e = tid + TRSV_THREADS * s;
                tr_ = e / TRSV_NB;
                tc_ = e % TRSV_NB;
            }
            int lr = fwd ? tr_ : TRSV_NB - 1 - tr_;
            sD[lr * TRSV_LD + tc_] = at[s];
        }
        __syncthreads();
        const int r0 = (tid / 16) * 4, c0 = (tid % 16) * 4;
        T mb[4][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                mb[i][j] = T(0);
        for (int k = 0; k <= r0 + 3; ++k) { /* inv(D) is lower */
            T iv[4], tv[4];
#pragma unroll
            for (int i = 0; i < 4; ++i)
                iv[i] = sI[(r0 + i) * TRSV_LD + k];
#pragma unroll
            for (int j = 0; j < 4; ++j)
                tv[j] = sD[k * TRSV_LD + c0 + j];
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    mb[i][j] += iv[i] * tv[j];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                sD[(r0 + i) * TRSV_LD + c0 + j] = mb[i][j];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < TRSV_NB / TRSV_G; ++i)
            Mr[i] = sD[(tid / TRSV_G) * TRSV_LD + tid % TRSV_G + TRSV_G * i];
        __syncthreads();
    }
    const int qend = fold ? b - 1 : b; /* the blocks of step 2 */

    /* 2. the earlier blocks: x of up to KC blocks comes into shared memory
     * together (one round trip through L2 for several tiles, once they
     * are there); each tile's loads of A are issued PF tiles ahead */
    T acc[R];
#pragma unroll
    for (int c = 0; c < R; ++c)
        acc[c] = T(0);
    /* tiles loaded PF ahead (a, then p1, p2): a block behind the front of
     * the solve streams its tiles one after the other.  Two ahead for one
     * right-hand side (three are no faster), one for more (registers) */
    constexpr int PF = R == 1 ? 2 : 1;
    T a[TRSV_PER], p1[TRSV_PER], p2[TRSV_PER];
    if (qend > 0)
        trsv_tile<T>(a, trans, fwd, nblk, m, 0, i0, ni, r, g, tid, A, lda);
    if (PF >= 2 && qend > 1)
        trsv_tile<T>(p1, trans, fwd, nblk, m, 1, i0, ni, r, g, tid, A, lda);
    int base = 0, have = 0; /* sx holds x of blocks base .. base + have */
    for (int q = 0; q < qend; ++q) {
        if (q == base + have) {
            __syncthreads(); /* sx is free */
            const int want = min(TRSV_KC, qend - q);
            if (tid < TRSV_KC)
                s_ok[tid] = 1;
            __syncthreads();
            /* x of blocks q .. q + want: block q waited for, the others
             * taken if already there */
            for (int e = tid; e < want * TRSV_NB; e += TRSV_THREADS) {
                int t = e / TRSV_NB, row = e % TRSV_NB;
                int qq = q + t, qb = fwd ? qq : nblk - 1 - qq;
                long j0 = (long)qb * TRSV_NB;
                int nj = (int)min((long)TRSV_NB, (long)m - j0);
                bool ok = true;
#pragma unroll
                for (int c = 0; c < R; ++c) {
                    T v = T(0);
                    if (row < nj && c < nr) {
                        const volatile T *p = xw + j0 + row + (long)c * m;
                        v = *p;
                        while (t == 0 && trsv_unset(v))
                            v = *p;
                        ok = ok && !trsv_unset(v);
                    }
                    sx[e * R + c] = v;
                }
                if (!ok)
                    s_ok[t] = 0;
            }
            __syncthreads();
            int cnt = 1;
            while (cnt < want && s_ok[cnt])
                ++cnt;
            base = q;
            have = cnt;
        }
        if (q + PF < qend)
            trsv_tile<T>(PF == 1 ? p1 : p2, trans, fwd, nblk, m, q + PF, i0,
                         ni, r, g, tid, A, lda);
        if (trans) { /* the tile through shared memory, transposed */
#pragma unroll
            for (int s = 0; s < TRSV_PER; ++s) {
                int e = tid + TRSV_THREADS * s;
                sD[(e / TRSV_NB) * TRSV_LD + e % TRSV_NB] = a[s];
            }
            __syncthreads();
#pragma unroll
            for (int s = 0; s < TRSV_PER; ++s)
                a[s] = sD[r * TRSV_LD + g + TRSV_G * s];
            __syncthreads();
        }
        const T *xs = sx + (q - base) * TRSV_NB * R;
#pragma unroll
        for (int s = 0; s < TRSV_PER; ++s) {
            int jj = g + TRSV_G * s;
#pragma unroll
            for (int c = 0; c < R; ++c)
                acc[c] += a[s] * xs[jj * R + c];
        }
#pragma unroll
        for (int s = 0; s < TRSV_PER; ++s) {
            a[s] = p1[s];
            if (PF >= 2)
                p1[s] = p2[s];
        }
    }
    /* 3. residual, in logical order, then x = inv(D) residual */
    __syncthreads();
    T *red = sD; /* G x NB x R partial sums */
#pragma unroll
    for (int c = 0; c < R; ++c)
        red[(g * TRSV_NB + r) * R + c] = acc[c];
    __syncthreads();
    if (tid < TRSV_NB) {
        int li = tid < ni ? (fwd ? tid : ni - 1 - tid) : tid;
#pragma unroll
        for (int c = 0; c < R; ++c) {
            T s = T(0);
#pragma unroll
            for (int gg = 0; gg < TRSV_G; ++gg)
                s += red[(gg * TRSV_NB + tid) * R + c];
            sx[li * R + c] = tid < ni ? bown[c] - s : T(0);
        }
    }
    __syncthreads();
    {
        const int li = tid / TRSV_G, part = tid % TRSV_G; /* a quad a row */
        T x[R];
#pragma unroll
        for (int c = 0; c < R; ++c)
            x[c] = T(0);
        for (int k = part; k <= li; k += TRSV_G) {
            T v = sI[li * TRSV_LD + k];
#pragma unroll
            for (int c = 0; c < R; ++c)
                x[c] += v * sx[k * R + c];
        }
#pragma unroll
        for (int c = 0; c < R; ++c) {
            x[c] += __shfl_xor_sync(0xffffffffu, x[c], 1);
            x[c] += __shfl_xor_sync(0xffffffffu, x[c], 2);
        }
        if (fold) { /* x = y - M x(b-1), x(b-1) read by this warp */
            const int qb = fwd ? b - 1 : nblk - b, lane = tid & 31;
            const long j0 = (long)qb * TRSV_NB;
            const int nj = (int)min((long)TRSV_NB, (long)m - j0);
            T v0[R], v1[R];
#pragma unroll
            for (int c = 0; c < R; ++c) {
                v0[c] = v1[c] = T(0);
                if (c < nr) {
                    const volatile T *p0 = xw + j0 + lane + (long)c * m;
                    if (lane < nj)
                        do
                            v0[c] = *p0;
                        while (trsv_unset(v0[c]));
                    if (lane + 32 < nj)
                        do
                            v1[c] = p0[32];
                        while (trsv_unset(v1[c]));
                }
            }
            __syncwarp();
            T sm[R];
#pragma unroll
            for (int c = 0; c < R; ++c)
                sm[c] = T(0);
#pragma unroll
            for (int i = 0; i < TRSV_NB / TRSV_G; ++i) {
                const int src = (part + TRSV_G * i) & 31;
#pragma unroll
                for (int c = 0; c < R; ++c)
                    sm[c] += Mr[i] * __shfl_sync(0xffffffffu,
                                                 i < 32 / TRSV_G ? v0[c]
                                                                 : v1[c],
                                                 src);
            }
#pragma unroll
            for (int c = 0; c < R; ++c) {
                sm[c] += __shfl_xor_sync(0xffffffffu, sm[c], 1);
                sm[c] += __shfl_xor_sync(0xffffffffu, sm[c], 2);
                x[c] -= sm[c];
            }
        }
        if (part == 0 && li < ni) {
            long row = i0 + (fwd ? li : ni - 1 - li);
#pragma unroll
            for (int c = 0; c < R; ++c)
                if (c < nr) {
                    T v = trsv_unset(x[c]) ? T(NAN) : x[c];
                    *(volatile T *)(xw + row + (long)c * m) = v;
                    B[row + c * ldb] = v;
                }
        }
    }
}

template <typename T, int R>
static int trsv_launch(qru_context *ctx, int m, int nr, int trans, int fwd,
                       int unit, double alpha, qru_ptr A, int lda, qru_ptr B,
                       int ldb, unsigned *ticket, void *xw)
{
    size_t smem = sizeof(T) * (2 * TRSV_NB * TRSV_LD + TRSV_KC * TRSV_NB * R);
    static int attr_set[QRU_CUDA_MAXDEV];
    int dev = qru_cuda(ctx)->device;
    if (smem > 48 * 1024 && dev >= 0 && dev < QRU_CUDA_MAXDEV &&
        !attr_set[dev]) {
        cudaError_t e = cudaFuncSetAttribute(
            qru_trsv_sf<T, R>, cudaFuncAttributeMaxDynamicSharedMemorySize,
            (int)smem);
        if (e != cudaSuccess)
            return qru_cuda_status(e);
        attr_set[dev] = 1;
    }
    int nblk = (m + TRSV_NB - 1) / TRSV_NB;
    qru_trsv_sf<T, R><<<nblk, TRSV_THREADS, smem, qru_cuda(ctx)->stream>>>(
        m, nr, trans, fwd, unit, (T)alpha, qru_dp<T>(A), (long)lda,
        qru_dp<T>(B), (long)ldb, ticket, (T *)xw);
    return qru_cuda_launched();
}

int qru_cu_trsv_few(qru_context *ctx, qru_dtype dt, char uplo, char ta,
                    char diag, int m, int n, double alpha, qru_ptr A, int lda,
                    qru_ptr B, int ldb)
{
    int trans = ta == 'T' || ta == 't' || ta == 'C' || ta == 'c';
    int upper = uplo == 'U' || uplo == 'u';
    int unit = diag == 'U' || diag == 'u';
    int fwd = upper == trans; /* op(A) lower: solved forward */
    void *w = NULL;
    size_t es = dt == QRU_DOUBLE ? sizeof(double) : sizeof(float);
    size_t bytes = 16 + es * (size_t)m * (size_t)n;
    int st = qru_cuda_scratch(ctx, bytes, &w);
    if (st)
        return st;
    /* all ones: the ticket (the first block draws 0) and the unset x */
    st = qru_cuda_status(
        cudaMemsetAsync(w, 0xff, bytes, qru_cuda(ctx)->stream));
    if (!st) {
        unsigned *tk = (unsigned *)w;
        void *xw = (char *)w + 16;
        if (dt == QRU_DOUBLE)
            st = n == 1 ? trsv_launch<double, 1>(ctx, m, n, trans, fwd, unit,
                                                 alpha, A, lda, B, ldb, tk, xw)
                        : trsv_launch<double, QRU_CU_TRSV_MAX_RHS>(
                              ctx, m, n, trans, fwd, unit, alpha, A, lda, B,
                              ldb, tk, xw);
        else
            st = n == 1 ? trsv_launch<float, 1>(ctx, m, n, trans, fwd, unit,
                                                alpha, A, lda, B, ldb, tk, xw)
                        : trsv_launch<float, QRU_CU_TRSV_MAX_RHS>(
                              ctx, m, n, trans, fwd, unit, alpha, A, lda, B,
                              ldb, tk, xw);
    }
    qru_cuda_scratch_free(ctx, w);
    return st;
}
