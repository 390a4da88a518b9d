/* Contexts, backend selection, the workspace pool, library information. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_module.h"

const char *qru_version(void) { return QRU_VERSION_STRING; }

const char *qru_backend_name(qru_backend b)
{
    switch (b) {
    case QRU_BACKEND_AUTO:
        return "auto";
    case QRU_BACKEND_CPU:
        return "cpu";
    case QRU_BACKEND_CUDA:
        return "cuda";
    case QRU_BACKEND_OPENCL:
        return "opencl";
    }
    return "unknown";
}

int qru_backend_compiled(qru_backend b)
{
    return qru_module_built(b);
}

void qru_context_options_init(qru_context_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->device = -1;
    opt->platform = -1;
}

static int create_on(qru_context **out, const qru_backend_ops *ops,
                     const qru_context_options *opt)
{
    int st = ops->probe();
    if (st != 0)
        return st;
    qru_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return qru_fail(QRU_ERR_ALLOC, "allocating the %s context failed",
                        qru_backend_name(ops->id));
    ctx->backend = ops->id;
    memcpy(ctx->tuning, ops->tuning, sizeof ctx->tuning);
    qru_tuning_load_env(ctx);
    qru_ctx_set_ops(ctx, ops, ctx->reference_ops);
    st = ops->init(ctx, opt);
    if (st != 0) {
        free(ctx);
        return st;
    }
    *out = ctx;
    return 0;
}

/* A context on backend (checked) with options opt (not NULL). */
static int create_any(qru_backend backend, const qru_context_options *opt,
                      qru_context **ctx)
{
    const qru_backend_ops *ops = NULL;
    if (backend != QRU_BACKEND_AUTO) {
        QRU_TRY(qru_module_load(backend, &ops));
        return create_on(ctx, ops, opt);
    }
    /* CUDA, then OpenCL on a GPU or accelerator, then the CPU backend: on a
     * CPU, the CPU backend (OpenBLAS) is the faster (the demo's sliding
     * window, a slide's median: its updates 2.8-5.5x faster than
     * refactorising there, 2.3-3.4x slower on PoCL; docs/performance.md).
     * An OpenCL CPU device is kept when an index asks for it, or in case
     * the CPU backend fails. */
    static const qru_backend order[] = {QRU_BACKEND_CUDA, QRU_BACKEND_OPENCL,
                                        QRU_BACKEND_CPU};
    int last = QRU_ERR_BACKEND_UNAVAILABLE;
    qru_context *spare = NULL;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; ++i) {
        if (!qru_module_built(order[i]))
            continue;
        last = qru_module_load(order[i], &ops);
        if (last == 0)
            last = create_on(ctx, ops, opt);
        if (last != 0)
            continue;
        qru_context *c = *ctx;
        int asked = opt->platform >= 0 || opt->device >= 0 ||
                    c->env.platform >= 0 || c->env.device >= 0;
        if (order[i] == QRU_BACKEND_OPENCL && !asked &&
            ops->device_type(c) == QRU_DEVICE_CPU) {
            spare = c;
            *ctx = NULL;
            continue;
        }
        qru_context_destroy(spare);
        return 0;
    }
    if (spare) {
        *ctx = spare;
        return 0;
    }
    return last;
}

#define QRU_ARG_BACKEND(backend)                                               \
    QRU_ARG(NULL, 1,                                                           \
            backend == QRU_BACKEND_AUTO || backend == QRU_BACKEND_CPU ||       \
                backend == QRU_BACKEND_CUDA || backend == QRU_BACKEND_OPENCL,  \
            "backend = %d is not a qru_backend (AUTO 0, CPU 1, CUDA 2, "       \
            "OPENCL 3)",                                                       \
            (int)backend)

int qru_context_create_ex(qru_backend backend, const qru_context_options *opt,
                          qru_context **ctx)
{
    QRU_ARG_BACKEND(backend);
    QRU_ARG(NULL, 3, ctx, "ctx (the output) is NULL");
    qru_context_options defaults;
    if (!opt) {
        qru_context_options_init(&defaults);
        opt = &defaults;
    }
    QRU_RET(NULL, create_any(backend, opt, ctx));
}

int qru_context_create(qru_backend backend, qru_context **ctx)
{
    QRU_ARG_BACKEND(backend);
    QRU_ARG(NULL, 2, ctx, "ctx (the output) is NULL");
    qru_context_options defaults;
    qru_context_options_init(&defaults);
    QRU_RET(NULL, create_any(backend, &defaults, ctx));
}

/* The text of qru_backend_info for a context ctx (made for the asked
 * backend; auto: the backend it picked goes in front). */
static void describe(const qru_context *ctx, int is_auto, char *buf, size_t n)
{
    qru_device_type t = ctx->ops->device_type(ctx);
    char libs[QRU_ERRMSG_LEN];
    if (ctx->backend == QRU_BACKEND_CPU)
        qru_cpu_libraries(libs, sizeof libs);
    else
        snprintf(libs, sizeof libs, "module %s",
                 qru_module_path(ctx->backend));
    snprintf(buf, n, "%s%s%s [%s; single %s, double %s]; %s",
             is_auto ? qru_backend_name(ctx->backend) : "", is_auto ? ": " : "",
             ctx->device_name,
             t == QRU_DEVICE_GPU           ? "GPU"
             : t == QRU_DEVICE_ACCELERATOR ? "accelerator"
                                           : "CPU",
             ctx->ops->supports(ctx, QRU_FLOAT) ? "yes" : "no",
             ctx->ops->supports(ctx, QRU_DOUBLE) ? "yes" : "no", libs);
}

int qru_backend_info(qru_backend backend, char *buf, size_t n)
{
    QRU_ARG_BACKEND(backend);
    QRU_ARG(NULL, 2, buf, "buf (the output) is NULL");
    QRU_ARG(NULL, 3, n >= 1,
            "n = %zu, but buf must hold at least the terminating NUL", n);
    qru_context_options defaults;
    qru_context_options_init(&defaults);
    qru_context *ctx = NULL;
    int st = create_any(backend, &defaults, &ctx);
    if (st != 0) {
        snprintf(buf, n, "%s", qru_fail_why(st));
        QRU_RET(NULL, st);
    }
    describe(ctx, backend == QRU_BACKEND_AUTO, buf, n);
    qru_context_destroy(ctx);
    QRU_RET(NULL, 0);
}

void qru_context_destroy(qru_context *ctx)
{
    if (!ctx)
        return;
    if (ctx->ws.h)
        ctx->ops->mem_free(ctx, ctx->ws.h);
    ctx->ops->fini(ctx);
    free(ctx);
}

qru_backend qru_context_backend(const qru_context *ctx)
{
    return ctx ? ctx->backend : QRU_BACKEND_AUTO;
}

const char *qru_context_device_name(const qru_context *ctx)
{
    return ctx ? ctx->device_name : "";
}

qru_device_type qru_context_device_type(const qru_context *ctx)
{
    return ctx ? ctx->ops->device_type(ctx) : (qru_device_type)0;
}

int qru_context_supports(const qru_context *ctx, qru_dtype dt)
{
    if (!ctx || (dt != QRU_FLOAT && dt != QRU_DOUBLE && !qru_dtype_complex(dt)))
        return 0;
    return ctx->ops->supports(ctx, dt);
}

int qru_context_sync(qru_context *ctx)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_RET(ctx, ctx->ops->sync(ctx));
}

int qru_ctx_workspace(qru_context *ctx, size_t bytes, qru_ptr *out)
{
    if (ctx->plan) { /* a dry run records the request (plan.c) */
        if (bytes > ctx->plan->ws_bytes)
            ctx->plan->ws_bytes = bytes;
        out->h = qru_plan_placeholder();
        out->off = 0;
        return 0;
    }
    if (bytes > ctx->ws.bytes) {
        size_t grow = ctx->ws.bytes + ctx->ws.bytes / 2;
        size_t want = bytes > grow ? bytes : grow;
        void *h = NULL;
        /* The old buffer may still be in use by queued work. */
        int st = ctx->ops->sync(ctx);
        if (st)
            return st;
        if (ctx->ws.h)
            ctx->ops->mem_free(ctx, ctx->ws.h);
        ctx->ws.h = NULL;
        ctx->ws.bytes = 0;
        st = ctx->ops->mem_alloc(ctx, want, &h);
        if (st)
            return st;
        ctx->ws.h = h;
        ctx->ws.bytes = want;
    }
    out->h = ctx->ws.h;
    out->off = 0;
    return 0;
}

int qru_context_set_option(qru_context *ctx, qru_context_option opt,
                           int value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG(ctx, 2,
            opt == QRU_OPTION_CHECK_FINITE || opt == QRU_OPTION_REFERENCE_OPS,
            "opt = %d is not a qru_context_option", (int)opt);
    QRU_ARG(ctx, 3, value == 0 || value == 1,
            "value = %d, but the option takes 0 or 1", value);
    if (opt == QRU_OPTION_CHECK_FINITE) {
        ctx->check_finite = value;
    } else if (value != ctx->reference_ops) {
        /* queued work may still use the old table's kernels: harmless,
         * the tables only select functions */
        ctx->reference_ops = value;
        qru_ctx_set_ops(ctx, ctx->backend_ops, value);
        ++ctx->tuning_gen;
    }
    return 0;
}

int qru_context_get_option(const qru_context *ctx, qru_context_option opt,
                           int *value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG(ctx, 2,
            opt == QRU_OPTION_CHECK_FINITE || opt == QRU_OPTION_REFERENCE_OPS,
            "opt = %d is not a qru_context_option", (int)opt);
    QRU_ARG(ctx, 3, value, "value (the output) is NULL");
    *value = opt == QRU_OPTION_CHECK_FINITE ? ctx->check_finite
                                            : ctx->reference_ops;
    return 0;
}
