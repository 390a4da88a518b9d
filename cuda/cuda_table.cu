/* The CUDA backend table (see src/qru_internal.h for each op's contract;
 * the ops are in cuda_backend.cu, cuda_update.cu, cuda_chol.cu and
 * cuda_panel.cu). */
#include "qru_cuda.h"

extern "C" {
extern const qru_backend_ops qru_cuda_ops;
}

/* fused panels and the cuSOLVER factorisation (cuda_panel.cu) */
int qru_cu_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb, qru_ptr A,
                    int lda, qru_ptr Y, int ldy, qru_ptr W, int ldw,
                    qru_ptr tau, qru_ptr work);
int qru_cu_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra);
int qru_cu_geqrf_full(qru_context *ctx, qru_dtype dt, int n, int m,
                      qru_ptr A, int lda, qru_ptr Q, int ldq, qru_ptr B,
                      int ldb, int r, qru_ptr ws, size_t *ws_elems);

/* the cuSOLVER Cholesky (cuda_chol.cu) */
int qru_cu_potrf_full(qru_context *ctx, qru_dtype dt, char uplo, int n,
                      qru_ptr A, int lda, qru_ptr ws, size_t *ws_elems);

/* Every op runs inside a qru_cuda_scope (qru_cuda.h): the caller's current
 * device, adopted handles' stream and pointer mode and pending CUDA error
 * are as they were when the op returns. */
template <auto F> struct scoped;
template <typename... A, int (*F)(qru_context *, A...)> struct scoped<F> {
    static int call(qru_context *ctx, A... a)
    {
        qru_cuda_scope sc(qru_cuda(ctx));
        if (sc.st)
            return sc.st;
        return F(ctx, a...);
    }
};
template <void (*F)(qru_context *, void *)> struct scoped<F> {
    static void call(qru_context *ctx, void *h)
    {
        qru_cuda_scope sc(qru_cuda(ctx));
        F(ctx, h);
    }
};
#define SCOPED(f) scoped<f>::call

/* (a count, 0 when the device cannot be reached) */
static int panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra)
{
    qru_cuda_scope sc(qru_cuda(ctx));
    return sc.st ? 0 : qru_cu_panel_qr_max_nb(ctx, dt, extra);
}

const qru_backend_ops qru_cuda_ops = {
    .name = "cuda",
    .id = QRU_BACKEND_CUDA,
    .default_nb = 32,
    .probe = qru_cu_probe,
    .init = qru_cu_init,
    .fini = qru_cu_fini,
    .supports = qru_cu_supports,
    .sync = SCOPED(qru_cu_sync),
    .mem_alloc = SCOPED(qru_cu_alloc),
    .mem_free = SCOPED(qru_cu_free),
    .upload = SCOPED(qru_cu_upload),
    .download = SCOPED(qru_cu_download),
    .copy = SCOPED(qru_cu_copy),
    .laset = SCOPED(qru_cu_laset),
    .transpose = SCOPED(qru_cu_transpose),
    .gemm = SCOPED(qru_cu_gemm),
    .trsm = SCOPED(qru_cu_trsm),
    .col_norms = SCOPED(qru_cu_col_norms),
    .count_nonfinite = SCOPED(qru_cu_count_nonfinite),
    .house = SCOPED(qru_cu_house),
    .larf = SCOPED(qru_cu_larf),
    .wy_append = SCOPED(qru_cu_wy_append),
    .givens_make = SCOPED(qru_cu_givens_make),
    .givens_apply = SCOPED(qru_cu_givens_apply),
    .geadd = SCOPED(qru_cu_geadd),
    .default_chol_nb = 128,
    .syrk = SCOPED(qru_cu_syrk),
    .lacpy = SCOPED(qru_cu_lacpy),
    .potrf_panel = SCOPED(qru_cu_potrf_panel),
    .chol_rot = SCOPED(qru_cu_chol_rot),
    /* ---- fused panels (issue 8) ---- */
    .panel_qr = SCOPED(qru_cu_panel_qr),
    .panel_qr_max_nb = panel_qr_max_nb,
    .givens_sweeps = SCOPED(qru_cu_givens_sweeps),
    .givens_accum = SCOPED(qru_cu_givens_accum),
    .geqrf_full = SCOPED(qru_cu_geqrf_full),
    /* cuSOLVER measured faster than qru's QR (src/qr.c, qru_qr_use_vendor) */
    .geqrf_full_min_k = 1,
    /* ---- vendor Cholesky (issue 9) ---- */
    .potrf_full = SCOPED(qru_cu_potrf_full),
    /* cuSOLVER measured faster than qru's blocked Cholesky at every n:
     * H100, double, n = 1024..16384, qru_chol_factor's default at
     * 1.04-1.35x of cusolverDnDpotrf's time (1.01-1.22x in place), qru's
     * own LEFT at 1.5-2.7x (docs/benchmarks.md, "Cholesky on the GPU";
     * src/chol.c, qru_chol_use_vendor) */
    .potrf_full_min_n = 1,
};
