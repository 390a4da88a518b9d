/*
 * The plan of one update against the device, op by op: what the cost
 * model prices each backend op of the update at (its plan, src/plan.c)
 * beside what each op takes on the backend under test (QRU_TEST_BACKEND),
 * so that a cost model can be checked or calibrated where AUTO picks the
 * slower path.  Each op of the measured run is followed by a
 * synchronisation and timed on the host; the time of an empty
 * synchronisation (median of 101) is taken off.  So each op's time holds
 * its launch latency, which a run without the synchronisations hides
 * behind the ops before it: the large ops are the ones to read (the
 * small ones show the device's latency per op, per_call + per_wait at
 * most).  Look-ahead is off (one queue), so the ops' times add up.  One
 * warm-up update on another factorisation of the same shape first.
 *
 *   bench_plan_ops OP FORM n m p k [-s | -p T]
 *     OP: add_rows | remove_rows | add_cols | remove_cols | modify
 *     FORM: full | thin | none; -s: single precision; -p T: the element
 *     type T, one of s (float), d (double, the default), c (complex
 *     float), z (complex double)
 *
 * Output: per op the calls, the priced and the measured microseconds and
 * their ratio, largest measured first, then the totals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"
#include "qru_internal.h"
#include "qru_test.h"
#include "update/update.h"

static qru_backend_ops orig, timed;
static double op_sec[QRU_OP_COUNT], sync_sec;
static long long op_calls[QRU_OP_COUNT];

#define TIMED_(name, params, args, need, stat)                                \
    static int tw_##name params                                                \
    {                                                                          \
        double t0 = bg_now();                                                  \
        int st = orig.name args;                                               \
        if (QRU_OP_##name != QRU_OP_sync)                                      \
            orig.sync(ctx);                                                    \
        op_sec[QRU_OP_##name] += bg_now() - t0 - sync_sec;                     \
        ++op_calls[QRU_OP_##name];                                             \
        return st;                                                             \
    }
QRU_OPS(TIMED_)
#undef TIMED_

static qru_matrix *rand_dev(qru_context *ctx, qru_dtype dt, int r, int c,
                            unsigned long long *seed)
{
    void *h = bg_alloc(dt, (size_t)r * c);
    bg_rand(dt, (size_t)r * c, h, seed);
    qru_matrix *M = NULL;
    bg_check(qru_matrix_create(ctx, dt, r, c, r, &M), "create");
    bg_check(qru_matrix_upload(M, h, r), "upload");
    free(h);
    return M;
}

static const char *const OPS[] = {"add_cols", "remove_cols", "add_rows",
                                  "remove_rows", "modify"};

/* The update's request (update.h) and its public call. */
static qru_upd_req request(int op, int k, int p, qru_matrix *U,
                           qru_matrix *e, qru_matrix *V)
{
    qru_upd_req rq = {op, k, p, U, e, NULL, NULL, QRU_UPDATE_FAST, V, -1};
    if (op == QRU_UPD_OP_REMOVE_COLS || op == QRU_UPD_OP_REMOVE_ROWS)
        rq.U = rq.e = NULL;
    if (op == QRU_UPD_OP_MODIFY)
        rq.k = 0;
    return rq;
}

static int run(qru_lsq *f, int op, int k, int p, qru_matrix *U,
               qru_matrix *e, qru_matrix *V)
{
    switch (op) {
    case QRU_UPD_OP_ADD_COLS:
        return qru_lsq_add_cols(f, k, U);
    case QRU_UPD_OP_REMOVE_COLS:
        return qru_lsq_remove_cols(f, k, p);
    case QRU_UPD_OP_ADD_ROWS:
        return qru_lsq_add_rows(f, k, U, e);
    case QRU_UPD_OP_REMOVE_ROWS:
        return qru_lsq_remove_rows(f, k, p);
    default:
        return qru_lsq_modify(f, U, V);
    }
}

static int cmp_desc(const void *a, const void *b)
{
    double x = op_sec[*(const int *)a], y = op_sec[*(const int *)b];
    return (x < y) - (x > y);
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr,
                "usage: bench_plan_ops OP FORM n m p k [-s | -p s|d|c|z]\n");
        return 2;
    }
    int op = -1;
    for (int i = 0; i < 5; ++i)
        if (!strcmp(argv[1], OPS[i]))
            op = i;
    int form = !strcmp(argv[2], "full")   ? QRU_Q_FULL
               : !strcmp(argv[2], "thin") ? QRU_Q_THIN
               : !strcmp(argv[2], "none") ? QRU_Q_NONE
                                          : -1;
    int n = atoi(argv[3]), m = atoi(argv[4]), p = atoi(argv[5]),
        k = atoi(argv[6]);
    qru_dtype dt = QRU_DOUBLE;
    int bad_type = 0;
    if (argc > 7 && !strcmp(argv[7], "-s"))
        dt = QRU_FLOAT;
    else if (argc > 8 && !strcmp(argv[7], "-p") && strlen(argv[8]) == 1) {
        const char *t = strchr("sdcz", argv[8][0]);
        static const qru_dtype types[] = {QRU_FLOAT, QRU_DOUBLE,
                                          QRU_COMPLEX_FLOAT,
                                          QRU_COMPLEX_DOUBLE};
        if (t && *t)
            dt = types[t - "sdcz"];
        else
            bad_type = 1;
    } else if (argc > 7)
        bad_type = 1;
    if (op < 0 || form < 0 || n < 1 || m < 1 || p < 1 || k < 0 || bad_type) {
        fprintf(stderr, "bench_plan_ops: bad arguments\n");
        return 2;
    }
    qru_context *ctx = qru_test_context();
    if (!ctx)
        return 77;
    bg_check(qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, 0), "lookahead");
    unsigned long long seed = 12345;
    qru_matrix *A = rand_dev(ctx, dt, n, m, &seed),
               *b = rand_dev(ctx, dt, n, 1, &seed);
    qru_matrix *U = NULL, *e = NULL, *V = NULL;
    if (op == QRU_UPD_OP_ADD_ROWS) {
        U = rand_dev(ctx, dt, p, m, &seed);
        e = rand_dev(ctx, dt, p, 1, &seed);
    } else if (op == QRU_UPD_OP_ADD_COLS) {
        U = rand_dev(ctx, dt, n, p, &seed);
    } else if (op == QRU_UPD_OP_MODIFY) {
        U = rand_dev(ctx, dt, n, p, &seed);
        V = rand_dev(ctx, dt, m, p, &seed);
    }
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = form;
    qru_lsq *f = NULL, *g = NULL;
    bg_check(qru_lsq_create(ctx, A, b, &opt, &f), "factor");
    bg_check(qru_lsq_create(ctx, A, b, &opt, &g), "factor");
    bg_check(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST), "algorithm");
    bg_check(qru_lsq_set_update_algorithm(g, QRU_UPDATE_FAST), "algorithm");
    bg_check(run(g, op, k, p, U, e, V), "warm-up");
    qru_upd_req rq = request(op, k, p, U, e, V);
    qru_plan pl;
    bg_check(qru_upd_plan(ctx, f, &rq, QRU_PATH_UPDATE, &pl), "plan");
    /* an empty synchronisation's time */
    double ts[101];
    for (int i = 0; i < 101; ++i) {
        double t0 = bg_now();
        ctx->ops->sync(ctx);
        ts[i] = bg_now() - t0;
    }
    sync_sec = bg_median(ts, 101);
    orig = *ctx->ops;
    timed = orig;
#define SET_(name, params, args, need, stat)                                  \
    if (orig.name)                                                             \
        timed.name = tw_##name;
    QRU_OPS(SET_)
#undef SET_
    const qru_backend_ops *keep = ctx->ops;
    ctx->ops = &timed;
    double t0 = bg_now();
    bg_check(run(f, op, k, p, U, e, V), "update");
    double total = bg_now() - t0;
    ctx->ops = keep;
    printf("%s, %s: %s %s n %d m %d p %d k %d; an empty sync %.1f us "
           "(taken off each op)\n",
           qru_context_device_name(ctx), bg_dtype_name(dt), OPS[op],
           argv[2], n, m, p, k, 1e6 * sync_sec);
    printf("%-18s %7s %7s %11s %11s %7s %11s\n", "op", "plan", "run",
           "priced us", "measured us", "ratio", "us a call");
    int ids[QRU_OP_COUNT];
    for (int i = 0; i < QRU_OP_COUNT; ++i)
        ids[i] = i;
    qsort(ids, QRU_OP_COUNT, sizeof ids[0], cmp_desc);
    double sum = 0.0;
    for (int j = 0; j < QRU_OP_COUNT; ++j) {
        int i = ids[j];
        if (!pl.calls[i] && !op_calls[i])
            continue;
        sum += op_sec[i];
        printf("%-18s %7lld %7lld %11.1f %11.1f %7.2f %11.1f\n",
               qru_op_name((qru_op_id)i), pl.calls[i], op_calls[i],
               1e6 * pl.op_seconds[i], 1e6 * op_sec[i],
               pl.op_seconds[i] > 0.0 ? op_sec[i] / pl.op_seconds[i] : NAN,
               op_calls[i] ? 1e6 * op_sec[i] / (double)op_calls[i] : 0.0);
    }
    printf("plan %.1f us (%lld calls, %lld host waits); the ops measured "
           "%.1f us, the whole timed run %.1f us\n",
           1e6 * qru_plan_seconds(&pl), qru_plan_calls(&pl), pl.host_waits,
           1e6 * sum, 1e6 * total);
    qru_lsq_destroy(f);
    qru_lsq_destroy(g);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    qru_matrix_destroy(U);
    qru_matrix_destroy(e);
    qru_matrix_destroy(V);
    qru_context_destroy(ctx);
    return 0;
}
