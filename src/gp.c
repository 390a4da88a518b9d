/*
 * Exact Gaussian-process regression (1-D inputs, squared-exponential
 * covariance, Gaussian noise) held as the Cholesky factor of
 * K = k(X, X) + sn2 I that is updated, not recomputed, when training points
 * are added or removed (chol_update.c).  The covariance matrices are
 * evaluated on the host and uploaded; all linear algebra runs on the
 * context's backend.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chol_internal.h"

struct qru_gp {
    qru_context *ctx;
    qru_dtype dt;
    int n, cap, nb;
    double ell, sf2, sn2;
    double *x, *y;     /* host copies of the training data (cap each) */
    qru_ptr L;         /* cap x cap, ld = cap, lower factor in L(0:n,0:n) */
    qru_ptr alpha;     /* cap elements: K \ y when alpha_ok */
    int alpha_ok;
};

void qru_gp_options_init(qru_gp_options *opt)
{
    if (!opt)
        return;
    opt->lengthscale = 1.0;
    opt->signal_var = 1.0;
    opt->noise_var = 1e-2;
    opt->capacity = 0;
    opt->nb = 0;
}

static double kfun(const qru_gp *g, double a, double b)
{
    double d = (a - b) / g->ell;
    return g->sf2 * exp(-0.5 * d * d);
}

/* Diagonal entry of K for the input x, as gp_upload_K forms it (NaN for
 * a non-finite x): what the definiteness rule reads.  kfun(x, x) is
 * sf2 exp(-0) = sf2 exactly for a finite x (and NaN otherwise), so no
 * exponential is evaluated: an insertion judges all n + p pivots, and the
 * exponentials of that diagonal cost as much host time as the kernel
 * column itself. */
static double kdiag(const qru_gp *g, double x)
{
    return isfinite(x) ? g->sf2 + g->sn2 : (double)NAN;
}

/* Uploads an m x n host array of doubles (ld m) as dtype dt; tmp must hold
 * m*n floats when dt is float (conversion in place is not possible). */
static int upload_dbl(qru_context *ctx, qru_dtype dt, int m, int n,
                      const double *src, qru_ptr dst, int ldd, float *tmp)
{
    if (m <= 0 || n <= 0)
        return 0;
    if (dt == QRU_DOUBLE)
        return ctx->ops->upload(ctx, dt, m, n, src, m, dst, ldd);
    size_t cnt = (size_t)m * (size_t)n;
    for (size_t i = 0; i < cnt; ++i)
        tmp[i] = (float)src[i];
    return ctx->ops->upload(ctx, dt, m, n, tmp, m, dst, ldd);
}

static void gp_free_buffers(qru_gp *g)
{
    if (g->L.h)
        g->ctx->ops->mem_free(g->ctx, g->L.h);
    if (g->alpha.h)
        g->ctx->ops->mem_free(g->ctx, g->alpha.h);
    g->L.h = g->alpha.h = NULL;
    free(g->x);
    free(g->y);
    g->x = g->y = NULL;
}

/* Room for n_new points; contents kept; the GP is unchanged on failure. */
static int gp_reserve(qru_gp *g, int n_new)
{
    if (n_new <= g->cap)
        return 0;
    qru_context *ctx = g->ctx;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(g->dt);
    int cap = g->cap + g->cap / 2;
    if (cap < n_new)
        cap = n_new;
    qru_ptr L = {0, 0}, a = {0, 0};
    double *x = malloc(sizeof(double) * (size_t)cap);
    double *y = malloc(sizeof(double) * (size_t)cap);
    size_t bL = 0;
    int st = (x && y) ? qru_bytes(es, cap, cap, &bL) : QRU_HOST_ALLOC_FAILED;
    if (!st)
        st = o->mem_alloc(ctx, bL, &L.h);
    if (!st)
        st = o->mem_alloc(ctx, es * (size_t)cap, &a.h);
    if (!st)
        st = o->lacpy(ctx, g->dt, 'L', g->n, g->n, g->L, g->cap, L, cap);
    if (!st)
        st = o->sync(ctx);
    if (st) {
        if (L.h)
            o->mem_free(ctx, L.h);
        if (a.h)
            o->mem_free(ctx, a.h);
        free(x);
        free(y);
        return st;
    }
    if (g->n > 0) {
        memcpy(x, g->x, sizeof(double) * (size_t)g->n);
        memcpy(y, g->y, sizeof(double) * (size_t)g->n);
    }
    gp_free_buffers(g);
    g->x = x;
    g->y = y;
    g->L = L;
    g->alpha = a;
    g->cap = cap;
    g->alpha_ok = 0;
    return 0;
}

/* Uploads the lower part of K = k(X, X) + sn2 I into L (column blocks). */
static int gp_upload_K(qru_gp *g)
{
    int n = g->n;
    int bc = n > 0 ? (int)((1u << 20) / (unsigned)n) : 1;
    if (bc < 1)
        bc = 1;
    if (bc > n)
        bc = n;
    if (n == 0)
        return 0;
    double *K = malloc(sizeof(double) * (size_t)n * (size_t)bc);
    float *tmp = g->dt == QRU_FLOAT
                     ? malloc(sizeof(float) * (size_t)n * (size_t)bc)
                     : NULL;
    int st = (!K || (g->dt == QRU_FLOAT && !tmp)) ? QRU_HOST_ALLOC_FAILED : 0;
    for (int j0 = 0; !st && j0 < n; j0 += bc) {
        int jb = n - j0 < bc ? n - j0 : bc;
        for (int j = 0; j < jb; ++j)
            for (int i = 0; i < n; ++i)
                K[i + (size_t)j * n] =
                    kfun(g, g->x[i], g->x[j0 + j]) + (i == j0 + j ? g->sn2 : 0);
        st = upload_dbl(g->ctx, g->dt, n, jb, K,
                        qru_ptr_at(g->L, g->cap, 0, j0), g->cap, tmp);
        if (!st)
            st = g->ctx->ops->sync(g->ctx); /* K is reused */
    }
    free(K);
    free(tmp);
    return st;
}

/* 0 when the options (argument 6) fit n points, else -6. */
static int gp_opts_check(const qru_gp_options *opt, int n)
{
    if (!(opt->lengthscale > 0.0) || !isfinite(opt->lengthscale))
        return qru_fail_arg(6, "opt->lengthscale = %g, but it must be "
                               "finite and > 0", opt->lengthscale);
    if (!(opt->signal_var > 0.0) || !isfinite(opt->signal_var))
        return qru_fail_arg(6, "opt->signal_var = %g, but it must be finite "
                               "and > 0", opt->signal_var);
    if (!(opt->noise_var >= 0.0) || !isfinite(opt->noise_var))
        return qru_fail_arg(6, "opt->noise_var = %g, but it must be finite "
                               "and >= 0", opt->noise_var);
    if (opt->capacity < 0 || (opt->capacity != 0 && opt->capacity < n))
        return qru_fail_arg(6, "opt->capacity = %d, but it must be 0 or >= "
                               "n = %d", opt->capacity, n);
    if (opt->nb < 0)
        return qru_fail_arg(6, "opt->nb = %d, but nb must be >= 0", opt->nb);
    return 0;
}

static int gp_create(qru_context *ctx, qru_dtype dtype, int n,
                     const double *x, const double *y,
                     const qru_gp_options *opt, qru_gp **gp)
{
    qru_gp *g = calloc(1, sizeof *g);
    if (!g)
        return QRU_HOST_ALLOC_FAILED;
    g->ctx = ctx;
    g->dt = dtype;
    g->ell = opt->lengthscale;
    g->sf2 = opt->signal_var;
    g->sn2 = opt->noise_var;
    g->nb = opt->nb;
    g->cap = 0;
    int want = opt->capacity > n ? opt->capacity : n;
    int st = gp_reserve(g, want > 0 ? want : 1);
    if (!st) {
        g->n = n;
        if (n > 0) {
            memcpy(g->x, x, sizeof(double) * (size_t)n);
            memcpy(g->y, y, sizeof(double) * (size_t)n);
        }
        st = gp_upload_K(g);
    }
    if (!st && n > 0) {
        /* the factorisation of qru_chol_factor (the vendor's potrf where
         * that is the default, src/chol.c) */
        qru_ptr ws;
        size_t need = 0;
        double *adiag = malloc(sizeof(double) * 2 * (size_t)n);
        st = adiag ? 0 : QRU_HOST_ALLOC_FAILED;
        for (int i = 0; !st && i < n; ++i)
            adiag[i] = kdiag(g, x[i]);
        if (!st)
            st = qru_chol_run_ws(ctx, dtype, n, QRU_CHOL_LEFT, g->nb, &need);
        if (!st)
            st = qru_ctx_workspace(ctx, need * qru_dtype_size(dtype), &ws);
        if (!st)
            st = qru_chol_run(ctx, dtype, 'L', n, g->L, g->cap,
                              QRU_CHOL_LEFT, g->nb, ws, adiag, adiag + n);
        free(adiag);
    }
    if (st) {
        gp_free_buffers(g);
        free(g);
        return st;
    }
    *gp = g;
    return 0;
}

/* x (4) and y (5): n host values each, not NULL when n > 0 */
#define QRU_ARG_XY(ctx, n, x, y)                                               \
    QRU_ARG(ctx, 4, n == 0 || x, "x is NULL, but it must hold %d values", n);  \
    QRU_CHECK(ctx, qru_check_finite_host(ctx, 4, x, (size_t)n));               \
    QRU_ARG(ctx, 5, n == 0 || y, "y is NULL, but it must hold %d values", n);  \
    QRU_CHECK(ctx, qru_check_finite_host(ctx, 5, y, (size_t)n))

int qru_gp_create(qru_context *ctx, qru_dtype dtype, int n, const double *x,
                  const double *y, const qru_gp_options *opt, qru_gp **gp)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG(ctx, 2,
            dtype == QRU_FLOAT || dtype == QRU_DOUBLE || qru_dtype_complex(dtype),
            "dtype = %d is not a qru_dtype (QRU_FLOAT (1) .. "
            "QRU_COMPLEX_DOUBLE (4))", (int)dtype);
    QRU_ARG(ctx, 3, n >= 0, "n = %d, but n must be >= 0", n);
    QRU_ARG_XY(ctx, n, x, y);
    qru_gp_options def;
    if (!opt) {
        qru_gp_options_init(&def);
        opt = &def;
    }
    QRU_CHECK(ctx, gp_opts_check(opt, n));
    QRU_ARG(ctx, 7, gp, "gp (the output) is NULL");
    QRU_CHECK(ctx, qru_check_supports(ctx, dtype));
    QRU_CHECK(ctx, qru_check_real(dtype));
    QRU_CHECK(ctx, qru_chol_ops_check(ctx));
    QRU_RET(ctx, gp_create(ctx, dtype, n, x, y, opt, gp));
}

void qru_gp_destroy(qru_gp *gp)
{
    if (!gp)
        return;
    gp->ctx->ops->sync(gp->ctx);
    gp_free_buffers(gp);
    free(gp);
}

int qru_gp_size(const qru_gp *gp) { return gp ? gp->n : -1; }

/* alpha = K \ y (queued), if not current. */
static int gp_alpha(qru_gp *g)
{
    if (g->alpha_ok || g->n == 0)
        return 0;
    const qru_backend_ops *o = g->ctx->ops;
    int n = g->n;
    float *tmp = NULL;
    if (g->dt == QRU_FLOAT && !(tmp = malloc(sizeof(float) * (size_t)n)))
        return QRU_HOST_ALLOC_FAILED;
    int st = upload_dbl(g->ctx, g->dt, n, 1, g->y, g->alpha, n, tmp);
    if (!st)
        st = o->sync(g->ctx); /* tmp is freed below */
    free(tmp);
    if (!st)
        st = o->trsm(g->ctx, g->dt, 'L', 'L', 'N', 'N', n, 1, 1.0, g->L,
                     g->cap, g->alpha, n);
    if (!st)
        st = o->trsm(g->ctx, g->dt, 'L', 'L', 'T', 'N', n, 1, 1.0, g->L,
                     g->cap, g->alpha, n);
    if (!st)
        g->alpha_ok = 1;
    return st;
}

static int gp_predict(qru_gp *gp, int m, const double *xs, double *mean,
                      double *var)
{
    int n = gp->n;
    if (n == 0) {
        for (int i = 0; i < m; ++i) {
            mean[i] = 0.0;
            if (var)
                var[i] = gp->sf2;
        }
        return 0;
    }
    qru_context *ctx = gp->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = gp->dt;
    QRU_TRY(gp_alpha(gp));
    int mc = (int)((1u << 22) / (unsigned)n);
    if (mc < 1)
        mc = 1;
    if (mc > m)
        mc = m;
    qru_ptr ws;
    size_t ksz = qru_chol_align((size_t)n * (size_t)mc);
    QRU_TRY(qru_ctx_workspace(ctx, (ksz + (size_t)mc) * qru_dtype_size(dt), &ws));
    qru_ptr Ks = ws, mu = qru_ptr_add(ws, ksz);
    double *hk = malloc(sizeof(double) * (size_t)n * (size_t)mc);
    double *nrm = malloc(sizeof(double) * (size_t)mc);
    float *tmp =
        dt == QRU_FLOAT ? malloc(sizeof(float) * (size_t)n * (size_t)mc) : NULL;
    int st = (!hk || !nrm || (dt == QRU_FLOAT && !tmp)) ? QRU_HOST_ALLOC_FAILED : 0;
    for (int c0 = 0; !st && c0 < m; c0 += mc) {
        int cb = m - c0 < mc ? m - c0 : mc;
        for (int j = 0; j < cb; ++j)
            for (int i = 0; i < n; ++i)
                hk[i + (size_t)j * n] = kfun(gp, gp->x[i], xs[c0 + j]);
        st = upload_dbl(ctx, dt, n, cb, hk, Ks, n, tmp);
        if (!st) /* mean = Ks' alpha */
            st = o->gemm(ctx, dt, 'T', 'N', cb, 1, n, 1.0, Ks, n, gp->alpha,
                         n, 0.0, mu, cb);
        if (!st)
            st = qru_chol_read_row(ctx, dt, cb, mu, 1, mean + c0);
        if (!st && var) { /* var = sf2 - ||L \ Ks(:, j)||^2 */
            st = o->trsm(ctx, dt, 'L', 'L', 'N', 'N', n, cb, 1.0, gp->L,
                         gp->cap, Ks, n);
            if (!st)
                st = o->col_norms(ctx, dt, n, cb, Ks, n, nrm);
            for (int j = 0; !st && j < cb; ++j)
                var[c0 + j] = gp->sf2 - nrm[j] * nrm[j];
        }
        if (!st)
            st = o->sync(ctx); /* hk / tmp are reused */
    }
    free(hk);
    free(nrm);
    free(tmp);
    return st;
}

int qru_gp_predict(qru_gp *gp, int m, const double *xs, double *mean,
                   double *var)
{
    QRU_ARG(NULL, 1, gp, "gp is NULL");
    qru_context *ctx = gp->ctx;
    QRU_ARG(ctx, 2, m >= 0, "m = %d, but m must be >= 0", m);
    QRU_ARG(ctx, 3, m == 0 || xs, "xs is NULL, but it must hold m = %d "
            "values", m);
    QRU_CHECK(ctx, qru_check_finite_host(ctx, 3, xs, (size_t)m));
    QRU_ARG(ctx, 4, m == 0 || mean, "mean (the output) is NULL");
    if (m == 0)
        QRU_RET(ctx, 0);
    QRU_RET(ctx, gp_predict(gp, m, xs, mean, var));
}

static int gp_log_likelihood(qru_gp *gp, double *lml)
{
    int n = gp->n;
    if (n == 0) {
        *lml = 0.0;
        return 0;
    }
    QRU_TRY(gp_alpha(gp));
    double *buf = malloc(sizeof(double) * (size_t)n);
    if (!buf)
        return QRU_HOST_ALLOC_FAILED;
    int st = qru_chol_read_row(gp->ctx, gp->dt, n, gp->alpha, 1, buf);
    double fit = 0.0, logdet = 0.0;
    for (int i = 0; !st && i < n; ++i)
        fit += gp->y[i] * buf[i];
    if (!st)
        st = qru_chol_read_row(gp->ctx, gp->dt, n, gp->L, gp->cap + 1, buf);
    for (int i = 0; !st && i < n; ++i)
        logdet += log(buf[i]);
    free(buf);
    if (st)
        return st;
    *lml = -0.5 * fit - logdet - 0.5 * n * log(2.0 * 3.14159265358979323846);
    return 0;
}

int qru_gp_log_likelihood(qru_gp *gp, double *lml)
{
    QRU_ARG(NULL, 1, gp, "gp is NULL");
    QRU_ARG(gp->ctx, 2, lml, "lml (the output) is NULL");
    QRU_RET(gp->ctx, gp_log_likelihood(gp, lml));
}

/* Appending p points at the end (k = n): with the new columns
 * C = [C1; C2] of K1 (n and p rows) in device memory (ldc; overwritten),
 *   S1 = L \ C1,  S2 = chol(C2 - S1' S1),  L1 = [L 0; S1' S2].
 * Only the new rows n..n+p-1 of the factor are computed, in C's buffer,
 * and written into L after the failure information was read: the old
 * factor is untouched by construction and nothing of size n x n is copied
 * (qru_chol_insert_lower in general copies the rows after k).  head:
 * n + p + 1 elements of workspace (qru_chol_verdict_head) where the pivots (the
 * old factor's diagonal, judged again since the order grew, and S2's) and
 * the failure flag are gathered to come back in ONE transfer; adiag: the
 * diagonal of K1 (n + p); h: n + p + 1 host doubles. */
static int gp_append(qru_gp *g, qru_ptr C, int ldc, qru_ptr head,
                     const double *adiag, double *h)
{
    qru_context *ctx = g->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = g->dt;
    int n = g->n, p = ldc - n;
    qru_ptr C2 = qru_ptr_add(C, (size_t)n), info = qru_ptr_add(head, (size_t)ldc);
    QRU_TRY(qru_chol_info_zero(ctx, dt, info));
    if (n > 0) {
        QRU_TRY(o->trsm(ctx, dt, 'L', 'L', 'N', 'N', n, p, 1.0, g->L, g->cap, C,
                    ldc));
        QRU_TRY(o->syrk(ctx, dt, 'L', 'T', p, n, -1.0, C, ldc, 1.0, C2, ldc));
    }
    QRU_TRY(qru_potrf_run(ctx, dt, 'L', p, C2, ldc, QRU_CHOL_LEFT,
                      qru_chol_nb(ctx, dt, g->nb, p), info, n));
    QRU_TRY(qru_chol_verdict_gathered(ctx, dt, ldc, adiag, h, n, g->L,
                                      g->cap + 1, C2, ldc + 1, head));
    if (n > 0) /* L1(n:n+p, 0:n) = S1' */
        QRU_TRY(o->transpose(ctx, dt, n, p, C, ldc,
                         qru_ptr_at(g->L, g->cap, n, 0), g->cap));
    return o->lacpy(ctx, dt, 'L', p, p, C2, ldc,
                    qru_ptr_at(g->L, g->cap, n, n), g->cap);
}

static int gp_insert(qru_gp *gp, int k, int p, const double *x,
                     const double *y)
{
    int n = gp->n;
    qru_context *ctx = gp->ctx;
    qru_dtype dt = gp->dt;
    QRU_TRY(gp_reserve(gp, n + p));
    int n1 = n + p;
    /* C = K1(:, k+1:k+p) in the new ordering */
    double *C = malloc(sizeof(double) * ((size_t)n1 * (size_t)(p + 2) + 1));
    float *tmp =
        dt == QRU_FLOAT ? malloc(sizeof(float) * (size_t)n1 * (size_t)p) : NULL;
    if (!C || (dt == QRU_FLOAT && !tmp)) {
        free(C);
        free(tmp);
        return QRU_HOST_ALLOC_FAILED;
    }
    double *adiag = C + (size_t)n1 * p; /* diagonal of K1 */
    double *piv = adiag + n1; /* scratch of the verdict (n1 + 1) */
    for (int i = 0; i < n1; ++i) {
        double xi = i < k ? gp->x[i] : i < k + p ? x[i - k] : gp->x[i - p];
        adiag[i] = kdiag(gp, xi);
        for (int q = 0; q < p; ++q)
            C[i + (size_t)q * n1] =
                kfun(gp, xi, x[q]) + (i == k + q ? gp->sn2 : 0.0);
    }
    size_t csz = qru_chol_align((size_t)n1 * (size_t)p);
    qru_ptr ws;
    int st;
    if (k == n) {
        st = qru_ctx_workspace(ctx, (qru_chol_verdict_head(n1) + csz) *
                                        qru_dtype_size(dt),
                               &ws);
        qru_ptr Cd = qru_ptr_add(ws, qru_chol_verdict_head(n1));
        if (!st)
            st = upload_dbl(ctx, dt, n1, p, C, Cd, n1, tmp);
        if (!st)
            st = gp_append(gp, Cd, n1, ws, adiag, piv);
    } else {
        st = qru_ctx_workspace(
            ctx, (csz + qru_chol_insert_lower_ws(n, k, p)) * qru_dtype_size(dt),
            &ws);
        if (!st)
            st = upload_dbl(ctx, dt, n1, p, C, ws, n1, tmp);
        if (!st)
            st = qru_chol_insert_lower(ctx, dt, n, k, p, gp->L, gp->cap, ws,
                                       n1, 'L', gp->L, gp->cap, gp->nb,
                                       qru_ptr_add(ws, csz), adiag, piv);
    }
    free(C);
    free(tmp);
    if (st)
        return st;
    memmove(gp->x + k + p, gp->x + k, sizeof(double) * (size_t)(n - k));
    memmove(gp->y + k + p, gp->y + k, sizeof(double) * (size_t)(n - k));
    memcpy(gp->x + k, x, sizeof(double) * (size_t)p);
    memcpy(gp->y + k, y, sizeof(double) * (size_t)p);
    gp->n = n1;
    gp->alpha_ok = 0;
    return 0;
}

/* gp (1), the position k (2) and the count p >= 0 (3) of qru_gp_insert
 * and qru_gp_remove */
#define QRU_ARG_GP_K_P(gp, k, p)                                               \
    QRU_ARG(NULL, 1, gp, "gp is NULL");                                        \
    QRU_ARG(gp->ctx, 2, k >= 0 && k <= gp->n,                                  \
            "k = %d, but 0 <= k <= n = %d must hold (n: the points held)", k,  \
            gp->n);                                                            \
    QRU_ARG(gp->ctx, 3, p >= 0, "p = %d, but p must be >= 0", p)

int qru_gp_insert(qru_gp *gp, int k, int p, const double *x, const double *y)
{
    QRU_ARG_GP_K_P(gp, k, p);
    qru_context *ctx = gp->ctx;
    QRU_ARG_XY(ctx, p, x, y);
    if (p == 0)
        QRU_RET(ctx, 0);
    QRU_RET(ctx, gp_insert(gp, k, p, x, y));
}

static int gp_remove(qru_gp *gp, int k, int p)
{
    int n = gp->n;
    qru_context *ctx = gp->ctx;
    qru_ptr ws;
    QRU_TRY(qru_ctx_workspace(
        ctx, qru_chol_delete_lower_ws(n, k, p) * qru_dtype_size(gp->dt), &ws));
    double *adiag = malloc(sizeof(double) * 2 * (size_t)(n - p + 1));
    if (!adiag)
        return QRU_HOST_ALLOC_FAILED;
    for (int i = 0; i < n - p; ++i)
        adiag[i] = kdiag(gp, gp->x[i < k ? i : i + p]);
    int st = qru_chol_delete_lower(ctx, gp->dt, n, k, p, gp->L, gp->cap,
                                   gp->L, gp->cap, ws, adiag,
                                   adiag + n - p + 1);
    free(adiag);
    if (st)
        return st;
    memmove(gp->x + k, gp->x + k + p, sizeof(double) * (size_t)(n - k - p));
    memmove(gp->y + k, gp->y + k + p, sizeof(double) * (size_t)(n - k - p));
    gp->n = n - p;
    gp->alpha_ok = 0;
    return 0;
}

int qru_gp_remove(qru_gp *gp, int k, int p)
{
    QRU_ARG_GP_K_P(gp, k, p);
    qru_context *ctx = gp->ctx;
    int n = gp->n;
    QRU_ARG(ctx, 3, p <= n - k,
            "p = %d, but k + p must be <= n = %d (k = %d)", p, n, k);
    if (p == 0)
        QRU_RET(ctx, 0);
    QRU_RET(ctx, gp_remove(gp, k, p));
}

int qru_gp_get_factor(const qru_gp *gp, qru_matrix *L)
{
    QRU_ARG(NULL, 1, gp, "gp is NULL");
    qru_context *ctx = gp->ctx;
    QRU_ARG_MAT(ctx, 2, "L", L, gp->dt);
    QRU_ARG(ctx, 2, L->rows == gp->n && L->cols == gp->n,
            "L is %d x %d, but it must be n x n = %d x %d", L->rows, L->cols,
            gp->n, gp->n);
    const qru_backend_ops *o = ctx->ops;
    int n = gp->n;
    QRU_CHECK(ctx, o->laset(ctx, gp->dt, 'A', n, n, 0.0, 0.0, L->p, L->ld));
    QRU_RET(ctx,
            o->lacpy(ctx, gp->dt, 'L', n, n, gp->L, gp->cap, L->p, L->ld));
}

int qru_gp_get_data(const qru_gp *gp, double *x, double *y)
{
    QRU_ARG(NULL, 1, gp, "gp is NULL");
    if (x && gp->n > 0)
        memcpy(x, gp->x, sizeof(double) * (size_t)gp->n);
    if (y && gp->n > 0)
        memcpy(y, gp->y, sizeof(double) * (size_t)gp->n);
    return 0;
}
