/*
 * Batched Q-less least-squares factorisations (qru_lsq_batch_*): count
 * problems of the same m unknowns and r right-hand sides, each held as R
 * (m x m upper), d = Q' b (m x r) and the residual sums of squares rho2,
 * in the context's memory.  Creation is rows added to empty factorisations
 * (R = 0, d = 0, rho2 = 0) by the lsq_batch_add_rows op, the one
 * algorithm; the solve is the lsq_batch_solve op, its verdicts read back
 * in one host wait.  Written once for both precisions against the backend
 * table.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "chol_internal.h"

struct qru_lsq_batch {
    qru_context *ctx;
    qru_dtype dt;
    int m, r, count;
    int n;         /* the rows of every problem (they all gain the same) */
    qru_matrix *R; /* count m x m pages, strictly lower part zero */
    qru_matrix *D; /* count m x r pages */
    qru_matrix *H; /* rho2: r x count, column b the problem b */
};

/* The problems of one op call, and the workspace they need (elements). */
static size_t batch_part(int m, int r, int count, size_t *work)
{
    return qru_batch_part(qru_lsq_batch_local(m, r),
                          qru_lsq_batch_work(m, r), count, work);
}

/* The rows of U and E added to every problem (checked arguments). */
static int lsq_batch_add(qru_lsq_batch *fb, const qru_matrix *U,
                         const qru_matrix *E)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count, p = U->rows;
    if (count == 0 || p == 0)
        return 0;
    size_t we;
    size_t part = batch_part(m, r, count, &we);
    qru_ptr work;
    QRU_TRY(qru_ctx_workspace(ctx, we * qru_dtype_size(fb->dt), &work));
    for (int b = 0; b < count; b += (int)part) {
        int cnt = count - b < (int)part ? count - b : (int)part;
        QRU_TRY(ctx->ops->lsq_batch_add_rows(
            ctx, fb->dt, m, r, p, cnt, qru_mat_page(fb->R, b), fb->R->ld,
            fb->R->stride, qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
            qru_ptr_add(fb->H->p, (size_t)b * (size_t)r), qru_mat_page(U, b),
            U->ld, U->stride, qru_mat_page(E, b), E->ld, E->stride, work));
    }
    return 0;
}

/* The checks of the rows U (argument iu) and E (ie) for fb's problems. */
static int lsq_batch_check_rows(const qru_lsq_batch *fb, int iu,
                                const qru_matrix *U, int ie,
                                const qru_matrix *E, int minrows)
{
    const char *un = iu == 2 && minrows == 0 ? "A" : "U";
    const char *en = iu == 2 && minrows == 0 ? "b" : "e";
    qru_context *ctx = fb->ctx;
    QRU_TRY(qru_arg_batch(ctx, iu, un, U, fb->dt));
    if (U->count != fb->count)
        return qru_fail_arg(iu, "%s is a batch of %d matrices, but the "
                                "factorisations are %d",
                            un, U->count, fb->count);
    if (U->cols != fb->m)
        return qru_fail_arg(iu, "%s has %d columns, but the problems have "
                                "m = %d unknowns",
                            un, U->cols, fb->m);
    if (U->rows < minrows)
        return qru_fail_arg(iu, "%s has %d rows, but it must have at least %d",
                            un, U->rows, minrows);
    if ((long long)fb->n + U->rows > INT_MAX)
        return qru_fail_arg(iu, "%s's %d rows would make n > INT_MAX",
                            un, U->rows);
    if (fb->R && (qru_batch_overlap(U, fb->R) ||
                  qru_batch_overlap(U, fb->D) ||
                  qru_batch_overlap(U, fb->H)))
        return qru_fail_arg(iu, "%s overlaps the factorisation's storage", un);
    QRU_TRY(qru_batch_check_finite(ctx, iu, U, 'A'));
    QRU_TRY(qru_arg_batch(ctx, ie, en, E, fb->dt));
    if (E->count != fb->count)
        return qru_fail_arg(ie, "%s is a batch of %d matrices, but %s of %d",
                            en, E->count, un, fb->count);
    if (E->rows != U->rows)
        return qru_fail_arg(ie, "%s has %d rows, but %s has %d", en,
                            E->rows, un, U->rows);
    if (E->cols != fb->r)
        return qru_fail_arg(ie, "%s has %d columns, but the problems have "
                                "r = %d right-hand sides",
                            en, E->cols, fb->r);
    if (fb->R && (qru_batch_overlap(E, fb->R) ||
                  qru_batch_overlap(E, fb->D) ||
                  qru_batch_overlap(E, fb->H)))
        return qru_fail_arg(ie, "%s overlaps the factorisation's storage", en);
    QRU_TRY(qru_batch_check_finite(ctx, ie, E, 'A'));
    return 0;
}

void qru_lsq_batch_destroy(qru_lsq_batch *fb)
{
    if (!fb)
        return;
    qru_matrix_destroy(fb->R);
    qru_matrix_destroy(fb->D);
    qru_matrix_destroy(fb->H);
    free(fb);
}

static int lsq_batch_create(qru_context *ctx, const qru_matrix *A,
                            const qru_matrix *b, qru_lsq_batch **out)
{
    qru_lsq_batch *fb = calloc(1, sizeof(*fb));
    if (!fb)
        return QRU_HOST_ALLOC_FAILED;
    fb->ctx = ctx;
    fb->dt = A->dtype;
    fb->m = A->cols;
    fb->r = b->cols;
    fb->count = A->count;
    int m = fb->m, r = fb->r, count = fb->count, st;
    st = qru_matrix_create_batch(ctx, fb->dt, m, m, m, count, 0, &fb->R);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, m, r, m, count, 0, &fb->D);
    if (!st)
        st = qru_matrix_create(ctx, fb->dt, r, count > 0 ? count : 1, r,
                               &fb->H);
    if (!st && count > 0)
        st = ctx->ops->laset(ctx, fb->dt, 'A', m, m * count, 0.0, 0.0,
                             fb->R->p, m);
    if (!st && count > 0)
        st = ctx->ops->laset(ctx, fb->dt, 'A', m, r * count, 0.0, 0.0,
                             fb->D->p, m);
    if (!st)
        st = ctx->ops->laset(ctx, fb->dt, 'A', r, fb->H->cols, 0.0, 0.0,
                             fb->H->p, r);
    if (!st)
        st = lsq_batch_add(fb, A, b);
    if (st) {
        qru_lsq_batch_destroy(fb);
        return st;
    }
    fb->n = A->rows;
    *out = fb;
    return 0;
}

int qru_lsq_batch_create(qru_context *ctx, const qru_matrix *A,
                         const qru_matrix *b, qru_lsq_batch **fb)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_BATCH(ctx, 2, "A", A, A ? A->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 2, A->cols >= 1, "A has %d columns, but it needs m >= 1",
            A->cols);
    QRU_CHECK(ctx, qru_check_supports(ctx, A->dtype));
    qru_lsq_batch tmp = {ctx, A->dtype, A->cols, b ? b->cols : 1, A->count,
                         0, NULL, NULL, NULL};
    QRU_CHECK(ctx, lsq_batch_check_rows(&tmp, 2, A, 3, b, 0));
    QRU_ARG(ctx, 3, b->cols >= 1, "b has %d columns, but it needs r >= 1",
            b->cols);
    QRU_ARG(ctx, 4, fb, "fb is NULL");
    QRU_RET(ctx, lsq_batch_create(ctx, A, b, fb));
}

int qru_lsq_batch_add_rows(qru_lsq_batch *fb, const qru_matrix *U,
                           const qru_matrix *e)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_check_rows(fb, 2, U, 3, e, 1));
    int st = lsq_batch_add(fb, U, e);
    if (!st)
        fb->n += U->rows;
    QRU_RET(ctx, st);
}

static int lsq_batch_solve(const qru_lsq_batch *fb, qru_matrix *X, int *info)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count;
    if (count == 0)
        return 0;
    size_t we;
    size_t part = batch_part(m, r, count, &we);
    size_t head = qru_chol_align((size_t)count);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, (head + we) * qru_dtype_size(fb->dt),
                              &ws));
    qru_ptr dinfo = ws, work = qru_ptr_add(ws, head);
    for (int b = 0; b < count; b += (int)part) {
        int cnt = count - b < (int)part ? count - b : (int)part;
        QRU_TRY(ctx->ops->lsq_batch_solve(
            ctx, fb->dt, m, r, fb->n, cnt, qru_mat_page(fb->R, b), fb->R->ld,
            fb->R->stride, qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
            qru_mat_page(X, b), X->ld, X->stride,
            qru_ptr_add(dinfo, (size_t)b), work));
    }
    int first, col;
    int failed =
        qru_batch_verdicts(ctx, fb->dt, count, dinfo, info, &first, &col);
    if (failed <= 0)
        return failed;
    return qru_fail(failed, "%d of %d problems rank-deficient (the first: "
                            "problem %d (0-based), at column %d); their "
                            "pages of X are unchanged",
                    failed, count, first, col);
}

int qru_lsq_batch_solve(const qru_lsq_batch *fb, qru_matrix *X, int *info)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_ARG_BATCH(ctx, 2, "X", X, fb->dt);
    QRU_ARG(ctx, 2, X->count == fb->count,
            "X is a batch of %d matrices, but the factorisations are %d",
            X->count, fb->count);
    QRU_ARG(ctx, 2, X->rows == fb->m && X->cols == fb->r,
            "X's pages are %d x %d, but they must be m x r = %d x %d",
            X->rows, X->cols, fb->m, fb->r);
    QRU_ARG(ctx, 2,
            !qru_batch_overlap(X, fb->R) && !qru_batch_overlap(X, fb->D) &&
                !qru_batch_overlap(X, fb->H),
            "X overlaps the factorisation's storage");
    QRU_RET(ctx, lsq_batch_solve(fb, X, info));
}

int qru_lsq_batch_residual_norms(const qru_lsq_batch *fb, double *rho)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_ARG(ctx, 2, rho || fb->count == 0, "rho is NULL");
    if (fb->count == 0)
        QRU_RET(ctx, 0);
    int cnt = fb->count * fb->r;
    QRU_CHECK(ctx, qru_chol_read_row(ctx, fb->dt, cnt, fb->H->p, 1, rho));
    for (int i = 0; i < cnt; ++i)
        rho[i] = sqrt(rho[i]);
    QRU_RET(ctx, 0);
}

/* A page-by-page copy of the storage S into the caller's batch M
 * (argument 2, called name). */
static int lsq_batch_get(const qru_lsq_batch *fb, const qru_matrix *S,
                         qru_matrix *M, const char *name)
{
    qru_context *ctx = fb->ctx;
    QRU_TRY(qru_arg_batch(ctx, 2, name, M, fb->dt));
    if (M->count != fb->count)
        return qru_fail_arg(2, "%s is a batch of %d matrices, but the "
                               "factorisations are %d",
                            name, M->count, fb->count);
    if (M->rows != S->rows || M->cols != S->cols)
        return qru_fail_arg(2, "%s's pages are %d x %d, but they must be "
                               "%d x %d",
                            name, M->rows, M->cols, S->rows, S->cols);
    if (qru_batch_overlap(M, fb->R) || qru_batch_overlap(M, fb->D) ||
        qru_batch_overlap(M, fb->H))
        return qru_fail_arg(2, "%s overlaps the factorisation's storage",
                            name);
    for (int i = 0; i < fb->count; ++i)
        QRU_TRY(ctx->ops->copy(ctx, fb->dt, S->rows, S->cols,
                               qru_mat_page(S, i), S->ld, qru_mat_page(M, i),
                               M->ld));
    return 0;
}

int qru_lsq_batch_get_r(const qru_lsq_batch *fb, qru_matrix *R)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    QRU_RET(fb->ctx, lsq_batch_get(fb, fb->R, R, "R"));
}

int qru_lsq_batch_get_d(const qru_lsq_batch *fb, qru_matrix *d)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    QRU_RET(fb->ctx, lsq_batch_get(fb, fb->D, d, "d"));
}

int qru_lsq_batch_count(const qru_lsq_batch *fb)
{
    return fb ? fb->count : -1;
}

int qru_lsq_batch_cols(const qru_lsq_batch *fb)
{
    return fb ? fb->m : -1;
}

int qru_lsq_batch_nrhs(const qru_lsq_batch *fb)
{
    return fb ? fb->r : -1;
}

int qru_lsq_batch_rows(const qru_lsq_batch *fb, int i)
{
    return fb && i >= 0 && i < fb->count ? fb->n : -1;
}
