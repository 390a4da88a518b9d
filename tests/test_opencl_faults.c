/*
 * Provokable faults of the OpenCL backend (opencl/qru_opencl.h documents the
 * choices checked here):
 *  - an out-of-range platform or device index (options or environment)
 *    gives QRU_ERR_BACKEND_UNAVAILABLE, an index below -1 in the options is
 *    a malformed argument (-3), and no context is returned;
 *  - an allocation larger than the device allows gives QRU_ERR_ALLOC (never
 *    an abort) and leaves the context usable;
 *  - a device without fp64 (simulated with QRU_OCL_FP64=0) reports double as
 *    unsupported and refuses double matrices with QRU_ERR_UNSUPPORTED;
 *  - a kernel build failure (provoked with QRU_OCL_BUILD_OPTIONS) gives
 *    QRU_ERR_BUILD, again on the next request, and keeps the compiler log;
 *  - an adopted command queue (opt.stream) is used and stays valid after the
 *    context is destroyed; an out-of-order queue is refused with
 *    QRU_ERR_UNSUPPORTED;
 *  - destroying a context that ran CLBlast gives back every reference to
 *    the OpenCL context (CLBlast's program cache holds one per program);
 *  - SHARED_PROCS processes of this program building the kernels at once
 *    on one fresh PoCL kernel cache (POCL_CACHE_DIR) all succeed: PoCL 3.x
 *    rewrites a cached program while others read it, which fails some of
 *    their clBuildProgram calls (the backend retries).
 * Runs on the opencl backend only (other backends, or a build without the
 * OpenCL backend: skipped, exit 77).
 */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

#ifdef QRU_HAVE_OPENCL
#include <CL/cl.h>

#include "../opencl/qru_opencl.h"

static qru_context *const poison = (qru_context *)&qru_test_env_set;

/* Creates with options; checks the status and that *ctx is untouched on
 * failure. */
static void expect_create(int platform, int device, int want)
{
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.platform = platform;
    opt.device = device;
    qru_context *ctx = poison;
    int st = qru_context_create_ex(QRU_BACKEND_OPENCL, &opt, &ctx);
    ck_assert_msg(st == want, "platform %d device %d: status %d (%s), want %d",
                  platform, device, st, qru_strerror(st), want);
    if (want == 0) {
        ck_assert_ptr_ne(ctx, poison);
        ck_assert_int_eq(qru_context_backend(ctx), QRU_BACKEND_OPENCL);
        qru_context_destroy(ctx);
    } else {
        ck_assert_ptr_eq(ctx, poison);
    }
}

START_TEST(test_bad_indices)
{
    char *op = qru_test_env_set("QRU_PLATFORM", NULL),
         *od = qru_test_env_set("QRU_DEVICE", NULL);
    expect_create(0, 0, 0);   /* PoCL here: platform 0 has a device 0 */
    expect_create(-1, -1, 0); /* automatic choice */
    expect_create(1000, -1, QRU_ERR_BACKEND_UNAVAILABLE);
    expect_create(0, 1000, QRU_ERR_BACKEND_UNAVAILABLE);
    expect_create(-1, 1000, QRU_ERR_BACKEND_UNAVAILABLE);
    expect_create(-2, 0, -3);
    expect_create(0, -7, -3);
    qru_test_env_restore("QRU_PLATFORM", op);
    qru_test_env_restore("QRU_DEVICE", od);
}
END_TEST

START_TEST(test_bad_environment)
{
    static const struct {
        const char *plat, *dev;
        int want;
    } cases[] = {
        {"1000", NULL, QRU_ERR_BACKEND_UNAVAILABLE},
        {NULL, "1000", QRU_ERR_BACKEND_UNAVAILABLE},
        {"abc", NULL, QRU_ERR_BACKEND_UNAVAILABLE},
        {NULL, "-4", QRU_ERR_BACKEND_UNAVAILABLE},
        {"0", "0", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *op = qru_test_env_set("QRU_PLATFORM", cases[i].plat);
        char *od = qru_test_env_set("QRU_DEVICE", cases[i].dev);
        qru_context *ctx = poison;
        int st = qru_context_create(QRU_BACKEND_OPENCL, &ctx);
        qru_test_env_restore("QRU_PLATFORM", op);
        qru_test_env_restore("QRU_DEVICE", od);
        ck_assert_msg(st == cases[i].want, "QRU_PLATFORM=%s QRU_DEVICE=%s: %d",
                      cases[i].plat ? cases[i].plat : "(unset)",
                      cases[i].dev ? cases[i].dev : "(unset)", st);
        if (st == 0)
            qru_context_destroy(ctx);
        else
            ck_assert_ptr_eq(ctx, poison);
    }
    /* explicit options win over the environment */
    char *op = qru_test_env_set("QRU_PLATFORM", "1000");
    expect_create(0, -1, 0);
    qru_test_env_restore("QRU_PLATFORM", op);
}
END_TEST

START_TEST(test_huge_alloc)
{
    qru_context *ctx = qru_test_context();
    for (int k = 0; k < qru_test_ndtypes(ctx); ++k) {
        qru_dtype dt = qru_test_dtype(ctx, k);
        qru_matrix *M = (qru_matrix *)poison;
        /* 2^17 x 2^17 elements: 64 or 128 GiB */
        int st = qru_matrix_create(ctx, dt, 1 << 17, 1 << 17, 0, &M);
        ck_assert_msg(st == QRU_ERR_ALLOC, "huge matrix: %d (%s)", st,
                      qru_strerror(st));
        ck_assert_ptr_eq(M, (qru_matrix *)poison);
        /* the context stays usable */
        int n = 3;
        void *h = qru_test_alloc(dt, n, n, n);
        unsigned seed = 7;
        qru_test_rand(dt, n, n, h, n, &seed);
        qru_matrix *A = qru_test_upload(ctx, dt, n, n, 0, h, n);
        void *back = qru_test_download(A);
        ck_assert_int_eq(memcmp(back, h, qru_test_elsize(dt) * n * n), 0);
        free(back);
        qru_matrix_destroy(A);
        free(h);
    }
    qru_context_destroy(ctx);
}
END_TEST

START_TEST(test_no_fp64)
{
    char *old = qru_test_env_set("QRU_OCL_FP64", "0");
    qru_context *ctx = qru_test_context();
    qru_test_env_restore("QRU_OCL_FP64", old);
    ck_assert_int_eq(qru_context_supports(ctx, QRU_DOUBLE), 0);
    ck_assert_int_eq(qru_context_supports(ctx, QRU_FLOAT), 1);
    qru_matrix *M = (qru_matrix *)poison;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, 4, 4, 0, &M),
                     QRU_ERR_UNSUPPORTED);
    ck_assert_ptr_eq(M, (qru_matrix *)poison);
    /* float still works */
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 4, 4, 0, &M), 0);
    qru_matrix *B = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 4, 4, 0, &B), 0);
    ck_assert_int_eq(qru_matrix_copy(M, B), 0);
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    qru_matrix_destroy(B);
    qru_matrix_destroy(M);
    qru_context_destroy(ctx);
}
END_TEST

START_TEST(test_build_failure)
{
    char *old = qru_test_env_set("QRU_OCL_BUILD_OPTIONS",
                        "-DQRU_KDEFS_H"); /* skips the macros */
    qru_context *ctx = qru_test_context();
    qru_test_env_restore("QRU_OCL_BUILD_OPTIONS", old);
    ck_assert_str_eq(qru_opencl_build_log(ctx), "");
    ck_assert_ptr_nonnull(qru_opencl_tuning(ctx));
    qru_matrix *A = NULL, *B = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 5, 3, 0, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 5, 3, 0, &B), 0);
    float h[15], g[15];
    for (int i = 0; i < 15; ++i) {
        h[i] = (float)i;
        g[i] = -1.0f;
    }
    ck_assert_int_eq(qru_matrix_upload(A, h, 5), 0);
    ck_assert_int_eq(qru_matrix_upload(B, g, 5), 0);
    /* the device copy needs the kernels: the build fails */
    int st = qru_matrix_copy(A, B);
    ck_assert_msg(st == QRU_ERR_BUILD, "copy: %d (%s)", st, qru_strerror(st));
    ck_assert_int_eq(qru_matrix_copy(A, B), QRU_ERR_BUILD); /* kept */
    ck_assert_int_gt((int)strlen(qru_opencl_build_log(ctx)), 0);
    /* B is unchanged and transfers (no kernels) still work */
    float back[15];
    ck_assert_int_eq(qru_matrix_download(B, back, 5), 0);
    for (int i = 0; i < 15; ++i)
        ck_assert(back[i] == -1.0f);
    qru_matrix_destroy(A);
    qru_matrix_destroy(B);
    qru_context_destroy(ctx);
    /* not an OpenCL context: empty log, no tuning */
    qru_context *cpu = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &cpu), 0);
    ck_assert_str_eq(qru_opencl_build_log(cpu), "");
    ck_assert_ptr_null(qru_opencl_tuning(cpu));
    qru_context_destroy(cpu);
}
END_TEST

/* An OpenCL context and queue of our own on the first device of the first
 * platform with one; returns 0 if there is none. */
static int own_queue(cl_command_queue_properties props, cl_context *c,
                     cl_command_queue *q)
{
    cl_platform_id ps[8];
    cl_uint np = 0;
    if (clGetPlatformIDs(8, ps, &np) != CL_SUCCESS)
        return 0;
    for (cl_uint i = 0; i < np && i < 8; ++i) {
        cl_device_id d;
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 1, &d, &nd) !=
                CL_SUCCESS ||
            nd == 0)
            continue;
        cl_int err;
        *c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        *q = clCreateCommandQueue(*c, d, props, &err);
        if (err != CL_SUCCESS) { /* e.g. out-of-order not supported */
            clReleaseContext(*c);
            return 0;
        }
        return 1;
    }
    return 0;
}

START_TEST(test_adopted_queue)
{
    cl_context c;
    cl_command_queue q;
    ck_assert(own_queue(0, &c, &q));
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.stream = q;
    opt.platform = 1000; /* ignored when a queue is adopted */
    qru_context *ctx = NULL;
    ck_assert_int_eq(qru_context_create_ex(QRU_BACKEND_OPENCL, &opt, &ctx), 0);
    /* a wrapped buffer of our context: copy and laset through qru */
    cl_int err;
    cl_mem buf = clCreateBuffer(c, CL_MEM_READ_WRITE, 24 * sizeof(float), NULL,
                                &err);
    ck_assert_int_eq(err, CL_SUCCESS);
    qru_matrix *A = NULL, *B = NULL;
    ck_assert_int_eq(qru_matrix_wrap(ctx, QRU_FLOAT, 3, 4, buf, 3, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, 3, 4, 0, &B), 0);
    float h[12], back[12];
    for (int i = 0; i < 12; ++i)
        h[i] = (float)(i + 1);
    ck_assert_int_eq(qru_matrix_upload(A, h, 3), 0);
    ck_assert_int_eq(qru_matrix_copy(A, B), 0);
    ck_assert_int_eq(qru_matrix_download(B, back, 3), 0);
    ck_assert_int_eq(memcmp(h, back, sizeof h), 0);
    qru_matrix_destroy(B);
    qru_matrix_destroy(A);
    qru_context_destroy(ctx);
    /* the queue is still ours and usable */
    float first = 0.0f;
    ck_assert_int_eq(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof first,
                                         &first, 0, NULL, NULL),
                     CL_SUCCESS);
    ck_assert(first == 1.0f);
    ck_assert_int_eq(clReleaseMemObject(buf), CL_SUCCESS);
    ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
    ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
    /* out-of-order queues are refused */
    if (own_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &c, &q)) {
        opt.stream = q;
        qru_context *bad = (qru_context *)poison;
        ck_assert_int_eq(qru_context_create_ex(QRU_BACKEND_OPENCL, &opt, &bad),
                         QRU_ERR_UNSUPPORTED);
        ck_assert_ptr_eq(bad, poison);
        clReleaseCommandQueue(q);
        clReleaseContext(c);
    }
}
END_TEST

static cl_uint context_refs(cl_context c)
{
    cl_uint refs = 0;
    ck_assert_int_eq(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT,
                                      sizeof refs, &refs, NULL),
                     CL_SUCCESS);
    return refs;
}

/* A qru context on an adopted queue runs a GEMM (CLBlast) and is
 * destroyed: the OpenCL context's reference count is back to what it was
 * before (else the context, on a GPU its device memory, is never freed). */
START_TEST(test_context_released)
{
    cl_context c;
    cl_command_queue q;
    ck_assert(own_queue(0, &c, &q));
    cl_uint before = context_refs(c);
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.stream = q;
    qru_context *ctx = NULL;
    ck_assert_int_eq(qru_context_create_ex(QRU_BACKEND_OPENCL, &opt, &ctx), 0);
    enum { N = 5 };
    float h[N * N], want[N * N], back[N * N];
    for (int i = 0; i < N * N; ++i)
        h[i] = (float)(i % 7) - 3.0f;
    for (int j = 0; j < N; ++j)
        for (int i = 0; i < N; ++i) {
            float t = 0.0f;
            for (int l = 0; l < N; ++l)
                t += h[i + l * N] * h[j + l * N];
            want[i + j * N] = t;
        }
    qru_matrix *A = NULL, *C = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, N, N, 0, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_FLOAT, N, N, 0, &C), 0);
    ck_assert_int_eq(qru_matrix_upload(A, h, N), 0);
    ck_assert_int_eq(ctx->ops->gemm(ctx, QRU_FLOAT, 'N', 'T', N, N, N, 1.0,
                                    A->p, A->ld, A->p, A->ld, 0.0, C->p,
                                    C->ld),
                     0);
    ck_assert_int_eq(qru_matrix_download(C, back, N), 0);
    for (int i = 0; i < N * N; ++i) /* small integers: exact */
        ck_assert_msg(back[i] == want[i], "C[%d] = %g, want %g", i,
                      (double)back[i], (double)want[i]);
    qru_matrix_destroy(C);
    qru_matrix_destroy(A);
    qru_context_destroy(ctx);
    cl_uint after = context_refs(c);
    ck_assert_msg(after == before,
                  "OpenCL context references: %u before, %u after",
                  (unsigned)before, (unsigned)after);
    ck_assert_int_eq(clReleaseCommandQueue(q), CL_SUCCESS);
    ck_assert_int_eq(clReleaseContext(c), CL_SUCCESS);
}
END_TEST

/* ---- concurrent builds on one shared kernel cache ----------------------- */

enum { SHARED_PROCS = 8, SHARED_ROUNDS = 2, SHARED_CONTEXTS = 2 };

/* The child: SHARED_ROUNDS rounds, each with its own extra build option (a
 * program PoCL has not cached yet, so every round the processes compile
 * and write the same cache entry at once), of SHARED_CONTEXTS contexts
 * (the later ones read the entry) that copy a float matrix on the device.
 * Returns the number of failed contexts; prints each failure. */
static int shared_cache_child(const char *tag)
{
    float h[12], back[12];
    for (int i = 0; i < 12; ++i)
        h[i] = (float)(i + 1) / 7.0f;
    int bad = 0;
    for (int r = 0; r < SHARED_ROUNDS; ++r) {
        char opt[64];
        snprintf(opt, sizeof opt, "-DQRU_CACHE_TEST_%s_%d", tag, r);
        setenv("QRU_OCL_BUILD_OPTIONS", opt, 1);
        for (int c = 0; c < SHARED_CONTEXTS; ++c) {
            qru_context *ctx = NULL;
            qru_matrix *A = NULL, *B = NULL;
            int st = qru_context_create(QRU_BACKEND_OPENCL, &ctx);
            if (!st)
                st = qru_matrix_create(ctx, QRU_FLOAT, 4, 3, 0, &A);
            if (!st)
                st = qru_matrix_create(ctx, QRU_FLOAT, 4, 3, 0, &B);
            if (!st)
                st = qru_matrix_upload(A, h, 4);
            if (!st)
                st = qru_matrix_copy(A, B); /* needs the program */
            if (!st)
                st = qru_matrix_download(B, back, 4);
            if (!st && memcmp(back, h, sizeof h) != 0)
                st = QRU_ERR_INTERNAL;
            if (st) {
                printf("process %d round %d context %d: %d (%s)\n",
                       (int)getpid(), r, c, st, qru_strerror(st));
                if (ctx)
                    printf("build log: %.300s\n", qru_opencl_build_log(ctx));
                ++bad;
            }
            qru_matrix_destroy(A);
            qru_matrix_destroy(B);
            qru_context_destroy(ctx);
        }
    }
    fflush(stdout);
    return bad;
}

START_TEST(test_shared_cache)
{
    extern char **environ;
    char dir[] = "/tmp/qru-ocl-cache-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *old = qru_test_env_set("POCL_CACHE_DIR", dir);
    char tag[32];
    snprintf(tag, sizeof tag, "%d", (int)getpid());
    char *argv[] = {"test_opencl_faults", "--shared-cache-child", tag, NULL};
    pid_t pid[SHARED_PROCS];
    for (int i = 0; i < SHARED_PROCS; ++i) /* a fresh runtime in each */
        ck_assert_int_eq(posix_spawn(&pid[i], "/proc/self/exe", NULL, NULL,
                                     argv, environ),
                         0);
    qru_test_env_restore("POCL_CACHE_DIR", old);
    int failed = 0;
    for (int i = 0; i < SHARED_PROCS; ++i) {
        int ws = 0;
        ck_assert_int_eq(waitpid(pid[i], &ws, 0), pid[i]);
        if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
            printf("process %d: %s %d\n", (int)pid[i],
                   WIFEXITED(ws) ? "exit" : "signal",
                   WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
            ++failed;
        }
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert_msg(failed == 0, "%d of %d processes failed on a shared cache",
                  failed, SHARED_PROCS);
}
END_TEST
#endif /* QRU_HAVE_OPENCL */

int main(int argc, char **argv)
{
#ifndef QRU_HAVE_OPENCL
    (void)argc;
    (void)argv;
    printf("SKIP: the OpenCL backend is not compiled in\n");
    return 77;
#else
    if (argc == 3 && strcmp(argv[1], "--shared-cache-child") == 0)
        return shared_cache_child(argv[2]) ? 1 : 0;
    if (qru_test_backend() != QRU_BACKEND_OPENCL) {
        printf("SKIP: OpenCL fault tests run on the opencl backend only\n");
        return 77;
    }
    Suite *s = suite_create("opencl_faults");
    TCase *tc = tcase_create("faults");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_bad_indices);
    tcase_add_test(tc, test_bad_environment);
    tcase_add_test(tc, test_huge_alloc);
    tcase_add_test(tc, test_no_fp64);
    tcase_add_test(tc, test_build_failure);
    tcase_add_test(tc, test_adopted_queue);
    tcase_add_test(tc, test_context_released);
    tcase_add_test(tc, test_shared_cache);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
#endif
}
