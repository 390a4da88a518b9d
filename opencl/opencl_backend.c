/*
 * The OpenCL backend: cl_mem buffers addressed as (cl_mem, element offset),
 * one in-order command queue per context, CLBlast for GEMM/TRSM, and the
 * shared device kernels kernels/ *.cl (embedded as program text by
 * cmake/qru_embed_kernels.cmake, built lazily once per context and
 * precision).  Device selection, build logs and tuning are documented in
 * qru_opencl.h.
 *
 * Every op is asynchronous (queued) except upload/download/col_norms, which
 * return when the data is where it belongs (the caller's host buffer may be
 * reused at once).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <CL/cl.h>
#include <clblast_c.h>

#include "qru_opencl.h"

/* from the generated qru_ocl_sources.c */
extern const char *const qru_ocl_source_text[];
extern const char *const qru_ocl_source_names[];
extern const int qru_ocl_source_count;

/* ---- kernels ---------------------------------------------------------- */

enum {
    K_LASET,
    K_SCAL2D,
    K_COPY2D,
    K_COPY_BACK,
    K_TRANSPOSE,
    K_COL_NORMS,
    K_HOUSE,
    K_LARF,
    K_GEMV_T,
    K_WY_COL,
    K_GIVENS_MAKE,
    K_GIVENS_APPLY,
    K_GEADD,
    K_LACPY,
    K_SCAL_TRI,
    K_POTRF_PANEL,
    K_CHOL_ROT,
    K_PANEL_QR,
    K_PANEL_QR_LDS,
    K_GIVENS_SWEEPS,
    K_GIVENS_SWEEPS_LDS,
    K_GIVENS_ACCUM,
    K_COUNT_NONFINITE,
    K_COUNT
};

static const char *const kernel_names[K_COUNT] = {
    "qru_laset",       "qru_scal2d",     "qru_copy2d",   "qru_copy_back",
    "qru_transpose",   "qru_col_norms",  "qru_house",    "qru_larf",
    "qru_gemv_t",      "qru_wy_col",     "qru_givens_make",
    "qru_givens_apply", "qru_geadd",     "qru_lacpy",    "qru_scal_tri",
    "qru_potrf_panel", "qru_chol_rot",    "qru_panel_qr",
    "qru_panel_qr_lds", "qru_givens_sweeps", "qru_givens_sweeps_lds",
    "qru_givens_accum", "qru_count_nonfinite",
};

typedef struct ocl_prog {
    int state; /* 0: not built, 1: built, < 0: the status of the failure */
    cl_program prog;
    cl_kernel k[K_COUNT];
    size_t kmax[K_COUNT]; /* CL_KERNEL_WORK_GROUP_SIZE */
} ocl_prog;

typedef struct ocl_impl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context clctx;
    cl_command_queue q;
    cl_device_type type;
    int fp64;
    size_t max_alloc;   /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t max_wg;      /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t local_mem;   /* CL_DEVICE_LOCAL_MEM_SIZE (bytes) */
    qru_ocl_tuning tune;
    ocl_prog prog[2];   /* [0] float, [1] double */
    char *log;          /* build log (see qru_opencl_build_log) */
    int log_failed;     /* log is that of a failed build */
    char extra[256];    /* env QRU_OCL_BUILD_OPTIONS, read at init */
    cl_mem scratch;     /* small device scratch (col_norms) */
    size_t scratch_bytes;
} ocl_impl;

#define IMPL(ctx) ((ocl_impl *)(ctx)->impl)

/* Maps an OpenCL (or CLBlast, which shares the OpenCL codes) error. */
static int cl_status(cl_int err)
{
    switch (err) {
    case CL_SUCCESS:
        return 0;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE:
        return QRU_ERR_ALLOC;
    case CL_BUILD_PROGRAM_FAILURE:
        return QRU_ERR_BUILD;
    default:
        return QRU_ERR_DEVICE;
    }
}

static int pow2_floor(size_t v)
{
    int p = 1;
    while ((size_t)p * 2 <= v && p < (1 << 20))
        p *= 2;
    return p;
}

/* ---- device selection -------------------------------------------------- */

/* Devices of a platform (CL_DEVICE_TYPE_ALL); *n = 0 if none.  Caller
 * frees. */
static cl_device_id *platform_devices(cl_platform_id p, cl_uint *n)
{
    *n = 0;
    cl_uint cnt = 0;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &cnt) != CL_SUCCESS ||
        cnt == 0)
        return NULL;
    cl_device_id *d = malloc(sizeof *d * cnt);
    if (!d)
        return NULL;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, cnt, d, NULL) != CL_SUCCESS) {
        free(d);
        return NULL;
    }
    *n = cnt;
    return d;
}

static cl_device_type device_type(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t;
}

/* Index of the first GPU in d[0:n), else 0. */
static int first_gpu(const cl_device_id *d, cl_uint n)
{
    for (cl_uint i = 0; i < n; ++i)
        if (device_type(d[i]) & CL_DEVICE_TYPE_GPU)
            return (int)i;
    return 0;
}

static int pick_device(int pidx, int didx, cl_platform_id *plat,
                       cl_device_id *dev)
{
    cl_uint np = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
        return QRU_ERR_BACKEND_UNAVAILABLE;
    cl_platform_id *ps = malloc(sizeof *ps * np);
    if (!ps)
        return QRU_ERR_ALLOC;
    if (clGetPlatformIDs(np, ps, NULL) != CL_SUCCESS) {
        free(ps);
        return QRU_ERR_BACKEND_UNAVAILABLE;
    }
    int st = QRU_ERR_BACKEND_UNAVAILABLE;
    int chosen = -1;
    if (pidx >= 0) {
        if ((cl_uint)pidx < np)
            chosen = pidx;
    } else {
        /* the first platform with a GPU, else the first with a device */
        int any = -1;
        for (cl_uint i = 0; i < np && chosen < 0; ++i) {
            cl_uint nd;
            cl_device_id *d = platform_devices(ps[i], &nd);
            if (nd > 0 && any < 0)
                any = (int)i;
            if (nd > 0 && (device_type(d[first_gpu(d, nd)]) &
                           CL_DEVICE_TYPE_GPU))
                chosen = (int)i;
            free(d);
        }
        if (chosen < 0)
            chosen = any;
    }
    if (chosen >= 0) {
        cl_uint nd;
        cl_device_id *d = platform_devices(ps[chosen], &nd);
        int k = didx >= 0 ? didx : (nd > 0 ? first_gpu(d, nd) : -1);
        if (k >= 0 && (cl_uint)k < nd) {
            *plat = ps[chosen];
            *dev = d[k];
            st = 0;
        }
        free(d);
    }
    free(ps);
    return st;
}

static int ocl_probe(void)
{
    cl_uint np = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
        return QRU_ERR_BACKEND_UNAVAILABLE;
    cl_platform_id *ps = malloc(sizeof *ps * np);
    if (!ps)
        return QRU_ERR_BACKEND_UNAVAILABLE;
    int st = QRU_ERR_BACKEND_UNAVAILABLE;
    if (clGetPlatformIDs(np, ps, NULL) == CL_SUCCESS)
        for (cl_uint i = 0; i < np && st != 0; ++i) {
            cl_uint nd = 0;
            if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) ==
                    CL_SUCCESS &&
                nd > 0)
                st = 0;
        }
    free(ps);
    return st;
}

static void set_tuning(ocl_impl *im, const qru_context *ctx)
{
    char vendor[256] = "", name[256] = "";
    clGetDeviceInfo(im->device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor,
                    NULL);
    clGetDeviceInfo(im->device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    qru_ocl_tuning t;
    if (im->type & CL_DEVICE_TYPE_GPU) {
        int mali = strstr(vendor, "ARM") != NULL || strstr(name, "Mali");
        if (mali)
            t = (qru_ocl_tuning){64, 8, 4, 0};
        else
            t = (qru_ocl_tuning){256, 32, 1, 1};
    } else {
        t = (qru_ocl_tuning){64, 16, 4, 1};
    }
    /* overrides from the environment (read at context creation) */
    if (ctx->env.ocl_wg > 0)
        t.wg = ctx->env.ocl_wg;
    if (ctx->env.ocl_tile > 0)
        t.tile = ctx->env.ocl_tile;
    if (ctx->env.ocl_vec > 0)
        t.vec = ctx->env.ocl_vec;
    if (ctx->env.ocl_local >= 0)
        t.transpose_local = ctx->env.ocl_local;
    size_t mw = im->max_wg ? im->max_wg : 1;
    t.wg = pow2_floor((size_t)t.wg < mw ? (size_t)t.wg : mw);
    while (t.tile > 1 && (size_t)t.tile * (size_t)t.tile > mw)
        t.tile /= 2;
    im->tune = t;
}

static void ocl_fini(qru_context *ctx);

static int ocl_init(qru_context *ctx, const qru_context_options *opt)
{
    if (opt && (opt->platform < -1 || opt->device < -1))
        return -3;
    ocl_impl *im = calloc(1, sizeof *im);
    if (!im)
        return QRU_ERR_ALLOC;
    ctx->impl = im;
    cl_int err = CL_SUCCESS;
    int st = 0;
    if (opt && opt->stream) {
        cl_command_queue q = (cl_command_queue)opt->stream;
        cl_command_queue_properties props = 0;
        if (clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof im->clctx,
                                  &im->clctx, NULL) != CL_SUCCESS ||
            clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof im->device,
                                  &im->device, NULL) != CL_SUCCESS ||
            clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props,
                                  NULL) != CL_SUCCESS ||
            clGetDeviceInfo(im->device, CL_DEVICE_PLATFORM,
                            sizeof im->platform, &im->platform,
                            NULL) != CL_SUCCESS) {
            im->clctx = NULL;
            st = QRU_ERR_DEVICE;
            goto fail;
        }
        if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
            im->clctx = NULL;
            st = QRU_ERR_UNSUPPORTED;
            goto fail;
        }
        clRetainContext(im->clctx);
        clRetainCommandQueue(q);
        im->q = q;
    } else {
        int pidx = opt ? opt->platform : -1;
        int didx = opt ? opt->device : -1;
        if (pidx < 0)
            pidx = ctx->env.platform;
        if (didx < 0)
            didx = ctx->env.device;
        if (pidx == -2 || didx == -2) {
            st = QRU_ERR_BACKEND_UNAVAILABLE;
            goto fail;
        }
        st = pick_device(pidx, didx, &im->platform, &im->device);
        if (st)
            goto fail;
        cl_context_properties cp[] = {CL_CONTEXT_PLATFORM,
                                      (cl_context_properties)im->platform, 0};
        im->clctx = clCreateContext(cp, 1, &im->device, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            im->clctx = NULL;
            st = cl_status(err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                 : QRU_ERR_DEVICE;
            goto fail;
        }
        im->q = clCreateCommandQueue(im->clctx, im->device, 0, &err);
        if (err != CL_SUCCESS) {
            im->q = NULL;
            st = cl_status(err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                 : QRU_ERR_DEVICE;
            goto fail;
        }
    }
    /* device properties */
    im->type = device_type(im->device);
    cl_ulong maxalloc = 0;
    clGetDeviceInfo(im->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc,
                    &maxalloc, NULL);
    im->max_alloc = maxalloc > (cl_ulong)SIZE_MAX ? SIZE_MAX : (size_t)maxalloc;
    clGetDeviceInfo(im->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                    sizeof im->max_wg, &im->max_wg, NULL);
    cl_ulong lmem = 0;
    clGetDeviceInfo(im->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem,
                    NULL);
    im->local_mem = lmem > (cl_ulong)SIZE_MAX ? SIZE_MAX : (size_t)lmem;
    size_t extlen = 0;
    clGetDeviceInfo(im->device, CL_DEVICE_EXTENSIONS, 0, NULL, &extlen);
    char *ext = malloc(extlen + 1);
    if (!ext) {
        st = QRU_ERR_ALLOC;
        goto fail;
    }
    ext[0] = '\0';
    clGetDeviceInfo(im->device, CL_DEVICE_EXTENSIONS, extlen, ext, NULL);
    ext[extlen] = '\0';
    im->fp64 = strstr(ext, "cl_khr_fp64") != NULL && ctx->env.ocl_fp64 != 0;
    free(ext);
    set_tuning(im, ctx);
    snprintf(im->extra, sizeof im->extra, "%s", ctx->env.ocl_build_options);

    char dname[200] = "", pname[200] = "";
    clGetDeviceInfo(im->device, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
    clGetPlatformInfo(im->platform, CL_PLATFORM_NAME, sizeof pname - 1, pname,
                      NULL);
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s (OpenCL: %s)",
             dname, pname);
    return 0;
fail:
    ocl_fini(ctx);
    return st;
}

static void ocl_fini(qru_context *ctx)
{
    ocl_impl *im = IMPL(ctx);
    if (!im)
        return;
    if (im->q)
        clFinish(im->q);
    for (int p = 0; p < 2; ++p) {
        for (int k = 0; k < K_COUNT; ++k)
            if (im->prog[p].k[k])
                clReleaseKernel(im->prog[p].k[k]);
        if (im->prog[p].prog)
            clReleaseProgram(im->prog[p].prog);
    }
    if (im->scratch)
        clReleaseMemObject(im->scratch);
    if (im->q)
        clReleaseCommandQueue(im->q);
    if (im->clctx)
        clReleaseContext(im->clctx);
    free(im->log);
    free(im);
    ctx->impl = NULL;
}

static int ocl_supports(const qru_context *ctx, qru_dtype dt)
{
    if (dt == QRU_FLOAT)
        return 1;
    return dt == QRU_DOUBLE && IMPL(ctx)->fp64;
}

static int ocl_sync(qru_context *ctx)
{
    return cl_status(clFinish(IMPL(ctx)->q));
}

/* ---- programs ----------------------------------------------------------- */

static void keep_log(ocl_impl *im, cl_program prog, int failed)
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

static void release_kernels(ocl_prog *p)
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
static int build_once(ocl_impl *im, ocl_prog *p, const char *opts,
                      cl_program *prog, cl_int *err)
{
    *prog = clCreateProgramWithSource(im->clctx, (cl_uint)qru_ocl_source_count,
                                      (const char **)qru_ocl_source_text, NULL,
                                      err);
    if (*err != CL_SUCCESS) {
        *prog = NULL;
        return cl_status(*err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                : QRU_ERR_DEVICE;
    }
    *err = clBuildProgram(*prog, 1, &im->device, opts, NULL, NULL);
    if (*err != CL_SUCCESS) {
        int st = cl_status(*err);
        return *err == CL_INVALID_BUILD_OPTIONS || st == 0 ? QRU_ERR_BUILD
                                                           : st;
    }
    for (int k = 0; k < K_COUNT; ++k) {
        p->k[k] = clCreateKernel(*prog, kernel_names[k], err);
        if (*err == CL_SUCCESS)
            *err = clGetKernelWorkGroupInfo(p->k[k], im->device,
                                            CL_KERNEL_WORK_GROUP_SIZE,
                                            sizeof p->kmax[k], &p->kmax[k],
                                            NULL);
        if (*err != CL_SUCCESS) {
            release_kernels(p);
            int st = cl_status(*err);
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
 * attempt, so it costs BUILD_TRIES compilations before QRU_ERR_BUILD. */
#define BUILD_TRIES 4

static void pause_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The program of precision dt, built on first use. */
static int get_prog(qru_context *ctx, qru_dtype dt, ocl_prog **out)
{
    ocl_impl *im = IMPL(ctx);
    int di = dt == QRU_DOUBLE;
    if (di && !im->fp64)
        return QRU_ERR_UNSUPPORTED;
    ocl_prog *p = &im->prog[di];
    if (p->state == 1) {
        *out = p;
        return 0;
    }
    if (p->state < 0)
        return p->state;
    char opts[512];
    snprintf(opts, sizeof opts,
             "-cl-std=CL1.2 -w -DT=%s%s -DQRU_RED=%d -DQRU_TILE=%d %s",
             di ? "double" : "float", di ? " -DQRU_FP64" : "", im->tune.wg,
             im->tune.tile, im->extra);
    int st = 0;
    for (int t = 0; t < BUILD_TRIES; ++t) {
        cl_program prog = NULL;
        cl_int err = CL_SUCCESS;
        if (t > 0)
            pause_ms(50L << t); /* 100, 200, 400 ms */
        st = build_once(im, p, opts, &prog, &err);
        int last = st == 0 || t == BUILD_TRIES - 1 ||
                   err == CL_INVALID_BUILD_OPTIONS || st == QRU_ERR_ALLOC;
        if (last && prog)
            keep_log(im, prog, st != 0);
        if (st == 0)
            break;
        if (prog)
            clReleaseProgram(prog);
        if (last)
            break;
    }
    if (st == 0) {
        p->state = 1;
        *out = p;
        return 0;
    }
    /* out of memory may pass: a later request tries again */
    p->state = st == QRU_ERR_ALLOC ? 0 : st;
    return st;
}

const char *qru_opencl_build_log(const qru_context *ctx)
{
    if (!ctx || ctx->backend != QRU_BACKEND_OPENCL || !ctx->impl)
        return "";
    const ocl_impl *im = ctx->impl;
    return im->log ? im->log : "";
}

const qru_ocl_tuning *qru_opencl_tuning(const qru_context *ctx)
{
    if (!ctx || ctx->backend != QRU_BACKEND_OPENCL || !ctx->impl)
        return NULL;
    return &((const ocl_impl *)ctx->impl)->tune;
}

/* ---- kernel launches ------------------------------------------------------ */

typedef struct karg {
    size_t size;
    const void *ptr;
} karg;

/* Typed scalar storage for T arguments. */
typedef union tval {
    cl_float f;
    cl_double d;
} tval;

static karg targ(qru_dtype dt, double v, tval *store)
{
    if (dt == QRU_DOUBLE) {
        store->d = v;
        return (karg){sizeof(cl_double), &store->d};
    }
    store->f = (cl_float)v;
    return (karg){sizeof(cl_float), &store->f};
}

#define KMEM(p) ((karg){sizeof(cl_mem), &(p).h})
#define KLONG(v) ((karg){sizeof(cl_long), &(v)})
#define KINT(v) ((karg){sizeof(cl_int), &(v)})
#define NARGS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Grid caps: the kernels loop grid-stride, so any grid is correct. */
#define GRID_CAP ((size_t)1 << 16)

static size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }

/* Largest work-group size for kernel k: the tuning value clamped to the
 * kernel's limit (a power of 2). */
static size_t wg_for(const ocl_impl *im, const ocl_prog *p, int k, size_t want)
{
    (void)im;
    size_t w = want;
    if (p->kmax[k] && p->kmax[k] < w)
        w = (size_t)pow2_floor(p->kmax[k]);
    return w ? w : 1;
}

static int launch(qru_context *ctx, ocl_prog *p, int k, cl_uint dims,
                  const size_t *gws, const size_t *lws, int nargs,
                  const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    for (cl_uint d = 0; d < dims; ++d)
        if (gws[d] == 0)
            return 0;
    for (int i = 0; i < nargs; ++i) {
        cl_int err = clSetKernelArg(p->k[k], (cl_uint)i, args[i].size,
                                    args[i].ptr);
        if (err != CL_SUCCESS)
            return QRU_ERR_INTERNAL;
    }
    return cl_status(clEnqueueNDRangeKernel(im->q, p->k[k], dims, NULL, gws,
                                            lws, 0, NULL, NULL));
}

static size_t round_up(size_t a, size_t b) { return ceil_div(a, b) * b; }

/* Elementwise launches (1-D over n, 2-D over m x n) use ONE work-group
 * shape per kernel and round the grid up to whole groups (the kernels loop
 * grid-stride and check bounds, so extra work-items do nothing).  A fixed
 * shape matters on PoCL: it compiles a kernel again for every distinct
 * work-group size, and given lws = NULL it derives one from the grid, i.e.
 * a new compilation (about a second of CPU) for almost every matrix
 * shape.  x runs along the columns (consecutive addresses); along x each
 * work-item takes QRU_OCL_VEC elements (grid-stride). */
static int launch1d(qru_context *ctx, ocl_prog *p, int k, size_t n,
                    int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = wg_for(im, p, k, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {round_up(n, w)};
    return launch(ctx, p, k, 1, g, l, nargs, args);
}

static int launch2d(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                    int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = wg_for(im, p, k, (size_t)im->tune.wg);
    size_t lx = min_sz(w, 64), ly = w / lx;
    size_t l[2] = {lx, ly};
    size_t g[2] = {
        round_up(min_sz(ceil_div((size_t)m, (size_t)im->tune.vec), GRID_CAP),
                 lx),
        round_up(min_sz((size_t)n, GRID_CAP), ly)};
    return launch(ctx, p, k, 2, g, l, nargs, args);
}

/* Column-reduction launch (larf, gemv_t): work-group nx x ny, nx * ny <= wg,
 * nx a power of 2 growing with the column length m; groups along x each
 * take ny of the n columns. */
static int launch_colred(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                         int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = wg_for(im, p, k, (size_t)im->tune.wg);
    size_t nx = m <= 512 ? 32 : m <= 2048 ? 64 : m <= 8192 ? 128 : 256;
    if (nx > w)
        nx = w;
    size_t ny = w / nx;
    size_t groups = min_sz(ceil_div((size_t)n, ny), GRID_CAP);
    size_t l[2] = {nx, ny}, g[2] = {nx * groups, ny};
    return launch(ctx, p, k, 2, g, l, nargs, args);
}

static int uplo_code(char uplo)
{
    return (uplo == 'U' || uplo == 'u')   ? 1
           : (uplo == 'L' || uplo == 'l') ? 2
                                          : 0;
}

/* ---- memory ------------------------------------------------------------ */

static int ocl_alloc(qru_context *ctx, size_t bytes, void **h)
{
    ocl_impl *im = IMPL(ctx);
    if (bytes == 0)
        bytes = 64;
    if (im->max_alloc && bytes > im->max_alloc)
        return QRU_ERR_ALLOC;
    cl_int err;
    cl_mem m = clCreateBuffer(im->clctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS || !m)
        return cl_status(err) == QRU_ERR_DEVICE ? QRU_ERR_DEVICE
                                                : QRU_ERR_ALLOC;
    *h = m;
    return 0;
}

static void ocl_free(qru_context *ctx, void *h)
{
    (void)ctx;
    if (h)
        clReleaseMemObject((cl_mem)h);
}

/* Device scratch of at least 'bytes' bytes, for ops that finish before
 * returning (col_norms). */
static int scratch(qru_context *ctx, size_t bytes, cl_mem *out)
{
    ocl_impl *im = IMPL(ctx);
    if (im->scratch_bytes < bytes) {
        void *h = NULL;
        size_t want = bytes < 4096 ? 4096 : bytes;
        int st = ocl_alloc(ctx, want, &h);
        if (st)
            return st;
        if (im->scratch) {
            clFinish(im->q);
            clReleaseMemObject(im->scratch);
        }
        im->scratch = h;
        im->scratch_bytes = want;
    }
    *out = im->scratch;
    return 0;
}

static int ocl_upload(qru_context *ctx, qru_dtype dt, int m, int n,
                      const void *src, int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    size_t es = qru_dtype_size(dt);
    size_t bo[3] = {dst.off * es, 0, 0}, ho[3] = {0, 0, 0};
    size_t region[3] = {(size_t)m * es, (size_t)n, 1};
    /* blocking: the caller may reuse its buffer at once */
    return cl_status(clEnqueueWriteBufferRect(
        IMPL(ctx)->q, (cl_mem)dst.h, CL_TRUE, bo, ho, region, (size_t)ldd * es,
        0, (size_t)lds * es, 0, src, 0, NULL, NULL));
}

static int ocl_download(qru_context *ctx, qru_dtype dt, int m, int n,
                        qru_ptr src, int lds, void *dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    size_t es = qru_dtype_size(dt);
    size_t bo[3] = {src.off * es, 0, 0}, ho[3] = {0, 0, 0};
    size_t region[3] = {(size_t)m * es, (size_t)n, 1};
    return cl_status(clEnqueueReadBufferRect(
        IMPL(ctx)->q, (cl_mem)src.h, CL_TRUE, bo, ho, region, (size_t)lds * es,
        0, (size_t)ldd * es, 0, dst, 0, NULL, NULL));
}

static int ocl_copy(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                    int lds, qru_ptr dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cn = n, clds = lds, cldd = ldd;
    cl_long so = (cl_long)src.off, dof = (cl_long)dst.off;
    int overlap = 0;
    if (src.h == dst.h) {
        size_t se = src.off + (size_t)(n - 1) * lds + (size_t)m;
        size_t de = dst.off + (size_t)(n - 1) * ldd + (size_t)m;
        overlap = src.off < de && dst.off < se;
    }
    if (!overlap) {
        karg a[] = {KINT(cm),   KINT(cn),  KMEM(src), KLONG(so),
                    KINT(clds), KMEM(dst), KLONG(dof), KINT(cldd)};
        return launch2d(ctx, p, K_COPY2D, m, n, NARGS(a), a);
    }
    if (dst.off == src.off && lds == ldd)
        return 0;
    if (lds != ldd || dst.off > src.off)
        return QRU_ERR_INTERNAL; /* outside the table's contract */
    /* moving towards the start: one work-group per column when columns do
     * not interact, else a single work-group walks them in order */
    size_t delta = src.off - dst.off;
    cl_int percol = delta + (size_t)m <= (size_t)lds;
    size_t w = wg_for(im, p, K_COPY_BACK, (size_t)im->tune.wg);
    size_t l[2] = {w, 1}, g[2] = {w, percol ? min_sz((size_t)n, GRID_CAP) : 1};
    if (percol && (size_t)n > GRID_CAP) { /* keep one group per column */
        for (int j0 = 0; j0 < n; j0 += (int)GRID_CAP) {
            int nc = n - j0 < (int)GRID_CAP ? n - j0 : (int)GRID_CAP;
            qru_ptr s2 = qru_ptr_add(src, (size_t)j0 * lds);
            qru_ptr d2 = qru_ptr_add(dst, (size_t)j0 * lds);
            if ((st = ocl_copy(ctx, dt, m, nc, s2, lds, d2, ldd)) != 0)
                return st;
        }
        return 0;
    }
    karg a[] = {KINT(cm),  KINT(cn),  KMEM(src),  KLONG(so),
                KMEM(dst), KLONG(dof), KINT(clds), KINT(percol)};
    return launch(ctx, p, K_COPY_BACK, 2, g, l, NARGS(a), a);
}

static int ocl_laset(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     double off, double dg, qru_ptr A, int lda)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cu = uplo_code(uplo), cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off;
    tval t1, t2;
    karg a[] = {KINT(cu),           KINT(cm),          KINT(cn),
                targ(dt, off, &t1), targ(dt, dg, &t2), KMEM(A),
                KLONG(ao),          KINT(clda)};
    return launch2d(ctx, p, K_LASET, m, n, NARGS(a), a);
}

static int blast_status(CLBlastStatusCode s)
{
    if (s == CLBlastSuccess)
        return 0;
    if ((int)s > -1000) /* an OpenCL error code passed through */
        return cl_status((cl_int)s);
    return QRU_ERR_DEVICE;
}

static int ocl_transpose(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    if (!im->tune.transpose_local) {
        /* no local-memory staging (e.g. Mali): CLBlast's out-of-place
         * transposing copy */
        cl_command_queue q = im->q;
        CLBlastStatusCode s =
            dt == QRU_DOUBLE
                ? CLBlastDomatcopy(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                   (size_t)m, (size_t)n, 1.0, (cl_mem)A.h,
                                   A.off, (size_t)lda, (cl_mem)B.h, B.off,
                                   (size_t)ldb, &q, NULL)
                : CLBlastSomatcopy(CLBlastLayoutColMajor, CLBlastTransposeYes,
                                   (size_t)m, (size_t)n, 1.0f, (cl_mem)A.h,
                                   A.off, (size_t)lda, (cl_mem)B.h, B.off,
                                   (size_t)ldb, &q, NULL);
        return blast_status(s);
    }
    cl_int cm = m, cn = n, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off;
    karg a[] = {KINT(cm),   KINT(cn), KMEM(A),   KLONG(ao),
                KINT(clda), KMEM(B),  KLONG(bo), KINT(cldb)};
    /* work-group TILE x ly, ly a divisor of TILE */
    size_t t = (size_t)im->tune.tile;
    size_t ly = t < 8 ? t : 8;
    while (ly > 1 && t * ly > wg_for(im, p, K_TRANSPOSE, im->max_wg))
        ly /= 2;
    if (t * ly > wg_for(im, p, K_TRANSPOSE, im->max_wg))
        return QRU_ERR_UNSUPPORTED; /* tile wider than a work-group */
    size_t l[2] = {t, ly};
    size_t g[2] = {t * min_sz(ceil_div((size_t)m, t), GRID_CAP),
                   ly * min_sz(ceil_div((size_t)n, t), GRID_CAP)};
    return launch(ctx, p, K_TRANSPOSE, 2, g, l, NARGS(a), a);
}

/* ---- BLAS (CLBlast) ---------------------------------------------------- */

static CLBlastTranspose btr(char t)
{
    return (t == 'T' || t == 't' || t == 'C' || t == 'c') ? CLBlastTransposeYes
                                                          : CLBlastTransposeNo;
}

static int ocl_gemm(qru_context *ctx, qru_dtype dt, char ta, char tb, int m,
                    int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B,
                    int ldb, double beta, qru_ptr C, int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0 || alpha == 0.0) { /* C = beta C */
        if (beta == 1.0)
            return 0;
        ocl_prog *p;
        int st = get_prog(ctx, dt, &p);
        if (st)
            return st;
        cl_int cm = m, cn = n, cl = ldc;
        cl_long co = (cl_long)C.off;
        tval tb_;
        karg a[] = {KINT(cm), KINT(cn), targ(dt, beta, &tb_),
                    KMEM(C),  KLONG(co), KINT(cl)};
        return launch2d(ctx, p, K_SCAL2D, m, n, NARGS(a), a);
    }
    if (dt == QRU_DOUBLE && !IMPL(ctx)->fp64)
        return QRU_ERR_UNSUPPORTED;
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastStatusCode s;
    if (dt == QRU_DOUBLE)
        s = CLBlastDgemm(CLBlastLayoutColMajor, btr(ta), btr(tb), (size_t)m,
                         (size_t)n, (size_t)k, alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, beta,
                         (cl_mem)C.h, C.off, (size_t)ldc, &q, NULL);
    else
        s = CLBlastSgemm(CLBlastLayoutColMajor, btr(ta), btr(tb), (size_t)m,
                         (size_t)n, (size_t)k, (float)alpha, (cl_mem)A.h,
                         A.off, (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb,
                         (float)beta, (cl_mem)C.h, C.off, (size_t)ldc, &q,
                         NULL);
    return blast_status(s);
}

static int ocl_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo,
                    char ta, char diag, int m, int n, double alpha, qru_ptr A,
                    int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (dt == QRU_DOUBLE && !IMPL(ctx)->fp64)
        return QRU_ERR_UNSUPPORTED;
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastSide s_ = (side == 'L' || side == 'l') ? CLBlastSideLeft
                                                  : CLBlastSideRight;
    CLBlastTriangle u = (uplo == 'U' || uplo == 'u') ? CLBlastTriangleUpper
                                                     : CLBlastTriangleLower;
    CLBlastDiagonal d = (diag == 'U' || diag == 'u') ? CLBlastDiagonalUnit
                                                     : CLBlastDiagonalNonUnit;
    CLBlastStatusCode s;
    if (dt == QRU_DOUBLE)
        s = CLBlastDtrsm(CLBlastLayoutColMajor, s_, u, btr(ta), d, (size_t)m,
                         (size_t)n, alpha, (cl_mem)A.h, A.off, (size_t)lda,
                         (cl_mem)B.h, B.off, (size_t)ldb, &q, NULL);
    else
        s = CLBlastStrsm(CLBlastLayoutColMajor, s_, u, btr(ta), d, (size_t)m,
                         (size_t)n, (float)alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, &q,
                         NULL);
    return blast_status(s);
}

static int ocl_col_norms(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, double *norms)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (m <= 0) {
        for (int j = 0; j < n; ++j)
            norms[j] = 0.0;
        return 0;
    }
    ocl_impl *im = IMPL(ctx);
    size_t es = qru_dtype_size(dt);
    cl_mem out;
    if ((st = scratch(ctx, es * (size_t)n, &out)) != 0)
        return st;
    qru_ptr o = {out, 0};
    cl_int cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off, oo = 0;
    size_t w = wg_for(im, p, K_COL_NORMS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w * min_sz((size_t)n, GRID_CAP)};
    karg a[] = {KINT(cm),   KINT(cn), KMEM(A),  KLONG(ao),
                KINT(clda), KMEM(o),  KLONG(oo)};
    if ((st = launch(ctx, p, K_COL_NORMS, 1, g, l, NARGS(a), a)) != 0)
        return st;
    /* read into the tail of norms, then widen front to back (element j
     * lands on bytes that only hold already-widened elements) */
    void *host = (char *)norms + (sizeof(double) - es) * (size_t)n;
    st = cl_status(clEnqueueReadBuffer(im->q, out, CL_TRUE, 0, es * (size_t)n,
                                       host, 0, NULL, NULL));
    if (st)
        return st;
    if (dt == QRU_FLOAT) {
        float tmp;
        for (int j = 0; j < n; ++j) {
            memcpy(&tmp, (char *)host + sizeof(float) * (size_t)j, sizeof tmp);
            norms[j] = tmp;
        }
    }
    return 0;
}

/* Groups of the count_nonfinite kernel along x and y (at most 16 x 256
 * partial counts, read back and added on the host). */
#define NONFIN_GX 16
#define NONFIN_GY 256

static int ocl_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo,
                               int m, int n, qru_ptr A, int lda, int *count)
{
    *count = 0;
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    size_t w = wg_for(im, p, K_COUNT_NONFINITE, (size_t)im->tune.wg);
    size_t gx = min_sz(ceil_div((size_t)m, w), NONFIN_GX);
    size_t gy = min_sz((size_t)n, NONFIN_GY);
    int part[NONFIN_GX * NONFIN_GY];
    cl_mem out;
    if ((st = scratch(ctx, sizeof(cl_int) * gx * gy, &out)) != 0)
        return st;
    cl_int cu = uplo_code(uplo), cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off;
    qru_ptr o = {out, 0};
    size_t l[2] = {w, 1}, g[2] = {w * gx, gy};
    karg a[] = {KINT(cu), KINT(cm),   KINT(cn),
                KMEM(A),  KLONG(ao),  KINT(clda), KMEM(o)};
    if ((st = launch(ctx, p, K_COUNT_NONFINITE, 2, g, l, NARGS(a), a)) != 0)
        return st;
    st = cl_status(clEnqueueReadBuffer(im->q, out, CL_TRUE, 0,
                                       sizeof(cl_int) * gx * gy, part, 0,
                                       NULL, NULL));
    if (st)
        return st;
    long long c = 0;
    for (size_t i = 0; i < gx * gy; ++i)
        c += part[i];
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

/* ---- Householder kernels ------------------------------------------------- */

static int ocl_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha,
                     qru_ptr x, qru_ptr v, qru_ptr tau)
{
    if (n < 0)
        n = 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cn = n;
    cl_int same = (x.h == v.h && x.off == v.off);
    if (n == 0) { /* x and v may be dummies: point them at alpha */
        x = alpha;
        v = alpha;
    }
    cl_long ao = (cl_long)alpha.off, xo = (cl_long)x.off,
            vo = (cl_long)v.off, to = (cl_long)tau.off;
    size_t w = wg_for(im, p, K_HOUSE, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cn),  KMEM(alpha), KLONG(ao), KMEM(x),   KLONG(xo),
                KMEM(v),   KLONG(vo),   KMEM(tau), KLONG(to), KINT(same)};
    return launch(ctx, p, K_HOUSE, 1, g, l, NARGS(a), a);
}

static int ocl_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
                    qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
                    qru_ptr work)
{
    (void)work; /* the fused kernel keeps w in local memory */
    if (n <= 0)
        return 0;
    if (m < 0)
        m = 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (m == 0) { /* v and C may be dummies */
        v = top;
        C = top;
    }
    cl_int cm = m, cn = n, cldt = ldt, cldc = ldc;
    cl_long vo = (cl_long)v.off, to = (cl_long)tau.off,
            po = (cl_long)top.off, co = (cl_long)C.off;
    karg a[] = {KINT(cm),  KINT(cn),  KMEM(v),    KLONG(vo),
                KMEM(tau), KLONG(to), KMEM(top),  KLONG(po),
                KINT(cldt), KMEM(C),  KLONG(co),  KINT(cldc)};
    return launch_colred(ctx, p, K_LARF, m, n, NARGS(a), a);
}

static int ocl_wy_append(qru_context *ctx, qru_dtype dt, int m, int j,
                         qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                         qru_ptr work)
{
    if (m <= 0 || j < 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cm = m, cj = j, cldy = ldy, cldw = ldw;
    cl_long yo = (cl_long)Y.off, wo = (cl_long)W.off, to = (cl_long)tau.off;
    if (j > 0) { /* work = Y(:, 0:j-1)' Y(:, j) */
        cl_long yj = yo + (cl_long)j * ldy, ko = (cl_long)work.off;
        karg a[] = {KINT(cm), KINT(cj),  KMEM(Y),    KLONG(yo), KINT(cldy),
                    KMEM(Y),  KLONG(yj), KMEM(work), KLONG(ko)};
        if ((st = launch_colred(ctx, p, K_GEMV_T, m, j, NARGS(a), a)) != 0)
            return st;
    } else {
        work = tau; /* not read when j = 0 */
    }
    cl_long ko = (cl_long)work.off;
    karg a[] = {KINT(cm),   KINT(cj),   KMEM(Y),  KLONG(yo),
                KINT(cldy), KMEM(W),    KLONG(wo), KINT(cldw),
                KMEM(work), KLONG(ko),  KMEM(tau), KLONG(to)};
    return launch1d(ctx, p, K_WY_COL, min_sz((size_t)m, GRID_CAP * 16),
                    NARGS(a), a);
}

/* ---- update kernels -------------------------------------------------------- */

static int ocl_givens_make(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                           int inc, int ps, qru_ptr cs)
{
    if (cnt <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cc = cnt;
    cl_long xo = (cl_long)X.off, ci = inc, cp = ps, co = (cl_long)cs.off;
    karg a[] = {KINT(cc),  KMEM(X),  KLONG(xo), KLONG(ci),
                KLONG(cp), KMEM(cs), KLONG(co)};
    return launch1d(ctx, p, K_GIVENS_MAKE,
                    min_sz((size_t)cnt, GRID_CAP * 16), NARGS(a), a);
}

static int ocl_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                            qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    if (cnt <= 0 || len <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    /* the grid's x dimension runs along the smaller memory stride */
    cl_int tfirst = inc < es;
    int n0 = tfirst ? cnt : len, n1 = tfirst ? len : cnt;
    cl_int cc = cnt, cl = len;
    cl_long co = (cl_long)cs.off, xo = (cl_long)X.off, ci = inc, cp = ps,
            ce = es;
    karg a[] = {KINT(cc),  KINT(cl),  KMEM(cs),  KLONG(co), KMEM(X),
                KLONG(xo), KLONG(ci), KLONG(cp), KLONG(ce), KINT(tfirst)};
    return launch2d(ctx, p, K_GIVENS_APPLY, n0, n1, NARGS(a), a);
}

/* All the sweeps in one launch of ONE work-group (kernels/qru_update.cl;
 * teams of one item on OpenCL 1.2). */
static int ocl_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                             int make, qru_ptr X, long xrs, long xcs, int nr,
                             int from_jlo, qru_ptr cs)
{
    if (L <= 0 || p <= 0)
        return 0;
    ocl_prog *pr;
    int st = get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cL = L, cp = p, cm = make, cn = nr, cf = from_jlo;
    cl_long xo = (cl_long)X.off, rs = xrs, ks = xcs, co = (cl_long)cs.off;
    /* the window of active columns in local memory when it fits (and
     * the tuning's sweeps_kernel does not say otherwise) */
    cl_int cW = 2 * (p < L ? p : L) + 2;
    size_t lds = (size_t)cW * (size_t)(nr > 0 ? nr : 1) * qru_dtype_size(dt);
    cl_ulong used = 0;
    if (qru_ctx_tuning(ctx, dt)->sweeps_kernel == 0 &&
        clGetKernelWorkGroupInfo(pr->k[K_GIVENS_SWEEPS_LDS], im->device,
                                 CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                 NULL) == CL_SUCCESS &&
        lds + (size_t)used <= im->local_mem) {
        size_t w = wg_for(im, pr, K_GIVENS_SWEEPS_LDS, (size_t)im->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a[] = {KINT(cL),  KINT(cp), KINT(cm),   KMEM(X),
                    KLONG(xo), KLONG(rs), KLONG(ks), KINT(cn),
                    KINT(cf),  KMEM(cs), KLONG(co),  KINT(cW),
                    {lds, NULL}};
        return launch(ctx, pr, K_GIVENS_SWEEPS_LDS, 1, g, l, NARGS(a), a);
    }
    size_t w = wg_for(im, pr, K_GIVENS_SWEEPS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cL),  KINT(cp), KINT(cm), KMEM(X),  KLONG(xo), KLONG(rs),
                KLONG(ks), KINT(cn), KINT(cf), KMEM(cs), KLONG(co)};
    return launch(ctx, pr, K_GIVENS_SWEEPS, 1, g, l, NARGS(a), a);
}

/* Every group's accumulated rotations in one launch: x over the rows of a
 * group's matrix, y over the groups. */
static int ocl_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p,
                            int ab, qru_ptr cs, qru_ptr G, int ldg)
{
    if (L <= 0 || p <= 0 || ab <= 0)
        return 0;
    ocl_prog *pr;
    int st = get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cL = L, cp = p, ca = ab, cld = ldg;
    cl_long co = (cl_long)cs.off, go = (cl_long)G.off;
    size_t w = wg_for(im, pr, K_GIVENS_ACCUM, 64);
    size_t rows = (size_t)ab + (size_t)p;
    size_t l[2] = {w, 1}, g[2] = {ceil_div(rows, w) * w, (size_t)((L + ab - 1) / ab)};
    karg a[] = {KINT(cL), KINT(cp), KINT(ca), KMEM(cs), KLONG(co),
                KMEM(G),  KLONG(go), KINT(cld)};
    return launch(ctx, pr, K_GIVENS_ACCUM, 2, g, l, NARGS(a), a);
}

static int ocl_geadd(qru_context *ctx, qru_dtype dt, int m, int n,
                     double alpha, qru_ptr A, int lda, double beta, qru_ptr B,
                     int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (alpha == 0.0)
        A = B; /* not read; keep the argument a valid buffer */
    cl_int cm = m, cn = n, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off;
    tval ta, tb;
    karg a[] = {KINT(cm), KINT(cn),  KINT(cm), KMEM(A), KLONG(ao), KINT(clda),
                KINT(cm), KMEM(B),   KLONG(bo), KINT(cldb)};
    a[2] = targ(dt, alpha, &ta);
    a[6] = targ(dt, beta, &tb);
    return launch2d(ctx, p, K_GEADD, m, n, NARGS(a), a);
}

/* ---- Cholesky kernels ------------------------------------------------------ */

static int ocl_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans,
                    int n, int k, double alpha, qru_ptr A, int lda,
                    double beta, qru_ptr C, int ldc)
{
    if (n <= 0 || ((k <= 0 || alpha == 0.0) && beta == 1.0))
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int u = uplo_code(uplo) == 1 ? 1 : 2;
    if (k <= 0 || alpha == 0.0) { /* C = beta C on the triangle */
        cl_int cn = n, cl = ldc;
        cl_long co = (cl_long)C.off;
        tval tb;
        karg a[] = {KINT(u), KINT(cn),  KINT(cn), targ(dt, beta, &tb),
                    KMEM(C), KLONG(co), KINT(cl)};
        return launch2d(ctx, p, K_SCAL_TRI, n, n, NARGS(a), a);
    }
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastTriangle tri = u == 1 ? CLBlastTriangleUpper : CLBlastTriangleLower;
    CLBlastStatusCode s;
    if (dt == QRU_DOUBLE)
        s = CLBlastDsyrk(CLBlastLayoutColMajor, tri, btr(trans), (size_t)n,
                         (size_t)k, alpha, (cl_mem)A.h, A.off, (size_t)lda,
                         beta, (cl_mem)C.h, C.off, (size_t)ldc, &q, NULL);
    else
        s = CLBlastSsyrk(CLBlastLayoutColMajor, tri, btr(trans), (size_t)n,
                         (size_t)k, (float)alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (float)beta, (cl_mem)C.h, C.off,
                         (size_t)ldc, &q, NULL);
    return blast_status(s);
}

static int ocl_lacpy(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     qru_ptr A, int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int u = uplo_code(uplo), cm = m, cn = n, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off;
    karg a[] = {KINT(u),    KINT(cm), KINT(cn),  KMEM(A),    KLONG(ao),
                KINT(clda), KMEM(B),  KLONG(bo), KINT(cldb)};
    return launch2d(ctx, p, K_LACPY, m, n, NARGS(a), a);
}

static int ocl_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                           qru_ptr A, int lda, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int up = uplo_code(uplo) == 1, cn = n, clda = lda, cb = base;
    cl_long ao = (cl_long)A.off, io = (cl_long)info.off;
    size_t w = wg_for(im, p, K_POTRF_PANEL, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(up),  KINT(cn),   KMEM(A),   KLONG(ao),
                KINT(clda), KMEM(info), KLONG(io), KINT(cb)};
    return launch(ctx, p, K_POTRF_PANEL, 1, g, l, NARGS(a), a);
}

static int ocl_chol_rot(qru_context *ctx, qru_dtype dt, int n, int k, int sign,
                        qru_ptr L, int ldl, qru_ptr W, int ldw, qru_ptr info,
                        int base)
{
    if (n <= 0 || k <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cn = n, ck = k, cs = sign, cldl = ldl, cldw = ldw, cb = base;
    cl_long lo = (cl_long)L.off, wo = (cl_long)W.off,
            io = (cl_long)info.off;
    /* one work-group walks the n k rotations in order; its items share the
     * rows below the pivot */
    size_t want = n > 512 ? 1024 : n > 128 ? 256 : 64;
    if (want > (size_t)im->tune.wg && im->tune.wg >= 64)
        want = (size_t)im->tune.wg;
    size_t w = wg_for(im, p, K_CHOL_ROT, min_sz(want, im->max_wg));
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cn),  KINT(ck),   KINT(cs),  KMEM(L),
                KLONG(lo), KINT(cldl), KMEM(W),   KLONG(wo),
                KINT(cldw), KMEM(info), KLONG(io), KINT(cb)};
    return launch(ctx, p, K_CHOL_ROT, 1, g, l, NARGS(a), a);
}

/* ---- fused panels (issue 8) ------------------------------------------------ */

/* Bytes of local memory that qru_panel_qr_lds may take for its panel: the
 * device's local memory less what the kernel itself declares; 0 when the
 * tuning's panel_kernel asks for the global-memory kernel only. */
static size_t panel_lds_bytes(const qru_context *ctx, qru_dtype dt,
                              const ocl_prog *p)
{
    const ocl_impl *im = IMPL(ctx);
    if (qru_ctx_tuning(ctx, dt)->panel_kernel == 2)
        return 0;
    cl_ulong used = 0;
    if (clGetKernelWorkGroupInfo(p->k[K_PANEL_QR_LDS], im->device,
                                 CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used,
                                 NULL) != CL_SUCCESS)
        return 0;
    return im->local_mem > used ? im->local_mem - (size_t)used : 0;
}

static int ocl_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra,
                               int *out)
{
    ocl_prog *p;
    *out = 0;
    if (extra < 0)
        return 0;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    size_t cap = panel_lds_bytes(ctx, dt, p), es = qru_dtype_size(dt);
    int nb = 0;
    while (nb < 1024 &&
           ((size_t)(nb + 1 + extra) * (nb + 1) + (size_t)(nb + 1) * (nb + 1) +
            2 * (size_t)(nb + 1)) * es <= cap)
        ++nb;
    *out = nb;
    return 0;
}

/* The whole m x nb panel in one launch of ONE work-group (OpenCL 1.2 has
 * no barrier across work-groups): kernels/qru_panel.cl, on local memory
 * (qru_panel_qr_lds) when the panel fits there, else on global memory. */
static int ocl_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb,
                        qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W,
                        int ldw, qru_ptr tau, qru_ptr work)
{
    if (m <= 0 || nb <= 0)
        return 0;
    ocl_prog *p;
    int st = get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cnb = nb, clda = lda, cldy = ldy, cldw = ldw, chunk = m;
    cl_long ao = (cl_long)A.off, yo = (cl_long)Y.off, wo = (cl_long)W.off,
            to = (cl_long)tau.off, ko = (cl_long)work.off;
    size_t lds = ((size_t)m * nb + (size_t)nb * nb + 2 * (size_t)nb) *
                 qru_dtype_size(dt);
    if (lds <= panel_lds_bytes(ctx, dt, p)) {
        size_t w = wg_for(im, p, K_PANEL_QR_LDS, (size_t)im->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a[] = {KINT(cm),   KINT(cnb), KMEM(A),   KLONG(ao), KINT(clda),
                    KMEM(Y),    KLONG(yo), KINT(cldy), KMEM(W),  KLONG(wo),
                    KINT(cldw), KMEM(tau), KLONG(to), {lds, NULL}};
        return launch(ctx, p, K_PANEL_QR_LDS, 1, g, l, NARGS(a), a);
    }
    size_t w = wg_for(im, p, K_PANEL_QR, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cm),   KINT(cnb), KMEM(A),   KLONG(ao), KINT(clda),
                KMEM(Y),    KLONG(yo), KINT(cldy), KMEM(W),  KLONG(wo),
                KINT(cldw), KMEM(tau), KLONG(to), KMEM(work), KLONG(ko),
                KINT(chunk)};
    return launch(ctx, p, K_PANEL_QR, 1, g, l, NARGS(a), a);
}

/* Every REQ and OPT op of the list (qru_ops.h) is ocl_<name>; no vendor
 * LAPACK (the CAP ops are NULL). */
#define OCL_OP_(name, params, args, need, stat) OCL_OP_##need(name)
#define OCL_OP_REQ(name) .name = ocl_##name,
#define OCL_OP_OPT(name) .name = ocl_##name,
#define OCL_OP_CAP(name)
const qru_backend_ops qru_opencl_ops = {
    .name = "opencl",
    .id = QRU_BACKEND_OPENCL,
    .probe = ocl_probe,
    .init = ocl_init,
    .fini = ocl_fini,
    .supports = ocl_supports,
    .mem_alloc = ocl_alloc,
    .mem_free = ocl_free,
    QRU_OPS(OCL_OP_)
    .tuning = {.qr_nb = 32,
               .chol_nb = 64,
               .upd_panel_nb = 64,
               .upd_panel_min_nb = 16,
               .upd_rows_nb = 128,
               .sweeps_max_work = 32768,
               .cost = {3e9, 3e9, 5e9, 5e-6, 0.0, 20e-6}},
};

