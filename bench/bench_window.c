/*
 * The sliding window: a window of n rows of a long stream
 * slides by p rows (p added at the end, p removed at the start) in each
 * factorisation form, against the refactorisation of the new window
 * measured in the same run:
 *  - Q-less (QRU_Q_NONE: qru_lsq_add_rows + qru_lsq_remove_rows_data)
 *    against geqrf + ormqr (R and Q'b);
 *  - thin Q (QRU_Q_THIN: qru_lsq_add_rows + qru_lsq_remove_rows) against
 *    geqrf + ormqr + orgqr (the economy Q1, n x m);
 *  - full Q (QRU_Q_FULL), where n^2 fits (-F), against geqrf + ormqr +
 *    orgqr (n x n).
 * The refactorisation is LAPACKE on the CPU backend (wall clock, the copy
 * of the window into the work array included: geqrf works in place) and
 * cuSOLVER on the CUDA backend (CUDA events on the stream the qru context
 * adopts; the copy is not timed).  Each slide is timed after a sync, the
 * first one is a warm-up; the median of -r slides is reported.  Inputs:
 * uniform(-1, 1).  The solution after the last slide is compared with the
 * refactorisation's (xdiff).  Device memory (CUDA), from the free memory
 * (the refactorisation's buffers are allocated before): create_MB, the
 * drop over the creation (the object and the creation's workspace); then
 * the context's workspace pool is emptied and slide_MB is the largest drop
 * during the slides (the object and the slides' workspace).
 *
 * The updates run QRU_UPDATE_AUTO (which may refactorise a removal in the
 * thin and full forms; the count is reported) or, with -a fast,
 * QRU_UPDATE_FAST.
 *
 *   QRU_TEST_BACKEND=cpu|cuda bench_window [-o DIR] [-r REPS] [-p P]
 *       [-F] [-a fast|auto] N,M [N,M ...]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "bench_gpu_common.h"
#include "qru_internal.h" /* to empty the context's workspace pool */

static const char *const form_name[] = {"full", "thin", "none"};

typedef struct wopts {
    const char *outdir;
    int reps, p, full;
    int alg; /* the update algorithm (-a fast|auto; default auto) */
} wopts;

/* the refactorisation of the n x m window W (ld ldw) with b (r = 1) on the
 * host: copy, geqrf, ormqr and, for the thin (q cols = m) or full (n)
 * form, orgqr.  Returns seconds; x := the solution. */
static double host_refactor(int n, int m, int form, const double *W, int ldw,
                            const double *b, int ldb, double *work,
                            double *bw, double *tau, double *x)
{
    double t0 = bg_now();
    for (int j = 0; j < m; ++j)
        memcpy(work + (size_t)j * n, W + (size_t)j * ldw,
               sizeof(double) * (size_t)n);
    memcpy(bw, b, sizeof(double) * (size_t)n);
    (void)ldb;
    bg_check(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, work, n, tau), "dgeqrf");
    bg_check(LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', n, 1, m, work, n,
                            tau, bw, n),
             "dormqr");
    double t = bg_now() - t0;
    /* the solution, untimed (R \ d) */
    memcpy(x, bw, sizeof(double) * (size_t)m);
    cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, m,
                work, n, x, 1);
    if (form != QRU_Q_NONE) {
        /* orgqr overwrites the reflectors: on a copy kept in Q's place */
        int qc = form == QRU_Q_FULL ? n : m;
        double *Q = malloc(sizeof(double) * (size_t)n * qc);
        if (!Q)
            bg_check(QRU_ERR_ALLOC, "malloc");
        double t1 = bg_now();
        for (int j = 0; j < m; ++j)
            memcpy(Q + (size_t)j * n, work + (size_t)j * n,
                   sizeof(double) * (size_t)n);
        bg_check(LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, qc, m, Q, n, tau),
                 "dorgqr");
        t += bg_now() - t1;
        free(Q);
    }
    return t;
}

static double median_of(double *t, int n) { return bg_median(t, n); }

static void run_point(const wopts *o, bg_table *tab, qru_context *ctx,
                      int is_cuda, void *gpu, int n, int m, int form)
{
    const int p = o->p, reps = o->reps, nslide = reps + 1;
    const int ntot = n + nslide * p;
    unsigned long long seed = 12345ull + (unsigned long long)n * 7 + m;
    double *A = malloc(sizeof(double) * (size_t)ntot * m);
    double *b = malloc(sizeof(double) * (size_t)ntot);
    double *tu = malloc(sizeof(double) * (size_t)nslide);
    double *tr = malloc(sizeof(double) * (size_t)nslide);
    double *x = malloc(sizeof(double) * (size_t)m);
    double *xr = malloc(sizeof(double) * (size_t)m);
    if (!A || !b || !tu || !tr || !x || !xr)
        bg_check(QRU_ERR_ALLOC, "malloc");
    bg_rand(QRU_DOUBLE, (size_t)ntot * m, A, &seed);
    bg_rand(QRU_DOUBLE, (size_t)ntot, b, &seed);
    double *dA = A, *db = b; /* the stream in the context's memory */
    size_t free0 = 0, freemin = 0, free1 = 0;
#ifdef QRU_HAVE_CUDA
    bg_gpu *g = gpu;
    double *rA = NULL, *rb = NULL, *rtau = NULL, *rQ = NULL;
    if (is_cuda) {
        dA = bg_dev_upload(QRU_DOUBLE, (size_t)ntot * m, A);
        db = bg_dev_upload(QRU_DOUBLE, (size_t)ntot, b);
        rA = bg_dev_alloc(sizeof(double) * (size_t)n * m);
        rb = bg_dev_alloc(sizeof(double) * (size_t)n);
        rtau = bg_dev_alloc(sizeof(double) * (size_t)m);
        if (form != QRU_Q_NONE)
            rQ = bg_dev_alloc(sizeof(double) * (size_t)n *
                              (form == QRU_Q_FULL ? n : m));
        size_t tot;
        bg_cuda_check(cudaDeviceSynchronize(), "sync");
        bg_cuda_check(cudaMemGetInfo(&free0, &tot), "cudaMemGetInfo");
    }
#else
    (void)gpu;
#endif
#define VIEW(r0, rows, cols, base, ld, out)                                    \
    bg_check(qru_matrix_wrap(ctx, QRU_DOUBLE, rows, cols,                      \
                             (double *)(base) + (r0), ld, &(out)),              \
             "qru_matrix_wrap")
    qru_matrix *W0, *b0, *U, *e, *Uo, *eo;
    VIEW(0, n, m, dA, ntot, W0);
    VIEW(0, n, 1, db, ntot, b0);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = form;
    opt.row_capacity = n + p;
    qru_lsq *f = NULL;
    double tc0 = bg_now();
    bg_check(qru_lsq_create(ctx, W0, b0, &opt, &f), "qru_lsq_create");
    bg_check(qru_lsq_set_update_algorithm(f, o->alg), "set algorithm");
    int nref = 0; /* removals that AUTO refactorised */
    bg_check(qru_context_sync(ctx), "sync");
    double t_create = bg_now() - tc0;
    qru_matrix_destroy(W0);
    qru_matrix_destroy(b0);
#ifdef QRU_HAVE_CUDA
    if (is_cuda) {
        size_t tot;
        bg_cuda_check(cudaMemGetInfo(&free1, &tot), "cudaMemGetInfo");
        /* the creation's workspace goes: the slides' own is measured */
        if (ctx->ws.h) {
            ctx->ops->mem_free(ctx, ctx->ws.h);
            ctx->ws.h = NULL;
            ctx->ws.bytes = 0;
        }
        bg_cuda_check(cudaMemGetInfo(&freemin, &tot), "cudaMemGetInfo");
    }
#endif

    /* host work arrays of the CPU refactorisation */
    double *work = NULL, *bw = NULL, *tau = NULL;
    if (!is_cuda) {
        work = malloc(sizeof(double) * (size_t)n * m);
        bw = malloc(sizeof(double) * (size_t)n);
        tau = malloc(sizeof(double) * (size_t)m);
        if (!work || !bw || !tau)
            bg_check(QRU_ERR_ALLOC, "malloc");
    }
    for (int j = 1; j <= nslide; ++j) {
        int r0 = j * p; /* the new window: rows r0 .. r0+n-1 */
        VIEW(r0 + n - p, p, m, dA, ntot, U);
        VIEW(r0 + n - p, p, 1, db, ntot, e);
        VIEW(r0 - p, p, m, dA, ntot, Uo);
        VIEW(r0 - p, p, 1, db, ntot, eo);
        bg_check(qru_context_sync(ctx), "sync");
        double t0 = bg_now();
#ifdef QRU_HAVE_CUDA
        if (is_cuda)
            bg_ev_start(g);
#endif
        bg_check(qru_lsq_add_rows(f, n, U, e), "qru_lsq_add_rows");
        bg_check(form == QRU_Q_NONE ? qru_lsq_remove_rows_data(f, 0, Uo, eo)
                                    : qru_lsq_remove_rows(f, 0, p),
                 "remove rows");
        nref += j > 1 && qru_lsq_last_update_path(f) == QRU_PATH_REFACTOR;
        double t;
#ifdef QRU_HAVE_CUDA
        if (is_cuda) {
            t = bg_ev_stop(g);
            size_t fr, tot;
            bg_cuda_check(cudaMemGetInfo(&fr, &tot), "cudaMemGetInfo");
            if (fr < freemin)
                freemin = fr;
        } else
#endif
        {
            bg_check(qru_context_sync(ctx), "sync");
            t = bg_now() - t0;
        }
        tu[j - 1] = t;
        qru_matrix_destroy(U);
        qru_matrix_destroy(e);
        qru_matrix_destroy(Uo);
        qru_matrix_destroy(eo);
        /* the refactorisation of the same window */
        if (!is_cuda) {
            tr[j - 1] = host_refactor(n, m, form, A + r0, ntot, b + r0, ntot,
                                      work, bw, tau, xr);
        }
#ifdef QRU_HAVE_CUDA
        else {
            bg_cuda_check(cudaMemcpy2DAsync(rA, sizeof(double) * n,
                                            dA + r0, sizeof(double) * ntot,
                                            sizeof(double) * n, m,
                                            cudaMemcpyDeviceToDevice,
                                            g->stream), "copy");
            bg_cuda_check(cudaMemcpyAsync(rb, db + r0, sizeof(double) * n,
                                          cudaMemcpyDeviceToDevice, g->stream),
                          "copy");
            bg_ev_start(g);
            bg_geqrf(g, QRU_DOUBLE, n, m, rA, n, rtau);
            bg_ormqr_lt(g, QRU_DOUBLE, n, 1, m, rA, n, rtau, rb, n);
            if (rQ) {
                int qc = form == QRU_Q_FULL ? n : m;
                bg_cuda_check(cudaMemcpyAsync(rQ, rA, sizeof(double) * n * m,
                                              cudaMemcpyDeviceToDevice,
                                              g->stream), "copy");
                bg_orgqr(g, QRU_DOUBLE, n, qc, m, rQ, n, rtau);
            }
            tr[j - 1] = bg_ev_stop(g);
            if (j == nslide) {
                bg_trsm_lun(g, QRU_DOUBLE, m, 1, rA, n, rb, n);
                bg_dev_download(QRU_DOUBLE, (size_t)m, rb, xr);
            }
        }
#endif
    }
    /* the last window's solutions */
    qru_matrix *X;
    bg_check(qru_matrix_create(ctx, QRU_DOUBLE, m, 1, 0, &X), "create x");
    bg_check(qru_lsq_solve(f, X), "qru_lsq_solve");
    bg_check(qru_matrix_download(X, x, m), "download x");
    qru_matrix_destroy(X);
    double xdiff = bg_rel_diff(QRU_DOUBLE, (size_t)m, x, xr);
    /* the first slide is the warm-up */
    double mu = median_of(tu + 1, reps), mr = median_of(tr + 1, reps);
    double mem_c = is_cuda ? ((double)free0 - (double)free1) / 1048576.0 : NAN;
    double mem = is_cuda ? ((double)free0 - (double)freemin) / 1048576.0 : NAN;
    double model = 8.0 / 1048576.0 *
                   (form == QRU_Q_FULL   ? (double)n * n + (double)n * (m + 1)
                    : form == QRU_Q_THIN ? (double)n * (m + 1) +
                                               (double)m * (m + 1)
                                         : 2.0 * m * (m + 1));
    double row[] = {(double)form, n, m, p, 1e3 * mu, 1e3 * mr, mr / mu,
                    1e3 * t_create, model, mem_c, mem, xdiff, nref};
    bg_table_row(tab, row);
    fprintf(stderr, "%s n=%d m=%d p=%d: slide %.3f ms, refactor %.3f ms "
                    "(x %.1f), create %.1f ms, memory model %.1f MB, "
                    "create %.1f MB, slides %.1f MB, xdiff %.2e, "
                    "refactorised %d of %d\n",
            form_name[form], n, m, p, 1e3 * mu, 1e3 * mr, mr / mu,
            1e3 * t_create, model, mem_c, mem, xdiff, nref, reps);
    qru_lsq_destroy(f);
#ifdef QRU_HAVE_CUDA
    if (is_cuda) {
        cudaFree(dA);
        cudaFree(db);
        cudaFree(rA);
        cudaFree(rb);
        cudaFree(rtau);
        cudaFree(rQ);
    }
#endif
    free(work);
    free(bw);
    free(tau);
    free(A);
    free(b);
    free(tu);
    free(tr);
    free(x);
    free(xr);
#undef VIEW
}

int main(int argc, char **argv)
{
    wopts o = {NULL, 9, 100, 0, QRU_UPDATE_AUTO};
    int pts[16][2], npts = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            o.outdir = argv[++i];
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            o.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p") && i + 1 < argc)
            o.p = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-F"))
            o.full = 1;
        else if (!strcmp(argv[i], "-a") && i + 1 < argc)
            o.alg = !strcmp(argv[++i], "fast") ? QRU_UPDATE_FAST
                                                : QRU_UPDATE_AUTO;
        else if (npts < 16 &&
                 sscanf(argv[i], "%d,%d", &pts[npts][0], &pts[npts][1]) == 2)
            ++npts;
        else {
            fprintf(stderr, "usage: QRU_TEST_BACKEND=cpu|cuda %s [-o DIR] "
                            "[-r REPS] [-p P] [-F] [-a fast|auto] N,M ...\n",
                    argv[0]);
            return 2;
        }
    }
    if (o.reps < 1 || o.p < 1 || npts == 0) {
        fprintf(stderr, "%s: need REPS >= 1, P >= 1 and a point N,M\n",
                argv[0]);
        return 2;
    }
    const char *be = getenv("QRU_TEST_BACKEND");
    int is_cuda = be && !strcmp(be, "cuda");
    qru_context *ctx = NULL;
    void *gpu = NULL;
    char device[320] = "host CPU (OpenBLAS/LAPACKE)";
#ifdef QRU_HAVE_CUDA
    bg_gpu g;
    if (is_cuda) {
        if (bg_gpu_open(&g)) {
            printf("skipped: no CUDA device\n");
            return BG_SKIP;
        }
        ctx = g.ctx;
        gpu = &g;
        snprintf(device, sizeof device, "%s", g.device);
    }
#else
    if (is_cuda) {
        printf("skipped: built without the CUDA backend\n");
        return BG_SKIP;
    }
#endif
    if (!is_cuda) {
        bg_check(qru_context_create(QRU_BACKEND_CPU, &ctx), "context");
        snprintf(device, sizeof device, "host CPU, %s", bg_cpu_threads());
    }
    bg_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.prog = "bench_window";
    bo.outdir = o.outdir ? o.outdir : getenv("OUT") ? getenv("OUT") : ".";
    bo.reps = o.reps;
    bg_table *tab = bg_table_new(
        &bo, is_cuda ? "bench_window_cuda_d" : "bench_window_cpu_d",
        QRU_DOUBLE, device,
        "sliding window: add p rows at the end, remove p at the start, per "
        "form, against the refactorisation of the window",
        "form n m p slide_ms refactor_ms ratio create_ms model_MB "
        "create_MB slide_MB xdiff refactored");
    bg_table_note(tab, "form: 0 full Q, 1 thin Q, 2 Q-less; refactor: %s "
                       "geqrf + ormqr (+ orgqr: thin n x m, full n x n); "
                       "median of %d slides after a warm-up; update "
                       "algorithm %s; refactored: the timed removals that "
                       "AUTO refactorised",
                  is_cuda ? "cuSOLVER" : "LAPACKE", o.reps,
                  o.alg == QRU_UPDATE_FAST ? "FAST" : "AUTO");
    for (int i = 0; i < npts; ++i) {
        int n = pts[i][0], m = pts[i][1];
        run_point(&o, tab, ctx, is_cuda, gpu, n, m, QRU_Q_NONE);
        run_point(&o, tab, ctx, is_cuda, gpu, n, m, QRU_Q_THIN);
        if (o.full)
            run_point(&o, tab, ctx, is_cuda, gpu, n, m, QRU_Q_FULL);
    }
    bg_table_close(tab);
#ifdef QRU_HAVE_CUDA
    if (is_cuda)
        bg_gpu_close(&g);
    else
#endif
        qru_context_destroy(ctx);
    return 0;
}
