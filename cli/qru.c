/* qru: command-line front end of the qru library.
 *
 *   qru info                      version, backends, devices
 *   qru demo [options]            demonstrations on the Mauna Loa CO2 series
 *   qru --help | --version
 *
 * The demonstrations use the public API only (qru.h).  LAPACKE is linked for
 * the reference solutions that each demonstration checks itself against.
 *
 * Adding a demonstration part: write `static int demo_NAME(const demo_env *)`
 * returning DEMO_PASS / DEMO_FAIL / DEMO_ERROR and add it to demo_parts[]
 * (below the parts); `qru demo` runs all parts in order, `--part NAME` one.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lapacke.h>

#include "co2_data.h"
#include "qru.h"

#define EXIT_USAGE 2

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------------------ */
/* Usage */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: qru <command> [options]\n"
            "\n"
            "commands:\n"
            "  info      version, backends compiled in, their devices, and\n"
            "            which backend 'auto' picks\n"
            "  demo      demonstrations on the Mauna Loa CO2 series, each one\n"
            "            checking itself; exit status 0 only if every check\n"
            "            passes.  Parts (run in this order):\n"
            "              fit     trend + seasonal least-squares fit, checked\n"
            "                      against LAPACKE_dgels\n"
            "              window  a 10-year window sliding through the series,\n"
            "                      kept by the four QR updates (add/remove rows\n"
            "                      and columns); every slide checked against\n"
            "                      and timed with a refactorisation\n"
            "              gp      Gaussian-process regression of the de-trended\n"
            "                      series: hyperparameters by log marginal\n"
            "                      likelihood, forecasts +- 2 sd, then points\n"
            "                      added/removed by Cholesky updates, checked\n"
            "                      against and timed with a rebuild\n"
            "  help      this message\n"
            "\n"
            "demo options:\n"
            "  --backend cpu|cuda|opencl|auto   (default auto)\n"
            "  --precision double|single        (default double)\n"
            "  --data FILE   use a CSV of the same form as data/co2.csv\n"
            "                (decimal year, ppm) instead of the embedded series\n"
            "  --part NAME   run one part only (default: all): all");
}

/* ------------------------------------------------------------------------ */
/* Small helpers */

static int parse_backend(const char *s, qru_backend *b)
{
    static const qru_backend all[] = {QRU_BACKEND_AUTO, QRU_BACKEND_CPU,
                                      QRU_BACKEND_CUDA, QRU_BACKEND_OPENCL};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(s, qru_backend_name(all[i])) == 0) {
            *b = all[i];
            return 0;
        }
    return -1;
}

static int parse_precision(const char *s, qru_dtype *dt)
{
    if (strcmp(s, "double") == 0)
        *dt = QRU_DOUBLE;
    else if (strcmp(s, "single") == 0 || strcmp(s, "float") == 0)
        *dt = QRU_FLOAT;
    else
        return -1;
    return 0;
}

static const char *precision_name(qru_dtype dt)
{
    return dt == QRU_FLOAT ? "single" : "double";
}

/* Unit roundoff of the working precision (LAPACK's ?lamch('E')). */
static double unit_roundoff(qru_dtype dt)
{
    return dt == QRU_FLOAT ? 0.5 * FLT_EPSILON : 0.5 * DBL_EPSILON;
}

static double nrm2(int n, const double *x)
{
    /* scaled sum of squares: no overflow or underflow for any finite x */
    double scale = 0.0, ssq = 1.0;
    for (int i = 0; i < n; i++) {
        if (x[i] != 0.0) {
            double a = fabs(x[i]);
            if (scale < a) {
                ssq = 1.0 + ssq * (scale / a) * (scale / a);
                scale = a;
            } else {
                ssq += (a / scale) * (a / scale);
            }
        }
    }
    return scale * sqrt(ssq);
}

/* Prints "qru: WHAT: reason" for a failed library call; returns st. */
static int report(int st, const char *what)
{
    if (st)
        fprintf(stderr, "qru: %s: %s (status %d)\n", what, qru_strerror(st),
                st);
    return st;
}

/* Creates a rows x cols matrix of type dt in ctx holding the double host
 * array h (leading dimension ldh >= rows), converted to dt. */
static int upload_block(qru_context *ctx, qru_dtype dt, int rows, int cols,
                        const double *h, int ldh, qru_matrix **M)
{
    void *buf = (void *)h;
    int ldb = ldh;
    if (dt == QRU_FLOAT) {
        float *f = malloc((size_t)rows * (size_t)cols * sizeof *f);
        if (!f)
            return QRU_ERR_ALLOC;
        for (int j = 0; j < cols; j++)
            for (int i = 0; i < rows; i++)
                f[i + (size_t)j * rows] = (float)h[i + (size_t)j * ldh];
        buf = f;
        ldb = rows;
    }
    qru_matrix *A = NULL;
    int st = qru_matrix_create(ctx, dt, rows, cols, 0, &A);
    if (!st)
        st = qru_matrix_upload(A, buf, ldb);
    if (buf != h)
        free(buf);
    if (st) {
        qru_matrix_free(A);
        return st;
    }
    *M = A;
    return 0;
}

/* upload_block() of a whole array with leading dimension rows. */
static int upload_new(qru_context *ctx, qru_dtype dt, int rows, int cols,
                      const double *h, qru_matrix **M)
{
    return upload_block(ctx, dt, rows, cols, h, rows, M);
}

/* Downloads M (rows x cols, any dtype) into the double array h (ld rows). */
static int download_double(const qru_matrix *M, double *h)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    size_t count = (size_t)rows * (size_t)cols;
    if (qru_matrix_dtype(M) == QRU_DOUBLE)
        return qru_matrix_download(M, h, rows);
    float *f = malloc(count * sizeof *f);
    if (!f)
        return QRU_ERR_ALLOC;
    int st = qru_matrix_download(M, f, rows);
    if (!st)
        for (size_t i = 0; i < count; i++)
            h[i] = f[i];
    free(f);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The data series: decimal year and ppm */

typedef struct series {
    int n;
    const double *t; /* decimal years */
    const double *y; /* values (ppm) */
    double *owned;   /* storage when read from a file, else NULL */
    char source[512];
} series;

static void series_embedded(series *s)
{
    s->n = qru_co2_count;
    s->t = qru_co2_x;
    s->y = qru_co2_y;
    s->owned = NULL;
    snprintf(s->source, sizeof s->source,
             "Mauna Loa weekly CO2, NOAA/Scripps via statsmodels (embedded)");
}

/* Reads "x,y" lines; lines whose first non-blank character cannot start a
 * number (header, comments, blank lines) are skipped.  Returns 0 or prints
 * the problem and returns -1. */
static int series_read(series *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "qru: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0, lineno = 0, ok = 1;
    double *t = NULL, *y = NULL;
    char line[4096];
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!(isdigit((unsigned char)*p) || *p == '-' || *p == '+' ||
              *p == '.'))
            continue;
        char *end;
        errno = 0;
        double a = strtod(p, &end);
        int good = end != p;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        good = good && *p == ',';
        double b = 0.0;
        if (good) {
            p++;
            b = strtod(p, &end);
            good = end != p;
            p = end;
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                p++;
            good = good && *p == '\0' && errno == 0 && isfinite(a) &&
                   isfinite(b);
        }
        if (!good) {
            fprintf(stderr, "qru: %s:%d: expected two numbers 'year,value'\n",
                    path, lineno);
            ok = 0;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            double *nt = realloc(t, (size_t)cap * sizeof *t);
            if (nt)
                t = nt;
            double *ny = nt ? realloc(y, (size_t)cap * sizeof *y) : NULL;
            if (ny)
                y = ny;
            if (!nt || !ny) {
                fprintf(stderr, "qru: out of memory reading %s\n", path);
                ok = 0;
                break;
            }
        }
        t[n] = a;
        y[n] = b;
        n++;
    }
    if (ok && ferror(f)) {
        fprintf(stderr, "qru: %s: read error\n", path);
        ok = 0;
    }
    fclose(f);
    if (ok && n == 0) {
        fprintf(stderr, "qru: %s: no data rows\n", path);
        ok = 0;
    }
    if (!ok) {
        free(t);
        free(y);
        return -1;
    }
    /* one allocation owns both columns */
    double *both = malloc(2 * (size_t)n * sizeof *both);
    if (!both) {
        free(t);
        free(y);
        fprintf(stderr, "qru: out of memory reading %s\n", path);
        return -1;
    }
    memcpy(both, t, (size_t)n * sizeof *both);
    memcpy(both + n, y, (size_t)n * sizeof *both);
    free(t);
    free(y);
    s->n = n;
    s->t = both;
    s->y = both + n;
    s->owned = both;
    snprintf(s->source, sizeof s->source, "%s", path);
    return 0;
}

static void series_free(series *s)
{
    free(s->owned);
    s->owned = NULL;
}

/* ------------------------------------------------------------------------ */
/* Demonstrations */

enum { DEMO_PASS = 0, DEMO_FAIL = 1, DEMO_ERROR = 3 };

typedef struct demo_env {
    qru_context *ctx;
    qru_dtype dtype;
    const series *data;
} demo_env;

/* Same margin as the test suite's QRU_TEST_THRESHOLD. */
#define DEMO_THRESHOLD 30.0

/* ---- part "fit": trend + seasonal cycle by least squares ------------------
 *
 * Model, with t = years since the first sample and s = (t - tc) / h the time
 * mapped onto [-1, 1] (tc, h: centre and half-width of the sampled span, so
 * the polynomial columns 1, s, s^2 are O(1) and not nearly parallel):
 *
 *   ppm ~ c0 + c1 s + c2 s^2 + a1 sin(2 pi t) + b1 cos(2 pi t)
 *                            + a2 sin(4 pi t) + b2 cos(4 pi t)
 */
enum { FIT_M = 7 };
static const char *const fit_names[FIT_M] = {
    "c0  level at mid-span (ppm)", "c1  s (ppm)", "c2  s^2 (ppm)",
    "a1  sin(2 pi t) (ppm)",       "b1  cos(2 pi t) (ppm)",
    "a2  sin(4 pi t) (ppm)",       "b2  cos(4 pi t) (ppm)"};

static int demo_fit(const demo_env *env)
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
    opt.flags = 0; /* Q itself is not needed for solving */
    double res = 0.0;
    if ((st = report(upload_new(ctx, dt, n, m, A, &Am), "upload A")) ||
        (st = report(upload_new(ctx, dt, n, 1, b, &bm), "upload b")) ||
        (st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm), "create x")) ||
        (st = report(qru_lsq_create(ctx, Am, bm, &opt, &f), "qru_lsq_create")) ||
        (st = report(qru_lsq_solve(ctx, f, xm), "qru_lsq_solve")) ||
        (st = report(qru_lsq_residual(ctx, f, &res), "qru_lsq_residual")) ||
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
    qru_matrix_free(xm);
    qru_matrix_free(bm);
    qru_matrix_free(Am);
    free(bref);
    free(Aref);
    free(b);
    free(A);
    return rc;
}

/* ---- helpers shared by the parts below ---- */

/* Monotonic wall clock in seconds. */
static double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 2-norm and 2-norm condition number of the n x m (n >= m) host matrix A
 * (leading dimension lda), from its singular values (LAPACKE_dgesvd on a
 * copy).  Returns 0, or -1 when they cannot be computed or A is singular. */
static int cond2(int n, int m, const double *A, int lda, double *norm2,
                 double *kappa)
{
    double *C = malloc((size_t)n * m * sizeof *C);
    double *sv = malloc((size_t)m * sizeof *sv);
    double *superb = malloc((size_t)(m > 1 ? m : 2) * sizeof *superb);
    int rc = -1;
    if (C && sv && superb) {
        for (int j = 0; j < m; j++)
            memcpy(C + (size_t)j * n, A + (size_t)j * lda, n * sizeof *C);
        lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', n, m, C,
                                         n, sv, NULL, 1, NULL, 1, superb);
        if (info == 0 && sv[m - 1] > 0.0) {
            *norm2 = sv[0];
            *kappa = sv[0] / sv[m - 1];
            rc = 0;
        }
    }
    free(superb);
    free(sv);
    free(C);
    return rc;
}

/* ---- part "window": a sliding-window regression kept up to date ----------
 *
 * A window of W consecutive weekly samples slides through the series S
 * samples at a time.  The least-squares fit of the window (linear trend +
 * seasonal cycle) is held as a QR factorisation with Q (qru_lsq,
 * QRU_LSQ_KEEP_Q) and moved with the QR updates instead of being
 * recomputed:
 *
 *   qru_qr_update_add_rows(k = n)      append the S newest samples
 *   qru_qr_update_remove_rows(k = 0)   drop the S oldest (needs Q)
 *
 * One third of the way through, the model gains the third seasonal harmonic
 * (the column block [sin(6 pi t) cos(6 pi t)] inserted after the six
 * columns with qru_qr_update_add_cols) and two thirds of the way through it
 * loses it again (qru_qr_update_remove_cols), so all four updates are used.
 *
 * The time variable of the trend is s = (t - tc) / h with tc, h the centre
 * and half-width of the WHOLE series (as in part "fit"): rows already in
 * the factorisation must not change when the window moves, so s cannot be
 * re-centred per window; a global s in [-1, 1] keeps the columns 1 and s
 * well apart in every window (kappa_2 of a window stays O(10)).
 *
 * After every slide the window is also factorised from scratch with
 * qru_lsq_create (with Q: that is the state the sliding factorisation keeps)
 * and the two solutions are compared.
 *
 * Run 1 slides a ten-year window a year at a time (S = 52) through the
 * whole series, one line per slide.  Run 2 slides it a week at a time
 * (S = 1) for two years: remove_rows rotates the W x W matrix Q, O(S W^2)
 * work, while a refactorisation with Q costs O(W^2 m), so the updates pay
 * off when S is below about the number of columns m. */
enum { WIN_M0 = 6, WIN_MX = 8 };

typedef struct window_stats {
    int slides, updates, failed;
    double t_upd, t_ref;   /* seconds, summed over the slides */
    double max_dx, max_dr; /* largest relative deviations of x and ||r|| */
    double worst;          /* largest deviation / tolerance */
} window_stats;

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
    qru_lsq *f = NULL;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.flags = QRU_LSQ_KEEP_Q;
    int st;
    if (!(st = upload_block(ctx, dt, n0, WIN_M0, P->A, ld, &A0)) &&
        !(st = upload_block(ctx, dt, n0, 1, P->b, ld, &b0)) &&
        !(st = upload_block(ctx, dt, p, WIN_M0, P->A + n0, ld, &U)) &&
        !(st = upload_block(ctx, dt, p, 1, P->b + n0, ld, &e)) &&
        !(st = upload_block(ctx, dt, n0, WIN_MX - WIN_M0,
                            P->A + p + (size_t)WIN_M0 * ld, ld, &C)) &&
        !(st = qru_lsq_create(ctx, A0, b0, &opt, &f)) &&
        !(st = qru_qr_update_add_rows(ctx, f, n0, U, e)) &&
        !(st = qru_qr_update_remove_rows(ctx, f, 0, p)) &&
        !(st = qru_qr_update_add_cols(ctx, f, WIN_M0, C)) &&
        !(st = qru_qr_update_remove_cols(ctx, f, WIN_M0, WIN_MX - WIN_M0)))
        st = qru_context_sync(ctx);
    qru_lsq_destroy(f);
    qru_matrix_free(C);
    qru_matrix_free(e);
    qru_matrix_free(U);
    qru_matrix_free(b0);
    qru_matrix_free(A0);
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
               *xm = NULL;
    qru_lsq *f = NULL, *g = NULL;
    int st = 0, m = WIN_M0, nupd = 0;
    double xu[WIN_MX], xr[WIN_MX], dxv[WIN_MX];
    memset(out, 0, sizeof *out);

    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.flags = QRU_LSQ_KEEP_Q;
    opt.row_capacity = W + step;
    opt.col_capacity = WIN_MX;

    /* the first window: factorised once, not timed */
    if ((st = report(upload_block(ctx, dt, W, m, A, n, &Aw), "upload A")) ||
        (st = report(upload_block(ctx, dt, W, 1, b, n, &bw), "upload b")) ||
        (st = report(qru_lsq_create(ctx, Aw, bw, &opt, &f), "qru_lsq_create")))
        goto done;
    qru_matrix_free(Aw);
    qru_matrix_free(bw);
    Aw = bw = NULL;

    for (int j = 1; j <= nsteps; j++) {
        int r0 = j * step; /* first row of the new window */
        const char *note = "";
        /* the new rows (current column set) and, at slide jadd, the new
         * columns on the rows of the new window */
        if ((st = report(upload_block(ctx, dt, step, m, A + (r0 + W - step),
                                      n, &Ur), "upload U")) ||
            (st = report(upload_block(ctx, dt, step, 1, b + (r0 + W - step),
                                      n, &er), "upload e")))
            goto done;
        if (j == jadd &&
            (st = report(upload_block(ctx, dt, W, WIN_MX - WIN_M0,
                                      A + r0 + (size_t)WIN_M0 * n, n, &Uc),
                         "upload U (columns)")))
            goto done;
        if ((st = report(qru_context_sync(ctx), "qru_context_sync")))
            goto done;

        /* ---- the updates, timed up to the end of the device work */
        double ta = wall_s();
        if ((st = report(qru_qr_update_add_rows(ctx, f, W, Ur, er),
                         "qru_qr_update_add_rows")) ||
            (st = report(qru_qr_update_remove_rows(ctx, f, 0, step),
                         "qru_qr_update_remove_rows")))
            goto done;
        nupd += 2;
        if (j == jadd) {
            if ((st = report(qru_qr_update_add_cols(ctx, f, WIN_M0, Uc),
                             "qru_qr_update_add_cols")))
                goto done;
            m = WIN_MX;
            nupd++;
            note = "  +cols";
        } else if (j == jrem) {
            if ((st = report(qru_qr_update_remove_cols(ctx, f, WIN_M0,
                                                       WIN_MX - WIN_M0),
                             "qru_qr_update_remove_cols")))
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
            (st = report(qru_lsq_solve(ctx, f, xm), "qru_lsq_solve")) ||
            (st = report(download_double(xm, xu), "download x")) ||
            (st = report(qru_lsq_solve(ctx, g, xm), "qru_lsq_solve")) ||
            (st = report(download_double(xm, xr), "download x")) ||
            (st = report(qru_lsq_residual(ctx, f, &res_u),
                         "qru_lsq_residual")) ||
            (st = report(qru_lsq_residual(ctx, g, &res_r),
                         "qru_lsq_residual")))
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
        out->max_dx = dx > out->max_dx ? dx : out->max_dx;
        if (res_r > 0.0 && dr / res_r > out->max_dr)
            out->max_dr = dr / res_r;
        if (dx / xtol > out->worst)
            out->worst = dx / xtol;
        if (dr / rtol > out->worst)
            out->worst = dr / rtol;
        if (verbose || !pass)
            printf("%5d  %7.2f-%7.2f %7.4f %7.4f %9.3f %9.3f %10.2e %10.2e"
                   "  %s%s\n",
                   j, S->t[r0], S->t[r0 + W - 1], xu[1] / P->h,
                   res_u / sqrt((double)W), 1e3 * t_upd, 1e3 * t_ref, dx,
                   xtol, pass ? "PASS" : "FAIL", note);

        qru_lsq_destroy(g);
        g = NULL;
        qru_matrix_free(xm);
        qru_matrix_free(Aw);
        qru_matrix_free(bw);
        qru_matrix_free(Ur);
        qru_matrix_free(er);
        qru_matrix_free(Uc);
        xm = Aw = bw = Ur = er = Uc = NULL;
    }
    out->updates = nupd;

done:
    qru_lsq_destroy(g);
    qru_lsq_destroy(f);
    qru_matrix_free(xm);
    qru_matrix_free(Aw);
    qru_matrix_free(bw);
    qru_matrix_free(Ur);
    qru_matrix_free(er);
    qru_matrix_free(Uc);
    return st;
}

static void window_summary(const char *what, const window_stats *s)
{
    printf("%s %d slides, %d updates: update %.3f ms, refactor %.3f ms "
           "(refactor / update = %.2f)\n",
           what, s->slides, s->updates, 1e3 * s->t_upd, 1e3 * s->t_ref,
           s->t_upd > 0.0 ? s->t_ref / s->t_upd : 0.0);
    printf("            max ||x_upd - x_ref|| / ||x_ref|| = %.3e, "
           "max |r_upd - r_ref| / r_ref = %.3e\n"
           "            largest deviation / tolerance = %.3g, %d of %d slides "
           "failed\n",
           s->max_dx, s->max_dr, s->worst, s->failed, s->slides);
}

static int demo_window(const demo_env *env)
{
    const series *S = env->data;
    qru_context *ctx = env->ctx;
    qru_dtype dt = env->dtype;
    const int n = S->n;
    int rc = DEMO_ERROR;

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

    double t0 = S->t[0], tmin = 0.0, tmax = 0.0;
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0;
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
    }
    double tc = 0.5 * (tmin + tmax), h = 0.5 * (tmax - tmin);
    double ybar = 0.0;
    for (int i = 0; i < n; i++)
        ybar += S->y[i];
    ybar /= n;

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
    printf("updates     add_rows(k = n, S rows) + remove_rows(k = 0, S rows), "
           "Q kept;\n"
           "            slide %d: add_cols(k = %d, [sin cos](6 pi t)), slide "
           "%d: remove_cols(k = %d, p = 2)\n",
           jadd, WIN_M0, jrem, WIN_M0);
    printf("refactor    qru_lsq_create(window, Q kept) after every slide; "
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
    window_stats s1, s2;
    if (window_run(env, &P, W, step, nsteps, jadd, jrem, 1, &s1))
        goto done;
    printf("\n");
    window_summary("run 1      ", &s1);
    if (window_run(env, &P, W, 1, nweekly, 0, 0, 0, &s2))
        goto done;
    printf("run 2       the same window slid by S = 1 sample (one week), "
           "every slide checked:\n");
    window_summary("           ", &s2);
    printf("            (flops: remove_rows rotates the W x W Q, O(S W^2); a "
           "refactorisation\n"
           "            with Q is O(W^2 m): the updates need S below about m = "
           "%d to win; at\n"
           "            this small size fixed costs per call, e.g. kernel "
           "launches, also count)\n",
           WIN_M0);
    int nfail = s1.failed + s2.failed;
    printf("window      %s\n", nfail ? "FAIL" : "PASS");
    rc = nfail ? DEMO_FAIL : DEMO_PASS;

done:
    free(b);
    free(A);
    return rc;
}

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

static int demo_gp(const demo_env *env)
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
    double t0 = S->t[0], tmin = 0.0, tmax = 0.0, ybar = 0.0;
    for (int i = 0; i < n; i++) {
        double t = S->t[i] - t0;
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
        ybar += S->y[i];
    }
    ybar /= n;
    double tc = 0.5 * (tmin + tmax), h = 0.5 * (tmax - tmin);
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
    lopt.flags = 0;
    double c[FIT_M];
    if ((st = report(upload_new(ctx, dt, n, m, A, &Am), "upload A")) ||
        (st = report(upload_new(ctx, dt, n, 1, yb, &bm), "upload b")) ||
        (st = report(qru_matrix_create(ctx, dt, m, 1, 0, &xm), "create x")) ||
        (st = report(qru_lsq_create(ctx, Am, bm, &lopt, &f),
                     "qru_lsq_create")) ||
        (st = report(qru_lsq_solve(ctx, f, xm), "qru_lsq_solve")) ||
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
    qru_matrix_free(xm);
    qru_matrix_free(bm);
    qru_matrix_free(Am);
    free(hy);
    free(hx);
    free(yg);
    free(xg);
    free(yb);
    free(r);
    free(A);
    return rc;
}

/* ---- the table of parts (append new parts here) ---- */
typedef int (*demo_fn)(const demo_env *env);
static const struct demo_part {
    const char *name;
    demo_fn run;
} demo_parts[] = {
    {"fit", demo_fit},
    {"window", demo_window},
    {"gp", demo_gp},
};
enum { N_DEMO_PARTS = sizeof demo_parts / sizeof demo_parts[0] };

static void usage_full(FILE *out)
{
    usage(out);
    for (int i = 0; i < N_DEMO_PARTS; i++)
        fprintf(out, " %s", demo_parts[i].name);
    fprintf(out, "\n");
}

/* ------------------------------------------------------------------------ */
/* Commands */

static int cmd_info(void)
{
    static const qru_backend backends[] = {QRU_BACKEND_CPU, QRU_BACKEND_CUDA,
                                           QRU_BACKEND_OPENCL};
    printf("qru %s\n", qru_version());
    printf("backends compiled in:");
    for (int i = 0; i < 3; i++)
        if (qru_backend_compiled(backends[i]))
            printf(" %s", qru_backend_name(backends[i]));
    printf("\n");
    for (int i = 0; i < 3; i++) {
        qru_backend b = backends[i];
        printf("  %-7s ", qru_backend_name(b));
        if (!qru_backend_compiled(b)) {
            printf("not compiled in\n");
            continue;
        }
        qru_context *ctx = NULL;
        int st = qru_context_create(&ctx, b);
        if (st) {
            printf("no context: %s\n", qru_strerror(st));
            continue;
        }
        const char *dev = qru_context_device_name(ctx);
        printf("%s  [single %s, double %s]\n", dev ? dev : "?",
               qru_context_supports(ctx, QRU_FLOAT) ? "yes" : "no",
               qru_context_supports(ctx, QRU_DOUBLE) ? "yes" : "no");
        qru_context_destroy(ctx);
    }
    qru_context *ctx = NULL;
    int st = qru_context_create(&ctx, QRU_BACKEND_AUTO);
    if (st) {
        printf("auto picks: none (%s)\n", qru_strerror(st));
        return 1;
    }
    const char *dev = qru_context_device_name(ctx);
    printf("auto picks: %s (%s)\n", qru_backend_name(qru_context_backend(ctx)),
           dev ? dev : "?");
    qru_context_destroy(ctx);
    return 0;
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past VALUE. */
static int option_value(int argc, char **argv, int *i, const char *name,
                        const char **value)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return 0;
    if (a[len] == '=') {
        *value = a + len + 1;
        return 1;
    }
    if (a[len] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        *value = NULL;
        return 1;
    }
    *value = argv[++*i];
    return 1;
}

static int cmd_demo(int argc, char **argv)
{
    qru_backend backend = QRU_BACKEND_AUTO;
    qru_dtype dt = QRU_DOUBLE;
    const char *data_path = NULL, *part = NULL, *v = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage_full(stdout);
            return 0;
        } else if (option_value(argc, argv, &i, "--backend", &v)) {
            if (!v || parse_backend(v, &backend)) {
                fprintf(stderr, "qru demo: --backend needs cpu, cuda, opencl "
                                "or auto\n");
                return EXIT_USAGE;
            }
        } else if (option_value(argc, argv, &i, "--precision", &v)) {
            if (!v || parse_precision(v, &dt)) {
                fprintf(stderr,
                        "qru demo: --precision needs double or single\n");
                return EXIT_USAGE;
            }
        } else if (option_value(argc, argv, &i, "--data", &v)) {
            if (!v) {
                fprintf(stderr, "qru demo: --data needs a file name\n");
                return EXIT_USAGE;
            }
            data_path = v;
        } else if (option_value(argc, argv, &i, "--part", &v)) {
            int found = v && strcmp(v, "all") == 0;
            for (int k = 0; v && k < N_DEMO_PARTS; k++)
                found |= strcmp(v, demo_parts[k].name) == 0;
            if (!found) {
                fprintf(stderr, "qru demo: unknown part '%s'\n",
                        v ? v : "");
                usage_full(stderr);
                return EXIT_USAGE;
            }
            part = strcmp(v, "all") == 0 ? NULL : v;
        } else {
            fprintf(stderr, "qru demo: unknown option '%s'\n", argv[i]);
            usage_full(stderr);
            return EXIT_USAGE;
        }
    }

    series data;
    if (data_path) {
        if (series_read(&data, data_path))
            return 1;
    } else {
        series_embedded(&data);
    }

    qru_context *ctx = NULL;
    int st = qru_context_create(&ctx, backend);
    if (st) {
        fprintf(stderr, "qru demo: cannot create a %s context: %s\n",
                qru_backend_name(backend), qru_strerror(st));
        series_free(&data);
        return 1;
    }
    if (!qru_context_supports(ctx, dt)) {
        fprintf(stderr, "qru demo: the %s device (%s) does not compute in %s "
                        "precision\n",
                qru_backend_name(qru_context_backend(ctx)),
                qru_context_device_name(ctx), precision_name(dt));
        qru_context_destroy(ctx);
        series_free(&data);
        return 1;
    }

    demo_env env = {ctx, dt, &data};
    int failed = 0, errors = 0, ran = 0;
    for (int k = 0; k < N_DEMO_PARTS; k++) {
        if (part && strcmp(part, demo_parts[k].name) != 0)
            continue;
        if (ran++)
            printf("\n");
        int rc = demo_parts[k].run(&env);
        failed += rc == DEMO_FAIL;
        errors += rc == DEMO_ERROR;
    }
    qru_context_destroy(ctx);
    series_free(&data);
    printf("\nqru demo: %d part(s), %s\n", ran,
           errors ? "ERROR" : failed ? "FAIL" : "all PASS");
    return failed || errors ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage_full(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage_full(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("qru %s\n", qru_version());
        return 0;
    }
    if (strcmp(cmd, "info") == 0) {
        if (argc > 2) {
            fprintf(stderr, "qru info: takes no arguments\n");
            return EXIT_USAGE;
        }
        return cmd_info();
    }
    if (strcmp(cmd, "demo") == 0)
        return cmd_demo(argc - 2, argv + 2);
    fprintf(stderr, "qru: unknown command '%s'\n", cmd);
    usage_full(stderr);
    return EXIT_USAGE;
}
