/* Random chains of >= 200 mixed QR updates on one factorisation, in each
 * form: full Q, thin Q and Q-less (all four updates; the Q-less form
 * removes rows and adds columns with the data, and the calls without it
 * must answer QRU_ERR_NO_Q and leave f unchanged), checked against the
 * host problem updated the same way at random points and at the end:
 * the checks of update_check.h (Q'Q = I, A = QR, d = Q'b, the least-squares
 * solution against LAPACKE's; Q-less: R'R = A'A and the residual norms)
 * and R against LAPACKE zgeqrf of the current matrix (moduli: LAPACK fixes
 * R's rows up to phases).  Every element type, the complex ones included
 * (loop index UC_CPLX and up, where the backend takes them).
 *
 * Error bound: every check must stay below QRU_TEST_THRESHOLD times
 * max(1, sqrt(u) / 4) where u is the number of updates applied so far
 * (rounding errors of successive updates accumulate like a random walk;
 * for u = 200 the factor is 3.5).
 *
 * The cases long_q, long_thin and long_qless run chains of 1000 updates
 * (FAST) in complex float and complex double.
 *
 * QRU_TEST_CHAIN_UPDATES=N in the environment runs chains of N updates
 * instead of NUPD (the long randomised chains of the GPU checks, e.g. 1000
 * under compute-sanitizer; scripts/gpu-check passes it through). */
#include "update_check.h"

static qru_context *ctx;
static int long_chain; /* the fixture of the long_* cases: LONG updates */
static void setup(void)
{
    ctx = qru_test_context();
    long_chain = 0;
}
static void setup_dissertation(void)
{
    setup();
    uc_alg = QRU_UPDATE_DISSERTATION;
}
static void setup_fast(void)
{
    setup();
    uc_alg = QRU_UPDATE_FAST;
}
/* QRU_UPDATE_FAST, chains of LONG updates */
static void setup_long(void)
{
    setup_fast();
    long_chain = 1;
}
/* QRU_UPDATE_FAST with the Householder tiles forced wherever they apply
 * (adding columns, removing rows with full Q) */
static void setup_tiles(void)
{
    setup_fast();
    uc_force_tiles(ctx);
}
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

enum { NUPD = 220, LONG = 1000, NMAX = 160, MMAX = 60, R = 2 };

/* updates a chain: NUPD (the long_* cases: LONG), or
 * QRU_TEST_CHAIN_UPDATES (1 .. 100000) */
static int chain_updates(void)
{
    const char *e = getenv("QRU_TEST_CHAIN_UPDATES");
    int n = e ? atoi(e) : 0;
    return n >= 1 && n <= 100000 ? n : long_chain ? LONG : NUPD;
}

static int rnd(unsigned *s, int lo, int hi) /* uniform in [lo, hi] */
{
    *s = *s * 1664525u + 1013904223u;
    if (hi <= lo)
        return lo;
    return lo + (int)((*s >> 8) % (unsigned)(hi - lo + 1));
}

/* a block size: mostly 1..6, one time in ten 1..24; at most maxp */
static int rnd_p(unsigned *s, int maxp)
{
    int p = rnd(s, 0, 9) == 0 ? rnd(s, 1, 24) : rnd(s, 1, 6);
    return p < maxp ? p : maxp;
}

static double scale_for(int u)
{
    double sc = sqrt((double)u) / 4.0;
    return sc > 1.0 ? sc : 1.0;
}

/* loop index: dtype, form (full, thin, Q-less) */
START_TEST(test_chain)
{
    UC_TEST_DTYPE(ctx, i_, dt); /* UC_CPLX and up: the complex types */
    int form = (i_ / 2) % 3;
    static const char *const fname[] = {"Q", "thin-Q", "Q-less"};
    unsigned seed = 424242u + 7u * (unsigned)i_;
    unsigned rs = 99u + 13u * (unsigned)i_;
    hprob hp = uc_problem(dt, 80, 30, R, &seed);
    /* block size: automatic for the full chain, 4 for the others */
    qru_lsq *f = uc_factor_q(ctx, &hp, form, form == 0 ? 0 : 4);
    int counts[4] = {0, 0, 0, 0}, nchecks = 0;
    double worst = 0.0, worst_r = 0.0;
    int nupd = chain_updates();
    for (int u = 1; u <= nupd; ++u) {
        int n = hp.n, m = hp.m, st = 0, op;
        char tag[128];
        /* weights keep the sizes moving around m ~ 30, n - m ~ 40 (Q) or
         * m >= 30 (R only: columns are only removed, rows only added) */
        int w[4] = {0, 0, 0, 0};
        if (n > m && m < MMAX)
            w[0] = m < 20 ? 30 : m > 45 ? 3 : 10;
        if (m >= 2)
            w[1] = m > 40 ? 30 : m < 10 ? 3 : 10;
        if (n < NMAX)
            w[2] = n - m < 20 ? 30 : 10;
        if (n > m)
            w[3] = n - m > 60 ? 30 : 10;
        int x = rnd(&rs, 0, w[0] + w[1] + w[2] + w[3] - 1);
        for (op = 0; op < 3 && x >= w[op]; ++op)
            x -= w[op];
        if (op == 0) {
            int p = rnd_p(&rs, n - m < MMAX - m ? n - m : MMAX - m);
            int k = rnd(&rs, 0, m);
            double *U = uc_rand(dt, n, p, &seed);
            st = uc_do_add_cols(ctx, f, &hp, k, p, U);
            snprintf(tag, sizeof tag, "update %d add_cols k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            ck_assert_msg(st == 0, "%s: %d", tag, st);
            uc_add_cols(&hp, k, p, U);
            free(U);
        } else if (op == 1) {
            int p = rnd_p(&rs, m - 1);
            int k = rnd(&rs, 0, m - p);
            st = qru_lsq_remove_cols(f, k, p);
            snprintf(tag, sizeof tag, "update %d remove_cols k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            ck_assert_msg(st == 0, "%s: %d", tag, st);
            uc_remove_cols(&hp, k, p);
        } else if (op == 2) {
            int p = rnd_p(&rs, NMAX - n);
            int k = rnd(&rs, 0, n);
            st = uc_do_add_rows(ctx, f, &hp, k, p, &seed);
            snprintf(tag, sizeof tag, "update %d add_rows k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            ck_assert_msg(st == 0, "%s: %d", tag, st);
        } else {
            int p = rnd_p(&rs, n - m);
            int k = rnd(&rs, 0, n - p);
            st = uc_do_remove_rows(ctx, f, &hp, k, p);
            snprintf(tag, sizeof tag, "update %d remove_rows k=%d p=%d (%dx%d)",
                     u, k, p, n, m);
            ck_assert_msg(st == 0, "%s: %d", tag, st);
            uc_remove_rows(&hp, k, p);
        }
        counts[op]++;
        if (form == 2 && rnd(&rs, 0, 24) == 0) {
            /* the updates that need Q refuse and leave f unchanged */
            usnap s0 = uc_snap(ctx, f);
            double *U = uc_rand(dt, hp.n, 1, &seed);
            qru_matrix *Ud = uc_upload(ctx, dt, hp.n, 1, U);
            ck_assert_int_eq(qru_lsq_add_cols(f, 0, Ud),
                             hp.n > hp.m ? QRU_ERR_NO_Q : -4);
            if (hp.n > hp.m)
                ck_assert_int_eq(qru_lsq_remove_rows(f, 0, 1),
                                 QRU_ERR_NO_Q);
            uc_snap_same(ctx, f, &s0, "Q-less chain: update needing Q");
            uc_snap_free(&s0);
            qru_matrix_destroy(Ud);
            free(U);
        }
        if (u == nupd || rnd(&rs, 0, 14) == 0) {
            double w = uc_check(ctx, f, &hp, scale_for(u), tag);
            worst = w > worst ? w : worst;
            w = uc_check_r_lapack(ctx, f, &hp, scale_for(u), tag);
            worst_r = w > worst_r ? w : worst_r;
            nchecks++;
        }
    }
    printf("[%s] %s %s chain: %d add_cols, %d remove_cols, %d add_rows, "
           "%d remove_rows; %d checks, worst scaled error %.3g (R "
           "against LAPACK's %.3g); final %d x %d\n",
           uc_alg_name(), qru_test_type_name(dt), fname[form],
           counts[0], counts[1], counts[2], counts[3], nchecks, worst,
           worst_r, hp.n, hp.m);
    ck_assert_int_ge(nchecks, 5);
    qru_lsq_destroy(f);
    uc_free(&hp);
}
END_TEST

/* one test case per algorithm and form (the names are what
 * scripts/gpu-check runs one at a time under compute-sanitizer), each
 * looping over the element types */
static void add_tcase(Suite *s, const char *name, void (*fix)(void), int form)
{
    TCase *tc = tcase_create(name);
    tcase_add_checked_fixture(tc, fix, teardown);
    tcase_set_timeout(tc, 300);
    if (fix != setup_long) /* the long chains: complex data */
        tcase_add_loop_test(tc, test_chain, 2 * form, 2 * form + 2);
    tcase_add_loop_test(tc, test_chain, UC_CPLX + 2 * form,
                        UC_CPLX + 2 * form + 2);
    suite_add_tcase(s, tc);
}

int main(void)
{
    Suite *s = suite_create("update_chain");
    add_tcase(s, "dissertation_q", setup_dissertation, 0);
    add_tcase(s, "dissertation_thin", setup_dissertation, 1);
    add_tcase(s, "dissertation_qless", setup_dissertation, 2);
    add_tcase(s, "fast_q", setup_fast, 0);
    add_tcase(s, "fast_thin", setup_fast, 1);
    add_tcase(s, "fast_qless", setup_fast, 2);
    add_tcase(s, "tiles_q", setup_tiles, 0);
    add_tcase(s, "tiles_thin", setup_tiles, 1);
    add_tcase(s, "tiles_qless", setup_tiles, 2);
    /* chains of LONG updates in complex float and complex double (the
     * real types' long chains: QRU_TEST_CHAIN_UPDATES=1000) */
    add_tcase(s, "long_q", setup_long, 0);
    add_tcase(s, "long_thin", setup_long, 1);
    add_tcase(s, "long_qless", setup_long, 2);
    return qru_test_main(s);
}
