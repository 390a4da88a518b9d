/*
 * The QR updates (src/update/): the request and strategies of the
 * pipeline (policy.c), the four updates (add_cols.c, remove_cols.c,
 * add_rows.c, remove_rows.c), the
 * refactorisation (refactor.c), and the shared Householder panels
 * (panel.c) and Givens sweeps (sweeps.c); the rank-k modification
 * A + U V' (modify.c) runs through the same pipeline.  Written once for both
 * precisions against the backend table.
 */
#ifndef QRU_UPDATE_UPDATE_H
#define QRU_UPDATE_UPDATE_H

#include "qru_internal.h"

typedef struct qru_upd_req qru_upd_req; /* the request (below) */

/* Householder block size for an update that reduces ncols columns:
 * f->upd_nb if set, else about ncols / 10; always in [1, max(1, ncols)]. */
int qru_upd_nb(const qru_lsq *f, int ncols);

/* 1 if an update with algorithm alg runs its Householder panels through
 * the backend's fused panel_qr (one call per block of columns):
 * QRU_UPDATE_FAST and the backend's own panel_qr (qru_use_fused_panel). */
int qru_upd_use_fused(int alg, const qru_context *ctx, qru_dtype dt);

/* Block size of the fused panels of (nb + extra) x nb: f->upd_nb if set,
 * else the tuning block's upd_panel_nb, lowered to the backend's panel_qr_max_nb(extra)
 * when that is at least upd_panel_min_nb (so that the panel runs on
 * chip), at most ncols; always in [1, max(1, ncols)].  (The flops of the
 * trailing updates grow with nb + p, so the fused path takes a fixed
 * moderate width rather than a tenth of the columns.) */
int qru_upd_fused_nb(const qru_lsq *f, const qru_context *ctx, int ncols,
                     int extra);
/* The same rule for element type dt and a caller's block size upd_nb
 * (0: the tuning's), without a factorisation object (the Cholesky
 * shift). */
int qru_upd_panel_width(const qru_context *ctx, qru_dtype dt, int upd_nb,
                        int ncols, int extra);
/* The panel width of qru_upd_house (below) on a rows x ncols block with
 * algorithm alg: with fused panels the width qru_upd_fused_nb gives (the
 * tuning's upd_panel_nb, or the caller's block size, at most ncols: a
 * tall block of 64 or fewer columns in one panel_qr on CUDA, where
 * narrower panels cost a launch each for little work), else qru_upd_nb. */
int qru_upd_house_nb(const qru_lsq *f, const qru_context *ctx, int alg,
                     int rows, int ncols);

/* Reduces the panel of columns c0 .. c0+jb-1 of the nrows x ncols array A
 * (lda), whose columns before c0 are already reduced, with Householder
 * reflectors that act on rows c .. min(c + bw, nrows - 1) for column c
 * (bw = nrows - 1 or more: dense; bw = p: the reflectors of length p + 1 of
 * the remove-columns update).  Then updates the trailing columns
 * c0+jb .. ncols-1 with the block reflector.
 * On exit the block reflector P = H_c0 ... H_(c0+jb-1) = I + W Y' acts on
 * the rb = min(c0 + jb + bw, nrows) - c0 rows c0 .. c0+rb-1; Y and W are
 * rb x jb (ldy, ldw >= rb), tau jb elements (device memory).
 * work: max(jb * (ncols - c0 - jb), jb) elements. */
int qru_upd_panel(qru_context *ctx, qru_dtype dt, qru_ptr A, int lda,
                  int nrows, int ncols, int c0, int jb, int bw, qru_ptr Y,
                  int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work);

/* The workspace of the look-ahead block loops (adding rows, removing
 * columns): two sets of Y and W (ldy x nb each: a block's are read on the
 * second queue while the next panel writes the other set), tau (nb), the
 * first queue's work array (nwork0 elements) and the second's, in that
 * order from ws.  qru_upd_la_elems: the elements without the second's. */
typedef struct {
    qru_ptr Y[2], W[2], tau, work0, work;
} qru_upd_la_ws;
size_t qru_upd_la_elems(int ldy, int nb, size_t nwork0);
qru_upd_la_ws qru_upd_la_carve(qru_ptr ws, int ldy, int nb, size_t nwork0);

/* The blocked triangular-pentagonal QR (tpqrt.c): [T; B] = H [T1; 0]
 * for T (w x w, upper triangular with exact zeros below its diagonal when
 * fused) and B (h x w), both at leading dimension ld; reflector c acts on
 * row c of T and the h rows of B (Y = [I; V] a block of nb columns, ldy =
 * nb + h).  Each block's reflector also goes, in order, to the sides
 * (side.top: rows pairing with T's, offset by the block's first column;
 * side.bot: h rows) and from the right to [Qc Qn] (nq rows, ldq; Qc's
 * columns pair with T's rows, Qn's h with B's; nq = 0: none).  la: 0 one
 * queue; 1 the look-ahead on the second queue (the lane ops: the next
 * block's columns and panel on the first, the rest on the second, joined
 * each block and at the end); 2 (with keep) only the sides and Q on the
 * second queue, never joined (the caller joins; ws.work0 then holds
 * nb w elements more than below).  keep: NULL, or room for
 * qru_upd_tp_keep(w, h, nb) elements where every block's Y and W stay, so
 * that qru_upd_tp_merge can merge them (below).  ws: qru_upd_la_carve(.., ldy, nb, nwork0) with nwork0
 * >= max(nb nb, qru_panel_tp_work(ldy, nb)) and qru_upd_tp_work(t)
 * elements after it (ws.work). */
typedef struct qru_upd_tp_side {
    qru_ptr top, bot;
    int cols, ld;
} qru_upd_tp_side;
typedef struct qru_upd_tp {
    int fused, nb, w, h, la;
    qru_ptr T, B;
    int ld;
    qru_upd_tp_side side[2];
    int nside;
    qru_ptr Qc, Qn;
    int nq, ldq;
    qru_ptr keep;
    qru_upd_la_ws ws;
    int ldy;
} qru_upd_tp;
/* qru_upd_tp_merge: t's kept blocks merged into one reflector P = I +
 * W Y' on the w + h rows of [T; B]: Y = [I; V] (its rows w .. w+h-1 are
 * written, its identity is not) and W ((w + h) x w), both with ld w + h;
 * work: w nb elements.  qru_upd_tp_apply_merged applies it to t's sides
 * and [Qc Qn] as the blocks would be (work: w max(nq, the sides'
 * columns) elements). */
int qru_upd_tp_merge(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t,
                     qru_ptr Ym, qru_ptr Wm, qru_ptr work);
int qru_upd_tp_apply_merged(qru_context *ctx, qru_dtype dt,
                            const qru_upd_tp *t, qru_ptr Ym, qru_ptr Wm,
                            qru_ptr work);
size_t qru_upd_tp_keep(int w, int h, int nb);
size_t qru_upd_tp_work(const qru_upd_tp *t);
int qru_upd_tp_run(qru_context *ctx, qru_dtype dt, const qru_upd_tp *t);

/* Householder tiles (tiles.c; the steps in its header): X = [C; T]
 * ((L + p) x p, ldx; T p x p upper triangular with exact zeros below) and
 * R's part (ldr; row i pairs with X's row i, and the rows of C's tiles
 * are zero left of their first row's index; L columns); d's rows (ldd, r
 * columns; r = 0: none) and Q's columns (nq rows, ldq; nq = 0: none) pair
 * with X's rows.  qru_upd_tiles_run reduces C to 0 and R's rows 0 .. L-1
 * to upper triangular (T's rows of R's part then hold what the caller
 * moves or drops), with d and Q in the same pass (direct) or kept for
 * qru_upd_tiles_apply (after the caller's rank rule; the same tl with the
 * pointers of the moment).  ws: qru_upd_tiles_ws elements; its part at
 * qru_upd_tiles_scratch holds at least max(nq, L + p) * max(p, r)
 * elements that the caller may use outside the two calls.
 * qru_upd_tiles_mode: 0 an update (fast or not, L rows above its
 * triangle) runs the sweeps, 1 the tiles, 2 the faster of the two by the
 * cost model (the tuning block's upd_tiles; sweeps unless fast and L >
 * 0; qru_upd_variant prices the two). */
typedef struct qru_upd_tiles {
    int L, p;
    qru_ptr X;
    int ldx;
    qru_ptr R;
    int ldr;
    qru_ptr d;
    int ldd, r;
    qru_ptr Q;
    int ldq, nq;
    int direct;
} qru_upd_tiles;
int qru_upd_tiles_mode(const qru_lsq *f, const qru_context *ctx, int fast,
                       int L);
size_t qru_upd_tiles_ws(const qru_lsq *f, const qru_context *ctx, int L,
                        int p, int nq, int r, int direct);
qru_ptr qru_upd_tiles_scratch(const qru_lsq *f, const qru_context *ctx,
                              const qru_upd_tiles *tl, qru_ptr ws);
int qru_upd_tiles_run(qru_context *ctx, const qru_lsq *f,
                      const qru_upd_tiles *tl, qru_ptr ws);
int qru_upd_tiles_apply(qru_context *ctx, const qru_lsq *f,
                        const qru_upd_tiles *tl, qru_ptr ws);

/* B := P' B = B + Y (W' B) for the rb x nc block B (P = I + W Y', Y and W
 * rb x jb).  work: jb * nc elements. */
int qru_upd_wy_left(qru_context *ctx, qru_dtype dt, int rb, int jb, int nc,
                    qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr B,
                    int ldb, qru_ptr work);
/* Q := Q P = Q + (Q W) Y' for the nr x rb block Q.  work: nr * jb. */
int qru_upd_wy_right(qru_context *ctx, qru_dtype dt, int nr, int rb, int jb,
                     qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr Q,
                     int ldq, qru_ptr work);

/* QRU_UPDATE_FAST variants (remove_rows.c, sweeps.c); called by the public update
 * functions after their argument checks, with the same contracts. */

/* Staggered sweeps of adjacent Givens rotations (sweeps.c): sweep j
 * (0 <= j < p) rotates the local columns (i-1, i), i = L+j down to j+1;
 * rotation (j, i) runs at step t = L + 2j - i, and cs holds the (c, s) of
 * the rotations step by step (steps 0 .. L+p-2), in sweep order inside a
 * step (2 p L elements in all; the layout of the add-columns update).
 * qru_upd_sweeps_apply applies them from the right to the columns
 * 0 .. L+p-1 of X (nr rows, ldx; none if nr = 0) and, if X2.h is not
 * NULL, of X2 (nr2
 * rows, ldx2; column i of X2 may be assumed zero above row i - 1 - j
 * when sweep j reaches it, as for the transposed rows of R).  With
 * p >= the tuning's sweeps_acc_min_p (16) the rotations are accumulated
 * in groups (qru_upd_sweeps_block wide) into small orthogonal matrices
 * applied with GEMMs (built by the backend's givens_accum in one call
 * when it has one); ws holds qru_upd_sweeps_workspace(ctx, dt, L, p, nr,
 * nr2) elements (0 when they are applied directly). */
int qru_upd_sweeps_block(const qru_context *ctx, qru_dtype dt, int L, int p);
size_t qru_upd_sweeps_workspace(const qru_context *ctx, qru_dtype dt, int L,
                                int p, int nr, int nr2);
int qru_upd_sweeps_apply(qru_context *ctx, qru_dtype dt, int L, int p,
                         qru_ptr cs, qru_ptr X, int ldx, int nr, qru_ptr X2,
                         int ldx2, int nr2, qru_ptr ws);
/* The two halves of the accumulated path, for an update that
 * applies the same rotations to several matrices: qru_upd_sweeps_build
 * forms every group's matrix in ws, qru_upd_sweeps_groups applies them
 * (to X and X2 as qru_upd_sweeps_apply does) and may be called again on
 * other matrices while ws keeps the groups (the part of ws past the
 * groups is its scratch, sized for max(nr, nr2) rows).  Both do nothing
 * when qru_upd_sweeps_block(ctx, dt, L, p) is 0. */
int qru_upd_sweeps_build(qru_context *ctx, qru_dtype dt, int L, int p,
                         qru_ptr cs, qru_ptr ws);
int qru_upd_sweeps_groups(qru_context *ctx, qru_dtype dt, int L, int p,
                          qru_ptr X, int ldx, int nr, qru_ptr X2, int ldx2,
                          int nr2, qru_ptr ws);

/* 1 if the backend's fused givens_sweeps should run sweeps (L, p) whose
 * rotations act on nr elements each: it runs every step in ONE work-group,
 * which pays off while a step's work, min(p, L) nr element pairs, is
 * small (the per-step launches of the loop use the whole device): at
 * most the tuning block's sweeps_max_work (docs/performance.md). */
int qru_upd_use_sweeps(const qru_context *ctx, qru_dtype dt, int L, int p,
                       int nr);

/* Householder block of the first phase of the fast row removal (the
 * GEMMs on Q(:, m:n) have inner dimension nb, so it should be large enough
 * to run them at GEMM speed): f->upd_nb if set, else the tuning block's
 * upd_rows_nb; at most p. */
int qru_upd_rr_nb(const qru_lsq *f, int p);

int qru_upd_fast_remove_rows(qru_context *ctx, qru_lsq *f,
                             const qru_upd_req *rq);

/* ---- steps of the thin and Q-less forms (econ.c) ---- */

/* Rows k .. n-1 of the n x c array X move down by p (through ws, which
 * holds (n - k) c elements); the rows k .. k+p-1 are left as they were. */
int qru_upd_shift_rows(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                       int n, int c, int k, int p, qru_ptr ws);
/* X(:, 0:c) := X([0:k, k+p:n], c0:c0+c) in place (n - p rows left). */
int qru_upd_drop_rows(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                      int c0, int n, int c, int k, int p);
/* The residual norms of a Q-less f: rho_j^2 := rho_j^2 + sign
 * ||X(:, j)||^2 for the p x r array X (a result below zero, a downdate's
 * cancellation, becomes 0). */
int qru_upd_rho_add(qru_context *ctx, qru_lsq *f, int p, qru_ptr X, int ldx,
                    double sign);
/* Block classical Gram-Schmidt: C = Q1' Z (m x p, ldc), Z := Z - Q1 C,
 * npass times: 2 is CGS2 ("twice is enough"; C += the second pass,
 * computed in C2, m x p with ld m), 1 a single reorthogonalisation of a Z
 * that is already a projection (C2 unused).  Q1 is n x m with
 * orthonormal columns. */
int qru_upd_cgs(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                int npass, qru_ptr Q1, int ldq, qru_ptr Z, int ldz, qru_ptr C,
                int ldc, qru_ptr C2);
/* Householder QR of the n x p array Z (n >= p; panels of nb columns):
 * qru_upd_house: Z(0:p, :) := R (exact zeros below the diagonal); the
 * panels' reflectors stay in ws: Y (n x p, ld n) at ws, W after it.
 * qru_upd_house_merge (same n, p, nb, ws) merges them into one block
 * reflector P = I + W Y'; qru_upd_house_q then forms the orthonormal
 * factor Qz = P(:, 0:p) (n x p).  ws: qru_upd_house_workspace(n, p, nb)
 * elements. */
size_t qru_upd_house_workspace(int n, int p, int nb);
int qru_upd_house(qru_context *ctx, qru_dtype dt, int n, int p, int nb,
                  qru_ptr Z, int ldz, qru_ptr ws);
int qru_upd_house_merge(qru_context *ctx, qru_dtype dt, int n, int p, int nb,
                        qru_ptr ws);
int qru_upd_house_q(qru_context *ctx, qru_dtype dt, int n, int p, qru_ptr ws,
                    qru_ptr Qz, int ldqz);
/* The orthonormal basis of the new columns of the thin form (added
 * columns, A + U V'): Z (n x p, the remainder of CGS2 against Q1, n x m)
 * = Qz R by Householder (qru_upd_house, _merge, _q), then (again) Qz
 * made orthogonal to Q1 once more: Qz - Q1 (Q1' Qz) = Qz2 S (Householder
 * again), Qz := Qz2 and R := S R in Z(0:p, :) (exact zeros below its
 * diagonal).  Qz = Z inv(R) carries CGS2's error in Q1' Z times the
 * condition of R, which is large where the columns of U lie near each
 * other's span and that of Q1 (p > 1), and a zero column of Z gives any
 * unit vector (U in the range of A: a valid modification, or an added
 * column that QRU_RANK_ACCEPT lets through); the second pass leaves Qz
 * orthogonal to Q1 to working precision (the term Q1 (Q1' Qz) R it drops
 * is CGS2's error of Z).  One added column that the rank rule judges
 * needs none: R is 1 x 1 and CGS2 leaves Z orthogonal to Q1 relative to
 * its own norm ("twice is enough"), so those callers save its nine
 * calls.  ws: qru_upd_basis_workspace(n, m, p, nb). */
size_t qru_upd_basis_workspace(int n, int m, int p, int nb);
int qru_upd_basis(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                  int nb, qru_ptr Q1, int ldq, qru_ptr Z, int ldz, qru_ptr Qz,
                  int ldqz, int again, qru_ptr ws);
/* The second pass of qru_upd_basis alone, on Qz (orthonormal columns)
 * and R (in Z(0:p, :)) formed already: Qz - Q1 (Q1' Qz) = Qz2 S, Qz :=
 * Qz2, R := S R (the thin row removal runs it where its Rz is
 * ill-conditioned, remove_rows.c).  ws: qru_upd_basis_workspace(n, m, p,
 * nb). */
int qru_upd_basis_again(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                        int nb, qru_ptr Q1, int ldq, qru_ptr Z, int ldz,
                        qru_ptr Qz, int ldqz, qru_ptr ws);

/* The Gram data of a Q-less f (G = A'A on its upper triangle and c = A'b,
 * kept for qru_lsq_get_error_estimate; struct qru_lsq), brought along with an
 * update at its commit (f->m, f->n not yet changed; capacity reserved):
 * qru_upd_gram_rows: the p rows X (p x m) of A and Y (p x r) of b added
 * (sign 1) or removed (sign -1);
 * qru_upd_gram_drop: the columns k .. k+p-1 removed;
 * qru_upd_gram_insert: the n x p columns U inserted after column k of A
 * (n x m), with b and AtU = A' U (m x p, ldat) given; ws: m max(m - k, r)
 * elements. */
int qru_upd_gram_rows(qru_context *ctx, qru_lsq *f, int p, qru_ptr X,
                      int ldx, qru_ptr Y, int ldy, double sign);
int qru_upd_gram_drop(qru_context *ctx, qru_lsq *f, int k, int p);
int qru_upd_gram_insert(qru_context *ctx, qru_lsq *f, int k,
                        const qru_matrix *U, const qru_matrix *b,
                        qru_ptr AtU, int ldat,
                        qru_ptr ws);

/* ---- the column shift (shift.c) ----
 * qru_upd_shift: column i of the upper trapezoidal R (m columns, ldr; its
 * rows 0 .. max(i, j) hold the nonzeros of the columns that move) moves
 * to position j and the columns between move by one toward where it was;
 * R is then made upper triangular again by orthogonal transformations of
 * its rows lo .. hi (lo = min(i, j), hi = max(i, j)), applied also to the
 * rows lo .. hi of d (r columns, ldd; r = 0: none) and from the right to
 * the columns lo .. hi of Q (nq rows, ldq; nq = 0: none).  i < j leaves
 * the columns lo .. hi-1 upper Hessenberg: Householder panels of nb
 * columns (one panel_qr each) reduce them, their block reflectors go to
 * the trailing columns, d and Q; i > j leaves a spike in column lo: one
 * sweep of hi - lo Givens rotations from the bottom up, formed from that
 * column (givens_sweeps, p = 1) and applied to R, d and Q.  Nothing is
 * judged (a shift keeps the rank).  ws: qru_upd_shift_ws elements, of
 * which the first (hi + 1) (hi - lo + 1) are free again on return.
 * qru_upd_cycle: the s columns (by_rows: rows) of the rows x cols block X
 * (ldx) move cyclically, the first to the end (left) or the last to the
 * front, through ws (rows cols elements). */
size_t qru_upd_shift_ws(int m, int i, int j, int nb, int nq, int r);
int qru_upd_shift(qru_context *ctx, qru_dtype dt, int m, int i, int j,
                  int nb, qru_ptr R, int ldr, qru_ptr d, int ldd, int r,
                  qru_ptr Q, int ldq, int nq, qru_ptr ws);
int qru_upd_cycle(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                  int rows, int cols, int left, int by_rows, qru_ptr ws);

/* ---- the update pipeline (policy.c) ----
 * Each public update checks its arguments, then hands a request to
 * qru_upd_run, which chooses a strategy (the caller's algorithm, or with
 * QRU_UPDATE_AUTO the faster of the fast update and a refactorisation by
 * their plans), runs it and records f->last_path on success.  The
 * strategies get the checked request and never change f's settings. */
enum { QRU_UPD_OP_ADD_COLS, QRU_UPD_OP_REMOVE_COLS, QRU_UPD_OP_ADD_ROWS,
       QRU_UPD_OP_REMOVE_ROWS, QRU_UPD_OP_MODIFY };
struct qru_upd_req {
    int op;                 /* QRU_UPD_OP_* */
    int k, p;               /* position and count, as the caller gave them */
    const qru_matrix *U, *e; /* added rows or columns, rows removed */
    const qru_matrix *A, *b; /* A and b of qru_lsq_add_cols_data */
    int alg;                /* set by qru_upd_run: QRU_UPDATE_DISSERTATION
                               or QRU_UPDATE_FAST, the update to run */
    const qru_matrix *V;    /* QRU_UPD_OP_MODIFY: A1 = A + U V' (p = k,
                               the columns of U and V; position k = 0) */
    int variant;            /* set by qru_upd_run: -1, the strategy picks
                               its variant (qru_upd_variant), else the
                               variant to run */
};
typedef int (*qru_upd_fn)(qru_context *ctx, qru_lsq *f,
                          const qru_upd_req *rq);
int qru_upd_run(qru_context *ctx, qru_lsq *f, qru_upd_req rq);

/* The plan of request rq on f (src/plan.c): the update (path
 * QRU_PATH_UPDATE, the algorithm rq->alg) or the refactorisation
 * (QRU_PATH_REFACTOR), run dry.  Returns the dry run's status. */
int qru_upd_plan(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                 int path, qru_plan *out);
/* *v := the variant of the update that rq asks for: rq->variant when set
 * (>= 0), else the one of the nvar variants 0 .. nvar-1 whose plan the
 * cost model prices fastest (recorded in the plan being made, if any, so
 * that qru_upd_run runs the variant its plan was priced with).  Returns
 * 0 or the status of a dry run that failed (memory). */
int qru_upd_variant(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                    int nvar, int *v);
/* *givens := 1 if the one-column or one-row update rq (p = 1,
 * QRU_UPDATE_FAST) runs the Givens chain of its operation
 * (qru_upd_p1_variant). */
int qru_upd_givens_pick(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                        int *givens);
/* The variant numbers of the one-row and one-column paths, apart from
 * the strategies' own variants (0 .. 11) that run where neither is taken:
 * the Givens chains and the structured rank-1 passes (rows_r1.c). */
enum { QRU_UPD_VARIANT_GIVENS = 1000, QRU_UPD_VARIANT_R1 = 1001 };
/* *v := the path of the update rq with p = 1 (QRU_UPDATE_FAST): 0 (the
 * strategy's own), QRU_UPD_VARIANT_GIVENS or, for a row added to or
 * removed from a Q-less f, QRU_UPD_VARIANT_R1: a knob that is on (upd_r1, then upd_givens)
 * forces its path; else rq->variant when set, else the candidate whose
 * plan is priced fastest among those whose knob is auto (recorded as
 * qru_upd_variant does); 0 for other requests. */
int qru_upd_p1_variant(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                       int *v);
/* The one-row and rank-1 updates by Givens chains (givens_chain.c): where
 * rq is one (p = 1: adding a row in every form, removing a row of the
 * full form, the rank-1 modification of the full and thin forms) and
 * qru_upd_givens_pick takes the chain, runs it and sets *done := 1;
 * otherwise *done := 0 and nothing changes.  Returns 0, the chain's
 * status (the rank rule's for the modification, which then leaves f as
 * it was) or that of the pick's dry runs. */
int qru_upd_chain_run(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                      int *done);
/* The one-row paths of the row updates: the structured passes where
 * qru_upd_p1_variant picks them, else the Givens chain where it is taken
 * (qru_upd_chain_run); *done as theirs (0: the caller's blocked path
 * runs, f unchanged). */
int qru_upd_p1_run(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                   int *done);
/* qru_upd_row_r1 runs the structured passes for a row added to f (any
 * form) or removed from a Q-less f (rows_r1.c): *done = 1 when it updated
 * f, 0 (f unchanged) when the blocked path must take the row (R
 * singular or, for an addition, ||p|| > QRU_UPD_R1_PMAX; a removal the
 * rank rule refuses; a removal with Q). */
int qru_upd_row_r1(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq,
                   int *done);
/* The structured passes' bound on ||p|| (p = L \ u with L = R' for a row
 * added, L = R22' for a column removed, u the row that joins the
 * triangle): they add the row L p, which may differ from u by
 * n eps ||L|| ||p|| (the solve's backward error), so a long p (an
 * ill-conditioned or numerically singular triangle: nearly dependent
 * columns) would give up the backward stability of the rotations.  Past
 * it the passes report "not done" and the Givens or blocked path runs. */
#define QRU_UPD_R1_PMAX 16.0
/* The Q-less removal of p > m rows on the m x m side (downdate.c):
 * qru_upd_qless_wide says whether a removal of p rows from f takes it
 * (Q-less and p > m; the p x p side of remove_rows.c otherwise), the
 * downdate runs it with remove_rows_econ's contract (rows U, e in rq;
 * j > 0, f unchanged, when definiteness would be lost). */
int qru_upd_qless_wide(const qru_lsq *f, int p);
int qru_upd_qless_downdate_wide(qru_context *ctx, qru_lsq *f,
                                const qru_upd_req *rq);
/* The rank rule of the row removals of the thin and Q-less forms
 * (include/qru.h, qru_lsq_remove_rows and qru_lsq_remove_rows_data), on
 * the nz x nz triangle T (uplo, ldt) of the downdate: Rz (thin, Rz' Rz =
 * I - Qk Qk') or the Cholesky factor of I - Qk Qk' (Q-less; p > m: of
 * I - Qk' Qk).  A1 is numerically rank-deficient when a pivot |T(j,j)|^e
 * (e = 1 thin; e = 2 Q-less, the pivots of the downdate matrix) is not
 * finite or is <= tol = qru_upd_downdate_tol(f) (status j, the first), or
 * else when s^e is, s = 1 / ||inv(T)||_F, which lies in
 * [sigma_min(T) / sqrt(nz), sigma_min(T)] (status j: the first of T's
 * smallest |T(j,j)|; s^2 estimates the downdate matrix's smallest
 * eigenvalue).  Where A1 has an exactly zero column, s^e is rounding
 * noise of a few eps (unlike the pivots, whose noise a small entry of the
 * null vector amplifies without bound).  diag: T's diagonal (nz host
 * doubles); ws: nz nz elements; sout (may be NULL): s, where the pivots
 * pass and it is computed.  Returns 0, j > 0 with a message naming
 * 'what', or a library status. */
double qru_upd_downdate_tol(const qru_lsq *f);
int qru_upd_downdate_rank(qru_context *ctx, qru_dtype dt, char uplo, int nz,
                          qru_ptr T, int ldt, const double *diag, int e,
                          double tol, qru_ptr ws, const char *what,
                          double *sout);
/* The Cholesky factor of the nz x nz downdate matrix Z (I - Qk Qk' or
 * I - Qk' Qk; lower, in place) by qru_chol_run (cws: its workspace), with
 * its definiteness rule and then the downdate's rank rule (above, e = 2;
 * ws: nz nz elements).  Returns 0 (the pivots in piv), j > 0 with a
 * message naming 'what', or a library status; piv: nz host doubles. */
int qru_upd_downdate_chol(qru_context *ctx, qru_dtype dt, int nz, qru_ptr Z,
                          int ldz, qru_ptr cws, double tol, double *piv,
                          qru_ptr ws, const char *what);
/* The thin form's removal of the rows k .. k+p-1 judged alone, as the
 * update judges it (remove_rows.c; refactor.c runs it before it
 * refactorises, so that both paths refuse the same removals and report
 * the same condition): 0 with *cond the downdate condition
 * (qru_lsq_get_downdate_condition), j > 0 or a library status.  Takes the
 * context's workspace. */
int qru_upd_thin_rows_judge(qru_context *ctx, const qru_lsq *f, int k, int p,
                            double *cond);

/* The refactorisation strategy (refactor.c). */
int qru_upd_refactor(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);

/* The updates, one per operation, running the algorithm rq->alg. */
int qru_upd_add_cols(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);
int qru_upd_remove_cols(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);
int qru_upd_add_rows(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);
int qru_upd_remove_rows(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);
/* A1 = A + U V' (modify.c; full and thin forms): a failed rank rule
 * leaves f unchanged.  QRU_UPDATE_DISSERTATION reduces its band with
 * per-column panels, QRU_UPDATE_FAST with one panel_qr a panel. */
int qru_upd_modify(qru_context *ctx, qru_lsq *f, const qru_upd_req *rq);

#endif /* QRU_UPDATE_UPDATE_H */
