/*
 * Orthogonal matching pursuit (qru_omp, include/qru.h), written once for
 * both precisions against the backend table, in two forms that choose
 * the same columns (up to rounding) and differ in how a step forms the
 * correlations c = X' r and the coefficients.
 *
 * The residual form holds the chosen columns X(:, S) as a thin
 * least-squares factorisation (QRU_Q_THIN: Q1, R, d = Q1' y and the
 * residual E = y - Q1 d, all in the context's memory), created from the
 * first chosen column and grown by the add-columns update at its end
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
 * X' E reads all of X: 2 n m flops a step.  The Gram form (scikit-learn's
 * orthogonal_mp_gram, its precompute = True) forms G = X' X once (one
 * syrk, its upper triangle: n m^2 flops, m^2 elements) and c0 = X' y,
 * and runs its steps on the device (omp_gram_step, src/qru_ops.h), whose
 * state (qru_omp_ws_of, qru_internal.h) is, with L L' = G(S, S) (L lower,
 * kept as R = L', appended a column a step),
 *
 *   B = G(:, S) L'^-1   m x k: the correlations of X with the orthonormal
 *                       basis of X(:, S),
 *   z = L^-1 c0(S)      k: the coefficients of y in that basis,
 *   c = c0 - B z        m: the correlations X' r,
 *   Qb = X(:, S) L'^-1  n x k: the basis itself,
 *   r = (y - Qb z) / ||y||  n: the residual (scaled so that r' r <= 1
 *                       neither overflows nor, while it matters,
 *                       underflows),
 *
 * and a state block (the status, k, the next column j, its pivot).  A
 * step appends the j its previous step chose:
 *
 *   w = B(j, :)', l = sqrt(G(j, j) - w' w), z_k = c(j) / l,
 *   b = (G(:, j) - B w) / l -> B(:, k),  c -= b z_k,
 *   q = (X(:, j) - Qb w) / l -> Qb(:, k), r -= q z_k / ||y||,
 *   rr = r' r,  R(:, k) = [w; l],
 *
 * then decides on the device what the residual form decides on the host:
 * the stopping rules below (tol, y in the span, no column) from rr and
 * the argmax of |c| (the lowest index among ties, the first NaN), and
 * the pivot of the next column.  The residual norm is the residual's
 * own, kept by r -= q z_k (an n k GEMV a step), not scikit-learn's
 * ||y||^2 - z' z, whose cancellation resolves ||r|| only to
 * sqrt(eps) ||y||.  A column is refused where its pivot fails the
 * definiteness rule of qru_chol_* on G(S, S): G(j, j) - w' w <=
 * max(n, k + 1) eps max G(i, i) over the k + 1 columns (the squared scale
 * of the QR rank rule, which the Gram matrix resolves only to eps).
 * A step after a stop does nothing, so the host queues the steps without
 * waiting and reads the state block (with the chosen columns S) only
 * after steps 1, 3, 7, 15, 31 and then every 32, and after the last
 * (gram_next: a stop by tol early wastes few queued steps, a later one at
 * most 31): ceil(log2(k + 1)) + k / 32 host waits or fewer for k steps
 * where the residual form has two a step.  O(m k + n k) flops a step;
 * m^2 + (m + n) ncoef + ncoef^2 + 2 (m + ncoef) + n elements, and
 * 10 + 2 ceil(m / 32) + ceil(n / 32) for the state block and the GPU
 * kernels' partial results.
 *
 * The form: the tuning block's omp_gram (auto, off, on).  With auto the
 * Gram form is priced where its memory is within omp_gram_mib: each
 * form's start (the first correlations, the first column and its
 * correlations; in the Gram form also the reads of the state block of
 * ncoef steps) and one step from ncoef / 2 columns run against the
 * dry-run op table (qru_plan_run, src/plan.c), so the plans are the
 * code; a form's time is its start and ncoef - 1 such steps (the steps'
 * costs grow about linearly with k, which the middle step prices), and
 * the faster runs.  Its memory is taken with the rest of the call's at
 * the start (QRU_ERR_ALLOC where it cannot be had, as everywhere).
 *
 * Only m + 1 numbers of a residual step come to the host.  At the end
 * x(S) = R \ d (d = z = R' \ c0(S) in the Gram form; a triangular
 * solve on the device, k numbers downloaded) and, when asked, the path
 * P = R \ triu(d * ones(1, k)), whose column s is R(1:s, 1:s) \ d(1:s):
 * the least-squares solution on the first s chosen columns, since the
 * factorisation of a leading block of columns is the leading block of
 * the factorisation.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qru_internal.h"
#include "solver.h"
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

/* c (cnt doubles on the host) := the cnt elements of the device vector
 * v, through the host floats tmp for float. */
static int omp_read(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr v,
                    double *c, float *tmp)
{
    const qru_backend_ops *o = ctx->ops;
    if (dt == QRU_DOUBLE)
        return o->download(ctx, dt, cnt, 1, v, cnt, c, cnt);
    QRU_TRY(o->download(ctx, dt, cnt, 1, v, cnt, tmp, cnt));
    for (int i = 0; i < cnt; ++i)
        c[i] = tmp[i];
    return 0;
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
    return omp_read(ctx, dt, m + 1, g, c, tmp);
}

/* The matrix header of column j of X (no storage of its own); cols
 * columns from j with omp_columns. */
static qru_matrix omp_columns(const qru_matrix *X, int j, int cols)
{
    qru_matrix col = *X;
    col.cols = cols;
    col.owned = 0;
    col.p = qru_ptr_at(X->p, X->ld, 0, j);
    return col;
}

/* The host buffers of one call. */
typedef struct omp_host {
    double *c;    /* the residual form's [X' r; r' r] (m + 1), the Gram
                     form's state block and S (QRU_OMP_STATE + ncoef) */
    float *tmp;   /* float downloads, as many as c and ncoef */
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
    size_t nc = (size_t)m + 1;
    if (nc < QRU_OMP_STATE + (size_t)ncoef)
        nc = QRU_OMP_STATE + (size_t)ncoef;
    h->c = malloc(sizeof(double) * nc);
    h->tmp = malloc(sizeof(float) * nc);
    h->x = malloc(sizeof(double) * (size_t)ncoef);
    h->coef = calloc((size_t)m, qru_dtype_size(dt));
    h->sup = malloc(sizeof(int) * (size_t)ncoef);
    h->active = calloc((size_t)m, 1);
    if (!h->c || !h->tmp || !h->x || !h->coef || !h->sup || !h->active)
        return QRU_HOST_ALLOC_FAILED;
    return 0;
}

/* One pursuit: its data, its form and the form's device memory. */
typedef struct omp_run {
    qru_context *ctx;
    const qru_matrix *X, *y;
    qru_dtype dt;
    int n, m, ncoef, gram;
    double inv;  /* 1 / ||y|| (1 for y = 0 or a non-finite norm) */
    double rr0;  /* (||y|| * inv)^2: 1, or 0 for y = 0 */
    double thr;  /* the Gram form's tol test on ||r|| / ||y|| (< 0: none) */
    qru_ptr g;   /* [c (m); rr], then w (n) */
    omp_host *h;
    qru_lsq *f;  /* the residual form's factorisation (NULL: none) */
    qru_ptr gb;  /* the Gram form's state (qru_omp_ws_of) */
    qru_omp_ws w;
} omp_run;

/* Elements of the Gram form's allocation. */
static size_t omp_gram_elems(int n, int m, int ncoef)
{
    return qru_omp_ws_of(n, m, ncoef).elems;
}

/* The words of a stop that both forms find (QRU_OMP_SPAN .. CHOSEN) for
 * the step after k chosen columns: rel = ||r|| / ||y||, j and cj the
 * argmax and its correlation; returns the stop, k + 1. */
static int omp_stopped(int why, int n, int k, double eps, double rel, int j,
                       double cj)
{
    int s = k + 1;
    if (why == QRU_OMP_SPAN)
        qru_fail(s, "step %d: y lies in the span of the %d chosen columns "
                    "(||r|| / ||y|| = %g <= max(n, k + 1) eps = %g)",
                 s, k, rel, (double)(n > s ? n : s) * eps);
    else if (why == QRU_OMP_NONFINITE)
        qru_fail(s, "step %d: the correlations X' r are not finite (X' "
                    "r(%d) = %g)", s, j, cj);
    else if (why == QRU_OMP_ZERO)
        qru_fail(s, "step %d: the residual is orthogonal to every column "
                    "of X (X' r = 0)", s);
    else
        qru_fail(s, "step %d: the largest |X' r| is at column %d (0-based), "
                    "already chosen: X' r is rounding noise", s, j);
    return s;
}

/* ---- the residual form ---- */

/* The correlations of y into h->c (m + 1: X' y and rr0). */
static int omp_first(omp_run *r)
{
    return omp_correlate(r->ctx, r->dt, r->n, r->m, r->X, r->y->p, r->y->ld,
                         r->inv, qru_ptr_add(r->g, (size_t)r->m + 1), r->g,
                         r->h->c, r->h->tmp);
}

/* Appends column j of X as the k-th chosen (0-based) to the
 * factorisation (returns 1 where the rank rule refuses the column, the
 * factorisation unchanged). */
static int omp_add(omp_run *r, int k, int j)
{
    qru_context *ctx = r->ctx;
    qru_matrix col = omp_columns(r->X, j, 1);
    if (k == 0) {
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        opt.col_capacity = r->ncoef;
        QRU_TRY(qru_lsq_create(ctx, &col, r->y, &opt, &r->f));
        /* the update itself (a refactorisation never pays for one column
         * at the end) */
        return qru_lsq_set_update_algorithm(r->f, QRU_UPDATE_FAST);
    }
    int st = qru_upd_run(ctx, r->f,
                         (qru_upd_req){QRU_UPD_OP_ADD_COLS, k, 1, &col, NULL,
                                       NULL, NULL, 0, NULL, -1});
    return st > 0 ? 1 : st;
}

/* The numbers of the step after k chosen columns into h->c: [c; rr] (m +
 * 1; rr alone, at h->c[m], with last).  One host wait. */
static int omp_corr(omp_run *r, int last)
{
    int m = r->m, mc = last ? 0 : m;
    return omp_correlate(r->ctx, r->dt, r->n, mc, r->X, r->f->E, r->f->ncap,
                         r->inv, qru_ptr_add(r->g, (size_t)m + 1),
                         qru_ptr_add(r->g, (size_t)(m - mc)), r->h->c + (m - mc),
                         r->h->tmp);
}

/* The greedy steps of the residual form: on return *kout columns are
 * chosen (h->sup), *rel = ||r|| / ||y|| (r = y for none; 0 for y = 0);
 * *stop is 0 (ncoef columns, or the residual test of tol, ny = ||y||) or
 * the 1-based step that found no column to add (its reason recorded). */
static int omp_steps(omp_run *r, double tol, double ny, int *kout,
                     double *rel, int *stop)
{
    qru_dtype dt = r->dt;
    int n = r->n, m = r->m, k = 0;
    omp_host *h = r->h;
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    *stop = 0;
    QRU_TRY(omp_first(r));
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
                *stop = omp_stopped(QRU_OMP_SPAN, n, k, eps, *rel, 0, 0.0);
                return 0;
            }
        }
        int j = omp_argmax(h->c, m);
        double cj = h->c[j];
        if (!isfinite(cj) || cj == 0.0 || h->active[j]) {
            int why = !isfinite(cj) ? QRU_OMP_NONFINITE
                      : cj == 0.0   ? QRU_OMP_ZERO
                                    : QRU_OMP_CHOSEN;
            *stop = omp_stopped(why, n, k, eps, *rel, j, cj);
            return 0;
        }
        int st = omp_add(r, k, j);
        if (st == 1) { /* the rank rule: X(:, j) depends on X(:, S) */
            *stop = k + 1;
            qru_fail(*stop, "step %d: column %d (0-based) of X is "
                            "numerically dependent on the %d chosen "
                            "(the QR rank rule)", k + 1, j, k);
            return 0;
        }
        QRU_TRY(st);
        int last = k + 1 == r->ncoef; /* then only ||r|| is needed */
        QRU_TRY(omp_corr(r, last));
        h->active[j] = 1;
        h->sup[k++] = j;
        if (last) {
            *kout = k;
            *rel = sqrt(h->c[m] > 0.0 ? h->c[m] : 0.0);
            return 0;
        }
    }
}

/* ---- the Gram form ---- */

/* The Gram form's start, queued: G = X' X (its upper triangle) and
 * c0 = X' y, the state block and S cleared (every read is of written
 * memory), and omp_gram_step's start (c = c0, r = y / ||y||, the pick of
 * the first column). */
static int gram_start(omp_run *r)
{
    qru_context *ctx = r->ctx;
    const qru_backend_ops *o = ctx->ops;
    const qru_matrix *X = r->X, *y = r->y;
    int n = r->n, m = r->m;
    QRU_TRY(o->syrk(ctx, r->dt, 'U', 'T', m, n, 1.0, X->p, X->ld, 0.0,
                    qru_ptr_add(r->gb, r->w.G), m));
    QRU_TRY(o->gemm(ctx, r->dt, 'T', 'N', m, 1, n, 1.0, X->p, X->ld, y->p,
                    y->ld, 0.0, qru_ptr_add(r->gb, r->w.c0), m));
    QRU_TRY(o->laset(ctx, r->dt, 'A', QRU_OMP_STATE + r->ncoef, 1, 0.0, 0.0,
                     qru_ptr_add(r->gb, r->w.st), QRU_OMP_STATE + r->ncoef));
    return o->omp_gram_step(ctx, r->dt, n, m, r->ncoef, -1, r->inv, r->rr0,
                            r->thr, X->p, X->ld, y->p, r->gb);
}

/* Step k (0-based) of the Gram form, queued: it appends the column its
 * state chose, unless the state says stop. */
static int gram_step(omp_run *r, int k)
{
    return r->ctx->ops->omp_gram_step(r->ctx, r->dt, r->n, r->m, r->ncoef, k,
                                      r->inv, r->rr0, r->thr, r->X->p,
                                      r->X->ld, r->y->p, r->gb);
}

/* The state block and S(0:s-1) after s steps into h->c (one host
 * wait). */
static int gram_read(omp_run *r, int s)
{
    return omp_read(r->ctx, r->dt, QRU_OMP_STATE + s,
                    qru_ptr_add(r->gb, r->w.st), r->h->c, r->h->tmp);
}

/* The steps after which the host reads the state, from a read after s:
 * 1, 3, 7, ..., 31 (chunks of 1, 2, 4, ... steps, so that a stop by tol
 * early on wastes few), then every OMP_GRAM_CHUNK steps, and after the
 * last. */
#define OMP_GRAM_CHUNK 32
static int gram_next(int s, int ncoef)
{
    int t = s < OMP_GRAM_CHUNK - 1 ? 2 * s + 1 : s + OMP_GRAM_CHUNK;
    return t < ncoef ? t : ncoef;
}

/* The greedy steps of the Gram form, the outputs as omp_steps': the host
 * queues them, reading the state only at gram_next's steps. */
static int gram_steps(omp_run *r, int *kout, double *rel, int *stop)
{
    const double *st = r->h->c;
    double eps = r->dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    int s = 0, next = gram_next(0, r->ncoef);
    QRU_TRY(gram_start(r));
    for (;;) {
        QRU_TRY(gram_step(r, s++));
        if (s < next)
            continue;
        QRU_TRY(gram_read(r, s));
        if (st[QRU_OMP_ST_STATUS] != QRU_OMP_RUN || s == r->ncoef)
            break;
        next = gram_next(s, r->ncoef);
    }
    int why = (int)st[QRU_OMP_ST_STATUS], k = (int)st[QRU_OMP_ST_K];
    int j = (int)st[QRU_OMP_ST_J];
    double rr = st[QRU_OMP_ST_RR];
    *kout = k;
    *rel = sqrt(rr > 0.0 ? rr : 0.0);
    for (int i = 0; i < k; ++i)
        r->h->sup[i] = (int)st[QRU_OMP_STATE + i];
    *stop = 0;
    if (why == QRU_OMP_REFUSED) {
        *stop = k + 1;
        qru_fail(*stop, "step %d: column %d (0-based) of X is numerically "
                        "dependent on the %d chosen (the Gram form's "
                        "Cholesky pivot %g <= max(n, k + 1) eps max G(i, i) "
                        "= %g)",
                 k + 1, j, k, st[QRU_OMP_ST_PIV], st[QRU_OMP_ST_LIM]);
    } else if (why >= QRU_OMP_SPAN) {
        *stop = omp_stopped(why, r->n, k, eps, *rel, j, st[QRU_OMP_ST_CJ]);
    }
    return 0;
}

/* x(1:k) = R \ d of the k chosen columns (R ld ldr, d) into h->x (the
 * device vector w, k elements), and the path P = R \ triu(d * ones(1,
 * k)) into path's leading k x k block (its other elements zero). */
static int omp_solve(qru_context *ctx, qru_dtype dt, qru_ptr R, int ldr,
                     qru_ptr d, int k, qru_ptr w, qru_ptr ones,
                     qru_matrix *path, omp_host *h)
{
    const qru_backend_ops *o = ctx->ops;
    QRU_TRY(o->copy(ctx, dt, k, 1, d, ldr, w, k));
    QRU_TRY(o->trsm(ctx, dt, 'L', 'U', 'N', 'N', k, 1, 1.0, R, ldr, w, k));
    QRU_TRY(omp_read(ctx, dt, k, w, h->x, h->tmp));
    if (!path)
        return 0;
    qru_ptr P = path->p;
    int ldp = path->ld;
    QRU_TRY(o->laset(ctx, dt, 'A', path->rows, path->cols, 0.0, 0.0, P,
                     ldp));
    QRU_TRY(o->laset(ctx, dt, 'A', 1, k, 1.0, 1.0, ones, 1));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', k, k, 1, 1.0, d, ldr, ones, 1, 0.0, P,
                    ldp));
    if (k > 1)
        QRU_TRY(o->laset(ctx, dt, 'L', k - 1, k - 1, 0.0, 0.0,
                         qru_ptr_add(P, 1), ldp));
    return o->trsm(ctx, dt, 'L', 'U', 'N', 'N', k, k, 1.0, R, ldr, P, ldp);
}

/* The solve of the k chosen columns of either form (g: 2 k elements):
 * the residual form's R and d = Q1' y, the Gram form's R = L' and
 * z = L \ c0(S) (the same numbers up to rounding). */
static int omp_finish(omp_run *r, int k, qru_matrix *path)
{
    if (!r->gram)
        return omp_solve(r->ctx, r->dt, r->f->R, r->f->ldr, r->f->d, k, r->g,
                         qru_ptr_add(r->g, (size_t)k), path, r->h);
    return omp_solve(r->ctx, r->dt, qru_ptr_add(r->gb, r->w.R), r->ncoef,
                     qru_ptr_add(r->gb, r->w.z), k, r->g,
                     qru_ptr_add(r->g, (size_t)k), path, r->h);
}

/* The device vector g: [c; rr] and w while the residual form's steps
 * run, then x and the ones of the path (max(m + 1 + n, 2 ncoef)
 * elements). */
static size_t omp_glen(int n, int m, int ncoef)
{
    size_t glen = (size_t)m + 1 + (size_t)n;
    return glen < 2 * (size_t)ncoef ? 2 * (size_t)ncoef : glen;
}

/* r's device memory: g, and the Gram form's state (NULL handles where
 * an allocation fails). */
static int omp_run_alloc(omp_run *r)
{
    const qru_backend_ops *o = r->ctx->ops;
    size_t es = qru_dtype_size(r->dt);
    int st = o->mem_alloc(r->ctx, omp_glen(r->n, r->m, r->ncoef) * es,
                          &r->g.h);
    if (st) {
        r->g.h = NULL;
        return st;
    }
    r->g.off = 0;
    if (r->gram && (st = o->mem_alloc(r->ctx, r->w.elems * es, &r->gb.h)))
        r->gb.h = NULL;
    r->gb.off = 0;
    return st;
}

static void omp_run_free(omp_run *r)
{
    const qru_backend_ops *o = r->ctx->ops;
    qru_lsq_destroy(r->f);
    r->f = NULL;
    if (r->g.h || r->gb.h)
        (void)o->sync(r->ctx);
    if (r->g.h)
        o->mem_free(r->ctx, r->g.h);
    if (r->gb.h)
        o->mem_free(r->ctx, r->gb.h);
    r->g.h = r->gb.h = NULL;
}

/* tol < 0: none; the Gram form tests ||r|| / ||y|| <= sqrt(tol) / ||y||
 * (in the element type, so float's is clamped to its range). */
static omp_run omp_run_init(qru_context *ctx, const qru_matrix *X,
                            const qru_matrix *y, int ncoef, int gram,
                            double ny, double tol, omp_host *h)
{
    omp_run r;
    memset(&r, 0, sizeof r);
    r.ctx = ctx;
    r.X = X;
    r.y = y;
    r.dt = X->dtype;
    r.n = X->rows;
    r.m = X->cols;
    r.ncoef = ncoef;
    r.gram = gram;
    r.inv = ny > 0.0 && isfinite(ny) ? 1.0 / ny : 1.0;
    r.rr0 = ny > 0.0 && isfinite(ny) ? 1.0 : ny * ny;
    r.thr = tol >= 0.0 ? sqrt(tol) * r.inv : -1.0;
    if (r.dt == QRU_FLOAT && r.thr > FLT_MAX)
        r.thr = FLT_MAX;
    r.h = h;
    r.w = qru_omp_ws_of(r.n, r.m, ncoef);
    return r;
}

/* ---- the choice of the form ---- */

/* What one priced part of a pursuit runs: the start (k < 0: the first
 * correlations, the first column and its correlations; in the Gram form
 * also the state's reads of a pursuit of ncoef steps) or the step from k
 * columns (their state made first, unpriced: the residual form's
 * factorisation of X(:, 0:k)); its seconds into *sec. */
typedef struct omp_part {
    const qru_matrix *X, *y;
    int ncoef, gram, k;
    omp_host *h;
    double *sec;
} omp_part;

static int omp_part_run(qru_context *ctx, qru_lsq *f, const void *arg)
{
    (void)f;
    const omp_part *p = arg;
    qru_matrix X = *p->X, y = *p->y; /* headers of the dry context */
    X.ctx = y.ctx = ctx;
    omp_run r = omp_run_init(ctx, &X, &y, p->ncoef, p->gram, 1.0, -1.0, p->h);
    int st = omp_run_alloc(&r), k = p->k;
    double t0 = 0.0;
    if (!st && k < 0 && r.gram) {
        st = gram_start(&r);
        if (!st)
            st = gram_step(&r, 0);
        for (int s = 0; !st && s < r.ncoef;) {
            s = gram_next(s, r.ncoef);
            st = gram_read(&r, s);
        }
    } else if (!st && k < 0) {
        st = omp_first(&r);
        if (!st)
            st = omp_add(&r, 0, 0);
        if (!st)
            st = omp_corr(&r, p->ncoef == 1);
    } else if (!st && r.gram) {
        t0 = qru_plan_seconds(ctx->plan);
        st = gram_step(&r, k);
    } else if (!st) {
        qru_matrix A = omp_columns(r.X, 0, k);
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        opt.col_capacity = r.ncoef;
        st = qru_lsq_create(ctx, &A, r.y, &opt, &r.f);
        if (!st)
            st = qru_lsq_set_update_algorithm(r.f, QRU_UPDATE_FAST);
        t0 = qru_plan_seconds(ctx->plan);
        if (!st)
            st = omp_add(&r, k, k);
        if (!st)
            st = omp_corr(&r, 0);
    }
    *p->sec = qru_plan_seconds(ctx->plan) - t0;
    omp_run_free(&r);
    return st < 0 ? st : 0;
}

/* The predicted seconds of a pursuit of ncoef columns in the form gram:
 * its start and ncoef - 1 steps priced at the middle one. */
static int omp_form_seconds(qru_context *ctx, const qru_matrix *X,
                            const qru_matrix *y, int ncoef, int gram,
                            omp_host *h, double *sec)
{
    double t0 = 0.0, ts = 0.0;
    qru_plan pl;
    omp_part p = {X, y, ncoef, gram, -1, h, &t0};
    QRU_TRY(qru_plan_run(ctx, NULL, X->dtype, omp_part_run, &p, &pl));
    if (ncoef > 1) {
        p.k = ncoef / 2;
        p.sec = &ts;
        QRU_TRY(qru_plan_run(ctx, NULL, X->dtype, omp_part_run, &p, &pl));
    }
    *sec = t0 + (double)(ncoef - 1) * ts;
    return 0;
}

/* *gram := the form to run: the tuning block's omp_gram, and with auto
 * the faster plan among the forms whose memory is within omp_gram_mib. */
static int omp_choose(qru_context *ctx, const qru_matrix *X,
                      const qru_matrix *y, int ncoef, omp_host *h, int *gram)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, X->dtype);
    *gram = t->omp_gram == 2;
    if (t->omp_gram != 0)
        return 0;
    double mib = (double)omp_gram_elems(X->rows, X->cols, ncoef) *
                 (double)qru_dtype_size(X->dtype) / 1048576.0;
    if (mib > (double)t->omp_gram_mib)
        return 0;
    double tr, tg;
    QRU_TRY(omp_form_seconds(ctx, X, y, ncoef, 0, h, &tr));
    QRU_TRY(omp_form_seconds(ctx, X, y, ncoef, 1, h, &tg));
    *gram = tg < tr;
    return 0;
}

int qru_omp_price(qru_context *ctx, const qru_matrix *X, const qru_matrix *y,
                  int ncoef, double *residual, double *gram)
{
    omp_host h = {0};
    int st = omp_host_alloc(&h, X->dtype, X->cols, ncoef);
    if (!st)
        st = omp_form_seconds(ctx, X, y, ncoef, 0, &h, residual);
    if (!st)
        st = omp_form_seconds(ctx, X, y, ncoef, 1, &h, gram);
    omp_host_free(&h);
    return st;
}

int qru_omp(qru_context *ctx, const qru_matrix *X, const qru_matrix *y,
            int ncoef, double tol, qru_matrix *coef, qru_matrix *path,
            int *support, qru_solver_info *info)
{
    QRU_ARG(NULL, 1, ctx, "ctx is NULL");
    QRU_ARG_MAT(ctx, 2, "X", X, X ? X->dtype : QRU_DOUBLE);
    QRU_CHECK(ctx, qru_check_real(X->dtype));
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

    const qru_backend_ops *o = ctx->ops;
    omp_host h = {0};
    omp_run r = omp_run_init(ctx, X, y, ncoef, 0, 0.0, tol, &h);
    int k = 0, stop = 0, gram = 0, st;
    double rel = 0.0, ynorm = 0.0;
    QRU_TRY_GOTO(omp_host_alloc(&h, dt, m, ncoef));
    QRU_TRY_GOTO(omp_choose(ctx, X, y, ncoef, &h, &gram));
    QRU_TRY_GOTO(o->col_norms(ctx, dt, n, 1, y->p, y->ld, &ynorm));
    r = omp_run_init(ctx, X, y, ncoef, gram, ynorm, tol, &h);
    QRU_TRY_GOTO(omp_run_alloc(&r));
    if (gram)
        QRU_TRY_GOTO(gram_steps(&r, &k, &rel, &stop));
    else
        QRU_TRY_GOTO(omp_steps(&r, tol, ynorm, &k, &rel, &stop));
    if (k > 0)
        QRU_TRY_GOTO(omp_finish(&r, k, path));
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
    qru_solver_report(info, k, k, rel * ynorm, 0, gram ? 2 : 1);
    st = stop;
done:
    omp_run_free(&r);
    omp_host_free(&h);
    QRU_RET(ctx, st);
}
