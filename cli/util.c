/* Helpers of the qru program: option parsing, reports, uploads and
 * downloads in the working precision, norms, the clock. */
#include "cli.h"

/* ------------------------------------------------------------------------ */
/* Small helpers */

int parse_backend(const char *s, qru_backend *b)
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

int parse_precision(const char *s, qru_dtype *dt)
{
    if (strcmp(s, "double") == 0)
        *dt = QRU_DOUBLE;
    else if (strcmp(s, "single") == 0 || strcmp(s, "float") == 0)
        *dt = QRU_FLOAT;
    else
        return -1;
    return 0;
}

const char *precision_name(qru_dtype dt)
{
    return dt == QRU_FLOAT ? "single" : "double";
}

/* Unit roundoff of the working precision (LAPACK's ?lamch('E')). */
double unit_roundoff(qru_dtype dt)
{
    return dt == QRU_FLOAT ? 0.5 * FLT_EPSILON : 0.5 * DBL_EPSILON;
}

double nrm2(int n, const double *x)
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
int report(int st, const char *what)
{
    if (!st)
        return 0;
    /* the library's text names the routine, the argument and the rule */
    const char *why = qru_last_error(NULL);
    if (why[0])
        fprintf(stderr, "qru: %s failed: %s (status %d)\n", what, why, st);
    else
        fprintf(stderr, "qru: %s: %s (status %d)\n", what, qru_strerror(st),
                st);
    return st;
}

void progress(const char *what, int i, int n)
{
    static int tty = -1;
    if (tty < 0)
        tty = isatty(fileno(stderr));
    if (!tty)
        return;
    if (i < n)
        fprintf(stderr, "\r[%s] %d/%d", what, i, n);
    else
        fprintf(stderr, "\r%*s\r", (int)strlen(what) + 24, "");
    fflush(stderr);
}

/* Creates a rows x cols matrix of type dt in ctx holding the double host
 * array h (leading dimension ldh >= rows), converted to dt. */
int upload_block(qru_context *ctx, qru_dtype dt, int rows, int cols,
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
        qru_matrix_destroy(A);
        return st;
    }
    *M = A;
    return 0;
}

/* upload_block() of a whole array with leading dimension rows. */
int upload_new(qru_context *ctx, qru_dtype dt, int rows, int cols,
                      const double *h, qru_matrix **M)
{
    return upload_block(ctx, dt, rows, cols, h, rows, M);
}

/* Copies the double host array h into M (a matrix or a batch, any
 * dtype): every page rows x cols with leading dimension rows, the pages
 * one after another, converted to M's type. */
int upload_double(qru_matrix *M, const double *h)
{
    int rows = qru_matrix_rows(M);
    size_t count = (size_t)rows * (size_t)qru_matrix_cols(M) *
                   (size_t)qru_matrix_count(M);
    if (qru_matrix_dtype(M) == QRU_DOUBLE)
        return qru_matrix_upload(M, h, rows);
    float *f = malloc(count * sizeof *f);
    if (!f)
        return QRU_ERR_ALLOC;
    for (size_t i = 0; i < count; i++)
        f[i] = (float)h[i];
    int st = qru_matrix_upload(M, f, rows);
    free(f);
    return st;
}

/* Downloads M (rows x cols, any dtype; a batch: every page, one after
 * another) into the double array h (ld rows). */
int download_double(const qru_matrix *M, double *h)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    size_t count = (size_t)rows * (size_t)cols * (size_t)qru_matrix_count(M);
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


/* ---- helpers shared by the parts below ---- */

/* Monotonic wall clock in seconds. */
double wall_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* 2-norm and 2-norm condition number of the n x m (n >= m) host matrix A
 * (leading dimension lda), from its singular values (LAPACKE_dgesvd on a
 * copy).  Returns 0, or -1 when they cannot be computed or A is singular. */
int cond2(int n, int m, const double *A, int lda, double *norm2,
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

/* The two errors of a least-squares solution against the reference and
 * their first-order bounds (demo_fit.c explains them). */
static void ls_errors(qru_dtype dt, int n, int m, const double *x,
                      const double *xref, double res, double res_ref,
                      double normA2, double kappa, double normAF,
                      double normb, double *xerr, double *xbound,
                      double *rerr_abs, double *rbound)
{
    double e = (n > m ? n : m) * unit_roundoff(dt);
    double dx2 = 0.0;
    for (int j = 0; j < m; j++)
        dx2 += (x[j] - xref[j]) * (x[j] - xref[j]);
    double normxref = nrm2(m, xref);
    *xerr = sqrt(dx2) / normxref;
    *rerr_abs = fabs(res - res_ref);
    *xbound =
        e * kappa * (2.0 + (kappa + 1.0) * res_ref / (normA2 * normxref));
    *rbound = e * (normAF * normxref + normb);
}

int ls_within(qru_dtype dt, int n, int m, const double *x, const double *xref,
              double res, double res_ref, double normA2, double kappa,
              double normAF, double normb, double *xratio, double *rratio)
{
    double xerr, xbound, rerr_abs, rbound;
    ls_errors(dt, n, m, x, xref, res, res_ref, normA2, kappa, normAF, normb,
              &xerr, &xbound, &rerr_abs, &rbound);
    *xratio = xerr / xbound;
    *rratio = rerr_abs / rbound;
    return isfinite(xerr) && isfinite(rerr_abs) &&
           xerr <= DEMO_THRESHOLD * xbound &&
           rerr_abs <= DEMO_THRESHOLD * rbound;
}

int ls_verdict(qru_dtype dt, int n, int m, const double *x, const double *xref,
               double res, double res_ref, double normA2, double kappa,
               double normAF, double normb, const char *what)
{
    double xerr, xbound, rerr_abs, rbound;
    ls_errors(dt, n, m, x, xref, res, res_ref, normA2, kappa, normAF, normb,
              &xerr, &xbound, &rerr_abs, &rbound);
    double xtol = DEMO_THRESHOLD * xbound, rtol = DEMO_THRESHOLD * rbound;
    printf("check       against LAPACKE_dgels in double on %s\n", what);
    printf("            ||x - x_ref|| / ||x_ref||   = %.3e   tolerance %.3e "
           "(%.2g x bound)\n",
           xerr, xtol, xerr / xbound);
    printf("            |res - res_ref| / res_ref   = %.3e   tolerance %.3e "
           "(%.2g x bound)\n",
           res_ref > 0.0 ? rerr_abs / res_ref : rerr_abs,
           res_ref > 0.0 ? rtol / res_ref : rtol, rerr_abs / rbound);
    printf("            tolerance = %.0f x first-order bound with "
           "max(n,m) u = %.3e\n",
           DEMO_THRESHOLD, (n > m ? n : m) * unit_roundoff(dt));
    return isfinite(xerr) && isfinite(rerr_abs) && xerr <= xtol &&
           rerr_abs <= rtol;
}

int ls_reference(int n, int m, const double *A, int lda, const double *b,
                 double *Aw, double *bw, double *xref, double *res_ref,
                 double *normA2, double *kappa)
{
    if (cond2(n, m, A, lda, normA2, kappa)) {
        fprintf(stderr, "qru: condition estimate failed\n");
        return -1;
    }
    for (int j = 0; j < m; j++)
        memcpy(Aw + (size_t)j * n, A + (size_t)j * lda, (size_t)n * sizeof *A);
    memcpy(bw, b, (size_t)n * sizeof *b);
    lapack_int info =
        LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, m, 1, Aw, n, bw, n);
    if (info != 0) {
        fprintf(stderr, "qru: LAPACKE_dgels failed (info %d)\n", (int)info);
        return -1;
    }
    memcpy(xref, bw, (size_t)m * sizeof *xref);
    *res_ref = nrm2(n - m, bw + m);
    return 0;
}
