/* QR updates that add and remove blocks of columns
 * (qru_lsq_add_cols / qru_lsq_remove_cols), both precisions,
 * with and without Q, k at the start, middle and end, p around the block
 * size; rank deficiency and bad arguments leave f unchanged. */
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
/* QRU_UPDATE_FAST with one column's updates by Givens chains (the
 * default takes them where their plan is priced faster) */
static void setup_givens(void)
{
    setup_fast();
    uc_set_givens(ctx, 2);
}
/* QRU_UPDATE_FAST with one column's removal by the structured rank-1
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
static const int PS[] = {1, NB - 1, NB, NB + 1, 40};
#define NP ((int)(sizeof PS / sizeof PS[0]))

/* loop index i -> dtype (i % 2) and k choice (i / 2 % 3) */
START_TEST(test_add_cols)
{
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int kc = (i_ / 2) % 3;
    for (int ip = 0; ip < NP; ++ip) {
        int p = PS[ip];
        int k = kc == 0 ? 0 : kc == 1 ? M / 2 : M;
        unsigned seed = 1000u + 17u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, N, M, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, 1, NB);
        double *U = uc_rand(dt, N, p, &seed);
        qru_matrix *Ud = uc_upload(ctx, dt, N, p, U);
        int st = qru_lsq_add_cols(f, k, Ud);
        ck_assert_msg(st == 0, "add_cols k=%d p=%d: %d", k, p, st);
        uc_add_cols(&hp, k, p, U);
        char tag[96];
        snprintf(tag, sizeof tag, "%s add_cols k=%d p=%d",
                 qru_test_type_name(dt), k, p);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_matrix_destroy(Ud);
        free(U);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* larger additions: p around the size from which QRU_UPDATE_FAST
 * accumulates the Givens phase into GEMMs (16), with several groups of
 * accumulated rotations (L = m - k up to 150).  loop index: dtype, k */
START_TEST(test_add_cols_large)
{
    static const int ps[] = {15, 16, 17, 60};
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int n = 300, m = 150;
    int k = (i_ / 2) % 2 ? 37 : 0;
    for (int ip = 0; ip < 4; ++ip) {
        int p = ps[ip];
        unsigned seed = 1500u + 19u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, n, m, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, 1, 0);
        double *U = uc_rand(dt, n, p, &seed);
        qru_matrix *Ud = uc_upload(ctx, dt, n, p, U);
        int st = qru_lsq_add_cols(f, k, Ud);
        ck_assert_msg(st == 0, "add_cols k=%d p=%d: %d", k, p, st);
        uc_add_cols(&hp, k, p, U);
        char tag[96];
        snprintf(tag, sizeof tag, "%s add_cols n=%d m=%d k=%d p=%d",
                 qru_test_type_name(dt), n, m, k, p);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_matrix_destroy(Ud);
        free(U);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* loop index: dtype, with/without Q, k choice */
START_TEST(test_remove_cols)
{
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int keep_q = (i_ / 2) % 2;
    int kc = (i_ / 4) % 3;
    for (int ip = 0; ip < NP; ++ip) {
        int p = PS[ip];
        int k = kc == 0 ? 0 : kc == 1 ? (M - p) / 2 : M - p;
        unsigned seed = 2000u + 31u * (unsigned)i_ + (unsigned)ip;
        hprob hp = uc_problem(dt, N, M, R, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, keep_q, NB);
        int st = qru_lsq_remove_cols(f, k, p);
        ck_assert_msg(st == 0, "remove_cols k=%d p=%d: %d", k, p, st);
        uc_remove_cols(&hp, k, p);
        char tag[96];
        snprintf(tag, sizeof tag, "%s %s remove_cols k=%d p=%d",
                 qru_test_type_name(dt), keep_q ? "Q" : "R-only",
                 k, p);
        uc_check(ctx, f, &hp, 1.0, tag);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* Column k removed from a rank-deficient A whose A1 has full rank:
 * column m-1 (1-based) is A(:,k+1) + A(:,k+2), so that the triangle
 * R22 = R(k+2:m, k+2:m) left after column k+1 is numerically singular
 * (a pivot of rounding size before its last one) and the row
 * u = R(k+1, k+2:m) that joins it is not in the range of R22'.  The
 * structured passes would solve R22' p = u, a p of size 1 / eps, and
 * lose all accuracy; they must hand such a removal to the Givens or
 * blocked path.  Full and Q-less forms (a QR of a singular A is valid),
 * square and tall A, k at the start and in the middle.  loop index:
 * dtype, form, k choice, shape */
START_TEST(test_remove_cols_singular)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int keep_q = (_i / 2) % 2, mid = (_i / 4) % 2, square = (_i / 8) % 2;
    int m = square ? 12 : 20, n = square ? m : 60;
    int k = mid ? m / 2 - 1 : 0;
    size_t w = (size_t)uc_w(dt) * n; /* doubles a column */
    unsigned seed = 2500u + 13u * (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    for (size_t i = 0; i < w; ++i)
        hp.A[w * (m - 2) + i] = hp.A[w * k + i] + hp.A[w * (k + 1) + i];
    qru_lsq *f = uc_factor(ctx, &hp, keep_q, 3);
    int st = qru_lsq_remove_cols(f, k, 1);
    ck_assert_msg(st == 0, "remove_cols k=%d: %d (%s)", k, st,
                  qru_last_error(ctx));
    uc_remove_cols(&hp, k, 1);
    char tag[96];
    snprintf(tag, sizeof tag, "%s %s %d x %d singular R22 remove_cols k=%d",
             qru_test_type_name(dt), keep_q ? "Q" : "R-only", n, m, k);
    uc_check_ls(ctx, f, &hp, 1.0, tag, 0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* default (automatic) block size, and block sizes 1 and larger than p */
START_TEST(test_block_sizes)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    static const int nbs[] = {0, 1, 3, 64};
    for (int ib = 0; ib < 4; ++ib) {
        unsigned seed = 3000u + (unsigned)(10 * _i + ib);
        hprob hp = uc_problem(dt, 150, 60, 3, &seed);
        qru_lsq *f = uc_factor(ctx, &hp, 1, nbs[ib]);
        ck_assert_int_eq(qru_lsq_update_block_size(f), nbs[ib]);
        double *U = uc_rand(dt, 150, 25, &seed);
        qru_matrix *Ud = uc_upload(ctx, dt, 150, 25, U);
        ck_assert_int_eq(qru_lsq_add_cols(f, 20, Ud), 0);
        uc_add_cols(&hp, 20, 25, U);
        uc_check(ctx, f, &hp, 1.0, "block size add_cols");
        ck_assert_int_eq(qru_lsq_remove_cols(f, 10, 30), 0);
        uc_remove_cols(&hp, 10, 30);
        uc_check(ctx, f, &hp, 1.0, "block size remove_cols");
        qru_matrix_destroy(Ud);
        free(U);
        qru_lsq_destroy(f);
        uc_free(&hp);
    }
}
END_TEST

/* columns filling the problem up to square (n1 = m1), and removing all but
 * one column */
START_TEST(test_extremes)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    unsigned seed = 4000u + (unsigned)_i;
    hprob hp = uc_problem(dt, 40, 25, 1, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 1, 4);
    double *U = uc_rand(dt, 40, 15, &seed);
    /* U with a leading dimension larger than its rows */
    void *Uh = uc_to_dt(dt, 40, 15, U, 40);
    qru_matrix *Ud = qru_test_upload(ctx, dt, 40, 15, 45, Uh, 40);
    free(Uh);
    ck_assert_int_eq(qru_lsq_add_cols(f, 7, Ud), 0);
    uc_add_cols(&hp, 7, 15, U);
    /* square A1: the residual is zero, the solution still is A1 \ b */
    uc_check(ctx, f, &hp, 1.0, "add_cols to square");
    ck_assert_int_eq(qru_lsq_remove_cols(f, 1, 39), 0);
    uc_remove_cols(&hp, 1, 39);
    uc_check(ctx, f, &hp, 1.0, "remove_cols to one column");
    qru_matrix_destroy(Ud);
    free(U);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* rank-deficient added columns: positive status, f unchanged */
START_TEST(test_add_cols_rank)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 60, m = 20, k = 5;
    unsigned seed = 5000u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 1, 3);
    usnap s0 = uc_snap(ctx, f);
    double *U = uc_rand(dt, n, 4, &seed);
    /* case 1: U(:,3) = A(:,1) (in the span of the kept columns) */
    memcpy(U + 2 * n, hp.A, sizeof(double) * n);
    qru_matrix *Ud = uc_upload(ctx, dt, n, 4, U);
    int st = qru_lsq_add_cols(f, k, Ud);
    ck_assert_msg(st == k + 3, "duplicate of a kept column: status %d", st);
    uc_snap_same(ctx, f, &s0, "rank-deficient U (kept column)");
    qru_matrix_destroy(Ud);
    free(U);
    /* case 2: a zero column */
    U = uc_rand(dt, n, 4, &seed);
    for (int i = 0; i < n; ++i)
        U[i + 1 * n] = 0.0;
    Ud = uc_upload(ctx, dt, n, 4, U);
    st = qru_lsq_add_cols(f, k, Ud);
    ck_assert_msg(st == k + 2, "zero column: status %d", st);
    uc_snap_same(ctx, f, &s0, "zero column");
    qru_matrix_destroy(Ud);
    free(U);
    /* case 3: U = A(:, k+1), the column after the block: the shifted old
     * column k+1 (now k+p+1) becomes dependent */
    U = malloc(sizeof(double) * n);
    ck_assert_ptr_nonnull(U);
    memcpy(U, hp.A + (size_t)k * n, sizeof(double) * n);
    Ud = uc_upload(ctx, dt, n, 1, U);
    st = qru_lsq_add_cols(f, k, Ud);
    ck_assert_msg(st == k + 2, "duplicate of the next column: status %d", st);
    uc_snap_same(ctx, f, &s0, "rank-deficient U (next column)");
    qru_matrix_destroy(Ud);
    free(U);
    /* the factorisation still works */
    U = uc_rand(dt, n, 4, &seed);
    Ud = uc_upload(ctx, dt, n, 4, U);
    ck_assert_int_eq(qru_lsq_add_cols(f, k, Ud), 0);
    uc_add_cols(&hp, k, 4, U);
    uc_check(ctx, f, &hp, 1.0, "after rank-deficient attempts");
    qru_matrix_destroy(Ud);
    free(U);
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* QRU_RANK_ACCEPT: a column in the span of the kept ones completes in
 * the full form (a valid QR of the rank-deficient A1; the solve reports
 * the rank) and is still refused in the thin form (its new column of Q1
 * cannot be formed), f unchanged.  _i: dtype x form. */
START_TEST(test_add_cols_rank_accept)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int thin = _i / 2, n = 60, m = 20, k = 5;
    unsigned seed = 6100u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor_rank(ctx, &hp, thin ? QRU_Q_THIN : QRU_Q_FULL, 3,
                                QRU_RANK_ACCEPT);
    usnap s0 = uc_snap(ctx, f);
    double *U = uc_rand(dt, n, 4, &seed);
    memcpy(U + 2 * n, hp.A, sizeof(double) * n); /* U(:,3) = A(:,1) */
    qru_matrix *Ud = uc_upload(ctx, dt, n, 4, U);
    int st = qru_lsq_add_cols(f, k, Ud);
    if (thin) {
        ck_assert_msg(st == k + 3, "thin, dependent column: status %d", st);
        uc_snap_same(ctx, f, &s0, "thin form, QRU_RANK_ACCEPT");
    } else {
        ck_assert_msg(st == 0, "full, dependent column accepted: %d (%s)", st,
                      qru_last_error(ctx));
        uc_add_cols(&hp, k, 4, U);
        uc_check_ls(ctx, f, &hp, 1.0, "dependent column accepted", 0);
        qru_matrix *x = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m + 4, 2, 0, &x), 0);
        ck_assert_int_eq(qru_lsq_solve(f, x), k + 3);
        qru_matrix_destroy(x);
    }
    qru_matrix_destroy(Ud);
    free(U);
    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* A nearly dependent column added next to a much larger one: the rank
 * rule's tolerance is global (max(n, m1) eps times the LARGEST column norm
 * of A1), so U(:,2) = A(:,1) + delta w with R1(k+2,k+2) about 1e5 eps is
 * rank-deficient here although it is far above n eps ||A1(:,k+2)||.  The
 * update reports column k+2 and leaves f unchanged, with the fixture's
 * algorithm and with AUTO (which may refactorise).  The same columns with
 * U(:,1) of ordinary size are accepted. */
START_TEST(test_add_cols_near_rank)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int n = 60, m = 20, k = 5, p = 3;
    double eps = dt == QRU_DOUBLE ? 2.220446049250313e-16 : 1.1920929e-07;
    unsigned seed = 5200u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    for (int alg = 0; alg < 2; ++alg) {
        qru_lsq *f = uc_factor(ctx, &hp, 1, 3);
        if (alg)
            ck_assert_int_eq(
                qru_lsq_set_update_algorithm(f, QRU_UPDATE_AUTO), 0);
        usnap s0 = uc_snap(ctx, f);
        double *U = uc_rand(dt, n, p, &seed);
        double *w = uc_rand(dt, n, 1, &seed);
        /* ||w|| ~ sqrt(n/3) and about sqrt((n - k - 1) / 3) of it is
         * orthogonal to the columns before: R1(k+2,k+2) ~ delta * 4 */
        double delta = 2.5e4 * eps;
        for (int i = 0; i < n; ++i) {
            U[i] *= 1e4;
            U[i + n] = hp.A[i] + delta * w[i];
        }
        qru_matrix *Ud = uc_upload(ctx, dt, n, p, U);
        int st = qru_lsq_add_cols(f, k, Ud);
        ck_assert_msg(st == k + 2, "%s: nearly dependent column: status %d",
                      alg ? "auto" : uc_alg_name(), st);
        uc_snap_same(ctx, f, &s0, "nearly dependent column");
        qru_matrix_destroy(Ud);
        /* the same column without the large one is accepted */
        for (int i = 0; i < n; ++i)
            U[i] *= 1e-4;
        Ud = uc_upload(ctx, dt, n, p, U);
        st = qru_lsq_add_cols(f, k, Ud);
        ck_assert_msg(st == 0, "%s: same column, no large one: status %d",
                      alg ? "auto" : uc_alg_name(), st);
        qru_matrix_destroy(Ud);
        free(U);
        free(w);
        uc_snap_free(&s0);
        qru_lsq_destroy(f);
    }
    uc_free(&hp);
}
END_TEST

/* The thin form: two new columns nearly parallel (U(:,2) = U(:,1) +
 * delta w, delta = 10 max(n, m1) eps, well above the rank rule's
 * tolerance), so that the remainder Z = Qz R22 of CGS2 is ill-conditioned
 * although each of its columns is orthogonal to Q1 to working precision:
 * Qz must still be orthogonal to Q1 (Qz = Z inv(R22) alone lost it by the
 * condition of R22, ||Q1'Q1 - I|| 1e3 n eps and more).  With m + p < n
 * and m + p = n (Q1 square), after a row removal (as the input that
 * showed it).  _i: dtype x (m + p < n, = n). */
START_TEST(test_add_cols_thin_parallel)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int square = _i / 2, n = 61, m = square ? 56 : 20, k = 3, p = 2;
    double eps = qru_test_eps(dt);
    unsigned seed = 7300u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, QRU_Q_THIN, 0);
    ck_assert_int_eq(qru_lsq_remove_rows(f, 0, 1), 0);
    uc_remove_rows(&hp, 0, 1);
    n -= 1;
    double *U = uc_rand(dt, n, p, &seed), *w = uc_rand(dt, n, 1, &seed);
    double delta = 10.0 * (n > m + p ? n : m + p) * eps;
    for (int i = 0; i < n; ++i)
        U[i + n] = U[i] + delta * w[i];
    void *Ut = uc_to_dt(dt, n, p, U, n); /* the values of dt */
    for (int i = 0; i < n; ++i)
        U[i + n] = qru_test_get(dt, Ut, n, i, 1);
    free(Ut);
    qru_matrix *Ud = uc_upload(ctx, dt, n, p, U);
    int st = qru_lsq_add_cols(f, k, Ud);
    ck_assert_msg(st == 0, "nearly parallel columns (m + p %s n): status %d",
                  square ? "=" : "<", st);
    uc_add_cols(&hp, k, p, U);
    uc_check_ls(ctx, f, &hp, 1.0, "thin, nearly parallel new columns", 0);
    qru_matrix_destroy(Ud);
    free(U);
    free(w);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

START_TEST(test_bad_args)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    qru_dtype other = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    int n = 30, m = 10;
    unsigned seed = 6000u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor(ctx, &hp, 1, 0);
    qru_lsq *g = uc_factor(ctx, &hp, 0, 0); /* R only */
    usnap s0 = uc_snap(ctx, f), s1 = uc_snap(ctx, g);
    double *U = uc_rand(dt, n + 1, 21, &seed);
    qru_matrix *U1 = uc_upload(ctx, dt, n, 3, U);
    qru_matrix *Ushort = uc_upload(ctx, dt, n - 1, 3, U);
    qru_matrix *Uwide = uc_upload(ctx, dt, n, 21, U); /* m + 21 > n */
    qru_matrix *Uok20 = uc_upload(ctx, dt, n, 20, U); /* m + 20 = n: ok */
    qru_matrix *Uother = NULL;
    if (qru_context_supports(ctx, other))
        Uother = uc_upload(ctx, other, n, 3, U);
    qru_context *ctx2 = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &ctx2), 0);
    qru_matrix *Uctx2 = uc_upload(ctx2, dt, n, 3, U);

    ck_assert_int_eq(qru_lsq_add_cols(NULL, 0, U1), -1);
    ck_assert_int_eq(qru_lsq_add_cols(f, -1, U1), -2);
    ck_assert_int_eq(qru_lsq_add_cols(f, m + 1, U1), -2);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, NULL), -3);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, Ushort), -3);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, Uwide), -3);
    ck_assert_int_eq(qru_lsq_add_cols(f, 0, Uctx2), -3);
    if (Uother)
        ck_assert_int_eq(qru_lsq_add_cols(f, 0, Uother), -3);
    ck_assert_int_eq(qru_lsq_add_cols(f, -1, NULL), -2);
    ck_assert_int_eq(qru_lsq_add_cols(g, 0, U1), QRU_ERR_NO_Q);
    ck_assert_int_eq(qru_lsq_add_cols(g, -1, U1), -2);

    ck_assert_int_eq(qru_lsq_remove_cols(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_lsq_remove_cols(f, -1, 1), -2);
    ck_assert_int_eq(qru_lsq_remove_cols(f, m, 1), -2);
    ck_assert_int_eq(qru_lsq_remove_cols(f, m, 0), -2);
    ck_assert_int_eq(qru_lsq_remove_cols(f, 0, 0), -3);
    ck_assert_int_eq(qru_lsq_remove_cols(f, 0, -2), -3);
    ck_assert_int_eq(qru_lsq_remove_cols(f, 3, m - 2), -3);
    ck_assert_int_eq(qru_lsq_remove_cols(f, 0, m), -3); /* m1=0 */
    ck_assert_int_eq(qru_lsq_remove_cols(g, 0, m), -3);

    ck_assert_int_eq(qru_lsq_set_update_block_size(NULL, 1), -1);
    ck_assert_int_eq(qru_lsq_set_update_block_size(f, -1), -2);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(NULL,
                                                  QRU_UPDATE_DISSERTATION),
                     -1);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, (qru_update_algorithm)77),
                     -2);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, (qru_update_algorithm)-1),
                     -2);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, (qru_update_algorithm)4),
                     -2);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), (int)uc_alg); /* unchanged */
    ck_assert_int_eq(qru_lsq_update_algorithm(NULL), -1);
    ck_assert_int_eq(
        qru_lsq_set_update_algorithm(f, QRU_UPDATE_DISSERTATION), 0);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), QRU_UPDATE_DISSERTATION);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST), 0);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), QRU_UPDATE_FAST);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, uc_alg), 0);
    ck_assert_int_eq(qru_lsq_update_block_size(NULL), -1);

    uc_snap_same(ctx, f, &s0, "bad arguments (Q)");
    uc_snap_same(ctx, g, &s1, "bad arguments (R only)");

    /* the limits themselves are valid */
    ck_assert_int_eq(qru_lsq_add_cols(f, m, Uok20), 0);
    ck_assert_int_eq(qru_lsq_remove_cols(g, 0, m - 1), 0);

    qru_matrix_destroy(U1);
    qru_matrix_destroy(Ushort);
    qru_matrix_destroy(Uwide);
    qru_matrix_destroy(Uok20);
    qru_matrix_destroy(Uother);
    qru_matrix_destroy(Uctx2);
    qru_context_destroy(ctx2);
    free(U);
    uc_snap_free(&s0);
    uc_snap_free(&s1);
    qru_lsq_destroy(f);
    qru_lsq_destroy(g);
    uc_free(&hp);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("update_cols");
    /* the same test cases for each update algorithm */
    for (int a = 0; a < 2; ++a) {
        TCase *tc = tcase_create(a == 0 ? "dissertation" : "fast");
        tcase_add_checked_fixture(tc, a == 0 ? setup_dissertation : setup_fast,
                                  teardown);
        tcase_set_timeout(tc, 300);
        tcase_add_loop_test(tc, test_add_cols, 0, 6);
        tcase_add_loop_test(tc, test_add_cols, UC_CPLX + 0, UC_CPLX + 6);
        tcase_add_loop_test(tc, test_add_cols_large, 0, 4);
        tcase_add_loop_test(tc, test_add_cols_large, UC_CPLX + 0, UC_CPLX + 4);
        tcase_add_loop_test(tc, test_remove_cols, 0, 12);
        tcase_add_loop_test(tc, test_remove_cols, UC_CPLX + 0, UC_CPLX + 12);
        tcase_add_loop_test(tc, test_remove_cols_singular, 0, 16);
        tcase_add_loop_test(tc, test_block_sizes, 0, 2);
        tcase_add_loop_test(tc, test_extremes, 0, 2);
        tcase_add_loop_test(tc, test_add_cols_rank, 0, 2);
        tcase_add_loop_test(tc, test_add_cols_rank_accept, 0, 4);
        tcase_add_loop_test(tc, test_add_cols_near_rank, 0, 2);
        tcase_add_loop_test(tc, test_add_cols_thin_parallel, 0, 4);
        tcase_add_loop_test(tc, test_bad_args, 0, 2);
        suite_add_tcase(s, tc);
    }
    /* one column's removal by the Givens chain (k at both ends and in
     * the middle, with Q and without) */
    TCase *tc = tcase_create("givens");
    tcase_add_checked_fixture(tc, setup_givens, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_remove_cols, 0, 12);
    tcase_add_loop_test(tc, test_remove_cols, UC_CPLX + 0, UC_CPLX + 12);
    tcase_add_loop_test(tc, test_extremes, 0, 2);
    tcase_add_loop_test(tc, test_remove_cols_singular, 0, 16);
    suite_add_tcase(s, tc);
    /* one column's removal by the structured rank-1 passes */
    tc = tcase_create("r1");
    tcase_add_checked_fixture(tc, setup_r1, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_remove_cols, 0, 12);
    tcase_add_loop_test(tc, test_extremes, 0, 2);
    tcase_add_loop_test(tc, test_remove_cols_singular, 0, 16);
    suite_add_tcase(s, tc);
    /* the tiled insertion at every p (adding columns only) */
    tc = tcase_create("tiles");
    tcase_add_checked_fixture(tc, setup_tiles, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_add_cols, 0, 6);
    tcase_add_loop_test(tc, test_add_cols, UC_CPLX + 0, UC_CPLX + 6);
    tcase_add_loop_test(tc, test_add_cols_large, 0, 4);
    tcase_add_loop_test(tc, test_add_cols_large, UC_CPLX + 0, UC_CPLX + 4);
    tcase_add_loop_test(tc, test_block_sizes, 0, 2);
    tcase_add_loop_test(tc, test_extremes, 0, 2);
    tcase_add_loop_test(tc, test_add_cols_rank, 0, 2);
    tcase_add_loop_test(tc, test_add_cols_rank_accept, 0, 4);
    tcase_add_loop_test(tc, test_add_cols_near_rank, 0, 2);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
