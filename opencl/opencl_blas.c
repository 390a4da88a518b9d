/*
 * OpenCL BLAS: GEMM and TRSM through CLBlast (C and Z for the complex
 * types, 'C' the conjugate transpose), the column norms and the count of
 * non-finite elements.
 */
#include "ocl_internal.h"

/* ---- BLAS (CLBlast) ---------------------------------------------------- */

CLBlastTranspose ocl_btr(char t)
{
    return (t == 'T' || t == 't' || t == 'C' || t == 'c') ? CLBlastTransposeYes
                                                          : CLBlastTransposeNo;
}

CLBlastTranspose ocl_btr_dt(qru_dtype dt, char t)
{
    if (qru_dtype_complex(dt) && (t == 'C' || t == 'c'))
        return CLBlastTransposeConjugate;
    return ocl_btr(t);
}

int ocl_gemm(qru_context *ctx, qru_dtype dt, char ta, char tb, int m,
                    int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B,
                    int ldb, double beta, qru_ptr C, int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0 || alpha == 0.0) { /* C = beta C */
        if (beta == 1.0)
            return 0;
        ocl_prog *p;
        int st = ocl_get_prog(ctx, dt, &p);
        if (st)
            return st;
        cl_int cm = m, cn = n, cl = ldc;
        cl_long co = (cl_long)C.off;
        tval tb_;
        karg a[] = {KINT(cm), KINT(cn), ocl_targ(dt, beta, &tb_),
                    KMEM(C),  KLONG(co), KINT(cl)};
        return ocl_launch2d(ctx, p, K_SCAL2D, m, n, NARGS(a), a);
    }
    if (qru_dtype_real(dt) == QRU_DOUBLE && !IMPL(ctx)->fp64)
        return QRU_ERR_UNSUPPORTED;
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastStatusCode s;
    if (dt == QRU_COMPLEX_DOUBLE) {
        cl_double2 al = {{alpha, 0.0}}, be = {{beta, 0.0}};
        s = CLBlastZgemm(CLBlastLayoutColMajor, ocl_btr_dt(dt, ta),
                         ocl_btr_dt(dt, tb), (size_t)m, (size_t)n, (size_t)k,
                         al, (cl_mem)A.h, A.off, (size_t)lda, (cl_mem)B.h,
                         B.off, (size_t)ldb, be, (cl_mem)C.h, C.off,
                         (size_t)ldc, &q, NULL);
    } else if (dt == QRU_COMPLEX_FLOAT) {
        cl_float2 al = {{(float)alpha, 0.0f}}, be = {{(float)beta, 0.0f}};
        s = CLBlastCgemm(CLBlastLayoutColMajor, ocl_btr_dt(dt, ta),
                         ocl_btr_dt(dt, tb), (size_t)m, (size_t)n, (size_t)k,
                         al, (cl_mem)A.h, A.off, (size_t)lda, (cl_mem)B.h,
                         B.off, (size_t)ldb, be, (cl_mem)C.h, C.off,
                         (size_t)ldc, &q, NULL);
    } else if (dt == QRU_DOUBLE)
        s = CLBlastDgemm(CLBlastLayoutColMajor, ocl_btr(ta), ocl_btr(tb), (size_t)m,
                         (size_t)n, (size_t)k, alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, beta,
                         (cl_mem)C.h, C.off, (size_t)ldc, &q, NULL);
    else
        s = CLBlastSgemm(CLBlastLayoutColMajor, ocl_btr(ta), ocl_btr(tb), (size_t)m,
                         (size_t)n, (size_t)k, (float)alpha, (cl_mem)A.h,
                         A.off, (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb,
                         (float)beta, (cl_mem)C.h, C.off, (size_t)ldc, &q,
                         NULL);
    return ocl_blast_status(ctx, s);
}

/* The strided batch: CLBlast's <t>GemmStridedBatched, one call (C = beta
 * C where k = 0 or alpha = 0: geadd_batched's kernel). */
int ocl_gemm_batched(qru_context *ctx, qru_dtype dt, char ta, char tb, int m,
                     int n, int k, double alpha, qru_ptr A, int lda,
                     size_t sA, qru_ptr B, int ldb, size_t sB, double beta,
                     qru_ptr C, int ldc, size_t sC, int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    if (k <= 0 || alpha == 0.0) /* C = beta C, exactly 0 for beta == 0 */
        return ocl_geadd_batched(ctx, dt, m, n, 0.0, C, ldc, sC, beta, C, ldc,
                                 sC, count);
    if (qru_dtype_real(dt) == QRU_DOUBLE && !IMPL(ctx)->fp64)
        return QRU_ERR_UNSUPPORTED;
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastStatusCode s;
    CLBlastTranspose xa = ocl_btr_dt(dt, ta), xb = ocl_btr_dt(dt, tb);
    size_t um = (size_t)m, un = (size_t)n, uk = (size_t)k, cnt = (size_t)count;
    if (dt == QRU_COMPLEX_DOUBLE) {
        cl_double2 al = {{alpha, 0.0}}, be = {{beta, 0.0}};
        s = CLBlastZgemmStridedBatched(
            CLBlastLayoutColMajor, xa, xb, um, un, uk, al, (cl_mem)A.h, A.off,
            (size_t)lda, sA, (cl_mem)B.h, B.off, (size_t)ldb, sB, be,
            (cl_mem)C.h, C.off, (size_t)ldc, sC, cnt, &q, NULL);
    } else if (dt == QRU_COMPLEX_FLOAT) {
        cl_float2 al = {{(float)alpha, 0.0f}}, be = {{(float)beta, 0.0f}};
        s = CLBlastCgemmStridedBatched(
            CLBlastLayoutColMajor, xa, xb, um, un, uk, al, (cl_mem)A.h, A.off,
            (size_t)lda, sA, (cl_mem)B.h, B.off, (size_t)ldb, sB, be,
            (cl_mem)C.h, C.off, (size_t)ldc, sC, cnt, &q, NULL);
    } else if (dt == QRU_DOUBLE)
        s = CLBlastDgemmStridedBatched(
            CLBlastLayoutColMajor, xa, xb, um, un, uk, alpha, (cl_mem)A.h,
            A.off, (size_t)lda, sA, (cl_mem)B.h, B.off, (size_t)ldb, sB, beta,
            (cl_mem)C.h, C.off, (size_t)ldc, sC, cnt, &q, NULL);
    else
        s = CLBlastSgemmStridedBatched(
            CLBlastLayoutColMajor, xa, xb, um, un, uk, (float)alpha,
            (cl_mem)A.h, A.off, (size_t)lda, sA, (cl_mem)B.h, B.off,
            (size_t)ldb, sB, (float)beta, (cl_mem)C.h, C.off, (size_t)ldc, sC,
            cnt, &q, NULL);
    return ocl_blast_status(ctx, s);
}

int ocl_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo,
                    char ta, char diag, int m, int n, double alpha, qru_ptr A,
                    int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (qru_dtype_real(dt) == QRU_DOUBLE && !IMPL(ctx)->fp64)
        return QRU_ERR_UNSUPPORTED;
    cl_command_queue q = IMPL(ctx)->q;
    CLBlastSide s_ = (side == 'L' || side == 'l') ? CLBlastSideLeft
                                                  : CLBlastSideRight;
    CLBlastTriangle u = (uplo == 'U' || uplo == 'u') ? CLBlastTriangleUpper
                                                     : CLBlastTriangleLower;
    CLBlastDiagonal d = (diag == 'U' || diag == 'u') ? CLBlastDiagonalUnit
                                                     : CLBlastDiagonalNonUnit;
    CLBlastStatusCode s;
    if (dt == QRU_COMPLEX_DOUBLE) {
        cl_double2 al = {{alpha, 0.0}};
        s = CLBlastZtrsm(CLBlastLayoutColMajor, s_, u, ocl_btr_dt(dt, ta), d,
                         (size_t)m, (size_t)n, al, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, &q,
                         NULL);
    } else if (dt == QRU_COMPLEX_FLOAT) {
        cl_float2 al = {{(float)alpha, 0.0f}};
        s = CLBlastCtrsm(CLBlastLayoutColMajor, s_, u, ocl_btr_dt(dt, ta), d,
                         (size_t)m, (size_t)n, al, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, &q,
                         NULL);
    } else if (dt == QRU_DOUBLE)
        s = CLBlastDtrsm(CLBlastLayoutColMajor, s_, u, ocl_btr(ta), d, (size_t)m,
                         (size_t)n, alpha, (cl_mem)A.h, A.off, (size_t)lda,
                         (cl_mem)B.h, B.off, (size_t)ldb, &q, NULL);
    else
        s = CLBlastStrsm(CLBlastLayoutColMajor, s_, u, ocl_btr(ta), d, (size_t)m,
                         (size_t)n, (float)alpha, (cl_mem)A.h, A.off,
                         (size_t)lda, (cl_mem)B.h, B.off, (size_t)ldb, &q,
                         NULL);
    return ocl_blast_status(ctx, s);
}

/* Queues the column norms of the m x n A (m >= 1) into out. */
static int col_norms_launch(qru_context *ctx, ocl_prog *p, int m, int n,
                            qru_ptr A, int lda, qru_ptr o)
{
    ocl_impl *im = IMPL(ctx);
    cl_int cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off, oo = (cl_long)o.off;
    size_t w = ocl_wg_for(im, p, K_COL_NORMS, (size_t)im->tune.wg);
    size_t l[1] = {w}, g[1] = {w * min_sz((size_t)n, GRID_CAP)};
    karg a[] = {KINT(cm),   KINT(cn), KMEM(A),  KLONG(ao),
                KINT(clda), KMEM(o),  KLONG(oo)};
    return ocl_launch(ctx, p, K_COL_NORMS, 1, g, l, NARGS(a), a);
}

int ocl_col_norms_dev(qru_context *ctx, qru_dtype dt, int m, int n,
                      qru_ptr A, int lda, qru_ptr out)
{
    if (n <= 0)
        return 0;
    if (m <= 0)
        return ocl_laset(ctx, dt, 'A', 1, n, 0.0, 0.0, out, 1);
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    return st ? st : col_norms_launch(ctx, p, m, n, A, lda, out);
}

int ocl_col_norms(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, double *norms)
{
    if (n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    if (m <= 0) {
        for (int j = 0; j < n; ++j)
            norms[j] = 0.0;
        return 0;
    }
    ocl_impl *im = IMPL(ctx);
    size_t es = qru_dtype_size(dt);
    cl_mem out;
    if ((st = ocl_scratch(ctx, es * (size_t)n, &out)) != 0)
        return st;
    qru_ptr o = {out, 0};
    if ((st = col_norms_launch(ctx, p, m, n, A, lda, o)) != 0)
        return st;
    if (qru_dtype_complex(dt)) { /* the real parts of complex elements */
        size_t rs = es / 2;
        char *buf = malloc(es * (size_t)n);
        if (!buf)
            return QRU_ERR_ALLOC;
        st = ocl_cl_status(clEnqueueReadBuffer(im->q, out, CL_TRUE, 0,
                                               es * (size_t)n, buf, 0, NULL,
                                               NULL));
        for (int j = 0; j < n && !st; ++j) {
            if (rs == sizeof(double)) {
                memcpy(&norms[j], buf + es * (size_t)j, sizeof(double));
            } else {
                float tmp;
                memcpy(&tmp, buf + es * (size_t)j, sizeof tmp);
                norms[j] = tmp;
            }
        }
        free(buf);
        return st;
    }
    /* read into the tail of norms, then widen front to back (element j
     * lands on bytes that only hold already-widened elements) */
    void *host = (char *)norms + (sizeof(double) - es) * (size_t)n;
    st = ocl_cl_status(clEnqueueReadBuffer(im->q, out, CL_TRUE, 0, es * (size_t)n,
                                       host, 0, NULL, NULL));
    if (st)
        return st;
    if (dt == QRU_FLOAT) {
        float tmp;
        for (int j = 0; j < n; ++j) {
            memcpy(&tmp, (char *)host + sizeof(float) * (size_t)j, sizeof tmp);
            norms[j] = tmp;
        }
    }
    return 0;
}

/* Groups of the count_nonfinite kernel along x and y (at most 16 x 256
 * partial counts, read back and added on the host). */
#define NONFIN_GX 16
#define NONFIN_GY 256

/* count_nonfinite (nz 0) and count_nonzero (nz 1): the groups' partial
 * counts read back and added on the host. */
static int ocl_count_elems(qru_context *ctx, qru_dtype dt, int nz, char uplo,
                           int m, int n, qru_ptr A, int lda, int *count)
{
    *count = 0;
    if (m <= 0 || n <= 0)
        return 0;
    ocl_prog *p;
    int st = ocl_get_prog(ctx, dt, &p);
    if (st)
        return st;
    ocl_impl *im = IMPL(ctx);
    size_t w = ocl_wg_for(im, p, K_COUNT_NONFINITE, (size_t)im->tune.wg);
    size_t gx = min_sz(ceil_div((size_t)m, w), NONFIN_GX);
    size_t gy = min_sz((size_t)n, NONFIN_GY);
    int part[NONFIN_GX * NONFIN_GY];
    cl_mem out;
    if ((st = ocl_scratch(ctx, sizeof(cl_int) * gx * gy, &out)) != 0)
        return st;
    cl_int cz = nz, cu = ocl_uplo_code(uplo), cm = m, cn = n, clda = lda;
    cl_long ao = (cl_long)A.off;
    qru_ptr o = {out, 0};
    size_t l[2] = {w, 1}, g[2] = {w * gx, gy};
    karg a[] = {KINT(cz), KINT(cu),  KINT(cm),   KINT(cn),
                KMEM(A),  KLONG(ao), KINT(clda), KMEM(o)};
    if ((st = ocl_launch(ctx, p, K_COUNT_NONFINITE, 2, g, l, NARGS(a), a)) != 0)
        return st;
    st = ocl_cl_status(clEnqueueReadBuffer(im->q, out, CL_TRUE, 0,
                                       sizeof(cl_int) * gx * gy, part, 0,
                                       NULL, NULL));
    if (st)
        return st;
    long long c = 0;
    for (size_t i = 0; i < gx * gy; ++i)
        c += part[i];
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

int ocl_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo, int m,
                        int n, qru_ptr A, int lda, int *count)
{
    return ocl_count_elems(ctx, dt, 0, uplo, m, n, A, lda, count);
}

int ocl_count_nonzero(qru_context *ctx, qru_dtype dt, int n, qru_ptr x,
                      int *count)
{
    return ocl_count_elems(ctx, dt, 1, 'A', n, 1, x, n, count);
}
