/*
 * Host helpers of the Cholesky testers, written once for the scalar cs of
 * their references: double in test_chol.c, double complex in
 * test_chol_complex.c (the includer defines CHOL_CHECK_COMPLEX to 1 there,
 * else 0, and the context ctx first: QRU_TEST_FIXTURE).  Arrays of cs are
 * column-major with leading dimension their row count; ' is the conjugate
 * transpose (the transpose for a real cs).  The matrices of ctx hold a
 * type's host arrays (qru_test_alloc), whose entries outside what they
 * hold are sentinels (chol_sent), checked after each call.  Header-only
 * (static functions) so that each test stays one source file.
 */
#ifndef QRU_CHOL_CHECK_H
#define QRU_CHOL_CHECK_H

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

#ifndef CHOL_CHECK_COMPLEX
#error "define CHOL_CHECK_COMPLEX (0 or 1) before including chol_check.h"
#endif

#define THR QRU_TEST_THRESHOLD
/* The sentinels' base (an entry's is chol_sent) */
#define CHOL_SENT 777.0

static const char UPLOS[2] = {'L', 'U'};

/* ---- the scalar cs: its arithmetic, BLAS and LAPACKE --------------------- */

#if CHOL_CHECK_COMPLEX
#include <complex.h>
#undef I /* complex.h's imaginary unit */
typedef double complex zd;
typedef zd cs;
#define CS_CONJ(v) conj(v)

/* |v|^2 */
static inline double cs_abs2(cs v)
{
    double a = cabs(v);
    return a * a;
}

/* v rounded to the type dt (each part) */
static inline cs cs_round(qru_dtype dt, cs v)
{
    if (dt == QRU_COMPLEX_FLOAT)
        return (double)(float)creal(v) + (double)(float)cimag(v) * _Complex_I;
    return v;
}

/* the sentinel of entry (i, j) */
static inline cs chol_sent(int i, int j)
{
    return CHOL_SENT + i + (-55.0 + j) * _Complex_I;
}

static inline cs cs_get(qru_dtype dt, const void *h, int ld, int i, int j)
{
    double re, im;
    qru_test_get_c(dt, h, ld, i, j, &re, &im);
    return re + im * _Complex_I;
}

static inline void cs_set(qru_dtype dt, void *h, int ld, int i, int j, cs v)
{
    qru_test_set_c(dt, h, ld, i, j, creal(v), cimag(v));
}

/* a diagonal entry of a factor: real and positive */
static inline int cs_diag_ok(cs v) { return cimag(v) == 0.0 && creal(v) > 0.0; }

/* C := alpha A B' + beta C (A m x k, B n x k, C m x n) */
static inline void cs_gemm_nc(int m, int n, int k, double alpha, const cs *A,
                              int lda, const cs *B, int ldb, double beta, cs *C,
                              int ldc)
{
    cs za = alpha, zb = beta;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, n, k, &za, A,
                lda, B, ldb, &zb, C, ldc);
}

static inline int cs_potrf(int n, cs *A)
{
    return LAPACKE_zpotrf(LAPACK_COL_MAJOR, 'L', n,
                          (lapack_complex_double *)A, n);
}

/* the 1-norm of the Hermitian A (its lower triangle) */
static inline double cs_norm1(int n, const cs *A)
{
    return LAPACKE_zlanhe(LAPACK_COL_MAJOR, '1', 'L', n,
                          (const lapack_complex_double *)A, n);
}

static inline void cs_pocon(int n, cs *L, double anorm, double *rcond)
{
    LAPACKE_zpocon(LAPACK_COL_MAJOR, 'L', n, (lapack_complex_double *)L, n,
                   anorm, rcond);
}
#else
typedef double cs;
#define CS_CONJ(v) (v)

static inline double cs_abs2(cs v) { return v * v; }

static inline cs cs_round(qru_dtype dt, cs v)
{
    return dt == QRU_FLOAT ? (double)(float)v : v;
}

static inline cs chol_sent(int i, int j) { return CHOL_SENT + i + 0.5 * j; }

static inline cs cs_get(qru_dtype dt, const void *h, int ld, int i, int j)
{
    return qru_test_get(dt, h, ld, i, j);
}

static inline void cs_set(qru_dtype dt, void *h, int ld, int i, int j, cs v)
{
    qru_test_set(dt, h, ld, i, j, v);
}

static inline int cs_diag_ok(cs v) { return v > 0; }

static inline void cs_gemm_nc(int m, int n, int k, double alpha, const cs *A,
                              int lda, const cs *B, int ldb, double beta, cs *C,
                              int ldc)
{
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, n, k, alpha, A,
                lda, B, ldb, beta, C, ldc);
}

static inline int cs_potrf(int n, cs *A)
{
    return LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, A, n);
}

static inline double cs_norm1(int n, const cs *A)
{
    return LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, A, n);
}

static inline void cs_pocon(int n, cs *L, double anorm, double *rcond)
{
    LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, L, n, anorm, rcond);
}
#endif

/* ---- host arrays --------------------------------------------------------- */

/* n elements, zero, with room after their end (OpenBLAS's complex kernels
 * read a little past an array's last element) */
static inline cs *cs_alloc(size_t n) { return calloc(n + 8, sizeof(cs)); }

static inline cs *cs_dup(const cs *A, size_t n)
{
    cs *B = cs_alloc(n);
    memcpy(B, A, sizeof(cs) * n);
    return B;
}

/* free() of the n pointers that follow (NULL ones too) */
static inline void frees(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; ++i)
        free(va_arg(ap, void *));
    va_end(ap);
}

static inline double fro(int m, int n, const cs *A, int lda)
{
    double s = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
            s += cs_abs2(A[i + (size_t)j * lda]);
    return sqrt(s);
}

/* Host array of dt (ld x cols, every row written): src (ld rows) where
 * i < rows and (i, j) lies in the tri triangle of the rows x rows block
 * ('A': in any column); elsewhere the sentinels. */
static inline void *to_h(qru_dtype dt, int rows, int cols, int ld,
                         const cs *src, char tri)
{
    void *h = qru_test_alloc(dt, ld, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ld; ++i) {
            int in = i < rows && (tri == 'A' ||
                                  (j < rows && (tri == 'L' ? i >= j : i <= j)));
            cs_set(dt, h, ld, i, j,
                   in ? src[i + (size_t)j * rows] : chol_sent(i, j));
        }
    return h;
}

/* Bitwise comparison of the ld x cols host arrays of dt */
static inline int same_bits(qru_dtype dt, int ld, int cols, const void *a,
                            const void *b)
{
    return memcmp(a, b, qru_test_elsize(dt) * (size_t)ld * cols) == 0;
}

/* The uplo triangle of the n x n host array F (dt, ld) as a lower factor
 * L (n x n, zeros above). */
static inline cs *factor_lower(qru_dtype dt, int n, const void *F, int ld,
                               char uplo)
{
    cs *L = cs_alloc((size_t)n * n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i)
            L[i + (size_t)j * n] = uplo == 'L'
                                       ? cs_get(dt, F, ld, i, j)
                                       : CS_CONJ(cs_get(dt, F, ld, j, i));
    return L;
}

/* The entries of the ld x cols host array F outside the uplo triangle of
 * its leading n x n block still hold the sentinels of to_h(). */
static inline void check_sentinels(qru_dtype dt, int n, int ld, int cols,
                                   const void *F, char uplo, const char *tag)
{
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ld; ++i) {
            int in = i < n && j < n && (uplo == 'L' ? i >= j : i <= j);
            if (in)
                continue;
            ck_assert_msg(cs_get(dt, F, ld, i, j) ==
                              cs_round(dt, chol_sent(i, j)),
                          "%s: entry (%d,%d) outside the triangle changed",
                          tag, i, j);
        }
}

/* The diagonal of the factor L (n x n) is real and positive. */
static inline void check_diag(int n, const cs *L, const char *tag)
{
    for (int j = 0; j < n; ++j)
        ck_assert_msg(cs_diag_ok(L[j + (size_t)j * n]), "%s: diagonal (%d)",
                      tag, j);
}

/* ---- references (LAPACKE) and scaled errors ------------------------------ */

/* The potrf of A (n x n; lower, zeros above) in *Lout; returns its info. */
static inline int ref_chol(int n, const cs *A, cs **Lout)
{
    cs *L = cs_dup(A, (size_t)n * n);
    int info = n > 0 ? cs_potrf(n, L) : 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < j; ++i)
            L[i + (size_t)j * n] = 0;
    *Lout = L;
    return info;
}

/* 1-norm condition number of the positive definite A (pocon) */
static inline double kappa(int n, const cs *A)
{
    if (n == 0)
        return 1;
    cs *L = NULL;
    if (ref_chol(n, A, &L) != 0) {
        free(L);
        return INFINITY;
    }
    double rc = 0;
    cs_pocon(n, L, cs_norm1(n, A), &rc);
    free(L);
    return rc > 0 ? 1.0 / rc : INFINITY;
}

/* The errors of a factor L (n x n, lower) of the positive definite A after
 * a change of rank k (0: a factorisation): with m = max(n, k) (an entry of
 * an update's factor takes up to n + k rotations: m = 1 would ask a
 * rank-40 update of a 1 x 1 factor for one rounding's accuracy) the
 * backward error ||A - L L'||_F / (||A||_F m eps) and the forward error
 * against LAPACKE on the exact matrix, ||L - Lref||_F / (||Lref||_F m eps
 * kappa(A)) (scaled by its first-order bound). */
static inline double chol_backward(qru_dtype dt, int n, int k, const cs *A,
                                   const cs *L)
{
    if (n == 0)
        return 0;
    cs *E = cs_dup(A, (size_t)n * n);
    cs_gemm_nc(n, n, n, -1.0, L, n, L, n, 1.0, E, n);
    double r = fro(n, n, E, n) /
               (fro(n, n, A, n) * (n > k ? n : k) * qru_test_eps(dt));
    free(E);
    return r;
}

static inline double chol_forward(qru_dtype dt, int n, int k, const cs *A,
                                  const cs *L)
{
    if (n == 0)
        return 0;
    cs *R = NULL;
    ck_assert_int_eq(ref_chol(n, A, &R), 0);
    double d = 0;
    for (size_t e = 0; e < (size_t)n * n; ++e)
        d += cs_abs2(L[e] - R[e]);
    double r = sqrt(d) / (fro(n, n, R, n) * (n > k ? n : k) *
                          qru_test_eps(dt) * kappa(n, A));
    free(R);
    return r;
}

/* Both errors of chol_backward / chol_forward asserted below THR; returns
 * the larger. */
static inline double factor_error(qru_dtype dt, int n, int k, const cs *A,
                                  const cs *L, const char *tag)
{
    double be = chol_backward(dt, n, k, A, L);
    double fe = chol_forward(dt, n, k, A, L);
    ck_assert_msg(be <= THR, "%s: backward error %g", tag, be);
    ck_assert_msg(fe <= THR, "%s: forward error %g", tag, fe);
    return be > fe ? be : fe;
}

/* ---- matrices of ctx ----------------------------------------------------- */

/* A matrix of ctx over the whole ld x cols host array, and M its view of
 * the first rows rows (so that the padding can be checked) */
typedef struct pm {
    qru_matrix *P, *M;
    int rows, cols, ld;
} pm;

static inline pm pm_new(qru_dtype dt, int rows, int cols, int ld, const void *h)
{
    pm p = {NULL, NULL, rows, cols, ld};
    p.P = qru_test_upload(ctx, dt, ld, cols, ld, h, ld);
    ck_assert_int_eq(
        qru_matrix_wrap(ctx, dt, rows, cols, qru_matrix_data(p.P), ld, &p.M),
        0);
    return p;
}

static inline void pm_free(pm *p)
{
    qru_matrix_destroy(p->M);
    qru_matrix_destroy(p->P);
}

/* p's whole array (ld x cols) equals the host array h bit for bit */
static inline int pm_same(qru_dtype dt, const pm *p, const void *h)
{
    void *g = qru_test_download(p->P);
    int same = same_bits(dt, p->ld, p->cols, g, h);
    free(g);
    return same;
}

/* The factor (computed by qru_chol_factor) of the positive definite A (n x
 * n) as a matrix of ctx with leading dimension ld, the entries outside its
 * triangle the sentinels */
static inline pm make_factor(qru_dtype dt, int n, int ld, const cs *A,
                             char uplo)
{
    void *h = to_h(dt, n, n, ld, A, uplo);
    pm p = pm_new(dt, n, n, ld, h);
    free(h);
    int st = qru_chol_factor(ctx, uplo, p.M, QRU_CHOL_LEFT, 0);
    ck_assert_msg(st == 0, "factor: %d (%s)", st, qru_last_error(ctx));
    return p;
}

/* The factor held in p (uplo, order p->rows) as a lower L, after checking
 * the sentinels outside its triangle and its diagonal */
static inline cs *factor_of(qru_dtype dt, const pm *p, char uplo,
                            const char *tag)
{
    void *F = qru_test_download(p->P);
    check_sentinels(dt, p->rows, p->ld, p->cols, F, uplo, tag);
    cs *L = factor_lower(dt, p->rows, F, p->ld, uplo);
    check_diag(p->rows, L, tag);
    free(F);
    return L;
}

/* ---- the changed matrices ------------------------------------------------ */

/* A + sign W W' (n x n, W n x k) */
static inline cs *rank_k(int n, int k, const cs *A, const cs *W, int sign)
{
    cs *A1 = cs_dup(A, (size_t)n * n);
    if (k > 0)
        cs_gemm_nc(n, n, k, sign, W, n, W, n, 1.0, A1, n);
    return A1;
}

/* A1 (n1 x n1) without rows and columns k .. k+p-1 */
static inline cs *drop_block(int n1, const cs *A1, int k, int p)
{
    int n = n1 - p;
    cs *A = cs_alloc((size_t)n * n);
    for (int j = 0, jj = 0; j < n1; ++j) {
        if (j >= k && j < k + p)
            continue;
        for (int i = 0, ii = 0; i < n1; ++i) {
            if (i >= k && i < k + p)
                continue;
            A[ii++ + (size_t)jj * n] = A1[i + (size_t)j * n1];
        }
        ++jj;
    }
    return A;
}

/* C = A1(:, k:k+p-1) with its p x p block's other triangle (not uplo's)
 * poison, which an insertion must not read */
static inline cs *new_cols(int n1, const cs *A1, int k, int p, char uplo,
                           cs poison)
{
    cs *C = cs_alloc((size_t)n1 * p);
    for (int q = 0; q < p; ++q)
        for (int i = 0; i < n1; ++i) {
            int d = i - k;
            int other = d >= 0 && d < p && (uplo == 'L' ? d < q : d > q);
            C[i + (size_t)q * n1] =
                other ? poison : A1[i + (size_t)(k + q) * n1];
        }
    return C;
}

/* The permutation of qru_chol_shift (row and column i move to position j,
 * the ones between by one): perm[t] = the old index at new position t. */
static inline void shift_perm(int n, int i, int j, int *perm)
{
    for (int t = 0; t < n; ++t)
        perm[t] = t;
    if (i < j)
        for (int t = i; t <= j; ++t)
            perm[t] = t == j ? i : t + 1;
    else
        for (int t = j; t <= i; ++t)
            perm[t] = t == j ? i : t - 1;
}

/* A(perm, perm) of the n x n A */
static inline cs *permuted(int n, const cs *A, const int *perm)
{
    cs *B = cs_alloc((size_t)n * n);
    for (int c = 0; c < n; ++c)
        for (int r = 0; r < n; ++r)
            B[r + (size_t)c * n] = A[perm[r] + (size_t)perm[c] * n];
    return B;
}

#endif /* QRU_CHOL_CHECK_H */
