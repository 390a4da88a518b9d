/*
 * Updates of a Cholesky factor instead of a refactorisation: rank-k update
 * and downdate, insertion and deletion of a block of rows and columns of
 * the factored matrix (adding / removing data points of a Gaussian
 * process).  Written once for the four element types against the backend
 * table (' the conjugate transpose; the structured rank-1 and rank-k
 * passes are real only, and complex data takes the rotations).
 *
 * Every routine computes the changed part of the factor in workspace and
 * writes the result only after reading the failure information, so a call
 * that fails leaves the factor unchanged bit for bit.  The algorithms work
 * on a lower factor; an upper factor U = L' is transposed into workspace
 * and back.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"

/* ---- diagonal of the factored matrix for the definiteness rule -------- */

/* Rows per block of qru_chol_rowsq: about 2^20 elements of workspace
 * (c b for the transposed rows, b^2 <= 2^18 for the diagonal block), at
 * least 32 rows (bounded syncs), at most n. */
static int rowsq_block(int n, int c)
{
    long b = (1L << 20) / (c > 0 ? c : 1);
    if (b > 512)
        b = 512;
    if (b < 32)
        b = 32;
    if (b > n)
        b = n;
    return b < 1 ? 1 : (int)b;
}

size_t qru_chol_rowsq_ws(int n, int c)
{
    size_t b = (size_t)rowsq_block(n, c);
    return qru_chol_align((size_t)(c > 0 ? c : 1) * b) + b * b;
}

/* Each row block is transposed into Wt (c x ib, ld c) and its column
 * norms taken; for a lower factor the block's columns left of the
 * diagonal block are transposed as they are and the diagonal block's
 * lower triangle goes through the zeroed Z (ib x ib), so that the
 * unreferenced triangle is never read. */
int qru_chol_rowsq(qru_context *ctx, qru_dtype dt, int n, int c, int lower,
                   qru_ptr A, int lda, qru_ptr ws, double *out)
{
    if (n <= 0)
        return 0;
    if (c <= 0) {
        for (int i = 0; i < n; ++i)
            out[i] = 0.0;
        return 0;
    }
    const qru_backend_ops *o = ctx->ops;
    int b = rowsq_block(n, c);
    qru_ptr Wt = ws, Z = qru_ptr_add(ws, qru_chol_align((size_t)c * b));
    double *nrm = malloc(sizeof(double) * (size_t)b);
    if (!nrm)
        return QRU_HOST_ALLOC_FAILED;
    int st = 0;
    for (int i0 = 0; !st && i0 < n; i0 += b) {
        int ib = n - i0 < b ? n - i0 : b;
        int w = lower ? i0 : c; /* columns read in full */
        if (w > 0)
            st = o->transpose(ctx, dt, ib, w, qru_ptr_at(A, lda, i0, 0), lda,
                              Wt, c);
        if (lower) {
            if (!st)
                st = o->laset(ctx, dt, 'A', ib, ib, 0.0, 0.0, Z, ib);
            if (!st)
                st = o->lacpy(ctx, dt, 'L', ib, ib,
                              qru_ptr_at(A, lda, i0, i0), lda, Z, ib);
            if (!st)
                st = o->transpose(ctx, dt, ib, ib, Z, ib,
                                  qru_ptr_at(Wt, c, i0, 0), c);
            w = i0 + ib;
        }
        if (!st)
            st = o->col_norms(ctx, dt, w, ib, Wt, c, nrm);
        for (int t = 0; !st && t < ib; ++t)
            out[i0 + t] = nrm[t] * nrm[t];
    }
    free(nrm);
    return st;
}

/* ---- lower-factor kernels of the algorithm layer --------------------- */

/* Workspace: the head of qru_chol_verdict_gathered (n+1: the new factor's
 * pivots, then info), T (n x n), the copy of W (n x k), then the blocks of
 * qru_chol_rowsq for A1's diagonal. */
size_t qru_chol_update_lower_ws(int n, int k)
{
    size_t a = qru_chol_rowsq_ws(n, n), b = qru_chol_rowsq_ws(n, k);
    return qru_chol_verdict_head(n) + qru_chol_align((size_t)n * n) +
           qru_chol_align((size_t)n * (size_t)k) + (a > b ? a : b);
}

/* A1 = L L' + sign W W' has the diagonal ||L(i,:)||^2 + sign ||W(i,:)||^2,
 * evaluated before the rotations (the rule judges also the columns
 * before a failed rotation). */
int qru_chol_update_lower(qru_context *ctx, qru_dtype dt, int n, int k,
                          int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                          qru_ptr L1, int ld1, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr head = ws, info = qru_ptr_add(ws, (size_t)n);
    qru_ptr T = qru_ptr_add(ws, qru_chol_verdict_head(n));
    qru_ptr Wd = qru_ptr_add(T, qru_chol_align((size_t)n * n));
    qru_ptr R = qru_ptr_add(Wd, qru_chol_align((size_t)n * (size_t)k));
    int ldt = n > 0 ? n : 1;
    double *adiag = malloc(sizeof(double) * (size_t)(2 * n + 1));
    if (!adiag)
        return QRU_HOST_ALLOC_FAILED;
    int st = qru_chol_rowsq(ctx, dt, n, n, 1, L, ldl, R, adiag);
    if (!st)
        st = qru_chol_rowsq(ctx, dt, n, k, 0, W, ldw, R, adiag + n);
    for (int i = 0; !st && i < n; ++i)
        adiag[i] += sign * adiag[n + i];
    if (!st)
        st = qru_chol_info_zero(ctx, dt, info);
    if (!st)
        st = o->lacpy(ctx, dt, 'L', n, n, L, ldl, T, ldt);
    if (!st && k > 0) /* (k = 0: the factor is L, judged all the same) */
        st = o->copy(ctx, dt, n, k, W, ldw, Wd, ldt);
    if (!st && k > 0)
        st = o->chol_rot(ctx, dt, n, k, sign, T, ldt, Wd, ldt, info, 0);
    /* T's pivots and info: one read-back (into adiag + n: n + 1) */
    if (!st)
        st = qru_chol_verdict_gathered(ctx, dt, n, adiag, adiag + n, n, T,
                                       ldt + 1, T, ldt + 1, head);
    free(adiag);
    if (st)
        return st;
    return o->lacpy(ctx, dt, 'L', n, n, T, ldt, L1, ld1);
}

/* The workspace of the structured update, carved for order n and rank k:
 * the verdict's head (2n+1: the new pivots, info, A1's diagonal),
 * P = L \ W (n x k) and prep's work. */
typedef struct r1_ws {
    qru_ptr head, info, adiag, p, work;
} r1_ws;
static r1_ws r1_carve(qru_ptr ws, int n, int k)
{
    r1_ws w;
    w.head = ws;
    w.info = qru_ptr_add(ws, (size_t)n);
    w.adiag = qru_ptr_add(ws, (size_t)n + 1);
    w.p = qru_ptr_add(ws, qru_chol_align(2 * (size_t)n + 1));
    w.work = qru_ptr_add(w.p, qru_chol_align((size_t)n * (size_t)k));
    return w;
}

size_t qru_chol_update_r1_ws(int n, int k)
{
    return qru_chol_align(2 * (size_t)n + 1) +
           qru_chol_align((size_t)n * (size_t)k) +
           qru_chol_align(qru_chol_r1_work(n, k));
}

/* The pass of qru_chol_update_r1 on the leading n x n block of L and W's
 * first n rows, up to the verdict's values in h (2n+1) and *info; nothing
 * is written to L. */
static int r1_pass(qru_context *ctx, qru_dtype dt, char uplo, int n, int k,
                   int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                   qru_ptr ws, double *h, int *info)
{
    const qru_backend_ops *o = ctx->ops;
    r1_ws w = r1_carve(ws, n, k);
    QRU_TRY(qru_chol_info_zero(ctx, dt, w.info));
    if (k == 1) { /* p = L \ w and the prep in one op */
        QRU_TRY(o->chol_r1_solve_prep(ctx, dt, uplo, n, sign, L, ldl, W,
                                      w.p, w.work, w.head, w.adiag, w.info,
                                      0));
        return qru_chol_verdict_read(ctx, dt, n, w.head, h, info);
    }
    /* P = L \ W (for an upper factor U' \ W), one solve for all k */
    QRU_TRY(o->copy(ctx, dt, n, k, W, ldw, w.p, n));
    QRU_TRY(o->trsm(ctx, dt, 'L', uplo, uplo == 'L' ? 'N' : 'C', 'N', n, k,
                    1.0, L, ldl, w.p, n));
    QRU_TRY(o->chol_r1_prep(ctx, dt, uplo, n, k, sign, L, ldl, w.p, n, k, W,
                            ldw, w.work, w.head, w.adiag, w.info, 0));
    return qru_chol_verdict_read(ctx, dt, n, w.head, h, info);
}

/* A non-finite row r of L or W (A1(r,r) not finite) reaches P through
 * the solve, whose blocked kernels may spread it to the entries before
 * r; the columns before r are then judged by the pass on the leading
 * r x r block, whose rows are finite. */
int qru_chol_update_r1(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       int k, int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                       qru_ptr L1, int ld1, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    double *h = malloc(sizeof(double) * 2 * (2 * (size_t)n + 1));
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    double *h2 = h + 2 * (size_t)n + 1, *adiag = h + n + 1;
    int info = 0, info2 = 0, r = 0;
    int st = r1_pass(ctx, dt, uplo, n, k, sign, L, ldl, W, ldw, ws, h, &info);
    while (!st && r < n && isfinite(adiag[r]))
        ++r;
    if (!st && r < n) {
        if (r > 0)
            st = r1_pass(ctx, dt, uplo, r, k, sign, L, ldl, W, ldw, ws, h2,
                         &info2);
        if (!st)
            st = qru_chol_judge(dt, n, adiag, h2, info2 ? info2 : r + 1);
    } else if (!st) {
        st = qru_chol_judge(dt, n, adiag, h, info);
    }
    free(h);
    if (st)
        return st;
    r1_ws w = r1_carve(ws, n, k);
    return o->chol_r1_apply(ctx, dt, uplo, n, k, L, ldl, L1, ld1, w.p, n,
                            w.work);
}

/* Workspace of the insertion: the head of qru_chol_verdict_gathered
 * (n+p+1: the new factor's pivots, then info), M ((n+p-k) x (n+p)): the
 * new rows k..n+p-1 of L1, the downdate vectors ((n-k) x p) and S1
 * (k x p). */
size_t qru_chol_insert_lower_ws(int n, int k, int p)
{
    size_t m = (size_t)(n + p - k);
    return qru_chol_verdict_head(n + p) +
           qru_chol_align(m * (size_t)(n + p)) +
           qru_chol_align((size_t)(n - k) * (size_t)p) + (size_t)k * p;
}

/*
 * With A = L L' partitioned at k and the new columns C = [C1; C2; C3]
 * (k, p and n-k rows), the factor of the enlarged matrix is
 *   L1 = [L11 0 0; S1' S2 0; L21 S3 L22n]  with
 *   S1 = L11 \ C1,  S2 S2' = C2 - S1' S1,  S3 = (C3 - L21 S1) / S2',
 *   L22n L22n' = L22 L22' - S3 S3'   (a rank-p downdate).
 */
int qru_chol_insert_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr C, int ldc, char c2uplo,
                          qru_ptr L1, int ld1, int nb, qru_ptr ws,
                          const double *adiag, double *piv)
{
    const qru_backend_ops *o = ctx->ops;
    int m = n + p - k; /* rows of L1 that change: k .. n+p-1 */
    int q = n - k;     /* old rows after the insertion point */
    qru_ptr head = ws, info = qru_ptr_add(ws, (size_t)(n + p));
    qru_ptr M = qru_ptr_add(ws, qru_chol_verdict_head(n + p));
    qru_ptr Wd = qru_ptr_add(M, qru_chol_align((size_t)m * (n + p)));
    qru_ptr S1 = qru_ptr_add(Wd, qru_chol_align((size_t)(n - k) * p)); /* k x p */
    qru_ptr S1t = M;                          /* p x k   */
    qru_ptr S2 = qru_ptr_at(M, m, 0, k);      /* p x p   */
    qru_ptr L21 = qru_ptr_at(M, m, p, 0);     /* q x k   */
    qru_ptr S3 = qru_ptr_at(M, m, p, k);      /* q x p   */
    qru_ptr L22 = qru_ptr_at(M, m, p, k + p); /* q x q   */
    int ldw = q > 0 ? q : 1;

    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    /* S1 = L11 \ C1 (a left solve: for p = 1 a plain trsv), S1' into M */
    int ldk = k > 0 ? k : 1;
    QRU_TRY(o->copy(ctx, dt, k, p, C, ldc, S1, ldk));
    QRU_TRY(o->trsm(ctx, dt, 'L', 'L', 'N', 'N', k, p, 1.0, L, ldl, S1, ldk));
    QRU_TRY(o->transpose(ctx, dt, k, p, S1, ldk, S1t, m));
    /* S2 = chol(C2 - S1' S1) */
    if (c2uplo == 'L')
        QRU_TRY(o->lacpy(ctx, dt, 'L', p, p, qru_ptr_at(C, ldc, k, 0), ldc, S2,
                     m));
    else
        QRU_TRY(o->transpose(ctx, dt, p, p, qru_ptr_at(C, ldc, k, 0), ldc, S2,
                         m));
    QRU_TRY(o->syrk(ctx, dt, 'L', 'N', p, k, -1.0, S1t, m, 1.0, S2, m));
    QRU_TRY(qru_potrf_run(ctx, dt, 'L', p, S2, m, QRU_CHOL_LEFT,
                      qru_chol_nb(ctx, dt, nb, p), info, k));
    if (q > 0) {
        /* S3 = (C3 - L21 S1) / S2' */
        QRU_TRY(o->copy(ctx, dt, q, k, qru_ptr_at(L, ldl, k, 0), ldl, L21, m));
        QRU_TRY(o->copy(ctx, dt, q, p, qru_ptr_at(C, ldc, k + p, 0), ldc, S3,
                    m));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', q, p, k, -1.0, L21, m, S1, ldk, 1.0,
                    S3, m));
        QRU_TRY(o->trsm(ctx, dt, 'R', 'L', 'C', 'N', q, p, 1.0, S2, m, S3, m));
        /* L22n: rank-p downdate of L22 by S3 */
        QRU_TRY(o->lacpy(ctx, dt, 'L', q, q, qru_ptr_at(L, ldl, k, k), ldl, L22,
                     m));
        QRU_TRY(o->copy(ctx, dt, q, p, S3, m, Wd, ldw));
        QRU_TRY(o->chol_rot(ctx, dt, q, p, -1, L22, m, Wd, ldw, info, k + p));
    }
    /* the pivots (L11's, then M(i, k+i)) and info: one read-back */
    QRU_TRY(qru_chol_verdict_gathered(ctx, dt, n + p, adiag, piv, k, L,
                                      ldl + 1, S2, m + 1, head));
    /* commit: rows k.. of L1 from M; L11 unless updating in place */
    if (!qru_mem_same_start(ctx, qru_dtype_size(dt), L, ldl, L1, ld1))
        QRU_TRY(o->lacpy(ctx, dt, 'L', k, k, L, ldl, L1, ld1));
    QRU_TRY(o->copy(ctx, dt, m, k, M, m, qru_ptr_at(L1, ld1, k, 0), ld1));
    return o->lacpy(ctx, dt, 'L', m, n + p - k, S2, m,
                    qru_ptr_at(L1, ld1, k, k), ld1);
}

/* Workspace of the deletion: the head of qru_chol_verdict_gathered
 * (n-p+1: the new factor's pivots, then info), T (q x q) and the update
 * vectors (q x p), q = n-k-p. */
size_t qru_chol_delete_lower_ws(int n, int k, int p)
{
    size_t q = (size_t)(n - k - p);
    return qru_chol_verdict_head(n - p) + qru_chol_align(q * q) +
           q * (size_t)p;
}

/*
 * With L = [L11 0 0; L21 L22 0; L31 L32 L33] (k, p, q = n-k-p rows), the
 * factor without the middle block is [L11 0; L31 L33n] with
 * L33n L33n' = L33 L33' + L32 L32'  (a rank-p update).
 */
int qru_chol_delete_lower(qru_context *ctx, qru_dtype dt, int n, int k, int p,
                          qru_ptr L, int ldl, qru_ptr L1, int ld1, qru_ptr ws,
                          const double *adiag, double *piv)
{
    const qru_backend_ops *o = ctx->ops;
    int q = n - k - p;
    int ldq = q > 0 ? q : 1;
    qru_ptr head = ws, info = qru_ptr_add(ws, (size_t)(n - p));
    qru_ptr T = qru_ptr_add(ws, qru_chol_verdict_head(n - p));
    qru_ptr Wd = qru_ptr_add(T, qru_chol_align((size_t)q * q));
    int same = qru_mem_same_start(ctx, qru_dtype_size(dt), L, ldl, L1, ld1);
    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    if (p == 0) { /* nothing removed: the new factor is L, judged */
        QRU_TRY(qru_chol_verdict_gathered(ctx, dt, n, adiag, piv, n, L,
                                          ldl + 1, L, ldl + 1, head));
        return same ? 0 : o->lacpy(ctx, dt, 'L', n, n, L, ldl, L1, ld1);
    }
    if (q > 0) {
        QRU_TRY(o->lacpy(ctx, dt, 'L', q, q, qru_ptr_at(L, ldl, k + p, k + p),
                     ldl, T, ldq));
        QRU_TRY(o->copy(ctx, dt, q, p, qru_ptr_at(L, ldl, k + p, k), ldl, Wd,
                    ldq));
        QRU_TRY(o->chol_rot(ctx, dt, q, p, 1, T, ldq, Wd, ldq, info, k));
    }
    /* the pivots (L11's, then L33n's) and info: one read-back */
    QRU_TRY(qru_chol_verdict_gathered(ctx, dt, n - p, adiag, piv, k, L,
                                      ldl + 1, T, ldq + 1, head));
    if (!same)
        QRU_TRY(o->lacpy(ctx, dt, 'L', k, k, L, ldl, L1, ld1));
    if (q == 0)
        return 0;
    /* L31 moves up by p rows (an overlapping copy towards the start when
     * in place, which the copy op allows) */
    QRU_TRY(o->copy(ctx, dt, q, k, qru_ptr_at(L, ldl, k + p, 0), ldl,
                qru_ptr_at(L1, ld1, k, 0), ld1));
    return o->lacpy(ctx, dt, 'L', q, q, T, ldq, qru_ptr_at(L1, ld1, k, k),
                    ld1);
}

/* ---- public API ------------------------------------------------------- */

int qru_chol_out_ok(const qru_matrix *L, const qru_matrix *L1)
{
    return qru_mat_same_start(L, L1) || !qru_mat_overlap(L, L1);
}

/* L1 (6) is L's array (the same first element and leading dimension:
 * updated in place) or shares no memory with it. */
#define QRU_ARG_L1_OF_L(ctx, L, L1)                                            \
    QRU_ARG((ctx), 6, qru_chol_out_ok((L), (L1)),                              \
            "L1 overlaps L but does not start at L's first element with L's "  \
            "leading dimension")

/* Upper factor: Lt = U' in workspace (n x n, ld n). */
static int chol_update(qru_context *ctx, char uplo, const qru_matrix *L,
                       const qru_matrix *W, int sign, qru_matrix *L1)
{
    qru_dtype dt = L->dtype;
    int n = L->rows;
    int k = W->cols;
    if (n == 0)
        return 0;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt);
    qru_ptr ws;
    if (k >= 1 && k <= qru_ctx_tuning(ctx, dt)->chol_r1_max_k &&
        !qru_dtype_complex(dt)) { /* (the passes are real only) */
        QRU_TRY(qru_ctx_workspace(ctx, qru_chol_update_r1_ws(n, k) * es, &ws));
        return qru_chol_update_r1(ctx, dt, uplo, n, k, sign, L->p, L->ld,
                                  W->p, W->ld, L1->p, L1->ld, ws);
    }
    size_t nn = qru_chol_align((size_t)n * n);
    size_t extra = uplo == 'U' ? 2 * nn : 0;
    QRU_TRY(qru_ctx_workspace(ctx, (extra + qru_chol_update_lower_ws(n, k)) * es,
                          &ws));
    if (uplo == 'L')
        return qru_chol_update_lower(ctx, dt, n, k, sign, L->p, L->ld, W->p,
                                     W->ld, L1->p, L1->ld, ws);
    qru_ptr Lt = ws, Ut = qru_ptr_add(ws, nn), rest = qru_ptr_add(ws, extra);
    QRU_TRY(o->transpose(ctx, dt, n, n, L->p, L->ld, Lt, n));
    QRU_TRY(qru_chol_update_lower(ctx, dt, n, k, sign, Lt, n, W->p, W->ld, Lt, n,
                              rest));
    QRU_TRY(o->transpose(ctx, dt, n, n, Lt, n, Ut, n));
    return o->lacpy(ctx, dt, 'U', n, n, Ut, n, L1->p, L1->ld);
}

int qru_chol_update(qru_context *ctx, char uplo, const qru_matrix *L,
                    const qru_matrix *W, int sign, qru_matrix *L1)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");
    QRU_CHECK(ctx, qru_arg_square(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, L, uplo, 'N', 0));
    QRU_ARG_MAT(ctx, 4, "W", W, L->dtype);
    QRU_ARG(ctx, 4, W->rows == L->rows, "W has %d rows, but L's order is %d",
            W->rows, L->rows);
    QRU_ARG_APART(ctx, 4, "W", W, "L", L);
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, W, 'A', 'N', 0));
    QRU_ARG(ctx, 5, sign == 1 || sign == -1,
            "sign = %d, but it must be +1 (update) or -1 (downdate)", sign);
    QRU_ARG_MAT(ctx, 6, "L1", L1, L->dtype);
    QRU_ARG(ctx, 6, L1->rows == L->rows && L1->cols == L->rows,
            "L1 is %d x %d, but it must be n x n = %d x %d", L1->rows,
            L1->cols, L->rows, L->rows);
    QRU_ARG_APART(ctx, 6, "L1", L1, "W", W);
    QRU_ARG_L1_OF_L(ctx, L, L1);
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype, QRU_CHOL_UPDATE_OPS));
    QRU_RET(ctx, chol_update(ctx, uplo, L, W, sign, L1));
}

static int chol_insert(qru_context *ctx, char uplo, const qru_matrix *L,
                       int k, const qru_matrix *C, qru_matrix *L1)
{
    qru_dtype dt = L->dtype;
    int n = L->rows;
    int p = C->cols;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt);
    int nb = qru_chol_nb(ctx, dt, 0, p), upper = uplo == 'U';
    int n1 = n + p, ldn = n > 0 ? n : 1;
    /* upper: U' and the new factor's transpose in workspace; then the
     * region of the lower algorithm, which first computes A1's diagonal */
    size_t nn = upper ? qru_chol_align((size_t)n * n) : 0;
    size_t mm = upper ? qru_chol_align((size_t)n1 * n1) : 0;
    size_t low = qru_chol_insert_lower_ws(n, k, p),
           rq = qru_chol_rowsq_ws(n, n);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, (nn + 2 * mm + (low > rq ? low : rq)) * es,
                          &ws));
    qru_ptr Lt = ws, L1t = qru_ptr_add(ws, nn), U1t = qru_ptr_add(L1t, mm);
    qru_ptr rest = qru_ptr_add(U1t, mm);
    qru_ptr Lf = L->p;
    int ldf = L->ld;
    if (upper) {
        QRU_TRY(o->transpose(ctx, dt, n, n, L->p, L->ld, Lt, ldn));
        Lf = Lt;
        ldf = ldn;
    }
    /* A1's diagonal: A's (rows of the factor), C2's inserted at k; then
     * n1 + 1 doubles of scratch for the verdict */
    double *adiag = malloc(sizeof(double) * 2 * (size_t)(n1 + 1));
    if (!adiag)
        return QRU_HOST_ALLOC_FAILED;
    int st = qru_chol_rowsq(ctx, dt, n, n, 1, Lf, ldf, rest, adiag);
    if (!st) {
        memmove(adiag + k + p, adiag + k, sizeof(double) * (size_t)(n - k));
        st = qru_chol_read_row(ctx, dt, p, qru_ptr_at(C->p, C->ld, k, 0),
                               C->ld + 1, adiag + k);
    }
    if (!st)
        st = qru_chol_insert_lower(ctx, dt, n, k, p, Lf, ldf, C->p, C->ld,
                                   uplo, upper ? L1t : L1->p,
                                   upper ? n1 : L1->ld, nb, rest, adiag,
                                   adiag + n1 + 1);
    free(adiag);
    if (st || !upper)
        return st;
    QRU_TRY(o->transpose(ctx, dt, n1, n1, L1t, n1, U1t, n1));
    return o->lacpy(ctx, dt, 'U', n1, n1, U1t, n1, L1->p, L1->ld);
}

/* ctx (1), uplo (2), the square factor L (3; its uplo triangle scanned
 * with QRU_OPTION_CHECK_FINITE) and the position k (4) of qru_chol_insert
 * and qru_chol_delete */
#define QRU_ARG_CHOL_UPLO_L_K(ctx, uplo, L, k)                                 \
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");                                      \
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");                                  \
    QRU_CHECK(ctx, qru_arg_square(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE)); \
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, L, uplo, 'N', 0));                 \
    QRU_ARG(ctx, 4, k >= 0 && k <= L->rows,                                    \
            "k = %d, but 0 <= k <= n = %d must hold (n: L's order)", k,        \
            L->rows)

int qru_chol_insert(qru_context *ctx, char uplo, const qru_matrix *L, int k,
                    const qru_matrix *C, qru_matrix *L1)
{
    QRU_ARG_CHOL_UPLO_L_K(ctx, uplo, L, k);
    qru_dtype dt = L->dtype;
    int n = L->rows;
    QRU_ARG_MAT(ctx, 5, "C", C, dt);
    QRU_ARG(ctx, 5, C->cols >= 1 && C->rows == n + C->cols,
            "C is %d x %d, but it must be (n + p) x p with p >= 1 (n = %d)",
            C->rows, C->cols, n);
    QRU_ARG_APART(ctx, 5, "C", C, "L", L);
    QRU_CHECK(ctx, qru_check_finite(ctx, 5, C, uplo, 'N', k));
    int p = C->cols;
    QRU_ARG_MAT(ctx, 6, "L1", L1, dt);
    QRU_ARG(ctx, 6, L1->rows == n + p && L1->cols == n + p,
            "L1 is %d x %d, but it must be (n + p) x (n + p) = %d x %d",
            L1->rows, L1->cols, n + p, n + p);
    QRU_ARG_APART(ctx, 6, "L1", L1, "C", C);
    QRU_ARG_L1_OF_L(ctx, L, L1);
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, dt, QRU_CHOL_UPDATE_OPS));
    QRU_RET(ctx, chol_insert(ctx, uplo, L, k, C, L1));
}

static int chol_delete(qru_context *ctx, char uplo, const qru_matrix *L,
                       int k, int p, qru_matrix *L1)
{
    qru_dtype dt = L->dtype;
    int n = L->rows;
    int n1 = n - p;
    if (n == 0)
        return 0;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt);
    int upper = uplo == 'U';
    /* upper: U' (deleted from in place) and the result's transpose in
     * workspace; then the region of the lower algorithm, which first
     * computes A1's diagonal */
    size_t nn = upper ? qru_chol_align((size_t)n * n) : 0;
    size_t low = qru_chol_delete_lower_ws(n, k, p),
           rq = qru_chol_rowsq_ws(n, n);
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, (2 * nn + (low > rq ? low : rq)) * es, &ws));
    qru_ptr Lt = ws, Ut = qru_ptr_add(ws, nn), rest = qru_ptr_add(Ut, nn);
    qru_ptr Lf = L->p;
    int ldf = L->ld;
    if (upper) {
        QRU_TRY(o->transpose(ctx, dt, n, n, L->p, L->ld, Lt, n));
        Lf = Lt;
        ldf = n;
    }
    /* A1's diagonal: A's (rows of the factor) without rows k..k+p-1;
     * then n + 1 doubles of scratch for the verdict (n - p + 1 used) */
    double *adiag = malloc(sizeof(double) * 2 * (size_t)(n + 1));
    if (!adiag)
        return QRU_HOST_ALLOC_FAILED;
    int st = qru_chol_rowsq(ctx, dt, n, n, 1, Lf, ldf, rest, adiag);
    if (!st) {
        memmove(adiag + k, adiag + k + p,
                sizeof(double) * (size_t)(n - k - p));
        /* upper: delete within Lt in place (ld n), result n1 x n1 at Lt */
        st = qru_chol_delete_lower(ctx, dt, n, k, p, Lf, ldf,
                                   upper ? Lt : L1->p, upper ? n : L1->ld,
                                   rest, adiag, adiag + n + 1);
    }
    free(adiag);
    if (st || !upper)
        return st;
    QRU_TRY(o->transpose(ctx, dt, n1, n1, Lt, n, Ut, n1 > 0 ? n1 : 1));
    return o->lacpy(ctx, dt, 'U', n1, n1, Ut, n1 > 0 ? n1 : 1, L1->p, L1->ld);
}

int qru_chol_delete(qru_context *ctx, char uplo, const qru_matrix *L, int k,
                    int p, qru_matrix *L1)
{
    QRU_ARG_CHOL_UPLO_L_K(ctx, uplo, L, k);
    qru_dtype dt = L->dtype;
    int n = L->rows;
    QRU_ARG(ctx, 5, p >= 0, "p = %d, but p must be >= 0", p);
    QRU_ARG(ctx, 5, p <= n - k,
            "p = %d, but k + p must be <= n = %d (k = %d)", p, n, k);
    int n1 = n - p;
    QRU_ARG_MAT(ctx, 6, "L1", L1, dt);
    QRU_ARG(ctx, 6, L1->rows == n1 && L1->cols == n1,
            "L1 is %d x %d, but it must be (n - p) x (n - p) = %d x %d",
            L1->rows, L1->cols, n1, n1);
    QRU_ARG_L1_OF_L(ctx, L, L1);
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, dt, QRU_CHOL_UPDATE_OPS));
    QRU_RET(ctx, chol_delete(ctx, uplo, L, k, p, L1));
}
