/*
 * OpenCL versions of gram_border and gram_solve (contracts in
 * src/qru_ops.h; the reference, which the CPU backend runs, is
 * ref_ops.c's sequence of basic ops): the kernels of kernels/qru_gram.cl,
 * two launches to border a column on, three to solve.
 */
#include "ocl_internal.h"

#define GRAM_ROWS 32   /* QRU_GRAMK_ROWS of kernels/qru_gram.cl */
#define GRAM_SLICES 8  /* QRU_GRAMK_SLICES */
#define GRAM_COLDOT 128 /* QRU_GRAMK_COLDOT */

/* y(c) = W(:, c)' x (r != q) for c < hw, x(qs) = sv first (qs >= 0);
 * ncp > 0: groups beyond hw copy src to dst (ncp elements). */
static int gram_coldot(qru_context *ctx, ocl_prog *p, qru_dtype dt, int hw,
                       int q, qru_ptr A, int lda, qru_ptr x, int incx,
                       int qs, double sv, qru_ptr y, int ncp, qru_ptr src,
                       qru_ptr dst)
{
    ocl_impl *im = IMPL(ctx);
    size_t wg = ocl_wg_for(im, p, K_GRAM_COLDOT, GRAM_COLDOT);
    size_t ncg = ncp > 0 ? ((size_t)ncp + wg - 1) / wg : 0;
    if (ncg > 64)
        ncg = 64;
    cl_int chw = hw, cq = q, clda = lda, cinc = incx, cqs = qs, cncp = ncp;
    tval tv;
    karg ksv = ocl_targ(dt, sv, &tv);
    cl_long oa = (cl_long)A.off, ox = (cl_long)x.off, oy = (cl_long)y.off,
            os = (cl_long)src.off, od = (cl_long)dst.off;
    size_t l[1] = {wg}, g[1] = {wg * ((size_t)hw + ncg)};
    karg a[] = {KINT(chw),  KINT(cq),   KMEM(A),   KLONG(oa), KINT(clda),
                KMEM(x),    KLONG(ox),  KINT(cinc), KINT(cqs), ksv,
                KMEM(y),    KLONG(oy),  KINT(cncp), KMEM(src), KLONG(os),
                KMEM(dst),  KLONG(od)};
    return ocl_launch(ctx, p, K_GRAM_COLDOT, 1, g, l, NARGS(a), a);
}

/* y = A(0:nrow-1, 0:ncol-1) x (c != q), or the bordering (border 1). */
static int gram_rowdot(qru_context *ctx, ocl_prog *p, int border, int nrow,
                       int ncol, int q, qru_ptr A, int lda, qru_ptr x,
                       qru_ptr y, qru_ptr gtt, qru_ptr out)
{
    ocl_impl *im = IMPL(ctx);
    size_t wg = ocl_wg_for(im, p, K_GRAM_ROWDOT, GRAM_ROWS * GRAM_SLICES);
    size_t ns = wg / GRAM_ROWS > 0 ? wg / GRAM_ROWS : 1;
    if (im->max_item[1] && ns > im->max_item[1])
        ns = (size_t)pow2_floor(im->max_item[1]);
    if (!border)
        while (ns > 1 && ns * 8 >= (size_t)ncol)
            ns /= 2;
    size_t ng = ((size_t)nrow + GRAM_ROWS - 1) / GRAM_ROWS;
    size_t l[2] = {GRAM_ROWS, ns}, g[2] = {GRAM_ROWS * ng, ns};
    cl_int cb = border, cn = nrow, cc = ncol, cq = q, clda = lda;
    cl_long oa = (cl_long)A.off, ox = (cl_long)x.off, oy = (cl_long)y.off,
            og = (cl_long)gtt.off, oo = (cl_long)out.off;
    karg a[] = {KINT(cb),  KINT(cn),  KINT(cc),   KINT(cq),  KMEM(A),
                KLONG(oa), KINT(clda), KMEM(x),   KLONG(ox), KMEM(y),
                KLONG(oy), KMEM(gtt), KLONG(og),  KMEM(out), KLONG(oo)};
    return ocl_launch(ctx, p, K_GRAM_ROWDOT, 2, g, l, NARGS(a), a);
}

int ocl_gram_border(qru_context *ctx, qru_dtype dt, int m, int kmax, int hw,
                    int t, int q, qru_ptr G, qru_ptr Gs, qru_ptr W,
                    qru_ptr V, qru_ptr T, qru_ptr out)
{
    (void)T;
    if (m <= 0 || hw <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    size_t em = (size_t)m;
    st = gram_coldot(ctx, p, dt, hw, q, W, kmax, qru_ptr_add(Gs, (size_t)t),
                     m, -1, 0.0, V, m, qru_ptr_add(G, (size_t)t * em),
                     qru_ptr_add(Gs, (size_t)q * em));
    if (st)
        return st;
    return gram_rowdot(ctx, p, 1, hw, hw, q, W, kmax, V, V,
                       qru_ptr_add(G, (size_t)t * em + (size_t)t),
                       qru_ptr_add(out, em));
}

int ocl_gram_solve(qru_context *ctx, qru_dtype dt, int m, int kmax, int hw,
                   qru_ptr Gs, qru_ptr W, qru_ptr S, int qs, double sv,
                   qru_ptr V, qru_ptr out)
{
    if (m <= 0 || hw <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    qru_ptr z = qru_ptr_add(out, (size_t)m + 2);
    st = gram_coldot(ctx, p, dt, hw, -1, W, kmax, S, 1, qs < hw ? qs : -1,
                     sv, V, 0, V, V);
    if (!st)
        st = gram_rowdot(ctx, p, 0, hw, hw, -1, W, kmax, V, z, z, z);
    if (!st)
        st = gram_rowdot(ctx, p, 0, m, hw, -1, Gs, m, z, out, z, z);
    return st;
}
