/*
 * The result tables (text for Octave's load, and CSV), flushed on a signal.
 * (Shared parts of the GPU benchmarks; see bench_gpu_common.h.)
 */
#include "bench_gpu_common.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

/* ---- tables --------------------------------------------------------------- */

struct bg_table {
    char path[1024];
    char head[8192];
    size_t hlen;
    int ncol;
    char **cols;
    double *v;
    int nrow, cap;
};

/* Tables still open when the program exits (a FATAL error) are written
 * with what they hold, so one failing point does not lose the others. */
#define BG_MAX_OPEN 16
static bg_table *g_open[BG_MAX_OPEN];

static void flush_open_tables(void)
{
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (g_open[i]) {
            bg_table *t = g_open[i];
            g_open[i] = NULL;
            bg_table_note(t, "ABORTED: the program stopped with an error "
                             "(see its log); rows above are complete");
            bg_table_close(t);
        }
}

/* SIGTERM (the `timeout` of scripts/gpu-check): write what the open tables
 * hold before dying.  Not async-signal-safe in theory; good enough for a
 * benchmark that is being killed anyway. */
static void on_term(int sig)
{
    (void)sig;
    exit(124); /* runs flush_open_tables */
}

bg_table *bg_table_new(const bg_opts *o, const char *name, qru_dtype dt,
                       const char *device, const char *title,
                       const char *cols)
{
    static int registered;
    bg_table *t = calloc(1, sizeof *t);
    if (!t)
        exit(1);
    if (!registered) {
        atexit(flush_open_tables);
        signal(SIGTERM, on_term);
        registered = 1;
    }
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (!g_open[i]) {
            g_open[i] = t;
            break;
        }
    snprintf(t->path, sizeof t->path, "%s/%s_%c", o->outdir, name,
             bg_dtype_char(dt));
    char *cs = strdup(cols);
    for (char *w = strtok(cs, " "); w; w = strtok(NULL, " ")) {
        t->cols = realloc(t->cols, sizeof(char *) * (size_t)(t->ncol + 1));
        t->cols[t->ncol++] = strdup(w);
    }
    free(cs);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%MZ", &tmv);
    bg_table_note(t, "qru %s %s: %s", qru_version(), o->prog, title);
    bg_table_note(t, "device: %s", device);
    bg_table_note(t, "date: %s", date);
    bg_table_note(t, "precision: %s", bg_dtype_name(dt));
    return t;
}

void bg_table_note(bg_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (t->hlen + 4 < sizeof t->head) {
        t->hlen += (size_t)snprintf(t->head + t->hlen, sizeof t->head - t->hlen,
                                    "%% ");
        if (t->hlen < sizeof t->head) {
            int w = vsnprintf(t->head + t->hlen, sizeof t->head - t->hlen, fmt,
                              ap);
            if (w > 0)
                t->hlen += (size_t)w;
        }
        if (t->hlen + 1 < sizeof t->head) {
            t->head[t->hlen++] = '\n';
            t->head[t->hlen] = '\0';
        } else {
            t->hlen = sizeof t->head - 1;
        }
    }
    va_end(ap);
}

void bg_table_row(bg_table *t, const double *v)
{
    if (t->nrow == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = realloc(t->v, sizeof(double) * (size_t)t->cap * t->ncol);
        if (!t->v)
            exit(1);
    }
    memcpy(t->v + (size_t)t->nrow * t->ncol, v, sizeof(double) * t->ncol);
    t->nrow++;
}

static void fmt_val(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "NaN");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.5g", v);
}

void bg_table_close(bg_table *t)
{
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (g_open[i] == t)
            g_open[i] = NULL;
    int *w = calloc((size_t)t->ncol, sizeof(int));
    char buf[64];
    for (int c = 0; c < t->ncol; ++c) {
        w[c] = (int)strlen(t->cols[c]);
        for (int i = 0; i < t->nrow; ++i) {
            fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
            if ((int)strlen(buf) > w[c])
                w[c] = (int)strlen(buf);
        }
    }
    char path[1100];
    snprintf(path, sizeof path, "%s.txt", t->path);
    FILE *ft = fopen(path, "w");
    snprintf(path, sizeof path, "%s.csv", t->path);
    FILE *fc = fopen(path, "w");
    if (!ft || !fc)
        fprintf(stderr, "WARNING: cannot write %s.{txt,csv}\n", t->path);
    FILE *outs[2] = {stdout, ft};
    for (int f = 0; f < 2; ++f) {
        FILE *o = outs[f];
        if (!o)
            continue;
        fputs(t->head, o);
        fputs("%", o);
        for (int c = 0; c < t->ncol; ++c)
            fprintf(o, " %*s", c ? w[c] : w[c] - 1 > 0 ? w[c] - 1 : 1,
                    t->cols[c]);
        fputs("\n", o);
        for (int i = 0; i < t->nrow; ++i) {
            for (int c = 0; c < t->ncol; ++c) {
                fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
                fprintf(o, "%s%*s", c ? " " : "", w[c], buf);
            }
            fputs("\n", o);
        }
        fputs("\n", o);
    }
    if (fc) {
        for (int c = 0; c < t->ncol; ++c)
            fprintf(fc, "%s%s", c ? "," : "", t->cols[c]);
        fputs("\n", fc);
        for (int i = 0; i < t->nrow; ++i) {
            for (int c = 0; c < t->ncol; ++c) {
                fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
                fprintf(fc, "%s%s", c ? "," : "", buf);
            }
            fputs("\n", fc);
        }
    }
    if (ft)
        fclose(ft);
    if (fc)
        fclose(fc);
    fflush(stdout);
    for (int c = 0; c < t->ncol; ++c)
        free(t->cols[c]);
    free(t->cols);
    free(t->v);
    free(w);
    free(t);
}
