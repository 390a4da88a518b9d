/*
 * The update pipeline (QRU_UPDATE_AUTO and the caller's choices), written
 * once for both precisions.
 *
 * Every public update checks its arguments and hands the request to
 * qru_upd_run(), which chooses a strategy from the table below and runs
 * it: the caller's algorithm (QRU_UPDATE_DISSERTATION, QRU_UPDATE_FAST),
 * or with QRU_UPDATE_AUTO the cheaper by the cost model of the fast update
 * and a refactorisation (refactor.c), each strategy predicting its time
 * with the cost function next to its code:
 *
 *     time ~ sum_i flops_i / rate_i + calls * per_call (+ serial steps),
 *
 * with the constants of the context's tuning block (qru_cost_model).
 * The full and thin forms choose (each strategy's cost in its form); the
 * Q-less form always updates (there is no A to rebuild).  The
 * path of each successful update is recorded (qru_lsq_last_update_path()).
 * No strategy changes f's settings.
 */
#include "update.h"

int qru_lsq_set_update_algorithm(qru_lsq *f, qru_update_algorithm alg)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_ARG(f->ctx, 2,
            alg == QRU_UPDATE_DISSERTATION || alg == QRU_UPDATE_FAST ||
                alg == QRU_UPDATE_AUTO,
            "alg = %d is not a qru_update_algorithm", (int)alg);
    f->upd_alg = (int)alg;
    QRU_RET(f->ctx, 0);
}

int qru_lsq_update_algorithm(const qru_lsq *f) { return f ? f->upd_alg : -1; }

int qru_lsq_set_update_block_size(qru_lsq *f, int nb)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_ARG(f->ctx, 2, nb >= 0, "nb = %d, but nb must be >= 0 (0: the "
            "tuned default)", nb);
    f->upd_nb = nb;
    QRU_RET(f->ctx, 0);
}

int qru_lsq_update_block_size(const qru_lsq *f) { return f ? f->upd_nb : -1; }

/* The fast update's cost by operation (in each update's file). */
void qru_upd_fast_cost(const qru_lsq *f, const qru_context *ctx, int op,
                       int k, int p, qru_upd_cost *out)
{
    static void (*const cost_of[])(const qru_lsq *, const qru_context *, int,
                                   int, qru_upd_cost *) = {
        qru_upd_add_cols_cost, qru_upd_remove_cols_cost,
        qru_upd_add_rows_cost, qru_upd_remove_rows_cost,
        qru_upd_modify_cost};
    *out = (qru_upd_cost)QRU_UPD_COST_ZERO;
    cost_of[op](f, ctx, k, p, out);
}

double qru_upd_cost_seconds(const qru_lsq *f, const qru_context *ctx,
                            const qru_upd_cost *u)
{
    const qru_cost_model *c = &qru_ctx_tuning(ctx, f->dtype)->cost;
    double lane = u->flops_lane / c->rate_gemm;
    double first = (u->flops - u->flops_q) / c->rate_upd +
                   (u->flops_q - u->flops_lane) / c->rate_gemm +
                   u->calls * c->per_call + u->steps * c->col_step +
                   u->sweeps * c->sweep_step;
    return first > lane ? first : lane;
}

/* The predicted seconds of the fast update (qru_cost_model). */
static double fast_time(const qru_lsq *f, const qru_context *ctx, int op,
                        int k, int p)
{
    qru_upd_cost u = QRU_UPD_COST_ZERO;
    qru_upd_fast_cost(f, ctx, op, k, p, &u);
    return qru_upd_cost_seconds(f, ctx, &u);
}

/* The updates by operation (QRU_UPD_OP_*). */
static int run_update(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    static const qru_upd_fn update_of[] = {
        qru_upd_add_cols, qru_upd_remove_cols, qru_upd_add_rows,
        qru_upd_remove_rows, qru_upd_modify};
    return update_of[rq->op](ctx, f, rq);
}

int qru_upd_run(qru_context *ctx, qru_lsq *f, qru_upd_req rq)
{
    int path = QRU_PATH_UPDATE;
    rq.alg = f->upd_alg;
    if (rq.alg == QRU_UPDATE_AUTO) {
        rq.alg = QRU_UPDATE_FAST;
        if (f->q != QRU_Q_NONE) { /* Q-less: nothing to rebuild A from */
            if (qru_upd_refactor_time(f, ctx, rq.op, rq.p) <
                fast_time(f, ctx, rq.op, rq.k, rq.p))
                path = QRU_PATH_REFACTOR;
        }
    }
    int st = path == QRU_PATH_REFACTOR ? qru_upd_refactor(ctx, f, &rq)
                                       : run_update(ctx, f, &rq);
    if (st == 0)
        f->last_path = path;
    else /* an update that failed on the second queue (lane) leaves the
          * first current with the second's work ordered before it */
        (void)ctx->ops->lane_join(ctx);
    return st;
}

int qru_lsq_last_update_path(const qru_lsq *f)
{
    return f ? f->last_path : -1;
}
