/* Gaussian-process regression (qru_gp): posterior mean / variance and log
 * marginal likelihood against a direct LAPACKE computation in double,
 * incremental (insert / remove) against from-scratch, failure cases and
 * argument checks, both precisions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

#define THR QRU_TEST_THRESHOLD
#define PI 3.14159265358979323846

static double kf(const qru_gp_options *o, double a, double b)
{
    double d = (a - b) / o->lengthscale;
    return o->signal_var * exp(-0.5 * d * d);
}

/* The direct computation in double (LAPACKE): mean, var at xs, lml,
 * kappa(K) and the factor (lower, zeros above, ld n). */
typedef struct ref {
    double *mean, *var, lml, kappa, *L;
} ref;

static ref reference(const qru_gp_options *o, int n, const double *x,
                     const double *y, int m, const double *xs)
{
    ref r;
    double *K = malloc(sizeof(double) * ((size_t)n * n + 1));
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            K[i + (size_t)j * n] = kf(o, x[i], x[j]) + (i == j ? o->noise_var : 0);
    double anorm = n ? LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, K, n) : 0;
    int info = n ? LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, K, n) : 0;
    ck_assert_int_eq(info, 0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            K[i + (size_t)j * n] = 0;
    double rc = 1;
    if (n)
        LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, K, n, anorm, &rc);
    r.kappa = 1.0 / rc;
    double *alpha = malloc(sizeof(double) * (n + 1));
    for (int i = 0; i < n; ++i) /* (a loop: n >= 0 is not visible to gcc) */
        alpha[i] = y[i];
    if (n)
        LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, 1, K, n, alpha, n);
    double fit = 0, ld = 0;
    for (int i = 0; i < n; ++i) {
        fit += y[i] * alpha[i];
        ld += log(K[i + (size_t)i * n]);
    }
    r.lml = -0.5 * fit - ld - 0.5 * n * log(2 * PI);
    r.mean = malloc(sizeof(double) * (m + 1));
    r.var = malloc(sizeof(double) * (m + 1));
    double *ks = malloc(sizeof(double) * (n + 1));
    for (int j = 0; j < m; ++j) {
        double mu = 0;
        for (int i = 0; i < n; ++i) {
            ks[i] = kf(o, x[i], xs[j]);
            mu += ks[i] * alpha[i];
        }
        if (n)
            cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit,
                        n, K, n, ks, 1);
        double v = o->signal_var;
        for (int i = 0; i < n; ++i)
            v -= ks[i] * ks[i];
        r.mean[j] = mu;
        r.var[j] = v;
    }
    free(ks);
    free(alpha);
    r.L = K;
    return r;
}

static void ref_free(ref *r)
{
    free(r->mean);
    free(r->var);
    free(r->L);
}

/* Compares a GP with the direct computation on its current data; returns
 * the largest scaled error (each scaled by n eps kappa(K) and a magnitude,
 * and by n eps for the factor's backward error). */
static double compare(qru_dtype dt, qru_gp *g, const qru_gp_options *o, int m,
                      const double *xs, const char *tag)
{
    int n = qru_gp_size(g);
    double *x = malloc(sizeof(double) * (n + 1));
    double *y = malloc(sizeof(double) * (n + 1));
    ck_assert_int_eq(qru_gp_get_data(g, x, y), 0);
    ref r = reference(o, n, x, y, m, xs);
    double *mean = malloc(sizeof(double) * (m + 1));
    double *var = malloc(sizeof(double) * (m + 1));
    ck_assert_int_eq(qru_gp_predict(g, m, xs, mean, var), 0);
    double lml = 0;
    ck_assert_int_eq(qru_gp_log_likelihood(g, &lml), 0);
    double eps = qru_test_eps(dt);
    double scale = (n > 0 ? n : 1) * eps * r.kappa;
    double ysc = 0;
    for (int i = 0; i < n; ++i)
        ysc = fmax(ysc, fabs(y[i]));
    double em = 0, ev = 0;
    for (int j = 0; j < m; ++j) {
        em = fmax(em, fabs(mean[j] - r.mean[j]) / (ysc > 0 ? ysc : 1));
        ev = fmax(ev, fabs(var[j] - r.var[j]) / o->signal_var);
    }
    em /= scale;
    ev /= scale;
    double el = fabs(lml - r.lml) / ((fabs(r.lml) + n + 1) * scale);
    ck_assert_msg(em <= THR, "%s: mean error %g", tag, em);
    ck_assert_msg(ev <= THR, "%s: variance error %g", tag, ev);
    ck_assert_msg(el <= THR, "%s: log-likelihood error %g (%.17g vs %.17g)",
                  tag, el, lml, r.lml);
    /* the factor: backward error against K */
    double eb = 0;
    if (n > 0) {
        qru_matrix *L = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &L), 0);
        ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
        void *h = qru_test_download(L);
        double *Ld = malloc(sizeof(double) * (size_t)n * n);
        double *E = malloc(sizeof(double) * (size_t)n * n);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                Ld[i + (size_t)j * n] = qru_test_get(dt, h, n, i, j);
                E[i + (size_t)j * n] = kf(o, x[i], x[j]) + (i == j ? o->noise_var : 0);
                if (i < j)
                    ck_assert(Ld[i + (size_t)j * n] == 0);
            }
        double kn = 0, en = 0;
        for (size_t i = 0; i < (size_t)n * n; ++i)
            kn += E[i] * E[i];
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, Ld,
                    n, Ld, n, 1.0, E, n);
        for (size_t i = 0; i < (size_t)n * n; ++i)
            en += E[i] * E[i];
        eb = sqrt(en / kn) / (n * eps);
        ck_assert_msg(eb <= THR, "%s: factor backward error %g", tag, eb);
        free(Ld);
        free(E);
        free(h);
        qru_matrix_destroy(L);
    }
    ref_free(&r);
    free(mean);
    free(var);
    free(x);
    free(y);
    return fmax(fmax(em, ev), fmax(el, eb));
}

static void opts(qru_gp_options *o, qru_dtype dt)
{
    qru_gp_options_init(o);
    o->lengthscale = 0.6;
    o->signal_var = 1.3;
    o->noise_var = dt == QRU_FLOAT ? 0.1 : 0.01;
}

static double target(double x) { return sin(2 * x) + 0.3 * x; }

START_TEST(test_direct)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    opts(&o, dt);
    unsigned seed = 3;
    static const int ns[] = {0, 1, 17, 128, 300};
    double xs[64];
    for (int j = 0; j < 64; ++j)
        xs[j] = -4 + 8.0 * j / 63;
    double worst = 0;
    for (int a = 0; a < 5; ++a) {
        int n = ns[a];
        double *x = malloc(sizeof(double) * (n + 1));
        double *y = malloc(sizeof(double) * (n + 1));
        for (int i = 0; i < n; ++i) {
            x[i] = 3 * qru_test_urand(&seed);
            y[i] = target(x[i]) + 0.1 * qru_test_urand(&seed);
        }
        qru_gp *g = NULL;
        o.nb = a == 3 ? 16 : 0;
        int st = qru_gp_create(ctx, dt, n, x, y, &o, &g);
        ck_assert_msg(st == 0, "create n %d: %d", n, st);
        ck_assert_int_eq(qru_gp_size(g), n);
        char tag[64];
        snprintf(tag, sizeof tag, "direct n %d dt %d", n, dt);
        worst = fmax(worst, compare(dt, g, &o, 64, xs, tag));
        qru_gp_destroy(g);
        free(x);
        free(y);
    }
    printf("gp direct dt %d: max scaled error %.3g\n", dt, worst);
}
END_TEST

/* the seed's row-wise construction: points appended one at a time (and in
 * blocks) give the from-scratch factor */
START_TEST(test_incremental)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    opts(&o, dt);
    unsigned seed = 7;
    int n = 150;
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    for (int i = 0; i < n; ++i) {
        x[i] = 4 * qru_test_urand(&seed);
        y[i] = target(x[i]);
    }
    double xs[20];
    for (int j = 0; j < 20; ++j)
        xs[j] = -5 + 0.5 * j;
    qru_gp *g = NULL;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 0, NULL, NULL, &o, &g), 0);
    for (int i = 0; i < 100; ++i)
        ck_assert_int_eq(qru_gp_insert(g, i, 1, x + i, y + i), 0);
    ck_assert_int_eq(qru_gp_insert(g, 100, 50, x + 100, y + 100), 0);
    ck_assert_int_eq(qru_gp_size(g), n);
    double e1 = compare(dt, g, &o, 20, xs, "appended");
    /* against the from-scratch object: same data, same predictions */
    qru_gp *f = NULL;
    ck_assert_int_eq(qru_gp_create(ctx, dt, n, x, y, &o, &f), 0);
    double m1[20], m2[20], v1[20], v2[20], l1, l2;
    ck_assert_int_eq(qru_gp_predict(g, 20, xs, m1, v1), 0);
    ck_assert_int_eq(qru_gp_predict(f, 20, xs, m2, v2), 0);
    ck_assert_int_eq(qru_gp_log_likelihood(g, &l1), 0);
    ck_assert_int_eq(qru_gp_log_likelihood(f, &l2), 0);
    double d = 0;
    for (int j = 0; j < 20; ++j)
        d = fmax(d, fmax(fabs(m1[j] - m2[j]), fabs(v1[j] - v2[j])));
    d = fmax(d, fabs(l1 - l2) / (fabs(l2) + n));
    printf("gp incremental dt %d: scaled error %.3g, max |incremental - "
           "scratch| %.3g\n",
           dt, e1, d);
    ck_assert_msg(d <= 1e4 * n * qru_test_eps(dt), "incremental vs scratch %g",
                  d);
    /* remove them again in blocks from the middle and the ends */
    ck_assert_int_eq(qru_gp_remove(g, 40, 30), 0);
    ck_assert_int_eq(qru_gp_remove(g, 0, 5), 0);
    ck_assert_int_eq(qru_gp_remove(g, qru_gp_size(g) - 7, 7), 0);
    ck_assert_int_eq(qru_gp_size(g), n - 42);
    compare(dt, g, &o, 20, xs, "removed");
    qru_gp_destroy(g);
    qru_gp_destroy(f);
    free(x);
    free(y);
}
END_TEST

/* 200 random inserts / removals of 1..3 points at random positions */
START_TEST(test_chain)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    opts(&o, dt);
    unsigned seed = 19;
    int n0 = 30;
    double x[64], y[64], xs[16];
    for (int i = 0; i < n0; ++i) {
        x[i] = 3 * qru_test_urand(&seed);
        y[i] = target(x[i]);
    }
    for (int j = 0; j < 16; ++j)
        xs[j] = -3 + 0.4 * j;
    qru_gp *g = NULL;
    o.capacity = 0; /* 30 points: inserts grow the storage */
    ck_assert_int_eq(qru_gp_create(ctx, dt, n0, x, y, &o, &g), 0);
    double worst = 0;
    for (int step = 1; step <= 200; ++step) {
        int n = qru_gp_size(g);
        int p = 1 + (int)((qru_test_urand(&seed) + 1) * 1.5);
        int ins = (qru_test_urand(&seed) > 0 || n < 5) && n + p < 60;
        int k = (int)((qru_test_urand(&seed) + 1) * 0.5 * (n + 1));
        if (k > n)
            k = n;
        if (ins) {
            double nx[3], ny[3];
            for (int q = 0; q < p; ++q) {
                nx[q] = 3 * qru_test_urand(&seed);
                ny[q] = target(nx[q]);
            }
            ck_assert_int_eq(qru_gp_insert(g, k, p, nx, ny), 0);
        } else {
            if (k + p > n)
                k = n - p;
            ck_assert_int_eq(qru_gp_remove(g, k, p), 0);
        }
        if (step % 50 == 0) {
            char tag[48];
            snprintf(tag, sizeof tag, "chain step %d dt %d", step, dt);
            worst = fmax(worst, compare(dt, g, &o, 16, xs, tag));
        }
    }
    printf("gp chain dt %d: 200 steps, n = %d, max scaled error %.3g\n", dt,
           qru_gp_size(g), worst);
    qru_gp_destroy(g);
}
END_TEST

/* exactly singular K (repeated input, no noise, far-apart points whose
 * covariances underflow to exact zeros) */
START_TEST(test_fail)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    qru_gp_options_init(&o);
    o.noise_var = 0.0;
    o.signal_var = 1.0;
    o.lengthscale = 1.0;
    double x[4] = {0, 100, 200, 100}, y[4] = {1, 2, 3, 4};
    qru_gp *g = (qru_gp *)&o; /* must not be overwritten */
    ck_assert_int_eq(qru_gp_create(ctx, dt, 4, x, y, &o, &g), 4);
    ck_assert_ptr_eq(g, (qru_gp *)&o);
    g = NULL;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &o, &g), 0);
    qru_matrix *L = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 3, 3, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    void *before = qru_test_download(L);
    double lml0;
    ck_assert_int_eq(qru_gp_log_likelihood(g, &lml0), 0);
    double nx[2] = {50, 50}, ny[2] = {0, 0};
    ck_assert_int_eq(qru_gp_insert(g, 1, 2, nx, ny), 3);
    ck_assert_int_eq(qru_gp_insert(g, 1, 1, x + 1, y + 1), 3);
    ck_assert_int_eq(qru_gp_size(g), 3);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    void *after = qru_test_download(L);
    ck_assert(memcmp(before, after, 9 * qru_test_elsize(dt)) == 0);
    double xa[3], ya[3], lml1;
    ck_assert_int_eq(qru_gp_get_data(g, xa, ya), 0);
    ck_assert(xa[0] == 0 && xa[1] == 100 && xa[2] == 200);
    ck_assert(ya[0] == 1 && ya[1] == 2 && ya[2] == 3);
    ck_assert_int_eq(qru_gp_log_likelihood(g, &lml1), 0);
    ck_assert(lml0 == lml1);
    /* K = I exactly: lml = -|y|^2/2 - 3 log(2 pi)/2 */
    ck_assert(fabs(lml1 - (-7.0 - 1.5 * log(2 * PI))) < 1e-5);
    free(before);
    free(after);
    qru_matrix_destroy(L);
    qru_gp_destroy(g);
}
END_TEST

START_TEST(test_bad_args)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_gp_options o;
    qru_gp_options_init(&o);
    double x[3] = {0, 1, 2}, y[3] = {1, 2, 3}, out[3];
    qru_gp *g = NULL;
    ck_assert_int_eq(qru_gp_create(NULL, dt, 3, x, y, &o, &g), -1);
    ck_assert_int_eq(qru_gp_create(ctx, (qru_dtype)7, 3, x, y, &o, &g), -2);
    ck_assert_int_eq(qru_gp_create(ctx, dt, -1, x, y, &o, &g), -3);
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, NULL, y, &o, &g), -4);
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, NULL, &o, &g), -5);
    qru_gp_options b = o;
    b.lengthscale = 0;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &b, &g), -6);
    b = o;
    b.signal_var = -1;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &b, &g), -6);
    b = o;
    b.noise_var = NAN;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &b, &g), -6);
    b = o;
    b.capacity = 2;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &b, &g), -6);
    b = o;
    b.nb = -1;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &b, &g), -6);
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &o, NULL), -7);
    ck_assert_ptr_null(g);
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, NULL, &g), 0);

    ck_assert_int_eq(qru_gp_predict(NULL, 3, x, out, NULL), -1);
    ck_assert_int_eq(qru_gp_predict(g, -1, x, out, NULL), -2);
    ck_assert_int_eq(qru_gp_predict(g, 3, NULL, out, NULL), -3);
    ck_assert_int_eq(qru_gp_predict(g, 3, x, NULL, NULL), -4);
    ck_assert_int_eq(qru_gp_predict(g, 3, x, out, NULL), 0);
    ck_assert_int_eq(qru_gp_log_likelihood(NULL, out), -1);
    ck_assert_int_eq(qru_gp_log_likelihood(g, NULL), -2);
    ck_assert_int_eq(qru_gp_insert(NULL, 0, 1, x, y), -1);
    ck_assert_int_eq(qru_gp_insert(g, -1, 1, x, y), -2);
    ck_assert_int_eq(qru_gp_insert(g, 4, 1, x, y), -2);
    ck_assert_int_eq(qru_gp_insert(g, 0, -1, x, y), -3);
    ck_assert_int_eq(qru_gp_insert(g, 0, 1, NULL, y), -4);
    ck_assert_int_eq(qru_gp_insert(g, 0, 1, x, NULL), -5);
    ck_assert_int_eq(qru_gp_remove(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_gp_remove(g, -1, 1), -2);
    ck_assert_int_eq(qru_gp_remove(g, 4, 0), -2);
    ck_assert_int_eq(qru_gp_remove(g, 0, -1), -3);
    ck_assert_int_eq(qru_gp_remove(g, 2, 2), -3);
    qru_matrix *L = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 2, 2, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(NULL, L), -1);
    ck_assert_int_eq(qru_gp_get_factor(g, L), -2);
    ck_assert_int_eq(qru_gp_get_factor(g, NULL), -2);
    ck_assert_int_eq(qru_gp_get_data(NULL, out, out), -1);
    ck_assert_int_eq(qru_gp_size(NULL), -1);
    ck_assert_int_eq(qru_gp_size(g), 3);
    qru_matrix_destroy(L);
    qru_gp_destroy(g);
    qru_gp_destroy(NULL);
}
END_TEST

/* The state of a GP as the API shows it, for "unchanged bit for bit". */
typedef struct snap {
    int n;
    void *L;
    double *x, *y;
} snap;

static snap take(qru_dtype dt, qru_gp *g)
{
    snap z = {qru_gp_size(g), NULL, NULL, NULL};
    qru_matrix *L = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, z.n, z.n, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    z.L = qru_test_download(L);
    qru_matrix_destroy(L);
    z.x = malloc(sizeof(double) * (size_t)(z.n + 1));
    z.y = malloc(sizeof(double) * (size_t)(z.n + 1));
    ck_assert_int_eq(qru_gp_get_data(g, z.x, z.y), 0);
    return z;
}

static void same_snap(qru_dtype dt, const snap *a, const snap *b,
                      const char *tag)
{
    ck_assert_msg(a->n == b->n, "%s: size changed", tag);
    ck_assert_msg(memcmp(a->L, b->L, qru_test_elsize(dt) * (size_t)a->n *
                                         (size_t)a->n) == 0 &&
                      memcmp(a->x, b->x, sizeof(double) * (size_t)a->n) ==
                          0 &&
                      memcmp(a->y, b->y, sizeof(double) * (size_t)a->n) == 0,
                  "%s: GP changed by a failed call", tag);
}

static void snap_free(snap *z)
{
    free(z->L);
    free(z->x);
    free(z->y);
}

/* A repeated input with noise_var = 0 (K exactly singular, the computed
 * pivot a rounding error, of either sign): qru_gp_insert returns the same
 * status as qru_gp_create on the points in the new order (the column of
 * the later copy), and leaves the GP unchanged; at the end (k = n, the
 * append path) and in the middle (insertion and downdate), copies before
 * and after the insertion point. */
START_TEST(test_repeat)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    qru_gp_options_init(&o);
    o.noise_var = 0.0;
    o.signal_var = 1.0;
    o.lengthscale = 1.0;
    enum { N = 8 };
    double x[N], y[N];
    unsigned seed = 3;
    for (int i = 0; i < N; ++i) {
        x[i] = 1.5 * i;
        y[i] = qru_test_urand(&seed);
    }
    /* (k, p, new points: indices into x or -1 for a fresh point): a copy
     * of each point at the end, in the middle and at the start, and pairs
     * whose second point is the copy */
    int cases[3 * N + 2][4];
    int nc = 0;
    for (int d = 0; d < N; ++d)
        for (int t = 0; t < 3; ++t) {
            static const int ks[3] = {N, N / 2, 0};
            cases[nc][0] = ks[t];
            cases[nc][1] = 1;
            cases[nc][2] = d;
            cases[nc++][3] = 0;
        }
    static const int pairs[2][4] = {{N, 2, -1, 6}, {0, 2, -1, 0}};
    memcpy(cases[nc++], pairs[0], sizeof pairs[0]);
    memcpy(cases[nc++], pairs[1], sizeof pairs[1]);
    for (int c = 0; c < nc; ++c) {
        int k = cases[c][0], p = cases[c][1];
        double nx[2], ny[2] = {0.5, -0.5};
        for (int q = 0; q < p; ++q)
            nx[q] = cases[c][2 + q] >= 0 ? x[cases[c][2 + q]] : 20.25;
        /* the points in the new order; the later copy fails */
        double ax[N + 2], ay[N + 2];
        int want = 0;
        for (int i = 0; i < N + p; ++i) {
            int from = i < k ? i : i < k + p ? -1 : i - p;
            ax[i] = from >= 0 ? x[from] : nx[i - k];
            ay[i] = from >= 0 ? y[from] : ny[i - k];
            for (int t = 0; t < i && !want; ++t)
                if (ax[t] == ax[i])
                    want = i + 1;
        }
        ck_assert(want > 0);
        qru_gp *g = NULL;
        ck_assert_int_eq(qru_gp_create(ctx, dt, N + p, ax, ay, &o, &g), want);
        ck_assert_ptr_null(g);
        ck_assert_int_eq(qru_gp_create(ctx, dt, N, x, y, &o, &g), 0);
        snap a = take(dt, g);
        double l0, l1;
        ck_assert_int_eq(qru_gp_log_likelihood(g, &l0), 0);
        int st = qru_gp_insert(g, k, p, nx, ny);
        ck_assert_msg(st == want, "dt %d k %d copy of %d: insert %d, create "
                      "%d", dt, k, cases[c][2], st, want);
        snap b = take(dt, g);
        same_snap(dt, &a, &b, "insert");
        ck_assert_int_eq(qru_gp_log_likelihood(g, &l1), 0);
        ck_assert(memcmp(&l0, &l1, sizeof l0) == 0);
        snap_free(&a);
        snap_free(&b);
        qru_gp_destroy(g);
    }
}
END_TEST

/* NaN / +Inf / -Inf inputs: a non-finite x gives K a NaN diagonal entry
 * (and NaN or zero covariances): create and insert fail at its column and
 * leave everything unchanged; a non-finite y does not enter the factor
 * (status 0, predictions unspecified); remove works on such a GP. */
START_TEST(test_nonfinite)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    opts(&o, dt);
    enum { N = 8 };
    static const double bad[3] = {NAN, INFINITY, -INFINITY};
    double x[N], y[N];
    unsigned seed = 9;
    for (int i = 0; i < N; ++i) {
        x[i] = 0.4 * i + 0.1 * qru_test_urand(&seed);
        y[i] = target(x[i]);
    }
    for (int b = 0; b < 3; ++b) {
        static const int is[] = {0, 4, N - 1};
        for (int t = 0; t < 3; ++t) {
            int i = is[t];
            double xb[N], yb[N];
            memcpy(xb, x, sizeof xb);
            memcpy(yb, y, sizeof yb);
            xb[i] = bad[b];
            qru_gp *g = NULL;
            ck_assert_int_eq(qru_gp_create(ctx, dt, N, xb, y, &o, &g), i + 1);
            ck_assert_ptr_null(g);
            yb[i] = bad[b];
            ck_assert_int_eq(qru_gp_create(ctx, dt, N, x, yb, &o, &g), 0);
            double mean[2], var[2], xs[2] = {0.3, 1.1};
            ck_assert_int_eq(qru_gp_predict(g, 2, xs, mean, var), 0);
            ck_assert_int_eq(qru_gp_remove(g, i > 0 ? i - 1 : 0, 2), 0);
            ck_assert_int_eq(qru_gp_size(g), N - 2);
            qru_gp_destroy(g);
        }
        static const int ks[] = {0, 4, N};
        for (int t = 0; t < 3; ++t)
            for (int q = 0; q < 2; ++q) {
                int k = ks[t];
                qru_gp *g = NULL;
                ck_assert_int_eq(qru_gp_create(ctx, dt, N, x, y, &o, &g), 0);
                snap a = take(dt, g);
                double nx[2] = {0.55, 1.65}, ny[2] = {0.1, 0.2};
                nx[q] = bad[b];
                int st = qru_gp_insert(g, k, 2, nx, ny);
                ck_assert_msg(st == k + q + 1,
                              "dt %d x %g k %d new %d: status %d", dt, bad[b],
                              k, q, st);
                snap c = take(dt, g);
                same_snap(dt, &a, &c, "insert");
                snap_free(&a);
                snap_free(&c);
                qru_gp_destroy(g);
            }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("gp");
    TCase *tc = tcase_create("gp");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_direct, 0, 2);
    tcase_add_loop_test(tc, test_incremental, 0, 2);
    tcase_add_loop_test(tc, test_chain, 0, 2);
    tcase_add_loop_test(tc, test_fail, 0, 2);
    tcase_add_loop_test(tc, test_repeat, 0, 2);
    tcase_add_loop_test(tc, test_nonfinite, 0, 2);
    tcase_add_test(tc, test_bad_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
