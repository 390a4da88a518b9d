/*
 * Batched Cholesky updates (qru_chol_update_batch), insertions
 * (qru_chol_insert_batch) and deletions (qru_chol_delete_batch): count
 * independent problems, one chol_update_batch, chol_insert_batch or
 * chol_delete_batch op for a part of the batch whose workspace fits, the
 * verdicts of all problems read back once at the end.  The _ex forms
 * take a per-problem rank (the update) or mask (insertion, deletion),
 * uploaded once for the ops, which leave a problem of rank 0 or mask 0
 * as it is.  Written once for the four element types against the backend
 * table.
 */
#include <stdlib.h>

#include "chol_internal.h"

/* What one call does to every problem: the rank-k update (W, sign), the
 * insertion of C's p columns at k, or the deletion of p rows and columns
 * at k. */
enum { CHOL_BATCH_UPDATE, CHOL_BATCH_INSERT, CHOL_BATCH_DELETE };

/* The batch in parts whose work fits, one op a part, then the verdicts of
 * all problems (one wait), the status and its text.  X: W or C; sel: the
 * per-problem ranks (the update) or mask, or NULL. */
static int chol_batch(qru_context *ctx, int what, char uplo,
                      const qru_matrix *L, const qru_matrix *X, int sign,
                      int k, int p, qru_matrix *L1, int *info,
                      const int *sel)
{
    qru_dtype dt = L->dtype;
    int n = L->rows, count = L->count, any = !sel;
    int n1 = what == CHOL_BATCH_INSERT   ? n + p
             : what == CHOL_BATCH_DELETE ? n - p
                                         : n;
    int r = what == CHOL_BATCH_UPDATE ? X->cols : p; /* the rank */
    for (int i = 0; !any && i < count; ++i)
        any = sel[i] != 0;
    if (n1 == 0 || count == 0 || !any) { /* nothing to do */
        for (int i = 0; info && i < count; ++i)
            info[i] = 0;
        return 0;
    }
    size_t we;
    size_t part = qru_batch_part(ctx, dt, qru_chol_batch_local(dt, n1, r),
                                 qru_chol_batch_work(n1, r), count, &we);
    size_t head = qru_chol_align((size_t)count), hs = sel ? head : 0;
    qru_ptr ws, dsel = {NULL, 0};
    QRU_TRY(qru_ctx_workspace(ctx, (head + hs + we) * qru_dtype_size(dt),
                              &ws));
    qru_ptr dinfo = ws, work = qru_ptr_add(ws, head + hs);
    if (sel) {
        dsel = qru_ptr_add(ws, head);
        QRU_TRY(qru_batch_counts(ctx, dt, count, sel, dsel));
    }
    for (int b = 0; b < count; b += (int)part) {
        int cnt = count - b < (int)part ? count - b : (int)part;
        qru_ptr pl = qru_mat_page(L, b), p1 = qru_mat_page(L1, b),
                di = qru_ptr_add(dinfo, (size_t)b),
                ds = sel ? qru_ptr_add(dsel, (size_t)b) : dsel;
        if (what == CHOL_BATCH_UPDATE)
            QRU_TRY(ctx->ops->chol_update_batch(
                ctx, dt, uplo, n, r, sign, cnt, pl, L->ld, L->stride,
                qru_mat_page(X, b), X->ld, X->stride, p1, L1->ld, L1->stride,
                di, ds, work));
        else if (what == CHOL_BATCH_INSERT)
            QRU_TRY(ctx->ops->chol_insert_batch(
                ctx, dt, uplo, n, k, p, cnt, pl, L->ld, L->stride,
                qru_mat_page(X, b), X->ld, X->stride, p1, L1->ld, L1->stride,
                di, ds, work));
        else
            QRU_TRY(ctx->ops->chol_delete_batch(ctx, dt, uplo, n, k, p, cnt,
                                                pl, L->ld, L->stride, p1,
                                                L1->ld, L1->stride, di, ds,
                                                work));
    }
    int first, col;
    int failed = qru_batch_verdicts(ctx, dt, count, dinfo, NULL, info, &first, &col);
    if (failed <= 0)
        return failed;
    return qru_fail(failed, "%d of %d problems not positive definite (the "
                            "first: problem %d (0-based), at column %d); "
                            "their pages are unchanged",
                    failed, count, first, col);
}

/* ctx (1), uplo (2) and the batch of square factors L (3; its uplo
 * triangles scanned with QRU_OPTION_CHECK_FINITE) of the batched
 * routines */
#define QRU_ARG_BATCH_UPLO_L(ctx, uplo, L)                                     \
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");                                      \
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");                                  \
    QRU_ARG_BATCH(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE);                  \
    QRU_ARG(ctx, 3, L->rows == L->cols,                                        \
            "L's pages are %d x %d, but they must be square", L->rows,         \
            L->cols);                                                          \
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 3, L, uplo, 0))

/* ... and the position k (4) of qru_chol_insert_batch and
 * qru_chol_delete_batch */
#define QRU_ARG_BATCH_UPLO_L_K(ctx, uplo, L, k)                                \
    QRU_ARG_BATCH_UPLO_L(ctx, uplo, L);                                        \
    QRU_ARG(ctx, 4, k >= 0 && k <= L->rows,                                    \
            "k = %d, but 0 <= k <= n = %d must hold (n: L's order)", k,        \
            L->rows)

/* L1 (6): count pages of order n1, L's memory (the same first element,
 * leading dimension and stride: in place) or none of it; not X's (W or
 * C, argument 4 or 5; NULL: none) */
#define QRU_ARG_BATCH_L1(ctx, L, L1, n1, X, xname)                             \
    QRU_ARG_BATCH(ctx, 6, "L1", L1, L->dtype);                                 \
    QRU_ARG(ctx, 6, L1->count == L->count,                                     \
            "L1 is a batch of %d matrices, but L of %d", L1->count,            \
            L->count);                                                         \
    QRU_ARG(ctx, 6, L1->rows == (n1) && L1->cols == (n1),                      \
            "L1's pages are %d x %d, but they must be %d x %d", L1->rows,      \
            L1->cols, (n1), (n1));                                             \
    QRU_ARG(ctx, 6, !(X) || !qru_batch_overlap(L1, (X)),                       \
            "L1 overlaps %s (they share memory)", xname);                      \
    QRU_ARG(ctx, 6, qru_batch_same_start(L, L1) || !qru_batch_overlap(L, L1), \
            "L1 overlaps L but does not start at L's first element with L's "  \
            "leading dimension and stride")

/* The per-problem argument i (8) of the _ex forms: count ints in
 * 0 .. hi (NULL: none), called name. */
static int chol_batch_sel_check(int i, const char *name, const int *sel,
                                int count, int hi)
{
    for (int b = 0; sel && b < count; ++b)
        if (sel[b] < 0 || sel[b] > hi)
            return qru_fail_arg(i, "%s[%d] = %d, but it must be in 0 .. %d",
                                name, b, sel[b], hi);
    return 0;
}

int qru_chol_update_batch(qru_context *ctx, char uplo, const qru_matrix *L,
                          const qru_matrix *W, int sign, qru_matrix *L1,
                          int *info)
{
    return qru_chol_update_batch_ex(ctx, uplo, L, W, sign, L1, info, NULL);
}

int qru_chol_update_batch_ex(qru_context *ctx, char uplo,
                             const qru_matrix *L, const qru_matrix *W,
                             int sign, qru_matrix *L1, int *info,
                             const int *rank)
{
    QRU_ARG_BATCH_UPLO_L(ctx, uplo, L);
    int n = L->rows, count = L->count;
    QRU_ARG_BATCH(ctx, 4, "W", W, L->dtype);
    QRU_ARG(ctx, 4, W->count == count,
            "W is a batch of %d matrices, but L of %d", W->count, count);
    QRU_ARG(ctx, 4, W->rows == n, "W has %d rows, but L's order is %d",
            W->rows, n);
    QRU_ARG(ctx, 4, !qru_batch_overlap(W, L),
            "W overlaps L (they share memory)");
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 4, W, 'A', 0));
    QRU_ARG(ctx, 5, sign == 1 || sign == -1,
            "sign = %d, but it must be +1 (update) or -1 (downdate)", sign);
    QRU_ARG_BATCH_L1(ctx, L, L1, n, W, "W");
    QRU_CHECK(ctx, chol_batch_sel_check(8, "rank", rank, count, W->cols));
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype,
                                         QRU_OPM(chol_update_batch)));
    QRU_RET(ctx, chol_batch(ctx, CHOL_BATCH_UPDATE, uplo, L, W, sign, 0, 0,
                            L1, info, rank));
}

int qru_chol_insert_batch(qru_context *ctx, char uplo, const qru_matrix *L,
                          int k, const qru_matrix *C, qru_matrix *L1,
                          int *info)
{
    return qru_chol_insert_batch_ex(ctx, uplo, L, k, C, L1, info, NULL);
}

int qru_chol_insert_batch_ex(qru_context *ctx, char uplo,
                             const qru_matrix *L, int k, const qru_matrix *C,
                             qru_matrix *L1, int *info, const int *mask)
{
    QRU_ARG_BATCH_UPLO_L_K(ctx, uplo, L, k);
    int n = L->rows, count = L->count;
    QRU_ARG_BATCH(ctx, 5, "C", C, L->dtype);
    QRU_ARG(ctx, 5, C->count == count,
            "C is a batch of %d matrices, but L of %d", C->count, count);
    QRU_ARG(ctx, 5, C->cols >= 1 && C->rows == n + C->cols,
            "C's pages are %d x %d, but they must be (n + p) x p with "
            "p >= 1 (n = %d)",
            C->rows, C->cols, n);
    QRU_ARG(ctx, 5, !qru_batch_overlap(C, L),
            "C overlaps L (they share memory)");
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 5, C, uplo, k));
    int p = C->cols;
    QRU_ARG_BATCH_L1(ctx, L, L1, n + p, C, "C");
    QRU_CHECK(ctx, chol_batch_sel_check(8, "mask", mask, count, 1));
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype,
                                         QRU_OPM(chol_insert_batch)));
    QRU_RET(ctx, chol_batch(ctx, CHOL_BATCH_INSERT, uplo, L, C, 0, k, p, L1,
                            info, mask));
}

int qru_chol_delete_batch(qru_context *ctx, char uplo, const qru_matrix *L,
                          int k, int p, qru_matrix *L1, int *info)
{
    return qru_chol_delete_batch_ex(ctx, uplo, L, k, p, L1, info, NULL);
}

int qru_chol_delete_batch_ex(qru_context *ctx, char uplo,
                             const qru_matrix *L, int k, int p,
                             qru_matrix *L1, int *info, const int *mask)
{
    QRU_ARG_BATCH_UPLO_L_K(ctx, uplo, L, k);
    int n = L->rows;
    QRU_ARG(ctx, 5, p >= 0, "p = %d, but p must be >= 0", p);
    QRU_ARG(ctx, 5, p <= n - k,
            "p = %d, but k + p must be <= n = %d (k = %d)", p, n, k);
    QRU_ARG_BATCH_L1(ctx, L, L1, n - p, NULL, "");
    QRU_CHECK(ctx, chol_batch_sel_check(8, "mask", mask, L->count, 1));
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype,
                                         QRU_OPM(chol_delete_batch)));
    QRU_RET(ctx, chol_batch(ctx, CHOL_BATCH_DELETE, uplo, L, NULL, 0, k, p,
                            L1, info, mask));
}
