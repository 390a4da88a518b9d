/*
 * Host references in double complex for the tests of complex data
 * (test_complex.c, test_lsq_batch_complex.c): conversions between a
 * type's host arrays, the context's matrices and double complex arrays,
 * and the scaled errors against LAPACKE's zgeqrf and zgels.  The includer
 * defines the context first (static qru_context *ctx; up_z uploads into
 * it).  Header-only (static functions) so that each test stays one
 * source file.
 */
#ifndef QRU_ZREF_H
#define QRU_ZREF_H

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "qru_test.h"

#undef I /* complex.h's imaginary unit */
typedef double complex zd;

/* Host arrays with room after their end: OpenBLAS's zgemv kernels (and
 * zgesvd through them) read up to 32 bytes past an array's last
 * element, which valgrind reports and which faults where the array ends
 * a mapping. */
static inline void *zmalloc(size_t bytes) { return malloc(bytes + 64); }
static inline void *zcalloc(size_t n, size_t size)
{
    return calloc(n + (64 + size - 1) / size, size);
}

/* rows x cols array of dt (ld lda) as double complex (ld rows) */
static inline zd *to_z(qru_dtype dt, int rows, int cols, const void *A, int lda)
{
    zd *Z = zcalloc((size_t)(rows > 0 ? rows : 1) * (cols > 0 ? cols : 1),
                   sizeof(zd));
    ck_assert_ptr_nonnull(Z);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double re, im;
            qru_test_get_c(dt, A, lda, i, j, &re, &im);
            Z[i + (size_t)j * rows] = re + im * _Complex_I;
        }
    return Z;
}

static inline double fro_z(int rows, int cols, const zd *A, int lda)
{
    double s = 0.0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double a = cabs(A[i + (size_t)j * lda]);
            s += a * a;
        }
    return sqrt(s);
}

/* random complex rows x cols of dt (values exact in dt) as both */
static inline zd *rand_z(qru_dtype dt, int rows, int cols, unsigned *seed,
                  void **host)
{
    int ld = rows > 0 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, h, ld, seed);
    zd *Z = to_z(dt, rows, cols, h, ld);
    if (host)
        *host = h;
    else
        free(h);
    return Z;
}

static inline qru_matrix *up_z(qru_dtype dt, int rows, int cols, const zd *Z)
{
    int ld = rows > 0 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            zd v = Z[i + (size_t)j * rows];
            qru_test_set_c(dt, h, ld, i, j, creal(v), cimag(v));
        }
    qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 0, h, ld);
    free(h);
    return M;
}

static inline zd *down_z(const qru_matrix *M)
{
    void *h = qru_test_download(M);
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    zd *Z = to_z(qru_matrix_dtype(M), rows, cols, h, rows > 1 ? rows : 1);
    free(h);
    return Z;
}

/* ||A - Q R||_F / (||A||_F max(n, m) eps), Q n x kq, R kq x m */
static inline double zbackward(qru_dtype dt, int n, int m, int kq, const zd *A,
                        const zd *Q, const zd *R)
{
    zd *D = zmalloc(sizeof(zd) * (size_t)n * m);
    ck_assert_ptr_nonnull(D);
    memcpy(D, A, sizeof(zd) * (size_t)n * m);
    zd one = 1.0, mone = -1.0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, kq, &mone,
                Q, n, R, kq, &one, D, n);
    double e = fro_z(n, m, D, n), a = fro_z(n, m, A, n);
    free(D);
    return e == 0.0 ? 0.0 : e / (a * (n > m ? n : m) * qru_test_eps(dt));
}

/* ||I - Q' Q||_F / (n eps), Q n x c */
static inline double zorth(qru_dtype dt, int n, int c, const zd *Q)
{
    zd *G = zcalloc((size_t)c * c, sizeof(zd));
    ck_assert_ptr_nonnull(G);
    for (int i = 0; i < c; ++i)
        G[i + (size_t)i * c] = 1.0;
    zd one = 1.0, mone = -1.0;
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, c, c, n, &mone,
                Q, n, Q, n, &one, G, c);
    double e = fro_z(c, c, G, c);
    free(G);
    return e / ((n > 1 ? n : 1) * qru_test_eps(dt));
}

/* max |R(i, j)| below the diagonal (must be exactly 0) */
static inline double zlower(int rows, int m, const zd *R)
{
    double mx = 0.0;
    for (int j = 0; j < m; ++j)
        for (int i = j + 1; i < rows; ++i)
            mx = fmax(mx, cabs(R[i + (size_t)j * rows]));
    return mx;
}

/* |R| against |LAPACKE zgeqrf's R| (m x m upper triangles; the same up
 * to the phases of the rows), scaled by ||A||_F max(n, m) eps */
static inline double zr_vs_lapack(qru_dtype dt, int n, int m, const zd *A,
                           const zd *R, int ldr)
{
    int k = n < m ? n : m;
    zd *W = zmalloc(sizeof(zd) * (size_t)n * m), *tau = zmalloc(sizeof(zd) * k);
    ck_assert(W && tau);
    memcpy(W, A, sizeof(zd) * (size_t)n * m);
    ck_assert_int_eq(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, n, m, W, n, tau), 0);
    double e = 0.0;
    for (int j = 0; j < m; ++j)
        for (int i = 0; i <= j && i < k; ++i)
            e = fmax(e, fabs(cabs(R[i + (size_t)j * ldr]) -
                             cabs(W[i + (size_t)j * n])));
    double a = fro_z(n, m, A, n);
    free(W);
    free(tau);
    return e == 0.0 ? 0.0 : e / (a * (n > m ? n : m) * qru_test_eps(dt));
}

/* x against LAPACKE zgels on A (n x m), b (n x r), scaled by the
 * condition of the problem (qru_test_lsq_errors' bound, kappa from
 * zgesvd); and the residual norms res against ||b - A xref|| */
static inline void zlsq_errors(qru_dtype dt, int n, int m, int r, const zd *A,
                        const zd *B, const zd *X, const double *res,
                        double *xerr, double *rerr)
{
    zd *W = zmalloc(sizeof(zd) * (size_t)n * m);
    zd *Bx = zmalloc(sizeof(zd) * (size_t)n * r);
    double *sv = zmalloc(sizeof(double) * m), *sup = zmalloc(sizeof(double) * m);
    ck_assert(W && Bx && sv && sup);
    memcpy(W, A, sizeof(zd) * (size_t)n * m);
    qru_test_zsvd(n, m, W, n, sv);
    double anorm = sv[0], kappa = sv[m - 1] > 0 ? sv[0] / sv[m - 1] : INFINITY;
    memcpy(W, A, sizeof(zd) * (size_t)n * m);
    memcpy(Bx, B, sizeof(zd) * (size_t)n * r);
    ck_assert_int_eq(LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', n, m, r, W, n, Bx,
                                   n),
                     0);
    double scale = (n > m ? n : m) * qru_test_eps(dt), xe = 0.0, re = 0.0;
    for (int j = 0; j < r; ++j) {
        const zd *xr = Bx + (size_t)j * n;
        double xn = cblas_dznrm2(m, xr, 1);
        double rn = n > m ? cblas_dznrm2(n - m, xr + m, 1) : 0.0;
        double bn = cblas_dznrm2(n, B + (size_t)j * n, 1);
        double dx = 0.0;
        for (int i = 0; i < m && X; ++i) {
            double d = cabs(X[i + (size_t)j * m] - xr[i]);
            dx += d * d;
        }
        double cond = kappa + (xn > 0 ? kappa * kappa * rn / (anorm * xn) : 0);
        double e = sqrt(dx) == 0.0 ? 0.0 : sqrt(dx) / (scale * cond * xn);
        xe = fmax(xe, e != e ? INFINITY : e);
        if (res) {
            double dr = fabs(res[j] - rn);
            double f = dr == 0.0 ? 0.0
                                 : dr / (scale * (bn + kappa * rn + anorm * xn));
            re = fmax(re, f != f ? INFINITY : f);
        }
    }
    *xerr = xe;
    *rerr = re;
    free(W);
    free(Bx);
    free(sv);
    free(sup);
}

#endif /* QRU_ZREF_H */
