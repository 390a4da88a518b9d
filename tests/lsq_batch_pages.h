/*
 * What the tests of the batched least squares' column updates and full-Q
 * form share (test_lsq_batch_cols.c, test_lsq_batch_full.c): the context
 * fixture, the host copy of a batch (count pages of A and b, each
 * problem its own row count) and its updates, batches uploaded from it,
 * the pages of a batch's getters, and the checks of one problem's R, d,
 * Q (its first nq columns) and E against LAPACKE.
 * Header-only (static functions) so that each test stays one source file.
 */
#ifndef QRU_LSQ_BATCH_PAGES_H
#define QRU_LSQ_BATCH_PAGES_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

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

/* The pages of h re-laid with nmax the most rows of a problem (as the
 * batch's n after a removal). */
static inline void hbatch_compact(hbatch *h)
{
    int n1 = 0;
    for (int i = 0; i < h->count; ++i)
        n1 = h->n[i] > n1 ? h->n[i] : n1;
    double *A1 = calloc((size_t)h->count * n1 * h->m + 1, sizeof(double));
    double *b1 = calloc((size_t)h->count * n1 * h->r + 1, sizeof(double));
    for (int i = 0; i < h->count; ++i)
        for (int c = 0; c < h->m + h->r; ++c) {
            int cm = c < h->m, j = cm ? c : c - h->m, w = cm ? h->m : h->r;
            const double *x = (cm ? hA(h, i) : hb(h, i)) + (size_t)j * h->nmax;
            memcpy((cm ? A1 : b1) + ((size_t)i * w + j) * n1, x,
                   sizeof(double) * h->n[i]);
        }
    free(h->A);
    free(h->b);
    h->A = A1;
    h->b = b1;
    h->nmax = n1;
}

/* p new rows (U: count pages p x m, F: p x r) after every problem's own
 * rows, problem i taking the first rows[i] of its pages (rows NULL: all
 * p); the pages grow by p rows. */
static void hbatch_add_rows(hbatch *h, int p, const double *U,
                            const double *F, const int *rows)
{
    int n1 = h->nmax + p;
    double *A1 = calloc((size_t)h->count * n1 * h->m + 1, sizeof(double));
    double *b1 = calloc((size_t)h->count * n1 * h->r + 1, sizeof(double));
    for (int i = 0; i < h->count; ++i) {
        int pi = rows ? rows[i] : p;
        for (int c = 0; c < h->m + h->r; ++c) {
            int cm = c < h->m, j = cm ? c : c - h->m, w = cm ? h->m : h->r;
            const double *x = (cm ? hA(h, i) : hb(h, i)) + (size_t)j * h->nmax;
            const double *y = (cm ? U : F) + (size_t)(i * w + j) * p;
            double *z = (cm ? A1 : b1) + ((size_t)i * w + j) * n1;
            memcpy(z, x, sizeof(double) * h->n[i]);
            memcpy(z + h->n[i], y, sizeof(double) * pi);
        }
    }
    free(h->A);
    free(h->b);
    h->A = A1;
    h->b = b1;
    h->nmax = n1;
    for (int i = 0; i < h->count; ++i)
        h->n[i] += rows ? rows[i] : p;
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

/* ---- every stored number of a batch, for the checks and for
 * bit-for-bit comparisons ------------------------------------------------ */

typedef struct snap {
    int m, q, count, r, nmax;
    int qc, dr; /* the columns of the Q pages (thin: m, full: nmax) and
                 * the rows of the d pages (full: nmax, else m) */
    int *nr;
    void *R, *d, *Q, *E; /* count pages, ld the pages' rows (Q and E:
                          * NULL in the Q-less form) */
    double *rho;
    size_t bytes[4];
} snap;

static snap get_snap(qru_lsq_batch *fb, qru_dtype dt)
{
    snap s = {qru_lsq_batch_cols(fb), qru_lsq_batch_q_form(fb),
              qru_lsq_batch_count(fb), qru_lsq_batch_nrhs(fb), 0, 0, 0,
              NULL, NULL, NULL, NULL, NULL, NULL, {0, 0, 0, 0}};
    s.nr = malloc(sizeof(int) * (s.count + 1));
    for (int i = 0; i < s.count; ++i) {
        s.nr[i] = qru_lsq_batch_rows(fb, i);
        s.nmax = s.nr[i] > s.nmax ? s.nr[i] : s.nmax;
    }
    s.qc = s.q == QRU_Q_FULL ? s.nmax : s.m;
    s.dr = s.q == QRU_Q_FULL ? s.nmax : s.m;
    s.R = get_pages(fb, dt, s.m, s.m, qru_lsq_batch_get_r, &s.bytes[0]);
    s.d = get_pages(fb, dt, s.dr, s.r, qru_lsq_batch_get_d, &s.bytes[1]);
    if (s.q != QRU_Q_NONE) {
        s.Q = get_pages(fb, dt, s.nmax, s.qc, qru_lsq_batch_get_q,
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

/* Problem i of h (n rows, At its typed A) against its stored R (ld m),
 * d (ld ldd, its first m rows d1) and, where Qp is not NULL, Q (ld ldq,
 * its first nq >= m columns: Q1 and, nq = n, the complement) and E (ld
 * ldq): R against dgeqrf's (scaled by the condition), R'd1 = A'b,
 * ||A - Q1 R||, ||I - Q'Q|| of the nq columns, d = Q'b (nq rows) and
 * E = b - Q1 d1. */
static void check_problem(const hbatch *h, int i, const void *At,
                          const void *Rp, const void *dp, int ldd,
                          const void *Qp, int ldq, int nq, const void *Ep,
                          const char *tag)
{
    qru_dtype dt = h->dt;
    int n = h->n[i], m = h->m, r = h->r;
    const double *A = hA(h, i), *b = hb(h, i);
    ck_assert_msg(qru_test_lower_max(dt, m, m, Rp, m) == 0.0,
                  "%s problem %d: R not triangular", tag, i);
    double re = r_error(dt, n, m, A, h->nmax, At, Rp);
    /* R'd1 = A'b, scaled by ||A|| ||b|| max(n, m) eps */
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
                v += A[t + (size_t)j * h->nmax] * b[t + (size_t)q * h->nmax];
            for (int t = 0; t <= j; ++t)
                v -= qru_test_get(dt, Rp, m, t, j) *
                     qru_test_get(dt, dp, ldd, t, q);
            ne2 += v * v;
        }
    }
    double big = (n > m ? n : m) * qru_test_eps(dt);
    double ne = sqrt(ne2) / (sqrt(a2) * sqrt(b2) * big);
    ck_assert_msg(re < THR && ne < THR,
                  "%s problem %d (n %d m %d): |R| error %g, R'd error %g",
                  tag, i, n, m, re, ne);
    if (!Qp)
        return;
    double be =
        qru_test_backward_error_econ(dt, n, m, At, n, Qp, ldq, Rp, m);
    double oe = qru_test_orth_error_cols(dt, n, nq, Qp, ldq);
    /* d = Q'b and E = b - Q1 d1, scaled by ||b|| n eps */
    double de2 = 0, ee2 = 0;
    for (int q = 0; q < r; ++q) {
        for (int j = 0; j < nq; ++j) {
            double v = -qru_test_get(dt, dp, ldd, j, q);
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
                     qru_test_get(dt, dp, ldd, j, q);
            ee2 += v * v;
        }
    }
    double sc = sqrt(b2) * big;
    ck_assert_msg(be < THR && oe < THR && sqrt(de2) < THR * sc &&
                      sqrt(ee2) < THR * sc,
                  "%s problem %d (n %d m %d): ||A - Q1 R|| %g, ||I - Q'Q|| "
                  "%g (%d columns), d error %g, E error %g",
                  tag, i, n, m, be, oe, nq, sqrt(de2) / sc, sqrt(ee2) / sc);
}

/* Every problem's solution (qru_lsq_batch_solve) and residual norms
 * (rho, count r) against dgels on its host copy. */
static void check_solutions(const hbatch *h, qru_lsq_batch *fb,
                            const double *rho, const char *tag)
{
    qru_dtype dt = h->dt;
    int cnt = h->count, m = h->m, r = h->r;
    size_t es = qru_test_elsize(dt);
    qru_matrix *X = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, m, cnt, 0, &X),
                     0);
    int *info = malloc(sizeof(int) * (cnt + 1));
    ck_assert_int_eq(qru_lsq_batch_solve(fb, X, info), 0);
    void *Xh = malloc(es * (size_t)m * r * cnt + 8);
    ck_assert_int_eq(qru_matrix_download(X, Xh, m), 0);
    for (int i = 0; i < cnt; ++i) {
        int n = h->n[i];
        ck_assert_int_eq(info[i], 0);
        void *At = qru_test_from_double(dt, n, m, n, hA(h, i), h->nmax, 'A',
                                        0, 0);
        void *bt = qru_test_from_double(dt, n, r, n, hb(h, i), h->nmax, 'A',
                                        0, 0);
        double xe, rre;
        qru_test_lsq_errors(dt, n, m, r, At, n, bt, n,
                            (char *)Xh + i * es * m * r, m,
                            rho + (size_t)i * r, &xe, &rre);
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
    for (int i = 0; i < cnt; ++i) {
        int n = h->n[i];
        ck_assert_int_eq(s.nr[i], n);
        void *At = qru_test_from_double(dt, n, m, n, hA(h, i), h->nmax, 'A',
                                        0, 0);
        const void *Rp = (const char *)s.R + i * es * m * m;
        const void *dp = (const char *)s.d + i * es * s.dr * r;
        const void *Qp = NULL, *Ep = NULL;
        if (s.Q) {
            Qp = (const char *)s.Q + i * es * s.nmax * s.qc;
            Ep = (const char *)s.E + i * es * s.nmax * r;
        }
        check_problem(h, i, At, Rp, dp, s.dr, Qp, s.nmax,
                      s.q == QRU_Q_FULL ? n : m, Ep, tag);
        free(At);
    }
    check_solutions(h, fb, s.rho, tag);
    free_snap(&s);
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

/* 1: add_v gives every form the current A and b
 * (qru_lsq_batch_add_cols_data); 0: the Q-less form alone. */
static int add_v_data = 0;

/* add_cols of V (host pages nmax x p) into fb: its status and info
 * (qru_lsq_batch_add_cols_data with h's A and b where the batch is
 * Q-less or add_v_data is set, else qru_lsq_batch_add_cols) */
static int add_v(const hbatch *h, qru_lsq_batch *fb, int k, int p,
                 const double *V, int *info)
{
    qru_matrix *Vf, *Vb = upload_pages(h->dt, h->nmax, p, h->count, V, &Vf);
    int st;
    if (add_v_data || qru_lsq_batch_q_form(fb) == QRU_Q_NONE) {
        qru_matrix *Af, *bf;
        qru_matrix *A = upload_pages(h->dt, h->nmax, h->m, h->count, h->A,
                                     &Af);
        qru_matrix *b = upload_pages(h->dt, h->nmax, h->r, h->count, h->b,
                                     &bf);
        st = qru_lsq_batch_add_cols_data(fb, k, Vb, A, b, info);
        qru_matrix *ms[] = {A, Af, b, bf};
        for (int t = 0; t < 4; ++t)
            qru_matrix_destroy(ms[t]);
    } else {
        st = qru_lsq_batch_add_cols(fb, k, Vb, info);
    }
    qru_matrix_destroy(Vb);
    qru_matrix_destroy(Vf);
    return st;
}

/* A new batch of the host copy h in the form q (a ::qru_lsq_q value). */
static qru_lsq_batch *make_batch(const hbatch *h, int q)
{
    qru_matrix *Af, *bf;
    qru_matrix *A = upload_pages(h->dt, h->nmax, h->m, h->count, h->A, &Af);
    qru_matrix *b = upload_pages(h->dt, h->nmax, h->r, h->count, h->b, &bf);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = q;
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, b, &opt, &fb), 0);
    ck_assert_int_eq(qru_lsq_batch_q_form(fb), q);
    qru_matrix *ms[] = {A, Af, b, bf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    return fb;
}

/* p random columns inserted after column k of every problem (add; the
 * Q-less form from h's A and b), or the columns k .. k+p-1 removed, in
 * fb and in h; every problem must pass. */
static inline void cols_step(hbatch *h, qru_lsq_batch *fb, int add, int k,
                             int p, unsigned *seed)
{
    if (!add) {
        ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, k, p), 0);
        hbatch_cols(h, k, p, NULL);
        return;
    }
    double *V = new_v(h, p, 1 << 30, seed);
    int *info = malloc(sizeof(int) * (h->count + 1));
    for (int i = 0; i < h->count; ++i)
        info[i] = -7;
    ck_assert_int_eq(add_v(h, fb, k, p, V, info), 0);
    for (int i = 0; i < h->count; ++i)
        ck_assert_int_eq(info[i], 0);
    hbatch_cols(h, k, p, V);
    free(V);
    free(info);
}

/* p random rows added to every problem (rows NULL) or rows[i] to
 * problem i (qru_lsq_batch_add_rows_ex), in fb and in h. */
static void rows_step(hbatch *h, qru_lsq_batch *fb, int p, const int *rows,
                      unsigned *seed)
{
    int w = h->m + h->r, cnt = h->count;
    double *U = malloc(sizeof(double) * ((size_t)cnt * p * w + 1));
    for (size_t e = 0; e < (size_t)cnt * p * w; ++e)
        U[e] = hval(h->dt, seed);
    double *F = U + (size_t)cnt * p * h->m;
    qru_matrix *Uf, *Ff;
    qru_matrix *Ub = upload_pages(h->dt, p, h->m, cnt, U, &Uf);
    qru_matrix *Fb = upload_pages(h->dt, p, h->r, cnt, F, &Ff);
    ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, Ub, Fb, rows), 0);
    hbatch_add_rows(h, p, U, F, rows);
    qru_matrix *ms[] = {Ub, Uf, Fb, Ff};
    for (int u = 0; u < 4; ++u)
        qru_matrix_destroy(ms[u]);
    free(U);
}

#endif /* QRU_LSQ_BATCH_PAGES_H */
