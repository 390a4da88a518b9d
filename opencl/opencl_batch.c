/*
 * The OpenCL launches of the batched ops: chol_update_batch,
 * chol_insert_batch, chol_delete_batch, lsq_batch_add_rows and lsq_batch_solve (kernels/qru_batch.cl), one
 * work-group a problem.
 */
#include <float.h>
#include <string.h>

#include "ocl_internal.h"

/* The sizes of a launch of kernel k of the batched ops: np problems of tp
 * items a group (qru_batch_problems within the kernel's work-group limit
 * and the local memory the device has beside the kernel's own), groups
 * for count problems (the bodies loop over more); lb: the bytes of the
 * local buffer. */
static void batch_launch(qru_context *ctx, qru_dtype dt, const ocl_prog *p,
                         int k, int tp, int seg, int lm, int count,
                         size_t *l, size_t *g, size_t *lb)
{
    ocl_impl *im = IMPL(ctx);
    size_t es = qru_dtype_size(dt), wmax = ocl_wg_for(im, p, k, 1024);
    size_t cap = im->local_mem > p->klocal[k] ? im->local_mem - p->klocal[k]
                                              : 0;
    int items = qru_ctx_tuning(ctx, dt)->batch_wg;
    if (items <= 0 || (size_t)items > wmax) /* 0: 32 (groups of one */
        items = (int)min_sz(wmax, 32);     /* problem on PoCL ran faster) */
    int np = qru_batch_problems(tp, (size_t)seg * es, lm, items, 1, cap);
    if ((size_t)np * (size_t)tp > wmax)
        np = 1;
    size_t groups = min_sz(((size_t)count + np - 1) / np, GRID_CAP);
    l[0] = (size_t)np * (size_t)tp;
    g[0] = l[0] * groups;
    *lb = (size_t)np * (size_t)seg * es;
}

/* The launch of batched Cholesky kernel k (chol_update_batch's or
 * chol_insert/delete_batch's) for order n and rank r: tp items a problem,
 * lm (the problem in local memory), seg elements of the local buffer a
 * problem, and batch_launch's sizes. */
static void chol_launch(qru_context *ctx, qru_dtype dt, const ocl_prog *p,
                        int k, int n, int r, int count, cl_int *tp,
                        cl_int *lm, cl_int *seg, size_t *l, size_t *g,
                        size_t *lb)
{
    int knob = qru_ctx_tuning(ctx, dt)->chol_batch_wg;
    size_t want = knob > 0 ? (size_t)qru_chol_batch_wg(knob, n)
                           : ocl_batch_items(IMPL(ctx),
                                             (size_t)qru_chol_batch_wg(0, n));
    *tp = (cl_int)pow2_floor(ocl_wg_for(IMPL(ctx), p, k, want));
    *lm = qru_chol_batch_local(dt, n, r);
    *seg = (cl_int)qru_chol_batch_local_elems(dt, n, r, *tp);
    batch_launch(ctx, dt, p, k, *tp, *seg, *lm, count, l, g, lb);
}

int ocl_chol_update_batch(qru_context *ctx, qru_dtype dt, char uplo, int n,
                          int k, int sign, int count, qru_ptr L, int ldl,
                          size_t sL, qru_ptr W, int ldw, size_t sW,
                          qru_ptr L1, int ld1, size_t s1, qru_ptr info,
                          qru_ptr cnt, qru_ptr work)
{
    if (n <= 0 || count <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (k <= 0)
        W = L; /* not read; a valid buffer for the argument */
    cl_int hc = cnt.h != NULL;
    if (!hc)
        cnt = L; /* not read; a valid buffer for the argument */
    cl_int up = ocl_uplo_code(uplo) == 1, cn = n, ck = k > 0 ? k : 0,
           cs = sign, cc = count, cldl = ldl, cldw = ldw, cld1 = ld1, lm, tp,
           seg;
    cl_long lo = (cl_long)L.off, ls = (cl_long)sL, wo = (cl_long)W.off,
            ws = (cl_long)sW, o1 = (cl_long)L1.off, s1l = (cl_long)s1,
            io = (cl_long)info.off, co = (cl_long)cnt.off,
            ko = (cl_long)work.off;
    tval te;
    karg eps = ocl_targ(
        dt, qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    size_t l[1], g[1], lb;
    chol_launch(ctx, dt, p, K_CHOL_UPDATE_BATCH, n, ck, count, &tp, &lm,
                &seg, l, g, &lb);
    karg a[] = {KINT(up),   KINT(cn),   KINT(ck),   KINT(cs),    KINT(cc),
                eps,        KMEM(L),    KLONG(lo),  KINT(cldl),  KLONG(ls),
                KMEM(W),    KLONG(wo),  KINT(cldw), KLONG(ws),   KMEM(L1),
                KLONG(o1),  KINT(cld1), KLONG(s1l), KMEM(info),  KLONG(io),
                KMEM(cnt),  KLONG(co),  KINT(hc),   KMEM(work),  KLONG(ko),
                KINT(lm),   KINT(tp),   KINT(seg),  {lb, NULL}};
    return ocl_launch(ctx, p, K_CHOL_UPDATE_BATCH, 1, g, l, NARGS(a), a);
}

/* chol_insert_batch (ins 1) or chol_delete_batch (ins 0) on its kernel */
static int chol_insdel_batch(qru_context *ctx, qru_dtype dt, int ins,
                             char uplo, int n, int kp, int p, int count,
                             qru_ptr L, int ldl, size_t sL, qru_ptr C,
                             int ldc, size_t sC, qru_ptr L1, int ld1,
                             size_t s1, qru_ptr info, qru_ptr cnt,
                             qru_ptr work)
{
    int n1 = ins ? n + p : n - p;
    if (n1 <= 0 || count <= 0)
        return 0;
    ocl_prog *pg;
    int st = ocl_get_prog(ctx, dt, &pg);
    if (st)
        return st;
    int kern = ins ? K_CHOL_INSERT_BATCH : K_CHOL_DELETE_BATCH;
    cl_int hc = cnt.h != NULL;
    if (!hc)
        cnt = L; /* not read; a valid buffer for the argument */
    cl_int up = ocl_uplo_code(uplo) == 1, cn = n, ck = kp, cp = p,
           cc = count, cldl = ldl, cldc = ldc, cld1 = ld1, lm, tp, seg;
    cl_long lo = (cl_long)L.off, ls = (cl_long)sL, co = (cl_long)C.off,
            cs = (cl_long)sC, o1 = (cl_long)L1.off, s1l = (cl_long)s1,
            io = (cl_long)info.off, mo = (cl_long)cnt.off,
            ko = (cl_long)work.off;
    tval te;
    karg eps = ocl_targ(
        dt, qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    size_t l[1], g[1], lb;
    chol_launch(ctx, dt, pg, kern, n1, p, count, &tp, &lm, &seg, l, g, &lb);
    /* the deletion's kernel has no C: its four arguments left out */
    karg a[] = {KINT(up),   KINT(cn),   KINT(ck),   KINT(cp),    KINT(cc),
                eps,        KMEM(L),    KLONG(lo),  KINT(cldl),  KLONG(ls),
                KMEM(C),    KLONG(co),  KINT(cldc), KLONG(cs),   KMEM(L1),
                KLONG(o1),  KINT(cld1), KLONG(s1l), KMEM(info),  KLONG(io),
                KMEM(cnt),  KLONG(mo),  KINT(hc),   KMEM(work),  KLONG(ko),
                KINT(lm),   KINT(tp),   KINT(seg),  {lb, NULL}};
    if (!ins)
        memmove(a + 10, a + 14, sizeof(karg) * (NARGS(a) - 14));
    return ocl_launch(ctx, pg, kern, 1, g, l, NARGS(a) - (ins ? 0 : 4), a);
}

/* chol_insert_batch and chol_delete_batch: the launch of
 * chol_update_batch for the new order n1 and rank p, one kernel each (no
 * C for the deletion) */
int ocl_chol_insert_batch(qru_context *ctx, qru_dtype dt, char uplo, int n,
                          int k, int p, int count, qru_ptr L, int ldl,
                          size_t sL, qru_ptr C, int ldc, size_t sC,
                          qru_ptr L1, int ld1, size_t s1, qru_ptr info,
                          qru_ptr cnt, qru_ptr work)
{
    return chol_insdel_batch(ctx, dt, 1, uplo, n, k, p, count, L, ldl, sL, C,
                             ldc, sC, L1, ld1, s1, info, cnt, work);
}

int ocl_chol_delete_batch(qru_context *ctx, qru_dtype dt, char uplo, int n,
                          int k, int p, int count, qru_ptr L, int ldl,
                          size_t sL, qru_ptr L1, int ld1, size_t s1,
                          qru_ptr info, qru_ptr cnt, qru_ptr work)
{
    return chol_insdel_batch(ctx, dt, 0, uplo, n, k, p, count, L, ldl, sL, L,
                             ldl, 0, L1, ld1, s1, info, cnt, work);
}

int ocl_lsq_batch_add_rows(qru_context *ctx, qru_dtype dt, int m, int r,
                           int p, int count, qru_ptr R, int ldr, size_t sR,
                           qru_ptr D, int ldd, size_t sD, qru_ptr rho2,
                           qru_ptr U, int ldu, size_t sU, qru_ptr E, int lde,
                           size_t sE, qru_ptr cnt, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    int lmv = qru_lsq_batch_local(m, r);
    if (lmv)
        work = R; /* not read; a valid buffer for the argument */
    cl_int hc = cnt.h != NULL;
    if (!hc)
        cnt = U; /* not read; a valid buffer for the argument */
    cl_int cm = m, cr = r, cp = p, cc = count, cldr = ldr, cldd = ldd,
           cldu = ldu, clde = lde, lm = lmv;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, ho = (cl_long)rho2.off, uo = (cl_long)U.off,
            us = (cl_long)sU, eo = (cl_long)E.off, es = (cl_long)sE,
            ko = (cl_long)work.off, co = (cl_long)cnt.off;
    size_t want =
        ocl_batch_items(im, (size_t)qru_lsq_batch_items(m + r, lmv));
    cl_int tp = (cl_int)pow2_floor(ocl_wg_for(im, pr, K_LSQ_BATCH_ADD_ROWS,
                                              want));
    cl_int seg = (cl_int)qru_lsq_batch_add_local_elems(m, r);
    size_t l[1], g[1], lb;
    batch_launch(ctx, dt, pr, K_LSQ_BATCH_ADD_ROWS, tp, seg, lm, count, l, g,
                 &lb);
    karg a[] = {KINT(cm),    KINT(cr),   KINT(cp),   KINT(cc),
                KMEM(R),     KLONG(ro),  KINT(cldr), KLONG(rs),
                KMEM(D),     KLONG(dof), KINT(cldd), KLONG(ds),
                KMEM(rho2),  KLONG(ho),  KMEM(U),    KLONG(uo),
                KINT(cldu),  KLONG(us),  KMEM(E),    KLONG(eo),
                KINT(clde),  KLONG(es),  KMEM(cnt),  KLONG(co),
                KINT(hc),    KMEM(work), KLONG(ko),  KINT(lm),
                KINT(tp),    KINT(seg),  {lb, NULL}};
    return ocl_launch(ctx, pr, K_LSQ_BATCH_ADD_ROWS, 1, g, l, NARGS(a), a);
}

/* (any: never a flag, the backend has no verdict_flag) */
int ocl_lsq_batch_solve(qru_context *ctx, qru_dtype dt, int m, int r, int n,
                        int count, qru_ptr R, int ldr, size_t sR, qru_ptr D,
                        int ldd, size_t sD, qru_ptr X, int ldx, size_t sX,
                        qru_ptr info, qru_ptr any, qru_ptr work)
{
    (void)any;
    if (m <= 0 || r <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    int lmv = qru_lsq_batch_local(m, r);
    if (lmv)
        work = X; /* not read; a valid buffer for the argument */
    cl_int cm = m, cr = r, cn = n, cc = count, cldr = ldr, cldd = ldd,
           cldx = ldx, lm = lmv;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, xo = (cl_long)X.off, xs = (cl_long)sX,
            io = (cl_long)info.off, ko = (cl_long)work.off;
    tval te;
    karg eps = ocl_targ(
        dt, qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    size_t want = ocl_batch_items(im, (size_t)qru_lsq_batch_items(m, lmv));
    cl_int tp = (cl_int)pow2_floor(ocl_wg_for(im, pr, K_LSQ_BATCH_SOLVE,
                                              want));
    cl_int seg = (cl_int)qru_lsq_batch_solve_local_elems(m, r, tp);
    size_t l[1], g[1], lb;
    batch_launch(ctx, dt, pr, K_LSQ_BATCH_SOLVE, tp, seg, lm, count, l, g,
                 &lb);
    karg a[] = {KINT(cm),   KINT(cr),   KINT(cn),   KINT(cc),   eps,
                KMEM(R),    KLONG(ro),  KINT(cldr), KLONG(rs),  KMEM(D),
                KLONG(dof), KINT(cldd), KLONG(ds),  KMEM(X),    KLONG(xo),
                KINT(cldx), KLONG(xs),  KMEM(info), KLONG(io),  KMEM(work),
                KLONG(ko),  KINT(lm),   KINT(tp),   KINT(seg),  {lb, NULL}};
    return ocl_launch(ctx, pr, K_LSQ_BATCH_SOLVE, 1, g, l, NARGS(a), a);
}
