/* qru demo --part window: a sliding-window regression kept up to date by
 * the four QR updates. */
#include "cli.h"

/* ---- part "window": a sliding-window regression kept up to date ----------
 *
 * A window of W consecutive weekly samples slides through the series S
 * samples at a time.  The least-squares fit of the window (linear trend +
 * seasonal cycle) is held as a Q-less QR factorisation (qru_lsq with
 * QRU_Q_NONE: R, d(1:m) and the residual norm, m (m + 1) numbers whatever
 * the window's length: the form a sliding-window user should choose) and
 * moved with the QR updates instead of being recomputed:
 *
 *   qru_lsq_add_rows(k = n)           append the S newest samples
 *   qru_lsq_remove_rows_data(k = 0)   drop the S oldest, given their rows
 *
 * One third of the way through, the model gains the third seasonal harmonic
 * (the column block [sin(6 pi t) cos(6 pi t)] inserted after the six
 * columns with qru_lsq_add_cols_data, which takes the window's A and b)
 * and two thirds of the way through it loses it again
 * (qru_lsq_remove_cols), so all four updates are used.
 *
 * The time variable of the trend is s = (t - tc) / h with tc, h the centre
 * and half-width of the WHOLE series (as in part "fit"): rows already in
 * the factorisation must not change when the window moves, so s cannot be
 * re-centred per window; a global s in [-1, 1] keeps the columns 1 and s
 * well apart in every window (kappa_2 of a window stays O(10)).
 *
 * After every slide the window is also factorised from scratch with
 * qru_lsq_create (Q-less too: that is the state the sliding factorisation
 * keeps) and the two solutions are compared.
 *
 * Run 1 slides a ten-year window a year at a time (S = 52) through the
 * whole series, one line per slide.  Run 2 slides it a week at a time
 * (S = 1) for two years.  A slide costs O(S m^2 + m^3) (the removal of
 * S > m rows downdates on the m x m side, of S <= m rows on the S x S
 * side: O(S^2 m + S^3)), independent of W, while a refactorisation costs
 * O(W m^2). */
enum { WIN_M0 = 6, WIN_MX = 8 };

typedef struct window_stats {
    int slides, updates, failed;
    double t_upd, t_ref;   /* seconds, summed over the slides */
    double *tu, *tr;       /* each slide's (NULL: not kept, no memory) */
    int ntimes;
    double max_dx, max_dr; /* largest relative deviations of x and ||r|| */
    double worst;          /* largest deviation / tolerance */
} window_stats;

static void keep_times(window_stats *s, double tu, double tr);

typedef struct window_problem {
    const series *S;
    const double *A; /* n x WIN_MX, all rows and columns, ld n */
    const double *b; /* n */
    int n;
    double h;        /* half-width of the series: ds/dt = 1 / h */
} window_problem;

/* The four updates once on a small problem built from the first rows,
 * untimed, so that device kernels are compiled and loaded before the clock
 * runs (OpenCL builds its programs on first use). */
static int window_warmup(const demo_env *env, const window_problem *P)
{
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n0 = 2 * WIN_MX, p = 2, ld = P->n;
    qru_matrix *A0 = NULL, *b0 = NULL, *U = NULL, *e = NULL, *C = NULL;
    qru_matrix *Uo = NULL, *eo = NULL, *A1 = NULL, *b1 = NULL;
    qru_lsq *f = NULL;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    int st;
    /* rows 0 .. n0-1, then p more, then the first p removed: the rows
     * p .. n0+p-1 */
    if (!(st = upload_block(ctx, dt, n0, WIN_M0, P->A, ld, &A0)) &&
        !(st = upload_block(ctx, dt, n0, 1, P->b, ld, &b0)) &&
        !(st = upload_block(ctx, dt, p, WIN_M0, P->A + n0, ld, &U)) &&
        !(st = upload_block(ctx, dt, p, 1, P->b + n0, ld, &e)) &&
        !(st = upload_block(ctx, dt, p, WIN_M0, P->A, ld, &Uo)) &&
        !(st = upload_block(ctx, dt, p, 1, P->b, ld, &eo)) &&
        !(st = upload_block(ctx, dt, n0, WIN_M0, P->A + p, ld, &A1)) &&
        !(st = upload_block(ctx, dt, n0, 1, P->b + p, ld, &b1)) &&
        !(st = upload_block(ctx, dt, n0, WIN_MX - WIN_M0,
                            P->A + p + (size_t)WIN_M0 * ld, ld, &C)) &&
        !(st = qru_lsq_create(ctx, A0, b0, &opt, &f)) &&
        !(st = qru_lsq_add_rows(f, n0, U, e)) &&
        !(st = qru_lsq_remove_rows_data(f, 0, Uo, eo)) &&
        !(st = qru_lsq_add_cols_data(f, WIN_M0, C, A1, b1)) &&
        !(st = qru_lsq_remove_cols(f, WIN_M0, WIN_MX - WIN_M0)))
        st = qru_context_sync(ctx);
    qru_lsq_destroy(f);
    qru_matrix_destroy(Uo);
    qru_matrix_destroy(eo);
    qru_matrix_destroy(A1);
    qru_matrix_destroy(b1);
    qru_matrix_destroy(C);
    qru_matrix_destroy(e);
    qru_matrix_destroy(U);
    qru_matrix_destroy(b0);
    qru_matrix_destroy(A0);
    return report(st, "warm-up of the updates");
}

/* Slides a window of W rows, starting at row 0, nsteps times by step rows,
 * adding the extra column block at slide jadd and removing it at slide jrem
 * (0: never).  Prints one line per slide when verbose.  Returns 0, or a
 * nonzero status after printing what failed. */
static int window_run(const demo_env *env, const window_problem *P, int W,
                      int step, int nsteps, int jadd, int jrem, int verbose,
                      window_stats *out)
{
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = P->n;
    const double *A = P->A, *b = P->b;
    const series *S = P->S;
    qru_matrix *Ur = NULL, *er = NULL, *Uc = NULL, *Aw = NULL, *bw = NULL,
               *xm = NULL, *Uo = NULL, *eo = NULL, *Ac = NULL, *bc = NULL;
    qru_lsq *f = NULL, *g = NULL;
    int st = 0, m = WIN_M0, nupd = 0;
    double xu[WIN_MX], xr[WIN_MX], dxv[WIN_MX];
    memset(out, 0, sizeof *out);

    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    opt.row_capacity = W + step;
    opt.col_capacity = WIN_MX;

    /* the first window: factorised once, not timed */
    if ((st = report(upload_block(ctx, dt, W, m, A, n, &Aw), "upload A")) ||
        (st = report(upload_block(ctx, dt, W, 1, b, n, &bw), "upload b")) ||
        (st = report(qru_lsq_create(ctx, Aw, bw, &opt, &f), "qru_lsq_create")))
        goto done;
    qru_matrix_destroy(Aw);
    qru_matrix_destroy(bw);
    Aw = bw = NULL;

    for (int j = 1; j <= nsteps; j++) {
        int r0 = j * step; /* first row of the new window */
        const char *note = "";
        /* the new rows (current column set) and, at slide jadd, the new
         * columns on the rows of the new window */
        if ((st = report(upload_block(ctx, dt, step, m, A + (r0 + W - step),
                                      n, &Ur), "upload U")) ||
            (st = report(upload_block(ctx, dt, step, 1, b + (r0 + W - step),
                                      n, &er), "upload e")) ||
            (st = report(upload_block(ctx, dt, step, m, A + (r0 - step), n,
                                      &Uo), "upload the rows removed")) ||
            (st = report(upload_block(ctx, dt, step, 1, b + (r0 - step), n,
                                      &eo), "upload the rows removed")))
            goto done;
        /* at slide jadd: the new columns and the window's A and b, which
         * the Q-less form needs to add columns */
        if (j == jadd &&
            ((st = report(upload_block(ctx, dt, W, WIN_MX - WIN_M0,
                                       A + r0 + (size_t)WIN_M0 * n, n, &Uc),
                          "upload U (columns)")) ||
             (st = report(upload_block(ctx, dt, W, m, A + r0, n, &Ac),
                          "upload A")) ||
             (st = report(upload_block(ctx, dt, W, 1, b + r0, n, &bc),
                          "upload b"))))
            goto done;
        if ((st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;

        /* ---- the updates, timed up to the end of the device work */
        double ta = wall_s();
        if ((st = report(qru_lsq_add_rows(f, W, Ur, er),
                         "qru_lsq_add_rows")) ||
            (st = report(qru_lsq_remove_rows_data(f, 0, Uo, eo),
                         "qru_lsq_remove_rows_data")))
            goto done;
        nupd += 2;
        if (j == jadd) {
            if ((st = report(qru_lsq_add_cols_data(f, WIN_M0, Uc, Ac, bc),
                             "qru_lsq_add_cols_data")))
                goto done;
            m = WIN_MX;
            nupd++;
            note = "  +cols";
        } else if (j == jrem) {
            if ((st = report(qru_lsq_remove_cols(f, WIN_M0,
                                                       WIN_MX - WIN_M0),
                             "qru_lsq_remove_cols")))
                goto done;
            m = WIN_M0;
            nupd++;
            note = "  -cols";
        }
        if ((st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        double t_upd = wall_s() - ta;

        /* ---- the same window factorised from scratch, timed alike */
        if ((st = report(upload_block(ctx, dt, W, m, A + r0, n, &Aw),
                         "upload A")) ||
            (st = report(upload_block(ctx, dt, W, 1, b + r0, n, &bw),
                         "upload b")) ||
            (st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        ta = wall_s();
        if ((st = report(qru_lsq_create(ctx, Aw, bw, &opt, &g),
                         "qru_lsq_create")) ||
            (st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        double t_ref = wall_s() - ta;

        /* ---- both solutions and residual norms */
        double res_u = 0.0, res_r = 0.0;
        if ((st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm),
                         "create x")) ||
            (st = report(qru_lsq_solve(f, xm), "qru_lsq_solve")) ||
            (st = report(download_double(xm, xu), "download x")) ||
            (st = report(qru_lsq_solve(g, xm), "qru_lsq_solve")) ||
            (st = report(download_double(xm, xr), "download x")) ||
            (st = report(qru_lsq_get_residual_norms(f, &res_u),
                         "qru_lsq_get_residual_norms")) ||
            (st = report(qru_lsq_get_residual_norms(g, &res_r),
                         "qru_lsq_get_residual_norms")))
            goto done;

        /* ---- the check.  The bounds are those of part "fit" (first-order
         * least-squares perturbation theory, Higham Thm 20.1) for a
         * backward error e = max(W, m) u, the size assumed for one
         * Householder QR.  Each update is backward stable, so in the worst
         * case the backward error of the chain could grow with the number
         * of updates; the chain is nevertheless held to the bound of a
         * single factorisation (the test suite's convention), the stricter
         * test.  The refactorised solution has an error of the same kind,
         * which the margin DEMO_THRESHOLD absorbs. */
        double normA2, kappa;
        if ((st = cond2(W, m, A + r0, n, &normA2, &kappa))) {
            fprintf(stderr, "qru: condition estimate failed\n");
            goto done;
        }
        double normAF = 0.0;
        for (int c = 0; c < m; c++)
            normAF = hypot(normAF, nrm2(W, A + r0 + (size_t)c * n));
        double normb = nrm2(W, b + r0), normx = nrm2(m, xr);
        for (int c = 0; c < m; c++)
            dxv[c] = xu[c] - xr[c];
        double dx = nrm2(m, dxv) / normx, dr = fabs(res_u - res_r);
        double e = (W > m ? W : m) * unit_roundoff(dt);
        double xtol = DEMO_THRESHOLD * e * kappa *
                      (2.0 + (kappa + 1.0) * res_r / (normA2 * normx));
        double rtol = DEMO_THRESHOLD * e * (normAF * normx + normb);
        int pass = isfinite(dx) && isfinite(dr) && dx <= xtol && dr <= rtol;
        out->slides++;
        out->failed += !pass;
        out->t_upd += t_upd;
        out->t_ref += t_ref;
        keep_times(out, t_upd, t_ref);
        out->max_dx = dx > out->max_dx ? dx : out->max_dx;
        if (res_r > 0.0 && dr / res_r > out->max_dr)
            out->max_dr = dr / res_r;
        if (dx / xtol > out->worst)
            out->worst = dx / xtol;
        if (dr / rtol > out->worst)
            out->worst = dr / rtol;
        if (verbose && env->record) {
            double te = S->t[r0 + W - 1];
            fig_record("window", "trend", te, xu[1] / P->h);
            fig_record("window", "update_ms", te, 1e3 * t_upd);
            fig_record("window", "refactor_ms", te, 1e3 * t_ref);
        }
        progress(verbose ? "window, run 1" : "window, run 2", j, nsteps);
        if (verbose || !pass)
            printf("%5d  %7.2f-%7.2f %7.4f %7.4f %9.3f %9.3f %10.2e %10.2e"
                   "  %s%s\n",
                   j, S->t[r0], S->t[r0 + W - 1], xu[1] / P->h,
                   res_u / sqrt((double)W), 1e3 * t_upd, 1e3 * t_ref, dx,
                   xtol, pass ? "PASS" : "FAIL", note);

        qru_lsq_destroy(g);
        g = NULL;
        qru_matrix_destroy(xm);
        qru_matrix_destroy(Aw);
        qru_matrix_destroy(bw);
        qru_matrix_destroy(Ur);
        qru_matrix_destroy(er);
        qru_matrix_destroy(Uc);
        qru_matrix_destroy(Uo);
        qru_matrix_destroy(eo);
        qru_matrix_destroy(Ac);
        qru_matrix_destroy(bc);
        xm = Aw = bw = Ur = er = Uc = Uo = eo = Ac = bc = NULL;
    }
    out->updates = nupd;

done:
    qru_lsq_destroy(g);
    qru_lsq_destroy(f);
    qru_matrix_destroy(xm);
    qru_matrix_destroy(Aw);
    qru_matrix_destroy(bw);
    qru_matrix_destroy(Ur);
    qru_matrix_destroy(er);
    qru_matrix_destroy(Uc);
    qru_matrix_destroy(Uo);
    qru_matrix_destroy(eo);
    qru_matrix_destroy(Ac);
    qru_matrix_destroy(bc);
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n-1] (sorted in place); 0 for n = 0. */
static double median(double *v, int n)
{
    if (n <= 0)
        return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void window_summary(const char *what, window_stats *s)
{
    printf("%s %d slides, %d updates: update %.3f ms, refactor %.3f ms "
           "(refactor / update = %.2f)\n",
           what, s->slides, s->updates, 1e3 * s->t_upd, 1e3 * s->t_ref,
           s->t_upd > 0.0 ? s->t_ref / s->t_upd : 0.0);
    if (s->ntimes == s->slides && s->slides > 0) {
        /* a slide: robust against a few slow ones (a busy machine's
         * scheduler, a BLAS thread pool waking up) */
        double mu = median(s->tu, s->ntimes), mr = median(s->tr, s->ntimes);
        printf("            a slide (median): update %.3f ms, refactor "
               "%.3f ms (refactor / update = %.2f)\n",
               1e3 * mu, 1e3 * mr, mu > 0.0 ? mr / mu : 0.0);
    }
    printf("            max ||x_upd - x_ref|| / ||x_ref|| = %.3e, "
           "max |r_upd - r_ref| / r_ref = %.3e\n"
           "            largest deviation / tolerance = %.3g, %d of %d slides "
           "failed\n",
           s->max_dx, s->max_dr, s->worst, s->failed, s->slides);
}

/* Keeps a slide's times for the medians (silently stops keeping them
 * when memory runs out: the summary then gives the sums alone). */
static void keep_times(window_stats *s, double tu, double tr)
{
    if (s->ntimes != s->slides - 1)
        return;
    double *a = realloc(s->tu, (size_t)s->slides * sizeof *a);
    if (a)
        s->tu = a;
    double *c = a ? realloc(s->tr, (size_t)s->slides * sizeof *c) : NULL;
    if (c)
        s->tr = c;
    if (!a || !c)
        return;
    s->tu[s->ntimes] = tu;
    s->tr[s->ntimes] = tr;
    s->ntimes++;
}

static void window_stats_free(window_stats *s)
{
    free(s->tu);
    free(s->tr);
    s->tu = s->tr = NULL;
}

int demo_window(const demo_env *env)
{
    const series *S = env->data;
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = S->n;
    int rc = DEMO_ERROR;
    window_stats s1 = {0}, s2 = {0};

    printf("== window: sliding-window least squares kept by QR updates ==\n");
    /* ten years moved one year at a time, or less for a short --data */
    int W = 520, step = 52;
    if (n < W + 3 * step) {
        W = n / 2;
        step = W / 10 > 1 ? W / 10 : 1;
    }
    if (W < 4 * WIN_MX || (n - W) / step < 3) {
        fprintf(stderr, "qru: window needs at least %d samples, the data has "
                        "%d\n", 8 * WIN_MX, n);
        return DEMO_ERROR;
    }
    const int nsteps = (n - W) / step;
    const int jadd = nsteps / 3, jrem = (2 * nsteps) / 3;
    const int nweekly = n - W < 104 ? n - W : 104;

    double t0, tc, h, ybar; /* (the samples span years: n > W) */
    (void)series_axis(S, &t0, &tc, &h, &ybar);

    /* all rows of the design matrix with all WIN_MX columns, and b */
    double *A = malloc((size_t)n * WIN_MX * sizeof *A);
    double *b = malloc((size_t)n * sizeof *b);
    if (!A || !b) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0, s = (t - tc) / h, w = 2.0 * M_PI * t;
        A[i + 0 * (size_t)n] = 1.0;
        A[i + 1 * (size_t)n] = s;
        for (int k = 1; k <= 3; k++) {
            A[i + (size_t)(2 * k) * n] = sin(k * w);
            A[i + (size_t)(2 * k + 1) * n] = cos(k * w);
        }
        b[i] = S->y[i] - ybar;
    }
    if (dt == QRU_FLOAT) { /* the problem the library sees, as in "fit" */
        for (size_t k = 0; k < (size_t)n * WIN_MX; k++)
            A[k] = (float)A[k];
        for (int i = 0; i < n; i++)
            b[i] = (float)b[i];
    }
    window_problem P = {S, A, b, n, h};

    const char *dev = qru_context_device_name(ctx);
    printf("backend     %s, device: %s; precision %s\n",
           qru_backend_name(qru_context_backend(ctx)), dev ? dev : "?",
           precision_name(dt));
    printf("model       ppm ~ c0 + c1 s + sum_k a_k sin(2k pi t) + b_k "
           "cos(2k pi t), k = 1, 2\n"
           "            (and k = 3 between the column updates), t = years "
           "since %.3f,\n"
           "            s = (t - %.4f) / %.4f, fitted to b = ppm - %.4f\n",
           t0, tc, h, ybar);
    printf("window      W = %d samples (%.1f years), run 1 slides by S = %d "
           "samples, %d slides\n",
           W, S->t[W - 1] - S->t[0], step, nsteps);
    printf("updates     add_rows(k = n, S rows) + remove_rows_data(k = 0, S "
           "rows), Q-less\n"
           "            (QRU_Q_NONE: R, d(1:m), ||r||);\n"
           "            slide %d: add_cols_data(k = %d, [sin cos](6 pi t)), "
           "slide %d: remove_cols(k = %d, p = 2)\n",
           jadd, WIN_M0, jrem, WIN_M0);
    printf("refactor    qru_lsq_create(window, Q-less) after every slide; "
           "both timed up to\n"
           "            qru_context_sync, uploads excluded\n");
    printf("check       ||x_upd - x_ref|| / ||x_ref|| <= %.0f e kappa (2 + "
           "(kappa+1) ||r|| / (||A|| ||x||))\n"
           "            and |r_upd - r_ref| <= %.0f e (||A||_F ||x|| + ||b||), "
           "e = max(W, m) u,\n"
           "            u = %.3g, kappa = kappa_2(window): the bound of ONE "
           "factorisation, although\n"
           "            the updates accumulate\n",
           DEMO_THRESHOLD, DEMO_THRESHOLD, unit_roundoff(dt));

    if (window_warmup(env, &P))
        goto done;

    printf("\n%5s  %-15s %7s %7s %9s %9s %10s %10s  %s\n", "slide",
           "window", "trend", "RMS", "update", "refactor", "dx/|x|", "tol",
           "check");
    printf("%5s  %-15s %7s %7s %9s %9s\n", "", "years", "ppm/yr", "ppm", "ms",
           "ms");
    if (window_run(env, &P, W, step, nsteps, jadd, jrem, 1, &s1))
        goto done;
    printf("\n");
    window_summary("run 1      ", &s1);
    if (window_run(env, &P, W, 1, nweekly, 0, 0, 0, &s2))
        goto done;
    printf("run 2       the same window slid by S = 1 sample (one week), "
           "every slide checked:\n");
    window_summary("           ", &s2);
    printf("            (flops: a Q-less slide of S rows is O(S m^2 + m^3), "
           "whatever W;\n"
           "            a refactorisation is O(W m^2) (m = %d here): the "
           "update wins while S is\n"
           "            small against W; at this size the fixed costs of each "
           "call, e.g. kernel\n"
           "            launches, also count)\n",
           WIN_M0);
    int nfail = s1.failed + s2.failed;
    printf("window      %s\n", nfail ? "FAIL" : "PASS");
    rc = nfail ? DEMO_FAIL : DEMO_PASS;

done:
    window_stats_free(&s1);
    window_stats_free(&s2);
    free(b);
    free(A);
    return rc;
}
