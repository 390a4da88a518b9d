/* Column updates of the batched least squares (qru_lsq_batch_remove_cols
 * in both forms, qru_lsq_batch_add_cols in the thin form): after every
 * update each problem against LAPACKE on the host copy of its new A (its
 * R against dgeqrf's up to the signs of the rows, scaled by the
 * condition; ||A1 - Q1 R1||, ||I - Q1'Q1||; R1'd1 = A1'b; E1 = b - Q1 d1;
 * the solution and the residual norms against dgels), in both precisions;
 * k at 0, in the middle and at the end, p = 1 and more, work-groups of
 * rows and of columns across their sizes, chains of removals and
 * insertions, problems of different row counts (a refused row removal);
 * a refused insertion (a new column in the span, non-finite V) leaves
 * the batch bit for bit; every argument check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

#define THR QRU_TEST_THRESHOLD

/* ---- the host copy of a batch: count pages of A (nmax x m) and b
 * (nmax x r), ld nmax, problem i using its first n[i] rows; every value
 * representable in the batch's type ------------------------------------- */

typedef struct hbatch {
    qru_dtype dt;
    int count, nmax, m, r;
    int *n;
    double *A, *b;
} hbatch;

static double hval(qru_dtype dt, unsigned *seed)
{
    double v = qru_test_urand(seed);
    return dt == QRU_FLOAT ? (double)(float)v : v;
}

static double *hA(const hbatch *h, int i)
{
    return h->A + (size_t)i * h->nmax * h->m;
}

static double *hb(const hbatch *h, int i)
{
    return h->b + (size_t)i * h->nmax * h->r;
}

static hbatch hbatch_new(qru_dtype dt, int count, int n, int m, int r,
                         unsigned *seed)
{
    hbatch h = {dt, count, n, m, r, malloc(sizeof(int) * (count + 1)),
                malloc(sizeof(double) * ((size_t)count * n * m + 1)),
                malloc(sizeof(double) * ((size_t)count * n * r + 1))};
    for (int i = 0; i < count; ++i)
        h.n[i] = n;
    for (size_t e = 0; e < (size_t)count * n * m; ++e)
        h.A[e] = hval(dt, seed);
    for (size_t e = 0; e < (size_t)count * n * r; ++e)
        h.b[e] = hval(dt, seed);
    return h;
}

static void hbatch_free(hbatch *h)
{
    free(h->n);
    free(h->A);
    free(h->b);
}

/* The columns k .. k+p-1 of every page of A removed (V NULL) or the p
 * columns of V (count pages nmax x p) inserted after column k. */
static void hbatch_cols(hbatch *h, int k, int p, const double *V)
{
    int m1 = V ? h->m + p : h->m - p;
    double *A1 = malloc(sizeof(double) * ((size_t)h->count * h->nmax * m1));
    for (int i = 0; i < h->count; ++i)
        for (int j = 0; j < m1; ++j)
            for (int t = 0; t < h->nmax; ++t) {
                int src = j < k ? j : V ? j - p : j + p;
                double v = V && j >= k && j < k + p
                               ? V[t + (size_t)(i * p + j - k) * h->nmax]
                               : hA(h, i)[t + (size_t)src * h->nmax];
                A1[t + ((size_t)i * m1 + j) * h->nmax] = v;
            }
    free(h->A);
    h->A = A1;
    h->m = m1;
}

/* The rows k .. k+p-1 of problem i removed (its later rows move up). */
static void hbatch_drop_rows(hbatch *h, int i, int k, int p)
{
    for (int c = 0; c < h->m + h->r; ++c) {
        double *x = c < h->m ? hA(h, i) + (size_t)c * h->nmax
                             : hb(h, i) + (size_t)(c - h->m) * h->nmax;
        for (int t = k; t + p < h->n[i]; ++t)
            x[t] = x[t + p];
    }
    h->n[i] -= p;
}

/* p new rows (U: count pages p x m, F: p x r) after every problem's own
 * rows; the pages grow by p rows. */
static void hbatch_add_rows(hbatch *h, int p, const double *U,
                            const double *F)
{
    int n1 = h->nmax + p;
    double *A1 = calloc((size_t)h->count * n1 * h->m + 1, sizeof(double));
    double *b1 = calloc((size_t)h->count * n1 * h->r + 1, sizeof(double));
    for (int i = 0; i < h->count; ++i)
        for (int c = 0; c < h->m + h->r; ++c) {
            int cm = c < h->m, j = cm ? c : c - h->m, w = cm ? h->m : h->r;
            const double *x = (cm ? hA(h, i) : hb(h, i)) + (size_t)j * h->nmax;
            const double *y = (cm ? U : F) + (size_t)(i * w + j) * p;
            double *z = (cm ? A1 : b1) + ((size_t)i * w + j) * n1;
            memcpy(z, x, sizeof(double) * h->n[i]);
            memcpy(z + h->n[i], y, sizeof(double) * p);
        }
    free(h->A);
    free(h->b);
    h->A = A1;
    h->b = b1;
    h->nmax = n1;
    for (int i = 0; i < h->count; ++i)
        h->n[i] += p;
}

/* count pages rows x cols (ld rows) of host doubles as a batch of type
 * dt in one device array (*flat). */
static qru_matrix *upload_pages(qru_dtype dt, int rows, int cols, int count,
                                const double *H, qru_matrix **flat)
{
    int ld = rows > 1 ? rows : 1, tc = cols * count > 0 ? cols * count : 1;
    void *t = qru_test_from_double(dt, rows, cols * count, ld, H, ld, 'A',
                                   0.0, 0.0);
    *flat = qru_test_upload(ctx, dt, ld, tc, ld, t, ld);
    free(t);
    qru_matrix *B = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, rows, cols,
                                           qru_matrix_data(*flat), ld, count,
                                           (long long)ld * cols, &B),
                     0);
    return B;
}

/* ---- every stored number of a batch, for the checks and for
 * bit-for-bit comparisons ------------------------------------------------ */

typedef struct snap {
    int m, thin, count, r, nmax;
    int *nr;
    void *R, *d, *Q, *E; /* count pages, ld the pages' rows */
    double *rho;
    size_t bytes[4];
} snap;

/* The pages rows x cols of get() as host bytes (rows a problem does not
 * hold: zeros). */
static void *get_pages(qru_lsq_batch *fb, qru_dtype dt, int rows, int cols,
                       int (*get)(const qru_lsq_batch *, qru_matrix *),
                       size_t *bytes)
{
    int cnt = qru_lsq_batch_count(fb), ld = rows > 1 ? rows : 1;
    qru_matrix *M = NULL;
    ck_assert_int_eq(
        qru_matrix_create_batch(ctx, dt, rows, cols, ld, cnt, 0, &M), 0);
    *bytes = qru_test_elsize(dt) * (size_t)ld * cols * cnt;
    void *h = calloc(1, *bytes + 8);
    if (cnt > 0) {
        ck_assert_int_eq(qru_matrix_upload(M, h, ld), 0);
        ck_assert_int_eq(get(fb, M), 0);
        ck_assert_int_eq(qru_matrix_download(M, h, ld), 0);
    }
    qru_matrix_destroy(M);
    return h;
}

static snap get_snap(qru_lsq_batch *fb, qru_dtype dt)
{
    snap s = {qru_lsq_batch_cols(fb), qru_lsq_batch_q_form(fb) == QRU_Q_THIN,
              qru_lsq_batch_count(fb), qru_lsq_batch_nrhs(fb), 0, NULL, NULL,
              NULL, NULL, NULL, NULL, {0, 0, 0, 0}};
    s.nr = malloc(sizeof(int) * (s.count + 1));
    for (int i = 0; i < s.count; ++i) {
        s.nr[i] = qru_lsq_batch_rows(fb, i);
        s.nmax = s.nr[i] > s.nmax ? s.nr[i] : s.nmax;
    }
    s.R = get_pages(fb, dt, s.m, s.m, qru_lsq_batch_get_r, &s.bytes[0]);
    s.d = get_pages(fb, dt, s.m, s.r, qru_lsq_batch_get_d, &s.bytes[1]);
    if (s.thin) {
        s.Q = get_pages(fb, dt, s.nmax, s.m, qru_lsq_batch_get_q,
                        &s.bytes[2]);
        s.E = get_pages(fb, dt, s.nmax, s.r, qru_lsq_batch_get_residuals,
                        &s.bytes[3]);
    }
    s.rho = malloc(sizeof(double) * ((size_t)s.count * s.r + 1));
    ck_assert_int_eq(qru_lsq_batch_residual_norms(fb, s.rho), 0);
    return s;
}

static int same_snap(const snap *a, const snap *b)
{
    if (a->m != b->m || a->count != b->count || a->nmax != b->nmax ||
        memcmp(a->nr, b->nr, sizeof(int) * a->count) ||
        memcmp(a->rho, b->rho, sizeof(double) * a->count * a->r))
        return 0;
    void *const pa[4] = {a->R, a->d, a->Q, a->E};
    void *const pb[4] = {b->R, b->d, b->Q, b->E};
    for (int t = 0; t < 4; ++t)
        if (a->bytes[t] != b->bytes[t] ||
            (a->bytes[t] && memcmp(pa[t], pb[t], a->bytes[t])))
            return 0;
    return 1;
}

static void free_snap(snap *s)
{
    free(s->nr);
    free(s->R);
    free(s->d);
    free(s->Q);
    free(s->E);
    free(s->rho);
}

/* ---- the checks of one problem ------------------------------------------ */

/* || |R| - |Rref| ||_F / (||A||_F max(n, m) eps cond(A)), Rref from
 * dgeqrf of A (n x m, ld lda, doubles); Rp the typed R (ld m). */
static double r_error(qru_dtype dt, int n, int m, const double *A, int lda,
                      const void *At, const void *Rp)
{
    double *W = malloc(sizeof(double) * (size_t)n * m), *tau =
                                                          malloc(sizeof(double) * m);
    for (int j = 0; j < m; ++j)
        memcpy(W + (size_t)j * n, A + (size_t)j * lda, sizeof(double) * n);
    ck_assert_int_eq(LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, W, n, tau), 0);
    double e2 = 0, a2 = 0;
    for (int j = 0; j < m; ++j) {
        for (int i = 0; i <= j; ++i) {
            double d = fabs(qru_test_get(dt, Rp, m, i, j)) -
                       fabs(W[i + (size_t)j * n]);
            e2 += d * d;
        }
        for (int i = 0; i < n; ++i)
            a2 += A[i + (size_t)j * lda] * A[i + (size_t)j * lda];
    }
    free(W);
    free(tau);
    double cond = qru_test_cond2(dt, n, m, At, n, NULL);
    return sqrt(e2) / (sqrt(a2) * (n > m ? n : m) * qru_test_eps(dt) * cond);
}

/* Every problem of fb (its stored numbers, its solution and residual
 * norms) against the host copy h. */
static void check_batch(const hbatch *h, qru_lsq_batch *fb, const char *tag)
{
    qru_dtype dt = h->dt;
    int cnt = h->count, m = h->m, r = h->r;
    size_t es = qru_test_elsize(dt);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), m);
    snap s = get_snap(fb, dt);
    qru_matrix *X = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, m, cnt, 0, &X),
                     0);
    int *info = malloc(sizeof(int) * (cnt + 1));
    ck_assert_int_eq(qru_lsq_batch_solve(fb, X, info), 0);
    size_t xb = es * (size_t)m * r * cnt;
    void *Xh = malloc(xb + 8);
    ck_assert_int_eq(qru_matrix_download(X, Xh, m), 0);
    for (int i = 0; i < cnt; ++i) {
        int n = h->n[i];
        ck_assert_int_eq(s.nr[i], n);
        ck_assert_int_eq(info[i], 0);
        const double *A = hA(h, i), *b = hb(h, i);
        void *At = qru_test_from_double(dt, n, m, n, A, h->nmax, 'A', 0, 0);
        void *bt = qru_test_from_double(dt, n, r, n, b, h->nmax, 'A', 0, 0);
        const void *Rp = (const char *)s.R + i * es * m * m;
        const void *dp = (const char *)s.d + i * es * m * r;
        ck_assert_msg(qru_test_lower_max(dt, m, m, Rp, m) == 0.0,
                      "%s problem %d: R not triangular", tag, i);
        double re = r_error(dt, n, m, A, h->nmax, At, Rp);
        /* R1'd1 = A1'b, scaled by ||A1|| ||b|| max(n, m) eps */
        double a2 = 0, b2 = 0, ne2 = 0;
        for (int j = 0; j < m; ++j)
            for (int t = 0; t < n; ++t)
                a2 += A[t + (size_t)j * h->nmax] * A[t + (size_t)j * h->nmax];
        for (int q = 0; q < r; ++q) {
            for (int t = 0; t < n; ++t)
                b2 += b[t + (size_t)q * h->nmax] * b[t + (size_t)q * h->nmax];
            for (int j = 0; j < m; ++j) {
                double v = 0;
                for (int t = 0; t < n; ++t)
                    v += A[t + (size_t)j * h->nmax] *
                         b[t + (size_t)q * h->nmax];
                for (int t = 0; t <= j; ++t)
                    v -= qru_test_get(dt, Rp, m, t, j) *
                         qru_test_get(dt, dp, m, t, q);
                ne2 += v * v;
            }
        }
        double big = (n > m ? n : m) * qru_test_eps(dt);
        double ne = sqrt(ne2) / (sqrt(a2) * sqrt(b2) * big);
        ck_assert_msg(re < THR && ne < THR,
                      "%s problem %d (n %d m %d): |R| error %g, R'd error %g",
                      tag, i, n, m, re, ne);
        if (s.thin) {
            int ldq = s.nmax;
            const void *Qp = (const char *)s.Q + i * es * ldq * m;
            const void *Ep = (const char *)s.E + i * es * ldq * r;
            double be = qru_test_backward_error_econ(dt, n, m, At, n, Qp, ldq,
                                                     Rp, m);
            double oe = qru_test_orth_error_cols(dt, n, m, Qp, ldq);
            /* d1 = Q1'b and E1 = b - Q1 d1, scaled by ||b|| n eps */
            double de2 = 0, ee2 = 0;
            for (int q = 0; q < r; ++q) {
                for (int j = 0; j < m; ++j) {
                    double v = -qru_test_get(dt, dp, m, j, q);
                    for (int t = 0; t < n; ++t)
                        v += qru_test_get(dt, Qp, ldq, t, j) *
                             b[t + (size_t)q * h->nmax];
                    de2 += v * v;
                }
                for (int t = 0; t < n; ++t) {
                    double v = b[t + (size_t)q * h->nmax] -
                               qru_test_get(dt, Ep, ldq, t, q);
                    for (int j = 0; j < m; ++j)
                        v -= qru_test_get(dt, Qp, ldq, t, j) *
                             qru_test_get(dt, dp, m, j, q);
                    ee2 += v * v;
                }
            }
            double sc = sqrt(b2) * big;
            ck_assert_msg(be < THR && oe < THR && sqrt(de2) < THR * sc &&
                              sqrt(ee2) < THR * sc,
                          "%s problem %d (n %d m %d): ||A1 - Q1 R1|| %g, "
                          "||I - Q1'Q1|| %g, d error %g, E error %g",
                          tag, i, n, m, be, oe, sqrt(de2) / sc,
                          sqrt(ee2) / sc);
        }
        double xe, rre;
        qru_test_lsq_errors(dt, n, m, r, At, n, bt, n,
                            (char *)Xh + i * es * m * r, m,
                            s.rho + (size_t)i * r, &xe, &rre);
        ck_assert_msg(xe < THR && rre < THR,
                      "%s problem %d (n %d m %d): x error %g, residual "
                      "error %g",
                      tag, i, n, m, xe, rre);
        free(At);
        free(bt);
    }
    free(Xh);
    free(info);
    qru_matrix_destroy(X);
    free_snap(&s);
}

/* ---- one case: a batch created, then a chain of column updates -------- */

typedef struct step {
    int add; /* 1: insert p columns after k; 0: remove k+1 .. k+p; 2: add
              * p rows (qru_lsq_batch_add_rows) */
    int k, p;
} step;

typedef struct ccase {
    qru_dtype dt;
    int thin, count, n, m, r;
    int rmrows; /* thin: > 0: that many rows removed first (problem 1
                 * refuses: its row counts then differ) */
    int nsteps;
    step steps[4];
} ccase;

/* A new batch of the host copy h in form thin (1) or Q-less. */
static qru_lsq_batch *make_batch(const hbatch *h, int thin)
{
    qru_matrix *Af, *bf;
    qru_matrix *A = upload_pages(h->dt, h->nmax, h->m, h->count, h->A, &Af);
    qru_matrix *b = upload_pages(h->dt, h->nmax, h->r, h->count, h->b, &bf);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = thin ? QRU_Q_THIN : QRU_Q_NONE;
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, b, &opt, &fb), 0);
    qru_matrix *ms[] = {A, Af, b, bf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    return fb;
}

/* Random V (count pages nmax x p) for h; in problem 'dep' (if < count)
 * column 0 of V = column 0 of A plus 2 column 1 of A (in the span). */
static double *new_v(const hbatch *h, int p, int dep, unsigned *seed)
{
    double *V = malloc(sizeof(double) * ((size_t)h->count * h->nmax * p));
    for (size_t e = 0; e < (size_t)h->count * h->nmax * p; ++e)
        V[e] = hval(h->dt, seed);
    if (dep < h->count)
        for (int t = 0; t < h->nmax; ++t) {
            const double *A = hA(h, dep);
            V[t + (size_t)dep * p * h->nmax] =
                A[t] + (h->m > 1 ? 2 * A[t + h->nmax] : 0.0);
        }
    return V;
}

/* add_cols of V (host pages nmax x p) into fb: its status and info */
static int add_v(const hbatch *h, qru_lsq_batch *fb, int k, int p,
                 const double *V, int *info)
{
    qru_matrix *Vf, *Vb = upload_pages(h->dt, h->nmax, p, h->count, V, &Vf);
    int st = qru_lsq_batch_add_cols(fb, k, Vb, info);
    qru_matrix_destroy(Vb);
    qru_matrix_destroy(Vf);
    return st;
}

static void run_case(const ccase *c, unsigned *seed)
{
    hbatch h = hbatch_new(c->dt, c->count, c->n, c->m, c->r, seed);
    char tag[96];
    if (c->rmrows > 0 && c->count > 1) /* problem 1: column 0 lives in the
                                        * removed rows alone */
        for (int t = c->rmrows; t < c->n; ++t)
            hA(&h, 1)[t] = 0.0;
    qru_lsq_batch *fb = make_batch(&h, c->thin);
    if (c->rmrows > 0) {
        int *info = malloc(sizeof(int) * (c->count + 1));
        int st = qru_lsq_batch_remove_rows(fb, 0, c->rmrows, info);
        ck_assert_int_eq(st, c->count > 1 ? 1 : 0);
        for (int i = 0; i < c->count; ++i) {
            ck_assert_int_eq(info[i] != 0, i == 1);
            if (i != 1)
                hbatch_drop_rows(&h, i, 0, c->rmrows);
        }
        free(info);
    }
    for (int s = 0; s < c->nsteps; ++s) {
        const step *t = &c->steps[s];
        static const char *const what[3] = {"remove", "add", "add rows"};
        snprintf(tag, sizeof(tag), "%s %s %s (k %d p %d) of count %d m %d",
                 c->dt == QRU_DOUBLE ? "double" : "float",
                 c->thin ? "thin" : "Q-less", what[t->add], t->k, t->p,
                 c->count, h.m);
        if (t->add == 2) {
            int w = h.m + h.r;
            double *U = malloc(sizeof(double) * ((size_t)c->count * t->p * w));
            for (size_t e = 0; e < (size_t)c->count * t->p * w; ++e)
                U[e] = hval(c->dt, seed);
            double *F = U + (size_t)c->count * t->p * h.m;
            qru_matrix *Uf, *Ff;
            qru_matrix *Ub = upload_pages(c->dt, t->p, h.m, c->count, U, &Uf);
            qru_matrix *Fb = upload_pages(c->dt, t->p, h.r, c->count, F, &Ff);
            ck_assert_int_eq(qru_lsq_batch_add_rows(fb, Ub, Fb), 0);
            hbatch_add_rows(&h, t->p, U, F);
            qru_matrix *ms[] = {Ub, Uf, Fb, Ff};
            for (int u = 0; u < 4; ++u)
                qru_matrix_destroy(ms[u]);
            free(U);
        } else if (t->add) {
            double *V = new_v(&h, t->p, 1 << 30, seed);
            int *info = malloc(sizeof(int) * (c->count + 1));
            for (int i = 0; i < c->count; ++i)
                info[i] = -7;
            ck_assert_int_eq(add_v(&h, fb, t->k, t->p, V, info), 0);
            for (int i = 0; i < c->count; ++i)
                ck_assert_int_eq(info[i], 0);
            hbatch_cols(&h, t->k, t->p, V);
            free(V);
            free(info);
        } else {
            ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, t->k, t->p), 0);
            hbatch_cols(&h, t->k, t->p, NULL);
        }
        check_batch(&h, fb, tag);
    }
    qru_lsq_batch_destroy(fb);
    hbatch_free(&h);
}

/* Removals in both forms and insertions in the thin form: k at 0, in
 * the middle and at the end, p = 1 and more; rows around the
 * work-groups (32 .. 256 items), [R d] columns past 32 and 64. */
START_TEST(test_cols_grid)
{
    unsigned seed = 2024u + (unsigned)_i;
    static const int NS[4] = {31, 33, 70, 257};
    static const int MS[4] = {5, 12, 30, 40};
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int n = NS[_i], m = MS[_i];
        int ps[3] = {1, 3, m / 2};
        for (int a = 0; a < 3; ++a) {
            int p = ps[a];
            int ks[3] = {0, (m - p) / 2, m - p};
            for (int kk = 0; kk < 3; ++kk) {
                int k = ks[kk], r = 1 + (a + kk) % 2;
                /* a removal, then an insertion of the same width there */
                ccase rm = {dt, 0, 3, n, m, r, 0, 1, {{0, k, p}}};
                run_case(&rm, &seed);
                if (m + p <= n) {
                    ccase th = {dt, 1, 3, n, m, r, 0, 2,
                                {{0, k, p}, {1, k, p}}};
                    run_case(&th, &seed);
                    ccase ad = {dt, 1, 2, n, m, r, 0, 1,
                                {{1, m - k, p}}};
                    run_case(&ad, &seed);
                }
            }
        }
    }
}
END_TEST

/* Chains (the pages' layout kept by a removal, compacted by an
 * insertion; rows added in between), larger counts, problems of
 * different row counts, the insertion that fills A, one column. */
START_TEST(test_cols_cases)
{
    unsigned seed = 31u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        ccase cs[] = {
            {dt, 1, 4, 20, 5, 2, 0, 4,
             {{0, 1, 2}, {1, 0, 4}, {0, 6, 1}, {1, 6, 2}}},
            {dt, 0, 5, 20, 6, 2, 0, 3, {{0, 0, 1}, {0, 2, 2}, {0, 0, 2}}},
            {dt, 1, 200, 24, 8, 1, 0, 2, {{1, 4, 3}, {0, 2, 5}}},
            {dt, 0, 300, 15, 9, 2, 0, 1, {{0, 3, 4}}},
            {dt, 1, 5, 40, 10, 2, 4, 3, {{1, 3, 2}, {0, 0, 3}, {1, 9, 20}}},
            {dt, 1, 3, 12, 4, 1, 0, 1, {{1, 2, 8}}},
            {dt, 1, 3, 9, 1, 1, 0, 2, {{1, 0, 1}, {0, 1, 1}}},
            {dt, 0, 3, 9, 2, 1, 0, 1, {{0, 1, 1}}},
            {dt, 1, 2, 300, 70, 3, 0, 2, {{0, 10, 30}, {1, 35, 9}}},
            /* rows added to pages whose layout a removal kept */
            {dt, 0, 4, 12, 7, 2, 0, 3, {{0, 2, 3}, {2, 0, 3}, {0, 0, 1}}},
            {dt, 1, 4, 12, 7, 2, 3, 3, {{0, 2, 3}, {2, 0, 3}, {1, 4, 2}}},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k)
            run_case(&cs[k], &seed);
    }
}
END_TEST

/* A refused insertion: a new column in the span of a problem's A, or a
 * non-finite one (with the scan: -3 first): the status counts the
 * refusing problems, info names them, and no problem changes. */
START_TEST(test_cols_refused)
{
    unsigned seed = 8u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int cnt = 5, n = 40, m = 6, r = 2, p = 3;
        hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
        qru_lsq_batch *fb = make_batch(&h, 1);
        ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 1, 1), 0);
        hbatch_cols(&h, 1, 1, NULL);
        snap s0 = get_snap(fb, dt);
        int info[5];
        /* problem 3: V(:,0) = A(:,0) + 2 A(:,1) */
        double *V = new_v(&h, p, 3, &seed);
        for (int i = 0; i < cnt; ++i)
            info[i] = -7;
        ck_assert_int_eq(add_v(&h, fb, 2, p, V, info), 1);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 3);
        ck_assert_int_eq(info[3], 3); /* the new column 3 */
        snap s1 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s1));
        /* a zero column in problem 0 and a NaN in problem 4 */
        for (int u = 0; u < n; ++u) {
            V[u] = V[(size_t)3 * p * n + u] = 0.5;
            V[u + (size_t)n] = 0.0;
        }
        V[(size_t)4 * p * n + 2 * n + 5] = NAN;
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), -3);
        ck_assert_int_eq(info[0], 0);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), 2);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 0 || i == 4);
        ck_assert_int_eq(info[0], 2);
        snap s2 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s2));
        /* an infinite entry alone */
        V[(size_t)4 * p * n + 2 * n + 5] = INFINITY;
        V[(size_t)n] = 1.0;
        ck_assert_int_eq(add_v(&h, fb, h.m - 1, p, V, info), 1);
        ck_assert(info[4] > 0);
        snap s3 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s3));
        /* then the good columns go in */
        V[(size_t)4 * p * n + 2 * n + 5] = 0.25;
        ck_assert_int_eq(add_v(&h, fb, h.m - 1, p, V, info), 0);
        hbatch_cols(&h, h.m - 1, p, V);
        check_batch(&h, fb, "after the refusals");
        free(V);
        free_snap(&s0);
        free_snap(&s1);
        free_snap(&s2);
        free_snap(&s3);
        qru_lsq_batch_destroy(fb);
        hbatch_free(&h);
    }
}
END_TEST

/* Every argument check, in order, the batch bit for bit after each; the
 * Q-less form's refusal of an insertion after the checks; an empty
 * batch. */
START_TEST(test_cols_args)
{
    unsigned seed = 5u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    int cnt = 3, n = 9, m = 4, r = 2;
    hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
    qru_lsq_batch *fb = make_batch(&h, 1), *fq = make_batch(&h, 0);
    qru_matrix *Vc = NULL, *Vr = NULL, *Vw = NULL, *Vo = NULL, *V0 = NULL,
               *Vk = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, cnt + 1, 0,
                                             &Vc), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n - 1, 2, 0, cnt, 0,
                                             &Vr), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n - m + 1, 0, cnt,
                                             0, &Vw), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 0, 0, cnt, 0, &V0),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, cnt, 0, &Vk),
                     0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, 2, 0, cnt, 0,
                                                 &Vo), 0);
    snap s0 = get_snap(fb, dt), q0 = get_snap(fq, dt);
    /* remove_cols */
    ck_assert_int_eq(qru_lsq_batch_remove_cols(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, -1, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, m, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 0, 0), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 2, 3), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 0, m), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, m, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, 0, m), -3);
    /* add_cols */
    int info[3] = {-5, -5, -5};
    ck_assert_int_eq(qru_lsq_batch_add_cols(NULL, 0, Vk, info), -1);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, -1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, m + 1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, NULL, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vc, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vr, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vw, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, V0, info), -3);
    if (Vo)
        ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vo, info), -3);
    /* the Q-less form: the checks first, then QRU_ERR_NO_Q */
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, m + 1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, 0, Vw, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, 0, Vk, info), QRU_ERR_NO_Q);
    ck_assert_int_eq(info[0], -5);
    snap s1 = get_snap(fb, dt), q1 = get_snap(fq, dt);
    ck_assert(same_snap(&s0, &s1));
    ck_assert(same_snap(&q0, &q1));
    /* n - m columns fill A; the last column removed, the info NULL */
    qru_matrix *Vf, *Vb;
    double *V = new_v(&h, n - m, 1 << 30, &seed);
    Vb = upload_pages(dt, n, n - m, cnt, V, &Vf);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 1, Vb, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), n);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, n - 1, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), n - 1);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, 3, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fq), m - 1);
    /* an empty batch: the checks, the column counts */
    qru_matrix *A0 = NULL, *b0 = NULL, *W0 = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, 0, 0, &A0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r, 0, 0, 0, &b0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, 0, 0, &W0), 0);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    qru_lsq_batch *fe = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A0, b0, &opt, &fe), 0);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fe, 0, m), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fe, 0, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fe, 3, W0, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fe), m + 1);
    free(V);
    free_snap(&s0);
    free_snap(&s1);
    free_snap(&q0);
    free_snap(&q1);
    qru_matrix *ms[] = {Vc, Vr, Vw, Vo, V0, Vk, Vb, Vf, A0, b0, W0};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(fq);
    qru_lsq_batch_destroy(fe);
    hbatch_free(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch_cols");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_cols_grid, 0, 4);
    tcase_add_test(tc, test_cols_cases);
    tcase_add_test(tc, test_cols_refused);
    tcase_add_test(tc, test_cols_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
