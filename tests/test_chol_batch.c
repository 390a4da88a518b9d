/* Batches of matrices and the batched Cholesky update / downdate
 * (qru_chol_update_batch, and qru_chol_update_batch_ex with a rank a
 * problem): every problem against LAPACKE in double, both precisions and
 * triangles, padded pages (ld > n, stride > ld * n), in place and out of
 * place, failed and non-finite problems left bit for bit, problems of
 * rank 0 left bit for bit (whatever their data), the columns after a
 * problem's rank NaN and unused, all ranks k the same as the plain call
 * to the bit, the argument checks, and single-matrix routines refusing a
 * batch.
 * Each batch lives in one device array uploaded from a host image of all
 * its memory (chol_batch_pages.h). */
#include "chol_batch_pages.h"

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
    int ranked;        /* qru_chol_update_batch_ex, rank case_rank(b, k) */
} bcase;

/* The rank of problem b of a ranked case: 0 .. k in turn (rank 0 every
 * k + 1 problems). */
static int case_rank(int b, int k) { return (3 * b + 1) % (k + 1); }

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
    int *rank = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b < cnt; ++b) {
        int bad = c->bad_every && b % c->bad_every == 1 ? c->how : GOOD;
        int kb = rank[b] = c->ranked ? case_rank(b, k) : k;
        if (kb == 0 && (c->ranked || bad != INF_L))
            bad = GOOD; /* not judged, or no column of W used */
        double *A0 = qru_test_spd(n, 4, 0.2, seed);
        for (size_t i = 0; i < (size_t)n * k; ++i)
            Wh[i] = 0.5 * qru_test_urand(seed);
        double *Ain = A1 + nn * b; /* A0 (+ W W' for a downdate) */
        memcpy(Ain, A0, sizeof(double) * nn);
        if (c->sign < 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, kb,
                        1.0, Wh, n, Wh, n, 1.0, Ain, n);
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
        for (int q = 0; q < k; ++q) /* the columns after the rank: NaN */
            for (int i = 0; i < n; ++i)
                qru_test_set(dt, bimg_page(&W, b), c->ldw, i, q,
                             q < kb ? Wh[i + (size_t)q * n] : NAN);
        /* A1 from the stored (rounded) factor and W */
        page_lower(dt, n, bimg_page(&L, b), c->ldl, uplo, Lh);
        for (int q = 0; q < k; ++q)
            for (int i = 0; i < n; ++i)
                Wh[i + (size_t)q * n] =
                    qru_test_get(dt, bimg_page(&W, b), c->ldw, i, q);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, Lh,
                    n, Lh, n, 0.0, Ain, n);
        if (kb > 0)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, kb,
                        (double)c->sign, Wh, n, Wh, n, 1.0, Ain, n);
        if (!want[b] && kb > 0)
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
    int st = c->ranked ? qru_chol_update_batch_ex(ctx, uplo, L.B, W.B,
                                                  c->sign,
                                                  c->out ? L1.B : L.B, info,
                                                  rank)
                       : qru_chol_update_batch(ctx, uplo, L.B, W.B, c->sign,
                                               c->out ? L1.B : L.B, info);
    ck_assert_int_eq(qru_context_get_stats(ctx, &st1), 0);
    char tag[128];
    snprintf(tag, sizeof tag, "%c n %d k %d count %d sign %d dt %d%s%s",
             uplo, n, k, cnt, c->sign, dt, c->out ? " out of place" : "",
             c->ranked ? " ranked" : "");
    /* the verdicts' norm, then the verdicts themselves where some failed */
    ck_assert_msg(st1.host_waits - st0.host_waits == (st > 0 ? 2 : 1),
                  "%s: %lld host waits, want %d", tag,
                  st1.host_waits - st0.host_waits, st > 0 ? 2 : 1);
    int *upd = calloc((size_t)cnt + 1, sizeof(int));
    check_verdicts(tag, ctx, st, cnt, want, info, n / 2 + 1, upd);
    for (int b = 0; b < cnt; ++b) /* rank 0: nothing written */
        upd[b] = upd[b] && (rank[b] > 0 || !c->ranked);
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
    free(rank);
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
    /* 16 | 17: CUDA's warp kernel, several problems a warp | one */
    static const int ns[] = {1, 2, 7, 16, 17, 32, 33, 64, 65, 100};
    static const int ks[] = {0, 1, 3};
    static const int counts[] = {1, 5, 300};
    unsigned seed = 91 + (unsigned)_i;
    double worst = 0;
    int idx = 0;
    for (int a = 0; a < 10; ++a)
        for (int kk = 0; kk < 3; ++kk)
            for (int sg = 0; sg < 2; ++sg, ++idx) {
                int n = ns[a], k = ks[kk];
                bcase c = {qru_test_dtype(ctx, _i % 2), UPLOS[_i / 2], n, k,
                           counts[idx % 3], sg ? -1 : 1, idx % 2,
                           n + (idx % 3), n + 1, n + 3, 0, 0, 0, 0, GOOD, 0};
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
    /* the bounds of CUDA's one-warp-a-problem kernel (rows a lane 1, 2,
     * 4; rank 1, up to 4): orders 31 .. 129, ranks 1, 2, 4, 5 */
    static const int tk[][2] = {{31, 2}, {96, 4}, {128, 1}, {128, 4},
                                {129, 1}, {64, 5}};
    for (int a = 0; a < 6; ++a)
        for (int sg = 0; sg < 2; ++sg) {
            int n = tk[a][0], k = tk[a][1];
            bcase c = {qru_test_dtype(ctx, _i % 2), UPLOS[_i / 2], n, k, 6,
                       sg ? -1 : 1, (a + sg) % 2, n + 1, n + 2, n, 0, 0, 0,
                       0, GOOD, 0};
            double e = run_case(&c, &seed);
            worst = e > worst ? e : worst;
        }
    /* work-groups of 32 items (the private knob), so that each item owns
     * several rows: order 65 (the copy in local memory) and 100 (in
     * device memory); CUDA's one-warp kernel off */
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 32),
                     0);
    int team = 0;
    ck_assert_int_eq(qru_ctx_get_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_TEAM,
                                        &team),
                     0);
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_TEAM, 0),
                     0);
    for (int a = 0; a < 4; ++a) {
        int n = a < 2 ? 65 : 100, k = a % 2 ? 3 : 1;
        bcase c = {dt, UPLOS[_i / 2], n, k, 9, a == 1 ? -1 : 1, a % 2,
                   n + 1, n, n + 2, 0, 0, 0, 0, GOOD, 0};
        double e = run_case(&c, &seed);
        worst = e > worst ? e : worst;
    }
    ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_WG, 0),
                     0);
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_CHOL_BATCH_TEAM, team), 0);
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
    /* v: out of place (bit 0); rank 1 (bit 1: CUDA's structured warp
     * pass) or 2 or 3 (the rotations) */
    for (int a = 0; a < 4; ++a)
        for (int h = 0; h < 3; ++h)
            for (int v = 0; v < 4; ++v) {
                int n = ns[a], out = v % 2;
                bcase c = {qru_test_dtype(ctx, _i % 2), UPLOS[_i / 2], n,
                           v > 1 ? 1 : h == 0 ? 2 : 3, 9,
                           h == 0 ? -1 : (out ? 1 : -1),
                           out, n + 1, n + 2, n, (size_t)(n + 1) * n + 5,
                           0, 0, 3, hows[h], 0};
                run_case(&c, &seed);
            }
}
END_TEST
/* qru_chol_update_batch_ex: problems of ranks 0 .. k in turn (the
 * columns after a problem's rank NaN), around the local-memory bound and
 * the rotations' chunk of 32 columns (k = 33), in place and out of
 * place, with the planted failures; then all ranks k against the plain
 * call and all ranks 0, bit for bit.  _i as above. */
START_TEST(test_batch_rank_each)
{
    if ((_i % 2) >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    char uplo = UPLOS[_i / 2];
    unsigned seed = 301 + (unsigned)_i;
    static const int nk[][2] = {{1, 2},  {7, 3},  {8, 1},   {33, 2},
                                {33, 33}, {65, 3}, {100, 2}, {100, 33},
                                {33, 1},  {65, 1}, {100, 1}};
    double worst = 0;
    for (int a = 0; a < 11; ++a)
        for (int v = 0; v < 4; ++v) {
            int n = nk[a][0], k = nk[a][1];
            static const int hows[] = {GOOD, LOSE_PD, NAN_W, INF_L};
            bcase c = {dt, uplo, n, k, n > 64 ? 9 : 23, v % 2 ? -1 : 1,
                       (a + v) % 2, n + 1, n + 2, n, 0, 0, 0,
                       v ? 3 : 0, hows[v], 1};
            if (hows[v] == LOSE_PD)
                c.sign = -1;
            if (n < 2 && v)
                continue;
            double e = run_case(&c, &seed);
            worst = e > worst ? e : worst;
        }
    printf("batch update, a rank a problem, %c dt %d: max scaled error "
           "%.3g\n", uplo, dt, worst);
    /* all ranks k: the plain call's pages bit for bit; all ranks 0:
     * nothing written, info 0 */
    int n = 20, k = 3, cnt = 7;
    bimg L = bimg_new(dt, n, n, n + 1, cnt, 0), W = bimg_new(dt, n, k, n, cnt, 0),
         L1 = bimg_new(dt, n, n, n, cnt, 0), L2 = bimg_new(dt, n, n, n, cnt, 0);
    for (int b = 0; b < cnt; ++b) {
        double *A = qru_test_spd(n, 4, 0.2, &seed), *F = malloc(sizeof(double) * n * n);
        ck_assert_int_eq(ref_chol(n, A, F), 0);
        page_store(dt, n, F, bimg_page(&L, b), n + 1, uplo);
        qru_test_rand(dt, n, k, bimg_page(&W, b), n, &seed);
        free(A);
        free(F);
    }
    bimg_upload(&L);
    bimg_upload(&W);
    bimg_upload(&L1);
    bimg_upload(&L2);
    int rank[7], info[8], info2[8];
    for (int b = 0; b < cnt; ++b)
        rank[b] = k;
    ck_assert_int_eq(qru_chol_update_batch(ctx, uplo, L.B, W.B, 1, L1.B,
                                           info),
                     0);
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, uplo, L.B, W.B, 1, L2.B,
                                              info2, rank),
                     0);
    void *g1 = bimg_download(&L1), *g2 = bimg_download(&L2);
    ck_assert(!memcmp(g1, g2, L1.size * qru_test_elsize(dt)));
    ck_assert(!memcmp(info, info2, sizeof(int) * (size_t)cnt));
    free(g1);
    free(g2);
    for (int b = 0; b < cnt; ++b)
        rank[b] = 0;
    bimg_free(&L2);
    L2 = bimg_new(dt, n, n, n, cnt, 0);
    bimg_upload(&L2);
    info2[0] = -5;
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, uplo, L.B, W.B, -1, L2.B,
                                              info2, rank),
                     0);
    g2 = bimg_download(&L2);
    ck_assert(same_outside(&L2, L2.h, g2, uplo, NULL));
    for (int b = 0; b < cnt; ++b)
        ck_assert_int_eq(info2[b], 0);
    free(g2);
    /* a NaN past problem 0's rank: the scan of QRU_OPTION_CHECK_FINITE
     * reads every column (-4, nothing written); without it, unused */
    bimg_free(&W);
    W = bimg_new(dt, n, k, n, cnt, 0);
    for (int b = 0; b < cnt; ++b) {
        qru_test_rand(dt, n, k, bimg_page(&W, b), n, &seed);
        rank[b] = b % 2;
    }
    qru_test_set(dt, bimg_page(&W, 0), n, 2, k - 1, NAN);
    bimg_upload(&W);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    info2[0] = -5;
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, uplo, L.B, W.B, 1, L2.B,
                                              info2, rank),
                     -4);
    ck_assert_int_eq(info2[0], -5);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, uplo, L.B, W.B, 1, L2.B,
                                              info2, rank),
                     0);
    g2 = bimg_download(&L2);
    ck_assert(same_outside(&L2, L2.h, g2, uplo, rank));
    free(g2);
    bimg_free(&L2);
    bimg_free(&L1);
    bimg_free(&W);
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
    /* the ranks (argument 8) after the others */
    int rk[3] = {0, 2, 1};
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, 'L', L.B, W.B, 1, L1c,
                                              info, rk),
                     -6);
    rk[1] = 3;
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, 'L', L.B, W.B, 1, L1.B,
                                              info, rk),
                     -8);
    ck_assert_ptr_nonnull(strstr(qru_last_error(ctx), "rank[1] = 3"));
    rk[1] = -1;
    ck_assert_int_eq(qru_chol_update_batch_ex(ctx, 'L', L.B, W.B, 1, L1.B,
                                              info, rk),
                     -8);
    ck_assert_int_eq(info[0], -5);
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
    tcase_add_loop_test(tc, test_batch_rank_each, 0, 4);
    tcase_add_test(tc, test_batch_matrices);
    tcase_add_test(tc, test_batch_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
