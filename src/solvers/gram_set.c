/*
 * The Gram active set shared by the solvers' Gram forms (qru_lars,
 * qru_nnls), written once for both precisions against the backend ops.
 *
 * G = X' X is formed once (one GEMM, m^2 elements); the active columns
 * sit in slots of a kmax x kmax array (slot[i] the slot of the i-th
 * active column; free slots' rows and columns zero):
 *
 *   Gs = G(:, A)      m x kmax, the column of G copied when one enters,
 *   W                 the inverse factor: W W' = G(A, A)^-1 (W = R^-1,
 *                     in slot order, while no column has left),
 *   S                 the right-hand side by slot (the solver's numbers
 *                     of the active columns), set where it changes,
 *
 * so that a solve is three products (the op gram_solve) and one
 * download:
 *
 *   z = W (W' S), corr = Gs z, download [corr; d; flag; z]  (1 wait).
 *
 * A column t entering slot q is bordered on by the op gram_border (two
 * kernels on a GPU; its reference, ref_ops.c, 9 basic ops) and no wait:
 * v = W' G(A, t) (W's row and column q zero), d = sqrt(G(t, t) - v' v)
 * (its flag set where G(t, t) - v' v is not positive, as potrf_panel's)
 * and W(:, q) = [-W v; 1] / d.  d, the Cholesky pivot, comes with the
 * next solve's download (qru_lars: its op lars_gram_step borders and
 * judges it itself); the solver judges it (G resolves d^2 only to
 * n eps ||X(:, t)||^2) and takes a degenerate column back out.  The
 * column appended last leaves by zeroing W(:, q) (no wait); any other
 * column leaving slot q: W's row q r' is downloaded (1 wait) and a
 * Householder reflection H from the right takes it to a multiple of
 * e_q', after which row and column q of W H are zeroed; since
 * G(A\q, A\q)^-1 = W_-q (I - r r' / r' r) W_-q', what is left is an
 * inverse factor of the smaller Gram matrix (no O(|A|) chain of
 * rotations, no compaction).  Its conditioning is that of G,
 * cond(X_A)^2.
 */
#include <math.h>
#include <string.h>

#include "solver.h"

size_t qru_gram_elems(int m, int kmax)
{
    size_t em = (size_t)m, ek = (size_t)kmax;
    return em * em + em * ek + ek * ek + 4 * ek + em + 2 + ek;
}

typedef qru_gram_ptrs gram_ptrs;

qru_gram_ptrs qru_gram_ptrs_of(const qru_gram_set *g)
{
    size_t m = (size_t)g->m, k = (size_t)g->kmax;
    gram_ptrs p;
    p.G = g->dev;
    p.Gs = qru_ptr_add(p.G, m * m);
    p.W = qru_ptr_add(p.Gs, m * k);
    p.S = qru_ptr_add(p.W, k * k);
    p.V = qru_ptr_add(p.S, k);
    p.T = qru_ptr_add(p.V, k);
    p.H = qru_ptr_add(p.T, k);
    p.out = qru_ptr_add(p.H, k);
    return p;
}

static double gram_hget(const qru_gram_set *g, int i)
{
    return g->dt == QRU_DOUBLE ? ((const double *)g->hbuf)[i]
                               : (double)((const float *)g->hbuf)[i];
}

void qru_gram_reset(qru_gram_set *g)
{
    g->gk = g->hw = 0;
    g->last = -1;
    g->flagged = 0;
    memset(g->sused, 0, (size_t)g->kmax);
    memset(g->smir, 0, sizeof(double) * (size_t)g->kmax);
}

int qru_gram_start(qru_gram_set *g, const qru_matrix *X)
{
    qru_context *ctx = g->ctx;
    const qru_backend_ops *o = ctx->ops;
    int m = g->m, k = g->kmax;
    int st = o->mem_alloc(ctx, qru_gram_elems(m, k) * qru_dtype_size(g->dt),
                          &g->dev.h);
    if (st) {
        g->dev.h = NULL;
        return st;
    }
    g->dev.off = 0;
    gram_ptrs p = qru_gram_ptrs_of(g);
    QRU_TRY(o->gemm(ctx, g->dt, 'T', 'N', m, m, X->rows, 1.0, X->p, X->ld,
                    X->p, X->ld, 0.0, p.G, m));
    /* Gs, W and S are adjacent */
    QRU_TRY(o->laset(ctx, g->dt, 'A', m + k + 1, k, 0.0, 0.0, p.Gs,
                     m + k + 1));
    return o->laset(ctx, g->dt, 'A', 1, 1, 0.0, 0.0,
                    qru_ptr_add(p.out, (size_t)m + 1), 1);
}

void qru_gram_free(qru_gram_set *g)
{
    if (g->dev.h)
        g->ctx->ops->mem_free(g->ctx, g->dev.h);
    g->dev.h = NULL;
}

int qru_gram_claim(qru_gram_set *g, int *slot)
{
    int q = 0;
    while (g->sused[q])
        ++q;
    g->sused[q] = 1;
    g->slot[g->gk++] = q;
    g->last = q;
    if (q + 1 > g->hw)
        g->hw = q + 1;
    *slot = q;
    if (g->flagged) {
        gram_ptrs p = qru_gram_ptrs_of(g);
        QRU_TRY(g->ctx->ops->laset(g->ctx, g->dt, 'A', 1, 1, 0.0, 0.0,
                                   qru_ptr_add(p.out, (size_t)g->m + 1), 1));
        g->flagged = 0;
    }
    return 0;
}

int qru_gram_add(qru_gram_set *g, int t)
{
    qru_context *ctx = g->ctx;
    int q;
    QRU_TRY(qru_gram_claim(g, &q));
    gram_ptrs p = qru_gram_ptrs_of(g);
    return ctx->ops->gram_border(ctx, g->dt, g->m, g->kmax, g->hw, t, q, p.G,
                                 p.Gs, p.W, p.V, p.T, p.out);
}

int qru_gram_remove(qru_gram_set *g, int i)
{
    qru_context *ctx = g->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = g->dt;
    int k = g->kmax, hw = g->hw, q = g->slot[i];
    gram_ptrs p = qru_gram_ptrs_of(g);
    qru_ptr Wq = qru_ptr_add(p.W, (size_t)q * k);
    for (int r = i; r + 1 < g->gk; ++r)
        g->slot[r] = g->slot[r + 1];
    --g->gk;
    g->sused[q] = 0;
    if (q == g->last) {
        g->last = -1;
        if (g->flagged) {
            QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, 0.0, 0.0,
                             qru_ptr_add(p.out, (size_t)g->m + 1), 1));
            g->flagged = 0;
        }
        return o->laset(ctx, dt, 'A', hw, 1, 0.0, 0.0, Wq, k);
    }
    g->last = -1;
    QRU_TRY(o->copy(ctx, dt, 1, hw, qru_ptr_add(p.W, (size_t)q), k, p.H, 1));
    QRU_TRY(o->download(ctx, dt, hw, 1, p.H, hw, g->hbuf, hw));
    double nrm = 0.0, sc = 0.0;
    for (int c = 0; c < hw; ++c)
        sc = fmax(sc, fabs(gram_hget(g, c)));
    if (sc > 0.0) {
        for (int c = 0; c < hw; ++c) {
            double v = gram_hget(g, c) / sc;
            nrm += v * v;
        }
        nrm = sc * sqrt(nrm);
        double wq = gram_hget(g, q), sigma = copysign(nrm, wq),
               hq = wq + sigma;
        /* H = I - h h' / (sigma hq), h = r + sigma e_q */
        QRU_TRY(o->laset(ctx, dt, 'A', 1, 1, hq, hq,
                         qru_ptr_add(p.H, (size_t)q), 1));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', hw, 1, hw, 1.0, p.W, k, p.H, hw,
                        0.0, p.T, hw));
        QRU_TRY(o->gemm(ctx, dt, 'N', 'N', hw, hw, 1, -1.0 / (sigma * hq),
                        p.T, hw, p.H, 1, 1.0, p.W, k));
    }
    QRU_TRY(o->laset(ctx, dt, 'A', 1, hw, 0.0, 0.0,
                     qru_ptr_add(p.W, (size_t)q), k));
    return o->laset(ctx, dt, 'A', hw, 1, 0.0, 0.0, Wq, k);
}

int qru_gram_rhs(qru_gram_set *g, const double *rhs, int *qs, double *sv)
{
    gram_ptrs p = qru_gram_ptrs_of(g);
    int ql = -1; /* the last changed slot: set by the solve itself */
    for (int i = 0; i < g->gk; ++i) {
        int q = g->slot[i];
        if (g->smir[q] != rhs[i]) {
            if (ql >= 0)
                QRU_TRY(g->ctx->ops->laset(g->ctx, g->dt, 'A', 1, 1,
                                           g->smir[ql], g->smir[ql],
                                           qru_ptr_add(p.S, (size_t)ql), 1));
            g->smir[q] = rhs[i];
            ql = q;
        }
    }
    *qs = ql;
    *sv = ql >= 0 ? g->smir[ql] : 0.0;
    return 0;
}

int qru_gram_solve(qru_gram_set *g, const double *rhs, double *corr,
                   double *d, double *z)
{
    qru_context *ctx = g->ctx;
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = g->dt;
    int m = g->m, k = g->kmax, hw = g->hw;
    gram_ptrs p = qru_gram_ptrs_of(g);
    int qs;
    double sv;
    QRU_TRY(qru_gram_rhs(g, rhs, &qs, &sv));
    QRU_TRY(o->gram_solve(ctx, dt, m, k, hw, p.Gs, p.W, p.S, qs, sv, p.V,
                          p.out));
    QRU_TRY(o->download(ctx, dt, m + 2 + hw, 1, p.out, m + 2 + hw, g->hbuf,
                        m + 2 + hw));
    for (int j = 0; j < m; ++j)
        corr[j] = gram_hget(g, j);
    g->flagged = gram_hget(g, m + 1) != 0.0;
    *d = g->flagged ? 0.0 : fabs(gram_hget(g, m));
    for (int i = 0; i < g->gk; ++i)
        z[i] = gram_hget(g, m + 2 + g->slot[i]);
    return 0;
}

void qru_gram_fill(qru_gram_set *g, int k)
{
    for (int i = 0; i < k; ++i) {
        g->slot[i] = i;
        g->sused[i] = 1;
    }
    g->gk = g->hw = k;
}

/* ---- the choice of a solver's form by its dry-run plans ---- */

int qru_gram_part_begin(qru_context *ctx, const qru_gram_part *p,
                        const qru_matrix *A, const qru_matrix *b, int kmax,
                        qru_ptr *dev, void *hbuf, double *scratch,
                        qru_gram_set *g, qru_lsq **f, double *t0)
{
    int k = p->k < 0 ? 0 : p->k;
    g->ctx = ctx;
    g->dev.h = NULL;
    qru_gram_reset(g);
    *f = NULL;
    *t0 = 0.0;
    QRU_TRY(qru_solver_start(ctx, A, b, p->delems, dev, hbuf, scratch));
    if (p->gram)
        QRU_TRY(qru_gram_start(g, A));
    if (k > 0) {
        if (p->gram) {
            qru_gram_fill(g, k);
        } else {
            qru_matrix Ak = *A;
            Ak.cols = k;
            Ak.owned = 0;
            qru_lsq_options opt;
            qru_lsq_options_init(&opt);
            opt.q = QRU_Q_THIN;
            opt.col_capacity = kmax;
            QRU_TRY(qru_lsq_create(ctx, &Ak, b, &opt, f));
            QRU_TRY(qru_lsq_set_update_algorithm(*f, QRU_UPDATE_FAST));
        }
        *t0 = qru_plan_seconds(ctx->plan);
    }
    return 0;
}

int qru_gram_part_end(qru_context *ctx, const qru_gram_part *p, int st,
                      double t0, qru_ptr dev, qru_gram_set *g, qru_lsq *f)
{
    *p->sec = qru_plan_seconds(ctx->plan) - t0;
    qru_lsq_destroy(f);
    if (dev.h)
        ctx->ops->mem_free(ctx, dev.h);
    qru_gram_free(g);
    return st < 0 ? st : 0;
}

/* The predicted seconds of a solve of steps steps in the form p->gram:
 * its start and steps - 1 steps priced at the middle one. */
static int gram_form_seconds(qru_context *ctx, qru_dtype dt, qru_plan_fn fn,
                             qru_gram_part *p, int steps, double *sec)
{
    double t0 = 0.0, ts = 0.0;
    qru_plan pl;
    p->k = -1;
    p->sec = &t0;
    QRU_TRY(qru_plan_run(ctx, NULL, dt, fn, p, &pl));
    if (steps > 1) {
        p->k = steps / 2;
        p->sec = &ts;
        QRU_TRY(qru_plan_run(ctx, NULL, dt, fn, p, &pl));
    }
    *sec = t0 + (double)(steps - 1) * ts;
    return 0;
}

int qru_gram_choose(qru_context *ctx, qru_dtype dt, int knob, int m,
                    int kmax, int steps, double amax, qru_plan_fn fn,
                    qru_gram_part *p, int *gram)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    double mib = (double)qru_gram_elems(m, kmax) *
                 (double)qru_dtype_size(dt) / 1048576.0;
    *gram = knob == 2;
    if (knob == 0 && dt == QRU_DOUBLE && steps > 0 &&
        mib <= (double)t->omp_gram_mib && amax < 1e150) {
        double tr, tg;
        p->gram = 0;
        QRU_TRY(gram_form_seconds(ctx, dt, fn, p, steps, &tr));
        p->gram = 1;
        QRU_TRY(gram_form_seconds(ctx, dt, fn, p, steps, &tg));
        *gram = tg < tr;
    }
    return 0;
}
