/*
 * OpenCL kernel launches: typed arguments, work-group shapes and the
 * 1-D, 2-D and column-reduction launch shapes.
 */
#include "ocl_internal.h"

/* ---- kernel launches ------------------------------------------------------ */



karg ocl_targ(qru_dtype dt, double v, tval *store)
{
    if (dt == QRU_DOUBLE) {
        store->d = v;
        return (karg){sizeof(cl_double), &store->d};
    }
    store->f = (cl_float)v;
    return (karg){sizeof(cl_float), &store->f};
}




/* Largest work-group size for kernel k: the tuning value clamped to the
 * kernel's limit (a power of 2). */
size_t ocl_wg_for(const ocl_impl *im, const ocl_prog *p, int k, size_t want)
{
    (void)im;
    size_t w = want;
    if (p->kmax[k] && p->kmax[k] < w)
        w = (size_t)pow2_floor(p->kmax[k]);
    return w ? w : 1;
}

int ocl_launch(qru_context *ctx, ocl_prog *p, int k, cl_uint dims,
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
    return ocl_cl_status(clEnqueueNDRangeKernel(im->q, p->k[k], dims, NULL, gws,
                                            lws, 0, NULL, NULL));
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
