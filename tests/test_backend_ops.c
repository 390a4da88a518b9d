/*
 * The backend table, op by op: every op of struct qru_backend_ops of the
 * backend under test (QRU_TEST_BACKEND) is run on device data and compared
 * with a reference computed here in double on the host from the op's
 * contract in src/qru_internal.h.  Written by the CUDA engineer so that one
 * device run localises a kernel bug to its op; runs for every backend.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

#include <stdarg.h>
#include <time.h>

/* QRU_TEST_VERBOSE: one line a case as it starts, with the seconds since
 * the first (how far a slow run, e.g. under racecheck, got) */
static void progress(const char *fmt, ...)
{
    static struct timespec t0;
    if (!getenv("QRU_TEST_VERBOSE"))
        return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (!t0.tv_sec)
        t0 = t;
    printf("[%8.2f s] ", (double)(t.tv_sec - t0.tv_sec) +
                             1e-9 * (double)(t.tv_nsec - t0.tv_nsec));
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

static qru_context *ctx;
static const qru_backend_ops *O;
static unsigned seed = 12345u;

static void setup(void)
{
    ctx = qru_test_context();
    O = ctx->ops;
}
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

static double urand(void) { return qru_test_urand(&seed); } /* (-1, 1) */

/* ---- device buffers of len elements, moved as double arrays ------------- */
typedef struct dbuf {
    qru_ptr p;
    size_t len;
} dbuf;

static dbuf dnew(qru_dtype dt, size_t len)
{
    dbuf b = {{NULL, 0}, len};
    int st = O->mem_alloc(ctx, (len ? len : 1) * qru_dtype_size(dt), &b.p.h);
    ck_assert_msg(st == 0, "mem_alloc: %d", st);
    return b;
}

static void dfree(dbuf b) { O->mem_free(ctx, b.p.h); }

/* (a complex dt: h holds (re, im) pairs, 2 len doubles) */
static void dput(qru_dtype dt, dbuf b, const double *h)
{
    void *t = qru_test_alloc(dt, (int)b.len, 1, (int)b.len);
    for (size_t i = 0; i < b.len; ++i)
        if (qru_dtype_complex(dt))
            qru_test_set_c(dt, t, (int)b.len, (int)i, 0, h[2 * i],
                           h[2 * i + 1]);
        else
            qru_test_set(dt, t, (int)b.len, (int)i, 0, h[i]);
    int st = O->upload(ctx, dt, (int)b.len, 1, t, (int)b.len, b.p, (int)b.len);
    ck_assert_msg(st == 0, "upload: %d", st);
    st = O->sync(ctx);
    ck_assert_msg(st == 0, "sync: %d", st);
    free(t);
}

static void dget(qru_dtype dt, dbuf b, double *h)
{
    void *t = qru_test_alloc(dt, (int)b.len, 1, (int)b.len);
    int st = O->download(ctx, dt, (int)b.len, 1, b.p, (int)b.len, t,
                         (int)b.len);
    ck_assert_msg(st == 0, "download: %d", st);
    for (size_t i = 0; i < b.len; ++i)
        if (qru_dtype_complex(dt))
            qru_test_get_c(dt, t, (int)b.len, (int)i, 0, &h[2 * i],
                           &h[2 * i + 1]);
        else
            h[i] = qru_test_get(dt, t, (int)b.len, (int)i, 0);
    free(t);
}

static double *hnew(size_t len) { return calloc(len ? len : 1, sizeof(double)); }

/* rounds every element to dt, so that references start from the same data */
static void hround(qru_dtype dt, double *h, size_t len)
{
    if (dt == QRU_FLOAT)
        for (size_t i = 0; i < len; ++i)
            h[i] = (double)(float)h[i];
}

static double *hrand(qru_dtype dt, size_t len)
{
    double *h = hnew(len);
    for (size_t i = 0; i < len; ++i)
        h[i] = urand();
    hround(dt, h, len);
    return h;
}

/* max |a - b| / scale over len elements must be <= tol; NaN fails. */
static void expect_close(const char *what, qru_dtype dt, const double *got,
                         const double *ref, size_t len, double scale,
                         double tol)
{
    for (size_t i = 0; i < len; ++i) {
        double e = fabs(got[i] - ref[i]) / scale;
        ck_assert_msg(e <= tol, "%s (%s): element %zu: got %.17g, want %.17g "
                      "(error %.3g > %.3g)", what,
                      dt == QRU_DOUBLE ? "double" : "float", i, got[i],
                      ref[i], e, tol);
    }
}

static void expect_equal(const char *what, qru_dtype dt, const double *got,
                         const double *ref, size_t len)
{
    for (size_t i = 0; i < len; ++i)
        ck_assert_msg(got[i] == ref[i] || (isnan(got[i]) && isnan(ref[i])),
                      "%s (%s): element %zu: got %.17g, want %.17g", what,
                      dt == QRU_DOUBLE ? "double" : "float", i, got[i],
                      ref[i]);
}

#define DT(i) qru_test_dtype(ctx, (i))
#define NDT_OK(i)                                                              \
    if ((i) >= qru_test_ndtypes(ctx))                                          \
    return
#define AT(o, i, j, ld) ((size_t)(o) + (size_t)(i) + (size_t)(j) * (size_t)(ld))

/* ---- memory ------------------------------------------------------------------- */

START_TEST(test_upload_download)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    int m = 7, n = 5, ldd = 9, ldh = 11;
    size_t len = (size_t)ldd * n + 3;
    double *h = hrand(dt, len), *g = hnew(len);
    dbuf b = dnew(dt, len);
    dput(dt, b, h); /* background */
    /* a 7 x 5 block at offset 3 with ld 9, from a host array with ld 11 */
    void *src = qru_test_alloc(dt, m, n, ldh);
    qru_test_rand(dt, m, n, src, ldh, &seed);
    ck_assert_int_eq(O->upload(ctx, dt, m, n, src, ldh, qru_ptr_add(b.p, 3),
                               ldd),
                     0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            h[AT(3, i, j, ldd)] = qru_test_get(dt, src, ldh, i, j);
    dget(dt, b, g);
    expect_equal("upload", dt, g, h, len);
    /* download into a host array with padding, which must stay */
    void *dst = qru_test_alloc(dt, ldh, n, ldh);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldh; ++i)
            qru_test_set(dt, dst, ldh, i, j, -7.0);
    ck_assert_int_eq(O->download(ctx, dt, m, n, qru_ptr_add(b.p, 3), ldd, dst,
                                 ldh),
                     0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldh; ++i)
            ck_assert(qru_test_get(dt, dst, ldh, i, j) ==
                      (i < m ? qru_test_get(dt, src, ldh, i, j) : -7.0));
    dfree(b);
    free(h);
    free(g);
    free(src);
    free(dst);
    /* narrow columns with gaps (a diagonal: 1 x 40 with ld 41; 2 x 30 with
     * ld 5), which a GPU packs before the transfer, into host arrays with
     * and without padding */
    const int shapes[][4] = {{1, 40, 41, 1}, {1, 40, 41, 3}, {2, 30, 5, 2},
                             {2, 30, 5, 4}, {1, 17, 2, 1}, {1, 16, 2, 1}};
    for (size_t c = 0; c < sizeof shapes / sizeof *shapes; ++c) {
        int mm = shapes[c][0], nn = shapes[c][1], ls = shapes[c][2],
            lh = shapes[c][3];
        size_t ln = (size_t)ls * nn;
        double *hv = hrand(dt, ln);
        dbuf bv = dnew(dt, ln);
        dput(dt, bv, hv);
        void *out = qru_test_alloc(dt, lh, nn, lh);
        for (int j = 0; j < nn; ++j)
            for (int i = 0; i < lh; ++i)
                qru_test_set(dt, out, lh, i, j, -7.0);
        ck_assert_int_eq(O->download(ctx, dt, mm, nn, bv.p, ls, out, lh), 0);
        for (int j = 0; j < nn; ++j)
            for (int i = 0; i < lh; ++i)
                ck_assert_msg(qru_test_get(dt, out, lh, i, j) ==
                                  (i < mm ? hv[AT(0, i, j, ls)] : -7.0),
                              "narrow download %d x %d ld %d -> %d: (%d, %d)",
                              mm, nn, ls, lh, i, j);
        dfree(bv);
        free(hv);
        free(out);
    }
}
END_TEST

/* copy, including the overlapping moves towards the start that the
 * contract allows (row and column deletion); the tall ones move columns
 * of hundreds to thousands of rows by a few (a GPU's per-column move
 * walks each column in chunks, 1024 rows on CUDA, whose writes land on
 * rows the chunk has just read). */
START_TEST(test_copy)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    struct {
        int m, n, si, sj, di, dj, same, ld, ldd, cols;
    } cases[] = {
        {10, 5, 2, 1, 1, 1, 1, 13, 13, 9},  /* delete one row: up by 1 */
        {13, 6, 0, 3, 0, 1, 1, 13, 13, 9},  /* delete two columns: by 2 ld */
        {9, 7, 3, 2, 0, 0, 1, 13, 13, 9},   /* general move towards start */
        {13, 8, 0, 1, 0, 0, 1, 13, 13, 9},  /* full-height, contiguous */
        {6, 4, 1, 1, 0, 0, 0, 13, 7, 9},    /* separate buffers, other ld */
        {700, 5, 3, 0, 0, 0, 1, 705, 705, 5}, /* delete rows 0..2: up by 3 */
        {517, 4, 300, 1, 297, 1, 1, 821, 821, 6}, /* rows 297..299 */
        {2100, 3, 5, 0, 0, 0, 1, 2105, 2105, 3}, /* several chunks a column */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int ld = cases[c].ld, cols = cases[c].cols;
        size_t len = (size_t)ld * cols;
        double *h = hrand(dt, len), *ref = hnew(len), *g = hnew(len);
        dbuf a = dnew(dt, len), b = cases[c].same ? a : dnew(dt, len);
        dput(dt, a, h);
        double *hb = cases[c].same ? h : hrand(dt, len);
        if (!cases[c].same)
            dput(dt, b, hb);
        memcpy(ref, hb, len * sizeof *ref);
        int ldd = cases[c].ldd;
        for (int j = 0; j < cases[c].n; ++j)
            for (int i = 0; i < cases[c].m; ++i)
                ref[AT(0, cases[c].di + i, cases[c].dj + j, ldd)] =
                    h[AT(0, cases[c].si + i, cases[c].sj + j, ld)];
        int st = O->copy(ctx, dt, cases[c].m, cases[c].n,
                         qru_ptr_at(a.p, ld, cases[c].si, cases[c].sj), ld,
                         qru_ptr_at(b.p, ldd, cases[c].di, cases[c].dj), ldd);
        ck_assert_int_eq(st, 0);
        dget(dt, b, g);
        expect_equal("copy", dt, g, ref, len);
        dfree(a);
        if (!cases[c].same) {
            dfree(b);
            free(hb);
        }
        free(h);
        free(ref);
        free(g);
    }
}
END_TEST

START_TEST(test_laset)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    const char uplos[] = {'A', 'U', 'L'};
    int shapes[][2] = {{7, 5}, {5, 7}, {40, 33}};
    for (int s = 0; s < 3; ++s)
        for (int u = 0; u < 3; ++u) {
            int m = shapes[s][0], n = shapes[s][1], ld = m + 2;
            size_t len = (size_t)ld * n;
            double *h = hrand(dt, len), *g = hnew(len);
            dbuf b = dnew(dt, len);
            dput(dt, b, h);
            ck_assert_int_eq(O->laset(ctx, dt, uplos[u], m, n, -2.5, 3.0, b.p,
                                      ld),
                             0);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i)
                    if (uplos[u] == 'A' || (uplos[u] == 'U' && i <= j) ||
                        (uplos[u] == 'L' && i >= j))
                        h[AT(0, i, j, ld)] = i == j ? 3.0 : -2.5;
            dget(dt, b, g);
            expect_equal("laset", dt, g, h, len);
            dfree(b);
            free(h);
            free(g);
        }
}
END_TEST

START_TEST(test_transpose)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    int sz[] = {1, 31, 33, 70};
    for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 4; ++c) {
            int m = sz[a], n = sz[c], lda = m + 3, ldb = n + 2;
            size_t la = (size_t)lda * n + 5, lb = (size_t)ldb * m + 4;
            double *ha = hrand(dt, la), *hb = hrand(dt, lb), *g = hnew(lb);
            dbuf A = dnew(dt, la), B = dnew(dt, lb);
            dput(dt, A, ha);
            dput(dt, B, hb);
            ck_assert_int_eq(O->transpose(ctx, dt, m, n, qru_ptr_add(A.p, 5),
                                          lda, qru_ptr_add(B.p, 4), ldb),
                             0);
            for (int j = 0; j < n; ++j)
                for (int i = 0; i < m; ++i)
                    hb[AT(4, j, i, ldb)] = ha[AT(5, i, j, lda)];
            dget(dt, B, g);
            expect_equal("transpose", dt, g, hb, lb);
            dfree(A);
            dfree(B);
            free(ha);
            free(hb);
            free(g);
        }
}
END_TEST

/* ---- BLAS ---------------------------------------------------------------- */

START_TEST(test_gemm)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    /* a matrix, and one column or one row of C (matrix-vector products
     * where a backend forwards them) */
    static const int shapes[4][2] = {{37, 29}, {37, 1}, {1, 29}, {1, 1}};
    int k = 41;
    for (int sh = 0; sh < 4; ++sh)
    for (int t = 0; t < 6; ++t) {
        int m = shapes[sh][0], n = shapes[sh][1];
        char ta = (t & 1) ? 'T' : 'N', tb = (t & 2) ? 'T' : 'N';
        int kk = t == 4 ? 0 : k;       /* case 4: k = 0 */
        double beta = t >= 4 ? 0.0 : -0.3; /* 4, 5: C is NaN, not read */
        int lda = (ta == 'N' ? m : kk) + 1, ldb = (tb == 'N' ? kk : n) + 2;
        int ldc = m + 3;
        size_t la = (size_t)lda * (ta == 'N' ? kk : m) + 1;
        size_t lb = (size_t)ldb * (tb == 'N' ? n : kk) + 1;
        size_t lc = (size_t)ldc * n;
        double *A = hrand(dt, la), *B = hrand(dt, lb), *C = hrand(dt, lc);
        double *ref = hnew(lc), *g = hnew(lc);
        if (t >= 4)
            for (size_t q = 0; q < lc; ++q)
                C[q] = NAN;
        dbuf dA = dnew(dt, la), dB = dnew(dt, lb), dC = dnew(dt, lc);
        dput(dt, dA, A);
        dput(dt, dB, B);
        dput(dt, dC, C);
        memcpy(ref, C, lc * sizeof *ref);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i) {
                double s = 0;
                for (int l = 0; l < kk; ++l)
                    s += (ta == 'N' ? A[AT(0, i, l, lda)] : A[AT(0, l, i, lda)]) *
                         (tb == 'N' ? B[AT(0, l, j, ldb)] : B[AT(0, j, l, ldb)]);
                ref[AT(0, i, j, ldc)] =
                    0.7 * s + (beta == 0.0 ? 0.0 : beta * C[AT(0, i, j, ldc)]);
            }
        ck_assert_int_eq(O->gemm(ctx, dt, ta, tb, m, n, kk, 0.7, dA.p, lda,
                                 dB.p, ldb, beta, dC.p, ldc),
                         0);
        dget(dt, dC, g);
        /* rows m..ldc-1 of C are padding: the op must leave them */
        for (int j = 0; j < n; ++j)
            for (int i = m; i < ldc; ++i) {
                g[AT(0, i, j, ldc)] = 0;
                ref[AT(0, i, j, ldc)] = 0;
            }
        expect_close("gemm", dt, g, ref, lc, 1.0, 4.0 * (k + 2) * eps);
        dfree(dA);
        dfree(dB);
        dfree(dC);
        free(A);
        free(B);
        free(C);
        free(ref);
        free(g);
    }
}
END_TEST

/* A triangular test matrix for the trsm tests: A (rows x na, ld lda; rows
 * is na or lda) has a diagonal of 2 + 0.5 u and off-diagonal elements
 * off * u (u uniform, rounded to float for float) in its uplo triangle
 * and NaN in the other (and on the diagonal when diag is 'U' and
 * nan_unit); F (na x na) is op(A) as a full matrix, its diagonal 1 for
 * diag 'U'. */
static void tri_fill(qru_dtype dt, char uplo, char ta, char diag, int na,
                     int rows, int lda, double off, int nan_unit, double *A,
                     double *F)
{
    for (int j = 0; j < na; ++j)
        for (int i = 0; i < rows; ++i) {
            int in = uplo == 'U' ? i < j : i > j;
            double v = i == j ? 2.0 + 0.5 * urand() : off * urand();
            if (dt == QRU_FLOAT)
                v = (double)(float)v;
            A[AT(0, i, j, lda)] =
                in || (i == j && !(nan_unit && diag == 'U')) ? v : NAN;
            if (i >= na)
                continue;
            double e = in ? v : (i == j ? (diag == 'U' ? 1.0 : v) : 0.0);
            if (ta == 'N')
                F[AT(0, i, j, na)] = e;
            else
                F[AT(0, j, i, na)] = e;
        }
}

/* The residual of a trsm result X (m x n, ld ldb) against alpha B with F
 * = op(A) full (na x na): max |op(A) X - alpha B| (side 'L') or
 * max |X op(A) - alpha B| (side 'R') to *rmax, max |X| to *xmax (a NaN
 * in either is kept). */
static void trsm_residual(char side, int m, int n, int na, const double *F,
                          const double *X, const double *B, int ldb,
                          double alpha, double *rmax, double *xmax)
{
    *rmax = 0.0;
    *xmax = 0.0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
            double s = 0;
            for (int l = 0; l < na; ++l)
                s += side == 'L' ? F[AT(0, i, l, na)] * X[AT(0, l, j, ldb)]
                                 : X[AT(0, i, l, ldb)] * F[AT(0, l, j, na)];
            double r = fabs(s - alpha * B[AT(0, i, j, ldb)]);
            *rmax = r > *rmax || isnan(r) ? r : *rmax;
            double x = fabs(X[AT(0, i, j, ldb)]);
            *xmax = x > *xmax || isnan(x) ? x : *xmax;
        }
}

START_TEST(test_trsm)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    for (int c = 0; c < 16; ++c) {
        char side = (c & 1) ? 'R' : 'L', uplo = (c & 2) ? 'U' : 'L';
        char ta = (c & 4) ? 'T' : 'N', diag = (c & 8) ? 'U' : 'N';
        int m = 23, n = 17, na = side == 'L' ? m : n, lda = na + 1, ldb = m + 2;
        size_t la = (size_t)lda * na, lb = (size_t)ldb * n;
        double *A = hnew(la), *B = hrand(dt, lb), *X = hnew(lb);
        double *F = hnew((size_t)na * na); /* op(A) as a full matrix */
        tri_fill(dt, uplo, ta, diag, na, na, lda, 0.3, 0, A, F);
        dbuf dA = dnew(dt, la), dB = dnew(dt, lb);
        dput(dt, dA, A);
        dput(dt, dB, B);
        ck_assert_int_eq(O->trsm(ctx, dt, side, uplo, ta, diag, m, n, 1.5,
                                 dA.p, lda, dB.p, ldb),
                         0);
        dget(dt, dB, X);
        double rmax, xmax;
        trsm_residual(side, m, n, na, F, X, B, ldb, 1.5, &rmax, &xmax);
        ck_assert_msg(rmax <= 30.0 * na * eps * (xmax + 1.0),
                      "trsm %c%c%c%c: residual %g", side, uplo, ta, diag, rmax);
        dfree(dA);
        dfree(dB);
        free(A);
        free(B);
        free(X);
        free(F);
    }
}
END_TEST

/* trsm with few right-hand sides on the left (the CUDA backend's own
 * kernel for n <= 8 and m >= 1024, blocks of 64 rows; cuBLAS otherwise):
 * sizes around the block boundaries (1024 = 16 blocks, 1087 and 1089: a
 * last block of 63 and of 1 rows, 2100: of 52) and below the threshold,
 * every uplo / transa / diag, ld > m, alpha != 1, NaN in the triangle not
 * referenced (and on a unit diagonal), the rows of B beyond m untouched;
 * n = 9 falls back */
START_TEST(test_trsm_few)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    static const int ms[] = {1, 63, 64, 65, 197, 1024, 1087, 1089, 2100};
    static const int ns[] = {1, 3, 8, 9};
    /* QRU_TUNE_TRSV_MIN_M (used by CUDA only): the default, then qru's
     * kernel at every m (1), then the vendor's everywhere (0) */
    int min0 = 0;
    ck_assert_int_eq(
        qru_context_get_tuning(ctx, dt, QRU_TUNE_TRSV_MIN_M, &min0), 0);
    int passes = qru_test_backend() == QRU_BACKEND_CUDA ? 3 : 1;
    for (int pass = 0; pass < passes; ++pass) {
        ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_TRSV_MIN_M,
                                                pass == 0 ? min0 : 2 - pass),
                         0);
        for (size_t mi = 0; mi < sizeof ms / sizeof *ms; ++mi)
            for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ++ni) {
                int m = ms[mi], n = ns[ni];
                if (m > 1000 && n > 3)
                    continue; /* the host residual */
                for (int c = 0; c < 8; ++c) {
                    char uplo = (c & 1) ? 'U' : 'L', ta = (c & 2) ? 'T' : 'N';
                    char diag = (c & 4) ? 'U' : 'N';
                    int na = m, lda = na + 3, ldb = m + 2;
                    double alpha = -1.25, off = 0.5 / sqrt((double)na);
                    size_t la = (size_t)lda * na, lb = (size_t)ldb * n;
                    double *A = hnew(la), *B = hrand(dt, lb), *X = hnew(lb);
                    double *F = hnew((size_t)na * na); /* op(A), full */
                    tri_fill(dt, uplo, ta, diag, na, lda, lda, off, 1, A, F);
                    dbuf dA = dnew(dt, la), dB = dnew(dt, lb);
                    dput(dt, dA, A);
                    dput(dt, dB, B);
                    ck_assert_int_eq(O->trsm(ctx, dt, 'L', uplo, ta, diag, m, n,
                                             alpha, dA.p, lda, dB.p, ldb),
                                     0);
                    dget(dt, dB, X);
                    for (int j = 0; j < n; ++j)
                        for (int i = m; i < ldb; ++i)
                            ck_assert_msg(X[AT(0, i, j, ldb)] ==
                                              B[AT(0, i, j, ldb)],
                                          "trsm_few m %d: row %d of B changed",
                                          m, i);
                    double rmax, xmax;
                    trsm_residual('L', m, n, na, F, X, B, ldb, alpha, &rmax,
                                  &xmax);
                    ck_assert_msg(rmax <= 30.0 * na * eps * (xmax + 1.0),
                                  "trsm_few L%c%c%c m %d n %d pass %d: "
                                  "residual %g",
                                  uplo, ta, diag, m, n, pass, rmax);
                    dfree(dA);
                    dfree(dB);
                    free(A);
                    free(B);
                    free(X);
                    free(F);
                }
            }
    }
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_TRSV_MIN_M, min0), 0);
}
END_TEST

START_TEST(test_col_norms)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int m = 300, n = 6, ld = m + 1;
    /* huge and tiny columns: a plain sum of squares would overflow or
     * underflow in float */
    double scales[] = {1.0, 1e30, 1e-30, 0.0, 3.0, 1.0};
    size_t len = (size_t)ld * n;
    double *A = hnew(len), *nr = hnew(n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            A[AT(0, i, j, ld)] = (j == 5 && i > 0) ? 0.0 : scales[j] * urand();
    hround(dt, A, len);
    dbuf d = dnew(dt, len);
    dput(dt, d, A);
    ck_assert_int_eq(O->col_norms(ctx, dt, m, n, d.p, ld, nr), 0);
    for (int j = 0; j < n; ++j) {
        double s = 0, mx = 0;
        for (int i = 0; i < m; ++i)
            mx = fabs(A[AT(0, i, j, ld)]) > mx ? fabs(A[AT(0, i, j, ld)]) : mx;
        for (int i = 0; i < m && mx > 0; ++i)
            s += (A[AT(0, i, j, ld)] / mx) * (A[AT(0, i, j, ld)] / mx);
        double want = mx * sqrt(s);
        ck_assert_msg(fabs(nr[j] - want) <= 10.0 * m * eps * want,
                      "col_norms: column %d: %.17g, want %.17g", j, nr[j],
                      want);
    }
    /* col_norms_dev: the same norms into a device vector (between two
     * guard elements), then m = 0: zeros */
    double *g = hnew(n + 2);
    dbuf dv = dnew(dt, (size_t)n + 2);
    for (int pass = 0; pass < 2; ++pass) {
        for (int j = 0; j < n + 2; ++j)
            g[j] = 7.0 + j;
        dput(dt, dv, g);
        qru_ptr out = {dv.p.h, dv.p.off + 1};
        ck_assert_int_eq(O->col_norms_dev(ctx, dt, pass ? 0 : m, n, d.p, ld,
                                          out),
                         0);
        dget(dt, dv, g);
        ck_assert(g[0] == 7.0 && g[n + 1] == 8.0 + n);
        for (int j = 0; j < n; ++j)
            ck_assert_msg(pass ? g[j + 1] == 0.0
                               : fabs(g[j + 1] - nr[j]) <= 4.0 * eps * nr[j],
                          "col_norms_dev (m = %d): column %d: %.17g, want "
                          "%.17g", pass ? 0 : m, j, g[j + 1],
                          pass ? 0.0 : nr[j]);
    }
    dfree(dv);
    free(g);
    dfree(d);
    free(A);
    free(nr);
}
END_TEST

/* count_nonzero on vectors around the kernel's group sizes (the verdicts
 * of the batched ops): nonzeros at the ends and at random places, a NaN
 * and an infinity among them, -0 not; n = 0 gives 0.  count_nonfinite
 * on the same vectors counts the NaN and the infinity. */
START_TEST(test_count_nonzero)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    static const int NS[] = {1, 255, 256, 257, 4097, 70001};
    unsigned sd = 77u;
    for (size_t t = 0; t < sizeof NS / sizeof NS[0]; ++t) {
        int n = NS[t], want = 0, c = -1;
        double *x = hnew((size_t)n);
        for (int i = 0; i < n; ++i) {
            x[i] = qru_test_urand(&sd) < 0.9 ? (i % 2 ? -0.0 : 0.0)
                                               : (double)(1 + i % 5);
            if (i == n - 1 || i == 0)
                x[i] = -3.0;
        }
        if (n > 2) {
            x[n / 2] = NAN;
            x[n / 3] = n > 3 ? -INFINITY : x[n / 3];
        }
        for (int i = 0; i < n; ++i)
            want += x[i] != 0.0 || x[i] != x[i];
        dbuf d = dnew(dt, (size_t)n);
        dput(dt, d, x);
        ck_assert_int_eq(O->count_nonzero(ctx, dt, n, d.p, &c), 0);
        ck_assert_msg(c == want, "count_nonzero n = %d: %d, want %d", n, c,
                      want);
        ck_assert_int_eq(O->count_nonfinite(ctx, dt, 'A', n, 1, d.p, n, &c),
                         0);
        ck_assert_int_eq(c, n > 3 ? 2 : n > 2 ? 1 : 0);
        c = -1;
        ck_assert_int_eq(O->count_nonzero(ctx, dt, 0, d.p, &c), 0);
        ck_assert_int_eq(c, 0);
        dfree(d);
        free(x);
    }
}
END_TEST

/* ---- Householder kernels ------------------------------------------------ */

START_TEST(test_house)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int sizes[] = {0, 1, 5, 300, 1000, 5000};
    for (int s = 0; s < 6; ++s)
        for (int var = 0; var < 4; ++var) {
            /* var 0: alpha > 0, 1: alpha < 0, 2: x == 0, 3: v == x */
            int n = sizes[s];
            size_t len = 2 + 2 * (size_t)n; /* [tau, alpha, x, v] */
            double *h = hrand(dt, len), *g = hnew(len);
            h[1] = var == 1 ? -fabs(h[1]) - 0.5 : fabs(h[1]) + 0.5;
            if (var == 2)
                for (int i = 0; i < n; ++i)
                    h[2 + i] = 0.0;
            h[0] = 99.0;
            dbuf d = dnew(dt, len);
            dput(dt, d, h);
            qru_ptr tau = d.p, alpha = qru_ptr_add(d.p, 1),
                    x = qru_ptr_add(d.p, 2),
                    v = var == 3 ? x : qru_ptr_add(d.p, 2 + (size_t)n);
            ck_assert_int_eq(O->house(ctx, dt, n, alpha, x, v, tau), 0);
            dget(dt, d, g);
            double a = h[1], xn = 0;
            for (int i = 0; i < n; ++i)
                xn += h[2 + i] * h[2 + i];
            xn = sqrt(xn);
            double *ref = hnew(len);
            memcpy(ref, h, len * sizeof *ref);
            size_t vo = var == 3 ? 2 : 2 + (size_t)n;
            if (xn == 0.0) {
                ref[0] = 0.0;
                for (int i = 0; i < n; ++i)
                    ref[vo + i] = 0.0;
            } else {
                double beta = -copysign(sqrt(a * a + xn * xn), a);
                ref[0] = (beta - a) / beta;
                ref[1] = beta;
                for (int i = 0; i < n; ++i) {
                    ref[vo + i] = h[2 + i] / (a - beta);
                    if (var != 3)
                        ref[2 + i] = 0.0;
                }
            }
            for (size_t q = 0; q < len; ++q) /* relative to max(1, |ref|) */
                ck_assert_msg(fabs(g[q] - ref[q]) <=
                                  4.0 * (n + 10) * eps * fmax(1.0, fabs(ref[q])),
                              "house (n %d, case %d): element %zu: got %.17g, "
                              "want %.17g", n, var, q, g[q], ref[q]);
            /* H [alpha; x] = [beta; 0] with the computed tau, v */
            if (xn != 0.0) {
                double w = a;
                for (int i = 0; i < n; ++i)
                    w += g[vo + i] * h[2 + i];
                double top = a - g[0] * w, res = 0;
                for (int i = 0; i < n; ++i)
                    res = fmax(res, fabs(h[2 + i] - g[0] * g[vo + i] * w));
                ck_assert_msg(fabs(top - g[1]) <= 50.0 * n * eps * fabs(g[1]) &&
                                  res <= 50.0 * n * eps * fabs(g[1]),
                              "house: H [alpha; x] != [beta; 0] (n %d)", n);
            }
            dfree(d);
            free(h);
            free(g);
            free(ref);
        }
}
END_TEST

START_TEST(test_larf)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int shapes[][2] = {{40, 13}, {0, 3}, {1000, 5}, {10000, 2}, {3, 300},
                       {600, 70}};
    for (int s = 0; s < 6; ++s)
        for (int zero = 0; zero < 2; ++zero) {
            int m = shapes[s][0], n = shapes[s][1], ld = m + 4;
            /* [top; C] is an (1 + m) x n block of an array with ld: top is
             * row 2, C starts at row 3 */
            size_t lA = (size_t)ld * n + 3 + (size_t)m, lv = (size_t)m + 2;
            double *A = hrand(dt, lA), *v = hrand(dt, lv), *g = hnew(lA);
            double tau = zero ? 0.0 : 1.25;
            v[0] = tau;
            dbuf dA = dnew(dt, lA), dv = dnew(dt, lv), w = dnew(dt, n + 1);
            dput(dt, dA, A);
            dput(dt, dv, v);
            ck_assert_int_eq(O->larf(ctx, dt, m, n, qru_ptr_add(dv.p, 1),
                                     dv.p, qru_ptr_add(dA.p, 2), ld,
                                     qru_ptr_add(dA.p, 3), ld, w.p),
                             0);
            dget(dt, dA, g);
            for (int j = 0; j < n && tau != 0.0; ++j) {
                double wj = A[AT(2, 0, j, ld)];
                for (int i = 0; i < m; ++i)
                    wj += A[AT(3, i, j, ld)] * v[1 + i];
                A[AT(2, 0, j, ld)] -= tau * wj;
                for (int i = 0; i < m; ++i)
                    A[AT(3, i, j, ld)] -= tau * v[1 + i] * wj;
            }
            expect_close("larf", dt, g, A, lA, 1.0, 4.0 * (m + 2) * eps);
            dfree(dA);
            dfree(dv);
            dfree(w);
            free(A);
            free(v);
            free(g);
        }
}
END_TEST

START_TEST(test_wy_append)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int ms[] = {30, 3000};
    int js[] = {0, 1, 7, 31};
    for (int a = 0; a < 2; ++a)
        for (int b = 0; b < 4; ++b) {
            int m = ms[a], j = js[b], ld = m + 1, nb = j + 1;
            size_t len = (size_t)ld * nb;
            double *Y = hrand(dt, len), *W = hrand(dt, len), *g = hnew(len);
            double tau[1] = {0.75};
            dbuf dY = dnew(dt, len), dW = dnew(dt, len), dt1 = dnew(dt, 1),
                 wk = dnew(dt, (size_t)j + 1);
            dput(dt, dY, Y);
            dput(dt, dW, W);
            dput(dt, dt1, tau);
            ck_assert_int_eq(O->wy_append(ctx, dt, m, j, dY.p, ld, dW.p, ld,
                                          dt1.p, wk.p),
                             0);
            dget(dt, dW, g);
            double *z = hnew((size_t)j);
            for (int c = 0; c < j; ++c)
                for (int i = 0; i < m; ++i)
                    z[c] += Y[AT(0, i, c, ld)] * Y[AT(0, i, j, ld)];
            for (int i = 0; i < m; ++i) {
                double s = Y[AT(0, i, j, ld)];
                for (int c = 0; c < j; ++c)
                    s += W[AT(0, i, c, ld)] * z[c];
                W[AT(0, i, j, ld)] = -0.75 * s;
            }
            expect_close("wy_append", dt, g, W, len, 1.0,
                         4.0 * (m + 2) * (j + 1) * eps);
            dfree(dY);
            dfree(dW);
            dfree(dt1);
            dfree(wk);
            free(Y);
            free(W);
            free(g);
            free(z);
        }
}
END_TEST

/* ---- update kernels ------------------------------------------------------ */

START_TEST(test_givens)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int ld = 12, cols = 10;
    size_t len = (size_t)ld * cols;
    /* make: rotation t zeroes X(t+1, t) against X(t, t) (a subdiagonal
     * strip: inc = ld + 1, ps = 1), with special pairs */
    int cnt = 9;
    double *X = hrand(dt, len), *cs = hnew(2 * (size_t)cnt + 2);
    X[AT(0, 1, 0, ld)] = 0.0;                       /* b = 0 */
    X[AT(0, 1, 1, ld)] = 0.0, X[AT(0, 2, 1, ld)] = 0.0; /* a = b = 0 */
    X[AT(0, 2, 2, ld)] = 0.0;                       /* a = 0 */
    X[AT(0, 3, 3, ld)] = 3e30, X[AT(0, 4, 3, ld)] = -4e30; /* huge */
    X[AT(0, 4, 4, ld)] = 3e-30, X[AT(0, 5, 4, ld)] = 4e-30; /* tiny */
    hround(dt, X, len);
    dbuf dX = dnew(dt, len), dcs = dnew(dt, 2 * (size_t)cnt + 2);
    dput(dt, dX, X);
    dput(dt, dcs, cs);
    ck_assert_int_eq(O->givens_make(ctx, dt, cnt, dX.p, ld + 1, 1,
                                    qru_ptr_add(dcs.p, 1)),
                     0);
    double *g = hnew(2 * (size_t)cnt + 2), *ref = hnew(2 * (size_t)cnt + 2);
    dget(dt, dcs, g);
    for (int t = 0; t < cnt; ++t) {
        double a = X[AT(0, t, t, ld)], b = X[AT(0, t + 1, t, ld)];
        double r = hypot(a, b);
        ref[1 + 2 * t] = b == 0.0 ? 1.0 : a / r;
        ref[2 + 2 * t] = b == 0.0 ? 0.0 : b / r;
    }
    expect_close("givens_make", dt, g, ref, 2 * (size_t)cnt + 2, 1.0,
                 8.0 * eps);
    /* X unchanged */
    double *gx = hnew(len);
    dget(dt, dX, gx);
    expect_equal("givens_make (X read only)", dt, gx, X, len);

    /* apply: (1) pairs of adjacent rows (2t, 2t+1) over 9 columns,
     * (2) pairs of adjacent columns (2t, 2t+1) over 11 rows */
    for (int mode = 0; mode < 2; ++mode) {
        int acnt = mode == 0 ? 5 : 4, alen = mode == 0 ? 9 : 11;
        int inc = mode == 0 ? 2 : 2 * ld, ps = mode == 0 ? 1 : ld,
            es = mode == 0 ? ld : 1;
        double *c2 = hnew(2 * (size_t)acnt);
        for (int t = 0; t < acnt; ++t) {
            double th = 1.0 + t;
            c2[2 * t] = t == 1 ? 1.0 : cos(th);
            c2[2 * t + 1] = t == 1 ? 0.0 : sin(th);
        }
        hround(dt, c2, 2 * (size_t)acnt);
        double *Z = hrand(dt, len), *gz = hnew(len);
        dbuf dZ = dnew(dt, len), dc = dnew(dt, 2 * (size_t)acnt);
        dput(dt, dZ, Z);
        dput(dt, dc, c2);
        ck_assert_int_eq(O->givens_apply(ctx, dt, acnt, alen, dc.p,
                                         qru_ptr_add(dZ.p, 1), inc, ps, es),
                         0);
        dget(dt, dZ, gz);
        for (int t = 0; t < acnt; ++t)
            for (int e = 0; e < alen; ++e) {
                size_t px = 1 + (size_t)t * inc + (size_t)e * es;
                double x = Z[px], y = Z[px + ps];
                Z[px] = c2[2 * t] * x + c2[2 * t + 1] * y;
                Z[px + ps] = c2[2 * t] * y - c2[2 * t + 1] * x;
            }
        expect_close("givens_apply", dt, gz, Z, len, 1.0, 8.0 * eps);
        dfree(dZ);
        dfree(dc);
        free(c2);
        free(Z);
        free(gz);
    }
    dfree(dX);
    dfree(dcs);
    free(X);
    free(cs);
    free(g);
    free(ref);
    free(gx);
}
END_TEST

/* lane / lane_mark / lane_join (optional: one queue does nothing): a
 * chain of ops across the two queues whose result depends on their
 * order.  Queue 0: B = A; mark; C := 2 C (not ordered before queue 1's
 * work, touches nothing it reads); queue 1: B := B + 3 A (after the
 * mark: sees B = A); queue 0 again: C := C + A, with no wait; join: D =
 * B (after queue 1).  Large enough that a missing order shows on a GPU:
 * D = 4 A, C = 2 C0 + A.  With QRU_TUNE_LOOKAHEAD off and on. */
START_TEST(test_lanes)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int m = 1500, n = 300;
    size_t len = (size_t)m * n;
    double *A = hrand(dt, len), *C0 = hrand(dt, len), *g = hnew(len),
           *ref = hnew(len);
    dbuf dA = dnew(dt, len), dB = dnew(dt, len), dC = dnew(dt, len),
         dD = dnew(dt, len);
    dput(dt, dA, A);
    dput(dt, dC, C0);
    int la0 = -1;
    ck_assert_int_eq(
        qru_context_get_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, &la0), 0);
    /* out of range [0, 1]: argument 4, the setting unchanged */
    int la1 = -1;
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, 2), -4);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, -1), -4);
    ck_assert_int_eq(
        qru_context_get_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, &la1), 0);
    ck_assert_int_eq(la1, la0);
    for (int rep = 0; rep < 4; ++rep) {
        /* QRU_TUNE_LOOKAHEAD off, then on (a backend without a second
         * queue ignores it) */
        ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD,
                                                rep % 2),
                         0);
        ck_assert_int_eq(O->copy(ctx, dt, m, n, dA.p, m, dB.p, m), 0);
        ck_assert_int_eq(O->lane_mark(ctx, dt), 0);
        ck_assert_int_eq(O->geadd(ctx, dt, m, n, 0.0, dA.p, m, 2.0, dC.p, m),
                         0);
        ck_assert_int_eq(O->lane(ctx, dt, 1), 0);
        ck_assert_int_eq(O->geadd(ctx, dt, m, n, 3.0, dA.p, m, 1.0, dB.p, m),
                         0);
        ck_assert_int_eq(O->lane(ctx, dt, 0), 0);
        ck_assert_int_eq(O->geadd(ctx, dt, m, n, 1.0, dA.p, m, 1.0, dC.p, m),
                         0);
        ck_assert_int_eq(O->lane_join(ctx), 0);
        ck_assert_int_eq(O->copy(ctx, dt, m, n, dB.p, m, dD.p, m), 0);
        dget(dt, dD, g);
        for (size_t q = 0; q < len; ++q)
            ref[q] = 4.0 * A[q];
        expect_close("lanes: D", dt, g, ref, len, 1.0, 8.0 * eps);
        dget(dt, dC, g);
        for (size_t q = 0; q < len; ++q)
            ref[q] = 2.0 * C0[q] + A[q];
        expect_close("lanes: C", dt, g, ref, len, 1.0, 16.0 * eps);
        memcpy(C0, g, len * sizeof *C0); /* the device's, for the next round */
    }
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, la0),
                     0);
    dfree(dA);
    dfree(dB);
    dfree(dC);
    dfree(dD);
    free(A);
    free(C0);
    free(g);
    free(ref);
}
END_TEST

/* ---- Cholesky kernels ------------------------------------------------------ */

START_TEST(test_syrk_lacpy)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    /* n = 1 too: the CUDA op takes a 1 x 1 GEMM there */
    for (int c = 0; c < 12; ++c) {
        char uplo = (c & 1) ? 'U' : 'L', tr = (c & 2) ? 'T' : 'N';
        int n = c >= 6 ? 1 : 20, k = c % 6 >= 4 ? 0 : 9,
            lda = (tr == 'N' ? n : k) + 1,
            ldc = n + 2;
        size_t la = (size_t)lda * (tr == 'N' ? k : n) + 1,
               lc = (size_t)ldc * n;
        double *A = hrand(dt, la), *C = hrand(dt, lc), *g = hnew(lc);
        dbuf dA = dnew(dt, la), dC = dnew(dt, lc);
        dput(dt, dA, A);
        dput(dt, dC, C);
        ck_assert_int_eq(O->syrk(ctx, dt, uplo, tr, n, k, 0.5, dA.p, lda,
                                 -1.5, dC.p, ldc),
                         0);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) {
                if (uplo == 'U' ? i > j : i < j)
                    continue;
                double s = 0;
                for (int l = 0; l < k; ++l)
                    s += tr == 'N' ? A[AT(0, i, l, lda)] * A[AT(0, j, l, lda)]
                                   : A[AT(0, l, i, lda)] * A[AT(0, l, j, lda)];
                C[AT(0, i, j, ldc)] = 0.5 * s - 1.5 * C[AT(0, i, j, ldc)];
            }
        dget(dt, dC, g);
        expect_close("syrk", dt, g, C, lc, 1.0, 4.0 * (k + 2) * eps);
        dfree(dA);
        dfree(dC);
        free(A);
        free(C);
        free(g);
    }
    /* n = 1 with long k (the GPU backends' one-work-group dot: k beyond
     * one pass of the group, not a multiple of it), both transposes, beta
     * = 0 with NaN in C (C is not read then) */
    for (int c = 0; c < 8; ++c) {
        char tr = (c & 1) ? 'T' : 'N';
        int k = (c & 2) ? 4097 : 1000, ld = tr == 'N' ? 3 : k + 2;
        double beta = (c & 4) ? 0.0 : -1.5;
        size_t la = (size_t)ld * (tr == 'N' ? k : 1);
        double *A = hrand(dt, la), *C = hrand(dt, 2), g[2];
        if (beta == 0.0)
            C[0] = NAN;
        dbuf dA = dnew(dt, la), dC = dnew(dt, 2);
        dput(dt, dA, A);
        dput(dt, dC, C);
        ck_assert_int_eq(O->syrk(ctx, dt, c % 3 ? 'L' : 'U', tr, 1, k, 0.75,
                                 dA.p, ld, beta, dC.p, 2),
                         0);
        double s = 0.0;
        for (int l = 0; l < k; ++l) {
            double a = tr == 'N' ? A[(size_t)l * ld] : A[l];
            s += a * a;
        }
        double want[2] = {0.75 * s + (beta == 0.0 ? 0.0 : beta * C[0]), C[1]};
        dget(dt, dC, g);
        /* the error against the sum's size (k eps bound of a sum) */
        expect_close("syrk n = 1", dt, g, want, 2, 0.75 * s + 1.5,
                     4.0 * (k + 2) * eps);
        dfree(dA);
        dfree(dC);
        free(A);
        free(C);
    }
    const char uplos[] = {'A', 'U', 'L'};
    for (int u = 0; u < 3; ++u) {
        int m = 9, n = 14, ld = 11;
        size_t len = (size_t)ld * n;
        double *A = hrand(dt, len), *B = hrand(dt, len), *g = hnew(len);
        dbuf dA = dnew(dt, len), dB = dnew(dt, len);
        dput(dt, dA, A);
        dput(dt, dB, B);
        ck_assert_int_eq(O->lacpy(ctx, dt, uplos[u], m, n, dA.p, ld, dB.p, ld),
                         0);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < m; ++i)
                if (uplos[u] == 'A' || (uplos[u] == 'U' && i <= j) ||
                    (uplos[u] == 'L' && i >= j))
                    B[AT(0, i, j, ld)] = A[AT(0, i, j, ld)];
        dget(dt, dB, g);
        expect_equal("lacpy", dt, g, B, len);
        dfree(dA);
        dfree(dB);
        free(A);
        free(B);
        free(g);
    }
}
END_TEST

/* SPD n x n matrix (ld) in double: B B' + n I */
static double *spd(qru_dtype dt, int n, int ld)
{
    double *Bm = hrand(dt, (size_t)n * n), *A = hnew((size_t)ld * n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double s = i == j ? n : 0.0;
            for (int l = 0; l < n; ++l)
                s += Bm[AT(0, i, l, n)] * Bm[AT(0, j, l, n)];
            A[AT(0, i, j, ld)] = s;
        }
    hround(dt, A, (size_t)ld * n);
    free(Bm);
    return A;
}

START_TEST(test_potrf_panel)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int sizes[] = {1, 37, 128};
    for (int s = 0; s < 3; ++s)
        for (int u = 0; u < 2; ++u)
            for (int fail = 0; fail < 3; ++fail) {
                /* fail 0: SPD; 1: pivot 5 (or 0) not positive; 2: info
                 * already set, nothing done */
                int n = sizes[s], ld = n + 3;
                char uplo = u ? 'U' : 'L';
                double *A = spd(dt, n, ld), *g = hnew((size_t)ld * n);
                int bad = n > 5 ? 5 : 0;
                if (fail == 1)
                    A[AT(0, bad, bad, ld)] = -1.0;
                for (int j = 0; j < n; ++j) /* the other triangle: NaN */
                    for (int i = 0; i < n; ++i)
                        if (u ? i > j : i < j)
                            A[AT(0, i, j, ld)] = NAN;
                double info0 = fail == 2 ? 4.0 : 0.0, info;
                dbuf dA = dnew(dt, (size_t)ld * n), di = dnew(dt, 1);
                dput(dt, dA, A);
                dput(dt, di, &info0);
                ck_assert_int_eq(O->potrf_panel(ctx, dt, uplo, n, dA.p, ld,
                                                di.p, 100),
                                 0);
                dget(dt, dA, g);
                dget(dt, di, &info);
                if (fail == 2) {
                    ck_assert(info == 4.0);
                    expect_equal("potrf_panel (info set)", dt, g, A,
                                 (size_t)ld * n);
                } else if (fail == 1) {
                    ck_assert_msg(info == 100 + bad + 1,
                                  "potrf_panel: info %g, want %d", info,
                                  100 + bad + 1);
                } else {
                    ck_assert_msg(info == 0.0, "potrf_panel: info %g", info);
                    /* L L' = A on the triangle; the other one untouched */
                    double err = 0;
                    for (int j = 0; j < n; ++j)
                        for (int i = 0; i < n; ++i) {
                            if (u ? i > j : i < j) {
                                ck_assert(isnan(g[AT(0, i, j, ld)]));
                                continue;
                            }
                            int r = u ? j : i, c = u ? i : j; /* L(r, c) */
                            double sum = 0;
                            for (int l = 0; l <= c; ++l) {
                                double lr = u ? g[AT(0, l, r, ld)]
                                              : g[AT(0, r, l, ld)];
                                double lc = u ? g[AT(0, l, c, ld)]
                                              : g[AT(0, c, l, ld)];
                                sum += lr * lc;
                            }
                            err = fmax(err, fabs(sum - A[AT(0, i, j, ld)]) /
                                                (2.0 * n));
                        }
                    ck_assert_msg(err <= 30.0 * n * eps,
                                  "potrf_panel %c n %d: error %g", uplo, n,
                                  err);
                }
                dfree(dA);
                dfree(di);
                free(A);
                free(g);
            }
}
END_TEST

START_TEST(test_chol_rot)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int n = 150, k = 3, ld = n + 1;
    /* L: a well-conditioned lower factor */
    double *L = hnew((size_t)ld * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            L[AT(0, i, j, ld)] = i == j ? 2.0 + urand() * 0.5 : 0.2 * urand();
    for (int j = 1; j < n; ++j) /* strictly upper: NaN, never read */
        for (int i = 0; i < j; ++i)
            L[AT(0, i, j, ld)] = NAN;
    hround(dt, L, (size_t)ld * n);
    double *W = hnew((size_t)ld * k);
    for (size_t q = 0; q < (size_t)ld * k; ++q)
        W[q] = 0.5 * urand();
    hround(dt, W, (size_t)ld * k);
    double *g = hnew((size_t)ld * n);
    dbuf dL = dnew(dt, (size_t)ld * n), dW = dnew(dt, (size_t)ld * k),
         di = dnew(dt, 1);
    double zero = 0.0, info;
    /* update then downdate with the same W: back to L L' */
    for (int pass = 0; pass < 2; ++pass) {
        int sign = pass == 0 ? 1 : -1;
        double *Lin = pass == 0 ? L : g;
        if (pass == 0)
            dput(dt, dL, L);
        dput(dt, dW, W);
        dput(dt, di, &zero);
        double *Lcopy = hnew((size_t)ld * n);
        memcpy(Lcopy, Lin, (size_t)ld * n * sizeof *Lcopy);
        ck_assert_int_eq(O->chol_rot(ctx, dt, n, k, sign, dL.p, ld, dW.p, ld,
                                     di.p, 10),
                         0);
        dget(dt, dL, g);
        dget(dt, di, &info);
        ck_assert_msg(info == 0.0, "chol_rot: info %g", info);
        double err = 0;
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) {
                double s1 = 0, s0 = 0, sw = 0;
                for (int l = 0; l <= j; ++l) {
                    s1 += g[AT(0, i, l, ld)] * g[AT(0, j, l, ld)];
                    s0 += Lcopy[AT(0, i, l, ld)] * Lcopy[AT(0, j, l, ld)];
                }
                for (int q = 0; q < k; ++q)
                    sw += W[AT(0, i, q, ld)] * W[AT(0, j, q, ld)];
                err = fmax(err, fabs(s1 - (s0 + sign * sw)));
            }
        for (int j = 1; j < n; ++j)
            for (int i = 0; i < j; ++i)
                ck_assert(isnan(g[AT(0, i, j, ld)]));
        ck_assert_msg(err <= 30.0 * n * eps * 8.0, "chol_rot %+d: error %g",
                      sign, err);
        free(Lcopy);
    }
    /* a downdate that fails: W(0, 0) > L(0, 0) */
    dput(dt, dL, L);
    W[0] = 10.0;
    dput(dt, dW, W);
    dput(dt, di, &zero);
    ck_assert_int_eq(O->chol_rot(ctx, dt, n, k, -1, dL.p, ld, dW.p, ld, di.p,
                                 10),
                     0);
    dget(dt, di, &info);
    ck_assert_msg(info == 11.0, "chol_rot downdate: info %g, want 11", info);
    dfree(dL);
    dfree(dW);
    dfree(di);
    free(L);
    free(W);
    free(g);
}
END_TEST

/* The passes [*p0, *p1) of a test that runs npass passes (kernel variants
 * forced by the tuning block): all of them, or with QRU_TEST_PASS=i pass i
 * alone (none where the test has no pass i): racecheck takes minutes a
 * pass of the panel and sweeps cases, which then run side by side. */
static void pass_range(int npass, int *p0, int *p1)
{
    const char *e = getenv("QRU_TEST_PASS");
    *p0 = 0;
    *p1 = npass;
    if (e && *e) {
        int i = atoi(e);
        *p0 = i >= 0 && i < npass ? i : npass;
        *p1 = *p0 < npass ? i + 1 : npass;
    }
}

/* 1 if case c of a sized loop runs: every case, or with QRU_TEST_SIZE=c
 * that one alone (the panel and sweeps cases; with QRU_TEST_PASS one
 * size of one pass a run, so that the largest sizes, which take
 * racecheck minutes each, run in parallel or on several GPUs). */
static int size_selected(int c)
{
    const char *e = getenv("QRU_TEST_SIZE");
    return !(e && *e) || atoi(e) == c;
}

/* ---- complex data: the fused ops against their reference ops ------ */

/* dfree / free of n buffers (varargs: dbuf, double *) */
static void dfree_n(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; ++i)
        dfree(va_arg(ap, dbuf));
    va_end(ap);
}

static void free_n(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; ++i)
        free(va_arg(ap, double *));
    va_end(ap);
}

/* The complex type of loop index i (0: complex float, 1: complex
 * double), QRU_FLOAT if the context does not take it. */
static qru_dtype zdt(int i)
{
    qru_dtype dt = i == 0 ? QRU_COMPLEX_FLOAT : QRU_COMPLEX_DOUBLE;
    return qru_context_supports(ctx, dt) ? dt : QRU_FLOAT;
}

/* len complex elements as (re, im) pairs of doubles (2 len), rounded to
 * dt's precision */
static double *zrand(qru_dtype dt, size_t len)
{
    double *h = hrand(qru_dtype_real(dt), 2 * len);
    return h;
}

/* |a_i - b_i| for complex element i of two (re, im) arrays */
static double zdiff(const double *a, const double *b, size_t i)
{
    return hypot(a[2 * i] - b[2 * i], a[2 * i + 1] - b[2 * i + 1]);
}

/* Valid complex rotations (c real, s complex, c^2 + |s|^2 = 1) into cs,
 * every k-th the identity (c = 1, s = 0, which the kernels skip). */
static void zrot_rand(qru_dtype dt, double *cs, size_t nrot, size_t k,
                      size_t k0)
{
    for (size_t q = 0; q < nrot; ++q) {
        double a = urand() * 3.14159265359, ph = urand() * 3.14159265359;
        int id = q % k == k0;
        cs[4 * q] = id ? 1.0 : fabs(cos(a));
        cs[4 * q + 1] = 0.0;
        cs[4 * q + 2] = id ? 0.0 : sin(a) * cos(ph);
        cs[4 * q + 3] = id ? 0.0 : sin(a) * sin(ph);
    }
    hround(qru_dtype_real(dt), cs, 4 * nrot);
}

/* Host replay of the sweeps with zlartg's rotations (qru_givens_make)
 * in double, for the conditioning of each rotation formed (make): X (re,
 * im pairs, strides xrs, xcs in elements); rr[q] = |a| of rotation q
 * formed from (a, b), r where a = 0 (1 unformed). */
static void zref_sweeps_r(int L, int p, double *X, long xrs, long xcs,
                          int nr, int from_jlo, double *rr)
{
    long off = 0;
    for (int t = 0; t < L + p - 1; ++t) {
        int lo, cnt, i0;
        qru_sweep_step(L, p, t, &lo, &cnt, &i0);
        for (int q = 0; q < cnt; ++q) {
            long pa = (long)(i0 - 1 + 2 * q) * xcs, pb = pa + xcs;
            long ja = 2 * (pa + (lo + q) * xrs), jb = 2 * (pb + (lo + q) * xrs);
            double ar = X[ja], ai = X[ja + 1], br = X[jb], bi = X[jb + 1];
            double fa = hypot(ar, ai), fb = hypot(br, bi), r = hypot(fa, fb);
            double c = 1.0, sr = 0.0, si = 0.0;
            rr[off + q] = 1.0;
            if (fb != 0.0) {
                /* s = (a / |a|) conj(b) / r takes a's phase: an error d
                 * in a turns s by about d / |a|, c moves by d / r */
                rr[off + q] = fa > 0.0 ? fa : r;
                if (fa == 0.0) {
                    c = 0.0;
                    sr = br / fb;
                    si = -bi / fb;
                } else { /* s = (a / |a|) conj(b) / r */
                    c = fa / r;
                    sr = (ar * br + ai * bi) / (fa * r);
                    si = (ai * br - ar * bi) / (fa * r);
                }
            }
            for (int r0 = from_jlo ? lo : 0, e = r0; e < nr; ++e) {
                double *x = X + 2 * (pa + e * xrs), *y = X + 2 * (pb + e * xrs);
                double xr = x[0], xi = x[1], yr = y[0], yi = y[1];
                x[0] = c * xr + sr * yr - si * yi;
                x[1] = c * xi + sr * yi + si * yr;
                y[0] = c * yr - (sr * xr + si * xi);
                y[1] = c * yi - (sr * xi - si * xr);
            }
        }
        off += cnt;
    }
}

/* givens_sweeps on complex data, case (L, p, nr, from_jlo, transposed
 * strides, make) of test_givens_sweeps under the tuning's sweeps_kernel
 * pass: the backend's op against the reference op (givens_make /
 * givens_apply step by step) on the same random data.  Scaled errors:
 * X's by (L + p) eps times the largest row norm xn, the rotations' by
 * (L + p) eps xn / |a| (a rotation formed from a small a may differ by
 * more), each at most 30; formed rotations have a real c. */
static void zsweeps_case(qru_dtype dt, int pass, const int *cse)
{
    double eps = qru_test_eps(dt);
    int L = cse[0], p = cse[1], nr = cse[2];
    int fj = cse[3], tr = cse[4], make = cse[5];
    int ncol = L + p, ld = nr + 2;
    progress("givens_sweeps %s pass %d: L %d p %d nr %d",
             qru_test_type_name(dt), pass, L, p, nr);
    long xrs = tr ? ncol + 1 : 1, xcs = tr ? 1 : ld;
    size_t len = tr ? (size_t)nr * (ncol + 1) : (size_t)ld * ncol;
    size_t nrot = (size_t)L * p;
    double *X = zrand(dt, len), *cs = hnew(4 * nrot);
    if (!make)
        zrot_rand(dt, cs, nrot, 5, 2);
    dbuf dX = dnew(dt, len), dc = dnew(dt, 2 * nrot);
    dbuf rX = dnew(dt, len), rc = dnew(dt, 2 * nrot);
    dput(dt, dX, X);
    dput(dt, dc, cs);
    dput(dt, rX, X);
    dput(dt, rc, cs);
    ck_assert_int_eq(O->givens_sweeps(ctx, dt, L, p, make, dX.p, xrs,
                                      xcs, nr, fj, dc.p),
                     0);
    ck_assert_int_eq(qru_ref_givens_sweeps(ctx, dt, L, p, make, rX.p,
                                           xrs, xcs, nr, fj, rc.p),
                     0);
    double *gX = hnew(2 * len), *gc = hnew(4 * nrot),
           *fX = hnew(2 * len), *fc = hnew(4 * nrot),
           *rr = hnew(nrot);
    dget(dt, dX, gX);
    dget(dt, dc, gc);
    dget(dt, rX, fX);
    dget(dt, rc, fc);
    double xn = 1e-300; /* the largest row norm (rotations keep it) */
    for (int r = 0; r < nr; ++r) {
        double t = 0.0;
        for (int cc = 0; cc < ncol; ++cc) {
            size_t e = (size_t)(r * xrs + cc * xcs);
            t += X[2 * e] * X[2 * e] + X[2 * e + 1] * X[2 * e + 1];
        }
        xn = fmax(xn, sqrt(t));
    }
    for (size_t q = 0; q < nrot; ++q)
        rr[q] = 1.0;
    if (make)
        zref_sweeps_r(L, p, X, xrs, xcs, nr, fj, rr);
    if (make && nr == p) /* X(r, c), c > r: unspecified */
        for (int r = 0; r < nr; ++r)
            for (int cc = r + 1; cc < ncol; ++cc) {
                size_t e = (size_t)(r * xrs + cc * xcs);
                gX[2 * e] = gX[2 * e + 1] = 0.0;
                fX[2 * e] = fX[2 * e + 1] = 0.0;
            }
    double ex = 0.0, ec = 0.0, u = (L + p) * eps;
    size_t wx = 0, wc = 0;
    for (size_t e = 0; e < len; ++e) {
        double d = zdiff(gX, fX, e) / (u * xn);
        if (!(d <= ex)) {
            ex = d;
            wx = e;
        }
    }
    /* a rotation formed from a and b that carry an error d (at most
     * 30 u xn, the bound on X above) is off by about d / r in c and d /
     * |a| in s (s has a's phase; r >= |a|): scaled by |a| / xn, its error
     * is on X's scale (r / xn was exceeded 10 times over on an H200,
     * complex double, L 400 p 200, by an s whose c was about 0.06) */
    for (size_t q = 0; q < 2 * nrot; ++q) {
        double d = zdiff(gc, fc, q) * fmin(1.0, rr[q / 2] / xn) / u;
        if (!(d <= ec)) {
            ec = d;
            wc = q;
        }
    }
    ck_assert_msg(ex <= 30.0,
                  "givens_sweeps %s X L %d p %d nr %d (sweeps_kernel "
                  "%d): element %zu: got (%.17g, %.17g), want (%.17g, "
                  "%.17g): scaled error %.3g > 30",
                  qru_test_type_name(dt), L, p, nr, pass, wx,
                  gX[2 * wx], gX[2 * wx + 1], fX[2 * wx],
                  fX[2 * wx + 1], ex);
    ck_assert_msg(ec <= 30.0,
                  "givens_sweeps %s cs L %d p %d (sweeps_kernel %d): "
                  "value %zu: got (%.17g, %.17g), want (%.17g, "
                  "%.17g): scaled error %.3g > 30",
                  qru_test_type_name(dt), L, p, pass, wc, gc[2 * wc],
                  gc[2 * wc + 1], fc[2 * wc], fc[2 * wc + 1], ec);
    if (make) /* c real, s such that c^2 + |s|^2 = 1 */
        for (size_t q = 0; q < nrot; ++q) {
            double n2 = gc[4 * q] * gc[4 * q] +
                        gc[4 * q + 2] * gc[4 * q + 2] +
                        gc[4 * q + 3] * gc[4 * q + 3];
            ck_assert_msg(gc[4 * q + 1] == 0.0 &&
                              fabs(n2 - 1.0) <= 30.0 * eps,
                          "givens_sweeps %s rotation %zu: c = (%g, "
                          "%g), c^2 + |s|^2 - 1 = %g",
                          qru_test_type_name(dt), q, gc[4 * q],
                          gc[4 * q + 1], n2 - 1.0);
        }
    dfree_n(4, dX, dc, rX, rc);
    free_n(7, X, cs, gX, gc, fX, fc, rr);
}

/* givens_accum on complex data, case (L, p, ab) of test_givens_accum:
 * the backend's op against the reference op (laset + givens_apply a
 * group step) on the same random rotations and the same garbage around
 * the groups' matrices; every element (the matrices are unitary) within
 * 30 (ab + 2 p) eps, the rest unchanged. */
static void zaccum_case(qru_dtype dt, const int *cse)
{
    double eps = qru_test_eps(dt);
    int L = cse[0], p = cse[1], ab = cse[2];
    int ng = (L + ab - 1) / ab, ldg = ab + p;
    progress("givens_accum %s L %d p %d ab %d", qru_test_type_name(dt),
             L, p, ab);
    size_t nrot = (size_t)L * p, lg = (size_t)ng * ldg * ldg;
    double *cs = hnew(4 * nrot);
    zrot_rand(dt, cs, nrot, 7, 3);
    double *G = zrand(dt, lg);
    dbuf dc = dnew(dt, 2 * nrot), dG = dnew(dt, lg), rG = dnew(dt, lg);
    dput(dt, dc, cs);
    dput(dt, dG, G);
    dput(dt, rG, G);
    ck_assert_int_eq(O->givens_accum(ctx, dt, L, p, ab, dc.p, dG.p, ldg),
                     0);
    ck_assert_int_eq(
        qru_ref_givens_accum(ctx, dt, L, p, ab, dc.p, rG.p, ldg), 0);
    double *gG = hnew(2 * lg), *fG = hnew(2 * lg);
    dget(dt, dG, gG);
    dget(dt, rG, fG);
    double tol = 30.0 * (ab + 2 * p) * eps;
    for (size_t e = 0; e < lg; ++e)
        ck_assert_msg(zdiff(gG, fG, e) <= tol,
                      "givens_accum %s L %d p %d ab %d: element %zu: got "
                      "(%.17g, %.17g), want (%.17g, %.17g) (error %.3g > "
                      "%.3g)",
                      qru_test_type_name(dt), L, p, ab, e, gG[2 * e],
                      gG[2 * e + 1], fG[2 * e], fG[2 * e + 1],
                      zdiff(gG, fG, e), tol);
    dfree_n(3, dc, dG, rG);
    free_n(4, cs, G, gG, fG);
}

/* The rows r0 .. ld-1 of the columns 0 .. nc-1 and all of column nc of
 * the complex array got (ld) bit-identical to orig's. */
static void zkept(const char *what, const double *got, const double *orig,
                  int r0, int ld, int nc)
{
    for (int j = 0; j <= nc; ++j)
        for (int i = j < nc ? r0 : 0; i < ld; ++i)
            ck_assert_msg(got[2 * AT(0, i, j, ld)] ==
                                  orig[2 * AT(0, i, j, ld)] &&
                              got[2 * AT(0, i, j, ld) + 1] ==
                                  orig[2 * AT(0, i, j, ld) + 1],
                          "%s(%d,%d) changed", what, i, j);
}

/* wy_left on complex data (W' the conjugate transpose), case (ytop, mt,
 * mb, nb, nc) of test_wy_left: the backend's op against the reference op
 * (the GEMM sequence) on the same random data, Y's identity top NaN (not
 * to be read); each element's error scaled by (m + nb) eps (|C| + |Y|
 * (|W'| |C|)) at most 30; padding rows and the column past nc
 * bit-identical. */
static void zwyl_case(qru_dtype dt, const int *cse)
{
    double eps = qru_test_eps(dt);
    int id = cse[0] == 'I', mt = cse[1], mb = cse[2],
        nb = cse[3], nc = cse[4], m = mt + mb;
    progress("wy_left %s %c %d + %d x %d, %d columns",
             qru_test_type_name(dt), cse[0], mt, mb, nb, nc);
    int lda = mt + 2, ldb = mb + 3, ldy = m + 1, ldw = m + 2;
    size_t lA = (size_t)lda * (nc + 1), lB = (size_t)ldb * (nc + 1),
           lY = (size_t)ldy * nb, lW = (size_t)ldw * nb;
    double *A = zrand(dt, lA), *B = zrand(dt, lB), *Y = zrand(dt, lY),
           *W = zrand(dt, lW);
    if (id) /* not to be read */
        for (int j = 0; j < nb; ++j)
            for (int i = 0; i < mt; ++i)
                Y[2 * AT(0, i, j, ldy)] = Y[2 * AT(0, i, j, ldy) + 1] =
                    NAN;
    dbuf dA = dnew(dt, lA), dB = dnew(dt, lB), dY = dnew(dt, lY),
         dW = dnew(dt, lW), dwk = dnew(dt, (size_t)nb * nc);
    dbuf rA = dnew(dt, lA), rB = dnew(dt, lB);
    dput(dt, dA, A);
    dput(dt, dB, B);
    dput(dt, rA, A);
    dput(dt, rB, B);
    dput(dt, dY, Y);
    dput(dt, dW, W);
    ck_assert_int_eq(O->wy_left(ctx, dt, (char)cse[0], mt, mb, nb,
                                nc, dY.p, ldy, dW.p, ldw, dA.p, lda, dB.p,
                                ldb, dwk.p),
                     0);
    ck_assert_int_eq(qru_ref_wy_left(ctx, dt, (char)cse[0], mt, mb,
                                     nb, nc, dY.p, ldy, dW.p, ldw, rA.p,
                                     lda, rB.p, ldb, dwk.p),
                     0);
    double *gA = hnew(2 * lA), *gB = hnew(2 * lB), *fA = hnew(2 * lA),
           *fB = hnew(2 * lB), *ab = hnew((size_t)nb * nc);
    dget(dt, dA, gA);
    dget(dt, dB, gB);
    dget(dt, rA, fA);
    dget(dt, rB, fB);
    /* moduli: C(l, j), then ab(k, j) = sum_l |W(l, k)| |C(l, j)| */
#define CMOD(l, j)                                                             \
((l) < mt ? hypot(A[2 * AT(0, l, j, lda)], A[2 * AT(0, l, j, lda) + 1])   \
          : hypot(B[2 * AT(0, (l) - mt, j, ldb)],                         \
                  B[2 * AT(0, (l) - mt, j, ldb) + 1]))
    for (int j = 0; j < nc; ++j)
        for (int k = 0; k < nb; ++k) {
            double t = 0.0;
            for (int l = 0; l < m; ++l)
                t += hypot(W[2 * AT(0, l, k, ldw)],
                           W[2 * AT(0, l, k, ldw) + 1]) *
                     CMOD(l, j);
            ab[AT(0, k, j, nb)] = t;
        }
    double emax = 0.0;
    int wi = 0, wj = 0;
    for (int j = 0; j < nc; ++j)
        for (int i = 0; i < m; ++i) {
            double bd = CMOD(i, j);
            for (int k = 0; k < nb; ++k) {
                double y = id && i < mt
                               ? (i == k)
                               : hypot(Y[2 * AT(0, i, k, ldy)],
                                       Y[2 * AT(0, i, k, ldy) + 1]);
                bd += y * ab[AT(0, k, j, nb)];
            }
            size_t e = i < mt ? AT(0, i, j, lda) : AT(0, i - mt, j, ldb);
            double d = i < mt ? zdiff(gA, fA, e) : zdiff(gB, fB, e);
            d /= (m + nb) * eps * fmax(bd, 1e-300);
            if (!(d <= emax)) {
                emax = d;
                wi = i;
                wj = j;
            }
        }
#undef CMOD
    ck_assert_msg(emax <= 30.0,
                  "wy_left %s %c %d+%d x %d, %d: C(%d,%d): scaled error "
                  "%.3g > 30",
                  qru_test_type_name(dt), cse[0], mt, mb, nb, nc, wi,
                  wj, emax);
    /* untouched: padding rows, column nc */
    zkept("wy_left: A", gA, A, mt, lda, nc);
    zkept("wy_left: B", gB, B, mb, ldb, nc);
    dfree_n(7, dA, dB, dY, dW, dwk, rA, rB);
    free_n(9, A, B, Y, W, gA, gB, fA, fB, ab);
}

/* ---- fused Givens sweeps ---------------------------------------- */

/* Host reference of the staggered sweeps (the contract's loop): on X
 * (xrs, xcs element strides), make or read cs; rows r0 .. nr-1. */
static void ref_sweeps(int L, int p, int make, double *X, long xrs, long xcs,
                       int nr, int from_jlo, double *cs, double *rr)
{
    long off = 0;
    for (int t = 0; t < L + p - 1; ++t) {
        int lo = t - L + 1 > 0 ? t - L + 1 : 0, hi = t < p - 1 ? t : p - 1;
        int i0 = L + 2 * lo - t;
        for (int q = 0; q <= hi - lo; ++q) {
            long pa = (long)(i0 - 1 + 2 * q) * xcs, pb = pa + xcs;
            double c = 1.0, s = 0.0;
            rr[off + q] = 1.0;
            if (make) {
                double a = X[pa + (lo + q) * xrs], b = X[pb + (lo + q) * xrs];
                if (b != 0.0) {
                    double r = hypot(a, b);
                    c = a / r;
                    s = b / r;
                    rr[off + q] = r;
                }
                cs[2 * (off + q)] = c;
                cs[2 * (off + q) + 1] = s;
            } else {
                c = cs[2 * (off + q)];
                s = cs[2 * (off + q) + 1];
            }
            for (int r = from_jlo ? lo : 0; r < nr; ++r) {
                double x = X[pa + r * xrs], y = X[pb + r * xrs];
                X[pa + r * xrs] = c * x + s * y;
                X[pb + r * xrs] = c * y - s * x;
            }
        }
        off += hi - lo + 1;
    }
}

START_TEST(test_givens_sweeps)
{
    /* _i: float, double, then complex float and double (zsweeps_case) */
    if (_i < 2)
        NDT_OK(_i);
    if (!O->givens_sweeps)
        return; /* optional op: the loop is tested by the update tests */
    qru_dtype dt = _i < 2 ? DT(_i) : zdt(_i - 2);
    if (_i >= 2 && !qru_dtype_complex(dt))
        return;
    double eps = qru_test_eps(dt);
    /* L, p, nr, from_jlo, transposed strides, make */
    static const int cases[][6] = {{1, 1, 1, 0, 0, 1},  {5, 3, 3, 0, 0, 1},
                                   {7, 7, 7, 1, 0, 1},  {40, 12, 12, 0, 0, 1},
                                   {30, 20, 50, 1, 0, 1}, {64, 33, 33, 0, 0, 1},
                                   {25, 10, 2, 0, 1, 0}, {3, 9, 4, 0, 1, 0},
                                   {150, 40, 40, 0, 0, 1},
                                   {12, 50, 70, 1, 0, 1},
                                   /* a window beyond one block's shared
                                    * memory in double (CUDA: clusters) */
                                   {300, 130, 130, 1, 0, 1},
                                   {260, 130, 150, 0, 1, 0},
                                   /* rings beyond one block in double
                                    * (CUDA: the chain in a cluster) */
                                   {400, 200, 200, 0, 0, 1},
                                   /* the chain with p > L, and with
                                    * transposed strides */
                                   {10, 40, 40, 0, 0, 1},
                                   {30, 20, 20, 1, 1, 1}};
    /* six times: the backend's choice (the window in local memory where
     * it fits), the global-memory kernel, the CUDA cluster window, the
     * window in one work-group's local memory, the CUDA chain of rows in
     * one block and in a cluster (elsewhere the backend's choice again) */
    int pass0, pass1;
    pass_range(6, &pass0, &pass1);
    for (int pass = pass0; pass < pass1; ++pass) {
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_SWEEPS_KERNEL, pass), 0);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int L = cases[c][0], p = cases[c][1], nr = cases[c][2];
        int fj = cases[c][3], tr = cases[c][4], make = cases[c][5];
        if (!size_selected((int)c))
            continue;
        if (qru_dtype_complex(dt)) {
            zsweeps_case(dt, pass, cases[c]);
            continue;
        }
        int ncol = L + p, ld = nr + 2;
        progress("givens_sweeps %s pass %d: L %d p %d nr %d",
                 dt == QRU_DOUBLE ? "double" : "float", pass, L, p, nr);
        long xrs = tr ? ncol + 1 : 1, xcs = tr ? 1 : ld;
        size_t len = tr ? (size_t)nr * (ncol + 1) : (size_t)ld * ncol;
        size_t ncs = 2 * (size_t)L * p;
        double *X = hrand(dt, len), *cs = hnew(ncs);
        if (!make) /* valid rotations, some of them the identity */
            for (size_t q = 0; q < ncs / 2; ++q) {
                double a = urand() * 6.28318530718;
                cs[2 * q] = q % 5 == 2 ? 1.0 : cos(a);
                cs[2 * q + 1] = q % 5 == 2 ? 0.0 : sin(a);
            }
        hround(dt, cs, ncs);
        dbuf dX = dnew(dt, len), dc = dnew(dt, ncs);
        dput(dt, dX, X);
        dput(dt, dc, cs);
        ck_assert_int_eq(O->givens_sweeps(ctx, dt, L, p, make, dX.p, xrs, xcs,
                                          nr, fj, dc.p),
                         0);
        double *gX = hnew(len), *gc = hnew(ncs);
        dget(dt, dX, gX);
        dget(dt, dc, gc);
        double *rr = hnew(ncs / 2); /* each formed rotation's r */
        /* X: with make, the backend's own rotations applied to the input
         * in double (the forward error of X through rotations formed from
         * rounded data is not bounded by the per-application sum below:
         * 16 (L + p) eps was exceeded by 17% on an H200, L 12 p 50,
         * 2026-11-27); the rotations themselves against the independent
         * reference (cs, below) */
        double *X0 = hnew(len);
        memcpy(X0, X, len * sizeof *X);
        ref_sweeps(L, p, make, X, xrs, xcs, nr, fj, cs, rr);
        if (make) { /* (with make = 0 ref_sweeps only reads the rotations) */
            double *rr0 = hnew(ncs / 2);
            memcpy(X, X0, len * sizeof *X);
            ref_sweeps(L, p, 0, X, xrs, xcs, nr, fj, gc, rr0);
            free(rr0);
        }
        free(X0);
        if (make && nr == p) /* X(r, c), c > r: unspecified (rounding) */
            for (int r = 0; r < nr; ++r)
                for (int cc = r + 1; cc < ncol; ++cc) {
                    X[r * xrs + cc * xcs] = 0.0;
                    gX[r * xrs + cc * xcs] = 0.0;
                }
        /* an element meets up to L + p rotations before it forms one, and
         * each application of a rotation adds up to about 6 eps relative
         * error (two products and a sum per output, c and s themselves
         * rounded): 16 (L + p) eps.  8 (L + p) eps was exceeded by 14% by
         * the CPU backend's reference sweeps (L = 12, p = 50, double). */
        double tol = 16.0 * (L + p) * eps;
        char what[80];
        snprintf(what, sizeof what,
                 "givens_sweeps X L %d p %d nr %d (sweeps_kernel %d)", L, p,
                 nr, pass);
        expect_close(what, dt, gX, X, len, 1.0, tol);
        /* c = a / r and s = b / r from a and b that carry an error d:
         * dc = b (b da - a db) / r^3, so |dc| <= sqrt(2) d / r, and ds
         * alike.  d is the error of X through the earlier formed
         * rotations (the reference's and the backend's differ), which the
         * sum of 6 eps per application (tol) does not bound: observed up
         * to 1.17 tol (above), so 8 tol / r (tol / r was exceeded by 13%
         * on an H200, L 10 p 40, 2026-11-27 dev4) */
        for (size_t q = 0; q < ncs / 2; ++q) {
            double e = fmax(fabs(gc[2 * q] - cs[2 * q]),
                            fabs(gc[2 * q + 1] - cs[2 * q + 1])) *
                       fmin(1.0, rr[q]);
            ck_assert_msg(e <= 8.0 * tol,
                          "givens_sweeps cs L %d p %d (sweeps_kernel %d, %s): "
                          "rotation %zu: got (%.17g, %.17g), want (%.17g, "
                          "%.17g), r = %.3g (error %.3g > %.3g)",
                          L, p, pass, dt == QRU_DOUBLE ? "double" : "float", q,
                          gc[2 * q], gc[2 * q + 1], cs[2 * q], cs[2 * q + 1],
                          rr[q], e, 8.0 * tol);
        }
        free(rr);
        dfree(dX);
        dfree(dc);
        free(X);
        free(cs);
        free(gX);
        free(gc);
    }
    }
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_SWEEPS_KERNEL,
                           QRU_SWEEPS_KERNEL_AUTO),
        0);
}
END_TEST

START_TEST(test_givens_accum)
{
    /* _i: float, double, then complex float and double (zaccum_case) */
    if (_i < 2)
        NDT_OK(_i);
    if (!O->givens_accum)
        return;
    qru_dtype dt = _i < 2 ? DT(_i) : zdt(_i - 2);
    if (_i >= 2 && !qru_dtype_complex(dt))
        return;
    double eps = qru_test_eps(dt);
    /* L, p, ab (groups of ab u-values; the last one shorter) */
    static const int cases[][3] = {{1, 1, 1}, {10, 3, 4}, {48, 16, 48},
                                   {100, 20, 48}, {37, 40, 40},
                                   /* CUDA: the shared-memory kernel at
                                    * its largest block of rows */
                                   {450, 200, 200}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (qru_dtype_complex(dt)) {
            zaccum_case(dt, cases[c]);
            continue;
        }
        int L = cases[c][0], p = cases[c][1], ab = cases[c][2];
        int ng = (L + ab - 1) / ab, ldg = ab + p;
        size_t ncs = 2 * (size_t)L * p, lg = (size_t)ng * ldg * ldg;
        double *cs = hnew(ncs);
        for (size_t q = 0; q < ncs / 2; ++q) {
            double a = urand() * 6.28318530718;
            cs[2 * q] = q % 7 == 3 ? 1.0 : cos(a);
            cs[2 * q + 1] = q % 7 == 3 ? 0.0 : sin(a);
        }
        hround(dt, cs, ncs);
        double *G = hrand(dt, lg); /* garbage outside the groups' w x w */
        dbuf dc = dnew(dt, ncs), dG = dnew(dt, lg);
        dput(dt, dc, cs);
        dput(dt, dG, G);
        ck_assert_int_eq(O->givens_accum(ctx, dt, L, p, ab, dc.p, dG.p, ldg),
                         0);
        double *gG = hnew(lg);
        dget(dt, dG, gG);
        /* reference: the group's rotations on the identity, from the right,
         * in step order (rotation (j, i = u + j) of the global step
         * t = L + 2 j - i on the local columns (i - ulo, i - ulo + 1)) */
        for (int g = 0; g < ng; ++g) {
            int uhi = L - g * ab, ulo = uhi - ab + 1 > 1 ? uhi - ab + 1 : 1;
            int w = uhi - ulo + 1 + p;
            double *R = hnew((size_t)w * w);
            for (int i = 0; i < w; ++i)
                R[i + (size_t)i * w] = 1.0;
            long off = 0;
            for (int t = 0; t < L + p - 1; ++t) {
                int lo = t - L + 1 > 0 ? t - L + 1 : 0,
                    hi = t < p - 1 ? t : p - 1;
                int i0 = L + 2 * lo - t;
                for (int q = 0; q <= hi - lo; ++q) {
                    int j = lo + q, i = i0 + 2 * q, u = i - j;
                    if (u < ulo || u > uhi)
                        continue;
                    double cc = cs[2 * (off + q)], ss = cs[2 * (off + q) + 1];
                    int a = i - 1 - (ulo - 1);
                    for (int r = 0; r < w; ++r) {
                        double x = R[r + (size_t)a * w],
                               y = R[r + (size_t)(a + 1) * w];
                        R[r + (size_t)a * w] = cc * x + ss * y;
                        R[r + (size_t)(a + 1) * w] = cc * y - ss * x;
                    }
                }
                off += hi - lo + 1;
            }
            double err = 0.0;
            for (int jj = 0; jj < w; ++jj)
                for (int i = 0; i < w; ++i)
                    err = fmax(err, fabs(gG[(size_t)g * ldg * ldg + i +
                                            (size_t)jj * ldg] -
                                         R[i + (size_t)jj * w]));
            ck_assert_msg(err <= 8.0 * (w + p) * eps,
                          "givens_accum L %d p %d ab %d group %d: error %g", L,
                          p, ab, g, err);
            free(R);
        }
        dfree(dc);
        dfree(dG);
        free(cs);
        free(G);
        free(gG);
    }
}
END_TEST

/* ---- fused panels ------------------------------------------------ */

/* Host reference of panel_qr from its contract: the per-column loop of
 * house (LAPACK larfg conventions) + larf + wy_append, in double. */
static void ref_panel(int m, int nb, double *A, int lda, double *Y, int ldy,
                      double *W, int ldw, double *tau)
{
    for (int j = 0; j < nb; ++j)
        for (int i = 0; i < m; ++i)
            Y[AT(0, i, j, ldy)] = i == j ? 1.0 : 0.0;
    for (int j = 0; j < nb; ++j) {
        double a = A[AT(0, j, j, lda)], xn = 0.0;
        for (int i = j + 1; i < m; ++i)
            xn = hypot(xn, A[AT(0, i, j, lda)]);
        double t = 0.0;
        if (xn != 0.0) {
            double beta = -copysign(hypot(a, xn), a);
            t = (beta - a) / beta;
            for (int i = j + 1; i < m; ++i) {
                Y[AT(0, i, j, ldy)] = A[AT(0, i, j, lda)] / (a - beta);
                A[AT(0, i, j, lda)] = 0.0;
            }
            A[AT(0, j, j, lda)] = beta;
        }
        tau[j] = t;
        for (int k = j + 1; k < nb && t != 0.0; ++k) {
            double w = 0.0;
            for (int i = j; i < m; ++i)
                w += Y[AT(0, i, j, ldy)] * A[AT(0, i, k, lda)];
            for (int i = j; i < m; ++i)
                A[AT(0, i, k, lda)] -= t * Y[AT(0, i, j, ldy)] * w;
        }
        double *z = hnew((size_t)j);
        for (int c = 0; c < j; ++c)
            for (int i = 0; i < m; ++i)
                z[c] += Y[AT(0, i, c, ldy)] * Y[AT(0, i, j, ldy)];
        for (int i = 0; i < m; ++i) {
            double s = Y[AT(0, i, j, ldy)];
            for (int c = 0; c < j; ++c)
                s += W[AT(0, i, c, ldw)] * z[c];
            W[AT(0, i, j, ldw)] = -t * s;
        }
        free(z);
    }
}

START_TEST(test_panel_qr)
{
    NDT_OK(_i);
    if (!O->panel_qr)
        return; /* optional op: the per-column path is tested by test_qr */
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    /* m, nb, kind (0: random, 1: column 0 already reduced, 2: upper
     * triangular, 3: a zero column inside, 4: rows of very different
     * scale, 5 / 6: everything near the square root of overflow /
     * underflow, so that plain sums of squares or dots would leave the
     * range); tall panels run on several work-groups on CUDA (12000 x 64:
     * about one block an SM for the many-block kernel, which takes up to
     * 128 columns) */
    int cases[][3] = {
        {1, 1, 0},     {5, 5, 0},     {7, 3, 1},     {40, 13, 0},
        {33, 32, 2},   {129, 32, 0},  {300, 32, 3},  {300, 17, 1},
        {1000, 8, 0},  {1000, 64, 4}, {3000, 32, 0}, {64, 64, 0},
        {2000, 40, 5}, {2000, 24, 6}, {12000, 64, 0}, {5000, 100, 0},
        {3000, 128, 3}, {0, 0, 0}};
    /* the widest panel with 200 extra rows that the backend runs on chip
     * (the block size of the fused update panels) */
    {
        int mx0 = -1, mx = -1;
        ck_assert_int_eq(O->panel_qr_max_nb(ctx, dt, 0, &mx0), 0);
        ck_assert_int_eq(O->panel_qr_max_nb(ctx, dt, 200, &mx), 0);
        ck_assert_msg(mx >= 0 && mx <= mx0 && mx0 <= 1024,
                      "panel_qr_max_nb: %d (extra 200), %d (extra 0)", mx,
                      mx0);
        if (mx > 0) {
            int last = (int)(sizeof cases / sizeof cases[0]) - 1;
            cases[last][0] = mx + 200;
            cases[last][1] = mx;
        }
    }
    /* five times: the backend's choice (on the GPU backends: (CUDA) the
     * warp-chain kernel, else registers, else local memory, else (CUDA)
     * the tall panel over many blocks, else global memory, the first that
     * fits), no register kernel, global memory only, the many-block kernel
     * wherever it applies, the choice without the warp-chain kernel; the
     * CPU has one panel code (one pass), OpenCL no many-block or
     * warp-chain kernel (three) */
    qru_backend be = qru_test_backend();
    int npass = be == QRU_BACKEND_CUDA ? 5 : be == QRU_BACKEND_OPENCL ? 3 : 1;
    int pass0, pass1;
    pass_range(npass, &pass0, &pass1);
    for (int pass = pass0; pass < pass1; ++pass) {
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL, pass), 0);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        int m = cases[c][0], nb = cases[c][1], kind = cases[c][2];
        if (m == 0 || !size_selected((int)c))
            continue;
        /* the tall cases: the backend's choice and the many-block kernel
         * only (they take long, above all under the sanitizers) */
        if (m >= 5000 && (pass == 1 || pass == 2 || pass == 4))
            continue;
        /* QRU_TEST_QUICK (the sanitizer runs, racecheck above all): the
         * panels up to 1000 x 64 and the widest on-chip one (the last
         * case), and one tall panel on the last pass (CUDA: the
         * many-block kernel) */
        if (getenv("QRU_TEST_QUICK") && c + 1 < sizeof cases / sizeof cases[0] &&
            (m >= 5000 ? pass != npass - 1 || m > 5000 : m * nb > 64000))
            continue;
        progress("panel_qr %s pass %d: %d x %d kind %d",
                 dt == QRU_DOUBLE ? "double" : "float", pass, m, nb, kind);
        int lda = m + 3, ldy = m + 1, ldw = m + 2;
        size_t lA = (size_t)lda * nb, lY = (size_t)ldy * nb,
               lW = (size_t)ldw * nb, lw = qru_panel_work(m, nb);
        double *A = hrand(dt, lA), *Y = hrand(dt, lY), *W = hrand(dt, lW);
        double *tau = hnew((size_t)nb), *A0 = hnew(lA);
        for (int j = 0; j < nb; ++j)
            for (int i = 0; i < m; ++i) {
                double *a = &A[AT(0, i, j, lda)];
                if ((kind == 1 && j == 0 && i > 0) || (kind == 2 && i > j) ||
                    (kind == 3 && j == 5))
                    *a = 0.0;
                if (kind == 4 && i % 7 == 3)
                    *a *= 1e6;
                if (kind == 5)
                    *a *= dt == QRU_DOUBLE ? 1e200 : 1e25;
                if (kind == 6)
                    *a *= dt == QRU_DOUBLE ? 1e-200 : 1e-25;
            }
        hround(dt, A, lA);
        memcpy(A0, A, lA * sizeof *A);
        dbuf dA = dnew(dt, lA), dY = dnew(dt, lY), dW = dnew(dt, lW),
             dtau = dnew(dt, (size_t)nb), dwk = dnew(dt, lw);
        dput(dt, dA, A);
        dput(dt, dY, Y);
        dput(dt, dW, W);
        ck_assert_int_eq(O->panel_qr(ctx, dt, m, nb, dA.p, lda, dY.p, ldy,
                                     dW.p, ldw, dtau.p, dwk.p),
                         0);
        double *gA = hnew(lA), *gY = hnew(lY), *gW = hnew(lW),
               *gt = hnew((size_t)nb);
        dget(dt, dA, gA);
        dget(dt, dY, gY);
        dget(dt, dW, gW);
        dget(dt, dtau, gt);
        ref_panel(m, nb, A, lda, Y, ldy, W, ldw, tau);
        /* exact structure: zeros below R's diagonal, unit lower Y */
        for (int j = 0; j < nb; ++j)
            for (int i = 0; i < m; ++i) {
                if (i > j)
                    ck_assert_msg(gA[AT(0, i, j, lda)] == 0.0,
                                  "panel_qr m %d nb %d: A(%d,%d) = %g", m,
                                  nb, i, j, gA[AT(0, i, j, lda)]);
                if (i <= j)
                    ck_assert_msg(gY[AT(0, i, j, ldy)] == (i == j),
                                  "panel_qr m %d nb %d: Y(%d,%d) = %g", m,
                                  nb, i, j, gY[AT(0, i, j, ldy)]);
            }
        /* against the reference, relative to the largest element */
        double sa = 1.0, sw = 1.0;
        for (size_t q = 0; q < lA; ++q)
            sa = fmax(sa, fabs(A[q]));
        for (size_t q = 0; q < lW; ++q)
            sw = fmax(sw, fabs(W[q]));
        double tol = 4.0 * (m + 10) * (nb + 1) * eps;
        char what[64];
        snprintf(what, sizeof what, "panel_qr R m %d nb %d", m, nb);
        expect_close(what, dt, gA, A, lA, sa, tol);
        snprintf(what, sizeof what, "panel_qr Y m %d nb %d", m, nb);
        expect_close(what, dt, gY, Y, lY, 1.0, tol);
        snprintf(what, sizeof what, "panel_qr W m %d nb %d", m, nb);
        expect_close(what, dt, gW, W, lW, sw, tol);
        snprintf(what, sizeof what, "panel_qr tau m %d nb %d", m, nb);
        expect_close(what, dt, gt, tau, (size_t)nb, 1.0, tol);
        if (kind == 2)
            for (int j = 0; j < nb; ++j)
                ck_assert_msg(gt[j] == 0.0, "panel_qr: upper panel, tau %g",
                              gt[j]);
        /* independent of the reference: (I + W Y')' A0 = R, i.e.
         * A0 + Y (W' A0) = R on the computed Y, W */
        double err = 0.0;
        for (int k = 0; k < nb; ++k) {
            double *wa = hnew((size_t)nb);
            for (int j = 0; j < nb; ++j)
                for (int i = 0; i < m; ++i)
                    wa[j] += gW[AT(0, i, j, ldw)] * A0[AT(0, i, k, lda)];
            for (int i = 0; i < m; ++i) {
                double v = A0[AT(0, i, k, lda)];
                for (int j = 0; j < nb; ++j)
                    v += gY[AT(0, i, j, ldy)] * wa[j];
                double r = i <= k ? gA[AT(0, i, k, lda)] : 0.0;
                err = fmax(err, fabs(v - r));
            }
            free(wa);
        }
        ck_assert_msg(err <= tol * sa, "panel_qr m %d nb %d: |P'A0 - R| = %g",
                      m, nb, err);
        dfree(dA);
        dfree(dY);
        dfree(dW);
        dfree(dtau);
        dfree(dwk);
        free(A);
        free(A0);
        free(Y);
        free(W);
        free(tau);
        free(gA);
        free(gY);
        free(gW);
        free(gt);
    }
    }
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                           QRU_PANEL_KERNEL_AUTO),
        0);
}
END_TEST

/* wy_left (optional: the reference op is GEMMs): C := C + Y (W' C) on
 * C = [A; B] stored apart, against the host in double; Y's top given
 * ('F') or the identity ('I', its rows NaN on the device: they must not
 * be read); either part empty, nb around the GPU kernels' limit
 * (QRU_WYL_NB), m around QRU_WYL_MAX_M (their GEMM fallback beyond), nc
 * around their column groups, nc = 1.  The padding rows and a column
 * past nc must come back bit-identical. */
START_TEST(test_wy_left)
{
    /* _i: float, double, then complex float and double (zwyl_case) */
    if (_i < 2)
        NDT_OK(_i);
    qru_dtype dt = _i < 2 ? DT(_i) : zdt(_i - 2);
    if (_i >= 2 && !qru_dtype_complex(dt))
        return;
    double eps = qru_test_eps(dt);
    /* ytop ('I': mt = nb), mt, mb, nb, nc */
    static const int cases[][5] = {
        {'I', 64, 200, 64, 37}, {'F', 264, 0, 64, 24}, {'I', 32, 200, 32, 1},
        {'F', 0, 100, 17, 9},   {'F', 30, 0, 30, 1},   {'I', 5, 3, 5, 8},
        {'F', 7, 9, 3, 17},     {'F', 312, 200, 64, 5}, {'F', 313, 200, 64, 5},
        {'F', 40, 60, 65, 11},  {'I', 1, 1, 1, 1},     {'F', 100, 33, 63, 129}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        if (qru_dtype_complex(dt)) {
            zwyl_case(dt, cases[c]);
            continue;
        }
        int id = cases[c][0] == 'I', mt = cases[c][1], mb = cases[c][2],
            nb = cases[c][3], nc = cases[c][4], m = mt + mb;
        progress("wy_left %s %c %d + %d x %d, %d columns",
                 dt == QRU_DOUBLE ? "double" : "float", cases[c][0], mt, mb,
                 nb, nc);
        int lda = mt + 2, ldb = mb + 3, ldy = m + 1, ldw = m + 2;
        size_t lA = (size_t)lda * (nc + 1), lB = (size_t)ldb * (nc + 1),
               lY = (size_t)ldy * nb, lW = (size_t)ldw * nb;
        double *A = hrand(dt, lA), *B = hrand(dt, lB), *Y = hrand(dt, lY),
               *W = hrand(dt, lW), *gA = hnew(lA), *gB = hnew(lB),
               *S = hnew((size_t)nb * nc), *As = hnew(lA), *Bs = hnew(lB);
        memcpy(As, A, lA * sizeof *A);
        memcpy(Bs, B, lB * sizeof *B);
        dbuf dA = dnew(dt, lA), dB = dnew(dt, lB), dY = dnew(dt, lY),
             dW = dnew(dt, lW), dwk = dnew(dt, (size_t)nb * nc);
        if (id) /* not to be read */
            for (int j = 0; j < nb; ++j)
                for (int i = 0; i < mt; ++i)
                    Y[AT(0, i, j, ldy)] = NAN;
        dput(dt, dA, A);
        dput(dt, dB, B);
        dput(dt, dY, Y);
        dput(dt, dW, W);
        if (id)
            for (int j = 0; j < nb; ++j)
                for (int i = 0; i < mt; ++i)
                    Y[AT(0, i, j, ldy)] = i == j;
        ck_assert_int_eq(O->wy_left(ctx, dt, (char)cases[c][0], mt, mb, nb,
                                    nc, dY.p, ldy, dW.p, ldw, dA.p, lda, dB.p,
                                    ldb, dwk.p),
                         0);
        dget(dt, dA, gA);
        dget(dt, dB, gB);
        /* the host: S = W' C, C += Y S, and the bound |Y| (|W'| |C|) */
        double sc = 1e-300;
        for (int j = 0; j < nc; ++j) {
            for (int k = 0; k < nb; ++k) {
                double t = 0.0;
                for (int i = 0; i < m; ++i)
                    t += W[AT(0, i, k, ldw)] *
                         (i < mt ? As[AT(0, i, j, lda)]
                                 : Bs[AT(0, i - mt, j, ldb)]);
                S[AT(0, k, j, nb)] = t;
            }
            for (int i = 0; i < m; ++i) {
                double t = 0.0, bd = 0.0;
                for (int k = 0; k < nb; ++k) {
                    double y = Y[AT(0, i, k, ldy)], ab = 0.0;
                    t += y * S[AT(0, k, j, nb)];
                    for (int l = 0; l < m; ++l)
                        ab += fabs(W[AT(0, l, k, ldw)]) *
                              fabs(l < mt ? As[AT(0, l, j, lda)]
                                          : Bs[AT(0, l - mt, j, ldb)]);
                    bd += fabs(y) * ab;
                }
                double *x = i < mt ? &A[AT(0, i, j, lda)]
                                   : &B[AT(0, i - mt, j, ldb)];
                bd += fabs(*x);
                *x += t;
                sc = fmax(sc, bd);
            }
        }
        double tol = 3.0 * (m + nb + 2) * eps;
        char what[80];
        snprintf(what, sizeof what, "wy_left %c %d+%d x %d, %d: A",
                 cases[c][0], mt, mb, nb, nc);
        expect_close(what, dt, gA, A, lA, sc, tol);
        snprintf(what, sizeof what, "wy_left %c %d+%d x %d, %d: B",
                 cases[c][0], mt, mb, nb, nc);
        expect_close(what, dt, gB, B, lB, sc, tol);
        /* untouched: padding rows, column nc */
        for (int j = 0; j <= nc; ++j) {
            for (int i = j < nc ? mt : 0; i < lda; ++i)
                ck_assert_msg(gA[AT(0, i, j, lda)] == As[AT(0, i, j, lda)],
                              "%s: A(%d,%d) changed", what, i, j);
            for (int i = j < nc ? mb : 0; i < ldb; ++i)
                ck_assert_msg(gB[AT(0, i, j, ldb)] == Bs[AT(0, i, j, ldb)],
                              "%s: B(%d,%d) changed", what, i, j);
        }
        dfree(dA);
        dfree(dB);
        dfree(dY);
        dfree(dW);
        dfree(dwk);
        free(A);
        free(B);
        free(Y);
        free(W);
        free(gA);
        free(gB);
        free(S);
        free(As);
        free(Bs);
    }
}
END_TEST

/* panel_qr_tp (optional: the reference op gathers): the panel [A; B]
 * stored in two arrays, against ref_panel on the stacked panel; the row
 * updates' shape (A upper triangular, B p rows), either part empty, the
 * widest on-chip panel and a taller one (CUDA: gathered for the other
 * kernels), with the backend's kernel choice and (CUDA) without the
 * warp-chain kernel. */
START_TEST(test_panel_qr_tp)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    int mx = 0;
    ck_assert_int_eq(O->panel_qr_max_nb(ctx, dt, 200, &mx), 0);
    /* mt, mb, nb, A upper triangular */
    int cases[][4] = {{64, 200, 64, 1}, {32, 200, 32, 1}, {5, 3, 5, 1},
                      {1, 1, 1, 1},     {20, 1, 20, 0},   {0, 9, 4, 0},
                      {12, 0, 7, 0},    {40, 300, 40, 1}, {0, 0, 0, 1}};
    int last = (int)(sizeof cases / sizeof cases[0]) - 1;
    if (mx > 0) {
        cases[last][0] = cases[last][2] = mx;
        cases[last][1] = 200;
    }
    int npass = qru_test_backend() == QRU_BACKEND_CUDA ? 2 : 1;
    int pass0, pass1;
    pass_range(npass, &pass0, &pass1);
    for (int pass = pass0; pass < pass1; ++pass) {
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                                        pass ? QRU_PANEL_KERNEL_REG
                                             : QRU_PANEL_KERNEL_AUTO),
                     0);
    for (int c = 0; c <= last; ++c) {
        int mt = cases[c][0], mb = cases[c][1], nb = cases[c][2];
        int m = mt + mb;
        if (nb == 0 || !size_selected(c))
            continue;
        progress("panel_qr_tp %s pass %d: %d + %d x %d",
                 dt == QRU_DOUBLE ? "double" : "float", pass, mt, mb, nb);
        int lda = mt + 2, ldb = mb + 3, ldy = m + 1, ldw = m + 2;
        size_t lA = (size_t)lda * nb, lB = (size_t)ldb * nb,
               lS = (size_t)m * nb, lY = (size_t)ldy * nb,
               lW = (size_t)ldw * nb;
        double *A = hrand(dt, lA), *B = hrand(dt, lB), *S = hnew(lS),
               *Y = hrand(dt, lY), *W = hrand(dt, lW), *tau = hnew(nb);
        for (int j = 0; j < nb; ++j) {
            for (int i = 0; i < mt; ++i) {
                if (cases[c][3] && i > j)
                    A[AT(0, i, j, lda)] = 0.0;
                S[AT(0, i, j, m)] = A[AT(0, i, j, lda)];
            }
            for (int i = 0; i < mb; ++i)
                S[AT(0, mt + i, j, m)] = B[AT(0, i, j, ldb)];
        }
        dbuf dA = dnew(dt, lA), dB = dnew(dt, lB), dY = dnew(dt, lY),
             dW = dnew(dt, lW), dtau = dnew(dt, (size_t)nb),
             dwk = dnew(dt, qru_panel_tp_work(m, nb));
        dput(dt, dA, A);
        dput(dt, dB, B);
        dput(dt, dY, Y);
        dput(dt, dW, W);
        ck_assert_int_eq(O->panel_qr_tp(ctx, dt, mt, mb, nb, dA.p, lda, dB.p,
                                        ldb, dY.p, ldy, dW.p, ldw, dtau.p,
                                        dwk.p),
                         0);
        double *gA = hnew(lA), *gB = hnew(lB), *gY = hnew(lY),
               *gW = hnew(lW), *gt = hnew((size_t)nb);
        dget(dt, dA, gA);
        dget(dt, dB, gB);
        dget(dt, dY, gY);
        dget(dt, dW, gW);
        dget(dt, dtau, gt);
        ref_panel(m, nb, S, m, Y, ldy, W, ldw, tau);
        /* the reference's panel back into the two layouts (the padding
         * rows keep their values: the op must not touch them) */
        double sa = 1.0, sw = 1.0;
        for (int j = 0; j < nb; ++j) {
            for (int i = 0; i < mt; ++i)
                A[AT(0, i, j, lda)] = S[AT(0, i, j, m)];
            for (int i = 0; i < mb; ++i)
                B[AT(0, i, j, ldb)] = S[AT(0, mt + i, j, m)];
            for (int i = 0; i < m; ++i) {
                double g = i < mt ? gA[AT(0, i, j, lda)]
                                  : gB[AT(0, i - mt, j, ldb)];
                if (i > j)
                    ck_assert_msg(g == 0.0,
                                  "panel_qr_tp %d+%d x %d: R(%d,%d) = %g",
                                  mt, mb, nb, i, j, g);
                sa = fmax(sa, fabs(S[AT(0, i, j, m)]));
            }
        }
        for (size_t q = 0; q < lW; ++q)
            sw = fmax(sw, fabs(W[q]));
        double tol = 4.0 * (m + 10) * (nb + 1) * eps;
        char what[64];
        snprintf(what, sizeof what, "panel_qr_tp A %d+%d x %d", mt, mb, nb);
        expect_close(what, dt, gA, A, lA, sa, tol);
        snprintf(what, sizeof what, "panel_qr_tp B %d+%d x %d", mt, mb, nb);
        expect_close(what, dt, gB, B, lB, sa, tol);
        snprintf(what, sizeof what, "panel_qr_tp Y %d+%d x %d", mt, mb, nb);
        expect_close(what, dt, gY, Y, lY, 1.0, tol);
        snprintf(what, sizeof what, "panel_qr_tp W %d+%d x %d", mt, mb, nb);
        expect_close(what, dt, gW, W, lW, sw, tol);
        snprintf(what, sizeof what, "panel_qr_tp tau %d+%d x %d", mt, mb,
                 nb);
        expect_close(what, dt, gt, tau, (size_t)nb, 1.0, tol);
        dfree(dA);
        dfree(dB);
        dfree(dY);
        dfree(dW);
        dfree(dtau);
        dfree(dwk);
        free(A);
        free(B);
        free(S);
        free(Y);
        free(W);
        free(tau);
        free(gA);
        free(gB);
        free(gY);
        free(gW);
        free(gt);
    }
    }
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                           QRU_PANEL_KERNEL_AUTO),
        0);
}
END_TEST

/* geqrf_full (optional): A0 = Q R, Q orthogonal, B = Q' B0, zeros below R's
 * diagonal, for tall, square and wide A; with Q, its n columns or (thin)
 * its first min(n, m). */
START_TEST(test_geqrf_full)
{
    NDT_OK(_i);
    if (!O->geqrf_full)
        return;
    qru_dtype dt = DT(_i);
    static const int shapes[][3] = {{50, 20, 3}, {17, 17, 1}, {12, 30, 2},
                                    {300, 120, 0}, {1, 1, 1}};
    for (int s = 0; s < 5; ++s) {
        int n = shapes[s][0], m = shapes[s][1], r = shapes[s][2];
        int lda = n + 2, ldq = n + 1, ldb = n + 3;
        for (int withq = 0; withq < 3; ++withq) { /* none, full, thin */
            size_t need = 0;
            qru_ptr none = {0, 0};
            int k = n < m ? n : m, qc = withq == 2 ? k : n;
            ck_assert_int_eq(O->geqrf_full(ctx, dt, n, m, none, lda, none, ldq,
                                           qc, none, ldb, r, none, &need),
                             0);
            ck_assert(need > 0);
            void *hA = qru_test_alloc(dt, n, m, lda);
            void *hB = qru_test_alloc(dt, n, r > 0 ? r : 1, ldb);
            qru_test_rand(dt, n, m, hA, lda, &seed);
            qru_test_rand(dt, n, r > 0 ? r : 1, hB, ldb, &seed);
            qru_matrix *A = qru_test_upload(ctx, dt, n, m, lda, hA, lda);
            qru_matrix *B = qru_test_upload(ctx, dt, n, r > 0 ? r : 1, ldb,
                                            hB, ldb);
            /* Q zero beyond its qc columns (untouched there) */
            void *hQ = qru_test_alloc(dt, n, n, ldq);
            qru_matrix *Q = qru_test_upload(ctx, dt, n, n, ldq, hQ, ldq);
            free(hQ);
            dbuf ws = dnew(dt, need);
            ck_assert_int_eq(O->geqrf_full(ctx, dt, n, m, A->p, A->ld,
                                           withq ? Q->p : none, Q->ld, qc,
                                           B->p, B->ld, r, ws.p, &need),
                             0);
            void *R = qru_test_download(A), *gB = qru_test_download(B);
            double eps = qru_test_eps(dt);
            ck_assert_msg(qru_test_lower_max(dt, n, m, R, n) == 0.0,
                          "geqrf_full: R not upper triangular");
            if (withq) {
                void *gQ = qru_test_download(Q);
                double be = qru_test_backward_error(dt, n, m, hA, lda, gQ, n,
                                                    R, n);
                double oe = qru_test_orth_error_cols(dt, n, qc, gQ, n);
                ck_assert_msg(be <= QRU_TEST_THRESHOLD &&
                                  oe <= QRU_TEST_THRESHOLD,
                              "geqrf_full %d x %d: backward %g, orth %g", n, m,
                              be, oe);
                /* B = Q' B0 (its rows against Q's qc columns) */
                double err = 0.0, nrm = 0.0;
                for (int j = 0; j < r; ++j)
                    for (int i = 0; i < qc; ++i) {
                        double v = 0.0;
                        for (int t = 0; t < n; ++t)
                            v += qru_test_get(dt, gQ, n, t, i) *
                                 qru_test_get(dt, hB, ldb, t, j);
                        err = fmax(err, fabs(v - qru_test_get(dt, gB, n, i, j)));
                        nrm = fmax(nrm, fabs(v));
                    }
                ck_assert_msg(err <= 10.0 * n * eps * fmax(1.0, nrm),
                              "geqrf_full %d x %d: Q'B off by %g", n, m, err);
                free(gQ);
            } else {
                /* without Q: R'R = A0'A0 up to rounding (R is determined up
                 * to signs of its rows) on the leading columns */
                for (int a = 0; a < k; ++a)
                    for (int b = a; b < m && b < a + 3; ++b) {
                        double x = 0.0, y = 0.0, sc = 0.0;
                        for (int t = 0; t < n; ++t) {
                            double u = qru_test_get(dt, hA, lda, t, a),
                                   v = qru_test_get(dt, hA, lda, t, b);
                            x += u * v;
                            sc += fabs(u * v);
                        }
                        for (int t = 0; t <= a && t < n; ++t)
                            y += qru_test_get(dt, R, n, t, a) *
                                 qru_test_get(dt, R, n, t, b);
                        ck_assert_msg(fabs(x - y) <= 10.0 * n * eps *
                                                         fmax(1.0, sc),
                                      "geqrf_full (no Q) %d x %d: R'R(%d,%d)",
                                      n, m, a, b);
                    }
            }
            dfree(ws);
            free(R);
            free(gB);
            free(hA);
            free(hB);
            qru_matrix_destroy(A);
            qru_matrix_destroy(B);
            qru_matrix_destroy(Q);
        }
    }
}
END_TEST

/* test cases by kind of op (the names are what scripts/gpu-check runs one
 * at a time under compute-sanitizer) */
/* gram_border and gram_solve (the Gram active set of the solvers' Gram
 * forms) against their contracts, computed here in double: sizes around
 * the kernels' work-groups (32 rows, 128 items), q at either end and a
 * failing pivot (d2 <= 0: flag 1, d = 1). */
static double gram_scale(const double *x, size_t n)
{
    double s = 1.0;
    for (size_t i = 0; i < n; ++i)
        s = fmax(s, fabs(x[i]));
    return s;
}

/* The border's reference: v = W' Gs(t, 0:hw-1)' (row and column q of W
 * zero); returns v' v. */
static double gram_v_ref(int m, int kmax, int hw, int t, int q,
                         const double *Gs, const double *W, double *v)
{
    double vv = 0.0;
    for (int cc = 0; cc < hw; ++cc) {
        for (int r = 0; r < hw; ++r)
            if (r != q)
                v[cc] += Gs[AT(0, t, r, m)] * W[AT(0, r, cc, kmax)];
        vv += v[cc] * v[cc];
    }
    return vv;
}

/* wq = [-W v; 1] / d, its 1 at row q */
static void gram_wq_ref(int kmax, int hw, int q, const double *W,
                        const double *v, double d, double *wq)
{
    for (int r = 0; r < hw; ++r) {
        double s = 0.0;
        for (int cc = 0; cc < hw; ++cc)
            s += W[AT(0, r, cc, kmax)] * v[cc];
        wq[r] = (r == q ? 1.0 : -s) / d;
    }
}

/* The solve's reference: u = W' S, z = W u, corr = Gs z (zeroed on
 * entry). */
static void gram_solve_ref(int m, int kmax, int hw, const double *W,
                           const double *S, const double *Gs, double *u,
                           double *z, double *corr)
{
    for (int cc = 0; cc < hw; ++cc)
        for (int r = 0; r < hw; ++r)
            u[cc] += W[AT(0, r, cc, kmax)] * S[r];
    for (int r = 0; r < hw; ++r)
        for (int cc = 0; cc < hw; ++cc)
            z[r] += W[AT(0, r, cc, kmax)] * u[cc];
    for (int i = 0; i < m; ++i)
        for (int r = 0; r < hw; ++r)
            corr[i] += Gs[AT(0, i, r, m)] * z[r];
}

START_TEST(test_gram_ops)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt);
    static const int ms[] = {1, 33, 300}, ks[] = {1, 5, 130};
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            for (int c = 0; c < 4; ++c) {
                int m = ms[a], kmax = ks[b];
                int hw = c == 0 ? 1 : (c == 1 ? kmax / 2 + 1 : kmax);
                int q = c == 3 ? hw - 1 : (c == 2 ? 0 : hw / 2);
                int t = (7 * c + b) % m, fail = c == 3 ? b % 2 : 0;
                progress("gram_ops m %d kmax %d hw %d q %d fail %d", m, kmax,
                         hw, q, fail);
                size_t em = (size_t)m, ek = (size_t)kmax;
                double *G = hrand(dt, em * em), *Gs = hrand(dt, em * ek),
                       *W = hrand(dt, ek * ek), *S = hrand(dt, ek),
                       *out = hrand(dt, em + 2 + ek), *g = hnew(em * em);
                for (int i = 0; i < m; ++i)
                    for (int j = 0; j < i; ++j)
                        G[AT(0, j, i, m)] = G[AT(0, i, j, m)];
                for (size_t i = 0; i < ek * ek; ++i) /* v of order 1 */
                    W[i] /= (double)hw;
                hround(dt, W, ek * ek);
                for (int r = 0; r < kmax; ++r) /* row and column q zero */
                    W[AT(0, q, r, kmax)] = W[AT(0, r, q, kmax)] = 0.0;
                out[m + 1] = 0.0;
                /* the reference: v, d, W(:, q) */
                double *v = hnew(ek), *wq = hnew(ek),
                       vv = gram_v_ref(m, kmax, hw, t, q, Gs, W, v);
                /* G(t, t) so that d2 is 0.5 or -0.5 */
                G[AT(0, t, t, m)] = vv + (fail ? -0.5 : 0.5);
                hround(dt, G + AT(0, t, t, m), 1);
                double d2 = G[AT(0, t, t, m)] - vv;
                int ok = d2 > 0.0 && isfinite(d2);
                double d = ok ? sqrt(d2) : 1.0;
                gram_wq_ref(kmax, hw, q, W, v, d, wq);
                dbuf dG = dnew(dt, em * em), dGs = dnew(dt, em * ek),
                     dW = dnew(dt, ek * ek), dV = dnew(dt, ek),
                     dT = dnew(dt, ek), dS = dnew(dt, ek),
                     dO = dnew(dt, em + 2 + ek);
                dput(dt, dG, G);
                dput(dt, dGs, Gs);
                dput(dt, dW, W);
                dput(dt, dO, out);
                ck_assert_int_eq(O->gram_border(ctx, dt, m, kmax, hw, t, q,
                                                dG.p, dGs.p, dW.p, dV.p, dT.p,
                                                dO.p),
                                 0);
                double *gs = hnew(em * ek), *gw = hnew(ek * ek),
                       *go = hnew(em + 2 + ek), *gv = hnew(ek);
                dget(dt, dGs, gs);
                dget(dt, dW, gw);
                dget(dt, dO, go);
                dget(dt, dV, gv);
                dget(dt, dG, g);
                expect_equal("gram_border: G", dt, g, G, em * em);
                for (int i = 0; i < m; ++i) /* Gs(:, q) = G(:, t) */
                    Gs[AT(0, i, q, m)] = G[AT(0, i, t, m)];
                expect_equal("gram_border: Gs", dt, gs, Gs, em * ek);
                ck_assert_msg(go[m + 1] == (ok ? 0.0 : 1.0),
                              "gram_border: flag %g, want %d", go[m + 1], !ok);
                double tol = 30.0 * (hw + 2) * eps;
                expect_close("gram_border: d", dt, go + m, &d, 1, 1.0, tol);
                expect_close("gram_border: v", dt, gv, v, (size_t)hw, 1.0,
                             tol);
                for (int cc = 0; cc < kmax; ++cc) /* W but column q as was */
                    for (int r = 0; r < kmax; ++r)
                        if (cc == q && r < hw)
                            W[AT(0, r, cc, kmax)] = gw[AT(0, r, cc, kmax)];
                expect_equal("gram_border: W", dt, gw, W, ek * ek);
                double *gq = gw + (size_t)q * ek;
                expect_close("gram_border: W(:, q)", dt, gq, wq, (size_t)hw,
                             1.0, tol * (double)hw);
                /* the solve on fresh W and S */
                free(W);
                W = hrand(dt, ek * ek);
                dput(dt, dW, W);
                dput(dt, dS, S);
                /* S(qs) set by the solve (c odd), or as it is */
                int qs = c % 2 ? hw - 1 - c / 2 % hw : -1;
                double sv = urand();
                hround(dt, &sv, 1);
                ck_assert_int_eq(O->gram_solve(ctx, dt, m, kmax, hw, dGs.p,
                                               dW.p, dS.p, qs, sv, dV.p,
                                               dO.p),
                                 0);
                if (qs >= 0)
                    S[qs] = sv;
                double *gS = hnew(ek);
                dget(dt, dS, gS);
                expect_equal("gram_solve: S", dt, gS, S, ek);
                free(gS);
                double *u = hnew(ek), *z = hnew(ek), *corr = hnew(em);
                gram_solve_ref(m, kmax, hw, W, S, gs, u, z, corr);
                dget(dt, dV, gv);
                dget(dt, dO, go);
                expect_close("gram_solve: V", dt, gv, u, (size_t)hw,
                             gram_scale(u, (size_t)hw), tol);
                expect_close("gram_solve: z", dt, go + m + 2, z, (size_t)hw,
                             gram_scale(z, (size_t)hw), tol * (double)hw);
                expect_close("gram_solve: corr", dt, go, corr, em,
                             gram_scale(corr, em), tol * (double)hw);
                dbuf bufs[] = {dG, dGs, dW, dV, dT, dS, dO};
                for (int i = 0; i < 7; ++i)
                    dfree(bufs[i]);
                double *hs[] = {G, Gs, W, S, out, g, v, wq, gs, gw, go, gv,
                                u, z, corr};
                for (int i = 0; i < 15; ++i)
                    free(hs[i]);
            }
}
END_TEST

/* lars_gram_step against its contract: the products and the border in
 * double here; the decision (gamma, the crossing slots, the update) from
 * the op's own z, AA and c, so that the discrete choices are compared
 * exactly; the pick's partial results exactly from the state the op
 * leaves.  Sizes around the kernels' work-groups (32 rows, 256-row
 * blocks), variants: v 0 a column enters and one slot crosses zero
 * (Lasso: its coefficient 0), 1 no column enters (LAR: the crossing
 * only flags), 2 positive, 3 a degenerate entering column, 4 no
 * direction (S = 0), 5 LEAVE, 6 START with ties of |cov| (the lower
 * position first, across blocks). */
typedef struct lars_case {
    int m, kmax;
} lars_case;

/* the pick's partial results of block b from the state L (lw's layout) */
static void lars_pick_ref(const double *L, const qru_lars_ws *lw, int m,
                          int positive, int b, double *pk)
{
    int jb = -1;
    double kv = 0.0, kp = 0.0;
    for (int j = b * QRU_LARS_PICK; j < m && j < (b + 1) * QRU_LARS_PICK;
         ++j) {
        if (L[lw->sof + j] >= 0.0)
            continue;
        double cv = L[lw->cov + j], key = positive ? cv : fabs(cv),
               ps = L[lw->pos + j];
        if (jb < 0 || key > kv || (key == kv && ps < kp)) {
            jb = j;
            kv = key;
            kp = ps;
        }
    }
    pk[0] = jb < 0 ? -1.0 : L[lw->cov + jb];
    pk[1] = jb < 0 ? -1.0 : kp;
    pk[2] = (double)jb;
}

START_TEST(test_lars_step)
{
    NDT_OK(_i);
    qru_dtype dt = DT(_i);
    double eps = qru_test_eps(dt), tiny = FLT_MIN,
           dec = dt == QRU_DOUBLE ? 1e15 : 1e6;
    static const lars_case cs[] = {{2, 1}, {33, 5}, {40, 33}, {300, 40},
                                   {600, 130}};
    for (int a = 0; a < 5; ++a)
        for (int v = 0; v < 7; ++v) {
            int m = cs[a].m, kmax = cs[a].kmax, hw = kmax;
            int enter = v == 0 || v == 2 || v == 3, lasso = v != 1,
                positive = v == 2, mode = v == 5   ? QRU_LARS_LEAVE
                                         : v == 6 ? QRU_LARS_START
                                                  : QRU_LARS_STEP;
            int flags = (lasso ? QRU_LARS_LASSO : 0) |
                        (positive ? QRU_LARS_POSITIVE : 0);
            progress("lars_step m %d kmax %d v %d", m, kmax, v);
            qru_lars_ws lw = qru_lars_ws_of(m, kmax);
            size_t em = (size_t)m, ek = (size_t)kmax;
            double *G = hrand(dt, em * em), *Gs = hrand(dt, em * ek),
                   *W = hrand(dt, ek * ek), *S = hrand(dt, ek),
                   *out = hrand(dt, em + 2 + ek), *L = hrand(dt, lw.elems),
                   *P = hrand(dt, 3 * em);
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < i; ++j)
                    G[AT(0, j, i, m)] = G[AT(0, i, j, m)];
            for (size_t i = 0; i < ek * ek; ++i)
                W[i] /= (double)hw;
            hround(dt, W, ek * ek);
            out[m + 1] = 0.0;
            /* the state: slots p % 3 != 1 active (not q = hw - 1 where a
             * column enters), on columns 3 p + 1; pos a permutation */
            int q = enter ? hw - 1 : 0, t = -1, na = 0;
            for (int j = 0; j < m; ++j) {
                L[lw.sof + j] = -1.0;
                L[lw.pos + j] = (double)((j * 7 + 3) % m);
            }
            if (m % 7 == 0) /* (7 and m coprime: a permutation) */
                for (int j = 0; j < m; ++j)
                    L[lw.pos + j] = (double)(m - 1 - j);
            for (int p = 0; p < kmax; ++p) {
                L[lw.cof + p] = -1.0;
                L[lw.drop + p] = 0.0;
                int act = p % 3 != 1 && !(enter && p == q) && 3 * p + 1 < m;
                if (act) {
                    L[lw.cof + p] = 3.0 * p + 1;
                    L[lw.sof + 3 * p + 1] = p;
                    S[p] = (p % 2 ? -1.0 : 1.0);
                    ++na;
                } else { /* a free slot: W's row and column zero */
                    for (int r = 0; r < kmax; ++r)
                        W[AT(0, p, r, kmax)] = W[AT(0, r, p, kmax)] = 0.0;
                }
            }
            for (int j = 0; j < m; ++j) /* inactive: no coefficient */
                if (L[lw.sof + j] < 0.0)
                    P[em + j] = 0.0;
            if (v == 4)
                for (int p = 0; p < kmax; ++p)
                    S[p] = 0.0;
            if (v == 6) /* ties: |cov| equal across the blocks */
                for (int j = 0; j < m; ++j)
                    L[lw.cov + j] = (j % 5 == 2 ? 0.75 : 0.25) *
                                    (j % 2 ? -1.0 : 1.0);
            int ci = 0, u = 0;
            double piv = v == 3 ? 10.0 : 0.1, C = 0.0, sv = 1.0, d = 1.0;
            double *v0 = hnew(ek), *wq = hnew(ek);
            int qs = enter ? q : -1;
            if (enter) { /* t: the first inactive column from m / 2 */
                t = m / 2;
                while (L[lw.sof + t] >= 0.0)
                    t = (t + 1) % m;
                ci = (int)L[lw.pos + t];
                u = (t + 1) % m;
                ++na;
                double vv = gram_v_ref(m, kmax, hw, t, q, Gs, W, v0);
                G[AT(0, t, t, m)] = vv + 0.5;
                hround(dt, G + AT(0, t, t, m), 1);
                d = sqrt(G[AT(0, t, t, m)] - vv);
                gram_wq_ref(kmax, hw, q, W, v0, d, wq);
            }
            for (int j = 0; j < m; ++j) /* C above every |cov| */
                C = fmax(C, fabs(L[lw.cov + j]));
            C *= 1.25;
            hround(dt, &C, 1);
            /* the reference products: W with its new column, z, corr */
            double *Wn = hnew(ek * ek), *Gsn = hnew(em * ek), *z = hnew(ek),
                   *corr = hnew(em), *vs = hnew(ek);
            memcpy(Wn, W, sizeof(double) * ek * ek);
            memcpy(Gsn, Gs, sizeof(double) * em * ek);
            double *Sn = hnew(ek);
            memcpy(Sn, S, sizeof(double) * ek);
            if (enter) {
                for (int r = 0; r < hw; ++r)
                    Wn[AT(0, r, q, kmax)] = wq[r];
                for (int i = 0; i < m; ++i)
                    Gsn[AT(0, i, q, m)] = G[AT(0, i, t, m)];
                Sn[q] = sv;
            }
            gram_solve_ref(m, kmax, hw, Wn, Sn, Gsn, vs, z, corr);
            double sw = 0.0;
            for (int r = 0; r < hw; ++r)
                sw += Sn[r] * z[r];
            double AA = 1.0 / sqrt(sw);
            /* the crossing slot (v 0, 1): its coefficient -0.1 gamma w,
             * the others' of w's sign (no crossing) */
            int pd = -1;
            if (mode == QRU_LARS_STEP && v != 3 && v != 4) {
                double g = C / AA;
                for (int j = 0; j < m; ++j) {
                    if (j == t || L[lw.sof + j] >= 0.0)
                        continue;
                    double cj = rint(AA * corr[j] * dec) / dec,
                           x = (C - L[lw.cov + j]) / (AA - cj + tiny),
                           y = (C + L[lw.cov + j]) / (AA + cj + tiny);
                    if (x > 0 && x < g)
                        g = x;
                    if (!positive && y > 0 && y < g)
                        g = y;
                }
                for (int p = 0; p < hw; ++p) {
                    int j = (int)L[lw.cof + p];
                    if (j < 0)
                        continue;
                    double w = AA * z[p];
                    /* positive: coefficients >= 0, those of w < 0 far
                     * enough from 0 not to cross it by gamma */
                    P[em + j] = positive ? fabs(P[em + j]) +
                                               (w < 0 ? -2.0 * g * w : 0.0)
                                         : fabs(P[em + j]) *
                                               (w < 0 ? -1.0 : 1.0);
                    if (pd < 0 && v != 2) {
                        pd = p;
                        P[em + j] = -0.1 * g * w;
                    }
                }
                hround(dt, P + em, em);
            }
            dbuf dG = dnew(dt, em * em), dGs = dnew(dt, em * ek),
                 dW = dnew(dt, ek * ek), dV = dnew(dt, ek),
                 dS = dnew(dt, ek), dO = dnew(dt, em + 2 + ek),
                 dL = dnew(dt, lw.elems), dP = dnew(dt, 3 * em),
                 dT = dnew(dt, ek);
            dbuf up[] = {dG, dGs, dW, dS, dO, dL, dP};
            const double *hup[] = {G, Gs, W, S, out, L, P};
            for (int i = 0; i < 7; ++i)
                dput(dt, up[i], hup[i]);
            /* LEAVE: column 1, in slot 0 */
            int lt = mode == QRU_LARS_LEAVE ? 1 : t;
            int lq = mode == QRU_LARS_LEAVE ? 0 : q;
            int lci = mode == QRU_LARS_LEAVE ? (int)L[lw.pos + 1] : ci;
            int lna = mode == QRU_LARS_LEAVE ? na - 1 : na;
            if (mode == QRU_LARS_LEAVE && L[lw.sof + 1] < 0.0) {
                /* (no column in slot 0: m too small) */
                lt = -1;
            }
            if (lt >= 0 || mode != QRU_LARS_LEAVE)
                ck_assert_int_eq(O->lars_gram_step(
                                     ctx, dt, m, kmax, hw, mode, flags, 1, lt,
                                     lq, lci, u, lna, qs, sv, piv, C, dG.p,
                                     dGs.p, dW.p, dS.p, dV.p, dT.p, dO.p,
                                     dL.p, dP.p),
                                 0);
            double *gL = hnew(lw.elems), *gO = hnew(em + 2 + ek),
                   *gP = hnew(3 * em), *gW = hnew(ek * ek),
                   *gGs = hnew(em * ek), *gS = hnew(ek);
            dbuf dn[] = {dL, dO, dP, dW, dGs, dS};
            double *hdn[] = {gL, gO, gP, gW, gGs, gS};
            for (int i = 0; i < 6; ++i)
                dget(dt, dn[i], hdn[i]);
            double tol = 30.0 * (hw + 2) * eps;
            const double *rec = gL + lw.rec;
            if (mode == QRU_LARS_START) {
                for (int j = 0; j < m; ++j) {
                    ck_assert_msg(gL[lw.pos + j] == j && gL[lw.sof + j] == -1,
                                  "lars_step START: pos/sof(%d) %g %g", j,
                                  gL[lw.pos + j], gL[lw.sof + j]);
                }
                for (int p = 0; p < kmax; ++p)
                    ck_assert(gL[lw.cof + p] == -1 && gL[lw.drop + p] == 0);
            } else if (mode == QRU_LARS_LEAVE && lt >= 0) {
                for (int j = 0; j < m; ++j) {
                    double want = L[lw.pos + j];
                    if (j == lt)
                        want = lna;
                    else if (L[lw.sof + j] >= 0.0 && want > lci)
                        want -= 1.0;
                    ck_assert_msg(gL[lw.pos + j] == want,
                                  "lars_step LEAVE: pos(%d) %g, want %g", j,
                                  gL[lw.pos + j], want);
                }
                ck_assert(gL[lw.sof + lt] == -1 && gL[lw.cof + lq] == -1);
            } else if (mode == QRU_LARS_STEP) {
                expect_equal("lars_step: S", dt, gS, Sn, ek);
                if (enter) {
                    expect_equal("lars_step: Gs", dt, gGs, Gsn, em * ek);
                    expect_close("lars_step: d", dt, gO + m, &d, 1, 1.0, tol);
                    expect_close("lars_step: W", dt, gW, Wn, ek * ek, 1.0,
                                 tol * hw);
                    ck_assert(gL[lw.pos + u] == ci &&
                              gL[lw.pos + t] == na - 1);
                    expect_close("lars_step: D", dt, rec + QRU_LARS_ST_D, &d,
                                 1, 1.0, tol);
                }
                int want = v == 3 ? QRU_LARS_DEGENERATE
                                  : (v == 4 ? QRU_LARS_NODIR : QRU_LARS_OK);
                ck_assert_msg(rec[QRU_LARS_ST_STATUS] == want,
                              "lars_step: status %g, want %d",
                              rec[QRU_LARS_ST_STATUS], want);
                if (v == 3) {
                    ck_assert(gL[lw.cov + t] == 0.0 && gL[lw.sof + t] == -1);
                } else if (v != 4) {
                    double *gz = gO + m + 2;
                    expect_close("lars_step: z", dt, gz, z, ek,
                                 gram_scale(z, ek), tol * hw);
                    expect_close("lars_step: corr", dt, gO, corr, em,
                                 gram_scale(corr, em), tol * hw);
                    expect_close("lars_step: AA", dt, rec + QRU_LARS_ST_AA,
                                 &AA, 1, AA, tol * hw);
                    /* the decision from the op's own z, AA and c */
                    double gAA = rec[QRU_LARS_ST_AA], g1 = DBL_MAX,
                           g2 = DBL_MAX;
                    for (int j = 0; j < m; ++j) {
                        if (j == t || L[lw.sof + j] >= 0.0)
                            continue;
                        double cj = rint(AA * corr[j] * dec) / dec,
                               gc = gL[lw.c + j];
                        ck_assert_msg(fabs(gc - cj) <=
                                          tol * hw * gram_scale(corr, em) +
                                              2.0 / dec,
                                      "lars_step: c(%d) %g, want %g", j, gc,
                                      cj);
                        double x = (C - L[lw.cov + j]) / (gAA - gc + tiny),
                               y = (C + L[lw.cov + j]) / (gAA + gc + tiny);
                        if (x > 0 && x < g1)
                            g1 = x;
                        if (!positive && y > 0 && y < g2)
                            g2 = y;
                    }
                    double gamma = fmin(fmin(g1, g2), C / gAA);
                    int nd = 0, qd = -1;
                    double zpos = DBL_MAX;
                    for (int p = 0; p < hw; ++p) {
                        int j = (int)gL[lw.cof + p];
                        if (j < 0)
                            continue;
                        double x = -P[em + j] / (gz[p] * gAA + tiny);
                        if (x > 0 && x < zpos)
                            zpos = x;
                    }
                    if (zpos < gamma) {
                        nd = 1;
                        qd = pd;
                        if (lasso)
                            gamma = zpos;
                    }
                    ck_assert_msg(rec[QRU_LARS_ST_ND] == nd &&
                                      rec[QRU_LARS_ST_QD] == qd,
                                  "lars_step: ND %g QD %g, want %d %d",
                                  rec[QRU_LARS_ST_ND], rec[QRU_LARS_ST_QD],
                                  nd, qd);
                    ck_assert_int_eq(pd >= 0, nd == 1);
                    expect_close("lars_step: gamma", dt,
                                 rec + QRU_LARS_ST_GAMMA, &gamma, 1, gamma,
                                 30.0 * eps);
                    double gm = rec[QRU_LARS_ST_GAMMA];
                    for (int p = 0; p < hw; ++p)
                        ck_assert(gL[lw.drop + p] == (p == qd));
                    for (int j = 0; j < m; ++j) {
                        int p = j == t ? q : (int)L[lw.sof + j];
                        double want =
                            p < 0 ? 0.0
                                  : (lasso && p == qd
                                         ? 0.0
                                         : P[em + j] + gm * gz[p] * gAA);
                        if (positive && want < 0.0)
                            want = 0.0; /* (the contract's clamp) */
                        double sc = fabs(P[em + j]) + fabs(gm * gz[p] * gAA) + 1e-300;
                        if (p < 0 || (lasso && p == qd))
                            ck_assert_msg(gP[2 * em + j] == 0.0,
                                          "lars_step: P(%d) %g, want 0", j,
                                          gP[2 * em + j]);
                        else
                            expect_close("lars_step: P", dt, gP + 2 * em + j,
                                         &want, 1, sc, 4.0 * eps);
                        if (p < 0) {
                            double cw = L[lw.cov + j] - gm * gL[lw.c + j];
                            expect_close("lars_step: cov", dt, gL + lw.cov + j,
                                         &cw, 1, fabs(L[lw.cov + j]) + fabs(gm * gL[lw.c + j]) + 1e-300,
                                         4.0 * eps);
                        }
                    }
                    if (enter)
                        ck_assert(gL[lw.sof + t] == q &&
                                  gL[lw.cof + q] == t);
                }
            }
            /* the pick's partial results, exactly */
            if (lt >= 0 || mode != QRU_LARS_LEAVE)
                for (int b = 0; b < lw.npk; ++b) {
                    double pk[3];
                    lars_pick_ref(gL, &lw, m, positive, b, pk);
                    expect_equal("lars_step: pick", dt, gL + lw.pick + 3 * b,
                                 pk, 3);
                }
            dbuf bufs[] = {dG, dGs, dW, dV, dS, dO, dL, dP, dT};
            for (int i = 0; i < 9; ++i)
                dfree(bufs[i]);
            double *hs[] = {G, Gs, W, S, out, L, P, v0, wq, Wn, Gsn,
                            z, corr, vs, Sn, gL, gO, gP, gW, gGs, gS};
            for (int i = 0; i < 21; ++i)
                free(hs[i]);
        }
}
END_TEST

/* The element type of the batched ops' loop index: 0, 1 the real types
 * (where the context has them), 2, 3 complex float and double; QRU_FLOAT
 * with *skip where the context lacks it. */
static qru_dtype batched_dt(int i, int *skip)
{
    *skip = 0;
    if (i < 2) {
        *skip = i >= qru_test_ndtypes(ctx);
        return *skip ? QRU_FLOAT : DT(i);
    }
    qru_dtype dt = zdt(i - 2);
    *skip = dt == QRU_FLOAT;
    return dt;
}

/* gemm_batched against a gemm a page on the same data: every trans
 * combination ('N', 'T', 'C'), real and complex, alpha and beta (beta =
 * 0: C's pages NaN, not read; alpha = 0 and k = 0: C = beta C), count 1
 * and several, strides larger than the pages (the gaps kept), the
 * matrix-vector shapes. */
START_TEST(test_gemm_batched)
{
    int skip;
    qru_dtype dt = batched_dt(_i, &skip);
    if (skip)
        return;
    size_t w = qru_dtype_complex(dt) ? 2 : 1; /* doubles an element */
    double eps = qru_test_eps(dt);
    static const int shapes[3][3] = {{37, 29, 41}, {16, 1, 33}, {1, 9, 5}};
    static const double ab[4][2] = {{0.7, -0.3}, {1.0, 0.0}, {0.0, 2.0},
                                    {-1.0, 1.0}};
    static const int counts[2] = {1, 5};
    const char tr[3] = {'N', 'T', 'C'};
    for (int sh = 0; sh < 3; ++sh)
        for (int t = 0; t < 9; ++t)
            for (int c = 0; c < 4; ++c)
                for (int cc = 0; cc < 2; ++cc) {
                    int m = shapes[sh][0], n = shapes[sh][1];
                    int k = c == 3 && sh == 0 ? 0 : shapes[sh][2];
                    int count = counts[cc];
                    char ta = tr[t % 3], tb = tr[t / 3];
                    double al = ab[c][0], be = ab[c][1];
                    int ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
                    int rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
                    int lda = ra + 1, ldb = rb + 2, ldc = m + 3;
                    size_t sA = (size_t)lda * ca + 5, sB = (size_t)ldb * cb + 3,
                           sC = (size_t)ldc * n + 7;
                    size_t la = sA * count, lb = sB * count, lc = sC * count;
                    double *A = zrand(dt, la), *B = zrand(dt, lb),
                           *C = zrand(dt, lc);
                    if (be == 0.0) /* the pages of C: not read */
                        for (int p = 0; p < count; ++p)
                            for (int j = 0; j < n; ++j)
                                for (int i = 0; i < m; ++i)
                                    for (size_t q = 0; q < w; ++q)
                                        C[w * (p * sC + AT(0, i, j, ldc)) + q] =
                                            NAN;
                    dbuf dA = dnew(dt, la), dB = dnew(dt, lb),
                         dC = dnew(dt, lc), dR = dnew(dt, lc);
                    dput(dt, dA, A);
                    dput(dt, dB, B);
                    dput(dt, dC, C);
                    dput(dt, dR, C);
                    for (int p = 0; p < count; ++p)
                        ck_assert_int_eq(
                            O->gemm(ctx, dt, ta, tb, m, n, k, al,
                                    qru_ptr_add(dA.p, p * sA), lda,
                                    qru_ptr_add(dB.p, p * sB), ldb, be,
                                    qru_ptr_add(dR.p, p * sC), ldc),
                            0);
                    ck_assert_int_eq(O->gemm_batched(ctx, dt, ta, tb, m, n, k,
                                                     al, dA.p, lda, sA, dB.p,
                                                     ldb, sB, be, dC.p, ldc,
                                                     sC, count),
                                     0);
                    double *g = hnew(w * lc), *ref = hnew(w * lc);
                    dget(dt, dC, g);
                    dget(dt, dR, ref);
                    char what[64];
                    snprintf(what, sizeof what, "gemm_batched %c%c %dx%dx%d "
                             "count %d ab %d dt %d", ta, tb, m, n, k, count,
                             c, (int)dt);
                    expect_close(what, dt, g, ref, w * lc, 1.0,
                                 8.0 * (k + 2) * eps);
                    dfree(dA);
                    dfree(dB);
                    dfree(dC);
                    dfree(dR);
                    free(A);
                    free(B);
                    free(C);
                    free(g);
                    free(ref);
                }
}
END_TEST

/* geadd and geadd_batched against the host: alpha and beta (0: not read,
 * NaN there), out of place and in place; geadd, then geadd_batched of
 * count 1 and several, strides larger than the pages (the gaps and the
 * padding rows kept). */
START_TEST(test_geadd_batched)
{
    int skip;
    qru_dtype dt = batched_dt(_i, &skip);
    if (skip)
        return;
    size_t w = qru_dtype_complex(dt) ? 2 : 1;
    double eps = qru_test_eps(dt);
    double ab[][2] = {{0.5, -2.0}, {1.5, 0.0}, {0.0, 3.0}, {-1.0, 1.0},
                      {0.0, 0.0}};
    for (int c = 0; c < 5; ++c)
        for (int same = 0; same < 2; ++same)
            for (int via = 0; via < 3; ++via) {
                int m = 45, n = 11, ld = 47, count = via == 2 ? 6 : 1;
                size_t sp = (size_t)ld * n + 9, len = sp * count;
                double al = ab[c][0], be = ab[c][1];
                double *A = zrand(dt, len), *B = zrand(dt, len);
                for (int p = 0; !same && p < count; ++p)
                    for (int j = 0; j < n; ++j)
                        for (int i = 0; i < m; ++i)
                            for (size_t q = 0; q < w; ++q) {
                                size_t e = w * (p * sp + AT(0, i, j, ld)) + q;
                                if (be == 0.0)
                                    B[e] = NAN; /* not read */
                                if (al == 0.0)
                                    A[e] = NAN;
                            }
                dbuf dA = dnew(dt, len), dB = same ? dA : dnew(dt, len);
                dput(dt, dA, A);
                if (!same)
                    dput(dt, dB, B);
                const double *Bs = same ? A : B;
                double *ref = hnew(w * len), *g = hnew(w * len);
                memcpy(ref, Bs, w * len * sizeof *ref);
                for (int p = 0; p < count; ++p)
                    for (int j = 0; j < n; ++j)
                        for (int i = 0; i < m; ++i)
                            for (size_t q = 0; q < w; ++q) {
                                size_t e = w * (p * sp + AT(0, i, j, ld)) + q;
                                ref[e] = (al == 0.0 ? 0.0 : al * A[e]) +
                                         (be == 0.0 ? 0.0 : be * Bs[e]);
                            }
                if (via == 0)
                    ck_assert_int_eq(O->geadd(ctx, dt, m, n, al, dA.p, ld, be,
                                              dB.p, ld),
                                     0);
                else
                    ck_assert_int_eq(O->geadd_batched(ctx, dt, m, n, al, dA.p,
                                                      ld, sp, be, dB.p, ld,
                                                      sp, count),
                                     0);
                dget(dt, dB, g);
                for (size_t e = 0; e < w * len; ++e) /* NaN outside kept */
                    if (isnan(ref[e]) && isnan(g[e]))
                        g[e] = ref[e] = 0.0;
                expect_close(via ? "geadd_batched" : "geadd", dt, g, ref,
                             w * len, 1.0, 8.0 * eps);
                dfree(dA);
                if (!same)
                    dfree(dB);
                free(A);
                free(B);
                free(g);
                free(ref);
            }
}
END_TEST

static TCase *add_tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    suite_add_tcase(s, tc);
    return tc;
}

int main(void)
{
    Suite *s = suite_create("backend_ops");
    TCase *tc = add_tcase(s, "basic");
    tcase_add_loop_test(tc, test_upload_download, 0, 2);
    tcase_add_loop_test(tc, test_copy, 0, 2);
    tcase_add_loop_test(tc, test_laset, 0, 2);
    tcase_add_loop_test(tc, test_transpose, 0, 2);
    tcase_add_loop_test(tc, test_gemm, 0, 2);
    tcase_add_loop_test(tc, test_trsm, 0, 2);
    tcase_add_loop_test(tc, test_trsm_few, 0, 2);
    tcase_add_loop_test(tc, test_col_norms, 0, 2);
    tcase_add_loop_test(tc, test_count_nonzero, 0, 2);
    tcase_add_loop_test(tc, test_lanes, 0, 2);
    tcase_add_loop_test(tc, test_syrk_lacpy, 0, 2);
    tcase_add_loop_test(tc, test_gemm_batched, 0, 4);
    tcase_add_loop_test(tc, test_geadd_batched, 0, 4);
    tc = add_tcase(s, "householder");
    tcase_add_loop_test(tc, test_house, 0, 2);
    tcase_add_loop_test(tc, test_larf, 0, 2);
    tcase_add_loop_test(tc, test_wy_append, 0, 2);
    tcase_add_loop_test(tc, test_wy_left, 0, 4);
    tcase_add_loop_test(tc, test_geqrf_full, 0, 2);
    /* the panels and the sweeps one element type a case: under racecheck
     * each takes minutes */
    tc = add_tcase(s, "panel_t0");
    tcase_add_loop_test(tc, test_panel_qr, 0, 1);
    tc = add_tcase(s, "panel_t1");
    tcase_add_loop_test(tc, test_panel_qr, 1, 2);
    tc = add_tcase(s, "panel_tp");
    tcase_add_loop_test(tc, test_panel_qr_tp, 0, 2);
    tc = add_tcase(s, "givens");
    tcase_add_loop_test(tc, test_givens, 0, 2);
    tc = add_tcase(s, "sweeps_t0");
    tcase_add_loop_test(tc, test_givens_sweeps, 0, 1);
    tc = add_tcase(s, "sweeps_t1");
    tcase_add_loop_test(tc, test_givens_sweeps, 1, 2);
    tc = add_tcase(s, "sweeps_t2");
    tcase_add_loop_test(tc, test_givens_sweeps, 2, 3);
    tc = add_tcase(s, "sweeps_t3");
    tcase_add_loop_test(tc, test_givens_sweeps, 3, 4);
    tc = add_tcase(s, "accum");
    tcase_add_loop_test(tc, test_givens_accum, 0, 4);
    tc = add_tcase(s, "chol");
    tcase_add_loop_test(tc, test_potrf_panel, 0, 2);
    tcase_add_loop_test(tc, test_chol_rot, 0, 2);
    tcase_add_loop_test(tc, test_gram_ops, 0, 2);
    tc = add_tcase(s, "lars");
    tcase_add_loop_test(tc, test_lars_step, 0, 2);
    return qru_test_main(s);
}
