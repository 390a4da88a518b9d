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
 *     rotations (instead of p n), applied to Q(:, 0:m+p) (6 n m p flops),
 *     to the rows 0 .. m+p-1 of R and d (kept transposed, as in
 *     update_rows.c; a rotation of the rows (j-1, j) in sweep q starts at
 *     column j-1-q, left of which both rows are still zero) and to a p x
 *     (m+p) copy of Q(K, 0:m+p) from which the rotations are computed.
 *     Rotation (q, j) (zeroing Q(k+q, j) with the columns (j-1, j)) runs
 *     at step t = m - j + 2q, so that the rotations of one step act on
 *     disjoint pairs of columns and one givens_make / givens_apply call
 *     handles them all (the staggered sweeps of the dissertation's figure
 *     3.1, here over m + p - 1 steps instead of n + p - 2).  The window of
 *     2p columns of Q that one step touches slides by one column per step,
 *     so each column of Q is brought into the cache about once.
 *  3. As in the dissertation: Q(K, :) = [D 0] with |D| = I, so R1 and d1
 *     are the rows p .. of the rotated R and d, and Q1 is Q without the
 *     rows K and the columns 0 .. p-1.
 *
 * Flops: 4 n (n-m) p + 6 n m p + 3 m^2 p (R) instead of 6 n^2 p.
 */
#include "qru_update.h"

/* Default Householder block of step 1 (the GEMMs on Q(:, m:n) have inner
 * dimension nb, so it should be large enough to run them at GEMM speed). */
#define FAST_RR_NB 128
/* The Givens phase is accumulated into GEMMs when p >= FAST_RR_ACC_P, in
 * groups of max(p, FAST_RR_ACC_B) rotations per sweep. */
#define FAST_RR_ACC_P 16
#define FAST_RR_ACC_B 48

int qru_upd_fast_remove_rows(qru_context *ctx, qru_lsq *f, int k, int p)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r;
    int n1 = n - p;
    int nz = n - m; /* >= p: rows of Z */
    int mp = m + p; /* columns the rotations act on */
    int lc = m + r; /* composite [R'; d'] is lc x mp */
    int nb = f->upd_nb > 0 ? f->upd_nb : FAST_RR_NB;
    if (nb > p)
        nb = p;
    int ld = f->ncap;
    qru_ptr Q = f->Q, R = f->R, d = f->d;

    /* workspace (elements) */
    size_t o_zt = 0;
    size_t o_qk = o_zt + (size_t)nz * p;
    size_t o_c = o_qk + (size_t)p * mp;
    size_t o_cs = o_c + (size_t)lc * mp;
    /* the Givens phase is accumulated in blocks (p >= FAST_RR_ACC_P) */
    int acc = p >= FAST_RR_ACC_P;
    int ab = p > FAST_RR_ACC_B ? p : FAST_RR_ACC_B; /* u-block of a group */
    if (ab > m)
        ab = m;
    int ldg = acc ? ab + p : 1;
    size_t o_gw = o_cs + 2 * (size_t)p;
    size_t o_tq = o_gw + (acc ? (size_t)ldg * ldg : 0);
    size_t o_hw = o_tq + (acc ? (size_t)n * ldg : 0);
    size_t total = o_hw + qru_geqr_wy_workspace(nz, p, n, r, nb) + 1;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    qru_ptr Zt = qru_ptr_add(ws, o_zt), QK = qru_ptr_add(ws, o_qk),
            C = qru_ptr_add(ws, o_c), cs = qru_ptr_add(ws, o_cs),
            hw = qru_ptr_add(ws, o_hw), Gw = qru_ptr_add(ws, o_gw),
            Tq = qru_ptr_add(ws, o_tq);

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

    /* 2. the Givens sweeps */
    if (acc) {
        /* Blocked: with u = j - q (1 <= u <= m), group g takes the
         * rotations (q, j = u + q) of all sweeps q for u in a block
         * [ulo, uhi] of b values (blocks from the top).  This is a valid
         * reordering of the sequential sweeps (the rotations that share a
         * column with (q, j) and come before it in sweep order come before
         * it here too), so the results are those of the step order; the
         * group's rotations touch only the w = b + p columns ulo-1 ..
         * uhi+p-1.  They are applied at once to QK and C, accumulated in
         * the w x w orthogonal Gw, and Q(:, window) := Q(:, window) Gw is
         * one GEMM (2 n w^2 flops per group: 8 n m p in all for b = p, at
         * GEMM speed, instead of 6 n m p in memory-bound rotations).
         * Inside a group the steps are staggered as above: step s holds
         * (q, u = uhi + q - s) for max(0, s-b+1) <= q <= min(p-1, s). */
        for (int uhi = m; uhi >= 1; uhi -= ab) {
            int ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
            int bb = uhi - ulo + 1;
            int base = ulo - 1;
            int w = bb + p;
            QRU_TRY(o->laset(ctx, dt, 'A', w, w, 0.0, 1.0, Gw, ldg));
            for (int st = 0; st < bb + p - 1; ++st) {
                int qlo = st - bb + 1 > 0 ? st - bb + 1 : 0;
                int qhi = st < p - 1 ? st : p - 1;
                int cnt = qhi - qlo + 1;
                int j0 = uhi + 2 * qlo - st; /* column zeroed by sweep qlo */
                int s0 = j0 - 1 - qlo > 0 ? j0 - 1 - qlo : 0;
                QRU_TRY(o->givens_make(ctx, dt, cnt,
                                       qru_ptr_at(QK, p, qlo, j0 - 1),
                                       1 + 2 * p, p, cs));
                QRU_TRY(o->givens_apply(ctx, dt, cnt, p, cs,
                                        qru_ptr_at(QK, p, 0, j0 - 1), 2 * p,
                                        p, 1));
                QRU_TRY(o->givens_apply(ctx, dt, cnt, lc - s0, cs,
                                        qru_ptr_at(C, lc, s0, j0 - 1), 2 * lc,
                                        lc, 1));
                QRU_TRY(o->givens_apply(ctx, dt, cnt, w, cs,
                                        qru_ptr_at(Gw, ldg, 0, j0 - 1 - base),
                                        2 * ldg, ldg, 1));
            }
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, w, w, 1.0,
                            qru_ptr_at(Q, ld, 0, base), ld, Gw, ldg, 0.0, Tq,
                            n));
            QRU_TRY(o->copy(ctx, dt, n, w, Tq, n, qru_ptr_at(Q, ld, 0, base),
                            ld));
        }
    } else {
        /* Direct (small p): step t holds the rotations (q, j = m + 2q - t)
         * for max(0, t-m+1) <= q <= min(p-1, t), applied to Q(:, 0:m+p)
         * by one strip call per step. */
        int nsteps = m + p - 1;
        for (int t = 0; t < nsteps; ++t) {
            int qlo = t - m + 1 > 0 ? t - m + 1 : 0;
            int qhi = t < p - 1 ? t : p - 1;
            if (qhi < qlo)
                continue;
            int cnt = qhi - qlo + 1;
            int j0 = m + 2 * qlo - t; /* column zeroed by sweep qlo */
            int s0 = j0 - 1 - qlo > 0 ? j0 - 1 - qlo : 0;
            QRU_TRY(o->givens_make(ctx, dt, cnt,
                                   qru_ptr_at(QK, p, qlo, j0 - 1), 1 + 2 * p,
                                   p, cs));
            QRU_TRY(o->givens_apply(ctx, dt, cnt, p, cs,
                                    qru_ptr_at(QK, p, 0, j0 - 1), 2 * p, p,
                                    1));
            QRU_TRY(o->givens_apply(ctx, dt, cnt, n, cs,
                                    qru_ptr_at(Q, ld, 0, j0 - 1), 2 * ld, ld,
                                    1));
            QRU_TRY(o->givens_apply(ctx, dt, cnt, lc - s0, cs,
                                    qru_ptr_at(C, lc, s0, j0 - 1), 2 * lc, lc,
                                    1));
        }
    }

    /* 3. R1 = rows p .. m+p-1 of G'R (rows m .. n1-1 of R are still zero),
     *    d1 = [rows p .. m+p-1 of G'd; d(m+p:n, :)],
     *    Q1 = Q([0:k, k+p:n], p:n) */
    QRU_TRY(o->transpose(ctx, dt, m, m, qru_ptr_at(C, lc, 0, p), lc, R, ld));
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
