/*
 * The references: the CPU side (LAPACKE), the context's call counts and the
 * cuSOLVER / cuBLAS refactorisation measured in the same run.
 * (Shared parts of the GPU benchmarks; see bench_gpu_common.h.)
 */
#include "bench_gpu_common.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

#include "qru_internal.h" /* qru_dtype_size */

/* ---- the CPU side ----------------------------------------------------------- */

void bg_host_qr_cols(qru_dtype dt, int n, int m, int r, const void *A,
                     const void *b, int q, void **Rp, void **dp, void **Qp)
{
    size_t es = qru_dtype_size(dt);
    void *R = bg_alloc(dt, (size_t)n * m), *d = bg_alloc(dt, (size_t)n * r);
    void *tau = bg_alloc(dt, (size_t)m);
    void *Q = q > 0 ? bg_alloc(dt, (size_t)n * q) : NULL;
    memcpy(R, A, es * (size_t)n * m);
    memcpy(d, b, es * (size_t)n * r);
    lapack_int info;
    /* geqrf, Q' b (ormqr 'T', unmqr 'C') and orgqr / ungqr of type T */
#define HOST_QR(T, MQR, OP, GQR)                                               \
    do {                                                                       \
        info = LAPACKE_##T##geqrf(LAPACK_COL_MAJOR, n, m, R, n, tau);         \
        if (!info)                                                             \
            info = LAPACKE_##T##MQR(LAPACK_COL_MAJOR, 'L', OP, n, r, m, R, n, \
                                    tau, d, n);                                \
        if (!info && Q) {                                                      \
            LAPACKE_##T##lacpy(LAPACK_COL_MAJOR, 'A', n, m, R, n, Q, n);      \
            info = LAPACKE_##T##GQR(LAPACK_COL_MAJOR, n, q, m, Q, n, tau);    \
        }                                                                      \
    } while (0)
    switch (dt) {
    case QRU_DOUBLE:
        HOST_QR(d, ormqr, 'T', orgqr);
        break;
    case QRU_FLOAT:
        HOST_QR(s, ormqr, 'T', orgqr);
        break;
    case QRU_COMPLEX_DOUBLE:
        HOST_QR(z, unmqr, 'C', ungqr);
        break;
    default:
        HOST_QR(c, unmqr, 'C', ungqr);
        break;
    }
#undef HOST_QR
    if (info) {
        fprintf(stderr, "FATAL: LAPACKE QR failed: %d\n", (int)info);
        exit(1);
    }
    free(tau);
    *Rp = R;
    *dp = d;
    *Qp = Q;
}

void bg_host_qr(qru_dtype dt, int n, int m, int r, const void *A,
                const void *b, int withq, void **Rp, void **dp, void **Qp)
{
    bg_host_qr_cols(dt, n, m, r, A, b, withq ? n : 0, Rp, dp, Qp);
}

const char *bg_cpu_threads(void)
{
    static char buf[128];
    const char *s = getenv("OPENBLAS_NUM_THREADS");
    const char *o = getenv("OMP_NUM_THREADS");
    if (s && *s)
        snprintf(buf, sizeof buf, "OPENBLAS_NUM_THREADS=%s", s);
    else if (o && *o)
        snprintf(buf, sizeof buf, "OMP_NUM_THREADS=%s", o);
    else
        snprintf(buf, sizeof buf, "OpenBLAS default threads (%ld cores)",
                 sysconf(_SC_NPROCESSORS_ONLN));
    return buf;
}

/* ---- counting backend calls ---------------------------------------------------- */

void bg_count_reset(qru_context *ctx)
{
    bg_check(qru_context_reset_stats(ctx), "qru_context_reset_stats");
}

long bg_count_get(const qru_context *ctx)
{
    qru_context_stats st;
    bg_check(qru_context_get_stats(ctx, &st), "qru_context_get_stats");
    return (long)st.calls;
}

/* ---- the GPU side ----------------------------------------------------------- */

#ifdef QRU_HAVE_CUDA

void bg_cuda_check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "FATAL: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

static void solver_check(cusolverStatus_t s, const char *what)
{
    if (s != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "FATAL: %s: cuSOLVER status %d\n", what, (int)s);
        exit(1);
    }
}

static void blas_check(cublasStatus_t s, const char *what)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FATAL: %s: cuBLAS status %d\n", what, (int)s);
        exit(1);
    }
}

int bg_gpu_open(bg_gpu *g)
{
    memset(g, 0, sizeof *g);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        (void)cudaGetLastError();
        return BG_SKIP;
    }
    bg_cuda_check(cudaSetDevice(0), "cudaSetDevice");
    bg_cuda_check(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking),
                  "cudaStreamCreate");
    blas_check(cublasCreate(&g->blas), "cublasCreate");
    blas_check(cublasSetStream(g->blas, g->stream), "cublasSetStream");
    solver_check(cusolverDnCreate(&g->solver), "cusolverDnCreate");
    solver_check(cusolverDnSetStream(g->solver, g->stream),
                 "cusolverDnSetStream");
    bg_cuda_check(cudaEventCreate(&g->e0), "cudaEventCreate");
    bg_cuda_check(cudaEventCreate(&g->e1), "cudaEventCreate");
    bg_cuda_check(cudaMalloc((void **)&g->dinfo, sizeof(int)), "cudaMalloc");
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.device = 0;
    opt.stream = g->stream; /* events on this stream time qru's work */
    int st = qru_context_create_ex(QRU_BACKEND_CUDA, &opt, &g->ctx);
    if (st == QRU_ERR_BACKEND_UNAVAILABLE)
        return BG_SKIP;
    bg_check(st, "qru_context_create_ex(cuda)");
    struct cudaDeviceProp prop;
    bg_cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(g->device, sizeof g->device,
             "%.200s, %d SMs, %.0f GiB, CUDA driver %d.%d runtime %d.%d",
             prop.name, prop.multiProcessorCount,
             (double)prop.totalGlobalMem / 1073741824.0, drv / 1000,
             (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
    return 0;
}

void bg_gpu_close(bg_gpu *g)
{
    cudaStreamSynchronize(g->stream);
    qru_context_destroy(g->ctx);
    cudaFree(g->work);
    cudaFree(g->dinfo);
    cudaEventDestroy(g->e0);
    cudaEventDestroy(g->e1);
    cusolverDnDestroy(g->solver);
    cublasDestroy(g->blas);
    cudaStreamDestroy(g->stream);
}

void bg_ev_start(bg_gpu *g)
{
    bg_cuda_check(cudaEventRecord(g->e0, g->stream), "cudaEventRecord");
}

double bg_ev_stop(bg_gpu *g)
{
    bg_cuda_check(cudaEventRecord(g->e1, g->stream), "cudaEventRecord");
    bg_cuda_check(cudaEventSynchronize(g->e1), "cudaEventSynchronize");
    float ms = 0.0f;
    bg_cuda_check(cudaEventElapsedTime(&ms, g->e0, g->e1),
                  "cudaEventElapsedTime");
    bg_cuda_check(cudaGetLastError(), "a kernel");
    return 1e-3 * (double)ms;
}

void *bg_dev_alloc(size_t bytes)
{
    void *p = NULL;
    bg_cuda_check(cudaMalloc(&p, bytes ? bytes : 256), "cudaMalloc");
    return p;
}

void *bg_dev_upload(qru_dtype dt, size_t len, const void *host)
{
    void *p = bg_dev_alloc(len * qru_dtype_size(dt));
    bg_cuda_check(cudaMemcpy(p, host, len * qru_dtype_size(dt),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy H2D");
    /* a pageable cudaMemcpy may return before the DMA has landed, and the
     * benchmark's stream does not wait for the legacy stream */
    bg_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return p;
}

void bg_dev_download(qru_dtype dt, size_t len, const void *dev, void *host)
{
    bg_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    bg_cuda_check(cudaMemcpy(host, dev, len * qru_dtype_size(dt),
                             cudaMemcpyDeviceToHost),
                  "cudaMemcpy D2H");
}

qru_matrix *bg_wrap(bg_gpu *g, qru_dtype dt, int rows, int cols, void *dev,
                    int ld)
{
    qru_matrix *M = NULL;
    bg_check(qru_matrix_wrap(g->ctx, dt, rows, cols, dev, ld, &M),
             "qru_matrix_wrap");
    return M;
}

static void *work(bg_gpu *g, qru_dtype dt, int lwork)
{
    size_t bytes = (size_t)(lwork > 0 ? lwork : 1) * qru_dtype_size(dt);
    if (bytes > g->work_bytes) {
        bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
        cudaFree(g->work);
        g->work = bg_dev_alloc(bytes);
        g->work_bytes = bytes;
    }
    return g->work;
}

/* The call CALL(T, ...) of the cuSOLVER / cuBLAS routine of dt's type
 * letter T (S, D, C, Z). */
#define BY_TYPE(dt, CALL)                                                      \
    switch (dt) {                                                              \
    case QRU_FLOAT:                                                            \
        CALL(S);                                                               \
        break;                                                                 \
    case QRU_DOUBLE:                                                           \
        CALL(D);                                                               \
        break;                                                                 \
    case QRU_COMPLEX_FLOAT:                                                    \
        CALL(C);                                                               \
        break;                                                                 \
    default:                                                                   \
        CALL(Z);                                                               \
        break;                                                                 \
    }

/* 1 (with a zero imaginary part) in the scalar type of dt, for the
 * cuBLAS calls' alpha */
static const void *one_of(qru_dtype dt)
{
    static const double d1[2] = {1.0, 0.0};
    static const float s1[2] = {1.0f, 0.0f};
    return qru_dtype_real(dt) == QRU_DOUBLE ? (const void *)d1
                                            : (const void *)s1;
}

cudaDataType bg_cuda_type(qru_dtype dt)
{
    return dt == QRU_FLOAT           ? CUDA_R_32F
           : dt == QRU_DOUBLE        ? CUDA_R_64F
           : dt == QRU_COMPLEX_FLOAT ? CUDA_C_32F
                                     : CUDA_C_64F;
}

void bg_geqrf(bg_gpu *g, qru_dtype dt, int n, int m, void *A, int lda,
              void *tau)
{
    int lw = 0;
#define GEQRF(T)                                                               \
    solver_check(cusolverDn##T##geqrf_bufferSize(g->solver, n, m, A, lda,      \
                                                 &lw),                         \
                 #T "geqrf_bufferSize");                                       \
    solver_check(cusolverDn##T##geqrf(g->solver, n, m, A, lda, tau,            \
                                      work(g, dt, lw), lw, g->dinfo),          \
                 #T "geqrf")
    BY_TYPE(dt, GEQRF)
#undef GEQRF
}

/* C := Q' C: ormqr with 'T' for the real types, unmqr with 'C' (the
 * conjugate transpose) for the complex ones */
#define MQR_S(T) T##ormqr
#define MQR_D(T) T##ormqr
#define MQR_C(T) T##unmqr
#define MQR_Z(T) T##unmqr
#define GQR_S(T) T##orgqr
#define GQR_D(T) T##orgqr
#define GQR_C(T) T##ungqr
#define GQR_Z(T) T##ungqr
#define PASTE_(a, b) a##b
#define PASTE(a, b) PASTE_(a, b)

void bg_ormqr_lt(bg_gpu *g, qru_dtype dt, int n, int r, int m, const void *A,
                 int lda, const void *tau, void *C, int ldc)
{
    int lw = 0;
    cublasOperation_t op = qru_dtype_complex(dt) ? CUBLAS_OP_C : CUBLAS_OP_T;
#define MQR(T)                                                                 \
    solver_check(PASTE(MQR_##T(cusolverDn##T), _bufferSize)(                   \
                     g->solver, CUBLAS_SIDE_LEFT, op, n, r, m, A, lda, tau, C, \
                     ldc, &lw),                                                \
                 #T "ormqr/unmqr_bufferSize");                                 \
    solver_check(MQR_##T(cusolverDn##T)(g->solver, CUBLAS_SIDE_LEFT, op, n, r, \
                                        m, A, lda, tau, C, ldc,                \
                                        work(g, dt, lw), lw, g->dinfo),        \
                 #T "ormqr/unmqr")
    BY_TYPE(dt, MQR)
#undef MQR
}

void bg_orgqr(bg_gpu *g, qru_dtype dt, int n, int q, int m, void *A, int lda,
              const void *tau)
{
    int lw = 0;
#define GQR(T)                                                                 \
    solver_check(PASTE(GQR_##T(cusolverDn##T), _bufferSize)(                   \
                     g->solver, n, q, m, A, lda, tau, &lw),                    \
                 #T "orgqr/ungqr_bufferSize");                                 \
    solver_check(GQR_##T(cusolverDn##T)(g->solver, n, q, m, A, lda, tau,       \
                                        work(g, dt, lw), lw, g->dinfo),        \
                 #T "orgqr/ungqr")
    BY_TYPE(dt, GQR)
#undef GQR
}

void bg_trsm_lun(bg_gpu *g, qru_dtype dt, int m, int r, const void *A,
                 int lda, void *B, int ldb)
{
    const void *one = one_of(dt);
#define TRSM(T)                                                                \
    blas_check(cublas##T##trsm(g->blas, CUBLAS_SIDE_LEFT,                      \
                               CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,            \
                               CUBLAS_DIAG_NON_UNIT, m, r, one, A, lda, B,     \
                               ldb),                                           \
               #T "trsm")
    BY_TYPE(dt, TRSM)
#undef TRSM
}

void bg_potrf(bg_gpu *g, qru_dtype dt, int n, void *A, int lda)
{
    int lw = 0;
#define POTRF(T)                                                               \
    solver_check(cusolverDn##T##potrf_bufferSize(                              \
                     g->solver, CUBLAS_FILL_MODE_LOWER, n, A, lda, &lw),       \
                 #T "potrf_bufferSize");                                       \
    solver_check(cusolverDn##T##potrf(g->solver, CUBLAS_FILL_MODE_LOWER, n, A, \
                                      lda, work(g, dt, lw), lw, g->dinfo),     \
                 #T "potrf")
    BY_TYPE(dt, POTRF)
#undef POTRF
}

/* v (+ 0i) in the scalar type of dt, in buf (16 bytes) */
static void scalar_of(qru_dtype dt, double v, void *buf)
{
    if (qru_dtype_real(dt) == QRU_DOUBLE) {
        double *d = buf;
        d[0] = v;
        d[1] = 0.0;
    } else {
        float *f = buf;
        f[0] = (float)v;
        f[1] = 0.0f;
    }
}

void bg_gemm_nc(bg_gpu *g, qru_dtype dt, int n, int k, double alpha,
                const void *M, int ldm, void *C, int ldc)
{
    double al[2], be[2];
    scalar_of(dt, alpha, al);
    scalar_of(dt, 0.0, be);
#define GEMM(T)                                                                \
    blas_check(cublas##T##gemm(g->blas, CUBLAS_OP_N, CUBLAS_OP_C, n, n, k,     \
                               (const void *)al, M, ldm, M, ldm,               \
                               (const void *)be, C, ldc),                      \
               #T "gemm")
    BY_TYPE(dt, GEMM)
#undef GEMM
}

void bg_axpy(bg_gpu *g, qru_dtype dt, int n, double alpha, const void *x,
             int incx, void *y, int incy)
{
    double al[2];
    scalar_of(dt, alpha, al);
#define AXPY(T)                                                                \
    blas_check(cublas##T##axpy(g->blas, n, (const void *)al, x, incx, y,       \
                               incy),                                          \
               #T "axpy")
    BY_TYPE(dt, AXPY)
#undef AXPY
}

double bg_nrm2(bg_gpu *g, qru_dtype dt, int n, const void *x, int incx)
{
    int dbl = qru_dtype_real(dt) == QRU_DOUBLE;
    double rd = 0.0;
    float rf = 0.0f;
    blas_check(cublasNrm2Ex(g->blas, n, x, bg_cuda_type(dt), incx,
                            dbl ? (void *)&rd : (void *)&rf,
                            dbl ? CUDA_R_64F : CUDA_R_32F,
                            bg_cuda_type(dt)),
               "Nrm2Ex");
    return dbl ? rd : (double)rf;
}

void bg_ref_init(bg_gpu *g, bg_ref *f, qru_dtype dt, int n, int m, int r,
                 const void *hA, const void *hb, int withq)
{
    (void)g;
    size_t es = qru_dtype_size(dt);
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->n = n;
    f->m = m;
    f->r = r;
    f->withq = withq;
    f->A0 = bg_dev_upload(dt, (size_t)n * m, hA);
    f->b0 = bg_dev_upload(dt, (size_t)n * r, hb);
    f->A = bg_dev_alloc(es * (size_t)n * m);
    f->b = bg_dev_alloc(es * (size_t)n * r);
    f->tau = bg_dev_alloc(es * (size_t)m);
    f->Q = withq ? bg_dev_alloc(es * (size_t)n * n) : NULL;
}

void bg_ref_free(bg_ref *f)
{
    cudaDeviceSynchronize();
    cudaFree(f->A0);
    cudaFree(f->b0);
    cudaFree(f->A);
    cudaFree(f->b);
    cudaFree(f->tau);
    cudaFree(f->Q);
    memset(f, 0, sizeof *f);
}

static void ref_reset(bg_gpu *g, bg_ref *f)
{
    size_t es = qru_dtype_size(f->dt);
    bg_cuda_check(cudaMemcpyAsync(f->A, f->A0, es * (size_t)f->n * f->m,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy A");
    bg_cuda_check(cudaMemcpyAsync(f->b, f->b0, es * (size_t)f->n * f->r,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy b");
}

static void check_info(bg_gpu *g, const char *what)
{
    int info = 0;
    bg_cuda_check(cudaMemcpyAsync(&info, g->dinfo, sizeof info,
                                  cudaMemcpyDeviceToHost, g->stream),
                  "info");
    bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
    if (info != 0) {
        fprintf(stderr, "FATAL: %s: info = %d\n", what, info);
        exit(1);
    }
}

double bg_ref_solve(bg_gpu *g, bg_ref *f)
{
    ref_reset(g, f);
    bg_ev_start(g);
    bg_geqrf(g, f->dt, f->n, f->m, f->A, f->n, f->tau);
    bg_ormqr_lt(g, f->dt, f->n, f->r, f->m, f->A, f->n, f->tau, f->b, f->n);
    bg_trsm_lun(g, f->dt, f->m, f->r, f->A, f->n, f->b, f->n);
    double t = bg_ev_stop(g);
    check_info(g, "cuSOLVER least squares");
    return t;
}

double bg_ref_orgqr(bg_gpu *g, bg_ref *f)
{
    size_t es = qru_dtype_size(f->dt);
    bg_cuda_check(cudaMemcpyAsync(f->Q, f->A, es * (size_t)f->n * f->m,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy reflectors");
    bg_ev_start(g);
    bg_orgqr(g, f->dt, f->n, f->n, f->m, f->Q, f->n, f->tau);
    double t = bg_ev_stop(g);
    check_info(g, "cuSOLVER orgqr");
    return t;
}

void bg_ref_factor(bg_gpu *g, bg_ref *f)
{
    ref_reset(g, f);
    bg_geqrf(g, f->dt, f->n, f->m, f->A, f->n, f->tau);
    bg_ormqr_lt(g, f->dt, f->n, f->r, f->m, f->A, f->n, f->tau, f->b, f->n);
    check_info(g, "cuSOLVER geqrf/ormqr");
    if (f->withq) {
        size_t es = qru_dtype_size(f->dt);
        bg_cuda_check(cudaMemcpyAsync(f->Q, f->A, es * (size_t)f->n * f->m,
                                      cudaMemcpyDeviceToDevice, g->stream),
                      "copy reflectors");
        bg_orgqr(g, f->dt, f->n, f->n, f->m, f->Q, f->n, f->tau);
        check_info(g, "cuSOLVER orgqr");
    }
}

#endif /* QRU_HAVE_CUDA */
