/* The least-squares object: an updatable QR factorisation of A with
 * d = Q' b, stored with spare capacity for added rows and columns. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "qru_internal.h"

/* The QR rank rule (qru_internal.h, include/qru.h): one place for
 * qru_lsq_solve, the add-columns update and its refactorisation path. */
int qru_qr_rank_gather(qru_context *ctx, qru_dtype dt, int rows, int c,
                       qru_ptr B, qru_ptr D, int ldr, double *diag,
                       double *norms)
{
    const qru_backend_ops *o = ctx->ops;
    int st;
    if (c <= 0)
        return 0;
    /* the diagonal is a c-vector with stride ldr + 1: a 1 x c matrix with
     * leading dimension ldr + 1 */
    if (dt == QRU_DOUBLE) {
        st = o->download(ctx, dt, 1, c, D, ldr + 1, diag, 1);
    } else {
        float *tmp = (float *)diag; /* c floats fit in c doubles */
        st = o->download(ctx, dt, 1, c, D, ldr + 1, tmp, 1);
        for (int i = c - 1; !st && i >= 0; --i)
            diag[i] = tmp[i];
    }
    if (!st)
        st = o->col_norms(ctx, dt, rows, c, B, ldr, norms);
    return st;
}

int qru_qr_rank_first(qru_dtype dt, int n, int m, int j0,
                      const double *diag, const double *norms)
{
    double mx = 0.0;
    for (int i = 0; i < m; ++i)
        if (isfinite(norms[i]) && norms[i] > mx)
            mx = norms[i];
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    double tol = (double)(n > m ? n : m) * eps * mx;
    for (int j = j0; j < m; ++j)
        if (!isfinite(diag[j]) || !(fabs(diag[j]) > tol))
            return qru_fail(j + 1, "rank deficient at column %d: |R(%d,%d)| "
                                   "= %g, but it must be > max(n, m) * eps "
                                   "* (largest column norm) = %g",
                            j + 1, j + 1, j + 1, fabs(diag[j]), tol);
    return 0;
}

void qru_lsq_options_init(qru_lsq_options *opt)
{
    if (!opt)
        return;
    opt->flags = QRU_LSQ_KEEP_Q;
    opt->nb = 0;
    opt->row_capacity = 0;
    opt->col_capacity = 0;
}

static void lsq_free_buffers(qru_context *ctx, qru_ptr *R, qru_ptr *Q,
                             qru_ptr *d)
{
    if (R->h)
        ctx->ops->mem_free(ctx, R->h);
    if (Q->h)
        ctx->ops->mem_free(ctx, Q->h);
    if (d->h)
        ctx->ops->mem_free(ctx, d->h);
    R->h = Q->h = d->h = NULL;
}

/* Allocates buffers for ncap x mcap R, ncap x ncap Q (if has_q) and
 * ncap x r d. */
static int lsq_alloc(qru_context *ctx, qru_dtype dt, int ncap, int mcap, int r,
                     int has_q, qru_ptr *R, qru_ptr *Q, qru_ptr *d)
{
    size_t es = qru_dtype_size(dt);
    const qru_backend_ops *o = ctx->ops;
    R->h = Q->h = d->h = NULL;
    R->off = Q->off = d->off = 0;
    size_t bR = 0, bQ = 0, bd = 0;
    int st = qru_bytes(es, ncap, mcap, &bR);
    if (!st)
        st = qru_bytes(es, ncap, has_q ? ncap : 0, &bQ);
    if (!st)
        st = qru_bytes(es, ncap, r, &bd);
    if (!st)
        st = o->mem_alloc(ctx, bR, &R->h);
    if (!st && has_q)
        st = o->mem_alloc(ctx, bQ, &Q->h);
    if (!st)
        st = o->mem_alloc(ctx, bd, &d->h);
    if (st)
        lsq_free_buffers(ctx, R, Q, d);
    return st;
}

int qru_lsq_reserve(qru_lsq *f, int n_new, int m_new)
{
    if (n_new <= f->ncap && m_new <= f->mcap)
        return 0;
    qru_context *ctx = f->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    size_t es = qru_dtype_size(dt);
    int ncap = f->ncap, mcap = f->mcap;
    if (n_new > ncap)
        ncap = n_new > ncap + ncap / 2 ? n_new : ncap + ncap / 2;
    if (m_new > mcap)
        mcap = m_new > mcap + mcap / 2 ? m_new : mcap + mcap / 2;
    int rows_grow = ncap != f->ncap;
    qru_ptr R = {0, 0}, Q = {0, 0}, d = {0, 0};
    int st;
    if (rows_grow) {
        /* the row capacity is every buffer's leading dimension */
        st = lsq_alloc(ctx, dt, ncap, mcap, f->r, f->has_q, &R, &Q, &d);
    } else {
        /* only R grows: Q and d keep their buffers */
        size_t bR = 0;
        st = qru_bytes(es, ncap, mcap, &bR);
        if (!st)
            st = o->mem_alloc(ctx, bR, &R.h);
    }
    if (st)
        return st;
    st = o->copy(ctx, dt, f->n, f->m, f->R, f->ncap, R, ncap);
    if (!st && rows_grow && f->has_q)
        st = o->copy(ctx, dt, f->n, f->n, f->Q, f->ncap, Q, ncap);
    if (!st && rows_grow)
        st = o->copy(ctx, dt, f->n, f->r, f->d, f->ncap, d, ncap);
    if (!st)
        st = o->sync(ctx);
    if (st) {
        lsq_free_buffers(ctx, &R, &Q, &d);
        return st;
    }
    if (rows_grow) {
        lsq_free_buffers(ctx, &f->R, &f->Q, &f->d);
        f->Q = Q;
        f->d = d;
    } else {
        o->mem_free(ctx, f->R.h);
    }
    f->R = R;
    f->ncap = ncap;
    f->mcap = mcap;
    return 0;
}

/* 0 when the options (argument i) fit an n x m problem, else -i. */
static int lsq_opts_check(int i, const qru_lsq_options *opt, int n, int m)
{
    if ((opt->flags & ~QRU_LSQ_KEEP_Q) != 0)
        return qru_fail_arg(i, "opt->flags = %#x has bits other than "
                               "QRU_LSQ_KEEP_Q", opt->flags);
    if (opt->nb < 0)
        return qru_fail_arg(i, "opt->nb = %d, but nb must be >= 0", opt->nb);
    if (opt->row_capacity != 0 && opt->row_capacity < n)
        return qru_fail_arg(i, "opt->row_capacity = %d, but it must be 0 or "
                               ">= n = %d", opt->row_capacity, n);
    if (opt->col_capacity != 0 && opt->col_capacity < m)
        return qru_fail_arg(i, "opt->col_capacity = %d, but it must be 0 or "
                               ">= m = %d", opt->col_capacity, m);
    return 0;
}

/* A new object of n x m with r right-hand sides and its buffers. */
static int lsq_new(qru_context *ctx, qru_dtype dt, int n, int m, int r,
                   int has_q, const qru_lsq_options *opt, qru_lsq **out)
{
    qru_lsq *f = calloc(1, sizeof *f);
    if (!f)
        return qru_fail(QRU_ERR_ALLOC, "allocating the factorisation object "
                                       "failed");
    f->ctx = ctx;
    f->dtype = dt;
    f->n = n;
    f->m = m;
    f->r = r;
    f->ncap = opt->row_capacity ? opt->row_capacity : n;
    f->mcap = opt->col_capacity ? opt->col_capacity : m;
    f->has_q = has_q;
    f->nb = opt->nb;
    f->upd_alg = QRU_UPDATE_AUTO; /* the default (include/qru.h) */
    int st = lsq_alloc(ctx, dt, f->ncap, f->mcap, r, has_q, &f->R, &f->Q,
                       &f->d);
    if (st) {
        free(f);
        return st;
    }
    *out = f;
    return 0;
}

int qru_lsq_create(qru_context *ctx, const qru_matrix *A, const qru_matrix *b,
                   const qru_lsq_options *opt, qru_lsq **out)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_MAT(ctx, 2, "A", A, A ? A->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 2, A->cols >= 1 && A->rows >= A->cols,
            "A is %d x %d, but it needs rows >= cols >= 1", A->rows, A->cols);
    QRU_CHECK(ctx, qru_check_finite(ctx, 2, A, 'A', 'N', 0));
    qru_dtype dt = A->dtype;
    QRU_ARG_MAT(ctx, 3, "b", b, dt);
    QRU_ARG(ctx, 3, b->rows == A->rows && b->cols >= 1,
            "b is %d x %d, but it needs A's %d rows and >= 1 column",
            b->rows, b->cols, A->rows);
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, b, 'A', 'N', 0));
    qru_lsq_options defaults;
    if (!opt) {
        qru_lsq_options_init(&defaults);
        opt = &defaults;
    }
    QRU_CHECK(ctx, lsq_opts_check(4, opt, A->rows, A->cols));
    QRU_ARG(ctx, 5, out, "f (the output) is NULL");
    int st;

    int n = A->rows, m = A->cols, r = b->cols;
    int has_q = (opt->flags & QRU_LSQ_KEEP_Q) != 0;
    const qru_backend_ops *o = ctx->ops;
    int nb = opt->nb ? opt->nb : qru_ctx_tuning(ctx, A->dtype)->qr_nb;
    if (nb > m)
        nb = m;
    qru_lsq *f;
    qru_ptr ws;
    st = lsq_new(ctx, dt, n, m, r, has_q, opt, &f);
    if (st)
        QRU_RET(ctx, st);
    /* qru_qr_full (qr.c): qru's blocked QR, or the backend's vendor QR when
     * opt->nb is 0 and qr.c's policy picks it */
    size_t need = 0;
    st = qru_qr_full_workspace(ctx, dt, n, m, has_q, r, nb, opt->nb, &need);
    if (!st)
        st = qru_ctx_workspace(ctx, need * qru_dtype_size(dt), &ws);
    if (!st)
        st = o->copy(ctx, dt, n, m, A->p, A->ld, f->R, f->ncap);
    if (!st)
        st = o->copy(ctx, dt, n, r, b->p, b->ld, f->d, f->ncap);
    if (!st)
        st = qru_qr_full(ctx, dt, n, m, f->R, f->ncap,
                         has_q ? f->Q : (qru_ptr){0, 0}, f->ncap, f->d,
                         f->ncap, r, nb, opt->nb, ws);
    if (st) {
        qru_lsq_destroy(f);
        QRU_RET(ctx, st);
    }
    *out = f;
    QRU_RET(ctx, 0);
}

int qru_lsq_create_from_qr(qru_context *ctx, const qru_matrix *Q,
                           const qru_matrix *R, const qru_matrix *d,
                           const qru_lsq_options *opt, qru_lsq **out)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    if (Q) {
        QRU_ARG(ctx, 2, Q->ctx == ctx, "Q belongs to another context");
        QRU_ARG(ctx, 2, Q->rows == Q->cols, "Q is %d x %d, but it must be "
                "square", Q->rows, Q->cols);
    }
    QRU_CHECK(ctx, qru_check_finite(ctx, 2, Q, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 3, "R", R, Q ? Q->dtype : R ? R->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 3, R->cols >= 1 && R->rows >= R->cols,
            "R is %d x %d, but it needs rows >= cols >= 1", R->rows, R->cols);
    QRU_ARG(ctx, 3, !Q || R->rows == Q->rows,
            "R has %d rows, but Q is %d x %d", R->rows, Q ? Q->rows : 0,
            Q ? Q->rows : 0);
    qru_dtype dt = R->dtype;
    int n = R->rows, m = R->cols;
    /* only triu(R) is read: the upper triangle of its first m rows */
    qru_matrix Rtop = *R;
    Rtop.rows = m;
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, &Rtop, 'U', 'N', 0));
    QRU_ARG_MAT(ctx, 4, "d", d, dt);
    QRU_ARG(ctx, 4, d->rows == n && d->cols >= 1,
            "d is %d x %d, but it needs R's %d rows and >= 1 column",
            d->rows, d->cols, n);
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, d, 'A', 'N', 0));
    qru_lsq_options defaults;
    if (!opt) {
        qru_lsq_options_init(&defaults);
        opt = &defaults;
    }
    QRU_CHECK(ctx, lsq_opts_check(5, opt, n, m));
    QRU_ARG(ctx, 6, out, "f (the output) is NULL");
    const qru_backend_ops *o = ctx->ops;
    qru_lsq *f;
    int st = lsq_new(ctx, dt, n, m, d->cols, Q != NULL, opt, &f);
    if (st)
        QRU_RET(ctx, st);
    st = o->copy(ctx, dt, n, m, R->p, R->ld, f->R, f->ncap);
    /* triu(R): zero the strictly lower part (rows 1.. of the 'L' part) */
    if (!st && n > 1)
        st = o->laset(ctx, dt, 'L', n - 1, m, 0.0, 0.0,
                      qru_ptr_add(f->R, 1), f->ncap);
    if (!st)
        st = o->copy(ctx, dt, n, d->cols, d->p, d->ld, f->d, f->ncap);
    if (!st && Q)
        st = o->copy(ctx, dt, n, n, Q->p, Q->ld, f->Q, f->ncap);
    if (st) {
        qru_lsq_destroy(f);
        QRU_RET(ctx, st);
    }
    *out = f;
    QRU_RET(ctx, 0);
}

void qru_lsq_destroy(qru_lsq *f)
{
    if (!f)
        return;
    f->ctx->ops->sync(f->ctx);
    lsq_free_buffers(f->ctx, &f->R, &f->Q, &f->d);
    free(f);
}

int qru_lsq_solve(const qru_lsq *f, qru_matrix *x)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG_MAT(ctx, 2, "x", x, f->dtype);
    QRU_ARG(ctx, 2, x->rows == f->m && x->cols == f->r,
            "x is %d x %d, but it must be m x r = %d x %d", x->rows, x->cols,
            f->m, f->r);
    const qru_backend_ops *o = ctx->ops;
    int m = f->m;
    /* the rank rule before x is touched (host round trip); the rows
     * 0 .. m-1 of R hold all of its nonzeros */
    double *diag = malloc(sizeof(double) * 2 * (size_t)m);
    if (!diag)
        QRU_RET(ctx, qru_fail(QRU_ERR_ALLOC, "allocating %d doubles failed",
                              2 * m));
    int st = qru_qr_rank_gather(ctx, f->dtype, m, m, f->R, f->R, f->ncap,
                                diag, diag + m);
    int bad = st ? 0
                 : qru_qr_rank_first(f->dtype, f->n, m, 0, diag, diag + m);
    free(diag);
    QRU_CHECK(ctx, st);
    QRU_CHECK(ctx, bad);
    QRU_CHECK(ctx, o->copy(ctx, f->dtype, m, f->r, f->d, f->ncap, x->p,
                           x->ld));
    QRU_RET(ctx, o->trsm(ctx, f->dtype, 'L', 'U', 'N', 'N', m, f->r, 1.0,
                         f->R, f->ncap, x->p, x->ld));
}

int qru_lsq_residual(const qru_lsq *f, double *res)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 2, res, "res (the output) is NULL");
    QRU_RET(ctx, ctx->ops->col_norms(ctx, f->dtype, f->n - f->m, f->r,
                                     qru_ptr_add(f->d, (size_t)f->m), f->ncap,
                                     res));
}

int qru_lsq_rows(const qru_lsq *f) { return f ? f->n : -1; }
int qru_lsq_cols(const qru_lsq *f) { return f ? f->m : -1; }
int qru_lsq_nrhs(const qru_lsq *f) { return f ? f->r : -1; }
int qru_lsq_has_q(const qru_lsq *f) { return f ? f->has_q : 0; }
qru_dtype qru_lsq_dtype(const qru_lsq *f) { return f ? f->dtype : (qru_dtype)0; }

/* Copies the rows x cols block src of f to M (argument 2), after M's
 * checks; the caller returns the status through QRU_RET. */
static int get_part(const qru_lsq *f, qru_matrix *M, const char *name,
                    qru_ptr src, int rows, int cols)
{
    qru_context *ctx = f->ctx;
    int st = qru_arg_matrix(ctx, 2, name, M, f->dtype);
    if (st)
        return st;
    if (M->rows != rows || M->cols != cols)
        return qru_fail_arg(2, "%s is %d x %d, but it must be %d x %d", name,
                            M->rows, M->cols, rows, cols);
    return ctx->ops->copy(ctx, f->dtype, rows, cols, src, f->ncap, M->p,
                          M->ld);
}

int qru_lsq_get_r(const qru_lsq *f, qru_matrix *R)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_RET(f->ctx, get_part(f, R, "R", f->R, f->n, f->m));
}

int qru_lsq_get_d(const qru_lsq *f, qru_matrix *d)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_RET(f->ctx, get_part(f, d, "d", f->d, f->n, f->r));
}

int qru_lsq_get_q(const qru_lsq *f, qru_matrix *Q)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG_MAT(ctx, 2, "Q", Q, f->dtype);
    QRU_ARG(ctx, 2, Q->rows == f->n && Q->cols == f->n,
            "Q is %d x %d, but it must be n x n = %d x %d", Q->rows, Q->cols,
            f->n, f->n);
    if (!f->has_q)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation was created "
                                            "without QRU_LSQ_KEEP_Q"));
    QRU_RET(ctx, get_part(f, Q, "Q", f->Q, f->n, f->n));
}
