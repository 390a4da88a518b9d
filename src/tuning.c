/*
 * The tuning block of a context (qru_tuning.h): the environment, read
 * once at context creation (the only place the library reads it; the
 * module directory QRU_MODULE_DIR is read when a module is loaded), and
 * qru_context_set_tuning / qru_context_get_tuning (the public knobs) and
 * qru_ctx_set_tuning / qru_ctx_get_tuning (every knob).
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
        QRU_TUNING_PRIVATE(QRU_TUNING_ENV_)
#undef QRU_TUNING_ENV_
    }
    /* QRU_PANEL=percol: QRU_OPTION_REFERENCE_OPS, the reference
     * Householder panels (for comparisons; every optional op then runs
     * its reference) */
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
    int param, pub; /* pub: a qru_tuning_param (include/qru.h) */
    size_t off;
    int lo, hi;
    const char *name;
} params[] = {
#define QRU_TUNING_PARAM_(f, P, env, lo, hi, words)                          \
    {QRU_TUNE_##P, (int)QRU_TUNE_##P < (int)QRU_TUNE_PRIVATE_,                \
     offsetof(qru_tuning, f), lo, hi, "QRU_TUNE_" #P},
    QRU_TUNING(QRU_TUNING_PARAM_)
    QRU_TUNING_PRIVATE(QRU_TUNING_PARAM_)
#undef QRU_TUNING_PARAM_
};

/* The index of parameter p in params (only the public ones unless all),
 * or -1. */
static int find_param(int p, int all)
{
    for (size_t i = 0; i < sizeof params / sizeof params[0]; ++i)
        if (params[i].param == p && (all || params[i].pub))
            return (int)i;
    return -1;
}

/* The checks of dtype (2) and param (3) shared by the setters and the
 * getters: 0 and the parameter's index in *i, or -2 / -3. */
static int tuning_args(qru_dtype dtype, int param, int all, int *i)
{
    if (dtype != QRU_FLOAT && dtype != QRU_DOUBLE && !qru_dtype_complex(dtype))
        return qru_fail_arg(2, "dtype = %d is not a qru_dtype (QRU_FLOAT (1) "
                               ".. QRU_COMPLEX_DOUBLE (4))", (int)dtype);
    if ((*i = find_param(param, all)) < 0)
        return qru_fail_arg(3, "param = %d is not a qru_tuning_param",
                            param);
    return 0;
}

/* The field of parameter i in ctx's block for dtype. */
static int *tuning_field(const qru_context *ctx, qru_dtype dtype, int i)
{
    return (int *)((char *)qru_ctx_tuning(ctx, dtype) + params[i].off);
}

/* The setter and the getter (all: every knob, else the public ones):
 * 0 or -2 .. -4 with the text; ctx is not NULL. */
static int set_tuning(qru_context *ctx, qru_dtype dtype, int param, int all,
                      int value)
{
    int i = 0;
    QRU_TRY(tuning_args(dtype, param, all, &i));
    if (value < params[i].lo || value > params[i].hi)
        return qru_fail_arg(4, "value = %d, but %s must be in [%d, %d]",
                            value, params[i].name, params[i].lo,
                            params[i].hi);
    *tuning_field(ctx, dtype, i) = value;
    return 0;
}

static int get_tuning(const qru_context *ctx, qru_dtype dtype, int param,
                      int all, int *value)
{
    int i = 0;
    QRU_TRY(tuning_args(dtype, param, all, &i));
    if (!value)
        return qru_fail_arg(4, "value (the output) is NULL");
    *value = *tuning_field(ctx, dtype, i);
    return 0;
}

int qru_context_set_tuning(qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    ++ctx->tuning_gen;
    QRU_RET(ctx, set_tuning(ctx, dtype, (int)param, 0, value));
}

int qru_context_get_tuning(const qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int *value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_RET(ctx, get_tuning(ctx, dtype, (int)param, 0, value));
}

int qru_ctx_set_tuning(qru_context *ctx, qru_dtype dtype, int param,
                       int value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    ++ctx->tuning_gen;
    QRU_RET(ctx, set_tuning(ctx, dtype, param, 1, value));
}

int qru_ctx_get_tuning(const qru_context *ctx, qru_dtype dtype, int param,
                       int *value)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_RET(ctx, get_tuning(ctx, dtype, param, 1, value));
}
