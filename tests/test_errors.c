/* The error text (qru_last_error): every failure names its routine; a bad
 * argument names the argument, its value and the rule; numerical,
 * missing-Q, non-finite and backend failures say what happened; the text
 * is per context and per thread, and a later failure replaces it. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

/* The status is want, and the text of ctx (when not NULL) and of the
 * thread both contain every one of the NULL-terminated strings. */
static void expect(const char *what, int st, int want, const qru_context *c,
                   ...)
{
    ck_assert_msg(st == want, "%s: status %d, expected %d", what, st, want);
    const char *t = qru_last_error(NULL);
    ck_assert_ptr_nonnull(t);
    if (c)
        ck_assert_msg(strcmp(qru_last_error(c), t) == 0,
                      "%s: context text '%s' differs from the thread's '%s'",
                      what, qru_last_error(c), t);
    va_list ap;
    va_start(ap, c);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        ck_assert_msg(strstr(t, s) != NULL, "%s: '%s' lacks '%s'", what, t,
                      s);
    va_end(ap);
}

/* A random n x m problem in precision dt, with or without Q. */
static qru_lsq *problem(qru_dtype dt, int n, int m, int keep_q,
                        unsigned *seed)
{
    void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, 1, n);
    qru_test_rand(dt, n, m, A, n, seed);
    qru_test_rand(dt, n, 1, b, n, seed);
    qru_matrix *dA = qru_test_upload(ctx, dt, n, m, 0, A, n);
    qru_matrix *db = qru_test_upload(ctx, dt, n, 1, 0, b, n);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = keep_q ? QRU_Q_FULL : QRU_Q_NONE;
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, dA, db, &opt, &f), 0);
    qru_matrix_destroy(dA);
    qru_matrix_destroy(db);
    free(A);
    free(b);
    return f;
}

START_TEST(test_nothing_failed)
{
    /* a new thread has an empty record */
    ck_assert_ptr_nonnull(qru_last_error(ctx));
    ck_assert_str_eq(qru_last_error(ctx), "");
}
END_TEST

START_TEST(test_update_arguments)
{
    unsigned seed = 77u;
    for (int d = 0; d < qru_test_ndtypes(ctx); ++d) {
        qru_dtype dt = qru_test_dtype(ctx, d);
        qru_lsq *f = problem(dt, 30, 12, 1, &seed);
        /* the example: k + p past n */
        expect("remove_rows k+p", qru_lsq_remove_rows(f, 20, 15), -3, ctx,
               "qru_lsq_remove_rows: argument 3", "p = 15",
               "k + p must be <= n = 30", "k = 20", NULL);
        expect("remove_rows k", qru_lsq_remove_rows(f, 100, 1), -2, ctx,
               "qru_lsq_remove_rows: argument 2", "k = 100", "n = 30", NULL);
        expect("remove_rows tall", qru_lsq_remove_rows(f, 0, 19), -3, ctx,
               "argument 3", "p = 19", "m = 12", NULL);
        expect("remove_cols", qru_lsq_remove_cols(f, 5, 0), -3, ctx,
               "qru_lsq_remove_cols: argument 3", "p = 0", ">= 1", NULL);
        expect("remove_cols k", qru_lsq_remove_cols(f, -1, 1), -2, ctx,
               "qru_lsq_remove_cols: argument 2", "k = -1", "m = 12", NULL);
        expect("add_cols U NULL", qru_lsq_add_cols(f, 3, NULL), -3, ctx,
               "qru_lsq_add_cols: argument 3", "U is NULL", NULL);
        qru_matrix *U = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 29, 2, 0, &U), 0);
        expect("add_cols rows", qru_lsq_add_cols(f, 3, U), -3, ctx,
               "argument 3", "U has 29 rows", "n = 30", NULL);
        qru_matrix_destroy(U);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 30, 19, 0, &U), 0);
        expect("add_cols too many", qru_lsq_add_cols(f, 3, U), -3, ctx,
               "U has 19 columns", "n - m = 18", NULL);
        qru_matrix_destroy(U);
        /* another precision: the element type is named */
        qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
        if (qru_context_supports(ctx, other)) {
            ck_assert_int_eq(qru_matrix_create(ctx, other, 2, 12, 0, &U), 0);
            qru_matrix *e = NULL;
            ck_assert_int_eq(qru_matrix_create(ctx, dt, 2, 1, 0, &e), 0);
            expect("add_rows dtype", qru_lsq_add_rows(f, 0, U, e), -3, ctx,
                   "qru_lsq_add_rows: argument 3", "U holds",
                   dt == QRU_DOUBLE ? "works in double" : "works in float",
                   NULL);
            qru_matrix_destroy(U);
            qru_matrix_destroy(e);
        }
        qru_matrix *x = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 11, 1, 0, &x), 0);
        expect("solve x", qru_lsq_solve(f, x), -2, ctx,
               "qru_lsq_solve: argument 2", "x is 11 x 1", "12 x 1", NULL);
        qru_matrix_destroy(x);
        qru_lsq_destroy(f);
    }
}
END_TEST

START_TEST(test_null_object)
{
    /* no context to copy to: the thread's record has it */
    expect("solve NULL", qru_lsq_solve(NULL, NULL), -1, NULL,
           "qru_lsq_solve: argument 1: f is NULL", NULL);
    expect("matrix_create", qru_matrix_create(NULL, QRU_DOUBLE, 1, 1, 0,
                                              NULL),
           -1, NULL, "qru_matrix_create: argument 1", NULL);
    qru_context *c = NULL;
    expect("context_create", qru_context_create((qru_backend)9, &c), -1,
           NULL, "qru_context_create: argument 1", "backend = 9", NULL);
    ck_assert_ptr_null(c);
    expect("set_option", qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE,
                                                5),
           -3, ctx, "qru_context_set_option: argument 3", "value = 5", NULL);
    expect("set_tuning", qru_context_set_tuning(ctx, QRU_DOUBLE,
                                                QRU_TUNE_QR_NB, 0),
           -4, ctx, "qru_context_set_tuning: argument 4", "value = 0",
           "QRU_TUNE_QR_NB must be in [1, 4096]", NULL);
    expect("trsm side", qru_trsm(ctx, 'x', 'L', 'N', 'N', 1.0, NULL, NULL),
           -2, ctx, "qru_trsm: argument 2", "side = 'x'", "'L' or 'R'",
           NULL);
    expect("chol uplo", qru_chol_factor(ctx, 'Q', NULL, 0, 0), -2, ctx,
           "qru_chol_factor: argument 2", "uplo = 'Q'", NULL);
    expect("gp", qru_gp_create(ctx, QRU_DOUBLE, -3, NULL, NULL, NULL, NULL),
           -3, ctx, "qru_gp_create: argument 3", "n = -3", NULL);
    for (int b = QRU_BACKEND_CPU; b <= QRU_BACKEND_OPENCL; ++b)
        if (!qru_backend_compiled((qru_backend)b)) {
            expect("not compiled", qru_context_create((qru_backend)b, &c),
                   QRU_ERR_BACKEND_UNAVAILABLE, NULL, "qru_context_create",
                   qru_backend_name((qru_backend)b), "not compiled", NULL);
            ck_assert_ptr_null(c);
        }
}
END_TEST

START_TEST(test_numerical_and_state)
{
    unsigned seed = 99u;
    for (int d = 0; d < qru_test_ndtypes(ctx); ++d) {
        qru_dtype dt = qru_test_dtype(ctx, d);
        /* rank deficiency: a zero column */
        int n = 20, m = 6;
        void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, 1, n);
        qru_test_rand(dt, n, m, A, n, &seed);
        qru_test_rand(dt, n, 1, b, n, &seed);
        for (int i = 0; i < n; ++i)
            qru_test_set(dt, A, n, i, 3, 0.0);
        qru_matrix *dA = qru_test_upload(ctx, dt, n, m, 0, A, n);
        qru_matrix *db = qru_test_upload(ctx, dt, n, 1, 0, b, n);
        qru_lsq *f = NULL;
        ck_assert_int_eq(qru_lsq_create(ctx, dA, db, NULL, &f), 0);
        qru_matrix *x = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m, 1, 0, &x), 0);
        expect("rank", qru_lsq_solve(f, x), 4, ctx,
               "qru_lsq_solve: rank deficient at column 4", NULL);
        qru_matrix_destroy(x);
        qru_lsq_destroy(f);
        qru_matrix_destroy(dA);
        qru_matrix_destroy(db);
        free(A);
        free(b);

        /* the factorisation holds no Q */
        f = problem(dt, 15, 5, 0, &seed);
        expect("no Q", qru_lsq_remove_rows(f, 0, 1), QRU_ERR_NO_Q, ctx,
               "qru_lsq_remove_rows", "qru_lsq_remove_rows_data", NULL);
        qru_lsq_destroy(f);

        /* not positive definite: -I */
        int c = 7;
        void *S = qru_test_alloc(dt, c, c, c);
        for (int j = 0; j < c; ++j)
            for (int i = 0; i < c; ++i)
                qru_test_set(dt, S, c, i, j, i == j ? (j == 2 ? -1.0 : 2.0)
                                                    : 0.0);
        qru_matrix *dS = qru_test_upload(ctx, dt, c, c, 0, S, c);
        expect("chol", qru_chol_factor(ctx, 'L', dS, QRU_CHOL_LEFT, 0), 3, ctx,
               "qru_chol_factor: not positive definite at column 3", NULL);
        /* a non-finite input with the scan on */
        qru_test_set(dt, S, c, 1, 0, 0.0 / 0.0);
        ck_assert_int_eq(qru_matrix_upload(dS, S, c), 0);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
        expect("finite", qru_chol_factor(ctx, 'L', dS, QRU_CHOL_LEFT, 0), -3,
               ctx, "qru_chol_factor: argument 3", "non-finite", NULL);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
        qru_matrix_destroy(dS);
        free(S);
    }
}
END_TEST

START_TEST(test_later_failure_replaces)
{
    expect("first", qru_lsq_remove_cols(NULL, 0, 1), -1, NULL,
           "qru_lsq_remove_cols", NULL);
    expect("second", qru_matrix_upload(NULL, NULL, 1), -1, NULL,
           "qru_matrix_upload: argument 1", NULL);
    ck_assert_ptr_null(strstr(qru_last_error(NULL), "remove_cols"));
    /* a context keeps its own last text while the thread moves on */
    expect("ctx", qru_context_sync(NULL), -1, NULL, "qru_context_sync", NULL);
    expect("ctx2", qru_context_get_option(ctx, (qru_context_option)77, NULL),
           -2, ctx, "opt = 77", NULL);
    expect("other", qru_lsq_solve(NULL, NULL), -1, NULL, "qru_lsq_solve",
           NULL);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "opt = 77"));
}
END_TEST

/* Threads with their own contexts fail at the same time with different
 * values; each must always read its own. */
typedef struct {
    int id, bad;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    qru_context *c = NULL;
    if (qru_context_create(QRU_BACKEND_CPU, &c) != 0)
        return NULL;
    qru_matrix *M = NULL;
    char want[64];
    for (int it = 0; it < 2000; ++it) {
        int rows = -(a->id * 10000 + it) - 1;
        snprintf(want, sizeof want, "rows = %d,", rows);
        int st = qru_matrix_create(c, QRU_DOUBLE, rows, 1, 0, &M);
        if (st != -3 || !strstr(qru_last_error(NULL), want) ||
            !strstr(qru_last_error(c), want))
            ++a->bad;
    }
    qru_context_destroy(c);
    return NULL;
}

START_TEST(test_threads)
{
    enum { NT = 4 };
    pthread_t t[NT];
    thread_arg a[NT];
    for (int i = 0; i < NT; ++i) {
        a[i].id = i + 1;
        a[i].bad = 0;
        ck_assert_int_eq(pthread_create(&t[i], NULL, thread_main, &a[i]), 0);
    }
    for (int i = 0; i < NT; ++i) {
        pthread_join(t[i], NULL);
        ck_assert_msg(a[i].bad == 0, "thread %d read %d foreign texts", i,
                      a[i].bad);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("errors");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_nothing_failed);
    tcase_add_test(tc, test_update_arguments);
    tcase_add_test(tc, test_null_object);
    tcase_add_test(tc, test_numerical_and_state);
    tcase_add_test(tc, test_later_failure_replaces);
    tcase_add_test(tc, test_threads);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
