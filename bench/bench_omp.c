/*
 * qru_omp in its two forms on the backend under test (QRU_TEST_BACKEND:
 * cpu, opencl or cuda; default cpu): the residual form (X' r a step),
 * the Gram form (G = X' X once, then one omp_gram_step a step on the
 * device, the state read after steps 1, 3, 7, ... and every 32) and the cost
 * model's choice (QRU_TUNE_OMP_GRAM auto), each timed on the host from
 * the call to the return of qru_context_sync, medians of REPS calls after
 * one untimed; with the cost model's prediction of each form
 * (qru_omp_price), the form the choice took, the backend calls and host
 * waits of one call, and whether the forms chose the same columns (max
 * |coef difference| / max |coef|).  X uniform(-1, 1), y = X x0 + 0.01
 * noise, x0 with ncoef nonzeros of magnitude 1 to 2; ncoef steps.
 *
 * "update + products": what a step of each form would cost as separate
 * library calls at the middle of the path (s = ncoef / 2 columns chosen),
 * timed the same way (medians of REPS after one untimed): for the
 * residual form one qru_lsq_add_cols (p = 1, at the end) of a thin
 * n x s factorisation with capacity, plus the step's products X' E and
 * w' w; for the Gram form one qru_chol_insert (p = 1, at the end, in
 * place) of a factor of order s, plus its products B w (m x s) and
 * Qb w (n x s).  "step / ref" is the form's time a step over it.
 *
 * Usage: bench_omp [-f] [-r REPS (3)] [-s N,M,K ...] [-o FILE]
 *   -f     float (default double);
 *   -s     a size (n rows, m columns, ncoef), repeatable; default
 *          2000,4000,200 and 4000,8000,400 (python/bench/bench_solvers.py's);
 *   -o     also write the Markdown table to FILE (or QRU_BENCH_MD).
 *   QRU_TEST_BACKEND=cuda ./build/bench/bench_omp
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"
#include "qru_internal.h"
#include "qru_test.h"

/* A device matrix of dt holding the n x c doubles H (ld n). */
static qru_matrix *upload(qru_context *ctx, qru_dtype dt, int n, int c,
                          const double *H)
{
    qru_matrix *M = NULL;
    bg_check(qru_matrix_create(ctx, dt, n, c, n, &M), "create");
    if (dt == QRU_DOUBLE) {
        bg_check(qru_matrix_upload(M, H, n), "upload");
        return M;
    }
    float *F = malloc(sizeof(float) * (size_t)n * (size_t)c);
    if (!F)
        bg_check(QRU_HOST_ALLOC_FAILED, "upload");
    for (size_t i = 0; i < (size_t)n * (size_t)c; ++i)
        F[i] = (float)H[i];
    bg_check(qru_matrix_upload(M, F, n), "upload");
    free(F);
    return M;
}

typedef struct run {
    double sec, calls, waits;
    long long syrks;
    double *coef;
    int k;
} run;

/* REPS timed calls of qru_omp in form (QRU_TUNE_OMP_GRAM: 0 auto, 1
 * residual, 2 Gram) after one untimed; coef of the last. */
static run time_form(qru_context *ctx, qru_dtype dt, qru_matrix *X,
                     qru_matrix *y, qru_matrix *coef, int ncoef, int form,
                     int reps)
{
    run r = {0};
    bg_check(qru_context_set_tuning(ctx, dt, QRU_TUNE_OMP_GRAM, form),
             "set_tuning");
    double *t = malloc(sizeof(double) * (size_t)reps);
    qru_solver_info info;
    int m = qru_matrix_cols(X);
    for (int i = -1; i < reps; ++i) {
        qru_context_stats s0, s1;
        long long y0 = qru_ctx_op_calls(ctx, QRU_OP_syrk);
        bg_check(qru_context_sync(ctx), "sync");
        bg_check(qru_context_get_stats(ctx, &s0), "stats");
        double t0 = bg_now();
        int st = qru_omp(ctx, X, y, ncoef, -1.0, coef, NULL, NULL, &info);
        bg_check(st < 0 ? st : 0, "qru_omp");
        bg_check(qru_context_sync(ctx), "sync");
        if (i >= 0)
            t[i] = bg_now() - t0;
        bg_check(qru_context_get_stats(ctx, &s1), "stats");
        r.calls = (double)(s1.calls - s0.calls);
        r.waits = (double)(s1.host_waits - s0.host_waits);
        r.syrks = qru_ctx_op_calls(ctx, QRU_OP_syrk) - y0;
    }
    r.sec = bg_median(t, reps);
    r.k = info.active;
    free(t);
    r.coef = malloc(sizeof(double) * (size_t)m);
    void *h = malloc(qru_dtype_size(dt) * (size_t)m);
    if (!r.coef || !h)
        bg_check(QRU_HOST_ALLOC_FAILED, "coef");
    bg_check(qru_matrix_download(coef, h, m), "download");
    for (int j = 0; j < m; ++j)
        r.coef[j] = bg_get(dt, h, (size_t)j);
    free(h);
    return r;
}

/* Seconds of one qru_context_sync-bounded call of fn(arg), median of
 * reps after one untimed; undo(arg), if any, runs untimed after each. */
static double time_call(qru_context *ctx, int reps, int (*fn)(void *),
                        int (*undo)(void *), void *arg)
{
    double *t = malloc(sizeof(double) * (size_t)reps);
    if (!t)
        bg_check(QRU_HOST_ALLOC_FAILED, "time_call");
    for (int i = -1; i < reps; ++i) {
        bg_check(qru_context_sync(ctx), "sync");
        double t0 = bg_now();
        bg_check(fn(arg), "reference step");
        bg_check(qru_context_sync(ctx), "sync");
        if (i >= 0)
            t[i] = bg_now() - t0;
        if (undo)
            bg_check(undo(arg), "reference undo");
    }
    double sec = bg_median(t, reps);
    free(t);
    return sec;
}

/* The reference steps' operands (see the head comment). */
typedef struct ref_step {
    qru_context *ctx;
    qru_dtype dt;
    int n, m, s;
    const qru_matrix *X;
    qru_lsq *f;          /* residual form: thin n x s, capacity s + 1 */
    qru_matrix *u;       /* the column it gains, n x 1 */
    qru_matrix *v;       /* n + m + s + 2 scratch: E, X' E, w' w */
    qru_matrix *L, L0, L1; /* Gram form: (s + 1)^2 storage, views */
    qru_matrix *C;       /* (s + 1) x 1: the inserted column of G(S, S) */
    qru_matrix *B, *Qb;  /* m x s and n x s */
} ref_step;

static int ref_residual(void *a)
{
    ref_step *r = a;
    const qru_backend_ops *o = r->ctx->ops;
    qru_ptr e = r->v->p, g = qru_ptr_add(e, (size_t)r->n);
    QRU_TRY(qru_lsq_add_cols(r->f, r->s, r->u));
    QRU_TRY(o->gemm(r->ctx, r->dt, 'T', 'N', r->m, 1, r->n, 1.0, r->X->p,
                    r->X->ld, e, r->n, 0.0, g, r->m + 1));
    return o->gemm(r->ctx, r->dt, 'T', 'N', 1, 1, r->n, 1.0, e, r->n, e,
                   r->n, 0.0, qru_ptr_add(g, (size_t)r->m), 1);
}

static int ref_residual_undo(void *a)
{
    ref_step *r = a;
    return qru_lsq_remove_cols(r->f, r->s, 1);
}

static int ref_gram(void *a)
{
    ref_step *r = a;
    const qru_backend_ops *o = r->ctx->ops;
    qru_ptr w = r->v->p, bw = qru_ptr_add(w, (size_t)r->s),
            qw = qru_ptr_add(bw, (size_t)r->m);
    QRU_TRY(qru_chol_insert(r->ctx, 'L', &r->L0, r->s, r->C, &r->L1));
    QRU_TRY(o->gemm(r->ctx, r->dt, 'N', 'N', r->m, 1, r->s, 1.0, r->B->p,
                    r->m, w, r->s, 0.0, bw, r->m));
    return o->gemm(r->ctx, r->dt, 'N', 'N', r->n, 1, r->s, 1.0, r->Qb->p,
                   r->n, w, r->s, 0.0, qw, r->n);
}

/* A rows x cols device matrix of uniform(-1, 1) entries; diag adds d to
 * its diagonal. */
static qru_matrix *rand_dev(qru_context *ctx, qru_dtype dt, int rows,
                            int cols, double d, unsigned *seed)
{
    double *H = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    if (!H)
        bg_check(QRU_HOST_ALLOC_FAILED, "rand_dev");
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; ++i)
        H[i] = qru_test_urand(seed);
    for (int i = 0; i < rows && i < cols; ++i)
        H[i + (size_t)i * rows] += d;
    qru_matrix *M = upload(ctx, dt, rows, cols, H);
    free(H);
    return M;
}

/* The two reference steps' seconds at s columns: ref[0] residual, ref[1]
 * Gram. */
static void time_refs(qru_context *ctx, qru_dtype dt, const qru_matrix *X,
                      int s, int reps, double ref[2])
{
    ref_step r = {.ctx = ctx, .dt = dt, .X = X, .s = s};
    r.n = qru_matrix_rows(X);
    r.m = qru_matrix_cols(X);
    unsigned seed = 99u;
    qru_matrix A0 = *X, *b = rand_dev(ctx, dt, r.n, 1, 0.0, &seed);
    A0.cols = s;
    A0.owned = 0;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    opt.col_capacity = s + 1;
    bg_check(qru_lsq_create(ctx, &A0, b, &opt, &r.f), "lsq_create");
    r.u = rand_dev(ctx, dt, r.n, 1, 0.0, &seed);
    r.v = rand_dev(ctx, dt, r.n + r.m + s + 2, 1, 0.0, &seed);
    ref[0] = time_call(ctx, reps, ref_residual, ref_residual_undo, &r);
    /* a lower factor with a dominant positive diagonal, and the column
     * [L v; v' v + 1] of a positive definite bordered matrix */
    r.L = rand_dev(ctx, dt, s + 1, s + 1, 4.0 * s, &seed);
    r.L0 = *r.L;
    r.L0.rows = r.L0.cols = s;
    r.L0.owned = 0;
    r.L1 = *r.L;
    r.L1.owned = 0;
    double *L = malloc(sizeof(double) * (size_t)(s + 1) * (size_t)(s + 1));
    double *c = calloc((size_t)s + 1, sizeof(double));
    void *h = malloc(qru_dtype_size(dt) * (size_t)(s + 1) * (size_t)(s + 1));
    if (!L || !c || !h)
        bg_check(QRU_HOST_ALLOC_FAILED, "time_refs");
    bg_check(qru_matrix_download(r.L, h, s + 1), "download");
    for (size_t i = 0; i < (size_t)(s + 1) * (size_t)(s + 1); ++i)
        L[i] = bg_get(dt, h, i);
    double vv = 1.0;
    for (int j = 0; j < s; ++j) {
        double vj = qru_test_urand(&seed);
        vv += vj * vj;
        for (int i = j; i < s; ++i)
            c[i] += L[i + (size_t)j * (s + 1)] * vj;
    }
    c[s] = vv;
    r.C = upload(ctx, dt, s + 1, 1, c);
    r.B = rand_dev(ctx, dt, r.m, s, 0.0, &seed);
    r.Qb = rand_dev(ctx, dt, r.n, s, 0.0, &seed);
    ref[1] = time_call(ctx, reps, ref_gram, NULL, &r);
    free(L);
    free(c);
    free(h);
    qru_lsq_destroy(r.f);
    qru_matrix *mats[] = {b, r.u, r.v, r.L, r.C, r.B, r.Qb};
    for (size_t i = 0; i < sizeof mats / sizeof *mats; ++i)
        qru_matrix_destroy(mats[i]);
}

int main(int argc, char **argv)
{
    qru_dtype dt = QRU_DOUBLE;
    int reps = 3, nsz = 0, sz[16][3];
    const char *md = getenv("QRU_BENCH_MD");
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-f"))
            dt = QRU_FLOAT;
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-o") && i + 1 < argc)
            md = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc && nsz < 16 &&
                 sscanf(argv[++i], "%d,%d,%d", &sz[nsz][0], &sz[nsz][1],
                        &sz[nsz][2]) == 3)
            ++nsz;
        else {
            fprintf(stderr, "usage: bench_omp [-f] [-r REPS] [-s N,M,K ...] "
                            "[-o FILE]\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    if (nsz == 0) {
        static const int def[2][3] = {{2000, 4000, 200}, {4000, 8000, 400}};
        memcpy(sz, def, sizeof def);
        nsz = 2;
    }
    qru_context *ctx = NULL;
    int st = qru_context_create(qru_test_backend(), &ctx);
    if (st == QRU_ERR_BACKEND_UNAVAILABLE) {
        printf("skipped: %s\n", qru_last_error(NULL));
        return 77;
    }
    bg_check(st, "context");
    FILE *out = md ? fopen(md, "w") : NULL;
    char head[512];
    snprintf(head, sizeof head,
             "qru_omp, %s, %s, medians of %d calls\n\n"
             "| n x m, ncoef | form | ms | predicted ms | us / step | "
             "update + products us | step / ref | calls | host waits | "
             "auto took | same columns | max rel. diff. |\n"
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
             "--- | --- | ---: |\n",
             qru_context_device_name(ctx),
             dt == QRU_DOUBLE ? "double" : "float", reps);
    fputs(head, stdout);
    if (out)
        fputs(head, out);
    for (int s = 0; s < nsz; ++s) {
        int n = sz[s][0], m = sz[s][1], k = sz[s][2];
        unsigned seed = 7u + (unsigned)s;
        double *X = malloc(sizeof(double) * (size_t)n * (size_t)m);
        double *y = malloc(sizeof(double) * (size_t)n);
        double *x0 = calloc((size_t)m, sizeof(double));
        if (!X || !y || !x0)
            bg_check(QRU_HOST_ALLOC_FAILED, "data");
        for (size_t i = 0; i < (size_t)n * (size_t)m; ++i)
            X[i] = qru_test_urand(&seed);
        qru_test_sparse(m, k, &seed, x0);
        for (int i = 0; i < n; ++i) {
            double v = 0.01 * qru_test_urand(&seed);
            for (int j = 0; j < m; ++j)
                if (x0[j] != 0.0)
                    v += X[i + (size_t)j * n] * x0[j];
            y[i] = v;
        }
        qru_matrix *Xd = upload(ctx, dt, n, m, X), *yd = upload(ctx, dt, n, 1, y);
        qru_matrix *coef = NULL;
        bg_check(qru_matrix_create(ctx, dt, m, 1, m, &coef), "create");
        double pred[2];
        bg_check(qru_omp_price(ctx, Xd, yd, k, &pred[0], &pred[1]), "price");
        run r[3];
        static const char *names[3] = {"residual", "gram", "auto"};
        for (int f = 0; f < 3; ++f)
            r[f] = time_form(ctx, dt, Xd, yd, coef, k, f == 2 ? 0 : f + 1,
                             reps);
        double ref[2];
        time_refs(ctx, dt, Xd, k / 2 > 1 ? k / 2 : 1, reps, ref);
        double big = 0.0, diff = 0.0;
        for (int j = 0; j < m; ++j) {
            big = fmax(big, fabs(r[0].coef[j]));
            diff = fmax(diff, fabs(r[0].coef[j] - r[1].coef[j]));
        }
        int same = r[0].k == r[1].k;
        for (int j = 0; j < m && same; ++j)
            same = (r[0].coef[j] != 0.0) == (r[1].coef[j] != 0.0);
        for (int f = 0; f < 3; ++f) {
            char line[512];
            int g = f == 2 ? r[2].syrks > 0 : f == 1;
            double step = r[f].sec / (r[f].k > 0 ? r[f].k : 1), rf = ref[g];
            snprintf(line, sizeof line,
                     "| %d x %d, %d | %s | %.2f | %.2f | %.0f | %.0f | %.2f "
                     "| %.0f | %.0f | %s | %s | %.1e |\n",
                     n, m, k, names[f], r[f].sec * 1e3,
                     f < 2 ? pred[f] * 1e3 : fmin(pred[0], pred[1]) * 1e3,
                     step * 1e6, rf * 1e6, step / rf, r[f].calls,
                     r[f].waits,
                     f == 2 ? (r[2].syrks > 0 ? "gram" : "residual") : "",
                     same ? "yes" : "NO", big > 0.0 ? diff / big : diff);
            fputs(line, stdout);
            if (out)
                fputs(line, out);
            free(r[f].coef);
        }
        fflush(stdout);
        qru_matrix_destroy(Xd);
        qru_matrix_destroy(yd);
        qru_matrix_destroy(coef);
        free(X);
        free(y);
        free(x0);
    }
    if (out)
        fclose(out);
    qru_context_destroy(ctx);
    return 0;
}
