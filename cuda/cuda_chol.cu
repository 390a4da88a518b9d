/*
 * CUDA versions of the Cholesky ops (contracts in src/qru_internal.h; the
 * CPU versions in src/cpu/cpu_chol_kernels.inc are the reference): syrk by
 * cuBLAS (n = 1: qru_syrk1), lacpy, potrf_panel (cuSOLVER on a copy of the block, or the
 * one-work-group kernel of kernels/qru_chol.cl for small blocks), chol_rot
 * (kernels/qru_chol.cl), which keep their failure flag 'info' on the
 * device, and the vendor Cholesky potrf_full (cuSOLVER potrf).  syrk,
 * lacpy, potrf_panel, potrf_full and chol_rot also for the complex types
 * (herk, the Hermitian factor, zlartg's rotations with a real pivot; the
 * table refuses complex data for the others).
 */
#include <stdlib.h>
#include <string.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_batch.cl" /* qru_rot_r, the rotations of qru_chol_rot */
#include "qru_chol.cl"

static int uplo_code(char uplo)
{
    return (uplo == 'U' || uplo == 'u') ? 1 : (uplo == 'L' || uplo == 'l') ? 2 : 0;
}

template <typename T>
static int scal_tri_t(qru_context *ctx, int uplo, int n, double beta,
                      qru_ptr C, int ldc)
{
    qru_scal_tri<T><<<qru_grid2d(n, n), qru_block2d(), 0,
                      qru_cuda(ctx)->stream>>>(uplo, n, n, (T)beta, (T *)C.h,
                                               (long)C.off, ldc);
    return qru_cuda_launched();
}

/* n = 1: a 1 x 1 GEMM in cuBLAS takes 70-80 us at k = 4096 on an H100,
 * syrk's kernel more: the dot in one block instead. */
template <typename T>
static int syrk1_t(qru_context *ctx, int k, double alpha, qru_ptr A, long inc,
                   double beta, qru_ptr C)
{
    qru_syrk1<T><<<1, QRU_RED, 0, qru_cuda(ctx)->stream>>>(
        k, (T)alpha, (const T *)A.h, (long)A.off, inc, (T)beta, (T *)C.h,
        (long)C.off);
    return qru_cuda_launched();
}

int qru_cu_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans, int n,
                int k, double alpha, qru_ptr A, int lda, double beta,
                qru_ptr C, int ldc)
{
    if (n <= 0 || ((k <= 0 || alpha == 0.0) && beta == 1.0))
        return 0;
    int u = uplo_code(uplo) == 1 ? 1 : 2;
    if (k <= 0 || alpha == 0.0) /* C = beta C on the triangle */
        return QRU_CU_BY_TYPE(dt, scal_tri_t, ctx, u, n, beta, C, ldc);
    int tr = trans == 'T' || trans == 't' || trans == 'C' || trans == 'c';
    if (n == 1 && !qru_dtype_complex(dt))
        /* C(0,0) = alpha a'a + beta C(0,0): one block's dot */
        return dt == QRU_DOUBLE
                   ? syrk1_t<double>(ctx, k, alpha, A, tr ? 1 : lda, beta, C)
                   : syrk1_t<float>(ctx, k, alpha, A, tr ? 1 : lda, beta, C);
    cublasHandle_t h = qru_cuda(ctx)->blas;
    int st =
        qru_cublas_status(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    if (st)
        return st;
    cublasFillMode_t fm =
        u == 1 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    cublasOperation_t op = tr ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (dt == QRU_COMPLEX_DOUBLE) /* herk: C's diagonal real */
        return qru_cublas_status(cublasZherk(
            h, fm, tr ? CUBLAS_OP_C : CUBLAS_OP_N, n, k, &alpha,
            qru_dp<cuDoubleComplex>(A), lda, &beta,
            qru_dp<cuDoubleComplex>(C), ldc));
    if (dt == QRU_COMPLEX_FLOAT) {
        float a = (float)alpha, b = (float)beta;
        return qru_cublas_status(cublasCherk(
            h, fm, tr ? CUBLAS_OP_C : CUBLAS_OP_N, n, k, &a,
            qru_dp<cuComplex>(A), lda, &b, qru_dp<cuComplex>(C), ldc));
    }
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDsyrk(h, fm, op, n, k, &alpha,
                                             qru_dp<double>(A), lda, &beta,
                                             qru_dp<double>(C), ldc));
    float a = (float)alpha, b = (float)beta;
    return qru_cublas_status(cublasSsyrk(h, fm, op, n, k, &a,
                                         qru_dp<float>(A), lda, &b,
                                         qru_dp<float>(C), ldc));
}

template <typename T>
static int lacpy_t(qru_context *ctx, int uplo, int m, int n, qru_ptr A,
                   int lda, qru_ptr B, int ldb)
{
    qru_lacpy<T><<<qru_grid2d(m, n), qru_block2d(), 0,
                   qru_cuda(ctx)->stream>>>(uplo, m, n, (const T *)A.h,
                                            (long)A.off, lda, (T *)B.h,
                                            (long)B.off, ldb);
    return qru_cuda_launched();
}

int qru_cu_lacpy(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                 qru_ptr A, int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    int u = uplo_code(uplo);
    return QRU_CU_BY_TYPE(dt, lacpy_t, ctx, u, m, n, A, lda, B, ldb);
}

/* ---- cuSOLVER potrf: overloads on the element type ---------------------- */

static cusolverStatus_t sv_potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u,
                                    int n, double *A, int lda, int *lw)
{
    return cusolverDnDpotrf_bufferSize(h, u, n, A, lda, lw);
}
static cusolverStatus_t sv_potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u,
                                    int n, float *A, int lda, int *lw)
{
    return cusolverDnSpotrf_bufferSize(h, u, n, A, lda, lw);
}
static cusolverStatus_t sv_potrf(cusolverDnHandle_t h, cublasFillMode_t u,
                                 int n, double *A, int lda, double *w, int lw,
                                 int *info)
{
    return cusolverDnDpotrf(h, u, n, A, lda, w, lw, info);
}
static cusolverStatus_t sv_potrf(cusolverDnHandle_t h, cublasFillMode_t u,
                                 int n, float *A, int lda, float *w, int lw,
                                 int *info)
{
    return cusolverDnSpotrf(h, u, n, A, lda, w, lw, info);
}
/* the complex types: cuSOLVER's Hermitian C and Z potrf */
static cusolverStatus_t sv_potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u,
                                    int n, qru_cplx<double> *A, int lda,
                                    int *lw)
{
    return cusolverDnZpotrf_bufferSize(h, u, n, (cuDoubleComplex *)A, lda,
                                       lw);
}
static cusolverStatus_t sv_potrf_bs(cusolverDnHandle_t h, cublasFillMode_t u,
                                    int n, qru_cplx<float> *A, int lda,
                                    int *lw)
{
    return cusolverDnCpotrf_bufferSize(h, u, n, (cuComplex *)A, lda, lw);
}
static cusolverStatus_t sv_potrf(cusolverDnHandle_t h, cublasFillMode_t u,
                                 int n, qru_cplx<double> *A, int lda,
                                 qru_cplx<double> *w, int lw, int *info)
{
    return cusolverDnZpotrf(h, u, n, (cuDoubleComplex *)A, lda,
                            (cuDoubleComplex *)w, lw, info);
}
static cusolverStatus_t sv_potrf(cusolverDnHandle_t h, cublasFillMode_t u,
                                 int n, qru_cplx<float> *A, int lda,
                                 qru_cplx<float> *w, int lw, int *info)
{
    return cusolverDnCpotrf(h, u, n, (cuComplex *)A, lda, (cuComplex *)w, lw,
                            info);
}

/* After cuSOLVER's potrf of the n x n A: dinfo[0] is its devInfo.
 * cuSOLVER (like LAPACK) reports a pivot <= 0; a NaN or Inf pivot may
 * pass, so on success the first diagonal element of the factor that is
 * not > 0 or not finite names the failing column, as the potrf_panel
 * contract wants.  Writes
 * the column (1-based, 0: none) to dinfo[1].  When info (one T, the
 * potrf_panel flag and potrf_full's info) is given: dinfo[2] = 1 if info
 * was 0 on entry (the block is to be written back), else 0, and a failure
 * sets info = base + column.  ONE block of any 1-D size. */
template <typename T>
__global__ void qru_potrf_check(int n, const T *A, int lda, int *dinfo,
                                T *info, int base)
{
    __shared__ int first;
    if (threadIdx.x == 0)
        first = 0x7fffffff;
    __syncthreads();
    int dv = dinfo[0];
    if (dv == 0)
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            QRU_R d = QRU_RE(A[(long)j * lda + j]);
            if (!(d > (QRU_R)0) || !(d - d == (QRU_R)0)) /* 0 iff finite */
                atomicMin(&first, j + 1);
        }
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    int bad = dv != 0 ? dv : (first == 0x7fffffff ? 0 : first);
    dinfo[1] = bad;
    if (info) {
        int go = QRU_ISZERO(*info);
        dinfo[2] = go;
        if (go && bad != 0)
            *info = QRU_MKR(base + bad);
    }
}

/* With dinfo as written by qru_potrf_check: when dinfo[2] != 0, B = A on
 * the uplo part (as qru_lacpy), except that after a failure at column
 * c = dinfo[1] (1-based) columns c-1.. of the lower factor (rows for
 * uplo 1) are set to those of the identity: the failure state of
 * potrf_panel. */
template <typename T>
__global__ void qru_lacpy_if(const int *dinfo, int uplo, int n, const T *A,
                             int lda, T *B, int ldb)
{
    if (dinfo[2] == 0)
        return;
    int bad = dinfo[1];
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < n;
         j += blockDim.y * gridDim.y)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
             i += blockDim.x * gridDim.x) {
            if ((uplo == 1 && i > j) || (uplo == 2 && i < j))
                continue;
            int lc = uplo == 1 ? i : j; /* column of the lower factor */
            B[(long)i + (long)j * ldb] =
                bad != 0 && lc >= bad - 1 ? (i == j ? QRU_MKR(1) : (T)0)
                                          : A[(long)i + (long)j * lda];
        }
}

/* devInfo ints at the start of the workspace (in units of T: 4 slots hold
 * at least 3 ints for float and double); cuSOLVER's work array starts at
 * a multiple of WORK_ALIGN elements. */
#define INFO_SLOTS 4
#define WORK_ALIGN 64

/* cuSOLVER's potrf workspace (elements) for order n; the last size asked
 * for is kept per element type, so that the query (the workspace size)
 * and the run of one qru_chol_factor call ask cuSOLVER once.  bufferSize
 * gets a real (tiny) array: the size depends on n, not on the data. */
template <typename T>
static int potrf_lwork_t(qru_context *ctx, int upper, int n, int *lw)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    auto &c = im->potrf_lw[qru_cu_dtype<T>() - 1];
    if (c.n == n && c.upper == upper) {
        *lw = c.lwork;
        return 0;
    }
    void *p = NULL;
    int st = qru_cuda_scratch(ctx, 256, &p);
    if (st)
        return st;
    st = qru_cusolver_status(sv_potrf_bs(
        im->solver, upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
        n, (T *)p, n, lw));
    qru_cuda_scratch_free(ctx, p);
    if (st)
        return st;
    if (*lw < 1)
        *lw = 1;
    c.n = n;
    c.upper = upper;
    c.lwork = *lw;
    return 0;
}

template <typename T>
static int potrf_full_t(qru_context *ctx, int upper, int n, qru_ptr A,
                        int lda, qru_ptr info, qru_ptr ws, size_t *ws_elems)
{
    int lw = 0;
    int st = potrf_lwork_t<T>(ctx, upper, n, &lw);
    if (st)
        return st;
    if (!ws.h) { /* query */
        *ws_elems = (size_t)INFO_SLOTS + WORK_ALIGN + (size_t)lw;
        return 0;
    }
    qru_cuda_impl *im = qru_cuda(ctx);
    T *a = qru_dp<T>(A);
    int *dinfo = (int *)qru_dp<T>(ws);
    size_t wo = ws.off + INFO_SLOTS;
    wo = (wo + WORK_ALIGN - 1) / WORK_ALIGN * WORK_ALIGN;
    T *w = (T *)ws.h + wo;
    st = qru_cusolver_status(sv_potrf(
        im->solver, upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER, n,
        a, lda, w, lw, dinfo));
    if (st)
        return st;
    /* no wait: info (0 on entry) gets the failing column, or cuSOLVER's
     * negative devInfo for a rejected argument */
    qru_potrf_check<T><<<1, n >= 1024 ? 1024 : 256, 0, im->stream>>>(
        n, a, lda, dinfo, qru_dp<T>(info), 0);
    return qru_cuda_launched();
}

int qru_cu_potrf_full(qru_context *ctx, qru_dtype dt, char uplo, int n,
                      qru_ptr A, int lda, qru_ptr info, qru_ptr ws,
                      size_t *ws_elems)
{
    if (n <= 0) {
        if (!ws.h)
            *ws_elems = 0;
        return 0;
    }
    int upper = uplo_code(uplo) == 1;
    return QRU_CU_BY_TYPE(dt, potrf_full_t, ctx, upper, n, A, lda, info, ws,
                          ws_elems);
}

/* ---- potrf_panel: the one-work-group kernel or cuSOLVER ------------------ */

template <typename T>
static int potrf_panel_t(qru_context *ctx, int upper, int n, qru_ptr A,
                         int lda, qru_ptr info, int base)
{
    qru_potrf_panel<T><<<1, 256, 0, qru_cuda(ctx)->stream>>>(
        upper, n, (T *)A.h, (long)A.off, lda, (T *)info.h, (long)info.off,
        base);
    return qru_cuda_launched();
}

/* cuSOLVER's potrf on a copy S of the block in stream-ordered scratch;
 * qru_potrf_check turns its devInfo into the op's info, and the block is
 * written back only if info was 0 on entry (the op's "nothing is done
 * after an earlier failure"); on a failure S holds the factor of the
 * columns before the failing one, which are written back, and the rest
 * becomes the identity, as the contract asks. */
template <typename T>
static int potrf_panel_vendor_t(qru_context *ctx, int upper, int n,
                                qru_ptr A, int lda, qru_ptr info, int base)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    size_t sz = ((size_t)n * n + WORK_ALIGN - 1) / WORK_ALIGN * WORK_ALIGN;
    void *p = NULL;
    int lw = 0;
    int st = potrf_lwork_t<T>(ctx, upper, n, &lw);
    if (st)
        return st;
    st = qru_cuda_scratch(ctx, (sz + WORK_ALIGN + (size_t)lw) * sizeof(T),
                          &p);
    if (st)
        return st;
    T *S = (T *)p, *w = S + sz + WORK_ALIGN;
    int *dinfo = (int *)(S + sz);
    int u = upper ? 1 : 2;
    qru_lacpy<T><<<qru_grid2d(n, n), qru_block2d(), 0, im->stream>>>(
        u, n, n, (const T *)A.h, (long)A.off, lda, S, 0L, n);
    st = qru_cuda_launched();
    if (!st)
        st = qru_cusolver_status(sv_potrf(
            im->solver, upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER,
            n, S, n, w, lw, dinfo));
    if (!st) {
        qru_potrf_check<T><<<1, 128, 0, im->stream>>>(
            n, S, n, dinfo, qru_dp<T>(info), base);
        qru_lacpy_if<T><<<qru_grid2d(n, n), qru_block2d(), 0, im->stream>>>(
            dinfo, u, n, S, n, qru_dp<T>(A), lda);
        st = qru_cuda_launched();
    }
    qru_cuda_scratch_free(ctx, p);
    return st;
}

/* Which implementation potrf_panel runs: with the tuning's chol_panel
 * AUTO, cuSOLVER from the block order chol_panel_min_n on (0: never), the
 * one-work-group kernel below it (a 1 x 1 block of a GP append is one
 * launch that way); KERNEL or VENDOR forces one for every n.  cuSOLVER
 * measured faster for the 128 x 128 blocks (docs/performance.md). */
static int panel_use_vendor(const qru_context *ctx, qru_dtype dt, int n)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    if (t->chol_panel == QRU_CHOL_PANEL_AUTO)
        return t->chol_panel_min_n > 0 && n >= t->chol_panel_min_n;
    return t->chol_panel == QRU_CHOL_PANEL_VENDOR;
}

int qru_cu_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       qru_ptr A, int lda, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    int upper = uplo_code(uplo) == 1;
    if (panel_use_vendor(ctx, dt, n))
        return QRU_CU_BY_TYPE(dt, potrf_panel_vendor_t, ctx, upper, n, A, lda,
                              info, base);
    return QRU_CU_BY_TYPE(dt, potrf_panel_t, ctx, upper, n, A, lda, info,
                          base);
}

template <typename T>
static int chol_rot_t(qru_context *ctx, int n, int k, int sign, qru_ptr L,
                      int ldl, qru_ptr W, int ldw, qru_ptr info, int base)
{
    /* one work-group walks the n k rotations in order; its items share
     * the rows below the pivot */
    int threads = n > 512 ? 1024 : n > 128 ? 256 : 64;
    qru_chol_rot<T><<<1, threads, 0, qru_cuda(ctx)->stream>>>(
        n, k, sign, (T *)L.h, (long)L.off, ldl, (T *)W.h, (long)W.off, ldw,
        (T *)info.h, (long)info.off, base);
    return qru_cuda_launched();
}

int qru_cu_chol_rot(qru_context *ctx, qru_dtype dt, int n, int k, int sign,
                    qru_ptr L, int ldl, qru_ptr W, int ldw, qru_ptr info,
                    int base)
{
    if (n <= 0 || k <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, chol_rot_t, ctx, n, k, sign, L, ldl, W, ldw,
                          info, base);
}

/* ---- the structured rank-k update (kernels/qru_chol.cl) ---- */

template <typename T>
static int chol_r1_prep_t(qru_context *ctx, int upper, int n, int k, int sign,
                          qru_ptr L, int ldl, qru_ptr p, int ldp, int kw,
                          qru_ptr W, int ldw, qru_ptr work, qru_ptr head,
                          qru_ptr adiag, qru_ptr info, int base)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    int nt = (n + QRU_CHOL_R1_TILE - 1) / QRU_CHOL_R1_TILE;
    dim3 tiles(nt, nt), items(QRU_CHOL_R1_TILE, 8);
    if (k == 1)
        qru_chol_r1_part<T><<<tiles, items, 0, s>>>(
            upper, n, (const T *)L.h, (long)L.off, ldl, (const T *)p.h,
            (long)p.off, (T *)work.h, (long)work.off);
    else
        qru_chol_rk_part<T><<<tiles, items, 0, s>>>(
            upper, n, k, (const T *)L.h, (long)L.off, ldl, (const T *)p.h,
            (long)p.off, ldp, (T *)work.h, (long)work.off);
    QRU_TRY(qru_cuda_launched());
    qru_chol_r1_rows<T><<<nt, items, 0, s>>>(
        n, k, sign, kw, (const T *)(kw > 0 ? W.h : work.h), (long)W.off, ldw,
        (T *)work.h, (long)work.off, (T *)adiag.h, (long)adiag.off);
    QRU_TRY(qru_cuda_launched());
    if (k == 1) {
        qru_chol_r1_coef<T><<<1, QRU_RED, 0, s>>>(
            upper, n, sign, (const T *)L.h, (long)L.off, ldl,
            (const T *)p.h, (long)p.off, (T *)work.h, (long)work.off,
            (T *)head.h, (long)head.off, (T *)info.h, (long)info.off, base);
        return qru_cuda_launched();
    }
    int ncol = qru_chol_rk_cols(k);
    qru_chol_rk_coef<T><<<(n + ncol - 1) / ncol, QRU_RED, 0, s>>>(
        n, k, ncol, sign, (const T *)L.h, (long)L.off, ldl, (const T *)p.h,
        (long)p.off, ldp, (T *)work.h, (long)work.off, (T *)head.h,
        (long)head.off, (const T *)info.h, (long)info.off);
    QRU_TRY(qru_cuda_launched());
    qru_chol_rk_info<T><<<1, QRU_RED, 0, s>>>(
        n, k, (const T *)work.h, (long)work.off, (T *)info.h, (long)info.off,
        base);
    return qru_cuda_launched();
}

int qru_cu_chol_r1_prep(qru_context *ctx, qru_dtype dt, char uplo, int n,
                        int k, int sign, qru_ptr L, int ldl, qru_ptr p,
                        int ldp, int kw, qru_ptr W, int ldw, qru_ptr work,
                        qru_ptr head, qru_ptr adiag, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    int upper = uplo_code(uplo) == 1;
    return dt == QRU_DOUBLE
               ? chol_r1_prep_t<double>(ctx, upper, n, k, sign, L, ldl, p,
                                        ldp, kw, W, ldw, work, head, adiag,
                                        info, base)
               : chol_r1_prep_t<float>(ctx, upper, n, k, sign, L, ldl, p, ldp,
                                       kw, W, ldw, work, head, adiag, info,
                                       base);
}

template <typename T>
static int chol_r1_apply_t(qru_context *ctx, int upper, int n, int k,
                           qru_ptr L, int ldl, qru_ptr L1, int ld1, qru_ptr p,
                           int ldp, qru_ptr work)
{
    int nt = (n + QRU_CHOL_R1_TILE - 1) / QRU_CHOL_R1_TILE;
    dim3 tiles(nt, nt), items(QRU_CHOL_R1_TILE, 8);
    cudaStream_t s = qru_cuda(ctx)->stream;
    if (k == 1)
        qru_chol_r1_apply<T><<<tiles, items, 0, s>>>(
            upper, n, (const T *)L.h, (long)L.off, ldl, (T *)L1.h,
            (long)L1.off, ld1, (const T *)p.h, (long)p.off,
            (const T *)work.h, (long)work.off);
    else
        qru_chol_rk_apply<T><<<tiles, items, 0, s>>>(
            upper, n, k, (const T *)L.h, (long)L.off, ldl, (T *)L1.h,
            (long)L1.off, ld1, (const T *)p.h, (long)p.off, ldp,
            (const T *)work.h, (long)work.off);
    return qru_cuda_launched();
}

int qru_cu_chol_r1_apply(qru_context *ctx, qru_dtype dt, char uplo, int n,
                         int k, qru_ptr L, int ldl, qru_ptr L1, int ld1,
                         qru_ptr p, int ldp, qru_ptr work)
{
    if (n <= 0)
        return 0;
    int upper = uplo_code(uplo) == 1;
    return dt == QRU_DOUBLE
               ? chol_r1_apply_t<double>(ctx, upper, n, k, L, ldl, L1, ld1, p,
                                         ldp, work)
               : chol_r1_apply_t<float>(ctx, upper, n, k, L, ldl, L1, ld1, p,
                                        ldp, work);
}

template <typename T>
static int chol_r1_rhs_t(qru_context *ctx, int n, int r, int sign, qru_ptr p,
                         qru_ptr work, qru_ptr X, int ldx, qru_ptr Y, int ldy,
                         qru_ptr e, int ince, qru_ptr du)
{
    qru_chol_r1_rhs<T><<<r, QRU_RED, 0, qru_cuda(ctx)->stream>>>(
        n, sign, (const T *)p.h, (long)p.off, (const T *)work.h,
        (long)work.off, (const T *)X.h, (long)X.off, ldx, (T *)Y.h,
        (long)Y.off, ldy, (const T *)e.h, (long)e.off, ince, (T *)du.h,
        (long)du.off);
    return qru_cuda_launched();
}

int qru_cu_chol_r1_rhs(qru_context *ctx, qru_dtype dt, int n, int r, int sign,
                       qru_ptr p, qru_ptr work, qru_ptr X, int ldx, qru_ptr Y,
                       int ldy, qru_ptr e, int ince, qru_ptr du)
{
    if (n <= 0 || r <= 0)
        return 0;
    return dt == QRU_DOUBLE ? chol_r1_rhs_t<double>(ctx, n, r, sign, p, work,
                                                    X, ldx, Y, ldy, e, ince, du)
                            : chol_r1_rhs_t<float>(ctx, n, r, sign, p, work, X,
                                                   ldx, Y, ldy, e, ince, du);
}
