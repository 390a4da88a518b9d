/* Batched Q-less least squares (qru_lsq_batch_*): every problem against
 * LAPACKE (dgels on the host of the stacked rows) in both precisions,
 * created with n rows and then p rows added, or grown by a chain of single
 * rows; a rank-deficient and a non-finite problem among good ones; padded
 * pages (ld > rows, stride > ld * cols); every argument check, with the
 * batch left bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

#define THR QRU_TEST_THRESHOLD
#define SENT 777.25

/* ---- a batch in one device array, and its host image ------------------ */

typedef struct bimg {
    qru_dtype dt;
    int rows, cols, ld, count;
    size_t stride, size;
    void *h;
    qru_matrix *flat, *B;
} bimg;

/* A batch of count rows x cols pages (ld, stride; pad: ld = rows + 2 and
 * stride = ld cols + 3), every element SENT until set. */
static bimg bimg_new(qru_dtype dt, int rows, int cols, int count, int pad)
{
    int ld = (rows > 1 ? rows : 1) + (pad ? 2 : 0);
    bimg b = {dt, rows, cols, ld, count,
              (size_t)ld * cols + (pad ? 3 : 0), 0, NULL, NULL, NULL};
    b.size = count > 0 ? (count - 1) * b.stride + (size_t)ld * cols : 0;
    int sz = b.size > 0 ? (int)b.size : 1;
    b.h = qru_test_alloc(dt, sz, 1, sz);
    for (size_t e = 0; e < (size_t)sz; ++e)
        qru_test_set(dt, b.h, 1, (int)e, 0, SENT);
    return b;
}

static void *bimg_page(const bimg *b, int p)
{
    return (char *)b->h + (size_t)p * b->stride * qru_test_elsize(b->dt);
}

static void bimg_rand(bimg *b, unsigned *seed)
{
    for (int p = 0; p < b->count; ++p)
        for (int j = 0; j < b->cols; ++j)
            for (int i = 0; i < b->rows; ++i)
                qru_test_set(b->dt, bimg_page(b, p), b->ld, i, j,
                             qru_test_urand(seed));
}

static void bimg_upload(bimg *b) /* (again: the earlier copy freed) */
{
    int sz = b->size > 0 ? (int)b->size : 1;
    qru_matrix_destroy(b->B);
    qru_matrix_destroy(b->flat);
    b->flat = qru_test_upload(ctx, b->dt, sz, 1, sz, b->h, sz);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, b->dt, b->rows, b->cols,
                                           qru_matrix_data(b->flat), b->ld,
                                           b->count, (long long)b->stride,
                                           &b->B),
                     0);
}

static void bimg_free(bimg *b)
{
    qru_matrix_destroy(b->B);
    qru_matrix_destroy(b->flat);
    free(b->h);
}

/* The solutions of fb's problems (all solved: status 0) into the new X
 * (count m x r pages), their verdicts into info; the host copy of X. */
static void *solved(qru_lsq_batch *fb, qru_dtype dt, bimg *X, int *info)
{
    *X = bimg_new(dt, qru_lsq_batch_cols(fb), qru_lsq_batch_nrhs(fb),
                  qru_lsq_batch_count(fb), 0);
    bimg_upload(X);
    ck_assert_int_eq(qru_lsq_batch_solve(fb, X->B, info), 0);
    return qru_test_download(X->flat);
}

/* bimg_rand and bimg_free of the n images v[0 .. n-1]. */
static void bimgs_rand(bimg *const *v, int n, unsigned *seed)
{
    for (int i = 0; i < n; ++i)
        bimg_rand(v[i], seed);
}

static void bimgs_free(bimg *const *v, int n)
{
    for (int i = 0; i < n; ++i)
        bimg_free(v[i]);
}

/* ---- the batch's state, for bit-for-bit comparisons -------------------- */

typedef struct state {
    void *R, *d;
    double *rho;
    size_t bytes_r, bytes_d;
} state;

static state get_state(qru_lsq_batch *fb, qru_dtype dt)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb),
        cnt = qru_lsq_batch_count(fb);
    qru_matrix *R, *d;
    state s;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, m, m, cnt, 0, &R),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, m, cnt, 0, &d),
                     0);
    ck_assert_int_eq(qru_lsq_batch_get_r(fb, R), 0);
    ck_assert_int_eq(qru_lsq_batch_get_d(fb, d), 0);
    s.bytes_r = qru_test_elsize(dt) * (size_t)m * m * cnt;
    s.bytes_d = qru_test_elsize(dt) * (size_t)m * r * cnt;
    s.R = malloc(s.bytes_r + 8);
    s.d = malloc(s.bytes_d + 8);
    ck_assert_int_eq(qru_matrix_download(R, s.R, m), 0);
    ck_assert_int_eq(qru_matrix_download(d, s.d, m), 0);
    s.rho = malloc(sizeof(double) * ((size_t)cnt * r + 1));
    ck_assert_int_eq(qru_lsq_batch_residual_norms(fb, s.rho), 0);
    qru_matrix_destroy(R);
    qru_matrix_destroy(d);
    return s;
}

static int same_state(const state *a, const state *b, int cnt, int r)
{
    return memcmp(a->R, b->R, a->bytes_r) == 0 &&
           memcmp(a->d, b->d, a->bytes_d) == 0 &&
           memcmp(a->rho, b->rho, sizeof(double) * (size_t)cnt * r) == 0;
}

static void free_state(state *s)
{
    free(s->R);
    free(s->d);
    free(s->rho);
}

/* ---- one case ---------------------------------------------------------- */

typedef struct lcase {
    qru_dtype dt;
    int count, m, n, p, r, pad;
    int chain;  /* > 0: p = 1 rows added chain times (n = 0) */
    int defect; /* problem 'defect' (if < count) has column 1 = column 0 */
    int fused;  /* the last rows added and solved in one call
                   (qru_lsq_batch_add_rows_solve) */
} lcase;

/* The stacked rows of problem i of the batches A (n rows) and U (nu
 * batches of pu rows each) as a dense N x cols array of type dt. */
static void *stack(qru_dtype dt, const bimg *A, const bimg *U, int nu, int i,
                   int N, int cols)
{
    void *S = qru_test_alloc(dt, N > 0 ? N : 1, cols, N > 0 ? N : 1);
    int row = 0;
    for (int k = 0; k < A->rows; ++k, ++row)
        for (int j = 0; j < cols; ++j)
            qru_test_set(dt, S, N, row, j,
                         qru_test_get(dt, bimg_page(A, i), A->ld, k, j));
    for (int u = 0; u < nu; ++u)
        for (int k = 0; k < U[u].rows; ++k, ++row)
            for (int j = 0; j < cols; ++j)
                qru_test_set(dt, S, N, row, j,
                             qru_test_get(dt, bimg_page(&U[u], i), U[u].ld,
                                          k, j));
    return S;
}

/* ||R'R - A1'A1||_F / (||A1||_F^2 max(N, m) eps), R the page of get_r. */
static double gram_error(qru_dtype dt, int N, int m, const void *A1,
                         const void *Rp, int ldr)
{
    double *G = calloc((size_t)m * m, sizeof(double));
    double a2 = 0, e2 = 0;
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0, t = 0;
            for (int k = 0; k < N; ++k)
                s += qru_test_get(dt, A1, N, k, i) *
                     qru_test_get(dt, A1, N, k, j);
            for (int k = 0; k < m; ++k)
                t += qru_test_get(dt, Rp, ldr, k, i) *
                     qru_test_get(dt, Rp, ldr, k, j);
            G[i + (size_t)j * m] = s - t;
            e2 += (s - t) * (s - t);
        }
    for (int k = 0; k < N; ++k)
        for (int j = 0; j < m; ++j)
            a2 += qru_test_get(dt, A1, N, k, j) * qru_test_get(dt, A1, N, k, j);
    free(G);
    int big = N > m ? N : m;
    return a2 > 0 ? sqrt(e2) / (a2 * big * qru_test_eps(dt)) : sqrt(e2);
}

static void run_case(const lcase *c, unsigned *seed)
{
    qru_dtype dt = c->dt;
    int cnt = c->count, m = c->m, r = c->r;
    int nu = c->chain > 0 ? c->chain : 1, pu = c->chain > 0 ? 1 : c->p;
    int n = c->chain > 0 ? 0 : c->n, N = n + nu * pu;
    bimg A = bimg_new(dt, n, m, cnt, c->pad), b = bimg_new(dt, n, r, cnt, 0);
    bimg *U = malloc(sizeof(bimg) * nu), *E = malloc(sizeof(bimg) * nu);
    bimg_rand(&A, seed);
    bimg_rand(&b, seed);
    for (int u = 0; u < nu; ++u) {
        U[u] = bimg_new(dt, pu, m, cnt, c->pad && u == 0);
        E[u] = bimg_new(dt, pu, r, cnt, c->pad && u == 0);
        bimg_rand(&U[u], seed);
        bimg_rand(&E[u], seed);
    }
    if (c->defect < cnt && m >= 2) { /* column 1 = column 0 */
        int i = c->defect;
        for (int k = 0; k < n; ++k)
            qru_test_set(dt, bimg_page(&A, i), A.ld, k, 1,
                         qru_test_get(dt, bimg_page(&A, i), A.ld, k, 0));
        for (int u = 0; u < nu; ++u)
            for (int k = 0; k < pu; ++k)
                qru_test_set(dt, bimg_page(&U[u], i), U[u].ld, k, 1,
                             qru_test_get(dt, bimg_page(&U[u], i), U[u].ld,
                                          k, 0));
    }
    bimg_upload(&A);
    bimg_upload(&b);
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, &fb), 0);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, 0), cnt > 0 ? n : -1);
    bimg X = bimg_new(dt, m, r, cnt, c->pad);
    bimg_upload(&X);
    int *info = malloc(sizeof(int) * (cnt + 1)), st = -1000;
    for (int u = 0; u < nu; ++u) {
        bimg_upload(&U[u]);
        bimg_upload(&E[u]);
        if (c->fused && u == nu - 1)
            st = qru_lsq_batch_add_rows_solve(fb, U[u].B, E[u].B, X.B, info);
        else
            ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U[u].B, E[u].B), 0);
    }
    ck_assert_int_eq(qru_lsq_batch_count(fb), cnt);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), m);
    ck_assert_int_eq(qru_lsq_batch_nrhs(fb), r);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, cnt - 1), N);
    if (!c->fused)
        st = qru_lsq_batch_solve(fb, X.B, info);
    void *Xh = qru_test_download(X.flat);
    state s = get_state(fb, dt);
    int failed = 0;
    double worst = 0;
    for (int i = 0; i < cnt; ++i) {
        void *A1 = stack(dt, &A, U, nu, i, N, m);
        void *b1 = stack(dt, &b, E, nu, i, N, r);
        const void *Rp = (const char *)s.R + (size_t)i * m * m *
                                                  qru_test_elsize(dt);
        double ge = gram_error(dt, N, m, A1, Rp, m);
        worst = ge > worst ? ge : worst;
        ck_assert_msg(ge < THR, "problem %d: R'R error %g", i, ge);
        for (int j = 0; j < m; ++j) /* zeros below R's diagonal */
            for (int k = j + 1; k < m; ++k)
                ck_assert(qru_test_get(dt, Rp, m, k, j) == 0.0);
        int deficient = N < m || (i == c->defect && m >= 2);
        if (deficient) {
            ck_assert_msg(info[i] > 0, "problem %d: info %d", i, info[i]);
            ++failed;
            for (int q = 0; q < r; ++q)
                for (int k = 0; k < m; ++k)
                    ck_assert(qru_test_get(dt, (char *)Xh +
                                                   (size_t)i * X.stride *
                                                       qru_test_elsize(dt),
                                           X.ld, k, q) == SENT);
        } else {
            ck_assert_msg(info[i] == 0, "problem %d: info %d", i, info[i]);
            double xe, re;
            qru_test_lsq_errors(dt, N, m, r, A1, N, b1, N,
                                (char *)Xh + (size_t)i * X.stride *
                                                 qru_test_elsize(dt),
                                X.ld, s.rho + (size_t)i * r, &xe, &re);
            ck_assert_msg(xe < THR && re < THR,
                          "problem %d (m %d N %d): x error %g, residual "
                          "error %g", i, m, N, xe, re);
        }
        free(A1);
        free(b1);
    }
    ck_assert_int_eq(st, failed);
    /* the padding and the gaps of X untouched */
    for (size_t e = 0; e < X.size; ++e) {
        size_t rr = e % X.stride;
        int i = (int)(rr % (size_t)X.ld), j = (int)(rr / (size_t)X.ld);
        if (!(i < m && j < r))
            ck_assert(qru_test_get(dt, Xh, 1, (int)e, 0) == SENT);
    }
    (void)worst;
    free_state(&s);
    free(Xh);
    free(info);
    qru_lsq_batch_destroy(fb);
    bimg_free(&X);
    for (int u = 0; u < nu; ++u) {
        bimg_free(&U[u]);
        bimg_free(&E[u]);
    }
    free(U);
    free(E);
    bimg_free(&A);
    bimg_free(&b);
}

/* the work-group kernels' items a problem (qru_lsq_batch_items: 4, 8 from
 * m + r = 13, 16 from 25) and CUDA's lane kernels' bounds
 * (cuda/cuda_lsq_team.cuh: 8 lanes up to m + r = 16 and 24, 16 up to 32;
 * the solve by m) */
static const int MS[7] = {1, 5, 12, 20, 24, 32, 33};

/* count 7: every m, n in {0, m, 3m, 200}, (p, r) in {(1,1), (3,2)}; the
 * rows added and then solved, and in one call */
START_TEST(test_lsq_batch_grid)
{
    unsigned seed = 1234u + (unsigned)_i;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int m = MS[_i];
        int ns[4] = {0, m, 3 * m, 200};
        for (int a = 0; a < 4; ++a)
            for (int pr = 0; pr < 2; ++pr)
                for (int fu = 0; fu < 2; ++fu) {
                    lcase c = {dt, 7, m, ns[a], pr ? 3 : 1, pr ? 2 : 1,
                               (a + pr) % 2, 0, 1 << 30, fu};
                    run_case(&c, &seed);
                }
    }
}
END_TEST

/* counts 1 and 300, chains of 50 and 75 single rows, rank-deficient
 * problems (each case both ways, as the grid),
 * problems, problems too large for local memory */
START_TEST(test_lsq_batch_counts)
{
    unsigned seed = 99u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        lcase cs[] = {
            {dt, 1, 5, 15, 1, 1, 0, 0, 1 << 30, 0},
            {dt, 1, 33, 200, 3, 2, 1, 0, 1 << 30, 0},
            {dt, 300, 20, 200, 1, 1, 0, 0, 1 << 30, 0},
            {dt, 300, 5, 15, 3, 2, 1, 0, 1 << 30, 0},
            {dt, 7, 5, 0, 1, 1, 0, 50, 1 << 30, 0},
            {dt, 7, 20, 0, 1, 2, 1, 50, 1 << 30, 0},
            {dt, 7, 5, 15, 1, 1, 1, 0, 3, 0},
            {dt, 300, 20, 60, 3, 2, 0, 0, 123, 0},
            /* beyond local memory (qru_lsq_batch_local) */
            {dt, 7, 70, 100, 3, 2, 1, 0, 4, 0},
            {dt, 3, 70, 0, 1, 1, 0, 75, 1 << 30, 0},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k) {
            run_case(&cs[k], &seed);
            cs[k].fused = 1;
            run_case(&cs[k], &seed);
        }
    }
}
END_TEST

/* A NaN in one problem's new row: with the check on, -2 and the batch
 * bit for bit; without, that problem fails its solve and the others are
 * right. */
START_TEST(test_lsq_batch_nonfinite)
{
    unsigned seed = 7u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int cnt = 5, m = 4, n = 12, r = 1;
        bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
        bimg U = bimg_new(dt, 1, m, cnt, 0), E = bimg_new(dt, 1, r, cnt, 0);
        bimg X = bimg_new(dt, m, r, cnt, 0);
        bimg_rand(&A, &seed);
        bimg_rand(&b, &seed);
        bimg_rand(&U, &seed);
        bimg_rand(&E, &seed);
        qru_test_set(dt, bimg_page(&U, 2), U.ld, 0, 1, NAN);
        bimg_upload(&A);
        bimg_upload(&b);
        bimg_upload(&U);
        bimg_upload(&E);
        bimg_upload(&X);
        qru_lsq_batch *fb = NULL;
        ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, &fb), 0);
        state s0 = get_state(fb, dt);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E.B), -2);
        int info[5] = {-5, -5, -5, -5, -5};
        ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, X.B,
                                                      info), -2);
        ck_assert_int_eq(info[0], -5);
        void *Xh = qru_test_download(X.flat);
        for (size_t e = 0; e < X.size; ++e)
            ck_assert(qru_test_get(dt, Xh, 1, (int)e, 0) == SENT);
        free(Xh);
        state s1 = get_state(fb, dt);
        ck_assert(same_state(&s0, &s1, cnt, r));
        ck_assert_int_eq(qru_lsq_batch_rows(fb, 0), n);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E.B), 0);
        ck_assert_int_eq(qru_lsq_batch_solve(fb, X.B, info), 1);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 2);
        /* in one call: the same verdicts, the rows added */
        ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, X.B,
                                                      info), 1);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 2);
        ck_assert_int_eq(qru_lsq_batch_rows(fb, 0), n + 2);
        free_state(&s0);
        free_state(&s1);
        qru_lsq_batch_destroy(fb);
        bimg_free(&A);
        bimg_free(&b);
        bimg_free(&U);
        bimg_free(&E);
        bimg_free(&X);
    }
}
END_TEST

/* Every argument check, in order, the batch bit for bit after each. */
START_TEST(test_lsq_batch_args)
{
    unsigned seed = 11u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    int cnt = 3, m = 4, n = 8, r = 2;
    bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
    bimg U = bimg_new(dt, 2, m, cnt, 0), E = bimg_new(dt, 2, r, cnt, 0);
    bimg_rand(&A, &seed);
    bimg_rand(&b, &seed);
    bimg_rand(&U, &seed);
    bimg_rand(&E, &seed);
    bimg_upload(&A);
    bimg_upload(&b);
    bimg_upload(&U);
    bimg_upload(&E);
    qru_matrix *b4 = NULL, *bn = NULL, *U2 = NULL, *Uc = NULL, *E3 = NULL,
               *Ec = NULL, *X = NULL, *Xb = NULL, *Xc = NULL, *A0 = NULL,
               *Rb = NULL, *Eo = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r, 0, 4, 0, &b4), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + 1, r, 0, cnt, 0,
                                             &bn), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, m + 1, 0, cnt, 0,
                                             &U2), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, m, 0, cnt + 1, 0,
                                             &Uc), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, r, 0, cnt, 0, &E3),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, r + 1, 0, cnt, 0,
                                             &Ec), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, 0, cnt, 0, &X),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m + 1, r, 0, cnt, 0,
                                             &Xb), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, 0, cnt - 1, 0,
                                             &Xc), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 0, m, 0, cnt, 0, &A0),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, m + 1, 0, cnt, 0,
                                             &Rb), 0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, 2, r, 0, cnt, 0,
                                                 &Eo), 0);
    qru_lsq_batch *fb = NULL, *f2 = NULL;
    /* create */
    ck_assert_int_eq(qru_lsq_batch_create(NULL, A.B, b.B, &fb), -1);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, NULL, b.B, &fb), -2);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, NULL, &fb), -3);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b4, &fb), -3);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, bn, &fb), -3);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, NULL), -4);
    ck_assert(fb == NULL);
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, &fb), 0);
    /* n = 0: an empty factorisation, every problem rank-deficient */
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A0, E3, &f2), -3);
    state s0 = get_state(fb, dt);
    /* add_rows */
    ck_assert_int_eq(qru_lsq_batch_add_rows(NULL, U.B, E.B), -1);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, NULL, E.B), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U2, E.B), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, Uc, E.B), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, A0, E.B), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, NULL), -3);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E3), -3);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, Ec), -3);
    if (Eo)
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, Eo), -3);
    /* solve and the readers */
    int info[3] = {-5, -5, -5};
    ck_assert_int_eq(qru_lsq_batch_solve(NULL, X, info), -1);
    ck_assert_int_eq(qru_lsq_batch_solve(fb, NULL, info), -2);
    ck_assert_int_eq(qru_lsq_batch_solve(fb, Xb, info), -2);
    ck_assert_int_eq(qru_lsq_batch_solve(fb, Xc, info), -2);
    ck_assert_int_eq(info[0], -5);
    /* add_rows_solve: add_rows' checks, then the solve's (argument 4) */
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(NULL, U.B, E.B, X, info),
                     -1);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U2, E.B, X, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, Ec, X, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, NULL, info),
                     -4);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, Xb, info),
                     -4);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, Xc, info),
                     -4);
    /* X over U's pages (both 2 x 4 ... m x r = 4 x 2 elements a page) */
    qru_matrix *Xu = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, m, r,
                                           qru_matrix_data(U.flat), m, cnt,
                                           (long long)U.stride, &Xu), 0);
    ck_assert_int_eq(qru_lsq_batch_add_rows_solve(fb, U.B, E.B, Xu, info),
                     -4);
    qru_matrix_destroy(Xu);
    ck_assert_int_eq(info[0], -5);
    ck_assert_int_eq(qru_lsq_batch_residual_norms(NULL, NULL), -1);
    ck_assert_int_eq(qru_lsq_batch_residual_norms(fb, NULL), -2);
    ck_assert_int_eq(qru_lsq_batch_get_r(NULL, Rb), -1);
    ck_assert_int_eq(qru_lsq_batch_get_r(fb, Rb), -2);
    ck_assert_int_eq(qru_lsq_batch_get_r(fb, NULL), -2);
    ck_assert_int_eq(qru_lsq_batch_get_d(fb, Xb), -2);
    ck_assert_int_eq(qru_lsq_batch_count(NULL), -1);
    ck_assert_int_eq(qru_lsq_batch_cols(NULL), -1);
    ck_assert_int_eq(qru_lsq_batch_nrhs(NULL), -1);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, cnt), -1);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, -1), -1);
    /* a single-matrix routine refuses a batch */
    qru_lsq *single = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A.B, b.B, NULL, &single), -2);
    state s1 = get_state(fb, dt);
    ck_assert(same_state(&s0, &s1, cnt, r));
    ck_assert_int_eq(qru_lsq_batch_rows(fb, 0), n);
    ck_assert_int_eq(qru_lsq_batch_solve(fb, X, NULL), 0);
    free_state(&s0);
    free_state(&s1);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(NULL);
    qru_matrix *ms[] = {b4, bn, U2, Uc, E3, Ec, X, Xb, Xc, A0, Rb, Eo};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    bimg_free(&A);
    bimg_free(&b);
    bimg_free(&U);
    bimg_free(&E);
}
END_TEST

/* ---- the thin form (QRU_Q_THIN): Q1 kept, rows removed ------------- */

/* The count pages of a batch of rows x cols (created for the copy, ld
 * rows) as one host array, page i at i rows cols. */
static void *batch_host(qru_dtype dt, int rows, int cols, int count,
                        int (*get)(const qru_lsq_batch *, qru_matrix *),
                        const qru_lsq_batch *fb)
{
    qru_matrix *M = NULL;
    int ld = rows > 1 ? rows : 1;
    ck_assert_int_eq(
        qru_matrix_create_batch(ctx, dt, rows, cols, ld, count, 0, &M), 0);
    size_t bytes = qru_test_elsize(dt) * (size_t)ld * cols * count + 8;
    void *h = malloc(bytes);
    memset(h, 0, bytes);
    /* rows a problem does not hold stay as set here */
    ck_assert_int_eq(qru_matrix_upload(M, h, ld), 0);
    ck_assert_int_eq(get(fb, M), 0);
    ck_assert_int_eq(qru_matrix_download(M, h, ld), 0);
    qru_matrix_destroy(M);
    return h;
}

/* Every stored number of a thin batch, for bit-for-bit comparisons. */
typedef struct qstate {
    state s;
    void *Q, *E;
    size_t bytes_q, bytes_e;
    int *nr;
} qstate;

static qstate get_qstate(qru_lsq_batch *fb, qru_dtype dt)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb),
        cnt = qru_lsq_batch_count(fb), n = 0;
    qstate q;
    q.nr = malloc(sizeof(int) * (size_t)(cnt + 1));
    for (int i = 0; i < cnt; ++i) {
        q.nr[i] = qru_lsq_batch_rows(fb, i);
        n = q.nr[i] > n ? q.nr[i] : n;
    }
    q.s = get_state(fb, dt);
    q.Q = batch_host(dt, n, m, cnt, qru_lsq_batch_get_q, fb);
    q.E = batch_host(dt, n, r, cnt, qru_lsq_batch_get_residuals, fb);
    q.bytes_q = qru_test_elsize(dt) * (size_t)n * m;
    q.bytes_e = qru_test_elsize(dt) * (size_t)n * r;
    return q;
}

/* Problem i of a and b alike, bit for bit. */
static int same_problem(const qstate *a, const qstate *b, int i, int m,
                        int r, qru_dtype dt)
{
    size_t es = qru_test_elsize(dt);
    return a->nr[i] == b->nr[i] &&
           !memcmp((char *)a->s.R + i * es * m * m,
                   (char *)b->s.R + i * es * m * m, es * m * m) &&
           !memcmp((char *)a->s.d + i * es * m * r,
                   (char *)b->s.d + i * es * m * r, es * m * r) &&
           !memcmp(a->s.rho + (size_t)i * r, b->s.rho + (size_t)i * r,
                   sizeof(double) * r) &&
           a->bytes_q == b->bytes_q &&
           !memcmp((char *)a->Q + i * a->bytes_q,
                   (char *)b->Q + i * b->bytes_q, a->bytes_q) &&
           !memcmp((char *)a->E + i * a->bytes_e,
                   (char *)b->E + i * b->bytes_e, a->bytes_e);
}

static void free_qstate(qstate *q)
{
    free_state(&q->s);
    free(q->Q);
    free(q->E);
    free(q->nr);
}

/* The rows k .. k+p-1 of the N x cols array S dropped (a new array). */
static void *drop_rows(qru_dtype dt, const void *S, int N, int cols, int k,
                       int p)
{
    int N1 = N - p;
    void *T1 = qru_test_alloc(dt, N1 > 0 ? N1 : 1, cols, N1 > 0 ? N1 : 1);
    for (int j = 0; j < cols; ++j)
        for (int i = 0, o = 0; i < N; ++i)
            if (i < k || i >= k + p)
                qru_test_set(dt, T1, N1, o++, j, qru_test_get(dt, S, N, i, j));
    return T1;
}

/* The right-hand sides of thin factors against b (n x r, ldb): in *de
 * ||Q1'b - d|| and in *ee ||b - E - Q1 d|| (Q1 n x m and E n x r, ld ldq;
 * d m x r, ld m), both scaled by ||b|| n eps. */
static void rhs_errors(qru_dtype dt, int n, int m, int r, const void *b,
                       int ldb, const void *Qp, const void *Ep, int ldq,
                       const void *dp, double *de, double *ee)
{
    double b2 = 0, de2 = 0, ee2 = 0;
    for (int q = 0; q < r; ++q) {
        for (int t = 0; t < n; ++t) {
            double v = qru_test_get(dt, b, ldb, t, q);
            b2 += v * v;
        }
        for (int j = 0; j < m; ++j) {
            double s = 0;
            for (int t = 0; t < n; ++t)
                s += qru_test_get(dt, Qp, ldq, t, j) *
                     qru_test_get(dt, b, ldb, t, q);
            s -= qru_test_get(dt, dp, m, j, q);
            de2 += s * s;
        }
        for (int t = 0; t < n; ++t) {
            double s = qru_test_get(dt, b, ldb, t, q) -
                       qru_test_get(dt, Ep, ldq, t, q);
            for (int j = 0; j < m; ++j)
                s -= qru_test_get(dt, Qp, ldq, t, j) *
                     qru_test_get(dt, dp, m, j, q);
            ee2 += s * s;
        }
    }
    double sc = sqrt(b2) * n * qru_test_eps(dt);
    *de = sqrt(de2) / sc;
    *ee = sqrt(ee2) / sc;
}

/* A and b uploaded and their thin batch created (row capacity cap). */
static qru_lsq_batch *thin_create(bimg *A, bimg *b, int cap)
{
    bimg_upload(A);
    bimg_upload(b);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    opt.row_capacity = cap;
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A->B, b->B, &opt, &fb), 0);
    ck_assert_int_eq(qru_lsq_batch_q_form(fb), QRU_Q_THIN);
    return fb;
}

typedef struct qcase {
    qru_dtype dt;
    int count, m, n, r;
    int pa;     /* rows added after the creation (0: none) */
    int k, p;   /* the rows removed, from the n + pa rows */
    int pad;    /* padded pages of the inputs */
    int defect; /* problem 'defect' (if < count) keeps column 0 only in
                   the removed rows: its removal is refused */
    int cap;    /* opt->row_capacity */
    int dom;    /* > 0 (pa = 0): the removed rows of problem i's A are
                   multiplied by 10^(1 + i % dom) (they carry most of A) */
    int near;   /* > 0 (pa = 0): the removed rows of problem i's A gain
                   10^(1 + i % near) times one random row (near a common
                   dominant row: Rz ill-conditioned) */
} qcase;

/* ||X||_F of the n x c X of type dt (ld n). */
static double fro(qru_dtype dt, int n, int c, const void *X)
{
    double s2 = 0.0;
    for (int j = 0; j < c; ++j)
        for (int i = 0; i < n; ++i) {
            double v = qru_test_get(dt, X, n, i, j);
            s2 += v * v;
        }
    return sqrt(s2);
}

/* A thin batch created, grown by pa rows, then the rows k .. k+p-1
 * removed; every problem against its updated A1, b1: ||A1 - Q1 R1||,
 * ||I - Q1'Q1||, R1 triangular, d1 = Q1'b1, E1 = b1 - Q1 d1, and the
 * solutions and residual norms against LAPACKE; the defect problem
 * refused and bit for bit as before. */
static void run_qcase(const qcase *c, unsigned *seed)
{
    qru_dtype dt = c->dt;
    int cnt = c->count, m = c->m, r = c->r, n = c->n, pa = c->pa;
    int N0 = n + pa, N1 = N0 - c->p, nu = pa > 0 ? 1 : 0;
    bimg A = bimg_new(dt, n, m, cnt, c->pad), b = bimg_new(dt, n, r, cnt, 0);
    bimg U = bimg_new(dt, pa, m, cnt, c->pad),
         E = bimg_new(dt, pa, r, cnt, 0);
    bimg_rand(&A, seed);
    bimg_rand(&b, seed);
    bimg_rand(&U, seed);
    bimg_rand(&E, seed);
    for (int i = 0; i < cnt && c->dom > 0; ++i)
        for (int t = c->k; t < c->k + c->p; ++t)
            for (int j = 0; j < m; ++j) {
                void *pg = bimg_page(&A, i);
                qru_test_set(dt, pg, A.ld, t, j,
                             qru_test_get(dt, pg, A.ld, t, j) *
                                 pow(10.0, 1 + i % c->dom));
            }
    for (int i = 0; i < cnt && c->near > 0; ++i) {
        void *pg = bimg_page(&A, i);
        double sc = pow(10.0, 1 + i % c->near);
        for (int j = 0; j < m; ++j) {
            double a = qru_test_urand(seed);
            for (int t = c->k; t < c->k + c->p; ++t)
                qru_test_set(dt, pg, A.ld, t, j,
                             qru_test_get(dt, pg, A.ld, t, j) + sc * a);
        }
    }
    if (c->defect < cnt)
        for (int i = 0; i < N0; ++i)
            if (i < c->k || i >= c->k + c->p) {
                if (i < n)
                    qru_test_set(dt, bimg_page(&A, c->defect), A.ld, i, 0, 0);
                else
                    qru_test_set(dt, bimg_page(&U, c->defect), U.ld, i - n,
                                 0, 0);
            }
    qru_lsq_batch *fb = thin_create(&A, &b, c->cap);
    if (pa > 0) {
        bimg_upload(&U);
        bimg_upload(&E);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E.B), 0);
    }
    qstate before = get_qstate(fb, dt);
    int *info = malloc(sizeof(int) * (cnt + 1));
    int st = qru_lsq_batch_remove_rows(fb, c->k, c->p, info);
    ck_assert_int_eq(st, c->defect < cnt ? 1 : 0);
    bimg X = bimg_new(dt, m, r, cnt, 0);
    bimg_upload(&X);
    int *sinfo = malloc(sizeof(int) * (cnt + 1));
    ck_assert_int_eq(qru_lsq_batch_solve(fb, X.B, sinfo), 0);
    void *Xh = qru_test_download(X.flat);
    qstate after = get_qstate(fb, dt);
    size_t es = qru_test_elsize(dt);
    int nq = c->defect < cnt ? N0 : N1; /* the rows of the Q pages */
    for (int i = 0; i < cnt; ++i) {
        if (i == c->defect) {
            ck_assert_msg(info[i] > 0, "problem %d: info %d", i, info[i]);
            ck_assert_int_eq(qru_lsq_batch_rows(fb, i), N0);
            ck_assert(same_problem(&before, &after, i, m, r, dt));
            continue;
        }
        ck_assert_msg(info[i] == 0, "problem %d: info %d", i, info[i]);
        ck_assert_int_eq(qru_lsq_batch_rows(fb, i), N1);
        void *S = stack(dt, &A, &U, nu, i, N0, m);
        void *Sb = stack(dt, &b, &E, nu, i, N0, r);
        void *A1 = drop_rows(dt, S, N0, m, c->k, c->p);
        void *b1 = drop_rows(dt, Sb, N0, r, c->k, c->p);
        const void *Qp = (const char *)after.Q + i * after.bytes_q;
        const void *Ep = (const char *)after.E + i * after.bytes_e;
        const void *Rp = (const char *)after.s.R + i * es * m * m;
        const void *dp = (const char *)after.s.d + i * es * m * r;
        /* the removal is backward stable with respect to A: errors
         * relative to A1 are scaled by ||A||_F / ||A1||_F (b's rows are
         * not scaled) */
        double thr = THR * fmax(1.0, fro(dt, N0, m, S) / fro(dt, N1, m, A1));
        double be = qru_test_backward_error_econ(dt, N1, m, A1, N1, Qp, nq,
                                                 Rp, m);
        /* Q1's orthogonality is not scaled (the completion's second
         * pass where Rz is ill-conditioned) */
        double oe = qru_test_orth_error_cols(dt, N1, m, Qp, nq);
        ck_assert_msg(be < thr && oe < THR,
                      "problem %d (n %d m %d k %d p %d): ||A1 - Q1 R1|| %g, "
                      "||I - Q1'Q1|| %g",
                      i, N0, m, c->k, c->p, be, oe);
        ck_assert(qru_test_lower_max(dt, m, m, Rp, m) == 0.0);
        /* d1 = Q1' b1 and E1 = b1 - Q1 d1 */
        double de, ee;
        rhs_errors(dt, N1, m, r, b1, N1, Qp, Ep, nq, dp, &de, &ee);
        ck_assert_msg(de < thr && ee < thr, "problem %d: d error %g, E error "
                                            "%g",
                      i, de, ee);
        ck_assert_int_eq(sinfo[i], 0);
        double xe, re;
        qru_test_lsq_errors(dt, N1, m, r, A1, N1, b1, N1,
                            (char *)Xh + (size_t)i * X.stride * es, X.ld,
                            after.s.rho + (size_t)i * r, &xe, &re);
        ck_assert_msg(xe < thr && re < thr,
                      "problem %d (m %d N %d): x error %g, residual error %g",
                      i, m, N1, xe, re);
        free(S);
        free(Sb);
        free(A1);
        free(b1);
    }
    free_qstate(&before);
    free_qstate(&after);
    free(info);
    free(sinfo);
    free(Xh);
    qru_lsq_batch_destroy(fb);
    bimg_free(&X);
    bimg_free(&A);
    bimg_free(&b);
    bimg_free(&U);
    bimg_free(&E);
}

/* ---- the thin creation (one lsq_batch_geqr_thin op) ------------------ */

typedef struct ccase {
    qru_dtype dt;
    int count, m, n, r;
    int pad; /* padded pages of A */
    int cap; /* opt->row_capacity */
    int nan; /* problem 5 (if < count) gets a NaN (CHECK_FINITE off) */
} ccase;

/* The pages of the creation cases: problem i % 6 == 1 has a zero column
 * (a reflector with tau = 0), 2 its last column equal to its first (both
 * rank-deficient: created, then refused by the solve), 3 and 4 are
 * scaled by 2^-460 and 2^460 (float 2^-55, 2^55: the sums of squares
 * leave [QRU_RANGE_LO, QRU_RANGE_HI], so the kernel's norms rescale),
 * 5 holds a NaN where nan is set; the others are plain. */
static int ccase_kind(const ccase *c, int i)
{
    int k = i % 6;
    if (k == 2 && c->m < 2)
        return 0;
    if (k == 5 && !c->nan)
        return 0;
    return k;
}

/* The thin batch of fresh pages: for every problem A = Q1 R (||A - Q1 R||,
 * ||I - Q1'Q1||), R exactly upper triangular, d = Q1'b and E = b - Q1 d;
 * a plain page with n >= 2 m (well conditioned) against LAPACKE dgeqrf's
 * R, signs included; the solve against LAPACKE dgels for full-rank pages,
 * its refusal of the rank-deficient and the NaN page. */
static void run_ccase(const ccase *c, unsigned *seed)
{
    qru_dtype dt = c->dt;
    int cnt = c->count, m = c->m, r = c->r, n = c->n;
    size_t es = qru_test_elsize(dt);
    double big = dt == QRU_DOUBLE ? ldexp(1.0, 460) : ldexp(1.0, 55);
    bimg A = bimg_new(dt, n, m, cnt, c->pad), b = bimg_new(dt, n, r, cnt, 0);
    bimg_rand(&A, seed);
    bimg_rand(&b, seed);
    for (int i = 0; i < cnt; ++i) {
        void *Ai = bimg_page(&A, i);
        int kind = ccase_kind(c, i);
        for (int t = 0; t < n; ++t) {
            if (kind == 1)
                qru_test_set(dt, Ai, A.ld, t, m / 2, 0.0);
            if (kind == 2)
                qru_test_set(dt, Ai, A.ld, t, m - 1,
                             qru_test_get(dt, Ai, A.ld, t, 0));
            for (int j = 0; (kind == 3 || kind == 4) && j < m; ++j)
                qru_test_set(dt, Ai, A.ld, t, j,
                             qru_test_get(dt, Ai, A.ld, t, j) *
                                 (kind == 3 ? 1.0 / big : big));
        }
        if (kind == 5)
            qru_test_set(dt, Ai, A.ld, n / 2, m / 2, NAN);
    }
    qru_lsq_batch *fb = thin_create(&A, &b, c->cap);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, cnt - 1), cnt > 0 ? n : -1);
    qstate q = get_qstate(fb, dt);
    bimg X = bimg_new(dt, m, r, cnt, 0);
    bimg_upload(&X);
    int *sinfo = malloc(sizeof(int) * (cnt + 1));
    int st = qru_lsq_batch_solve(fb, X.B, sinfo);
    void *Xh = qru_test_download(X.flat);
    int refused = 0;
    for (int i = 0; i < cnt; ++i) {
        int kind = ccase_kind(c, i);
        void *Ai = qru_test_alloc(dt, n, m, n), *bi = bimg_page(&b, i);
        for (int j = 0; j < m; ++j)
            for (int t = 0; t < n; ++t)
                qru_test_set(dt, Ai, n, t, j,
                             qru_test_get(dt, bimg_page(&A, i), A.ld, t, j));
        const void *Qp = (const char *)q.Q + i * q.bytes_q;
        const void *Ep = (const char *)q.E + i * q.bytes_e;
        const void *Rp = (const char *)q.s.R + i * es * m * m;
        const void *dp = (const char *)q.s.d + i * es * m * r;
        if (kind == 5) { /* refused; the others untouched by its NaN */
            ck_assert_msg(sinfo[i] > 0, "problem %d: info %d", i, sinfo[i]);
            ++refused;
            free(Ai);
            continue;
        }
        double be = qru_test_backward_error_econ(dt, n, m, Ai, n, Qp, n, Rp,
                                                 m);
        double oe = qru_test_orth_error_cols(dt, n, m, Qp, n);
        ck_assert_msg(be < THR && oe < THR,
                      "problem %d (n %d m %d kind %d): ||A - Q1 R|| %g, "
                      "||I - Q1'Q1|| %g",
                      i, n, m, kind, be, oe);
        ck_assert(qru_test_lower_max(dt, m, m, Rp, m) == 0.0);
        double de, ee;
        rhs_errors(dt, n, m, r, bi, b.ld, Qp, Ep, n, dp, &de, &ee);
        ck_assert_msg(de < THR && ee < THR,
                      "problem %d (n %d m %d kind %d): d error %g, E error "
                      "%g",
                      i, n, m, kind, de, ee);
        if (kind == 0 && n >= 2 * m) { /* R as LAPACK's, signs included */
            double *Ad = malloc(sizeof(double) * (size_t)n * m);
            double *tau = malloc(sizeof(double) * (size_t)m);
            for (int j = 0; j < m; ++j)
                for (int t = 0; t < n; ++t)
                    Ad[t + (size_t)j * n] = qru_test_get(dt, Ai, n, t, j);
            ck_assert_int_eq(
                LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, m, Ad, n, tau), 0);
            for (int j = 0; j < m; ++j) /* R's zeros */
                for (int t = j + 1; t < m; ++t)
                    Ad[t + (size_t)j * n] = 0.0;
            void *Rref = qru_test_from_double(dt, m, m, m, Ad, n, 'A', 0, 0);
            double rd = qru_test_diff(dt, m, m, Rp, m, Rref, m);
            ck_assert_msg(rd < THR, "problem %d (n %d m %d): R against "
                                    "LAPACKE %g",
                          i, n, m, rd);
            free(Rref);
            free(Ad);
            free(tau);
        }
        if (kind == 1 || kind == 2) {
            ck_assert_msg(sinfo[i] > 0, "problem %d: info %d", i, sinfo[i]);
            ++refused;
        } else {
            ck_assert_msg(sinfo[i] == 0, "problem %d: info %d", i, sinfo[i]);
            double xe, re;
            qru_test_lsq_errors(dt, n, m, r, Ai, n, bi, b.ld,
                                (char *)Xh + (size_t)i * X.stride * es, X.ld,
                                q.s.rho + (size_t)i * r, &xe, &re);
            ck_assert_msg(xe < THR && re < THR,
                          "problem %d (n %d m %d kind %d): x error %g, "
                          "residual error %g",
                          i, n, m, kind, xe, re);
        }
        free(Ai);
    }
    ck_assert_int_eq(st, refused);
    free_qstate(&q);
    free(sinfo);
    free(Xh);
    qru_lsq_batch_destroy(fb);
    bimg_free(&X);
    bimg_free(&A);
    bimg_free(&b);
}

/* The creation around the kernel's shapes: m = 1, m = n, m larger than
 * the work-group (256 items), n not a multiple of the work-group or of
 * the 8 columns a block sum carries (m + r = 8, 9, 17), row capacities
 * beyond n, padded pages, a count of 0 (the row removal's tests create
 * their batches the same way). */
START_TEST(test_lsq_batch_q_create)
{
    unsigned seed = 2027u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        ccase cs[] = {
            {dt, 6, 1, 1, 1, 0, 0, 0},     {dt, 6, 1, 37, 2, 1, 40, 0},
            {dt, 6, 5, 5, 1, 1, 0, 0},     {dt, 6, 33, 33, 2, 0, 0, 1},
            {dt, 6, 7, 31, 1, 0, 0, 1},    {dt, 6, 8, 257, 1, 1, 300, 0},
            {dt, 6, 15, 100, 2, 0, 0, 0},  {dt, 7, 20, 200, 1, 0, 0, 1},
            {dt, 3, 64, 64, 1, 1, 0, 0},   {dt, 6, 40, 1003, 1, 0, 0, 0},
            {dt, 6, 260, 301, 2, 1, 0, 1},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k)
            run_ccase(&cs[k], &seed);
        /* count 0 */
        bimg A = bimg_new(dt, 9, 4, 0, 0), b = bimg_new(dt, 9, 1, 0, 0);
        bimg_upload(&A);
        bimg_upload(&b);
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        qru_lsq_batch *fb = NULL;
        ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb),
                         0);
        ck_assert_int_eq(qru_lsq_batch_count(fb), 0);
        qru_lsq_batch_destroy(fb);
        bimg_free(&A);
        bimg_free(&b);
    }
}
END_TEST

/* Sizes around the work-group (32 .. 256 rows) and the blocks of 8
 * sweeps or rows a pass carries; k at the start, in the middle and at
 * the end; p = 1 and p > 1. */
START_TEST(test_lsq_batch_q_grid)
{
    unsigned seed = 4321u + (unsigned)_i;
    static const int NS[4] = {31, 33, 64, 257};
    static const int PS[5] = {1, 3, 8, 9, 17};
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int n = NS[_i];
        for (int a = 0; a < 5; ++a) {
            int p = PS[a];
            int m = (a * 7 + _i * 3) % (n / 2 > 12 ? 12 : n / 2) + 1;
            if (n - p < m)
                continue;
            int ks[3] = {0, (n - p) / 2, n - p};
            for (int kk = 0; kk < 3; ++kk) {
                qcase c = {dt, 3, m, n, 1 + (a + kk) % 2, 0, ks[kk], p,
                           (a + kk) % 2, 1 << 30, 0, 0, 0};
                run_qcase(&c, &seed);
            }
        }
    }
}
END_TEST

/* Rows added first (within and beyond the row capacity), larger counts
 * and m, a refused removal among good ones, and removed rows that
 * carry most of A. */
START_TEST(test_lsq_batch_q_cases)
{
    unsigned seed = 77u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int dom = dt == QRU_FLOAT ? 2 : 4;
        qcase cs[] = {
            {dt, 1, 1, 1, 1, 2, 1, 2, 0, 1 << 30, 0, 0, 0},
            {dt, 4, 5, 20, 2, 3, 10, 4, 1, 1 << 30, 0, 0, 0},
            {dt, 4, 5, 20, 2, 3, 21, 2, 0, 1 << 30, 40, 0, 0},
            {dt, 4, 5, 20, 1, 9, 0, 1, 1, 1 << 30, 0, 0, 0},
            {dt, 20, 12, 40, 2, 0, 7, 5, 0, 1 << 30, 0, 0, 0},
            {dt, 5, 33, 70, 1, 1, 30, 5, 0, 2, 0, 0, 0},
            {dt, 5, 8, 30, 2, 2, 0, 3, 1, 0, 0, 0, 0},
            {dt, 5, 8, 30, 1, 0, 29, 1, 0, 4, 0, 0, 0},
            {dt, 3, 20, 300, 1, 0, 100, 5, 0, 1, 0, 0, 0},
            /* removed rows that carry most of A (scaled by 1e1 .. 1e4,
             * float 1e1, 1e2): m = 1, p = 1, p > 1, p > m, near-square */
            {dt, 4, 1, 40, 2, 0, 0, 1, 0, 1 << 30, 0, dom, 0},
            {dt, 4, 5, 40, 2, 0, 20, 1, 0, 1 << 30, 0, dom, 0},
            {dt, 4, 5, 40, 2, 0, 37, 3, 0, 1 << 30, 0, dom, 0},
            {dt, 4, 3, 40, 1, 0, 17, 6, 1, 1 << 30, 0, dom, 0},
            {dt, 4, 12, 13, 2, 0, 12, 1, 0, 1 << 30, 0, dom, 0},
            {dt, 4, 12, 16, 2, 0, 6, 3, 0, 1 << 30, 0, dom, 0},
            /* removed rows near one common dominant row (10 .. 1e4,
             * float 10, 100): p = 2, 3, 5; tall and A1 nearly square; k
             * at the start, middle and end */
            {dt, 4, 6, 40, 1, 0, 0, 2, 0, 1 << 30, 0, 0, dom},
            {dt, 4, 6, 40, 2, 0, 18, 3, 0, 1 << 30, 0, 0, dom},
            {dt, 4, 6, 40, 1, 0, 35, 5, 0, 1 << 30, 0, 0, dom},
            {dt, 4, 6, 8, 1, 0, 3, 2, 0, 1 << 30, 0, 0, dom},
            {dt, 4, 5, 8, 2, 0, 0, 3, 0, 1 << 30, 0, 0, dom},
            {dt, 4, 12, 17, 1, 0, 12, 5, 0, 1 << 30, 0, 0, dom},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k)
            run_qcase(&cs[k], &seed);
    }
}
END_TEST

/* Non-finite data: the scans of create_ex and add_rows with the check on
 * (-i, the batch bit for bit); without it a NaN row added to one problem
 * makes its removal fail (bit for bit) and the others pass. */
START_TEST(test_lsq_batch_q_nonfinite)
{
    unsigned seed = 17u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int cnt = 4, m = 3, n = 10, r = 1;
        bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
        bimg U = bimg_new(dt, 1, m, cnt, 0), E = bimg_new(dt, 1, r, cnt, 0);
        bimg_rand(&A, &seed);
        bimg_rand(&b, &seed);
        bimg_rand(&U, &seed);
        bimg_rand(&E, &seed);
        qru_test_set(dt, bimg_page(&U, 1), U.ld, 0, 2, NAN);
        bimg_upload(&A);
        bimg_upload(&b);
        bimg_upload(&U);
        bimg_upload(&E);
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        qru_lsq_batch *fb = NULL, *f2 = NULL;
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
        ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, U.B, E.B, &opt, &f2),
                         -2);
        ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb),
                         0);
        qstate s0 = get_qstate(fb, dt);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E.B), -2);
        qstate s1 = get_qstate(fb, dt);
        for (int i = 0; i < cnt; ++i)
            ck_assert(same_problem(&s0, &s1, i, m, r, dt));
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U.B, E.B), 0);
        qstate s2 = get_qstate(fb, dt);
        int info[4];
        ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 2, 2, info), 1);
        qstate s3 = get_qstate(fb, dt);
        for (int i = 0; i < cnt; ++i) {
            ck_assert_int_eq(info[i] > 0, i == 1);
            ck_assert_int_eq(qru_lsq_batch_rows(fb, i),
                             i == 1 ? n + 1 : n - 1);
        }
        ck_assert(same_problem(&s2, &s3, 1, m, r, dt));
        free_qstate(&s0);
        free_qstate(&s1);
        free_qstate(&s2);
        free_qstate(&s3);
        qru_lsq_batch_destroy(fb);
        bimg_free(&A);
        bimg_free(&b);
        bimg_free(&U);
        bimg_free(&E);
    }
}
END_TEST

/* The checks of create_ex, remove_rows, get_q and get_residuals, in
 * order, the batch bit for bit after each; the Q-less form's refusals. */
/* get_qstate of a batch of either form (Q-less: no Q and E, 0 bytes). */
static qstate get_any_state(qru_lsq_batch *fb, qru_dtype dt)
{
    if (qru_lsq_batch_q_form(fb) == QRU_Q_THIN)
        return get_qstate(fb, dt);
    qstate q;
    int cnt = qru_lsq_batch_count(fb);
    q.nr = malloc(sizeof(int) * (size_t)(cnt + 1));
    for (int i = 0; i < cnt; ++i)
        q.nr[i] = qru_lsq_batch_rows(fb, i);
    q.s = get_state(fb, dt);
    q.Q = malloc(8);
    q.E = malloc(8);
    q.bytes_q = q.bytes_e = 0;
    return q;
}

/* qru_lsq_batch_add_rows_ex: problem i gains the first rows[i] of its p
 * rows (0 for some, p for some), in each form.  A problem that gains none
 * is bit for bit as before; the others against their stacked rows
 * ([A_i; U_i(1:rows_i, :)]): R'R, the solution and the residual norms
 * (and the thin form's Q1 and E: ||A1 - Q1 R||, Q1'b1 = d, E = b1 - Q1 d),
 * and their row counts; all p rows for every problem are
 * qru_lsq_batch_add_rows() bit for bit; a row count out of 0 .. p is -4
 * with the batch unchanged.  _i: element type, form. */
START_TEST(test_lsq_batch_rows_each)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    int thin = _i / 2;
    static const int ms[3] = {3, 20, 33};
    unsigned seed = 4242u + 31u * (unsigned)_i;
    for (int t = 0; t < 3; ++t) {
        int m = ms[t], n = 2 * m + 1, p = 4, r = 2, cnt = 11;
        bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
        bimg U = bimg_new(dt, p, m, cnt, 1), E = bimg_new(dt, p, r, cnt, 0);
        bimg *const all4[4] = {&A, &b, &U, &E};
        bimgs_rand(all4, 4, &seed);
        bimg_upload(&U);
        bimg_upload(&E);
        int rows[11];
        for (int i = 0; i < cnt; ++i) /* 0 and p among them, runs too */
            rows[i] = i < 2 ? p : (i * 3) % (p + 1);
        qru_lsq_batch *fb, *fa;
        if (thin) {
            fb = thin_create(&A, &b, 0);
            fa = thin_create(&A, &b, 0);
        } else {
            bimg_upload(&A);
            bimg_upload(&b);
            ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, &fb), 0);
            ck_assert_int_eq(qru_lsq_batch_create(ctx, A.B, b.B, &fa), 0);
        }
        qstate q0 = get_any_state(fb, dt);
        int bad[11];
        memcpy(bad, rows, sizeof bad);
        bad[5] = p + 1;
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, U.B, E.B, bad), -4);
        bad[5] = -1;
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, U.B, E.B, bad), -4);
        qstate q1 = get_any_state(fb, dt);
        for (int i = 0; i < cnt; ++i)
            ck_assert(same_problem(&q0, &q1, i, m, r, dt));
        free_qstate(&q1);
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, U.B, E.B, rows), 0);
        q1 = get_any_state(fb, dt);
        bimg X;
        int info[11];
        void *Xh = solved(fb, dt, &X, info);
        size_t es = qru_test_elsize(dt);
        for (int i = 0; i < cnt; ++i) {
            int N = n + rows[i];
            ck_assert_int_eq(qru_lsq_batch_rows(fb, i), N);
            ck_assert_int_eq(info[i], 0);
            if (rows[i] == 0) { /* as before, to the bit (but n's pages) */
                ck_assert(!memcmp((char *)q0.s.R + i * es * m * m,
                                  (char *)q1.s.R + i * es * m * m,
                                  es * m * m));
                ck_assert(!memcmp((char *)q0.s.d + i * es * m * r,
                                  (char *)q1.s.d + i * es * m * r,
                                  es * m * r));
                ck_assert(!memcmp(q0.s.rho + (size_t)i * r,
                                  q1.s.rho + (size_t)i * r,
                                  sizeof(double) * r));
            }
            bimg Ui = U, Ei = E;
            Ui.rows = Ei.rows = rows[i];
            void *A1 = stack(dt, &A, &Ui, 1, i, N, m);
            void *b1 = stack(dt, &b, &Ei, 1, i, N, r);
            const void *Rp = (const char *)q1.s.R + (size_t)i * m * m * es;
            double ge = gram_error(dt, N, m, A1, Rp, m);
            ck_assert_msg(ge < THR, "m %d problem %d (%d rows): R'R error %g",
                          m, i, rows[i], ge);
            double xe, re;
            qru_test_lsq_errors(dt, N, m, r, A1, N, b1, N,
                                (char *)Xh + (size_t)i * X.stride * es, X.ld,
                                q1.s.rho + (size_t)i * r, &xe, &re);
            ck_assert_msg(xe < THR && re < THR, "m %d problem %d: x error "
                          "%g, residual error %g", m, i, xe, re);
            if (thin) {
                int nq = (int)(q1.bytes_q / (es * (size_t)m));
                const char *Qp = (const char *)q1.Q + i * q1.bytes_q;
                const char *Ep = (const char *)q1.E + i * q1.bytes_e;
                double de, ee;
                rhs_errors(dt, N, m, r, b1, N, Qp, Ep, nq,
                           (const char *)q1.s.d + (size_t)i * m * r * es,
                           &de, &ee);
                ck_assert_msg(de < THR && ee < THR, "m %d problem %d: d "
                              "error %g, E error %g", m, i, de, ee);
                double fe = qru_test_backward_error_econ(dt, N, m, A1, N, Qp,
                                                         nq, Rp, m);
                double oe = qru_test_orth_error_cols(dt, N, m, Qp, nq);
                ck_assert_msg(fe < THR && oe < THR, "m %d problem %d: A1 - "
                              "Q1 R %g, orthogonality %g", m, i, fe, oe);
            }
            free(A1);
            free(b1);
        }
        /* every problem all p rows: qru_lsq_batch_add_rows, to the bit */
        int all[11];
        for (int i = 0; i < cnt; ++i)
            all[i] = p;
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, U.B, E.B, all), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fa, U.B, E.B), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fa, U.B, E.B, rows), 0);
        qstate qa = get_any_state(fa, dt), qb = get_any_state(fb, dt);
        for (int i = 0; i < cnt; ++i)
            if (rows[i] == p)
                ck_assert(same_problem(&qa, &qb, i, m, r, dt));
        free_qstate(&qa);
        free_qstate(&qb);
        free_qstate(&q0);
        free_qstate(&q1);
        free(Xh);
        bimg_free(&X);
        qru_lsq_batch_destroy(fb);
        qru_lsq_batch_destroy(fa);
        bimgs_free(all4, 4);
    }
}
END_TEST

/* Problem i of the thin states a and b alike, bit for bit: its row
 * count, R, d, the residual norms and the first nr[i] rows of its Q1 and
 * E (the states' pages may differ in height). */
static int same_thin_problem(const qstate *a, const qstate *b, int i, int m,
                             int r, qru_dtype dt)
{
    size_t es = qru_test_elsize(dt);
    int na = (int)(a->bytes_q / (es * (size_t)m)),
        nb = (int)(b->bytes_q / (es * (size_t)m)), n = a->nr[i];
    if (a->nr[i] != b->nr[i] ||
        memcmp((char *)a->s.R + i * es * m * m,
               (char *)b->s.R + i * es * m * m, es * m * m) ||
        memcmp((char *)a->s.d + i * es * m * r,
               (char *)b->s.d + i * es * m * r, es * m * r) ||
        memcmp(a->s.rho + (size_t)i * r, b->s.rho + (size_t)i * r,
               sizeof(double) * r))
        return 0;
    for (int j = 0; j < m + r; ++j) {
        const char *x = j < m ? (char *)a->Q + i * a->bytes_q + j * es * na
                              : (char *)a->E + i * a->bytes_e +
                                    (j - m) * es * na;
        const char *y = j < m ? (char *)b->Q + i * b->bytes_q + j * es * nb
                              : (char *)b->E + i * b->bytes_e +
                                    (j - m) * es * nb;
        if (memcmp(x, y, es * (size_t)n))
            return 0;
    }
    return 1;
}

/* qru_lsq_batch_remove_rows_ex: problem i of a thin batch whose problems
 * hold different row counts (rows added by qru_lsq_batch_add_rows_ex)
 * loses the rows k .. k+rows[i]-1 (0 for some, p for some, runs of one
 * number and of one row count, k at the start and in the middle).  A
 * problem that loses none is bit for bit as before (one of them would be
 * refused if it took part), one planted problem refuses its removal (bit
 * for bit, its rows kept); the others against their stacked rows without
 * the removed ones: ||A1 - Q1 R1||, ||I - Q1'Q1||, d1 = Q1'b1, E1 = b1 -
 * Q1 d1, the solution and the residual norms against LAPACKE; all p rows
 * for every problem are qru_lsq_batch_remove_rows() bit for bit; bad
 * counts -5 (after p's check), no count at all 0 without a change.  _i:
 * the element type, k. */
START_TEST(test_lsq_batch_rm_each)
{
    qru_dtype dt = qru_test_dtype(ctx, _i % qru_test_ndtypes(ctx));
    static const int ms[3] = {3, 20, 33};
    static const int rw[13] = {5, 5, 0, 1, 3, 3, 3, 0, 5, 2, 0, 5, 1};
    static const int ad[13] = {0, 0, 1, 1, 1, 0, 0, 2, 2, 2, 0, 1, 0};
    unsigned seed = 5151u + 37u * (unsigned)_i;
    size_t es = qru_test_elsize(dt);
    for (int t = 0; t < 3; ++t) {
        int m = ms[t], n = 2 * m + 6, p = 5, r = 2, cnt = 13, pa = 2;
        int k = _i / 2 ? m / 2 + 1 : 0, refuse = 4, idle = 7;
        bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
        bimg U = bimg_new(dt, pa, m, cnt, 0), E = bimg_new(dt, pa, r, cnt, 0);
        bimg *const all4[4] = {&A, &b, &U, &E};
        bimgs_rand(all4, 4, &seed);
        /* problem refuse keeps column 0 only in its removed rows; idle
         * only in the rows k .. k+p-1, which it does not lose */
        for (int i = 0; i < n; ++i) {
            if (i < k || i >= k + rw[refuse])
                qru_test_set(dt, bimg_page(&A, refuse), A.ld, i, 0, 0);
            if (i < k || i >= k + p)
                qru_test_set(dt, bimg_page(&A, idle), A.ld, i, 0, 0);
        }
        for (int i = 0; i < pa; ++i) {
            qru_test_set(dt, bimg_page(&U, refuse), U.ld, i, 0, 0);
            qru_test_set(dt, bimg_page(&U, idle), U.ld, i, 0, 0);
        }
        bimg_upload(&U);
        bimg_upload(&E);
        qru_lsq_batch *fb = thin_create(&A, &b, 0),
                      *fa = thin_create(&A, &b, 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, U.B, E.B, ad), 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fa, U.B, E.B, ad), 0);
        qstate q0 = get_qstate(fb, dt);
        /* bad counts: -5 after the checks of k and p, nothing changed */
        int bad[13], info[14];
        memcpy(bad, rw, sizeof bad);
        info[0] = -9;
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, 0, info, bad),
                         -3);
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, -1, p, info, bad),
                         -2);
        bad[5] = p + 1;
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, p, info, bad),
                         -5);
        bad[5] = -1;
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, p, info, bad),
                         -5);
        bad[5] = 1;
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, n + 1, p, info,
                                                      bad),
                         -5); /* k + rows[0] beyond the rows */
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, 0, n, info, NULL),
                         -3);
        bad[5] = n - m + 1; /* A would turn wide */
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, 0, n, info, bad),
                         -5);
        ck_assert_int_eq(info[0], -9);
        int none[13] = {0};
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, p, info, none),
                         0);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i], 0);
        qstate q1 = get_qstate(fb, dt);
        for (int i = 0; i < cnt; ++i)
            ck_assert(same_thin_problem(&q0, &q1, i, m, r, dt));
        free_qstate(&q1);
        /* the removal */
        info[cnt] = -9;
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, p, info, rw),
                         1);
        ck_assert_int_eq(info[cnt], -9);
        q1 = get_qstate(fb, dt);
        bimg X;
        int sinfo[13];
        void *Xh = solved(fb, dt, &X, sinfo);
        for (int i = 0; i < cnt; ++i) {
            int N0 = n + ad[i], N1 = N0 - rw[i];
            if (i == refuse || rw[i] == 0) {
                ck_assert_msg(i == refuse ? info[i] > 0 : info[i] == 0,
                              "m %d problem %d: info %d", m, i, info[i]);
                ck_assert_int_eq(qru_lsq_batch_rows(fb, i), N0);
                ck_assert_msg(same_thin_problem(&q0, &q1, i, m, r, dt),
                              "m %d problem %d changed", m, i);
                if (i == refuse)
                    continue;
            }
            ck_assert_msg(info[i] == 0, "m %d problem %d: info %d", m, i,
                          info[i]);
            ck_assert_int_eq(qru_lsq_batch_rows(fb, i), N1);
            bimg Ui = U, Ei = E;
            Ui.rows = Ei.rows = ad[i];
            void *S = stack(dt, &A, &Ui, 1, i, N0, m);
            void *Sb = stack(dt, &b, &Ei, 1, i, N0, r);
            void *A1 = drop_rows(dt, S, N0, m, k, rw[i]);
            void *b1 = drop_rows(dt, Sb, N0, r, k, rw[i]);
            int nq = (int)(q1.bytes_q / (es * (size_t)m));
            const char *Qp = (const char *)q1.Q + i * q1.bytes_q;
            const char *Ep = (const char *)q1.E + i * q1.bytes_e;
            const char *Rp = (const char *)q1.s.R + (size_t)i * m * m * es;
            const char *dp = (const char *)q1.s.d + (size_t)i * m * r * es;
            double be = qru_test_backward_error_econ(dt, N1, m, A1, N1, Qp,
                                                     nq, Rp, m);
            double oe = qru_test_orth_error_cols(dt, N1, m, Qp, nq);
            ck_assert_msg(be < THR && oe < THR, "m %d problem %d (-%d rows):"
                          " ||A1 - Q1 R1|| %g, ||I - Q1'Q1|| %g",
                          m, i, rw[i], be, oe);
            ck_assert(qru_test_lower_max(dt, m, m, Rp, m) == 0.0);
            double de, ee, xe, re;
            rhs_errors(dt, N1, m, r, b1, N1, Qp, Ep, nq, dp, &de, &ee);
            ck_assert_msg(de < THR && ee < THR, "m %d problem %d: d error "
                          "%g, E error %g", m, i, de, ee);
            ck_assert_int_eq(sinfo[i], 0);
            qru_test_lsq_errors(dt, N1, m, r, A1, N1, b1, N1,
                                (char *)Xh + (size_t)i * X.stride * es, X.ld,
                                q1.s.rho + (size_t)i * r, &xe, &re);
            ck_assert_msg(xe < THR && re < THR, "m %d problem %d: x error "
                          "%g, residual error %g", m, i, xe, re);
            free(S);
            free(Sb);
            free(A1);
            free(b1);
        }
        /* every problem p rows (the refusing one aside, which cannot
         * lose them): qru_lsq_batch_remove_rows to the bit, on fa */
        int all[13];
        for (int i = 0; i < cnt; ++i)
            all[i] = i == refuse || i == idle ? 0 : p;
        qru_lsq_batch *fc = thin_create(&A, &b, 0);
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fc, U.B, E.B, ad), 0);
        ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fc, k, p, NULL, all),
                         0);
        ck_assert_int_eq(qru_lsq_batch_remove_rows(fa, k, p, info), 2);
        qstate qa = get_qstate(fa, dt), qc = get_qstate(fc, dt);
        for (int i = 0; i < cnt; ++i)
            if (all[i])
                ck_assert_msg(same_thin_problem(&qa, &qc, i, m, r, dt),
                              "m %d problem %d: not remove_rows's", m, i);
        free_qstate(&qa);
        free_qstate(&qc);
        free_qstate(&q0);
        free_qstate(&q1);
        free(Xh);
        bimg_free(&X);
        qru_lsq_batch_destroy(fc);
        qru_lsq_batch_destroy(fb);
        qru_lsq_batch_destroy(fa);
        bimgs_free(all4, 4);
    }
}
END_TEST

/* qru_lsq_batch_add_rows_solve on the thin and full forms: the same
 * numbers, bit for bit, as qru_lsq_batch_add_rows then
 * qru_lsq_batch_solve on a twin batch (those checked against LAPACK
 * above), a rank-deficient problem among them. */
START_TEST(test_lsq_batch_q_add_solve)
{
    unsigned seed = 515u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        for (int form = 0; form < 2; ++form) {
            int cnt = 5, m = 6, n = 9, p = 3, r = 2;
            bimg A = bimg_new(dt, n, m, cnt, 1), b = bimg_new(dt, n, r, cnt, 0);
            bimg U = bimg_new(dt, p, m, cnt, 0), E = bimg_new(dt, p, r, cnt, 0);
            bimg X1 = bimg_new(dt, m, r, cnt, 0), X2 = bimg_new(dt, m, r, cnt, 0);
            bimg *all[] = {&A, &b, &U, &E};
            bimgs_rand(all, 4, &seed);
            for (int k = 0; k < n; ++k) /* problem 3: column 1 = column 0 */
                qru_test_set(dt, bimg_page(&A, 3), A.ld, k, 1,
                             qru_test_get(dt, bimg_page(&A, 3), A.ld, k, 0));
            for (int k = 0; k < p; ++k)
                qru_test_set(dt, bimg_page(&U, 3), U.ld, k, 1,
                             qru_test_get(dt, bimg_page(&U, 3), U.ld, k, 0));
            bimg_upload(&A);
            bimg_upload(&b);
            bimg_upload(&U);
            bimg_upload(&E);
            bimg_upload(&X1);
            bimg_upload(&X2);
            qru_lsq_options opt;
            qru_lsq_options_init(&opt);
            opt.q = form ? QRU_Q_FULL : QRU_Q_THIN;
            qru_lsq_batch *f1 = NULL, *f2 = NULL;
            ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &f1),
                             0);
            ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &f2),
                             0);
            int i1[5], i2[5];
            ck_assert_int_eq(qru_lsq_batch_add_rows_solve(f1, U.B, E.B, X1.B,
                                                          i1), 1);
            ck_assert_int_eq(qru_lsq_batch_add_rows(f2, U.B, E.B), 0);
            ck_assert_int_eq(qru_lsq_batch_solve(f2, X2.B, i2), 1);
            ck_assert_int_eq(memcmp(i1, i2, sizeof i1), 0);
            ck_assert(i1[3] > 0);
            void *x1 = qru_test_download(X1.flat),
                 *x2 = qru_test_download(X2.flat);
            ck_assert_int_eq(memcmp(x1, x2, X1.size * qru_test_elsize(dt)), 0);
            int N = n + p, qc = form ? N : m, dr = form ? N : m;
            void *h1[4] = {batch_host(dt, m, m, cnt, qru_lsq_batch_get_r, f1),
                           batch_host(dt, dr, r, cnt, qru_lsq_batch_get_d, f1),
                           batch_host(dt, N, qc, cnt, qru_lsq_batch_get_q, f1),
                           batch_host(dt, N, r, cnt,
                                      qru_lsq_batch_get_residuals, f1)};
            void *h2[4] = {batch_host(dt, m, m, cnt, qru_lsq_batch_get_r, f2),
                           batch_host(dt, dr, r, cnt, qru_lsq_batch_get_d, f2),
                           batch_host(dt, N, qc, cnt, qru_lsq_batch_get_q, f2),
                           batch_host(dt, N, r, cnt,
                                      qru_lsq_batch_get_residuals, f2)};
            size_t es = qru_test_elsize(dt) * (size_t)cnt;
            size_t bytes[4] = {es * m * m, es * dr * r, es * N * qc,
                               es * N * r};
            for (int k = 0; k < 4; ++k) {
                ck_assert_msg(memcmp(h1[k], h2[k], bytes[k]) == 0,
                              "form %d: array %d differs", form, k);
                free(h1[k]);
                free(h2[k]);
            }
            for (int i = 0; i < cnt; ++i)
                ck_assert_int_eq(qru_lsq_batch_rows(f1, i), N);
            free(x1);
            free(x2);
            qru_lsq_batch_destroy(f1);
            qru_lsq_batch_destroy(f2);
            bimg *fr[] = {&A, &b, &U, &E, &X1, &X2};
            bimgs_free(fr, 6);
        }
    }
}
END_TEST

START_TEST(test_lsq_batch_q_args)
{
    unsigned seed = 5u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int cnt = 3, m = 4, n = 9, r = 2;
    bimg A = bimg_new(dt, n, m, cnt, 0), b = bimg_new(dt, n, r, cnt, 0);
    bimg_rand(&A, &seed);
    bimg_rand(&b, &seed);
    bimg_upload(&A);
    bimg_upload(&b);
    qru_matrix *Aw = NULL, *bw = NULL, *Qb = NULL, *Qc = NULL, *Eb = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, m, 0, cnt, 0, &Aw),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, r, 0, cnt, 0, &bw),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n - 1, m, 0, cnt, 0,
                                             &Qb), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, cnt + 1, 0,
                                             &Qc), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r + 1, 0, cnt, 0,
                                             &Eb), 0);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    qru_lsq_batch *fb = NULL, *fq = NULL;
    /* create_ex */
    ck_assert_int_eq(qru_lsq_batch_create_ex(NULL, A.B, b.B, &opt, &fb), -1);
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, NULL, b.B, &opt, &fb), -2);
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, NULL, &opt, &fb), -3);
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, Aw, bw, &opt, &fb), -4);
    opt.q = 7;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), -4);
    opt.q = QRU_Q_THIN;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, Aw, bw, &opt, &fb), -4);
    opt.nb = -1;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), -4);
    opt.nb = 0;
    opt.row_capacity = n - 1;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), -4);
    opt.row_capacity = 0;
    opt.adopt = QRU_ADOPT_Q;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), -4);
    opt.adopt = 0;
    opt.rank = 5;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), -4);
    opt.rank = QRU_RANK_REFUSE;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, NULL), -5);
    ck_assert(fb == NULL);
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, &opt, &fb), 0);
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A.B, b.B, NULL, &fq), 0);
    ck_assert_int_eq(qru_lsq_batch_q_form(fq), QRU_Q_NONE);
    ck_assert_int_eq(qru_lsq_batch_q_form(NULL), -1);
    qstate s0 = get_qstate(fb, dt);
    /* remove_rows */
    int info[3] = {-5, -5, -5};
    ck_assert_int_eq(qru_lsq_batch_remove_rows(NULL, 0, 1, info), -1);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, -1, 1, info), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, n, 1, info), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 0, 0, info), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, n - 2, 3, info), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 0, n - m + 1, info), -3);
    ck_assert_int_eq(info[0], -5);
    /* the Q-less form: the checks first, then QRU_ERR_NO_Q */
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fq, n, 1, info), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fq, 0, 1, info),
                     QRU_ERR_NO_Q);
    ck_assert_int_eq(qru_lsq_batch_get_q(fq, Qc), QRU_ERR_NO_Q);
    ck_assert_int_eq(qru_lsq_batch_get_residuals(fq, Eb), QRU_ERR_NO_Q);
    ck_assert_int_eq(info[0], -5);
    /* the readers */
    ck_assert_int_eq(qru_lsq_batch_get_q(NULL, Qb), -1);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, NULL), -2);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, Qb), -2);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, Qc), -2);
    ck_assert_int_eq(qru_lsq_batch_get_residuals(NULL, Eb), -1);
    ck_assert_int_eq(qru_lsq_batch_get_residuals(fb, Eb), -2);
    qstate s1 = get_qstate(fb, dt);
    for (int i = 0; i < cnt; ++i)
        ck_assert(same_problem(&s0, &s1, i, m, r, dt));
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 0, n - m, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_rows(fb, 2), m);
    free_qstate(&s0);
    free_qstate(&s1);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(fq);
    qru_matrix *ms[] = {Aw, bw, Qb, Qc, Eb};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    bimg_free(&A);
    bimg_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_lsq_batch_grid, 0, 7);
    tcase_add_test(tc, test_lsq_batch_counts);
    tcase_add_test(tc, test_lsq_batch_nonfinite);
    tcase_add_test(tc, test_lsq_batch_args);
    tcase_add_loop_test(tc, test_lsq_batch_q_grid, 0, 4);
    tcase_add_test(tc, test_lsq_batch_q_cases);
    tcase_add_test(tc, test_lsq_batch_q_create);
    tcase_add_test(tc, test_lsq_batch_q_nonfinite);
    tcase_add_test(tc, test_lsq_batch_q_args);
    tcase_add_test(tc, test_lsq_batch_q_add_solve);
    tcase_add_loop_test(tc, test_lsq_batch_rows_each, 0, 4);
    tcase_add_loop_test(tc, test_lsq_batch_rm_each, 0, 4);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
