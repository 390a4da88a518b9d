/*
 * Householder tiles (QRU_UPDATE_FAST, by the tuning block's upd_tiles:
 * where the cost model predicts them faster, or always): the elimination of a dense block C against a p x p
 * triangle T below it, for adding columns (add_cols.c: C the new columns
 * above their triangle) and removing rows (remove_rows.c: C the removed
 * rows of Q, transposed), instead of Givens sweeps.  The serial chain is
 * about L column steps of the fused panels (the engine of adding rows,
 * tpqrt.c) rather than L + p steps of rotations that each need the whole
 * device.  Written once for both precisions against the backend table.
 *
 * X = [C; T] ((L + p) x p), and R's part: row i of R's part pairs with row
 * i of X, and the rows of tile [a, b) are zero left of column a (L
 * columns).  The rows 0 .. L-1 are cut bottom-up into nt tiles [a_J, b_J)
 * of height about p (b_0 = L).  For J = 0, 1, ...:
 *  1. the pair [T; C_J] = H_J [T; 0] by the blocked tpqrt on the p
 *     columns of X, each block applied to R's part of the same rows from
 *     column a_J on (T's rows are nonzero there from b_J on): afterwards
 *     C_J = 0 and D_J = R's part (a_J:b_J, a_J:b_J) is full;
 *  2. D_J = Q_J R_J (qru_upd_house, exact zeros below the diagonal), Q_J'
 *     on the rest of those rows.  No later tile touches those rows, so
 *     D_J runs on the second queue beside the next pairs.
 * R's part is then upper triangular but for T's rows (the caller moves
 * them or drops them).  d's rows and Q's columns pair with X's rows and
 * take the same reflectors: in the same pass (direct, on the second
 * queue), or kept (each pair's blocks merged into one reflector) and
 * applied by qru_upd_tiles_apply after the caller's rank rule.
 */
#include <math.h>

#include "update.h"

/* Tile J of nt over L rows (bottom-up): rows [*a, *b). */
static void tl_tile(int L, int nt, int J, int *a, int *b)
{
    int base = L / nt, rem = L % nt;
    int above = J * base + (J < rem ? J : rem); /* rows of tiles 0..J-1 */
    *b = L - above;
    *a = *b - (base + (J < rem ? 1 : 0));
}

static int tl_nt(int L, int p)
{
    return L > 0 ? (L + p - 1) / p : 0;
}

/* The pair's panel width (p columns over h rows), and D's (h x h). */
static int tl_nb(const qru_lsq *f, const qru_context *ctx, int p, int h)
{
    return qru_upd_use_fused(QRU_UPDATE_FAST, ctx, f->dtype)
               ? qru_upd_fused_nb(f, ctx, p, h)
               : qru_upd_nb(f, p);
}
static int tl_nbd(const qru_lsq *f, const qru_context *ctx, int h)
{
    return qru_upd_use_fused(QRU_UPDATE_FAST, ctx, f->dtype)
               ? qru_upd_fused_nb(f, ctx, h, 0)
               : qru_upd_nb(f, h);
}

int qru_upd_tiles_mode(const qru_lsq *f, const qru_context *ctx, int fast,
                       int L)
{
    int t = qru_ctx_tuning(ctx, f->dtype)->upd_tiles;
    if (!fast || L <= 0 || t == 1)
        return 0;
    return t == 2 ? 1 : 2;
}

/* A pair's merged reflector (kept form): Y and W, (p + h) x p each. */
static size_t tl_merged(int p, int h, int direct)
{
    return direct ? 0 : 2 * (size_t)(p + h) * (size_t)p;
}

/* The layout of the workspace: per tile its pair's kept blocks, their
 * merged reflector (kept form), then D's Householder workspace; the first
 * queue's (engine) workspace; the second queue's work array, also the
 * commit's and the caller's scratch (qru_upd_tiles_scratch). */
typedef struct tl_ws {
    int nt, hmax, nbmax, ldymax;
    size_t nwork0, keep, la, wmain, wlane;
} tl_ws;

static size_t tl_max(size_t a, size_t b)
{
    return a > b ? a : b;
}

static tl_ws tl_layout(const qru_lsq *f, const qru_context *ctx, int L,
                       int p, int nq, int r, int direct)
{
    tl_ws w = {0};
    w.nt = tl_nt(L, p);
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        tl_tile(L, w.nt, J, &a, &b);
        int h = b - a, nb = tl_nb(f, ctx, p, h);
        w.keep += qru_upd_tp_keep(p, h, nb) + tl_merged(p, h, direct) +
                  qru_upd_house_workspace(h, h, tl_nbd(f, ctx, h));
        if (h > w.hmax)
            w.hmax = h;
        if (nb > w.nbmax)
            w.nbmax = nb;
        if (nb + h > w.ldymax)
            w.ldymax = nb + h;
    }
    w.nwork0 = (size_t)w.nbmax * (size_t)(w.nbmax > p ? w.nbmax : p);
    w.nwork0 = tl_max(w.nwork0, qru_panel_tp_work(w.ldymax, w.nbmax));
    w.la = qru_upd_la_elems(w.ldymax, w.nbmax, w.nwork0);
    size_t c = tl_max(tl_max((size_t)L, (size_t)nq),
                      tl_max((size_t)r, (size_t)p));
    w.wmain = (size_t)w.nbmax * c;
    size_t hm = (size_t)w.hmax;
    w.wlane = tl_max(hm * (size_t)L, (size_t)nq * hm);
    w.wlane = tl_max(w.wlane, (size_t)p * tl_max((size_t)nq, (size_t)r));
    w.wlane = tl_max(w.wlane, tl_max(hm, (size_t)(L + p)) * (size_t)r);
    return w;
}

size_t qru_upd_tiles_ws(const qru_lsq *f, const qru_context *ctx, int L,
                        int p, int nq, int r, int direct)
{
    tl_ws w = tl_layout(f, ctx, L, p, nq, r, direct);
    return w.keep + w.la + w.wmain + w.wlane + 1;
}

qru_ptr qru_upd_tiles_scratch(const qru_lsq *f, const qru_context *ctx,
                              const qru_upd_tiles *tl, qru_ptr ws)
{
    tl_ws w = tl_layout(f, ctx, tl->L, tl->p, tl->nq, tl->r, tl->direct);
    return qru_ptr_add(ws, w.keep + w.la + w.wmain);
}

/* Tile J's pair: the engine on [T; C_J] with its kept blocks at *keep
 * (advanced past the tile's part of the workspace); Ym, Wm its merged
 * reflector, hh D's Householder workspace. */
static qru_upd_tp tl_pair(const qru_lsq *f, const qru_context *ctx,
                          const qru_upd_tiles *tl, int a, int b,
                          qru_upd_la_ws la, qru_ptr *keep, qru_ptr *Ym,
                          qru_ptr *Wm, qru_ptr *hh)
{
    int p = tl->p, h = b - a;
    qru_upd_tp t = {0};
    t.fused = qru_upd_use_fused(QRU_UPDATE_FAST, ctx, f->dtype);
    t.nb = tl_nb(f, ctx, p, h);
    t.w = p;
    t.h = h;
    t.keep = *keep;
    t.ws = la;
    t.ldy = t.nb + h;
    t.T = qru_ptr_add(tl->X, (size_t)tl->L);
    t.B = qru_ptr_add(tl->X, (size_t)a);
    t.ld = tl->ldx;
    *Ym = qru_ptr_add(*keep, qru_upd_tp_keep(p, h, t.nb));
    *Wm = qru_ptr_add(*Ym, tl_merged(p, h, tl->direct) / 2);
    *hh = qru_ptr_add(*Ym, tl_merged(p, h, tl->direct));
    *keep = qru_ptr_add(*hh,
                        qru_upd_house_workspace(h, h, tl_nbd(f, ctx, h)));
    return t;
}

/* The pair's d and Q (rows a .. of d and T's; columns a .. of Q and T's). */
static void tl_pair_dq(const qru_upd_tiles *tl, int a, qru_upd_tp *t)
{
    int L = tl->L;
    if (tl->r > 0)
        t->side[t->nside++] = (qru_upd_tp_side){
            qru_ptr_add(tl->d, (size_t)L), qru_ptr_add(tl->d, (size_t)a),
            tl->r, tl->ldd};
    if (tl->nq > 0) {
        t->Qc = qru_ptr_at(tl->Q, tl->ldq, 0, L);
        t->Qn = qru_ptr_at(tl->Q, tl->ldq, 0, a);
        t->nq = tl->nq;
        t->ldq = tl->ldq;
    }
}

/* D_J's merged reflector (hh: Y, then W, h x h) on rows a .. b-1 of d and
 * columns a .. b-1 of Q. */
static int tl_d_dq(qru_context *ctx, qru_dtype dt, const qru_upd_tiles *tl,
                   int a, int h, qru_ptr hh, qru_ptr work)
{
    qru_ptr Y = hh, W = qru_ptr_add(hh, (size_t)h * h);
    if (tl->r > 0)
        QRU_TRY(qru_upd_wy_left(ctx, dt, h, h, tl->r, Y, h, W, h,
                                qru_ptr_add(tl->d, (size_t)a), tl->ldd, work));
    if (tl->nq > 0)
        QRU_TRY(qru_upd_wy_right(ctx, dt, tl->nq, h, h, Y, h, W, h,
                                 qru_ptr_at(tl->Q, tl->ldq, 0, a), tl->ldq,
                                 work));
    return 0;
}

int qru_upd_tiles_run(qru_context *ctx, const qru_lsq *f,
                      const qru_upd_tiles *tl, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int L = tl->L, p = tl->p, ldr = tl->ldr;
    tl_ws w = tl_layout(f, ctx, L, p, tl->nq, tl->r, tl->direct);
    qru_upd_la_ws la = qru_upd_la_carve(qru_ptr_add(ws, w.keep), w.ldymax,
                                        w.nbmax, w.nwork0);
    qru_ptr lwork = qru_ptr_add(ws, w.keep + w.la + w.wmain);
    qru_ptr keep = ws;
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        tl_tile(L, w.nt, J, &a, &b);
        int h = b - a, nbd = tl_nbd(f, ctx, h);
        qru_ptr Ym, Wm, hh;
        qru_upd_tp t = tl_pair(f, ctx, tl, a, b, la, &keep, &Ym, &Wm, &hh);
        /* 1. the pair, with R's part of its rows from column a on (and
         * direct: d and Q), all on the second queue */
        t.side[0] = (qru_upd_tp_side){qru_ptr_at(tl->R, ldr, L, a),
                                      qru_ptr_at(tl->R, ldr, a, a), L - a,
                                      ldr};
        t.nside = 1;
        if (tl->direct)
            tl_pair_dq(tl, a, &t);
        t.la = 2;
        QRU_TRY(qru_upd_tp_run(ctx, dt, &t));
        /* 2. on the second queue (ordered after the pair): the pair's
         * blocks merged (kept form), D_J */
        QRU_TRY(o->lane(ctx, dt, 1));
        if (!tl->direct)
            QRU_TRY(qru_upd_tp_merge(ctx, dt, &t, Ym, Wm, lwork));
        QRU_TRY(qru_upd_house(ctx, dt, h, h, nbd,
                              qru_ptr_at(tl->R, ldr, a, a), ldr, hh));
        QRU_TRY(qru_upd_house_merge(ctx, dt, h, h, nbd, hh));
        if (L - b > 0)
            QRU_TRY(qru_upd_wy_left(ctx, dt, h, h, L - b, hh, h,
                                    qru_ptr_add(hh, (size_t)h * h), h,
                                    qru_ptr_at(tl->R, ldr, a, b), ldr,
                                    lwork));
        if (tl->direct)
            QRU_TRY(tl_d_dq(ctx, dt, tl, a, h, hh, lwork));
        QRU_TRY(o->lane(ctx, dt, 0));
    }
    return o->lane_join(ctx);
}

int qru_upd_tiles_apply(qru_context *ctx, const qru_lsq *f,
                        const qru_upd_tiles *tl, qru_ptr ws)
{
    qru_dtype dt = f->dtype;
    int L = tl->L, p = tl->p;
    tl_ws w = tl_layout(f, ctx, L, p, tl->nq, tl->r, tl->direct);
    qru_upd_la_ws la = qru_upd_la_carve(qru_ptr_add(ws, w.keep), w.ldymax,
                                        w.nbmax, w.nwork0);
    qru_ptr lwork = qru_ptr_add(ws, w.keep + w.la + w.wmain);
    qru_ptr keep = ws;
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        tl_tile(L, w.nt, J, &a, &b);
        qru_ptr Ym, Wm, hh;
        qru_upd_tp t = tl_pair(f, ctx, tl, a, b, la, &keep, &Ym, &Wm, &hh);
        tl_pair_dq(tl, a, &t);
        QRU_TRY(qru_upd_tp_apply_merged(ctx, dt, &t, Ym, Wm, lwork));
        QRU_TRY(tl_d_dq(ctx, dt, tl, a, b - a, hh, lwork));
    }
    return 0;
}

