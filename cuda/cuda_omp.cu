/*
 * CUDA version of omp_gram_step (contract in src/qru_ops.h; the CPU
 * version in src/cpu/cpu_kernels.inc is the reference): the two kernels
 * of kernels/qru_omp.cl, the grid on the rows and the one-block pick.
 */
#include <float.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_omp.cl"

static_assert(QRU_OMPK_ROWS == QRU_OMP_ROWS &&
                  QRU_OMPK_STATUS == QRU_OMP_ST_STATUS &&
                  QRU_OMPK_K == QRU_OMP_ST_K && QRU_OMPK_J == QRU_OMP_ST_J &&
                  QRU_OMPK_CJ == QRU_OMP_ST_CJ && QRU_OMPK_L == QRU_OMP_ST_L &&
                  QRU_OMPK_ZK == QRU_OMP_ST_ZK && QRU_OMPK_RR == QRU_OMP_ST_RR &&
                  QRU_OMPK_GMAX == QRU_OMP_ST_GMAX &&
                  QRU_OMPK_PIV == QRU_OMP_ST_PIV &&
                  QRU_OMPK_LIM == QRU_OMP_ST_LIM && QRU_OMP_STATE == 10,
              "the kernels' state block and qru_internal.h's must agree");
static_assert(QRU_OMPK_RUN == QRU_OMP_RUN && QRU_OMPK_DONE == QRU_OMP_DONE &&
                  QRU_OMPK_TOL == QRU_OMP_TOL &&
                  QRU_OMPK_SPAN == QRU_OMP_SPAN &&
                  QRU_OMPK_NONFINITE == QRU_OMP_NONFINITE &&
                  QRU_OMPK_ZERO == QRU_OMP_ZERO &&
                  QRU_OMPK_CHOSEN == QRU_OMP_CHOSEN &&
                  QRU_OMPK_REFUSED == QRU_OMP_REFUSED,
              "the kernels' statuses and qru_internal.h's must agree");

template <typename T>
static int omp_gram_step_t(qru_context *ctx, int n, int m, int ncoef, int k,
                           double inv, double rr0, double thr, qru_ptr X,
                           int ldx, qru_ptr y, qru_ptr ws)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    qru_omp_ws w = qru_omp_ws_of(n, m, ncoef);
    long o = (long)ws.off;
    T *W = (T *)ws.h;
    T eps = (T)(sizeof(T) == sizeof(double) ? DBL_EPSILON : FLT_EPSILON);
    const T *yp = k < 0 ? (const T *)y.h : (const T *)nullptr;
    long oy = k < 0 ? (long)y.off : 0L;
    qru_omp_gram_rows<T>
        <<<w.ngm + w.ngn, dim3(QRU_OMPK_ROWS, QRU_OMPK_SLICES), 0, s>>>(
            k, m, n, w.ngm, (T)inv, (const T *)X.h, (long)X.off, ldx, yp, oy,
            W, o + (long)w.G, o + (long)w.c0, o + (long)w.B, o + (long)w.Q,
            o + (long)w.R, ncoef, o + (long)w.c, o + (long)w.r,
            o + (long)w.st, o + (long)w.part);
    int st = qru_cuda_launched();
    if (st)
        return st;
    qru_omp_gram_pick<T><<<1, QRU_RED, 0, s>>>(
        k, n, m, ncoef, w.ngm, w.ngn, eps, (T)rr0, (T)thr, W, o + (long)w.G,
        o + (long)w.B, o + (long)w.R, ncoef, o + (long)w.z, o + (long)w.st,
        o + (long)w.S, o + (long)w.part);
    return qru_cuda_launched();
}

int qru_cu_omp_gram_step(qru_context *ctx, qru_dtype dt, int n, int m,
                         int ncoef, int k, double inv, double rr0, double thr,
                         qru_ptr X, int ldx, qru_ptr y, qru_ptr ws)
{
    if (n <= 0 || m <= 0 || ncoef <= 0)
        return 0;
    return dt == QRU_DOUBLE ? omp_gram_step_t<double>(ctx, n, m, ncoef, k,
                                                      inv, rr0, thr, X, ldx,
                                                      y, ws)
                            : omp_gram_step_t<float>(ctx, n, m, ncoef, k, inv,
                                                     rr0, thr, X, ldx, y, ws);
}
