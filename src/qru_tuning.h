/*
 * The tuning block: every performance knob of the library, one block per
 * backend and element type.  The backend's table holds its defaults
 * (qru_backend_ops.tuning); a context copies them at creation, applies the
 * environment once (tuning.c, the only place the library reads the
 * environment) and can be changed through qru_context_set_tuning().
 *
 * QRU_TUNING(X): X(field, PARAM, "ENVIRONMENT", lo, hi, "words")
 *   field        member of qru_tuning (an int);
 *   PARAM        its qru_tuning_param (include/qru.h), QRU_TUNE_<PARAM>;
 *   ENVIRONMENT  the variable read at context creation;
 *   lo, hi       the valid range;
 *   words        NULL for a number, else the names of the values lo..hi
 *                separated by '|' (the environment gives a name).
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
    /* GPU panel kernel: the first that fits, no register kernel, the \
     * global-memory kernel only, the tall panel over many blocks \
     * wherever it applies (CUDA), or the first that fits without the \
     * warp-chain kernel (CUDA) */ \
    X(panel_kernel, PANEL_KERNEL, "QRU_PANEL_KERNEL", 0, 4, "auto|smem|global|grid|reg") \
    /* work-groups of the CUDA multi-group panel; 0: by size and SMs */ \
    X(panel_groups, PANEL_GROUPS, "QRU_PANEL_GROUPS", 0, 1 << 20, NULL) \
    /* CUDA Cholesky diagonal blocks: by size, qru's kernel, or cuSOLVER */ \
    X(chol_panel, CHOL_PANEL, "QRU_CHOL_PANEL", 0, 2, "auto|kernel|vendor") \
    /* fused Givens sweeps kernel: on chip when it fits, or global memory */ \
    X(sweeps_kernel, SWEEPS_KERNEL, "QRU_SWEEPS_KERNEL", 0, 5, "auto|global|cluster|window|chain|chaincluster") \
    /* triangular solves with few right-hand sides (CUDA trsm op, side \
     * 'L') by qru's own kernel from m >= this; 0: never (the vendor's) */ \
    X(trsv_min_m, TRSV_MIN_M, "QRU_TRSV_MIN_M", 0, 1 << 30, NULL) \
    /* look-ahead of the blocked updates on a second queue (the lane ops; \
     * the modification's Q and d on copies there): off or on (where the \
     * backend has a second queue; else the same steps in order) */ \
    X(lookahead, LOOKAHEAD, "QRU_LOOKAHEAD", 0, 1, "off|on") \
    /* adding columns and removing rows (fast): Householder tiles or \
     * Givens sweeps by the cost model, never the tiles, or always */ \
    X(upd_tiles, UPDATE_TILES, "QRU_UPDATE_TILES", 0, 2, "auto|off|on")
/* clang-format on */

/* The cost model that prices plans (src/plan.c), and with them the
 * choices of the update policy (src/update/policy.c): an op takes
 *     per_call + max(flops / rate, bytes / bandwidth)
 *              + col_step * (column steps of a fused panel)
 *              + sweep_step * (steps of fused Givens sweeps),
 * and a host wait per_wait.  rate_gemm: the level-3 BLAS (gemm, syrk,
 * trsm, wy_left); rate_upd: the update kernels (panels, reflectors,
 * rotations, norms); rate_qr: the vendor factorisations (geqrf_full,
 * potrf_full); all in flop/s, bandwidth in bytes/s, seconds for the
 * rest.  panel_rows: the rows up to which the backend's fused panels run
 * at col_step a column (its fastest panel kernel; taller ones take 2 +
 * log2(rows / panel_rows) / 2 times as long); 0: no such limit.  qr_elem: seconds per element of the n x m
 * matrix that the vendor's QR takes where it is latency-bound (a column
 * step costs ~ qr_elem n), qr_col seconds per column where its fixed
 * costs dominate (small matrices); its time is the largest of those and
 * its flops / rate_qr (0: flops alone).  Each backend's values and the
 * measurements behind them: docs/performance.md, "Measurements behind
 * the library's defaults". */
typedef struct qru_cost_model {
    double rate_upd, rate_qr, rate_gemm, per_call, col_step, sweep_step,
        qr_elem, panel_rows, bandwidth, per_wait, qr_col;
} qru_cost_model;

typedef struct qru_tuning {
#define QRU_TUNING_FIELD_(f, P, env, lo, hi, words) int f;
    QRU_TUNING(QRU_TUNING_FIELD_)
#undef QRU_TUNING_FIELD_
    qru_cost_model cost; /* (not a qru_tuning_param) */
} qru_tuning;

#endif /* QRU_TUNING_H */
