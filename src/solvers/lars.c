/*
 * Least angle regression and the Lasso path by homotopy (Efron, Hastie,
 * Johnstone and Tibshirani 2004), written once for both precisions
 * against the update API, step for step as scikit-learn's lars_path
 * (method 'lar' or 'lasso', X given, no Gram; positive = True with
 * 'lasso': only positive correlations enter, the coefficients stay
 * >= 0).
 *
 * The active columns X_A are held as a thin least-squares factorisation
 * (QRU_Q_THIN: X_A = Q1 R) grown by one column when a variable enters
 * (qru_upd_run with an added column, appended) and shrunk by one when a
 * Lasso coefficient crosses zero (a removed column, at its position).
 * Thin rather than Q-less or a Cholesky factor of X_A' X_A: with Q1 the
 * equiangular vector needs no scatter of the active set and no squared
 * condition number: with G = X_A' X_A = R' R and s the active signs,
 * v = R' \ s, w = G^-1 s = R \ v and X_A w = Q1 v, so the direction is
 * two triangular solves, one product with Q1 (n x |A|) and one with X'
 * (the correlations of every column with it).  R(k,k) of the entering
 * column is scikit-learn's Cholesky pivot sqrt(c - v): below 1e-7 (or
 * n eps ||x_t||, where larger: float) the
 * column is degenerate and dropped again, as there.
 *
 * The factorisation is that of X(:, A) D^-1, D = diag(d_j) with d_j the
 * power of 2 nearest ||X(:, j)|| (1 for a zero column): the update's
 * rank rule, relative to the largest column norm, then judges each
 * column against its own scale, as scikit-learn's absolute pivot does
 * (unscaled, a column of norm 1e20 would make it refuse an independent
 * column of norm 1).  Powers of 2 scale exactly, so the solves are
 * those of the unscaled factor bit for bit: with R~ = R D^-1, v =
 * R~' \ (D^-1 s), w = D^-1 (R~ \ v), u = Q1 v, |R(k,k)| = |R~(k,k)| d_k.
 *
 * Host and device: X and y stay in the context.  The correlations
 * c = X' y are computed once (one GEMM) and then, as scikit-learn does,
 * updated on the host with gamma X' u; per step the host uploads s (|A|
 * numbers) and downloads X' (Q1 v), R(k,k) and w together (m + 1 + |A|
 * numbers, 1 host wait); an entering column costs the update's rank rule
 * (1 wait), a leaving one the correlation of the dropped column with
 * the new residual (1 upload of the coefficients, 1 wait).  The path
 * (coefficients and alphas) is kept on the host in double and written to
 * the caller's outputs only at the end.
 *
 * The Gram form (scikit-learn's own arithmetic: it forms the Cholesky
 * factor of X_A' X_A) trades the thin form's conditioning for latency:
 * each update of the thin form is a pipeline of dozens of calls with
 * host waits of its own, and a triangular solve with one right-hand side
 * of order |A| is slow on a GPU.  It holds the active set in the Gram
 * active set of src/solvers/gram_set.c (shared with qru_nnls; its header
 * describes it): G = X' X formed once, the active columns in slots of
 * Gs = G(:, A) and of the inverse factor W (W W' = G(A, A)^-1), S the
 * signs (set where they change).  The step's arithmetic runs on the
 * device (lars_run_gram, the op lars_gram_step): the entering column
 * bordered on, w = W (W' S), corr = Gs w, gamma, the crossing
 * coefficients, the path's next column (kept on the device, copied to
 * coefs at the end) and the correlations of every column updated in the
 * op's state, and the next column picked; the host reads the op's
 * record and the picks of its blocks of 256 rows (a few numbers, 1
 * wait) and keeps the order of the columns, the signs and the alphas.
 * d, the entering column's pivot, is scikit-learn's, judged in the op:
 * below max(1e-7, sqrt(n eps) ||X(:, t)||) (or flagged) the column is
 * degenerate (G resolves d^2 only to n eps ||X(:, t)||^2), nothing is
 * updated, its correlation is 0, and it leaves by zeroing W(:, q).  A
 * column leaving otherwise costs a Householder reflection of W from the
 * right (1 wait), its correlation with the residual (GEMMs into the
 * op's state) and the op's LEAVE (1 wait).  Its conditioning is that of
 * G, cond(X_A)^2, as scikit-learn's; its pivots, unscaled, are those of
 * the Cholesky factor, so X is not scaled.
 *
 * The form: the tuning block's lars_gram (auto, off, on).  auto prices
 * both forms by dry runs (qru_gram_choose, as qru_omp's forms are
 * priced: the start and a step from min(max_iter, kmax) / 2 columns)
 * and takes the cheaper, the Gram form only in double, within
 * omp_gram_mib and where X' X cannot overflow.  A path auto runs in the
 * Gram form that meets a degenerate column starts again in the thin
 * form: in the Gram form a copy of an active column ties with it
 * exactly, so it is tried and dropped as degenerate, and scikit-learn's
 * rule for a dropped column (its correlation set to 0, followed here
 * because scikit-learn's own tests hold qru's path to it) can then break
 * the Lasso's conditions, as on scikit-learn's own path; the thin form's
 * rounding rarely ties such copies.  on keeps the Gram form throughout.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"
#include "solver.h"

/* The state of a path: host arrays (double) and the device buffer. */
typedef struct lars_state {
    qru_lsq *f;   /* the factorisation of X(:, A), NULL while A is empty */
    int na;       /* |A| */
    qru_context *ctx;
    const qru_matrix *X, *y;
    qru_dtype dt;
    int n, m, kmax;
    int *perm;    /* perm[0 .. na-1]: A in order of entry; then the
                     inactive columns in scikit-learn's order (m) */
    double *cov;  /* cov[j]: the correlation of column j (inactive) (m) */
    double *corr; /* X' u for the last direction u (m) */
    double *sgn;  /* the signs of A, in perm's order (kmax) */
    double *w;    /* G^-1 s, then the scaled least squares (kmax) */
    double *piv;  /* piv[j]: the smallest pivot |R(k,k)| column j may
                     enter with (m) */
    double *dsc;  /* dsc[j]: the power of 2 that scales column j (m) */
    double *nrm;  /* nrm[j]: ||X(:, j)|| (m) */
    double *cov0; /* X' y, kept for a path run again (m) */
    int dropped;  /* columns dropped as degenerate */
    double rkk;   /* |R(k,k)| of the last column, as downloaded */
    void *hbuf;   /* staging: max(m + 2 + kmax, m) elements of dt */
    qru_ptr dev;  /* device: C (m), Rkk (1), W (kmax), V (kmax), U (n),
                     CF (m), RR (n) */
    const struct lars_form *form; /* the thin QR form's operations */
    int gram;     /* 1: the Gram form (lars_run_gram), 0: the thin QR form */
    int fallback; /* 1: a degenerate column ends the Gram form's path,
                     which the thin form then runs from the start */
    /* the Gram form's device state (lars_gram_step): ls (the layout
     * qru_lars_ws_of(m, kmax)) and the path P (m x pcap) */
    qru_ptr ls, P;
    int pcap;
    /* the Gram form: column i (its position in perm) in slot
     * g.slot[i]; S the signs */
    qru_gram_set g;
} lars_state;

/* A form of the active set: its column operations and its direction. */
typedef struct lars_form {
    int (*add)(lars_state *s, int t);    /* 0, 1 (refused) or a status */
    int (*remove)(lars_state *s, int i); /* position i of A */
    int (*rkk)(lars_state *s);           /* s->rkk of the last added */
    int (*direction)(lars_state *s);     /* corr, w and rkk */
} lars_form;

static size_t lars_off_w(const lars_state *s) { return (size_t)s->m + 1; }
static size_t lars_off_v(const lars_state *s)
{
    return (size_t)s->m + 1 + (size_t)s->kmax;
}
static size_t lars_off_u(const lars_state *s)
{
    return (size_t)s->m + 1 + 2 * (size_t)s->kmax;
}
static size_t lars_off_cf(const lars_state *s)
{
    return lars_off_u(s) + (size_t)s->n;
}
static size_t lars_off_rr(const lars_state *s)
{
    return lars_off_cf(s) + (size_t)s->m;
}

static double lars_hget(const lars_state *s, int i)
{
    return s->dt == QRU_DOUBLE ? ((const double *)s->hbuf)[i]
                               : (double)((const float *)s->hbuf)[i];
}

static void lars_hset(lars_state *s, int i, double v)
{
    if (s->dt == QRU_DOUBLE)
        ((double *)s->hbuf)[i] = v;
    else
        ((float *)s->hbuf)[i] = (float)v;
}

/* The scan of argument i (M): -i when a column holds a NaN or an
 * infinity (or its norm overflows), whatever QRU_OPTION_CHECK_FINITE
 * says (nrm: M->cols doubles of scratch). */
static int lars_scan(qru_context *ctx, int i, const char *name,
                     const qru_matrix *M, double *nrm)
{
    QRU_TRY(qru_check_finite(ctx, i, M, 'A', 'N', 0));
    QRU_TRY(ctx->ops->col_norms(ctx, M->dtype, M->rows, M->cols, M->p, M->ld,
                                nrm));
    for (int j = 0; j < M->cols; ++j)
        if (!isfinite(nrm[j]))
            return qru_fail_arg(i, "column %d of %s has the norm %g: it "
                                   "holds a NaN or an infinity",
                                j + 1, name, nrm[j]);
    return 0;
}

/* The checks of X (2, after its type and shape) .. nsteps (11), in
 * order; nrm (m doubles) receives the column norms of X. */
static int lars_args(qru_context *ctx, const qru_matrix *X,
                     const qru_matrix *y, int lasso, int positive,
                     int max_iter,
                     double alpha_min, const double *alphas,
                     const int *active, const qru_matrix *coefs,
                     const int *nsteps, double *nrm)
{
    QRU_TRY(lars_scan(ctx, 2, "X", X, nrm));
    QRU_TRY(qru_arg_matrix(ctx, 3, "y", y, X->dtype));
    if (y->rows != X->rows || y->cols != 1)
        return qru_fail_arg(3, "y is %d x %d, but it must be %d x 1 (X's "
                               "rows)", y->rows, y->cols, X->rows);
    double ynrm; /* (nrm keeps X's column norms) */
    QRU_TRY(lars_scan(ctx, 3, "y", y, &ynrm));
    if (lasso != 0 && lasso != 1)
        return qru_fail_arg(4, "lasso = %d, but it must be 0 (LAR) or 1 "
                               "(the Lasso path)", lasso);
    if (positive != 0 && positive != 1)
        return qru_fail_arg(5, "positive = %d, but it must be 0 or 1",
                            positive);
    if (positive && !lasso)
        return qru_fail_arg(5, "positive = 1 needs lasso = 1: LAR has no "
                               "sign constraint (scikit-learn: \"Positive "
                               "constraint not supported for 'lar' coding "
                               "method\")");
    if (max_iter < 0)
        return qru_fail_arg(6, "max_iter = %d, but it must be >= 0",
                            max_iter);
    if (!(isfinite(alpha_min) && alpha_min >= 0.0))
        return qru_fail_arg(7, "alpha_min = %g, but it must be finite and "
                               ">= 0", alpha_min);
    if (!alphas)
        return qru_fail_arg(8, "alphas is NULL (it needs max_iter + 1 = "
                               "%lld entries)", (long long)max_iter + 1);
    if (!active)
        return qru_fail_arg(9, "active is NULL (it needs min(n, m) = %d "
                               "entries)",
                            X->rows < X->cols ? X->rows : X->cols);
    QRU_TRY(qru_arg_matrix(ctx, 10, "coefs", coefs, X->dtype));
    if (coefs->rows != X->cols || (long long)coefs->cols < (long long)max_iter + 1)
        return qru_fail_arg(10, "coefs is %d x %d, but it must be %d x c "
                                "with c >= max_iter + 1 = %lld",
                            coefs->rows, coefs->cols, X->cols,
                            (long long)max_iter + 1);
    if (qru_mat_overlap(coefs, X))
        return qru_fail_arg(10, "coefs overlaps X (they share memory)");
    if (qru_mat_overlap(coefs, y))
        return qru_fail_arg(10, "coefs overlaps y (they share memory)");
    if (!nsteps)
        return qru_fail_arg(11, "nsteps is NULL");
    return 0;
}

/* Appends X(:, t) / dsc[t] to the factorisation (scaled in RR, free
 * between steps): 0, 1 (refused by the rank rule) or a status. */
static int lars_add(lars_state *s, int t)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_ptr RR = qru_ptr_add(s->dev, lars_off_rr(s));
    QRU_TRY(o->laset(ctx, s->dt, 'A', s->n, 1, 0.0, 0.0, RR, s->n));
    QRU_TRY(o->geadd(ctx, s->dt, s->n, 1, 1.0 / s->dsc[t],
                     qru_ptr_at(s->X->p, s->X->ld, 0, t), s->X->ld, 1.0, RR,
                     s->n));
    qru_matrix col = *s->X; /* a header over RR, freed with nothing */
    col.cols = 1;
    col.ld = s->n;
    col.p = RR;
    col.owned = 0;
    return qru_solver_add_col(ctx, &col, s->y, 0, s->kmax, &s->f);
}

static int lars_remove(lars_state *s, int i)
{
    return qru_solver_remove_col(s->ctx, &s->f, i);
}
/* |R(k,k)| of the last column of the factorisation (k = f->m; 1 wait). */
static int lars_rkk(lars_state *s)
{
    qru_lsq *f = s->f;
    int k = f->m - 1;
    QRU_TRY(s->ctx->ops->download(s->ctx, s->dt, 1, 1,
                                  qru_ptr_at(f->R, f->ldr, k, k), 1, s->hbuf,
                                  1));
    s->rkk = fabs(lars_hget(s, 0)) * s->dsc[s->perm[k]];
    return 0;
}

/* The direction of the current signs (k = f->m of them): w = G^-1 s and
 * corr = X' X_A w, and |R(k,k)| of the last column (one wait), from the
 * factor R~ of X_A D^-1. */
static int lars_direction(lars_state *s)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_lsq *f = s->f;
    int k = f->m, m = s->m;
    qru_ptr C = s->dev, Rk = qru_ptr_add(s->dev, (size_t)m),
            W = qru_ptr_add(s->dev, lars_off_w(s)),
            V = qru_ptr_add(s->dev, lars_off_v(s)),
            U = qru_ptr_add(s->dev, lars_off_u(s));
    for (int i = 0; i < k; ++i)
        lars_hset(s, i, s->sgn[i] / s->dsc[s->perm[i]]);
    QRU_TRY(o->upload(ctx, s->dt, k, 1, s->hbuf, k, V, k));
    QRU_TRY(o->trsm(ctx, s->dt, 'L', 'U', 'T', 'N', k, 1, 1.0, f->R, f->ldr,
                    V, k));
    QRU_TRY(o->copy(ctx, s->dt, k, 1, V, k, W, k));
    QRU_TRY(o->trsm(ctx, s->dt, 'L', 'U', 'N', 'N', k, 1, 1.0, f->R, f->ldr,
                    W, k));
    QRU_TRY(o->gemm(ctx, s->dt, 'N', 'N', s->n, 1, k, 1.0, f->Q, f->ncap, V,
                    k, 0.0, U, s->n));
    QRU_TRY(o->gemm(ctx, s->dt, 'T', 'N', m, 1, s->n, 1.0, s->X->p,
                    s->X->ld, U, s->n, 0.0, C, m));
    QRU_TRY(o->copy(ctx, s->dt, 1, 1, qru_ptr_at(f->R, f->ldr, k - 1, k - 1),
                    f->ldr, Rk, 1));
    /* C, Rkk and W are adjacent: one transfer */
    QRU_TRY(o->download(ctx, s->dt, m + 1 + k, 1, C, m + 1 + k, s->hbuf,
                        m + 1 + k));
    for (int j = 0; j < m; ++j)
        s->corr[j] = lars_hget(s, j);
    s->rkk = fabs(lars_hget(s, m)) * s->dsc[s->perm[k - 1]];
    for (int i = 0; i < k; ++i)
        s->w[i] = lars_hget(s, m + 1 + i) / s->dsc[s->perm[i]];
    return 0;
}

static const lars_form lars_qr_form = {lars_add, lars_remove, lars_rkk,
                                       lars_direction};

/* RR := r = y - X coef on the device (coef: m elements in device memory
 * at CF). */
static int lars_form_r(lars_state *s, qru_ptr CF)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    int n = s->n;
    qru_ptr RR = qru_ptr_add(s->dev, lars_off_rr(s));
    QRU_TRY(o->copy(ctx, s->dt, n, 1, s->y->p, s->y->ld, RR, n));
    return o->gemm(ctx, s->dt, 'N', 'N', n, 1, s->m, -1.0, s->X->p,
                   s->X->ld, CF, s->m, 1.0, RR, n);
}

/* X(:, cols[i])' r (r in RR) into dst(i * inc + (inc ? 0 : cols[i])):
 * dst(i) for inc 1, dst(cols[i]) for inc 0 (no wait). */
static int lars_xr(lars_state *s, const int *cols, int nd, qru_ptr dst,
                   int inc)
{
    qru_context *ctx = s->ctx;
    qru_ptr RR = qru_ptr_add(s->dev, lars_off_rr(s));
    for (int i = 0; i < nd; ++i)
        QRU_TRY(ctx->ops->gemm(
            ctx, s->dt, 'T', 'N', 1, 1, s->n, 1.0,
            qru_ptr_at(s->X->p, s->X->ld, 0, cols[i]), s->X->ld, RR, s->n,
            0.0, qru_ptr_add(dst, inc ? (size_t)i : (size_t)cols[i]), 1));
    return 0;
}

/* r = y - X coef on the device (coef: m doubles), then X(:, j)' r for the
 * nd columns j of cols into out (one wait), or ||r|| into out[0] when
 * cols is NULL. */
static int lars_resid(lars_state *s, const double *coef, const int *cols,
                      int nd, double *out)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    int m = s->m;
    qru_ptr CF = qru_ptr_add(s->dev, lars_off_cf(s)), T = s->dev;
    for (int j = 0; j < m; ++j)
        lars_hset(s, j, coef[j]);
    QRU_TRY(o->upload(ctx, s->dt, m, 1, s->hbuf, m, CF, m));
    QRU_TRY(lars_form_r(s, CF));
    if (!cols)
        return o->col_norms(ctx, s->dt, s->n, 1,
                            qru_ptr_add(s->dev, lars_off_rr(s)), s->n, out);
    QRU_TRY(lars_xr(s, cols, nd, T, 1));
    QRU_TRY(o->download(ctx, s->dt, nd, 1, T, nd, s->hbuf, nd));
    for (int i = 0; i < nd; ++i)
        out[i] = lars_hget(s, i);
    return 0;
}

/* scikit-learn's arrayfuncs.min_pos: the smallest positive entry, or the
 * largest double when there is none. */
static double lars_min_pos(double v, double cur)
{
    return v > 0.0 && v < cur ? v : cur;
}

/* The path kept on the host: alphas (cap) and coefficients (m x cap;
 * none with nocoef, the Gram form's, whose path is on the device). */
typedef struct lars_path {
    int cap, m, nocoef;
    double *alphas, *coefs;
} lars_path;

/* Room for column it; 0 or QRU_ERR_ALLOC. */
static int lars_path_room(lars_path *p, int it, int limit)
{
    if (it < p->cap)
        return 0;
    long long nc = 2LL * p->cap;
    if (nc > limit)
        nc = limit;
    if (nc <= it)
        nc = (long long)it + 1;
    double *a = realloc(p->alphas, sizeof(double) * (size_t)nc);
    if (!a)
        return QRU_HOST_ALLOC_FAILED;
    p->alphas = a;
    if (p->nocoef) {
        p->cap = (int)nc;
        return 0;
    }
    double *c = realloc(p->coefs, sizeof(double) * (size_t)nc * p->m);
    if (!c)
        return QRU_HOST_ALLOC_FAILED;
    p->coefs = c;
    memset(c + (size_t)p->cap * p->m, 0,
           sizeof(double) * (size_t)(nc - p->cap) * p->m);
    p->cap = (int)nc;
    return 0;
}

/* lars_run's return where s->fallback is set and a degenerate column
 * came up: the path is to run again in the thin form. */
#define LARS_AGAIN 2

/* The path; *nit receives the steps.  Returns 0, 1 (a degenerate
 * direction), LARS_AGAIN or a library status. */
static int lars_run(lars_state *s, lars_path *p, int lasso, int positive,
                    int max_iter, double alpha_min, int *nit)
{
    const double tol = (double)FLT_EPSILON; /* scikit-learn's equality
                                               tolerance */
    const double tiny = (double)FLT_MIN;
    const double dec = s->dt == QRU_DOUBLE ? 1e15 : 1e6;
    int m = s->m, n_iter = 0, drop = 0;
    int *idx = malloc(sizeof(int) * (size_t)s->kmax);
    double *tmp = malloc(sizeof(double) * (size_t)s->kmax);
    int st = 0;
    if (!idx || !tmp) {
        st = QRU_HOST_ALLOC_FAILED;
        goto done;
    }
    /* every degenerate column is dropped without a step: at most m of
     * them between two steps, so the loop ends */
    for (long long guard = 0;; ++guard) {
        if (guard > ((long long)max_iter + 2) * ((long long)m + 2)) {
            st = qru_fail(QRU_ERR_INTERNAL, "the path did not end");
            goto done;
        }
        double *coef = p->coefs + (size_t)n_iter * m;
        double *prev = n_iter > 0 ? coef - m : NULL;
        int ci = -1;
        double C = 0.0;
        for (int i = s->na; i < m; ++i) { /* the first largest |cov|
                                              (positive: cov) */
            double a = positive ? s->cov[s->perm[i]]
                                : fabs(s->cov[s->perm[i]]);
            if (ci < 0 || a > C) {
                ci = i;
                C = a;
            }
        }
        /* positive: the active columns' correlation is >= the inactive
         * ones' and >= 0, and equals their largest but after a step to
         * C / A_A, where it is 0 and every inactive one may be below 0:
         * the path ends there at alpha 0 (scikit-learn takes the
         * negative C as alpha and interpolates the last coefficients
         * towards it) */
        if (positive && C < 0.0)
            C = 0.0;
        double alpha = C / s->n;
        p->alphas[n_iter] = alpha;
        if (alpha <= alpha_min + tol) {
            if (fabs(alpha - alpha_min) > tol) {
                if (n_iter > 0) {
                    double pa = p->alphas[n_iter - 1];
                    double ss = (pa - alpha_min) / (pa - alpha);
                    for (int j = 0; j < m; ++j)
                        coef[j] = prev[j] + ss * (coef[j] - prev[j]);
                }
                p->alphas[n_iter] = alpha_min;
            }
            break;
        }
        if (n_iter >= max_iter || s->na >= s->kmax)
            break;
        int added = 0, grew = lasso && n_iter > 0 &&
                                p->alphas[n_iter - 1] < alpha;
        if (!drop) {
            int t = s->perm[ci];
            double cs = s->cov[t];
            s->sgn[s->na] = positive ? 1.0
                                     : (cs > 0 ? 1.0 : (cs < 0 ? -1.0 : 0.0));
            /* scikit-learn's order: t takes the place of the first
             * inactive column, which takes t's (kept when t is dropped) */
            s->perm[ci] = s->perm[s->na];
            s->perm[s->na] = t;
            int r = s->form->add(s, t);
            if (r < 0) {
                st = r;
                goto done;
            }
            if (r == 0 && grew) { /* its pivot now: the path ends here */
                QRU_TRY_GOTO(s->form->rkk(s));
                if (s->rkk < s->piv[t]) {
                    QRU_TRY_GOTO(s->form->remove(s, s->na));
                    r = 1;
                }
            }
            if (r == 1 && s->fallback) {
                st = LARS_AGAIN;
                goto done;
            }
            if (r == 1) { /* refused or degenerate: dropped, as there */
                s->cov[t] = 0.0;
                ++s->dropped;
                continue;
            }
            ++s->na;
            added = 1;
        }
        if (grew) /* alpha grew: scikit-learn stops (rounding dominates) */
            break;
        QRU_TRY_GOTO(s->form->direction(s));
        if (added && s->rkk < s->piv[s->perm[s->na - 1]]) { /* degenerate */
            if (s->fallback) {
                st = LARS_AGAIN;
                goto done;
            }
            --s->na;
            int t = s->perm[s->na];
            QRU_TRY_GOTO(s->form->remove(s, s->na));
            s->cov[t] = 0.0;
            ++s->dropped;
            continue;
        }
        int k = s->na;
        double sw = 0.0;
        for (int i = 0; i < k; ++i)
            sw += s->w[i] * s->sgn[i];
        double AA = 1.0 / sqrt(sw);
        if (!isfinite(AA) || !(sw > 0.0)) {
            st = qru_fail(1, "step %d: the equiangular direction is not "
                             "defined (s' G^-1 s = %g with %d active "
                             "columns: they are numerically dependent); "
                             "the path ends at the step before",
                          n_iter + 1, sw, k);
            goto done;
        }
        for (int i = 0; i < k; ++i)
            s->w[i] *= AA;
        double g = DBL_MAX, g2 = DBL_MAX;
        for (int i = k; i < m; ++i) {
            int j = s->perm[i];
            double c = rint(AA * s->corr[j] * dec) / dec;
            s->corr[j] = c;
            g = lars_min_pos((C - s->cov[j]) / (AA - c + tiny), g);
            if (!positive) /* (positive: negative correlations never
                              enter) */
                g2 = lars_min_pos((C + s->cov[j]) / (AA + c + tiny), g2);
        }
        double gamma = fmin(fmin(g, g2), C / AA);
        drop = 0;
        double zpos = DBL_MAX;
        for (int i = 0; i < k; ++i) {
            tmp[i] = -coef[s->perm[i]] / (s->w[i] + tiny);
            zpos = lars_min_pos(tmp[i], zpos);
        }
        int nd = 0;
        if (zpos < gamma) {
            for (int i = k - 1; i >= 0; --i)
                if (tmp[i] == zpos) {
                    idx[nd++] = i; /* descending */
                    s->sgn[i] = -s->sgn[i];
                }
            if (lasso)
                gamma = zpos;
            drop = 1;
        }
        ++n_iter;
        QRU_TRY_GOTO(lars_path_room(p, n_iter, max_iter + 1));
        coef = p->coefs + (size_t)n_iter * m;
        prev = coef - m;
        /* positive: a coefficient whose crossing ties with gamma (zpos
         * not below it by rounding) would end an ulp below 0; it stays 0 */
        for (int i = 0; i < k; ++i) {
            int j = s->perm[i];
            double nx = prev[j] + gamma * s->w[i];
            coef[j] = positive && nx < 0.0 ? 0.0 : nx;
        }
        for (int i = k; i < m; ++i)
            s->cov[s->perm[i]] -= gamma * s->corr[s->perm[i]];
        if (drop && lasso) {
            /* the crossing columns leave (descending positions), each to
             * the front of the inactive ones, as scikit-learn's */
            for (int q = 0; q < nd; ++q) {
                int i = idx[q], j = s->perm[i];
                /* its coefficient is 0 (the step ends where it crosses;
                 * gamma w rounds to within an ulp of it, which could be
                 * below 0 with positive) */
                coef[j] = 0.0;
                QRU_TRY_GOTO(s->form->remove(s, i));
                for (int r = i; r + 1 < s->na; ++r) {
                    s->perm[r] = s->perm[r + 1];
                    s->sgn[r] = s->sgn[r + 1];
                }
                --s->na;
                s->perm[s->na] = j;
                idx[q] = j;
            }
            /* the residual of the remaining active set (the dropped
             * coefficients, about 0, left out); corr is free now */
            double *full = s->corr;
            for (int j = 0; j < m; ++j)
                full[j] = 0.0;
            for (int i = 0; i < s->na; ++i)
                full[s->perm[i]] = coef[s->perm[i]];
            QRU_TRY_GOTO(lars_resid(s, full, idx, nd, tmp));
            for (int q = 0; q < nd; ++q)
                s->cov[idx[q]] = tmp[q];
        }
    }
done:
    *nit = n_iter;
    free(idx);
    free(tmp);
    return st;
}

/* ---- the Gram form: the path on the device (lars_gram_step) ---- */

/* The path P on the device has room for column it: grown as the host's
 * (doubled, at most limit columns), the columns so far copied (one
 * wait, before the old one is freed). */
static int lars_dev_room(lars_state *s, int it, int limit)
{
    if (it < s->pcap)
        return 0;
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    long long nc = 2LL * s->pcap;
    if (nc > limit)
        nc = limit;
    if (nc <= it)
        nc = (long long)it + 1;
    qru_ptr np = {NULL, 0};
    QRU_TRY(o->mem_alloc(ctx, qru_dtype_size(s->dt) * (size_t)s->m *
                                  (size_t)nc,
                         &np.h));
    int st = 0;
    if (s->P.h) {
        st = o->copy(ctx, s->dt, s->m, s->pcap, s->P, s->m, np, s->m);
        if (!st)
            st = o->sync(ctx);
    }
    if (st) {
        o->mem_free(ctx, np.h);
        return st;
    }
    if (s->P.h)
        o->mem_free(ctx, s->P.h);
    s->P = np;
    s->pcap = (int)nc;
    return 0;
}

/* The Gram form's device state: ls and the path with room for cap
 * columns. */
static int lars_gram_begin(lars_state *s, int cap)
{
    qru_context *ctx = s->ctx;
    qru_lars_ws w = qru_lars_ws_of(s->m, s->kmax);
    s->pcap = 0;
    s->P.h = NULL;
    s->P.off = 0;
    s->ls.off = 0;
    int st = ctx->ops->mem_alloc(ctx, qru_dtype_size(s->dt) * w.elems,
                                 &s->ls.h);
    if (st) {
        s->ls.h = NULL;
        return st;
    }
    return lars_dev_room(s, cap - 1, cap);
}

static void lars_gram_end(lars_state *s)
{
    if (s->ls.h)
        s->ctx->ops->mem_free(s->ctx, s->ls.h);
    if (s->P.h)
        s->ctx->ops->mem_free(s->ctx, s->P.h);
    s->ls.h = s->P.h = NULL;
    s->pcap = 0;
}

/* A call of lars_gram_step as the host reads it. */
typedef struct lars_rec {
    int status, nd, qd, j, pos;
    double gamma, sw, d, cj, key;
} lars_rec;

/* One lars_gram_step of mode (qru_ops.h; na the active columns it
 * takes), then, where rd, its record and the first of its pick's
 * partial results read in one wait into *r (r->j = -1: no column is
 * inactive; r NULL: read, not looked at). */
static int lars_gram_call(lars_state *s, int mode, int flags, int it, int t,
                          int q, int ci, int u, int na, double piv, double C,
                          int rd, lars_rec *r)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_lars_ws w = qru_lars_ws_of(s->m, s->kmax);
    qru_gram_ptrs p = qru_gram_ptrs_of(&s->g);
    int qs = -1;
    double sv = 0.0;
    if (mode == QRU_LARS_STEP)
        QRU_TRY(qru_gram_rhs(&s->g, s->sgn, &qs, &sv));
    QRU_TRY(o->lars_gram_step(ctx, s->dt, s->m, s->kmax, s->g.hw, mode, flags,
                              it, t, q, ci, u, na, qs, sv, piv, C, p.G, p.Gs,
                              p.W, p.S, p.V, p.T, p.out, s->ls, s->P));
    if (!rd)
        return 0;
    int nr = QRU_LARS_REC + 3 * w.npk;
    QRU_TRY(o->download(ctx, s->dt, nr, 1, qru_ptr_add(s->ls, w.rec), nr,
                        s->hbuf, nr));
    if (!r) /* (a dry run's: the plan prices the download) */
        return 0;
    r->status = (int)lars_hget(s, QRU_LARS_ST_STATUS);
    r->gamma = lars_hget(s, QRU_LARS_ST_GAMMA);
    r->nd = (int)lars_hget(s, QRU_LARS_ST_ND);
    r->qd = (int)lars_hget(s, QRU_LARS_ST_QD);
    r->sw = lars_hget(s, QRU_LARS_ST_SW);
    r->d = lars_hget(s, QRU_LARS_ST_D);
    r->j = r->pos = -1;
    r->key = r->cj = 0.0;
    double kp = -1.0;
    for (int b = 0; b < w.npk; ++b) {
        int i = QRU_LARS_REC + 3 * b, j = (int)lars_hget(s, i + 2);
        double cj = lars_hget(s, i), pj = lars_hget(s, i + 1),
               key = flags & QRU_LARS_POSITIVE ? cj : fabs(cj);
        if (j >= 0 &&
            (r->j < 0 || qru_lars_pick_before(key, pj, r->key, kp))) {
            r->j = j;
            r->key = key;
            r->cj = cj;
            kp = pj;
        }
    }
    r->pos = (int)kp;
    return 0;
}

/* The path in the Gram form, step for step as lars_run, its arithmetic
 * on the device: per step one lars_gram_step (the entering column
 * bordered on, the direction, gamma, the crossing columns, the
 * coefficients into the path P and the correlations updated, the next
 * column's pick) and one download of its record (a few numbers); the
 * host keeps the order of the columns and the alphas (O(1) a step).  A
 * column leaving costs a reflection of W (1 wait, unless it entered
 * last), the correlation of the residual with it (no wait) and a call
 * of the mode LEAVE (1 wait). */
static int lars_run_gram(lars_state *s, lars_path *p, int lasso,
                         int positive, int max_iter, double alpha_min,
                         int *nit)
{
    const double tol = (double)FLT_EPSILON;
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = s->dt;
    int m = s->m, kmax = s->kmax, n_iter = 0, drop = 0;
    int flags = (lasso ? QRU_LARS_LASSO : 0) |
                (positive ? QRU_LARS_POSITIVE : 0);
    qru_lars_ws w = qru_lars_ws_of(m, kmax);
    int *idx = malloc(sizeof(int) * 3 * (size_t)kmax);
    int st = 0;
    lars_rec r;
    if (!idx) {
        st = QRU_HOST_ALLOC_FAILED;
        goto done;
    }
    int *icol = idx + kmax, *islot = icol + kmax;
    /* cov = X' y (the start's), P(:, 0) = 0, the first pick */
    QRU_TRY_GOTO(o->copy(ctx, dt, m, 1, s->dev, m,
                         qru_ptr_add(s->ls, w.cov), m));
    QRU_TRY_GOTO(o->laset(ctx, dt, 'A', m, 1, 0.0, 0.0, s->P, m));
    QRU_TRY_GOTO(lars_gram_call(s, QRU_LARS_START, flags, 0, -1, 0, 0, 0, 0,
                                0.0, 0.0, 1, &r));
    for (long long guard = 0;; ++guard) {
        if (guard > ((long long)max_iter + 2) * ((long long)m + 2)) {
            st = qru_fail(QRU_ERR_INTERNAL, "the path did not end");
            goto done;
        }
        double C = r.j < 0 ? 0.0 : r.key;
        if (positive && C < 0.0) /* (as lars_run) */
            C = 0.0;
        double alpha = C / s->n;
        p->alphas[n_iter] = alpha;
        if (alpha <= alpha_min + tol) {
            if (fabs(alpha - alpha_min) > tol) {
                if (n_iter > 0) { /* prev + ss (coef - prev) */
                    double pa = p->alphas[n_iter - 1];
                    double ss = (pa - alpha_min) / (pa - alpha);
                    QRU_TRY_GOTO(o->geadd(
                        ctx, dt, m, 1, 1.0 - ss,
                        qru_ptr_add(s->P, (size_t)(n_iter - 1) * m), m, ss,
                        qru_ptr_add(s->P, (size_t)n_iter * m), m));
                }
                p->alphas[n_iter] = alpha_min;
            }
            break;
        }
        if (n_iter >= max_iter || s->na >= kmax)
            break;
        int grew = lasso && n_iter > 0 && p->alphas[n_iter - 1] < alpha;
        int t = -1, q = 0, ci = 0, u = 0;
        if (!drop) { /* r.j enters (scikit-learn's order, as lars_run) */
            t = r.j;
            ci = r.pos;
            double cs = r.cj;
            s->sgn[s->na] = positive ? 1.0
                                     : (cs > 0 ? 1.0 : (cs < 0 ? -1.0 : 0.0));
            u = s->perm[s->na];
            s->perm[ci] = u;
            s->perm[s->na] = t;
            QRU_TRY_GOTO(qru_gram_claim(&s->g, &q));
            ++s->na;
        }
        QRU_TRY_GOTO(lars_dev_room(s, n_iter + 1, max_iter + 1));
        QRU_TRY_GOTO(lars_gram_call(s, QRU_LARS_STEP, flags, n_iter, t, q, ci,
                                    u, s->na, t >= 0 ? s->piv[t] : 0.0, C, 1,
                                    &r));
        if (r.status == QRU_LARS_DEGENERATE) { /* dropped, as there */
            s->g.flagged = 1; /* (the bordering's flag may be set) */
            if (s->fallback) {
                st = LARS_AGAIN;
                goto done;
            }
            --s->na;
            QRU_TRY_GOTO(qru_gram_remove(&s->g, s->na));
            ++s->dropped;
            continue;
        }
        if (grew) /* alpha grew: scikit-learn stops (rounding dominates) */
            break;
        if (r.status == QRU_LARS_NODIR) {
            st = qru_fail(1, "step %d: the equiangular direction is not "
                             "defined (s' G^-1 s = %g with %d active "
                             "columns: they are numerically dependent); "
                             "the path ends at the step before",
                          n_iter + 1, r.sw, s->na);
            goto done;
        }
        drop = r.nd > 0;
        int nd = 0;
        if (r.nd == 1) {
            for (int i = 0; i < s->na; ++i)
                if (s->g.slot[i] == r.qd)
                    idx[nd++] = i;
        } else if (r.nd > 1) { /* ties: the slots' flags (1 wait) */
            int hw = s->g.hw;
            QRU_TRY_GOTO(o->download(ctx, dt, hw, 1,
                                     qru_ptr_add(s->ls, w.drop), hw, s->hbuf,
                                     hw));
            for (int i = s->na - 1; i >= 0; --i)
                if (lars_hget(s, s->g.slot[i]) != 0.0)
                    idx[nd++] = i; /* descending */
        }
        for (int k = 0; k < nd; ++k)
            s->sgn[idx[k]] = -s->sgn[idx[k]];
        ++n_iter;
        QRU_TRY_GOTO(lars_path_room(p, n_iter, max_iter + 1));
        if (drop && lasso) {
            /* the crossing columns leave (descending positions), each to
             * the front of the inactive ones, as scikit-learn's; P holds
             * their coefficients as 0 */
            for (int k = 0; k < nd; ++k) {
                int i = idx[k], j = s->perm[i];
                islot[k] = s->g.slot[i];
                QRU_TRY_GOTO(qru_gram_remove(&s->g, i));
                for (int rr = i; rr + 1 < s->na; ++rr) {
                    s->perm[rr] = s->perm[rr + 1];
                    s->sgn[rr] = s->sgn[rr + 1];
                }
                --s->na;
                s->perm[s->na] = j;
                icol[k] = j;
            }
            /* their correlations with the residual of the remaining
             * active set into cov, then the pick */
            QRU_TRY_GOTO(
                lars_form_r(s, qru_ptr_add(s->P, (size_t)n_iter * m)));
            QRU_TRY_GOTO(lars_xr(s, icol, nd, qru_ptr_add(s->ls, w.cov), 0));
            for (int k = 0; k < nd; ++k)
                QRU_TRY_GOTO(lars_gram_call(s, QRU_LARS_LEAVE, flags, n_iter,
                                            icol[k], islot[k], idx[k], 0,
                                            s->na + nd - 1 - k, 0.0, 0.0,
                                            k == nd - 1, &r));
        }
    }
done:
    *nit = n_iter;
    free(idx);
    return st;
}

/* ---- the choice of the form ---- */

/* What one priced part of a path runs in a form (qru_gram_choose): the
 * start (k < 0: X' y, the Gram form's G, the first column and its
 * direction) or the step from k columns. */
static int lars_part_run(qru_context *ctx, qru_lsq *f, const void *arg)
{
    (void)f;
    const qru_gram_part *p = arg;
    const lars_state *s = p->s;
    qru_matrix X = *s->X, y = *s->y; /* headers of the dry context */
    X.ctx = y.ctx = ctx;
    lars_state d = *s;
    d.ctx = ctx;
    d.X = &X;
    d.y = &y;
    d.form = &lars_qr_form;
    d.gram = p->gram;
    int k = p->k < 0 ? 0 : p->k;
    /* the signs as a step finds them: those of the k active columns
     * already set (0, as the reset mirror of the Gram form's S holds),
     * the entering column's new */
    for (int i = 0; i < k; ++i)
        d.sgn[i] = 0.0;
    d.sgn[k] = 1.0;
    double t0;
    int st = qru_gram_part_begin(ctx, p, &X, &y, d.kmax, &d.dev, d.hbuf,
                                 d.cov, &d.g, &d.f, &t0);
    if (!st && d.gram) { /* the step that borders column k on */
        int q = 0;
        d.na = k + 1;
        st = lars_gram_begin(&d, 2);
        if (!st)
            st = qru_gram_claim(&d.g, &q);
        if (!st)
            st = lars_gram_call(&d, QRU_LARS_STEP, 0, 0, k, q, k, k, k + 1,
                                0.0, 1.0, 1, NULL);
        lars_gram_end(&d);
    } else if (!st) {
        st = d.form->add(&d, k);
        if (st == 1)
            st = 0;
        if (!st)
            st = d.form->direction(&d);
    }
    return qru_gram_part_end(ctx, p, st, t0, d.dev, &d.g, d.f);
}

/* s->form := the tuning block's lars_gram (qru_gram_choose; auto: priced
 * on a path of min(max_iter, kmax) steps, and s->fallback set where it
 * takes the Gram form).  The host state the dry runs touch (slots,
 * signs) is cleared before and after them. */
static int lars_choose(lars_state *s, size_t delems, int max_iter,
                       double xmax)
{
    const qru_tuning *t = qru_ctx_tuning(s->ctx, s->dt);
    int gram;
    qru_gram_reset(&s->g);
    int steps = max_iter < s->kmax ? max_iter : s->kmax;
    qru_gram_part p = {s, delems, 0, -1, NULL};
    QRU_TRY(qru_gram_choose(s->ctx, s->dt, t->lars_gram, s->m, s->kmax,
                            steps, xmax, lars_part_run, &p, &gram));
    qru_gram_reset(&s->g);
    s->form = &lars_qr_form;
    s->gram = gram;
    s->fallback = gram && t->lars_gram == 0;
    return 0;
}

int qru_lars(qru_context *ctx, const qru_matrix *X, const qru_matrix *y,
             int lasso, int positive, int max_iter, double alpha_min,
             double *alphas,
             int *active, qru_matrix *coefs, int *nsteps,
             qru_solver_info *info)
{
    QRU_SOLVER_ARG_A(ctx, "X", X);
    qru_dtype dt = X->dtype;
    int n = X->rows, m = X->cols, kmax = n < m ? n : m;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt);
    size_t delems = 3 * (size_t)m + 1 + 2 * (size_t)kmax + 2 * (size_t)n;
    qru_lars_ws lw = qru_lars_ws_of(m, kmax);
    size_t hel = (size_t)m + 2 + (size_t)kmax;
    if (hel < (size_t)QRU_LARS_REC + 3 * (size_t)lw.npk) /* (the record) */
        hel = (size_t)QRU_LARS_REC + 3 * (size_t)lw.npk;
    /* host: piv, cov, corr, dsc, nrm, cov0 (m), sgn, w, smir (kmax),
     * staging, perm (m), slot (kmax), sused (kmax): the ints last, so that
     * the staging's elements stay aligned */
    char *h = malloc(sizeof(double) * (6 * (size_t)m + 3 * (size_t)kmax) +
                     es * hel + sizeof(int) * ((size_t)m + (size_t)kmax) +
                     (size_t)kmax);
    if (!h)
        QRU_RET(ctx, QRU_HOST_ALLOC_FAILED);
    lars_state s = {0};
    lars_path p = {0};
    int nit = 0, st1 = 0;
    double rnorm = 0.0;
    s.piv = (double *)h;
    s.cov = s.piv + m;
    s.corr = s.cov + m;
    s.dsc = s.corr + m;
    s.nrm = s.dsc + m;
    s.cov0 = s.nrm + m;
    s.sgn = s.cov0 + m;
    s.w = s.sgn + kmax;
    s.g.smir = s.w + kmax;
    s.hbuf = (char *)(s.g.smir + kmax);
    s.perm = (int *)((char *)s.hbuf + es * hel);
    s.g.slot = s.perm + m;
    s.g.sused = (char *)(s.g.slot + kmax);
    int st = lars_args(ctx, X, y, lasso, positive, max_iter, alpha_min,
                       alphas, active, coefs, nsteps, s.nrm);
    if (st)
        goto done;
    /* scikit-learn's pivot rule, 1e-7, or where the element type's
     * rounding is larger (float), max(n, min(n, m)) eps ||X(:, j)|| (the
     * update's rank rule) */
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    double xmax = 0.0;
    for (int j = 0; j < m; ++j) {
        int e;
        double f = frexp(s.nrm[j], &e); /* ||X(:, j)|| = f 2^e, f in
                                           [0.5, 1) */
        s.dsc[j] = s.nrm[j] > 0.0 ? ldexp(1.0, f > 0.7071 ? e : e - 1) : 1.0;
        xmax = fmax(xmax, s.nrm[j]);
    }
    s.ctx = ctx;
    s.dt = dt;
    s.X = X;
    s.y = y;
    s.n = n;
    s.m = m;
    s.kmax = kmax;
    s.g.ctx = ctx;
    s.g.dt = dt;
    s.g.m = m;
    s.g.kmax = kmax;
    s.g.hbuf = s.hbuf;
    qru_gram_reset(&s.g);
    for (int j = 0; j < m; ++j)
        s.perm[j] = j;
    p.m = m;
    int cap0 = max_iter < kmax ? max_iter : kmax;
    QRU_TRY_GOTO(lars_choose(&s, delems, max_iter, xmax));
    p.nocoef = s.gram; /* (the Gram form's path is on the device) */
    QRU_TRY_GOTO(lars_path_room(&p, cap0, max_iter + 1));
    /* the correlations X' y (and the Gram form's G and state) */
    QRU_TRY_GOTO(qru_solver_start(ctx, X, y, delems, &s.dev, s.hbuf, s.cov));
    memcpy(s.cov0, s.cov, sizeof(double) * (size_t)m);
    if (s.gram) {
        QRU_TRY_GOTO(qru_gram_start(&s.g, X));
        QRU_TRY_GOTO(lars_gram_begin(&s, cap0 + 1));
    }
    for (;;) {
        /* the pivot rule: the thin QR form's |R(k,k)|, resolved to n eps
         * ||X(:, j)||, or the Gram form's d, whose square G(j, j) - v' v
         * is resolved to n eps ||X(:, j)||^2 (where larger than
         * scikit-learn's 1e-7) */
        for (int j = 0; j < m; ++j) {
            double r = s.gram
                           ? sqrt((double)n * eps) * s.nrm[j]
                           : (double)n * eps * s.nrm[j];
            s.piv[j] = r > 1e-7 ? r : 1e-7;
        }
        st = s.gram ? lars_run_gram(&s, &p, lasso, positive, max_iter,
                                    alpha_min, &nit)
                    : lars_run(&s, &p, lasso, positive, max_iter, alpha_min,
                               &nit);
        if (st != LARS_AGAIN)
            break;
        /* a degenerate column in auto's Gram form: the thin form runs
         * the path from the start */
        QRU_TRY_GOTO(o->sync(ctx));
        qru_gram_free(&s.g);
        qru_gram_reset(&s.g);
        lars_gram_end(&s);
        s.gram = 0;
        p.nocoef = 0;
        p.cap = 0;
        QRU_TRY_GOTO(lars_path_room(&p, cap0, max_iter + 1));
        s.fallback = 0;
        s.na = 0;
        s.dropped = 0;
        for (int j = 0; j < m; ++j)
            s.perm[j] = j;
        memcpy(s.cov, s.cov0, sizeof(double) * (size_t)m);
        memset(p.coefs, 0, sizeof(double) * (size_t)p.cap * (size_t)m);
    }
    if (st < 0)
        goto done;
    st1 = st;
    st = 0;
    if (info && s.gram) {
        QRU_TRY_GOTO(lars_form_r(&s, qru_ptr_add(s.P, (size_t)nit * m)));
        QRU_TRY_GOTO(o->col_norms(ctx, dt, n, 1,
                                  qru_ptr_add(s.dev, lars_off_rr(&s)), n,
                                  &rnorm));
    } else if (info) {
        QRU_TRY_GOTO(lars_resid(&s, p.coefs + (size_t)nit * m, NULL, 0,
                                &rnorm));
    }
    /* the outputs: coefs (the Gram form's by a copy; else one upload),
     * then the host's */
    if (s.gram) {
        QRU_TRY_GOTO(o->copy(ctx, dt, m, nit + 1, s.P, m, coefs->p,
                             coefs->ld));
        QRU_TRY_GOTO(o->sync(ctx));
    } else {
        size_t cnt = (size_t)m * ((size_t)nit + 1);
        void *stage = malloc(es * cnt);
        if (!stage) {
            st = QRU_HOST_ALLOC_FAILED;
            goto done;
        }
        for (size_t i = 0; i < cnt; ++i) {
            if (dt == QRU_DOUBLE)
                ((double *)stage)[i] = p.coefs[i];
            else
                ((float *)stage)[i] = (float)p.coefs[i];
        }
        st = o->upload(ctx, dt, m, nit + 1, stage, m, coefs->p, coefs->ld);
        if (!st)
            st = o->sync(ctx);
        free(stage);
        if (st)
            goto done;
    }
    for (int i = 0; i <= nit; ++i)
        alphas[i] = p.alphas[i];
    for (int i = 0; i < kmax; ++i)
        active[i] = i < s.na ? s.perm[i] : -1;
    *nsteps = nit;
    qru_solver_report(info, nit, s.na, rnorm, s.dropped, s.gram ? 2 : 1);
    if (st1)
        st = qru_fail(st1, "step %d: the equiangular direction is not "
                           "defined (the active columns are numerically "
                           "dependent); the path ends at step %d", nit + 1,
                      nit);
done:
    qru_lsq_destroy(s.f);
    if (s.dev.h || s.g.dev.h || s.ls.h || s.P.h)
        (void)o->sync(ctx);
    if (s.dev.h)
        o->mem_free(ctx, s.dev.h);
    qru_gram_free(&s.g);
    lars_gram_end(&s);
    free(p.alphas);
    free(p.coefs);
    free(h);
    QRU_RET(ctx, st);
}
