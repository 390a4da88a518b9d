/* qru demo --part fit: the trend and seasonal cycle by least squares. */
#include "cli.h"

/* ---- part "fit": trend + seasonal cycle by least squares ------------------
 *
 * Model, with t = years since the first sample and s = (t - tc) / h the time
 * mapped onto [-1, 1] (tc, h: centre and half-width of the sampled span, so
 * the polynomial columns 1, s, s^2 are O(1) and not nearly parallel):
 *
 *   ppm ~ c0 + c1 s + c2 s^2 + a1 sin(2 pi t) + b1 cos(2 pi t)
 *                            + a2 sin(4 pi t) + b2 cos(4 pi t)
 */
static const char *const fit_names[FIT_M] = {
    "c0  level at mid-span (ppm)", "c1  s (ppm)", "c2  s^2 (ppm)",
    "a1  sin(2 pi t) (ppm)",       "b1  cos(2 pi t) (ppm)",
    "a2  sin(4 pi t) (ppm)",       "b2  cos(4 pi t) (ppm)"};

int demo_fit(const demo_env *env)
{
    const series *S = env->data;
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = S->n, m = FIT_M;
    int rc = DEMO_ERROR, st = 0;

    printf("== fit: least-squares trend + seasonal cycle ==\n");
    if (n < m) {
        fprintf(stderr, "qru: fit needs at least %d samples, the data has %d\n",
                m, n);
        return DEMO_ERROR;
    }
    double t0 = S->t[0], tmin = 0.0, tmax = 0.0;
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0;
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
    }
    double tc = 0.5 * (tmin + tmax), h = 0.5 * (tmax - tmin);
    if (!(h > 0.0)) {
        fprintf(stderr, "qru: fit needs samples at more than one time\n");
        return DEMO_ERROR;
    }

    double *A = malloc((size_t)n * m * sizeof *A);
    double *b = malloc((size_t)n * sizeof *b);
    double *Aref = malloc((size_t)n * m * sizeof *Aref);
    double *bref = malloc((size_t)n * sizeof *bref);
    double x[FIT_M], xref[FIT_M], sv[FIT_M], Rtri[FIT_M * FIT_M];
    qru_matrix *Am = NULL, *bm = NULL, *xm = NULL;
    qru_lsq *f = NULL;
    if (!A || !b || !Aref || !bref) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }
    /* The fit is done for b = ppm - mean(ppm) (mean added back to c0 in the
     * output): the residual is then a far larger fraction of ||b||, so the
     * residual norm is computed to more relative accuracy. */
    double ybar = 0.0;
    for (int i = 0; i < n; i++)
        ybar += S->y[i];
    ybar /= n;
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0, s = (t - tc) / h;
        double w = 2.0 * M_PI * t;
        A[i + 0 * (size_t)n] = 1.0;
        A[i + 1 * (size_t)n] = s;
        A[i + 2 * (size_t)n] = s * s;
        A[i + 3 * (size_t)n] = sin(w);
        A[i + 4 * (size_t)n] = cos(w);
        A[i + 5 * (size_t)n] = sin(2.0 * w);
        A[i + 6 * (size_t)n] = cos(2.0 * w);
        b[i] = S->y[i] - ybar;
    }
    /* In single precision the library sees A and b rounded to float; the
     * reference solves that same rounded problem (in double). */
    if (dt == QRU_FLOAT) {
        for (size_t k = 0; k < (size_t)n * m; k++)
            A[k] = (float)A[k];
        for (int i = 0; i < n; i++)
            b[i] = (float)b[i];
    }

    /* ---- the library: A = QR, d = Q'b, x = R \ d(1:m), res = ||d(m+1:n)|| */
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE; /* Q itself is not needed for solving */
    double res = 0.0;
    if ((st = report(upload_new(ctx, dt, n, m, A, &Am), "upload A")) ||
        (st = report(upload_new(ctx, dt, n, 1, b, &bm), "upload b")) ||
        (st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm), "create x")) ||
        (st = report(qru_lsq_create(ctx, Am, bm, &opt, &f), "qru_lsq_create")) ||
        (st = report(qru_lsq_solve(f, xm), "qru_lsq_solve")) ||
        (st = report(qru_lsq_get_residual_norms(f, &res), "qru_lsq_get_residual_norms")) ||
        (st = report(download_double(xm, x), "download x")))
        goto done;

    /* ---- the reference: LAPACKE_dgels (Householder QR in double) */
    memcpy(Aref, A, (size_t)n * m * sizeof *A);
    memcpy(bref, b, (size_t)n * sizeof *b);
    lapack_int info =
        LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, m, 1, Aref, n, bref, n);
    if (info != 0) {
        fprintf(stderr, "qru: LAPACKE_dgels failed (info %d)\n", (int)info);
        goto done;
    }
    memcpy(xref, bref, m * sizeof *xref);
    double res_ref = nrm2(n - m, bref + m);
    /* kappa_2(A) = kappa_2(R): singular values of dgels' R (m x m) */
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++)
            Rtri[i + j * m] = i <= j ? Aref[i + (size_t)j * n] : 0.0;
    double superb[FIT_M];
    info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', m, m, Rtri, m, sv, NULL,
                          1, NULL, 1, superb);
    if (info != 0 || !(sv[m - 1] > 0.0)) {
        fprintf(stderr, "qru: condition estimate failed (info %d)\n",
                (int)info);
        goto done;
    }
    double normA2 = sv[0], kappa = sv[0] / sv[m - 1];
    double normAF = nrm2(n * m, A), normb = nrm2(n, b);
    double normxref = nrm2(m, xref);

    /* ---- report the fit */
    const char *dev = qru_context_device_name(ctx);
    printf("data        %s\n", S->source);
    printf("            %d samples, %.3f to %.3f\n", n, S->t[0],
           S->t[n - 1]);
    printf("backend     %s, device: %s\n",
           qru_backend_name(qru_context_backend(ctx)), dev ? dev : "?");
    printf("precision   %s\n", precision_name(dt));
    printf("model       ppm ~ c0 + c1 s + c2 s^2 + a1 sin(2 pi t) + b1 cos(2 "
           "pi t)\n"
           "                            + a2 sin(4 pi t) + b2 cos(4 pi t)\n"
           "            t = years since %.3f, s = (t - %.4f) / %.4f in [-1, "
           "1]\n"
           "            fitted to b = ppm - %.4f (the mean; added back to c0)\n",
           t0, tc, h, ybar);
    printf("problem     n = %d rows, m = %d columns, kappa_2(A) = %.3g\n", n, m,
           kappa);
    printf("coefficients\n");
    for (int j = 0; j < m; j++)
        printf("  %-28s %14.6f\n", fit_names[j], x[j] + (j == 0 ? ybar : 0.0));
    double s_last = (S->t[n - 1] - t0 - tc) / h;
    printf("trend       %.4f ppm/year at %.3f (d/dt of the quadratic "
           "part)\n",
           (x[1] + 2.0 * x[2] * s_last) / h, S->t[n - 1]);
    printf("            %.4f ppm/year at %.3f\n",
           (x[1] + 2.0 * x[2] * ((tmin - tc) / h)) / h, S->t[0]);
    printf("seasonal    annual amplitude %.4f ppm, semi-annual %.4f ppm\n",
           hypot(x[3], x[4]), hypot(x[5], x[6]));
    printf("residual    ||A x - b|| = %.6g ppm, RMS = %.6g ppm\n", res,
           res / sqrt((double)n));
    for (int i = 0; env->record && i < n; i++) {
        double model = ybar, trend = ybar;
        for (int j = 0; j < m; j++)
            model += A[i + (size_t)j * n] * x[j];
        for (int j = 0; j < 3; j++)
            trend += A[i + (size_t)j * n] * x[j];
        fig_record("fit", "data", S->t[i], S->y[i]);
        fig_record("fit", "model", S->t[i], model);
        fig_record("fit", "trend", S->t[i], trend);
    }

    /* ---- agreement with the reference, and the verdict
     *
     * Householder QR is backward stable: the computed solution and residual
     * norm are exact for a perturbed problem (A + dA, b + db) with
     * ||dA|| <~ p u ||A||, ||db|| <~ p u ||b||, where u is the unit roundoff
     * of the working precision and p is a modest polynomial in n and m; we
     * take p = max(n,m), which covers the errors seen in practice (they grow
     * like sqrt(n) u or less) but is not a rigorous worst-case constant.
     * First-order perturbation theory for least squares (Higham, Accuracy
     * and Stability of Numerical Algorithms, 2nd ed., Thm 20.1) then gives,
     * with e = p u:
     *
     *   ||x - x_ref|| / ||x_ref|| <= e kappa (2 + (kappa + 1) ||r|| /
     *                                              (||A||_2 ||x_ref||))
     *   | res - res_ref |          <= e (||A||_F ||x_ref|| + ||b||)
     *
     * (the second because min_x ||A x - b|| changes by at most
     * ||dA|| ||x|| + ||db|| under the perturbation).  The reference is
     * computed in double and is itself in error by the same bounds with
     * u = 2^-53, so in double precision the difference can be twice as large;
     * the margin DEMO_THRESHOLD = 30 (the test suite's threshold) absorbs
     * that and the constants.  A result PASSES if both differences are at
     * most DEMO_THRESHOLD times their bound. */
    double e = (n > m ? n : m) * unit_roundoff(dt);
    double dx[FIT_M];
    for (int j = 0; j < m; j++)
        dx[j] = x[j] - xref[j];
    double xerr = nrm2(m, dx) / normxref;
    double rerr_abs = fabs(res - res_ref);
    double xbound =
        e * kappa * (2.0 + (kappa + 1.0) * res_ref / (normA2 * normxref));
    double rbound = e * (normAF * normxref + normb);
    double xtol = DEMO_THRESHOLD * xbound, rtol = DEMO_THRESHOLD * rbound;
    int pass = isfinite(xerr) && isfinite(rerr_abs) && xerr <= xtol &&
               rerr_abs <= rtol;
    printf("check       against LAPACKE_dgels in double on the same A and b\n");
    printf("            ||x - x_ref|| / ||x_ref||   = %.3e   tolerance %.3e "
           "(%.2g x bound)\n",
           xerr, xtol, xerr / xbound);
    printf("            |res - res_ref| / res_ref   = %.3e   tolerance %.3e "
           "(%.2g x bound)\n",
           res_ref > 0.0 ? rerr_abs / res_ref : rerr_abs,
           res_ref > 0.0 ? rtol / res_ref : rtol, rerr_abs / rbound);
    printf("            tolerance = %.0f x first-order bound with "
           "max(n,m) u = %.3e\n",
           DEMO_THRESHOLD, e);
    printf("fit         %s\n", pass ? "PASS" : "FAIL");
    rc = pass ? DEMO_PASS : DEMO_FAIL;

done:
    qru_lsq_destroy(f);
    qru_matrix_destroy(xm);
    qru_matrix_destroy(bm);
    qru_matrix_destroy(Am);
    free(bref);
    free(Aref);
    free(b);
    free(A);
    return rc;
}
