/*
 * The op table of a context (src/ops.c, src/ref_ops.c): the context
 * statistics count exactly what is queued, QRU_OPTION_REFERENCE_OPS runs
 * the reference ops (other op counts, the same results within the scaled
 * threshold), the public statistics API checks its arguments, and the
 * tuning block takes the environment at creation and the setter after.
 */
#include <check.h>
#include <stdlib.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

START_TEST(test_stats_api)
{
    qru_context_stats st;
    ck_assert_int_eq(qru_context_get_stats(NULL, &st), -1);
    ck_assert_int_eq(qru_context_get_stats(ctx, NULL), -2);
    ck_assert_int_eq(qru_context_reset_stats(NULL), -1);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st), 0);
    ck_assert(st.calls == 0 && st.host_waits == 0 && st.bytes_h2d == 0 &&
              st.bytes_d2h == 0);
    for (int i = 0; i < QRU_OP_COUNT; ++i)
        ck_assert(qru_ctx_op_calls(ctx, (qru_op_id)i) == 0);
    ck_assert_str_eq(qru_op_name(QRU_OP_gemm), "gemm");
    ck_assert_str_eq(qru_op_name(QRU_OP_COUNT), "?");
}
END_TEST

/* One upload, one copy and one download of a random m x n matrix: three
 * calls, the bytes of each transfer, one host wait (the download). */
START_TEST(test_stats_count)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int m = 7 + _i, n = 5;
    unsigned seed = 11u + (unsigned)_i;
    void *h = qru_test_alloc(dt, m, n, m);
    qru_test_rand(dt, m, n, h, m, &seed);
    qru_matrix *A, *B;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, n, 0, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, n, 0, &B), 0);
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(qru_matrix_upload(A, h, m), 0);
    ck_assert_int_eq(qru_matrix_copy(A, B), 0);
    void *g = qru_test_alloc(dt, m, n, m);
    ck_assert_int_eq(qru_matrix_download(B, g, m), 0);
    qru_context_stats st;
    ck_assert_int_eq(qru_context_get_stats(ctx, &st), 0);
    long long bytes = (long long)m * n * (long long)qru_test_elsize(dt);
    ck_assert_int_eq(st.calls, 3);
    ck_assert_int_eq(st.bytes_h2d, bytes);
    ck_assert_int_eq(st.bytes_d2h, bytes);
    ck_assert_int_eq(st.host_waits, 1);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_upload), 1);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_copy), 1);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_download), 1);
    ck_assert(qru_test_diff(dt, m, n, h, m, g, m) == 0.0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st), 0);
    ck_assert(st.calls == 0 && st.bytes_h2d == 0);
    qru_matrix_destroy(A);
    qru_matrix_destroy(B);
    free(h);
    free(g);
}
END_TEST

/* gemm_batched and geadd_batched of several pages: one call each in the
 * statistics, no gemm or geadd counted. */
START_TEST(test_stats_batched)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int m = 6, n = 4, k = 3, count = 9;
    unsigned seed = 5u;
    qru_matrix *A, *B, *C;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, k * count, 0, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, k, n * count, 0, &B), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, n * count, 0, &C), 0);
    qru_matrix *all[] = {A, B, C};
    for (int q = 0; q < 3; ++q) {
        qru_matrix *M = all[q];
        void *h = qru_test_alloc(dt, M->rows, M->cols, M->rows);
        qru_test_rand(dt, M->rows, M->cols, h, M->rows, &seed);
        ck_assert_int_eq(qru_matrix_upload(M, h, M->rows), 0);
        free(h);
    }
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(ctx->ops->gemm_batched(ctx, dt, 'N', 'N', m, n, k, 1.0,
                                            A->p, m, (size_t)m * k, B->p, k,
                                            (size_t)k * n, 0.0, C->p, m,
                                            (size_t)m * n, count),
                     0);
    ck_assert_int_eq(ctx->ops->geadd_batched(ctx, dt, m, n, 1.0, C->p, m,
                                             (size_t)m * n, 1.0, C->p, m,
                                             (size_t)m * n, count),
                     0);
    qru_context_stats st;
    ck_assert_int_eq(qru_context_get_stats(ctx, &st), 0);
    ck_assert_int_eq(st.calls, 2);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_gemm_batched), 1);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_geadd_batched), 1);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_gemm), 0);
    ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_geadd), 0);
    ck_assert_str_eq(qru_op_name(QRU_OP_gemm_batched), "gemm_batched");
    for (int q = 0; q < 3; ++q)
        qru_matrix_destroy(all[q]);
}
END_TEST

/* QR of a random n x m matrix with the backend's ops and with the
 * reference ops: the panels run as panel_qr calls or as house / larf /
 * wy_append calls, and both factorisations pass the backward-error and
 * orthogonality checks and agree with each other. */
START_TEST(test_reference_ops)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 70 + 3 * _i, m = 45 + _i, nb = 16;
    unsigned seed = 101u + (unsigned)_i;
    void *A = qru_test_alloc(dt, n, m, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    void *R[2], *Q[2];
    long long panels[2], houses[2];
    int v = -1;
    ck_assert_int_eq(qru_context_get_option(ctx, QRU_OPTION_REFERENCE_OPS,
                                            &v),
                     0);
    ck_assert_int_eq(v, 0);
    for (int ref = 0; ref < 2; ++ref) {
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_REFERENCE_OPS, ref), 0);
        ck_assert_int_eq(qru_context_get_option(ctx,
                                                QRU_OPTION_REFERENCE_OPS, &v),
                         0);
        ck_assert_int_eq(v, ref);
        qru_matrix *dA = qru_test_upload(ctx, dt, n, m, 0, A, n), *dQ;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &dQ), 0);
        ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
        ck_assert_int_eq(qru_qr_factor(ctx, nb, dA, dQ, NULL), 0);
        panels[ref] = qru_ctx_op_calls(ctx, QRU_OP_panel_qr);
        houses[ref] = qru_ctx_op_calls(ctx, QRU_OP_house);
        R[ref] = qru_test_download(dA);
        Q[ref] = qru_test_download(dQ);
        ck_assert_double_le(
            qru_test_backward_error(dt, n, m, A, n, Q[ref], n, R[ref], n),
            QRU_TEST_THRESHOLD);
        ck_assert_double_le(qru_test_orth_error(dt, n, Q[ref], n),
                            QRU_TEST_THRESHOLD);
        qru_matrix_destroy(dA);
        qru_matrix_destroy(dQ);
    }
    /* backend panels: one panel_qr per block, no per-column op; reference
     * panels: m house calls, no panel_qr counted */
    ck_assert_int_eq(panels[0], (m + nb - 1) / nb);
    ck_assert_int_eq(houses[0], 0);
    ck_assert_int_eq(panels[1], 0);
    ck_assert_int_eq(houses[1], m);
    /* the same factorisation up to rounding */
    double d = qru_test_diff(dt, n, m, R[0], n, R[1], n);
    ck_assert_msg(d <= QRU_TEST_THRESHOLD, "R differs by %g", d);
    for (int i = 0; i < 2; ++i) {
        free(R[i]);
        free(Q[i]);
    }
    free(A);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_REFERENCE_OPS, 0),
                     0);
}
END_TEST

/* The tuning block: argument checks of the setter and getter. */
START_TEST(test_tuning_api)
{
    int v = -7;
    ck_assert_int_eq(qru_context_set_tuning(NULL, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            8),
                     -1);
    ck_assert_int_eq(qru_context_set_tuning(ctx, (qru_dtype)0, QRU_TUNE_QR_NB,
                                            8),
                     -2);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            (qru_tuning_param)0, 8),
                     -3);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            (qru_tuning_param)99, 8),
                     -3);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            0),
                     -4);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_QR_VENDOR, 3),
                     -4);
    /* QRU_TUNE_UPDATE_TILES: 0 auto, 1 off, 2 on; 3 and -1 rejected,
     * the value unchanged; the id past the last parameter rejected */
    int ut0 = -1, ut = -1;
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, &ut0),
                     0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, 3),
                     -4);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, -1),
                     -4);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, &ut),
                     0);
    ck_assert_int_eq(ut, ut0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, 2),
                     0);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, &ut),
                     0);
    ck_assert_int_eq(ut, 2);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE,
                                            QRU_TUNE_UPDATE_TILES, ut0),
                     0);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, QRU_DOUBLE,
                               (qru_tuning_param)(QRU_TUNE_BATCH_THREADS + 1),
                               0),
        -3);
    /* a private knob (qru_tuning.h) is no qru_tuning_param: the public
     * setter and getter refuse it, the internal ones take it and every
     * public one */
    int pk0 = -1, pk = -1;
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, QRU_DOUBLE,
                               (qru_tuning_param)QRU_TUNE_PANEL_KERNEL, 0),
        -3);
    ck_assert_int_eq(
        qru_context_get_tuning(ctx, QRU_DOUBLE,
                               (qru_tuning_param)QRU_TUNE_PANEL_KERNEL, &pk),
        -3);
    ck_assert_int_eq(pk, -1);
    ck_assert_int_eq(qru_ctx_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB, &pk),
                     0);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB, pk),
                     0);
    ck_assert_int_eq(qru_ctx_set_tuning(NULL, QRU_DOUBLE, QRU_TUNE_QR_NB, 8),
                     -1);
    ck_assert_int_eq(qru_ctx_get_tuning(ctx, QRU_DOUBLE, 99, &pk), -3);
    /* the last panel kernel setting ("reg") and one past it */
    ck_assert_int_eq(qru_ctx_get_tuning(ctx, QRU_DOUBLE,
                                        QRU_TUNE_PANEL_KERNEL, &pk0),
                     0);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, QRU_DOUBLE,
                                        QRU_TUNE_PANEL_KERNEL,
                                        QRU_PANEL_KERNEL_COUNT),
                     -4);
    ck_assert_int_eq(qru_ctx_get_tuning(ctx, QRU_DOUBLE,
                                        QRU_TUNE_PANEL_KERNEL, &pk),
                     0);
    ck_assert_int_eq(pk, pk0);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, QRU_DOUBLE,
                                        QRU_TUNE_PANEL_KERNEL,
                                        QRU_PANEL_KERNEL_REG),
                     0);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, QRU_DOUBLE,
                                        QRU_TUNE_PANEL_KERNEL, pk0),
                     0);
    ck_assert_int_eq(qru_context_get_tuning(NULL, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &v),
                     -1);
    ck_assert_int_eq(qru_context_get_tuning(ctx, (qru_dtype)5, QRU_TUNE_QR_NB,
                                            &v),
                     -2);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE,
                                            (qru_tuning_param)99, &v),
                     -3);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            NULL),
                     -4);
    ck_assert_int_eq(v, -7); /* not written on failure */
    /* a rejected value leaves the parameter as it was */
    int nb0 = -1, nb1 = -1;
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &nb0),
                     0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            5000),
                     -4);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &nb1),
                     0);
    ck_assert_int_eq(nb1, nb0);
    /* one value per element type */
    int f0, d0;
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_FLOAT, QRU_TUNE_QR_NB,
                                            &f0),
                     0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            f0 + 5),
                     0);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &d0),
                     0);
    ck_assert_int_eq(d0, f0 + 5);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_FLOAT, QRU_TUNE_QR_NB,
                                            &v),
                     0);
    ck_assert_int_eq(v, f0);
}
END_TEST

/* The environment is read once, at context creation: a value that parses
 * is taken, one that does not leaves the default, and a change of the
 * environment after creation changes nothing. */
START_TEST(test_tuning_env)
{
    int def = -1, v = -1;
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &def),
                     0);
    setenv("QRU_QR_NB", "9", 1);
    setenv("QRU_GEQRF", "own", 1);
    setenv("QRU_SWEEPS_MAX_WORK", "12x", 1);
    setenv("QRU_PANEL_KERNEL", "reg", 1);
    setenv("QRU_SWEEPS_ACC_NB", "40", 1);
    qru_context *c = NULL;
    ck_assert_int_eq(qru_context_create(qru_test_backend(), &c), 0);
    unsetenv("QRU_QR_NB");
    unsetenv("QRU_GEQRF");
    unsetenv("QRU_SWEEPS_MAX_WORK");
    unsetenv("QRU_PANEL_KERNEL");
    unsetenv("QRU_SWEEPS_ACC_NB");
    for (int d = 0; d < 2; ++d) {
        qru_dtype dt = d ? QRU_DOUBLE : QRU_FLOAT;
        ck_assert_int_eq(qru_context_get_tuning(c, dt, QRU_TUNE_QR_NB, &v), 0);
        ck_assert_int_eq(v, 9);
        ck_assert_int_eq(qru_context_get_tuning(c, dt, QRU_TUNE_QR_VENDOR, &v),
                         0);
        ck_assert_int_eq(v, 1);
        int w0 = -1;
        ck_assert_int_eq(qru_context_get_tuning(ctx, dt,
                                                QRU_TUNE_SWEEPS_MAX_WORK, &w0),
                         0);
        ck_assert_int_eq(qru_context_get_tuning(c, dt,
                                                QRU_TUNE_SWEEPS_MAX_WORK, &v),
                         0);
        ck_assert_int_eq(v, w0); /* "12x" does not parse */
        ck_assert_int_eq(qru_ctx_get_tuning(c, dt, QRU_TUNE_PANEL_KERNEL, &v),
                         0);
        /* the name of the last value */
        ck_assert_int_eq(v, QRU_PANEL_KERNEL_REG);
        /* a private threshold from the environment; the sweeps'
         * thresholds at their defaults (set in both blocks of every
         * backend) */
        ck_assert_int_eq(qru_ctx_get_tuning(c, dt, QRU_TUNE_SWEEPS_ACC_NB, &v),
                         0);
        ck_assert_int_eq(v, 40);
        ck_assert_int_eq(
            qru_ctx_get_tuning(ctx, dt, QRU_TUNE_SWEEPS_ACC_NB, &v), 0);
        ck_assert_int_eq(v, 48);
        ck_assert_int_eq(
            qru_ctx_get_tuning(ctx, dt, QRU_TUNE_SWEEPS_ACC_MIN_P, &v), 0);
        ck_assert_int_eq(v, 16);
    }
    qru_context_destroy(c);
    ck_assert_int_eq(qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_QR_NB,
                                            &v),
                     0);
    ck_assert_int_eq(v, def);
}
END_TEST

/* A tuning value changes the path: the block size of a QR factorisation
 * with nb = 0 is the context's QRU_TUNE_QR_NB (one panel_qr per block). */
START_TEST(test_tuning_path)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 60, m = 37;
    unsigned seed = 7u + (unsigned)_i;
    void *A = qru_test_alloc(dt, n, m, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_QR_VENDOR, 1),
                     0);
    static const int nbs[] = {8, 13};
    for (int i = 0; i < 2; ++i) {
        ck_assert_int_eq(
            qru_context_set_tuning(ctx, dt, QRU_TUNE_QR_NB, nbs[i]), 0);
        qru_matrix *dA = qru_test_upload(ctx, dt, n, m, 0, A, n), *dQ;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &dQ), 0);
        ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
        ck_assert_int_eq(qru_qr_factor(ctx, 0, dA, dQ, NULL), 0);
        ck_assert_int_eq(qru_ctx_op_calls(ctx, QRU_OP_panel_qr),
                         (m + nbs[i] - 1) / nbs[i]);
        void *R = qru_test_download(dA), *Q = qru_test_download(dQ);
        ck_assert_double_le(qru_test_backward_error(dt, n, m, A, n, Q, n, R, n),
                            QRU_TEST_THRESHOLD);
        free(R);
        free(Q);
        qru_matrix_destroy(dA);
        qru_matrix_destroy(dQ);
    }
    free(A);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ops_table");
    TCase *tc = tcase_create("ops_table");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_stats_api);
    tcase_add_loop_test(tc, test_stats_count, 0, 4);
    tcase_add_test(tc, test_stats_batched);
    tcase_add_loop_test(tc, test_reference_ops, 0, 4);
    tcase_add_test(tc, test_tuning_api);
    tcase_add_test(tc, test_tuning_env);
    tcase_add_loop_test(tc, test_tuning_path, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
