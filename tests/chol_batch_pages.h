/*
 * What the tests of the batched Cholesky routines share
 * (test_chol_batch.c: qru_chol_update_batch; chol_insdel_batch.c:
 * qru_chol_insert_batch and qru_chol_delete_batch): the context fixture,
 * a batch in one device array with its host image (the gaps between pages
 * and the padding hold sentinels, so that everything a call must not
 * write is compared bit for bit), one problem's reference factor and
 * scaled errors against LAPACKE, the check of the verdicts.
 * Header-only (static functions) so that each test stays one source file.
 */
#ifndef QRU_CHOL_BATCH_PAGES_H
#define QRU_CHOL_BATCH_PAGES_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

#define THR QRU_TEST_THRESHOLD
static const char UPLOS[2] = {'L', 'U'};

/* ---- a batch in one device array, and its host image ------------------ */

typedef struct bimg {
    qru_dtype dt;
    int rows, cols, ld, count;
    size_t stride, size; /* size: elements of the image */
    void *h;             /* the host image */
    qru_matrix *flat, *B; /* the device array and the batch over it */
} bimg;

/* A batch of count rows x cols pages, ld, stride (0: ld cols); every
 * element of the image a distinct sentinel until set. */
static bimg bimg_new(qru_dtype dt, int rows, int cols, int ld, int count,
                     size_t stride)
{
    bimg b = {dt, rows, cols, ld, count, stride ? stride : (size_t)ld * cols,
              0, NULL, NULL, NULL};
    b.size = count > 0 ? (count - 1) * b.stride + (size_t)ld * cols : 0;
    b.h = qru_test_alloc(dt, (int)(b.size > 0 ? b.size : 1), 1,
                         (int)(b.size > 0 ? b.size : 1));
    for (size_t e = 0; e < b.size; ++e)
        qru_test_set(dt, b.h, 1, (int)e, 0, 777.0 + (double)(e % 1000) / 8);
    return b;
}

static void *bimg_page(const bimg *b, int p)
{
    return (char *)b->h + (size_t)p * b->stride * qru_test_elsize(b->dt);
}

/* Uploads the image and wraps the batch over it. */
static void bimg_upload(bimg *b)
{
    int sz = b->size > 0 ? (int)b->size : 1;
    b->flat = qru_test_upload(ctx, b->dt, sz, 1, sz, b->h, sz);
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, b->dt, b->rows, b->cols,
                                           qru_matrix_data(b->flat), b->ld,
                                           b->count, (long long)b->stride,
                                           &b->B),
                     0);
    ck_assert_int_eq(qru_matrix_count(b->B), b->count);
    ck_assert(qru_matrix_stride(b->B) == (long long)b->stride);
}

static void *bimg_download(const bimg *b) { return qru_test_download(b->flat); }

static void bimg_free(bimg *b)
{
    qru_matrix_destroy(b->B);
    qru_matrix_destroy(b->flat);
    free(b->h);
}

/* 1 when the images a and b agree bit for bit except in the uplo
 * triangles of order tri (the leading tri x tri block) of the pages with
 * skip[p] set (skip NULL: everywhere). */
static int same_outside_n(const bimg *m, const void *a, const void *b,
                          char uplo, const int *skip, int tri)
{
    size_t es = qru_test_elsize(m->dt);
    for (size_t e = 0; e < m->size; ++e) {
        size_t p = e / m->stride, r = e % m->stride;
        int i = (int)(r % (size_t)m->ld), j = (int)(r / (size_t)m->ld);
        int in = skip && (int)p < m->count && skip[p] && j < tri &&
                 i < tri && (uplo == 'L' ? i >= j : i <= j);
        if (!in && memcmp((const char *)a + e * es, (const char *)b + e * es,
                          es) != 0)
            return 0;
    }
    return 1;
}

/* same_outside_n over the whole square pages */
static int same_outside(const bimg *m, const void *a, const void *b,
                        char uplo, const int *skip)
{
    return same_outside_n(m, a, b, uplo, skip, m->cols);
}

/* ---- one problem on the host ------------------------------------------- */

/* Lower factor (ld n, zeros above) of the SPD A by LAPACKE; its info. */
static int ref_chol(int n, const double *A, double *L)
{
    memcpy(L, A, sizeof(double) * (size_t)n * n);
    int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            L[i + (size_t)j * n] = 0;
    return info;
}

/* The uplo triangle of the page F (ld) as a lower factor (ld n). */
static void page_lower(qru_dtype dt, int n, const void *F, int ld, char uplo,
                       double *L)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            L[i + (size_t)j * n] =
                i < j ? 0
                      : (uplo == 'L' ? qru_test_get(dt, F, ld, i, j)
                                     : qru_test_get(dt, F, ld, j, i));
}

/* Stores the lower factor L (ld n) on the page F (ld) as uplo says. */
static void page_store(qru_dtype dt, int n, const double *L, void *F, int ld,
                       char uplo)
{
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double v = L[i + (size_t)j * n];
            if (uplo == 'L')
                qru_test_set(dt, F, ld, i, j, v);
            else
                qru_test_set(dt, F, ld, j, i, v);
        }
}

static double fro(int n, const double *A)
{
    double s = 0;
    for (size_t i = 0; i < (size_t)n * n; ++i)
        s += A[i] * A[i];
    return sqrt(s);
}

/* The scaled errors of the new factor L1 (lower, ld n) of A1 (ld n):
 * backward ||A1 - L1 L1'|| / (||A1|| n eps) and forward against
 * LAPACKE's factor, / (||Lref|| n eps kappa(A1)); the larger. */
static double check_problem(qru_dtype dt, int n, const double *A1,
                            const double *L1)
{
    double *E = malloc(sizeof(double) * (size_t)n * n);
    double *Lr = malloc(sizeof(double) * (size_t)n * n);
    memcpy(E, A1, sizeof(double) * (size_t)n * n);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1.0, L1, n,
                L1, n, 1.0, E, n);
    double eps = qru_test_eps(dt);
    double be = fro(n, E) / (fro(n, A1) * n * eps);
    ck_assert_int_eq(ref_chol(n, A1, Lr), 0);
    double an = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, A1, n), rc = 0;
    LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, Lr, n, an, &rc);
    for (size_t i = 0; i < (size_t)n * n; ++i)
        E[i] = L1[i] - Lr[i];
    double fe = fro(n, E) / (fro(n, Lr) * n * eps * (rc > 0 ? 1.0 / rc : 1e300));
    free(E);
    free(Lr);
    return be > fe ? be : fe;
}

/* The verdicts of a batch call: status st counts the problems with
 * want[b] != 0; info[b] = want[b] (> 0), within 1..maxcol (want < 0: a
 * non-finite problem), or 0; info[cnt] untouched; upd[b]: problem b was
 * written. */
static void check_verdicts(const char *tag, qru_context *c, int st,
                           int cnt, const int *want, const int *info,
                           int maxcol, int *upd)
{
    int nbad = 0;
    for (int b = 0; b < cnt; ++b)
        nbad += want[b] != 0;
    ck_assert_msg(st == nbad, "%s: status %d, want %d (%s)", tag, st, nbad,
                  qru_last_error(c));
    ck_assert_msg(info[cnt] == -77, "%s: info written past count", tag);
    for (int b = 0; b < cnt; ++b) {
        if (want[b] > 0)
            ck_assert_msg(info[b] == want[b], "%s: problem %d: info %d, "
                          "want %d", tag, b, info[b], want[b]);
        else if (want[b] < 0)
            ck_assert_msg(info[b] >= 1 && info[b] <= maxcol,
                          "%s: problem %d (non-finite): info %d", tag, b,
                          info[b]);
        else
            ck_assert_msg(info[b] == 0, "%s: problem %d: info %d", tag, b,
                          info[b]);
        upd[b] = want[b] == 0;
    }
}

/* The workspace for count problems of order n and rank k grown
 * beforehand (a growth waits for queued work): the call itself waits
 * once.  The verdicts and the per-problem ranks or mask of the _ex
 * calls, each aligned to 64 elements, ahead of the work. */
static void grow_ws(int n, int k, int count)
{
    qru_ptr wsp;
    ck_assert_int_eq(qru_ctx_workspace(ctx,
                                       ((size_t)count *
                                            (2 + qru_chol_batch_work(n, k)) +
                                        128) * sizeof(double),
                                       &wsp),
                     0);
}

#endif
