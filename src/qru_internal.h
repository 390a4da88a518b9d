/*
 * qru internal interface: the context and matrix structures and the backend
 * table that every backend (src/cpu, cuda/, opencl/) implements.
 *
 * The algorithm layer (the .c files in src/) is written once, for both precisions,
 * against this table: it passes the element type at run time and addresses
 * memory as (handle, element offset) pairs, so a backend may use host
 * pointers, CUDA device pointers or OpenCL cl_mem buffers alike.
 *
 * Each op and its contract are in the op list, qru_ops.h.
 */
#ifndef QRU_INTERNAL_H
#define QRU_INTERNAL_H

#include <float.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "qru.h"
#include "qru_ops.h"
#include "qru_tuning.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "MAJOR.MINOR.PATCH" of include/qru.h (qru_version; a backend module
 * compares it with its library's, qru_module.h). */
#define QRU_STR_(x) #x
#define QRU_STR(x) QRU_STR_(x)
#define QRU_VERSION_STRING                                                     \
    QRU_STR(QRU_VERSION_MAJOR)                                                 \
    "." QRU_STR(QRU_VERSION_MINOR) "." QRU_STR(QRU_VERSION_PATCH)

/* The error idiom of the library: evaluate a status expression and
 * return its value from the calling function unless it is 0. */
#define QRU_TRY(x)                                                             \
    do {                                                                       \
        int st_ = (x);                                                         \
        if (st_ != 0)                                                          \
            return st_;                                                        \
    } while (0)

/* The same for a function that must release something first: store the
 * status in the function's variable st and jump to its label done. */
#define QRU_TRY_GOTO(x)                                                        \
    do {                                                                       \
        if ((st = (x)) != 0)                                                   \
            goto done;                                                         \
    } while (0)

/* ---- the error text (status.c; include/qru.h, qru_last_error) ----
 *
 * qru_fail records why a status is born: the text (printf format) and the
 * status, which it returns.  qru_fail_arg records "argument i: <text>" and
 * returns -i.  qru_ret(ctx, routine, st), called where a public routine
 * returns st, puts "routine: " in front of the recorded text (or of
 * qru_strerror(st) when the origin recorded nothing for st) and copies it
 * to ctx (which may be NULL); it returns st.  qru_fail_seq counts the
 * qru_fail calls of the thread, so that a caller can see whether a callee
 * recorded a failure.  qru_failv is qru_fail with a va_list (a backend
 * module's qru_fail calls it, qru_module.h); qru_fail_why(st) is the text
 * qru_ret would put after the routine's name: the origin's text if it
 * recorded st, else qru_strerror(st). */
#define QRU_ERRMSG_LEN 512
#if defined(__GNUC__) || defined(__clang__)
#define QRU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define QRU_PRINTF(f, a)
#endif
int qru_fail(int status, const char *fmt, ...) QRU_PRINTF(2, 3);
int qru_failv(int status, const char *fmt, va_list ap) QRU_PRINTF(2, 0);
const char *qru_fail_why(int status);
int qru_fail_arg(int i, const char *fmt, ...) QRU_PRINTF(2, 3);
int qru_ret(const qru_context *ctx, const char *routine, int status);
unsigned long qru_fail_seq(void);

/* Argument i of the calling public routine must satisfy cond; otherwise
 * return -i with the text "<routine>: argument i: <fmt ...>", which
 * should name the argument, its value and the rule it broke. */
#define QRU_ARG(ctx, i, cond, ...)                                             \
    do {                                                                       \
        if (!(cond))                                                           \
            return qru_ret((ctx), __func__,                                    \
                           qru_fail_arg((i), __VA_ARGS__));                    \
    } while (0)

/* The status of a failed malloc in the library's host code, recorded. */
#define QRU_HOST_ALLOC_FAILED                                                  \
    qru_fail(QRU_ERR_ALLOC, "allocating host memory failed")

/* Return the status x from the calling public routine (with its text). */
#define QRU_RET(ctx, x) return qru_ret((ctx), __func__, (x))

/* Evaluate x; unless it is 0, return it from the calling public routine
 * (with its text). */
#define QRU_CHECK(ctx, x)                                                      \
    do {                                                                       \
        int st_ = (x);                                                         \
        if (st_ != 0)                                                          \
            return qru_ret((ctx), __func__, st_);                              \
    } while (0)

/** Backend memory address: a buffer handle plus an offset in elements. */
typedef struct qru_ptr {
    void *h;    /* host pointer, CUDA device pointer or cl_mem */
    size_t off; /* offset in elements of the matrix' dtype */
} qru_ptr;

static inline qru_ptr qru_ptr_add(qru_ptr p, size_t elems)
{
    p.off += elems;
    return p;
}

/* Element (i, j) of a column-major array starting at p with leading
 * dimension ld. */
static inline qru_ptr qru_ptr_at(qru_ptr p, int ld, int i, int j)
{
    p.off += (size_t)i + (size_t)j * (size_t)ld;
    return p;
}

/* Complex element types (include/qru.h): interleaved (re, im) pairs of
 * their real base type.  One element of dt takes qru_dtype_size(dt)
 * bytes; qru_dtype_real(dt) is the base type (dt itself for float and
 * double), whose eps the tolerances use; qru_dtype_complex(dt) is 1 for
 * the complex types. */
static inline int qru_dtype_complex(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE;
}
static inline qru_dtype qru_dtype_real(qru_dtype dt)
{
    return dt == QRU_COMPLEX_DOUBLE ? QRU_DOUBLE
           : dt == QRU_COMPLEX_FLOAT ? QRU_FLOAT
                                     : dt;
}
static inline size_t qru_dtype_size(qru_dtype dt)
{
    size_t s = qru_dtype_real(dt) == QRU_DOUBLE ? sizeof(double)
                                                : sizeof(float);
    return qru_dtype_complex(dt) ? 2 * s : s;
}
/* The unit roundoff of dt's base type (DBL_EPSILON or FLT_EPSILON). */
#define qru_dtype_eps(dt)                                                      \
    (qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON)

/* *bytes = es * rows * cols for a buffer of rows x cols elements of size
 * es; QRU_ERR_ALLOC when that does not fit in a size_t (sizes and
 * capacities are ints, so their product can wrap to a small request). */
static inline int qru_bytes(size_t es, int rows, int cols, size_t *bytes)
{
    size_t r = rows > 0 ? (size_t)rows : 0, c = cols > 0 ? (size_t)cols : 0;
    if (r && c && (c > SIZE_MAX / r || es > SIZE_MAX / (r * c)))
        return QRU_ERR_ALLOC;
    *bytes = es * r * c;
    return 0;
}

typedef struct qru_backend_ops qru_backend_ops;

/* Workspace pool: one growing buffer per context (geometric growth), plus a
 * small host scratch buffer.  Algorithms take their whole workspace at the
 * start of a call and carve it with qru_ptr offsets. */
typedef struct qru_workspace {
    void *h;      /* backend handle */
    size_t bytes; /* capacity */
} qru_workspace;

/* The backend table: its identity and lifecycle, the ops of the op list
 * (qru_ops.h, with each op's contract) and the backend's tuning defaults. */
struct qru_backend_ops {
    const char *name;
    qru_backend id;

    /* 0 if the backend can create a context on this machine, else
     * QRU_ERR_BACKEND_UNAVAILABLE. */
    int (*probe)(void);
    int (*init)(qru_context *ctx, const qru_context_options *opt);
    void (*fini)(qru_context *ctx);
    int (*supports)(const qru_context *ctx, qru_dtype dt); /* 1 or 0 */
    qru_device_type (*device_type)(const qru_context *ctx);
    int (*mem_alloc)(qru_context *ctx, size_t bytes, void **h);
    void (*mem_free)(qru_context *ctx, void *h);
    /* Where the memory of the handle h lies (for qru_mem_overlap): *base
     * names the allocation it belongs to and *pos is its first byte there.
     * NULL: handles are addresses in one address space (host memory,
     * CUDA's unified addressing), base NULL and pos the address. */
    void (*mem_locate)(const qru_context *ctx, const void *h,
                       const void **base, uintptr_t *pos);

#define QRU_OP_FIELD_(name, params, args, need, stat) int(*name) params;
    QRU_OPS(QRU_OP_FIELD_)
#undef QRU_OP_FIELD_

    /* the tuning defaults (qru_tuning.h), one block per element type:
     * [QRU_TUNING_FLOAT] and [QRU_TUNING_DOUBLE] */
    qru_tuning tuning[2];
    /* OPT ops of the backend that take float and double only: bit
     * QRU_OP_x set where the backend's op x runs its reference op itself
     * for a complex type (qru_ref_x), so that for complex data it counts
     * as a reference op (qru_op_native_dt: the statistics, the plans and
     * the algorithms' choices of the fused paths). */
    unsigned long long real_only_ops;
    /* The ops that take complex data on this backend: bit QRU_OP_x set
     * where ctx->ops->x computes for a complex type (the backend's op, or
     * the reference op it runs or the context puts in its place); the
     * others return QRU_ERR_UNSUPPORTED for it.  A routine refuses complex
     * data up front where it may reach an op outside this set
     * (qru_check_complex_ops). */
    unsigned long long complex_ops;
};

/* The index of an element type's tuning block (qru_backend_ops.tuning,
 * qru_context.tuning). */
enum { QRU_TUNING_FLOAT = 0, QRU_TUNING_DOUBLE = 1 };

/* The tuning block of ctx for element type dt. */
#define qru_ctx_tuning(ctx, dt)                                               \
    (&(ctx)->tuning[qru_dtype_real(dt) == QRU_DOUBLE ? QRU_TUNING_DOUBLE     \
                                                    : QRU_TUNING_FLOAT])

/* Loads the environment into ctx->tuning and ctx->env (tuning.c); called
 * once, at context creation, before the backend's init. */
void qru_tuning_load_env(qru_context *ctx);
/* The environment variable QRU_MODULE_DIR (tuning.c): the one directory
 * the backend modules are loaded from, or NULL when unset or empty (read
 * at each module load, module_loader.c). */
const char *qru_env_module_dir(void);

/* qru_context_set_tuning / qru_context_get_tuning for every knob: param is
 * a qru_tuning_param or a private QRU_TUNE_<PARAM> (qru_tuning.h); the
 * same checks and statuses (tuning.c). */
int qru_ctx_set_tuning(qru_context *ctx, qru_dtype dtype, int param,
                       int value);
int qru_ctx_get_tuning(const qru_context *ctx, qru_dtype dtype, int param,
                       int *value);

/* Context statistics (ops.c): counted by the op wrappers that ctx->ops
 * points to. */
typedef struct qru_stats {
    long long op_calls[QRU_OP_COUNT];
    long long host_waits, bytes_h2d, bytes_d2h;
} qru_stats;

struct qru_context {
    qru_backend backend;
    /* The table the algorithms call: every op a counting wrapper that
     * records the call in stats and runs the op of 'table'. */
    const qru_backend_ops *ops;
    qru_backend_ops counted;
    /* The backend's table with every OPT op that the backend lacks (or,
     * with QRU_OPTION_REFERENCE_OPS, every OPT op) set to its reference
     * implementation; 'native' has bit QRU_OP_x set when op x is the
     * backend's own. */
    qru_backend_ops table;
    const qru_backend_ops *backend_ops;
    unsigned long long native;
    int reference_ops; /* QRU_OPTION_REFERENCE_OPS */
    qru_tuning tuning[2]; /* per element type (qru_ctx_tuning) */
    /* context options from the environment (tuning.c): device and
     * platform indices (-1 unset, -2 malformed), OpenCL work shapes
     * (0 unset), fp64 (-1 unset), extra OpenCL build options */
    struct {
        int device, platform;
        int ocl_wg, ocl_tile, ocl_vec, ocl_local, ocl_fp64;
        char ocl_build_options[256];
    } env;
    qru_stats stats;
    void *impl; /* backend state (handles, stream, queue, programs) */
    char device_name[256];
    qru_workspace ws;
    int check_finite; /* QRU_OPTION_CHECK_FINITE (0 after calloc: off) */
    struct qru_plan *plan; /* a dry run's plan (plan.c); NULL otherwise */
    unsigned tuning_gen;   /* changes with the tuning block and the op
                              table (the updates' remembered choices) */
    char errmsg[QRU_ERRMSG_LEN]; /* qru_last_error(ctx) */
};

/* A matrix, or a batch of count matrices ("pages") of the same shape:
 * page i starts at p + i * stride (stride >= ld * cols).  A plain matrix
 * has count 1 (qru_arg_matrix refuses any other count; the batch routines
 * check theirs with qru_arg_batch). */
struct qru_matrix {
    qru_context *ctx;
    qru_dtype dtype;
    int rows, cols, ld;
    int count;     /* pages (1 for a plain matrix; 0 is an empty batch) */
    size_t stride; /* elements from one page to the next */
    qru_ptr p;
    int owned; /* 1: p.h was allocated by qru and is freed with the matrix */
};

/* Page i of the batch M. */
static inline qru_ptr qru_mat_page(const qru_matrix *M, int i)
{
    return qru_ptr_add(M->p, (size_t)i * M->stride);
}

/* ---- the op table of a context (ops.c) ---- */

/* Sets ctx->table, ctx->counted, ctx->ops and ctx->native from the backend
 * table b: OPT ops that b lacks, or every OPT op when reference is 1, are
 * the reference ops below. */
void qru_ctx_set_ops(qru_context *ctx, const qru_backend_ops *b,
                     int reference);
/* 1 if op 'op' of ctx is the backend's own (not a reference op). */
static inline int qru_op_native(const qru_context *ctx, qru_op_id op)
{
    return (int)((ctx->native >> (unsigned)op) & 1u);
}
/* 1 if op 'op' of ctx is the backend's own for data of type dt (not for
 * a complex dt where the backend's op is real-only: real_only_ops). */
static inline int qru_op_native_dt(const qru_context *ctx, qru_op_id op,
                                   qru_dtype dt)
{
    unsigned long long ro = qru_dtype_complex(dt) && ctx->backend_ops
                                ? ctx->backend_ops->real_only_ops
                                : 0ull;
    return (int)(((ctx->native & ~ro) >> (unsigned)op) & 1u);
}
/* The element type in an op's argument list (ctx, dt, ...): dt, or float
 * for the ops that take none (sync, lane_join). */
#define QRU_OP_DT(args) QRU_OP_DT_ args
#define QRU_OP_DT_(...) QRU_OP_DT2_(__VA_ARGS__, QRU_FLOAT, QRU_FLOAT)
#define QRU_OP_DT2_(c, d, ...) (d)
/* Calls of op 'op' counted since creation or the last reset. */
long long qru_ctx_op_calls(const qru_context *ctx, qru_op_id op);
/* "gemm", ... ("?" for an invalid id). */
const char *qru_op_name(qru_op_id op);

/* ---- plans (plan.c) ----
 * What a run of an algorithm costs, recorded by running it against the
 * dry-run op table: the calls per op, the host waits, the largest
 * workspace it takes, its flops and the cost model's seconds on each of
 * the two queues (the rates of ctx's tuning block for dt). */
typedef struct qru_plan {
    long long calls[QRU_OP_COUNT];
    double op_seconds[QRU_OP_COUNT]; /* the cost model's time by op */
    long long host_waits;
    size_t ws_bytes;
    double flops;
    double seconds[2]; /* the first queue's and the second's (lane ops) */
    double mark;       /* the first queue's time at the last lane_mark */
    int marked, lane;  /* a mark is set; the queue ops go to now */
    int variant;       /* the variant the run picked (-1: none) */
    qru_dtype dt;
    const qru_cost_model *cost;
} qru_plan;
/* The run of an algorithm: fn(dry ctx, dry copy of f or NULL, arg). */
typedef int (*qru_plan_fn)(qru_context *ctx, qru_lsq *f, const void *arg);
/* Runs fn on a dry copy of ctx (and of f, when f is not NULL) and fills
 * *out; nothing is queued and nothing that ctx or f holds changes.
 * Returns fn's status. */
int qru_plan_run(qru_context *ctx, qru_lsq *f, qru_dtype dt, qru_plan_fn fn,
                 const void *arg, qru_plan *out);
/* The plan's predicted seconds (both queues done) and its calls. */
double qru_plan_seconds(const qru_plan *p);
long long qru_plan_calls(const qru_plan *p);
/* The placeholder handle of a dry run's allocations and workspace. */
void *qru_plan_placeholder(void);
/* 1 in a dry run, whose downloads read ones: a Cholesky info slot read
 * there reports success. */
int qru_plan_healthy_info(const qru_context *ctx);
/* The cost model's seconds of qru_omp on X and y (valid arguments of
 * qru_omp, not checked again) for ncoef columns in its residual and its Gram form, as
 * its choice prices them (src/solvers/omp.c), whatever the tuning block
 * says; for the tests and benchmarks.  Returns 0 or a library status. */
int qru_omp_price(qru_context *ctx, const qru_matrix *X, const qru_matrix *y,
                  int ncoef, double *residual, double *gram);

/* Reference implementations of the OPT ops (ref_ops.c), written once on
 * top of the REQ ops of ctx->ops; each meets its op's contract. */
#define QRU_REF_PROTO_(name, params, args, need, stat)                       \
    QRU_REF_PROTO_##need(name, params)
#define QRU_REF_PROTO_REQ(name, params)
#define QRU_REF_PROTO_CAP(name, params)
#define QRU_REF_PROTO_OPT(name, params) int qru_ref_##name params;
QRU_OPS(QRU_REF_PROTO_)

/* The staggered sweeps of the Givens updates (the step structure of
 * givens_sweeps in qru_ops.h): step t of the sweeps of L rotations each,
 * p sweeps, runs cnt rotations of the sweeps jlo .. jlo+cnt-1, the first
 * acting on the columns (i0-1, i0). */
void qru_sweep_step(int L, int p, int t, int *jlo, int *cnt, int *i0);

/* 1: Householder panels through the backend's own panel_qr, 0: through the
 * reference op, the per-column loop (a backend without one, or
 * QRU_OPTION_REFERENCE_OPS).  One rule for the updates and the update
 * policy's cost model. */
static inline int qru_use_fused_panel(const qru_context *ctx, qru_dtype dt)
{
    return qru_op_native_dt(ctx, QRU_OP_panel_qr, dt);
}

/* wy_left on OpenCL: its kernel (qru_wy_left, kernels/qru_update.cl)
 * takes panels of up to QRU_WYL_NB columns and matrices of up to
 * QRU_WYL_MAX_M rows (every work-group reads W and Y whole); the GEMM
 * sequence otherwise (and on CUDA, where cuBLAS measured faster than that
 * kernel: docs/performance.md). */
#define QRU_WYL_NB 64 /* a multiple of 16 (the kernel loads Y in 16s) */
#define QRU_WYL_MAX_M 512
#define QRU_WYL_CB 8 /* columns of the matrix a work-group */
static inline int qru_wyl_kernel_fits(int m, int nb)
{
    return nb <= QRU_WYL_NB && m <= QRU_WYL_MAX_M;
}
/* wy_left as its GEMM sequence through the table o: the reference op
 * passes ctx->ops, a backend its own uncounted ops (&ctx->table: then the
 * op stays one backend call in the statistics and the cost models). */
int qru_wy_left_gemms(qru_context *ctx, const qru_backend_ops *o,
                      qru_dtype dt, char ytop, int mt, int mb, int nb, int nc,
                      qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr A,
                      int lda, qru_ptr B, int ldb, qru_ptr work);
/* panel_qr_tp as the gather into one array, panel_qr and the scatter back,
 * through the table o (the same rule: the reference op passes ctx->ops, a
 * backend &ctx->table). */
int qru_panel_qr_tp_gather(qru_context *ctx, const qru_backend_ops *o,
                           qru_dtype dt, int mt, int mb, int nb, qru_ptr A,
                           int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy,
                           qru_ptr W, int ldw, qru_ptr tau, qru_ptr work);

/* Elements of the work argument of panel_qr for an m x nb panel. */
static inline size_t qru_panel_work(int m, int nb)
{
    return 2 * (size_t)m + 4 * (size_t)nb + 4 + (size_t)nb * nb;
}
/* Elements of the work argument of panel_qr_tp for an m x nb panel
 * (panel_qr's and the gathered panel of the reference op). */
static inline size_t qru_panel_tp_work(int m, int nb)
{
    return qru_panel_work(m, nb) + (size_t)m * nb;
}

/* The tile width of the row sums of chol_r1_prep, and the elements of its
 * work argument for order n and rank k: delta (n) and the coefficient
 * vectors g (n x k; k = 1: gamma), then for each tile of columns the n
 * k-vectors of row sums of L .* P (tile-major, then by vector entry, then
 * by row) and the n row sums of L .* L (the GPU kernels work on
 * QRU_CHOL_R1_TILE x QRU_CHOL_R1_TILE tiles of the triangle); for k > 1
 * also, per tile of columns, the k x k sum of the tile's p_c p_c' and the
 * matrix M of the tile's first column, and n failure flags.  k = 1 gives
 * the rank-1 layout: delta, gamma and the two tile sums. */
#define QRU_CHOL_R1_TILE 32
static inline size_t qru_chol_r1_work(int n, int k)
{
    size_t t = ((size_t)n + QRU_CHOL_R1_TILE - 1) / QRU_CHOL_R1_TILE;
    size_t kk = (size_t)(k > 1 ? k : 1);
    size_t s = (size_t)n * (1 + kk) + t * (size_t)n * (kk + 1);
    return k > 1 ? s + 2 * t * kk * kk + (size_t)n : s;
}
/* Columns per work-group of the GPU kernel of the rank-k coefficients
 * (k > 1): the largest power of two up to QRU_CHOL_R1_TILE whose bordered
 * (k+1) x (k+1) matrices fit QRU_CHOL_RK_LOCAL elements of local memory. */
#define QRU_CHOL_RK_LOCAL ((QRU_CHOL_R1_TILE + 1) * (QRU_CHOL_R1_TILE + 1))
static inline int qru_chol_rk_cols(int k)
{
    int c = QRU_CHOL_R1_TILE;
    while (c > 1 && c * (k + 1) * (k + 1) > QRU_CHOL_RK_LOCAL)
        c /= 2;
    return c;
}

/* The device state of the Gram form of orthogonal matching pursuit
 * (omp_gram_step, src/qru_ops.h; src/solvers/omp.c), one allocation of
 * elements of dt: the offsets of its parts for n rows, m columns and at
 * most ncoef chosen (column-major, the leading dimensions in brackets):
 * G = X' X (m x m [m], its upper triangle), c0 = X' y (m), B (m x ncoef
 * [m]), Qb (n x ncoef [n]), R (ncoef x ncoef [ncoef], upper), z
 * (ncoef), c (m), r (n), the state block (QRU_OMP_STATE), the chosen
 * columns S (ncoef, after the state block so that both come to the host
 * in one download) and the partial results of the row kernel of the GPU
 * backends (2 ngm + ngn, ngm = ceil(m / QRU_OMP_ROWS) work-groups on
 * the rows of B and c, ngn = ceil(n / QRU_OMP_ROWS) on those of Qb and
 * r).  Indices in the state block and S are integer values of dt (exact:
 * m < 2^24). */
#define QRU_OMP_ROWS 32
enum {
    QRU_OMP_ST_STATUS, /* QRU_OMP_RUN, or why the pursuit stopped */
    QRU_OMP_ST_K,      /* the columns chosen */
    QRU_OMP_ST_J,      /* the next column, or the one the stop names */
    QRU_OMP_ST_CJ,     /* its correlation c(j) */
    QRU_OMP_ST_L,      /* its pivot l */
    QRU_OMP_ST_ZK,     /* its coefficient c(j) / l */
    QRU_OMP_ST_RR,     /* (||r|| / ||y||)^2 of the k chosen */
    QRU_OMP_ST_GMAX,   /* the largest finite G(i,i) of the chosen */
    QRU_OMP_ST_PIV,    /* QRU_OMP_REFUSED: G(j,j) - w' w */
    QRU_OMP_ST_LIM,    /* QRU_OMP_REFUSED: the pivot's limit */
    QRU_OMP_STATE
};
/* The status: running, or the stop (src/solvers/omp.c words them). */
enum {
    QRU_OMP_RUN,
    QRU_OMP_DONE,      /* ncoef columns chosen */
    QRU_OMP_TOL,       /* the residual met tol (or y spanned, tol >= 0) */
    QRU_OMP_SPAN,      /* y in the span of the chosen, tol < 0 */
    QRU_OMP_NONFINITE, /* the largest correlation is not finite */
    QRU_OMP_ZERO,      /* every correlation is zero */
    QRU_OMP_CHOSEN,    /* the largest is at a chosen column */
    QRU_OMP_REFUSED    /* the definiteness rule refused column j */
};
typedef struct qru_omp_ws {
    size_t G, c0, B, Q, R, z, c, r, st, S, part, elems;
    int ngm, ngn;
} qru_omp_ws;
static inline qru_omp_ws qru_omp_ws_of(int n, int m, int ncoef)
{
    size_t en = (size_t)n, em = (size_t)m, ek = (size_t)ncoef;
    qru_omp_ws w;
    w.ngm = (int)((em + QRU_OMP_ROWS - 1) / QRU_OMP_ROWS);
    w.ngn = (int)((en + QRU_OMP_ROWS - 1) / QRU_OMP_ROWS);
    w.G = 0;
    w.c0 = em * em;
    w.B = w.c0 + em;
    w.Q = w.B + em * ek;
    w.R = w.Q + en * ek;
    w.z = w.R + ek * ek;
    w.c = w.z + ek;
    w.r = w.c + em;
    w.st = w.r + en;
    w.S = w.st + QRU_OMP_STATE;
    w.part = w.S + ek;
    w.elems = w.part + 2 * (size_t)w.ngm + (size_t)w.ngn;
    return w;
}

/* The device state of the Gram form of LARS (lars_gram_step,
 * src/qru_ops.h; src/solvers/lars.c), one allocation of elements of dt
 * for m columns and kmax slots of the Gram active set: the offsets of
 *   cov (m)    the correlations X'(y - X coef) of the columns,
 *   c (m)      the rounded correlations of the inactive columns with the
 *              last step's direction,
 *   pos (m)    pos(j): the position of column j in the solver's order
 *              (the active columns first, in their order, then the
 *              inactive ones in scikit-learn's),
 *   sof (m)    sof(j): the slot of column j, -1 where it is inactive,
 *   cof (kmax) cof(q): the column in slot q, -1 where it is free,
 *   drop (kmax) 1 where slot q's coefficient crosses zero first,
 *   rec        the record (QRU_LARS_REC), then the pick's partial
 *              results (npk blocks of QRU_LARS_PICK rows: the block's
 *              cov, pos and column), so that the host reads both in one
 *              download of QRU_LARS_REC + 3 npk elements,
 *   part       the GPU kernels' partial minima (2 ngr: work-groups of
 *              QRU_LARS_ROWS rows).
 * Indices are integer values of dt (exact: m < 2^24). */
#define QRU_LARS_ROWS 32
#define QRU_LARS_PICK 256
/* the launches of a step on a GPU backend (the plans' price) */
#define QRU_LARS_STEP_LAUNCHES 4
enum {
    QRU_LARS_ST_STATUS, /* QRU_LARS_OK, _DEGENERATE or _NODIR */
    QRU_LARS_ST_GAMMA,  /* the step */
    QRU_LARS_ST_ND,     /* the slots whose coefficients cross zero first */
    QRU_LARS_ST_QD,     /* the lowest of them */
    QRU_LARS_ST_SW,     /* s' G^-1 s */
    QRU_LARS_ST_AA,     /* 1 / sqrt(s' G^-1 s) */
    QRU_LARS_ST_D,      /* the entering column's pivot (0 where flagged) */
    QRU_LARS_REC
};
/* The status of a step. */
enum {
    QRU_LARS_OK,         /* the step was taken */
    QRU_LARS_DEGENERATE, /* the entering column's pivot is below piv */
    QRU_LARS_NODIR       /* s' G^-1 s is not > 0: no direction */
};
/* lars_gram_step's modes and flags */
enum { QRU_LARS_START, QRU_LARS_STEP, QRU_LARS_LEAVE };
enum { QRU_LARS_LASSO = 1, QRU_LARS_POSITIVE = 2 };
/* The order of lars_gram_step's pick: (a, pa) before (b, pb), keys a, b
 * and positions pa, pb (a total order: a NaN key after any other, then
 * the larger key, then the lower position; the GPU kernels' copy is
 * kernels/qru_lars.cl's qru_lars_before). */
static inline int qru_lars_pick_before(double a, double pa, double b,
                                       double pb)
{
    int na = a != a, nb = b != b;
    if (na != nb)
        return nb;
    if (!na && a != b)
        return a > b;
    return pa < pb;
}
typedef struct qru_lars_ws {
    size_t cov, c, pos, sof, cof, drop, rec, pick, part, elems;
    int ngr, npk;
} qru_lars_ws;
static inline qru_lars_ws qru_lars_ws_of(int m, int kmax)
{
    size_t em = (size_t)m, ek = (size_t)kmax;
    qru_lars_ws w;
    w.ngr = (int)((em + QRU_LARS_ROWS - 1) / QRU_LARS_ROWS);
    w.npk = (int)((em + QRU_LARS_PICK - 1) / QRU_LARS_PICK);
    w.cov = 0;
    w.c = em;
    w.pos = 2 * em;
    w.sof = 3 * em;
    w.cof = 4 * em;
    w.drop = w.cof + ek;
    w.rec = w.drop + ek;
    w.pick = w.rec + QRU_LARS_REC;
    w.part = w.pick + 3 * (size_t)w.npk;
    w.elems = w.part + 2 * (size_t)w.ngr;
    return w;
}

/* The elements of chol_update_batch's work a problem: the copy of the
 * page (n x n, ld n), of W (n x k, ld n) and A1's diagonal (n).  The
 * insertion and deletion (chol_insert_batch, chol_delete_batch) use this
 * and the two below for the new order n1 and rank p. */
static inline size_t qru_chol_batch_work(int n, int k)
{
    return (size_t)n * ((size_t)n + (size_t)(k > 0 ? k : 0) + 1);
}

/* Elements of local memory the GPU kernel of chol_update_batch has for a
 * problem's working copy (QRU_BATCH_LM of kernels/qru_batch.cl: 20 KiB in
 * double), and whether a problem of element type dt, order n and rank k
 * is kept there (the lower triangle packed by rows, W and A1's diagonal;
 * it then needs no work in device memory, and takes the structured
 * passes): a real one that fits; a complex one never (the structured
 * passes are real only: it takes the rotations, in device memory). */
#define QRU_CHOL_BATCH_LM 2560
static inline int qru_chol_batch_local(qru_dtype dt, int n, int k)
{
    return !qru_dtype_complex(dt) &&
           (size_t)n * ((size_t)n + 1) / 2 +
                   (size_t)n * (size_t)((k > 0 ? k : 0) + 1) <=
               QRU_CHOL_BATCH_LM;
}

/* Elements of local memory the GPU kernels of lsq_batch_add_rows and
 * lsq_batch_solve have for a problem of m unknowns and r right-hand sides
 * (QRU_BATCH_LM of kernels/qru_batch.cl, the same capacity as
 * QRU_CHOL_BATCH_LM), and whether it fits: R packed by columns
 * (m (m + 1) / 2), d (m r) and one new row (m + r).  A problem that does
 * not fit works on R and d in place and keeps the row (add_rows) or its
 * copy of d (solve) in the op's work. */
static inline int qru_lsq_batch_local(int m, int r)
{
    return (size_t)m * ((size_t)m + 1) / 2 + (size_t)m * (size_t)r +
               (size_t)m + (size_t)r <=
           QRU_CHOL_BATCH_LM;
}
/* Elements of the local buffer of the GPU kernels of the batched ops
 * (kernels/qru_batch.cl) for a work-group of nt items: chol_update_batch
 * (the reduction, the failure flag, then a small problem's copy and the
 * structured passes' p, delta, gamma and t; a larger problem's two slots
 * of QRU_CHOL_BATCH_KB rotations of three numbers and two of a step's
 * verdict after the flag),
 * lsq_batch_add_rows (two slots of a rotation, then the copy) and
 * lsq_batch_solve (the reduction, then the copy of R and d). */
#define QRU_CHOL_BATCH_KB 32
static inline size_t qru_chol_batch_local_elems(qru_dtype dt, int n, int k,
                                                int nt)
{
    return (size_t)nt + 1 +
           (qru_chol_batch_local(dt, n, k)
                ? (size_t)n * ((size_t)n + 1) / 2 +
                      (size_t)n * (size_t)((k > 0 ? k : 0) + 1) +
                      4 * (size_t)n
                : 6 * QRU_CHOL_BATCH_KB + 2);
}
static inline size_t qru_lsq_batch_add_local_elems(int m, int r)
{
    return 4 + (qru_lsq_batch_local(m, r)
                    ? (size_t)m * ((size_t)m + 1) / 2 + (size_t)m * r +
                          (size_t)m + (size_t)r
                    : 0);
}
static inline size_t qru_lsq_batch_solve_local_elems(int m, int r, int nt)
{
    return (size_t)nt + (qru_lsq_batch_local(m, r)
                             ? (size_t)m * ((size_t)m + 1) / 2 +
                                   (size_t)m * (size_t)r
                             : 0);
}

/* The elements of work a problem of lsq_batch_add_rows (one row: m + r)
 * and lsq_batch_solve (its copy of d: m r) needs where it does not fit. */
static inline size_t qru_lsq_batch_work(int m, int r)
{
    return (size_t)m * (size_t)r + (size_t)m + (size_t)r;
}

/* The thin-form batched ops (kernels/qru_batch_q.cl): the work a problem
 * of lsq_batch_add_rows_q needs (the rotations' c and s, 2 p m, the
 * rotated right-hand-side rows, p r, and the row in flight, m + r) and
 * of lsq_batch_remove_rows_q (QK p x (m+p), the sweeps' c and s
 * 2 p (m+p), Z = [Qz] n x p, the partial sums of Q1' Z (m + the largest
 * work-group, QRU_BQ_WG, times p), Q1' Z m x p, Rz and its inverse 2 p p,
 * dz p r, the columns of [R d; 0 dz] (m+p) (m+r)); the work-group of
 * both (a power of two, 32 .. QRU_BQ_WG = 256, by the rows). */
#define QRU_BQ_WG 256
/* The thin row removals' second pass, one rule for the single removal
 * (src/update/remove_rows.c) and the batched one (its completion in
 * kernels/qru_batch_q.cl and src/cpu/cpu_batch_q_kernels.inc): where the
 * removal passes the rank rule with p > 1 and the root mean square of
 * the inverses of Rz's singular values, ||inv(Rz)||_F / sqrt(p), above
 * QRU_RR_AGAIN_RMS, Qz is projected against Q1 once more. */
#define QRU_RR_AGAIN_RMS 2
static inline size_t qru_lsq_batch_q_add_work(int n, int m, int r, int p)
{
    return 2 * (size_t)p * (size_t)m + (size_t)p * (size_t)r + (size_t)m +
           (size_t)r + (size_t)n + (size_t)p;
}
static inline size_t qru_lsq_batch_q_rm_work(int n, int m, int r, int p)
{
    size_t mp = (size_t)m + (size_t)p;
    return 3 * (size_t)p * mp + (size_t)n * (size_t)p +
           ((size_t)m + QRU_BQ_WG) * (size_t)p + (size_t)m * (size_t)p +
           2 * (size_t)p * (size_t)p + (size_t)p * (size_t)r +
           mp * ((size_t)m + (size_t)r);
}
/* The column updates of the batches (kernels/qru_batch_cols.cl): the
 * work a problem of lsq_batch_remove_cols needs (H, the columns k+p ..
 * m-1 of R and d, m x (m - p - k + r), the rotations' c and s,
 * 2 p (m - p - k), the rows of d that leave, p r) and of
 * lsq_batch_add_cols_q (W and its correction 2 m p, the partial sums of
 * Q1' Z (m + QRU_BQ_WG) p, Rz p p, dz p r, the rotations 2 p (m - k),
 * and for p > 1 Q1' Qz m p, S and S Rz 2 p p);
 * their work-group is qru_lsq_batch_q_wg's (by the rows, or by the
 * columns of [R d] where they are more). */
static inline size_t qru_lsq_batch_rmc_work(int m, int r, int k, int p)
{
    size_t L = (size_t)(m - p - k);
    return (size_t)m * (L + (size_t)r) + 2 * (size_t)p * L +
           (size_t)p * (size_t)r;
}
static inline size_t qru_lsq_batch_acq_work(int m, int r, int k, int p)
{
    return 4 * (size_t)m * (size_t)p + (size_t)QRU_BQ_WG * (size_t)p +
           3 * (size_t)p * (size_t)p + (size_t)p * (size_t)r +
           2 * (size_t)p * (size_t)(m - k);
}
static inline int qru_lsq_batch_q_wg(int n)
{
    int w = 32;
    while (w < n && w < QRU_BQ_WG)
        w *= 2;
    return w;
}
/* lsq_batch_geqr_thin's GPU kernel (kernels/qru_batch_q.cl), the same
 * work-group: the elements of its local buffer for nt items (the block
 * sums of up to QRU_BQ_PB columns: nt partials a column, then at most 16,
 * then the sums) and of its work a problem (the m tau). */
#define QRU_BQ_PB 8
static inline size_t qru_lsq_batch_qr_local_elems(int nt)
{
    return (size_t)QRU_BQ_PB * ((size_t)nt + 17);
}
static inline size_t qru_lsq_batch_qr_work(int m) { return (size_t)m; }

/* The work-items a problem of the GPU kernels of the batched ops (a power
 * of two up to QRU_BATCH_WG of kernels/qru_batch.cl, 256): the tuning's
 * chol_batch_wg, or by the size n (the order; m + r or m for the
 * least-squares kernels) rounded up to a power of two. */
static inline int qru_chol_batch_wg(int knob, int n)
{
    int w = 1;
    if (knob > 0) {
        while (w * 2 <= knob && w < 256)
            w *= 2;
        return w;
    }
    while (w < n && w < 256)
        w *= 2;
    return w;
}

/* Items a problem of the GPU kernels of lsq_batch_add_rows and
 * lsq_batch_solve (kernels/qru_batch.cl) for c columns (m + r for the
 * addition, m for the solve) where the problem fits local memory: a
 * power of two from 4 with about three columns an item (several problems
 * then share a CUDA warp, and the copies in and out take fewer
 * instructions a problem while the chain of steps grows little: at
 * m = 20 both kernels ran faster at 8 items a problem than at 16 or 32);
 * one item a column (at most 256) where it does not fit. */
static inline int qru_lsq_batch_items(int c, int lm)
{
    if (!lm)
        return qru_chol_batch_wg(0, c);
    int w = 4;
    while (w * 3 < c && w < 256)
        w *= 2;
    return w;
}

/* Problems a work-group of the batched kernels (kernels/qru_batch.cl)
 * holds, tp items each: up to items items a group (the knob batch_wg;
 * 0: 128) and cap bytes of local memory at seg bytes a problem, and at
 * least least items (a CUDA warp, whose team syncs need every lane) while
 * that fits; one where a problem does not fit local memory (lm 0: it
 * works in place in device memory, alone in its group). */
static inline int qru_batch_problems(int tp, size_t seg, int lm, int items,
                                     int least, size_t cap)
{
    if (!lm || tp <= 0)
        return 1;
    int np = (items > 0 ? items : 128) / tp;
    if (np * tp < least)
        np = (least + tp - 1) / tp;
    while (np > 1 && (size_t)np * seg > cap)
        --np;
    return np > 0 ? np : 1;
}

/* The columns of a segment of chol_r1_rotate on the GPU, and the elements
 * of its work argument for n rows and m columns: c and s (2 m), then for
 * each segment a product, and n sums and n values, then n elements. */
#define QRU_CHOL_R1_ROTW 32
static inline size_t qru_chol_r1_rotate_work(int n, int m)
{
    size_t s = ((size_t)m + QRU_CHOL_R1_ROTW - 1) / QRU_CHOL_R1_ROTW;
    return 2 * (size_t)m + s + (2 * s + 1) * (size_t)n;
}


/* ---- algorithm layer (written once, run by every backend) ---- */

/* Blocked Householder QR (qr.c) of the n x m array A in place: on exit A
 * holds R with exact zeros below the diagonal.  The reflectors are applied
 * to the n x r right-hand sides B from the left (B := P' B) and to the
 * nq x n array Q from the right (Q := Q P); pass Q.h / B.h = NULL to skip.
 * ws must hold qru_geqr_wy_workspace(n, m, nq, r, nb) elements. */
size_t qru_geqr_wy_workspace(int n, int m, int nq, int r, int nb);
int qru_geqr_wy(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, int nq, qru_ptr B, int ldb, int r,
                int nb, qru_ptr ws);

/* The whole factorisation of qru_qr_factor / qru_lsq_create (qr.c): A (n x m)
 * := R, Q (n x n, nq = n, or Q.h = NULL) := the orthogonal factor, B
 * (n x r, or B.h = NULL) := Q' B.  Runs the backend's geqrf_full when
 * qru_qr_use_vendor says so, else qru_geqr_wy on Q set to the identity.
 * ws must hold qru_qr_full_workspace(...) elements (same arguments). */
int qru_qr_use_vendor(const qru_context *ctx, qru_dtype dt, int n, int m,
                      int nb_asked);
int qru_qr_full_workspace(qru_context *ctx, qru_dtype dt, int n, int m,
                          int withq, int r, int nb, int nb_asked,
                          size_t *elems);
int qru_qr_full(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, qru_ptr B, int ldb, int r,
                int nb, int nb_asked, qru_ptr ws);

/* The economy QR of the thin form (qr.c), n >= m >= 1: A (n x m) := Q1,
 * R (m x m) := R with zeros below the diagonal, B (n x r) := the
 * residuals B - Q1 Q1' B, D (m x r) := Q1' B.  Householder panels as in
 * qru_geqr_wy, whose reflectors ws keeps (2 n m elements) to form Q1 and
 * the residuals backwards, as LAPACK's orgqr does; or, where
 * qru_qr_use_vendor says so (nb_asked as there), the backend's geqrf_full
 * with the m columns of Q1.  ws must hold the *elems that
 * qru_geqr_thin_workspace gives (same arguments). */
int qru_geqr_thin_workspace(qru_context *ctx, qru_dtype dt, int n, int m,
                            int r, int nb, int nb_asked, size_t *elems);
int qru_geqr_thin(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                  int lda, qru_ptr R, int ldr, qru_ptr B, int ldb, qru_ptr D,
                  int ldd, int r, int nb, int nb_asked, qru_ptr ws);

/* The least-squares object in one of three forms (qru_lsq_q, include/qru.h),
 * stored with spare capacity so that rows and columns can be added
 * without reallocating each time (ncap >= n, mcap >= m):
 *  - QRU_Q_FULL: R (n x m), d (n x r), Q (n x n), each with leading
 *    dimension ldr = ncap, in buffers of ncap x mcap, ncap x r and
 *    ncap x ncap;
 *  - QRU_Q_THIN: R (m x m) and d (m x r) with ldr = mcap in buffers of
 *    mcap x mcap and mcap x r; Q1 (n x m, ncap x mcap) and the residuals
 *    E = b - Q1 d (n x r, ncap x r), both with leading dimension ncap;
 *  - QRU_Q_NONE: R and d as for QRU_Q_THIN, the residual norms rho
 *    (r host doubles), and the Gram data G = A'A and c = A'b (ld ldr, in
 *    buffers of mcap x mcap and mcap x r).
 * In the thin and Q-less forms the updates of p rows or columns first
 * reserve m + p columns, which gives R and d the p spare rows below the
 * triangle and Q1 the p spare columns they work in.  Rows m .. of R and
 * d are scratch there, not part of the factorisation. */
/* Choices a factorisation remembers (policy.c). */
#define QRU_UPD_MEMO 4

struct qru_lsq {
    qru_context *ctx;
    qru_dtype dtype;
    int n, m, r;       /* current rows, columns, right-hand sides */
    int ncap, mcap;    /* reserved rows and columns */
    int q;             /* QRU_Q_FULL, QRU_Q_THIN or QRU_Q_NONE */
    int has_q;         /* q == QRU_Q_FULL: the n x n Q is held */
    int ldr;           /* leading dimension of R and d */
    int nb;            /* Householder block size (0 = backend default) */
    qru_ptr R, Q, d;   /* Q: n x n (full) or n x m (thin), ld ncap */
    unsigned adopted;  /* bit LB_Q / LB_R (lsq.c): that buffer is the
                          caller's (not freed here) */
    qru_ptr E;         /* QRU_Q_THIN: b - Q1 d (n x r, ld ncap) */
    double *rho;       /* QRU_Q_NONE: the r residual norms, then r
                          doubles of scratch */
    qru_ptr G, c;      /* QRU_Q_NONE: G = A'A (m x m, upper triangle) and
                          c = A'b (m x r), ld ldr, for
                          qru_lsq_get_error_estimate (econ.c keeps them) */
    double dd_cond;    /* qru_lsq_get_downdate_condition (0: none yet) */
    /* QR updates (src/update/; both 0 after calloc = the defaults) */
    int upd_nb;        /* update block size, 0 = auto (about a tenth of the
                          columns an update reduces) */
    int upd_alg;       /* qru_update_algorithm */
    /* update policy (src/update/policy.c; both 0 after calloc) */
    int last_path;     /* QRU_PATH_* of the last successful update */
    int rank;          /* qru_lsq_rank (qru_lsq_options::rank) */
    /* the choices of the last updates (policy.c): path and variant by
     * request, valid for the tuning generation they were made in */
    struct qru_upd_memo {
        int valid, op, n, m, r, p, k, alg, path, variant;
        unsigned gen;
    } memo[QRU_UPD_MEMO];
    int memo_next;
};

/* Whether an update of f judges its result by the QR rank rule (and
 * refuses a rank-deficient A1): always under QRU_RANK_REFUSE; under
 * QRU_RANK_ACCEPT only where a rank-deficient result would not be a
 * valid factorisation (valid = 0). */
static inline int qru_lsq_judges_rank(const qru_lsq *f, int valid)
{
    return f->rank == QRU_RANK_REFUSE || !valid;
}

/* Rows of the stored R and d: n (full form) or m (thin, Q-less). */
static inline int qru_lsq_rrows(const qru_lsq *f)
{
    return f->q == QRU_Q_FULL ? f->n : f->m;
}

/* The rank rule of the QR routines (lsq.c; documented in include/qru.h):
 * R (n x m) is rank-deficient at column j when R(j,j) is not finite or
 * |R(j,j)| <= max(n, m) eps max_i ||R(1:i,i)||_2 (the maximum over the
 * finite column norms; eps = FLT_EPSILON or DBL_EPSILON).
 * qru_qr_rank_gather reads, for the c columns of a block of R, the
 * diagonal elements (c of them, the first at D, stride ldr + 1) into diag
 * and the norms of the block's columns (rows x c at B, ldr) into norms
 * (host arrays of c doubles; the block's rows must hold every nonzero of
 * its columns).  qru_qr_rank_first applies the rule, with the tolerance of
 * all m gathered columns, to the columns j0..m-1: the first rank-deficient
 * one (1-based), or 0. */
int qru_qr_rank_gather(qru_context *ctx, qru_dtype dt, int rows, int c,
                       qru_ptr B, qru_ptr D, int ldr, double *diag,
                       double *norms);
int qru_qr_rank_first(qru_dtype dt, int n, int m, int j0,
                      const double *diag, const double *norms);
/* The same data queued on the device: the c diagonal elements into the
 * device vector diag, the c norms into norms (c elements of dt each), so
 * that several blocks reach the host in one qru_chol_read_row. */
int qru_qr_rank_queue(qru_context *ctx, qru_dtype dt, int rows, int c,
                      qru_ptr B, qru_ptr D, int ldr, qru_ptr diag,
                      qru_ptr norms);
/* Reads cnt elements of a row of the device array src (element t at
 * src + t * stride; stride ld + 1 gives a diagonal) into the host doubles
 * out: one download, one host wait (chol.c).  A complex type's elements
 * are read as their moduli (what the rank and condition rules of the QR
 * paths use). */
int qru_chol_read_row(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr src,
                      int stride, double *out);

/* The non-finite check (matrix.c; the rule is documented in
 * include/qru.h): 0 when ctx's QRU_OPTION_CHECK_FINITE is off or every
 * scanned element is finite, -argi when one is not, or a library status
 * of the scan.  Scanned part of M: uplo 'A' all of M (k, diag unused);
 * 'L' / 'U': the rows k .. k+c-1 of M (c = M's columns) form a square
 * block of which only the uplo triangle is scanned (its diagonal too
 * unless diag is 'U'), the other rows of M entirely.  Called from each
 * public routine's argument checks, right after argument argi's own
 * checks; M NULL (an omitted optional argument) is skipped. */
int qru_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                     char uplo, char diag, int k);
/* The same for n doubles on the host. */
int qru_check_finite_host(const qru_context *ctx, int argi, const double *x,
                          size_t n);

/* 0 when the input matrix M (argument i, called name) shares no memory
 * with f's buffers (R, Q, d, E, G, c, all of their capacity: qru_lsq_view_q
 * and qru_lsq_view_r hand out views of them), else -i (lsq.c). */
int qru_lsq_arg_apart(const qru_lsq *f, int i, const char *name,
                      const qru_matrix *M);

/* Makes room for n_new rows and m_new columns (lsq.c); the contents of
 * the factorisation (at the current n and m) are kept, scratch rows and
 * columns are not.  Grows geometrically; returns 0 or a library status (f
 * unchanged then). */
int qru_lsq_reserve(qru_lsq *f, int n_new, int m_new);

/* The CPU backend's table (src/cpu/); the CUDA and OpenCL tables come
 * from their modules (qru_module_load, qru_module.h). */
extern const qru_backend_ops qru_cpu_ops;
/* The BLAS and LAPACKE libraries the CPU backend calls, as text: the
 * files they were loaded from and OpenBLAS's configuration where it is
 * OpenBLAS (cpu_backend.c; for qru_backend_info). */
void qru_cpu_libraries(char *buf, size_t n);

/* Workspace: returns a buffer of at least 'bytes' bytes (kept by the
 * context, valid until the next qru_ctx_workspace call on the same ctx). */
int qru_ctx_workspace(qru_context *ctx, size_t bytes, qru_ptr *out);

/* Argument checking helpers (src/matrix.c).  Each returns 1 when the
 * matrix is usable: not NULL, belongs to ctx, has the given dtype. */
int qru_mat_ok(const qru_context *ctx, const qru_matrix *M, qru_dtype dt);
/* A matrix header over library storage p (rows x cols, ld; not freed
 * with the matrix): qru_lsq_view_q (matrix.c). */
int qru_matrix_view(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    qru_ptr p, int ld, qru_matrix **M);
/* 0 when M is usable (qru_mat_ok) and one matrix (count 1), else -i
 * with the reason as the text ("<name> is NULL", "... belongs to another
 * context", "... holds float, but the call works in double", "... is a
 * batch of 5 matrices"). */
int qru_arg_matrix(const qru_context *ctx, int i, const char *name,
                   const qru_matrix *M, qru_dtype dt);
/* The same for an argument of a batch routine, which takes a batch of
 * any count (qru_arg_matrix refuses a count other than 1). */
int qru_arg_batch(const qru_context *ctx, int i, const char *name,
                  const qru_matrix *M, qru_dtype dt);
/* 1 when the batches A and B share an element: any page of one with any
 * page of the other (qru_mem_overlap page by page; also 1 for one batch
 * given twice).  qru_batch_same_start: both start at the same element
 * with the same leading dimension and stride. */
int qru_batch_overlap(const qru_matrix *A, const qru_matrix *B);
int qru_batch_same_start(const qru_matrix *A, const qru_matrix *B);
/* Argument i, the batch called name, must be usable (qru_arg_batch). */
#define QRU_ARG_BATCH(ctx, i, name, M, dt)                                     \
    QRU_CHECK((ctx), qru_arg_batch((ctx), (i), (name), (M), (dt)))
/* The helpers of the batched routines (batch.c):
 * qru_batch_check_finite: qru_check_finite of every page of M (its uplo
 * part; with k as there: a block of rows k.. whose uplo triangle is read);
 * qru_batch_part: the problems of one op call of a batch of count whose
 * problems need pw elements (of type dt) of work each, as many as the
 * tuning's batch_work_kib hold (local: none on the GPUs, so one call, the
 * CPU's one problem's share), and in *work the elements of work that
 * call takes;
 * qru_batch_verdicts: the count verdicts at the device vector dinfo (0 or
 * a 1-based column) into info (when not NULL): whether some failed first
 * (one host wait: the verdict flag at any, host address of the
 * backend's verdict_flag that the op producing them set, or where any
 * is NULL their count of nonzeros, one number down), the vector itself
 * only where one did;
 * returns how many failed (the first at *first, column *col) or a library
 * status;
 * qru_batch_counts: the count per-problem ints h (counts, ranks, a mask)
 * uploaded to the device vector dst as elements of type dt, the form the
 * batched ops take them in;
 * qru_batch_values: the same for count doubles h (each rounded to dt). */
int qru_batch_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                           char uplo, int k);
size_t qru_batch_part(const qru_context *ctx, qru_dtype dt, int local,
                      size_t pw, int count, size_t *work);
int qru_batch_verdicts(qru_context *ctx, qru_dtype dt, int count,
                       qru_ptr dinfo, const void *any, int *info, int *first,
                       int *col);
int qru_batch_counts(qru_context *ctx, qru_dtype dt, int count, const int *h,
                     qru_ptr dst);
int qru_batch_values(qru_context *ctx, qru_dtype dt, int count,
                     const double *h, qru_ptr dst);
/* 0 when ctx's device computes in dtype, else QRU_ERR_UNSUPPORTED with
 * the text. */
int qru_check_supports(const qru_context *ctx, qru_dtype dtype);
/* 0 for float and double; QRU_ERR_UNSUPPORTED with the text for a complex
 * dtype: the check of the routines that do not take complex data yet
 * (include/qru.h, qru_dtype), right after their first matrix argument's
 * check. */
int qru_check_real(qru_dtype dtype);
/* Bit QRU_OP_name of an op mask (real_only_ops, complex_ops). */
#define QRU_OPM(name) (1ull << QRU_OP_##name)
/* The ops every routine may reach: memory, the BLAS, norms and the
 * non-finite count, the element-wise kernels. */
#define QRU_OPS_DENSE                                                          \
    (QRU_OPM(sync) | QRU_OPM(upload) | QRU_OPM(download) | QRU_OPM(copy) |     \
     QRU_OPM(laset) | QRU_OPM(transpose) | QRU_OPM(gemm) | QRU_OPM(trsm) |     \
     QRU_OPM(col_norms) | QRU_OPM(col_norms_dev) |                             \
     QRU_OPM(count_nonfinite) | QRU_OPM(count_nonzero) | QRU_OPM(geadd) |      \
     QRU_OPM(syrk) |                                                           \
     QRU_OPM(lacpy) | QRU_OPM(gemm_batched) | QRU_OPM(geadd_batched))
/* The ops of the QR factorisation and the updates' reflectors and
 * rotations (the column shift's engine, qru_upd_shift). */
#define QRU_OPS_QR                                                             \
    (QRU_OPS_DENSE | QRU_OPM(house) | QRU_OPM(larf) | QRU_OPM(wy_append) |     \
     QRU_OPM(givens_make) | QRU_OPM(givens_apply) | QRU_OPM(panel_qr) |        \
     QRU_OPM(panel_qr_tp) | QRU_OPM(wy_left) | QRU_OPM(lane) |                 \
     QRU_OPM(lane_mark) | QRU_OPM(lane_join) | QRU_OPM(panel_qr_max_nb) |      \
     QRU_OPM(givens_sweeps) | QRU_OPM(givens_accum) | QRU_OPM(geqrf_full))
/* 0 for float and double, and for a complex dtype where ctx's backend
 * takes it in every op of the mask ops (its table's complex_ops);
 * otherwise QRU_ERR_UNSUPPORTED with a text naming the backend and the
 * op (QRU_CHECK puts the routine's name first): the check of the
 * routines that take complex data where the backend's ops do, after
 * their argument checks and before they change any data. */
int qru_check_complex_ops(const qru_context *ctx, qru_dtype dtype,
                          unsigned long long ops);
/* "float", "double", "complex float", "complex double" or "?". */
const char *qru_dtype_name(qru_dtype dt);
/* The same, and M must be square. */
int qru_arg_square(const qru_context *ctx, int i, const char *name,
                   const qru_matrix *M, qru_dtype dt);
/* The memory the in/out rules of the API compare (matrix.c), every
 * backend alike: a rows x cols array of elements of es bytes at p with
 * leading dimension ld, located through the table's mem_locate (so a
 * wrapped pointer into another matrix's allocation, a view at an element
 * offset and an OpenCL sub-buffer are compared where they lie).
 * qru_mem_overlap: 1 when the two arrays share an element (exact for
 * equal leading dimensions; otherwise when the spans from their first to
 * their last element overlap); empty arrays share nothing.
 * qru_mem_same_start: 1 when they start at the same byte with the same
 * leading dimension (one array, possibly of another size).
 * qru_mat_overlap / qru_mat_same_start: the same for two matrices
 * (qru_mat_overlap: also 1 for one matrix given twice, even empty). */
int qru_mem_overlap(const qru_context *ctx, size_t es, qru_ptr a, int ra,
                    int ca, int lda, qru_ptr b, int rb, int cb, int ldb);
int qru_mem_same_start(const qru_context *ctx, size_t es, qru_ptr a, int lda,
                       qru_ptr b, int ldb);
int qru_mat_overlap(const qru_matrix *A, const qru_matrix *B);
int qru_mat_same_start(const qru_matrix *A, const qru_matrix *B);
/* Argument i, the matrix called name, must not share memory with the
 * matrix called other (qru_mat_overlap). */
#define QRU_ARG_APART(ctx, i, name, M, other, O)                               \
    QRU_ARG((ctx), (i), !qru_mat_overlap((M), (O)),                            \
            "%s overlaps %s (they share memory)", (name), (other))

/* 0 when the character *c (argument i, called name) is one of allowed
 * (upper case; *c is upper-cased in place), else -i with the text. */
int qru_arg_char(int i, const char *name, char *c, const char *allowed);
#define QRU_ARG_CHAR(ctx, i, name, c, allowed)                                 \
    QRU_CHECK((ctx), qru_arg_char((i), (name), &(c), (allowed)))
/* Argument i, the matrix called name, must be usable (qru_arg_matrix). */
#define QRU_ARG_MAT(ctx, i, name, M, dt)                                       \
    QRU_CHECK((ctx), qru_arg_matrix((ctx), (i), (name), (M), (dt)))

#ifdef __cplusplus
}
#endif

#endif /* QRU_INTERNAL_H */
