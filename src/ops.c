/*
 * The op table of a context: the backend's table completed with the
 * reference ops, and the counting layer of the context statistics, both
 * generated from the op list (qru_ops.h).  A reference op is not counted
 * itself: the ops it runs are (so the counts are those of the work queued
 * on the device, whichever implementation runs).
 */
#include <stdarg.h>
#include <string.h>

#include "qru_internal.h"

static const char *const op_names[QRU_OP_COUNT] = {
#define QRU_OP_NAME_(name, params, args, need, stat) #name,
    QRU_OPS(QRU_OP_NAME_)
#undef QRU_OP_NAME_
};

const char *qru_op_name(qru_op_id op)
{
    return (unsigned)op < QRU_OP_COUNT ? op_names[op] : "?";
}

/* What an op records beyond its call (the 'stat' column of the list). */
static void note_wait(qru_context *ctx, ...) { ++ctx->stats.host_waits; }
static void note_h2d(qru_context *ctx, qru_dtype dt, int m, int n, ...)
{
    if (m > 0 && n > 0)
        ctx->stats.bytes_h2d += (long long)m * n * qru_dtype_size(dt);
}
static void note_d2h(qru_context *ctx, qru_dtype dt, int m, int n, ...)
{
    ++ctx->stats.host_waits;
    if (m > 0 && n > 0)
        ctx->stats.bytes_d2h += (long long)m * n * qru_dtype_size(dt);
}
#define QRU_COUNTS_QUERY 0
#define QRU_COUNTS_ASYNC 1
#define QRU_COUNTS_WAIT 1
#define QRU_COUNTS_H2D 1
#define QRU_COUNTS_D2H 1
#define QRU_NOTE_QUERY(...) ((void)0)
#define QRU_NOTE_ASYNC(...) ((void)0)
#define QRU_NOTE_WAIT(...) note_wait(__VA_ARGS__)
#define QRU_NOTE_H2D(...) note_h2d(__VA_ARGS__)
#define QRU_NOTE_D2H(...) note_d2h(__VA_ARGS__)

#define QRU_COUNTED_(name, params, args, need, stat)                         \
    static int counted_##name params                                         \
    {                                                                          \
        if (QRU_COUNTS_##stat &&                                               \
            qru_op_native_dt(ctx, QRU_OP_##name, QRU_OP_DT(args))) {           \
            ++ctx->stats.op_calls[QRU_OP_##name];                              \
            QRU_NOTE_##stat args;                                              \
        }                                                                      \
        unsigned long seq_ = qru_fail_seq();                                   \
        int st_ = ctx->table.name args;                                        \
        if (st_ != 0 && qru_fail_seq() == seq_)                                \
            qru_fail(st_, "%s (%s backend): %s", #name,                        \
                     qru_backend_name(ctx->backend), qru_strerror(st_));       \
        return st_;                                                            \
    }
QRU_OPS(QRU_COUNTED_)
#undef QRU_COUNTED_

/* Device memory: a failed allocation records its size. */
static int counted_mem_alloc(qru_context *ctx, size_t bytes, void **h)
{
    unsigned long seq = qru_fail_seq();
    int st = ctx->table.mem_alloc(ctx, bytes, h);
    if (st != 0 && qru_fail_seq() == seq)
        qru_fail(st, "allocating %zu bytes on the %s backend: %s", bytes,
                 qru_backend_name(ctx->backend), qru_strerror(st));
    return st;
}

void qru_ctx_set_ops(qru_context *ctx, const qru_backend_ops *b,
                     int reference)
{
    qru_backend_ops *t = &ctx->table;
    *t = *b;
    ctx->backend_ops = b;
    ctx->native = 0;
#define QRU_FILL_(name, params, args, need, stat)                            \
    QRU_FILL_##need(name)                                                      \
    if (b->name && t->name == b->name)                                         \
        ctx->native |= 1ull << QRU_OP_##name;
#define QRU_FILL_REQ(name)
#define QRU_FILL_CAP(name)
#define QRU_FILL_OPT(name)                                                     \
    if (!t->name || reference)                                                 \
        t->name = qru_ref_##name;
    QRU_OPS(QRU_FILL_)
#undef QRU_FILL_
    ctx->counted = *t;
#define QRU_WRAP_(name, params, args, need, stat)                            \
    if (t->name)                                                               \
        ctx->counted.name = counted_##name;
    QRU_OPS(QRU_WRAP_)
#undef QRU_WRAP_
    ctx->counted.mem_alloc = counted_mem_alloc;
    ctx->ops = &ctx->counted;
}

long long qru_ctx_op_calls(const qru_context *ctx, qru_op_id op)
{
    return (unsigned)op < QRU_OP_COUNT ? ctx->stats.op_calls[op] : 0;
}

int qru_context_get_stats(const qru_context *ctx, qru_context_stats *stats)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG(ctx, 2, stats, "stats is NULL");
    long long calls = 0;
    for (int i = 0; i < QRU_OP_COUNT; ++i)
        calls += ctx->stats.op_calls[i];
    stats->calls = calls;
    stats->host_waits = ctx->stats.host_waits;
    stats->bytes_h2d = ctx->stats.bytes_h2d;
    stats->bytes_d2h = ctx->stats.bytes_d2h;
    return 0;
}

int qru_context_reset_stats(qru_context *ctx)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    memset(&ctx->stats, 0, sizeof ctx->stats);
    return 0;
}
