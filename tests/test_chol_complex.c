/* The Cholesky routines in complex float and complex double where the
 * backend takes them (A = L L' Hermitian positive definite, ' the
 * conjugate transpose; elsewhere the program says why it skips them):
 * the factorisation (every variant, block size, triangle, in place or
 * not), qru_trsm (every side, triangle, op 'N' / 'T' / 'C' and diagonal)
 * and qru_chol_solve against LAPACKE zpotrf / CBLAS ztrsm in double
 * complex; the rank-k update and downdate, insertion, deletion and shift
 * of a factor and the three batched routines against zpotrf of the
 * changed matrix (scaled backward and forward errors below
 * QRU_TEST_THRESHOLD, the factor's diagonal real and positive, the
 * entries outside its triangle untouched); failures (indefinite,
 * non-finite) return the documented status and leave the arrays
 * bit-identical; bad arguments return -i; the batches' _ex forms leave
 * a problem of rank 0 or mask 0 bit for bit (test_batch_ex).  Every
 * backend computes all of them (test_complex_ops: the ops they reach are
 * in the backend table's complex_ops). */
#include <stdio.h>

#include "../src/chol_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

#define CHOL_CHECK_COMPLEX 1
#include "chol_check.h"

/* what an insertion must not read (new_cols) */
#define POISON (1e3 - 7e2 * _Complex_I)

/* The complex type of loop index t (0: complex float, 1: complex double),
 * or 0 where the context takes none (the reason printed once). */
static qru_dtype ctype(int t)
{
    int nt = qru_test_ntypes(ctx);
    if (nt <= 2 + t)
        return (qru_dtype)0;
    return qru_test_type(ctx, 2 + t);
}

/* dt := the complex type of loop index t; the test returns where the
 * context takes none */
#define CTYPE_OR_SKIP(dt, t)                                                   \
    qru_dtype dt = ctype(t);                                                   \
    if (!dt)                                                                   \
    return

/* the largest scaled error of a test, printed */
static void report(const char *what, qru_dtype dt, char uplo, double worst)
{
    printf("%s %s %c: max scaled error %.3g\n", what, qru_test_type_name(dt),
           uplo, worst);
}

/* rows x cols random (uniform(-1, 1) parts), exact in dt, ld rows */
static zd *zrand(qru_dtype dt, int rows, int cols, double scale,
                 unsigned *seed)
{
    zd *Z = cs_alloc((size_t)rows * cols);
    for (size_t e = 0; e < (size_t)rows * cols; ++e) {
        double re = qru_test_urand(seed), im = qru_test_urand(seed);
        Z[e] = cs_round(dt, scale * (re + im * _Complex_I));
    }
    return Z;
}

/* Hermitian positive definite A = G G' / (n + 4) + 0.2 I (ld n), rounded
 * to dt (its diagonal real) */
static zd *hpd(qru_dtype dt, int n, unsigned *seed)
{
    int k = n + 4;
    zd *G = zrand(QRU_COMPLEX_DOUBLE, n, k, 1.0, seed);
    zd *A = cs_alloc((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            zd s = 0;
            for (int t = 0; t < k; ++t)
                s += G[i + (size_t)t * n] * conj(G[j + (size_t)t * n]);
            s /= k;
            if (i == j)
                s = creal(s) + 0.2;
            A[i + (size_t)j * n] = cs_round(dt, s);
            A[j + (size_t)i * n] = conj(A[i + (size_t)j * n]);
        }
    free(G);
    return A;
}

/* ---- factorisation, trsm, solve ---------------------------------------- */

START_TEST(test_factor)
{
    static const int ns[] = {1, 2, 7, 31, 32, 33, 65, 130};
    static const int nbs[] = {0, 1, 16, 32};
    static const int vars[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT, QRU_CHOL_CROUT};
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 17u + (unsigned)_i;
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a) {
        int n = ns[a], ld = n + 2;
        zd *A = hpd(dt, n, &seed);
        for (int v = 0; v < 3; ++v)
            for (size_t b = 0; b < sizeof nbs / sizeof *nbs; ++b)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    void *h = to_h(dt, n, n, ld, A, uplo);
                    pm p = pm_new(dt, n, n, ld, h);
                    int var = vars[v] | (inpl ? QRU_CHOL_IN_PLACE : 0);
                    char tag[96];
                    snprintf(tag, sizeof tag, "%s %c n %d var %d nb %d",
                             qru_test_type_name(dt), uplo, n, var, nbs[b]);
                    int st = qru_chol_factor(ctx, uplo, p.M, var, nbs[b]);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    zd *L = factor_of(dt, &p, uplo, tag);
                    double e = factor_error(dt, n, 0, A, L, tag);
                    worst = e > worst ? e : worst;
                    free(L);
                    free(h);
                    pm_free(&p);
                }
        free(A);
    }
    report("factor", dt, uplo, worst);
}
END_TEST

/* The vendor factorisation (zpotrf / cpotrf) where the tuning asks for it */
START_TEST(test_factor_vendor)
{
    CTYPE_OR_SKIP(dt, _i);
    unsigned seed = 23u;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_CHOL_VENDOR, 2),
                     0);
    for (int u = 0; u < 2; ++u) {
        int n = 70;
        zd *A = hpd(dt, n, &seed);
        pm p = make_factor(dt, n, n + 1, A, UPLOS[u]);
        zd *L = factor_of(dt, &p, UPLOS[u], "vendor");
        factor_error(dt, n, 0, A, L, "vendor");
        free(L);
        free(A);
        pm_free(&p);
    }
}
END_TEST

/* Not positive definite (a negative, NaN or Inf diagonal element at
 * column j, or a NaN off it): status j + 1, A bit-identical */
START_TEST(test_factor_not_pd)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 31u;
    int n = 40, ld = n + 1;
    static const int js[] = {0, 17, 39};
    for (int v = 0; v < 3; ++v)
        for (int a = 0; a < 3; ++a)
            for (int kind = 0; kind < 4; ++kind) {
                int j = js[a];
                if (kind == 3 && j == 0)
                    continue;
                zd *A = hpd(dt, n, &seed);
                zd bad = kind == 0   ? -1.0
                         : kind == 1 ? NAN
                         : kind == 2 ? INFINITY
                                     : NAN * _Complex_I;
                if (kind < 3) {
                    A[j + (size_t)j * n] = bad;
                } else { /* off the diagonal, in the uplo triangle */
                    A[j + (size_t)(j - 1) * n] = bad;
                    A[j - 1 + (size_t)j * n] = bad;
                }
                void *h = to_h(dt, n, n, ld, A, uplo);
                pm p = pm_new(dt, n, n, ld, h);
                static const int vars[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT,
                                           QRU_CHOL_CROUT};
                int st = qru_chol_factor(ctx, uplo, p.M, vars[v], 16);
                ck_assert_msg(st == j + 1, "%s %c var %d j %d kind %d: %d",
                              qru_test_type_name(dt), uplo, vars[v], j, kind,
                              st);
                ck_assert_msg(pm_same(dt, &p, h), "a failed factorisation "
                              "changed A");
                free(h);
                free(A);
                pm_free(&p);
            }
}
END_TEST

START_TEST(test_trsm)
{
    CTYPE_OR_SKIP(dt, _i);
    unsigned seed = 41u;
    static const int ns[] = {1, 5, 33, 80};
    static const int rs[] = {1, 3, 40};
    static const char trs[3] = {'N', 'T', 'C'};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (size_t b = 0; b < sizeof rs / sizeof *rs; ++b)
            for (int sd = 0; sd < 2; ++sd)
                for (int u = 0; u < 2; ++u)
                    for (int t = 0; t < 3; ++t)
                        for (int dg = 0; dg < 2; ++dg) {
                            int n = ns[a], r = rs[b], ld = n + 3;
                            char side = sd ? 'R' : 'L', uplo = UPLOS[u],
                                 trans = trs[t], diag = dg ? 'U' : 'N';
                            int m = side == 'L' ? n : r, c = side == 'L' ? r : n;
                            /* a well-conditioned triangle */
                            zd *A = zrand(dt, n, n, 0.5 / n, &seed);
                            for (int i = 0; i < n; ++i)
                                A[i + (size_t)i * n] =
                                    cs_round(dt, 2.0 + 0.5 * _Complex_I);
                            zd *B = zrand(dt, m, c, 1.0, &seed);
                            void *ha = to_h(dt, n, n, ld, A, uplo);
                            void *hb = to_h(dt, m, c, m, B, 'A');
                            pm pa = pm_new(dt, n, n, ld, ha);
                            pm pb = pm_new(dt, m, c, m, hb);
                            double alpha = 1.5;
                            char tag[96];
                            snprintf(tag, sizeof tag,
                                     "%s %c%c%c%c n %d r %d",
                                     qru_test_type_name(dt), side, uplo, trans,
                                     diag, n, r);
                            int st = qru_trsm(ctx, side, uplo, trans, diag,
                                              alpha, pa.M, pb.M);
                            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                          qru_last_error(ctx));
                            /* reference: ztrsm in double complex on the
                             * triangle (the other one zeroed) */
                            zd *T = cs_alloc((size_t)n * n);
                            for (int j = 0; j < n; ++j)
                                for (int i = 0; i < n; ++i)
                                    if (uplo == 'L' ? i >= j : i <= j)
                                        T[i + (size_t)j * n] =
                                            A[i + (size_t)j * n];
                            zd *X = cs_alloc((size_t)m * c);
                            memcpy(X, B, sizeof(zd) * (size_t)m * c);
                            zd za = alpha;
                            cblas_ztrsm(CblasColMajor,
                                        sd ? CblasRight : CblasLeft,
                                        u ? CblasUpper : CblasLower,
                                        t == 0   ? CblasNoTrans
                                        : t == 1 ? CblasTrans
                                                 : CblasConjTrans,
                                        dg ? CblasUnit : CblasNonUnit, m, c,
                                        &za, T, n, X, m);
                            void *G = qru_test_download(pb.P);
                            double d = 0;
                            for (int j = 0; j < c; ++j)
                                for (int i = 0; i < m; ++i) {
                                    double e = cabs(cs_get(dt, G, m, i, j) -
                                                    X[i + (size_t)j * m]);
                                    d += e * e;
                                }
                            double e = sqrt(d) / (fro(m, c, X, m) * n *
                                                  qru_test_eps(dt));
                            ck_assert_msg(e <= THR, "%s: error %g", tag, e);
                            worst = e > worst ? e : worst;
                            /* A untouched */
                            ck_assert_msg(pm_same(dt, &pa, ha),
                                          "%s: A changed", tag);
                            frees(7, G, X, T, A, B, ha, hb);
                            pm_free(&pa);
                            pm_free(&pb);
                        }
    report("trsm", dt, '-', worst);
}
END_TEST

START_TEST(test_solve)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 43u;
    static const int ns[] = {1, 9, 64, 100};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (int r = 1; r <= 4; r += 3) {
            int n = ns[a];
            zd *A = hpd(dt, n, &seed);
            zd *B = zrand(dt, n, r, 1.0, &seed);
            pm pl = make_factor(dt, n, n + 1, A, uplo);
            void *hb = to_h(dt, n, r, n, B, 'A');
            pm pb = pm_new(dt, n, r, n, hb);
            int st = qru_chol_solve(ctx, uplo, pl.M, pb.M);
            ck_assert_msg(st == 0, "solve: %d", st);
            void *G = qru_test_download(pb.P);
            zd *X = cs_alloc((size_t)n * r);
            for (int j = 0; j < r; ++j)
                for (int i = 0; i < n; ++i)
                    X[i + (size_t)j * n] = cs_get(dt, G, n, i, j);
            /* ||A X - B|| / (||A|| ||X|| n eps) */
            zd one = 1, mone = -1;
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, r, n,
                        &one, A, n, X, n, &mone, B, n);
            double e = fro(n, r, B, n) /
                       (fro(n, n, A, n) * fro(n, r, X, n) * n *
                        qru_test_eps(dt));
            ck_assert_msg(e <= THR, "%s %c solve n %d r %d: residual %g",
                          qru_test_type_name(dt), uplo, n, r, e);
            frees(5, G, X, A, B, hb);
            pm_free(&pl);
            pm_free(&pb);
        }
}
END_TEST

/* ---- updates of a factor ----------------------------------------------- */

START_TEST(test_update)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 53u + (unsigned)_i;
    static const int ns[] = {1, 8, 33, 100, 130};
    static const int ks[] = {0, 1, 3, 40};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (size_t b = 0; b < sizeof ks / sizeof *ks; ++b)
            for (int sign = -1; sign <= 1; sign += 2)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    int n = ns[a], k = ks[b], ld = n + 2;
                    /* downdate: A = A1 + W W', so that A1 stays definite */
                    zd *A0 = hpd(dt, n, &seed);
                    zd *W = zrand(dt, n, k, 0.5 / sqrt(k + 1.0), &seed);
                    zd *A = sign > 0 ? A0 : rank_k(n, k, A0, W, 1);
                    zd *A1 = rank_k(n, k, A, W, sign);
                    pm pl = make_factor(dt, n, ld, A, uplo);
                    void *hw = to_h(dt, n, k, n, W, 'A');
                    pm pw = pm_new(dt, n, k, n, hw);
                    void *h1 = to_h(dt, n, n, ld, A, uplo);
                    pm p1 = pm_new(dt, n, n, ld, h1);
                    pm *out = inpl ? &pl : &p1;
                    char tag[96];
                    snprintf(tag, sizeof tag, "%s %c update n %d k %d sign %d%s",
                             qru_test_type_name(dt), uplo, n, k, sign,
                             inpl ? " in place" : "");
                    int st = qru_chol_update(ctx, uplo, pl.M, pw.M, sign,
                                             out->M);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    zd *L = factor_of(dt, out, uplo, tag);
                    double e = factor_error(dt, n, k, A1, L, tag);
                    worst = e > worst ? e : worst;
                    frees(3, L, h1, hw);
                    if (A != A0)
                        free(A);
                    frees(3, A0, A1, W);
                    pm_free(&pl);
                    pm_free(&pw);
                    pm_free(&p1);
                }
    report("update", dt, uplo, worst);
}
END_TEST

/* A downdate that leaves an indefinite matrix, and non-finite values in
 * W (row i: status i + 1): L bit-identical (updated in place) */
START_TEST(test_update_fail)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 59u;
    int n = 30, k = 2, ld = n + 1;
    static const int rows[] = {0, 13, 29};
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 3; ++r) {
            zd *A = hpd(dt, n, &seed);
            zd *W = zrand(dt, n, k, 0.1, &seed);
            int i = rows[r], want = i + 1, sign = c == 3 ? 1 : -1;
            if (c == 0) /* |w_i|^2 > A(i,i): the downdate fails by row i */
                W[i + (size_t)n] = 4.0 + 3.0 * _Complex_I;
            else
                W[i + (size_t)n] = c == 1 ? NAN : c == 2 ? INFINITY * _Complex_I
                                                          : NAN * _Complex_I;
            pm pl = make_factor(dt, n, ld, A, uplo);
            void *F = qru_test_download(pl.P);
            void *hw = to_h(dt, n, k, n, W, 'A');
            pm pw = pm_new(dt, n, k, n, hw);
            int st = qru_chol_update(ctx, uplo, pl.M, pw.M, sign, pl.M);
            if (c == 0) /* the first failing column is at or before i */
                ck_assert_msg(st >= 1 && st <= want, "%s %c downdate row %d: "
                              "%d", qru_test_type_name(dt), uplo, i, st);
            else
                ck_assert_msg(st == want, "%s %c case %d row %d: %d",
                              qru_test_type_name(dt), uplo, c, i, st);
            ck_assert_msg(pm_same(dt, &pl, F), "a failed update changed L");
            /* with QRU_OPTION_CHECK_FINITE a non-finite W is argument 4 */
            if (c > 0) {
                ck_assert_int_eq(
                    qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
                st = qru_chol_update(ctx, uplo, pl.M, pw.M, sign, pl.M);
                ck_assert_int_eq(st, -4);
                ck_assert_int_eq(
                    qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
                ck_assert_msg(pm_same(dt, &pl, F), "a refused update "
                              "changed L");
            }
            frees(4, F, hw, A, W);
            pm_free(&pl);
            pm_free(&pw);
        }
}
END_TEST

START_TEST(test_insert_delete)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 67u + (unsigned)_i;
    static const int ns[] = {0, 7, 40, 90};
    static const int ps[] = {1, 3, 33};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (size_t b = 0; b < sizeof ps / sizeof *ps; ++b)
            for (int kk = 0; kk < 3; ++kk)
                for (int inpl = 0; inpl < 2; ++inpl) {
                    int n = ns[a], p = ps[b], n1 = n + p;
                    int k = kk == 0 ? 0 : kk == 1 ? n / 2 : n;
                    char tag[128];
                    /* insertion: A (n) -> A1 (n + p) */
                    zd *A1 = hpd(dt, n1, &seed);
                    zd *A = drop_block(n1, A1, k, p);
                    zd *C = new_cols(n1, A1, k, p, uplo, POISON);
                    int ld1 = n1 + 1;
                    pm pl = make_factor(dt, n, n > 0 ? n : 1, A, uplo);
                    void *hc = to_h(dt, n1, p, n1, C, 'A');
                    pm pc = pm_new(dt, n1, p, n1, hc);
                    void *h1 = to_h(dt, n1, n1, ld1, A1, uplo);
                    pm p1 = pm_new(dt, n1, n1, ld1, h1);
                    snprintf(tag, sizeof tag, "%s %c insert n %d k %d p %d",
                             qru_test_type_name(dt), uplo, n, k, p);
                    int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M, p1.M);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    zd *L = factor_of(dt, &p1, uplo, tag);
                    double e = factor_error(dt, n1, 0, A1, L, tag);
                    worst = e > worst ? e : worst;
                    free(L);
                    /* deletion: A1's factor (in p1) -> A's */
                    pm p2;
                    void *h2 = NULL;
                    if (inpl) {
                        ck_assert_int_eq(qru_matrix_wrap(
                                             ctx, dt, n, n,
                                             qru_matrix_data(p1.P), ld1, &p2.M),
                                         0);
                        p2.P = NULL;
                    } else {
                        h2 = to_h(dt, n, n, n + 2, A, uplo);
                        p2 = pm_new(dt, n, n, n + 2, h2);
                    }
                    snprintf(tag, sizeof tag, "%s %c delete n %d k %d p %d%s",
                             qru_test_type_name(dt), uplo, n1, k, p,
                             inpl ? " in place" : "");
                    st = qru_chol_delete(ctx, uplo, p1.M, k, p, p2.M);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    if (!inpl) {
                        L = factor_of(dt, &p2, uplo, tag);
                        e = factor_error(dt, n, 0, A, L, tag);
                        worst = e > worst ? e : worst;
                        free(L);
                        pm_free(&p2);
                    } else if (n > 0) {
                        void *F = qru_test_download(p1.P);
                        zd *Lz = factor_lower(dt, n, F, ld1, uplo);
                        e = factor_error(dt, n, 0, A, Lz, tag);
                        worst = e > worst ? e : worst;
                        free(Lz);
                        free(F);
                        qru_matrix_destroy(p2.M);
                    } else {
                        qru_matrix_destroy(p2.M);
                    }
                    frees(6, h2, h1, hc, A1, A, C);
                    pm_free(&pl);
                    pm_free(&pc);
                    pm_free(&p1);
                }
    report("insert/delete", dt, uplo, worst);
}
END_TEST

/* An insertion whose new matrix is indefinite (C2's diagonal element
 * negative: status k + 1; C3 too large: a later column), or non-finite:
 * L and L1 bit-identical */
START_TEST(test_insert_fail)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 71u;
    int n = 20, p = 2, k = 7, n1 = n + p;
    for (int c = 0; c < 3; ++c) {
        zd *A1 = hpd(dt, n1, &seed);
        zd *A = drop_block(n1, A1, k, p);
        zd *C = new_cols(n1, A1, k, p, uplo, POISON);
        if (c == 0)
            C[k] = -1.0; /* C2(0,0) */
        else if (c == 1)
            C[k + 1 + (size_t)n1] = NAN; /* C2(1,1) */
        else
            C[n1 - 1] = 50.0 + 50.0 * _Complex_I; /* C3: the downdate */
        pm pl = make_factor(dt, n, n, A, uplo);
        void *F = qru_test_download(pl.P);
        void *hc = to_h(dt, n1, p, n1, C, 'A');
        pm pc = pm_new(dt, n1, p, n1, hc);
        void *h1 = to_h(dt, n1, n1, n1, A1, 'A');
        pm p1 = pm_new(dt, n1, n1, n1, h1);
        int st = qru_chol_insert(ctx, uplo, pl.M, k, pc.M, p1.M);
        int lo = c == 0 ? k + 1 : c == 1 ? k + 2 : k + p + 1;
        ck_assert_msg(st >= lo && st <= n1, "%s %c insert case %d: %d",
                      qru_test_type_name(dt), uplo, c, st);
        ck_assert_msg(pm_same(dt, &pl, F), "a failed insertion changed L");
        ck_assert_msg(pm_same(dt, &p1, h1), "a failed insertion wrote L1");
        frees(6, F, hc, h1, A1, A, C);
        pm_free(&pl);
        pm_free(&pc);
        pm_free(&p1);
    }
}
END_TEST

START_TEST(test_shift)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 73u;
    static const int ns[] = {2, 9, 70};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a) {
        int n = ns[a];
        int pairs[][2] = {{0, n - 1}, {n - 1, 0}, {1, n / 2}, {n / 2, 1},
                          {n / 3, n / 3}};
        for (int q = 0; q < 5; ++q)
            for (int inpl = 0; inpl < 2; ++inpl) {
                int i = pairs[q][0], j = pairs[q][1], ld = n + 1;
                zd *A = hpd(dt, n, &seed);
                int *perm = malloc(sizeof(int) * (size_t)n);
                shift_perm(n, i, j, perm);
                zd *A1 = permuted(n, A, perm);
                pm pl = make_factor(dt, n, ld, A, uplo);
                void *h1 = to_h(dt, n, n, ld, A, uplo);
                pm p1 = pm_new(dt, n, n, ld, h1);
                pm *out = inpl ? &pl : &p1;
                char tag[96];
                snprintf(tag, sizeof tag, "%s %c shift n %d i %d j %d%s",
                         qru_test_type_name(dt), uplo, n, i, j,
                         inpl ? " in place" : "");
                int st = qru_chol_shift(ctx, uplo, pl.M, i, j, out->M);
                ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                              qru_last_error(ctx));
                zd *L = factor_of(dt, out, uplo, tag);
                double e = factor_error(dt, n, 0, A1, L, tag);
                worst = e > worst ? e : worst;
                frees(5, L, h1, perm, A, A1);
                pm_free(&pl);
                pm_free(&p1);
            }
    }
    report("shift", dt, uplo, worst);
}
END_TEST

/* ---- the batched routines ---------------------------------------------- */

/* count pages of n x n factors (ld n) of the HPD matrices A[b], uploaded
 * as one batch (the other triangle zero) */
static qru_matrix *factor_batch(qru_dtype dt, int n, int count, zd **A,
                                char uplo)
{
    size_t page = (size_t)n * n;
    void *h = qru_test_alloc(dt, n, n * count, n);
    for (int b = 0; b < count; ++b) {
        zd *L = NULL;
        ck_assert_int_eq(ref_chol(n, A[b], &L), 0);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                zd v = uplo == 'L' ? L[i + (size_t)j * n]
                                   : conj(L[j + (size_t)i * n]);
                v = cs_round(dt, v);
                qru_test_set_c(dt, (char *)h + qru_test_elsize(dt) * page * b,
                               n, i, j, creal(v), cimag(v));
            }
        free(L);
    }
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, n, count,
                                             (long long)page, &M),
                     0);
    ck_assert_int_eq(qru_matrix_upload(M, h, n), 0);
    free(h);
    return M;
}

/* page b of the batch M (rows x cols, ld rows) in double complex */
static zd *page_of(const qru_matrix *M, int b)
{
    qru_dtype dt = qru_matrix_dtype(M);
    int r = qru_matrix_rows(M), c = qru_matrix_cols(M),
        count = qru_matrix_count(M);
    void *h = qru_test_alloc(dt, r, c * count, r);
    ck_assert_int_eq(qru_matrix_download(M, h, r), 0);
    zd *Z = cs_alloc((size_t)r * c);
    const char *pg = (const char *)h + qru_test_elsize(dt) * (size_t)r * c * b;
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < r; ++i)
            Z[i + (size_t)j * r] = cs_get(dt, pg, r, i, j);
    free(h);
    return Z;
}

static zd *lower_page(const zd *F, int n, char uplo)
{
    zd *L = cs_alloc((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            L[i + (size_t)j * n] = uplo == 'L' ? F[i + (size_t)j * n]
                                               : conj(F[j + (size_t)i * n]);
    return L;
}

static qru_matrix *batch_of(qru_dtype dt, int rows, int cols, int count,
                            zd **Z)
{
    size_t page = (size_t)rows * cols;
    void *h = qru_test_alloc(dt, rows, cols * count, rows);
    for (int b = 0; b < count; ++b)
        for (int j = 0; j < cols; ++j)
            for (int i = 0; i < rows; ++i) {
                zd v = Z[b][i + (size_t)j * rows];
                qru_test_set_c(dt, (char *)h + qru_test_elsize(dt) * page * b,
                               rows, i, j, creal(v), cimag(v));
            }
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, rows, cols, rows, count,
                                             (long long)page, &M),
                     0);
    ck_assert_int_eq(qru_matrix_upload(M, h, rows), 0);
    free(h);
    return M;
}

START_TEST(test_batch)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 79u;
    enum { CNT = 3 };
    /* (rank 35: two chunks of the GPU kernels' 32 rotations a step) */
    static const int ns[] = {1, 9, 24, 70};
    static const int ks[] = {1, 4, 35};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a)
        for (size_t kb = 0; kb < sizeof ks / sizeof *ks; ++kb) {
            int n = ns[a], k = ks[kb], info[CNT];
            char tag[128];
            zd *A[CNT], *W[CNT], *A1[CNT], *C[CNT], *Ai[CNT];
            int kp = n / 2, p = k;
            for (int b = 0; b < CNT; ++b) {
                A[b] = hpd(dt, n, &seed);
                W[b] = zrand(dt, n, k, 0.3, &seed);
                A1[b] = rank_k(n, k, A[b], W[b], 1);
                Ai[b] = hpd(dt, n + p, &seed);
                C[b] = new_cols(n + p, Ai[b], kp, p, uplo, POISON);
            }
            /* update (sign +1), then downdate back */
            for (int sign = 1; sign >= -1; sign -= 2) {
                zd **from = sign > 0 ? A : A1, **to = sign > 0 ? A1 : A;
                qru_matrix *L = factor_batch(dt, n, CNT, from, uplo);
                qru_matrix *Wm = batch_of(dt, n, k, CNT, W);
                int st = qru_chol_update_batch(ctx, uplo, L, Wm, sign, L,
                                               info);
                snprintf(tag, sizeof tag, "%s %c update_batch n %d k %d "
                         "sign %d", qru_test_type_name(dt), uplo, n, k, sign);
                ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                              qru_last_error(ctx));
                for (int b = 0; b < CNT; ++b) {
                    ck_assert_int_eq(info[b], 0);
                    zd *F = page_of(L, b), *Lb = lower_page(F, n, uplo);
                    double e = factor_error(dt, n, k, to[b], Lb, tag);
                    worst = e > worst ? e : worst;
                    free(F);
                    free(Lb);
                }
                qru_matrix_destroy(L);
                qru_matrix_destroy(Wm);
            }
            /* insertion at kp of p columns, then deletion of them */
            zd *Ad[CNT];
            for (int b = 0; b < CNT; ++b)
                Ad[b] = drop_block(n + p, Ai[b], kp, p);
            qru_matrix *L = factor_batch(dt, n, CNT, Ad, uplo);
            qru_matrix *Cm = batch_of(dt, n + p, p, CNT, C);
            qru_matrix *L1 = NULL;
            ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + p, n + p, 0,
                                                     CNT, 0, &L1),
                             0);
            snprintf(tag, sizeof tag, "%s %c insert_batch n %d k %d p %d",
                     qru_test_type_name(dt), uplo, n, kp, p);
            int st = qru_chol_insert_batch(ctx, uplo, L, kp, Cm, L1, info);
            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
            for (int b = 0; b < CNT; ++b) {
                zd *F = page_of(L1, b), *Lb = lower_page(F, n + p, uplo);
                double e = factor_error(dt, n + p, p, Ai[b], Lb, tag);
                worst = e > worst ? e : worst;
                free(F);
                free(Lb);
            }
            snprintf(tag, sizeof tag, "%s %c delete_batch n %d k %d p %d",
                     qru_test_type_name(dt), uplo, n + p, kp, p);
            st = qru_chol_delete_batch(ctx, uplo, L1, kp, p, L, info);
            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
            for (int b = 0; b < CNT; ++b) {
                zd *F = page_of(L, b), *Lb = lower_page(F, n, uplo);
                double e = factor_error(dt, n, p, Ad[b], Lb, tag);
                worst = e > worst ? e : worst;
                free(F);
                free(Lb);
            }
            /* a failing problem (its downdate indefinite) leaves its page
             * bit-identical, the others are updated */
            {
                qru_matrix *Lf = factor_batch(dt, n, CNT, A1, uplo);
                zd *Wb[CNT];
                for (int b = 0; b < CNT; ++b) {
                    Wb[b] = cs_alloc((size_t)n * k);
                    memcpy(Wb[b], W[b], sizeof(zd) * (size_t)n * k);
                }
                Wb[1][n - 1] = 9.0 + 9.0 * _Complex_I;
                qru_matrix *Wm = batch_of(dt, n, k, CNT, Wb);
                zd *before = page_of(Lf, 1);
                st = qru_chol_update_batch(ctx, uplo, Lf, Wm, -1, Lf, info);
                ck_assert_msg(st == 1, "%s: failing batch: %d",
                              qru_test_type_name(dt), st);
                ck_assert_msg(info[1] >= 1 && info[1] <= n, "info %d",
                              info[1]);
                zd *after = page_of(Lf, 1);
                ck_assert_msg(memcmp(before, after, sizeof(zd) * n * n) == 0,
                              "a failed problem's page changed");
                free(before);
                free(after);
                for (int b = 0; b < CNT; ++b)
                    free(Wb[b]);
                qru_matrix_destroy(Wm);
                qru_matrix_destroy(Lf);
            }
            for (int b = 0; b < CNT; ++b) {
                frees(6, A[b], W[b], A1[b], C[b], Ai[b], Ad[b]);
            }
            qru_matrix_destroy(L);
            qru_matrix_destroy(L1);
            qru_matrix_destroy(Cm);
        }
    report("batches", dt, uplo, worst);
}
END_TEST

/* A NaN (in an imaginary part) in the factor's row 15: the deletion and
 * the shift fail at a column up to its new position + 1 and leave L and
 * L1 bit-identical; with QRU_OPTION_CHECK_FINITE L is the deletion's
 * argument 3 (the shift does not scan) */
START_TEST(test_nonfinite_factor)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 89u;
    int n = 20, ld = n + 1, r = 15;
    zd *A = hpd(dt, n, &seed);
    pm pl = make_factor(dt, n, ld, A, uplo);
    void *F = qru_test_download(pl.P);
    qru_test_set_c(dt, F, ld, uplo == 'L' ? r : 3, uplo == 'L' ? 3 : r, 0.5,
                   NAN);
    pm pb = pm_new(dt, n, n, ld, F);
    void *h1 = to_h(dt, n - 2, n - 2, n - 2, A, 'A');
    pm p1 = pm_new(dt, n - 2, n - 2, n - 2, h1);
    void *h2 = to_h(dt, n, n, ld, A, 'A');
    pm p2 = pm_new(dt, n, n, ld, h2);
    for (int opt = 0; opt < 2; ++opt) {
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, opt), 0);
        int st = qru_chol_delete(ctx, uplo, pb.M, 5, 2, p1.M);
        ck_assert_msg(opt ? st == -3 : st >= 1 && st <= r - 1,
                      "%s %c delete: %d", qru_test_type_name(dt), uplo, st);
        st = qru_chol_shift(ctx, uplo, pb.M, 2, 17, p2.M); /* (no scan) */
        ck_assert_msg(st >= 1 && st <= r, "%s %c shift: %d",
                      qru_test_type_name(dt), uplo, st);
        ck_assert_msg(pm_same(dt, &pb, F), "a failed call changed L");
        ck_assert_msg(pm_same(dt, &p1, h1) && pm_same(dt, &p2, h2),
                      "a failed call wrote L1");
    }
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    frees(4, A, F, h1, h2);
    pm_free(&pl);
    pm_free(&pb);
    pm_free(&p1);
    pm_free(&p2);
}
END_TEST

/* ---- the per-problem forms and the backend table ----------------------- */

/* the whole of a batch on the host */
static void *batch_get(const qru_matrix *M)
{
    qru_dtype dt = qru_matrix_dtype(M);
    int r = qru_matrix_rows(M), c = qru_matrix_cols(M) * qru_matrix_count(M);
    void *h = qru_test_alloc(dt, r, c, r);
    ck_assert_int_eq(qru_matrix_download(M, h, r), 0);
    return h;
}

/* page b of batches M and the host copy h (from batch_get) bit for bit */
static int page_same(const qru_matrix *M, const void *h, int b)
{
    void *g = batch_get(M);
    size_t pg = qru_test_elsize(qru_matrix_dtype(M)) *
                (size_t)qru_matrix_rows(M) * qru_matrix_cols(M);
    int same = memcmp((const char *)g + pg * b, (const char *)h + pg * b,
                      pg) == 0;
    free(g);
    return same;
}

/* the largest check_factor of pages b0 .. b1 - 1 of the batch M (order
 * n, uplo) against the matrices A[b] */
static double check_pages(qru_dtype dt, const qru_matrix *M, int b0, int b1,
                          int n, zd **A, char uplo, const char *tag)
{
    double worst = 0;
    for (int b = b0; b < b1; ++b) {
        zd *F = page_of(M, b), *Lb = lower_page(F, n, uplo);
        double e = factor_error(dt, n, 0, A[b], Lb, tag);
        worst = e > worst ? e : worst;
        frees(2, F, Lb);
    }
    return worst;
}

/* The _ex forms: per-problem ranks of the update (k, 1, 0: the page of
 * rank 0 bit for bit, info 0) and masks of the insertion and deletion
 * (1, 0, 1: the masked page bit for bit, info 0), every other page
 * against zpotrf of its changed matrix. */
START_TEST(test_batch_ex)
{
    CTYPE_OR_SKIP(dt, _i / 2);
    char uplo = UPLOS[_i % 2];
    unsigned seed = 101u + (unsigned)_i;
    enum { CNT = 3 };
    static const int ns[] = {6, 45};
    double worst = 0;
    for (size_t a = 0; a < sizeof ns / sizeof *ns; ++a) {
        int n = ns[a], k = 3, p = 2, kp = n / 3, n1 = n + p;
        int rank[CNT] = {k, 1, 0}, mask[CNT] = {1, 0, 1}, info[CNT];
        char tag[128];
        zd *A[CNT], *W[CNT], *A1[CNT], *Ai[CNT], *C[CNT], *Ad[CNT];
        for (int b = 0; b < CNT; ++b) {
            A[b] = hpd(dt, n, &seed);
            W[b] = zrand(dt, n, k, 0.3, &seed);
            A1[b] = rank_k(n, rank[b], A[b], W[b], 1);
            Ai[b] = hpd(dt, n1, &seed);
            C[b] = new_cols(n1, Ai[b], kp, p, uplo, POISON);
            Ad[b] = drop_block(n1, Ai[b], kp, p);
        }
        for (int sign = 1; sign >= -1; sign -= 2) {
            zd **from = sign > 0 ? A : A1, **to = sign > 0 ? A1 : A;
            qru_matrix *L = factor_batch(dt, n, CNT, from, uplo);
            qru_matrix *Wm = batch_of(dt, n, k, CNT, W);
            void *before = batch_get(L);
            snprintf(tag, sizeof tag, "%s %c update_batch_ex n %d sign %d",
                     qru_test_type_name(dt), uplo, n, sign);
            int st = qru_chol_update_batch_ex(ctx, uplo, L, Wm, sign, L, info,
                                              rank);
            ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
            ck_assert_msg(info[2] == 0 && page_same(L, before, 2),
                          "%s: the page of rank 0 changed (info %d)", tag,
                          info[2]);
            ck_assert(info[0] == 0 && info[1] == 0);
            double e = check_pages(dt, L, 0, 2, n, to, uplo, tag);
            worst = e > worst ? e : worst;
            free(before);
            qru_matrix_destroy(L);
            qru_matrix_destroy(Wm);
        }
        /* insertion (masked) out of place into pages holding A1's factor
         * for problem 1, then the deletion (masked) in place */
        qru_matrix *L = factor_batch(dt, n, CNT, Ad, uplo);
        qru_matrix *Cm = batch_of(dt, n1, p, CNT, C);
        qru_matrix *L1 = factor_batch(dt, n1, CNT, Ai, uplo);
        void *b1 = batch_get(L1);
        snprintf(tag, sizeof tag, "%s %c insert_batch_ex n %d k %d p %d",
                 qru_test_type_name(dt), uplo, n, kp, p);
        int st = qru_chol_insert_batch_ex(ctx, uplo, L, kp, Cm, L1, info,
                                          mask);
        ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
        ck_assert_msg(info[1] == 0 && page_same(L1, b1, 1),
                      "%s: the masked page changed", tag);
        double e = check_pages(dt, L1, 0, CNT, n1, Ai, uplo, tag);
        worst = e > worst ? e : worst;
        free(b1);
        b1 = batch_get(L1);
        int dmask[CNT] = {0, 1, 1};
        qru_matrix *Lo = batch_of(dt, n, n, CNT, Ad); /* (any data) */
        void *bo = batch_get(Lo);
        snprintf(tag, sizeof tag, "%s %c delete_batch_ex n %d k %d p %d",
                 qru_test_type_name(dt), uplo, n1, kp, p);
        st = qru_chol_delete_batch_ex(ctx, uplo, L1, kp, p, Lo, info, dmask);
        ck_assert_msg(st == 0, "%s: %d (%s)", tag, st, qru_last_error(ctx));
        ck_assert_msg(info[0] == 0 && page_same(Lo, bo, 0),
                      "%s: the masked page changed (info %d)", tag, info[0]);
        ck_assert_msg(page_same(L1, b1, 0) && page_same(L1, b1, 1) &&
                          page_same(L1, b1, 2),
                      "%s: an out-of-place deletion changed L", tag);
        e = check_pages(dt, Lo, 1, CNT, n, Ad, uplo, tag);
        worst = e > worst ? e : worst;
        frees(2, b1, bo);
        for (int b = 0; b < CNT; ++b)
            frees(6, A[b], W[b], A1[b], Ai[b], C[b], Ad[b]);
        qru_matrix_destroy(L);
        qru_matrix_destroy(Cm);
        qru_matrix_destroy(L1);
        qru_matrix_destroy(Lo);
    }
    report("batches (_ex)", dt, uplo, worst);
}
END_TEST

/* Every backend computes the Cholesky routines and batches in complex:
 * the ops they reach are in the table's complex_ops (nothing refuses
 * them up front). */
START_TEST(test_complex_ops)
{
    unsigned long long need = QRU_CHOL_UPDATE_OPS | QRU_OPM(chol_update_batch) |
                              QRU_OPM(chol_insert_batch) |
                              QRU_OPM(chol_delete_batch);
    unsigned long long have = ctx->backend_ops->complex_ops;
    ck_assert_msg((need & ~have) == 0,
                  "%s: complex_ops lacks the ops %#llx",
                  qru_backend_name(qru_context_backend(ctx)), need & ~have);
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctype(t);
        if (dt)
            ck_assert_int_eq(qru_check_complex_ops(ctx, dt, need), 0);
    }
}
END_TEST

/* ---- bad arguments ----------------------------------------------------- */

START_TEST(test_bad_args)
{
    CTYPE_OR_SKIP(dt, _i);
    unsigned seed = 83u;
    int n = 6;
    zd *A = hpd(dt, n, &seed);
    pm pl = make_factor(dt, n, n, A, 'L');
    void *F = qru_test_download(pl.P);
    qru_matrix *W = NULL, *Wr = NULL, *L1 = NULL, *C = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 2, 0, &W), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, QRU_DOUBLE, n, 2, 0, &Wr), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n + 1, n + 1, 0, &L1), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n + 1, 1, 0, &C), 0);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'X', 'N', 1.0, pl.M, W), -4);
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'C', 'N', 1.0, pl.M, Wr), -8);
    ck_assert_int_eq(qru_chol_factor(ctx, 'X', pl.M, 0, 0), -2);
    ck_assert_int_eq(qru_chol_solve(ctx, 'L', pl.M, Wr), -4);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', pl.M, Wr, 1, pl.M), -4);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', pl.M, W, 0, pl.M), -5);
    ck_assert_int_eq(qru_chol_update(ctx, 'L', pl.M, W, 1, L1), -6);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', pl.M, n + 1, C, L1), -4);
    ck_assert_int_eq(qru_chol_insert(ctx, 'L', pl.M, 0, W, L1), -5);
    ck_assert_int_eq(qru_chol_delete(ctx, 'L', pl.M, 2, n, L1), -5);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', pl.M, n, 0, pl.M), -4);
    ck_assert_int_eq(qru_chol_shift(ctx, 'L', pl.M, 0, 1, L1), -6);
    ck_assert_msg(pm_same(dt, &pl, F), "a refused call changed L");
    qru_matrix_destroy(W);
    qru_matrix_destroy(Wr);
    qru_matrix_destroy(L1);
    qru_matrix_destroy(C);
    free(F);
    free(A);
    pm_free(&pl);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chol_complex");
    TCase *tc = tcase_create("chol_complex");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_factor, 0, 4);
    tcase_add_loop_test(tc, test_factor_vendor, 0, 2);
    tcase_add_loop_test(tc, test_factor_not_pd, 0, 4);
    tcase_add_loop_test(tc, test_trsm, 0, 2);
    tcase_add_loop_test(tc, test_solve, 0, 4);
    tcase_add_loop_test(tc, test_update, 0, 4);
    tcase_add_loop_test(tc, test_update_fail, 0, 4);
    tcase_add_loop_test(tc, test_insert_delete, 0, 4);
    tcase_add_loop_test(tc, test_insert_fail, 0, 4);
    tcase_add_loop_test(tc, test_shift, 0, 4);
    tcase_add_loop_test(tc, test_nonfinite_factor, 0, 4);
    tcase_add_test(tc, test_complex_ops);
    tcase_add_loop_test(tc, test_bad_args, 0, 2);
    suite_add_tcase(s, tc);
    /* the batches apart (CK_RUN_CASE=batches: on PoCL their kernels'
     * first builds take minutes) */
    TCase *tb = tcase_create("batches");
    tcase_add_checked_fixture(tb, setup, teardown);
    tcase_set_timeout(tb, 1200);
    tcase_add_loop_test(tb, test_batch, 0, 4);
    tcase_add_loop_test(tb, test_batch_ex, 0, 4);
    suite_add_tcase(s, tb);
    return qru_test_main(s);
}
