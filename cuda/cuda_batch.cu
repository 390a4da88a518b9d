/*
 * CUDA versions of the batched ops (contracts in src/qru_ops.h; the CPU
 * versions in src/cpu/cpu_batch_kernels.inc are the reference):
 * chol_update_batch, the kernel of kernels/qru_batch.cl, one block a
 * problem.
 */
#include <float.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_batch.cl"

static_assert(QRU_BATCH_LM == QRU_CHOL_BATCH_LM,
              "the kernel's local copy and the host's rule must agree");

template <typename T>
static int chol_update_batch_t(qru_context *ctx, qru_dtype dt, int upper,
                               int n, int k, int sign, int count, qru_ptr L,
                               int ldl, size_t sL, qru_ptr W, int ldw,
                               size_t sW, qru_ptr L1, int ld1, size_t s1,
                               qru_ptr info, qru_ptr work, T eps)
{
    int threads = qru_chol_batch_wg(qru_ctx_tuning(ctx, dt)->chol_batch_wg,
                                    n);
    int blocks = count < (1 << 20) ? count : (1 << 20);
    qru_chol_update_batch<T><<<blocks, threads, 0, qru_cuda(ctx)->stream>>>(
        upper, n, k, sign, count, eps, (const T *)L.h, (long)L.off, ldl,
        (long)sL, (const T *)W.h, (long)W.off, ldw, (long)sW, (T *)L1.h,
        (long)L1.off, ld1, (long)s1, (T *)info.h, (long)info.off,
        (T *)work.h, (long)work.off, qru_chol_batch_local(n, k));
    return qru_cuda_launched();
}

int qru_cu_chol_update_batch(qru_context *ctx, qru_dtype dt, char uplo,
                             int n, int k, int sign, int count, qru_ptr L,
                             int ldl, size_t sL, qru_ptr W, int ldw,
                             size_t sW, qru_ptr L1, int ld1, size_t s1,
                             qru_ptr info, qru_ptr work)
{
    if (n <= 0 || count <= 0)
        return 0;
    int upper = uplo == 'U' || uplo == 'u';
    if (k < 0)
        k = 0;
    return dt == QRU_DOUBLE
               ? chol_update_batch_t<double>(ctx, dt, upper, n, k, sign,
                                             count, L, ldl, sL, W, ldw, sW,
                                             L1, ld1, s1, info, work,
                                             DBL_EPSILON)
               : chol_update_batch_t<float>(ctx, dt, upper, n, k, sign,
                                            count, L, ldl, sL, W, ldw, sW,
                                            L1, ld1, s1, info, work,
                                            FLT_EPSILON);
}
