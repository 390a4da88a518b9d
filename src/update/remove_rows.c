/*
 * Removing rows of a least-squares QR factorisation, written once for
 * both precisions against the backend table.
 *
 * The dissertation's algorithm (Andrew 2012, sections 2.4.4 and 4.4):
 *
 *  - removing the p rows after row k (needs Q): strips of Givens rotations
 *      (makeGivens / applyGivens, section 3.2, figure 3.1) reduce the rows
 *      k+1..k+p of Q to [D 0] (D diagonal, |D| = I), sweep q removing row
 *      k+q from the right, the sweeps staggered by two steps.  The rotations
 *      act on pairs of adjacent columns of Q and of the composite
 *      [R'; d'] (figure 4.5, kept transposed in workspace so that the rows
 *      of R and d are contiguous); then R1, d1 are rows p+1..n of the
 *      rotated R, d and Q1 is Q without rows k+1..k+p and columns 1..p.
 *
 * QRU_UPDATE_FAST: faster variants of the QR updates that need Q, written
 * once for both precisions against the backend table (only existing ops:
 * transpose, copy, gemm through qru_geqr_wy, givens_make / givens_apply).
 *
 * Removing the p rows K = k .. k+p-1 (qru_upd_fast_remove_rows).  The
 * dissertation's algorithm (above) reduces the rows K of Q to
 * [D 0] with p sweeps of adjacent Givens rotations that run over all n
 * columns of Q: p n rotations of length n, 6 n^2 p flops, memory-bound.
 * Here the rows m .. n-1 of R are zero, so on the columns m .. n-1 of Q any
 * orthogonal transformation H may be used without touching R (R := H' R
 * leaves the zero rows zero):
 *
 *  1. H = p Householder reflectors in compact WY form from the QR of the
 *     (n-m) x p block Z = Q(K, m:n)' (qru_geqr_wy on its transpose), so
 *     that Q(K, m:n) H = [L 0] with L p x p lower triangular.  Q(:, m:n)
 *     := Q(:, m:n) H and d(m:n, :) := H' d(m:n, :) are GEMMs with inner
 *     dimension p: 4 n (n-m) p flops at GEMM speed.
 *  2. Row k+q of Q now has no entries right of column m+q, so sweep q of
 *     the Givens strips only has to remove the entries q+1 .. m+q: p m
 *     rotations (instead of p n).  They are computed on a p x (m+p) copy
 *     QK of Q(K, 0:m+p) alone (rotation (q, j), zeroing QK(q, j) with the
 *     columns (j-1, j), runs at step t = m - j + 2q, so that one
 *     givens_make / givens_apply call handles the disjoint rotations of a
 *     step: the staggered sweeps of the dissertation's figure 3.1, over
 *     m + p - 1 steps instead of n + p - 2), and then applied to Q(:, 0:m+p)
 *     and to the rows 0 .. m+p-1 of R and d (kept transposed in C, as in
 *     the dissertation's; a rotation of the rows (j-1, j) in sweep q starts at
 *     column j-1-q, left of which both rows are still zero) by
 *     qru_upd_sweeps_apply: for p >= 16 the rotations are accumulated in
 *     groups into (b+p) x (b+p) orthogonal matrices (b = max(p, 48))
 *     applied with GEMMs, 8 n m p flops at GEMM speed instead of 6 n m p
 *     flops of memory-bound rotations.
 *  3. As in the dissertation: Q(K, :) = [D 0] with |D| = I, so R1 and d1
 *     are the rows p .. of the rotated R and d, and Q1 is Q without the
 *     rows K and the columns 0 .. p-1.
 *
 * Flops: 4 n (n-m) p + 8 n m p (p >= 16; 6 n m p below) + O(m^2 p) instead
 * of 6 n^2 p (docs/performance.md).
 *
 * The add-columns update uses qru_upd_sweeps_apply too, for its Givens
 * phase on Q (add_cols.c).
 */

#include <math.h>

#include "qru_flops.h"
#include "update.h"

/* Q1 = Q([1:k k+p+1:n], p+1:n) in place (n1 = n - p; the copies move
 * towards the start, as the copy op allows). */
static int drop_q_rows(qru_context *ctx, qru_dtype dt, qru_ptr Q, int ld,
                       int k, int p, int n1)
{
    const qru_backend_ops *o = ctx->ops;
    if (k > 0)
        QRU_TRY(o->copy(ctx, dt, k, n1, qru_ptr_at(Q, ld, 0, p), ld, Q, ld));
    if (n1 > k)
        QRU_TRY(o->copy(ctx, dt, n1 - k, n1, qru_ptr_at(Q, ld, k + p, p), ld,
                        qru_ptr_add(Q, (size_t)k), ld));
    return 0;
}

int qru_lsq_remove_rows(qru_lsq *f, int k, int p)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int n = f->n, m = f->m;
    QRU_ARG(ctx, 2, k >= 0 && k < n,
            "k = %d, but 0 <= k < n = %d must hold", k, n);
    QRU_ARG(ctx, 3, p >= 1, "p = %d, but p must be >= 1", p);
    QRU_ARG(ctx, 3, p <= n - k,
            "p = %d, but k + p must be <= n = %d (k = %d)", p, n, k);
    QRU_ARG(ctx, 3, n - p >= m,
            "p = %d, but n - p must stay >= m = %d (n = %d): A stays tall",
            p, m, n);
    if (!f->has_q)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation was created "
                                            "without QRU_LSQ_KEEP_Q"));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                       (qru_upd_req){QRU_UPD_OP_REMOVE_ROWS, k, p, NULL, NULL,
                                     0}));
}

int qru_upd_remove_rows(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, p = rq->p;
    if (rq->alg == QRU_UPDATE_FAST)
        return qru_upd_fast_remove_rows(ctx, f, k, p);

    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n1 = n - p;
    int lc = m + r; /* composite [R'; d'] is lc x n */
    size_t total = (size_t)lc * n + 2 * (size_t)p + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr C = ws, cs = qru_ptr_add(ws, (size_t)lc * n);
    int ld = f->ncap;
    qru_ptr Q = f->Q;

    QRU_TRY(o->transpose(ctx, dt, n, m, f->R, ld, C, lc));
    QRU_TRY(o->transpose(ctx, dt, n, r, f->d, ld, qru_ptr_add(C, (size_t)m),
                         lc));
    /* sweep q (0 <= q < p) zeroes Q(k+q, j), j = n-1 down to q+1, with the
     * columns (j-1, j); rotation (q, j) runs at step n-1-j+2q */
    int nsteps = n + p - 2;
    for (int t = 0; t < nsteps; ++t) {
        int qlo = t - n + 2 > 0 ? t - n + 2 : 0;
        int qhi = t / 2 < p - 1 ? t / 2 : p - 1;
        if (qhi < qlo)
            continue;
        int cnt = qhi - qlo + 1;
        int j0 = n - 1 - t + 2 * qlo; /* column zeroed by sweep qlo */
        QRU_TRY(o->givens_make(ctx, dt, cnt,
                               qru_ptr_at(Q, ld, k + qlo, j0 - 1), 1 + 2 * ld,
                               ld, cs));
        QRU_TRY(o->givens_apply(ctx, dt, cnt, n, cs,
                                qru_ptr_at(Q, ld, 0, j0 - 1), 2 * ld, ld, 1));
        QRU_TRY(o->givens_apply(ctx, dt, cnt, lc, cs,
                                qru_ptr_at(C, lc, 0, j0 - 1), 2 * lc, lc, 1));
    }
    /* R1 = rows p+1..n of G'R, d1 likewise; Q1 = Q([1:k k+p+1:n], p+1:n) */
    QRU_TRY(o->transpose(ctx, dt, m, n1, qru_ptr_at(C, lc, 0, p), lc, f->R,
                         ld));
    QRU_TRY(o->transpose(ctx, dt, r, n1, qru_ptr_at(C, lc, m, p), lc, f->d,
                         ld));
    QRU_TRY(drop_q_rows(ctx, dt, Q, ld, k, p, n1));
    f->n = n1;
    return 0;
}

/* ---- staggered sweeps of adjacent rotations ----
 * Sweep j (0 <= j < p) is the chain of rotations of the local column
 * pairs (i-1, i), i = L+j down to j+1 (it moves an entry of "row j" from
 * column L+j to column j).  Rotation (j, i) runs at step t = L + 2j - i,
 * so one step holds the sweeps jlo .. jlo+cnt-1 at the columns i0,
 * i0+2, ... (disjoint pairs) and the sweeps are applied in a valid order
 * (each rotation after those of the earlier sweeps that share a column
 * with it).  The c, s of the rotations are stored in cs in step order,
 * 2 cnt values per step.  The add-columns update (L = m-k) and the fast
 * remove-rows update (L = m) both have this structure. */
int qru_upd_rr_nb(const qru_lsq *f, int p)
{
    int nb = f->upd_nb > 0 ? f->upd_nb
                           : qru_ctx_tuning(f->ctx, f->dtype)->upd_rows_nb;
    return nb > p ? p : nb;
}

int qru_upd_fast_remove_rows(qru_context *ctx, qru_lsq *f, int k, int p)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r;
    int n1 = n - p;
    int nz = n - m; /* >= p: rows of Z */
    int mp = m + p; /* columns the rotations act on */
    int lc = m + r; /* composite [R'; d'] is lc x mp */
    int nb = qru_upd_rr_nb(f, p);
    int ld = f->ncap;
    qru_ptr Q = f->Q, R = f->R, d = f->d;

    /* workspace (elements) */
    size_t o_zt = 0;
    size_t o_qk = o_zt + (size_t)nz * p;
    size_t o_c = o_qk + (size_t)p * mp;
    size_t o_cs = o_c + (size_t)lc * mp;
    size_t o_sw = o_cs + 2 * (size_t)p * m;
    size_t o_hw = o_sw + qru_upd_sweeps_workspace(ctx, m, p, n, lc);
    size_t total = o_hw + qru_geqr_wy_workspace(nz, p, n, r, nb) + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr Zt = qru_ptr_add(ws, o_zt), QK = qru_ptr_add(ws, o_qk),
            C = qru_ptr_add(ws, o_c), cs = qru_ptr_add(ws, o_cs),
            sw = qru_ptr_add(ws, o_sw), hw = qru_ptr_add(ws, o_hw);

    /* 1. Zt = Q(K, m:n)'; Zt := P' Zt = [Rz; 0], Q(:, m:n) := Q(:, m:n) P,
     *    d(m:n, :) := P' d(m:n, :) */
    QRU_TRY(o->transpose(ctx, dt, p, nz, qru_ptr_at(Q, ld, k, m), ld, Zt, nz));
    QRU_TRY(qru_geqr_wy(ctx, dt, nz, p, Zt, nz, qru_ptr_at(Q, ld, 0, m), ld, n,
                        qru_ptr_add(d, (size_t)m), ld, r, nb, hw));

    /* QK = [Q(K, 0:m)  Rz'] (Rz' lower triangular with exact zeros) */
    QRU_TRY(o->copy(ctx, dt, p, m, qru_ptr_add(Q, (size_t)k), ld, QK, p));
    QRU_TRY(o->transpose(ctx, dt, p, p, Zt, nz, qru_ptr_at(QK, p, 0, m), p));
    /* C = [R(0:mp, :)'; d(0:mp, :)'] */
    QRU_TRY(o->transpose(ctx, dt, mp, m, R, ld, C, lc));
    QRU_TRY(o->transpose(ctx, dt, mp, r, d, ld, qru_ptr_add(C, (size_t)m), lc));

    /* 2. the sweeps (L = m): sweep q zeroes QK(q, m+q .. q+1); computed on
     *    QK alone, then applied to Q(:, 0:m+p) and to C (whose column j,
     *    row j of R, is still zero left of column j-1-q when sweep q
     *    rotates the columns (j-1, j)) */
    /* all the steps in one call when the backend's fused sweeps pay off */
    QRU_TRY((qru_upd_use_sweeps(ctx, dt, m, p, p) ? o->givens_sweeps
                                               : qru_ref_givens_sweeps)(
        ctx, dt, m, p, 1, QK, 1, p, p, 0, cs));
    QRU_TRY(qru_upd_sweeps_apply(ctx, dt, m, p, cs, Q, ld, n, C, lc, lc, sw));

    /* 3. R1 = rows p .. m+p-1 of G'R (rows m .. n1-1 of R are still zero),
     *    d1 = [rows p .. m+p-1 of G'd; d(m+p:n, :)],
     *    Q1 = Q([0:k, k+p:n], p:n) */
    QRU_TRY(o->transpose(ctx, dt, m, m, qru_ptr_at(C, lc, 0, p), lc, R, ld));
    /* (exact zeros already; cheap insurance against a GEMM that would not
     * keep 0 * x + 0 * y exactly 0) */
    if (m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(R, 1), ld));
    QRU_TRY(o->transpose(ctx, dt, r, m, qru_ptr_at(C, lc, m, p), lc, d, ld));
    if (n1 > m)
        QRU_TRY(o->copy(ctx, dt, n1 - m, r, qru_ptr_add(d, (size_t)mp), ld,
                        qru_ptr_add(d, (size_t)m), ld));
    QRU_TRY(drop_q_rows(ctx, dt, Q, ld, k, p, n1));
    f->n = n1;
    return 0;
}

/* The cost of the fast update (qru_upd_cost, update.h; flops: the formula
 * of include/qru.h): the first phase (qru_geqr_wy of the p columns), one
 * givens_make and one givens_apply per sweep step (a sweeps step each with
 * the fused sweeps) and 4 calls per accumulated group. */
void qru_upd_remove_rows_cost(const qru_lsq *f, const qru_context *ctx, int k, int p,
                              qru_upd_cost *out)
{
    int n = f->n, m = f->m, r = f->r;
    double fl = 0.0, c = 0.0, st = 0.0, sw = 0.0;
    (void)k; /* the same at every k */

    double dn = n, dm = m, dp = p;
    fl = 4.0 * dn * (dn - dm) * dp + 8.0 * dn * dm * dp +
         6.0 * dp * (dm + dp) * (dm + r);
    {
        int ab = qru_upd_sweeps_block(m, p);
        double nst = dm + dp - 1.0;
        /* the first phase, qru_geqr_wy of the p columns: a panel and
         * 4 GEMMs (2 with r = 0) a block, or 3 calls a column in
         * the reference panels */
        int nb = qru_upd_rr_nb(f, p);
        double nblk = ceil(dp / nb);
        c = (qru_use_fused_panel(ctx) ? nblk : 3.0 * dp + nblk) +
            (r > 0 ? 6.0 : 4.0) * nblk - 2.0 + 12.0;
        if (qru_upd_use_sweeps(ctx, f->dtype, m, p, p)) { /* one call */
            sw = nst;
        } else {
            c += 2.0 * nst;
        }
        /* on Q and [R'; d']: accumulated groups, 4 calls each */
        if (ab)
            c += 4.0 * ceil(dm / ab) + qru_upd_accum_calls(ctx, m, p, ab);
        else
            c += 2.0 * nst;
    }

    out->flops = fl;
    out->calls = c;
    out->steps = st;
    out->sweeps = sw;
}
