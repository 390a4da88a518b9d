/*
 * Small updates on the backend under test (QRU_TEST_BACKEND: cpu, opencl
 * or cuda; default cpu), double precision, data on the device:
 *   the Cholesky rank-k update and downdate (qru_chol_update, lower and
 *   upper factor) of order n by the structured pass (the
 *   default) and by rotations (the tuning knob chol_r1_max_k = 0),
 *   against qru_chol_factor of the updated matrix in the same run;
 *   one row added to a Q-less least-squares factorisation (R, d:
 *   qru_lsq_add_rows, p = 1) by the structured rank-1 passes and by the
 *   panels (the tuning knob upd_r1 on / off), against qru_lsq_create of
 *   the n+1 rows (the Q-less refactorisation);
 *   one row added at the end or removed at the start, one column added at
 *   the end or removed from the middle (p = 1), in each form (full Q, thin
 *   Q, Q-less; the default algorithm, whose path is reported), against
 *   qru_lsq_create of the updated matrix in the same form; each update is
 *   undone (untimed) before the next.
 * Each call is timed on the host from its start to the return of
 * qru_context_sync (what a caller waits for); the factor is restored by an
 * untimed device copy before each run; one untimed warm-up, then the
 * configurations alternate within each repeat and the median is reported,
 * with the backend calls and host waits of one call (context statistics)
 * and the largest difference between the two engines' factors.
 * Usage: bench_small [-q] [-r REPS (7)] [-n N] [-k K] [-P chol|row|forms]
 * [-o DIR]; -q: small sizes; -n, -k: that order / rank only (the Cholesky
 * part; -n also picks the forms part's point with n rows); -P: that part
 * only; the table is also written as
 * Markdown (for docs/benchmarks.md) to DIR/bench_small.md (-o) or to the
 * file QRU_BENCH_MD names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <lapacke.h>

#include "bench_gpu_common.h"
#include "qru_internal.h"
#include "qru_test.h"

/* A new n x c device matrix holding the host array H (ld n). */
static qru_matrix *upload(qru_context *ctx, int n, int c, const double *H)
{
    qru_matrix *M = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, c, n, &M), "create");
    bg_check(qru_matrix_upload(M, H, n), "upload");
    return M;
}

/* n x n SPD A = G G' / n + I, G uniform(-1, 1), by BLAS syrk (ld n). */
static double *spd(int n, unsigned *seed)
{
    double *G = malloc(sizeof(double) * (size_t)n * n),
           *A = calloc((size_t)n * n, sizeof(double));
    if (!G || !A)
        bg_check(QRU_HOST_ALLOC_FAILED, "spd");
    for (size_t i = 0; i < (size_t)n * n; ++i)
        G[i] = qru_test_urand(seed);
    cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, n, n, 1.0 / n, G, n,
                0.0, A, n);
    for (int j = 0; j < n; ++j) {
        A[j + (size_t)j * n] += 1.0;
        for (int i = j + 1; i < n; ++i)
            A[j + (size_t)i * n] = A[i + (size_t)j * n];
    }
    free(G);
    return A;
}

/* The configurations of a point, timed in turn within each repeat. */
enum { E_STRUCT, E_ROT, E_FACTOR, NE };
static const char *const ENAME[NE] = {"structured", "rotations", "factor"};

typedef struct point {
    double ms[NE];
    long long calls[NE], waits[NE];
    double diff; /* max |L_structured - L_rotations| / max |L| */
} point;

static void stats(qru_context *ctx, long long *calls, long long *waits)
{
    qru_context_stats s;
    bg_check(qru_context_get_stats(ctx, &s), "stats");
    *calls = s.calls;
    *waits = s.host_waits;
}

/* One run of configuration e; returns seconds. */
static double run(qru_context *ctx, int e, char uplo, int sign, qru_matrix *L,
                  const qru_matrix *L0, const qru_matrix *W, qru_matrix *A1,
                  const qru_matrix *A1src, long long *calls, long long *waits)
{
    qru_matrix *dst = e == E_FACTOR ? A1 : L;
    bg_check(qru_matrix_copy(e == E_FACTOR ? A1src : L0, dst), "restore");
    bg_check(qru_context_sync(ctx), "sync");
    if (e != E_FACTOR)
        bg_check(qru_ctx_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_CHOL_R1_MAX_K,
                                    e == E_STRUCT ? 32 : 0),
                 "engine");
    bg_check(qru_context_reset_stats(ctx), "reset stats");
    double t0 = bg_now();
    int st = e == E_FACTOR ? qru_chol_factor(ctx, uplo, A1, QRU_CHOL_LEFT, 0)
                           : qru_chol_update(ctx, uplo, L, W, sign, L);
    bg_check(st, ENAME[e]);
    bg_check(qru_context_sync(ctx), "sync");
    double t = bg_now() - t0;
    stats(ctx, calls, waits);
    return t;
}

static double *host_lower(const qru_matrix *M, char uplo, int n)
{
    int ld = qru_matrix_ld(M);
    double *F = malloc(sizeof(double) * (size_t)ld * n);
    bg_check(qru_matrix_download(M, F, ld), "download");
    double *L = calloc((size_t)n * n, sizeof(double));
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            L[i + (size_t)j * n] =
                uplo == 'L' ? F[i + (size_t)j * ld] : F[j + (size_t)i * ld];
    free(F);
    return L;
}

static void bench_point(qru_context *ctx, int n, int k, int sign, char uplo,
                        int reps, point *pt)
{
    unsigned seed = 17u + (unsigned)(n * 31 + k);
    double *A = spd(n, &seed);
    double *W = malloc(sizeof(double) * (size_t)n * k);
    for (size_t i = 0; i < (size_t)n * k; ++i)
        W[i] = 0.5 * qru_test_urand(&seed);
    /* update: A -> A + W W'; downdate: (A + W W') -> A */
    double *Ap = malloc(sizeof(double) * (size_t)n * n);
    memcpy(Ap, A, sizeof(double) * (size_t)n * n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, k, 1.0, W, n, W,
                n, 1.0, Ap, n);
    const double *Ain = sign > 0 ? A : Ap, *Aout = sign > 0 ? Ap : A;
    qru_matrix *L0 = upload(ctx, n, n, Ain);
    bg_check(qru_chol_factor(ctx, uplo, L0, QRU_CHOL_LEFT, 0), "factor");
    qru_matrix *L = upload(ctx, n, n, Ain);
    qru_matrix *Wd = upload(ctx, n, k, W);
    qru_matrix *A1src = upload(ctx, n, n, Aout);
    qru_matrix *A1 = upload(ctx, n, n, Aout);
    double *t = malloc(sizeof(double) * (size_t)NE * reps);
    double *Ls = NULL;
    for (int r = -1; r < reps; ++r)
        for (int e = 0; e < NE; ++e) {
            double s = run(ctx, e, uplo, sign, L, L0, Wd, A1, A1src,
                           &pt->calls[e], &pt->waits[e]);
            if (r >= 0)
                t[e * reps + r] = s;
            if (r == reps - 1 && e == E_STRUCT)
                Ls = host_lower(L, uplo, n);
            if (r == reps - 1 && e == E_ROT) {
                double *Lr = host_lower(L, uplo, n), d = 0, mx = 0;
                for (size_t i = 0; i < (size_t)n * n; ++i) {
                    d = fmax(d, fabs(Ls[i] - Lr[i]));
                    mx = fmax(mx, fabs(Lr[i]));
                }
                pt->diff = d / mx;
                free(Lr);
            }
        }
    for (int e = 0; e < NE; ++e)
        pt->ms[e] = 1e3 * bg_median(t + e * reps, reps);
    free(Ls);
    free(t);
    qru_matrix_destroy(L0);
    qru_matrix_destroy(L);
    qru_matrix_destroy(Wd);
    qru_matrix_destroy(A1src);
    qru_matrix_destroy(A1);
    free(A);
    free(Ap);
    free(W);
}

/* ---- one row added to a Q-less factorisation ---- */

enum { R_STRUCT, R_PANELS, R_CREATE, NR };

/* Adds row u (e) at the end of f by configuration c (restoring f by
 * removing it again, untimed) or factors A1 anew; returns seconds. */
static double run_row(qru_context *ctx, int c, qru_lsq *f, const qru_matrix *u,
                      const qru_matrix *e, const qru_matrix *A1,
                      const qru_matrix *b1, long long *calls, long long *waits)
{
    int n = qru_lsq_rows(f);
    if (c != R_CREATE)
        bg_check(qru_ctx_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_UPDATE_R1,
                                    c == R_STRUCT ? 2 : 1),
                 "variant");
    bg_check(qru_context_sync(ctx), "sync");
    bg_check(qru_context_reset_stats(ctx), "reset stats");
    qru_lsq *g = NULL;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    double t0 = bg_now();
    bg_check(c == R_CREATE ? qru_lsq_create(ctx, A1, b1, &opt, &g)
                           : qru_lsq_add_rows(f, n, u, e),
             c == R_CREATE ? "create" : "add row");
    bg_check(qru_context_sync(ctx), "sync");
    double t = bg_now() - t0;
    stats(ctx, calls, waits);
    if (g)
        qru_lsq_destroy(g);
    else
        bg_check(qru_lsq_remove_rows_data(f, n, u, e), "restore");
    return t;
}

static void bench_row(qru_context *ctx, int n, int m, int reps, FILE *f)
{
    unsigned seed = 29u + (unsigned)(n + 7 * m);
    size_t na = (size_t)(n + 1) * m;
    double *A = malloc(sizeof(double) * na),
           *b = malloc(sizeof(double) * (n + 1));
    for (size_t i = 0; i < na; ++i)
        A[i] = qru_test_urand(&seed);
    for (int i = 0; i <= n; ++i)
        b[i] = qru_test_urand(&seed);
    /* A1 = [A; u'] with ld n + 1: A is its first n rows */
    qru_matrix *A1 = upload(ctx, n + 1, m, A), *b1 = upload(ctx, n + 1, 1, b);
    qru_matrix *Ad = NULL, *bd = NULL, *u = NULL, *e = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, m, n, &Ad), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, 1, n, &bd), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, 1, m, 1, &u), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, 1, 1, 1, &e), "create");
    double *Ah = malloc(sizeof(double) * (size_t)n * m),
           *uh = malloc(sizeof(double) * m);
    for (int j = 0; j < m; ++j) {
        memcpy(Ah + (size_t)j * n, A + (size_t)j * (n + 1), sizeof(double) * n);
        uh[j] = A[n + (size_t)j * (n + 1)];
    }
    bg_check(qru_matrix_upload(Ad, Ah, n), "upload");
    bg_check(qru_matrix_upload(bd, b, n), "upload");
    bg_check(qru_matrix_upload(u, uh, 1), "upload");
    bg_check(qru_matrix_upload(e, b + n, 1), "upload");
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    qru_lsq *lf = NULL;
    bg_check(qru_lsq_create(ctx, Ad, bd, &opt, &lf), "factor");
    bg_check(qru_lsq_set_update_algorithm(lf, QRU_UPDATE_FAST), "algorithm");
    double *t = malloc(sizeof(double) * (size_t)NR * reps), ms[NR];
    long long calls[NR] = {0}, waits[NR] = {0};
    for (int r = -1; r < reps; ++r)
        for (int c = 0; c < NR; ++c) {
            double s = run_row(ctx, c, lf, u, e, A1, b1, &calls[c], &waits[c]);
            if (r >= 0)
                t[c * reps + r] = s;
        }
    for (int c = 0; c < NR; ++c)
        ms[c] = 1e3 * bg_median(t + c * reps, reps);
    printf("%6d %5d %11.3f %11.3f %11.3f %7.1f %5lld/%-5lld %5lld/%-5lld\n", n,
           m, ms[R_STRUCT], ms[R_PANELS], ms[R_CREATE],
           ms[R_CREATE] / ms[R_STRUCT], calls[R_STRUCT], calls[R_PANELS],
           waits[R_STRUCT], waits[R_PANELS]);
    if (f) {
        fprintf(f,
                "| %d x %d | %.3f | %.3f | %.3f | %.1f | %lld / %lld | "
                "%lld / %lld |\n",
                n, m, ms[R_STRUCT], ms[R_PANELS], ms[R_CREATE],
                ms[R_CREATE] / ms[R_STRUCT], calls[R_STRUCT], calls[R_PANELS],
                waits[R_STRUCT], waits[R_PANELS]);
        fflush(f);
    }
    free(t);
    qru_lsq_destroy(lf);
    qru_matrix_destroy(A1);
    qru_matrix_destroy(b1);
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    qru_matrix_destroy(u);
    qru_matrix_destroy(e);
    free(A);
    free(b);
    free(Ah);
    free(uh);
}

/* ---- p = 1 updates of a factorisation in each form ---- */

enum { U_ADDROW, U_DELROW, U_ADDCOL, U_DELCOL, NU };
static const char *const UNAME[NU] = {"add row", "remove row", "add column",
                                      "remove column"};
static const char *const FNAME[3] = {"full Q", "thin Q", "Q-less"};

/* The data of a forms point: A (n+1) x (m+1) and b (n+1) on the host; the
 * factorisation holds A0 = A(1:n, 1:m), b0 = b(1:n); each update's A1 and
 * b1 (for the refactorisation) and the vectors it adds or removes. */
typedef struct forms_data {
    int n, m;
    qru_matrix *A0, *b0, *u, *e, *r0, *e0, *c, *cm;
    qru_matrix *A1[NU], *b1[NU];
} forms_data;

/* The n x m device matrix with entry (i, j) = H(roff + i, j'), ld ldh,
 * j' = j, or j + 1 from column cskip on (cskip >= 0: that column left
 * out). */
static qru_matrix *gather(qru_context *ctx, const double *H, int ldh, int n,
                          int m, int roff, int cskip)
{
    double *G = malloc(sizeof(double) * (size_t)n * m);
    if (!G)
        bg_check(QRU_HOST_ALLOC_FAILED, "gather");
    for (int j = 0; j < m; ++j) {
        int jj = cskip >= 0 && j >= cskip ? j + 1 : j;
        for (int i = 0; i < n; ++i)
            G[i + (size_t)j * n] = H[roff + i + (size_t)jj * ldh];
    }
    qru_matrix *M = upload(ctx, n, m, G);
    free(G);
    return M;
}

static void forms_setup(qru_context *ctx, int n, int m, forms_data *d)
{
    unsigned seed = 41u + (unsigned)(3 * n + m);
    int ld = n + 1;
    double *A = malloc(sizeof(double) * (size_t)ld * (m + 1)),
           *b = malloc(sizeof(double) * (size_t)ld);
    if (!A || !b)
        bg_check(QRU_HOST_ALLOC_FAILED, "forms");
    for (size_t i = 0; i < (size_t)ld * (m + 1); ++i)
        A[i] = qru_test_urand(&seed);
    for (int i = 0; i < ld; ++i)
        b[i] = qru_test_urand(&seed);
    d->n = n;
    d->m = m;
    d->A0 = gather(ctx, A, ld, n, m, 0, -1);
    d->b0 = gather(ctx, b, ld, n, 1, 0, -1);
    d->u = gather(ctx, A, ld, 1, m, n, -1); /* row n + 1 */
    d->e = gather(ctx, b, ld, 1, 1, n, -1);
    d->r0 = gather(ctx, A, ld, 1, m, 0, -1); /* row 1 */
    d->e0 = gather(ctx, b, ld, 1, 1, 0, -1);
    d->c = gather(ctx, A + (size_t)m * ld, ld, n, 1, 0, -1); /* column m+1 */
    d->cm = gather(ctx, A + (size_t)(m / 2) * ld, ld, n, 1, 0, -1);
    d->A1[U_ADDROW] = gather(ctx, A, ld, n + 1, m, 0, -1);
    d->b1[U_ADDROW] = gather(ctx, b, ld, n + 1, 1, 0, -1);
    d->A1[U_DELROW] = gather(ctx, A, ld, n - 1, m, 1, -1);
    d->b1[U_DELROW] = gather(ctx, b, ld, n - 1, 1, 1, -1);
    d->A1[U_ADDCOL] = gather(ctx, A, ld, n, m + 1, 0, -1);
    d->b1[U_ADDCOL] = gather(ctx, b, ld, n, 1, 0, -1);
    d->A1[U_DELCOL] = gather(ctx, A, ld, n, m - 1, 0, m / 2);
    d->b1[U_DELCOL] = gather(ctx, b, ld, n, 1, 0, -1);
    free(A);
    free(b);
}

static void forms_free(forms_data *d)
{
    qru_matrix *all[] = {d->A0, d->b0, d->u, d->e, d->r0, d->e0, d->c, d->cm};
    for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
        qru_matrix_destroy(all[i]);
    for (int u = 0; u < NU; ++u) {
        qru_matrix_destroy(d->A1[u]);
        qru_matrix_destroy(d->b1[u]);
    }
}

/* Update u of f (form q) and, with undo, the update that restores it. */
static int forms_update(qru_lsq *f, int q, int u, int undo, const forms_data *d)
{
    int n = d->n, m = d->m, none = q == QRU_Q_NONE;
    switch (u) {
    case U_ADDROW:
        return undo ? qru_lsq_remove_rows_data(f, n, d->u, d->e)
                    : qru_lsq_add_rows(f, n, d->u, d->e);
    case U_DELROW:
        if (undo)
            return qru_lsq_add_rows(f, 0, d->r0, d->e0);
        return none ? qru_lsq_remove_rows_data(f, 0, d->r0, d->e0)
                    : qru_lsq_remove_rows(f, 0, 1);
    case U_ADDCOL:
        if (undo)
            return qru_lsq_remove_cols(f, m, 1);
        return none ? qru_lsq_add_cols_data(f, m, d->c, d->A0, d->b0)
                    : qru_lsq_add_cols(f, m, d->c);
    default:
        if (!undo)
            return qru_lsq_remove_cols(f, m / 2, 1);
        return none ? qru_lsq_add_cols_data(f, m / 2, d->cm, d->A1[U_DELCOL],
                                            d->b0)
                    : qru_lsq_add_cols(f, m / 2, d->cm);
    }
}

static void bench_forms(qru_context *ctx, int n, int m, int reps, FILE *md)
{
    forms_data d;
    forms_setup(ctx, n, m, &d);
    double *t = malloc(sizeof(double) * 2 * (size_t)reps);
    for (int q = 0; q < 3; ++q) {
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = q;
        qru_lsq *f = NULL;
        bg_check(qru_lsq_create(ctx, d.A0, d.b0, &opt, &f), "factor");
        for (int u = 0; u < NU; ++u) {
            long long calls = 0, waits = 0;
            int path = 0;
            for (int r = -1; r < reps; ++r) {
                bg_check(qru_context_sync(ctx), "sync");
                bg_check(qru_context_reset_stats(ctx), "reset stats");
                double t0 = bg_now();
                bg_check(forms_update(f, q, u, 0, &d), UNAME[u]);
                bg_check(qru_context_sync(ctx), "sync");
                double tu = bg_now() - t0;
                stats(ctx, &calls, &waits);
                path = qru_lsq_last_update_path(f);
                bg_check(forms_update(f, q, u, 1, &d), "restore");
                qru_lsq *g = NULL;
                bg_check(qru_context_sync(ctx), "sync");
                t0 = bg_now();
                bg_check(qru_lsq_create(ctx, d.A1[u], d.b1[u], &opt, &g),
                         "create");
                bg_check(qru_context_sync(ctx), "sync");
                double tc = bg_now() - t0;
                qru_lsq_destroy(g);
                if (r >= 0) {
                    t[r] = tu;
                    t[reps + r] = tc;
                }
            }
            double mu = 1e3 * bg_median(t, reps),
                   mc = 1e3 * bg_median(t + reps, reps);
            const char *pn = path == QRU_PATH_REFACTOR ? "refactor" : "update";
            printf("%6d %5d %-7s %-14s %11.3f %-9s %5lld %5lld %11.3f %7.1f\n",
                   n, m, FNAME[q], UNAME[u], mu, pn, calls, waits, mc, mc / mu);
            fflush(stdout);
            if (md) {
                fprintf(md,
                        "| %d x %d | %s | %s | %.3f | %s | %lld | %lld | "
                        "%.3f | %.1f |\n",
                        n, m, FNAME[q], UNAME[u], mu, pn, calls, waits, mc,
                        mc / mu);
                fflush(md);
            }
        }
        qru_lsq_destroy(f);
    }
    free(t);
    forms_free(&d);
}

int main(int argc, char **argv)
{
    int quick = 0, reps = 7, only_n = 0, only_k = 0;
    const char *part = NULL; /* chol, row or forms; NULL: all */
    const char *md = getenv("QRU_BENCH_MD");
    char mdpath[4096];
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "-q"))
            quick = 1;
        else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-n") && a + 1 < argc)
            only_n = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-k") && a + 1 < argc)
            only_k = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-P") && a + 1 < argc)
            part = argv[++a];
        else if (!strcmp(argv[a], "-o") && a + 1 < argc) {
            snprintf(mdpath, sizeof mdpath, "%s/bench_small.md", argv[++a]);
            md = mdpath;
        } else {
            fprintf(stderr, "usage: bench_small [-q] [-r REPS] [-n N] [-k K] "
                            "[-P chol|row|forms] [-o DIR]\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    qru_context *ctx = qru_test_context();
    if (!ctx)
        return 77;
    const char *dev = qru_context_device_name(ctx);
    time_t tt = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tt));
    static const int nbig[] = {1000, 2000, 4096}, nq[] = {200, 500};
    static const int ks[] = {1, 8, 32};
    const int *ns = only_n ? &only_n : quick ? nq : nbig;
    int nn = only_n ? 1 : quick ? 2 : 3;
    FILE *f = md ? fopen(md, "w") : NULL;
    char head[512];
    int do_chol = !part || !strcmp(part, "chol"),
        do_row = !only_k && (!part || !strcmp(part, "row")),
        do_forms = !only_k && (!part || !strcmp(part, "forms"));
    if (do_chol) {
        snprintf(head, sizeof head,
                 "Cholesky rank-k update / downdate, double, %s (%s), %s; "
                 "median of %d, host time to qru_context_sync",
                 qru_backend_name(qru_context_backend(ctx)), dev, date, reps);
        printf("%s\n", head);
        printf("%5s %2s %4s %2s %11s %11s %11s %7s %11s %11s %9s\n", "n", "k",
               "sign", "L", "struct ms", "rot ms", "factor ms", "fac/upd",
               "calls s/r", "waits s/r", "diff");
        if (f) {
            fprintf(f, "%s.\n\n", head);
            fprintf(f,
                    "| n | k | | factor | structured (ms) | rotations (ms) | "
                    "qru_chol_factor (ms) | factor / structured | calls "
                    "(struct / rot) | host waits | max diff |\n");
            fprintf(f,
                    "|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        }
        for (int a = 0; a < nn; ++a)
            for (int b = 0; b < 3; ++b)
                for (int sg = 0; sg < 2; ++sg)
                    for (int u = 0; u < 2; ++u) {
                        int n = ns[a], k = ks[b], sign = sg ? -1 : 1;
                        char uplo = u ? 'U' : 'L';
                        if (u && (k > 1 || sign < 0))
                            continue; /* upper: the rank-1 update */
                        if (only_k && k != only_k)
                            continue;
                        point pt = {{0}, {0}, {0}, 0};
                        bench_point(ctx, n, k, sign, uplo, reps, &pt);
                        printf("%5d %2d %4s %2c %11.3f %11.3f %11.3f %7.2f "
                               "%5lld/%-5lld %5lld/%-5lld %9.2g\n",
                               n, k, sign > 0 ? "upd" : "down", uplo,
                               pt.ms[E_STRUCT], pt.ms[E_ROT], pt.ms[E_FACTOR],
                               pt.ms[E_FACTOR] / pt.ms[E_STRUCT],
                               pt.calls[E_STRUCT], pt.calls[E_ROT],
                               pt.waits[E_STRUCT], pt.waits[E_ROT], pt.diff);
                        fflush(stdout);
                        if (f)
                            fprintf(
                                f,
                                "| %d | %d | %s | %c | %.3f | %.3f | %.3f | "
                                "%.1f | %lld / %lld | %lld / %lld | %.1e |\n",
                                n, k, sign > 0 ? "update" : "downdate", uplo,
                                pt.ms[E_STRUCT], pt.ms[E_ROT], pt.ms[E_FACTOR],
                                pt.ms[E_FACTOR] / pt.ms[E_STRUCT],
                                pt.calls[E_STRUCT], pt.calls[E_ROT],
                                pt.waits[E_STRUCT], pt.waits[E_ROT], pt.diff);
                        if (f)
                            fflush(f);
                    }
    }
    if (do_row) {
        snprintf(head, sizeof head,
                 "One row added to a Q-less factorisation (R, d; "
                 "qru_lsq_add_rows, p = 1), double, %s (%s), %s; median "
                 "of %d, host time to qru_context_sync",
                 qru_backend_name(qru_context_backend(ctx)), dev, date, reps);
        printf("%s\n%6s %5s %11s %11s %11s %7s %11s %11s\n", head, "n", "m",
               "struct ms", "panels ms", "create ms", "cre/upd", "calls s/p",
               "waits s/p");
        if (f)
            fprintf(f,
                    "\n%s.\n\n| n x m | structured (ms) | panels (ms) "
                    "| qru_lsq_create of n+1 rows (ms) | create / "
                    "structured | calls (struct / panels) | host waits "
                    "|\n|---|---:|---:|---:|---:|---:|---:|\n",
                    head);
        static const int rb[][2] = {{2000, 200}, {8000, 1000}},
                         rq[][2] = {{400, 50}, {1000, 100}};
        for (int i = 0; i < 2; ++i)
            bench_row(ctx, quick ? rq[i][0] : rb[i][0],
                      quick ? rq[i][1] : rb[i][1], reps, f);
    }
    if (do_forms) {
        snprintf(head, sizeof head,
                 "One row or column added or removed (p = 1) in each form, "
                 "double, %s (%s), %s; median of %d, host time to "
                 "qru_context_sync; the default algorithm (QRU_UPDATE_AUTO)",
                 qru_backend_name(qru_context_backend(ctx)), dev, date, reps);
        printf("%s\n%6s %5s %-7s %-14s %11s %-9s %5s %5s %11s %7s\n", head, "n",
               "m", "form", "update", "update ms", "path", "calls", "waits",
               "create ms", "cre/upd");
        if (f)
            fprintf(f,
                    "\n%s.\n\n| n x m | form | update | update (ms) | "
                    "path | calls | host waits | qru_lsq_create of A1 "
                    "(ms) | create / update |\n"
                    "|---|---|---|---:|---|---:|---:|---:|---:|\n",
                    head);
        static const int fb[][2] = {{2000, 200}, {8000, 1000}},
                         fq[][2] = {{400, 50}, {1000, 100}};
        for (int i = 0; i < 2; ++i)
            if (!only_n || only_n == (quick ? fq[i][0] : fb[i][0]))
                bench_forms(ctx, quick ? fq[i][0] : fb[i][0],
                            quick ? fq[i][1] : fb[i][1], reps, f);
    }
    if (f)
        fclose(f);
    qru_context_destroy(ctx);
    return 0;
}
