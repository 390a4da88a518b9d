/*
 * OpenCL versions of gram_border and gram_solve (contracts in
 * src/qru_ops.h; the reference, which the CPU backend runs, is
 * ref_ops.c's sequence of basic ops): the kernels of kernels/qru_gram.cl,
 * two launches to border a column on, three to solve; and of
 * lars_gram_step (the CPU version in src/cpu/cpu_kernels.inc is the
 * reference): the bordering and z = W (W' S) by those kernels in two
 * launches, then the two of kernels/qru_lars.cl.
 */
#include <float.h>

#include "ocl_internal.h"

#define GRAM_ROWS 32   /* QRU_GRAMK_ROWS of kernels/qru_gram.cl */
#define GRAM_SLICES 8  /* QRU_GRAMK_SLICES */
#define GRAM_COLDOT 128 /* QRU_GRAMK_COLDOT */

/* y(c) = W(:, c)' x (r != q) for c < hw, x(qs) = sv first (qs >= 0),
 * and y2(c) = W(:, c)' x2 where incx2 > 0; ncp > 0: groups beyond hw
 * copy src to dst (ncp elements). */
static int gram_coldot2(qru_context *ctx, ocl_prog *p, qru_dtype dt, int hw,
                        int q, qru_ptr A, int lda, qru_ptr x, int incx,
                        int qs, double sv, qru_ptr y, qru_ptr x2, int incx2,
                        qru_ptr y2, int ncp, qru_ptr src, qru_ptr dst)
{
    ocl_impl *im = IMPL(ctx);
    size_t wg = ocl_wg_for(im, p, K_GRAM_COLDOT, GRAM_COLDOT);
    size_t ncg = ncp > 0 ? ((size_t)ncp + wg - 1) / wg : 0;
    if (ncg > 64)
        ncg = 64;
    cl_int chw = hw, cq = q, clda = lda, cinc = incx, cqs = qs, cncp = ncp,
           cinc2 = incx2;
    tval tv;
    karg ksv = ocl_targ(dt, sv, &tv);
    cl_long oa = (cl_long)A.off, ox = (cl_long)x.off, oy = (cl_long)y.off,
            os = (cl_long)src.off, od = (cl_long)dst.off,
            ox2 = (cl_long)x2.off, oy2 = (cl_long)y2.off;
    size_t l[1] = {wg}, g[1] = {wg * ((size_t)hw + ncg)};
    karg a[] = {KINT(chw),  KINT(cq),    KMEM(A),    KLONG(oa), KINT(clda),
                KMEM(x),    KLONG(ox),   KINT(cinc), KINT(cqs), ksv,
                KMEM(y),    KLONG(oy),   KMEM(x2),   KLONG(ox2), KINT(cinc2),
                KMEM(y2),   KLONG(oy2),  KINT(cncp), KMEM(src), KLONG(os),
                KMEM(dst),  KLONG(od)};
    return ocl_launch(ctx, p, K_GRAM_COLDOT, 1, g, l, NARGS(a), a);
}

/* gram_coldot2 without x2 */
static int gram_coldot(qru_context *ctx, ocl_prog *p, qru_dtype dt, int hw,
                       int q, qru_ptr A, int lda, qru_ptr x, int incx,
                       int qs, double sv, qru_ptr y, int ncp, qru_ptr src,
                       qru_ptr dst)
{
    return gram_coldot2(ctx, p, dt, hw, q, A, lda, x, incx, qs, sv, y, x, 0,
                        y, ncp, src, dst);
}

/* y = A(0:nrow-1, 0:ncol-1) x (c != q), or the bordering (border 1; 2:
 * and z = W V from x2 = W' S and S(q) at Sq). */
static int gram_rowdot2(qru_context *ctx, ocl_prog *p, int border, int nrow,
                        int ncol, int q, qru_ptr A, int lda, qru_ptr x,
                        qru_ptr y, qru_ptr gtt, qru_ptr out, qru_ptr x2,
                        qru_ptr Sq)
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
            og = (cl_long)gtt.off, oo = (cl_long)out.off,
            ox2 = (cl_long)x2.off, osq = (cl_long)Sq.off;
    karg a[] = {KINT(cb),  KINT(cn),   KINT(cc),  KINT(cq),   KMEM(A),
                KLONG(oa), KINT(clda), KMEM(x),   KLONG(ox),  KMEM(y),
                KLONG(oy), KMEM(gtt),  KLONG(og), KMEM(out),  KLONG(oo),
                KMEM(x2),  KLONG(ox2), KMEM(Sq),  KLONG(osq)};
    return ocl_launch(ctx, p, K_GRAM_ROWDOT, 2, g, l, NARGS(a), a);
}

/* gram_rowdot2 without x2 (border 0 or 1) */
static int gram_rowdot(qru_context *ctx, ocl_prog *p, int border, int nrow,
                       int ncol, int q, qru_ptr A, int lda, qru_ptr x,
                       qru_ptr y, qru_ptr gtt, qru_ptr out)
{
    return gram_rowdot2(ctx, p, border, nrow, ncol, q, A, lda, x, y, gtt, out,
                        x, x);
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

/* lars_gram_step: V = W' S and z = W V (with the bordering where a column
 * enters), the rows (corr and gamma's minima), the update and the pick:
 * four launches (START and LEAVE: the last alone). */
int ocl_lars_gram_step(qru_context *ctx, qru_dtype dt, int m, int kmax,
                       int hw, int mode, int flags, int it, int t, int q,
                       int ci, int u, int na, int qs, double sv, double piv,
                       double C, qru_ptr G, qru_ptr Gs, qru_ptr W, qru_ptr S,
                       qru_ptr V, qru_ptr Vb, qru_ptr out, qru_ptr ls,
                       qru_ptr P)
{
    if (m <= 0 || (mode == QRU_LARS_STEP && hw <= 0))
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    qru_lars_ws w = qru_lars_ws_of(m, kmax);
    size_t em = (size_t)m;
    double big = dt == QRU_DOUBLE ? DBL_MAX : FLT_MAX,
           dec = dt == QRU_DOUBLE ? 1e15 : 1e6;
    tval tp, tc, tb, td, tt;
    karg kpiv = ocl_targ(dt, piv, &tp), kC = ocl_targ(dt, C, &tc),
         kbig = ocl_targ(dt, big, &tb), kdec = ocl_targ(dt, dec, &td),
         ktiny = ocl_targ(dt, FLT_MIN, &tt);
    cl_long o = (cl_long)ls.off, ocov = o + (cl_long)w.cov,
            oc = o + (cl_long)w.c, opos = o + (cl_long)w.pos,
            osof = o + (cl_long)w.sof, ocof = o + (cl_long)w.cof,
            odrop = o + (cl_long)w.drop, orec = o + (cl_long)w.rec,
            opick = o + (cl_long)w.pick, opart = o + (cl_long)w.part,
            oo = (cl_long)out.off;
    cl_int cm = m, ck = kmax, chw = hw, cmode = mode, cf = flags, cit = it,
           ct = t, cq = q, cci = ci, cu = u, cna = na, cngr = w.ngr;
    if (mode == QRU_LARS_STEP) {
        qru_ptr z = qru_ptr_add(out, em + 2);
        if (t >= 0) { /* the bordering and the solve in two launches */
            st = gram_coldot2(ctx, p, dt, hw, q, W, kmax, S, 1,
                              qs < hw ? qs : -1, sv, V,
                              qru_ptr_add(Gs, (size_t)t), m, Vb, m,
                              qru_ptr_add(G, (size_t)t * em),
                              qru_ptr_add(Gs, (size_t)q * em));
            if (!st)
                st = gram_rowdot2(ctx, p, 2, hw, hw, q, W, kmax, Vb, z,
                                  qru_ptr_add(G, (size_t)t * em + (size_t)t),
                                  qru_ptr_add(out, em), V,
                                  qru_ptr_add(S, (size_t)q));
        } else {
            st = gram_coldot(ctx, p, dt, hw, -1, W, kmax, S, 1,
                             qs < hw ? qs : -1, sv, V, 0, V, V);
            if (!st)
                st = gram_rowdot(ctx, p, 0, hw, hw, -1, W, kmax, V, z, z, z);
        }
        if (st)
            return st;
        size_t wg = ocl_wg_for(im, p, K_LARS_ROWS, 8 * QRU_LARS_ROWS);
        size_t ns = wg / QRU_LARS_ROWS > 0 ? wg / QRU_LARS_ROWS : 1;
        if (im->max_item[1] && ns > im->max_item[1])
            ns = (size_t)pow2_floor(im->max_item[1]);
        ns = (size_t)pow2_floor(ns);
        while (ns > 1 && ns * 8 >= (size_t)hw)
            ns /= 2;
        size_t l[2] = {QRU_LARS_ROWS, ns},
               g[2] = {QRU_LARS_ROWS * (size_t)w.ngr, ns};
        cl_long ogs = (cl_long)Gs.off, os = (cl_long)S.off;
        karg a[] = {KINT(cm),    KINT(chw),  KINT(cf),    KINT(ct),
                    KINT(cq),    KINT(cci),  KINT(cu),    KINT(cna),
                    kpiv,        kC,         kbig,        kdec,
                    ktiny,       KMEM(Gs),   KLONG(ogs),  KMEM(S),
                    KLONG(os),   KMEM(out),  KLONG(oo),   KMEM(ls),
                    KLONG(ocov), KLONG(oc),  KLONG(opos), KLONG(osof),
                    KLONG(ocof), KLONG(orec), KLONG(opart)};
        st = ocl_launch(ctx, p, K_LARS_ROWS, 2, g, l, NARGS(a), a);
        if (st)
            return st;
    }
    size_t nt = (size_t)pow2_floor(
        ocl_wg_for(im, p, K_LARS_UPDATE, QRU_LARS_PICK));
    size_t l1[1] = {nt}, g1[1] = {nt * (size_t)w.npk};
    cl_long opp = (cl_long)P.off;
    qru_ptr Pv = P.h ? P : ls; /* (START and LEAVE do not read it) */
    karg b[] = {KINT(cmode), KINT(cm),    KINT(ck),    KINT(chw),
                KINT(cngr),  KINT(cf),    KINT(cit),   KINT(ct),
                KINT(cq),    KINT(cci),   KINT(cna),   kpiv,
                kC,          kbig,        ktiny,       KMEM(out),
                KLONG(oo),   KMEM(ls),    KLONG(ocov), KLONG(oc),
                KLONG(opos), KLONG(osof), KLONG(ocof), KLONG(odrop),
                KLONG(orec), KLONG(opick), KLONG(opart), KMEM(Pv),
                KLONG(opp)};
    return ocl_launch(ctx, p, K_LARS_UPDATE, 1, g1, l1, NARGS(b), b);
}
