/* The least-squares object: qru_lsq_create / solve / residual / get_* and
 * accessors, against LAPACKE gels (test_solve: also the complex types
 * where the backend takes them, against zgels, ' the conjugate
 * transpose). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

/* element (i, j) as a double complex */
static double complex el(qru_dtype dt, const void *A, int lda, int i, int j)
{
    double re, im;
    qru_test_get_c(dt, A, lda, i, j, &re, &im);
    return re + im * _Complex_I;
}

QRU_TEST_FIXTURE

static size_t bytes_of(const qru_matrix *M)
{
    int rows = qru_matrix_rows(M);
    return qru_test_elsize(qru_matrix_dtype(M)) * (size_t)(rows > 1 ? rows : 1) *
           (size_t)qru_matrix_cols(M);
}

/* asserts that M holds exactly the host array h (ld = max(1, rows)) */
static void assert_holds(const qru_matrix *M, const void *h, const char *what,
                         const char *tag)
{
    void *g = qru_test_download(M);
    ck_assert_msg(memcmp(g, h, bytes_of(M)) == 0, "%s: %s changed", tag, what);
    free(g);
}

/* A host array with fresh random contents uploaded to a new matrix with
 * leading dimension rows + pad; *host receives the host copy (ld = rows). */
static qru_matrix *rand_matrix(qru_dtype dt, int rows, int cols, int pad,
                               unsigned *seed, void **host)
{
    int ld = rows > 1 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, h, ld, seed);
    qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, ld + pad, h, ld);
    if (host)
        *host = h;
    else
        free(h);
    return M;
}

typedef struct lcase {
    int n, m, r;
    int q; /* qru_lsq_q */
    int nb, rowcap, colcap; /* capacities: extra over n / m, -1 = 0 */
} lcase;

static void run_case(qru_dtype dt, lcase c, unsigned seed)
{
    char tag[160];
    static const char *const qname[] = {"full", "thin", "none"};
    snprintf(tag, sizeof tag, "%s n=%d m=%d r=%d q=%s nb=%d caps=%d/%d",
             qru_test_type_name(dt), c.n, c.m, c.r,
             qname[c.q], c.nb, c.rowcap, c.colcap);
    int n = c.n, m = c.m, r = c.r;
    void *Ah, *bh;
    qru_matrix *A = rand_matrix(dt, n, m, 3, &seed, &Ah);
    qru_matrix *b = rand_matrix(dt, n, r, 1, &seed, &bh);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = c.q;
    opt.nb = c.nb;
    opt.row_capacity = c.rowcap < 0 ? 0 : n + c.rowcap;
    opt.col_capacity = c.colcap < 0 ? 0 : m + c.colcap;
    qru_lsq *f = NULL;
    int st = qru_lsq_create(ctx, A, b, &opt, &f);
    ck_assert_msg(st == 0 && f, "%s: create %d (%s)", tag, st,
                  qru_strerror(st));
    /* inputs are not modified */
    assert_holds(A, Ah, "A", tag);
    assert_holds(b, bh, "b", tag);
    /* accessors */
    ck_assert_int_eq(qru_lsq_rows(f), n);
    ck_assert_int_eq(qru_lsq_cols(f), m);
    ck_assert_int_eq(qru_lsq_nrhs(f), r);
    ck_assert_int_eq(qru_lsq_has_q(f), c.q != QRU_Q_NONE);
    ck_assert_int_eq(qru_lsq_q_form(f), c.q);
    ck_assert_int_eq(qru_lsq_dtype(f), dt);
    double dd_c = -1.0;
    ck_assert_int_eq(qru_lsq_get_downdate_condition(f, &dd_c), 0);
    ck_assert(dd_c == 0.0);

    /* solution and residual vs gels */
    qru_matrix *x = rand_matrix(dt, m, r, 2, &seed, NULL);
    st = qru_lsq_solve(f, x);
    ck_assert_msg(st == 0, "%s: solve %d (%s)", tag, st, qru_strerror(st));
    double *res = malloc(sizeof(double) * (size_t)r);
    for (int j = 0; j < r; ++j)
        res[j] = -1.0;
    st = qru_lsq_get_residual_norms(f, res);
    ck_assert_msg(st == 0, "%s: residual %d", tag, st);
    void *xh = qru_test_download(x);
    double xerr, rerr;
    qru_test_lsq_errors(dt, n, m, r, Ah, n, bh, n, xh, m, res, &xerr, &rerr);
    if (getenv("QRU_TEST_VERBOSE"))
        printf("%s: xerr %.3g rerr %.3g\n", tag, xerr, rerr);
    ck_assert_msg(xerr < QRU_TEST_THRESHOLD, "%s: solution error %g", tag,
                  xerr);
    ck_assert_msg(rerr < QRU_TEST_THRESHOLD, "%s: residual error %g", tag,
                  rerr);
    for (int j = 0; j < r; ++j)
        ck_assert_msg(res[j] >= 0.0 && (n > m || res[j] <= 1e-3),
                      "%s: res[%d] = %g", tag, j, res[j]);

    /* R (n x m: zeros below row m in the economy forms; m x m), d */
    qru_matrix *R = rand_matrix(dt, n, m, 1, &seed, NULL);
    qru_matrix *Rm = rand_matrix(dt, m, m, 1, &seed, NULL);
    qru_matrix *d = rand_matrix(dt, m, r, 0, &seed, NULL);
    qru_matrix *dn = rand_matrix(dt, n, r, 0, &seed, NULL);
    ck_assert_int_eq(qru_lsq_get_r(f, R), 0);
    ck_assert_int_eq(qru_lsq_get_r(f, Rm), 0);
    ck_assert_int_eq(qru_lsq_get_d(f, d), 0);
    st = qru_lsq_get_d(f, dn);
    ck_assert_int_eq(st, c.q == QRU_Q_FULL || n == m ? 0 : QRU_ERR_NO_Q);
    void *Rh = qru_test_download(R), *Rmh = qru_test_download(Rm),
         *dh = qru_test_download(d);
    ck_assert_msg(qru_test_lower_max(dt, n, m, Rh, n) == 0.0,
                  "%s: R not upper trapezoidal", tag);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
            ck_assert(el(dt, Rh, n, i, j) == el(dt, Rmh, m, i, j));
    /* R x = d(1:m): the solution really comes from R and d */
    for (int j = 0; j < r; ++j)
        for (int i = 0; i < m; ++i) {
            double complex s = 0;
            double sa = 0;
            for (int k = i; k < m; ++k) {
                double complex t = el(dt, Rh, n, i, k) * el(dt, xh, m, k, j);
                s += t;
                sa += cabs(t);
            }
            double e = cabs(s - el(dt, dh, m, i, j));
            ck_assert_msg(e <= QRU_TEST_THRESHOLD * m * qru_test_eps(dt) * sa,
                          "%s: R x != d at (%d,%d)", tag, i, j);
        }
    /* Q: n x n (full), n x m (full, thin) */
    void *Qg, *Q1g;
    qru_matrix *Q = rand_matrix(dt, n, n, 2, &seed, &Qg);
    qru_matrix *Q1 = rand_matrix(dt, n, m, 2, &seed, &Q1g);
    st = qru_lsq_get_q(f, Q);
    ck_assert_int_eq(st, c.q == QRU_Q_FULL || (c.q == QRU_Q_THIN && n == m)
                             ? 0
                             : QRU_ERR_NO_Q);
    if (st)
        assert_holds(Q, Qg, "Q (no n x n Q held)", tag);
    st = qru_lsq_get_q(f, Q1);
    ck_assert_int_eq(st, c.q != QRU_Q_NONE ? 0 : QRU_ERR_NO_Q);
    if (c.q != QRU_Q_NONE) {
        void *Qh = qru_test_download(Q1);
        double be = qru_test_backward_error_econ(dt, n, m, Ah, n, Qh, n, Rmh,
                                                 m);
        double oe = qru_test_orth_error_cols(dt, n, m, Qh, n);
        ck_assert_msg(be < QRU_TEST_THRESHOLD, "%s: backward error %g", tag,
                      be);
        ck_assert_msg(oe < QRU_TEST_THRESHOLD, "%s: orthogonality %g", tag, oe);
        /* d = Q1' b */
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < m; ++i) {
                double complex s = 0;
                double sa = 0;
                for (int k = 0; k < n; ++k) {
                    double complex t =
                        conj(el(dt, Qh, n, k, i)) * el(dt, bh, n, k, j);
                    s += t;
                    sa += cabs(t);
                }
                ck_assert_msg(cabs(s - el(dt, dh, m, i, j)) <=
                                  QRU_TEST_THRESHOLD * n * qru_test_eps(dt) *
                                      (sa + 1.0),
                              "%s: d != Q'b at (%d,%d)", tag, i, j);
            }
        /* the residuals E = b - Q1 d, whose norms are res */
        qru_matrix *E = rand_matrix(dt, n, r, 0, &seed, NULL);
        ck_assert_int_eq(qru_lsq_get_residuals(f, E), 0);
        void *Eh = qru_test_download(E);
        for (int j = 0; j < r; ++j) {
            double en = 0.0;
            for (int i = 0; i < n; ++i) {
                double complex s = el(dt, bh, n, i, j);
                double sa = cabs(s);
                for (int k = 0; k < m; ++k) {
                    double complex t = el(dt, Qh, n, i, k) * el(dt, dh, m, k, j);
                    s -= t;
                    sa += cabs(t);
                }
                double complex v = el(dt, Eh, n, i, j);
                en += creal(v) * creal(v) + cimag(v) * cimag(v);
                ck_assert_msg(cabs(s - v) <= QRU_TEST_THRESHOLD * n *
                                                 qru_test_eps(dt) * (sa + 1.0),
                              "%s: E != b - Q1 d at (%d,%d)", tag, i, j);
            }
            ck_assert_msg(fabs(sqrt(en) - res[j]) <=
                              QRU_TEST_THRESHOLD * n * qru_test_eps(dt) *
                                  (res[j] + 1.0),
                          "%s: residual %g vs ||E|| %g", tag, res[j],
                          sqrt(en));
        }
        free(Eh);
        qru_matrix_destroy(E);
        free(Qh);
    } else {
        assert_holds(Q1, Q1g, "Q1 (no Q held)", tag);
    }
    if (c.q == QRU_Q_FULL) {
        void *Qh = qru_test_download(Q);
        double oe = qru_test_orth_error(dt, n, Qh, n);
        ck_assert_msg(oe < QRU_TEST_THRESHOLD, "%s: orthogonality %g", tag, oe);
        free(Qh);
    }
    /* A and b still unchanged after all of this */
    assert_holds(A, Ah, "A", tag);
    assert_holds(b, bh, "b", tag);

    qru_lsq_destroy(f);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    qru_matrix_destroy(x);
    qru_matrix_destroy(R);
    qru_matrix_destroy(Rm);
    qru_matrix_destroy(d);
    qru_matrix_destroy(dn);
    qru_matrix_destroy(Q);
    qru_matrix_destroy(Q1);
    free(Ah);
    free(bh);
    free(xh);
    free(Rh);
    free(Rmh);
    free(dh);
    free(Qg);
    free(Q1g);
    free(res);
}

START_TEST(test_solve)
{
    static const lcase cases[] = {
        {1, 1, 1, QRU_Q_FULL, 0, -1, -1},
        {2, 1, 1, QRU_Q_FULL, 0, -1, -1},
        {2, 1, 3, QRU_Q_NONE, 0, -1, -1},
        {5, 5, 1, QRU_Q_FULL, 0, -1, -1},
        {5, 5, 3, QRU_Q_THIN, 2, -1, -1},
        {20, 7, 1, QRU_Q_FULL, 0, -1, -1},
        {20, 7, 3, QRU_Q_FULL, 3, -1, -1},
        {20, 7, 3, QRU_Q_NONE, 3, -1, -1},
        {20, 7, 1, QRU_Q_THIN, 1, 0, 0},
        {20, 7, 3, QRU_Q_FULL, 0, 10, 5},
        {20, 7, 3, QRU_Q_NONE, 0, 1, 0},
        {9, 8, 3, QRU_Q_FULL, 8, -1, 2},
        {17, 17, 1, QRU_Q_FULL, 8, 3, 3},
        {33, 16, 3, QRU_Q_FULL, 8, -1, -1},
        {33, 17, 1, QRU_Q_THIN, 8, -1, -1},
        {100, 40, 3, QRU_Q_FULL, 0, 20, 20},
        {130, 65, 3, QRU_Q_NONE, 0, -1, -1},
        {130, 65, 1, QRU_Q_FULL, 100, -1, -1},
        {1, 1, 2, QRU_Q_THIN, 0, -1, -1},
        {1, 1, 1, QRU_Q_NONE, 0, -1, -1},
        {9, 8, 3, QRU_Q_THIN, 8, -1, 2},
        {100, 40, 3, QRU_Q_THIN, 0, 20, 20},
        {130, 65, 2, QRU_Q_THIN, 64, -1, -1},
        {130, 65, 1, QRU_Q_NONE, 100, -1, -1},
    };
    if (_i >= qru_test_ntypes(ctx))
        return;
    qru_dtype dt = qru_test_type(ctx, _i);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k)
        run_case(dt, cases[k], 100u + (unsigned)k);
}
END_TEST

/* the options' defaults and NULL options */
START_TEST(test_defaults)
{
    qru_lsq_options opt;
    memset(&opt, 0x77, sizeof opt);
    qru_lsq_options_init(&opt);
    ck_assert_int_eq(opt.q, QRU_Q_FULL);
    ck_assert_int_eq(opt.nb, 0);
    ck_assert_int_eq(opt.row_capacity, 0);
    ck_assert_int_eq(opt.col_capacity, 0);
    qru_lsq_options_init(NULL);

    unsigned seed = 77;
    qru_matrix *A = rand_matrix(QRU_FLOAT, 8, 3, 0, &seed, NULL);
    qru_matrix *b = rand_matrix(QRU_FLOAT, 8, 2, 0, &seed, NULL);
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, NULL, &f), 0);
    ck_assert_int_eq(qru_lsq_has_q(f), 1);
    ck_assert_int_eq(qru_lsq_rows(f), 8);
    ck_assert_int_eq(qru_lsq_cols(f), 3);
    ck_assert_int_eq(qru_lsq_nrhs(f), 2);
    ck_assert_int_eq(qru_lsq_dtype(f), QRU_FLOAT);
    qru_lsq_destroy(f);
    qru_lsq_destroy(NULL);
    ck_assert_int_eq(qru_lsq_rows(NULL), -1);
    ck_assert_int_eq(qru_lsq_cols(NULL), -1);
    ck_assert_int_eq(qru_lsq_nrhs(NULL), -1);
    ck_assert_int_eq(qru_lsq_has_q(NULL), 0);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
}
END_TEST

/* qru_lsq_solve on f returns want (> 0: rank deficiency) and leaves a
 * random x untouched; the residual is still defined. */
static void solve_reports(qru_dtype dt, const qru_lsq *f, int want,
                          unsigned *seed, const char *tag)
{
    int m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    void *xg;
    qru_matrix *x = rand_matrix(dt, m, r, 1, seed, &xg);
    int st = qru_lsq_solve(f, x);
    ck_assert_msg(st == want, "%s: solve gave %d, want %d", tag, st, want);
    assert_holds(x, xg, "x", tag);
    double *res = malloc(sizeof(double) * (size_t)r);
    for (int j = 0; j < r; ++j)
        res[j] = -1.0;
    ck_assert_int_eq(qru_lsq_get_residual_norms(f, res), 0);
    for (int j = 0; j < r; ++j)
        ck_assert(res[j] >= 0);
    free(res);
    qru_matrix_destroy(x);
    free(xg);
}

/* rank deficiency: solve reports the first rank-deficient column (here an
 * exactly zero R(i,i)), x is untouched */
START_TEST(test_rank_deficient)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    unsigned seed = 555;
    int n = 10, m = 4, r = 2;
    for (int variant = 0; variant < 4; ++variant) {
        void *Ah = qru_test_alloc(dt, n, m, n);
        qru_test_rand(dt, n, m, Ah, n, &seed);
        int want;
        if (variant < 3) { /* zero column 0, 2 or 3 */
            int zc = variant == 0 ? 0 : variant + 1;
            for (int i = 0; i < n; ++i)
                qru_test_set(dt, Ah, n, i, zc, 0.0);
            want = zc + 1;
        } else { /* columns 0 and 1 both exactly e_1 (scaled): R(1,1) = 0 */
            for (int i = 0; i < n; ++i) {
                qru_test_set(dt, Ah, n, i, 0, i == 0 ? 2.0 : 0.0);
                qru_test_set(dt, Ah, n, i, 1, i == 0 ? -3.0 : 0.0);
            }
            want = 2;
        }
        for (int flags = 0; flags < 2; ++flags) {
            qru_matrix *A = qru_test_upload(ctx, dt, n, m, 0, Ah, n);
            qru_matrix *b = rand_matrix(dt, n, r, 0, &seed, NULL);
            qru_lsq_options opt;
            qru_lsq_options_init(&opt);
            opt.q = flags ? QRU_Q_FULL : QRU_Q_NONE;
            opt.nb = variant % 2 ? 2 : 0;
            qru_lsq *f = NULL;
            ck_assert_int_eq(qru_lsq_create(ctx, A, b, &opt, &f), 0);
            char tag[64];
            snprintf(tag, sizeof tag, "variant %d", variant);
            solve_reports(dt, f, want, &seed, tag);
            qru_lsq_destroy(f);
            qru_matrix_destroy(A);
            qru_matrix_destroy(b);
        }
        free(Ah);
    }
}
END_TEST

/* Removing the only rows in which a column of A is nonzero leaves that
 * column of A1 identically zero, but the rotations leave rounding-level
 * values in R1(j,j) rather than an exact zero: the solve judges rank by
 * the documented tolerance, returns j and leaves x unchanged.  Each update
 * algorithm (AUTO may refactorise instead), both dtypes. */
START_TEST(test_rank_after_remove_rows)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    static const qru_update_algorithm algs[] = {
        QRU_UPDATE_DISSERTATION, QRU_UPDATE_FAST, QRU_UPDATE_AUTO};
    int n = 40, m = 6, r = 2, k = 9, p = 4, zc = 2;
    for (int a = 0; a < 3; ++a) {
        unsigned seed = 700u + 13u * (unsigned)a + (unsigned)_i;
        void *Ah = qru_test_alloc(dt, n, m, n);
        qru_test_rand(dt, n, m, Ah, n, &seed);
        for (int i = 0; i < n; ++i)
            if (i < k || i >= k + p)
                qru_test_set(dt, Ah, n, i, zc, 0.0);
        qru_matrix *A = qru_test_upload(ctx, dt, n, m, 0, Ah, n);
        qru_matrix *b = rand_matrix(dt, n, r, 0, &seed, NULL);
        qru_lsq *f = NULL;
        ck_assert_int_eq(qru_lsq_create(ctx, A, b, NULL, &f), 0);
        ck_assert_int_eq(qru_lsq_set_update_algorithm(f, algs[a]), 0);
        ck_assert_int_eq(qru_lsq_remove_rows(f, k, p), 0);
        char tag[64];
        snprintf(tag, sizeof tag, "remove_rows, algorithm %d", (int)algs[a]);
        solve_reports(dt, f, zc + 1, &seed, tag);
        qru_lsq_destroy(f);
        qru_matrix_destroy(A);
        qru_matrix_destroy(b);
        free(Ah);
    }
}
END_TEST

START_TEST(test_bad_args)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    qru_dtype odt = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    int have_odt = qru_context_supports(ctx, odt);
    unsigned seed = 999;
    int n = 7, m = 3, r = 2;
    qru_matrix *A = rand_matrix(dt, n, m, 1, &seed, NULL);
    qru_matrix *b = rand_matrix(dt, n, r, 0, &seed, NULL);
    qru_matrix *Awide = rand_matrix(dt, 3, 5, 0, &seed, NULL);  /* n < m */
    qru_matrix *Anocol = rand_matrix(dt, n, 0, 0, &seed, NULL); /* m = 0 */
    qru_matrix *Aempty = rand_matrix(dt, 0, 0, 0, &seed, NULL);
    qru_matrix *bshort = rand_matrix(dt, n - 1, r, 0, &seed, NULL);
    qru_matrix *bnocol = rand_matrix(dt, n, 0, 0, &seed, NULL);
    qru_matrix *Aodt = NULL, *bodt = NULL, *xodt = NULL;
    if (have_odt) {
        qru_matrix *t;
        ck_assert_int_eq(qru_matrix_create(ctx, odt, n, r, 0, &t), 0);
        bodt = t;
        ck_assert_int_eq(qru_matrix_create(ctx, odt, m, r, 0, &t), 0);
        xodt = t;
        ck_assert_int_eq(qru_matrix_create(ctx, odt, n, m, 0, &t), 0);
        Aodt = t;
    }
    qru_context *octx = qru_test_context();
    qru_matrix *Ao = NULL, *bo = NULL, *xo = NULL, *Ro = NULL;
    ck_assert_int_eq(qru_matrix_create(octx, dt, n, m, 0, &Ao), 0);
    ck_assert_int_eq(qru_matrix_create(octx, dt, n, r, 0, &bo), 0);
    ck_assert_int_eq(qru_matrix_create(octx, dt, m, r, 0, &xo), 0);
    ck_assert_int_eq(qru_matrix_create(octx, dt, n, m, 0, &Ro), 0);

    qru_lsq_options good, bad[8];
    qru_lsq_options_init(&good);
    for (int k = 0; k < 8; ++k)
        qru_lsq_options_init(&bad[k]);
    bad[0].q = 3;
    bad[1].q = -1;
    bad[2].nb = -1;
    bad[3].row_capacity = n - 1;
    bad[4].col_capacity = m - 1;
    bad[5].row_capacity = -1;
    bad[6].col_capacity = -5;
    bad[7].q = 0x100;

    /* create: ctx (1), A (2), b (3), opt (4), f (5) */
    qru_lsq *sentinel = (qru_lsq *)&seed, *f = sentinel;
    ck_assert_int_eq(qru_lsq_create(NULL, A, b, &good, &f), -1);
    ck_assert_int_eq(qru_lsq_create(NULL, NULL, NULL, &bad[0], NULL), -1);
    ck_assert_int_eq(qru_lsq_create(ctx, NULL, b, &good, &f), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, Ao, b, &good, &f), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, Awide, b, &good, &f), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, Anocol, b, &good, &f), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, Aempty, b, &good, &f), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, NULL, NULL, &bad[0], NULL), -2);
    ck_assert_int_eq(qru_lsq_create(ctx, A, NULL, &good, &f), -3);
    ck_assert_int_eq(qru_lsq_create(ctx, A, bo, &good, &f), -3);
    ck_assert_int_eq(qru_lsq_create(ctx, A, bshort, &good, &f), -3);
    ck_assert_int_eq(qru_lsq_create(ctx, A, bnocol, &good, &f), -3);
    ck_assert_int_eq(qru_lsq_create(ctx, A, NULL, &bad[0], NULL), -3);
    if (bodt)
        ck_assert_int_eq(qru_lsq_create(ctx, A, bodt, &good, &f), -3);
    if (Aodt)
        ck_assert_int_eq(qru_lsq_create(ctx, Aodt, b, &good, &f), -3);
    for (int k = 0; k < 8; ++k) {
        ck_assert_msg(qru_lsq_create(ctx, A, b, &bad[k], &f) == -4,
                      "bad options %d not reported", k);
        ck_assert_int_eq(qru_lsq_create(ctx, A, b, &bad[k], NULL), -4);
    }
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, &good, NULL), -5);
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, NULL, NULL), -5);
    ck_assert_ptr_eq(f, sentinel); /* never written on failure */

    /* a good factorisation, with and without Q, for the other functions */
    qru_lsq *fq = NULL, *fn = NULL, *fo = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, &good, &fq), 0);
    qru_lsq_options noq = good;
    noq.q = QRU_Q_NONE;
    ck_assert_int_eq(qru_lsq_create(ctx, A, b, &noq, &fn), 0);
    ck_assert_int_eq(qru_lsq_create(octx, Ao, bo, &good, &fo), 0);

    void *xg, *Rg, *Qg, *dg;
    qru_matrix *x = rand_matrix(dt, m, r, 1, &seed, &xg);
    qru_matrix *R = rand_matrix(dt, n, m, 0, &seed, &Rg);
    qru_matrix *Q = rand_matrix(dt, n, n, 0, &seed, &Qg);
    qru_matrix *d = rand_matrix(dt, n, r, 0, &seed, &dg);
    qru_matrix *xr = rand_matrix(dt, m + 1, r, 0, &seed, NULL);
    qru_matrix *xc = rand_matrix(dt, m, r + 1, 0, &seed, NULL);
    qru_matrix *Rt = rand_matrix(dt, m, n, 0, &seed, NULL);
    qru_matrix *Qs = rand_matrix(dt, n - 1, n - 1, 0, &seed, NULL);
    qru_matrix *Qr = rand_matrix(dt, n, n - 1, 0, &seed, NULL);
    qru_matrix *dr = rand_matrix(dt, n, r + 1, 0, &seed, NULL);
    qru_matrix *Rodt = NULL, *Qodt = NULL;
    if (have_odt) {
        ck_assert_int_eq(qru_matrix_create(ctx, odt, n, m, 0, &Rodt), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, odt, n, n, 0, &Qodt), 0);
    }
#define UNTOUCHED()                                                            \
    do {                                                                       \
        assert_holds(x, xg, "x", "bad args");                                  \
        assert_holds(R, Rg, "R", "bad args");                                  \
        assert_holds(Q, Qg, "Q", "bad args");                                  \
        assert_holds(d, dg, "d", "bad args");                                  \
    } while (0)
    for (int w = 0; w < 2; ++w) {
        qru_lsq *g = w ? fn : fq;
        /* solve: f (1), x (2) */
        ck_assert_int_eq(qru_lsq_solve(NULL, x), -1);
        ck_assert_int_eq(qru_lsq_solve(NULL, NULL), -1);
        ck_assert_int_eq(qru_lsq_solve(g, NULL), -2);
        ck_assert_int_eq(qru_lsq_solve(g, xr), -2);
        ck_assert_int_eq(qru_lsq_solve(g, xc), -2);
        ck_assert_int_eq(qru_lsq_solve(g, xo), -2);
        if (xodt)
            ck_assert_int_eq(qru_lsq_solve(g, xodt), -2);
        UNTOUCHED();
        /* residual: f (1), res (2) */
        double res[3] = {-7, -7, -7};
        ck_assert_int_eq(qru_lsq_get_residual_norms(NULL, res), -1);
        ck_assert_int_eq(qru_lsq_get_residual_norms(g, NULL), -2);
        ck_assert(res[0] == -7 && res[1] == -7 && res[2] == -7);
        /* get_r / get_d / get_q: f (1), out (2) */
        ck_assert_int_eq(qru_lsq_get_r(NULL, R), -1);
        ck_assert_int_eq(qru_lsq_get_r(g, NULL), -2);
        ck_assert_int_eq(qru_lsq_get_r(g, Rt), -2);
        ck_assert_int_eq(qru_lsq_get_r(g, Ro), -2);
        ck_assert_int_eq(qru_lsq_get_r(g, Q), -2);
        if (Rodt)
            ck_assert_int_eq(qru_lsq_get_r(g, Rodt), -2);
        ck_assert_int_eq(qru_lsq_get_d(NULL, d), -1);
        ck_assert_int_eq(qru_lsq_get_d(g, NULL), -2);
        ck_assert_int_eq(qru_lsq_get_d(g, dr), -2);
        ck_assert_int_eq(qru_lsq_get_d(g, bo), -2);
        ck_assert_int_eq(qru_lsq_get_d(g, xr), -2);
        ck_assert_int_eq(qru_lsq_get_q(NULL, Q), -1);
        ck_assert_int_eq(qru_lsq_get_q(g, NULL), -2);
        ck_assert_int_eq(qru_lsq_get_q(g, Qs), -2);
        ck_assert_int_eq(qru_lsq_get_q(g, Qr), -2);
        if (Qodt)
            ck_assert_int_eq(qru_lsq_get_q(g, Qodt), -2);
        UNTOUCHED();
    }
    ck_assert_int_eq(qru_lsq_get_q(fn, Q), QRU_ERR_NO_Q);
    UNTOUCHED();
    ck_assert_int_eq(qru_lsq_get_q(fq, Q), 0);
#undef UNTOUCHED

    qru_lsq_destroy(fq);
    qru_lsq_destroy(fn);
    qru_lsq_destroy(fo);
    qru_matrix *all[] = {A, b, Awide, Anocol, Aempty, bshort, bnocol, Aodt,
                         bodt, xodt, x, R, Q, d, xr, xc, Rt, Qs, Qr, dr,
                         Rodt, Qodt, Ao, bo, xo, Ro};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
        qru_matrix_destroy(all[k]);
    qru_context_destroy(octx);
    free(xg);
    free(Rg);
    free(Qg);
    free(dg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq");
    TCase *tc = tcase_create("lsq");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_solve, 0, 4);
    tcase_add_test(tc, test_defaults);
    tcase_add_loop_test(tc, test_rank_deficient, 0, 2);
    tcase_add_loop_test(tc, test_rank_after_remove_rows, 0, 2);
    tcase_add_loop_test(tc, test_bad_args, 0, 2);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
