/*
 * The OpenCL launches of the thin-form batched ops: lsq_batch_add_rows_q,
 * lsq_batch_remove_rows_q and lsq_batch_geqr_thin
 * (kernels/qru_batch_q.cl), one work-group a problem.
 */
#include <float.h>

#include "ocl_internal.h"

int ocl_lsq_batch_add_rows_q(qru_context *ctx, qru_dtype dt, int m, int r,
                             int n, int p, int count, qru_ptr R, int ldr,
                             size_t sR, qru_ptr D, int ldd, size_t sD,
                             qru_ptr Q, int ldq, size_t sQ, qru_ptr E,
                             int lde, size_t sE, qru_ptr U, int ldu,
                             size_t sU, qru_ptr F, int ldf, size_t sF,
                             qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    cl_int cm = m, cr = r, cn = n, cp = p, cc = count, cldr = ldr,
           cldd = ldd, cldq = ldq, clde = lde, cldu = ldu, cldf = ldf;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, qo = (cl_long)Q.off, qs = (cl_long)sQ,
            eo = (cl_long)E.off, es = (cl_long)sE, uo = (cl_long)U.off,
            us = (cl_long)sU, fo = (cl_long)F.off, fs = (cl_long)sF,
            ko = (cl_long)work.off;
    karg a[] = {KINT(cm),    KINT(cr),   KINT(cn),   KINT(cp),
                KINT(cc),    KMEM(R),    KLONG(ro),  KINT(cldr),
                KLONG(rs),   KMEM(D),    KLONG(dof), KINT(cldd),
                KLONG(ds),   KMEM(Q),    KLONG(qo),  KINT(cldq),
                KLONG(qs),   KMEM(E),    KLONG(eo),  KINT(clde),
                KLONG(es),   KMEM(U),    KLONG(uo),  KINT(cldu),
                KLONG(us),   KMEM(F),    KLONG(fo),  KINT(cldf),
                KLONG(fs),   KMEM(work), KLONG(ko)};
    return ocl_launch_problems(ctx, pr, K_LSQ_BATCH_ADD_ROWS_Q,
                               qru_lsq_batch_q_wg(n + p), count, NARGS(a), a,
                               0);
}

int ocl_lsq_batch_remove_rows_q(qru_context *ctx, qru_dtype dt, int m, int r,
                                int n, int k, int p, int count, qru_ptr R,
                                int ldr, size_t sR, qru_ptr D, int ldd,
                                size_t sD, qru_ptr Q, int ldq, size_t sQ,
                                qru_ptr E, int lde, size_t sE, qru_ptr info,
                                qru_ptr cnt, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    cl_int hc = cnt.h != NULL;
    if (!hc)
        cnt = info; /* not read; a valid buffer for the argument */
    cl_int cm = m, cr = r, cn = n, ck = k, cp = p, cc = count, cldr = ldr,
           cldd = ldd, cldq = ldq, clde = lde;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, qo = (cl_long)Q.off, qs = (cl_long)sQ,
            eo = (cl_long)E.off, es = (cl_long)sE, io = (cl_long)info.off,
            co = (cl_long)cnt.off, ko = (cl_long)work.off;
    tval te;
    karg eps = ocl_targ(
        dt, qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    /* the four stages of kernels/qru_batch_q.cl, the same arguments; the
     * first takes the local buffer of its sums (w + 1 elements) */
    static const int ks[4] = {K_LSQ_BATCH_RMQ_COMPLETE,
                              K_LSQ_BATCH_RMQ_COMMIT, K_LSQ_BATCH_RMQ_ROTATE,
                              K_LSQ_BATCH_RMQ_DROP};
    karg a[] = {KINT(cm),   KINT(cr),   KINT(cn),  KINT(ck),   KINT(cp),
                KINT(cc),   eps,        KMEM(R),   KLONG(ro),  KINT(cldr),
                KLONG(rs),  KMEM(D),    KLONG(dof), KINT(cldd), KLONG(ds),
                KMEM(Q),    KLONG(qo),  KINT(cldq), KLONG(qs),  KMEM(E),
                KLONG(eo),  KINT(clde), KLONG(es), KMEM(info), KLONG(io),
                KMEM(cnt),  KLONG(co),  KINT(hc),  KMEM(work), KLONG(ko),
                {0, NULL}};
    for (int s = 0; s < 4 && !st; ++s)
        st = ocl_launch_problems(ctx, pr, ks[s], qru_lsq_batch_q_wg(n), count,
                                 NARGS(a) - (s > 0), a,
                                 s > 0 ? 0 : qru_dtype_size(dt));
    return st;
}

int ocl_lsq_batch_geqr_thin(qru_context *ctx, qru_dtype dt, int m, int r,
                            int n, int count, qru_ptr A, int lda, size_t sA,
                            qru_ptr B, int ldb, size_t sB, qru_ptr R, int ldr,
                            size_t sR, qru_ptr D, int ldd, size_t sD,
                            qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde,
                            size_t sE, qru_ptr work, size_t *work_elems)
{
    if (!work.h) {
        *work_elems = (size_t)(count > 0 ? count : 0) *
                      qru_lsq_batch_qr_work(m > 0 ? m : 0);
        return 0;
    }
    if (m <= 0 || r <= 0 || n <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cr = r, cn = n, cc = count, clda = lda, cldb = ldb,
           cldr = ldr, cldd = ldd, cldq = ldq, clde = lde;
    cl_long ao = (cl_long)A.off, as = (cl_long)sA, bo = (cl_long)B.off,
            bs = (cl_long)sB, ro = (cl_long)R.off, rs = (cl_long)sR,
            dof = (cl_long)D.off, ds = (cl_long)sD, qo = (cl_long)Q.off,
            qs = (cl_long)sQ, eo = (cl_long)E.off, es = (cl_long)sE,
            ko = (cl_long)work.off;
    /* at most the reductions' work-group of the device (64 on a CPU,
     * where a group's barriers cost a loop over its items each: on PoCL
     * 64 items made 200 problems of 400 x 40 twice as fast as 256) */
    size_t want = (size_t)qru_lsq_batch_q_wg(n);
    want = ocl_batch_items(im, want < (size_t)im->tune.wg
                                   ? want
                                   : (size_t)im->tune.wg);
    size_t w = (size_t)pow2_floor(
        ocl_wg_for(im, pr, K_LSQ_BATCH_GEQR_THIN, want));
    size_t groups = min_sz((size_t)count, GRID_CAP);
    size_t l[1] = {w}, g[1] = {w * groups};
    karg a[] = {KINT(cm),   KINT(cr),    KINT(cn),   KINT(cc),   KMEM(A),
                KLONG(ao),  KINT(clda),  KLONG(as),  KMEM(B),    KLONG(bo),
                KINT(cldb), KLONG(bs),   KMEM(R),    KLONG(ro),  KINT(cldr),
                KLONG(rs),  KMEM(D),     KLONG(dof), KINT(cldd), KLONG(ds),
                KMEM(Q),    KLONG(qo),   KINT(cldq), KLONG(qs),  KMEM(E),
                KLONG(eo),  KINT(clde),  KLONG(es),  KMEM(work), KLONG(ko),
                {qru_dtype_size(dt) * qru_lsq_batch_qr_local_elems((int)w),
                 NULL}};
    return ocl_launch(ctx, pr, K_LSQ_BATCH_GEQR_THIN, 1, g, l, NARGS(a), a);
}
