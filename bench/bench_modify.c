/*
 * Benchmark of the rank-k modification qru_lsq_modify (A1 = A + U V'),
 * full Q kept, k = 1, 8, 64 at the target shape.
 *
 * GPU (default; CUDA builds, the driver of bench_gpu_common.h): TUS, the
 * device-resident update against the cuSOLVER refactorisation of A1
 * (geqrf + ormqr + trsm, and orgqr for the full Q), and TUT against the
 * CPU backend.  Sets: 0 the target shape (n = 8000, m = 3000, k = 1, 8,
 * 64); 1 k = 16, 32, 128, 256; 2 n = 4000 and 12000 (k = 8).
 *
 * CPU (--cpu-ref): the CPU backend's update against the LAPACKE
 * refactorisation of A1, in the full form (geqrf + ormqr + orgqr of the
 * n x n Q) and the thin form (geqrf + ormqr + orgqr of the n x m Q1 and
 * the residuals b - Q1 Q1' b), the same k; the shape is -P n,m,0,0,1
 * (default n = 2000, m = 750: the target's aspect, seconds on a small
 * CPU).  Tables bench_modify_cpuref_<s|d> with the same options (-o, -r,
 * -p, -q).
 */
#include <stdlib.h>
#include <string.h>

#include "bench_gpu_common.h"

static const bg_point pts[] = {
    {0, 8000, 3000, 1, 0, 1, 0},   {0, 8000, 3000, 8, 0, 1, 1},
    {0, 8000, 3000, 64, 0, 1, 0},  {1, 8000, 3000, 16, 0, 1, 0},
    {1, 8000, 3000, 32, 0, 1, 0},  {1, 8000, 3000, 128, 0, 1, 0},
    {1, 8000, 3000, 256, 0, 1, 0}, {2, 4000, 3000, 8, 0, 1, 0},
    {2, 12000, 3000, 8, 0, 1, 0},
};

static const bg_point quick[] = {
    {0, 400, 150, 1, 0, 1, 1},
    {0, 400, 150, 8, 0, 1, 0},
    {1, 400, 150, 64, 0, 1, 0},
};

/* ---- the CPU comparison with LAPACKE (--cpu-ref) ---- */

/* The LAPACKE refactorisation of A1 (n x m, b1 n x r) holding what the
 * form holds: R, d = Q' b and the full Q (thin = 0: geqrf + ormqr +
 * orgqr of n columns), or R, Q1 (n x m) and d (thin = 1: orgqr of m
 * columns; the thin form's residuals b - Q1 d are not formed).  Seconds,
 * the copy of A1 and the allocations included (under 1 % of it at the
 * benchmark's sizes). */
static double lapacke_refactor(qru_dtype dt, int n, int m, int r,
                               const void *A1, const void *b1, int thin)
{
    void *R, *d, *Q;
    double t0 = bg_now();
    bg_host_qr_cols(dt, n, m, r, A1, b1, thin ? m : n, &R, &d, &Q);
    double t = bg_now() - t0;
    free(R);
    free(d);
    free(Q);
    return t;
}

/* The CPU backend's update of the form (thin or full) from the host
 * factorisation Q (n x n; its first m columns for the thin form), R, d:
 * a fresh qru_lsq each repeat (not timed), the update timed.  Seconds;
 * *flops: the update's flops (its cost function: the plan it runs). */
static double qru_update_time(qru_context *ctx, qru_dtype dt, int n, int m,
                              int r, int k, void *Q, void *R, void *d,
                              void *U, void *V, int thin, double *flops)
{
    qru_matrix *Qm = NULL, *Rm = NULL, *dm = NULL, *Um = NULL, *Vm = NULL;
    int rr = thin ? m : n;
    bg_check(qru_matrix_wrap(ctx, dt, n, thin ? m : n, Q, n, &Qm), "wrap");
    bg_check(qru_matrix_wrap(ctx, dt, rr, m, R, n, &Rm), "wrap");
    bg_check(qru_matrix_wrap(ctx, dt, rr, r, d, n, &dm), "wrap");
    bg_check(qru_matrix_wrap(ctx, dt, n, k, U, n, &Um), "wrap");
    bg_check(qru_matrix_wrap(ctx, dt, m, k, V, m, &Vm), "wrap");
    qru_lsq *f = NULL;
    bg_check(qru_lsq_create_from_qr(ctx, Qm, Rm, dm, NULL, &f),
             "qru_lsq_create_from_qr");
    bg_check(qru_lsq_set_update_algorithm(f, QRU_UPDATE_FAST),
             "qru_lsq_set_update_algorithm");
    *flops = bench_modify_flops(f, k, Um, Vm);
    double t0 = bg_now();
    bg_check(qru_lsq_modify(f, Um, Vm), "qru_lsq_modify");
    bg_check(qru_context_sync(ctx), "qru_context_sync");
    double t = bg_now() - t0;
    qru_lsq_destroy(f);
    qru_matrix_destroy(Qm);
    qru_matrix_destroy(Rm);
    qru_matrix_destroy(dm);
    qru_matrix_destroy(Um);
    qru_matrix_destroy(Vm);
    return t;
}

#define CPUREF_COLS                                                            \
    "n m k reps t_full t_lapacke_full speedup_full t_thin t_lapacke_thin "    \
    "speedup_thin gflop_full gflops_full gflop_thin gflops_thin"

static int cpu_ref_main(int argc, char **argv)
{
    bg_opts o;
    bg_parse(argc, argv, "bench_modify --cpu-ref",
             "A + U V' on the CPU backend vs the LAPACKE refactorisation", &o);
    int n = o.have_point ? o.point[0] : o.quick ? 400 : 2000;
    int m = o.have_point ? o.point[1] : o.quick ? 150 : 750;
    int r = 1;
    static const int ks[] = {1, 8, 64};
    qru_context *ctx = NULL;
    bg_check(qru_context_create(QRU_BACKEND_CPU, &ctx), "qru_context_create");
    for (int pr = 0; pr < 2; ++pr) {
        qru_dtype dt = pr == 0 ? QRU_DOUBLE : QRU_FLOAT;
        if (!(o.prec & (dt == QRU_DOUBLE ? 2 : 1)))
            continue;
        bg_table *t = bg_table_new(&o, "bench_modify_cpuref", dt,
                                   qru_context_device_name(ctx),
                                   "A + U V' vs the LAPACKE refactorisation",
                                   CPUREF_COLS);
        bg_table_note(t, "CPU backend, %s; QRU_UPDATE_FAST, default block "
                         "sizes; r = 1 right-hand side",
                      bg_cpu_threads());
        bg_table_note(t, "t_full: qru_lsq_modify with the full n x n Q; "
                         "t_lapacke_full: geqrf + ormqr (Q'b) + orgqr (the "
                         "n x n Q) of A1;");
        bg_table_note(t, "t_thin: qru_lsq_modify on the thin form (Q1 "
                         "n x m, and its residuals); t_lapacke_thin: geqrf + "
                         "ormqr + orgqr (n x m), residuals not formed;");
        bg_table_note(t, "medians; speedup = LAPACKE / qru; gflop: the "
                         "update's flops (flops_modify of src/qru_flops.h, "
                         "with the block widths the update chose)");
        for (int ik = 0; ik < 3; ++ik) {
            int k = ks[ik];
            if (k > n - m)
                continue;
            unsigned long long seed = 0x5eedULL + (unsigned long long)k;
            void *A = bg_alloc(dt, (size_t)n * m), *b = bg_alloc(dt, (size_t)n * r),
                 *U = bg_alloc(dt, (size_t)n * k), *V = bg_alloc(dt, (size_t)m * k);
            bg_rand(dt, (size_t)n * m, A, &seed);
            bg_rand(dt, (size_t)n * r, b, &seed);
            bg_rand(dt, (size_t)n * k, U, &seed);
            bg_rand(dt, (size_t)m * k, V, &seed);
            void *A1, *b1, *R, *d, *Q;
            int n1, m1;
            bg_updated(dt, 'm', n, m, r, 0, k, A, b, U, V, &A1, &b1, &n1, &m1);
            bg_host_qr(dt, n, m, r, A, b, 1, &R, &d, &Q);
            double tf[16], tlf[16], tt[16], tlt[16], ff = 0.0, ft = 0.0;
            int reps = o.reps < 16 ? o.reps : 16;
            /* interleaved, so that the variants see the same load */
            for (int rep = 0; rep < reps; ++rep) {
                tf[rep] = qru_update_time(ctx, dt, n, m, r, k, Q, R, d, U, V,
                                          0, &ff);
                tlf[rep] = lapacke_refactor(dt, n, m, r, A1, b1, 0);
                tt[rep] = qru_update_time(ctx, dt, n, m, r, k, Q, R, d, U, V,
                                          1, &ft);
                tlt[rep] = lapacke_refactor(dt, n, m, r, A1, b1, 1);
            }
            double a = bg_median(tf, reps), la = bg_median(tlf, reps),
                   th = bg_median(tt, reps), lt = bg_median(tlt, reps);
            double v[] = {n,  m,      k,         reps,     a,
                          la, la / a, th,        lt,       lt / th,
                          1e-9 * ff,  1e-9 * ff / a, 1e-9 * ft, 1e-9 * ft / th};
            bg_table_row(t, v);
            free(A);
            free(b);
            free(U);
            free(V);
            free(A1);
            free(b1);
            free(R);
            free(d);
            free(Q);
        }
        bg_table_close(t);
    }
    qru_context_destroy(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--cpu-ref") == 0) {
            /* the option is this program's: the others go to bg_parse */
            memmove(argv + i, argv + i + 1, sizeof *argv * (size_t)(argc - i));
            return cpu_ref_main(argc - 1, argv);
        }
    }
    return bg_update_main(
        argc, argv, "bench_modify", 'm', "A + U V' (rank p), full Q",
        pts, (int)(sizeof pts / sizeof pts[0]), quick,
        (int)(sizeof quick / sizeof quick[0]),
        "0 target n8000 m3000 p(=k) 1, 8, 64 | 1 k = 16 .. 256 | 2 n");
}
