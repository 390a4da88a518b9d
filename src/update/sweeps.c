/*
 * The staggered Givens sweeps of the add-columns update and the fast row
 * removal applied to the matrices they rotate (Q; the transposed rows of
 * R and d): step by step with givens_apply, or for p >= the tuning's
 * sweeps_acc_min_p with the rotations of groups of steps accumulated into
 * small orthogonal matrices (givens_accum) applied with GEMMs; and the
 * rule for the fused givens_sweeps op.  Written once for both precisions.
 */
#include <math.h>

#include "update.h"

int qru_upd_use_sweeps(const qru_context *ctx, qru_dtype dt, int L, int p,
                       int nr)
{
    if (!qru_op_native_dt(ctx, QRU_OP_givens_sweeps, dt) || L < 1 || p < 1)
        return 0;
    double pe = p < L ? p : L;
    return pe * (nr > 1 ? nr : 1) <=
           (double)qru_ctx_tuning(ctx, dt)->sweeps_max_work;
}

/* u-block of the groups of qru_upd_sweeps_apply (0: apply directly):
 * sweeps of p >= sweeps_acc_min_p rotations a step are accumulated, in
 * groups of max(p, sweeps_acc_nb) rotations a sweep. */
int qru_upd_sweeps_block(const qru_context *ctx, qru_dtype dt, int L, int p)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    if (p < t->sweeps_acc_min_p || L < 1)
        return 0;
    int ab = p > t->sweeps_acc_nb ? p : t->sweeps_acc_nb;
    return ab < L ? ab : L;
}

size_t qru_upd_sweeps_workspace(const qru_context *ctx, qru_dtype dt, int L,
                                int p, int nr, int nr2)
{
    int ab = qru_upd_sweeps_block(ctx, dt, L, p);
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
    int ab = qru_upd_sweeps_block(ctx, dt, L, p);
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
            if (nr > 0)
                QRU_TRY(o->givens_apply(ctx, dt, cnt, nr, c,
                                        qru_ptr_at(X, ldx, 0, i0 - 1),
                                        2 * ldx, ldx, 1));
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
    QRU_TRY(qru_upd_sweeps_build(ctx, dt, L, p, cs, ws));
    return qru_upd_sweeps_groups(ctx, dt, L, p, X, ldx, nr, X2, ldx2, nr2,
                                 ws);
}

int qru_upd_sweeps_build(qru_context *ctx, qru_dtype dt, int L, int p,
                         qru_ptr cs, qru_ptr ws)
{
    int ab = qru_upd_sweeps_block(ctx, dt, L, p);
    if (ab == 0)
        return 0;
    /* Every group's Gw by one givens_accum op (group g at g ldg^2). */
    return ctx->ops->givens_accum(ctx, dt, L, p, ab, cs, ws, ab + p);
}

int qru_upd_sweeps_groups(qru_context *ctx, qru_dtype dt, int L, int p,
                          qru_ptr X, int ldx, int nr, qru_ptr X2, int ldx2,
                          int nr2, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int ab = qru_upd_sweeps_block(ctx, dt, L, p);
    if (ab == 0)
        return 0;
    int ldg = ab + p;
    int ng = (L + ab - 1) / ab;
    qru_ptr Gw = ws, T = qru_ptr_add(ws, (size_t)ng * ldg * ldg);
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
     * two columns, so structural zeros of X stay exact zeros. */
    for (int uhi = L, g = 0; uhi >= 1; uhi -= ab, ++g) {
        int ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
        int bb = uhi - ulo + 1;
        int base = ulo - 1;
        int w = bb + p;
        Gw = qru_ptr_add(ws, (size_t)g * ldg * ldg);
        if (nr > 0) {
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nr, w, w, 1.0,
                            qru_ptr_at(X, ldx, 0, base), ldx, Gw, ldg, 0.0,
                            T, nr));
            QRU_TRY(o->copy(ctx, dt, nr, w, T, nr,
                            qru_ptr_at(X, ldx, 0, base), ldx));
        }
        if (X2.h) {
            /* rows before base - p of the window's columns are zero */
            int r0 = base - p > 0 ? base - p : 0;
            if (r0 < nr2) {
                QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nr2 - r0, w, w, 1.0,
                           qru_ptr_at(X2, ldx2, r0, base), ldx2, Gw, ldg, 0.0,
                           T, nr2 - r0));
                QRU_TRY(o->copy(ctx, dt, nr2 - r0, w, T, nr2 - r0,
                           qru_ptr_at(X2, ldx2, r0, base), ldx2));
            }
        }
    }
    return 0;
}

