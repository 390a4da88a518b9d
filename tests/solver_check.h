/*
 * Helpers shared by the tests of the solvers on the updates (test_nnls.c,
 * test_lars.c): the context fixture (solver_context.h), host arrays in
 * double, their upload and download in the element type under test, and
 * the loop test that runs every (case, element type) pair.  Header-only (static functions) so that
 * each test stays one source file.
 */
#ifndef QRU_SOLVER_CHECK_H
#define QRU_SOLVER_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru_test.h"
#include "solver_context.h"

/* a rows x cols double array, column-major (ld = rows), zeroed */
static double *dmat(int rows, int cols)
{
    double *a = calloc((size_t)rows * (size_t)cols + 1, sizeof(double));
    ck_assert_ptr_nonnull(a);
    return a;
}

/* a's values rounded to dt (so that the host works on the uploaded
 * problem exactly) */
static void round_to(qru_dtype dt, double *a, size_t len)
{
    if (dt == QRU_FLOAT)
        for (size_t i = 0; i < len; ++i)
            a[i] = (double)(float)a[i];
}

/* a (rows x cols) as a matrix of type dt in the context c, NULL where c
 * does not compute in dt */
static qru_matrix *upload_in(qru_context *c, qru_dtype dt, int rows,
                             int cols, const double *a)
{
    if (!qru_context_supports(c, dt))
        return NULL;
    void *h = qru_test_from_double(dt, rows, cols, rows, a, rows, 'A', 0, 0);
    qru_matrix *M = qru_test_upload(c, dt, rows, cols, 0, h, rows);
    free(h);
    return M;
}

static qru_matrix *upload(qru_dtype dt, int rows, int cols,
                          const double *a)
{
    return upload_in(ctx, dt, rows, cols, a);
}

/* M's contents as doubles */
static double *fetch(const qru_matrix *M)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    qru_dtype dt = qru_matrix_dtype(M);
    void *h = qru_test_download(M);
    double *a = dmat(rows, cols);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            a[i + (size_t)j * rows] = qru_test_get(dt, h, rows, i, j);
    free(h);
    return a;
}

/* Bad-argument case c of routine: status st must be expect (-i), and the
 * message of the context c "routine: argument i". */
static inline void check_arg_status(const qru_context *c, const char *routine,
                                    size_t k, int st, int expect)
{
    const char *msg = qru_last_error(c);
    ck_assert_msg(st == expect, "%s case %zu: status %d, expected %d (%s)",
                  routine, k, st, expect, msg);
    char want[64];
    snprintf(want, sizeof want, "%s: argument %d", routine, -st);
    ck_assert_msg(strstr(msg, want) != NULL, "%s case %zu: message '%s'",
                  routine, k, msg);
}

/* A problem as a test holds it: A (n x m) and b (n x 1) in double,
 * rounded to the element type dt (the host then works on what was
 * uploaded). */
typedef struct prob {
    qru_dtype dt;
    int n, m;
    double *A, *b;
} prob;

/* A and b of uniform(-1, 1) entries */
static prob prob_rand(qru_dtype dt, int n, int m, unsigned *seed)
{
    prob p = {dt, n, m, dmat(n, m), dmat(n, 1)};
    for (size_t i = 0; i < (size_t)n * (size_t)m; ++i)
        p.A[i] = qru_test_urand(seed);
    for (int i = 0; i < n; ++i)
        p.b[i] = qru_test_urand(seed);
    return p;
}

/* after the caller changed A or b: round them to dt */
static void prob_round(prob *p)
{
    round_to(p->dt, p->A, (size_t)p->n * (size_t)p->m);
    round_to(p->dt, p->b, (size_t)p->n);
}

static void prob_free(prob *p)
{
    free(p->A);
    free(p->b);
}

/* The k-th (0 .. 5) problem with a non-finite entry: a random one of
 * p0's shape with a NaN, an infinity or a minus infinity (k / 2) in A
 * (k even) or in b (k odd). */
static prob prob_nonfinite(const prob *p0, int k, unsigned *seed)
{
    static const double bad[] = {NAN, INFINITY, -INFINITY};
    prob p = prob_rand(p0->dt, p0->n, p0->m, seed);
    if (k % 2)
        p.b[p.n - 1] = bad[k / 2];
    else
        p.A[3 + 2 * p.n] = bad[k / 2];
    return p;
}

/* A case: run on a random problem of its shape (rounded to the element
 * type), which it may change, with its variant v. */
typedef struct solver_case {
    void (*run)(prob *p, int v, unsigned *seed);
    int n, m, v;
} solver_case;

/* Loop index i of a suite: the case i / 2 of cases in the element type
 * i % 2 (nothing where the context has no such type), its problem drawn
 * from the seed seed0 + 17 i. */
static void solver_case_run(const solver_case *cases, int i, unsigned seed0)
{
    if (i % 2 >= qru_test_ndtypes(ctx))
        return;
    const solver_case *c = &cases[i / 2];
    unsigned seed = seed0 + 17u * (unsigned)i;
    prob p = prob_rand(qru_test_dtype(ctx, i % 2), c->n, c->m, &seed);
    prob_round(&p);
    c->run(&p, c->v, &seed);
    prob_free(&p);
}

/* The suite `name`: one loop test over [0, 2 ncases): the case i / 2 in
 * the element type i % 2, with the context fixture. */
static int solver_check_main(const char *name, const TTest *test,
                             int ncases)
{
    TCase *tc = tcase_create(name);
    tcase_add_loop_test(tc, test, 0, 2 * ncases);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    Suite *s = suite_create(name);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}

#endif
