/* Orthogonal matching pursuit (qru_omp), both precisions: against a host
 * OMP written plainly (the greedy argmax of |X' r| in double, the
 * coefficients by LAPACKE_dgels on the chosen columns): the same support
 * in the same order, coefficients and path within the least-squares
 * error bound; recovery of a sparse x0; ncoef = 1 and min(n, m); the
 * stop by tol; wide and tall X; dependent and duplicate columns (the
 * early stop, s > 0); y = 0; the host waits a step costs; bad and
 * non-finite arguments (-i, the outputs untouched). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "../src/qru_internal.h"
#include "qru_test.h"
#include "solver_context.h"

/* The form of the pursuit a test runs (QRU_TUNE_OMP_GRAM: 1 the residual
 * form, 2 the Gram form), and its name for the messages. */
static int form = 1;

static const char *fname(void) { return form == 2 ? "gram" : "residual"; }

/* _i's element type, and the form: the loops of the tests run each
 * element type in each form (_i = 0..3: float and double residual, then
 * float and double Gram) */
static qru_dtype test_setup(int i)
{
    qru_dtype dt = qru_test_dtype(ctx, i % qru_test_ndtypes(ctx));
    form = (i / 2) % 2 + 1;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, form),
                     0);
    return dt;
}

/* ---- a problem: X (n x m), y, held in double with values exact in dt,
 * and their matrices in the context (X with ld n + 3) ---- */
typedef struct prob {
    qru_dtype dt;
    int n, m;
    double *X, *y;
    qru_matrix *Xd, *yd;
    double *x0; /* prob_make's sparse x0 (m), or NULL */
} prob;

/* rounds the n x c array A (ld n) to dt in place */
static void round_to(qru_dtype dt, int n, int c, double *A)
{
    if (dt == QRU_FLOAT)
        for (size_t i = 0; i < (size_t)n * c; ++i)
            A[i] = (double)(float)A[i];
}

static double *rand_array(int n, int c, unsigned *seed)
{
    double *A = malloc(sizeof(double) * (size_t)n * (size_t)(c > 0 ? c : 1));
    ck_assert_ptr_nonnull(A);
    for (size_t i = 0; i < (size_t)n * c; ++i)
        A[i] = qru_test_urand(seed);
    return A;
}

static qru_matrix *to_device(qru_dtype dt, int n, int c, int ld,
                             const double *A)
{
    void *h = qru_test_from_double(dt, n, c, n, A, n, 'A', 0.0, 0.0);
    qru_matrix *M = qru_test_upload(ctx, dt, n, c, ld, h, n);
    free(h);
    return M;
}

/* Uploads p->X and p->y (after rounding them to dt). */
static void prob_upload(prob *p)
{
    round_to(p->dt, p->n, p->m, p->X);
    round_to(p->dt, p->n, 1, p->y);
    p->Xd = to_device(p->dt, p->n, p->m, p->n + 3, p->X);
    p->yd = to_device(p->dt, p->n, 1, p->n, p->y);
}

/* X uniform(-1, 1), y = X x0 + noise with x0 nonzero at s random
 * columns (magnitudes in [1, 2], random signs; s = 0: y random). */
static prob prob_make(qru_dtype dt, int n, int m, int s, double noise,
                      unsigned seed)
{
    prob p = {dt, n, m, NULL, NULL, NULL, NULL, NULL};
    p.X = rand_array(n, m, &seed);
    p.y = rand_array(n, 1, &seed);
    if (s > 0) {
        double *x0 = p.x0 = calloc((size_t)m, sizeof(double));
        ck_assert_ptr_nonnull(x0);
        qru_test_sparse(m, s, &seed, x0);
        round_to(dt, p.n, p.m, p.X); /* y from the X the library sees */
        for (int i = 0; i < n; ++i)
            p.y[i] *= noise;
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, 1.0, p.X, n, x0, 1,
                    1.0, p.y, 1);
    }
    prob_upload(&p);
    return p;
}

static void prob_free(prob *p)
{
    qru_matrix_destroy(p->Xd);
    qru_matrix_destroy(p->yd);
    free(p->X);
    free(p->y);
    free(p->x0);
}

/* ---- the reference: OMP on the host in double, written plainly ----
 * The steps stop after ncoef columns or, with tol >= 0, once ||r||^2 <=
 * tol; sup gets the chosen columns, x their coefficients, res2[s] the
 * squared residual norm after step s + 1.  Returns the columns chosen. */
static int ref_omp(const prob *p, int ncoef, double tol, int *sup, double *x,
                   double *res2)
{
    int n = p->n, m = p->m, k = 0;
    double *r = malloc(sizeof(double) * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)m);
    double *A = malloc(sizeof(double) * (size_t)n * (size_t)ncoef);
    double *b = malloc(sizeof(double) * (size_t)n);
    ck_assert(r && c && A && b);
    memcpy(r, p->y, sizeof(double) * (size_t)n);
    while (k < ncoef) {
        cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, p->X, n, r, 1, 0.0,
                    c, 1);
        int j = 0;
        for (int i = 1; i < m; ++i)
            if (fabs(c[i]) > fabs(c[j]))
                j = i;
        sup[k] = j;
        memcpy(A + (size_t)k * n, p->X + (size_t)j * n,
               sizeof(double) * (size_t)n);
        ++k;
        double *Aw = malloc(sizeof(double) * (size_t)n * (size_t)k);
        ck_assert_ptr_nonnull(Aw);
        memcpy(Aw, A, sizeof(double) * (size_t)n * (size_t)k);
        memcpy(b, p->y, sizeof(double) * (size_t)n);
        ck_assert_int_eq(
            LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, k, 1, Aw, n, b, n), 0);
        free(Aw);
        memcpy(x, b, sizeof(double) * (size_t)k);
        /* r = y - A x */
        memcpy(r, p->y, sizeof(double) * (size_t)n);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, -1.0, A, n, x, 1, 1.0,
                    r, 1);
        double rr = cblas_ddot(n, r, 1, r, 1);
        if (res2)
            res2[k - 1] = rr;
        if (tol >= 0.0 && rr <= tol)
            break;
    }
    free(r);
    free(c);
    free(A);
    free(b);
    return k;
}

/* ---- qru_omp's outputs on the host ---- */
typedef struct out {
    int st, ncoef;
    double *coef; /* m */
    double *path; /* ncoef x ncoef, or NULL */
    int *sup;
    qru_solver_info info;
} out;

static double *download_double(const qru_matrix *M)
{
    qru_dtype dt = qru_matrix_dtype(M);
    int r = qru_matrix_rows(M), c = qru_matrix_cols(M);
    void *h = qru_test_download(M);
    double *d = malloc(sizeof(double) * (size_t)r * (size_t)c);
    ck_assert_ptr_nonnull(d);
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < r; ++i)
            d[i + (size_t)j * r] = qru_test_get(dt, h, r, i, j);
    free(h);
    return d;
}

static out run_omp(const prob *p, int ncoef, double tol, int with_path)
{
    out o = {0, ncoef, NULL, NULL, NULL, {-7, -7, -7.0, -7, -7}};
    qru_matrix *coef = NULL, *path = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, p->dt, p->m, 1, 0, &coef), 0);
    if (with_path)
        ck_assert_int_eq(
            qru_matrix_create(ctx, p->dt, ncoef, ncoef, ncoef + 2, &path), 0);
    o.sup = malloc(sizeof(int) * (size_t)ncoef);
    ck_assert_ptr_nonnull(o.sup);
    o.st = qru_omp(ctx, p->Xd, p->yd, ncoef, tol, coef, path, o.sup, &o.info);
    int tf = -1; /* a form asked for is the form reported */
    ck_assert_int_eq(qru_context_get_tuning(ctx, p->dt, QRU_TUNE_OMP_GRAM, &tf),
                     0);
    ck_assert(o.st < 0 || (tf == 0 ? o.info.form == 1 || o.info.form == 2
                                   : o.info.form == tf));
    o.coef = download_double(coef);
    if (path)
        o.path = download_double(path);
    qru_matrix_destroy(coef);
    qru_matrix_destroy(path);
    return o;
}

static void out_free(out *o)
{
    free(o->coef);
    free(o->path);
    free(o->sup);
}

/* X(:, sup(0:k)) as an n x k array of dt (ld n), and v (k doubles) as
 * dt, for qru_test_lsq_errors */
static void *cols_dt(const prob *p, const int *sup, int k)
{
    double *A = malloc(sizeof(double) * (size_t)p->n * (size_t)k);
    ck_assert_ptr_nonnull(A);
    for (int s = 0; s < k; ++s)
        memcpy(A + (size_t)s * p->n, p->X + (size_t)sup[s] * p->n,
               sizeof(double) * (size_t)p->n);
    void *h = qru_test_from_double(p->dt, p->n, k, p->n, A, p->n, 'A', 0.0,
                                   0.0);
    free(A);
    return h;
}

static void *vec_dt(qru_dtype dt, int k, const double *v)
{
    return qru_test_from_double(dt, k, 1, k, v, k, 'A', 0.0, 0.0);
}

/* The outputs of a call whose first k columns are sup: coef zero off
 * the support and the least-squares solution on it, rnorm its residual,
 * path(:, s) that of the first s + 1 columns, zeros elsewhere; status st,
 * support -1 after k. */
static void check_out(const prob *p, const out *o, const int *sup, int k,
                      int st, const char *tag)
{
    ck_assert_msg(o->st == st, "%s: status %d, expected %d (%s)", tag, o->st,
                  st, qru_last_error(ctx));
    ck_assert_msg(o->info.active == k && o->info.iterations == k,
                  "%s: %d active, %d iterations, expected %d", tag,
                  o->info.active, o->info.iterations, k);
    for (int s = 0; s < o->ncoef; ++s)
        ck_assert_msg(o->sup[s] == (s < k ? sup[s] : -1),
                      "%s: support[%d] = %d, the reference's %d", tag, s,
                      o->sup[s], s < k ? sup[s] : -1);
    char *on = calloc((size_t)p->m, 1);
    ck_assert_ptr_nonnull(on);
    for (int s = 0; s < k; ++s)
        on[sup[s]] = 1;
    for (int j = 0; j < p->m; ++j)
        ck_assert_msg(on[j] || o->coef[j] == 0.0,
                      "%s: coef[%d] = %g off the support", tag, j,
                      o->coef[j]);
    free(on);
    if (k == 0) {
        for (int j = 0; j < p->m; ++j)
            ck_assert_msg(o->coef[j] == 0.0, "%s: coef not zero", tag);
        ck_assert_msg(fabs(o->info.rnorm - cblas_dnrm2(p->n, p->y, 1)) <=
                          p->n * qru_test_eps(p->dt) *
                              cblas_dnrm2(p->n, p->y, 1),
                      "%s: rnorm %g, ||y|| %g", tag, o->info.rnorm,
                      cblas_dnrm2(p->n, p->y, 1));
    }
    void *yh = vec_dt(p->dt, p->n, p->y);
    double *xs = malloc(sizeof(double) * (size_t)(k > 0 ? k : 1));
    ck_assert_ptr_nonnull(xs);
    for (int s = 0; s < (o->path ? k : (k > 0 ? 1 : 0)); ++s) {
        /* the solution after step t = k (coef) or t = s + 1 (path) */
        int t = o->path ? s + 1 : k;
        for (int i = 0; i < t; ++i)
            xs[i] = o->path ? o->path[i + (size_t)s * o->ncoef]
                            : o->coef[sup[i]];
        void *A = cols_dt(p, sup, t), *xh = vec_dt(p->dt, t, xs);
        double xerr, rerr, rn = o->info.rnorm;
        qru_test_lsq_errors(p->dt, p->n, t, 1, A, p->n, yh, p->n, xh, t,
                            t == k ? &rn : NULL, &xerr, &rerr);
        ck_assert_msg(xerr <= QRU_TEST_THRESHOLD && rerr <= QRU_TEST_THRESHOLD,
                      "%s: %d columns: scaled errors x %.3g, rnorm %.3g",
                      tag, t, xerr, rerr);
        free(A);
        free(xh);
    }
    if (o->path)
        for (int s = 0; s < o->ncoef; ++s)
            for (int i = 0; i < o->ncoef; ++i)
                if (s >= k || i > s)
                    ck_assert_msg(o->path[i + (size_t)s * o->ncoef] == 0.0,
                                  "%s: path(%d, %d) = %g, not 0", tag, i, s,
                                  o->path[i + (size_t)s * o->ncoef]);
    free(xs);
    free(yh);
}

/* qru_omp against the reference on one problem (tol < 0: none) */
static void vs_ref(const prob *p, int ncoef, double tol, const char *what)
{
    int *sup = malloc(sizeof(int) * (size_t)ncoef);
    double *x = malloc(sizeof(double) * (size_t)ncoef);
    ck_assert(sup && x);
    int k = ref_omp(p, ncoef, tol, sup, x, NULL);
    char tag[160];
    snprintf(tag, sizeof tag, "%s %s %s n=%d m=%d ncoef=%d tol=%g",
             dname(p->dt), fname(), what, p->n, p->m, ncoef, tol);
    for (int with_path = 0; with_path < 2; ++with_path) {
        out o = run_omp(p, ncoef, tol, with_path);
        check_out(p, &o, sup, k, 0, tag);
        out_free(&o);
    }
    free(sup);
    free(x);
}

/* _i: dtype; tall and wide X, ncoef = 1, a few, min(n, m) */
START_TEST(test_vs_reference)
{
    qru_dtype dt = test_setup(_i);
    static const int shapes[][2] = {{80, 30}, {40, 120}, {50, 50}, {1, 7},
                                    {9, 1}};
    for (int c = 0; c < 5; ++c) {
        int n = shapes[c][0], m = shapes[c][1], nm = n < m ? n : m;
        prob p = prob_make(dt, n, m, 0, 0.0, 100u + 7u * (unsigned)c);
        vs_ref(&p, 1, -1.0, "ncoef=1");
        if (nm > 4)
            vs_ref(&p, nm / 3, -1.0, "a third");
        vs_ref(&p, nm, -1.0, "ncoef=min(n,m)");
        prob_free(&p);
    }
}
END_TEST

/* _i: dtype; the stop by tol: between two steps' residuals, above ||y||^2
 * (one step), below every residual (ncoef steps), tol = 0 */
START_TEST(test_tol)
{
    qru_dtype dt = test_setup(_i);
    int n = 60, m = 150, nm = 60;
    prob p = prob_make(dt, n, m, 6, 0.05, 300u + (unsigned)_i);
    int *sup = malloc(sizeof(int) * (size_t)nm);
    double *x = malloc(sizeof(double) * (size_t)nm);
    double *res2 = malloc(sizeof(double) * (size_t)nm);
    ck_assert(sup && x && res2);
    int k = ref_omp(&p, 12, -1.0, sup, x, res2);
    ck_assert_int_eq(k, 12);
    for (int t = 1; t < 12; t += 3) {
        /* between the residuals of steps t and t + 1: t + 1 steps */
        double tol = sqrt(res2[t - 1] * res2[t]);
        vs_ref(&p, nm, tol, "tol between steps");
        out o = run_omp(&p, nm, tol, 0);
        ck_assert_msg(o.st == 0 && o.info.active == t + 1,
                      "tol %g: status %d, %d active, expected %d", tol, o.st,
                      o.info.active, t + 1);
        ck_assert(o.info.rnorm * o.info.rnorm <= tol);
        out_free(&o);
    }
    double yy = cblas_ddot(n, p.y, 1, p.y, 1);
    vs_ref(&p, nm, 2.0 * yy, "tol above ||y||^2");
    vs_ref(&p, 5, 1e-300, "tol below the residuals, ncoef=5");
    vs_ref(&p, 5, 0.0, "tol=0, ncoef=5");
    free(sup);
    free(x);
    free(res2);
    prob_free(&p);
}
END_TEST

/* _i: dtype; a sparse x0 with well-separated nonzeros is recovered; more
 * steps than its support stop early (y in the span of the chosen
 * columns); with tol = 0 that counts as met */
START_TEST(test_recovery)
{
    qru_dtype dt = test_setup(_i);
    int n = 100, m = 256, s = 8;
    for (int rep = 0; rep < 3; ++rep) {
        unsigned seed = 500u + 13u * (unsigned)rep + (unsigned)_i;
        prob p = prob_make(dt, n, m, s, 0.0, seed);
        int sup[12];
        double x[12];
        ck_assert_int_eq(ref_omp(&p, s, -1.0, sup, x, NULL), s);
        char tag[96];
        snprintf(tag, sizeof tag, "%s %s recovery rep %d", dname(dt),
                 fname(), rep);
        out o = run_omp(&p, s, -1.0, 1);
        check_out(&p, &o, sup, s, 0, tag);
        /* x0 itself: its support, its values to the accuracy of y */
        double err = 0.0;
        for (int j = 0; j < m; ++j) {
            ck_assert_msg((o.coef[j] != 0.0) == (p.x0[j] != 0.0),
                          "%s: coef[%d] = %g, x0[%d] = %g", tag, j,
                          o.coef[j], j, p.x0[j]);
            err = fmax(err, fabs(o.coef[j] - p.x0[j]));
        }
        ck_assert_msg(err <= 1e3 * qru_test_eps(dt), "%s: |coef - x0| = %g",
                      tag, err);
        out_free(&o);
        /* s + 4 steps asked: step s + 1 finds y in the span */
        o = run_omp(&p, s + 4, -1.0, 1);
        check_out(&p, &o, sup, s, s + 1, tag);
        ck_assert_msg(strstr(qru_last_error(ctx), "span") != NULL,
                      "%s: the reason: %s", tag, qru_last_error(ctx));
        out_free(&o);
        o = run_omp(&p, s + 4, 0.0, 0);
        check_out(&p, &o, sup, s, 0, tag);
        out_free(&o);
        prob_free(&p);
    }
}
END_TEST

/* _i: dtype; X of rank 3 (X = B C): after three steps every column
 * depends on the chosen ones, step 4 stops (s = 4); a duplicate column
 * (the lowest index of a tie is chosen) and y on one column: step 2 */
START_TEST(test_dependent)
{
    qru_dtype dt = test_setup(_i);
    int n = 30, m = 12;
    unsigned seed = 700u + (unsigned)_i;
    prob p = {dt, n, m, NULL, NULL, NULL, NULL, NULL};
    double *B = rand_array(n, 3, &seed), *C = rand_array(3, m, &seed);
    p.X = rand_array(n, m, &seed);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, 3, 1.0, B, n,
                C, 3, 0.0, p.X, n);
    p.y = rand_array(n, 1, &seed);
    prob_upload(&p);
    int sup[5];
    double x[5];
    int k = ref_omp(&p, 3, -1.0, sup, x, NULL);
    ck_assert_int_eq(k, 3);
    char tag[96];
    snprintf(tag, sizeof tag, "%s %s rank 3", dname(dt), fname());
    for (int with_path = 0; with_path < 2; ++with_path) {
        out o = run_omp(&p, 5, -1.0, with_path);
        check_out(&p, &o, sup, 3, 4, tag);
        out_free(&o);
    }
    /* with tol < ||r||^2 the same early stop */
    out o = run_omp(&p, 5, 1e-300, 0);
    check_out(&p, &o, sup, 3, 4, tag);
    out_free(&o);
    prob_free(&p);
    free(B);
    free(C);

    /* X(:, 7) = X(:, 2), y = 2 X(:, 2) */
    seed = 800u + (unsigned)_i;
    p = (prob){dt, n, m, rand_array(n, m, &seed), NULL, NULL, NULL, NULL};
    memcpy(p.X + 7 * n, p.X + 2 * n, sizeof(double) * (size_t)n);
    p.y = malloc(sizeof(double) * (size_t)n);
    ck_assert_ptr_nonnull(p.y);
    round_to(dt, n, m, p.X);
    for (int i = 0; i < n; ++i)
        p.y[i] = 2.0 * p.X[i + 2 * n];
    prob_upload(&p);
    snprintf(tag, sizeof tag, "%s %s duplicate column", dname(dt), fname());
    int two = 2;
    o = run_omp(&p, 3, -1.0, 1);
    check_out(&p, &o, &two, 1, 2, tag);
    ck_assert_msg(fabs(o.coef[2] - 2.0) <= 8.0 * n * qru_test_eps(dt),
                  "%s: coef[2] = %.17g", tag, o.coef[2]);
    out_free(&o);
    prob_free(&p);
}
END_TEST

/* _i: dtype; y scaled far from 1 (its squared norm over- or underflows
 * the element type): the same steps, the coefficients scaled */
START_TEST(test_scale)
{
    qru_dtype dt = test_setup(_i);
    double big = dt == QRU_DOUBLE ? 1e160 : 1e25;
    const double scales[2] = {big, 1.0 / big};
    for (int c = 0; c < 2; ++c) {
        prob p = prob_make(dt, 40, 90, 0, 0.0, 950u);
        for (int i = 0; i < p.n; ++i)
            p.y[i] *= scales[c];
        qru_matrix_destroy(p.yd);
        p.yd = to_device(dt, p.n, 1, p.n, p.y);
        char what[64];
        snprintf(what, sizeof what, "y scaled by %g", scales[c]);
        vs_ref(&p, 10, -1.0, what);
        vs_ref(&p, 40, -1.0, what);
        prob_free(&p);
    }
}
END_TEST

/* _i: dtype; y = 0: no step (s = 1), coef and path zero */
START_TEST(test_zero_y)
{
    qru_dtype dt = test_setup(_i);
    unsigned seed = 900u;
    prob p = {dt, 20, 30, rand_array(20, 30, &seed), NULL, NULL, NULL, NULL};
    p.y = calloc(20, sizeof(double));
    ck_assert_ptr_nonnull(p.y);
    prob_upload(&p);
    for (int with_path = 0; with_path < 2; ++with_path) {
        out o = run_omp(&p, 4, -1.0, with_path);
        check_out(&p, &o, NULL, 0, 1, "y = 0");
        ck_assert(o.info.rnorm == 0.0);
        out_free(&o);
        o = run_omp(&p, 4, 0.0, with_path);
        check_out(&p, &o, NULL, 0, 1, "y = 0, tol = 0");
        out_free(&o);
    }
    prob_free(&p);
}
END_TEST

/* _i: dtype and form; the host waits: the residual form's documented
 * two a step, 2 k + 4 for k steps, plus those of the first column's thin factorisation
 * (qru_lsq_create of an n x 1 problem, measured here in the same context:
 * none on the CPU and OpenCL, one where a vendor QR reads its status).
 * A first call of 30 steps grows the context's workspace, whose growth
 * synchronises, to what the others need.  The Gram form: its steps run
 * on the device and the host reads their state at chunks doubling up to
 * 32 steps, so that k steps cost at most ceil(log2(k + 1)) + k / 32
 * reads, and ||y||, x(S) and the last synchronisation 3 more (at least
 * one read; it takes no workspace of the context, so the factorisation
 * after it may grow the workspace: a second wait on CUDA, not counted). */
START_TEST(test_host_waits)
{
    qru_dtype dt = test_setup(_i);
    prob p = prob_make(dt, 100, 300, 0, 0.0, 1000u);
    qru_matrix *coef = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 300, 1, 0, &coef), 0);
    long long w[3];
    for (int t = 0; t < 3; ++t) {
        int ncoef = t == 1 ? 10 : 30;
        qru_context_stats s0, s1;
        qru_solver_info info;
        ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
        ck_assert_int_eq(
            qru_omp(ctx, p.Xd, p.yd, ncoef, -1.0, coef, NULL, NULL, &info),
            0);
        ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
        ck_assert_int_eq(info.active, ncoef);
        w[t] = s1.host_waits - s0.host_waits;
    }
    /* the first column's factorisation alone */
    qru_matrix *col = to_device(dt, 100, 1, 100, p.X);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    opt.col_capacity = 30;
    qru_lsq *f = NULL;
    qru_context_stats s0, s1;
    ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
    ck_assert_int_eq(qru_lsq_create(ctx, col, p.yd, &opt, &f), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
    long long c0 = s1.host_waits - s0.host_waits;
    qru_lsq_destroy(f);
    qru_matrix_destroy(col);
    qru_matrix_destroy(coef);
    if (form == 1) { /* c0 after the residual form grew the workspace */
        ck_assert_int_le(c0, 1);
        ck_assert_msg(w[1] == 2 * 10 + 4 + c0 && w[2] == 2 * 30 + 4 + c0,
                      "%s: 10 and 30 steps cost %lld and %lld host waits, "
                      "not 2 each, 4 and the first column's %lld",
                      dname(dt), w[1], w[2], c0);
    } else { /* ||y||, the reads of the state, x(S), the last sync */
        for (int t = 0; t < 3; ++t) {
            int k = t == 1 ? 10 : 30;
            long long most = 3 + (long long)ceil(log2(k + 1.0)) + k / 32;
            ck_assert_msg(w[t] >= 4 && w[t] <= most,
                          "%s gram: %d steps cost %lld host waits, not "
                          "4 .. %lld",
                          dname(dt), k, w[t], most);
        }
        ck_assert_msg(w[0] == w[2], "%s gram: 30 steps cost %lld, then %lld "
                      "host waits", dname(dt), w[0], w[2]);
    }
    prob_free(&p);
}
END_TEST

/* _i: dtype; the two forms against each other: the same columns in the
 * same order (the reference's), the coefficients within the rounding
 * of the Gram form's normal equations, the same status; with tol; and
 * exact ties at a later step (X(:, 9) = X(:, 4), X(:, 11) = -X(:, 4)
 * and y mostly on X(:, 1) and X(:, 4)): both take the lowest index */
START_TEST(test_forms_agree)
{
    qru_dtype dt = test_setup(_i);
    static const int shapes[][3] = {{80, 30, 20}, {40, 120, 30},
                                    {200, 60, 50}, {30, 12, 12}};
    for (int c = 0; c < 5; ++c) {
        prob p;
        int ncoef;
        double tol = -1.0;
        if (c < 4) {
            p = prob_make(dt, shapes[c][0], shapes[c][1], c == 3 ? 0 : 5,
                          0.01, 1300u + 11u * (unsigned)c);
            ncoef = shapes[c][2];
            if (c == 2) /* between the residuals of steps 8 and 9 */
                tol = 0.5 * 0.01 * 0.01 * p.n;
        } else {
            unsigned seed = 1400u + (unsigned)_i;
            int n = 50, m = 16;
            p = (prob){dt, n, m, rand_array(n, m, &seed), NULL, NULL, NULL,
                       NULL};
            memcpy(p.X + 9 * n, p.X + 4 * n, sizeof(double) * (size_t)n);
            for (int i = 0; i < n; ++i)
                p.X[i + 11 * n] = -p.X[i + 4 * n];
            p.y = malloc(sizeof(double) * (size_t)n);
            ck_assert_ptr_nonnull(p.y);
            round_to(dt, n, m, p.X);
            for (int i = 0; i < n; ++i)
                p.y[i] = 4.0 * p.X[i + n] + 1.5 * p.X[i + 4 * n] +
                         0.25 * p.X[i + 7 * n];
            prob_upload(&p);
            ncoef = 5;
        }
        int *sup = malloc(sizeof(int) * (size_t)ncoef);
        double *x = malloc(sizeof(double) * (size_t)ncoef);
        ck_assert(sup && x);
        int k = ref_omp(&p, ncoef, tol, sup, x, NULL);
        if (c == 4) /* the tie at step 2 went to the lowest index */
            ck_assert(k >= 2 && sup[0] == 1 && sup[1] == 4);
        out o[2];
        for (int f = 0; f < 2; ++f) {
            ck_assert_int_eq(
                qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, f + 1), 0);
            o[f] = run_omp(&p, ncoef, tol, 1);
        }
        char tag[96];
        snprintf(tag, sizeof tag, "%s forms, problem %d", dname(dt), c);
        for (int f = 0; f < 2; ++f)
            if (c < 4)
                check_out(&p, &o[f], sup, k, 0, tag);
        ck_assert_msg(o[0].st == o[1].st &&
                          o[0].info.active == o[1].info.active,
                      "%s: status %d / %d, %d / %d columns", tag, o[0].st,
                      o[1].st, o[0].info.active, o[1].info.active);
        double big = 0.0, diff = 0.0;
        for (int j = 0; j < p.m; ++j) {
            big = fmax(big, fabs(o[0].coef[j]));
            diff = fmax(diff, fabs(o[0].coef[j] - o[1].coef[j]));
        }
        for (int s = 0; s < o[0].info.active; ++s)
            ck_assert_msg(o[0].sup[s] == o[1].sup[s] && o[0].sup[s] == sup[s],
                          "%s: column %d: %d (residual), %d (gram), %d "
                          "(reference)", tag, s, o[0].sup[s], o[1].sup[s],
                          sup[s]);
        ck_assert_msg(diff <= 1e3 * qru_test_eps(dt) * big,
                      "%s: |coef difference| %g, max |coef| %g", tag, diff,
                      big);
        ck_assert_msg(fabs(o[0].info.rnorm - o[1].info.rnorm) <=
                          1e3 * qru_test_eps(dt) * cblas_dnrm2(p.n, p.y, 1),
                      "%s: rnorm %g / %g", tag, o[0].info.rnorm,
                      o[1].info.rnorm);
        out_free(&o[0]);
        out_free(&o[1]);
        free(sup);
        free(x);
        prob_free(&p);
    }
}
END_TEST

/* Calls of syrk while qru_omp runs on p: > 0 where the Gram form ran
 * (G, then one of order 1 a column appended), 0 in the residual form. */
static long long omp_syrks(const prob *p, int ncoef)
{
    long long s0 = qru_ctx_op_calls(ctx, QRU_OP_syrk);
    out o = run_omp(p, ncoef, -1.0, 0);
    ck_assert_int_eq(o.st, 0);
    out_free(&o);
    return qru_ctx_op_calls(ctx, QRU_OP_syrk) - s0;
}

/* _i: dtype; the choice (QRU_TUNE_OMP_GRAM auto): the form whose plan is
 * priced faster (qru_omp_price), within the memory of omp_gram_mib (0:
 * never the Gram form).  Under the backend's cost model, and under one
 * of flops and bytes alone, where few columns against many rows
 * (n = 200, m = 60, 50 columns: the steps' X' r outweigh G) choose the
 * Gram form and a few columns of a wide X (60 x 400, 5 columns) the
 * residual form. */
START_TEST(test_choice)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, 0), 0);
    prob tall = prob_make(dt, 200, 60, 0, 0.0, 1500u);
    prob wide = prob_make(dt, 60, 400, 0, 0.0, 1501u);
    const prob *ps[2] = {&tall, &wide};
    const int nc[2] = {50, 5};
    for (int model = 0; model < 2; ++model) {
        if (model == 1) { /* flops and bytes alone */
            qru_cost_model *c = &qru_ctx_tuning(ctx, dt)->cost;
            c->per_call = c->per_wait = c->blas3_call = 0.0;
            c->col_step = c->sweep_step = 0.0;
            c->rate_gemm = c->rate_upd = 1e10;
            c->bandwidth = 1e10;
        }
        for (int q = 0; q < 2; ++q) {
            double tr = -1.0, tg = -1.0;
            ck_assert_int_eq(qru_omp_price(ctx, ps[q]->Xd, ps[q]->yd, nc[q],
                                           &tr, &tg),
                             0);
            ck_assert(tr > 0.0 && tg > 0.0);
            long long s = omp_syrks(ps[q], nc[q]);
            ck_assert_msg((s > 0) == (tg < tr),
                          "%s model %d problem %d: %lld syrk calls, priced "
                          "residual %g s, gram %g s", dname(dt), model, q, s,
                          tr, tg);
            if (model == 1)
                ck_assert_msg((tg < tr) == (q == 0),
                              "%s flops: problem %d priced residual %g s, "
                              "gram %g s", dname(dt), q, tr, tg);
        }
    }
    /* no memory for the Gram form: the residual form */
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM_MIB, 0), 0);
    ck_assert_int_eq(omp_syrks(&tall, 50), 0);
    /* forced: 1 residual, 2 Gram whatever the memory knob says */
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, 2), 0);
    ck_assert_int_gt(omp_syrks(&wide, 5), 0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, 1), 0);
    ck_assert_int_eq(omp_syrks(&tall, 50), 0);
    prob_free(&tall);
    prob_free(&wide);
}
END_TEST

/* ---- omp_gram_step itself, on a state built on the host ---- */

/* The state of omp_gram_step for n x m X and ncoef: the host copy H (in
 * double, the layout qru_omp_ws_of) and its device array. */
typedef struct gstate {
    qru_dtype dt;
    int n, m, ncoef;
    qru_omp_ws w;
    double *H;
    qru_matrix *W;
} gstate;

/* G (m x m, its upper triangle; NaN below, which the op must not read)
 * and c0 given in double; the rest zero */
static gstate gs_make(qru_dtype dt, int n, int m, int ncoef, const double *G,
                      const double *c0)
{
    gstate g = {dt, n, m, ncoef, qru_omp_ws_of(n, m, ncoef), NULL, NULL};
    g.H = calloc(g.w.elems, sizeof(double));
    ck_assert_ptr_nonnull(g.H);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
            g.H[g.w.G + i + (size_t)j * m] =
                i <= j ? G[i + (size_t)j * m] : NAN;
    memcpy(g.H + g.w.c0, c0, sizeof(double) * (size_t)m);
    round_to(dt, (int)g.w.elems, 1, g.H);
    g.W = to_device(dt, (int)g.w.elems, 1, (int)g.w.elems, g.H);
    return g;
}

/* the op's step k (k < 0: the start), then g.H := the device state */
static void gs_step(gstate *g, int k, double inv, double rr0, double thr,
                    const qru_matrix *X, const qru_matrix *y)
{
    ck_assert_int_eq(ctx->ops->omp_gram_step(ctx, g->dt, g->n, g->m,
                                             g->ncoef, k, inv, rr0, thr,
                                             X->p, X->ld, y->p, g->W->p),
                     0);
    free(g->H);
    g->H = download_double(g->W);
}

static double gs_st(const gstate *g, int i) { return g->H[g->w.st + i]; }

static void gs_free(gstate *g)
{
    free(g->H);
    qru_matrix_destroy(g->W);
}

/* _i: dtype.  (1) A pursuit step by step against the host reference:
 * the same columns (ties between equal and opposite columns in other
 * work-groups go to the lowest index), X' r, r and rr of the least-squares
 * fit on them after every step, then DONE; a step after the stop changes
 * nothing.  (2) The pick's rules on crafted G and c0 (m = 100, several
 * work-groups): the tie at the lowest index, the first NaN before an
 * earlier infinity, zero correlations, the pivot refused (two columns
 * equal in G), the argmax at a chosen column (or zero where rounding
 * left nothing), the residual test thr and y in the span. */
START_TEST(test_gram_op)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    double eps = qru_test_eps(dt);
    double ulp = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    int n = 70, m = 100, nc = 12;
    unsigned seed = 1600u + (unsigned)_i;
    prob p = {dt, n, m, rand_array(n, m, &seed), NULL, NULL, NULL, NULL};
    for (int i = 0; i < n; ++i) {
        p.X[i + 40 * n] = p.X[i + 9 * n];
        p.X[i + 77 * n] = -p.X[i + 9 * n];
    }
    round_to(dt, n, m, p.X);
    p.y = rand_array(n, 1, &seed);
    for (int i = 0; i < n; ++i)
        p.y[i] = 0.05 * p.y[i] + 3.0 * p.X[i + 5 * n] + 2.5 * p.X[i + 77 * n] +
                 p.X[i + 60 * n];
    prob_upload(&p);
    double *G = malloc(sizeof(double) * (size_t)m * m);
    double *c0 = malloc(sizeof(double) * (size_t)m);
    double *r = malloc(sizeof(double) * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)m);
    int sup[12];
    double x[12];
    ck_assert(G && c0 && r && c);
    /* X' X and X' y by plain sums, so that equal (opposite) columns get
     * equal (opposite) entries bit for bit */
    for (int j = 0; j < m; ++j) {
        const double *xj = p.X + (size_t)j * n;
        for (int i = 0; i < m; ++i) {
            double v = 0.0;
            for (int t = 0; t < n; ++t)
                v += p.X[t + (size_t)i * n] * xj[t];
            G[i + (size_t)j * m] = v;
        }
        double v = 0.0;
        for (int t = 0; t < n; ++t)
            v += xj[t] * p.y[t];
        c0[j] = v;
    }
    double ny = cblas_dnrm2(n, p.y, 1), inv = 1.0 / ny, xmax = 0.0;
    for (int j = 0; j < m; ++j)
        xmax = fmax(xmax, cblas_dnrm2(n, p.X + (size_t)j * n, 1));
    ck_assert_int_eq(ref_omp(&p, nc, -1.0, sup, x, NULL), nc);
    ck_assert(sup[1] == 9); /* the tie of 9, 40 and 77 */
    gstate g = gs_make(dt, n, m, nc, G, c0);
    gs_step(&g, -1, inv, 1.0, -1.0, p.Xd, p.yd);
    for (int k = 0; k <= nc; ++k) {
        char tag[96];
        snprintf(tag, sizeof tag, "%s omp_gram_step, %d chosen", dname(dt), k);
        int want = k == nc ? QRU_OMP_DONE : QRU_OMP_RUN;
        ck_assert_msg(gs_st(&g, QRU_OMP_ST_STATUS) == want &&
                          gs_st(&g, QRU_OMP_ST_K) == k,
                      "%s: status %g, k %g", tag,
                      gs_st(&g, QRU_OMP_ST_STATUS), gs_st(&g, QRU_OMP_ST_K));
        if (k < nc)
            ck_assert_msg(gs_st(&g, QRU_OMP_ST_J) == sup[k] &&
                              g.H[g.w.S + k] == sup[k],
                          "%s: next column %g, the reference's %d", tag,
                          gs_st(&g, QRU_OMP_ST_J), sup[k]);
        /* the least-squares fit on the k chosen: r, X' r */
        memcpy(r, p.y, sizeof(double) * (size_t)n);
        if (k > 0) {
            int *s2 = malloc(sizeof(int) * (size_t)k);
            ck_assert_ptr_nonnull(s2);
            memcpy(s2, sup, sizeof(int) * (size_t)k);
            double *A = malloc(sizeof(double) * (size_t)n * k);
            double *b = malloc(sizeof(double) * (size_t)n);
            ck_assert(A && b);
            for (int t = 0; t < k; ++t)
                memcpy(A + (size_t)t * n, p.X + (size_t)s2[t] * n,
                       sizeof(double) * (size_t)n);
            memcpy(b, p.y, sizeof(double) * (size_t)n);
            double *A2 = malloc(sizeof(double) * (size_t)n * k);
            ck_assert_ptr_nonnull(A2);
            memcpy(A2, A, sizeof(double) * (size_t)n * k);
            ck_assert_int_eq(
                LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, k, 1, A2, n, b, n),
                0);
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, k, -1.0, A, n, b, 1,
                        1.0, r, 1);
            free(A);
            free(A2);
            free(b);
            free(s2);
        }
        cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, p.X, n, r, 1, 0.0,
                    c, 1);
        double ec = 0.0, er = 0.0, rr = cblas_ddot(n, r, 1, r, 1) * inv * inv;
        for (int i = 0; i < m; ++i)
            ec = fmax(ec, fabs(g.H[g.w.c + i] - c[i]));
        for (int i = 0; i < n; ++i)
            er = fmax(er, fabs(g.H[g.w.r + i] - r[i] * inv));
        double lim = 100.0 * (k + 1) * eps;
        ck_assert_msg(ec <= lim * xmax * ny && er <= lim &&
                          fabs(gs_st(&g, QRU_OMP_ST_RR) - rr) <= lim,
                      "%s: |c - X' r| %g, |r - ref| / ||y|| %g, rr %g / %g",
                      tag, ec / (xmax * ny), er, gs_st(&g, QRU_OMP_ST_RR),
                      rr);
        if (k < nc)
            gs_step(&g, k, inv, 1.0, -1.0, p.Xd, p.yd);
    }
    /* a step after the stop: nothing changes */
    double *H0 = g.H;
    g.H = NULL;
    gs_step(&g, nc - 1, inv, 1.0, -1.0, p.Xd, p.yd);
    ck_assert(memcmp(H0, g.H, sizeof(double) * g.w.elems) == 0);
    free(H0);
    gs_free(&g);

    /* (2) crafted G = 2 I (a column per unit of X, n = 4) and c0 */
    int n2 = 4, m2 = 100;
    prob q = {dt, n2, m2, calloc((size_t)n2 * m2, sizeof(double)),
              calloc((size_t)n2, sizeof(double)), NULL, NULL, NULL};
    ck_assert(q.X && q.y);
    for (int j = 0; j < m2; ++j)
        q.X[j % n2 + (size_t)j * n2] = 1.0;
    for (int i = 0; i < n2; ++i)
        q.y[i] = 1.0;
    prob_upload(&q);
    double *G2 = calloc((size_t)m2 * m2, sizeof(double));
    double *d0 = malloc(sizeof(double) * (size_t)m2);
    ck_assert(G2 && d0);
    int chosen = 0;
    for (int t = 0; t < 14; ++t) {
        memset(G2, 0, sizeof(double) * (size_t)m2 * m2);
        for (int j = 0; j < m2; ++j) {
            d0[j] = 0.1;
            G2[j + (size_t)j * m2] = 2.0;
        }
        int st = QRU_OMP_RUN, j = 35, k = 0, steps = 0;
        double thr = -1.0, cj = 0.0;
        if (t == 0) { /* the tie: 35 before 70 and 90 */
            d0[70] = 5.0;
            d0[35] = d0[90] = cj = -5.0;
        } else if (t == 1) { /* the first NaN, after an infinity */
            d0[3] = INFINITY;
            d0[80] = d0[50] = NAN;
            st = QRU_OMP_NONFINITE;
            j = 50;
        } else if (t == 2) {
            for (int i = 0; i < m2; ++i)
                d0[i] = 0.0;
            st = QRU_OMP_ZERO;
            j = 0;
        } else if (t == 3) { /* columns 35 and 62 equal in G */
            d0[35] = 5.0;
            d0[62] = 4.0;
            G2[35 + 62 * (size_t)m2] = G2[62 + 62 * (size_t)m2] = 2.0;
            st = QRU_OMP_REFUSED;
            j = 62;
            k = 1;
            steps = 1;
        } else if (t == 4) { /* the residual test after one step */
            d0[35] = 5.0;
            thr = 1e30;
            st = QRU_OMP_TOL;
            j = 0;
            k = 1;
            steps = 1;
        } else { /* c(35) - b(35) z(0): rounding, or 0 */
            for (int i = 0; i < m2; ++i)
                d0[i] = 0.0;
            d0[35] = 1.0;
            G2[35 + 35 * (size_t)m2] = (double)(t - 2);
            st = -1;
            k = 1;
            steps = 1;
        }
        gstate h = gs_make(dt, n2, m2, 3, G2, d0);
        gs_step(&h, -1, 0.5, 1.0, thr, q.Xd, q.yd);
        for (int s = 0; s < steps; ++s)
            gs_step(&h, s, 0.5, 1.0, thr, q.Xd, q.yd);
        if (st < 0) { /* CHOSEN where c(35) is not 0, else ZERO */
            int left = h.H[h.w.c + 35] != 0.0;
            st = left ? QRU_OMP_CHOSEN : QRU_OMP_ZERO;
            j = left ? 35 : 0;
            chosen += left;
        }
        ck_assert_msg(gs_st(&h, QRU_OMP_ST_STATUS) == st &&
                          gs_st(&h, QRU_OMP_ST_J) == j &&
                          gs_st(&h, QRU_OMP_ST_K) == k,
                      "%s pick %d: status %g, j %g, k %g; expected %d, %d, %d",
                      dname(dt), t, gs_st(&h, QRU_OMP_ST_STATUS),
                      gs_st(&h, QRU_OMP_ST_J), gs_st(&h, QRU_OMP_ST_K), st, j,
                      k);
        if (t == 0)
            ck_assert(gs_st(&h, QRU_OMP_ST_CJ) == cj);
        if (t == 3)
            ck_assert_msg(fabs(gs_st(&h, QRU_OMP_ST_PIV)) <= 8.0 * ulp &&
                              fabs(gs_st(&h, QRU_OMP_ST_LIM) - 8.0 * ulp) <=
                                  1e-3 * ulp,
                          "%s: pivot %g, limit %g", dname(dt),
                          gs_st(&h, QRU_OMP_ST_PIV),
                          gs_st(&h, QRU_OMP_ST_LIM));
        gs_free(&h);
    }
    ck_assert_msg(chosen > 0, "%s: no rounding left at a chosen column",
                  dname(dt));
    /* y = 2 X(:, 7): after one step y lies in the span */
    for (int i = 0; i < n; ++i)
        p.y[i] = 2.0 * p.X[i + 7 * n];
    qru_matrix_destroy(p.yd);
    p.yd = to_device(dt, n, 1, n, p.y);
    cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, p.X, n, p.y, 1, 0.0,
                c0, 1);
    g = gs_make(dt, n, m, nc, G, c0);
    inv = 1.0 / cblas_dnrm2(n, p.y, 1);
    gs_step(&g, -1, inv, 1.0, -1.0, p.Xd, p.yd);
    gs_step(&g, 0, inv, 1.0, -1.0, p.Xd, p.yd);
    ck_assert_msg(gs_st(&g, QRU_OMP_ST_STATUS) == QRU_OMP_SPAN &&
                      gs_st(&g, QRU_OMP_ST_K) == 1 && g.H[g.w.S] == 7,
                  "%s span: status %g, k %g", dname(dt),
                  gs_st(&g, QRU_OMP_ST_STATUS), gs_st(&g, QRU_OMP_ST_K));
    gs_free(&g);
    free(G);
    free(G2);
    free(c0);
    free(d0);
    free(r);
    free(c);
    prob_free(&p);
    prob_free(&q);
}
END_TEST

/* _i: dtype; every argument's checks in order, the outputs untouched */
START_TEST(test_bad_args)
{
    qru_dtype dt = test_setup(_i);
    qru_dtype other = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    int n = 12, m = 20;
    prob p = prob_make(dt, n, m, 0, 0.0, 1100u);
    qru_matrix *coef = to_device(dt, m, 1, m, p.X), *path = NULL;
    qru_matrix *coef_short = to_device(dt, m - 1, 1, m, p.X);
    qru_matrix *coef2 = to_device(dt, m, 2, m, p.X);
    qru_matrix *yrows = to_device(dt, n + 1, 1, n + 1, p.X);
    qru_matrix *y2 = to_device(dt, n, 2, n, p.X);
    qru_matrix *Xempty = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 0, 0, &Xempty), 0);
    path = to_device(dt, 4, 4, 4, p.X);
    qru_matrix *path5 = to_device(dt, 5, 4, 5, p.X);
    /* coef inside X's memory, path inside y's */
    qru_matrix *coef_in_X = qru_test_alias(ctx, p.Xd, 0, m, 1, m, 0);
    qru_matrix *path_in_coef = qru_test_alias(ctx, coef, 0, 4, 4, 4, 0);
    qru_matrix *other_y = NULL;
    if (qru_context_supports(ctx, other))
        other_y = to_device(other, n, 1, n, p.y);
    qru_context *ctx2 = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &ctx2), 0);
    void *h = qru_test_from_double(dt, n, 1, n, p.y, n, 'A', 0.0, 0.0);
    qru_matrix *y_ctx2 = qru_test_upload(ctx2, dt, n, 1, n, h, n);
    free(h);
    void *coef0 = qru_test_download(coef), *path0 = qru_test_download(path);
    int sup[4] = {-5, -5, -5, -5};
    qru_solver_info info = {-5, -5, -5.0, -5, -5};
    qru_matrix *X = p.Xd, *y = p.yd;
    const int nm = n < m ? n : m;

    ck_assert_int_eq(qru_omp(NULL, X, y, 4, -1, coef, path, sup, &info), -1);
    ck_assert_int_eq(qru_omp(ctx, NULL, y, 4, -1, coef, path, sup, &info), -2);
    ck_assert_int_eq(qru_omp(ctx, Xempty, y, 4, -1, coef, path, sup, &info),
                     -2);
    ck_assert_int_eq(qru_omp(ctx, X, NULL, 4, -1, coef, path, sup, &info), -3);
    ck_assert_int_eq(qru_omp(ctx, X, yrows, 4, -1, coef, path, sup, &info),
                     -3);
    ck_assert_int_eq(qru_omp(ctx, X, y2, 4, -1, coef, path, sup, &info), -3);
    ck_assert_int_eq(qru_omp(ctx, X, y_ctx2, 4, -1, coef, path, sup, &info),
                     -3);
    if (other_y)
        ck_assert_int_eq(
            qru_omp(ctx, X, other_y, 4, -1, coef, path, sup, &info), -3);
    ck_assert_int_eq(qru_omp(ctx, X, y, 0, -1, coef, path, sup, &info), -4);
    ck_assert_int_eq(qru_omp(ctx, X, y, nm + 1, -1, coef, NULL, sup, &info),
                     -4);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, NAN, coef, path, sup, &info), -5);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, -1, NULL, path, sup, &info), -6);
    ck_assert_int_eq(
        qru_omp(ctx, X, y, 4, -1, coef_short, path, sup, &info), -6);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, -1, coef2, path, sup, &info), -6);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, -1, coef_in_X, path, sup, &info),
                     -6);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, -1, coef, path5, sup, &info), -7);
    ck_assert_int_eq(qru_omp(ctx, X, y, 3, -1, coef, path, sup, &info), -7);
    ck_assert_int_eq(
        qru_omp(ctx, X, y, 4, -1, coef, path_in_coef, sup, &info), -7);
    /* the first bad argument is the one reported */
    ck_assert_int_eq(qru_omp(ctx, NULL, NULL, 0, NAN, NULL, path5, NULL,
                             NULL),
                     -2);
    ck_assert_int_eq(qru_omp(ctx, X, y, 0, NAN, NULL, NULL, NULL, NULL), -4);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, NAN, coef2, NULL, NULL, NULL), -5);
    ck_assert_msg(strstr(qru_last_error(ctx), "qru_omp: argument 5") != NULL,
                  "message: %s", qru_last_error(ctx));

    void *coef1 = qru_test_download(coef), *path1 = qru_test_download(path);
    size_t es = qru_test_elsize(dt);
    ck_assert(memcmp(coef0, coef1, es * (size_t)m) == 0);
    ck_assert(memcmp(path0, path1, es * 16) == 0);
    for (int i = 0; i < 4; ++i)
        ck_assert_int_eq(sup[i], -5);
    ck_assert(info.iterations == -5 && info.active == -5 &&
              info.rnorm == -5.0);
    /* the limits are valid; NULL optional outputs */
    ck_assert_int_eq(qru_omp(ctx, X, y, nm, -1, coef, NULL, NULL, NULL), 0);
    ck_assert_int_eq(qru_omp(ctx, X, y, 4, INFINITY, coef, path, sup, &info),
                     0);
    ck_assert_int_eq(info.active, 1); /* tol met after one step */

    free(coef0);
    free(coef1);
    free(path0);
    free(path1);
    qru_test_alias_free(coef_in_X, 0);
    qru_test_alias_free(path_in_coef, 0);
    qru_matrix_destroy(coef);
    qru_matrix_destroy(coef_short);
    qru_matrix_destroy(coef2);
    qru_matrix_destroy(yrows);
    qru_matrix_destroy(y2);
    qru_matrix_destroy(Xempty);
    qru_matrix_destroy(path);
    qru_matrix_destroy(path5);
    qru_matrix_destroy(other_y);
    qru_matrix_destroy(y_ctx2);
    qru_context_destroy(ctx2);
    prob_free(&p);
}
END_TEST

/* _i: dtype x bad value; non-finite X or y: -2 / -3 with the check on
 * (outputs untouched), a documented status without it (the call
 * returns; X and y untouched either way) */
START_TEST(test_nonfinite)
{
    static const double bad[3] = {NAN, INFINITY, -INFINITY};
    qru_dtype dt = test_setup(_i % 2 + 2 * (_i / 6));
    double v = bad[(_i / 2) % 3];
    int n = 15, m = 25;
    for (int arg = 2; arg <= 3; ++arg) {
        for (int at = 0; at < 2; ++at) {
            prob p = prob_make(dt, n, m, 0, 0.0, 1200u + (unsigned)at);
            if (arg == 2)
                p.X[at ? (size_t)n * m - 1 : (size_t)n * 4 + 3] = v;
            else
                p.y[at ? n - 1 : 0] = v;
            qru_matrix_destroy(p.Xd);
            qru_matrix_destroy(p.yd);
            p.Xd = to_device(dt, n, m, n + 3, p.X);
            p.yd = to_device(dt, n, 1, n, p.y);
            void *X0 = qru_test_download(p.Xd), *y0 = qru_test_download(p.yd);
            qru_matrix *coef = to_device(dt, m, 1, m, p.X + n);
            void *coef0 = qru_test_download(coef);
            int sup[5] = {-5, -5, -5, -5, -5};
            qru_solver_info info = {-5, -5, -5.0, -5, -5};
            ck_assert_int_eq(
                qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
            int st = qru_omp(ctx, p.Xd, p.yd, 5, -1, coef, NULL, sup, &info);
            ck_assert_msg(st == -arg, "%s %g in argument %d: status %d",
                          dname(dt), v, arg, st);
            void *coef1 = qru_test_download(coef);
            ck_assert(memcmp(coef0, coef1, qru_test_elsize(dt) * m) == 0);
            ck_assert(sup[0] == -5 && info.active == -5);
            free(coef1);
            ck_assert_int_eq(
                qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
            st = qru_omp(ctx, p.Xd, p.yd, 5, -1, coef, NULL, sup, &info);
            ck_assert_msg(st >= 0 && st <= 6,
                          "%s %g in argument %d, unchecked: status %d",
                          dname(dt), v, arg, st);
            st = qru_omp(ctx, p.Xd, p.yd, 5, 0.5, coef, NULL, sup, &info);
            ck_assert_msg(st >= 0 && st <= 6,
                          "%s %g in argument %d, unchecked, tol: %d",
                          dname(dt), v, arg, st);
            void *X1 = qru_test_download(p.Xd), *y1 = qru_test_download(p.yd);
            size_t es = qru_test_elsize(dt);
            ck_assert(memcmp(X0, X1, es * (size_t)n * m) == 0);
            ck_assert(memcmp(y0, y1, es * (size_t)n) == 0);
            free(X0);
            free(X1);
            free(y0);
            free(y1);
            free(coef0);
            qru_matrix_destroy(coef);
            prob_free(&p);
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("omp");
    TCase *tc = tcase_create("omp");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_vs_reference, 0, 4);
    tcase_add_loop_test(tc, test_tol, 0, 4);
    tcase_add_loop_test(tc, test_recovery, 0, 4);
    tcase_add_loop_test(tc, test_dependent, 0, 4);
    tcase_add_loop_test(tc, test_scale, 0, 4);
    tcase_add_loop_test(tc, test_zero_y, 0, 4);
    tcase_add_loop_test(tc, test_host_waits, 0, 4);
    tcase_add_loop_test(tc, test_forms_agree, 0, 2);
    tcase_add_loop_test(tc, test_choice, 0, 2);
    tcase_add_loop_test(tc, test_gram_op, 0, 2);
    tcase_add_loop_test(tc, test_bad_args, 0, 4);
    tcase_add_loop_test(tc, test_nonfinite, 0, 12);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
