/*
 * Orthogonal matching pursuit (qru_omp, include/qru.h) on the column
 * updates, written once for both precisions against the backend table.
 *
 * The chosen columns X(:, S) are held as a thin least-squares
 * factorisation (QRU_Q_THIN: Q1, R, d = Q1' y and the residual
 * E = y - Q1 d, all in the context's memory), created from the first
 * chosen column and grown by the add-columns update at its end
 * (qru_upd_run, the pipeline of qru_lsq_add_cols, whose rank rule judges
 * each new column).  A step is
 *
 *   c = X' E and rr = w' w          two GEMMs into one device vector
 *                                    (w = E / ||y||, so rr <= 1 cannot
 *                                    overflow),
 *   download [c; rr]                the step's own host wait,
 *   j = argmax |c| on the host      (the lowest index among ties),
 *   add X(:, j) after the k chosen  (the update: its rank rule reads the
 *                                    diagonal and the column norms of R,
 *                                    four host waits).
 *
 * The residual never leaves the device; only the m + 1 numbers of [c; rr]
 * come to the host.  At the end x(S) = R \ d (a triangular solve on the
 * device, k numbers downloaded) and, when asked, the path P = R \
 * triu(d * ones(1, k)), whose column s is R(1:s, 1:s) \ d(1:s): the
 * least-squares solution on the first s chosen columns, since the
 * factorisation of a leading block of columns is the leading block of
 * the factorisation.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"
#include "update/update.h"

/* The index of the largest |c(i)|, i < m: the first such index among
 * ties, and the first NaN if there is one (so that a non-finite
 * correlation is never passed over). */
static int omp_argmax(const double *c, int m)
{
    int j = 0;
    double best = -1.0;
    for (int i = 0; i < m; ++i) {
        double v = fabs(c[i]);
        if (isnan(v))
            return i;
        if (v > best) {
            best = v;
            j = i;
        }
    }
    return j;
}

/* c (m + 1 doubles on the host) := [X' r; w' w] for the n-vector r (ld
 * ldr) and w = r / ||y|| (inv = 1 / ||y||, so that w' w <= 1 neither
 * overflows nor, while it matters, underflows), through the device
 * vectors g (m + 1 elements) and w (n) and, for float, the host floats
 * tmp. */
static int omp_correlate(qru_context *ctx, qru_dtype dt, int n, int m,
                         const qru_matrix *X, qru_ptr r, int ldr, double inv,
                         qru_ptr w, qru_ptr g, double *c, float *tmp)
{
    const qru_backend_ops *o = ctx->ops;
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', m, 1, n, 1.0, X->p, X->ld, r, ldr,
                    0.0, g, m + 1));
    QRU_TRY(o->geadd(ctx, dt, n, 1, inv, r, ldr, 0.0, w, n));
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', 1, 1, n, 1.0, w, n, w, n, 0.0,
                    qru_ptr_add(g, (size_t)m), 1));
    if (dt == QRU_DOUBLE)
        return o->download(ctx, dt, m + 1, 1, g, m + 1, c, m + 1);
    QRU_TRY(o->download(ctx, dt, m + 1, 1, g, m + 1, tmp, m + 1));
    for (int i = 0; i <= m; ++i)
        c[i] = tmp[i];
    return 0;
}

/* The matrix header of column j of X (no storage of its own). */
static qru_matrix omp_column(const qru_matrix *X, int j)
{
    qru_matrix col = *X;
    col.cols = 1;
    col.owned = 0;
    col.p = qru_ptr_at(X->p, X->ld, 0, j);
    return col;
}

/* The host buffers of one call. */
typedef struct omp_host {
    double *c;    /* [X' r; r' r], m + 1 */
    float *tmp;   /* float downloads, max(m + 1, k) */
    double *x;    /* the coefficients of the chosen columns, ncoef */
    void *coef;   /* the m coefficients in the element type */
    int *sup;     /* the chosen columns, ncoef */
    char *active; /* m flags */
} omp_host;

static void omp_host_free(omp_host *h)
{
    free(h->c);
    free(h->tmp);
    free(h->x);
    free(h->coef);
    free(h->sup);
    free(h->active);
}

static int omp_host_alloc(omp_host *h, qru_dtype dt, int m, int ncoef)
{
    size_t m1 = (size_t)m + 1;
    h->c = malloc(sizeof(double) * m1);
    h->tmp = malloc(sizeof(float) * m1);
    h->x = malloc(sizeof(double) * (size_t)ncoef);
    h->coef = calloc((size_t)m, qru_dtype_size(dt));
    h->sup = malloc(sizeof(int) * (size_t)ncoef);
    h->active = calloc((size_t)m, 1);
    if (!h->c || !h->tmp || !h->x || !h->coef || !h->sup || !h->active)
        return QRU_HOST_ALLOC_FAILED;
    return 0;
}

/* The greedy steps: on return *kout columns are chosen (h->sup), *f holds
 * their factorisation (NULL when none), *rel = ||r|| / ||y|| (r = y for
 * none; 0 for y = 0), with *ynorm = ||y||; *stop is 0 (ncoef columns, or
 * the residual test of tol) or the 1-based step that found no column to
 * add (its reason recorded).  g: m + 1 elements, then n. */
static int omp_steps(qru_context *ctx, const qru_matrix *X,
                     const qru_matrix *y, int ncoef, double tol, qru_ptr g,
                     omp_host *h, qru_lsq **f, int *kout, double *rel,
                     double *ynorm, int *stop)
{
    qru_dtype dt = X->dtype;
    int n = X->rows, m = X->cols, k = 0;
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    qru_ptr w = qru_ptr_add(g, (size_t)m + 1);
    *f = NULL;
    *stop = 0;
    QRU_TRY(ctx->ops->col_norms(ctx, dt, n, 1, y->p, y->ld, ynorm));
    double ny = *ynorm, inv = ny > 0.0 && isfinite(ny) ? 1.0 / ny : 1.0;
    QRU_TRY(omp_correlate(ctx, dt, n, m, X, y->p, y->ld, inv, w, g, h->c,
                          h->tmp));
    for (;;) {
        double rr = h->c[m]; /* (||r|| / ||y||)^2 */
        *rel = sqrt(rr > 0.0 ? rr : 0.0);
        *kout = k;
        if (k > 0) {
            /* y lies in the span of the chosen columns to rounding (the
             * QR rank rule on [X(:, S) y], y's norm the scale): its
             * correlations with the other columns are noise */
            double lim = (double)(n > k + 1 ? n : k + 1) * eps;
            int spanned = *rel <= lim;
            double rn = *rel * ny;
            if (tol >= 0.0 && (rn * rn <= tol || spanned))
                return 0;
            if (spanned) {
                *stop = k + 1;
                qru_fail(*stop, "step %d: y lies in the span of the %d "
                                "chosen columns (||r|| / ||y|| = %g <= "
                                "max(n, k + 1) eps = %g)",
                         k + 1, k, *rel, lim);
                return 0;
            }
        }
        int j = omp_argmax(h->c, m);
        double cj = h->c[j];
        if (!isfinite(cj) || cj == 0.0 || h->active[j]) {
            *stop = k + 1;
            if (!isfinite(cj))
                qru_fail(*stop, "step %d: the correlations X' r are not "
                                "finite (X' r(%d) = %g)", k + 1, j, cj);
            else if (cj == 0.0)
                qru_fail(*stop, "step %d: the residual is orthogonal to "
                                "every column of X (X' r = 0)", k + 1);
            else
                qru_fail(*stop, "step %d: the largest |X' r| is at column "
                                "%d (0-based), already chosen: X' r is "
                                "rounding noise", k + 1, j);
            return 0;
        }
        qru_matrix col = omp_column(X, j);
        if (k == 0) {
            qru_lsq_options opt;
            qru_lsq_options_init(&opt);
            opt.q = QRU_Q_THIN;
            opt.col_capacity = ncoef;
            QRU_TRY(qru_lsq_create(ctx, &col, y, &opt, f));
            /* the update itself (a refactorisation never pays for one
             * column at the end) */
            QRU_TRY(qru_lsq_set_update_algorithm(*f, QRU_UPDATE_FAST));
        } else {
            int st = qru_upd_run(ctx, *f,
                                 (qru_upd_req){QRU_UPD_OP_ADD_COLS, k, 1,
                                               &col, NULL, NULL, NULL, 0,
                                               NULL, -1});
            if (st > 0) { /* the rank rule: X(:, j) depends on X(:, S) */
                *stop = k + 1;
                qru_fail(*stop, "step %d: column %d (0-based) of X is "
                                "numerically dependent on the %d chosen "
                                "(the QR rank rule)", k + 1, j, k);
                return 0;
            }
            QRU_TRY(st);
        }
        h->active[j] = 1;
        h->sup[k++] = j;
        if (k == ncoef) { /* the last step: only ||r|| is needed */
            *kout = k;
            QRU_TRY(omp_correlate(ctx, dt, n, 0, X, (*f)->E, (*f)->ncap, inv,
                                  w, qru_ptr_add(g, (size_t)m), h->c + m,
                                  h->tmp));
            *rel = sqrt(h->c[m] > 0.0 ? h->c[m] : 0.0);
            return 0;
        }
        QRU_TRY(omp_correlate(ctx, dt, n, m, X, (*f)->E, (*f)->ncap, inv, w,
                              g, h->c, h->tmp));
    }
}

/* x(1:k) = R \ d of the k chosen columns into h->x (the device vector w,
 * k elements), and the path P = R \ triu(d * ones(1, k)) into path's
 * leading k x k block (its other elements zero). */
static int omp_solve(qru_context *ctx, const qru_lsq *f, int k, qru_ptr w,
                     qru_ptr ones, qru_matrix *path, omp_host *h)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = f->dtype;
    QRU_TRY(o->copy(ctx, dt, k, 1, f->d, f->ldr, w, k));
    QRU_TRY(o->trsm(ctx, dt, 'L', 'U', 'N', 'N', k, 1, 1.0, f->R, f->ldr, w,
                    k));
    if (dt == QRU_DOUBLE) {
        QRU_TRY(o->download(ctx, dt, k, 1, w, k, h->x, k));
    } else {
        QRU_TRY(o->download(ctx, dt, k, 1, w, k, h->tmp, k));
        for (int i = 0; i < k; ++i)
            h->x[i] = h->tmp[i];
    }
    if (!path)
        return 0;
    qru_ptr P = path->p;
    int ldp = path->ld;
    QRU_TRY(o->laset(ctx, dt, 'A', path->rows, path->cols, 0.0, 0.0, P,
                     ldp));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, k, 1.0, 1.0, ones, 1));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', k, k, 1, 1.0, f->d, f->ldr, ones, 1,
                    0.0, P, ldp));
    if (k > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', k - 1, k - 1, 0.0, 0.0,
                         qru_ptr_add(P, 1), ldp));
    return o->trsm(ctx, dt, 'L', 'U', 'N', 'N', k, k, 1.0, f->R, f->ldr, P,
                   ldp);
}

int qru_omp(qru_context *ctx, const qru_matrix *X, const qru_matrix *y,
            int ncoef, double tol, qru_matrix *coef, qru_matrix *path,
            int *support, qru_solver_info *info)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_MAT(ctx, 2, "X", X, X ? X->dtype : QRU_DOUBLE);
    QRU_ARG(ctx, 2, X->rows >= 1 && X->cols >= 1,
            "X is %d x %d, but it needs rows >= 1 and cols >= 1", X->rows,
            X->cols);
    QRU_CHECK(ctx, qru_check_finite(ctx, 2, X, 'A', 'N', 0));
    qru_dtype dt = X->dtype;
    int n = X->rows, m = X->cols, nm = n < m ? n : m;
    QRU_ARG_MAT(ctx, 3, "y", y, dt);
    QRU_ARG(ctx, 3, y->rows == n && y->cols == 1,
            "y is %d x %d, but it must be n x 1 = %d x 1", y->rows, y->cols,
            n);
    QRU_CHECK(ctx, qru_check_finite(ctx, 3, y, 'A', 'N', 0));
    QRU_ARG(ctx, 4, ncoef >= 1 && ncoef <= nm,
            "ncoef = %d, but 1 <= ncoef <= min(n, m) = %d must hold", ncoef,
            nm);
    QRU_ARG(ctx, 5, !isnan(tol), "tol is NaN (a number >= 0, or < 0 for "
            "no residual test)");
    QRU_ARG_MAT(ctx, 6, "coef", coef, dt);
    QRU_ARG(ctx, 6, coef->rows == m && coef->cols == 1,
            "coef is %d x %d, but it must be m x 1 = %d x 1", coef->rows,
            coef->cols, m);
    QRU_ARG_APART(ctx, 6, "coef", coef, "X", X);
    QRU_ARG_APART(ctx, 6, "coef", coef, "y", y);
    if (path) {
        QRU_ARG_MAT(ctx, 7, "path", path, dt);
        QRU_ARG(ctx, 7, path->rows == ncoef && path->cols == ncoef,
                "path is %d x %d, but it must be ncoef x ncoef = %d x %d",
                path->rows, path->cols, ncoef, ncoef);
        QRU_ARG_APART(ctx, 7, "path", path, "X", X);
        QRU_ARG_APART(ctx, 7, "path", path, "y", y);
        QRU_ARG_APART(ctx, 7, "path", path, "coef", coef);
    }

    /* the device vector g: [X' r; w' w] and w = r / ||y|| while the steps
     * run, then x and the ones of the path (max(m + 1 + n, 2 ncoef)
     * elements) */
    const qru_backend_ops *o = ctx->ops;
    size_t glen = (size_t)m + 1 + (size_t)n;
    if (glen < 2 * (size_t)ncoef)
        glen = 2 * (size_t)ncoef;
    size_t gbytes = 0;
    qru_ptr g = {NULL, 0};
    qru_lsq *f = NULL;
    omp_host h = {0};
    int k = 0, stop = 0, st;
    double rel = 0.0, ynorm = 0.0;
    QRU_TRY_GOTO(omp_host_alloc(&h, dt, m, ncoef));
    gbytes = glen * qru_dtype_size(dt);
    QRU_TRY_GOTO(o->mem_alloc(ctx, gbytes, &g.h));
    QRU_TRY_GOTO(omp_steps(ctx, X, y, ncoef, tol, g, &h, &f, &k, &rel,
                           &ynorm, &stop));
    if (k > 0)
        QRU_TRY_GOTO(omp_solve(ctx, f, k, g, qru_ptr_add(g, (size_t)k), path,
                               &h));
    else if (path)
        QRU_TRY_GOTO(o->laset(ctx, dt, 'A', ncoef, ncoef, 0.0, 0.0, path->p,
                              path->ld));
    for (int i = 0; i < k; ++i) {
        if (dt == QRU_DOUBLE)
            ((double *)h.coef)[h.sup[i]] = h.x[i];
        else
            ((float *)h.coef)[h.sup[i]] = (float)h.x[i];
    }
    QRU_TRY_GOTO(o->upload(ctx, dt, m, 1, h.coef, m, coef->p, coef->ld));
    if (support)
        for (int i = 0; i < ncoef; ++i)
            support[i] = i < k ? h.sup[i] : -1;
    if (info) {
        info->iterations = k;
        info->active = k;
        info->rnorm = rel * ynorm;
        info->dropped = 0;
    }
    st = stop;
done:
    qru_lsq_destroy(f);
    if (g.h) {
        (void)o->sync(ctx);
        o->mem_free(ctx, g.h);
    }
    omp_host_free(&h);
    QRU_RET(ctx, st);
}
