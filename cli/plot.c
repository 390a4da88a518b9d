/* Raster plotting for `qru demo --plot`: canvas, font, axes and marks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

int canvas_init(canvas *c, int w, int h)
{
    c->w = w;
    c->h = h;
    c->rgb = malloc(3 * (size_t)w * (size_t)h);
    if (!c->rgb)
        return -1;
    memset(c->rgb, 255, 3 * (size_t)w * (size_t)h);
    return 0;
}

void canvas_free(canvas *c)
{
    free(c->rgb);
    c->rgb = NULL;
}

static void pixel(canvas *c, int x, int y, colour col)
{
    if (x < 0 || y < 0 || x >= c->w || y >= c->h)
        return;
    unsigned char *p = c->rgb + 3 * ((size_t)y * c->w + x);
    p[0] = (unsigned char)(col >> 16);
    p[1] = (unsigned char)(col >> 8);
    p[2] = (unsigned char)col;
}

static void fill(canvas *c, int x0, int y0, int x1, int y1, colour col)
{
    for (int y = y0; y <= y1; y++)
        for (int x = x0; x <= x1; x++)
            pixel(c, x, y, col);
}

static void line(canvas *c, int x0, int y0, int x1, int y1, colour col,
                 int thick)
{
    int dx = abs(x1 - x0), dy = -abs(y1 - y0);
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    int lo = -(thick - 1) / 2, hi = thick / 2;
    for (int guard = 0; guard < 100000; guard++) {
        fill(c, x0 + lo, y0 + lo, x0 + hi, y0 + hi, col);
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/* ---- the font: 3 x 5 glyphs, rows from the top, '1' = ink ---- */
static const struct {
    char ch;
    const char *rows;
} glyphs[] = {
    {'0', "111101101101111"}, {'1', "010110010010111"},
    {'2', "111001111100111"}, {'3', "111001111001111"},
    {'4', "101101111001001"}, {'5', "111100111001111"},
    {'6', "111100111101111"}, {'7', "111001001010010"},
    {'8', "111101111101111"}, {'9', "111101111001111"},
    {'A', "010101111101101"}, {'B', "110101110101110"},
    {'C', "011100100100011"}, {'D', "110101101101110"},
    {'E', "111100110100111"}, {'F', "111100110100100"},
    {'G', "011100101101011"}, {'H', "101101111101101"},
    {'I', "111010010010111"}, {'J', "001001001101010"},
    {'K', "101101110101101"}, {'L', "100100100100111"},
    {'M', "101111111101101"}, {'N', "110101101101101"},
    {'O', "010101101101010"}, {'P', "110101110100100"},
    {'Q', "010101101110011"}, {'R', "110101110101101"},
    {'S', "011100010001110"}, {'T', "111010010010010"},
    {'U', "101101101101111"}, {'V', "101101101101010"},
    {'W', "101101111111101"}, {'X', "101101010101101"},
    {'Y', "101101010010010"}, {'Z', "111001010100111"},
    {'.', "000000000000010"}, {'-', "000000111000000"},
    {'+', "000010111010000"}, {':', "000010000010000"},
    {'/', "001001010100100"}, {'(', "001010010010001"},
    {')', "100010010010100"}, {'%', "101001010100101"},
    {',', "000000000010100"}, {'=', "000111000111000"},
    {'^', "010101000000000"}, {'_', "000000000000111"},
};

int text_width(const char *s, int scale) { return (int)strlen(s) * 4 * scale; }

void draw_text(canvas *c, int x, int y, const char *s, colour col, int scale)
{
    for (; *s; s++, x += 4 * scale) {
        char ch = *s >= 'a' && *s <= 'z' ? (char)(*s - 'a' + 'A') : *s;
        for (size_t g = 0; g < sizeof glyphs / sizeof glyphs[0]; g++) {
            if (glyphs[g].ch != ch)
                continue;
            for (int i = 0; i < 15; i++)
                if (glyphs[g].rows[i] == '1')
                    fill(c, x + (i % 3) * scale, y + (i / 3) * scale,
                         x + (i % 3 + 1) * scale - 1,
                         y + (i / 3 + 1) * scale - 1, col);
        }
    }
}

/* ---- axes ---- */
static int px(const axes *a, double x)
{
    return a->x0 + (int)lround((x - a->xmin) / (a->xmax - a->xmin) *
                               (a->x1 - a->x0));
}

static int py(const axes *a, double y)
{
    return a->y1 - (int)lround((y - a->ymin) / (a->ymax - a->ymin) *
                               (a->y1 - a->y0));
}

/* A tick step of 1, 2, 5 or 10 times a power of ten: at most 8 ticks. */
static double tick_step(double range)
{
    double s = pow(10.0, floor(log10(range / 6.0)));
    static const double f[] = {1, 2, 5, 10};
    for (int i = 0; i < 3; i++)
        if (range / (f[i] * s) <= 8.0)
            return f[i] * s;
    return f[3] * s;
}

void data_range(int n, const double *v, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) {
            a = v[i] < a ? v[i] : a;
            b = v[i] > b ? v[i] : b;
        }
    if (!(a <= b)) {
        a = 0.0;
        b = 1.0;
    }
    double pad = b > a ? 0.05 * (b - a) : (fabs(a) > 0 ? 0.05 * fabs(a) : 1);
    *lo = a - pad;
    *hi = b + pad;
}

void axes_init(axes *a, canvas *c, int x0, int y0, int x1, int y1,
               double xmin, double xmax, double ymin, double ymax,
               const char *xlabel, const char *ylabel, const char *title)
{
    a->c = c;
    a->x0 = x0;
    a->y0 = y0;
    a->x1 = x1;
    a->y1 = y1;
    a->xmin = xmin;
    a->xmax = xmax > xmin ? xmax : xmin + 1;
    a->ymin = ymin;
    a->ymax = ymax > ymin ? ymax : ymin + 1;
    a->legend_rows = 0;
    const colour grid = 0xe4e4e4, ink = 0x202020;
    char buf[32];
    double sx = tick_step(a->xmax - a->xmin), sy = tick_step(a->ymax - a->ymin);
    for (double t = ceil(a->xmin / sx) * sx; t <= a->xmax + 1e-9 * sx; t += sx) {
        int x = px(a, t);
        line(c, x, y0, x, y1, grid, 1);
        line(c, x, y1, x, y1 + 5, ink, 1);
        snprintf(buf, sizeof buf, "%g", fabs(t) < 1e-12 * sx ? 0.0 : t);
        draw_text(c, x - text_width(buf, 2) / 2, y1 + 9, buf, ink, 2);
    }
    for (double t = ceil(a->ymin / sy) * sy; t <= a->ymax + 1e-9 * sy; t += sy) {
        int y = py(a, t);
        line(c, x0, y, x1, y, grid, 1);
        line(c, x0 - 5, y, x0, y, ink, 1);
        snprintf(buf, sizeof buf, "%g", fabs(t) < 1e-12 * sy ? 0.0 : t);
        draw_text(c, x0 - 8 - text_width(buf, 2), y - 5, buf, ink, 2);
    }
    line(c, x0, y0, x1, y0, ink, 1);
    line(c, x0, y1, x1, y1, ink, 1);
    line(c, x0, y0, x0, y1, ink, 1);
    line(c, x1, y0, x1, y1, ink, 1);
    draw_text(c, (x0 + x1 - text_width(xlabel, 2)) / 2, y1 + 26, xlabel, ink,
              2);
    draw_text(c, x0, y0 - 16, ylabel, ink, 2);
    draw_text(c, (x0 + x1 - text_width(title, 3)) / 2, y0 - 38, title, ink, 3);
}

/* the plot area, so that marks never cover the ticks */
static int inside(const axes *a, int x, int y)
{
    return x >= a->x0 && x <= a->x1 && y >= a->y0 && y <= a->y1;
}

void plot_line(axes *a, int n, const double *x, const double *y, colour col,
               int thick)
{
    for (int i = 1; i < n; i++) {
        if (!isfinite(x[i - 1] + y[i - 1] + x[i] + y[i]))
            continue;
        int xa = px(a, x[i - 1]), ya = py(a, y[i - 1]);
        int xb = px(a, x[i]), yb = py(a, y[i]);
        if (inside(a, xa, ya) && inside(a, xb, yb))
            line(a->c, xa, ya, xb, yb, col, thick);
    }
}

void plot_points(axes *a, int n, const double *x, const double *y,
                 colour col, int size)
{
    for (int i = 0; i < n; i++) {
        int xp = px(a, x[i]), yp = py(a, y[i]);
        if (isfinite(x[i] + y[i]) && inside(a, xp, yp))
            fill(a->c, xp - size / 2, yp - size / 2, xp + size / 2,
                 yp + size / 2, col);
    }
}

void plot_band(axes *a, int n, const double *x, const double *lo,
               const double *hi, colour col)
{
    for (int i = 1; i < n; i++) {
        int xa = px(a, x[i - 1]), xb = px(a, x[i]);
        for (int xp = xa; xp <= xb; xp++) {
            double f = xb > xa ? (double)(xp - xa) / (xb - xa) : 0.0;
            int ylo = py(a, lo[i - 1] + f * (lo[i] - lo[i - 1]));
            int yhi = py(a, hi[i - 1] + f * (hi[i] - hi[i - 1]));
            for (int yp = yhi; yp <= ylo; yp++)
                if (inside(a, xp, yp))
                    pixel(a->c, xp, yp, col);
        }
    }
}

void plot_legend(axes *a, const char *label, colour col, int is_points)
{
    int x = a->x0 + 14, y = a->y0 + 14 + 20 * a->legend_rows++;
    fill(a->c, x - 4, y - 5, x + 34 + text_width(label, 2), y + 14,
         0xffffff); /* the entry stays readable over the marks */
    if (is_points)
        fill(a->c, x + 8, y + 1, x + 14, y + 7, col);
    else
        line(a->c, x, y + 4, x + 22, y + 4, col, 3);
    draw_text(a->c, x + 30, y, label, 0x202020, 2);
}
