/* Where the time of a small Cholesky update goes on a GPU (issue 17's
 * 350 us a call): host time a call, after warm-up, of
 *   qru_chol_update (rank 1, order n, 'U' and 'L', alternating + and -),
 *   qru_matrix_copy of an n x n matrix (one kernel launch, no wait),
 *   qru_matrix_download of one element (a host round trip),
 * each the median of 7 batches of 200 calls, the context synchronised at
 * the ends of a batch.  Public API only; the backend by argument. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qru.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { BATCH = 200, NB = 7 };

static qru_context *ctx;
static qru_matrix *L, *W, *A, *B, *E;

static int op_chol(int i, char uplo)
{
    return qru_chol_update(ctx, uplo, L, W, i % 2 ? -1 : 1);
}

static double bench(int kind)
{
    double t[NB];
    double one;
    for (int b = -1; b < NB; ++b) {
        qru_context_sync(ctx);
        double t0 = now();
        for (int i = 0; i < BATCH; ++i) {
            int st = kind == 0   ? op_chol(i, 'U')
                     : kind == 1 ? op_chol(i, 'L')
                     : kind == 2 ? qru_matrix_copy(A, B)
                                 : qru_matrix_download(E, &one, 1);
            if (st) {
                fprintf(stderr, "kind %d: status %d: %s\n", kind, st,
                        qru_last_error(ctx));
                exit(1);
            }
        }
        qru_context_sync(ctx);
        if (b >= 0)
            t[b] = (now() - t0) / BATCH;
    }
    qsort(t, NB, sizeof *t, cmp);
    return t[NB / 2] * 1e6;
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 32;
    qru_backend be = argc > 1 && !strcmp(argv[1], "cpu") ? QRU_BACKEND_CPU
                     : argc > 1 && !strcmp(argv[1], "opencl")
                         ? QRU_BACKEND_OPENCL
                         : QRU_BACKEND_CUDA;
    if (qru_context_create(be, &ctx)) {
        fprintf(stderr, "no context: %s\n", qru_last_error(NULL));
        return 77;
    }
    double *h = malloc(sizeof(double) * n * n), *w = malloc(sizeof(double) * n);
    /* L = upper Cholesky factor of a well-conditioned matrix: 2 I + small */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            h[i + j * n] = i == j ? 2.0 : i < j ? 0.01 * ((i * 7 + j * 3) % 11) : 0.0;
    for (int i = 0; i < n; ++i)
        w[i] = 0.1 * ((i % 5) - 2);
    qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &L);
    qru_matrix_create(ctx, QRU_DOUBLE, n, 1, 0, &W);
    qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &A);
    qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &B);
    qru_matrix_create(ctx, QRU_DOUBLE, 1, 1, 0, &E);
    qru_matrix_upload(E, w, 1);
    qru_matrix_upload(L, h, n);
    qru_matrix_upload(W, w, n);
    qru_matrix_upload(A, h, n);
    const char *names[] = {"qru_chol_update 'U' (rank 1)",
                           "qru_chol_update 'L' (rank 1, L = U' read as L)",
                           "qru_matrix_copy n x n (one launch)",
                           "qru_matrix_download 1 x 1 (round trip)"};
    printf("%s, n = %d, double; host time a call, median of %d x %d\n",
           qru_context_device_name(ctx), n, NB, BATCH);
    for (int k = 0; k < 4; ++k) {
        if (k == 1) { /* a lower factor: the transpose */
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < j; ++i) {
                    h[j + i * n] = h[i + j * n];
                    h[i + j * n] = 0.0;
                }
            qru_matrix_upload(L, h, n);
        }
        qru_context_stats s0, s1;
        qru_context_get_stats(ctx, &s0);
        double us = bench(k);
        qru_context_get_stats(ctx, &s1);
        double calls = (double)(s1.calls - s0.calls) / ((NB + 1) * BATCH);
        double waits = (double)(s1.host_waits - s0.host_waits) / ((NB + 1) * BATCH);
        printf("%-48s %9.2f us   backend calls %5.1f, host waits %4.1f a call\n",
               names[k], us, calls, waits);
    }
    return 0;
}
