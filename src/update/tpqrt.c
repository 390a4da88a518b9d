/*
 * The blocked triangular-pentagonal QR (the structure of LAPACK tpqrt)
 * shared by adding rows (add_rows.c) and the tiled column insertion
 * (add_cols.c), written once for both precisions against the backend
 * table:
 *
 *   [T; B] = H [T1; 0],  T w x w upper triangular, B h x w dense,
 *
 * reflector c acting on row c of T and the h rows of B only, blocked in
 * panels of nb columns in the compact WY form P = I + W Y', Y = [I; V]
 * (V h x jb).  Each block's reflector goes to the trailing columns of
 * [T; B], to the sides (two-part matrices whose top rows pair with T's
 * rows) and from the right to [Qc Qn] (Qc's columns pair with T's rows,
 * Qn's with B's).  With look-ahead (t->la) the next block's columns and
 * panel run on the first queue and the rest on the second (the lane
 * ops), as described in add_rows.c.
 */
#include "update.h"

/* Block i's Y and W: kept (t->keep) or the look-ahead pair b. */
static void tp_yw(const qru_upd_tp *t, int i, int b, qru_ptr *Y, qru_ptr *W)
{
    if (t->keep.h) {
        size_t yw = (size_t)t->ldy * t->nb;
        *Y = qru_ptr_add(t->keep, 2 * (size_t)i * yw);
        *W = qru_ptr_add(*Y, yw);
    } else {
        *Y = t->ws.Y[b];
        *W = t->ws.W[b];
    }
}

/* The (jb + h) x jb panel [T(c0:c0+jb, c0:c0+jb); B(:, c0:c0+jb)]: with
 * the fused panels ONE panel_qr_tp where it lies; else the per-column
 * Householder steps, Y = [I; V] built column by column. */
static int tp_panel(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t,
                    int c0, int jb, qru_ptr Y, qru_ptr W)
{
    const qru_backend_ops *o = ctx->ops;
    int h = t->h, ld = t->ld, ldy = t->ldy;
    qru_ptr tau = t->ws.tau, work = t->ws.work0;
    if (t->fused) /* B's columns c0 .. c0+jb-1 come out exactly zero */
        return o->panel_qr_tp(ctx, dt, jb, h, jb,
                              qru_ptr_at(t->T, ld, c0, c0), ld,
                              qru_ptr_at(t->B, ld, 0, c0), ld, Y, ldy, W,
                              ldy, tau, work);
    qru_ptr V = qru_ptr_add(Y, (size_t)jb);
    QRU_TRY(o->laset(ctx, dt, 'A', jb + h, jb, 0.0, 1.0, Y, ldy));
    for (int j = 0; j < jb; ++j) {
        int c = c0 + j;
        qru_ptr tj = qru_ptr_add(tau, (size_t)j);
        qru_ptr vj = qru_ptr_at(V, ldy, 0, j);
        QRU_TRY(o->house(ctx, dt, h, qru_ptr_at(t->T, ld, c, c),
                         qru_ptr_at(t->B, ld, 0, c), vj, tj));
        QRU_TRY(o->larf(ctx, dt, h, c0 + jb - 1 - c, vj, tj,
                        qru_ptr_at(t->T, ld, c, c + 1), ld,
                        qru_ptr_at(t->B, ld, 0, c + 1), ld, work));
        QRU_TRY(o->wy_append(ctx, dt, jb + h, j, Y, ldy, W, ldy, tj, work));
    }
    return 0;
}

/* Block (c0, jb)'s reflector (Y, W with ld ldy) on the sides and on
 * [Qc Qn]: [X1; X2] := P' [X1; X2] (wy_left, Y = [I; V]);
 * [Qc Qn] := [Qc Qn] P: S = Qc W1 + Qn W2; Qc += S; Qn += S V'. */
static int tp_block_apply(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t,
                          int c0, int jb, qru_ptr Y, qru_ptr W, int ldy,
                          qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    int h = t->h;
    for (int i = 0; i < t->nside; ++i) {
        const qru_upd_tp_side *s = &t->side[i];
        if (s->cols > 0)
            QRU_TRY(o->wy_left(ctx, dt, 'I', jb, h, jb, s->cols, Y, ldy, W,
                               ldy, qru_ptr_add(s->top, (size_t)c0), s->ld,
                               s->bot, s->ld, work));
    }
    if (t->nq > 0) {
        int nq = t->nq, ldq = t->ldq;
        qru_ptr Qc = qru_ptr_at(t->Qc, ldq, 0, c0);
        qru_ptr V = qru_ptr_add(Y, (size_t)jb), Wb = qru_ptr_add(W, (size_t)jb);
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nq, jb, jb, 1.0, Qc, ldq, W, ldy,
                        0.0, work, nq));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nq, jb, h, 1.0, t->Qn, ldq, Wb,
                        ldy, 1.0, work, nq));
        QRU_TRY(o->geadd(ctx, dt, nq, jb, 1.0, work, nq, 1.0, Qc, ldq));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'C', nq, h, jb, 1.0, work, nq, V, ldy,
                        1.0, t->Qn, ldq));
    }
    return 0;
}

size_t qru_upd_tp_keep(int w, int h, int nb)
{
    if (w <= 0 || nb < 1)
        return 0;
    size_t nblk = (size_t)((w + nb - 1) / nb);
    return nblk * 2 * (size_t)(nb + h) * (size_t)nb;
}

size_t qru_upd_tp_work(const qru_upd_tp *t)
{
    size_t c = (size_t)t->nq;
    for (int i = 0; i < t->nside; ++i)
        if ((size_t)t->side[i].cols > c)
            c = (size_t)t->side[i].cols;
    if ((size_t)t->w > c)
        c = (size_t)t->w;
    return c * (size_t)t->nb;
}

int qru_upd_tp_run(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t)
{
    const qru_backend_ops *o = ctx->ops;
    int w = t->w, h = t->h, nb = t->nb, ld = t->ld, ldy = t->ldy, la = t->la;
    qru_ptr work0 = t->ws.work0, work = t->ws.work;
    if (w <= 0)
        return 0;
    qru_ptr Y, W;
    tp_yw(t, 0, 0, &Y, &W);
    QRU_TRY(tp_panel(ctx, dt, t, 0, w < nb ? w : nb, Y, W));
    if (la == 2) {
        /* the sides and Q on the second queue, each block's ordered after
         * its panel; the trailing columns of [T; B] and the panels on the
         * first, which never waits for the second (kept blocks only) */
        for (int c0 = 0, i = 0; c0 < w; c0 += nb, ++i) {
            int jb = w - c0 < nb ? w - c0 : nb, nct = w - c0 - jb;
            tp_yw(t, i, 0, &Y, &W);
            QRU_TRY(o->lane(ctx, dt, 1));
            QRU_TRY(tp_block_apply(ctx, dt, t, c0, jb, Y, W, ldy, work));
            QRU_TRY(o->lane(ctx, dt, 0));
            if (nct > 0) {
                qru_ptr Yn, Wn;
                tp_yw(t, i + 1, 0, &Yn, &Wn);
                QRU_TRY(o->wy_left(ctx, dt, 'I', jb, h, jb, nct, Y, ldy, W,
                                   ldy, qru_ptr_at(t->T, ld, c0, c0 + jb),
                                   ld, qru_ptr_at(t->B, ld, 0, c0 + jb), ld,
                                   work0));
                QRU_TRY(tp_panel(ctx, dt, t, c0 + jb, nct < nb ? nct : nb, Yn,
                                 Wn));
            }
        }
        return 0;
    }
    for (int c0 = 0, i = 0, b = 0; c0 < w; c0 += nb, ++i, b ^= 1) {
        int jb = w - c0 < nb ? w - c0 : nb;
        tp_yw(t, i, b, &Y, &W);
        /* the trailing columns of [T; B]: the next block's first (after
         * the second queue has brought them up to date), then the rest
         * on the second queue with the sides and Q */
        int nct = w - c0 - jb, nn = nct < nb ? nct : nb;
        if (la)
            QRU_TRY(o->lane_join(ctx));
        if (nn > 0) {
            qru_ptr Yn, Wn;
            tp_yw(t, i + 1, b ^ 1, &Yn, &Wn);
            QRU_TRY(o->wy_left(ctx, dt, 'I', jb, h, jb, nn, Y, ldy, W, ldy,
                               qru_ptr_at(t->T, ld, c0, c0 + jb), ld,
                               qru_ptr_at(t->B, ld, 0, c0 + jb), ld, work0));
            if (la)
                QRU_TRY(o->lane_mark(ctx, dt));
            QRU_TRY(tp_panel(ctx, dt, t, c0 + jb, nn, Yn, Wn));
        }
        if (la)
            QRU_TRY(o->lane(ctx, dt, 1));
        if (nct > nn)
            QRU_TRY(o->wy_left(ctx, dt, 'I', jb, h, jb, nct - nn, Y, ldy, W,
                               ldy, qru_ptr_at(t->T, ld, c0, c0 + jb + nn),
                               ld, qru_ptr_at(t->B, ld, 0, c0 + jb + nn), ld,
                               work));
        QRU_TRY(tp_block_apply(ctx, dt, t, c0, jb, Y, W, ldy, work));
        if (la)
            QRU_TRY(o->lane(ctx, dt, 0));
    }
    if (la)
        QRU_TRY(o->lane_join(ctx));
    return 0;
}

int qru_upd_tp_merge(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t,
                     qru_ptr Ym, qru_ptr Wm, qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    int w = t->w, h = t->h, nb = t->nb, ldy = t->ldy, ldm = w + h;
    qru_ptr Vm = qru_ptr_add(Ym, (size_t)w);
    /* W's rows of T: block i's are its own rows c0 .. c0+jb-1, zero
     * elsewhere; P_a P_b = I + [W_a, W_b + W_a (Y_a' W_b)] [Y_a Y_b]',
     * where Y_a' W_b = V_a' W_b(rows of B) (Y_a's identity rows miss
     * W_b's rows of T) */
    QRU_TRY(o->laset(ctx, dt, 'A', w, w, 0.0, 0.0, Wm, ldm));
    for (int c0 = 0, i = 0; c0 < w; c0 += nb, ++i) {
        int jb = w - c0 < nb ? w - c0 : nb;
        qru_ptr Y, W;
        tp_yw(t, i, 0, &Y, &W);
        QRU_TRY(o->copy(ctx, dt, h, jb, qru_ptr_add(Y, (size_t)jb), ldy,
                        qru_ptr_at(Vm, ldm, 0, c0), ldm));
        QRU_TRY(o->copy(ctx, dt, jb, jb, W, ldy, qru_ptr_at(Wm, ldm, c0, c0),
                        ldm));
        QRU_TRY(o->copy(ctx, dt, h, jb, qru_ptr_add(W, (size_t)jb), ldy,
                        qru_ptr_at(Wm, ldm, w, c0), ldm));
        if (c0 > 0) {
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', c0, jb, h, 1.0, Vm, ldm,
                            qru_ptr_at(Wm, ldm, w, c0), ldm, 0.0, work, c0));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', w + h, jb, c0, 1.0, Wm, ldm,
                            work, c0, 1.0, qru_ptr_at(Wm, ldm, 0, c0), ldm));
        }
    }
    return 0;
}

int qru_upd_tp_apply_merged(qru_context *ctx, qru_dtype dt,
                            const qru_upd_tp *t, qru_ptr Ym, qru_ptr Wm,
                            qru_ptr work)
{
    return tp_block_apply(ctx, dt, t, 0, t->w, Ym, Wm, t->w + t->h, work);
}
