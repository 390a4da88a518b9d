/*
 * What the batched routines (chol_batch.c, lsq_batch.c) share: the
 * non-finite scan of every page, the split of a batch into op calls by
 * the workspace, the per-problem verdicts read back in one host wait, and
 * the per-problem counts uploaded for the ops.
 */
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"

int qru_batch_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                           char uplo, int k)
{
    if (!ctx->check_finite)
        return 0;
    qru_matrix pg = *M;
    pg.count = 1;
    for (int i = 0; i < M->count; ++i) {
        pg.p = qru_mat_page(M, i);
        QRU_TRY(qru_check_finite(ctx, argi, &pg, uplo, 'N', k));
    }
    return 0;
}

/* The problems of one op call where they need work in device memory: as
 * many as the tuning's batch_work_kib hold (0: 128 MiB), at least one. */
size_t qru_batch_part(const qru_context *ctx, qru_dtype dt, int local,
                      size_t pw, int count, size_t *work)
{
    int kib = qru_ctx_tuning(ctx, dt)->batch_work_kib;
    size_t cap = ((size_t)(kib > 0 ? kib : 128 << 10) << 10) /
                 qru_dtype_size(dt);
    size_t part = local ? (size_t)count : cap / (pw > 0 ? pw : 1);
    if (part < 1)
        part = 1;
    if (part > (size_t)count)
        part = (size_t)count;
    *work = (local ? 1 : part) * pw;
    return part;
}

int qru_batch_verdicts(qru_context *ctx, qru_dtype dt, int count,
                       qru_ptr dinfo, const void *any, int *info, int *first,
                       int *col)
{
    *first = -1;
    *col = 0;
    if (count <= 0)
        return 0;
    /* whether some problem failed first (the verdict flag after a wait,
     * or the count of failures: one number down): none, as mostly, and
     * the vector is not read */
    int nbad = 0, st;
    if (any) {
        st = ctx->ops->sync(ctx);
        nbad = qru_dtype_real(dt) == QRU_DOUBLE
                   ? *(const volatile double *)any != 0.0
                   : *(const volatile float *)any != 0.0f;
    } else {
        st = ctx->ops->count_nonzero(ctx, dt, count, dinfo, &nbad);
    }
    if (st)
        return st;
    if (nbad == 0 || qru_plan_healthy_info(ctx)) {
        if (info)
            memset(info, 0, sizeof(int) * (size_t)count);
        return 0;
    }
    double *h = malloc(sizeof(double) * (size_t)count);
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    st = qru_chol_read_row(ctx, dt, count, dinfo, 1, h);
    int failed = 0;
    for (int i = 0; !st && i < count; ++i) {
        int v = (int)h[i];
        if (info)
            info[i] = v;
        if (v != 0 && failed++ == 0) {
            *first = i;
            *col = v;
        }
    }
    free(h);
    return st ? st : failed;
}

/* The count values of hi (ints) or hd (doubles) uploaded to dst as
 * elements of type dt (complex: (v, 0)). */
static int batch_put(qru_context *ctx, qru_dtype dt, int count,
                     const int *hi, const double *hd, qru_ptr dst)
{
    if (count <= 0)
        return 0;
    size_t es = qru_dtype_size(dt);
    void *t = malloc(es * (size_t)count);
    if (!t)
        return QRU_HOST_ALLOC_FAILED;
    int cx = qru_dtype_complex(dt) ? 2 : 1;
    for (int i = 0; i < count; ++i) {
        double v = hi ? (double)hi[i] : hd[i];
        for (int c = 0; c < cx; ++c) {
            if (qru_dtype_real(dt) == QRU_DOUBLE)
                ((double *)t)[cx * i + c] = c ? 0.0 : v;
            else
                ((float *)t)[cx * i + c] = c ? 0.0f : (float)v;
        }
    }
    int st = ctx->ops->upload(ctx, dt, count, 1, t, count, dst, count);
    free(t);
    return st;
}

int qru_batch_counts(qru_context *ctx, qru_dtype dt, int count, const int *h,
                     qru_ptr dst)
{
    return batch_put(ctx, dt, count, h, NULL, dst);
}

int qru_batch_values(qru_context *ctx, qru_dtype dt, int count,
                     const double *h, qru_ptr dst)
{
    return batch_put(ctx, dt, count, NULL, h, dst);
}
