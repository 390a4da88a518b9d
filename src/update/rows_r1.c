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
 * A removal is the downdate of the p x p side of remove_rows.c with
 * p = 1: I - Qk Qk' = 1 - ||p||^2 = t, its rank rule t > 2 max(n, m) eps
 * (qru_upd_downdate_tol) and the downdate condition 1 / sqrt(t).  Where
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

/* A row k removed from a thin f (rows_r1.c's removal with Q1): q =
 * Q1(k,:)' is R' \ a for the row a, so R1 and d1 are the Q-less
 * removal's passes with p = q (no solve; d's row of b is
 * b_k = q'd + E(k,:)); the row's completion z = e_k - Q1 q (CGS2), rho =
 * ||z||, gives Q1's rotations (chol_r1_rotate over Q1's columns last to
 * first, p_j = -q_{m-1-j} / rho, x = z / rho: Q1's row k becomes 0 and is
 * dropped) and E1 = E - (z / rho)(z'E / rho) without its row k.  One host
 * wait (the verdict and rho^2); *done = 0 (f unchanged) where the passes
 * fail or rho is below the removals' rank rule (the blocked path then
 * judges with its own message). */
static int row_r1_thin_remove(qru_context *ctx, qru_lsq *f, int k, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, ld = f->ldr, ldq = f->ncap;
    *done = 0;
    size_t a = qru_chol_align((size_t)m), ar = qru_chol_align((size_t)r + 1);
    size_t nws = 5 * a + 3 * ar + qru_chol_align(2) +
                 qru_chol_align(qru_chol_r1_work(m, 1)) +
                 qru_chol_align((size_t)m * (size_t)r) +
                 qru_chol_align((size_t)n) + qru_chol_r1_rotate_work(n, m);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr q = ws, head = qru_ptr_add(q, a), adiag = qru_ptr_add(head, a),
            C = qru_ptr_add(adiag, a), C2 = qru_ptr_add(C, a),
            info = qru_ptr_add(C2, a), rho2 = qru_ptr_add(info, 1),
            ebk = qru_ptr_add(info, qru_chol_align(2)),
            du = qru_ptr_add(ebk, ar), zeta = qru_ptr_add(du, ar),
            work = qru_ptr_add(zeta, ar),
            d1 = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(m, 1))),
            z = qru_ptr_add(d1, qru_chol_align((size_t)m * (size_t)r)),
            rw = qru_ptr_add(z, qru_chol_align((size_t)n));
    qru_ptr Q = f->Q, E = f->E, d = f->d;
    QRU_TRY(o->copy(ctx, dt, 1, m, qru_ptr_add(Q, (size_t)k), ldq, q, 1));
    /* z = e_k - Q1 (Q1' e_k), twice */
    QRU_TRY(o->laset(ctx, dt, 'A', n, 1, 0.0, 0.0, z, n));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 1.0, qru_ptr_add(z, (size_t)k),
                     1));
    QRU_TRY(qru_upd_cgs(ctx, dt, n, m, 1, 2, Q, ldq, z, n, C, m, C2));
    QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, 1, n, 1.0, z, n, z, n, 0.0, rho2,
                    1));
    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    QRU_TRY(o->chol_r1_prep(ctx, dt, 'U', m, 1, -1, f->R, ld, q, m, 0, q, 1,
                            work, head, adiag, info, 0));
    if (r > 0) { /* b_k, then d1 = M \ (d - b_k q); z'E */
        QRU_TRY(o->copy(ctx, dt, 1, r, qru_ptr_add(E, (size_t)k), ldq, ebk,
                        1));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', 1, r, m, 1.0, q, 1, d, ld, 1.0,
                        ebk, 1));
        QRU_TRY(o->chol_r1_rhs(ctx, dt, m, r, -1, q, work, d, ld, d1, m, ebk,
                               1, du));
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, r, n, 1.0, z, n, E, ldq, 0.0,
                        zeta, 1));
    }
    double h[2] = {0.0, 0.0};
    QRU_TRY(qru_chol_read_row(ctx, dt, 2, info, 1, h)); /* the one wait */
    double rho = h[1] > 0.0 ? sqrt(h[1]) : 0.0;
    if (!qru_plan_healthy_info(ctx) &&
        (h[0] != 0.0 || !(rho > qru_upd_downdate_tol(f))))
        return 0; /* the blocked path judges the removal */
    if (!(rho > 0.0))
        rho = 1.0; /* a healthy dry run reads ones: not a value */
    /* commit: Q1 and E, rows k dropped; R1, d1 */
    QRU_TRY(o->geadd(ctx, dt, n, 1, 1.0 / rho, z, n, 0.0, z, n));
    if (r > 0)
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, r, 1, -1.0 / rho, z, n, zeta, 1,
                        1.0, E, ldq));
    QRU_TRY(o->chol_r1_rotate(ctx, dt, n, m, -1.0 / rho,
                              qru_ptr_add(q, (size_t)(m - 1)), -1,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq, z, z, rw));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ldq, 0, n, m, k, 1));
    if (r > 0)
        QRU_TRY(qru_upd_drop_rows(ctx, dt, E, ldq, 0, n, r, k, 1));
    QRU_TRY(o->chol_r1_apply(ctx, dt, 'U', m, 1, f->R, ld, f->R, ld, q, m,
                             work));
    if (r > 0)
        QRU_TRY(o->copy(ctx, dt, m, r, d1, m, d, ld));
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
 * up), so R, d(0:m) and Q's first m columns follow row_r1_thin_remove
 * (p = q1, b_k = q'd).  Then Q(:, m)
 * is +-e_k: row k and column m leave, column n-1 (row n-1 of d) takes the
 * place of column m.  One host wait (the verdict, rho^2, tau and beta);
 * *done = 0 (f unchanged) where the passes fail or rho is below the
 * removals' rank rule: the blocked path then takes the row. */
static int row_r1_full_remove(qru_context *ctx, qru_lsq *f, int k, int *done)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, ld = f->ldr, ldq = f->ncap, nc = n - m;
    *done = 0;
    size_t a = qru_chol_align((size_t)m), ar = qru_chol_align((size_t)r + 1),
           an = qru_chol_align((size_t)n);
    size_t nws = 2 * an + qru_chol_align((size_t)nc) + 3 * a + 3 * ar +
                 qru_chol_align(4) + qru_chol_align(qru_chol_r1_work(m, 1)) +
                 qru_chol_align((size_t)m * (size_t)r) +
                 qru_chol_r1_rotate_work(n, m);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, nws * qru_dtype_size(dt), &ws));
    qru_ptr q = ws, wq = qru_ptr_add(q, an), vec = qru_ptr_add(wq, an),
            head = qru_ptr_add(vec, qru_chol_align((size_t)nc)),
            adiag = qru_ptr_add(head, a), d1 = qru_ptr_add(adiag, a),
            hv = qru_ptr_add(d1, qru_chol_align((size_t)m * (size_t)r)),
            ebk = qru_ptr_add(hv, qru_chol_align(4)),
            du = qru_ptr_add(ebk, ar), tr = qru_ptr_add(du, ar),
            work = qru_ptr_add(tr, ar),
            rw = qru_ptr_add(work, qru_chol_align(qru_chol_r1_work(m, 1)));
    /* hv: info, rho^2, tau, beta (read back together) */
    qru_ptr info = hv, rho2 = qru_ptr_add(hv, 1), tau = qru_ptr_add(hv, 2),
            beta = qru_ptr_add(hv, 3);
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
    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    QRU_TRY(o->chol_r1_prep(ctx, dt, 'U', m, 1, -1, f->R, ld, q, m, 0, q, 1,
                            work, head, adiag, info, 0));
    if (r > 0) { /* b_k = q'd, then d1 = M \ (d(0:m) - b_k q1) */
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', 1, r, n, 1.0, q, 1, d, ld, 0.0,
                        ebk, 1));
        QRU_TRY(o->chol_r1_rhs(ctx, dt, m, r, -1, q, work, d, ld, d1, m, ebk,
                               1, du));
    }
    double h[4] = {0.0, 0.0, 0.0, 0.0};
    QRU_TRY(qru_chol_read_row(ctx, dt, 4, hv, 1, h)); /* the one wait */
    double rho = h[1] > 0.0 ? sqrt(h[1]) : 0.0;
    if (!qru_plan_healthy_info(ctx) &&
        (h[0] != 0.0 || !(rho > qru_upd_downdate_tol(f))))
        return 0; /* the blocked path takes the row */
    if (!(rho > 0.0))
        rho = 1.0; /* a healthy dry run reads ones: not values */
    /* commit: H on Q's complement and d2 */
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, 1, nc, 1.0, Qm, ldq, vec, nc, 0.0,
                    wq, n));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, nc, 1, -h[2], wq, n, vec, 1, 1.0,
                    Qm, ldq));
    if (r > 0) {
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', 1, r, nc, 1.0, vec, nc,
                        qru_ptr_add(d, (size_t)m), ld, 0.0, tr, 1));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nc, r, 1, -h[2], vec, nc, tr, 1,
                        1.0, qru_ptr_add(d, (size_t)m), ld));
    }
    /* x = Q(:, m) has row k = beta = -+rho: with beta < 0 the rotations
     * of -x, which give Q's first m columns alike (x itself leaves) */
    double sg = h[3] < 0.0 ? 1.0 : -1.0;
    QRU_TRY(o->chol_r1_rotate(ctx, dt, n, m, sg / rho,
                              qru_ptr_add(q, (size_t)(m - 1)), -1,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq,
                              qru_ptr_at(Q, ldq, 0, m - 1), -ldq, Qm, Qm, rw));
    /* row k and column m leave; column n-1 (d's row n-1) moves to m */
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ldq, 0, n, n, k, 1));
    if (m < n - 1) {
        QRU_TRY(o->copy(ctx, dt, n - 1, 1, qru_ptr_at(Q, ldq, 0, n - 1), ldq,
                        Qm, ldq));
        if (r > 0)
            QRU_TRY(o->copy(ctx, dt, 1, r, qru_ptr_add(d, (size_t)(n - 1)), ld,
                            qru_ptr_add(d, (size_t)m), ld));
    }
    QRU_TRY(o->chol_r1_apply(ctx, dt, 'U', m, 1, f->R, ld, f->R, ld, q, m,
                             work));
    if (r > 0)
        QRU_TRY(o->copy(ctx, dt, m, r, d1, m, d, ld));
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
