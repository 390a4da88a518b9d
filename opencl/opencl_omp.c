/*
 * OpenCL version of omp_gram_step (contract in src/qru_ops.h; the CPU
 * version in src/cpu/cpu_kernels.inc is the reference): the two kernels
 * of kernels/qru_omp.cl, the grid on the rows (work-groups of
 * QRU_OMP_ROWS rows by up to 8 slices of the chosen columns) and the
 * one-work-group pick.
 */
#include <float.h>

#include "ocl_internal.h"

int ocl_omp_gram_step(qru_context *ctx, qru_dtype dt, int n, int m,
                      int ncoef, int k, double inv, double rr0, double thr,
                      qru_ptr X, int ldx, qru_ptr y, qru_ptr ws)
{
    if (n <= 0 || m <= 0 || ncoef <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    qru_omp_ws w = qru_omp_ws_of(n, m, ncoef);
    qru_ptr yv = k < 0 ? y : ws; /* not read after the start */
    cl_int ck = k, cm = m, cn = n, cc = ncoef, cngm = w.ngm, cngn = w.ngn,
           cldx = ldx;
    cl_long o = (cl_long)ws.off, xo = (cl_long)X.off, yo = (cl_long)yv.off;
    cl_long oG = o + (cl_long)w.G, oc0 = o + (cl_long)w.c0,
            oB = o + (cl_long)w.B, oQ = o + (cl_long)w.Q,
            oR = o + (cl_long)w.R, oz = o + (cl_long)w.z,
            oc = o + (cl_long)w.c, orr = o + (cl_long)w.r,
            ost = o + (cl_long)w.st, oS = o + (cl_long)w.S,
            op = o + (cl_long)w.part;
    tval ti, te, tr, tt;
    karg kinv = ocl_targ(dt, inv, &ti);
    karg keps =
        ocl_targ(dt, dt == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    karg krr = ocl_targ(dt, rr0, &tr), kthr = ocl_targ(dt, thr, &tt);
    size_t wr = ocl_wg_for(im, p, K_OMP_GRAM_ROWS, 8 * QRU_OMP_ROWS);
    size_t ns = wr / QRU_OMP_ROWS > 0 ? wr / QRU_OMP_ROWS : 1;
    if (im->max_item[1] && ns > im->max_item[1])
        ns = (size_t)pow2_floor(im->max_item[1]);
    size_t l[2] = {QRU_OMP_ROWS, ns};
    size_t g[2] = {QRU_OMP_ROWS * (size_t)(w.ngm + w.ngn), ns};
    karg a[] = {KINT(ck),  KINT(cm),  KINT(cn),   KINT(cngm), kinv,
                KMEM(X),   KLONG(xo), KINT(cldx), KMEM(yv),   KLONG(yo),
                KMEM(ws),  KLONG(oG), KLONG(oc0), KLONG(oB),  KLONG(oQ),
                KLONG(oR), KINT(cc),  KLONG(oc),  KLONG(orr), KLONG(ost),
                KLONG(op)};
    st = ocl_launch(ctx, p, K_OMP_GRAM_ROWS, 2, g, l, NARGS(a), a);
    if (st)
        return st;
    size_t t1 = ocl_wg_for(im, p, K_OMP_GRAM_PICK, (size_t)im->tune.wg);
    size_t l1[1] = {t1}, g1[1] = {t1};
    karg b[] = {KINT(ck),  KINT(cn),   KINT(cm),  KINT(cc),  KINT(cngm),
                KINT(cngn), keps,      krr,       kthr,      KMEM(ws),
                KLONG(oG), KLONG(oB),  KLONG(oR), KINT(cc),  KLONG(oz),
                KLONG(ost), KLONG(oS), KLONG(op)};
    return ocl_launch(ctx, p, K_OMP_GRAM_PICK, 1, g1, l1, NARGS(b), b);
}
