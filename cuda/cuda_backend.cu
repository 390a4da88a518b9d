/*
 * The CUDA backend: device memory, one stream per context, cuBLAS for the
 * level-3 BLAS and the dissertation's kernels (kernels/qru_base.cl, compiled
 * here as templates over the element type).  Every op queues its work on
 * the context's stream and returns without waiting, except download and
 * col_norms, whose contract is to deliver values on the host.  Every CUDA,
 * cuBLAS and cuSOLVER error becomes a library status.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl"


/* ---- the caller's state (qru_cuda.h) -------------------------------------- */

thread_local cudaError_t qru_cuda_pending = cudaSuccess;
thread_local int qru_cuda_depth = 0;

/* cuBLAS and cuSOLVER read (and so clear) the runtime's last error, so a
 * caller's pending error of a kind that can be raised again is taken out
 * of their way for the op and raised again after it: each kind with a
 * call that fails with it and does nothing else, checked the first time
 * it is needed (on a mismatch the kind is not used again). */
static cudaError_t raise_invalid_value(void)
{
    return cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0);
}
static cudaError_t raise_invalid_device(void)
{
    int v = 0;
    return cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1);
}
static const struct {
    cudaError_t code;
    cudaError_t (*raise)(void);
} raisers[] = {{cudaErrorInvalidValue, raise_invalid_value},
               {cudaErrorInvalidDevice, raise_invalid_device}};
enum { NRAISERS = sizeof raisers / sizeof raisers[0] };
static std::atomic<int> raiser_ok[NRAISERS]; /* 0 unknown, 1 yes, -1 no */

/* The raiser of the pending error e (raised once to check it when that was
 * not done yet: a raiser that gives e leaves e pending), -1 if none. */
static int raiser_of(cudaError_t e)
{
    for (int k = 0; k < NRAISERS; ++k) {
        if (raisers[k].code != e)
            continue;
        if (raiser_ok[k].load(std::memory_order_relaxed) == 0) {
            cudaError_t r = raisers[k].raise();
            raiser_ok[k].store(r == e && cudaPeekAtLastError() == e ? 1 : -1,
                               std::memory_order_relaxed);
        }
        return raiser_ok[k].load(std::memory_order_relaxed) > 0 ? k : -1;
    }
    return -1;
}

qru_cuda_scope::qru_cuda_scope(const qru_cuda_impl *im)
    : st(0), outer(qru_cuda_depth++ == 0), prev_dev(-1), blas(NULL),
      blas_stream(NULL), blas_set_stream(0), blas_set_mode(0),
      blas_mode(CUBLAS_POINTER_MODE_HOST), solver(NULL), solver_stream(NULL),
      raiser(-1)
{
    if (!outer)
        return;
    cudaError_t e0 = cudaPeekAtLastError();
    if (e0 != cudaSuccess) {
        int k = raiser_of(e0);
        if (k >= 0) {
            (void)cudaGetLastError();
            if (cudaPeekAtLastError() == cudaSuccess) { /* not sticky */
                raiser = k;
                e0 = cudaSuccess;
            }
        }
    }
    qru_cuda_pending = e0;
    if (!im)
        return;
    int cur = -1;
    cudaError_t e = cudaGetDevice(&cur);
    if (e == cudaSuccess && cur != im->device) {
        e = cudaSetDevice(im->device);
        if (e == cudaSuccess)
            prev_dev = cur;
    }
    if (e != cudaSuccess) {
        st = qru_cuda_status(e);
        return;
    }
    if (im->blas && !im->own_blas) {
        cudaStream_t s0 = NULL;
        cublasPointerMode_t m0 = CUBLAS_POINTER_MODE_HOST;
        if (cublasGetStream(im->blas, &s0) != CUBLAS_STATUS_SUCCESS ||
            cublasGetPointerMode(im->blas, &m0) != CUBLAS_STATUS_SUCCESS) {
            st = QRU_ERR_DEVICE;
            return;
        }
        blas = im->blas;
        if (s0 != im->stream) {
            if (cublasSetStream(blas, im->stream) != CUBLAS_STATUS_SUCCESS) {
                st = QRU_ERR_DEVICE;
                return;
            }
            blas_stream = s0;
            blas_set_stream = 1;
        }
        if (m0 != CUBLAS_POINTER_MODE_HOST) {
            if (cublasSetPointerMode(blas, CUBLAS_POINTER_MODE_HOST) !=
                CUBLAS_STATUS_SUCCESS) {
                st = QRU_ERR_DEVICE;
                return;
            }
            blas_mode = m0;
            blas_set_mode = 1;
        }
    }
    if (im->solver && !im->own_solver) {
        cudaStream_t s0 = NULL;
        if (cusolverDnGetStream(im->solver, &s0) != CUSOLVER_STATUS_SUCCESS) {
            st = QRU_ERR_DEVICE;
            return;
        }
        if (s0 != im->stream) {
            if (cusolverDnSetStream(im->solver, im->stream) !=
                CUSOLVER_STATUS_SUCCESS) {
                st = QRU_ERR_DEVICE;
                return;
            }
            solver = im->solver;
            solver_stream = s0;
        }
    }
}

qru_cuda_scope::~qru_cuda_scope()
{
    --qru_cuda_depth;
    if (!outer)
        return;
    if (solver)
        (void)cusolverDnSetStream(solver, solver_stream);
    if (blas && blas_set_mode)
        (void)cublasSetPointerMode(blas, blas_mode);
    if (blas && blas_set_stream)
        (void)cublasSetStream(blas, blas_stream);
    if (prev_dev >= 0)
        (void)cudaSetDevice(prev_dev);
    qru_cuda_clear();
    if (raiser >= 0)
        (void)raisers[raiser].raise();
}

/* ---- context ---------------------------------------------------------------- */

int qru_cu_probe(void)
{
    qru_cuda_scope sc(NULL);
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n < 1)
        return QRU_ERR_BACKEND_UNAVAILABLE;
    return 0;
}

static void release(qru_cuda_impl *im)
{
    if (im->solver && im->own_solver)
        cusolverDnDestroy(im->solver);
    if (im->blas && im->own_blas)
        cublasDestroy(im->blas);
    if (im->stream && im->own_stream) {
        cudaStreamSynchronize(im->stream);
        cudaStreamDestroy(im->stream);
    }
    free(im);
}

/* (the scope puts the caller's device and error state back; an adopted
 * handle is left as it is: each op's scope sets and restores it) */
static int init_impl(qru_context *ctx, const qru_context_options *opt)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1)
        return QRU_ERR_BACKEND_UNAVAILABLE;
    int dev = opt ? opt->device : -1;
    if (dev < 0) {
        /* the environment's QRU_DEVICE, read at context creation */
        if (ctx->env.device == -2)
            return QRU_ERR_BACKEND_UNAVAILABLE;
        dev = ctx->env.device >= 0 ? ctx->env.device : 0;
    }
    if (dev >= count)
        return QRU_ERR_BACKEND_UNAVAILABLE;

    qru_cuda_impl *im = (qru_cuda_impl *)calloc(1, sizeof *im);
    if (!im)
        return QRU_ERR_ALLOC;
    im->device = dev;
    int st = qru_cuda_status(cudaSetDevice(dev));
    cudaDeviceProp prop;
    if (!st)
        st = qru_cuda_status(cudaGetDeviceProperties(&prop, dev));
    if (st) {
        free(im);
        return st;
    }
    im->sm_count = prop.multiProcessorCount;
    int pools = 0;
    if (cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, dev) !=
        cudaSuccess)
        pools = 0;
    im->async_alloc = pools != 0;
    qru_cuda_clear();

    if (opt && opt->stream) {
        im->stream = (cudaStream_t)opt->stream;
    } else {
        st = qru_cuda_status(
            cudaStreamCreateWithFlags(&im->stream, cudaStreamNonBlocking));
        if (st) {
            release(im);
            return st;
        }
        im->own_stream = 1;
    }
    if (opt && opt->blas_handle) {
        im->blas = (cublasHandle_t)opt->blas_handle;
    } else {
        st = qru_cublas_status(cublasCreate(&im->blas));
        if (st) {
            im->blas = NULL;
            release(im);
            return st;
        }
        im->own_blas = 1;
        st = qru_cublas_status(cublasSetStream(im->blas, im->stream));
        if (!st)
            st = qru_cublas_status(
                cublasSetPointerMode(im->blas, CUBLAS_POINTER_MODE_HOST));
    }
    if (opt && opt->solver_handle) {
        im->solver = (cusolverDnHandle_t)opt->solver_handle;
    } else if (!st) {
        st = qru_cusolver_status(cusolverDnCreate(&im->solver));
        if (st)
            im->solver = NULL;
        else
            im->own_solver = 1;
        if (!st)
            st = qru_cusolver_status(
                cusolverDnSetStream(im->solver, im->stream));
    }
    if (st) {
        release(im);
        return st;
    }
    ctx->impl = im;
    snprintf(ctx->device_name, sizeof ctx->device_name,
             "%.200s (CUDA device %d, sm_%d%d)", prop.name, dev, prop.major,
             prop.minor);
    return 0;
}

int qru_cu_init(qru_context *ctx, const qru_context_options *opt)
{
    qru_cuda_scope sc(NULL);
    int cur = -1;
    if (cudaGetDevice(&cur) != cudaSuccess)
        cur = -1;
    int st = init_impl(ctx, opt);
    if (cur >= 0)
        (void)cudaSetDevice(cur);
    return st;
}

void qru_cu_fini(qru_context *ctx)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (!im)
        return;
    {
        qru_cuda_scope sc(im); /* holds copies of the adopted handles */
        if (!im->own_stream) /* leave the caller's stream with nothing of
                                ours */
            cudaStreamSynchronize(im->stream);
        release(im);
    }
    ctx->impl = NULL;
}

int qru_cu_supports(const qru_context *ctx, qru_dtype dt)
{
    (void)ctx;
    return dt == QRU_FLOAT || dt == QRU_DOUBLE; /* fp64 on every CUDA GPU */
}

int qru_cu_sync(qru_context *ctx)
{
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return qru_cuda_status(cudaStreamSynchronize(qru_cuda(ctx)->stream));
}

/* ---- memory --------------------------------------------------------------- */

int qru_cu_alloc(qru_context *ctx, size_t bytes, void **h)
{
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    void *p = NULL;
    /* never a zero-size request: a NULL handle means "no matrix" above */
    st = qru_cuda_status(cudaMalloc(&p, bytes < 256 ? 256 : bytes));
    if (st)
        return st;
    *h = p;
    return 0;
}

void qru_cu_free(qru_context *ctx, void *h)
{
    if (!h)
        return;
    (void)qru_cuda_enter(ctx);
    cudaFree(h);
    qru_cuda_clear();
}


int qru_cuda_scratch(qru_context *ctx, size_t bytes, void **p)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (bytes < 256)
        bytes = 256;
    if (im->async_alloc) {
        cudaError_t e = cudaMallocAsync(p, bytes, im->stream);
        if (e == cudaSuccess)
            return 0;
        if (e != cudaErrorNotSupported)
            return qru_cuda_status(e);
        qru_cuda_clear();
        im->async_alloc = 0;
    }
    /* no stream-ordered allocator: plain cudaMalloc (cudaFree syncs) */
    return qru_cuda_status(cudaMalloc(p, bytes));
}

void qru_cuda_scratch_free(qru_context *ctx, void *p)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (!p)
        return;
    if (im->async_alloc)
        cudaFreeAsync(p, im->stream);
    else
        cudaFree(p);
}


int qru_cu_upload(qru_context *ctx, qru_dtype dt, int m, int n, const void *src,
              int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    st = qru_cuda_status(cudaMemcpy2DAsync(
        (char *)dst.h + dst.off * es, (size_t)ldd * es, src, (size_t)lds * es,
        (size_t)m * es, (size_t)n, cudaMemcpyHostToDevice, im->stream));
    if (st)
        return st;
    /* From pageable memory the copy is staged before the call returns; from
     * page-locked memory it is not, and the caller may reuse the buffer as
     * soon as we return: wait then. */
    cudaPointerAttributes at;
    if (cudaPointerGetAttributes(&at, src) == cudaSuccess &&
        at.type == cudaMemoryTypeHost)
        return qru_cuda_status(cudaStreamSynchronize(im->stream));
    qru_cuda_clear();
    return 0;
}

int qru_cu_download(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                int lds, void *dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    st = qru_cuda_status(cudaMemcpy2DAsync(
        dst, (size_t)ldd * es, (const char *)src.h + src.off * es,
        (size_t)lds * es, (size_t)m * es, (size_t)n, cudaMemcpyDeviceToHost,
        im->stream));
    if (st)
        return st;
    return qru_cuda_status(cudaStreamSynchronize(im->stream));
}

int qru_cu_copy(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
            int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    const char *s0 = (const char *)src.h + src.off * es;
    char *d0 = (char *)dst.h + dst.off * es;
    size_t sbytes = ((size_t)(n - 1) * lds + m) * es;
    size_t dbytes = ((size_t)(n - 1) * ldd + m) * es;
    if (s0 == d0 && lds == ldd)
        return 0;
    int overlap = s0 < d0 + dbytes && d0 < s0 + sbytes;
    if (!overlap)
        return qru_cuda_status(cudaMemcpy2DAsync(
            d0, (size_t)ldd * es, s0, (size_t)lds * es, (size_t)m * es,
            (size_t)n, cudaMemcpyDeviceToDevice, im->stream));
    /* Overlapping move (towards the start, as when rows or columns are
     * deleted): cudaMemcpy2D forbids overlap and one kernel could read an
     * element after another block has overwritten it, so stage the block
     * through stream-ordered scratch memory. */
    void *tmp = NULL;
    st = qru_cuda_scratch(ctx, (size_t)m * n * es, &tmp);
    if (st)
        return st;
    st = qru_cuda_status(cudaMemcpy2DAsync(tmp, (size_t)m * es, s0,
                                           (size_t)lds * es, (size_t)m * es,
                                           (size_t)n, cudaMemcpyDeviceToDevice,
                                           im->stream));
    if (!st)
        st = qru_cuda_status(cudaMemcpy2DAsync(
            d0, (size_t)ldd * es, tmp, (size_t)m * es, (size_t)m * es,
            (size_t)n, cudaMemcpyDeviceToDevice, im->stream));
    qru_cuda_scratch_free(ctx, tmp);
    return st;
}

/* ---- elementwise kernels -------------------------------------------------- */


template <typename T>
static int laset_t(qru_context *ctx, int uplo, int m, int n, double off, double dg,
            qru_ptr A, int lda)
{
    qru_laset<T><<<qru_grid2d(m, n), qru_block2d(), 0, qru_cuda(ctx)->stream>>>(
        uplo, m, n, (T)off, (T)dg, (T *)A.h, (long)A.off, lda);
    return qru_cuda_launched();
}

int qru_cu_laset(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
             double off, double dg, qru_ptr A, int lda)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    int u = (uplo == 'U' || uplo == 'u') ? 1 : (uplo == 'L' || uplo == 'l') ? 2 : 0;
    return dt == QRU_DOUBLE ? laset_t<double>(ctx, u, m, n, off, dg, A, lda)
                            : laset_t<float>(ctx, u, m, n, off, dg, A, lda);
}

template <typename T>
static int transpose_t(qru_context *ctx, int m, int n, qru_ptr A, int lda, qru_ptr B,
                int ldb)
{
    dim3 grid(qru_blocks(m, QRU_TILE, 1u << 16),
              qru_blocks(n, QRU_TILE, 1u << 15));
    qru_transpose<T><<<grid, dim3(QRU_TILE, 8), 0, qru_cuda(ctx)->stream>>>(
        m, n, (const T *)A.h, (long)A.off, lda, (T *)B.h, (long)B.off, ldb);
    return qru_cuda_launched();
}

int qru_cu_transpose(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                 int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE ? transpose_t<double>(ctx, m, n, A, lda, B, ldb)
                            : transpose_t<float>(ctx, m, n, A, lda, B, ldb);
}

/* ---- BLAS (cuBLAS) -------------------------------------------------------- */

static cublasOperation_t cuop(char t)
{
    return (t == 'T' || t == 't' || t == 'C' || t == 'c') ? CUBLAS_OP_T
                                                         : CUBLAS_OP_N;
}

template <typename T>
static int scal2d_t(qru_context *ctx, int m, int n, double beta, qru_ptr C, int ldc)
{
    qru_scal2d<T><<<qru_grid2d(m, n), qru_block2d(), 0, qru_cuda(ctx)->stream>>>(
        m, n, (T)beta, (T *)C.h, (long)C.off, ldc);
    return qru_cuda_launched();
}

int qru_cu_gemm(qru_context *ctx, qru_dtype dt, char ta, char tb, int m, int n,
            int k, double alpha, qru_ptr A, int lda, qru_ptr B, int ldb,
            double beta, qru_ptr C, int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    if (k <= 0 || alpha == 0.0) { /* C = beta C, exactly 0 for beta == 0 */
        if (beta == 1.0)
            return 0;
        return dt == QRU_DOUBLE ? scal2d_t<double>(ctx, m, n, beta, C, ldc)
                                : scal2d_t<float>(ctx, m, n, beta, C, ldc);
    }
    cublasHandle_t h = qru_cuda(ctx)->blas;
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDgemm(
            h, cuop(ta), cuop(tb), m, n, k, &alpha, qru_dp<double>(A), lda,
            qru_dp<double>(B), ldb, &beta, qru_dp<double>(C), ldc));
    float a = (float)alpha, b = (float)beta;
    return qru_cublas_status(cublasSgemm(h, cuop(ta), cuop(tb), m, n, k, &a,
                                         qru_dp<float>(A), lda,
                                         qru_dp<float>(B), ldb, &b,
                                         qru_dp<float>(C), ldc));
}

int qru_cu_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo, char ta,
            char diag, int m, int n, double alpha, qru_ptr A, int lda,
            qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    cublasHandle_t h = qru_cuda(ctx)->blas;
    cublasSideMode_t s =
        (side == 'L' || side == 'l') ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    cublasFillMode_t u = (uplo == 'U' || uplo == 'u') ? CUBLAS_FILL_MODE_UPPER
                                                      : CUBLAS_FILL_MODE_LOWER;
    cublasDiagType_t d =
        (diag == 'U' || diag == 'u') ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDtrsm(h, s, u, cuop(ta), d, m, n,
                                             &alpha, qru_dp<double>(A), lda,
                                             qru_dp<double>(B), ldb));
    float a = (float)alpha;
    return qru_cublas_status(cublasStrsm(h, s, u, cuop(ta), d, m, n, &a,
                                         qru_dp<float>(A), lda,
                                         qru_dp<float>(B), ldb));
}

template <typename T>
static int col_norms_t(qru_context *ctx, int m, int n, qru_ptr A, int lda,
                double *norms)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    T *host = (T *)malloc((size_t)n * sizeof(T));
    if (!host)
        return QRU_ERR_ALLOC;
    void *dev = NULL;
    int st = qru_cuda_scratch(ctx, (size_t)n * sizeof(T), &dev);
    if (st) {
        free(host);
        return st;
    }
    qru_col_norms<T><<<qru_blocks(n, 1, 1u << 16), QRU_RED, 0, im->stream>>>(
        m, n, (const T *)A.h, (long)A.off, lda, (T *)dev, 0L);
    st = qru_cuda_launched();
    if (!st)
        st = qru_cuda_status(cudaMemcpyAsync(host, dev, (size_t)n * sizeof(T),
                                             cudaMemcpyDeviceToHost,
                                             im->stream));
    qru_cuda_scratch_free(ctx, dev);
    if (!st)
        st = qru_cuda_status(cudaStreamSynchronize(im->stream));
    if (!st)
        for (int j = 0; j < n; ++j)
            norms[j] = (double)host[j];
    free(host);
    return st;
}

int qru_cu_col_norms(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                 int lda, double *norms)
{
    if (n <= 0)
        return 0;
    if (m <= 0) {
        for (int j = 0; j < n; ++j)
            norms[j] = 0.0;
        return 0;
    }
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE ? col_norms_t<double>(ctx, m, n, A, lda, norms)
                            : col_norms_t<float>(ctx, m, n, A, lda, norms);
}

/* Groups of the count_nonfinite kernel along x and y (at most 16 x 256
 * partial counts, read back and added on the host). */
#define NONFIN_GX 16
#define NONFIN_GY 256

int qru_cu_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo, int m,
                           int n, qru_ptr A, int lda, int *count)
{
    *count = 0;
    if (m <= 0 || n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    qru_cuda_impl *im = qru_cuda(ctx);
    unsigned gx = qru_blocks(m, QRU_RED, NONFIN_GX);
    unsigned gy = qru_blocks(n, 1, NONFIN_GY);
    int part[NONFIN_GX * NONFIN_GY];
    void *dev = NULL;
    if ((st = qru_cuda_scratch(ctx, sizeof(int) * gx * gy, &dev)) != 0)
        return st;
    int u = (uplo == 'U' || uplo == 'u')   ? 1
            : (uplo == 'L' || uplo == 'l') ? 2
                                           : 0;
    if (dt == QRU_DOUBLE)
        qru_count_nonfinite<double><<<dim3(gx, gy), QRU_RED, 0, im->stream>>>(
            u, m, n, (const double *)A.h, (long)A.off, lda, (int *)dev);
    else
        qru_count_nonfinite<float><<<dim3(gx, gy), QRU_RED, 0, im->stream>>>(
            u, m, n, (const float *)A.h, (long)A.off, lda, (int *)dev);
    st = qru_cuda_launched();
    if (!st)
        st = qru_cuda_status(cudaMemcpyAsync(part, dev,
                                             sizeof(int) * gx * gy,
                                             cudaMemcpyDeviceToHost,
                                             im->stream));
    qru_cuda_scratch_free(ctx, dev);
    if (!st)
        st = qru_cuda_status(cudaStreamSynchronize(im->stream));
    if (st)
        return st;
    long long c = 0;
    for (unsigned i = 0; i < gx * gy; ++i)
        c += part[i];
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

/* ---- Householder kernels -------------------------------------------------- */

template <typename T>
static int house_t(qru_context *ctx, int n, qru_ptr alpha, qru_ptr x, qru_ptr v,
            qru_ptr tau)
{
    int same = x.h == v.h && x.off == v.off;
    qru_house<T><<<1, QRU_RED, 0, qru_cuda(ctx)->stream>>>(
        n, (T *)alpha.h, (long)alpha.off, (T *)x.h, (long)x.off, (T *)v.h,
        (long)v.off, (T *)tau.h, (long)tau.off, same);
    return qru_cuda_launched();
}

int qru_cu_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha, qru_ptr x,
             qru_ptr v, qru_ptr tau)
{
    /* n == 0 still launches: tau = 0 must be written */
    if (n < 0)
        n = 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE ? house_t<double>(ctx, n, alpha, x, v, tau)
                            : house_t<float>(ctx, n, alpha, x, v, tau);
}

template <typename T>
static int larf_t(qru_context *ctx, int m, int n, qru_ptr v, qru_ptr tau,
           qru_ptr top, int ldt, qru_ptr C, int ldc)
{
    dim3 b = qru_colred_block(m);
    qru_larf<T><<<qru_blocks(n, b.y, 1u << 20), b, 0,
                  qru_cuda(ctx)->stream>>>(
        m, n, (const T *)v.h, (long)v.off, (const T *)tau.h, (long)tau.off,
        (T *)top.h, (long)top.off, ldt, (T *)C.h, (long)C.off, ldc);
    return qru_cuda_launched();
}

int qru_cu_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
            qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
            qru_ptr work)
{
    (void)work; /* the fused kernel keeps w in local memory */
    if (n <= 0)
        return 0;
    if (m < 0)
        m = 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? larf_t<double>(ctx, m, n, v, tau, top, ldt, C, ldc)
               : larf_t<float>(ctx, m, n, v, tau, top, ldt, C, ldc);
}

template <typename T>
static int wy_append_t(qru_context *ctx, int m, int j, qru_ptr Y, int ldy, qru_ptr W,
                int ldw, qru_ptr tau, qru_ptr work)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    if (j > 0) {
        dim3 b = qru_colred_block(m);
        qru_gemv_t<T><<<qru_blocks(j, b.y, 1u << 20), b, 0, s>>>(
            m, j, (const T *)Y.h, (long)Y.off, ldy, (const T *)Y.h,
            (long)(Y.off + (size_t)j * ldy), (T *)work.h, (long)work.off);
    }
    qru_wy_col<T><<<qru_blocks(m, 256, 1u << 20), 256, 0, s>>>(
        m, j, (const T *)Y.h, (long)Y.off, ldy, (T *)W.h, (long)W.off, ldw,
        (const T *)work.h, (long)work.off, (const T *)tau.h, (long)tau.off);
    return qru_cuda_launched();
}

int qru_cu_wy_append(qru_context *ctx, qru_dtype dt, int m, int j, qru_ptr Y,
                 int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work)
{
    if (m <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? wy_append_t<double>(ctx, m, j, Y, ldy, W, ldw, tau, work)
               : wy_append_t<float>(ctx, m, j, Y, ldy, W, ldw, tau, work);
}


