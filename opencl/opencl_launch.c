/*
 * OpenCL kernel launches: typed arguments, work-group shapes and the
 * 1-D, 2-D and column-reduction launch shapes.
 */
#include "ocl_internal.h"

/* ---- kernel launches ------------------------------------------------------ */

karg ocl_targ(qru_dtype dt, double v, tval *store)
{
    if (dt == QRU_COMPLEX_DOUBLE) {
        store->z.s[0] = v;
        store->z.s[1] = 0.0;
        return (karg){sizeof(cl_double2), &store->z};
    }
    if (dt == QRU_COMPLEX_FLOAT) {
        store->c.s[0] = (cl_float)v;
        store->c.s[1] = 0.0f;
        return (karg){sizeof(cl_float2), &store->c};
    }
    if (dt == QRU_DOUBLE) {
        store->d = v;
        return (karg){sizeof(cl_double), &store->d};
    }
    store->f = (cl_float)v;
    return (karg){sizeof(cl_float), &store->f};
}

/* Largest work-group size for kernel k: the tuning value clamped to the
 * kernel's limit (CL_KERNEL_WORK_GROUP_SIZE), the device's and that of a
 * work-group's first dimension (a power of 2). */
size_t ocl_wg_for(const ocl_impl *im, const ocl_prog *p, int k, size_t want)
{
    size_t lim = p->kmax[k];
    if (im->max_wg && (!lim || im->max_wg < lim))
        lim = im->max_wg;
    if (im->max_item[0] && (!lim || im->max_item[0] < lim))
        lim = im->max_item[0];
    size_t w = want;
    if (lim && lim < w)
        w = (size_t)pow2_floor(lim);
    return w ? w : 1;
}

size_t ocl_batch_items(const ocl_impl *im, size_t want)
{
    return im->tune.batch_items > 0 ? (size_t)im->tune.batch_items : want;
}

/* What clEnqueueNDRangeKernel of OpenCL 1.2 requires of a launch with a
 * given work-group: a non-zero global size that the work-group size
 * divides in every dimension, each work-group dimension within
 * CL_DEVICE_MAX_WORK_ITEM_SIZES, the work-group within
 * CL_DEVICE_MAX_WORK_GROUP_SIZE and CL_KERNEL_WORK_GROUP_SIZE, and the
 * kernel's local memory with that of its __local arguments within
 * CL_DEVICE_LOCAL_MEM_SIZE.  A launch outside them is a bug of the
 * backend (QRU_ERR_INTERNAL), whatever a lenient implementation does. */
static int check_launch(const ocl_impl *im, const ocl_prog *p, int k,
                        cl_uint dims, const size_t *gws, const size_t *lws,
                        size_t local_args)
{
    const char *name = qru_ocl_kernel_names[k];
    if (dims < 1 || dims > 3)
        return qru_fail(QRU_ERR_INTERNAL, "OpenCL launch of %s: %u "
                                          "dimensions", name, (unsigned)dims);
    size_t items = 1;
    for (cl_uint d = 0; d < dims; ++d) {
        if (!lws)
            continue;
        if (lws[d] == 0 || gws[d] % lws[d] != 0 ||
            (im->max_item[d] && lws[d] > im->max_item[d]))
            return qru_fail(QRU_ERR_INTERNAL,
                            "OpenCL launch of %s: work-group size %zu in "
                            "dimension %u (global %zu, device limit %zu)",
                            name, lws[d], (unsigned)d, gws[d],
                            im->max_item[d]);
        items *= lws[d];
    }
    if (lws && ((im->max_wg && items > im->max_wg) ||
                (p->kmax[k] && items > p->kmax[k])))
        return qru_fail(QRU_ERR_INTERNAL,
                        "OpenCL launch of %s: work-group of %zu items (device "
                        "limit %zu, kernel limit %zu)",
                        name, items, im->max_wg, p->kmax[k]);
    if (im->local_mem && p->klocal[k] + local_args > im->local_mem)
        return qru_fail(QRU_ERR_INTERNAL,
                        "OpenCL launch of %s: %zu bytes of local memory "
                        "(kernel %zu, arguments %zu; device %zu)",
                        name, p->klocal[k] + local_args, p->klocal[k],
                        local_args, im->local_mem);
    return 0;
}

int ocl_launch(qru_context *ctx, ocl_prog *p, int k, cl_uint dims,
                  const size_t *gws, const size_t *lws, int nargs,
                  const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    if (!p->k[k]) /* a real-only kernel in a complex type's program */
        return qru_fail(QRU_ERR_UNSUPPORTED,
                        "the OpenCL kernel %s takes no complex data",
                        qru_ocl_kernel_names[k]);
    for (cl_uint d = 0; d < dims; ++d)
        if (gws[d] == 0)
            return 0;
    size_t local_args = 0;
    for (int i = 0; i < nargs; ++i)
        if (!args[i].ptr) /* a __local argument: its size in bytes */
            local_args += args[i].size;
    int st = check_launch(im, p, k, dims, gws, lws, local_args);
    if (st)
        return st;
    for (int i = 0; i < nargs; ++i) {
        cl_int err = clSetKernelArg(p->k[k], (cl_uint)i, args[i].size,
                                    args[i].ptr);
        if (err != CL_SUCCESS)
            return qru_fail(QRU_ERR_INTERNAL,
                            "OpenCL argument %d of %s (%zu bytes): error %d",
                            i, qru_ocl_kernel_names[k], args[i].size,
                            (int)err);
    }
    return ocl_cl_status(clEnqueueNDRangeKernel(im->q, p->k[k], dims, NULL, gws,
                                            lws, 0, NULL, NULL));
}


int ocl_launch_problems(qru_context *ctx, ocl_prog *p, int k, int want,
                        int count, int nargs, karg *args, size_t es)
{
    size_t w = (size_t)pow2_floor(ocl_wg_for(
        IMPL(ctx), p, k, ocl_batch_items(IMPL(ctx), (size_t)want)));
    size_t l[1] = {w}, g[1] = {w * min_sz((size_t)count, GRID_CAP)};
    if (es) /* the last argument: the local buffer of w + 1 elements */
        args[nargs - 1].size = es * (w + 1);
    return ocl_launch(ctx, p, k, 1, g, l, nargs, args);
}

/* Elementwise launches (1-D over n, 2-D over m x n) use ONE work-group
 * shape per kernel and round the grid up to whole groups (the kernels loop
 * grid-stride and check bounds, so extra work-items do nothing).  A fixed
 * shape matters on PoCL: it compiles a kernel again for every distinct
 * work-group size, and given lws = NULL it derives one from the grid, i.e.
 * a new compilation (about a second of CPU) for almost every matrix
 * shape.  x runs along the columns (consecutive addresses); along x each
 * work-item takes QRU_OCL_VEC elements (grid-stride). */
int ocl_launch1d(qru_context *ctx, ocl_prog *p, int k, size_t n,
                    int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = ocl_wg_for(im, p, k, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {round_up(n, w)};
    return ocl_launch(ctx, p, k, 1, g, l, nargs, args);
}

int ocl_launch2d(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                    int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = ocl_wg_for(im, p, k, (size_t)im->tune.wg);
    size_t lx = min_sz(w, 64), ly = w / lx;
    while (ly > 1 && im->max_item[1] && ly > im->max_item[1])
        ly /= 2;
    size_t l[2] = {lx, ly};
    size_t g[2] = {
        round_up(min_sz(ceil_div((size_t)m, (size_t)im->tune.vec), GRID_CAP),
                 lx),
        round_up(min_sz((size_t)n, GRID_CAP), ly)};
    return ocl_launch(ctx, p, k, 2, g, l, nargs, args);
}

/* Column-reduction launch (larf, gemv_t): work-group nx x ny, nx * ny <= wg,
 * nx a power of 2 growing with the column length m; groups along x each
 * take ny of the n columns. */
int ocl_launch_colred(qru_context *ctx, ocl_prog *p, int k, int m, int n,
                         int nargs, const karg *args)
{
    ocl_impl *im = IMPL(ctx);
    size_t w = ocl_wg_for(im, p, k, (size_t)im->tune.wg);
    size_t nx = m <= 512 ? 32 : m <= 2048 ? 64 : m <= 8192 ? 128 : 256;
    if (nx > w)
        nx = w;
    size_t ny = w / nx;
    while (ny > 1 && im->max_item[1] && ny > im->max_item[1])
        ny /= 2;
    size_t groups = min_sz(ceil_div((size_t)n, ny), GRID_CAP);
    size_t l[2] = {nx, ny}, g[2] = {nx * groups, ny};
    return ocl_launch(ctx, p, k, 2, g, l, nargs, args);
}

int ocl_uplo_code(char uplo)
{
    return (uplo == 'U' || uplo == 'u')   ? 1
           : (uplo == 'L' || uplo == 'l') ? 2
                                          : 0;
}
