/*
 * The rank-k modification of a least-squares QR factorisation,
 * A1 = A + U V' (U n x k, V m x k; MATLAB's qrupdate, SciPy's qr_update),
 * written once for both precisions against the backend table.
 *
 * Full form (Q n x n, R n x m):
 *   W = Q' U (one GEMM);
 *   PHASE 1, bottom up: when n - m > k, the Householder QR of W(m+1:n, :)
 *     (the rows where R is zero: R is not touched) leaves a k x k
 *     triangle in the rows m+1 .. m+k; then windows of nb1 + k rows,
 *     from the bottom up, each reduced by ONE panel_qr of its
 *     (nb1 + k) x k block of W (or, for k wider than the fused panels, a
 *     blocked QR of it whose blocks are merged) to a triangle in its top
 *     k rows (the window above overlaps it there), whose block reflector
 *     (k reflectors, WY form) is applied to the window's rows of R by two
 *     GEMMs.  W ends as a k x k triangle in its first k rows, and R as
 *     upper Hessenberg with b = nb1 + k - 1 subdiagonals (a window's
 *     rows mix only from its first column on), in its first top = m + k
 *     rows (n if n - m <= k);
 *   R + W(1:k, :) V' changes only the first k rows: the band stays;
 *   PHASE 2, top down: the band of b subdiagonals is reduced as in the
 *     column removal (reflectors of length b + 1, panels of nb2 columns,
 *     one panel_qr each with QRU_UPDATE_FAST), on the top x m working
 *     copy of R;
 *   the rank rule on the new R; only then (commit) all block reflectors,
 *     kept in workspace, are applied to Q from the right and to d from
 *     the left (GEMMs), and the new R is copied in.  So a rank-deficient
 *     A1 leaves the factorisation exactly as it was.
 *   With look-ahead on (the tuning block's lookahead; on by default on
 *     CUDA) the windows' updates of R, and each block reflector's
 *     application to Q and d, run on the second queue (the lane ops) as
 *     soon as the reflector is made, beside the chain of panels on the
 *     first: in the full form on Q and d themselves after a backup copy
 *     of both (the first thing on that queue; a failure copies them back,
 *     so the factorisation is still left as it was), in the thin form on
 *     copies Qc = [Q1 Qz] and dc = [d; dz] that the commit copies in.
 *     It needs n n (full) or n (m + k) (thin) more elements of
 *     workspace; where those cannot be had the update runs without them
 *     as above.
 *   The widths nb1 and nb2 come from the update block size, or
 *   from the plans of the candidates (md_plan_of).
 * Thin form (Q1 n x m, R m x m, d m x r, E = b - Q1 d), k <= n - m:
 *   W = Q1' U, Z = U - Q1 W by CGS2 (econ.c), Z = Qz Rz (Householder),
 *   so A1 = [Q1 Qz] ([R; 0] + [W; Rz] V') with [Q1 Qz] orthonormal; the
 *   full form's steps on the m + k rows of that problem (Rz is already
 *   the triangle phase 1's lower part would make); at the commit Qz
 *   becomes the k scratch columns of Q1 and dz = Qz' E the scratch rows
 *   of d, the reflectors run on the m + k columns / rows, the first m are
 *   kept, and E := E - Qz dz + Q(:, m+1:m+k) d(m+1:m+k, :) (the rows of
 *   d that leave the triangle return to the residuals).
 * The Q-less form has no Q to carry the change: QRU_ERR_NO_Q.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "qru_flops.h"
#include "update.h"

/* The shape of one modification: the problem of N rows (full: n, thin:
 * m + k) whose first top rows hold R's working copy. */
typedef struct md_plan {
    int n, m, k, r, N, top;
    int thin;
    int lower;        /* phase 1 starts with the QR of W(m:N, :) */
    int nbh;          /* its panel width (and the thin form's Z's) */
    int nb1, nw, hmax; /* windows: step, count, rows (nb1 + k) */
    int nbw;          /* a window's panel width: k (one panel_qr), or
                         blocks of nbw (qru_upd_house) where k is wider
                         than the fused panels */
    int b;            /* the band phase 2 reduces */
    int fused;        /* phase 2 by panel_qr (QRU_UPDATE_FAST) */
    int nb2, nblk, ldy2; /* phase 2: panel width, panels, their rows */
    int lanes;        /* Q and d on the second queue (Qc, dc: full form
                         the backups, thin form the copies worked on) */
} md_plan;

/* The plan with window step nb1 and phase-2 panels of at most nb2
 * columns (the fused panels: at most what qru_upd_fused_nb allows). */
static md_plan md_plan_with(const qru_lsq *f, const qru_context *ctx, int k,
                            int alg, int nb1, int nb2)
{
    md_plan p;
    p.n = f->n;
    p.m = f->m;
    p.k = k;
    p.r = f->r;
    p.thin = f->q == QRU_Q_THIN && f->n > f->m;
    p.N = p.thin ? p.m + k : p.n;
    p.lower = !p.thin && p.n - p.m > k;
    p.top = p.lower || p.thin ? p.m + k : p.n;
    p.nbh = qru_upd_house_nb(f, ctx, alg, p.thin ? p.n : p.n - p.m, k);
    /* a step beyond the rows changes nothing (and a caller's block size
     * may be as large as INT_MAX) */
    p.nb1 = nb1 < p.top ? nb1 : p.top > 1 ? p.top : 1;
    p.hmax = p.nb1 + k;
    p.nw = p.top > k ? (p.top - k + p.nb1 - 1) / p.nb1 : 0;
    p.b = p.nb1 + k - 1 < p.top - 1 ? p.nb1 + k - 1 : p.top - 1;
    if (p.b < 0)
        p.b = 0;
    p.fused = qru_upd_use_fused(alg, ctx, f->dtype);
    p.nbw = p.fused ? qru_upd_fused_nb(f, ctx, k, p.nb1) : k;
    int mx = p.fused ? qru_upd_fused_nb(f, ctx, p.m, p.b) : p.m;
    p.nb2 = nb2 < mx ? nb2 : mx;
    p.nblk = (p.m + p.nb2 - 1) / p.nb2;
    p.ldy2 = p.nb2 + p.b;
    p.lanes = qru_ctx_tuning(ctx, f->dtype)->lookahead != 0;
    return p;
}

/* Window i (0: the bottom one): its first row and its rows. */
static void md_window(const md_plan *p, int i, int *s, int *h)
{
    int e = p->top - i * p->nb1;
    int s0 = e - p->hmax;
    *s = s0 > 0 ? s0 : 0;
    *h = e - *s;
}

/* Phase-2 panel j: its first column, columns and rows. */
static void md_panel(const md_plan *p, int j, int *c0, int *jb, int *rb)
{
    *c0 = j * p->nb2;
    *jb = p->m - *c0 < p->nb2 ? p->m - *c0 : p->nb2;
    long last = (long)*c0 + *jb + p->b;
    *rb = (int)((last < p->top ? last : p->top) - *c0);
}

/* The plan of the update of rq (algorithm rq->alg).  The caller's block
 * size (f->upd_nb) gives both widths; else QRU_UPDATE_FAST takes, of the
 * panel widths w = 8, 16, 32, 64 and the window steps s = c max(k, w),
 * c = 1, 2, 4 (windows of s + k rows; variant 3 log2(w / 8) + log2(c)),
 * the pair whose plan is priced fastest (qru_upd_variant): narrow blocks
 * do the least arithmetic (the band b = s + k - 1 grows with the windows,
 * and a panel's block reflector on Q costs 4 n (w + b) a column), wide
 * ones the fewest backend calls, and long steps the fewest windows, whose
 * fused panels run their k columns one after the other;
 * QRU_UPDATE_DISSERTATION takes windows of max(k, 32) + k rows and panels
 * of about m / 10 columns. */
#define MD_VARIANTS 12
static int md_plan_of(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                      md_plan *p)
{
    int k = rq->p, alg = rq->alg, v;
    if (f->upd_nb > 0) {
        *p = md_plan_with(f, ctx, k, alg, f->upd_nb, f->upd_nb);
    } else if (!qru_upd_use_fused(alg, ctx, f->dtype)) {
        *p = md_plan_with(f, ctx, k, alg, k > 32 ? k : 32,
                          qru_upd_nb(f, f->m));
    } else {
        QRU_TRY(qru_upd_variant(ctx, f, rq, MD_VARIANTS, &v));
        int w = 8 << (v / 3);
        long s = (long)(1 << (v % 3)) * (k > w ? k : w);
        *p = md_plan_with(f, ctx, k, alg, s < INT_MAX ? (int)s : INT_MAX, w);
    }
    return 0;
}

/* The workspace, in elements, carved in this order. */
typedef struct md_ws {
    size_t Wa, Rw, hh, Yw, Y2, tau, Z, C2, Qz, dz, Qc, dc, hw, work1, work,
        total;
} md_ws;

static md_ws md_ws_of(const md_plan *p)
{
    md_ws w;
    size_t n = (size_t)p->n, m = (size_t)p->m, k = (size_t)p->k,
           r = (size_t)p->r;
    size_t kb = k > (size_t)p->nb2 ? k : (size_t)p->nb2;
    size_t rows = n > m ? n : m;
    if (r > rows)
        rows = r;
    size_t work = rows * kb;
    if (qru_panel_work(p->hmax, p->k) > work)
        work = qru_panel_work(p->hmax, p->k);
    if (qru_panel_work(p->ldy2, p->nb2) > work)
        work = qru_panel_work(p->ldy2, p->nb2);
    w.Wa = 0;
    w.Rw = w.Wa + (size_t)p->N * k;
    w.hh = w.Rw + (size_t)p->top * m;
    w.Yw = w.hh + (p->thin    ? qru_upd_basis_workspace(p->n, p->m, p->k,
                                                        p->nbh)
                   : p->lower ? qru_upd_house_workspace(p->N - p->m, p->k,
                                                         p->nbh)
                              : 0);
    w.Y2 = w.Yw + 2 * (size_t)p->nw * (size_t)p->hmax * k;
    w.tau = w.Y2 + 2 * (size_t)p->nblk * (size_t)p->ldy2 * (size_t)p->nb2;
    w.Z = w.tau + kb;
    w.C2 = w.Z + (p->thin ? n * k : 0);
    w.Qz = w.C2 + (p->thin ? m * k : 0);
    w.dz = w.Qz + (p->thin ? n * k : 0);
    /* with lanes: Qc (n x N, ld n) and dc (N x r, ld N) */
    w.Qc = w.dz + (p->thin ? k * r : 0);
    w.dc = w.Qc + (p->lanes ? n * (size_t)p->N : 0);
    /* a blocked window's QR (k > nbw) */
    w.hw = w.dc + (p->lanes ? (size_t)p->N * r : 0);
    /* the second queue's work (the windows' updates of R, and with lanes
     * the block reflectors on Q and d, or Qc and dc) */
    w.work1 = w.hw + (p->k > p->nbw ? qru_upd_house_workspace(p->hmax, p->k,
                                                               p->nbw)
                                     : 0);
    w.work = w.work1 + rows * kb;
    w.total = w.work + work + 1;
    return w;
}

/* The block reflectors kept in ws: the lower QR's (merged, nz x k), the
 * windows' (hmax x k each, Y then W) and phase 2's (ldy2 x nb2 each). */
static qru_ptr md_win(const md_plan *p, const md_ws *w, qru_ptr ws, int i)
{
    return qru_ptr_add(ws, w->Yw + 2 * (size_t)i * p->hmax * p->k);
}
static qru_ptr md_pan(const md_plan *p, const md_ws *w, qru_ptr ws, int j)
{
    return qru_ptr_add(ws, w->Y2 + 2 * (size_t)j * p->ldy2 * p->nb2);
}

/* Block reflector i, in the order they are made (the lower QR's when
 * p->lower, the windows', phase 2's panels'): P = I + W Y' on the rows
 * (columns) s .. s+h-1 of the problem, jb reflectors, Y and W at ld. */
typedef struct md_blk {
    int s, h, jb, ld;
    qru_ptr Y, W;
} md_blk;

static int md_nblocks(const md_plan *p) { return p->lower + p->nw + p->nblk; }

static md_blk md_block(const md_plan *p, const md_ws *w, qru_ptr ws, int i)
{
    md_blk b;
    if (p->lower && i-- == 0) {
        b.s = p->m;
        b.h = p->N - p->m;
        b.jb = p->k;
        b.ld = b.h;
        b.Y = qru_ptr_add(ws, w->hh);
        b.W = qru_ptr_add(b.Y, (size_t)b.h * p->k);
    } else if (i < p->nw) {
        md_window(p, i, &b.s, &b.h);
        b.jb = p->k;
        b.ld = p->hmax;
        b.Y = md_win(p, w, ws, i);
        b.W = qru_ptr_add(b.Y, (size_t)p->hmax * p->k);
    } else {
        md_panel(p, i - p->nw, &b.s, &b.jb, &b.h);
        b.ld = p->ldy2;
        b.Y = md_pan(p, w, ws, i - p->nw);
        b.W = qru_ptr_add(b.Y, (size_t)p->ldy2 * p->nb2);
    }
    return b;
}

/* X := X P for the nr x N array X or, left != 0, X := P' X for the N x nr
 * array X, P = block reflector i (it acts on N - 1 or fewer rows or
 * columns of X). */
static int md_apply_block(qru_context *ctx, qru_dtype dt, const md_plan *p,
                          const md_ws *w, qru_ptr ws, int i, int left,
                          qru_ptr X, int ldx, int nr, qru_ptr work)
{
    md_blk b = md_block(p, w, ws, i);
    return left ? qru_upd_wy_left(ctx, dt, b.h, b.jb, nr, b.Y, b.ld, b.W,
                                  b.ld, qru_ptr_add(X, (size_t)b.s), ldx, work)
                : qru_upd_wy_right(ctx, dt, nr, b.h, b.jb, b.Y, b.ld, b.W,
                                   b.ld, qru_ptr_at(X, ldx, 0, b.s), ldx,
                                   work);
}

/* With lanes, block reflector i on the second queue, once made: on Q
 * and d (full form; the caller's Q, ldq, and d, ldd) or on Qc and dc
 * (thin form). */
static int md_lane_block(qru_context *ctx, qru_dtype dt, const md_plan *p,
                         const md_ws *w, qru_ptr ws, int i, qru_ptr Q,
                         int ldq, qru_ptr d, int ldd)
{
    qru_ptr work = qru_ptr_add(ws, w->work1);
    if (!p->lanes)
        return 0;
    if (p->thin) {
        Q = qru_ptr_add(ws, w->Qc);
        ldq = p->n;
        d = qru_ptr_add(ws, w->dc);
        ldd = p->N;
    }
    QRU_TRY(md_apply_block(ctx, dt, p, w, ws, i, 0, Q, ldq, p->n, work));
    return md_apply_block(ctx, dt, p, w, ws, i, 1, d, ldd, p->r, work);
}

/* With lanes, the copies (on the current queue): Qc = Q, dc = d (full
 * form: the backups) or Qc = [Q1 Qz], dc = [d; dz] (thin). */
static int md_lane_copies(qru_context *ctx, const qru_lsq *f,
                          const md_plan *p, const md_ws *w, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = p->n, m = p->m, k = p->k, r = p->r, N = p->N;
    int c = p->thin ? m : N; /* the columns (rows of d) from f */
    qru_ptr Qc = qru_ptr_add(ws, w->Qc), dc = qru_ptr_add(ws, w->dc);
    QRU_TRY(o->copy(ctx, dt, n, c, f->Q, f->ncap, Qc, n));
    if (p->thin)
        QRU_TRY(o->copy(ctx, dt, n, k, qru_ptr_add(ws, w->Qz), n,
                        qru_ptr_at(Qc, n, 0, m), n));
    if (r > 0) {
        QRU_TRY(o->copy(ctx, dt, p->thin ? m : N, r, f->d, f->ldr, dc, N));
        if (p->thin)
            QRU_TRY(o->copy(ctx, dt, k, r, qru_ptr_add(ws, w->dz), k,
                            qru_ptr_add(dc, (size_t)m), N));
    }
    return 0;
}

/* Phases 1 and 2 on Wa (N x k, ld N: Q' U, or [W; Rz] in the thin form)
 * and Rw (top x m, ld top: R's first top rows), keeping the block
 * reflectors; then the rank rule on the new R (hdiag, hnorm: m host
 * doubles each).  The windows' updates of R go to the second queue, and
 * with lanes every block reflector on Q and d (md_lane_block); the first
 * queue waits for the second only before R + W V' (a backend without a
 * second queue runs them in order).  The caller joins the queues.
 * Returns 0, the rank status j > 0 or a library status. */
static int md_reduce(qru_context *ctx, const qru_lsq *f, const md_plan *p,
                     const md_ws *w, qru_ptr ws, const qru_matrix *V,
                     double *hdiag, double *hnorm)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = p->m, k = p->k, N = p->N, top = p->top, nb0 = p->lower + p->nw;
    qru_ptr Wa = qru_ptr_add(ws, w->Wa), Rw = qru_ptr_add(ws, w->Rw),
            tau = qru_ptr_add(ws, w->tau), work = qru_ptr_add(ws, w->work),
            work1 = qru_ptr_add(ws, w->work1);
    /* PHASE 1: the rows below m + k (full form), then the windows */
    if (p->lower) {
        int nz = N - m;
        qru_ptr hh = qru_ptr_add(ws, w->hh);
        QRU_TRY(qru_upd_house(ctx, dt, nz, k, p->nbh,
                              qru_ptr_add(Wa, (size_t)m), N, hh));
        QRU_TRY(qru_upd_house_merge(ctx, dt, nz, k, p->nbh, hh));
    }
    for (int i = 0; i < p->nw; ++i) {
        md_blk b = md_block(p, w, ws, p->lower + i);
        qru_ptr Wi = qru_ptr_add(Wa, (size_t)b.s);
        if (k > p->nbw) { /* blocked, merged, then Y and W into place */
            qru_ptr hw = qru_ptr_add(ws, w->hw);
            QRU_TRY(qru_upd_house(ctx, dt, b.h, k, p->nbw, Wi, N, hw));
            QRU_TRY(qru_upd_house_merge(ctx, dt, b.h, k, p->nbw, hw));
            QRU_TRY(o->copy(ctx, dt, b.h, k, hw, b.h, b.Y, b.ld));
            QRU_TRY(o->copy(ctx, dt, b.h, k,
                            qru_ptr_add(hw, (size_t)b.h * k), b.h, b.W,
                            b.ld));
        } else {
            QRU_TRY(o->panel_qr(ctx, dt, b.h, k, Wi, N, b.Y, b.ld, b.W, b.ld,
                                tau, work));
        }
        if (b.s < m) { /* R's rows s .. s+h-1 are zero left of column s */
            QRU_TRY(o->lane(ctx, dt, 1));
            QRU_TRY(qru_upd_wy_left(ctx, dt, b.h, k, m - b.s, b.Y, b.ld, b.W,
                                    b.ld, qru_ptr_at(Rw, top, b.s, b.s), top,
                                    work1));
            QRU_TRY(o->lane(ctx, dt, 0));
        }
    }
    QRU_TRY(o->lane_join(ctx));
    /* with lanes: the lower QR's and the windows' reflectors on Q and d
     * (md_lane_block) */
    if (p->lanes && nb0 > 0) {
        QRU_TRY(o->lane(ctx, dt, 1));
        for (int i = 0; i < nb0; ++i)
            QRU_TRY(md_lane_block(ctx, dt, p, w, ws, i, f->Q, f->ncap, f->d,
                                  f->ldr));
        QRU_TRY(o->lane(ctx, dt, 0));
    }
    /* R + W(1:k, :) V': the first min(k, top) rows (all of W's nonzeros) */
    int kk = k < top ? k : top;
    QRU_TRY(o->gemm(ctx, dt, 'N', 'C', kk, m, k, 1.0, Wa, N, V->p, V->ld, 1.0,
                    Rw, top));
    /* PHASE 2: the band of b subdiagonals, top down */
    for (int j = 0; j < p->nblk; ++j) {
        md_blk b = md_block(p, w, ws, nb0 + j);
        int c0 = b.s, jb = b.jb, rb = b.h;
        if (p->fused)
            QRU_TRY(o->panel_qr(ctx, dt, rb, jb, qru_ptr_at(Rw, top, c0, c0),
                                top, b.Y, b.ld, b.W, b.ld, tau, work));
        else
            QRU_TRY(qru_upd_panel(ctx, dt, Rw, top, top, m, c0, jb, p->b, b.Y,
                                  b.ld, b.W, b.ld, tau, work));
        if (p->lanes) {
            QRU_TRY(o->lane(ctx, dt, 1));
            QRU_TRY(md_lane_block(ctx, dt, p, w, ws, nb0 + j, f->Q, f->ncap,
                                  f->d, f->ldr));
            QRU_TRY(o->lane(ctx, dt, 0));
        }
        if (p->fused)
            QRU_TRY(qru_upd_wy_left(ctx, dt, rb, jb, m - c0 - jb, b.Y, b.ld,
                                    b.W, b.ld,
                                    qru_ptr_at(Rw, top, c0, c0 + jb), top,
                                    work));
    }
    /* exact zeros below the diagonal, then the rank rule on all columns */
    if (top > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', top - 1, m, 0.0, 0.0,
                         qru_ptr_add(Rw, 1), top));
    if (!qru_lsq_judges_rank(f, 1))
        return 0;
    QRU_TRY(qru_qr_rank_gather(ctx, dt, m, m, Rw, Rw, top, hdiag, hnorm));
    return qru_qr_rank_first(dt, p->n, m, 0, hdiag, hnorm);
}

int qru_lsq_modify(qru_lsq *f, const qru_matrix *U, const qru_matrix *V)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    int n = f->n, m = f->m;
    QRU_ARG_MAT(ctx, 2, "U", U, f->dtype);
    QRU_ARG(ctx, 2, U->rows == n, "U has %d rows, but it needs n = %d",
            U->rows, n);
    QRU_ARG(ctx, 2, U->cols >= 1, "U has %d columns, but k >= 1 must hold",
            U->cols);
    QRU_ARG(ctx, 2, f->q != QRU_Q_THIN || n == m || U->cols <= n - m,
            "U has k = %d columns, but the thin form (QRU_Q_THIN) takes "
            "k <= n - m = %d (n = %d, m = %d)", U->cols, n - m, n, m);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 2, "U", U));
    QRU_CHECK(ctx, qru_check_finite(ctx, 2, U, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 3, "V", V, f->dtype);
    QRU_ARG(ctx, 3, V->rows == m && V->cols == U->cols,
            "V is %d x %d, but it must be m x k = %d x %d", V->rows, V->cols,
            m, U->cols);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 3, "V", V));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, V, 'A', 'N', 0));
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation is Q-less "
                                            "(QRU_Q_NONE): A + U V' needs Q"));
    qru_upd_req rq = {QRU_UPD_OP_MODIFY, 0, U->cols, U, NULL, NULL, NULL, 0,
                      V, -1};
    QRU_RET(ctx, qru_upd_run(ctx, f, rq));
}

int qru_upd_modify(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U, *V = rq->V;
    int chained; /* rank 1: the Givens chains (givens_chain.c) */
    QRU_TRY(qru_upd_chain_run(ctx, f, rq, &chained));
    if (chained)
        return 0;
    md_plan p;
    QRU_TRY(md_plan_of(ctx, f, rq, &p));
    md_ws w = md_ws_of(&p);
    int n = p.n, m = p.m, k = p.k, r = p.r, N = p.N, top = p.top, st;
    int ld = f->ldr, ldq = f->ncap;
    int backed = 0; /* full form with lanes: Q and d in Qc, dc */
    double *hdiag = malloc(sizeof(double) * 2 * (size_t)m);
    if (!hdiag)
        return QRU_HOST_ALLOC_FAILED;
    double *hnorm = hdiag + m;
    qru_ptr ws;
    st = qru_ctx_workspace(ctx, w.total * qru_dtype_size(dt), &ws);
    if (st && p.lanes) { /* without the copies Qc and dc */
        p.lanes = 0;
        w = md_ws_of(&p);
        st = qru_ctx_workspace(ctx, w.total * qru_dtype_size(dt), &ws);
    }
    if (st) {
        free(hdiag);
        return st;
    }
    qru_ptr Wa = qru_ptr_add(ws, w.Wa), Rw = qru_ptr_add(ws, w.Rw),
            Z = qru_ptr_add(ws, w.Z), C2 = qru_ptr_add(ws, w.C2),
            Qz = qru_ptr_add(ws, w.Qz), dz = qru_ptr_add(ws, w.dz),
            hh = qru_ptr_add(ws, w.hh);

    /* R's working copy: its first m rows (the rest, to top, are zero) */
    QRU_TRY_GOTO(o->copy(ctx, dt, m, m, f->R, ld, Rw, top));
    if (top > m)
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', top - m, m, 0.0, 0.0,
                              qru_ptr_add(Rw, (size_t)m), top));
    if (p.thin) {
        /* W = Q1' U and Z = U - Q1 W (CGS2), Z = Qz Rz (Qz orthogonal to
         * Q1 also where U lies in the range of A), dz = Qz' E */
        QRU_TRY_GOTO(o->copy(ctx, dt, n, k, U->p, U->ld, Z, n));
        QRU_TRY_GOTO(qru_upd_cgs(ctx, dt, n, m, k, 2, f->Q, ldq, Z, n, Wa, N,
                                 C2));
        QRU_TRY_GOTO(qru_upd_basis(ctx, dt, n, m, k, p.nbh, f->Q, ldq, Z, n,
                                   Qz, n, 1, hh));
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', k, k, 0.0, 0.0,
                              qru_ptr_add(Wa, (size_t)m), N));
        QRU_TRY_GOTO(o->lacpy(ctx, dt, 'U', k, k, Z, n,
                              qru_ptr_add(Wa, (size_t)m), N));
        if (r > 0)
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', k, r, n, 1.0, Qz, n,
                                 f->E, ldq, 0.0, dz, k));
    } else { /* W = Q' U (a square thin Q1 is all of Q) */
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', n, k, n, 1.0, f->Q, ldq,
                             U->p, U->ld, 0.0, Wa, N));
    }
    if (p.lanes) { /* the second queue's first work */
        QRU_TRY_GOTO(o->lane(ctx, dt, 1));
        QRU_TRY_GOTO(md_lane_copies(ctx, f, &p, &w, ws));
        QRU_TRY_GOTO(o->lane(ctx, dt, 0));
        backed = !p.thin;
    }
    if ((st = md_reduce(ctx, f, &p, &w, ws, V, hdiag, hnorm)) != 0)
        goto done;

    /* commit (with lanes, once the second queue is done) */
    QRU_TRY_GOTO(o->lane_join(ctx));
    if (p.thin) {
        QRU_TRY_GOTO(qru_lsq_reserve(f, n, m + k));
        ld = f->ldr;
        ldq = f->ncap;
        /* [Q1 Qz], [d; dz], E - Qz dz: the problem of m + k columns */
        if (r > 0)
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, k, -1.0, Qz, n, dz,
                                 k, 1.0, f->E, ldq));
        if (!p.lanes) {
            QRU_TRY_GOTO(o->copy(ctx, dt, n, k, Qz, n,
                                 qru_ptr_at(f->Q, ldq, 0, m), ldq));
            if (r > 0)
                QRU_TRY_GOTO(o->copy(ctx, dt, k, r, dz, k,
                                     qru_ptr_add(f->d, (size_t)m), ld));
        }
    }
    if (p.lanes) { /* full form: done in place; thin: the copies in */
        if (p.thin) {
            QRU_TRY_GOTO(o->copy(ctx, dt, n, N, qru_ptr_add(ws, w.Qc), n,
                                 f->Q, ldq));
            if (r > 0)
                QRU_TRY_GOTO(o->copy(ctx, dt, N, r, qru_ptr_add(ws, w.dc), N,
                                     f->d, ld));
        }
    } else {
        qru_ptr work = qru_ptr_add(ws, w.work);
        for (int i = 0; i < md_nblocks(&p); ++i) {
            QRU_TRY_GOTO(
                md_apply_block(ctx, dt, &p, &w, ws, i, 0, f->Q, ldq, n, work));
            QRU_TRY_GOTO(
                md_apply_block(ctx, dt, &p, &w, ws, i, 1, f->d, ld, r, work));
        }
    }
    if (p.thin && r > 0) /* the rows m .. m+k-1 of d leave the triangle */
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, k, 1.0,
                             qru_ptr_at(f->Q, ldq, 0, m), ldq,
                             qru_ptr_add(f->d, (size_t)m), ld, 1.0, f->E,
                             ldq));
    /* R: the full form's rows top .. n-1 stay zero; the thin form keeps
     * its m rows */
    QRU_TRY_GOTO(o->copy(ctx, dt, p.thin ? m : top, m, Rw, top, f->R, ld));
done:
    if (st) { /* nothing on the second queue outlives the call, Q and d
               * as they were (the failure's status stands) */
        (void)o->lane_join(ctx);
        if (backed) {
            (void)o->copy(ctx, dt, n, N, qru_ptr_add(ws, w.Qc), n, f->Q,
                          f->ncap);
            if (r > 0)
                (void)o->copy(ctx, dt, N, r, qru_ptr_add(ws, w.dc), N, f->d,
                              f->ldr);
        }
    }
    free(hdiag);
    return st;
}

