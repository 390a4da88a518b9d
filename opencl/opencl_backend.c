/*
 * The OpenCL backend: cl_mem buffers addressed as (cl_mem, element offset),
 * one in-order command queue per context, CLBlast for GEMM/TRSM, and the
 * shared device kernels kernels/ *.cl (embedded as program text by
 * cmake/qru_embed_kernels.cmake, built lazily once per context and
 * precision).  Device selection, build logs and tuning are documented in
 * qru_opencl.h.  This file: device selection, the context, the ops table.
 *
 * Every op is asynchronous (queued) except upload/download/col_norms, which
 * return when the data is where it belongs (the caller's host buffer may be
 * reused at once).
 */
#include "ocl_internal.h"

/* Maps an OpenCL (or CLBlast, which shares the OpenCL codes) error. */
int ocl_cl_status(cl_int err)
{
    switch (err) {
    case CL_SUCCESS:
        return 0;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_RESOURCES:
    case CL_OUT_OF_HOST_MEMORY:
    case CL_INVALID_BUFFER_SIZE:
        return qru_fail(QRU_ERR_ALLOC, "OpenCL error %d (out of memory or "
                                       "resources)", (int)err);
    case CL_BUILD_PROGRAM_FAILURE:
        return qru_fail(QRU_ERR_BUILD, "OpenCL error %d (program build)",
                        (int)err);
    default:
        return qru_fail(QRU_ERR_DEVICE, "OpenCL error %d", (int)err);
    }
}


/* ---- device selection -------------------------------------------------- */

/* Devices of a platform (CL_DEVICE_TYPE_ALL); *n = 0 if none.  Caller
 * frees. */
static cl_device_id *ocl_platform_devices(cl_platform_id p, cl_uint *n)
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

cl_device_type ocl_device_type(cl_device_id d)
{
    cl_device_type t = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    return t;
}

/* Index of the first GPU in d[0:n), else 0. */
int ocl_first_gpu(const cl_device_id *d, cl_uint n)
{
    for (cl_uint i = 0; i < n; ++i)
        if (ocl_device_type(d[i]) & CL_DEVICE_TYPE_GPU)
            return (int)i;
    return 0;
}

int ocl_pick_device(int pidx, int didx, cl_platform_id *plat,
                       cl_device_id *dev)
{
    cl_uint np = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0)
        return qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                        "no OpenCL platform found");
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
            cl_device_id *d = ocl_platform_devices(ps[i], &nd);
            if (nd > 0 && any < 0)
                any = (int)i;
            if (nd > 0 && (ocl_device_type(d[ocl_first_gpu(d, nd)]) &
                           CL_DEVICE_TYPE_GPU))
                chosen = (int)i;
            free(d);
        }
        if (chosen < 0)
            chosen = any;
    }
    if (chosen >= 0) {
        cl_uint nd;
        cl_device_id *d = ocl_platform_devices(ps[chosen], &nd);
        int k = didx >= 0 ? didx : (nd > 0 ? ocl_first_gpu(d, nd) : -1);
        if (k >= 0 && (cl_uint)k < nd) {
            *plat = ps[chosen];
            *dev = d[k];
            st = 0;
        }
        free(d);
    }
    free(ps);
    if (st)
        return qru_fail(st, "no OpenCL device %d on platform %d (%u "
                            "platforms; -1: the default)",
                        didx, pidx, (unsigned)np);
    return st;
}

int ocl_probe(void)
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

void ocl_set_tuning(ocl_impl *im, const qru_context *ctx)
{
    char vendor[256] = "", name[256] = "";
    clGetDeviceInfo(im->device, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor,
                    NULL);
    clGetDeviceInfo(im->device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    qru_ocl_tuning t;
    if (im->type & CL_DEVICE_TYPE_GPU) {
        int mali = strstr(vendor, "ARM") != NULL || strstr(name, "Mali");
        if (mali)
            t = (qru_ocl_tuning){64, 8, 4, 0, 0};
        else
            t = (qru_ocl_tuning){256, 32, 1, 1, 0};
    } else {
        t = (qru_ocl_tuning){64, 16, 4, 1, 32};
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
    if (t.batch_items > 0)
        t.batch_items = pow2_floor((size_t)t.batch_items < mw
                                       ? (size_t)t.batch_items
                                       : mw);
    while (t.tile > 1 && (size_t)t.tile * (size_t)t.tile > mw)
        t.tile /= 2;
    im->tune = t;
}

void ocl_fini(qru_context *ctx);

int ocl_init(qru_context *ctx, const qru_context_options *opt)
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
            st = qru_fail(QRU_ERR_BACKEND_UNAVAILABLE,
                          "QRU_PLATFORM or QRU_DEVICE is not a number");
            goto fail;
        }
        st = ocl_pick_device(pidx, didx, &im->platform, &im->device);
        if (st)
            goto fail;
        cl_context_properties cp[] = {CL_CONTEXT_PLATFORM,
                                      (cl_context_properties)im->platform, 0};
        im->clctx = clCreateContext(cp, 1, &im->device, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            im->clctx = NULL;
            st = ocl_cl_status(err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                 : QRU_ERR_DEVICE;
            goto fail;
        }
        im->q = clCreateCommandQueue(im->clctx, im->device, 0, &err);
        if (err != CL_SUCCESS) {
            im->q = NULL;
            st = ocl_cl_status(err) == QRU_ERR_ALLOC ? QRU_ERR_ALLOC
                                                 : QRU_ERR_DEVICE;
            goto fail;
        }
    }
    /* device properties */
    im->type = ocl_device_type(im->device);
    cl_ulong maxalloc = 0;
    clGetDeviceInfo(im->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc,
                    &maxalloc, NULL);
    im->max_alloc = maxalloc > (cl_ulong)SIZE_MAX ? SIZE_MAX : (size_t)maxalloc;
    clGetDeviceInfo(im->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                    sizeof im->max_wg, &im->max_wg, NULL);
    /* work-item limits per dimension (at least 3 dimensions in 1.2) */
    cl_uint dims = 0;
    clGetDeviceInfo(im->device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS,
                    sizeof dims, &dims, NULL);
    for (int d = 0; d < 3; ++d)
        im->max_item[d] = im->max_wg;
    if (dims >= 3) {
        size_t *items = malloc(sizeof *items * dims);
        if (items &&
            clGetDeviceInfo(im->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                            sizeof *items * dims, items, NULL) == CL_SUCCESS)
            for (int d = 0; d < 3; ++d)
                im->max_item[d] = items[d];
        free(items);
    }
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
    /* OpenCL lets single precision x / y and sqrt be off by 2.5 and 3 ulp
     * unless asked (NVIDIA's driver takes the licence): the rotations and
     * reflectors lose orthogonality to it, so ask where the device can */
    cl_device_fp_config fpc = 0;
    im->fp32_rounded =
        clGetDeviceInfo(im->device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fpc,
                        &fpc, NULL) == CL_SUCCESS &&
        (fpc & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    ocl_set_tuning(im, ctx);
    snprintf(im->extra, sizeof im->extra, "%s", ctx->env.ocl_build_options);

    char dname[200] = "", pname[200] = "";
    clGetDeviceInfo(im->device, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
    clGetPlatformInfo(im->platform, CL_PLATFORM_NAME, sizeof pname - 1, pname,
                      NULL);
    snprintf(ctx->device_name, sizeof ctx->device_name, "%s (OpenCL: %s)",
             dname, pname);
    im->pocl = strstr(pname, "Portable Computing Language") != NULL;
    /* the cost model of a device the table's constants were not fitted
     * on (a GPU or an accelerator; the tuning's cost_calibrate) */
    ocl_calibrate(ctx);
    return 0;
fail:
    ocl_fini(ctx);
    return st;
}

void ocl_fini(qru_context *ctx)
{
    ocl_impl *im = IMPL(ctx);
    if (!im)
        return;
    if (im->q)
        clFinish(im->q);
    /* CLBlast caches its programs by OpenCL context, and a cached program
     * holds its context: without this a context that ran CLBlast would
     * never be freed (on NVIDIA's driver each one holds device resources:
     * a test program that makes a context per case came to a failing
     * context creation, QRU_ERR_ALLOC).  CLBlast offers no way
     * to drop one context's entries: the whole cache goes (other contexts
     * build CLBlast's kernels again on their next call). */
    if (im->blast_used)
        CLBlastClearCache();
    for (int p = 0; p < 4; ++p) {
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

qru_device_type ocl_context_device_type(const qru_context *ctx)
{
    cl_device_type t = IMPL(ctx)->type;
    return (t & CL_DEVICE_TYPE_GPU)           ? QRU_DEVICE_GPU
           : (t & CL_DEVICE_TYPE_ACCELERATOR) ? QRU_DEVICE_ACCELERATOR
                                              : QRU_DEVICE_CPU;
}

/* The complex types too (the ops of the QR factorisation, least squares,
 * the updates, the least-squares batches and the Cholesky routines;
 * ocl_kernel_complex). */
int ocl_supports(const qru_context *ctx, qru_dtype dt)
{
    if (dt == QRU_FLOAT || dt == QRU_COMPLEX_FLOAT)
        return 1;
    return (dt == QRU_DOUBLE || dt == QRU_COMPLEX_DOUBLE) && IMPL(ctx)->fp64;
}

int ocl_sync(qru_context *ctx)
{
    return ocl_cl_status(clFinish(IMPL(ctx)->q));
}

/* Every REQ op of the list (qru_ops.h) is ocl_<name>; the OPT ops the
 * backend has are named below (the others are the reference ops, and
 * count as such in the statistics and the cost models). */
#define OCL_OP_(name, params, args, need, stat) OCL_OP_##need(name)
#define OCL_OP_REQ(name) .name = ocl_##name,
#define OCL_OP_OPT(name)
#define OCL_OP_CAP(name)
const qru_backend_ops qru_opencl_ops = {
    .name = "opencl",
    .id = QRU_BACKEND_OPENCL,
    .probe = ocl_probe,
    .init = ocl_init,
    .fini = ocl_fini,
    .supports = ocl_supports,
    .device_type = ocl_context_device_type,
    .mem_alloc = ocl_alloc,
    .mem_free = ocl_free,
    .mem_locate = ocl_mem_locate,
    QRU_OPS(OCL_OP_)
    .panel_qr = ocl_panel_qr,
    .wy_left = ocl_wy_left,
    .panel_qr_max_nb = ocl_panel_qr_max_nb,
    .givens_sweeps = ocl_givens_sweeps,
    .givens_accum = ocl_givens_accum,
    .gram_border = ocl_gram_border,
    .gram_solve = ocl_gram_solve,
    /* every fused op's kernels take complex data too: no op runs its
     * reference for a complex type (real_only_ops 0) */
    .real_only_ops = 0,
    /* the ops that take complex data: those whose kernels the complex
     * programs hold (ocl_kernel_complex: the QR family with the fused
     * panels, sweeps and wy_left, potrf_panel, the least-squares batches'
     * ops, chol_rot, the Cholesky batches), CLBlast's and the OPT ops the
     * backend leaves to the context's references (not the structured
     * Cholesky passes nor the solvers' Gram ops) */
    .complex_ops = QRU_OPS_QR | QRU_OPM(potrf_panel) | QRU_OPM(potrf_full) |
                   QRU_OPM(lsq_batch_add_rows) | QRU_OPM(lsq_batch_solve) |
                   QRU_OPM(lsq_batch_add_solve) |
                   QRU_OPM(lsq_batch_remove_cols) |
                   QRU_OPM(lsq_batch_add_rows_q) |
                   QRU_OPM(lsq_batch_remove_rows_q) |
                   QRU_OPM(lsq_batch_add_cols_q) |
                   QRU_OPM(lsq_batch_geqr_thin) | QRU_OPM(chol_rot) |
                   QRU_OPM(chol_update_batch) | QRU_OPM(chol_insert_batch) |
                   QRU_OPM(chol_delete_batch),
    /* one block per element type (float has double's values) */
    .tuning = {[QRU_TUNING_FLOAT] = {.qr_nb = 32,
                                     .chol_nb = 64,
                                     .upd_panel_nb = 64,
                                     .upd_panel_min_nb = 16,
                                     .upd_rows_nb = 128,
                                     .sweeps_max_work = 32768,
                                     .upd_tiles = 1,
                                     .omp_gram = 0,
                                     .omp_gram_mib = 1024,
                                     .lars_gram = 0,
                                     .nnls_gram = 0,
                                     .sweeps_acc_min_p = 16,
                                     .sweeps_acc_nb = 48,
                                     .chol_r1_max_k = 32,
                                     .upd_givens = 0,
                                     .upd_r1 = 0,
                                     .cost = {3e9, 3e9, 5e9, 5e-6, 0.0, 20e-6, 0.0, 0.0, 5e9, 20e-6, 0.0, 0.0, 0.0}},
               [QRU_TUNING_DOUBLE] = {
                   .qr_nb = 32,
                   .chol_nb = 64,
                   .upd_panel_nb = 64,
                   .upd_panel_min_nb = 16,
                   .upd_rows_nb = 128,
                   .sweeps_max_work = 32768,
                   /* not measured on an OpenCL GPU yet: the Givens
                    * sweeps */
                   .upd_tiles = 1,
                   /* OMP's Gram form where priced faster, G within
                    * 1 GiB (OpenCL's largest single buffer is often a
                    * quarter of the device's memory) */
                   .omp_gram = 0,
                   .omp_gram_mib = 1024,
                   .lars_gram = 0,
                   .nnls_gram = 0,
                   .sweeps_acc_min_p = 16,
                   .sweeps_acc_nb = 48,
                   .chol_r1_max_k = 32,
                   .upd_givens = 0,
                   .upd_r1 = 0,
                   .cost = {3e9, 3e9, 5e9, 5e-6, 0.0, 20e-6, 0.0, 0.0, 5e9, 20e-6, 0.0, 0.0, 0.0}}},
};
