/*
 * Run time of the four QR updates against recomputing the least-squares
 * solution from scratch with LAPACKE (geqrf + ormqr + trsv on A1), double
 * precision, on the backend of QRU_TEST_BACKEND (default cpu).
 *
 * usage: bench_updates_cpu [-o file.md] [-r repeats] [-u list] [-Q] [n m]
 *        defaults n = 4000, m = 1000, 5 repeats; the updates are
 *        add 200 rows at k = n/2, remove 200 columns at k = m/2,
 *        remove 100 rows at k = n/2, add 200 columns at k = m/2.
 * -u list: only the updates whose digits appear in list (0 add rows,
 * 1 remove columns, 2 remove rows, 3 add columns; default all);
 * -Q: skip the LAPACKE reference that forms the full Q (slow).
 * The updates that need Q are timed with both update algorithms
 * (QRU_UPDATE_DISSERTATION and QRU_UPDATE_FAST).
 * Each repeat applies the update to a fresh factorisation (not timed) and
 * times the update alone (synchronised); the median is reported.  The
 * updates that work without Q (adding rows, removing columns) are timed on
 * an R-only factorisation too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void die(const char *what, int st)
{
    fprintf(stderr, "bench_updates_cpu: %s failed: %d (%s)\n", what, st,
            qru_strerror(st));
    exit(1);
}

static double *rnd(int rows, int cols, unsigned *seed)
{
    size_t len = (size_t)rows * cols;
    double *a = malloc(sizeof(double) * (len ? len : 1));
    for (size_t i = 0; i < len; ++i) {
        *seed = *seed * 1664525u + 1013904223u;
        a[i] = 2.0 * ((double)(*seed >> 8) / 16777216.0) - 1.0;
    }
    return a;
}

static qru_matrix *up(qru_context *ctx, int rows, int cols, const double *a)
{
    qru_matrix *M = NULL;
    int st = qru_matrix_create(ctx, QRU_DOUBLE, rows, cols, 0, &M);
    if (!st)
        st = qru_matrix_upload(M, a, rows);
    if (st)
        die("matrix upload", st);
    return M;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *t, int n)
{
    qsort(t, n, sizeof *t, cmpd);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

enum { ADD_ROWS, REMOVE_COLS, REMOVE_ROWS, ADD_COLS, NUPD };
static const char *upd_name[NUPD] = {"add rows", "remove columns",
                                     "remove rows", "add columns"};

typedef struct setup {
    int n, m, k, p; /* update parameters */
} setup;

/* LAPACKE solve of the n1 x m1 problem (A1 copied, not timed); with
 * fullq, the full n1 x n1 Q is formed as well (geqrf + orgqr + gemv + trsv:
 * what recomputing a factorisation that holds Q costs) */
static double lapack_time(int n1, int m1, const double *A1, const double *b1,
                          int fullq)
{
    double *A = malloc(sizeof(double) * (size_t)n1 * m1);
    double *b = malloc(sizeof(double) * n1);
    double *tau = malloc(sizeof(double) * m1);
    memcpy(A, A1, sizeof(double) * (size_t)n1 * m1);
    memcpy(b, b1, sizeof(double) * n1);
    double *Q = fullq ? malloc(sizeof(double) * (size_t)n1 * n1) : NULL;
    double *d = fullq ? malloc(sizeof(double) * n1) : NULL;
    double t0 = now();
    lapack_int info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n1, m1, A, n1, tau);
    if (!info && !fullq)
        info = LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', n1, 1, m1, A, n1,
                              tau, b, n1);
    if (!info && fullq) {
        LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'L', n1, m1, A, n1, Q, n1);
        info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, n1, n1, m1, Q, n1, tau);
        cblas_dgemv(CblasColMajor, CblasTrans, n1, n1, 1.0, Q, n1, b, 1, 0.0,
                    d, 1);
        memcpy(b, d, sizeof(double) * n1);
    }
    if (!info)
        cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, m1,
                    A, n1, b, 1);
    double t = now() - t0;
    free(Q);
    free(d);
    if (info)
        die("LAPACKE", (int)info);
    free(A);
    free(b);
    free(tau);
    return t;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    const char *only = "0123";
    int reps = 5, n = 4000, m = 1000, skip_fullq = 0;
    int ai = 1;
    while (ai < argc && argv[ai][0] == '-') {
        if (strcmp(argv[ai], "-Q") == 0) {
            skip_fullq = 1;
            ai += 1;
            continue;
        }
        if (strcmp(argv[ai], "-o") == 0 && ai + 1 < argc)
            out = argv[ai + 1];
        else if (strcmp(argv[ai], "-r") == 0 && ai + 1 < argc)
            reps = atoi(argv[ai + 1]);
        else if (strcmp(argv[ai], "-u") == 0 && ai + 1 < argc)
            only = argv[ai + 1];
        ai += 2;
    }
    if (ai + 1 < argc) {
        n = atoi(argv[ai]);
        m = atoi(argv[ai + 1]);
    }
    if (reps < 1 || reps > 99)
        reps = 5;
    const char *bn = getenv("QRU_TEST_BACKEND");
    qru_backend be = bn && strcmp(bn, "cuda") == 0     ? QRU_BACKEND_CUDA
                     : bn && strcmp(bn, "opencl") == 0 ? QRU_BACKEND_OPENCL
                                                       : QRU_BACKEND_CPU;
    qru_context *ctx = NULL;
    int st = qru_context_create(be, &ctx);
    if (st)
        die("qru_context_create", st);

    setup su[NUPD] = {{n, m, n / 2, n / 20}, {n, m, m / 2, m / 5},
                      {n, m, n / 2, n / 40}, {n, m, m / 2, m / 5}};
    unsigned seed = 12345u;
    double *A = rnd(n, m, &seed), *b = rnd(n, 1, &seed);
    double tq[NUPD], tqf[NUPD], tr[NUPD], tl[NUPD], tlq[NUPD], tcreate = 0.0;
    double *tv[5];
    for (int v = 0; v < 5; ++v)
        tv[v] = malloc(sizeof(double) * reps);
    double *tc = malloc(sizeof(double) * reps);
    double load0[3] = {0, 0, 0}, load1[3] = {0, 0, 0};
    getloadavg(load0, 3);
    int run[NUPD];
    for (int u = 0; u < NUPD; ++u) {
        run[u] = strchr(only, '0' + u) != NULL;
        tq[u] = tqf[u] = tr[u] = tl[u] = tlq[u] = NAN;
    }
    for (int u = 0; u < NUPD; ++u) {
        if (!run[u])
            continue;
        int k = su[u].k, p = su[u].p;
        /* the update's data and A1, b1 for the LAPACK reference */
        int n1 = n, m1 = m;
        double *U = NULL, *e = NULL, *A1, *b1;
        if (u == ADD_ROWS) {
            U = rnd(p, m, &seed);
            e = rnd(p, 1, &seed);
            n1 = n + p;
        } else if (u == ADD_COLS) {
            U = rnd(n, p, &seed);
            m1 = m + p;
        } else if (u == REMOVE_ROWS) {
            n1 = n - p;
        } else {
            m1 = m - p;
        }
        A1 = malloc(sizeof(double) * (size_t)n1 * m1);
        b1 = malloc(sizeof(double) * n1);
        for (int j = 0; j < m1; ++j)
            for (int i = 0; i < n1; ++i) {
                int si = i, sj = j;
                double v;
                if (u == ADD_ROWS && i >= k && i < k + p)
                    v = U[(i - k) + (size_t)j * p];
                else if (u == ADD_COLS && j >= k && j < k + p)
                    v = U[i + (size_t)(j - k) * n];
                else {
                    if (u == ADD_ROWS && i >= k + p)
                        si = i - p;
                    if (u == REMOVE_ROWS && i >= k)
                        si = i + p;
                    if (u == ADD_COLS && j >= k + p)
                        sj = j - p;
                    if (u == REMOVE_COLS && j >= k)
                        sj = j + p;
                    v = A[si + (size_t)sj * n];
                }
                A1[i + (size_t)j * n1] = v;
            }
        for (int i = 0; i < n1; ++i) {
            if (u == ADD_ROWS && i >= k && i < k + p)
                b1[i] = e[i - k];
            else
                b1[i] = b[u == ADD_ROWS && i >= k + p ? i - p
                          : u == REMOVE_ROWS && i >= k ? i + p
                                                       : i];
        }
        qru_matrix *Ad = up(ctx, n, m, A), *bd = up(ctx, n, 1, b);
        qru_matrix *Ud = NULL, *ed = NULL;
        if (U)
            Ud = u == ADD_ROWS ? up(ctx, p, m, U) : up(ctx, n, p, U);
        if (e)
            ed = up(ctx, p, 1, e);
        /* v = 0: Q held, QRU_UPDATE_DISSERTATION; 1: Q held,
         * QRU_UPDATE_FAST; 2: R only.  The variants and the LAPACKE
         * references are interleaved within each repeat, so that they see
         * the same machine load (the machine may be shared). */
        for (int rep = 0; rep < reps; ++rep) {
            for (int v = 0; v < 3; ++v) {
                int wq = v < 2;
                qru_update_algorithm alg =
                    v == 1 ? QRU_UPDATE_FAST : QRU_UPDATE_DISSERTATION;
                if (!wq && (u == REMOVE_ROWS || u == ADD_COLS))
                    continue;
                qru_lsq_options opt;
                qru_lsq_options_init(&opt);
                opt.q = wq ? QRU_Q_FULL : QRU_Q_NONE;
                /* capacity for the added rows / columns reserved up front
                 * (as a long-running application would): growing the
                 * buffers is not part of the update's cost */
                opt.row_capacity = n1 > n ? n1 : n;
                opt.col_capacity = m1 > m ? m1 : m;
                qru_lsq *f = NULL;
                qru_context_sync(ctx);
                double t0 = now();
                st = qru_lsq_create(ctx, Ad, bd, &opt, &f);
                qru_context_sync(ctx);
                if (v == 0)
                    tc[rep] = now() - t0;
                if (st)
                    die("qru_lsq_create", st);
                st = qru_lsq_set_update_algorithm(f, alg);
                if (st)
                    die("qru_lsq_set_update_algorithm", st);
                t0 = now();
                if (u == ADD_ROWS)
                    st = qru_lsq_add_rows(f, k, Ud, ed);
                else if (u == REMOVE_COLS)
                    st = qru_lsq_remove_cols(f, k, p);
                else if (u == REMOVE_ROWS)
                    st = qru_lsq_remove_rows(f, k, p);
                else
                    st = qru_lsq_add_cols(f, k, Ud);
                qru_context_sync(ctx);
                tv[v][rep] = now() - t0;
                if (st)
                    die(upd_name[u], st);
                qru_lsq_destroy(f);
            }
            tv[3][rep] = lapack_time(n1, m1, A1, b1, 0);
            if (!skip_fullq)
                tv[4][rep] = lapack_time(n1, m1, A1, b1, 1);
        }
        tq[u] = median(tv[0], reps);
        tqf[u] = median(tv[1], reps);
        if (!(u == REMOVE_ROWS || u == ADD_COLS))
            tr[u] = median(tv[2], reps);
        tl[u] = median(tv[3], reps);
        if (!skip_fullq)
            tlq[u] = median(tv[4], reps);
        if (tcreate == 0.0)
            tcreate = median(tc, reps);
        qru_matrix_destroy(Ad);
        qru_matrix_destroy(bd);
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(ed);
        free(U);
        free(e);
        free(A1);
        free(b1);
        fprintf(stderr, "%s done\n", upd_name[u]);
    }
    getloadavg(load1, 3);
    FILE *fo = out ? fopen(out, "w") : NULL;
    FILE *fs[2] = {stdout, fo};
    for (int w = 0; w < 2; ++w) {
        if (!fs[w])
            continue;
        fprintf(fs[w],
                "### n = %d, m = %d, double, backend %s (%s), median of %d\n\n",
                n, m, qru_backend_name(be), qru_context_device_name(ctx),
                reps);
        fprintf(fs[w], "| update | k | p | Q held, DISSERTATION (s) | Q held, "
                       "FAST (s) | R only (s) | LAPACKE solve: "
                       "geqrf+ormqr+trsv (s) | LAPACKE with full Q: "
                       "geqrf+orgqr+gemv+trsv (s) | DISSERTATION vs solve | "
                       "FAST vs solve | DISSERTATION vs full Q | FAST vs full "
                       "Q | R only vs solve |\n");
        fprintf(fs[w], "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
                       "---:|---:|---:|\n");
        for (int u = 0; u < NUPD; ++u) {
            if (!run[u])
                continue;
            char rr[32] = "-", sr[32] = "-", fq[32] = "-", dq[32] = "-",
                 fqs[32] = "-";
            if (!isnan(tr[u])) {
                snprintf(rr, sizeof rr, "%.4f", tr[u]);
                snprintf(sr, sizeof sr, "%.1fx", tl[u] / tr[u]);
            }
            if (!isnan(tlq[u])) {
                snprintf(fqs, sizeof fqs, "%.4f", tlq[u]);
                snprintf(dq, sizeof dq, "%.1fx", tlq[u] / tq[u]);
                snprintf(fq, sizeof fq, "%.1fx", tlq[u] / tqf[u]);
            }
            fprintf(fs[w],
                    "| %s | %d | %d | %.4f | %.4f | %s | %.4f | %s | %.2fx "
                    "| %.2fx | %s | %s | %s |\n",
                    upd_name[u], su[u].k, su[u].p, tq[u], tqf[u], rr, tl[u],
                    fqs, tl[u] / tq[u], tl[u] / tqf[u], dq, fq, sr);
        }
        fprintf(fs[w], "\nqru_lsq_create (full QR with Q) of the %d x %d "
                       "problem: %.3f s.  Speed-up = reference time / update "
                       "time.  Load average (1 min) %.2f at the start, %.2f "
                       "at the end.\n",
                n, m, tcreate, load0[0], load1[0]);
    }
    if (fo)
        fclose(fo);
    for (int v = 0; v < 5; ++v)
        free(tv[v]);
    free(tc);
    free(A);
    free(b);
    qru_context_destroy(ctx);
    return 0;
}
