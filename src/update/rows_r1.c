/*
 * One row added to or removed from a Q-less factorisation without a chain
 * of rotations: R' is the Cholesky factor of A'A, so the row u' (its
 * right-hand-side row e) added (s = +1) or removed (s = -1) is the rank-1
 * change R1'R1 = R'R + s u u' of the structured passes (Gill, Golub,
 * Murray and Saunders 1974; ops chol_r1_solve_prep, chol_r1_apply,
 * chol_r1_rhs in qru_ops.h), with L = R', p = R' \ u and L1 = L M:
 *     R1 = M' R,   d1 = M \ (d + s e p),
 *     rho^2 := rho^2 + s du^2,  du = (e - p'd) / sqrt(1 + s ||p||^2)
 * (the row's residual before it is added, or after it is removed, scaled
 * as in recursive least squares).  About ten backend calls and one host
 * wait, whatever m: the solve, the coefficients and d1 (into workspace)
 * are queued, the failure flag and du (a removal: p too) come back in one
 * transfer, and R, d are written only after it.
 *
 * A removal is the downdate of the p x p side of remove_rows.c with
 * p = 1: I - Qk Qk' = 1 - ||p||^2 = t, its rank rule t > 2 max(n, m) eps
 * (qru_upd_downdate_tol) and the downdate condition 1 / sqrt(t).  Where
 * the passes cannot decide (a singular R: p not finite; a removal that
 * the rank rule refuses, or whose scan fails) the call reports "not
 * done" with f unchanged, and the blocked path runs instead, with its
 * own verdict and message.
 */
#include <math.h>
#include <stdlib.h>

#include "../chol_internal.h"
#include "update.h"

/* Workspace: p, the flag and du (m + 1 + r, read back in one transfer),
 * prep's work, the pivots (m), A1's diagonal (m, not read), u (m) and d1
 * (m x r). */
static size_t row_r1_ws(int m, int r)
{
    return qru_chol_align((size_t)m + 1 + (size_t)r) +
           qru_chol_align(qru_chol_r1_work(m, 1)) + 3 * qru_chol_align((size_t)m) +
           (size_t)m * (size_t)r;
}

int qru_upd_qless_row_r1(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                         int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, r = f->r, ld = f->ldr;
    int s = rq->op == QRU_UPD_OP_ADD_ROWS ? 1 : -1;
    const qru_matrix *U = rq->U, *e = rq->e;
    *done = 0;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, row_r1_ws(m, r) * qru_dtype_size(dt), &ws));
    qru_ptr p = ws, info = qru_ptr_add(ws, (size_t)m),
            du = qru_ptr_add(ws, (size_t)m + 1);
    qru_ptr work = qru_ptr_add(ws, qru_chol_align((size_t)m + 1 + (size_t)r));
    qru_ptr head = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(m, 1)));
    qru_ptr adiag = qru_ptr_add(head, qru_chol_align((size_t)m));
    qru_ptr u = qru_ptr_add(adiag, qru_chol_align((size_t)m));
    qru_ptr d1 = qru_ptr_add(u, qru_chol_align((size_t)m));
    /* read back: the flag and du, after p for a removal (t = 1 - ||p||^2) */
    int nread = 1 + r + (s < 0 ? m : 0);
    double *h = malloc(sizeof(double) * (size_t)nread);
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    int st = o->copy(ctx, dt, 1, m, U->p, U->ld, u, 1);
    if (!st)
        st = qru_chol_info_zero(ctx, dt, info);
    if (!st) /* p = R' \ u and the coefficients */
        st = o->chol_r1_solve_prep(ctx, dt, 'U', m, s, f->R, ld, u, p, work,
                                   head, adiag, info, 0);
    if (!st)
        st = o->chol_r1_rhs(ctx, dt, m, r, s, p, work, f->d, ld, d1, m, e->p,
                            e->ld, du);
    if (!st) /* the one wait */
        st = qru_chol_read_row(ctx, dt, nread, s < 0 ? p : info, 1, h);
    double *hi = s < 0 ? h + m : h; /* the flag, then du */
    double t = 1.0;
    for (int j = 0; s < 0 && j < m; ++j)
        t -= h[j] * h[j];
    if (!st && !qru_plan_healthy_info(ctx) &&
        (hi[0] != 0.0 || (s < 0 && !(t > qru_upd_downdate_tol(f))))) {
        free(h); /* the blocked path judges and takes the row */
        return 0;
    }
    if (!st)
        st = o->chol_r1_apply(ctx, dt, 'U', m, 1, f->R, ld, f->R, ld, p, m,
                              work);
    if (!st)
        st = o->copy(ctx, dt, m, r, d1, m, f->d, ld);
    if (!st)
        st = qru_upd_gram_rows(ctx, f, 1, U->p, U->ld, e->p, e->ld,
                               (double)s);
    if (!st) {
        int n1 = f->n + s;
        for (int j = 0; j < r; ++j) { /* (a square A1 has no residual) */
            double v = f->rho[j] * f->rho[j] + s * hi[1 + j] * hi[1 + j];
            f->rho[j] = v > 0.0 && (s > 0 || n1 > m) ? sqrt(v) : 0.0;
        }
        f->n = n1;
        if (s < 0) /* healthy dry runs read ones: t is then not a value */
            f->dd_cond = t > 0.0 ? 1.0 / sqrt(t) : f->dd_cond;
        *done = 1;
    }
    free(h);
    return st;
}
