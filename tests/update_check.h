/*
 * Helpers shared by the QR-update tests (test_update_*.c): a host copy of
 * the least-squares problem (A, b kept in double, holding values exactly
 * representable in the element type under test; for a complex type as
 * interleaved (re, im) doubles, uc_w(dt) = 2 doubles an element) that is
 * updated the same way as the factorisation, and the checks of a
 * factorisation against it (in double complex arithmetic, ' the conjugate
 * transpose, which is the real checks' arithmetic for real data).
 * Header-only (static functions) so that each test stays one source file.
 */
#ifndef QRU_UPDATE_CHECK_H
#define QRU_UPDATE_CHECK_H

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_internal.h"
#include "qru_test.h"

/* The update algorithm that uc_factor() selects.  Each update test runs
 * its test cases once per algorithm (two TCases whose fixtures set this),
 * so that every algorithm is held to the same assertions. */
static qru_update_algorithm uc_alg = QRU_UPDATE_DISSERTATION;

static inline const char *uc_alg_name(void)
{
    return uc_alg == QRU_UPDATE_FAST   ? "fast"
           : uc_alg == QRU_UPDATE_AUTO ? "auto"
                                       : "dissertation";
}

/* A test's context and its Check fixtures, one per update algorithm
 * (uc_alg): uc_setup_<alg> creates uc_ctx, uc_teardown destroys it. */
static qru_context *uc_ctx;
static inline void uc_setup_alg(qru_update_algorithm alg)
{
    uc_ctx = qru_test_context();
    uc_alg = alg;
}
static inline void uc_setup_dissertation(void)
{
    uc_setup_alg(QRU_UPDATE_DISSERTATION);
}
static inline void uc_setup_fast(void) { uc_setup_alg(QRU_UPDATE_FAST); }
static inline void uc_setup_auto(void) { uc_setup_alg(QRU_UPDATE_AUTO); }
/* Sets tuning parameter param to value for every element type of ctx. */
static inline void uc_set_tuning(qru_context *ctx, qru_tuning_param param,
                                 int value)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i)
        ck_assert_int_eq(qru_context_set_tuning(ctx, qru_test_dtype(ctx, i),
                                                param, value),
                         0);
}
/* Forces the Householder tiles (QRU_TUNE_UPDATE_TILES = 2): adding
 * columns and removing rows take them wherever they apply, not where the
 * cost model prefers them. */
static inline void uc_force_tiles(qru_context *ctx)
{
    uc_set_tuning(ctx, QRU_TUNE_UPDATE_TILES, 2);
}
/* The one-column updates' Givens chains (the private knob
 * QRU_TUNE_UPDATE_GIVENS: 2 always, 1 never, 0 by the plans), for every
 * element type of ctx. */
static inline void uc_set_givens(qru_context *ctx, int mode)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i)
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, qru_test_dtype(ctx, i),
                                            QRU_TUNE_UPDATE_GIVENS, mode),
                         0);
}
/* The Q-less one-row addition by the structured rank-1 passes (the
 * private knob QRU_TUNE_UPDATE_R1: 2 always, 1 never, 0 by the plans),
 * for every element type of ctx. */
static inline void uc_set_r1(qru_context *ctx, int mode)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i)
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, qru_test_dtype(ctx, i),
                                            QRU_TUNE_UPDATE_R1, mode),
                         0);
}
/* QRU_TUNE_LOOKAHEAD (0 off, 1 on): the updates that run work on the
 * backend's second queue then do (on a backend without one, the same
 * steps in order). */
static inline void uc_set_lookahead(qru_context *ctx, int on)
{
    uc_set_tuning(ctx, QRU_TUNE_LOOKAHEAD, on);
}
static inline void uc_teardown(void)
{
    qru_context_destroy(uc_ctx);
    uc_ctx = NULL;
}

#undef I /* complex.h's imaginary unit */

/* doubles an element of dt takes in the host arrays: 2 for a complex
 * type (re, im) */
static inline int uc_w(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE ? 2 : 1;
}

/* element t (linear index) of a host array of width w, and its setter */
static inline double complex uc_el(const double *a, int w, size_t t)
{
    return w == 2 ? a[2 * t] + a[2 * t + 1] * _Complex_I : a[t];
}

/* The type of a test's loop index i: below UC_CPLX the real types as
 * qru_test_dtype (i % qru_test_ndtypes), from UC_CPLX on the complex
 * types ((i - UC_CPLX) % 2: complex float, complex double) with i :=
 * i - UC_CPLX, so that a test's real and complex runs share the rest of
 * the index; 0 where the context does not take that type (the test then
 * returns). */
enum { UC_CPLX = 1000 };
static inline qru_dtype uc_dtype(const qru_context *ctx, int *i)
{
    if (*i < UC_CPLX)
        return qru_test_dtype(ctx, *i % qru_test_ndtypes(ctx));
    *i -= UC_CPLX;
    qru_dtype dt = *i % 2 ? QRU_COMPLEX_DOUBLE : QRU_COMPLEX_FLOAT;
    return qru_context_supports(ctx, dt) ? dt : (qru_dtype)0;
}

/* The start of a test whose loop index _i takes uc_dtype's rule: i_ the
 * rest of the index, dt the type (the test returns where the context ctx
 * does not take it). */
#define UC_TEST_DTYPE(ctx, i_, dt)                                             \
    int i_ = _i;                                                               \
    qru_dtype dt = uc_dtype(ctx, &i_);                                         \
    if (!dt)                                                                   \
    return

/* uniform in [lo, hi] (a linear congruential generator on *s) */
static inline int uc_rnd(unsigned *s, int lo, int hi)
{
    *s = *s * 1664525u + 1013904223u;
    if (hi <= lo)
        return lo;
    return lo + (int)((*s >> 8) % (unsigned)(hi - lo + 1));
}

/* host problem: A n x m, B n x r, both ld = n */
typedef struct hprob {
    qru_dtype dt;
    int n, m, r;
    double *A, *B;
} hprob;

/* rows x cols array (ld = rows) of uniform(-1,1) values representable in dt */
static inline double *uc_rand(qru_dtype dt, int rows, int cols, unsigned *seed)
{
    int ld = rows > 0 ? rows : 1, w = uc_w(dt);
    void *h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, h, ld, seed);
    double *a = malloc(sizeof(double) * (size_t)w * ld * (cols > 0 ? cols : 1));
    ck_assert_ptr_nonnull(a);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            size_t t = i + (size_t)j * ld;
            if (w == 2)
                qru_test_get_c(dt, h, ld, i, j, &a[2 * t], &a[2 * t + 1]);
            else
                a[t] = qru_test_get(dt, h, ld, i, j);
        }
    free(h);
    return a;
}

/* converts a double array to a new dt array (ld = rows) */
static inline void *uc_to_dt(qru_dtype dt, int rows, int cols, const double *a,
                             int lda)
{
    if (uc_w(dt) == 1)
        return qru_test_from_double(dt, rows, cols, rows > 0 ? rows : 1, a,
                                    lda, 'A', 0.0, 0.0);
    int ld = rows > 0 ? rows : 1;
    void *h = qru_test_alloc(dt, ld, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            size_t t = i + (size_t)j * lda;
            qru_test_set_c(dt, h, ld, i, j, a[2 * t], a[2 * t + 1]);
        }
    return h;
}

static inline qru_matrix *uc_upload(qru_context *ctx, qru_dtype dt, int rows,
                             int cols, const double *a)
{
    void *h = uc_to_dt(dt, rows, cols, a, rows > 0 ? rows : 1);
    qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 0, h,
                                    rows > 0 ? rows : 1);
    free(h);
    return M;
}

static inline hprob uc_problem(qru_dtype dt, int n, int m, int r, unsigned *seed)
{
    hprob hp = {dt, n, m, r, NULL, NULL};
    hp.A = uc_rand(dt, n, m, seed);
    hp.B = uc_rand(dt, n, r, seed);
    return hp;
}

static inline void uc_free(hprob *hp)
{
    free(hp->A);
    free(hp->B);
    hp->A = hp->B = NULL;
}

/* factorisation of hp in form q (qru_lsq_q) with the rank option rank
 * (qru_lsq_rank); nb = update block size */
static inline qru_lsq *uc_factor_rank(qru_context *ctx, const hprob *hp,
                                      int q, int nb, int rank)
{
    qru_matrix *A = uc_upload(ctx, hp->dt, hp->n, hp->m, hp->A);
    qru_matrix *b = uc_upload(ctx, hp->dt, hp->n, hp->r, hp->B);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    ck_assert_int_eq(opt.rank, QRU_RANK_REFUSE); /* the default */
    opt.q = q;
    opt.rank = rank;
    qru_lsq *f = NULL;
    int st = qru_lsq_create(ctx, A, b, &opt, &f);
    ck_assert_msg(st == 0, "qru_lsq_create: %d", st);
    ck_assert_int_eq(qru_lsq_set_update_block_size(f, nb), 0);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), QRU_UPDATE_AUTO); /* default */
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, uc_alg), 0);
    ck_assert_int_eq(qru_lsq_update_algorithm(f), (int)uc_alg);
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
    return f;
}

/* factorisation of hp in form q (qru_lsq_q); nb = update block size */
static inline qru_lsq *uc_factor_q(qru_context *ctx, const hprob *hp, int q,
                                   int nb)
{
    return uc_factor_rank(ctx, hp, q, nb, QRU_RANK_REFUSE);
}

/* with Q (keep_q: the full form) or without (the Q-less form) */
static inline qru_lsq *uc_factor(qru_context *ctx, const hprob *hp, int keep_q,
                                 int nb)
{
    return uc_factor_q(ctx, hp, keep_q ? QRU_Q_FULL : QRU_Q_NONE, nb);
}

/* ---- the same updates on the host problem ---- */

/* columns: A1 = [A(:,1:k) U A(:,k+1:m)], U n x p (ld n) */
static inline void uc_add_cols(hprob *hp, int k, int p, const double *U)
{
    int m = hp->m;
    size_t n = (size_t)hp->n * uc_w(hp->dt); /* doubles a column */
    double *A1 = malloc(sizeof(double) * n * (m + p));
    ck_assert_ptr_nonnull(A1);
    memcpy(A1, hp->A, sizeof(double) * n * k);
    memcpy(A1 + n * k, U, sizeof(double) * n * p);
    memcpy(A1 + n * (k + p), hp->A + n * k, sizeof(double) * n * (m - k));
    free(hp->A);
    hp->A = A1;
    hp->m = m + p;
}

static inline void uc_remove_cols(hprob *hp, int k, int p)
{
    int m = hp->m;
    size_t n = (size_t)hp->n * uc_w(hp->dt);
    memmove(hp->A + n * k, hp->A + n * (k + p),
            sizeof(double) * n * (m - k - p));
    hp->m = m - p;
}

/* rows of an n x c array (ld n) -> new array with rows inserted/removed
 * (a complex array of width 2 is a real one of 2 n rows: its rows k ..
 * k+p-1 are the real rows 2 k .. 2 (k+p) - 1) */
static inline double *uc_rows_insert(const double *X, int n, int c, int k, int p,
                              const double *Ins /* p x c, ld p */)
{
    int n1 = n + p;
    double *Y = malloc(sizeof(double) * (size_t)n1 * (c > 0 ? c : 1));
    ck_assert_ptr_nonnull(Y);
    for (int j = 0; j < c; ++j) {
        for (int i = 0; i < k; ++i)
            Y[i + (size_t)j * n1] = X[i + (size_t)j * n];
        for (int i = 0; i < p; ++i)
            Y[k + i + (size_t)j * n1] = Ins[i + (size_t)j * p];
        for (int i = k; i < n; ++i)
            Y[i + p + (size_t)j * n1] = X[i + (size_t)j * n];
    }
    return Y;
}

static inline double *uc_rows_delete(const double *X, int n, int c, int k, int p)
{
    int n1 = n - p;
    double *Y = malloc(sizeof(double) * (size_t)(n1 > 0 ? n1 : 1) *
                       (c > 0 ? c : 1));
    ck_assert_ptr_nonnull(Y);
    for (int j = 0; j < c; ++j) {
        for (int i = 0; i < k; ++i)
            Y[i + (size_t)j * n1] = X[i + (size_t)j * n];
        for (int i = k + p; i < n; ++i)
            Y[i - p + (size_t)j * n1] = X[i + (size_t)j * n];
    }
    return Y;
}

static inline void uc_add_rows(hprob *hp, int k, int p, const double *U,
                        const double *e)
{
    int w = uc_w(hp->dt);
    double *A1 = uc_rows_insert(hp->A, w * hp->n, hp->m, w * k, w * p, U);
    double *B1 = uc_rows_insert(hp->B, w * hp->n, hp->r, w * k, w * p, e);
    free(hp->A);
    free(hp->B);
    hp->A = A1;
    hp->B = B1;
    hp->n += p;
}

static inline void uc_remove_rows(hprob *hp, int k, int p)
{
    int w = uc_w(hp->dt);
    double *A1 = uc_rows_delete(hp->A, w * hp->n, hp->m, w * k, w * p);
    double *B1 = uc_rows_delete(hp->B, w * hp->n, hp->r, w * k, w * p);
    free(hp->A);
    free(hp->B);
    hp->A = A1;
    hp->B = B1;
    hp->n -= p;
}

/* ---- the updates on f in any form (the Q-less form takes the data) ----
 * Each calls the library's update of f with the host problem hp as it is
 * before the update and returns the status; the caller updates hp. */

/* the rows k .. k+p-1 of the n x c array X (ld n) as a new p x c array */
static inline double *uc_rows_of(const double *X, int n, int c, int k, int p)
{
    double *Y = malloc(sizeof(double) * (size_t)p * (c > 0 ? c : 1));
    ck_assert_ptr_nonnull(Y);
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < p; ++i)
            Y[i + (size_t)j * p] = X[k + i + (size_t)j * n];
    return Y;
}

/* removes the rows k .. k+p-1 (qru_lsq_remove_rows_data when Q-less) */
static inline int uc_do_remove_rows(qru_context *ctx, qru_lsq *f,
                                    const hprob *hp, int k, int p)
{
    if (qru_lsq_q_form(f) != QRU_Q_NONE)
        return qru_lsq_remove_rows(f, k, p);
    int w = uc_w(hp->dt);
    double *U = uc_rows_of(hp->A, w * hp->n, hp->m, w * k, w * p);
    double *e = uc_rows_of(hp->B, w * hp->n, hp->r, w * k, w * p);
    qru_matrix *Ud = uc_upload(ctx, hp->dt, p, hp->m, U);
    qru_matrix *ed = uc_upload(ctx, hp->dt, p, hp->r, e);
    int st = qru_lsq_remove_rows_data(f, k, Ud, ed);
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(ed);
    free(U);
    free(e);
    return st;
}

/* adds the p columns U (n x p) after column k (qru_lsq_add_cols_data with
 * hp's A and b when Q-less) */
static inline int uc_do_add_cols(qru_context *ctx, qru_lsq *f,
                                 const hprob *hp, int k, int p,
                                 const double *U)
{
    qru_matrix *Ud = uc_upload(ctx, hp->dt, hp->n, p, U);
    int st;
    if (qru_lsq_q_form(f) != QRU_Q_NONE) {
        st = qru_lsq_add_cols(f, k, Ud);
    } else {
        qru_matrix *Ad = uc_upload(ctx, hp->dt, hp->n, hp->m, hp->A);
        qru_matrix *bd = uc_upload(ctx, hp->dt, hp->n, hp->r, hp->B);
        st = qru_lsq_add_cols_data(f, k, Ud, Ad, bd);
        qru_matrix_destroy(Ad);
        qru_matrix_destroy(bd);
    }
    qru_matrix_destroy(Ud);
    return st;
}

/* adds p new random rows (and right-hand-side rows) after row k, to f and
 * to hp */
static inline int uc_do_add_rows(qru_context *ctx, qru_lsq *f, hprob *hp,
                                 int k, int p, unsigned *seed)
{
    double *U = uc_rand(hp->dt, p, hp->m, seed);
    double *e = uc_rand(hp->dt, p, hp->r, seed);
    qru_matrix *Ud = uc_upload(ctx, hp->dt, p, hp->m, U);
    qru_matrix *ed = uc_upload(ctx, hp->dt, p, hp->r, e);
    int st = qru_lsq_add_rows(f, k, Ud, ed);
    if (st == 0)
        uc_add_rows(hp, k, p, U, e);
    qru_matrix_destroy(Ud);
    qru_matrix_destroy(ed);
    free(U);
    free(e);
    return st;
}

/* ---- snapshots: f's contents, to check bit for bit that it is unchanged
 * (R: n x m or m x m, Q: n x n or n x m, d: n x r or m x r as the form
 * holds them; the thin form's residuals E, the Q-less form's norms) */
typedef struct usnap {
    int n, m, r, q, has_q, rr, qc;
    void *R, *Q, *d, *E;
    double *rho;
    double est; /* Q-less: qru_lsq_get_error_estimate (-j: R rank-deficient at
                   column j), which reads the Gram data */
} usnap;

static inline void *uc_get(qru_context *ctx, const qru_lsq *f, int which, int rows,
                    int cols)
{
    qru_matrix *M = NULL;
    int st = qru_matrix_create(ctx, qru_lsq_dtype(f), rows, cols, 0, &M);
    ck_assert_int_eq(st, 0);
    st = which == 0   ? qru_lsq_get_r(f, M)
         : which == 1 ? qru_lsq_get_q(f, M)
         : which == 2 ? qru_lsq_get_d(f, M)
                      : qru_lsq_get_residuals(f, M);
    ck_assert_msg(st == 0, "qru_lsq_get_%c: %d", "rqde"[which], st);
    void *h = qru_test_download(M);
    qru_matrix_destroy(M);
    return h;
}

static inline usnap uc_snap(qru_context *ctx, const qru_lsq *f)
{
    usnap s;
    s.n = qru_lsq_rows(f);
    s.m = qru_lsq_cols(f);
    s.r = qru_lsq_nrhs(f);
    s.q = qru_lsq_q_form(f);
    s.has_q = qru_lsq_has_q(f);
    s.rr = s.q == QRU_Q_FULL ? s.n : s.m;   /* rows of R and d */
    s.qc = s.q == QRU_Q_FULL ? s.n : s.m;   /* columns of Q */
    s.R = uc_get(ctx, f, 0, s.rr, s.m);
    s.Q = s.has_q ? uc_get(ctx, f, 1, s.n, s.qc) : NULL;
    s.d = uc_get(ctx, f, 2, s.rr, s.r);
    s.E = s.q == QRU_Q_THIN ? uc_get(ctx, f, 3, s.n, s.r) : NULL;
    s.rho = malloc(sizeof(double) * (size_t)s.r);
    ck_assert_ptr_nonnull(s.rho);
    ck_assert_int_eq(qru_lsq_get_residual_norms(f, s.rho), 0);
    s.est = 0.0;
    if (s.q == QRU_Q_NONE) {
        int st = qru_lsq_get_error_estimate(f, &s.est);
        ck_assert_msg(st >= 0, "qru_lsq_get_error_estimate: %d", st);
        if (st > 0)
            s.est = -st;
    }
    return s;
}

static inline void uc_snap_free(usnap *s)
{
    free(s->R);
    free(s->Q);
    free(s->d);
    free(s->E);
    free(s->rho);
}

/* f still holds exactly the contents of s */
static inline void uc_snap_same(qru_context *ctx, const qru_lsq *f, const usnap *s,
                         const char *tag0)
{
    char tag[256];
    snprintf(tag, sizeof tag, "[%s] %s", uc_alg_name(), tag0);
    usnap t = uc_snap(ctx, f);
    size_t es = qru_test_elsize(qru_lsq_dtype(f));
    ck_assert_msg(t.n == s->n && t.m == s->m && t.r == s->r &&
                      t.q == s->q,
                  "%s: shape changed (%d x %d -> %d x %d)", tag, s->n, s->m,
                  t.n, t.m);
    ck_assert_msg(memcmp(t.R, s->R, es * (size_t)s->rr * s->m) == 0,
                  "%s: R changed", tag);
    ck_assert_msg(memcmp(t.d, s->d, es * (size_t)s->rr * s->r) == 0,
                  "%s: d changed", tag);
    if (s->has_q)
        ck_assert_msg(memcmp(t.Q, s->Q, es * (size_t)s->n * s->qc) == 0,
                      "%s: Q changed", tag);
    if (s->E)
        ck_assert_msg(memcmp(t.E, s->E, es * (size_t)s->n * s->r) == 0,
                      "%s: E changed", tag);
    ck_assert_msg(memcmp(t.rho, s->rho, sizeof(double) * (size_t)s->r) == 0,
                  "%s: the residual norms changed", tag);
    ck_assert_msg(memcmp(&t.est, &s->est, sizeof(double)) == 0,
                  "%s: the error estimate (the Gram data) changed: %g -> %g",
                  tag, s->est, t.est);
    uc_snap_free(&t);
}

/* ---- checks of a factorisation against the host problem ---- */

/* The Q-less error estimate of snapshot s against its MATLAB
 * specification evaluated in double on the host from the problem's A and
 * b: x = R \ d; dx = R \ (R' \ (A'*b - A'*A*x)); est = max ||dx|| / ||x||.
 * The two differ by the rounding of A'A x in the working precision, about
 * max(n, m) eps kappa^2: scaled by that, the difference must stay below
 * the threshold (an error in the Gram data that the updates keep makes it
 * O(1)).  Returns the scaled difference. */
/* the host array a (rows x cols, width w) as double complex */
static inline double complex *uc_z(const double *a, int w, int rows, int cols)
{
    size_t cnt = (size_t)(rows > 0 ? rows : 1) * (size_t)(cols > 0 ? cols : 1);
    /* + 4: room for OpenBLAS's zgemv, which reads past the end */
    double complex *z = malloc(sizeof(double complex) * (cnt + 4));
    ck_assert_ptr_nonnull(z);
    for (size_t t = 0; t < (size_t)rows * (size_t)(cols > 0 ? cols : 0); ++t)
        z[t] = uc_el(a, w, t);
    return z;
}

/* element (i, j) of a qru array of dt as double complex */
static inline double complex uc_elq(qru_dtype dt, const void *A, int lda,
                                    int i, int j)
{
    double re, im;
    qru_test_get_c(dt, A, lda, i, j, &re, &im);
    return re + im * _Complex_I;
}

static inline double uc_check_estimate(const usnap *s, const hprob *hp,
                                       double scale, const char *tag)
{
    qru_dtype dt = hp->dt;
    int n = hp->n, m = hp->m, r = hp->r, w = uc_w(dt);
    double eps = qru_test_eps(dt);
    typedef double complex zc;
    zc *Rd = malloc(sizeof(zc) * ((size_t)m * m + 4));
    zc *x = malloc(sizeof(zc) * ((size_t)m + 4));
    zc *t = malloc(sizeof(zc) * ((size_t)m + 4));
    zc *ax = malloc(sizeof(zc) * ((size_t)n + 4));
    zc *Az = uc_z(hp->A, w, n, m), *Bz = uc_z(hp->B, w, n, r);
    ck_assert(Rd && x && t && ax);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i)
            Rd[i + (size_t)j * m] = uc_elq(dt, s->R, s->rr, i, j);
    double kappa = qru_test_cond2(QRU_COMPLEX_DOUBLE, m, m, Rd, m, NULL);
    double ref = 0.0;
    zc one = 1.0, mone = -1.0, zero = 0.0;
    for (int j = 0; j < r; ++j) {
        for (int i = 0; i < m; ++i)
            x[i] = uc_elq(dt, s->d, s->rr, i, j);
        cblas_ztrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, m,
                    Rd, m, x, 1);
        /* t = A' (b - A x) */
        cblas_zcopy(n, Bz + (size_t)j * n, 1, ax, 1);
        cblas_zgemv(CblasColMajor, CblasNoTrans, n, m, &mone, Az, n, x, 1,
                    &one, ax, 1);
        cblas_zgemv(CblasColMajor, CblasConjTrans, n, m, &one, Az, n, ax, 1,
                    &zero, t, 1);
        cblas_ztrsv(CblasColMajor, CblasUpper, CblasConjTrans, CblasNonUnit,
                    m, Rd, m, t, 1);
        cblas_ztrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, m,
                    Rd, m, t, 1);
        double xn = cblas_dznrm2(m, x, 1), tn = cblas_dznrm2(m, t, 1);
        ref = fmax(ref, xn > 0.0 ? tn / xn : tn);
    }
    double e = fabs(s->est - ref) /
               ((n > m ? n : m) * eps * kappa * kappa);
    ck_assert_msg(s->est >= 0.0 && e < QRU_TEST_THRESHOLD * scale,
                  "%s: error estimate %g, reference %g (scaled difference "
                  "%g)", tag, s->est, ref, e);
    free(Rd);
    free(x);
    free(t);
    free(ax);
    free(Az);
    free(Bz);
    return e;
}

/* Scaled errors of one check (all must stay below QRU_TEST_THRESHOLD
 * times 'scale'); returns the largest.  with_ls = 0 skips the comparison
 * of the least-squares solution with LAPACKE (for a rank-deficient A1). */
static inline double uc_check_ls(qru_context *ctx, const qru_lsq *f,
                                 const hprob *hp, double scale,
                                 const char *tag0, int with_ls);

static inline double uc_check(qru_context *ctx, const qru_lsq *f, const hprob *hp,
                       double scale, const char *tag0)
{
    return uc_check_ls(ctx, f, hp, scale, tag0, 1);
}

static inline double uc_check_ls(qru_context *ctx, const qru_lsq *f,
                                 const hprob *hp, double scale,
                                 const char *tag0, int with_ls)
{
    char tag[256];
    snprintf(tag, sizeof tag, "[%s] %s", uc_alg_name(), tag0);
    qru_dtype dt = hp->dt;
    int n = hp->n, m = hp->m, r = hp->r;
    double thr = QRU_TEST_THRESHOLD * scale;
    double eps = qru_test_eps(dt);
    double worst = 0.0;
    ck_assert_msg(qru_lsq_rows(f) == n && qru_lsq_cols(f) == m,
                  "%s: f is %d x %d, expected %d x %d", tag, qru_lsq_rows(f),
                  qru_lsq_cols(f), n, m);
    usnap s = uc_snap(ctx, f);
    void *A = uc_to_dt(dt, n, m, hp->A, n);
    void *B = uc_to_dt(dt, n, r, hp->B, n);
    int w = uc_w(dt);
    /* A(i, j), b(i, j) of the host problem; Q, d, E, R of the snapshot */
#define UC_A(i, j) uc_el(hp->A, w, (i) + (size_t)(j) * n)
#define UC_B(i, j) uc_el(hp->B, w, (i) + (size_t)(j) * n)
#define UC_S(X, ld, i, j) uc_elq(dt, s.X, ld, i, j)

    int rr = s.rr;
    double low = qru_test_lower_max(dt, rr, m, s.R, rr);
    ck_assert_msg(low == 0.0, "%s: R has %g below the diagonal", tag, low);

    if (s.q == QRU_Q_THIN) {
        double be = qru_test_backward_error_econ(dt, n, m, A, n, s.Q, n, s.R,
                                                 m);
        double oe = qru_test_orth_error_cols(dt, n, m, s.Q, n);
        ck_assert_msg(be < thr, "%s: backward error %g", tag, be);
        ck_assert_msg(oe < thr, "%s: orthogonality error %g", tag, oe);
        worst = fmax(worst, fmax(be, oe));
        /* d = Q1' b and E = b - Q1 d, scaled by ||b|| */
        double de = 0.0, ee = 0.0;
        for (int j = 0; j < r; ++j) {
            double bn = 0.0;
            for (int l = 0; l < n; ++l)
                bn += creal(conj(UC_B(l, j)) * UC_B(l, j));
            bn = sqrt(bn) + 1e-300;
            for (int i = 0; i < m; ++i) {
                double complex acc = 0.0;
                for (int l = 0; l < n; ++l)
                    acc += conj(UC_S(Q, n, l, i)) * UC_B(l, j);
                de = fmax(de, cabs(acc - UC_S(d, m, i, j)) / (bn * n * eps));
            }
            for (int l = 0; l < n; ++l) {
                double complex acc = UC_B(l, j);
                for (int i = 0; i < m; ++i)
                    acc -= UC_S(Q, n, l, i) * UC_S(d, m, i, j);
                ee = fmax(ee, cabs(acc - UC_S(E, n, l, j)) / (bn * n * eps));
            }
        }
        ck_assert_msg(de < thr, "%s: d - Q1'b error %g", tag, de);
        ck_assert_msg(ee < thr, "%s: E - (b - Q1 d) error %g", tag, ee);
        worst = fmax(worst, fmax(de, ee));
    } else if (s.has_q) {
        double be = qru_test_backward_error(dt, n, m, A, n, s.Q, n, s.R, n);
        double oe = qru_test_orth_error(dt, n, s.Q, n);
        ck_assert_msg(be < thr, "%s: backward error %g", tag, be);
        ck_assert_msg(oe < thr, "%s: orthogonality error %g", tag, oe);
        worst = fmax(worst, fmax(be, oe));
        /* d = Q' b */
        double *qtb = calloc((size_t)w * n * r, sizeof(double));
        ck_assert_ptr_nonnull(qtb);
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < n; ++i) {
                double complex acc = 0.0;
                for (int l = 0; l < n; ++l)
                    acc += conj(UC_S(Q, n, l, i)) * UC_B(l, j);
                size_t t = i + (size_t)j * n;
                qtb[w * t] = creal(acc);
                if (w == 2)
                    qtb[2 * t + 1] = cimag(acc);
            }
        void *qtbd = uc_to_dt(dt, n, r, qtb, n);
        double de = qru_test_diff(dt, n, r, s.d, n, qtbd, n);
        ck_assert_msg(de < thr, "%s: d - Q'b error %g", tag, de);
        worst = fmax(worst, de);
        free(qtb);
        free(qtbd);
    } else {
        /* R'R = A'A: ||R'R - A'A||_F / (||A||_F^2 max(n,m) eps) */
        double num = 0.0, an = 0.0;
        int rr_ = rr;
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < n; ++i)
                an += creal(conj(UC_A(i, j)) * UC_A(i, j));
        for (int j = 0; j < m; ++j)
            for (int i = 0; i <= j; ++i) {
                double complex rtr = 0.0, aa = 0.0;
                for (int l = 0; l < rr_; ++l)
                    rtr += conj(UC_S(R, rr_, l, i)) * UC_S(R, rr_, l, j);
                for (int l = 0; l < n; ++l) {
                    aa += conj(UC_A(l, i)) * UC_A(l, j);
                }
                double dd = cabs(rtr - aa);
                num += (i == j ? 1.0 : 2.0) * dd * dd;
            }
        double ge = sqrt(num) / (an * (n > m ? n : m) * eps);
        ck_assert_msg(ge < thr, "%s: R'R - A'A error %g", tag, ge);
        worst = fmax(worst, ge);
        /* ||d(:,j)||^2 + rho_j^2 = ||b(:,j)||^2 */
        for (int j = 0; j < r; ++j) {
            double dn = s.rho[j] * s.rho[j], bn = 0.0;
            for (int i = 0; i < m; ++i)
                dn += creal(conj(UC_S(d, m, i, j)) * UC_S(d, m, i, j));
            for (int i = 0; i < n; ++i)
                bn += creal(conj(UC_B(i, j)) * UC_B(i, j));
            double ne = fabs(sqrt(dn) - sqrt(bn)) /
                        (sqrt(bn) * (n > m ? n : m) * eps);
            ck_assert_msg(ne < thr, "%s: ||d|| - ||b|| error %g", tag, ne);
            worst = fmax(worst, ne);
        }
        if (with_ls)
            worst = fmax(worst, uc_check_estimate(&s, hp, scale, tag));
    }

#undef UC_A
#undef UC_B
#undef UC_S
    if (!with_ls) {
        if (getenv("QRU_TEST_VERBOSE"))
            printf("%-48s worst scaled error %.3g\n", tag, worst);
        free(A);
        free(B);
        uc_snap_free(&s);
        return worst;
    }
    /* least squares against LAPACKE gels on A1, b1 */
    qru_matrix *X = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, r, 0, &X), 0);
    int st = qru_lsq_solve(f, X);
    ck_assert_msg(st == 0, "%s: qru_lsq_solve: %d", tag, st);
    void *x = qru_test_download(X);
    double *res = malloc(sizeof(double) * (size_t)r);
    ck_assert_ptr_nonnull(res);
    st = qru_lsq_get_residual_norms(f, res);
    ck_assert_msg(st == 0, "%s: qru_lsq_get_residual_norms: %d", tag, st);
    double xe = 0.0, re = 0.0;
    qru_test_lsq_errors(dt, n, m, r, A, n, B, n, x, m, res, &xe, &re);
    ck_assert_msg(xe < thr, "%s: least-squares solution error %g", tag, xe);
    ck_assert_msg(re < thr, "%s: residual error %g", tag, re);
    worst = fmax(worst, fmax(xe, re));
    if (getenv("QRU_TEST_VERBOSE"))
        printf("%-48s worst scaled error %.3g\n", tag, worst);
    free(res);
    free(x);
    qru_matrix_destroy(X);
    free(A);
    free(B);
    uc_snap_free(&s);
    return worst;
}

/* R of f against R of LAPACKE zgeqrf of the host problem's A (in double
 * complex; for real data the moduli are dgeqrf's): LAPACK fixes each row
 * of R only up to a phase (a sign for real data), so the moduli of the
 * elements are compared, ||A||_F max(n, m) eps the scale (as
 * test_complex.c's zr_vs_lapack).  For a full-rank A; returns the scaled
 * error, which must stay below QRU_TEST_THRESHOLD times scale. */
static inline double uc_check_r_lapack(qru_context *ctx, const qru_lsq *f,
                                       const hprob *hp, double scale,
                                       const char *tag0)
{
    qru_dtype dt = hp->dt;
    int n = hp->n, m = hp->m, k = n < m ? n : m, w = uc_w(dt);
    int rr = qru_lsq_q_form(f) == QRU_Q_FULL ? n : m; /* rows of R */
    void *R = uc_get(ctx, f, 0, rr, m);
    double complex *W = uc_z(hp->A, w, n, m);
    double complex *tau = malloc(sizeof(double complex) * ((size_t)k + 4));
    ck_assert_ptr_nonnull(tau);
    ck_assert_int_eq(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, n, m, W, n, tau), 0);
    double e = 0.0, an = 0.0;
    for (size_t t = 0; t < (size_t)n * m; ++t)
        an += creal(conj(uc_el(hp->A, w, t)) * uc_el(hp->A, w, t));
    for (int j = 0; j < m; ++j)
        for (int i = 0; i <= j && i < k; ++i)
            e = fmax(e, fabs(cabs(uc_elq(dt, R, rr, i, j)) -
                             cabs(W[i + (size_t)j * n])));
    e = e == 0.0 ? 0.0
                 : e / (sqrt(an) * (n > m ? n : m) * qru_test_eps(dt));
    ck_assert_msg(e < QRU_TEST_THRESHOLD * scale,
                  "[%s] %s: |R| - |R of zgeqrf| error %g", uc_alg_name(),
                  tag0, e);
    free(R);
    free(W);
    free(tau);
    return e;
}

#endif /* QRU_UPDATE_CHECK_H */
