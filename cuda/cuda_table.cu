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

/* the tuning blocks below are positional (C++ has no array designators) */
static_assert(QRU_TUNING_FLOAT == 0 && QRU_TUNING_DOUBLE == 1,
              "the tuning blocks are float, then double");

/* Every op of the list is qru_cu_<name>, except the OPT ops named by a
 * QRU_CU_LACKS_<name> below, which the context fills with the reference
 * op (their entry here is nullptr). */
#define QRU_CU_LACKS_chol_r1_solve_prep ,
#define QRU_CU_SECOND_(a, b, ...) b
#define QRU_CU_SECOND(...) QRU_CU_SECOND_(__VA_ARGS__)
#define QRU_CU_OP_(name, params, args, need, stat)                             \
    .name = QRU_CU_SECOND(QRU_CU_LACKS_##name nullptr, SCOPED(qru_cu_##name), ),
const qru_backend_ops qru_cuda_ops = {
    .name = "cuda",
    .id = QRU_BACKEND_CUDA,
    .probe = qru_cu_probe,
    .init = qru_cu_init,
    .fini = qru_cu_fini,
    .supports = qru_cu_supports,
    .device_type = qru_cu_device_type,
    .mem_alloc = SCOPED(qru_cu_alloc),
    .mem_free = SCOPED(qru_cu_free),
    .mem_locate = nullptr, /* device addresses (unified addressing) */
    QRU_OPS(QRU_CU_OP_)
    /* one block per element type, float then double (C++: the blocks in
     * that order, every field in declaration order); float has double's
     * values */
    .tuning = {{.qr_nb = 32,
                .chol_nb = 128,
                .geqrf_min_k = 1,
                .potrf_min_n = 1,
                .qr_vendor = 0,
                .chol_vendor = 0,
                .upd_panel_nb = 64,
                .upd_panel_min_nb = 16,
                .upd_rows_nb = 128,
                .sweeps_max_work = 32768,
                .trsv_min_m = 512,
                .lookahead = 1,
                .upd_tiles = 0,
                .omp_gram = 0,
                .omp_gram_mib = 4096,
                .lars_gram = 0,
                .nnls_gram = 0,
                .batch_threads = 0,
                .panel_kernel = QRU_PANEL_KERNEL_AUTO,
                .panel_groups = 0,
                .panel_group_rows = 128,
                .panel_grid_rows = 128,
                .chol_panel = QRU_CHOL_PANEL_AUTO,
                .chol_panel_min_n = 32,
                .sweeps_kernel = QRU_SWEEPS_KERNEL_AUTO,
                .sweeps_acc_min_p = 16,
                .sweeps_acc_nb = 48,
                .chol_r1_max_k = 32,
                .chol_batch_wg = 0,
                .chol_batch_team = 128,
                .batch_wg = 0,
                .upd_givens = 0,
                .upd_r1 = 0,
                .cost_calibrate = QRU_COST_CALIBRATE_AUTO,
                .batch_thread_work = 0,
                .cost = {5e12, 10e12, 25e12, 6e-6, 2.1e-6, 3.5e-6, 1.33e-9,
                        288, 3e12, 10e-6, 9.5e-6, 250e-6, 0.0}},
               {.qr_nb = 32,
                .chol_nb = 128,
                /* cuSOLVER measured faster than qru's QR */
                .geqrf_min_k = 1,
                /* cuSOLVER measured faster than qru's blocked Cholesky at
                 * every n (docs/performance.md) */
                .potrf_min_n = 1,
                .qr_vendor = 0,
                .chol_vendor = 0,
                .upd_panel_nb = 64,
                .upd_panel_min_nb = 16,
                .upd_rows_nb = 128,
                /* measured on an H200 (docs/performance.md) */
                .sweeps_max_work = 32768,
                /* below m = 1024 cuBLAS is faster with one right-hand
                 * side (measured on an H200) */
                .trsv_min_m = 512,
                /* the trailing update beside the next panel
                 * (docs/performance.md) */
                .lookahead = 1,
                /* tiles or sweeps by the cost model (docs/performance.md) */
                .upd_tiles = 0,
                /* OMP's Gram form where priced faster, G within 4 GiB */
                .omp_gram = 0,
                .omp_gram_mib = 4096,
                .lars_gram = 0,
                .nnls_gram = 0,
                .batch_threads = 0,
                .panel_kernel = QRU_PANEL_KERNEL_AUTO,
                .panel_groups = 0,
                .panel_group_rows = 128,
                .panel_grid_rows = 128,
                .chol_panel = QRU_CHOL_PANEL_AUTO,
                /* cuSOLVER from order 32 (measured faster for the
                 * 128 x 128 blocks, docs/performance.md) */
                .chol_panel_min_n = 32,
                .sweeps_kernel = QRU_SWEEPS_KERNEL_AUTO,
                .sweeps_acc_min_p = 16,
                .sweeps_acc_nb = 48,
                .chol_r1_max_k = 32,
                .chol_batch_wg = 0,
                .chol_batch_team = 128,
                .batch_wg = 0,
                .upd_givens = 0,
                .upd_r1 = 0,
                .cost_calibrate = QRU_COST_CALIBRATE_AUTO,
                .batch_thread_work = 0,
                /* cuSOLVER's QR latency-bound: ~1.33 ns an element of the
                 * n x m matrix, ~250 us + 9.5 us a column on small ones
                 * (H200, the refactorisations of test_auto_grid's small
                 * grid: A1 of 20 .. 123 columns, 450 us .. 1.6 ms),
                 * at least 10 TFLOP/s (H100, 28 shapes,
                 * docs/performance.md); fused panels on the warp-chain
                 * and register kernels up to 288 rows (QRU_PREG_LEN) */
                .cost = {5e12, 10e12, 25e12, 6e-6, 2.1e-6, 3.5e-6, 1.33e-9,
                        288, 3e12, 10e-6, 9.5e-6, 250e-6, 0.0}}},
};

