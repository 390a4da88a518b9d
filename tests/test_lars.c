/* LAR and the Lasso path (qru_lars), both precisions, against a host
 * reference in double that follows scikit-learn's lars_path step for
 * step but forms each direction from scratch: the Gram matrix of the
 * active columns, its Cholesky factor (LAPACKE_dpotrf: the pivot of the
 * entering column) and the equiangular weights (dpotrs), the
 * correlations with the direction by cblas.  The alphas, the active
 * sets and every column of coefs must agree within scaled thresholds
 * (THRESHOLD eps cond(X_A) per step, the condition of the largest active
 * set); in float the path is compared on its common prefix (the steps
 * until the supports of the two paths first differ: two correlations
 * within float's rounding may enter in either order), at least half of
 * it.  Independently of the reference, every Lasso knot satisfies the
 * Lasso's optimality conditions at its alpha.  Cases: LAR and Lasso on
 * tall and wide random problems, a Lasso path on which a variable leaves
 * (checked to happen), a small max_iter (a prefix of the full path),
 * alpha_min between two knots (the last coefficients interpolated),
 * y = 0, duplicate columns (exact ties; one copy dropped as degenerate),
 * bad arguments (each -i), non-finite X or y, the caller's outputs
 * unchanged on failure, and the host waits of a path. */
#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver_check.h"


/* The form qru_lars runs (QRU_TUNE_LARS_GRAM: 1 the thin QR form, 2 the
 * Gram form): every case runs in both. */
static int form = 1;

static const char *fname(void) { return form == 2 ? "gram" : "qr"; }

/* ---- a path: the reference's or the solver's ------------------------------ */

typedef struct path {
    int st, nsteps, na;
    double *alphas; /* nsteps + 1 */
    double *coefs;  /* m x (nsteps + 1) */
    int *active;    /* na */
    qru_solver_info info;
    long long calls; /* the backend calls of qru_lars */
} path;

static void path_free(path *p)
{
    free(p->alphas);
    free(p->coefs);
    free(p->active);
}

/* The reference: scikit-learn's _lars_path_solver (X given, no Gram),
 * each direction from scratch in double. */
static path ref_lars(int n, int m, const double *X, const double *y,
                     int lasso, int positive, int max_iter, double alpha_min,
                     double dec)
{
    const double tol = FLT_EPSILON, tiny = FLT_MIN;
    int kmax = n < m ? n : m, na = 0, n_iter = 0, drop = 0;
    int cap = max_iter + 1;
    path p = {0};
    p.alphas = dmat(cap, 1);
    p.coefs = dmat(m, cap);
    int *perm = malloc(sizeof(int) * (size_t)m);
    double *cov = dmat(m, 1), *sgn = dmat(m, 1), *ls = dmat(m, 1),
           *G = dmat(m, m), *u = dmat(n, 1), *corr = dmat(m, 1),
           *z = dmat(m, 1), *r = dmat(n, 1);
    for (int j = 0; j < m; ++j)
        perm[j] = j;
    cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, X, n, y, 1, 0.0, cov,
                1);
    for (;;) {
        double *coef = p.coefs + (size_t)n_iter * m;
        double *prev = n_iter ? coef - m : NULL;
        int ci = -1;
        double C = 0.0;
        for (int i = na; i < m; ++i) {
            double a = positive ? cov[perm[i]] : fabs(cov[perm[i]]);
            if (ci < 0 || a > C) {
                ci = i;
                C = a;
            }
        }
        if (positive && C < 0.0) /* (as the solver, not scikit-learn:
                                     the path ends at alpha 0) */
            C = 0.0;
        double alpha = C / n;
        p.alphas[n_iter] = alpha;
        if (alpha <= alpha_min + tol) {
            if (fabs(alpha - alpha_min) > tol) {
                if (n_iter > 0) {
                    double pa = p.alphas[n_iter - 1];
                    double ss = (pa - alpha_min) / (pa - alpha);
                    for (int j = 0; j < m; ++j)
                        coef[j] = prev[j] + ss * (coef[j] - prev[j]);
                }
                p.alphas[n_iter] = alpha_min;
            }
            break;
        }
        if (n_iter >= max_iter || na >= kmax)
            break;
        int grew = lasso && n_iter > 0 && p.alphas[n_iter - 1] < alpha;
        int k = na;
        if (!drop) {
            int t = perm[ci];
            sgn[na] = positive || cov[t] > 0 ? 1.0 : -1.0;
            perm[ci] = perm[na];
            perm[na] = t;
            k = na + 1;
        }
        /* the Gram matrix of the k columns perm[0 .. k-1], its Cholesky
         * factor and the pivot of the last */
        for (int a = 0; a < k; ++a)
            for (int b = 0; b < k; ++b)
                G[a + (size_t)b * k] =
                    cblas_ddot(n, X + (size_t)perm[a] * n, 1,
                               X + (size_t)perm[b] * n, 1);
        lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', k, G, k);
        double piv = info ? 0.0 : G[(k - 1) + (size_t)(k - 1) * k];
        if (!drop) {
            if (piv < 1e-7) { /* degenerate: dropped */
                cov[perm[na]] = 0.0;
                continue;
            }
            ++na;
        }
        if (grew)
            break;
        ck_assert_msg(info == 0, "reference: dpotrf %d", (int)info);
        memcpy(ls, sgn, sizeof(double) * (size_t)k);
        ck_assert_int_eq(LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', k, 1, G, k, ls,
                                        k), 0);
        double sw = 0.0;
        for (int i = 0; i < k; ++i)
            sw += ls[i] * sgn[i];
        double AA = 1.0 / sqrt(sw);
        ck_assert_msg(isfinite(AA), "reference: s' G^-1 s = %g", sw);
        for (int i = 0; i < k; ++i)
            ls[i] *= AA;
        memset(u, 0, sizeof(double) * (size_t)n);
        for (int i = 0; i < k; ++i)
            cblas_daxpy(n, ls[i], X + (size_t)perm[i] * n, 1, u, 1);
        double g1 = DBL_MAX, g2 = DBL_MAX;
        for (int i = k; i < m; ++i) {
            int j = perm[i];
            double c = cblas_ddot(n, X + (size_t)j * n, 1, u, 1);
            c = rint(c * dec) / dec;
            corr[j] = c;
            double a = (C - cov[j]) / (AA - c + tiny),
                   b = (C + cov[j]) / (AA + c + tiny);
            if (a > 0 && a < g1)
                g1 = a;
            if (!positive && b > 0 && b < g2)
                g2 = b;
        }
        double gamma = g1 < g2 ? g1 : g2;
        if (C / AA < gamma)
            gamma = C / AA;
        drop = 0;
        double zpos = DBL_MAX;
        for (int i = 0; i < k; ++i) {
            z[i] = -coef[perm[i]] / (ls[i] + tiny);
            if (z[i] > 0 && z[i] < zpos)
                zpos = z[i];
        }
        int leave = -1;
        if (zpos < gamma) {
            for (int i = k - 1; i >= 0; --i)
                if (z[i] == zpos) {
                    sgn[i] = -sgn[i];
                    leave = i; /* (one at a time here) */
                }
            if (lasso)
                gamma = zpos;
            drop = 1;
        }
        ++n_iter;
        coef = p.coefs + (size_t)n_iter * m;
        prev = coef - m;
        for (int i = 0; i < k; ++i)
            coef[perm[i]] = prev[perm[i]] + gamma * ls[i];
        for (int i = k; i < m; ++i)
            cov[perm[i]] -= gamma * corr[perm[i]];
        if (drop && lasso) {
            int j = perm[leave];
            coef[j] = 0.0; /* (as the solver: the value it crosses) */
            for (int i = leave; i + 1 < na; ++i) {
                perm[i] = perm[i + 1];
                sgn[i] = sgn[i + 1];
            }
            --na;
            perm[na] = j;
            memcpy(r, y, sizeof(double) * (size_t)n);
            for (int i = 0; i < na; ++i)
                cblas_daxpy(n, -coef[perm[i]], X + (size_t)perm[i] * n, 1,
                            r, 1);
            cov[j] = cblas_ddot(n, X + (size_t)j * n, 1, r, 1);
        }
    }
    p.nsteps = n_iter;
    p.na = na;
    p.active = malloc(sizeof(int) * (size_t)(na + 1));
    memcpy(p.active, perm, sizeof(int) * (size_t)na);
    free(perm);
    free(cov);
    free(sgn);
    free(ls);
    free(G);
    free(u);
    free(corr);
    free(z);
    free(r);
    return p;
}

/* The backend calls, host waits and bytes to the host of a path p
 * (n x m) against the bounds of its form.  A step of the Gram form is
 * one op (lars_gram_step: the entering column bordered on, the
 * direction and the step decided on the device) and 1 download of its
 * record and pick (7 + 3 ceil(m / 256) numbers, nothing of size m); a
 * step of the thin form a direction (a few calls and 1 download of
 * m + 1 + |A| numbers) and an update of the factorisation.  The other
 * work is the start and end (a constant: X' y read once), the columns
 * dropped as degenerate (an add and a direction each, no step) and the
 * columns that left (the Gram form: a reflection of W, row q
 * downloaded, the residual's correlation and a pick, 2 waits; at most
 * (steps - active) of them, steps that enter no column). */
static void check_work(qru_dtype dt, const path *p, int n, int m,
                       long long calls, long long waits, long long d2h)
{
    long long ns = p->nsteps, extra = p->info.dropped +
                                      (ns > p->info.active ? ns - p->info.active : 0);
    long long cmax = form == 2 ? 40 + 3 * ns + 16 * extra
                               : 60 + 40 * ns + 40 * extra;
    long long wmax = form == 2 ? 8 + ns + 3 * extra : 8 + 3 * ns + 4 * extra;
    ck_assert_msg(calls <= cmax, "%s %s: %lld calls for %lld steps (%lld "
                  "dropped or left; bound %lld)", fname(), dname(dt), calls,
                  ns, extra, cmax);
    ck_assert_msg(waits <= wmax, "%s %s: %lld host waits for %lld steps "
                  "(%lld dropped or left; bound %lld)", fname(), dname(dt),
                  waits, ns, extra, wmax);
    if (form == 2) {
        long long rec = 7 + 3 * (((long long)m + 255) / 256),
                  kmax = n < m ? n : m,
                  bmax = (long long)qru_test_elsize(dt) *
                         (2LL * m + 8 + (ns + 2 + 2 * extra) * rec +
                          extra * kmax);
        ck_assert_msg(d2h <= bmax, "%s %s: %lld bytes to the host for %lld "
                      "steps (%lld dropped or left; bound %lld)", fname(),
                      dname(dt), d2h, ns, extra, bmax);
    }
}

/* qru_lars on X, y (rounded to dt by the caller) */
static path run_lars(qru_dtype dt, int n, int m, const double *X,
                     const double *y, int lasso, int positive, int max_iter,
                     double alpha_min)
{
    qru_matrix *Xd = upload(dt, n, m, X), *yd = upload(dt, n, 1, y);
    qru_matrix *cd = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, max_iter + 1, 0, &cd), 0);
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LARS_GRAM, form),
                     0);
    path p = {0};
    int kmax = n < m ? n : m;
    p.alphas = dmat(max_iter + 1, 1);
    p.active = malloc(sizeof(int) * (size_t)kmax);
    qru_context_stats s0, s1;
    ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
    p.st = qru_lars(ctx, Xd, yd, lasso, positive, max_iter, alpha_min,
                    p.alphas, p.active, cd, &p.nsteps, &p.info);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
    ck_assert_msg(p.st == 0, "%s: qru_lars status %d (%s)", dname(dt), p.st,
                  qru_last_error(ctx));
    p.calls = s1.calls - s0.calls;
    if (form != 0) { /* (auto: whichever form it takes) */
        check_work(dt, &p, n, m, p.calls, s1.host_waits - s0.host_waits,
                   s1.bytes_d2h - s0.bytes_d2h);
        ck_assert_int_eq(p.info.form, form);
    }
    double *c = fetch(cd);
    p.coefs = c;
    p.na = p.info.active;
    ck_assert_int_eq(p.info.iterations, p.nsteps);
    for (int i = 0; i < kmax; ++i)
        ck_assert_msg((i < p.na) == (p.active[i] >= 0),
                      "active[%d] = %d with %d active", i, p.active[i], p.na);
    qru_matrix_destroy(Xd);
    qru_matrix_destroy(yd);
    qru_matrix_destroy(cd);
    return p;
}

/* the 2-norm condition number of the columns act[0 .. k-1] of X */
static double cond_cols(int n, const double *X, const int *act, int k)
{
    if (k == 0)
        return 1.0;
    double *A = dmat(n, k), *sv = dmat(k, 1);
    for (int i = 0; i < k; ++i)
        memcpy(A + (size_t)i * n, X + (size_t)act[i] * n,
               sizeof(double) * (size_t)n);
    ck_assert_int_eq(LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', n, k, A, n, sv,
                                    NULL, 1, NULL, 1), 0);
    double c = sv[k - 1] > 0 ? sv[0] / sv[k - 1] : 1e300;
    free(A);
    free(sv);
    return c;
}

/* The Lasso's optimality at each knot t (coefficients b, alpha):
 * X'(y - X b) / n = alpha sign(b_j) where b_j != 0, |.| <= alpha where
 * b_j = 0, within sc.  positive (the Lasso with b >= 0, whose conditions
 * are b_j >= 0, c_j = alpha where b_j > 0, c_j <= alpha where b_j = 0):
 * every b_j >= 0 exactly, and c_j <= alpha (no lower bound) where b_j =
 * 0.  The problem is convex, so the conditions hold at each knot iff
 * its coefficients solve it: a check independent of the reference. */
static void check_lasso_kkt(qru_dtype dt, int n, int m, const double *X,
                            const double *y, const path *p, double cnd,
                            int positive, const char *tag)
{
    double *r = dmat(n, 1), *c = dmat(m, 1);
    double xn = cblas_dnrm2(n * m, X, 1), yn = cblas_dnrm2(n, y, 1);
    for (int t = 0; t <= p->nsteps; ++t) {
        const double *b = p->coefs + (size_t)t * m;
        memcpy(r, y, sizeof(double) * (size_t)n);
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, -1.0, X, n, b, 1, 1.0,
                    r, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0 / n, X, n, r, 1, 0.0,
                    c, 1);
        double a = p->alphas[t];
        double sc = QRU_TEST_THRESHOLD * qru_test_eps(dt) * cnd * (t + 1) *
                    xn * (yn + xn * cblas_dnrm2(m, b, 1)) / n;
        for (int j = 0; j < m; ++j) {
            if (positive)
                ck_assert_msg(b[j] >= 0.0, "%s knot %d: positive, b(%d) = "
                              "%g", tag, t, j, b[j]);
            if (b[j] != 0.0 && fabs(b[j]) > sc)
                ck_assert_msg(fabs(c[j] - a * (b[j] > 0 ? 1 : -1)) <= sc,
                              "%s knot %d: b(%d) = %g, c = %g, alpha %g "
                              "(scale %g)", tag, t, j, b[j], c[j], a, sc);
            else
                ck_assert_msg((positive ? c[j] : fabs(c[j])) <= a + sc,
                              "%s knot %d: b(%d) = 0, c = %g > alpha %g",
                              tag, t, j, c[j], a);
        }
    }
    free(r);
    free(c);
}

/* Duplicate columns: a copy of an active column ties with the column
 * that enters (exactly, in exact arithmetic), so which of them is picked
 * first (the copy is then dropped with its correlation set to 0, as
 * scikit-learn's) is rounding: the path is then held to the reference's
 * on the common prefix only (any length), and to its invariants. */
static int float_any_prefix;

/* The solver's path against the reference's; returns the steps
 * compared. */
static int compare(qru_dtype dt, int n, int m, const double *X,
                   const double *y, const path *q, const path *r,
                   const char *tag)
{
    int dbl = dt == QRU_DOUBLE && !float_any_prefix, steps = r->nsteps;
    if (dbl) {
        ck_assert_msg(q->nsteps == r->nsteps, "%s: %d steps, reference %d",
                      tag, q->nsteps, r->nsteps);
        ck_assert_msg(q->na == r->na, "%s: %d active, reference %d", tag,
                      q->na, r->na);
        for (int i = 0; i < r->na; ++i)
            ck_assert_msg(q->active[i] == r->active[i],
                          "%s: active[%d] = %d, reference %d", tag, i,
                          q->active[i], r->active[i]);
    } else if (q->nsteps < steps) {
        steps = q->nsteps;
    }
    double cnd = cond_cols(n, X, r->active, r->na);
    if (cnd < 1.0)
        cnd = 1.0;
    double xn = cblas_dnrm2(n * m, X, 1), yn = cblas_dnrm2(n, y, 1);
    for (int t = 0; t <= steps; ++t) {
        /* (sqrt(m): the active sets before the last may be worse
         * conditioned than it) */
        double sc = QRU_TEST_THRESHOLD * qru_test_eps(dt) * cnd * (t + 1) *
                    sqrt((double)m);
        double ea = fabs(q->alphas[t] - r->alphas[t]);
        const double *a = q->coefs + (size_t)t * m,
                     *b = r->coefs + (size_t)t * m;
        double d = 0.0;
        for (int j = 0; j < m; ++j)
            d += (a[j] - b[j]) * (a[j] - b[j]);
        double bn = cblas_dnrm2(m, b, 1);
        int ok = ea <= sc * xn * yn / n && sqrt(d) <= sc * (bn + yn / xn);
        if (!dbl && !ok) { /* float: the common prefix ends here */
            steps = t - 1;
            break;
        }
        ck_assert_msg(ea <= sc * xn * yn / n, "%s step %d: alpha %.17g, "
                      "reference %.17g", tag, t, q->alphas[t], r->alphas[t]);
        ck_assert_msg(sqrt(d) <= sc * (bn + yn / xn),
                      "%s step %d: ||b - bref|| = %g, ||bref|| %g (scale "
                      "%g)", tag, t, sqrt(d), bn, sc);
    }
    if (!dbl) {
        /* float's path must follow the reference while float resolves
         * the correlations: the steps with alpha above 1e4 eps ||X||_F
         * ||y|| / n */
        double lim = 1e4 * qru_test_eps(dt) * xn * yn / n;
        int need = 0;
        while (!float_any_prefix && need < r->nsteps && r->alphas[need + 1] > lim)
            ++need;
        ck_assert_msg(steps >= need, "%s: the float path follows the "
                      "reference for %d of %d steps (%d needed)", tag, steps,
                      r->nsteps, need);
    }
    return steps;
}

/* ---- the problems ---------------------------------------------------------- */


/* the methods: a case's variant v */
enum { LAR = 0, LASSO = 1, POSITIVE = 2 /* the Lasso with b >= 0 */ };

static const char *mname(int method)
{
    return method == LAR ? "lar" : method == LASSO ? "lasso" : "positive";
}

/* one path of the method (LAR, LASSO, POSITIVE): solver and reference
 * compared; returns the solver's path (ref: the reference's, when
 * wanted) */
static path run_case(const prob *p, int method, int max_iter,
                     double alpha_min, path *ref, int kkt, const char *what)
{
    char tag[160];
    int lasso = method != LAR, positive = method == POSITIVE;
    snprintf(tag, sizeof tag, "%s %s %s %s %d x %d", fname(), dname(p->dt),
             mname(method), what, p->n, p->m);
    path q = run_lars(p->dt, p->n, p->m, p->A, p->b, lasso, positive,
                      max_iter, alpha_min);
    path r = ref_lars(p->n, p->m, p->A, p->b, lasso, positive, max_iter,
                      alpha_min, p->dt == QRU_DOUBLE ? 1e15 : 1e6);
    compare(p->dt, p->n, p->m, p->A, p->b, &q, &r, tag);
    if (lasso && kkt) {
        double cnd = cond_cols(p->n, p->A, r.active, r.na);
        check_lasso_kkt(p->dt, p->n, p->m, p->A, p->b, &q, cnd, positive,
                        tag);
    }
    /* Lasso: the alphas decrease (LAR's may grow after a sign change) */
    for (int t = 1; lasso && t < q.nsteps; ++t)
        ck_assert_msg(q.alphas[t] <= q.alphas[t - 1] * (1 + 1e-6),
                      "%s: alpha %d = %g > alpha %d = %g", tag, t,
                      q.alphas[t], t - 1, q.alphas[t - 1]);
    if (ref)
        *ref = r;
    else
        path_free(&r);
    return q;
}

/* a variable left the path: nonzero at a step, zero at the next */
static int path_drops(const path *p, int m)
{
    int d = 0;
    for (int t = 1; t < p->nsteps; ++t)
        for (int j = 0; j < m; ++j)
            d += p->coefs[(size_t)t * m + j] != 0.0 &&
                 p->coefs[(size_t)(t + 1) * m + j] == 0.0;
    return d;
}

/* ---- the cases: c_<name>(p, v, seed), v the case's variant ----------------- */

/* random problems, LAR (v = 0), Lasso (v = 1) and the Lasso with
 * b >= 0 (v = 2) */
static void c_random(prob *p, int v, unsigned *seed)
{
    (void)seed;
    path q = run_case(p, v, 500, 0.0, NULL, 1, "random");
    int kmax = p->n < p->m ? p->n : p->m;
    if (p->dt == QRU_DOUBLE && (p->n >= p->m || v != LAR))
        ck_assert_int_eq(q.info.dropped, 0); /* independent columns */
    if (v == POSITIVE) {
        /* the path ends at the non-negative least-squares solution
         * (alpha 0: the last knot's conditions, checked, are NNLS's) or
         * with kmax columns active; about half the columns enter */
        ck_assert_msg(q.na >= kmax / 4 && q.nsteps >= q.na,
                      "random: %d steps, %d active", q.nsteps, q.na);
        if (p->dt == QRU_DOUBLE)
            ck_assert_msg(q.na == kmax ||
                              q.alphas[q.nsteps] <= 1e-9 * q.alphas[0],
                          "random: the positive path ends at alpha %g (%g "
                          "at the start) with %d of %d active",
                          q.alphas[q.nsteps], q.alphas[0], q.na, kmax);
    } else {
        /* (float's Lasso may end early: alpha grows once rounding
         * dominates the correlations, as scikit-learn's in float32) */
        ck_assert_msg(q.na >= (p->dt == QRU_DOUBLE ? kmax - 2 : kmax / 2) &&
                          q.nsteps >= q.na,
                      "random: %d steps, %d active", q.nsteps, q.na);
    }
    path_free(&q);
}

/* positive: y = x0 - 2 x1 + 0.1 e.  The Lasso's first column is x1 (the
 * largest |c|, negative) and its path has a negative coefficient; the
 * positive path's first is x0 (the largest c), x1 (c < 0 throughout)
 * never enters, no coefficient is below 0 (and the knots' conditions
 * hold: run_case) */
static void c_sign(prob *p, int v, unsigned *seed)
{
    (void)v;
    int n = p->n, m = p->m;
    prob e = prob_rand(p->dt, n, 1, seed);
    for (int i = 0; i < n; ++i)
        p->b[i] = p->A[i] - 2.0 * p->A[i + n] + 0.1 * e.b[i];
    prob_round(p);
    path l = run_case(p, LASSO, 500, 0.0, NULL, 1, "sign");
    path q = run_case(p, POSITIVE, 500, 0.0, NULL, 1, "sign");
    ck_assert_int_eq(l.active[0], 1);
    ck_assert_int_eq(q.active[0], 0);
    double lmin = 0.0;
    for (size_t i = 0; i < (size_t)m * (l.nsteps + 1); ++i)
        lmin = fmin(lmin, l.coefs[i]);
    ck_assert_msg(lmin < -1.0, "the Lasso path's least coefficient %g",
                  lmin);
    for (int t = 0; t <= q.nsteps; ++t) {
        ck_assert(q.coefs[(size_t)t * m + 1] == 0.0);
        for (int j = 0; j < m; ++j)
            ck_assert(q.coefs[(size_t)t * m + j] >= 0.0);
    }
    for (int i = 0; i < q.na; ++i)
        ck_assert(q.active[i] != 1);
    path_free(&l);
    path_free(&q);
    prob_free(&e);
}

/* positive, every correlation below 0 (X >= 0, y <= 0): no step, alpha
 * alpha_min, the coefficients 0; the Lasso on the same data takes steps */
static void c_negative(prob *p, int v, unsigned *seed)
{
    (void)v;
    (void)seed;
    int n = p->n, m = p->m;
    for (size_t i = 0; i < (size_t)n * m; ++i)
        p->A[i] = fabs(p->A[i]) + 0.01;
    for (int i = 0; i < n; ++i)
        p->b[i] = -fabs(p->b[i]) - 0.01;
    prob_round(p);
    for (int k = 0; k < 2; ++k) {
        double amin = k ? 0.125 : 0.0;
        path q = run_case(p, POSITIVE, 500, amin, NULL, 1, "c < 0");
        ck_assert_int_eq(q.nsteps, 0);
        ck_assert_int_eq(q.na, 0);
        ck_assert(q.alphas[0] == amin);
        for (int j = 0; j < m; ++j)
            ck_assert(q.coefs[j] == 0.0);
        path_free(&q);
    }
    path l = run_case(p, LASSO, 500, 0.0, NULL, 1, "c < 0");
    ck_assert(l.nsteps > 0 && l.alphas[0] > 0.0);
    path_free(&l);
}

/* y = X(:, 0:2) [1 1 -0.4] + a little: column 2 (= 0.6 (x0 + x1) + 0.05
 * e) enters first, its coefficient then crosses zero: the Lasso removes
 * it (checked), LAR flips its sign */
static void c_drop(prob *p, int v, unsigned *seed)
{
    int n = p->n, m = p->m;
    prob e = prob_rand(p->dt, n, 1, seed);
    double *x0 = p->A, *x1 = p->A + n, *x2 = p->A + 2 * (size_t)n;
    for (int j = 3; j < m; ++j)
        cblas_dscal(n, 0.3, p->A + (size_t)j * n, 1);
    for (int i = 0; i < n; ++i) {
        x2[i] = 0.6 * (x0[i] + x1[i]) + 0.05 * e.b[i];
        p->b[i] = x0[i] + x1[i] - 0.02 * e.b[i] + 0.01 * p->b[i];
    }
    prob_round(p);
    path r;
    path q = run_case(p, v, 500, 0.0, &r, 1, "drop");
    if (v != LAR) {
        ck_assert_msg(path_drops(&r, m) > 0, "reference: no variable left "
                      "the Lasso path");
        if (p->dt == QRU_DOUBLE)
            ck_assert_msg(path_drops(&q, m) > 0, "no variable left the "
                          "Lasso path");
    }
    path_free(&q);
    path_free(&r);
    prob_free(&e);
}

/* max_iter small: the prefix of the full path */
static void c_max_iter(prob *p, int v, unsigned *seed)
{
    (void)seed;
    int m = p->m;
    path full = run_case(p, v, 500, 0.0, NULL, 1, "full");
    for (int cap = 0; cap <= 3; ++cap) {
        path q = run_case(p, v, cap, 0.0, NULL, 1, "max_iter");
        ck_assert_int_eq(q.nsteps, cap);
        for (int t = 0; t <= cap; ++t) {
            ck_assert(q.alphas[t] == full.alphas[t]);
            ck_assert(memcmp(q.coefs + (size_t)t * m,
                             full.coefs + (size_t)t * m,
                             sizeof(double) * m) == 0);
        }
        path_free(&q);
    }
    path_free(&full);
}

/* alpha_min between knots 2 and 3: 3 steps, alphas[3] = alpha_min, the
 * last coefficients interpolated */
static void c_alpha_min(prob *p, int v, unsigned *seed)
{
    path full = run_case(p, v, 500, 0.0, NULL, 1, "full");
    int m = p->m;
    (void)seed;
    ck_assert(full.nsteps > 4);
    double amin = 0.5 * (full.alphas[2] + full.alphas[3]);
    path q = run_case(p, v, 500, amin, NULL, 1, "alpha_min");
    ck_assert_int_eq(q.nsteps, 3);
    ck_assert(q.alphas[3] == amin);
    double ss = (full.alphas[2] - amin) / (full.alphas[2] - full.alphas[3]);
    for (int j = 0; j < m; ++j) {
        double b2 = full.coefs[2 * (size_t)m + j],
               b3 = full.coefs[3 * (size_t)m + j];
        ck_assert(fabs(q.coefs[3 * (size_t)m + j] - (b2 + ss * (b3 - b2))) <=
                  1e-5 * (fabs(b2) + fabs(b3) + 1e-30));
    }
    /* alpha_min above the first alpha: no step */
    path z = run_case(p, v, 500, full.alphas[0] * 2, NULL, 1, "alpha_min");
    ck_assert_int_eq(z.nsteps, 0);
    ck_assert(z.alphas[0] == full.alphas[0] * 2);
    path_free(&z);
    path_free(&q);
    path_free(&full);
}

/* y = 0: alpha 0, no step, no active column, coefficients 0 */
static void c_zero(prob *p, int v, unsigned *seed)
{
    (void)seed;
    memset(p->b, 0, sizeof(double) * (size_t)p->n);
    path q = run_case(p, v, 500, 0.0, NULL, 1, "y = 0");
    ck_assert_int_eq(q.nsteps, 0);
    ck_assert_int_eq(q.na, 0);
    ck_assert(q.alphas[0] == 0.0);
    for (int j = 0; j < p->m; ++j)
        ck_assert(q.coefs[j] == 0.0);
    ck_assert(q.info.rnorm == 0.0);
    path_free(&q);
}

/* duplicate columns (1 = 4, 6 = 7 = 9) correlated with y: exact ties; a
 * second copy is degenerate and never active */
static void c_duplicates(prob *p, int v, unsigned *seed)
{
    (void)seed;
    int n = p->n;
    double *X = p->A;
    memcpy(X + 4 * (size_t)n, X + 1 * (size_t)n, sizeof(double) * n);
    memcpy(X + 7 * (size_t)n, X + 6 * (size_t)n, sizeof(double) * n);
    memcpy(X + 9 * (size_t)n, X + 6 * (size_t)n, sizeof(double) * n);
    for (int i = 0; i < n; ++i)
        p->b[i] = 0.3 * p->b[i] + X[i + n] + 0.8 * X[i + 6 * (size_t)n];
    prob_round(p);
    float_any_prefix = 1;
    path q = run_case(p, v, 500, 0.0, NULL, 0, "duplicates");
    float_any_prefix = 0;
    int c1 = 0, c6 = 0;
    for (int i = 0; i < q.na; ++i) {
        c1 += q.active[i] == 1 || q.active[i] == 4;
        c6 += q.active[i] == 6 || q.active[i] == 7 || q.active[i] == 9;
    }
    ck_assert_msg(c1 == 1 && c6 == 1, "copies active: %d of 1, %d of 6", c1,
                  c6);
    /* a copy is tried and dropped for good (scikit-learn warns); in
     * float, rounding may keep every copy from being picked, and so may
     * the Gram form's exact ties (a copy's correlation with a direction
     * is G's equal column times w: its active twin's, to the bit) */
    ck_assert_msg(q.info.dropped >= (p->dt == QRU_DOUBLE && form == 1),
                  "%s %s %s: %d dropped", fname(), dname(p->dt), mname(v),
                  q.info.dropped);
    /* the first of the tied copies enters (no column has entered yet:
     * the lowest index) */
    ck_assert_msg(q.active[0] == 1 || q.active[0] == 6, "active[0] = %d",
                  q.active[0]);
    path_free(&q);
}

/* auto (QRU_TUNE_LARS_GRAM 0) on the duplicate columns of c_duplicates:
 * its path agrees with the reference (and, in double, the Lasso's
 * conditions hold);
 * where the cost model takes the Gram form and a copy is dropped as
 * degenerate, the path runs again from the start in the thin form, so a
 * path auto reports in the thin form (info.form 1) is the thin form's,
 * bit for bit.  In double on the CPU backend the model takes the Gram
 * form at this size and a copy is tried, so there the path must come
 * back in the thin form with the dropped Gram start in its calls. */
static void c_auto(prob *p, int v, unsigned *seed)
{
    (void)seed;
    int n = p->n, m = p->m, keep = form;
    double *X = p->A;
    memcpy(X + 4 * (size_t)n, X + 1 * (size_t)n, sizeof(double) * n);
    memcpy(X + 7 * (size_t)n, X + 6 * (size_t)n, sizeof(double) * n);
    for (int i = 0; i < n; ++i)
        p->b[i] = 0.3 * p->b[i] + X[i + n] + 0.8 * X[i + 6 * (size_t)n];
    prob_round(p);
    int lasso = v != LAR, positive = v == POSITIVE;
    form = 1;
    path t = run_lars(p->dt, n, m, X, p->b, lasso, positive, 500, 0.0);
    form = 0;
    float_any_prefix = 1;
    /* (the Lasso's conditions in double: in float the thin form's
     * rounding of the ties, as scikit-learn's rule, can break them) */
    path a = run_case(p, v, 500, 0.0, NULL, p->dt == QRU_DOUBLE, "auto");
    float_any_prefix = 0;
    form = keep;
    ck_assert(a.info.form == 1 || a.info.form == 2);
    if (a.info.form == 1) {
        ck_assert_int_eq(a.nsteps, t.nsteps);
        ck_assert_int_eq(a.na, t.na);
        ck_assert_int_eq(a.info.dropped, t.info.dropped);
        ck_assert(memcmp(a.alphas, t.alphas,
                         sizeof(double) * ((size_t)t.nsteps + 1)) == 0);
        ck_assert(memcmp(a.coefs, t.coefs,
                         sizeof(double) * (size_t)m *
                             ((size_t)t.nsteps + 1)) == 0);
        ck_assert(memcmp(a.active, t.active, sizeof(int) * (size_t)t.na) ==
                  0);
    }
    if (p->dt == QRU_DOUBLE && qru_context_backend(ctx) == QRU_BACKEND_CPU)
        ck_assert_msg(a.info.form == 1 && a.calls > t.calls,
                      "%s: auto's path in form %d with %lld calls, the thin "
                      "form's %lld: no Gram start was dropped", mname(v),
                      a.info.form, a.calls, t.calls);
    printf("lars auto %s %s: form %d, %lld calls; thin form %lld\n",
           dname(p->dt), mname(v), a.info.form, a.calls, t.calls);
    path_free(&a);
    path_free(&t);
}

/* Column scales beyond 1 / eps: column 0 scaled by 1e20 (float: 1e9),
 * column 1 a copy of it to rounding, y = the others' sum + noise + a
 * multiple of column 0.  Column 0 enters first; its copy is degenerate,
 * dropped (info.dropped) and never active; the others, of norm about 3,
 * all enter (a rank rule relative to the largest column norm would
 * refuse them), and the last knot is the least-squares fit on the
 * active columns (LAPACKE_dgels) */
static void c_scales(prob *p, int v, unsigned *seed)
{
    (void)seed;
    int n = p->n, m = p->m;
    double big = p->dt == QRU_DOUBLE ? 1e20 : 1e9;
    for (int i = 0; i < n; ++i) {
        p->A[i] *= big;
        p->A[i + n] = p->A[i] * (1.0 + 1e-3 * qru_test_eps(p->dt) *
                                           p->A[i + n]);
        double s = 0.0;
        for (int j = 2; j < m; ++j)
            s += p->A[i + (size_t)j * n];
        p->b[i] = s + 0.1 * p->b[i] + 3.0 * p->A[i] / big;
    }
    prob_round(p);
    /* (the copy's correlation, rounding at 1e20's scale, comes back after
     * each drop: which step tries it again depends on that rounding, so
     * the reference is followed on the common prefix) */
    float_any_prefix = 1;
    path q = run_case(p, v, 500, 0.0, NULL, 0, "scales");
    float_any_prefix = 0;
    /* (the Gram form's copy ties with column 0 to rounding in G, and in
     * float the copy rounds to column 0 (to an ulp): it may never be
     * tried) */
    ck_assert_msg(q.info.dropped >= (p->dt == QRU_DOUBLE && form == 1),
                  "%s %s: %d dropped",
                  fname(), dname(p->dt), q.info.dropped);
    ck_assert_msg(q.na == m - 1 && q.active[0] == 0, "%s: %d active, the "
                  "first %d", dname(p->dt), q.na, q.active[0]);
    for (int i = 0; i < q.na; ++i)
        ck_assert(q.active[i] != 1);
    double *A = dmat(n, m - 1), *r = dmat(n, 1);
    for (int i = 0; i < m - 1; ++i)
        memcpy(A + (size_t)i * n, p->A + (size_t)q.active[i] * n,
               sizeof(double) * n);
    memcpy(r, p->b, sizeof(double) * n);
    ck_assert_int_eq(LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, m - 1, 1, A, n,
                                   r, n), 0);
    /* r := the fit's residual minus the path's last residual */
    const double *b = q.coefs + (size_t)q.nsteps * m;
    double *d = dmat(n, 1);
    for (int i = 0; i < n; ++i) {
        double fit = 0.0, ls = 0.0;
        for (int k = 0; k < m - 1; ++k) {
            fit += p->A[i + (size_t)q.active[k] * n] * b[q.active[k]];
            ls += p->A[i + (size_t)q.active[k] * n] * r[k];
        }
        d[i] = fit - ls;
    }
    double yn = cblas_dnrm2(n, p->b, 1), dn = cblas_dnrm2(n, d, 1);
    ck_assert_msg(dn <= 1e3 * qru_test_eps(p->dt) * big * yn / 3.0 ||
                      dn <= 1e-6 * yn,
                  "%s: ||X (b - b_ls)|| = %g, ||y|| = %g", dname(p->dt), dn,
                  yn);
    free(A);
    free(r);
    free(d);
    path_free(&q);
}

/* host waits and transfers of a path */
static void c_waits(prob *p, int v, unsigned *seed)
{
    (void)seed;
    qru_dtype dt = p->dt;
    int n = p->n, m = p->m;
    qru_matrix *Xd = upload(dt, n, m, p->A), *yd = upload(dt, n, 1, p->b);
    qru_matrix *cd = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, 501, 0, &cd), 0);
    double *al = dmat(501, 1);
    int *act = malloc(sizeof(int) * (size_t)m), ns = 0;
    qru_context_stats s0, s1;
    qru_solver_info info;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LARS_GRAM, form),
                     0);
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
    ck_assert_int_eq(qru_lars(ctx, Xd, yd, v != LAR, v == POSITIVE, 500, 0.0,
                              al, act, cd, &ns, &info), 0);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
    long long waits = s1.host_waits - s0.host_waits;
    long long d2h = s1.bytes_d2h - s0.bytes_d2h;
    ck_assert_msg(waits <= 8 + 3LL * ns, "%s: %lld host waits for %d steps",
                  dname(dt), waits, ns);
    long long es = (long long)qru_test_elsize(dt);
    ck_assert_msg(d2h <= es * (ns + 3) * 4 * (long long)m,
                  "%s: %lld bytes to the host for %d steps", dname(dt), d2h,
                  ns);
    if (form == 2) { /* one wait a step, its record and pick */
        long long extra = info.dropped +
                          (ns > info.active ? ns - info.active : 0);
        long long rec = 7 + 3 * (((long long)m + 255) / 256);
        ck_assert_msg(waits <= 7 + ns + 3 * extra, "gram %s: %lld host "
                      "waits for %d steps (%lld dropped or left)", dname(dt),
                      waits, ns, extra);
        ck_assert_msg(d2h <= es * (2LL * m + (ns + 2 + 2 * extra) * rec +
                                   extra * (long long)m),
                      "gram %s: %lld bytes to the host for %d steps",
                      dname(dt), d2h, ns);
    }
    /* the cost model's choice (auto) runs one of the forms: in double
     * the same steps */
    int ns2 = -1;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LARS_GRAM, 0),
                     0);
    ck_assert_int_eq(qru_lars(ctx, Xd, yd, v != LAR, v == POSITIVE, 500, 0.0,
                              al, act, cd, &ns2, NULL), 0);
    ck_assert(dt != QRU_DOUBLE || ns2 == ns);
    printf("lars %s %s %s %d x %d: %d steps, %d active, %lld host waits, %lld "
           "bytes to the host, %lld calls\n", fname(), dname(dt), mname(v),
           n, m, ns, info.active, waits, d2h, s1.calls - s0.calls);
    qru_matrix_destroy(Xd);
    qru_matrix_destroy(yd);
    qru_matrix_destroy(cd);
    free(al);
    free(act);
}

/* bad arguments: -i in argument order, nothing written, the message */
static void c_bad_args(prob *pp, int v, unsigned *seed)
{
    prob p = *pp;
    qru_dtype dt = p.dt,
              other = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
    (void)v;
    (void)seed;
    int n = p.n, m = p.m, mi = 5;
    double *sc = dmat(m + 1, mi + 1); /* (cr below reads m + 1 rows) */
    for (int i = 0; i < (m + 1) * (mi + 1); ++i)
        sc[i] = 100.0 + i;
    qru_matrix *Xd = upload(dt, n, m, p.A), *yd = upload(dt, n, 1, p.b);
    qru_matrix *cd = upload(dt, m, mi + 1, sc);
    qru_matrix *y2 = upload(dt, n - 1, 1, p.b), *yw = upload(dt, n, 2, p.A);
    qru_matrix *cs = upload(dt, m, mi, sc), *cr = upload(dt, m + 1, mi + 1,
                                                         sc);
    /* of the other type (NULL where it is not supported: then -9 and -3
     * all the same), of another context */
    qru_matrix *co = upload_in(ctx, other, m, mi + 1, sc),
               *yo = upload_in(ctx, other, n, 1, p.b);
    qru_context *ctx2 = NULL;
    ck_assert_int_eq(qru_context_create(QRU_BACKEND_CPU, &ctx2), 0);
    qru_matrix *X2 = upload_in(ctx2, dt, n, m, p.A);
    /* coefs inside X's memory */
    qru_matrix *cx = qru_test_alias(ctx, Xd, 0, m, mi + 1, m, 0);
    double al[8], sal[8];
    int act[8], sact[8], ns = -7;
    for (int i = 0; i < 8; ++i) {
        al[i] = sal[i] = -5.0 - i;
        act[i] = sact[i] = -9 - i;
    }
    qru_solver_info info = {-7, -7, -7.0, -7, -7};
    struct {
        int expect;
        qru_context *c;
        const qru_matrix *X, *y;
        int lasso, pos, max_iter;
        double amin;
        double *al;
        int *act;
        qru_matrix *cf;
        int *ns;
    } cases[] = {
        {-1, NULL, Xd, yd, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-2, ctx, NULL, yd, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-2, ctx, X2, yd, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-2, ctx, NULL, NULL, 5, 0, -1, NAN, NULL, NULL, NULL, NULL},
        {-3, ctx, Xd, NULL, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-3, ctx, Xd, y2, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-3, ctx, Xd, yw, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-3, ctx, Xd, yo, 1, 0, mi, 0.0, al, act, cd, &ns},
        {-4, ctx, Xd, yd, 2, 0, mi, 0.0, al, act, cd, &ns},
        {-4, ctx, Xd, yd, -1, 0, -1, NAN, NULL, NULL, NULL, NULL},
        {-5, ctx, Xd, yd, 1, 2, mi, 0.0, al, act, cd, &ns},
        {-5, ctx, Xd, yd, 1, -1, mi, 0.0, al, act, cd, &ns},
        {-5, ctx, Xd, yd, 0, 1, mi, 0.0, al, act, cd, &ns}, /* LAR */
        {-5, ctx, Xd, yd, 0, 1, -1, NAN, NULL, NULL, NULL, NULL},
        {-6, ctx, Xd, yd, 0, 0, -1, 0.0, al, act, cd, &ns},
        {-6, ctx, Xd, yd, 0, 0, -1, NAN, NULL, NULL, NULL, NULL},
        {-7, ctx, Xd, yd, 0, 0, mi, NAN, al, act, cd, &ns},
        {-7, ctx, Xd, yd, 0, 0, mi, INFINITY, al, act, cd, &ns},
        {-7, ctx, Xd, yd, 0, 0, mi, -1e-3, al, act, cd, &ns},
        {-8, ctx, Xd, yd, 0, 0, mi, 0.0, NULL, act, cd, &ns},
        {-9, ctx, Xd, yd, 0, 0, mi, 0.0, al, NULL, cd, &ns},
        {-10, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, NULL, &ns},
        {-10, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, cs, &ns},
        {-10, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, cr, &ns},
        {-10, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, co, &ns},
        {-10, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, cx, &ns},
        {-11, ctx, Xd, yd, 0, 0, mi, 0.0, al, act, cd, NULL},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int st = qru_lars(cases[c].c, cases[c].X, cases[c].y, cases[c].lasso,
                          cases[c].pos, cases[c].max_iter, cases[c].amin,
                          cases[c].al, cases[c].act, cases[c].cf, cases[c].ns,
                          &info);
        check_arg_status(cases[c].c, "qru_lars", c, st, cases[c].expect);
        ck_assert_int_eq(info.iterations, -7);
        ck_assert_int_eq(ns, -7);
        ck_assert(memcmp(al, sal, sizeof al) == 0);
        ck_assert(memcmp(act, sact, sizeof act) == 0);
        double *gc = fetch(cd);
        ck_assert_msg(memcmp(gc, sc, sizeof(double) * m * (mi + 1)) == 0,
                      "case %zu: coefs changed", c);
        free(gc);
    }
    /* info may be NULL */
    ck_assert_int_eq(qru_lars(ctx, Xd, yd, 1, 0, mi, 0.0, al, act, cd, &ns,
                              NULL), 0);
    qru_test_alias_free(cx, 0);
    qru_matrix *mats[] = {X2, Xd, yd, cd, y2, yw, cs, cr, co, yo};
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; ++i)
        qru_matrix_destroy(mats[i]);
    qru_context_destroy(ctx2);
    free(sc);
}

/* NaN or Inf in X or y: -2 / -3 whether or not QRU_OPTION_CHECK_FINITE
 * is on (v), the outputs untouched */
static void c_nonfinite(prob *p0, int v, unsigned *seed)
{
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, v),
                     0);
    for (int k = 0; k < 6; ++k) {
        prob p = prob_nonfinite(p0, k, seed);
        qru_dtype dt = p.dt;
        int n = p.n, m = p.m, in_y = k % 2;
        double *sc = dmat(m, 4);
        for (int j = 0; j < 4 * m; ++j)
            sc[j] = 7.0 + j;
        qru_matrix *Xd = upload(dt, n, m, p.A), *yd = upload(dt, n, 1, p.b);
        qru_matrix *cd = upload(dt, m, 4, sc);
        double al[4] = {-1, -1, -1, -1};
        int act[8] = {-3, -3, -3, -3, -3, -3, -3, -3}, ns = -7;
        int st = qru_lars(ctx, Xd, yd, 1, v, 3, 0.0, al, act, cd, &ns, NULL);
        ck_assert_msg(st == -2 - in_y, "%s check=%d %g in %s: status %d",
                      dname(dt), v, (in_y ? p.b[n - 1] : p.A[3 + 2 * n]), in_y ? "y" : "X", st);
        ck_assert(ns == -7 && al[0] == -1 && act[0] == -3);
        double *gc = fetch(cd);
        qru_matrix_destroy(cd);
        ck_assert(memcmp(gc, sc, sizeof(double) * 4 * m) == 0);
        free(sc);
        free(gc);
        qru_matrix_destroy(Xd);
        qru_matrix_destroy(yd);
        prob_free(&p);
    }
}

/* the cases: variant v is the method (LAR, LASSO, POSITIVE) */
static const solver_case lcases[] = {
    {c_random, 200, 50, LAR},    /* tall */
    {c_random, 200, 50, LASSO},
    {c_random, 200, 50, POSITIVE},
    {c_random, 40, 100, LAR},    /* wide */
    {c_random, 40, 100, LASSO},
    {c_random, 40, 100, POSITIVE},
    {c_random, 60, 60, LASSO},   /* square: a long Lasso path */
    {c_random, 60, 60, POSITIVE},
    {c_drop, 100, 20, LASSO},    /* a variable leaves */
    {c_drop, 100, 20, POSITIVE},
    {c_drop, 100, 20, LAR},      /* LAR: its sign flips */
    {c_sign, 100, 20, POSITIVE}, /* a negative correlation never enters */
    {c_negative, 40, 12, POSITIVE}, /* no positive correlation: no step */
    {c_max_iter, 80, 30, LAR},
    {c_max_iter, 80, 30, LASSO},
    {c_max_iter, 80, 30, POSITIVE},
    {c_alpha_min, 80, 30, LASSO},
    {c_alpha_min, 80, 30, POSITIVE},
    {c_alpha_min, 30, 80, LAR},
    {c_zero, 30, 10, LAR},       /* y = 0 */
    {c_zero, 30, 10, LASSO},
    {c_zero, 30, 10, POSITIVE},
    {c_duplicates, 60, 15, LAR}, /* exact ties */
    {c_duplicates, 60, 15, LASSO},
    {c_duplicates, 60, 15, POSITIVE},
    {c_scales, 30, 8, LASSO},    /* scales 1e20 apart: a degenerate copy */
    {c_scales, 30, 8, LAR},
    {c_scales, 30, 8, POSITIVE},
    {c_waits, 300, 60, LASSO},   /* host waits and transfers */
    {c_waits, 300, 60, POSITIVE},
    {c_bad_args, 20, 8, 0},
    {c_nonfinite, 15, 6, 0},   /* v: QRU_OPTION_CHECK_FINITE, positive */
    {c_nonfinite, 15, 6, 1},
    {c_auto, 300, 60, LAR},      /* auto: the thin form after a copy */
    {c_auto, 300, 60, LASSO},
};
#define NCASES ((int)(sizeof lcases / sizeof lcases[0]))

/* _i: the case (_i / 2) % NCASES in the element type _i % 2, in the thin
 * QR form, then (_i >= 2 NCASES) in the Gram form */
START_TEST(test_case)
{
    form = _i >= 2 * NCASES ? 2 : 1;
    solver_case_run(lcases, _i % (2 * NCASES), 2000u);
}
END_TEST

int main(void)
{
    return solver_check_main("lars", test_case, 2 * NCASES);
}
