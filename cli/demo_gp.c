/* qru demo --part gp: Gaussian-process regression of the de-trended
 * series, kept up to date by Cholesky updates. */
#include "cli.h"

/* ---- part "gp": Gaussian-process regression of the de-trended series -----
 *
 * The series minus its least-squares trend + seasonal cycle (the model of
 * part "fit", solved with qru_lsq) leaves residuals with structure on the
 * scale of months to years (e.g. El Nino years) plus weekly noise.  They are
 * modelled as a zero-mean GP with the squared-exponential covariance
 * (qru_gp): hyperparameters by the largest log marginal likelihood on a
 * small grid, then forecasts for the held-out last year, then the GP window
 * slides forward through that year: qru_gp_insert appends B new weeks and
 * qru_gp_remove drops the B oldest (Cholesky insert / delete updates), and
 * after every slide the GP is rebuilt from scratch with qru_gp_create on the
 * same points and compared. */
enum { GP_NT = 5 };
static const int gp_ahead[GP_NT] = {1, 4, 13, 26, 52}; /* weeks */

/* Host reference quantities of the GP (double precision, LAPACKE):
 * kappa_2(K), lambda_min(K) and ||K \ y||_2, K = sf2 exp(-d^2 / (2 ell^2))
 * + sn2 I on the points x. */
static int gp_reference(int n, const double *x, const double *y, double ell,
                        double sf2, double sn2, double *kappa, double *lmin,
                        double *nalpha)
{
    double *K = malloc((size_t)n * n * sizeof *K);
    double *K2 = malloc((size_t)n * n * sizeof *K2);
    double *w = malloc((size_t)n * sizeof *w);
    double *a = malloc((size_t)n * sizeof *a);
    int rc = -1;
    if (K && K2 && w && a) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double d = (x[i] - x[j]) / ell;
                K[i + (size_t)j * n] =
                    sf2 * exp(-0.5 * d * d) + (i == j ? sn2 : 0.0);
            }
        memcpy(K2, K, (size_t)n * n * sizeof *K);
        memcpy(a, y, (size_t)n * sizeof *a);
        if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', n, K, n, w) == 0 &&
            w[0] > 0.0 &&
            LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, 1, K2, n, a, n) == 0) {
            *kappa = w[n - 1] / w[0];
            *lmin = w[0];
            *nalpha = nrm2(n, a);
            rc = 0;
        }
    }
    free(a);
    free(w);
    free(K2);
    free(K);
    return rc;
}

int demo_gp(const demo_env *env)
{
    const series *S = env->data;
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = S->n, m = FIT_M;
    int rc = DEMO_ERROR, st = 0;

    printf("== gp: Gaussian-process regression of the de-trended series, "
           "updated ==\n");
    /* held-out last year P, training window N0, slide block B */
    int P = 52, N0 = 300;
    if (n < N0 + P + m) {
        P = n / 8;
        N0 = n - P;
    }
    int B = P / 4 > 0 ? P / 4 : 1;
    if (P < 4 || N0 < 2 * m) {
        fprintf(stderr, "qru: gp needs at least %d samples, the data has "
                        "%d\n", 64, n);
        return DEMO_ERROR;
    }
    const int i0 = n - P - N0; /* first training sample */

    double *A = malloc((size_t)n * m * sizeof *A);
    double *r = malloc((size_t)n * sizeof *r);
    double *yb = malloc((size_t)n * sizeof *yb);
    double *xg = malloc((size_t)(N0 + P) * sizeof *xg);
    double *yg = malloc((size_t)(N0 + P) * sizeof *yg);
    double *hx = malloc((size_t)(N0 + P) * sizeof *hx);
    double *hy = malloc((size_t)(N0 + P) * sizeof *hy);
    qru_matrix *Am = NULL, *bm = NULL, *xm = NULL;
    qru_lsq *f = NULL;
    qru_gp *gp = NULL, *ref = NULL;
    if (!A || !r || !yb || !xg || !yg || !hx || !hy) {
        fprintf(stderr, "qru: out of memory\n");
        goto done;
    }

    /* ---- the de-trending: the model of part "fit" on the whole series */
    double t0, tc, h, ybar;
    (void)series_axis(S, &t0, &tc, &h, &ybar);
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0, s = (t - tc) / h, w = 2.0 * M_PI * t;
        A[i + 0 * (size_t)n] = 1.0;
        A[i + 1 * (size_t)n] = s;
        A[i + 2 * (size_t)n] = s * s;
        A[i + 3 * (size_t)n] = sin(w);
        A[i + 4 * (size_t)n] = cos(w);
        A[i + 5 * (size_t)n] = sin(2.0 * w);
        A[i + 6 * (size_t)n] = cos(2.0 * w);
        yb[i] = S->y[i] - ybar;
    }
    qru_lsq_options lopt;
    qru_lsq_options_init(&lopt);
    lopt.q = QRU_Q_NONE;
    double c[FIT_M];
    if ((st = report(upload_new(ctx, dt, n, m, A, &Am), "upload A")) ||
        (st = report(upload_new(ctx, dt, n, 1, yb, &bm), "upload b")) ||
        (st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm), "create x")) ||
        (st = report(qru_lsq_create(ctx, Am, bm, &lopt, &f),
                     "qru_lsq_create")) ||
        (st = report(qru_lsq_solve(f, xm), "qru_lsq_solve")) ||
        (st = report(download_double(xm, c), "download x")))
        goto done;
    for (int i = 0; i < n; i++) { /* residual = ppm - model(t), in double */
        double mdl = ybar;
        for (int j = 0; j < m; j++)
            mdl += A[i + (size_t)j * n] * c[j];
        r[i] = S->y[i] - mdl;
    }
    /* GP inputs: years since the first training sample (differences only
     * matter; small numbers keep the printout readable) */
    const double tg0 = S->t[i0];
    for (int i = 0; i < N0 + P; i++) {
        xg[i] = S->t[i0 + i] - tg0;
        yg[i] = r[i0 + i];
    }
    double vr = 0.0;
    for (int i = 0; i < N0; i++)
        vr += yg[i] * yg[i];
    vr /= N0;

    const char *dev = qru_context_device_name(ctx);
    printf("backend     %s, device: %s; precision %s\n",
           qru_backend_name(qru_context_backend(ctx)), dev ? dev : "?",
           precision_name(dt));
    printf("data        residuals of part \"fit\"'s trend + seasonal model "
           "(qru_lsq on all %d\n"
           "            samples), training on %d samples %.3f - %.3f "
           "(mean square %.4f ppm^2);\n"
           "            the last %d samples (%.3f - %.3f) are held out\n",
           n, N0, S->t[i0], S->t[i0 + N0 - 1], vr, P, S->t[n - P],
           S->t[n - 1]);

    /* ---- hyperparameters: largest log marginal likelihood on a grid,
     * sf2 + sn2 = mean square of the training residuals */
    static const double ells[] = {0.05, 0.1, 0.25, 0.5, 1.0, 2.0};
    static const double fracs[] = {0.1, 0.25, 0.5, 0.75};
    enum { NE = sizeof ells / sizeof ells[0], NF = sizeof fracs / sizeof fracs[0] };
    qru_gp_options gopt;
    qru_gp_options_init(&gopt);
    double best = -HUGE_VAL, ell = 1.0, sf2 = 1.0, sn2 = 0.1;
    printf("lml grid    log marginal likelihood; rows ell (years), columns "
           "sn2 / (sf2 + sn2)\n");
    printf("            %6s", "ell");
    for (int q = 0; q < NF; q++)
        printf(" %10.2f", fracs[q]);
    printf("\n");
    for (int pi = 0; pi < NE; pi++) {
        printf("            %6.2f", ells[pi]);
        for (int q = 0; q < NF; q++) {
            gopt.lengthscale = ells[pi];
            gopt.noise_var = fracs[q] * vr;
            gopt.signal_var = (1.0 - fracs[q]) * vr;
            double lml = 0.0;
            if ((st = report(qru_gp_create(ctx, dt, N0, xg, yg, &gopt, &gp),
                             "qru_gp_create")) ||
                (st = report(qru_gp_log_likelihood(gp, &lml),
                             "qru_gp_log_likelihood")))
                goto done;
            qru_gp_destroy(gp);
            gp = NULL;
            printf(" %10.2f", lml);
            if (lml > best) {
                best = lml;
                ell = gopt.lengthscale;
                sf2 = gopt.signal_var;
                sn2 = gopt.noise_var;
            }
        }
        printf("\n");
    }
    printf("chosen      ell = %.2f years, sf2 = %.4f ppm^2, sn2 = %.4f ppm^2, "
           "lml = %.3f\n",
           ell, sf2, sn2, best);

    /* ---- the GP and its forecasts for the held-out year */
    gopt.lengthscale = ell;
    gopt.signal_var = sf2;
    gopt.noise_var = sn2;
    gopt.capacity = N0 + B;
    if ((st = report(qru_gp_create(ctx, dt, N0, xg, yg, &gopt, &gp),
                     "qru_gp_create")))
        goto done;
    double xs[GP_NT], mu[GP_NT], var[GP_NT];
    int nt = 0;
    for (int q = 0; q < GP_NT; q++)
        if (gp_ahead[q] <= P)
            xs[nt++] = xg[N0 - 1 + gp_ahead[q]];
    if ((st = report(qru_gp_predict(gp, nt, xs, mu, var), "qru_gp_predict")))
        goto done;
    printf("forecast    from %.3f; 95%% band = mean +- 2 sqrt(var + sn2) for "
           "an observation\n",
           S->t[i0 + N0 - 1]);
    printf("            %6s %9s %9s %8s %9s %6s %10s %10s\n", "ahead",
           "year", "mean", "+-2sd", "observed", "in", "model+GP",
           "observed");
    printf("            %6s %9s %9s %8s %9s %6s %10s %10s\n", "weeks", "",
           "ppm", "ppm", "ppm", "band", "ppm", "ppm");
    int inside = 0;
    for (int q = 0; q < nt; q++) {
        int i = i0 + N0 - 1 + gp_ahead[q];
        double sd2 = 2.0 * sqrt((var[q] > 0.0 ? var[q] : 0.0) + sn2);
        if (fabs(mu[q]) < 5e-5)
            mu[q] = 0.0; /* no "-0.0000" */
        int in = fabs(r[i] - mu[q]) <= sd2;
        inside += in;
        printf("            %6d %9.3f %9.4f %8.4f %9.4f %6s %10.3f %10.3f\n",
               gp_ahead[q], S->t[i], mu[q], sd2, r[i], in ? "yes" : "no",
               S->y[i] - r[i] + mu[q], S->y[i]);
    }
    printf("            %d of %d held-out observations inside the band\n",
           inside, nt);
    if (env->record) { /* the band at every held-out sample, for the figure */
        double *xa = malloc(3 * (size_t)P * sizeof *xa);
        if (!xa) {
            fprintf(stderr, "qru: out of memory\n");
            st = -1;
            goto done;
        }
        double *ma = xa + P, *va = ma + P;
        for (int q = 0; q < P; q++)
            xa[q] = xg[N0 + q];
        st = report(qru_gp_predict(gp, P, xa, ma, va), "qru_gp_predict");
        for (int q = 0; !st && q < P; q++) {
            int i = i0 + N0 + q;
            double base = S->y[i] - r[i];
            double sd2 = 2.0 * sqrt((va[q] > 0.0 ? va[q] : 0.0) + sn2);
            fig_record("gp", "mean", S->t[i], base + ma[q]);
            fig_record("gp", "lower", S->t[i], base + ma[q] - sd2);
            fig_record("gp", "upper", S->t[i], base + ma[q] + sd2);
            fig_record("gp", "observed", S->t[i], S->y[i]);
        }
        for (int i = i0 + N0 - 104 > i0 ? i0 + N0 - 104 : i0; !st && i < i0 + N0;
             i++)
            fig_record("gp", "history", S->t[i], S->y[i]);
        free(xa);
        if (st)
            goto done;
    }

    /* ---- the GP window slides through the held-out year */
    printf("slide       qru_gp_insert(k = n, %d points) + qru_gp_remove(k = "
           "0, %d points) vs\n"
           "            qru_gp_create on the same %d points; both timed up to "
           "qru_context_sync\n",
           B, B, N0);
    printf("check       |dmean| <= %.0f e kappa ||k*|| ||alpha||, |dvar| <= "
           "%.0f e kappa ||k*||^2 / lmin,\n"
           "            |dlml| <= %.0f e kappa (||y|| ||alpha|| + n) / 2, e = "
           "n u, kappa = kappa_2(K),\n"
           "            at the %d forecast times (weeks ahead of the window's "
           "end, as above)\n",
           DEMO_THRESHOLD, DEMO_THRESHOLD, DEMO_THRESHOLD, GP_NT);
    printf("\n%5s  %-15s %10s %8s %8s %8s %8s %8s %8s  %s\n", "slide",
           "window", "lml", "|dlml|", "|dmean|", "|dvar|", "dev/tol",
           "update", "refit", "check");
    printf("%5s  %-15s %10s %8s %8s %8s %8s %8s %8s\n", "", "years", "", "",
           "ppm", "ppm^2", "max", "ms", "ms");
    int nslides = P / B, nfail = 0;
    double tot_upd = 0.0, tot_ref = 0.0, worst = 0.0;
    for (int j = 1; j <= nslides; j++) {
        int a = j * B; /* first point of the new window (index into xg) */
        if ((st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        double ta = wall_s();
        if ((st = report(qru_gp_insert(gp, N0, B, xg + a + N0 - B,
                                       yg + a + N0 - B),
                         "qru_gp_insert")) ||
            (st = report(qru_gp_remove(gp, 0, B), "qru_gp_remove")) ||
            (st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        double t_upd = wall_s() - ta;

        /* the points the updated GP holds, and a GP built on them */
        double *xw = xg + a, *yw = yg + a;
        ta = wall_s();
        if ((st = report(qru_gp_create(ctx, dt, N0, xw, yw, &gopt, &ref),
                         "qru_gp_create")) ||
            (st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;
        double t_ref = wall_s() - ta;
        tot_upd += t_upd;
        tot_ref += t_ref;
        /* the updated GP must hold exactly these points, in this order */
        if ((st = report(qru_gp_get_data(gp, hx, hy), "qru_gp_get_data")))
            goto done;
        int same = qru_gp_size(gp) == N0 &&
                   memcmp(hx, xw, (size_t)N0 * sizeof *hx) == 0 &&
                   memcmp(hy, yw, (size_t)N0 * sizeof *hy) == 0;
        double xs2[GP_NT], mu_u[GP_NT], mu_r[GP_NT], va_u[GP_NT],
            va_r[GP_NT], lml_u = 0.0, lml_r = 0.0;
        for (int q = 0; q < GP_NT; q++)
            xs2[q] = xw[N0 - 1] + gp_ahead[q] / 52.0;
        if ((st = report(qru_gp_predict(gp, GP_NT, xs2, mu_u, va_u),
                         "qru_gp_predict")) ||
            (st = report(qru_gp_predict(ref, GP_NT, xs2, mu_r, va_r),
                         "qru_gp_predict")) ||
            (st = report(qru_gp_log_likelihood(gp, &lml_u),
                         "qru_gp_log_likelihood")) ||
            (st = report(qru_gp_log_likelihood(ref, &lml_r),
                         "qru_gp_log_likelihood")))
            goto done;
        qru_gp_destroy(ref);
        ref = NULL;

        double kappa, lmin, nalpha;
        if (gp_reference(N0, xw, yw, ell, sf2, sn2, &kappa, &lmin,
                         &nalpha)) {
            fprintf(stderr, "qru: gp reference computation failed\n");
            goto done;
        }
        double e = N0 * unit_roundoff(dt), ny = nrm2(N0, yw);
        double rm = 0.0, rv = 0.0, am = 0.0, av = 0.0;
        for (int q = 0; q < GP_NT; q++) {
            double ks2 = 0.0; /* ||k(X, x*)||^2 */
            for (int i = 0; i < N0; i++) {
                double d = (xw[i] - xs2[q]) / ell;
                double kv = sf2 * exp(-0.5 * d * d);
                ks2 += kv * kv;
            }
            double tm = DEMO_THRESHOLD * e * kappa * sqrt(ks2) * nalpha;
            double tv = DEMO_THRESHOLD * e * kappa * ks2 / lmin;
            double dm = fabs(mu_u[q] - mu_r[q]), dv = fabs(va_u[q] - va_r[q]);
            am = dm > am || !isfinite(dm) ? dm : am;
            av = dv > av || !isfinite(dv) ? dv : av;
            dm /= tm;
            dv /= tv;
            dm = isfinite(dm) ? dm : HUGE_VAL;
            dv = isfinite(dv) ? dv : HUGE_VAL;
            rm = dm > rm ? dm : rm;
            rv = dv > rv ? dv : rv;
        }
        double tl = DEMO_THRESHOLD * e * kappa * 0.5 * (ny * nalpha + N0);
        double rl = fabs(lml_u - lml_r) / tl;
        if (!isfinite(rl))
            rl = HUGE_VAL;
        int pass = same && rm <= 1.0 && rv <= 1.0 && rl <= 1.0;
        nfail += !pass;
        double wj = rm > rv ? rm : rv;
        wj = rl > wj ? rl : wj;
        worst = wj > worst ? wj : worst;
        printf("%5d  %7.2f-%7.2f %10.4f %8.1e %8.1e %8.1e %8.1e %8.3f %8.3f"
               "  %s%s\n",
               j, tg0 + xw[0], tg0 + xw[N0 - 1], lml_u, fabs(lml_u - lml_r),
               am, av, wj, 1e3 * t_upd, 1e3 * t_ref, pass ? "PASS" : "FAIL",
               same ? "" : " (points differ)");
    }
    printf("\nsummary     %d slides: update %.3f ms, refit %.3f ms (refit / "
           "update = %.2f);\n"
           "            largest deviation / tolerance = %.3g\n",
           nslides, 1e3 * tot_upd, 1e3 * tot_ref,
           tot_upd > 0.0 ? tot_ref / tot_upd : 0.0, worst);
    printf("gp          %s\n", nfail ? "FAIL" : "PASS");
    rc = nfail ? DEMO_FAIL : DEMO_PASS;

done:
    qru_gp_destroy(ref);
    qru_gp_destroy(gp);
    qru_lsq_destroy(f);
    qru_matrix_destroy(xm);
    qru_matrix_destroy(bm);
    qru_matrix_destroy(Am);
    free(hy);
    free(hx);
    free(yg);
    free(xg);
    free(yb);
    free(r);
    free(A);
    return rc;
}
