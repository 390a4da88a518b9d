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
int qru_chol_ops_check(const qru_context *ctx);
/* The ops the Cholesky routines may reach with complex data (their check
 * qru_check_complex_ops): the factorisation's and solves' (potrf_panel,
 * the vendor's potrf, the BLAS), and for the update, insertion and
 * deletion also the rotations of chol_rot (their structured passes are
 * not chosen for complex data). */
#define QRU_CHOL_FACTOR_OPS                                                    \
    (QRU_OPS_DENSE | QRU_OPM(potrf_panel) | QRU_OPM(potrf_full))
#define QRU_CHOL_UPDATE_OPS (QRU_CHOL_FACTOR_OPS | QRU_OPM(chol_rot))

/* Effective block size: nb, or the backend default for nb = 0, clamped to
 * [1, max(n, 1)]. */
int qru_chol_nb(const qru_context *ctx, qru_dtype dt, int nb, int n);

/* info = 0 (queued). */
int qru_chol_info_zero(qru_context *ctx, qru_dtype dt, qru_ptr info);
/* Synchronises and returns the value of info in *val. */
int qru_chol_info_read(qru_context *ctx, qru_dtype dt, qru_ptr info,
                       int *val);

/* The definiteness rule of qru.h ("Rank and definiteness"), the one place
 * it is coded: the factor of the order-n A is judged not positive definite
 * at column j (status j, 1-based) when the pivot d_j = L(j,j)^2 is not
 * finite or d_j <= n * eps * max_i A(i,i) over the finite diagonal entries
 * of A (eps of dt), or when A(j,j) itself is not finite.
 * qru_chol_judge: adiag holds A(i,i), i < n (host, double); ldiag the
 * factor's diagonal L(j,j) for the columns the algorithm finished: all n
 * when info = 0, else the info - 1 before its failing column info (the
 * algorithm's own status: a pivot not > 0 or not finite, or a failed
 * rotation).  Returns the first column failing the rule, else info.
 * qru_chol_verdict_gathered reads those diagonal entries and the
 * algorithm's failure flag from the device in ONE transfer: the flag is
 * already queued at head[n] (head: n + 1 elements of device workspace,
 * carved as qru_chol_verdict_head(n)), entries t < n0 at P0 + t * s0 and
 * the rest at P1 + (t - n0) * s1 are gathered into head[0:n] on the
 * device, and the n + 1 values come back into the caller's scratch h
 * (n + 1 host doubles, allocated with adiag before anything was changed,
 * so that the verdict itself cannot fail to allocate).  A negative flag (a
 * vendor routine rejecting an argument) is QRU_ERR_INTERNAL. */
int qru_chol_judge(qru_dtype dt, int n, const double *adiag,
                   const double *ldiag, int info);
static inline size_t qru_chol_verdict_head(int n)
{
    return qru_chol_align((size_t)n + 1);
}
int qru_chol_verdict_gathered(qru_context *ctx, qru_dtype dt, int n,
                              const double *adiag, double *h, int n0,
                              qru_ptr P0, int s0, qru_ptr P1, int s1,
                              qru_ptr head);

/* Reads what an algorithm leaves on the device at head for the verdict:
 * the new factor's n pivots, its failure flag and the n diagonal entries
 * of the factored matrix (2 n + 1 elements), in one transfer into the
 * host scratch h (2 n + 1 doubles); the flag's value into *info (a
 * negative flag: QRU_ERR_INTERNAL).  The caller judges (qru_chol_judge). */
int qru_chol_verdict_read(qru_context *ctx, qru_dtype dt, int n,
                          qru_ptr head, double *h, int *info);

/* Squared Euclidean norms of the n rows of the n x c array A (host
 * doubles out): with lower != 0, A is a lower factor (c = n) of which only
 * the lower triangle is read, and out holds the diagonal of A A' (the
 * matrix the factor stands for).  Works through row blocks in ws, which
 * must hold qru_chol_rowsq_ws(n, c) elements; synchronises once a block. */
size_t qru_chol_rowsq_ws(int n, int c);
int qru_chol_rowsq(qru_context *ctx, qru_dtype dt, int n, int c, int lower,
                   qru_ptr A, int lda, qru_ptr ws, double *out);

/* Queues the factorisation of the uplo triangle of the n x n A in place
 * (variant QRU_CHOL_LEFT / RIGHT / CROUT, flags ignored).  Failure sets
 * info = base + column (1-based) and, by the failure state of potrf_panel
 * (qru_internal.h), leaves the columns (rows for 'U') before the failing
 * one holding their factor; later ops write only the columns from the
 * failing block's on, with unspecified values. */
int qru_potrf_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                  int lda, int variant, int nb, qru_ptr info, int base);

/* The whole factorisation of qru_chol_factor / qru_gp_create, in place:
 * the backend's vendor potrf (potrf_full) when qru_chol_use_vendor says
 * so, else qru_potrf_run with the block size qru_chol_nb(ctx, nb_asked,
 * n).  variant: QRU_CHOL_LEFT / RIGHT / CROUT (flags ignored); nb_asked:
 * the caller's nb (0 = "the fastest"); adiag: A's diagonal as it was
 * before (n host doubles) for the definiteness rule (qru_chol_judge), or
 * NULL: taken on the device before the factorisation; piv (n host doubles
 * or NULL) receives the factor's diagonal.  Everything is queued and read
 * back in one transfer at the end (the only synchronisation); returns 0,
 * the status of the rule (first failing column, 1-based; A then holds
 * partial results as with QRU_CHOL_IN_PLACE) or a library status.  ws
 * must hold qru_chol_run_ws(...) elements (same ctx, dt, n, variant,
 * nb_asked). */
int qru_chol_use_vendor(const qru_context *ctx, qru_dtype dt, int n, int variant,
                        int nb_asked);
int qru_chol_run_ws(qru_context *ctx, qru_dtype dt, int n, int variant,
                    int nb_asked, size_t *elems);
int qru_chol_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                 int lda, int variant, int nb_asked, qru_ptr ws,
                 const double *adiag, double *piv);

/* 1 when the output factor L1 of an update may be written while L is
 * read: L1 is L's array (the same first element and leading dimension:
 * in place) or shares no memory with it (qru_mat_overlap). */
int qru_chol_out_ok(const qru_matrix *L, const qru_matrix *L1);

/* Updates of a LOWER factor L (n x n, ldl) written to L1 (ld1).  L1 may be
 * the same array as L (same handle, offset and leading dimension: the
 * factor is updated in place); otherwise they must not overlap.  Each
 * returns 0, the status of the definiteness rule (qru_chol_judge) for the
 * new factor (L1 not written) or a library status; ws must hold the
 * number of elements its _ws function returns.  insert and delete take
 * the diagonal of the new matrix A1 (order n1: n + p, resp. n - p) as adiag
 * (host doubles) and piv, n1 + 1 host doubles of scratch: they queue the
 * failure flag and gather the new factor's pivots in their workspace and
 * read them back in one transfer (qru_chol_verdict_gathered); update
 * computes A1's diagonal from L and W. */
size_t qru_chol_update_lower_ws(int n, int k);
int qru_chol_update_lower(qru_context *ctx, qru_dtype dt, int n, int k,
                          int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                          qru_ptr L1, int ld1, qru_ptr ws);

/* The same update of a factor of either uplo (L1: L's array, in place,
 * or no overlap with it) in one structured pass of chol_r1_prep /
 * chol_r1_apply for all k vectors: P = L \ W (k = 1: with the prep in
 * chol_r1_solve_prep), the prep, the verdict read once, and L1 written
 * only after it, by the apply from L.  1 <= k <= 32. */
size_t qru_chol_update_r1_ws(int n, int k);
int qru_chol_update_r1(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       int k, int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                       qru_ptr L1, int ld1, qru_ptr ws);

/* C is (n+p) x p (ldc), the new columns of A1; its diagonal block's
 * c2uplo triangle is read. */
size_t qru_chol_insert_lower_ws(int n, int k, int p);
int qru_chol_insert_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr C, int ldc, char c2uplo,
                          qru_ptr L1, int ld1, int nb, qru_ptr ws,
                          const double *adiag, double *piv);

size_t qru_chol_delete_lower_ws(int n, int k, int p);
int qru_chol_delete_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr L1, int ld1,
                          qru_ptr ws, const double *adiag, double *piv);

#ifdef __cplusplus
}
#endif

#endif /* QRU_CHOL_INTERNAL_H */
