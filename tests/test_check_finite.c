/* The non-finite policy (include/qru.h, "Non-finite inputs"): with
 * QRU_OPTION_CHECK_FINITE on, every routine that takes input data returns
 * -i for a NaN, +Inf or -Inf in argument i, before it changes anything
 * (all caller data and objects bit-identical); with the option off, the
 * same calls terminate with one of their documented statuses and leave
 * everything unchanged when that status is not 0.  Both dtypes; each data
 * argument of each routine in turn, the bad value at the first, the last
 * and a random element of the part the routine reads; elements it does
 * not read (the other triangle, a unit diagonal, below triu(R)) are not
 * reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

static const double BAD[3] = {NAN, INFINITY, -INFINITY};
static const char *const BAD_NAME[3] = {"NaN", "+Inf", "-Inf"};

/* ---- host/device matrix pairs ---- */

typedef struct hmat {
    qru_dtype dt;
    int rows, cols;
    void *h; /* ld = max(1, rows): the contents uploaded to M */
    qru_matrix *M;
} hmat;

static hmat hm_make(qru_dtype dt, int rows, int cols, double scale,
                    double dshift, unsigned *seed)
{
    hmat a = {dt, rows, cols, NULL, NULL};
    int ld = rows > 1 ? rows : 1;
    a.h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, a.h, ld, seed);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            qru_test_set(dt, a.h, ld, i, j,
                         scale * qru_test_get(dt, a.h, ld, i, j) +
                             (i == j ? dshift : 0.0));
    return a;
}

static void hm_upload(hmat *a, qru_context *c)
{
    int ld = a->rows > 1 ? a->rows : 1;
    a->M = qru_test_upload(c, a->dt, a->rows, a->cols, ld + 1, a->h, ld);
}

/* M still holds exactly a.h */
static void hm_same(const hmat *a, const char *what, const char *tag)
{
    if (!a->M)
        return;
    void *g = qru_test_download(a->M);
    size_t bytes = qru_test_elsize(a->dt) *
                   (size_t)(a->rows > 1 ? a->rows : 1) * (size_t)a->cols;
    ck_assert_msg(memcmp(g, a->h, bytes) == 0, "%s: %s changed", tag, what);
    free(g);
}

static void hm_free(hmat *a)
{
    qru_matrix_destroy(a->M);
    free(a->h);
    a->M = NULL;
    a->h = NULL;
}

/* ---- the part of an argument a routine reads ---- */

/* kind 'A': all; 'L' / 'U': rows k .. k+c-1 form a square block read in
 * that triangle only (without its diagonal if unit), other rows all. */
typedef struct region {
    char kind;
    int unit, k;
} region;

static const region ALL = {'A', 0, 0};
static const region LOWER = {'L', 0, 0};

static int reads(region g, int c, int i, int j)
{
    if (g.kind == 'A' || i < g.k || i >= g.k + c)
        return 1;
    int r = i - g.k;
    if (r == j)
        return !g.unit;
    return g.kind == 'L' ? r > j : r < j;
}

/* Element 'which' (0 first, 1 last, 2 random) of the read (want = 1) or
 * unread (want = 0) part of a rows x cols argument; 0 if there is none. */
static int pick(region g, int rows, int cols, int want, int which,
                unsigned *seed, int *pi, int *pj)
{
    int cnt = 0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            cnt += reads(g, cols, i, j) == want;
    if (cnt == 0)
        return 0;
    int t = which == 0 ? 0 : which == 1 ? cnt - 1 : (int)(rand_r(seed) % cnt);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            if (reads(g, cols, i, j) == want && t-- == 0) {
                *pi = i;
                *pj = j;
                return 1;
            }
    return 0;
}

/* Puts v into a.h at an element of the read (want = 1) or unread part and
 * uploads it. */
static int poison(hmat *a, region g, int want, int which, double v,
                  unsigned *seed)
{
    int i, j;
    if (!pick(g, a->rows, a->cols, want, which, seed, &i, &j))
        return 0;
    qru_test_set(a->dt, a->h, a->rows > 1 ? a->rows : 1, i, j, v);
    ck_assert_int_eq(qru_matrix_upload(a->M, a->h, a->rows > 1 ? a->rows : 1),
                     0);
    return 1;
}

static void set_check(int on)
{
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, on),
                     0);
}

/* With the check on: status -arg; off: a documented status (0, or > 0
 * where the routine reports a numerical failure: pos). */
static void expect(int st, int on, int arg, int pos, const char *tag)
{
    if (on)
        ck_assert_msg(st == -arg, "%s: status %d, want %d", tag, st, -arg);
    else
        ck_assert_msg(st == 0 || (pos && st > 0),
                      "%s: status %d (%s) with the check off", tag, st,
                      qru_strerror(st));
}

/* ---- snapshots of objects ---- */

static void *get_part(const qru_lsq *f, int which, int rows, int cols)
{
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, qru_lsq_dtype(f), rows, cols, 0,
                                       &M),
                     0);
    int st = which == 0   ? qru_lsq_get_r(f, M)
             : which == 1 ? qru_lsq_get_q(f, M)
                          : qru_lsq_get_d(f, M);
    ck_assert_int_eq(st, 0);
    void *h = qru_test_download(M);
    qru_matrix_destroy(M);
    return h;
}

typedef struct lsnap {
    int n, m, r;
    void *R, *Q, *d;
} lsnap;

static lsnap lsq_snap(const qru_lsq *f)
{
    lsnap s = {qru_lsq_rows(f), qru_lsq_cols(f), qru_lsq_nrhs(f), 0, 0, 0};
    s.R = get_part(f, 0, s.n, s.m);
    s.Q = get_part(f, 1, s.n, s.n);
    s.d = get_part(f, 2, s.n, s.r);
    return s;
}

static void lsq_same(const qru_lsq *f, lsnap *s, const char *tag)
{
    lsnap t = lsq_snap(f);
    size_t es = qru_test_elsize(qru_lsq_dtype(f));
    ck_assert_msg(t.n == s->n && t.m == s->m && t.r == s->r,
                  "%s: f's shape changed", tag);
    ck_assert_msg(memcmp(t.R, s->R, es * (size_t)s->n * s->m) == 0 &&
                      memcmp(t.Q, s->Q, es * (size_t)s->n * s->n) == 0 &&
                      memcmp(t.d, s->d, es * (size_t)s->n * s->r) == 0,
                  "%s: f changed", tag);
    free(t.R);
    free(t.Q);
    free(t.d);
}

static void lsq_snap_free(lsnap *s)
{
    free(s->R);
    free(s->Q);
    free(s->d);
}

typedef struct gsnap {
    int n;
    double *x, *y;
    void *L;
} gsnap;

static gsnap gp_snap(const qru_gp *g, qru_dtype dt)
{
    gsnap s = {qru_gp_size(g), NULL, NULL, NULL};
    int n = s.n > 0 ? s.n : 1;
    s.x = malloc(sizeof(double) * (size_t)n);
    s.y = malloc(sizeof(double) * (size_t)n);
    ck_assert_int_eq(qru_gp_get_data(g, s.x, s.y), 0);
    qru_matrix *L = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, s.n, s.n, 0, &L), 0);
    ck_assert_int_eq(qru_gp_get_factor(g, L), 0);
    s.L = qru_test_download(L);
    qru_matrix_destroy(L);
    return s;
}

static void gp_same(const qru_gp *g, qru_dtype dt, gsnap *s, const char *tag)
{
    gsnap t = gp_snap(g, dt);
    ck_assert_msg(t.n == s->n &&
                      memcmp(t.x, s->x, sizeof(double) * (size_t)s->n) == 0 &&
                      memcmp(t.y, s->y, sizeof(double) * (size_t)s->n) == 0 &&
                      memcmp(t.L, s->L,
                             qru_test_elsize(dt) * (size_t)s->n * s->n) == 0,
                  "%s: the GP changed", tag);
    free(t.x);
    free(t.y);
    free(t.L);
}

static void gp_snap_free(gsnap *s)
{
    free(s->x);
    free(s->y);
    free(s->L);
}

/* ---- test problems ---- */

/* A symmetric positive definite n x n host array: B B' / n + I. */
static void *spd(qru_dtype dt, int n, unsigned *seed)
{
    void *B = qru_test_alloc(dt, n, n, n), *A = qru_test_alloc(dt, n, n, n);
    qru_test_rand(dt, n, n, B, n, seed);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = i == j ? 1.0 : 0.0;
            for (int t = 0; t < n; ++t)
                s += qru_test_get(dt, B, n, i, t) * qru_test_get(dt, B, n, j, t) /
                     n;
            qru_test_set(dt, A, n, i, j, s);
        }
    free(B);
    return A;
}

/* hmat holding the lower Cholesky factor of an SPD n x n matrix (its
 * upper part keeps the matrix), computed by the library (check off). */
static hmat chol_factor_of(qru_dtype dt, void *A, int n)
{
    hmat L = {dt, n, n, A, NULL};
    hm_upload(&L, ctx);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', L.M, QRU_CHOL_LEFT, 0), 0);
    free(L.h);
    L.h = qru_test_download(L.M);
    /* re-upload with ld = n + 1 as hm_upload does (same contents) */
    qru_matrix_destroy(L.M);
    hm_upload(&L, ctx);
    return L;
}

static qru_lsq *lsq_of(qru_dtype dt, int n, int m, int r, unsigned *seed)
{
    hmat A = hm_make(dt, n, m, 1.0, 0.0, seed),
         b = hm_make(dt, n, r, 1.0, 0.0, seed);
    hm_upload(&A, ctx);
    hm_upload(&b, ctx);
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, A.M, b.M, NULL, &f), 0);
    hm_free(&A);
    hm_free(&b);
    return f;
}

/* ---- the routines ---- */

enum { N = 13, M = 5, R = 2, P = 3 };

/* Runs routine 'rt' once with the check set to 'on', the value BAD[v] put
 * into argument 'arg' (0: none) at element 'which' of the part it reads
 * (unread != 0: of the part it does NOT read, where it must pass). */
static void run(qru_dtype dt, int rt, int arg, int v, int which, int on,
                int unread, unsigned seed)
{
    char tag[160];
    snprintf(tag, sizeof tag, "%s routine %d arg %d %s at %d, check %s%s",
             dt == QRU_DOUBLE ? "double" : "float", rt, arg, BAD_NAME[v],
             which, on ? "on" : "off", unread ? " (unread part)" : "");
    int want = !unread;
    int ex = arg; /* expected -i with the check on */
    if (unread)
        ex = 0;
    int st;
    set_check(0);
    switch (rt) {
    case 0: { /* qru_qr_factor(ctx, nb, A, Q, B): A (3), B (5) */
        hmat A = hm_make(dt, N, M, 1.0, 0.0, &seed),
             Q = hm_make(dt, N, N, 1.0, 0.0, &seed),
             B = hm_make(dt, N, R, 1.0, 0.0, &seed);
        hm_upload(&A, ctx);
        hm_upload(&Q, ctx);
        hm_upload(&B, ctx);
        int ok = arg == 3   ? poison(&A, ALL, want, which, BAD[v], &seed)
                 : arg == 5 ? poison(&B, ALL, want, which, BAD[v], &seed)
                            : 1;
        set_check(on);
        st = ok ? qru_qr_factor(ctx, 0, A.M, Q.M, B.M) : (on ? -ex : 0);
        set_check(0);
        expect(st, on && ex, ex, 0, tag);
        if (st) {
            hm_same(&A, "A", tag);
            hm_same(&Q, "Q", tag);
            hm_same(&B, "B", tag);
        }
        hm_free(&A);
        hm_free(&Q);
        hm_free(&B);
        break;
    }
    case 1:   /* qru_lsq_create(ctx, A, b, opt, f): A (2), b (3) */
    case 2: { /* qru_lsq_create_from_qr(ctx, Q, R, d, opt, f): 2, 3, 4 */
        hmat A = hm_make(dt, N, N, 1.0, 0.0, &seed),
             Rm = hm_make(dt, N, M, 1.0, 0.0, &seed),
             b = hm_make(dt, N, R, 1.0, 0.0, &seed);
        hm_upload(&A, ctx);
        hm_upload(&Rm, ctx);
        hm_upload(&b, ctx);
        qru_lsq *sentinel = (qru_lsq *)&seed, *f = sentinel;
        int ok = 1;
        if (rt == 1) {
            if (arg == 2)
                ok = poison(&Rm, ALL, want, which, BAD[v], &seed);
            else if (arg == 3)
                ok = poison(&b, ALL, want, which, BAD[v], &seed);
            set_check(on);
            st = ok ? qru_lsq_create(ctx, Rm.M, b.M, NULL, &f) : 0;
        } else {
            /* triu(R) is read: the upper triangle of R's first M rows;
             * unread: its strictly lower part (rows below M included) */
            region tri = {'U', 0, 0}, low = {'L', 1, 0};
            if (arg == 2)
                ok = poison(&A, ALL, want, which, BAD[v], &seed);
            else if (arg == 3) {
                int i, j;
                ok = unread ? pick(low, N, M, 1, which, &seed, &i, &j)
                            : pick(tri, M, M, 1, which, &seed, &i, &j);
                if (ok) {
                    qru_test_set(dt, Rm.h, N, i, j, BAD[v]);
                    ck_assert_int_eq(qru_matrix_upload(Rm.M, Rm.h, N), 0);
                }
            } else if (arg == 4)
                ok = poison(&b, ALL, want, which, BAD[v], &seed);
            set_check(on);
            st = ok ? qru_lsq_create_from_qr(ctx, A.M, Rm.M, b.M, NULL, &f)
                    : 0;
        }
        set_check(0);
        if (!ok)
            st = on && ex ? -ex : 0;
        expect(st, on && ex, ex, 0, tag);
        if (st)
            ck_assert_msg(f == sentinel, "%s: f written", tag);
        else if (f != sentinel)
            qru_lsq_destroy(f);
        hm_same(&A, "Q/A", tag);
        hm_same(&Rm, "A/R", tag);
        hm_same(&b, "b/d", tag);
        hm_free(&A);
        hm_free(&Rm);
        hm_free(&b);
        break;
    }
    case 3:   /* qru_lsq_add_cols(f, k, U): U (3) */
    case 4: { /* qru_lsq_add_rows(f, k, U, e): U (3), e (4) */
        qru_lsq *f = lsq_of(dt, N, M, R, &seed);
        lsnap s0 = lsq_snap(f);
        hmat U = rt == 3 ? hm_make(dt, N, P, 1.0, 0.0, &seed)
                         : hm_make(dt, P, M, 1.0, 0.0, &seed);
        hmat e = hm_make(dt, P, R, 1.0, 0.0, &seed);
        hm_upload(&U, ctx);
        hm_upload(&e, ctx);
        int ok = arg == 3   ? poison(&U, ALL, want, which, BAD[v], &seed)
                 : arg == 4 ? poison(&e, ALL, want, which, BAD[v], &seed)
                            : 1;
        set_check(on);
        st = rt == 3 ? qru_lsq_add_cols(f, 2, U.M)
                     : qru_lsq_add_rows(f, 4, U.M, e.M);
        set_check(0);
        (void)ok;
        expect(st, on && ex, ex, rt == 3, tag);
        if (st)
            lsq_same(f, &s0, tag);
        hm_same(&U, "U", tag);
        hm_same(&e, "e", tag);
        lsq_snap_free(&s0);
        qru_lsq_destroy(f);
        hm_free(&U);
        hm_free(&e);
        break;
    }
    case 5: { /* qru_trsm(ctx, side, uplo, trans, diag, alpha, A, B):
               * alpha (6), A (7, its uplo triangle, diagonal if 'N'), B (8);
               * 'which' also selects uplo and diag */
        char uplo = which % 2 ? 'U' : 'L';
        char diag = unread && which == 2 ? 'U' : 'N';
        region tri = {uplo, diag == 'U', 0};
        hmat A = hm_make(dt, N, N, 0.5, 4.0, &seed),
             B = hm_make(dt, N, R, 1.0, 0.0, &seed);
        hm_upload(&A, ctx);
        hm_upload(&B, ctx);
        double alpha = arg == 6 && !unread ? BAD[v] : 0.75;
        int ok = arg == 7   ? poison(&A, tri, want, which, BAD[v], &seed)
                 : arg == 8 ? poison(&B, ALL, want, which, BAD[v], &seed)
                            : 1;
        if (arg == 6 && unread)
            ok = 0;
        set_check(on);
        st = ok ? qru_trsm(ctx, 'L', uplo, 'N', diag, alpha, A.M, B.M)
                : (on && ex ? -ex : 0);
        set_check(0);
        expect(st, on && ex, ex, 0, tag);
        hm_same(&A, "A", tag);
        if (st)
            hm_same(&B, "B", tag);
        hm_free(&A);
        hm_free(&B);
        break;
    }
    case 6:   /* qru_chol_factor(ctx, uplo, A, variant, nb): A (3) */
    case 7: { /* qru_chol_solve(ctx, uplo, L, B): L (3), B (4) */
        char uplo = which % 2 ? 'U' : 'L';
        region tri = {uplo, 0, 0};
        void *Ah = spd(dt, N, &seed);
        hmat A = {dt, N, N, Ah, NULL};
        hm_upload(&A, ctx);
        if (rt == 7) { /* A := its factor in the uplo triangle */
            ck_assert_int_eq(qru_chol_factor(ctx, uplo, A.M, QRU_CHOL_LEFT, 0),
                             0);
            free(A.h);
            A.h = qru_test_download(A.M);
            qru_matrix_destroy(A.M);
            hm_upload(&A, ctx);
        }
        hmat B = hm_make(dt, N, R, 1.0, 0.0, &seed);
        hm_upload(&B, ctx);
        int ok = arg == 3   ? poison(&A, tri, want, which, BAD[v], &seed)
                 : arg == 4 ? poison(&B, ALL, want, which, BAD[v], &seed)
                            : 1;
        set_check(on);
        st = !ok   ? (on && ex ? -ex : 0)
             : rt == 6 ? qru_chol_factor(ctx, uplo, A.M, QRU_CHOL_LEFT, 0)
                       : qru_chol_solve(ctx, uplo, A.M, B.M);
        set_check(0);
        expect(st, on && ex, ex, rt == 6, tag);
        if (st) {
            hm_same(&A, "A", tag);
            hm_same(&B, "B", tag);
        }
        hm_free(&A);
        hm_free(&B);
        break;
    }
    case 8: { /* qru_chol_update(ctx, uplo, L, W, sign): L (3, its lower
               * triangle), W (4) */
        hmat L = chol_factor_of(dt, spd(dt, N, &seed), N);
        hmat W = hm_make(dt, N, 2, 0.1, 0.0, &seed);
        hm_upload(&W, ctx);
        int ok = arg == 3   ? poison(&L, LOWER, want, which, BAD[v], &seed)
                 : arg == 4 ? poison(&W, ALL, want, which, BAD[v], &seed)
                            : 1;
        (void)ok;
        set_check(on);
        st = qru_chol_update(ctx, 'L', L.M, W.M, which == 2 ? -1 : 1, L.M);
        set_check(0);
        expect(st, on && ex, ex, 1, tag);
        if (st)
            hm_same(&L, "L", tag);
        hm_same(&W, "W", tag);
        hm_free(&L);
        hm_free(&W);
        break;
    }
    case 9: { /* qru_chol_insert(ctx, uplo, L, k, C, L1): L (3, its lower
               * triangle), C (5), whose diagonal block is read in the
               * lower triangle only */
        int n = N - P, k = 4;
        void *A1 = spd(dt, N, &seed);
        void *Ah = qru_test_alloc(dt, n, n, n);
        hmat C = {dt, N, P, qru_test_alloc(dt, N, P, N), NULL};
        for (int j = 0, jj = 0; j < N; ++j) {
            if (j >= k && j < k + P) {
                for (int i = 0; i < N; ++i)
                    qru_test_set(dt, C.h, N, i, j - k,
                                 qru_test_get(dt, A1, N, i, j));
                continue;
            }
            for (int i = 0, ii = 0; i < N; ++i)
                if (i < k || i >= k + P)
                    qru_test_set(dt, Ah, n, ii++, jj,
                                 qru_test_get(dt, A1, N, i, j));
            ++jj;
        }
        free(A1);
        hmat L = chol_factor_of(dt, Ah, n);
        hm_upload(&C, ctx);
        hmat L1 = hm_make(dt, N, N, 1.0, 0.0, &seed);
        hm_upload(&L1, ctx);
        region blk = {'L', 0, k};
        int ok = arg == 3   ? poison(&L, LOWER, want, which, BAD[v], &seed)
                 : arg == 5 ? poison(&C, blk, want, which, BAD[v], &seed)
                            : 1;
        (void)ok;
        set_check(on);
        st = qru_chol_insert(ctx, 'L', L.M, k, C.M, L1.M);
        set_check(0);
        expect(st, on && ex, ex, 1, tag);
        if (st)
            hm_same(&L1, "L1", tag);
        hm_same(&L, "L", tag);
        hm_same(&C, "C", tag);
        hm_free(&L);
        hm_free(&C);
        hm_free(&L1);
        break;
    }
    default: { /* GP: create x (4), y (5); insert x (4), y (5);
                * predict xs (3) */
        int sub = rt - 10; /* 0 create, 1 insert, 2 predict */
        int n = 6, p = 2;
        double x[8], y[8], xs[3] = {0.1, 0.7, -0.4}, mean[3], var[3];
        for (int i = 0; i < 8; ++i) {
            x[i] = -1.0 + 0.3 * i;
            y[i] = sin(3.0 * x[i]);
        }
        double *bad = NULL;
        int at = which == 0 ? 0 : which == 1 ? 1 : (int)(seed % 2);
        if (arg && !unread) {
            if (sub == 2)
                bad = xs + (which == 1 ? 2 : at);
            else if (sub == 0)
                bad = (arg == 4 ? x : y) + (which == 1 ? n - 1 : at);
            else
                bad = (arg == 4 ? x : y) + n + at;
        }
        qru_gp *g = NULL, *sentinel = (qru_gp *)&seed;
        gsnap s0 = {0, NULL, NULL, NULL};
        if (sub > 0) {
            ck_assert_int_eq(qru_gp_create(ctx, dt, n, x, y, NULL, &g), 0);
            s0 = gp_snap(g, dt);
        }
        if (bad)
            *bad = BAD[v];
        for (int i = 0; i < 3; ++i)
            mean[i] = var[i] = -7.0;
        set_check(on);
        if (sub == 0) {
            g = sentinel;
            st = qru_gp_create(ctx, dt, n, x, y, NULL, &g);
        } else if (sub == 1) {
            st = qru_gp_insert(g, n, p, x + n, y + n);
        } else {
            st = qru_gp_predict(g, 3, xs, mean, var);
        }
        set_check(0);
        expect(st, on && ex, ex, sub < 2, tag);
        if (sub == 0 && st)
            ck_assert_msg(g == sentinel, "%s: gp written", tag);
        if (sub == 0 && !st)
            qru_gp_destroy(g);
        if (sub > 0 && st)
            gp_same(g, dt, &s0, tag);
        if (sub == 2 && st)
            for (int i = 0; i < 3; ++i)
                ck_assert_msg(mean[i] == -7.0 && var[i] == -7.0,
                              "%s: mean/var written", tag);
        if (sub > 0) {
            gp_snap_free(&s0);
            qru_gp_destroy(g);
        }
        break;
    }
    case 13: { /* qru_lsq_modify(f, U, V): U (2), V (3) */
        qru_lsq *f = lsq_of(dt, N, M, R, &seed);
        lsnap s0 = lsq_snap(f);
        hmat U = hm_make(dt, N, P, 1.0, 0.0, &seed),
             V = hm_make(dt, M, P, 1.0, 0.0, &seed);
        hm_upload(&U, ctx);
        hm_upload(&V, ctx);
        if (arg == 2)
            poison(&U, ALL, want, which, BAD[v], &seed);
        else if (arg == 3)
            poison(&V, ALL, want, which, BAD[v], &seed);
        set_check(on);
        st = qru_lsq_modify(f, U.M, V.M);
        set_check(0);
        /* with the check off: 0 or the rank status of a non-finite R1 */
        expect(st, on && ex, ex, 1, tag);
        if (st)
            lsq_same(f, &s0, tag);
        hm_same(&U, "U", tag);
        hm_same(&V, "V", tag);
        lsq_snap_free(&s0);
        qru_lsq_destroy(f);
        hm_free(&U);
        hm_free(&V);
        break;
    }
    case 14: { /* qru_chol_delete(ctx, uplo, L, k, p, L1): L (3), its
                * whole lower triangle (rows 4 .. 4+P-1 are deleted) */
        hmat L = chol_factor_of(dt, spd(dt, N, &seed), N);
        hmat L1 = hm_make(dt, N - P, N - P, 1.0, 0.0, &seed);
        hm_upload(&L1, ctx);
        int ok = arg == 3 ? poison(&L, LOWER, want, which, BAD[v], &seed) : 1;
        (void)ok;
        set_check(on);
        st = qru_chol_delete(ctx, 'L', L.M, 4, P, L1.M);
        set_check(0);
        expect(st, on && ex, ex, 1, tag);
        if (st)
            hm_same(&L1, "L1", tag);
        hm_same(&L, "L", tag);
        hm_free(&L);
        hm_free(&L1);
        break;
    }
    }
}

/* Data arguments of each routine (0-terminated). */
static const int ARGS[15][4] = {
    {3, 5, 0},    /* 0 qr_factor: A, B */
    {2, 3, 0},    /* 1 lsq_create: A, b */
    {2, 3, 4, 0}, /* 2 lsq_create_from_qr: Q, R, d */
    {3, 0},       /* 3 add_cols: U */
    {3, 4, 0},    /* 4 add_rows: U, e */
    {6, 7, 8, 0}, /* 5 trsm: alpha, A, B */
    {3, 0},       /* 6 chol_factor: A */
    {3, 4, 0},    /* 7 chol_solve: L, B */
    {3, 4, 0},    /* 8 chol_update: L, W */
    {3, 5, 0},    /* 9 chol_insert: L, C */
    {4, 5, 0},    /* 10 gp_create: x, y */
    {4, 5, 0},    /* 11 gp_insert: x, y */
    {3, 0},       /* 12 gp_predict: xs */
    {2, 3, 0},    /* 13 lsq_modify: U, V */
    {3, 0},       /* 14 chol_delete: L */
};

/* loop index: dtype (i % 2), routine (i / 2) */
START_TEST(test_each_argument)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int rt = _i / 2;
    int chol = (rt >= 6 && rt <= 12) || rt == 14;
    qru_matrix *probe = NULL;
    if (chol) { /* backends without the Cholesky ops report UNSUPPORTED */
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 1, 1, 0, &probe), 0);
        double one = 1.0;
        float onef = 1.0f;
        ck_assert_int_eq(qru_matrix_upload(probe, dt == QRU_DOUBLE
                                                      ? (void *)&one
                                                      : (void *)&onef,
                                           1),
                         0);
        int st = qru_chol_factor(ctx, 'L', probe, QRU_CHOL_LEFT, 0);
        qru_matrix_destroy(probe);
        if (st == QRU_ERR_UNSUPPORTED)
            return;
    }
    unsigned seed = 4100u + 31u * (unsigned)_i;
    for (int a = 0; ARGS[rt][a]; ++a)
        for (int v = 0; v < 3; ++v)
            for (int which = 0; which < 3; ++which)
                for (int on = 0; on < 2; ++on)
                    run(dt, rt, ARGS[rt][a], v, which, on, 0,
                        seed += 7u);
    /* elements the routine does not read are not reported */
    static const int unread_args[][2] = {{2, 3}, {5, 7}, {6, 3}, {7, 3},
                                         {8, 3}, {9, 3}, {9, 5}, {14, 3}};
    for (size_t u = 0; u < sizeof unread_args / sizeof unread_args[0]; ++u)
        if (unread_args[u][0] == rt)
            for (int which = 0; which < 3; ++which)
                run(dt, rt, unread_args[u][1], which, which, 1, 1,
                    seed += 7u);
    /* no bad value: the check passes and the call succeeds */
    run(dt, rt, 0, 0, 0, 1, 0, seed + 1u);
}
END_TEST

/* The three cases of the policy's examples, with their consequences. */
START_TEST(test_lsq_cases)
{
    if (_i >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i);
    unsigned seed = 4900u + (unsigned)_i;
    for (int on = 0; on < 2; ++on) {
        char tag[64];
        snprintf(tag, sizeof tag, "%s, check %s",
                 dt == QRU_DOUBLE ? "double" : "float", on ? "on" : "off");
        /* qru_lsq_create with a NaN in A: -2, or a factorisation whose
         * solve reports the non-finite pivot (x unchanged) */
        hmat A = hm_make(dt, N, M, 1.0, 0.0, &seed),
             b = hm_make(dt, N, R, 1.0, 0.0, &seed),
             x = hm_make(dt, M, R, 1.0, 0.0, &seed);
        hm_upload(&A, ctx);
        hm_upload(&b, ctx);
        hm_upload(&x, ctx);
        qru_test_set(dt, A.h, N, 3, 2, NAN);
        ck_assert_int_eq(qru_matrix_upload(A.M, A.h, N), 0);
        set_check(on);
        qru_lsq *f = NULL;
        int st = qru_lsq_create(ctx, A.M, b.M, NULL, &f);
        if (on) {
            ck_assert_msg(st == -2 && !f, "%s: lsq_create %d", tag, st);
        } else {
            ck_assert_msg(st == 0, "%s: lsq_create %d", tag, st);
            st = qru_lsq_solve(f, x.M);
            ck_assert_msg(st >= 1 && st <= 3, "%s: solve %d", tag, st);
            hm_same(&x, "x", tag);
            qru_lsq_destroy(f);
        }
        hm_same(&A, "A", tag);
        hm_same(&b, "b", tag);
        hm_free(&A);
        hm_free(&b);

        /* add_rows with a NaN in e: -4 and f unchanged, or success with R
         * still finite (e only reaches d) */
        f = lsq_of(dt, N, M, R, &seed);
        lsnap s0 = lsq_snap(f);
        hmat U = hm_make(dt, P, M, 1.0, 0.0, &seed),
             e = hm_make(dt, P, R, 1.0, 0.0, &seed);
        hm_upload(&U, ctx);
        hm_upload(&e, ctx);
        qru_test_set(dt, e.h, P, 1, 1, NAN);
        ck_assert_int_eq(qru_matrix_upload(e.M, e.h, P), 0);
        st = qru_lsq_add_rows(f, 5, U.M, e.M);
        if (on) {
            ck_assert_msg(st == -4, "%s: add_rows %d", tag, st);
            lsq_same(f, &s0, tag);
        } else {
            ck_assert_msg(st == 0, "%s: add_rows %d", tag, st);
            ck_assert_int_eq(qru_lsq_rows(f), N + P);
            set_check(0);
            ck_assert_int_eq(qru_lsq_solve(f, x.M), 0); /* R finite */
        }
        lsq_snap_free(&s0);
        hm_free(&U);
        hm_free(&e);

        /* add_cols with a NaN in U: -3, or the rank status (the pivot of
         * the new column is not finite); f unchanged either way */
        set_check(on);
        s0 = lsq_snap(f);
        int m0 = qru_lsq_cols(f);
        U = hm_make(dt, qru_lsq_rows(f), 2, 1.0, 0.0, &seed);
        hm_upload(&U, ctx);
        qru_test_set(dt, U.h, qru_lsq_rows(f), 4, 1, NAN);
        ck_assert_int_eq(qru_matrix_upload(U.M, U.h, qru_lsq_rows(f)), 0);
        st = qru_lsq_add_cols(f, 1, U.M);
        if (on)
            ck_assert_msg(st == -3, "%s: add_cols %d", tag, st);
        else
            ck_assert_msg(st >= 3 && st <= m0 + 2, "%s: add_cols %d", tag,
                          st);
        lsq_same(f, &s0, tag);
        lsq_snap_free(&s0);
        hm_free(&U);
        hm_free(&x);
        qru_lsq_destroy(f);
        set_check(0);
    }
}
END_TEST

/* The option itself, and the order of the checks. */
START_TEST(test_option)
{
    int v = -1;
    ck_assert_int_eq(qru_context_get_option(ctx, QRU_OPTION_CHECK_FINITE, &v),
                     0);
    ck_assert_int_eq(v, 0); /* the default */
    ck_assert_int_eq(qru_context_set_option(NULL, QRU_OPTION_CHECK_FINITE, 1),
                     -1);
    ck_assert_int_eq(qru_context_set_option(ctx, (qru_context_option)0, 1),
                     -2);
    ck_assert_int_eq(qru_context_set_option(ctx, (qru_context_option)3, 1),
                     -2);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 2),
                     -3);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, -1),
                     -3);
    ck_assert_int_eq(qru_context_get_option(NULL, QRU_OPTION_CHECK_FINITE, &v),
                     -1);
    ck_assert_int_eq(qru_context_get_option(ctx, (qru_context_option)7, &v),
                     -2);
    ck_assert_int_eq(qru_context_get_option(ctx, QRU_OPTION_CHECK_FINITE,
                                            NULL),
                     -3);
    ck_assert_int_eq(v, 0); /* not written on failure */
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    ck_assert_int_eq(qru_context_get_option(ctx, QRU_OPTION_CHECK_FINITE, &v),
                     0);
    ck_assert_int_eq(v, 1);

    /* argument i's checks, its scan included, come before argument i+1's */
    qru_dtype dt = qru_test_dtype(ctx, 0);
    unsigned seed = 4999u;
    hmat A = hm_make(dt, N, M, 1.0, 0.0, &seed),
         b = hm_make(dt, N, R, 1.0, 0.0, &seed),
         bs = hm_make(dt, N - 1, R, 1.0, 0.0, &seed);
    hm_upload(&A, ctx);
    hm_upload(&b, ctx);
    hm_upload(&bs, ctx);
    qru_test_set(dt, A.h, N, 0, 0, NAN);
    ck_assert_int_eq(qru_matrix_upload(A.M, A.h, N), 0);
    qru_lsq *f = NULL;
    qru_lsq_options bad;
    qru_lsq_options_init(&bad);
    bad.nb = -1;
    ck_assert_int_eq(qru_lsq_create(ctx, A.M, bs.M, &bad, &f), -2);
    ck_assert_int_eq(qru_lsq_create(NULL, A.M, b.M, NULL, &f), -1);
    qru_test_set(dt, b.h, N, N - 1, 1, INFINITY);
    ck_assert_int_eq(qru_matrix_upload(b.M, b.h, N), 0);
    qru_test_set(dt, A.h, N, 0, 0, 1.0);
    ck_assert_int_eq(qru_matrix_upload(A.M, A.h, N), 0);
    ck_assert_int_eq(qru_lsq_create(ctx, A.M, b.M, &bad, NULL), -3);
    ck_assert_int_eq(qru_lsq_create(ctx, A.M, bs.M, &bad, NULL), -3);
    ck_assert_ptr_null(f);
    /* off again: no scan, the call runs */
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    ck_assert_int_eq(qru_lsq_create(ctx, A.M, b.M, NULL, &f), 0);
    qru_lsq_destroy(f);
    hm_free(&A);
    hm_free(&b);
    hm_free(&bs);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("check_finite");
    TCase *tc = tcase_create("check_finite");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_option);
    tcase_add_loop_test(tc, test_each_argument, 0, 30);
    tcase_add_loop_test(tc, test_lsq_cases, 0, 2);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
