/* The data series of the demonstrations: the embedded Mauna Loa CO2
 * series and the CSV reader of --data FILE. */
#include "cli.h"

#include "co2_data.h"

/* ------------------------------------------------------------------------ */
/* The data series: decimal year and ppm */


void series_embedded(series *s)
{
    s->n = qru_co2_count;
    s->t = qru_co2_x;
    s->y = qru_co2_y;
    s->owned = NULL;
    snprintf(s->source, sizeof s->source,
             "Mauna Loa weekly CO2, NOAA/Scripps via statsmodels (embedded)");
}

/* The line without its line break, for messages. */
static const char *shown(char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    return line;
}

/* Reads "year,value" lines.  Every other line is skipped and reported on
 * stderr with its number and the reason; times that do not increase
 * strictly stop the reading.  Returns 0 or prints the problem and returns
 * -1. */
int series_read(series *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "qru: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int n = 0, cap = 0, lineno = 0, ok = 1, prev_line = 0, skipped = 0;
    double *t = NULL, *y = NULL;
    char line[4096];
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        const char *why = NULL;
        double a = 0.0, b = 0.0;
        if (*p == '\0' || *p == '\r' || *p == '\n') {
            why = "blank line";
        } else if (*p == '#') {
            why = "comment";
        } else {
            char *end;
            a = strtod(p, &end);
            int good = end != p;
            p = end;
            while (*p == ' ' || *p == '\t')
                p++;
            good = good && *p == ',';
            if (good) {
                p++;
                b = strtod(p, &end);
                good = end != p;
                p = end;
                while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
                    p++;
                good = good && *p == '\0';
            }
            if (!good)
                why = n == 0 && isalpha((unsigned char)line[0])
                          ? "not two numbers (a header?)"
                          : "expected 'year,value': two numbers separated "
                            "by a comma";
            else if (!isfinite(a) || !isfinite(b))
                why = "a value is not finite (NaN or Inf)";
        }
        if (why) {
            fprintf(stderr, "qru: %s:%d: skipped: %s: '%s'\n", path, lineno,
                    why, shown(line));
            skipped++;
            continue;
        }
        if (n > 0 && !(a > t[n - 1])) {
            fprintf(stderr,
                    "qru: %s:%d: the time %.10g is not after %.10g (line %d): "
                    "times must increase strictly, one value per time\n",
                    path, lineno, a, t[n - 1], prev_line);
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
        prev_line = lineno;
    }
    if (ok && ferror(f)) {
        fprintf(stderr, "qru: %s: read error\n", path);
        ok = 0;
    }
    fclose(f);
    if (ok && n == 0) {
        fprintf(stderr, "qru: %s: no data rows ('year,value' lines)\n", path);
        ok = 0;
    }
    if (!ok) {
        free(t);
        free(y);
        return -1;
    }
    if (skipped)
        fprintf(stderr, "qru: %s: %d line(s) skipped, %d data rows read\n",
                path, skipped, n);
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Explains data on which the model of the demonstrations is degenerate,
 * before any library call fails on it.  Returns 0 or -1. */
int series_check(const series *s)
{
    const char *src = s->source;
    if (s->n < FIT_M + 1) {
        fprintf(stderr,
                "qru: %s: %d data rows, but the trend + seasonal model has "
                "%d coefficients: at least %d rows are needed\n",
                src, s->n, FIT_M, FIT_M + 1);
        return -1;
    }
    /* the seasonal terms sin/cos(2 pi t), sin/cos(4 pi t) and the constant
     * need at least 5 different times of the year */
    double *ph = malloc((size_t)s->n * sizeof *ph);
    if (!ph) {
        fprintf(stderr, "qru: out of memory\n");
        return -1;
    }
    for (int i = 0; i < s->n; i++)
        ph[i] = round((s->t[i] - floor(s->t[i])) * 365.25 * 24.0); /* hour */
    qsort(ph, (size_t)s->n, sizeof *ph, cmp_double);
    int phases = 1;
    for (int i = 1; i < s->n; i++)
        phases += ph[i] != ph[i - 1];
    free(ph);
    if (phases < 5) {
        fprintf(stderr,
                "qru: %s: the times fall on only %d different time(s) of "
                "the year (e.g. yearly data): the seasonal terms of the "
                "model (sin and cos of 2 pi t and 4 pi t) cannot be told "
                "apart from the constant, so the least-squares problem is "
                "rank deficient; use data sampled through the year (weekly "
                "or monthly)\n",
                src, phases);
        return -1;
    }
    int varies = 0;
    for (int i = 1; i < s->n && !varies; i++)
        varies = s->y[i] != s->y[0];
    if (!varies) {
        fprintf(stderr,
                "qru: %s: every value is %.10g: a constant series leaves "
                "nothing for the Gaussian process to model (zero variance)\n",
                src, s->y[0]);
        return -1;
    }
    return 0;
}

void series_free(series *s)
{
    free(s->owned);
    s->owned = NULL;
}

int series_axis(const series *s, double *t0, double *tc, double *h,
                double *ybar)
{
    double tmin = 0.0, tmax = 0.0, sum = 0.0;
    *t0 = s->t[0];
    for (int i = 0; i < s->n; i++) {
        double t = s->t[i] - *t0;
        tmin = t < tmin ? t : tmin;
        tmax = t > tmax ? t : tmax;
        sum += s->y[i];
    }
    *tc = 0.5 * (tmin + tmax);
    *h = 0.5 * (tmax - tmin);
    *ybar = s->n > 0 ? sum / s->n : 0.0;
    return *h > 0.0 ? 0 : -1;
}

int series_axis_for(const series *s, const char *part, int nmin, double *t0,
                    double *tc, double *h, double *ybar)
{
    if (s->n < nmin) {
        fprintf(stderr, "qru: %s needs at least %d samples, the data has "
                        "%d\n", part, nmin, s->n);
        return -1;
    }
    if (series_axis(s, t0, tc, h, ybar)) {
        fprintf(stderr, "qru: %s needs samples at more than one time\n",
                part);
        return -1;
    }
    return 0;
}
