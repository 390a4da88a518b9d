/* Cholesky factorisation, triangular solves and factor updates (rank-k
 * update/downdate, block insert/delete), both precisions, both triangles,
 * padded leading dimensions, checked against LAPACKE / CBLAS in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

#define CHOL_CHECK_COMPLEX 0
#include "chol_check.h"

/* n x n symmetric positive definite A = G G' / (n + 4) + 0.2 I (ld n). */
static double *spd(int n, unsigned *seed)
{
    return qru_test_spd(n, 4, 0.2, seed);
}

/* ---- factorisation -------------------------------------------------------- */

START_TEST(test_factor)
{
    static const int ns[] = {1, 2, 7, 31, 32, 33, 64, 95, 129, 200};
    static const int nbs[] = {0, 1, 16, 32, 200};
    static const int vars[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT, QRU_CHOL_CROUT};
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    char uplo = UPLOS[_i / 2];
    unsigned seed = 11u + (unsigned)_i;
    double worst = 0, worstf = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a) {
        int n = ns[a];
        double *A = spd(n, &seed);
        for (size_t v = 0; v < 3; ++v)
            for (size_t b = 0; b < sizeof nbs / sizeof *nbs; ++b)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    int ld = n + 3;
                    void *h = to_h(dt, n, n, ld, A, uplo);
                    pm p = pm_new(dt, n, n, ld, h);
                    int var = vars[v] | (inpl ? QRU_CHOL_IN_PLACE : 0);
                    int st = qru_chol_factor(ctx, uplo, p.M, var, nbs[b]);
                    ck_assert_msg(st == 0, "n %d var %d nb %d: %d", n, var,
                                  nbs[b], st);
                    char tag[96];
                    snprintf(tag, sizeof tag, "%c n %d var %d nb %d dt %d",
                             uplo, n, var, nbs[b], dt);
                    double *L = factor_of(dt, &p, uplo, tag);
                    double e = chol_backward(dt, n, 0, A, L);
                    double f = chol_forward(dt, n, 0, A, L);
                    ck_assert_msg(e <= THR, "%s: backward error %g", tag, e);
                    ck_assert_msg(f <= THR, "%s: forward error %g", tag, f);
                    worst = e > worst ? e : worst;
                    worstf = f > worstf ? f : worstf;
                    free(L);
                    free(h);
                    pm_free(&p);
                }
        free(A);
    }
    printf("factor %c dt %d: max backward %.3g, max forward %.3g\n", uplo, dt,
           worst, worstf);
}
END_TEST

/* The non-finite and indefinite entries the failure tests plant: kind
 * 0..3 on the diagonal (-1, NaN, +Inf, -Inf), 4..6 off it (NaN, +Inf,
 * -Inf at (j, j-1) and (j-1, j)). */
#define NKINDS 7
static double bad_value(int kind)
{
    static const double v[] = {-1.0, NAN, INFINITY, -INFINITY};
    return v[kind < 4 ? kind : kind - 3];
}
static void plant(double *A, int n, int j, int kind)
{
    if (kind < 4) {
        A[j + (size_t)j * n] = bad_value(kind);
    } else {
        A[j + (size_t)(j - 1) * n] = bad_value(kind);
        A[(j - 1) + (size_t)j * n] = bad_value(kind);
    }
}

/* Runs with two OpenBLAS threads where the BLAS is OpenBLAS: how its
 * threads split a trsm decided whether a NaN in the failed part of a
 * diagonal block reached the partial factor (the failure state of
 * potrf_panel now keeps it out on every thread count). */
static int blas_threads(int t)
{
#ifdef OPENBLAS_VERSION
    int old = openblas_get_num_threads();
    openblas_set_num_threads(t);
    return old;
#else
    return t;
#endif
}

/* not positive definite or not finite: status = first failing column, A
 * unchanged (or, in place, the leading columns hold the partial factor,
 * the rows below the failing block included) */
START_TEST(test_factor_not_pd)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 100, ld = 103;
    static const int bad_cols[] = {0, 1, 15, 16, 17, 50, 99};
    static const int vars[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT, QRU_CHOL_CROUT};
    int threads = blas_threads(2);
    unsigned seed = 99;
    double *A0 = spd(n, &seed);
    double *R = NULL;
    ck_assert_int_eq(ref_chol(n, A0, &R), 0);
    for (size_t c = 0; c < sizeof bad_cols / sizeof *bad_cols; ++c)
        for (int v = 0; v < 3; ++v)
            for (int inpl = 0; inpl < 2; ++inpl)
                for (int kind = 0; kind < NKINDS; ++kind) {
                    int j = bad_cols[c];
                    if (kind >= 4 && j == 0)
                        continue;
                    double *A = cs_dup(A0, (size_t)n * n);
                    plant(A, n, j, kind);
                    void *h = to_h(dt, n, n, ld, A, uplo);
                    pm p = pm_new(dt, n, n, ld, h);
                    int var = vars[v] | (inpl ? QRU_CHOL_IN_PLACE : 0);
                    int st = qru_chol_factor(ctx, uplo, p.M, var, 16);
                    ck_assert_msg(st == j + 1,
                                  "col %d var %d kind %d: status %d", j, var,
                                  kind, st);
                    void *F = qru_test_download(p.P);
                    if (!inpl) {
                        ck_assert_msg(same_bits(dt, ld, n, F, h),
                                      "A changed by a failed factorisation");
                    } else {
                        check_sentinels(dt, n, ld, n, F, uplo, "in place");
                        double *L = factor_lower(dt, n, F, ld, uplo);
                        /* off the diagonal, column j-1 holds the planted
                         * value in row j, and the rest of row j is
                         * unspecified: a trsm may spread a NaN along its
                         * row of B (the OpenCL one does, 0 * NaN) */
                        int jc = kind >= 4 ? j - 1 : j;
                        for (int jj = 0; jj < jc; ++jj)
                            for (int i = jj; i < n; ++i) {
                                if (kind >= 4 && i == j)
                                    continue;
                                ck_assert_msg(
                                    fabs(L[i + (size_t)jj * n] -
                                         R[i + (size_t)jj * n]) <=
                                        THR * n * qru_test_eps(dt) * 10,
                                    "col %d var %d kind %d: partial factor "
                                    "(%d,%d) = %g",
                                    j, var, kind, i, jj,
                                    L[i + (size_t)jj * n]);
                            }
                        free(L);
                    }
                    free(F);
                    free(h);
                    free(A);
                    pm_free(&p);
                }
    blas_threads(threads);
    free(R);
    free(A0);
}
END_TEST

/* The definiteness rule (qru.h): A = L0 L0' with the pivot of column j
 * set to f * n eps max_i A(i,i): f = 1/4 fails at column j (a positive
 * pivot below the tolerance), f = 4 passes; on the vendor's potrf (nb 0
 * where the backend has one) and qru's blocked algorithm (nb 16). */
START_TEST(test_factor_tol)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 100, ld = 101;
    static const int js[] = {0, 20, 99};
    static const int vars[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT, QRU_CHOL_CROUT};
    unsigned seed = 5;
    for (size_t t = 0; t < sizeof js / sizeof *js; ++t)
        for (int f4 = 0; f4 < 2; ++f4) {
            int j = js[t];
            double *L0 = calloc((size_t)n * n, sizeof(double));
            for (int c = 0; c < n; ++c) {
                L0[c + (size_t)c * n] = 1.0 + 0.5 * qru_test_urand(&seed);
                for (int i = c + 1; i < n; ++i)
                    L0[i + (size_t)c * n] = 0.1 * qru_test_urand(&seed);
            }
            for (int c = 0; c < j; ++c)
                L0[j + (size_t)c * n] *= 0.1;
            double amax = 0;
            for (int i = 0; i < n; ++i)
                amax = fmax(amax, cblas_ddot(i + 1, L0 + i, n, L0 + i, n));
            double tol = n * qru_test_eps(dt) * amax;
            L0[j + (size_t)j * n] = sqrt((f4 ? 4.0 : 0.25) * tol);
            double *A = calloc((size_t)n * n, sizeof(double));
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0,
                        L0, n, L0, n, 0.0, A, n);
            void *h = to_h(dt, n, n, ld, A, uplo);
            for (int v = 0; v < 3; ++v)
                for (int nb = 0; nb <= 16; nb += 16) {
                    pm p = pm_new(dt, n, n, ld, h);
                    int st = qru_chol_factor(ctx, uplo, p.M, vars[v], nb);
                    ck_assert_msg(st == (f4 ? 0 : j + 1),
                                  "%c dt %d col %d f %g var %d nb %d: "
                                  "status %d",
                                  uplo, dt, j, f4 ? 4.0 : 0.25, vars[v], nb,
                                  st);
                    if (!f4) {
                        void *F = qru_test_download(p.P);
                        ck_assert(same_bits(dt, ld, n, F, h));
                        free(F);
                    }
                    pm_free(&p);
                }
            free(h);
            free(A);
            free(L0);
        }
}
END_TEST

/* ---- triangular solves ------------------------------------------------- */

START_TEST(test_trsm)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    unsigned seed = 5;
    static const char S[] = "LR", U[] = "LU", Tr[] = "NT", D[] = "NU";
    static const int sizes[][2] = {{1, 1}, {37, 5}, {64, 64}, {130, 17}};
    for (int z = 0; z < 4; ++z)
        for (int a = 0; a < 16; ++a) {
            char side = S[a & 1], uplo = U[(a >> 1) & 1], tr = Tr[(a >> 2) & 1],
                 dg = D[(a >> 3) & 1];
            int m = sizes[z][0], n = sizes[z][1];
            int k = side == 'L' ? m : n;
            /* well-conditioned triangle: unit-ish diagonal, small
             * off-diagonal entries */
            double *T = calloc((size_t)k * k + 1, sizeof(double));
            for (int j = 0; j < k; ++j)
                for (int i = 0; i < k; ++i)
                    T[i + (size_t)j * k] =
                        i == j ? 2.0 + qru_test_urand(&seed) : qru_test_urand(&seed) / k * 2;
            double *B = malloc(sizeof(double) * (size_t)m * n + 8);
            for (int i = 0; i < m * n; ++i)
                B[i] = qru_test_urand(&seed);
            void *ht = to_h(dt, k, k, k + 2, T, uplo);
            void *hb = to_h(dt, m, n, m + 1, B, 'A');
            pm pt = pm_new(dt, k, k, k + 2, ht);
            pm pb = pm_new(dt, m, n, m + 1, hb);
            double alpha = 0.75;
            ck_assert_int_eq(
                qru_trsm(ctx, side, uplo, tr, dg, alpha, pt.M, pb.M), 0);
            void *X = qru_test_download(pb.P);
            for (int j = 0; j < n; ++j)
                ck_assert(qru_test_get(dt, X, m + 1, m, j) ==
                          qru_test_get(dt, hb, m + 1, m, j));
            /* reference in double on the rounded inputs */
            double *Td = calloc((size_t)k * k + 1, sizeof(double));
            for (int j = 0; j < k; ++j)
                for (int i = 0; i < k; ++i)
                    if ((uplo == 'L') ? i >= j : i <= j)
                        Td[i + (size_t)j * k] = qru_test_get(dt, ht, k + 2, i, j);
            double *Xr = malloc(sizeof(double) * (size_t)m * n + 8);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i)
                    Xr[i + (size_t)j * m] = qru_test_get(dt, hb, m + 1, i, j);
            cblas_dtrsm(CblasColMajor, side == 'L' ? CblasLeft : CblasRight,
                        uplo == 'L' ? CblasLower : CblasUpper,
                        tr == 'N' ? CblasNoTrans : CblasTrans,
                        dg == 'N' ? CblasNonUnit : CblasUnit, m, n, alpha, Td,
                        k, Xr, m);
            double d = 0, xn = 0;
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i) {
                    double x = qru_test_get(dt, X, m + 1, i, j);
                    d += (x - Xr[i + (size_t)j * m]) *
                         (x - Xr[i + (size_t)j * m]);
                    xn += Xr[i + (size_t)j * m] * Xr[i + (size_t)j * m];
                }
            double err = sqrt(d) / (sqrt(xn) * k * qru_test_eps(dt));
            ck_assert_msg(err <= THR, "trsm %c%c%c%c %dx%d: %g", side, uplo,
                          tr, dg, m, n, err);
            free(T);
            free(B);
            free(Td);
            free(Xr);
            free(X);
            free(ht);
            free(hb);
            pm_free(&pt);
            pm_free(&pb);
        }
}
END_TEST

START_TEST(test_solve)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 17;
    static const int ns[] = {1, 33, 150};
    for (int a = 0; a < 3; ++a) {
        int n = ns[a], r = 1 + a * 3;
        double *A = spd(n, &seed);
        pm pl = make_factor(dt, n, n + 1, A, uplo);
        double *B = malloc(sizeof(double) * (size_t)n * r + 8);
        for (int i = 0; i < n * r; ++i)
            B[i] = qru_test_urand(&seed);
        void *hb = to_h(dt, n, r, n + 2, B, 'A');
        pm pb = pm_new(dt, n, r, n + 2, hb);
        ck_assert_int_eq(qru_chol_solve(ctx, uplo, pl.M, pb.M), 0);
        void *X = qru_test_download(pb.P);
        /* reference: LAPACKE_dpotrs on the exact matrix */
        double *Lr = NULL;
        ck_assert_int_eq(ref_chol(n, A, &Lr), 0);
        double *Xr = malloc(sizeof(double) * (size_t)n * r + 8);
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < n; ++i)
                Xr[i + (size_t)j * n] = qru_test_get(dt, hb, n + 2, i, j);
        ck_assert_int_eq(
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, r, Lr, n, Xr, n), 0);
        double d = 0, xn = 0;
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < n; ++i) {
                double x = qru_test_get(dt, X, n + 2, i, j);
                d += (x - Xr[i + (size_t)j * n]) * (x - Xr[i + (size_t)j * n]);
                xn += Xr[i + (size_t)j * n] * Xr[i + (size_t)j * n];
            }
        double err =
            sqrt(d) / (sqrt(xn) * n * qru_test_eps(dt) * kappa(n, A));
        ck_assert_msg(err <= THR, "chol_solve %c n %d: %g", uplo, n, err);
        for (int j = 0; j < r; ++j)
            for (int i = n; i < n + 2; ++i)
                ck_assert(qru_test_get(dt, X, n + 2, i, j) ==
                          qru_test_get(dt, hb, n + 2, i, j));
        free(A);
        free(B);
        free(Lr);
        free(Xr);
        free(X);
        free(hb);
        pm_free(&pl);
        pm_free(&pb);
    }
}
END_TEST

/* ---- rank-k update / downdate ----------------------------------------- */

/* checks the factor held in p (uplo) against the exact matrix A1 */
static void check_factor(qru_dtype dt, pm *p, char uplo, const double *A1,
                         const char *tag, double *worst)
{
    double *L = factor_of(dt, p, uplo, tag);
    double e = factor_error(dt, p->rows, 0, A1, L, tag);
    if (worst)
        *worst = fmax(*worst, e);
    free(L);
}

/* The two engines of qru_chol_update, by the tuning knob chol_r1_max_k:
 * the structured pass (every k of the tests) and the rotations;
 * the loop tests below run each (_i / 4). */
static void set_update_engine(int e)
{
    for (int d = 0; d < qru_test_ndtypes(ctx); ++d)
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, qru_test_dtype(ctx, d),
                                            QRU_TUNE_CHOL_R1_MAX_K,
                                            e == 0 ? 32 : 0),
                         0);
}

/* One update (sign > 0: A0 -> A0 + W W') or downdate (A0 + W W' -> A0)
 * of the factor of order n (ld n + 2, W ld n + 1), in place or (out)
 * into another array (ld n + 3, its other triangle the sentinels),
 * checked against LAPACKE (check_factor) and for W (and out of place L)
 * left unchanged. */
static void update_case(qru_dtype dt, char uplo, int n, int k, int sign,
                        int out, const double *A0, const double *W,
                        const char *what, double *worst)
{
    double *Ap = rank_k(n, k, A0, W, 1);
    const double *Ain = sign > 0 ? A0 : Ap;
    const double *Aout = sign > 0 ? Ap : A0;
    pm pl = make_factor(dt, n, n + 2, Ain, uplo);
    void *hw = to_h(dt, n, k, n + 1, W, 'A');
    pm pw = pm_new(dt, n, k, n + 1, hw);
    char tag[96];
    snprintf(tag, sizeof tag, "%s %c n %d k %d sign %d dt %d%s", what, uplo,
             n, k, sign, dt, out ? " out of place" : "");
    pm p1 = pl;
    void *L0 = NULL;
    if (out) {
        void *h1 = to_h(dt, n, n, n + 3, A0, uplo);
        p1 = pm_new(dt, n, n, n + 3, h1);
        free(h1);
        L0 = qru_test_download(pl.P);
    }
    int st = qru_chol_update(ctx, uplo, pl.M, pw.M, sign, p1.M);
    ck_assert_msg(st == 0, "%s: status %d", tag, st);
    check_factor(dt, &p1, uplo, Aout, tag, worst);
    if (out) {
        void *L2 = qru_test_download(pl.P);
        ck_assert_msg(same_bits(dt, n + 2, n, L0, L2), "%s: L modified", tag);
        free(L2);
        free(L0);
        pm_free(&p1);
    }
    void *W2 = qru_test_download(pw.P);
    ck_assert_msg(same_bits(dt, n + 1, k, W2, hw), "%s: W modified", tag);
    free(W2);
    free(hw);
    free(Ap);
    pm_free(&pl);
    pm_free(&pw);
}

START_TEST(test_update)
{
    int li = _i % 4;
    set_update_engine(_i / 4);
    if ((li % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, li % 2);
    char uplo = UPLOS[li / 2];
    unsigned seed = 23;
    static const int ns[] = {1, 5, 64, 130};
    static const int ks[] = {1, 3, 17};
    double worst = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 3; ++b)
            for (int sg = 0; sg < 2; ++sg) {
                int n = ns[a], k = ks[b], sign = sg ? -1 : 1;
                double *A0 = spd(n, &seed);
                double *W = malloc(sizeof(double) * (size_t)n * k + 8);
                for (int i = 0; i < n * k; ++i)
                    W[i] = 0.5 * qru_test_urand(&seed);
                update_case(dt, uplo, n, k, sign, (a + b + sg) % 2, A0, W,
                            "update", &worst);
                free(A0);
                free(W);
            }
    printf("update %c dt %d: max scaled error %.3g\n", uplo, dt, worst);
}
END_TEST

/* n x n SPD V diag(s) V' with s from 1 down to 10^-c (V: the orthogonal
 * factor of a random matrix, LAPACKE). */
static double *spd_cond(int n, double c, unsigned *seed)
{
    double *V = malloc(sizeof(double) * (size_t)n * n + 8),
           *tau = malloc(sizeof(double) * (size_t)n + 8),
           *A = calloc((size_t)n * n + 1, sizeof(double)),
           *VS = malloc(sizeof(double) * (size_t)n * n + 8);
    for (size_t i = 0; i < (size_t)n * n; ++i)
        V[i] = qru_test_urand(seed);
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, V, n, tau), 0);
    ck_assert_int_eq(LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, V, n, tau), 0);
    for (int j = 0; j < n; ++j) {
        double sj = pow(10.0, -c * j / (n > 1 ? n - 1 : 1));
        for (int i = 0; i < n; ++i)
            VS[i + (size_t)j * n] = V[i + (size_t)j * n] * sj;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, VS, n,
                V, n, 0.0, A, n);
    for (int j = 0; j < n; ++j) /* exactly symmetric */
        for (int i = j + 1; i < n; ++i)
            A[j + (size_t)i * n] = A[i + (size_t)j * n];
    free(V);
    free(tau);
    free(VS);
    return A;
}

/* Both engines on ill-conditioned factors (condition 10^10 in double,
 * 10^4 in float): the update A -> A + W W' and the downdate back, each
 * within the thresholds of backward and forward (kappa-scaled) error. */
START_TEST(test_update_illcond)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 97;
    int n = 96;
    double worst[2] = {0, 0};
    static const int ks[] = {1, 4};
    for (int e = 0; e < 2; ++e) {
        set_update_engine(e);
        for (int b = 0; b < 2; ++b)
            for (int sg = 0; sg < 2; ++sg) {
                int k = ks[b], sign = sg ? -1 : 1;
                double *A0 = spd_cond(n, dt == QRU_DOUBLE ? 10.0 : 4.0, &seed);
                double *W = malloc(sizeof(double) * (size_t)n * k + 8);
                for (int i = 0; i < n * k; ++i)
                    W[i] = 0.3 * qru_test_urand(&seed);
                update_case(dt, uplo, n, k, sign, (b + sg) % 2, A0, W,
                            e ? "ill-conditioned, rotations"
                              : "ill-conditioned, structured",
                            &worst[e]);
                free(A0);
                free(W);
            }
    }
    printf("ill-conditioned update %c dt %d: max scaled error %.3g "
           "(structured), %.3g (rotations)\n",
           uplo, dt, worst[0], worst[1]);
}
END_TEST

/* After a failed call: the factor pl (ld ldl) still holds before, the
 * other array p1 (ld ld1) still h1, bit for bit. */
static void check_unchanged(qru_dtype dt, const pm *pl, int ldl,
                            const void *before, const pm *p1, int ld1,
                            const void *h1)
{
    int n = pl->cols;
    void *after = qru_test_download(pl->P);
    ck_assert_msg(same_bits(dt, ldl, n, before, after),
                  "factor changed by a failed downdate");
    free(after);
    after = qru_test_download(p1->P);
    ck_assert_msg(same_bits(dt, ld1, n, h1, after),
                  "L1 written by a failed downdate");
    free(after);
}

START_TEST(test_downdate_fail)
{
    int li = _i % 4;
    set_update_engine(_i / 4);
    if ((li % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, li % 2);
    char uplo = UPLOS[li / 2];
    unsigned seed = 31;
    int n = 40;
    double *A = spd(n, &seed);
    pm pl = make_factor(dt, n, n + 3, A, uplo);
    void *before = qru_test_download(pl.P);
    /* into another array (t > 0), its contents the sentinels' */
    void *h1 = to_h(dt, n, n, n + 1, A, uplo);
    pm p1 = pm_new(dt, n, n, n + 1, h1);
    /* W(:,0) = 3 e_j: A - W W' has a negative diagonal entry at j; rank 2
     * and rank 1 */
    static const int js[] = {0, 7, 39};
    for (int t = 0; t < 3; ++t) {
        int k = t == 1 ? 1 : 2;
        double *W = calloc((size_t)n * k + 1, sizeof(double));
        W[js[t]] = 3.0;
        for (int i = 0; k == 2 && i < n; ++i)
            W[i + n] = 0.01 * qru_test_urand(&seed);
        void *hw = to_h(dt, n, k, n, W, 'A');
        pm pw = pm_new(dt, n, k, n, hw);
        int st = qru_chol_update(ctx, uplo, pl.M, pw.M, -1, t ? p1.M : pl.M);
        ck_assert_msg(st > 0 && st <= js[t] + 1, "downdate: status %d", st);
        /* the reference: LAPACKE on A - W W' fails at a leading minor */
        double *Am = rank_k(n, k, A, W, -1);
        double *R = NULL;
        int info = ref_chol(n, Am, &R);
        ck_assert_int_eq(st, info);
        check_unchanged(dt, &pl, n + 3, before, &p1, n + 1, h1);
        free(R);
        free(Am);
        free(W);
        free(hw);
        pm_free(&pw);
    }
    free(before);
    free(h1);
    free(A);
    pm_free(&pl);
    pm_free(&p1);
}
END_TEST

/* A downdate of the factor of A (order n, rank k) that fails at column
 * jf: W = 0.01 uniform(-1, 1) with W(jf, 0) = 3, in place and into
 * another array, with LAPACKE's status (jf + 1), L and L1 unchanged. */
static void failing_downdate(qru_dtype dt, char uplo, int n, int k,
                             const double *A, int jf, unsigned *seed)
{
    double *W = malloc(sizeof(double) * (size_t)n * k + 8);
    for (int e = 0; e < n * k; ++e)
        W[e] = 0.01 * qru_test_urand(seed);
    W[jf] = 3.0;
    pm pl = make_factor(dt, n, n + 1, A, uplo);
    void *before = qru_test_download(pl.P);
    void *h1 = to_h(dt, n, n, n + 2, A, uplo);
    pm p1 = pm_new(dt, n, n, n + 2, h1);
    void *hw = to_h(dt, n, k, n, W, 'A');
    pm pw = pm_new(dt, n, k, n, hw);
    double *Am = rank_k(n, k, A, W, -1);
    double *R = NULL;
    int info = ref_chol(n, Am, &R);
    ck_assert_msg(info == jf + 1, "the reference fails at %d", info);
    for (int out = 0; out < 2; ++out) {
        int st = qru_chol_update(ctx, uplo, pl.M, pw.M, -1, out ? p1.M : pl.M);
        ck_assert_msg(st == info, "%c n %d k %d dt %d: status %d, LAPACKE %d",
                      uplo, n, k, dt, st, info);
        check_unchanged(dt, &pl, n + 1, before, &p1, n + 2, h1);
    }
    free(R);
    free(Am);
    free(hw);
    pm_free(&pw);
    free(h1);
    pm_free(&p1);
    pm_free(&pl);
    free(before);
    free(W);
}

/* The structured engine past its kernels' chunks (n = 1100: the
 * coefficients' chunks of 1024 columns, 35 tile columns split among the
 * row sums' lanes): an update and a downdate, checked against LAPACKE,
 * then a downdate that fails at column 1051 (W(:,0) = 3 e_1050 plus a
 * little noise), with LAPACKE's status and the factor unchanged. */
START_TEST(test_update_large)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    set_update_engine(0);
    unsigned seed = 41;
    int n = 1100, jf = 1050;
    double worst = 0;
    double *A = spd(n, &seed);
    double *W = malloc(sizeof(double) * (size_t)n + 8);
    for (int sg = 0; sg < 2; ++sg) {
        for (int i = 0; i < n; ++i)
            W[i] = 0.5 * qru_test_urand(&seed);
        update_case(dt, uplo, n, 1, sg ? -1 : 1, sg, A, W, "large", &worst);
    }
    failing_downdate(dt, uplo, n, 1, A, jf, &seed);
    printf("large update %c dt %d: max scaled error %.3g\n", uplo, dt, worst);
    free(W);
    free(A);
}
END_TEST

/* The structured engine's one pass for k > 1 (k = 2, 3, 8, 32) at orders
 * around the tile width of its kernels (31, 32, 33) and at 1100 (k =
 * 32): update and downdate against LAPACKE, in place and into another
 * array; a downdate that fails at a chosen column (W(:,0) = 3 e_j plus a
 * little noise in all k columns) with LAPACKE's status, L and L1
 * unchanged; a NaN in W's row i fails at i + 1, L unchanged. */
START_TEST(test_update_rank_k)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    set_update_engine(0);
    unsigned seed = 53;
    static const int ns[] = {31, 32, 33, 1100};
    static const int ks[] = {2, 3, 8, 32};
    double worst = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) {
            int n = ns[a], k = ks[b];
            if (n > 100 && k < 32)
                continue;
            double *A = spd(n, &seed);
            double *W = malloc(sizeof(double) * (size_t)n * k + 8);
            for (int sg = 0; sg < 2; ++sg) {
                for (int e = 0; e < n * k; ++e)
                    W[e] = 0.3 * qru_test_urand(&seed);
                update_case(dt, uplo, n, k, sg ? -1 : 1, (b + sg) % 2, A, W,
                            "rank k", &worst);
            }
            failing_downdate(dt, uplo, n, k, A, n > 100 ? 1050 : n - 2,
                             &seed);
            /* a NaN in row i of W's last column */
            int i = n > 100 ? 1040 : n - 1 - b % 2;
            pm pl = make_factor(dt, n, n + 1, A, uplo);
            void *before = qru_test_download(pl.P);
            for (int e = 0; e < n * k; ++e)
                W[e] = 0.1 * qru_test_urand(&seed);
            W[i + (size_t)(k - 1) * n] = bad_value(1);
            void *hn = to_h(dt, n, k, n, W, 'A');
            pm pn = pm_new(dt, n, k, n, hn);
            int st = qru_chol_update(ctx, uplo, pl.M, pn.M, 1, pl.M);
            ck_assert_msg(st == i + 1, "rank k %c n %d k %d dt %d, NaN in "
                          "row %d: status %d", uplo, n, k, dt, i, st);
            void *after = qru_test_download(pl.P);
            ck_assert_msg(same_bits(dt, n + 1, n, before, after),
                          "factor changed by a non-finite update");
            free(after);
            free(hn);
            pm_free(&pn);
            pm_free(&pl);
            free(before);
            free(W);
            free(A);
        }
    printf("rank-k update %c dt %d: max scaled error %.3g\n", uplo, dt,
           worst);
}
END_TEST

/* ---- insert / delete ---------------------------------------------------- */

START_TEST(test_insert)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 41;
    static const int ns[] = {0, 1, 10, 70, 150};
    static const int ps[] = {1, 3, 40};
    double worst = 0;
    for (int a = 0; a < 5; ++a)
        for (int b = 0; b < 3; ++b)
            for (int kk = 0; kk < 3; ++kk)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    int n = ns[a], p = ps[b];
                    int k = kk == 0 ? 0 : kk == 1 ? n / 2 : n;
                    int n1 = n + p;
                    double *A1 = spd(n1, &seed);
                    double *A = drop_block(n1, A1, k, p);
                    /* C = A1(:, k:k+p), other triangle of the diagonal
                     * block poisoned with NaN (must not be read) */
                    double *C = new_cols(n1, A1, k, p, uplo, NAN);
                    void *hc = to_h(dt, n1, p, n1 + 1, C, 'A');
                    pm pc = pm_new(dt, n1, p, n1 + 1, hc);
                    char tag[96];
                    snprintf(tag, sizeof tag,
                             "insert %c n %d k %d p %d inplace %d dt %d", uplo,
                             n, k, p, inpl, dt);
                    int cap = n1 + 2;
                    if (!inpl) {
                        pm pl = make_factor(dt, n, n + 1, A, uplo);
                        void *h1 = to_h(dt, 0, n1, n1 + 2, A1, 'A');
                        pm p1 = pm_new(dt, n1, n1, n1 + 2, h1);
                        int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M,
                                                 p1.M);
                        ck_assert_msg(st == 0, "%s: %d", tag, st);
                        check_factor(dt, &p1, uplo, A1, tag, &worst);
                        free(h1);
                        pm_free(&pl);
                        pm_free(&p1);
                    } else {
                        /* one cap x cap buffer: n x n factor, then the
                         * (n+p) x (n+p) factor in place */
                        void *h = to_h(dt, n, n1, cap, A, uplo);
                        /* the block beyond n must keep sentinels: fill the
                         * to_dt way for n1 x n1 outside the triangle */
                        pm pl = pm_new(dt, n, n1, cap, h);
                        qru_matrix *Lsq = NULL, *L1 = NULL;
                        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n, n,
                                                         qru_matrix_data(pl.P),
                                                         cap, &Lsq),
                                         0);
                        ck_assert_int_eq(qru_chol_factor(ctx, uplo, Lsq,
                                                         QRU_CHOL_LEFT, 0),
                                         0);
                        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n1, n1,
                                                         qru_matrix_data(pl.P),
                                                         cap, &L1),
                                         0);
                        int st = qru_chol_insert(ctx, uplo, Lsq, k, pc.M, L1);
                        ck_assert_msg(st == 0, "%s: %d", tag, st);
                        pm view = {pl.P, L1, n1, n1, cap};
                        /* entries outside the new triangle: only those
                         * outside the old one too keep their sentinels, so
                         * compare the triangle only */
                        void *F = qru_test_download(pl.P);
                        double *L = factor_lower(dt, n1, F, cap, uplo);
                        worst =
                            fmax(worst, factor_error(dt, n1, 0, A1, L, tag));
                        (void)view;
                        free(L);
                        free(F);
                        free(h);
                        qru_matrix_destroy(Lsq);
                        qru_matrix_destroy(L1);
                        pm_free(&pl);
                    }
                    free(hc);
                    pm_free(&pc);
                    free(C);
                    free(A);
                    free(A1);
                }
    printf("insert %c dt %d: max scaled error %.3g\n", uplo, dt, worst);
}
END_TEST

START_TEST(test_insert_fail)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 43;
    int n = 30, p = 2;
    int n1 = n + p;
    /* case 0: the new diagonal block is not PD (fails in S2);
     * case 1: the Schur complement of the trailing block is not (fails in
     * the downdate) */
    for (int cs = 0; cs < 2; ++cs)
        for (int kk = 0; kk < 2; ++kk) {
            int k = kk ? 12 : 0;
            double *A1 = spd(n1, &seed);
            if (cs == 0) {
                A1[(k + 1) + (size_t)(k + 1) * n1] = -0.5;
            } else {
                /* strong coupling of the new point k to a later point */
                int t = k + p + 5;
                A1[t + (size_t)k * n1] = A1[k + (size_t)t * n1] =
                    2.0 * sqrt(A1[t + (size_t)t * n1] * A1[k + (size_t)k * n1]);
            }
            double *A = drop_block(n1, A1, k, p);
            double *R = NULL;
            int info = ref_chol(n1, A1, &R);
            ck_assert_int_gt(info, 0);
            pm pl = make_factor(dt, n, n, A, uplo);
            void *hc = to_h(dt, n1, p, n1, A1 + (size_t)k * n1, 'A');
            pm pc = pm_new(dt, n1, p, n1, hc);
            void *h1 = to_h(dt, 0, n1, n1 + 1, A1, 'A');
            pm p1 = pm_new(dt, n1, n1, n1 + 1, h1);
            void *lbefore = qru_test_download(pl.P);
            int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M, p1.M);
            ck_assert_msg(st == info, "insert fail case %d k %d: %d vs %d", cs,
                          k, st, info);
            void *after = qru_test_download(p1.P);
            ck_assert_msg(same_bits(dt, n1 + 1, n1, after, h1),
                          "L1 written by a failed insert");
            void *lafter = qru_test_download(pl.P);
            ck_assert(same_bits(dt, n, n, lafter, lbefore));
            free(after);
            free(lafter);
            free(lbefore);
            free(h1);
            free(hc);
            free(R);
            free(A);
            free(A1);
            pm_free(&pl);
            pm_free(&pc);
            pm_free(&p1);
        }
}
END_TEST

START_TEST(test_delete)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 47;
    static const int ns[] = {1, 10, 70, 150};
    double worst = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int kk = 0; kk < 3; ++kk)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    int n = ns[a];
                    int p = b == 0 ? 0 : b == 1 ? 1 : b == 2 ? 3 : n / 2;
                    if (p > n)
                        continue;
                    int k = kk == 0 ? 0 : kk == 1 ? (n - p) / 2 : n - p;
                    int n1 = n - p;
                    double *A = spd(n, &seed);
                    double *A1 = drop_block(n, A, k, p);
                    char tag[96];
                    snprintf(tag, sizeof tag,
                             "delete %c n %d k %d p %d inplace %d dt %d", uplo,
                             n, k, p, inpl, dt);
                    pm pl = make_factor(dt, n, n + 2, A, uplo);
                    if (!inpl) {
                        void *h1 = to_h(dt, 0, n1, n1 + 1, A1, 'A');
                        pm p1 = pm_new(dt, n1, n1, n1 + 1, h1);
                        int st = qru_chol_delete(ctx, uplo, pl.M, k, p, p1.M);
                        ck_assert_msg(st == 0, "%s: %d", tag, st);
                        check_factor(dt, &p1, uplo, A1, tag, &worst);
                        free(h1);
                        pm_free(&p1);
                    } else {
                        qru_matrix *L1 = NULL;
                        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n1, n1,
                                                         qru_matrix_data(pl.P),
                                                         n + 2, &L1),
                                         0);
                        int st = qru_chol_delete(ctx, uplo, pl.M, k, p, L1);
                        ck_assert_msg(st == 0, "%s: %d", tag, st);
                        void *F = qru_test_download(pl.P);
                        double *L = factor_lower(dt, n1, F, n + 2, uplo);
                        worst =
                            fmax(worst, factor_error(dt, n1, 0, A1, L, tag));
                        free(L);
                        free(F);
                        qru_matrix_destroy(L1);
                    }
                    pm_free(&pl);
                    free(A);
                    free(A1);
                }
    printf("delete %c dt %d: max scaled error %.3g\n", uplo, dt, worst);
}
END_TEST

/* 200 random inserts / deletes on a factor kept in place with spare
 * capacity, checked every 25 steps against LAPACKE on the current matrix
 * (the matrix is a submatrix of one big SPD matrix, rows chosen at
 * random). */
START_TEST(test_chain)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 53;
    int N = 160, cap = 130;
    double *G = spd(N, &seed); /* the pool: point i <-> row i of G */
    int idx[160], n = 40, used[160] = {0};
    for (int i = 0; i < n; ++i) {
        idx[i] = i;
        used[i] = 1;
    }
    double *A = malloc(sizeof(double) * (size_t)N * N);
#define BUILD(nn)                                                              \
    for (int j = 0; j < (nn); ++j)                                             \
        for (int i = 0; i < (nn); ++i)                                         \
    A[i + (size_t)j * (nn)] = G[idx[i] + (size_t)idx[j] * N]
    BUILD(n);
    void *h = to_h(dt, n, cap, cap, A, uplo);
    pm pb = pm_new(dt, n, cap, cap, h); /* the cap x cap buffer */
    free(h);
    qru_matrix *L = NULL;
    ck_assert_int_eq(
        qru_matrix_wrap(ctx, dt, n, n, qru_matrix_data(pb.P), cap, &L), 0);
    ck_assert_int_eq(qru_chol_factor(ctx, uplo, L, QRU_CHOL_LEFT, 0), 0);
    double worst = 0;
    for (int step = 1; step <= 200; ++step) {
        int ins = (qru_test_urand(&seed) > 0.0 && n + 3 <= cap) || n < 4;
        qru_matrix *L1 = NULL;
        int p = 1 + (int)((qru_test_urand(&seed) + 1.0) * 1.5); /* 1..3 */
        int k = (int)((qru_test_urand(&seed) + 1.0) * 0.5 * (n + 1));
        if (k > n)
            k = n;
        if (ins) {
            /* pick p unused pool points */
            int newp[3], c = 0;
            while (c < p) {
                int t = (int)((qru_test_urand(&seed) + 1.0) * 0.5 * N) % N;
                if (!used[t]) {
                    used[t] = 1;
                    newp[c++] = t;
                }
            }
            memmove(idx + k + p, idx + k, sizeof(int) * (size_t)(n - k));
            for (int q = 0; q < p; ++q)
                idx[k + q] = newp[q];
            int n1 = n + p;
            double *C = malloc(sizeof(double) * (size_t)n1 * p);
            for (int q = 0; q < p; ++q)
                for (int i = 0; i < n1; ++i)
                    C[i + (size_t)q * n1] = G[idx[i] + (size_t)idx[k + q] * N];
            void *hc = to_h(dt, n1, p, n1, C, 'A');
            pm pc = pm_new(dt, n1, p, n1, hc);
            ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n1, n1,
                                             qru_matrix_data(pb.P), cap, &L1),
                             0);
            int st = qru_chol_insert(ctx, uplo, L, k, pc.M, L1);
            ck_assert_msg(st == 0, "chain step %d insert: %d", step, st);
            free(C);
            free(hc);
            pm_free(&pc);
            n = n1;
        } else {
            if (k + p > n)
                k = n - p;
            for (int q = 0; q < p; ++q)
                used[idx[k + q]] = 0;
            memmove(idx + k, idx + k + p, sizeof(int) * (size_t)(n - k - p));
            ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n - p, n - p,
                                             qru_matrix_data(pb.P), cap, &L1),
                             0);
            int st = qru_chol_delete(ctx, uplo, L, k, p, L1);
            ck_assert_msg(st == 0, "chain step %d delete: %d", step, st);
            n -= p;
        }
        qru_matrix_destroy(L);
        L = L1;
        if (step % 25 == 0) {
            BUILD(n);
            void *F = qru_test_download(pb.P);
            double *Ld = factor_lower(dt, n, F, cap, uplo);
            double e = chol_backward(dt, n, 0, A, Ld);
            double f = chol_forward(dt, n, 0, A, Ld);
            ck_assert_msg(e <= THR && f <= THR,
                          "chain %c dt %d step %d n %d: %g %g", uplo, dt, step,
                          n, e, f);
            worst = fmax(worst, fmax(e, f));
            free(Ld);
            free(F);
        }
    }
#undef BUILD
    printf("chain %c dt %d: 200 steps, max scaled error %.3g (n = %d)\n", uplo,
           dt, worst, n);
    qru_matrix_destroy(L);
    pm_free(&pb);
    free(A);
    free(G);
}
END_TEST

/* ---- argument checks ---------------------------------------------------- */

START_TEST(test_bad_args)
{
    qru_dtype dt = qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    int has_other = qru_test_ndtypes(ctx) == 2;
    qru_matrix *A = NULL, *R = NULL, *B = NULL, *Bo = NULL, *W = NULL,
               *C = NULL, *L1 = NULL, *Ls = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 4, 4, 0, &A), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 4, 3, 0, &R), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 4, 2, 0, &B), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, has_other ? other : dt, 4, 2, 0,
                                       &Bo),
                     0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 4, 1, 0, &W), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 6, 2, 0, &C), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 6, 6, 0, &L1), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 3, 3, 0, &Ls), 0);
    double I4[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float I4f[16];
    for (int i = 0; i < 16; ++i)
        I4f[i] = (float)I4[i];
    ck_assert_int_eq(
        qru_matrix_upload(A, dt == QRU_DOUBLE ? (void *)I4 : (void *)I4f, 4),
        0);

    /* factor */
    ck_assert_int_eq(qru_chol_factor(NULL, 'L', A, 0, 0), -1);
    ck_assert_int_eq(qru_chol_factor(ctx, 'X', NULL, 0, 0), -2);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', NULL, 0, 0), -3);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', R, 0, 0), -3);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', A, 3, 0), -4);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', A, 0x100, 0), -4);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', A, 0, -1), -5);
    ck_assert_int_eq(qru_chol_factor(ctx, 'l', A, QRU_CHOL_CROUT, 0), 0);

    /* trsm */
    ck_assert_int_eq(qru_trsm(NULL, 'L', 'L', 'N', 'N', 1, A, B), -1);
    ck_assert_int_eq(qru_trsm(ctx, 'X', 'L', 'N', 'N', 1, A, B), -2);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'X', 'N', 'N', 1, A, B), -3);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'X', 'N', 1, A, B), -4);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'X', 1, A, B), -5);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1, NULL, B), -7);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1, R, B), -7);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1, A, NULL), -8);
    ck_assert_int_eq(qru_trsm(ctx, 'R', 'L', 'N', 'N', 1, A, B), -8);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1, A, A), -8);
    if (has_other)
        ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1, A, Bo), -8);
    ck_assert_int_eq(qru_trsm(ctx, 'l', 'u', 't', 'u', 1, A, B), 0);

    /* solve */
    ck_assert_int_eq(qru_chol_solve(NULL, 'L', A, B), -1);
    ck_assert_int_eq(qru_chol_solve(ctx, 'N', A, B), -2);
    ck_assert_int_eq(qru_chol_solve(ctx, 'L', R, B), -3);
    ck_assert_int_eq(qru_chol_solve(ctx, 'L', A, C), -4);
    if (has_other)
        ck_assert_int_eq(qru_chol_solve(ctx, 'L', A, Bo), -4);
    ck_assert_int_eq(qru_chol_solve(ctx, 'L', A, B), 0);

    /* update */
    ck_assert_int_eq(qru_chol_update(NULL, 'L', A, W, 1, A), -1);
    ck_assert_int_eq(qru_chol_update(ctx, 0, A, W, 1, A), -2);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', R, W, 1, A), -3);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, C, 1, A), -4);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, NULL, 1, A), -4);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, W, 0, A), -5);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, W, 2, A), -5);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, W, 1, NULL), -6);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, W, 1, R), -6);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', A, W, 1, W), -6);

    /* insert: L 4x4, C 6x2, L1 6x6 */
    ck_assert_int_eq(qru_chol_insert(NULL, 'L', A, 0, C, L1), -1);
    ck_assert_int_eq(qru_chol_insert(ctx, 'Q', A, 0, C, L1), -2);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', R, 0, C, L1), -3);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, -1, C, L1), -4);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 5, C, L1), -4);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 0, B, L1), -5);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 0, NULL, L1), -5);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 0, C, A), -6);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 0, C, NULL), -6);
    {
        /* L1 on L's buffer with another leading dimension */
        qru_matrix *bad = NULL;
        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, 6, 6, qru_matrix_data(A), 6,
                                         &bad),
                         0);
        ck_assert_int_eq(qru_chol_insert(ctx, 'L', A, 0, C, bad), -6);
        qru_matrix_destroy(bad);
    }

    /* delete: L 4x4 -> 3x3 */
    ck_assert_int_eq(qru_chol_delete(NULL, 'L', A, 0, 1, Ls), -1);
    ck_assert_int_eq(qru_chol_delete(ctx, 'x', A, 0, 1, Ls), -2);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', NULL, 0, 1, Ls), -3);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, -1, 1, Ls), -4);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 5, 1, Ls), -4);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 0, -1, Ls), -5);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 4, 1, Ls), -5);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 0, 2, Ls), -6);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 0, 1, NULL), -6);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 1, 1, Ls), 0);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', A, 1, 0, A), 0);

    /* shift: ctx, uplo, L (square), i, j, L1 (n x n), in this order */
    ck_assert_int_eq(qru_chol_shift(NULL, 'L', A, 0, 1, A), -1);
    ck_assert_int_eq(qru_chol_shift(ctx, 'x', NULL, 0, 1, A), -2);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', NULL, 0, 1, A), -3);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', R, 0, 1, A), -3);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, -1, 1, A), -4);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 4, 9, NULL), -4);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, -1, A), -5);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, 4, NULL), -5);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, 1, NULL), -6);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, 1, Ls), -6);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, 1, L1), -6);
    if (has_other)
        ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 0, 1, Bo), -6);
    ck_assert_int_eq(qru_chol_shift(ctx, 'u', A, 0, 3, A), 0);
    ck_assert_int_eq(qru_chol_shift(ctx, 'l', A, 3, 0, A), 0);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', A, 2, 2, A), 0);

    qru_matrix_destroy(A);
    qru_matrix_destroy(R);
    qru_matrix_destroy(B);
    qru_matrix_destroy(Bo);
    qru_matrix_destroy(W);
    qru_matrix_destroy(C);
    qru_matrix_destroy(L1);
    qru_matrix_destroy(Ls);
}
END_TEST

START_TEST(test_empty)
{
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        qru_matrix *A = NULL, *B = NULL, *W = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 0, 0, &A), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 3, 0, &B), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 2, 0, &W), 0);
        ck_assert_int_eq(qru_chol_factor(ctx, 'L', A, 0, 0), 0);
        ck_assert_int_eq(qru_chol_factor(ctx, 'U', A, 0, 0), 0);
        ck_assert_int_eq(qru_chol_solve(ctx, 'L', A, B), 0);
        /* one matrix given for two that must not overlap: refused even
         * when empty */
        ck_assert_int_eq(qru_chol_solve(ctx, 'L', A, A), -4);
        ck_assert_int_eq(qru_chol_update(ctx, 'U', A, W, -1, A), 0);
        ck_assert_int_eq(qru_chol_delete(ctx, 'U', A, 0, 0, A), 0);
        qru_matrix_destroy(A);
        qru_matrix_destroy(B);
        qru_matrix_destroy(W);
    }
}
END_TEST

/* ---- non-finite values in the factor updates ------------------------- */

/* The factor of A (uplo, ld) with L(i, t) (lower-factor indices) set to v;
 * the host copy of its array in *host. */
static pm planted_factor(qru_dtype dt, int n, int ld, const double *A,
                         char uplo, int i, int t, double v, void **host)
{
    pm f = make_factor(dt, n, ld, A, uplo);
    void *F = qru_test_download(f.P);
    pm_free(&f);
    if (uplo == 'L')
        qru_test_set(dt, F, ld, i, t, v);
    else
        qru_test_set(dt, F, ld, t, i, v);
    *host = F;
    return pm_new(dt, n, n, ld, F);
}

/* NaN / +Inf / -Inf on the diagonal of L (where 0), off it (where 1: L(i,
 * 0), 2: L(i, i-1)) or in W (where 3) at row i: update and downdate stop
 * at column i + 1 and leave L bit for bit unchanged. */
START_TEST(test_update_nonfinite)
{
    int li = _i % 4;
    set_update_engine(_i / 4);
    if ((li % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, li % 2);
    char uplo = UPLOS[li / 2];
    int n = 30, k = 2, ld = n + 1;
    static const int rows[] = {0, 13, 29};
    unsigned seed = 61;
    double *A = spd(n, &seed);
    for (int r = 0; r < 3; ++r)
        for (int where = 0; where < 4; ++where)
            for (int kind = 1; kind < 4; ++kind)
                for (int sign = -1; sign <= 1; sign += 2) {
                    int i = rows[r];
                    if ((where == 1 || where == 2) && i == 0)
                        continue;
                    double v = bad_value(kind);
                    double *W = malloc(sizeof(double) * (size_t)n * k);
                    for (int e = 0; e < n * k; ++e)
                        W[e] = 0.1 * qru_test_urand(&seed);
                    if (where == 3)
                        W[i + (size_t)n] = v;
                    void *F;
                    pm pl;
                    if (where == 3) {
                        pl = make_factor(dt, n, ld, A, uplo);
                        F = qru_test_download(pl.P);
                    } else {
                        pl = planted_factor(
                            dt, n, ld, A, uplo, i,
                            where == 0 ? i : where == 1 ? 0 : i - 1, v, &F);
                    }
                    void *hw = to_h(dt, n, k, n, W, 'A');
                    pm pw = pm_new(dt, n, k, n, hw);
                    int st = qru_chol_update(ctx, uplo, pl.M, pw.M, sign, pl.M);
                    ck_assert_msg(st == i + 1,
                                  "%c dt %d sign %d row %d where %d kind %d: "
                                  "status %d",
                                  uplo, dt, sign, i, where, kind, st);
                    void *G = qru_test_download(pl.P);
                    ck_assert_msg(same_bits(dt, ld, n, F, G),
                                  "factor changed by a failed update");
                    free(G);
                    free(F);
                    free(hw);
                    free(W);
                    pm_free(&pw);
                    pm_free(&pl);
                }
    free(A);
}
END_TEST

/* NaN / +Inf / -Inf in the new columns C: on C2's diagonal and in C1
 * the new block's first column fails (k + 1), in C3 the downdated block's
 * (k + p + 1); L and L1 unchanged. */
START_TEST(test_insert_nonfinite)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 30, p = 2, n1 = n + p;
    static const int ks[] = {0, 11, 30};
    unsigned seed = 71;
    for (int a = 0; a < 3; ++a)
        for (int where = 0; where < 3; ++where)
            for (int kind = 1; kind < 4; ++kind) {
                int k = ks[a];
                if ((where == 1 && k == 0) || (where == 2 && k == n))
                    continue;
                double *A1 = spd(n1, &seed);
                double *A = drop_block(n1, A1, k, p);
                double *C = malloc(sizeof(double) * (size_t)n1 * p);
                for (int j = 0; j < p; ++j)
                    for (int i = 0; i < n1; ++i)
                        C[i + (size_t)j * n1] = A1[i + (size_t)(k + j) * n1];
                int row = where == 0 ? k : where == 1 ? 0 : k + p;
                C[row] = bad_value(kind);
                int want = where == 2 ? k + p + 1 : k + 1;
                void *hc = to_h(dt, n1, p, n1, C, 'A');
                pm pc = pm_new(dt, n1, p, n1, hc);
                pm pl = make_factor(dt, n, n, A, uplo);
                void *F = qru_test_download(pl.P);
                void *h1 = to_h(dt, 0, n1, n1, A1, 'A');
                pm p1 = pm_new(dt, n1, n1, n1, h1);
                int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M, p1.M);
                ck_assert_msg(st == want,
                              "%c dt %d k %d where %d kind %d: status %d",
                              uplo, dt, k, where, kind, st);
                void *G = qru_test_download(pl.P), *G1 = qru_test_download(p1.P);
                ck_assert(same_bits(dt, n, n, F, G));
                ck_assert(same_bits(dt, n1, n1, h1, G1));
                /* and in place */
                pm pb = pm_new(dt, n1, n1, n1, h1);
                qru_matrix *Lw;
                ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n, n,
                                                 qru_matrix_data(pb.P), n1,
                                                 &Lw),
                                 0);
                ck_assert_int_eq(qru_matrix_copy(pl.M, Lw), 0);
                void *B0 = qru_test_download(pb.P);
                st = qru_chol_insert(ctx, uplo, Lw, k, pc.M, pb.M);
                ck_assert_int_eq(st, want);
                void *B1 = qru_test_download(pb.P);
                ck_assert(same_bits(dt, n1, n1, B0, B1));
                free(B0);
                free(B1);
                qru_matrix_destroy(Lw);
                pm_free(&pb);
                free(G);
                free(G1);
                free(F);
                free(h1);
                free(hc);
                free(C);
                free(A);
                free(A1);
                pm_free(&p1);
                pm_free(&pl);
                pm_free(&pc);
            }
}
END_TEST

/* NaN / +Inf / -Inf at L(i, i), L(i, 0) or L(i, i-1) and p rows k.. deleted:
 * a value in a row that stays fails at that row's new column (i + 1 before
 * the block, i - p + 1 after it; L unchanged), one in a deleted row is
 * gone (status 0). */
START_TEST(test_delete_nonfinite)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 30, p = 3, ld = n + 2;
    static const int ks[] = {0, 11, 27};
    static const int rows[] = {5, 11, 12, 14, 20, 29};
    unsigned seed = 81;
    double *A = spd(n, &seed);
    for (int a = 0; a < 3; ++a)
        for (int r = 0; r < 6; ++r)
            for (int where = 0; where < 3; ++where)
                for (int kind = 1; kind < 4; ++kind) {
                    int k = ks[a], i = rows[r];
                    if (k + p > n)
                        continue;
                    int t = where == 0 ? i : where == 1 ? 0 : i - 1;
                    int want = i < k ? i + 1 : i < k + p ? 0 : i - p + 1;
                    void *F;
                    pm pl = planted_factor(dt, n, ld, A, uplo, i, t,
                                           bad_value(kind), &F);
                    pm p1 = pm_new(dt, n - p, n - p, ld, F);
                    void *F1 = qru_test_download(p1.P);
                    int st = qru_chol_delete(ctx, uplo, pl.M, k, p, p1.M);
                    ck_assert_msg(st == want,
                                  "%c dt %d k %d row %d where %d kind %d: "
                                  "status %d",
                                  uplo, dt, k, i, where, kind, st);
                    void *G = qru_test_download(pl.P);
                    ck_assert(same_bits(dt, ld, n, F, G));
                    if (st) {
                        void *G1 = qru_test_download(p1.P);
                        ck_assert(same_bits(dt, ld, n - p, F1, G1));
                        free(G1);
                    }
                    qru_matrix *Lw; /* in place: L1 on L's array */
                    ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n - p, n - p,
                                                     qru_matrix_data(pl.P),
                                                     ld, &Lw),
                                     0);
                    st = qru_chol_delete(ctx, uplo, pl.M, k, p, Lw);
                    qru_matrix_destroy(Lw);
                    ck_assert_int_eq(st, want);
                    if (st) {
                        void *G2 = qru_test_download(pl.P);
                        ck_assert(same_bits(dt, ld, n, F, G2));
                        free(G2);
                    }
                    free(G);
                    free(F1);
                    free(F);
                    pm_free(&p1);
                    pm_free(&pl);
                }
    free(A);
}
END_TEST

/* A finite, positive but small pivot of the old factor, L(i, i) with
 * L(i, i)^2 far below n eps max diag at a random row i < k (a column that
 * stays): insert and delete fail at column i + 1 by the definiteness rule
 * alone (the device flag is 0 or later), judged from the pivots that come
 * back with the flag in one read-back; L and L1 unchanged bit for bit,
 * also in place.  k = n - p leaves delete no trailing block. */
START_TEST(test_small_pivot)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 30, p = 3, n1 = n + p, ld = n + 2;
    static const int ks[] = {6, 17, 27};
    unsigned seed = 91;
    for (int a = 0; a < 3; ++a) {
        int k = ks[a];
        int i = (int)(k * (0.5 + 0.5 * qru_test_urand(&seed)));
        double tiny = 1e-9 * (1.5 + 0.5 * qru_test_urand(&seed));
        double *A1 = spd(n1, &seed);
        double *A = drop_block(n1, A1, k, p);
        void *F;
        pm pl = planted_factor(dt, n, ld, A, uplo, i, i, tiny, &F);
        char tag[64];
        snprintf(tag, sizeof tag, "%c dt %d k %d row %d", uplo, dt, k, i);
        /* insert p columns at k */
        void *hc = to_h(dt, n1, p, n1, A1 + (size_t)k * n1, 'A');
        pm pc = pm_new(dt, n1, p, n1, hc);
        void *h1 = to_h(dt, 0, n1, n1 + 1, A1, 'A');
        pm p1 = pm_new(dt, n1, n1, n1 + 1, h1);
        int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M, p1.M);
        ck_assert_msg(st == i + 1, "insert %s: status %d", tag, st);
        void *G = qru_test_download(pl.P), *G1 = qru_test_download(p1.P);
        ck_assert_msg(same_bits(dt, ld, n, F, G), "insert %s: L changed", tag);
        ck_assert_msg(same_bits(dt, n1 + 1, n1, h1, G1),
                      "insert %s: L1 written", tag);
        free(G);
        free(G1);
        pm pb = pm_new(dt, n1, n1, n1, h1); /* in place */
        qru_matrix *Lw;
        ck_assert_int_eq(
            qru_matrix_wrap(ctx, dt, n, n, qru_matrix_data(pb.P), n1, &Lw), 0);
        ck_assert_int_eq(qru_matrix_copy(pl.M, Lw), 0);
        void *B0 = qru_test_download(pb.P);
        st = qru_chol_insert(ctx, uplo, Lw, k, pc.M, pb.M);
        ck_assert_msg(st == i + 1, "insert in place %s: status %d", tag, st);
        void *B1 = qru_test_download(pb.P);
        ck_assert_msg(same_bits(dt, n1, n1, B0, B1),
                      "insert in place %s: factor changed", tag);
        free(B0);
        free(B1);
        qru_matrix_destroy(Lw);
        pm_free(&pb);
        /* delete p rows at k */
        pm pd = pm_new(dt, n - p, n - p, ld, F);
        void *D0 = qru_test_download(pd.P);
        st = qru_chol_delete(ctx, uplo, pl.M, k, p, pd.M);
        ck_assert_msg(st == i + 1, "delete %s: status %d", tag, st);
        G = qru_test_download(pl.P);
        G1 = qru_test_download(pd.P);
        ck_assert_msg(same_bits(dt, ld, n, F, G), "delete %s: L changed", tag);
        ck_assert_msg(same_bits(dt, ld, n - p, D0, G1),
                      "delete %s: L1 written", tag);
        free(G);
        free(G1);
        ck_assert_int_eq(qru_matrix_wrap(ctx, dt, n - p, n - p,
                                         qru_matrix_data(pl.P), ld, &Lw),
                         0);
        st = qru_chol_delete(ctx, uplo, pl.M, k, p, Lw);
        qru_matrix_destroy(Lw);
        ck_assert_msg(st == i + 1, "delete in place %s: status %d", tag, st);
        G = qru_test_download(pl.P);
        ck_assert_msg(same_bits(dt, ld, n, F, G),
                      "delete in place %s: factor changed", tag);
        free(G);
        free(D0);
        pm_free(&pd);
        pm_free(&p1);
        pm_free(&pc);
        pm_free(&pl);
        free(h1);
        free(hc);
        free(F);
        free(A);
        free(A1);
    }
}
END_TEST

/* The quick returns judge the factor too: nothing to update (k = 0
 * columns in W) or nothing to delete (p = 0) leaves the factor L itself,
 * which the definiteness rule judges like any new factor.  A zero, a tiny
 * or a NaN pivot of L at row i gives status i + 1 and leaves L and L1 bit
 * for bit as they were (L1 on another buffer and in place); a valid L
 * gives 0, with L1 = L. */
START_TEST(test_quick_returns)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 12, ld = n + 1;
    static const int rows[] = {0, 5, 11};
    static const double bad[] = {0.0, 1e-30, NAN};
    unsigned seed = 101;
    double *A = spd(n, &seed);
    for (int r = 0; r < 4; ++r)
        for (int b = 0; b < 3; ++b) {
            int i = r < 3 ? rows[r] : 0, want = r < 3 ? i + 1 : 0;
            if (r == 3 && b > 0)
                continue; /* the valid factor once */
            char tag[64];
            snprintf(tag, sizeof tag, "%c dt %d row %d pivot %g", uplo, dt,
                     r < 3 ? i : -1, r < 3 ? bad[b] : 1.0);
            void *F;
            pm pl = r < 3 ? planted_factor(dt, n, ld, A, uplo, i, i, bad[b],
                                           &F)
                          : make_factor(dt, n, ld, A, uplo);
            if (r == 3)
                F = qru_test_download(pl.P);
            /* W with no columns */
            qru_matrix *W = NULL;
            ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 0, 0, &W), 0);
            int st = qru_chol_update(ctx, uplo, pl.M, W, 1, pl.M);
            ck_assert_msg(st == want, "update k = 0 %s: status %d", tag, st);
            void *G = qru_test_download(pl.P);
            ck_assert_msg(same_bits(dt, ld, n, F, G), "update k = 0 %s: L "
                          "changed", tag);
            free(G);
            qru_matrix_destroy(W);
            for (int k = 0; k <= n; k += n / 2) {
                /* p = 0 to another buffer, then in place */
                void *h1 = to_h(dt, 0, n, ld, A, 'A');
                pm p1 = pm_new(dt, n, n, ld, h1);
                st = qru_chol_delete(ctx, uplo, pl.M, k, 0, p1.M);
                ck_assert_msg(st == want, "delete p = 0 k %d %s: status %d",
                              k, tag, st);
                G = qru_test_download(p1.P);
                if (st)
                    ck_assert_msg(same_bits(dt, ld, n, h1, G),
                                  "delete p = 0 %s: L1 written", tag);
                else
                    for (int j = 0; j < n; ++j)
                        for (int t = 0; t < n; ++t)
                            if (uplo == 'L' ? t >= j : t <= j)
                                ck_assert(qru_test_get(dt, G, ld, t, j) ==
                                          qru_test_get(dt, F, ld, t, j));
                free(G);
                st = qru_chol_delete(ctx, uplo, pl.M, k, 0, pl.M);
                ck_assert_msg(st == want, "delete p = 0 in place k %d %s: "
                              "status %d", k, tag, st);
                G = qru_test_download(pl.P);
                ck_assert_msg(same_bits(dt, ld, n, F, G),
                              "delete p = 0 in place %s: L changed", tag);
                free(G);
                pm_free(&p1);
                free(h1);
            }
            free(F);
            pm_free(&pl);
        }
    free(A);
}
END_TEST

/* The in/out rules compare memory where it lies: an output that shares
 * memory with an input (other than the documented in-place array of
 * insert and delete) is refused with -i, whether the two are views of
 * one buffer at element offsets (kind 0) or the caller's own handles
 * into one allocation (kind 1: wrapped pointers on CPU and CUDA,
 * sub-buffers on OpenCL); nothing changes then.  Arrays apart in one
 * buffer, and the in-place array, are accepted.  Loop: dtype x kind. */
static qru_matrix *in_buf(const qru_matrix *P, size_t off, int rows, int cols,
                          int kind)
{
    return qru_test_alias(ctx, P, off, rows, cols, qru_matrix_ld(P), kind);
}

/* st must be want and P bit-identical to P0 */
static void refused(int st, int want, const qru_matrix *P, const void *P0,
                    const char *tag)
{
    ck_assert_msg(st == want, "%s: status %d, want %d", tag, st, want);
    void *G = qru_test_download(P);
    ck_assert_msg(same_bits(qru_matrix_dtype(P), qru_matrix_ld(P),
                            qru_matrix_cols(P), P0, G),
                  "%s: memory changed", tag);
    free(G);
}

START_TEST(test_overlap)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int kind = _i / 2;
    int n = 8, p = 2, k = 3, n1 = n + p, LD = 128, big = 2 * n1 + n;
    size_t es = qru_test_elsize(dt), col = (size_t)LD;
    unsigned seed = 111;
    double *A1 = spd(n1, &seed);
    double *A = drop_block(n1, A1, k, p);
    void *hc = to_h(dt, n1, p, n1, A1 + (size_t)k * n1, 'A');
    qru_matrix *Cm = qru_test_upload(ctx, dt, n1, p, n1, hc, n1);
    /* one LD x big buffer: L (n x n) at its start, the rest sentinels */
    void *h = qru_test_from_double(dt, n, big, LD, A, n, 'L', CHOL_SENT, 0.5);
    qru_matrix *P = qru_test_upload(ctx, dt, LD, big, LD, h, LD);
    qru_matrix *L = in_buf(P, 0, n, n, 0);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', L, QRU_CHOL_LEFT, 0), 0);
    void *P0 = qru_test_download(P);
    char tag[96];
    /* L1 one row below L, one column right, at L's start with another
     * leading dimension (L1 of a second matrix on the buffer) */
    static const struct {
        size_t off;
        int ld;
    } bad[] = {{1, 0}, {128, 0}, {0, 100}};
    for (int c = 0; c < 3; ++c) {
        qru_matrix *L1 = bad[c].ld
                             ? qru_test_alias(ctx, P, bad[c].off, n1, n1,
                                              bad[c].ld, kind)
                             : in_buf(P, bad[c].off, n1, n1, kind);
        qru_matrix *Ld = bad[c].ld ? qru_test_alias(ctx, P, bad[c].off, n - p,
                                                    n - p, bad[c].ld, kind)
                                   : in_buf(P, bad[c].off, n - p, n - p, kind);
        if (!L1 || !Ld)
            continue;
        snprintf(tag, sizeof tag, "insert dt %d kind %d L1 at %zu ld %d", dt,
                 kind, bad[c].off, bad[c].ld);
        refused(qru_chol_insert(ctx, 'L', L, k, Cm, L1), -6, P, P0, tag);
        snprintf(tag, sizeof tag, "delete dt %d kind %d L1 at %zu ld %d", dt,
                 kind, bad[c].off, bad[c].ld);
        refused(qru_chol_delete(ctx, 'L', L, k, p, Ld), -6, P, P0, tag);
        qru_test_alias_free(L1, kind);
        qru_test_alias_free(Ld, kind);
    }
    /* L1 apart from L (columns n ..), C inside L1, C inside L */
    qru_matrix *L1 = in_buf(P, n * col, n1, n1, kind);
    qru_matrix *Cin = in_buf(P, (n + 2) * col, n1, p, kind);
    qru_matrix *CL = in_buf(P, 2 * col, n1, p, kind);
    if (Cin) {
        snprintf(tag, sizeof tag, "insert dt %d kind %d C in L1", dt, kind);
        refused(qru_chol_insert(ctx, 'L', L, k, Cin, L1), -6, P, P0, tag);
    }
    if (CL) {
        snprintf(tag, sizeof tag, "insert dt %d kind %d C in L", dt, kind);
        refused(qru_chol_insert(ctx, 'L', L, k, CL, L1), -5, P, P0, tag);
    }
    /* W, B inside L: update, solve, trsm */
    qru_matrix *W = in_buf(P, 2 * col, n, 2, kind);
    if (W) {
        snprintf(tag, sizeof tag, "update dt %d kind %d W in L", dt, kind);
        refused(qru_chol_update(ctx, 'L', L, W, 1, L), -4, P, P0, tag);
        snprintf(tag, sizeof tag, "solve dt %d kind %d B in L", dt, kind);
        refused(qru_chol_solve(ctx, 'L', L, W), -4, P, P0, tag);
        snprintf(tag, sizeof tag, "trsm dt %d kind %d B in A", dt, kind);
        refused(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1.0, L, W), -8, P, P0,
                tag);
    }
    /* QR: Q on A, B on Q (A in columns n .., Q n x n after it) */
    qru_matrix *Aq = in_buf(P, n * col, n, 3, kind),
               *Qa = in_buf(P, (n + 2) * col, n, n, kind),
               *Qf = in_buf(P, (n + 3) * col, n, n, kind),
               *Bq = in_buf(P, (n + 5) * col, n, 2, kind);
    if (Aq && Qa && Qf && Bq) {
        snprintf(tag, sizeof tag, "qr_factor dt %d kind %d Q on A", dt, kind);
        refused(qru_qr_factor(ctx, 0, Aq, Qa, NULL), -4, P, P0, tag);
        snprintf(tag, sizeof tag, "qr_factor dt %d kind %d B on Q", dt, kind);
        refused(qru_qr_factor(ctx, 0, Aq, Qf, Bq), -5, P, P0, tag);
    }
    /* accepted: L1 apart from L in the same buffer, then in place */
    if (L1) {
        snprintf(tag, sizeof tag, "insert dt %d kind %d L1 apart", dt, kind);
        int st = qru_chol_insert(ctx, 'L', L, k, Cm, L1);
        ck_assert_msg(st == 0, "%s: %d", tag, st);
        void *F = qru_test_download(P);
        double *Lh = factor_lower(dt, n1, (char *)F + n * col * es, LD, 'L');
        ck_assert_msg(chol_backward(dt, n1, 0, A1, Lh) <= THR, "%s: error",
                      tag);
        free(Lh);
        free(F);
    }
    qru_matrix *Lin = in_buf(P, 0, n1, n1, kind);
    if (Lin) {
        snprintf(tag, sizeof tag, "insert dt %d kind %d in place", dt, kind);
        int st = qru_chol_insert(ctx, 'L', L, k, Cm, Lin);
        ck_assert_msg(st == 0, "%s: %d", tag, st);
        void *F = qru_test_download(P);
        double *Lh = factor_lower(dt, n1, F, LD, 'L');
        ck_assert_msg(chol_backward(dt, n1, 0, A1, Lh) <= THR, "%s: error",
                      tag);
        free(Lh);
        free(F);
        qru_test_alias_free(Lin, kind);
    }
    qru_test_alias_free(L1, kind);
    qru_test_alias_free(Cin, kind);
    qru_test_alias_free(CL, kind);
    qru_test_alias_free(W, kind);
    qru_test_alias_free(Aq, kind);
    qru_test_alias_free(Qa, kind);
    qru_test_alias_free(Qf, kind);
    qru_test_alias_free(Bq, kind);
    qru_matrix_destroy(L);
    qru_matrix_destroy(P);
    qru_matrix_destroy(Cm);
    free(P0);
    free(h);
    free(hc);
    free(A);
    free(A1);
}
END_TEST

/* ---- shift (Octave's cholshift) --------------------------------------- */

/* i < j, i > j (the Householder panels and the sweep), i = j, at both
 * ends, neighbours, spans across several panels; into another matrix (its
 * other triangle and padding keep their sentinels) and in place; the
 * result against LAPACKE's factor of A(p, p) (positive diagonal). */
START_TEST(test_shift)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 91;
    static const int ns[] = {1, 2, 9, 90};
    double worst = 0;
    for (int a = 0; a < 4; ++a) {
        int n = ns[a], ld = n + 3;
        int pairs[][2] = {{0, n - 1}, {n - 1, 0}, {0, 1}, {1, 0},
                          {n - 2, n - 1}, {n - 1, n - 2}, {n / 3, n - 2},
                          {n - 2, n / 3}, {n / 2, n / 2}, {3, 80}, {80, 3}};
        double *A = spd(n, &seed);
        int *perm = malloc(sizeof(int) * (size_t)n);
        for (size_t q = 0; q < sizeof pairs / sizeof pairs[0]; ++q)
            for (int inpl = 0; inpl < 2; ++inpl) {
                int i = pairs[q][0], j = pairs[q][1];
                if (i < 0 || j < 0 || i >= n || j >= n)
                    continue;
                shift_perm(n, i, j, perm);
                double *A1 = permuted(n, A, perm);
                char tag[96];
                snprintf(tag, sizeof tag, "shift %c n %d i %d j %d inplace %d "
                         "dt %d", uplo, n, i, j, inpl, dt);
                pm pl = make_factor(dt, n, ld, A, uplo);
                if (!inpl) {
                    void *h1 = to_h(dt, 0, n, ld, A1, 'A');
                    pm p1 = pm_new(dt, n, n, ld, h1);
                    void *F0 = qru_test_download(pl.P);
                    int st = qru_chol_shift(ctx, uplo, pl.M, i, j, p1.M);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    check_factor(dt, &p1, uplo, A1, tag, &worst);
                    void *F1 = qru_test_download(pl.P);
                    ck_assert_msg(same_bits(dt, ld, n, F0, F1),
                                  "%s: L changed", tag);
                    free(F0);
                    free(F1);
                    free(h1);
                    pm_free(&p1);
                } else {
                    int st = qru_chol_shift(ctx, uplo, pl.M, i, j, pl.M);
                    ck_assert_msg(st == 0, "%s: %d", tag, st);
                    check_factor(dt, &pl, uplo, A1, tag, &worst);
                }
                pm_free(&pl);
                free(A1);
            }
        free(perm);
        free(A);
    }
    printf("shift %c dt %d: max scaled error %.3g\n", uplo, dt, worst);
}
END_TEST

/* An invalid factor (a zero, negative, NaN or Inf on the diagonal, or a
 * NaN / Inf off it) fails by the definiteness rule with L1 and L
 * unchanged bit for bit, also in place; the same factor shifted onto
 * itself (i = j) is copied, not judged. */
START_TEST(test_shift_fail)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    int n = 20, ld = n + 2;
    unsigned seed = 97;
    double *A = spd(n, &seed);
    static const double bad[] = {0.0, NAN, INFINITY, -INFINITY};
    static const int pairs[][2] = {{2, 15}, {15, 2}, {0, 19}};
    for (int kind = 0; kind < 5; ++kind)
        for (int q = 0; q < 3; ++q) {
            int i = pairs[q][0], j = pairs[q][1], r = 7;
            void *F;
            /* kind < 4: L(r, r) = bad[kind]; kind 4: L(r, 0) = NaN */
            pm pl = planted_factor(dt, n, ld, A, uplo, r, kind < 4 ? r : 0,
                                   kind < 4 ? bad[kind] : NAN, &F);
            pm p1 = pm_new(dt, n, n, ld, F);
            void *F1 = qru_test_download(p1.P);
            int st = qru_chol_shift(ctx, uplo, pl.M, i, j, p1.M);
            ck_assert_msg(st > 0, "%c dt %d kind %d i %d j %d: status %d",
                          uplo, dt, kind, i, j, st);
            void *G = qru_test_download(pl.P), *G1 = qru_test_download(p1.P);
            ck_assert(same_bits(dt, ld, n, F, G));
            ck_assert(same_bits(dt, ld, n, F1, G1));
            free(G);
            free(G1);
            ck_assert_int_eq(qru_chol_shift(ctx, uplo, pl.M, i, j, pl.M), st);
            G = qru_test_download(pl.P);
            ck_assert(same_bits(dt, ld, n, F, G));
            free(G);
            ck_assert_int_eq(qru_chol_shift(ctx, uplo, pl.M, i, i, pl.M), 0);
            free(F1);
            free(F);
            pm_free(&p1);
            pm_free(&pl);
        }
    free(A);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chol");
    TCase *tc = tcase_create("chol");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_factor, 0, 4);
    tcase_add_loop_test(tc, test_factor_not_pd, 0, 4);
    tcase_add_loop_test(tc, test_factor_tol, 0, 4);
    tcase_add_loop_test(tc, test_trsm, 0, 2);
    tcase_add_loop_test(tc, test_solve, 0, 4);
    tcase_add_loop_test(tc, test_update, 0, 8);
    tcase_add_loop_test(tc, test_downdate_fail, 0, 8);
    tcase_add_loop_test(tc, test_update_illcond, 0, 4);
    tcase_add_loop_test(tc, test_update_large, 0, 4);
    tcase_add_loop_test(tc, test_update_rank_k, 0, 4);
    tcase_add_loop_test(tc, test_insert, 0, 4);
    tcase_add_loop_test(tc, test_insert_fail, 0, 4);
    tcase_add_loop_test(tc, test_update_nonfinite, 0, 8);
    tcase_add_loop_test(tc, test_insert_nonfinite, 0, 4);
    tcase_add_loop_test(tc, test_delete_nonfinite, 0, 4);
    tcase_add_loop_test(tc, test_small_pivot, 0, 4);
    tcase_add_loop_test(tc, test_quick_returns, 0, 4);
    tcase_add_loop_test(tc, test_overlap, 0, 4);
    tcase_add_loop_test(tc, test_shift, 0, 4);
    tcase_add_loop_test(tc, test_shift_fail, 0, 4);
    tcase_add_loop_test(tc, test_delete, 0, 4);
    tcase_add_loop_test(tc, test_chain, 0, 4);
    tcase_add_test(tc, test_bad_args);
    tcase_add_test(tc, test_empty);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
