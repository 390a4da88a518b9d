/*
 * Cholesky factorisation and triangular solves, written once for the four
 * element types against the backend table (' the conjugate transpose: a
 * complex A = L L' is Hermitian; 'C' is 'T' for the real types).
 *
 * The blocked algorithms follow the two schemes of the Cholesky study in the
 * seed documents (the "in-place" right-looking algorithm and the
 * Cholesky-Crout column algorithm), blocked so that almost all of the work
 * is in syrk / gemm / trsm and the unblocked part is ONE fused backend call
 * (potrf_panel) per diagonal block.  Nothing is read back to the host until
 * the end, when the failure information (kept in device memory) is read.
 */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"

int qru_chol_ops_check(const qru_context *ctx)
{
    const qru_backend_ops *o = ctx->ops;
    if (o->syrk && o->lacpy && o->potrf_panel && o->chol_rot && o->gemm &&
        o->trsm && o->copy && o->transpose && o->laset)
        return 0;
    return qru_fail(QRU_ERR_UNSUPPORTED, "the %s backend lacks the Cholesky "
                                         "ops", qru_backend_name(ctx->backend));
}

int qru_chol_nb(const qru_context *ctx, qru_dtype dt, int nb, int n)
{
    if (nb == 0)
        nb = qru_ctx_tuning(ctx, dt)->chol_nb;
    if (nb > n)
        nb = n;
    return nb < 1 ? 1 : nb;
}

/* The value of an info slot read back: a dry run's reads (src/plan.c)
 * report success. */
static int info_value(const qru_context *ctx, double v)
{
    return qru_plan_healthy_info(ctx) ? 0 : (int)v;
}

int qru_chol_info_zero(qru_context *ctx, qru_dtype dt, qru_ptr info)
{
    return ctx->ops->laset(ctx, dt, 'A', 1, 1, 0.0, 0.0, info, 1);
}

int qru_chol_info_read(qru_context *ctx, qru_dtype dt, qru_ptr info,
                       int *val)
{
    int st;
    if (dt == QRU_DOUBLE) {
        double v = 0.0;
        st = ctx->ops->download(ctx, dt, 1, 1, info, 1, &v, 1);
        *val = (int)v;
    } else if (dt == QRU_FLOAT) {
        float v = 0.0f;
        st = ctx->ops->download(ctx, dt, 1, 1, info, 1, &v, 1);
        *val = (int)v;
    } else { /* a complex element: its real part */
        double v[2] = {0.0, 0.0};
        float fv;
        st = ctx->ops->download(ctx, dt, 1, 1, info, 1, v, 1);
        memcpy(&fv, v, sizeof fv);
        *val = dt == QRU_COMPLEX_DOUBLE ? (int)v[0] : (int)fv;
    }
    *val = info_value(ctx, *val);
    return st;
}

int qru_chol_read_row(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr src,
                      int stride, double *out)
{
    if (cnt <= 0)
        return 0;
    if (qru_dtype_complex(dt)) { /* the moduli */
        void *t = malloc(qru_dtype_size(dt) * (size_t)cnt);
        if (!t)
            return QRU_HOST_ALLOC_FAILED;
        int st = ctx->ops->download(ctx, dt, 1, cnt, src, stride, t, 1);
        for (int i = 0; !st && i < cnt; ++i)
            out[i] = dt == QRU_COMPLEX_DOUBLE
                         ? hypot(((double *)t)[2 * i], ((double *)t)[2 * i + 1])
                         : hypot(((float *)t)[2 * i], ((float *)t)[2 * i + 1]);
        free(t);
        return st;
    }
    if (dt == QRU_DOUBLE)
        return ctx->ops->download(ctx, dt, 1, cnt, src, stride, out, 1);
    float *t = (float *)out; /* cnt floats fit in cnt doubles */
    int st = ctx->ops->download(ctx, dt, 1, cnt, src, stride, t, 1);
    for (int i = cnt - 1; !st && i >= 0; --i)
        out[i] = t[i];
    return st;
}

/* ---- the definiteness rule (documented once, in qru.h) ----------------- */

int qru_chol_judge(qru_dtype dt, int n, const double *adiag,
                   const double *ldiag, int info)
{
    double amax = 0.0;
    for (int i = 0; i < n; ++i)
        if (isfinite(adiag[i]) && adiag[i] > amax)
            amax = adiag[i];
    double tol = (double)n * (dt == QRU_FLOAT ? FLT_EPSILON : DBL_EPSILON) *
                 amax;
    int cnt = info > 0 ? info - 1 : n;
    for (int j = 0; j < cnt; ++j) {
        double d = ldiag[j] * ldiag[j];
        if (!isfinite(adiag[j]) || !isfinite(d) || d <= tol)
            return qru_fail(j + 1, "not positive definite at column %d: the "
                                   "pivot %g must be > n * eps * max(diag) "
                                   "= %g",
                            j + 1, d, tol);
    }
    if (info > 0)
        return qru_fail(info, "not positive definite at column %d: the "
                              "pivot is not positive (or not finite)",
                        info);
    return 0;
}

int qru_chol_verdict_gathered(qru_context *ctx, qru_dtype dt, int n,
                              const double *adiag, double *h, int n0,
                              qru_ptr P0, int s0, qru_ptr P1, int s1,
                              qru_ptr head)
{
    const qru_backend_ops *o = ctx->ops;
    if (n0 > 0)
        QRU_TRY(o->copy(ctx, dt, 1, n0, P0, s0, head, 1));
    if (n > n0)
        QRU_TRY(o->copy(ctx, dt, 1, n - n0, P1, s1,
                        qru_ptr_add(head, (size_t)n0), 1));
    QRU_TRY(qru_chol_read_row(ctx, dt, n + 1, head, 1, h));
    int info = info_value(ctx, h[n]);
    if (info < 0)
        return QRU_ERR_INTERNAL;
    return qru_chol_judge(dt, n, adiag, h, info);
}

int qru_chol_verdict_read(qru_context *ctx, qru_dtype dt, int n,
                          qru_ptr head, double *h, int *info)
{
    QRU_TRY(qru_chol_read_row(ctx, dt, 2 * n + 1, head, 1, h));
    *info = info_value(ctx, h[n]);
    return *info < 0 ? QRU_ERR_INTERNAL : 0;
}

/* Left-looking (Crout) blocked factorisation (' the conjugate transpose:
 * Hermitian for a complex type, whose updates reach it). */
static int potrf_left(qru_context *ctx, qru_dtype dt, char uplo, int n,
                      qru_ptr A, int lda, int nb, qru_ptr info, int base)
{
    const qru_backend_ops *o = ctx->ops;
    for (int j = 0; j < n; j += nb) {
        int jb = n - j < nb ? n - j : nb;
        int r = n - j - jb;
        qru_ptr Ajj = qru_ptr_at(A, lda, j, j);
        if (uplo == 'L') {
            /* A(j:j+jb, j:j+jb) -= L(j:j+jb, 0:j) L(j:j+jb, 0:j)' */
            QRU_TRY(o->syrk(ctx, dt, 'L', 'N', jb, j, -1.0,
                        qru_ptr_at(A, lda, j, 0), lda, 1.0, Ajj, lda));
            QRU_TRY(o->potrf_panel(ctx, dt, 'L', jb, Ajj, lda, info, base + j));
            if (r > 0) {
                qru_ptr B = qru_ptr_at(A, lda, j + jb, j);
                QRU_TRY(o->gemm(ctx, dt, 'N', 'C', r, jb, j, -1.0,
                            qru_ptr_at(A, lda, j + jb, 0), lda,
                            qru_ptr_at(A, lda, j, 0), lda, 1.0, B, lda));
                QRU_TRY(o->trsm(ctx, dt, 'R', 'L', 'C', 'N', r, jb, 1.0, Ajj, lda,
                            B, lda));
            }
        } else {
            QRU_TRY(o->syrk(ctx, dt, 'U', 'C', jb, j, -1.0,
                        qru_ptr_at(A, lda, 0, j), lda, 1.0, Ajj, lda));
            QRU_TRY(o->potrf_panel(ctx, dt, 'U', jb, Ajj, lda, info, base + j));
            if (r > 0) {
                qru_ptr B = qru_ptr_at(A, lda, j, j + jb);
                QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, r, j, -1.0,
                            qru_ptr_at(A, lda, 0, j), lda,
                            qru_ptr_at(A, lda, 0, j + jb), lda, 1.0, B, lda));
                QRU_TRY(o->trsm(ctx, dt, 'L', 'U', 'C', 'N', jb, r, 1.0, Ajj, lda,
                            B, lda));
            }
        }
    }
    return 0;
}

/* Right-looking blocked factorisation (the seed's "in-place" algorithm). */
static int potrf_right(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       qru_ptr A, int lda, int nb, qru_ptr info, int base)
{
    const qru_backend_ops *o = ctx->ops;
    for (int j = 0; j < n; j += nb) {
        int jb = n - j < nb ? n - j : nb;
        int r = n - j - jb;
        qru_ptr Ajj = qru_ptr_at(A, lda, j, j);
        qru_ptr A22 = qru_ptr_at(A, lda, j + jb, j + jb);
        QRU_TRY(o->potrf_panel(ctx, dt, uplo, jb, Ajj, lda, info, base + j));
        if (r == 0)
            break;
        if (uplo == 'L') {
            qru_ptr B = qru_ptr_at(A, lda, j + jb, j);
            QRU_TRY(o->trsm(ctx, dt, 'R', 'L', 'C', 'N', r, jb, 1.0, Ajj, lda, B,
                        lda));
            QRU_TRY(o->syrk(ctx, dt, 'L', 'N', r, jb, -1.0, B, lda, 1.0, A22,
                        lda));
        } else {
            qru_ptr B = qru_ptr_at(A, lda, j, j + jb);
            QRU_TRY(o->trsm(ctx, dt, 'L', 'U', 'C', 'N', jb, r, 1.0, Ajj, lda, B,
                        lda));
            QRU_TRY(o->syrk(ctx, dt, 'U', 'C', r, jb, -1.0, B, lda, 1.0, A22,
                        lda));
        }
    }
    return 0;
}

int qru_potrf_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                  int lda, int variant, int nb, qru_ptr info, int base)
{
    if (n <= 0)
        return 0;
    switch (variant) {
    case QRU_CHOL_RIGHT:
        return potrf_right(ctx, dt, uplo, n, A, lda, nb, info, base);
    case QRU_CHOL_CROUT:
        return potrf_left(ctx, dt, uplo, n, A, lda, 1, info, base);
    default:
        return potrf_left(ctx, dt, uplo, n, A, lda, nb, info, base);
    }
}

/* ---- the whole factorisation: own blocked algorithm or the vendor's ----- */

/* When qru_chol_factor (and qru_gp_create) run the backend's potrf_full
 * (LAPACK / cuSOLVER potrf) instead of qru's blocked algorithm:
 *  - only if the backend has it (CPU: LAPACKE, CUDA: cuSOLVER; OpenCL has
 *    no vendor LAPACK), for the default variant QRU_CHOL_LEFT with no block
 *    size asked (nb = 0: "the fastest"); QRU_CHOL_RIGHT, QRU_CHOL_CROUT and
 *    an explicit nb > 0 ask for qru's own algorithm;
 *  - and only where the backend measured it faster: n >=
 *    the tuning's potrf_min_n (0: never by default).  The measurements are
 *    in docs/ARCHITECTURE.md section 3 and docs/benchmarks.md ("Cholesky
 *    on the GPU");
 *  - the tuning's chol_vendor (QRU_TUNE_CHOL_VENDOR) overrides: 1 never
 *    uses the vendor routine, 2 always does when the backend has it (every
 *    variant and nb); for benchmarks and tests.
 */
int qru_chol_use_vendor(const qru_context *ctx, qru_dtype dt, int n,
                        int variant, int nb_asked)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    if (!ctx->ops->potrf_full || t->chol_vendor == 1)
        return 0;
    if (t->chol_vendor == 2)
        return 1;
    return (variant & ~QRU_CHOL_IN_PLACE) == QRU_CHOL_LEFT && nb_asked == 0 &&
           t->potrf_min_n > 0 && n >= t->potrf_min_n;
}

/* qru_chol_run's workspace starts with the 2 n + 1 elements it reads back
 * in one transfer: A's diagonal before (n), the factor's after (n), info. */
static size_t chol_run_head(int n)
{
    return qru_chol_align(2 * (size_t)n + 1);
}

int qru_chol_run_ws(qru_context *ctx, qru_dtype dt, int n, int variant,
                    int nb_asked, size_t *elems)
{
    size_t need = 0;
    if (n > 0 && qru_chol_use_vendor(ctx, dt, n, variant, nb_asked)) {
        qru_ptr none = {0, 0}; /* a query, not a backend call: the raw
                                * table, uncounted (qru_ops.h) */
        QRU_TRY(ctx->table.potrf_full(ctx, dt, 'L', n, none, n, none, none,
                                      &need));
    }
    *elems = chol_run_head(n > 0 ? n : 0) + need;
    return 0;
}

/* Everything is queued and read back once at the end: the diagonal of A
 * before (unless the caller has it), info, the factor's diagonal. */
int qru_chol_run(qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A,
                 int lda, int variant, int nb_asked, qru_ptr ws,
                 const double *adiag, double *piv)
{
    if (n <= 0)
        return 0;
    const qru_backend_ops *o = ctx->ops;
    size_t nn = (size_t)n;
    qru_ptr D = ws, info = qru_ptr_add(ws, 2 * nn);
    qru_ptr rws = qru_ptr_add(ws, chol_run_head(n));
    double *h = malloc(sizeof(double) * (2 * nn + 1));
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    int st = adiag ? 0 : o->copy(ctx, dt, 1, n, A, lda + 1, D, 1);
    if (!st)
        st = qru_chol_info_zero(ctx, dt, info);
    if (!st && qru_chol_use_vendor(ctx, dt, n, variant, nb_asked)) {
        size_t unused = 0;
        st = o->potrf_full(ctx, dt, uplo, n, A, lda, info, rws, &unused);
    } else if (!st) {
        st = qru_potrf_run(ctx, dt, uplo, n, A, lda,
                           variant & ~QRU_CHOL_IN_PLACE,
                           qru_chol_nb(ctx, dt, nb_asked, n), info, 0);
    }
    if (!st)
        st = o->copy(ctx, dt, 1, n, A, lda + 1, qru_ptr_add(D, nn), 1);
    if (!st)
        st = qru_chol_read_row(ctx, dt, 2 * n + 1, D, 1, h);
    if (!st) {
        int bad = info_value(ctx, h[2 * nn]);
        if (bad < 0)
            st = QRU_ERR_INTERNAL; /* the vendor rejected an argument */
        else
            st = qru_chol_judge(dt, n, adiag ? adiag : h, h + nn, bad);
        if (piv)
            memcpy(piv, h + nn, sizeof(double) * nn);
    }
    free(h);
    return st;
}

/* Without QRU_CHOL_IN_PLACE the referenced triangle of A is first saved
 * into workspace (one triangle copy), A is factored in place, and the copy
 * is written back only when the factorisation fails: A is then unchanged
 * bit for bit, and a successful call costs one triangle copy (not two, as
 * factoring a copy and copying the factor back would). */
int qru_chol_factor(qru_context *ctx, char uplo, qru_matrix *A, int variant,
                    int nb)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");
    QRU_CHECK(ctx, qru_arg_square(ctx, 3, "A", A, A ? A->dtype : QRU_DOUBLE));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, A, uplo, 'N', 0));
    int alg = variant & ~QRU_CHOL_IN_PLACE;
    QRU_ARG(ctx, 4,
            alg == QRU_CHOL_LEFT || alg == QRU_CHOL_RIGHT ||
                alg == QRU_CHOL_CROUT,
            "variant = %d is not a qru_chol_variant (LEFT, RIGHT or CROUT, "
            "optionally | QRU_CHOL_IN_PLACE)", variant);
    QRU_ARG(ctx, 5, nb >= 0, "nb = %d, but nb must be >= 0 (0: the tuned "
            "default)", nb);
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, A->dtype, QRU_CHOL_FACTOR_OPS));
    int n = A->rows;
    if (n == 0)
        QRU_RET(ctx, 0);
    qru_dtype dt = A->dtype;
    const qru_backend_ops *o = ctx->ops;
    int in_place = (variant & QRU_CHOL_IN_PLACE) != 0;
    size_t run = 0;
    QRU_CHECK(ctx, qru_chol_run_ws(ctx, dt, n, alg, nb, &run));
    size_t bsz = in_place ? 0 : qru_chol_align((size_t)n * (size_t)n);
    qru_ptr ws;
    QRU_CHECK(ctx,
              qru_ctx_workspace(ctx, (bsz + run) * qru_dtype_size(dt), &ws));
    qru_ptr B = ws, rws = qru_ptr_add(ws, bsz);
    int st = in_place ? 0 : o->lacpy(ctx, dt, uplo, n, n, A->p, A->ld, B, n);
    if (st)
        QRU_RET(ctx, st);
    st = qru_chol_run(ctx, dt, uplo, n, A->p, A->ld, alg, nb, rws, NULL,
                      NULL);
    if (st != 0 && !in_place) { /* restore A (also after a library error) */
        int st2 = o->lacpy(ctx, dt, uplo, n, n, B, n, A->p, A->ld);
        if (st > 0 && st2 != 0)
            st = st2;
    }
    QRU_RET(ctx, st);
}

int qru_trsm(qru_context *ctx, char side, char uplo, char trans, char diag,
             double alpha, const qru_matrix *A, qru_matrix *B)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "side", side, "LR");
    QRU_ARG_CHAR(ctx, 3, "uplo", uplo, "LU");
    QRU_ARG_CHAR(ctx, 4, "trans", trans, "NTC");
    QRU_ARG_CHAR(ctx, 5, "diag", diag, "NU");
    QRU_CHECK(ctx, qru_check_finite_host(ctx, 6, &alpha, 1));
    QRU_CHECK(ctx, qru_arg_square(ctx, 7, "A", A, A ? A->dtype : QRU_DOUBLE));
    QRU_CHECK(ctx, qru_check_finite(ctx, 7, A, uplo, diag, 0));
    QRU_ARG_MAT(ctx, 8, "B", B, A->dtype);
    QRU_ARG_APART(ctx, 8, "B", B, "A", A);
    QRU_ARG(ctx, 8, (side == 'L' ? B->rows : B->cols) == A->rows,
            "B is %d x %d, but with side = '%c' its %s must be A's order %d",
            B->rows, B->cols, side, side == 'L' ? "rows" : "columns",
            A->rows);
    QRU_CHECK(ctx, qru_check_finite(ctx, 8, B, 'A', 'N', 0));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, A->dtype, QRU_OPS_DENSE));
    QRU_RET(ctx, ctx->ops->trsm(ctx, A->dtype, side, uplo, trans, diag,
                                B->rows, B->cols, alpha, A->p, A->ld, B->p,
                                B->ld));
}

int qru_chol_solve(qru_context *ctx, char uplo, const qru_matrix *L,
                   qru_matrix *B)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");
    QRU_CHECK(ctx, qru_arg_square(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE));
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, L, uplo, 'N', 0));
    QRU_ARG_MAT(ctx, 4, "B", B, L->dtype);
    QRU_ARG_APART(ctx, 4, "B", B, "L", L);
    QRU_ARG(ctx, 4, B->rows == L->rows,
            "B has %d rows, but L's order is %d", B->rows, L->rows);
    QRU_CHECK(ctx, qru_check_finite(ctx, 4, B, 'A', 'N', 0));
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype, QRU_OPS_DENSE));
    const qru_backend_ops *o = ctx->ops;
    int n = B->rows, r = B->cols;
    char t1 = uplo == 'L' ? 'N' : 'C', t2 = uplo == 'L' ? 'C' : 'N';
    QRU_CHECK(ctx, o->trsm(ctx, L->dtype, 'L', uplo, t1, 'N', n, r, 1.0, L->p,
                           L->ld, B->p, B->ld));
    QRU_RET(ctx, o->trsm(ctx, L->dtype, 'L', uplo, t2, 'N', n, r, 1.0, L->p,
                         L->ld, B->p, B->ld));
}
