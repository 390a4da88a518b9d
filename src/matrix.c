/* Matrices in a context's memory. */
#include <math.h>
#include <stdlib.h>

#include "qru_internal.h"

int qru_mat_ok(const qru_context *ctx, const qru_matrix *M, qru_dtype dt)
{
    return M && M->ctx == ctx && M->dtype == dt;
}

static int dtype_ok(qru_dtype dt) { return dt == QRU_FLOAT || dt == QRU_DOUBLE; }

static int new_matrix(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, void *mem, qru_matrix **M)
{
    qru_matrix *m = calloc(1, sizeof *m);
    if (!m)
        return QRU_ERR_ALLOC;
    m->ctx = ctx;
    m->dtype = dtype;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    if (mem) {
        m->p.h = mem;
    } else {
        size_t bytes = 0;
        int st = qru_bytes(qru_dtype_size(dtype), ld, cols, &bytes);
        if (!st)
            st = ctx->ops->mem_alloc(ctx, bytes, &m->p.h);
        if (st) {
            free(m);
            return st;
        }
        m->owned = 1;
    }
    *M = m;
    return 0;
}

int qru_matrix_create(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, qru_matrix **M)
{
    if (!ctx)
        return -1;
    if (!dtype_ok(dtype))
        return -2;
    if (rows < 0)
        return -3;
    if (cols < 0)
        return -4;
    if (ld == 0)
        ld = rows > 1 ? rows : 1;
    if (ld < rows || ld < 1)
        return -5;
    if (!M)
        return -6;
    if (!ctx->ops->supports(ctx, dtype))
        return QRU_ERR_UNSUPPORTED;
    return new_matrix(ctx, dtype, rows, cols, ld, NULL, M);
}

int qru_matrix_wrap(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    void *mem, int ld, qru_matrix **M)
{
    if (!ctx)
        return -1;
    if (!dtype_ok(dtype))
        return -2;
    if (rows < 0)
        return -3;
    if (cols < 0)
        return -4;
    if (!mem)
        return -5;
    if (ld == 0)
        ld = rows > 1 ? rows : 1;
    if (ld < rows || ld < 1)
        return -6;
    if (!M)
        return -7;
    if (!ctx->ops->supports(ctx, dtype))
        return QRU_ERR_UNSUPPORTED;
    return new_matrix(ctx, dtype, rows, cols, ld, mem, M);
}

int qru_matrix_upload(qru_matrix *M, const void *host, int ldh)
{
    if (!M)
        return -1;
    if (!host)
        return -2;
    if (ldh < M->rows || ldh < 1)
        return -3;
    return M->ctx->ops->upload(M->ctx, M->dtype, M->rows, M->cols, host, ldh,
                               M->p, M->ld);
}

int qru_matrix_download(const qru_matrix *M, void *host, int ldh)
{
    if (!M)
        return -1;
    if (!host)
        return -2;
    if (ldh < M->rows || ldh < 1)
        return -3;
    return M->ctx->ops->download(M->ctx, M->dtype, M->rows, M->cols, M->p,
                                 M->ld, host, ldh);
}

int qru_matrix_copy(const qru_matrix *A, qru_matrix *B)
{
    if (!A)
        return -1;
    if (!qru_mat_ok(A->ctx, B, A->dtype) || B->rows != A->rows ||
        B->cols != A->cols)
        return -2;
    if (A == B)
        return 0;
    return A->ctx->ops->copy(A->ctx, A->dtype, A->rows, A->cols, A->p, A->ld,
                             B->p, B->ld);
}

void qru_matrix_destroy(qru_matrix *M)
{
    if (!M)
        return;
    if (M->owned && M->p.h) {
        /* queued work may still read the buffer */
        M->ctx->ops->sync(M->ctx);
        M->ctx->ops->mem_free(M->ctx, M->p.h);
    }
    free(M);
}

int qru_matrix_rows(const qru_matrix *M) { return M ? M->rows : -1; }
int qru_matrix_cols(const qru_matrix *M) { return M ? M->cols : -1; }
int qru_matrix_ld(const qru_matrix *M) { return M ? M->ld : -1; }
qru_dtype qru_matrix_dtype(const qru_matrix *M)
{
    return M ? M->dtype : (qru_dtype)0;
}
void *qru_matrix_data(const qru_matrix *M) { return M ? M->p.h : NULL; }

/* One scan of the uplo part of the rows x cols array at A (laset's
 * convention); adds the count of non-finite elements to *bad. */
static int scan_part(qru_context *ctx, qru_dtype dt, char uplo, int rows,
                     int cols, qru_ptr A, int lda, long long *bad)
{
    int cnt = 0;
    if (rows <= 0 || cols <= 0)
        return 0;
    int st = ctx->ops->count_nonfinite(ctx, dt, uplo, rows, cols, A, lda,
                                       &cnt);
    *bad += cnt;
    return st;
}

int qru_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                     char uplo, char diag, int k)
{
    if (!ctx->check_finite || !M)
        return 0;
    qru_dtype dt = M->dtype;
    int rows = M->rows, c = M->cols, ld = M->ld;
    long long bad = 0;
    int st;
    if (uplo != 'L' && uplo != 'U') {
        st = scan_part(ctx, dt, 'A', rows, c, M->p, ld, &bad);
    } else {
        /* rows above the block, the block's triangle, rows below it */
        st = scan_part(ctx, dt, 'A', k, c, M->p, ld, &bad);
        if (!st && diag != 'U')
            st = scan_part(ctx, dt, uplo, c, c, qru_ptr_at(M->p, ld, k, 0),
                           ld, &bad);
        else if (!st && uplo == 'L') /* strictly lower */
            st = scan_part(ctx, dt, 'L', c - 1, c,
                           qru_ptr_at(M->p, ld, k + 1, 0), ld, &bad);
        else if (!st) /* strictly upper */
            st = scan_part(ctx, dt, 'U', c, c - 1,
                           qru_ptr_at(M->p, ld, k, 1), ld, &bad);
        if (!st)
            st = scan_part(ctx, dt, 'A', rows - k - c, c,
                           qru_ptr_at(M->p, ld, k + c, 0), ld, &bad);
    }
    if (st)
        return st;
    return bad ? -argi : 0;
}

int qru_check_finite_host(const qru_context *ctx, int argi, const double *x,
                          size_t n)
{
    if (!ctx->check_finite || !x)
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(x[i]))
            return -argi;
    return 0;
}
