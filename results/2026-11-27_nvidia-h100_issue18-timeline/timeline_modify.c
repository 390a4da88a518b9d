/* Where the rank-k modification's time goes (issue 18, 2026-11-27): one
 * update A + U V' of n = 8000, m = 3000, Q kept, double, at k given,
 * profiled alone (cudaProfilerStart/Stop around it, for
 * ncu --profile-from-start off) after two identical warm-up updates, and
 * timed with host clocks around a synchronised call (four calls, the
 * second profiled).  Usage: timeline_modify k */
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "qru.h"

#define CK(x)                                                                  \
    do {                                                                       \
        int s_ = (x);                                                          \
        if (s_) {                                                              \
            fprintf(stderr, "%s: %d %s\n", #x, s_, qru_last_error(ctx));      \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static qru_matrix *rnd(qru_context *ctx, int r, int c, double sc)
{
    double *h = malloc(sizeof(double) * r * c);
    for (long i = 0; i < (long)r * c; ++i)
        h[i] = sc * (rand() / (double)RAND_MAX - 0.5);
    qru_matrix *M;
    if (qru_matrix_create(ctx, QRU_DOUBLE, r, c, r, &M) ||
        qru_matrix_upload(M, h, r))
        exit(1);
    free(h);
    return M;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    int k = argc > 1 ? atoi(argv[1]) : 1, n = 8000, m = 3000;
    qru_context *ctx = NULL;
    CK(qru_context_create(QRU_BACKEND_CUDA, &ctx));
    qru_matrix *A = rnd(ctx, n, m, 1.0), *b = rnd(ctx, n, 1, 1.0),
               *U = rnd(ctx, n, k, 0.1), *V = rnd(ctx, m, k, 0.1);
    qru_lsq_options o;
    qru_lsq_options_init(&o);
    o.q = QRU_Q_FULL;
    qru_lsq *f;
    CK(qru_lsq_create(ctx, A, b, &o, &f));
    double t[5];
    for (int i = 0; i < 5; ++i) {
        CK(qru_context_sync(ctx));
        if (i == 2)
            cudaProfilerStart();
        double t0 = now();
        CK(qru_lsq_modify(f, U, V));
        CK(qru_context_sync(ctx));
        t[i] = now() - t0;
        if (i == 2)
            cudaProfilerStop();
    }
    printf("k = %d: host-timed update %.3f %.3f %.3f %.3f %.3f ms (the third "
           "profiled)\n",
           k, 1e3 * t[0], 1e3 * t[1], 1e3 * t[2], 1e3 * t[3], 1e3 * t[4]);
    return 0;
}
