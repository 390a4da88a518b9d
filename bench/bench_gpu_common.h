/*
 * Shared parts of the GPU benchmarks (bench_add_cols.c, bench_remove_cols.c,
 * bench_add_rows.c, bench_remove_rows.c, bench_factor.c): command line,
 * timing, tables, the cuSOLVER/cuBLAS reference and the count of backend
 * calls.
 *
 * How the benchmarks time (see also docs/benchmarks.md):
 *  - device times are taken with CUDA events recorded on the stream the qru
 *    context runs on (the context adopts the benchmark's stream), around
 *    the call alone; host wall-clock times (TUT, CPU backend) with
 *    CLOCK_MONOTONIC after synchronising;
 *  - every measurement is preceded by one untimed warm-up run of the same
 *    call, and the median of the timed repeats is reported; update and
 *    reference runs alternate, so drifts of clock or temperature hit both;
 *  - inputs are uniform(-1, 1) random numbers (never zeros);
 *  - the result of the last update is checked against the reference
 *    solution (column xdiff of the tables).
 *
 * Without a CUDA device (or a build without the CUDA backend) the GPU parts
 * print "skipped: no CUDA device" and the program exits with 77, unless
 * --cpu-only asks for the CPU-backend side alone.
 */
#ifndef QRU_BENCH_GPU_COMMON_H
#define QRU_BENCH_GPU_COMMON_H

#include <stddef.h>
#include <stdio.h>

#include "qru_flops.h"
#include "qru.h"

#ifdef QRU_HAVE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#endif

#define BG_SKIP 77

/* ---- command line --------------------------------------------------------- */

typedef struct bg_opts {
    const char *prog;   /* program name */
    const char *outdir; /* -o DIR; else $OUT; else "." */
    int reps;           /* -r N: timed repeats (default 5) */
    double budget;      /* -t S: no new sweep point after S seconds of
                           sweeps (the target shapes come first and do
                           not count) */
    int prec;           /* -p sdcz: bit 1 float, 2 double, 4 complex
                           float, 8 complex double (bg_prec_bit) */
    int quick;          /* -q: small sizes (smoke test) */
    int cpu_only;       /* --cpu-only: the CPU backend side alone */
    int tus, tut, sweeps; /* --no-tus, --no-tut, --no-sweeps clear them */
    int point[5];       /* -P n,m,p,k,keepq: this one problem only */
    int have_point;
} bg_opts;

/* Parses the common options; exits on -h or on an unknown option. */
void bg_parse(int argc, char **argv, const char *prog, const char *what,
              bg_opts *o);

/* The element types -p asks for, in the order double, float, complex
 * double, complex float: their number, the types in dts. */
int bg_dtypes(const bg_opts *o, qru_dtype dts[4]);
/* The bit of dt in bg_opts::prec. */
int bg_prec_bit(qru_dtype dt);

/* 1 when the sweeps have used up their time budget (-t); the first call
 * starts the clock. */
int bg_over_budget(const bg_opts *o);

/* ---- time, statistics, host data -------------------------------------------- */

double bg_now(void);                 /* seconds, CLOCK_MONOTONIC */
double bg_median(double *t, int n); /* sorts t */
/* "float" / "double" / "complex float" / "complex double" */
const char *bg_dtype_name(qru_dtype dt);
char bg_dtype_char(qru_dtype dt);        /* 's' / 'd' / 'c' / 'z' */
size_t bg_esize(qru_dtype dt);           /* bytes per element */
/* The flop model's factor of dt (flops_type_factor: 4 for complex). */
double bg_flops_factor(qru_dtype dt);

/* Host array of len elements of type dt (zeroed); exits if out of memory. */
void *bg_alloc(qru_dtype dt, size_t len);
/* uniform(-1, 1) random numbers (a 64-bit LCG; deterministic per seed;
 * a complex type: both parts). */
void bg_rand(qru_dtype dt, size_t len, void *a, unsigned long long *seed);
/* element i of a real array as a double / set it */
double bg_get(qru_dtype dt, const void *a, size_t i);
void bg_set(qru_dtype dt, void *a, size_t i, double v);
/* element i of an array of any type as a complex double (imaginary part
 * 0 for a real type) / set it (a real type: the real part) */
double _Complex bg_getz(qru_dtype dt, const void *a, size_t i);
void bg_setz(qru_dtype dt, void *a, size_t i, double _Complex v);
/* ||x - y|| / ||y|| of two host vectors of length len (any type). */
double bg_rel_diff(qru_dtype dt, size_t len, const void *x, const void *y);

/* The matrix of an update.  kind: 'c' insert the p columns U (n x p) after
 * column k, 'C' delete p columns after k, 'r' insert the p rows U (p x m)
 * after row k, 'R' delete p rows after k, 'm' A + U V' (U n x p, V = e
 * m x p).  A is n x m, b is n x r (e is p x r for 'r'); A1 (n1 x m1) and
 * b1 (n1 x r) are new host arrays. */
void bg_updated(qru_dtype dt, char kind, int n, int m, int r, int k, int p,
                const void *A, const void *b, const void *U, const void *e,
                void **A1, void **b1, int *n1, int *m1);

/* Dies with a message when st != 0. */
void bg_check(int st, const char *what);

/* ---- tables --------------------------------------------------------------- */

/* A result table, written as NAME.txt (aligned columns, '%' comment header
 * naming the program, device, date, precision and, on its last line, the
 * columns: Octave's `load` reads it) and NAME.csv (one header line of
 * column names) into the output directory, and echoed to stdout. */
typedef struct bg_table bg_table;
bg_table *bg_table_new(const bg_opts *o, const char *name, qru_dtype dt,
                       const char *device, const char *title,
                       const char *cols);
/* Appends a comment line (printf format) to the header. */
void bg_table_note(bg_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Appends one row: as many values as there are columns (NaN allowed). */
void bg_table_row(bg_table *t, const double *v);
/* Writes the files and frees the table. */
void bg_table_close(bg_table *t);

/* ---- the CPU side ----------------------------------------------------------- */

/* QR of the host A (n x m) and d = Q' b with LAPACKE (geqrf, ormqr and,
 * with withq, orgqr for the full n x n Q): new host arrays R (n x m, upper
 * part valid), d (n x r), Q (n x n or NULL). */
void bg_host_qr(qru_dtype dt, int n, int m, int r, const void *A,
                const void *b, int withq, void **R, void **d, void **Q);
/* The same with the first q columns of Q formed (q = 0: none, m: the
 * economy Q1, n: the full Q; Q n x q). */
void bg_host_qr_cols(qru_dtype dt, int n, int m, int r, const void *A,
                     const void *b, int q, void **R, void **d, void **Q);

/* Describes the CPU threads used by OpenBLAS (from the environment). */
const char *bg_cpu_threads(void);

/* ---- counting backend calls ---------------------------------------------------- */

/* The backend calls of ctx (qru_context_stats.calls: every op that queues
 * or performs work: BLAS, qru kernels, copies, transfers, syncs):
 * bg_count_reset() zeroes the library's counters, bg_count_get() reads
 * the calls since then. */
void bg_count_reset(qru_context *ctx);
long bg_count_get(const qru_context *ctx);

/* ---- the update benchmarks (one driver, four programs) ------------------------ */

/* One problem of an update benchmark: A is n x m, the update inserts or
 * deletes p rows/columns after the first k; keepq: the factorisation holds
 * the full Q (forced for the updates that need it); tut: also time the
 * host-to-host TUT run and the CPU backend; set: 0 for the issue-4 target
 * shape, 1, 2, ... for the sweeps (the program names them). */
typedef struct bg_point {
    int set, n, m, p, k, keepq, tut;
} bg_point;

/* Floating-point operations of the update kind ('c' add columns, 'C'
 * remove columns, 'r' add rows, 'R' remove rows, 'm' the rank-p
 * modification A + U V', full Q) with default block size (for 'm': windows
 * of max(p, 64) + p rows and panels of 64 columns; the GPU tables take
 * the flops of the widths the update picks, qru_upd_modify_cost). */
double bg_update_flops(char kind, int n, int m, int p, int k, int r,
                       int keepq);

/* The whole benchmark of one update: parses the options, runs the TUS
 * table (every point; sweeps only with --no-sweeps off) and the TUT table
 * (points with tut set) for each precision, writes the tables
 * <prog>_tus_<s|d> and <prog>_tut_<s|d> (with --cpu-only: <prog>_cpu_<s|d>)
 * and returns the exit status (0, or BG_SKIP without a CUDA device). */
int bg_update_main(int argc, char **argv, const char *prog, char kind,
                   const char *title, const bg_point *pts, int npts,
                   const bg_point *quick, int nquick, const char *sets);

/* ---- the GPU side (CUDA builds only) ------------------------------------------- */

#ifdef QRU_HAVE_CUDA
typedef struct bg_gpu {
    cudaStream_t stream;
    cublasHandle_t blas;
    cusolverDnHandle_t solver;
    qru_context *ctx; /* qru CUDA context on the same stream */
    cudaEvent_t e0, e1;
    int *dinfo;       /* device int for cuSOLVER */
    void *work;       /* cuSOLVER workspace (grows, untimed) */
    size_t work_bytes;
    char device[300];
} bg_gpu;

/* 0 on success, BG_SKIP when there is no CUDA device. */
int bg_gpu_open(bg_gpu *g);
void bg_gpu_close(bg_gpu *g);
void bg_cuda_check(cudaError_t e, const char *what);
void bg_ev_start(bg_gpu *g);
double bg_ev_stop(bg_gpu *g); /* seconds since bg_ev_start, synchronises */
void *bg_dev_alloc(size_t bytes);
void *bg_dev_upload(qru_dtype dt, size_t len, const void *host);
void bg_dev_download(qru_dtype dt, size_t len, const void *dev, void *host);
/* Wraps a device buffer as a qru matrix of g->ctx. */
qru_matrix *bg_wrap(bg_gpu *g, qru_dtype dt, int rows, int cols, void *dev,
                    int ld);

/* The cuSOLVER/cuBLAS least-squares reference on an n x m problem (data on
 * the device): A0, b0 are the pristine inputs, A, b the work copies, Q an
 * n x n array for orgqr (only when withq). */
typedef struct bg_ref {
    qru_dtype dt;
    int n, m, r, withq;
    void *A0, *b0, *A, *b, *tau, *Q;
} bg_ref;
void bg_ref_init(bg_gpu *g, bg_ref *f, qru_dtype dt, int n, int m, int r,
                 const void *hA, const void *hb, int withq);
void bg_ref_free(bg_ref *f);
/* Solves once, timed with events: A = A0, b = b0 (copies, not timed), then
 * geqrf(A), ormqr (b := Q' b), trsm (b(1:m) := R \ b(1:m)).  Seconds. */
double bg_ref_solve(bg_gpu *g, bg_ref *f);
/* After bg_ref_solve: forms the full n x n Q from the reflectors with
 * orgqr, timed with events (the copy of the reflectors is not).  Seconds. */
double bg_ref_orgqr(bg_gpu *g, bg_ref *f);
/* QR of A0 without timing: A := R (upper part), b := Q' b and, with withq,
 * Q := the full n x n orthogonal factor.  For building the factorisation
 * an update starts from. */
void bg_ref_factor(bg_gpu *g, bg_ref *f);

/* cuSOLVER / cuBLAS dispatch on dt (the four element types: the
 * complex types' Q' b is unmqr with the conjugate transpose, their Q
 * ungqr).  The workspace comes from g->work; a
 * call that needs more grows it (cudaMalloc, synchronising), which the
 * untimed warm-up run does, so timed runs never allocate. */
void bg_geqrf(bg_gpu *g, qru_dtype dt, int n, int m, void *A, int lda,
              void *tau);
void bg_ormqr_lt(bg_gpu *g, qru_dtype dt, int n, int r, int m, const void *A,
                 int lda, const void *tau, void *C, int ldc);
void bg_orgqr(bg_gpu *g, qru_dtype dt, int n, int q, int m, void *A, int lda,
              const void *tau);
void bg_trsm_lun(bg_gpu *g, qru_dtype dt, int m, int r, const void *A,
                 int lda, void *B, int ldb);
void bg_potrf(bg_gpu *g, qru_dtype dt, int n, void *A, int lda);
/* The CUDA data type of dt (for cuBLAS's typed Ex routines). */
cudaDataType bg_cuda_type(qru_dtype dt);
/* C := alpha M M' (M n x k, ' the conjugate transpose; cuBLAS gemm) */
void bg_gemm_nc(bg_gpu *g, qru_dtype dt, int n, int k, double alpha,
                const void *M, int ldm, void *C, int ldc);
/* y := alpha x + y (n elements; cuBLAS axpy) */
void bg_axpy(bg_gpu *g, qru_dtype dt, int n, double alpha, const void *x,
             int incx, void *y, int incy);
/* ||x||_2 of n elements (cuBLAS nrm2; synchronises) */
double bg_nrm2(bg_gpu *g, qru_dtype dt, int n, const void *x, int incx);
#endif

/* The flops of the plan of A + U V' on f (k columns; QRU_UPDATE_FAST):
 * the library's own count of the update it runs (src/plan.c). */
double bench_modify_flops(qru_lsq *f, int k, const qru_matrix *U,
                          const qru_matrix *V);

#endif /* QRU_BENCH_GPU_COMMON_H */
