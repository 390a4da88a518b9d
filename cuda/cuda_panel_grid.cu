/*
 * The tall Householder panel on chip over many blocks (CUDA only: a
 * cooperative launch and warp reductions): the panel_qr contract
 * (src/qru_ops.h) for an m x nb panel too tall for one block's shared
 * memory, e.g. the (n - m) x p block of the row removal's first phase and
 * of the add-columns update, which the global-memory kernel
 * (kernels/qru_panel.cl, qru_panel_qr) factors at 30-80 us a column.
 *
 * Block g holds the rows [g chunk, (g + 1) chunk) of the panel in shared
 * memory for the whole factorisation; nothing but one partial vector a
 * block and step goes through device memory.  Step j needs, for x = the
 * column j below row j, the sum of squares x'x, the dots x'a_u with the
 * trailing columns u > j and x'y_c with the earlier reflectors c < j (for
 * T).  All of them are sums over rows, so every block writes its partial
 * vector (nb values), ONE grid barrier, and every block reduces the G
 * partials in the same order (bit-identical in every block, no broadcast)
 * and forms beta, tau and f = 1 / (alpha - beta) itself:
 *     v'a_u = a_u(j) + f x'a_u,   z_c = y_c(j) + f x'y_c,
 * then updates its rows of the trailing columns (a_u -= tau v v'a_u), and
 * computes the partials of step j + 1 from its rows at once.  A step costs
 * one grid barrier and two block barriers (against two grid barriers and
 * a pass over the panel in device memory for qru_panel_qr).
 *
 * The columns of Y are kept unscaled (x) until the end (y = f x), and
 * each block scales its x by a power of two before the dots (its largest
 * |x| to [1, 2)), so that no partial overflows or underflows where the
 * reflector itself is representable; the partials carry their exponents
 * and are combined with them.  T is formed at the end from the z's by
 * qru_panel_tbuild (kernels/qru_panel.cl), as by the register kernel.
 *
 * Complex data as kernels/qru_panel.cl's (zlarfg's reflectors, H' =
 * I - conj(tau) v v' from the left, the dots x'a with x conjugated, the
 * block's scale from the largest part of an element).
 *
 * Block: PG_THREADS threads, warp w owns the columns u = w + PG_WARPS q
 * (the lanes stride over the block's rows); nb <= PG_MAX_NB.
 */
#include <cooperative_groups.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl"
#include "qru_panel.cl"

#define PG_THREADS 1024
#define PG_WARPS (PG_THREADS / 32)
#define PG_MAX_NB (PG_THREADS / 8) /* 8 lanes reduce a column's partials */

/* Exponent limits of the block scaling (2^-e stays finite). */
template <typename T> __device__ __forceinline__ int pg_emax()
{
    return sizeof(QRU_R) == 8 ? 1000 : 120;
}

/* x 2^e and the value of the lane (lane ^ o), both parts of a complex x */
template <typename T> __device__ __forceinline__ T pg_scalbn(T x, int e)
{
    return scalbn(x, e);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> pg_scalbn(qru_cplx<R> x, int e)
{
    return qru_cplx<R>(scalbn(x.x, e), scalbn(x.y, e));
}
template <typename T> __device__ __forceinline__ T pg_shfl_xor(T v, int o)
{
    return __shfl_xor_sync(0xffffffffu, v, o);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> pg_shfl_xor(qru_cplx<R> v, int o)
{
    return qru_cplx<R>(__shfl_xor_sync(0xffffffffu, v.x, o),
                       __shfl_xor_sync(0xffffffffu, v.y, o));
}

/* (sum, M) += (d, e): sums kept as sum 2^M; exact zeros are ignored (a
 * block without rows must not lower the others' precision). */
template <typename T>
__device__ __forceinline__ void pg_acc(T *sum, int *M, T d, int e)
{
    if (QRU_ISZERO(d))
        return;
    if (QRU_ISZERO(*sum)) {
        *sum = d;
        *M = e;
    } else if (e > *M) {
        *sum = pg_scalbn(*sum, *M - e) + d;
        *M = e;
    } else {
        *sum += pg_scalbn(d, e - *M);
    }
}

/* Shared memory (dynamic): S (lds x nb; at the end block 0 forms T in
 * it, lds >= nb), red, rowv, fv, tv (nb each), then redE (nb ints). */
template <typename T> static size_t pg_smem(int lds, int nb)
{
    return ((size_t)lds * nb + 4 * (size_t)nb) * sizeof(T) +
           (size_t)nb * sizeof(int);
}

/* The partials of step s (column s below row s, x = S(i, s) for global
 * rows > s) from this block's rows into P (nb + 1 values: slot s = x'x,
 * u > s: x'a_u, c < s: x'(unscaled y_c), x' the conjugate transpose (the
 * real parts of slots s and nb are read), slot nb: the exponent e of the
 * block's scaling 2^-e), and row s of the panel into R if this block holds
 * it (u >= s: a_u(s); c < s: y_c(s) = fv[c] S(s, c)). */
template <typename T>
__device__ void pg_partials(int s, int nb, int r0, int nr, const T *S,
                            int lds, const T *fv, T *P, T *R, int warp,
                            int lane)
{
    int lo = s + 1 - r0; /* first local row below row s */
    if (lo < 0)
        lo = 0;
    /* the block's largest |x| (of a part of a complex x; every warp
     * computes the same) */
    QRU_R amax = (QRU_R)0;
    for (int i = lo + lane; i < nr; i += 32) {
        QRU_R a = fabs(QRU_RE(S[i + (long)s * lds]));
        if (QRU_CPLX && fabs(QRU_IM(S[i + (long)s * lds])) > a)
            a = fabs(QRU_IM(S[i + (long)s * lds]));
        if (a > amax || a != a)
            amax = a;
    }
    for (int o = 16; o > 0; o >>= 1) {
        QRU_R b = __shfl_xor_sync(0xffffffffu, amax, o);
        if (b > amax || b != b)
            amax = b;
    }
    int e = 0;
    if (amax > (QRU_R)0 && amax - amax == (QRU_R)0) { /* positive, finite */
        e = ilogb(amax);
        int lim = pg_emax<T>();
        e = e > lim ? lim : (e < -lim ? -lim : e);
    }
    QRU_R sc = scalbn((QRU_R)1, -e);
    for (int u = warp; u < nb; u += PG_WARPS) {
        T acc = (T)0;
        for (int i = lo + lane; i < nr; i += 32) {
            T x = S[i + (long)s * lds] * sc;
            if (QRU_CPLX && u == s) /* |x|^2, no imaginary rounding */
                acc += QRU_MKR(QRU_ABS2(x));
            else
                acc += QRU_MUL(QRU_CONJ(x),
                               u == s ? x : S[i + (long)u * lds]);
        }
        for (int o = 16; o > 0; o >>= 1)
            acc += pg_shfl_xor(acc, o);
        if (lane == 0) {
            P[u] = acc;
            int rs = s - r0;
            if (rs >= 0 && rs < nr) /* row s is this block's */
                R[u] = u < s ? QRU_MUL(fv[u], S[rs + (long)u * lds])
                             : S[rs + (long)u * lds];
        }
    }
    if (warp == 0 && lane == 0)
        P[nb] = QRU_MKR(e);
}

template <typename T>
__global__ void __launch_bounds__(PG_THREADS)
    qru_panel_qr_grid(int m, int nb, T *A, long oa, int lda, T *Y, long oy,
                      int ldy, T *tau, long ot, T *To, long oto, T *part,
                      int chunk)
{
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char qru_pg_smem_[];
    int lds = chunk;
    T *S = (T *)qru_pg_smem_;
    T *red = S + (long)lds * nb, *rowv = red + nb, *fv = rowv + nb,
      *tv = fv + nb;
    int *redE = (int *)(tv + nb);
    int g = blockIdx.x, G = gridDim.x;
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int r0 = g * chunk;
    int nr = m - r0 < chunk ? m - r0 : chunk;
    if (nr < 0)
        nr = 0;
    long rec = nb + 1; /* a block's partial record */
    T *rows = part + 2 * (long)G * rec;

    for (long e = tid; e < (long)nr * nb; e += PG_THREADS) {
        int i = (int)(e % nr), c = (int)(e / nr);
        S[i + (long)c * lds] = A[oa + r0 + i + (long)c * lda];
    }
    __syncthreads();
    pg_partials(0, nb, r0, nr, S, lds, fv, part + (long)g * rec, rows, warp,
                lane);
    grid.sync();

    for (int j = 0; j < nb; ++j) {
        const T *P = part + (long)(j & 1) * G * rec;
        const T *R = rows + (long)(j & 1) * nb;
        /* ---- the G partials, reduced in the same order in every block:
         * 8 lanes a slot, then a 3-level butterfly */
        {
            int k = tid >> 3, s8 = tid & 7;
            T sum = (T)0;
            int M = 0;
            if (k < nb)
                for (int h = s8; h < G; h += 8) {
                    T d = qru_ldcg(P + h * rec + k);
                    int e = (int)QRU_RE(qru_ldcg(P + h * rec + nb));
                    pg_acc(&sum, &M, d, k == j ? 2 * e : e);
                }
            for (int o = 1; o < 8; o <<= 1) {
                T os = pg_shfl_xor(sum, o);
                int oM = __shfl_xor_sync(0xffffffffu, M, o);
                /* symmetric: both lanes of a pair get the same value */
                if (QRU_ISZERO(sum)) {
                    sum = os;
                    M = oM;
                } else if (!QRU_ISZERO(os)) {
                    int Mx = M > oM ? M : oM;
                    sum = pg_scalbn(sum, M - Mx) + pg_scalbn(os, oM - Mx);
                    M = Mx;
                }
            }
            if (k < nb && s8 == 0) {
                red[k] = sum;
                redE[k] = M;
                rowv[k] = qru_ldcg(R + k);
            }
        }
        __syncthreads();
        /* ---- the reflector (every thread, the same values) */
        T alpha = rowv[j];
        QRU_R xnorm = scalbn(sqrt(QRU_RE(red[j])), redE[j] / 2);
        T t = (T)0, f = QRU_MKR(1), beta = alpha;
        if (xnorm != (QRU_R)0)
            beta = qru_larfg_beta(alpha, xnorm, &t, &f);
        if (tid == 0) {
            tv[j] = t;
            fv[j] = !QRU_ISZERO(t) ? f : QRU_MKR(1);
        }
        if (g == 0 && tid < j) /* z_c = y_c' v_j (T's recurrence), in
                                  To's strict lower part until the end */
            To[oto + j + (long)tid * nb] =
                !QRU_ISZERO(t)
                    ? QRU_CONJ(rowv[tid]) +
                          QRU_MUL(QRU_MUL(pg_scalbn(f, redE[tid]),
                                          QRU_CONJ(red[tid])),
                                  QRU_CONJ(fv[tid]))
                    : (T)0;
        /* ---- the trailing columns: a_u -= tau v (v'a_u) on this block's
         * rows (rows > j hold x = v / f; row j is v's 1) */
        int rj = j - r0;
        if (!QRU_ISZERO(t)) {
            int lo = j + 1 - r0 > 0 ? j + 1 - r0 : 0;
            for (int u = warp; u < nb; u += PG_WARPS) {
                if (u <= j)
                    continue;
                T w = rowv[u] + QRU_MUL(QRU_CONJ(pg_scalbn(f, redE[u])),
                                        red[u]); /* v'a_u */
                T cu = QRU_MUL(QRU_MUL(QRU_CONJ(t), w), f);
                for (int i = lo + lane; i < nr; i += 32)
                    S[i + (long)u * lds] -=
                        QRU_MUL(cu, S[i + (long)j * lds]);
                if (lane == 0 && rj >= 0 && rj < nr)
                    S[rj + (long)u * lds] -= QRU_MUL(QRU_CONJ(t), w);
            }
        }
        if (tid == 0 && rj >= 0 && rj < nr)
            S[rj + (long)j * lds] = beta;
        __syncthreads();
        if (j + 1 < nb) {
            pg_partials(j + 1, nb, r0, nr, S, lds, fv,
                        part + (long)((j + 1) & 1) * G * rec + (long)g * rec,
                        rows + (long)((j + 1) & 1) * nb, warp, lane);
            grid.sync();
        }
    }

    /* ---- write back: A = R with exact zeros, Y unit lower trapezoidal */
    for (long e = tid; e < (long)nr * nb; e += PG_THREADS) {
        int i = (int)(e % nr), c = (int)(e / nr), gi = r0 + i;
        T x = S[i + (long)c * lds];
        A[oa + gi + (long)c * lda] = gi <= c ? x : (T)0;
        Y[oy + gi + (long)c * ldy] =
            gi < c ? (T)0 : (gi == c ? QRU_MKR(1) : QRU_MUL(fv[c], x));
    }
    if (g == 0) {
        __syncthreads(); /* S is free: T formed in it from the z's */
        T *Tm = S;
        for (int e = tid; e < nb * nb; e += PG_THREADS) {
            /* only the z's were written (strict lower part); the rest is
             * formed by qru_panel_tbuild before it is read */
            int jj = e / nb, i = e - jj * nb;
            Tm[e] = i > jj ? To[oto + e] : (T)0;
        }
        __syncthreads();
        qru_panel_tbuild(nb, Tm, nb, tv, tid, PG_THREADS);
        for (int j = tid; j < nb; j += PG_THREADS)
            tau[ot + j] = tv[j];
        for (int e = tid; e < nb * nb; e += PG_THREADS) {
            int jj = e / nb, i = e - jj * nb;
            To[oto + e] = i <= jj ? Tm[i + (long)jj * nb] : (T)0;
        }
    }
}

/* Bytes of dynamic shared memory the kernel may take (opt-in maximum). */
template <typename T> static size_t pg_capacity(qru_context *ctx)
{
    static long cache[QRU_CUDA_MAXDEV];
    return qru_cuda_smem_optin(ctx, (const void *)qru_panel_qr_grid<T>, cache,
                               0);
}

/* 1 if a block of PG_THREADS threads with cap bytes of shared memory
 * (the most it takes) fits on an SM, asked of the driver once a device
 * (not on every update: the query costs host time on the update path). */
template <typename T> static int pg_resident(qru_context *ctx, size_t cap)
{
    static int cache[QRU_CUDA_MAXDEV]; /* 0: unknown, 1: yes, -1: no */
    int dev = qru_cuda(ctx)->device;
    int *c = dev >= 0 && dev < QRU_CUDA_MAXDEV ? &cache[dev] : NULL;
    if (c && *c)
        return *c > 0;
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, qru_panel_qr_grid<T>, PG_THREADS, cap) != cudaSuccess) {
        qru_cuda_clear();
        per_sm = 0;
    }
    if (c)
        *c = per_sm >= 1 ? 1 : -1;
    return per_sm >= 1;
}

/* Rows a block for an m x nb panel (0: the kernel does not apply): m
 * over the SMs, at least the tuning's panel_grid_rows and nb + 1, a
 * multiple of 32. */
template <typename T> int qru_cu_panel_grid_rows(qru_context *ctx, int m, int nb)
{
    if (nb < 1 || nb > PG_MAX_NB || m < nb)
        return 0;
    size_t cap = pg_capacity<T>(ctx);
    int sms = qru_cuda(ctx)->sm_count;
    if (cap == 0 || sms < 1)
        return 0;
    /* chunk > nb: T fits in S, and the partials fit in the work of
     * panel_qr (G (nb + 1) <= m + nb + 2) */
    long chunk = ((long)m + sms - 1) / sms;
    long min_rows = qru_cu_tuning<T>(ctx)->panel_grid_rows;
    if (chunk < min_rows)
        chunk = min_rows;
    if (chunk < nb + 1)
        chunk = nb + 1;
    chunk = (chunk + 31) / 32 * 32;
    if (pg_smem<T>((int)chunk, nb) > cap)
        return 0;
    /* every block resident at once: chunk >= m / sms gives G <= sms
     * blocks, so one block an SM suffices, whatever its shared memory up
     * to cap (pg_resident) */
    long G = ((long)m + chunk - 1) / chunk;
    return G <= sms && pg_resident<T>(ctx, cap) ? (int)chunk : 0;
}

/* Launch (chunk from qru_cu_panel_grid_rows); 0, or 1 if the cooperative
 * launch was refused (nothing done).  T (nb x nb) to work at ok,
 * the partials after it (2 G (nb + 1) + 2 nb elements, within
 * qru_panel_work(m, nb) since chunk > nb). */
template <typename T>
int qru_cu_panel_grid(qru_context *ctx, int m, int nb, int chunk, qru_ptr A,
                      int lda, qru_ptr Y, int ldy, qru_ptr tau, qru_ptr work)
{
    T *a = (T *)A.h, *y = (T *)Y.h, *t = (T *)tau.h, *wk = (T *)work.h;
    long oa = (long)A.off, oy = (long)Y.off, ot = (long)tau.off,
         ok = (long)work.off;
    T *part = wk + ok + (long)nb * nb;
    int G = (m + chunk - 1) / chunk;
    void *args[] = {&m, &nb, &a, &oa, &lda, &y,  &oy,   &ldy,
                    &t, &ot, &wk, &ok, &part, &chunk};
    cudaError_t e = cudaLaunchCooperativeKernel(
        (const void *)qru_panel_qr_grid<T>, dim3(G), dim3(PG_THREADS), args,
        pg_smem<T>(chunk, nb), qru_cuda(ctx)->stream);
    if (e != cudaSuccess) { /* e.g. not all blocks resident next to other
                               work: the caller falls back */
        qru_cuda_clear();
        return 1;
    }
    return 0;
}

template int qru_cu_panel_grid_rows<double>(qru_context *, int, int);
template int qru_cu_panel_grid_rows<float>(qru_context *, int, int);
template int qru_cu_panel_grid<double>(qru_context *, int, int, int, qru_ptr,
                                       int, qru_ptr, int, qru_ptr, qru_ptr);
template int qru_cu_panel_grid<float>(qru_context *, int, int, int, qru_ptr,
                                      int, qru_ptr, int, qru_ptr, qru_ptr);
template int qru_cu_panel_grid_rows<qru_cplx<double>>(qru_context *, int,
                                                      int);
template int qru_cu_panel_grid_rows<qru_cplx<float>>(qru_context *, int, int);
template int qru_cu_panel_grid<qru_cplx<double>>(qru_context *, int, int, int,
                                                 qru_ptr, int, qru_ptr, int,
                                                 qru_ptr, qru_ptr);
template int qru_cu_panel_grid<qru_cplx<float>>(qru_context *, int, int, int,
                                                qru_ptr, int, qru_ptr, int,
                                                qru_ptr, qru_ptr);
