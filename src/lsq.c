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
    st = qru_chol_read_row(ctx, dt, c, D, ldr + 1, diag);
    if (!st)
        st = o->col_norms(ctx, dt, rows, c, B, ldr, norms);
    return st;
}

int qru_qr_rank_queue(qru_context *ctx, qru_dtype dt, int rows, int c,
                      qru_ptr B, qru_ptr D, int ldr, qru_ptr diag,
                      qru_ptr norms)
{
    const qru_backend_ops *o = ctx->ops;
    if (c <= 0)
        return 0;
    QRU_TRY(o->copy(ctx, dt, 1, c, D, ldr + 1, diag, 1));
    return o->col_norms_dev(ctx, dt, rows, c, B, ldr, norms);
}

int qru_qr_rank_first(qru_dtype dt, int n, int m, int j0,
                      const double *diag, const double *norms)
{
    double mx = 0.0;
    for (int i = 0; i < m; ++i)
        if (isfinite(norms[i]) && norms[i] > mx)
            mx = norms[i];
    double eps = qru_dtype_eps(dt);
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
    opt->q = QRU_Q_FULL;
    opt->nb = 0;
    opt->row_capacity = 0;
    opt->col_capacity = 0;
    opt->adopt = 0;
    opt->rank = QRU_RANK_REFUSE;
}

/* The device buffers of a factorisation: R, Q, d, E, G, c (see struct
 * qru_lsq). */
enum { LB_R, LB_Q, LB_D, LB_E, LB_G, LB_C, LB_COUNT };

/* Rows and columns of buffer b of form q at capacities ncap x mcap with
 * r right-hand sides (0 x 0: the form has no such buffer). */
static void lsq_buf_shape(int b, int q, int ncap, int mcap, int r, int *rows,
                          int *cols)
{
    int full = q == QRU_Q_FULL;
    int ldr = full ? ncap : mcap;
    *rows = *cols = 0;
    if (b == LB_R) {
        *rows = ldr;
        *cols = mcap;
    } else if (b == LB_D) {
        *rows = ldr;
        *cols = r;
    } else if (b == LB_Q && q != QRU_Q_NONE) {
        *rows = ncap;
        *cols = full ? ncap : mcap;
    } else if (b == LB_E && q == QRU_Q_THIN) {
        *rows = ncap;
        *cols = r;
    } else if ((b == LB_G || b == LB_C) && q == QRU_Q_NONE) {
        *rows = mcap;
        *cols = b == LB_G ? mcap : r;
    }
}

static qru_ptr *lsq_buf(qru_lsq *f, int b)
{
    qru_ptr *const buf[LB_COUNT] = {&f->R, &f->Q, &f->d, &f->E, &f->G, &f->c};
    return buf[b];
}

/* The rows x cols of buffer b that hold the factorisation. */
static void lsq_buf_used(const qru_lsq *f, int b, int *rows, int *cols)
{
    int rr = qru_lsq_rrows(f);
    *rows = b == LB_Q || b == LB_E ? f->n : rr;
    *cols = b == LB_R || b == LB_G ? f->m
            : b == LB_Q            ? (f->q == QRU_Q_FULL ? f->n : f->m)
                                   : f->r;
}

int qru_lsq_arg_apart(const qru_lsq *f, int i, const char *name,
                      const qru_matrix *M)
{
    static const char *const bname[LB_COUNT] = {"R", "Q", "d", "E", "G",
                                                "c"};
    const qru_ptr buf[LB_COUNT] = {f->R, f->Q, f->d, f->E, f->G, f->c};
    for (int b = 0; b < LB_COUNT; ++b) {
        int rows, cols;
        lsq_buf_shape(b, f->q, f->ncap, f->mcap, f->r, &rows, &cols);
        if (buf[b].h &&
            qru_mem_overlap(f->ctx, qru_dtype_size(f->dtype), buf[b], rows,
                            cols, rows, M->p, M->rows, M->cols, M->ld))
            return qru_fail_arg(i, "%s overlaps the factorisation's storage "
                                   "(its %s)", name, bname[b]);
    }
    return 0;
}

static void lsq_free_set(qru_context *ctx, qru_ptr *set, int count)
{
    for (int b = 0; b < count; ++b) {
        if (set[b].h)
            ctx->ops->mem_free(ctx, set[b].h);
        set[b].h = NULL;
    }
}

/* Allocates the buffers of f's form at ncap x mcap into set; with only
 * nonzero, only those whose shape differs from f's current ones (the
 * others stay NULL).  set is all NULL after a failure. */
static int lsq_alloc_set(qru_lsq *f, int ncap, int mcap, int changed_only,
                         qru_ptr *set)
{
    qru_context *ctx = f->ctx;
    size_t es = qru_dtype_size(f->dtype);
    int st = 0;
    for (int b = 0; b < LB_COUNT; ++b) {
        set[b].h = NULL;
        set[b].off = 0;
    }
    for (int b = 0; !st && b < LB_COUNT; ++b) {
        int rows, cols, orows, ocols;
        lsq_buf_shape(b, f->q, ncap, mcap, f->r, &rows, &cols);
        lsq_buf_shape(b, f->q, f->ncap, f->mcap, f->r, &orows, &ocols);
        if (rows == 0 || (changed_only && rows == orows && cols == ocols))
            continue;
        if (!changed_only && (f->adopted >> b & 1u))
            continue; /* the caller's buffer (qru_lsq_create_from_qr) */
        size_t bytes = 0;
        st = qru_bytes(es, rows, cols, &bytes);
        if (!st)
            st = ctx->ops->mem_alloc(ctx, bytes, &set[b].h);
    }
    if (st)
        lsq_free_set(ctx, set, LB_COUNT);
    return st;
}

int qru_lsq_reserve(qru_lsq *f, int n_new, int m_new)
{
    if (n_new <= f->ncap && m_new <= f->mcap)
        return 0;
    qru_context *ctx = f->ctx;
    const qru_backend_ops *o = ctx->ops;
    int ncap = f->ncap, mcap = f->mcap;
    if (n_new > ncap)
        ncap = n_new > ncap + ncap / 2 ? n_new : ncap + ncap / 2;
    if (m_new > mcap)
        mcap = m_new > mcap + mcap / 2 ? m_new : mcap + mcap / 2;
    qru_ptr set[LB_COUNT];
    int st = lsq_alloc_set(f, ncap, mcap, 1, set);
    if (st)
        return st;
    int nld = f->q == QRU_Q_FULL ? ncap : mcap; /* the new ldr */
    for (int b = 0; !st && b < LB_COUNT; ++b) {
        int rows, cols;
        if (!set[b].h)
            continue;
        lsq_buf_used(f, b, &rows, &cols);
        int old_ld = b == LB_Q || b == LB_E ? f->ncap : f->ldr;
        int new_ld = b == LB_Q || b == LB_E ? ncap : nld;
        st = o->copy(ctx, f->dtype, rows, cols, *lsq_buf(f, b), old_ld, set[b],
                     new_ld);
    }
    if (!st)
        st = o->sync(ctx);
    if (st) {
        lsq_free_set(ctx, set, LB_COUNT);
        return st;
    }
    for (int b = 0; b < LB_COUNT; ++b) {
        if (!set[b].h)
            continue;
        if (f->adopted >> b & 1u)
            f->adopted &= ~(1u << b); /* the caller's buffer is left */
        else
            lsq_free_set(ctx, lsq_buf(f, b), 1);
        *lsq_buf(f, b) = set[b];
    }
    f->ncap = ncap;
    f->mcap = mcap;
    f->ldr = nld;
    return 0;
}

/* 0 when the options (argument i) fit an n x m problem, else -i;
 * adopt: the routine takes opt->adopt (qru_lsq_create_from_qr with a
 * Q). */
static int lsq_opts_check(int i, const qru_lsq_options *opt, int n, int m,
                          int adopt)
{
    if (opt->q != QRU_Q_FULL && opt->q != QRU_Q_THIN && opt->q != QRU_Q_NONE)
        return qru_fail_arg(i, "opt->q = %d is not a qru_lsq_q value "
                               "(QRU_Q_FULL, QRU_Q_THIN, QRU_Q_NONE)", opt->q);
    if (opt->nb < 0)
        return qru_fail_arg(i, "opt->nb = %d, but nb must be >= 0", opt->nb);
    if (opt->row_capacity != 0 && opt->row_capacity < n)
        return qru_fail_arg(i, "opt->row_capacity = %d, but it must be 0 or "
                               ">= n = %d", opt->row_capacity, n);
    if (opt->col_capacity != 0 && opt->col_capacity < m)
        return qru_fail_arg(i, "opt->col_capacity = %d, but it must be 0 or "
                               ">= m = %d", opt->col_capacity, m);
    if (opt->adopt & ~(QRU_ADOPT_Q | QRU_ADOPT_R))
        return qru_fail_arg(i, "opt->adopt = %d is not a set of "
                               "qru_lsq_adopt flags", opt->adopt);
    if (opt->rank != QRU_RANK_REFUSE && opt->rank != QRU_RANK_ACCEPT)
        return qru_fail_arg(i, "opt->rank = %d is not a qru_lsq_rank value "
                               "(QRU_RANK_REFUSE, QRU_RANK_ACCEPT)",
                            opt->rank);
    if (opt->adopt && !adopt)
        return qru_fail_arg(i, "opt->adopt = %d, but only "
                               "qru_lsq_create_from_qr with a Q adopts",
                            opt->adopt);
    if (opt->adopt && (opt->row_capacity || opt->col_capacity))
        return qru_fail_arg(i, "opt->adopt is set, so row_capacity (%d) "
                               "and col_capacity (%d) must be 0 (the "
                               "capacity is the adopted buffers')",
                            opt->row_capacity, opt->col_capacity);
    return 0;
}

/* A new object of n x m with r right-hand sides in form q and its
 * buffers. */
static int lsq_new(qru_context *ctx, qru_dtype dt, int n, int m, int r,
                   int q, const qru_lsq_options *opt, qru_lsq **out)
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
    f->q = q;
    f->has_q = q == QRU_Q_FULL;
    f->nb = opt->nb;
    f->rank = opt->rank;
    if (q != QRU_Q_NONE)
        f->adopted = (opt->adopt & QRU_ADOPT_Q ? 1u << LB_Q : 0u) |
                     (opt->adopt & QRU_ADOPT_R ? 1u << LB_R : 0u);
    f->upd_alg = QRU_UPDATE_AUTO; /* the default (include/qru.h) */
    int ncap = opt->row_capacity ? opt->row_capacity : n;
    int mcap = opt->col_capacity ? opt->col_capacity : m;
    f->ldr = q == QRU_Q_FULL ? ncap : mcap;
    if (q == QRU_Q_NONE) {
        /* the r norms and r doubles of scratch (qru_upd_rho_add) */
        f->rho = calloc(2 * (size_t)r, sizeof(double));
        if (!f->rho) {
            free(f);
            return qru_fail(QRU_ERR_ALLOC, "allocating %d residual norms "
                                           "failed", r);
        }
    }
    qru_ptr set[LB_COUNT];
    int st = lsq_alloc_set(f, ncap, mcap, 0, set);
    if (st) {
        free(f->rho);
        free(f);
        return st;
    }
    f->R = set[LB_R];
    f->Q = set[LB_Q];
    f->d = set[LB_D];
    f->E = set[LB_E];
    f->G = set[LB_G];
    f->c = set[LB_C];
    f->ncap = ncap;
    f->mcap = mcap;
    *out = f;
    return 0;
}

/* The column norms of the rows x c array X (c doubles), 0 for rows = 0. */
static int lsq_norms(qru_context *ctx, qru_dtype dt, int rows, int c,
                     qru_ptr X, int ldx, double *out)
{
    if (rows <= 0) {
        for (int j = 0; j < c; ++j)
            out[j] = 0.0;
        return 0;
    }
    return ctx->ops->col_norms(ctx, dt, rows, c, X, ldx, out);
}

/* Factorises A, b (checked) into the new object f in its form. */
static int lsq_factor(qru_context *ctx, qru_lsq *f, const qru_matrix *A,
                      const qru_matrix *b, int nb, int nb_asked)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r;
    size_t es = qru_dtype_size(dt), need = 0;
    qru_ptr ws, none = {0, 0};
    if (f->q == QRU_Q_THIN) {
        /* A into Q1's buffer, b into E's: qru_geqr_thin turns them into Q1
         * and the residuals */
        QRU_TRY(qru_geqr_thin_workspace(ctx, dt, n, m, r, nb, nb_asked,
                                        &need));
        QRU_TRY(qru_ctx_workspace(ctx, need * es, &ws));
        QRU_TRY(o->copy(ctx, dt, n, m, A->p, A->ld, f->Q, f->ncap));
        QRU_TRY(o->copy(ctx, dt, n, r, b->p, b->ld, f->E, f->ncap));
        return qru_geqr_thin(ctx, dt, n, m, f->Q, f->ncap, f->R, f->ldr, f->E,
                             f->ncap, f->d, f->ldr, r, nb, nb_asked, ws);
    }
    /* qru_qr_full (qr.c): qru's blocked QR, or the backend's vendor QR when
     * nb_asked is 0 and qr.c's policy picks it; the Q-less form factors
     * copies of A and b in workspace and keeps R(1:m, :), d(1:m, :) and the
     * norms of d(m+1:n, :) */
    int full = f->q == QRU_Q_FULL;
    QRU_TRY(qru_qr_full_workspace(ctx, dt, n, m, full, r, nb, nb_asked,
                                  &need));
    size_t extra = full ? 0 : (size_t)n * (size_t)(m + r);
    QRU_TRY(qru_ctx_workspace(ctx, (need + extra) * es, &ws));
    qru_ptr Aw = full ? f->R : qru_ptr_add(ws, need);
    qru_ptr bw = full ? f->d : qru_ptr_add(Aw, (size_t)n * m);
    int lda = full ? f->ncap : n;
    QRU_TRY(o->copy(ctx, dt, n, m, A->p, A->ld, Aw, lda));
    QRU_TRY(o->copy(ctx, dt, n, r, b->p, b->ld, bw, lda));
    QRU_TRY(qru_qr_full(ctx, dt, n, m, Aw, lda, full ? f->Q : none, f->ncap,
                        bw, lda, r, nb, nb_asked, ws));
    if (full)
        return 0;
    QRU_TRY(o->copy(ctx, dt, m, m, Aw, lda, f->R, f->ldr));
    if (m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(f->R, 1), f->ldr));
    QRU_TRY(o->copy(ctx, dt, m, r, bw, lda, f->d, f->ldr));
    QRU_TRY(o->syrk(ctx, dt, 'U', 'C', m, n, 1.0, A->p, A->ld, 0.0, f->G,
                    f->ldr));
    QRU_TRY(o->gemm(ctx, dt, 'C', 'N', m, r, n, 1.0, A->p, A->ld, b->p,
                    b->ld, 0.0, f->c, f->ldr));
    return lsq_norms(ctx, dt, n - m, r, qru_ptr_add(bw, (size_t)m), lda,
                     f->rho);
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
    QRU_CHECK(ctx, lsq_opts_check(4, opt, A->rows, A->cols, 0));
    QRU_ARG(ctx, 5, out, "f (the output) is NULL");
    int st;

    int n = A->rows, m = A->cols, r = b->cols, q = opt->q;
    int nb = opt->nb ? opt->nb : qru_ctx_tuning(ctx, A->dtype)->qr_nb;
    if (nb > m)
        nb = m;
    qru_lsq *f;
    st = lsq_new(ctx, dt, n, m, r, q, opt, &f);
    if (st)
        QRU_RET(ctx, st);
    st = lsq_factor(ctx, f, A, b, nb, opt->nb);
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
    int q = QRU_Q_NONE;
    if (Q) {
        QRU_ARG_MAT(ctx, 2, "Q", Q, Q->dtype);
        QRU_ARG(ctx, 2, Q->rows >= Q->cols,
                "Q is %d x %d, but it must be n x n or n x m with n >= m",
                Q->rows, Q->cols);
        q = Q->rows == Q->cols ? QRU_Q_FULL : QRU_Q_THIN;
    }
    QRU_CHECK(ctx, qru_check_finite(ctx, 2, Q, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 3, "R", R, Q ? Q->dtype : R ? R->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 3, R->cols >= 1 && R->rows >= R->cols,
            "R is %d x %d, but it needs rows >= cols >= 1", R->rows, R->cols);
    QRU_ARG(ctx, 3, q != QRU_Q_FULL || R->rows == Q->rows,
            "R has %d rows, but Q is %d x %d", R->rows, Q ? Q->rows : 0,
            Q ? Q->rows : 0);
    QRU_ARG(ctx, 3, q != QRU_Q_THIN ||
                        (R->cols == Q->cols &&
                         (R->rows == Q->cols || R->rows == Q->rows)),
            "R is %d x %d, but with the economy Q (%d x %d) it must be "
            "%d x %d (or %d x %d)", R->rows, R->cols, Q ? Q->rows : 0,
            Q ? Q->cols : 0, Q ? Q->cols : 0, Q ? Q->cols : 0,
            Q ? Q->rows : 0, Q ? Q->cols : 0);
    qru_dtype dt = R->dtype;
    int n = q == QRU_Q_THIN ? Q->rows : R->rows, m = R->cols;
    /* only triu(R) is read: the upper triangle of its first m rows */
    qru_matrix Rtop = *R;
    Rtop.rows = m;
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, &Rtop, 'U', 'N', 0));
    QRU_ARG_MAT(ctx, 4, "d", d, dt);
    int drows = q == QRU_Q_THIN ? m : n;
    QRU_ARG(ctx, 4, d->rows == drows && d->cols >= 1,
            "d is %d x %d, but it needs %d rows (%s) and >= 1 column",
            d->rows, d->cols, drows,
            q == QRU_Q_THIN ? "the economy Q's columns" : "R's rows");
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, d, 'A', 'N', 0));
    qru_lsq_options defaults;
    if (!opt) {
        qru_lsq_options_init(&defaults);
        opt = &defaults;
    }
    qru_lsq_options o1 = *opt;
    o1.q = q; /* the shape of Q decides */
    QRU_CHECK(ctx, lsq_opts_check(5, &o1, n, m, Q != NULL));
    /* an adopted Q sets the capacity: ld rows (a full Q: ld = n, since
     * its buffer holds only n columns) and Q's columns */
    int aq = (o1.adopt & QRU_ADOPT_Q) != 0, ar = (o1.adopt & QRU_ADOPT_R) != 0;
    QRU_ARG(ctx, 5, !aq || q != QRU_Q_FULL || Q->ld == n,
            "opt->adopt has QRU_ADOPT_Q, which needs a full Q with ld = n "
            "(Q is %d x %d with ld %d)", n, n, Q ? Q->ld : 0);
    if (o1.adopt) {
        o1.row_capacity = aq ? Q->ld : n;
        o1.col_capacity = m;
    }
    /* an adopted R is the storage: rrows x m with the object's ldr (full:
     * the row capacity; economy: m) */
    int rr0 = q == QRU_Q_FULL ? n : m;
    int ldr0 = q == QRU_Q_FULL ? o1.row_capacity : m;
    QRU_ARG(ctx, 5, !ar || (R->rows == rr0 && R->ld == ldr0),
            "opt->adopt has QRU_ADOPT_R, which needs R %d x %d with ld %d "
            "(R is %d x %d with ld %d)", rr0, m, ldr0, R->rows, R->cols,
            R->ld);
    QRU_ARG(ctx, 6, out, "f (the output) is NULL");
    const qru_backend_ops *o = ctx->ops;
    qru_lsq *f;
    int r = d->cols;
    int st = lsq_new(ctx, dt, n, m, r, q, &o1, &f);
    if (st)
        QRU_RET(ctx, st);
    int rr = qru_lsq_rrows(f);
    if (f->adopted >> LB_R & 1u)
        f->R = R->p; /* ld R->ld = ldr */
    else
        st = o->copy(ctx, dt, rr, m, R->p, R->ld, f->R, f->ldr);
    /* triu(R): zero the strictly lower part (rows 1.. of the 'L' part) */
    if (!st && rr > 1)
        st = o->laset(ctx, dt, 'L', rr - 1, m, 0.0, 0.0,
                      qru_ptr_add(f->R, 1), f->ldr);
    if (!st)
        st = o->copy(ctx, dt, rr, r, d->p, d->ld, f->d, f->ldr);
    if (f->adopted >> LB_Q & 1u)
        f->Q = Q->p; /* ld Q->ld = ncap */
    else if (!st && Q)
        st = o->copy(ctx, dt, n, Q->cols, Q->p, Q->ld, f->Q, f->ncap);
    if (!st && q == QRU_Q_THIN) /* b = Q1 d: no residuals */
        st = o->laset(ctx, dt, 'A', n, r, 0.0, 0.0, f->E, f->ncap);
    /* the Q-less form's Gram data: A'A = R'R and A'b = R' d(1:m, :) */
    if (!st && q == QRU_Q_NONE)
        st = o->syrk(ctx, dt, 'U', 'C', m, m, 1.0, f->R, f->ldr, 0.0, f->G,
                     f->ldr);
    if (!st && q == QRU_Q_NONE)
        st = o->gemm(ctx, dt, 'C', 'N', m, r, m, 1.0, f->R, f->ldr, f->d,
                     f->ldr, 0.0, f->c, f->ldr);
    if (!st && q == QRU_Q_NONE)
        st = lsq_norms(ctx, dt, n - m, r, qru_ptr_add(d->p, (size_t)m), d->ld,
                       f->rho);
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
    qru_ptr set[LB_COUNT] = {f->R, f->Q, f->d, f->E, f->G, f->c};
    for (int b = 0; b < LB_COUNT; ++b)
        if (f->adopted >> b & 1u)
            set[b].h = NULL; /* the caller's */
    lsq_free_set(f->ctx, set, LB_COUNT);
    free(f->rho);
    free(f);
}

/* The rank rule on R (a host round trip): 0, the first rank-deficient
 * column j > 0, or a library status.  The rows 0 .. m-1 of R hold all of
 * its nonzeros. */
static int lsq_rank(const qru_lsq *f)
{
    int m = f->m;
    double *diag = malloc(sizeof(double) * 2 * (size_t)m);
    if (!diag)
        return qru_fail(QRU_ERR_ALLOC, "allocating %d doubles failed", 2 * m);
    int st = qru_qr_rank_gather(f->ctx, f->dtype, m, m, f->R, f->R, f->ldr,
                                diag, diag + m);
    if (!st)
        st = qru_qr_rank_first(f->dtype, f->n, m, 0, diag, diag + m);
    free(diag);
    return st;
}

int qru_lsq_solve(const qru_lsq *f, qru_matrix *x)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG_MAT(ctx, 2, "x", x, f->dtype);
    QRU_ARG(ctx, 2, x->rows == f->m && x->cols == f->r,
            "x is %d x %d, but it must be m x r = %d x %d", x->rows, x->cols,
            f->m, f->r);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 2, "x", x));
    const qru_backend_ops *o = ctx->ops;
    int m = f->m;
    /* the rank rule before x is touched */
    QRU_CHECK(ctx, lsq_rank(f));
    QRU_CHECK(ctx, o->copy(ctx, f->dtype, m, f->r, f->d, f->ldr, x->p,
                           x->ld));
    QRU_RET(ctx, o->trsm(ctx, f->dtype, 'L', 'U', 'N', 'N', m, f->r, 1.0,
                         f->R, f->ldr, x->p, x->ld));
}

int qru_lsq_get_error_estimate(const qru_lsq *f, double *est)
{
    static const char *const form[] = {"QRU_Q_FULL", "QRU_Q_THIN",
                                       "QRU_Q_NONE"};
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 1, f->q == QRU_Q_NONE, "f is %s, but the estimate is "
            "kept in the Q-less form (QRU_Q_NONE) only", form[f->q]);
    QRU_ARG(ctx, 2, est, "est (the output) is NULL");
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, r = f->r, ld = f->ldr;
    QRU_CHECK(ctx, lsq_rank(f));
    /* workspace: the symmetric G (m x m), x and t (m x r) */
    qru_ptr ws;
    size_t need = (size_t)m * m + 2 * (size_t)m * r;
    QRU_CHECK(ctx, qru_ctx_workspace(ctx, need * qru_dtype_size(dt), &ws));
    qru_ptr T = ws, x = qru_ptr_add(T, (size_t)m * m),
            t = qru_ptr_add(x, (size_t)m * r);
    double *nrm = malloc(sizeof(double) * 2 * (size_t)r);
    if (!nrm)
        QRU_RET(ctx, qru_fail(QRU_ERR_ALLOC, "allocating %d doubles failed",
                              2 * r));
    /* x = R \ d; T = G (both triangles); t = R \ (R' \ (c - G x)) */
    int st = o->copy(ctx, dt, m, r, f->d, ld, x, m);
    if (!st)
        st = o->trsm(ctx, dt, 'L', 'U', 'N', 'N', m, r, 1.0, f->R, ld, x, m);
    if (!st)
        st = o->transpose(ctx, dt, m, m, f->G, ld, T, m);
    if (!st)
        st = o->lacpy(ctx, dt, 'U', m, m, f->G, ld, T, m);
    if (!st)
        st = o->copy(ctx, dt, m, r, f->c, ld, t, m);
    if (!st)
        st = o->gemm(ctx, dt, 'N', 'N', m, r, m, -1.0, T, m, x, m, 1.0, t, m);
    if (!st)
        st = o->trsm(ctx, dt, 'L', 'U', 'C', 'N', m, r, 1.0, f->R, ld, t, m);
    if (!st)
        st = o->trsm(ctx, dt, 'L', 'U', 'N', 'N', m, r, 1.0, f->R, ld, t, m);
    if (!st)
        st = o->col_norms(ctx, dt, m, r, x, m, nrm);
    if (!st)
        st = o->col_norms(ctx, dt, m, r, t, m, nrm + r);
    if (!st) {
        double e = 0.0;
        for (int j = 0; j < r; ++j) {
            double v = nrm[j] > 0.0 ? nrm[r + j] / nrm[j] : nrm[r + j];
            if (v != v) { /* NaN */
                e = v;
                break;
            }
            if (v > e)
                e = v;
        }
        *est = e;
    }
    free(nrm);
    QRU_RET(ctx, st);
}

int qru_lsq_get_residual_norms(const qru_lsq *f, double *res)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 2, res, "res (the output) is NULL");
    if (f->q == QRU_Q_NONE) {
        for (int j = 0; j < f->r; ++j)
            res[j] = f->rho[j];
        QRU_RET(ctx, 0);
    }
    if (f->q == QRU_Q_THIN)
        QRU_RET(ctx, ctx->ops->col_norms(ctx, f->dtype, f->n, f->r, f->E,
                                         f->ncap, res));
    QRU_RET(ctx, lsq_norms(ctx, f->dtype, f->n - f->m, f->r,
                           qru_ptr_add(f->d, (size_t)f->m), f->ldr, res));
}

int qru_lsq_rows(const qru_lsq *f) { return f ? f->n : -1; }
int qru_lsq_cols(const qru_lsq *f) { return f ? f->m : -1; }
int qru_lsq_nrhs(const qru_lsq *f) { return f ? f->r : -1; }
int qru_lsq_has_q(const qru_lsq *f) { return f ? f->q != QRU_Q_NONE : 0; }
int qru_lsq_q_form(const qru_lsq *f) { return f ? f->q : -1; }
qru_dtype qru_lsq_dtype(const qru_lsq *f) { return f ? f->dtype : (qru_dtype)0; }
int qru_lsq_get_downdate_condition(const qru_lsq *f, double *c)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    QRU_ARG(f->ctx, 2, c, "c is NULL");
    *c = f->dd_cond;
    return 0;
}

/* M (argument 2) after its checks against the shapes rows0 x cols or
 * rows1 x cols (rows1 < 0: none); *tall = 1 for the first. */
static int get_check(const qru_lsq *f, qru_matrix *M, const char *name,
                     int rows0, int rows1, int cols, int *tall)
{
    int st = qru_arg_matrix(f->ctx, 2, name, M, f->dtype);
    if (st)
        return st;
    *tall = M->rows == rows0 && M->cols == cols;
    if (!*tall && !(M->rows == rows1 && M->cols == cols)) {
        if (rows1 < 0)
            return qru_fail_arg(2, "%s is %d x %d, but it must be %d x %d",
                                name, M->rows, M->cols, rows0, cols);
        return qru_fail_arg(2, "%s is %d x %d, but it must be %d x %d or "
                               "%d x %d", name, M->rows, M->cols, rows0, cols,
                            rows1, cols);
    }
    return qru_lsq_arg_apart(f, 2, name, M);
}

static int no_q(const qru_lsq *f, const char *what)
{
    static const char *const form[] = {"QRU_Q_FULL", "QRU_Q_THIN",
                                       "QRU_Q_NONE"};
    return qru_fail(QRU_ERR_NO_Q, "%s, but the factorisation is %s", what,
                    form[f->q]);
}

int qru_lsq_get_r(const qru_lsq *f, qru_matrix *R)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    const qru_backend_ops *o = ctx->ops;
    int tall, n = f->n, m = f->m;
    QRU_CHECK(ctx, get_check(f, R, "R", n, m, m, &tall));
    int rows = tall ? qru_lsq_rrows(f) : m;
    QRU_CHECK(ctx, o->copy(ctx, f->dtype, rows, m, f->R, f->ldr, R->p, R->ld));
    if (tall && rows < n) /* the thin and Q-less forms keep m rows */
        QRU_CHECK(ctx, o->laset(ctx, f->dtype, 'A', n - rows, m, 0.0, 0.0,
                                qru_ptr_add(R->p, (size_t)rows), R->ld));
    QRU_RET(ctx, 0);
}

int qru_lsq_get_d(const qru_lsq *f, qru_matrix *d)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int tall;
    QRU_CHECK(ctx, get_check(f, d, "d", f->n, f->m, f->r, &tall));
    if (tall && f->q != QRU_Q_FULL && f->n > f->m)
        QRU_RET(ctx, no_q(f, "d = Q' b (n x r) needs the full Q"));
    QRU_RET(ctx, ctx->ops->copy(ctx, f->dtype, tall ? f->n : f->m, f->r, f->d,
                                f->ldr, d->p, d->ld));
}

int qru_lsq_get_q(const qru_lsq *f, qru_matrix *Q)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG_MAT(ctx, 2, "Q", Q, f->dtype);
    QRU_ARG(ctx, 2, Q->rows == f->n && (Q->cols == f->n || Q->cols == f->m),
            "Q is %d x %d, but it must be n x n = %d x %d or n x m = %d x %d",
            Q->rows, Q->cols, f->n, f->n, f->n, f->m);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 2, "Q", Q));
    int square = Q->cols == f->n && f->n > f->m;
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, no_q(f, "Q is not held"));
    if (square && f->q != QRU_Q_FULL)
        QRU_RET(ctx, no_q(f, "the n x n Q needs QRU_Q_FULL"));
    QRU_RET(ctx, ctx->ops->copy(ctx, f->dtype, f->n, Q->cols, f->Q, f->ncap,
                                Q->p, Q->ld));
}

int qru_lsq_view_q(const qru_lsq *f, qru_matrix **Q)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 2, Q, "Q (the output) is NULL");
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, no_q(f, "Q is not held"));
    int cols = f->q == QRU_Q_FULL ? f->n : f->m;
    QRU_RET(ctx, qru_matrix_view(ctx, f->dtype, f->n, cols, f->Q, f->ncap, Q));
}

int qru_lsq_view_r(const qru_lsq *f, qru_matrix **R)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_ARG(ctx, 2, R, "R (the output) is NULL");
    QRU_RET(ctx, qru_matrix_view(ctx, f->dtype, qru_lsq_rrows(f), f->m, f->R,
                                 f->ldr, R));
}

int qru_lsq_get_residuals(const qru_lsq *f, qru_matrix *E)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int tall;
    QRU_CHECK(ctx, get_check(f, E, "E", f->n, -1, f->r, &tall));
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, no_q(f, "the residuals need Q"));
    if (f->q == QRU_Q_THIN)
        QRU_RET(ctx, ctx->ops->copy(ctx, f->dtype, f->n, f->r, f->E, f->ncap,
                                    E->p, E->ld));
    /* full: E = Q(:, m+1:n) d(m+1:n, :) */
    if (f->n == f->m)
        QRU_RET(ctx, ctx->ops->laset(ctx, f->dtype, 'A', f->n, f->r, 0.0, 0.0,
                                     E->p, E->ld));
    QRU_RET(ctx, ctx->ops->gemm(ctx, f->dtype, 'N', 'N', f->n, f->r,
                                f->n - f->m, 1.0,
                                qru_ptr_at(f->Q, f->ncap, 0, f->m), f->ncap,
                                qru_ptr_add(f->d, (size_t)f->m), f->ldr, 0.0,
                                E->p, E->ld));
}
