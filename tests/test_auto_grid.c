/*
 * QRU_UPDATE_AUTO against the clock: over a grid of updates in the full
 * and thin forms (a few rows or columns of a tall problem, most of A
 * changed, sliding windows, rank-k modifications), each update is timed
 * with QRU_UPDATE_FAST, QRU_UPDATE_REFACTOR and QRU_UPDATE_AUTO, the three
 * interleaved, the fastest of REPS runs each (a loaded machine only adds
 * time; every timed update is followed by an untimed one that restores
 * the shape).  The path AUTO takes must take no more than 10% longer
 * than the faster of the two paths measured in the same run, plus SLACK
 * seconds (the timer and the host's noise on the smallest updates).  The
 * time of AUTO's path is the faster of AUTO's own runs and the forced
 * path's (FAST runs the update's plan with the variant AUTO runs,
 * REFACTOR the same refactorisation), so that the noise of a loaded host
 * on one of two runs of the same work does not count against the choice;
 * a point that fails is measured again, twice at most.  The table it prints is the one docs/performance.md shows
 * (its large grid, on a GPU).
 *
 * The grid scales with the backend: QRU_AUTO_GRID=large (scripts/gpu-check)
 * adds the benchmark sizes and the thin slide of 10^6 rows.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../src/update/update.h"
#include "qru_test.h"

enum { ADD_COLS, REMOVE_COLS, ADD_ROWS, REMOVE_ROWS, MODIFY };
static const char *const opname[] = {"add_cols", "remove_cols", "add_rows",
                                     "remove_rows", "modify"};
enum { REPS = 7 };
#define SLACK 20e-6

typedef struct point {
    int q, op, n, m, p, k;
} point;

/* The grid for the CI backends: small enough for a loaded 2-core
 * machine, with both paths winning somewhere. */
static const point small[] = {
    {QRU_Q_FULL, ADD_ROWS, 800, 20, 1, 400},
    {QRU_Q_FULL, REMOVE_ROWS, 800, 20, 2, 100},
    {QRU_Q_FULL, ADD_COLS, 600, 20, 1, 20},
    {QRU_Q_FULL, REMOVE_COLS, 600, 30, 1, 20},
    {QRU_Q_FULL, REMOVE_ROWS, 300, 40, 250, 0},
    {QRU_Q_FULL, ADD_COLS, 150, 3, 120, 1},
    {QRU_Q_FULL, REMOVE_COLS, 121, 120, 110, 0},
    {QRU_Q_FULL, MODIFY, 400, 100, 1, 0},
    {QRU_Q_FULL, MODIFY, 300, 100, 64, 0},
    {QRU_Q_THIN, REMOVE_ROWS, 4000, 50, 10, 0},
    {QRU_Q_THIN, ADD_ROWS, 4000, 50, 10, 3990},
    {QRU_Q_THIN, REMOVE_ROWS, 2000, 100, 1500, 0},
    {QRU_Q_THIN, ADD_COLS, 2000, 50, 5, 25},
    {QRU_Q_THIN, REMOVE_COLS, 2000, 60, 50, 0},
    {QRU_Q_THIN, MODIFY, 2000, 50, 4, 0},
};
/* The benchmark sizes of a GPU (docs/benchmarks.md) and the thin slide
 * of 10^6 rows. */
static const point large[] = {
    {QRU_Q_FULL, ADD_ROWS, 8000, 1000, 100, 4000},
    {QRU_Q_FULL, REMOVE_ROWS, 8000, 1000, 100, 0},
    {QRU_Q_FULL, ADD_COLS, 8000, 1000, 100, 500},
    {QRU_Q_FULL, REMOVE_COLS, 8000, 1000, 100, 500},
    {QRU_Q_FULL, REMOVE_ROWS, 8000, 1000, 6000, 0},
    {QRU_Q_FULL, MODIFY, 8000, 1000, 16, 0},
    {QRU_Q_THIN, REMOVE_ROWS, 1000000, 500, 100, 0},
    {QRU_Q_THIN, ADD_ROWS, 1000000, 500, 100, 999900},
    {QRU_Q_THIN, ADD_COLS, 200000, 500, 50, 250},
    {QRU_Q_THIN, REMOVE_COLS, 200000, 500, 50, 250},
    {QRU_Q_THIN, REMOVE_COLS, 200000, 500, 450, 0},
    {QRU_Q_THIN, MODIFY, 200000, 500, 8, 0},
};

QRU_TEST_FIXTURE

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static qru_matrix *rand_dev(qru_dtype dt, int r, int c, unsigned *seed)
{
    void *h = qru_test_alloc(dt, r, c, r);
    qru_test_rand(dt, r, c, h, r, seed);
    qru_matrix *M = qru_test_upload(ctx, dt, r, c, 0, h, r);
    free(h);
    return M;
}

/* The inputs of the point's update and of the one that undoes its shape. */
typedef struct inputs {
    qru_matrix *U, *e, *V, *Ur, *er, *Uc;
} inputs;

static int run_op(qru_lsq *f, const point *pt, const inputs *in, int undo)
{
    int op = pt->op;
    if (undo) /* restore the shape: the inverse update */
        op = op == ADD_COLS      ? REMOVE_COLS
             : op == REMOVE_COLS ? ADD_COLS
             : op == ADD_ROWS    ? REMOVE_ROWS
             : op == REMOVE_ROWS ? ADD_ROWS
                                 : MODIFY;
    switch (op) {
    case ADD_COLS:
        return qru_lsq_add_cols(f, pt->k, undo ? in->Uc : in->U);
    case REMOVE_COLS:
        return qru_lsq_remove_cols(f, pt->k, pt->p);
    case ADD_ROWS:
        return qru_lsq_add_rows(f, pt->k, undo ? in->Ur : in->U,
                                undo ? in->er : in->e);
    case REMOVE_ROWS:
        return qru_lsq_remove_rows(f, pt->k, pt->p);
    default:
        return qru_lsq_modify(f, in->U, in->V);
    }
}

/* The cost model's prices of the point's update and refactorisation (the
 * plans AUTO chooses by), in seconds: printed beside the times. */
static void priced(qru_lsq *f, const point *pt, const inputs *in,
                   double *sec)
{
    static const int ops[] = {[ADD_COLS] = QRU_UPD_OP_ADD_COLS,
                              [REMOVE_COLS] = QRU_UPD_OP_REMOVE_COLS,
                              [ADD_ROWS] = QRU_UPD_OP_ADD_ROWS,
                              [REMOVE_ROWS] = QRU_UPD_OP_REMOVE_ROWS,
                              [MODIFY] = QRU_UPD_OP_MODIFY};
    qru_upd_req rq = {ops[pt->op], pt->op == MODIFY ? 0 : pt->k, pt->p,
                      in->U, in->e, NULL, NULL, QRU_UPDATE_FAST, in->V, -1};
    for (int path = 0; path < 2; ++path) {
        qru_plan pl;
        ck_assert_int_eq(qru_upd_plan(ctx, f, &rq,
                                      path ? QRU_PATH_REFACTOR
                                           : QRU_PATH_UPDATE,
                                      &pl),
                         0);
        sec[path] = qru_plan_seconds(&pl);
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Times the point; returns 1 if AUTO is within the bound. */
static int check_point(qru_dtype dt, const point *pt)
{
    unsigned seed = 97u + (unsigned)(pt->op * 1009 + pt->n + pt->m * 7 +
                                     pt->p * 13 + pt->k);
    int n = pt->n, m = pt->m, p = pt->p;
    qru_matrix *A = rand_dev(dt, n, m, &seed), *b = rand_dev(dt, n, 1, &seed);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = pt->q;
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, &opt, &f), 0);
    inputs in = {NULL, NULL, NULL, NULL, NULL, NULL};
    if (pt->op == ADD_ROWS) {
        in.U = rand_dev(dt, p, m, &seed);
        in.e = rand_dev(dt, p, 1, &seed);
    } else if (pt->op == ADD_COLS) {
        in.U = rand_dev(dt, n, p, &seed);
    } else if (pt->op == MODIFY) {
        in.U = rand_dev(dt, n, p, &seed);
        in.V = rand_dev(dt, m, p, &seed);
    } else if (pt->op == REMOVE_ROWS) {
        in.Ur = rand_dev(dt, p, m, &seed);
        in.er = rand_dev(dt, p, 1, &seed);
    } else {
        in.Uc = rand_dev(dt, n, p, &seed);
    }
    static const int algs[3] = {QRU_UPDATE_FAST, QRU_UPDATE_REFACTOR,
                                QRU_UPDATE_AUTO};
    double t[3][REPS];
    int refactored = 0;
    /* rep -1: the warm-up; the order of the three turns each rep, so that
     * none always follows the same one (a refactorisation leaves caches
     * and buffers behind that slow the next call on some backends) */
    for (int rep = -1; rep < REPS; ++rep)
        for (int j = 0; j < 3; ++j) {
            int a = (j + rep + 1) % 3;
            ck_assert_int_eq(qru_lsq_set_update_algorithm(f, algs[a]), 0);
            ck_assert_int_eq(qru_context_sync(ctx), 0);
            double t0 = now();
            int st = run_op(f, pt, &in, 0);
            ck_assert_int_eq(qru_context_sync(ctx), 0);
            double t1 = now();
            ck_assert_msg(st == 0, "%s: status %d", opname[pt->op], st);
            if (rep >= 0)
                t[a][rep] = t1 - t0;
            if (a == 2 && rep >= 0)
                refactored += qru_lsq_last_update_path(f) ==
                              QRU_PATH_REFACTOR;
            ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST),
                             0);
            if (pt->op != MODIFY)
                ck_assert_int_eq(run_op(f, pt, &in, 1), 0);
        }
    double med[3], plan[2];
    priced(f, pt, &in, plan);
    for (int a = 0; a < 3; ++a) {
        qsort(t[a], REPS, sizeof(double), cmp);
        med[a] = t[a][0];
    }
    double best = med[0] < med[1] ? med[0] : med[1];
    /* the path AUTO took in most runs (the choice is remembered, so all) */
    int path = refactored > REPS / 2;
    double mine = med[2] < med[path] ? med[2] : med[path];
    int ok = mine <= 1.10 * best + SLACK;
    printf("%-5s %-11s %8d %5d %6d %7d | %10.1f %10.1f %10.1f | %8.1f "
           "%8.1f | %5.2f %s %s\n",
           pt->q == QRU_Q_THIN ? "thin" : "full", opname[pt->op], n, m, p,
           pt->k, 1e6 * med[0], 1e6 * med[1], 1e6 * med[2], 1e6 * plan[0],
           1e6 * plan[1], mine / best,
           path ? "refactor" : "update  ",
           ok ? "ok" : "SLOWER");
    fflush(stdout);
    qru_lsq_destroy(f);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    qru_matrix_destroy(in.U);
    qru_matrix_destroy(in.e);
    qru_matrix_destroy(in.V);
    qru_matrix_destroy(in.Ur);
    qru_matrix_destroy(in.er);
    qru_matrix_destroy(in.Uc);
    return ok;
}

START_TEST(test_auto_grid)
{
    const char *g = getenv("QRU_AUTO_GRID");
    int big = g && strcmp(g, "large") == 0;
    const point *grid = big ? large : small;
    size_t np = big ? sizeof large / sizeof *large
                    : sizeof small / sizeof *small;
    int bad = 0;
    /* the large grid in double: at 10^6 rows float's rank rule
     * (2 max(n, m) eps = 0.12) refuses the row removals */
    for (int d = big ? qru_test_ndtypes(ctx) - 1 : 0;
         d < qru_test_ndtypes(ctx); ++d) {
        qru_dtype dt = qru_test_dtype(ctx, d);
        printf("%s, %s: form  update          n     m      p       k |"
               "   fast(us) refact(us)   auto(us) | priced fast / refact | "
               "path/best path\n",
               qru_context_device_name(ctx),
               dt == QRU_DOUBLE ? "double" : "float");
        for (size_t i = 0; i < np; ++i) {
            /* a point measured slower is measured again (twice at most):
             * load on the machine comes and goes */
            int ok = 0;
            for (int attempt = 0; !ok && attempt < 3; ++attempt)
                ok = check_point(dt, &grid[i]);
            bad += !ok;
        }
    }
    ck_assert_msg(bad == 0,
                  "%d grid points: AUTO more than 10%% (+%g us) slower than "
                  "the faster path",
                  bad, 1e6 * SLACK);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("auto_grid");
    TCase *tc = tcase_create("auto_grid");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 1200);
    tcase_add_test(tc, test_auto_grid);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
