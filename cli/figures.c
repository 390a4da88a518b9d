/* The figures of `qru demo --plot DIR` and the numbers behind them
 * (`--csv DIR`): the demo parts record named series (fig_record), and
 * fig_write_all draws and writes them at the end of the run.
 *   fit     the data, the fitted model and its trend (demo_fit.c)
 *   window  the trend of each window position, and the update and
 *           refactorisation times per slide (demo_window.c)
 *   gp      the forecast with its +- 2 sd band and the held-out data
 *           (demo_gp.c) */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plot.h"

typedef struct fseries {
    char fig[16], name[24];
    int n, cap;
    double *x, *y;
} fseries;

static fseries *store;
static int nstore, capstore, failed_alloc;

static fseries *find(const char *fig, const char *name, int create)
{
    for (int i = 0; i < nstore; i++)
        if (!strcmp(store[i].fig, fig) && !strcmp(store[i].name, name))
            return &store[i];
    if (!create)
        return NULL;
    if (nstore == capstore) {
        int cap = capstore ? 2 * capstore : 16;
        fseries *s = realloc(store, (size_t)cap * sizeof *s);
        if (!s)
            return NULL;
        store = s;
        capstore = cap;
    }
    fseries *s = &store[nstore++];
    memset(s, 0, sizeof *s);
    snprintf(s->fig, sizeof s->fig, "%s", fig);
    snprintf(s->name, sizeof s->name, "%s", name);
    return s;
}

void fig_record(const char *fig, const char *name, double x, double y)
{
    fseries *s = find(fig, name, 1);
    if (s && s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 256;
        double *nx = realloc(s->x, (size_t)cap * sizeof *nx);
        if (nx)
            s->x = nx;
        double *ny = nx ? realloc(s->y, (size_t)cap * sizeof *ny) : NULL;
        if (ny)
            s->y = ny;
        if (nx && ny)
            s->cap = cap;
    }
    if (!s || s->n == s->cap) {
        failed_alloc = 1;
        return;
    }
    s->x[s->n] = x;
    s->y[s->n] = y;
    s->n++;
}

void fig_free_all(void)
{
    for (int i = 0; i < nstore; i++) {
        free(store[i].x);
        free(store[i].y);
    }
    free(store);
    store = NULL;
    nstore = capstore = 0;
}

/* ---- the layouts ---- */
enum { W = 1000, H = 620 };
static const colour BLUE = 0x1f5fbf, RED = 0xc8322c, GREY = 0x9a9a9a,
                    BLACK = 0x202020, BAND = 0xc9daf2, GREEN = 0x2e8b3c;

/* x and y ranges over the named series of a figure (NULL-terminated) */
static void ranges(const char *fig, const char *const *names, double r[4])
{
    r[0] = r[2] = INFINITY;
    r[1] = r[3] = -INFINITY;
    for (; *names; names++) {
        fseries *s = find(fig, *names, 0);
        if (!s || !s->n)
            continue;
        double lo, hi;
        data_range(s->n, s->x, &lo, &hi);
        r[0] = lo < r[0] ? lo : r[0];
        r[1] = hi > r[1] ? hi : r[1];
        data_range(s->n, s->y, &lo, &hi);
        r[2] = lo < r[2] ? lo : r[2];
        r[3] = hi > r[3] ? hi : r[3];
    }
}

/* The marks of a series (the legends are drawn after all marks). */
static void line_of(axes *a, const char *fig, const char *name, colour c,
                    int thick)
{
    fseries *s = find(fig, name, 0);
    if (s)
        plot_line(a, s->n, s->x, s->y, c, thick);
}

static void points_of(axes *a, const char *fig, const char *name, colour c,
                      int size)
{
    fseries *s = find(fig, name, 0);
    if (s)
        plot_points(a, s->n, s->x, s->y, c, size);
}

static void draw_fit(canvas *c)
{
    static const char *const names[] = {"data", "model", "trend", NULL};
    double r[4];
    ranges("fit", names, r);
    axes a;
    axes_init(&a, c, 110, 70, W - 30, H - 60, r[0], r[1], r[2], r[3],
              "YEAR", "PPM",
              "LEAST-SQUARES FIT: TREND + SEASONAL MODEL");
    points_of(&a, "fit", "data", GREY, 2);
    line_of(&a, "fit", "model", BLUE, 1);
    line_of(&a, "fit", "trend", RED, 3);
    plot_legend(&a, "DATA", GREY, 1);
    plot_legend(&a, "MODEL (TREND + SEASONS)", BLUE, 0);
    plot_legend(&a, "TREND (QUADRATIC PART)", RED, 0);
}

static void draw_window(canvas *c)
{
    static const char *const top[] = {"trend", NULL};
    static const char *const bottom[] = {"update_ms", "refactor_ms", NULL};
    double r[4];
    ranges("window", top, r);
    axes a;
    axes_init(&a, c, 110, 70, W - 30, 285, r[0], r[1], r[2], r[3],
              "END OF THE 10-YEAR WINDOW (YEAR)", "PPM/YEAR",
              "SLIDING WINDOW: TREND OF EACH WINDOW");
    line_of(&a, "window", "trend", RED, 3);
    plot_legend(&a, "TREND, UPDATED FACTORISATION", RED, 0);
    ranges("window", bottom, r);
    r[2] = 0.0;
    axes b;
    axes_init(&b, c, 110, 390, W - 30, H - 60, r[0], r[1], r[2], r[3],
              "END OF THE WINDOW (YEAR)", "MS PER SLIDE",
              "TIME PER SLIDE: QR UPDATES VS REFACTORISATION");
    line_of(&b, "window", "refactor_ms", GREY, 2);
    line_of(&b, "window", "update_ms", GREEN, 2);
    plot_legend(&b, "REFACTORISE (QRU_LSQ_CREATE)", GREY, 0);
    plot_legend(&b, "UPDATE (ADD/REMOVE ROWS, COLS)", GREEN, 0);
}

static void draw_gp(canvas *c)
{
    static const char *const names[] = {"lower", "upper", "observed",
                                        "history", NULL};
    double r[4];
    ranges("gp", names, r);
    axes a;
    axes_init(&a, c, 110, 70, W - 30, H - 60, r[0], r[1], r[2], r[3],
              "YEAR", "PPM",
              "GAUSSIAN-PROCESS FORECAST, +-2 SD, VS HELD-OUT DATA");
    fseries *lo = find("gp", "lower", 0), *hi = find("gp", "upper", 0);
    if (lo && hi && lo->n == hi->n)
        plot_band(&a, lo->n, lo->x, lo->y, hi->y, BAND);
    points_of(&a, "gp", "history", GREY, 3);
    line_of(&a, "gp", "mean", BLUE, 3);
    points_of(&a, "gp", "observed", BLACK, 5);
    plot_legend(&a, "+-2 SD BAND", BAND, 1);
    plot_legend(&a, "DATA USED (LAST 2 YEARS)", GREY, 1);
    plot_legend(&a, "FORECAST MEAN", BLUE, 0);
    plot_legend(&a, "HELD-OUT DATA", BLACK, 1);
}

static const struct {
    const char *fig;
    void (*draw)(canvas *);
} layouts[] = {{"fit", draw_fit}, {"window", draw_window}, {"gp", draw_gp}};

static int make_dir(const char *dir)
{
    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "qru demo: cannot create directory %s: %s\n", dir,
            strerror(errno));
    return -1;
}

static int write_csv(const char *dir, const char *fig)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.csv", dir, fig);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "qru demo: cannot write %s: %s\n", path,
                strerror(errno));
        return -1;
    }
    fprintf(f, "series,x,y\n");
    for (int i = 0; i < nstore; i++)
        if (!strcmp(store[i].fig, fig))
            for (int k = 0; k < store[i].n; k++)
                fprintf(f, "%s,%.10g,%.10g\n", store[i].name, store[i].x[k],
                        store[i].y[k]);
    if (fclose(f) != 0) {
        fprintf(stderr, "qru demo: cannot write %s\n", path);
        return -1;
    }
    printf("wrote       %s\n", path);
    return 0;
}

int fig_write_all(const char *plot_dir, const char *csv_dir)
{
    if (failed_alloc) {
        fprintf(stderr, "qru demo: out of memory recording the figures\n");
        return -1;
    }
    if ((plot_dir && make_dir(plot_dir)) || (csv_dir && make_dir(csv_dir)))
        return -1;
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        int have = 0;
        for (int i = 0; i < nstore; i++)
            have |= !strcmp(store[i].fig, layouts[l].fig);
        if (!have)
            continue; /* the part did not run */
        if (csv_dir && write_csv(csv_dir, layouts[l].fig))
            return -1;
        if (!plot_dir)
            continue;
        canvas c;
        if (canvas_init(&c, W, H)) {
            fprintf(stderr, "qru demo: out of memory drawing %s\n",
                    layouts[l].fig);
            return -1;
        }
        layouts[l].draw(&c);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.png", plot_dir, layouts[l].fig);
        int bad = png_write(path, c.w, c.h, c.rgb);
        canvas_free(&c);
        if (bad) {
            fprintf(stderr, "qru demo: cannot write %s\n", path);
            return -1;
        }
        printf("wrote       %s\n", path);
    }
    return 0;
}
