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
    if (dt == QRU_DOUBLE) {
        info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, R, n, tau);
        if (!info)
            info = LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', n, r, m, R, n,
                                  tau, d, n);
        if (!info && Q) {
            LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', n, m, R, n, Q, n);
            info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, q, m, Q, n, tau);
        }
    } else {
        info = LAPACKE_sgeqrf(LAPACK_COL_MAJOR, n, m, R, n, tau);
        if (!info)
            info = LAPACKE_sormqr(LAPACK_COL_MAJOR, 'L', 'T', n, r, m, R, n,
                                  tau, d, n);
        if (!info && Q) {
            LAPACKE_slacpy(LAPACK_COL_MAJOR, 'A', n, m, R, n, Q, n);
            info = LAPACKE_sorgqr(LAPACK_COL_MAJOR, n, q, m, Q, n, tau);
        }
    }
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

void bg_geqrf(bg_gpu *g, qru_dtype dt, int n, int m, void *A, int lda,
              void *tau)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDgeqrf_bufferSize(g->solver, n, m, A, lda, &lw),
                     "Dgeqrf_bufferSize");
        solver_check(cusolverDnDgeqrf(g->solver, n, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dgeqrf");
    } else {
        solver_check(cusolverDnSgeqrf_bufferSize(g->solver, n, m, A, lda, &lw),
                     "Sgeqrf_bufferSize");
        solver_check(cusolverDnSgeqrf(g->solver, n, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sgeqrf");
    }
}

void bg_ormqr_lt(bg_gpu *g, qru_dtype dt, int n, int r, int m, const void *A,
                 int lda, const void *tau, void *C, int ldc)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDormqr_bufferSize(
                         g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, m, A,
                         lda, tau, C, ldc, &lw),
                     "Dormqr_bufferSize");
        solver_check(cusolverDnDormqr(g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T,
                                      n, r, m, A, lda, tau, C, ldc,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dormqr");
    } else {
        solver_check(cusolverDnSormqr_bufferSize(
                         g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, m, A,
                         lda, tau, C, ldc, &lw),
                     "Sormqr_bufferSize");
        solver_check(cusolverDnSormqr(g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T,
                                      n, r, m, A, lda, tau, C, ldc,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sormqr");
    }
}

void bg_orgqr(bg_gpu *g, qru_dtype dt, int n, int q, int m, void *A, int lda,
              const void *tau)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDorgqr_bufferSize(g->solver, n, q, m, A, lda,
                                                 tau, &lw),
                     "Dorgqr_bufferSize");
        solver_check(cusolverDnDorgqr(g->solver, n, q, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dorgqr");
    } else {
        solver_check(cusolverDnSorgqr_bufferSize(g->solver, n, q, m, A, lda,
                                                 tau, &lw),
                     "Sorgqr_bufferSize");
        solver_check(cusolverDnSorgqr(g->solver, n, q, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sorgqr");
    }
}

void bg_trsm_lun(bg_gpu *g, qru_dtype dt, int m, int r, const void *A,
                 int lda, void *B, int ldb)
{
    if (dt == QRU_DOUBLE) {
        const double one = 1.0;
        blas_check(cublasDtrsm(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                               CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, r, &one,
                               A, lda, B, ldb),
                   "Dtrsm");
    } else {
        const float one = 1.0f;
        blas_check(cublasStrsm(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                               CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, r, &one,
                               A, lda, B, ldb),
                   "Strsm");
    }
}

void bg_potrf(bg_gpu *g, qru_dtype dt, int n, void *A, int lda)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDpotrf_bufferSize(g->solver,
                                                 CUBLAS_FILL_MODE_LOWER, n, A,
                                                 lda, &lw),
                     "Dpotrf_bufferSize");
        solver_check(cusolverDnDpotrf(g->solver, CUBLAS_FILL_MODE_LOWER, n, A,
                                      lda, work(g, dt, lw), lw, g->dinfo),
                     "Dpotrf");
    } else {
        solver_check(cusolverDnSpotrf_bufferSize(g->solver,
                                                 CUBLAS_FILL_MODE_LOWER, n, A,
                                                 lda, &lw),
                     "Spotrf_bufferSize");
        solver_check(cusolverDnSpotrf(g->solver, CUBLAS_FILL_MODE_LOWER, n, A,
                                      lda, work(g, dt, lw), lw, g->dinfo),
                     "Spotrf");
    }
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
