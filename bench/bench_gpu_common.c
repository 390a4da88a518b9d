/*
 * Shared parts of the GPU benchmarks; see bench_gpu_common.h.
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
#include <unistd.h>

#include <lapacke.h>

#include "qru_internal.h" /* the backend table, for counting its calls */

/* ---- command line --------------------------------------------------------- */

static double g_t0;

void bg_parse(int argc, char **argv, const char *prog, const char *what,
              bg_opts *o)
{
    memset(o, 0, sizeof *o);
    o->prog = prog;
    o->reps = 5;
    o->budget = 1e30;
    o->prec = 3;
    o->tus = o->tut = o->sweeps = 1;
    const char *env = getenv("OUT");
    o->outdir = env && *env ? env : ".";
    g_t0 = bg_now();
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-o") && v) {
            o->outdir = v;
            ++i;
        } else if (!strcmp(a, "-r") && v) {
            o->reps = atoi(v);
            ++i;
        } else if (!strcmp(a, "-t") && v) {
            o->budget = atof(v);
            ++i;
        } else if (!strcmp(a, "-p") && v) {
            o->prec = (strchr(v, 's') ? 1 : 0) | (strchr(v, 'd') ? 2 : 0);
            ++i;
        } else if (!strcmp(a, "-P") && v) {
            int *q = o->point;
            if (sscanf(v, "%d,%d,%d,%d,%d", q, q + 1, q + 2, q + 3, q + 4) !=
                5) {
                fprintf(stderr, "%s: -P wants n,m,p,k,keepq\n", prog);
                exit(2);
            }
            o->have_point = 1;
            ++i;
        } else if (!strcmp(a, "-q")) {
            o->quick = 1;
        } else if (!strcmp(a, "--cpu-only")) {
            o->cpu_only = 1;
        } else if (!strcmp(a, "--no-tus")) {
            o->tus = 0;
        } else if (!strcmp(a, "--no-tut")) {
            o->tut = 0;
        } else if (!strcmp(a, "--no-sweeps")) {
            o->sweeps = 0;
        } else {
            int help = !strcmp(a, "-h") || !strcmp(a, "--help");
            fprintf(help ? stdout : stderr,
                    "%s: %s\n"
                    "usage: %s [-o DIR] [-r REPS] [-t SECONDS] [-p s|d|sd] [-q] [-P ...]\n"
                    "          [--cpu-only] [--no-tus] [--no-tut] [--no-sweeps]\n"
                    "  -o DIR      where the tables go (default $OUT, else .)\n"
                    "  -r REPS     timed repeats per point, median reported "
                    "(default 5)\n"
                    "  -t SECONDS  start no new sweep point after this long in the "
                    "sweeps\n              (the target shapes run first, "
                    "uncounted)\n"
                    "  -p s|d|sd   precisions (default sd)\n"
                    "  -q          small sizes (smoke test)\n"
                    "  -P n,m,p,k,keepq  this one problem instead of the "
                    "built-in list\n"
                    "  --cpu-only  only the CPU-backend side (no GPU needed)\n",
                    prog, what, prog);
            exit(help ? 0 : 2);
        }
    }
    if (o->reps < 1 || o->reps > 1000)
        o->reps = 5;
    if (!o->prec)
        o->prec = 3;
    mkdir(o->outdir, 0777); /* may exist already */
}

int bg_over_budget(const bg_opts *o)
{
    /* the clock starts at the first question, i.e. at the first sweep
     * point: the target shapes before it are not counted */
    static int started;
    if (!started) {
        started = 1;
        g_t0 = bg_now();
    }
    return bg_now() - g_t0 > o->budget;
}

/* ---- time, statistics, host data -------------------------------------------- */

double bg_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bg_median(double *t, int n)
{
    if (n < 1)
        return NAN;
    qsort(t, (size_t)n, sizeof *t, cmpd);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

const char *bg_dtype_name(qru_dtype dt)
{
    return dt == QRU_DOUBLE ? "double" : "float";
}

char bg_dtype_char(qru_dtype dt) { return dt == QRU_DOUBLE ? 'd' : 's'; }

size_t bg_esize(qru_dtype dt) { return qru_dtype_size(dt); }

void bg_check(int st, const char *what)
{
    if (st) {
        fprintf(stderr, "FATAL: %s failed: %d (%s)\n", what, st,
                qru_strerror(st));
        exit(1);
    }
}

void *bg_alloc(qru_dtype dt, size_t len)
{
    void *p = calloc(len ? len : 1, qru_dtype_size(dt));
    if (!p) {
        fprintf(stderr, "FATAL: out of host memory (%zu elements)\n", len);
        exit(1);
    }
    return p;
}

double bg_get(qru_dtype dt, const void *a, size_t i)
{
    return dt == QRU_DOUBLE ? ((const double *)a)[i]
                            : (double)((const float *)a)[i];
}

void bg_set(qru_dtype dt, void *a, size_t i, double v)
{
    if (dt == QRU_DOUBLE)
        ((double *)a)[i] = v;
    else
        ((float *)a)[i] = (float)v;
}

void bg_rand(qru_dtype dt, size_t len, void *a, unsigned long long *seed)
{
    unsigned long long s = *seed;
    for (size_t i = 0; i < len; ++i) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        double u = (double)(s >> 11) * (1.0 / 9007199254740992.0); /* [0,1) */
        bg_set(dt, a, i, 2.0 * u - 1.0);
    }
    *seed = s;
}

double bg_rel_diff(qru_dtype dt, size_t len, const void *x, const void *y)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < len; ++i) {
        double a = bg_get(dt, x, i), b = bg_get(dt, y, i);
        num += (a - b) * (a - b);
        den += b * b;
    }
    return den > 0.0 ? sqrt(num / den) : sqrt(num);
}

void bg_updated(qru_dtype dt, char kind, int n, int m, int r, int k, int p,
                const void *A, const void *b, const void *U, const void *e,
                void **A1p, void **b1p, int *n1p, int *m1p)
{
    int n1 = n, m1 = m;
    if (kind == 'c')
        m1 = m + p;
    else if (kind == 'C')
        m1 = m - p;
    else if (kind == 'r')
        n1 = n + p;
    else
        n1 = n - p;
    void *A1 = bg_alloc(dt, (size_t)n1 * m1), *b1 = bg_alloc(dt, (size_t)n1 * r);
    size_t es = qru_dtype_size(dt);
    /* A1 */
    for (int j = 0; j < m1; ++j) {
        char *dst = (char *)A1 + es * (size_t)j * n1;
        if (kind == 'c' && j >= k && j < k + p) {
            memcpy(dst, (const char *)U + es * (size_t)(j - k) * n, es * n);
            continue;
        }
        int sj = j;
        if (kind == 'c' && j >= k + p)
            sj = j - p;
        if (kind == 'C' && j >= k)
            sj = j + p;
        const char *src = (const char *)A + es * (size_t)sj * n;
        if (kind == 'c' || kind == 'C') {
            memcpy(dst, src, es * n);
        } else if (kind == 'r') {
            memcpy(dst, src, es * k);
            for (int i = 0; i < p; ++i)
                memcpy(dst + es * (k + i),
                       (const char *)U + es * (i + (size_t)j * p), es);
            memcpy(dst + es * (k + p), src + es * k, es * (n - k));
        } else { /* 'R' */
            memcpy(dst, src, es * k);
            memcpy(dst + es * k, src + es * (k + p), es * (n - k - p));
        }
    }
    /* b1 */
    for (int j = 0; j < r; ++j) {
        char *dst = (char *)b1 + es * (size_t)j * n1;
        const char *src = (const char *)b + es * (size_t)j * n;
        if (kind == 'r') {
            memcpy(dst, src, es * k);
            for (int i = 0; i < p; ++i)
                memcpy(dst + es * (k + i),
                       (const char *)e + es * (i + (size_t)j * p), es);
            memcpy(dst + es * (k + p), src + es * k, es * (n - k));
        } else if (kind == 'R') {
            memcpy(dst, src, es * k);
            memcpy(dst + es * k, src + es * (k + p), es * (n - k - p));
        } else {
            memcpy(dst, src, es * n);
        }
    }
    *A1p = A1;
    *b1p = b1;
    *n1p = n1;
    *m1p = m1;
}

/* ---- tables --------------------------------------------------------------- */

struct bg_table {
    char path[1024];
    char head[8192];
    size_t hlen;
    int ncol;
    char **cols;
    double *v;
    int nrow, cap;
};

/* Tables still open when the program exits (a FATAL error) are written
 * with what they hold, so one failing point does not lose the others. */
#define BG_MAX_OPEN 16
static bg_table *g_open[BG_MAX_OPEN];

static void flush_open_tables(void)
{
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (g_open[i]) {
            bg_table *t = g_open[i];
            g_open[i] = NULL;
            bg_table_note(t, "ABORTED: the program stopped with an error "
                             "(see its log); rows above are complete");
            bg_table_close(t);
        }
}

/* SIGTERM (the `timeout` of scripts/gpu-check): write what the open tables
 * hold before dying.  Not async-signal-safe in theory; good enough for a
 * benchmark that is being killed anyway. */
static void on_term(int sig)
{
    (void)sig;
    exit(124); /* runs flush_open_tables */
}

bg_table *bg_table_new(const bg_opts *o, const char *name, qru_dtype dt,
                       const char *device, const char *title,
                       const char *cols)
{
    static int registered;
    bg_table *t = calloc(1, sizeof *t);
    if (!t)
        exit(1);
    if (!registered) {
        atexit(flush_open_tables);
        signal(SIGTERM, on_term);
        registered = 1;
    }
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (!g_open[i]) {
            g_open[i] = t;
            break;
        }
    snprintf(t->path, sizeof t->path, "%s/%s_%c", o->outdir, name,
             bg_dtype_char(dt));
    char *cs = strdup(cols);
    for (char *w = strtok(cs, " "); w; w = strtok(NULL, " ")) {
        t->cols = realloc(t->cols, sizeof(char *) * (size_t)(t->ncol + 1));
        t->cols[t->ncol++] = strdup(w);
    }
    free(cs);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%MZ", &tmv);
    bg_table_note(t, "qru %s %s: %s", qru_version(), o->prog, title);
    bg_table_note(t, "device: %s", device);
    bg_table_note(t, "date: %s", date);
    bg_table_note(t, "precision: %s", bg_dtype_name(dt));
    return t;
}

void bg_table_note(bg_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (t->hlen + 4 < sizeof t->head) {
        t->hlen += (size_t)snprintf(t->head + t->hlen, sizeof t->head - t->hlen,
                                    "%% ");
        if (t->hlen < sizeof t->head) {
            int w = vsnprintf(t->head + t->hlen, sizeof t->head - t->hlen, fmt,
                              ap);
            if (w > 0)
                t->hlen += (size_t)w;
        }
        if (t->hlen + 1 < sizeof t->head) {
            t->head[t->hlen++] = '\n';
            t->head[t->hlen] = '\0';
        } else {
            t->hlen = sizeof t->head - 1;
        }
    }
    va_end(ap);
}

void bg_table_row(bg_table *t, const double *v)
{
    if (t->nrow == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = realloc(t->v, sizeof(double) * (size_t)t->cap * t->ncol);
        if (!t->v)
            exit(1);
    }
    memcpy(t->v + (size_t)t->nrow * t->ncol, v, sizeof(double) * t->ncol);
    t->nrow++;
}

static void fmt_val(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "NaN");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.5g", v);
}

void bg_table_close(bg_table *t)
{
    for (int i = 0; i < BG_MAX_OPEN; ++i)
        if (g_open[i] == t)
            g_open[i] = NULL;
    int *w = calloc((size_t)t->ncol, sizeof(int));
    char buf[64];
    for (int c = 0; c < t->ncol; ++c) {
        w[c] = (int)strlen(t->cols[c]);
        for (int i = 0; i < t->nrow; ++i) {
            fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
            if ((int)strlen(buf) > w[c])
                w[c] = (int)strlen(buf);
        }
    }
    char path[1100];
    snprintf(path, sizeof path, "%s.txt", t->path);
    FILE *ft = fopen(path, "w");
    snprintf(path, sizeof path, "%s.csv", t->path);
    FILE *fc = fopen(path, "w");
    if (!ft || !fc)
        fprintf(stderr, "WARNING: cannot write %s.{txt,csv}\n", t->path);
    FILE *outs[2] = {stdout, ft};
    for (int f = 0; f < 2; ++f) {
        FILE *o = outs[f];
        if (!o)
            continue;
        fputs(t->head, o);
        fputs("%", o);
        for (int c = 0; c < t->ncol; ++c)
            fprintf(o, " %*s", c ? w[c] : w[c] - 1 > 0 ? w[c] - 1 : 1,
                    t->cols[c]);
        fputs("\n", o);
        for (int i = 0; i < t->nrow; ++i) {
            for (int c = 0; c < t->ncol; ++c) {
                fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
                fprintf(o, "%s%*s", c ? " " : "", w[c], buf);
            }
            fputs("\n", o);
        }
        fputs("\n", o);
    }
    if (fc) {
        for (int c = 0; c < t->ncol; ++c)
            fprintf(fc, "%s%s", c ? "," : "", t->cols[c]);
        fputs("\n", fc);
        for (int i = 0; i < t->nrow; ++i) {
            for (int c = 0; c < t->ncol; ++c) {
                fmt_val(buf, sizeof buf, t->v[(size_t)i * t->ncol + c]);
                fprintf(fc, "%s%s", c ? "," : "", buf);
            }
            fputs("\n", fc);
        }
    }
    if (ft)
        fclose(ft);
    if (fc)
        fclose(fc);
    fflush(stdout);
    for (int c = 0; c < t->ncol; ++c)
        free(t->cols[c]);
    free(t->cols);
    free(t->v);
    free(w);
    free(t);
}

/* ---- the CPU side ----------------------------------------------------------- */

void bg_host_qr(qru_dtype dt, int n, int m, int r, const void *A,
                const void *b, int withq, void **Rp, void **dp, void **Qp)
{
    size_t es = qru_dtype_size(dt);
    void *R = bg_alloc(dt, (size_t)n * m), *d = bg_alloc(dt, (size_t)n * r);
    void *tau = bg_alloc(dt, (size_t)m);
    void *Q = withq ? bg_alloc(dt, (size_t)n * n) : NULL;
    memcpy(R, A, es * (size_t)n * m);
    memcpy(d, b, es * (size_t)n * r);
    lapack_int info;
    if (dt == QRU_DOUBLE) {
        info = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, R, n, tau);
        if (!info)
            info = LAPACKE_dormqr(LAPACK_COL_MAJOR, 'L', 'T', n, r, m, R, n,
                                  tau, d, n);
        if (!info && Q) {
            LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', n, m, R, n, Q, n);
            info = LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, m, Q, n, tau);
        }
    } else {
        info = LAPACKE_sgeqrf(LAPACK_COL_MAJOR, n, m, R, n, tau);
        if (!info)
            info = LAPACKE_sormqr(LAPACK_COL_MAJOR, 'L', 'T', n, r, m, R, n,
                                  tau, d, n);
        if (!info && Q) {
            LAPACKE_slacpy(LAPACK_COL_MAJOR, 'A', n, m, R, n, Q, n);
            info = LAPACKE_sorgqr(LAPACK_COL_MAJOR, n, n, m, Q, n, tau);
        }
    }
    if (info) {
        fprintf(stderr, "FATAL: LAPACKE QR failed: %d\n", (int)info);
        exit(1);
    }
    free(tau);
    *Rp = R;
    *dp = d;
    *Qp = Q;
}

const char *bg_cpu_threads(void)
{
    static char buf[128];
    const char *s = getenv("OPENBLAS_NUM_THREADS");
    const char *o = getenv("OMP_NUM_THREADS");
    if (s && *s)
        snprintf(buf, sizeof buf, "OPENBLAS_NUM_THREADS=%s", s);
    else if (o && *o)
        snprintf(buf, sizeof buf, "OMP_NUM_THREADS=%s", o);
    else
        snprintf(buf, sizeof buf, "OpenBLAS default threads (%ld cores)",
                 sysconf(_SC_NPROCESSORS_ONLN));
    return buf;
}

/* ---- counting backend calls ---------------------------------------------------- */

void bg_count_reset(qru_context *ctx)
{
    bg_check(qru_context_reset_stats(ctx), "qru_context_reset_stats");
}

long bg_count_get(const qru_context *ctx)
{
    qru_context_stats st;
    bg_check(qru_context_get_stats(ctx, &st), "qru_context_get_stats");
    return (long)st.calls;
}

/* ---- the GPU side ----------------------------------------------------------- */

#ifdef QRU_HAVE_CUDA

void bg_cuda_check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "FATAL: %s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

static void solver_check(cusolverStatus_t s, const char *what)
{
    if (s != CUSOLVER_STATUS_SUCCESS) {
        fprintf(stderr, "FATAL: %s: cuSOLVER status %d\n", what, (int)s);
        exit(1);
    }
}

static void blas_check(cublasStatus_t s, const char *what)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FATAL: %s: cuBLAS status %d\n", what, (int)s);
        exit(1);
    }
}

int bg_gpu_open(bg_gpu *g)
{
    memset(g, 0, sizeof *g);
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        (void)cudaGetLastError();
        return BG_SKIP;
    }
    bg_cuda_check(cudaSetDevice(0), "cudaSetDevice");
    bg_cuda_check(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking),
                  "cudaStreamCreate");
    blas_check(cublasCreate(&g->blas), "cublasCreate");
    blas_check(cublasSetStream(g->blas, g->stream), "cublasSetStream");
    solver_check(cusolverDnCreate(&g->solver), "cusolverDnCreate");
    solver_check(cusolverDnSetStream(g->solver, g->stream),
                 "cusolverDnSetStream");
    bg_cuda_check(cudaEventCreate(&g->e0), "cudaEventCreate");
    bg_cuda_check(cudaEventCreate(&g->e1), "cudaEventCreate");
    bg_cuda_check(cudaMalloc((void **)&g->dinfo, sizeof(int)), "cudaMalloc");
    qru_context_options opt;
    qru_context_options_init(&opt);
    opt.device = 0;
    opt.stream = g->stream; /* events on this stream time qru's work */
    int st = qru_context_create_ex(QRU_BACKEND_CUDA, &opt, &g->ctx);
    if (st == QRU_ERR_BACKEND_UNAVAILABLE)
        return BG_SKIP;
    bg_check(st, "qru_context_create_ex(cuda)");
    struct cudaDeviceProp prop;
    bg_cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    snprintf(g->device, sizeof g->device,
             "%.200s, %d SMs, %.0f GiB, CUDA driver %d.%d runtime %d.%d",
             prop.name, prop.multiProcessorCount,
             (double)prop.totalGlobalMem / 1073741824.0, drv / 1000,
             (drv % 1000) / 10, rt / 1000, (rt % 1000) / 10);
    return 0;
}

void bg_gpu_close(bg_gpu *g)
{
    cudaStreamSynchronize(g->stream);
    qru_context_destroy(g->ctx);
    cudaFree(g->work);
    cudaFree(g->dinfo);
    cudaEventDestroy(g->e0);
    cudaEventDestroy(g->e1);
    cusolverDnDestroy(g->solver);
    cublasDestroy(g->blas);
    cudaStreamDestroy(g->stream);
}

void bg_ev_start(bg_gpu *g)
{
    bg_cuda_check(cudaEventRecord(g->e0, g->stream), "cudaEventRecord");
}

double bg_ev_stop(bg_gpu *g)
{
    bg_cuda_check(cudaEventRecord(g->e1, g->stream), "cudaEventRecord");
    bg_cuda_check(cudaEventSynchronize(g->e1), "cudaEventSynchronize");
    float ms = 0.0f;
    bg_cuda_check(cudaEventElapsedTime(&ms, g->e0, g->e1),
                  "cudaEventElapsedTime");
    bg_cuda_check(cudaGetLastError(), "a kernel");
    return 1e-3 * (double)ms;
}

void *bg_dev_alloc(size_t bytes)
{
    void *p = NULL;
    bg_cuda_check(cudaMalloc(&p, bytes ? bytes : 256), "cudaMalloc");
    return p;
}

void *bg_dev_upload(qru_dtype dt, size_t len, const void *host)
{
    void *p = bg_dev_alloc(len * qru_dtype_size(dt));
    bg_cuda_check(cudaMemcpy(p, host, len * qru_dtype_size(dt),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy H2D");
    /* a pageable cudaMemcpy may return before the DMA has landed, and the
     * benchmark's stream does not wait for the legacy stream */
    bg_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    return p;
}

void bg_dev_download(qru_dtype dt, size_t len, const void *dev, void *host)
{
    bg_cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    bg_cuda_check(cudaMemcpy(host, dev, len * qru_dtype_size(dt),
                             cudaMemcpyDeviceToHost),
                  "cudaMemcpy D2H");
}

qru_matrix *bg_wrap(bg_gpu *g, qru_dtype dt, int rows, int cols, void *dev,
                    int ld)
{
    qru_matrix *M = NULL;
    bg_check(qru_matrix_wrap(g->ctx, dt, rows, cols, dev, ld, &M),
             "qru_matrix_wrap");
    return M;
}

static void *work(bg_gpu *g, qru_dtype dt, int lwork)
{
    size_t bytes = (size_t)(lwork > 0 ? lwork : 1) * qru_dtype_size(dt);
    if (bytes > g->work_bytes) {
        bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
        cudaFree(g->work);
        g->work = bg_dev_alloc(bytes);
        g->work_bytes = bytes;
    }
    return g->work;
}

void bg_geqrf(bg_gpu *g, qru_dtype dt, int n, int m, void *A, int lda,
              void *tau)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDgeqrf_bufferSize(g->solver, n, m, A, lda, &lw),
                     "Dgeqrf_bufferSize");
        solver_check(cusolverDnDgeqrf(g->solver, n, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dgeqrf");
    } else {
        solver_check(cusolverDnSgeqrf_bufferSize(g->solver, n, m, A, lda, &lw),
                     "Sgeqrf_bufferSize");
        solver_check(cusolverDnSgeqrf(g->solver, n, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sgeqrf");
    }
}

void bg_ormqr_lt(bg_gpu *g, qru_dtype dt, int n, int r, int m, const void *A,
                 int lda, const void *tau, void *C, int ldc)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDormqr_bufferSize(
                         g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, m, A,
                         lda, tau, C, ldc, &lw),
                     "Dormqr_bufferSize");
        solver_check(cusolverDnDormqr(g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T,
                                      n, r, m, A, lda, tau, C, ldc,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dormqr");
    } else {
        solver_check(cusolverDnSormqr_bufferSize(
                         g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T, n, r, m, A,
                         lda, tau, C, ldc, &lw),
                     "Sormqr_bufferSize");
        solver_check(cusolverDnSormqr(g->solver, CUBLAS_SIDE_LEFT, CUBLAS_OP_T,
                                      n, r, m, A, lda, tau, C, ldc,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sormqr");
    }
}

void bg_orgqr(bg_gpu *g, qru_dtype dt, int n, int q, int m, void *A, int lda,
              const void *tau)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDorgqr_bufferSize(g->solver, n, q, m, A, lda,
                                                 tau, &lw),
                     "Dorgqr_bufferSize");
        solver_check(cusolverDnDorgqr(g->solver, n, q, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Dorgqr");
    } else {
        solver_check(cusolverDnSorgqr_bufferSize(g->solver, n, q, m, A, lda,
                                                 tau, &lw),
                     "Sorgqr_bufferSize");
        solver_check(cusolverDnSorgqr(g->solver, n, q, m, A, lda, tau,
                                      work(g, dt, lw), lw, g->dinfo),
                     "Sorgqr");
    }
}

void bg_trsm_lun(bg_gpu *g, qru_dtype dt, int m, int r, const void *A,
                 int lda, void *B, int ldb)
{
    if (dt == QRU_DOUBLE) {
        const double one = 1.0;
        blas_check(cublasDtrsm(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                               CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, r, &one,
                               A, lda, B, ldb),
                   "Dtrsm");
    } else {
        const float one = 1.0f;
        blas_check(cublasStrsm(g->blas, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER,
                               CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, r, &one,
                               A, lda, B, ldb),
                   "Strsm");
    }
}

void bg_potrf(bg_gpu *g, qru_dtype dt, int n, void *A, int lda)
{
    int lw = 0;
    if (dt == QRU_DOUBLE) {
        solver_check(cusolverDnDpotrf_bufferSize(g->solver,
                                                 CUBLAS_FILL_MODE_LOWER, n, A,
                                                 lda, &lw),
                     "Dpotrf_bufferSize");
        solver_check(cusolverDnDpotrf(g->solver, CUBLAS_FILL_MODE_LOWER, n, A,
                                      lda, work(g, dt, lw), lw, g->dinfo),
                     "Dpotrf");
    } else {
        solver_check(cusolverDnSpotrf_bufferSize(g->solver,
                                                 CUBLAS_FILL_MODE_LOWER, n, A,
                                                 lda, &lw),
                     "Spotrf_bufferSize");
        solver_check(cusolverDnSpotrf(g->solver, CUBLAS_FILL_MODE_LOWER, n, A,
                                      lda, work(g, dt, lw), lw, g->dinfo),
                     "Spotrf");
    }
}

void bg_ref_init(bg_gpu *g, bg_ref *f, qru_dtype dt, int n, int m, int r,
                 const void *hA, const void *hb, int withq)
{
    (void)g;
    size_t es = qru_dtype_size(dt);
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->n = n;
    f->m = m;
    f->r = r;
    f->withq = withq;
    f->A0 = bg_dev_upload(dt, (size_t)n * m, hA);
    f->b0 = bg_dev_upload(dt, (size_t)n * r, hb);
    f->A = bg_dev_alloc(es * (size_t)n * m);
    f->b = bg_dev_alloc(es * (size_t)n * r);
    f->tau = bg_dev_alloc(es * (size_t)m);
    f->Q = withq ? bg_dev_alloc(es * (size_t)n * n) : NULL;
}

void bg_ref_free(bg_ref *f)
{
    cudaDeviceSynchronize();
    cudaFree(f->A0);
    cudaFree(f->b0);
    cudaFree(f->A);
    cudaFree(f->b);
    cudaFree(f->tau);
    cudaFree(f->Q);
    memset(f, 0, sizeof *f);
}

static void ref_reset(bg_gpu *g, bg_ref *f)
{
    size_t es = qru_dtype_size(f->dt);
    bg_cuda_check(cudaMemcpyAsync(f->A, f->A0, es * (size_t)f->n * f->m,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy A");
    bg_cuda_check(cudaMemcpyAsync(f->b, f->b0, es * (size_t)f->n * f->r,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy b");
}

static void check_info(bg_gpu *g, const char *what)
{
    int info = 0;
    bg_cuda_check(cudaMemcpyAsync(&info, g->dinfo, sizeof info,
                                  cudaMemcpyDeviceToHost, g->stream),
                  "info");
    bg_cuda_check(cudaStreamSynchronize(g->stream), "sync");
    if (info != 0) {
        fprintf(stderr, "FATAL: %s: info = %d\n", what, info);
        exit(1);
    }
}

double bg_ref_solve(bg_gpu *g, bg_ref *f)
{
    ref_reset(g, f);
    bg_ev_start(g);
    bg_geqrf(g, f->dt, f->n, f->m, f->A, f->n, f->tau);
    bg_ormqr_lt(g, f->dt, f->n, f->r, f->m, f->A, f->n, f->tau, f->b, f->n);
    bg_trsm_lun(g, f->dt, f->m, f->r, f->A, f->n, f->b, f->n);
    double t = bg_ev_stop(g);
    check_info(g, "cuSOLVER least squares");
    return t;
}

double bg_ref_orgqr(bg_gpu *g, bg_ref *f)
{
    size_t es = qru_dtype_size(f->dt);
    bg_cuda_check(cudaMemcpyAsync(f->Q, f->A, es * (size_t)f->n * f->m,
                                  cudaMemcpyDeviceToDevice, g->stream),
                  "copy reflectors");
    bg_ev_start(g);
    bg_orgqr(g, f->dt, f->n, f->n, f->m, f->Q, f->n, f->tau);
    double t = bg_ev_stop(g);
    check_info(g, "cuSOLVER orgqr");
    return t;
}

void bg_ref_factor(bg_gpu *g, bg_ref *f)
{
    ref_reset(g, f);
    bg_geqrf(g, f->dt, f->n, f->m, f->A, f->n, f->tau);
    bg_ormqr_lt(g, f->dt, f->n, f->r, f->m, f->A, f->n, f->tau, f->b, f->n);
    check_info(g, "cuSOLVER geqrf/ormqr");
    if (f->withq) {
        size_t es = qru_dtype_size(f->dt);
        bg_cuda_check(cudaMemcpyAsync(f->Q, f->A, es * (size_t)f->n * f->m,
                                      cudaMemcpyDeviceToDevice, g->stream),
                      "copy reflectors");
        bg_orgqr(g, f->dt, f->n, f->n, f->m, f->Q, f->n, f->tau);
        check_info(g, "cuSOLVER orgqr");
    }
}

#endif /* QRU_HAVE_CUDA */

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
    default:
        return flops_remove_rows(n, m, p, k, r);
    }
}

static int run_update(qru_context *ctx, char kind, qru_lsq *f, int k, int p,
                      const qru_matrix *U, const qru_matrix *e)
{
    switch (kind) {
    case 'c':
        return qru_lsq_add_cols(f, k, U);
    case 'C':
        return qru_lsq_remove_cols(f, k, p);
    case 'r':
        return qru_lsq_add_rows(f, k, U, e);
    default:
        return qru_lsq_remove_rows(f, k, p);
    }
}

/* the host data of one problem */
typedef struct prob {
    qru_dtype dt;
    char kind;
    int n, m, p, k, r, keepq, n1, m1;
    int ur, uc; /* rows, columns of U (0 when the update has none) */
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
    P->keepq = pt->keepq || kind == 'c' || kind == 'R';
    unsigned long long seed = 0x9e3779b97f4a7c15ULL ^
                              (unsigned long long)(pt->n * 131 + pt->m * 7 +
                                                   pt->p * 3 + pt->k);
    P->A = bg_alloc(dt, (size_t)P->n * P->m);
    P->b = bg_alloc(dt, (size_t)P->n * P->r);
    bg_rand(dt, (size_t)P->n * P->m, P->A, &seed);
    bg_rand(dt, (size_t)P->n * P->r, P->b, &seed);
    if (kind == 'c') {
        P->ur = P->n;
        P->uc = P->p;
    } else if (kind == 'r') {
        P->ur = P->p;
        P->uc = P->m;
        P->e = bg_alloc(dt, (size_t)P->p * P->r);
        bg_rand(dt, (size_t)P->p * P->r, P->e, &seed);
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
    opt->flags = P->keepq ? QRU_LSQ_KEEP_Q : 0u;
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
        bg_check(qru_matrix_wrap(cctx, dt, P->p, P->r, P->e, P->p, &e), "wrap");
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
        bg_check(run_update(cctx, P->kind, f, P->k, P->p, U, e),
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
    lapack_int info =
        P->dt == QRU_DOUBLE
            ? LAPACKE_dtrtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->m1, P->r, R,
                             P->n1, d, P->n1)
            : LAPACKE_strtrs(LAPACK_COL_MAJOR, 'U', 'N', 'N', P->m1, P->r, R,
                             P->n1, d, P->n1);
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

static void notes_common(bg_table *t, const char *sets, char kind)
{
    bg_table_note(t, "sets: %s", sets);
    bg_table_note(t, "update algorithm: %s (QRU_BENCH_ALG)",
                  bench_alg_name());
    bg_table_note(t, "times in seconds, medians; gflop = work of the update "
                     "counted along the code (src/qru_flops.h), r = 1 "
                     "right-hand side; default update block size");
    if (kind == 'c' || kind == 'R')
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
    double gflop =
        1e-9 * bg_update_flops(P->kind, n, m, P->p, P->k, r, P->keepq);
    double fref = flops_lsq_refactor(P->n1, P->m1, r);
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
        de = bg_dev_upload(dt, (size_t)P->p * r, P->e);
        ew = bg_wrap(g, dt, P->p, r, de, P->p);
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
        bg_check(run_update(g->ctx, P->kind, f, P->k, P->p, Uw, ew), "update");
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
        bg_count_reset(g->ctx);
        bg_check(run_update(g->ctx, P->kind, f, P->k, P->p, Uw, ew), "update");
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
                bg_check(qru_matrix_create(ctx, dt, P->p, r, 0, &em), "create");
                bg_check(qru_matrix_upload(em, P->e, P->p), "upload");
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
            bg_check(run_update(ctx, P->kind, f, P->k, P->p, Um, em), "update");
            bg_check(qru_context_sync(ctx), "sync");
            double t2 = bg_now();
            qru_matrix *R1 = NULL, *d1 = NULL, *Q1 = NULL;
            bg_check(qru_matrix_create(ctx, dt, n1, m1, 0, &R1), "create");
            bg_check(qru_lsq_get_r(f, R1), "qru_lsq_get_r");
            bg_check(qru_matrix_download(R1, oR, n1), "download");
            bg_check(qru_matrix_create(ctx, dt, n1, r, 0, &d1), "create");
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

    if (o.cpu_only) {
        /* the CPU backend alone: the CPU side of the TUT comparison */
        for (int pr = 0; pr < 2; ++pr) {
            qru_dtype dt = pr == 0 ? QRU_DOUBLE : QRU_FLOAT;
            if (!(o.prec & (dt == QRU_DOUBLE ? 2 : 1)))
                continue;
            char name[128];
            snprintf(name, sizeof name, "%s_cpu", prog);
            bg_table *t = bg_table_new(&o, name, dt, qru_context_device_name(cctx),
                                       title, CPU_COLS);
            notes_common(t, sets, kind);
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
                double gf = 1e-9 * bg_update_flops(kind, P.n, P.m, P.p, P.k,
                                                   P.r, P.keepq);
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
    /* both precisions' tables stay open and the points run in the outer
     * loop, so that a time budget cuts the same sweep points of both */
    bg_table *ts[2] = {NULL, NULL}, *tt[2] = {NULL, NULL};
    for (int pr = 0; pr < 2; ++pr) {
        qru_dtype dt = pr == 0 ? QRU_DOUBLE : QRU_FLOAT;
        if (!(o.prec & (dt == QRU_DOUBLE ? 2 : 1)))
            continue;
        char name[128];
        if (o.tus) {
            snprintf(name, sizeof name, "%s_tus", prog);
            bg_table *t = ts[pr] =
                bg_table_new(&o, name, dt, g.device, title, TUS_COLS);
            notes_common(t, sets, kind);
            bg_table_note(t, "TUS: data on the device; t_update: qru update "
                             "of a qru_lsq (CUDA events);");
            bg_table_note(t, "t_refactor: cuSOLVER geqrf + ormqr (Q'b) + "
                             "cuBLAS trsm on A1; t_orgqr: forming the full "
                             "Q of A1 (orgqr) on top, keepq only;");
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
            notes_common(t, sets, kind);
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
        for (int pr = 0; pr < 2; ++pr) {
            qru_dtype dt = pr == 0 ? QRU_DOUBLE : QRU_FLOAT;
            if (!(o.prec & (dt == QRU_DOUBLE ? 2 : 1)))
                continue;
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
    for (int pr = 0; pr < 2; ++pr) {
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
    printf("%s: skipped: no CUDA device (this build has no CUDA backend; run "
           "with --cpu-only for the CPU side)\n",
           prog);
    qru_context_destroy(cctx);
    return BG_SKIP;
#endif
}
