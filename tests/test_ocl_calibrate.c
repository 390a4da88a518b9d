/*
 * The OpenCL backend's measured cost model (opencl/opencl_calibrate.c):
 *  - with the private knob cost_calibrate on (QRU_COST_CALIBRATE=on when
 *    the context is created), a context on any OpenCL device, PoCL's CPU
 *    included, prices with measured terms, positive (the steps and the
 *    wait: not negative), finite and plausible, in each element type it
 *    supports; the terms it does not measure (rate_qr, qr_elem, qr_col)
 *    stay the table's;
 *  - contexts created at once on several threads, and every later one,
 *    take the same values (one measurement per device and process);
 *  - off keeps the table's constants, and so does the default (auto) on
 *    a CPU device; on a GPU or accelerator the default measures;
 *  - the CPU and CUDA backends ignore the knob.
 * The values and the time of the first creation are printed.  The AUTO
 * grid with the measured model on PoCL:
 *     QRU_TEST_BACKEND=opencl QRU_COST_CALIBRATE=on tests/test_auto_grid
 */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A context of the test's backend created with QRU_COST_CALIBRATE=mode
 * (NULL: unset). */
static qru_context *context_with(const char *mode)
{
    return qru_test_context_env("QRU_COST_CALIBRATE", mode);
}

static const qru_cost_model *cost(const qru_context *ctx, qru_dtype dt)
{
    return &qru_ctx_tuning(ctx, dt)->cost;
}

static int same(const qru_cost_model *a, const qru_cost_model *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static void print_model(qru_dtype dt, const qru_cost_model *m)
{
    printf("%s: per_call %.3g us, per_wait %.3g us, bandwidth %.3g GB/s, "
           "rate_upd %.3g GFLOP/s, rate_gemm %.3g GFLOP/s, col_step %.3g us, "
           "panel_rows %g, sweep_step %.3g us, blas3_call %.3g us\n",
           dt == QRU_DOUBLE ? "double" : "float", 1e6 * m->per_call,
           1e6 * m->per_wait, 1e-9 * m->bandwidth, 1e-9 * m->rate_upd,
           1e-9 * m->rate_gemm, 1e6 * m->col_step, m->panel_rows,
           1e6 * m->sweep_step, 1e6 * m->blas3_call);
    fflush(stdout);
}

#define CHECK_IN(v, lo, hi)                                                    \
    ck_assert_msg(isfinite(v) && (v) >= (lo) && (v) <= (hi),                   \
                  "%s = %g is not in [%g, %g]", #v, (double)(v), (double)(lo), \
                  (double)(hi))

/* measured: positive (or not negative), finite and plausible for any
 * device from a loaded CPU to a GPU; the rest as the table has it */
static void check_measured(const qru_cost_model *m, const qru_cost_model *t)
{
    CHECK_IN(m->per_call, 1e-7, 5e-3);
    CHECK_IN(m->per_wait, 0.0, 5e-2);
    CHECK_IN(m->bandwidth, 1e8, 1e13);
    CHECK_IN(m->rate_upd, 1e7, 1e15);
    CHECK_IN(m->rate_gemm, 1e7, 1e15);
    CHECK_IN(m->col_step, 0.0, 1e-3);
    CHECK_IN(m->sweep_step, 0.0, 1e-3);
    CHECK_IN(m->blas3_call, 0.0, 1e-3);
    ck_assert_msg(m->panel_rows == 0.0 ||
                      (m->panel_rows >= 8.0 && m->panel_rows <= 1024.0),
                  "panel_rows = %g", m->panel_rows);
    ck_assert(m->rate_qr == t->rate_qr && m->qr_elem == t->qr_elem &&
              m->qr_col == t->qr_col);
}

static void *create_on_thread(void *arg)
{
    qru_context **out = arg;
    *out = context_with("on");
    return NULL;
}

START_TEST(test_calibrate)
{
    qru_context *off = context_with("off");
    qru_backend b = qru_context_backend(off);
    int n = qru_test_ndtypes(off);
    /* two at once: one measures, the other waits for its values */
    qru_context *on[2] = {NULL, NULL};
    pthread_t th[2];
    double t0 = now();
    for (int i = 0; i < 2; ++i)
        ck_assert_int_eq(pthread_create(&th[i], NULL, create_on_thread, &on[i]),
                         0);
    for (int i = 0; i < 2; ++i)
        ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    double t1 = now();
    qru_context *again = context_with("on");
    double t2 = now();
    qru_context *dflt = context_with(NULL);
    printf("%s: two contexts with the measurement %.3f s, a later one "
           "%.4f s\n",
           qru_context_device_name(off), t1 - t0, t2 - t1);
    for (int d = 0; d < n; ++d) {
        qru_dtype dt = qru_test_dtype(off, d);
        const qru_cost_model *m = cost(on[0], dt), *t = cost(off, dt);
        print_model(dt, m);
        ck_assert(same(m, cost(on[1], dt)));
        ck_assert(same(m, cost(again, dt)));
        if (b != QRU_BACKEND_OPENCL) { /* the knob is the OpenCL backend's */
            ck_assert(same(m, t));
            ck_assert(same(cost(dflt, dt), t));
            continue;
        }
        check_measured(m, t);
        ck_assert(!same(m, t));
        if (qru_context_device_type(dflt) == QRU_DEVICE_CPU)
            ck_assert(same(cost(dflt, dt), t));
        else
            ck_assert(same(cost(dflt, dt), m));
    }
    qru_context *all[] = {off, on[0], on[1], again, dflt};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        qru_context_destroy(all[i]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ocl_calibrate");
    TCase *tc = tcase_create("ocl_calibrate");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_calibrate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
