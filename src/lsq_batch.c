/*
 * Batched least-squares factorisations (qru_lsq_batch_*): count problems
 * of the same m unknowns and r right-hand sides in one of three forms, in
 * the context's memory:
 *  - Q-less (QRU_Q_NONE): R (m x m upper), d = Q' b (m x r) and the
 *    residual sums of squares rho2.  Creation is rows added to empty
 *    factorisations (R = 0, d = 0, rho2 = 0) by the lsq_batch_add_rows
 *    op, the one algorithm.
 *  - thin (QRU_Q_THIN): Q1 (n x m), R, d = Q1' b and the residuals
 *    E = b - Q1 d (n x r), Q1 and E in pages of ncap rows (the row
 *    capacity, grown geometrically by added rows).  Creation is one
 *    lsq_batch_geqr_thin op (Householder QR and Q1 of every page; no
 *    rank test, as for the Q-less form: the solve and the removal judge);
 *    rows are added by lsq_batch_add_rows_q and removed by
 *    lsq_batch_remove_rows_q (the thin removal of qru_lsq_remove_rows per
 *    problem, each judged by the removals' rank rule).
 *  - full (QRU_Q_FULL): the thin form's storage and ops, and the
 *    complement Q2 (n x (n - m)) of Q1 with d2 = Q2' b, so that Q = [Q1
 *    Q2] is each problem's n x n Q and [d; d2] = Q' b.  The complement
 *    of any orthonormal Q1 serves, so after every change of Q1 (creation
 *    and the four updates) it is recomputed, for the problems that
 *    changed only, by one lsq_batch_geqr_thin op on [Q1 0] (n x n): the
 *    Householder QR of an orthonormal Q1 gives +-Q1 in its first m
 *    columns (kept from the thin op, exact) and the complement after
 *    them, and that op's d = Q' E (E = b - Q1 d = Q2 d2) gives d2 in its
 *    rows m .. n-1.  About 4/3 n^3 flops a problem and update, above the
 *    thin update's O(n m p).
 * Columns are removed in either form by lsq_batch_remove_cols (in
 * place: the pages keep their layout and the headers lose the columns)
 * and inserted into the thin form by lsq_batch_add_cols_q (into new
 * storage, which replaces the old only when no problem refused: the
 * column count is the batch's); the Q-less form inserts from the current
 * A and b by the same op run on Q1 = A / R and E = b - Q1 d formed a
 * problem at a time (the corrected semi-normal equations), keeping the
 * new R and d and the new residuals' sums of squares.
 * A problem whose removal fails keeps its rows, so the row counts are
 * per problem (nr); every op call takes a run of problems with the same
 * row count.  The solve is the lsq_batch_solve op, its verdicts (and the
 * removal's) read back in one host wait.  Written once for the four
 * element types against the backend table (complex: ' the conjugate
 * transpose); each routine refuses complex data up front where its ops
 * take real data only on the backend (lsq_batch_cplx).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"

struct qru_lsq_batch {
    qru_context *ctx;
    qru_dtype dt;
    int m, r, count;
    int q;         /* QRU_Q_NONE, QRU_Q_THIN or QRU_Q_FULL */
    int n;         /* the largest row count of the problems */
    int *nr;       /* the row count of each problem (count ints) */
    int ncap;      /* thin, full: the rows of the pages of Q and E */
    qru_matrix *R; /* count m x m pages, strictly lower part zero (ld and
                    * stride those of more columns after a removal) */
    qru_matrix *D; /* count m x r pages (ld as R's) */
    qru_matrix *H; /* Q-less: rho2, r x count, column b the problem b */
    qru_matrix *Q; /* thin: count ncap x m pages (ld ncap), Q1 above */
    qru_matrix *E; /* thin: count ncap x r pages (ld ncap), E above */
    qru_matrix *Q2; /* full: count ncap x ncap pages, the complement of
                     * Q1 in its columns m .. n-1 (the others unused) */
    qru_matrix *D2; /* full: count ncap x r pages, d2 = Q2' b in its rows
                     * m .. n-1 */
};

/* 1 if fb holds Q1 and E (the thin and full forms). */
static int lsq_batch_has_q(const qru_lsq_batch *fb)
{
    return fb->q != QRU_Q_NONE;
}

/* The complex check of a routine of fb that runs the batch ops ops
 * (QRU_OPM masks) besides the dense ones, and the full form's
 * lsq_batch_geqr_thin (its complements): 0, or QRU_ERR_UNSUPPORTED where
 * fb's data is complex and the backend takes real data only in one of
 * them (qru_check_complex_ops). */
static int lsq_batch_cplx(const qru_lsq_batch *fb, unsigned long long ops)
{
    if (fb->q == QRU_Q_FULL)
        ops |= QRU_OPM(lsq_batch_geqr_thin);
    return qru_check_complex_ops(fb->ctx, fb->dt, QRU_OPS_DENSE | ops);
}

/* 1 if M shares an element with fb's storage. */
static int lsq_batch_overlaps(const qru_lsq_batch *fb, const qru_matrix *M)
{
    return qru_batch_overlap(M, fb->R) || qru_batch_overlap(M, fb->D) ||
           qru_batch_overlap(M, fb->H) ||
           (fb->Q && qru_batch_overlap(M, fb->Q)) ||
           (fb->E && qru_batch_overlap(M, fb->E)) ||
           (fb->Q2 && qru_batch_overlap(M, fb->Q2)) ||
           (fb->D2 && qru_batch_overlap(M, fb->D2));
}

/* No verdict flag (the lsq_batch_solve op's any). */
static const qru_ptr lsq_batch_noflag = {NULL, 0};

/* The end of the run of problems from b with b's row count, at most
 * part of them. */
static int lsq_batch_run(const qru_lsq_batch *fb, int b, size_t part)
{
    int e = b + 1;
    while (e < fb->count && fb->nr[e] == fb->nr[b] && (size_t)(e - b) < part)
        ++e;
    return e;
}

/* The smallest and largest row counts. */
static void lsq_batch_nrange(const qru_lsq_batch *fb, int *lo, int *hi)
{
    *lo = *hi = fb->count > 0 ? fb->nr[0] : fb->n;
    for (int i = 1; i < fb->count; ++i) {
        *lo = fb->nr[i] < *lo ? fb->nr[i] : *lo;
        *hi = fb->nr[i] > *hi ? fb->nr[i] : *hi;
    }
}

/* The problems of one op call, and the workspace they need (elements). */
static size_t batch_part(const qru_lsq_batch *fb, int count, size_t *work)
{
    int m = fb->m, r = fb->r;
    return qru_batch_part(fb->ctx, fb->dt, qru_lsq_batch_local(m, r),
                          qru_lsq_batch_work(m, r), count, work);
}

/* The workspace of an op call that judges every problem: the count
 * verdicts, the count per-problem counts (dcnt not NULL), then we
 * elements of work. */
static int lsq_batch_ws(const qru_lsq_batch *fb, size_t we, qru_ptr *dinfo,
                        qru_ptr *dcnt, qru_ptr *work)
{
    size_t head = qru_chol_align((size_t)fb->count), hc = dcnt ? head : 0;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(fb->ctx,
                              (head + hc + we) * qru_dtype_size(fb->dt),
                              &ws));
    *dinfo = ws;
    if (dcnt)
        *dcnt = qru_ptr_add(ws, head);
    *work = qru_ptr_add(ws, head + hc);
    return 0;
}

/* The end of the run of problems from b alike in on[] (NULL: all on)
 * and, where same_n, in their row count. */
static int lsq_batch_span(const qru_lsq_batch *fb, int b, const int *on,
                          int same_n)
{
    int e = b + 1;
    while (e < fb->count && (!on || !on[e] == !on[b]) &&
           (!same_n || fb->nr[e] == fb->nr[b]))
        ++e;
    return e;
}

/* The pages b .. e-1 of A (rows from ra) copied into B's (rows from rb):
 * one geadd_batched (beta = 0). */
static int lsq_batch_pcopy(const qru_lsq_batch *fb, int rows, int cols,
                           const qru_matrix *A, int ra, const qru_matrix *B,
                           int rb, int b, int e)
{
    qru_context *ctx = fb->ctx;
    return ctx->ops->geadd_batched(
        ctx, fb->dt, rows, cols, 1.0, qru_ptr_add(qru_mat_page(A, b),
                                                  (size_t)ra),
        A->ld, A->stride, 0.0, qru_ptr_add(qru_mat_page(B, b), (size_t)rb),
        B->ld, B->stride, e - b);
}

/* C = alpha op(A) op(B) + beta C on the pages b .. e-1 (A's rows from ra,
 * B's from rb, C's from rc): one gemm_batched. */
static int lsq_batch_pgemm(const qru_lsq_batch *fb, char ta, char tb, int m,
                           int n, int k, double alpha, const qru_matrix *A,
                           int ra, const qru_matrix *B, int rb, double beta,
                           const qru_matrix *C, int rc, int b, int e)
{
    qru_context *ctx = fb->ctx;
    return ctx->ops->gemm_batched(
        ctx, fb->dt, ta, tb, m, n, k, alpha,
        qru_ptr_add(qru_mat_page(A, b), (size_t)ra), A->ld, A->stride,
        qru_ptr_add(qru_mat_page(B, b), (size_t)rb), B->ld, B->stride, beta,
        qru_ptr_add(qru_mat_page(C, b), (size_t)rc), C->ld, C->stride,
        e - b);
}

/* The thin form's pages hold at least nmin rows: Q and E (and the full
 * form's Q2 and D2) moved to pages of a larger capacity (by half again at
 * least) where they do not. */
static int lsq_batch_reserve(qru_lsq_batch *fb, int nmin)
{
    if (nmin <= fb->ncap)
        return 0;
    qru_context *ctx = fb->ctx;
    long long want = (long long)fb->ncap + fb->ncap / 2 + 16;
    int ncap = want > nmin ? (want > INT_MAX ? INT_MAX : (int)want) : nmin;
    qru_matrix *Q = NULL, *E = NULL, *Q2 = NULL, *D2 = NULL;
    int st = qru_matrix_create_batch(ctx, fb->dt, ncap, fb->m, ncap,
                                     fb->count, 0, &Q);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, ncap, fb->r, ncap,
                                     fb->count, 0, &E);
    if (!st && fb->Q2)
        st = qru_matrix_create_batch(ctx, fb->dt, ncap, ncap, ncap,
                                     fb->count, 0, &Q2);
    if (!st && fb->Q2)
        st = qru_matrix_create_batch(ctx, fb->dt, ncap, fb->r, ncap,
                                     fb->count, 0, &D2);
    for (int b = 0, e; !st && b < fb->count; b = e) { /* a run a copy */
        e = lsq_batch_span(fb, b, NULL, 1);
        int n = fb->nr[b];
        if (Q2)
            st = lsq_batch_pcopy(fb, n, n, fb->Q2, 0, Q2, 0, b, e);
        if (!st && Q2)
            st = lsq_batch_pcopy(fb, n, fb->r, fb->D2, 0, D2, 0, b, e);
        if (!st)
            st = lsq_batch_pcopy(fb, n, fb->m, fb->Q, 0, Q, 0, b, e);
        if (!st)
            st = lsq_batch_pcopy(fb, n, fb->r, fb->E, 0, E, 0, b, e);
    }
    if (st) {
        qru_matrix_destroy(Q);
        qru_matrix_destroy(E);
        qru_matrix_destroy(Q2);
        qru_matrix_destroy(D2);
        return st;
    }
    qru_matrix_destroy(fb->Q);
    qru_matrix_destroy(fb->E);
    fb->Q = Q;
    fb->E = E;
    if (Q2) {
        qru_matrix_destroy(fb->Q2);
        qru_matrix_destroy(fb->D2);
        fb->Q2 = Q2;
        fb->D2 = D2;
    }
    fb->ncap = ncap;
    return 0;
}

/* The rows of U and E added to every problem (checked arguments): to
 * problem b its first rows[b] rows (rows NULL: all p). */
static int lsq_batch_add(qru_lsq_batch *fb, const qru_matrix *U,
                         const qru_matrix *E, const int *rows)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count, p = U->rows;
    if (count == 0 || p == 0)
        return 0;
    size_t we;
    qru_ptr work;
    if (lsq_batch_has_q(fb)) { /* a call a run of problems of one row
                                  count gaining one number of rows */
        size_t part = qru_batch_part(ctx, fb->dt, 0,
                                     qru_lsq_batch_q_add_work(fb->n, m, r, p),
                                     count, &we);
        QRU_TRY(lsq_batch_reserve(fb, fb->n + p));
        QRU_TRY(qru_ctx_workspace(ctx, we * qru_dtype_size(fb->dt), &work));
        for (int b = 0, e; b < count; b = e) {
            e = lsq_batch_run(fb, b, part);
            int pb = rows ? rows[b] : p;
            for (int i = b + 1; rows && i < e; ++i)
                if (rows[i] != pb) {
                    e = i;
                    break;
                }
            if (pb == 0)
                continue;
            QRU_TRY(ctx->ops->lsq_batch_add_rows_q(
                ctx, fb->dt, m, r, fb->nr[b], pb, e - b,
                qru_mat_page(fb->R, b), fb->R->ld, fb->R->stride,
                qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
                qru_mat_page(fb->Q, b), fb->Q->ld, fb->Q->stride,
                qru_mat_page(fb->E, b), fb->E->ld, fb->E->stride,
                qru_mat_page(U, b), U->ld, U->stride, qru_mat_page(E, b),
                E->ld, E->stride, work));
        }
        return 0;
    }
    size_t part = batch_part(fb, count, &we);
    /* the row counts, as elements of the type, ahead of the work */
    size_t head = rows ? qru_chol_align((size_t)count) : 0;
    qru_ptr ws, cnt = {NULL, 0};
    QRU_TRY(qru_ctx_workspace(ctx, (head + we) * qru_dtype_size(fb->dt),
                              &ws));
    work = qru_ptr_add(ws, head);
    if (rows) {
        QRU_TRY(qru_batch_counts(ctx, fb->dt, count, rows, ws));
        cnt = ws;
    }
    for (int b = 0; b < count; b += (int)part) {
        int nb = count - b < (int)part ? count - b : (int)part;
        QRU_TRY(ctx->ops->lsq_batch_add_rows(
            ctx, fb->dt, m, r, p, nb, qru_mat_page(fb->R, b), fb->R->ld,
            fb->R->stride, qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
            qru_ptr_add(fb->H->p, (size_t)b * (size_t)r), qru_mat_page(U, b),
            U->ld, U->stride, qru_mat_page(E, b), E->ld, E->stride,
            rows ? qru_ptr_add(cnt, (size_t)b) : cnt, work));
    }
    return 0;
}

/* The checks of a batch M (argument argi, called name) of a page of the
 * most rows n of a problem for each problem. */
static int lsq_batch_check_pages(const qru_lsq_batch *fb, int argi,
                                 const char *name, const qru_matrix *M)
{
    QRU_TRY(qru_arg_batch(fb->ctx, argi, name, M, fb->dt));
    if (M->count != fb->count)
        return qru_fail_arg(argi, "%s is a batch of %d matrices, but the "
                                  "factorisations are %d",
                            name, M->count, fb->count);
    if (M->rows != fb->n)
        return qru_fail_arg(argi, "%s has %d rows, but it needs n = %d (the "
                                  "most rows of a problem)",
                            name, M->rows, fb->n);
    return 0;
}

/* The checks of the rows U (argument iu) and E (ie) for fb's problems. */
static int lsq_batch_check_rows(const qru_lsq_batch *fb, int iu,
                                const qru_matrix *U, int ie,
                                const qru_matrix *E, int minrows)
{
    const char *un = iu == 2 && minrows == 0 ? "A" : "U";
    const char *en = iu == 2 && minrows == 0 ? "b" : "e";
    qru_context *ctx = fb->ctx;
    QRU_TRY(qru_arg_batch(ctx, iu, un, U, fb->dt));
    if (U->count != fb->count)
        return qru_fail_arg(iu, "%s is a batch of %d matrices, but the "
                                "factorisations are %d",
                            un, U->count, fb->count);
    if (U->cols != fb->m)
        return qru_fail_arg(iu, "%s has %d columns, but the problems have "
                                "m = %d unknowns",
                            un, U->cols, fb->m);
    if (U->rows < minrows)
        return qru_fail_arg(iu, "%s has %d rows, but it must have at least %d",
                            un, U->rows, minrows);
    if ((long long)fb->n + U->rows > INT_MAX)
        return qru_fail_arg(iu, "%s's %d rows would make n > INT_MAX",
                            un, U->rows);
    if (fb->R && lsq_batch_overlaps(fb, U))
        return qru_fail_arg(iu, "%s overlaps the factorisation's storage", un);
    QRU_TRY(qru_batch_check_finite(ctx, iu, U, 'A', 0));
    QRU_TRY(qru_arg_batch(ctx, ie, en, E, fb->dt));
    if (E->count != fb->count)
        return qru_fail_arg(ie, "%s is a batch of %d matrices, but %s of %d",
                            en, E->count, un, fb->count);
    if (E->rows != U->rows)
        return qru_fail_arg(ie, "%s has %d rows, but %s has %d", en,
                            E->rows, un, U->rows);
    if (E->cols != fb->r)
        return qru_fail_arg(ie, "%s has %d columns, but the problems have "
                                "r = %d right-hand sides",
                            en, E->cols, fb->r);
    if (fb->R && lsq_batch_overlaps(fb, E))
        return qru_fail_arg(ie, "%s overlaps the factorisation's storage", en);
    QRU_TRY(qru_batch_check_finite(ctx, ie, E, 'A', 0));
    return 0;
}

void qru_lsq_batch_destroy(qru_lsq_batch *fb)
{
    if (!fb)
        return;
    qru_matrix_destroy(fb->R);
    qru_matrix_destroy(fb->D);
    qru_matrix_destroy(fb->H);
    qru_matrix_destroy(fb->Q);
    qru_matrix_destroy(fb->E);
    qru_matrix_destroy(fb->Q2);
    qru_matrix_destroy(fb->D2);
    free(fb->nr);
    free(fb);
}

/* One lsq_batch_geqr_thin op on the pages b .. e-1 of the batches: the
 * thin QR of A's pages (n x m) and the right-hand sides B (n x fb->r)
 * into the pages of R, D, Q and E (its workspace asked of the raw table
 * first, as the vendor QR's). */
static int lsq_batch_geqr(const qru_lsq_batch *fb, int m, int n, int b,
                          int e, const qru_matrix *A, const qru_matrix *B,
                          qru_matrix *R, qru_matrix *D, qru_matrix *Q,
                          qru_matrix *E)
{
    qru_context *ctx = fb->ctx;
    qru_dtype dt = fb->dt;
    size_t need = 0;
    qru_ptr none = {0, 0}, ws;
#define QRU_LSQ_BATCH_QR_ARGS(w)                                               \
    ctx, dt, m, fb->r, n, e - b, qru_mat_page(A, b), A->ld, A->stride,        \
        qru_mat_page(B, b), B->ld, B->stride, qru_mat_page(R, b), R->ld,      \
        R->stride, qru_mat_page(D, b), D->ld, D->stride, qru_mat_page(Q, b), \
        Q->ld, Q->stride, qru_mat_page(E, b), E->ld, E->stride, (w), &need
    QRU_TRY(ctx->table.lsq_batch_geqr_thin(QRU_LSQ_BATCH_QR_ARGS(none)));
    QRU_TRY(qru_ctx_workspace(ctx, need * qru_dtype_size(dt), &ws));
    return ctx->ops->lsq_batch_geqr_thin(QRU_LSQ_BATCH_QR_ARGS(ws));
#undef QRU_LSQ_BATCH_QR_ARGS
}

/* The thin factorisations of A and b: one lsq_batch_geqr_thin op for
 * the batch, into the Q, E, R and D pages. */
static int lsq_batch_factor_thin(qru_lsq_batch *fb, const qru_matrix *A,
                                 const qru_matrix *b)
{
    if (fb->count == 0)
        return 0;
    return lsq_batch_geqr(fb, fb->m, A->rows, 0, fb->count, A, b, fb->R,
                          fb->D, fb->Q, fb->E);
}

/* The full form's scratch for lsq_batch_complete, for problems of at most
 * nmax rows: W[0] the inputs [Q1 0], W[1] and W[2] the QR's unused R and
 * E (count pages each); all NULL for the other forms and count = 0. */
static int lsq_batch_cmp_alloc(const qru_lsq_batch *fb, int nmax,
                               qru_matrix *W[3])
{
    qru_context *ctx = fb->ctx;
    W[0] = W[1] = W[2] = NULL;
    if (fb->q != QRU_Q_FULL || fb->count == 0)
        return 0;
    int st = qru_matrix_create_batch(ctx, fb->dt, nmax, nmax, nmax,
                                     fb->count, 0, &W[0]);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, nmax, nmax, nmax,
                                     fb->count, 0, &W[1]);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, nmax, fb->r, nmax,
                                     fb->count, 0, &W[2]);
    return st;
}

static void lsq_batch_cmp_free(qru_matrix *W[3])
{
    for (int i = 0; i < 3; ++i)
        qru_matrix_destroy(W[i]);
}

/* The full form's complements Q2 and d2 = Q2' b = Q2' E recomputed from
 * Q1 and E for the problems i with chg[i] != 0 (chg NULL: all): one
 * lsq_batch_geqr_thin op of n columns a run of such problems of one row
 * count n > m, on [Q1 0] (W[0], zeroed, Q1 copied in by one
 * geadd_batched a run) and E, its Q into Q2's pages and its d = Q' E
 * into D2's. */
static int lsq_batch_complete(qru_lsq_batch *fb, qru_matrix *W[3],
                              const int *chg)
{
    qru_context *ctx = fb->ctx;
    qru_dtype dt = fb->dt;
    int m = fb->m, count = fb->count;
    if (!W[0])
        return 0;
    qru_matrix *T = W[0], *Rt = W[1], *Et = W[2];
    QRU_TRY(ctx->ops->laset(ctx, dt, 'A', T->ld, T->cols * count, 0.0, 0.0,
                            T->p, T->ld));
    for (int b = 0, e; b < count; b = e) {
        e = lsq_batch_span(fb, b, chg, 1);
        int n = fb->nr[b];
        if ((!chg || chg[b]) && n > m) {
            QRU_TRY(lsq_batch_pcopy(fb, n, m, fb->Q, 0, T, 0, b, e));
            QRU_TRY(lsq_batch_geqr(fb, n, n, b, e, T, fb->E, Rt, fb->D2,
                                   fb->Q2, Et));
        }
    }
    return 0;
}

static int lsq_batch_create(qru_context *ctx, const qru_matrix *A,
                            const qru_matrix *b, const qru_lsq_options *opt,
                            qru_lsq_batch **out)
{
    qru_lsq_batch *fb = calloc(1, sizeof(*fb));
    if (!fb)
        return QRU_HOST_ALLOC_FAILED;
    fb->ctx = ctx;
    fb->dt = A->dtype;
    fb->m = A->cols;
    fb->r = b->cols;
    fb->count = A->count;
    fb->q = opt ? opt->q : QRU_Q_NONE;
    int m = fb->m, r = fb->r, count = fb->count, st = 0;
    fb->nr = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
    if (!fb->nr) {
        free(fb);
        return QRU_HOST_ALLOC_FAILED;
    }
    for (int i = 0; i < count; ++i)
        fb->nr[i] = A->rows;
    st = qru_matrix_create_batch(ctx, fb->dt, m, m, m, count, 0, &fb->R);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, m, r, m, count, 0, &fb->D);
    if (!st)
        st = qru_matrix_create(ctx, fb->dt, r, count > 0 ? count : 1, r,
                               &fb->H);
    if (!st && count > 0)
        st = ctx->ops->laset(ctx, fb->dt, 'A', m, m * count, 0.0, 0.0,
                             fb->R->p, m);
    if (!st && count > 0)
        st = ctx->ops->laset(ctx, fb->dt, 'A', m, r * count, 0.0, 0.0,
                             fb->D->p, m);
    if (!st)
        st = ctx->ops->laset(ctx, fb->dt, 'A', r, fb->H->cols, 0.0, 0.0,
                             fb->H->p, r);
    if (lsq_batch_has_q(fb)) {
        fb->ncap = opt->row_capacity ? opt->row_capacity : A->rows;
        if (!st)
            st = qru_matrix_create_batch(ctx, fb->dt, fb->ncap, m, fb->ncap,
                                         count, 0, &fb->Q);
        if (!st)
            st = qru_matrix_create_batch(ctx, fb->dt, fb->ncap, r, fb->ncap,
                                         count, 0, &fb->E);
        if (!st && fb->q == QRU_Q_FULL)
            st = qru_matrix_create_batch(ctx, fb->dt, fb->ncap, fb->ncap,
                                         fb->ncap, count, 0, &fb->Q2);
        if (!st && fb->q == QRU_Q_FULL)
            st = qru_matrix_create_batch(ctx, fb->dt, fb->ncap, r, fb->ncap,
                                         count, 0, &fb->D2);
        if (!st)
            st = lsq_batch_factor_thin(fb, A, b);
        qru_matrix *W[3] = {NULL, NULL, NULL};
        if (!st)
            st = lsq_batch_cmp_alloc(fb, A->rows, W);
        if (!st)
            st = lsq_batch_complete(fb, W, NULL);
        lsq_batch_cmp_free(W);
    } else if (!st) {
        st = lsq_batch_add(fb, A, b, NULL);
    }
    if (st) {
        qru_lsq_batch_destroy(fb);
        return st;
    }
    fb->n = A->rows;
    *out = fb;
    return 0;
}

/* The checks of qru_lsq_batch_create_ex's options (argument 4) for A. */
static int lsq_batch_opts_check(const qru_lsq_options *opt,
                                const qru_matrix *A)
{
    if (opt->q != QRU_Q_FULL && opt->q != QRU_Q_THIN && opt->q != QRU_Q_NONE)
        return qru_fail_arg(4, "opt->q = %d is not a qru_lsq_q value "
                               "(QRU_Q_FULL, QRU_Q_THIN, QRU_Q_NONE)",
                            opt->q);
    if (opt->q != QRU_Q_NONE && A->rows < A->cols)
        return qru_fail_arg(4, "opt->q = %s needs n >= m, but A's pages are "
                               "%d x %d",
                            opt->q == QRU_Q_FULL ? "QRU_Q_FULL"
                                                 : "QRU_Q_THIN",
                            A->rows, A->cols);
    if (opt->nb < 0)
        return qru_fail_arg(4, "opt->nb = %d, but nb must be >= 0", opt->nb);
    if (opt->row_capacity != 0 && opt->row_capacity < A->rows)
        return qru_fail_arg(4, "opt->row_capacity = %d, but it must be 0 or "
                               ">= n = %d", opt->row_capacity, A->rows);
    if (opt->col_capacity != 0 && opt->col_capacity < A->cols)
        return qru_fail_arg(4, "opt->col_capacity = %d, but it must be 0 or "
                               ">= m = %d", opt->col_capacity, A->cols);
    if (opt->adopt != 0)
        return qru_fail_arg(4, "opt->adopt = %d, but a batch adopts no "
                               "buffers", opt->adopt);
    if (opt->rank != QRU_RANK_REFUSE && opt->rank != QRU_RANK_ACCEPT)
        return qru_fail_arg(4, "opt->rank = %d is not a qru_lsq_rank value "
                               "(QRU_RANK_REFUSE, QRU_RANK_ACCEPT)",
                            opt->rank);
    return 0;
}

/* qru_lsq_batch_create (opt NULL, fb argument 4) and
 * qru_lsq_batch_create_ex (fb argument 5). */
static int lsq_batch_create_args(qru_context *ctx, const qru_matrix *A,
                                 const qru_matrix *b,
                                 const qru_lsq_options *opt, int ifb,
                                 qru_lsq_batch **fb)
{
    QRU_TRY(qru_arg_batch(ctx, 2, "A", A, A ? A->dtype : QRU_DOUBLE));
    if (A->cols < 1)
        return qru_fail_arg(2, "A has %d columns, but it needs m >= 1",
                            A->cols);
    QRU_TRY(qru_check_supports(ctx, A->dtype));
    qru_lsq_batch tmp = {ctx,  A->dtype, A->cols, b ? b->cols : 1,
                         A->count, QRU_Q_NONE, 0, NULL, 0, NULL, NULL,
                         NULL, NULL, NULL, NULL, NULL};
    QRU_TRY(lsq_batch_check_rows(&tmp, 2, A, 3, b, 0));
    if (b->cols < 1)
        return qru_fail_arg(3, "b has %d columns, but it needs r >= 1",
                            b->cols);
    if (ifb == 5 && opt)
        QRU_TRY(lsq_batch_opts_check(opt, A));
    if (!fb)
        return qru_fail_arg(ifb, "fb is NULL");
    tmp.q = opt ? opt->q : QRU_Q_NONE;
    QRU_TRY(lsq_batch_cplx(&tmp, tmp.q == QRU_Q_NONE
                                     ? QRU_OPM(lsq_batch_add_rows)
                                     : QRU_OPM(lsq_batch_geqr_thin)));
    return lsq_batch_create(ctx, A, b, opt, fb);
}

int qru_lsq_batch_create(qru_context *ctx, const qru_matrix *A,
                         const qru_matrix *b, qru_lsq_batch **fb)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_RET(ctx, lsq_batch_create_args(ctx, A, b, NULL, 4, fb));
}

int qru_lsq_batch_create_ex(qru_context *ctx, const qru_matrix *A,
                            const qru_matrix *b, const qru_lsq_options *opt,
                            qru_lsq_batch **fb)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_RET(ctx, lsq_batch_create_args(ctx, A, b, opt, 5, fb));
}

/* The rows of U and E added to every problem (checked arguments; rows
 * as for lsq_batch_add), the row counts grown, the full form's
 * complements recomputed. */
static int lsq_batch_add_rows(qru_lsq_batch *fb, const qru_matrix *U,
                              const qru_matrix *E, const int *rows)
{
    qru_matrix *W[3] = {NULL, NULL, NULL};
    int st = lsq_batch_cmp_alloc(fb, fb->n + U->rows, W);
    if (!st)
        st = lsq_batch_add(fb, U, E, rows);
    if (!st) {
        fb->n = fb->count == 0 ? fb->n + U->rows : 0;
        for (int i = 0; i < fb->count; ++i) {
            fb->nr[i] += rows ? rows[i] : U->rows;
            fb->n = fb->nr[i] > fb->n ? fb->nr[i] : fb->n;
        }
        st = lsq_batch_complete(fb, W, rows);
    }
    lsq_batch_cmp_free(W);
    return st;
}

int qru_lsq_batch_add_rows(qru_lsq_batch *fb, const qru_matrix *U,
                           const qru_matrix *e)
{
    return qru_lsq_batch_add_rows_ex(fb, U, e, NULL);
}

int qru_lsq_batch_add_rows_ex(qru_lsq_batch *fb, const qru_matrix *U,
                              const qru_matrix *e, const int *rows)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_check_rows(fb, 2, U, 3, e, 1));
    for (int i = 0; rows && i < fb->count; ++i)
        QRU_ARG(ctx, 4, rows[i] >= 0 && rows[i] <= U->rows,
                "rows[%d] = %d, but it must be in 0 .. %d (U's rows)", i,
                rows[i], U->rows);
    QRU_CHECK(ctx, lsq_batch_cplx(fb, fb->q == QRU_Q_NONE
                                          ? QRU_OPM(lsq_batch_add_rows)
                                          : QRU_OPM(lsq_batch_add_rows_q)));
    QRU_RET(ctx, lsq_batch_add_rows(fb, U, e, rows));
}

/* The rows k .. k+p-1 removed from every thin problem (checked; rows:
 * from problem i only k .. k+rows[i]-1, p the largest rows[i]): one
 * lsq_batch_remove_rows_q op a run of problems of one row count and each
 * number of rows its problems lose (the op takes the counts in device
 * memory and only the problems of its number), the verdicts read back in
 * one wait; the row counts of the problems that passed lose their rows. */
static int lsq_batch_remove(qru_lsq_batch *fb, int k, int p, int *info,
                            const int *rows)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count;
    size_t we;
    size_t part = qru_batch_part(
        ctx, fb->dt, 0, qru_lsq_batch_q_rm_work(fb->n, m, r, p), count, &we);
    qru_ptr dinfo, dcnt = {NULL, 0}, work;
    QRU_TRY(lsq_batch_ws(fb, we, &dinfo, rows ? &dcnt : NULL, &work));
    qru_matrix *W[3] = {NULL, NULL, NULL};
    int st = lsq_batch_cmp_alloc(fb, fb->n, W);
    char *seen = NULL; /* the numbers of rows a run has had its call for */
    if (rows) { /* only the problems that lose rows write verdicts */
        if (!st)
            st = ctx->ops->laset(ctx, fb->dt, 'A', count, 1, 0.0, 0.0, dinfo,
                                 count);
        if (!st)
            st = qru_batch_counts(ctx, fb->dt, count, rows, dcnt);
        seen = st ? NULL : calloc((size_t)p + 1, 1);
        if (!st && !seen)
            st = QRU_HOST_ALLOC_FAILED;
    }
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_run(fb, b, part);
        for (int i = b; !st && i < (rows ? e : b + 1); ++i) {
            int pb = rows ? rows[i] : p;
            if (pb == 0 || (seen && seen[pb]))
                continue;
            if (seen)
                seen[pb] = 1;
            st = ctx->ops->lsq_batch_remove_rows_q(
                ctx, fb->dt, m, r, fb->nr[b], k, pb, e - b,
                qru_mat_page(fb->R, b), fb->R->ld, fb->R->stride,
                qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
                qru_mat_page(fb->Q, b), fb->Q->ld, fb->Q->stride,
                qru_mat_page(fb->E, b), fb->E->ld, fb->E->stride,
                qru_ptr_add(dinfo, (size_t)b),
                rows ? qru_ptr_add(dcnt, (size_t)b) : dcnt, work);
        }
        for (int i = b; seen && i < e; ++i)
            seen[rows[i]] = 0;
    }
    free(seen);
    int *v = st ? NULL : malloc(sizeof(int) * (size_t)count);
    if (!st && !v)
        st = QRU_HOST_ALLOC_FAILED;
    if (st) {
        lsq_batch_cmp_free(W);
        return st;
    }
    int first, col;
    int failed = qru_batch_verdicts(ctx, fb->dt, count, dinfo, NULL, v, &first,
                                    &col);
    if (failed >= 0) {
        int nmax = 0;
        for (int i = 0; i < count; ++i) {
            int lost = v[i] == 0 ? (rows ? rows[i] : p) : 0;
            fb->nr[i] -= lost;
            nmax = fb->nr[i] > nmax ? fb->nr[i] : nmax;
            if (info)
                info[i] = v[i];
            v[i] = lost; /* the problems whose complement is new */
        }
        fb->n = nmax;
        int sc = lsq_batch_complete(fb, W, v);
        failed = sc ? sc : failed;
    }
    lsq_batch_cmp_free(W);
    free(v);
    if (failed <= 0)
        return failed;
    return qru_fail(failed, "%d of %d problems refused the removal (A1 "
                            "numerically rank-deficient; the first: problem "
                            "%d (0-based), at column %d); they are "
                            "unchanged",
                    failed, count, first, col);
}

int qru_lsq_batch_remove_rows(qru_lsq_batch *fb, int k, int p, int *info)
{
    return qru_lsq_batch_remove_rows_ex(fb, k, p, info, NULL);
}

int qru_lsq_batch_remove_rows_ex(qru_lsq_batch *fb, int k, int p, int *info,
                                 const int *rows)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    int lo, hi, m = fb->m;
    lsq_batch_nrange(fb, &lo, &hi);
    QRU_ARG(ctx, 2, k >= 0 && (rows || k < lo),
            "k = %d, but 0 <= k < n = %d must hold (the fewest rows of a "
            "problem)", k, lo);
    QRU_ARG(ctx, 3, p >= 1, "p = %d, but p must be >= 1", p);
    QRU_ARG(ctx, 3, rows || p <= lo - k,
            "p = %d, but k + p must be <= n = %d (k = %d; the fewest rows "
            "of a problem)", p, lo, k);
    QRU_ARG(ctx, 3, rows || lo - p >= m,
            "p = %d, but n - p must stay >= m = %d (n = %d, the fewest rows "
            "of a problem): A stays tall", p, m, lo);
    int pmax = rows ? 0 : p; /* the most rows a problem loses */
    for (int i = 0; rows && i < fb->count; ++i) {
        int ri = rows[i], ni = fb->nr[i];
        QRU_ARG(ctx, 5, ri >= 0 && ri <= p,
                "rows[%d] = %d, but it must be in 0 .. p = %d", i, ri, p);
        QRU_ARG(ctx, 5, ri == 0 || (long long)k + ri <= ni,
                "rows[%d] = %d, but k + rows[%d] must be <= %d, the "
                "problem's rows (k = %d)", i, ri, i, ni, k);
        QRU_ARG(ctx, 5, ri == 0 || ni - ri >= m,
                "rows[%d] = %d, but the problem's %d rows must stay >= m = "
                "%d: A stays tall", i, ri, ni, m);
        pmax = ri > pmax ? ri : pmax;
    }
    if (fb->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the batch is Q-less "
                                            "(QRU_Q_NONE): its rows cannot "
                                            "be removed; create it with "
                                            "opt->q = QRU_Q_THIN"));
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_remove_rows_q)));
    if (fb->count == 0)
        QRU_RET(ctx, 0);
    if (pmax == 0) { /* no problem loses a row: no work */
        for (int i = 0; info && i < fb->count; ++i)
            info[i] = 0;
        QRU_RET(ctx, 0);
    }
    QRU_RET(ctx, lsq_batch_remove(fb, k, pmax, info, rows));
}

/* The columns k .. k+p-1 removed from every problem (checked): one
 * lsq_batch_remove_cols op a run of problems, in place; R, d and Q1 then
 * keep their pages' layout (ld and stride), their headers lose p columns
 * (rows), which a later insertion of columns compacts. */
static int lsq_batch_remove_c(qru_lsq_batch *fb, int k, int p)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count, thin = lsq_batch_has_q(fb);
    size_t we;
    size_t part = qru_batch_part(
        ctx, fb->dt, 0, qru_lsq_batch_rmc_work(m, r, k, p), count, &we);
    qru_ptr work, none = {0, 0};
    qru_matrix *W[3] = {NULL, NULL, NULL};
    int st = lsq_batch_cmp_alloc(fb, fb->n, W);
    if (!st)
        st = qru_ctx_workspace(ctx, we * qru_dtype_size(fb->dt), &work);
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_run(fb, b, part);
        st = ctx->ops->lsq_batch_remove_cols(
            ctx, fb->dt, m, r, fb->nr[b], k, p, e - b, thin,
            qru_mat_page(fb->R, b), fb->R->ld, fb->R->stride,
            qru_mat_page(fb->D, b), fb->D->ld, fb->D->stride,
            qru_ptr_add(fb->H->p, (size_t)b * (size_t)r),
            thin ? qru_mat_page(fb->Q, b) : none, thin ? fb->Q->ld : 1,
            thin ? fb->Q->stride : 0, thin ? qru_mat_page(fb->E, b) : none,
            thin ? fb->E->ld : 1, thin ? fb->E->stride : 0, work);
    }
    if (!st) {
        fb->m = m - p;
        fb->R->rows = fb->R->cols = fb->D->rows = m - p;
        if (thin)
            fb->Q->cols = m - p;
        st = lsq_batch_complete(fb, W, NULL);
    }
    lsq_batch_cmp_free(W);
    return st;
}

int qru_lsq_batch_remove_cols(qru_lsq_batch *fb, int k, int p)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_ARG(ctx, 2, k >= 0 && k < fb->m,
            "k = %d, but 0 <= k < m = %d must hold", k, fb->m);
    QRU_ARG(ctx, 3, p >= 1 && p <= fb->m - k,
            "p = %d, but 1 <= p <= m - k = %d must hold (m = %d, k = %d)", p,
            fb->m - k, fb->m, k);
    QRU_ARG(ctx, 3, p < fb->m,
            "p = %d, but p < m = %d must hold (a problem keeps a column)", p,
            fb->m);
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_remove_cols)));
    if (fb->count == 0) {
        fb->m -= p;
        fb->R->rows = fb->R->cols = fb->D->rows = fb->m;
        if (fb->Q)
            fb->Q->cols = fb->m;
        QRU_RET(ctx, 0);
    }
    QRU_RET(ctx, lsq_batch_remove_c(fb, k, p));
}

/* The storage of a thin batch of m columns (R, d, Q1, E; the pages of Q1
 * and E of nq rows), or NULL matrices after a failure. */
static int lsq_batch_alloc(const qru_lsq_batch *fb, int m, int nq,
                           qru_matrix *M[4])
{
    qru_context *ctx = fb->ctx;
    int c = fb->count, st;
    M[0] = M[1] = M[2] = M[3] = NULL;
    st = qru_matrix_create_batch(ctx, fb->dt, m, m, m, c, 0, &M[0]);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, m, fb->r, m, c, 0, &M[1]);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, nq, m, nq, c, 0, &M[2]);
    if (!st)
        st = qru_matrix_create_batch(ctx, fb->dt, nq, fb->r, nq, c, 0,
                                     &M[3]);
    if (st)
        for (int i = 0; i < 4; ++i) {
            qru_matrix_destroy(M[i]);
            M[i] = NULL;
        }
    return st;
}

/* The Q-less insertion's stand-ins for the thin form's Q1 and E, from the
 * current A and b (checked): new batches T[0] and T[1] of pages of fb->n
 * rows that hold Q1 = A / R and E = b - Q1 d over each problem's rows
 * (the copies and the product one call a run of problems of one row
 * count, the triangular solve one a problem).  The thin insertion's CGS2
 * against this Q1 (C = Q1' V = R' \ (A' V), Z = V - Q1 C, the second
 * pass the correction) is then the corrected semi-normal equations. */
static int lsq_batch_qless_q(const qru_lsq_batch *fb, const qru_matrix *A,
                             const qru_matrix *b, qru_matrix *T[2])
{
    qru_context *ctx = fb->ctx;
    qru_dtype dt = fb->dt;
    int m = fb->m, r = fb->r, n0 = fb->n;
    QRU_TRY(qru_matrix_create_batch(ctx, dt, n0, m, n0, fb->count, 0, &T[0]));
    QRU_TRY(qru_matrix_create_batch(ctx, dt, n0, r, n0, fb->count, 0, &T[1]));
    qru_matrix *Q = T[0], *E = T[1];
    for (int i0 = 0, e; i0 < fb->count; i0 = e) {
        e = lsq_batch_span(fb, i0, NULL, 1);
        int n = fb->nr[i0];
        QRU_TRY(lsq_batch_pcopy(fb, n, m, A, 0, Q, 0, i0, e));
        for (int i = i0; i < e; ++i)
            QRU_TRY(ctx->ops->trsm(ctx, dt, 'R', 'U', 'N', 'N', n, m, 1.0,
                                   qru_mat_page(fb->R, i), fb->R->ld,
                                   qru_mat_page(Q, i), Q->ld));
        QRU_TRY(lsq_batch_pcopy(fb, n, r, b, 0, E, 0, i0, e));
        QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, r, m, -1.0, Q, 0, fb->D, 0,
                                1.0, E, 0, i0, e));
    }
    return 0;
}

/* The residual sums of squares of the Q-less form, rho2 (r x count, the
 * host doubles), from the new residuals E1 (pages of nq rows). */
static int lsq_batch_rho2(const qru_lsq_batch *fb, const qru_matrix *E1,
                          double *rho2)
{
    size_t cnt = (size_t)fb->count * (size_t)fb->r;
    for (int b = 0, e; b < fb->count; b = e) {
        e = lsq_batch_run(fb, b, (size_t)INT_MAX / (size_t)fb->r);
        QRU_TRY(fb->ctx->ops->col_norms(fb->ctx, fb->dt, fb->nr[b],
                                        fb->r * (e - b),
                                        qru_mat_page(E1, b), E1->ld,
                                        rho2 + (size_t)b * (size_t)fb->r));
    }
    for (size_t j = 0; j < cnt; ++j)
        rho2[j] *= rho2[j];
    return 0;
}

/* The columns of V inserted after column k of every problem (checked):
 * new storage for m + p columns, one lsq_batch_add_cols_q op a run of
 * problems from the old pages into it, the verdicts read back in one
 * wait; the new storage replaces the old only when every problem passed,
 * else it is freed and the batch is as it was.  The Q-less form (A and b
 * its current data) runs the op on lsq_batch_qless_q's Q1 and E, keeps
 * the new R and d and takes its residual sums of squares from the new
 * E. */
static int lsq_batch_add_c(qru_lsq_batch *fb, int k, const qru_matrix *V,
                           const qru_matrix *A, const qru_matrix *b,
                           int *info)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count, p = V->cols;
    int ql = !lsq_batch_has_q(fb), nq = ql ? fb->n : fb->ncap;
    size_t we;
    size_t part = qru_batch_part(
        ctx, fb->dt, 0, qru_lsq_batch_acq_work(m, r, k, p), count, &we);
    qru_matrix *N[4] = {NULL, NULL, NULL, NULL}, *W[3] = {NULL, NULL, NULL};
    qru_matrix *T[2] = {NULL, NULL};
    qru_ptr dinfo = {0, 0}, work = {0, 0};
    double *rho2 = NULL;
    int st = lsq_batch_cmp_alloc(fb, fb->n, W);
    if (!st)
        st = lsq_batch_alloc(fb, m + p, nq, N);
    if (!st && ql)
        st = lsq_batch_qless_q(fb, A, b, T);
    if (!st && count > 0)
        st = lsq_batch_ws(fb, we, &dinfo, NULL, &work);
    qru_matrix *Qs = ql ? T[0] : fb->Q, *Es = ql ? T[1] : fb->E;
    for (int b0 = 0, e; !st && b0 < count; b0 = e) {
        e = lsq_batch_run(fb, b0, part);
        st = ctx->ops->lsq_batch_add_cols_q(
            ctx, fb->dt, m, r, fb->nr[b0], k, p, e - b0,
            qru_mat_page(fb->R, b0), fb->R->ld, fb->R->stride,
            qru_mat_page(fb->D, b0), fb->D->ld, fb->D->stride,
            qru_mat_page(Qs, b0), Qs->ld, Qs->stride,
            qru_mat_page(Es, b0), Es->ld, Es->stride,
            qru_mat_page(V, b0), V->ld, V->stride, qru_mat_page(N[0], b0),
            N[0]->ld, N[0]->stride, qru_mat_page(N[1], b0), N[1]->ld,
            N[1]->stride, qru_mat_page(N[2], b0), N[2]->ld, N[2]->stride,
            qru_mat_page(N[3], b0), N[3]->ld, N[3]->stride,
            qru_ptr_add(dinfo, (size_t)b0), work);
    }
    int *v = st || !count ? NULL : malloc(sizeof(int) * (size_t)count);
    if (!st && count && !v)
        st = QRU_HOST_ALLOC_FAILED;
    int first = -1, col = 0;
    if (!st && count)
        st = qru_batch_verdicts(ctx, fb->dt, count, dinfo, NULL, v, &first, &col);
    if (st >= 0 && info)
        for (int i = 0; i < count; ++i)
            info[i] = v[i];
    free(v);
    if (!st && ql && count) { /* the new rho2, uploaded last */
        rho2 = malloc(sizeof(double) * (size_t)count * (size_t)r);
        st = rho2 ? lsq_batch_rho2(fb, N[3], rho2) : QRU_HOST_ALLOC_FAILED;
        if (!st)
            st = qru_batch_values(ctx, fb->dt, count * r, rho2, fb->H->p);
    }
    free(rho2);
    qru_matrix **old[4] = {&fb->R, &fb->D, &fb->Q, &fb->E};
    for (int i = 0; i < 4; ++i) {
        qru_matrix *t = st || (ql && i >= 2) ? N[i] : *old[i];
        if (!st && !(ql && i >= 2))
            *old[i] = N[i];
        qru_matrix_destroy(t);
    }
    qru_matrix_destroy(T[0]);
    qru_matrix_destroy(T[1]);
    if (!st) {
        fb->m = m + p;
        st = lsq_batch_complete(fb, W, NULL);
    }
    lsq_batch_cmp_free(W);
    if (st <= 0)
        return st;
    return qru_fail(st, "%d of %d problems refused the columns (A1 "
                        "numerically rank-deficient; the first: problem %d "
                        "(0-based), at column %d); no problem changed",
                    st, count, first, col);
}

/* The checks of qru_lsq_batch_add_cols's k (2) and V (3). */
static int lsq_batch_add_cols_args(const qru_lsq_batch *fb, int k,
                                   const qru_matrix *V)
{
    int lo, hi;
    lsq_batch_nrange(fb, &lo, &hi);
    if (k < 0 || k > fb->m)
        return qru_fail_arg(2, "k = %d, but 0 <= k <= m = %d must hold", k,
                            fb->m);
    QRU_TRY(lsq_batch_check_pages(fb, 3, "V", V));
    if (V->cols < 1 || (long long)fb->m + V->cols > lo)
        return qru_fail_arg(3, "V has %d columns, but 1 <= p <= n - m = %d "
                               "must hold (A stays tall: m + p <= n = %d, "
                               "the fewest rows of a problem, m = %d)",
                            V->cols, lo - fb->m, lo, fb->m);
    if (lsq_batch_overlaps(fb, V))
        return qru_fail_arg(3, "V overlaps the factorisation's storage");
    return qru_batch_check_finite(fb->ctx, 3, V, 'A', 0);
}

/* The checks of the current A (argument argi: n x m pages, cols m) or b
 * (n x r pages, cols r) of fb's problems. */
static int lsq_batch_check_data(const qru_lsq_batch *fb, int argi,
                                const char *name, const qru_matrix *M,
                                int cols)
{
    QRU_TRY(lsq_batch_check_pages(fb, argi, name, M));
    if (M->cols != cols)
        return qru_fail_arg(argi, "%s has %d columns, but it needs %d (the "
                                  "problems' %s)",
                            name, M->cols, cols,
                            argi == 4 ? "unknowns m" : "right-hand sides r");
    if (lsq_batch_overlaps(fb, M))
        return qru_fail_arg(argi, "%s overlaps the factorisation's storage",
                            name);
    return qru_batch_check_finite(fb->ctx, argi, M, 'A', 0);
}

int qru_lsq_batch_add_cols(qru_lsq_batch *fb, int k, const qru_matrix *V,
                           int *info)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_add_cols_args(fb, k, V));
    if (fb->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the batch is Q-less "
                                            "(QRU_Q_NONE): it holds no Q1 "
                                            "to add columns against; give "
                                            "A and b to "
                                            "qru_lsq_batch_add_cols_data"));
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_add_cols_q)));
    QRU_RET(ctx, lsq_batch_add_c(fb, k, V, NULL, NULL, info));
}

int qru_lsq_batch_add_cols_data(qru_lsq_batch *fb, int k,
                                const qru_matrix *V, const qru_matrix *A,
                                const qru_matrix *b, int *info)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_add_cols_args(fb, k, V));
    QRU_CHECK(ctx, lsq_batch_check_data(fb, 4, "A", A, fb->m));
    QRU_CHECK(ctx, lsq_batch_check_data(fb, 5, "b", b, fb->r));
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_add_cols_q)));
    QRU_RET(ctx, lsq_batch_add_c(fb, k, V, A, b, info));
}

/* ---- the rank-k modification A + U V' (thin and full forms) -------- */

/* The scratch batches of a modification (count pages each, of the most
 * rows n where a page has n rows). */
enum {
    MD_W,  /* m x k: W = Q1' U (CGS2) */
    MD_W2, /* m x k: its second pass */
    MD_Z,  /* n x k: Z = U - Q1 W */
    MD_QZ, /* n x k: Z = Qz Rz */
    MD_RZ, /* k x k */
    MD_DZ, /* k x r: dz = Qz' E */
    MD_EZ, /* n x r: E - Qz dz */
    MD_M,  /* (m + k) x m: [R + W V'; Rz V'] */
    MD_B,  /* (m + k) x r: [d; dz] */
    MD_RM, /* m x m: M = Qm Rm */
    MD_DM, /* m x r: Qm' [d; dz] */
    MD_QM, /* (m + k) x m */
    MD_EM, /* (m + k) x r: [d; dz] - Qm dm */
    MD_QN, /* n x m: the new Q1 = [Q1 Qz] Qm */
    MD_EN, /* n x r: the new E = E - Qz dz + [Q1 Qz] Em */
    MD_X,  /* m x r: the solve that judges Rm */
    MD_COUNT
};

static int lsq_batch_md_alloc(const qru_lsq_batch *fb, int k,
                              qru_matrix *S[MD_COUNT])
{
    int n = fb->n, m = fb->m, r = fb->r, mk = m + k;
    const int dims[MD_COUNT][2] = {
        {m, k},  {m, k}, {n, k},  {n, k},  {k, k},  {k, r},
        {n, r},  {mk, m}, {mk, r}, {m, m}, {m, r}, {mk, m},
        {mk, r}, {n, m}, {n, r},  {m, r}};
    int st = 0;
    for (int i = 0; i < MD_COUNT; ++i)
        S[i] = NULL;
    for (int i = 0; !st && i < MD_COUNT; ++i)
        st = qru_matrix_create_batch(fb->ctx, fb->dt, dims[i][0], dims[i][1],
                                     dims[i][0], fb->count, 0, &S[i]);
    return st;
}

/* The completion of U against Q1 and the matrix M = [R + W V'; Rz V']
 * with B = [d; dz] (steps 1 and 3 of lsq_batch_modify; step 3 where rz)
 * for the problems b .. e-1, of one row count: a batched op a step. */
static int lsq_batch_md_page(qru_lsq_batch *fb, int b, int e,
                             const qru_matrix *U, const qru_matrix *V,
                             qru_matrix *const S[], int rz)
{
    int n = fb->nr[b], m = fb->m, r = fb->r, k = U->cols;
    if (!rz) { /* Z = U - Q1 W by CGS2, W += its second pass */
        QRU_TRY(lsq_batch_pcopy(fb, n, k, U, 0, S[MD_Z], 0, b, e));
        for (int pass = 0; pass < 2; ++pass) {
            const qru_matrix *Wp = S[pass ? MD_W2 : MD_W];
            QRU_TRY(lsq_batch_pgemm(fb, 'C', 'N', m, k, n, 1.0, fb->Q, 0,
                                    S[MD_Z], 0, 0.0, Wp, 0, b, e));
            QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, k, m, -1.0, fb->Q, 0, Wp,
                                    0, 1.0, S[MD_Z], 0, b, e));
        }
        qru_context *ctx = fb->ctx;
        const qru_matrix *W = S[MD_W], *W2 = S[MD_W2];
        return ctx->ops->geadd_batched(ctx, fb->dt, m, k, 1.0,
                                       qru_mat_page(W2, b), W2->ld,
                                       W2->stride, 1.0, qru_mat_page(W, b),
                                       W->ld, W->stride, e - b);
    }
    QRU_TRY(lsq_batch_pcopy(fb, m, m, fb->R, 0, S[MD_M], 0, b, e));
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'C', m, m, k, 1.0, S[MD_W], 0, V, 0,
                            1.0, S[MD_M], 0, b, e));
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'C', k, m, k, 1.0, S[MD_RZ], 0, V, 0,
                            0.0, S[MD_M], m, b, e));
    QRU_TRY(lsq_batch_pcopy(fb, m, r, fb->D, 0, S[MD_B], 0, b, e));
    return lsq_batch_pcopy(fb, k, r, S[MD_DZ], 0, S[MD_B], m, b, e);
}

/* The new Q1 and E of the problems b .. e-1 (one row count) from the QR
 * of M (step 6), then the commit: Q1, E, R and d copied in; a batched
 * op a step. */
static int lsq_batch_md_commit(qru_lsq_batch *fb, int b, int e, int k,
                               qru_matrix *const S[])
{
    int n = fb->nr[b], m = fb->m, r = fb->r;
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, m, m, 1.0, fb->Q, 0, S[MD_QM], 0,
                            0.0, S[MD_QN], 0, b, e));
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, m, k, 1.0, S[MD_QZ], 0,
                            S[MD_QM], m, 1.0, S[MD_QN], 0, b, e));
    QRU_TRY(lsq_batch_pcopy(fb, n, r, S[MD_EZ], 0, S[MD_EN], 0, b, e));
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, r, m, 1.0, fb->Q, 0, S[MD_EM], 0,
                            1.0, S[MD_EN], 0, b, e));
    QRU_TRY(lsq_batch_pgemm(fb, 'N', 'N', n, r, k, 1.0, S[MD_QZ], 0,
                            S[MD_EM], m, 1.0, S[MD_EN], 0, b, e));
    QRU_TRY(lsq_batch_pcopy(fb, n, m, S[MD_QN], 0, fb->Q, 0, b, e));
    QRU_TRY(lsq_batch_pcopy(fb, n, r, S[MD_EN], 0, fb->E, 0, b, e));
    QRU_TRY(lsq_batch_pcopy(fb, m, m, S[MD_RM], 0, fb->R, 0, b, e));
    return lsq_batch_pcopy(fb, m, r, S[MD_DM], 0, fb->D, 0, b, e);
}

/* A + U V' for the problems on (mask NULL: all; checked arguments), as
 * the thin form of qru_lsq_modify() but with the batch's ops, each step
 * one call a run of problems (of one row count where the step's sizes
 * take it; the batched ops gemm_batched and geadd_batched on the runs'
 * pages): W = Q1' U and Z = U - Q1 W by CGS2, Z = Qz Rz with dz = Qz' E
 * and E - Qz dz (lsq_batch_geqr_thin), M = [R + W V'; Rz V'] and B =
 * [d; dz], M = Qm Rm with Qm' B and the rest Em (lsq_batch_geqr_thin),
 * Rm judged by the lsq_batch_solve op (the QR rank rule with each
 * problem's n), the verdicts read back in one wait, and for the passing
 * problems the commit: Q1 = [Q1 Qz] Qm, E = E - Qz dz + [Q1 Qz] Em, R =
 * Rm, d = Qm' B; the full form's complements of the problems that
 * changed recomputed.  The calls do not grow with the count, only with
 * the runs (row counts, the mask and the verdicts split them). */
static int lsq_batch_modify(qru_lsq_batch *fb, const qru_matrix *U,
                            const qru_matrix *V, int *info, const int *mask)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, k = U->cols, count = fb->count, st = 0;
    qru_matrix *S[MD_COUNT], *W[3] = {NULL, NULL, NULL};
    int *v = malloc(sizeof(int) * (size_t)count);
    if (!v)
        return QRU_HOST_ALLOC_FAILED;
    st = lsq_batch_md_alloc(fb, k, S);
    if (!st)
        st = lsq_batch_cmp_alloc(fb, fb->n, W);
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_span(fb, b, mask, 1);
        if (!mask || mask[b])
            st = lsq_batch_md_page(fb, b, e, U, V, S, 0);
        if (!st && (!mask || mask[b]))
            st = lsq_batch_geqr(fb, k, fb->nr[b], b, e, S[MD_Z], fb->E,
                                S[MD_RZ], S[MD_DZ], S[MD_QZ], S[MD_EZ]);
    }
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_span(fb, b, mask, 0);
        if (!mask || mask[b])
            st = lsq_batch_md_page(fb, b, e, U, V, S, 1);
    }
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_span(fb, b, mask, 0);
        if (!mask || mask[b])
            st = lsq_batch_geqr(fb, m, m + k, b, e, S[MD_M], S[MD_B],
                                S[MD_RM], S[MD_DM], S[MD_QM], S[MD_EM]);
    }
    /* the verdicts: the solve op's rank rule on Rm (0 where masked out) */
    size_t we;
    size_t part = batch_part(fb, count, &we);
    qru_ptr dinfo = {0, 0}, work = {0, 0};
    if (!st)
        st = lsq_batch_ws(fb, we, &dinfo, NULL, &work);
    if (!st && mask)
        st = ctx->ops->laset(ctx, fb->dt, 'A', count, 1, 0.0, 0.0, dinfo,
                             count);
    for (int b = 0, e; !st && b < count; b = e) {
        e = lsq_batch_span(fb, b, mask, 1);
        e = e - b > (int)part ? b + (int)part : e;
        if (!mask || mask[b])
            st = ctx->ops->lsq_batch_solve(
                ctx, fb->dt, m, r, fb->nr[b], e - b,
                qru_mat_page(S[MD_RM], b), S[MD_RM]->ld, S[MD_RM]->stride,
                qru_mat_page(S[MD_DM], b), S[MD_DM]->ld, S[MD_DM]->stride,
                qru_mat_page(S[MD_X], b), S[MD_X]->ld, S[MD_X]->stride,
                qru_ptr_add(dinfo, (size_t)b), lsq_batch_noflag, work);
    }
    int first = -1, col = 0, failed = 0;
    if (!st)
        failed = st = qru_batch_verdicts(ctx, fb->dt, count, dinfo, NULL, v,
                                         &first, &col);
    if (st >= 0) {
        if (info)
            for (int i = 0; i < count; ++i)
                info[i] = v[i];
        for (int i = 0; i < count; ++i) /* the problems that change */
            v[i] = v[i] == 0 && (!mask || mask[i]);
        int sc = 0;
        for (int b = 0, e; !sc && b < count; b = e) {
            e = lsq_batch_span(fb, b, v, 1);
            if (v[b])
                sc = lsq_batch_md_commit(fb, b, e, k, S);
        }
        if (!sc)
            sc = lsq_batch_complete(fb, W, v);
        st = sc ? sc : st;
    }
    for (int i = 0; i < MD_COUNT; ++i)
        qru_matrix_destroy(S[i]);
    lsq_batch_cmp_free(W);
    free(v);
    if (st < 0 || failed == 0)
        return st;
    return qru_fail(failed, "%d of %d problems refused the modification (A "
                            "+ U V' numerically rank-deficient; the first: "
                            "problem %d (0-based), at column %d); they are "
                            "unchanged",
                    failed, count, first, col);
}

int qru_lsq_batch_modify(qru_lsq_batch *fb, const qru_matrix *U,
                         const qru_matrix *V, int *info)
{
    return qru_lsq_batch_modify_ex(fb, U, V, info, NULL);
}

int qru_lsq_batch_modify_ex(qru_lsq_batch *fb, const qru_matrix *U,
                            const qru_matrix *V, int *info, const int *mask)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    int lo, hi, m = fb->m;
    lsq_batch_nrange(fb, &lo, &hi);
    QRU_CHECK(ctx, lsq_batch_check_pages(fb, 2, "U", U));
    QRU_ARG(ctx, 2, U->cols >= 1 && (mask || U->cols <= lo - m),
            "U has %d columns, but 1 <= k <= n - m = %d must hold (n = %d, "
            "the fewest rows of a problem, m = %d)",
            U->cols, lo - m, lo, m);
    QRU_ARG(ctx, 2, !lsq_batch_overlaps(fb, U),
            "U overlaps the factorisation's storage");
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 2, U, 'A', 0));
    QRU_ARG_BATCH(ctx, 3, "V", V, fb->dt);
    QRU_ARG(ctx, 3, V->count == fb->count,
            "V is a batch of %d matrices, but the factorisations are %d",
            V->count, fb->count);
    QRU_ARG(ctx, 3, V->rows == m && V->cols == U->cols,
            "V's pages are %d x %d, but they must be m x k = %d x %d",
            V->rows, V->cols, m, U->cols);
    QRU_ARG(ctx, 3, !lsq_batch_overlaps(fb, V),
            "V overlaps the factorisation's storage");
    QRU_CHECK(ctx, qru_batch_check_finite(ctx, 3, V, 'A', 0));
    int any = !mask && fb->count > 0;
    for (int i = 0; mask && i < fb->count; ++i) {
        QRU_ARG(ctx, 5, mask[i] == 0 || mask[i] == 1,
                "mask[%d] = %d, but it must be 0 or 1", i, mask[i]);
        QRU_ARG(ctx, 5, !mask[i] || U->cols <= fb->nr[i] - m,
                "mask[%d] = 1, but problem %d has %d rows: k = %d <= n - m "
                "= %d must hold", i, i, fb->nr[i], U->cols, fb->nr[i] - m);
        any |= mask[i];
    }
    if (fb->q == QRU_Q_NONE)
        QRU_RET(ctx, qru_fail(QRU_ERR_NO_Q, "the batch is Q-less "
                                            "(QRU_Q_NONE): A + U V' needs "
                                            "Q; create it with opt->q = "
                                            "QRU_Q_THIN or QRU_Q_FULL"));
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_geqr_thin) |
                                          QRU_OPM(lsq_batch_solve)));
    if (!any) { /* no problem changes: no work */
        for (int i = 0; info && i < fb->count; ++i)
            info[i] = 0;
        QRU_RET(ctx, 0);
    }
    QRU_RET(ctx, lsq_batch_modify(fb, U, V, info, mask));
}

/* The backend's verdict flag, zeroed (*host NULL and *any a NULL handle
 * where it has none). */
static int lsq_batch_flag(const qru_lsq_batch *fb, qru_ptr *any, void **host)
{
    QRU_TRY(fb->ctx->ops->verdict_flag(fb->ctx, fb->dt, any, host));
    if (*host)
        memset(*host, 0, qru_dtype_size(fb->dt));
    return 0;
}

/* The solve's verdicts at dinfo read back (into info, where not NULL;
 * host: the flag of lsq_batch_flag): 0, the count of rank-deficient
 * problems, or a library status. */
static int lsq_batch_solved(const qru_lsq_batch *fb, qru_ptr dinfo,
                            const void *host, int *info)
{
    int first, col, count = fb->count;
    int failed = qru_batch_verdicts(fb->ctx, fb->dt, count, dinfo, host,
                                    info, &first, &col);
    if (failed <= 0)
        return failed;
    return qru_fail(failed, "%d of %d problems rank-deficient (the first: "
                            "problem %d (0-based), at column %d); their "
                            "pages of X are unchanged",
                    failed, count, first, col);
}

/* Every problem solved into X (checked arguments), after U's and E's
 * rows are added to every problem where U is not NULL (the Q-less form:
 * the two in one lsq_batch_add_solve op): one op a run of problems of one
 * row count, the verdicts read back in one wait. */
static int lsq_batch_solve(qru_lsq_batch *fb, const qru_matrix *U,
                           const qru_matrix *E, qru_matrix *X, int *info)
{
    qru_context *ctx = fb->ctx;
    int m = fb->m, r = fb->r, count = fb->count, p = U ? U->rows : 0;
    if (count == 0) {
        if (p) /* (a solve alone writes nothing of fb) */
            fb->n += p;
        return 0;
    }
    size_t we;
    size_t part = batch_part(fb, count, &we);
    qru_ptr dinfo, work, any;
    void *host;
    QRU_TRY(lsq_batch_ws(fb, we, &dinfo, NULL, &work));
    QRU_TRY(lsq_batch_flag(fb, &any, &host));
    for (int b = 0, e; b < count; b = e) {
        e = lsq_batch_run(fb, b, part);
        qru_ptr R = qru_mat_page(fb->R, b), D = qru_mat_page(fb->D, b),
                Xb = qru_mat_page(X, b), ib = qru_ptr_add(dinfo, (size_t)b);
        if (U)
            QRU_TRY(ctx->ops->lsq_batch_add_solve(
                ctx, fb->dt, m, r, p, fb->nr[b] + p, e - b, R, fb->R->ld,
                fb->R->stride, D, fb->D->ld, fb->D->stride,
                qru_ptr_add(fb->H->p, (size_t)b * (size_t)r),
                qru_mat_page(U, b), U->ld, U->stride, qru_mat_page(E, b),
                E->ld, E->stride, Xb, X->ld, X->stride, ib, any, work));
        else
            QRU_TRY(ctx->ops->lsq_batch_solve(
                ctx, fb->dt, m, r, fb->nr[b], e - b, R, fb->R->ld,
                fb->R->stride, D, fb->D->ld, fb->D->stride, Xb, X->ld,
                X->stride, ib, any, work));
    }
    if (p) {
        fb->n += p;
        for (int i = 0; i < count; ++i)
            fb->nr[i] += p;
    }
    return lsq_batch_solved(fb, dinfo, host, info);
}

/* The checks of the solutions' batch X (argument argi). */
static int lsq_batch_check_x(const qru_lsq_batch *fb, int argi,
                             const qru_matrix *X)
{
    QRU_TRY(qru_arg_batch(fb->ctx, argi, "X", X, fb->dt));
    if (X->count != fb->count)
        return qru_fail_arg(argi, "X is a batch of %d matrices, but the "
                                  "factorisations are %d",
                            X->count, fb->count);
    if (X->rows != fb->m || X->cols != fb->r)
        return qru_fail_arg(argi, "X's pages are %d x %d, but they must be "
                                  "m x r = %d x %d",
                            X->rows, X->cols, fb->m, fb->r);
    if (lsq_batch_overlaps(fb, X))
        return qru_fail_arg(argi, "X overlaps the factorisation's storage");
    return 0;
}

int qru_lsq_batch_solve(const qru_lsq_batch *fb, qru_matrix *X, int *info)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_check_x(fb, 2, X));
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_solve)));
    QRU_RET(ctx, lsq_batch_solve((qru_lsq_batch *)fb, NULL, NULL, X, info));
}

int qru_lsq_batch_add_rows_solve(qru_lsq_batch *fb, const qru_matrix *U,
                                 const qru_matrix *e, qru_matrix *X,
                                 int *info)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_CHECK(ctx, lsq_batch_check_rows(fb, 2, U, 3, e, 1));
    QRU_CHECK(ctx, lsq_batch_check_x(fb, 4, X));
    QRU_ARG(ctx, 4, !qru_batch_overlap(X, U) && !qru_batch_overlap(X, e),
            "X overlaps %s", qru_batch_overlap(X, U) ? "U" : "e");
    if (fb->q != QRU_Q_NONE) {
        QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_add_rows_q) |
                                              QRU_OPM(lsq_batch_solve)));
        QRU_CHECK(ctx, lsq_batch_add_rows(fb, U, e, NULL));
        QRU_RET(ctx, lsq_batch_solve(fb, NULL, NULL, X, info));
    }
    QRU_CHECK(ctx, lsq_batch_cplx(fb, QRU_OPM(lsq_batch_add_solve)));
    QRU_RET(ctx, lsq_batch_solve(fb, U, e, X, info));
}

int qru_lsq_batch_residual_norms(const qru_lsq_batch *fb, double *rho)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    qru_context *ctx = fb->ctx;
    QRU_ARG(ctx, 2, rho || fb->count == 0, "rho is NULL");
    if (fb->count == 0)
        QRU_RET(ctx, 0);
    if (lsq_batch_has_q(fb)) { /* the column norms of E, a run at a time */
        for (int b = 0, e; b < fb->count; b = e) {
            e = lsq_batch_run(fb, b, (size_t)INT_MAX / (size_t)fb->r);
            QRU_CHECK(ctx, ctx->ops->col_norms(
                               ctx, fb->dt, fb->nr[b], fb->r * (e - b),
                               qru_mat_page(fb->E, b), fb->ncap,
                               rho + (size_t)b * (size_t)fb->r));
        }
        QRU_RET(ctx, 0);
    }
    int cnt = fb->count * fb->r;
    QRU_CHECK(ctx, qru_chol_read_row(ctx, fb->dt, cnt, fb->H->p, 1, rho));
    for (int i = 0; i < cnt; ++i)
        rho[i] = sqrt(rho[i]);
    QRU_RET(ctx, 0);
}

/* A copy of the storage S into the caller's batch M
 * (argument 2, called name), rows rows of S's pages (0: S's rows; -1:
 * each problem's row count, M's pages of the largest). */
static int lsq_batch_get(const qru_lsq_batch *fb, const qru_matrix *S,
                         qru_matrix *M, const char *name, int rows)
{
    qru_context *ctx = fb->ctx;
    int mr = rows < 0 ? fb->n : S->rows;
    QRU_TRY(qru_arg_batch(ctx, 2, name, M, fb->dt));
    if (M->count != fb->count)
        return qru_fail_arg(2, "%s is a batch of %d matrices, but the "
                               "factorisations are %d",
                            name, M->count, fb->count);
    if (M->rows != mr || M->cols != S->cols)
        return qru_fail_arg(2, "%s's pages are %d x %d, but they must be "
                               "%d x %d",
                            name, M->rows, M->cols, mr, S->cols);
    if (lsq_batch_overlaps(fb, M))
        return qru_fail_arg(2, "%s overlaps the factorisation's storage",
                            name);
    for (int b = 0, e; b < fb->count; b = e) { /* a run a copy */
        e = rows < 0 ? lsq_batch_span(fb, b, NULL, 1) : fb->count;
        QRU_TRY(lsq_batch_pcopy(fb, rows < 0 ? fb->nr[b] : S->rows, S->cols,
                                S, 0, M, 0, b, e));
    }
    return 0;
}

int qru_lsq_batch_get_r(const qru_lsq_batch *fb, qru_matrix *R)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    QRU_RET(fb->ctx, lsq_batch_get(fb, fb->R, R, "R", 0));
}

/* The full form's Q = [Q1 Q2] (q) or d = [d1; d2] into the caller's
 * batch M (argument 2) of pages n x n or n x r (n the most rows of a
 * problem): Q1 or d1 into its first m columns or rows, then the
 * complement's, a run of one row count at a time. */
static int lsq_batch_get_full(const qru_lsq_batch *fb, int q, qru_matrix *M)
{
    qru_context *ctx = fb->ctx;
    const char *name = q ? "Q" : "d";
    int n = fb->n, m = fb->m, cols = q ? n : fb->r;
    QRU_TRY(qru_arg_batch(ctx, 2, name, M, fb->dt));
    if (M->count != fb->count)
        return qru_fail_arg(2, "%s is a batch of %d matrices, but the "
                               "factorisations are %d",
                            name, M->count, fb->count);
    if (M->rows != n || M->cols != cols)
        return qru_fail_arg(2, "%s's pages are %d x %d, but they must be "
                               "%d x %d (QRU_Q_FULL)",
                            name, M->rows, M->cols, n, cols);
    if (lsq_batch_overlaps(fb, M))
        return qru_fail_arg(2, "%s overlaps the factorisation's storage",
                            name);
    for (int b = 0, e; b < fb->count; b = e) { /* a run a copy */
        e = lsq_batch_span(fb, b, NULL, 1);
        int ni = fb->nr[b];
        if (q) {
            QRU_TRY(lsq_batch_pcopy(fb, ni, m, fb->Q, 0, M, 0, b, e));
            if (ni > m)
                QRU_TRY(ctx->ops->geadd_batched(
                    ctx, fb->dt, ni, ni - m, 1.0,
                    qru_ptr_add(qru_mat_page(fb->Q2, b),
                                (size_t)m * (size_t)fb->Q2->ld),
                    fb->Q2->ld, fb->Q2->stride, 0.0,
                    qru_ptr_add(qru_mat_page(M, b),
                                (size_t)m * (size_t)M->ld),
                    M->ld, M->stride, e - b));
        } else {
            QRU_TRY(lsq_batch_pcopy(fb, m, fb->r, fb->D, 0, M, 0, b, e));
            if (ni > m)
                QRU_TRY(lsq_batch_pcopy(fb, ni - m, fb->r, fb->D2, m, M, m,
                                        b, e));
        }
    }
    return 0;
}

int qru_lsq_batch_get_d(const qru_lsq_batch *fb, qru_matrix *d)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    if (fb->q == QRU_Q_FULL)
        QRU_RET(fb->ctx, lsq_batch_get_full(fb, 0, d));
    QRU_RET(fb->ctx, lsq_batch_get(fb, fb->D, d, "d", 0));
}

/* lsq_batch_get of the thin form's Q (q) or E: QRU_ERR_NO_Q without. */
static int lsq_batch_get_thin(const qru_lsq_batch *fb, int q, qru_matrix *M)
{
    if (fb->q == QRU_Q_NONE)
        return qru_fail(QRU_ERR_NO_Q, "the batch is Q-less (QRU_Q_NONE): "
                                      "it holds no %s", q ? "Q" : "E");
    return lsq_batch_get(fb, q ? fb->Q : fb->E, M, q ? "Q" : "E", -1);
}

int qru_lsq_batch_get_q(const qru_lsq_batch *fb, qru_matrix *Q)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    if (fb->q == QRU_Q_FULL)
        QRU_RET(fb->ctx, lsq_batch_get_full(fb, 1, Q));
    QRU_RET(fb->ctx, lsq_batch_get_thin(fb, 1, Q));
}

int qru_lsq_batch_get_residuals(const qru_lsq_batch *fb, qru_matrix *E)
{
    QRU_ARG(NULL, 1, fb, "fb is NULL");
    QRU_RET(fb->ctx, lsq_batch_get_thin(fb, 0, E));
}

int qru_lsq_batch_count(const qru_lsq_batch *fb)
{
    return fb ? fb->count : -1;
}

int qru_lsq_batch_cols(const qru_lsq_batch *fb)
{
    return fb ? fb->m : -1;
}

int qru_lsq_batch_nrhs(const qru_lsq_batch *fb)
{
    return fb ? fb->r : -1;
}

int qru_lsq_batch_q_form(const qru_lsq_batch *fb)
{
    return fb ? fb->q : -1;
}

int qru_lsq_batch_rows(const qru_lsq_batch *fb, int i)
{
    return fb && i >= 0 && i < fb->count ? fb->nr[i] : -1;
}
