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
 * are queued, p, the failure flag and du come back in one transfer, and
 * R, d are written only after it.
 *
 * With Q (thin or full form; a row added only) the chain of rotations
 * that takes u' into R is known in closed form from p (c_j, s_j of
 * chol_r1_rotate), so Q1 = P' [Q 0; 0 1] G is one more op over Q's m
 * columns and its new column (the rows x column segments in parallel on
 * a GPU), in place of m dependent rotations; the new column then gives
 * the thin form's residuals (E1 = [E; 0] + Q1(:, m) du') and the full
 * form's last row of d (du).
 *
 * A Q-less removal is the downdate of the p x p side of remove_rows.c
 * with p = 1: I - Qk Qk' = 1 - ||p||^2 = t, its rank rule
 * t > 2 max(n, m) eps (qru_upd_downdate_tol) and the downdate condition
 * 1 / sqrt(t).  A removal with Q (thin or full form) takes rho^2 = t
 * from the row's completion instead (a sum of squares, where 1 - ||p||^2
 * loses c^2 eps), and its rotations in closed form run on Q's columns
 * and on [R d]' alike (rr_rotate_rd), not the passes.  Where
 * the passes cannot decide (a singular R: p not finite; a removal that
 * the rank rule refuses, or whose scan fails) the call reports "not
 * done" with f unchanged, and the blocked path runs instead, with its
 * own verdict and message.  An added row whose p is longer than
 * QRU_UPD_R1_PMAX (R ill-conditioned or numerically singular: the passes
 * would add R' p, far from u) is handed over the same way.
 */
#include <math.h>
#include <stdlib.h>

#include "../chol_internal.h"
#include "update.h"

/* Workspace: p, the flag and du (m + 1 + r, read back in one transfer),
 * prep's work, the pivots (m), A1's diagonal (m, not read), u (m) and d1
 * (m x r); with Q, then the larger of the rotations' work and the row
 * shift's (n - k rows of Q's qc columns and of E's r). */
static size_t row_r1_ws(int m, int r)
{
    return qru_chol_align((size_t)m + 1 + (size_t)r) +
           qru_chol_align(qru_chol_r1_work(m, 1)) + 3 * qru_chol_align((size_t)m) +
           qru_chol_align((size_t)m * (size_t)r);
}
static size_t row_r1_q_ws(int n, int m, int r, int k, int qc)
{
    size_t rot = qru_chol_r1_rotate_work(n + 1, m),
           shift = (size_t)(n - k) * (size_t)(qc > r ? qc : r);
    return rot > shift ? rot : shift;
}

/* Q1 = P' [Q 0; 0 1] G and what follows from its new column (the data
 * of f are those before the row; du: the row's scaled residual, device). */
static int row_r1_q(qru_context *ctx, qru_lsq *f, int k, qru_ptr p,
                    qru_ptr du, qru_ptr sw)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, n1 = n + 1;
    int full = f->q == QRU_Q_FULL, qc = full ? n : m;
    QRU_TRY(qru_lsq_reserve(f, n1, full ? m : m + 1));
    int ld = f->ldr, ldq = f->ncap;
    qru_ptr Q = f->Q, x = qru_ptr_at(Q, ldq, 0, qc);
    QRU_TRY(qru_upd_shift_rows(ctx, dt, Q, ldq, n, qc, k, 1, sw));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, qc, 0.0, 0.0, qru_ptr_add(Q, (size_t)k),
                     ldq));
    QRU_TRY(o->laset(ctx, dt, 'A', n1, 1, 0.0, 0.0, x, ldq));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 1.0, qru_ptr_add(x, (size_t)k),
                     ldq));
    QRU_TRY(o->chol_r1_rotate(ctx, dt, n1, m, 1.0, p, 1, Q, ldq, Q, ldq, x,
                               x, sw));
    if (full) { /* R1's row n is zero, d1's is du */
        QRU_TRY(o->laset(ctx, dt, 'A', 1, m, 0.0, 0.0,
                         qru_ptr_add(f->R, (size_t)n), ld));
        return o->copy(ctx, dt, 1, r, du, 1, qru_ptr_add(f->d, (size_t)n), ld);
    }
    QRU_TRY(qru_upd_shift_rows(ctx, dt, f->E, ldq, n, r, k, 1, sw));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, r, 0.0, 0.0,
                     qru_ptr_add(f->E, (size_t)k), ldq));
    return r > 0 ? o->gemm(ctx, dt, 'N', 'N', n1, r, 1, 1.0, x, ldq, du, 1,
                           1.0, f->E, ldq)
                 : 0;
}

/* The rotations of a row removed with Q (thin or full form) on the rows
 * of [R d] and the row [0 dx] of the column x that leaves (m columns of
 * R, r of d, ld ld): the closed-form rotations of chol_r1_rotate with
 * alpha and p_j = q_{m-1-j} (q's last element at ql, stride -1), the
 * same call as on Q's columns, so that Q1 R1 and Q1 d1 follow Q1 by
 * orthogonal transformations.  Their c_j and s_j come from
 * t_j = 1 + sum alpha^2 q_i^2 (a sum of squares, accurate), where the
 * rank-1 passes (chol_r1_prep with q) would form t_j = 1 - sum q_i^2,
 * whose last value 1 - ||q||^2 = rho^2 carries an absolute error of
 * about eps: a relative error of c^2 eps (c = 1 / rho, the downdate
 * condition), which the passes' R1 and d1 then carry while Q1 does not.
 * [R d]' goes through C ((m + r) x m) and xv (m + r): xv = [0; dx'];
 * dx is 1 x r with ld ldx.  R1 keeps exact zeros below the diagonal (the
 * rotations of R's rows below a column's diagonal see two zeros).
 * ws: rr_rotate_ws(m, r) elements. */
static size_t rr_rotate_ws(int m, int r)
{
    size_t lc = (size_t)m + (size_t)r;
    return qru_chol_align(lc * (size_t)m) + qru_chol_align(lc) +
           qru_chol_r1_rotate_work((int)lc, m);
}

static int rr_rotate_rd(qru_context *ctx, qru_dtype dt, int m, int r,
                        double alpha, qru_ptr ql, qru_ptr R, qru_ptr d,
                        int ld, qru_ptr dx, int ldx, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int lc = m + r;
    qru_ptr C = ws, xv = qru_ptr_add(C, qru_chol_align((size_t)lc * m)),
            rw = qru_ptr_add(xv, qru_chol_align((size_t)lc));
    QRU_TRY(o->transpose(ctx, dt, m, m, R, ld, C, lc));
    if (m > 1) /* R's strict lower triangle, as zeros */
        QRU_TRY(o->laset(ctx, dt, 'U', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(C, (size_t)lc), lc));
    QRU_TRY(o->laset(ctx, dt, 'A', m, 1, 0.0, 0.0, xv, lc));
    if (r > 0) {
        QRU_TRY(o->transpose(ctx, dt, m, r, d, ld, qru_ptr_add(C, (size_t)m),
                             lc));
        QRU_TRY(o->transpose(ctx, dt, 1, r, dx, ldx,
                             qru_ptr_add(xv, (size_t)m), lc));
    }
    QRU_TRY(o->chol_r1_rotate(ctx, dt, lc, m, alpha, ql, -1,
                              qru_ptr_at(C, lc, 0, m - 1), -lc,
                              qru_ptr_at(C, lc, 0, m - 1), -lc, xv, xv, rw));
    QRU_TRY(o->transpose(ctx, dt, m, m, C, lc, R, ld));
    if (m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(R, 1), ld));
    return r > 0 ? o->transpose(ctx, dt, r, m, qru_ptr_add(C, (size_t)m), lc,
                                d, ld)
                 : 0;
}

/* A row k removed from a thin f (rows_r1.c's removal with Q1): q =
 * Q1(k,:)', the row's completion z = e_k - Q1 q (CGS2), rho = ||z||
 * (the downdate condition is 1 / rho) and x = z / rho give the rotations
 * (chol_r1_rotate over Q1's columns last to first, p_j = -q_{m-1-j} /
 * rho: Q1's row k becomes 0 and is dropped, x becomes +-e_k), and the
 * same rotations take [R d; 0 x'E] to [R1 d1; a b_k] (rr_rotate_rd);
 * E1 = E - x (x'E) without its row k.  One host wait (rho^2); *done = 0
 * (f unchanged) where rho is not above the removals' rank rule (the
 * blocked path then judges with its own message). */
static int row_r1_thin_remove(qru_context *ctx, qru_lsq *f, int k, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, ld = f->ldr, ldq = f->ncap;
    *done = 0;
    size_t a = qru_chol_align((size_t)m), ar = qru_chol_align((size_t)r + 1);
    size_t nws = 3 * a + qru_chol_align(1) + ar + qru_chol_align((size_t)n) +
                 qru_chol_r1_rotate_work(n, m) + rr_rotate_ws(m, r);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr q = ws, C = qru_ptr_add(q, a), C2 = qru_ptr_add(C, a),
            rho2 = qru_ptr_add(C2, a),
            zeta = qru_ptr_add(rho2, qru_chol_align(1)),
            z = qru_ptr_add(zeta, ar),
            rw = qru_ptr_add(z, qru_chol_align((size_t)n)),
            cw = qru_ptr_add(rw, qru_chol_r1_rotate_work(n, m));
    qru_ptr Q = f->Q, E = f->E;
    QRU_TRY(o->copy(ctx, dt, 1, m, qru_ptr_add(Q, (size_t)k), ldq, q, 1));
    /* z = e_k - Q1 (Q1' e_k), twice */
    QRU_TRY(o->laset(ctx, dt, 'A', n, 1, 0.0, 0.0, z, n));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 1.0, qru_ptr_add(z, (size_t)k),
                     1));
    QRU_TRY(qru_upd_cgs(ctx, dt, n, m, 1, 2, Q, ldq, z, n, C, m, C2));
    QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, 1, n, 1.0, z, n, z, n, 0.0, rho2,
                    1));
    double h = 0.0;
    QRU_TRY(qru_chol_read_row(ctx, dt, 1, rho2, 1, &h)); /* the one wait */
    double rho = h > 0.0 ? sqrt(h) : 0.0;
    if (!qru_plan_healthy_info(ctx) && !(rho > qru_upd_downdate_tol(f)))
        return 0; /* the blocked path judges the removal */
    if (!(rho > 0.0))
        rho = 1.0; /* a healthy dry run reads ones: not a value */
    /* commit: x = z / rho, zeta = x'E, E -= x zeta; Q1, R1, d1 by the
     * rotations; the rows k of Q1 and E dropped */
    QRU_TRY(o->geadd(ctx, dt, n, 1, 1.0 / rho, z, n, 0.0, z, n));
    if (r > 0) {
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, r, n, 1.0, z, n, E, ldq, 0.0,
                        zeta, 1));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, r, 1, -1.0, z, n, zeta, 1, 1.0,
                        E, ldq));
    }
    qru_ptr ql = qru_ptr_add(q, (size_t)(m - 1));
    QRU_TRY(o->chol_r1_rotate(ctx, dt, n, m, -1.0 / rho, ql, -1,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq, z, z, rw));
    QRU_TRY(rr_rotate_rd(ctx, dt, m, r, -1.0 / rho, ql, f->R, f->d, ld, zeta,
                         1, cw));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ldq, 0, n, m, k, 1));
    if (r > 0)
        QRU_TRY(qru_upd_drop_rows(ctx, dt, E, ldq, 0, n, r, k, 1));
    f->n = n - 1;
    f->dd_cond = 1.0 / rho;
    *done = 1;
    return 0;
}

/* A row k removed from a full f: q = Q(k,:)' splits into q1 (R's m
 * columns; q1 = R' \ a for the row a) and q2 (the complement's n - m),
 * rho = ||q2||.  One reflector H on the complement (H q2 = beta e_1,
 * formed before the verdict, applied as Q2 := Q2 - tau (Q2 w) w',
 * d2 := H d2 with w = [1; v]) leaves one complement column, Q(:, m),
 * with row k = beta and the others with zeros there; it is the thin
 * removal's x up to the sign of beta (which the rotations' scale takes
 * up), so Q's first m columns, R and d(0:m) follow row_r1_thin_remove
 * (p = q1; d(m, :) = x'b is the row of x in rr_rotate_rd).  Then Q(:, m)
 * is +-e_k: row k and column m leave, column n-1 (row n-1 of d) takes the
 * place of column m.  One host wait (rho^2, tau and beta); *done = 0
 * (f unchanged) where rho is below the removals' rank rule: the blocked
 * path then takes the row. */
static int row_r1_full_remove(qru_context *ctx, qru_lsq *f, int k, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, ld = f->ldr, ldq = f->ncap, nc = n - m;
    *done = 0;
    size_t ar = qru_chol_align((size_t)r + 1), an = qru_chol_align((size_t)n);
    size_t nws = 2 * an + qru_chol_align((size_t)nc) + qru_chol_align(3) + ar +
                 qru_chol_r1_rotate_work(n, m) + rr_rotate_ws(m, r);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr q = ws, wq = qru_ptr_add(q, an), vec = qru_ptr_add(wq, an),
            hv = qru_ptr_add(vec, qru_chol_align((size_t)nc)),
            tr = qru_ptr_add(hv, qru_chol_align(3)), rw = qru_ptr_add(tr, ar),
            cw = qru_ptr_add(rw, qru_chol_r1_rotate_work(n, m));
    /* hv: rho^2, tau, beta (read back together) */
    qru_ptr rho2 = hv, tau = qru_ptr_add(hv, 1), beta = qru_ptr_add(hv, 2);
    qru_ptr Q = f->Q, d = f->d, Qm = qru_ptr_at(Q, ldq, 0, m);
    QRU_TRY(o->copy(ctx, dt, 1, n, qru_ptr_add(Q, (size_t)k), ldq, q, 1));
    QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, 1, nc, 1.0,
                    qru_ptr_add(q, (size_t)m), nc, qru_ptr_add(q, (size_t)m),
                    nc, 0.0, rho2, 1));
    /* the reflector of q2: beta, tau; vec = [1; v] */
    QRU_TRY(o->copy(ctx, dt, 1, 1, qru_ptr_add(q, (size_t)m), 1, beta, 1));
    if (nc > 1)
        QRU_TRY(o->copy(ctx, dt, nc - 1, 1, qru_ptr_add(q, (size_t)m + 1),
                        nc, qru_ptr_add(vec, 1), nc));
    QRU_TRY(o->house(ctx, dt, nc - 1, beta, qru_ptr_add(vec, 1),
                     qru_ptr_add(vec, 1), tau));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 1.0, vec, 1));
    double h[3] = {0.0, 0.0, 0.0};
    QRU_TRY(qru_chol_read_row(ctx, dt, 3, hv, 1, h)); /* the one wait */
    double rho = h[0] > 0.0 ? sqrt(h[0]) : 0.0;
    if (!qru_plan_healthy_info(ctx) && !(rho > qru_upd_downdate_tol(f)))
        return 0; /* the blocked path takes the row */
    if (!(rho > 0.0))
        rho = 1.0; /* a healthy dry run reads ones: not values */
    /* commit: H on Q's complement and d2 */
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, 1, nc, 1.0, Qm, ldq, vec, nc, 0.0,
                    wq, n));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, nc, 1, -h[1], wq, n, vec, 1, 1.0,
                    Qm, ldq));
    if (r > 0) {
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, r, nc, 1.0, vec, nc,
                        qru_ptr_add(d, (size_t)m), ld, 0.0, tr, 1));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nc, r, 1, -h[1], vec, nc, tr, 1,
                        1.0, qru_ptr_add(d, (size_t)m), ld));
    }
    /* x = Q(:, m) has row k = beta = -+rho: with beta < 0 the rotations
     * of -x, which give Q's first m columns alike (x itself leaves) */
    double sg = h[2] < 0.0 ? 1.0 : -1.0;
    qru_ptr ql = qru_ptr_add(q, (size_t)(m - 1));
    QRU_TRY(o->chol_r1_rotate(ctx, dt, n, m, sg / rho, ql, -1,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq, Qm, Qm, rw));
    QRU_TRY(rr_rotate_rd(ctx, dt, m, r, sg / rho, ql, f->R, d, ld,
                         qru_ptr_add(d, (size_t)m), ld, cw));
    /* row k and column m leave; column n-1 (d's row n-1) moves to m */
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ldq, 0, n, n, k, 1));
    if (m < n - 1) {
        QRU_TRY(o->copy(ctx, dt, n - 1, 1, qru_ptr_at(Q, ldq, 0, n - 1), ldq,
                        Qm, ldq));
        if (r > 0)
            QRU_TRY(o->copy(ctx, dt, 1, r, qru_ptr_add(d, (size_t)(n - 1)), ld,
                            qru_ptr_add(d, (size_t)m), ld));
    }
    f->n = n - 1;
    *done = 1;
    return 0;
}

int qru_upd_row_r1(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                   int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, r = f->r, ld = f->ldr;
    int s = rq->op == QRU_UPD_OP_ADD_ROWS ? 1 : -1;
    const qru_matrix *U = rq->U, *e = rq->e;
    int hq = f->q != QRU_Q_NONE;
    *done = 0;
    if (s < 0 && hq)
        return f->q == QRU_Q_THIN ? row_r1_thin_remove(ctx, f, rq->k, done)
                                  : row_r1_full_remove(ctx, f, rq->k, done);
    size_t nws = row_r1_ws(m, r);
    if (hq)
        nws += row_r1_q_ws(f->n, m, r, rq->k, f->q == QRU_Q_FULL ? f->n : m);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr p = ws, info = qru_ptr_add(ws, (size_t)m),
            du = qru_ptr_add(ws, (size_t)m + 1);
    qru_ptr work = qru_ptr_add(ws, qru_chol_align((size_t)m + 1 + (size_t)r));
    qru_ptr head = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(m, 1)));
    qru_ptr adiag = qru_ptr_add(head, qru_chol_align((size_t)m));
    qru_ptr u = qru_ptr_add(adiag, qru_chol_align((size_t)m));
    qru_ptr d1 = qru_ptr_add(u, qru_chol_align((size_t)m));
    qru_ptr sw = qru_ptr_add(d1, qru_chol_align((size_t)m * (size_t)r));
    /* read back: p (a removal: t = 1 - ||p||^2; an addition: ||p|| <=
     * QRU_UPD_R1_PMAX), then the flag and du */
    int nread = m + 1 + r;
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
        st = qru_chol_read_row(ctx, dt, nread, p, 1, h);
    double *hi = h + m; /* the flag, then du */
    double pp = 0.0;
    for (int j = 0; j < m; ++j)
        pp += h[j] * h[j];
    double t = 1.0 - pp;
    if (!st && !qru_plan_healthy_info(ctx) &&
        (hi[0] != 0.0 || (s < 0 && !(t > qru_upd_downdate_tol(f))) ||
         (s > 0 && !(sqrt(pp) <= QRU_UPD_R1_PMAX)))) {
        free(h); /* the blocked path judges and takes the row (a long p:
                    R nearly singular, see QRU_UPD_R1_PMAX) */
        return 0;
    }
    if (!st && hq) /* Q, E or d's new row first: R and d are still f's */
        st = row_r1_q(ctx, f, rq->k, p, du, sw);
    ld = f->ldr; /* the reservation may have moved R and d */
    if (!st)
        st = o->chol_r1_apply(ctx, dt, 'U', m, 1, f->R, ld, f->R, ld, p, m,
                              work);
    if (!st)
        st = o->copy(ctx, dt, m, r, d1, m, f->d, ld);
    if (!st && !hq)
        st = qru_upd_gram_rows(ctx, f, 1, U->p, U->ld, e->p, e->ld,
                               (double)s);
    if (!st && hq) {
        f->n += 1;
        *done = 1;
    } else if (!st) {
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
