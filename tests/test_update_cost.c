/*
 * The update policy's cost model against the work the updates queue: for
 * each operation (and the rank-k modification A + U V'), at shapes with p = 1 and larger p, k at both ends and in
 * the middle, the backend calls that qru_upd_fast_cost() predicts for the
 * fast update (the count QRU_UPDATE_AUTO weighs) are compared with the
 * calls the context statistics count while the update runs.  A change to
 * an update that the model does not follow fails here.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../src/update/update.h"
#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

/* The calls of one fast update of op at (n, m, p, k), r = 1, with Q:
 * *pred from the model, *counted from the statistics. */
static void calls_of(qru_dtype dt, int op, int n, int m, int p, int k,
                     double *pred, long long *counted)
{
    unsigned seed = 1234u + (unsigned)(op * 7919 + n * 31 + m * 17 + p + k);
    void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, 1, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    qru_test_rand(dt, n, 1, b, n, &seed);
    qru_matrix *dA = qru_test_upload(ctx, dt, n, m, 0, A, n);
    qru_matrix *db = qru_test_upload(ctx, dt, n, 1, 0, b, n);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_FULL;
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, dA, db, &opt, &f), 0);
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
    qru_lsq_destroy(f);
    qru_matrix_destroy(dA);
    qru_matrix_destroy(db);
    qru_matrix_destroy(U);
    qru_matrix_destroy(e);
    free(A);
    free(b);
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

static Suite *suite(void)
{
    Suite *s = suite_create("update_cost");
    TCase *tc = tcase_create("update_cost");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_fast_calls, 0, 3 * NOPS);
    tcase_add_loop_test(tc, test_tiles_calls, 0, 6);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
