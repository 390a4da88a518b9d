/*
 * Blocked Householder QR in the WY form of Andrew (2012), section 3.1:
 * each panel of nb columns is reduced column by column (house + larf), the
 * block reflector P = P_1 ... P_jb = I + W Y' is accumulated (wy_append), and
 * the trailing columns, the right-hand sides and Q are updated with GEMMs.
 * Written once for both precisions against the backend table.
 *
 * Each panel is one panel_qr op: the backend's fused kernel (one launch
 * on the GPU backends) or the reference per-column loop (ref_ops.c).
 *
 * Whole factorisations (qru_qr_factor, qru_lsq_create) may instead run the
 * backend's vendor QR (geqrf_full: LAPACK or cuSOLVER geqrf + ormqr +
 * orgqr); see qru_qr_use_vendor below for when.
 */
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"

size_t qru_geqr_wy_workspace(int n, int m, int nq, int r, int nb)
{
    size_t big = (size_t)nb * (size_t)(m > r ? m : r);
    size_t q = (size_t)nq * (size_t)nb;
    if (q > big)
        big = q;
    if (qru_panel_work(n, nb) > big) /* also >= n (larf, wy_append) */
        big = qru_panel_work(n, nb);
    return 2 * (size_t)n * nb + (size_t)nb + big;
}

int qru_geqr_wy(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, int nq, qru_ptr B, int ldb, int r,
                int nb, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    int kmax = n < m ? n : m;
    if (nb < 1)
        nb = 1;
    qru_ptr Y = ws;
    qru_ptr W = qru_ptr_add(Y, (size_t)n * nb);
    qru_ptr tau = qru_ptr_add(W, (size_t)n * nb);
    qru_ptr work = qru_ptr_add(tau, (size_t)nb);
    for (int i = 0; i < kmax; i += nb) {
        int jb = kmax - i < nb ? kmax - i : nb;
        int rows = n - i;
        int end = i + jb; /* first column after the panel */
        QRU_TRY(o->panel_qr(ctx, dt, rows, jb, qru_ptr_at(A, lda, i, i), lda, Y,
                        n, W, n, tau, work));
        /* trailing columns: A(i:n, end:m) += Y (W' A(i:n, end:m)) */
        if (end < m) {
            int nc = m - end;
            qru_ptr Ai = qru_ptr_at(A, lda, i, end);
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, nc, rows, 1.0, W, n, Ai, lda,
                        0.0, work, jb));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, nc, jb, 1.0, Y, n, work, jb,
                        1.0, Ai, lda));
        }
        /* right-hand sides: B(i:n, :) += Y (W' B(i:n, :)) */
        if (B.h && r > 0) {
            qru_ptr Bi = qru_ptr_at(B, ldb, i, 0);
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, r, rows, 1.0, W, n, Bi, ldb,
                        0.0, work, jb));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, r, jb, 1.0, Y, n, work, jb,
                        1.0, Bi, ldb));
        }
        /* Q(:, i:n) += (Q(:, i:n) W) Y' */
        if (Q.h && nq > 0) {
            qru_ptr Qi = qru_ptr_at(Q, ldq, 0, i);
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', nq, jb, rows, 1.0, Qi, ldq, W, n,
                        0.0, work, nq));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'C', nq, rows, jb, 1.0, work, nq, Y, n,
                        1.0, Qi, ldq));
        }
    }
    return 0;
}

/* ---- whole factorisations: own blocked QR or the vendor's ---------------- */

/* When qru_qr_factor / qru_lsq_create run the backend's geqrf_full instead
 * of qru_geqr_wy:
 *  - only if the backend has it (CPU: LAPACKE, CUDA: cuSOLVER; OpenCL has
 *    no vendor LAPACK) and the caller asked for no block size (nb = 0: "the
 *    fastest"); an explicit nb > 0 asks for qru's own blocked algorithm
 *    with that block size;
 *  - and only where the backend measured it faster: min(n, m) >=
 *    the tuning's geqrf_min_k (0: never by default; the measurements are
 *    in docs/performance.md, "Measurements behind the library's defaults");
 *  - the tuning's qr_vendor (QRU_TUNE_QR_VENDOR) overrides: 1 never uses
 *    the vendor routine, 2 always does when the backend has it (also for
 *    nb > 0); for benchmarks and tests.
 */
int qru_qr_use_vendor(const qru_context *ctx, qru_dtype dt, int n, int m,
                      int nb_asked)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    if (!ctx->ops->geqrf_full || t->qr_vendor == 1)
        return 0;
    if (t->qr_vendor == 2)
        return 1;
    int k = n < m ? n : m;
    return nb_asked == 0 && t->geqrf_min_k > 0 && k >= t->geqrf_min_k;
}

int qru_qr_full_workspace(qru_context *ctx, qru_dtype dt, int n, int m,
                          int withq, int r, int nb, int nb_asked,
                          size_t *elems)
{
    size_t need = qru_geqr_wy_workspace(n, m, withq ? n : 0, r, nb);
    if (n > 0 && m > 0 && qru_qr_use_vendor(ctx, dt, n, m, nb_asked)) {
        qru_ptr none = {0, 0};
        size_t v = 0;
        int st = ctx->table.geqrf_full(ctx, dt, n, m, none, n, none, n, n,
                                       none, n, r, none, &v); /* a query */
        if (st)
            return st;
        if (v > need)
            need = v;
    }
    *elems = need;
    return 0;
}

int qru_qr_full(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, qru_ptr B, int ldb, int r,
                int nb, int nb_asked, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    if (n > 0 && m > 0 && qru_qr_use_vendor(ctx, dt, n, m, nb_asked)) {
        size_t unused = 0;
        return o->geqrf_full(ctx, dt, n, m, A, lda, Q, ldq, n, B, ldb, r, ws,
                             &unused);
    }
    if (Q.h) {
        int st = o->laset(ctx, dt, 'A', n, n, 0.0, 1.0, Q, ldq);
        if (st)
            return st;
    }
    if (n <= 0 || m <= 0)
        return 0;
    return qru_geqr_wy(ctx, dt, n, m, A, lda, Q, ldq, Q.h ? n : 0, B, ldb,
                       B.h ? r : 0, nb, ws);
}

int qru_qr_factor(qru_context *ctx, int nb, qru_matrix *A, qru_matrix *Q,
                  qru_matrix *B)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG(ctx, 2, nb >= 0, "nb = %d, but nb must be >= 0 (0: the tuned "
            "default)", nb);
    QRU_ARG_MAT(ctx, 3, "A", A, A ? A->dtype : QRU_DOUBLE);
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, A, 'A', 'N', 0));
    qru_dtype dt = A->dtype;
    int n = A->rows, m = A->cols;
    if (Q) { /* (Q is output only: not scanned) */
        QRU_ARG_MAT(ctx, 4, "Q", Q, dt);
        QRU_ARG(ctx, 4, Q->rows == n && Q->cols == n,
                "Q is %d x %d, but it must be n x n = %d x %d (A is %d x %d)",
                Q->rows, Q->cols, n, n, n, m);
        QRU_ARG_APART(ctx, 4, "Q", Q, "A", A);
    }
    if (B) {
        QRU_ARG_MAT(ctx, 5, "B", B, dt);
        QRU_ARG(ctx, 5, B->rows == n, "B has %d rows, but A has %d", B->rows,
                n);
        QRU_ARG_APART(ctx, 5, "B", B, "A", A);
        if (Q)
            QRU_ARG_APART(ctx, 5, "B", B, "Q", Q);
    }
    QRU_CHECK(ctx, qru_check_finite(ctx, 5, B, 'A', 'N', 0));
    int nb_asked = nb;
    if (nb == 0)
        nb = qru_ctx_tuning(ctx, dt)->qr_nb;
    int kmax = n < m ? n : m;
    if (nb > kmax)
        nb = kmax > 0 ? kmax : 1;
    qru_ptr ws = {0, 0};
    int r = B ? B->cols : 0;
    if (kmax > 0) { /* take the workspace before touching any output */
        size_t need = 0;
        int st = qru_qr_full_workspace(ctx, dt, n, m, Q != NULL, r, nb,
                                       nb_asked, &need);
        if (!st)
            st = qru_ctx_workspace(ctx, need * qru_dtype_size(dt), &ws);
        QRU_CHECK(ctx, st);
    }
    qru_ptr none = {0, 0};
    QRU_RET(ctx, qru_qr_full(ctx, dt, n, m, A->p, A->ld, Q ? Q->p : none,
                             Q ? Q->ld : 1, B ? B->p : none, B ? B->ld : 1, r,
                             nb, nb_asked, ws));
}

/* ---- the economy factorisation of the thin form (qru_lsq_create) ---- */

int qru_geqr_thin_workspace(qru_context *ctx, qru_dtype dt, int n, int m,
                            int r, int nb, int nb_asked, size_t *elems)
{
    size_t big = (size_t)nb * (size_t)(m > r ? m : r);
    if (qru_panel_work(n, nb) > big)
        big = qru_panel_work(n, nb);
    size_t need = 2 * (size_t)n * (size_t)m + (size_t)nb + big;
    if (n > 0 && m > 0 && qru_qr_use_vendor(ctx, dt, n, m, nb_asked)) {
        qru_ptr none = {0, 0};
        size_t v = 0;
        int st = ctx->table.geqrf_full(ctx, dt, n, m, none, n, none, n, m,
                                       none, n, r, none, &v); /* a query */
        if (st)
            return st;
        v += (size_t)n * ((size_t)m + (size_t)r); /* Q1 and B's copy */
        if (v > need)
            need = v;
    }
    *elems = need;
    return 0;
}

/* The thin QR by the vendor's geqrf + ormqr + orgqr of Q1's m columns:
 * Q1 and a copy of B in ws, then R, D = Q1' B, B := B - Q1 D, A := Q1. */
static int geqr_thin_vendor(qru_context *ctx, qru_dtype dt, int n, int m,
                            qru_ptr A, int lda, qru_ptr R, int ldr, qru_ptr B,
                            int ldb, qru_ptr D, int ldd, int r, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr Q1 = ws, Bs = qru_ptr_add(ws, (size_t)n * m);
    qru_ptr vws = qru_ptr_add(Bs, (size_t)n * r);
    size_t unused = 0;
    if (r > 0)
        QRU_TRY(o->copy(ctx, dt, n, r, B, ldb, Bs, n));
    QRU_TRY(o->geqrf_full(ctx, dt, n, m, A, lda, Q1, n, m, B, ldb, r, vws,
                          &unused));
    QRU_TRY(o->copy(ctx, dt, m, m, A, lda, R, ldr));
    if (r > 0) {
        QRU_TRY(o->copy(ctx, dt, m, r, B, ldb, D, ldd));
        QRU_TRY(o->copy(ctx, dt, n, r, Bs, n, B, ldb));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, r, m, -1.0, Q1, n, D, ldd, 1.0,
                        B, ldb));
    }
    return o->copy(ctx, dt, n, m, Q1, n, A, lda);
}

int qru_geqr_thin(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                  int lda, qru_ptr R, int ldr, qru_ptr B, int ldb, qru_ptr D,
                  int ldd, int r, int nb, int nb_asked, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    if (n > 0 && m > 0 && qru_qr_use_vendor(ctx, dt, n, m, nb_asked))
        return geqr_thin_vendor(ctx, dt, n, m, A, lda, R, ldr, B, ldb, D, ldd,
                                r, ws);
    if (nb < 1)
        nb = 1;
    /* the panels' reflectors stay in Yall, Wall (panel i in the columns
     * i .. i+jb-1, rows i .. n-1 at the top of the column) */
    qru_ptr Yall = ws, Wall = qru_ptr_add(ws, (size_t)n * m);
    qru_ptr tau = qru_ptr_add(Wall, (size_t)n * m);
    qru_ptr work = qru_ptr_add(tau, (size_t)nb);
    for (int i = 0; i < m; i += nb) {
        int jb = m - i < nb ? m - i : nb;
        int rows = n - i;
        qru_ptr Y = qru_ptr_add(Yall, (size_t)i * n);
        qru_ptr W = qru_ptr_add(Wall, (size_t)i * n);
        QRU_TRY(o->panel_qr(ctx, dt, rows, jb, qru_ptr_at(A, lda, i, i), lda,
                            Y, n, W, n, tau, work));
        if (i + jb < m) {
            int nc = m - i - jb;
            qru_ptr Ai = qru_ptr_at(A, lda, i, i + jb);
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, nc, rows, 1.0, W, n, Ai,
                            lda, 0.0, work, jb));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, nc, jb, 1.0, Y, n, work,
                            jb, 1.0, Ai, lda));
        }
        qru_ptr Bi = qru_ptr_add(B, (size_t)i);
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, r, rows, 1.0, W, n, Bi, ldb,
                        0.0, work, jb));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, r, jb, 1.0, Y, n, work, jb,
                        1.0, Bi, ldb));
    }
    /* R, d; then A := [I; 0], B := [0; B(m:n, :)] */
    QRU_TRY(o->copy(ctx, dt, m, m, A, lda, R, ldr));
    if (m > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', m - 1, m - 1, 0.0, 0.0,
                         qru_ptr_add(R, 1), ldr));
    QRU_TRY(o->copy(ctx, dt, m, r, B, ldb, D, ldd));
    QRU_TRY(o->laset(ctx, dt, 'A', n, m, 0.0, 1.0, A, lda));
    QRU_TRY(o->laset(ctx, dt, 'A', m, r, 0.0, 0.0, B, ldb));
    /* Q1 = P_0 P_1 ... [I; 0] and E = P_0 P_1 ... [0; B(m:n, :)]: the
     * panels backwards, X := P_i X = X + W (Y' X) on the rows i .. n-1
     * (the columns of A before i are still e_j there: zero) */
    int last = ((m - 1) / nb) * nb;
    for (int i = last; i >= 0; i -= nb) {
        int jb = m - i < nb ? m - i : nb;
        int rows = n - i;
        qru_ptr Y = qru_ptr_add(Yall, (size_t)i * n);
        qru_ptr W = qru_ptr_add(Wall, (size_t)i * n);
        for (int pass = 0; pass < 2; ++pass) {
            int nc = pass == 0 ? m - i : r;
            qru_ptr X = pass == 0 ? qru_ptr_at(A, lda, i, i)
                                  : qru_ptr_add(B, (size_t)i);
            int ldx = pass == 0 ? lda : ldb;
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, nc, rows, 1.0, Y, n, X,
                            ldx, 0.0, work, jb));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, nc, jb, 1.0, W, n, work,
                            jb, 1.0, X, ldx));
        }
    }
    return 0;
}
