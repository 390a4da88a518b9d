/*
 * Accuracy of the Cholesky rank-k update and downdate (qru_chol_update) on
 * ill-conditioned factors, by the two engines the tuning knob
 * chol_r1_max_k picks between: the structured passes (chol_r1_max_k = 32)
 * and the rotations (chol_r1_max_k = 0), on the backend of
 * QRU_TEST_BACKEND (default cpu).
 *
 * A0 = V diag(s) V' (V orthogonal, s from 1 down to 10^-c; c = 8, 10, 12
 * in double, 2, 3, 4 in float), W n x k:
 *   update:            the factor of A0, sign +1, W = 0.3 uniform(-1, 1);
 *   downdate:          the factor of A0 + W W', sign -1 (back to A0, of
 *                      condition 10^c), W as above;
 *   downdate, aligned: the same with W = V(:, n-k:n-1) / sqrt(2) +
 *                      10^-3 uniform(-1, 1): the downdate removes most of
 *                      A's weight in its k weakest directions.
 * The input factor L is the double factor rounded to the precision, and
 * the measure is the scaled backward error of the result L1 against the
 * matrix the inputs define exactly (in double):
 *   ||L L' + sign W W' - L1 L1'||_F / (n eps ||L L' + sign W W'||_F),
 * the largest over lower and upper factors ("fail N": status N).
 *
 * usage: bench_chol_rk_accuracy [-n N (200)] [-o file.md]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_internal.h"
#include "qru_test.h"

static void die(int st, const char *what)
{
    if (st) {
        fprintf(stderr, "bench_chol_rk_accuracy: %s: status %d\n", what, st);
        exit(1);
    }
}

/* The orthogonal factor of a random n x n matrix (LAPACKE). */
static double *orthogonal(int n, unsigned *seed)
{
    double *V = malloc(sizeof(double) * (size_t)n * n),
           *tau = malloc(sizeof(double) * (size_t)n);
    if (!V || !tau)
        die(QRU_HOST_ALLOC_FAILED, "orthogonal");
    for (size_t i = 0; i < (size_t)n * n; ++i)
        V[i] = qru_test_urand(seed);
    die(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, V, n, tau), "dgeqrf");
    die(LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, V, n, tau), "dorgqr");
    free(tau);
    return V;
}

/* V diag(s) V', s_j = 10^(-c j / (n-1)), exactly symmetric. */
static double *spd_of(int n, const double *V, double c)
{
    double *VS = malloc(sizeof(double) * (size_t)n * n),
           *A = malloc(sizeof(double) * (size_t)n * n);
    if (!VS || !A)
        die(QRU_HOST_ALLOC_FAILED, "spd");
    for (int j = 0; j < n; ++j) {
        double sj = pow(10.0, -c * j / (n > 1 ? n - 1 : 1));
        for (int i = 0; i < n; ++i)
            VS[i + (size_t)j * n] = V[i + (size_t)j * n] * sj;
    }
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, VS, n,
                V, n, 0.0, A, n);
    for (int j = 0; j < n; ++j)
        for (int i = j + 1; i < n; ++i)
            A[j + (size_t)i * n] = A[i + (size_t)j * n];
    free(VS);
    return A;
}

/* x rounded to the precision dt. */
static double rnd(qru_dtype dt, double x)
{
    return dt == QRU_DOUBLE ? x : (double)(float)x;
}

/* n x c host array (ld n) of dt from the doubles X (ld n). */
static void *to_dt(qru_dtype dt, int n, int c, const double *X)
{
    size_t len = (size_t)n * c;
    void *h = malloc(len * (dt == QRU_DOUBLE ? 8 : 4) + 8);
    if (!h)
        die(QRU_HOST_ALLOC_FAILED, "to_dt");
    for (size_t i = 0; i < len; ++i) {
        if (dt == QRU_DOUBLE)
            ((double *)h)[i] = X[i];
        else
            ((float *)h)[i] = (float)X[i];
    }
    return h;
}

/* One call on the factor L (lower, doubles already rounded to dt, zeros
 * above) stored as uplo; returns the scaled backward error, or -status. */
static double one(qru_context *ctx, qru_dtype dt, char uplo, int n, int k,
                  int sign, const double *L, const double *W)
{
    double *F = calloc((size_t)n * n, sizeof(double));
    if (!F)
        die(QRU_HOST_ALLOC_FAILED, "one");
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double v = L[i + (size_t)j * n];
            if (uplo == 'L')
                F[i + (size_t)j * n] = v;
            else
                F[j + (size_t)i * n] = v;
        }
    void *hf = to_dt(dt, n, n, F), *hw = to_dt(dt, n, k, W);
    qru_matrix *Lm = NULL, *Wm = NULL;
    die(qru_matrix_create(ctx, dt, n, n, n, &Lm), "create L");
    die(qru_matrix_create(ctx, dt, n, k, n, &Wm), "create W");
    die(qru_matrix_upload(Lm, hf, n), "upload L");
    die(qru_matrix_upload(Wm, hw, n), "upload W");
    int st = qru_chol_update(ctx, uplo, Lm, Wm, sign, Lm);
    double r = -(double)st;
    if (st == 0) {
        die(qru_matrix_download(Lm, hf, n), "download");
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) {
                size_t e = uplo == 'L' ? i + (size_t)j * n : j + (size_t)i * n;
                F[i + (size_t)j * n] = dt == QRU_DOUBLE
                                           ? ((double *)hf)[e]
                                           : (double)((float *)hf)[e];
                if (i > j)
                    F[j + (size_t)i * n] = 0.0;
            }
        /* E = L L' + sign W W' - L1 L1' and A1 = L L' + sign W W' */
        double *A1 = malloc(sizeof(double) * (size_t)n * n),
               *E = malloc(sizeof(double) * (size_t)n * n);
        if (!A1 || !E)
            die(QRU_HOST_ALLOC_FAILED, "one");
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, L,
                    n, L, n, 0.0, A1, n);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, k,
                    (double)sign, W, n, W, n, 1.0, A1, n);
        memcpy(E, A1, sizeof(double) * (size_t)n * n);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, F,
                    n, F, n, 1.0, E, n);
        double ne = 0, na = 0;
        for (size_t i = 0; i < (size_t)n * n; ++i) {
            ne += E[i] * E[i];
            na += A1[i] * A1[i];
        }
        r = sqrt(ne) / (sqrt(na) * n * qru_test_eps(dt));
        free(A1);
        free(E);
    }
    qru_matrix_destroy(Lm);
    qru_matrix_destroy(Wm);
    free(hf);
    free(hw);
    free(F);
    return r;
}

static void cell(char *s, size_t len, double e)
{
    if (e < 0)
        snprintf(s, len, "fail %d", (int)-e);
    else
        snprintf(s, len, "%.3g", e);
}

int main(int argc, char **argv)
{
    int n = 200;
    const char *md = NULL;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "-n") && a + 1 < argc)
            n = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-o") && a + 1 < argc)
            md = argv[++a];
        else {
            fprintf(stderr, "usage: bench_chol_rk_accuracy [-n N] [-o "
                            "file.md]\n");
            return 2;
        }
    }
    qru_context *ctx = qru_test_context();
    if (!ctx)
        return 77;
    FILE *f = md ? fopen(md, "w") : NULL;
    char head[256];
    snprintf(head, sizeof head,
             "Cholesky rank-k update / downdate, n = %d, %s: scaled "
             "backward error, max of lower and upper\n\n",
             n, qru_context_device_name(ctx));
    static const char *rule =
        "| precision | case | cond(A0) | k | structured | rotations |\n"
        "|---|---|---:|---:|---:|---:|\n";
    fputs(head, stdout);
    fputs(rule, stdout);
    if (f) {
        fputs(head, f);
        fputs(rule, f);
    }
    static const char *kinds[] = {"update", "downdate", "downdate, aligned"};
    /* float: the definiteness rule refuses factors much beyond 10^4 */
    static const double conds[2][3] = {{2, 3, 4}, {8, 10, 12}};
    static const int ks[] = {2, 8, 32};
    unsigned seed = 4242;
    double *V = orthogonal(n, &seed);
    for (int d = 0; d < qru_test_ndtypes(ctx); ++d) {
        qru_dtype dt = qru_test_dtype(ctx, d);
        for (int kd = 0; kd < 3; ++kd)
            for (int ci = 0; ci < 3; ++ci)
                for (int ki = 0; ki < 3; ++ki) {
                    int k = ks[ki] < n ? ks[ki] : n, sign = kd ? -1 : 1;
                    double *A0 = spd_of(n, V, conds[dt == QRU_DOUBLE][ci]);
                    double *W = malloc(sizeof(double) * (size_t)n * k);
                    if (!W)
                        die(QRU_HOST_ALLOC_FAILED, "W");
                    for (int c = 0; c < k; ++c)
                        for (int i = 0; i < n; ++i) {
                            double r = qru_test_urand(&seed);
                            W[i + (size_t)c * n] =
                                kd == 2 ? V[i + (size_t)(n - k + c) * n] /
                                                  sqrt(2.0) +
                                              1e-3 * r
                                        : 0.3 * r;
                        }
                    for (int c = 0; c < n * k; ++c)
                        W[c] = rnd(dt, W[c]);
                    /* the factor of A0 (update) or of A0 + W W' */
                    if (kd)
                        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans,
                                    n, n, k, 1.0, W, n, W, n, 1.0, A0, n);
                    die(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, A0, n),
                        "dpotrf");
                    for (int j = 0; j < n; ++j)
                        for (int i = 0; i < n; ++i)
                            A0[i + (size_t)j * n] =
                                i < j ? 0.0 : rnd(dt, A0[i + (size_t)j * n]);
                    double e[2] = {0, 0};
                    for (int g = 0; g < 2; ++g)
                        for (int u = 0; u < 2; ++u) {
                            die(qru_ctx_set_tuning(ctx, dt,
                                                   QRU_TUNE_CHOL_R1_MAX_K,
                                                   g ? 0 : 32),
                                "tuning");
                            double r =
                                one(ctx, dt, u ? 'U' : 'L', n, k, sign, A0, W);
                            if (r < 0 || e[g] < 0)
                                e[g] = e[g] < 0 ? e[g] : r;
                            else if (r > e[g])
                                e[g] = r;
                        }
                    char c0[32], c1[32], line[256];
                    cell(c0, sizeof c0, e[0]);
                    cell(c1, sizeof c1, e[1]);
                    snprintf(line, sizeof line,
                             "| %s | %s | 1e%.0f | %d | %s | %s |\n",
                             dt == QRU_DOUBLE ? "double" : "float", kinds[kd],
                             conds[dt == QRU_DOUBLE][ci], k, c0, c1);
                    fputs(line, stdout);
                    if (f)
                        fputs(line, f);
                    fflush(stdout);
                    free(A0);
                    free(W);
                }
    }
    free(V);
    if (f)
        fclose(f);
    qru_context_destroy(ctx);
    return 0;
}
