/*
 * GPU benchmark of qru's own factorisations and triangular solve against
 * cuSOLVER / cuBLAS, data on the device, both precisions:
 *   routine 1: qru_qr_factor(0, A, NULL, b) vs geqrf + ormqr (R and Q'b),
 *              A n x m with m = n/2, one right-hand side;
 *   routine 2: qru_qr_factor(0, A, Q, b)    vs geqrf + ormqr + orgqr (the
 *              full n x n Q as well);
 *   routine 3: qru_chol_factor('L', left-looking) vs potrf, n x n SPD;
 *   routine 4: qru_trsm('L','U','N','N')   vs cuBLAS trsm, n x n triangle,
 *              n right-hand sides.
 * Times are medians of CUDA-event times after one warm-up; each run starts
 * from a fresh copy of the input (copy not timed).  xdiff compares qru's
 * result with the reference (QR: the solutions R \ Q'b; Cholesky: the
 * factors; trsm: the solutions).
 * Options: see bench_gpu_common.h or run with -h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"

#define COLS "routine n m reps t_qru t_ref speedup tflops_qru tflops_ref calls xdiff"

#ifdef QRU_HAVE_CUDA
static void dcopy(bg_gpu *g, void *dst, const void *src, size_t bytes)
{
    bg_cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                  g->stream),
                  "copy");
}

/* relative difference of two device arrays (n x m, ld n; lower: only the
 * lower triangle with the diagonal) */
static double ddiff(qru_dtype dt, int n, int m, int ldx, const void *x,
                    int ldy, const void *y, int lower)
{
    void *hx = bg_alloc(dt, (size_t)ldx * m), *hy = bg_alloc(dt, (size_t)ldy * m);
    bg_dev_download(dt, (size_t)ldx * m, x, hx);
    bg_dev_download(dt, (size_t)ldy * m, y, hy);
    double num = 0.0, den = 0.0;
    for (int j = 0; j < m; ++j)
        for (int i = lower ? j : 0; i < n; ++i) {
            double a = bg_get(dt, hx, i + (size_t)j * ldx),
                   b = bg_get(dt, hy, i + (size_t)j * ldy);
            num += (a - b) * (a - b);
            den += b * b;
        }
    free(hx);
    free(hy);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

static void run_point(bg_gpu *g, const bg_opts *o, bg_table *t, qru_dtype dt,
                      int routine, int n)
{
    size_t es = bg_esize(dt);
    int m = routine <= 2 ? n / 2 : n;
    int r = routine <= 2 ? 1 : n;
    unsigned long long seed = 1234567ULL + (unsigned long long)n * 17 + routine;
    void *hA = bg_alloc(dt, (size_t)n * m), *hB = bg_alloc(dt, (size_t)n * r);
    bg_rand(dt, (size_t)n * m, hA, &seed);
    bg_rand(dt, (size_t)n * r, hB, &seed);
    void *A0 = bg_dev_upload(dt, (size_t)n * m, hA);
    void *B0 = bg_dev_upload(dt, (size_t)n * r, hB);
    if (routine >= 3) {
        /* A0 := M M' / n + I (symmetric positive definite, well conditioned;
         * also a well-conditioned triangle for trsm) */
        void *M = bg_dev_upload(dt, (size_t)n * n, hA);
        void *ones = bg_alloc(dt, (size_t)n);
        for (int i = 0; i < n; ++i)
            bg_set(dt, ones, (size_t)i, 1.0);
        void *d1 = bg_dev_upload(dt, (size_t)n, ones);
        cublasStatus_t s;
        if (dt == QRU_DOUBLE) {
            double al = 1.0 / n, be = 0.0, one = 1.0;
            s = cublasDgemm(g->blas, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &al,
                            M, n, M, n, &be, A0, n);
            if (s == CUBLAS_STATUS_SUCCESS)
                s = cublasDaxpy(g->blas, n, &one, d1, 1, A0, n + 1);
        } else {
            float al = 1.0f / n, be = 0.0f, one = 1.0f;
            s = cublasSgemm(g->blas, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &al,
                            M, n, M, n, &be, A0, n);
            if (s == CUBLAS_STATUS_SUCCESS)
                s = cublasSaxpy(g->blas, n, &one, d1, 1, A0, n + 1);
        }
        if (s != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "FATAL: cuBLAS setup %d\n", (int)s);
            exit(1);
        }
        bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
        cudaFree(M);
        cudaFree(d1);
        free(ones);
    }
    void *A = bg_dev_alloc(es * (size_t)n * m), *B = bg_dev_alloc(es * (size_t)n * r);
    void *A2 = bg_dev_alloc(es * (size_t)n * m), *B2 = bg_dev_alloc(es * (size_t)n * r);
    void *Q = routine == 2 ? bg_dev_alloc(es * (size_t)n * n) : NULL;
    void *Q2 = routine == 2 ? bg_dev_alloc(es * (size_t)n * n) : NULL;
    void *tau = bg_dev_alloc(es * (size_t)m);
    qru_matrix *Aw = bg_wrap(g, dt, n, m, A, n), *Bw = bg_wrap(g, dt, n, r, B, n);
    qru_matrix *Qw = Q ? bg_wrap(g, dt, n, n, Q, n) : NULL;
    double flops = routine == 1   ? flops_geqrf(n, m) + flops_ormqr(n, m, 1)
                   : routine == 2 ? flops_geqrf(n, m) + flops_ormqr(n, m, 1) +
                                        flops_orgqr(n, n, m)
                   : routine == 3 ? flops_potrf(n)
                                  : flops_trsm(n, n);
    int reps = o->reps;
    double tq[1000], tr[1000];
    int done = 0;
    for (int rep = -1; rep < reps; ++rep) {
        /* qru */
        dcopy(g, A, A0, es * (size_t)n * m);
        dcopy(g, B, B0, es * (size_t)n * r);
        bg_ev_start(g);
        if (routine <= 2)
            bg_check(qru_qr_factor(g->ctx, 0, Aw, Qw, Bw), "qru_qr_factor");
        else if (routine == 3)
            bg_check(qru_chol_factor(g->ctx, 'L', Aw, QRU_CHOL_LEFT, 0),
                     "qru_chol_factor");
        else
            bg_check(qru_trsm(g->ctx, 'L', 'U', 'N', 'N', 1.0, Aw, Bw),
                     "qru_trsm");
        double t_q = bg_ev_stop(g);
        /* reference */
        dcopy(g, A2, A0, es * (size_t)n * m);
        dcopy(g, B2, B0, es * (size_t)n * r);
        bg_ev_start(g);
        if (routine <= 2) {
            bg_geqrf(g, dt, n, m, A2, n, tau);
            bg_ormqr_lt(g, dt, n, 1, m, A2, n, tau, B2, n);
            if (routine == 2) {
                bg_cuda_check(cudaMemcpyAsync(Q2, A2, es * (size_t)n * m,
                                              cudaMemcpyDeviceToDevice,
                                              g->stream),
                              "copy"); /* part of forming Q */
                bg_orgqr(g, dt, n, n, m, Q2, n, tau);
            }
        } else if (routine == 3) {
            bg_potrf(g, dt, n, A2, n);
        } else {
            bg_trsm_lun(g, dt, n, n, A2, n, B2, n);
        }
        double t_r = bg_ev_stop(g);
        if (rep < 0) {
            if (t_q + t_r > 0.5 && reps > 3)
                reps = 3;
            continue;
        }
        tq[done] = t_q;
        tr[done] = t_r;
        if (++done == reps || done == 1000)
            break;
    }
    double xd;
    if (routine <= 2) { /* x = R \ Q'b from both */
        bg_trsm_lun(g, dt, m, 1, A, n, B, n);
        bg_trsm_lun(g, dt, m, 1, A2, n, B2, n);
        xd = ddiff(dt, m, 1, n, B, n, B2, 0);
    } else if (routine == 3) {
        xd = ddiff(dt, n, n, n, A, n, A2, 1);
    } else {
        xd = ddiff(dt, n, n, n, B, n, B2, 0);
    }
    /* backend calls of one qru run (untimed) */
    dcopy(g, A, A0, es * (size_t)n * m);
    dcopy(g, B, B0, es * (size_t)n * r);
    bg_check(qru_context_sync(g->ctx), "sync");
    bg_count_reset(g->ctx);
    if (routine <= 2)
        bg_check(qru_qr_factor(g->ctx, 0, Aw, Qw, Bw), "qru_qr_factor");
    else if (routine == 3)
        bg_check(qru_chol_factor(g->ctx, 'L', Aw, QRU_CHOL_LEFT, 0),
                 "qru_chol_factor");
    else
        bg_check(qru_trsm(g->ctx, 'L', 'U', 'N', 'N', 1.0, Aw, Bw), "qru_trsm");
    long calls = bg_count_get(g->ctx);
    bg_check(qru_context_sync(g->ctx), "sync");

    double t_q = bg_median(tq, done), t_r = bg_median(tr, done);
    double v[] = {routine, n,         m,         done,
                  t_q,     t_r,       t_r / t_q, 1e-12 * flops / t_q,
                  1e-12 * flops / t_r, (double)calls, xd};
    bg_table_row(t, v);
    fprintf(stderr, "bench_factor %s routine %d n=%d: qru %.4g s, ref %.4g s\n",
            bg_dtype_name(dt), routine, n, t_q, t_r);
    qru_matrix_destroy(Aw);
    qru_matrix_destroy(Bw);
    qru_matrix_destroy(Qw);
    cudaDeviceSynchronize();
    cudaFree(A0);
    cudaFree(B0);
    cudaFree(A);
    cudaFree(B);
    cudaFree(A2);
    cudaFree(B2);
    cudaFree(Q);
    cudaFree(Q2);
    cudaFree(tau);
    free(hA);
    free(hB);
}
#endif

int main(int argc, char **argv)
{
    bg_opts o;
    bg_parse(argc, argv, "bench_factor",
             "qru's QR, Cholesky and trsm vs cuSOLVER/cuBLAS", &o);
    if (o.cpu_only) {
        printf("bench_factor: nothing to do with --cpu-only (GPU comparison "
               "only)\n");
        return 0;
    }
#ifdef QRU_HAVE_CUDA
    bg_gpu g;
    if (bg_gpu_open(&g) != 0) {
        printf("bench_factor: skipped: no CUDA device\n");
        return BG_SKIP;
    }
    static const int full[][2] = {{1, 2000}, {1, 4000}, {1, 8000},
                                  {2, 2000}, {2, 4000}, {2, 8000},
                                  {3, 2000}, {3, 4000}, {3, 8000},
                                  {3, 16000}, {4, 2000}, {4, 8000}};
    static const int small[][2] = {{1, 256}, {2, 256}, {3, 256}, {4, 256}};
    const int(*pts)[2] = o.quick ? small : full;
    int np = o.quick ? 4 : (int)(sizeof full / sizeof full[0]);
    for (int pr = 0; pr < 2; ++pr) {
        qru_dtype dt = pr == 0 ? QRU_DOUBLE : QRU_FLOAT;
        if (!(o.prec & (dt == QRU_DOUBLE ? 2 : 1)))
            continue;
        bg_table *t = bg_table_new(&o, "bench_factor", dt, g.device,
                                   "factorisations vs cuSOLVER/cuBLAS", COLS);
        bg_table_note(t, "routine 1: qru_qr_factor(0,A,NULL,b) vs geqrf+ormqr, "
                         "A n x m, m = n/2; 2: with the full Q vs "
                         "geqrf+ormqr+orgqr;");
        bg_table_note(t, "routine 3: qru_chol_factor('L', left) vs potrf; 4: "
                         "qru_trsm vs cuBLAS trsm, n x n triangle, n rhs;");
        bg_table_note(t, "seconds (CUDA events, median); speedup = t_ref / "
                         "t_qru; tflops from src/qru_flops.h; calls: "
                         "backend-table calls of one qru run");
        for (int i = 0; i < np; ++i) {
            if (i > 0 && bg_over_budget(&o)) {
                bg_table_note(t, "not run (time budget): routine %d n %d",
                              pts[i][0], pts[i][1]);
                continue;
            }
            run_point(&g, &o, t, dt, pts[i][0], pts[i][1]);
        }
        bg_table_close(t);
    }
    bg_gpu_close(&g);
    return 0;
#else
    printf("bench_factor: skipped: no CUDA device (this build has no CUDA "
           "backend)\n");
    return BG_SKIP;
#endif
}
