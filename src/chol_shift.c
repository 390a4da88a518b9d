/*
 * The Cholesky factor of a symmetric (complex: Hermitian) positive
 * definite matrix whose rows and columns are shifted (Octave's cholshift),
 * written once for the four element types against the backend table.
 *
 * With A = U' U, A(p, p) = U(:, p)' U(:, p): the factor of A(p, p) is the
 * R of the QR factorisation of U(:, p), which the column shift of the QR
 * updates computes without Q (src/update/shift.c).  The work runs on an
 * upper copy of the factor in workspace (a lower factor is transposed);
 * the new factor is judged by the definiteness rule, its rows with a
 * negative diagonal element are negated (complex: the rows lo .. hi
 * multiplied by conj(u) / |u|, u their diagonal element, through one
 * GEMM by that diagonal, and their diagonal set to |u|) so that it is
 * chol's, with a positive (complex: real) diagonal,
 * and only then is it written to L1.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"
#include "update/update.h"

/* Complex: the rows lo .. lo+s-1 of the upper n x n U (ld n) times the
 * diagonal D = diag(conj(u) / |u|) of their diagonal elements u (D in
 * Dw, s x s; the product in P, s x (n - lo)), copied back. */
static int chol_shift_phase(qru_context *ctx, qru_dtype dt, int n, int lo,
                            int s, qru_ptr U, qru_ptr Dw, qru_ptr P)
{
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt);
    int dbl = qru_dtype_real(dt) == QRU_DOUBLE;
    unsigned char *h = calloc((size_t)s * (size_t)(s + 1), es);
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    unsigned char *dg = h + (size_t)s * s * es;
    qru_ptr Ul = qru_ptr_at(U, n, lo, lo);
    int st = o->download(ctx, dt, 1, s, Ul, n + 1, dg, 1);
    /* D, and the new diagonal |u| (exactly real) in place of u */
    for (int c = 0; !st && c < s; ++c) {
        size_t at = ((size_t)c * s + c) * es;
        if (dbl) {
            double *u = (double *)dg + 2 * c;
            double a = hypot(u[0], u[1]), v[2] = {u[0] / a, -u[1] / a};
            memcpy(h + at, v, sizeof v);
            u[0] = a;
            u[1] = 0.0;
        } else {
            float *u = (float *)dg + 2 * c;
            float a = (float)hypot(u[0], u[1]), v[2] = {u[0] / a, -u[1] / a};
            memcpy(h + at, v, sizeof v);
            u[0] = a;
            u[1] = 0.0f;
        }
    }
    if (!st)
        st = o->upload(ctx, dt, s, s, h, s, Dw, s);
    if (!st)
        st = o->gemm(ctx, dt, 'N', 'N', s, n - lo, s, 1.0, Dw, s, Ul, n, 0.0,
                     P, s);
    if (!st)
        st = o->upload(ctx, dt, 1, s, dg, 1, P, s + 1);
    if (!st)
        st = o->copy(ctx, dt, s, n - lo, P, s, Ul, n);
    free(h);
    return st;
}

static int chol_shift(qru_context *ctx, char uplo, const qru_matrix *L,
                      int i, int j, qru_matrix *L1)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = L->dtype;
    int n = L->rows, st = 0;
    if (i == j)
        return qru_mat_same_start(L, L1)
                   ? 0
                   : o->lacpy(ctx, dt, uplo, n, n, L->p, L->ld, L1->p,
                              L1->ld);
    int lo = i < j ? i : j, hi = i < j ? j : i, s = hi - lo + 1;
    int nb = qru_upd_panel_width(ctx, dt, 0, s - 1, 1);
    size_t nn = qru_chol_align((size_t)n * n);
    size_t sh = qru_upd_shift_ws(n, i, j, nb, 0, 0);
    qru_ptr ws, none = {0, 0};
    QRU_TRY(qru_ctx_workspace(ctx, (2 * nn + sh) * qru_dtype_size(dt), &ws));
    qru_ptr U = ws, T = qru_ptr_add(ws, nn), sws = qru_ptr_add(T, nn);
    /* norms: the column norms of U, A's diagonal in the new order
     * (adiag), the new factor's diagonal (ldiag) */
    double *norms = malloc(sizeof(double) * 3 * (size_t)n);
    if (!norms)
        return QRU_HOST_ALLOC_FAILED;
    double *adiag = norms + n, *ldiag = adiag + n;
    if (uplo == 'U')
        QRU_TRY_GOTO(o->lacpy(ctx, dt, 'U', n, n, L->p, L->ld, U, n));
    else
        QRU_TRY_GOTO(o->transpose(ctx, dt, n, n, L->p, L->ld, U, n));
    QRU_TRY_GOTO(o->laset(ctx, dt, 'L', n - 1, n - 1, 0.0, 0.0,
                          qru_ptr_add(U, 1), n));
    QRU_TRY_GOTO(o->col_norms(ctx, dt, n, n, U, n, norms));
    for (int t = 0; t < n; ++t) {
        int from = t; /* the column of U that lands at t */
        if (t >= lo && t <= hi)
            from = i < j ? (t == hi ? lo : t + 1) : (t == lo ? hi : t - 1);
        adiag[t] = norms[from] * norms[from];
    }
    QRU_TRY_GOTO(qru_upd_shift(ctx, dt, n, i, j, nb, U, n, none, 1, 0, none,
                               1, 0, sws));
    QRU_TRY_GOTO(qru_chol_read_row(ctx, dt, n, U, n + 1, ldiag));
    if ((st = qru_chol_judge(dt, n, adiag, ldiag, 0)) != 0)
        goto done;
    if (qru_dtype_complex(dt)) /* (ldiag: moduli) */
        QRU_TRY_GOTO(chol_shift_phase(ctx, dt, n, lo, s, U, sws, T));
    for (int c = lo; !qru_dtype_complex(dt) && c <= hi; ++c)
        if (ldiag[c] < 0.0)
            QRU_TRY_GOTO(o->geadd(ctx, dt, 1, n - c, -1.0,
                                  qru_ptr_at(U, n, c, c), n, 0.0,
                                  qru_ptr_at(U, n, c, c), n));
    if (uplo == 'U') {
        QRU_TRY_GOTO(o->lacpy(ctx, dt, 'U', n, n, U, n, L1->p, L1->ld));
    } else {
        QRU_TRY_GOTO(o->transpose(ctx, dt, n, n, U, n, T, n));
        QRU_TRY_GOTO(o->lacpy(ctx, dt, 'L', n, n, T, n, L1->p, L1->ld));
    }
done:
    free(norms);
    return st;
}

int qru_chol_shift(qru_context *ctx, char uplo, const qru_matrix *L, int i,
                   int j, qru_matrix *L1)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_CHAR(ctx, 2, "uplo", uplo, "LU");
    QRU_CHECK(ctx, qru_arg_square(ctx, 3, "L", L, L ? L->dtype : QRU_DOUBLE));
    int n = L->rows;
    QRU_ARG(ctx, 4, i >= 0 && i < n,
            "i = %d, but 0 <= i < n = %d must hold (n: L's order)", i, n);
    QRU_ARG(ctx, 5, j >= 0 && j < n,
            "j = %d, but 0 <= j < n = %d must hold (n: L's order)", j, n);
    QRU_ARG_MAT(ctx, 6, "L1", L1, L->dtype);
    QRU_ARG(ctx, 6, L1->rows == n && L1->cols == n,
            "L1 is %d x %d, but it must be n x n = %d x %d", L1->rows,
            L1->cols, n, n);
    QRU_ARG(ctx, 6, qru_chol_out_ok(L, L1),
            "L1 overlaps L but does not start at L's first element with L's "
            "leading dimension");
    QRU_CHECK(ctx, qru_check_complex_ops(ctx, L->dtype, QRU_OPS_QR));
    QRU_RET(ctx, chol_shift(ctx, uplo, L, i, j, L1));
}
