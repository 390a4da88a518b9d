/* qru_lsq_create_from_qr: a factorisation adopted from (Q, R, d) solves the
 * same least-squares problem as one computed by qru_lsq_create, can be
 * updated (also in the caller's Q and R: opt.adopt, qru_lsq_view_q and
 * qru_lsq_view_r), and rejects bad arguments without touching anything. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

QRU_TEST_FIXTURE

/* Factorise A with qru_qr_factor (R, Q, d), adopt them, and compare the
 * adopted object's solve/residual with LAPACKE gels on A, b.  R is handed
 * over with garbage below the diagonal to check that triu(R) is taken. */
static void adopt_case(qru_dtype dt, int n, int m, int r, int keep_q,
                       unsigned seed)
{
    char tag[96];
    snprintf(tag, sizeof tag, "%s n=%d m=%d r=%d q=%d",
             dt == QRU_DOUBLE ? "double" : "float", n, m, r, keep_q);
    void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, r, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    qru_test_rand(dt, n, r, b, n, &seed);
    qru_matrix *R = qru_test_upload(ctx, dt, n, m, n + 3, A, n);
    qru_matrix *d = qru_test_upload(ctx, dt, n, r, n, b, n);
    qru_matrix *Q = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q), 0);
    ck_assert_int_eq(qru_qr_factor(ctx, 0, R, Q, d), 0);
    /* put garbage below R's diagonal */
    void *Rh = qru_test_download(R);
    for (int j = 0; j < m; ++j)
        for (int i = j + 1; i < n; ++i)
            qru_test_set(dt, Rh, n, i, j, 1.0 + i + j);
    ck_assert_int_eq(qru_matrix_upload(R, Rh, n), 0);

    qru_lsq *f = NULL;
    ck_assert_int_eq(
        qru_lsq_create_from_qr(ctx, keep_q ? Q : NULL, R, d, NULL, &f), 0);
    ck_assert_int_eq(qru_lsq_rows(f), n);
    ck_assert_int_eq(qru_lsq_cols(f), m);
    ck_assert_int_eq(qru_lsq_nrhs(f), r);
    ck_assert_int_eq(qru_lsq_has_q(f), keep_q);

    qru_matrix *R1;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, m, 0, &R1), 0);
    ck_assert_int_eq(qru_lsq_get_r(f, R1), 0);
    void *R1h = qru_test_download(R1);
    ck_assert_msg(qru_test_lower_max(dt, n, m, R1h, n) == 0.0,
                  "%s: triu(R) not taken", tag);

    qru_matrix *x;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, r, 0, &x), 0);
    ck_assert_int_eq(qru_lsq_solve(f, x), 0);
    double *res = malloc(sizeof(double) * r);
    ck_assert_int_eq(qru_lsq_get_residual_norms(f, res), 0);
    void *xh = qru_test_download(x);
    double xerr, rerr;
    qru_test_lsq_errors(dt, n, m, r, A, n, b, n, xh, m, res, &xerr, &rerr);
    ck_assert_msg(xerr < QRU_TEST_THRESHOLD && rerr < QRU_TEST_THRESHOLD,
                  "%s: xerr %g rerr %g", tag, xerr, rerr);
    if (keep_q) {
        qru_matrix *Q1;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q1), 0);
        ck_assert_int_eq(qru_lsq_get_q(f, Q1), 0);
        void *Q1h = qru_test_download(Q1);
        double e = qru_test_backward_error(dt, n, m, A, n, Q1h, n, R1h, n);
        ck_assert_msg(e < QRU_TEST_THRESHOLD, "%s: backward %g", tag, e);
        free(Q1h);
        qru_matrix_destroy(Q1);
    }
    free(res);
    free(xh);
    free(R1h);
    free(Rh);
    free(A);
    free(b);
    qru_matrix_destroy(x);
    qru_matrix_destroy(R1);
    qru_matrix_destroy(R);
    qru_matrix_destroy(Q);
    qru_matrix_destroy(d);
    qru_lsq_destroy(f);
}

START_TEST(adopt)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i) {
        qru_dtype dt = qru_test_dtype(ctx, i);
        adopt_case(dt, 40, 17, 1, 1, 11u);
        adopt_case(dt, 40, 17, 2, 0, 12u);
        adopt_case(dt, 9, 9, 1, 1, 13u);
        adopt_case(dt, 5, 1, 1, 0, 14u);
    }
}
END_TEST

/* One update op (0 add columns at k, 1 remove columns, 2 add rows at k,
 * 3 remove rows, 4 A + U V') with p columns / rows of U (and V) at k. */
static int in_place_update(qru_lsq *f, int op, int k, int p,
                           const qru_matrix *U, const qru_matrix *V,
                           const qru_matrix *e)
{
    switch (op) {
    case 0: return qru_lsq_add_cols(f, k, U);
    case 1: return qru_lsq_remove_cols(f, k, p);
    case 2: return qru_lsq_add_rows(f, k, U, e);
    case 3: return qru_lsq_remove_rows(f, k, p);
    default: return qru_lsq_modify(f, U, V);
    }
}

/* opt.adopt: the object works in the caller's Q and/or R.  The same
 * update on an adopted and on a copied factorisation gives bit-identical
 * Q and R (the copied path is checked against LAPACKE by the update
 * tests; orthogonality is checked here too); each adopted buffer holds
 * the result when it fits (qru_lsq_view_q / qru_lsq_view_r show where Q
 * and R lie), else its contents have moved and the caller's buffer is as
 * it was; a failed update leaves the buffers bit-identical. */
static void in_place_case(qru_dtype dt, int thin, int op, int adopt,
                          unsigned seed)
{
    const int n = 37, m = 12, p = 3, k = 5, r = 2;
    char tag[96];
    snprintf(tag, sizeof tag, "%s %s op %d adopt %d",
             dt == QRU_DOUBLE ? "double" : "float", thin ? "thin" : "full",
             op, adopt);
    size_t es = qru_test_elsize(dt);
    void *A = qru_test_alloc(dt, n, m, n), *b = qru_test_alloc(dt, n, r, n);
    qru_test_rand(dt, n, m, A, n, &seed);
    qru_test_rand(dt, n, r, b, n, &seed);
    qru_matrix *R = qru_test_upload(ctx, dt, n, m, 0, A, n);
    qru_matrix *d = qru_test_upload(ctx, dt, n, r, 0, b, n);
    qru_matrix *Qf = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Qf), 0);
    ck_assert_int_eq(qru_qr_factor(ctx, 0, R, Qf, d), 0);
    void *Qh = qru_test_download(Qf), *Rh = qru_test_download(R),
         *dh = qru_test_download(d);
    int qc = thin ? m : n, rr = thin ? m : n;
    void *Rrh = qru_test_alloc(dt, rr, m, rr); /* R's stored rows */
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < rr; ++i)
            qru_test_set(dt, Rrh, rr, i, j, qru_test_get(dt, Rh, n, i, j));
    qru_matrix *Rin = qru_test_upload(ctx, dt, rr, m, 0, Rrh, rr);
    qru_matrix *Ra = qru_test_upload(ctx, dt, rr, m, 0, Rrh, rr);
    qru_matrix *din = qru_test_upload(ctx, dt, rr, r, 0, dh, n);
    qru_matrix *Qc = qru_test_upload(ctx, dt, n, qc, 0, Qh, n);
    qru_matrix *Qa = qru_test_upload(ctx, dt, n, qc, 0, Qh, n);
    qru_lsq *fc = NULL, *fa = NULL;
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.adopt = adopt;
    ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Qc, Rin, din, NULL, &fc), 0);
    ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Qa, Ra, din, &opt, &fa), 0);
    /* the update algorithm, not AUTO's choice, decides what fits */
    ck_assert_int_eq(qru_lsq_set_update_algorithm(fc, QRU_UPDATE_FAST), 0);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(fa, QRU_UPDATE_FAST), 0);
    qru_matrix *V0 = NULL, *W0 = NULL;
    ck_assert_int_eq(qru_lsq_view_q(fa, &V0), 0);
    ck_assert_int_eq(qru_lsq_view_r(fa, &W0), 0);
    ck_assert_int_eq(qru_matrix_data(V0) == qru_matrix_data(Qa),
                     (adopt & QRU_ADOPT_Q) != 0);
    ck_assert_int_eq(qru_matrix_data(W0) == qru_matrix_data(Ra),
                     (adopt & QRU_ADOPT_R) != 0);
    ck_assert_int_eq(qru_matrix_rows(W0), rr);
    qru_matrix_destroy(V0);
    qru_matrix_destroy(W0);

    /* the update's data: U (n x p columns, p x m rows, n x p for A + U V'),
     * V (m x p), e (p x r) */
    int ur = op == 0 || op == 4 ? n : p, uc = op == 0 || op == 4 ? p : m;
    void *Uh = qru_test_alloc(dt, ur, uc, ur), *Vh = qru_test_alloc(dt, m, p, m),
         *eh = qru_test_alloc(dt, p, r, p);
    qru_test_rand(dt, ur, uc, Uh, ur, &seed);
    qru_test_rand(dt, m, p, Vh, m, &seed);
    qru_test_rand(dt, p, r, eh, p, &seed);
    qru_matrix *U = qru_test_upload(ctx, dt, ur, uc, 0, Uh, ur);
    qru_matrix *V = qru_test_upload(ctx, dt, m, p, 0, Vh, m);
    qru_matrix *e = qru_test_upload(ctx, dt, p, r, 0, eh, p);
    ck_assert_int_eq(in_place_update(fc, op, k, p, U, V, e), 0);
    ck_assert_int_eq(in_place_update(fa, op, k, p, U, V, e), 0);
    int n1 = qru_lsq_rows(fa), m1 = qru_lsq_cols(fa), qc1 = thin ? m1 : n1,
        rr1 = thin ? m1 : n1;
    ck_assert_int_eq(n1, qru_lsq_rows(fc));
    ck_assert_int_eq(m1, qru_lsq_cols(fc));

    /* where Q and R are: in place when the result fits the adopted buffer
     * (a thin factorisation's row removal and modification work in p more
     * columns of Q1 and rows of R; a full R grows with added columns) */
    int q_fits = thin ? op == 1 : op != 2;
    int r_fits = thin ? op == 1 : (op == 1 || op == 3 || op == 4);
    qru_matrix *V1 = NULL, *W1 = NULL;
    ck_assert_int_eq(qru_lsq_view_q(fa, &V1), 0);
    ck_assert_int_eq(qru_lsq_view_r(fa, &W1), 0);
    ck_assert_int_eq(qru_matrix_rows(V1), n1);
    ck_assert_int_eq(qru_matrix_cols(V1), qc1);
    ck_assert_int_eq(qru_matrix_rows(W1), rr1);
    ck_assert_int_eq(qru_matrix_cols(W1), m1);
    if (adopt & QRU_ADOPT_Q) {
        ck_assert_msg((qru_matrix_data(V1) == qru_matrix_data(Qa)) == q_fits,
                      "%s: Q %s", tag, q_fits ? "moved" : "did not move");
        if (!q_fits) {
            void *Qah = qru_test_download(Qa);
            ck_assert_msg(memcmp(Qah, Qh, es * (size_t)n * qc) == 0,
                          "%s: the caller's Q changed", tag);
            free(Qah);
        }
    }
    if (adopt & QRU_ADOPT_R) {
        ck_assert_msg((qru_matrix_data(W1) == qru_matrix_data(Ra)) == r_fits,
                      "%s: R %s", tag, r_fits ? "moved" : "did not move");
        if (!r_fits) {
            void *Rah = qru_test_download(Ra);
            ck_assert_msg(memcmp(Rah, Rrh, es * (size_t)rr * m) == 0,
                          "%s: the caller's R changed", tag);
            free(Rah);
        }
    }
    /* bit-identical to the copied factorisation's Q and R */
    qru_matrix *Qg = NULL, *Rg = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, n1, qc1, 0, &Qg), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, rr1, m1, 0, &Rg), 0);
    ck_assert_int_eq(qru_lsq_get_q(fc, Qg), 0);
    ck_assert_int_eq(qru_lsq_get_r(fc, Rg), 0);
    void *Qgh = qru_test_download(Qg), *Rgh = qru_test_download(Rg);
    void *Vh1 = qru_test_alloc(dt, n1, qc1, n1),
         *Wh1 = qru_test_alloc(dt, rr1, m1, rr1);
    ck_assert_int_eq(qru_matrix_download(V1, Vh1, n1), 0);
    ck_assert_int_eq(qru_matrix_download(W1, Wh1, rr1), 0);
    ck_assert_msg(memcmp(Vh1, Qgh, es * (size_t)n1 * qc1) == 0,
                  "%s: Q differs from the copied object's", tag);
    ck_assert_msg(memcmp(Wh1, Rgh, es * (size_t)rr1 * m1) == 0,
                  "%s: R differs from the copied object's", tag);
    double orth = qru_test_orth_error_cols(dt, n1, qc1, Vh1, n1);
    ck_assert_msg(orth < QRU_TEST_THRESHOLD, "%s: orth %g", tag, orth);

    /* a failed update (add columns inside range(A)) leaves Q and R as
     * they were: full form, where both are still in place */
    if (!thin && q_fits && r_fits) {
        void *qb = qru_test_download(V1), *rb = qru_test_download(W1);
        qru_matrix *Ud = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n1, 1, 0, &Ud), 0);
        /* U = Q1(:, 1) R1(1, 1) / R1(1, 1): in range(A1) */
        ck_assert_int_eq(qru_matrix_upload(Ud, Vh1, n1), 0);
        int st = qru_lsq_add_cols(fa, 0, Ud);
        ck_assert_msg(st > 0, "%s: add_cols in range(A) gave %d", tag, st);
        void *qa = qru_test_download(V1), *ra = qru_test_download(W1);
        ck_assert_msg(memcmp(qb, qa, es * (size_t)n1 * qc1) == 0 &&
                          memcmp(rb, ra, es * (size_t)rr1 * m1) == 0,
                      "%s: failed update changed Q or R", tag);
        free(qb);
        free(rb);
        free(qa);
        free(ra);
        qru_matrix_destroy(Ud);
    }
    qru_matrix_destroy(V1);
    qru_matrix_destroy(W1);
    qru_lsq_destroy(fa); /* Qa and Ra are the caller's: still valid */
    void *chk = qru_test_download(Qa);
    free(chk);
    chk = qru_test_download(Ra);
    free(chk);
    qru_lsq_destroy(fc);
    qru_matrix *mats[] = {R, d, Qf, Rin, Ra, din, Qc, Qa, U, V, e, Qg, Rg};
    for (size_t i = 0; i < sizeof mats / sizeof *mats; ++i)
        qru_matrix_destroy(mats[i]);
    void *hs[] = {A, b, Qh, Rh, dh, Rrh, Uh, Vh, eh, Qgh, Rgh, Vh1, Wh1};
    for (size_t i = 0; i < sizeof hs / sizeof *hs; ++i)
        free(hs[i]);
}

START_TEST(in_place)
{
    const int adopts[] = {QRU_ADOPT_Q, QRU_ADOPT_R, QRU_ADOPT_Q | QRU_ADOPT_R};
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i)
        for (int thin = 0; thin < 2; ++thin)
            for (int op = 0; op < 5; ++op)
                for (int a = 0; a < 3; ++a)
                    in_place_case(qru_test_dtype(ctx, i), thin, op, adopts[a],
                                  100u + 10u * (unsigned)op +
                                      (unsigned)(thin + 2 * a));
}
END_TEST

START_TEST(bad_args)
{
    for (int i = 0; i < qru_test_ndtypes(ctx); ++i) {
        qru_dtype dt = qru_test_dtype(ctx, i);
        qru_dtype other = dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE;
        int n = 8, m = 5;
        qru_matrix *Q, *R, *d, *Qrect, *Rwide, *dshort, *Qo;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Q), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, m, 0, &R), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 1, 0, &d), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n - 1, n, 0, &Qrect), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m - 1, m, 0, &Rwide), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n - 1, 1, 0, &dshort), 0);
        int have_other = qru_context_supports(ctx, other);
        if (have_other)
            ck_assert_int_eq(qru_matrix_create(ctx, other, n, n, 0, &Qo), 0);
        qru_lsq_options bad;
        qru_lsq_options_init(&bad);
        bad.row_capacity = n - 1;
        qru_lsq *f = (qru_lsq *)&bad; /* must stay untouched */
        qru_lsq *const sentinel = f;
        ck_assert_int_eq(qru_lsq_create_from_qr(NULL, Q, R, d, NULL, &f), -1);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Qrect, R, d, NULL, &f),
                         -2);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, NULL, d, NULL, &f),
                         -3);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, Rwide, d, NULL, &f),
                         -3);
        if (have_other)
            ck_assert_int_eq(
                qru_lsq_create_from_qr(ctx, Qo, R, d, NULL, &f), -3);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, NULL, NULL, &f),
                         -4);
        ck_assert_int_eq(
            qru_lsq_create_from_qr(ctx, Q, R, dshort, NULL, &f), -4);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, &bad, &f), -5);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, NULL, NULL),
                         -6);
        /* adopt: flags only, only with a Q, no capacities, a full Q with
         * ld = n, R n x m with ld n (full) */
        qru_lsq_options ad;
        qru_lsq_options_init(&ad);
        ad.adopt = 4;
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, &ad, &f), -5);
        ad.adopt = QRU_ADOPT_Q;
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, NULL, R, d, &ad, &f),
                         -5);
        ad.col_capacity = m + 1;
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, R, d, &ad, &f), -5);
        ad.col_capacity = 0;
        qru_matrix *Qld, *Rld;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, n + 2, &Qld), 0);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Qld, R, d, &ad, &f), -5);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, m, n + 1, &Rld), 0);
        ad.adopt = QRU_ADOPT_R;
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, Q, Rld, d, &ad, &f), -5);
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, NULL, R, d, &ad, &f),
                         -5);
        qru_matrix_destroy(Qld);
        qru_matrix_destroy(Rld);
        ck_assert_int_eq(qru_lsq_create(ctx, R, d, &ad, &f), -4);
        ck_assert_ptr_eq(f, sentinel);
        /* qru_lsq_view_q */
        qru_matrix *view = (qru_matrix *)&bad;
        ck_assert_int_eq(qru_lsq_view_q(NULL, &view), -1);
        qru_lsq *fq = NULL;
        ck_assert_int_eq(qru_lsq_create_from_qr(ctx, NULL, R, d, NULL, &fq),
                         0);
        ck_assert_int_eq(qru_lsq_view_q(fq, NULL), -2);
        ck_assert_int_eq(qru_lsq_view_q(fq, &view), QRU_ERR_NO_Q);
        ck_assert_ptr_eq(view, (qru_matrix *)&bad);
        ck_assert_int_eq(qru_lsq_view_r(NULL, &view), -1);
        ck_assert_int_eq(qru_lsq_view_r(fq, NULL), -2);
        ck_assert_int_eq(qru_lsq_view_r(fq, &view), 0); /* m x m */
        ck_assert_int_eq(qru_matrix_rows(view), m);
        ck_assert_int_eq(qru_matrix_cols(view), m);
        qru_matrix_destroy(view);
        qru_lsq_destroy(fq);
        if (have_other)
            qru_matrix_destroy(Qo);
        qru_matrix_destroy(Q);
        qru_matrix_destroy(R);
        qru_matrix_destroy(d);
        qru_matrix_destroy(Qrect);
        qru_matrix_destroy(Rwide);
        qru_matrix_destroy(dshort);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_from_qr");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, adopt);
    tcase_add_test(tc, in_place);
    tcase_add_test(tc, bad_args);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
