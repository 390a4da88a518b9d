/* Contexts, backend selection and library information. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

static const qru_backend all_backends[] = {QRU_BACKEND_CPU, QRU_BACKEND_CUDA,
                                           QRU_BACKEND_OPENCL};

START_TEST(test_version)
{
    char want[64];
    snprintf(want, sizeof want, "%d.%d.%d", QRU_VERSION_MAJOR,
             QRU_VERSION_MINOR, QRU_VERSION_PATCH);
    ck_assert_ptr_nonnull(qru_version());
    ck_assert_str_eq(qru_version(), want);
}
END_TEST

START_TEST(test_strerror)
{
    static const int codes[] = {QRU_SUCCESS,
                                QRU_ERR_ALLOC,
                                QRU_ERR_BACKEND_UNAVAILABLE,
                                QRU_ERR_DEVICE,
                                QRU_ERR_UNSUPPORTED,
                                QRU_ERR_NO_Q,
                                QRU_ERR_BUILD,
                                QRU_ERR_INTERNAL};
    const int nc = (int)(sizeof codes / sizeof codes[0]);
    /* every library code has its own non-empty message */
    for (int i = 0; i < nc; ++i) {
        const char *a = qru_strerror(codes[i]);
        ck_assert_ptr_nonnull(a);
        ck_assert_int_gt((int)strlen(a), 0);
        ck_assert_msg(strcmp(a, qru_strerror(-999999)) != 0,
                      "code %d has the 'unknown' message", codes[i]);
        for (int j = 0; j < i; ++j)
            ck_assert_msg(strcmp(a, qru_strerror(codes[j])) != 0,
                          "codes %d and %d share a message", codes[i],
                          codes[j]);
    }
    /* -i names argument i, > 0 a numerical failure (copy: the buffer may be
     * reused by the next call) */
    char m3[128], m5[128], m7[128];
    snprintf(m3, sizeof m3, "%s", qru_strerror(-3));
    snprintf(m7, sizeof m7, "%s", qru_strerror(-7));
    snprintf(m5, sizeof m5, "%s", qru_strerror(5));
    ck_assert_ptr_nonnull(strstr(m3, "3"));
    ck_assert_ptr_nonnull(strstr(m3, "argument"));
    ck_assert_ptr_nonnull(strstr(m7, "7"));
    ck_assert_str_ne(m3, m7);
    ck_assert_ptr_nonnull(strstr(m5, "5"));
    ck_assert_str_ne(m5, m3);
    for (int i = 0; i < nc; ++i) {
        ck_assert_str_ne(m3, qru_strerror(codes[i]));
        ck_assert_str_ne(m5, qru_strerror(codes[i]));
    }
    /* unknown codes still give a message */
    ck_assert_ptr_nonnull(qru_strerror(-1500));
    ck_assert_ptr_nonnull(qru_strerror(-2000000000));
}
END_TEST

START_TEST(test_backend_names)
{
    ck_assert_str_eq(qru_backend_name(QRU_BACKEND_AUTO), "auto");
    ck_assert_str_eq(qru_backend_name(QRU_BACKEND_CPU), "cpu");
    ck_assert_str_eq(qru_backend_name(QRU_BACKEND_CUDA), "cuda");
    ck_assert_str_eq(qru_backend_name(QRU_BACKEND_OPENCL), "opencl");
    ck_assert_str_eq(qru_backend_name((qru_backend)42), "unknown");
    ck_assert_int_eq(qru_backend_compiled(QRU_BACKEND_CPU), 1);
    ck_assert_int_eq(qru_backend_compiled((qru_backend)42), 0);
}
END_TEST

/* Each backend either works or, when not compiled in / no device, says
 * QRU_ERR_BACKEND_UNAVAILABLE; a backend that is not compiled in must never
 * yield a context. */
START_TEST(test_create_each_backend)
{
    for (size_t i = 0; i < sizeof all_backends / sizeof all_backends[0]; ++i) {
        qru_backend b = all_backends[i];
        qru_context *ctx = (qru_context *)&ctx; /* must not be used on error */
        qru_context *sentinel = ctx;
        int st = qru_context_create(&ctx, b);
        if (!qru_backend_compiled(b)) {
            ck_assert_int_eq(st, QRU_ERR_BACKEND_UNAVAILABLE);
            ck_assert_ptr_eq(ctx, sentinel);
            continue;
        }
        if (b == QRU_BACKEND_CPU)
            ck_assert_int_eq(st, 0);
        if (st != 0) {
            ck_assert_msg(st == QRU_ERR_BACKEND_UNAVAILABLE,
                          "%s compiled but create gave %d (%s)",
                          qru_backend_name(b), st, qru_strerror(st));
            ck_assert_ptr_eq(ctx, sentinel);
            continue;
        }
        ck_assert_ptr_nonnull(ctx);
        ck_assert_ptr_ne(ctx, sentinel);
        ck_assert_int_eq(qru_context_backend(ctx), b);
        ck_assert_ptr_nonnull(qru_context_device_name(ctx));
        ck_assert_int_gt((int)strlen(qru_context_device_name(ctx)), 0);
        ck_assert_int_eq(qru_context_supports(ctx, QRU_FLOAT), 1);
        if (b == QRU_BACKEND_CPU)
            ck_assert_int_eq(qru_context_supports(ctx, QRU_DOUBLE), 1);
        ck_assert_int_eq(qru_context_supports(ctx, (qru_dtype)0), 0);
        ck_assert_int_eq(qru_context_supports(ctx, (qru_dtype)3), 0);
        ck_assert_int_eq(qru_context_sync(ctx), 0);
        qru_context_destroy(ctx);
    }
}
END_TEST

START_TEST(test_create_ex_options)
{
    qru_context_options opt;
    memset(&opt, 0x5a, sizeof opt);
    qru_context_options_init(&opt);
    ck_assert_int_eq(opt.device, -1);
    ck_assert_int_eq(opt.platform, -1);
    ck_assert_ptr_null(opt.stream);
    ck_assert_ptr_null(opt.blas_handle);
    ck_assert_ptr_null(opt.solver_handle);
    qru_context_options_init(NULL); /* allowed, no effect */

    qru_backend b = qru_test_backend();
    qru_context *ctx = NULL;
    int st = qru_context_create_ex(&ctx, b, &opt);
    if (st == QRU_ERR_BACKEND_UNAVAILABLE && b != QRU_BACKEND_CPU)
        return; /* the program skips before getting here */
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(qru_context_backend(ctx), b);
    qru_context_destroy(ctx);

    ctx = NULL;
    st = qru_context_create_ex(&ctx, QRU_BACKEND_CPU, NULL);
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(qru_context_backend(ctx), QRU_BACKEND_CPU);
    qru_context_destroy(ctx);
}
END_TEST

START_TEST(test_auto)
{
    qru_context *ctx = NULL;
    int st = qru_context_create(&ctx, QRU_BACKEND_AUTO);
    ck_assert_int_eq(st, 0); /* the CPU is always there */
    ck_assert_ptr_nonnull(ctx);
    qru_backend b = qru_context_backend(ctx);
    ck_assert_msg(b == QRU_BACKEND_CPU || b == QRU_BACKEND_CUDA ||
                      b == QRU_BACKEND_OPENCL,
                  "AUTO context reports backend %d", (int)b);
    ck_assert_int_eq(qru_backend_compiled(b), 1);
    /* AUTO prefers CUDA, then OpenCL: a backend earlier in that order must
     * not be creatable when AUTO chose a later one */
    if (b != QRU_BACKEND_CUDA && qru_backend_compiled(QRU_BACKEND_CUDA)) {
        qru_context *c2 = NULL;
        ck_assert_int_ne(qru_context_create(&c2, QRU_BACKEND_CUDA), 0);
    }
    if (b == QRU_BACKEND_CPU && qru_backend_compiled(QRU_BACKEND_OPENCL)) {
        qru_context *c2 = NULL;
        ck_assert_int_ne(qru_context_create(&c2, QRU_BACKEND_OPENCL), 0);
    }
    qru_context_destroy(ctx);
}
END_TEST

START_TEST(test_bad_args)
{
    qru_context *ctx = NULL;
    ck_assert_int_eq(qru_context_create(NULL, QRU_BACKEND_CPU), -1);
    ck_assert_int_eq(qru_context_create(NULL, (qru_backend)99), -1);
    ck_assert_int_eq(qru_context_create(&ctx, (qru_backend)99), -2);
    ck_assert_int_eq(qru_context_create(&ctx, (qru_backend)-1), -2);
    ck_assert_int_eq(qru_context_create(&ctx, (qru_backend)4), -2);
    ck_assert_ptr_null(ctx);
    ck_assert_int_eq(qru_context_create_ex(NULL, QRU_BACKEND_CPU, NULL), -1);
    ck_assert_int_eq(qru_context_create_ex(&ctx, (qru_backend)7, NULL), -2);
    ck_assert_ptr_null(ctx);
    ck_assert_int_eq(qru_context_sync(NULL), -1);
    qru_context_destroy(NULL); /* allowed */
    ck_assert_int_eq(qru_context_supports(NULL, QRU_FLOAT), 0);
    ck_assert_ptr_nonnull(qru_context_device_name(NULL));
}
END_TEST

/* Several contexts at once are independent. */
START_TEST(test_two_contexts)
{
    qru_context *a = qru_test_context(), *b = qru_test_context();
    ck_assert_ptr_ne(a, b);
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create(a, QRU_FLOAT, 3, 3, 0, &M), 0);
    qru_context_destroy(b);
    float h[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, g[9] = {0};
    ck_assert_int_eq(qru_matrix_upload(M, h, 3), 0);
    ck_assert_int_eq(qru_matrix_download(M, g, 3), 0);
    ck_assert_int_eq(memcmp(h, g, sizeof h), 0);
    qru_matrix_free(M);
    qru_context_destroy(a);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("context");
    TCase *tc = tcase_create("context");
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_strerror);
    tcase_add_test(tc, test_backend_names);
    tcase_add_test(tc, test_create_each_backend);
    tcase_add_test(tc, test_create_ex_options);
    tcase_add_test(tc, test_auto);
    tcase_add_test(tc, test_bad_args);
    tcase_add_test(tc, test_two_contexts);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
