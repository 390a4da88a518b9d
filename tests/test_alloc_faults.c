/*
 * Allocation-failure injection over every entry point of the CPU backend.
 *
 * The program is linked with a static copy of the library and
 * -Wl,--wrap=malloc,calloc,realloc,posix_memalign,aligned_alloc,free
 * (tests/CMakeLists.txt), so every host allocation of libqru (its device
 * allocations on the CPU backend included) goes through the wrappers below,
 * while those of OpenBLAS/LAPACKE and libc do not.  For each entry point and
 * N = 1, 2, 3, ... the N-th allocation of the call fails (mode "one"), or
 * the N-th and every later one (mode "all"), until the call makes fewer
 * than N allocations.  Each time:
 *   - the status is QRU_ERR_ALLOC (or 0 when the call recovered, with the
 *     same result as without the fault);
 *   - the caller's objects are bit-identical to before the call (matrices'
 *     buffers, R/Q/d of a least-squares object, a GP's data and factor)
 *     and a create call leaves its output pointer alone;
 *   - after everything is destroyed the number of live allocations is back
 *     to where it was (no leak; under ASan, LeakSanitizer checks again).
 * Both element types; the rank-k modification also with look-ahead on
 * (its larger workspace failing makes it run without the backup and copies
 * it would hold, to the same result).  Exit 0 when every check holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru.h"
#include "qru_internal.h" /* to empty a context's workspace pool */

/* the tests' one generator (tests/support/qru_rand.c) */
double qru_test_urand(unsigned *seed);

/* ---- the wrappers ---------------------------------------------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
int __real_posix_memalign(void **p, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
void __real_free(void *p);

static long fault_at;  /* 0: no faults; else the allocation that fails */
static int fault_all;  /* 1: every allocation after fault_at fails too */
static long nalloc;    /* allocations since arm() */
static int fired;      /* a fault was injected since arm() */
static long live;      /* allocations not yet freed */

static int fail_now(void)
{
    if (!fault_at)
        return 0;
    ++nalloc;
    if (nalloc == fault_at || (fault_all && nalloc > fault_at)) {
        fired = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size)
{
    void *p = fail_now() ? NULL : __real_malloc(size);
    live += p != NULL;
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = fail_now() ? NULL : __real_calloc(n, size);
    live += p != NULL;
    return p;
}

void *__wrap_realloc(void *old, size_t size)
{
    if (fail_now())
        return NULL;
    void *p = __real_realloc(old, size);
    live += (p != NULL) - (old != NULL && (p != NULL || size == 0));
    return p;
}

int __wrap_posix_memalign(void **out, size_t align, size_t size)
{
    if (fail_now())
        return 12; /* ENOMEM */
    int st = __real_posix_memalign(out, align, size);
    live += st == 0;
    return st;
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
    void *p = fail_now() ? NULL : __real_aligned_alloc(align, size);
    live += p != NULL;
    return p;
}

void __wrap_free(void *p)
{
    live -= p != NULL;
    __real_free(p);
}

static void arm(long n, int all)
{
    fault_at = n;
    fault_all = all;
    nalloc = 0;
    fired = 0;
}

static void disarm(void) { fault_at = 0; }

/* ---- test state ------------------------------------------------------------ */

static int failures;
#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        if (!(cond)) {                                                         \
            ++failures;                                                        \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
        }                                                                      \
    } while (0)

static void die(const char *what, int st)
{
    fprintf(stderr, "setup failed: %s = %d\n", what, st);
    exit(1);
}
#define OK(call)                                                               \
    do {                                                                       \
        int st_ = (call);                                                      \
        if (st_)                                                               \
            die(#call, st_);                                                   \
    } while (0)

/* Everything a case may create or hand to the call. */
typedef struct env {
    qru_context *ctx;
    qru_dtype dt;
    int keep_q, alg, variant;
    int empty_ws; /* start the call with an empty workspace pool */
    char uplo;
    qru_lsq *f;
    qru_gp *gp;
    qru_matrix *M[6];
    double hx[16], hy[16], hm[16], hv[16];
    qru_solver_info info; /* a solver's report */
    /* what a create call makes (NULL or the sentinel until it succeeds) */
    qru_context *new_ctx;
    qru_matrix *new_M;
    qru_lsq *new_f;
    qru_gp *new_gp;
} env;

static unsigned seed = 12345u;
static double urand(void) { return qru_test_urand(&seed); } /* (-1, 1) */

static size_t es_of(qru_dtype dt) { return dt == QRU_DOUBLE ? 8 : 4; }

/* a new rows x cols matrix of fresh random entries (ld = rows + 1) */
static qru_matrix *rand_mat(env *e, int rows, int cols)
{
    qru_matrix *M;
    OK(qru_matrix_create(e->ctx, e->dt, rows, cols, rows + 1, &M));
    size_t len = (size_t)(rows + 1) * (size_t)cols;
    for (size_t i = 0; i < len; ++i) {
        if (e->dt == QRU_DOUBLE)
            ((double *)qru_matrix_data(M))[i] = urand();
        else
            ((float *)qru_matrix_data(M))[i] = (float)urand();
    }
    return M;
}

/* a new n x n symmetric positive definite matrix B B' + n I */
static qru_matrix *spd_mat(env *e, int n)
{
    qru_matrix *A = rand_mat(e, n, n), *B = rand_mat(e, n, n);
    int ld = n + 1;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double v = i == j ? n : 0.0;
            for (int t = 0; t < n; ++t) {
                size_t a = (size_t)i + (size_t)t * ld, b = (size_t)j + (size_t)t * ld;
                v += e->dt == QRU_DOUBLE
                         ? ((double *)qru_matrix_data(B))[a] * ((double *)qru_matrix_data(B))[b]
                         : (double)((float *)qru_matrix_data(B))[a] * ((float *)qru_matrix_data(B))[b];
            }
            size_t o = (size_t)i + (size_t)j * ld;
            if (e->dt == QRU_DOUBLE)
                ((double *)qru_matrix_data(A))[o] = v;
            else
                ((float *)qru_matrix_data(A))[o] = (float)v;
        }
    qru_matrix_destroy(B);
    return A;
}

/* the lower Cholesky factor of a fresh SPD matrix, in place */
static qru_matrix *chol_mat(env *e, int n)
{
    qru_matrix *L = spd_mat(e, n);
    OK(qru_chol_factor(e->ctx, 'L', L, QRU_CHOL_LEFT, 0));
    return L;
}

static void lsq_new(env *e, int n, int m, int r)
{
    qru_matrix *A = rand_mat(e, n, m), *b = rand_mat(e, n, r);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = e->keep_q ? QRU_Q_FULL : QRU_Q_NONE;
    OK(qru_lsq_create(e->ctx, A, b, &opt, &e->f));
    OK(qru_lsq_set_update_algorithm(e->f, (qru_update_algorithm)e->alg));
    qru_matrix_destroy(A);
    qru_matrix_destroy(b);
}

static void gp_new(env *e, int n)
{
    for (int i = 0; i < 16; ++i) {
        e->hx[i] = 3.0 * urand();
        e->hy[i] = urand();
    }
    OK(qru_gp_create(e->ctx, e->dt, n, e->hx, e->hy, NULL, &e->gp));
    for (int i = 0; i < 16; ++i)
        e->hx[i] = 3.0 * urand();
}

/* ---- snapshots ----------------------------------------------------------- */

typedef struct blob {
    size_t len;
    unsigned char *p;
} blob;

typedef struct snap {
    blob b[16];
    int nb;
    int sizes[8];
} snap;

static void add_blob(snap *s, const void *p, size_t len)
{
    blob *b = &s->b[s->nb++];
    b->len = len;
    b->p = __real_malloc(len ? len : 1);
    if (len)
        memcpy(b->p, p, len);
}

static void add_part(snap *s, env *e, int rows, int cols,
                     int (*get)(const qru_lsq *, qru_matrix *))
{
    qru_matrix *M;
    OK(qru_matrix_create(e->ctx, e->dt, rows, cols, 0, &M));
    int st = get(e->f, M);
    if (st == 0)
        add_blob(s, qru_matrix_data(M),
                 (size_t)qru_matrix_ld(M) * (size_t)cols * es_of(e->dt));
    qru_matrix_destroy(M);
}

/* The caller-visible state of every object in e (taken unarmed). */
static void take(env *e, snap *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 6; ++i)
        if (e->M[i])
            add_blob(s, qru_matrix_data(e->M[i]),
                     (size_t)qru_matrix_ld(e->M[i]) *
                         (size_t)qru_matrix_cols(e->M[i]) * es_of(e->dt));
    if (e->f) {
        int n = qru_lsq_rows(e->f), m = qru_lsq_cols(e->f), r = qru_lsq_nrhs(e->f);
        s->sizes[0] = n;
        s->sizes[1] = m;
        s->sizes[2] = r;
        s->sizes[3] = qru_lsq_last_update_path(e->f);
        add_part(s, e, n, m, qru_lsq_get_r);
        add_part(s, e, n, r, qru_lsq_get_d);
        if (qru_lsq_has_q(e->f))
            add_part(s, e, n, n, qru_lsq_get_q);
    }
    if (e->gp) {
        int n = qru_gp_size(e->gp);
        double x[32], y[32];
        s->sizes[4] = n;
        OK(qru_gp_get_data(e->gp, x, y));
        add_blob(s, x, sizeof(double) * (size_t)n);
        add_blob(s, y, sizeof(double) * (size_t)n);
        qru_matrix *L;
        OK(qru_matrix_create(e->ctx, e->dt, n, n, 0, &L));
        OK(qru_gp_get_factor(e->gp, L));
        add_blob(s, qru_matrix_data(L),
                 (size_t)qru_matrix_ld(L) * (size_t)n * es_of(e->dt));
        qru_matrix_destroy(L);
    }
    add_blob(s, e->hm, sizeof e->hm);
    add_blob(s, e->hv, sizeof e->hv);
    add_blob(s, &e->info, sizeof e->info);
}

static int same(const snap *a, const snap *b)
{
    if (a->nb != b->nb || memcmp(a->sizes, b->sizes, sizeof a->sizes))
        return 0;
    for (int i = 0; i < a->nb; ++i)
        if (a->b[i].len != b->b[i].len ||
            memcmp(a->b[i].p, b->b[i].p, a->b[i].len))
            return 0;
    return 1;
}

static void drop(snap *s)
{
    for (int i = 0; i < s->nb; ++i)
        __real_free(s->b[i].p);
    s->nb = 0;
}

/* ---- the cases ---------------------------------------------------------- */

#define SENTINEL(T) ((T *)(uintptr_t)0x5a5a5a50u)

typedef struct tcase {
    const char *name;
    void (*setup)(env *); /* the context exists; make the inputs */
    int (*call)(env *);
} tcase;

static void s_none(env *e) { (void)e; }
static int c_context(env *e)
{
    return qru_context_create(QRU_BACKEND_CPU, &e->new_ctx);
}
static int c_matrix(env *e)
{
    return qru_matrix_create(e->ctx, e->dt, 9, 7, 0, &e->new_M);
}
static int c_wrap(env *e)
{
    return qru_matrix_wrap(e->ctx, e->dt, 4, 3, e->hx, 4, &e->new_M);
}
static void s_ab(env *e)
{
    e->M[0] = rand_mat(e, 12, 5);
    e->M[1] = rand_mat(e, 12, 2);
}
static int c_lsq_create(env *e)
{
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = e->keep_q ? QRU_Q_FULL : QRU_Q_NONE;
    return qru_lsq_create(e->ctx, e->M[0], e->M[1], &opt, &e->new_f);
}
static void s_qr(env *e)
{
    e->M[0] = rand_mat(e, 12, 12); /* Q: any square matrix will do */
    e->M[1] = rand_mat(e, 12, 5);
    e->M[2] = rand_mat(e, 12, 2);
}
static int c_from_qr(env *e)
{
    return qru_lsq_create_from_qr(e->ctx, e->keep_q ? e->M[0] : NULL, e->M[1],
                                  e->M[2], NULL, &e->new_f);
}
static int c_qr_factor(env *e)
{
    return qru_qr_factor(e->ctx, 0, e->M[1], e->M[0], e->M[2]);
}
static void s_lsq(env *e) { lsq_new(e, 12, 5, 2); }
static void s_lsq_cols(env *e)
{
    lsq_new(e, 12, 5, 2);
    e->M[0] = rand_mat(e, 12, 2);
}
static void s_lsq_rows(env *e)
{
    lsq_new(e, 12, 5, 2);
    e->M[0] = rand_mat(e, 3, 5);
    e->M[1] = rand_mat(e, 3, 2);
}
static int c_add_cols(env *e) { return qru_lsq_add_cols(e->f, 2, e->M[0]); }
static int c_remove_cols(env *e) { return qru_lsq_remove_cols(e->f, 1, 2); }
static int c_add_rows(env *e)
{
    return qru_lsq_add_rows(e->f, 4, e->M[0], e->M[1]);
}
static int c_remove_rows(env *e) { return qru_lsq_remove_rows(e->f, 3, 4); }
static void s_lsq_mod(env *e)
{
    lsq_new(e, 12, 5, 2);
    /* variant 1: look-ahead on (a backup of Q and d, or copies of them in
     * the thin form, in more workspace; without it where that fails) */
    if (e->variant)
        OK(qru_context_set_tuning(e->ctx, e->dt, QRU_TUNE_LOOKAHEAD, 1));
    e->M[0] = rand_mat(e, 12, 3);
    e->M[1] = rand_mat(e, 5, 3);
}
static int c_modify(env *e) { return qru_lsq_modify(e->f, e->M[0], e->M[1]); }
static int c_shift_left(env *e) { return qru_lsq_shift_cols(e->f, 1, 4); }
static int c_shift_right(env *e) { return qru_lsq_shift_cols(e->f, 4, 0); }
static void s_lsq_x(env *e)
{
    lsq_new(e, 12, 5, 2);
    e->M[0] = rand_mat(e, 5, 2);
}
static int c_solve(env *e) { return qru_lsq_solve(e->f, e->M[0]); }
static int c_residual(env *e) { return qru_lsq_get_residual_norms(e->f, e->hm); }
static void s_spd(env *e) { e->M[0] = spd_mat(e, 11); }
static int c_chol_factor(env *e)
{
    return qru_chol_factor(e->ctx, e->uplo, e->M[0], e->variant, e->variant == 1 ? 3 : 0);
}
static void s_chol_w(env *e)
{
    e->M[0] = chol_mat(e, 10);
    e->M[1] = rand_mat(e, 10, 2);
    /* a downdate by a small multiple stays positive definite */
    for (int i = 0; i < 11 * 2; ++i) {
        if (e->dt == QRU_DOUBLE)
            ((double *)qru_matrix_data(e->M[1]))[i] *= 0.1;
        else
            ((float *)qru_matrix_data(e->M[1]))[i] *= 0.1f;
    }
}
static int c_chol_update(env *e)
{
    return qru_chol_update(e->ctx, 'L', e->M[0], e->M[1], e->variant ? -1 : 1,
                           e->M[0]);
}
static void s_chol_ins(env *e)
{
    /* C = the columns 4..5 of an SPD matrix of order 12 whose other rows
     * and columns are factored in L */
    qru_matrix *A1 = spd_mat(e, 12);
    int ld = 13;
    e->M[0] = rand_mat(e, 10, 10);
    e->M[1] = rand_mat(e, 12, 2);
    e->M[2] = rand_mat(e, 12, 12);
    size_t es = es_of(e->dt);
    char *a = qru_matrix_data(A1), *L = qru_matrix_data(e->M[0]),
         *C = qru_matrix_data(e->M[1]);
    for (int j = 0, jj = 0; j < 12; ++j) {
        if (j == 4 || j == 5) {
            memcpy(C + (size_t)(j - 4) * ld * es, a + (size_t)j * ld * es, 12 * es);
            continue;
        }
        for (int i = 0, ii = 0; i < 12; ++i)
            if (i != 4 && i != 5)
                memcpy(L + ((size_t)ii++ + (size_t)jj * 11) * es,
                       a + ((size_t)i + (size_t)j * ld) * es, es);
        ++jj;
    }
    qru_matrix_destroy(A1);
    OK(qru_chol_factor(e->ctx, 'L', e->M[0], QRU_CHOL_LEFT, 0));
}
static int c_chol_insert(env *e)
{
    return qru_chol_insert(e->ctx, 'L', e->M[0], 4, e->M[1], e->M[2]);
}
static void s_chol_del(env *e)
{
    e->M[0] = chol_mat(e, 10);
    e->M[1] = rand_mat(e, 7, 7);
}
static int c_chol_delete(env *e)
{
    return qru_chol_delete(e->ctx, 'L', e->M[0], 2, 3, e->M[1]);
}
static void s_chol_shift(env *e)
{
    e->M[0] = chol_mat(e, 10);
    e->M[1] = rand_mat(e, 10, 10);
}
static int c_chol_shift_left(env *e)
{
    return qru_chol_shift(e->ctx, 'L', e->M[0], 2, 7, e->M[1]);
}
static int c_chol_shift_right(env *e)
{
    return qru_chol_shift(e->ctx, 'L', e->M[0], 8, 1, e->M[0]);
}
static void s_chol_b(env *e)
{
    e->M[0] = chol_mat(e, 10);
    e->M[1] = rand_mat(e, 10, 3);
}
static int c_chol_solve(env *e) { return qru_chol_solve(e->ctx, 'L', e->M[0], e->M[1]); }
static int c_trsm(env *e)
{
    return qru_trsm(e->ctx, 'L', 'L', 'T', 'N', 0.5, e->M[0], e->M[1]);
}
static void s_gp_data(env *e)
{
    for (int i = 0; i < 16; ++i) {
        e->hx[i] = 3.0 * urand();
        e->hy[i] = urand();
    }
}
static int c_gp_create(env *e)
{
    return qru_gp_create(e->ctx, e->dt, 9, e->hx, e->hy, NULL, &e->new_gp);
}
static void s_gp(env *e) { gp_new(e, 9); }
static int c_gp_insert(env *e) { return qru_gp_insert(e->gp, 3, 4, e->hx, e->hy); }
static int c_gp_remove(env *e) { return qru_gp_remove(e->gp, 2, 3); }
static int c_gp_predict(env *e) { return qru_gp_predict(e->gp, 5, e->hx, e->hm, e->hv); }
static int c_gp_lml(env *e) { return qru_gp_log_likelihood(e->gp, e->hm); }
/* a non-negative least-squares problem whose solve adds and removes
 * columns (qru_nnls): A 12 x 6, b, x and w */
static void s_nnls(env *e)
{
    e->M[0] = rand_mat(e, 12, 6);
    e->M[1] = rand_mat(e, 12, 1);
    e->M[2] = rand_mat(e, 6, 1);
    e->M[3] = rand_mat(e, 6, 1);
}
static int c_nnls(env *e)
{
    return qru_nnls(e->ctx, e->M[0], e->M[1], 0, -1.0, e->M[2], e->M[3],
                    &e->info);
}

/* orthogonal matching pursuit: X 12 x 20, y, coef, path 4 x 4; the
 * support in hm, the solver info in hv (both in the snapshots) */
static void s_omp(env *e)
{
    e->M[0] = rand_mat(e, 12, 20);
    e->M[1] = rand_mat(e, 12, 1);
    e->M[2] = rand_mat(e, 20, 1);
    e->M[3] = rand_mat(e, 4, 4);
}
static int c_omp(env *e)
{
    return qru_omp(e->ctx, e->M[0], e->M[1], 4, -1.0, e->M[2], e->M[3],
                   (int *)(void *)e->hm, (qru_solver_info *)(void *)e->hv);
}

static const tcase cases[] = {
    {"qru_context_create", s_none, c_context},
    {"qru_matrix_create", s_none, c_matrix},
    {"qru_matrix_wrap", s_none, c_wrap},
    {"qru_lsq_create", s_ab, c_lsq_create},
    {"qru_lsq_create_from_qr", s_qr, c_from_qr},
    {"qru_qr_factor", s_qr, c_qr_factor},
    {"qru_lsq_add_cols", s_lsq_cols, c_add_cols},
    {"qru_lsq_remove_cols", s_lsq, c_remove_cols},
    {"qru_lsq_add_rows", s_lsq_rows, c_add_rows},
    {"qru_lsq_remove_rows", s_lsq, c_remove_rows},
    {"qru_lsq_modify", s_lsq_mod, c_modify},
    {"qru_lsq_shift_cols", s_lsq, c_shift_left},
    {"qru_lsq_shift_cols (i > j)", s_lsq, c_shift_right},
    {"qru_lsq_solve", s_lsq_x, c_solve},
    {"qru_lsq_get_residual_norms", s_lsq, c_residual},
    {"qru_chol_factor", s_spd, c_chol_factor},
    {"qru_chol_update", s_chol_w, c_chol_update},
    {"qru_chol_insert", s_chol_ins, c_chol_insert},
    {"qru_chol_delete", s_chol_del, c_chol_delete},
    {"qru_chol_shift", s_chol_shift, c_chol_shift_left},
    {"qru_chol_shift (i > j, in place)", s_chol_shift, c_chol_shift_right},
    {"qru_chol_solve", s_chol_b, c_chol_solve},
    {"qru_trsm", s_chol_b, c_trsm},
    {"qru_gp_create", s_gp_data, c_gp_create},
    {"qru_gp_insert", s_gp, c_gp_insert},
    {"qru_gp_remove", s_gp, c_gp_remove},
    {"qru_gp_predict", s_gp, c_gp_predict},
    {"qru_gp_log_likelihood", s_gp, c_gp_lml},
    {"qru_nnls", s_nnls, c_nnls},
    {"qru_omp", s_omp, c_omp},
};

static void teardown(env *e)
{
    if (e->new_ctx && e->new_ctx != SENTINEL(qru_context))
        qru_context_destroy(e->new_ctx);
    if (e->new_M && e->new_M != SENTINEL(qru_matrix))
        qru_matrix_destroy(e->new_M);
    if (e->new_f && e->new_f != SENTINEL(qru_lsq))
        qru_lsq_destroy(e->new_f);
    if (e->new_gp && e->new_gp != SENTINEL(qru_gp))
        qru_gp_destroy(e->new_gp);
    qru_lsq_destroy(e->f);
    qru_gp_destroy(e->gp);
    for (int i = 0; i < 6; ++i)
        qru_matrix_destroy(e->M[i]);
    qru_context_destroy(e->ctx);
}

/* One run of a case: fault N (0: none) in the given mode.  Returns 1 if a
 * fault was injected, and fills *result with the state after the call. */
static int run(const tcase *tc, const char *cfg, env *proto, long N, int all,
               const snap *ref, int *ref_st, snap *result)
{
    env e = *proto;
    unsigned s0 = seed;
    long live0 = live;
    OK(qru_context_create(QRU_BACKEND_CPU, &e.ctx));
    tc->setup(&e);
    seed = s0; /* every run sees the same inputs */
    if (e.empty_ws && e.ctx->ws.h) {
        /* so that the call under test allocates its workspace itself */
        e.ctx->ops->mem_free(e.ctx, e.ctx->ws.h);
        e.ctx->ws.h = NULL;
        e.ctx->ws.bytes = 0;
    }
    snap before, after;
    take(&e, &before);
    /* a create call must leave its output alone when it fails */
    e.new_ctx = SENTINEL(qru_context);
    e.new_M = SENTINEL(qru_matrix);
    e.new_f = SENTINEL(qru_lsq);
    e.new_gp = SENTINEL(qru_gp);
    arm(N, all);
    int st = tc->call(&e);
    disarm();
    int inj = fired;
    take(&e, &after);
    char where[160];
    snprintf(where, sizeof where, "%s (%s): allocation %ld%s fails", tc->name,
             cfg, N, all ? " and later" : "");
    if (!inj) {
        if (N == 0)
            *ref_st = st;
        CHECK(st == *ref_st, "%s: no fault injected, status %d (expected %d)",
              where, st, *ref_st);
    } else if (st == QRU_ERR_ALLOC) {
        CHECK(same(&before, &after), "%s: returned QRU_ERR_ALLOC but changed "
              "the caller's objects", where);
        CHECK(e.new_ctx == SENTINEL(qru_context),
              "%s: failed but set *ctx", where);
        CHECK(e.new_M == SENTINEL(qru_matrix),
              "%s: failed but set *M", where);
        CHECK(e.new_f == SENTINEL(qru_lsq),
              "%s: failed but set *f", where);
        CHECK(e.new_gp == SENTINEL(qru_gp),
              "%s: failed but set *gp", where);
    } else if (st == *ref_st) {
        /* recovered from the failed allocation: the same result */
        CHECK(same(ref, &after), "%s: status %d but a result different from "
              "the run without faults", where, st);
    } else {
        CHECK(0, "%s: status %d, expected QRU_ERR_ALLOC (%d) or %d", where, st,
              QRU_ERR_ALLOC, *ref_st);
    }
    if (result)
        *result = after;
    else
        drop(&after);
    drop(&before);
    teardown(&e);
    seed = s0;
    CHECK(live == live0, "%s: %ld allocations leaked", where, live - live0);
    return inj;
}

static int run_case(const tcase *tc, const char *cfg, env *proto)
{
    snap ref;
    int ref_st = 0;
    run(tc, cfg, proto, 0, 0, NULL, &ref_st, &ref);
    int count = 0;
    for (int all = 0; all <= 1; ++all)
        for (long N = 1; N < 100000; ++N) {
            if (!run(tc, cfg, proto, N, all, &ref, &ref_st, NULL))
                break;
            if (!all)
                count = (int)N;
        }
    drop(&ref);
    printf("%-26s %-34s status %d, %d allocations each failed\n", tc->name, cfg,
           ref_st, count);
    return count;
}

int main(void)
{
    static const qru_dtype dts[] = {QRU_DOUBLE, QRU_FLOAT};
    int total = 0;
    for (int d = 0; d < 2; ++d) {
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            const tcase *tc = &cases[c];
            int upd = strstr(tc->name, "qr_update") != NULL;
            int lsq = upd || strstr(tc->name, "lsq");
            int chf = !strcmp(tc->name, "qru_chol_factor");
            int chu = !strcmp(tc->name, "qru_chol_update");
            int mod = !strcmp(tc->name, "qru_lsq_modify");
            for (int keep = 0; keep <= (lsq ? 1 : 0); ++keep)
                for (int alg = 0; alg <= (upd ? 2 : 0); ++alg)
                    for (int v = 0; v <= (chf ? 5 : chu || mod ? 1 : 0); ++v)
                    for (int ws = 0; ws <= 1; ++ws) {
                        static const int variants[] = {0, 1, 2, 16, 17, 18};
                        env e;
                        memset(&e, 0, sizeof e);
                        e.dt = dts[d];
                        e.keep_q = keep;
                        e.alg = alg;
                        e.uplo = (v & 1) ? 'U' : 'L';
                        e.variant = chf ? variants[v] : v;
                        e.empty_ws = ws;
                        char cfg[64];
                        snprintf(cfg, sizeof cfg, "%s q=%d alg=%d v=%d ws=%s",
                                 dts[d] == QRU_DOUBLE ? "double" : "float",
                                 keep, alg, e.variant, ws ? "empty" : "kept");
                        if (strstr(tc->name, "add_cols") || strstr(tc->name, "remove_rows"))
                            if (!keep)
                                continue; /* needs Q: no allocation to fail */
                        total += run_case(tc, cfg, &e);
                    }
        }
    }
    printf("%d injected faults in all, %d failed checks\n", total, failures);
    return failures ? 1 : 0;
}
