/* qru demo --part select: which terms explain the series, by orthogonal
 * matching pursuit (qru_omp) on a dictionary of candidate columns. */
#include "cli.h"

/* ---- part "select" ----------------------------------------------------------
 *
 * The dictionary: the polynomial terms 1, s, s^2, s^3 (s as in the fit part:
 * the time mapped onto [-1, 1]) and a sine and a cosine for each of
 * SEL_NF frequencies (cycles a year), the annual cycle and its harmonics
 * among periods with no physical reason to be there.  Orthogonal matching
 * pursuit picks SEL_K columns one at a time, each the one most correlated
 * with the residual, refitting by least squares on the chosen columns: the
 * library holds them as a thin QR factorisation grown by one column a step
 * (qru_lsq_add_cols), never refactorised.  The check: the coefficients and
 * the residual against LAPACKE_dgels on the chosen columns, within the fit
 * part's tolerance (30 x the first-order bound of least squares).
 */
enum { SEL_NP = 4, SEL_NF = 13, SEL_M = SEL_NP + 2 * SEL_NF, SEL_K = 7 };
static const double sel_freq[SEL_NF] = {0.09, 0.27, 0.5, 0.75, 1.0, 1.3, 1.5,
                                        2.0,  2.5,  3.0, 4.0,  5.0, 6.0};

static void sel_name(int j, char *buf, size_t len)
{
    static const char *const poly[SEL_NP] = {"1", "s", "s^2", "s^3"};
    if (j < SEL_NP)
        snprintf(buf, len, "%s", poly[j]);
    else
        snprintf(buf, len, "%s(2 pi %.2f t)", (j - SEL_NP) % 2 ? "cos" : "sin",
                 sel_freq[(j - SEL_NP) / 2]);
}

int demo_select(const demo_env *env)
{
    const series *S = env->data;
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = S->n, m = SEL_M;
    int rc = DEMO_ERROR, st = 0;

    printf("== select: the terms that explain the series, by orthogonal "
           "matching pursuit ==\n");
    double t0, tc, h, ybar;
    if (series_axis_for(S, "select", m, &t0, &tc, &h, &ybar))
        return DEMO_ERROR;
    double *A = malloc((size_t)n * m * sizeof *A);
    double *b = malloc((size_t)n * sizeof *b);
    double *As = malloc((size_t)n * SEL_K * sizeof *As);
    double *bs = malloc((size_t)n * sizeof *bs);
    double x[SEL_M], xs[SEL_K], xref[SEL_K];
    int support[SEL_K];
    qru_matrix *Am = NULL, *bm = NULL, *xm = NULL;
    if (!A || !b || !As || !bs) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0, s = (t - tc) / h;
        for (int j = 0; j < SEL_NP; j++)
            A[i + (size_t)j * n] = j == 0 ? 1.0 : s * A[i + (size_t)(j - 1) * n];
        for (int f = 0; f < SEL_NF; f++) {
            double w = 2.0 * M_PI * sel_freq[f] * t;
            A[i + (size_t)(SEL_NP + 2 * f) * n] = sin(w);
            A[i + (size_t)(SEL_NP + 2 * f + 1) * n] = cos(w);
        }
        b[i] = S->y[i] - ybar;
    }
    if (dt == QRU_FLOAT) { /* the reference solves the rounded problem */
        for (size_t k = 0; k < (size_t)n * m; k++)
            A[k] = (float)A[k];
        for (int i = 0; i < n; i++)
            b[i] = (float)b[i];
    }

    /* ---- the library: SEL_K steps of the pursuit, timed to the sync */
    qru_solver_info info;
    if ((st = report(upload_new(ctx, dt, n, m, A, &Am), "upload A")) ||
        (st = report(upload_new(ctx, dt, n, 1, b, &bm), "upload b")) ||
        (st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm), "create x")) ||
        (st = report(qru_context_sync(ctx), "qru_context_sync")))
        goto done;
    /* the second of two runs is timed (the first meets the context's
     * first allocations and the device's first kernels) */
    double secs = 0.0;
    for (int run = 0; run < 2 && !st; run++) {
        double w0 = wall_s();
        st = qru_omp(ctx, Am, bm, SEL_K, -1.0, xm, NULL, support, &info);
        if (!st)
            st = qru_context_sync(ctx);
        secs = wall_s() - w0;
    }
    if ((st = report(st, "qru_omp")) ||
        (st = report(download_double(xm, x), "download x")))
        goto done;

    /* ---- the reference: LAPACKE_dgels on the chosen columns */
    for (int j = 0; j < SEL_K; j++) {
        memcpy(As + (size_t)j * n, A + (size_t)support[j] * n,
               (size_t)n * sizeof *A);
        xs[j] = x[support[j]];
    }
    double res_ref, normA2, kappa;
    if (ls_reference(n, SEL_K, As, n, b, A, bs, xref, &res_ref, &normA2,
                     &kappa))
        goto done;
    double normAF = nrm2(n * SEL_K, As), normb = nrm2(n, b);

    const char *dev = qru_context_device_name(ctx);
    printf("backend     %s, device: %s, %s\n",
           qru_backend_name(qru_context_backend(ctx)), dev ? dev : "?",
           precision_name(dt));
    printf("dictionary  %d columns: 1, s, s^2, s^3 and sin, cos(2 pi f t) "
           "for f =", m);
    for (int f = 0; f < SEL_NF; f++)
        printf(" %.2f", sel_freq[f]);
    printf(" a year\n");
    printf("chosen      in order (coefficient, ppm):\n");
    for (int j = 0; j < SEL_K; j++) {
        char name[40];
        sel_name(support[j], name, sizeof name);
        printf("  %d  %-24s %12.5f\n", j + 1, name, xs[j]);
    }
    printf("residual    ||A x - b|| = %.6g ppm, RMS = %.6g ppm\n", info.rnorm,
           info.rnorm / sqrt((double)n));
    printf("speed       %d steps in %.3f ms: %.0f steps a second (each one "
           "column added to the factorisation and X' r formed)\n",
           info.iterations, 1e3 * secs,
           secs > 0.0 ? info.iterations / secs : 0.0);

    /* the fit part's check (demo_fit.c) on the chosen columns */
    int pass = info.iterations == SEL_K &&
               ls_verdict(dt, n, SEL_K, xs, xref, info.rnorm, res_ref, normA2,
                          kappa, normAF, normb, "the chosen columns");
    printf("select      %s\n", pass ? "PASS" : "FAIL");
    rc = pass ? DEMO_PASS : DEMO_FAIL;

done:
    qru_matrix_destroy(xm);
    qru_matrix_destroy(bm);
    qru_matrix_destroy(Am);
    free(bs);
    free(As);
    free(b);
    free(A);
    return rc;
}
