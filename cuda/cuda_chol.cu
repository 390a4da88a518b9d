/*
 * CUDA versions of the Cholesky ops (contracts in src/qru_internal.h; the
 * CPU versions in src/cpu/cpu_chol_kernels.inc are the reference): syrk by
 * cuBLAS, lacpy, and the one-work-group kernels potrf_panel and chol_rot of
 * kernels/qru_chol.cl, which keep their failure flag 'info' on the device.
 */
#include "qru_cuda.h"

#include "qru_kdefs.h"
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

int qru_cu_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans, int n,
                int k, double alpha, qru_ptr A, int lda, double beta,
                qru_ptr C, int ldc)
{
    if (n <= 0 || ((k <= 0 || alpha == 0.0) && beta == 1.0))
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    int u = uplo_code(uplo) == 1 ? 1 : 2;
    if (k <= 0 || alpha == 0.0) /* C = beta C on the triangle */
        return dt == QRU_DOUBLE ? scal_tri_t<double>(ctx, u, n, beta, C, ldc)
                                : scal_tri_t<float>(ctx, u, n, beta, C, ldc);
    cublasHandle_t h = qru_cuda(ctx)->blas;
    st = qru_cublas_status(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    if (st)
        return st;
    cublasFillMode_t fm =
        u == 1 ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    cublasOperation_t op =
        (trans == 'T' || trans == 't' || trans == 'C' || trans == 'c')
            ? CUBLAS_OP_T
            : CUBLAS_OP_N;
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
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    int u = uplo_code(uplo);
    return dt == QRU_DOUBLE ? lacpy_t<double>(ctx, u, m, n, A, lda, B, ldb)
                            : lacpy_t<float>(ctx, u, m, n, A, lda, B, ldb);
}

template <typename T>
static int potrf_panel_t(qru_context *ctx, int upper, int n, qru_ptr A,
                         int lda, qru_ptr info, int base)
{
    qru_potrf_panel<T><<<1, 256, 0, qru_cuda(ctx)->stream>>>(
        upper, n, (T *)A.h, (long)A.off, lda, (T *)info.h, (long)info.off,
        base);
    return qru_cuda_launched();
}

int qru_cu_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       qru_ptr A, int lda, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    int upper = uplo_code(uplo) == 1;
    return dt == QRU_DOUBLE
               ? potrf_panel_t<double>(ctx, upper, n, A, lda, info, base)
               : potrf_panel_t<float>(ctx, upper, n, A, lda, info, base);
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
    int st = qru_cuda_enter(ctx);
    if (st)
        return st;
    return dt == QRU_DOUBLE
               ? chol_rot_t<double>(ctx, n, k, sign, L, ldl, W, ldw, info,
                                    base)
               : chol_rot_t<float>(ctx, n, k, sign, L, ldl, W, ldw, info,
                                   base);
}
