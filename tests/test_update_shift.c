/* The column shift of a least-squares QR factorisation
 * (qru_lsq_shift_cols, Octave's qrshift), both precisions, in the full,
 * thin and Q-less forms: i < j (Householder panels, several of them),
 * i > j (the Givens sweep), i = j, at both ends and neighbours; each
 * result checked against the permuted problem (backward error,
 * orthogonality, exact zeros, d, the least-squares solution against
 * LAPACKE, the Q-less form's norms and Gram data) and R against LAPACKE's
 * QR of the permuted matrix up to the signs of its rows; chains of shifts
 * with other updates between them, a rank-deficient A, and bad arguments
 * (f unchanged bit for bit). */
#include <lapacke.h>

#include "update_check.h"

QRU_TEST_FIXTURE

enum { N = 90, M = 40, R = 2 };
static const int FORMS[3] = {QRU_Q_FULL, QRU_Q_THIN, QRU_Q_NONE};
static const char *const FORM_NAMES[3] = {"full", "thin", "Q-less"};

/* column i of A moves to position j, the columns between move by one */
static void shift_host(hprob *hp, int i, int j)
{
    int n = hp->n;
    double *c = malloc(sizeof(double) * (size_t)n);
    ck_assert_ptr_nonnull(c);
    memcpy(c, hp->A + (size_t)i * n, sizeof(double) * (size_t)n);
    if (i < j)
        memmove(hp->A + (size_t)i * n, hp->A + (size_t)(i + 1) * n,
                sizeof(double) * (size_t)n * (size_t)(j - i));
    else if (i > j)
        memmove(hp->A + (size_t)(j + 1) * n, hp->A + (size_t)j * n,
                sizeof(double) * (size_t)n * (size_t)(i - j));
    memcpy(hp->A + (size_t)j * n, c, sizeof(double) * (size_t)n);
    free(c);
}

/* ||D1 R - D2 Rref||_F / (||A||_F max(n, m) eps cond(A)), Rref from
 * LAPACKE_dgeqrf on A in double, D1 and D2 the signs of the diagonals:
 * the distance of f's R from the reference QR's up to row signs, scaled
 * by its first-order bound */
static double r_vs_lapacke(const qru_lsq *f, const hprob *hp)
{
    qru_dtype dt = hp->dt;
    int n = hp->n, m = hp->m;
    usnap s = uc_snap(ctx, f);
    double *Aq = malloc(sizeof(double) * (size_t)n * m);
    double *tau = malloc(sizeof(double) * (size_t)m);
    ck_assert(Aq && tau);
    memcpy(Aq, hp->A, sizeof(double) * (size_t)n * m);
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, Aq, n, tau), 0);
    double num = 0.0, an = 0.0;
    for (int i = 0; i < m; ++i) {
        double d1 = qru_test_get(dt, s.R, s.rr, i, i), d2 = Aq[i + (size_t)i * n];
        double s1 = d1 < 0.0 ? -1.0 : 1.0, s2 = d2 < 0.0 ? -1.0 : 1.0;
        for (int j = i; j < m; ++j) {
            double e = s1 * qru_test_get(dt, s.R, s.rr, i, j) -
                       s2 * Aq[i + (size_t)j * n];
            num += e * e;
        }
    }
    for (size_t t = 0; t < (size_t)n * m; ++t)
        an += hp->A[t] * hp->A[t];
    void *A = uc_to_dt(dt, n, m, hp->A, n);
    double kappa = qru_test_cond2(dt, n, m, A, n, NULL);
    double e = sqrt(num) / (sqrt(an) * (n > m ? n : m) * qru_test_eps(dt) *
                            kappa);
    free(A);
    free(Aq);
    free(tau);
    uc_snap_free(&s);
    return e;
}

/* li: the loop index, dtype x form; nb: the update block size of f (0: the
 * tuning's panel width) */
static void shift_cases(int li, int nb)
{
    qru_dtype dt = qru_test_dtype(ctx, li % qru_test_ndtypes(ctx));
    int form = (li / 2) % 3;
    static const int pairs[][2] = {{0, M - 1}, {M - 1, 0}, {0, 1},
                                   {1, 0},     {M - 2, M - 1},
                                   {M - 1, M - 2}, {5, 31}, {31, 5},
                                   {17, 17},   {0, 0}, {M - 1, M - 1}};
    for (size_t q = 0; q < sizeof pairs / sizeof pairs[0]; ++q) {
        int i = pairs[q][0], j = pairs[q][1];
        unsigned seed = 700u + 13u * (unsigned)li + (unsigned)q;
        hprob hp = uc_problem(dt, N, M, R, &seed);
        qru_lsq *f = uc_factor_q(ctx, &hp, FORMS[form], nb);
        int st = qru_lsq_shift_cols(f, i, j);
        ck_assert_msg(st == 0, "shift i=%d j=%d: %d (%s)", i, j, st,
                      qru_last_error(ctx));
        ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_UPDATE);
        shift_host(&hp, i, j);
        char tag[128];
        snprintf(tag, sizeof tag, "%s %s nb %d shift i=%d j=%d",
                 dt == QRU_FLOAT ? "float" : "double", FORM_NAMES[form], nb,
                 i, j);
        uc_check(ctx, f, &hp, 1.0, tag);
        double e = r_vs_lapacke(f, &hp);
        ck_assert_msg(e < QRU_TEST_THRESHOLD, "%s: R differs from LAPACKE's "
                      "by %g", tag, e);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}

START_TEST(test_shift) { shift_cases(_i, 4); }
END_TEST
START_TEST(test_shift_default_nb) { shift_cases(_i, 0); }
END_TEST

/* 30 random shifts on one factorisation, with columns added and removed
 * and rows added between them, checked every 10 steps.  loop index:
 * dtype x form */
START_TEST(test_shift_chain)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int form = (_i / 2) % 3;
    unsigned seed = 900u + (unsigned)_i;
    hprob hp = uc_problem(dt, 70, 25, 3, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, FORMS[form], 3);
    for (int step = 1; step <= 30; ++step) {
        int m = hp.m;
        int i = uc_rnd(&seed, 0, m - 1), j = uc_rnd(&seed, 0, m - 1);
        ck_assert_int_eq(qru_lsq_shift_cols(f, i, j), 0);
        shift_host(&hp, i, j);
        if (step % 7 == 0) {
            double *U = uc_rand(dt, hp.n, 2, &seed);
            ck_assert_int_eq(uc_do_add_cols(ctx, f, &hp, i, 2, U), 0);
            uc_add_cols(&hp, i, 2, U);
            free(U);
        } else if (step % 7 == 3) {
            ck_assert_int_eq(qru_lsq_remove_cols(f, j, 1), 0);
            uc_remove_cols(&hp, j, 1);
        } else if (step % 7 == 5) {
            ck_assert_int_eq(uc_do_add_rows(ctx, f, &hp, i, 2, &seed), 0);
        }
        if (step % 10 == 0) {
            char tag[96];
            snprintf(tag, sizeof tag, "%s %s chain step %d",
                     dt == QRU_FLOAT ? "float" : "double", FORM_NAMES[form],
                     step);
            uc_check(ctx, f, &hp, 1.0, tag);
        }
    }
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* A rank-deficient A (a zero column and a repeated one): the shift keeps
 * the rank and judges nothing; the result is still a QR of A(:, p) and
 * the solve reports the rank.  loop index: dtype x form */
START_TEST(test_shift_rank_deficient)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int form = (_i / 2) % 3, n = 30, m = 12;
    unsigned seed = 950u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 1, &seed);
    for (int t = 0; t < n; ++t) {
        hp.A[t + (size_t)3 * n] = 0.0;
        hp.A[t + (size_t)8 * n] = hp.A[t + (size_t)1 * n];
    }
    qru_lsq *f = uc_factor_q(ctx, &hp, FORMS[form], 0);
    static const int pairs[][2] = {{3, 10}, {11, 0}, {8, 2}, {0, 8}};
    for (int q = 0; q < 4; ++q) {
        ck_assert_int_eq(qru_lsq_shift_cols(f, pairs[q][0], pairs[q][1]), 0);
        shift_host(&hp, pairs[q][0], pairs[q][1]);
        uc_check_ls(ctx, f, &hp, 1.0, "rank-deficient shift", 0);
    }
    qru_matrix *x = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, 1, 0, &x), 0);
    ck_assert_msg(qru_lsq_solve(f, x) > 0, "the solve reports the rank");
    qru_matrix_destroy(x);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* bad arguments, in argument order, leave f unchanged bit for bit; so
 * does i = j; the limits are valid */
START_TEST(test_shift_bad_args)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int form = (_i / 2) % 3, n = 20, m = 7;
    unsigned seed = 990u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, FORMS[form], 0);
    usnap s0 = uc_snap(ctx, f);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_NONE);
    ck_assert_int_eq(qru_lsq_shift_cols(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_lsq_shift_cols(NULL, -1, m), -1);
    ck_assert_int_eq(qru_lsq_shift_cols(f, -1, 1), -2);
    ck_assert_int_eq(qru_lsq_shift_cols(f, m, 1), -2);
    ck_assert_int_eq(qru_lsq_shift_cols(f, m, m), -2);
    ck_assert_int_eq(qru_lsq_shift_cols(f, 0, -1), -3);
    ck_assert_int_eq(qru_lsq_shift_cols(f, 0, m), -3);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_NONE);
    uc_snap_same(ctx, f, &s0, "shift: bad arguments");
    ck_assert_int_eq(qru_lsq_shift_cols(f, 3, 3), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), QRU_PATH_UPDATE);
    uc_snap_same(ctx, f, &s0, "shift: i = j");
    ck_assert_int_eq(qru_lsq_shift_cols(f, m - 1, 0), 0);
    shift_host(&hp, m - 1, 0);
    ck_assert_int_eq(qru_lsq_shift_cols(f, 0, m - 1), 0);
    shift_host(&hp, 0, m - 1);
    uc_check(ctx, f, &hp, 1.0, "shift: there and back");
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("update_shift");
    TCase *tc = tcase_create("shift");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_shift, 0, 6);
    tcase_add_loop_test(tc, test_shift_default_nb, 0, 6);
    tcase_add_loop_test(tc, test_shift_chain, 0, 6);
    tcase_add_loop_test(tc, test_shift_rank_deficient, 0, 6);
    tcase_add_loop_test(tc, test_shift_bad_args, 0, 6);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
