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
    /* The fit is done for b = ppm - mean(ppm) (mean added back to c0 in the
     * output): the residual is then a far larger fraction of ||b||, so the
     * residual norm is computed to more relative accuracy. */
    double t0, tc, h, ybar;
    if (series_axis_for(S, "fit", m, &t0, &tc, &h, &ybar))
        return DEMO_ERROR;

    double *A = malloc((size_t)n * m * sizeof *A);
    double *b = malloc((size_t)n * sizeof *b);
    double *Aref = malloc((size_t)n * m * sizeof *Aref);
    double *bref = malloc((size_t)n * sizeof *bref);
    double x[FIT_M], xref[FIT_M];
    qru_matrix *Am = NULL, *bm = NULL, *xm = NULL;
    qru_lsq *f = NULL;
    if (!A || !b || !Aref || !bref) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }
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
    double res_ref, normA2, kappa;
    if (ls_reference(n, m, A, n, b, Aref, bref, xref, &res_ref, &normA2,
                     &kappa))
        goto done;
    double normAF = nrm2(n * m, A), normb = nrm2(n, b);

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
           (x[1] - 2.0 * x[2]) / h, S->t[0]); /* s = -1 there */
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
    int pass = ls_verdict(dt, n, m, x, xref, res, res_ref, normA2, kappa,
                          normAF, normb, "the same A and b");
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
