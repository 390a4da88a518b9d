/*
 * The update pipeline (QRU_UPDATE_AUTO and the caller's choices), written
 * once for both precisions.
 *
 * Every public update checks its arguments and hands the request to
 * qru_upd_run(), which runs the caller's algorithm
 * (QRU_UPDATE_DISSERTATION, QRU_UPDATE_FAST, QRU_UPDATE_REFACTOR) or,
 * with QRU_UPDATE_AUTO, the faster of the fast update and a
 * refactorisation (refactor.c).  Each is priced by its plan: the strategy
 * itself run against the dry-run op table (src/plan.c), its ops timed by
 * the cost model of the context's tuning block for f's element type.  The
 * same pricing picks a strategy's own variants (qru_upd_variant: the
 * tiles or the sweeps, the band widths of the modification), and the
 * variant the winning plan picked is the one that runs.  The full and
 * thin forms choose; the Q-less form always updates (there is no A to
 * rebuild).  Each factorisation remembers the choices of its last four
 * kinds of request (sizes, algorithm, tuning generation), so a sliding
 * window or a chain of like updates plans once.  The path of each successful update is recorded
 * (qru_lsq_last_update_path()).  No strategy changes f's settings.
 */
#include <string.h>

#include "update.h"

int qru_lsq_set_update_algorithm(qru_lsq *f, qru_update_algorithm alg)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_ARG(f->ctx, 2,
            alg == QRU_UPDATE_DISSERTATION || alg == QRU_UPDATE_FAST ||
                alg == QRU_UPDATE_AUTO || alg == QRU_UPDATE_REFACTOR,
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
    memset(f->memo, 0, sizeof f->memo); /* chosen with the old size */
    QRU_RET(f->ctx, 0);
}

int qru_lsq_update_block_size(const qru_lsq *f) { return f ? f->upd_nb : -1; }

/* The updates by operation (QRU_UPD_OP_*). */
static int run_update(qru_context *ctx, qru_lsq *f, const void *arg)
{
    static const qru_upd_fn update_of[] = {
        qru_upd_add_cols, qru_upd_remove_cols, qru_upd_add_rows,
        qru_upd_remove_rows, qru_upd_modify};
    const qru_upd_req *rq = arg;
    return update_of[rq->op](ctx, f, rq);
}

static int run_refactor(qru_context *ctx, qru_lsq *f, const void *arg)
{
    return qru_upd_refactor(ctx, f, arg);
}

int qru_upd_plan(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                 int path, qru_plan *out)
{
    return qru_plan_run(ctx, f, f->dtype,
                        path == QRU_PATH_REFACTOR ? run_refactor : run_update,
                        rq, out);
}

/* *v := the one of the nc variants cand[] (NULL: 0 .. nc-1) whose update
 * plan is priced fastest, recorded in the plan being made, if any
 * (qru_upd_run then runs it). */
static int priced_pick(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                       const int *cand, int nc, int *v)
{
    double tbest = -1.0;
    for (int i = 0; i < nc; ++i) {
        qru_upd_req r2 = *rq;
        qru_plan pl;
        r2.variant = cand ? cand[i] : i;
        int st = qru_upd_plan(ctx, f, &r2, QRU_PATH_UPDATE, &pl);
        if (st) /* a dry run fails only where the run would (memory) */
            return st;
        double t = qru_plan_seconds(&pl);
        if (tbest < 0.0 || t < tbest) {
            tbest = t;
            *v = r2.variant;
        }
    }
    if (ctx->plan) /* the pick of the plan being made (qru_upd_run) */
        ctx->plan->variant = *v;
    return 0;
}

int qru_upd_variant(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                    int nvar, int *v)
{
    if (rq->variant >= 0) {
        *v = rq->variant;
        return 0;
    }
    return priced_pick(ctx, f, rq, NULL, nvar, v);
}

int qru_upd_p1_variant(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                       int *v)
{
    *v = 0;
    /* complex data: neither (the chains' rotations and the rank-1 passes
     * have no complex ops yet: the knobs upd_givens and upd_r1 do not
     * apply) */
    if (rq->p != 1 || rq->alg != QRU_UPDATE_FAST ||
        qru_dtype_complex(f->dtype))
        return 0;
    const qru_tuning *t = qru_ctx_tuning(ctx, f->dtype);
    int can_r1 = rq->op == QRU_UPD_OP_ADD_ROWS ||
                 rq->op == QRU_UPD_OP_REMOVE_COLS ||
                 rq->op == QRU_UPD_OP_REMOVE_ROWS;
    if (can_r1 && t->upd_r1 == 2) {
        *v = QRU_UPD_VARIANT_R1;
        return 0;
    }
    if (t->upd_givens == 2) {
        *v = QRU_UPD_VARIANT_GIVENS;
        return 0;
    }
    if (rq->variant >= 0) {
        if (rq->variant == QRU_UPD_VARIANT_GIVENS ||
            rq->variant == QRU_UPD_VARIANT_R1)
            *v = rq->variant;
        return 0;
    }
    /* the candidates whose knob is auto; variant 0's dry run runs the
     * strategy's own variants */
    int cand[3], nc = 0;
    cand[nc++] = 0;
    if (t->upd_givens == 0)
        cand[nc++] = QRU_UPD_VARIANT_GIVENS;
    if (can_r1 && t->upd_r1 == 0)
        cand[nc++] = QRU_UPD_VARIANT_R1;
    return nc == 1 ? 0 : priced_pick(ctx, f, rq, cand, nc, v);
}

int qru_upd_p1_run(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                   int *done)
{
    int v;
    *done = 0;
    QRU_TRY(qru_upd_p1_variant(ctx, f, rq, &v));
    if (v == QRU_UPD_VARIANT_R1)
        return qru_upd_row_r1(ctx, f, rq, done);
    return qru_upd_chain_run(ctx, f, rq, done);
}

int qru_upd_givens_pick(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                        int *givens)
{
    int v;
    QRU_TRY(qru_upd_p1_variant(ctx, f, rq, &v));
    *givens = v == QRU_UPD_VARIANT_GIVENS;
    return 0;
}

/* The remembered choice of a request like rq with algorithm alg, or
 * NULL: plans depend on the request's sizes, f's form and settings and
 * the context's tuning, nothing else. */
static struct qru_upd_memo *memo_find(qru_context *ctx, qru_lsq *f,
                                      const qru_upd_req *rq, int alg)
{
    for (int i = 0; i < QRU_UPD_MEMO; ++i) {
        struct qru_upd_memo *e = &f->memo[i];
        if (e->valid && e->op == rq->op && e->n == f->n && e->m == f->m &&
            e->r == f->r && e->p == rq->p && e->k == rq->k &&
            e->alg == alg && e->gen == ctx->tuning_gen)
            return e;
    }
    return NULL;
}

static void memo_put(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                     int alg, int path, int variant)
{
    struct qru_upd_memo *e = &f->memo[f->memo_next];
    f->memo_next = (f->memo_next + 1) % QRU_UPD_MEMO;
    *e = (struct qru_upd_memo){1, rq->op, f->n, f->m, f->r, rq->p, rq->k,
                               alg, path, variant, ctx->tuning_gen};
}

/* The path and variant of rq under f's algorithm: remembered, or from
 * the plans (AUTO with Q: the faster of the update's and the
 * refactorisation's; FAST: the variant the update's plan picks). */
static int choose(qru_context *ctx, qru_lsq *f, qru_upd_req *rq, int *path)
{
    int alg = f->upd_alg;
    struct qru_upd_memo *e = memo_find(ctx, f, rq, alg);
    if (e) {
        *path = e->path;
        rq->variant = e->variant;
        return 0;
    }
    qru_plan pu, pr;
    /* a dry run fails only where the run would (memory) */
    QRU_TRY(qru_upd_plan(ctx, f, rq, QRU_PATH_UPDATE, &pu));
    *path = QRU_PATH_UPDATE;
    if (alg == QRU_UPDATE_AUTO && f->q != QRU_Q_NONE) {
        QRU_TRY(qru_upd_plan(ctx, f, rq, QRU_PATH_REFACTOR, &pr));
        if (qru_plan_seconds(&pr) < qru_plan_seconds(&pu))
            *path = QRU_PATH_REFACTOR;
    }
    rq->variant = *path == QRU_PATH_UPDATE ? pu.variant : -1;
    memo_put(ctx, f, rq, alg, *path, rq->variant);
    return 0;
}

int qru_upd_run(qru_context *ctx, qru_lsq *f, qru_upd_req rq)
{
    int path = QRU_PATH_UPDATE;
    rq.alg = f->upd_alg == QRU_UPDATE_DISSERTATION ? QRU_UPDATE_DISSERTATION
                                                   : QRU_UPDATE_FAST;
    rq.variant = -1;
    if (f->upd_alg == QRU_UPDATE_REFACTOR && f->q != QRU_Q_NONE)
        path = QRU_PATH_REFACTOR;
    else if (f->upd_alg != QRU_UPDATE_DISSERTATION)
        QRU_TRY(choose(ctx, f, &rq, &path));
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
