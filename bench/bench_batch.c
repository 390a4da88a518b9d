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
 * qru_lsq_batch_solve, timed together and apart; and in one call,
 * qru_lsq_batch_add_rows_solve, which the ratios take), against
 *   - the same work as count single calls: one qru_lsq in the Q-less form
 *     (QRU_Q_NONE), qru_lsq_add_rows + qru_lsq_solve count times;
 *   - on CUDA, cuBLAS's batched refactorisation (cublasDgeqrfBatched) of
 *     the count updated 201 x 20 matrices, formed untimed.
 * The third part (-P rmrows): count thin least-squares problems
 * (qru_lsq_batch in the QRU_Q_THIN form; default 1000), m = 100 unknowns,
 * n = 2000 rows, one right-hand side, the 5 rows after row n/2 removed
 * (qru_lsq_batch_remove_rows; the rows added back untimed before each
 * repeat, that addition timed apart), against
 *   - single calls: qru_lsq_remove_rows on one thin qru_lsq, min(count,
 *     50) calls in a row (one untimed), scaled to count;
 *   - on CUDA, cublasDgeqrfBatched of the count (n - 5) x m matrices A1
 *     alone: cuBLAS and cuSOLVER have no batched orgqr, so the Q that the
 *     batch keeps is not formed (a refactorisation with Q costs more).
 *   -q: 100 problems of m = 20, n = 200; -m M, -n N: other sizes.  The
 *   creation of the batch (qru_lsq_batch_create_ex) is timed too.
 * The fourth part (-P insdel): count Cholesky factors of order n (16, 32,
 * 64, 128) gaining a row and column at k = n/2 (qru_chol_insert_batch,
 * in place in pages of order n + 1), then losing it again
 * (qru_chol_delete_batch, restored before each repeat), against count
 * single calls of qru_chol_insert / qru_chol_delete and, on CUDA,
 * cusolverDnDpotrfBatched of the count new matrices.
 * Usage: bench_batch [-P chol|lsq|rmrows|insdel] [-q] [-r REPS (7)]
 * [-c COUNT (10000)] [-m M -n N (rmrows)] [-o DIR]; -q: 1000 problems;
 * the table is also written as Markdown to DIR/bench_batch.md
 * (DIR/bench_batch_lsq.md for -P lsq, DIR/bench_batch_rmrows.md for
 * -P rmrows, DIR/bench_batch_insdel.md for -P insdel) or to the file
 * QRU_BENCH_MD names.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <lapacke.h>

#include "bench_gpu_common.h"
#include "qru_test.h"

/* The device of ctx for the captions; on the CPU with the threads of the
 * batched routines (QRU_TUNE_BATCH_THREADS; 0: the CPUs online). */
static const char *device_text(qru_context *ctx)
{
    static char buf[400];
    int t = -1;
    if (qru_context_backend(ctx) != QRU_BACKEND_CPU ||
        qru_context_get_tuning(ctx, QRU_DOUBLE, QRU_TUNE_BATCH_THREADS, &t))
        return qru_context_device_name(ctx);
    snprintf(buf, sizeof buf, "%s, QRU_BATCH_THREADS %d%s",
             qru_context_device_name(ctx), t,
             t == 0 ? " (the CPUs online)" : "");
    return buf;
}

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
    double batch_ms, float_ms, loop_ms, vendor_ms;
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

/* The median ms of reps timed batch updates of count factors of order n
 * (the pages Lp, w Wp, doubles, rounded to dt's type), the factors
 * restored untimed before each; t: reps + 1 slots. */
static double batch_ms(qru_context *ctx, qru_dtype dt, int n, int count,
                       const double *Lp, const double *Wp, int sign, int reps,
                       double *t, long long *calls, long long *waits)
{
    size_t nl = (size_t)n * n * count, nw = (size_t)n * count;
    const void *hl = Lp, *hw = Wp;
    float *f = NULL;
    if (dt == QRU_FLOAT) {
        f = malloc(sizeof(float) * (nl + nw));
        if (!f)
            bg_check(QRU_ERR_ALLOC, "pages");
        for (size_t i = 0; i < nl; ++i)
            f[i] = (float)Lp[i];
        for (size_t i = 0; i < nw; ++i)
            f[nl + i] = (float)Wp[i];
        hl = f;
        hw = f + nl;
    }
    qru_matrix *L0 = NULL, *Lb = NULL, *Wb = NULL;
    bg_check(qru_matrix_create_batch(ctx, dt, n, n, n, count, 0, &L0),
             "create");
    bg_check(qru_matrix_create_batch(ctx, dt, n, n, n, count, 0, &Lb),
             "create");
    bg_check(qru_matrix_create_batch(ctx, dt, n, 1, n, count, 0, &Wb),
             "create");
    bg_check(qru_matrix_upload(L0, hl, n), "upload");
    bg_check(qru_matrix_upload(Wb, hw, n), "upload");
    for (int r = 0; r <= reps; ++r) {
        bg_check(qru_matrix_copy(L0, Lb), "restore");
        bg_check(qru_context_sync(ctx), "sync");
        t[r] = timed(ctx, 'L', Lb, Wb, sign, calls, waits);
    }
    qru_matrix_destroy(L0);
    qru_matrix_destroy(Lb);
    qru_matrix_destroy(Wb);
    free(f);
    return 1e3 * bg_median(t + 1, reps);
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
    out->batch_ms = batch_ms(ctx, QRU_DOUBLE, n, count, Lp, Wp, sign, reps,
                             t, &out->calls, &out->waits);
    /* the same batch in single precision */
    long long c, w;
    out->float_ms =
        batch_ms(ctx, QRU_FLOAT, n, count, Lp, Wp, sign, reps, t, &c, &w);

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
    qru_matrix_destroy(Ls);
    qru_matrix_destroy(Ws);
    free(L);
    free(Lp);
    free(Wp);
    free(t);
}

/* ---- the second part: batched Q-less least squares ------------------ */

typedef struct lrow {
    double add_ms, solve_ms, both_ms, one_ms, loop_ms, vendor_ms;
    long long calls, waits;
} lrow;

/* count problems of m unknowns and n rows (r = 1), one row added and
 * solved: batched (two calls, and one: qru_lsq_batch_add_rows_solve, whose
 * calls and host waits are counted), singles and (CUDA) cuBLAS's batched
 * geqrf. */
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
           *tb = malloc(sizeof(double) * (size_t)(reps + 1)),
           *t1 = malloc(sizeof(double) * (size_t)(reps + 1));
    if (!A || !b || !u || !e || !ta || !ts || !tb || !t1)
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
        bg_check(qru_context_reset_stats(ctx), "reset");
        t0 = bg_now();
        bg_check(qru_lsq_batch_add_rows_solve(fb, Ub, Eb, Xb, NULL),
                 "add_rows_solve");
        bg_check(qru_context_sync(ctx), "sync");
        t1[r] = bg_now() - t0;
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
    out->one_ms = 1e3 * bg_median(t1 + 1, reps);

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
    free(t1);
}

static void part_lsq(qru_context *ctx, int count, int reps, const char *md,
                     const char *date)
{
    int m = 20, n = 200;
    char head[512];
    snprintf(head, sizeof head,
             "%d Q-less least-squares problems, m = %d, n = %d, r = 1, one "
             "row added and solved (qru_lsq_batch_add_rows + "
             "qru_lsq_batch_solve, and qru_lsq_batch_add_rows_solve), "
             "double, %s (%s), %s; "
             "median of %d, host time to qru_context_sync",
             count, m, n, qru_backend_name(qru_context_backend(ctx)),
             device_text(ctx), date, reps);
    lrow r;
    bench_lsq(ctx, m, n, count, reps, &r);
    printf("%s\n%10s %10s %10s %10s %6s %6s %12s %9s %12s %9s\n", head,
           "add ms", "solve ms", "both ms", "one ms", "calls", "waits",
           "singles ms", "ratio", "geqrfB ms", "ratio");
    printf("%10.3f %10.3f %10.3f %10.3f %6lld %6lld %12.2f %9.1f %12.3f "
           "%9.2f\n",
           r.add_ms, r.solve_ms, r.both_ms, r.one_ms, r.calls, r.waits,
           r.loop_ms, r.loop_ms / r.one_ms, r.vendor_ms,
           r.vendor_ms / r.one_ms);
    FILE *f = md ? fopen(md, "w") : NULL;
    if (!f)
        return;
    fprintf(f,
            "%s; batch: the one call.\n\n| add row (ms) | solve (ms) | "
            "both (ms) | in one call (ms) | calls | host waits | %d single "
            "add + solve (ms) | singles / batch | cuBLAS geqrfBatched of the "
            "%d x %d matrices (ms) | geqrfBatched / batch |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            head, count, n + 1, m);
    fprintf(f, "| %.3f | %.3f | %.3f | %.3f | %lld | %lld | %.2f | %.1f | ",
            r.add_ms, r.solve_ms, r.both_ms, r.one_ms, r.calls, r.waits,
            r.loop_ms, r.loop_ms / r.one_ms);
    if (isnan(r.vendor_ms))
        fprintf(f, "- | - |\n");
    else
        fprintf(f, "%.3f | %.2f |\n", r.vendor_ms, r.vendor_ms / r.one_ms);
    fclose(f);
}

/* ---- the third part: rows removed from thin least squares ------------ */

typedef struct rrow {
    double create_ms, rm_ms, add_ms, loop_ms, vendor_ms;
    int singles;
    long long calls, waits;
} rrow;

/* count thin problems (QRU_Q_THIN) of m unknowns and n rows (r = 1)
 * created (qru_lsq_batch_create_ex, one untimed, then reps timed, each
 * batch destroyed before the next), then the p rows after row k removed:
 * batched (the rows added back, untimed, before
 * each repeat, so every repeat removes from n rows; the addition timed
 * too), singles (S = min(count, 50) qru_lsq_remove_rows calls in a row on
 * one thin factorisation of n + p S rows, scaled to count) and (CUDA)
 * cuBLAS's batched geqrf of the count (n - p) x m matrices. */
static void bench_rm(qru_context *ctx, int m, int n, int p, int k, int count,
                     int reps, rrow *out)
{
    unsigned seed = 43u;
    int S = count < 50 ? count : 50, ns = n + p * S;
    size_t pa = (size_t)ns * m;
    double *A = malloc(sizeof(double) * pa * count),
           *b = malloc(sizeof(double) * (size_t)ns * count),
           *tr = malloc(sizeof(double) * (size_t)(reps + 1)),
           *ta = malloc(sizeof(double) * (size_t)(reps + 1));
    int *info = malloc(sizeof(int) * (size_t)count);
    if (!A || !b || !tr || !ta || !info)
        bg_check(QRU_ERR_ALLOC, "pages");
    for (size_t i = 0; i < pa * count; ++i)
        A[i] = qru_test_urand(&seed);
    for (size_t i = 0; i < (size_t)ns * count; ++i)
        b[i] = qru_test_urand(&seed);
    /* the batch: the first n rows of each page (ld ns) */
    qru_matrix *Ab = NULL, *bb = NULL, *Ub = NULL, *Eb = NULL;
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, m, n, count, 0, &Ab),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n, 1, n, count, 0, &bb),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, p, m, p, count, 0, &Ub),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, p, 1, p, count, 0, &Eb),
             "create");
    double *h = malloc(sizeof(double) * (size_t)n * m * count);
    if (!h)
        bg_check(QRU_ERR_ALLOC, "pages");
    for (int i = 0; i < count; ++i)
        for (int j = 0; j < m; ++j)
            memcpy(h + (size_t)n * m * i + (size_t)n * j,
                   A + pa * i + (size_t)ns * j, sizeof(double) * n);
    bg_check(qru_matrix_upload(Ab, h, n), "upload");
    for (int i = 0; i < count; ++i)
        memcpy(h + (size_t)n * i, b + (size_t)ns * i, sizeof(double) * n);
    bg_check(qru_matrix_upload(bb, h, n), "upload");
    for (int i = 0; i < count; ++i) /* the rows added back: rows n .. */
        for (int j = 0; j < m; ++j)
            memcpy(h + (size_t)p * m * i + (size_t)p * j,
                   A + pa * i + (size_t)ns * j + n, sizeof(double) * p);
    bg_check(qru_matrix_upload(Ub, h, p), "upload");
    for (int i = 0; i < count; ++i)
        memcpy(h + (size_t)p * i, b + (size_t)ns * i + n, sizeof(double) * p);
    bg_check(qru_matrix_upload(Eb, h, p), "upload");
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    opt.row_capacity = n + p;
    qru_lsq_batch *fb = NULL;
    for (int r = 0; r <= reps; ++r) {
        qru_lsq_batch_destroy(fb);
        fb = NULL;
        bg_check(qru_context_sync(ctx), "sync");
        double t0 = bg_now();
        bg_check(qru_lsq_batch_create_ex(ctx, Ab, bb, &opt, &fb),
                 "create_ex");
        bg_check(qru_context_sync(ctx), "sync");
        tr[r] = bg_now() - t0;
    }
    out->create_ms = 1e3 * bg_median(tr + 1, reps);
    qru_context_stats s;
    for (int r = 0; r <= reps; ++r) {
        bg_check(qru_context_sync(ctx), "sync");
        bg_check(qru_context_reset_stats(ctx), "reset");
        double t0 = bg_now();
        int st = qru_lsq_batch_remove_rows(fb, k, p, info);
        bg_check(qru_context_sync(ctx), "sync");
        tr[r] = bg_now() - t0;
        if (st != 0)
            fprintf(stderr, "remove_rows: %d problems refused\n", st);
        bg_check(st < 0 ? st : 0, "remove_rows");
        bg_check(qru_context_get_stats(ctx, &s), "stats");
        out->calls = s.calls;
        out->waits = s.host_waits;
        t0 = bg_now();
        bg_check(qru_lsq_batch_add_rows(fb, Ub, Eb), "add_rows");
        bg_check(qru_context_sync(ctx), "sync");
        ta[r] = bg_now() - t0;
    }
    out->rm_ms = 1e3 * bg_median(tr + 1, reps);
    out->add_ms = 1e3 * bg_median(ta + 1, reps);
    qru_lsq_batch_destroy(fb);

    /* S single removals from one thin factorisation of ns rows */
    qru_matrix *As = NULL, *bs = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, ns, m, ns, &As), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, ns, 1, ns, &bs), "create");
    bg_check(qru_matrix_upload(As, A, ns), "upload");
    bg_check(qru_matrix_upload(bs, b, ns), "upload");
    qru_lsq_options so;
    qru_lsq_options_init(&so);
    so.q = QRU_Q_THIN;
    qru_lsq *f = NULL;
    bg_check(qru_lsq_create(ctx, As, bs, &so, &f), "qru_lsq_create");
    bg_check(qru_lsq_remove_rows(f, k, p), "warm-up");
    bg_check(qru_context_sync(ctx), "sync");
    double t0 = bg_now();
    for (int i = 1; i < S; ++i)
        bg_check(qru_lsq_remove_rows(f, k, p), "qru_lsq_remove_rows");
    bg_check(qru_context_sync(ctx), "sync");
    out->singles = S > 1 ? S - 1 : 1;
    out->loop_ms = 1e3 * (bg_now() - t0) * count / out->singles;
    qru_lsq_destroy(f);
    qru_matrix_destroy(As);
    qru_matrix_destroy(bs);

    out->vendor_ms = NAN;
#ifdef QRU_HAVE_CUDA
    {
        int n1 = n - p;
        double *A1 = malloc(sizeof(double) * (size_t)n1 * m * count);
        if (!A1)
            bg_check(QRU_ERR_ALLOC, "A1");
        for (int i = 0; i < count; ++i)
            for (int j = 0; j < m; ++j)
                for (int t = 0, o = 0; t < n; ++t)
                    if (t < k || t >= k + p)
                        A1[(size_t)n1 * m * i + (size_t)n1 * j + o++] =
                            A[pa * i + (size_t)ns * j + t];
        out->vendor_ms = 1e3 * cublas_geqrf_batch(ctx, n1, m, count, A1, reps);
        free(A1);
    }
#endif
    qru_matrix *ms[] = {Ab, bb, Ub, Eb};
    for (size_t i = 0; i < sizeof(ms) / sizeof(ms[0]); ++i)
        qru_matrix_destroy(ms[i]);
    free(h);
    free(A);
    free(b);
    free(tr);
    free(ta);
    free(info);
}

static void part_rm(qru_context *ctx, int count, int quick, int reps,
                    int m, int n, const char *md, const char *date)
{
    int p = 5, k;
    m = m > 0 ? m : quick ? 20 : 100;
    n = n > 0 ? n : quick ? 200 : 2000;
    if (n < m + p)
        n = m + p;
    k = n / 2;
    char head[768];
    snprintf(head, sizeof head,
             "%d thin least-squares problems (QRU_Q_THIN), m = %d, n = %d, "
             "r = 1, the %d rows after row %d removed "
             "(qru_lsq_batch_remove_rows), double, %s (%s), %s; median of "
             "%d, host time to qru_context_sync (the creation: "
             "qru_lsq_batch_create_ex of the batch); the vendor column is "
             "cublasDgeqrfBatched of the %d x %d matrices A1 alone (R and "
             "the reflectors: cuBLAS has no batched orgqr, so Q is not "
             "formed, which a refactorisation with Q would add)",
             count, m, n, p, k, qru_backend_name(qru_context_backend(ctx)),
             device_text(ctx), date, reps, n - p, m);
    rrow r;
    bench_rm(ctx, m, n, p, k, count, reps, &r);
    printf("%s\n%10s %10s %10s %6s %6s %12s %9s %12s %9s\n", head,
           "create ms", "remove ms", "add ms", "calls", "waits", "singles ms",
           "ratio", "geqrfB ms", "ratio");
    printf("%10.3f %10.3f %10.3f %6lld %6lld %12.2f %9.1f %12.3f %9.2f\n",
           r.create_ms, r.rm_ms, r.add_ms, r.calls, r.waits, r.loop_ms,
           r.loop_ms / r.rm_ms, r.vendor_ms, r.vendor_ms / r.rm_ms);
    FILE *f = md ? fopen(md, "w") : NULL;
    if (!f)
        return;
    fprintf(f,
            "%s.\n\n| create (ms) | remove %d rows (ms) | add %d rows (ms) "
            "| calls | host waits | %d single removals (ms; %d timed, "
            "scaled) | singles / batch | cuBLAS geqrfBatched of A1, no Q "
            "(ms) | geqrfBatched / batch |\n"
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
            head, p, p, count, r.singles);
    fprintf(f, "| %.3f | %.3f | %.3f | %lld | %lld | %.2f | %.1f | ",
            r.create_ms, r.rm_ms, r.add_ms, r.calls, r.waits, r.loop_ms,
            r.loop_ms / r.rm_ms);
    if (isnan(r.vendor_ms))
        fprintf(f, "- | - |\n");
    else
        fprintf(f, "%.3f | %.2f |\n", r.vendor_ms, r.vendor_ms / r.rm_ms);
    fclose(f);
}

/* ---- the first part: batched Cholesky updates ------------------------ */

/* The table of the Cholesky parts: its head (stdout, and the Markdown
 * file md where given, which it returns open), then a row a problem size
 * and operation (what), vendor: what cuSOLVER's column factorises. */
/* The table of a Cholesky part; fl: with the column of the batch in
 * single precision (row.float_ms). */
static FILE *chol_table(const char *head, int count, const char *vendor,
                        const char *md, int fl)
{
    FILE *f = md ? fopen(md, "w") : NULL;
    printf("%s\n%5s %-9s %10s%s %6s %6s %12s %9s %12s %9s\n", head, "n", "",
           "batch ms", fl ? "   float ms" : "", "calls", "waits",
           "singles ms", "ratio", "potrfB ms", "ratio");
    if (f)
        fprintf(f,
                "%s.\n\n| n | | batch (ms) |%s calls | host waits | %d "
                "single calls (ms) | singles / batch | cuSOLVER "
                "potrfBatched of %s (ms) | potrfBatched / batch |\n"
                "|---:|---|---:|%s---:|---:|---:|---:|---:|---:|\n",
                head, fl ? " batch, float (ms) |" : "", count, vendor,
                fl ? "---:|" : "");
    return f;
}

static void chol_table_row(FILE *f, int n, const char *what, const row *r,
                           int fl)
{
    char fc[32] = "";
    if (fl)
        snprintf(fc, sizeof fc, " %10.3f", r->float_ms);
    printf("%5d %-9s %10.3f%s %6lld %6lld %12.2f %9.1f %12.3f %9.2f\n", n,
           what, r->batch_ms, fc, r->calls, r->waits, r->loop_ms,
           r->loop_ms / r->batch_ms, r->vendor_ms,
           r->vendor_ms / r->batch_ms);
    fflush(stdout);
    if (!f)
        return;
    if (fl)
        snprintf(fc, sizeof fc, " %.3f |", r->float_ms);
    fprintf(f, "| %d | %s | %.3f |%s %lld | %lld | %.2f | %.1f | ", n, what,
            r->batch_ms, fc, r->calls, r->waits, r->loop_ms,
            r->loop_ms / r->batch_ms);
    if (isnan(r->vendor_ms))
        fprintf(f, "- | - |\n");
    else
        fprintf(f, "%.3f | %.2f |\n", r->vendor_ms,
                r->vendor_ms / r->batch_ms);
    fflush(f);
}


static void part_chol(qru_context *ctx, int count, int reps, const char *md,
                      const char *date)
{
    char head[512];
    snprintf(head, sizeof head,
             "%d Cholesky rank-1 updates / downdates of order n "
             "(qru_chol_update_batch, lower factor), double (and float: its own "
             "column), %s (%s), %s; "
             "median of %d, host time to qru_context_sync",
             count, qru_backend_name(qru_context_backend(ctx)),
             device_text(ctx), date, reps);
    FILE *f = chol_table(head, count, "A1", md, 1);
    static const int ns[] = {16, 32, 64, 128};
    for (int a = 0; a < 4; ++a)
        for (int sg = 0; sg < 2; ++sg) {
            int n = ns[a], sign = sg ? -1 : 1;
            row r;
            bench_n(ctx, n, count, sign, reps, &r);
            chol_table_row(f, n, sign > 0 ? "update" : "downdate", &r, 1);
        }
    if (f)
        fclose(f);
}

/* ---- the fourth part: batched insertion and deletion --------------- */

/* Seconds of one timed call (insertion: C given; else the deletion of row
 * k) on the batch, from the pages L0 copied into Lb (untimed); the
 * calls and host waits of the call. */
static double timed_insdel(qru_context *ctx, const qru_matrix *L0,
                           qru_matrix *Lb, qru_matrix *L1b, int k,
                           const qru_matrix *C, long long *calls,
                           long long *waits)
{
    qru_context_stats s;
    bg_check(qru_matrix_copy(L0, Lb), "restore");
    bg_check(qru_context_sync(ctx), "sync");
    bg_check(qru_context_reset_stats(ctx), "reset");
    double t0 = bg_now();
    int st = C ? qru_chol_insert_batch(ctx, 'L', Lb, k, C, L1b, NULL)
               : qru_chol_delete_batch(ctx, 'L', Lb, k, 1, L1b, NULL);
    bg_check(st, C ? "qru_chol_insert_batch" : "qru_chol_delete_batch");
    bg_check(qru_context_sync(ctx), "sync");
    double t = bg_now() - t0;
    bg_check(qru_context_get_stats(ctx, &s), "stats");
    *calls = s.calls;
    *waits = s.host_waits;
    return t;
}

/* count problems of order n gaining a row and column at k = n / 2 (ins),
 * or of order n + 1 losing it, in place in pages of order n + 1; out[0]
 * the insertion, out[1] the deletion: batched, count single calls
 * (qru_chol_insert / qru_chol_delete out of place on one factor) and
 * (CUDA) cuSOLVER's potrfBatched of the count new matrices. */
static void bench_insdel(qru_context *ctx, int n, int count, int reps,
                         row *out)
{
    unsigned seed = 41u + (unsigned)n;
    int n1 = n + 1, k = n / 2;
    size_t page = (size_t)n1 * n1;
    double *F1 = base_factor(n1, &seed); /* of A1, order n + 1 */
    double *A1 = calloc(page, sizeof(double)),
           *A = calloc((size_t)n * n, sizeof(double)),
           *Lp = calloc(page * count, sizeof(double)),
           *Cp = malloc(sizeof(double) * (size_t)n1 * count),
           *t = malloc(sizeof(double) * (size_t)(reps + 1));
    if (!A1 || !A || !Lp || !Cp || !t)
        bg_check(QRU_ERR_ALLOC, "pages");
    for (int j = 0; j < n1; ++j) /* A1 = F1 F1', lower and upper */
        for (int i = j; i < n1; ++i) {
            double v = 0.0;
            for (int l = 0; l <= j; ++l)
                v += F1[i + (size_t)l * n1] * F1[j + (size_t)l * n1];
            A1[i + (size_t)j * n1] = A1[j + (size_t)i * n1] = v;
        }
    for (int j = 0, jj = 0; j < n1; ++j) { /* A: row/column k removed */
        if (j == k)
            continue;
        for (int i = 0, ii = 0; i < n1; ++i)
            if (i != k)
                A[ii++ + (size_t)jj * n] = A1[i + (size_t)j * n1];
        ++jj;
    }
    bg_check(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, A, n), "dpotrf");
    for (int p = 0; p < count; ++p) { /* L in each page's leading block */
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i)
                Lp[page * p + i + (size_t)j * n1] = A[i + (size_t)j * n];
        memcpy(Cp + (size_t)n1 * p, A1 + (size_t)k * n1,
               sizeof(double) * n1);
    }
    qru_matrix *M0 = NULL, *M = NULL, *L0 = NULL, *Lb = NULL, *L1b = NULL,
               *Cb = NULL, *F0 = NULL, *Fb = NULL;
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n1, n1, n1, count, 0,
                                     &M0),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n1, n1, n1, count, 0,
                                     &M),
             "create");
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n1, 1, n1, count, 0,
                                     &Cb),
             "create");
    bg_check(qru_matrix_upload(M0, Lp, n1), "upload");
    bg_check(qru_matrix_upload(Cb, Cp, n1), "upload");
    void *m0 = qru_matrix_data(M0), *m = qru_matrix_data(M);
    long long st = (long long)page;
    bg_check(qru_matrix_wrap_batch(ctx, QRU_DOUBLE, n, n, m0, n1, count, st,
                                   &L0),
             "wrap");
    bg_check(qru_matrix_wrap_batch(ctx, QRU_DOUBLE, n, n, m, n1, count, st,
                                   &Lb),
             "wrap");
    bg_check(qru_matrix_wrap_batch(ctx, QRU_DOUBLE, n1, n1, m, n1, count, st,
                                   &L1b),
             "wrap");
    for (int r = 0; r <= reps; ++r)
        t[r] = timed_insdel(ctx, L0, Lb, L1b, k, Cb, &out[0].calls,
                            &out[0].waits);
    out[0].batch_ms = 1e3 * bg_median(t + 1, reps);
    /* the deletion from the inserted factors, restored from F0 */
    bg_check(qru_matrix_create_batch(ctx, QRU_DOUBLE, n1, n1, n1, count, 0,
                                     &F0),
             "create");
    bg_check(qru_matrix_copy(M, F0), "copy");
    bg_check(qru_matrix_wrap_batch(ctx, QRU_DOUBLE, n, n, m, n1, count, st,
                                   &Fb),
             "wrap");
    for (int r = 0; r <= reps; ++r)
        t[r] = timed_insdel(ctx, F0, M, Fb, k, NULL, &out[1].calls,
                            &out[1].waits);
    out[1].batch_ms = 1e3 * bg_median(t + 1, reps);

    /* count single calls each, out of place (one warm-up) */
    qru_matrix *Ls = NULL, *Cs = NULL, *L1s = NULL, *Ds = NULL;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, n, n, &Ls), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n1, 1, n1, &Cs), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n1, n1, n1, &L1s), "create");
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, n, n, n, &Ds), "create");
    bg_check(qru_matrix_upload(Ls, A, n), "upload");
    bg_check(qru_matrix_upload(Cs, Cp, n1), "upload");
    for (int op = 0; op < 2; ++op) {
        for (int p = -1; p < count; ++p) {
            if (p == 0) {
                bg_check(qru_context_sync(ctx), "sync");
                t[0] = bg_now();
            }
            bg_check(op ? qru_chol_delete(ctx, 'L', L1s, k, 1, Ds)
                        : qru_chol_insert(ctx, 'L', Ls, k, Cs, L1s),
                     op ? "qru_chol_delete" : "qru_chol_insert");
        }
        bg_check(qru_context_sync(ctx), "sync");
        out[op].loop_ms = 1e3 * (bg_now() - t[0]);
    }

    out[0].vendor_ms = out[1].vendor_ms = NAN;
#ifdef QRU_HAVE_CUDA
    /* potrfBatched of the count new matrices: A1 (order n + 1), A (n) */
    double *Ab = malloc(sizeof(double) * page * count);
    if (!Ab)
        bg_check(QRU_ERR_ALLOC, "A1");
    for (int op = 0; op < 2; ++op) {
        int o = op ? n : n1;
        size_t pg = (size_t)o * o;
        for (int p = 0; p < count; ++p)
            for (size_t e = 0; e < pg; ++e) {
                int i = (int)(e % (size_t)o), j = (int)(e / (size_t)o);
                int ia = op ? i + (i >= k) : i, ja = op ? j + (j >= k) : j;
                Ab[pg * p + e] = A1[ia + (size_t)ja * n1];
            }
        out[op].vendor_ms = 1e3 * cusolver_batch(ctx, o, count, Ab, reps);
    }
    free(Ab);
#endif
    qru_matrix *ms[] = {M0, M, L0, Lb, L1b, Cb, F0, Fb, Ls, Cs, L1s, Ds};
    for (size_t i = 0; i < sizeof ms / sizeof ms[0]; ++i)
        qru_matrix_destroy(ms[i]);
    free(F1);
    free(A1);
    free(A);
    free(Lp);
    free(Cp);
    free(t);
}

static void part_insdel(qru_context *ctx, int count, int reps,
                        const char *md, const char *date)
{
    char head[512];
    snprintf(head, sizeof head,
             "%d Cholesky factors of order n gaining a row and column at "
             "k = n/2 (qru_chol_insert_batch), then losing it "
             "(qru_chol_delete_batch), in place, lower factor, double, %s "
             "(%s), %s; median of %d, host time to qru_context_sync",
             count, qru_backend_name(qru_context_backend(ctx)),
             device_text(ctx), date, reps);
    FILE *f = chol_table(head, count, "the new matrices", md, 0);
    static const int ns[] = {16, 32, 64, 128};
    for (int a = 0; a < 4; ++a) {
        row r[2];
        bench_insdel(ctx, ns[a], count, reps, r);
        chol_table_row(f, ns[a], "insert", &r[0], 0);
        chol_table_row(f, ns[a], "delete", &r[1], 0);
    }
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    int reps = 7, count = 10000, lsq = 0, quick = 0, counted = 0, mm = 0,
        nn = 0;
    const char *md = getenv("QRU_BENCH_MD");
    char mdpath[4096];
    const char *dir = NULL;
    for (int a = 1; a < argc; ++a) {
        if (!strcmp(argv[a], "-q"))
            quick = 1;
        else if (!strcmp(argv[a], "-P") && a + 1 < argc &&
                 (!strcmp(argv[a + 1], "chol") ||
                  !strcmp(argv[a + 1], "lsq") ||
                  !strcmp(argv[a + 1], "rmrows") ||
                  !strcmp(argv[a + 1], "insdel"))) {
            ++a;
            lsq = !strcmp(argv[a], "lsq")      ? 1
                  : !strcmp(argv[a], "rmrows") ? 2
                  : !strcmp(argv[a], "insdel") ? 3
                                               : 0;
        } else if (!strcmp(argv[a], "-r") && a + 1 < argc)
            reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-c") && a + 1 < argc) {
            count = atoi(argv[++a]);
            counted = 1;
        }
        else if (!strcmp(argv[a], "-o") && a + 1 < argc)
            dir = argv[++a];
        else if (!strcmp(argv[a], "-m") && a + 1 < argc)
            mm = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-n") && a + 1 < argc)
            nn = atoi(argv[++a]);
        else {
            fprintf(stderr, "usage: bench_batch [-P chol|lsq|rmrows|insdel] "
                            "[-q] "
                            "[-r REPS] [-c COUNT] [-m M -n N (rmrows)] "
                            "[-o DIR]\n");
            return 2;
        }
    }
    if (!counted) /* the parts' own counts: rmrows 1000 (-q: 100) */
        count = lsq == 2 ? (quick ? 100 : 1000) : quick ? 1000 : count;
    if (dir) {
        mkdir(dir, 0777); /* may exist already */
        snprintf(mdpath, sizeof mdpath, "%s/bench_batch%s.md", dir,
                 lsq == 1   ? "_lsq"
                 : lsq == 2 ? "_rmrows"
                 : lsq == 3 ? "_insdel"
                            : "");
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
    if (lsq == 3)
        part_insdel(ctx, count, reps, md, date);
    else if (lsq == 2)
        part_rm(ctx, count, quick, reps, mm, nn, md, date);
    else if (lsq)
        part_lsq(ctx, count, reps, md, date);
    else
        part_chol(ctx, count, reps, md, date);
    qru_context_destroy(ctx);
    return 0;
}
