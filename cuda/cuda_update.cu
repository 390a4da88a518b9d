/*
 * CUDA versions of the QR-update ops (contracts in src/qru_internal.h; the
 * CPU versions in src/cpu/cpu_update_kernels.inc are the reference): the
 * strip-wise Givens kernels of Andrew (2012) section 3.2 and doubleSum.
 * Kernel bodies: kernels/qru_update.cl.  All asynchronous on the stream.
 */
#include <stdlib.h>
#include <string.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
/* the sweeps kernels' teams: 8 lanes of a warp take a rotation */
#define QRU_SWEEP_TEAM 8
#define QRU_SWEEP_SYNC __syncwarp(0xFFu << ((threadIdx.x & 31u) & ~7u))
#include "qru_update.cl"

template <typename T>
static int givens_make_t(qru_context *ctx, int cnt, qru_ptr X, int inc,
                         int ps, qru_ptr cs)
{
    qru_givens_make<T><<<qru_blocks(cnt, 256, 1u << 20), 256, 0,
                         qru_cuda(ctx)->stream>>>(
        cnt, (const T *)X.h, (long)X.off, (long)inc, (long)ps, (T *)cs.h,
        (long)cs.off);
    return qru_cuda_launched();
}

int qru_cu_givens_make(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                       int inc, int ps, qru_ptr cs)
{
    if (cnt <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE ? givens_make_t<double>(ctx, cnt, X, inc, ps, cs)
                            : givens_make_t<float>(ctx, cnt, X, inc, ps, cs);
}

template <typename T>
static int givens_apply_t(qru_context *ctx, int cnt, int len, qru_ptr cs,
                          qru_ptr X, int inc, int ps, int es)
{
    /* run the grid's x dimension along the smaller memory stride */
    int tfirst = inc < es;
    int n0 = tfirst ? cnt : len, n1 = tfirst ? len : cnt;
    qru_givens_apply<T><<<qru_grid2d(n0, n1), qru_block2d(), 0,
                          qru_cuda(ctx)->stream>>>(
        cnt, len, (const T *)cs.h, (long)cs.off, (T *)X.h, (long)X.off,
        (long)inc, (long)ps, (long)es, tfirst);
    return qru_cuda_launched();
}

int qru_cu_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                        qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    if (cnt <= 0 || len <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? givens_apply_t<double>(ctx, cnt, len, cs, X, inc, ps, es)
               : givens_apply_t<float>(ctx, cnt, len, cs, X, inc, ps, es);
}

template <typename T>
static int geadd_t(qru_context *ctx, int m, int n, double alpha, qru_ptr A,
                   int lda, double beta, qru_ptr B, int ldb)
{
    qru_geadd<T><<<qru_grid2d(m, n), qru_block2d(), 0,
                   qru_cuda(ctx)->stream>>>(m, n, (T)alpha, (const T *)A.h,
                                            (long)A.off, lda, (T)beta,
                                            (T *)B.h, (long)B.off, ldb);
    return qru_cuda_launched();
}

int qru_cu_geadd(qru_context *ctx, qru_dtype dt, int m, int n, double alpha,
                 qru_ptr A, int lda, double beta, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (alpha == 0.0 && beta == 1.0)
        return 0; /* B unchanged */
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? geadd_t<double>(ctx, m, n, alpha, A, lda, beta, B, ldb)
               : geadd_t<float>(ctx, m, n, alpha, A, lda, beta, B, ldb);
}

/* ---- fused Givens sweeps ---------------------------------------- */

/* One block of SWEEP_THREADS threads (128 teams of 8 lanes, a rotation per
 * team at a time) runs every step; one barrier a step (two with the window
 * in shared memory). */
#define SWEEP_THREADS 1024

/* The window of active columns in dynamic shared memory
 * (qru_sweeps_lds_body). */
template <typename T>
__global__ void __launch_bounds__(SWEEP_THREADS)
    qru_givens_sweeps_smem(int L, int p, int make, T *X, long ox, long xrs,
                           long xcs, int nr, int from_jlo, T *cs, long ocs,
                           int W)
{
    extern __shared__ __align__(16) unsigned char qru_sweeps_smem_[];
    qru_sweeps_lds_body(L, p, make, X, ox, xrs, xcs, nr, from_jlo, cs, ocs, W,
                        (T *)qru_sweeps_smem_);
}

/* Bytes of dynamic shared memory qru_givens_sweeps_smem<T> may take on the
 * context's device (the opt-in maximum, raised once per device and type). */
template <typename T> static size_t sweeps_smem_cap(qru_context *ctx)
{
    enum { MAXDEV = 64 };
    static long cache[MAXDEV]; /* 0: unknown, -1: none, else bytes */
    int dev = qru_cuda(ctx)->device;
    if (dev >= 0 && dev < MAXDEV && cache[dev] != 0)
        return cache[dev] > 0 ? (size_t)cache[dev] : 0;
    int optin = 0;
    long cap = -1;
    if (cudaDeviceGetAttribute(&optin,
                               cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               dev) == cudaSuccess &&
        optin > 0 &&
        cudaFuncSetAttribute((const void *)qru_givens_sweeps_smem<T>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin) == cudaSuccess)
        cap = optin;
    qru_cuda_clear();
    if (dev >= 0 && dev < MAXDEV)
        cache[dev] = cap;
    return cap > 0 ? (size_t)cap : 0;
}

/* The shared-memory kernel when its window fits (the tuning's
 * sweeps_kernel = 1 forces the other). */
template <typename T>
static int givens_sweeps_t(qru_context *ctx, int L, int p, int make, qru_ptr X,
                           long xrs, long xcs, int nr, int from_jlo,
                           qru_ptr cs)
{
    cudaStream_t st = qru_cuda(ctx)->stream;
    int global = qru_ctx_tuning(ctx, sizeof(T) == sizeof(double)
                                          ? QRU_DOUBLE
                                          : QRU_FLOAT)->sweeps_kernel == 1;
    int W = 2 * (p < L ? p : L) + 2;
    size_t bytes = (size_t)W * (size_t)(nr > 0 ? nr : 1) * sizeof(T);
    if (!global && bytes <= sweeps_smem_cap<T>(ctx)) {
        qru_givens_sweeps_smem<T><<<1, SWEEP_THREADS, bytes, st>>>(
            L, p, make, (T *)X.h, (long)X.off, xrs, xcs, nr, from_jlo,
            (T *)cs.h, (long)cs.off, W);
        return qru_cuda_launched();
    }
    qru_givens_sweeps<T><<<1, SWEEP_THREADS, 0, st>>>(
        L, p, make, (T *)X.h, (long)X.off, xrs, xcs, nr, from_jlo,
        (T *)cs.h, (long)cs.off);
    return qru_cuda_launched();
}

int qru_cu_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                         int make, qru_ptr X, long xrs, long xcs, int nr,
                         int from_jlo, qru_ptr cs)
{
    if (L <= 0 || p <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? givens_sweeps_t<double>(ctx, L, p, make, X, xrs, xcs, nr,
                                         from_jlo, cs)
               : givens_sweeps_t<float>(ctx, L, p, make, X, xrs, xcs, nr,
                                        from_jlo, cs);
}

/* Grid: x over the rows of a group's matrix (128 a block), y over the
 * groups. */
template <typename T>
static int givens_accum_t(qru_context *ctx, int L, int p, int ab, qru_ptr cs,
                          qru_ptr G, int ldg)
{
    int ng = (L + ab - 1) / ab, w = ab + p;
    dim3 grid((unsigned)((w + 127) / 128), (unsigned)ng);
    qru_givens_accum<T><<<grid, 128, 0, qru_cuda(ctx)->stream>>>(
        L, p, ab, (const T *)cs.h, (long)cs.off, (T *)G.h, (long)G.off, ldg);
    return qru_cuda_launched();
}

int qru_cu_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p, int ab,
                        qru_ptr cs, qru_ptr G, int ldg)
{
    if (L <= 0 || p <= 0 || ab <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? givens_accum_t<double>(ctx, L, p, ab, cs, G, ldg)
               : givens_accum_t<float>(ctx, L, p, ab, cs, G, ldg);
}
