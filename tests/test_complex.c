/* Complex data (QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE): on a backend that
 * does not take it, every way in (create, wrap, batches, the GP's dtype)
 * returns QRU_ERR_UNSUPPORTED with the reason; on one that does, the
 * matrices move and copy bit for bit, and the routines that do not take
 * complex data yet return QRU_ERR_UNSUPPORTED and leave their arguments
 * bit-identical. */
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

static const qru_dtype ctypes[2] = {QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE};

/* the last error names the dtype */
static void assert_unsupported(int st, const char *what, const char *name)
{
    ck_assert_msg(st == QRU_ERR_UNSUPPORTED, "%s: %d, expected "
                  "QRU_ERR_UNSUPPORTED", what, st);
    const char *e = qru_last_error(ctx);
    ck_assert_msg(strstr(e, name) != NULL, "%s: message '%s' does not name "
                  "%s", what, e, name);
}

START_TEST(test_unsupported_backend)
{
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        const char *name = qru_test_type_name(dt);
        if (qru_context_supports(ctx, dt))
            continue;
        qru_matrix *M = NULL;
        double mem[8] = {0};
        assert_unsupported(qru_matrix_create(ctx, dt, 2, 2, 0, &M),
                           "qru_matrix_create", name);
        ck_assert_ptr_null(M);
        if (qru_context_backend(ctx) == QRU_BACKEND_CPU ||
            qru_context_backend(ctx) == QRU_BACKEND_CUDA)
            assert_unsupported(qru_matrix_wrap(ctx, dt, 2, 1, mem, 0, &M),
                               "qru_matrix_wrap", name);
        ck_assert_ptr_null(M);
        assert_unsupported(qru_matrix_create_batch(ctx, dt, 2, 2, 0, 3, 0,
                                                   &M),
                           "qru_matrix_create_batch", name);
        ck_assert_ptr_null(M);
        double x[2] = {0.0, 1.0}, y[2] = {1.0, 2.0};
        qru_gp *gp = NULL;
        int st = qru_gp_create(ctx, dt, 2, x, y, NULL, &gp);
        ck_assert_msg(st == QRU_ERR_UNSUPPORTED, "qru_gp_create: %d", st);
        ck_assert_ptr_null(gp);
    }
}
END_TEST

START_TEST(test_roundtrip)
{
    unsigned seed = 77u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        size_t es = qru_test_elsize(dt);
        ck_assert_int_eq((int)es, dt == QRU_COMPLEX_DOUBLE ? 16 : 8);
        int rows = 7, cols = 5, ld = 9;
        void *h = qru_test_alloc(dt, rows, cols, ld);
        qru_test_rand(dt, rows, cols, h, ld, &seed);
        qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 11, h, ld);
        ck_assert_int_eq(qru_matrix_dtype(M), dt);
        qru_matrix *B = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, rows, cols, 0, &B), 0);
        ck_assert_int_eq(qru_matrix_copy(M, B), 0);
        void *g = qru_test_download(B);
        for (int j = 0; j < cols; ++j)
            ck_assert_int_eq(memcmp((char *)g + es * (size_t)j * rows,
                                    (char *)h + es * (size_t)j * ld,
                                    es * (size_t)rows),
                             0);
        /* a float matrix does not pass for a complex float one */
        qru_matrix *F = NULL;
        qru_dtype base = dt == QRU_COMPLEX_DOUBLE ? QRU_DOUBLE : QRU_FLOAT;
        ck_assert_int_eq(qru_matrix_create(ctx, base, rows, cols, 0, &F), 0);
        ck_assert_int_eq(qru_matrix_copy(M, F), -2);
        /* wrapped host memory (the CPU backend's memory is the host's) */
        if (qru_context_backend(ctx) == QRU_BACKEND_CPU) {
            qru_matrix *W = NULL;
            ck_assert_int_eq(qru_matrix_wrap(ctx, dt, rows, cols, h, ld, &W),
                             0);
            ck_assert_ptr_eq(qru_matrix_data(W), h);
            ck_assert_int_eq(qru_matrix_copy(W, B), 0);
            qru_matrix_destroy(W);
        }
        /* the tuning of a complex type is its base type's */
        int v = -1, w = -2;
        ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_QR_NB, 24),
                         0);
        ck_assert_int_eq(qru_context_get_tuning(ctx, base, QRU_TUNE_QR_NB,
                                                &v),
                         0);
        ck_assert_int_eq(qru_context_get_tuning(ctx, dt, QRU_TUNE_QR_NB, &w),
                         0);
        ck_assert_int_eq(v, 24);
        ck_assert_int_eq(w, 24);
        ck_assert_int_eq(qru_context_set_tuning(ctx, (qru_dtype)5,
                                                QRU_TUNE_QR_NB, 24),
                         -2);
        qru_matrix_destroy(F);
        qru_matrix_destroy(B);
        qru_matrix_destroy(M);
        free(g);
        free(h);
    }
}
END_TEST

/* A square complex matrix of order n with a dominant diagonal (so that
 * the routines would have nothing numerical to refuse). */
static qru_matrix *cmat(qru_dtype dt, int rows, int cols, unsigned *seed,
                        void **host)
{
    int ld = rows > 0 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, h, ld, seed);
    for (int i = 0; i < rows && i < cols; ++i)
        qru_test_set_c(dt, h, ld, i, i, rows + 2.0, 0.0);
    qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 0, h, ld);
    *host = h;
    return M;
}

/* M still holds host (bit for bit) */
static void assert_same(const qru_matrix *M, const void *host, const char *w)
{
    void *g = qru_test_download(M);
    size_t es = qru_test_elsize(qru_matrix_dtype(M));
    size_t n = (size_t)qru_matrix_rows(M) * (size_t)qru_matrix_cols(M);
    ck_assert_msg(memcmp(g, host, es * n) == 0, "%s changed its argument", w);
    free(g);
}

START_TEST(test_unsupported_routines)
{
    unsigned seed = 99u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        const char *name = qru_test_type_name(dt);
        int n = 6;
        void *ha, *hw, *hb, *hl1, *hc;
        qru_matrix *A = cmat(dt, n, n, &seed, &ha);
        qru_matrix *W = cmat(dt, n, 2, &seed, &hw);
        qru_matrix *b = cmat(dt, n, 1, &seed, &hb);
        qru_matrix *L1 = cmat(dt, n, n, &seed, &hl1);
        qru_matrix *C = cmat(dt, n + 2, 2, &seed, &hc);
        qru_matrix *AB = NULL, *WB = NULL, *L2 = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n + 2, n + 2, 0, &L2), 0);
        ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, n,
                                               qru_matrix_data(A), n, 1, 0,
                                               &AB),
                         0);
        ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, 2,
                                               qru_matrix_data(W), n, 1, 0,
                                               &WB),
                         0);
        assert_unsupported(qru_chol_factor(ctx, 'L', A, 0, 0),
                           "qru_chol_factor", name);
        assert_unsupported(qru_trsm(ctx, 'L', 'L', 'N', 'N', 1.0, A, W),
                           "qru_trsm", name);
        assert_unsupported(qru_chol_solve(ctx, 'L', A, W), "qru_chol_solve",
                           name);
        assert_unsupported(qru_chol_update(ctx, 'L', A, W, 1, L1),
                           "qru_chol_update", name);
        assert_unsupported(qru_chol_insert(ctx, 'L', A, 1, C, L2),
                           "qru_chol_insert", name);
        assert_unsupported(qru_chol_delete(ctx, 'L', A, 1, 2, L1),
                           "qru_chol_delete", name);
        assert_unsupported(qru_chol_shift(ctx, 'L', A, 0, 3, L1),
                           "qru_chol_shift", name);
        int info = 0;
        assert_unsupported(qru_chol_update_batch(ctx, 'L', AB, WB, 1, AB,
                                                 &info),
                           "qru_chol_update_batch", name);
        qru_lsq_batch *fb = NULL;
        assert_unsupported(qru_lsq_batch_create(ctx, AB, NULL, &fb),
                           "qru_lsq_batch_create", name);
        ck_assert_ptr_null(fb);
        qru_matrix *x = NULL, *y = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 1, 0, &x), 0);
        assert_unsupported(qru_nnls(ctx, A, b, 0, -1.0, x, NULL, NULL),
                           "qru_nnls", name);
        assert_unsupported(qru_omp(ctx, A, b, 2, -1.0, x, NULL, NULL, NULL),
                           "qru_omp", name);
        (void)y;
        assert_same(A, ha, "a refused call");
        assert_same(W, hw, "a refused call");
        assert_same(L1, hl1, "a refused call");
        qru_matrix_destroy(x);
        qru_matrix_destroy(L2);
        qru_matrix_destroy(AB);
        qru_matrix_destroy(WB);
        qru_matrix_destroy(C);
        qru_matrix_destroy(L1);
        qru_matrix_destroy(b);
        qru_matrix_destroy(W);
        qru_matrix_destroy(A);
        free(ha);
        free(hw);
        free(hb);
        free(hl1);
        free(hc);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("complex");
    TCase *tc = tcase_create("complex");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_unsupported_backend);
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_unsupported_routines);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
