/*
 * Accuracy of the four QR updates (Andrew 2012, section 5.7): for an n x m
 * least-squares problem (uniform(-1,1) entries), k = 0 and block sizes p,
 * each update is applied once to a fresh factorisation (with Q) on the
 * backend of QRU_TEST_BACKEND (default cpu), and
 *   e_x = ||x - x_ref||_2 / ||x_ref||_2   (x_ref: LAPACKE_dgels on A1, b1)
 *   e_Q = ||Q1' Q1 - I||_2
 *   e_A = ||Q1 R1 - A1||_2 / ||A1||_2
 * are measured (2-norms by power iteration in double precision).
 *
 * usage: bench_accuracy [-o file.md] [n m [p ...]]
 *        defaults n = 4000, m = 2000, p = 100 300 500 700 900.
 * Prints a Markdown table per precision (and writes it to file.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru.h"

/* Test support's helpers use Check assertions, which only work inside a
 * Check test run, so the benchmark has its own small helpers. */
static size_t elsize(qru_dtype dt)
{
    return dt == QRU_DOUBLE ? sizeof(double) : sizeof(float);
}

static qru_context *bench_context(void)
{
    const char *b = getenv("QRU_TEST_BACKEND");
    qru_backend be = QRU_BACKEND_CPU;
    if (b && strcmp(b, "cuda") == 0)
        be = QRU_BACKEND_CUDA;
    else if (b && strcmp(b, "opencl") == 0)
        be = QRU_BACKEND_OPENCL;
    qru_context *ctx = NULL;
    int st = qru_context_create(be, &ctx);
    if (st) {
        fprintf(stderr, "no context on %s: %s\n", qru_backend_name(be),
                qru_strerror(st));
        exit(77);
    }
    return ctx;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void die(const char *what, int st)
{
    fprintf(stderr, "bench_accuracy: %s failed: %d (%s)\n", what, st,
            qru_strerror(st));
    exit(1);
}

/* rows x cols uniform(-1,1) values representable in dt, as doubles */
static double *rnd(qru_dtype dt, int rows, int cols, unsigned *seed)
{
    size_t len = (size_t)rows * cols;
    double *a = malloc(sizeof(double) * (len ? len : 1));
    for (size_t i = 0; i < len; ++i) {
        *seed = *seed * 1664525u + 1013904223u;
        double v = 2.0 * ((double)(*seed >> 8) / 16777216.0) - 1.0;
        a[i] = dt == QRU_DOUBLE ? v : (double)(float)v;
    }
    return a;
}

static qru_matrix *up(qru_context *ctx, qru_dtype dt, int rows, int cols,
                      const double *a)
{
    qru_matrix *M = NULL;
    int st = qru_matrix_create(ctx, dt, rows, cols, 0, &M);
    if (st)
        die("qru_matrix_create", st);
    void *h = malloc(elsize(dt) * (size_t)rows * cols);
    for (size_t i = 0; i < (size_t)rows * cols; ++i)
        if (dt == QRU_DOUBLE)
            ((double *)h)[i] = a[i];
        else
            ((float *)h)[i] = (float)a[i];
    st = qru_matrix_upload(M, h, rows);
    if (st)
        die("qru_matrix_upload", st);
    free(h);
    return M;
}

static double *down(const qru_matrix *M)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    qru_dtype dt = qru_matrix_dtype(M);
    void *h = malloc(elsize(dt) * (size_t)rows * cols);
    int st = qru_matrix_download(M, h, rows);
    if (st)
        die("qru_matrix_download", st);
    double *a = malloc(sizeof(double) * (size_t)rows * cols);
    for (size_t i = 0; i < (size_t)rows * cols; ++i)
        a[i] = dt == QRU_DOUBLE ? ((double *)h)[i] : ((float *)h)[i];
    free(h);
    return a;
}

static double nrm(int n, const double *v) { return cblas_dnrm2(n, v, 1); }

/* ||Q'Q - I||_2 for the n x n Q, by power iteration on the symmetric E */
static double orth2(int n, const double *Q)
{
    double *v = malloc(sizeof(double) * n), *w = malloc(sizeof(double) * n),
           *y = malloc(sizeof(double) * n);
    unsigned s = 7;
    for (int i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = (double)(s >> 8) / 16777216.0 - 0.5;
    }
    double est = 0.0, nv = nrm(n, v);
    cblas_dscal(n, 1.0 / nv, v, 1);
    for (int it = 0; it < 40; ++it) {
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, Q, n, v, 1, 0.0,
                    y, 1);
        cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, Q, n, y, 1, 0.0, w,
                    1);
        cblas_daxpy(n, -1.0, v, 1, w, 1);
        est = nrm(n, w);
        if (est == 0.0)
            break;
        for (int i = 0; i < n; ++i)
            v[i] = w[i] / est;
    }
    free(v);
    free(w);
    free(y);
    return est;
}

/* ||Q R - A||_2 (sub = 1) or ||A||_2 (sub = 0) by power iteration on M'M;
 * Q n x n, R n x m (upper trapezoidal), A n x m */
static double resid2(int n, int m, const double *Q, const double *R,
                     const double *A, int sub)
{
    double *v = malloc(sizeof(double) * m), *z = malloc(sizeof(double) * m),
           *t = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
    unsigned s = 11;
    for (int i = 0; i < m; ++i) {
        s = s * 1664525u + 1013904223u;
        v[i] = (double)(s >> 8) / 16777216.0 - 0.5;
    }
    cblas_dscal(m, 1.0 / nrm(m, v), v, 1);
    double est = 0.0;
    for (int it = 0; it < 40; ++it) {
        /* y = M v */
        cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, -1.0, A, n, v, 1, 0.0,
                    y, 1);
        if (sub) {
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, m, 1.0, R, n, v, 1,
                        0.0, t, 1);
            cblas_dgemv(CblasColMajor, CblasNoTrans, n, n, 1.0, Q, n, t, 1,
                        1.0, y, 1);
        }
        est = nrm(n, y);
        if (est == 0.0)
            break;
        /* z = M' y */
        cblas_dgemv(CblasColMajor, CblasTrans, n, m, -1.0, A, n, y, 1, 0.0, z,
                    1);
        if (sub) {
            cblas_dgemv(CblasColMajor, CblasTrans, n, n, 1.0, Q, n, y, 1, 0.0,
                        t, 1);
            cblas_dgemv(CblasColMajor, CblasTrans, n, m, 1.0, R, n, t, 1, 1.0,
                        z, 1);
        }
        double nz = nrm(m, z);
        if (nz == 0.0)
            break;
        for (int i = 0; i < m; ++i)
            v[i] = z[i] / nz;
    }
    free(v);
    free(z);
    free(t);
    free(y);
    return est;
}

enum { ADD_ROWS, REMOVE_COLS, REMOVE_ROWS, ADD_COLS, NUPD };
static const char *upd_name[NUPD] = {"adding rows", "removing columns",
                                     "removing rows", "adding columns"};

typedef struct result {
    double ex, eq, ea, t;
} result;

static result run_one(qru_context *ctx, qru_dtype dt, int u, int n, int m,
                      int p, unsigned seed)
{
    result res = {0, 0, 0, 0};
    double *A = rnd(dt, n, m, &seed), *b = rnd(dt, n, 1, &seed);
    qru_matrix *Ad = up(ctx, dt, n, m, A), *bd = up(ctx, dt, n, 1, b);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    qru_lsq *f = NULL;
    int st = qru_lsq_create(ctx, Ad, bd, &opt, &f);
    if (st)
        die("qru_lsq_create", st);
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    /* the update, and A1, b1 on the host */
    int n1 = n, m1 = m;
    double *A1 = NULL, *b1 = NULL;
    double t0 = 0.0;
    if (u == ADD_ROWS) {
        double *U = rnd(dt, p, m, &seed), *e = rnd(dt, p, 1, &seed);
        qru_matrix *Ud = up(ctx, dt, p, m, U), *ed = up(ctx, dt, p, 1, e);
        qru_context_sync(ctx);
        t0 = now();
        st = qru_lsq_add_rows(f, 0, Ud, ed);
        n1 = n + p;
        A1 = malloc(sizeof(double) * (size_t)n1 * m);
        b1 = malloc(sizeof(double) * (size_t)n1);
        for (int j = 0; j < m; ++j) {
            memcpy(A1 + (size_t)j * n1, U + (size_t)j * p, sizeof(double) * p);
            memcpy(A1 + (size_t)j * n1 + p, A + (size_t)j * n,
                   sizeof(double) * n);
        }
        memcpy(b1, e, sizeof(double) * p);
        memcpy(b1 + p, b, sizeof(double) * n);
        qru_matrix_destroy(Ud);
        qru_matrix_destroy(ed);
        free(U);
        free(e);
    } else if (u == REMOVE_COLS) {
        qru_context_sync(ctx);
        t0 = now();
        st = qru_lsq_remove_cols(f, 0, p);
        m1 = m - p;
        A1 = malloc(sizeof(double) * (size_t)n * m1);
        memcpy(A1, A + (size_t)n * p, sizeof(double) * (size_t)n * m1);
        b1 = malloc(sizeof(double) * n);
        memcpy(b1, b, sizeof(double) * n);
    } else if (u == REMOVE_ROWS) {
        qru_context_sync(ctx);
        t0 = now();
        st = qru_lsq_remove_rows(f, 0, p);
        n1 = n - p;
        A1 = malloc(sizeof(double) * (size_t)n1 * m);
        b1 = malloc(sizeof(double) * n1);
        for (int j = 0; j < m; ++j)
            memcpy(A1 + (size_t)j * n1, A + (size_t)j * n + p,
                   sizeof(double) * n1);
        memcpy(b1, b + p, sizeof(double) * n1);
    } else {
        double *U = rnd(dt, n, p, &seed);
        qru_matrix *Ud = up(ctx, dt, n, p, U);
        qru_context_sync(ctx);
        t0 = now();
        st = qru_lsq_add_cols(f, 0, Ud);
        m1 = m + p;
        A1 = malloc(sizeof(double) * (size_t)n * m1);
        memcpy(A1, U, sizeof(double) * (size_t)n * p);
        memcpy(A1 + (size_t)n * p, A, sizeof(double) * (size_t)n * m);
        b1 = malloc(sizeof(double) * n);
        memcpy(b1, b, sizeof(double) * n);
        qru_matrix_destroy(Ud);
        free(U);
    }
    if (st)
        die(upd_name[u], st);
    qru_context_sync(ctx);
    res.t = now() - t0;

    /* e_x against LAPACKE_dgels in double */
    qru_matrix *X = NULL, *Qm = NULL, *Rm = NULL;
    qru_matrix_create(ctx, dt, m1, 1, 0, &X);
    qru_matrix_create(ctx, dt, n1, n1, 0, &Qm);
    qru_matrix_create(ctx, dt, n1, m1, 0, &Rm);
    if ((st = qru_lsq_solve(f, X)) != 0)
        die("qru_lsq_solve", st);
    if ((st = qru_lsq_get_q(f, Qm)) != 0)
        die("qru_lsq_get_q", st);
    if ((st = qru_lsq_get_r(f, Rm)) != 0)
        die("qru_lsq_get_r", st);
    double *x = down(X), *Q = down(Qm), *R = down(Rm);
    double *Ac = malloc(sizeof(double) * (size_t)n1 * m1);
    double *bc = malloc(sizeof(double) * n1);
    memcpy(Ac, A1, sizeof(double) * (size_t)n1 * m1);
    memcpy(bc, b1, sizeof(double) * n1);
    lapack_int info =
        LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n1, m1, 1, Ac, n1, bc, n1);
    if (info)
        die("LAPACKE_dgels", (int)info);
    double nx = nrm(m1, bc);
    cblas_daxpy(m1, -1.0, bc, 1, x, 1);
    res.ex = nrm(m1, x) / nx;
    res.eq = orth2(n1, Q);
    res.ea = resid2(n1, m1, Q, R, A1, 1) / resid2(n1, m1, Q, R, A1, 0);
    qru_matrix_destroy(X);
    qru_matrix_destroy(Qm);
    qru_matrix_destroy(Rm);
    free(x);
    free(Q);
    free(R);
    free(Ac);
    free(bc);
    free(A);
    free(b);
    free(A1);
    free(b1);
    qru_lsq_destroy(f);
    return res;
}

/* Andrew (2012), tables 5.21-5.24 (single precision on a GPU and CLAPACK
 * sequential updates, n = 4000, m = 2000, k = 0, p = 100 ... 900):
 * [update][p index] = {TUT, sequential} */
static const double diss_ex[NUPD][5][2] = {
    {{2e-6, 3e-6}, {2e-6, 2e-6}, {2e-6, 3e-6}, {1e-6, 3e-6}, {3e-6, 3e-6}},
    {{3e-6, 3e-6}, {3e-6, 3e-6}, {2e-6, 2e-6}, {2e-6, 2e-6}, {2e-6, 2e-6}},
    {{5e-6, 4e-6}, {4e-6, 4e-6}, {5e-6, 4e-6}, {6e-6, 5e-6}, {6e-6, 5e-6}},
    {{3e-6, 3e-6}, {5e-6, 5e-6}, {6e-6, 6e-6}, {6e-6, 6e-6}, {7e-6, 8e-6}}};
static const double diss_eq[NUPD][5][2] = {
    {{0}}, {{0}},
    {{234e-6, 162e-6}, {339e-6, 176e-6}, {364e-6, 185e-6}, {389e-6, 190e-6},
     {470e-6, 193e-6}},
    {{242e-6, 168e-6}, {367e-6, 467e-6}, {500e-6, 600e-6}, {479e-6, 229e-6},
     {564e-6, 246e-6}}};
static const double diss_ea[NUPD][5][2] = {
    {{0}}, {{0}},
    {{139e-6, 74e-6}, {374e-6, 187e-6}, {581e-6, 304e-6}, {733e-6, 412e-6},
     {902e-6, 500e-6}},
    {{95e-6, 50e-6}, {156e-6, 61e-6}, {202e-6, 69e-6}, {234e-6, 77e-6},
     {251e-6, 83e-6}}};

int main(int argc, char **argv)
{
    const char *out = NULL;
    int ai = 1;
    if (ai + 1 < argc && strcmp(argv[ai], "-o") == 0) {
        out = argv[ai + 1];
        ai += 2;
    }
    int n = 4000, m = 2000;
    int ps[32] = {100, 300, 500, 700, 900}, np = 5;
    if (ai + 1 < argc) {
        n = atoi(argv[ai]);
        m = atoi(argv[ai + 1]);
        ai += 2;
    }
    if (ai < argc) {
        np = 0;
        for (; ai < argc && np < 32; ++ai)
            ps[np++] = atoi(argv[ai]);
    }
    int full = n == 4000 && m == 2000 && np == 5 && ps[0] == 100 &&
               ps[4] == 900;
    qru_context *ctx = bench_context();
    FILE *fo = out ? fopen(out, "w") : NULL;
    FILE *fs[2] = {stdout, fo};
    for (int w = 0; w < 2; ++w) {
        if (!fs[w])
            continue;
        fprintf(fs[w],
                "### Measured: n = %d, m = %d, k = 0, backend %s (%s)\n\n"
                "Each update is applied once to a fresh factorisation (with "
                "Q) of a uniform(-1,1) problem; x_ref from LAPACKE_dgels in "
                "double; 2-norms by power iteration.%s\n\n",
                n, m, qru_backend_name(qru_context_backend(ctx)),
                qru_context_device_name(ctx),
                full ? " Dissertation: Andrew (2012), tables 5.21-5.24 "
                       "(float, GPU 'TUT' / sequential CLAPACK update)."
                     : "");
        fprintf(fs[w], "| update | p | e_x float | e_x double | e_Q float "
                       "| e_Q double | e_A float | e_A double | time float "
                       "(s) | time double (s) |%s\n",
                full ? " diss. e_x TUT / seq | diss. e_Q TUT / seq | diss. "
                       "e_A TUT / seq |"
                     : "");
        fprintf(fs[w], "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|%s\n",
                full ? "---:|---:|---:|" : "");
    }
    for (int u = 0; u < NUPD; ++u)
        for (int ip = 0; ip < np; ++ip) {
            int p = ps[ip];
            result r[2];
            for (int d = 0; d < 2; ++d) {
                qru_dtype dt = d == 0 ? QRU_FLOAT : QRU_DOUBLE;
                if (!qru_context_supports(ctx, dt)) {
                    r[d].ex = r[d].eq = r[d].ea = r[d].t = NAN;
                    continue;
                }
                r[d] = run_one(ctx, dt, u, n, m, p, 1234u + 7u * ip + 101u * u);
            }
            char dis[160] = "";
            if (full) {
                char q[40] = "-", a[40] = "-";
                if (u >= REMOVE_ROWS) {
                    snprintf(q, sizeof q, "%.2e / %.2e", diss_eq[u][ip][0],
                             diss_eq[u][ip][1]);
                    snprintf(a, sizeof a, "%.2e / %.2e", diss_ea[u][ip][0],
                             diss_ea[u][ip][1]);
                }
                snprintf(dis, sizeof dis, " %.0e / %.0e | %s | %s |",
                         diss_ex[u][ip][0], diss_ex[u][ip][1], q, a);
            }
            for (int w = 0; w < 2; ++w) {
                if (!fs[w])
                    continue;
                fprintf(fs[w],
                        "| %s | %d | %.2e | %.2e | %.2e | %.2e | %.2e | %.2e | "
                        "%.3f | %.3f |%s\n",
                        upd_name[u], p, r[0].ex, r[1].ex, r[0].eq, r[1].eq,
                        r[0].ea, r[1].ea, r[0].t, r[1].t, dis);
                fflush(fs[w]);
            }
        }
    if (fo)
        fclose(fo);
    qru_context_destroy(ctx);
    return 0;
}
