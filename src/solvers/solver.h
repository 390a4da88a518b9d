/*
 * What the solvers on the updates (src/solvers/) share.
 */
#ifndef QRU_SOLVER_H
#define QRU_SOLVER_H

#include <limits.h>

#include "../update/update.h"

/* The first checks of a solver on A (argument 2, called name): a usable
 * matrix of the context, n, m >= 1 (returns -2 from the public routine). */
#define QRU_SOLVER_ARG_A(ctx, name, A)                                        \
    do {                                                                       \
        QRU_ARG(NULL, 1, ctx, "ctx is NULL");                                  \
        QRU_ARG_MAT(ctx, 2, name, A, A ? A->dtype : QRU_DOUBLE);               \
        QRU_ARG(ctx, 2, A->rows >= 1 && A->cols >= 1,                          \
                "%s is %d x %d, but it needs rows >= 1 and cols >= 1", name,   \
                A->rows, A->cols);                                             \
    } while (0)

/* *info (when not NULL) := the steps, the active columns, the residual
 * norm, the columns dropped for good. */
static inline void qru_solver_report(qru_solver_info *info, int steps,
                                     int active, double rnorm, int dropped)
{
    if (info) {
        info->iterations = steps;
        info->active = active;
        info->rnorm = rnorm;
        info->dropped = dropped;
    }
}

/* The start of a solve on A (n x m) and b (n x 1): a device workspace of
 * delems elements of A's type at *dev (dev->h NULL when it fails), A' b
 * formed in its first m elements and read into out (m doubles) through
 * the host staging hbuf (m elements of the type; one host wait).
 * Returns 0 or a library status. */
static inline int qru_solver_start(qru_context *ctx, const qru_matrix *A,
                                   const qru_matrix *b, size_t delems,
                                   qru_ptr *dev, void *hbuf, double *out)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = A->dtype;
    int n = A->rows, m = A->cols;
    dev->h = NULL;
    dev->off = 0;
    int st = delems > (size_t)INT_MAX
                 ? qru_fail(QRU_ERR_ALLOC, "%zu elements of workspace",
                            delems)
                 : 0;
    if (!st)
        st = o->mem_alloc(ctx, qru_dtype_size(dt) * delems, &dev->h);
    if (st) {
        dev->h = NULL;
        return st;
    }
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', m, 1, n, 1.0, A->p, A->ld, b->p,
                    b->ld, 0.0, *dev, m));
    QRU_TRY(o->download(ctx, dt, m, 1, *dev, m, hbuf, m));
    for (int j = 0; j < m; ++j)
        out[j] = dt == QRU_DOUBLE ? ((const double *)hbuf)[j]
                                  : (double)((const float *)hbuf)[j];
    return 0;
}

/* Appends column t of A to *f, the thin factorisation of the active
 * columns (created from A(:, t) and b when *f is NULL, with room for
 * kmax columns in steps of 32; QRU_UPDATE_FAST).  Returns 0, 1 when the
 * rank rule refuses the column (*f unchanged), or a library status. */
static inline int qru_solver_add_col(qru_context *ctx, const qru_matrix *A,
                                     const qru_matrix *b, int t, int kmax,
                                     qru_lsq **f)
{
    qru_matrix col = *A; /* a header over A(:, t), freed with nothing */
    col.cols = 1;
    col.p = qru_ptr_at(A->p, A->ld, 0, t);
    col.owned = 0;
    if (!*f) {
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        opt.col_capacity = kmax < 32 ? kmax : 32;
        int st = qru_lsq_create(ctx, &col, b, &opt, f);
        if (st > 0) {
            qru_lsq_destroy(*f);
            *f = NULL;
            return 1;
        }
        QRU_TRY(st);
        (*f)->upd_alg = QRU_UPDATE_FAST; /* updates, never refactorise */
        return 0;
    }
    int st = qru_upd_run(ctx, *f,
                         (qru_upd_req){QRU_UPD_OP_ADD_COLS, (*f)->m, 1, &col,
                                       NULL, NULL, NULL, 0, NULL, -1});
    return st > 0 ? 1 : st;
}

/* Removes the column at position i of *f (the last one: *f destroyed,
 * NULL). */
static inline int qru_solver_remove_col(qru_context *ctx, qru_lsq **f, int i)
{
    if ((*f)->m == 1) {
        qru_lsq_destroy(*f);
        *f = NULL;
        return 0;
    }
    return qru_upd_run(ctx, *f,
                       (qru_upd_req){QRU_UPD_OP_REMOVE_COLS, i, 1, NULL, NULL,
                                     NULL, NULL, 0, NULL, -1});
}

#endif
