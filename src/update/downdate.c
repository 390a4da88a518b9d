/*
 * The Q-less removal of more rows than columns (p > m), and the rank rule
 * of the row removals of the thin and Q-less forms (qru_upd_downdate_rank,
 * update.h), written once for both precisions against the backend table.
 *
 * The Q-less removal of remove_rows.c works on the p x p side: the
 * Cholesky factor Lz of I - Qk Qk' (Qk = U / R) and the staggered sweeps
 * on [Qk Lz'], O(p^3 + p^2 m) flops, which is the right size while p <= m.
 * A sliding window that drops a block of p > m old rows at once (the
 * yearly slide of the README's demo: p = 52, m = 6) would pay p^3 for an
 * m x m result.  The same downdate has an m x m side:
 *
 *   R1' R1 = R' R - U' U = R' (I - Qk' Qk) R,  so  R1 = L' R
 *
 * with L L' = I - Qk' Qk (m x m Cholesky): a product of two upper
 * triangular matrices, upper triangular.  R1' d1 = R' d - U' e gives
 * d1 = L \ (d - Qk' e), and with v = e - Qk d the residual norms lose
 * ||dz||^2 = v' (I - Qk Qk')^-1 v = ||v||^2 + ||L \ (Qk' v)||^2 (Woodbury:
 * (I - Qk Qk')^-1 = I + Qk (I - Qk' Qk)^-1 Qk'), a sum of two squares, so
 * no cancellation beyond the rho^2 - ||dz||^2 of the p x p side.  The
 * nonunit eigenvalues of I - Qk' Qk and I - Qk Qk' are the same,
 * 1 - sigma_i(Qk)^2: the rank rule (qru_upd_downdate_rank: the smallest
 * eigenvalue, estimated from the factor's inverse) refuses on this side
 * what it refuses on the p x p side.  Flops: 3 p m^2 + 7/3 m^3 +
 * 6 p m r + 2 m^2 r in about 20 calls.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "chol_internal.h"
#include "update.h"

int qru_upd_qless_wide(const qru_lsq *f, int p)
{
    return f->q == QRU_Q_NONE && p > f->m;
}

double qru_upd_downdate_tol(const qru_lsq *f)
{
    double eps = f->dtype == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    return 2.0 * (double)(f->n > f->m ? f->n : f->m) * eps;
}

int qru_upd_downdate_rank(qru_context *ctx, qru_dtype dt, char uplo, int nz,
                          qru_ptr T, int ldt, const double *diag, int e,
                          double tol, qru_ptr ws, const char *what,
                          double *sout)
{
    const qru_backend_ops *o = ctx->ops;
    /* a pivot that fails by itself (s <= min |T(j,j)|; and the solve
     * below needs a triangle without a zero on its diagonal) */
    for (int j = 0; j < nz; ++j) {
        double v = e == 2 ? diag[j] * diag[j] : fabs(diag[j]);
        if (!isfinite(v) || !(v > tol))
            return qru_fail(j + 1, "removing the rows leaves A1 "
                            "numerically rank-deficient: the pivot %d of "
                            "the triangle of %s%s is %g, but it must be > "
                            "2 max(n, m) eps = %g", j + 1, what,
                            e == 2 ? ", squared," : "", v, tol);
    }
    double *nrm = malloc(sizeof(double) * (size_t)nz);
    if (!nrm)
        return QRU_HOST_ALLOC_FAILED;
    /* inv(T) = T \ I and its column norms */
    int st = o->laset(ctx, dt, 'A', nz, nz, 0.0, 1.0, ws, nz);
    if (!st)
        st = o->trsm(ctx, dt, 'L', uplo, 'N', 'N', nz, nz, 1.0, T, ldt, ws,
                     nz);
    if (!st)
        st = o->col_norms(ctx, dt, nz, nz, ws, nz, nrm);
    double sum = 0.0;
    for (int j = 0; !st && j < nz; ++j)
        sum += nrm[j] * nrm[j];
    free(nrm);
    if (st)
        return st;
    double s = isfinite(sum) && sum > 0.0 ? 1.0 / sqrt(sum) : 0.0;
    double v = e == 2 ? s * s : s;
    if (sout)
        *sout = s;
    if (v > tol)
        return 0;
    int bad = 0; /* the first smallest pivot */
    for (int j = 1; j < nz; ++j)
        if (fabs(diag[j]) < fabs(diag[bad]))
            bad = j;
    return qru_fail(bad + 1, "removing the rows leaves A1 numerically "
                    "rank-deficient: %s %g of the triangle of %s, "
                    "1 / ||inv(T)||_F%s, must be > 2 max(n, m) eps = %g "
                    "(smallest pivot at %d)", e == 2 ? "the eigenvalue"
                    : "the singular value", v, what, e == 2 ? "^2" : "", tol,
                    bad + 1);
}

int qru_upd_downdate_chol(qru_context *ctx, qru_dtype dt, int nz, qru_ptr Z,
                          int ldz, qru_ptr cws, double tol, double *piv,
                          qru_ptr ws, const char *what)
{
    int bad = qru_chol_run(ctx, dt, 'L', nz, Z, ldz, QRU_CHOL_LEFT, 0, cws,
                           NULL, piv);
    if (bad < 0)
        return bad;
    if (bad)
        return qru_fail(bad, "the downdate would lose definiteness (A1 "
                        "numerically rank-deficient): the Cholesky "
                        "factorisation of %s (Qk = U / R) fails at column %d",
                        what, bad);
    /* the verdict read the factor's diagonal into piv */
    return qru_upd_downdate_rank(ctx, dt, 'L', nz, Z, ldz, piv, 2, tol, ws,
                                 what, NULL);
}

int qru_upd_qless_downdate_wide(qru_context *ctx, qru_lsq *f,
                                const qru_upd_req *rq)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    int n = f->n, m = f->m, r = f->r, p = rq->p, ld = f->ldr, st;
    const qru_matrix *U = rq->U, *e = rq->e;
    double tol = qru_upd_downdate_tol(f);
    size_t nchol = 0;
    QRU_TRY(qru_chol_ops_check(ctx));
    QRU_TRY(qru_chol_run_ws(ctx, dt, m, QRU_CHOL_LEFT, 0, &nchol));

    size_t mm = (size_t)m * m;
    size_t o_qk = 0;                          /* Qk = U / R, p x m */
    size_t o_l = o_qk + (size_t)p * m;        /* L, m x m */
    size_t o_rc = o_l + mm;                   /* triu(R), m x m */
    size_t o_r1 = o_rc + mm;                  /* R1 = L' R, m x m */
    size_t o_t = o_r1 + mm;                   /* d1, m x r */
    size_t o_v = o_t + (size_t)m * r;         /* v = e - Qk d, p x r */
    size_t o_w = o_v + (size_t)p * r;         /* L \ (Qk' v), m x r */
    size_t o_iv = o_w + (size_t)m * r;        /* inv(L), m x m */
    size_t o_cw = o_iv + mm;                  /* qru_chol_run's */
    size_t total = o_cw + nchol;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(ctx, total * qru_dtype_size(dt), &ws));
    double *h = malloc(sizeof(double) * ((size_t)m + 2 * (size_t)r));
    if (!h)
        return QRU_HOST_ALLOC_FAILED;
    double *piv = h, *nv = piv + m, *nw = nv + r;
    qru_ptr QK = qru_ptr_add(ws, o_qk), L = qru_ptr_add(ws, o_l),
            Rc = qru_ptr_add(ws, o_rc), R1 = qru_ptr_add(ws, o_r1),
            T = qru_ptr_add(ws, o_t), V = qru_ptr_add(ws, o_v),
            W = qru_ptr_add(ws, o_w), Iv = qru_ptr_add(ws, o_iv),
            cws = qru_ptr_add(ws, o_cw);

    /* Qk = U / R, I - Qk' Qk = L L' */
    QRU_TRY_GOTO(o->copy(ctx, dt, p, m, U->p, U->ld, QK, p));
    QRU_TRY_GOTO(o->trsm(ctx, dt, 'R', 'U', 'N', 'N', p, m, 1.0, f->R, ld,
                         QK, p));
    QRU_TRY_GOTO(o->laset(ctx, dt, 'A', m, m, 0.0, 1.0, L, m));
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', m, m, p, -1.0, QK, p, QK, p, 1.0,
                         L, m));
    QRU_TRY_GOTO(qru_upd_downdate_chol(ctx, dt, m, L, m, cws, tol, piv, Iv,
                                       "I - Qk' * Qk"));
    double dmin = fabs(piv[0]);
    for (int j = 1; j < m; ++j)
        dmin = fabs(piv[j]) < dmin ? fabs(piv[j]) : dmin;
    if (m > 1) /* the factor alone: zeros above its diagonal */
        QRU_TRY_GOTO(o->laset(ctx, dt, 'U', m - 1, m - 1, 0.0, 0.0,
                              qru_ptr_add(L, (size_t)m), m));

    /* R1 = L' triu(R): exact zeros below the diagonal */
    QRU_TRY_GOTO(o->laset(ctx, dt, 'A', m, m, 0.0, 0.0, Rc, m));
    QRU_TRY_GOTO(o->lacpy(ctx, dt, 'U', m, m, f->R, ld, Rc, m));
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', m, m, m, 1.0, L, m, Rc, m, 0.0,
                         R1, m));
    /* d1 = L \ (d - Qk' e) */
    QRU_TRY_GOTO(o->copy(ctx, dt, m, r, f->d, ld, T, m));
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', m, r, p, -1.0, QK, p, e->p,
                         e->ld, 1.0, T, m));
    QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'L', 'N', 'N', m, r, 1.0, L, m, T,
                         m));
    /* ||dz||^2 = ||v||^2 + ||L \ (Qk' v)||^2, v = e - Qk d */
    QRU_TRY_GOTO(o->copy(ctx, dt, p, r, e->p, e->ld, V, p));
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'N', 'N', p, r, m, -1.0, QK, p, f->d, ld,
                         1.0, V, p));
    QRU_TRY_GOTO(o->gemm(ctx, dt, 'C', 'N', m, r, p, 1.0, QK, p, V, p, 0.0,
                         W, m));
    QRU_TRY_GOTO(o->trsm(ctx, dt, 'L', 'L', 'N', 'N', m, r, 1.0, L, m, W,
                         m));
    QRU_TRY_GOTO(o->col_norms(ctx, dt, p, r, V, p, nv));
    QRU_TRY_GOTO(o->col_norms(ctx, dt, m, r, W, m, nw));

    /* commit (a square A1 has no residual) */
    QRU_TRY_GOTO(o->copy(ctx, dt, m, m, R1, m, f->R, ld));
    QRU_TRY_GOTO(o->copy(ctx, dt, m, r, T, m, f->d, ld));
    QRU_TRY_GOTO(qru_upd_gram_rows(ctx, f, p, U->p, U->ld, e->p, e->ld,
                                   -1.0));
    for (int j = 0; j < r; ++j) {
        double v = f->rho[j] * f->rho[j] - nv[j] * nv[j] - nw[j] * nw[j];
        f->rho[j] = v > 0.0 && n - p > m ? sqrt(v) : 0.0;
    }
    f->n = n - p;
    f->dd_cond = 1.0 / dmin;
done:
    free(h);
    return st;
}

