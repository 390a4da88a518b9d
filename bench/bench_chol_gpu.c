/*
 * GPU benchmark of qru's Cholesky against cuSOLVER potrf, double precision
 * unless -p asks for other element types (part 1 only: the GP is real),
 * data on the device (CUDA backend):
 *   part 1: qru_chol_factor('L') of an n x n SPD (complex: Hermitian
 *           positive definite) matrix, n = 1024 .. 16384,
 *           in several configurations (the default, which runs cuSOLVER's
 *           potrf where the table says so, with and without
 *           QRU_CHOL_IN_PLACE; qru's own blocked algorithm forced with
 *           QRU_POTRF=own, with the cuSOLVER or the one-work-group kernel
 *           for the diagonal blocks (QRU_CHOL_PANEL) and two block sizes)
 *           vs cuSOLVER's potrf of the same type (cusolverDn<T>potrf)
 *           on the same matrix;
 *   part 2 (alone with --gp, n = 4096 only):
 *           appending ONE point to a Gaussian process of n = 4096 points
 *           (qru_gp_insert at the end) vs cuSOLVER potrf of the
 *           (n+1) x (n+1) kernel matrix, plus what the append is made of
 *           (the host evaluation of the new kernel column, cuBLAS trsm and
 *           trsv of one right-hand side against the n x n factor).
 * Timing: every configuration of a point runs once untimed, then the
 * configurations alternate for the repeats (so drifts hit all of them) and
 * the median is reported.  Device times are CUDA events on the context's
 * stream around the call alone (qru calls synchronise at their end to read
 * the failure information; the stop event is recorded after that); the
 * input is restored before each run by an untimed device copy.  The GP
 * append is timed with a host clock around the call (it evaluates the new
 * kernel column on the host) and with events.
 * Output: tables bench_chol_gpu_factor_<t>.{txt,csv} (t = d, s, z, c: the
 * element type), bench_chol_gpu_gp_d.{txt,csv}
 * and bench_chol_gpu.md (Markdown, for docs/benchmarks.md) in the output
 * directory; the rows are echoed to stdout.
 * Options: -o DIR, -r REPS (default 7), -q (small sizes), -p sdcz (the
 * element types of part 1, default d; part 2 runs where d is among them),
 * -h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"

#ifdef QRU_HAVE_CUDA

/* configurations of part 1 */
enum { C_POTRF, C_DEF, C_DEF_INPL, C_OWN, C_OWN_INPL, C_OWN256, C_OWN_KERNEL,
       NCONF };
static const struct {
    const char *name;
    const char *potrf_env, *panel_env; /* QRU_POTRF, QRU_CHOL_PANEL */
    int variant, nb;
} CONF[NCONF] = {
    {"cuSOLVER potrf", NULL, NULL, 0, 0},
    {"qru default (LEFT, nb 0)", NULL, NULL, QRU_CHOL_LEFT, 0},
    {"qru default, IN_PLACE", NULL, NULL, QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE, 0},
    {"qru own LEFT nb 128", "own", NULL, QRU_CHOL_LEFT, 0},
    {"qru own LEFT nb 128, IN_PLACE", "own", NULL,
     QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE, 0},
    {"qru own LEFT nb 256, IN_PLACE", "own", NULL,
     QRU_CHOL_LEFT | QRU_CHOL_IN_PLACE, 256},
    {"qru own LEFT nb 128, kernel panel", "own", "kernel", QRU_CHOL_LEFT, 0},
};

static void set_env(const char *name, const char *v)
{
    if (v)
        setenv(name, v, 1);
    else
        unsetenv(name);
}

/* relative difference of the lower triangles of two n x n device arrays */
static double tri_diff(int n, const double *x, const double *y)
{
    size_t len = (size_t)n * n;
    double *hx = malloc(sizeof(double) * len), *hy = malloc(sizeof(double) * len);
    bg_dev_download(QRU_DOUBLE, len, x, hx);
    bg_dev_download(QRU_DOUBLE, len, y, hy);
    double num = 0, den = 0;
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double a = hx[i + (size_t)j * n], b = hy[i + (size_t)j * n];
            num += (a - b) * (a - b);
            den += b * b;
        }
    free(hx);
    free(hy);
    return den > 0 ? sqrt(num / den) : sqrt(num);
}

/* ||x - y||_F / ||y||_F of two device arrays of len elements of dt, on
 * the device (tmp: len elements of scratch) */
static double dev_diff(bg_gpu *g, qru_dtype dt, size_t len, const void *x,
                       const void *y, void *tmp)
{
    bg_cuda_check(cudaMemcpyAsync(tmp, x, len * bg_esize(dt),
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy");
    bg_axpy(g, dt, (int)len, -1.0, y, 1, tmp, 1);
    double num = bg_nrm2(g, dt, (int)len, tmp, 1),
           den = bg_nrm2(g, dt, (int)len, y, 1);
    return den > 0 ? num / den : num;
}

static void dcopy(bg_gpu *g, void *dst, const void *src, size_t bytes)
{
    bg_cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                  g->stream),
                  "copy");
}

typedef struct fac_row {
    int n, reps;
    double t[NCONF], xd[NCONF];
} fac_row;

static void factor_point(bg_gpu *g, qru_dtype dt, int n, int reps,
                         fac_row *row)
{
    size_t len = (size_t)n * n, bytes = bg_esize(dt) * len;
    unsigned long long seed = 4242ULL + (unsigned long long)n;
    void *hM = bg_alloc(dt, len);
    bg_rand(dt, len, hM, &seed);
    void *M = bg_dev_upload(dt, len, hM);
    void *A0 = bg_dev_alloc(bytes), *A = bg_dev_alloc(bytes),
         *R = bg_dev_alloc(bytes);
    { /* A0 = M M' / n + I (' the conjugate transpose) */
        bg_gemm_nc(g, dt, n, n, 1.0 / n, M, n, A0, n);
        void *h1 = bg_alloc(dt, (size_t)n);
        for (int i = 0; i < n; ++i)
            bg_setz(dt, h1, (size_t)i, 1.0);
        void *d1 = bg_dev_upload(dt, (size_t)n, h1);
        bg_axpy(g, dt, n, 1.0, d1, 1, A0, n + 1);
        bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
        cudaFree(d1);
        free(h1);
    }
    qru_matrix *Aw = bg_wrap(g, dt, n, n, A, n);
    int use[NCONF];
    for (int c = 0; c < NCONF; ++c) /* the one-block kernel is slow */
        use[c] = c != C_OWN_KERNEL || n <= 8192;
    double *t[NCONF];
    for (int c = 0; c < NCONF; ++c)
        t[c] = malloc(sizeof(double) * (size_t)(reps + 1));
    for (int rep = -1; rep < reps; ++rep)
        for (int c = 0; c < NCONF; ++c) {
            if (!use[c])
                continue;
            set_env("QRU_POTRF", CONF[c].potrf_env);
            set_env("QRU_CHOL_PANEL", CONF[c].panel_env);
            dcopy(g, A, A0, bytes);
            bg_ev_start(g);
            int st = 0;
            if (c == C_POTRF)
                bg_potrf(g, dt, n, A, n);
            else
                st = qru_chol_factor(g->ctx, 'L', Aw, CONF[c].variant,
                                     CONF[c].nb);
            double s = bg_ev_stop(g);
            if (st == QRU_ERR_UNSUPPORTED) { /* not for this type here */
                fprintf(stderr, "bench_chol_gpu: %s, %s: %s\n",
                        CONF[c].name, bg_dtype_name(dt),
                        qru_last_error(g->ctx));
                use[c] = 0;
                continue;
            }
            bg_check(st, CONF[c].name);
            if (rep >= 0)
                t[c][rep] = s;
            if (rep == reps - 1) { /* the result of the last run */
                if (c == C_POTRF)
                    dcopy(g, R, A, bytes);
                bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
                row->xd[c] =
                    c == C_POTRF ? 0.0 : dev_diff(g, dt, len, A, R, M);
            }
        }
    set_env("QRU_POTRF", NULL);
    set_env("QRU_CHOL_PANEL", NULL);
    row->n = n;
    row->reps = reps;
    for (int c = 0; c < NCONF; ++c) {
        row->t[c] = use[c] ? bg_median(t[c], reps) : NAN;
        if (!use[c])
            row->xd[c] = NAN;
        free(t[c]);
    }
    qru_matrix_destroy(Aw);
    cudaDeviceSynchronize();
    cudaFree(M);
    cudaFree(A0);
    cudaFree(A);
    cudaFree(R);
    free(hM);
}

/* ---- part 2: GP append ---------------------------------------------------- */

typedef struct gp_row {
    int n, reps;
    double t_ins_host, t_ins_ev, t_potrf, t_chol, t_kcol, t_trsm, t_trsv, xd;
} gp_row;

static double kse(double a, double b)
{
    double d = a - b; /* lengthscale 1, signal variance 1 */
    return exp(-0.5 * d * d);
}

static volatile double g_sink;

static void gp_point(bg_gpu *g, int n, int reps, gp_row *row)
{
    int n1 = n + 1;
    double sn2 = 0.1;
    unsigned long long seed = 777ULL;
    double *x = bg_alloc(QRU_DOUBLE, (size_t)n1),
           *y = bg_alloc(QRU_DOUBLE, (size_t)n1);
    bg_rand(QRU_DOUBLE, (size_t)n1, x, &seed);
    for (int i = 0; i < n1; ++i) {
        x[i] *= 20.0;
        y[i] = sin(x[i]);
    }
    qru_gp_options o;
    qru_gp_options_init(&o);
    o.noise_var = sn2;
    o.capacity = n1; /* no reallocation inside the timed append */
    qru_gp *gp = NULL;
    bg_check(qru_gp_create(g->ctx, QRU_DOUBLE, n, x, y, &o, &gp),
             "qru_gp_create");
    /* the (n+1) x (n+1) kernel matrix of the refactorisation */
    size_t len = (size_t)n1 * n1, bytes = sizeof(double) * len;
    double *hK = bg_alloc(QRU_DOUBLE, len);
    for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i)
            hK[i + (size_t)j * n1] = kse(x[i], x[j]) + (i == j ? sn2 : 0.0);
    double *K0 = bg_dev_upload(QRU_DOUBLE, len, hK);
    double *K = bg_dev_alloc(bytes);
    qru_matrix *Kw = bg_wrap(g, QRU_DOUBLE, n1, n1, K, n1);
    /* one right-hand side against the n x n factor (cuBLAS trsm / trsv) */
    double *b = bg_dev_upload(QRU_DOUBLE, (size_t)n, y);
    double *tI = malloc(sizeof(double) * (size_t)(reps + 1) * 7);
    double *tE = tI + reps + 1, *tP = tE + reps + 1, *tC = tP + reps + 1,
           *tK = tC + reps + 1, *tT = tK + reps + 1, *tV = tT + reps + 1;
    for (int rep = -1; rep < reps; ++rep) {
        /* qru: append the point (then remove it again, untimed) */
        bg_check(qru_context_sync(g->ctx), "sync");
        double h0 = bg_now();
        bg_ev_start(g);
        bg_check(qru_gp_insert(gp, n, 1, x + n, y + n), "qru_gp_insert");
        double ev = bg_ev_stop(g);
        double h1 = bg_now();
        if (rep == reps - 1) { /* check the factor against cuSOLVER's */
            qru_matrix *L = NULL;
            double *Ld = bg_dev_alloc(bytes);
            L = bg_wrap(g, QRU_DOUBLE, n1, n1, Ld, n1);
            bg_check(qru_gp_get_factor(gp, L), "qru_gp_get_factor");
            dcopy(g, K, K0, bytes);
            bg_potrf(g, QRU_DOUBLE, n1, K, n1);
            bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
            row->xd = tri_diff(n1, Ld, K);
            qru_matrix_destroy(L);
            cudaFree(Ld);
        }
        bg_check(qru_gp_remove(gp, n, 1), "qru_gp_remove");
        /* cuSOLVER potrf of the (n+1) x (n+1) K */
        dcopy(g, K, K0, bytes);
        bg_ev_start(g);
        bg_potrf(g, QRU_DOUBLE, n1, K, n1);
        double tp = bg_ev_stop(g);
        /* qru_chol_factor of the same K (the default configuration) */
        dcopy(g, K, K0, bytes);
        bg_ev_start(g);
        bg_check(qru_chol_factor(g->ctx, 'L', Kw, QRU_CHOL_LEFT, 0),
                 "qru_chol_factor");
        double tc = bg_ev_stop(g);
        /* parts: host kernel column, trsm and trsv with one rhs (K holds
         * qru's factor of K now; its leading n x n block is the factor) */
        double k0 = bg_now(), s = 0.0;
        for (int i = 0; i < n1; ++i)
            s += kse(x[i], x[n]);
        g_sink = s;
        double tk = bg_now() - k0;
        double one = 1.0;
        bg_ev_start(g);
        if (cublasDtrsm(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                        CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, 1, &one, K, n1,
                        b, n) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "FATAL: cublasDtrsm\n");
            exit(1);
        }
        double tt = bg_ev_stop(g);
        bg_ev_start(g);
        if (cublasDtrsv(g->blas, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                        CUBLAS_DIAG_NON_UNIT, n, K, n1, b, 1) !=
            CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "FATAL: cublasDtrsv\n");
            exit(1);
        }
        double tv = bg_ev_stop(g);
        if (rep < 0)
            continue;
        tI[rep] = h1 - h0;
        tE[rep] = ev;
        tP[rep] = tp;
        tC[rep] = tc;
        tK[rep] = tk;
        tT[rep] = tt;
        tV[rep] = tv;
    }
    row->n = n;
    row->reps = reps;
    row->t_ins_host = bg_median(tI, reps);
    row->t_ins_ev = bg_median(tE, reps);
    row->t_potrf = bg_median(tP, reps);
    row->t_chol = bg_median(tC, reps);
    row->t_kcol = bg_median(tK, reps);
    row->t_trsm = bg_median(tT, reps);
    row->t_trsv = bg_median(tV, reps);
    free(tI);
    qru_matrix_destroy(Kw);
    qru_gp_destroy(gp);
    cudaDeviceSynchronize();
    cudaFree(K0);
    cudaFree(K);
    cudaFree(b);
    free(hK);
    free(x);
    free(y);
}

/* the factorisation's table of one element type (fr: nf points) */
static void md_factor(FILE *f, qru_dtype dt, const fac_row *fr, int nf)
{
    if (dt == QRU_DOUBLE)
        fprintf(f, "#### qru_chol_factor('L') vs cuSOLVER potrf\n\n");
    else
        fprintf(f, "#### qru_chol_factor('L') vs cuSOLVER potrf, %s\n\n",
                bg_dtype_name(dt));
    fprintf(f, "ratio = t_qru / t_potrf of the same run (target: <= 1.2 for "
               "n >= 4096, < 1 for n <= 2048); xdiff = ||A_qru - "
               "A_potrf||_F / ||A_potrf||_F over the whole array (factor in "
               "the lower triangle, the untouched input above it).\n\n");
    fprintf(f, "| n | configuration | t (ms) | ratio | xdiff | target |\n"
               "|---:|---|---:|---:|---:|---|\n");
    for (int r = 0; r < nf; ++r) {
        const fac_row *w = &fr[r];
        double ref = w->t[C_POTRF];
        for (int c = 0; c < NCONF; ++c) {
            if (isnan(w->t[c]))
                continue;
            char tgt[64] = "";
            if (c == C_DEF) {
                double q = w->t[c] / ref;
                if (w->n >= 4096)
                    snprintf(tgt, sizeof tgt, "<= 1.2: %s",
                             q <= 1.2 ? "met" : "NOT met");
                else if (w->n <= 2048)
                    snprintf(tgt, sizeof tgt, "< 1: %s",
                             q < 1.0 ? "met" : "NOT met");
            }
            if (c == C_POTRF) {
                fprintf(f, "| %d | %s | %.3g | 1 | | %s |\n", w->n,
                        CONF[c].name, 1e3 * w->t[c], tgt);
            } else {
                fprintf(f, "| %d | %s | %.3g | %.3g | %.1e | %s |\n", w->n,
                        CONF[c].name, 1e3 * w->t[c], w->t[c] / ref, w->xd[c],
                        tgt);
            }
        }
    }
    fprintf(f, "\n");
}

/* frs[t * NPTS + i]: point i of the element type dts[t] */
enum { NPTS = 8 };
static void write_md(const bg_opts *o, const char *device,
                     const qru_dtype *dts, int ndt, const fac_row *frs,
                     int nf, const gp_row *gr, int ng)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_chol_gpu.md", o->outdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "bench_chol_gpu: cannot write %s\n", path);
        return;
    }
    char types[96] = "";
    for (int i = 0; i < ndt; ++i)
        snprintf(types + strlen(types), sizeof types - strlen(types), "%s%s",
                 i ? ", " : "", bg_dtype_name(dts[i]));
    fprintf(f, "Generated by `bench/bench_chol_gpu` on %s; %s; "
               "median of %d runs (CUDA events); times in ms.\n\n",
            device,
            ndt == 1 && dts[0] == QRU_DOUBLE ? "double precision" : types,
            o->reps);
    for (int ti = 0; ti < ndt && nf > 0; ++ti)
        md_factor(f, dts[ti], frs + NPTS * ti, nf);
    if (ng > 0) {
        fprintf(f, "#### Appending one point to a GP vs refactorising\n\n"
                   "qru_gp_insert(gp, n, 1, ...) (host clock around the "
                   "call, which evaluates the new kernel column on the host, "
                   "and CUDA events) vs cuSOLVER potrf of the (n+1) x (n+1) "
                   "K and qru_chol_factor of K (default configuration); "
                   "speedup = t_potrf / t_insert (host clock; target >= "
                   "20).  Parts: the host evaluation of the n+1 kernel "
                   "values, cuBLAS trsm and trsv with one right-hand side "
                   "against the n x n factor.  xdiff: appended factor vs "
                   "cuSOLVER's factor of K.\n\n");
        fprintf(f, "| n | insert host (ms) | insert events (ms) | potrf n+1 "
                   "(ms) | qru_chol_factor n+1 (ms) | speedup | target | "
                   "kernel column (ms) | trsm 1 rhs (ms) | trsv (ms) | xdiff "
                   "|\n"
                   "|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|"
                   "\n");
    }
    for (int r = 0; r < ng; ++r) {
        const gp_row *w = &gr[r];
        double sp = w->t_potrf / w->t_ins_host;
        fprintf(f,
                "| %d | %.3g | %.3g | %.3g | %.3g | %.3g | >= 20: %s | %.3g "
                "| %.3g | %.3g | %.1e |\n",
                w->n, 1e3 * w->t_ins_host, 1e3 * w->t_ins_ev,
                1e3 * w->t_potrf, 1e3 * w->t_chol, sp,
                w->n == 4096 ? (sp >= 20 ? "met" : "NOT met") : "-",
                1e3 * w->t_kcol, 1e3 * w->t_trsm, 1e3 * w->t_trsv, w->xd);
    }
    fclose(f);
    printf("wrote %s\n", path);
}
#endif

int main(int argc, char **argv)
{
    bg_opts o;
    int reps_set = 0, prec_set = 0, gp_only = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-r"))
            reps_set = 1;
        if (!strcmp(argv[i], "-p"))
            prec_set = 1;
    }
    /* --gp: part 2 alone (the GP append), n = 4096 only */
    for (int i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--gp")) {
            gp_only = 1;
            for (int k = i; k + 1 < argc; ++k)
                argv[k] = argv[k + 1];
            --argc;
            --i;
        }
    bg_parse(argc, argv, "bench_chol_gpu",
             "qru's Cholesky and GP append vs cuSOLVER potrf", &o);
    if (!reps_set)
        o.reps = 7;
    if (o.reps < 1)
        o.reps = 1;
    if (o.reps > 100)
        o.reps = 100;
    if (!prec_set) /* double alone, unless -p asks for more */
        o.prec = bg_prec_bit(QRU_DOUBLE);
    qru_dtype dts[4];
    int ndt = bg_dtypes(&o, dts);
#ifdef QRU_HAVE_CUDA
    bg_gpu g;
    if (bg_gpu_open(&g) != 0) {
        printf("bench_chol_gpu: skipped: no CUDA device\n");
        return BG_SKIP;
    }
    static const int full[] = {1024, 2048, 2688, 4096, 8192, 16384};
    static const int quick[] = {256, 1024};
    const int *ns = o.quick ? quick : full;
    int nf = o.quick ? 2 : (int)(sizeof full / sizeof full[0]);
    static const int gfull[] = {1024, 4096, 8192}, gquick[] = {512};
    const int *gns = o.quick ? gquick : gp_only ? gfull + 1 : gfull;
    int ng = o.quick || gp_only ? 1 : 3;
    if (gp_only)
        nf = 0;
    else if (!(o.prec & bg_prec_bit(QRU_DOUBLE)))
        ng = 0; /* the GP is real: part 2 with double only */
    fac_row fr[4 * NPTS];
    gp_row gr[4];
    bg_table *t;
    for (int ti = 0; ti < ndt && nf > 0; ++ti) {
        qru_dtype dt = dts[ti];
        t = bg_table_new(&o, "bench_chol_gpu_factor", dt, g.device,
                         "qru_chol_factor vs cuSOLVER potrf",
                         "n conf reps t ratio xdiff");
        for (int c = 0; c < NCONF; ++c)
            bg_table_note(t, "conf %d: %s", c, CONF[c].name);
        bg_table_note(t, "seconds (CUDA events, median); ratio = t / "
                         "t_potrf (cuSOLVER %cpotrf)",
                      bg_dtype_char(dt) - 'a' + 'A');
        for (int i = 0; i < nf; ++i) {
            fac_row *w = &fr[NPTS * ti + i];
            factor_point(&g, dt, ns[i], o.reps, w);
            for (int c = 0; c < NCONF; ++c) {
                double v[] = {ns[i], c, o.reps, w->t[c],
                              w->t[c] / w->t[C_POTRF], w->xd[c]};
                bg_table_row(t, v);
            }
            fflush(stdout);
        }
        bg_table_close(t);
    }
    if (ng == 0) {
        write_md(&o, g.device, dts, ndt, fr, nf, gr, 0);
        bg_gpu_close(&g);
        return 0;
    }
    t = bg_table_new(&o, "bench_chol_gpu_gp", QRU_DOUBLE, g.device,
                     "GP append of one point vs cuSOLVER potrf of K(n+1)",
                     "n reps t_insert_host t_insert_ev t_potrf t_chol "
                     "speedup t_kcol t_trsm t_trsv xdiff");
    bg_table_note(t, "seconds (median); speedup = t_potrf / t_insert_host");
    for (int i = 0; i < ng; ++i) {
        gp_point(&g, gns[i], o.reps, &gr[i]);
        gp_row *w = &gr[i];
        double v[] = {w->n,       w->reps,   w->t_ins_host,
                      w->t_ins_ev, w->t_potrf, w->t_chol,
                      w->t_potrf / w->t_ins_host, w->t_kcol, w->t_trsm,
                      w->t_trsv, w->xd};
        bg_table_row(t, v);
        fflush(stdout);
    }
    bg_table_close(t);
    write_md(&o, g.device, dts, ndt, fr, nf, gr, ng);
    bg_gpu_close(&g);
    return 0;
#else
    (void)gp_only;
    (void)ndt;
    printf("bench_chol_gpu: skipped: no CUDA device (this build has no CUDA "
           "backend)\n");
    return BG_SKIP;
#endif
}
