/*
 * The update benchmarks: problems, the device-resident (TUS) and
 * host-to-host (TUT) measurements, the driver bg_update_main.
 * (Shared parts of the GPU benchmarks; see bench_gpu_common.h.)
 */
#include "bench_gpu_common.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lapacke.h>

#include "qru_internal.h" /* qru_dtype_size */
#include "update/update.h" /* qru_upd_modify_cost */

/* The update algorithm the benchmarks time: the environment's
 * QRU_BENCH_ALG = fast (default), dissertation or auto. */
static qru_update_algorithm bench_alg(void)
{
    const char *e = getenv("QRU_BENCH_ALG");
    if (e && strcmp(e, "dissertation") == 0)
        return QRU_UPDATE_DISSERTATION;
    if (e && strcmp(e, "auto") == 0)
        return QRU_UPDATE_AUTO;
    return QRU_UPDATE_FAST;
}

static const char *bench_alg_name(void)
{
    qru_update_algorithm a = bench_alg();
    return a == QRU_UPDATE_DISSERTATION ? "QRU_UPDATE_DISSERTATION"
           : a == QRU_UPDATE_AUTO      ? "QRU_UPDATE_AUTO"
                                       : "QRU_UPDATE_FAST";
}

/* ---- the update benchmarks -------------------------------------------------- */

double bg_update_flops(char kind, int n, int m, int p, int k, int r,
                       int keepq)
{
    switch (kind) {
    case 'c':
        return flops_add_cols(n, m, p, k, r, 0);
    case 'C':
        return flops_remove_cols(n, m, p, k, r, keepq, 0);
    case 'r':
        return flops_add_rows(n, m, p, k, r, keepq, 0);
    case 'm': /* 64-wide windows and panels (the GPU tables: the plan's) */
        return flops_modify(n, m, p, r, 0, p < 64 ? p : 64, p > 64 ? p : 64,
                            m < 64 ? m : 64);
    default:
        return flops_remove_rows(n, m, p, k, r);
    }
}

static int run_update(char kind, qru_lsq *f, int k, int p, const qru_matrix *U,
                      const qru_matrix *e)
{
    switch (kind) {
    case 'c':
        return qru_lsq_add_cols(f, k, U);
    case 'C':
        return qru_lsq_remove_cols(f, k, p);
    case 'r':
        return qru_lsq_add_rows(f, k, U, e);
    case 'm':
        return qru_lsq_modify(f, U, e);
    default:
        return qru_lsq_remove_rows(f, k, p);
    }
}

double bench_modify_flops(qru_lsq *f, int k, const qru_matrix *U,
                          const qru_matrix *V)
{
    qru_upd_req rq = {QRU_UPD_OP_MODIFY, 0, k, U, NULL, NULL, NULL,
                      QRU_UPDATE_FAST, V, -1};
    qru_plan pl;
    if (qru_upd_plan(f->ctx, f, &rq, QRU_PATH_UPDATE, &pl) != 0)
        return 0.0;
    return pl.flops;
}

/* the host data of one problem */
typedef struct prob {
    qru_dtype dt;
    char kind;
    int n, m, p, k, r, keepq, n1, m1;
    int ur, uc; /* rows, columns of U (0 when the update has none) */
    int er, ec; /* rows, columns of e (the rows' b, or V of A + U V') */
    void *A, *b, *U, *e, *A1, *b1;
} prob;

static void prob_make(prob *P, qru_dtype dt, char kind, const bg_point *pt)
{
    memset(P, 0, sizeof *P);
    P->dt = dt;
    P->kind = kind;
    P->n = pt->n;
    P->m = pt->m;
    P->p = pt->p;
    P->k = pt->k;
    P->r = 1;
    P->keepq = pt->keepq || kind == 'c' || kind == 'R' || kind == 'm';
    unsigned long long seed = 0x9e3779b97f4a7c15ULL ^
                              (unsigned long long)(pt->n * 131 + pt->m * 7 +
                                                   pt->p * 3 + pt->k);
    P->A = bg_alloc(dt, (size_t)P->n * P->m);
    P->b = bg_alloc(dt, (size_t)P->n * P->r);
    bg_rand(dt, (size_t)P->n * P->m, P->A, &seed);
    bg_rand(dt, (size_t)P->n * P->r, P->b, &seed);
    if (kind == 'c' || kind == 'm') {
        P->ur = P->n;
        P->uc = P->p;
    } else if (kind == 'r') {
        P->ur = P->p;
        P->uc = P->m;
    }
    if (kind == 'r' || kind == 'm') {
        P->er = kind == 'r' ? P->p : P->m;
        P->ec = kind == 'r' ? P->r : P->p;
        P->e = bg_alloc(dt, (size_t)P->er * P->ec);
        bg_rand(dt, (size_t)P->er * P->ec, P->e, &seed);
    }
    if (P->ur) {
        P->U = bg_alloc(dt, (size_t)P->ur * P->uc);
        bg_rand(dt, (size_t)P->ur * P->uc, P->U, &seed);
    }
    bg_updated(dt, kind, P->n, P->m, P->r, P->k, P->p, P->A, P->b, P->U, P->e,
               &P->A1, &P->b1, &P->n1, &P->m1);
}

static void prob_free(prob *P)
{
    free(P->A);
    free(P->b);
    free(P->U);
    free(P->e);
    free(P->A1);
    free(P->b1);
}

static void lsq_opts(const prob *P, qru_lsq_options *opt)
{
    qru_lsq_options_init(opt);
    opt->q = P->keepq ? QRU_Q_FULL : QRU_Q_NONE;
    /* room for the added rows / columns reserved up front, as a solver
     * that updates repeatedly would: growing is not part of the update */
    opt->row_capacity = P->n1 > P->n ? P->n1 : P->n;
    opt->col_capacity = P->m1 > P->m ? P->m1 : P->m;
}

/* x = the solution of the least-squares problem held by f (host, m1 x r) */
static void lsq_x(qru_context *ctx, qru_lsq *f, const prob *P, void *hx)
{
    qru_matrix *X = NULL;
    bg_check(qru_matrix_create(ctx, P->dt, P->m1, P->r, 0, &X),
             "qru_matrix_create");
    bg_check(qru_lsq_solve(f, X), "qru_lsq_solve");
    bg_check(qru_matrix_download(X, hx, P->m1), "qru_matrix_download");
    qru_matrix_destroy(X);
}

/* The CPU backend's update of P from the host factorisation (hQ, hR, hd):
 * median seconds, repeats used, and the solution in hx. */
static double cpu_update(qru_context *cctx, const prob *P, void *hQ, void *hR,
                         void *hd, int reps, int *used, void *hx)
{
    qru_matrix *Q = NULL, *R = NULL, *d = NULL, *U = NULL, *e = NULL;
    qru_dtype dt = P->dt;
    if (P->keepq)
        bg_check(qru_matrix_wrap(cctx, dt, P->n, P->n, hQ, P->n, &Q), "wrap");
    bg_check(qru_matrix_wrap(cctx, dt, P->n, P->m, hR, P->n, &R), "wrap");
    bg_check(qru_matrix_wrap(cctx, dt, P->n, P->r, hd, P->n, &d), "wrap");
    if (P->U)
        bg_check(qru_matrix_wrap(cctx, dt, P->ur, P->uc, P->U, P->ur, &U),
                 "wrap");
    if (P->e)
        bg_check(qru_matrix_wrap(cctx, dt, P->er, P->ec, P->e, P->er, &e),
                 "wrap");
    qru_lsq_options opt;
    lsq_opts(P, &opt);
    double t[64];
    int nt = 0;
    /* the first run is timed too: at these sizes the CPU run is long and a
     * warm-up would double the cost; further runs only while cheap */
    for (int rep = 0; rep < reps && rep < 64; ++rep) {
        qru_lsq *f = NULL;
        bg_check(qru_lsq_create_from_qr(cctx, Q, R, d, &opt, &f),
                 "qru_lsq_create_from_qr (cpu)");
        bg_check(qru_lsq_set_update_algorithm(f, bench_alg()),
                 "qru_lsq_set_update_algorithm");
        double t0 = bg_now();
        bg_check(run_update(P->kind, f, P->k, P->p, U, e),
                 "update (cpu)");
        qru_context_sync(cctx);
        t[nt++] = bg_now() - t0;
        if (rep == 0)
            lsq_x(cctx, f, P, hx);
        qru_lsq_destroy(f);
        if (t[0] > 1.0)
            break;
    }
    qru_matrix_destroy(Q);
    qru_matrix_destroy(R);
    qru_matrix_destroy(d);
    qru_matrix_destroy(U);
    qru_matrix_destroy(e);
    *used = nt;
    return bg_median(t, nt);
}

/* x of A1 x = b1 by LAPACKE (for --cpu-only) */
static void host_ref_x(const prob *P, void *hx)
{
    void *R, *d, *Q;
    bg_host_qr(P->dt, P->n1, P->m1, P->r, P->A1, P->b1, 0, &R, &d, &Q);
    lapack_int info;
#define TRTRS(T)                                                               \
    LAPACKE_##T##trtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->m1, P->r, R,       \
                       P->n1, d, P->n1)
    switch (P->dt) {
    case QRU_DOUBLE:
        info = TRTRS(d);
        break;
    case QRU_FLOAT:
        info = TRTRS(s);
        break;
    case QRU_COMPLEX_DOUBLE:
        info = TRTRS(z);
        break;
    default:
        info = TRTRS(c);
        break;
    }
#undef TRTRS
    if (info)
        fprintf(stderr, "WARNING: reference trtrs info %d\n", (int)info);
    for (int j = 0; j < P->r; ++j)
        memcpy((char *)hx + qru_dtype_size(P->dt) * (size_t)j * P->m1,
               (char *)d + qru_dtype_size(P->dt) * (size_t)j * P->n1,
               qru_dtype_size(P->dt) * (size_t)P->m1);
    free(R);
    free(d);
}

#define TUS_COLS                                                               \
    "set n m p k keepq reps t_update t_refactor t_orgqr speedup speedup_q "   \
    "gflop tflops_update tflops_refactor calls xdiff"
#define TUT_COLS                                                               \
    "set n m p k keepq reps t_tut t_upload t_update t_download t_cpu "        \
    "reps_cpu speedup_cpu gflop gflops_cpu xdiff_cpu"
#define CPU_COLS "set n m p k keepq reps_cpu t_cpu gflop gflops_cpu xdiff_cpu"

static void notes_common(bg_table *t, const char *sets, char kind,
                         qru_dtype dt)
{
    bg_table_note(t, "sets: %s", sets);
    bg_table_note(t, "update algorithm: %s (QRU_BENCH_ALG)",
                  bench_alg_name());
    bg_table_note(t, "times in seconds, medians; gflop = work of the update "
                     "counted along the code (src/qru_flops.h), r = 1 "
                     "right-hand side; default update block size");
    if (qru_dtype_complex(dt))
        bg_table_note(t, "complex data: flops are real flops, 4 times the "
                         "real count (LAPACK's convention, flops_type_factor)");
    if (kind == 'c' || kind == 'R' || kind == 'm')
        bg_table_note(t, "this update needs Q: keepq = 1 throughout");
}

#ifdef QRU_HAVE_CUDA
/* One point on the GPU: the TUS row and, with want_tut, the TUT row
 * (GPU host-to-host and CPU backend). */
static void gpu_point(bg_gpu *g, qru_context *cctx, const bg_opts *o,
                      const bg_point *pt, prob *P, double *tus, double *tut,
                      int want_tut)
{
    qru_dtype dt = P->dt;
    size_t es = qru_dtype_size(dt);
    int n = P->n, m = P->m, r = P->r;
    double gflop = 1e-9 * bg_flops_factor(dt) *
                   bg_update_flops(P->kind, n, m, P->p, P->k, r, P->keepq);
    double fref = bg_flops_factor(dt) * flops_lsq_refactor(P->n1, P->m1, r);
    /* the factorisation the update starts from (cuSOLVER, not timed) */
    bg_ref ref0, ref1;
    bg_ref_init(g, &ref0, dt, n, m, r, P->A, P->b, P->keepq);
    bg_ref_factor(g, &ref0);
    qru_matrix *Qw = P->keepq ? bg_wrap(g, dt, n, n, ref0.Q, n) : NULL;
    qru_matrix *Rw = bg_wrap(g, dt, n, m, ref0.A, n);
    qru_matrix *dw = bg_wrap(g, dt, n, r, ref0.b, n);
    void *dU = NULL, *de = NULL;
    qru_matrix *Uw = NULL, *ew = NULL;
    if (P->U) {
        dU = bg_dev_upload(dt, (size_t)P->ur * P->uc, P->U);
        Uw = bg_wrap(g, dt, P->ur, P->uc, dU, P->ur);
    }
    if (P->e) {
        de = bg_dev_upload(dt, (size_t)P->er * P->ec, P->e);
        ew = bg_wrap(g, dt, P->er, P->ec, de, P->er);
    }
    bg_ref_init(g, &ref1, dt, P->n1, P->m1, r, P->A1, P->b1, P->keepq);
    qru_lsq_options opt;
    lsq_opts(P, &opt);
    void *xq = bg_alloc(dt, (size_t)P->m1 * r), *xr = bg_alloc(dt, (size_t)P->n1 * r);

    /* ---- TUS: update vs refactorisation, both device-resident ---- */
    int reps = o->reps;
    double *tu = malloc(sizeof(double) * (size_t)reps),
           *tr = malloc(sizeof(double) * (size_t)reps),
           *tq = malloc(sizeof(double) * (size_t)reps);
    int done = 0;
    for (int rep = -1; rep < reps; ++rep) {
        qru_lsq *f = NULL;
        bg_check(qru_lsq_create_from_qr(g->ctx, Qw, Rw, dw, &opt, &f),
                 "qru_lsq_create_from_qr");
        bg_check(qru_lsq_set_update_algorithm(f, bench_alg()),
                 "qru_lsq_set_update_algorithm");
        bg_check(qru_context_sync(g->ctx), "qru_context_sync");
        bg_ev_start(g);
        bg_check(run_update(P->kind, f, P->k, P->p, Uw, ew), "update");
        double t_u = bg_ev_stop(g);
        if (rep >= 0) /* the solution of the last timed update is checked */
            lsq_x(g->ctx, f, P, xq);
        qru_lsq_destroy(f);
        double t_r = bg_ref_solve(g, &ref1);
        double t_q = P->keepq ? bg_ref_orgqr(g, &ref1) : 0.0;
        if (rep < 0) {
            /* long points: fewer repeats (the spread of long runs is
             * small, and the budget is the run's few minutes) */
            double tw = t_u + t_r + t_q;
            if (tw > 0.4 && reps > 3)
                reps = 3;
            if (tw > 2.0)
                reps = 1;
            continue;
        }
        tu[done] = t_u;
        tr[done] = t_r;
        tq[done] = t_q;
        ++done;
        if (done == reps)
            break;
    }
    /* x of the reference (the last solve), ld n1 */
    bg_dev_download(dt, (size_t)P->n1 * r, ref1.b, xr);
    double xdiff = 0.0;
    for (int j = 0; j < r; ++j) {
        double dj = bg_rel_diff(dt, (size_t)P->m1, (char *)xq + es * (size_t)j * P->m1,
                                (char *)xr + es * (size_t)j * P->n1);
        if (dj > xdiff)
            xdiff = dj;
    }
    double t_u = bg_median(tu, done), t_r = bg_median(tr, done),
           t_q = bg_median(tq, done);
    /* backend calls of one update (an extra, untimed run) */
    long calls;
    {
        qru_lsq *f = NULL;
        bg_check(qru_lsq_create_from_qr(g->ctx, Qw, Rw, dw, &opt, &f),
                 "qru_lsq_create_from_qr");
        bg_check(qru_lsq_set_update_algorithm(f, bench_alg()),
                 "qru_lsq_set_update_algorithm");
        bg_check(qru_context_sync(g->ctx), "qru_context_sync");
        if (P->kind == 'm') { /* the flops of the widths the update picks */
            gflop = 1e-9 * bench_modify_flops(f, P->p, Uw, ew);
        }
        bg_count_reset(g->ctx);
        bg_check(run_update(P->kind, f, P->k, P->p, Uw, ew), "update");
        calls = bg_count_get(g->ctx);
        bg_check(qru_context_sync(g->ctx), "qru_context_sync");
        qru_lsq_destroy(f);
    }
    double v[] = {pt->set,
                  n,
                  m,
                  P->p,
                  P->k,
                  P->keepq,
                  done,
                  t_u,
                  t_r,
                  P->keepq ? t_q : NAN,
                  t_r / t_u,
                  P->keepq ? (t_r + t_q) / t_u : NAN,
                  gflop,
                  1e-3 * gflop / t_u,
                  1e-12 * fref / t_r,
                  (double)calls,
                  xdiff};
    memcpy(tus, v, sizeof v);
    free(tu);
    free(tr);
    free(tq);

    if (want_tut) {
        /* ---- TUT: host -> device -> update -> host, vs the CPU backend ---- */
        void *hR = bg_alloc(dt, (size_t)n * m), *hd = bg_alloc(dt, (size_t)n * r);
        void *hQ = P->keepq ? bg_alloc(dt, (size_t)n * n) : NULL;
        bg_dev_download(dt, (size_t)n * m, ref0.A, hR);
        bg_dev_download(dt, (size_t)n * r, ref0.b, hd);
        if (hQ)
            bg_dev_download(dt, (size_t)n * n, ref0.Q, hQ);
        int n1 = P->n1, m1 = P->m1;
        void *oR = bg_alloc(dt, (size_t)n1 * m1), *od = bg_alloc(dt, (size_t)n1 * r);
        void *oQ = P->keepq ? bg_alloc(dt, (size_t)n1 * n1) : NULL;
        double a[8], bu[8], c[8], tt[8];
        int treps = o->reps < 3 ? o->reps : 3, tdone = 0;
        for (int rep = -1; rep < treps; ++rep) {
            bg_cuda_check(cudaDeviceSynchronize(), "sync");
            double t0 = bg_now();
            qru_matrix *Qm = NULL, *Rm = NULL, *dm = NULL, *Um = NULL,
                       *em = NULL;
            qru_context *ctx = g->ctx;
            if (hQ) {
                bg_check(qru_matrix_create(ctx, dt, n, n, 0, &Qm), "create");
                bg_check(qru_matrix_upload(Qm, hQ, n), "upload");
            }
            bg_check(qru_matrix_create(ctx, dt, n, m, 0, &Rm), "create");
            bg_check(qru_matrix_upload(Rm, hR, n), "upload");
            bg_check(qru_matrix_create(ctx, dt, n, r, 0, &dm), "create");
            bg_check(qru_matrix_upload(dm, hd, n), "upload");
            if (P->U) {
                bg_check(qru_matrix_create(ctx, dt, P->ur, P->uc, 0, &Um),
                         "create");
                bg_check(qru_matrix_upload(Um, P->U, P->ur), "upload");
            }
            if (P->e) {
                bg_check(qru_matrix_create(ctx, dt, P->er, P->ec, 0, &em),
                         "create");
                bg_check(qru_matrix_upload(em, P->e, P->er), "upload");
            }
            qru_lsq *f = NULL;
            bg_check(qru_lsq_create_from_qr(ctx, Qm, Rm, dm, &opt, &f),
                     "qru_lsq_create_from_qr");
            bg_check(qru_lsq_set_update_algorithm(f, bench_alg()),
                     "qru_lsq_set_update_algorithm");
            qru_matrix_destroy(Qm);
            qru_matrix_destroy(Rm);
            qru_matrix_destroy(dm);
            bg_check(qru_context_sync(ctx), "sync");
            double t1 = bg_now();
            bg_check(run_update(P->kind, f, P->k, P->p, Um, em), "update");
            bg_check(qru_context_sync(ctx), "sync");
            double t2 = bg_now();
            qru_matrix *R1 = NULL, *d1 = NULL, *Q1 = NULL;
            bg_check(qru_matrix_create(ctx, dt, n1, m1, 0, &R1), "create");
            bg_check(qru_lsq_get_r(f, R1), "qru_lsq_get_r");
            bg_check(qru_matrix_download(R1, oR, n1), "download");
            /* d: n1 x r with Q, d(1:m1, :) in the Q-less form */
            bg_check(qru_matrix_create(ctx, dt, oQ ? n1 : m1, r, 0, &d1),
                     "create");
            bg_check(qru_lsq_get_d(f, d1), "qru_lsq_get_d");
            bg_check(qru_matrix_download(d1, od, n1), "download");
            if (oQ) {
                bg_check(qru_matrix_create(ctx, dt, n1, n1, 0, &Q1), "create");
                bg_check(qru_lsq_get_q(f, Q1), "qru_lsq_get_q");
                bg_check(qru_matrix_download(Q1, oQ, n1), "download");
            }
            qru_matrix_destroy(R1);
            qru_matrix_destroy(d1);
            qru_matrix_destroy(Q1);
            qru_matrix_destroy(Um);
            qru_matrix_destroy(em);
            qru_lsq_destroy(f);
            bg_check(qru_context_sync(ctx), "sync");
            double t3 = bg_now();
            if (rep < 0) {
                if (t3 - t0 > 2.0)
                    treps = 1;
                continue;
            }
            a[tdone] = t1 - t0;
            bu[tdone] = t2 - t1;
            c[tdone] = t3 - t2;
            tt[tdone] = t3 - t0;
            ++tdone;
        }
        /* the CPU backend on the same problem */
        int used = 0;
        void *xc = bg_alloc(dt, (size_t)m1 * r);
        double t_cpu = cctx ? cpu_update(cctx, P, hQ, hR, hd, 3, &used, xc)
                            : NAN;
        double xdc = NAN;
        if (cctx) {
            xdc = 0.0;
            for (int j = 0; j < r; ++j) {
                double dj = bg_rel_diff(dt, (size_t)m1,
                                        (char *)xc + es * (size_t)j * m1,
                                        (char *)xr + es * (size_t)j * n1);
                if (dj > xdc)
                    xdc = dj;
            }
        }
        double t_tut = bg_median(tt, tdone);
        double w[] = {pt->set,
                      n,
                      m,
                      P->p,
                      P->k,
                      P->keepq,
                      tdone,
                      t_tut,
                      bg_median(a, tdone),
                      bg_median(bu, tdone),
                      bg_median(c, tdone),
                      t_cpu,
                      used,
                      t_cpu / t_tut,
                      gflop,
                      gflop / t_cpu,
                      xdc};
        memcpy(tut, w, sizeof w);
        free(xc);
        free(hR);
        free(hd);
        free(hQ);
        free(oR);
        free(od);
        free(oQ);
    }
    free(xq);
    free(xr);
    qru_matrix_destroy(Qw);
    qru_matrix_destroy(Rw);
    qru_matrix_destroy(dw);
    qru_matrix_destroy(Uw);
    qru_matrix_destroy(ew);
    cudaFree(dU);
    cudaFree(de);
    bg_ref_free(&ref0);
    bg_ref_free(&ref1);
}
#endif

int bg_update_main(int argc, char **argv, const char *prog, char kind,
                   const char *title, const bg_point *pts, int npts,
                   const bg_point *quick, int nquick, const char *sets)
{
    bg_opts o;
    bg_parse(argc, argv, prog, title, &o);
    bg_point one;
    if (o.quick) {
        pts = quick;
        npts = nquick;
    }
    if (o.have_point) {
        one.set = 0;
        one.n = o.point[0];
        one.m = o.point[1];
        one.p = o.point[2];
        one.k = o.point[3];
        one.keepq = o.point[4];
        one.tut = 1;
        pts = &one;
        npts = 1;
    }
    qru_context *cctx = NULL;
    int need_cpu = o.cpu_only;
    for (int i = 0; i < npts; ++i)
        need_cpu |= o.tut && pts[i].tut;
    if (need_cpu)
        bg_check(qru_context_create(QRU_BACKEND_CPU, &cctx),
                 "qru_context_create(cpu)");

    qru_dtype dts[4];
    int ndt = bg_dtypes(&o, dts);
    if (o.cpu_only) {
        /* the CPU backend alone: the CPU side of the TUT comparison */
        for (int pr = 0; pr < ndt; ++pr) {
            qru_dtype dt = dts[pr];
            char name[128];
            snprintf(name, sizeof name, "%s_cpu", prog);
            bg_table *t = bg_table_new(&o, name, dt, qru_context_device_name(cctx),
                                       title, CPU_COLS);
            notes_common(t, sets, kind, dt);
            bg_table_note(t, "CPU backend alone (--cpu-only), %s; x checked "
                             "against LAPACKE on A1",
                          bg_cpu_threads());
            for (int i = 0; i < npts; ++i) {
                if (!pts[i].tut && pts[i].set != 0)
                    continue;
                if (pts[i].set != 0 && bg_over_budget(&o))
                    continue;
                prob P;
                prob_make(&P, dt, kind, &pts[i]);
                void *R, *d, *Q;
                bg_host_qr(dt, P.n, P.m, P.r, P.A, P.b, P.keepq, &R, &d, &Q);
                void *xc = bg_alloc(dt, (size_t)P.m1 * P.r);
                void *xr = bg_alloc(dt, (size_t)P.m1 * P.r);
                int used = 0;
                double tc = cpu_update(cctx, &P, Q, R, d, o.reps, &used, xc);
                host_ref_x(&P, xr);
                double gf = 1e-9 * bg_flops_factor(dt) *
                            bg_update_flops(kind, P.n, P.m, P.p, P.k, P.r,
                                            P.keepq);
                double v[] = {pts[i].set, P.n,  P.m,     P.p,
                              P.k,        P.keepq, used, tc,
                              gf,         gf / tc,
                              bg_rel_diff(dt, (size_t)P.m1 * P.r, xc, xr)};
                bg_table_row(t, v);
                free(R);
                free(d);
                free(Q);
                free(xc);
                free(xr);
                prob_free(&P);
            }
            bg_table_close(t);
        }
        qru_context_destroy(cctx);
        return 0;
    }

#ifdef QRU_HAVE_CUDA
    bg_gpu g;
    if (bg_gpu_open(&g) != 0) {
        printf("%s: skipped: no CUDA device (run with --cpu-only for the CPU "
               "side)\n",
               prog);
        qru_context_destroy(cctx);
        return BG_SKIP;
    }
    printf("%% %s on %s\n", prog, g.device);
    /* every type's tables stay open and the points run in the outer
     * loop, so that a time budget cuts the same sweep points of all */
    bg_table *ts[4] = {NULL, NULL, NULL, NULL},
             *tt[4] = {NULL, NULL, NULL, NULL};
    for (int pr = 0; pr < ndt; ++pr) {
        qru_dtype dt = dts[pr];
        char name[128];
        if (o.tus) {
            snprintf(name, sizeof name, "%s_tus", prog);
            bg_table *t = ts[pr] =
                bg_table_new(&o, name, dt, g.device, title, TUS_COLS);
            notes_common(t, sets, kind, dt);
            bg_table_note(t, "TUS: data on the device; t_update: qru update "
                             "of a qru_lsq (CUDA events);");
            if (qru_dtype_complex(dt))
                bg_table_note(t, "t_refactor: cuSOLVER %cgeqrf + %cunmqr "
                                 "(Q'b, ' the conjugate transpose) + cuBLAS "
                                 "%ctrsm on A1; t_orgqr: forming the full Q "
                                 "of A1 (%cungqr) on top, keepq only;",
                              bg_dtype_char(dt), bg_dtype_char(dt),
                              bg_dtype_char(dt), bg_dtype_char(dt));
            else
                bg_table_note(t, "t_refactor: cuSOLVER geqrf + ormqr (Q'b) "
                                 "+ cuBLAS trsm on A1; t_orgqr: forming the "
                                 "full Q of A1 (orgqr) on top, keepq only;");
            bg_table_note(t, "speedup = t_refactor/t_update, speedup_q = "
                             "(t_refactor+t_orgqr)/t_update (> 1: the "
                             "update is faster);");
            bg_table_note(t, "calls: backend-table calls of one update (each "
                             "one kernel launch, cuBLAS call, copy or "
                             "transfer; not a count of kernel launches);");
            bg_table_note(t, "xdiff: ||x_update - x_cusolver|| / "
                             "||x_cusolver|| of the updated problem");
        }
        if (o.tut) {
            snprintf(name, sizeof name, "%s_tut", prog);
            bg_table *t = tt[pr] =
                bg_table_new(&o, name, dt, g.device, title, TUT_COLS);
            notes_common(t, sets, kind, dt);
            bg_table_note(t, "TUT (host clock): t_upload = create + upload "
                             "Q, R, d, U + qru_lsq_create_from_qr; t_update; "
                             "t_download = get R, d, Q + download;");
            bg_table_note(t, "t_cpu: the CPU backend's update of the same "
                             "problem (data in host memory), %s;",
                          bg_cpu_threads());
            bg_table_note(t, "reps_cpu < 3: runs over 1 s are timed once; "
                             "speedup_cpu = t_cpu / t_tut; xdiff_cpu: CPU x "
                             "vs cuSOLVER x");
        }
    }
    for (int i = 0; i < npts; ++i) {
        const bg_point *pt = &pts[i];
        if (pt->set != 0 && !o.sweeps)
            continue;
        for (int pr = 0; pr < ndt; ++pr) {
            qru_dtype dt = dts[pr];
            int want_tut = tt[pr] && pt->tut;
            if (!ts[pr] && !want_tut)
                continue;
            if (pt->set != 0 && bg_over_budget(&o)) {
                if (ts[pr])
                    bg_table_note(ts[pr], "not run (time budget): set %d n %d "
                                          "m %d p %d k %d",
                                  pt->set, pt->n, pt->m, pt->p, pt->k);
                continue;
            }
            prob P;
            prob_make(&P, dt, kind, pt);
            double vs[32], vt[32];
            double t0 = bg_now();
            gpu_point(&g, cctx, &o, pt, &P, vs, vt, want_tut);
            fprintf(stderr, "%s %s n=%d m=%d p=%d k=%d keepq=%d: update %.4g "
                            "s, refactor %.4g s (point %.1f s)\n",
                    prog, bg_dtype_name(dt), P.n, P.m, P.p, P.k, P.keepq,
                    vs[7], vs[8], bg_now() - t0);
            if (ts[pr])
                bg_table_row(ts[pr], vs);
            if (want_tut)
                bg_table_row(tt[pr], vt);
            prob_free(&P);
        }
    }
    for (int pr = 0; pr < ndt; ++pr) {
        if (ts[pr])
            bg_table_close(ts[pr]);
        if (tt[pr])
            bg_table_close(tt[pr]);
    }
    bg_gpu_close(&g);
    qru_context_destroy(cctx);
    return 0;
#else
    (void)sets;
    (void)kind;
    (void)ndt;
    printf("%s: skipped: no CUDA device (this build has no CUDA backend; run "
           "with --cpu-only for the CPU side)\n",
           prog);
    qru_context_destroy(cctx);
    return BG_SKIP;
#endif
}
