/*
 * The tiled column insertion (add_cols.c, QRU_UPDATE_FAST with p >= the
 * tuning block's upd_tiles_min_p): the p subdiagonals of the new columns
 * are removed by Householder tiles run on the engine of adding rows
 * (tpqrt.c) instead of Givens sweeps, so the serial chain is about L
 * column steps of the fused panels rather than L + p steps of rotations
 * that each need the whole device.  Written once for both precisions
 * against the backend table.
 *
 * The active block X = Rw(k+1:m+p, :) (local rows 0 .. L+p-1, s = L + p
 * columns) is [C R_k; T 0]: C = U_Q(k+1:m, :) (L x p), R_k = R(k+1:m,
 * k+1:m) upper triangular, T = R22 (p x p upper triangular, exact zeros
 * below).  The rows 0 .. L-1 are cut bottom-up into nt tiles [a_J, b_J)
 * of height about p (b_0 = L).  For J = 0, 1, ...:
 *  1. the pair [T; C_J] = H_J [T; 0] by the blocked tpqrt on the p columns
 *     of C, each block applied to R's part of the same rows from column
 *     a_J on (T's rows are nonzero there from b_J on, C_J's from a_J on).
 *     Afterwards C_J = 0 and D_J = X(a_J:b_J, p+a_J:p+b_J) is full;
 *  2. D_J = Q_J R_J (qru_upd_house, exact zeros below the diagonal),
 *     Q_J' on the rest of C_J's rows.  No later tile touches those rows,
 *     so D_J runs on the second queue beside the next pairs.
 * Then T's rows move to the top: [T-rows; rows 0 .. L-1] is upper
 * triangular (row i of tile J is zero left of column p + a_J, and D_J is
 * triangular).  Every reflector is kept (the pairs' blocks, D_J merged
 * into one) and applied to Q and d at the commit, in the same order and
 * with the same permutation of Q's columns and d's rows, so a failed rank
 * rule leaves the factorisation as it was.
 */
#include <math.h>

#include "update.h"

/* Tile J of nt over L rows (bottom-up): rows [*a, *b). */
static void act_tile(int L, int nt, int J, int *a, int *b)
{
    int base = L / nt, rem = L % nt;
    int above = J * base + (J < rem ? J : rem); /* rows of tiles 0..J-1 */
    *b = L - above;
    *a = *b - (base + (J < rem ? 1 : 0));
}

static int act_nt(int L, int p)
{
    return L > 0 ? (L + p - 1) / p : 0;
}

/* The pair's panel width (p columns over h rows), and D's (h x h). */
static int act_nb(const qru_lsq *f, const qru_context *ctx, int p, int h)
{
    return qru_upd_use_fused(QRU_UPDATE_FAST, ctx)
               ? qru_upd_fused_nb(f, ctx, p, h)
               : qru_upd_nb(f, p);
}
static int act_nbd(const qru_lsq *f, const qru_context *ctx, int h)
{
    return qru_upd_use_fused(QRU_UPDATE_FAST, ctx)
               ? qru_upd_fused_nb(f, ctx, h, 0)
               : qru_upd_nb(f, h);
}

int qru_upd_act_use(const qru_lsq *f, const qru_context *ctx, int fast, int L,
                    int p)
{
    int mp = qru_ctx_tuning(ctx, f->dtype)->upd_tiles_min_p;
    return fast && L > 0 && mp > 0 && p >= mp;
}

/* A pair's merged reflector: Y and W, (p + h) x p each. */
static size_t act_merged(int p, int h)
{
    return 2 * (size_t)(p + h) * (size_t)p;
}

/* The layout of the tiles' workspace: per tile its pair's kept blocks,
 * their merged reflector, then D's Householder workspace; the first queue's (engine) workspace;
 * the second queue's work array, also the commit's. */
typedef struct act_ws {
    int nt, hmax, nbmax, ldymax;
    size_t nwork0, keep, la, wmain, wlane;
} act_ws;

static act_ws act_layout(const qru_lsq *f, const qru_context *ctx, int n,
                         int L, int p, int r)
{
    act_ws w = {0};
    w.nt = act_nt(L, p);
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        act_tile(L, w.nt, J, &a, &b);
        int h = b - a, nb = act_nb(f, ctx, p, h);
        w.keep += qru_upd_tp_keep(p, h, nb) + act_merged(p, h) +
                  qru_upd_house_workspace(h, h, act_nbd(f, ctx, h));
        if (h > w.hmax)
            w.hmax = h;
        if (nb > w.nbmax)
            w.nbmax = nb;
        if (nb + h > w.ldymax)
            w.ldymax = nb + h;
    }
    w.nwork0 = (size_t)w.nbmax * (size_t)(w.nbmax > p ? w.nbmax : p);
    if (qru_panel_tp_work(w.ldymax, w.nbmax) > w.nwork0)
        w.nwork0 = qru_panel_tp_work(w.ldymax, w.nbmax);
    w.la = qru_upd_la_elems(w.ldymax, w.nbmax, w.nwork0);
    size_t c = (size_t)L;
    if ((size_t)n > c)
        c = (size_t)n;
    if ((size_t)r > c)
        c = (size_t)r;
    if ((size_t)p > c)
        c = (size_t)p;
    w.wmain = (size_t)w.nbmax * c;
    size_t hm = (size_t)w.hmax;
    w.wlane = hm * (size_t)L;
    if ((size_t)n * hm > w.wlane)
        w.wlane = (size_t)n * hm;
    if ((size_t)n * p > w.wlane)
        w.wlane = (size_t)n * p;
    if ((size_t)(L + p) * r > w.wlane)
        w.wlane = (size_t)(L + p) * r;
    if ((size_t)p * r > w.wlane)
        w.wlane = (size_t)p * r;
    return w;
}

size_t qru_upd_act_ws(const qru_lsq *f, const qru_context *ctx, int n, int L,
                      int p, int r)
{
    act_ws w = act_layout(f, ctx, n, L, p, r);
    return w.keep + w.la + w.wmain + w.wlane + 1;
}

/* Pair J's engine description on the two-part matrices given (sides and
 * Q set by the caller); keep is tile J's part of the workspace. */
static qru_upd_tp act_pair(const qru_lsq *f, const qru_context *ctx, int p,
                           int h, qru_ptr keep, qru_upd_la_ws ws)
{
    qru_upd_tp t = {0};
    t.fused = qru_upd_use_fused(QRU_UPDATE_FAST, ctx);
    t.nb = act_nb(f, ctx, p, h);
    t.w = p;
    t.h = h;
    t.keep = keep;
    t.ws = ws;
    t.ldy = t.nb + h;
    return t;
}

int qru_upd_act_rotate(qru_context *ctx, const qru_lsq *f, int k, int p,
                       qru_ptr Rw, qru_ptr RT, qru_ptr tl)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, L = m - k, s = L + p, mr = m + p;
    act_ws w = act_layout(f, ctx, n, L, p, r);
    qru_upd_la_ws la =
        qru_upd_la_carve(qru_ptr_add(tl, w.keep), w.ldymax, w.nbmax,
                         w.nwork0);
    qru_ptr lwork = qru_ptr_add(tl, w.keep + w.la + w.wmain);
    qru_ptr keep = tl;
    qru_ptr T = qru_ptr_add(Rw, (size_t)m); /* X's rows L .. L+p-1 */
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        act_tile(L, w.nt, J, &a, &b);
        int h = b - a, nbd = act_nbd(f, ctx, h);
        qru_upd_tp t = act_pair(f, ctx, p, h, keep, la);
        qru_ptr Ym = qru_ptr_add(keep, qru_upd_tp_keep(p, h, t.nb));
        qru_ptr Wm = qru_ptr_add(Ym, act_merged(p, h) / 2);
        qru_ptr hh = qru_ptr_add(Ym, act_merged(p, h));
        keep = qru_ptr_add(hh, qru_upd_house_workspace(h, h, nbd));
        /* 1. the pair, with R's part of its rows from column a on */
        t.T = T;
        t.B = qru_ptr_add(Rw, (size_t)(k + a));
        t.ld = mr;
        t.side[0] = (qru_upd_tp_side){qru_ptr_at(Rw, mr, m, p + a),
                                      qru_ptr_at(Rw, mr, k + a, p + a), L - a,
                                      mr};
        t.nside = 1;
        t.la = 2; /* R's part on the second queue */
        QRU_TRY(qru_upd_tp_run(ctx, dt, &t));
        /* 2. on the second queue (ordered after the pair): the pair's
         * blocks merged (for the commit), D_J */
        QRU_TRY(o->lane(ctx, dt, 1));
        QRU_TRY(qru_upd_tp_merge(ctx, dt, &t, Ym, Wm, lwork));
        qru_ptr D = qru_ptr_at(Rw, mr, k + a, p + a);
        QRU_TRY(qru_upd_house(ctx, dt, h, h, nbd, D, mr, hh));
        QRU_TRY(qru_upd_house_merge(ctx, dt, h, h, nbd, hh));
        if (L - b > 0)
            QRU_TRY(qru_upd_wy_left(ctx, dt, h, h, L - b, hh, h,
                                    qru_ptr_add(hh, (size_t)h * h), h,
                                    qru_ptr_at(Rw, mr, k + a, p + b), mr,
                                    lwork));
        QRU_TRY(o->lane(ctx, dt, 0));
    }
    QRU_TRY(o->lane_join(ctx));
    /* T's rows first: X := X([L:L+p, 0:L], :) through RT (s x s) */
    QRU_TRY(o->copy(ctx, dt, p, s, T, mr, RT, s));
    QRU_TRY(o->copy(ctx, dt, L, s, qru_ptr_add(Rw, (size_t)k), mr,
                    qru_ptr_add(RT, (size_t)p), s));
    QRU_TRY(o->copy(ctx, dt, s, s, RT, s, qru_ptr_add(Rw, (size_t)k), mr));
    return 0;
}

int qru_upd_act_apply(qru_context *ctx, qru_lsq *f, int k, int p, qru_ptr tl)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, L = m - k, s = L + p;
    int ld = f->ldr, ldq = f->ncap, hq = f->q != QRU_Q_NONE;
    act_ws w = act_layout(f, ctx, n, L, p, r);
    qru_upd_la_ws la =
        qru_upd_la_carve(qru_ptr_add(tl, w.keep), w.ldymax, w.nbmax,
                         w.nwork0);
    qru_ptr lwork = qru_ptr_add(tl, w.keep + w.la + w.wmain);
    qru_ptr keep = tl;
    for (int J = 0; J < w.nt; ++J) {
        int a, b;
        act_tile(L, w.nt, J, &a, &b);
        int h = b - a, nbd = act_nbd(f, ctx, h);
        qru_upd_tp t = act_pair(f, ctx, p, h, keep, la);
        qru_ptr Ym = qru_ptr_add(keep, qru_upd_tp_keep(p, h, t.nb));
        qru_ptr Wm = qru_ptr_add(Ym, act_merged(p, h) / 2);
        qru_ptr hh = qru_ptr_add(Ym, act_merged(p, h));
        keep = qru_ptr_add(hh, qru_upd_house_workspace(h, h, nbd));
        /* the pair (its merged reflector) on [d(T's rows); d(C_J's rows)] and [Q(:, T's) Q(:,
         * C_J's)] */
        t.side[0] = (qru_upd_tp_side){qru_ptr_add(f->d, (size_t)m),
                                      qru_ptr_add(f->d, (size_t)(k + a)), r,
                                      ld};
        t.nside = 1;
        if (hq) {
            t.Qc = qru_ptr_at(f->Q, ldq, 0, m);
            t.Qn = qru_ptr_at(f->Q, ldq, 0, k + a);
            t.nq = n;
            t.ldq = ldq;
        }
        QRU_TRY(qru_upd_tp_apply_merged(ctx, dt, &t, Ym, Wm, lwork));
        /* D_J's merged reflector */
        qru_ptr Y = hh, W = qru_ptr_add(hh, (size_t)h * h);
        if (r > 0)
            QRU_TRY(qru_upd_wy_left(ctx, dt, h, h, r, Y, h, W, h,
                                    qru_ptr_add(f->d, (size_t)(k + a)), ld,
                                    lwork));
        if (hq)
            QRU_TRY(qru_upd_wy_right(ctx, dt, n, h, h, Y, h, W, h,
                                     qru_ptr_at(f->Q, ldq, 0, k + a), ldq,
                                     lwork));
    }
    /* the permutation of the rows of R: on d's rows k .. m+p-1 and Q's
     * columns (T's first; the others move right by p in steps of at most
     * p columns from the right, so no step overlaps itself) */
    if (r > 0) {
        QRU_TRY(o->copy(ctx, dt, p, r, qru_ptr_add(f->d, (size_t)m), ld, lwork,
                        s));
        QRU_TRY(o->copy(ctx, dt, L, r, qru_ptr_add(f->d, (size_t)k), ld,
                        qru_ptr_add(lwork, (size_t)p), s));
        QRU_TRY(o->copy(ctx, dt, s, r, lwork, s, qru_ptr_add(f->d, (size_t)k),
                        ld));
    }
    if (hq) {
        QRU_TRY(o->copy(ctx, dt, n, p, qru_ptr_at(f->Q, ldq, 0, m), ldq, lwork,
                        n));
        for (int hi = m; hi > k;) {
            int lo = hi - p > k ? hi - p : k;
            QRU_TRY(o->copy(ctx, dt, n, hi - lo, qru_ptr_at(f->Q, ldq, 0, lo),
                            ldq, qru_ptr_at(f->Q, ldq, 0, lo + p), ldq));
            hi = lo;
        }
        QRU_TRY(o->copy(ctx, dt, n, p, lwork, n, qru_ptr_at(f->Q, ldq, 0, k),
                        ldq));
    }
    return 0;
}

void qru_upd_act_cost(const qru_lsq *f, const qru_context *ctx, int L, int p,
                      qru_upd_cost *out)
{
    int n = f->n, r = f->r, hq = f->q != QRU_Q_NONE;
    int nt = act_nt(L, p);
    double wl2 = qru_upd_wyl_calls(ctx, 2), wl1 = qru_upd_wyl_calls(ctx, 1);
    /* the panel: one call, or gathered by the reference op (4 copies and
     * a panel_qr); the queue switches (a backend with one queue: none) */
    double pc = qru_op_native(ctx, QRU_OP_panel_qr_tp) ? 1.0 : 5.0;
    double ln = qru_op_native(ctx, QRU_OP_lane) ? 1.0 : 0.0;
    double fl = 0.0, c = 0.0, st = 0.0, dp = p, dn = n, dr = r;
    for (int J = 0; J < nt; ++J) {
        int a, b;
        act_tile(L, nt, J, &a, &b);
        int h = b - a, nb = act_nb(f, ctx, p, h), nbd = act_nbd(f, ctx, h);
        double dh = h, nblk = ceil((double)p / nb),
               ndb = ceil((double)h / nbd);
        /* the pair: a panel, R's part and (but the last) the trailing
         * columns a block, two queue switches a block; the merge (a laset,
         * 3 copies a block, 2 GEMMs a block beyond the first) */
        c += nblk * (pc + wl2 + 2.0 * ln) + (nblk - 1.0) * wl2 + 1.0 +
             3.0 * nblk + 2.0 * (nblk - 1.0);
        st += p;
        fl += 4.0 * (dp + dh) * dp * (L - a + dp / 2.0 + dr) +
              (hq ? 4.0 * dn * (dp + dh) * dp : 0.0);
        /* D_J between two switches: the Householder panels (a panel_qr,
         * 2 GEMMs but the last), the laset below R, the merge (a laset, 3
         * calls a block beyond the first), its rest of the row */
        c += 2.0 * ln + ndb + 2.0 * (ndb - 1.0) + (h > 1 ? 1.0 : 0.0) + 1.0 +
             3.0 * (ndb - 1.0) + (L - b > 0 ? wl1 : 0.0);
        fl += 4.0 / 3.0 * dh * dh * dh + 4.0 * dh * dh * (L - b + dr) +
              (hq ? 4.0 * dn * dh * dh : 0.0);
        /* at the commit: the pair on d and Q (4 calls), D_J on d and Q */
        c += (r > 0 ? wl2 + wl1 : 0.0) + (hq ? 6.0 : 0.0);
    }
    /* the join, the laset below R1, the permutations of R's rows, d's and
     * Q's columns */
    c += ln + 1.0 + 3.0 + (r > 0 ? 3.0 : 0.0) +
         (hq ? 2.0 + ceil((double)L / p) : 0.0);
    out->flops += fl;
    out->calls += c;
    out->steps += st;
}
