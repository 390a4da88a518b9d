/*
 * CUDA versions of the thin-form batched least-squares ops (contracts in
 * src/qru_ops.h; the CPU versions in src/cpu/cpu_batch_q_kernels.inc are
 * the reference): lsq_batch_add_rows_q, lsq_batch_remove_rows_q and
 * lsq_batch_geqr_thin, the kernels of kernels/qru_batch_q.cl, one block a
 * problem; the four types (QRU_CU_BY_TYPE).
 */
#include <float.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl" /* qru_larfg_beta, dlarfg's beta and tau */
#include "qru_batch_q.cl"

static_assert(QRU_BQ_WG == 256 && QRU_BQ_PB == 8,
              "the kernels' work layout and the host's sizes must agree");

/* The entry points: the bodies of kernels/qru_batch_q.cl; the removal's
 * block-wide sums on its dynamic shared memory (nt + 1 elements). */
template <typename T>
__global__ void qru_lsq_batch_add_rows_q(int m, int r, int n, int p,
                                         int count, T *R, long orr, int ldr,
                                         long sr, T *D, long od, int ldd,
                                         long sd, T *Q, long oq, int ldq,
                                         long sq, T *E, long oe, int lde,
                                         long se, const T *U, long ou,
                                         int ldu, long su, const T *F,
                                         long of, int ldf, long sf, T *work,
                                         long ok)
{
    qru_lsq_batch_add_rows_q_body(m, r, n, p, count, R, orr, ldr, sr, D, od,
                                  ldd, sd, Q, oq, ldq, sq, E, oe, lde, se, U,
                                  ou, ldu, su, F, of, ldf, sf, work, ok);
}

/* The four stages of the removal (kernels/qru_batch_q.cl), the same
 * arguments; the first on its dynamic shared memory (nt + 1 elements). */
template <typename T>
__global__ void __launch_bounds__(QRU_BQ_WG, 2)
    qru_lsq_batch_rmq_complete(QRU_BQ_RM_PARAMS)
{
    extern __shared__ __align__(16) unsigned char qru_batch_q_smem_[];
    qru_bq_rm_complete(QRU_BQ_RM_ARGS, (T *)qru_batch_q_smem_);
}
template <typename T> __global__ void qru_lsq_batch_rmq_commit(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_commit(QRU_BQ_RM_ARGS);
}
/* two blocks an SM (at most 128 registers an item): the row owners'
 * loads in flight are the rotation's bandwidth */
template <typename T>
__global__ void __launch_bounds__(QRU_BQ_WG, 2)
    qru_lsq_batch_rmq_rotate(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_rotate(QRU_BQ_RM_ARGS);
}
template <typename T> __global__ void qru_lsq_batch_rmq_drop(QRU_BQ_RM_PARAMS)
{
    qru_bq_rm_drop(QRU_BQ_RM_ARGS);
}

/* The thin QR (lsq_batch_geqr_thin): its block sums on the dynamic
 * shared memory (qru_lsq_batch_qr_local_elems). */
template <typename T>
__global__ void qru_lsq_batch_geqr_thin(int m, int r, int n, int count,
                                        const T *A, long oa, int lda,
                                        long sa, const T *B, long ob, int ldb,
                                        long sb, T *R, long orr, int ldr,
                                        long sr, T *D, long od, int ldd,
                                        long sd, T *Q, long oq, int ldq,
                                        long sq, T *E, long oe, int lde,
                                        long se, T *work, long ok)
{
    extern __shared__ __align__(16) unsigned char qru_batch_q_smem_[];
    qru_lsq_batch_geqr_thin_body(m, r, n, count, A, oa, lda, sa, B, ob, ldb,
                                 sb, R, orr, ldr, sr, D, od, ldd, sd, Q, oq,
                                 ldq, sq, E, oe, lde, se, work, ok,
                                 (T *)qru_batch_q_smem_);
}

template <typename T>
static int lsq_batch_add_rows_q_t(qru_context *ctx, int m, int r, int n,
                                  int p, int count, qru_ptr R, int ldr,
                                  size_t sR, qru_ptr D, int ldd, size_t sD,
                                  qru_ptr Q, int ldq, size_t sQ, qru_ptr E,
                                  int lde, size_t sE, qru_ptr U, int ldu,
                                  size_t sU, qru_ptr F, int ldf, size_t sF,
                                  qru_ptr work)
{
    int threads = qru_lsq_batch_q_wg(n + p);
    int blocks = count < (1 << 20) ? count : (1 << 20);
    qru_lsq_batch_add_rows_q<T><<<blocks, threads, 0,
                                  qru_cuda(ctx)->stream>>>(
        m, r, n, p, count, (T *)R.h, (long)R.off, ldr, (long)sR, (T *)D.h,
        (long)D.off, ldd, (long)sD, (T *)Q.h, (long)Q.off, ldq, (long)sQ,
        (T *)E.h, (long)E.off, lde, (long)sE, (const T *)U.h, (long)U.off,
        ldu, (long)sU, (const T *)F.h, (long)F.off, ldf, (long)sF,
        (T *)work.h, (long)work.off);
    return qru_cuda_launched();
}

int qru_cu_lsq_batch_add_rows_q(qru_context *ctx, qru_dtype dt, int m, int r,
                                int n, int p, int count, qru_ptr R, int ldr,
                                size_t sR, qru_ptr D, int ldd, size_t sD,
                                qru_ptr Q, int ldq, size_t sQ, qru_ptr E,
                                int lde, size_t sE, qru_ptr U, int ldu,
                                size_t sU, qru_ptr F, int ldf, size_t sF,
                                qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, lsq_batch_add_rows_q_t, ctx, m, r, n, p, count,
                          R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde, sE, U,
                          ldu, sU, F, ldf, sF, work);
}

template <typename T>
static int lsq_batch_remove_rows_q_t(qru_context *ctx, int m, int r, int n,
                                     int k, int p, int count, qru_ptr R,
                                     int ldr, size_t sR, qru_ptr D, int ldd,
                                     size_t sD, qru_ptr Q, int ldq, size_t sQ,
                                     qru_ptr E, int lde, size_t sE,
                                     qru_ptr info, qru_ptr cnt, qru_ptr work,
                                     double deps)
{
    T eps = T((typename qru_kt<T>::real)deps);
    int threads = qru_lsq_batch_q_wg(n);
    int blocks = count < (1 << 20) ? count : (1 << 20);
    size_t smem = sizeof(T) * ((size_t)threads + 1);
    cudaStream_t sm = qru_cuda(ctx)->stream;
#define QRU_BQ_RM_LAUNCH                                                       \
    (m, r, n, k, p, count, eps, (T *)R.h, (long)R.off, ldr, (long)sR,         \
     (T *)D.h, (long)D.off, ldd, (long)sD, (T *)Q.h, (long)Q.off, ldq,        \
     (long)sQ, (T *)E.h, (long)E.off, lde, (long)sE, (T *)info.h,             \
     (long)info.off, (const T *)cnt.h, (long)cnt.off, cnt.h != NULL,          \
     (T *)work.h, (long)work.off)
    qru_lsq_batch_rmq_complete<T><<<blocks, threads, smem, sm>>>
        QRU_BQ_RM_LAUNCH;
    qru_lsq_batch_rmq_commit<T><<<blocks, threads, 0, sm>>> QRU_BQ_RM_LAUNCH;
    qru_lsq_batch_rmq_rotate<T><<<blocks, threads, 0, sm>>> QRU_BQ_RM_LAUNCH;
    qru_lsq_batch_rmq_drop<T><<<blocks, threads, 0, sm>>> QRU_BQ_RM_LAUNCH;
#undef QRU_BQ_RM_LAUNCH
    return qru_cuda_launched();
}

int qru_cu_lsq_batch_remove_rows_q(qru_context *ctx, qru_dtype dt, int m,
                                   int r, int n, int k, int p, int count,
                                   qru_ptr R, int ldr, size_t sR, qru_ptr D,
                                   int ldd, size_t sD, qru_ptr Q, int ldq,
                                   size_t sQ, qru_ptr E, int lde, size_t sE,
                                   qru_ptr info, qru_ptr cnt, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    double eps =
        qru_dtype_real(dt) == QRU_DOUBLE ? DBL_EPSILON : FLT_EPSILON;
    return QRU_CU_BY_TYPE(dt, lsq_batch_remove_rows_q_t, ctx, m, r, n, k, p,
                          count, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde,
                          sE, info, cnt, work, eps);
}

template <typename T>
static int lsq_batch_geqr_thin_t(qru_context *ctx, int m, int r, int n,
                                 int count, qru_ptr A, int lda, size_t sA,
                                 qru_ptr B, int ldb, size_t sB, qru_ptr R,
                                 int ldr, size_t sR, qru_ptr D, int ldd,
                                 size_t sD, qru_ptr Q, int ldq, size_t sQ,
                                 qru_ptr E, int lde, size_t sE, qru_ptr work)
{
    int threads = qru_lsq_batch_q_wg(n);
    int blocks = count < (1 << 20) ? count : (1 << 20);
    size_t smem = sizeof(T) * qru_lsq_batch_qr_local_elems(threads);
    qru_lsq_batch_geqr_thin<T><<<blocks, threads, smem,
                                 qru_cuda(ctx)->stream>>>(
        m, r, n, count, (const T *)A.h, (long)A.off, lda, (long)sA,
        (const T *)B.h, (long)B.off, ldb, (long)sB, (T *)R.h, (long)R.off,
        ldr, (long)sR, (T *)D.h, (long)D.off, ldd, (long)sD, (T *)Q.h,
        (long)Q.off, ldq, (long)sQ, (T *)E.h, (long)E.off, lde, (long)sE,
        (T *)work.h, (long)work.off);
    return qru_cuda_launched();
}

int qru_cu_lsq_batch_geqr_thin(qru_context *ctx, qru_dtype dt, int m, int r,
                               int n, int count, qru_ptr A, int lda,
                               size_t sA, qru_ptr B, int ldb, size_t sB,
                               qru_ptr R, int ldr, size_t sR, qru_ptr D,
                               int ldd, size_t sD, qru_ptr Q, int ldq,
                               size_t sQ, qru_ptr E, int lde, size_t sE,
                               qru_ptr work, size_t *work_elems)
{
    if (!work.h) {
        *work_elems = (size_t)(count > 0 ? count : 0) *
                      qru_lsq_batch_qr_work(m > 0 ? m : 0);
        return 0;
    }
    if (m <= 0 || r <= 0 || n <= 0 || count <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, lsq_batch_geqr_thin_t, ctx, m, r, n, count, A,
                          lda, sA, B, ldb, sB, R, ldr, sR, D, ldd, sD, Q, ldq,
                          sQ, E, lde, sE, work);
}
