/* Batches of matrices, the batched Cholesky update / downdate
 * (qru_chol_update_batch) and the batched insertion and deletion
 * (qru_chol_insert_batch, qru_chol_delete_batch): every problem against LAPACKE in double, both
 * precisions and triangles, padded pages (ld > n, stride > ld * n), in
 * place and out of place, failed and non-finite problems left bit for
 * bit, the argument checks, and single-matrix routines refusing a batch.
 * Each batch lives in one device array uploaded from a host image of all
 * its memory (the gaps between pages and the padding hold sentinels), so
 * that everything the call must not write is compared bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

#define THR QRU_TEST_THRESHOLD
static const char UPLOS[2] = {'L', 'U'};

/* ---- a batch in one device array, and its host image ------------------ */

typedef struct bimg {
    qru_dtype dt;
    int rows, cols, ld, count;
    size_t stride, size; /* size: elements of the image */
    void *h;             /* the host image */
    qru_matrix *flat, *B; /* the device array and the batch over it */
} bimg;

/* A batch of count rows x cols pages, ld, stride (0: ld cols); every
 * element of the image a distinct sentinel until set. */
static bimg bimg_new(qru_dtype dt, int rows, int cols, int ld, int count,
                     size_t stride)
{
    bimg b = {dt, rows, cols, ld, count, stride ? stride : (size_t)ld * cols,
              0, NULL, NULL, NULL};
    b.size = count > 0 ? (count - 1) * b.stride + (size_t)ld * cols : 0;
    b.h = qru_test_alloc(dt, (int)(b.size > 0 ? b.size : 1), 1,
                         (int)(b.size > 0 ? b.size : 1));
    for (size_t e = 0; e < b.size; ++e)
        qru_test_set(dt, b.h, 1, (int)e, 0, 777.0 + (double)(e % 1000) / 8);
    return b;
}

static void *bimg_page(const bimg *b, int p)
{
    return (char *)b->h + (size_t)p * b->stride * qru_test_elsize(b->dt);
}

/* Uploads the image and wraps the batch over it. */
static void bimg_upload(bimg *b)
{
    int sz = b->size > 0 ? (int)b->size : 1;
    b->flat = qru_test_upload(ctx, b->dt, sz, 1, sz, b->h, sz);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, b->dt, b->rows, b->cols,
                                           qru_matrix_data(b->flat), b->ld,
                                           b->count, (long long)b->stride,
                                           &b->B),
                     0);
    ck_assert_int_eq(qru_matrix_count(b->B), b->count);
    ck_assert(qru_matrix_stride(b->B) == (long long)b->stride);
}

static void *bimg_download(const bimg *b) { return qru_test_download(b->flat); }

static void bimg_free(bimg *b)
{
    qru_matrix_destroy(b->B);
    qru_matrix_destroy(b->flat);
    free(b->h);
}

/* 1 when the images a and b agree bit for bit except in the uplo
 * triangles of order tri (the leading tri x tri block) of the pages with
 * skip[p] set (skip NULL: everywhere). */
static int same_outside_n(const bimg *m, const void *a, const void *b,
                          char uplo, const int *skip, int tri)
{
    size_t es = qru_test_elsize(m->dt);
    for (size_t e = 0; e < m->size; ++e) {
        size_t p = e / m->stride, r = e % m->stride;
        int i = (int)(r % (size_t)m->ld), j = (int)(r / (size_t)m->ld);
        int in = skip && (int)p < m->count && skip[p] && j < tri &&
                 i < tri && (uplo == 'L' ? i >= j : i <= j);
        if (!in && memcmp((const char *)a + e * es, (const char *)b + e * es,
                          es) != 0)
            return 0;
    }
    return 1;
}

/* same_outside_n over the whole square pages */
static int same_outside(const bimg *m, const void *a, const void *b,
                        char uplo, const int *skip)
{
    return same_outside_n(m, a, b, uplo, skip, m->cols);
}

/* ---- one problem on the host ------------------------------------------- */

/* Lower factor (ld n, zeros above) of the SPD A by LAPACKE; its info. */
static int ref_chol(int n, const double *A, double *L)
{
    memcpy(L, A, sizeof(double) * (size_t)n * n);
    int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            L[i + (size_t)j * n] = 0;
    return info;
}

/* The uplo triangle of the page F (ld) as a lower factor (ld n). */
static void page_lower(qru_dtype dt, int n, const void *F, int ld, char uplo,
                       double *L)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            L[i + (size_t)j * n] =
                i < j ? 0
                      : (uplo == 'L' ? qru_test_get(dt, F, ld, i, j)
                                     : qru_test_get(dt, F, ld, j, i));
}

/* Stores the lower factor L (ld n) on the page F (ld) as uplo says. */
static void page_store(qru_dtype dt, int n, const double *L, void *F, int ld,
                       char uplo)
{
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double v = L[i + (size_t)j * n];
            if (uplo == 'L')
                qru_test_set(dt, F, ld, i, j, v);
            else
                qru_test_set(dt, F, ld, j, i, v);
        }
}

static double fro(int n, const double *A)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i)
        s += A[i] * A[i];
    return sqrt(s);
}

/* The scaled errors of the new factor L1 (lower, ld n) of A1 (ld n):
 * backward ||A1 - L1 L1'|| / (||A1|| n eps) and forward against
 * LAPACKE's factor, / (||Lref|| n eps kappa(A1)); the larger. */
static double check_problem(qru_dtype dt, int n, const double *A1,
                            const double *L1)
{
    double *E = malloc(sizeof(double) * (size_t)n * n);
    double *Lr = malloc(sizeof(double) * (size_t)n * n);
    memcpy(E, A1, sizeof(double) * (size_t)n * n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, L1, n,
                L1, n, 1.0, E, n);
    double eps = qru_test_eps(dt);
    double be = fro(n, E) / (fro(n, A1) * n * eps);
    ck_assert_int_eq(ref_chol(n, A1, Lr), 0);
    double an = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, A1, n), rc = 0;
    LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, Lr, n, an, &rc);
    for (size_t i = 0; i < (size_t)n * n; ++i)
        E[i] = L1[i] - Lr[i];
    double fe = fro(n, E) / (fro(n, Lr) * n * eps * (rc > 0 ? 1.0 / rc : 1e300));
    free(E);
    free(Lr);
    return be > fe ? be : fe;
}

/* The verdicts of a batch call: status st counts the problems with
 * want[b] != 0; info[b] = want[b] (> 0), within 1..maxcol (want < 0: a
 * non-finite problem), or 0; info[cnt] untouched; upd[b]: problem b was
 * written. */
static void check_verdicts(const char *tag, qru_context *c, int st,
                           int cnt, const int *want, const int *info,
                           int maxcol, int *upd)
{
    int nbad = 0;
    for (int b = 0; b < cnt; ++b)
        nbad += want[b] != 0;
    ck_assert_msg(st == nbad, "%s: status %d, want %d (%s)", tag, st, nbad,
                  qru_last_error(c));
    ck_assert_msg(info[cnt] == -77, "%s: info written past count", tag);
    for (int b = 0; b < cnt; ++b) {
        if (want[b] > 0)
            ck_assert_msg(info[b] == want[b], "%s: problem %d: info %d, "
                          "want %d", tag, b, info[b], want[b]);
        else if (want[b] < 0)
            ck_assert_msg(info[b] >= 1 && info[b] <= maxcol,
                          "%s: problem %d (non-finite): info %d", tag, b,
                          info[b]);
        else
            ck_assert_msg(info[b] == 0, "%s: problem %d: info %d", tag, b,
                          info[b]);
        upd[b] = want[b] == 0;
    }
}

/* The workspace for count problems of order n and rank k grown
 * beforehand (a growth waits for queued work): the call itself waits
 * once. */
static void grow_ws(int n, int k, int count)
{
    qru_ptr wsp;
    ck_assert_int_eq(qru_ctx_workspace(ctx,
                                       ((size_t)count *
                                            (1 + qru_chol_batch_work(n, k)) +
                                        64) * sizeof(double),
                                       &wsp),
                     0);
}

/* ---- a whole batch ------------------------------------------------------ */

/* How a batch case goes wrong on purpose. */
enum { GOOD, LOSE_PD, NAN_W, INF_L };

typedef struct bcase {
    qru_dtype dt;
    char uplo;
    int n, k, count, sign, out;
    int ldl, ldw, ld1;
    size_t sl, sw, s1; /* 0: ld * cols */
    int bad_every;     /* problems b with b % bad_every == 1 go wrong ... */
    int how;           /* ... this way */
} bcase;

/* Runs one batch and checks every problem; returns the worst error. */
static double run_case(const bcase *c, unsigned *seed)
{
    qru_dtype dt = c->dt;
    int n = c->n, k = c->k, cnt = c->count;
    char uplo = c->uplo;
    size_t nn = (size_t)n * n;
    bimg L = bimg_new(dt, n, n, c->ldl, cnt, c->sl);
    bimg W = bimg_new(dt, n, k, c->ldw, cnt, c->sw);
    bimg L1 = c->out ? bimg_new(dt, n, n, c->ld1, cnt, c->s1) : L;
    double *A1 = malloc(sizeof(double) * nn * cnt + 8);
    double *Lh = malloc(sizeof(double) * nn + 8),
           *Wh = malloc(sizeof(double) * (size_t)n * k + 8);
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    for (int b = 0; b < cnt; ++b) {
        int bad = c->bad_every && b % c->bad_every == 1 ? c->how : GOOD;
        double *A0 = qru_test_spd(n, 4, 0.2, seed);
        for (size_t i = 0; i < (size_t)n * k; ++i)
            Wh[i] = 0.5 * qru_test_urand(seed);
        double *Ain = A1 + nn * b; /* A0 (+ W W' for a downdate) */
        memcpy(Ain, A0, sizeof(double) * nn);
        if (c->sign < 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, k, 1.0,
                        Wh, n, Wh, n, 1.0, Ain, n);
        ck_assert_int_eq(ref_chol(n, Ain, Lh), 0);
        int jb = n / 2;
        if (bad == LOSE_PD) { /* w_0 = 1.1 L(:, jb): fails at jb + 1 */
            for (int i = 0; i < n; ++i)
                Wh[i] = 1.1 * Lh[i + (size_t)jb * n];
            want[b] = jb + 1;
        }
        if (bad == NAN_W)
            Wh[jb] = NAN;
        if (bad == INF_L)
            Lh[jb + (size_t)(jb / 2) * n] = INFINITY;
        if (bad == NAN_W || bad == INF_L)
            want[b] = -1; /* some column <= jb + 1 */
        page_store(dt, n, Lh, bimg_page(&L, b), c->ldl, uplo);
        for (int q = 0; q < k; ++q)
            for (int i = 0; i < n; ++i)
                qru_test_set(dt, bimg_page(&W, b), c->ldw, i, q,
                             Wh[i + (size_t)q * n]);
        /* A1 from the stored (rounded) factor and W */
        page_lower(dt, n, bimg_page(&L, b), c->ldl, uplo, Lh);
        for (int q = 0; q < k; ++q)
            for (int i = 0; i < n; ++i)
                Wh[i + (size_t)q * n] =
                    qru_test_get(dt, bimg_page(&W, b), c->ldw, i, q);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, Lh,
                    n, Lh, n, 0.0, Ain, n);
        if (k > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, k,
                        (double)c->sign, Wh, n, Wh, n, 1.0, Ain, n);
        if (!want[b])
            ck_assert_msg(ref_chol(n, Ain, Lh) == 0, "reference not SPD");
        free(A0);
    }
    bimg_upload(&L);
    bimg_upload(&W);
    if (c->out)
        bimg_upload(&L1);
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b <= cnt; ++b)
        info[b] = -77;
    grow_ws(n, k, cnt);
    qru_context_stats st0, st1;
    ck_assert_int_eq(qru_context_get_stats(ctx, &st0), 0);
    int st = qru_chol_update_batch(ctx, uplo, L.B, W.B, c->sign,
                                   c->out ? L1.B : L.B, info);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st1), 0);
    char tag[128];
    snprintf(tag, sizeof tag, "%c n %d k %d count %d sign %d dt %d%s", uplo,
             n, k, cnt, c->sign, dt, c->out ? " out of place" : "");
    ck_assert_msg(st1.host_waits - st0.host_waits == 1,
                  "%s: %lld host waits, want 1", tag,
                  st1.host_waits - st0.host_waits);
    int *upd = calloc((size_t)cnt + 1, sizeof(int));
    check_verdicts(tag, ctx, st, cnt, want, info, n / 2 + 1, upd);
    /* W untouched; L untouched out of place; outside the written
     * triangles (and the failed pages) L1 untouched */
    void *w2 = bimg_download(&W);
    ck_assert_msg(same_outside(&W, W.h, w2, 'A', NULL), "%s: W changed", tag);
    free(w2);
    void *l2 = bimg_download(&L);
    ck_assert_msg(same_outside(&L, L.h, l2, uplo, c->out ? NULL : upd),
                  "%s: L changed where it must not", tag);
    void *r2 = l2;
    if (c->out) {
        r2 = bimg_download(&L1);
        ck_assert_msg(same_outside(&L1, L1.h, r2, uplo, upd),
                      "%s: L1 changed where it must not", tag);
    }
    double worst = 0;
    size_t es = qru_test_elsize(dt);
    for (int b = 0; b < cnt; ++b) {
        if (!upd[b])
            continue;
        page_lower(dt, n, (char *)r2 + (size_t)b * L1.stride * es, L1.ld,
                   uplo, Lh);
        double e = check_problem(dt, n, A1 + nn * b, Lh);
        ck_assert_msg(e <= THR, "%s: problem %d: scaled error %g", tag, b, e);
        worst = e > worst ? e : worst;
    }
    if (c->out)
        free(r2);
    free(l2);
    free(upd);
    free(info);
    free(want);
    free(A1);
    free(Lh);
    free(Wh);
    if (c->out)
        bimg_free(&L1);
    bimg_free(&L);
    bimg_free(&W);
    return worst;
}

/* _i: dtype (bit 0), uplo (bit 1). */
START_TEST(test_batch_update)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    static const int ns[] = {1, 2, 7, 32, 33, 64, 65, 100};
    static const int ks[] = {0, 1, 3};
    static const int counts[] = {1, 5, 300};
    unsigned seed = 91 + (unsigned)_i;
    double worst = 0;
    int idx = 0;
    for (int a = 0; a < 8; ++a)
        for (int kk = 0; kk < 3; ++kk)
            for (int sg = 0; sg < 2; ++sg, ++idx) {
                int n = ns[a], k = ks[kk];
                bcase c = {qru_test_dtype(ctx, _i % 2), UPLOS[_i / 2], n, k,
                           counts[idx % 3], sg ? -1 : 1, idx % 2,
                           n + (idx % 3), n + 1, n + 3, 0, 0, 0, 0, GOOD};
                if (c.count == 300 && n > 33)
                    c.count = 40; /* the host reference's time */
                if (idx % 4 < 2) { /* gaps between the pages */
                    c.sl = (size_t)c.ldl * n + 7;
                    c.sw = (size_t)c.ldw * k + 3;
                    c.s1 = (size_t)c.ld1 * n + 2;
                }
                double e = run_case(&c, &seed);
                worst = e > worst ? e : worst;
            }
    /* work-groups of 32 items (the private knob), so that each item owns
     * several rows: order 65 (the copy in local memory) and 100 (in
     * device memory) */
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 32),
                     0);
    for (int a = 0; a < 4; ++a) {
        int n = a < 2 ? 65 : 100, k = a % 2 ? 3 : 1;
        bcase c = {dt, UPLOS[_i / 2], n, k, 9, a == 1 ? -1 : 1, a % 2,
                   n + 1, n, n + 2, 0, 0, 0, 0, GOOD};
        double e = run_case(&c, &seed);
        worst = e > worst ? e : worst;
    }
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 0),
                     0);
    printf("batch update %c dt %d: max scaled error %.3g\n", UPLOS[_i / 2],
           qru_test_dtype(ctx, _i % 2), worst);
}
END_TEST

/* Downdates that lose definiteness at column n/2 + 1, a NaN in W, an Inf
 * in L: those problems fail with their pages unchanged, the others are
 * updated; the status counts the failures.  _i as above. */
START_TEST(test_batch_failures)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    unsigned seed = 5 + (unsigned)_i;
    static const int ns[] = {2, 7, 33, 65};
    static const int hows[] = {LOSE_PD, NAN_W, INF_L};
    for (int a = 0; a < 4; ++a)
        for (int h = 0; h < 3; ++h)
            for (int out = 0; out < 2; ++out) {
                int n = ns[a];
                bcase c = {qru_test_dtype(ctx, _i % 2), UPLOS[_i / 2], n,
                           h == 0 ? 2 : 3, 9, h == 0 ? -1 : (out ? 1 : -1),
                           out, n + 1, n + 2, n, (size_t)(n + 1) * n + 5,
                           0, 0, 3, hows[h]};
                run_case(&c, &seed);
            }
}
END_TEST

/* ---- insertion and deletion over a batch -------------------------------- */

/* How an insertion or deletion case goes wrong on purpose: MOD_PIVOT
 * (insertion: C(k+1,1) = -1, so that the new pivot k+1 fails; deletion: a
 * zero on L's diagonal in a kept row: a leading one, or with k = 0 the
 * first trailing row zeroed), MOD_NAN (a NaN in C's part that is read,
 * or in a kept row of L). */
enum { MOD_GOOD, MOD_PIVOT, MOD_NAN };

typedef struct mcase {
    qru_dtype dt;
    char uplo;
    int ins, n, k, p, count, out;
    int ldl, ldc, ld1;
    size_t sl, sc, s1; /* 0: ld * cols */
    int bad_every, how;
} mcase;

/* Runs one batched insertion or deletion and checks every problem against
 * LAPACKE's factor of its A1 (formed from the stored factor and C); returns
 * the worst scaled error. */
static double run_mod_case(const mcase *c, unsigned *seed)
{
    qru_dtype dt = c->dt;
    int n = c->n, k = c->k, p = c->p, cnt = c->count, ins = c->ins;
    int n1 = ins ? n + p : n - p, nm = n > n1 ? n : n1;
    char uplo = c->uplo;
    /* L's pages hold nm x nm (room for the factor in place) */
    bimg M = bimg_new(dt, nm, nm, c->ldl, cnt, c->sl);
    bimg C = bimg_new(dt, n1, ins ? p : 1, c->ldc, cnt, c->sc);
    bimg R = c->out ? bimg_new(dt, n1, n1, c->ld1, cnt, c->s1) : M;
    size_t n1n1 = (size_t)n1 * n1;
    double *A1 = malloc(sizeof(double) * n1n1 * cnt + 8);
    double *Ah = malloc(sizeof(double) * (size_t)nm * nm + 8),
           *Lh = malloc(sizeof(double) * (size_t)nm * nm + 8),
           *L1h = malloc(sizeof(double) * n1n1 + 8);
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    for (int b = 0; b < cnt; ++b) {
        int bad = c->bad_every && b % c->bad_every == 1 ? c->how : MOD_GOOD;
        /* ins: the SPD A1 of order n1, A = A1 without rows k..k+p-1;
         * del: the SPD A of order n */
        int na = ins ? n1 : n;
        double *Ab = qru_test_spd(na, 4, 0.2, seed);
        for (int j = 0, jj = 0; j < na; ++j) {
            if (ins && j >= k && j < k + p)
                continue;
            for (int i = 0, ii = 0; i < na; ++i) {
                if (ins && i >= k && i < k + p)
                    continue;
                Ah[ii++ + (size_t)jj * n] = Ab[i + (size_t)j * na];
            }
            ++jj;
        }
        ck_assert_int_eq(n > 0 ? ref_chol(n, Ah, Lh) : 0, 0);
        void *pg = bimg_page(&M, b), *cg = bimg_page(&C, b);
        if (!ins && bad == MOD_PIVOT) {
            if (k > 0) {
                Lh[(k - 1) + (size_t)(k - 1) * n] = 0;
                want[b] = k;
            } else if (p < n) {
                for (int j = 0; j <= p; ++j)
                    Lh[p + (size_t)j * n] = 0;
                want[b] = 1;
            }
        }
        if (!ins && bad == MOD_NAN && n1 > 0) {
            int r = k > 0 ? k - 1 : p; /* a kept row */
            Lh[r + (size_t)(r / 2) * n] = NAN;
            want[b] = -1;
        }
        page_store(dt, n, Lh, pg, c->ldl, uplo);
        page_lower(dt, n, pg, c->ldl, uplo, Lh); /* as stored */
        if (ins) {
            for (int q = 0; q < p; ++q)
                for (int i = 0; i < n1; ++i) {
                    int d = i - k;
                    int unread = d >= 0 && d < p &&
                                 (uplo == 'L' ? d < q : d > q);
                    qru_test_set(dt, cg, c->ldc, i, q,
                                 unread ? NAN : Ab[i + (size_t)(k + q) * n1]);
                }
            if (bad == MOD_PIVOT) {
                qru_test_set(dt, cg, c->ldc, k, 0, -1.0);
                want[b] = k + 1;
            }
            if (bad == MOD_NAN) {
                qru_test_set(dt, cg, c->ldc, n1 - 1, p - 1, NAN);
                want[b] = -1;
            }
        }
        /* a removed row of L does not matter: an Inf there */
        if (!ins && p > 0 && bad == MOD_GOOD)
            qru_test_set(dt, pg, c->ldl, uplo == 'L' ? k : 0,
                         uplo == 'L' ? 0 : k, INFINITY);
        if (!want[b]) { /* A1 from the stored factor (and C) */
            double *Ar = A1 + n1n1 * b;
            int map[4096];
            for (int i = 0, ii = 0; i < n1; ++i)
                map[i] = ins ? (i >= k && i < k + p ? -1 : ii++)
                             : (i < k ? i : i + p);
            for (int j = 0; j < n1; ++j)
                for (int i = 0; i < n1; ++i) {
                    double v = 0;
                    if (map[i] >= 0 && map[j] >= 0) {
                        int a = map[i], bb = map[j];
                        int m = a < bb ? a : bb;
                        for (int t = 0; t <= m; ++t)
                            v += Lh[a + (size_t)t * n] * Lh[bb + (size_t)t * n];
                    } else {
                        int r = map[i] < 0 ? j : i, q = map[i] < 0 ? i - k
                                                                   : j - k;
                        int d = r - k;
                        if (d >= 0 && d < p && (uplo == 'L' ? d < q : d > q)) {
                            int t = d;
                            d = q;
                            q = t;
                            r = k + d;
                        }
                        v = qru_test_get(dt, cg, c->ldc, r, q);
                    }
                    Ar[i + (size_t)j * n1] = v;
                }
            ck_assert_msg(n1 == 0 || ref_chol(n1, Ar, L1h) == 0,
                          "reference not SPD");
        }
        free(Ab);
    }
    /* the views: L (n x n) over M's pages; in place L1 (n1 x n1) too */
    bimg_upload(&M);
    bimg_upload(&C);
    if (c->out)
        bimg_upload(&R);
    qru_matrix *Lb = NULL, *L1b = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, n,
                                           qru_matrix_data(M.flat), M.ld, cnt,
                                           (long long)M.stride, &Lb),
                     0);
    if (c->out)
        L1b = R.B;
    else
        ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n1, n1,
                                               qru_matrix_data(M.flat), M.ld,
                                               cnt, (long long)M.stride,
                                               &L1b),
                         0);
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b <= cnt; ++b)
        info[b] = -77;
    grow_ws(n1, p, cnt);
    qru_context_stats st0, st1;
    ck_assert_int_eq(qru_context_get_stats(ctx, &st0), 0);
    int st = ins ? qru_chol_insert_batch(ctx, uplo, Lb, k, C.B, L1b, info)
                 : qru_chol_delete_batch(ctx, uplo, Lb, k, p, L1b, info);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st1), 0);
    char tag[160];
    snprintf(tag, sizeof tag, "%s %c n %d k %d p %d count %d dt %d%s",
             ins ? "insert" : "delete", uplo, n, k, p, cnt, dt,
             c->out ? " out of place" : "");
    if (n1 > 0 && cnt > 0)
        ck_assert_msg(st1.host_waits - st0.host_waits == 1,
                      "%s: %lld host waits, want 1", tag,
                      st1.host_waits - st0.host_waits);
    int *upd = calloc((size_t)cnt + 1, sizeof(int));
    check_verdicts(tag, ctx, st, cnt, want, info, n1, upd);
    /* C untouched; M untouched outside the written triangles of order n1
     * (in place) or everywhere; R likewise */
    void *c2 = bimg_download(&C);
    ck_assert_msg(same_outside(&C, C.h, c2, 'A', NULL), "%s: C changed", tag);
    free(c2);
    void *m2 = bimg_download(&M);
    ck_assert_msg(same_outside_n(&M, M.h, m2, uplo, c->out ? NULL : upd, n1),
                  "%s: L changed where it must not", tag);
    void *r2 = m2;
    if (c->out) {
        r2 = bimg_download(&R);
        ck_assert_msg(same_outside_n(&R, R.h, r2, uplo, upd, n1),
                      "%s: L1 changed where it must not", tag);
    }
    double worst = 0;
    size_t es = qru_test_elsize(dt);
    for (int b = 0; b < cnt && n1 > 0; ++b) {
        if (!upd[b])
            continue;
        page_lower(dt, n1, (char *)r2 + (size_t)b * R.stride * es, R.ld, uplo,
                   L1h);
        double e = check_problem(dt, n1, A1 + n1n1 * b, L1h);
        ck_assert_msg(e <= THR, "%s: problem %d: scaled error %g", tag, b, e);
        worst = e > worst ? e : worst;
    }
    if (c->out)
        free(r2);
    free(m2);
    free(upd);
    free(info);
    free(want);
    free(A1);
    free(Ah);
    free(Lh);
    free(L1h);
    qru_matrix_destroy(Lb);
    if (c->out)
        bimg_free(&R);
    else
        qru_matrix_destroy(L1b);
    bimg_free(&C);
    bimg_free(&M);
    return worst;
}

/* Insertions and deletions of p = 1 and 3 rows at the start, the middle
 * and the end, orders around the bound of local memory (order n1 and rank
 * p: 69 and 70 for p = 1, 67 and 68 for p = 3) and 1, in place and out of
 * place, padded pages; then work-groups of 32 items.  _i: dtype (bit 0),
 * uplo (bit 1), insertion (bit 2). */
START_TEST(test_batch_insdel)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[(_i / 2) % 2];
    int ins = _i / 4;
    unsigned seed = 17 + (unsigned)_i;
    /* orders of the new factor */
    static const int n1s[] = {1, 2, 7, 33, 67, 68, 69, 70, 100};
    static const int ps[] = {1, 3};
    double worst = 0;
    int idx = 0;
    for (int a = 0; a < 9; ++a)
        for (int pp = 0; pp < 2; ++pp)
            for (int kk = 0; kk < 3; ++kk, ++idx) {
                int p = ps[pp], n1 = n1s[a], n = ins ? n1 - p : n1 + p;
                if (n < 0)
                    continue;
                int kmax = ins ? n : n - p;
                int k = kk == 0 ? 0 : kk == 1 ? kmax / 2 : kmax;
                int nm = n > n1 ? n : n1;
                mcase c = {dt, uplo, ins, n, k, p, idx % 3 ? 5 : 40,
                           idx % 2, nm + (idx % 3), n1 + 2, n1 + 1,
                           0, 0, 0, 0, MOD_GOOD};
                if (n1 > 67)
                    c.count = 6; /* the host reference's time */
                if (idx % 4 < 2) { /* gaps between the pages */
                    c.sl = (size_t)c.ldl * nm + 5;
                    c.sc = (size_t)c.ldc * p + 3;
                    c.s1 = (size_t)c.ld1 * n1 + 2;
                }
                double e = run_mod_case(&c, &seed);
                worst = e > worst ? e : worst;
            }
    if (!ins) { /* p = 0: L itself, judged; all removed: order 0 */
        mcase c = {dt, uplo, 0, 9, 4, 0, 5, 1, 9, 9, 9, 0, 0, 0, 0,
                   MOD_GOOD};
        run_mod_case(&c, &seed);
        c.out = 0;
        run_mod_case(&c, &seed);
        mcase z = {dt, uplo, 0, 3, 0, 3, 4, 1, 3, 3, 1, 0, 0, 0, 0,
                   MOD_GOOD};
        run_mod_case(&z, &seed);
    }
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 32),
                     0);
    for (int a = 0; a < 4; ++a) {
        int p = a % 2 ? 3 : 1, n1 = a < 2 ? 66 : 100,
            n = ins ? n1 - p : n1 + p;
        mcase c = {dt, uplo, ins, n, n / 3, p, 9, a % 2, n + p, n1, n1 + 2,
                   0, 0, 0, 0, MOD_GOOD};
        double e = run_mod_case(&c, &seed);
        worst = e > worst ? e : worst;
    }
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 0),
                     0);
    printf("batch %s %c dt %d: max scaled error %.3g\n",
           ins ? "insert" : "delete", uplo, dt, worst);
}
END_TEST

/* Failed problems (a failing pivot, a NaN) among good ones, in local and
 * device memory, in place and out of place: their pages bit-identical,
 * the right column.  _i as above. */
START_TEST(test_batch_insdel_failures)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[(_i / 2) % 2];
    int ins = _i / 4;
    unsigned seed = 29 + (unsigned)_i;
    static const int n1s[] = {2, 9, 40, 80};
    for (int a = 0; a < 4; ++a)
        for (int h = 1; h <= 2; ++h)
            for (int kk = 0; kk < 2; ++kk) {
                int p = a % 2 ? 2 : 1, n1 = n1s[a],
                    n = ins ? n1 - p : n1 + p;
                int k = kk ? (ins ? n : n - p) / 2 : 0;
                int nm = n > n1 ? n : n1;
                mcase c = {dt, uplo, ins, n, k, p, 7, kk, nm + 1, n1,
                           n1 + 1, (size_t)(nm + 1) * nm + 3, 0, 0, 3, h};
                run_mod_case(&c, &seed);
            }
}
END_TEST

/* The argument checks of both, in argument order, with nothing written;
 * the non-finite scan. */
START_TEST(test_batch_insdel_args)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int n = 4, cnt = 3, p = 2;
    unsigned seed = 13;
    bimg L = bimg_new(dt, n, n, n, cnt, 0), C = bimg_new(dt, n + p, p, n + p,
                                                         cnt, 0),
         L1 = bimg_new(dt, n + p, n + p, n + p, cnt, 0),
         D1 = bimg_new(dt, n - p, n - p, n, cnt, 0);
    for (int b = 0; b < cnt; ++b) {
        double *A = qru_test_spd(n, 4, 0.2, &seed), F[16];
        ck_assert_int_eq(ref_chol(n, A, F), 0);
        page_store(dt, n, F, bimg_page(&L, b), n, 'L');
        qru_test_rand(dt, n + p, p, bimg_page(&C, b), n + p, &seed);
        free(A);
    }
    bimg_upload(&L);
    bimg_upload(&C);
    bimg_upload(&L1);
    bimg_upload(&D1);
    qru_matrix *Cc = NULL, *Cs = NULL, *C0 = NULL, *Lr = NULL, *Co = NULL,
               *L1c = NULL, *L1s = NULL, *Lf = NULL;
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + p, p, 0, cnt + 1,
                                             0, &Cc),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + p + 1, p, 0, cnt,
                                             0, &Cs),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 0, 0, cnt, 0, &C0),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n + 1, 0, cnt, 0,
                                             &Lr),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + p, n + p, 0, 2, 0,
                                             &L1c),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + p - 1, n + p - 1, 0,
                                             cnt, 0, &L1s),
                     0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, n, 0, cnt, 0,
                                                 &Lf),
                         0);
    /* C over L's memory; C over L1's (then L1 overlaps C) */
    void *lm = qru_matrix_data(L.flat), *rm = qru_matrix_data(L1.flat);
    qru_matrix *Cob = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n + p, p, lm, n + p, cnt,
                                           0, &Cob),
                     0);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n + p, p, rm, n + p, cnt,
                                           0, &Co),
                     0);
    qru_matrix *Lsh = qru_test_alias(ctx, L.flat, 1, n - p, n - p, n, 0);
    Lsh->count = cnt;
    Lsh->stride = (size_t)n * n;
    int info[4] = {-5, -5, -5, -5};
    void *l0 = bimg_download(&L), *r0 = bimg_download(&L1),
         *d0 = bimg_download(&D1);
#define BADI(want, ...)                                                        \
    do {                                                                       \
        ck_assert_int_eq(qru_chol_insert_batch(__VA_ARGS__), want);           \
        ck_assert_int_eq(info[0], -5);                                         \
    } while (0)
#define BADD(want, ...)                                                        \
    do {                                                                       \
        ck_assert_int_eq(qru_chol_delete_batch(__VA_ARGS__), want);           \
        ck_assert_int_eq(info[0], -5);                                         \
    } while (0)
    BADI(-1, NULL, 'L', L.B, 1, C.B, L1.B, info);
    BADI(-2, ctx, 'X', L.B, 1, C.B, L1.B, info);
    BADI(-3, ctx, 'L', NULL, 1, C.B, L1.B, info);
    BADI(-3, ctx, 'L', Lr, 1, C.B, L1.B, info);
    BADI(-4, ctx, 'L', L.B, -1, C.B, L1.B, info);
    BADI(-4, ctx, 'L', L.B, n + 1, C.B, L1.B, info);
    BADI(-5, ctx, 'L', L.B, 1, NULL, L1.B, info);
    BADI(-5, ctx, 'L', L.B, 1, Cc, L1.B, info);
    BADI(-5, ctx, 'L', L.B, 1, Cs, L1.B, info);
    BADI(-5, ctx, 'L', L.B, 1, C0, L1.B, info);
    BADI(-5, ctx, 'L', L.B, 1, Cob, L1.B, info);
    if (Lf)
        BADI(-5, ctx, 'L', Lf, 1, C.B, L1.B, info);
    BADI(-6, ctx, 'L', L.B, 1, C.B, NULL, info);
    BADI(-6, ctx, 'L', L.B, 1, C.B, L1c, info);
    BADI(-6, ctx, 'L', L.B, 1, C.B, L1s, info);
    BADI(-6, ctx, 'L', L.B, 1, Co, L1.B, info);
    BADD(-1, NULL, 'L', L.B, 1, p, D1.B, info);
    BADD(-2, ctx, 'Q', L.B, 1, p, D1.B, info);
    BADD(-3, ctx, 'L', Lr, 1, p, D1.B, info);
    BADD(-4, ctx, 'L', L.B, n + 1, p, D1.B, info);
    BADD(-5, ctx, 'L', L.B, 1, -1, D1.B, info);
    BADD(-5, ctx, 'L', L.B, 3, p, D1.B, info);
    BADD(-6, ctx, 'L', L.B, 1, p, NULL, info);
    BADD(-6, ctx, 'L', L.B, 1, p, L1s, info);
    BADD(-6, ctx, 'L', L.B, 1, p, Lsh, info);
    if (Lf)
        BADD(-6, ctx, 'L', L.B, 1, p, Lf, info);
    void *l2 = bimg_download(&L), *r2 = bimg_download(&L1),
         *d2 = bimg_download(&D1);
    ck_assert(same_outside(&L, l0, l2, 'L', NULL));
    ck_assert(same_outside(&L1, r0, r2, 'L', NULL));
    ck_assert(same_outside(&D1, d0, d2, 'L', NULL));
    free(l2);
    free(r2);
    free(d2);
    /* the scan: a NaN in L, in C's part that is read, and (not read) in
     * the other triangle of C's diagonal block; L1 is written from here */
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    ck_assert_int_ge(qru_chol_insert_batch(ctx, 'L', L.B, 1, C.B, L1.B, info),
                     0); /* random C: judged, not refused */
    info[0] = -5;
    void *cpg = bimg_page(&C, 2);
    double keep = qru_test_get(dt, cpg, n + p, 1, 1); /* block (0, 1) */
    qru_test_set(dt, cpg, n + p, 1, 1, NAN);
    qru_matrix_destroy(C.flat);
    qru_matrix_destroy(C.B);
    bimg_upload(&C);
    ck_assert_int_ge(qru_chol_insert_batch(ctx, 'L', L.B, 1, C.B, L1.B, info),
                     0); /* random C: judged, not refused */
    info[0] = -5;
    BADI(-5, ctx, 'U', L.B, 1, C.B, L1.B, info); /* upper: read, and L's
                                                  * upper triangle is NaN-free
                                                  * sentinels */
    qru_test_set(dt, cpg, n + p, 1, 1, keep);
    qru_test_set(dt, cpg, n + p, n + p - 1, 0, INFINITY);
    qru_matrix_destroy(C.flat);
    qru_matrix_destroy(C.B);
    bimg_upload(&C);
    BADI(-5, ctx, 'L', L.B, 1, C.B, L1.B, info);
    qru_test_set(dt, bimg_page(&L, 1), n, 3, 2, NAN);
    qru_matrix_destroy(L.flat);
    qru_matrix_destroy(L.B);
    bimg_upload(&L);
    BADI(-3, ctx, 'L', L.B, 1, C.B, L1.B, info);
    BADD(-3, ctx, 'L', L.B, 1, p, D1.B, info);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    /* count 0: quick returns after the checks */
    qru_matrix *Z = NULL, *Zc = NULL, *Z1 = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, 0, 0, 0, &Z), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + 1, 1, 0, 0, 0, &Zc),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + 1, n + 1, 0, 0, 0,
                                             &Z1),
                     0);
    ck_assert_int_eq(qru_chol_insert_batch(ctx, 'U', Z, 0, Zc, Z1, info), 0);
    ck_assert_int_eq(qru_chol_delete_batch(ctx, 'U', Z1, 1, 1, Z, info), 0);
    ck_assert_int_eq(info[0], -5);
    qru_matrix_destroy(Z);
    qru_matrix_destroy(Zc);
    qru_matrix_destroy(Z1);
    free(l0);
    free(r0);
    free(d0);
    qru_test_alias_free(Lsh, 0);
    qru_matrix_destroy(Cob);
    qru_matrix_destroy(Co);
    qru_matrix_destroy(Lf);
    qru_matrix_destroy(L1s);
    qru_matrix_destroy(L1c);
    qru_matrix_destroy(Lr);
    qru_matrix_destroy(C0);
    qru_matrix_destroy(Cs);
    qru_matrix_destroy(Cc);
    bimg_free(&D1);
    bimg_free(&L1);
    bimg_free(&C);
    bimg_free(&L);
}
END_TEST

/* ---- the matrices ------------------------------------------------------- */

START_TEST(test_batch_matrices)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_matrix *M = NULL, *B = NULL;
    /* the argument checks of create_batch and wrap_batch */
    ck_assert_int_eq(qru_matrix_create_batch(NULL, dt, 2, 2, 0, 3, 0, &M), -1);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, 0, 2, 2, 0, 3, 0, &M), -2);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, -1, 2, 0, 3, 0, &M), -3);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, -1, 0, 3, 0, &M), -4);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 4, 2, 3, 3, 0, &M), -5);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, 2, 0, -1, 0, &M), -6);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, 2, 3, 3, 5, &M), -7);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 2, 2, 0, 3, 0, NULL),
                     -8);
    ck_assert_ptr_null(M);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, 2, 4, 5, 0, &M), 0);
    ck_assert_int_eq(qru_matrix_count(M), 5);
    ck_assert(qru_matrix_stride(M) == 8);
    ck_assert_int_eq(qru_matrix_count(NULL), -1);
    ck_assert(qru_matrix_stride(NULL) == -1);
    void *mem = qru_matrix_data(M);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, 2, 2, NULL, 0, 2, 0, &B),
                     -5);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, 2, 2, mem, 1, 2, 0, &B),
                     -6);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, 2, 2, mem, 0, -2, 0, &B),
                     -7);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, 2, 2, mem, 0, 2, 3, &B),
                     -8);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, 2, 2, mem, 0, 2, 0, NULL),
                     -9);
    /* upload / download of every page: host pages one after another;
     * pages with gaps (stride 11 > 4 * 2) and contiguous ones */
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, 2, 4, 5, 11, &B), 0);
    unsigned seed = 3;
    void *h = qru_test_alloc(dt, 3, 2 * 5, 3), *g = qru_test_alloc(dt, 3, 10, 3);
    qru_test_rand(dt, 3, 10, h, 3, &seed);
    ck_assert_int_eq(qru_matrix_upload(B, h, 3), 0);
    ck_assert_int_eq(qru_matrix_copy(B, M), 0);
    ck_assert_int_eq(qru_matrix_download(M, g, 3), 0);
    ck_assert(memcmp(h, g, qru_test_elsize(dt) * 30) == 0);
    memset(g, 0, qru_test_elsize(dt) * 30);
    ck_assert_int_eq(qru_matrix_download(B, g, 3), 0);
    ck_assert(memcmp(h, g, qru_test_elsize(dt) * 30) == 0);
    /* copy: counts must agree; a batch is refused where one matrix goes */
    qru_matrix *S = NULL, *E = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, 3, 2, 0, &S), 0);
    ck_assert_int_eq(qru_matrix_copy(B, S), -2);
    ck_assert_int_eq(qru_matrix_copy(S, B), -2);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, 3, 0, 4, 0, &E), 0);
    ck_assert_int_eq(qru_chol_factor(ctx, 'L', E, QRU_CHOL_LEFT, 0), -3);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "batch of 4"));
    ck_assert_int_eq(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1.0, E, S), -7);
    qru_matrix_destroy(E);
    /* an empty batch */
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 3, 3, 0, 0, 0, &E), 0);
    ck_assert_int_eq(qru_matrix_upload(E, h, 3), 0);
    ck_assert_int_eq(qru_matrix_download(E, g, 3), 0);
    qru_matrix_destroy(E);
    free(h);
    free(g);
    qru_matrix_destroy(S);
    qru_matrix_destroy(B);
    qru_matrix_destroy(M);
}
END_TEST

/* ---- the argument checks ------------------------------------------------ */

START_TEST(test_batch_args)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int n = 4, cnt = 3;
    unsigned seed = 11;
    bimg L = bimg_new(dt, n, n, n, cnt, 0), W = bimg_new(dt, n, 2, n, cnt, 0),
         L1 = bimg_new(dt, n, n, n, cnt, 0);
    for (int b = 0; b < cnt; ++b) {
        double *A = qru_test_spd(n, 4, 0.2, &seed), F[16];
        ck_assert_int_eq(ref_chol(n, A, F), 0);
        page_store(dt, n, F, bimg_page(&L, b), n, 'L');
        qru_test_rand(dt, n, 2, bimg_page(&W, b), n, &seed);
        free(A);
    }
    bimg_upload(&L);
    bimg_upload(&W);
    bimg_upload(&L1);
    qru_matrix *Wc = NULL, *Ws = NULL, *L1c = NULL, *L1s = NULL, *Lr = NULL,
               *Wo = NULL, *One = NULL;
    qru_matrix *Lf = NULL;
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, cnt + 1, 0, &Wc),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n + 1, 2, 0, cnt, 0, &Ws),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, 0, 2, 0, &L1c), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n - 1, 0, cnt, 0,
                                             &L1s),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n + 1, 0, cnt, 0, &Lr),
                     0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, n, 0, cnt, 0,
                                                 &Lf),
                         0);
    /* W over L's memory; L1 over W's; L1 half a page into L's */
    void *lm = qru_matrix_data(L.flat), *wm = qru_matrix_data(W.flat);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, 2, lm, n, cnt, 0, &Wo),
                     0);
    qru_matrix *L1w = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, n, wm, n, cnt, 0, &L1w),
                     0);
    qru_matrix *Lsh = NULL; /* L's memory two elements on, as a batch */
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, 0, cnt, 0, &One),
                     0);
    Lsh = qru_test_alias(ctx, L.flat, 2, n, n, n, 0);
    Lsh->count = cnt;
    Lsh->stride = (size_t)n * n;
    int info[4] = {-5, -5, -5, -5};
    void *l0 = bimg_download(&L), *r0 = bimg_download(&L1);
#define BAD(want, ...)                                                         \
    do {                                                                       \
        ck_assert_int_eq(qru_chol_update_batch(__VA_ARGS__), want);           \
        ck_assert_int_eq(info[0], -5);                                         \
    } while (0)
    BAD(-1, NULL, 'L', L.B, W.B, 1, L1.B, info);
    BAD(-2, ctx, 'X', L.B, W.B, 1, L1.B, info);
    BAD(-3, ctx, 'L', NULL, W.B, 1, L1.B, info);
    BAD(-3, ctx, 'L', Lr, W.B, 1, L1.B, info);
    BAD(-4, ctx, 'L', L.B, NULL, 1, L1.B, info);
    BAD(-4, ctx, 'L', L.B, Wc, 1, L1.B, info);
    BAD(-4, ctx, 'L', L.B, Ws, 1, L1.B, info);
    BAD(-4, ctx, 'L', L.B, Wo, 1, L1.B, info);
    if (Lf)
        BAD(-4, ctx, 'L', Lf, W.B, 1, L1.B, info);
    BAD(-5, ctx, 'L', L.B, W.B, 0, L1.B, info);
    BAD(-5, ctx, 'L', L.B, W.B, 2, L1.B, info);
    BAD(-6, ctx, 'L', L.B, W.B, 1, NULL, info);
    BAD(-6, ctx, 'L', L.B, W.B, 1, L1c, info);
    BAD(-6, ctx, 'L', L.B, W.B, 1, L1s, info);
    BAD(-6, ctx, 'L', L.B, W.B, 1, L1w, info);
    BAD(-6, ctx, 'L', L.B, W.B, 1, Lsh, info);
    /* single-matrix routines refuse a batch */
    ck_assert_int_eq(qru_chol_update(ctx, 'L', L.B, One, 1, L.B), -3);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "batch of 3"));
    ck_assert_int_eq(qru_chol_solve(ctx, 'L', L.B, W.B), -3);
    void *l2 = bimg_download(&L), *r2 = bimg_download(&L1);
    ck_assert(same_outside(&L, l0, l2, 'L', NULL));
    ck_assert(same_outside(&L1, r0, r2, 'L', NULL));
    free(l2);
    free(r2);
    /* a good call, info NULL; count 0 and n 0: quick returns */
    ck_assert_int_eq(qru_chol_update_batch(ctx, 'l', L.B, W.B, 1, L1.B, NULL),
                     0);
    qru_matrix *Z = NULL, *Zw = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, 0, 0, 0, &Z), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 1, 0, 0, 0, &Zw), 0);
    ck_assert_int_eq(qru_chol_update_batch(ctx, 'U', Z, Zw, -1, Z, info), 0);
    ck_assert_int_eq(qru_chol_update_batch(ctx, 'U', Z, Zw, 0, Z, info), -5);
    qru_matrix_destroy(Z);
    qru_matrix_destroy(Zw);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 0, 0, 0, 3, 0, &Z), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, 0, 2, 0, 3, 0, &Zw), 0);
    ck_assert_int_eq(qru_chol_update_batch(ctx, 'L', Z, Zw, 1, Z, info), 0);
    ck_assert(info[0] == 0 && info[1] == 0 && info[2] == 0 && info[3] == -5);
    qru_matrix_destroy(Z);
    qru_matrix_destroy(Zw);
    free(l0);
    free(r0);
    qru_test_alias_free(Lsh, 0);
    qru_matrix_destroy(One);
    qru_matrix_destroy(L1w);
    qru_matrix_destroy(Wo);
    qru_matrix_destroy(Lf);
    qru_matrix_destroy(Lr);
    qru_matrix_destroy(L1s);
    qru_matrix_destroy(L1c);
    qru_matrix_destroy(Ws);
    qru_matrix_destroy(Wc);
    bimg_free(&L1);
    bimg_free(&W);
    bimg_free(&L);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("chol_batch");
    TCase *tc = tcase_create("chol_batch");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_batch_update, 0, 4);
    tcase_add_loop_test(tc, test_batch_failures, 0, 4);
    tcase_add_test(tc, test_batch_matrices);
    tcase_add_test(tc, test_batch_args);
    tcase_add_loop_test(tc, test_batch_insdel, 0, 8);
    tcase_add_loop_test(tc, test_batch_insdel_failures, 0, 8);
    tcase_add_test(tc, test_batch_insdel_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
