/*
 * CUDA versions of the column updates of the batched least squares
 * (contracts in src/qru_ops.h; the CPU versions in
 * src/cpu/cpu_batch_cols_kernels.inc are the reference):
 * lsq_batch_remove_cols (two kernels, the second for the thin form) and
 * lsq_batch_add_cols_q (three kernels), the four types, the bodies of
 * kernels/qru_batch_cols.cl, one block a problem.
 */
#include <float.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_batch_cols.cl"

static_assert(QRU_BQ_WG == 256,
              "the kernels' work layout and the host's sizes must agree");

/* The entry points: the bodies of kernels/qru_batch_cols.cl; the sums on
 * the dynamic shared memory (nt + 1 elements). */
template <typename T>
__global__ void qru_lsq_batch_rmc_rotate(QRU_BC_RM_PARAMS, int thin)
{
    qru_bc_rm_rotate(QRU_BC_RM_ARGS, thin);
}
template <typename T> __global__ void qru_lsq_batch_rmc_q(QRU_BC_RM_PARAMS)
{
    qru_bc_rm_q(QRU_BC_RM_ARGS);
}
template <typename T>
__global__ void __launch_bounds__(QRU_BQ_WG, 2)
    qru_lsq_batch_acq_complete(QRU_BC_AC_PARAMS)
{
    extern __shared__ __align__(16) unsigned char qru_batch_cols_smem_[];
    qru_bc_ac_complete(QRU_BC_AC_ARGS, (T *)qru_batch_cols_smem_);
}
template <typename T>
__global__ void qru_lsq_batch_acq_commit(QRU_BC_AC_PARAMS)
{
    extern __shared__ __align__(16) unsigned char qru_batch_cols_smem_[];
    qru_bc_ac_commit(QRU_BC_AC_ARGS, (T *)qru_batch_cols_smem_);
}
template <typename T>
__global__ void qru_lsq_batch_acq_rotate(QRU_BC_AC_PARAMS)
{
    qru_bc_ac_rotate(QRU_BC_AC_ARGS);
}

template <typename T>
static int lsq_batch_remove_cols_t(qru_context *ctx, int m, int r, int n,
                                   int k, int p, int count, int thin,
                                   qru_ptr R, int ldr, size_t sR, qru_ptr D,
                                   int ldd, size_t sD, qru_ptr rho2,
                                   qru_ptr Q, int ldq, size_t sQ, qru_ptr E,
                                   int lde, size_t sE, qru_ptr work)
{
    int blocks = count < (1 << 20) ? count : (1 << 20);
    cudaStream_t sm = qru_cuda(ctx)->stream;
#define QRU_BC_RM_LAUNCH                                                       \
    m, r, n, k, p, count, (T *)R.h, (long)R.off, ldr, (long)sR, (T *)D.h,     \
        (long)D.off, ldd, (long)sD, (T *)rho2.h, (long)rho2.off, (T *)Q.h,    \
        (long)Q.off, ldq, (long)sQ, (T *)E.h, (long)E.off, lde, (long)sE,     \
        (T *)work.h, (long)work.off
    qru_lsq_batch_rmc_rotate<T>
        <<<blocks, qru_lsq_batch_q_wg(m - p - k + r), 0, sm>>>(
            QRU_BC_RM_LAUNCH, thin);
    if (thin)
        qru_lsq_batch_rmc_q<T><<<blocks, qru_lsq_batch_q_wg(n), 0, sm>>>(
            QRU_BC_RM_LAUNCH);
#undef QRU_BC_RM_LAUNCH
    return qru_cuda_launched();
}

int qru_cu_lsq_batch_remove_cols(qru_context *ctx, qru_dtype dt, int m, int r,
                                 int n, int k, int p, int count, int thin,
                                 qru_ptr R, int ldr, size_t sR, qru_ptr D,
                                 int ldd, size_t sD, qru_ptr rho2, qru_ptr Q,
                                 int ldq, size_t sQ, qru_ptr E, int lde,
                                 size_t sE, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, lsq_batch_remove_cols_t, ctx, m, r, n, k, p,
                          count, thin, R, ldr, sR, D, ldd, sD, rho2, Q, ldq,
                          sQ, E, lde, sE, work);
}

template <typename T>
static int lsq_batch_add_cols_q_t(
    qru_context *ctx, int m, int r, int n, int k, int p, int count,
    qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr Q,
    int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr V, int ldv,
    size_t sV, qru_ptr R1, int ld1, size_t s1, qru_ptr D1, int ldd1,
    size_t sD1, qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1, int lde1,
    size_t sE1, qru_ptr info, qru_ptr work, double deps)
{
    T eps = T((typename qru_kt<T>::real)deps);
    int blocks = count < (1 << 20) ? count : (1 << 20);
    int rows = qru_lsq_batch_q_wg(n), cols = qru_lsq_batch_q_wg(m + p + r);
    cudaStream_t sm = qru_cuda(ctx)->stream;
#define QRU_BC_AC_LAUNCH                                                       \
    (m, r, n, k, p, count, eps, (const T *)R.h, (long)R.off, ldr, (long)sR,   \
     (const T *)D.h, (long)D.off, ldd, (long)sD, (const T *)Q.h, (long)Q.off, \
     ldq, (long)sQ, (const T *)E.h, (long)E.off, lde, (long)sE,               \
     (const T *)V.h, (long)V.off, ldv, (long)sV, (T *)R1.h, (long)R1.off,     \
     ld1, (long)s1, (T *)D1.h, (long)D1.off, ldd1, (long)sD1, (T *)Q1n.h,     \
     (long)Q1n.off, ldq1, (long)sQ1, (T *)E1.h, (long)E1.off, lde1,           \
     (long)sE1, (T *)info.h, (long)info.off, (T *)work.h, (long)work.off)
    qru_lsq_batch_acq_complete<T>
        <<<blocks, rows, sizeof(T) * ((size_t)rows + 1), sm>>>
        QRU_BC_AC_LAUNCH;
    qru_lsq_batch_acq_commit<T>
        <<<blocks, cols, sizeof(T) * ((size_t)cols + 1), sm>>>
        QRU_BC_AC_LAUNCH;
    qru_lsq_batch_acq_rotate<T><<<blocks, rows, 0, sm>>> QRU_BC_AC_LAUNCH;
#undef QRU_BC_AC_LAUNCH
    return qru_cuda_launched();
}

int qru_cu_lsq_batch_add_cols_q(
    qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p,
    int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD,
    qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr V,
    int ldv, size_t sV, qru_ptr R1, int ld1, size_t s1, qru_ptr D1, int ldd1,
    size_t sD1, qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1, int lde1,
    size_t sE1, qru_ptr info, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    double eps =
        qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
    return QRU_CU_BY_TYPE(dt, lsq_batch_add_cols_q_t, ctx, m, r, n, k, p,
                          count, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde,
                          sE, V, ldv, sV, R1, ld1, s1, D1, ldd1, sD1, Q1n,
                          ldq1, sQ1, E1, lde1, sE1, info, work, eps);
}
