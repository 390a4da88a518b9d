/* Where S1 and S2 spend their time (2026-11-27): one R-only update each,
 * profiled alone (cudaProfilerStart/Stop around it, for
 * ncu --profile-from-start off), after an identical warm-up update, and
 * timed with host clocks around a synchronised call.
 * Usage: timeline s1|s2 */
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static qru_matrix *rnd(qru_context *ctx, int r, int c)
{
    double *h = malloc(sizeof(double) * r * c);
    for (long i = 0; i < (long)r * c; ++i)
        h[i] = rand() / (double)RAND_MAX - 0.5;
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
    int s1 = argc > 1 && !strcmp(argv[1], "s1");
    int n = s1 ? 8000 : 6000, m = 3000, p = 200;
    qru_context *ctx = NULL;
    CK(qru_context_create(QRU_BACKEND_CUDA, &ctx));
    qru_matrix *A = rnd(ctx, n, m), *b = rnd(ctx, n, 1), *U = rnd(ctx, p, m),
               *e = rnd(ctx, p, 1);
    qru_lsq_options o;
    qru_lsq_options_init(&o);
    o.q = QRU_Q_NONE;
    qru_lsq *f[4];
    for (int i = 0; i < 4; ++i)
        CK(qru_lsq_create(ctx, A, b, &o, &f[i]));
    double t[4];
    for (int i = 0; i < 4; ++i) {
        CK(qru_context_sync(ctx));
        if (i == 1)
            cudaProfilerStart();
        double t0 = now();
        if (s1)
            CK(qru_lsq_add_rows(f[i], 0, U, e));
        else
            CK(qru_lsq_remove_cols(f[i], 0, p));
        CK(qru_context_sync(ctx));
        t[i] = now() - t0;
        if (i == 1)
            cudaProfilerStop();
    }
    printf("%s: host-timed update %.3f %.3f %.3f %.3f ms (the second "
           "profiled)\n",
           s1 ? "S1" : "S2", 1e3 * t[0], 1e3 * t[1], 1e3 * t[2], 1e3 * t[3]);
    return 0;
}
