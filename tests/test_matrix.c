/* Matrices: create / wrap / upload / download / copy, leading dimensions,
 * argument checks. */
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

/* fills padding rows with a recognisable value so that a copy that writes
 * past rows is caught */
static void fill_pad(qru_dtype dt, int rows, int cols, void *A, int ld,
                     double v)
{
    for (int j = 0; j < cols; ++j)
        for (int i = rows; i < ld; ++i)
            qru_test_set(dt, A, ld, i, j, v);
}

static const int shapes[][3] = {
    /* rows, cols, ld (0 = default) */
    {1, 1, 0}, {5, 3, 0}, {5, 3, 9}, {3, 5, 4}, {1, 7, 3},
    {17, 1, 0}, {33, 17, 40}, {64, 64, 64}, {0, 4, 0}, {4, 0, 0},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(test_roundtrip)
{
    unsigned seed = 1234u + (unsigned)_i;
    for (int d = 0; d < qru_test_ndtypes(ctx); ++d) {
        qru_dtype dt = qru_test_dtype(ctx, d);
        size_t es = qru_test_elsize(dt);
        for (int s = 0; s < NSHAPES; ++s) {
            int rows = shapes[s][0], cols = shapes[s][1], ld = shapes[s][2];
            int eld = ld ? ld : (rows > 1 ? rows : 1);
            qru_matrix *M = NULL;
            ck_assert_int_eq(qru_matrix_create(ctx, dt, rows, cols, ld, &M), 0);
            ck_assert_ptr_nonnull(M);
            ck_assert_int_eq(qru_matrix_rows(M), rows);
            ck_assert_int_eq(qru_matrix_cols(M), cols);
            ck_assert_int_eq(qru_matrix_ld(M), eld);
            ck_assert_int_eq(qru_matrix_dtype(M), dt);

            /* upload from a host array with its own padding */
            int ldh = rows + 3;
            void *h = qru_test_alloc(dt, rows, cols, ldh);
            qru_test_rand(dt, rows, cols, h, ldh, &seed);
            fill_pad(dt, rows, cols, h, ldh, 1e30);
            ck_assert_int_eq(qru_matrix_upload(M, h, ldh), 0);

            /* download into a padded array: padding must survive */
            int ldg = rows + 2;
            void *g = qru_test_alloc(dt, rows, cols, ldg);
            fill_pad(dt, rows, cols, g, ldg, -7.0);
            ck_assert_int_eq(qru_matrix_download(M, g, ldg), 0);
            for (int j = 0; j < cols; ++j) {
                ck_assert_int_eq(
                    memcmp((char *)h + es * (size_t)j * ldh,
                           (char *)g + es * (size_t)j * ldg, es * rows),
                    0);
                for (int i = rows; i < ldg; ++i)
                    ck_assert(qru_test_get(dt, g, ldg, i, j) == -7.0);
            }

            /* copy into a matrix with a different ld */
            qru_matrix *C = NULL;
            ck_assert_int_eq(
                qru_matrix_create(ctx, dt, rows, cols, eld + 5, &C), 0);
            ck_assert_int_eq(qru_matrix_copy(M, C), 0);
            void *c = qru_test_download(C);
            int ldc = rows > 1 ? rows : 1;
            for (int j = 0; j < cols; ++j)
                ck_assert_int_eq(
                    memcmp((char *)h + es * (size_t)j * ldh,
                           (char *)c + es * (size_t)j * ldc, es * rows),
                    0);
            ck_assert_int_eq(qru_matrix_copy(M, M), 0); /* B = A is fine */
            free(c);
            free(g);
            free(h);
            qru_matrix_destroy(C);
            qru_matrix_destroy(M);
        }
    }
}
END_TEST

START_TEST(test_wrap_cpu)
{
    if (qru_context_backend(ctx) != QRU_BACKEND_CPU)
        return; /* wrapping needs a device buffer there (backend tests) */
    unsigned seed = 99;
    for (int d = 0; d < 2; ++d) {
        qru_dtype dt = d ? QRU_DOUBLE : QRU_FLOAT;
        int rows = 6, cols = 4, ld = 8;
        void *buf = qru_test_alloc(dt, rows, cols, ld);
        fill_pad(dt, rows, cols, buf, ld, 3.5);
        qru_matrix *M = NULL;
        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, rows, cols, buf, ld, &M), 0);
        ck_assert_ptr_eq(qru_matrix_data(M), buf);
        ck_assert_int_eq(qru_matrix_ld(M), ld);
        void *h = qru_test_alloc(dt, rows, cols, rows);
        qru_test_rand(dt, rows, cols, h, rows, &seed);
        ck_assert_int_eq(qru_matrix_upload(M, h, rows), 0);
        ck_assert_int_eq(qru_context_sync(ctx), 0);
        for (int j = 0; j < cols; ++j) {
            for (int i = 0; i < rows; ++i)
                ck_assert(qru_test_get(dt, buf, ld, i, j) ==
                          qru_test_get(dt, h, rows, i, j));
            for (int i = rows; i < ld; ++i)
                ck_assert(qru_test_get(dt, buf, ld, i, j) == 3.5);
        }
        qru_matrix_destroy(M); /* must not free buf */
        qru_test_set(dt, buf, ld, 0, 0, 1.0);
        /* default ld for wrap is max(1, rows) */
        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, rows, cols, buf, 0, &M), 0);
        ck_assert_int_eq(qru_matrix_ld(M), rows);
        qru_matrix_destroy(M);
        free(h);
        free(buf);
    }
}
END_TEST

START_TEST(test_wrap_device_buffer)
{
    /* wrap the memory of an existing matrix (any backend): same data */
    qru_dtype dt = QRU_FLOAT;
    unsigned seed = 7;
    float h[4 * 3];
    qru_test_rand(dt, 4, 3, h, 4, &seed);
    qru_matrix *M = qru_test_upload(ctx, dt, 4, 3, 4, h, 4);
    qru_matrix *W = NULL;
    ck_assert_int_eq(
        qru_matrix_wrap(ctx, dt, 4, 3, qru_matrix_data(M), 4, &W), 0);
    float g[12];
    ck_assert_int_eq(qru_matrix_download(W, g, 4), 0);
    ck_assert_int_eq(memcmp(h, g, sizeof h), 0);
    qru_matrix_destroy(W);
    /* M's buffer is still alive */
    ck_assert_int_eq(qru_matrix_download(M, g, 4), 0);
    ck_assert_int_eq(memcmp(h, g, sizeof h), 0);
    qru_matrix_destroy(M);
}
END_TEST

START_TEST(test_ld_rules)
{
    qru_matrix *M = NULL;
    /* ld = 0 means max(1, rows) */
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 0, 0, 0, &M), 0);
    ck_assert_int_eq(qru_matrix_ld(M), 1);
    ck_assert_int_eq(qru_matrix_rows(M), 0);
    ck_assert_int_eq(qru_matrix_cols(M), 0);
    /* 0 x 0 transfers and copies are no-ops that succeed */
    double x = 42.0;
    ck_assert_int_eq(qru_matrix_upload(M, &x, 1), 0);
    ck_assert_int_eq(qru_matrix_download(M, &x, 1), 0);
    ck_assert(x == 42.0);
    qru_matrix *M2 = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 0, 0, 0, &M2), 0);
    ck_assert_int_eq(qru_matrix_copy(M, M2), 0);
    qru_matrix_destroy(M2);
    qru_matrix_destroy(M);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 7, 2, 0, &M), 0);
    ck_assert_int_eq(qru_matrix_ld(M), 7);
    qru_matrix_destroy(M);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 7, 2, 7, &M), 0);
    qru_matrix_destroy(M);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 0, 3, 5, &M), 0);
    ck_assert_int_eq(qru_matrix_ld(M), 5);
    qru_matrix_destroy(M);
    /* ld < rows, negative ld */
    M = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 7, 2, 6, &M), -5);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 7, 2, -1, &M), -5);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 0, 2, -1, &M), -5);
    ck_assert_ptr_null(M);
    /* accessors of NULL */
    ck_assert_int_eq(qru_matrix_rows(NULL), -1);
    ck_assert_int_eq(qru_matrix_cols(NULL), -1);
    ck_assert_int_eq(qru_matrix_ld(NULL), -1);
    ck_assert_ptr_null(qru_matrix_data(NULL));
    qru_matrix_destroy(NULL);
}
END_TEST

START_TEST(test_bad_args)
{
    qru_matrix *M = NULL;
    const qru_matrix *sentinel = NULL;
    /* create: ctx (1), dtype (2), rows (3), cols (4), ld (5), M (6) */
    ck_assert_int_eq(qru_matrix_create(NULL, QRU_FLOAT, 2, 2, 0, &M), -1);
    ck_assert_int_eq(qru_matrix_create(NULL, (qru_dtype)0, -1, -1, -1, NULL),
                     -1);
    ck_assert_int_eq(qru_matrix_create(ctx, (qru_dtype)0, 2, 2, 0, &M), -2);
    ck_assert_int_eq(qru_matrix_create(ctx, (qru_dtype)5, 2, 2, 0, &M), -2);
    ck_assert_int_eq(qru_matrix_create(ctx, (qru_dtype)5, -1, -1, -1, NULL),
                     -2);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, -1, 2, 0, &M), -3);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, -1, -1, -1, NULL), -3);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 2, -1, 0, &M), -4);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 2, -1, -1, NULL), -4);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 3, 2, 2, &M), -5);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 3, 2, 2, NULL), -5);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 3, 2, 0, NULL), -6);
    ck_assert_ptr_eq(M, sentinel);

    /* wrap: ctx (1), dtype (2), rows (3), cols (4), mem (5), ld (6), M (7) */
    float buf[16];
    ck_assert_int_eq(qru_matrix_wrap(NULL, QRU_FLOAT, 2, 2, buf, 0, &M), -1);
    ck_assert_int_eq(qru_matrix_wrap(ctx, (qru_dtype)9, 2, 2, buf, 0, &M),
                     -2);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, -2, 2, buf, 0, &M), -3);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 2, -2, buf, 0, &M), -4);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 2, 2, NULL, 0, &M), -5);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 2, 2, NULL, 1, NULL),
                     -5);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 4, 2, buf, 3, &M), -6);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 4, 2, buf, -3, NULL),
                     -6);
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 4, 2, buf, 4, NULL), -7);
    ck_assert_ptr_eq(M, sentinel);

    /* upload / download: M (1), host (2), ldh (3) */
    double h[12], g[12];
    for (int i = 0; i < 12; ++i)
        h[i] = i + 1;
    M = qru_test_upload(ctx, QRU_DOUBLE, 3, 4, 5, h, 3);
    memcpy(g, h, sizeof g);
    ck_assert_int_eq(qru_matrix_upload(NULL, h, 3), -1);
    ck_assert_int_eq(qru_matrix_upload(NULL, NULL, 0), -1);
    ck_assert_int_eq(qru_matrix_upload(M, NULL, 3), -2);
    ck_assert_int_eq(qru_matrix_upload(M, NULL, 0), -2);
    ck_assert_int_eq(qru_matrix_upload(M, g, 2), -3);
    ck_assert_int_eq(qru_matrix_upload(M, g, 0), -3);
    ck_assert_int_eq(qru_matrix_upload(M, g, -3), -3);
    ck_assert_int_eq(qru_matrix_download(NULL, g, 3), -1);
    ck_assert_int_eq(qru_matrix_download(M, NULL, 3), -2);
    double z[12];
    for (int i = 0; i < 12; ++i)
        z[i] = -1.0;
    ck_assert_int_eq(qru_matrix_download(M, z, 2), -3);
    ck_assert_int_eq(qru_matrix_download(M, z, -1), -3);
    for (int i = 0; i < 12; ++i)
        ck_assert(z[i] == -1.0); /* untouched */
    /* M still holds h: the failed uploads did nothing */
    double *back = qru_test_download(M);
    ck_assert_int_eq(memcmp(back, h, sizeof h), 0);
    free(back);

    /* copy: A (1), B (2): NULL, size, dtype, other context */
    qru_matrix *B = NULL, *Bf = NULL, *Bo = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 3, 3, 0, &B), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 3, 4, 0, &Bf), 0);
    qru_context *other = qru_test_context();
    ck_assert_int_eq(qru_matrix_create(other, QRU_DOUBLE, 3, 4, 0, &Bo), 0);
    qru_matrix *B43 = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 4, 3, 0, &B43), 0);
    ck_assert_int_eq(qru_matrix_copy(NULL, B), -1);
    ck_assert_int_eq(qru_matrix_copy(NULL, NULL), -1);
    ck_assert_int_eq(qru_matrix_copy(M, NULL), -2);
    ck_assert_int_eq(qru_matrix_copy(M, B), -2);   /* 3 x 3 vs 3 x 4 */
    ck_assert_int_eq(qru_matrix_copy(M, B43), -2); /* 4 x 3 */
    ck_assert_int_eq(qru_matrix_copy(M, Bf), -2);  /* dtype */
    ck_assert_int_eq(qru_matrix_copy(M, Bo), -2);  /* context */
    qru_matrix_destroy(B43);
    qru_matrix_destroy(Bo);
    qru_context_destroy(other);
    qru_matrix_destroy(Bf);
    qru_matrix_destroy(B);
    qru_matrix_destroy(M);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("matrix");
    TCase *tc = tcase_create("matrix");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_roundtrip, 0, 2);
    tcase_add_test(tc, test_wrap_cpu);
    tcase_add_test(tc, test_wrap_device_buffer);
    tcase_add_test(tc, test_ld_rules);
    tcase_add_test(tc, test_bad_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
