/*
 * The CUDA backend: device memory, one stream per context, cuBLAS for the
 * level-3 BLAS and the dissertation's kernels (kernels/qru_base.cl, compiled
 * as templates over the element type).  This file: the caller's state, the
 * context, memory and transfers (the element-wise, BLAS and Householder
 * ops are in cuda_blas.cu).  Every op queues its work on
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
#include "qru_copy.cl"


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
    if (e != cudaSuccess)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                        "no CUDA device: cudaGetDeviceCount: %s",
                        cudaGetErrorString(e));
    if (n < 1)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE, "no CUDA device found");
    return 0;
}

/* The device's highest stream priority (highest != 0) or its lowest;
 * 0 (the default) where the range cannot be read. */
static int stream_priority(int highest)
{
    int lo = 0, hi = 0;
    if (cudaDeviceGetStreamPriorityRange(&lo, &hi) != cudaSuccess)
        lo = hi = 0;
    qru_cuda_clear();
    return highest ? hi : lo;
}

static void release(qru_cuda_impl *im)
{
    if (im->lane_stream[1]) { /* queue 1 and its handle, then queue 0's */
        cudaStreamSynchronize(im->lane_stream[1]);
        if (im->lane_blas[1])
            cublasDestroy(im->lane_blas[1]);
        cudaStreamDestroy(im->lane_stream[1]);
        for (int i = 0; i < 2; ++i)
            if (im->lane_ev[i])
                cudaEventDestroy(im->lane_ev[i]);
        im->stream = im->lane_stream[0];
        im->blas = im->lane_blas[0];
        im->own_blas = im->lane_own_blas[0];
    }
    if (im->pool) /* its memory goes back once what is queued has run */
        cudaMemPoolDestroy(im->pool);
    if (im->solver && im->own_solver)
        cusolverDnDestroy(im->solver);
    if (im->blas && im->own_blas)
        cublasDestroy(im->blas);
    if (im->stream && im->own_stream) {
        cudaStreamSynchronize(im->stream);
        cudaStreamDestroy(im->stream);
    }
    if (im->stage)
        cudaFreeHost(im->stage);
    free(im);
}

/* (the scope puts the caller's device and error state back; an adopted
 * handle is left as it is: each op's scope sets and restores it) */
static int init_impl(qru_context *ctx, const qru_context_options *opt)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count < 1)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE, "no CUDA device found");
    int dev = opt ? opt->device : -1;
    if (dev < 0) {
        /* the environment's QRU_DEVICE, read at context creation */
        if (ctx->env.device == -2)
            return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                            "QRU_DEVICE is not a device number");
        dev = ctx->env.device >= 0 ? ctx->env.device : 0;
    }
    if (dev >= count)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                        "CUDA device %d asked for, but there are %d", dev,
                        count);

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
    if (im->async_alloc) {
        cudaMemPoolProps props;
        memset(&props, 0, sizeof props);
        props.allocType = cudaMemAllocationTypePinned;
        props.handleTypes = cudaMemHandleTypeNone;
        props.location.type = cudaMemLocationTypeDevice;
        props.location.id = dev;
        unsigned long long keep = QRU_CUDA_POOL_KEEP; /* cuuint64_t */
        if (cudaMemPoolCreate(&im->pool, &props) != cudaSuccess)
            im->pool = NULL; /* the device's default pool, then */
        else if (cudaMemPoolSetAttribute(im->pool,
                                         cudaMemPoolAttrReleaseThreshold,
                                         &keep) != cudaSuccess) {
            cudaMemPoolDestroy(im->pool);
            im->pool = NULL;
        }
    }
    qru_cuda_clear();

    if (opt && opt->stream) {
        im->stream = (cudaStream_t)opt->stream;
    } else {
        /* the highest priority: with look-ahead (lane) a panel on this
         * stream gets the next free SM before the second queue's blocks */
        st = qru_cuda_status(cudaStreamCreateWithPriority(
            &im->stream, cudaStreamNonBlocking, stream_priority(1)));
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
    im->lane_stream[0] = im->stream;
    im->lane_blas[0] = im->blas;
    im->lane_own_blas[0] = im->own_blas;
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
    /* fp64 on every CUDA GPU; the complex types for the ops of the QR
     * factorisation, least squares and the updates (cuda_table.cu) */
    return dt == QRU_FLOAT || dt == QRU_DOUBLE || qru_dtype_complex(dt);
}

qru_device_type qru_cu_device_type(const qru_context *ctx)
{
    (void)ctx;
    return QRU_DEVICE_GPU;
}

int qru_cu_sync(qru_context *ctx)
{
    return qru_cuda_status(cudaStreamSynchronize(qru_cuda(ctx)->stream));
}

/* ---- the second queue ------------------------------------------------------ */

/* Makes queue l current: the stream and cuBLAS handle every op takes.
 * The context's own cuSOLVER handle stays on queue 0 (the ops that use
 * it, geqrf_full and potrf_full, are not queued on queue 1); an adopted
 * one is set to the current stream by each op's scope. */
static void lane_use(qru_cuda_impl *im, int l)
{
    im->lane = l;
    im->stream = im->lane_stream[l];
    im->blas = im->lane_blas[l];
    im->own_blas = im->lane_own_blas[l];
}

/* Queue 1 on first use: a non-blocking stream, a cuBLAS handle bound to
 * it (host pointer mode, as queue 0's) and the two events of the
 * hand-overs; on failure nothing is kept. */
static int lane_make(qru_cuda_impl *im)
{
    cudaStream_t s = NULL;
    cublasHandle_t h = NULL;
    cudaEvent_t ev[2] = {NULL, NULL};
    int st = qru_cuda_status(cudaStreamCreateWithPriority(
        &s, cudaStreamNonBlocking, stream_priority(0))); /* the lowest */
    for (int i = 0; i < 2 && !st; ++i)
        st = qru_cuda_status(
            cudaEventCreateWithFlags(&ev[i], cudaEventDisableTiming));
    if (!st)
        st = qru_cublas_status(cublasCreate(&h));
    if (!st)
        st = qru_cublas_status(cublasSetStream(h, s));
    if (!st)
        st = qru_cublas_status(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    if (st) {
        if (h)
            cublasDestroy(h);
        for (int i = 0; i < 2; ++i)
            if (ev[i])
                cudaEventDestroy(ev[i]);
        if (s)
            cudaStreamDestroy(s);
        qru_cuda_clear();
        return st;
    }
    im->lane_stream[1] = s;
    im->lane_blas[1] = h;
    im->lane_own_blas[1] = 1;
    im->lane_ev[0] = ev[0];
    im->lane_ev[1] = ev[1];
    return 0;
}

int qru_cu_lane(qru_context *ctx, qru_dtype dt, int l)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    l = l != 0 && qru_ctx_tuning(ctx, dt)->lookahead;
    if (l == im->lane)
        return 0;
    int st = 0;
    if (l == 1 && !im->lane_stream[1])
        st = lane_make(im);
    if (!st && l == 1) { /* queue 1 after queue 0's mark, or all of it */
        if (!im->lane_marked)
            st = qru_cuda_status(
                cudaEventRecord(im->lane_ev[0], im->lane_stream[0]));
        if (!st)
            st = qru_cuda_status(
                cudaStreamWaitEvent(im->lane_stream[1], im->lane_ev[0], 0));
        im->lane_marked = 0;
    }
    if (!st)
        lane_use(im, l);
    return st;
}

int qru_cu_lane_mark(qru_context *ctx, qru_dtype dt)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (!qru_ctx_tuning(ctx, dt)->lookahead)
        return 0;
    int st = 0;
    if (!im->lane_stream[1])
        st = lane_make(im);
    if (!st)
        st = qru_cuda_status(
            cudaEventRecord(im->lane_ev[0], im->lane_stream[0]));
    if (!st)
        im->lane_marked = 1;
    return st;
}

int qru_cu_lane_join(qru_context *ctx)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (!im->lane_stream[1])
        return 0; /* never used: queue 0 is current */
    int st =
        qru_cuda_status(cudaEventRecord(im->lane_ev[1], im->lane_stream[1]));
    if (!st)
        st = qru_cuda_status(
            cudaStreamWaitEvent(im->lane_stream[0], im->lane_ev[1], 0));
    im->lane_marked = 0; /* a mark not used (a failed update) is void */
    lane_use(im, 0); /* queue 0 current even after a failure */
    return st;
}

/* ---- memory --------------------------------------------------------------- */

int qru_cu_alloc(qru_context *ctx, size_t bytes, void **h)
{
    (void)ctx; /* the op's scope made its device current */
    void *p = NULL;
    /* never a zero-size request: a NULL handle means "no matrix" above */
    int st = qru_cuda_status(cudaMalloc(&p, bytes < 256 ? 256 : bytes));
    if (st)
        return st;
    *h = p;
    return 0;
}

void qru_cu_free(qru_context *ctx, void *h)
{
    if (!h)
        return;
    (void)ctx; /* the op's scope made its device current */
    cudaFree(h);
    qru_cuda_clear();
}


size_t qru_cuda_smem_optin(qru_context *ctx, const void *fn, long *cache,
                           int min_major)
{
    int dev = qru_cuda(ctx)->device;
    if (dev >= 0 && dev < QRU_CUDA_MAXDEV && cache[dev] != 0)
        return cache[dev] > 0 ? (size_t)cache[dev] : 0;
    int major = 0, optin = 0;
    long cap = -1;
    cudaFuncAttributes fa;
    /* the dynamic part: the opt-in maximum less the kernel's static
     * shared memory (asking for more fails) */
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                               dev) == cudaSuccess &&
        major >= min_major &&
        cudaDeviceGetAttribute(&optin,
                               cudaDevAttrMaxSharedMemoryPerBlockOptin,
                               dev) == cudaSuccess &&
        cudaFuncGetAttributes(&fa, fn) == cudaSuccess &&
        (optin -= (int)fa.sharedSizeBytes) > 0 &&
        cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin) == cudaSuccess)
        cap = optin;
    qru_cuda_clear();
    if (dev >= 0 && dev < QRU_CUDA_MAXDEV)
        cache[dev] = cap;
    return cap > 0 ? (size_t)cap : 0;
}

int qru_cuda_scratch(qru_context *ctx, size_t bytes, void **p)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (bytes < 256)
        bytes = 256;
    if (im->async_alloc) {
        cudaError_t e = im->pool ? cudaMallocFromPoolAsync(p, bytes, im->pool,
                                                           im->stream)
                                 : cudaMallocAsync(p, bytes, im->stream);
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
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    char *dp = (char *)dst.h + dst.off * es;
    int st = qru_cuda_status(
        n == 1 || (lds == m && ldd == m)
            ? cudaMemcpyAsync(dp, src, (size_t)m * n * es,
                              cudaMemcpyHostToDevice, im->stream)
            : cudaMemcpy2DAsync(dp, (size_t)ldd * es, src, (size_t)lds * es,
                                (size_t)m * es, (size_t)n,
                                cudaMemcpyHostToDevice, im->stream));
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
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    /* columns of a few elements (a diagonal, a row) with a gap between
     * them: the copy engine moves a 2-D copy one column at a time (about
     * 1 us each), so a kernel packs them first and one transfer follows */
    void *tmp = NULL;
    int st;
    if ((size_t)m * es < 64 && n > 16 && lds != m) {
        st = qru_cuda_scratch(ctx, (size_t)m * n * es, &tmp);
        if (!st)
            st = qru_cu_lacpy(ctx, dt, 'A', m, n, src, lds, qru_ptr{tmp, 0},
                              m);
        if (st) {
            qru_cuda_scratch_free(ctx, tmp);
            return st;
        }
        src = qru_ptr{tmp, 0};
        lds = m;
    }
    /* one run of memory (a column, or columns without gaps): a plain
     * copy, which the copy engine moves at once (a 2-D copy of narrow
     * rows goes row by row) */
    const char *sp = (const char *)src.h + src.off * es;
    size_t bytes = (size_t)m * n * es;
    int flat = n == 1 || (lds == m && ldd == m);
    if (flat) {
        st = qru_cuda_read(ctx, sp, dst, bytes);
        qru_cuda_scratch_free(ctx, tmp);
        return st;
    }
    st = qru_cuda_status(cudaMemcpy2DAsync(
        dst, (size_t)ldd * es, sp, (size_t)lds * es, (size_t)m * es,
        (size_t)n, cudaMemcpyDeviceToHost, im->stream));
    if (!st)
        st = qru_cuda_status(cudaStreamSynchronize(im->stream));
    qru_cuda_scratch_free(ctx, tmp);
    return st;
}

void *qru_cuda_stage(qru_context *ctx)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    if (!im->stage && !im->stage_failed &&
        cudaMallocHost(&im->stage, (size_t)QRU_CUDA_STAGE + QRU_CUDA_FLAG) !=
            cudaSuccess) {
        im->stage = NULL;
        im->stage_failed = 1;
        qru_cuda_clear();
    }
    return im->stage;
}

int qru_cuda_read(qru_context *ctx, const void *src, void *dst, size_t bytes)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    int small = bytes <= QRU_CUDA_STAGE && qru_cuda_stage(ctx);
    int st = qru_cuda_status(cudaMemcpyAsync(small ? im->stage : dst, src,
                                             bytes, cudaMemcpyDeviceToHost,
                                             im->stream));
    if (!st)
        st = qru_cuda_status(cudaStreamSynchronize(im->stream));
    if (!st && small)
        memcpy(dst, im->stage, bytes);
    return st;
}

/* An overlapping move towards the start whose columns do not interact
 * (the rows of each column move up, as when rows are deleted): one block
 * a column of kernels/qru_copy.cl's qru_copy_back, at most 65535 columns a
 * launch (the grid's y). */
template <typename T>
static int copy_back_t(qru_context *ctx, int m, int n, qru_ptr src,
                       qru_ptr dst, int ld)
{
    for (int j0 = 0; j0 < n; j0 += 65535) {
        int nc = n - j0 < 65535 ? n - j0 : 65535;
        size_t sh = (size_t)j0 * (size_t)ld;
        qru_copy_back<T><<<dim3(1, (unsigned)nc), 256, 0,
                           qru_cuda(ctx)->stream>>>(
            m, nc, (const T *)src.h, (long)(src.off + sh), (T *)dst.h,
            (long)(dst.off + sh), ld, 1);
        int st = qru_cuda_launched();
        if (st)
            return st;
    }
    return 0;
}

int qru_cu_copy(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
            int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t es = qru_dtype_size(dt);
    const char *s0 = (const char *)src.h + src.off * es;
    char *d0 = (char *)dst.h + dst.off * es;
    size_t sbytes = ((size_t)(n - 1) * lds + m) * es;
    size_t dbytes = ((size_t)(n - 1) * ldd + m) * es;
    if (s0 == d0 && lds == ldd)
        return 0;
    int overlap = s0 < d0 + dbytes && d0 < s0 + sbytes;
    /* columns of a few elements (a diagonal, a row): the copy engine moves
     * a 2-D copy one column at a time, tens of microseconds for 1000 of
     * them; a kernel takes a few.  Larger blocks stay on the copy engine:
     * a kernel moves them faster alone but takes the multiprocessors from
     * the GEMMs that run beside the copy, and the updates of the GPU
     * benchmarks slowed. */
    if (!overlap && (size_t)m * es < 64 && n > 16)
        return qru_cu_lacpy(ctx, dt, 'A', m, n, src, lds, dst, ldd);
    if (!overlap)
        return qru_cuda_status(cudaMemcpy2DAsync(
            d0, (size_t)ldd * es, s0, (size_t)lds * es, (size_t)m * es,
            (size_t)n, cudaMemcpyDeviceToDevice, im->stream));
    /* Overlapping move (towards the start, as when rows or columns are
     * deleted): cudaMemcpy2D forbids overlap.  Where each column moves
     * within itself (one leading dimension, the shift and the rows within
     * it), a block a column walks it towards its end, reading each chunk
     * before writing it (one read and one write of the block, no
     * scratch: the staged copy reads and writes it twice); else one kernel
     * could read an element after another block has overwritten it, so
     * the block is staged through stream-ordered scratch memory. */
    if (lds == ldd && d0 < s0 && (size_t)(s0 - d0) % es == 0 &&
        (size_t)(s0 - d0) / es + (size_t)m <= (size_t)lds)
        return QRU_CU_BY_TYPE(dt, copy_back_t, ctx, m, n, src, dst, lds);
    void *tmp = NULL;
    int st = qru_cuda_scratch(ctx, (size_t)m * n * es, &tmp);
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
