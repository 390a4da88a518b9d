/*
 * The tuning block: every performance knob of the library, one block per
 * backend and element type.  The backend's table holds its defaults, one
 * designated-initialiser block per element type (qru_backend_ops.tuning);
 * a context copies them at creation, applies the environment once
 * (tuning.c, the only place the library reads the environment) and can be
 * changed through qru_context_set_tuning() (the public knobs) or
 * qru_ctx_set_tuning() (qru_internal.h: every knob).
 *
 * QRU_TUNING(X), the public knobs, and QRU_TUNING_PRIVATE(X), the
 * backends' kernel variants and thresholds (for tests, benchmarks and
 * experiments; not in qru.h):
 *   X(field, PARAM, "ENVIRONMENT", lo, hi, "words")
 *   field        member of qru_tuning (an int);
 *   PARAM        its parameter QRU_TUNE_<PARAM>: a qru_tuning_param
 *                (include/qru.h) for a public knob, else below;
 *   ENVIRONMENT  the variable read at context creation;
 *   lo, hi       the valid range;
 *   words        NULL for a number, else the names of the values lo..hi
 *                separated by '|' (the environment gives a name).
 *
 * One more debug switch is read from the environment only: QRU_PANEL=percol
 * sets QRU_OPTION_REFERENCE_OPS at creation (every optional op then runs
 * its reference, e.g. the per-column Householder panels).
 */
#ifndef QRU_TUNING_H
#define QRU_TUNING_H

/* clang-format off */
#define QRU_TUNING(X) \
    /* Householder block size of the factorisations (nb = 0) */ \
    X(qr_nb, QR_NB, "QRU_QR_NB", 1, 4096, NULL) \
    /* block size of the blocked Cholesky factorisation (nb = 0) */ \
    X(chol_nb, CHOL_NB, "QRU_CHOL_NB", 1, 4096, NULL) \
    /* the vendor QR (geqrf_full) from min(n, m) >= this; 0: never */ \
    X(geqrf_min_k, GEQRF_MIN_K, "QRU_GEQRF_MIN_K", 0, 1 << 30, NULL) \
    /* the vendor Cholesky (potrf_full) from n >= this; 0: never */ \
    X(potrf_min_n, POTRF_MIN_N, "QRU_POTRF_MIN_N", 0, 1 << 30, NULL) \
    /* whole QR factorisations: by the thresholds, always qru's own, or \
     * always the vendor's (when the backend has one, also for nb > 0) */ \
    X(qr_vendor, QR_VENDOR, "QRU_GEQRF", 0, 2, "auto|own|vendor") \
    /* the same for the Cholesky factorisation (every variant and nb) */ \
    X(chol_vendor, CHOL_VENDOR, "QRU_POTRF", 0, 2, "auto|own|vendor") \
    /* width of the fused panels of the QRU_UPDATE_FAST updates */ \
    X(upd_panel_nb, UPDATE_PANEL_NB, "QRU_UPDATE_PANEL_NB", 1, 4096, NULL) \
    /* narrowest on-chip panel the updates take instead of a wider one \
     * that does not fit on chip */ \
    X(upd_panel_min_nb, UPDATE_PANEL_MIN_NB, "QRU_UPDATE_PANEL_MIN_NB", 1, 4096, NULL) \
    /* Householder block of the fast row removal's first phase */ \
    X(upd_rows_nb, UPDATE_ROWS_NB, "QRU_UPDATE_ROWS_NB", 1, 4096, NULL) \
    /* fused Givens sweeps (one work-group) while min(p, L) nr <= this */ \
    X(sweeps_max_work, SWEEPS_MAX_WORK, "QRU_SWEEPS_MAX_WORK", 0, 1 << 30, NULL) \
    /* triangular solves with few right-hand sides (CUDA trsm op, side \
     * 'L') by qru's own kernel from m >= this; 0: never (the vendor's) */ \
    X(trsv_min_m, TRSV_MIN_M, "QRU_TRSV_MIN_M", 0, 1 << 30, NULL) \
    /* look-ahead of the blocked updates on a second queue (the lane ops; \
     * the modification's Q and d on copies there): off or on (where the \
     * backend has a second queue; else the same steps in order) */ \
    X(lookahead, LOOKAHEAD, "QRU_LOOKAHEAD", 0, 1, "off|on") \
    /* adding columns and removing rows (fast): Householder tiles or \
     * Givens sweeps by the cost model, never the tiles, or always */ \
    X(upd_tiles, UPDATE_TILES, "QRU_UPDATE_TILES", 0, 2, "auto|off|on") \
    /* qru_omp's correlations: the residual form or the Gram form \
     * (src/solvers/omp.c), whichever the cost model prices faster, \
     * always the residual form, always the Gram form */ \
    X(omp_gram, OMP_GRAM, "QRU_OMP_GRAM", 0, 2, "auto|off|on") \
    /* the most MiB of the context's memory a Gram form may take (qru_omp \
     * with omp_gram auto, qru_nnls with nnls_gram auto, qru_lars with \
     * lars_gram auto); 0: never by choice */ \
    X(omp_gram_mib, OMP_GRAM_MIB, "QRU_OMP_GRAM_MIB", 0, 1 << 30, NULL) \
    /* qru_lars's active set (src/solvers/lars.c): the thin QR form or \
     * the Gram form, whichever the cost model prices faster (a Gram path \
     * that meets a degenerate column runs again in the thin form), \
     * always the thin form, always the Gram form */ \
    X(lars_gram, LARS_GRAM, "QRU_LARS_GRAM", 0, 2, "auto|off|on") \
    /* qru_nnls's passive set: the thin QR form or the Gram form \
     * (src/solvers/nnls.c), whichever the cost model prices faster (the \
     * Gram form in double only), always the thin QR form, always the \
     * Gram form */ \
    X(nnls_gram, NNLS_GRAM, "QRU_NNLS_GRAM", 0, 2, "auto|off|on") \
    /* threads of the CPU backend's batched ops (src/cpu/cpu_pool.c: \
     * the problems in contiguous chunks that the threads take in turn, \
     * where the batch holds batch_thread_work a thread); 0: the CPUs \
     * online that the process may run on, at most QRU_CPU_AUTO_THREADS \
     * (16); 1: the calling thread alone; elsewhere unused */ \
    X(batch_threads, BATCH_THREADS, "QRU_BATCH_THREADS", 0, 256, NULL)
/* clang-format on */

/* The values of the kernel-variant knobs below, in the order of their
 * words: QRU_<KNOB>S(X) is X(enumerator, "word") a value.  The backends
 * decode a knob by these names. */
#define QRU_VARIANT_ENUM_(e, word) e,
#define QRU_VARIANT_WORD_(e, word) word "|"

/* clang-format off */
/* panel_qr (cuda/cuda_panel.cu, opencl/opencl_kernels.c) */
#define QRU_PANEL_KERNELS(X) \
    /* the first that fits: the warp-chain kernel (CUDA), the register \
     * kernel (CUDA), local memory, the tall panel over many blocks \
     * (CUDA), global memory */ \
    X(QRU_PANEL_KERNEL_AUTO, "auto") \
    /* the same without the warp-chain and register kernels */ \
    X(QRU_PANEL_KERNEL_SMEM, "smem") \
    /* the global-memory kernel only */ \
    X(QRU_PANEL_KERNEL_GLOBAL, "global") \
    /* the tall panel over many blocks wherever it applies (CUDA), else \
     * the global-memory kernel */ \
    X(QRU_PANEL_KERNEL_GRID, "grid") \
    /* the first that fits without the warp-chain kernel (CUDA; \
     * elsewhere as auto) */ \
    X(QRU_PANEL_KERNEL_REG, "reg")
/* potrf_panel on CUDA (cuda/cuda_chol.cu) */
#define QRU_CHOL_PANELS(X) \
    /* cuSOLVER from the order chol_panel_min_n on, qru's kernel below */ \
    X(QRU_CHOL_PANEL_AUTO, "auto") \
    /* qru's one-work-group kernel */ \
    X(QRU_CHOL_PANEL_KERNEL, "kernel") \
    /* cuSOLVER */ \
    X(QRU_CHOL_PANEL_VENDOR, "vendor")
/* givens_sweeps (cuda/cuda_update.cu, opencl/opencl_kernels.c); a forced \
 * kernel that does not fit runs as auto */
#define QRU_SWEEPS_KERNELS(X) \
    /* the window of active columns in one work-group's local memory when \
     * it fits; else on CUDA the chain of rows where the sweeps form their \
     * rotations (one block, else a cluster), else the cluster window; \
     * else global memory */ \
    X(QRU_SWEEPS_KERNEL_AUTO, "auto") \
    /* global memory */ \
    X(QRU_SWEEPS_KERNEL_GLOBAL, "global") \
    /* the window in a thread-block cluster (CUDA) */ \
    X(QRU_SWEEPS_KERNEL_CLUSTER, "cluster") \
    /* the window in one work-group */ \
    X(QRU_SWEEPS_KERNEL_WINDOW, "window") \
    /* the chain of rows in one block (CUDA) */ \
    X(QRU_SWEEPS_KERNEL_CHAIN, "chain") \
    /* the chain of rows in a cluster (CUDA) */ \
    X(QRU_SWEEPS_KERNEL_CHAINCLUSTER, "chaincluster")
/* cost_calibrate (opencl/opencl_calibrate.c) */
#define QRU_COST_CALIBRATES(X) \
    /* the OpenCL backend measures its cost model where its constants \
     * were not fitted (a GPU or an accelerator), keeps them elsewhere */ \
    X(QRU_COST_CALIBRATE_AUTO, "auto") \
    /* the backend's constants */ \
    X(QRU_COST_CALIBRATE_OFF, "off") \
    /* measured on every device (the tests, on PoCL) */ \
    X(QRU_COST_CALIBRATE_ON, "on")
/* clang-format on */

typedef enum qru_panel_kernel {
    QRU_PANEL_KERNELS(QRU_VARIANT_ENUM_) QRU_PANEL_KERNEL_COUNT
} qru_panel_kernel;
typedef enum qru_chol_panel {
    QRU_CHOL_PANELS(QRU_VARIANT_ENUM_) QRU_CHOL_PANEL_COUNT
} qru_chol_panel;
typedef enum qru_sweeps_kernel {
    QRU_SWEEPS_KERNELS(QRU_VARIANT_ENUM_) QRU_SWEEPS_KERNEL_COUNT
} qru_sweeps_kernel;
typedef enum qru_cost_calibrate {
    QRU_COST_CALIBRATES(QRU_VARIANT_ENUM_) QRU_COST_CALIBRATE_COUNT
} qru_cost_calibrate;

/* clang-format off */
#define QRU_TUNING_PRIVATE(X) \
    /* GPU panel kernel (qru_panel_kernel) */ \
    X(panel_kernel, PANEL_KERNEL, "QRU_PANEL_KERNEL", 0, \
      QRU_PANEL_KERNEL_COUNT - 1, QRU_PANEL_KERNELS(QRU_VARIANT_WORD_)) \
    /* blocks of the CUDA global-memory panel over many blocks; 0: one per \
     * panel_group_rows rows, at most one per SM */ \
    X(panel_groups, PANEL_GROUPS, "QRU_PANEL_GROUPS", 0, 1 << 20, NULL) \
    /* rows a block below which that panel is not split further */ \
    X(panel_group_rows, PANEL_GROUP_ROWS, "QRU_PANEL_GROUP_ROWS", 1, 1 << 20, NULL) \
    /* the fewest rows a block of the CUDA tall panel over many blocks \
     * holds (cuda/cuda_panel_grid.cu) */ \
    X(panel_grid_rows, PANEL_GRID_ROWS, "QRU_PANEL_GRID_ROWS", 1, 1 << 20, NULL) \
    /* CUDA Cholesky diagonal blocks (qru_chol_panel) */ \
    X(chol_panel, CHOL_PANEL, "QRU_CHOL_PANEL", 0, QRU_CHOL_PANEL_COUNT - 1, \
      QRU_CHOL_PANELS(QRU_VARIANT_WORD_)) \
    /* with chol_panel auto: cuSOLVER for blocks of order >= this; \
     * 0: never */ \
    X(chol_panel_min_n, CHOL_PANEL_MIN_N, "QRU_CHOL_PANEL_MIN_N", 0, 1 << 30, NULL) \
    /* fused Givens sweeps kernel (qru_sweeps_kernel) */ \
    X(sweeps_kernel, SWEEPS_KERNEL, "QRU_SWEEPS_KERNEL", 0, \
      QRU_SWEEPS_KERNEL_COUNT - 1, QRU_SWEEPS_KERNELS(QRU_VARIANT_WORD_)) \
    /* staggered Givens sweeps of p >= this rotations a step are \
     * accumulated into small orthogonal matrices applied with GEMMs \
     * (src/update/sweeps.c); fewer are applied step by step */ \
    X(sweeps_acc_min_p, SWEEPS_ACC_MIN_P, "QRU_SWEEPS_ACC_MIN_P", 1, 1 << 30, NULL) \
    /* ... in groups of max(p, this) rotations a sweep */ \
    X(sweeps_acc_nb, SWEEPS_ACC_NB, "QRU_SWEEPS_ACC_NB", 1, 4096, NULL) \
    /* Cholesky rank-k update / downdate (qru_chol_update): one \
     * structured pass of chol_r1_prep / chol_r1_apply for all k vectors \
     * (no chain of rotations) while k <= this (at most 32, the ops' \
     * bound); 0: the rotations of chol_rot always */ \
    X(chol_r1_max_k, CHOL_R1_MAX_K, "QRU_CHOL_R1_MAX_K", 0, 32, NULL) \
    /* work-items a problem of the batched Cholesky update's kernel \
     * (kernels/qru_batch.cl; rounded down to a power of two, at most the \
     * kernel's 256); 0: by the order, n rounded up to a power of two \
     * up to 256 (unused on the CPU, whose threads each run their part \
     * of the problems one after another) */ \
    X(chol_batch_wg, CHOL_BATCH_WG, "QRU_CHOL_BATCH_WG", 0, 256, NULL) \
    /* the batched Cholesky update of ranks up to 4 one warp a problem, \
     * in registers, for orders up to this (CUDA, cuda/cuda_chol_team.cuh; \
     * at most 128); 0: never (the work-group kernel); elsewhere unused */ \
    X(chol_batch_team, CHOL_BATCH_TEAM, "QRU_CHOL_BATCH_TEAM", 0, 128, NULL) \
    /* work-items a work-group of the batched kernels holds at most: \
     * several small problems a group (qru_batch_problems); 0: the \
     * backend's (CUDA 128, OpenCL 32) */ \
    X(batch_wg, BATCH_WG, "QRU_BATCH_WG", 0, 256, NULL) \
    /* QRU_UPDATE_FAST updates of one column or row and rank-1 \
     * modifications (p = 1) by chains of Givens rotations \
     * (remove_cols.c, givens_chain.c) rather than Householder panels: \
     * where their plan is \
     * priced faster, never, always (src/update/policy.c, \
     * qru_upd_givens_pick) */ \
    X(upd_givens, UPDATE_GIVENS, "QRU_UPDATE_GIVENS", 0, 2, "auto|off|on") \
    /* QRU_UPDATE_FAST addition of one row and removal of one column \
     * (every form; Q by the rotations in closed form) and removal of \
     * one row (Q-less) by the structured rank-1 passes \
     * (src/update/rows_r1.c, remove_cols.c) rather than the panels or a \
     * chain: where their plan is priced faster, never, always */ \
    X(upd_r1, UPDATE_R1, "QRU_UPDATE_R1", 0, 2, "auto|off|on") \
    /* the cost model measured on the device when the context is created \
     * (qru_cost_calibrate; read by the OpenCL backend at creation only, \
     * ignored elsewhere) */ \
    X(cost_calibrate, COST_CALIBRATE, "QRU_COST_CALIBRATE", 0, \
      QRU_COST_CALIBRATE_COUNT - 1, QRU_COST_CALIBRATES(QRU_VARIANT_WORD_)) \
    /* the least work (flops, estimated from the sizes) a thread of the \
     * CPU backend's batched ops takes: a batch of count problems runs on \
     * min(batch_threads, count, its work / this) threads, at least one, \
     * so that small batches do not wake threads; 0: every problem may \
     * have a thread (the tests); elsewhere unused */ \
    X(batch_thread_work, BATCH_THREAD_WORK, "QRU_BATCH_THREAD_WORK", 0, 1 << 30, NULL) \
    /* the most KiB of workspace one call of a batched op takes: the \
     * problems beyond run in further calls, one after another (on a GPU \
     * each call a wave of its own); 0: 128 MiB */ \
    X(batch_work_kib, BATCH_WORK_KIB, "QRU_BATCH_WORK_KIB", 0, 1 << 30, NULL)
/* clang-format on */

/* The parameters of the private knobs, numbered after every
 * qru_tuning_param (for qru_ctx_set_tuning, qru_internal.h). */
enum {
    QRU_TUNE_PRIVATE_ = 255,
#define QRU_TUNING_PRIVATE_ID_(f, P, env, lo, hi, words) QRU_TUNE_##P,
    QRU_TUNING_PRIVATE(QRU_TUNING_PRIVATE_ID_)
#undef QRU_TUNING_PRIVATE_ID_
};

/* The cost model that prices plans (src/plan.c), and with them the
 * choices of the update policy (src/update/policy.c): an op takes
 *     per_call + max(flops / rate, bytes / bandwidth)
 *              + col_step * (column steps of a fused panel)
 *              + sweep_step * (steps of fused Givens sweeps),
 * and a host wait per_wait; a level-3 BLAS call adds blas3_call (what a
 * vendor BLAS spends a call beyond one launch: CLBlast's helper kernels
 * and host-side setup; 0 where a call is one launch).  rate_gemm: the
 * level-3 BLAS (gemm, syrk, trsm, wy_left); rate_upd: the update kernels (panels, reflectors,
 * rotations, norms); rate_qr: the vendor factorisations (geqrf_full,
 * potrf_full); all in flop/s, bandwidth in bytes/s, seconds for the
 * rest.  panel_rows: the rows up to which the backend's fused panels run
 * at col_step a column (its fastest panel kernel; taller ones take 2 +
 * log2(rows / panel_rows) / 2 times as long); 0: no such limit.  qr_elem: seconds per element of the n x m
 * matrix that the vendor's QR takes where it is latency-bound (a column
 * step costs ~ qr_elem n), qr_col seconds per column plus qr_fixed
 * seconds a call where its fixed costs dominate (small matrices); its
 * time is the largest of those and its flops / rate_qr (0: flops
 * alone).  Each backend's values and the
 * measurements behind them: docs/performance.md, "Measurements behind
 * the library's defaults"; the OpenCL backend measures its own on a GPU
 * or accelerator when a context is created (cost_calibrate,
 * opencl/opencl_calibrate.c). */
typedef struct qru_cost_model {
    double rate_upd, rate_qr, rate_gemm, per_call, col_step, sweep_step,
        qr_elem, panel_rows, bandwidth, per_wait, qr_col, qr_fixed,
        blas3_call;
} qru_cost_model;

typedef struct qru_tuning {
#define QRU_TUNING_FIELD_(f, P, env, lo, hi, words) int f;
    QRU_TUNING(QRU_TUNING_FIELD_)
    QRU_TUNING_PRIVATE(QRU_TUNING_FIELD_)
#undef QRU_TUNING_FIELD_
    qru_cost_model cost; /* (not a qru_tuning_param) */
} qru_tuning;

#endif /* QRU_TUNING_H */
