/*
 * Steps shared by the updates of the thin (Q1, R, d, E) and Q-less
 * (R, d, residual norms) forms, written once for both precisions against
 * the backend table: moving rows of a tall array, the residual norms,
 * block classical Gram-Schmidt (with reorthogonalisation) against Q1,
 * and the Householder QR of the remainder with its orthonormal factor.
 */
#include <math.h>
#include <stdlib.h>

#include "update.h"

int qru_upd_shift_rows(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                       int n, int c, int k, int p, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    if (n <= k || c <= 0)
        return 0;
    /* through ws: the copy op needs disjoint or forward-moving arrays */
    QRU_TRY(o->copy(ctx, dt, n - k, c, qru_ptr_add(X, (size_t)k), ldx, ws,
                    n - k));
    return o->copy(ctx, dt, n - k, c, ws, n - k, qru_ptr_add(X, (size_t)(k + p)),
                   ldx);
}

int qru_upd_drop_rows(qru_context *ctx, qru_dtype dt, qru_ptr X, int ldx,
                      int c0, int n, int c, int k, int p)
{
    const qru_backend_ops *o = ctx->ops;
    int n1 = n - p;
    if (k > 0 && c0 > 0)
        QRU_TRY(o->copy(ctx, dt, k, c, qru_ptr_at(X, ldx, 0, c0), ldx, X,
                        ldx));
    if (n1 > k)
        QRU_TRY(o->copy(ctx, dt, n1 - k, c, qru_ptr_at(X, ldx, k + p, c0),
                        ldx, qru_ptr_add(X, (size_t)k), ldx));
    return 0;
}

int qru_upd_rho_add(qru_context *ctx, qru_lsq *f, int p, qru_ptr X, int ldx,
                    double sign)
{
    int r = f->r;
    double *nx = f->rho + r; /* the object's scratch: nothing to allocate
                                after the factorisation has changed */
    int st = ctx->ops->col_norms(ctx, f->dtype, p, r, X, ldx, nx);
    for (int j = 0; !st && j < r; ++j) {
        double v = f->rho[j] * f->rho[j] + sign * nx[j] * nx[j];
        /* a downdate can cancel to a small negative value: the residual
         * is then zero to working precision */
        f->rho[j] = v > 0.0 ? sqrt(v) : 0.0;
    }
    return st;
}

int qru_upd_cgs(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                int npass, qru_ptr Q1, int ldq, qru_ptr Z, int ldz, qru_ptr C,
                int ldc, qru_ptr C2)
{
    const qru_backend_ops *o = ctx->ops;
    if (npass == 1)
        C2 = C;
    for (int pass = 0; pass < npass; ++pass) {
        qru_ptr T = pass == 0 ? C : C2;
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', m, p, n, 1.0, Q1, ldq, Z, ldz, 0.0,
                        T, pass == 0 ? ldc : m));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, p, m, -1.0, Q1, ldq, T,
                        pass == 0 ? ldc : m, 1.0, Z, ldz));
    }
    return npass == 2 ? o->geadd(ctx, dt, m, p, 1.0, C2, m, 1.0, C, ldc) : 0;
}

size_t qru_upd_house_workspace(int n, int p, int nb)
{
    size_t w = (size_t)n * p;
    if ((size_t)p * p > w)
        w = (size_t)p * p;
    if (qru_panel_work(n, nb) > w)
        w = qru_panel_work(n, nb);
    return 2 * (size_t)n * p + (size_t)p + w;
}

int qru_upd_house(qru_context *ctx, qru_dtype dt, int n, int p, int nb,
                  qru_ptr Z, int ldz, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr Y = ws, W = qru_ptr_add(Y, (size_t)n * p),
            tau = qru_ptr_add(W, (size_t)n * p),
            work = qru_ptr_add(tau, (size_t)p);
    if (nb < 1)
        nb = 1;
    /* the panels, each one panel_qr call (the fused kernel or LAPACK where
     * the backend has one), then the trailing columns; block i keeps its
     * Y, W in Y(i:n, i:i+jb), W(i:n, i:i+jb) (rows i .. n-1 at the top of
     * the columns, ld n) */
    for (int i = 0; i < p; i += nb) {
        int jb = p - i < nb ? p - i : nb;
        int rows = n - i, nc = p - i - jb;
        qru_ptr Yi = qru_ptr_at(Y, n, i, i), Wi = qru_ptr_at(W, n, i, i);
        QRU_TRY(o->panel_qr(ctx, dt, rows, jb, qru_ptr_at(Z, ldz, i, i), ldz,
                            Yi, n, Wi, n, qru_ptr_add(tau, (size_t)i), work));
        if (nc > 0) {
            qru_ptr Zt = qru_ptr_at(Z, ldz, i, i + jb);
            QRU_TRY(o->gemm(ctx, dt, 'C', 'N', jb, nc, rows, 1.0, Wi, n, Zt,
                            ldz, 0.0, work, jb));
            QRU_TRY(o->gemm(ctx, dt, 'N', 'N', rows, nc, jb, 1.0, Yi, n, work,
                            jb, 1.0, Zt, ldz));
        }
    }
    /* triu: exact zeros below the diagonal of R */
    if (p > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', p - 1, p - 1, 0.0, 0.0,
                         qru_ptr_add(Z, 1), ldz));
    return 0;
}

int qru_upd_house_merge(qru_context *ctx, qru_dtype dt, int n, int p, int nb,
                        qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr Y = ws, W = qru_ptr_add(Y, (size_t)n * p),
            work = qru_ptr_add(W, (size_t)n * p + (size_t)p);
    if (nb < 1)
        nb = 1;
    /* P1 P2 = I + [W1, W2 + W1 (Y1' W2)] [Y1 Y2]' (Y, W zero above their
     * blocks) */
    QRU_TRY(o->laset(ctx, dt, 'U', n, p, 0.0, 1.0, Y, n));
    for (int i = nb; i < p; i += nb) {
        int jb = p - i < nb ? p - i : nb;
        qru_ptr Wb = qru_ptr_at(W, n, 0, i);
        QRU_TRY(o->laset(ctx, dt, 'A', i, jb, 0.0, 0.0, Wb, n));
        QRU_TRY(o->gemm(ctx, dt, 'C', 'N', i, jb, n, 1.0, Y, n, Wb, n, 0.0,
                        work, i));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, jb, i, 1.0, W, n, work, i, 1.0,
                        Wb, n));
    }
    return 0;
}

int qru_upd_house_q(qru_context *ctx, qru_dtype dt, int n, int p, qru_ptr ws,
                    qru_ptr Qz, int ldqz)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr Y = ws, W = qru_ptr_add(Y, (size_t)n * p);
    /* Qz = P(:, 0:p) = [I; 0] + W Y(0:p, :)' */
    QRU_TRY(o->laset(ctx, dt, 'A', n, p, 0.0, 1.0, Qz, ldqz));
    return o->gemm(ctx, dt, 'N', 'C', n, p, p, 1.0, W, n, Y, n, 1.0, Qz,
                   ldqz);
}

size_t qru_upd_basis_workspace(int n, int m, int p, int nb)
{
    return qru_upd_house_workspace(n, p, nb) + (size_t)m * p +
           2 * (size_t)p * p;
}

int qru_upd_basis(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                  int nb, qru_ptr Q1, int ldq, qru_ptr Z, int ldz, qru_ptr Qz,
                  int ldqz, int again, qru_ptr ws)
{
    /* Z = Qz R */
    QRU_TRY(qru_upd_house(ctx, dt, n, p, nb, Z, ldz, ws));
    QRU_TRY(qru_upd_house_merge(ctx, dt, n, p, nb, ws));
    QRU_TRY(qru_upd_house_q(ctx, dt, n, p, ws, Qz, ldqz));
    return again ? qru_upd_basis_again(ctx, dt, n, m, p, nb, Q1, ldq, Z, ldz,
                                       Qz, ldqz, ws)
                 : 0;
}

int qru_upd_basis_again(qru_context *ctx, qru_dtype dt, int n, int m, int p,
                        int nb, qru_ptr Q1, int ldq, qru_ptr Z, int ldz,
                        qru_ptr Qz, int ldqz, qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_ptr C = qru_ptr_add(ws, qru_upd_house_workspace(n, p, nb)),
            S = qru_ptr_add(C, (size_t)m * p), T = qru_ptr_add(S, (size_t)p * p);
    /* Qz - Q1 (Q1' Qz) = Qz2 S; Qz := Qz2, R := S R */
    QRU_TRY(qru_upd_cgs(ctx, dt, n, m, p, 1, Q1, ldq, Qz, ldqz, C, m, C));
    QRU_TRY(qru_upd_house(ctx, dt, n, p, nb, Qz, ldqz, ws));
    QRU_TRY(o->lacpy(ctx, dt, 'A', p, p, Qz, ldqz, S, p));
    QRU_TRY(qru_upd_house_merge(ctx, dt, n, p, nb, ws));
    QRU_TRY(qru_upd_house_q(ctx, dt, n, p, ws, Qz, ldqz));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', p, p, p, 1.0, S, p, Z, ldz, 0.0, T,
                    p));
    return o->lacpy(ctx, dt, 'A', p, p, T, p, Z, ldz);
}

/* ---- the Gram data of the Q-less form (G = A'A, upper triangle, and
 * c = A'b; struct qru_lsq) ---- */

int qru_upd_gram_rows(qru_context *ctx, qru_lsq *f, int p, qru_ptr X,
                      int ldx, qru_ptr Y, int ldy, double sign)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, ld = f->ldr;
    QRU_TRY(o->syrk(ctx, dt, 'U', 'C', m, p, sign, X, ldx, 1.0, f->G, ld));
    return o->gemm(ctx, dt, 'C', 'N', m, f->r, p, sign, X, ldx, Y, ldy, 1.0,
                   f->c, ld);
}

int qru_upd_gram_drop(qru_context *ctx, qru_lsq *f, int k, int p)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int m = f->m, ld = f->ldr, rest = m - k - p;
    /* columns k+p .. m-1 move left by p, then the rows k .. k+p-1 go
     * (both copies move towards the start) */
    if (rest > 0)
        QRU_TRY(o->copy(ctx, dt, m, rest, qru_ptr_at(f->G, ld, 0, k + p), ld,
                        qru_ptr_at(f->G, ld, 0, k), ld));
    QRU_TRY(qru_upd_drop_rows(ctx, dt, f->G, ld, 0, m, m - p, k, p));
    return qru_upd_drop_rows(ctx, dt, f->c, ld, 0, m, f->r, k, p);
}

int qru_upd_gram_insert(qru_context *ctx, qru_lsq *f, int k,
                        const qru_matrix *U, const qru_matrix *b,
                        qru_ptr AtU, int ldat,
                        qru_ptr ws)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, p = U->cols, L = m - k, ld = f->ldr;
    qru_ptr G = f->G;
    if (L > 0) {
        /* G(:, k:m) through ws to G(0:k, k+p:) and G(k+p:, k+p:) */
        QRU_TRY(o->copy(ctx, dt, m, L, qru_ptr_at(G, ld, 0, k), ld, ws, m));
        QRU_TRY(o->copy(ctx, dt, m - k, L, qru_ptr_add(ws, (size_t)k), m,
                        qru_ptr_at(G, ld, k + p, k + p), ld));
        if (k > 0)
            QRU_TRY(o->copy(ctx, dt, k, L, ws, m,
                            qru_ptr_at(G, ld, 0, k + p), ld));
        /* G(k:k+p, k+p:) = U' A(:, k:m) = AtU(k:m, :)' */
        QRU_TRY(o->transpose(ctx, dt, L, p, qru_ptr_add(AtU, (size_t)k),
                             ldat, qru_ptr_at(G, ld, k, k + p), ld));
    }
    if (k > 0) /* G(0:k, k:k+p) = A(:, 0:k)' U */
        QRU_TRY(o->copy(ctx, dt, k, p, AtU, ldat, qru_ptr_at(G, ld, 0, k),
                        ld));
    QRU_TRY(o->syrk(ctx, dt, 'U', 'C', p, n, 1.0, U->p, U->ld, 0.0,
                    qru_ptr_at(G, ld, k, k), ld));
    /* c(k:k+p, :) = U' b, below it the old rows k .. m-1 */
    QRU_TRY(qru_upd_shift_rows(ctx, dt, f->c, ld, m, r, k, p, ws));
    return o->gemm(ctx, dt, 'C', 'N', p, r, n, 1.0, U->p, U->ld, b->p, b->ld,
                   0.0, qru_ptr_add(f->c, (size_t)k), ld);
}
