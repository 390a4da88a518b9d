/*
 * The CUDA trsm op with few right-hand sides (side 'L': qru's own kernel,
 * cuda/cuda_trsv.cu, for n <= 8) against cuBLAS trsm and, for one
 * right-hand side, cuBLAS trsv: a well-conditioned lower triangle (the
 * Cholesky factor's shape), CUDA events around each call, two warm-up
 * calls, median of the repetitions; the right-hand side is restored by an
 * untimed copy before each call.  Columns: m, nrhs, transa (0 N, 1 T),
 * t_qru, t_cublas_trsm, t_cublas_trsv (0: n > 1), speedup = cublas_trsm /
 * qru, the largest difference |x_qru - x_cublas| / max|x|.
 *
 *   bench_trsv_gpu [-r reps] [-s] (-s: single precision)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"
#include "qru_internal.h"

#ifdef QRU_HAVE_CUDA
static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
/* a device copy of len doubles as dt */
static void *upload(qru_dtype dt, size_t len, const double *h)
{
    if (dt == QRU_DOUBLE)
        return bg_dev_upload(dt, len, h);
    float *f = malloc(sizeof(float) * len);
    for (size_t k = 0; k < len; ++k)
        f[k] = (float)h[k];
    void *p = bg_dev_upload(dt, len, f);
    free(f);
    return p;
}
static void download(qru_dtype dt, size_t len, const void *d, double *h)
{
    if (dt == QRU_DOUBLE) {
        bg_dev_download(dt, len, d, h);
        return;
    }
    float *f = malloc(sizeof(float) * len);
    bg_dev_download(dt, len, d, f);
    for (size_t k = 0; k < len; ++k)
        h[k] = f[k];
    free(f);
}
static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmpd);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
#endif

int main(int argc, char **argv)
{
    int reps = 21;
    qru_dtype dt = QRU_DOUBLE;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-s"))
            dt = QRU_FLOAT;
    }
    if (reps < 1 || reps > 1000)
        reps = 21;
#ifdef QRU_HAVE_CUDA
    bg_gpu g;
    if (bg_gpu_open(&g) != 0) {
        printf("bench_trsv_gpu: skipped: no CUDA device\n");
        return BG_SKIP;
    }
    static const int ms[] = {64, 256, 1024, 2048, 4096, 8192, 16384};
    static const int nrs[] = {1, 2, 8};
    size_t es = dt == QRU_DOUBLE ? 8 : 4;
    printf("# bench_trsv_gpu %s on %s, reps %d (seconds, median)\n",
           dt == QRU_DOUBLE ? "double" : "float", g.device, reps);
    printf("m nrhs trans t_qru t_cublas_trsm t_cublas_trsv speedup xdiff\n");
    double *t = malloc(sizeof(double) * 3 * (size_t)reps);
    for (size_t mi = 0; mi < sizeof ms / sizeof *ms; ++mi) {
        int m = ms[mi], lda = m;
        size_t la = (size_t)lda * m;
        double *hA = malloc(sizeof(double) * la);
        unsigned long long seed = 99ULL + (unsigned)m;
        bg_rand(QRU_DOUBLE, la, hA, &seed);
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < m; ++i)
                hA[i + (size_t)j * lda] =
                    i == j ? 2.0 + 0.5 * hA[i + (size_t)j * lda]
                    : i > j ? hA[i + (size_t)j * lda] / sqrt((double)m)
                            : NAN;
        void *A = upload(dt, la, hA);
        for (size_t ri = 0; ri < sizeof nrs / sizeof *nrs; ++ri) {
            int nr = nrs[ri];
            size_t lb = (size_t)m * nr;
            double *hb = malloc(sizeof(double) * lb * 3);
            bg_rand(QRU_DOUBLE, lb, hb, &seed);
            void *B0 = upload(dt, lb, hb);
            void *B = bg_dev_alloc(lb * es), *B1 = bg_dev_alloc(lb * es),
                 *B2 = bg_dev_alloc(lb * es);
            for (int tr = 0; tr < 2; ++tr) {
                char ta = tr ? 'T' : 'N';
                cublasOperation_t op = tr ? CUBLAS_OP_T : CUBLAS_OP_N;
                double *tq = t, *tc = t + reps, *tv = t + 2 * reps;
                for (int rep = -2; rep < reps; ++rep) {
                    double one = 1.0;
                    float onef = 1.0f;
                    /* qru */
                    bg_cuda_check(cudaMemcpyAsync(B, B0, lb * es,
                                                  cudaMemcpyDeviceToDevice,
                                                  g.stream), "copy");
                    bg_ev_start(&g);
                    int st = g.ctx->ops->trsm(g.ctx, dt, 'L', 'L', ta, 'N', m,
                                              nr, 1.0, (qru_ptr){A, 0}, lda,
                                              (qru_ptr){B, 0}, m);
                    double a = bg_ev_stop(&g);
                    if (st) {
                        fprintf(stderr, "FATAL: qru trsm %d\n", st);
                        return 1;
                    }
                    /* cuBLAS trsm */
                    bg_cuda_check(cudaMemcpyAsync(B1, B0, lb * es,
                                                  cudaMemcpyDeviceToDevice,
                                                  g.stream), "copy");
                    bg_ev_start(&g);
                    cublasStatus_t cs =
                        dt == QRU_DOUBLE
                            ? cublasDtrsm(g.blas, CUBLAS_SIDE_LEFT,
                                          CUBLAS_FILL_MODE_LOWER, op,
                                          CUBLAS_DIAG_NON_UNIT, m, nr, &one,
                                          A, lda, B1, m)
                            : cublasStrsm(g.blas, CUBLAS_SIDE_LEFT,
                                          CUBLAS_FILL_MODE_LOWER, op,
                                          CUBLAS_DIAG_NON_UNIT, m, nr, &onef,
                                          A, lda, B1, m);
                    double c = bg_ev_stop(&g);
                    double v = 0.0;
                    if (nr == 1) { /* cuBLAS trsv on a third copy */
                        bg_cuda_check(cudaMemcpyAsync(B2, B0, lb * es,
                                                      cudaMemcpyDeviceToDevice,
                                                      g.stream), "copy");
                        bg_ev_start(&g);
                        cublasStatus_t cv =
                            dt == QRU_DOUBLE
                                ? cublasDtrsv(g.blas, CUBLAS_FILL_MODE_LOWER,
                                              op, CUBLAS_DIAG_NON_UNIT, m, A,
                                              lda, B2, 1)
                                : cublasStrsv(g.blas, CUBLAS_FILL_MODE_LOWER,
                                              op, CUBLAS_DIAG_NON_UNIT, m, A,
                                              lda, B2, 1);
                        v = bg_ev_stop(&g);
                        if (cv != CUBLAS_STATUS_SUCCESS)
                            cs = cv;
                    }
                    if (cs != CUBLAS_STATUS_SUCCESS) {
                        fprintf(stderr, "FATAL: cuBLAS %d\n", (int)cs);
                        return 1;
                    }
                    if (rep >= 0) {
                        tq[rep] = a;
                        tc[rep] = c;
                        tv[rep] = v;
                    }
                }
                double *x = hb + lb, *y = hb + 2 * lb;
                download(dt, lb, B, x);
                download(dt, lb, B1, y);
                double d = 0, xm = 0;
                for (size_t k = 0; k < lb; ++k) {
                    double e = fabs(x[k] - y[k]);
                    d = e > d || isnan(e) ? e : d;
                    xm = fabs(y[k]) > xm ? fabs(y[k]) : xm;
                }
                double mq = median(tq, reps), mc = median(tc, reps),
                       mv = median(tv, reps);
                printf("%d %d %d %.4e %.4e %.4e %.2f %.2e\n", m, nr, tr, mq,
                       mc, mv, mc / mq, d / (xm > 0 ? xm : 1));
                fflush(stdout);
            }
            cudaFree(B0);
            cudaFree(B);
            cudaFree(B1);
            cudaFree(B2);
            free(hb);
        }
        cudaFree(A);
        free(hA);
    }
    free(t);
    bg_gpu_close(&g);
    return 0;
#else
    (void)dt;
    printf("bench_trsv_gpu: skipped: no CUDA device (this build has no CUDA "
           "backend)\n");
    return BG_SKIP;
#endif
}
