/*
 * The update policy's cost model against the work the updates queue: for
 * each operation (and the rank-k modification A + U V'), at shapes with p = 1 and larger p, k at both ends and in
 * the middle, the backend calls that qru_upd_fast_cost() predicts for the
 * fast update (the count QRU_UPDATE_AUTO weighs) are compared with the
 * calls the context statistics count while the update runs.  A change to
 * an update that the model does not follow fails here.  Also: the seconds
 * of a cost (flops on Q at rate_gemm, the second queue's as a queue of
 * their own), and the modification's widths
 * within the model's panel_rows.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../src/qru_flops.h"
#include "../src/update/update.h"
#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

/* A least-squares problem of n x m random A and b (r = 1, from *seed,
 * which moves on), with the full Q, on the device. */
typedef struct prob {
    void *A, *b;
    qru_matrix *dA, *db;
    qru_lsq *f;
} prob;

static prob prob_new(qru_dtype dt, int n, int m, unsigned *seed)
{
    prob p;
    p.A = qru_test_alloc(dt, n, m, n);
    p.b = qru_test_alloc(dt, n, 1, n);
    qru_test_rand(dt, n, m, p.A, n, seed);
    qru_test_rand(dt, n, 1, p.b, n, seed);
    p.dA = qru_test_upload(ctx, dt, n, m, 0, p.A, n);
    p.db = qru_test_upload(ctx, dt, n, 1, 0, p.b, n);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_FULL;
    p.f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, p.dA, p.db, &opt, &p.f), 0);
    return p;
}

static void prob_free(prob *p)
{
    qru_lsq_destroy(p->f);
    qru_matrix_destroy(p->dA);
    qru_matrix_destroy(p->db);
    free(p->A);
    free(p->b);
}

/* The calls of one fast update of op at (n, m, p, k), r = 1, with Q:
 * *pred from the model, *counted from the statistics. */
static void calls_of(qru_dtype dt, int op, int n, int m, int p, int k,
                     double *pred, long long *counted)
{
    unsigned seed = 1234u + (unsigned)(op * 7919 + n * 31 + m * 17 + p + k);
    prob pr = prob_new(dt, n, m, &seed);
    qru_lsq *f = pr.f;
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST), 0);
    qru_matrix *U = NULL, *e = NULL;
    int ur = op == QRU_UPD_OP_ADD_ROWS ? p : n;
    int uc = op == QRU_UPD_OP_ADD_ROWS ? m : p;
    if (op == QRU_UPD_OP_ADD_ROWS || op == QRU_UPD_OP_ADD_COLS ||
        op == QRU_UPD_OP_MODIFY) {
        void *hu = qru_test_alloc(dt, ur, uc, ur);
        qru_test_rand(dt, ur, uc, hu, ur, &seed);
        U = qru_test_upload(ctx, dt, ur, uc, 0, hu, ur);
        free(hu);
        /* e: the rows' right-hand sides, or V (m x p) of U V' */
        int er = op == QRU_UPD_OP_MODIFY ? m : p;
        int ec = op == QRU_UPD_OP_MODIFY ? p : 1;
        if (op != QRU_UPD_OP_ADD_COLS) {
            void *he = qru_test_alloc(dt, er, ec, er);
            qru_test_rand(dt, er, ec, he, er, &seed);
            e = qru_test_upload(ctx, dt, er, ec, 0, he, er);
            free(he);
        }
    }
    qru_upd_cost c = QRU_UPD_COST_ZERO;
    qru_upd_fast_cost(f, ctx, op, k, p, &c);
    *pred = c.calls;
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    int st = op == QRU_UPD_OP_ADD_COLS      ? qru_lsq_add_cols(f, k, U)
             : op == QRU_UPD_OP_REMOVE_COLS ? qru_lsq_remove_cols(f, k, p)
             : op == QRU_UPD_OP_ADD_ROWS    ? qru_lsq_add_rows(f, k, U, e)
             : op == QRU_UPD_OP_MODIFY      ? qru_lsq_modify(f, U, e)
                                            : qru_lsq_remove_rows(f, k, p);
    ck_assert_int_eq(st, 0);
    qru_context_stats s;
    ck_assert_int_eq(qru_context_get_stats(ctx, &s), 0);
    *counted = s.calls;
    prob_free(&pr);
    qru_matrix_destroy(U);
    qru_matrix_destroy(e);
}

static const char *const opname[] = {"add_cols", "remove_cols", "add_rows",
                                     "remove_rows", "modify"};
enum { NOPS = 5 };

/* The shapes: n, m, p (k: 0, middle, end). */
static const int shapes[][3] = {{60, 20, 1}, {90, 40, 7}, {120, 50, 20}};

/* Predicted against counted calls of op at shape sh, k at 0, the middle
 * and the end (what: a prefix for the messages). */
static void check_shape(qru_dtype dt, int op, int sh, const char *what)
{
    int n = shapes[sh][0], m = shapes[sh][1], p = shapes[sh][2];
    for (int pos = 0; pos < 3; ++pos) {
        int kmax = op == QRU_UPD_OP_ADD_COLS      ? m
                   : op == QRU_UPD_OP_REMOVE_COLS ? m - p
                   : op == QRU_UPD_OP_ADD_ROWS    ? n
                   : op == QRU_UPD_OP_MODIFY      ? 0 /* no position */
                                                  : n - p;
        int k = pos == 0 ? 0 : pos == 1 ? kmax / 2 : kmax;
        double pred;
        long long got;
        calls_of(dt, op, n, m, p, k, &pred, &got);
        printf("%s%s n %d m %d p %d k %d: predicted %.0f, counted %lld\n",
               what, opname[op], n, m, p, k, pred, got);
        ck_assert_msg(fabs(pred - (double)got) <= 0.05 * (double)got + 6.0,
                      "%s%s n %d m %d p %d k %d: predicted %.0f calls, "
                      "counted %lld",
                      what, opname[op], n, m, p, k, pred, got);
    }
}

/* _i: operation x shape */
START_TEST(test_fast_calls)
{
    check_shape(qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1), _i % NOPS,
                _i / NOPS, "");
}
END_TEST

/* The Householder tiles (QRU_TUNE_UPDATE_TILES = 2: always) of adding
 * columns and removing rows at the same shapes; _i: shape x op */
START_TEST(test_tiles_calls)
{
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_UPDATE_TILES, 2), 0);
    check_shape(dt, _i / 3 ? QRU_UPD_OP_REMOVE_ROWS : QRU_UPD_OP_ADD_COLS,
                _i % 3, "tiles ");
}
END_TEST

/* The thresholds of the accumulated Givens sweeps (the tuning's private
 * sweeps_acc_min_p and sweeps_acc_nb) in adding columns and removing
 * rows, with the sweeps (no tiles): p = 20 below sweeps_acc_min_p runs
 * the rotations step by step (no givens_accum), at or above it in groups
 * of max(p, sweeps_acc_nb); the model follows either way.  _i: op. */
START_TEST(test_sweeps_acc_calls)
{
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    int op = _i ? QRU_UPD_OP_REMOVE_ROWS : QRU_UPD_OP_ADD_COLS;
    int n = 120, m = 50, p = 20;
    long long got[2];
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_UPDATE_TILES, 1), 0);
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_SWEEPS_ACC_NB, 8), 0);
    for (int acc = 0; acc < 2; ++acc) {
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt,
                                            QRU_TUNE_SWEEPS_ACC_MIN_P,
                                            acc ? p : p + 1),
                         0);
        ck_assert_int_eq(qru_upd_sweeps_block(ctx, dt, m, p), acc ? p : 0);
        double pred;
        calls_of(dt, op, n, m, p, 0, &pred, &got[acc]);
        long long ga = qru_ctx_op_calls(ctx, QRU_OP_givens_accum);
        printf("sweeps %s: %s n %d m %d p %d k 0: predicted %.0f, counted "
               "%lld, givens_accum %lld\n",
               acc ? "accumulated" : "step by step", opname[op], n, m, p,
               pred, got[acc], ga);
        ck_assert_msg(fabs(pred - (double)got[acc]) <=
                          0.05 * (double)got[acc] + 6.0,
                      "%s: predicted %.0f calls, counted %lld", opname[op],
                      pred, got[acc]);
        /* (a reference op is not counted) */
        if (qru_op_native(ctx, QRU_OP_givens_accum))
            ck_assert_msg(acc ? ga > 0 : ga == 0, "%s: givens_accum %lld",
                          opname[op], ga);
    }
    ck_assert_msg(got[0] != got[1], "%s: %lld calls either way", opname[op],
                  got[0]);
}
END_TEST

/* The modification with look-ahead on (and off: the other of the
 * backend's default), whose copies, queue switches and Q/d applications
 * the model counts apart; _i: shape x (off, on) */
START_TEST(test_modify_lookahead_calls)
{
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    int on = _i % 2;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, on),
                     0);
    check_shape(dt, QRU_UPD_OP_MODIFY, _i / 2,
                on ? "lookahead on: " : "lookahead off: ");
}
END_TEST

/* The seconds of a cost: flops_q (GEMMs over Q's n rows) at rate_gemm,
 * the other flops at rate_upd, and the calls, steps and sweeps. */
START_TEST(test_cost_seconds)
{
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    qru_cost_model *c = &qru_ctx_tuning(ctx, dt)->cost;
    *c = (qru_cost_model){.rate_upd = 1e9, .rate_gemm = 4e9, .per_call = 1e-6,
                          .col_step = 2e-6, .sweep_step = 3e-6};
    unsigned seed = 77u;
    prob pr = prob_new(dt, 12, 5, &seed);
    qru_lsq *f = pr.f;
    qru_upd_cost u = {.flops = 3e9, .flops_q = 2e9, .calls = 10.0,
                      .steps = 100.0, .sweeps = 1000.0};
    double want = 1e9 / 1e9 + 2e9 / 4e9 + 10e-6 + 200e-6 + 3000e-6;
    ck_assert_msg(fabs(qru_upd_cost_seconds(f, ctx, &u) - want) <= 1e-12,
                  "cost seconds %.9g, want %.9g",
                  qru_upd_cost_seconds(f, ctx, &u), want);
    /* flops_lane (of flops_q) on the second queue: the longer queue */
    u.flops_lane = 1e9; /* 0.25 s beside the first queue's rest */
    want -= 1e9 / 4e9;
    ck_assert_msg(fabs(qru_upd_cost_seconds(f, ctx, &u) - want) <= 1e-12,
                  "cost seconds with a lane %.9g, want %.9g",
                  qru_upd_cost_seconds(f, ctx, &u), want);
    u.flops_q = u.flops_lane = 2e10; /* the second queue the longer: 5 s */
    u.flops = 2.1e10;
    ck_assert_msg(fabs(qru_upd_cost_seconds(f, ctx, &u) - 5.0) <= 1e-12,
                  "cost seconds of a longer lane %.9g, want 5",
                  qru_upd_cost_seconds(f, ctx, &u));
    prob_free(&pr);
}
END_TEST

/* The rows of the fused panels of the modification's widths (w, mult), as
 * md_plan_with (modify.c) forms them, and the flops they give; *fits:
 * both within rows. */
static double md_pair(const qru_lsq *f, int k, int w, int mult, int rows,
                      int *fits)
{
    int n = f->n, m = f->m, top = n - m > k ? m + k : n;
    int nb1 = mult * (k > w ? k : w);
    nb1 = nb1 < top ? nb1 : top > 1 ? top : 1;
    int b = nb1 + k - 1 < top - 1 ? nb1 + k - 1 : top - 1;
    int mx = qru_upd_fused_nb(f, ctx, m, b);
    int nb2 = w < mx ? w : mx;
    *fits = nb1 + k <= rows && nb2 + b <= rows;
    return flops_modify(n, m, k, f->r, 0,
                        qru_upd_house_nb(f, ctx, QRU_UPDATE_FAST, n - m, k),
                        nb1, nb2);
}

/* Whether every width pair whose flops are the plan's (cost u) fits in
 * rows (1), none does (0), or no pair matches (-1). */
static int md_plan_fits(const qru_lsq *f, int k, const qru_upd_cost *u,
                        int rows)
{
    int any = 0, all = 1, none = 1;
    for (int w = 8; w <= 64; w *= 2)
        for (int mult = 1; mult <= 4; mult *= 2) {
            int fits;
            if (md_pair(f, k, w, mult, rows, &fits) != u->flops)
                continue;
            any = 1;
            all &= fits;
            none &= !fits;
        }
    return !any ? -1 : all ? 1 : none ? 0 : -2;
}

/* Whether some width pair fits its panels in rows. */
static int md_some_fits(const qru_lsq *f, int k, int rows)
{
    for (int w = 8; w <= 64; w *= 2)
        for (int mult = 1; mult <= 4; mult *= 2) {
            int fits;
            md_pair(f, k, w, mult, rows, &fits);
            if (fits)
                return 1;
        }
    return 0;
}

/* The modification's widths keep its fused panels within the cost model's
 * panel_rows where some pair fits: with calls priced high the model
 * takes the widest pair the device's panels allow (on PoCL panels of 216
 * and 271 rows at n = 400, m = 200, k = 8; a device with less local
 * memory caps the on-chip width, so its widest plan is shorter); with
 * panel_rows set to the first of 200, 100, 60 rows that this plan
 * exceeds and some pair fits, it takes a pair within that limit. */
START_TEST(test_modify_panel_rows)
{
    static const int limits[] = {200, 100, 60};
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    if (!qru_use_fused_panel(ctx))
        return; /* the widths of the dissertation's algorithm: no choice */
    qru_cost_model *c = &qru_ctx_tuning(ctx, dt)->cost;
    c->per_call = 1.0;
    int k = 8, tested = 0;
    unsigned seed = 99u;
    prob pr = prob_new(dt, 400, 200, &seed);
    qru_lsq *f = pr.f;
    qru_upd_cost u0 = QRU_UPD_COST_ZERO;
    c->panel_rows = 0.0;
    qru_upd_modify_cost(f, ctx, 0, k, &u0);
    for (size_t i = 0; !tested && i < sizeof limits / sizeof *limits; ++i) {
        int rows = limits[i];
        if (md_plan_fits(f, k, &u0, rows) != 0 || !md_some_fits(f, k, rows))
            continue;
        qru_upd_cost u = QRU_UPD_COST_ZERO;
        c->panel_rows = rows;
        qru_upd_modify_cost(f, ctx, 0, k, &u);
        ck_assert_msg(md_plan_fits(f, k, &u, rows) == 1,
                      "panel_rows = %d: the plan's panels exceed it", rows);
        tested = 1;
    }
    ck_assert_msg(tested, "the widest plan fits in 60 rows: no limit tested");
    prob_free(&pr);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("update_cost");
    TCase *tc = tcase_create("update_cost");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_fast_calls, 0, 3 * NOPS);
    tcase_add_loop_test(tc, test_tiles_calls, 0, 6);
    tcase_add_loop_test(tc, test_modify_lookahead_calls, 0, 6);
    tcase_add_loop_test(tc, test_sweeps_acc_calls, 0, 2);
    tcase_add_test(tc, test_cost_seconds);
    tcase_add_test(tc, test_modify_panel_rows);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
