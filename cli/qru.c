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
            "  demo      fit a trend + seasonal model to the Mauna Loa CO2\n"
            "            series with the library and check the result against\n"
            "            LAPACKE; exit status 0 only if every check passes\n"
            "  help      this message\n"
            "\n"
            "demo options:\n"
            "  --backend cpu|cuda|opencl|auto   (default auto)\n"
            "  --precision double|single        (default double)\n"
            "  --data FILE   use a CSV of the same form as data/co2.csv\n"
            "                (decimal year, ppm) instead of the embedded series\n"
            "  --part NAME   run one part only (default: all); parts:");
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
 * array h (leading dimension rows), converted to dt. */
static int upload_new(qru_context *ctx, qru_dtype dt, int rows, int cols,
                      const double *h, qru_matrix **M)
{
    size_t count = (size_t)rows * (size_t)cols;
    void *buf = (void *)h;
    if (dt == QRU_FLOAT) {
        float *f = malloc(count * sizeof *f);
        if (!f)
            return QRU_ERR_ALLOC;
        for (size_t i = 0; i < count; i++)
            f[i] = (float)h[i];
        buf = f;
    }
    qru_matrix *A = NULL;
    int st = qru_matrix_create(ctx, dt, rows, cols, 0, &A);
    if (!st)
        st = qru_matrix_upload(A, buf, rows);
    if (buf != h)
        free(buf);
    if (st) {
        qru_matrix_free(A);
        return st;
    }
    *M = A;
    return 0;
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

/* ---- the table of parts (append new parts here) ---- */
typedef int (*demo_fn)(const demo_env *env);
static const struct demo_part {
    const char *name;
    demo_fn run;
} demo_parts[] = {
    {"fit", demo_fit},
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
