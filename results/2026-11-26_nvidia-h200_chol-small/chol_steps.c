/* The steps of qru_chol_update_lower (src/chol_update.c) one at a time on
 * a CUDA context, n = 32, k = 1: each step repeated 200 times (7 batches,
 * the median), the stream synchronised at the ends of a batch only, so a
 * step that does not wait costs its launch and a step that waits its
 * round trip.  Built against the static qru_internal (the op table). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "qru_internal.h"
#include "chol_internal.h"

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

static qru_context *ctx;
static qru_ptr L, W, T, Wd, R, info;
static int n = 32, k = 1;
static double *adiag;

static int step(int s)
{
    const qru_backend_ops *o = ctx->ops;
    const qru_dtype dt = QRU_DOUBLE;
    int bad = 0;
    switch (s) {
    case 0: return qru_chol_rowsq(ctx, dt, n, n, 1, L, n, R, adiag);
    case 1: return qru_chol_rowsq(ctx, dt, n, k, 0, W, n, R, adiag + n);
    case 2: return qru_chol_info_zero(ctx, dt, info);
    case 3: return o->lacpy(ctx, dt, 'L', n, n, L, n, T, n);
    case 4: return o->copy(ctx, dt, n, k, W, n, Wd, n);
    case 5: /* a rotation that keeps T: update and downdate by the same w */
        return o->chol_rot(ctx, dt, n, k, 1, T, n, Wd, n, info, 0);
    case 6: return qru_chol_info_read(ctx, dt, info, &bad);
    case 7: return qru_chol_verdict(ctx, dt, n, adiag, adiag + n, 0, n, T,
                                    n + 1, T, n + 1);
    case 8: return o->transpose(ctx, dt, n, n, L, n, T, n);
    default: return 0;
    }
}

int main(void)
{
    if (qru_context_create(QRU_BACKEND_CUDA, &ctx))
        return 77;
    const char *names[] = {"rowsq(L) (transpose, laset, lacpy, transpose, col_norms)",
                           "rowsq(W) (transpose, col_norms)", "info_zero (laset)",
                           "lacpy L -> T", "copy W -> Wd", "chol_rot",
                           "info_read (1 element down)",
                           "verdict (the diagonal down, judged)", "transpose n x n"};
    size_t es = sizeof(double), nn = (size_t)n * n;
    void *buf;
    ctx->ops->mem_alloc(ctx, es * (6 * nn + 64), &buf);
    qru_ptr b = {buf, 0};
    L = b; W = qru_ptr_add(b, nn); T = qru_ptr_add(b, 2 * nn);
    Wd = qru_ptr_add(b, 3 * nn); R = qru_ptr_add(b, 4 * nn);
    info = qru_ptr_add(b, 6 * nn);
    double *h = calloc(nn, es);
    for (int i = 0; i < n; ++i) {
        h[i + (size_t)i * n] = 2.0;
        for (int j = 0; j < i; ++j)
            h[i + (size_t)j * n] = 0.01 * ((i + j) % 7);
    }
    ctx->ops->upload(ctx, QRU_DOUBLE, n, n, h, n, L, n);
    for (int i = 0; i < n; ++i)
        h[i] = 1e-3 * (i % 5);
    ctx->ops->upload(ctx, QRU_DOUBLE, n, 1, h, n, W, n);
    ctx->ops->lacpy(ctx, QRU_DOUBLE, 'L', n, n, L, n, T, n);
    adiag = malloc(sizeof(double) * (2 * n + 1));
    printf("%s, n = %d, k = %d: host time a step (median of 7 x 200)\n",
           qru_context_device_name(ctx), n, k);
    for (int s = 0; s < 9; ++s) {
        double t[7];
        for (int bt = -1; bt < 7; ++bt) {
            ctx->ops->sync(ctx);
            double t0 = now();
            for (int i = 0; i < 200; ++i) {
                int st = step(s);
                if (st < 0) { /* (a verdict > 0 on drifted data is fine) */
                    printf("step %d: status %d\n", s, st);
                    return 1;
                }
            }
            ctx->ops->sync(ctx);
            if (bt >= 0)
                t[bt] = (now() - t0) / 200;
        }
        qsort(t, 7, sizeof *t, cmp);
        printf("%-60s %8.2f us\n", names[s], t[3] * 1e6);
    }
    return 0;
}
