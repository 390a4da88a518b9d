/*
 * One row added to a Q-less factorisation without a chain of rotations:
 * R' is the Cholesky factor of A'A, so adding the row u' (right-hand-side
 * row e) is the rank-1 update R1'R1 = R'R + u u' of the structured passes
 * (Gill, Golub, Murray and Saunders 1974; ops chol_r1_prep, chol_r1_apply,
 * chol_r1_rhs in qru_ops.h), with L = R', p = R' \ u and L1 = L M:
 *     R1 = M' R,   d1 = M \ (d + e p),
 *     rho^2 := rho^2 + du^2,  du = (e - p'd) / sqrt(1 + ||p||^2)
 * (the a-priori residual of the new row, scaled as in recursive least
 * squares).  About ten backend calls and one host wait, whatever m: the
 * solve, the coefficients and d1 (into workspace) are queued, the
 * failure flag and du come back in one transfer, and R, d are written
 * only after it.  A singular R (a zero pivot: p not finite) makes the
 * call report "not done" with f unchanged, and the panels run instead.
 */
#include <math.h>
#include <stdlib.h>

#include "../chol_internal.h"
#include "update.h"

/* Workspace: p (m), prep's work, the pivots, the flag and du (m + 1 + r),
 * A1's diagonal (m, not read) and d1 (m x r). */
static size_t add_row_r1_ws(int m, int r)
{
    return qru_chol_align((size_t)m) + qru_chol_align(qru_chol_r1_work(m)) +
           qru_chol_align((size_t)m + 1 + (size_t)r) +
           qru_chol_align((size_t)m) + (size_t)m * (size_t)r;
}

int qru_upd_qless_add_row_r1(qru_context *ctx, qru_lsq *f,
                             const qru_upd_req *rq, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, r = f->r, ld = f->ldr;
    const qru_matrix *U = rq->U, *e = rq->e;
    *done = 0;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, add_row_r1_ws(m, r) * qru_dtype_size(dt),
                              &ws));
    qru_ptr p = ws;
    qru_ptr work = qru_ptr_add(p, qru_chol_align((size_t)m));
    qru_ptr head = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(m)));
    qru_ptr info = qru_ptr_add(head, (size_t)m),
            du = qru_ptr_add(head, (size_t)m + 1);
    qru_ptr adiag =
        qru_ptr_add(head, qru_chol_align((size_t)m + 1 + (size_t)r));
    qru_ptr d1 = qru_ptr_add(adiag, qru_chol_align((size_t)m));
    double *h = malloc(sizeof(double) * (1 + (size_t)r));
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    int st = o->copy(ctx, dt, 1, m, U->p, U->ld, p, 1);
    if (!st) /* p = R' \ u */
        st = o->trsm(ctx, dt, 'L', 'U', 'T', 'N', m, 1, 1.0, f->R, ld, p, m);
    if (!st)
        st = qru_chol_info_zero(ctx, dt, info);
    if (!st)
        st = o->chol_r1_prep(ctx, dt, 'U', m, 1, f->R, ld, p, 0, p, m, work,
                             head, adiag, info, 0);
    if (!st)
        st = o->chol_r1_rhs(ctx, dt, m, r, 1, p, work, f->d, ld, d1, m, e->p,
                            e->ld, du);
    if (!st) /* the flag and du: the one wait */
        st = qru_chol_read_row(ctx, dt, 1 + r, info, 1, h);
    if (!st && !qru_plan_healthy_info(ctx) && h[0] != 0.0) {
        free(h); /* R is singular: the panels take the row */
        return 0;
    }
    if (!st)
        st = o->chol_r1_apply(ctx, dt, 'U', m, f->R, ld, f->R, ld, p, work);
    if (!st)
        st = o->copy(ctx, dt, m, r, d1, m, f->d, ld);
    if (!st)
        st = qru_upd_gram_rows(ctx, f, 1, U->p, U->ld, e->p, e->ld, 1.0);
    if (!st) {
        for (int j = 0; j < r; ++j)
            f->rho[j] = sqrt(f->rho[j] * f->rho[j] + h[1 + j] * h[1 + j]);
        f->n += 1;
        *done = 1;
    }
    free(h);
    return st;
}
