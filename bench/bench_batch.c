/*
 * Batched Cholesky rank-1 updates on the backend under test
 * (QRU_TEST_BACKEND: cpu, opencl or cuda; default cpu), double precision,
 * data on the device: count problems of order n updated (sign +1) or
 * downdated (-1) by qru_chol_update_batch in one call, against
 *   - the same work as count single-problem calls of qru_chol_update (one
 *     n x n factor updated count times, one synchronisation at the end);
 *   - on CUDA, cuSOLVER's batched refactorisation (cusolverDnDpotrfBatched)
 *     of the count updated matrices A1 = L L' + sign w w', formed untimed.
 * Each call is timed on the host from its start to the return of
 * qru_context_sync (cudaDeviceSynchronize for cuSOLVER); the factors are
 * restored by an untimed device copy before each batched run; one untimed
 * warm-up, then the median of the repeats (the single-call loop: one run).
 * The pages share one factor L (of A = G G' / n + I) and have their own
 * w, uniform(-1, 1) / (2 sqrt(n)), so the downdates stay definite.
 * The second part (-P lsq): count Q-less least-squares problems
 * (qru_lsq_batch), m = 20 unknowns, n = 200 rows, one right-hand side,
 * each gaining one row and solved (qru_lsq_batch_add_rows, then
 * qru_lsq_batch_solve; timed together and apart), against
 *   - the same work as count single calls: one qru_lsq in the Q-less form
 *     (QRU_Q_NONE), qru_lsq_add_rows + qru_lsq_solve count times;
 *   - on CUDA, cuBLAS's batched refactorisation (cublasDgeqrfBatched) of
 *     the count updated 201 x 20 matrices, formed untimed.
 * Usage: bench_batch [-P chol|lsq] [-q] [-r REPS (7)] [-c COUNT (10000)]
 * [-o DIR]; -q: 1000 problems; the table is also written as Markdown to
 * DIR/bench_batch.md (DIR/bench_batch_lsq.md for -P lsq) or to the file
 * QRU_BENCH_MD names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lapacke.h>

#include "bench_gpu_common.h"
#include "qru_test.h"

#ifdef QRU_HAVE_CUDA
/* Seconds of cusolverDnDpotrfBatched on the count pages at dA (ld n, page
 * stride n n) after an untimed warm-up, the median of reps; A1 (host, the
 * count pages) restored before each run.  NAN when it fails. */
static double cusolver_batch(qru_context *ctx, int n, int count,
                             const double *A1, int reps)
{
    if (qru_context_backend(ctx) != QRU_BACKEND_CUDA)
        return NAN;
    size_t page = (size_t)n * n, bytes = sizeof(double) * page * count;
    double *dA = NULL, **dptr = NULL;
    int *dinfo = NULL;
    double **hptr = malloc(sizeof(double *) * (size_t)count);
    double *t = malloc(sizeof(double) * (size_t)(reps + 1));
    cusolverDnHandle_t h = NULL;
    double res = NAN;
    if (!hptr || !t || cudaMalloc((void **)&dA, bytes) != cudaSuccess ||
        cudaMalloc((void **)&dptr, sizeof(double *) * count) != cudaSuccess ||
        cudaMalloc((void **)&dinfo, sizeof(int) * count) != cudaSuccess ||
        cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS)
        goto done;
    for (int i = 0; i < count; ++i)
        hptr[i] = dA + page * i;
    if (cudaMemcpy(dptr, hptr, sizeof(double *) * count,
                   cudaMemcpyHostToDevice) != cudaSuccess)
        goto done;
    for (int r = 0; r <= reps; ++r) {
        if (cudaMemcpy(dA, A1, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
            goto done;
        cudaDeviceSynchronize();
        double t0 = bg_now();
        if (cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, dptr, n,
                                    dinfo, count) != CUSOLVER_STATUS_SUCCESS)
            goto done;
        cudaDeviceSynchronize();
        t[r] = bg_now() - t0;
    }
    res = bg_median(t + 1, reps);
done:
    if (h)
        cusolverDnDestroy(h);
    cudaFree(dA);
    cudaFree(dptr);
    cudaFree(dinfo);
    free(hptr);
    free(t);
    return res;
}
#endif

#ifdef QRU_HAVE_CUDA
/* Seconds of cublasDgeqrfBatched on count n x m pages (host A, ld n,
 * restored before each run), after an untimed warm-up, the median of
 * reps.  NAN when it fails. */
static double cublas_geqrf_batch(qru_context *ctx, int n, int m, int count,
                                 const double *A, int reps)
{
    if (qru_context_backend(ctx) != QRU_BACKEND_CUDA)
        return NAN;
    size_t page = (size_t)n * m, bytes = sizeof(double) * page * count;
    double *dA = NULL, *dtau = NULL, **dptr = NULL, **dtp = NULL;
    double **hptr = malloc(sizeof(double *) * 2 * (size_t)count);
    double *t = malloc(sizeof(double) * (size_t)(reps + 1));
    cublasHandle_t h = NULL;
    double res = NAN;
    int info = 0;
    if (!hptr || !t || cudaMalloc((void **)&dA, bytes) != cudaSuccess ||
        cudaMalloc((void **)&dtau, sizeof(double) * (size_t)m * count) !=
            cudaSuccess ||
        cudaMalloc((void **)&dptr, sizeof(double *) * count) != cudaSuccess ||
        cudaMalloc((void **)&dtp, sizeof(double *) * count) != cudaSuccess ||
        cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
        goto done;
    for (int i = 0; i < count; ++i) {
        hptr[i] = dA + page * i;
        hptr[count + i] = dtau + (size_t)m * i;
    }
    if (cudaMemcpy(dptr, hptr, sizeof(double *) * count,
                   cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(dtp, hptr + count, sizeof(double *) * count,
                   cudaMemcpyHostToDevice) != cudaSuccess)
        goto done;
    for (int r = 0; r <= reps; ++r) {
        if (cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
            goto done;
        cudaDeviceSynchronize();
        double t0 = bg_now();
        if (cublasDgeqrfBatched(h, n, m, dptr, n, dtp, &info, count) !=
                CUBLAS_STATUS_SUCCESS ||
            info != 0)
            goto done;
        if (cudaDeviceSynchronize() != cudaSuccess)
            goto done;
        t[r] = bg_now() - t0;
    }
    res = bg_median(t + 1, reps);
done:
    if (h)
        cublasDestroy(h);
    cudaFree(dA);
    cudaFree(dtau);
    cudaFree(dptr);
    cudaFree(dtp);
    free(hptr);
    free(t);
    return res;
}
#endif

/* The lower Cholesky factor of A = G G' / n + I (n x n, ld n). */
static double *base_factor(int n, unsigned *seed)
{
    double *G = malloc(sizeof(double) * (size_t)n * n),
           *L = calloc((size_t)n * n, sizeof(double));
    if (!G || !L)
        bg_check(QRU_ERR_ALLOC, "factor");
    for (size_t i = 0; i < (size_t)n * n; ++i)
        G[i] = qru_test_urand(seed);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double s = i == j ? 1.0 : 0.0;
            for (int l = 0; l < n; ++l)
                s += G[i + (size_t)l * n] * G[j + (size_t)l * n] / n;
            L[i + (size_t)j * n] = s;
        }
    bg_check(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n), "dpotrf");
    free(G);
    return L;
}

typedef struct row {
    double batch_ms, loop_ms, vendor_ms;
    long long calls, waits;
} row;

static double timed(qru_context *ctx, char uplo, qru_matrix *L,
                    const qru_matrix *W, int sign, long long *calls,
                    long long *waits)
{
    qru_context_stats s;
    bg_check(qru_context_reset_stats(ctx), "reset");
    double t0 = bg_now();
    int st = qru_chol_update_batch(ctx, uplo, L, W, sign, L, NULL);
    bg_check(st, "qru_chol_update_batch");
    bg_check(qru_context_sync(ctx), "sync");
    double t = bg_now() - t0;
    bg_check(qru_context_get_stats(ctx, &s), "stats");
    *calls = s.calls;
    *waits = s.host_waits;
    return t;
}

static void bench_n(qru_context *ctx, int n, int count, int sign, int reps,
                    row *out)
{
    unsigned seed = 29u + (unsigned)n;
    size_t page = (size_t)n * n;
    double *L = base_factor(n, &seed);
    double *Lp = malloc(sizeof(double) * page * count),
           *Wp = malloc(sizeof(double) * (size_t)n * count),
           *t = malloc(sizeof(double) * (size_t)(reps + 1));
    if (!Lp || !Wp || !t)
        bg_check(QRU_ERR_ALLOC, "pages");
    double sc = 0.5 / sqrt((double)n);
    for (int p = 0; p < count; ++p) {
        memcpy(Lp + page * p, L, sizeof(double) * page);
        for (int i = 0; i < n; ++i)
            Wp[i + (size_t)n * p] = sc * qru_test_urand(&seed);
    }
    qru_matrix *L0 = NULL, *Lb = NULL, *Wb = NULL;
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, n, n, count, 0, &L0),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, n, n, count, 0, &Lb),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, 1, n, count, 0, &Wb),
             "create");
    bg_check(qru_matrix_upload(L0, Lp, n), "upload");
    bg_check(qru_matrix_upload(Wb, Wp, n), "upload");
    for (int r = 0; r <= reps; ++r) {
        bg_check(qru_matrix_copy(L0, Lb), "restore");
        bg_check(qru_context_sync(ctx), "sync");
        t[r] = timed(ctx, 'L', Lb, Wb, sign, &out->calls, &out->waits);
    }
    out->batch_ms = 1e3 * bg_median(t + 1, reps);

    /* count single calls on one factor, updated count times (downdates:
     * by the same w, a quarter of the downdated norm each time at most) */
    qru_matrix *Ls = NULL, *Ws = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, n, n, &Ls), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, 1, n, &Ws), "create");
    bg_check(qru_matrix_upload(Ls, L, n), "upload");
    for (int i = 0; i < n; ++i)
        Wp[i] *= sign < 0 ? 1.0 / sqrt((double)count) : 1.0;
    bg_check(qru_matrix_upload(Ws, Wp, n), "upload");
    bg_check(qru_chol_update(ctx, 'L', Ls, Ws, sign, Ls), "warm-up");
    bg_check(qru_context_sync(ctx), "sync");
    double t0 = bg_now();
    for (int p = 0; p < count; ++p)
        bg_check(qru_chol_update(ctx, 'L', Ls, Ws, sign, Ls),
                 "qru_chol_update");
    bg_check(qru_context_sync(ctx), "sync");
    out->loop_ms = 1e3 * (bg_now() - t0);

    out->vendor_ms = NAN;
#ifdef QRU_HAVE_CUDA
    /* A1 = L L' + sign w w' of every page, lower part used */
    double *A1 = malloc(sizeof(double) * page * count);
    if (!A1)
        bg_check(QRU_ERR_ALLOC, "A1");
    for (int i = 0; i < n; ++i)
        Wp[i] *= sign < 0 ? sqrt((double)count) : 1.0;
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double s = 0.0;
            for (int l = 0; l <= j; ++l)
                s += L[i + (size_t)l * n] * L[j + (size_t)l * n];
            for (int p = 0; p < count; ++p)
                A1[page * p + i + (size_t)j * n] =
                    s + sign * Wp[i + (size_t)n * p] * Wp[j + (size_t)n * p];
        }
    double v = cusolver_batch(ctx, n, count, A1, reps);
    out->vendor_ms = 1e3 * v;
    free(A1);
#endif
    qru_matrix_destroy(L0);
    qru_matrix_destroy(Lb);
    qru_matrix_destroy(Wb);
    qru_matrix_destroy(Ls);
    qru_matrix_destroy(Ws);
    free(L);
    free(Lp);
    free(Wp);
    free(t);
}

/* ---- the second part: batched Q-less least squares ------------------ */

typedef struct lrow {
    double add_ms, solve_ms, both_ms, loop_ms, vendor_ms;
    long long calls, waits;
} lrow;

/* count problems of m unknowns and n rows (r = 1), one row added and
 * solved: batched, singles and (CUDA) cuBLAS's batched geqrf. */
static void bench_lsq(qru_context *ctx, int m, int n, int count, int reps,
                      lrow *out)
{
    unsigned seed = 41u;
    size_t pa = (size_t)n * m;
    double *A = malloc(sizeof(double) * pa * count),
           *b = malloc(sizeof(double) * (size_t)n * count),
           *u = malloc(sizeof(double) * (size_t)m * count),
           *e = malloc(sizeof(double) * (size_t)count),
           *ta = malloc(sizeof(double) * (size_t)(reps + 1)),
           *ts = malloc(sizeof(double) * (size_t)(reps + 1)),
           *tb = malloc(sizeof(double) * (size_t)(reps + 1));
    if (!A || !b || !u || !e || !ta || !ts || !tb)
        bg_check(QRU_ERR_ALLOC, "pages");
    for (size_t i = 0; i < pa * count; ++i)
        A[i] = qru_test_urand(&seed);
    for (size_t i = 0; i < (size_t)n * count; ++i)
        b[i] = qru_test_urand(&seed);
    for (size_t i = 0; i < (size_t)m * count; ++i)
        u[i] = qru_test_urand(&seed);
    for (int i = 0; i < count; ++i)
        e[i] = qru_test_urand(&seed);
    qru_matrix *Ab = NULL, *bb = NULL, *Ub = NULL, *Eb = NULL, *Xb = NULL;
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, m, n, count, 0, &Ab),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, 1, n, count, 0, &bb),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, 1, m, 1, count, 0, &Ub),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, 1, 1, 1, count, 0, &Eb),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, m, 1, m, count, 0, &Xb),
             "create");
    bg_check(qru_matrix_upload(Ab, A, n), "upload");
    bg_check(qru_matrix_upload(bb, b, n), "upload");
    bg_check(qru_matrix_upload(Ub, u, 1), "upload");
    bg_check(qru_matrix_upload(Eb, e, 1), "upload");
    qru_context_stats s;
    for (int r = 0; r <= reps; ++r) {
        qru_lsq_batch *fb = NULL;
        bg_check(qru_lsq_batch_create(ctx, Ab, bb, &fb), "create");
        bg_check(qru_context_sync(ctx), "sync");
        bg_check(qru_context_reset_stats(ctx), "reset");
        double t0 = bg_now();
        bg_check(qru_lsq_batch_add_rows(fb, Ub, Eb), "add_rows");
        bg_check(qru_lsq_batch_solve(fb, Xb, NULL), "solve");
        bg_check(qru_context_sync(ctx), "sync");
        tb[r] = bg_now() - t0;
        bg_check(qru_context_get_stats(ctx, &s), "stats");
        out->calls = s.calls;
        out->waits = s.host_waits;
        t0 = bg_now();
        bg_check(qru_lsq_batch_add_rows(fb, Ub, Eb), "add_rows");
        bg_check(qru_context_sync(ctx), "sync");
        ta[r] = bg_now() - t0;
        t0 = bg_now();
        bg_check(qru_lsq_batch_solve(fb, Xb, NULL), "solve");
        bg_check(qru_context_sync(ctx), "sync");
        ts[r] = bg_now() - t0;
        qru_lsq_batch_destroy(fb);
    }
    out->both_ms = 1e3 * bg_median(tb + 1, reps);
    out->add_ms = 1e3 * bg_median(ta + 1, reps);
    out->solve_ms = 1e3 * bg_median(ts + 1, reps);

    /* count single calls on one Q-less factorisation */
    qru_matrix *As = NULL, *bs = NULL, *Us = NULL, *Es = NULL, *Xs = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, m, n, &As), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, 1, n, &bs), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, 1, m, 1, &Us), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, 1, 1, 1, &Es), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, m, 1, m, &Xs), "create");
    bg_check(qru_matrix_upload(As, A, n), "upload");
    bg_check(qru_matrix_upload(bs, b, n), "upload");
    bg_check(qru_matrix_upload(Us, u, 1), "upload");
    bg_check(qru_matrix_upload(Es, e, 1), "upload");
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_NONE;
    qru_lsq *f = NULL;
    bg_check(qru_lsq_create(ctx, As, bs, &opt, &f), "qru_lsq_create");
    int rows = n;
    bg_check(qru_lsq_add_rows(f, rows++, Us, Es), "warm-up");
    bg_check(qru_lsq_solve(f, Xs), "warm-up");
    bg_check(qru_context_sync(ctx), "sync");
    double t0 = bg_now();
    for (int p = 0; p < count; ++p) {
        bg_check(qru_lsq_add_rows(f, rows++, Us, Es), "qru_lsq_add_rows");
        bg_check(qru_lsq_solve(f, Xs), "qru_lsq_solve");
    }
    bg_check(qru_context_sync(ctx), "sync");
    out->loop_ms = 1e3 * (bg_now() - t0);
    qru_lsq_destroy(f);

    out->vendor_ms = NAN;
#ifdef QRU_HAVE_CUDA
    {
        int n1 = n + 1;
        double *A1 = malloc(sizeof(double) * (size_t)n1 * m * count);
        if (!A1)
            bg_check(QRU_ERR_ALLOC, "A1");
        for (int p = 0; p < count; ++p)
            for (int j = 0; j < m; ++j) {
                for (int i = 0; i < n; ++i)
                    A1[(size_t)n1 * m * p + i + (size_t)j * n1] =
                        A[pa * p + i + (size_t)j * n];
                A1[(size_t)n1 * m * p + n + (size_t)j * n1] =
                    u[(size_t)m * p + j];
            }
        out->vendor_ms = 1e3 * cublas_geqrf_batch(ctx, n1, m, count, A1, reps);
        free(A1);
    }
#endif
    qru_matrix *ms[] = {Ab, bb, Ub, Eb, Xb, As, bs, Us, Es, Xs};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    free(A);
    free(b);
    free(u);
    free(e);
    free(ta);
    free(ts);
    free(tb);
}

static void part_lsq(qru_context *ctx, int count, int reps, const char *md,
                     const char *date)
{
    int m = 20, n = 200;
    char head[512];
    snprintf(head, sizeof head,
             "%d Q-less least-squares problems, m = %d, n = %d, r = 1, one "
             "row added and solved (qru_lsq_batch), double, %s (%s), %s; "
             "median of %d, host time to qru_context_sync",
             count, m, n, qru_backend_name(qru_context_backend(ctx)),
             qru_context_device_name(ctx), date, reps);
    lrow r;
    bench_lsq(ctx, m, n, count, reps, &r);
    printf("%s\n%10s %10s %10s %6s %6s %12s %9s %12s %9s\n", head,
           "add ms", "solve ms", "both ms", "calls", "waits", "singles ms",
           "ratio", "geqrfB ms", "ratio");
    printf("%10.3f %10.3f %10.3f %6lld %6lld %12.2f %9.1f %12.3f %9.2f\n",
           r.add_ms, r.solve_ms, r.both_ms, r.calls, r.waits, r.loop_ms,
           r.loop_ms / r.both_ms, r.vendor_ms, r.vendor_ms / r.both_ms);
    FILE *f = md ? fopen(md, "w") : NULL;
    if (!f)
        return;
    fprintf(f,
            "%s.\n\n| add row (ms) | solve (ms) | both (ms) | calls | host "
            "waits | %d single add + solve (ms) | singles / batch | cuBLAS "
            "geqrfBatched of the %d x %d matrices (ms) | geqrfBatched / "
            "batch |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            head, count, n + 1, m);
    fprintf(f, "| %.3f | %.3f | %.3f | %lld | %lld | %.1f | %.0f | ", r.add_ms,
            r.solve_ms, r.both_ms, r.calls, r.waits, r.loop_ms,
            r.loop_ms / r.both_ms);
    if (isnan(r.vendor_ms))
        fprintf(f, "- | - |\n");
    else
        fprintf(f, "%.3f | %.2f |\n", r.vendor_ms, r.vendor_ms / r.both_ms);
    fclose(f);
}

/* ---- the first part: batched Cholesky updates ------------------------ */

static void part_chol(qru_context *ctx, int count, int reps, const char *md,
                      const char *date)
{
    char head[512];
    snprintf(head, sizeof head,
             "%d Cholesky rank-1 updates / downdates of order n "
             "(qru_chol_update_batch, lower factor), double, %s (%s), %s; "
             "median of %d, host time to qru_context_sync",
             count, qru_backend_name(qru_context_backend(ctx)),
             qru_context_device_name(ctx), date, reps);
    FILE *f = md ? fopen(md, "w") : NULL;
    printf("%s\n%5s %-9s %10s %6s %6s %12s %9s %12s %9s\n", head, "n", "",
           "batch ms", "calls", "waits", "singles ms", "ratio",
           "potrfB ms", "ratio");
    if (f)
        fprintf(f,
                "%s.\n\n| n | | batch (ms) | calls | host waits | %d "
                "single calls (ms) | singles / batch | cuSOLVER "
                "potrfBatched of A1 (ms) | potrfBatched / batch |\n"
                "|---:|---|---:|---:|---:|---:|---:|---:|---:|\n",
                head, count);
    static const int ns[] = {16, 32, 64, 128};
    for (int a = 0; a < 4; ++a)
        for (int sg = 0; sg < 2; ++sg) {
            int n = ns[a], sign = sg ? -1 : 1;
            row r;
            bench_n(ctx, n, count, sign, reps, &r);
            printf("%5d %-9s %10.3f %6lld %6lld %12.2f %9.1f %12.3f %9.2f\n",
                   n, sign > 0 ? "update" : "downdate", r.batch_ms, r.calls,
                   r.waits, r.loop_ms, r.loop_ms / r.batch_ms, r.vendor_ms,
                   r.vendor_ms / r.batch_ms);
            fflush(stdout);
            if (f) {
                fprintf(f, "| %d | %s | %.3f | %lld | %lld | %.1f | %.0f | ",
                        n, sign > 0 ? "update" : "downdate", r.batch_ms,
                        r.calls, r.waits, r.loop_ms, r.loop_ms / r.batch_ms);
                if (isnan(r.vendor_ms))
                    fprintf(f, "- | - |\n");
                else
                    fprintf(f, "%.3f | %.2f |\n", r.vendor_ms,
                            r.vendor_ms / r.batch_ms);
                fflush(f);
            }
        }
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    int reps = 7, count = 10000, lsq = 0;
    const char *md = getenv("QRU_BENCH_MD");
    char mdpath[4096];
    const char *dir = NULL;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "-q"))
            count = 1000;
        else if (!strcmp(argv[a], "-P") && a + 1 < argc &&
                 (!strcmp(argv[a + 1], "chol") || !strcmp(argv[a + 1], "lsq")))
            lsq = !strcmp(argv[++a], "lsq");
        else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-c") && a + 1 < argc)
            count = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-o") && a + 1 < argc)
            dir = argv[++a];
        else {
            fprintf(stderr, "usage: bench_batch [-P chol|lsq] [-q] [-r REPS] "
                            "[-c COUNT] [-o DIR]\n");
            return 2;
        }
    }
    if (dir) {
        snprintf(mdpath, sizeof mdpath, "%s/bench_batch%s.md", dir,
                 lsq ? "_lsq" : "");
        md = mdpath;
    }
    if (reps < 1)
        reps = 1;
    if (count < 1)
        count = 1;
    qru_context *ctx = qru_test_context();
    if (!ctx)
        return 77;
    time_t tt = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tt));
    if (lsq)
        part_lsq(ctx, count, reps, md, date);
    else
        part_chol(ctx, count, reps, md, date);
    qru_context_destroy(ctx);
    return 0;
}
