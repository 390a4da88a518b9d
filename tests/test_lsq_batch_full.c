/* The full-Q form of the batched least squares (QRU_Q_FULL): creation,
 * rows added (all problems, and a number of its own for each) and
 * removed (all, and each its own), columns removed and inserted, in
 * chains; after every update each problem against LAPACKE on the host
 * copy of its new A: R against dgeqrf's up to the signs of the rows
 * (scaled by the condition), R'd1 = A'b, ||A - Q [R; 0]||, ||I - Q'Q||
 * of the n x n Q, d = Q'b (all n rows), E = b - Q1 d1, the solution and
 * the residual norms against dgels; both precisions, k at 0, in the
 * middle and at the end, p = 1 and more, sizes around the kernels'
 * classes (n and m up to 32, 128 and past); a refused row removal or
 * column insertion and a problem that gains or loses no row leave their
 * problems bit for bit; the argument checks of the form. */
#include "lsq_batch_pages.h"

/* 1 if problem i of a and problem j of b hold the same bits (each page
 * within its problem's rows; a and b may differ in nmax). */
static int same_problem(qru_dtype dt, const snap *a, int i, const snap *b,
                        int j)
{
    size_t es = qru_test_elsize(dt);
    int n = a->nr[i];
    if (n != b->nr[j] || a->m != b->m ||
        memcmp(a->rho + (size_t)i * a->r, b->rho + (size_t)j * b->r,
               sizeof(double) * a->r))
        return 0;
    if (memcmp((const char *)a->R + es * i * a->m * a->m,
               (const char *)b->R + es * j * b->m * b->m,
               es * a->m * a->m))
        return 0;
    const void *pa[3] = {a->d, a->Q, a->E}, *pb[3] = {b->d, b->Q, b->E};
    for (int t = 0; t < 3; ++t) {
        int cols = t == 1 ? n : a->r, ca = t == 1 ? a->nmax : a->r,
            cb = t == 1 ? b->nmax : b->r;
        for (int c = 0; c < cols; ++c)
            if (memcmp((const char *)pa[t] +
                           es * ((size_t)i * a->nmax * ca +
                                 (size_t)c * a->nmax),
                       (const char *)pb[t] +
                           es * ((size_t)j * b->nmax * cb +
                                 (size_t)c * b->nmax),
                       es * n))
                return 0;
    }
    return 1;
}

/* ---- one case: a full batch created, then a chain of updates ---------- */

enum { RMCOLS, ADDCOLS, ADDROWS, RMROWS, ADDROWS_EX, RMROWS_EX };

typedef struct step {
    int what; /* the enum above; the _EX steps: problem i takes i % (p+1)
               * rows */
    int k, p;
} step;

typedef struct ccase {
    qru_dtype dt;
    int count, n, m, r;
    int nsteps;
    step steps[5];
} ccase;

/* p random rows added to every problem (rows NULL) or rows[i] to
 * problem i, in fb and in h; the problems that gain none checked bit
 * for bit. */
static void add_rows(hbatch *h, qru_lsq_batch *fb, int p, const int *rows,
                     unsigned *seed)
{
    snap s0 = get_snap(fb, h->dt);
    rows_step(h, fb, p, rows, seed);
    snap s1 = get_snap(fb, h->dt);
    for (int i = 0; rows && i < h->count; ++i)
        if (rows[i] == 0)
            ck_assert_msg(same_problem(h->dt, &s0, i, &s1, i),
                          "problem %d gained no row but changed", i);
    free_snap(&s0);
    free_snap(&s1);
}

/* The rows k .. k+p-1 removed from every problem (rows NULL) or rows[i]
 * from problem i; the problems that lose none checked bit for bit. */
static void rm_rows(hbatch *h, qru_lsq_batch *fb, int k, int p,
                    const int *rows)
{
    int cnt = h->count;
    int *info = malloc(sizeof(int) * (cnt + 1));
    snap s0 = get_snap(fb, h->dt);
    ck_assert_int_eq(qru_lsq_batch_remove_rows_ex(fb, k, p, info, rows), 0);
    snap s1 = get_snap(fb, h->dt);
    for (int i = 0; i < cnt; ++i) {
        ck_assert_int_eq(info[i], 0);
        int pi = rows ? rows[i] : p;
        if (pi == 0)
            ck_assert_msg(same_problem(h->dt, &s0, i, &s1, i),
                          "problem %d lost no row but changed", i);
        else
            hbatch_drop_rows(h, i, k, pi);
    }
    free_snap(&s0);
    free_snap(&s1);
    free(info);
    hbatch_compact(h);
}

static void run_case(const ccase *c, unsigned *seed)
{
    hbatch h = hbatch_new(c->dt, c->count, c->n, c->m, c->r, seed);
    char tag[112];
    qru_lsq_batch *fb = make_batch(&h, QRU_Q_FULL);
    snprintf(tag, sizeof(tag), "%s creation of count %d n %d m %d",
             c->dt == QRU_DOUBLE ? "double" : "float", c->count, c->n, c->m);
    check_batch(&h, fb, tag);
    int *rows = malloc(sizeof(int) * (c->count + 1));
    for (int s = 0; s < c->nsteps; ++s) {
        const step *t = &c->steps[s];
        static const char *const what[6] = {
            "remove cols", "add cols", "add rows", "remove rows",
            "add rows (each its own)", "remove rows (each its own)"};
        snprintf(tag, sizeof(tag), "%s %s (k %d p %d) of count %d m %d",
                 c->dt == QRU_DOUBLE ? "double" : "float", what[t->what],
                 t->k, t->p, c->count, h.m);
        for (int i = 0; i < c->count; ++i)
            rows[i] = i % (t->p + 1);
        if (t->what == ADDROWS || t->what == ADDROWS_EX) {
            add_rows(&h, fb, t->p, t->what == ADDROWS_EX ? rows : NULL,
                     seed);
        } else if (t->what == RMROWS || t->what == RMROWS_EX) {
            rm_rows(&h, fb, t->k, t->p, t->what == RMROWS_EX ? rows : NULL);
        } else {
            cols_step(&h, fb, t->what == ADDCOLS, t->k, t->p, seed);
        }
        check_batch(&h, fb, tag);
    }
    free(rows);
    qru_lsq_batch_destroy(fb);
    hbatch_free(&h);
}

/* Each update from a fresh batch: k at 0, in the middle and at the
 * end, p = 1 and more; n and m around the kernels' size classes (up to
 * 32, up to 128, past it). */
START_TEST(test_full_grid)
{
    unsigned seed = 4242u + (unsigned)_i;
    static const int NS[4] = {20, 33, 100, 140};
    static const int MS[4] = {5, 12, 30, 40};
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int n = NS[_i], m = MS[_i];
        int ps[2] = {1, 3};
        for (int a = 0; a < 2; ++a) {
            int p = ps[a];
            int ks[3] = {0, (m - p) / 2, m - p};
            for (int kk = 0; kk < 3; ++kk) {
                int k = ks[kk], r = 1 + (a + kk) % 2, cnt = 2 + kk;
                int kr = kk == 0 ? 0 : kk == 1 ? (n - p) / 2 : n - p;
                ccase cs = {dt, cnt, n, m, r, 5,
                            {{RMCOLS, k, p}, {ADDCOLS, k, p},
                             {ADDROWS, 0, p}, {RMROWS, kr, p},
                             {ADDCOLS, m - p, p}}};
                run_case(&cs, &seed);
            }
        }
    }
}
END_TEST

/* Chains with the per-problem row counts (rows added and removed at
 * each problem's own rate), larger counts, n = m, one column. */
START_TEST(test_full_cases)
{
    unsigned seed = 77u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        ccase cs[] = {
            {dt, 4, 20, 5, 2, 5,
             {{ADDROWS_EX, 0, 3}, {RMCOLS, 1, 2}, {RMROWS_EX, 2, 3},
              {ADDCOLS, 0, 4}, {RMROWS, 0, 2}}},
            {dt, 60, 24, 8, 1, 3,
             {{ADDROWS_EX, 0, 2}, {ADDCOLS, 4, 3}, {RMROWS_EX, 5, 2}}},
            {dt, 3, 6, 6, 2, 3,
             {{ADDROWS, 0, 2}, {RMROWS, 0, 2}, {ADDROWS_EX, 0, 1}}},
            {dt, 3, 9, 1, 1, 3,
             {{ADDCOLS, 0, 1}, {RMCOLS, 1, 1}, {RMROWS, 3, 4}}},
            {dt, 2, 40, 35, 3, 2, {{RMCOLS, 3, 30}, {ADDCOLS, 2, 33}}},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k)
            run_case(&cs[k], &seed);
    }
}
END_TEST

/* A refused row removal (problem 1's column 0 lives in the removed rows
 * alone) and a refused column insertion (a new column in the span, or
 * non-finite): the refusing problems (every problem, for the columns)
 * bit for bit, the others updated. */
START_TEST(test_full_refused)
{
    unsigned seed = 9u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int cnt = 4, n = 30, m = 6, r = 2, p = 3;
        hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
        for (int u = 2; u < n; ++u)
            hA(&h, 1)[u] = 0.0;
        qru_lsq_batch *fb = make_batch(&h, QRU_Q_FULL);
        snap s0 = get_snap(fb, dt);
        int info[4];
        ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 0, 2, info), 1);
        for (int i = 0; i < cnt; ++i) {
            ck_assert_int_eq(info[i] > 0, i == 1);
            if (i != 1)
                hbatch_drop_rows(&h, i, 0, 2);
        }
        hbatch_compact(&h);
        snap s1 = get_snap(fb, dt);
        ck_assert(same_problem(dt, &s0, 1, &s1, 1));
        check_batch(&h, fb, "after a refused removal");
        /* problem 3: V(:,0) = A(:,0) + 2 A(:,1); then a NaN */
        double *V = new_v(&h, p, 3, &seed);
        ck_assert_int_eq(add_v(&h, fb, 2, p, V, info), 1);
        ck_assert(info[3] > 0);
        snap s2 = get_snap(fb, dt);
        ck_assert(same_snap(&s1, &s2));
        free(V);
        V = new_v(&h, p, 1 << 30, &seed);
        V[(size_t)2 * p * h.nmax + 4] = NAN;
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), 1);
        ck_assert(info[2] > 0);
        snap s3 = get_snap(fb, dt);
        ck_assert(same_snap(&s1, &s3));
        V[(size_t)2 * p * h.nmax + 4] = 0.5;
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), 0);
        hbatch_cols(&h, 0, p, V);
        check_batch(&h, fb, "after the refusals");
        free(V);
        free_snap(&s0);
        free_snap(&s1);
        free_snap(&s2);
        free_snap(&s3);
        qru_lsq_batch_destroy(fb);
        hbatch_free(&h);
    }
}
END_TEST

/* The form's argument checks, in order: creation (n < m, a bad form),
 * the pages of get_q and get_d (n x n, n x r), the updates' checks the
 * batch's (bit for bit after each); an empty full batch. */
START_TEST(test_full_args)
{
    unsigned seed = 5u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int cnt = 3, n = 9, m = 4, r = 2;
    hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
    qru_lsq_batch *fb = make_batch(&h, QRU_Q_FULL), *fx = NULL;
    ck_assert_int_eq(qru_lsq_batch_q_form(fb), QRU_Q_FULL);
    qru_matrix *Af, *bf;
    qru_matrix *A = upload_pages(dt, m - 1, m, cnt, h.A, &Af);
    qru_matrix *b = upload_pages(dt, m - 1, r, cnt, h.b, &bf);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_FULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, b, &opt, &fx), -4);
    ck_assert_ptr_null(fx);
    opt.q = 7;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, b, &opt, &fx), -4);
    opt.q = QRU_Q_FULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, b, &opt, NULL), -4);
    snap s0 = get_snap(fb, dt);
    /* get_q: n x n pages; get_d: n x r pages */
    qru_matrix *Qs = NULL, *ds = NULL, *Qc = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, cnt, 0, &Qs),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, m, r, 0, cnt, 0, &ds),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n, 0, cnt + 1, 0,
                                             &Qc), 0);
    ck_assert_int_eq(qru_lsq_batch_get_q(NULL, Qs), -1);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, NULL), -2);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, Qs), -2);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, Qc), -2);
    ck_assert_int_eq(qru_lsq_batch_get_d(fb, ds), -2);
    /* the updates' checks */
    int info[3];
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, n, 1, info), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_rows(fb, 0, n - m + 1, info), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 0, m), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, m + 1, NULL, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_rows(fb, NULL, NULL), -2);
    snap s1 = get_snap(fb, dt);
    ck_assert(same_snap(&s0, &s1));
    /* an empty full batch */
    qru_matrix *A0 = NULL, *b0 = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, 0, 0, &A0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r, 0, 0, 0, &b0), 0);
    qru_lsq_batch *fe = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A0, b0, &opt, &fe), 0);
    ck_assert_int_eq(qru_lsq_batch_q_form(fe), QRU_Q_FULL);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fe, 0, 1), 0);
    free_snap(&s0);
    free_snap(&s1);
    qru_matrix *ms[] = {A, Af, b, bf, Qs, ds, Qc, A0, b0};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(fe);
    hbatch_free(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch_full");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_full_grid, 0, 4);
    tcase_add_test(tc, test_full_cases);
    tcase_add_test(tc, test_full_refused);
    tcase_add_test(tc, test_full_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
