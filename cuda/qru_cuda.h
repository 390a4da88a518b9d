/*
 * Internal header of the CUDA backend (the .cu files of cuda/): the per-context state,
 * status mapping and launch helpers shared by the .cu files.
 */
#ifndef QRU_CUDA_H
#define QRU_CUDA_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include "qru_internal.h"
/* qru_cplx, the element type of the complex kernels, and qru_kt */
#include "qru_kdefs.h"

/* Per-context state (ctx->impl). */
struct qru_cuda_impl {
    int device;
    cudaStream_t stream;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    int own_stream, own_blas, own_solver;
    /* the two queues of lane / lane_join: stream, blas and own_blas above
     * are those of the current one (lane); queue 1 (a stream and a cuBLAS
     * handle of the context's own, two events) is made at the first
     * lane(ctx, 1) */
    int lane, lane_marked; /* lane_ev[0] holds a lane_mark not yet used */
    cudaStream_t lane_stream[2];
    cublasHandle_t lane_blas[2];
    int lane_own_blas[2];
    cudaEvent_t lane_ev[2];
    int async_alloc; /* stream-ordered allocation (cudaMallocAsync) works */
    /* the context's own pool for that scratch memory (NULL: the device's
     * default pool).  It keeps up to QRU_CUDA_POOL_KEEP bytes reserved
     * across synchronisations: the default pool gives its memory back at
     * every synchronisation, and mapping it again costs about 140 us of
     * each small scratch allocation (a 32 x 32 Cholesky update makes
     * two) */
    cudaMemPool_t pool;
    int sm_count;
    /* the last cuSOLVER potrf workspace size asked for, per element type
     * (dt - 1: float, double, complex float, complex double): n, fill
     * (1 upper) and lwork; n = 0: none yet
     * (qru_chol_factor asks for it twice a call: workspace, then run) */
    struct {
        int n, upper, lwork;
    } potrf_lw[4];
    /* page-locked staging of the small downloads (QRU_CUDA_STAGE bytes,
     * made at the first; stage_failed: cudaMallocHost refused, so the
     * copies go to the caller's memory directly) */
    void *stage;
    int stage_failed;
};

/* A download of up to this many contiguous bytes goes through the
 * context's page-locked staging buffer: the copy engine then writes it
 * at once, where a copy to pageable memory is staged by the driver (for
 * the few KB a solver step reads, a third to a half of the transfer's
 * latency). */
enum { QRU_CUDA_POOL_KEEP = 64 << 20, QRU_CUDA_STAGE = 256 << 10 };
/* The verdict flag (verdict_flag) lies past the staging buffer's
 * QRU_CUDA_STAGE bytes, in QRU_CUDA_FLAG bytes of its own. */
enum { QRU_CUDA_FLAG = 64 };

static inline qru_cuda_impl *qru_cuda(const qru_context *ctx)
{
    return (qru_cuda_impl *)ctx->impl;
}

/* ---- the caller's CUDA state ----------------------------------------------
 * The library runs on the caller's thread, next to the caller's own CUDA
 * work, so every backend op (cuda_table.cu wraps each one) leaves that
 * thread's CUDA state as it found it, through a qru_cuda_scope:
 *   - the current device (the scope makes the context's device current
 *     for the op, so the ops themselves never set it, and puts the
 *     caller's back);
 *   - an adopted cuBLAS handle's stream and pointer mode and an adopted
 *     cuSOLVER handle's stream (set to the context's stream and host
 *     pointers for the op, restored after it; handles the context created
 *     are set once, at init);
 *   - the runtime's last error: an error of the op's own is reported as
 *     the op's status and cleared; a caller's pending error is still
 *     pending afterwards.  The vendor libraries read (clear) the last
 *     error, so a pending error of a kind the library can raise again
 *     (invalid value, invalid device) is taken away for the op and raised
 *     again after it; any other is left pending (errors are read with
 *     cudaPeekAtLastError and compared with it).  Limits: with a pending
 *     error of another kind, a vendor call may clear it, an op that fails
 *     may leave its own error in its place, and a failed launch with that
 *     very code is not seen; a sticky error (a broken CUDA context) cannot
 *     be cleared by anyone.
 * Scopes nest: only the outermost one of a thread saves and restores. */
extern thread_local cudaError_t qru_cuda_pending; /* caller's, at entry */
extern thread_local int qru_cuda_depth;

struct qru_cuda_scope {
    int st;          /* 0, or the status of making the context current */
    int outer;       /* the outermost scope of this thread */
    int prev_dev;    /* the caller's device, -1: not changed */
    cublasHandle_t blas;          /* adopted handles whose state was set */
    cudaStream_t blas_stream;     /* ... and what to put back */
    int blas_set_stream, blas_set_mode;
    cublasPointerMode_t blas_mode;
    cusolverDnHandle_t solver;
    cudaStream_t solver_stream;
    int raiser; /* >= 0: the caller's pending error, raised again at exit */
    /* im: the context's state (NULL: device and error state only, as in
     * init, or with no context at all) */
    explicit qru_cuda_scope(const struct qru_cuda_impl *im);
    ~qru_cuda_scope();
    qru_cuda_scope(const qru_cuda_scope &) = delete;
    qru_cuda_scope &operator=(const qru_cuda_scope &) = delete;
};

/* Clears an error the library's own CUDA calls left in the runtime's
 * last-error slot, never the one the caller left pending. */
static inline void qru_cuda_clear(void)
{
    cudaError_t e = cudaPeekAtLastError();
    if (e != cudaSuccess && e != qru_cuda_pending)
        (void)cudaGetLastError();
}

/* Maps a CUDA runtime error to a library status, clearing it from the
 * runtime's last-error slot so that a later check does not see it again. */
static inline int qru_cuda_status(cudaError_t e)
{
    if (e == cudaSuccess)
        return 0;
    qru_cuda_clear();
    return qru_fail(e == cudaErrorMemoryAllocation ? QRU_ERR_ALLOC
                                                   : QRU_ERR_DEVICE,
                    "CUDA error %s: %s", cudaGetErrorName(e),
                    cudaGetErrorString(e));
}

static inline int qru_cublas_status(cublasStatus_t s)
{
    if (s == CUBLAS_STATUS_SUCCESS)
        return 0;
    return qru_fail(s == CUBLAS_STATUS_ALLOC_FAILED ? QRU_ERR_ALLOC
                                                    : QRU_ERR_DEVICE,
                    "cuBLAS status %d", (int)s);
}

static inline int qru_cusolver_status(cusolverStatus_t s)
{
    if (s == CUSOLVER_STATUS_SUCCESS)
        return 0;
    return qru_fail(s == CUSOLVER_STATUS_ALLOC_FAILED ? QRU_ERR_ALLOC
                                                      : QRU_ERR_DEVICE,
                    "cuSOLVER status %d", (int)s);
}

/* Status of the kernel launches just made (an error the caller left
 * pending is not theirs). */
static inline int qru_cuda_launched(void)
{
    cudaError_t e = cudaPeekAtLastError();
    if (e == cudaSuccess || e == qru_cuda_pending)
        return 0;
    return qru_cuda_status(e);
}

/* The dynamic shared memory a block of kernel fn may take on the
 * context's device: the device's opt-in maximum less fn's static shared
 * memory, raised for fn the first
 * time (cache: the call site's QRU_CUDA_MAXDEV longs, one per device and
 * kernel: 0 unknown, -1 none, else bytes); 0 if the device cannot (or its
 * compute capability is below min_major). */
enum { QRU_CUDA_MAXDEV = 64 };
size_t qru_cuda_smem_optin(qru_context *ctx, const void *fn, long *cache,
                           int min_major);

/* Stream-ordered scratch memory (freed with qru_cuda_scratch_free on the
 * same stream, so no synchronisation is needed). */
int qru_cuda_scratch(qru_context *ctx, size_t bytes, void **p);
void qru_cuda_scratch_free(qru_context *ctx, void *p);
/* bytes from device memory at src to the host at dst, through the
 * context's page-locked staging buffer where they fit (the copy engine
 * then writes them at once; pageable memory is staged by the driver);
 * returns when they are there. */
int qru_cuda_read(qru_context *ctx, const void *src, void *dst, size_t bytes);
/* The context's page-locked staging buffer (QRU_CUDA_STAGE bytes, made
 * at the first call, and the verdict flag after them), or NULL where
 * cudaMallocHost refused it.  Kernels
 * may write it too (page-locked memory is the devices' to address): what
 * a kernel stores there is the host's after the stream's next
 * synchronisation. */
void *qru_cuda_stage(qru_context *ctx);

/* Device address of element p of type T. */
template <typename T> static inline T *qru_dp(qru_ptr p)
{
    return (T *)p.h + p.off;
}

/* The element type T (float, double, qru_cplx<float> or <double>) and its
 * tuning block in ctx. */
template <typename T> static inline qru_dtype qru_cu_dtype(void)
{
    if (qru_kt<T>::cplx)
        return sizeof(T) == 2 * sizeof(double) ? QRU_COMPLEX_DOUBLE
                                               : QRU_COMPLEX_FLOAT;
    return sizeof(T) == sizeof(double) ? QRU_DOUBLE : QRU_FLOAT;
}

/* f<T>(...) for the element type dt: the kernels' launchers of the ops
 * that take complex data (the table refuses it for the others,
 * cuda_table.cu) */
#define QRU_CU_BY_TYPE(dt, f, ...)                                             \
    ((dt) == QRU_DOUBLE           ? f<double>(__VA_ARGS__)                     \
     : (dt) == QRU_FLOAT          ? f<float>(__VA_ARGS__)                      \
     : (dt) == QRU_COMPLEX_DOUBLE ? f<qru_cplx<double>>(__VA_ARGS__)           \
                                  : f<qru_cplx<float>>(__VA_ARGS__))

/* The real part of a value read back to the host. */
static inline double qru_cu_host_re(float v) { return v; }
static inline double qru_cu_host_re(double v) { return v; }
template <typename R> static inline double qru_cu_host_re(qru_cplx<R> v)
{
    return v.x;
}
template <typename T>
static inline const qru_tuning *qru_cu_tuning(const qru_context *ctx)
{
    return qru_ctx_tuning(ctx, qru_cu_dtype<T>());
}

/* Grid helpers: blocks to cover 'count' items with 'per' each, capped. */
static inline unsigned qru_blocks(long count, long per, unsigned cap)
{
    long b = (count + per - 1) / per;
    if (b < 1)
        b = 1;
    return b > (long)cap ? cap : (unsigned)b;
}

/* Shape of the elementwise 2-D kernels: 32 x 8 groups over (i, j). */
static inline dim3 qru_block2d(void) { return dim3(32, 8); }
static inline dim3 qru_grid2d(int m, int n)
{
    return dim3(qru_blocks(m, 32, 1u << 16), qru_blocks(n, 8, 1u << 15));
}

/* Work-group shape (nx x ny, nx * ny = 256) for the column-reduction
 * kernels (larf, gemv_t, ...): more items per column for longer columns. */
static inline dim3 qru_colred_block(int m)
{
    int nx = m <= 512 ? 32 : m <= 2048 ? 64 : m <= 8192 ? 128 : 256;
    return dim3(nx, 256 / nx);
}

/* The tall panel over many blocks (cuda_panel_grid.cu), for panel_t in
 * cuda_panel.cu: rows a block for an m x nb panel (0: does not apply), and
 * the launch (0, or 1 if the cooperative launch was refused). */
template <typename T> int qru_cu_panel_grid_rows(qru_context *ctx, int m, int nb);
template <typename T>
int qru_cu_panel_grid(qru_context *ctx, int m, int nb, int chunk, qru_ptr A,
                      int lda, qru_ptr Y, int ldy, qru_ptr tau, qru_ptr work);

/* The triangular solve for few right-hand sides (cuda_trsv.cu): side 'L',
 * any uplo / transa / diag, 1 <= n <= QRU_CU_TRSV_MAX_RHS (the kernel's
 * compiled limit); the trsm op takes it from m >= the tuning's trsv_min_m
 * (QRU_TUNE_TRSV_MIN_M; one kernel launch after a memset, against
 * cuBLAS's trsm, which for one right-hand side runs 10x above the memory
 * floor at m = 4096). */
enum { QRU_CU_TRSV_MAX_RHS = 8 };
int qru_cu_trsv_few(qru_context *ctx, qru_dtype dt, char uplo, char ta,
                    char diag, int m, int n, double alpha, qru_ptr A, int lda,
                    qru_ptr B, int ldb);

/* ---- the backend: its lifecycle (cuda_backend.cu) and every op of the
 * op list (qru_ops.h) as qru_cu_<name> (cuda_backend.cu: base ops,
 * cuda_update.cu: Givens, cuda_chol.cu: Cholesky, cuda_panel.cu: fused
 * panels and cuSOLVER QR); collected into qru_cuda_ops by cuda_table.cu */
int qru_cu_probe(void);
int qru_cu_init(qru_context *ctx, const qru_context_options *opt);
void qru_cu_fini(qru_context *ctx);
int qru_cu_supports(const qru_context *ctx, qru_dtype dt);
qru_device_type qru_cu_device_type(const qru_context *ctx);
int qru_cu_alloc(qru_context *ctx, size_t bytes, void **h);
void qru_cu_free(qru_context *ctx, void *h);
#define QRU_CU_PROTO_(name, params, args, need, stat) int qru_cu_##name params;
QRU_OPS(QRU_CU_PROTO_)
#undef QRU_CU_PROTO_

#endif /* QRU_CUDA_H */
