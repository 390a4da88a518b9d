/* The CUDA backend table (see src/qru_internal.h for each op's contract;
 * every op of the op list is qru_cu_<name>, run inside a scope). */
#include <type_traits>

#include "qru_cuda.h"

extern "C" {
extern const qru_backend_ops qru_cuda_ops;
}

/* What an op does with complex data: runs it (CU_CPLX), runs its
 * reference op (CU_CPLX_REF: an OPT op whose kernels take real data,
 * real_only_ops below), or refuses it (CU_REAL: QRU_ERR_UNSUPPORTED; the
 * routines that reach these ops refuse complex data first). */
enum { CU_REAL = 0, CU_CPLX = 1, CU_CPLX_REF = 2 };
static constexpr int cu_complex_mode(int op)
{
    switch (op) {
    case QRU_OP_sync: case QRU_OP_upload: case QRU_OP_download:
    case QRU_OP_copy: case QRU_OP_laset: case QRU_OP_transpose:
    case QRU_OP_gemm: case QRU_OP_trsm: case QRU_OP_col_norms:
    case QRU_OP_col_norms_dev: case QRU_OP_count_nonfinite:
    case QRU_OP_count_nonzero: case QRU_OP_verdict_flag:
    case QRU_OP_house: case QRU_OP_larf: case QRU_OP_wy_append:
    case QRU_OP_givens_make: case QRU_OP_givens_apply: case QRU_OP_geadd:
    case QRU_OP_gemm_batched: case QRU_OP_geadd_batched:
    case QRU_OP_syrk: case QRU_OP_lacpy: case QRU_OP_potrf_panel:
    case QRU_OP_lane: case QRU_OP_lane_mark: case QRU_OP_lane_join:
    case QRU_OP_geqrf_full: case QRU_OP_potrf_full: case QRU_OP_chol_rot:
    case QRU_OP_chol_update_batch: case QRU_OP_chol_insert_batch:
    case QRU_OP_chol_delete_batch:
    case QRU_OP_lsq_batch_add_rows: case QRU_OP_lsq_batch_solve:
    case QRU_OP_lsq_batch_add_solve:
    case QRU_OP_lsq_batch_remove_cols: case QRU_OP_lsq_batch_add_rows_q:
    case QRU_OP_lsq_batch_remove_rows_q: case QRU_OP_lsq_batch_add_cols_q:
    case QRU_OP_lsq_batch_geqr_thin:
    case QRU_OP_wy_left: case QRU_OP_givens_sweeps: case QRU_OP_givens_accum:
    case QRU_OP_panel_qr: case QRU_OP_panel_qr_tp: case QRU_OP_panel_qr_max_nb:
        return CU_CPLX;
    case QRU_OP_gram_border:
    case QRU_OP_gram_solve:
        return CU_CPLX_REF;
    default:
        return CU_REAL;
    }
}
static constexpr unsigned long long cu_real_only_ops(void)
{
    unsigned long long m = 0;
    for (int op = 0; op < QRU_OP_COUNT; ++op)
        if (cu_complex_mode(op) == CU_CPLX_REF)
            m |= 1ull << op;
    return m;
}
/* The ops that take complex data (run or as their reference): the
 * table's complex_ops. */
static constexpr unsigned long long cu_complex_ops(void)
{
    unsigned long long m = 0;
    for (int op = 0; op < QRU_OP_COUNT; ++op)
        if (cu_complex_mode(op) != CU_REAL)
            m |= 1ull << op;
    return m;
}
static const char *const cu_op_names[] = {
#define QRU_CU_NAME_(name, params, args, need, stat) #name,
    QRU_OPS(QRU_CU_NAME_)
#undef QRU_CU_NAME_
};

/* The element type of an op's arguments (float for sync and lane_join). */
template <typename... A> static qru_dtype cu_dt_of(A...) { return QRU_FLOAT; }
template <typename... A> static qru_dtype cu_dt_of(qru_dtype dt, A...)
{
    return dt;
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

/* The op F of the list (id Op) with complex data by its mode: Ref is the
 * OPT op's reference op (nullptr for the others).  call's arguments are
 * deduced from the table field it initialises. */
template <auto F, int Op, auto Ref> struct gated {
    template <typename... A> static int call(qru_context *ctx, A... a)
    {
        if constexpr (cu_complex_mode(Op) != CU_CPLX) {
            if (qru_dtype_complex(cu_dt_of(a...))) {
                if constexpr (cu_complex_mode(Op) == CU_CPLX_REF &&
                              !std::is_same_v<decltype(Ref), std::nullptr_t>)
                    return Ref(ctx, a...);
                else
                    return qru_fail(QRU_ERR_UNSUPPORTED,
                                    "the CUDA op %s takes no complex data",
                                    cu_op_names[Op]);
            }
        }
        return scoped<F>::call(ctx, a...);
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
#define QRU_CU_REF_REQ(name) nullptr
#define QRU_CU_REF_CAP(name) nullptr
#define QRU_CU_REF_OPT(name) qru_ref_##name
#define QRU_CU_OP_(name, params, args, need, stat)                             \
    .name = QRU_CU_SECOND(                                                     \
        QRU_CU_LACKS_##name nullptr,                                           \
        (gated<qru_cu_##name, QRU_OP_##name, QRU_CU_REF_##need(name)>::call), ),
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
                /* 1000 thin problems of 2000 x 100 losing 5 rows (196 MB)
                 * in one wave, not two */
                .batch_work_kib = 1 << 20,
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
                .batch_work_kib = 1 << 20,
                /* cuSOLVER's QR latency-bound: ~1.33 ns an element of the
                 * n x m matrix, ~250 us + 9.5 us a column on small ones
                 * (H200, the refactorisations of test_auto_grid's small
                 * grid: A1 of 20 .. 123 columns, 450 us .. 1.6 ms),
                 * at least 10 TFLOP/s (H100, 28 shapes,
                 * docs/performance.md); fused panels on the warp-chain
                 * and register kernels up to 288 rows (QRU_PREG_LEN) */
                .cost = {5e12, 10e12, 25e12, 6e-6, 2.1e-6, 3.5e-6, 1.33e-9,
                        288, 3e12, 10e-6, 9.5e-6, 250e-6, 0.0}}},
    .real_only_ops = cu_real_only_ops(),
    .complex_ops = cu_complex_ops(),
};

