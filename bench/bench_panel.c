/*
 * Micro-benchmark of the pieces of a blocked update step, on the
 * backend of QRU_TEST_BACKEND (cpu | cuda | opencl, default cpu):
 *   - panel_qr of an m x nb panel under each panel kernel
 *     (QRU_PANEL_KERNEL = auto, smem, global, reg; see cuda/cuda_panel.cu);
 *   - the two GEMMs of a block reflector applied from the left
 *     (qru_upd_wy_left: B := B + Y (W' B)) for rb x nc blocks;
 *   - a 1 x 1 laset: the cost of one backend call that does nothing.
 * Each figure is the median over 7 batches of the wall time of `calls`
 * back-to-back calls followed by one synchronisation, divided by `calls`
 * (so it is the per-call cost in a stream of calls, as in an update).
 * Prints an Octave-loadable table:
 *   what m nb nc t_us
 * with what = 1 panel (auto), 2 panel (smem), 3 panel (global), 4 wy_left,
 * 5 laset, 6 the copy of the panel, 7 panel (reg: auto without the
 * warp-chain kernel).  Random inputs (never zeros).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qru.h"
#include "update/update.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static qru_context *ctx;
static const qru_backend_ops *O;
static const qru_dtype dt = QRU_DOUBLE;

static qru_ptr dalloc_rand(size_t n)
{
    qru_ptr p = {NULL, 0};
    if (O->mem_alloc(ctx, n * sizeof(double), &p.h)) {
        fprintf(stderr, "bench_panel: allocation of %zu doubles failed\n", n);
        exit(1);
    }
    double *h = malloc(n * sizeof *h);
    for (size_t i = 0; i < n; ++i)
        h[i] = 2.0 * rand() / RAND_MAX - 1.0;
    O->upload(ctx, dt, (int)n, 1, h, (int)n, p, (int)n);
    O->sync(ctx);
    free(h);
    return p;
}

typedef int (*op_fn)(void *);

/* median per-call seconds of `calls` calls of f, then one sync */
static double timeit(op_fn f, void *arg, int calls)
{
    double t[7];
    for (int w = 0; w < 2; ++w) /* warm-up */
        if (f(arg))
            return -1.0;
    O->sync(ctx);
    for (int b = 0; b < 7; ++b) {
        double t0 = now();
        for (int c = 0; c < calls; ++c)
            if (f(arg))
                return -1.0;
        O->sync(ctx);
        t[b] = (now() - t0) / calls;
    }
    qsort(t, 7, sizeof t[0], cmpd);
    return t[3];
}

struct panel_arg {
    int m, nb;
    qru_ptr A0, A, Y, W, tau, work;
};

static int run_panel(void *p)
{
    struct panel_arg *a = p;
    /* a fresh panel each call (the factor of a factor is degenerate) */
    int st = O->copy(ctx, dt, a->m, a->nb, a->A0, a->m, a->A, a->m);
    return st ? st
              : O->panel_qr(ctx, dt, a->m, a->nb, a->A, a->m, a->Y, a->m,
                            a->W, a->m, a->tau, a->work);
}

static int run_copy(void *p)
{
    struct panel_arg *a = p;
    return O->copy(ctx, dt, a->m, a->nb, a->A0, a->m, a->A, a->m);
}

struct wy_arg {
    int rb, jb, nc;
    qru_ptr Y, W, B, work;
};

static int run_wy(void *p)
{
    struct wy_arg *a = p;
    return qru_upd_wy_left(ctx, dt, a->rb, a->jb, a->nc, a->Y, a->rb, a->W,
                           a->rb, a->B, a->rb, a->work);
}

static int run_laset(void *p)
{
    qru_ptr *x = p;
    return O->laset(ctx, dt, 'A', 1, 1, 0.5, 1.0, *x, 1);
}

int main(void)
{
    const char *be = getenv("QRU_TEST_BACKEND");
    qru_backend b = QRU_BACKEND_CPU;
    if (be && strcmp(be, "cuda") == 0)
        b = QRU_BACKEND_CUDA;
    else if (be && strcmp(be, "opencl") == 0)
        b = QRU_BACKEND_OPENCL;
    int st = qru_context_create(b, &ctx);
    if (st) {
        printf("%% skipped: backend %s: %s\n", be ? be : "cpu",
               qru_strerror(st));
        return 77;
    }
    O = ctx->ops;
    printf("%% bench_panel on backend %s (double); per-call microseconds\n",
           O->name);
    printf("%% what: 1 panel_qr auto, 2 smem, 3 global, 4 wy_left (2 GEMMs), "
           "5 laset 1x1, 6 copy of the panel (included in 1-3, 7), "
           "7 reg\n");
    printf("%% what    m   nb    nc      t_us\n");
    static const int panels[][2] = {{264, 64}, {264, 32}, {232, 32},
                                    {545, 45}, {1064, 64}};
    if (O->panel_qr)
        for (size_t i = 0; i < sizeof panels / sizeof panels[0]; ++i) {
            struct panel_arg a;
            a.m = panels[i][0];
            a.nb = panels[i][1];
            size_t mn = (size_t)a.m * a.nb;
            a.A0 = dalloc_rand(mn);
            a.A = dalloc_rand(mn);
            a.Y = dalloc_rand(mn);
            a.W = dalloc_rand(mn);
            a.tau = dalloc_rand((size_t)a.nb);
            a.work = dalloc_rand(qru_panel_work(a.m, a.nb));
            static const int kinds[][2] = {{QRU_PANEL_KERNEL_AUTO, 1},
                                           {QRU_PANEL_KERNEL_SMEM, 2},
                                           {QRU_PANEL_KERNEL_GLOBAL, 3},
                                           {QRU_PANEL_KERNEL_REG, 7}};
            for (int k = 0; k < 4; ++k) {
                qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                                   kinds[k][0]);
                double t = timeit(run_panel, &a, 20);
                printf("  %d %5d %4d %5d %9.2f\n", kinds[k][1], a.m, a.nb, 0,
                       1e6 * t);
            }
            qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                               QRU_PANEL_KERNEL_AUTO);
            printf("  6 %5d %4d %5d %9.2f\n", a.m, a.nb, 0,
                   1e6 * timeit(run_copy, &a, 20));
            O->mem_free(ctx, a.A0.h);
            O->mem_free(ctx, a.A.h);
            O->mem_free(ctx, a.Y.h);
            O->mem_free(ctx, a.W.h);
            O->mem_free(ctx, a.tau.h);
            O->mem_free(ctx, a.work.h);
        }
    static const int wys[][3] = {
        {264, 64, 1}, {264, 64, 700}, {264, 64, 1400}, {264, 64, 2800}};
    for (size_t i = 0; i < sizeof wys / sizeof wys[0]; ++i) {
        struct wy_arg a = {wys[i][0], wys[i][1], wys[i][2], {0}, {0}, {0},
                           {0}};
        a.Y = dalloc_rand((size_t)a.rb * a.jb);
        a.W = dalloc_rand((size_t)a.rb * a.jb);
        a.B = dalloc_rand((size_t)a.rb * a.nc);
        a.work = dalloc_rand((size_t)a.jb * a.nc);
        printf("  4 %5d %4d %5d %9.2f\n", a.rb, a.jb, a.nc,
               1e6 * timeit(run_wy, &a, 20));
        O->mem_free(ctx, a.Y.h);
        O->mem_free(ctx, a.W.h);
        O->mem_free(ctx, a.B.h);
        O->mem_free(ctx, a.work.h);
    }
    qru_ptr x = dalloc_rand(1);
    printf("  5 %5d %4d %5d %9.2f\n", 1, 1, 1,
           1e6 * timeit(run_laset, &x, 200));
    O->mem_free(ctx, x.h);
    qru_context_destroy(ctx);
    return 0;
}
