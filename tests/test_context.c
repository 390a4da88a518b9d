/* Contexts, backend selection and library information. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

#ifdef QRU_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusolverDn.h>
#endif

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
        int st = qru_context_create(b, &ctx);
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
        /* the device's kind: the CPU backend's a CPU, CUDA's a GPU */
        qru_device_type t = qru_context_device_type(ctx);
        ck_assert_msg(t == QRU_DEVICE_CPU || t == QRU_DEVICE_GPU ||
                          t == QRU_DEVICE_ACCELERATOR,
                      "%s: device type %d", qru_backend_name(b), (int)t);
        if (b == QRU_BACKEND_CPU)
            ck_assert_int_eq(t, QRU_DEVICE_CPU);
        if (b == QRU_BACKEND_CUDA)
            ck_assert_int_eq(t, QRU_DEVICE_GPU);
        ck_assert_int_eq(qru_context_supports(ctx, (qru_dtype)0), 0);
        /* complex data: every backend, complex double where the device
         * computes in double */
        ck_assert_int_eq(qru_context_supports(ctx, QRU_COMPLEX_FLOAT), 1);
        ck_assert_int_eq(qru_context_supports(ctx, QRU_COMPLEX_DOUBLE),
                         qru_context_supports(ctx, QRU_DOUBLE));
        ck_assert_int_eq(qru_context_supports(ctx, (qru_dtype)5), 0);
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
    int st = qru_context_create_ex(b, &opt, &ctx);
    if (st == QRU_ERR_BACKEND_UNAVAILABLE && b != QRU_BACKEND_CPU)
        return; /* the program skips before getting here */
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(qru_context_backend(ctx), b);
    qru_context_destroy(ctx);

    ctx = NULL;
    st = qru_context_create_ex(QRU_BACKEND_CPU, NULL, &ctx);
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(qru_context_backend(ctx), QRU_BACKEND_CPU);
    qru_context_destroy(ctx);
}
END_TEST

START_TEST(test_auto)
{
    qru_context *ctx = NULL;
    int st = qru_context_create(QRU_BACKEND_AUTO, &ctx);
    ck_assert_int_eq(st, 0); /* the CPU is always there */
    ck_assert_ptr_nonnull(ctx);
    qru_backend b = qru_context_backend(ctx);
    ck_assert_msg(b == QRU_BACKEND_CPU || b == QRU_BACKEND_CUDA ||
                      b == QRU_BACKEND_OPENCL,
                  "AUTO context reports backend %d", (int)b);
    ck_assert_int_eq(qru_backend_compiled(b), 1);
    /* AUTO prefers CUDA, then OpenCL on a GPU or accelerator, then the CPU
     * backend: an earlier choice must not be creatable when AUTO chose a
     * later one, and an OpenCL context beside an AUTO on the CPU backend
     * runs on a CPU (when no index asks for one: QRU_PLATFORM / QRU_DEVICE
     * unset here) */
    int asked = getenv("QRU_PLATFORM") || getenv("QRU_DEVICE");
    if (b != QRU_BACKEND_CUDA && qru_backend_compiled(QRU_BACKEND_CUDA)) {
        qru_context *c2 = NULL;
        ck_assert_int_ne(qru_context_create(QRU_BACKEND_CUDA, &c2), 0);
    }
    if (b == QRU_BACKEND_CPU && qru_backend_compiled(QRU_BACKEND_OPENCL) &&
        !asked) {
        qru_context *c2 = NULL;
        if (qru_context_create(QRU_BACKEND_OPENCL, &c2) == 0) {
            ck_assert_int_eq(qru_context_device_type(c2), QRU_DEVICE_CPU);
            qru_context_destroy(c2);
        }
    }
    if (b == QRU_BACKEND_OPENCL && !asked)
        ck_assert_int_ne(qru_context_device_type(ctx), QRU_DEVICE_CPU);
    ck_assert_int_eq(qru_context_device_type(NULL), 0);
    qru_context_destroy(ctx);

    /* an OpenCL platform index asks for OpenCL, whatever its device */
    if (b != QRU_BACKEND_CUDA && qru_backend_compiled(QRU_BACKEND_OPENCL) &&
        !asked) {
        qru_context_options o;
        qru_context_options_init(&o);
        o.platform = 0;
        o.device = 0;
        qru_context *c3 = NULL;
        int ok = qru_context_create_ex(QRU_BACKEND_OPENCL, &o, &c3) == 0;
        qru_context_destroy(c3);
        qru_context *c4 = NULL;
        int st4 = qru_context_create_ex(QRU_BACKEND_AUTO, &o, &c4);
        ck_assert_int_eq(st4, 0);
        if (ok)
            ck_assert_int_eq(qru_context_backend(c4), QRU_BACKEND_OPENCL);
        qru_context_destroy(c4);
    }
}
END_TEST

START_TEST(test_bad_args)
{
    qru_context *ctx = NULL;
    /* backend (1), ctx (2) */
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, NULL), -2);
    ck_assert_int_eq(qru_context_create((qru_backend)99, NULL), -1);
    ck_assert_int_eq(qru_context_create((qru_backend)99, &ctx), -1);
    ck_assert_int_eq(qru_context_create((qru_backend)-1, &ctx), -1);
    ck_assert_int_eq(qru_context_create((qru_backend)4, &ctx), -1);
    ck_assert_ptr_null(ctx);
    /* backend (1), opt (2), ctx (3) */
    ck_assert_int_eq(qru_context_create_ex(QRU_BACKEND_CPU, NULL, NULL), -3);
    ck_assert_int_eq(qru_context_create_ex((qru_backend)7, NULL, &ctx), -1);
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
    qru_matrix_destroy(M);
    qru_context_destroy(a);
}
END_TEST

/* A CUDA context that adopts the caller's stream and cuBLAS / cuSOLVER
 * handles must leave the caller's CUDA state as it found it after every
 * call: the current device, the handles' streams and cuBLAS pointer mode
 * (the caller moved them to another stream and to device pointers after
 * creating the context) and the runtime's pending error (a
 * cudaErrorInvalidDevice the caller has not read yet). */
#ifdef QRU_HAVE_CUDA
typedef struct cuda_caller {
    int dev;
    cudaStream_t stream;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    cudaError_t pending;
} cuda_caller;

static void caller_check(const cuda_caller *c, const char *after)
{
    int dev = -1;
    ck_assert_msg(cudaGetDevice(&dev) == cudaSuccess && dev == c->dev,
                  "after %s: current device %d, caller's %d", after, dev,
                  c->dev);
    cudaStream_t s = NULL;
    ck_assert_int_eq(cublasGetStream(c->blas, &s), CUBLAS_STATUS_SUCCESS);
    ck_assert_msg(s == c->stream, "after %s: cuBLAS handle's stream changed",
                  after);
    cublasPointerMode_t pm = CUBLAS_POINTER_MODE_HOST;
    ck_assert_int_eq(cublasGetPointerMode(c->blas, &pm),
                     CUBLAS_STATUS_SUCCESS);
    ck_assert_msg(pm == CUBLAS_POINTER_MODE_DEVICE,
                  "after %s: cuBLAS pointer mode changed", after);
    s = NULL;
    ck_assert_int_eq(cusolverDnGetStream(c->solver, &s),
                     CUSOLVER_STATUS_SUCCESS);
    ck_assert_msg(s == c->stream,
                  "after %s: cuSOLVER handle's stream changed", after);
    cudaError_t e = cudaPeekAtLastError();
    ck_assert_msg(e == c->pending,
                  "after %s: pending error %d (%s), the caller's was %d",
                  after, (int)e, cudaGetErrorName(e), (int)c->pending);
}
#endif

START_TEST(test_cuda_caller_state)
{
#ifndef QRU_HAVE_CUDA
    printf("context: caller-state test SKIPPED: the CUDA backend is not "
           "built\n");
#else
    if (qru_test_backend() != QRU_BACKEND_CUDA) {
        printf("context: caller-state test SKIPPED: it runs in the "
               "cuda/context test\n");
        return;
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 1) {
        printf("context: caller-state test SKIPPED: no CUDA device\n");
        (void)cudaGetLastError();
        return;
    }
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);
    cudaStream_t s1 = NULL, s2 = NULL;
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking),
                     cudaSuccess);
    ck_assert_int_eq(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking),
                     cudaSuccess);
    cuda_caller c;
    ck_assert_int_eq(cublasCreate(&c.blas), CUBLAS_STATUS_SUCCESS);
    ck_assert_int_eq(cusolverDnCreate(&c.solver), CUSOLVER_STATUS_SUCCESS);
    ck_assert_int_eq(cublasSetStream(c.blas, s1), CUBLAS_STATUS_SUCCESS);
    ck_assert_int_eq(cusolverDnSetStream(c.solver, s1),
                     CUSOLVER_STATUS_SUCCESS);

    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.device = 0;
    opt.stream = s1;
    opt.blas_handle = c.blas;
    opt.solver_handle = c.solver;
    qru_context *ctx = NULL;
    ck_assert_int_eq(qru_context_create_ex(QRU_BACKEND_CUDA, &opt, &ctx), 0);

    /* the caller moves on: other stream, device pointers, another device
     * where there is one, and an error it has not read yet */
    c.stream = s2;
    ck_assert_int_eq(cublasSetStream(c.blas, s2), CUBLAS_STATUS_SUCCESS);
    ck_assert_int_eq(cublasSetPointerMode(c.blas, CUBLAS_POINTER_MODE_DEVICE),
                     CUBLAS_STATUS_SUCCESS);
    ck_assert_int_eq(cusolverDnSetStream(c.solver, s2),
                     CUSOLVER_STATUS_SUCCESS);
    c.dev = ndev > 1 ? 1 : 0;
    ck_assert_int_eq(cudaSetDevice(c.dev), cudaSuccess);
    c.pending = cudaSetDevice(ndev + 7);
    ck_assert_int_eq(c.pending, cudaErrorInvalidDevice);
    printf("context: caller-state test on %d device(s), caller's device %d\n",
           ndev, c.dev);
    caller_check(&c, "setting up");

    /* a few calls: uploads, the QR (cuSOLVER), an update (panel kernel,
     * cuBLAS), a solve (trsm), a Cholesky (cuSOLVER), downloads */
    enum { n = 60, m = 20, p = 8 };
    unsigned seed = 99;
    qru_matrix *A = NULL, *b = NULL, *U = NULL, *e = NULL, *x = NULL,
               *S = NULL;
    double *h = qru_test_alloc(QRU_DOUBLE, n, n, n);
    qru_test_rand(QRU_DOUBLE, n, n, h, n, &seed);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, n, m, 0, &A), 0);
    caller_check(&c, "qru_matrix_create");
    ck_assert_int_eq(qru_matrix_upload(A, h, n), 0);
    caller_check(&c, "qru_matrix_upload");
    b = qru_test_upload(ctx, QRU_DOUBLE, n, 1, 0, h + n * m, n);
    U = qru_test_upload(ctx, QRU_DOUBLE, p, m, 0, h + n * (m + 1), p);
    e = qru_test_upload(ctx, QRU_DOUBLE, p, 1, 0, h + n * (m + 2), p);
    caller_check(&c, "uploads");
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, NULL, &f), 0);
    caller_check(&c, "qru_lsq_create");
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST), 0);
    ck_assert_int_eq(qru_lsq_add_rows(f, n / 2, U, e), 0);
    caller_check(&c, "qru_lsq_add_rows");
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, m, 1, 0, &x), 0);
    ck_assert_int_eq(qru_lsq_solve(f, x), 0);
    caller_check(&c, "qru_lsq_solve");
    /* S = I * n + a symmetric random part: positive definite */
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            h[i + j * n] = (i == j ? n : 0) + 0.5 * (h[i + j * n] + h[j + i * n]);
    S = qru_test_upload(ctx, QRU_DOUBLE, n, n, 0, h, n);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', S, QRU_CHOL_LEFT, 0), 0);
    caller_check(&c, "qru_chol_factor");
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    caller_check(&c, "qru_context_sync");
    ck_assert_int_eq(qru_matrix_download(x, h, m), 0);
    caller_check(&c, "qru_matrix_download");
    qru_lsq_destroy(f);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    qru_matrix_destroy(U);
    qru_matrix_destroy(e);
    qru_matrix_destroy(x);
    qru_matrix_destroy(S);
    caller_check(&c, "qru_matrix_destroy");
    qru_context_destroy(ctx);
    caller_check(&c, "qru_context_destroy");
    free(h);

    /* the pending error is still the caller's to read */
    ck_assert_int_eq(cudaGetLastError(), cudaErrorInvalidDevice);
    ck_assert_int_eq(cudaGetLastError(), cudaSuccess);
    ck_assert_int_eq(cudaSetDevice(0), cudaSuccess);
    cublasDestroy(c.blas);
    cusolverDnDestroy(c.solver);
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
#endif
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
    tcase_add_test(tc, test_cuda_caller_state);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
