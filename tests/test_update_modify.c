/* The rank-k modification qru_lsq_modify (A1 = A + U V') against LAPACKE
 * on the host A1 (update_check.h: scaled backward error, orthogonality,
 * d = Q1' b (thin: and E = b - Q1 d), the least-squares solution and
 * residuals), in the full and thin forms, both precisions, both update
 * algorithms and AUTO (which may refactorise): sizes around the block
 * boundaries of the windows (nb + k rows) and panels, k = 1, small, above
 * the block size and above n, square A, U in the range of A; the argument
 * checks, non-finite inputs with QRU_OPTION_CHECK_FINITE, a rank-deficient
 * A1 (status j, f unchanged bit for bit); and chains that mix the
 * modification with the four block updates; QRU_UPDATE_FAST with
 * look-ahead off and on (Q and d on copies, on the second queue). */
#include <limits.h>

#include "update_check.h"

#include "../src/update/update.h"

#define ctx uc_ctx

/* hp: A := A + U V' (U n x k, V m x k, ld n and m; ' the conjugate
 * transpose for a complex type) */
static void uc_modify(hprob *hp, int k, const double *U, const double *V)
{
    if (uc_w(hp->dt) == 2) {
        double one[2] = {1.0, 0.0};
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, hp->n, hp->m,
                    k, one, U, hp->n, V, hp->m, one, hp->A, hp->n);
        return;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, hp->n, hp->m, k, 1.0,
                U, hp->n, V, hp->m, 1.0, hp->A, hp->n);
}

/* qru_lsq_modify on f with host U, V; on success hp follows */
static int do_modify(qru_lsq *f, hprob *hp, int k, const double *U,
                     const double *V)
{
    qru_matrix *Ud = uc_upload(ctx, hp->dt, hp->n, k, U);
    qru_matrix *Vd = uc_upload(ctx, hp->dt, hp->m, k, V);
    int st = qru_lsq_modify(f, Ud, Vd);
    if (st == 0)
        uc_modify(hp, k, U, V);
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(Vd);
    return st;
}

/* U (n x k), V (m x k) such that U V' = -A(:, j) e_j': U(:, 1) =
 * -A(:, j), V(:, 1) = e_j, V(j, 2:k) = 0 (the other entries as given) */
static void zero_column(const hprob *hp, int j, int k, double *U, double *V)
{
    int n = hp->n, m = hp->m;
    for (int i = 0; i < n; ++i)
        U[i] = -hp->A[i + (size_t)j * n];
    for (int i = 0; i < m; ++i)
        V[i] = i == j ? 1.0 : 0.0;
    for (int c = 1; c < k; ++c)
        V[(size_t)c * m + j] = 0.0;
}

/* n, m, k, update block size (0: auto) */
static const int cases[][4] = {
    {40, 20, 1, 0},   /* k = 1 */
    {41, 20, 3, 0},   /* small k */
    {64, 32, 8, 0},   /* n - m > k: the lower QR, then windows */
    {30, 30, 5, 0},   /* square: windows only */
    {75, 40, 33, 0},  /* k > 32: windows of 2 k rows */
    {90, 70, 7, 4},   /* narrow windows and panels (nb = 4) */
    {97, 64, 16, 16}, /* nb = k: window and panel boundaries */
    {96, 35, 1, 1},   /* one-row windows: the band is k */
    {20, 12, 30, 0},  /* k > n (full form; thin: k = n - m) */
    {70, 66, 9, 0},   /* n - m < k: no lower QR */
    {45, 21, 3, INT_MAX}, /* a block size beyond every size: one window */
    {150, 80, 70, 0}, /* k wider than the fused panels: blocked windows */
};
enum { NCASES = sizeof cases / sizeof cases[0] };

/* _i: case x dtype x form (full, thin); from UC_CPLX on the complex
 * types */
START_TEST(test_modify_sizes)
{
    int i_ = _i, cx = i_ >= UC_CPLX;
    if (cx)
        i_ -= UC_CPLX;
    int c = i_ % NCASES, di = (i_ / NCASES) % 2, form = i_ / (2 * NCASES);
    qru_dtype dt = cx ? (di ? QRU_COMPLEX_DOUBLE : QRU_COMPLEX_FLOAT)
                      : qru_test_dtype(ctx, di);
    if (cx ? !qru_context_supports(ctx, dt) : di >= qru_test_ndtypes(ctx))
        return;
    int n = cases[c][0], m = cases[c][1], k = cases[c][2], nb = cases[c][3];
    int q = form == 0 ? QRU_Q_FULL : QRU_Q_THIN;
    if (q == QRU_Q_THIN && n > m && k > n - m)
        k = n - m;
    unsigned seed = 5150u + 97u * (unsigned)i_;
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, q, nb);
    for (int rep = 0; rep < 2; ++rep) { /* twice: an update of an update */
        double *U = uc_rand(dt, n, k, &seed), *V = uc_rand(dt, m, k, &seed);
        char tag[160];
        snprintf(tag, sizeof tag, "%s %s n %d m %d k %d nb %d, update %d",
                 qru_test_type_name(dt),
                 q == QRU_Q_FULL ? "Q" : "thin-Q", n, m, k, nb, rep + 1);
        int st = do_modify(f, &hp, k, U, V);
        ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
        int path = qru_lsq_last_update_path(f);
        ck_assert_msg(path == QRU_PATH_UPDATE ||
                          (uc_alg == QRU_UPDATE_AUTO &&
                           path == QRU_PATH_REFACTOR),
                      "%s: path %d", tag, path);
        uc_check(ctx, f, &hp, 1.0, tag);
        free(U);
        free(V);
    }
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* The start of a test with loop index i = dtype + 2 form (+ 4 more):
 * the problem hp (n x m, r right-hand sides, seed *seed) factorised in
 * the full (form 0) or thin form with update block size nb and the rank
 * option rank (qru_lsq_rank); NULL when the context has no such dtype. */
static qru_lsq *begin_rank(int i, int n, int m, int r, int nb, int rank,
                           unsigned *seed, hprob *hp)
{
    int di = i % 2, form = (i / 2) % 2;
    if (di >= qru_test_ndtypes(ctx))
        return NULL;
    *hp = uc_problem(qru_test_dtype(ctx, di), n, m, r, seed);
    return uc_factor_rank(ctx, hp, form == 0 ? QRU_Q_FULL : QRU_Q_THIN, nb,
                          rank);
}

/* begin_rank with the default rank option (QRU_RANK_REFUSE) */
static qru_lsq *begin(int i, int n, int m, int r, int nb, unsigned *seed,
                      hprob *hp)
{
    return begin_rank(i, n, m, r, nb, QRU_RANK_REFUSE, seed, hp);
}

/* U in the range of A (U = A X): in the thin form the remainder
 * U - Q1 Q1' U is rounding noise and Rz numerically singular, which is
 * allowed; the result must stay orthogonal.  _i: dtype x form x k. */
START_TEST(test_modify_in_range)
{
    int k = _i / 4 == 0 ? 1 : 6, n = 50, m = 20;
    unsigned seed = 777u + 13u * (unsigned)_i;
    hprob hp;
    qru_lsq *f = begin(_i, n, m, 1, 0, &seed, &hp);
    if (!f)
        return;
    qru_dtype dt = hp.dt;
    double *X = uc_rand(dt, m, k, &seed), *V = uc_rand(dt, m, k, &seed);
    double *U = malloc(sizeof(double) * (size_t)n * k);
    ck_assert_ptr_nonnull(U);
    /* U = A X / m, rounded to dt (the host problem holds dt's values) */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, m,
                1.0 / m, hp.A, n, X, m, 0.0, U, n);
    void *Ut = uc_to_dt(dt, n, k, U, n);
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < n; ++i)
            U[i + (size_t)j * n] = qru_test_get(dt, Ut, n, i, j);
    free(Ut);
    int st = do_modify(f, &hp, k, U, V);
    ck_assert_msg(st == 0, "U in range(A), k %d: %d (%s)", k, st,
                  qru_last_error(ctx));
    uc_check(ctx, f, &hp, 1.0, "U in range(A)");
    free(X);
    free(U);
    free(V);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* A1 rank-deficient: U = -A(:, j), V = e_j zeroes column j of A1; the
 * status is j + 1 and f is unchanged bit for bit.  _i: dtype x form. */
START_TEST(test_modify_rank)
{
    int n = 45, m = 18;
    unsigned seed = 31337u + 11u * (unsigned)_i;
    hprob hp;
    qru_lsq *f = begin(_i, n, m, 2, 0, &seed, &hp);
    if (!f)
        return;
    qru_dtype dt = hp.dt;
    for (int j = 0; j < m; j += 7) {
        /* two columns: -A(:, j) with V = e_j, and a random pair whose
         * contribution to column j is zero (V(j, 1) = 0) */
        double *U = uc_rand(dt, n, 2, &seed), *V = uc_rand(dt, m, 2, &seed);
        zero_column(&hp, j, 2, U, V);
        usnap s0 = uc_snap(ctx, f);
        int st = do_modify(f, &hp, 2, U, V);
        ck_assert_msg(st == j + 1, "column %d zeroed: status %d, expected %d",
                      j, st, j + 1);
        ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "qru_lsq_modify"));
        uc_snap_same(ctx, f, &s0, "rank-deficient A + U V'");
        uc_snap_free(&s0);
        free(U);
        free(V);
    }
    /* f still works */
    double *U = uc_rand(dt, n, 3, &seed), *V = uc_rand(dt, m, 3, &seed);
    ck_assert_int_eq(do_modify(f, &hp, 3, U, V), 0);
    uc_check(ctx, f, &hp, 1.0, "after the failed modifications");
    free(U);
    free(V);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* QRU_RANK_ACCEPT: the same rank-deficient A + U V' completes in both
 * forms with a valid factorisation, and the solve reports the rank;
 * a rank value outside the enum is argument 4 of qru_lsq_create.
 * _i: dtype x form. */
START_TEST(test_modify_rank_accept)
{
    int n = 45, m = 18, di = _i % 2, form = (_i / 2) % 2;
    unsigned seed = 4242u + 7u * (unsigned)_i;
    if (di >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, di);
    hprob hp = uc_problem(dt, n, m, 2, &seed);
    qru_lsq *f = uc_factor_rank(ctx, &hp, form ? QRU_Q_THIN : QRU_Q_FULL, 0,
                                QRU_RANK_ACCEPT);
    qru_matrix *x = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, 2, 0, &x), 0);
    for (int j = 11; j >= 4; j -= 7) {
        double *U = uc_rand(dt, n, 2, &seed), *V = uc_rand(dt, m, 2, &seed);
        zero_column(&hp, j, 2, U, V);
        int st = do_modify(f, &hp, 2, U, V);
        ck_assert_msg(st == 0, "column %d zeroed, QRU_RANK_ACCEPT: %d (%s)",
                      j, st, qru_last_error(ctx));
        uc_check_ls(ctx, f, &hp, 1.0, "rank-deficient A + U V' accepted", 0);
        ck_assert_int_eq(qru_lsq_solve(f, x), j + 1);
        free(U);
        free(V);
    }
    qru_matrix_destroy(x);
    qru_lsq_destroy(f);
    /* the option's own check */
    qru_matrix *A = uc_upload(ctx, dt, n, m, hp.A);
    qru_matrix *b = uc_upload(ctx, dt, n, 2, hp.B);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.rank = 2;
    f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, &opt, &f), -4);
    ck_assert_ptr_null(f);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    uc_free(&hp);
}
END_TEST

/* QRU_RANK_ACCEPT, columns zeroed again and again (the sequence of a
 * fuzzer input): from the second time on U(:,1) = -A(:,j) = 0, so the
 * thin form's remainder Z has an exactly zero column, whose Householder
 * vector is a unit vector that need not be orthogonal to Q1, and A1
 * falls to rank 2.  Q1'Q1 - I grew to 300 n eps in float before the new
 * columns were made orthogonal to Q1 once more.  _i: dtype x form. */
START_TEST(test_modify_zero_again)
{
    static const int steps[][2] = {{1, 0}, {1, 1}, {2, 0}, {2, 0}, {2, 0},
                                   {2, 2}, {2, 0}, {2, 0}, {2, 0}, {3, 3},
                                   {2, 0}, {1, 1}};
    int n = 9, m = 4;
    unsigned seed = 5151u + 3u * (unsigned)_i;
    hprob hp;
    qru_lsq *f = begin_rank(_i, n, m, 1, 0, QRU_RANK_ACCEPT, &seed, &hp);
    if (!f)
        return;
    qru_dtype dt = hp.dt;
    for (size_t t = 0; t < sizeof steps / sizeof steps[0]; ++t) {
        int k = steps[t][0], j = steps[t][1];
        double *U = uc_rand(dt, n, k, &seed), *V = uc_rand(dt, m, k, &seed);
        zero_column(&hp, j, k, U, V);
        int st = do_modify(f, &hp, k, U, V);
        ck_assert_msg(st == 0, "column %d zeroed (step %zu), k %d: %d (%s)", j,
                      t, k, st, qru_last_error(ctx));
        uc_check_ls(ctx, f, &hp, 1.0, "a zero column zeroed again", 0);
        free(U);
        free(V);
    }
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* Arguments in order, the Q-less form, non-finite U and V; every failure
 * leaves f unchanged.  _i: form (full, thin, Q-less). */
START_TEST(test_modify_args)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int n = 30, m = 12, r = 1, form = _i;
    int q = form == 0 ? QRU_Q_FULL : form == 1 ? QRU_Q_THIN : QRU_Q_NONE;
    unsigned seed = 4242u + (unsigned)_i;
    hprob hp = uc_problem(dt, n, m, r, &seed);
    qru_lsq *f = uc_factor_q(ctx, &hp, q, 0);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    double *Uh = uc_rand(dt, n + 1, 20, &seed),
           *Vh = uc_rand(dt, m + 1, 20, &seed);
    qru_matrix *U = uc_upload(ctx, dt, n, 2, Uh),
               *V = uc_upload(ctx, dt, m, 2, Vh),
               *Ubad = uc_upload(ctx, dt, n + 1, 2, Uh),
               *Vbad = uc_upload(ctx, dt, m + 1, 2, Vh),
               *V3 = uc_upload(ctx, dt, m, 3, Vh),
               *Ubig = uc_upload(ctx, dt, n, n - m + 1, Uh),
               *Vbig = uc_upload(ctx, dt, m, n - m + 1, Vh);
    qru_matrix *Uo = NULL;
    if (qru_context_supports(ctx, other))
        ck_assert_int_eq(qru_matrix_create(ctx, other, n, 2, 0, &Uo), 0);
    usnap s0 = uc_snap(ctx, f);

    ck_assert_int_eq(qru_lsq_modify(NULL, U, V), -1);
    ck_assert_int_eq(qru_lsq_modify(NULL, NULL, NULL), -1);
    ck_assert_int_eq(qru_lsq_modify(f, NULL, V), -2);
    ck_assert_int_eq(qru_lsq_modify(f, NULL, NULL), -2);
    ck_assert_int_eq(qru_lsq_modify(f, Ubad, V), -2);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "argument 2"));
    if (Uo)
        ck_assert_int_eq(qru_lsq_modify(f, Uo, V), -2);
    ck_assert_int_eq(qru_lsq_modify(f, U, NULL), -3);
    ck_assert_int_eq(qru_lsq_modify(f, U, Vbad), -3);
    ck_assert_int_eq(qru_lsq_modify(f, U, V3), -3);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "argument 3"));
    /* k > n - m: the thin form refuses it (-2), the full form takes it */
    int st = qru_lsq_modify(f, Ubig, Vbig);
    if (q == QRU_Q_THIN)
        ck_assert_int_eq(st, -2);
    else if (q == QRU_Q_NONE)
        ck_assert_int_eq(st, QRU_ERR_NO_Q);
    if (q != QRU_Q_FULL)
        uc_snap_same(ctx, f, &s0, "bad arguments");
    if (q == QRU_Q_FULL) {
        ck_assert_msg(st == 0, "full form, k = n - m + 1: %d", st);
        /* the checks that follow need f as it was */
        qru_lsq_destroy(f);
        f = uc_factor_q(ctx, &hp, q, 0);
    }
    uc_snap_same(ctx, f, &s0, "bad arguments");
    ck_assert_int_eq(qru_lsq_modify(f, U, V),
                     q == QRU_Q_NONE ? QRU_ERR_NO_Q : 0);
    if (q == QRU_Q_NONE) {
        ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "QRU_Q_NONE"));
        uc_snap_same(ctx, f, &s0, "Q-less");
    }
    qru_lsq_destroy(f);

    /* non-finite U (-2) and V (-3) with QRU_OPTION_CHECK_FINITE, checked
     * in argument order (a bad U and a bad V: -2) */
    f = uc_factor_q(ctx, &hp, q, 0);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    usnap s1 = uc_snap(ctx, f);
    for (int w = 0; w < 3; ++w) {
        double *Un = uc_rand(dt, n, 2, &seed), *Vn = uc_rand(dt, m, 2, &seed);
        if (w != 1)
            Un[(size_t)n + 3] = w == 0 ? NAN : INFINITY;
        if (w != 0)
            Vn[m - 1] = -INFINITY;
        qru_matrix *Ud = uc_upload(ctx, dt, n, 2, Un),
                   *Vd = uc_upload(ctx, dt, m, 2, Vn);
        ck_assert_int_eq(qru_lsq_modify(f, Ud, Vd), w == 1 ? -3 : -2);
        uc_snap_same(ctx, f, &s1, "non-finite U or V");
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(Vd);
        free(Un);
        free(Vn);
    }
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    uc_snap_free(&s1);

    uc_snap_free(&s0);
    qru_lsq_destroy(f);
    qru_matrix_destroy(U);
    qru_matrix_destroy(V);
    qru_matrix_destroy(Ubad);
    qru_matrix_destroy(Vbad);
    qru_matrix_destroy(V3);
    qru_matrix_destroy(Ubig);
    qru_matrix_destroy(Vbig);
    qru_matrix_destroy(Uo);
    free(Uh);
    free(Vh);
    uc_free(&hp);
}
END_TEST

/* The refactorisation strategy that QRU_UPDATE_AUTO may choose
 * (refactor.c), run directly: A1 = Q R + U V' factorised anew, and its
 * rank check (a zeroed column: status j + 1, f unchanged).  _i: dtype x
 * form. */
START_TEST(test_modify_refactor)
{
    int n = 40, m = 15, k = 4, j = 6;
    unsigned seed = 2718u + 5u * (unsigned)_i;
    hprob hp;
    qru_lsq *f = begin(_i, n, m, 2, 0, &seed, &hp);
    if (!f)
        return;
    qru_dtype dt = hp.dt;
    double *U = uc_rand(dt, n, k, &seed), *V = uc_rand(dt, m, k, &seed);
    qru_matrix *Ud = uc_upload(ctx, dt, n, k, U), *Vd = uc_upload(ctx, dt, m, k, V);
    qru_upd_req rq = {QRU_UPD_OP_MODIFY, 0, k, Ud, NULL, NULL, NULL, 0, Vd,
                      -1};
    ck_assert_int_eq(qru_upd_refactor(ctx, f, &rq), 0);
    uc_modify(&hp, k, U, V);
    uc_check(ctx, f, &hp, 1.0, "refactorised A + U V'");
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(Vd);
    /* column j of A1 zeroed */
    zero_column(&hp, j, k, U, V);
    Ud = uc_upload(ctx, dt, n, k, U);
    Vd = uc_upload(ctx, dt, m, k, V);
    rq.U = Ud;
    rq.V = Vd;
    usnap s0 = uc_snap(ctx, f);
    ck_assert_int_eq(qru_upd_refactor(ctx, f, &rq), j + 1);
    uc_snap_same(ctx, f, &s0, "refactorisation of a rank-deficient A1");
    uc_snap_free(&s0);
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(Vd);
    free(U);
    free(V);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* A chain of 60 updates mixing the modification (k = 1 .. 12) with the
 * four block updates, checked at random points and at the end (bound
 * scaled by max(1, sqrt(u) / 4) as in test_update_chain).  _i: dtype x
 * form (full, thin). */
START_TEST(test_modify_chain)
{
    int form = _i / 2;
    unsigned seed = 8675309u + 3u * (unsigned)_i, rs = 17u + (unsigned)_i;
    hprob hp;
    qru_lsq *f = begin(_i, 70, 25, 2, form == 0 ? 0 : 5, &seed, &hp);
    if (!f)
        return;
    qru_dtype dt = hp.dt;
    int counts[5] = {0, 0, 0, 0, 0}, nchecks = 0;
    for (int u = 1; u <= 60; ++u) {
        int n = hp.n, m = hp.m, st, op = uc_rnd(&rs, 0, 7);
        char tag[128];
        if (op >= 4) { /* half of the updates are modifications */
            int k = uc_rnd(&rs, 1, 12);
            if (form == 1 && k > n - m)
                k = n - m;
            double *U = uc_rand(dt, n, k, &seed), *V = uc_rand(dt, m, k, &seed);
            st = do_modify(f, &hp, k, U, V);
            snprintf(tag, sizeof tag, "update %d modify k=%d (%dx%d)", u, k,
                     n, m);
            free(U);
            free(V);
            op = 4;
        } else if (op == 0 && n - m > 2 && m < 40) {
            int p = uc_rnd(&rs, 1, 3), k = uc_rnd(&rs, 0, m);
            double *U = uc_rand(dt, n, p, &seed);
            st = uc_do_add_cols(ctx, f, &hp, k, p, U);
            if (st == 0)
                uc_add_cols(&hp, k, p, U);
            snprintf(tag, sizeof tag, "update %d add_cols k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            free(U);
        } else if (op == 1 && m > 10) {
            int p = uc_rnd(&rs, 1, 3), k = uc_rnd(&rs, 0, m - p);
            st = qru_lsq_remove_cols(f, k, p);
            if (st == 0)
                uc_remove_cols(&hp, k, p);
            snprintf(tag, sizeof tag, "update %d remove_cols k=%d p=%d "
                     "(%dx%d)", u, k, p, n, m);
        } else if ((op == 2 || op == 0 || op == 1) && n < 110) {
            int p = uc_rnd(&rs, 1, 4), k = uc_rnd(&rs, 0, n);
            st = uc_do_add_rows(ctx, f, &hp, k, p, &seed);
            snprintf(tag, sizeof tag, "update %d add_rows k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            op = 2;
        } else {
            int p = uc_rnd(&rs, 1, n - m > 4 ? 4 : n - m), k = uc_rnd(&rs, 0, n - p);
            st = uc_do_remove_rows(ctx, f, &hp, k, p);
            if (st == 0)
                uc_remove_rows(&hp, k, p);
            snprintf(tag, sizeof tag, "update %d remove_rows k=%d p=%d "
                     "(%dx%d)", u, k, p, n, m);
            op = 3;
        }
        ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
        counts[op]++;
        if (u == 60 || uc_rnd(&rs, 0, 7) == 0) {
            double sc = sqrt((double)u) / 4.0;
            uc_check(ctx, f, &hp, sc > 1.0 ? sc : 1.0, tag);
            nchecks++;
        }
    }
    printf("[%s] %s %s modify chain: %d add_cols, %d remove_cols, "
           "%d add_rows, %d remove_rows, %d modify; %d checks\n",
           uc_alg_name(), dt == QRU_FLOAT ? "float" : "double",
           form == 0 ? "Q" : "thin-Q", counts[0], counts[1], counts[2],
           counts[3], counts[4], nchecks);
    ck_assert_int_ge(counts[4], 15);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* QRU_UPDATE_FAST with look-ahead off (the block reflectors applied to
 * Q and d at the commit) and on (on copies of them, on the second queue
 * while the panels run; on the CPU and OpenCL backends the same steps in
 * order) */
static void setup_fast_off(void)
{
    uc_setup_fast();
    uc_set_lookahead(ctx, 0);
}
static void setup_fast_on(void)
{
    uc_setup_fast();
    uc_set_lookahead(ctx, 1);
}

/* QRU_UPDATE_FAST with the rank-1 modifications by the Givens chains
 * (the default takes them where their plan is priced faster) */
static void setup_givens(void)
{
    uc_setup_fast();
    uc_set_givens(ctx, 2);
}

int main(void)
{
    Suite *s = suite_create("update_modify");
    /* the same test cases for each update algorithm (AUTO: the sizes, whose
     * small problems the cost model may refactorise) and for FAST with
     * look-ahead on */
    for (int a = 0; a < 4; ++a) {
        TCase *tc = tcase_create(a == 0   ? "dissertation"
                                 : a == 1 ? "fast"
                                 : a == 2 ? "auto"
                                          : "fast_lookahead");
        tcase_add_checked_fixture(tc,
                                  a == 0   ? uc_setup_dissertation
                                  : a == 1 ? setup_fast_off
                                  : a == 2 ? uc_setup_auto
                                           : setup_fast_on,
                                  uc_teardown);
        tcase_set_timeout(tc, 300);
        tcase_add_loop_test(tc, test_modify_sizes, 0, 4 * NCASES);
        tcase_add_loop_test(tc, test_modify_sizes, UC_CPLX + 0,
                        UC_CPLX + 4 * NCASES);
        if (a != 2) {
            tcase_add_loop_test(tc, test_modify_in_range, 0, 8);
            tcase_add_loop_test(tc, test_modify_rank, 0, 4);
            tcase_add_loop_test(tc, test_modify_rank_accept, 0, 4);
            tcase_add_loop_test(tc, test_modify_zero_again, 0, 4);
            tcase_add_loop_test(tc, test_modify_chain, 0, 4);
        }
        if (a == 0) {
            tcase_add_loop_test(tc, test_modify_args, 0, 3);
            tcase_add_loop_test(tc, test_modify_refactor, 0, 4);
        }
        suite_add_tcase(s, tc);
    }
    /* k = 1 by the Givens chains: the sizes' rank-1 cases, U in the range
     * of A, rank-deficient results refused and accepted, chains mixed
     * with the block updates */
    TCase *tc = tcase_create("givens");
    tcase_add_checked_fixture(tc, setup_givens, uc_teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_modify_sizes, 0, 4 * NCASES);
    tcase_add_loop_test(tc, test_modify_sizes, UC_CPLX + 0,
                        UC_CPLX + 4 * NCASES);
    tcase_add_loop_test(tc, test_modify_in_range, 0, 8);
    tcase_add_loop_test(tc, test_modify_rank, 0, 4);
    tcase_add_loop_test(tc, test_modify_rank_accept, 0, 4);
    tcase_add_loop_test(tc, test_modify_zero_again, 0, 4);
    tcase_add_loop_test(tc, test_modify_chain, 0, 4);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
