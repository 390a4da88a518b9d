/* qru_lsq_create_from_qr: a factorisation adopted from (Q, R, d) solves the
 * same least-squares problem as one computed by qru_lsq_create, can be
 * updated, and rejects bad arguments without touching anything. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

/* Factorise A with qru_qr_factor (R, Q, d), adopt them, and compare the
 * adopted object's solve/residual with LAPACKE gels on A, b.  R is handed
 * over with garbage below the diagonal to check that triu(R) is taken. */
static void adopt_case(qru_dtype dt, int n, int m, int r, int keep_q,
                       unsigned seed)
{
    char tag[96];
    snprintf(tag, sizeof tag, "%s n=%d m=%d r=%d q=%d",
             dt == QRU_DOUBLE ? "double" : "float", n, m, r, keep_q);
    void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, r, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    qru_test_rand(dt, n, r, b, n, &seed);
    qru_matrix *R = qru_test_upload(ctx, dt, n, m, n + 3, A, n);
    qru_matrix *d = qru_test_upload(ctx, dt, n, r, n, b, n);
    qru_matrix *Q = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q), 0);
    ck_assert_int_eq(qru_qr_factor(ctx, R, Q, d, 0), 0);
    /* put garbage below R's diagonal */
    void *Rh = qru_test_download(R);
    for (int j = 0; j < m; ++j)
        for (int i = j + 1; i < n; ++i)
            qru_test_set(dt, Rh, n, i, j, 1.0 + i + j);
    ck_assert_int_eq(qru_matrix_upload(R, Rh, n), 0);

    qru_lsq *f = NULL;
    ck_assert_int_eq(
        qru_lsq_create_from_qr(ctx, keep_q ? Q : NULL, R, d, NULL, &f), 0);
    ck_assert_int_eq(qru_lsq_rows(f), n);
    ck_assert_int_eq(qru_lsq_cols(f), m);
    ck_assert_int_eq(qru_lsq_nrhs(f), r);
    ck_assert_int_eq(qru_lsq_has_q(f), keep_q);

    qru_matrix *R1;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, m, 0, &R1), 0);
    ck_assert_int_eq(qru_lsq_get_r(f, R1), 0);
    void *R1h = qru_test_download(R1);
    ck_assert_msg(qru_test_lower_max(dt, n, m, R1h, n) == 0.0,
                  "%s: triu(R) not taken", tag);

    qru_matrix *x;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, r, 0, &x), 0);
    ck_assert_int_eq(qru_lsq_solve(f, x), 0);
    double *res = malloc(sizeof(double) * r);
    ck_assert_int_eq(qru_lsq_residual(f, res), 0);
    void *xh = qru_test_download(x);
    double xerr, rerr;
    qru_test_lsq_errors(dt, n, m, r, A, n, b, n, xh, m, res, &xerr, &rerr);
    ck_assert_msg(xerr < QRU_TEST_THRESHOLD && rerr < QRU_TEST_THRESHOLD,
                  "%s: xerr %g rerr %g", tag, xerr, rerr);
    if (keep_q) {
        qru_matrix *Q1;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q1), 0);
        ck_assert_int_eq(qru_lsq_get_q(f, Q1), 0);
        void *Q1h = qru_test_download(Q1);
        double e = qru_test_backward_error(dt, n, m, A, n, Q1h, n, R1h, n);
        ck_assert_msg(e < QRU_TEST_THRESHOLD, "%s: backward %g", tag, e);
        free(Q1h);
        qru_matrix_destroy(Q1);
    }
    free(res);
    free(xh);
    free(R1h);
    free(Rh);
    free(A);
    free(b);
    qru_matrix_destroy(x);
    qru_matrix_destroy(R1);
    qru_matrix_destroy(R);
    qru_matrix_destroy(Q);
    qru_matrix_destroy(d);
    qru_lsq_destroy(f);
}

START_TEST(adopt)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i) {
        qru_dtype dt = qru_test_dtype(ctx, i);
        adopt_case(dt, 40, 17, 1, 1, 11u);
        adopt_case(dt, 40, 17, 2, 0, 12u);
        adopt_case(dt, 9, 9, 1, 1, 13u);
        adopt_case(dt, 5, 1, 1, 0, 14u);
    }
}
END_TEST

START_TEST(bad_args)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i) {
        qru_dtype dt = qru_test_dtype(ctx, i);
        qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
        int n = 8, m = 5;
        qru_matrix *Q, *R, *d, *Qrect, *Rwide, *dshort, *Qo;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, m, 0, &R), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 1, 0, &d), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n - 1, n, 0, &Qrect), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m - 1, m, 0, &Rwide), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n - 1, 1, 0, &dshort), 0);
        int have_other = qru_context_supports(ctx, other);
        if (have_other)
            ck_assert_int_eq(qru_matrix_create(ctx, other, n, n, 0, &Qo), 0);
        qru_lsq_options bad;
        qru_lsq_options_init(&bad);
        bad.row_capacity = n - 1;
        qru_lsq *f = (qru_lsq *)&bad; /* must stay untouched */
        qru_lsq *const sentinel = f;
        ck_assert_int_eq(qru_lsq_create_from_qr(NULL, Q, R, d, NULL, &f), -1);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Qrect, R, d, NULL, &f),
                         -2);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, NULL, d, NULL, &f),
                         -3);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, Rwide, d, NULL, &f),
                         -3);
        if (have_other)
            ck_assert_int_eq(
                qru_lsq_create_from_qr(ctx, Qo, R, d, NULL, &f), -3);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, NULL, NULL, &f),
                         -4);
        ck_assert_int_eq(
            qru_lsq_create_from_qr(ctx, Q, R, dshort, NULL, &f), -4);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, &bad, &f), -5);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, NULL, NULL),
                         -6);
        ck_assert_ptr_eq(f, sentinel);
        if (have_other)
            qru_matrix_destroy(Qo);
        qru_matrix_destroy(Q);
        qru_matrix_destroy(R);
        qru_matrix_destroy(d);
        qru_matrix_destroy(Qrect);
        qru_matrix_destroy(Rwide);
        qru_matrix_destroy(dshort);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_from_qr");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, adopt);
    tcase_add_test(tc, bad_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
