/* The CUDA backend table (see src/qru_internal.h for each op's contract;
 * the ops are in cuda_backend.cu and cuda_update.cu). */
#include "qru_cuda.h"

extern "C" {
extern const qru_backend_ops qru_cuda_ops;
}

const qru_backend_ops qru_cuda_ops = {
    .name = "cuda",
    .id = QRU_BACKEND_CUDA,
    .default_nb = 32,
    .probe = qru_cu_probe,
    .init = qru_cu_init,
    .fini = qru_cu_fini,
    .supports = qru_cu_supports,
    .sync = qru_cu_sync,
    .mem_alloc = qru_cu_alloc,
    .mem_free = qru_cu_free,
    .upload = qru_cu_upload,
    .download = qru_cu_download,
    .copy = qru_cu_copy,
    .laset = qru_cu_laset,
    .transpose = qru_cu_transpose,
    .gemm = qru_cu_gemm,
    .trsm = qru_cu_trsm,
    .col_norms = qru_cu_col_norms,
    .house = qru_cu_house,
    .larf = qru_cu_larf,
    .wy_append = qru_cu_wy_append,
    .givens_make = qru_cu_givens_make,
    .givens_apply = qru_cu_givens_apply,
    .geadd = qru_cu_geadd,
    .default_chol_nb = 128,
    .syrk = qru_cu_syrk,
    .lacpy = qru_cu_lacpy,
    .potrf_panel = qru_cu_potrf_panel,
    .chol_rot = qru_cu_chol_rot,
};
