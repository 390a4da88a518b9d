/*
 * QRU_UPDATE_FAST: faster variants of the QR updates that need Q, written
 * once for both precisions against the backend table (only existing ops:
 * transpose, copy, gemm through qru_geqr_wy, givens_make / givens_apply).
 *
 * Removing the p rows K = k .. k+p-1 (qru_upd_fast_remove_rows).  The
 * dissertation's algorithm (update_rows.c) reduces the rows K of Q to
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
 *     update_rows.c; a rotation of the rows (j-1, j) in sweep q starts at
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
 * phase on Q (update_cols.c).
 */

#include "qru_update.h"

/* Sweeps of p >= FAST_ACC_P rotations per step are accumulated into GEMMs,
 * in groups of max(p, FAST_ACC_B) rotations per sweep. */
#define FAST_ACC_P 16
#define FAST_ACC_B 48

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

int qru_upd_use_sweeps(const qru_context *ctx, qru_dtype dt, int L, int p,
                       int nr)
{
    if (!qru_op_native(ctx, QRU_OP_givens_sweeps) || L < 1 || p < 1)
        return 0;
    double pe = p < L ? p : L;
    return pe * (nr > 1 ? nr : 1) <=
           (double)qru_ctx_tuning(ctx, dt)->sweeps_max_work;
}

/* u-block of the groups of qru_upd_sweeps_apply (0: apply directly). */
int qru_upd_sweeps_block(int L, int p)
{
    if (p < FAST_ACC_P || L < 1)
        return 0;
    int ab = p > FAST_ACC_B ? p : FAST_ACC_B;
    return ab < L ? ab : L;
}

size_t qru_upd_sweeps_workspace(const qru_context *ctx, int L, int p, int nr,
                                int nr2)
{
    (void)ctx;
    int ab = qru_upd_sweeps_block(L, p);
    if (ab == 0)
        return 0;
    size_t w = (size_t)ab + p;
    size_t rows = (size_t)(nr > nr2 ? nr : nr2);
    /* every group's matrix at once (givens_accum) */
    size_t ng = (size_t)((L + ab - 1) / ab);
    return ng * w * w + rows * w;
}

int qru_upd_sweeps_apply(qru_context *ctx, qru_dtype dt, int L, int p,
                         qru_ptr cs, qru_ptr X, int ldx, int nr, qru_ptr X2,
                         int ldx2, int nr2, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int nsteps = L > 0 ? L + p - 1 : 0;
    int ab = qru_upd_sweeps_block(L, p);
    if (nsteps == 0)
        return 0;
    if (ab == 0) {
        /* direct: one strip call per step and target */
        size_t off = 0;
        for (int t = 0; t < nsteps; ++t) {
            int jlo, cnt, i0;
            qru_sweep_step(L, p, t, &jlo, &cnt, &i0);
            if (cnt == 0)
                continue;
            qru_ptr c = qru_ptr_add(cs, off);
            QRU_TRY(o->givens_apply(ctx, dt, cnt, nr, c,
                                    qru_ptr_at(X, ldx, 0, i0 - 1), 2 * ldx,
                                    ldx, 1));
            if (X2.h) {
                int s0 = i0 - 1 - jlo > 0 ? i0 - 1 - jlo : 0;
                if (s0 > nr2)
                    s0 = nr2;
                QRU_TRY(o->givens_apply(ctx, dt, cnt, nr2 - s0, c,
                                        qru_ptr_at(X2, ldx2, s0, i0 - 1),
                                        2 * ldx2, ldx2, 1));
            }
            off += 2 * (size_t)cnt;
        }
        return 0;
    }
    int ldg = ab + p;
    int ng = (L + ab - 1) / ab;
    qru_ptr Gw = ws, T = qru_ptr_add(ws, (size_t)ng * ldg * ldg);
#define CK(x) QRU_TRY(x)
    /* Group g holds the rotations (j, i = u + j) of all sweeps for u in a
     * block [ulo, uhi] of ab values (blocks from the top, u = L .. 1).
     * This is again a valid order (the rotations that share a column with
     * (j, i) and come before it in sweep order are in the same group or
     * in an earlier one, and before it inside the group), so the results
     * are those of the step order.  A group touches only the w = b + p
     * local columns ulo-1 .. uhi+p-1: its rotations are accumulated in the
     * w x w orthogonal Gw (strips again: group step s holds the sweeps
     * max(0, s-b+1) .. min(p-1, s), which are a contiguous part of the
     * global step t = L - uhi + s), then X(:, window) := X(:, window) Gw is
     * one GEMM: 2 nr w^2 flops per group, 8 nr L p in all for b = p (the
     * rotations are 6 nr L p flops, but memory-bound and on one core).
     * Gw has an exact zero wherever no chain of the group's rotations links
     * two columns, so structural zeros of X stay exact zeros.  Every
     * group's Gw is built by one givens_accum op (group g at g ldg^2). */
    CK(o->givens_accum(ctx, dt, L, p, ab, cs, Gw, ldg));
    for (int uhi = L, g = 0; uhi >= 1; uhi -= ab, ++g) {
        int ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
        int bb = uhi - ulo + 1;
        int base = ulo - 1;
        int w = bb + p;
        Gw = qru_ptr_add(ws, (size_t)g * ldg * ldg);
        CK(o->gemm(ctx, dt, 'N', 'N', nr, w, w, 1.0,
                   qru_ptr_at(X, ldx, 0, base), ldx, Gw, ldg, 0.0, T, nr));
        CK(o->copy(ctx, dt, nr, w, T, nr, qru_ptr_at(X, ldx, 0, base), ldx));
        if (X2.h) {
            /* rows before base - p of the window's columns are zero */
            int r0 = base - p > 0 ? base - p : 0;
            if (r0 < nr2) {
                CK(o->gemm(ctx, dt, 'N', 'N', nr2 - r0, w, w, 1.0,
                           qru_ptr_at(X2, ldx2, r0, base), ldx2, Gw, ldg, 0.0,
                           T, nr2 - r0));
                CK(o->copy(ctx, dt, nr2 - r0, w, T, nr2 - r0,
                           qru_ptr_at(X2, ldx2, r0, base), ldx2));
            }
        }
    }
#undef CK
    return 0;
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
    if (k > 0)
        QRU_TRY(o->copy(ctx, dt, k, n1, qru_ptr_at(Q, ld, 0, p), ld, Q, ld));
    if (n1 > k)
        QRU_TRY(o->copy(ctx, dt, n1 - k, n1, qru_ptr_at(Q, ld, k + p, p), ld,
                        qru_ptr_add(Q, (size_t)k), ld));
    f->n = n1;
    return 0;
}
