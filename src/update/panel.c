/*
 * Shared parts of the QR updates of Andrew (2012), chapter 4: the
 * Householder panel
 * reduction in WY form used by the add-columns (dense panels) and
 * remove-columns (reflectors of length p + 1) updates.
 */
#include "update.h"

int qru_upd_nb(const qru_lsq *f, int ncols)
{
    int nb = f->upd_nb > 0 ? f->upd_nb : (ncols + 5) / 10;
    if (nb > ncols)
        nb = ncols;
    return nb < 1 ? 1 : nb;
}

int qru_upd_use_fused(int alg, const qru_context *ctx, qru_dtype dt)
{
    return alg == QRU_UPDATE_FAST && qru_use_fused_panel(ctx, dt);
}

int qru_upd_panel_width(const qru_context *ctx, qru_dtype dt, int upd_nb,
                        int ncols, int extra)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    int nb = upd_nb > 0 ? upd_nb : t->upd_panel_nb;
    int mx = 0;
    if (upd_nb <= 0 &&
        ctx->ops->panel_qr_max_nb((qru_context *)ctx, dt, extra, &mx) == 0) {
        /* narrower panels that stay on chip rather than wide ones that
         * do not (down to upd_panel_min_nb) */
        if (mx >= t->upd_panel_min_nb && mx < nb)
            nb = mx;
    }
    if (nb > ncols)
        nb = ncols;
    return nb < 1 ? 1 : nb;
}

int qru_upd_fused_nb(const qru_lsq *f, const qru_context *ctx, int ncols,
                     int extra)
{
    return qru_upd_panel_width(ctx, f->dtype, f->upd_nb, ncols, extra);
}

int qru_upd_house_nb(const qru_lsq *f, const qru_context *ctx, int alg,
                     int rows, int ncols)
{
    return qru_upd_use_fused(alg, ctx, f->dtype)
               ? qru_upd_fused_nb(f, ctx, ncols,
                                  rows > ncols ? rows - ncols : 0)
               : qru_upd_nb(f, ncols);
}

int qru_upd_panel(qru_context *ctx, qru_dtype dt, qru_ptr A, int lda,
                  int nrows, int ncols, int c0, int jb, int bw, qru_ptr Y,
                  int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    long last = (long)c0 + jb + bw;
    int rb = (int)((last < nrows ? last : nrows) - c0);
    QRU_TRY(o->laset(ctx, dt, 'A', rb, jb, 0.0, 1.0, Y, ldy));
    for (int j = 0; j < jb; ++j) {
        int c = c0 + j;
        int len = nrows - 1 - c;
        if (len > bw)
            len = bw;
        if (len < 0)
            len = 0;
        qru_ptr tj = qru_ptr_add(tau, (size_t)j);
        qru_ptr vj = qru_ptr_at(Y, ldy, j + 1, j);
        QRU_TRY(o->house(ctx, dt, len, qru_ptr_at(A, lda, c, c),
                         qru_ptr_at(A, lda, c + 1, c), vj, tj));
        QRU_TRY(o->larf(ctx, dt, len, c0 + jb - 1 - c, vj, tj,
                        qru_ptr_at(A, lda, c, c + 1), lda,
                        qru_ptr_at(A, lda, c + 1, c + 1), lda, work));
        QRU_TRY(o->wy_append(ctx, dt, rb, j, Y, ldy, W, ldw, tj, work));
    }
    int nct = ncols - c0 - jb;
    if (nct > 0)
        QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, nct, Y, ldy, W, ldw,
                                qru_ptr_at(A, lda, c0, c0 + jb), lda, work));
    return 0;
}

int qru_upd_wy_left(qru_context *ctx, qru_dtype dt, int rb, int jb, int nc,
                    qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr B,
                    int ldb, qru_ptr work)
{
    if (rb <= 0 || jb <= 0 || nc <= 0)
        return 0;
    return ctx->ops->wy_left(ctx, dt, 'F', rb, 0, jb, nc, Y, ldy, W, ldw, B,
                             ldb, B, ldb, work);
}

int qru_upd_wy_right(qru_context *ctx, qru_dtype dt, int nr, int rb, int jb,
                     qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr Q,
                     int ldq, qru_ptr work)
{
    const qru_backend_ops *o = ctx->ops;
    if (nr <= 0 || rb <= 0 || jb <= 0)
        return 0;
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nr, jb, rb, 1.0, Q, ldq, W, ldw, 0.0,
                    work, nr));
    return o->gemm(ctx, dt, 'N', 'C', nr, rb, jb, 1.0, work, nr, Y, ldy, 1.0,
                   Q, ldq);
}

size_t qru_upd_la_elems(int ldy, int nb, size_t nwork0)
{
    return 4 * (size_t)ldy * nb + (size_t)nb + nwork0;
}

qru_upd_la_ws qru_upd_la_carve(qru_ptr ws, int ldy, int nb, size_t nwork0)
{
    qru_upd_la_ws w;
    size_t yw = (size_t)ldy * nb;
    for (int i = 0; i < 2; ++i) {
        w.Y[i] = qru_ptr_add(ws, 2 * i * yw);
        w.W[i] = qru_ptr_add(ws, (2 * i + 1) * yw);
    }
    w.tau = qru_ptr_add(ws, 4 * yw);
    w.work0 = qru_ptr_add(w.tau, (size_t)nb);
    w.work = qru_ptr_add(w.work0, nwork0);
    return w;
}
