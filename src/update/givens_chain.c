/*
 * One-row and rank-1 updates by chains of Givens rotations (p = 1,
 * QRU_UPDATE_FAST, where qru_upd_givens_pick takes them), written once
 * for both precisions against the backend table.  Each chain is formed
 * on R (or on a vector) and applied to R's rows, d's rows and Q's
 * columns as pairs of lines: O(m^2) work on R and one pass over the
 * columns of Q it touches, against the panels' GEMMs of the blocked
 * updates (which stay the choice for p > 1 and wherever their plans are
 * priced faster).
 *
 *  - adding one row u (right-hand side e) after row k (LINPACK dchud,
 *      qrupdate's qrinr): u goes below R (row s = the stored rows), e
 *      below d, Q becomes [Q 0; 0 1] with its rows permuted (the new row
 *      at k, its column at qc = n (full) or m (thin)); rotation j
 *      (j = 0 .. m-1) of the rows (j, s) zeroes u_j, on R, d and the
 *      columns (j, qc) of Q.  Full form: the rotated column qc joins Q's
 *      complement and d(s) is its entry; thin form: E := E + Q(:, m)
 *      d(m, :) (the rows leave the triangle, E's new row k is 0);
 *      Q-less form: rho^2 += d(m, :)^2 and the Gram data take u, e.
 *  - removing row k of the full form (qrupdate's qrder, SciPy's
 *      qr_delete): q = Q(k, :) is reduced from the bottom up by the
 *      rotations of the columns (j, j+1), j = n-2 .. 0, to [+-1 0 .. 0];
 *      one sweep (givens_sweeps, p = 1) forms them on a copy of q and
 *      applies them to Q (all rows), d and R (the last m, the rows below
 *      m being zero); R1 and d1 are the rows 1 .. of the rotated R and d
 *      (R upper Hessenberg, so R1 is triangular), Q1 = Q without row k
 *      and column 0.
 *  - the rank-1 modification A + u v' (qrupdate's qr1up, SciPy's
 *      qr_update), full and thin forms: w = Q' u (thin: [Q1' u; Rz] with
 *      u - Q1 Q1' u = Qz Rz, CGS2 and a reflector), one sweep from the
 *      bottom up reduces w to w(0) e_0 (givens_sweeps; R becomes upper
 *      Hessenberg), R(0, :) += w(0) v', and a chain from the top down
 *      (rotations of the rows (j, j+1) zeroing R(j+1, j)) makes R
 *      triangular again; all on a working copy of R, judged by the rank
 *      rule, and only then (commit) both sweeps go to Q's columns and
 *      d's rows (thin: on [Q1 Qz] and [d; dz], E := E - Qz dz + Q(:, m)
 *      d(m, :)).
 */
#include <limits.h>
#include <stdlib.h>

#include "update.h"

/* One rotation: formed from the pair (X, X + ps) into c; applied to len
 * pairs (X + i es, X + ps + i es). */
static int gc_make(qru_context *ctx, qru_dtype dt, qru_ptr X, int ps,
                   qru_ptr c)
{
    return ctx->ops->givens_make(ctx, dt, 1, X, 0, ps, c);
}

static int gc_rot(qru_context *ctx, qru_dtype dt, qru_ptr c, qru_ptr X,
                  int ps, int len, int es)
{
    return len > 0 ? ctx->ops->givens_apply(ctx, dt, 1, len, c, X, 0, ps, es)
                   : 0;
}

/* ---- adding one row ---- */
static int chain_add_row(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U, *e = rq->e;
    int n = f->n, m = f->m, r = f->r, k = rq->k, n1 = n + 1;
    int full = f->q == QRU_Q_FULL, thin = f->q == QRU_Q_THIN;
    int hq = f->q != QRU_Q_NONE, qc = full ? n : m;
    int s = qru_lsq_rrows(f);
    size_t shift = hq ? (size_t)(n - k) * (size_t)(qc > r ? qc : r) : 0;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(
        ctx, (2 * (size_t)m + shift + 1) * qru_dtype_size(dt), &ws));
    qru_ptr cs = ws, sw = qru_ptr_add(ws, 2 * (size_t)m);
    QRU_TRY(qru_lsq_reserve(f, n1, full ? m : m + 1));
    int ld = f->ldr, ldq = f->ncap;
    qru_ptr R = f->R, d = f->d, Q = f->Q;

    QRU_TRY(o->copy(ctx, dt, 1, m, U->p, U->ld, qru_ptr_add(R, (size_t)s),
                    ld));
    QRU_TRY(o->copy(ctx, dt, 1, r, e->p, e->ld, qru_ptr_add(d, (size_t)s),
                    ld));
    if (hq) { /* [Q 0; 0 1], the new row at k */
        QRU_TRY(qru_upd_shift_rows(ctx, dt, Q, ldq, n, qc, k, 1, sw));
        QRU_TRY(o->laset(ctx, dt, 'A', 1, qc, 0.0, 0.0,
                         qru_ptr_add(Q, (size_t)k), ldq));
        QRU_TRY(o->laset(ctx, dt, 'A', n1, 1, 0.0, 0.0,
                         qru_ptr_at(Q, ldq, 0, qc), ldq));
        QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 1.0,
                         qru_ptr_at(Q, ldq, k, qc), ldq));
    }
    if (thin) {
        QRU_TRY(qru_upd_shift_rows(ctx, dt, f->E, ldq, n, r, k, 1, sw));
        QRU_TRY(o->laset(ctx, dt, 'A', 1, r, 0.0, 0.0,
                         qru_ptr_add(f->E, (size_t)k), ldq));
    }
    for (int j = 0; j < m; ++j) {
        qru_ptr c = qru_ptr_add(cs, 2 * (size_t)j), Rj = qru_ptr_at(R, ld, j, j);
        QRU_TRY(gc_make(ctx, dt, Rj, s - j, c));
        QRU_TRY(gc_rot(ctx, dt, c, Rj, s - j, m - j, ld));
    }
    /* u is rotated away: exact zeros */
    QRU_TRY(o->laset(ctx, dt, 'A', 1, m, 0.0, 0.0, qru_ptr_add(R, (size_t)s),
                     ld));
    for (int j = 0; j < m; ++j) {
        qru_ptr c = qru_ptr_add(cs, 2 * (size_t)j);
        QRU_TRY(gc_rot(ctx, dt, c, qru_ptr_add(d, (size_t)j), s - j, r, ld));
        if (hq)
            QRU_TRY(gc_rot(ctx, dt, c, qru_ptr_at(Q, ldq, 0, j),
                           (qc - j) * ldq, n1, 1));
    }
    if (thin && r > 0)
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n1, r, 1, 1.0,
                        qru_ptr_at(Q, ldq, 0, m), ldq,
                        qru_ptr_add(d, (size_t)m), ld, 1.0, f->E, ldq));
    if (!hq) {
        QRU_TRY(qru_upd_rho_add(ctx, f, 1, qru_ptr_add(d, (size_t)m), ld, 1.0));
        QRU_TRY(qru_upd_gram_rows(ctx, f, 1, U->p, U->ld, e->p, e->ld, 1.0));
    }
    f->n = n1;
    return 0;
}

/* ---- removing one row (full form) ---- */
static int chain_remove_row(qru_context *ctx, qru_lsq *f,
                            const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, k = rq->k, n1 = n - 1, L = n - 1;
    int ld = f->ldr, ldq = f->ncap;
    qru_ptr R = f->R, d = f->d, Q = f->Q;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, (3 * (size_t)n + 1) * qru_dtype_size(dt),
                              &ws));
    qru_ptr q = ws, cs = qru_ptr_add(ws, (size_t)n);
    /* the sweep on q = Q(k, :), then on Q, d and R's rows 0 .. m */
    QRU_TRY(o->copy(ctx, dt, 1, n, qru_ptr_add(Q, (size_t)k), ldq, q, 1));
    QRU_TRY(o->givens_sweeps(ctx, dt, L, 1, 1, q, n, 1, 1, 1, cs));
    QRU_TRY(o->givens_sweeps(ctx, dt, L, 1, 0, Q, 1, ldq, n, 0, cs));
    if (r > 0)
        QRU_TRY(o->givens_sweeps(ctx, dt, L, 1, 0, d, ld, 1, r, 0, cs));
    QRU_TRY(o->givens_sweeps(ctx, dt, m, 1, 0, R, ld, 1, m, 0,
                             qru_ptr_add(cs, 2 * (size_t)(L - m))));
    /* R1 = R(1:m+1, :) (upper triangular: R was upper Hessenberg), the
     * rows below zero; d1 = d(1:n, :); Q1 = Q([0:k k+1:n], 1:n) */
    QRU_TRY(o->copy(ctx, dt, m, m, qru_ptr_add(R, 1), ld, R, ld));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, m, 0.0, 0.0, qru_ptr_add(R, (size_t)m),
                     ld));
    if (r > 0)
        QRU_TRY(o->copy(ctx, dt, n1, r, qru_ptr_add(d, 1), ld, d, ld));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, Q, ldq, 1, n, n1, k, 1));
    f->n = n1;
    return 0;
}

/* ---- the rank-1 modification (full and thin forms) ---- */
static int chain_modify(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U, *V = rq->V;
    int n = f->n, m = f->m, r = f->r, st = 0;
    int thin = f->q == QRU_Q_THIN && n > m;
    int N = thin ? m + 1 : n;           /* rows of the problem */
    int top = N < m + 1 ? N : m + 1;    /* rows of R's working copy */
    int L1 = N - 1, L2 = top - 1 < m ? top - 1 : m;
    int ld = f->ldr, ldq = f->ncap;
    int nb = thin ? qru_upd_house_nb(f, ctx, rq->alg, n, 1) : 0;
    size_t o_w = (size_t)top * m, o_c1 = o_w + (size_t)N,
           o_c2 = o_c1 + 2 * (size_t)N, o_z = o_c2 + 2 * (size_t)top + 2,
           o_c = o_z + (thin ? (size_t)n : 0),
           o_qz = o_c + (thin ? (size_t)m : 0),
           o_dz = o_qz + (thin ? (size_t)n : 0),
           o_hh = o_dz + (thin ? (size_t)r : 0),
           total = o_hh + (thin ? qru_upd_basis_workspace(n, m, 1, nb) : 0) + 1;
    double *hdiag = malloc(sizeof(double) * 2 * (size_t)m);
    if (!hdiag)
        return QRU_HOST_ALLOC_FAILED;
    double *hnorm = hdiag + m;
    qru_ptr ws;
    QRU_TRY_GOTO(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr Rw = ws, w = qru_ptr_add(ws, o_w), cs1 = qru_ptr_add(ws, o_c1),
            cs2 = qru_ptr_add(ws, o_c2), Z = qru_ptr_add(ws, o_z),
            C2 = qru_ptr_add(ws, o_c), Qz = qru_ptr_add(ws, o_qz),
            dz = qru_ptr_add(ws, o_dz), hh = qru_ptr_add(ws, o_hh);

    QRU_TRY_GOTO(o->copy(ctx, dt, m, m, f->R, ld, Rw, top));
    if (top > m)
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', top - m, m, 0.0, 0.0,
                              qru_ptr_add(Rw, (size_t)m), top));
    if (thin) {
        /* w = [Q1' u; Rz], u - Q1 Q1' u = Qz Rz, dz = Qz' E */
        QRU_TRY_GOTO(o->copy(ctx, dt, n, 1, U->p, U->ld, Z, n));
        QRU_TRY_GOTO(qru_upd_cgs(ctx, dt, n, m, 1, 2, f->Q, ldq, Z, n, w, N,
                                 C2));
        QRU_TRY_GOTO(qru_upd_basis(ctx, dt, n, m, 1, nb, f->Q, ldq, Z, n, Qz,
                                   n, 1, hh));
        QRU_TRY_GOTO(o->copy(ctx, dt, 1, 1, Z, n, qru_ptr_add(w, (size_t)m),
                             N));
        if (r > 0)
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', 1, r, n, 1.0, Qz, n, f->E,
                                 ldq, 0.0, dz, 1));
    } else {
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', n, 1, n, 1.0, f->Q, ldq, U->p,
                             U->ld, 0.0, w, N));
    }
    /* w := w(0) e_0 from the bottom up; R upper Hessenberg */
    if (L1 > 0)
        QRU_TRY_GOTO(o->givens_sweeps(ctx, dt, L1, 1, 1, w, N, 1, 1, 1, cs1));
    if (top > 1)
        QRU_TRY_GOTO(o->givens_sweeps(
            ctx, dt, top - 1, 1, 0, Rw, top, 1, m, 0,
            qru_ptr_add(cs1, 2 * (size_t)(L1 - (top - 1)))));
    /* R(0, :) += w(0) v' */
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'C', 1, m, 1, 1.0, w, 1, V->p, V->ld,
                         1.0, Rw, top));
    /* the subdiagonal from the top down */
    for (int j = 0; j < L2; ++j) {
        qru_ptr c = qru_ptr_add(cs2, 2 * (size_t)j),
                Rj = qru_ptr_at(Rw, top, j, j);
        QRU_TRY_GOTO(gc_make(ctx, dt, Rj, 1, c));
        QRU_TRY_GOTO(gc_rot(ctx, dt, c, Rj, 1, m - j, top));
    }
    if (top > 1)
        QRU_TRY_GOTO(o->laset(ctx, dt, 'L', top - 1, m, 0.0, 0.0,
                              qru_ptr_add(Rw, 1), top));
    if (qru_lsq_judges_rank(f, 1)) {
        QRU_TRY_GOTO(qru_qr_rank_gather(ctx, dt, m, m, Rw, Rw, top, hdiag,
                                        hnorm));
        if ((st = qru_qr_rank_first(dt, n, m, 0, hdiag, hnorm)) != 0)
            goto done;
    }

    /* commit: [Q1 Qz], [d; dz], E - Qz dz (thin); both sweeps on Q, d */
    if (thin) {
        QRU_TRY_GOTO(qru_lsq_reserve(f, n, m + 1));
        ld = f->ldr;
        ldq = f->ncap;
        QRU_TRY_GOTO(o->copy(ctx, dt, n, 1, Qz, n, qru_ptr_at(f->Q, ldq, 0, m),
                             ldq));
        if (r > 0) {
            QRU_TRY_GOTO(o->copy(ctx, dt, 1, r, dz, 1,
                                 qru_ptr_add(f->d, (size_t)m), ld));
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, 1, -1.0, Qz, n, dz,
                                 1, 1.0, f->E, ldq));
        }
    }
    qru_ptr Q = f->Q, d = f->d;
    if (L1 > 0) {
        QRU_TRY_GOTO(o->givens_sweeps(ctx, dt, L1, 1, 0, Q, 1, ldq, n, 0,
                                      cs1));
        if (r > 0)
            QRU_TRY_GOTO(o->givens_sweeps(ctx, dt, L1, 1, 0, d, ld, 1, r, 0,
                                          cs1));
    }
    for (int j = 0; j < L2; ++j) {
        qru_ptr c = qru_ptr_add(cs2, 2 * (size_t)j);
        QRU_TRY_GOTO(gc_rot(ctx, dt, c, qru_ptr_at(Q, ldq, 0, j), ldq, n, 1));
        QRU_TRY_GOTO(gc_rot(ctx, dt, c, qru_ptr_add(d, (size_t)j), 1, r, ld));
    }
    if (thin && r > 0) /* the row m of d leaves the triangle */
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, 1, 1.0,
                             qru_ptr_at(Q, ldq, 0, m), ldq,
                             qru_ptr_add(d, (size_t)m), ld, 1.0, f->E, ldq));
    QRU_TRY_GOTO(o->copy(ctx, dt, thin ? m : top, m, Rw, top, f->R, ld));
done:
    free(hdiag);
    return st;
}

int qru_upd_chain_run(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                      int *done)
{
    *done = 0;
    if (rq->p != 1)
        return 0;
    int full = f->q == QRU_Q_FULL;
    /* the chains address Q's column pairs with int element offsets (the
     * capacity grows at most twofold) */
    size_t span = (size_t)(full ? f->n + 1 : f->m + 1) * 2 *
                  (size_t)(f->n + 1);
    if (span > INT_MAX)
        return 0;
    switch (rq->op) {
    case QRU_UPD_OP_ADD_ROWS:
        break;
    case QRU_UPD_OP_REMOVE_ROWS:
        if (!full || f->n - 1 < f->m)
            return 0;
        break;
    case QRU_UPD_OP_MODIFY:
        if (f->q == QRU_Q_NONE)
            return 0;
        break;
    default:
        return 0;
    }
    int g;
    QRU_TRY(qru_upd_givens_pick(ctx, f, rq, &g));
    if (!g)
        return 0;
    *done = 1;
    switch (rq->op) {
    case QRU_UPD_OP_ADD_ROWS:
        return chain_add_row(ctx, f, rq);
    case QRU_UPD_OP_REMOVE_ROWS:
        return chain_remove_row(ctx, f, rq);
    default:
        return chain_modify(ctx, f, rq);
    }
}
