/* QR updates that add and remove blocks of rows
 * (qru_lsq_add_rows / qru_lsq_remove_rows), both precisions,
 * with and without Q, k at the start, middle and end, p around the block
 * size; bad arguments leave f unchanged. */
#include "update_check.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void setup_dissertation(void)
{
    setup();
    uc_alg = QRU_UPDATE_DISSERTATION;
}
static void setup_fast(void)
{
    setup();
    uc_alg = QRU_UPDATE_FAST;
}
/* QRU_UPDATE_FAST with the Householder tiles for every p (the default
 * takes them where the cost model predicts them faster) */
static void setup_tiles(void)
{
    setup_fast();
    uc_force_tiles(ctx);
}
/* QRU_UPDATE_FAST with one row's updates by the Givens chains (the
 * default takes them where their plan is priced faster) */
static void setup_givens(void)
{
    setup_fast();
    uc_set_givens(ctx, 2);
}
/* QRU_UPDATE_FAST with one row's addition by the structured rank-1
 * passes wherever they can take it */
static void setup_r1(void)
{
    setup_fast();
    uc_set_r1(ctx, 2);
}
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

enum { N = 120, M = 50, R = 2, NB = 8 };
static const int PS[] = {1, NB - 1, NB, NB + 1, 60};
#define NP ((int)(sizeof PS / sizeof PS[0]))

/* loop index: dtype, with/without Q, k choice */
START_TEST(test_add_rows)
{
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int keep_q = (i_ / 2) % 2;
    int kc = (i_ / 4) % 3;
    for (int ip = 0; ip < NP; ++ip) {
        int p = PS[ip];
        int k = kc == 0 ? 0 : kc == 1 ? N / 2 : N;
        unsigned seed = 7000u + 37u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, N, M, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, keep_q, NB);
        double *U = uc_rand(dt, p, M, &seed);
        double *e = uc_rand(dt, p, R, &seed);
        qru_matrix *Ud = uc_upload(ctx, dt, p, M, U);
        qru_matrix *ed = uc_upload(ctx, dt, p, R, e);
        int st = qru_lsq_add_rows(f, k, Ud, ed);
        ck_assert_msg(st == 0, "add_rows k=%d p=%d: %d", k, p, st);
        uc_add_rows(&hp, k, p, U, e);
        char tag[96];
        snprintf(tag, sizeof tag, "%s %s add_rows k=%d p=%d",
                 qru_test_type_name(dt), keep_q ? "Q" : "R-only",
                 k, p);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(ed);
        free(U);
        free(e);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* loop index: dtype, k choice */
START_TEST(test_remove_rows)
{
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int kc = (i_ / 2) % 3;
    for (int ip = 0; ip < NP; ++ip) {
        int p = PS[ip];
        int k = kc == 0 ? 0 : kc == 1 ? (N - p) / 2 : N - p;
        unsigned seed = 8000u + 41u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, N, M, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, 1, NB);
        int st = qru_lsq_remove_rows(f, k, p);
        ck_assert_msg(st == 0, "remove_rows k=%d p=%d: %d", k, p, st);
        uc_remove_rows(&hp, k, p);
        char tag[96];
        snprintf(tag, sizeof tag, "%s remove_rows k=%d p=%d",
                 qru_test_type_name(dt), k, p);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* larger removals: p around the size at which QRU_UPDATE_FAST accumulates
 * its rotations into GEMMs (16) and up to n - m, with several groups of
 * accumulated rotations (m = 150); block size auto and 5.
 * loop index: dtype, k choice, block size */
START_TEST(test_remove_rows_large)
{
    static const int ps[] = {15, 16, 17, 63, 150};
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int kc = (i_ / 2) % 3;
    int nb = (i_ / 6) % 2 ? 5 : 0;
    int n = 300, m = 150;
    for (int ip = 0; ip < 5; ++ip) {
        int p = ps[ip];
        int k = kc == 0 ? 0 : kc == 1 ? (n - p) / 3 : n - p;
        unsigned seed = 8500u + 43u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, n, m, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, 1, nb);
        int st = qru_lsq_remove_rows(f, k, p);
        ck_assert_msg(st == 0, "remove_rows k=%d p=%d: %d", k, p, st);
        uc_remove_rows(&hp, k, p);
        char tag[96];
        snprintf(tag, sizeof tag, "%s remove_rows n=%d m=%d k=%d p=%d nb=%d",
                 qru_test_type_name(dt), n, m, k, p, nb);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* removing rows that hold all the nonzeros of some columns: A1 is
 * rank-deficient (exactly zero columns) and the block Q(K, m+1:n) that
 * QRU_UPDATE_FAST reduces first is singular; the factorisation must still
 * be exact (R1 triangular, Q1 orthogonal, Q1 R1 = A1, d1 = Q1' b1).
 * loop index: dtype */
START_TEST(test_remove_rows_rank_deficient)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 140, m = 40;
    static const int ps[] = {3, 30};
    for (int ip = 0; ip < 2; ++ip) {
        int p = ps[ip], k = 50;
        unsigned seed = 8800u + 7u * (unsigned)_i + (unsigned)ip;
        hprob hp = uc_problem(dt, n, m, R, &seed);
        /* columns 5 and 6 (and, for p = 30, 7 .. 11) live in rows K only */
        int nz = p > 3 ? 7 : 2;
        for (int j = 5; j < 5 + nz; ++j)
            for (int i = 0; i < n; ++i)
                if (i < k || i >= k + p)
                    hp.A[i + (size_t)j * n] = 0.0;
        qru_lsq *f = uc_factor(ctx, &hp, 1, 0);
        int st = qru_lsq_remove_rows(f, k, p);
        ck_assert_msg(st == 0, "remove_rows k=%d p=%d: %d", k, p, st);
        uc_remove_rows(&hp, k, p);
        char tag[96];
        snprintf(tag, sizeof tag, "%s remove_rows rank-deficient A1 p=%d",
                 dt == QRU_FLOAT ? "float" : "double", p);
        uc_check_ls(ctx, f, &hp, 1.0, tag, 0);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* ||X||_F of the n x c host array X (ld n, real or complex) */
static double fro_host(qru_dtype dt, int n, int c, const double *X)
{
    double s = 0.0;
    for (size_t t = 0; t < (size_t)uc_w(dt) * n * c; ++t)
        s += X[t] * X[t];
    return sqrt(s);
}

/* The checks of uc_check after a removal of dominant rows, within the
 * threshold times scale = max(||A|| / ||A1||, ||b|| / ||b1||) (c the
 * downdate condition, for the tag); then f and hp are freed. */
static void rd_check(qru_lsq *f, hprob *hp, double scale, double c,
                     const char *tag)
{
    char tag2[256];
    snprintf(tag2, sizeof tag2, "%s c=%.3g scale=%.3g", tag, c, scale);
    uc_check(ctx, f, hp, scale, tag2);
    qru_lsq_destroy(f);
    uc_free(hp);
}

/* Removing rows that carry most of A from a thin (and a full)
 * factorisation: the rows K = k .. k+p-1 of A (and, every other scale,
 * of b) multiplied by s (double 1e1 .. 1e4, float 1e1, 1e2), then
 * removed, so that A1 is far smaller than A and the downdate condition c
 * (about s) is large.  The removal is backward stable with respect to
 * the data before it: every scaled error of uc_check (||A1 - Q1 R1||,
 * ||Q1'Q1 - I||, ||d1 - Q1'b1||, ||Q1 d1 + E1 - b1||, the solution and the
 * residual norms against LAPACK) stays below the threshold times
 * max(||A|| / ||A1||, ||b|| / ||b1||) (Frobenius norms; for p = 1,
 * ||A|| / ||A1|| <= c, checked, so that the errors of A's side stay
 * within the loss that qru_lsq_get_downdate_condition documents).
 * Shapes: m = 1, p = 1, p > 1, p > m, near-square; k at the start, in
 * the middle and at the end.
 * loop index: dtype, shape, form (thin, full) */
START_TEST(test_remove_dominant_rows)
{
    static const int shapes[][3] = {{40, 1, 1},  {40, 5, 1}, {40, 5, 3},
                                    {40, 3, 6},  {13, 12, 1}, {16, 12, 3}};
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int sh = (_i / 2) % 6, thin = _i < 12;
    int n = shapes[sh][0], m = shapes[sh][1], p = shapes[sh][2];
    int ns = dt == QRU_FLOAT ? 2 : 4;
    for (int kc = 0; kc < 3; ++kc)
        for (int is = 0; is < ns; ++is) {
            int k = kc == 0 ? 0 : kc == 1 ? (n - p) / 2 : n - p;
            double s = pow(10.0, is + 1);
            unsigned seed = 9700u + 97u * (unsigned)_i + 13u * (unsigned)kc +
                            (unsigned)is;
            hprob hp = uc_problem(dt, n, m, R, &seed);
            for (int i = k; i < k + p; ++i) {
                for (int j = 0; j < m; ++j)
                    hp.A[i + (size_t)j * n] *= s;
                for (int j = 0; j < R && is % 2; ++j)
                    hp.B[i + (size_t)j * n] *= s;
            }
            /* (powers of ten times values representable in dt may not
             * be: the problem is what dt holds) */
            if (dt == QRU_FLOAT) {
                for (size_t t = 0; t < (size_t)n * m; ++t)
                    hp.A[t] = (float)hp.A[t];
                for (size_t t = 0; t < (size_t)n * R; ++t)
                    hp.B[t] = (float)hp.B[t];
            }
            double an = fro_host(dt, n, m, hp.A), bn = fro_host(dt, n, R, hp.B);
            qru_lsq *f =
                uc_factor_q(ctx, &hp, thin ? QRU_Q_THIN : QRU_Q_FULL, 0);
            char tag[128];
            snprintf(tag, sizeof tag,
                     "%s %s %d x %d remove_rows k=%d p=%d s=%g",
                     qru_test_type_name(dt), thin ? "thin" : "full", n, m, k,
                     p, s);
            int st = qru_lsq_remove_rows(f, k, p);
            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
            uc_remove_rows(&hp, k, p);
            double ga = an / fro_host(dt, n - p, m, hp.A),
                   gb = bn / fro_host(dt, n - p, R, hp.B), c = 0.0;
            if (thin) {
                ck_assert_int_eq(qru_lsq_get_downdate_condition(f, &c), 0);
                ck_assert_msg(c >= 1.0 && isfinite(c), "%s: c = %g", tag, c);
                /* p = 1: c^2 = 1 + a' inv(A1'A1) a >= ||A||_F^2 /
                 * ||A1||_F^2 */
                ck_assert_msg(p > 1 || ga <= c * (1.0 + 1e-3),
                              "%s: ||A|| / ||A1|| = %g, c = %g", tag, ga, c);
            }
            rd_check(f, &hp, fmax(ga, gb), c, tag);
        }
}
END_TEST

/* Removing p > 1 rows that lie near a common dominant row from a thin
 * factorisation: s a added to each of the rows K = k .. k+p-1 of A (a
 * random; s double 1e2 .. 1e4, float 1e1, 1e2), so that the columns of
 * Z = (I - Q1 Q1') E_K are nearly parallel and Rz (Z = Qz Rz) is
 * ill-conditioned: the downdate condition c is large (about s and more)
 * although no column of Z is small.  Q1 must stay orthogonal to the
 * threshold unwidened by c (||Q1'Q1 - I|| / (n eps); Qz = Z inv(Rz)
 * carried CGS2's error times c before its second pass); the other errors
 * of uc_check within the threshold times max(||A|| / ||A1||, ||b|| /
 * ||b1||) as in test_remove_dominant_rows.  Shapes: p = 2, 3, 5, tall
 * and near-square (n - p = m); k at the start, in the middle and at the
 * end.  loop index: dtype, shape (UC_CPLX and up: the complex types) */
START_TEST(test_remove_near_dominant_rows)
{
    static const int shapes[][3] = {{40, 6, 2}, {40, 6, 3}, {40, 6, 5},
                                    {8, 6, 2},  {8, 5, 3},  {17, 12, 5}};
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int sh = (i_ / 2) % 6, w = uc_w(dt), single = qru_test_eps(dt) > 1e-10;
    int n = shapes[sh][0], m = shapes[sh][1], p = shapes[sh][2];
    int ns = single ? 2 : 3;
    double cmax = 0.0;
    for (int kc = 0; kc < 3; ++kc)
        for (int is = 0; is < ns; ++is) {
            int k = kc == 0 ? 0 : kc == 1 ? (n - p) / 2 : n - p;
            double s = pow(10.0, is + (single ? 1 : 2));
            unsigned seed = 9800u + 89u * (unsigned)_i + 17u * (unsigned)kc +
                            (unsigned)is;
            hprob hp = uc_problem(dt, n, m, R, &seed);
            double *a = uc_rand(dt, 1, m, &seed);
            for (int j = 0; j < m; ++j)
                for (int i = k; i < k + p; ++i)
                    for (int t = 0; t < w; ++t)
                        hp.A[w * (i + (size_t)j * n) + t] += s * a[w * j + t];
            free(a);
            if (single) /* the problem is what dt holds */
                for (size_t t = 0; t < (size_t)w * n * m; ++t)
                    hp.A[t] = (float)hp.A[t];
            double an = fro_host(dt, n, m, hp.A), bn = fro_host(dt, n, R, hp.B);
            qru_lsq *f = uc_factor_q(ctx, &hp, QRU_Q_THIN, 0);
            char tag[160];
            snprintf(tag, sizeof tag,
                     "%s thin %d x %d remove_rows k=%d p=%d near s=%g",
                     qru_test_type_name(dt), n, m, k, p, s);
            int st = qru_lsq_remove_rows(f, k, p);
            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
            uc_remove_rows(&hp, k, p);
            double c = 0.0;
            ck_assert_int_eq(qru_lsq_get_downdate_condition(f, &c), 0);
            ck_assert_msg(c >= 1.0 && isfinite(c), "%s: c = %g", tag, c);
            cmax = fmax(cmax, c);
            usnap sn = uc_snap(ctx, f);
            double oe = qru_test_orth_error_cols(dt, n - p, m, sn.Q, n - p);
            uc_snap_free(&sn);
            if (getenv("QRU_TEST_VERBOSE"))
                printf("%s c=%.3g: ||Q1'Q1 - I|| / (n eps) = %.3g\n", tag, c,
                       oe);
            ck_assert_msg(oe < QRU_TEST_THRESHOLD,
                          "%s c=%.3g: orthogonality error %g (unwidened)", tag,
                          c, oe);
            rd_check(f, &hp,
                     fmax(an / fro_host(dt, n - p, m, hp.A),
                          bn / fro_host(dt, n - p, R, hp.B)),
                     c, tag);
        }
    /* the loop met the ill-conditioned Rz it is about */
    ck_assert_msg(cmax >= (single ? 30.0 : 1e3),
                  "%s %d x %d p=%d: largest c %g", qru_test_type_name(dt), n,
                  m, p, cmax);
}
END_TEST

/* One row added to a rank-deficient A (column m-1, 1-based, is
 * A(:,1) + A(:,2); R has a pivot of rounding size) in every form (a QR of
 * a singular A is valid); the row breaks the dependence.  The structured
 * passes would solve R' p = u, a p of size 1 / eps, and lose all
 * accuracy; they must hand such a row to the Givens or blocked path.
 * loop index: dtype, form (full, thin, Q-less), shape (tall, square) */
START_TEST(test_add_rows_singular)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    static const int forms[] = {QRU_Q_FULL, QRU_Q_THIN, QRU_Q_NONE};
    int q = forms[(_i / 2) % 3], square = (_i / 6) % 2;
    int m = square ? 12 : 20, n = square ? m : 60;
    size_t w = (size_t)n; /* real data: doubles a column */
    unsigned seed = 8900u + 11u * (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, R, &seed);
    for (size_t i = 0; i < w; ++i)
        hp.A[w * (m - 2) + i] = hp.A[i] + hp.A[w + i];
    qru_lsq *f = uc_factor_q(ctx, &hp, q, 3);
    for (int t = 0; t < 2; ++t) { /* k in the middle, then at the end */
        int k = t ? hp.n : hp.n / 2;
        int st = uc_do_add_rows(ctx, f, &hp, k, 1, &seed);
        ck_assert_msg(st == 0, "add_rows k=%d: %d (%s)", k, st,
                      qru_last_error(ctx));
        char tag[96];
        snprintf(tag, sizeof tag, "%s form %d %d x %d singular R add_rows k=%d",
                 qru_test_type_name(dt), q, n, m, k);
        uc_check_ls(ctx, f, &hp, 1.0, tag, 0);
    }
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* block sizes 0 (auto), 1, 3, 64 for add_rows; remove rows down to square
 * and add rows to a square problem */
START_TEST(test_block_sizes)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    static const int nbs[] = {0, 1, 3, 64};
    for (int ib = 0; ib < 4; ++ib) {
        unsigned seed = 9000u + (unsigned)(10 * _i + ib);
        hprob hp = uc_problem(dt, 90, 60, 3, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, ib % 2, nbs[ib]);
        if (ib % 2) {
            ck_assert_int_eq(qru_lsq_remove_rows(f, 11, 30), 0);
            uc_remove_rows(&hp, 11, 30);
            uc_check(ctx, f, &hp, 1.0, "remove_rows to square");
        }
        double *U = uc_rand(dt, 33, 60, &seed);
        double *e = uc_rand(dt, 33, 3, &seed);
        /* U and e with leading dimensions larger than their rows */
        void *Uh = uc_to_dt(dt, 33, 60, U, 33), *eh = uc_to_dt(dt, 33, 3, e, 33);
        qru_matrix *Ud = qru_test_upload(ctx, dt, 33, 60, 40, Uh, 33);
        qru_matrix *ed = qru_test_upload(ctx, dt, 33, 3, 35, eh, 33);
        free(Uh);
        free(eh);
        ck_assert_int_eq(qru_lsq_add_rows(f, 17, Ud, ed), 0);
        uc_add_rows(&hp, 17, 33, U, e);
        uc_check(ctx, f, &hp, 1.0, "block size add_rows");
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(ed);
        free(U);
        free(e);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

START_TEST(test_bad_args)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    qru_dtype other = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    int n = 30, m = 10, r = 2;
    unsigned seed = 9500u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, r, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 1, 0);
    qru_lsq *g = uc_factor(ctx, &hp, 0, 0); /* R only */
    usnap s0 = uc_snap(ctx, f), s1 = uc_snap(ctx, g);
    double *X = uc_rand(dt, 4, m + 1, &seed);
    qru_matrix *U = uc_upload(ctx, dt, 4, m, X);
    qru_matrix *Unarrow = uc_upload(ctx, dt, 4, m - 1, X);
    qru_matrix *Uwide = uc_upload(ctx, dt, 4, m + 1, X);
    qru_matrix *e = uc_upload(ctx, dt, 4, r, X);
    qru_matrix *e3 = uc_upload(ctx, dt, 3, r, X);
    qru_matrix *ewide = uc_upload(ctx, dt, 4, r + 1, X);
    qru_matrix *Uother = NULL, *eother = NULL;
    if (qru_context_supports(ctx, other)) {
        Uother = uc_upload(ctx, other, 4, m, X);
        eother = uc_upload(ctx, other, 4, r, X);
    }
    qru_context *ctx2 = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &ctx2), 0);
    qru_matrix *U2 = uc_upload(ctx2, dt, 4, m, X);
    qru_matrix *e2 = uc_upload(ctx2, dt, 4, r, X);

    ck_assert_int_eq(qru_lsq_add_rows(NULL, 0, U, e), -1);
    ck_assert_int_eq(qru_lsq_add_rows(f, -1, U, e), -2);
    ck_assert_int_eq(qru_lsq_add_rows(f, n + 1, U, e), -2);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, NULL, e), -3);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, Unarrow, e), -3);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, Uwide, e), -3);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, U2, e), -3);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, U, NULL), -4);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, U, e3), -4);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, U, ewide), -4);
    ck_assert_int_eq(qru_lsq_add_rows(f, 0, U, e2), -4);
    if (Uother) {
        ck_assert_int_eq(qru_lsq_add_rows(f, 0, Uother, e), -3);
        ck_assert_int_eq(qru_lsq_add_rows(f, 0, U, eother), -4);
    }
    ck_assert_int_eq(qru_lsq_add_rows(g, n + 1, NULL, NULL), -2);

    ck_assert_int_eq(qru_lsq_remove_rows(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_lsq_remove_rows(f, -1, 1), -2);
    ck_assert_int_eq(qru_lsq_remove_rows(f, n, 1), -2);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, 0), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, -1), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 25, 6), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, n - m + 1), -3);
    ck_assert_int_eq(qru_lsq_remove_rows(g, 0, 1), QRU_ERR_NO_Q);
    ck_assert_int_eq(qru_lsq_remove_rows(g, 0, n - m + 1), -3);

    uc_snap_same(ctx, f, &s0, "bad arguments (Q)");
    uc_snap_same(ctx, g, &s1, "bad arguments (R only)");

    /* the limits themselves are valid */
    ck_assert_int_eq(qru_lsq_remove_rows(f, m, n - m), 0);
    ck_assert_int_eq(qru_lsq_add_rows(g, n, U, e), 0);

    qru_matrix_destroy(U);
    qru_matrix_destroy(Unarrow);
    qru_matrix_destroy(Uwide);
    qru_matrix_destroy(e);
    qru_matrix_destroy(e3);
    qru_matrix_destroy(ewide);
    qru_matrix_destroy(Uother);
    qru_matrix_destroy(eother);
    qru_matrix_destroy(U2);
    qru_matrix_destroy(e2);
    qru_context_destroy(ctx2);
    free(X);
    uc_snap_free(&s0);
    uc_snap_free(&s1);
    qru_lsq_destroy(f);
    qru_lsq_destroy(g);
    uc_free(&hp);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("update_rows");
    /* the same test cases for each update algorithm */
    for (int a = 0; a < 2; ++a) {
        TCase *tc = tcase_create(a == 0 ? "dissertation" : "fast");
        tcase_add_checked_fixture(tc, a == 0 ? setup_dissertation : setup_fast,
                                  teardown);
        tcase_set_timeout(tc, 300);
        tcase_add_loop_test(tc, test_add_rows, 0, 12);
        tcase_add_loop_test(tc, test_add_rows, UC_CPLX + 0, UC_CPLX + 12);
        tcase_add_loop_test(tc, test_remove_rows, 0, 6);
        tcase_add_loop_test(tc, test_remove_rows, UC_CPLX + 0, UC_CPLX + 6);
        tcase_add_loop_test(tc, test_remove_rows_large, 0, 12);
        tcase_add_loop_test(tc, test_remove_rows_large, UC_CPLX + 0,
                            UC_CPLX + 12);
        tcase_add_loop_test(tc, test_remove_rows_rank_deficient, 0, 2);
        tcase_add_loop_test(tc, test_add_rows_singular, 0, 12);
        tcase_add_loop_test(tc, test_remove_dominant_rows, 0, 24);
        tcase_add_loop_test(tc, test_remove_near_dominant_rows, 0, 12);
        tcase_add_loop_test(tc, test_remove_near_dominant_rows, UC_CPLX + 0,
                            UC_CPLX + 12);
        tcase_add_loop_test(tc, test_block_sizes, 0, 2);
        tcase_add_loop_test(tc, test_bad_args, 0, 2);
        suite_add_tcase(s, tc);
    }
    /* row removal by the tiles at every p */
    TCase *tc = tcase_create("tiles");
    tcase_add_checked_fixture(tc, setup_tiles, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_remove_rows, 0, 6);
    tcase_add_loop_test(tc, test_remove_rows, UC_CPLX + 0, UC_CPLX + 6);
    tcase_add_loop_test(tc, test_remove_rows_large, 0, 12);
    tcase_add_loop_test(tc, test_remove_rows_large, UC_CPLX + 0, UC_CPLX + 12);
    tcase_add_loop_test(tc, test_remove_rows_rank_deficient, 0, 2);
    tcase_add_loop_test(tc, test_block_sizes, 0, 2);
    suite_add_tcase(s, tc);
    /* one row added (every form: R-only here, thin in test_update_forms)
     * and removed (full form) by the Givens chains, k at both ends and in
     * the middle */
    tc = tcase_create("givens");
    tcase_add_checked_fixture(tc, setup_givens, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_add_rows, 0, 12);
    tcase_add_loop_test(tc, test_add_rows, UC_CPLX + 0, UC_CPLX + 12);
    tcase_add_loop_test(tc, test_remove_rows, 0, 6);
    tcase_add_loop_test(tc, test_remove_rows, UC_CPLX + 0, UC_CPLX + 6);
    tcase_add_loop_test(tc, test_remove_rows_rank_deficient, 0, 2);
    tcase_add_loop_test(tc, test_add_rows_singular, 0, 12);
    suite_add_tcase(s, tc);
    /* one row added by the structured rank-1 passes */
    tc = tcase_create("r1");
    tcase_add_checked_fixture(tc, setup_r1, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_add_rows, 0, 12);
    tcase_add_loop_test(tc, test_add_rows_singular, 0, 12);
    /* one row removed from the thin and full forms by the closed-form
     * rotations of the structured passes (rows_r1.c) */
    tcase_add_loop_test(tc, test_remove_dominant_rows, 0, 24);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
