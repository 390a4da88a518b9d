/*
 * The OpenCL launches of the column updates of the batched least squares:
 * lsq_batch_remove_cols and lsq_batch_add_cols_q
 * (kernels/qru_batch_cols.cl), one work-group a problem.
 */
#include <float.h>

#include "ocl_internal.h"

int ocl_lsq_batch_remove_cols(qru_context *ctx, qru_dtype dt, int m, int r,
                              int n, int k, int p, int count, int thin,
                              qru_ptr R, int ldr, size_t sR, qru_ptr D,
                              int ldd, size_t sD, qru_ptr rho2, qru_ptr Q,
                              int ldq, size_t sQ, qru_ptr E, int lde,
                              size_t sE, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    /* the Q-less form's Q and E are not used: R's buffer stands in */
    qru_ptr q = thin ? Q : R, e = thin ? E : R;
    cl_int cm = m, cr = r, cn = n, ck = k, cp = p, cc = count, cth = thin,
           cldr = ldr, cldd = ldd, cldq = ldq, clde = lde;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, ho = (cl_long)rho2.off, qo = (cl_long)q.off,
            qs = (cl_long)sQ, eo = (cl_long)e.off, es = (cl_long)sE,
            ko = (cl_long)work.off;
    karg a[] = {KINT(cm),   KINT(cr),   KINT(cn),    KINT(ck),   KINT(cp),
                KINT(cc),   KMEM(R),    KLONG(ro),   KINT(cldr), KLONG(rs),
                KMEM(D),    KLONG(dof), KINT(cldd),  KLONG(ds),  KMEM(rho2),
                KLONG(ho),  KMEM(q),    KLONG(qo),   KINT(cldq), KLONG(qs),
                KMEM(e),    KLONG(eo),  KINT(clde),  KLONG(es),  KMEM(work),
                KLONG(ko),  KINT(cth)};
    st = ocl_launch_problems(ctx, pr, K_LSQ_BATCH_RMC_ROTATE,
                             qru_lsq_batch_q_wg(m - p - k + r), count,
                             NARGS(a), a, 0);
    if (st || !thin)
        return st;
    return ocl_launch_problems(ctx, pr, K_LSQ_BATCH_RMC_Q,
                               qru_lsq_batch_q_wg(n), count, NARGS(a) - 1, a,
                               0);
}

int ocl_lsq_batch_add_cols_q(qru_context *ctx, qru_dtype dt, int m, int r,
                             int n, int k, int p, int count, qru_ptr R,
                             int ldr, size_t sR, qru_ptr D, int ldd,
                             size_t sD, qru_ptr Q, int ldq, size_t sQ,
                             qru_ptr E, int lde, size_t sE, qru_ptr V,
                             int ldv, size_t sV, qru_ptr R1, int ld1,
                             size_t s1, qru_ptr D1, int ldd1, size_t sD1,
                             qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1,
                             int lde1, size_t sE1, qru_ptr info, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    cl_int cm = m, cr = r, cn = n, ck = k, cp = p, cc = count, cldr = ldr,
           cldd = ldd, cldq = ldq, clde = lde, cldv = ldv, cld1 = ld1,
           cldd1 = ldd1, cldq1 = ldq1, clde1 = lde1;
    cl_long ro = (cl_long)R.off, rs = (cl_long)sR, dof = (cl_long)D.off,
            ds = (cl_long)sD, qo = (cl_long)Q.off, qs = (cl_long)sQ,
            eo = (cl_long)E.off, es = (cl_long)sE, vo = (cl_long)V.off,
            vs = (cl_long)sV, r1o = (cl_long)R1.off, r1s = (cl_long)s1,
            d1o = (cl_long)D1.off, d1s = (cl_long)sD1,
            q1o = (cl_long)Q1n.off, q1s = (cl_long)sQ1,
            e1o = (cl_long)E1.off, e1s = (cl_long)sE1,
            io = (cl_long)info.off, ko = (cl_long)work.off;
    tval te;
    karg eps = ocl_targ(
        dt, qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON, &te);
    /* the three stages of kernels/qru_batch_cols.cl, the same arguments;
     * the first two take the local buffer of their sums (w + 1
     * elements); the second owns columns, the others rows */
    static const int ks[3] = {K_LSQ_BATCH_ACQ_COMPLETE,
                              K_LSQ_BATCH_ACQ_COMMIT, K_LSQ_BATCH_ACQ_ROTATE};
    karg a[] = {KINT(cm),   KINT(cr),    KINT(cn),   KINT(ck),
                KINT(cp),   KINT(cc),    eps,        KMEM(R),
                KLONG(ro),  KINT(cldr),  KLONG(rs),  KMEM(D),
                KLONG(dof), KINT(cldd),  KLONG(ds),  KMEM(Q),
                KLONG(qo),  KINT(cldq),  KLONG(qs),  KMEM(E),
                KLONG(eo),  KINT(clde),  KLONG(es),  KMEM(V),
                KLONG(vo),  KINT(cldv),  KLONG(vs),  KMEM(R1),
                KLONG(r1o), KINT(cld1),  KLONG(r1s), KMEM(D1),
                KLONG(d1o), KINT(cldd1), KLONG(d1s), KMEM(Q1n),
                KLONG(q1o), KINT(cldq1), KLONG(q1s), KMEM(E1),
                KLONG(e1o), KINT(clde1), KLONG(e1s), KMEM(info),
                KLONG(io),  KMEM(work),  KLONG(ko),  {0, NULL}};
    for (int s = 0; s < 3 && !st; ++s)
        st = ocl_launch_problems(
            ctx, pr, ks[s], qru_lsq_batch_q_wg(s == 1 ? m + p + r : n), count,
            NARGS(a) - (s == 2), a, s == 2 ? 0 : qru_dtype_size(dt));
    return st;
}
