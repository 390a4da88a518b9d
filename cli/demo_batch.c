/* qru demo --part batch: an autoregressive model of each of eleven US
 * macroeconomic series, refitted every quarter as one batch of
 * least-squares problems (qru_lsq_batch). */
#include "cli.h"
#include "macro_data.h"

/* ---- part "batch" -----------------------------------------------------------
 *
 * The data: the quarterly series of data/macrodata.csv (1959Q1 - 2009Q3),
 * embedded at build time; the levels (GDP, consumption, investment,
 * government spending, disposable income, CPI, M1, population) as
 * annualised growth rates z_t = 400 ln(x_t / x_t-1) in percent, the rates
 * (T-bill rate, unemployment, real interest rate) as they are, all from
 * 1959Q2 on.  The file's inflation column is CPI's growth rate as defined
 * here (400 ln(cpi_t / cpi_t-1)), so it is left out: eleven series.
 *
 * The model of each series: AR(BAT_P) with an intercept, z_t = c + a1
 * z_t-1 + ... + ap z_t-p, fitted by least squares on every quarter so far:
 * a growing window.  Each series is one problem of BAT_M = BAT_P + 1
 * unknowns; the eleven are one batch (qru_lsq_batch, Q-less), first
 * factorised on BAT_N0 quarters, then, as each new quarter arrives, its
 * row is added to every problem and every problem is solved, in one call
 * (qru_lsq_batch_add_rows_solve); each fit gives the next quarter's
 * forecast.  The batch has no row removal, so the
 * window grows rather than slides (the window part slides one problem).
 *
 * Timed against the same refits as twelve single Q-less problems
 * (qru_lsq_add_rows and qru_lsq_solve a series), both on the backend in
 * use, in the same run, the uploads of the new rows and the downloads of
 * the coefficients included in both.  The check: every fit of every
 * series, from both paths, against LAPACKE_dgels in double on the same
 * rows (the fit part's tolerance), the last fits' residual norms too.
 */
enum {
    BAT_S = 11,         /* series */
    BAT_P = 4,          /* AR order */
    BAT_M = BAT_P + 1,  /* unknowns: the intercept and p lags */
    BAT_N0 = 40,        /* quarters of the first fit */
    BAT_COLS = 14       /* columns of the file: year, quarter, 12 series */
};

static const char *const bat_name[BAT_S] = {
    "realgdp", "realcons", "realinv", "realgovt", "realdpi", "cpi",
    "m1",      "tbilrate", "unemp",   "pop",      "realint"};
/* the series' columns in the file (infl, column 12, left out) */
static const int bat_col[BAT_S] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13};
/* 1: a level, modelled as its growth rate; 0: a rate, as it is */
static const int bat_growth[BAT_S] = {1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0};

/* The problems: for series s, X[s] (rows x BAT_M, leading dimension rows)
 * and y[s] (rows), row i the quarter t = i + BAT_P of z. */
typedef struct bat_data {
    int rows;
    double *X, *y;
} bat_data;

#define BAT_X(D, s, i, j) \
    ((D)->X[((size_t)(s) * BAT_M + (size_t)(j)) * (D)->rows + (size_t)(i)])
#define BAT_Y(D, s, i) ((D)->y[(size_t)(s) * (D)->rows + (size_t)(i)])

/* The new rows (one a problem) of quarter row i: U (BAT_S pages 1 x
 * BAT_M) and e (BAT_S pages 1 x 1). */
static void bat_row(const bat_data *D, int i, double *U, double *e)
{
    for (int s = 0; s < BAT_S; s++) {
        for (int j = 0; j < BAT_M; j++)
            U[s * BAT_M + j] = BAT_X(D, s, i, j);
        e[s] = BAT_Y(D, s, i);
    }
}

/* The batch path: the first BAT_N0 rows factorised, then each later row
 * added to every problem and every problem solved, nf fits in all.  x
 * receives every fit (fit f = the first BAT_N0 + f rows, problem s at
 * x[(f * BAT_S + s) * BAT_M]), res the last fit's residual norms, *secs
 * the time of the additions and solves (to the last download). */
static int bat_run_batch(qru_context *ctx, qru_dtype dt, const bat_data *D,
                         int nf, double *x, double *res, double *secs)
{
    const int n0 = BAT_N0;
    double *A0 = malloc((size_t)BAT_S * n0 * BAT_M * sizeof *A0);
    double *b0 = malloc((size_t)BAT_S * n0 * sizeof *b0);
    double U[BAT_S * BAT_M], e[BAT_S];
    int info[BAT_S];
    qru_matrix *Ab = NULL, *bb = NULL, *Ub = NULL, *Eb = NULL, *Xb = NULL;
    qru_lsq_batch *fb = NULL;
    int st = QRU_ERR_ALLOC;
    if (!A0 || !b0)
        goto done;
    for (int s = 0; s < BAT_S; s++)
        for (int i = 0; i < n0; i++) {
            for (int j = 0; j < BAT_M; j++)
                A0[((size_t)s * BAT_M + j) * n0 + i] = BAT_X(D, s, i, j);
            b0[(size_t)s * n0 + i] = BAT_Y(D, s, i);
        }
    if ((st = report(qru_matrix_create_batch(ctx, dt, n0, BAT_M, n0, BAT_S, 0,
                                             &Ab), "create A")) ||
        (st = report(qru_matrix_create_batch(ctx, dt, n0, 1, n0, BAT_S, 0, &bb),
                     "create b")) ||
        (st = report(qru_matrix_create_batch(ctx, dt, 1, BAT_M, 1, BAT_S, 0,
                                             &Ub), "create U")) ||
        (st = report(qru_matrix_create_batch(ctx, dt, 1, 1, 1, BAT_S, 0, &Eb),
                     "create e")) ||
        (st = report(qru_matrix_create_batch(ctx, dt, BAT_M, 1, BAT_M, BAT_S,
                                             0, &Xb), "create x")) ||
        (st = report(upload_double(Ab, A0), "upload A")) ||
        (st = report(upload_double(bb, b0), "upload b")) ||
        (st = report(qru_lsq_batch_create(ctx, Ab, bb, &fb),
                     "qru_lsq_batch_create")) ||
        (st = report(qru_lsq_batch_solve(fb, Xb, info),
                     "qru_lsq_batch_solve")) ||
        (st = report(download_double(Xb, x), "download x")))
        goto done;
    double w0 = wall_s();
    for (int f = 1; f < nf && !st; f++) {
        bat_row(D, n0 + f - 1, U, e);
        if ((st = report(upload_double(Ub, U), "upload U")) ||
            (st = report(upload_double(Eb, e), "upload e")) ||
            (st = report(qru_lsq_batch_add_rows_solve(fb, Ub, Eb, Xb, info),
                         "qru_lsq_batch_add_rows_solve")) ||
            (st = report(download_double(Xb, x + (size_t)f * BAT_S * BAT_M),
                         "download x")))
            break;
    }
    *secs = wall_s() - w0;
    if (!st)
        st = report(qru_lsq_batch_residual_norms(fb, res),
                    "qru_lsq_batch_residual_norms");
done:
    qru_lsq_batch_destroy(fb);
    qru_matrix_destroy(Xb);
    qru_matrix_destroy(Eb);
    qru_matrix_destroy(Ub);
    qru_matrix_destroy(bb);
    qru_matrix_destroy(Ab);
    free(b0);
    free(A0);
    if (st == QRU_ERR_ALLOC)
        fprintf(stderr, "qru: out of memory\n");
    return st;
}

/* The same fits as bat_run_batch, a series at a time: BAT_S Q-less
 * problems (qru_lsq), each row added (qru_lsq_add_rows) and solved
 * (qru_lsq_solve) on its own. */
static int bat_run_single(qru_context *ctx, qru_dtype dt, const bat_data *D,
                          int nf, double *x, double *res, double *secs)
{
    const int n0 = BAT_N0;
    qru_lsq *F[BAT_S] = {0};
    qru_matrix *Us[BAT_S] = {0}, *Es[BAT_S] = {0}, *Xs[BAT_S] = {0};
    double U[BAT_S * BAT_M], e[BAT_S];
    int st = 0;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    for (int s = 0; s < BAT_S && !st; s++) {
        qru_matrix *A = NULL, *b = NULL;
        if (!(st = report(upload_block(ctx, dt, n0, BAT_M, &BAT_X(D, s, 0, 0),
                                       D->rows, &A), "upload A")) &&
            !(st = report(upload_block(ctx, dt, n0, 1, &BAT_Y(D, s, 0),
                                       D->rows, &b), "upload b")) &&
            !(st = report(qru_lsq_create(ctx, A, b, &opt, &F[s]),
                          "qru_lsq_create")) &&
            !(st = report(qru_matrix_create(ctx, dt, 1, BAT_M, 0, &Us[s]),
                          "create U")) &&
            !(st = report(qru_matrix_create(ctx, dt, 1, 1, 0, &Es[s]),
                          "create e")) &&
            !(st = report(qru_matrix_create(ctx, dt, BAT_M, 1, 0, &Xs[s]),
                          "create x")) &&
            !(st = report(qru_lsq_solve(F[s], Xs[s]), "qru_lsq_solve")))
            st = report(download_double(Xs[s], x + s * BAT_M),
                        "download x");
        qru_matrix_destroy(b);
        qru_matrix_destroy(A);
    }
    double w0 = wall_s();
    for (int f = 1; f < nf && !st; f++) {
        int i = n0 + f - 1;
        bat_row(D, i, U, e);
        for (int s = 0; s < BAT_S && !st; s++) {
            double *xf = x + ((size_t)f * BAT_S + s) * BAT_M;
            if (!(st = report(upload_double(Us[s], U + s * BAT_M),
                              "upload U")) &&
                !(st = report(upload_double(Es[s], e + s), "upload e")) &&
                !(st = report(qru_lsq_add_rows(F[s], i, Us[s], Es[s]),
                              "qru_lsq_add_rows")) &&
                !(st = report(qru_lsq_solve(F[s], Xs[s]), "qru_lsq_solve")))
                st = report(download_double(Xs[s], xf),
                            "download x");
        }
    }
    *secs = wall_s() - w0;
    for (int s = 0; s < BAT_S && !st; s++)
        st = report(qru_lsq_get_residual_norms(F[s], &res[s]),
                    "qru_lsq_get_residual_norms");
    for (int s = 0; s < BAT_S; s++) {
        qru_lsq_destroy(F[s]);
        qru_matrix_destroy(Us[s]);
        qru_matrix_destroy(Es[s]);
        qru_matrix_destroy(Xs[s]);
    }
    return st;
}

/* The problems from the embedded file (D->X, D->y allocated), or -1 after
 * saying what is wrong with the file. */
static int bat_load(qru_dtype dt, bat_data *D)
{
    const int T = qru_macro_count - 1; /* values of z: from the 2nd quarter */
    D->rows = T - BAT_P;
    D->X = NULL;
    D->y = NULL;
    if (qru_macro_cols != BAT_COLS || D->rows < BAT_N0 + 2) {
        fprintf(stderr, "qru: batch: the embedded macrodata has %d columns "
                        "and %d rows (expected %d and more than %d)\n",
                qru_macro_cols, qru_macro_count, BAT_COLS,
                BAT_N0 + BAT_P + 2);
        return -1;
    }
    double *z = malloc((size_t)T * sizeof *z);
    D->X = malloc((size_t)BAT_S * BAT_M * D->rows * sizeof *D->X);
    D->y = malloc((size_t)BAT_S * D->rows * sizeof *D->y);
    if (!z || !D->X || !D->y) {
        fprintf(stderr, "qru: out of memory\n");
        free(z);
        return -1;
    }
    for (int s = 0; s < BAT_S; s++) {
        for (int t = 0; t < T; t++) {
            double v = qru_macro_data[(size_t)(t + 1) * BAT_COLS + bat_col[s]];
            double v0 = qru_macro_data[(size_t)t * BAT_COLS + bat_col[s]];
            if (bat_growth[s] && !(v > 0.0 && v0 > 0.0)) {
                fprintf(stderr, "qru: batch: %s is not positive in row %d\n",
                        bat_name[s], t + 1);
                free(z);
                return -1;
            }
            z[t] = bat_growth[s] ? 400.0 * log(v / v0) : v;
        }
        for (int i = 0; i < D->rows; i++) {
            int t = i + BAT_P;
            BAT_X(D, s, i, 0) = 1.0;
            for (int j = 1; j <= BAT_P; j++)
                BAT_X(D, s, i, j) = z[t - j];
            BAT_Y(D, s, i) = z[t];
        }
    }
    free(z);
    if (dt == QRU_FLOAT) { /* the reference solves the rounded problems */
        for (size_t k = 0; k < (size_t)BAT_S * BAT_M * D->rows; k++)
            D->X[k] = (float)D->X[k];
        for (size_t k = 0; k < (size_t)BAT_S * D->rows; k++)
            D->y[k] = (float)D->y[k];
    }
    return 0;
}

/* "1970Q2": the quarter of problem row i. */
static void bat_quarter(int i, char *buf, size_t len)
{
    const double *r = qru_macro_data + (size_t)(i + BAT_P + 1) * BAT_COLS;
    snprintf(buf, len, "%.0fQ%.0f", r[0], r[1]);
}

int demo_batch(const demo_env *env)
{
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    int rc = DEMO_ERROR;
    bat_data D;

    printf("== batch: an AR(%d) model of each of %d US macroeconomic series, "
           "refitted every quarter as one batch ==\n", BAT_P, BAT_S);
    if (bat_load(dt, &D)) {
        free(D.X);
        free(D.y);
        return DEMO_ERROR;
    }
    const int rows = D.rows, nf = rows - BAT_N0 + 1, steps = nf - 1;
    const size_t nx = (size_t)nf * BAT_S * BAT_M;
    double *xb = malloc(nx * sizeof *xb), *xs = malloc(nx * sizeof *xs);
    double *Aw = malloc((size_t)rows * BAT_M * sizeof *Aw);
    double *bw = malloc((size_t)rows * sizeof *bw);
    double resb[BAT_S], ress[BAT_S], tb = 0.0, ts = 0.0;
    if (!xb || !xs || !Aw || !bw) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }
    /* each path twice, the second run timed (the first, of a few fits,
     * meets the context's first allocations and the device's first
     * kernels) */
    for (int run = 0; run < 2; run++) {
        int fits = run ? nf : 3;
        if (bat_run_batch(ctx, dt, &D, fits, xb, resb, &tb) ||
            bat_run_single(ctx, dt, &D, fits, xs, ress, &ts))
            goto done;
    }

    /* ---- the check: every fit of both paths against LAPACKE_dgels */
    double worst_x = 0.0, worst_r = 0.0, worst_diff = 0.0;
    int pass = 1;
    double rmse_ar[BAT_S], rmse_rw[BAT_S];
    for (int s = 0; s < BAT_S; s++) {
        double sse_ar = 0.0, sse_rw = 0.0;
        for (int f = 0; f < nf; f++) {
            int n = BAT_N0 + f;
            double xref[BAT_M], res_ref, normA2, kappa, xr, rr, ssq = 0.0;
            if (ls_reference(n, BAT_M, &BAT_X(&D, s, 0, 0), rows,
                             &BAT_Y(&D, s, 0), Aw, bw, xref, &res_ref, &normA2,
                             &kappa))
                goto done;
            for (int j = 0; j < BAT_M; j++) {
                double c = nrm2(n, &BAT_X(&D, s, 0, j));
                ssq += c * c;
            }
            double normAF = sqrt(ssq), normb = nrm2(n, &BAT_Y(&D, s, 0));
            const double *pb = xb + ((size_t)f * BAT_S + s) * BAT_M;
            const double *ps = xs + ((size_t)f * BAT_S + s) * BAT_M;
            int last = f == nf - 1;
            /* residual norms are read after the last fit only */
            for (int path = 0; path < 2; path++) {
                const double *px = path ? ps : pb;
                double res = last ? (path ? ress[s] : resb[s]) : res_ref;
                pass &= ls_within(dt, n, BAT_M, px, xref, res, res_ref,
                                  normA2, kappa, normAF, normb, &xr, &rr);
                worst_x = fmax(worst_x, xr);
                worst_r = fmax(worst_r, rr);
            }
            double d2 = 0.0;
            for (int j = 0; j < BAT_M; j++)
                d2 += (pb[j] - ps[j]) * (pb[j] - ps[j]);
            worst_diff = fmax(worst_diff, sqrt(d2) / nrm2(BAT_M, ps));
            /* the forecast of row n (the next quarter) from this fit */
            if (!last) {
                double fc = 0.0;
                for (int j = 0; j < BAT_M; j++)
                    fc += BAT_X(&D, s, n, j) * pb[j];
                double y = BAT_Y(&D, s, n);
                sse_ar += (y - fc) * (y - fc);
                sse_rw += (y - BAT_X(&D, s, n, 1)) * (y - BAT_X(&D, s, n, 1));
            }
        }
        rmse_ar[s] = sqrt(sse_ar / steps);
        rmse_rw[s] = sqrt(sse_rw / steps);
    }

    char q0[16], q1[16], q2[16], q3[16];
    bat_quarter(0, q0, sizeof q0);
    bat_quarter(BAT_N0 - 1, q1, sizeof q1);
    bat_quarter(BAT_N0, q2, sizeof q2);
    bat_quarter(rows - 1, q3, sizeof q3);
    const char *dev = qru_context_device_name(ctx);
    printf("data        statsmodels' macrodata (US, quarterly 1959Q1-2009Q3; "
           "FRED and BLS, public domain):\n"
           "            growth rates 400 ln(x_t / x_t-1) %% a year of the "
           "levels, the rates as they are\n");
    printf("model       z_t = c + a1 z_t-1 + ... + a%d z_t-%d, one "
           "least-squares problem a series (m = %d);\n"
           "            first fitted on %s-%s (%d quarters), then each "
           "quarter %s-%s: forecast it,\n"
           "            add its row to all %d problems and solve all, "
           "one call (qru_lsq_batch_add_rows_solve)\n",
           BAT_P, BAT_P, BAT_M, q0, q1, BAT_N0, q2, q3, BAT_S);
    printf("backend     %s, device: %s, %s\n",
           qru_backend_name(qru_context_backend(ctx)), dev ? dev : "?",
           precision_name(dt));
    printf("  series     z             a1+..+a%d   one quarter ahead, RMSE "
           "(%s-%s)\n", BAT_P, q2, q3);
    printf("                                       AR(%d)   no change\n",
           BAT_P);
    for (int s = 0; s < BAT_S; s++) {
        const double *x = xb + ((size_t)(nf - 1) * BAT_S + s) * BAT_M;
        double pers = 0.0;
        for (int j = 1; j < BAT_M; j++)
            pers += x[j];
        printf("  %-10s %-13s %8.3f   %8.3f  %8.3f\n", bat_name[s],
               bat_growth[s] ? "growth %/yr" : "level", pers, rmse_ar[s],
               rmse_rw[s]);
    }
    printf("speed       %d quarters x %d series, each quarter's rows "
           "uploaded, added, solved, coefficients downloaded:\n", steps,
           BAT_S);
    printf("            batch (qru_lsq_batch)  %8.3f ms  (%.1f us a "
           "quarter)\n", 1e3 * tb, 1e6 * tb / steps);
    printf("            single calls (qru_lsq) %8.3f ms  (%.1f us a "
           "quarter, %d problems one at a time)\n", 1e3 * ts,
           1e6 * ts / steps, BAT_S);
    printf("            batch %.2fx faster than the single calls\n",
           tb > 0.0 ? ts / tb : 0.0);
    printf("check       every fit (%d a series, both paths) against "
           "LAPACKE_dgels in double on the same rows:\n", nf);
    printf("            worst ||x - x_ref|| / ||x_ref|| = %.2g x its bound; "
           "last fits' residual norms %.2g x theirs\n", worst_x, worst_r);
    printf("            (tolerance %.0f x the first-order bounds, as the fit "
           "part); batch and single calls differ by %.1e\n", DEMO_THRESHOLD,
           worst_diff);
    printf("batch       %s\n", pass ? "PASS" : "FAIL");
    rc = pass ? DEMO_PASS : DEMO_FAIL;

done:
    free(bw);
    free(Aw);
    free(xs);
    free(xb);
    free(D.y);
    free(D.X);
    return rc;
}
