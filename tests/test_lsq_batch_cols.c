/* Column updates of the batched least squares (qru_lsq_batch_remove_cols
 * in both forms, qru_lsq_batch_add_cols in the thin form,
 * qru_lsq_batch_add_cols_data in both forms): after every
 * update each problem against LAPACKE on the host copy of its new A (its
 * R against dgeqrf's up to the signs of the rows, scaled by the
 * condition; ||A1 - Q1 R1||, ||I - Q1'Q1||; R1'd1 = A1'b; E1 = b - Q1 d1;
 * the solution and the residual norms against dgels), in both precisions;
 * k at 0, in the middle and at the end, p = 1 and more, work-groups of
 * rows and of columns across their sizes, chains of removals and
 * insertions, problems of different row counts (a refused row removal,
 * rows added to some problems only); a refused insertion (a new column
 * in the span, non-finite V or A) leaves the batch bit for bit; the thin
 * form's insertion with the data the same bit for bit as without; every
 * argument check. */
#include "lsq_batch_pages.h"

/* ---- one case: a batch created, then a chain of column updates -------- */

typedef struct step {
    int add; /* 1: insert p columns after k; 0: remove k+1 .. k+p; 2: add
              * p rows (qru_lsq_batch_add_rows); 3: add to problem i
              * i % (p + 1) rows, to problem 0 p (qru_lsq_batch_add_rows_ex) */
    int k, p;
} step;

typedef struct ccase {
    qru_dtype dt;
    int thin, count, n, m, r;
    int rmrows; /* thin: > 0: that many rows removed first (problem 1
                 * refuses: its row counts then differ) */
    int nsteps;
    step steps[4];
} ccase;

static void run_case(const ccase *c, unsigned *seed)
{
    hbatch h = hbatch_new(c->dt, c->count, c->n, c->m, c->r, seed);
    char tag[96];
    if (c->rmrows > 0 && c->count > 1) /* problem 1: column 0 lives in the
                                        * removed rows alone */
        for (int t = c->rmrows; t < c->n; ++t)
            hA(&h, 1)[t] = 0.0;
    qru_lsq_batch *fb = make_batch(&h, c->thin ? QRU_Q_THIN : QRU_Q_NONE);
    if (c->rmrows > 0) {
        int *info = malloc(sizeof(int) * (c->count + 1));
        int st = qru_lsq_batch_remove_rows(fb, 0, c->rmrows, info);
        ck_assert_int_eq(st, c->count > 1 ? 1 : 0);
        for (int i = 0; i < c->count; ++i) {
            ck_assert_int_eq(info[i] != 0, i == 1);
            if (i != 1)
                hbatch_drop_rows(&h, i, 0, c->rmrows);
        }
        free(info);
    }
    for (int s = 0; s < c->nsteps; ++s) {
        const step *t = &c->steps[s];
        static const char *const what[4] = {"remove", "add", "add rows",
                                            "add some rows"};
        snprintf(tag, sizeof(tag), "%s %s %s (k %d p %d) of count %d m %d",
                 c->dt == QRU_DOUBLE ? "double" : "float",
                 c->thin ? "thin" : "Q-less", what[t->add], t->k, t->p,
                 c->count, h.m);
        if (t->add >= 2) {
            int *rows = malloc(sizeof(int) * (c->count + 1));
            for (int i = 0; i < c->count; ++i)
                rows[i] = i ? i % (t->p + 1) : t->p;
            rows_step(&h, fb, t->p, t->add == 3 ? rows : NULL, seed);
            free(rows);
        } else {
            cols_step(&h, fb, t->add, t->k, t->p, seed);
        }
        check_batch(&h, fb, tag);
    }
    qru_lsq_batch_destroy(fb);
    hbatch_free(&h);
}

/* Removals and insertions in both forms: k at 0, in
 * the middle and at the end, p = 1 and more; rows around the
 * work-groups (32 .. 256 items), [R d] columns past 32 and 64. */
START_TEST(test_cols_grid)
{
    unsigned seed = 2024u + (unsigned)_i;
    static const int NS[4] = {31, 33, 70, 257};
    static const int MS[4] = {5, 12, 30, 40};
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int n = NS[_i], m = MS[_i];
        int ps[3] = {1, 3, m / 2};
        for (int a = 0; a < 3; ++a) {
            int p = ps[a];
            int ks[3] = {0, (m - p) / 2, m - p};
            for (int kk = 0; kk < 3; ++kk) {
                int k = ks[kk], r = 1 + (a + kk) % 2;
                /* a removal, then an insertion of the same width there */
                ccase rm = {dt, 0, 3, n, m, r, 0, 1, {{0, k, p}}};
                run_case(&rm, &seed);
                /* thin, then Q-less (from A and b) */
                for (int thin = 1; m + p <= n && thin >= 0; --thin) {
                    ccase th = {dt, thin, 3, n, m, r, 0, 2,
                                {{0, k, p}, {1, k, p}}};
                    run_case(&th, &seed);
                    ccase ad = {dt, thin, 2, n, m, r, 0, 1,
                                {{1, m - k, p}}};
                    run_case(&ad, &seed);
                }
            }
        }
    }
}
END_TEST

/* Chains (the pages' layout kept by a removal, compacted by an
 * insertion; rows added in between), larger counts, problems of
 * different row counts, the insertion that fills A, one column. */
START_TEST(test_cols_cases)
{
    unsigned seed = 31u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        ccase cs[] = {
            {dt, 1, 4, 20, 5, 2, 0, 4,
             {{0, 1, 2}, {1, 0, 4}, {0, 6, 1}, {1, 6, 2}}},
            {dt, 0, 5, 20, 6, 2, 0, 3, {{0, 0, 1}, {0, 2, 2}, {0, 0, 2}}},
            {dt, 1, 200, 24, 8, 1, 0, 2, {{1, 4, 3}, {0, 2, 5}}},
            {dt, 0, 300, 15, 9, 2, 0, 1, {{0, 3, 4}}},
            {dt, 1, 5, 40, 10, 2, 4, 3, {{1, 3, 2}, {0, 0, 3}, {1, 9, 20}}},
            {dt, 1, 3, 12, 4, 1, 0, 1, {{1, 2, 8}}},
            {dt, 1, 3, 9, 1, 1, 0, 2, {{1, 0, 1}, {0, 1, 1}}},
            {dt, 0, 3, 9, 2, 1, 0, 1, {{0, 1, 1}}},
            {dt, 1, 2, 300, 70, 3, 0, 2, {{0, 10, 30}, {1, 35, 9}}},
            /* rows added to pages whose layout a removal kept */
            {dt, 0, 4, 12, 7, 2, 0, 3, {{0, 2, 3}, {2, 0, 3}, {0, 0, 1}}},
            {dt, 1, 4, 12, 7, 2, 3, 3, {{0, 2, 3}, {2, 0, 3}, {1, 4, 2}}},
            /* Q-less insertions (from A and b): chains, problems of
             * different row counts, larger counts, A filled, one column */
            {dt, 0, 4, 20, 5, 2, 0, 4,
             {{1, 0, 4}, {0, 6, 1}, {3, 0, 3}, {1, 6, 2}}},
            {dt, 0, 5, 16, 6, 2, 0, 3, {{3, 0, 4}, {1, 3, 5}, {1, 11, 1}}},
            {dt, 0, 200, 24, 8, 1, 0, 2, {{1, 4, 3}, {0, 2, 5}}},
            {dt, 0, 3, 12, 4, 1, 0, 1, {{1, 2, 8}}},
            {dt, 0, 3, 9, 1, 1, 0, 2, {{1, 0, 1}, {0, 1, 1}}},
            {dt, 0, 2, 300, 70, 3, 0, 2, {{0, 10, 30}, {1, 35, 9}}},
        };
        for (size_t k = 0; k < sizeof(cs) / sizeof(cs[0]); ++k)
            run_case(&cs[k], &seed);
        /* the thin form given the data too (it reads only their sizes) */
        add_v_data = 1;
        ccase td = {dt, 1, 4, 12, 7, 2, 3, 3,
                    {{0, 2, 3}, {2, 0, 3}, {1, 4, 2}}};
        run_case(&td, &seed);
        add_v_data = 0;
    }
}
END_TEST

/* Two new columns of the thin form nearly parallel (u and u + e v, e
 * 1e-6 in double, 1e-4 in float: R22 of condition about 1 / e, still
 * above the rank rule), at the front, in the middle and at the end: Q1
 * stays orthogonal (the new columns projected against Q1 once more;
 * without it ||I - Q1'Q1|| reached 1e4 n eps). */
START_TEST(test_cols_parallel)
{
    unsigned seed = 21u;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        double e = dt == QRU_DOUBLE ? 1e-6 : 1e-4;
        for (int kc = 0; kc < 3; ++kc) {
            hbatch h = hbatch_new(dt, 5, 60, 8, 1, &seed);
            qru_lsq_batch *fb = make_batch(&h, QRU_Q_THIN);
            int k = kc == 0 ? 0 : kc == 1 ? 4 : 8, p = 2;
            double *V = new_v(&h, p, 1 << 30, &seed);
            for (int i = 0; i < h.count; ++i) {
                double *v = V + (size_t)i * p * h.nmax;
                for (int r = 0; r < h.nmax; ++r)
                    v[r + h.nmax] = v[r] + e * hval(dt, &seed);
            }
            int info[5];
            ck_assert_int_eq(add_v(&h, fb, k, p, V, info), 0);
            hbatch_cols(&h, k, p, V);
            char tag[64];
            snprintf(tag, sizeof tag, "%s nearly parallel columns at k %d",
                     dt == QRU_DOUBLE ? "double" : "float", k);
            check_batch(&h, fb, tag);
            free(V);
            qru_lsq_batch_destroy(fb);
            hbatch_free(&h);
        }
    }
}
END_TEST

/* A refused insertion: a new column in the span of a problem's A, or a
 * non-finite one (with the scan: -3 first), in the thin and the Q-less
 * form (and there a non-finite A: with the scan -4): the status counts
 * the refusing problems, info names them, and no problem changes. */
START_TEST(test_cols_refused)
{
    unsigned seed = 8u + (unsigned)_i;
    int form = _i ? QRU_Q_NONE : QRU_Q_THIN;
    for (int t = 0; t < qru_test_ndtypes(ctx); ++t) {
        qru_dtype dt = qru_test_dtype(ctx, t);
        int cnt = 5, n = 40, m = 6, r = 2, p = 3;
        hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
        qru_lsq_batch *fb = make_batch(&h, form);
        ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 1, 1), 0);
        hbatch_cols(&h, 1, 1, NULL);
        snap s0 = get_snap(fb, dt);
        int info[5];
        /* problem 3: V(:,0) = A(:,0) + 2 A(:,1) */
        double *V = new_v(&h, p, 3, &seed);
        for (int i = 0; i < cnt; ++i)
            info[i] = -7;
        ck_assert_int_eq(add_v(&h, fb, 2, p, V, info), 1);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 3);
        ck_assert_int_eq(info[3], 3); /* the new column 3 */
        snap s1 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s1));
        /* a zero column in problem 0 and a NaN in problem 4 */
        for (int u = 0; u < n; ++u) {
            V[u] = V[(size_t)3 * p * n + u] = 0.5;
            V[u + (size_t)n] = 0.0;
        }
        V[(size_t)4 * p * n + 2 * n + 5] = NAN;
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), -3);
        ck_assert_int_eq(info[0], 0);
        ck_assert_int_eq(
            qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
        ck_assert_int_eq(add_v(&h, fb, 0, p, V, info), 2);
        for (int i = 0; i < cnt; ++i)
            ck_assert_int_eq(info[i] > 0, i == 0 || i == 4);
        ck_assert_int_eq(info[0], 2);
        snap s2 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s2));
        /* an infinite entry alone */
        V[(size_t)4 * p * n + 2 * n + 5] = INFINITY;
        V[(size_t)n] = 1.0;
        ck_assert_int_eq(add_v(&h, fb, h.m - 1, p, V, info), 1);
        ck_assert(info[4] > 0);
        snap s3 = get_snap(fb, dt);
        ck_assert(same_snap(&s0, &s3));
        V[(size_t)4 * p * n + 2 * n + 5] = 0.25;
        if (form == QRU_Q_NONE) { /* a NaN in problem 2's A */
            double a0 = hA(&h, 2)[7];
            hA(&h, 2)[7] = NAN;
            ck_assert_int_eq(
                qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1), 0);
            ck_assert_int_eq(add_v(&h, fb, 1, p, V, info), -4);
            ck_assert_int_eq(
                qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0), 0);
            ck_assert_int_eq(add_v(&h, fb, 1, p, V, info), 1);
            for (int i = 0; i < cnt; ++i)
                ck_assert_int_eq(info[i] > 0, i == 2);
            hA(&h, 2)[7] = a0;
            snap s4 = get_snap(fb, dt);
            ck_assert(same_snap(&s0, &s4));
            free_snap(&s4);
        }
        /* then the good columns go in */
        ck_assert_int_eq(add_v(&h, fb, h.m - 1, p, V, info), 0);
        hbatch_cols(&h, h.m - 1, p, V);
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

/* Every argument check, in order, the batch bit for bit after each; the
 * Q-less form's refusal of an insertion after the checks; an empty
 * batch. */
START_TEST(test_cols_args)
{
    unsigned seed = 5u;
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
    int cnt = 3, n = 9, m = 4, r = 2;
    hbatch h = hbatch_new(dt, cnt, n, m, r, &seed);
    qru_lsq_batch *fb = make_batch(&h, QRU_Q_THIN),
                  *fq = make_batch(&h, QRU_Q_NONE);
    qru_matrix *Vc = NULL, *Vr = NULL, *Vw = NULL, *Vo = NULL, *V0 = NULL,
               *Vk = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, cnt + 1, 0,
                                             &Vc), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n - 1, 2, 0, cnt, 0,
                                             &Vr), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, n - m + 1, 0, cnt,
                                             0, &Vw), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 0, 0, cnt, 0, &V0),
                     0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, cnt, 0, &Vk),
                     0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, 2, 0, cnt, 0,
                                                 &Vo), 0);
    snap s0 = get_snap(fb, dt), q0 = get_snap(fq, dt);
    /* remove_cols */
    ck_assert_int_eq(qru_lsq_batch_remove_cols(NULL, 0, 1), -1);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, -1, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, m, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 0, 0), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 2, 3), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, 0, m), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, m, 1), -2);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, 0, m), -3);
    /* add_cols */
    int info[3] = {-5, -5, -5};
    ck_assert_int_eq(qru_lsq_batch_add_cols(NULL, 0, Vk, info), -1);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, -1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, m + 1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, NULL, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vc, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vr, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vw, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, V0, info), -3);
    if (Vo)
        ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 0, Vo, info), -3);
    /* the Q-less form: the checks first, then QRU_ERR_NO_Q */
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, m + 1, Vk, info), -2);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, 0, Vw, info), -3);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fq, 0, Vk, info), QRU_ERR_NO_Q);
    ck_assert_int_eq(info[0], -5);
    /* add_cols_data: fb, k, V as add_cols, then A (4) and b (5), in both
     * forms */
    qru_matrix *Af, *bf, *Ar = NULL, *Ac = NULL, *An = NULL, *Ao = NULL,
               *br = NULL, *bc = NULL;
    qru_matrix *Ad = upload_pages(dt, n, m, cnt, h.A, &Af);
    qru_matrix *bd = upload_pages(dt, n, r, cnt, h.b, &bf);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n - 1, m, 0, cnt, 0,
                                             &Ar), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m + 1, 0, cnt, 0,
                                             &Ac), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, cnt + 1, 0,
                                             &An), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n - 1, r, 0, cnt, 0,
                                             &br), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r + 1, 0, cnt, 0,
                                             &bc), 0);
    if (qru_test_ndtypes(ctx) > 1)
        ck_assert_int_eq(qru_matrix_create_batch(ctx, other, n, m, 0, cnt, 0,
                                                 &Ao), 0);
    ck_assert_int_eq(qru_lsq_batch_add_cols_data(NULL, 0, Vk, Ad, bd, info),
                     -1);
    const struct {
        int k;
        const qru_matrix *V, *A, *b;
        int st;
    } bad[] = {{-1, NULL, NULL, NULL, -2}, {m + 1, Vk, Ad, bd, -2},
               {0, NULL, NULL, NULL, -3},  {0, Vw, Ad, bd, -3},
               {0, Vr, Ad, bd, -3},        {0, Vk, NULL, NULL, -4},
               {0, Vk, Ar, bd, -4},        {0, Vk, Ac, bd, -4},
               {0, Vk, An, bd, -4},        {0, Vk, Ao ? Ao : Ar, bd, -4},
               {0, Vk, Ad, NULL, -5},      {0, Vk, Ad, br, -5},
               {0, Vk, Ad, bc, -5}};
    for (int f = 0; f < 2; ++f)
        for (size_t c = 0; c < sizeof(bad) / sizeof(bad[0]); ++c)
            ck_assert_int_eq(qru_lsq_batch_add_cols_data(f ? fb : fq,
                                                         bad[c].k, bad[c].V,
                                                         bad[c].A, bad[c].b,
                                                         info),
                             bad[c].st);
    ck_assert_int_eq(info[0], -5);
    snap s1 = get_snap(fb, dt), q1 = get_snap(fq, dt);
    ck_assert(same_snap(&s0, &s1));
    ck_assert(same_snap(&q0, &q1));
    /* n - m columns fill A; the last column removed, the info NULL */
    qru_matrix *Vf, *Vb;
    double *V = new_v(&h, n - m, 1 << 30, &seed);
    Vb = upload_pages(dt, n, n - m, cnt, V, &Vf);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fb, 1, Vb, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), n);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, n - 1, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fb), n - 1);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fq, 3, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fq), m - 1);
    /* an empty batch: the checks, the column counts */
    qru_matrix *A0 = NULL, *b0 = NULL, *W0 = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, m, 0, 0, 0, &A0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, r, 0, 0, 0, &b0), 0);
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, n, 2, 0, 0, 0, &W0), 0);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = QRU_Q_THIN;
    qru_lsq_batch *fe = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A0, b0, &opt, &fe), 0);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fe, 0, m), -3);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fe, 0, 1), 0);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fe, 3, W0, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fe), m + 1);
    free(V);
    free_snap(&s0);
    free_snap(&s1);
    free_snap(&q0);
    free_snap(&q1);
    /* the thin form with the data: bit for bit as without */
    qru_lsq_batch *f1 = make_batch(&h, QRU_Q_THIN),
                  *f2 = make_batch(&h, QRU_Q_THIN);
    ck_assert_int_eq(qru_lsq_batch_add_cols(f1, 2, Vb, info), 0);
    ck_assert_int_eq(qru_lsq_batch_add_cols_data(f2, 2, Vb, Ad, bd, info), 0);
    snap t1 = get_snap(f1, dt), t2 = get_snap(f2, dt);
    ck_assert(same_snap(&t1, &t2));
    free_snap(&t1);
    free_snap(&t2);
    qru_lsq_batch_destroy(f1);
    qru_lsq_batch_destroy(f2);
    /* an empty Q-less batch gains the columns */
    qru_lsq_batch *fz = NULL;
    ck_assert_int_eq(qru_lsq_batch_create(ctx, A0, b0, &fz), 0);
    ck_assert_int_eq(qru_lsq_batch_add_cols(fz, 3, W0, NULL), QRU_ERR_NO_Q);
    ck_assert_int_eq(qru_lsq_batch_add_cols_data(fz, 3, W0, A0, b0, NULL), 0);
    ck_assert_int_eq(qru_lsq_batch_cols(fz), m + 2);
    qru_lsq_batch_destroy(fz);
    qru_matrix *ms[] = {Vc, Vr, Vw, Vo, V0, Vk, Vb, Vf, A0, b0, W0,
                        Ad, Af, bd, bf, Ar, Ac, An, Ao, br, bc};
    for (size_t k = 0; k < sizeof(ms) / sizeof(ms[0]); ++k)
        qru_matrix_destroy(ms[k]);
    qru_lsq_batch_destroy(fb);
    qru_lsq_batch_destroy(fq);
    qru_lsq_batch_destroy(fe);
    hbatch_free(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch_cols");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_cols_grid, 0, 4);
    tcase_add_test(tc, test_cols_cases);
    tcase_add_test(tc, test_cols_parallel);
    tcase_add_loop_test(tc, test_cols_refused, 0, 2);
    tcase_add_test(tc, test_cols_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
