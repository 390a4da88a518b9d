/* Raster plots for `qru demo --plot`: an RGB canvas, a 3 x 5 pixel font,
 * axes with numeric ticks, lines, points and filled bands (plot.c); PNG
 * output (png.c); the recorded series and the three demo figures with
 * their CSV files (figures.c).  No library beyond libc and libm. */
#ifndef QRU_PLOT_H
#define QRU_PLOT_H

typedef struct canvas {
    int w, h;
    unsigned char *rgb; /* w * h * 3 bytes, row-major from the top */
} canvas;

typedef struct axes {
    canvas *c;
    int x0, y0, x1, y1;         /* the plot area in pixels (y0 at the top) */
    double xmin, xmax, ymin, ymax;
    int legend_rows;            /* entries drawn so far */
} axes;

typedef unsigned int colour; /* 0xRRGGBB */

int canvas_init(canvas *c, int w, int h);
void canvas_free(canvas *c);
/* Text in the built-in font (upper case; 3 x 5 glyphs scaled by s). */
void draw_text(canvas *c, int x, int y, const char *s, colour col, int scale);
int text_width(const char *s, int scale);
/* Axes in the pixel rectangle (x0, y0)-(x1, y1) over the data ranges,
 * with frame, grid, numeric ticks, labels and a title. */
void axes_init(axes *a, canvas *c, int x0, int y0, int x1, int y1,
               double xmin, double xmax, double ymin, double ymax,
               const char *xlabel, const char *ylabel, const char *title);
void plot_line(axes *a, int n, const double *x, const double *y, colour col,
               int thick);
void plot_points(axes *a, int n, const double *x, const double *y,
                 colour col, int size);
/* The region between lo and hi over x (increasing). */
void plot_band(axes *a, int n, const double *x, const double *lo,
               const double *hi, colour col);
void plot_legend(axes *a, const char *label, colour col, int is_points);
/* min and max of n values (NaN ignored), widened by 5% */
void data_range(int n, const double *v, double *lo, double *hi);

/* Writes w x h RGB pixels as a PNG file; 0 or -1. */
int png_write(const char *path, int w, int h, const unsigned char *rgb);

/* ---- the recorded series and the demo figures (figures.c) ---- */
/* Appends the point (x, y) to series 'name' of figure 'fig'. */
void fig_record(const char *fig, const char *name, double x, double y);
/* Writes DIR/<fig>.png for every recorded figure (plot_dir) and
 * DIR/<fig>.csv with the numbers behind it (csv_dir); either may be NULL.
 * Prints what it wrote; returns 0, or -1 after printing the problem. */
int fig_write_all(const char *plot_dir, const char *csv_dir);
void fig_free_all(void);

#endif /* QRU_PLOT_H */
