/* The four updates in the thin (Q1, R, d, E) and Q-less (R, d, residual
 * norms) forms, one at a time, against the host problem updated the same
 * way: k at the start, in the middle and at the end, p = 1, a middle p
 * and the largest p allowed; failures that leave the factorisation
 * bit-identical (rank lost by removing rows or adding columns, bad
 * arguments of the data-taking calls, the Q-less calls without data);
 * the downdate estimate against its specification evaluated on the host
 * (LAPACKE); the Q-less error estimate against its specification
 * evaluated on the host (uc_check).  Both element types, every backend. */
#include <lapacke.h>

#include "update_check.h"

#include "qru_internal.h" /* f's buffers, for test_overlap */

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
/* the tiled column insertion at every p (QRU_UPDATE_FAST adds columns by
 * Householder tiles where the cost model predicts them faster) */
static void setup_tiles(void)
{
    setup();
    uc_alg = QRU_UPDATE_FAST;
    uc_force_tiles(ctx);
}
/* one column's updates by the Givens chains of QRU_UPDATE_FAST */
static void setup_givens(void)
{
    setup();
    uc_set_givens(ctx, 2);
}
/* the Q-less one-row addition by the structured rank-1 passes */
static void setup_r1(void)
{
    setup();
    uc_set_r1(ctx, 2);
}
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

enum { N = 40, M = 12, R = 2 };

static qru_matrix *up(qru_dtype dt, int rows, int cols, const double *a)
{
    return uc_upload(ctx, dt, rows, cols, a);
}

/* qru_lsq_get_downdate_condition(f), which must succeed */
static double dd_cond(const qru_lsq *f)
{
    double c = -1.0;
    ck_assert_int_eq(qru_lsq_get_downdate_condition(f, &c), 0);
    return c;
}

/* qru_lsq_get_downdate_condition's specification (qru.h) on the host, for
 * removing the rows k .. k+p-1 of the n x m A (ld n): Qk = Q1(rows, :)
 * from LAPACK's QR of A (Qk Qk' does not depend on Q1's column signs, and
 * equals (U / R)(U / R)' for the Q-less form), c = 1 / min |diag(chol(M))|
 * with M = I - Qk Qk' (p x p), or M = I - Qk' Qk (m x m) for a Q-less
 * removal of p > m rows. */
static double ref_downdate_condition(const double *A, int n, int m, int k,
                                     int p, int qless)
{
    double *Q = malloc(sizeof(double) * (size_t)n * m);
    double *tau = malloc(sizeof(double) * (size_t)m);
    ck_assert(Q && tau);
    memcpy(Q, A, sizeof(double) * (size_t)n * m);
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, Q, n, tau), 0);
    ck_assert_int_eq(LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, m, m, Q, n, tau), 0);
    int wide = qless && p > m, q = wide ? m : p;
    double *M = calloc((size_t)q * q, sizeof(double));
    ck_assert(M);
    for (int j = 0; j < q; ++j)
        for (int i = 0; i < q; ++i) {
            double s = i == j ? 1.0 : 0.0;
            if (wide) /* I - Qk' Qk */
                for (int t = 0; t < p; ++t)
                    s -= Q[k + t + (size_t)i * n] * Q[k + t + (size_t)j * n];
            else /* I - Qk Qk' */
                for (int t = 0; t < m; ++t)
                    s -= Q[k + i + (size_t)t * n] * Q[k + j + (size_t)t * n];
            M[i + (size_t)j * q] = s;
        }
    ck_assert_int_eq(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', q, M, q), 0);
    double dmin = INFINITY;
    for (int i = 0; i < q; ++i)
        dmin = fmin(dmin, fabs(M[i + (size_t)i * q]));
    free(Q);
    free(tau);
    free(M);
    return 1.0 / dmin;
}

/* loop index: dtype x form (thin, Q-less) x algorithm (fast, dissertation) */
START_TEST(test_each_update)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int form = (_i / 2) % 2 ? QRU_Q_NONE : QRU_Q_THIN;
    uc_alg = (_i / 4) % 2 ? QRU_UPDATE_DISSERTATION : QRU_UPDATE_FAST;
    unsigned seed = 777u + 31u * (unsigned)_i;
    for (int op = 0; op < 4; ++op)
        for (int kk = 0; kk < 3; ++kk)
            for (int pp = 0; pp < 3; ++pp) {
                hprob hp = uc_problem(dt, N, M, R, &seed);
                qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
                int n = hp.n, m = hp.m, k, p, st;
                char tag[160];
                /* the largest p: n - m (add columns, remove rows), m - 1
                 * (remove columns), anything (add rows: 2 m) */
                int pmax = op == 0 || op == 3 ? n - m : op == 1 ? m - 1 : 2 * m;
                p = pp == 0 ? 1 : pp == 1 ? (pmax + 1) / 2 : pmax;
                int kmax = op == 0 ? m : op == 1 ? m - p : op == 2 ? n : n - p;
                k = kk == 0 ? 0 : kk == 1 ? kmax / 2 : kmax;
                snprintf(tag, sizeof tag, "%s %s op %d k=%d p=%d",
                         dt == QRU_DOUBLE ? "double" : "float",
                         form == QRU_Q_THIN ? "thin" : "Q-less", op, k, p);
                if (op == 0) {
                    double *U = uc_rand(dt, n, p, &seed);
                    st = uc_do_add_cols(ctx, f, &hp, k, p, U);
                    ck_assert_msg(st == 0, "%s: %d", tag, st);
                    uc_add_cols(&hp, k, p, U);
                    free(U);
                } else if (op == 1) {
                    st = qru_lsq_remove_cols(f, k, p);
                    ck_assert_msg(st == 0, "%s: %d", tag, st);
                    uc_remove_cols(&hp, k, p);
                } else if (op == 2) {
                    st = uc_do_add_rows(ctx, f, &hp, k, p, &seed);
                    ck_assert_msg(st == 0, "%s: %d", tag, st);
                } else {
                    double cref = ref_downdate_condition(
                        hp.A, n, m, k, p, form == QRU_Q_NONE);
                    st = uc_do_remove_rows(ctx, f, &hp, k, p);
                    ck_assert_msg(st == 0, "%s: %d", tag, st);
                    uc_remove_rows(&hp, k, p);
                    double c = dd_cond(f);
                    /* the pivots carry errors of about c^2 n eps */
                    double tol = 30.0 * cref * cref * n * qru_test_eps(dt);
                    ck_assert_msg(c >= 1.0 && isfinite(c) &&
                                      fabs(c - cref) <= tol * cref,
                                  "%s: downdate condition %g, host %g", tag,
                                  c, cref);
                }
                /* a removal of up to n - m random rows can be ill
                 * conditioned: scale by the loss its estimate c stands
                 * for (qru.h): c (thin) or c^2 (Q-less) */
                double sc = 1.0, cd = op == 3 ? dd_cond(f) : 1.0;
                if (op == 3)
                    sc = form == QRU_Q_THIN ? cd : fmax(1.0, cd * cd / 4.0);
                uc_check(ctx, f, &hp, sc, tag);
                qru_lsq_destroy(f);
                uc_free(&hp);
            }
}
END_TEST

/* rank lost: a failure with status > 0 that leaves f bit-identical */
START_TEST(test_rank_lost)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int form = (_i / 2) % 2 ? QRU_Q_NONE : QRU_Q_THIN;
    unsigned seed = 4242u + (unsigned)_i;
    hprob hp = uc_problem(dt, N, M, R, &seed);
    /* column 3 of A is nonzero only in rows 5 and 6 */
    for (int i = 0; i < N; ++i)
        if (i != 5 && i != 6)
            hp.A[i + (size_t)3 * N] = 0.0;
    qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
    usnap s0 = uc_snap(ctx, f);
    /* removing rows 5 and 6 leaves column 3 zero */
    int st = uc_do_remove_rows(ctx, f, &hp, 4, 3);
    ck_assert_msg(st > 0, "remove rows 5..7: status %d, expected > 0", st);
    uc_snap_same(ctx, f, &s0, "rank lost by removing rows");
    /* more rows than columns (Q-less: the downdate on the m x m side) */
    st = uc_do_remove_rows(ctx, f, &hp, 0, M + 2);
    ck_assert_msg(st > 0, "remove rows 1..%d: status %d, expected > 0",
                  M + 2, st);
    uc_snap_same(ctx, f, &s0, "rank lost by removing p > m rows");
    /* adding a copy of column 2 */
    double *U = malloc(sizeof(double) * N);
    ck_assert_ptr_nonnull(U);
    memcpy(U, hp.A + (size_t)2 * N, sizeof(double) * N);
    st = uc_do_add_cols(ctx, f, &hp, 7, 1, U);
    ck_assert_msg(st > 0, "add a copy of column 3: status %d", st);
    uc_snap_same(ctx, f, &s0, "rank lost by adding a column");
    /* still usable */
    st = uc_do_remove_rows(ctx, f, &hp, 10, 2);
    ck_assert_int_eq(st, 0);
    uc_remove_rows(&hp, 10, 2);
    uc_check(ctx, f, &hp, 1.0, "after the failures");
    free(U);
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* Removing rows that leave an exactly zero column of A1 (column j of A
 * nonzero only in the rows removed) is refused, j > 0 and f bit-identical:
 * in the thin form on both paths of QRU_UPDATE_AUTO (the update and the
 * refactorisation) and in the Q-less form.  200 random problems of cheap
 * sizes per loop index, p from 1 to n - m (p > m: the Q-less downdate on
 * the m x m side).  The same rows removed from the problem without the
 * zeros succeed, with the downdate condition of qru.h (the thin AUTO path:
 * also on the refactorisation, which must occur).  Loop: dtype x (thin
 * FAST, thin AUTO, Q-less). */
START_TEST(test_zero_column)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int var = _i / 2, form = var < 2 ? QRU_Q_THIN : QRU_Q_NONE;
    uc_alg = var == 1 ? QRU_UPDATE_AUTO : QRU_UPDATE_FAST;
    unsigned seed = 6000u + 97u * (unsigned)_i, rs = 17u + (unsigned)_i;
    int refused = 0, refactored = 0;
    for (int t = 0; t < 200; ++t) {
        int n = uc_rnd(&rs, 4, 30), m = uc_rnd(&rs, 1, n / 2 < 10 ? n / 2 : 10);
        int p = uc_rnd(&rs, 1, n - m), k = uc_rnd(&rs, 0, n - p);
        int j = uc_rnd(&rs, 0, m - 1);
        hprob hp = uc_problem(dt, n, m, R, &seed);
        char tag[160];
        snprintf(tag, sizeof tag, "%s %s %s n=%d m=%d k=%d p=%d column %d",
                 dt == QRU_DOUBLE ? "double" : "float",
                 form == QRU_Q_THIN ? "thin" : "Q-less", uc_alg_name(), n, m,
                 k, p, j + 1);
        /* the full-rank problem first */
        double cref = ref_downdate_condition(hp.A, n, m, k, p,
                                             form == QRU_Q_NONE);
        qru_lsq *g = uc_factor_q(ctx, &hp, form, 0);
        int st = uc_do_remove_rows(ctx, g, &hp, k, p);
        ck_assert_msg(st == 0, "%s, full rank: status %d", tag, st);
        double c = dd_cond(g);
        double tol = 30.0 * cref * cref * n * qru_test_eps(dt);
        ck_assert_msg(c >= 1.0 && fabs(c - cref) <= tol * cref,
                      "%s, full rank: downdate condition %g, host %g", tag, c,
                      cref);
        refactored += qru_lsq_last_update_path(g) == QRU_PATH_REFACTOR;
        qru_lsq_destroy(g);
        /* then column j zero outside the removed rows */
        for (int i = 0; i < n; ++i)
            if (i < k || i >= k + p)
                hp.A[i + (size_t)j * n] = 0.0;
        qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
        usnap s0 = uc_snap(ctx, f);
        st = uc_do_remove_rows(ctx, f, &hp, k, p);
        ck_assert_msg(st > 0 && st <= (p > m ? p : m),
                      "%s: status %d, want the column of a singular "
                      "downdate (downdate condition %g)", tag, st,
                      dd_cond(f));
        uc_snap_same(ctx, f, &s0, tag);
        refused++;
        uc_snap_free(&s0);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
    printf("[zero column] %s %s %s: %d refused, %d of the full-rank "
           "removals refactorised\n", dt == QRU_DOUBLE ? "double" : "float",
           form == QRU_Q_THIN ? "thin" : "Q-less", uc_alg_name(), refused,
           refactored);
    if (var == 1 && qru_test_backend() != QRU_BACKEND_CUDA)
        ck_assert_int_gt(refactored, 0);
}
END_TEST

/* arguments of the data-taking calls, and the Q-less calls without data */
START_TEST(test_args)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    unsigned seed = 99u;
    hprob hp = uc_problem(dt, N, M, R, &seed);
    for (int form = 0; form < 3; ++form) {
        qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
        usnap s0 = uc_snap(ctx, f);
        qru_matrix *A = up(dt, N, M, hp.A), *b = up(dt, N, R, hp.B);
        qru_matrix *U = up(dt, N, 1, hp.A), *Ar = up(dt, N, M - 1, hp.A);
        qru_matrix *br = up(dt, N, R + 1, hp.A);
        qru_matrix *Ur = up(dt, 2, M, hp.A), *er = up(dt, 2, R, hp.B);
        qru_matrix *Uc = up(dt, 2, M + 1, hp.A), *ec = up(dt, 3, R, hp.B);
        ck_assert_int_eq(qru_lsq_add_cols_data(NULL, 0, U, A, b), -1);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, -1, U, A, b), -2);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, M + 1, U, A, b), -2);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, 0, NULL, A, b), -3);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, 0, U, NULL, b), -4);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, 0, U, Ar, b), -4);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, 0, U, A, NULL), -5);
        ck_assert_int_eq(qru_lsq_add_cols_data(f, 0, U, A, br), -5);
        ck_assert_int_eq(qru_lsq_remove_rows_data(NULL, 0, Ur, er), -1);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, -1, Ur, er), -2);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, N, Ur, er), -2);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, N - 1, Ur, er), -3);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, 0, NULL, er), -3);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, 0, Uc, er), -3);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, 0, Ur, NULL), -4);
        ck_assert_int_eq(qru_lsq_remove_rows_data(f, 0, Ur, ec), -4);
        if (form == QRU_Q_NONE) {
            ck_assert_int_eq(qru_lsq_add_cols(f, 0, U), QRU_ERR_NO_Q);
            ck_assert_int_eq(qru_lsq_remove_rows(f, 0, 1), QRU_ERR_NO_Q);
            ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "_data"));
        }
        /* get_residuals: f (1), E (2: n x r); Q-less: QRU_ERR_NO_Q; E is
         * not written on failure */
        void *Eg = NULL;
        qru_matrix *E = up(dt, N, R, hp.B), *Er = up(dt, N - 1, R, hp.B);
        Eg = qru_test_download(E);
        ck_assert_int_eq(qru_lsq_get_residuals(NULL, E), -1);
        ck_assert_int_eq(qru_lsq_get_residuals(f, NULL), -2);
        ck_assert_int_eq(qru_lsq_get_residuals(f, Er), -2);
        ck_assert_int_eq(qru_lsq_get_residuals(f, Ur), -2);
        if (form == QRU_Q_NONE) {
            ck_assert_int_eq(qru_lsq_get_residuals(f, E), QRU_ERR_NO_Q);
            void *Eh = qru_test_download(E);
            ck_assert(memcmp(Eh, Eg, qru_test_elsize(dt) * N * R) == 0);
            free(Eh);
        }
        /* error_estimate: f (1: Q-less), est (2) */
        double est = -1.0;
        ck_assert_int_eq(qru_lsq_get_error_estimate(NULL, &est), -1);
        if (form == QRU_Q_NONE) {
            ck_assert_int_eq(qru_lsq_get_error_estimate(f, NULL), -2);
        } else {
            ck_assert_int_eq(qru_lsq_get_error_estimate(f, &est), -1);
            ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "QRU_Q_NONE"));
        }
        ck_assert(est == -1.0);
        ck_assert_int_eq(qru_lsq_q_form(NULL), -1);
        {
            double c = 7.0;
            ck_assert_int_eq(qru_lsq_get_downdate_condition(NULL, &c), -1);
            ck_assert_int_eq(qru_lsq_get_downdate_condition(f, NULL), -2);
            ck_assert(c == 7.0);
        }
        uc_snap_same(ctx, f, &s0, "bad arguments");
        free(Eg);
        qru_matrix_destroy(E);
        qru_matrix_destroy(Er);
        qru_matrix *all[] = {A, b, U, Ar, br, Ur, er, Uc, ec};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
            qru_matrix_destroy(all[i]);
        uc_snap_free(&s0);
        qru_lsq_destroy(f);
    }
    uc_free(&hp);
}
END_TEST

/* Inputs that share memory with the factorisation's storage (a view from
 * qru_lsq_view_r / qru_lsq_view_q, or a matrix inside any of f's buffers
 * R, Q, d, E, G, c: at an element offset of the buffer's handle (kind 0)
 * or through a handle of the caller's (kind 1: a wrapped pointer on CPU
 * and CUDA, a sub-buffer on OpenCL)) are refused with -i by every update
 * that takes input matrices, and f stays bit-identical.  Loop: dtype x
 * form (full, thin, Q-less) x kind. */
enum { OV_ADD_COLS, OV_ADD_COLS_DATA, OV_ADD_ROWS, OV_REMOVE_ROWS_DATA,
       OV_MODIFY, OV_NUPD };

/* Runs update u with argument a (its number in u's prototype) replaced by
 * X; the other inputs are valid matrices of hp's problem. */
static int ov_call(qru_lsq *f, const hprob *hp, int u, int a, qru_matrix *X)
{
    qru_dtype dt = hp->dt;
    int n = hp->n, m = hp->m, r = hp->r, p = 2;
    qru_matrix *in[4] = {NULL, NULL, NULL, NULL}; /* arguments 2 .. 5 */
    int rows[4] = {0}, cols[4] = {0};
    if (u == OV_ADD_COLS || u == OV_ADD_COLS_DATA) {
        rows[1] = n; cols[1] = p;            /* U (3) */
        if (u == OV_ADD_COLS_DATA) {
            rows[2] = n; cols[2] = m;        /* A (4) */
            rows[3] = n; cols[3] = r;        /* b (5) */
        }
    } else if (u == OV_ADD_ROWS || u == OV_REMOVE_ROWS_DATA) {
        rows[1] = p; cols[1] = m;            /* U (3) */
        rows[2] = p; cols[2] = r;            /* e (4) */
    } else {
        rows[0] = n; cols[0] = p;            /* U (2) */
        rows[1] = m; cols[1] = p;            /* V (3) */
    }
    for (int i = 0; i < 4; ++i)
        if (rows[i] && i + 2 != a)
            in[i] = up(dt, rows[i], cols[i], hp->A);
    if (a >= 2)
        in[a - 2] = X;
    int st = u == OV_ADD_COLS ? qru_lsq_add_cols(f, 1, in[1])
             : u == OV_ADD_COLS_DATA
                 ? qru_lsq_add_cols_data(f, 1, in[1], in[2], in[3])
             : u == OV_ADD_ROWS ? qru_lsq_add_rows(f, 1, in[1], in[2])
             : u == OV_REMOVE_ROWS_DATA
                 ? qru_lsq_remove_rows_data(f, 1, in[1], in[2])
                 : qru_lsq_modify(f, in[0], in[1]);
    for (int i = 0; i < 4; ++i)
        if (in[i] != X)
            qru_matrix_destroy(in[i]);
    return st;
}

START_TEST(test_overlap)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int form = (_i / 2) % 3, kind = _i / 6;
    unsigned seed = 5150u + (unsigned)_i;
    hprob hp = uc_problem(dt, N, M, R, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, form, 0);
    usnap s0 = uc_snap(ctx, f);
    int n = N, m = M, r = R, rr = form == QRU_Q_FULL ? n : m;
    char tag[128];
    /* the views the API hands out, as inputs of their own shape: R (m
     * columns: the rows of add_rows, p = rr), Q (thin: n x m, the columns
     * of add_cols, p = m) */
    qru_matrix *Rv = NULL, *Qv = NULL, *e = up(dt, rr, r, hp.B);
    ck_assert_int_eq(qru_lsq_view_r(f, &Rv), 0);
    snprintf(tag, sizeof tag, "form %d: add_rows(f, 0, view_r(f), e)", form);
    ck_assert_msg(qru_lsq_add_rows(f, 0, Rv, e) == -3, "%s", tag);
    if (form == QRU_Q_THIN) {
        ck_assert_int_eq(qru_lsq_view_q(f, &Qv), 0);
        ck_assert_msg(qru_lsq_add_cols(f, 0, Qv) == -3,
                      "thin: add_cols(f, 0, view_q(f))");
        ck_assert_msg(qru_lsq_get_q(f, Qv) == -2, "thin: get_q(f, view_q(f))");
    }
    /* the outputs of the solve and the copies, inside f's storage */
    ck_assert_msg(qru_lsq_get_r(f, Rv) == -2, "form %d: get_r(f, view_r(f))",
                  form);
    {
        qru_matrix *X = NULL;
        ck_assert_int_eq(
            qru_matrix_view(ctx, dt, m, r, f->d, f->ldr, &X), 0);
        ck_assert_msg(qru_lsq_solve(f, X) == -2, "form %d: solve into d",
                      form);
        ck_assert_msg(qru_lsq_get_d(f, X) == -2, "form %d: get_d into d",
                      form);
        qru_matrix_destroy(X);
    }
    /* every buffer of the form, every input of every update */
    const qru_lsq *fi = f;
    struct {
        qru_ptr p;
        int rows, cols, ld;
        const char *name;
    } buf[6] = {{fi->R, rr, m, fi->ldr, "R"},
                {fi->Q, n, form == QRU_Q_FULL ? n : m, fi->ncap, "Q"},
                {fi->d, rr, r, fi->ldr, "d"},
                {fi->E, n, r, fi->ncap, "E"},
                {fi->G, m, m, fi->ldr, "G"},
                {fi->c, m, r, fi->ldr, "c"}};
    static const int args[OV_NUPD][4] = {
        {3, 0}, {3, 4, 5, 0}, {3, 4, 0}, {3, 4, 0}, {2, 3, 0}};
    int tried = 0;
    for (int b = 0; b < 6; ++b) {
        if (!buf[b].p.h)
            continue; /* not held in this form */
        qru_matrix *B = NULL;
        ck_assert_int_eq(qru_matrix_view(ctx, dt, buf[b].rows, buf[b].cols,
                                         buf[b].p, buf[b].ld, &B),
                         0);
        for (int u = 0; u < OV_NUPD; ++u) {
            if (form == QRU_Q_NONE && (u == OV_ADD_COLS || u == OV_MODIFY))
                continue; /* (QRU_ERR_NO_Q after the checks) */
            for (int t = 0; args[u][t]; ++t) {
                int a = args[u][t];
                /* the argument's shape, contiguous, at an element offset
                 * of the buffer (kind 1: at its start, where a sub-buffer
                 * is aligned) */
                int ar = (u == OV_ADD_ROWS || u == OV_REMOVE_ROWS_DATA) ? 2
                         : (u == OV_MODIFY && a == 3)                 ? m
                                                                      : n;
                int ac = (u == OV_ADD_ROWS || u == OV_REMOVE_ROWS_DATA)
                             ? (a == 3 ? m : r)
                             : (u == OV_ADD_COLS_DATA && a == 4)   ? m
                             : (u == OV_ADD_COLS_DATA && a == 5)   ? r
                                                                   : 2;
                qru_matrix *X = qru_test_alias(ctx, B, kind ? 0 : 1, ar, ac,
                                               ar, kind);
                if (!X)
                    continue;
                snprintf(tag, sizeof tag, "%s form %d kind %d: update %d, "
                         "argument %d in %s", dt == QRU_DOUBLE ? "double"
                         : "float", form, kind, u, a, buf[b].name);
                int st = ov_call(f, &hp, u, a, X);
                ck_assert_msg(st == -a, "%s: status %d", tag, st);
                ++tried;
                qru_test_alias_free(X, kind);
            }
        }
        qru_matrix_destroy(B);
    }
    ck_assert_int_gt(tried, 0);
    uc_snap_same(ctx, f, &s0, "inputs in f's storage");
    qru_matrix_destroy(Rv);
    qru_matrix_destroy(Qv);
    qru_matrix_destroy(e);
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* qru_lsq_create_from_qr with economy factors (Q1 n x m, R m x m, d
 * m x r): the thin form, holding exactly what was given and E = 0 (b =
 * Q1 d); updated, it matches the host problem with b = Q1 d.  Bad economy
 * shapes are rejected and leave the output alone. */
START_TEST(test_from_economy)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    unsigned seed = 31337u;
    hprob hp = uc_problem(dt, N, M, R, &seed);
    qru_lsq *g = uc_factor_q(ctx, &hp, QRU_Q_THIN, 0);
    usnap s = uc_snap(ctx, g);
    qru_matrix *Q1 = qru_test_upload(ctx, dt, N, M, 0, s.Q, N);
    qru_matrix *Rm = qru_test_upload(ctx, dt, M, M, 0, s.R, M);
    qru_matrix *dm = qru_test_upload(ctx, dt, M, R, 0, s.d, M);
    qru_lsq *f = (qru_lsq *)&seed, *const sentinel = f;
    qru_matrix *Rbad = up(dt, M + 1, M, hp.A), *dbad = up(dt, N, R, hp.B);
    ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q1, Rbad, dm, NULL, &f), -3);
    ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q1, Rm, dbad, NULL, &f), -4);
    ck_assert_ptr_eq(f, sentinel);
    ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q1, Rm, dm, NULL, &f), 0);
    ck_assert_int_eq(qru_lsq_q_form(f), QRU_Q_THIN);
    usnap t = uc_snap(ctx, f);
    size_t es = qru_test_elsize(dt);
    ck_assert(memcmp(t.Q, s.Q, es * N * M) == 0);
    ck_assert(memcmp(t.R, s.R, es * M * M) == 0);
    ck_assert(memcmp(t.d, s.d, es * M * R) == 0);
    for (int i = 0; i < N * R; ++i)
        ck_assert(qru_test_get(dt, t.E, N, i % N, i / N) == 0.0);
    /* the host problem it stands for: A, b = Q1 d */
    for (int j = 0; j < R; ++j)
        for (int i = 0; i < N; ++i) {
            double v = 0.0;
            for (int l = 0; l < M; ++l)
                v += qru_test_get(dt, s.Q, N, i, l) *
                     qru_test_get(dt, s.d, M, l, j);
            hp.B[i + (size_t)j * N] = v;
        }
    ck_assert_int_eq(uc_do_remove_rows(ctx, f, &hp, 3, 4), 0);
    uc_remove_rows(&hp, 3, 4);
    ck_assert_int_eq(uc_do_add_rows(ctx, f, &hp, 10, 5, &seed), 0);
    uc_check(ctx, f, &hp, 1.0, "economy factors, updated");
    uc_snap_free(&t);
    uc_snap_free(&s);
    qru_matrix_destroy(Q1);
    qru_matrix_destroy(Rm);
    qru_matrix_destroy(dm);
    qru_matrix_destroy(Rbad);
    qru_matrix_destroy(dbad);
    qru_lsq_destroy(f);
    qru_lsq_destroy(g);
    uc_free(&hp);
}
END_TEST

/* The structured one-row addition on a Q-less factorisation whose R is
 * singular (a zero column of A): it cannot run (p = R' \ u is not
 * finite), leaves f as it was and the panels add the row; a one-row
 * removal that loses the rank (refused with the blocked path's status, f
 * unchanged); then, in each form, chains of 60 rows added one at a time
 * (at the end, in the middle) and a window of 60 slides (one row in at
 * the end, one out at the start) on regular problems, checked every
 * 20; and columns removed one at a time at k = 0, in the middle and next
 * to the end. */
START_TEST(test_r1_rows)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    unsigned seed = 4242u + (unsigned)_i;
    hprob hp = uc_problem(dt, N, M, R, &seed);
    for (int i = 0; i < N; ++i)
        hp.A[i + (size_t)3 * N] = 0.0;
    qru_lsq *f = uc_factor_q(ctx, &hp, QRU_Q_NONE, 0);
    int st = uc_do_add_rows(ctx, f, &hp, N / 2, 1, &seed);
    ck_assert_msg(st == 0, "singular R: status %d", st);
    uc_check(ctx, f, &hp, 1.0, "r1, singular R");
    qru_lsq_destroy(f);
    uc_free(&hp);
    /* column 3 nonzero only in row 5: its removal leaves it zero */
    hp = uc_problem(dt, N, M, R, &seed);
    for (int i = 0; i < N; ++i)
        if (i != 5)
            hp.A[i + (size_t)3 * N] = 0.0;
    f = uc_factor_q(ctx, &hp, QRU_Q_NONE, 0);
    usnap s0 = uc_snap(ctx, f);
    st = uc_do_remove_rows(ctx, f, &hp, 5, 1);
    ck_assert_msg(st > 0, "remove row 6: status %d, expected > 0", st);
    uc_snap_same(ctx, f, &s0, "r1, rank lost by removing a row");
    st = uc_do_remove_rows(ctx, f, &hp, 9, 1);
    ck_assert_msg(st == 0, "remove row 10: status %d", st);
    uc_remove_rows(&hp, 9, 1);
    uc_check(ctx, f, &hp, 1.0, "r1, a row removed after the refusal");
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
    /* in each form: 60 rows added one at a time (wk = 0: at the end;
     * wk = 2: in the middle), then windows of 60 slides (wk = 1: one row
     * in at the end, one out at the start; wk = 3: in and out in the
     * middle; with the full Q the removals take the blocked path) */
    static const int forms[] = {QRU_Q_NONE, QRU_Q_THIN, QRU_Q_FULL};
    for (int w = 0; w < 12; ++w) {
        int q = forms[w / 4], wk = w % 4;
        hp = uc_problem(dt, N, M, R, &seed);
        f = uc_factor_q(ctx, &hp, q, 0);
        for (int t = 1; t <= 60; ++t) {
            st = uc_do_add_rows(ctx, f, &hp, wk >= 2 ? hp.n / 2 : hp.n, 1,
                                &seed);
            ck_assert_msg(st == 0, "step %d, add: status %d", t, st);
            if (wk == 1 || wk == 3) {
                int kr = wk == 1 ? 0 : hp.n / 3;
                st = uc_do_remove_rows(ctx, f, &hp, kr, 1);
                ck_assert_msg(st == 0, "step %d, remove: status %d", t, st);
                uc_remove_rows(&hp, kr, 1);
            }
            if (t % 20 == 0) {
                char tag[64];
                snprintf(tag, sizeof tag, "r1 form %d, %s, %d steps", q,
                         wk == 1   ? "window"
                         : wk == 3 ? "window, middle"
                         : wk      ? "middle"
                                   : "chain",
                         t);
                uc_check(ctx, f, &hp, 1.0, tag);
            }
        }
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
    /* in each form: one column at a time removed at k = 0, in the middle
     * and next to the end until two are left, checked after each */
    for (int q = 0; q < 3; ++q) {
        hp = uc_problem(dt, N, M, R, &seed);
        f = uc_factor_q(ctx, &hp, forms[q], 0);
        for (int t = 0; hp.m > 2; ++t) {
            int k = t % 3 == 0 ? 0 : t % 3 == 1 ? hp.m / 2 : hp.m - 2;
            st = qru_lsq_remove_cols(f, k, 1);
            ck_assert_msg(st == 0, "form %d, remove column %d: status %d",
                          forms[q], k, st);
            uc_remove_cols(&hp, k, 1);
            char tag[64];
            snprintf(tag, sizeof tag, "r1 form %d, column %d removed",
                     forms[q], k);
            uc_check(ctx, f, &hp, 1.0, tag);
        }
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
    /* nearly collinear columns (condition ~1e7 in double, 1e3 in float):
     * 10 rows by the structured passes and by the panels, R'R = A'A and
     * the residuals within the thresholds for both */
    double worst[2];
    for (int v = 0; v < 2; ++v) {
        unsigned s2 = 99u + (unsigned)_i;
        uc_set_r1(ctx, v == 0 ? 2 : 1);
        hp = uc_problem(dt, N, M, R, &s2);
        double delta = dt == QRU_DOUBLE ? 1e-7 : 1e-3;
        for (int i = 0; i < N; ++i)
            hp.A[i + (size_t)(M - 1) * N] =
                hp.A[i] + delta * qru_test_urand(&s2);
        f = uc_factor_q(ctx, &hp, QRU_Q_NONE, 0);
        for (int t = 0; t < 10; ++t)
            ck_assert_int_eq(uc_do_add_rows(ctx, f, &hp, hp.n, 1, &s2), 0);
        worst[v] = uc_check_ls(ctx, f, &hp, 1.0,
                               v == 0 ? "r1, ill-conditioned"
                                      : "panels, ill-conditioned",
                               0);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
    uc_set_r1(ctx, 2);
    printf("Q-less rows, ill-conditioned, %s: worst scaled error %.3g "
           "(structured), %.3g (panels)\n",
           dt == QRU_DOUBLE ? "double" : "float", worst[0], worst[1]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("update_forms");
    TCase *tc = tcase_create("forms");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_each_update, 0, 8);
    tcase_add_loop_test(tc, test_rank_lost, 0, 4);
    tcase_add_test(tc, test_args);
    tcase_add_test(tc, test_from_economy);
    tcase_add_loop_test(tc, test_overlap, 0, 12);
    tcase_add_loop_test(tc, test_zero_column, 0, 6);
    suite_add_tcase(s, tc);
    /* the fast updates (loop indices 0-3) with the tiles at every p */
    tc = tcase_create("givens");
    tcase_add_checked_fixture(tc, setup_givens, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_each_update, 0, 4);
    suite_add_tcase(s, tc);

    /* the Q-less one-row additions by the structured passes */
    tc = tcase_create("r1");
    tcase_add_checked_fixture(tc, setup_r1, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_each_update, 0, 4);
    tcase_add_loop_test(tc, test_r1_rows, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("tiles");
    tcase_add_checked_fixture(tc, setup_tiles, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_each_update, 0, 4);
    tcase_add_loop_test(tc, test_rank_lost, 0, 4);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
