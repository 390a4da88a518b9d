/*
 * Internal interface of the OpenCL backend (the .c files of opencl/): the context
 * state, the program cache, the kernel list and the launch helpers.  Not
 * part of the library's internal interface (src/qru_internal.h) and not
 * seen outside opencl/ (the tests use qru_opencl.h).
 *
 *   opencl_backend.c  device selection, context creation, the ops table
 *   opencl_program.c  building the kernels once per context and precision
 *   opencl_launch.c   kernel arguments and launches
 *   opencl_memory.c   memory, transfers, copies, laset, transpose
 *   opencl_blas.c     CLBlast GEMM / TRSM, column norms, the non-finite count
 *   opencl_kernels.c  the Householder, Givens, Cholesky and panel kernels
 *   opencl_batch.c    the batched ops (chol_update_batch, chol_insert_batch,
 *                     chol_delete_batch, lsq_batch_add_rows,
 *                     lsq_batch_solve)
 *   opencl_batch_q.c  the thin-form batched ops (lsq_batch_add_rows_q,
 *                     lsq_batch_remove_rows_q, lsq_batch_geqr_thin)
 *   opencl_batch_cols.c the batches' column updates (lsq_batch_remove_cols,
 *                     lsq_batch_add_cols_q)
 *   opencl_omp.c      the Gram form's step of orthogonal matching pursuit
 *                     (omp_gram_step)
 *   opencl_calibrate.c the cost model measured on the device (ocl_init)
 */
#ifndef QRU_OCL_INTERNAL_H
#define QRU_OCL_INTERNAL_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CL/cl.h>
#include <clblast_c.h>

#include "qru_opencl.h"

/* from qru_ocl_sources.c, which cmake/qru_opencl.cmake generates in the
 * build directory */
extern const char *const qru_ocl_source_text[];
extern const char *const qru_ocl_source_names[];
extern const int qru_ocl_source_count;

/* The device kernels of kernels/ *.cl (enum K_<NAME>, kernel name). */
/* clang-format off */
#define QRU_OCL_KERNELS(X) \
    X(K_LASET, "qru_laset") \
    X(K_SCAL2D, "qru_scal2d") \
    X(K_COPY2D, "qru_copy2d") \
    X(K_COPY_BACK, "qru_copy_back") \
    X(K_TRANSPOSE, "qru_transpose") \
    X(K_COL_NORMS, "qru_col_norms") \
    X(K_HOUSE, "qru_house") \
    X(K_LARF, "qru_larf") \
    X(K_GEMV_T, "qru_gemv_t") \
    X(K_WY_COL, "qru_wy_col") \
    X(K_WY_LEFT, "qru_wy_left") \
    X(K_GIVENS_MAKE, "qru_givens_make") \
    X(K_GIVENS_APPLY, "qru_givens_apply") \
    X(K_GEADD, "qru_geadd") \
    X(K_LACPY, "qru_lacpy") \
    X(K_SCAL_TRI, "qru_scal_tri") \
    X(K_SYRK1, "qru_syrk1") \
    X(K_POTRF_PANEL, "qru_potrf_panel") \
    X(K_CHOL_ROT, "qru_chol_rot") \
    X(K_CHOL_UPDATE_BATCH, "qru_chol_update_batch") \
    X(K_CHOL_INSERT_BATCH, "qru_chol_insert_batch") \
    X(K_CHOL_DELETE_BATCH, "qru_chol_delete_batch") \
    X(K_LSQ_BATCH_ADD_ROWS, "qru_lsq_batch_add_rows") \
    X(K_LSQ_BATCH_SOLVE, "qru_lsq_batch_solve") \
    X(K_LSQ_BATCH_ADD_ROWS_Q, "qru_lsq_batch_add_rows_q") \
    X(K_LSQ_BATCH_RMQ_COMPLETE, "qru_lsq_batch_rmq_complete") \
    X(K_LSQ_BATCH_RMQ_COMMIT, "qru_lsq_batch_rmq_commit") \
    X(K_LSQ_BATCH_RMQ_ROTATE, "qru_lsq_batch_rmq_rotate") \
    X(K_LSQ_BATCH_RMQ_DROP, "qru_lsq_batch_rmq_drop") \
    X(K_LSQ_BATCH_RMC_ROTATE, "qru_lsq_batch_rmc_rotate") \
    X(K_LSQ_BATCH_RMC_Q, "qru_lsq_batch_rmc_q") \
    X(K_LSQ_BATCH_ACQ_COMPLETE, "qru_lsq_batch_acq_complete") \
    X(K_LSQ_BATCH_ACQ_COMMIT, "qru_lsq_batch_acq_commit") \
    X(K_LSQ_BATCH_ACQ_ROTATE, "qru_lsq_batch_acq_rotate") \
    X(K_LSQ_BATCH_GEQR_THIN, "qru_lsq_batch_geqr_thin") \
    X(K_CHOL_R1_PART, "qru_chol_r1_part") \
    X(K_CHOL_R1_ROWS, "qru_chol_r1_rows") \
    X(K_CHOL_R1_COEF, "qru_chol_r1_coef") \
    X(K_CHOL_RK_COEF, "qru_chol_rk_coef") \
    X(K_CHOL_RK_INFO, "qru_chol_rk_info") \
    X(K_CHOL_R1_APPLY, "qru_chol_r1_apply") \
    X(K_CHOL_RK_PART, "qru_chol_rk_part") \
    X(K_CHOL_RK_APPLY, "qru_chol_rk_apply") \
    X(K_CHOL_R1_RHS, "qru_chol_r1_rhs") \
    X(K_R1ROT_CS, "qru_r1rot_cs") \
    X(K_R1ROT_PART, "qru_r1rot_part") \
    X(K_R1ROT_APPLY, "qru_r1rot_apply") \
    X(K_PANEL_QR, "qru_panel_qr") \
    X(K_PANEL_QR_LDS, "qru_panel_qr_lds") \
    X(K_GIVENS_SWEEPS, "qru_givens_sweeps") \
    X(K_GIVENS_SWEEPS_LDS, "qru_givens_sweeps_lds") \
    X(K_GIVENS_ACCUM, "qru_givens_accum") \
    X(K_COUNT_NONFINITE, "qru_count_nonfinite") \
    X(K_OMP_GRAM_ROWS, "qru_omp_gram_rows") \
    X(K_OMP_GRAM_PICK, "qru_omp_gram_pick") \
    X(K_GRAM_COLDOT, "qru_gram_coldot") \
    X(K_GRAM_ROWDOT, "qru_gram_rowdot") \
    X(K_LARS_ROWS, "qru_lars_rows") \
    X(K_LARS_UPDATE, "qru_lars_update")
/* clang-format on */
enum {
#define QRU_OCL_K_(e, name) e,
    QRU_OCL_KERNELS(QRU_OCL_K_)
#undef QRU_OCL_K_
    K_COUNT
};
extern const char *const qru_ocl_kernel_names[K_COUNT];

typedef struct ocl_prog {
    int state; /* 0: not built, 1: built, < 0: the status of the failure */
    cl_program prog;
    cl_kernel k[K_COUNT];
    size_t kmax[K_COUNT]; /* CL_KERNEL_WORK_GROUP_SIZE */
    size_t klocal[K_COUNT]; /* CL_KERNEL_LOCAL_MEM_SIZE before any argument
                             * is set: the kernel's own local memory */
} ocl_prog;

typedef struct ocl_impl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context clctx;
    cl_command_queue q;
    cl_device_type type;
    int fp64;
    int fp32_rounded;   /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT: single
                         * precision programs are built with
                         * -cl-fp32-correctly-rounded-divide-sqrt */
    size_t max_alloc;   /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t max_wg;      /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_item[3]; /* CL_DEVICE_MAX_WORK_ITEM_SIZES (first 3) */
    size_t local_mem;   /* CL_DEVICE_LOCAL_MEM_SIZE (bytes) */
    qru_ocl_tuning tune;
    ocl_prog prog[4];   /* by element type: float, double, complex float,
                         * complex double (ocl_get_prog) */
    char *log;          /* build log (see ocl_build_log) */
    int log_failed;     /* log is that of a failed build */
    char extra[256];    /* env QRU_OCL_BUILD_OPTIONS, read at init */
    int pocl;           /* the platform is PoCL (builds take a lock) */
    cl_mem scratch;     /* device scratch (col_norms, staged copies) */
    size_t scratch_bytes;
    int blast_used;     /* CLBlast ran on this context (see ocl_fini) */
} ocl_impl;

#define IMPL(ctx) ((ocl_impl *)(ctx)->impl)

static inline int pow2_floor(size_t v)
{
    int p = 1;
    while ((size_t)p * 2 <= v && p < (1 << 20))
        p *= 2;
    return p;
}

static inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static inline size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }
static inline size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }

typedef struct karg {
    size_t size;
    const void *ptr;
} karg;

/* Typed scalar storage for T arguments (complex: (v, 0)). */
typedef union tval {
    cl_float f;
    cl_double d;
    cl_float2 c;
    cl_double2 z;
} tval;

#define KMEM(p) ((karg){sizeof(cl_mem), &(p).h})
#define KLONG(v) ((karg){sizeof(cl_long), &(v)})
#define KINT(v) ((karg){sizeof(cl_int), &(v)})
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Grid caps: the kernels loop grid-stride, so any grid is correct. */
#define GRID_CAP ((size_t)1 << 16)

/* Every op of the op list (src/qru_ops.h) that the backend implements
 * (REQ and OPT) is ocl_<name> (prototypes for all; the table in
 * opencl_backend.c names the OPT ones that exist). */
#define OCL_PROTO_(name, params, args, need, stat) OCL_PROTO_##need(name, params)
#define OCL_PROTO_REQ(name, params) int ocl_##name params;
#define OCL_PROTO_OPT(name, params) int ocl_##name params;
#define OCL_PROTO_CAP(name, params)
QRU_OPS(OCL_PROTO_)

/* helpers shared by the files of the backend */
int ocl_cl_status(cl_int err);
cl_device_type ocl_device_type(cl_device_id d);
int ocl_first_gpu(const cl_device_id *d, cl_uint n);
int ocl_pick_device(int pidx, int didx, cl_platform_id *plat,
                       cl_device_id *dev);
int ocl_probe(void);
void ocl_set_tuning(ocl_impl *im, const qru_context *ctx);
int ocl_init(qru_context *ctx, const qru_context_options *opt);
void ocl_fini(qru_context *ctx);
int ocl_supports(const qru_context *ctx, qru_dtype dt);
qru_device_type ocl_context_device_type(const qru_context *ctx);
void ocl_keep_log(ocl_impl *im, cl_program prog, int failed);
void ocl_release_kernels(ocl_prog *p);
int ocl_build_once(ocl_impl *im, ocl_prog *p, int cplx, const char *opts,
                   cl_program *prog, cl_int *err);
void ocl_pause_ms(long ms);
int ocl_get_prog(qru_context *ctx, qru_dtype dt, ocl_prog **out);
karg ocl_targ(qru_dtype dt, double v, tval *store);
size_t ocl_wg_for(const ocl_impl *im, const ocl_prog *p, int k, size_t want);
/* The work-items a problem of a batched kernel whose size asks for want:
 * the device's fixed number where its tuning has one (batch_items: a CPU
 * device), else want. */
size_t ocl_batch_items(const ocl_impl *im, size_t want);
int ocl_launch(qru_context *ctx, ocl_prog *p, int k, cl_uint dims,
                  const size_t *gws, const size_t *lws, int nargs,
                  const karg *args);
int ocl_launch1d(qru_context *ctx, ocl_prog *p, int k, size_t n,
                    int nargs, const karg *args);
/* A launch of kernel k over count problems, ONE work-group a problem (at
 * most GRID_CAP groups; the kernels loop over the rest) of the largest
 * power of two of items up to want that the kernel allows; es > 0: the
 * last of the nargs arguments is a __local buffer of w + 1 elements of es
 * bytes for the w items (its size set here). */
int ocl_launch_problems(qru_context *ctx, ocl_prog *p, int k, int want,
                        int count, int nargs, karg *args, size_t es);
int ocl_launch2d(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                    int nargs, const karg *args);
int ocl_launch_colred(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                         int nargs, const karg *args);
int ocl_uplo_code(char uplo);
int ocl_alloc(qru_context *ctx, size_t bytes, void **h);
void ocl_free(qru_context *ctx, void *h);
void ocl_mem_locate(const qru_context *ctx, const void *h, const void **base,
                    uintptr_t *pos);
int ocl_scratch(qru_context *ctx, size_t bytes, cl_mem *out);
int ocl_blast_status(qru_context *ctx, CLBlastStatusCode s);
CLBlastTranspose ocl_btr(char t);
/* ocl_btr for element type dt: 'C' conjugates a complex dt */
CLBlastTranspose ocl_btr_dt(qru_dtype dt, char t);
/* The kernels of the programs of the complex types (the others are real
 * only: such a kernel is NULL there and its launch QRU_ERR_UNSUPPORTED);
 * 1 if kernel k is one of them. */
int ocl_kernel_complex(int k);
/* The context's cost models measured on its device where its tuning asks
 * (cost_calibrate), once per device and process (opencl_calibrate.c);
 * best effort: a failure leaves the table's constants. */
void ocl_calibrate(qru_context *ctx);
size_t ocl_panel_lds_bytes(const qru_context *ctx, qru_dtype dt,
                              const ocl_prog *p);

#endif /* QRU_OCL_INTERNAL_H */
