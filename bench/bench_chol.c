/*
 * Cholesky benchmark on the backend under test (QRU_TEST_BACKEND, default
 * cpu), double precision:
 *   1. qru_chol_factor (each variant) vs LAPACKE_dpotrf, n = 512 .. nmax,
 *      median of the repeats (the matrix is restored before each run and
 *      that copy is not timed);
 *   2. appending ONE point to a GP of n points (qru_gp_insert at the end)
 *      vs refactorising K of n + 1 points (qru_chol_factor, and
 *      qru_gp_create which also evaluates K);
 *   3. the accuracy measure of the seed study (section 3.6 of the
 *      BeyondPlanck report): eps = sum_ij |A - L L'|_ij for n = 2688, for
 *      every variant and for LAPACKE_dpotrf, with A_est = L L' formed by
 *      dgemm in double as in the study.
 * Usage: bench_chol [nmax (4096)] [repeats (5)] [gp_n (4096)] [acc_n (2688)]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double urand(unsigned *s)
{
    *s = *s * 1664525u + 1013904223u;
    return ((*s >> 8) + 0.5) / 16777216.0 * 2.0 - 1.0;
}

/* SPD test matrix A = G G' / n + I, G uniform(-1, 1) (n x n). */
static double *spd(int n, unsigned seed)
{
    double *G = malloc(sizeof(double) * (size_t)n * n);
    double *A = malloc(sizeof(double) * (size_t)n * n);
    for (size_t i = 0; i < (size_t)n * n; ++i)
        G[i] = urand(&seed);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0 / n, G, n,
                0.0, A, n);
    for (int j = 0; j < n; ++j) {
        A[j + (size_t)j * n] += 1.0;
        for (int i = 0; i < j; ++i)
            A[i + (size_t)j * n] = A[j + (size_t)i * n];
    }
    free(G);
    return A;
}

/* sum |A - L L'| over all n^2 entries (L: lower triangle of F, ld n);
 * *scaled = ||A - L L'||_F / (||A||_F n eps) */
static double seed_measure(int n, const double *A, const double *F,
                           double *scaled)
{
    double *L = calloc((size_t)n * n, sizeof(double));
    double *E = malloc(sizeof(double) * (size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            L[i + (size_t)j * n] = F[i + (size_t)j * n];
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, L, n, L,
                n, 0.0, E, n);
    double s = 0, f = 0, a = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i) {
        s += fabs(A[i] - E[i]);
        f += (A[i] - E[i]) * (A[i] - E[i]);
        a += A[i] * A[i];
    }
    *scaled = sqrt(f / a) / (n * 1.1102230246251565e-16);
    free(L);
    free(E);
    return s;
}

static const struct {
    const char *name;
    int variant;
} VARS[] = {
    {"qru LEFT", QRU_CHOL_LEFT},
    {"qru LEFT|IN_PLACE", QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE},
    {"qru RIGHT|IN_PLACE", QRU_CHOL_RIGHT | QRU_CHOL_IN_PLACE},
    {"qru CROUT|IN_PLACE", QRU_CHOL_CROUT | QRU_CHOL_IN_PLACE},
};
#define NVARS 4

int main(int argc, char **argv)
{
    int nmax = argc > 1 ? atoi(argv[1]) : 4096;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    int gpn = argc > 3 ? atoi(argv[3]) : 4096;
    int accn = argc > 4 ? atoi(argv[4]) : 2688;
    if (reps < 1)
        reps = 1;
    qru_context *ctx = qru_test_context();
    printf("backend %s, device %s, double precision, median of %d\n",
           qru_backend_name(qru_context_backend(ctx)),
           qru_context_device_name(ctx), reps);
    double *t = malloc(sizeof(double) * (size_t)reps);

    /* 1. factorisation time */
    printf("\n%6s %-20s %10s %9s\n", "n", "routine", "median s", "GFlop/s");
    for (int n = 512; n <= nmax; n *= 2) {
        double *A = spd(n, 1u + (unsigned)n);
        double *W = malloc(sizeof(double) * (size_t)n * n);
        double flops = (double)n * n * n / 3.0;
        for (int r = 0; r < reps; ++r) {
            memcpy(W, A, sizeof(double) * (size_t)n * n);
            double t0 = now();
            int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, W, n);
            t[r] = now() - t0;
            if (info)
                printf("dpotrf failed: %d\n", info);
        }
        double m = median(t, reps);
        printf("%6d %-20s %10.4f %9.2f\n", n, "LAPACKE_dpotrf", m,
               flops / m * 1e-9);
        qru_matrix *A0 = NULL, *M = NULL;
        if (qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &A0) ||
            qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &M) ||
            qru_matrix_upload(A0, A, n)) {
            printf("allocation failed at n = %d\n", n);
            return 1;
        }
        for (int v = 0; v < NVARS; ++v) {
            if ((VARS[v].variant & ~QRU_CHOL_IN_PLACE) == QRU_CHOL_CROUT &&
                n > 2048)
                continue;
            int st = 0;
            for (int r = 0; r < reps; ++r) {
                qru_matrix_copy(A0, M);
                qru_context_sync(ctx);
                double t0 = now();
                st = qru_chol_factor(ctx, 'L', M, VARS[v].variant, 0);
                qru_context_sync(ctx);
                t[r] = now() - t0;
            }
            m = median(t, reps);
            printf("%6d %-20s %10.4f %9.2f%s\n", n, VARS[v].name, m,
                   flops / m * 1e-9, st ? "  (FAILED)" : "");
        }
        qru_matrix_free(A0);
        qru_matrix_free(M);
        free(A);
        free(W);
        fflush(stdout);
    }

    /* 2. GP: append one point vs refactorise */
    if (gpn > 0) {
        unsigned s = 5;
        double *x = malloc(sizeof(double) * (size_t)(gpn + 1));
        double *y = malloc(sizeof(double) * (size_t)(gpn + 1));
        for (int i = 0; i <= gpn; ++i) {
            x[i] = 20.0 * urand(&s);
            y[i] = sin(x[i]);
        }
        qru_gp_options o;
        qru_gp_options_init(&o);
        o.noise_var = 0.1;
        o.capacity = gpn + 1;
        qru_gp *g = NULL;
        int st = qru_gp_create(ctx, QRU_DOUBLE, gpn, x, y, &o, &g);
        if (st) {
            printf("gp create failed: %d\n", st);
            return 1;
        }
        for (int r = 0; r < reps; ++r) {
            double t0 = now();
            st |= qru_gp_insert(g, gpn, 1, x + gpn, y + gpn);
            qru_context_sync(ctx);
            t[r] = now() - t0;
            st |= qru_gp_remove(g, gpn, 1);
        }
        double tins = median(t, reps);
        /* refactorisation of the (n+1) x (n+1) K, and a fresh GP */
        qru_matrix *K = NULL, *M = NULL;
        double *Kh = malloc(sizeof(double) * (size_t)(gpn + 1) * (gpn + 1));
        int n1 = gpn + 1;
        for (int j = 0; j < n1; ++j)
            for (int i = 0; i < n1; ++i) {
                double d = x[i] - x[j];
                Kh[i + (size_t)j * n1] = exp(-0.5 * d * d) + (i == j ? 0.1 : 0);
            }
        qru_matrix_create(ctx, QRU_DOUBLE, n1, n1, 0, &K);
        qru_matrix_create(ctx, QRU_DOUBLE, n1, n1, 0, &M);
        qru_matrix_upload(K, Kh, n1);
        for (int r = 0; r < reps; ++r) {
            qru_matrix_copy(K, M);
            qru_context_sync(ctx);
            double t0 = now();
            st |= qru_chol_factor(ctx, 'L', M, QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE,
                                  0);
            t[r] = now() - t0;
        }
        double tfac = median(t, reps);
        for (int r = 0; r < reps; ++r) {
            qru_gp *f = NULL;
            double t0 = now();
            st |= qru_gp_create(ctx, QRU_DOUBLE, n1, x, y, &o, &f);
            t[r] = now() - t0;
            qru_gp_destroy(f);
        }
        double tcre = median(t, reps);
        printf("\nGP of n = %d points, append one point:\n"
               "  qru_gp_insert (factor update)      %10.6f s\n"
               "  qru_chol_factor of K (n+1)         %10.6f s  (x %.0f)\n"
               "  qru_gp_create (K + factorisation)  %10.6f s  (x %.0f)%s\n",
               gpn, tins, tfac, tfac / tins, tcre, tcre / tins,
               st ? "  (A CALL FAILED)" : "");
        qru_matrix_free(K);
        qru_matrix_free(M);
        qru_gp_destroy(g);
        free(Kh);
        free(x);
        free(y);
        fflush(stdout);
    }

    /* 3. the seed's accuracy measure */
    if (accn > 0) {
        int n = accn;
        double *A = spd(n, 2688u);
        double *F = malloc(sizeof(double) * (size_t)n * n);
        printf("\nAccuracy, n = %d, A = G G'/n + I (G uniform(-1,1)), "
               "||A||_F = %.4g:\n  %-20s %14s %22s\n",
               n, LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', n, n, A, n), "routine",
               "sum|A-LL'|", "||A-LL'||_F/(||A||n eps)");
        memcpy(F, A, sizeof(double) * (size_t)n * n);
        LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, F, n);
        double sc = 0, sm = seed_measure(n, A, F, &sc);
        printf("  %-20s %14.6e %22.3e\n", "LAPACKE_dpotrf", sm, sc);
        qru_matrix *M = NULL;
        qru_matrix_create(ctx, QRU_DOUBLE, n, n, 0, &M);
        for (int v = 0; v < NVARS; ++v) {
            qru_matrix_upload(M, A, n);
            int st = qru_chol_factor(ctx, 'L', M, VARS[v].variant, 0);
            qru_matrix_download(M, F, n);
            sm = seed_measure(n, A, F, &sc);
            printf("  %-20s %14.6e %22.3e%s\n", VARS[v].name, sm, sc,
                   st ? "  (FAILED)" : "");
        }
        qru_matrix_free(M);
        free(A);
        free(F);
    }
    free(t);
    qru_context_destroy(ctx);
    return 0;
}
