/*
 * The CUDA backend's element-wise ops (laset, transpose), BLAS (cuBLAS
 * GEMM / TRSM, column norms, the non-finite count) and the dissertation's
 * Householder kernels (kernels/qru_base.cl, compiled here as templates over
 * the element type, the complex types as qru_cplx: cuBLAS's C and Z with
 * 'C' the conjugate transpose).  Asynchronous on the context's stream except
 * col_norms, count_nonfinite and count_nonzero, which deliver values on
 * the host.
 */
#include <limits.h>
#include <stdlib.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl"

/* ---- elementwise kernels -------------------------------------------------- */


template <typename T>
static int laset_t(qru_context *ctx, int uplo, int m, int n, double off, double dg,
            qru_ptr A, int lda)
{
    qru_laset<T><<<qru_grid2d(m, n), qru_block2d(), 0, qru_cuda(ctx)->stream>>>(
        uplo, m, n, (T)off, (T)dg, (T *)A.h, (long)A.off, lda);
    return qru_cuda_launched();
}

int qru_cu_laset(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
             double off, double dg, qru_ptr A, int lda)
{
    if (m <= 0 || n <= 0)
        return 0;
    int u = (uplo == 'U' || uplo == 'u') ? 1 : (uplo == 'L' || uplo == 'l') ? 2 : 0;
    return QRU_CU_BY_TYPE(dt, laset_t, ctx, u, m, n, off, dg, A, lda);
}

template <typename T>
static int transpose_t(qru_context *ctx, int m, int n, qru_ptr A, int lda, qru_ptr B,
                int ldb)
{
    dim3 grid(qru_blocks(m, QRU_TILE, 1u << 16),
              qru_blocks(n, QRU_TILE, 1u << 15));
    qru_transpose<T><<<grid, dim3(QRU_TILE, 8), 0, qru_cuda(ctx)->stream>>>(
        m, n, (const T *)A.h, (long)A.off, lda, (T *)B.h, (long)B.off, ldb);
    return qru_cuda_launched();
}

int qru_cu_transpose(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                 int lda, qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, transpose_t, ctx, m, n, A, lda, B, ldb);
}

/* ---- BLAS (cuBLAS) -------------------------------------------------------- */

static cublasOperation_t cuop(char t)
{
    return (t == 'T' || t == 't' || t == 'C' || t == 'c') ? CUBLAS_OP_T
                                                         : CUBLAS_OP_N;
}

/* cuop for a complex type: 'C' is the conjugate transpose */
static cublasOperation_t cuop_c(char t)
{
    return (t == 'C' || t == 'c') ? CUBLAS_OP_C : cuop(t);
}

/* C = alpha op(A) op(B) + beta C for a complex type (alpha, beta real) */
static int gemm_c(cublasHandle_t h, qru_dtype dt, char ta, char tb, int m,
                  int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B,
                  int ldb, double beta, qru_ptr C, int ldc)
{
    if (dt == QRU_COMPLEX_DOUBLE) {
        cuDoubleComplex a = make_cuDoubleComplex(alpha, 0.0),
                        b = make_cuDoubleComplex(beta, 0.0);
        return qru_cublas_status(cublasZgemm(
            h, cuop_c(ta), cuop_c(tb), m, n, k, &a,
            qru_dp<cuDoubleComplex>(A), lda, qru_dp<cuDoubleComplex>(B), ldb,
            &b, qru_dp<cuDoubleComplex>(C), ldc));
    }
    cuComplex a = make_cuComplex((float)alpha, 0.0f),
              b = make_cuComplex((float)beta, 0.0f);
    return qru_cublas_status(cublasCgemm(h, cuop_c(ta), cuop_c(tb), m, n, k,
                                         &a, qru_dp<cuComplex>(A), lda,
                                         qru_dp<cuComplex>(B), ldb, &b,
                                         qru_dp<cuComplex>(C), ldc));
}

template <typename T>
static int scal2d_t(qru_context *ctx, int m, int n, double beta, qru_ptr C, int ldc)
{
    qru_scal2d<T><<<qru_grid2d(m, n), qru_block2d(), 0, qru_cuda(ctx)->stream>>>(
        m, n, (T)beta, (T *)C.h, (long)C.off, ldc);
    return qru_cuda_launched();
}

/* C(1, 1) = x' y for the contiguous k-vectors x and y, k <= QRU_CU_DOT_MAX
 * (beyond, one work-group would be slower than cuBLAS): one work-group
 * (qru_gemv_t on one column).  cuBLAS runs such a product, as a GEMM or
 * as a gemv of one column, with split-k kernels whose reduction alone
 * took 65 us for k = 4000 on an H200 (2026-11-29); this takes about 4. */
#define QRU_CU_DOT_MAX (1 << 17)
template <typename T>
static int dot_t(qru_context *ctx, int k, qru_ptr x, qru_ptr y, qru_ptr C)
{
    qru_gemv_t<T><<<1, dim3(QRU_RED, 1), 0, qru_cuda(ctx)->stream>>>(
        k, 1, (const T *)x.h, (long)x.off, k, (const T *)y.h, (long)y.off,
        (T *)C.h, (long)C.off);
    return qru_cuda_launched();
}

/* A GEMM with one row or one column of C as a matrix-vector product
 * (cuBLAS gemv, whose kernels fit such shapes).
 * n == 1: C(:, 1) = alpha op(A) op(B)(:, 1) + beta C(:, 1); m == 1:
 * C(1, :)' = alpha op(B)' op(A)(1, :)' + beta C(1, :)'. */
static int gemv_t(cublasHandle_t h, qru_dtype dt, int tra, int trb, int m,
                  int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B,
                  int ldb, double beta, qru_ptr C, int ldc)
{
    /* the stored matrix M (rows x cols, ld), its operation, and the
     * vector x (stride incx), y (stride incy) of y = alpha op(M) x + beta y */
    qru_ptr M = A, x = B, y = C;
    int ldm = lda, trm = tra, incx = trb ? ldb : 1, incy = 1;
    int rows = tra ? k : m, cols = tra ? m : k;
    if (n != 1) { /* m == 1: the row of C by op(B)' */
        M = B;
        ldm = ldb;
        trm = !trb;
        rows = trb ? n : k;
        cols = trb ? k : n;
        x = A;
        incx = tra ? 1 : lda;
        incy = ldc;
    }
    cublasOperation_t op = trm ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDgemv(
            h, op, rows, cols, &alpha, qru_dp<double>(M), ldm,
            qru_dp<double>(x), incx, &beta, qru_dp<double>(y), incy));
    float a = (float)alpha, b = (float)beta;
    return qru_cublas_status(cublasSgemv(h, op, rows, cols, &a,
                                         qru_dp<float>(M), ldm,
                                         qru_dp<float>(x), incx, &b,
                                         qru_dp<float>(y), incy));
}

int qru_cu_gemm(qru_context *ctx, qru_dtype dt, char ta, char tb, int m, int n,
            int k, double alpha, qru_ptr A, int lda, qru_ptr B, int ldb,
            double beta, qru_ptr C, int ldc)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (k <= 0 || alpha == 0.0) { /* C = beta C, exactly 0 for beta == 0 */
        if (beta == 1.0)
            return 0;
        return QRU_CU_BY_TYPE(dt, scal2d_t, ctx, m, n, beta, C, ldc);
    }
    cublasHandle_t h = qru_cuda(ctx)->blas;
    if (qru_dtype_complex(dt))
        return gemm_c(h, dt, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                      ldc);
    int tra = cuop(ta) == CUBLAS_OP_T, trb = cuop(tb) == CUBLAS_OP_T;
    if (m == 1 && n == 1 && k <= QRU_CU_DOT_MAX && alpha == 1.0 &&
        beta == 0.0 && (tra || lda == 1) && (!trb || ldb == 1))
        return dt == QRU_DOUBLE ? dot_t<double>(ctx, k, A, B, C)
                                : dot_t<float>(ctx, k, A, B, C);
    if (n == 1 || m == 1)
        return gemv_t(h, dt, tra, trb, m, n, k, alpha, A, lda, B, ldb, beta,
                      C, ldc);
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDgemm(
            h, cuop(ta), cuop(tb), m, n, k, &alpha, qru_dp<double>(A), lda,
            qru_dp<double>(B), ldb, &beta, qru_dp<double>(C), ldc));
    float a = (float)alpha, b = (float)beta;
    return qru_cublas_status(cublasSgemm(h, cuop(ta), cuop(tb), m, n, k, &a,
                                         qru_dp<float>(A), lda,
                                         qru_dp<float>(B), ldb, &b,
                                         qru_dp<float>(C), ldc));
}

/* The strided batch: cuBLAS <t>gemmStridedBatched, one call (C = beta C
 * where k = 0 or alpha = 0: geadd_batched's kernel). */
int qru_cu_gemm_batched(qru_context *ctx, qru_dtype dt, char ta, char tb,
                        int m, int n, int k, double alpha, qru_ptr A, int lda,
                        size_t sA, qru_ptr B, int ldb, size_t sB, double beta,
                        qru_ptr C, int ldc, size_t sC, int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    if (k <= 0 || alpha == 0.0) /* C = beta C, exactly 0 for beta == 0 */
        return qru_cu_geadd_batched(ctx, dt, m, n, 0.0, C, ldc, sC, beta, C,
                                    ldc, sC, count);
    cublasHandle_t h = qru_cuda(ctx)->blas;
    long long a_s = (long long)sA, b_s = (long long)sB, c_s = (long long)sC;
    if (dt == QRU_COMPLEX_DOUBLE) {
        cuDoubleComplex a = make_cuDoubleComplex(alpha, 0.0),
                        b = make_cuDoubleComplex(beta, 0.0);
        return qru_cublas_status(cublasZgemmStridedBatched(
            h, cuop_c(ta), cuop_c(tb), m, n, k, &a,
            qru_dp<cuDoubleComplex>(A), lda, a_s, qru_dp<cuDoubleComplex>(B),
            ldb, b_s, &b, qru_dp<cuDoubleComplex>(C), ldc, c_s, count));
    }
    if (dt == QRU_COMPLEX_FLOAT) {
        cuComplex a = make_cuComplex((float)alpha, 0.0f),
                  b = make_cuComplex((float)beta, 0.0f);
        return qru_cublas_status(cublasCgemmStridedBatched(
            h, cuop_c(ta), cuop_c(tb), m, n, k, &a, qru_dp<cuComplex>(A), lda,
            a_s, qru_dp<cuComplex>(B), ldb, b_s, &b, qru_dp<cuComplex>(C),
            ldc, c_s, count));
    }
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDgemmStridedBatched(
            h, cuop(ta), cuop(tb), m, n, k, &alpha, qru_dp<double>(A), lda,
            a_s, qru_dp<double>(B), ldb, b_s, &beta, qru_dp<double>(C), ldc,
            c_s, count));
    float a = (float)alpha, b = (float)beta;
    return qru_cublas_status(cublasSgemmStridedBatched(
        h, cuop(ta), cuop(tb), m, n, k, &a, qru_dp<float>(A), lda, a_s,
        qru_dp<float>(B), ldb, b_s, &b, qru_dp<float>(C), ldc, c_s, count));
}

int qru_cu_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo, char ta,
            char diag, int m, int n, double alpha, qru_ptr A, int lda,
            qru_ptr B, int ldb)
{
    if (m <= 0 || n <= 0)
        return 0;
    int trsv_min = qru_ctx_tuning(ctx, dt)->trsv_min_m;
    if (!qru_dtype_complex(dt) && (side == 'L' || side == 'l') &&
        n <= QRU_CU_TRSV_MAX_RHS &&
        trsv_min > 0 && m >= trsv_min)
        return qru_cu_trsv_few(ctx, dt, uplo, ta, diag, m, n, alpha, A, lda,
                               B, ldb);
    cublasHandle_t h = qru_cuda(ctx)->blas;
    cublasSideMode_t s =
        (side == 'L' || side == 'l') ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    cublasFillMode_t u = (uplo == 'U' || uplo == 'u') ? CUBLAS_FILL_MODE_UPPER
                                                      : CUBLAS_FILL_MODE_LOWER;
    cublasDiagType_t d =
        (diag == 'U' || diag == 'u') ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    if (dt == QRU_COMPLEX_DOUBLE) {
        cuDoubleComplex a = make_cuDoubleComplex(alpha, 0.0);
        return qru_cublas_status(cublasZtrsm(
            h, s, u, cuop_c(ta), d, m, n, &a, qru_dp<cuDoubleComplex>(A), lda,
            qru_dp<cuDoubleComplex>(B), ldb));
    }
    if (dt == QRU_COMPLEX_FLOAT) {
        cuComplex a = make_cuComplex((float)alpha, 0.0f);
        return qru_cublas_status(cublasCtrsm(h, s, u, cuop_c(ta), d, m, n, &a,
                                             qru_dp<cuComplex>(A), lda,
                                             qru_dp<cuComplex>(B), ldb));
    }
    if (dt == QRU_DOUBLE)
        return qru_cublas_status(cublasDtrsm(h, s, u, cuop(ta), d, m, n,
                                             &alpha, qru_dp<double>(A), lda,
                                             qru_dp<double>(B), ldb));
    float a = (float)alpha;
    return qru_cublas_status(cublasStrsm(h, s, u, cuop(ta), d, m, n, &a,
                                         qru_dp<float>(A), lda,
                                         qru_dp<float>(B), ldb));
}

template <typename T>
static int col_norms_t(qru_context *ctx, int m, int n, qru_ptr A, int lda,
                double *norms)
{
    qru_cuda_impl *im = qru_cuda(ctx);
    T *host = (T *)malloc((size_t)n * sizeof(T));
    if (!host)
        return QRU_ERR_ALLOC;
    void *dev = NULL;
    int st = qru_cuda_scratch(ctx, (size_t)n * sizeof(T), &dev);
    if (st) {
        free(host);
        return st;
    }
    qru_col_norms<T><<<qru_blocks(n, 1, 1u << 16), QRU_RED, 0, im->stream>>>(
        m, n, (const T *)A.h, (long)A.off, lda, (T *)dev, 0L);
    st = qru_cuda_launched();
    if (!st)
        st = qru_cuda_read(ctx, dev, host, (size_t)n * sizeof(T));
    qru_cuda_scratch_free(ctx, dev);
    if (!st)
        for (int j = 0; j < n; ++j)
            norms[j] = qru_cu_host_re(host[j]);
    free(host);
    return st;
}

template <typename T>
static int col_norms_dev_t(qru_context *ctx, int m, int n, qru_ptr A, int lda,
                           qru_ptr out)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    qru_col_norms<T><<<qru_blocks(n, 1, 1u << 16), QRU_RED, 0, s>>>(
        m, n, (const T *)A.h, (long)A.off, lda, (T *)out.h, (long)out.off);
    return qru_cuda_launched();
}

int qru_cu_col_norms_dev(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, qru_ptr out)
{
    if (n <= 0)
        return 0;
    if (m <= 0)
        return qru_cu_laset(ctx, dt, 'A', 1, n, 0.0, 0.0, out, 1);
    return QRU_CU_BY_TYPE(dt, col_norms_dev_t, ctx, m, n, A, lda, out);
}

int qru_cu_col_norms(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                 int lda, double *norms)
{
    if (n <= 0)
        return 0;
    if (m <= 0) {
        for (int j = 0; j < n; ++j)
            norms[j] = 0.0;
        return 0;
    }
    return QRU_CU_BY_TYPE(dt, col_norms_t, ctx, m, n, A, lda, norms);
}

/* Groups of the count_nonfinite kernel along x and y (at most 16 x 256
 * partial counts, read back and added on the host). */
#define NONFIN_GX 16
#define NONFIN_GY 256
static_assert(sizeof(int) * NONFIN_GX * NONFIN_GY <= QRU_CUDA_STAGE,
              "the partial counts fit the staging buffer");

template <typename T>
static int count_nonfinite_t(qru_context *ctx, unsigned gx, unsigned gy,
                             int nz, int u, int m, int n, qru_ptr A, int lda,
                             void *dev)
{
    qru_count_nonfinite<T><<<dim3(gx, gy), QRU_RED, 0,
                             qru_cuda(ctx)->stream>>>(
        nz, u, m, n, (const T *)A.h, (long)A.off, lda, (int *)dev);
    return qru_cuda_launched();
}

/* count_nonfinite (nz 0) and count_nonzero (nz 1): the groups' partial
 * counts written to the page-locked staging buffer (one launch and one
 * wait; where there is none, to stream-ordered scratch read back through
 * a copy) and added on the host. */
static int count_elems(qru_context *ctx, qru_dtype dt, int nz, char uplo,
                       int m, int n, qru_ptr A, int lda, int *count)
{
    *count = 0;
    if (m <= 0 || n <= 0)
        return 0;
    unsigned gx = qru_blocks(m, QRU_RED, NONFIN_GX);
    unsigned gy = qru_blocks(n, 1, NONFIN_GY);
    int part[NONFIN_GX * NONFIN_GY];
    const int *got = part;
    void *dev = qru_cuda_stage(ctx);
    int st = dev ? 0 : qru_cuda_scratch(ctx, sizeof(int) * gx * gy, &dev);
    if (st)
        return st;
    int u = (uplo == 'U' || uplo == 'u')   ? 1
            : (uplo == 'L' || uplo == 'l') ? 2
                                           : 0;
    st = QRU_CU_BY_TYPE(dt, count_nonfinite_t, ctx, gx, gy, nz, u, m, n, A,
                        lda, dev);
    if (dev == qru_cuda(ctx)->stage) {
        if (!st)
            st = qru_cuda_status(
                cudaStreamSynchronize(qru_cuda(ctx)->stream));
        got = (const int *)dev;
    } else {
        if (!st)
            st = qru_cuda_read(ctx, dev, part, sizeof(int) * gx * gy);
        qru_cuda_scratch_free(ctx, dev);
    }
    if (st)
        return st;
    long long c = 0;
    for (unsigned i = 0; i < gx * gy; ++i)
        c += got[i];
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

int qru_cu_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo, int m,
                           int n, qru_ptr A, int lda, int *count)
{
    return count_elems(ctx, dt, 0, uplo, m, n, A, lda, count);
}

int qru_cu_count_nonzero(qru_context *ctx, qru_dtype dt, int n, qru_ptr x,
                         int *count)
{
    return count_elems(ctx, dt, 1, 'A', n, 1, x, n, count);
}

/* ---- Householder kernels -------------------------------------------------- */

template <typename T>
static int house_t(qru_context *ctx, int n, qru_ptr alpha, qru_ptr x, qru_ptr v,
            qru_ptr tau)
{
    int same = x.h == v.h && x.off == v.off;
    qru_house<T><<<1, QRU_RED, 0, qru_cuda(ctx)->stream>>>(
        n, (T *)alpha.h, (long)alpha.off, (T *)x.h, (long)x.off, (T *)v.h,
        (long)v.off, (T *)tau.h, (long)tau.off, same);
    return qru_cuda_launched();
}

int qru_cu_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha, qru_ptr x,
             qru_ptr v, qru_ptr tau)
{
    /* n == 0 still launches: tau = 0 must be written */
    if (n < 0)
        n = 0;
    return QRU_CU_BY_TYPE(dt, house_t, ctx, n, alpha, x, v, tau);
}

template <typename T>
static int larf_t(qru_context *ctx, int m, int n, qru_ptr v, qru_ptr tau,
           qru_ptr top, int ldt, qru_ptr C, int ldc)
{
    dim3 b = qru_colred_block(m);
    qru_larf<T><<<qru_blocks(n, b.y, 1u << 20), b, 0,
                  qru_cuda(ctx)->stream>>>(
        m, n, (const T *)v.h, (long)v.off, (const T *)tau.h, (long)tau.off,
        (T *)top.h, (long)top.off, ldt, (T *)C.h, (long)C.off, ldc);
    return qru_cuda_launched();
}

int qru_cu_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
            qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
            qru_ptr work)
{
    (void)work; /* the fused kernel keeps w in local memory */
    if (n <= 0)
        return 0;
    if (m < 0)
        m = 0;
    return QRU_CU_BY_TYPE(dt, larf_t, ctx, m, n, v, tau, top, ldt, C, ldc);
}

template <typename T>
static int wy_append_t(qru_context *ctx, int m, int j, qru_ptr Y, int ldy, qru_ptr W,
                int ldw, qru_ptr tau, qru_ptr work)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    if (j > 0) {
        dim3 b = qru_colred_block(m);
        qru_gemv_t<T><<<qru_blocks(j, b.y, 1u << 20), b, 0, s>>>(
            m, j, (const T *)Y.h, (long)Y.off, ldy, (const T *)Y.h,
            (long)(Y.off + (size_t)j * ldy), (T *)work.h, (long)work.off);
    }
    qru_wy_col<T><<<qru_blocks(m, 256, 1u << 20), 256, 0, s>>>(
        m, j, (const T *)Y.h, (long)Y.off, ldy, (T *)W.h, (long)W.off, ldw,
        (const T *)work.h, (long)work.off, (const T *)tau.h, (long)tau.off);
    return qru_cuda_launched();
}

int qru_cu_wy_append(qru_context *ctx, qru_dtype dt, int m, int j, qru_ptr Y,
                 int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work)
{
    if (m <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, wy_append_t, ctx, m, j, Y, ldy, W, ldw, tau,
                          work);
}


