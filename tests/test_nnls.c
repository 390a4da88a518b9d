/* Non-negative least squares (qru_nnls), both precisions, against checks
 * computed on the host in double:
 *  - the KKT conditions of the returned x, without reference to any
 *    active set: x >= 0, w = A'(b - A x) <= tol_j where x_j = 0 and
 *    |w_j| at the rounding level of a least-squares solution where
 *    x_j > 0; the returned w and rnorm are those of x;
 *  - a host Lawson-Hanson solver that solves each least-squares problem
 *    on its passive set from scratch (LAPACKE_dgels): the same active
 *    set, and x on it within the least-squares perturbation bound of that
 *    set's columns (qru_test_lsq_errors); where the solution is not
 *    unique (duplicate columns), the same fitted vector A x;
 * on tall, square and wide problems, a positive unconstrained solution
 * (x = A \ b), x = 0 (A'b <= 0), duplicate and graded columns, one column
 * and one row; the lowest index among equal w_j; the iteration cap at
 * every step of a solve (status, feasible x, w and rnorm of that x); the
 * host waits, transfers and backend calls of a solve; bad arguments,
 * non-finite data and the caller's data left alone.  Every case runs in
 * both forms of the passive set (QRU_TUNE_NNLS_GRAM: the thin QR form,
 * the Gram form). */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver_check.h"

/* The form qru_nnls runs (QRU_TUNE_NNLS_GRAM: 1 the thin QR form, 2 the
 * Gram form): every case runs in both. */
static int form = 1;

static const char *fname(void) { return form == 2 ? "gram" : "qr"; }

static double nrm(int n, const double *v) { return cblas_dnrm2(n, v, 1); }

static double fro(int n, int m, const double *A)
{
    return cblas_dnrm2(n * m, A, 1);
}

/* r = b - A x, w = A' r */
static void residual_dual(int n, int m, const double *A, const double *b,
                          const double *x, double *r, double *w)
{
    memcpy(r, b, sizeof(double) * (size_t)n);
    cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, -1.0, A, n, x, 1, 1.0, r,
                1);
    cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, A, n, r, 1, 0.0, w, 1);
}

/* ---- the host reference: Lawson-Hanson, each passive problem by gels -- */

/* x := argmin ||A(:, P) y - b|| on the np columns P (n >= np) */
static void ref_lsq(int n, const double *A, const double *b, const int *P,
                    int np, double *y)
{
    double *Ap = dmat(n, np), *bb = dmat(n, 1);
    for (int i = 0; i < np; ++i)
        memcpy(Ap + (size_t)i * n, A + (size_t)P[i] * n,
               sizeof(double) * (size_t)n);
    memcpy(bb, b, sizeof(double) * (size_t)n);
    lapack_int info =
        LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, np, 1, Ap, n, bb, n);
    ck_assert_msg(info == 0, "reference dgels: info %d", (int)info);
    memcpy(y, bb, sizeof(double) * (size_t)np);
    free(Ap);
    free(bb);
}

/* The reference solution of min ||A x - b||, x >= 0 (tol: the w_t a
 * column needs to enter); returns the outer steps it took. */
static int ref_nnls(int n, int m, const double *A, const double *b,
                    const double *thr, double *x)
{
    int *P = malloc(sizeof(int) * (size_t)(m + 1));
    char *in = calloc((size_t)m + 1, 1);
    double *r = dmat(n, 1), *w = dmat(m, 1), *z = dmat(m, 1);
    ck_assert(P && in);
    int np = 0, outer = 0, kmax = n < m ? n : m;
    for (int j = 0; j < m; ++j)
        x[j] = 0.0;
    for (; np < kmax; ++outer) {
        ck_assert_msg(outer < 10 * m + 10, "reference solver: no end");
        residual_dual(n, m, A, b, x, r, w);
        int t = -1;
        for (int j = 0; j < m; ++j)
            if (!in[j] && w[j] > thr[j] && (t < 0 || w[j] > w[t]))
                t = j;
        if (t < 0)
            break;
        P[np++] = t;
        in[t] = 1;
        for (;;) {
            ref_lsq(n, A, b, P, np, z);
            double alpha = 2.0;
            for (int i = 0; i < np; ++i)
                if (z[i] <= 0.0) {
                    double a = x[P[i]] / (x[P[i]] - z[i]);
                    if (a < alpha)
                        alpha = a;
                }
            if (alpha == 2.0) {
                for (int i = 0; i < np; ++i)
                    x[P[i]] = z[i];
                break;
            }
            /* x moves towards z; the coefficients that define alpha
             * become 0, and every x_j <= 0 leaves P */
            int k = 0;
            for (int i = 0; i < np; ++i) {
                int j = P[i];
                int hit = z[i] <= 0.0 && x[j] / (x[j] - z[i]) == alpha;
                x[j] = hit ? 0.0 : x[j] + alpha * (z[i] - x[j]);
                if (x[j] > 0.0)
                    P[k++] = j;
                else
                    in[j] = 0;
            }
            np = k;
            if (np == 0)
                break;
        }
    }
    free(P);
    free(in);
    free(r);
    free(w);
    free(z);
    return outer;
}

/* ---- the problems and the checks ----------------------------------------- */


typedef struct result {
    int st;
    qru_solver_info info;
    double *x, *w; /* as returned */
} result;

static result solve(const prob *p, int maxiter, double tol)
{
    qru_dtype dt = p->dt;
    qru_matrix *Ad = upload(dt, p->n, p->m, p->A);
    qru_matrix *bd = upload(dt, p->n, 1, p->b);
    qru_matrix *x = NULL, *w = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, p->m, 1, 0, &x), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, p->m, 1, 0, &w), 0);
    result res = {0};
    res.st = qru_nnls(ctx, Ad, bd, maxiter, tol, x, w, &res.info);
    int tf = -1; /* a form asked for is the form reported */
    ck_assert_int_eq(qru_context_get_tuning(ctx, dt, QRU_TUNE_NNLS_GRAM, &tf),
                     0);
    ck_assert(res.st < 0 || (tf == 0 ? res.info.form == 1 || res.info.form == 2
                                     : res.info.form == tf));
    res.x = fetch(x);
    res.w = fetch(w);
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    qru_matrix_destroy(x);
    qru_matrix_destroy(w);
    return res;
}

static void result_free(result *r)
{
    free(r->x);
    free(r->w);
}

/* The scale of the rounding in w of an x: max(n, m) eps ||A||_F
 * (||b|| + ||A||_F ||x||) (a backward-stable least-squares solution on
 * any column set has |A_P'(b - A_P x)| within a small multiple). */
static double wscale(const prob *p, const double *x)
{
    double an = fro(p->n, p->m, p->A);
    return (double)(p->n > p->m ? p->n : p->m) * qru_test_eps(p->dt) * an *
           (nrm(p->n, p->b) + an * nrm(p->m, x));
}

/* The returned w and rnorm are those of the returned x (w = A'(b - A x)
 * computed here), and x >= 0; r and w (n, m) receive b - A x and w. */
static void check_outputs(const prob *p, const result *res, double *r,
                          double *w, const char *tag)
{
    int n = p->n, m = p->m;
    residual_dual(n, m, p->A, p->b, res->x, r, w);
    double sc = QRU_TEST_THRESHOLD * wscale(p, res->x);
    for (int j = 0; j < m; ++j) {
        ck_assert_msg(res->x[j] >= 0.0, "%s: x(%d) = %g < 0", tag, j + 1,
                      res->x[j]);
        ck_assert_msg(fabs(res->w[j] - w[j]) <= sc,
                      "%s: returned w(%d) = %g, A'(b - A x) = %g (scale %g)",
                      tag, j + 1, res->w[j], w[j], sc);
    }
    ck_assert_msg(fabs(res->info.rnorm - nrm(n, r)) <= sc,
                  "%s: rnorm %.17g, ||b - A x|| %.17g", tag, res->info.rnorm,
                  nrm(n, r));
}

/* The KKT conditions of the returned x (no active set needed): w_j <=
 * thr_j where x_j = 0 and |w_j| small where x_j > 0 (thr: the solver's
 * thresholds, m), with the outputs' checks. */
static void check_kkt(const prob *p, const result *res, const double *thr,
                      const char *tag)
{
    int n = p->n, m = p->m, active = 0;
    double *r = dmat(n, 1), *w = dmat(m, 1);
    check_outputs(p, res, r, w, tag);
    double sc = QRU_TEST_THRESHOLD * wscale(p, res->x);
    for (int j = 0; j < m; ++j) {
        if (res->x[j] > 0.0) {
            ++active;
            ck_assert_msg(fabs(w[j]) <= sc, "%s: x(%d) = %g > 0 but w(%d) "
                          "= %g (scale %g)", tag, j + 1, res->x[j], j + 1,
                          w[j], sc);
        } else {
            ck_assert_msg(w[j] <= thr[j] + sc, "%s: x(%d) = 0 but w(%d) = "
                          "%g > tol %g + %g", tag, j + 1, j + 1, w[j],
                          thr[j], sc);
        }
    }
    ck_assert_msg(res->info.active >= active,
                  "%s: info.active = %d, but %d x_j > 0", tag,
                  res->info.active, active);
    free(r);
    free(w);
}

/* The thresholds of the solver (include/qru.h): tol, or by default
 * 10 max(n, m) eps ||A(:,j)|| ||b|| for element type dt (m doubles, free()
 * them). */
static double *thresholds(const prob *p, qru_dtype dt, double tol)
{
    int n = p->n, m = p->m;
    double *thr = dmat(m, 1);
    double c = 10.0 * (double)(n > m ? n : m) * 2.0 * qru_test_eps(dt) *
               nrm(n, p->b);
    for (int j = 0; j < m; ++j)
        thr[j] = tol >= 0.0 ? tol : c * nrm(n, p->A + (size_t)j * n);
    return thr;
}

/* x against the reference: unique = 1: the same active set, and x on it
 * within the least-squares bound of its columns (float: the thin
 * factorisation's updates, one a step, add to the rounding of one QR:
 * 3x the threshold); unique = 0: the same fitted vector A x. */
static void check_ref(const prob *p, const result *res, int unique,
                      const char *tag)
{
    int n = p->n, m = p->m;
    double *xr = dmat(m, 1), *thr = thresholds(p, QRU_DOUBLE, -1.0);
    ref_nnls(n, m, p->A, p->b, thr, xr);
    free(thr);
    if (unique) {
        int np = 0;
        for (int j = 0; j < m; ++j) {
            ck_assert_msg((res->x[j] > 0.0) == (xr[j] > 0.0),
                          "%s: x(%d) = %g, reference %g (active sets "
                          "differ)", tag, j + 1, res->x[j], xr[j]);
            np += xr[j] > 0.0;
        }
        if (np > 0) {
            double *Ap = dmat(n, np), *xp = dmat(np, 1);
            for (int j = 0, i = 0; j < m; ++j)
                if (xr[j] > 0.0) {
                    memcpy(Ap + (size_t)i * n, p->A + (size_t)j * n,
                           sizeof(double) * (size_t)n);
                    xp[i++] = res->x[j];
                }
            double xerr;
            qru_test_lsq_errors(QRU_DOUBLE, n, np, 1, Ap, n, p->b, n, xp, np,
                                NULL, &xerr, NULL);
            /* in units of the element type's eps */
            xerr *= qru_test_eps(QRU_DOUBLE) / qru_test_eps(p->dt);
            double lim =
                QRU_TEST_THRESHOLD * (p->dt == QRU_FLOAT ? 3.0 : 1.0);
            ck_assert_msg(xerr <= lim, "%s: x on the active set (%d "
                          "columns): scaled error %g > %g", tag, np, xerr,
                          lim);
            free(Ap);
            free(xp);
        }
    } else {
        double *f = dmat(n, 1);
        for (int j = 0; j < m; ++j)
            xr[j] -= res->x[j];
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, 1.0, p->A, n, xr, 1,
                    0.0, f, 1);
        double sc = QRU_TEST_THRESHOLD * wscale(p, res->x) /
                    fro(n, m, p->A);
        ck_assert_msg(nrm(n, f) <= sc, "%s: ||A x - A xref|| = %g > %g", tag,
                      nrm(n, f), sc);
        free(f);
    }
    free(xr);
}

/* One problem solved (maxiter 0: the default): status 0, KKT, the
 * reference. */
static result run_problem(const prob *p, int unique, int maxiter,
                          const char *what)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s %s %d x %d", dname(p->dt), what, p->n,
             p->m);
    result res = solve(p, maxiter, -1.0);
    ck_assert_msg(res.st == 0, "%s: status %d (%s)", tag, res.st,
                  qru_last_error(ctx));
    ck_assert_msg(res.info.iterations >= res.info.active &&
                      res.info.iterations <= (maxiter ? maxiter : 3 * p->m),
                  "%s: %d iterations, %d active", tag, res.info.iterations,
                  res.info.active);
    double *thr = thresholds(p, p->dt, -1.0);
    check_kkt(p, &res, thr, tag);
    free(thr);
    check_ref(p, &res, unique, tag);
    return res;
}

/* ---- the cases: c_<name>(dt, v, seed), v the case's variant ---------------- */

/* a random problem (tall, square, wide or narrow: the table's shapes) */
static void c_random(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    result res = run_problem(p, 1, 0, "random");
    /* something is active and something is not (the set matters) */
    ck_assert_msg(res.info.active > 0 &&
                      (res.info.active < p->m || p->n < p->m),
                  "random %d x %d: %d active", p->n, p->m, res.info.active);
    result_free(&res);
}

/* b = A x0 + a little noise with x0 in [1, 2]: the unconstrained solution
 * is positive, every column is active and x is A \ b */
static void c_all_positive(prob *p, int v, unsigned *seed)
{
    (void)v;
    double *x0 = dmat(p->m, 1);
    for (int j = 0; j < p->m; ++j)
        x0[j] = 1.5 + 0.5 * qru_test_urand(seed);
    cblas_dgemv(CblasColMajor, CblasNoTrans, p->n, p->m, 1.0, p->A, p->n, x0,
                1, 1e-3, p->b, 1);
    prob_round(p);
    result res = run_problem(p, 1, 0, "all positive");
    ck_assert_int_eq(res.info.active, p->m);
    /* every column entered once and none left */
    ck_assert_int_eq(res.info.iterations, p->m);
    for (int j = 0; j < p->m; ++j)
        ck_assert_msg(res.x[j] > 0.0, "all positive: x(%d) = %g", j + 1,
                      res.x[j]);
    /* (check_ref compared x with A \ b: the active set is all of A) */
    result_free(&res);
    free(x0);
}

/* A >= 0 and b <= 0: A'b <= 0, x = 0, w = A'b, rnorm = ||b|| */
static void c_zero_solution(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    for (int i = 0; i < p->n * p->m; ++i)
        p->A[i] = fabs(p->A[i]);
    for (int i = 0; i < p->n; ++i)
        p->b[i] = -fabs(p->b[i]);
    result res = run_problem(p, 1, 0, "zero solution");
    ck_assert_int_eq(res.info.active, 0);
    ck_assert_int_eq(res.info.iterations, 0);
    for (int j = 0; j < p->m; ++j)
        ck_assert_msg(res.x[j] == 0.0, "x(%d) = %g", j + 1, res.x[j]);
    result_free(&res);
}

/* duplicate columns (pairs j, j + 1 equal, and one column three times):
 * the fitted vector is unique; never two copies active */
static void c_duplicates(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    int n = p->n;
    double *A = p->A;
    for (int j = 0; j + 1 < 16; j += 2)
        memcpy(A + (size_t)(j + 1) * n, A + (size_t)j * n,
               sizeof(double) * (size_t)n);
    memcpy(A + (size_t)23 * n, A + (size_t)16 * n, sizeof(double) * n);
    memcpy(A + (size_t)20 * n, A + (size_t)16 * n, sizeof(double) * n);
    /* b correlated with the duplicated columns, so that they matter */
    for (int i = 0; i < n; ++i)
        p->b[i] += A[i] + A[i + (size_t)4 * n] + A[i + (size_t)16 * n];
    prob_round(p);
    result res = run_problem(p, 0, 0, "duplicate columns");
    for (int j = 0; j + 1 < 16; j += 2)
        ck_assert_msg(!(res.x[j] > 0.0 && res.x[j + 1] > 0.0),
                      "copies %d and %d both active", j + 1, j + 2);
    int c = (res.x[16] > 0) + (res.x[20] > 0) + (res.x[23] > 0);
    ck_assert_msg(c <= 1, "%d copies of column 17 active", c);
    result_free(&res);
}

/* Ill-conditioned columns: A = U diag(s) V' with singular values from 1
 * to 1e-5, then columns scaled by 10^(-3 .. 3) (graded); float: 1e-2
 * and 10^(-1 .. 1), since the update's rank rule refuses a column whose
 * R(j,j) is below max(n, m) eps times the largest column norm.  Columns
 * enter and leave many times: the cap is 10 m (SciPy's nnls, whose
 * default is 3 m, needs more than 3 m on such problems too) */
static void c_ill_conditioned(prob *p, int v, unsigned *seed)
{
    (void)v;
    qru_dtype dt = p->dt;
    int n = p->n, m = p->m;
    double lo = dt == QRU_DOUBLE ? 1e-5 : 1e-2;
    double grade = dt == QRU_DOUBLE ? 3.0 : 1.0;
    prob G = prob_rand(dt, n, m, seed), H = prob_rand(dt, m, m, seed);
    double *tau = dmat(m, 1);
    /* U: Q of G (n x m), V: Q of H */
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, G.A, n, tau), 0);
    ck_assert_int_eq(LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, m, m, G.A, n, tau),
                     0);
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, m, m, H.A, m, tau), 0);
    ck_assert_int_eq(LAPACKE_dorgqr(LAPACK_COL_MAJOR, m, m, m, H.A, m, tau),
                     0);
    for (int j = 0; j < m; ++j)
        cblas_dscal(n, pow(lo, (double)j / (m - 1)), G.A + (size_t)j * n, 1);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, m, m, 1.0, G.A,
                n, H.A, m, 0.0, p->A, n);
    for (int j = 0; j < m; ++j)
        cblas_dscal(n, pow(10.0, grade * (2.0 * j / (m - 1) - 1.0)),
                    p->A + (size_t)j * n, 1);
    prob_round(p);
    result res = run_problem(p, 1, 10 * m, "ill-conditioned");
    result_free(&res);
    prob_free(&G);
    prob_free(&H);
    free(tau);
}

/* one column (v = 0: against b, 1: with b) and one row (v = 2: the
 * largest positive a_j b enters, b = a_j x_j exactly) */
static void c_small(prob *p, int v, unsigned *seed)
{
    (void)seed;
    for (int i = 0; v < 2 && i < p->n; ++i)
        p->b[i] += (v ? 1.0 : -1.0) * p->A[i];
    if (v == 2)
        p->b[0] = 0.75;
    prob_round(p);
    result res = run_problem(p, 1, 0, v < 2 ? "one column" : "one row");
    ck_assert_int_eq(res.info.active, v > 0);
    if (v == 2) {
        int jmax = 0;
        for (int j = 1; j < p->m; ++j)
            if (p->A[j] > p->A[jmax])
                jmax = j;
        ck_assert_msg(res.x[jmax] > 0.0, "one row: x(%d) = %g", jmax + 1,
                      res.x[jmax]);
        ck_assert_msg(res.info.rnorm <= 4 * qru_test_eps(p->dt),
                      "one row: rnorm %g", res.info.rnorm);
    }
    result_free(&res);
}

/* Equal w_j: A = I (n x n, exact) and b = ones give w = ones; the lowest
 * index enters first (maxiter = c: x = the first c unit vectors), and in
 * the end x = b */
static void c_ties(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    int n = p->n;
    memset(p->A, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < n; ++i) {
        p->A[i + (size_t)i * n] = 1.0;
        p->b[i] = 1.0;
    }
    for (int cap = 1; cap <= n; cap += cap < 3 ? 1 : n - 3) {
        result res = solve(p, cap == n ? 0 : cap, -1.0);
        ck_assert_int_eq(res.st, cap == n ? 0 : cap);
        ck_assert_int_eq(res.info.iterations, cap);
        for (int j = 0; j < n; ++j)
            ck_assert_msg(res.x[j] == (j < cap ? 1.0 : 0.0),
                          "ties, cap %d: x(%d) = %g", cap, j + 1, res.x[j]);
        result_free(&res);
    }
}

/* The cap at every step of a solve that removes a column: status maxiter,
 * x >= 0, w and rnorm of that x, no better than the solution */
static void c_cap(prob *p, int v, unsigned *seed)
{
    (void)v;
    /* A(:, 23) = 0.6 (A(:, 21) + A(:, 22)) + 0.05 e enters first (the
     * largest w of x = 0), b = A(:, 21) + A(:, 22) - 0.02 e makes its
     * coefficient negative once 21 and 22 are in: it leaves again */
    int n = p->n, m = p->m;
    prob e = prob_rand(p->dt, n, 1, seed);
    double *a21 = p->A + (size_t)20 * n, *a22 = p->A + (size_t)21 * n,
           *a23 = p->A + (size_t)22 * n;
    for (int i = 0; i < n; ++i) {
        a23[i] = 0.6 * (a21[i] + a22[i]) + 0.05 * e.b[i];
        p->b[i] = a21[i] + a22[i] - 0.02 * e.b[i];
    }
    prob_round(p);
    result full = solve(p, 0, -1.0);
    ck_assert_int_eq(full.st, 0);
    int its = full.info.iterations;
    ck_assert_msg(its > full.info.active, "no column left the set (%d "
                  "steps, %d active): the case does not test removals",
                  its, full.info.active);
    double *r = dmat(n, 1), *w = dmat(m, 1);
    for (int cap = 1; cap < its; ++cap) {
        char tag[96];
        snprintf(tag, sizeof tag, "%s cap %d of %d", dname(p->dt), cap, its);
        result res = solve(p, cap, -1.0);
        ck_assert_msg(res.st == cap, "%s: status %d", tag, res.st);
        ck_assert_int_eq(res.info.iterations, cap);
        check_outputs(p, &res, r, w, tag);
        ck_assert_msg(res.info.rnorm >= full.info.rnorm * (1 - 1e-3),
                      "%s: rnorm %g below the solution's %g", tag,
                      res.info.rnorm, full.info.rnorm);
        result_free(&res);
    }
    free(r);
    free(w);
    result_free(&full);
    prob_free(&e);
}

/* tol given: tol = 0 is Lawson and Hanson's (and SciPy's) own rule; the
 * largest w_j of x = 0 as tol lets nothing enter */
static void c_tol(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    result r0 = solve(p, 0, 0.0);
    ck_assert_int_eq(r0.st, 0);
    double *thr = thresholds(p, p->dt, 0.0);
    check_kkt(p, &r0, thr, "tol = 0");
    check_ref(p, &r0, 1, "tol = 0");
    double *w0 = dmat(p->m, 1);
    cblas_dgemv(CblasColMajor, CblasTrans, p->n, p->m, 1.0, p->A, p->n, p->b,
                1, 0.0, w0, 1);
    double big = 0.0;
    for (int j = 0; j < p->m; ++j)
        big = w0[j] > big ? w0[j] : big;
    result r1 = solve(p, 0, big * 1.01);
    ck_assert_int_eq(r1.st, 0);
    ck_assert_int_eq(r1.info.active, 0);
    for (int j = 0; j < p->m; ++j)
        thr[j] = big * 1.01;
    check_kkt(p, &r1, thr, "large tol");
    free(thr);
    free(w0);
    result_free(&r0);
    result_free(&r1);
}

/* what the solve costs in host waits, transfers and backend calls: per
 * step the download of w and z, plus an added column's rank rule (the
 * thin QR form) or, in the Gram form, at most 15 calls and 2 waits (an
 * entering column: W bordered on in 9 calls (10 after a failed pivot),
 * S set, 3 products and the download; a leaving one: a reflection of W,
 * 7 calls and the download of its row, then the next solve) */
static void c_waits(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    qru_dtype dt = p->dt;
    int m = p->m;
    qru_matrix *Ad = upload(dt, p->n, m, p->A), *bd = upload(dt, p->n, 1, p->b);
    qru_matrix *x;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, 1, 0, &x), 0);
    qru_context_stats s0, s1;
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
    qru_solver_info info;
    ck_assert_int_eq(qru_nnls(ctx, Ad, bd, 0, -1.0, x, NULL, &info), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
    long long waits = s1.host_waits - s0.host_waits;
    long long d2h = s1.bytes_d2h - s0.bytes_d2h;
    long long calls = s1.calls - s0.calls;
    /* start 3, end 1, a step at most 6 (the new factorisation of the
     * first column may take the vendor QR: 1 more) */
    ck_assert_msg(waits <= 5 + 3LL * info.iterations,
                  "%s %s: %lld host waits for %d steps", fname(), dname(dt),
                  waits, info.iterations);
    ck_assert_msg(info.iterations > info.active,
                  "%s %s: no column left (%d steps): the case does not "
                  "count removals", fname(), dname(dt), info.iterations);
    if (form == 2) {
        ck_assert_msg(waits <= 6 + 2LL * info.iterations,
                      "gram %s: %lld host waits for %d steps", dname(dt),
                      waits, info.iterations);
        ck_assert_msg(calls <= 30 + 15LL * info.iterations,
                      "gram %s: %lld calls for %d steps", dname(dt), calls,
                      info.iterations);
    }
    /* never more than O(m + |P|) numbers a step: A (n m) stays */
    long long es = (long long)qru_test_elsize(dt);
    ck_assert_msg(d2h <= es * (info.iterations + 2) * 6 * m,
                  "%s: %lld bytes to the host for %d steps", dname(dt), d2h,
                  info.iterations);
    /* the cost model's choice (auto) runs one of the forms: in double
     * the same steps */
    qru_solver_info info2;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_NNLS_GRAM, 0),
                     0);
    ck_assert_int_eq(qru_nnls(ctx, Ad, bd, 0, -1.0, x, NULL, &info2), 0);
    ck_assert(dt != QRU_DOUBLE || info2.iterations == info.iterations);
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_NNLS_GRAM,
                                            form),
                     0);
    printf("nnls %s %s %d x %d: %d steps, %d active, %lld host waits, %lld "
           "bytes to the host, %lld calls\n", fname(), dname(dt), p->n, m,
           info.iterations, info.active, waits, d2h, calls);
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    qru_matrix_destroy(x);
}

/* bad arguments: -i in argument order, nothing written, the message */
static void c_bad_args(prob *pp, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    prob p = *pp;
    qru_dtype dt = p.dt;
    qru_dtype other = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    int n = p.n, m = p.m;
    double *sx = dmat(m, 1), *sw = dmat(m, 1);
    for (int j = 0; j < m; ++j) {
        sx[j] = 100.0 + j;
        sw[j] = -100.0 - j;
    }
    qru_matrix *Ad = upload(dt, n, m, p.A), *bd = upload(dt, n, 1, p.b);
    qru_matrix *x = upload(dt, m, 1, sx), *w = upload(dt, m, 1, sw);
    qru_matrix *b2 = upload(dt, n - 1, 1, p.b), *bw = upload(dt, n, 2, p.A);
    qru_matrix *xs = upload(dt, m - 1, 1, sx), *ws = upload(dt, m, 2, p.A);
    qru_matrix *xo = NULL, *bo = NULL;
    if (qru_context_supports(ctx, other)) {
        void *h = qru_test_from_double(other, m, 1, m, sx, m, 'A', 0, 0);
        xo = qru_test_upload(ctx, other, m, 1, 0, h, m);
        free(h);
        h = qru_test_from_double(other, n, 1, n, p.b, n, 'A', 0, 0);
        bo = qru_test_upload(ctx, other, n, 1, 0, h, n);
        free(h);
    }
    /* a matrix of another context */
    qru_context *ctx2 = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &ctx2), 0);
    void *h = qru_test_from_double(dt, n, m, n, p.A, n, 'A', 0, 0);
    qru_matrix *A2 = qru_test_upload(ctx2, dt, n, m, 0, h, n);
    free(h);
    /* x inside A's and b's memory, w inside x's */
    qru_matrix *xa = qru_test_alias(ctx, Ad, 3, m, 1, m, 0);
    qru_matrix *xb = qru_test_alias(ctx, bd, 0, m, 1, m, 0);
    qru_matrix *wx = qru_test_alias(ctx, x, 0, m, 1, m, 0);
    qru_solver_info info = {-7, -7, -7.0, -7, -7};
    struct {
        int expect;
        qru_context *c;
        const qru_matrix *A, *b;
        int maxiter;
        double tol;
        qru_matrix *x, *w;
    } cases[] = {
        {-1, NULL, Ad, bd, 0, -1.0, x, w},
        {-2, ctx, NULL, bd, 0, -1.0, x, w},
        {-2, ctx, A2, bd, 0, -1.0, x, w},
        {-2, ctx, NULL, NULL, -1, NAN, NULL, NULL},
        {-3, ctx, Ad, NULL, 0, -1.0, x, w},
        {-3, ctx, Ad, b2, 0, -1.0, x, w},
        {-3, ctx, Ad, bw, 0, -1.0, x, w},
        {-3, ctx, Ad, bo, 0, -1.0, x, w},
        {-4, ctx, Ad, bd, -1, -1.0, x, w},
        {-4, ctx, Ad, bd, -1, NAN, NULL, NULL},
        {-5, ctx, Ad, bd, 0, NAN, x, w},
        {-5, ctx, Ad, bd, 0, INFINITY, x, w},
        {-5, ctx, Ad, bd, 0, -INFINITY, x, w},
        {-6, ctx, Ad, bd, 0, -1.0, NULL, w},
        {-6, ctx, Ad, bd, 0, -1.0, xs, w},
        {-6, ctx, Ad, bd, 0, -1.0, xo, w},
        {-6, ctx, Ad, bd, 0, -1.0, xa, w},
        {-6, ctx, Ad, bd, 0, -1.0, xb, w},
        {-7, ctx, Ad, bd, 0, -1.0, x, ws},
        {-7, ctx, Ad, bd, 0, -1.0, x, x},
        {-7, ctx, Ad, bd, 0, -1.0, x, wx},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int st = qru_nnls(cases[c].c, cases[c].A, cases[c].b,
                          cases[c].maxiter, cases[c].tol, cases[c].x,
                          cases[c].w, &info);
        ck_assert_msg(st == cases[c].expect, "%s case %zu: status %d, "
                      "expected %d", dname(dt), c, st, cases[c].expect);
        const char *msg = qru_last_error(cases[c].c);
        char want[64];
        snprintf(want, sizeof want, "qru_nnls: argument %d", -st);
        ck_assert_msg(strstr(msg, want) != NULL, "case %zu: message '%s'", c,
                      msg);
        ck_assert_int_eq(info.iterations, -7);
        double *gx = fetch(x), *gw = fetch(w);
        ck_assert_msg(memcmp(gx, sx, sizeof(double) * m) == 0 &&
                          memcmp(gw, sw, sizeof(double) * m) == 0,
                      "case %zu: x or w changed", c);
        free(gx);
        free(gw);
    }
    /* w and info may be NULL */
    ck_assert_int_eq(qru_nnls(ctx, Ad, bd, 0, -1.0, x, NULL, NULL), 0);
    qru_test_alias_free(xa, 0);
    qru_test_alias_free(xb, 0);
    qru_test_alias_free(wx, 0);
    qru_matrix *mats[] = {A2, Ad, bd, x, w, b2, bw, xs, ws, xo, bo};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; ++i)
        qru_matrix_destroy(mats[i]);
    qru_context_destroy(ctx2);
    free(sx);
    free(sw);
}

/* NaN or Inf in A or b: -2 / -3 whether or not QRU_OPTION_CHECK_FINITE
 * is on (v), x and w untouched */
static void c_nonfinite(prob *p0, int v, unsigned *seed)
{
    qru_dtype dt = p0->dt;
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, v),
                     0);
    for (int k = 0; k < 6; ++k) {
        int in_b = k % 2;
        prob p = prob_nonfinite(p0, k, seed);
        int n = p.n, m = p.m;
        double *sx = dmat(m, 1);
        for (int j = 0; j < m; ++j)
            sx[j] = 7.0 + j;
        qru_matrix *Ad = upload(dt, n, m, p.A), *bd = upload(dt, n, 1, p.b);
        qru_matrix *x = upload(dt, m, 1, sx), *w = upload(dt, m, 1, sx);
        qru_solver_info info = {-7, -7, -7.0, -7, -7};
        int st = qru_nnls(ctx, Ad, bd, 0, -1.0, x, w, &info);
        ck_assert_msg(st == -2 - in_b, "%s check=%d %g in %s: status %d",
                      dname(dt), v, (in_b ? p.b[n - 1] : p.A[3 + 2 * n]), in_b ? "b" : "A", st);
        ck_assert_int_eq(info.iterations, -7);
        double *gx = fetch(x), *gw = fetch(w);
        ck_assert(memcmp(gx, sx, sizeof(double) * m) == 0);
        ck_assert(memcmp(gw, sx, sizeof(double) * m) == 0);
        free(gx);
        free(gw);
        qru_matrix_destroy(Ad);
        qru_matrix_destroy(bd);
        qru_matrix_destroy(x);
        qru_matrix_destroy(w);
        prob_free(&p);
        free(sx);
    }
}

/* The cases: each runs on a random problem of its shape (rounded to the
 * element type), which it may change, with its variant v. */
static const solver_case ncases[] = {
    {c_random, 200, 50, 0},       {c_random, 60, 60, 0},
    {c_random, 30, 80, 0},        {c_random, 90, 7, 0},
    {c_all_positive, 120, 30, 0}, {c_zero_solution, 50, 20, 0},
    {c_duplicates, 80, 24, 0},    {c_ill_conditioned, 100, 40, 0},
    {c_small, 40, 1, 0},          {c_small, 40, 1, 1},
    {c_small, 1, 9, 2},           {c_ties, 12, 12, 0},
    {c_cap, 40, 23, 0},           {c_tol, 70, 30, 0},
    {c_waits, 100, 200, 0},       {c_bad_args, 20, 8, 0},
    {c_nonfinite, 15, 6, 0},      {c_nonfinite, 15, 6, 1},
};
#define NCASES ((int)(sizeof ncases / sizeof ncases[0]))

/* _i: the case (_i / 2) % NCASES in the element type _i % 2, in the thin
 * QR form, then (_i >= 2 NCASES) in the Gram form */
START_TEST(test_case)
{
    form = _i >= 2 * NCASES ? 2 : 1;
    int i = _i % (2 * NCASES);
    if (i % 2 < qru_test_ndtypes(ctx))
        ck_assert_int_eq(qru_context_set_tuning(ctx,
                                                qru_test_dtype(ctx, i % 2),
                                                QRU_TUNE_NNLS_GRAM, form),
                         0);
    solver_case_run(ncases, i, 1000u);
}
END_TEST

int main(void)
{
    return solver_check_main("nnls", test_case, 2 * NCASES);
}
