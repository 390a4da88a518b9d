/*
 * The OpenCL launches of the shared kernels: Householder vectors and
 * reflectors, Givens rotations and sweeps, the Cholesky kernels and the
 * fused panels.
 */
#include <limits.h>

#include "ocl_internal.h"

/* ---- Householder kernels ------------------------------------------------- */

int ocl_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha,
                     qru_ptr x, qru_ptr v, qru_ptr tau)
{
    if (n < 0)
        n = 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
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
    size_t w = ocl_wg_for(im, p, K_HOUSE, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cn),  KMEM(alpha), KLONG(ao), KMEM(x),   KLONG(xo),
                KMEM(v),   KLONG(vo),   KMEM(tau), KLONG(to), KINT(same)};
    return ocl_launch(ctx, p, K_HOUSE, 1, g, l, NARGS(a), a);
}

int ocl_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
                    qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
                    qru_ptr work)
{
    (void)work; /* the fused kernel keeps w in local memory */
    if (n <= 0)
        return 0;
    if (m < 0)
        m = 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
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
    return ocl_launch_colred(ctx, p, K_LARF, m, n, NARGS(a), a);
}

int ocl_wy_append(qru_context *ctx, qru_dtype dt, int m, int j,
                         qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                         qru_ptr work)
{
    if (m <= 0 || j < 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cm = m, cj = j, cldy = ldy, cldw = ldw;
    cl_long yo = (cl_long)Y.off, wo = (cl_long)W.off, to = (cl_long)tau.off;
    if (j > 0) { /* work = Y(:, 0:j-1)' Y(:, j) */
        cl_long yj = yo + (cl_long)j * ldy, ko = (cl_long)work.off;
        karg a[] = {KINT(cm), KINT(cj),  KMEM(Y),    KLONG(yo), KINT(cldy),
                    KMEM(Y),  KLONG(yj), KMEM(work), KLONG(ko)};
        if ((st = ocl_launch_colred(ctx, p, K_GEMV_T, m, j, NARGS(a), a)) != 0)
            return st;
    } else {
        work = tau; /* not read when j = 0 */
    }
    cl_long ko = (cl_long)work.off;
    karg a[] = {KINT(cm),   KINT(cj),   KMEM(Y),  KLONG(yo),
                KINT(cldy), KMEM(W),    KLONG(wo), KINT(cldw),
                KMEM(work), KLONG(ko),  KMEM(tau), KLONG(to)};
    return ocl_launch1d(ctx, p, K_WY_COL, min_sz((size_t)m, GRID_CAP * 16),
                    NARGS(a), a);
}

/* ---- update kernels -------------------------------------------------------- */

int ocl_givens_make(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                           int inc, int ps, qru_ptr cs)
{
    if (cnt <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int cc = cnt;
    cl_long xo = (cl_long)X.off, ci = inc, cp = ps, co = (cl_long)cs.off;
    karg a[] = {KINT(cc),  KMEM(X),  KLONG(xo), KLONG(ci),
                KLONG(cp), KMEM(cs), KLONG(co)};
    return ocl_launch1d(ctx, p, K_GIVENS_MAKE,
                    min_sz((size_t)cnt, GRID_CAP * 16), NARGS(a), a);
}

int ocl_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                            qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    if (cnt <= 0 || len <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
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
    return ocl_launch2d(ctx, p, K_GIVENS_APPLY, n0, n1, NARGS(a), a);
}

/* All the sweeps in one launch of ONE work-group (kernels/qru_update.cl;
 * teams of one item on OpenCL 1.2). */
int ocl_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                             int make, qru_ptr X, long xrs, long xcs, int nr,
                             int from_jlo, qru_ptr cs)
{
    if (L <= 0 || p <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cL = L, cp = p, cm = make, cn = nr, cf = from_jlo;
    cl_long xo = (cl_long)X.off, rs = xrs, ks = xcs, co = (cl_long)cs.off;
    /* the window of active columns in local memory when it fits (and
     * the tuning's sweeps_kernel is not QRU_SWEEPS_KERNEL_GLOBAL; CUDA's
     * cluster, window and chain kernels mean the same here) */
    cl_int cW = 2 * (p < L ? p : L) + 2;
    size_t lds = (size_t)cW * (size_t)(nr > 0 ? nr : 1) * qru_dtype_size(dt);
    if (qru_ctx_tuning(ctx, dt)->sweeps_kernel != QRU_SWEEPS_KERNEL_GLOBAL &&
        lds + pr->klocal[K_GIVENS_SWEEPS_LDS] <= im->local_mem) {
        size_t w = ocl_wg_for(im, pr, K_GIVENS_SWEEPS_LDS, (size_t)im->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a[] = {KINT(cL),  KINT(cp), KINT(cm),   KMEM(X),
                    KLONG(xo), KLONG(rs), KLONG(ks), KINT(cn),
                    KINT(cf),  KMEM(cs), KLONG(co),  KINT(cW),
                    {lds, NULL}};
        return ocl_launch(ctx, pr, K_GIVENS_SWEEPS_LDS, 1, g, l, NARGS(a), a);
    }
    size_t w = ocl_wg_for(im, pr, K_GIVENS_SWEEPS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cL),  KINT(cp), KINT(cm), KMEM(X),  KLONG(xo), KLONG(rs),
                KLONG(ks), KINT(cn), KINT(cf), KMEM(cs), KLONG(co)};
    return ocl_launch(ctx, pr, K_GIVENS_SWEEPS, 1, g, l, NARGS(a), a);
}

/* Every group's accumulated rotations in one launch: x over the rows of a
 * group's matrix, y over the groups. */
int ocl_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p,
                            int ab, qru_ptr cs, qru_ptr G, int ldg)
{
    if (L <= 0 || p <= 0 || ab <= 0)
        return 0;
    ocl_prog *pr;
    int st = ocl_get_prog(ctx, dt, &pr);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cL = L, cp = p, ca = ab, cld = ldg;
    cl_long co = (cl_long)cs.off, go = (cl_long)G.off;
    size_t w = ocl_wg_for(im, pr, K_GIVENS_ACCUM, 64);
    size_t rows = (size_t)ab + (size_t)p;
    size_t l[2] = {w, 1}, g[2] = {ceil_div(rows, w) * w, (size_t)((L + ab - 1) / ab)};
    karg a[] = {KINT(cL), KINT(cp), KINT(ca), KMEM(cs), KLONG(co),
                KMEM(G),  KLONG(go), KINT(cld)};
    return ocl_launch(ctx, pr, K_GIVENS_ACCUM, 2, g, l, NARGS(a), a);
}


int ocl_geadd_batched(qru_context *ctx, qru_dtype dt, int m, int n,
                      double alpha, qru_ptr A, int lda, size_t sA, double beta,
                      qru_ptr B, int ldb, size_t sB, int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (alpha == 0.0)
        A = B; /* not read; keep the argument a valid buffer */
    cl_int cm = m, cn = n, cc = count, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off, sa = (cl_long)sA,
            sb = (cl_long)sB;
    tval ta, tb;
    karg a[] = {KINT(cm),  KINT(cn),   KINT(cc),  KINT(cm), KMEM(A),
                KLONG(ao), KINT(clda), KLONG(sa), KINT(cm), KMEM(B),
                KLONG(bo), KINT(cldb), KLONG(sb)};
    a[3] = ocl_targ(dt, alpha, &ta);
    a[8] = ocl_targ(dt, beta, &tb);
    long cols = (long)n * count;
    return ocl_launch2d(ctx, p, K_GEADD, m,
                        cols > INT_MAX ? INT_MAX : (int)cols, NARGS(a), a);
}

int ocl_geadd(qru_context *ctx, qru_dtype dt, int m, int n, double alpha,
              qru_ptr A, int lda, double beta, qru_ptr B, int ldb)
{
    return ocl_geadd_batched(ctx, dt, m, n, alpha, A, lda, 0, beta, B, ldb, 0,
                             1);
}

/* ---- Cholesky kernels ------------------------------------------------------ */

int ocl_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans,
                    int n, int k, double alpha, qru_ptr A, int lda,
                    double beta, qru_ptr C, int ldc)
{
    if (n <= 0 || ((k <= 0 || alpha == 0.0) && beta == 1.0))
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int u = ocl_uplo_code(uplo) == 1 ? 1 : 2;
    if (k <= 0 || alpha == 0.0) { /* C = beta C on the triangle */
        cl_int cn = n, cl = ldc;
        cl_long co = (cl_long)C.off;
        tval tb;
        karg a[] = {KINT(u), KINT(cn),  KINT(cn), ocl_targ(dt, beta, &tb),
                    KMEM(C), KLONG(co), KINT(cl)};
        return ocl_launch2d(ctx, p, K_SCAL_TRI, n, n, NARGS(a), a);
    }
    if (n == 1 && !qru_dtype_complex(dt)) {
        /* C(0,0) = alpha a'a + beta C(0,0): one group's dot */
        cl_int ck = k;
        cl_long ao = (cl_long)A.off, co = (cl_long)C.off,
                inc = (trans == 'T' || trans == 't' || trans == 'C' ||
                       trans == 'c')
                          ? 1
                          : lda;
        tval ta, tb;
        size_t w = ocl_wg_for(IMPL(ctx), p, K_SYRK1, (size_t)IMPL(ctx)->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a[] = {KINT(ck),  ocl_targ(dt, alpha, &ta), KMEM(A), KLONG(ao),
                    KLONG(inc), ocl_targ(dt, beta, &tb),  KMEM(C), KLONG(co)};
        return ocl_launch(ctx, p, K_SYRK1, 1, g, l, NARGS(a), a);
    }
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastTriangle tri = u == 1 ? CLBlastTriangleUpper : CLBlastTriangleLower;
    CLBlastStatusCode s;
    if (dt == QRU_COMPLEX_DOUBLE) /* herk: C's diagonal real */
        s = CLBlastZherk(CLBlastLayoutColMajor, tri, ocl_btr_dt(dt, trans),
                         (size_t)n, (size_t)k, alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, beta, (cl_mem)C.h, C.off, (size_t)ldc,
                         &q, NULL);
    else if (dt == QRU_COMPLEX_FLOAT)
        s = CLBlastCherk(CLBlastLayoutColMajor, tri, ocl_btr_dt(dt, trans),
                         (size_t)n, (size_t)k, (float)alpha, (cl_mem)A.h,
                         A.off, (size_t)lda, (float)beta, (cl_mem)C.h, C.off,
                         (size_t)ldc, &q, NULL);
    else if (dt == QRU_DOUBLE)
        s = CLBlastDsyrk(CLBlastLayoutColMajor, tri, ocl_btr(trans), (size_t)n,
                         (size_t)k, alpha, (cl_mem)A.h, A.off, (size_t)lda,
                         beta, (cl_mem)C.h, C.off, (size_t)ldc, &q, NULL);
    else
        s = CLBlastSsyrk(CLBlastLayoutColMajor, tri, ocl_btr(trans), (size_t)n,
                         (size_t)k, (float)alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (float)beta, (cl_mem)C.h, C.off,
                         (size_t)ldc, &q, NULL);
    return ocl_blast_status(ctx, s);
}

int ocl_lacpy(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     qru_ptr A, int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int u = ocl_uplo_code(uplo), cm = m, cn = n, clda = lda, cldb = ldb;
    cl_long ao = (cl_long)A.off, bo = (cl_long)B.off;
    karg a[] = {KINT(u),    KINT(cm), KINT(cn),  KMEM(A),    KLONG(ao),
                KINT(clda), KMEM(B),  KLONG(bo), KINT(cldb)};
    return ocl_launch2d(ctx, p, K_LACPY, m, n, NARGS(a), a);
}

int ocl_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                           qru_ptr A, int lda, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int up = ocl_uplo_code(uplo) == 1, cn = n, clda = lda, cb = base;
    cl_long ao = (cl_long)A.off, io = (cl_long)info.off;
    size_t w = ocl_wg_for(im, p, K_POTRF_PANEL, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(up),  KINT(cn),   KMEM(A),   KLONG(ao),
                KINT(clda), KMEM(info), KLONG(io), KINT(cb)};
    return ocl_launch(ctx, p, K_POTRF_PANEL, 1, g, l, NARGS(a), a);
}

int ocl_chol_rot(qru_context *ctx, qru_dtype dt, int n, int k, int sign,
                        qru_ptr L, int ldl, qru_ptr W, int ldw, qru_ptr info,
                        int base)
{
    if (n <= 0 || k <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
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
    size_t w = ocl_wg_for(im, p, K_CHOL_ROT, min_sz(want, im->max_wg));
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cn),  KINT(ck),   KINT(cs),  KMEM(L),
                KLONG(lo), KINT(cldl), KMEM(W),   KLONG(wo),
                KINT(cldw), KMEM(info), KLONG(io), KINT(cb)};
    return ocl_launch(ctx, p, K_CHOL_ROT, 1, g, l, NARGS(a), a);
}

/* The tile kernels of the structured rank-1 update: QRU_CHOL_R1_TILE x ny
 * items a group (ny <= 8, as many as the kernel allows), one group a tile
 * of the nt x nt grid (those above the diagonal return at once); rows =
 * 1: one group a tile row (the nt x 1 grid of chol_r1_rows). */
static int r1_tiles(qru_context *ctx, ocl_prog *p, int k, int n, int rows,
                    int nargs, karg *a)
{
    size_t t = QRU_CHOL_R1_TILE;
    size_t w = ocl_wg_for(IMPL(ctx), p, k, 8 * t);
    if (w < t)
        return QRU_ERR_UNSUPPORTED;
    size_t nt = ((size_t)n + t - 1) / t, ny = w / t > 8 ? 8 : w / t;
    size_t l[2] = {t, ny}, g[2] = {nt * t, (rows ? 1 : nt) * ny};
    return ocl_launch(ctx, p, k, 2, g, l, nargs, a);
}

int ocl_chol_r1_prep(qru_context *ctx, qru_dtype dt, char uplo, int n, int k,
                     int sign, qru_ptr L, int ldl, qru_ptr pv, int ldp, int kw,
                     qru_ptr W, int ldw, qru_ptr work, qru_ptr head,
                     qru_ptr adiag, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int up = ocl_uplo_code(uplo) == 1, cn = n, ck = k, cs = sign,
           cldl = ldl, cldp = ldp, ckw = kw, cldw = ldw, cb = base;
    cl_long lo = (cl_long)L.off, po = (cl_long)pv.off, wo = (cl_long)work.off,
            wko = (cl_long)W.off, ao = (cl_long)adiag.off,
            ho = (cl_long)head.off, io = (cl_long)info.off;
    /* kw = 0: W is not read; any buffer stands in for it */
    qru_ptr Wa = kw > 0 ? W : work;
    karg a1[] = {KINT(up),   KINT(cn),  KINT(ck),   KMEM(L),
                 KLONG(lo),  KINT(cldl), KMEM(pv),  KLONG(po),
                 KINT(cldp), KMEM(work), KLONG(wo)};
    karg a1r[] = {KINT(up), KINT(cn),  KMEM(L),    KLONG(lo), KINT(cldl),
                  KMEM(pv), KLONG(po), KMEM(work), KLONG(wo)};
    st = k == 1 ? r1_tiles(ctx, p, K_CHOL_R1_PART, n, 0, NARGS(a1r), a1r)
                : r1_tiles(ctx, p, K_CHOL_RK_PART, n, 0, NARGS(a1), a1);
    if (st)
        return st;
    karg a2[] = {KINT(cn),   KINT(ck),  KINT(cs),   KINT(ckw),
                 KMEM(Wa),   KLONG(wko), KINT(cldw), KMEM(work),
                 KLONG(wo),  KMEM(adiag), KLONG(ao)};
    st = r1_tiles(ctx, p, K_CHOL_R1_ROWS, n, 1, NARGS(a2), a2);
    if (st)
        return st;
    if (k == 1) {
        size_t w = ocl_wg_for(im, p, K_CHOL_R1_COEF, (size_t)im->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a3[] = {KINT(up),   KINT(cn),   KINT(cs),   KMEM(L),
                     KLONG(lo),  KINT(cldl), KMEM(pv),   KLONG(po),
                     KMEM(work), KLONG(wo),  KMEM(head), KLONG(ho),
                     KMEM(info), KLONG(io),  KINT(cb)};
        return ocl_launch(ctx, p, K_CHOL_R1_COEF, 1, g, l, NARGS(a3), a3);
    }
    /* k > 1: the columns' coefficients in groups of ncol, then info */
    cl_int cnc = qru_chol_rk_cols(k);
    size_t w = ocl_wg_for(im, p, K_CHOL_RK_COEF, 256);
    size_t l[1] = {w}, g[1] = {w * (size_t)((n + cnc - 1) / cnc)};
    karg a3[] = {KINT(cn),   KINT(ck),  KINT(cnc),  KINT(cs),
                 KMEM(L),    KLONG(lo), KINT(cldl), KMEM(pv),
                 KLONG(po),  KINT(cldp), KMEM(work), KLONG(wo),
                 KMEM(head), KLONG(ho), KMEM(info), KLONG(io)};
    st = ocl_launch(ctx, p, K_CHOL_RK_COEF, 1, g, l, NARGS(a3), a3);
    if (st)
        return st;
    size_t w4 = ocl_wg_for(im, p, K_CHOL_RK_INFO, (size_t)im->tune.wg);
    size_t l4[1] = {w4}, g4[1] = {w4};
    karg a4[] = {KINT(cn),   KINT(ck),  KMEM(work), KLONG(wo),
                 KMEM(info), KLONG(io), KINT(cb)};
    return ocl_launch(ctx, p, K_CHOL_RK_INFO, 1, g4, l4, NARGS(a4), a4);
}

int ocl_chol_r1_apply(qru_context *ctx, qru_dtype dt, char uplo, int n, int k,
                      qru_ptr L, int ldl, qru_ptr L1, int ld1, qru_ptr pv,
                      int ldp, qru_ptr work)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    cl_int up = ocl_uplo_code(uplo) == 1, cn = n, ck = k, cldl = ldl,
           cld1 = ld1, cldp = ldp;
    cl_long lo = (cl_long)L.off, o1 = (cl_long)L1.off, po = (cl_long)pv.off,
            wo = (cl_long)work.off;
    karg a[] = {KINT(up),   KINT(cn),  KINT(ck),   KMEM(L),
                KLONG(lo),  KINT(cldl), KMEM(L1),  KLONG(o1),
                KINT(cld1), KMEM(pv),  KLONG(po),  KINT(cldp),
                KMEM(work), KLONG(wo)};
    karg ar[] = {KINT(up),  KINT(cn),   KMEM(L),    KLONG(lo),
                 KINT(cldl), KMEM(L1),  KLONG(o1),  KINT(cld1),
                 KMEM(pv),  KLONG(po),  KMEM(work), KLONG(wo)};
    return k == 1 ? r1_tiles(ctx, p, K_CHOL_R1_APPLY, n, 0, NARGS(ar), ar)
                  : r1_tiles(ctx, p, K_CHOL_RK_APPLY, n, 0, NARGS(a), a);
}

int ocl_chol_r1_rhs(qru_context *ctx, qru_dtype dt, int n, int r, int sign,
                    qru_ptr pv, qru_ptr work, qru_ptr X, int ldx, qru_ptr Y,
                    int ldy, qru_ptr e, int ince, qru_ptr du)
{
    if (n <= 0 || r <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cn = n, cs = sign, cldx = ldx, cldy = ldy, cinc = ince;
    cl_long po = (cl_long)pv.off, wo = (cl_long)work.off,
            xo = (cl_long)X.off, yo = (cl_long)Y.off, eo = (cl_long)e.off,
            dof = (cl_long)du.off;
    size_t w = ocl_wg_for(im, p, K_CHOL_R1_RHS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w * (size_t)r};
    karg a[] = {KINT(cn),  KINT(cs),   KMEM(pv), KLONG(po),  KMEM(work),
                KLONG(wo), KMEM(X),    KLONG(xo), KINT(cldx), KMEM(Y),
                KLONG(yo), KINT(cldy), KMEM(e),   KLONG(eo),  KINT(cinc),
                KMEM(du),  KLONG(dof)};
    return ocl_launch(ctx, p, K_CHOL_R1_RHS, 1, g, l, NARGS(a), a);
}

/* The closed-form rotations of a rank-1 row update: c and s by one
 * work-group, then the rows x segments grid twice (kernels/qru_update.cl). */
int ocl_chol_r1_rotate(qru_context *ctx, qru_dtype dt, int n, int m,
                       double alpha, qru_ptr pv, int incp, qru_ptr X, int ldx,
                       qru_ptr Y, int ldy, qru_ptr xin, qru_ptr xout,
                       qru_ptr work)
{
    if (n <= 0)
        return 0;
    if (m <= 0) /* xout = xin */
        return ocl_copy(ctx, dt, n, 1, xin, n, xout, n);
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    int segs = (m + QRU_CHOL_R1_ROTW - 1) / QRU_CHOL_R1_ROTW;
    cl_int cn = n, cm = m, cldx = ldx, cldy = ldy, cinc = incp;
    cl_long po = (cl_long)pv.off, xo = (cl_long)X.off, yo = (cl_long)Y.off,
            io = (cl_long)xin.off, oo = (cl_long)xout.off,
            wo = (cl_long)work.off;
    size_t w = ocl_wg_for(im, p, K_R1ROT_CS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    tval ta;
    karg a1[] = {KINT(cm),  ocl_targ(dt, alpha, &ta), KMEM(pv),  KLONG(po),
                 KINT(cinc), KMEM(work),              KLONG(wo)};
    st = ocl_launch(ctx, p, K_R1ROT_CS, 1, g, l, NARGS(a1), a1);
    if (st)
        return st;
    karg a2[] = {KINT(cn),  KINT(cm),   KMEM(X),    KLONG(xo), KINT(cldx),
                 KMEM(xin), KLONG(io),  KMEM(work), KLONG(wo)};
    /* one item a (row, segment): the 2-D grid exactly, 64 rows a group */
    size_t rl = ocl_wg_for(im, p, K_R1ROT_PART, 64);
    size_t l2[2] = {rl, 1}, g2[2] = {((size_t)n + rl - 1) / rl * rl,
                                      (size_t)segs};
    st = ocl_launch(ctx, p, K_R1ROT_PART, 2, g2, l2, NARGS(a2), a2);
    if (st)
        return st;
    karg a3[] = {KINT(cn),   KINT(cm),  KMEM(X),    KLONG(xo),
                 KINT(cldx), KMEM(Y),   KLONG(yo),  KINT(cldy),
                 KMEM(xout), KLONG(oo), KMEM(work), KLONG(wo)};
    rl = ocl_wg_for(im, p, K_R1ROT_APPLY, 64);
    size_t l3[2] = {rl, 1}, g3[2] = {((size_t)n + rl - 1) / rl * rl,
                                      (size_t)segs};
    return ocl_launch(ctx, p, K_R1ROT_APPLY, 2, g3, l3, NARGS(a3), a3);
}

/* ---- fused panels ------------------------------------------------ */

/* Bytes of local memory that qru_panel_qr_lds may take for its panel: the
 * device's local memory less what the kernel itself declares; 0 when the
 * tuning's panel_kernel asks for the global-memory kernel only (GLOBAL)
 * or for the many-block kernel (GRID, CUDA only: global memory here); REG
 * (no warp-chain kernel, CUDA only) and SMEM are the default here. */
size_t ocl_panel_lds_bytes(const qru_context *ctx, qru_dtype dt,
                              const ocl_prog *p)
{
    const ocl_impl *im = IMPL(ctx);
    int pk = qru_ctx_tuning(ctx, dt)->panel_kernel;
    if (pk == QRU_PANEL_KERNEL_GLOBAL || pk == QRU_PANEL_KERNEL_GRID)
        return 0;
    size_t used = p->klocal[K_PANEL_QR_LDS];
    return im->local_mem > used ? im->local_mem - used : 0;
}

/* The block reflector on a two-part matrix: the kernel qru_wy_left
 * (work-groups of a fixed 128 items: PoCL compiles a kernel again for
 * every work-group size) where it fits, the GEMM sequence otherwise. */
int ocl_wy_left(qru_context *ctx, qru_dtype dt, char ytop, int mt, int mb,
                int nb, int nc, qru_ptr Y, int ldy, qru_ptr W, int ldw,
                qru_ptr A, int lda, qru_ptr B, int ldb, qru_ptr work)
{
    if (nb <= 0 || nc <= 0 || mt + mb <= 0)
        return 0;
    ocl_prog *pr = NULL;
    size_t w = 0;
    if (qru_wyl_kernel_fits(mt + mb, nb)) {
        int st = ocl_get_prog(ctx, dt, &pr);
        if (st)
            return st;
        w = ocl_wg_for(IMPL(ctx), pr, K_WY_LEFT, 2 * QRU_WYL_NB);
    }
    if (w < 2 * QRU_WYL_NB) /* the kernel needs 128 items; one backend
                             * call either way */
        return qru_wy_left_gemms(ctx, &ctx->table, dt, ytop, mt, mb, nb, nc,
                                 Y, ldy, W, ldw, A, lda, B, ldb, work);
    if (mb == 0) /* B is not referenced */
        B = A;
    if (ytop == 'I' && mb == 0) /* Y is not referenced */
        Y = W;
    cl_int cid = ytop == 'I', cmt = mt, cmb = mb, cnb = nb, cnc = nc,
           cldy = ldy, cldw = ldw, clda = lda, cldb = ldb;
    cl_long yo = (cl_long)Y.off, wo = (cl_long)W.off, ao = (cl_long)A.off,
            bo = (cl_long)B.off;
    size_t l[1] = {w}, g[1] = {w * (size_t)((nc + QRU_WYL_CB - 1) / QRU_WYL_CB)};
    karg a[] = {KINT(cid),  KINT(cmt),  KINT(cmb),  KINT(cnb), KINT(cnc),
                KMEM(Y),    KLONG(yo),  KINT(cldy), KMEM(W),   KLONG(wo),
                KINT(cldw), KMEM(A),    KLONG(ao),  KINT(clda), KMEM(B),
                KLONG(bo),  KINT(cldb)};
    return ocl_launch(ctx, pr, K_WY_LEFT, 1, g, l, NARGS(a), a);
}

int ocl_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra,
                               int *out)
{
    ocl_prog *p;
    *out = 0;
    if (extra < 0)
        return 0;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    size_t cap = ocl_panel_lds_bytes(ctx, dt, p), es = qru_dtype_size(dt);
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
int ocl_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb,
                        qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W,
                        int ldw, qru_ptr tau, qru_ptr work)
{
    if (m <= 0 || nb <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cnb = nb, clda = lda, cldy = ldy, cldw = ldw, chunk = m;
    cl_long ao = (cl_long)A.off, yo = (cl_long)Y.off, wo = (cl_long)W.off,
            to = (cl_long)tau.off, ko = (cl_long)work.off;
    size_t lds = ((size_t)m * nb + (size_t)nb * nb + 2 * (size_t)nb) *
                 qru_dtype_size(dt);
    if (lds <= ocl_panel_lds_bytes(ctx, dt, p)) {
        size_t w = ocl_wg_for(im, p, K_PANEL_QR_LDS, (size_t)im->tune.wg);
        size_t l[1] = {w}, g[1] = {w};
        karg a[] = {KINT(cm),   KINT(cnb), KMEM(A),   KLONG(ao), KINT(clda),
                    KMEM(Y),    KLONG(yo), KINT(cldy), KMEM(W),  KLONG(wo),
                    KINT(cldw), KMEM(tau), KLONG(to), {lds, NULL}};
        return ocl_launch(ctx, p, K_PANEL_QR_LDS, 1, g, l, NARGS(a), a);
    }
    size_t w = ocl_wg_for(im, p, K_PANEL_QR, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w};
    karg a[] = {KINT(cm),   KINT(cnb), KMEM(A),   KLONG(ao), KINT(clda),
                KMEM(Y),    KLONG(yo), KINT(cldy), KMEM(W),  KLONG(wo),
                KINT(cldw), KMEM(tau), KLONG(to), KMEM(work), KLONG(ko),
                KINT(chunk)};
    return ocl_launch(ctx, p, K_PANEL_QR, 1, g, l, NARGS(a), a);
}

/* Every REQ and OPT op of the list (qru_ops.h) is ocl_<name>; no vendor
 * LAPACK (the CAP ops are NULL). */
