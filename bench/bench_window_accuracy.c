/*
 * Accuracy of a long sliding window in each factorisation form:
 * a window of n rows of a stream of uniform(-1, 1) rows (A and b) slides
 * S times by p rows (p added at the end with qru_lsq_add_rows, p removed
 * at the start with qru_lsq_remove_rows, or qru_lsq_remove_rows_data in
 * the Q-less form) and every C slides the factorisation is checked
 * against LAPACK on the current window (all in double on the host):
 *   e_x = ||x - x_ref|| / (||x_ref|| kappa(A) n eps)    x_ref: dgels
 *   e_r = |res - res_ref| / (||b|| n eps)
 *   e_R = ||R'R - A'A||_F / (||A||_F^2 n eps)
 *   e_Q = ||Q1'Q1 - I||_F / (n eps), e_A = ||A - Q1 R||_F / (||A||_F n eps)
 *         (full and thin forms; Q1 = the first m columns of Q)
 * and the largest downdate estimate qru_lsq_get_downdate_condition() since the
 * last check is recorded.  In the Q-less form each check also reads
 * qru_lsq_get_error_estimate() (est, the estimated relative error of x),
 * reports it in e_x's units (e_est = est / (kappa n eps)) with the range of
 * its ratio to the measured ||x - x_ref|| / ||x_ref||, and counts the
 * checks where e_x exceeds 30 but e_est does not (missed).  A removal the library refuses (status > 0: the
 * downdate would lose definiteness) is counted and the window refactorised.
 *
 *   QRU_TEST_BACKEND=cpu|cuda|opencl bench_window_accuracy [-o FILE.md]
 *       [-S slides] [-C every] n m p
 * Prints a Markdown table (and writes it to FILE.md).
 */
#include <float.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru.h"

static void die(int st, const char *what, qru_context *ctx)
{
    if (st) {
        fprintf(stderr, "bench_window_accuracy: %s: %d (%s)\n", what, st,
                ctx ? qru_last_error(ctx) : qru_strerror(st));
        exit(1);
    }
}

/* row i of the stream (m entries of A, then b), deterministic in i */
static void stream_row(long i, int m, double *a, double *b)
{
    unsigned long long s = 0x9E3779B97F4A7C15ull * (unsigned long long)(i + 1);
    for (int j = 0; j <= m; ++j) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double v = (double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
        if (j < m)
            a[j] = v;
        else
            *b = v;
    }
}

/* rows r0 .. r0+rows-1 of the stream as a rows x m matrix and rows x 1 */
static void stream_block(long r0, int rows, int m, double *A, double *b)
{
    double *row = malloc(sizeof(double) * (size_t)(m + 1));
    for (int i = 0; i < rows; ++i) {
        stream_row(r0 + i, m, row, b + i);
        for (int j = 0; j < m; ++j)
            A[i + (size_t)j * rows] = row[j];
    }
    free(row);
}

static qru_matrix *upload(qru_context *ctx, qru_dtype dt, int rows, int cols,
                          const double *a)
{
    qru_matrix *M;
    die(qru_matrix_create(ctx, dt, rows, cols, 0, &M), "create", ctx);
    if (dt == QRU_DOUBLE) {
        die(qru_matrix_upload(M, a, rows), "upload", ctx);
    } else {
        float *f = malloc(sizeof(float) * (size_t)rows * cols);
        for (size_t i = 0; i < (size_t)rows * cols; ++i)
            f[i] = (float)a[i];
        die(qru_matrix_upload(M, f, rows), "upload", ctx);
        free(f);
    }
    return M;
}

static double *download(qru_matrix *M, qru_dtype dt)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    double *a = malloc(sizeof(double) * (size_t)rows * cols);
    if (dt == QRU_DOUBLE) {
        die(qru_matrix_download(M, a, rows), "download", NULL);
    } else {
        float *f = malloc(sizeof(float) * (size_t)rows * cols);
        die(qru_matrix_download(M, f, rows), "download", NULL);
        for (size_t i = 0; i < (size_t)rows * cols; ++i)
            a[i] = f[i];
        free(f);
    }
    return a;
}

typedef struct errs {
    double ex, er, eR, eQ, eA;
    double est, ratio; /* Q-less: qru_lsq_get_error_estimate in e_x's units,
                          and its ratio to the error it estimates */
} errs;

/* the checks of f against the window W (n x m), bw (n) */
static errs check(qru_context *ctx, qru_dtype dt, qru_lsq *f, int form, int n,
                  int m, const double *W, const double *bw)
{
    errs e = {0, 0, 0, 0, 0, 0, 0};
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
    /* reference: dgels and the singular values */
    double *Aw = malloc(sizeof(double) * (size_t)n * m);
    double *bb = malloc(sizeof(double) * (size_t)n);
    double *sv = malloc(sizeof(double) * (size_t)m);
    double *sup = malloc(sizeof(double) * (size_t)m);
    memcpy(Aw, W, sizeof(double) * (size_t)n * m);
    memcpy(bb, bw, sizeof(double) * (size_t)n);
    die(LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, m, 1, Aw, n, bb, n), "dgels",
        NULL);
    double res_ref = cblas_dnrm2(n - m, bb + m, 1);
    memcpy(Aw, W, sizeof(double) * (size_t)n * m);
    die(LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', n, m, Aw, n, sv, NULL, 1,
                       NULL, 1, sup), "dgesvd", NULL);
    double kappa = sv[0] / sv[m - 1];
    double nA = 0.0;
    for (size_t i = 0; i < (size_t)n * m; ++i)
        nA += W[i] * W[i];
    nA = sqrt(nA);
    double nb = cblas_dnrm2(n, bw, 1);
    /* qru's solution and residual */
    qru_matrix *X;
    die(qru_matrix_create(ctx, dt, m, 1, 0, &X), "create x", ctx);
    die(qru_lsq_solve(f, X), "qru_lsq_solve", ctx);
    double *x = download(X, dt), res;
    die(qru_lsq_get_residual_norms(f, &res), "qru_lsq_get_residual_norms", ctx);
    double dx = 0.0, xn = 0.0;
    for (int j = 0; j < m; ++j) {
        dx += (x[j] - bb[j]) * (x[j] - bb[j]);
        xn += bb[j] * bb[j];
    }
    e.ex = sqrt(dx) / (sqrt(xn) * kappa * n * eps);
    if (form == QRU_Q_NONE) {
        double est;
        die(qru_lsq_get_error_estimate(f, &est), "qru_lsq_get_error_estimate", ctx);
        e.est = est / (kappa * n * eps);
        e.ratio = est / (sqrt(dx) / sqrt(xn));
    }
    e.er = fabs(res - res_ref) / (nb * n * eps);
    /* R'R - A'A */
    qru_matrix *RM;
    die(qru_matrix_create(ctx, dt, m, m, 0, &RM), "create R", ctx);
    die(qru_lsq_get_r(f, RM), "qru_lsq_get_r", ctx);
    double *R = download(RM, dt);
    double *G = malloc(sizeof(double) * (size_t)m * m);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, m, n, 1.0, W, n,
                W, n, 0.0, G, m);
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, m, m, -1.0, R, m,
                R, m, 1.0, G, m);
    double g = 0.0;
    for (size_t i = 0; i < (size_t)m * m; ++i)
        g += G[i] * G[i];
    e.eR = sqrt(g) / (nA * nA * n * eps);
    if (form != QRU_Q_NONE) {
        qru_matrix *QM;
        die(qru_matrix_create(ctx, dt, n, m, 0, &QM), "create Q", ctx);
        die(qru_lsq_get_q(f, QM), "qru_lsq_get_q", ctx);
        double *Q = download(QM, dt);
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < m; ++i)
                G[i + (size_t)j * m] = i == j ? -1.0 : 0.0;
        cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, m, m, n, 1.0, Q,
                    n, Q, n, 1.0, G, m);
        g = 0.0;
        for (size_t i = 0; i < (size_t)m * m; ++i)
            g += G[i] * G[i];
        e.eQ = sqrt(g) / (n * eps);
        memcpy(Aw, W, sizeof(double) * (size_t)n * m);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, m, -1.0,
                    Q, n, R, m, 1.0, Aw, n);
        g = 0.0;
        for (size_t i = 0; i < (size_t)n * m; ++i)
            g += Aw[i] * Aw[i];
        e.eA = sqrt(g) / (nA * n * eps);
        free(Q);
        qru_matrix_destroy(QM);
    }
    free(R);
    free(G);
    free(x);
    qru_matrix_destroy(RM);
    qru_matrix_destroy(X);
    free(Aw);
    free(bb);
    free(sv);
    free(sup);
    return e;
}

static void emit(FILE *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void emit(FILE *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (out) {
        va_start(ap, fmt);
        vfprintf(out, fmt, ap);
        va_end(ap);
    }
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    int S = 10000, C = 500, a = 1;
    for (; a < argc && argv[a][0] == '-'; ++a) {
        if (!strcmp(argv[a], "-o") && a + 1 < argc)
            file = argv[++a];
        else if (!strcmp(argv[a], "-S") && a + 1 < argc)
            S = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-C") && a + 1 < argc)
            C = atoi(argv[++a]);
        else
            break;
    }
    if (argc - a != 3 || S < 1 || C < 1) {
        fprintf(stderr, "usage: bench_window_accuracy [-o FILE.md] [-S "
                        "slides] [-C every] n m p\n");
        return 2;
    }
    int n = atoi(argv[a]), m = atoi(argv[a + 1]), p = atoi(argv[a + 2]);
    if (m < 1 || p < 1 || n < m + p) {
        fprintf(stderr, "bench_window_accuracy: need n >= m + p, m, p >= 1\n");
        return 2;
    }
    const char *be = getenv("QRU_TEST_BACKEND");
    qru_backend backend = be && !strcmp(be, "cuda")     ? QRU_BACKEND_CUDA
                          : be && !strcmp(be, "opencl") ? QRU_BACKEND_OPENCL
                                                        : QRU_BACKEND_CPU;
    qru_context *ctx;
    die(qru_context_create(backend, &ctx), "qru_context_create", NULL);
    FILE *out = file ? fopen(file, "w") : NULL;
    emit(out, "Sliding window on the %s backend: n = %d rows, m = %d, "
              "slides of p = %d rows in and out, %d slides, checked every "
              "%d against LAPACK on the window.  Scaled errors (the largest "
              "over the checks; the test suite's threshold is 30): e_x = "
              "||x - x_ref|| / (||x_ref|| kappa n eps), e_r = |res - res_ref| "
              "/ (||b|| n eps), e_R = ||R'R - A'A|| / (||A||^2 n eps), e_Q = "
              "||Q1'Q1 - I|| / (n eps), e_A = ||A - Q1 R|| / (||A|| n eps); "
              "cond = the largest qru_lsq_get_downdate_condition(); refused = "
              "removals refused (status > 0); Q-less: e_est = "
              "qru_lsq_get_error_estimate() / (kappa n eps) (the largest), "
              "est/err = its ratio to ||x - x_ref|| / ||x_ref|| (smallest "
              "and largest over the checks), missed = checks with e_x > 30 "
              "and e_est <= 30.\n\n",
         qru_backend_name(backend), n, m, p, S, C);
    emit(out, "| form | precision | checks | e_x | e_r | e_R | e_Q | e_A | "
              "cond | refused | e_est | est/err | missed |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    double *W = malloc(sizeof(double) * (size_t)n * m);
    double *bw = malloc(sizeof(double) * (size_t)n);
    double *U = malloc(sizeof(double) * (size_t)p * m);
    double *e = malloc(sizeof(double) * (size_t)p);
    static const char *const fname[] = {"full Q", "thin Q", "Q-less"};
    for (int form = 0; form < 3; ++form)
        for (int di = 0; di < 2; ++di) {
            qru_dtype dt = di ? QRU_FLOAT : QRU_DOUBLE;
            if (!qru_context_supports(ctx, dt))
                continue;
            qru_lsq_options opt;
            qru_lsq_options_init(&opt);
            opt.q = form;
            opt.row_capacity = n + p;
            stream_block(0, n, m, W, bw);
            qru_matrix *Wd = upload(ctx, dt, n, m, W), *bd = upload(ctx, dt, n, 1, bw);
            qru_lsq *f;
            die(qru_lsq_create(ctx, Wd, bd, &opt, &f), "qru_lsq_create", ctx);
            qru_matrix_destroy(Wd);
            qru_matrix_destroy(bd);
            errs worst = {0, 0, 0, 0, 0, 0, 0};
            double cmax = 0.0, rlo = INFINITY, rhi = 0.0;
            int checks = 0, refused = 0, missed = 0;
            for (int s = 1; s <= S; ++s) {
                long r0 = (long)s * p; /* the new window's first row */
                stream_block(r0 + n - p, p, m, U, e);
                qru_matrix *Ud = upload(ctx, dt, p, m, U), *ed = upload(ctx, dt, p, 1, e);
                die(qru_lsq_add_rows(f, n, Ud, ed), "qru_lsq_add_rows", ctx);
                qru_matrix_destroy(Ud);
                qru_matrix_destroy(ed);
                int st;
                if (form == QRU_Q_NONE) {
                    stream_block(r0 - p, p, m, U, e);
                    Ud = upload(ctx, dt, p, m, U);
                    ed = upload(ctx, dt, p, 1, e);
                    st = qru_lsq_remove_rows_data(f, 0, Ud, ed);
                    qru_matrix_destroy(Ud);
                    qru_matrix_destroy(ed);
                } else {
                    st = qru_lsq_remove_rows(f, 0, p);
                }
                stream_block(r0, n, m, W, bw);
                if (st > 0) { /* refused: refactorise the window */
                    ++refused;
                    qru_lsq_destroy(f);
                    Wd = upload(ctx, dt, n, m, W);
                    bd = upload(ctx, dt, n, 1, bw);
                    die(qru_lsq_create(ctx, Wd, bd, &opt, &f), "create", ctx);
                    qru_matrix_destroy(Wd);
                    qru_matrix_destroy(bd);
                } else {
                    die(st, "remove rows", ctx);
                }
                double c = 0.0;
                die(qru_lsq_get_downdate_condition(f, &c),
                    "qru_lsq_get_downdate_condition", ctx);
                cmax = c > cmax ? c : cmax;
                if (s % C == 0 || s == S) {
                    errs x = check(ctx, dt, f, form, n, m, W, bw);
                    ++checks;
                    worst.ex = fmax(worst.ex, x.ex);
                    worst.er = fmax(worst.er, x.er);
                    worst.eR = fmax(worst.eR, x.eR);
                    worst.eQ = fmax(worst.eQ, x.eQ);
                    worst.eA = fmax(worst.eA, x.eA);
                    worst.est = fmax(worst.est, x.est);
                    rlo = fmin(rlo, x.ratio);
                    rhi = fmax(rhi, x.ratio);
                    missed += x.ex > 30.0 && !(x.est > 30.0);
                }
            }
            if (form == QRU_Q_NONE)
                emit(out, "| %s | %s | %d | %.2g | %.2g | %.2g | - | - | %.3g "
                          "| %d | %.2g | %.2g - %.2g | %d |\n", fname[form],
                     di ? "float" : "double", checks, worst.ex, worst.er,
                     worst.eR, cmax, refused, worst.est, rlo, rhi, missed);
            else if (form == QRU_Q_THIN)
                emit(out, "| %s | %s | %d | %.2g | %.2g | %.2g | %.2g | %.2g "
                          "| %.3g | %d | - | - | - |\n", fname[form],
                     di ? "float" : "double", checks, worst.ex, worst.er,
                     worst.eR, worst.eQ, worst.eA, cmax, refused);
            else
                emit(out, "| %s | %s | %d | %.2g | %.2g | %.2g | %.2g | %.2g "
                          "| - | %d | - | - | - |\n", fname[form],
                     di ? "float" : "double", checks, worst.ex, worst.er,
                     worst.eR, worst.eQ, worst.eA, refused);
            qru_lsq_destroy(f);
        }
    free(W);
    free(bw);
    free(U);
    free(e);
    if (out)
        fclose(out);
    qru_context_destroy(ctx);
    return 0;
}
