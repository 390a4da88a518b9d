/* The CUDA backend table (see src/qru_internal.h for each op's contract;
 * every op of the op list is qru_cu_<name>, run inside a scope). */
#include "qru_cuda.h"

extern "C" {
extern const qru_backend_ops qru_cuda_ops;
}

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

#define QRU_CU_OP_(name, params, args, need, stat) .name = SCOPED(qru_cu_##name),
const qru_backend_ops qru_cuda_ops = {
    .name = "cuda",
    .id = QRU_BACKEND_CUDA,
    .probe = qru_cu_probe,
    .init = qru_cu_init,
    .fini = qru_cu_fini,
    .supports = qru_cu_supports,
    .mem_alloc = SCOPED(qru_cu_alloc),
    .mem_free = SCOPED(qru_cu_free),
    QRU_OPS(QRU_CU_OP_)
    .default_nb = 32,
    .default_chol_nb = 128,
    /* cuSOLVER measured faster than qru's QR (src/qr.c, qru_qr_use_vendor) */
    .geqrf_full_min_k = 1,
    /* cuSOLVER measured faster than qru's blocked Cholesky at every n
     * (docs/performance.md; src/chol.c, qru_chol_use_vendor) */
    .potrf_full_min_n = 1,
};

