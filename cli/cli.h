/*
 * The qru command-line program's shared declarations: helpers for uploads,
 * reports and norms (util.c), the data series (series.c), the demo parts
 * (demo_fit.c, demo_window.c, demo_gp.c, demo_select.c, demo_batch.c)
 * and their environment; the
 * commands are in main.c.  The program uses the public API only (qru.h).
 */
#ifndef QRU_CLI_H
#define QRU_CLI_H

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

#include "plot.h"
#include "qru.h"

#define EXIT_USAGE 2

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The data series: decimal year and ppm (series.c) */
typedef struct series {
    int n;
    const double *t; /* decimal years */
    const double *y; /* values (ppm) */
    double *owned;   /* storage when read from a file, else NULL */
    char source[512];
} series;

/* The data series: decimal year and ppm */
void series_embedded(series *s);
/* Reads "year,value" lines; every other line is skipped and reported with
 * its number and the reason; times must increase strictly.  Returns 0 or
 * prints the problem and returns -1. */
int series_read(series *s, const char *path);
/* Explains (on stderr) data on which the demonstrations' model is
 * degenerate: too few rows, too few times of the year, a constant series.
 * Returns 0 or -1. */
int series_check(const series *s);
void series_free(series *s);
/* The demos' time axis: *t0 = the first time, *tc and *h the centre and
 * half-width of the span of t - t0 (so s = (t - t0 - tc) / h lies in
 * [-1, 1]), *ybar the mean of y.  Returns 0, or -1 when the samples are
 * all at one time (h not > 0). */
int series_axis(const series *s, double *t0, double *tc, double *h,
                double *ybar);
/* series_axis for a part that needs at least nmin samples: prints why
 * the data do not do (the part's name first) and returns -1, else 0. */
int series_axis_for(const series *s, const char *part, int nmin, double *t0,
                    double *tc, double *h, double *ybar);

/* ---- helpers (util.c) ---- */
/* Small helpers */
int parse_backend(const char *s, qru_backend *b);
int parse_precision(const char *s, qru_dtype *dt);
const char *precision_name(qru_dtype dt);
/* Unit roundoff of the working precision (LAPACK's ?lamch('E')). */
double unit_roundoff(qru_dtype dt);
double nrm2(int n, const double *x);
/* Prints "qru: WHAT: reason" for a failed library call; returns st. */
int report(int st, const char *what);
/* Creates a rows x cols matrix of type dt in ctx holding the double host
 * array h (leading dimension ldh >= rows), converted to dt. */
int upload_block(qru_context *ctx, qru_dtype dt, int rows, int cols, const double *h, int ldh, qru_matrix **M);
/* upload_block() of a whole array with leading dimension rows. */
int upload_new(qru_context *ctx, qru_dtype dt, int rows, int cols, const double *h, qru_matrix **M);
/* Copies the double host array h into M (a matrix or a batch, any dtype):
 * every page rows x cols with leading dimension rows, one after another. */
int upload_double(qru_matrix *M, const double *h);
/* Downloads M (rows x cols, any dtype; a batch: every page, one after
 * another) into the double array h (ld rows). */
int download_double(const qru_matrix *M, double *h);
/* On a terminal (stderr is a TTY): "\r[what] i/n" as work goes on, and a
 * cleared line when i == n; nothing otherwise (logs stay clean). */
void progress(const char *what, int i, int n);
/* Monotonic wall clock in seconds. */
double wall_s(void);
/* 2-norm and 2-norm condition number of the n x m (n >= m) host matrix A
 * (leading dimension lda), from its singular values (LAPACKE_dgesvd on a
 * copy).  Returns 0, or -1 when they cannot be computed or A is singular. */
int cond2(int n, int m, const double *A, int lda, double *norm2, double *kappa);
/* The reference solution of min ||A x - b|| (A n x m, n >= m, ld lda;
 * b n): LAPACKE_dgels on copies in the work arrays Aw (n x m) and bw (n),
 * xref (m) and ||b - A xref|| into *res_ref, and A's 2-norm and condition
 * (cond2).  Returns 0, or -1 (printed) when either fails. */
int ls_reference(int n, int m, const double *A, int lda, const double *b,
                 double *Aw, double *bw, double *xref, double *res_ref,
                 double *normA2, double *kappa);
/* The verdict of a least-squares solution x (m) with residual norm res
 * against the reference xref, res_ref (LAPACKE_dgels in double on the same
 * problem, n x m, whose 2-norm, condition, Frobenius norm and ||b|| are
 * given): both differences within DEMO_THRESHOLD times their first-order
 * bounds with max(n, m) u (demo_fit.c explains them), printed with what
 * the reference solved.  Returns 1 (pass) or 0. */
int ls_verdict(qru_dtype dt, int n, int m, const double *x, const double *xref,
               double res, double res_ref, double normA2, double kappa,
               double normAF, double normb, const char *what);
/* ls_verdict's test without its report: *xratio and *rratio receive the
 * two differences as multiples of their first-order bounds.  Returns 1
 * (both within DEMO_THRESHOLD) or 0. */
int ls_within(qru_dtype dt, int n, int m, const double *x, const double *xref,
              double res, double res_ref, double normA2, double kappa,
              double normAF, double normb, double *xratio, double *rratio);

/* ---- the demonstration parts ---- */
enum { DEMO_PASS = 0, DEMO_FAIL = 1, DEMO_ERROR = 3 };

typedef struct demo_env {
    qru_context *ctx;
    qru_dtype dtype;
    const series *data;
    int record; /* 1: record the figures' series (--plot / --csv) */
} demo_env;

/* Same margin as the test suite's QRU_TEST_THRESHOLD. */
#define DEMO_THRESHOLD 30.0

/* Columns of the fit's model (demo_fit.c; the gp part de-trends with it). */
enum { FIT_M = 7 };

int demo_fit(const demo_env *env);
int demo_window(const demo_env *env);
int demo_gp(const demo_env *env);
int demo_select(const demo_env *env);
int demo_batch(const demo_env *env);

#endif /* QRU_CLI_H */
