/*
 * Column updates of a least-squares QR factorisation (Andrew 2012,
 * sections 2.4.1 and 4.1), written once for both precisions
 * against the backend table:
 *
 *  - adding a block of p columns U after column k (needs Q):
 *      U_Q = Q' U; a blocked Householder QR of U_Q(m+1:n, :) (the rows where
 *      R is zero); then strips of Givens rotations (makeGivens /
 *      applyGivens of section 3.2) on the transposed active block
 *      R1(k+1:m+p, k+1:m+p) remove the p subdiagonals of the new columns.
 *      Everything that concerns R is computed in workspace first, so that a
 *      rank-deficient result leaves the factorisation unchanged; the stored
 *      reflectors (the panels' W, Y merged into one block reflector) and
 *      rotations (c, s) are then applied to Q and d.
 */
#include <math.h>
#include <stdlib.h>

#include "qru_flops.h"
#include "update.h"

/* *tiles := 1 if adding the columns of rq removes the new columns' subdiagonals by
 * Householder tiles (tiles.c) rather than Givens sweeps: always, never or
 * where their plan is priced faster (qru_upd_tiles_mode,
 * qru_upd_variant); fast: the update is QRU_UPDATE_FAST. */
static int ac_pick_tiles(qru_context *ctx, qru_lsq *f,
                         const qru_upd_req *rq, int fast, int *tiles)
{
    *tiles = qru_upd_tiles_mode(f, ctx, fast, f->m - rq->k);
    return *tiles == 2 ? qru_upd_variant(ctx, f, rq, 2, tiles) : 0;
}

/* Number of Givens steps of the add-columns update and the rotations of
 * step t: new column j (local, 0 <= j < p) has L = m - k entries below its
 * diagonal after the Householder phase, removed bottom-up with rotations
 * of the local rows (i-1, i), i = L+j, ..., j+1.  Rotation (i, j) runs at
 * step t = L + 2j - i, so the rotations of one step act on disjoint pairs
 * of rows (i grows by 2 with j) and never disturb zeros made before. */
/* The checks of f (1), k (2) and U (3) of both public functions. */
static int add_cols_args(qru_lsq *f, int k, const qru_matrix *U)
{
    qru_context *ctx = f->ctx;
    int n = f->n, m = f->m;
    if (k < 0 || k > m)
        return qru_fail_arg(2, "k = %d, but 0 <= k <= m = %d must hold", k, m);
    int st = qru_arg_matrix(ctx, 3, "U", U, f->dtype);
    if (st)
        return st;
    if (U->rows != n)
        return qru_fail_arg(3, "U has %d rows, but it needs n = %d", U->rows,
                            n);
    if (U->cols < 1 || U->cols > n - m)
        return qru_fail_arg(3, "U has %d columns, but 1 <= p <= n - m = %d "
                               "must hold (A stays tall: m + p <= n = %d, "
                               "m = %d)", U->cols, n - m, n, m);
    st = qru_lsq_arg_apart(f, 3, "U", U);
    return st ? st : qru_check_finite(ctx, 3, U, 'A', 'N', 0);
}

int qru_lsq_add_cols(qru_lsq *f, int k, const qru_matrix *U)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_CHECK(ctx, add_cols_args(f, k, U));
    if (f->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the factorisation is Q-less "
                                            "(QRU_Q_NONE): add columns with "
                                            "qru_lsq_add_cols_data"));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                             (qru_upd_req){QRU_UPD_OP_ADD_COLS, k, U->cols, U,
                                           NULL, NULL, NULL, 0, NULL, -1}));
}

int qru_lsq_add_cols_data(qru_lsq *f, int k, const qru_matrix *U,
                          const qru_matrix *A, const qru_matrix *b)
{
    QRU_ARG(NULL, 1, f, "f is NULL");
    qru_context *ctx = f->ctx;
    QRU_CHECK(ctx, add_cols_args(f, k, U));
    QRU_ARG_MAT(ctx, 4, "A", A, f->dtype);
    QRU_ARG(ctx, 4, A->rows == f->n && A->cols == f->m,
            "A is %d x %d, but it must be n x m = %d x %d (the matrix f "
            "factorises)", A->rows, A->cols, f->n, f->m);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 4, "A", A));
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, A, 'A', 'N', 0));
    QRU_ARG_MAT(ctx, 5, "b", b, f->dtype);
    QRU_ARG(ctx, 5, b->rows == f->n && b->cols == f->r,
            "b is %d x %d, but it must be n x r = %d x %d", b->rows, b->cols,
            f->n, f->r);
    QRU_CHECK(ctx, qru_lsq_arg_apart(f, 5, "b", b));
    QRU_CHECK(ctx, qru_check_finite(ctx, 5, b, 'A', 'N', 0));
    QRU_RET(ctx, qru_upd_run(ctx, f,
                             (qru_upd_req){QRU_UPD_OP_ADD_COLS, k, U->cols, U,
                                           NULL, A, b, 0, NULL, -1}));
}

/* ---- the steps shared by the forms ----
 * Rw (mr = m + p rows, s = m + p - k columns, ld mr) holds the columns
 * k+1 .. m+p of [R U_Q] before the rotations: [U_Q(1:m, :) R(1:m, k+1:m);
 * R22 0], R22 p x p upper triangular. */

/* Fills Rw from U_Q(1:m, :) (Uq, ldu), R22 (ld ld22) and R. */
static int ac_fill(qru_context *ctx, const qru_lsq *f, int k, int p,
                   qru_ptr Uq, int ldu, qru_ptr R22, int ld22, qru_ptr Rw)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, L = m - k, mr = m + p;
    QRU_TRY(o->copy(ctx, dt, m, p, Uq, ldu, Rw, mr));
    QRU_TRY(o->laset(ctx, dt, 'A', p, p, 0.0, 0.0, qru_ptr_add(Rw, (size_t)m),
                     mr));
    QRU_TRY(o->lacpy(ctx, dt, 'U', p, p, R22, ld22, qru_ptr_add(Rw, (size_t)m),
                     mr));
    if (L > 0) {
        QRU_TRY(o->copy(ctx, dt, m, L, qru_ptr_at(f->R, f->ldr, 0, k), f->ldr,
                        qru_ptr_at(Rw, mr, 0, p), mr));
        QRU_TRY(o->laset(ctx, dt, 'A', p, L, 0.0, 0.0,
                         qru_ptr_at(Rw, mr, m, p), mr));
    }
    return 0;
}

/* 1 if the fast update forms the rotations on the p new columns alone
 * and applies them to the L old ones in accumulated blocks (GEMMs):
 * whenever the sweeps are accumulated at all (qru_upd_sweeps_block).
 * Otherwise the sweeps run on all s = L + p columns of the active block,
 * step by step. */
static int ac_split(const qru_context *ctx, qru_dtype dt, int fast, int L,
                    int p)
{
    return fast && qru_upd_sweeps_block(ctx, dt, L, p) > 0;
}

/* Workspace of the shared steps: Rw, RT, then either the tiles'
 * (tiles.c) or cs, the accumulated rotations on n rows (fast)
 * and, with ac_split, dT (r x (L + p)) after them; ac_shared_at carves it
 * from sh (one layout for both forms). */
typedef struct ac_shared {
    int tiles;
    qru_ptr rk; /* the rank rule's diagonal, then norms: 2 (m + p) */
    qru_ptr Rw, RT, cs, sw, dT, tl;
} ac_shared;

/* The tiles (tiles.c) of the active block: X = Rw(k+1:m+p, 1:p) (the new
 * columns above their triangle R22), R's part = Rw(k+1:m+p, p+1:s); d's
 * rows and Q's columns from k on, as f holds them at the moment. */
static qru_upd_tiles ac_tiles(const qru_lsq *f, int k, int p, qru_ptr Rw)
{
    int m = f->m, mr = m + p;
    qru_upd_tiles tl = {0};
    tl.L = m - k;
    tl.p = p;
    tl.X = qru_ptr_add(Rw, (size_t)k);
    tl.ldx = mr;
    tl.R = qru_ptr_at(Rw, mr, k, p);
    tl.ldr = mr;
    tl.d = qru_ptr_add(f->d, (size_t)k);
    tl.ldd = f->ldr;
    tl.r = f->r;
    if (f->q != QRU_Q_NONE) {
        tl.Q = qru_ptr_at(f->Q, f->ncap, 0, k);
        tl.ldq = f->ncap;
        tl.nq = f->n;
    }
    return tl;
}

/* PHASE 2: Givens strips on RT = Rw(k+1:m+p, :)' (row major active block:
 * the rows of R are contiguous columns of RT), their (c, s) into cs; then
 * the rank rule on the columns k+1..m+p with the tolerance of all of
 * R1 = [R(:, 1:k) Rw] (one host round trip: hdiag, 2 (m + p) doubles,
 * receives the diagonal, then the column norms).
 * With ac_split the sweeps form the rotations on the first p rows of RT
 * (the new columns: a p x (L+p) chain instead of s x (L+p)) and
 * their accumulated groups (built in sw, which keeps them for ac_apply)
 * are applied to the other L rows, the old columns of R, whose upper
 * triangle lets each group's GEMM skip the rows left of its window.
 * Returns 0, the rank status or a library status. */
static int ac_rotate(qru_context *ctx, const qru_lsq *f, int k, int p,
                     int fast, const ac_shared *sa, double *hdiag)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, L = m - k, s = m + p - k, mr = m + p;
    qru_ptr Rw = sa->Rw, RT = sa->RT, cs = sa->cs, sw = sa->sw;
    if (L > 0 && sa->tiles) {
        qru_upd_tiles tl = ac_tiles(f, k, p, Rw);
        QRU_TRY(qru_upd_tiles_run(ctx, f, &tl, sa->tl));
        /* the triangle's rows first: X := X([L:L+p, 0:L], :) through RT */
        QRU_TRY(o->copy(ctx, dt, p, s, qru_ptr_add(Rw, (size_t)m), mr, RT, s));
        QRU_TRY(o->copy(ctx, dt, L, s, qru_ptr_add(Rw, (size_t)k), mr,
                        qru_ptr_add(RT, (size_t)p), s));
        QRU_TRY(o->copy(ctx, dt, s, s, RT, s, qru_ptr_add(Rw, (size_t)k), mr));
        QRU_TRY(o->laset(ctx, dt, 'L', s - 1, s, 0.0, 0.0,
                         qru_ptr_add(Rw, (size_t)k + 1), mr));
    } else if (L > 0) {
        int split = ac_split(ctx, dt, fast, L, p), nr = split ? p : s;
        QRU_TRY(o->transpose(ctx, dt, s, s, qru_ptr_add(Rw, (size_t)k), mr,
                             RT, s));
        /* in one call when the backend's fused sweeps pay off */
        QRU_TRY(((fast && qru_upd_use_sweeps(ctx, dt, L, p, nr))
                     ? o->givens_sweeps
                     : qru_ref_givens_sweeps)(ctx, dt, L, p, 1, RT, 1, s, nr,
                                              1, cs));
        if (split) { /* the groups stay in sw for ac_apply */
            qru_ptr none = {0, 0};
            QRU_TRY(qru_upd_sweeps_build(ctx, dt, L, p, cs, sw));
            QRU_TRY(qru_upd_sweeps_groups(ctx, dt, L, p, none, 1, 0,
                                          qru_ptr_add(RT, (size_t)p), s, L,
                                          sw));
        }
        QRU_TRY(o->transpose(ctx, dt, s, s, RT, s, qru_ptr_add(Rw, (size_t)k),
                             mr));
        /* the rotated-away entries are rounding-level: make them exact 0 */
        QRU_TRY(o->laset(ctx, dt, 'L', s - 1, s, 0.0, 0.0,
                         qru_ptr_add(Rw, (size_t)k + 1), mr));
    }
    if (!qru_lsq_judges_rank(f, f->q == QRU_Q_FULL))
        return 0;
    /* both blocks' data in one download: diagonal, then norms */
    qru_ptr dg = sa->rk, nr = qru_ptr_add(sa->rk, (size_t)mr);
    QRU_TRY(qru_qr_rank_queue(ctx, dt, k, k, f->R, f->R, f->ldr, dg, nr));
    QRU_TRY(qru_qr_rank_queue(ctx, dt, mr, s, Rw, qru_ptr_add(Rw, (size_t)k),
                              mr, qru_ptr_add(dg, (size_t)k),
                              qru_ptr_add(nr, (size_t)k)));
    QRU_TRY(qru_chol_read_row(ctx, dt, 2 * mr, dg, 1, hdiag));
    return qru_qr_rank_first(dt, f->n, mr, k, hdiag, hdiag + mr);
}

/* The rotations of cs on the columns k .. m+p-1 of Q (when held; fast:
 * accumulated through qru_upd_sweeps_apply, sw its workspace) and on the
 * rows k .. m+p-1 of d, after the capacity for m + p columns.  With
 * ac_split the groups that ac_rotate left in sw are applied to Q and to
 * d (transposed into dT, r x (L + p)), so the rotations are accumulated
 * once an update and d needs no chain of its own. */
static int ac_apply(qru_context *ctx, qru_lsq *f, int k, int p, int fast,
                    const ac_shared *sa)
{
    qru_ptr cs = sa->cs, sw = sa->sw, dT = sa->dT;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, L = m - k;
    int ldq = f->ncap, ld = f->ldr, hq = f->q != QRU_Q_NONE;
    size_t nsteps = L > 0 ? (size_t)(p + L - 1) : 0;
    if (L <= 0)
        return 0;
    if (sa->tiles) {
        /* the tiles' reflectors, then the permutation of R's rows on d's
         * rows k .. m+p-1 and Q's columns (the triangle's first; the
         * others move right by p in steps of at most p columns from the
         * right, so that no step overlaps itself) */
        qru_upd_tiles tl = ac_tiles(f, k, p, sa->Rw);
        QRU_TRY(qru_upd_tiles_apply(ctx, f, &tl, sa->tl));
        qru_ptr tmp = qru_upd_tiles_scratch(f, ctx, &tl, sa->tl);
        int s = L + p;
        if (r > 0) {
            QRU_TRY(o->copy(ctx, dt, p, r, qru_ptr_add(f->d, (size_t)m), ld,
                            tmp, s));
            QRU_TRY(o->copy(ctx, dt, L, r, qru_ptr_add(f->d, (size_t)k), ld,
                            qru_ptr_add(tmp, (size_t)p), s));
            QRU_TRY(o->copy(ctx, dt, s, r, tmp, s,
                            qru_ptr_add(f->d, (size_t)k), ld));
        }
        if (hq) {
            QRU_TRY(o->copy(ctx, dt, n, p, qru_ptr_at(f->Q, ldq, 0, m), ldq,
                            tmp, n));
            for (int hi = m; hi > k;) {
                int lo = hi - p > k ? hi - p : k;
                QRU_TRY(o->copy(ctx, dt, n, hi - lo,
                                qru_ptr_at(f->Q, ldq, 0, lo), ldq,
                                qru_ptr_at(f->Q, ldq, 0, lo + p), ldq));
                hi = lo;
            }
            QRU_TRY(o->copy(ctx, dt, n, p, tmp, n,
                            qru_ptr_at(f->Q, ldq, 0, k), ldq));
        }
        return 0;
    }
    if (ac_split(ctx, dt, fast, L, p)) {
        qru_ptr none = {0, 0};
        if (hq)
            QRU_TRY(qru_upd_sweeps_groups(ctx, dt, L, p,
                                          qru_ptr_at(f->Q, ldq, 0, k), ldq, n,
                                          none, 1, 0, sw));
        if (r > 0) {
            qru_ptr dk = qru_ptr_add(f->d, (size_t)k);
            QRU_TRY(o->transpose(ctx, dt, L + p, r, dk, ld, dT, r));
            QRU_TRY(qru_upd_sweeps_groups(ctx, dt, L, p, dT, r, r, none, 1,
                                          0, sw));
            QRU_TRY(o->transpose(ctx, dt, r, L + p, dT, r, dk, ld));
        }
        return 0;
    }
    if (fast && hq) {
        qru_ptr none = {0, 0};
        QRU_TRY(qru_upd_sweeps_apply(ctx, dt, L, p, cs,
                                     qru_ptr_at(f->Q, ldq, 0, k), ldq, n, none,
                                     1, 0, sw));
    }
    size_t off = 0;
    /* complex data: cs holds the rotations as ac_rotate formed them on
     * the conjugate transpose RT (G' from the right: right for Q's
     * columns), so d's rows take them as the columns of d' */
    int dc = qru_dtype_complex(dt) && r > 0;
    if (dc) {
        qru_ptr dk = qru_ptr_add(f->d, (size_t)k);
        QRU_TRY(o->transpose(ctx, dt, L + p, r, dk, ld, dT, r));
        QRU_TRY(((fast && qru_upd_use_sweeps(ctx, dt, L, p, r))
                     ? o->givens_sweeps
                     : qru_ref_givens_sweeps)(ctx, dt, L, p, 0, dT, 1, r, r,
                                              0, cs));
        QRU_TRY(o->transpose(ctx, dt, r, L + p, dT, r, dk, ld));
    }
    if (!dc && fast && r > 0 && qru_upd_use_sweeps(ctx, dt, L, p, r)) { /* d */
        QRU_TRY(o->givens_sweeps(ctx, dt, L, p, 0, qru_ptr_add(f->d, (size_t)k),
                                 ld, 1, r, 0, cs));
        off = 2 * (size_t)p * (size_t)L;
    }
    for (size_t t = 0; off < 2 * (size_t)p * (size_t)L && t < nsteps; ++t) {
        int jlo, cnt, i0;
        qru_sweep_step(L, p, (int)t, &jlo, &cnt, &i0);
        if (cnt == 0)
            continue;
        qru_ptr c = qru_ptr_add(cs, off);
        if (!fast && hq)
            QRU_TRY(o->givens_apply(ctx, dt, cnt, n, c,
                                    qru_ptr_at(f->Q, ldq, 0, k + i0 - 1),
                                    2 * ldq, ldq, 1));
        if (!dc)
            QRU_TRY(o->givens_apply(ctx, dt, cnt, r, c,
                                    qru_ptr_at(f->d, ld, k + i0 - 1, 0), 2, 1,
                                    ld));
        off += 2 * (size_t)cnt;
    }
    return 0;
}


static ac_shared ac_shared_at(const qru_context *ctx, qru_dtype dt, int n,
                              int m, int k, int p, int fast, int tiles,
                              qru_ptr sh)
{
    int L = m - k, s = m + p - k;
    ac_shared a;
    a.tiles = tiles;
    a.rk = sh;
    a.Rw = qru_ptr_add(sh, 2 * (size_t)(m + p));
    a.RT = qru_ptr_add(a.Rw, (size_t)(m + p) * s);
    a.cs = qru_ptr_add(a.RT, L > 0 ? (size_t)s * s : 0);
    a.sw = qru_ptr_add(a.cs, 2 * (size_t)p * (size_t)L + 1);
    a.dT = qru_ptr_add(a.sw, fast && L > 0
                                 ? qru_upd_sweeps_workspace(ctx, dt, L, p, n,
                                                            0)
                                 : 0);
    a.tl = a.cs;
    return a;
}

static size_t ac_shared_ws(const qru_context *ctx, const qru_lsq *f, int n,
                           int m, int k, int p, int r, int fast, int tiles)
{
    int L = m - k, s = m + p - k;
    size_t rk = 2 * (size_t)(m + p);
    if (tiles)
        return rk + (size_t)(m + p) * s + (size_t)s * s +
               qru_upd_tiles_ws(f, ctx, L, p, f->q != QRU_Q_NONE ? n : 0, r,
                                0);
    return rk + (size_t)(m + p) * s + (L > 0 ? (size_t)s * s : 0) +
           2 * (size_t)p * (size_t)L + 1 +
           (fast && L > 0
                ? qru_upd_sweeps_workspace(ctx, f->dtype, L, p, n, 0)
                : 0) +
           (ac_split(ctx, f->dtype, fast, L, p) || qru_dtype_complex(f->dtype)
                ? (size_t)r * (size_t)(L + p)
                : 0);
}

/* ---- the full form ---- */
static int add_cols_full(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, st;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U;
    const qru_backend_ops *o = ctx->ops;
    int p = U->cols;
    int nz = n - m;     /* rows of the Householder phase, >= p */
    int L = m - k;      /* entries to remove below each new diagonal */
    int s = m + p - k;  /* order of the active block */
    int mr = m + p;
    int nb = qru_upd_house_nb(f, ctx, rq->alg, nz, p);
    /* QRU_UPDATE_FAST: the rotations are applied to Q through
     * qru_upd_sweeps_apply (accumulated into GEMMs for p >= the tuning's
     * sweeps_acc_min_p, 16 by default) */
    int fast = rq->alg == QRU_UPDATE_FAST && L > 0;
    int tiles;
    QRU_TRY(ac_pick_tiles(ctx, f, rq, fast, &tiles));

    /* workspace (elements): U_Q, the Householder phase, the shared steps */
    size_t o_hh = (size_t)n * p;
    size_t o_sh = o_hh + qru_upd_house_workspace(nz, p, nb);
    size_t o_wk = o_sh + ac_shared_ws(ctx, f, n, m, k, p, r, fast, tiles);
    /* the GEMMs' work on Q (n x p) and d (p x r) */
    size_t total = o_wk + (size_t)p * (size_t)(n > r ? n : r);
    double *hdiag = malloc(sizeof(double) * 2 * (size_t)mr);
    if (!hdiag)
        return QRU_HOST_ALLOC_FAILED;
    qru_ptr ws;
    st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws);
    if (st) {
        free(hdiag);
        return st;
    }
    qru_ptr Uq = ws, hh = qru_ptr_add(ws, o_hh), sh = qru_ptr_add(ws, o_sh);
    qru_ptr Y = hh, W = qru_ptr_add(hh, (size_t)nz * p),
            work = qru_ptr_add(ws, o_wk);
    ac_shared a = ac_shared_at(ctx, f->dtype, n, m, k, p, fast, tiles, sh);
    qru_ptr Rw = a.Rw;
    qru_ptr Z = qru_ptr_add(Uq, (size_t)m); /* U_Q(m+1:n, :), ld n */

    /* PHASE 0: U_Q = Q' U */
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', n, p, n, 1.0, f->Q, f->ncap,
                         U->p, U->ld, 0.0, Uq, n));
    /* PHASE 1: Householder QR of U_Q(m+1:n, :); the reflectors stay in hh
     * for the later application to Q, d */
    QRU_TRY_GOTO(qru_upd_house(ctx, dt, nz, p, nb, Z, n, hh));
    QRU_TRY_GOTO(ac_fill(ctx, f, k, p, Uq, n, Z, n, Rw));
    /* PHASE 2 and the rank rule */
    if ((st = ac_rotate(ctx, f, k, p, fast, &a, hdiag)) != 0)
        goto done;

    /* commit: capacity, then Q := Q H G', d := G H' d, R(:, k+1:m+p) */
    QRU_TRY_GOTO(qru_lsq_reserve(f, n, m + p));
    {
        int ld = f->ncap;
        /* merge the panels' block reflectors into one, P = I + W Y' with
         * Y, W nz x p, so that Q and d are swept once with GEMMs of inner
         * size p instead of once per panel */
        QRU_TRY_GOTO(qru_upd_house_merge(ctx, dt, nz, p, nb, hh));
        QRU_TRY_GOTO(qru_upd_wy_right(ctx, dt, n, nz, p, Y, nz, W, nz,
                                      qru_ptr_at(f->Q, ld, 0, m), ld, work));
        QRU_TRY_GOTO(qru_upd_wy_left(ctx, dt, nz, p, r, Y, nz, W, nz,
                                     qru_ptr_add(f->d, (size_t)m), ld, work));
        QRU_TRY_GOTO(ac_apply(ctx, f, k, p, fast, &a));
        QRU_TRY_GOTO(o->copy(ctx, dt, mr, s, Rw, mr,
                             qru_ptr_at(f->R, ld, 0, k), ld));
        if (n > mr)
            QRU_TRY_GOTO(o->laset(ctx, dt, 'A', n - mr, s, 0.0, 0.0,
                                  qru_ptr_at(f->R, ld, mr, k), ld));
        f->m = m + p;
    }
done:
    free(hdiag);
    return st;
}

/* ---- the thin and Q-less forms ----
 * Thin: U_Q(1:m, :) = Q1' U by CGS2, Z = U - Q1 U_Q(1:m, :), [Qz, R22] =
 * qr(Z, 0) (Householder), dz = Qz' E; commit: Q1(:, m+1:m+p) = Qz,
 * E := E - Qz dz, d(m+1:m+p, :) = dz.
 * Q-less (CSNE, with A and b): C = R' \ (A' U), Z = U - A (R \ C), one
 * correction (C += R' \ (A' Z), Z -= A (R \ that)), R22 = triu(qr(Z, 0)),
 * Eb = b - A (R \ d), dz = R22' \ (Z' Eb), rho_j := ||Eb(:,j) - Z (R22 \
 * dz(:,j))||; commit: d(m+1:m+p, :) = dz, rho.
 * Both then run the rotations of the full form on the m + p columns. */
static int add_cols_econ(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    int n = f->n, m = f->m, r = f->r, k = rq->k, st;
    qru_dtype dt = f->dtype;
    const qru_matrix *U = rq->U;
    const qru_backend_ops *o = ctx->ops;
    int p = U->cols, L = m - k, s = m + p - k, mr = m + p;
    int thin = f->q == QRU_Q_THIN;
    int fast = rq->alg == QRU_UPDATE_FAST && L > 0;
    int tiles;
    QRU_TRY(ac_pick_tiles(ctx, f, rq, fast, &tiles));
    int nb = qru_upd_house_nb(f, ctx, rq->alg, n, p);
    int ld = f->ldr, ldq = f->ncap;

    /* workspace (elements) */
    size_t o_z = 0;                                  /* Z, n x p */
    size_t o_zc = o_z + (size_t)n * p;               /* Z's copy / Qz */
    size_t o_uq = o_zc + (size_t)n * p;              /* C, m x p */
    size_t o_c2 = o_uq + (size_t)m * p;              /* m x p */
    size_t o_dz = o_c2 + (size_t)m * p;              /* dz, p x r */
    size_t o_t2 = o_dz + (size_t)p * r;              /* p x r */
    size_t o_eb = o_t2 + (size_t)p * r;              /* Eb n x r, xd m x r */
    size_t o_xd = o_eb + (thin ? 0 : (size_t)n * r);
    size_t o_at = o_xd + (thin ? 0 : (size_t)m * r); /* A' U, m x p */
    size_t o_gw = o_at + (thin ? 0 : (size_t)m * p); /* gram_insert's */
    size_t o_hh = o_gw + (thin ? 0 : (size_t)m * (L > r ? L : r));
    size_t o_sh = o_hh + (thin ? qru_upd_basis_workspace(n, m, p, nb)
                               : qru_upd_house_workspace(n, p, nb));
    size_t total = o_sh + ac_shared_ws(ctx, f, n, m, k, p, r, fast, tiles);
    qru_ptr ws;
    double *hdiag = malloc(sizeof(double) * (2 * (size_t)mr + (size_t)r));
    if (!hdiag)
        return QRU_HOST_ALLOC_FAILED;
    double *rho1 = hdiag + 2 * (size_t)mr;
    st = qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws);
    if (st) {
        free(hdiag);
        return st;
    }
    qru_ptr Z = qru_ptr_add(ws, o_z), Zc = qru_ptr_add(ws, o_zc),
            C = qru_ptr_add(ws, o_uq), C2 = qru_ptr_add(ws, o_c2),
            dz = qru_ptr_add(ws, o_dz), T2 = qru_ptr_add(ws, o_t2),
            Eb = qru_ptr_add(ws, o_eb),
            xd = qru_ptr_add(ws, o_xd), AtU = qru_ptr_add(ws, o_at),
            gw = qru_ptr_add(ws, o_gw), hh = qru_ptr_add(ws, o_hh),
            sh = qru_ptr_add(ws, o_sh);
    ac_shared a = ac_shared_at(ctx, f->dtype, n, m, k, p, fast, tiles, sh);
    qru_ptr Rw = a.Rw;

    QRU_TRY_GOTO(o->copy(ctx, dt, n, p, U->p, U->ld, Z, n));
    if (thin) {
        QRU_TRY_GOTO(qru_upd_cgs(ctx, dt, n, m, p, 2, f->Q, ldq, Z, n, C, m,
                                 C2));
        /* Z = Qz R22: R22 in Z, Qz (orthogonal to Q1) in Zc; once more
         * where p > 1 (the thin form's rank rule, which QRU_RANK_ACCEPT
         * leaves on, refuses a zero column of Z) */
        QRU_TRY_GOTO(qru_upd_basis(ctx, dt, n, m, p, nb, f->Q, ldq, Z, n, Zc,
                                   n, p > 1, hh));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', p, r, n, 1.0, Zc, n, f->E,
                             ldq, 0.0, dz, p));
    } else {
        const qru_matrix *A = rq->A, *b = rq->b;
        for (int pass = 0; pass < 2; ++pass) {
            /* T = R' \ (A' Z) (C, then the correction C2); Z -= A (R \ T) */
            qru_ptr T = pass == 0 ? C : C2;
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', m, p, n, 1.0, A->p, A->ld,
                                 Z, n, 0.0, T, m));
            if (pass == 0) /* A' U, for the Gram data */
                QRU_TRY_GOTO(o->copy(ctx, dt, m, p, T, m, AtU, m));
            QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'U', 'C', 'N', m, p, 1.0, f->R,
                                 ld, T, m));
            QRU_TRY_GOTO(o->copy(ctx, dt, m, p, T, m, Zc, m));
            QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'U', 'N', 'N', m, p, 1.0, f->R,
                                 ld, Zc, m));
            QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, p, m, -1.0, A->p,
                                 A->ld, Zc, m, 1.0, Z, n));
        }
        QRU_TRY_GOTO(o->geadd(ctx, dt, m, p, 1.0, C2, m, 1.0, C, m));
        /* Eb = b - A (R \ d); Zc = Z; R22 = triu(qr(Z)) in Z */
        QRU_TRY_GOTO(o->copy(ctx, dt, m, r, f->d, ld, xd, m));
        QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'U', 'N', 'N', m, r, 1.0, f->R, ld,
                             xd, m));
        QRU_TRY_GOTO(o->copy(ctx, dt, n, r, b->p, b->ld, Eb, n));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, m, -1.0, A->p, A->ld,
                             xd, m, 1.0, Eb, n));
        QRU_TRY_GOTO(o->copy(ctx, dt, n, p, Z, n, Zc, n));
        QRU_TRY_GOTO(qru_upd_house(ctx, dt, n, p, nb, Z, n, hh));
    }
    QRU_TRY_GOTO(ac_fill(ctx, f, k, p, C, m, Z, n, Rw));
    if ((st = ac_rotate(ctx, f, k, p, fast, &a, hdiag)) != 0)
        goto done;
    if (!thin) {
        /* (R22 is nonsingular: the rank rule passed) dz = R22' \ (Zc' Eb);
         * Eb -= Zc (R22 \ dz): the new residuals, whose norms are rho */
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', p, r, n, 1.0, Zc, n, Eb, n,
                             0.0, dz, p));
        QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'U', 'C', 'N', p, r, 1.0, Z, n, dz,
                             p));
        QRU_TRY_GOTO(o->copy(ctx, dt, p, r, dz, p, T2, p));
        QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'U', 'N', 'N', p, r, 1.0, Z, n, T2,
                             p));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, p, -1.0, Zc, n, T2, p,
                             1.0, Eb, n));
        QRU_TRY_GOTO(o->col_norms(ctx, dt, n, r, Eb, n, rho1));
    }

    /* commit */
    QRU_TRY_GOTO(qru_lsq_reserve(f, n, m + p));
    ld = f->ldr;
    ldq = f->ncap;
    if (thin) {
        QRU_TRY_GOTO(o->copy(ctx, dt, n, p, Zc, n, qru_ptr_at(f->Q, ldq, 0, m),
                             ldq));
        QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', n, r, p, -1.0, Zc, n, dz, p,
                             1.0, f->E, ldq));
    }
    QRU_TRY_GOTO(o->copy(ctx, dt, p, r, dz, p, qru_ptr_add(f->d, (size_t)m),
                         ld));
    QRU_TRY_GOTO(ac_apply(ctx, f, k, p, fast, &a));
    QRU_TRY_GOTO(o->copy(ctx, dt, mr, s, Rw, mr, qru_ptr_at(f->R, ld, 0, k),
                         ld));
    /* the rows m .. m+p-1 were scratch: zero left of the new columns */
    if (k > 0)
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', p, k, 0.0, 0.0,
                              qru_ptr_add(f->R, (size_t)m), ld));
    if (!thin) {
        for (int j = 0; j < r; ++j)
            f->rho[j] = rho1[j];
        QRU_TRY_GOTO(qru_upd_gram_insert(ctx, f, k, U, rq->b, AtU, m,
                                         gw));
    }
    f->m = m + p;
done:
    free(hdiag);
    return st;
}

int qru_upd_add_cols(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq)
{
    return f->q == QRU_Q_FULL ? add_cols_full(ctx, f, rq)
                              : add_cols_econ(ctx, f, rq);
}

