/*
 * CUDA versions of gram_border and gram_solve (contracts in
 * src/qru_ops.h; the reference, which the CPU backend runs, is
 * ref_ops.c's sequence of basic ops): the kernels of kernels/qru_gram.cl,
 * two launches to border a column on, three to solve; and of
 * lars_gram_step (the CPU version in src/cpu/cpu_kernels.inc is the
 * reference): the bordering and z = W (W' S) by those kernels in two
 * launches, then the two of kernels/qru_lars.cl.
 */
#include <float.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
#include "qru_base.cl" /* qru_row_sum */
#include "qru_gram.cl"
#include "qru_lars.cl"

static_assert(QRU_LARSK_ROWS == QRU_LARS_ROWS &&
                  QRU_LARSK_PICK == QRU_LARS_PICK &&
                  QRU_LARSK_STATUS == QRU_LARS_ST_STATUS &&
                  QRU_LARSK_GAMMA == QRU_LARS_ST_GAMMA &&
                  QRU_LARSK_ND == QRU_LARS_ST_ND &&
                  QRU_LARSK_QD == QRU_LARS_ST_QD &&
                  QRU_LARSK_SW == QRU_LARS_ST_SW &&
                  QRU_LARSK_AA == QRU_LARS_ST_AA &&
                  QRU_LARSK_D == QRU_LARS_ST_D && QRU_LARS_REC == 7,
              "the kernels' record and qru_internal.h's must agree");
static_assert(QRU_LARSK_OK == QRU_LARS_OK &&
                  QRU_LARSK_DEGENERATE == QRU_LARS_DEGENERATE &&
                  QRU_LARSK_NODIR == QRU_LARS_NODIR &&
                  QRU_LARSK_START == QRU_LARS_START &&
                  QRU_LARSK_STEP == QRU_LARS_STEP &&
                  QRU_LARSK_LEAVE == QRU_LARS_LEAVE &&
                  QRU_LARSK_LASSO == QRU_LARS_LASSO &&
                  QRU_LARSK_POSITIVE == QRU_LARS_POSITIVE,
              "the kernels' statuses, modes and flags and qru_internal.h's "
              "must agree");

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

/* qru_gram_rowdot (x2, S: border 2's) */
template <typename T>
int rowdot(cudaStream_t s, int border, int nrow, int ncol, int q, T *A,
           int lda, const T *x, T *y, const T *gtt, T *out,
           const T *x2 = nullptr, const T *S = nullptr)
{
    int ng = (nrow + QRU_GRAMK_ROWS - 1) / QRU_GRAMK_ROWS;
    dim3 b(QRU_GRAMK_ROWS, border ? QRU_GRAMK_SLICES : rowdot_slices(ncol));
    qru_gram_rowdot<T><<<ng, b, 0, s>>>(border, nrow, ncol, q, A, 0L, lda,
                                        x, 0L, y, 0L, gtt, 0L, out, 0L,
                                        x2 ? x2 : x, 0L, S ? S : x, 0L);
    return qru_cuda_launched();
}

/* qru_gram_coldot: y = W' x (x(qs) = sv), y2 = W' x2 where incx2 > 0,
 * and the copy of ncp elements of src to dst */
template <typename T>
int coldot(cudaStream_t s, int hw, int q, T *W, int kmax, T *x, int incx,
           int qs, double sv, T *y, const T *x2, int incx2, T *y2, int ncp,
           const T *src, T *dst)
{
    int ncg = (ncp + QRU_GRAMK_COLDOT - 1) / QRU_GRAMK_COLDOT;
    if (ncg > 64)
        ncg = 64;
    qru_gram_coldot<T><<<hw + ncg, QRU_GRAMK_COLDOT, 0, s>>>(
        hw, q, W, 0L, kmax, x, 0L, incx, qs, (T)sv, y, 0L, x2 ? x2 : x, 0L,
        incx2, y2 ? y2 : y, 0L, ncp, src ? src : x, 0L, dst ? dst : y, 0L);
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
    size_t em = (size_t)m;
    int st = coldot<T>(s, hw, q, at<T>(W), kmax, at<T>(Gs, (size_t)t), m,
                       -1, 0.0, at<T>(V), nullptr, 0, nullptr, m,
                       at<T>(G, (size_t)t * em), at<T>(Gs, (size_t)q * em));
    if (st)
        return st;
    return rowdot<T>(s, 1, hw, hw, q, at<T>(W), kmax, at<T>(V), at<T>(V),
                     at<T>(G, (size_t)t * em + (size_t)t), at<T>(out, em));
}

/* V = W' S (S(qs) = sv first), z = W V into out + m + 2 */
template <typename T>
int solve_wz(cudaStream_t s, int m, int kmax, int hw, qru_ptr W, qru_ptr S,
             int qs, double sv, qru_ptr V, qru_ptr out)
{
    T *z = at<T>(out, (size_t)m + 2);
    int st = coldot<T>(s, hw, -1, at<T>(W), kmax, at<T>(S), 1,
                       qs < hw ? qs : -1, sv, at<T>(V), nullptr, 0, nullptr,
                       0, nullptr, nullptr);
    if (!st)
        st = rowdot<T>(s, 0, hw, hw, -1, at<T>(W), kmax, at<T>(V), z, z, z);
    return st;
}

template <typename T>
int solve_t(qru_context *ctx, int m, int kmax, int hw, qru_ptr Gs, qru_ptr W,
            qru_ptr S, int qs, double sv, qru_ptr V, qru_ptr out)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    T *z = at<T>(out, (size_t)m + 2);
    int st = solve_wz<T>(s, m, kmax, hw, W, S, qs, sv, V, out);
    if (!st)
        st = rowdot<T>(s, 0, m, hw, -1, at<T>(Gs), m, z, at<T>(out), z, z);
    return st;
}

template <typename T>
int lars_t(qru_context *ctx, int m, int kmax, int hw, int mode, int flags,
           int it, int t, int q, int ci, int u, int na, int qs, double sv,
           double piv, double C, qru_ptr G, qru_ptr Gs, qru_ptr W, qru_ptr S,
           qru_ptr V, qru_ptr Vb, qru_ptr out, qru_ptr ls, qru_ptr P)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    qru_lars_ws w = qru_lars_ws_of(m, kmax);
    size_t em = (size_t)m;
    T big = (T)(sizeof(T) == sizeof(double) ? DBL_MAX : FLT_MAX),
      dec = (T)(sizeof(T) == sizeof(double) ? 1e15 : 1e6),
      tiny = (T)FLT_MIN;
    T *L = (T *)ls.h;
    long o = (long)ls.off;
    int st = 0;
    if (mode == QRU_LARS_STEP) {
        if (t >= 0) { /* the bordering and the solve in two launches */
            st = coldot<T>(s, hw, q, at<T>(W), kmax, at<T>(S), 1,
                           qs < hw ? qs : -1, sv, at<T>(V),
                           at<T>(Gs, (size_t)t), m, at<T>(Vb), m,
                           at<T>(G, (size_t)t * em),
                           at<T>(Gs, (size_t)q * em));
            if (!st)
                st = rowdot<T>(s, 2, hw, hw, q, at<T>(W), kmax, at<T>(Vb),
                               at<T>(out, em + 2),
                               at<T>(G, (size_t)t * em + (size_t)t),
                               at<T>(out, em), at<T>(V), at<T>(S, (size_t)q));
        } else {
            st = solve_wz<T>(s, m, kmax, hw, W, S, qs, sv, V, out);
        }
        if (st)
            return st;
        dim3 b(QRU_LARSK_ROWS, rowdot_slices(hw));
        qru_lars_rows<T><<<w.ngr, b, 0, s>>>(
            m, hw, flags, t, q, ci, u, na, (T)piv, (T)C, big, dec, tiny,
            (const T *)Gs.h, (long)Gs.off, (const T *)S.h, (long)S.off,
            (T *)out.h, (long)out.off, L, o + (long)w.cov, o + (long)w.c,
            o + (long)w.pos, o + (long)w.sof, o + (long)w.cof,
            o + (long)w.rec, o + (long)w.part);
        st = qru_cuda_launched();
        if (st)
            return st;
    }
    qru_lars_update<T><<<w.npk, QRU_LARSK_PICK, 0, s>>>(
        mode, m, kmax, hw, w.ngr, flags, it, t, q, ci, na, (T)piv, (T)C, big,
        tiny, (const T *)out.h, (long)out.off, L, o + (long)w.cov,
        o + (long)w.c, o + (long)w.pos, o + (long)w.sof, o + (long)w.cof,
        o + (long)w.drop, o + (long)w.rec, o + (long)w.pick,
        o + (long)w.part, (T *)P.h, (long)P.off);
    return qru_cuda_launched();
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

int qru_cu_lars_gram_step(qru_context *ctx, qru_dtype dt, int m, int kmax,
                          int hw, int mode, int flags, int it, int t, int q,
                          int ci, int u, int na, int qs, double sv,
                          double piv, double C, qru_ptr G, qru_ptr Gs,
                          qru_ptr W, qru_ptr S, qru_ptr V, qru_ptr Vb,
                          qru_ptr out, qru_ptr ls, qru_ptr P)
{
    if (m <= 0 || (mode == QRU_LARS_STEP && hw <= 0))
        return 0;
    return dt == QRU_DOUBLE
               ? lars_t<double>(ctx, m, kmax, hw, mode, flags, it, t, q, ci,
                                u, na, qs, sv, piv, C, G, Gs, W, S, V, Vb,
                                out, ls, P)
               : lars_t<float>(ctx, m, kmax, hw, mode, flags, it, t, q, ci,
                               u, na, qs, sv, piv, C, G, Gs, W, S, V, Vb,
                               out, ls, P);
}
