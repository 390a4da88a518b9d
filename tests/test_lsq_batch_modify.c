/* The rank-k modification of the batched least squares
 * (qru_lsq_batch_modify, _ex: A_i + U_i V_i') in the thin and full forms:
 * after every modification each problem against LAPACKE on the host copy
 * of its new A (R against dgeqrf's up to the signs of the rows, scaled
 * by the condition; R'd1 = A'b; ||A - Q1 R||, ||I - Q'Q|| (the full
 * form's n x n Q), d = Q'b, E = b - Q1 d1; the solution and the residual
 * norms against dgels), in both precisions; k = 1 and more, up to n - m;
 * sizes around the kernels' classes; chains with rows added and removed
 * (problems of different row counts); a mask (the problems left out bit
 * for bit); a problem whose A + U V' is rank-deficient refuses, bit for
 * bit, the others modified; every argument check in order. */
#include "lsq_batch_pages.h"

/* Random U (count pages nmax x k) and V (count pages m x k) for h. */
static void new_uv(const hbatch *h, int k, unsigned *seed, double **U,
                   double **V)
{
    size_t nu = (size_t)h->count * h->nmax * k;
    size_t nv = (size_t)h->count * h->m * k;
    *U = malloc(sizeof(double) * (nu + 1));
    *V = malloc(sizeof(double) * (nv + 1));
    for (size_t e = 0; e < nu; ++e)
        (*U)[e] = hval(h->dt, seed);
    for (size_t e = 0; e < nv; ++e)
        (*V)[e] = hval(h->dt, seed);
}

/* A_i += U_i V_i' on the host for the problems of the mask (NULL: all;
 * refused: none of those with info[i] > 0). */
static void hbatch_modify(hbatch *h, int k, const double *U, const double *V,
                          const int *mask, const int *info)
{
    for (int i = 0; i < h->count; ++i) {
        if ((mask && !mask[i]) || (info && info[i] > 0))
            continue;
        const double *Ui = U + (size_t)i * h->nmax * k;
        const double *Vi = V + (size_t)i * h->m * k;
        for (int j = 0; j < h->m; ++j)
            for (int t = 0; t < h->n[i]; ++t) {
                double s = 0;
                for (int c = 0; c < k; ++c)
                    s += Ui[t + (size_t)c * h->nmax] *
                         Vi[j + (size_t)c * h->m];
                hA(h, i)[t + (size_t)j * h->nmax] += s;
            }
    }
}

/* qru_lsq_batch_modify_ex of the host U and V: its status and info. */
static int modify(const hbatch *h, qru_lsq_batch *fb, int k, const double *U,
                  const double *V, int *info, const int *mask)
{
    qru_matrix *Uf, *Vf;
    qru_matrix *Ub = upload_pages(h->dt, h->nmax, k, h->count, U, &Uf);
    qru_matrix *Vb = upload_pages(h->dt, h->m, k, h->count, V, &Vf);
    int st = qru_lsq_batch_modify_ex(fb, Ub, Vb, info, mask);
    qru_matrix *ms[] = {Ub, Uf, Vb, Vf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    return st;
}

/* 1 if problem i holds the same bits in a and b (same shapes). */
static int same_page(qru_dtype dt, const snap *a, const snap *b, int i)
{
    size_t es = qru_test_elsize(dt);
    size_t sz[4] = {(size_t)a->m * a->m, (size_t)a->dr * a->r,
                    (size_t)a->nmax * a->qc, (size_t)a->nmax * a->r};
    const void *pa[4] = {a->R, a->d, a->Q, a->E}, *pb[4] = {b->R, b->d, b->Q,
                                                            b->E};
    for (int t = 0; t < 4; ++t)
        if (pa[t] && memcmp((const char *)pa[t] + es * i * sz[t],
                            (const char *)pb[t] + es * i * sz[t],
                            es * sz[t]))
            return 0;
    return a->nr[i] == b->nr[i] &&
           !memcmp(a->rho + (size_t)i * a->r, b->rho + (size_t)i * b->r,
                   sizeof(double) * a->r);
}

/* One modification of every problem (or of the mask's), checked. */
static void step_modify(hbatch *h, qru_lsq_batch *fb, int k, const int *mask,
                        unsigned *seed, const char *tag)
{
    double *U, *V;
    new_uv(h, k, seed, &U, &V);
    int *info = malloc(sizeof(int) * (h->count + 1));
    for (int i = 0; i < h->count; ++i)
        info[i] = -7;
    snap s0 = get_snap(fb, h->dt);
    ck_assert_int_eq(modify(h, fb, k, U, V, info, mask), 0);
    snap s1 = get_snap(fb, h->dt);
    for (int i = 0; i < h->count; ++i) {
        ck_assert_int_eq(info[i], 0);
        if (mask && !mask[i])
            ck_assert_msg(same_page(h->dt, &s0, &s1, i),
                          "%s: problem %d out of the mask changed", tag, i);
    }
    free_snap(&s0);
    free_snap(&s1);
    hbatch_modify(h, k, U, V, mask, NULL);
    check_batch(h, fb, tag);
    free(U);
    free(V);
    free(info);
}

/* k = 1 and more (up to n - m), both forms, sizes around the kernels'
 * classes; a chain: modified, rows added, modified, rows removed from
 * some problems (their row counts then differ), modified under a mask. */
START_TEST(test_modify_grid)
{
    unsigned seed = 6060u + (unsigned)_i;
    static const int NS[4] = {20, 33, 100, 140};
    static const int MS[4] = {5, 12, 30, 40};
    static const int KS[4] = {1, 3, 8, 2};
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        for (int f = 0; f < 2; ++f) {
            int q = f ? QRU_Q_FULL : QRU_Q_THIN, n = NS[_i], m = MS[_i];
            int k = KS[_i], cnt = 3, r = 1 + f;
            char tag[96];
            snprintf(tag, sizeof(tag), "%s %s n %d m %d k %d",
                     dt == QRU_DOUBLE ? "double" : "float",
                     f ? "full" : "thin", n, m, k);
            hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
            qru_lsq_batch *fb = make_batch(&h, q);
            step_modify(&h, fb, k, NULL, &seed, tag);
            rows_step(&h, fb, 2, NULL, &seed);
            step_modify(&h, fb, n + 2 - m, NULL, &seed, tag); /* k = n - m */
            int rows[3] = {2, 0, 1}, info[3];
            ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, 1, 2, info,
                                                          rows), 0);
            for (int i = 0; i < cnt; ++i)
                if (rows[i])
                    hbatch_drop_rows(&h, i, 1, rows[i]);
            hbatch_compact(&h);
            int mask[3] = {1, 0, 1};
            step_modify(&h, fb, k, mask, &seed, tag);
            step_modify(&h, fb, 1, NULL, &seed, tag);
            qru_lsq_batch_destroy(fb);
            hbatch_free(&h);
        }
    }
}
END_TEST

/* A problem whose A + U V' loses column 0 (U(:,0) = -A(:,0), V(:,0) =
 * e_0) refuses: info names it, it stays bit for bit, the others are
 * modified; a larger count. */
START_TEST(test_modify_refused)
{
    unsigned seed = 17u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        for (int f = 0; f < 2; ++f) {
            int cnt = 40, n = 24, m = 6, r = 2, k = 2;
            hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
            qru_lsq_batch *fb =
                make_batch(&h, f ? QRU_Q_FULL : QRU_Q_THIN);
            double *U, *V;
            new_uv(&h, k, &seed, &U, &V);
            for (int u = 0; u < n; ++u)
                U[(size_t)5 * n * k + u] = -hA(&h, 5)[u];
            for (int j = 0; j < m; ++j)
                V[(size_t)5 * m * k + j] = j == 0;
            for (int u = 0; u < n; ++u) /* U(:,1) = 0 */
                U[(size_t)5 * n * k + n + u] = 0.0;
            int *info = malloc(sizeof(int) * cnt);
            snap s0 = get_snap(fb, dt);
            int st = modify(&h, fb, k, U, V, info, NULL);
            snap s1 = get_snap(fb, dt);
            ck_assert_int_eq(st, 1);
            for (int i = 0; i < cnt; ++i)
                ck_assert_int_eq(info[i] > 0, i == 5);
            ck_assert_int_eq(info[5], 1);
            ck_assert(same_page(dt, &s0, &s1, 5));
            hbatch_modify(&h, k, U, V, NULL, info);
            check_batch(&h, fb, f ? "full, after a refusal"
                                  : "thin, after a refusal");
            free_snap(&s0);
            free_snap(&s1);
            free(U);
            free(V);
            free(info);
            qru_lsq_batch_destroy(fb);
            hbatch_free(&h);
        }
    }
}
END_TEST

/* The backend calls of a modification do not grow with the count: 8 and
 * 64 problems of one row count take as many (each step one batched call
 * for the run), in both forms; the 64 checked against LAPACKE after two
 * modifications. */
START_TEST(test_modify_calls)
{
    unsigned seed = 919u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        for (int f = 0; f < 2; ++f) {
            long long calls[2] = {0, 0};
            for (int c = 0; c < 2; ++c) {
                int cnt = c ? 64 : 8, n = 18, m = 5, r = 2, k = 2;
                hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
                qru_lsq_batch *fb =
                    make_batch(&h, f ? QRU_Q_FULL : QRU_Q_THIN);
                double *U, *V;
                new_uv(&h, k, &seed, &U, &V);
                qru_matrix *Uf, *Vf;
                qru_matrix *Ub = upload_pages(dt, h.nmax, k, cnt, U, &Uf);
                qru_matrix *Vb = upload_pages(dt, m, k, cnt, V, &Vf);
                int *info = malloc(sizeof(int) * cnt);
                /* twice, the second counted: the first may grow the
                 * context's workspace (a wait and a free) */
                for (int rep = 0; rep < 2; ++rep) {
                    qru_context_stats s0, s1;
                    ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
                    ck_assert_int_eq(qru_lsq_batch_modify(fb, Ub, Vb, info),
                                     0);
                    ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
                    calls[c] = s1.calls - s0.calls;
                    for (int i = 0; i < cnt; ++i)
                        ck_assert_int_eq(info[i], 0);
                    hbatch_modify(&h, k, U, V, NULL, NULL);
                }
                char tag[64];
                snprintf(tag, sizeof tag, "%s count %d",
                         f ? "full" : "thin", cnt);
                if (c)
                    check_batch(&h, fb, tag);
                qru_matrix *ms[] = {Ub, Uf, Vb, Vf};
                for (int q = 0; q < 4; ++q)
                    qru_matrix_destroy(ms[q]);
                free(U);
                free(V);
                free(info);
                qru_lsq_batch_destroy(fb);
                hbatch_free(&h);
            }
            ck_assert_msg(calls[1] == calls[0] && calls[0] > 0,
                          "%s: %lld backend calls for 64 problems, %lld for "
                          "8: the count must not change them",
                          f ? "full" : "thin", calls[1], calls[0]);
        }
    }
}
END_TEST

/* Every argument check in order, the batch bit for bit after each; the
 * Q-less form's QRU_ERR_NO_Q after the checks; an empty mask; an empty
 * batch. */
START_TEST(test_modify_args)
{
    unsigned seed = 3u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    int cnt = 3, n = 9, m = 4, r = 2, k = 2;
    hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
    qru_lsq_batch *fb = make_batch(&h, QRU_Q_THIN);
    qru_lsq_batch *fq = make_batch(&h, QRU_Q_NONE);
    qru_matrix *U = NULL, *V = NULL, *Uc = NULL, *Ur = NULL, *Uk = NULL,
               *U0 = NULL, *Vr = NULL, *Vk = NULL, *Uo = NULL;
    qru_matrix **mk[] = {&U, &V, &Uc, &Ur, &Uk, &U0, &Vr, &Vk};
    const int dims[8][3] = {{n, k, cnt},     {m, k, cnt}, {n, k, cnt + 1},
                            {n - 1, k, cnt}, {n, n - m + 1, cnt},
                            {n, 0, cnt},     {m + 1, k, cnt}, {m, k + 1, cnt}};
    for (int t = 0; t < 8; ++t)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, dims[t][0],
                                                 dims[t][1], 0, dims[t][2],
                                                 0, mk[t]),
                         0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, k, 0, cnt, 0,
                                                 &Uo), 0);
    double *Uh, *Vh;
    new_uv(&h, k, &seed, &Uh, &Vh);
    ck_assert_int_eq(qru_matrix_upload(U, Uh, n), 0);
    ck_assert_int_eq(qru_matrix_upload(V, Vh, m), 0);
    snap s0 = get_snap(fb, dt);
    int info[3] = {-5, -5, -5}, bad[3] = {1, 2, 0}, none[3] = {0, 0, 0};
    ck_assert_int_eq(qru_lsq_batch_modify(NULL, U, V, info), -1);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, NULL, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, Uc, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, Ur, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, Uk, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, U0, V, info), -2);
    if (Uo)
        ck_assert_int_eq(qru_lsq_batch_modify(fb, Uo, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, U, NULL, info), -3);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, U, Vr, info), -3);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, U, Vk, info), -3);
    ck_assert_int_eq(qru_lsq_batch_modify_ex(fb, U, V, info, bad), -5);
    ck_assert_int_eq(qru_lsq_batch_modify(fq, Uk, V, info), -2);
    ck_assert_int_eq(qru_lsq_batch_modify(fq, U, V, info), QRU_ERR_NO_Q);
    ck_assert_int_eq(info[0], -5);
    /* a non-finite U with the scan */
    Uh[3] = NAN;
    ck_assert_int_eq(qru_matrix_upload(U, Uh, n), 0);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                     0);
    ck_assert_int_eq(qru_lsq_batch_modify(fb, U, V, info), -2);
    ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                     0);
    ck_assert_int_eq(qru_lsq_batch_modify_ex(fb, U, V, info, none), 0);
    ck_assert_int_eq(info[1], 0);
    snap s1 = get_snap(fb, dt);
    ck_assert(same_snap(&s0, &s1));
    /* an empty batch */
    qru_matrix *A0 = NULL, *b0 = NULL, *U00 = NULL, *V00 = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, 0, 0, &A0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r, 0, 0, 0, &b0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, k, 0, 0, 0, &U00), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, k, 0, 0, 0, &V00), 0);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_FULL;
    qru_lsq_batch *fe = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A0, b0, &opt, &fe), 0);
    ck_assert_int_eq(qru_lsq_batch_modify(fe, U00, V00, NULL), 0);
    free_snap(&s0);
    free_snap(&s1);
    free(Uh);
    free(Vh);
    qru_matrix *ms[] = {U, V, Uc, Ur, Uk, U0, Vr, Vk, Uo, A0, b0, U00, V00};
    for (size_t t = 0; t < sizeof(ms) / sizeof(ms[0]); ++t)
        qru_matrix_destroy(ms[t]);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(fq);
    qru_lsq_batch_destroy(fe);
    hbatch_free(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch_modify");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_modify_grid, 0, 4);
    tcase_add_test(tc, test_modify_refused);
    tcase_add_test(tc, test_modify_calls);
    tcase_add_test(tc, test_modify_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
