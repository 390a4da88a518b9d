/*
 * The tuning block of a context (qru_tuning.h): the environment, read
 * once at context creation (the only place the library reads it; the
 * module directory QRU_MODULE_DIR is read when a module is loaded), and
 * qru_context_set_tuning / qru_context_get_tuning.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"

/* The value of a name in "a|b|c" (its index), or -1. */
static int word_index(const char *words, const char *s)
{
    size_t n = strlen(s);
    for (int i = 0; *words; ++i) {
        const char *bar = strchr(words, '|');
        size_t len = bar ? (size_t)(bar - words) : strlen(words);
        if (len == n && strncmp(words, s, n) == 0)
            return i;
        if (!bar)
            break;
        words = bar + 1;
    }
    return -1;
}

/* A whole decimal number in [lo, hi], or INT_MIN (unset or malformed). */
static int env_number(const char *name, long lo, long hi)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return INT_MIN;
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || v < lo || v > hi)
        return INT_MIN;
    return (int)v;
}

/* A tuning value from the environment: a number in [lo, hi] or one of
 * the words; a value that does not parse leaves the default. */
static void env_tuning(int *field, const char *name, int lo, int hi,
                       const char *words)
{
    int v = INT_MIN;
    if (words) {
        const char *s = getenv(name);
        if (s && *s) {
            int w = word_index(words, s);
            if (w >= 0)
                v = lo + w;
        }
    } else {
        v = env_number(name, lo, hi);
    }
    if (v != INT_MIN && v >= lo && v <= hi)
        *field = v;
}

/* A device or platform index: -1 unset, -2 malformed. */
static int env_index(const char *name)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return -1;
    int v = env_number(name, 0, INT_MAX);
    return v == INT_MIN ? -2 : v;
}

void qru_tuning_load_env(qru_context *ctx)
{
    for (int d = 0; d < 2; ++d) {
        qru_tuning *t = &ctx->tuning[d];
#define QRU_TUNING_ENV_(f, P, env, lo, hi, words)                            \
    env_tuning(&t->f, env, lo, hi, words);
        QRU_TUNING(QRU_TUNING_ENV_)
#undef QRU_TUNING_ENV_
    }
    /* QRU_PANEL=percol: the reference Householder panels (for
     * comparisons; every optional op then runs its reference) */
    const char *s = getenv("QRU_PANEL");
    ctx->reference_ops = s && strcmp(s, "percol") == 0;
    /* device selection */
    ctx->env.device = env_index("QRU_DEVICE");
    ctx->env.platform = env_index("QRU_PLATFORM");
    int v;
    /* OpenCL work shapes (0 or -1: the device's default) */
    v = env_number("QRU_OCL_WG", 1, 1 << 16);
    ctx->env.ocl_wg = v != INT_MIN ? v : 0;
    v = env_number("QRU_OCL_TILE", 1, 64);
    ctx->env.ocl_tile = v != INT_MIN ? v : 0;
    v = env_number("QRU_OCL_VEC", 1, 64);
    ctx->env.ocl_vec = v != INT_MIN ? v : 0;
    v = env_number("QRU_OCL_LOCAL", 0, 1);
    ctx->env.ocl_local = v != INT_MIN ? v : -1;
    v = env_number("QRU_OCL_FP64", 0, 1);
    ctx->env.ocl_fp64 = v != INT_MIN ? v : -1;
    s = getenv("QRU_OCL_BUILD_OPTIONS");
    snprintf(ctx->env.ocl_build_options, sizeof ctx->env.ocl_build_options,
             "%s", s ? s : "");
}

const char *qru_env_module_dir(void)
{
    const char *s = getenv("QRU_MODULE_DIR");
    return s && *s ? s : NULL;
}

static const struct {
    qru_tuning_param param;
    size_t off;
    int lo, hi;
    const char *name;
} params[] = {
#define QRU_TUNING_PARAM_(f, P, env, lo, hi, words)                          \
    {QRU_TUNE_##P, offsetof(qru_tuning, f), lo, hi, "QRU_TUNE_" #P},
    QRU_TUNING(QRU_TUNING_PARAM_)
#undef QRU_TUNING_PARAM_
};

static int find_param(qru_tuning_param p)
{
    for (size_t i = 0; i < sizeof params / sizeof params[0]; ++i)
        if (params[i].param == p)
            return (int)i;
    return -1;
}

/* The checks of dtype (2) and param (3) shared by the setter and the
 * getter: 0 and the parameter's index in *i, or -2 / -3. */
static int tuning_args(qru_dtype dtype, qru_tuning_param param, int *i)
{
    if (dtype != QRU_FLOAT && dtype != QRU_DOUBLE)
        return qru_fail_arg(2, "dtype = %d is not QRU_FLOAT (1) or "
                               "QRU_DOUBLE (2)", (int)dtype);
    if ((*i = find_param(param)) < 0)
        return qru_fail_arg(3, "param = %d is not a qru_tuning_param",
                            (int)param);
    return 0;
}

/* The field of parameter i in ctx's block for dtype. */
static int *tuning_field(const qru_context *ctx, qru_dtype dtype, int i)
{
    return (int *)((char *)qru_ctx_tuning(ctx, dtype) + params[i].off);
}

int qru_context_set_tuning(qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int value)
{
    int i;
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_CHECK(ctx, tuning_args(dtype, param, &i));
    QRU_ARG(ctx, 4, value >= params[i].lo && value <= params[i].hi,
            "value = %d, but %s must be in [%d, %d]", value, params[i].name,
            params[i].lo, params[i].hi);
    *tuning_field(ctx, dtype, i) = value;
    QRU_RET(ctx, 0);
}

int qru_context_get_tuning(const qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int *value)
{
    int i;
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_CHECK(ctx, tuning_args(dtype, param, &i));
    QRU_ARG(ctx, 4, value, "value (the output) is NULL");
    *value = *tuning_field(ctx, dtype, i);
    QRU_RET(ctx, 0);
}
