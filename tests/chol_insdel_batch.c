/* The batched Cholesky insertion (qru_chol_insert_batch, built with
 * QRU_TEST_INSERT 1: the test chol_insert_batch) or deletion
 * (qru_chol_delete_batch, QRU_TEST_INSERT 0: chol_delete_batch), one
 * program each (on PoCL each compiles its own kernel for every work-group
 * size it meets): every problem against LAPACKE's factor of its modified
 * A in double, both precisions and triangles, k at the start, middle and
 * end, orders around the bound of local memory and 1, padded pages, in
 * place and out of place, failed and non-finite problems left bit for
 * bit, a subset of the problems (qru_chol_insert_batch_ex /
 * qru_chol_delete_batch_ex: the others bit for bit, whatever their data;
 * all in the mask the same as the plain call to the bit), the argument
 * checks and the non-finite scan (chol_batch_pages.h for the batches'
 * images). */
#include "chol_batch_pages.h"

static const int INS = QRU_TEST_INSERT;

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
    int masked; /* the _ex call, problems b with b % 4 == 1 left out */
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
    int *mask = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b < cnt; ++b) {
        int bad = c->bad_every && b % c->bad_every == 1 ? c->how : MOD_GOOD;
        mask[b] = !c->masked || b % 4 != 1;
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
        if (!mask[b]) /* not judged, whatever its data */
            want[b] = 0;
        if (!want[b] && mask[b]) { /* A1 from the stored factor (and C) */
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
    int st = c->masked
                 ? (ins ? qru_chol_insert_batch_ex(ctx, uplo, Lb, k, C.B, L1b,
                                                   info, mask)
                        : qru_chol_delete_batch_ex(ctx, uplo, Lb, k, p, L1b,
                                                   info, mask))
             : ins ? qru_chol_insert_batch(ctx, uplo, Lb, k, C.B, L1b, info)
                   : qru_chol_delete_batch(ctx, uplo, Lb, k, p, L1b, info);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st1), 0);
    char tag[160];
    snprintf(tag, sizeof tag, "%s %c n %d k %d p %d count %d dt %d%s%s",
             ins ? "insert" : "delete", uplo, n, k, p, cnt, dt,
             c->out ? " out of place" : "", c->masked ? " masked" : "");
    if (n1 > 0 && cnt > 0)
        /* the verdicts' norm, then the verdicts where some failed */
        ck_assert_msg(st1.host_waits - st0.host_waits == (st > 0 ? 2 : 1),
                      "%s: %lld host waits, want %d", tag,
                      st1.host_waits - st0.host_waits, st > 0 ? 2 : 1);
    int *upd = calloc((size_t)cnt + 1, sizeof(int));
    check_verdicts(tag, ctx, st, cnt, want, info, n1, upd);
    for (int b = 0; b < cnt; ++b) /* left out: nothing written */
        upd[b] = upd[b] && mask[b];
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
    free(mask);
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
 * uplo (bit 1). */
START_TEST(test_batch_insdel)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[(_i / 2) % 2];
    int ins = INS;
    unsigned seed = 17 + (unsigned)(_i + 4 * ins);
    /* orders of the new factor */
    static const int n1s[] = {1, 2, 7, 30, 67, 68, 69, 70, 100};
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
                           0, 0, 0, 0, MOD_GOOD, 0};
                if (n1 > 67)
                    c.count = 6; /* the host reference's time */
                c.masked = idx % 5 == 2; /* a subset */
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
                   MOD_GOOD, 0};
        run_mod_case(&c, &seed);
        c.out = 0;
        run_mod_case(&c, &seed);
        mcase z = {dt, uplo, 0, 3, 0, 3, 4, 1, 3, 3, 1, 0, 0, 0, 0,
                   MOD_GOOD, 0};
        run_mod_case(&z, &seed);
    }
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 32),
                     0);
    for (int a = 0; a < 4; ++a) {
        int p = a % 2 ? 3 : 1, n1 = a < 2 ? 66 : 100,
            n = ins ? n1 - p : n1 + p;
        mcase c = {dt, uplo, ins, n, n / 3, p, 9, a % 2, n + p, n1, n1 + 2,
                   0, 0, 0, 0, MOD_GOOD, 0};
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
    int ins = INS;
    unsigned seed = 29 + (unsigned)(_i + 4 * ins);
    static const int n1s[] = {2, 9, 30, 80};
    for (int a = 0; a < 4; ++a)
        for (int h = 1; h <= 2; ++h)
            for (int kk = 0; kk < 2; ++kk) {
                int p = a % 2 ? 2 : 1, n1 = n1s[a],
                    n = ins ? n1 - p : n1 + p;
                int k = kk ? (ins ? n : n - p) / 2 : 0;
                int nm = n > n1 ? n : n1;
                mcase c = {dt, uplo, ins, n, k, p, 7, kk, nm + 1, n1,
                           n1 + 1, (size_t)(nm + 1) * nm + 3, 0, 0, 3, h, 0};
                run_mod_case(&c, &seed);
                c.masked = 1; /* a planted problem left out, and not */
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
    if (INS) {
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
    } else {
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
    }
    /* the mask (argument 8), after the others */
    int mk[3] = {1, 2, 0};
    if (INS) {
        BADI(-6, ctx, 'L', L.B, 1, C.B, L1c, info);
        ck_assert_int_eq(qru_chol_insert_batch_ex(ctx, 'L', L.B, 1, C.B, L1c,
                                                  info, mk),
                         -6);
        ck_assert_int_eq(qru_chol_insert_batch_ex(ctx, 'L', L.B, 1, C.B, L1.B,
                                                  info, mk),
                         -8);
    } else {
        ck_assert_int_eq(qru_chol_delete_batch_ex(ctx, 'L', L.B, 1, p, L1s,
                                                  info, mk),
                         -6);
        ck_assert_int_eq(qru_chol_delete_batch_ex(ctx, 'L', L.B, 1, p, D1.B,
                                                  info, mk),
                         -8);
    }
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "mask[1] = 2"));
    mk[1] = -1;
    ck_assert_int_eq(INS ? qru_chol_insert_batch_ex(ctx, 'L', L.B, 1, C.B,
                                                    L1.B, info, mk)
                         : qru_chol_delete_batch_ex(ctx, 'L', L.B, 1, p, D1.B,
                                                    info, mk),
                     -8);
    ck_assert_int_eq(info[0], -5);
    void *l2 = bimg_download(&L), *r2 = bimg_download(&L1),
         *d2 = bimg_download(&D1);
    ck_assert(same_outside(&L, l0, l2, 'L', NULL));
    ck_assert(same_outside(&L1, r0, r2, 'L', NULL));
    ck_assert(same_outside(&D1, d0, d2, 'L', NULL));
    free(l2);
    free(r2);
    free(d2);
    /* every problem in the mask: the plain call's pages and verdicts bit
     * for bit (out of place, into a copy of the output's image); none:
     * nothing written, info 0 */
    {
        bimg *O = INS ? &L1 : &D1;
        bimg X = bimg_new(dt, O->rows, O->cols, O->ld, cnt, 0);
        bimg_upload(&X);
        int one[3] = {1, 1, 1}, none[3] = {0, 0, 0}, info2[4] = {-5, -5, -5,
                                                                 -5};
        int s1 = INS ? qru_chol_insert_batch(ctx, 'L', L.B, 1, C.B, O->B,
                                             info)
                     : qru_chol_delete_batch(ctx, 'L', L.B, 1, p, O->B, info);
        int s2 = INS ? qru_chol_insert_batch_ex(ctx, 'L', L.B, 1, C.B, X.B,
                                                info2, one)
                     : qru_chol_delete_batch_ex(ctx, 'L', L.B, 1, p, X.B,
                                                info2, one);
        ck_assert_int_eq(s1, s2);
        ck_assert(!memcmp(info, info2, sizeof info));
        void *g1 = bimg_download(O), *g2 = bimg_download(&X);
        size_t es = qru_test_elsize(dt);
        for (int b = 0; b < cnt; ++b) /* the pages written */
            for (int j = 0; j < O->cols; ++j)
                ck_assert(!memcmp((char *)g1 + (b * O->stride + (size_t)j *
                                                                   O->ld) * es,
                                  (char *)g2 + (b * X.stride + (size_t)j *
                                                                  X.ld) * es,
                                  es * (size_t)O->rows));
        free(g1);
        free(g2);
        bimg_free(&X);
        X = bimg_new(dt, O->rows, O->cols, O->ld, cnt, 0);
        bimg_upload(&X);
        ck_assert_int_eq(INS ? qru_chol_insert_batch_ex(ctx, 'U', L.B, 0, C.B,
                                                        X.B, info2, none)
                             : qru_chol_delete_batch_ex(ctx, 'U', L.B, 0, p,
                                                        X.B, info2, none),
                         0);
        ck_assert(info2[0] == 0 && info2[1] == 0 && info2[2] == 0 &&
                  info2[3] == -5);
        g2 = bimg_download(&X);
        ck_assert(same_outside(&X, X.h, g2, 'L', NULL));
        free(g2);
        bimg_free(&X);
        info[0] = -5;
    }
    /* the scan: a NaN in C's part that is read, and (not read) in the
     * other triangle of C's diagonal block (L1 is written from here); a
     * NaN in L */
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    if (INS) {
        ck_assert_int_ge(
            qru_chol_insert_batch(ctx, 'L', L.B, 1, C.B, L1.B, info),
            0); /* random C: judged, not refused */
        info[0] = -5;
        void *cpg = bimg_page(&C, 2);
        double keep = qru_test_get(dt, cpg, n + p, 1, 1); /* block (0, 1) */
        qru_test_set(dt, cpg, n + p, 1, 1, NAN);
        qru_matrix_destroy(C.flat);
        qru_matrix_destroy(C.B);
        bimg_upload(&C);
        ck_assert_int_ge(
            qru_chol_insert_batch(ctx, 'L', L.B, 1, C.B, L1.B, info), 0);
        info[0] = -5;
        /* upper: read (L's upper triangle holds finite sentinels) */
        BADI(-5, ctx, 'U', L.B, 1, C.B, L1.B, info);
        qru_test_set(dt, cpg, n + p, 1, 1, keep);
        qru_test_set(dt, cpg, n + p, n + p - 1, 0, INFINITY);
        qru_matrix_destroy(C.flat);
        qru_matrix_destroy(C.B);
        bimg_upload(&C);
        BADI(-5, ctx, 'L', L.B, 1, C.B, L1.B, info);
    }
    qru_test_set(dt, bimg_page(&L, 1), n, 3, 2, NAN);
    qru_matrix_destroy(L.flat);
    qru_matrix_destroy(L.B);
    bimg_upload(&L);
    if (INS)
        BADI(-3, ctx, 'L', L.B, 1, C.B, L1.B, info);
    else /* L is scanned before k and p */
        BADD(-3, ctx, 'L', L.B, n + 1, -1, D1.B, info);
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

int main(void)
{
    Suite *s = suite_create(INS ? "chol_insert_batch" : "chol_delete_batch");
    TCase *tc = tcase_create("chol_insdel_batch");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_batch_insdel, 0, 4);
    tcase_add_loop_test(tc, test_batch_insdel_failures, 0, 4);
    tcase_add_test(tc, test_batch_insdel_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
