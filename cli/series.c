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

/* Reads "x,y" lines; lines whose first non-blank character cannot start a
 * number (header, comments, blank lines) are skipped.  Returns 0 or prints
 * the problem and returns -1. */
int series_read(series *s, const char *path)
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

void series_free(series *s)
{
    free(s->owned);
    s->owned = NULL;
}
