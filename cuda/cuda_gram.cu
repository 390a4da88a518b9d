/*
 * CUDA versions of gram_border and gram_solve (contracts in
 * src/qru_ops.h; the reference, which the CPU backend runs, is
 * ref_ops.c's sequence of basic ops): the kernels of kernels/qru_gram.cl,
 * two launches to border a column on, three to solve.
 */
#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl" /* qru_row_sum */
#include "qru_gram.cl"

namespace {

/* the slices of a qru_gram_rowdot block: a power of two up to
 * QRU_GRAMK_SLICES, fewer for a short sum */
int rowdot_slices(int ncol)
{
    int ns = 1;
    while (ns < QRU_GRAMK_SLICES && ns * 16 < ncol)
        ns *= 2;
    return ns;
}

template <typename T>
int rowdot(cudaStream_t s, int border, int nrow, int ncol, int q, T *A,
           int lda, const T *x, T *y, const T *gtt, T *out)
{
    int ng = (nrow + QRU_GRAMK_ROWS - 1) / QRU_GRAMK_ROWS;
    dim3 b(QRU_GRAMK_ROWS, border ? QRU_GRAMK_SLICES : rowdot_slices(ncol));
    qru_gram_rowdot<T><<<ng, b, 0, s>>>(border, nrow, ncol, q, A, 0L, lda,
                                        x, 0L, y, 0L, gtt, 0L, out, 0L);
    return qru_cuda_launched();
}

template <typename T> T *at(qru_ptr p, size_t i = 0)
{
    return (T *)p.h + p.off + i;
}

template <typename T>
int border_t(qru_context *ctx, int m, int kmax, int hw, int t, int q,
             qru_ptr G, qru_ptr Gs, qru_ptr W, qru_ptr V, qru_ptr out)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    int ncg = (m + QRU_GRAMK_COLDOT - 1) / QRU_GRAMK_COLDOT;
    if (ncg > 64)
        ncg = 64;
    size_t em = (size_t)m;
    qru_gram_coldot<T><<<hw + ncg, QRU_GRAMK_COLDOT, 0, s>>>(
        hw, q, at<T>(W), 0L, kmax, at<T>(Gs, (size_t)t), 0L, m, -1, (T)0,
        at<T>(V), 0L,
        m, at<T>(G, (size_t)t * em), 0L, at<T>(Gs, (size_t)q * em), 0L);
    int st = qru_cuda_launched();
    if (st)
        return st;
    return rowdot<T>(s, 1, hw, hw, q, at<T>(W), kmax, at<T>(V), at<T>(V),
                     at<T>(G, (size_t)t * em + (size_t)t), at<T>(out, em));
}

template <typename T>
int solve_t(qru_context *ctx, int m, int kmax, int hw, qru_ptr Gs, qru_ptr W,
            qru_ptr S, int qs, double sv, qru_ptr V, qru_ptr out)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    T *z = at<T>(out, (size_t)m + 2);
    qru_gram_coldot<T><<<hw, QRU_GRAMK_COLDOT, 0, s>>>(
        hw, -1, at<T>(W), 0L, kmax, at<T>(S), 0L, 1, qs < hw ? qs : -1,
        (T)sv, at<T>(V), 0L, 0,
        at<T>(V), 0L, at<T>(V), 0L);
    int st = qru_cuda_launched();
    if (!st)
        st = rowdot<T>(s, 0, hw, hw, -1, at<T>(W), kmax, at<T>(V), z, z, z);
    if (!st)
        st = rowdot<T>(s, 0, m, hw, -1, at<T>(Gs), m, z, at<T>(out), z, z);
    return st;
}

} // namespace

int qru_cu_gram_border(qru_context *ctx, qru_dtype dt, int m, int kmax,
                       int hw, int t, int q, qru_ptr G, qru_ptr Gs, qru_ptr W,
                       qru_ptr V, qru_ptr T, qru_ptr out)
{
    (void)T;
    if (m <= 0 || hw <= 0)
        return 0;
    return dt == QRU_DOUBLE
               ? border_t<double>(ctx, m, kmax, hw, t, q, G, Gs, W, V, out)
               : border_t<float>(ctx, m, kmax, hw, t, q, G, Gs, W, V, out);
}

int qru_cu_gram_solve(qru_context *ctx, qru_dtype dt, int m, int kmax,
                      int hw, qru_ptr Gs, qru_ptr W, qru_ptr S, int qs,
                      double sv, qru_ptr V, qru_ptr out)
{
    if (m <= 0 || hw <= 0)
        return 0;
    return dt == QRU_DOUBLE
               ? solve_t<double>(ctx, m, kmax, hw, Gs, W, S, qs, sv, V, out)
               : solve_t<float>(ctx, m, kmax, hw, Gs, W, S, qs, sv, V, out);
}
