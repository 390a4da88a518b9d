/*
 * Internal interface of the Cholesky layer (chol.c, chol_update.c, gp.c):
 * the factorisation and the factor updates on (handle, offset) arrays,
 * written once for both precisions against the backend table.
 *
 * Failure information ("info") lives in device memory as ONE element of the
 * matrix' dtype holding an integer value (exact in float up to 2^24), so a
 * whole factorisation or update is queued without host round trips; the
 * host reads it once at the end (qru_chol_info_read).
 */
#ifndef QRU_CHOL_INTERNAL_H
#define QRU_CHOL_INTERNAL_H

#include "qru_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Workspace arrays are carved at multiples of 64 elements. */
static inline size_t qru_chol_align(size_t elems)
{
    return (elems + 63) / 64 * 64;
}

/* 1 if the context's backend implements the Cholesky ops. */
int qru_chol_ops_ok(const qru_context *ctx);

/* Effective block size: nb, or the backend default for nb = 0, clamped to
 * [1, max(n, 1)]. */
int qru_chol_nb(const qru_context *ctx, int nb, int n);

/* info = 0 (queued). */
int qru_chol_info_zero(qru_context *ctx, qru_dtype dt, qru_ptr info);
/* Synchronises and returns the value of info in *val. */
int qru_chol_info_read(qru_context *ctx, qru_dtype dt, qru_ptr info,
                       int *val);

/* Queues the factorisation of the uplo triangle of the n x n A in place
 * (variant QRU_CHOL_LEFT / RIGHT / CROUT, flags ignored).  Failure sets
 * info = base + column (1-based); later ops run on unspecified values but
 * do not touch columns (rows for 'U') before the failing one. */
int qru_potrf_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                  int lda, int variant, int nb, qru_ptr info, int base);

/* The whole factorisation of qru_chol_factor / qru_gp_create, in place:
 * the backend's vendor potrf (potrf_full) when qru_chol_use_vendor says
 * so, else qru_potrf_run with the block size qru_chol_nb(ctx, nb_asked,
 * n).  variant: QRU_CHOL_LEFT / RIGHT / CROUT (flags ignored); nb_asked:
 * the caller's nb (0 = "the fastest").  Synchronises once; returns 0,
 * info > 0 (first failing column, 1-based; A then holds partial results
 * as with QRU_CHOL_IN_PLACE) or a library status.  ws must hold
 * qru_chol_run_ws(...) elements (same ctx, dt, n, variant, nb_asked). */
int qru_chol_use_vendor(const qru_context *ctx, int n, int variant,
                        int nb_asked);
int qru_chol_run_ws(qru_context *ctx, qru_dtype dt, int n, int variant,
                    int nb_asked, size_t *elems);
int qru_chol_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                 int lda, int variant, int nb_asked, qru_ptr ws);

/* Updates of a LOWER factor L (n x n, ldl) written to L1 (ld1).  L1 may be
 * the same array as L (same handle, offset and leading dimension: the
 * factor is updated in place); otherwise they must not overlap.  Each
 * synchronises once, returns 0, info > 0 (L1 not written) or a library
 * status; ws must hold the number of elements its _ws function returns. */
size_t qru_chol_update_lower_ws(int n, int k);
int qru_chol_update_lower(qru_context *ctx, qru_dtype dt, int n, int k,
                          int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                          qru_ptr L1, int ld1, qru_ptr ws);

/* C is (n+p) x p (ldc), the new columns of A1; its diagonal block's
 * c2uplo triangle is read. */
size_t qru_chol_insert_lower_ws(int n, int k, int p);
int qru_chol_insert_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr C, int ldc, char c2uplo,
                          qru_ptr L1, int ld1, int nb, qru_ptr ws);

size_t qru_chol_delete_lower_ws(int n, int k, int p);
int qru_chol_delete_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr L1, int ld1,
                          qru_ptr ws);

#ifdef __cplusplus
}
#endif

#endif /* QRU_CHOL_INTERNAL_H */
