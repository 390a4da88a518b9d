/* qru_qr_factor: blocked Householder QR, both precisions and, where the
 * backend takes them, both complex types (' the conjugate transpose), all
 * shapes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

#define PAD_VALUE 12345.0

/* element (i, j) of B (ldb) := element (k, l) of A (lda), both parts */
static void copy_el(qru_dtype dt, void *B, int ldb, int i, int j,
                    const void *A, int lda, int k, int l)
{
    double re, im;
    qru_test_get_c(dt, A, lda, k, l, &re, &im);
    qru_test_set_c(dt, B, ldb, i, j, re, im);
}

/* |element (i, j)|^2 */
static double abs2(qru_dtype dt, const void *A, int lda, int i, int j)
{
    double re, im;
    qru_test_get_c(dt, A, lda, i, j, &re, &im);
    return re * re + im * im;
}

/* a float or complex float type */
static int single(qru_dtype dt)
{
    return dt == QRU_FLOAT || dt == QRU_COMPLEX_FLOAT;
}

/* A rows x cols matrix with leading dimension ld whose padding rows can be
 * inspected: the ld x cols buffer P is created and uploaded (padding =
 * PAD_VALUE) and M wraps P's memory. */
typedef struct padded {
    qru_matrix *P, *M;
    int rows, cols, ld;
} padded;

static padded padded_upload(qru_dtype dt, int rows, int cols, int ld,
                            const void *h, int ldh)
{
    padded p = {NULL, NULL, rows, cols, ld};
    void *full = qru_test_alloc(dt, ld, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ld; ++i) {
            if (i < rows)
                copy_el(dt, full, ld, i, j, h, ldh, i, j);
            else
                qru_test_set(dt, full, ld, i, j, PAD_VALUE + i + 100.0 * j);
        }
    p.P = qru_test_upload(ctx, dt, ld, cols, ld, full, ld);
    free(full);
    int st = qru_matrix_wrap(ctx, dt, rows, cols, qru_matrix_data(p.P), ld,
                             &p.M);
    ck_assert_msg(st == 0, "wrap: %d", st);
    return p;
}

/* element (i, j) of the padding holds what padded_upload put there */
static int pad_ok(qru_dtype dt, const void *full, int ld, int i, int j)
{
    double re, im, v = PAD_VALUE + i + 100.0 * j;
    qru_test_get_c(dt, full, ld, i, j, &re, &im);
    return re == (single(dt) ? (double)(float)v : v) && im == 0.0;
}

/* checks the padding and returns the rows x cols contents (ld = rows) */
static void *padded_download(qru_dtype dt, padded *p, const char *what,
                             const char *tag)
{
    void *full = qru_test_download(p->P);
    for (int j = 0; j < p->cols; ++j)
        for (int i = p->rows; i < p->ld; ++i)
            ck_assert_msg(pad_ok(dt, full, p->ld, i, j),
                          "%s: padding of %s overwritten at (%d,%d)", tag,
                          what, i, j);
    int ld = p->rows > 1 ? p->rows : 1;
    void *h = qru_test_alloc(dt, p->rows, p->cols, ld);
    for (int j = 0; j < p->cols; ++j)
        for (int i = 0; i < p->rows; ++i)
            copy_el(dt, h, ld, i, j, full, p->ld, i, j);
    free(full);
    return h;
}

static void padded_free(padded *p)
{
    qru_matrix_destroy(p->M);
    qru_matrix_destroy(p->P);
}

/* ||d - Q' B||_F / (||B||_F n eps), Q' B computed in double on the host
 * (' the conjugate transpose) */
static double qtb_error(qru_dtype dt, int n, int r, const void *Q,
                        const void *B, const void *D)
{
    double num = 0, den = 0;
    for (int j = 0; j < r; ++j)
        for (int i = 0; i < n; ++i) {
            double sr = 0, si = 0, qr, qi, br, bi, dr, di;
            for (int k = 0; k < n; ++k) {
                qru_test_get_c(dt, Q, n, k, i, &qr, &qi);
                qru_test_get_c(dt, B, n, k, j, &br, &bi);
                sr += qr * br + qi * bi; /* conj(q) b */
                si += qr * bi - qi * br;
            }
            qru_test_get_c(dt, D, n, i, j, &dr, &di);
            num += (dr - sr) * (dr - sr) + (di - si) * (di - si);
            den += abs2(dt, B, n, i, j);
        }
    if (num == 0)
        return 0;
    return sqrt(num) / (sqrt(den) * n * qru_test_eps(dt));
}

enum { KIND_RANDOM, KIND_ZERO_COLUMN, KIND_UPPER, KIND_HUGE, KIND_TINY };

/* Factorises a random n x m A (with Q and r right-hand sides when wanted)
 * with padded leading dimensions and checks everything. */
static void run_case(qru_dtype dt, int n, int m, int r, int nb, int padA,
                     int padQ, int padB, int withQ, int kind, unsigned seed)
{
    char tag[160];
    snprintf(tag, sizeof tag,
             "%s n=%d m=%d r=%d nb=%d pads=%d/%d/%d Q=%d kind=%d",
             qru_test_type_name(dt), n, m, r, nb, padA, padQ, padB, withQ,
             kind);
    int lda = (n > 1 ? n : 1) + padA, ldq = (n > 1 ? n : 1) + padQ,
        ldb = (n > 1 ? n : 1) + padB;
    int ldh = n > 1 ? n : 1;
    void *A0 = qru_test_alloc(dt, n, m, ldh);
    qru_test_rand(dt, n, m, A0, ldh, &seed);
    if (kind == KIND_ZERO_COLUMN && m > 1)
        for (int i = 0; i < n; ++i)
            qru_test_set(dt, A0, ldh, i, m / 2, 0.0);
    if (kind == KIND_UPPER)
        for (int j = 0; j < m; ++j)
            for (int i = j + 1; i < n; ++i)
                qru_test_set(dt, A0, ldh, i, j, 0.0);
    if (kind == KIND_HUGE || kind == KIND_TINY) {
        /* powers of two: exact; squares over/underflow in the type */
        double sc = ldexp(1.0, (single(dt) ? 100 : 600) *
                                   (kind == KIND_HUGE ? 1 : -1));
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < n; ++i) {
                double re, im;
                qru_test_get_c(dt, A0, ldh, i, j, &re, &im);
                qru_test_set_c(dt, A0, ldh, i, j, re * sc, im * sc);
            }
    }
    void *B0 = qru_test_alloc(dt, n, r, ldh);
    qru_test_rand(dt, n, r, B0, ldh, &seed);
    void *Q0 = qru_test_alloc(dt, n, n, ldh); /* garbage that must go */
    qru_test_rand(dt, n, n, Q0, ldh, &seed);

    padded A = padded_upload(dt, n, m, lda, A0, ldh);
    padded Q = {0}, B = {0};
    if (withQ)
        Q = padded_upload(dt, n, n, ldq, Q0, ldh);
    if (r >= 0)
        B = padded_upload(dt, n, r, ldb, B0, ldh);

    int st = qru_qr_factor(ctx, nb, A.M, withQ ? Q.M : NULL, r >= 0 ? B.M : NULL);
    ck_assert_msg(st == 0, "%s: status %d (%s)", tag, st, qru_strerror(st));
    ck_assert_int_eq(qru_context_sync(ctx), 0);

    void *R = padded_download(dt, &A, "A", tag);
    double low = qru_test_lower_max(dt, n, m, R, ldh);
    ck_assert_msg(low == 0.0, "%s: R has %g below the diagonal", tag, low);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i)
            ck_assert_msg(isfinite(qru_test_get(dt, R, ldh, i, j)),
                          "%s: R(%d,%d) not finite", tag, i, j);
    if (withQ) {
        void *Qh = padded_download(dt, &Q, "Q", tag);
        double be = qru_test_backward_error(dt, n, m, A0, ldh, Qh, ldh, R, ldh);
        double oe = qru_test_orth_error(dt, n, Qh, ldh);
        ck_assert_msg(be < QRU_TEST_THRESHOLD, "%s: backward error %g", tag,
                      be);
        ck_assert_msg(oe < QRU_TEST_THRESHOLD, "%s: orthogonality %g", tag, oe);
        if (getenv("QRU_TEST_VERBOSE"))
            printf("%s: backward %.3g orth %.3g\n", tag, be, oe);
        if (r >= 0) {
            void *D = padded_download(dt, &B, "B", tag);
            double de = qtb_error(dt, n, r, Qh, B0, D);
            ck_assert_msg(de < QRU_TEST_THRESHOLD, "%s: d = Q'b error %g", tag,
                          de);
            free(D);
        }
        if (kind == KIND_UPPER) {
            /* nothing to annihilate: R = A up to signs (complex: the
             * phases of the rows) */
            for (int j = 0; j < m; ++j)
                for (int i = 0; i <= j && i < n; ++i)
                    ck_assert_msg(
                        fabs(sqrt(abs2(dt, R, ldh, i, j)) -
                             sqrt(abs2(dt, A0, ldh, i, j))) <=
                            QRU_TEST_THRESHOLD * qru_test_eps(dt),
                        "%s: R(%d,%d) differs from the triangular A", tag, i,
                        j);
        }
        free(Qh);
    } else if (r >= 0) {
        /* no Q: d must still satisfy ||d(:,j)|| = ||b(:,j)|| and
         * R x = d(1:k) must agree with a reference Q computed separately */
        void *D = padded_download(dt, &B, "B", tag);
        for (int j = 0; j < r; ++j) {
            double nb2 = 0, nd2 = 0;
            for (int i = 0; i < n; ++i) {
                nb2 += abs2(dt, B0, ldh, i, j);
                nd2 += abs2(dt, D, ldh, i, j);
            }
            ck_assert_msg(fabs(sqrt(nd2) - sqrt(nb2)) <=
                              QRU_TEST_THRESHOLD * n * qru_test_eps(dt) *
                                  sqrt(nb2),
                          "%s: ||Q'b|| != ||b|| for column %d", tag, j);
        }
        free(D);
    }
    /* the same factorisation without Q and B gives the same R */
    if (withQ || r >= 0) {
        padded A2 = padded_upload(dt, n, m, lda, A0, ldh);
        ck_assert_int_eq(qru_qr_factor(ctx, nb, A2.M, NULL, NULL), 0);
        void *R2 = padded_download(dt, &A2, "A (no Q, no B)", tag);
        double e = qru_test_diff(dt, n, m, R2, ldh, R, ldh);
        ck_assert_msg(e < QRU_TEST_THRESHOLD, "%s: R without Q/B differs: %g",
                      tag, e);
        free(R2);
        padded_free(&A2);
    }
    free(R);
    padded_free(&A);
    if (withQ)
        padded_free(&Q);
    if (r >= 0)
        padded_free(&B);
    free(A0);
    free(B0);
    free(Q0);
}

static const int nbs[] = {0, 1, 3, 8};

START_TEST(test_shapes)
{
    /* n, m: tall, square, one column, n = m + 1, wide, one row */
    static const int shapes[][2] = {{1, 1}, {2, 1}, {9, 1}, {40, 1},
                                    {5, 5}, {6, 5}, {13, 12}, {20, 7},
                                    {12, 12}, {3, 5}, {1, 4}, {7, 19},
                                    {50, 30}, {31, 31}};
    int d = _i / 2, withQ = _i % 2;
    if (d >= qru_test_ntypes(ctx))
        return;
    qru_dtype dt = qru_test_type(ctx, d);
    unsigned seed = 17;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (size_t k = 0; k < sizeof nbs / sizeof nbs[0]; ++k) {
            int n = shapes[s][0], m = shapes[s][1];
            run_case(dt, n, m, 2, nbs[k], (int)k % 3, 2, 1, withQ, KIND_RANDOM,
                     seed++);
        }
}
END_TEST

/* sizes around the block size: nb - 1, nb, nb + 1, 2 nb + 1 */
START_TEST(test_block_sizes)
{
    int d = _i;
    if (d >= qru_test_ntypes(ctx))
        return;
    qru_dtype dt = qru_test_type(ctx, d);
    unsigned seed = 1000;
    static const int nbx[] = {8, 5};
    for (int t = 0; t < 2; ++t) {
        int nb = nbx[t];
        const int ks[] = {nb - 1, nb, nb + 1, 2 * nb + 1, 3 * nb};
        for (int a = 0; a < 5; ++a) {
            int m = ks[a];
            run_case(dt, m, m, 1, nb, 1, 0, 3, 1, KIND_RANDOM, seed++);
            run_case(dt, m + 1, m, 3, nb, 0, 1, 0, 1, KIND_RANDOM, seed++);
            run_case(dt, 2 * m + 3, m, 2, nb, 4, 4, 4, 1, KIND_RANDOM, seed++);
            run_case(dt, m, 2 * m + 1, 1, nb, 2, 0, 0, 1, KIND_RANDOM, seed++);
        }
    }
}
END_TEST

/* the backend's default block size: sizes around the usual 16 .. 64 */
START_TEST(test_default_nb)
{
    int d = _i;
    if (d >= qru_test_ntypes(ctx))
        return;
    qru_dtype dt = qru_test_type(ctx, d);
    unsigned seed = 2000;
    static const int ms[] = {15, 16, 17, 31, 32, 33, 63, 64, 65, 129};
    for (size_t a = 0; a < sizeof ms / sizeof ms[0]; ++a) {
        int m = ms[a];
        run_case(dt, m + 7, m, 2, 0, 3, 1, 2, 1, KIND_RANDOM, seed++);
    }
    run_case(dt, 200, 97, 3, 0, 0, 0, 0, 1, KIND_RANDOM, seed++);
    run_case(dt, 150, 150, 1, 0, 5, 5, 5, 1, KIND_RANDOM, seed++);
    /* nb larger than the matrix */
    run_case(dt, 9, 6, 1, 100, 1, 1, 1, 1, KIND_RANDOM, seed++);
}
END_TEST

/* Q or B alone, B with no columns, special inputs */
START_TEST(test_variants)
{
    int d = _i;
    if (d >= qru_test_ntypes(ctx))
        return;
    qru_dtype dt = qru_test_type(ctx, d);
    unsigned seed = 3000;
    for (int k = 0; k < 4; ++k) {
        int nb = nbs[k];
        run_case(dt, 21, 13, -1, nb, 2, 3, 0, 1, KIND_RANDOM, seed++); /* Q */
        run_case(dt, 21, 13, 4, nb, 2, 0, 3, 0, KIND_RANDOM, seed++);  /* B */
        run_case(dt, 21, 13, -1, nb, 2, 0, 0, 0, KIND_RANDOM, seed++); /* -- */
        run_case(dt, 21, 13, 0, nb, 1, 1, 1, 1, KIND_RANDOM, seed++);  /* r=0 */
        run_case(dt, 21, 13, 2, nb, 1, 1, 1, 1, KIND_ZERO_COLUMN, seed++);
        run_case(dt, 17, 17, 2, nb, 0, 2, 0, 1, KIND_ZERO_COLUMN, seed++);
        run_case(dt, 21, 13, 2, nb, 1, 1, 1, 1, KIND_UPPER, seed++);
        run_case(dt, 9, 9, 1, nb, 0, 0, 0, 1, KIND_UPPER, seed++);
        run_case(dt, 19, 11, 1, nb, 1, 0, 2, 1, KIND_HUGE, seed++);
        run_case(dt, 19, 11, 1, nb, 1, 0, 2, 1, KIND_TINY, seed++);
    }
}
END_TEST

/* empty shapes: nothing to factorise, Q := I */
START_TEST(test_empty)
{
    for (int d = 0; d < qru_test_ntypes(ctx); ++d) {
        qru_dtype dt = qru_test_type(ctx, d);
        unsigned seed = 4000;
        /* n x 0: R is empty, Q = I, B unchanged */
        int n = 5;
        void *Qg = qru_test_alloc(dt, n, n, n), *Bh = qru_test_alloc(dt, n, 2, n);
        qru_test_rand(dt, n, n, Qg, n, &seed);
        qru_test_rand(dt, n, 2, Bh, n, &seed);
        qru_matrix *A = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 0, 0, &A), 0);
        qru_matrix *Q = qru_test_upload(ctx, dt, n, n, 0, Qg, n);
        qru_matrix *B = qru_test_upload(ctx, dt, n, 2, 0, Bh, n);
        ck_assert_int_eq(qru_qr_factor(ctx, 0, A, Q, B), 0);
        void *Qh = qru_test_download(Q), *Bb = qru_test_download(B);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i)
                ck_assert(qru_test_get(dt, Qh, n, i, j) == (i == j ? 1.0 : 0.0));
        ck_assert_int_eq(memcmp(Bb, Bh, qru_test_elsize(dt) * n * 2), 0);
        free(Qh);
        free(Bb);
        qru_matrix_destroy(A);
        qru_matrix_destroy(Q);
        qru_matrix_destroy(B);
        free(Qg);
        free(Bh);
        /* 0 x m and 0 x 0 */
        qru_matrix *A0 = NULL, *Q0 = NULL, *B0 = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 3, 0, &A0), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 0, 0, &Q0), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 2, 0, &B0), 0);
        ck_assert_int_eq(qru_qr_factor(ctx, 0, A0, Q0, B0), 0);
        ck_assert_int_eq(qru_qr_factor(ctx, 4, Q0, NULL, NULL), 0);
        qru_matrix_destroy(A0);
        qru_matrix_destroy(Q0);
        qru_matrix_destroy(B0);
    }
}
END_TEST

/* ---- bad arguments: right -i, outputs untouched bit for bit ---- */

typedef struct snap {
    const qru_matrix *M;
    void *h;
    size_t bytes;
} snap;

static snap take(const qru_matrix *M)
{
    snap s = {M, NULL, 0};
    if (!M)
        return s;
    s.h = qru_test_download(M);
    s.bytes = qru_test_elsize(qru_matrix_dtype(M)) *
              (size_t)(qru_matrix_rows(M) > 1 ? qru_matrix_rows(M) : 1) *
              (size_t)qru_matrix_cols(M);
    return s;
}

static void same(const snap *s, const char *what, int line)
{
    if (!s->M)
        return;
    void *h = qru_test_download(s->M);
    ck_assert_msg(memcmp(h, s->h, s->bytes) == 0,
                  "line %d: %s changed by a failed call", line, what);
    free(h);
}

START_TEST(test_bad_args)
{
    for (int d = 0; d < qru_test_ntypes(ctx); ++d) {
        qru_dtype dt = qru_test_type(ctx, d);
        qru_dtype other_dt = dt == QRU_FLOAT ? QRU_DOUBLE : QRU_FLOAT;
        if (dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE)
            other_dt = dt == QRU_COMPLEX_FLOAT ? QRU_FLOAT : QRU_DOUBLE;
        int have_other = qru_context_supports(ctx, other_dt);
        unsigned seed = 5000;
        int n = 6, m = 4;
        int lh = n + 1;
        void *h = qru_test_alloc(dt, lh, n + 3, lh);
        qru_test_rand(dt, lh, n + 3, h, lh, &seed);
        qru_matrix *A = qru_test_upload(ctx, dt, n, m, n + 1, h, lh);
        qru_matrix *Q = qru_test_upload(ctx, dt, n, n, 0, h, lh);
        qru_matrix *B = qru_test_upload(ctx, dt, n, 2, n + 2, h, lh);
        qru_matrix *Qsq = qru_test_upload(ctx, dt, n, n, 0, h, lh);
        qru_matrix *Qr = qru_test_upload(ctx, dt, n + 1, n, 0, h, lh); /* rows */
        qru_matrix *Qc = qru_test_upload(ctx, dt, n, n + 1, 0, h, lh); /* cols */
        qru_matrix *Bw = qru_test_upload(ctx, dt, n - 1, 2, 0, h, lh);
        qru_matrix *Qd = NULL, *Bd = NULL;
        if (have_other) {
            void *g = qru_test_alloc(other_dt, n, n, n);
            qru_test_rand(other_dt, n, n, g, n, &seed);
            Qd = qru_test_upload(ctx, other_dt, n, n, 0, g, n);
            Bd = qru_test_upload(ctx, other_dt, n, 2, 0, g, n);
            free(g);
        }
        qru_context *octx = qru_test_context();
        qru_matrix *Ao = NULL, *Qo = NULL, *Bo = NULL;
        ck_assert_int_eq(qru_matrix_create(octx, dt, n, m, 0, &Ao), 0);
        ck_assert_int_eq(qru_matrix_create(octx, dt, n, n, 0, &Qo), 0);
        ck_assert_int_eq(qru_matrix_create(octx, dt, n, 2, 0, &Bo), 0);
        qru_matrix *Asq = qru_test_upload(ctx, dt, n, n, 0, h, lh);

        snap sA = take(A), sQ = take(Q), sB = take(B), sQsq = take(Qsq),
             sAsq = take(Asq);
#define EXPECT(call, want)                                                     \
    do {                                                                       \
        int st_ = (call);                                                      \
        ck_assert_msg(st_ == (want), "line %d: %s gave %d, expected %d",       \
                      __LINE__, #call, st_, (want));                           \
        same(&sA, "A", __LINE__);                                              \
        same(&sQ, "Q", __LINE__);                                              \
        same(&sB, "B", __LINE__);                                              \
        same(&sQsq, "Qsq", __LINE__);                                          \
        same(&sAsq, "Asq", __LINE__);                                          \
    } while (0)

        EXPECT(qru_qr_factor(NULL, 0, A, Q, B), -1);
        EXPECT(qru_qr_factor(NULL, -1, NULL, Qr, Bw), -1);
        EXPECT(qru_qr_factor(ctx, 0, NULL, Q, B), -3);
        EXPECT(qru_qr_factor(ctx, -1, NULL, Qr, Bw), -2);
        EXPECT(qru_qr_factor(ctx, 0, Ao, Q, B), -3); /* foreign context */
        EXPECT(qru_qr_factor(octx, 0, A, Qo, Bo), -3);
        EXPECT(qru_qr_factor(ctx, 0, A, Qr, B), -4);  /* n+1 x n */
        EXPECT(qru_qr_factor(ctx, 0, A, Qc, B), -4);  /* n x n+1 */
        EXPECT(qru_qr_factor(ctx, 0, A, Qo, B), -4);  /* foreign */
        EXPECT(qru_qr_factor(ctx, -1, A, Qr, Bw), -2);
        EXPECT(qru_qr_factor(ctx, 0, Asq, Asq, B), -4); /* Q is A */
        if (Qd)
            EXPECT(qru_qr_factor(ctx, 0, A, Qd, B), -4); /* dtype */
        EXPECT(qru_qr_factor(ctx, 0, A, Q, Bw), -5);    /* rows */
        EXPECT(qru_qr_factor(ctx, 0, A, Q, Bo), -5);    /* foreign */
        EXPECT(qru_qr_factor(ctx, -1, A, NULL, Bw), -2);
        EXPECT(qru_qr_factor(ctx, 0, Qsq, NULL, Qsq), -5); /* B is A */
        EXPECT(qru_qr_factor(ctx, 0, A, Qsq, Qsq), -5);    /* B is Q */
        if (Bd)
            EXPECT(qru_qr_factor(ctx, 0, A, Q, Bd), -5); /* dtype */
        EXPECT(qru_qr_factor(ctx, -1, A, Q, B), -2);
        EXPECT(qru_qr_factor(ctx, -8, A, NULL, NULL), -2);
        /* checked before the quick return of an empty A */
        qru_matrix *E = NULL, *E0 = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 0, 0, &E), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 0, 0, 0, &E0), 0);
        EXPECT(qru_qr_factor(ctx, -1, E, Q, B), -2);
        EXPECT(qru_qr_factor(ctx, 0, E, Qr, B), -4);
        EXPECT(qru_qr_factor(ctx, 0, E, Q, Bw), -5);
        EXPECT(qru_qr_factor(ctx, -1, E0, NULL, NULL), -2);
        EXPECT(qru_qr_factor(NULL, 0, E0, NULL, NULL), -1);
#undef EXPECT
        /* a valid call after all that works */
        ck_assert_int_eq(qru_qr_factor(ctx, 0, A, Q, B), 0);

        free(sA.h);
        free(sQ.h);
        free(sB.h);
        free(sQsq.h);
        free(sAsq.h);
        qru_matrix_destroy(E);
        qru_matrix_destroy(E0);
        qru_matrix_destroy(Asq);
        qru_matrix_destroy(Ao);
        qru_matrix_destroy(Qo);
        qru_matrix_destroy(Bo);
        qru_context_destroy(octx);
        qru_matrix_destroy(Qd);
        qru_matrix_destroy(Bd);
        qru_matrix_destroy(A);
        qru_matrix_destroy(Q);
        qru_matrix_destroy(B);
        qru_matrix_destroy(Qsq);
        qru_matrix_destroy(Qr);
        qru_matrix_destroy(Qc);
        qru_matrix_destroy(Bw);
        free(h);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("qr");
    TCase *tc = tcase_create("qr");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_shapes, 0, 8);
    tcase_add_loop_test(tc, test_block_sizes, 0, 4);
    tcase_add_loop_test(tc, test_default_nb, 0, 4);
    tcase_add_loop_test(tc, test_variants, 0, 4);
    tcase_add_test(tc, test_empty);
    tcase_add_test(tc, test_bad_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
