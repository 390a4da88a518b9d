/*
 * Reference implementations of the optional ops of the op list
 * (qru_ops.h): each is the sequence of basic ops that its contract
 * describes, run through ctx->ops.  The context uses them for a backend
 * without its own fused kernel and, with QRU_OPTION_REFERENCE_OPS, in
 * place of the fused kernels (to test and to compare them).
 */
#include "qru_internal.h"

/* The per-column Householder panel: house + larf + wy_append a column. */
int qru_ref_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb,
                     qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W,
                     int ldw, qru_ptr tau, qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    QRU_TRY(o->laset(ctx, dt, 'A', m, nb, 0.0, 1.0, Y, ldy));
    for (int j = 0; j < nb; ++j) {
        qru_ptr tj = qru_ptr_add(tau, (size_t)j);
        qru_ptr yj = qru_ptr_at(Y, ldy, j + 1, j);
        QRU_TRY(o->house(ctx, dt, m - j - 1, qru_ptr_at(A, lda, j, j),
                     qru_ptr_at(A, lda, j + 1, j), yj, tj));
        QRU_TRY(o->larf(ctx, dt, m - j - 1, nb - j - 1, yj, tj,
                    qru_ptr_at(A, lda, j, j + 1), lda,
                    qru_ptr_at(A, lda, j + 1, j + 1), lda, work));
        QRU_TRY(o->wy_append(ctx, dt, m, j, Y, ldy, W, ldw, tj, work));
    }
    return 0;
}

/* The two-part panel: gathered into work (after panel_qr's own part),
 * factored by panel_qr, scattered back, through the table o. */
int qru_panel_qr_tp_gather(qru_context *ctx, const qru_backend_ops *o,
                           qru_dtype dt, int mt, int mb, int nb, qru_ptr A,
                           int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy,
                           qru_ptr W, int ldw, qru_ptr tau, qru_ptr work)
{
    int m = mt + mb;
    if (m <= 0 || nb <= 0)
        return 0;
    qru_ptr P = qru_ptr_add(work, qru_panel_work(m, nb));
    qru_ptr Pb = qru_ptr_add(P, (size_t)mt);
    QRU_TRY(o->copy(ctx, dt, mt, nb, A, lda, P, m));
    QRU_TRY(o->copy(ctx, dt, mb, nb, B, ldb, Pb, m));
    QRU_TRY(o->panel_qr(ctx, dt, m, nb, P, m, Y, ldy, W, ldw, tau, work));
    QRU_TRY(o->copy(ctx, dt, mt, nb, P, m, A, lda));
    return o->copy(ctx, dt, mb, nb, Pb, m, B, ldb);
}

/* The reference op: that sequence through the context's ops. */
int qru_ref_panel_qr_tp(qru_context *ctx, qru_dtype dt, int mt, int mb,
                        int nb, qru_ptr A, int lda, qru_ptr B, int ldb,
                        qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                        qru_ptr work)
{
    return qru_panel_qr_tp_gather(ctx, ctx->ops, dt, mt, mb, nb, A, lda, B,
                                  ldb, Y, ldy, W, ldw, tau, work);
}

/* The block reflector on a two-part matrix: the GEMM sequence (a geadd
 * for an identity top) through the table o. */
int qru_wy_left_gemms(qru_context *ctx, const qru_backend_ops *o,
                      qru_dtype dt, char ytop, int mt, int mb, int nb, int nc,
                      qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr A,
                      int lda, qru_ptr B, int ldb, qru_ptr work)
{
    if (nb <= 0 || nc <= 0 || mt + mb <= 0)
        return 0;
    double b = 0.0;
    if (mt > 0) {
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', nb, nc, mt, 1.0, W, ldw, A, lda,
                        0.0, work, nb));
        b = 1.0;
    }
    if (mb > 0)
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', nb, nc, mb, 1.0,
                        qru_ptr_add(W, (size_t)mt), ldw, B, ldb, b, work,
                        nb));
    if (mt > 0)
        QRU_TRY(ytop == 'I'
                    ? o->geadd(ctx, dt, mt, nc, 1.0, work, nb, 1.0, A, lda)
                    : o->gemm(ctx, dt, 'N', 'N', mt, nc, nb, 1.0, Y, ldy,
                              work, nb, 1.0, A, lda));
    if (mb > 0)
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', mb, nc, nb, 1.0,
                        qru_ptr_add(Y, (size_t)mt), ldy, work, nb, 1.0, B,
                        ldb));
    return 0;
}

/* The reference op: that sequence through the context's ops. */
int qru_ref_wy_left(qru_context *ctx, qru_dtype dt, char ytop, int mt,
                    int mb, int nb, int nc, qru_ptr Y, int ldy, qru_ptr W,
                    int ldw, qru_ptr A, int lda, qru_ptr B, int ldb,
                    qru_ptr work)
{
    return qru_wy_left_gemms(ctx, ctx->ops, dt, ytop, mt, mb, nb, nc, Y, ldy,
                             W, ldw, A, lda, B, ldb, work);
}

/* One in-order queue: nothing to switch or join. */
int qru_ref_lane(qru_context *ctx, qru_dtype dt, int l)
{
    (void)ctx;
    (void)dt;
    (void)l;
    return 0;
}

int qru_ref_lane_mark(qru_context *ctx, qru_dtype dt)
{
    (void)ctx;
    (void)dt;
    return 0;
}

int qru_ref_lane_join(qru_context *ctx)
{
    (void)ctx;
    return 0;
}

/* No verdict flag: the verdicts are counted. */
int qru_ref_verdict_flag(qru_context *ctx, qru_dtype dt, qru_ptr *flag,
                         void **hp)
{
    (void)ctx;
    (void)dt;
    flag->h = NULL;
    flag->off = 0;
    *hp = NULL;
    return 0;
}

/* No on-chip limit to report. */
int qru_ref_panel_qr_max_nb(qru_context *ctx, qru_dtype dt, int extra,
                            int *nb)
{
    (void)ctx;
    (void)dt;
    (void)extra;
    *nb = 0;
    return 0;
}

void qru_sweep_step(int L, int p, int t, int *jlo, int *cnt, int *i0)
{
    int lo = t - L + 1 > 0 ? t - L + 1 : 0;
    int hi = t < p - 1 ? t : p - 1;
    *jlo = lo;
    *cnt = hi >= lo ? hi - lo + 1 : 0;
    *i0 = L + 2 * lo - t;
}

/* One givens_make (make != 0) and one givens_apply per step. */
int qru_ref_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                          int make, qru_ptr X, long xrs, long xcs, int nr,
                          int from_jlo, qru_ptr cs)
{
    const qru_backend_ops *o = ctx->ops;
    size_t off = 0;
    for (int t = 0; L > 0 && t < L + p - 1; ++t) {
        int jlo, cnt, i0;
        qru_sweep_step(L, p, t, &jlo, &cnt, &i0);
        if (cnt == 0)
            continue;
        qru_ptr c = qru_ptr_add(cs, off);
        if (make)
            QRU_TRY(o->givens_make(ctx, dt, cnt,
                               qru_ptr_add(X, (size_t)(jlo * xrs +
                                                       (i0 - 1) * xcs)),
                               (int)(xrs + 2 * xcs), (int)xcs, c));
        int r0 = from_jlo ? jlo : 0;
        if (nr > r0)
            QRU_TRY(o->givens_apply(ctx, dt, cnt, nr - r0, c,
                                qru_ptr_add(X, (size_t)(r0 * xrs +
                                                        (i0 - 1) * xcs)),
                                (int)(2 * xcs), (int)xcs, (int)xrs));
        off += 2 * (size_t)cnt;
    }
    return 0;
}

/* The solve, then the prep: the triangle read twice. */
int qru_ref_chol_r1_solve_prep(qru_context *ctx, qru_dtype dt, char uplo,
                               int n, int sign, qru_ptr L, int ldl, qru_ptr w,
                               qru_ptr p, qru_ptr work, qru_ptr head,
                               qru_ptr adiag, qru_ptr info, int base)
{
    const qru_backend_ops *o = ctx->ops;
    QRU_TRY(o->copy(ctx, dt, n, 1, w, n, p, n));
    QRU_TRY(o->trsm(ctx, dt, 'L', uplo, uplo == 'L' ? 'N' : 'T', 'N', n, 1,
                    1.0, L, ldl, p, n));
    return o->chol_r1_prep(ctx, dt, uplo, n, 1, sign, L, ldl, p, n, 1, w, n,
                           work, head, adiag, info, base);
}

/* The addition, then the solve: [R d] read twice. */
int qru_ref_lsq_batch_add_solve(qru_context *ctx, qru_dtype dt, int m, int r,
                                int p, int n, int count, qru_ptr R, int ldr,
                                size_t sR, qru_ptr D, int ldd, size_t sD,
                                qru_ptr rho2, qru_ptr U, int ldu, size_t sU,
                                qru_ptr E, int lde, size_t sE, qru_ptr X,
                                int ldx, size_t sX, qru_ptr info,
                                qru_ptr any, qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr none = {NULL, 0};
    QRU_TRY(o->lsq_batch_add_rows(ctx, dt, m, r, p, count, R, ldr, sR, D,
                                  ldd, sD, rho2, U, ldu, sU, E, lde, sE,
                                  none, work));
    return o->lsq_batch_solve(ctx, dt, m, r, n, count, R, ldr, sR, D, ldd,
                              sD, X, ldx, sX, info, any, work);
}

/* Per group: the identity (laset), then one givens_apply per group step. */
int qru_ref_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p, int ab,
                         qru_ptr cs, qru_ptr G, int ldg)
{
    const qru_backend_ops *o = ctx->ops;
    /* toff: offset in cs of the group's first global step L - uhi */
    size_t toff = 0;
    for (int uhi = L, g = 0; uhi >= 1; uhi -= ab, ++g) {
        int ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
        int bb = uhi - ulo + 1;
        int base = ulo - 1;
        int w = bb + p;
        qru_ptr Gw = qru_ptr_add(G, (size_t)g * ldg * (size_t)(ab + p));
        QRU_TRY(o->laset(ctx, dt, 'A', w, w, 0.0, 1.0, Gw, ldg));
        size_t soff = toff;
        for (int s = 0; s < bb + p - 1; ++s) {
            int qlo = s - bb + 1 > 0 ? s - bb + 1 : 0;
            int qhi = s < p - 1 ? s : p - 1;
            int cnt = qhi - qlo + 1;
            int i0 = uhi + 2 * qlo - s; /* column zeroed by sweep qlo */
            int jlo, tcnt, ti0;
            qru_sweep_step(L, p, L - uhi + s, &jlo, &tcnt, &ti0);
            qru_ptr c = qru_ptr_add(cs, soff + 2 * (size_t)(qlo - jlo));
            soff += 2 * (size_t)tcnt; /* the offset of the next step */
            /* Gw' is the identity rotated from the left, so its rows
             * (c-1, c) are zero before column c-1-q when sweep q rotates
             * them: rows of Gw from g0 on */
            int g0 = i0 - 1 - base - qlo > 0 ? i0 - 1 - base - qlo : 0;
            QRU_TRY(o->givens_apply(ctx, dt, cnt, w - g0, c,
                                qru_ptr_at(Gw, ldg, g0, i0 - 1 - base),
                                2 * ldg, ldg, 1));
        }
        /* the next group starts ab global steps later */
        for (int t = L - uhi; t < L - uhi + ab && t < L + p - 1; ++t) {
            int jlo, tcnt, ti0;
            qru_sweep_step(L, p, t, &jlo, &tcnt, &ti0);
            toff += 2 * (size_t)tcnt;
        }
    }
    return 0;
}

/* The Gram active set's bordering (gram_border): the sequence of basic
 * ops, d2 through potrf_panel of order 1 (its failure state d = 1). */
int qru_ref_gram_border(qru_context *ctx, qru_dtype dt, int m, int kmax,
                        int hw, int t, int q, qru_ptr G, qru_ptr Gs,
                        qru_ptr W, qru_ptr V, qru_ptr T, qru_ptr out)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr D = qru_ptr_add(out, (size_t)m), F = qru_ptr_add(D, 1);
    QRU_TRY(o->copy(ctx, dt, m, 1, qru_ptr_add(G, (size_t)t * m), m,
                    qru_ptr_add(Gs, (size_t)q * m), m));
    /* v' = Gs(t, 0:hw-1) W */
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', 1, hw, hw, 1.0,
                    qru_ptr_add(Gs, (size_t)t), m, W, kmax, 0.0, V, 1));
    QRU_TRY(o->copy(ctx, dt, 1, 1, qru_ptr_at(G, m, t, t), m, D, 1));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', 1, 1, hw, -1.0, V, 1, V, hw, 1.0, D,
                    1));
    QRU_TRY(o->potrf_panel(ctx, dt, 'U', 1, D, 1, F, 0));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', hw, 1, hw, -1.0, W, kmax, V, hw, 0.0,
                    T, hw));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 1.0, 1.0,
                     qru_ptr_add(T, (size_t)q), 1));
    QRU_TRY(o->trsm(ctx, dt, 'R', 'U', 'N', 'N', hw, 1, 1.0, D, 1, T, hw));
    return o->copy(ctx, dt, hw, 1, T, hw,
                   qru_ptr_add(W, (size_t)q * kmax), kmax);
}

/* The Gram active set's solve (gram_solve): a laset and three
 * products. */
int qru_ref_gram_solve(qru_context *ctx, qru_dtype dt, int m, int kmax,
                       int hw, qru_ptr Gs, qru_ptr W, qru_ptr S, int qs,
                       double sv, qru_ptr V, qru_ptr out)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr Z = qru_ptr_add(out, (size_t)m + 2);
    if (qs >= 0 && qs < hw)
        QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, sv, sv,
                         qru_ptr_add(S, (size_t)qs), 1));
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', hw, 1, hw, 1.0, W, kmax, S, hw, 0.0,
                    V, hw));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', hw, 1, hw, 1.0, W, kmax, V, hw, 0.0,
                    Z, hw));
    return o->gemm(ctx, dt, 'N', 'N', m, 1, hw, 1.0, Gs, m, Z, hw, 0.0, out,
                   m);
}
