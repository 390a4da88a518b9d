/*
 * OpenCL programs: the shared kernels built once per context and
 * precision (retried on a failed build), their build logs and the
 * backend's accessors.
 */
#include "ocl_internal.h"

#if defined(__unix__)
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#endif

const char *const qru_ocl_kernel_names[K_COUNT] = {
#define QRU_OCL_KN_(e, name) name,
    QRU_OCL_KERNELS(QRU_OCL_KN_)
#undef QRU_OCL_KN_
};

/* ---- programs ----------------------------------------------------------- */

/* The program of a complex type: the kernels of the ops that the QR
 * factorisation, least squares, the updates, the least-squares batches
 * (every form) and the Cholesky routines and batches run (the complex
 * conventions in src/qru_ops.h), from these sources only (their
 * real-only parts left out by QRU_CPLX_PROG); every other kernel is NULL
 * there. */
static const char *const cplx_sources[] = {
    "qru_kdefs.h",    "qru_base.cl",      "qru_panel.cl",  "qru_copy.cl",
    "qru_update.cl",  "qru_batch.cl",     "qru_batch_cgs.cl",
    "qru_batch_cols.cl", "qru_batch_q.cl", "qru_chol.cl"};
static const int cplx_kernels[] = {
    K_LASET,       K_SCAL2D,  K_COPY2D,  K_COPY_BACK,       K_TRANSPOSE,
    K_COL_NORMS,   K_HOUSE,   K_LARF,    K_GEMV_T,          K_WY_COL,
    K_GIVENS_MAKE, K_GIVENS_APPLY, K_GEADD, K_LACPY, K_SCAL_TRI,
    K_GIVENS_SWEEPS, K_GIVENS_SWEEPS_LDS, K_GIVENS_ACCUM, K_WY_LEFT,
    K_POTRF_PANEL, K_COUNT_NONFINITE, K_LSQ_BATCH_ADD_ROWS,
    K_LSQ_BATCH_SOLVE, K_LSQ_BATCH_RMC_ROTATE, K_LSQ_BATCH_RMC_Q,
    K_LSQ_BATCH_ADD_ROWS_Q, K_LSQ_BATCH_GEQR_THIN, K_LSQ_BATCH_RMQ_COMPLETE,
    K_LSQ_BATCH_RMQ_COMMIT, K_LSQ_BATCH_RMQ_ROTATE, K_LSQ_BATCH_RMQ_DROP,
    K_LSQ_BATCH_ACQ_COMPLETE, K_LSQ_BATCH_ACQ_COMMIT, K_LSQ_BATCH_ACQ_ROTATE,
    K_CHOL_ROT,
    K_CHOL_UPDATE_BATCH, K_CHOL_INSERT_BATCH, K_CHOL_DELETE_BATCH,
    K_PANEL_QR,    K_PANEL_QR_LDS};

int ocl_kernel_complex(int k)
{
    for (size_t i = 0; i < sizeof cplx_kernels / sizeof cplx_kernels[0]; ++i)
        if (cplx_kernels[i] == k)
            return 1;
    return 0;
}

static int cplx_source(const char *name)
{
    for (size_t i = 0; i < sizeof cplx_sources / sizeof cplx_sources[0]; ++i)
        if (strcmp(cplx_sources[i], name) == 0)
            return 1;
    return 0;
}

void ocl_keep_log(ocl_impl *im, cl_program prog, int failed)
{
    if (im->log_failed)
        return; /* keep the log of the first failure */
    im->log_failed = failed;
    size_t len = 0;
    if (clGetProgramBuildInfo(prog, im->device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                              &len) != CL_SUCCESS)
        return;
    char *log = malloc(len + 1);
    if (!log)
        return;
    log[0] = '\0';
    clGetProgramBuildInfo(prog, im->device, CL_PROGRAM_BUILD_LOG, len, log,
                          NULL);
    log[len] = '\0';
    free(im->log);
    im->log = log;
}

void ocl_release_kernels(ocl_prog *p)
{
    for (int k = 0; k < K_COUNT; ++k)
        if (p->k[k]) {
            clReleaseKernel(p->k[k]);
            p->k[k] = NULL;
        }
}

/* One attempt at building the program with options opts and creating its
 * kernels: 0 (p->prog, p->k set), or a status with the failing OpenCL code
 * in *err; *prog is then the program of the attempt (for its log; the
 * caller releases it) or NULL. */
int ocl_build_once(ocl_impl *im, ocl_prog *p, int cplx, const char *opts,
                   cl_program *prog, cl_int *err)
{
    const char *text[64];
    cl_uint ns = 0;
    for (int i = 0; i < qru_ocl_source_count && ns < 64; ++i)
        if (!cplx || cplx_source(qru_ocl_source_names[i]))
            text[ns++] = qru_ocl_source_text[i];
    *prog = clCreateProgramWithSource(im->clctx, ns, text, NULL, err);
    if (*err != CL_SUCCESS) {
        *prog = NULL;
        return ocl_cl_status(*err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                : QRU_ERR_DEVICE;
    }
    *err = clBuildProgram(*prog, 1, &im->device, opts, NULL, NULL);
    if (*err != CL_SUCCESS) {
        int st = ocl_cl_status(*err);
        return *err == CL_INVALID_BUILD_OPTIONS || st == 0 ? QRU_ERR_BUILD
                                                           : st;
    }
    for (int k = 0; k < K_COUNT; ++k) {
        if (cplx && !ocl_kernel_complex(k))
            continue;
        p->k[k] = clCreateKernel(*prog, qru_ocl_kernel_names[k], err);
        if (*err == CL_SUCCESS)
            *err = clGetKernelWorkGroupInfo(p->k[k], im->device,
                                            CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof p->kmax[k], &p->kmax[k],
                                            NULL);
        /* asked before any clSetKernelArg: later answers include the
         * sizes of the __local arguments last set */
        cl_ulong lm = 0;
        if (*err == CL_SUCCESS)
            *err = clGetKernelWorkGroupInfo(p->k[k], im->device,
                                            CL_KERNEL_LOCAL_MEM_SIZE,
                                            sizeof lm, &lm, NULL);
        p->klocal[k] = lm > (cl_ulong)SIZE_MAX ? SIZE_MAX : (size_t)lm;
        if (*err != CL_SUCCESS) {
            ocl_release_kernels(p);
            int st = ocl_cl_status(*err);
            return *err == CL_INVALID_KERNEL_NAME ||
                           *err == CL_INVALID_PROGRAM_EXECUTABLE || st == 0
                       ? QRU_ERR_BUILD
                       : st;
        }
    }
    p->prog = *prog;
    return 0;
}

/* Attempts at a program build.  PoCL 3.x (Debian 12) shares its kernel
 * cache between processes without locking: a process that finds the
 * cached program.bc another one is rewriting at that moment fails its
 * clBuildProgram (CL_BUILD_PROGRAM_FAILURE), or builds a program without
 * kernels (clCreateKernel: CL_INVALID_KERNEL_NAME).  A new attempt a moment
 * later finds the complete file.  A genuine compiler error fails every
 * attempt, so it costs BUILD_TRIES compilations before QRU_ERR_BUILD.
 * Rarely, on a loaded machine, PoCL aborts the process instead (an
 * assertion in pocl_llvm_build_program), which no retry can catch: so on
 * PoCL the builds of qru's processes also take turns (build_lock). */
#define BUILD_TRIES 4

void ocl_pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Seconds a build waits for the lock before it goes ahead without it (a
 * build holds it for a few seconds at most; never wait forever) */
#define BUILD_LOCK_WAIT_S 120

/* On PoCL: an exclusive lock that the builds of this user's qru processes
 * take in turn (flock on /tmp/qru-pocl-build-<uid>.lock, released by the
 * kernel if a process dies holding it); the descriptor, or -1 where there
 * is none to take (not PoCL, no such file, the wait ran out: the build
 * goes ahead as before, its retries still cover the cache race). */
static int build_lock(const ocl_impl *im)
{
#if defined(__unix__)
    if (!im->pocl)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/qru-pocl-build-%ld.lock",
             (long)getuid());
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    for (long waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 20) {
        if (waited >= 1000L * BUILD_LOCK_WAIT_S) {
            close(fd);
            return -1;
        }
        ocl_pause_ms(20);
    }
    return fd;
#else
    (void)im;
    return -1;
#endif
}

static void build_unlock(int fd)
{
#if defined(__unix__)
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
#else
    (void)fd;
#endif
}

/* The program of element type dt, built on first use. */
int ocl_get_prog(qru_context *ctx, qru_dtype dt, ocl_prog **out)
{
    ocl_impl *im = IMPL(ctx);
    int di = qru_dtype_real(dt) == QRU_DOUBLE, cplx = qru_dtype_complex(dt);
    static const char *const tname[2][2] = {{"float", "double"},
                                            {"complex float",
                                             "complex double"}};
    if (di && !im->fp64)
        return qru_fail(QRU_ERR_UNSUPPORTED,
                        "the OpenCL device has no double precision "
                        "(cl_khr_fp64)");
    ocl_prog *p = &im->prog[2 * cplx + di];
    if (p->state == 1) {
        *out = p;
        return 0;
    }
    if (p->state < 0)
        return qru_fail(p->state, "the OpenCL kernels (%s) failed to build "
                                  "earlier in this context",
                        tname[cplx][di]);
    char opts[512];
    const char *rt = di ? "double" : "float";
    snprintf(opts, sizeof opts,
             "-cl-std=CL1.2 -w -DT=%s%s%s%s -DQRU_RED=%d -DQRU_TILE=%d "
             "-DQRU_WYL_NB=%d -DQRU_WYL_CB=%d%s %s",
             rt, cplx ? "2 -DQRU_CPLX_PROG -DQRU_R=" : "", cplx ? rt : "",
             di ? " -DQRU_FP64" : "", im->tune.wg, im->tune.tile,
             QRU_WYL_NB, QRU_WYL_CB,
             !di && im->fp32_rounded ? " -cl-fp32-correctly-rounded-divide-sqrt"
                                     : "",
             im->extra);
    int st = 0;
    int lock = build_lock(im);
    for (int t = 0; t < BUILD_TRIES; ++t) {
        cl_program prog = NULL;
        cl_int err = CL_SUCCESS;
        if (t > 0)
            ocl_pause_ms(50L << t); /* 100, 200, 400 ms */
        st = ocl_build_once(im, p, cplx, opts, &prog, &err);
        int last = st == 0 || t == BUILD_TRIES - 1 ||
                   err == CL_INVALID_BUILD_OPTIONS || st == QRU_ERR_ALLOC;
        if (last && prog)
            ocl_keep_log(im, prog, st != 0);
        if (st == 0)
            break;
        if (prog)
            clReleaseProgram(prog);
        if (last)
            break;
    }
    build_unlock(lock);
    if (st == 0) {
        p->state = 1;
        *out = p;
        return 0;
    }
    /* out of memory may pass: a later request tries again */
    p->state = st == QRU_ERR_ALLOC ? 0 : st;
    if (st == QRU_ERR_BUILD)
        return qru_fail(st, "building the OpenCL kernels (%s) failed; the "
                            "compiler log begins: %.200s",
                        tname[cplx][di], im->log ? im->log : "");
    return st;
}

const char *ocl_build_log(const qru_context *ctx)
{
    if (!ctx || ctx->backend != QRU_BACKEND_OPENCL || !ctx->impl)
        return "";
    const ocl_impl *im = ctx->impl;
    return im->log ? im->log : "";
}

const qru_ocl_tuning *ocl_tuning_of(const qru_context *ctx)
{
    if (!ctx || ctx->backend != QRU_BACKEND_OPENCL || !ctx->impl)
        return NULL;
    return &((const ocl_impl *)ctx->impl)->tune;
}
