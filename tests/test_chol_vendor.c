/* qru_chol_factor on its two paths: the backend's vendor Cholesky (op
 * potrf_full: LAPACKE on the CPU, cuSOLVER on CUDA) and qru's own blocked
 * algorithm, chosen with the tuning parameter QRU_TUNE_CHOL_VENDOR or by
 * the backend's threshold (QRU_TUNE_POTRF_MIN_N).  Both are compared with LAPACKE_dpotrf;
 * failures must give the first failing column, leave A unchanged bit for
 * bit without QRU_CHOL_IN_PLACE and, in place, leave the factor of the
 * leading minor in the leading block.  A counting wrapper around the
 * backend's potrf_full checks which path ran.  On a backend without a
 * vendor Cholesky (OpenCL) "vendor" runs qru's algorithm, and the tests
 * check that. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "../src/chol_internal.h"
#include "../src/qru_internal.h"
#include "qru_test.h"

static qru_context *ctx;
static const qru_backend_ops *orig;
static qru_backend_ops counting;
static int vendor_calls;

static int count_potrf_full(qru_context *c, qru_dtype dt, char uplo, int n,
                            qru_ptr A, int lda, qru_ptr info, qru_ptr ws,
                            size_t *ws_elems)
{
    if (ws.h)
        ++vendor_calls;
    return orig->potrf_full(c, dt, uplo, n, A, lda, info, ws, ws_elems);
}

static void setup(void)
{
    ctx = qru_test_context();
    orig = ctx->ops;
    counting = *orig;
    if (orig->potrf_full)
        counting.potrf_full = count_potrf_full;
    ctx->ops = &counting;
}

static void teardown(void)
{
    ctx->ops = orig;
    qru_context_destroy(ctx);
    ctx = NULL;
}

#define SENT 555.0
#define THR QRU_TEST_THRESHOLD

/* n x n SPD A = G G' / (n + 3) + 0.3 I, double, ld n */
static double *spd(int n, unsigned seed) { return qru_test_spd(n, 3, 0.3, &seed); }

/* Host array (dt, ld x n): the uplo triangle of A, sentinels elsewhere. */
static void *to_dt(qru_dtype dt, int n, int ld, const double *A, char uplo)
{
    return qru_test_from_double(dt, n, n, ld, A, n, uplo, SENT, 0.25);
}

/* LAPACKE_dpotrf('L') of A in double; zeros above; returns info */
static int ref_chol(int n, const double *A, double **L)
{
    *L = malloc(sizeof(double) * (size_t)n * n + 8);
    memcpy(*L, A, sizeof(double) * (size_t)n * n);
    int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, *L, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            (*L)[i + (size_t)j * n] = 0.0;
    return info;
}

/* the factor in F (dt, ld, uplo) as L(i, j), i >= j */
static double fget(qru_dtype dt, const void *F, int ld, char uplo, int i,
                   int j)
{
    return uplo == 'L' ? qru_test_get(dt, F, ld, i, j)
                       : qru_test_get(dt, F, ld, j, i);
}

static void check_sentinels(qru_dtype dt, int n, int ld, const void *F,
                            char uplo)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ld; ++i) {
            int in = i < n && (uplo == 'L' ? i >= j : i <= j);
            if (in)
                continue;
            double want = dt == QRU_FLOAT ? (double)(float)(SENT + i + 0.25 * j)
                                          : SENT + i + 0.25 * j;
            ck_assert_msg(qru_test_get(dt, F, ld, i, j) == want,
                          "entry (%d,%d) outside the triangle changed", i, j);
        }
}

static const char *MODES[] = {"vendor", "own", NULL}; /* NULL: default */

/* Whether the vendor op must run for this mode, variant, nb and n. */
static int expect_vendor(int mode, int n, int variant, int nb)
{
    if (!orig->potrf_full || mode == 1)
        return 0;
    if (mode == 0)
        return 1;
    int min_n = -1;
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_POTRF_MIN_N, &min_n),
                     0);
    return (variant & ~QRU_CHOL_IN_PLACE) == QRU_CHOL_LEFT && nb == 0 &&
           min_n > 0 && n >= min_n;
}

static void set_mode(int mode)
{
    /* QRU_TUNE_CHOL_VENDOR: 0 auto, 1 own, 2 vendor */
    int v = MODES[mode] == NULL ? 0 : mode == 1 ? 1 : 2;
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, QRU_FLOAT, QRU_TUNE_CHOL_VENDOR, v), 0);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_CHOL_VENDOR, v), 0);
}

/* _i: mode (3) x dtype (2) x uplo (2) */
START_TEST(test_factor_paths)
{
    int mode = _i / 4, di = (_i / 2) % 2;
    char uplo = _i % 2 ? 'U' : 'L';
    if (di >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, di);
    double eps = qru_test_eps(dt);
    set_mode(mode);
    static const int ns[] = {1, 7, 64, 130, 257};
    static const struct {
        int variant, nb;
    } vs[] = {{QRU_CHOL_LEFT, 0},
              {QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE, 0},
              {QRU_CHOL_LEFT, 32},
              {QRU_CHOL_RIGHT | QRU_CHOL_IN_PLACE, 0}};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (size_t v = 0; v < sizeof vs / sizeof *vs; ++v) {
            int n = ns[a], ld = n + 5;
            double *A = spd(n, 11u + (unsigned)(n * 7 + v));
            double *R = NULL;
            ck_assert_int_eq(ref_chol(n, A, &R), 0);
            void *h = to_dt(dt, n, ld, A, uplo);
            qru_matrix *P = qru_test_upload(ctx, dt, ld, n, ld, h, ld), *M;
            ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n, n,
                                             qru_matrix_data(P), ld, &M),
                             0);
            vendor_calls = 0;
            int st = qru_chol_factor(ctx, uplo, M, vs[v].variant, vs[v].nb);
            ck_assert_msg(st == 0, "mode %s n %d variant %d: status %d",
                          MODES[mode] ? MODES[mode] : "default", n,
                          vs[v].variant, st);
            ck_assert_int_eq(vendor_calls,
                             expect_vendor(mode, n, vs[v].variant, vs[v].nb));
            void *F = qru_test_download(P);
            check_sentinels(dt, n, ld, F, uplo);
            /* against LAPACKE in double: ||L - Lref|| / (||Lref|| n eps);
             * A is well conditioned (its smallest eigenvalue >= 0.3) */
            double d = 0, r = 0;
            for (int j = 0; j < n; ++j)
                for (int i = j; i < n; ++i) {
                    double x = fget(dt, F, ld, uplo, i, j),
                           y = R[i + (size_t)j * n];
                    d += (x - y) * (x - y);
                    r += y * y;
                }
            double err = sqrt(d / r) / (n * eps);
            worst = err > worst ? err : worst;
            ck_assert_msg(err <= THR, "mode %s n %d variant %d: error %g",
                          MODES[mode] ? MODES[mode] : "default", n,
                          vs[v].variant, err);
            free(F);
            free(h);
            free(A);
            free(R);
            qru_matrix_destroy(M);
            qru_matrix_destroy(P);
        }
    printf("paths %s dt %d %c: max scaled error vs LAPACKE %.3g\n",
           MODES[mode] ? MODES[mode] : "default", (int)dt, uplo, worst);
}
END_TEST

/* _i: mode vendor/own (2) x dtype (2) x uplo (2) */
START_TEST(test_not_pd_paths)
{
    int mode = _i / 4, di = (_i / 2) % 2;
    char uplo = _i % 2 ? 'U' : 'L';
    if (di >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, di);
    set_mode(mode);
    int n = 200, ld = 203;
    double *A0 = spd(n, 5u);
    double *R = NULL;
    ck_assert_int_eq(ref_chol(n, A0, &R), 0);
    static const int cols[] = {0, 1, 37, 130, 199};
    for (size_t c = 0; c < sizeof cols / sizeof *cols; ++c)
        for (int nan = 0; nan < 3; ++nan)
            for (int inpl = 0; inpl < 2; ++inpl) {
                int j = cols[c];
                double *A = malloc(sizeof(double) * (size_t)n * n);
                memcpy(A, A0, sizeof(double) * (size_t)n * n);
                if (nan == 2 && j > 0) { /* NaN below the diagonal */
                    A[j + (size_t)(j - 1) * n] = NAN;
                    A[(j - 1) + (size_t)j * n] = NAN;
                } else {
                    A[j + (size_t)j * n] = nan ? NAN : -1.0;
                }
                void *h = to_dt(dt, n, ld, A, uplo);
                qru_matrix *P = qru_test_upload(ctx, dt, ld, n, ld, h, ld),
                           *M;
                ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n, n,
                                                 qru_matrix_data(P), ld, &M),
                                 0);
                int var = QRU_CHOL_LEFT | (inpl ? QRU_CHOL_IN_PLACE : 0);
                vendor_calls = 0;
                int st = qru_chol_factor(ctx, uplo, M, var, 0);
                ck_assert_msg(st == j + 1,
                              "%s col %d nan %d inpl %d: status %d",
                              MODES[mode], j, nan, inpl, st);
                ck_assert_int_eq(vendor_calls, expect_vendor(mode, n, var, 0));
                void *F = qru_test_download(P);
                check_sentinels(dt, n, ld, F, uplo);
                if (!inpl) {
                    ck_assert_msg(memcmp(F, h, qru_test_elsize(dt) *
                                                   (size_t)ld * n) == 0,
                                  "%s col %d: A changed by a failed call",
                                  MODES[mode], j);
                } else {
                    /* the leading j x j block holds the factor of the
                     * leading minor (vendor and own; own also the rows
                     * below, which test_chol checks) */
                    double eps = qru_test_eps(dt);
                    for (int jj = 0; jj < j; ++jj)
                        for (int i = jj; i < j; ++i) {
                            double x = fget(dt, F, ld, uplo, i, jj),
                                   y = R[i + (size_t)jj * n];
                            ck_assert_msg(fabs(x - y) <= THR * n * eps * 10,
                                          "%s partial factor (%d,%d): %g vs "
                                          "%g",
                                          MODES[mode], i, jj, x, y);
                        }
                }
                free(F);
                free(h);
                free(A);
                qru_matrix_destroy(M);
                qru_matrix_destroy(P);
            }
    free(R);
    free(A0);
}
END_TEST

/* The vendor op itself, where the backend has one: workspace query,
 * success, the failing column in info on an indefinite and on a NaN
 * pivot, and info left alone when it was not 0 on entry. */
START_TEST(test_potrf_full_op)
{
    if (!orig->potrf_full)
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 96, ld = 100;
    size_t wse = 0;
    qru_ptr none = {0, 0};
    ck_assert_int_eq(
        orig->potrf_full(ctx, dt, 'L', n, none, ld, none, none, &wse), 0);
    qru_ptr ws;
    ck_assert_int_eq(
        qru_ctx_workspace(ctx, (wse + 2) * qru_dtype_size(dt), &ws), 0);
    qru_ptr info = qru_ptr_add(ws, wse + 1); /* after the op's elements */
    double *A0 = spd(n, 3u);
    for (int fail = 0; fail < 4; ++fail) {
        double *A = malloc(sizeof(double) * (size_t)n * n);
        memcpy(A, A0, sizeof(double) * (size_t)n * n);
        int bad = 40;
        if (fail)
            A[bad + (size_t)bad * n] = fail == 1 ? -2.0 : NAN;
        void *h = to_dt(dt, n, ld, A, 'L');
        qru_matrix *P = qru_test_upload(ctx, dt, ld, n, ld, h, ld);
        qru_ptr p = {qru_matrix_data(P), 0};
        /* fail 3: an indefinite A with info already 7 (kept) */
        double in = fail == 3 ? 7.0 : 0.0;
        ck_assert_int_eq(
            ctx->ops->laset(ctx, dt, 'A', 1, 1, 0.0, in, info, 1), 0);
        ck_assert_int_eq(orig->potrf_full(ctx, dt, 'L', n, p, ld, info, ws,
                                          &wse),
                         0);
        int got = -1;
        ck_assert_int_eq(qru_chol_info_read(ctx, dt, info, &got), 0);
        int want = fail == 3 ? 7 : (fail ? bad + 1 : 0);
        ck_assert_msg(got == want, "fail %d: info %d, want %d", fail, got,
                      want);
        void *F = qru_test_download(P);
        check_sentinels(dt, n, ld, F, 'L');
        free(F);
        free(h);
        free(A);
        qru_matrix_destroy(P);
    }
    free(A0);
}
END_TEST

/* Appending points at the end of a GP (qru_gp_insert with k = n, which
 * computes only the new rows of the factor): a failing append returns the
 * failing column and leaves the factor bit for bit unchanged; a good one
 * gives the factor of the enlarged K (checked against LAPACKE). */
START_TEST(test_gp_append)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_gp_options o;
    qru_gp_options_init(&o);
    o.noise_var = 0.0;
    double x[6] = {0, 100, 200, 100, 300, 200}, y[6] = {1, 2, 3, 4, 5, 6};
    qru_gp *g = NULL;
    ck_assert_int_eq(qru_gp_create(ctx, dt, 3, x, y, &o, &g), 0);
    qru_matrix *L = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 3, 3, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    void *before = qru_test_download(L);
    /* a duplicate of point 1 (no noise): K1 singular at column 4 */
    ck_assert_int_eq(qru_gp_insert(g, 3, 1, x + 3, y + 3), 4);
    /* two points, the second a duplicate of point 2: column 5 */
    ck_assert_int_eq(qru_gp_insert(g, 3, 2, x + 4, y + 4), 5);
    ck_assert_int_eq(qru_gp_size(g), 3);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    void *after = qru_test_download(L);
    ck_assert(memcmp(before, after, 9 * qru_test_elsize(dt)) == 0);
    free(before);
    free(after);
    qru_matrix_destroy(L);
    qru_gp_destroy(g);
    /* good appends (one, then three) on a noisy GP vs LAPACKE */
    o.noise_var = 0.05;
    o.lengthscale = 0.7;
    int n = 40;
    double xs[40], ys[40];
    unsigned seed = 9;
    for (int i = 0; i < n; ++i) {
        xs[i] = 3.0 * qru_test_urand(&seed);
        ys[i] = sin(xs[i]);
    }
    g = NULL;
    ck_assert_int_eq(qru_gp_create(ctx, dt, n - 4, xs, ys, &o, &g), 0);
    ck_assert_int_eq(qru_gp_insert(g, n - 4, 1, xs + n - 4, ys + n - 4), 0);
    ck_assert_int_eq(qru_gp_insert(g, n - 3, 3, xs + n - 3, ys + n - 3), 0);
    ck_assert_int_eq(qru_gp_size(g), n);
    double *K = malloc(sizeof(double) * n * n), *R = NULL;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double d = (xs[i] - xs[j]) / o.lengthscale;
            K[i + j * n] = o.signal_var * exp(-0.5 * d * d) +
                           (i == j ? o.noise_var : 0.0);
        }
    ck_assert_int_eq(ref_chol(n, K, &R), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    void *F = qru_test_download(L);
    double d = 0, r = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double a = qru_test_get(dt, F, n, i, j), b = R[i + j * n];
            d += (a - b) * (a - b);
            r += b * b;
        }
    /* K's condition number is at most about n / noise_var = 800 */
    double err = sqrt(d / r) / (n * qru_test_eps(dt) * 800.0);
    printf("gp append dt %d: scaled error vs LAPACKE %.3g\n", (int)dt, err);
    ck_assert_msg(err <= THR, "gp append: error %g", err);
    free(F);
    free(K);
    free(R);
    qru_matrix_destroy(L);
    qru_gp_destroy(g);
}
END_TEST

/* The failure state of the potrf_panel op (qru_internal.h), called
 * directly: a block failing at column c (pivot -2, NaN or Inf) stores
 * info = base + c + 1, keeps the factor in columns < c (all rows), holds
 * the identity in columns c.. of the triangle, and leaves the other
 * triangle alone; a second call with info set changes nothing.  _i: dtype
 * x uplo; QRU_CHOL_PANEL=kernel|vendor picks the CUDA implementation. */
START_TEST(test_panel_failure_state)
{
    int di = _i / 2;
    char uplo = _i % 2 ? 'U' : 'L';
    if (di >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, di);
    int n = 40, ld = 43, base = 7;
    double *A0 = spd(n, 17u);
    double *R = NULL;
    ck_assert_int_eq(ref_chol(n, A0, &R), 0);
    static const int cols[] = {0, 5, 39};
    static const double bad[] = {-2.0, NAN, INFINITY};
    for (int c = 0; c < 3; ++c)
        for (int b = 0; b < 3; ++b) {
            int j = cols[c];
            double *A = malloc(sizeof(double) * (size_t)n * n);
            memcpy(A, A0, sizeof(double) * (size_t)n * n);
            A[j + (size_t)j * n] = bad[b];
            void *h = to_dt(dt, n, ld, A, uplo);
            qru_matrix *P = qru_test_upload(ctx, dt, ld, n, ld, h, ld);
            qru_matrix *Mi = NULL;
            ck_assert_int_eq(qru_matrix_create(ctx, dt, 1, 1, 0, &Mi), 0);
            double zero = 0.0;
            void *hz = qru_test_alloc(dt, 1, 1, 1);
            qru_test_set(dt, hz, 1, 0, 0, zero);
            ck_assert_int_eq(qru_matrix_upload(Mi, hz, 1), 0);
            qru_ptr pa = {qru_matrix_data(P), 0}, pi = {qru_matrix_data(Mi), 0};
            ck_assert_int_eq(orig->potrf_panel(ctx, dt, uplo, n, pa, ld, pi,
                                               base),
                             0);
            void *F = qru_test_download(P), *Fi = qru_test_download(Mi);
            ck_assert_msg(qru_test_get(dt, Fi, 1, 0, 0) == base + j + 1,
                          "col %d bad %g: info %g", j, bad[b],
                          qru_test_get(dt, Fi, 1, 0, 0));
            check_sentinels(dt, n, ld, F, uplo);
            double eps = qru_test_eps(dt);
            for (int t = 0; t < n; ++t)
                for (int i = t; i < n; ++i) {
                    double x = fget(dt, F, ld, uplo, i, t);
                    if (t < j)
                        ck_assert_msg(fabs(x - R[i + (size_t)t * n]) <=
                                          THR * n * eps * 10,
                                      "col %d: factor (%d,%d) = %g", j, i, t,
                                      x);
                    else
                        ck_assert_msg(x == (i == t ? 1.0 : 0.0),
                                      "col %d bad %g: (%d,%d) = %g, not the "
                                      "identity",
                                      j, bad[b], i, t, x);
                }
            /* info set: nothing is done */
            ck_assert_int_eq(orig->potrf_panel(ctx, dt, uplo, n, pa, ld, pi,
                                               100),
                             0);
            void *G = qru_test_download(P), *Gi = qru_test_download(Mi);
            ck_assert(memcmp(F, G, qru_test_elsize(dt) * (size_t)ld * n) ==
                      0);
            ck_assert(qru_test_get(dt, Gi, 1, 0, 0) == base + j + 1);
            free(G);
            free(Gi);
            free(F);
            free(Fi);
            free(hz);
            free(h);
            free(A);
            qru_matrix_destroy(Mi);
            qru_matrix_destroy(P);
        }
    free(R);
    free(A0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chol_vendor");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_factor_paths, 0, 12);
    tcase_add_loop_test(tc, test_not_pd_paths, 0, 8);
    tcase_add_loop_test(tc, test_potrf_full_op, 0, 2);
    tcase_add_loop_test(tc, test_gp_append, 0, 2);
    tcase_add_loop_test(tc, test_panel_failure_state, 0, 4);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
