/*
 * Non-negative least squares, min ||A x - b||_2 subject to x >= 0, by the
 * active-set algorithm of Lawson and Hanson (1974, chapter 23), written
 * once for both precisions against the update API.
 *
 * The columns whose x_j may be positive (Lawson and Hanson's set P, the
 * solver's active set) are held as a thin least-squares factorisation
 * (QRU_Q_THIN: Q1, R, d = Q1' b and the residuals E = b - Q1 d) that
 * grows by one column (qru_upd_run with an added column, appended after
 * the others) and shrinks by one (a removed column, at its position), so
 * a step costs O(n |P|) instead of a new QR.  The other data stays where
 * the context keeps it: the dual vector w = A' E of a least-squares
 * solution z = R \ d is one GEMM with A, and only w (m numbers) and z
 * (|P| numbers), downloaded together, and x on P (kept on the host)
 * cross to the host.
 *
 * One step, in the order of the book:
 *  - the column t with the largest w_t > tol (the lowest index among
 *    equal ones) is appended; the update's rank rule refuses a column
 *    that is numerically dependent on P, and a column whose own
 *    coefficient z_t comes out <= 0 is taken back (Lawson and Hanson's
 *    safeguard); either is set aside until the next column enters;
 *  - while z has a component <= 0, x moves towards z as far as it stays
 *    feasible (x := x + alpha (z - x)), and the columns whose x_j reach
 *    zero leave P (one removal each), then z is solved again;
 *  - with z > 0, x := z, and w = A' E (computed with z, before it is
 *    known to be needed) selects the next column.
 * Steps (additions and removals) are counted against maxiter, so no
 * input runs longer; the returned x is always feasible.  x and w are
 * formed at the end from A, b and x (r = b - A x, w = A' r) and written
 * to the caller's matrices only then.
 *
 * The Gram form trades the thin form's conditioning for latency: each
 * update of the thin form is a pipeline of dozens of calls with host
 * waits of its own (the rank rule).  It holds P in the Gram active set
 * of src/solvers/gram_set.c (shared with qru_lars; its header describes
 * it): G = A' A formed once, the columns of P in slots of Gs = G(:, P)
 * and of the inverse factor W (W W' = G(P, P)^-1), S = (A' b)(P) by
 * slot (set when a column enters it).  A solve is three products and
 * one download, no pass over A:
 *
 *   z = W (W' S), G(:, P) z, download [G(:, P) z; d; flag; z]  (1 wait),
 *
 * w = A' b - G(:, P) z formed on the host.  An entering column is
 * bordered on (the op gram_border, and S set by one call; no wait),
 * its pivot d judged by the next download: d <= sqrt(n eps)
 * ||A(:, t)|| (G resolves d^2 only to n eps ||A(:, t)||^2) or a failed
 * pivot is the thin form's rank-rule refusal, the column taken out
 * again (the last slot: one call) and set aside.  A leaving column
 * costs a Householder reflection of W from the right (1 wait for its
 * row).  The accuracy is that of cond(A_P)^2.
 *
 * The form: the tuning block's nnls_gram (auto, off, on).  With auto the
 * Gram form is priced in double only, where its memory is within
 * omp_gram_mib and A' A cannot overflow: each form's start and one step
 * from min(maxiter, kmax) / 2 columns run against the dry-run op table
 * (qru_plan_run), a solve taken as min(maxiter, kmax) such steps, and
 * the faster runs.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "qru_internal.h"
#include "solver.h"

/* The state of a solve: the host copies (double) and the device buffer. */
typedef struct nnls_state {
    qru_context *ctx;
    qru_dtype dt;
    const qru_matrix *A, *b;
    int n, m, kmax;
    qru_lsq *f;   /* the factorisation of A(:, P), NULL while P is empty */
    int np;       /* |P| */
    int *P;       /* P[i]: the column of A at position i of f (kmax) */
    char *in;     /* in[j]: 1 column j is in P, 2 set aside, 0 neither */
    double *x;    /* x (m; 0 outside P) */
    double *w;    /* w = A'(b - A x) for the x of the last outer step (m) */
    double *w0;   /* A' b, the w of x = 0 (m) */
    double *wn;   /* the w computed with the last z (m) */
    double *z;    /* the last z = R \ d (kmax) */
    double *thr;  /* thr[j]: w_j must exceed it for column j to enter (m) */
    void *hbuf;   /* download / upload staging, m + 2 + kmax elements of
                     dt */
    qru_ptr dev;  /* device: W (m), Z (kmax), X (m), Rr (n) */
    int gram;     /* the Gram form (else the thin QR form) */
    qru_gram_set g; /* the Gram form: P[i] in slot g.slot[i], S = A'b on P */
    double *rhs;  /* (A'b)(P[i]) by position (kmax) */
    double *piv;  /* piv[j]: the smallest Gram pivot column j enters with
                     (m) */
    double dlast; /* the Gram pivot of the column appended last */
} nnls_state;

/* Offsets (elements) of the device buffer's parts. */
static size_t nnls_off_z(const nnls_state *s) { return (size_t)s->m; }
static size_t nnls_off_x(const nnls_state *s)
{
    return (size_t)s->m + (size_t)s->kmax;
}
static size_t nnls_off_r(const nnls_state *s)
{
    return 2 * (size_t)s->m + (size_t)s->kmax;
}

/* cnt elements of dt at src to the host doubles dst (one host wait). */
static int nnls_get(nnls_state *s, int cnt, qru_ptr src, double *dst,
                    double *dst2, int split)
{
    QRU_TRY(s->ctx->ops->download(s->ctx, s->dt, cnt, 1, src, cnt, s->hbuf,
                                  cnt));
    for (int i = 0; i < cnt; ++i) {
        double v = s->dt == QRU_DOUBLE ? ((const double *)s->hbuf)[i]
                                       : (double)((const float *)s->hbuf)[i];
        if (i < split)
            dst[i] = v;
        else
            dst2[i - split] = v;
    }
    return 0;
}

/* The scan of argument i (the matrix M): its column norms into nrm, -i
 * when one is not finite (a NaN or an infinity in the column, or a
 * column whose norm is beyond the range of its element type). */
static int nnls_scan(qru_context *ctx, int i, const char *name,
                     const qru_matrix *M, double *nrm)
{
    QRU_TRY(ctx->ops->col_norms(ctx, M->dtype, M->rows, M->cols, M->p, M->ld,
                                nrm));
    for (int j = 0; j < M->cols; ++j)
        if (!isfinite(nrm[j]))
            return qru_fail_arg(i, "column %d of %s has the norm %g: it "
                                   "holds a NaN or an infinity (the solver "
                                   "scans A and b whatever "
                                   "QRU_OPTION_CHECK_FINITE says)",
                                j + 1, name, nrm[j]);
    return 0;
}

/* Output argument i (name) against the inputs A and b and, when given,
 * the output o (oname): m x 1 of A's type, sharing no memory. */
static int nnls_out_arg(qru_context *ctx, int i, const char *name,
                        const qru_matrix *M, const qru_matrix *A,
                        const qru_matrix *b, const qru_matrix *o,
                        const char *oname)
{
    QRU_TRY(qru_arg_matrix(ctx, i, name, M, A->dtype));
    if (M->rows != A->cols || M->cols != 1)
        return qru_fail_arg(i, "%s is %d x %d, but it must be %d x 1 (A's "
                               "columns)", name, M->rows, M->cols, A->cols);
    const qru_matrix *in[3] = {A, b, o};
    const char *iname[3] = {"A", "b", oname};
    for (int k = 0; k < 3; ++k)
        if (in[k] && qru_mat_overlap(M, in[k]))
            return qru_fail_arg(i, "%s overlaps %s (they share memory)",
                                name, iname[k]);
    return 0;
}

/* The checks of A (2, after its type and shape) .. info (8), in order;
 * anrm (m) and *bnorm receive the column norms of A and b. */
static int nnls_args(qru_context *ctx, const qru_matrix *A,
                     const qru_matrix *b, int maxiter, double tol,
                     const qru_matrix *x, const qru_matrix *w, double *anrm,
                     double *bnorm)
{
    int m = A->cols;
    QRU_TRY(qru_check_finite(ctx, 2, A, 'A', 'N', 0));
    QRU_TRY(nnls_scan(ctx, 2, "A", A, anrm));
    QRU_TRY(qru_arg_matrix(ctx, 3, "b", b, A->dtype));
    if (b->rows != A->rows || b->cols != 1)
        return qru_fail_arg(3, "b is %d x %d, but it must be %d x 1 (A's "
                               "rows)", b->rows, b->cols, A->rows);
    QRU_TRY(qru_check_finite(ctx, 3, b, 'A', 'N', 0));
    QRU_TRY(nnls_scan(ctx, 3, "b", b, bnorm));
    if (maxiter < 0)
        return qru_fail_arg(4, "maxiter = %d, but it must be >= 0 (0: "
                               "3 m = %d)", maxiter,
                            m > INT_MAX / 3 ? INT_MAX : 3 * m);
    if (!isfinite(tol))
        return qru_fail_arg(5, "tol = %g, but it must be finite (< 0: the "
                               "default)", tol);
    QRU_TRY(nnls_out_arg(ctx, 6, "x", x, A, b, NULL, NULL));
    if (w)
        QRU_TRY(nnls_out_arg(ctx, 7, "w", w, A, b, x, "x"));
    return 0;
}

/* z = R \ d on the current P and w = A' E, both downloaded (one wait):
 * s->z (np) and s->wn (m).  The Gram form: z = W W' (A'b)(P) and
 * w = A'b - G(:, P) z, with the pivot of the column appended last (one
 * wait). */
static int nnls_solve(nnls_state *s)
{
    if (s->gram) {
        QRU_TRY(qru_gram_solve(&s->g, s->rhs, s->wn, &s->dlast, s->z));
        for (int j = 0; j < s->m; ++j)
            s->wn[j] = s->w0[j] - s->wn[j];
        return 0;
    }
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_lsq *f = s->f;
    int np = s->np;
    qru_ptr W = s->dev, Z = qru_ptr_add(s->dev, nnls_off_z(s));
    QRU_TRY(o->copy(ctx, s->dt, np, 1, f->d, f->ldr, Z, np));
    QRU_TRY(o->trsm(ctx, s->dt, 'L', 'U', 'N', 'N', np, 1, 1.0, f->R, f->ldr,
                    Z, np));
    QRU_TRY(o->gemm(ctx, s->dt, 'T', 'N', s->m, 1, s->n, 1.0, s->A->p,
                    s->A->ld, f->E, f->ncap, 0.0, W, s->m));
    /* W and Z are adjacent: [w; z] in one transfer */
    return nnls_get(s, s->m + np, W, s->wn, s->z, s->m);
}

/* Appends column t of A to P: 0, or 1 when the update's rank rule
 * refuses it (f unchanged), or a library status.  The Gram form borders
 * W on (no wait); its pivot is judged after the next solve. */
static int nnls_add(nnls_state *s, int t)
{
    int st = s->gram ? qru_gram_add(&s->g, t)
                     : qru_solver_add_col(s->ctx, s->A, s->b, t, s->kmax,
                                          &s->f);
    if (st)
        return st;
    s->rhs[s->np] = s->w0[t];
    s->P[s->np++] = t;
    s->in[t] = 1;
    return 0;
}

/* Removes the column at position i of P (x_j set to 0). */
static int nnls_remove(nnls_state *s, int i)
{
    int j = s->P[i];
    QRU_TRY(s->gram ? qru_gram_remove(&s->g, i)
                    : qru_solver_remove_col(s->ctx, &s->f, i));
    for (int k = i; k + 1 < s->np; ++k) {
        s->P[k] = s->P[k + 1];
        s->rhs[k] = s->rhs[k + 1];
    }
    --s->np;
    s->in[j] = 0;
    s->x[j] = 0.0;
    return 0;
}

/* The column with the largest w_j outside P, not set aside and with
 * w_j > thr_j (the lowest index among equal ones), or -1. */
static int nnls_pick(const nnls_state *s)
{
    int t = -1;
    for (int j = 0; j < s->m; ++j)
        if (!s->in[j] && s->w[j] > s->thr[j] && (t < 0 || s->w[j] > s->w[t]))
            t = j;
    return t;
}

/* The iterations; *steps counts them, *capped is set when maxiter ends
 * them.  Returns 0 or a library status. */
static int nnls_run(nnls_state *s, int maxiter, int *steps,
                    int *capped)
{
    for (;;) {
        if (s->np == s->kmax) /* P spans the rows (b = A x) or is all of A */
            return 0;
        int t = nnls_pick(s);
        if (t < 0)
            return 0; /* the KKT conditions hold */
        if (*steps >= maxiter) {
            *capped = 1;
            return 0;
        }
        int st = nnls_add(s, t);
        if (st == 1) { /* dependent on P: set aside for this step */
            s->in[t] = 2;
            continue;
        }
        QRU_TRY(st);
        QRU_TRY(nnls_solve(s));
        if (s->gram && !(s->dlast > s->piv[t])) { /* the Gram pivot rule:
                                                    dependent on P */
            QRU_TRY(nnls_remove(s, s->np - 1));
            s->in[t] = 2;
            continue;
        }
        if (!(s->z[s->np - 1] > 0.0)) { /* Lawson and Hanson's safeguard */
            QRU_TRY(nnls_remove(s, s->np - 1));
            s->in[t] = 2;
            continue;
        }
        ++*steps;
        for (int j = 0; j < s->m; ++j) /* a new P: all may enter again */
            if (s->in[j] == 2)
                s->in[j] = 0;
        for (;;) {
            double alpha = 2.0;
            for (int i = 0; i < s->np; ++i) {
                int j = s->P[i];
                if (s->z[i] <= 0.0) {
                    double a = s->x[j] / (s->x[j] - s->z[i]);
                    if (a < alpha)
                        alpha = a;
                }
            }
            if (alpha == 2.0) { /* z feasible: x = z, w with it */
                for (int i = 0; i < s->np; ++i)
                    s->x[s->P[i]] = s->z[i];
                for (int j = 0; j < s->m; ++j)
                    s->w[j] = s->wn[j];
                break;
            }
            /* x moves towards z until a coefficient reaches 0 (those
             * that define alpha are set to exactly 0) */
            for (int i = 0; i < s->np; ++i) {
                int j = s->P[i];
                int hit = s->z[i] <= 0.0 &&
                          s->x[j] / (s->x[j] - s->z[i]) == alpha;
                s->x[j] = hit ? 0.0 : s->x[j] + alpha * (s->z[i] - s->x[j]);
            }
            for (int i = s->np - 1; i >= 0; --i) {
                if (s->x[s->P[i]] > 0.0)
                    continue;
                if (*steps >= maxiter) {
                    *capped = 1;
                    return 0;
                }
                QRU_TRY(nnls_remove(s, i));
                ++*steps;
            }
            if (s->np == 0) { /* back to x = 0 */
                for (int j = 0; j < s->m; ++j)
                    s->w[j] = s->w0[j];
                break;
            }
            QRU_TRY(nnls_solve(s));
        }
    }
}

/* ---- the choice of the form ---- */

/* What one priced part of a solve runs in a form (qru_gram_choose): the
 * start (k < 0: A' b, the Gram form's G, then the first column added and
 * solved) or a step from k columns. */
static int nnls_part_run(qru_context *ctx, qru_lsq *f, const void *arg)
{
    (void)f;
    const qru_gram_part *p = arg;
    const nnls_state *s = p->s;
    qru_matrix A = *s->A, b = *s->b; /* headers of the dry context */
    A.ctx = b.ctx = ctx;
    nnls_state d = *s;
    d.ctx = ctx;
    d.A = &A;
    d.b = &b;
    d.gram = p->gram;
    int k = p->k < 0 ? 0 : p->k;
    /* S as the device's (zero) on the k columns, the entering one's set
     * (one call, as in a step); w0 is filled after the choice */
    for (int i = 0; i < k; ++i)
        d.rhs[i] = 0.0;
    d.w0[k] = 1.0;
    d.np = k;
    double t0;
    int st = qru_gram_part_begin(ctx, p, &A, &b, d.kmax, &d.dev, d.hbuf,
                                 d.wn, &d.g, &d.f, &t0);
    if (!st) {
        st = nnls_add(&d, k);
        if (st == 1)
            st = 0;
    }
    if (!st)
        st = nnls_solve(&d);
    return qru_gram_part_end(ctx, p, st, t0, d.dev, &d.g, d.f);
}

/* s->gram := the tuning block's nnls_gram (qru_gram_choose; auto: priced
 * on a solve of min(maxiter, kmax) steps, each column entering about
 * once).  The dry runs write the host state (P, in, the Gram slots):
 * the caller sets it after. */
static int nnls_choose(nnls_state *s, size_t delems, int maxiter,
                       double amax)
{
    const qru_tuning *t = qru_ctx_tuning(s->ctx, s->dt);
    int steps = maxiter < s->kmax ? maxiter : s->kmax;
    qru_gram_part p = {s, delems, 0, -1, NULL};
    return qru_gram_choose(s->ctx, s->dt, t->nnls_gram, s->m, s->kmax,
                           steps, amax, nnls_part_run, &p, &s->gram);
}

/* The outputs from x: X = x, r = b - A X, W = A' r, ||r|| (one wait); then
 * x := X and w := W. */
static int nnls_finish(nnls_state *s, qru_matrix *x, qru_matrix *w,
                       double *rnorm)
{
    qru_context *ctx = s->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = s->dt;
    int n = s->n, m = s->m;
    qru_ptr W = s->dev, X = qru_ptr_add(s->dev, nnls_off_x(s)),
            Rr = qru_ptr_add(s->dev, nnls_off_r(s));
    for (int j = 0; j < m; ++j) {
        if (dt == QRU_DOUBLE)
            ((double *)s->hbuf)[j] = s->x[j];
        else
            ((float *)s->hbuf)[j] = (float)s->x[j];
    }
    QRU_TRY(o->upload(ctx, dt, m, 1, s->hbuf, m, X, m));
    QRU_TRY(o->copy(ctx, dt, n, 1, s->b->p, s->b->ld, Rr, n));
    QRU_TRY(o->gemm(ctx, dt, 'N', 'N', n, 1, m, -1.0, s->A->p, s->A->ld, X,
                    m, 1.0, Rr, n));
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', m, 1, n, 1.0, s->A->p, s->A->ld, Rr,
                    n, 0.0, W, m));
    QRU_TRY(o->col_norms(ctx, dt, n, 1, Rr, n, rnorm));
    QRU_TRY(o->copy(ctx, dt, m, 1, X, m, x->p, x->ld));
    if (w)
        QRU_TRY(o->copy(ctx, dt, m, 1, W, m, w->p, w->ld));
    return 0;
}

int qru_nnls(qru_context *ctx, const qru_matrix *A, const qru_matrix *b,
             int maxiter, double tol, qru_matrix *x, qru_matrix *w,
             qru_solver_info *info)
{
    QRU_SOLVER_ARG_A(ctx, "A", A);
    qru_dtype dt = A->dtype;
    int n = A->rows, m = A->cols, kmax = n < m ? n : m;
    const qru_backend_ops *o = ctx->ops;
    size_t es = qru_dtype_size(dt), mk = (size_t)m + (size_t)kmax;
    size_t delems = mk + (size_t)m + (size_t)n; /* W, Z, X, Rr */
    /* the host arrays of nnls_state (the norms of A first: the checks
     * fill them): thr, x, w, w0, wn, piv (m), z, rhs, smir (kmax), the
     * staging (m + 2 + kmax), P, slot (kmax ints), in (m), sused (kmax):
     * the ints and chars last, so that the staging's elements stay
     * aligned */
    double *h = malloc(sizeof(double) * (6 * (size_t)m + 3 * (size_t)kmax) +
                       es * (mk + 2) + 2 * sizeof(int) * (size_t)kmax +
                       (size_t)m + (size_t)kmax);
    if (!h)
        QRU_RET(ctx, QRU_HOST_ALLOC_FAILED);
    nnls_state s = {0};
    double bnorm = 0.0, rnorm = 0.0;
    int steps = 0, capped = 0;
    int st = nnls_args(ctx, A, b, maxiter, tol, x, w, h, &bnorm);
    if (st)
        goto done;

    if (maxiter == 0)
        maxiter = m > INT_MAX / 3 ? INT_MAX : 3 * m;
    s.ctx = ctx;
    s.dt = dt;
    s.A = A;
    s.b = b;
    s.n = n;
    s.m = m;
    s.kmax = kmax;
    s.thr = h;
    s.x = s.thr + m;
    s.w = s.x + m;
    s.w0 = s.w + m;
    s.wn = s.w0 + m;
    s.piv = s.wn + m;
    s.z = s.piv + m;
    s.rhs = s.z + kmax;
    s.g.smir = s.rhs + kmax;
    s.hbuf = s.g.smir + kmax;
    s.P = (int *)((char *)s.hbuf + es * (mk + 2));
    s.g.slot = s.P + kmax;
    s.in = (char *)(s.g.slot + kmax);
    s.g.sused = s.in + m;
    s.g.ctx = ctx;
    s.g.dt = dt;
    s.g.m = m;
    s.g.kmax = kmax;
    s.g.hbuf = s.hbuf;
    /* thr_j: tol, or 10 max(n, m) eps ||A(:,j)|| ||b||; the Gram pivot
     * rule: d_j^2 = G(j, j) - v' v is resolved to n eps ||A(:,j)||^2
     * (thr holds the norms of A's columns) */
    double eps = dt == QRU_DOUBLE ? DBL_EPSILON : (double)FLT_EPSILON;
    double c = 10.0 * (double)(n > m ? n : m) * eps * bnorm, amax = 0.0;
    for (int j = 0; j < m; ++j) {
        amax = fmax(amax, s.thr[j]);
        s.piv[j] = sqrt((double)n * eps) * s.thr[j];
        s.thr[j] = tol >= 0.0 ? tol : c * s.thr[j];
    }
    QRU_TRY_GOTO(nnls_choose(&s, delems, maxiter, amax));
    /* (the dry runs wrote the host state) */
    qru_gram_reset(&s.g);
    for (int j = 0; j < m; ++j) {
        s.x[j] = 0.0;
        s.in[j] = 0;
    }
    /* x = 0: w = A' b */
    QRU_TRY_GOTO(qru_solver_start(ctx, A, b, delems, &s.dev, s.hbuf, s.w0));
    if (s.gram)
        QRU_TRY_GOTO(qru_gram_start(&s.g, A));
    for (int j = 0; j < m; ++j)
        s.w[j] = s.w0[j];
    QRU_TRY_GOTO(nnls_run(&s, maxiter, &steps, &capped));
    QRU_TRY_GOTO(nnls_finish(&s, x, w, &rnorm));
    qru_solver_report(info, steps, s.np, rnorm, 0, s.gram ? 2 : 1);
    if (capped)
        st = qru_fail(maxiter, "the iteration cap maxiter = %d was reached "
                               "(x is the last feasible iterate, %d columns "
                               "active)", maxiter, s.np);
done:
    qru_lsq_destroy(s.f);
    if (s.dev.h || s.g.dev.h)
        (void)o->sync(ctx);
    if (s.dev.h)
        o->mem_free(ctx, s.dev.h);
    qru_gram_free(&s.g);
    free(h);
    QRU_RET(ctx, st);
}
