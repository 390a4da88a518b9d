/*
 * Batched Cholesky updates (qru_chol_update_batch): count independent
 * rank-k updates or downdates, one chol_update_batch op for a part of the
 * batch whose workspace fits, the verdicts of all problems read back
 * once at the end.  Written once for both precisions against the backend
 * table.
 */
#include <stdlib.h>

#include "chol_internal.h"

static int chol_update_batch(qru_context *ctx, char uplo, const qru_matrix *L,
                             const qru_matrix *W, int sign, qru_matrix *L1,
                             int *info)
{
    qru_dtype dt = L->dtype;
    int n = L->rows, k = W->cols, count = L->count;
    if (n == 0 || count == 0) {
        for (int i = 0; info && i < count; ++i)
            info[i] = 0;
        return 0;
    }
    size_t we;
    size_t part = qru_batch_part(qru_chol_batch_local(n, k),
                                 qru_chol_batch_work(n, k), count, &we);
    size_t head = qru_chol_align((size_t)count);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, (head + we) * qru_dtype_size(dt), &ws));
    qru_ptr dinfo = ws, work = qru_ptr_add(ws, head);
    for (int b = 0; b < count; b += (int)part) {
        int cnt = count - b < (int)part ? count - b : (int)part;
        QRU_TRY(ctx->ops->chol_update_batch(
            ctx, dt, uplo, n, k, sign, cnt, qru_mat_page(L, b), L->ld,
            L->stride, qru_mat_page(W, b), W->ld, W->stride,
            qru_mat_page(L1, b), L1->ld, L1->stride,
            qru_ptr_add(dinfo, (size_t)b), work));
    }
    int first, col;
    int failed = qru_batch_verdicts(ctx, dt, count, dinfo, info, &first, &col);
    if (failed <= 0)
        return failed;
    return qru_fail(failed, "%d of %d problems not positive definite (the "
                            "first: problem %d (0-based), at column %d); "
                            "their pages are unchanged",
                    failed, count, first, col);
}

int qru_chol_update_batch(qru_context *ctx, char uplo, const qru_matrix *L,
                          const qru_matrix *W, int sign, qru_matrix *L1,
                          int *info)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");
    QRU_ARG_BATCH(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 3, L->rows == L->cols,
            "L's pages are %d x %d, but they must be square", L->rows,
            L->cols);
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 3, L, uplo));
    int n = L->rows, count = L->count;
    QRU_ARG_BATCH(ctx, 4, "W", W, L->dtype);
    QRU_ARG(ctx, 4, W->count == count,
            "W is a batch of %d matrices, but L of %d", W->count, count);
    QRU_ARG(ctx, 4, W->rows == n, "W has %d rows, but L's order is %d",
            W->rows, n);
    QRU_ARG(ctx, 4, !qru_batch_overlap(W, L),
            "W overlaps L (they share memory)");
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 4, W, 'A'));
    QRU_ARG(ctx, 5, sign == 1 || sign == -1,
            "sign = %d, but it must be +1 (update) or -1 (downdate)", sign);
    QRU_ARG_BATCH(ctx, 6, "L1", L1, L->dtype);
    QRU_ARG(ctx, 6, L1->count == count,
            "L1 is a batch of %d matrices, but L of %d", L1->count, count);
    QRU_ARG(ctx, 6, L1->rows == n && L1->cols == n,
            "L1's pages are %d x %d, but they must be n x n = %d x %d",
            L1->rows, L1->cols, n, n);
    QRU_ARG(ctx, 6, !qru_batch_overlap(L1, W),
            "L1 overlaps W (they share memory)");
    QRU_ARG(ctx, 6, qru_batch_same_start(L, L1) || !qru_batch_overlap(L, L1),
            "L1 overlaps L but does not start at L's first element with L's "
            "leading dimension and stride");
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_RET(ctx, chol_update_batch(ctx, uplo, L, W, sign, L1, info));
}
