/* QRU_UPDATE_AUTO (src/update/policy.c): each update of a factorisation
 * with Q either runs the FAST update or refactorises the updated matrix,
 * as a cost model predicts.  Checked here:
 *  - shapes where the model must pick each path (tiny updates of a tall
 *    problem: the update; updates that change most of A: the
 *    refactorisation; where the two are close, tests/test_auto_grid.c
 *    measures them), seen through qru_lsq_last_update_path(), and the
 *    result held to the checks of the other algorithms (update_check.h:
 *    backward error, orthogonality, d = Q'b, LAPACKE gels on A1);
 *  - the same in the thin form (paths and chains);
 *  - R-only factorisations always update;
 *  - bad arguments, QRU_ERR_NO_Q and the add-columns rank check leave the
 *    factorisation unchanged bit for bit (also on the refactorisation
 *    path) and do not change the recorded path;
 *  - chains of mixed updates under AUTO that go through both paths. */
#include "update_check.h"
#include "../src/qru_internal.h" /* the calls per op */

static qru_context *ctx;
static void setup(void)
{
    ctx = qru_test_context();
    uc_alg = QRU_UPDATE_AUTO;
}
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

/* Whether the context prices with the constants these shapes were chosen
 * for: those of the CPU backend's table and of the OpenCL backend's,
 * fitted to PoCL on a 2-core CPU.  An OpenCL context on a GPU measures
 * its own (opencl/opencl_calibrate.c: they differ from a context created
 * with QRU_COST_CALIBRATE=off), and CUDA's were measured at large sizes
 * on an H200 (docs/performance.md): both say nothing definite about these
 * small shapes, so there only a valid path is required (test_auto_grid
 * times both paths there). */
static int fitted_constants(qru_dtype dt)
{
    qru_backend be = qru_test_backend();
    if (be == QRU_BACKEND_CPU)
        return 1;
    if (be != QRU_BACKEND_OPENCL)
        return 0;
    qru_context *off = qru_test_context_env("QRU_COST_CALIBRATE", "off");
    const qru_cost_model *a = &qru_ctx_tuning(ctx, dt)->cost,
                         *b = &qru_ctx_tuning(off, dt)->cost;
    int same = a->per_call == b->per_call && a->per_wait == b->per_wait &&
               a->bandwidth == b->bandwidth && a->rate_upd == b->rate_upd &&
               a->rate_gemm == b->rate_gemm && a->col_step == b->col_step &&
               a->panel_rows == b->panel_rows &&
               a->sweep_step == b->sweep_step &&
               a->blas3_call == b->blas3_call;
    qru_context_destroy(off);
    return same;
}

enum { R = 2 };
enum { ADD_COLS, REMOVE_COLS, ADD_ROWS, REMOVE_ROWS };
static const char *op_name[4] = {"add_cols", "remove_cols", "add_rows",
                                  "remove_rows"};

/* Applies update op (k, p) to f and to hp; returns the status. */
static int apply(qru_lsq *f, hprob *hp, int op, int k, int p, unsigned *seed)
{
    qru_dtype dt = hp->dt;
    int st;
    if (op == ADD_COLS) {
        double *U = uc_rand(dt, hp->n, p, seed);
        qru_matrix *Ud = uc_upload(ctx, dt, hp->n, p, U);
        st = qru_lsq_add_cols(f, k, Ud);
        if (st == 0)
            uc_add_cols(hp, k, p, U);
        qru_matrix_destroy(Ud);
        free(U);
    } else if (op == REMOVE_COLS) {
        st = qru_lsq_remove_cols(f, k, p);
        if (st == 0)
            uc_remove_cols(hp, k, p);
    } else if (op == ADD_ROWS) {
        double *U = uc_rand(dt, p, hp->m, seed);
        double *e = uc_rand(dt, p, hp->r, seed);
        qru_matrix *Ud = uc_upload(ctx, dt, p, hp->m, U);
        qru_matrix *ed = uc_upload(ctx, dt, p, hp->r, e);
        st = qru_lsq_add_rows(f, k, Ud, ed);
        if (st == 0)
            uc_add_rows(hp, k, p, U, e);
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(ed);
        free(U);
        free(e);
    } else {
        st = qru_lsq_remove_rows(f, k, p);
        if (st == 0)
            uc_remove_rows(hp, k, p);
    }
    return st;
}

/* shapes: op, n, m, p, k, the path the model must choose with Q */
typedef struct shape {
    int op, n, m, p, k, path;
} shape;

static const shape shapes[] = {
    /* a few rows / columns of a tall problem: refactorising would form an
     * n x n Q again (4 n^2 m flops) for an O(n m p) update */
    {ADD_ROWS, 800, 20, 1, 400, QRU_PATH_UPDATE},
    {REMOVE_ROWS, 800, 20, 2, 100, QRU_PATH_UPDATE},
    {ADD_COLS, 600, 20, 1, 20, QRU_PATH_UPDATE},
    {REMOVE_COLS, 600, 30, 1, 20, QRU_PATH_UPDATE},
    /* most of A changes: A1 is small or the update reduces many columns
     * with many calls */
    {REMOVE_ROWS, 200, 10, 180, 5, QRU_PATH_REFACTOR},
    {REMOVE_ROWS, 300, 40, 250, 0, QRU_PATH_REFACTOR},
    {ADD_COLS, 120, 2, 100, 0, QRU_PATH_REFACTOR},
    {ADD_COLS, 150, 3, 120, 1, QRU_PATH_REFACTOR},
};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

/* loop index: shape x dtype x form (full Q, thin Q: the same paths, the
 * refactorisation in the thin form rebuilding A from Q1 R and b from
 * Q1 d + E) */
START_TEST(test_paths)
{
    int nd = qru_test_ndtypes(ctx);
    const shape *sh = &shapes[_i / 4];
    if (_i % 2 >= nd)
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int form = (_i / 2) % 2 ? QRU_Q_THIN : QRU_Q_FULL;
    unsigned seed = 1234u + 17u * (unsigned)_i;
    hprob hp = uc_problem(dt, sh->n, sh->m, R, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_NONE);
    char tag[160];
    snprintf(tag, sizeof tag, "%s %s %s n=%d m=%d p=%d k=%d",
             dt == QRU_FLOAT ? "float" : "double",
             form == QRU_Q_THIN ? "thin" : "full", op_name[sh->op], sh->n,
             sh->m, sh->p, sh->k);
    int st = apply(f, &hp, sh->op, sh->k, sh->p, &seed);
    ck_assert_msg(st == 0, "%s: %d", tag, st);
    int path = qru_lsq_last_update_path(f);
    /* the shapes' paths hold for the fitted constants only */
    if (!fitted_constants(dt))
        ck_assert_msg(path == QRU_PATH_UPDATE || path == QRU_PATH_REFACTOR,
                      "%s: path %d", tag, path);
    else
        ck_assert_msg(path == sh->path, "%s: path %d, expected %d", tag,
                      path, sh->path);
    uc_check(ctx, f, &hp, 1.0, tag);
    /* a second update on the result, the other way round (R-sized) */
    if (sh->op == ADD_ROWS || sh->op == ADD_COLS) {
        int op = sh->op == ADD_ROWS ? REMOVE_ROWS : REMOVE_COLS;
        st = apply(f, &hp, op, sh->k, sh->p, &seed);
        ck_assert_msg(st == 0, "%s, then undo: %d", tag, st);
        uc_check(ctx, f, &hp, 1.0, tag);
    }
    /* the explicit algorithms override the policy */
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST), 0);
    st = apply(f, &hp, ADD_ROWS, 0, 1, &seed);
    ck_assert_int_eq(st, 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_UPDATE);
    uc_check(ctx, f, &hp, 1.0, tag);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* R only: AUTO always updates, even on the shapes that refactor with Q */
START_TEST(test_r_only)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    unsigned seed = 77u + (unsigned)_i;
    hprob hp = uc_problem(dt, 101, 100, R, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 0, 0);
    ck_assert_int_eq(apply(f, &hp, REMOVE_COLS, 0, 90, &seed), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_UPDATE);
    uc_check(ctx, f, &hp, 1.0, "R only remove_cols");
    ck_assert_int_eq(apply(f, &hp, ADD_ROWS, 3, 150, &seed), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_UPDATE);
    uc_check(ctx, f, &hp, 1.0, "R only add_rows");
    /* the updates that need Q refuse, f and the path unchanged */
    usnap s0 = uc_snap(ctx, f);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, 100), QRU_ERR_NO_Q);
    uc_snap_same(ctx, f, &s0, "R only remove_rows");
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* bad arguments and failures leave f unchanged bit for bit, on shapes
 * whose valid updates take the refactorisation path */
START_TEST(test_unchanged)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    unsigned seed = 999u + (unsigned)_i;
    hprob hp = uc_problem(dt, 120, 2, R, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 1, 0);
    qru_context *other = qru_test_context();
    usnap s0 = uc_snap(ctx, f);
    int n = hp.n, m = hp.m;
    qru_matrix *U = NULL, *Ubad = NULL, *Ur = NULL, *er = NULL, *ebad = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 100, 0, &U), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n - 1, 100, 0, &Ubad), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 300, m, 0, &Ur), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 300, R, 0, &er), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 299, R, 0, &ebad), 0);

    ck_assert_int_eq(qru_lsq_add_cols(NULL, 0, U), -1);
    ck_assert_int_eq(qru_lsq_add_cols(f, -1, U), -2);
    ck_assert_int_eq(qru_lsq_add_cols(f, m + 1, U), -2);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, Ubad), -3);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, NULL), -3);
    ck_assert_int_eq(qru_lsq_remove_cols(f, 0, m), -3);
    ck_assert_int_eq(qru_lsq_remove_cols(f, m, 1), -2);
    ck_assert_int_eq(qru_lsq_add_rows(f, n + 1, Ur, er), -2);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, Ur, ebad), -4);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, NULL, er), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, n - m + 1), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(f, n, 1), -2);
    uc_snap_same(ctx, f, &s0, "AUTO bad arguments");
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_NONE);

    /* rank check of add_cols on the refactorisation path
     * (QRU_UPDATE_REFACTOR): A1 = [U A] with U(:, 0) = A(:, 1), so column
     * p + 2 of A1 is dependent */
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_REFACTOR), 0);
    double *Uh = uc_rand(dt, n, 100, &seed);
    for (int i = 0; i < n; ++i)
        Uh[i] = hp.A[i + (size_t)n];
    qru_matrix *Ud = uc_upload(ctx, dt, n, 100, Uh);
    int st = qru_lsq_add_cols(f, 0, Ud);
    ck_assert_msg(st > 0 && st <= m + 100, "rank-deficient add_cols: %d", st);
    uc_snap_same(ctx, f, &s0, "AUTO rank-deficient add_cols");
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_NONE);
    /* the same update with independent columns succeeds there */
    for (int i = 0; i < n; ++i)
        Uh[i] = (double)(i % 7) / 8.0 - 0.375;
    qru_matrix *Ud2 = uc_upload(ctx, dt, n, 100, Uh);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, Ud2), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_REFACTOR);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_AUTO), 0);
    uc_add_cols(&hp, 0, 100, Uh);
    uc_check(ctx, f, &hp, 1.0, "AUTO add_cols after the failure");
    /* and a failure now keeps the recorded path */
    usnap s1 = uc_snap(ctx, f);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, n), -3);
    uc_snap_same(ctx, f, &s1, "AUTO bad p after a refactorisation");
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_REFACTOR);
    ck_assert_int_eq(qru_lsq_last_update_path(NULL), -1);

    uc_snap_free(&s0);
    uc_snap_free(&s1);
    free(Uh);
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(Ud2);
    qru_matrix_destroy(U);
    qru_matrix_destroy(Ubad);
    qru_matrix_destroy(Ur);
    qru_matrix_destroy(er);
    qru_matrix_destroy(ebad);
    qru_context_destroy(other);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

static int rnd(unsigned *s, int lo, int hi) /* uniform in [lo, hi] */
{
    *s = *s * 1664525u + 1013904223u;
    if (hi <= lo)
        return lo;
    return lo + (int)((*s >> 8) % (unsigned)(hi - lo + 1));
}

/* chains of 60 mixed updates under AUTO, small and large blocks, so that
 * both paths are taken; checked at random points and at the end; loop
 * index: dtype x form (full Q, thin Q) */
START_TEST(test_chain)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    unsigned seed = 4242u + 7u * (unsigned)_i;
    unsigned rs = 31u + 11u * (unsigned)_i;
    int form = _i / 2 ? QRU_Q_THIN : QRU_Q_FULL;
    hprob hp = uc_problem(dt, 150, 30, R, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
    int npath[3] = {0, 0, 0}, nchecks = 0;
    for (int u = 1; u <= 60; ++u) {
        int n = hp.n, m = hp.m, op, k, p;
        /* big blocks one time in four */
        int big = rnd(&rs, 0, 3) == 0;
        do {
            op = rnd(&rs, 0, 3);
        } while ((op == ADD_COLS && (n - m < 1 || m >= 120)) ||
                 (op == REMOVE_COLS && m < 2) ||
                 (op == ADD_ROWS && n >= 400) || (op == REMOVE_ROWS && n == m));
        int maxp = op == ADD_COLS      ? (n - m < 120 - m ? n - m : 120 - m)
                   : op == REMOVE_COLS ? m - 1
                   : op == ADD_ROWS    ? 400 - n
                                       : n - m;
        p = big ? rnd(&rs, maxp / 2 > 1 ? maxp / 2 : 1, maxp)
                : rnd(&rs, 1, maxp < 4 ? maxp : 4);
        int kmax = op == ADD_COLS      ? m
                   : op == REMOVE_COLS ? m - p
                   : op == ADD_ROWS    ? n
                                       : n - p;
        k = rnd(&rs, 0, kmax);
        char tag[160];
        snprintf(tag, sizeof tag, "chain %d: %s k=%d p=%d (%dx%d)", u,
                 op_name[op], k, p, n, m);
        int st = apply(f, &hp, op, k, p, &seed);
        ck_assert_msg(st == 0, "%s: %d", tag, st);
        int path = qru_lsq_last_update_path(f);
        ck_assert_msg(path == QRU_PATH_UPDATE || path == QRU_PATH_REFACTOR,
                      "%s: path %d", tag, path);
        npath[path]++;
        if (getenv("QRU_TEST_VERBOSE"))
            printf("%s -> %s\n", tag,
                   path == QRU_PATH_UPDATE ? "update" : "refactor");
        if (u == 60 || rnd(&rs, 0, 5) == 0) {
            uc_check(ctx, f, &hp, 2.0, tag);
            nchecks++;
        }
    }
    printf("[auto] %s %s chain: %d updates, %d refactorisations, %d checks, "
           "final %d x %d\n", form == QRU_Q_THIN ? "thin" : "full",
           dt == QRU_FLOAT ? "float" : "double", npath[1], npath[2], nchecks,
           hp.n, hp.m);
    /* both paths must occur (the fitted constants; see test_paths) */
    if (fitted_constants(dt)) {
        ck_assert_int_gt(npath[QRU_PATH_UPDATE], 0);
        ck_assert_int_gt(npath[QRU_PATH_REFACTOR], 0);
    }
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

START_TEST(test_algorithm_value)
{
    unsigned seed = 5u;
    hprob hp = uc_problem(QRU_DOUBLE, 20, 5, R, &seed);
    uc_alg = QRU_UPDATE_FAST;
    qru_lsq *f = uc_factor(ctx, &hp, 1, 0); /* asserts FAST is the default */
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_AUTO), 0);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), QRU_UPDATE_AUTO);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, (qru_update_algorithm)4),
                     -2);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), QRU_UPDATE_AUTO);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* The refactorisation through the backend's vendor QR
 * (QRU_TUNE_QR_VENDOR = 2), in both forms that hold Q: the thin form's
 * geqrf_full forms Q1's m columns alone; creation and a refactorised
 * update held to the same checks.  _i: dtype x form */
START_TEST(test_vendor_refactor)
{
    int nd = qru_test_ndtypes(ctx);
    if (_i % 2 >= nd)
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int form = _i / 2 ? QRU_Q_THIN : QRU_Q_FULL;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_QR_VENDOR, 2),
                     0);
    unsigned seed = 77u + (unsigned)_i;
    hprob hp = uc_problem(dt, 90, 30, R, &seed);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
    uc_check(ctx, f, &hp, 1.0, "vendor QR: created");
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_REFACTOR), 0);
    ck_assert_int_eq(apply(f, &hp, ADD_ROWS, 40, 7, &seed), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_REFACTOR);
    uc_check(ctx, f, &hp, 1.0, "vendor QR: rows added, refactorised");
    ck_assert_int_eq(apply(f, &hp, REMOVE_COLS, 3, 4, &seed), 0);
    uc_check(ctx, f, &hp, 1.0, "vendor QR: columns removed, refactorised");
    /* the backends with a vendor QR ran it each time */
    long long calls = qru_ctx_op_calls(ctx, QRU_OP_geqrf_full);
    if (qru_test_backend() != QRU_BACKEND_OPENCL)
        ck_assert_msg(calls >= 3, "geqrf_full ran %lld times", calls);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("update_auto");
    TCase *tc = tcase_create("auto");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_paths, 0, 4 * NSHAPES);
    tcase_add_loop_test(tc, test_r_only, 0, 2);
    tcase_add_loop_test(tc, test_unchanged, 0, 2);
    tcase_add_loop_test(tc, test_chain, 0, 4);
    tcase_add_test(tc, test_algorithm_value);
    tcase_add_loop_test(tc, test_vendor_refactor, 0, 4);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
