/*
 * Plans against runs: the plan of an update (src/plan.c: the strategy run
 * against the dry-run op table) must count, op by op, exactly the calls
 * and host waits that the context statistics count while the same update
 * runs, for every operation (and the rank-k modification A + U V'), the
 * three forms, the algorithms FAST, DISSERTATION and REFACTOR, with p = 1
 * and larger p, k at both ends and in the middle; the Householder tiles
 * forced on and off; look-ahead on and off.  Under QRU_UPDATE_AUTO the
 * run takes the path whose plan is priced faster and queues exactly that
 * plan's calls.  A dry run leaves the factorisation and the context's
 * statistics untouched.  The same for complex data, where a backend runs
 * the reference ops of its real-only fused ops.  Also: the cost model's
 * time of an op sequence.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/qru_flops.h"
#include "../src/update/update.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

/* One case: an n x m problem (r = 1) in form q, the update's inputs. */
typedef struct kase {
    qru_dtype dt;
    int op, n, m, p, k, q;
    void *A, *b;
    qru_matrix *dA, *db, *U, *e, *Ad, *bd;
    qru_lsq *f;
} kase;

static qru_matrix *rand_dev(qru_dtype dt, int r, int c, unsigned *seed)
{
    void *h = qru_test_alloc(dt, r, c, r);
    qru_test_rand(dt, r, c, h, r, seed);
    qru_matrix *M = qru_test_upload(ctx, dt, r, c, 0, h, r);
    free(h);
    return M;
}

static kase kase_new(qru_dtype dt, int op, int q, int n, int m, int p, int k)
{
    kase c = {dt, op, n, m, p, k, q, NULL, NULL, NULL, NULL, NULL,
              NULL, NULL, NULL, NULL};
    unsigned seed = 4242u + (unsigned)(op * 7919 + q * 131 + n * 31 +
                                       m * 17 + p * 3 + k);
    c.A = qru_test_alloc(dt, n, m, n);
    c.b = qru_test_alloc(dt, n, 1, n);
    qru_test_rand(dt, n, m, c.A, n, &seed);
    qru_test_rand(dt, n, 1, c.b, n, &seed);
    c.dA = qru_test_upload(ctx, dt, n, m, 0, c.A, n);
    c.db = qru_test_upload(ctx, dt, n, 1, 0, c.b, n);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = q;
    ck_assert_int_eq(qru_lsq_create(ctx, c.dA, c.db, &opt, &c.f), 0);
    if (op == QRU_UPD_OP_ADD_ROWS) {
        c.U = rand_dev(dt, p, m, &seed);
        c.e = rand_dev(dt, p, 1, &seed);
    } else if (op == QRU_UPD_OP_ADD_COLS) {
        c.U = rand_dev(dt, n, p, &seed);
        if (q == QRU_Q_NONE) { /* the data of qru_lsq_add_cols_data */
            c.Ad = c.dA;
            c.bd = c.db;
        }
    } else if (op == QRU_UPD_OP_MODIFY) {
        c.U = rand_dev(dt, n, p, &seed);
        c.e = rand_dev(dt, m, p, &seed); /* V */
    } else if (op == QRU_UPD_OP_REMOVE_ROWS && q == QRU_Q_NONE) {
        /* the rows removed: A(k:k+p-1, :) and b(k:k+p-1) */
        size_t es = qru_test_elsize(dt);
        c.U = qru_test_upload(ctx, dt, p, m, 0, (char *)c.A + es * k, n);
        c.e = qru_test_upload(ctx, dt, p, 1, 0, (char *)c.b + es * k, n);
    }
    return c;
}

static void kase_free(kase *c)
{
    qru_lsq_destroy(c->f);
    qru_matrix_destroy(c->dA);
    qru_matrix_destroy(c->db);
    qru_matrix_destroy(c->U);
    qru_matrix_destroy(c->e);
    free(c->A);
    free(c->b);
}

/* The request qru_upd_run makes of the case's public call. */
static qru_upd_req kase_req(const kase *c, int alg)
{
    qru_upd_req rq = {c->op, c->k, c->p, c->U, NULL, c->Ad, c->bd, alg,
                      NULL, -1};
    if (c->op == QRU_UPD_OP_ADD_ROWS || c->op == QRU_UPD_OP_REMOVE_ROWS)
        rq.e = c->e;
    if (c->op == QRU_UPD_OP_MODIFY) {
        rq.k = 0;
        rq.V = c->e;
    }
    return rq;
}

static int kase_run(kase *c)
{
    qru_lsq *f = c->f;
    switch (c->op) {
    case QRU_UPD_OP_ADD_COLS:
        return c->q == QRU_Q_NONE
                   ? qru_lsq_add_cols_data(f, c->k, c->U, c->Ad, c->bd)
                   : qru_lsq_add_cols(f, c->k, c->U);
    case QRU_UPD_OP_REMOVE_COLS:
        return qru_lsq_remove_cols(f, c->k, c->p);
    case QRU_UPD_OP_ADD_ROWS:
        return qru_lsq_add_rows(f, c->k, c->U, c->e);
    case QRU_UPD_OP_MODIFY:
        return qru_lsq_modify(f, c->U, c->e);
    default:
        return c->q == QRU_Q_NONE
                   ? qru_lsq_remove_rows_data(f, c->k, c->U, c->e)
                   : qru_lsq_remove_rows(f, c->k, c->p);
    }
}

static const char *const opname[] = {"add_cols", "remove_cols", "add_rows",
                                     "remove_rows", "modify"};
static const char *const qname[] = {"full", "thin", "none"};
enum { NOPS = 5 };

/* Plans the case with algorithm alg (QRU_UPDATE_AUTO: both paths, the
 * faster expected), runs it and compares op by op. */
static void check_case(kase *c, int alg, const char *what)
{
    qru_lsq *f = c->f;
    int n0 = f->n, m0 = f->m;
    qru_plan pl, pr;
    int path = alg == QRU_UPDATE_REFACTOR && c->q != QRU_Q_NONE
                   ? QRU_PATH_REFACTOR
                   : QRU_PATH_UPDATE;
    qru_upd_req rq = kase_req(c, alg == QRU_UPDATE_AUTO ||
                                         alg == QRU_UPDATE_REFACTOR
                                     ? QRU_UPDATE_FAST
                                     : alg);
    ck_assert_int_eq(qru_context_sync(ctx), 0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    int pst = qru_upd_plan(ctx, f, &rq, path, &pl);
    ck_assert_msg(pst == 0, "%s: the plan failed (%d): %s", what, pst,
                  qru_last_error(ctx));
    if (alg == QRU_UPDATE_AUTO && c->q != QRU_Q_NONE) {
        ck_assert_int_eq(qru_upd_plan(ctx, f, &rq, QRU_PATH_REFACTOR, &pr), 0);
        if (qru_plan_seconds(&pr) < qru_plan_seconds(&pl)) {
            pl = pr;
            path = QRU_PATH_REFACTOR;
        }
    }
    /* a dry run queues nothing and leaves f as it was */
    qru_context_stats s;
    ck_assert_int_eq(qru_context_get_stats(ctx, &s), 0);
    ck_assert_msg(s.calls == 0 && s.host_waits == 0,
                  "%s: the dry runs queued %lld calls, %lld waits", what,
                  s.calls, s.host_waits);
    ck_assert(f->n == n0 && f->m == m0);
    /* the workspace the plan takes, held before the run (its growth
     * would add a wait) */
    qru_ptr ws;
    ck_assert_int_eq(qru_ctx_workspace(ctx, pl.ws_bytes, &ws), 0);
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, alg), 0);
    ck_assert_int_eq(kase_run(c), 0);
    ck_assert_int_eq(qru_lsq_last_update_path(f), path);
    ck_assert_int_eq(qru_context_get_stats(ctx, &s), 0);
    for (int op = 0; op < QRU_OP_COUNT; ++op)
        ck_assert_msg(qru_ctx_op_calls(ctx, (qru_op_id)op) == pl.calls[op],
                      "%s: %s: planned %lld calls, counted %lld", what,
                      qru_op_name((qru_op_id)op), pl.calls[op],
                      qru_ctx_op_calls(ctx, (qru_op_id)op));
    ck_assert_msg(s.host_waits == pl.host_waits,
                  "%s: planned %lld host waits, counted %lld", what,
                  pl.host_waits, s.host_waits);
}

/* The shapes: n, m, p (k: 0, middle, end). */
static const int shapes[][3] = {{60, 20, 1}, {90, 40, 7}, {120, 50, 20}};

static void check_op_form(qru_dtype dt, int op, int q, const char *tag)
{
    static const int algs[] = {QRU_UPDATE_FAST, QRU_UPDATE_DISSERTATION,
                               QRU_UPDATE_REFACTOR, QRU_UPDATE_AUTO};
    for (int sh = 0; sh < 3; ++sh) {
        int n = shapes[sh][0], m = shapes[sh][1], p = shapes[sh][2];
        int kmax = op == QRU_UPD_OP_ADD_COLS      ? m
                   : op == QRU_UPD_OP_REMOVE_COLS ? m - p
                   : op == QRU_UPD_OP_ADD_ROWS    ? n
                   : op == QRU_UPD_OP_MODIFY      ? 0
                                                  : n - p;
        for (int pos = 0; pos < 3; ++pos) {
            int k = pos == 0 ? 0 : pos == 1 ? kmax / 2 : kmax;
            for (size_t a = 0; a < sizeof algs / sizeof *algs; ++a) {
                char what[160];
                snprintf(what, sizeof what,
                         "%s%s %s n %d m %d p %d k %d alg %d", tag,
                         opname[op], qname[q], n, m, p, k, algs[a]);
                kase c = kase_new(dt, op, q, n, m, p, k);
                check_case(&c, algs[a], what);
                kase_free(&c);
            }
        }
    }
}

/* _i: operation x form (the modification has no Q-less form) */
START_TEST(test_plan_counts)
{
    int op = _i % NOPS, q = _i / NOPS;
    if (op == QRU_UPD_OP_MODIFY && q == QRU_Q_NONE)
        return;
    check_op_form(qru_test_dtype(ctx, qru_test_ndtypes(ctx) - 1), op, q, "");
}
END_TEST

/* Complex data (the complex type of the highest precision the backend
 * takes): where a backend's fused ops take real data only, they run their
 * reference ops for it, and the plans count those ops as the run does;
 * _i as in test_plan_counts. */
START_TEST(test_plan_complex)
{
    int op = _i % NOPS, q = _i / NOPS;
    if (op == QRU_UPD_OP_MODIFY && q == QRU_Q_NONE)
        return;
    qru_dtype dt = qru_context_supports(ctx, QRU_COMPLEX_DOUBLE)
                       ? QRU_COMPLEX_DOUBLE
                       : QRU_COMPLEX_FLOAT;
    if (!qru_context_supports(ctx, dt))
        return;
    check_op_form(dt, op, q, "complex ");
}
END_TEST

/* The Householder tiles always (2) and never (1); _i: (add columns,
 * remove rows) x (on, off) */
START_TEST(test_plan_tiles)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int on = _i % 2;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_UPDATE_TILES,
                                            on ? 2 : 1),
                     0);
    check_op_form(dt, _i / 2 ? QRU_UPD_OP_REMOVE_ROWS : QRU_UPD_OP_ADD_COLS,
                  QRU_Q_FULL, on ? "tiles on: " : "tiles off: ");
}
END_TEST

/* The modification and the row addition with look-ahead on and off;
 * _i: (modify, add rows) x (off, on) */
START_TEST(test_plan_lookahead)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int on = _i % 2;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_LOOKAHEAD, on),
                     0);
    check_op_form(dt, _i / 2 ? QRU_UPD_OP_ADD_ROWS : QRU_UPD_OP_MODIFY,
                  QRU_Q_THIN, on ? "lookahead on: " : "lookahead off: ");
}
END_TEST

/* The time of a known sequence under a model of round numbers: a gemm
 * (2 10^6 flops at 10^9 flop/s against 4 10^4 elements at 8 10^8 B/s:
 * the flops, 2 ms; with bandwidth 10^7 B/s the bytes), a copy (bytes
 * only), a download (a wait), 3 calls of 1 ms. */
static int known_sequence(qru_context *c, qru_lsq *f, const void *arg)
{
    (void)f;
    qru_dtype dt = *(const qru_dtype *)arg;
    qru_ptr ws;
    double h[8]; /* 4 elements of any type */
    int st = qru_ctx_workspace(c, 3 * 10000 * qru_dtype_size(dt), &ws);
    if (!st)
        st = c->ops->gemm(c, dt, 'N', 'N', 100, 100, 100, 1.0, ws, 100,
                          qru_ptr_add(ws, 10000), 100, 0.0,
                          qru_ptr_add(ws, 20000), 100);
    if (!st)
        st = c->ops->copy(c, dt, 100, 100, ws, 100, qru_ptr_add(ws, 10000),
                          100);
    if (!st)
        st = c->ops->download(c, dt, 1, 4, ws, 1, h, 1);
    return st;
}

START_TEST(test_plan_seconds)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    qru_cost_model *cm = &qru_ctx_tuning(ctx, dt)->cost;
    *cm = (qru_cost_model){.rate_upd = 1e9, .rate_qr = 1e9, .rate_gemm = 1e9,
                           .per_call = 1e-3, .bandwidth = 8e8,
                           .per_wait = 5e-3};
    double es = (double)qru_dtype_size(dt);
    qru_plan pl;
    ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
    ck_assert_int_eq(qru_plan_run(ctx, NULL, dt, known_sequence, &dt, &pl),
                     0);
    double want = 3e-3 + 2e-3 + 2e4 * es / 8e8 + 4.0 * es / 8e8 + 5e-3;
    ck_assert_msg(fabs(qru_plan_seconds(&pl) - want) <= 1e-12,
                  "plan seconds %.9g, want %.9g", qru_plan_seconds(&pl), want);
    ck_assert_int_eq(pl.calls[QRU_OP_gemm], 1);
    ck_assert_int_eq(pl.calls[QRU_OP_copy], 1);
    ck_assert_int_eq(pl.host_waits, 1);
    ck_assert(pl.ws_bytes == 3 * 10000 * qru_dtype_size(dt));
    ck_assert(pl.flops == 2e6);
    /* a slow memory: the gemm's bytes win */
    cm->bandwidth = 1e7;
    ck_assert_int_eq(qru_plan_run(ctx, NULL, dt, known_sequence, &dt, &pl),
                     0);
    want = 3e-3 + 3e4 * es / 1e7 + 2e4 * es / 1e7 + 4.0 * es / 1e7 + 5e-3;
    ck_assert_msg(fabs(qru_plan_seconds(&pl) - want) <= 1e-12,
                  "plan seconds %.9g, want %.9g", qru_plan_seconds(&pl), want);
    qru_context_stats s;
    ck_assert_int_eq(qru_context_get_stats(ctx, &s), 0);
    ck_assert(s.calls == 0 && s.host_waits == 0);
}
END_TEST

/* Complex data in the flop model (src/qru_flops.h, LAPACK's convention:
 * a complex multiply-add is 8 real flops): the plan of the known sequence
 * in a complex type counts 4 times the flops of its real type, and its
 * gemm takes 4 times as long at the same rate; and the plan of the
 * refactorisation (the vendor's QR, priced by its flops where they exceed
 * its latency) of an update counts 4 times its real flops where its ops
 * are the real plan's.  _i: the base type (float, double). */
START_TEST(test_plan_flops_complex)
{
    qru_dtype dr = _i ? QRU_DOUBLE : QRU_FLOAT;
    qru_dtype dz = _i ? QRU_COMPLEX_DOUBLE : QRU_COMPLEX_FLOAT;
    ck_assert(flops_type_factor(dr) == 1.0 && flops_type_factor(dz) == 4.0);
    if (!qru_context_supports(ctx, dr) || !qru_context_supports(ctx, dz))
        return;
    /* complex types use the tuning block (and cost model) of their base */
    qru_cost_model *cm = &qru_ctx_tuning(ctx, dr)->cost;
    ck_assert_ptr_eq(cm, &qru_ctx_tuning(ctx, dz)->cost);
    *cm = (qru_cost_model){.rate_upd = 1e9, .rate_qr = 1e9, .rate_gemm = 1e9,
                           .per_call = 1e-3, .bandwidth = 8e8,
                           .per_wait = 5e-3};
    qru_plan pr, pz;
    ck_assert_int_eq(qru_plan_run(ctx, NULL, dr, known_sequence, &dr, &pr),
                     0);
    ck_assert_int_eq(qru_plan_run(ctx, NULL, dz, known_sequence, &dz, &pz),
                     0);
    ck_assert_msg(pr.flops == 2e6 && pz.flops == 8e6,
                  "%s: %g flops, %s: %g (want 2e6 and 8e6)",
                  qru_test_type_name(dr), pr.flops, qru_test_type_name(dz),
                  pz.flops);
    /* the gemm: 8 ms against its 2 (its bytes, 4 10^4 elements of 16 or 8
     * bytes at 8 10^8 B/s, take less) */
    double es = (double)qru_dtype_size(dz);
    double want = 3e-3 + 8e-3 + 2e4 * es / 8e8 + 4.0 * es / 8e8 + 5e-3;
    ck_assert_msg(fabs(qru_plan_seconds(&pz) - want) <= 1e-12,
                  "plan seconds %.9g, want %.9g", qru_plan_seconds(&pz),
                  want);

    /* the refactorisation of an update (add columns, full Q), real and
     * complex, under a model whose latencies are 0: the vendor's QR is
     * priced by its flops, and every op counts 4 times the real flops.
     * Where the backend runs other ops for complex data (the reference
     * ops of its real-only fused ops, e.g. OpenCL's panels) the same
     * arithmetic is counted by other formulas: about 4 times. */
    const int n = 60, m = 20, p = 3;
    qru_plan pl[2];
    for (int c = 0; c < 2; ++c) {
        qru_dtype dt = c ? dz : dr;
        kase k = kase_new(dt, QRU_UPD_OP_ADD_COLS, QRU_Q_FULL, n, m, p, m / 2);
        qru_upd_req rq = kase_req(&k, QRU_UPDATE_FAST);
        ck_assert_int_eq(
            qru_upd_plan(ctx, k.f, &rq, QRU_PATH_REFACTOR, &pl[c]), 0);
        kase_free(&k);
    }
    int same = 1;
    for (int op = 0; op < QRU_OP_COUNT; ++op)
        same &= pl[0].calls[op] == pl[1].calls[op];
    double f0 = pl[0].flops, f1 = pl[1].flops;
    ck_assert_msg(f0 > 0.0 && (same ? fabs(f1 - 4.0 * f0) <= 1e-9 * f1
                                    : f1 >= 3.5 * f0 && f1 <= 4.5 * f0),
                  "refactorisation plan: %s %g flops, %s %g (want 4x; the "
                  "same ops: %d)",
                  qru_test_type_name(dr), f0, qru_test_type_name(dz), f1,
                  same);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("plan");
    TCase *tc = tcase_create("plan");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_plan_counts, 0, 3 * NOPS);
    tcase_add_loop_test(tc, test_plan_complex, 0, 3 * NOPS);
    tcase_add_loop_test(tc, test_plan_tiles, 0, 4);
    tcase_add_loop_test(tc, test_plan_lookahead, 0, 4);
    tcase_add_test(tc, test_plan_seconds);
    tcase_add_loop_test(tc, test_plan_flops_complex, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return qru_test_main(suite()); }
