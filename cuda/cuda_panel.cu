/*
 * CUDA versions of the fused-panel ops (contracts in
 * src/qru_internal.h, "fused panels"):
 *  - panel_qr: the Householder QR of an m x nb panel with its WY factor in
 *    ONE kernel launch (kernels/qru_panel.cl).  Short panels run in one
 *    thread block; taller ones in G blocks of one cooperative launch (all
 *    blocks resident, grid barriers between the steps of a column), so
 *    that a tall panel is not limited to one SM's bandwidth.  Complex data
 *    runs the same kernels but the register one (QRU_PREG_FITS: its
 *    arrays are sized for 8-byte elements, and complex float would take
 *    more registers than its block may have); the warp-chain kernel
 *    takes at most 32 columns of complex double (pc_dim);
 *  - geqrf_full: cuSOLVER geqrf + ormqr (Q'B) + orgqr (Q or Q1), workspace from
 *    the caller (the context pool), devInfo checked at the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cooperative_groups.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl"
#define QRU_LOAD_CG(p) qru_ldcg(p)
#define QRU_GRID_SYNC cooperative_groups::this_grid().sync()
#include "qru_panel.cl"

/* ---- panel_qr --------------------------------------------------------------- */

/* The on-chip panel (kernels/qru_panel.cl, qru_panel_lds_body): one block
 * of SMEM_THREADS threads (32 warps = 32 teams), the panel in dynamic
 * shared memory. */
#define SMEM_THREADS 1024
template <typename T>
__global__ void __launch_bounds__(SMEM_THREADS)
    qru_panel_qr_smem(int m, int nb, T *A, long oa, int lda, T *Y, long oy,
                      int ldy, T *W, long ow, int ldw, T *tau, long ot,
                      int wmode, T *To, long oto)
{
    extern __shared__ __align__(16) unsigned char qru_panel_smem_[];
    qru_panel_lds_body(m, nb, A, oa, lda, Y, oy, ldy, W, ow, ldw, tau, ot,
                       wmode, To, oto, (T *)qru_panel_smem_);
}

/* Bytes of dynamic shared memory qru_panel_qr_smem<T> may take on the
 * context's device (the opt-in maximum per block, raised once per device
 * and type), 0 if none. */
template <typename T> static size_t smem_capacity(qru_context *ctx)
{
    static long cache[QRU_CUDA_MAXDEV];
    return qru_cuda_smem_optin(ctx, (const void *)qru_panel_qr_smem<T>, cache, 0);
}

template <typename T> static size_t smem_bytes(int m, int nb)
{
    return ((size_t)m * nb + (size_t)nb * nb + 2 * (size_t)nb) * sizeof(T);
}

/* Blocks of qru_panel_qr<T> that can be resident at once on the context's
 * device (0: no cooperative launch there); cached per device and type. */
template <typename T> static int coop_capacity(qru_context *ctx)
{
    enum { MAXDEV = 64 };
    static int cache[MAXDEV]; /* 0: unknown, -1: none, else capacity */
    qru_cuda_impl *im = qru_cuda(ctx);
    int dev = im->device;
    if (dev >= 0 && dev < MAXDEV && cache[dev] != 0)
        return cache[dev] > 0 ? cache[dev] : 0;
    int coop = 0, per_sm = 0, cap = 0;
    if (cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev) ==
            cudaSuccess &&
        coop &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, qru_panel_qr<T>, QRU_RED, 0) == cudaSuccess)
        cap = per_sm * im->sm_count;
    qru_cuda_clear();
    if (dev >= 0 && dev < MAXDEV)
        cache[dev] = cap > 0 ? cap : -1;
    return cap;
}

/* Blocks for an m x nb panel: one per panel_group_rows rows (the
 * tuning's: below it a panel is not split further), at most one per SM,
 * at most what can be resident and what work holds.  The tuning's
 * panel_groups (a positive count) overrides the first two rules (for tests
 * and experiments). */
template <typename T> static int panel_groups(qru_context *ctx, int m, int nb)
{
    const qru_tuning *t = qru_cu_tuning<T>(ctx);
    int env = t->panel_groups;
    long rows = t->panel_group_rows;
    long g = env > 0 ? env : (m + rows - 1) / rows;
    if (env == 0 && g > qru_cuda(ctx)->sm_count)
        g = qru_cuda(ctx)->sm_count;
    if (g > m)
        g = m;
    long wcap = (long)(qru_panel_work(m, nb) / (2 * (size_t)nb + 2));
    if (g > wcap)
        g = wcap;
    if (g > 1) {
        int cap = coop_capacity<T>(ctx);
        if (g > cap)
            g = cap;
    }
    return g < 1 ? 1 : (int)g;
}

/* Which panel kernel: the tuning's panel_kernel (qru_panel_kernel,
 * src/qru_tuning.h): AUTO (the default: the warp-chain kernel, else
 * registers, else shared memory, else the tall panel over many blocks
 * (cuda_panel_grid.cu), else global memory: the first that fits), SMEM
 * (neither the warp-chain nor the register kernel), GLOBAL (the
 * global-memory kernel only), GRID (the many-block kernel wherever it
 * applies, else global memory) or REG (as AUTO without the warp-chain
 * kernel). */

/* The register kernel's limits (kernels/qru_panel.cl) and block. */
#define REG_THREADS 512
#define REG_MAX_ROWS (QRU_TEAM * QRU_PREG_R)
#define REG_MAX_NB                                                             \
    ((REG_THREADS / QRU_TEAM) * QRU_PREG_C < QRU_PREG_NB                       \
         ? (REG_THREADS / QRU_TEAM) * QRU_PREG_C                               \
         : QRU_PREG_NB)

#include "cuda_panel_chain.cuh"

/* Whether the warp-chain kernel's shared memory can be had on the
 * context's device (raised once per device and type). */
template <typename T> static int chain_fits(qru_context *ctx)
{
    static long cache[QRU_CUDA_MAXDEV];
    return qru_cuda_smem_optin(ctx, (const void *)qru_panel_qr_chain<T>,
                               cache, 0) >= PC_LOCAL_BYTES(T);
}

static cublasStatus_t trmm_rn(cublasHandle_t h, int m, int n, const double *a,
                              const double *T, int ldt, const double *Y,
                              int ldy, double *W, int ldw)
{
    return cublasDtrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                       CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, a, T, ldt, Y,
                       ldy, W, ldw);
}
static cublasStatus_t trmm_rn(cublasHandle_t h, int m, int n, const float *a,
                              const float *T, int ldt, const float *Y,
                              int ldy, float *W, int ldw)
{
    return cublasStrmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                       CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, a, T, ldt, Y,
                       ldy, W, ldw);
}
/* the complex types: C and Z */
#define QRU_TRMM_CPLX_(R, C, P)                                                \
    static cublasStatus_t trmm_rn(cublasHandle_t h, int m, int n,             \
                                  const qru_cplx<R> *a, const qru_cplx<R> *T, \
                                  int ldt, const qru_cplx<R> *Y, int ldy,     \
                                  qru_cplx<R> *W, int ldw)                    \
    {                                                                          \
        return cublas##P##trmm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,   \
                               CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n,        \
                               (const C *)a, (const C *)T, ldt, (const C *)Y,  \
                               ldy, (C *)W, ldw);                              \
    }
QRU_TRMM_CPLX_(float, cuComplex, C)
QRU_TRMM_CPLX_(double, cuDoubleComplex, Z)
#undef QRU_TRMM_CPLX_

template <typename T>
static int panel_t(qru_context *ctx, int m, int mt, int nb, qru_ptr A,
                   int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy, qru_ptr W,
                   int ldw, qru_ptr tau, qru_ptr work)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    cudaStream_t s = im->stream;
    int which = qru_cu_tuning<T>(ctx)->panel_kernel;
    T *a = (T *)A.h, *b = (T *)B.h, *y = (T *)Y.h, *w = (T *)W.h,
      *t = (T *)tau.h, *wk = (T *)work.h;
    long oa = (long)A.off, ob = (long)B.off, oy = (long)Y.off,
         ow = (long)W.off, ot = (long)tau.off, ok = (long)work.off;
    size_t sb = smem_bytes<T>(m, nb);
    int onchip = 0;
    int chain = which == QRU_PANEL_KERNEL_AUTO;
    int reg = chain || which == QRU_PANEL_KERNEL_REG;
    int smem = reg || which == QRU_PANEL_KERNEL_SMEM;
    int grid = which != QRU_PANEL_KERNEL_GLOBAL;
    if (chain && m <= PC_LEN && nb <= PC_NB && chain_fits<T>(ctx)) {
        /* W formed in the kernel */
        qru_panel_qr_chain<T><<<1, PC_THREADS, PC_LOCAL_BYTES(T), s>>>(
            m, mt, nb, a, oa, lda, b, ob, ldb, y, oy, ldy, w, ow, ldw, t, ot);
        return qru_cuda_launched();
    }
    if (mt < m) /* the other kernels read one array: gathered */
        return qru_panel_qr_tp_gather(ctx, &ctx->table, qru_cu_dtype<T>(),
                                      mt, m - mt, nb, A, lda, B, ldb, Y, ldy,
                                      W, ldw, tau, work);
    if constexpr (QRU_PREG_FITS(T)) {
        if (reg && m <= REG_MAX_ROWS && nb <= REG_MAX_NB) {
            qru_panel_qr_reg<T><<<1, REG_THREADS, 0, s>>>(
                m, nb, a, oa, lda, y, oy, ldy, t, ot, wk, ok);
            onchip = 1;
        }
    }
    if (!onchip && smem && sb <= smem_capacity<T>(ctx)) {
        qru_panel_qr_smem<T><<<1, SMEM_THREADS, sb, s>>>(
            m, nb, a, oa, lda, y, oy, ldy, w, ow, ldw, t, ot, 1, wk, ok);
        onchip = 1;
    }
    int chunk = 0;
    if (!onchip && grid &&
        (chunk = qru_cu_panel_grid_rows<T>(ctx, m, nb)) > 0 &&
        qru_cu_panel_grid<T>(ctx, m, nb, chunk, A, lda, Y, ldy, tau, work) ==
            0)
        onchip = 1;
    if (onchip) {
        /* W = -Y T (T upper triangular, nb x nb in work) */
        int st = qru_cuda_launched();
        if (st)
            return st;
        T m1 = T(-1); /* host pointer mode: the op's scope or init set it */
        return qru_cublas_status(trmm_rn(im->blas, m, nb, &m1, wk + ok, nb,
                                         y + oy, ldy, w + ow, ldw));
    }
    int G = panel_groups<T>(ctx, m, nb);
    chunk = (m + G - 1) / G;
    if (G > 1) {
        void *args[] = {&m,  &nb, &a,  &oa, &lda, &y,  &oy, &ldy,
                        &w,  &ow, &ldw, &t, &ot,  &wk, &ok, &chunk};
        cudaError_t e = cudaLaunchCooperativeKernel(
            (const void *)qru_panel_qr<T>, dim3(G), dim3(QRU_RED), args, 0,
            s);
        if (e == cudaSuccess)
            return 0;
        /* e.g. too large a cooperative grid next to other work: one block
         * computes the same */
        qru_cuda_clear();
        chunk = m;
    }
    qru_panel_qr<T><<<1, QRU_RED, 0, s>>>(m, nb, a, oa, lda, y, oy, ldy, w,
                                           ow, ldw, t, ot, wk, ok, chunk);
    return qru_cuda_launched();
}

int qru_cu_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb, qru_ptr A,
                    int lda, qru_ptr Y, int ldy, qru_ptr W, int ldw,
                    qru_ptr tau, qru_ptr work)
{
    if (nb <= 0 || m <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, panel_t, ctx, m, m, nb, A, lda, A, lda, Y, ldy,
                          W, ldw, tau, work);
}

int qru_cu_panel_qr_tp(qru_context *ctx, qru_dtype dt, int mt, int mb,
                       int nb, qru_ptr A, int lda, qru_ptr B, int ldb,
                       qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                       qru_ptr work)
{
    int m = mt + mb;
    if (nb <= 0 || m <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, panel_t, ctx, m, mt, nb, A, lda, B, ldb, Y, ldy,
                          W, ldw, tau, work);
}

/* Largest nb whose (nb + extra) x nb panel runs on chip (the shared-memory
 * kernel above; a complex element takes twice the bytes), 0 if none; or
 * the warp-chain kernel's width where that kernel takes the panel and
 * T's registers narrow it below the real types' QRU_PREG_NB (complex
 * double: 32 columns, pc_dim): the updates' panels (64 columns by
 * default) then run on it rather than wider ones on the shared-memory
 * kernel, whose column steps each take a barrier of the whole block. */
template <typename T> static int max_nb_t(qru_context *ctx, int extra)
{
    size_t cap = smem_capacity<T>(ctx);
    int nb = 0;
    if (PC_NB < QRU_PREG_NB &&
        qru_cu_tuning<T>(ctx)->panel_kernel == QRU_PANEL_KERNEL_AUTO &&
        extra + PC_NB <= PC_LEN && chain_fits<T>(ctx))
        return PC_NB;
    if (QRU_PREG_FITS(T) && extra + REG_MAX_NB <= REG_MAX_ROWS &&
        smem_bytes<T>(REG_MAX_NB + extra, REG_MAX_NB) > cap)
        return REG_MAX_NB; /* the register kernel is the wider one */
    while (nb < 1024 && smem_bytes<T>(nb + 1 + extra, nb + 1) <= cap)
        ++nb;
    return nb;
}

int qru_cu_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra,
                           int *nb)
{
    *nb = 0;
    if (extra < 0)
        return 0;
    *nb = QRU_CU_BY_TYPE(dt, max_nb_t, ctx, extra);
    return 0;
}

/* ---- geqrf_full (cuSOLVER) ----------------------------------------------- */

/* cuSOLVER's geqrf/ormqr/orgqr, by type. */
static cusolverStatus_t sv_geqrf_bs(cusolverDnHandle_t h, int n, int m,
                                    double *A, int lda, int *lw)
{
    return cusolverDnDgeqrf_bufferSize(h, n, m, A, lda, lw);
}
static cusolverStatus_t sv_geqrf_bs(cusolverDnHandle_t h, int n, int m,
                                    float *A, int lda, int *lw)
{
    return cusolverDnSgeqrf_bufferSize(h, n, m, A, lda, lw);
}
static cusolverStatus_t sv_ormqr_bs(cusolverDnHandle_t h, int n, int r, int k,
                                    const double *A, int lda,
                                    const double *tau, const double *B,
                                    int ldb, int *lw)
{
    return cusolverDnDormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r,
                                       k, A, lda, tau, B, ldb, lw);
}
static cusolverStatus_t sv_ormqr_bs(cusolverDnHandle_t h, int n, int r, int k,
                                    const float *A, int lda, const float *tau,
                                    const float *B, int ldb, int *lw)
{
    return cusolverDnSormqr_bufferSize(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r,
                                       k, A, lda, tau, B, ldb, lw);
}
static cusolverStatus_t sv_orgqr_bs(cusolverDnHandle_t h, int n, int qc,
                                    int k, const double *Q, int ldq,
                                    const double *tau, int *lw)
{
    return cusolverDnDorgqr_bufferSize(h, n, qc, k, Q, ldq, tau, lw);
}
static cusolverStatus_t sv_orgqr_bs(cusolverDnHandle_t h, int n, int qc,
                                    int k, const float *Q, int ldq,
                                    const float *tau, int *lw)
{
    return cusolverDnSorgqr_bufferSize(h, n, qc, k, Q, ldq, tau, lw);
}
static cusolverStatus_t sv_geqrf(cusolverDnHandle_t h, int n, int m,
                                 double *A, int lda, double *tau, double *w,
                                 int lw, int *info)
{
    return cusolverDnDgeqrf(h, n, m, A, lda, tau, w, lw, info);
}
static cusolverStatus_t sv_geqrf(cusolverDnHandle_t h, int n, int m, float *A,
                                 int lda, float *tau, float *w, int lw,
                                 int *info)
{
    return cusolverDnSgeqrf(h, n, m, A, lda, tau, w, lw, info);
}
static cusolverStatus_t sv_ormqr(cusolverDnHandle_t h, int n, int r, int k,
                                 const double *A, int lda, const double *tau,
                                 double *B, int ldb, double *w, int lw,
                                 int *info)
{
    return cusolverDnDormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, k, A, lda,
                            tau, B, ldb, w, lw, info);
}
static cusolverStatus_t sv_ormqr(cusolverDnHandle_t h, int n, int r, int k,
                                 const float *A, int lda, const float *tau,
                                 float *B, int ldb, float *w, int lw,
                                 int *info)
{
    return cusolverDnSormqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, k, A, lda,
                            tau, B, ldb, w, lw, info);
}
static cusolverStatus_t sv_orgqr(cusolverDnHandle_t h, int n, int qc, int k,
                                 double *Q, int ldq, const double *tau,
                                 double *w, int lw, int *info)
{
    return cusolverDnDorgqr(h, n, qc, k, Q, ldq, tau, w, lw, info);
}
static cusolverStatus_t sv_orgqr(cusolverDnHandle_t h, int n, int qc, int k,
                                 float *Q, int ldq, const float *tau, float *w,
                                 int lw, int *info)
{
    return cusolverDnSorgqr(h, n, qc, k, Q, ldq, tau, w, lw, info);
}
/* the complex types: C and Z, Q' b by unmqr with the conjugate transpose */
#define QRU_SV_CPLX_(R, C, P)                                                  \
    static cusolverStatus_t sv_geqrf_bs(cusolverDnHandle_t h, int n, int m,    \
                                        qru_cplx<R> *A, int lda, int *lw)      \
    {                                                                          \
        return cusolverDn##P##geqrf_bufferSize(h, n, m, (C *)A, lda, lw);      \
    }                                                                          \
    static cusolverStatus_t sv_ormqr_bs(                                       \
        cusolverDnHandle_t h, int n, int r, int k, const qru_cplx<R> *A,       \
        int lda, const qru_cplx<R> *tau, const qru_cplx<R> *B, int ldb,        \
        int *lw)                                                               \
    {                                                                          \
        return cusolverDn##P##unmqr_bufferSize(                                \
            h, CUBLAS_SIDE_LEFT, CUBLAS_OP_C, n, r, k, (const C *)A, lda,      \
            (const C *)tau, (const C *)B, ldb, lw);                            \
    }                                                                          \
    static cusolverStatus_t sv_orgqr_bs(cusolverDnHandle_t h, int n, int qc,   \
                                        int k, const qru_cplx<R> *Q, int ldq,  \
                                        const qru_cplx<R> *tau, int *lw)       \
    {                                                                          \
        return cusolverDn##P##ungqr_bufferSize(h, n, qc, k, (const C *)Q, ldq, \
                                               (const C *)tau, lw);            \
    }                                                                          \
    static cusolverStatus_t sv_geqrf(cusolverDnHandle_t h, int n, int m,       \
                                     qru_cplx<R> *A, int lda,                  \
                                     qru_cplx<R> *tau, qru_cplx<R> *w, int lw, \
                                     int *info)                                \
    {                                                                          \
        return cusolverDn##P##geqrf(h, n, m, (C *)A, lda, (C *)tau, (C *)w,    \
                                    lw, info);                                 \
    }                                                                          \
    static cusolverStatus_t sv_ormqr(                                          \
        cusolverDnHandle_t h, int n, int r, int k, const qru_cplx<R> *A,       \
        int lda, const qru_cplx<R> *tau, qru_cplx<R> *B, int ldb,              \
        qru_cplx<R> *w, int lw, int *info)                                     \
    {                                                                          \
        return cusolverDn##P##unmqr(h, CUBLAS_SIDE_LEFT, CUBLAS_OP_C, n, r, k, \
                                    (const C *)A, lda, (const C *)tau,         \
                                    (C *)B, ldb, (C *)w, lw, info);            \
    }                                                                          \
    static cusolverStatus_t sv_orgqr(cusolverDnHandle_t h, int n, int qc,      \
                                     int k, qru_cplx<R> *Q, int ldq,           \
                                     const qru_cplx<R> *tau, qru_cplx<R> *w,   \
                                     int lw, int *info)                        \
    {                                                                          \
        return cusolverDn##P##ungqr(h, n, qc, k, (C *)Q, ldq, (const C *)tau,  \
                                    (C *)w, lw, info);                         \
    }
QRU_SV_CPLX_(float, cuComplex, C)
QRU_SV_CPLX_(double, cuDoubleComplex, Z)
#undef QRU_SV_CPLX_

/* ws = [tau (k), the 3 devInfo ints (INFO_SLOTS T's), padding, work]. */
#define INFO_SLOTS 4
/* cuSOLVER's work array starts at a multiple of this many elements */
#define WORK_ALIGN 64

/* The largest lwork of the three routines for n x m, qc columns of Q, r
 * right-hand sides; p: any device array of n x max(m, n, r) elements (not
 * accessed). */
template <typename T>
static int lwork_t(qru_context *ctx, int n, int m, int qc, int r, T *p,
                   int *lw)
{
    cusolverDnHandle_t h = qru_cuda(ctx)->solver;
    int k = n < m ? n : m, l1 = 0, l2 = 0, l3 = 0;
    int st = qru_cusolver_status(sv_geqrf_bs(h, n, m, p, n, &l1));
    if (!st && r > 0)
        st = qru_cusolver_status(sv_ormqr_bs(h, n, r, k, p, n, p, p, n, &l2));
    if (!st)
        st = qru_cusolver_status(sv_orgqr_bs(h, n, qc, k, p, n, p, &l3));
    int l = l1 > l2 ? l1 : l2;
    *lw = l > l3 ? l : l3;
    return st;
}

template <typename T>
static int geqrf_full_t(qru_context *ctx, int n, int m, qru_ptr A, int lda,
                        qru_ptr Q, int ldq, int qc, qru_ptr B, int ldb, int r,
                        qru_ptr ws, size_t *ws_elems)
{
    int k = n < m ? n : m;
    int lw = 0, st;
    if (!ws.h) { /* query: the bufferSize calls get a real (tiny) array */
        void *p = NULL;
        st = qru_cuda_scratch(ctx, 256, &p);
        if (st)
            return st;
        st = lwork_t<T>(ctx, n, m, qc, r, (T *)p, &lw);
        qru_cuda_scratch_free(ctx, p);
        if (!st)
            *ws_elems = (size_t)k + INFO_SLOTS + WORK_ALIGN +
                        (size_t)(lw > 0 ? lw : 1);
        return st;
    }
    T *a = qru_dp<T>(A), *tau = qru_dp<T>(ws);
    int *info = (int *)(tau + k);
    /* cuSOLVER's work array on a 256-byte boundary (within the space
     * the query reserved) */
    size_t wo = ws.off + (size_t)k + INFO_SLOTS;
    wo = (wo + WORK_ALIGN - 1) / WORK_ALIGN * WORK_ALIGN;
    T *w = (T *)ws.h + wo;
    st = lwork_t<T>(ctx, n, m, qc, r, a, &lw);
    if (st)
        return st;
    if (lw < 1)
        lw = 1;
    cusolverDnHandle_t h = qru_cuda(ctx)->solver;
    int want[3] = {1, B.h && r > 0, Q.h != NULL};
    /* the slots of the calls not made are read back too: define them */
    st = qru_cuda_status(cudaMemsetAsync(info, 0, 3 * sizeof(int),
                                         qru_cuda(ctx)->stream));
    if (!st)
        st = qru_cusolver_status(sv_geqrf(h, n, m, a, lda, tau, w, lw, info));
    if (!st && want[1])
        st = qru_cusolver_status(sv_ormqr(h, n, r, k, a, lda, tau,
                                          qru_dp<T>(B), ldb, w, lw,
                                          info + 1));
    if (!st && want[2]) {
        st = qru_cu_lacpy(ctx, qru_cu_dtype<T>(), 'L', n, k, A, lda, Q, ldq);
        if (!st)
            st = qru_cusolver_status(sv_orgqr(h, n, qc, k, qru_dp<T>(Q),
                                              ldq, tau, w, lw, info + 2));
    }
    /* R: exact zeros below the diagonal */
    if (!st && n > 1) {
        st = qru_cu_laset(ctx, qru_cu_dtype<T>(), 'L', n - 1,
                          m < n - 1 ? m : n - 1, 0.0, 0.0,
                          qru_ptr_add(A, 1), lda);
    }
    if (st)
        return st;
    int hinfo[3] = {0, 0, 0};
    qru_cuda_impl *im = qru_cuda(ctx);
    st = qru_cuda_status(cudaMemcpyAsync(hinfo, info, sizeof hinfo,
                                         cudaMemcpyDeviceToHost, im->stream));
    if (!st)
        st = qru_cuda_status(cudaStreamSynchronize(im->stream));
    if (st)
        return st;
    for (int i = 0; i < 3; ++i)
        if (want[i] && hinfo[i] != 0)
            return QRU_ERR_INTERNAL; /* an illegal argument (info < 0) */
    return 0;
}

int qru_cu_geqrf_full(qru_context *ctx, qru_dtype dt, int n, int m,
                      qru_ptr A, int lda, qru_ptr Q, int ldq, int qc,
                      qru_ptr B, int ldb, int r, qru_ptr ws, size_t *ws_elems)
{
    if (n <= 0 || m <= 0) {
        if (!ws.h)
            *ws_elems = 0;
        return 0;
    }
    return QRU_CU_BY_TYPE(dt, geqrf_full_t, ctx, n, m, A, lda, Q, ldq, qc, B,
                          ldb, r, ws, ws_elems);
}
