/* qru test support: see qru_test.h. */
#include "qru_test.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>
#ifdef QRU_HAVE_OPENCL
#include <CL/cl.h>
#endif

#include "qru_module.h"

qru_backend qru_test_backend(void)
{
    const char *s = getenv("QRU_TEST_BACKEND");
    if (!s || !*s || strcmp(s, "cpu") == 0)
        return QRU_BACKEND_CPU;
    if (strcmp(s, "cuda") == 0)
        return QRU_BACKEND_CUDA;
    if (strcmp(s, "opencl") == 0)
        return QRU_BACKEND_OPENCL;
    fprintf(stderr, "QRU_TEST_BACKEND=%s: expected cpu, cuda or opencl\n", s);
    exit(2);
}

qru_context *qru_test_context(void)
{
    qru_backend b = qru_test_backend();
    qru_context *ctx = NULL;
    int st = qru_context_create(b, &ctx);
    if (st == 0 && ctx)
        return ctx;
    /* skipped where the machine lacks the driver or the device; a module
     * that was built but is not found or does not load fails */
    const char *why = qru_last_error(NULL);
    if (b != QRU_BACKEND_CPU && st == QRU_ERR_BACKEND_UNAVAILABLE &&
        (qru_module_path(b)[0] || strstr(why, ": no "))) {
        printf("SKIP: %s: %s\n", qru_backend_name(b), why);
        fflush(stdout);
        exit(77);
    }
    fprintf(stderr, "FAIL: cannot create a %s context: %d (%s)\n",
            qru_backend_name(b), st, why);
    fflush(stderr);
    exit(1); /* a failure both inside a (forked or not) check and in main */
}

char *qru_test_env_set(const char *name, const char *value)
{
    const char *old = getenv(name);
    char *copy = old ? strdup(old) : NULL;
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    return copy;
}

void qru_test_env_restore(const char *name, char *old)
{
    if (old)
        setenv(name, old, 1);
    else
        unsetenv(name);
    free(old);
}

qru_context *qru_test_context_env(const char *var, const char *value)
{
    char *keep = qru_test_env_set(var, value);
    qru_context *ctx = qru_test_context();
    qru_test_env_restore(var, keep);
    return ctx;
}

qru_matrix *qru_test_alias(qru_context *ctx, const qru_matrix *M, size_t off,
                           int rows, int cols, int ld, int kind)
{
    qru_matrix *A = NULL;
    qru_dtype dt = M->dtype;
    size_t es = qru_test_elsize(dt), at = M->p.off + off;
    int st;
    if (kind == 0) {
        st = qru_matrix_view(ctx, dt, rows, cols, qru_ptr_add(M->p, off), ld,
                             &A);
    } else if (qru_context_backend(ctx) != QRU_BACKEND_OPENCL) {
        st = qru_matrix_wrap(ctx, dt, rows, cols, (char *)M->p.h + at * es,
                             ld, &A);
    } else {
#ifdef QRU_HAVE_OPENCL
        cl_mem buf = (cl_mem)M->p.h, sub;
        cl_context cc;
        cl_device_id dev;
        cl_uint align = 0; /* bits */
        size_t size = 0;
        cl_int err =
            clGetMemObjectInfo(buf, CL_MEM_CONTEXT, sizeof cc, &cc, NULL);
        ck_assert_int_eq(err, CL_SUCCESS);
        ck_assert_int_eq(clGetMemObjectInfo(buf, CL_MEM_SIZE, sizeof size,
                                            &size, NULL),
                         CL_SUCCESS);
        ck_assert_int_eq(clGetContextInfo(cc, CL_CONTEXT_DEVICES, sizeof dev,
                                          &dev, NULL),
                         CL_SUCCESS);
        ck_assert_int_eq(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN,
                                         sizeof align, &align, NULL),
                         CL_SUCCESS);
        size_t bytes = ((size_t)(cols - 1) * ld + (size_t)rows) * es;
        cl_buffer_region reg = {at * es, bytes};
        if (at * es % (align / 8) != 0 || reg.origin + bytes > size)
            return NULL;
        sub = clCreateSubBuffer(buf, CL_MEM_READ_WRITE,
                                CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
        ck_assert_int_eq(err, CL_SUCCESS);
        st = qru_matrix_wrap(ctx, dt, rows, cols, sub, ld, &A);
#else
        return NULL;
#endif
    }
    ck_assert_int_eq(st, 0);
    return A;
}

void qru_test_alias_free(qru_matrix *A, int kind)
{
    void *h = qru_matrix_data(A);
    qru_context *ctx = A ? A->ctx : NULL;
    qru_matrix_destroy(A);
#ifdef QRU_HAVE_OPENCL
    if (A && kind == 1 && qru_context_backend(ctx) == QRU_BACKEND_OPENCL)
        clReleaseMemObject((cl_mem)h);
#else
    (void)h;
    (void)ctx;
    (void)kind;
#endif
}

/* 1 for the complex types */
static int cplx(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE;
}

double qru_test_eps(qru_dtype dt)
{
    return dt == QRU_DOUBLE || dt == QRU_COMPLEX_DOUBLE
               ? DBL_EPSILON / 2
               : (double)FLT_EPSILON / 2;
}

size_t qru_test_elsize(qru_dtype dt)
{
    size_t s = dt == QRU_DOUBLE || dt == QRU_COMPLEX_DOUBLE ? sizeof(double)
                                                            : sizeof(float);
    return cplx(dt) ? 2 * s : s;
}

void *qru_test_alloc(qru_dtype dt, int rows, int cols, int ld)
{
    (void)rows;
    size_t n = (size_t)(ld > 0 ? ld : 1) * (size_t)(cols > 0 ? cols : 1);
    /* + 8: room for OpenBLAS's complex gemv kernels, which read up to 32
     * bytes past an array (the references in double complex) */
    void *p = calloc(n + 8, qru_test_elsize(dt));
    ck_assert_msg(p != NULL, "out of host memory");
    return p;
}

void qru_test_rand(qru_dtype dt, int rows, int cols, void *A, int lda,
                   unsigned *seed)
{
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double re = qru_test_urand(seed);
            if (cplx(dt))
                qru_test_set_c(dt, A, lda, i, j, re, qru_test_urand(seed));
            else
                qru_test_set(dt, A, lda, i, j, re);
        }
}

double *qru_test_spd(int n, int extra, double shift, unsigned *seed)
{
    int m = n + extra;
    double *G = malloc(sizeof(double) * (size_t)n * (m > 0 ? m : 1) + 8);
    double *A = calloc((size_t)n * n + 1, sizeof(double));
    if (!G || !A)
        ck_abort_msg("qru_test_spd: out of memory");
    for (size_t i = 0; i < (size_t)n * m; ++i)
        G[i] = qru_test_urand(seed);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double s = 0;
            for (int t = 0; t < m; ++t)
                s += G[i + (size_t)t * n] * G[j + (size_t)t * n];
            A[i + (size_t)j * n] = A[j + (size_t)i * n] =
                s / (m > 0 ? m : 1) + (i == j ? shift : 0.0);
        }
    free(G);
    return A;
}

void *qru_test_from_double(qru_dtype dt, int rows, int cols, int ld,
                           const double *src, int lds, char tri, double sent,
                           double step)
{
    void *h = qru_test_alloc(dt, ld, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < ld; ++i) {
            int in = i < rows && (tri == 'A' || (j < rows && tri == 'L' &&
                                                 i >= j) ||
                                  (j < rows && tri == 'U' && i <= j));
            qru_test_set(dt, h, ld, i, j,
                         in ? src[i + (size_t)j * lds] : sent + i + step * j);
        }
    return h;
}

double qru_test_get(qru_dtype dt, const void *A, int lda, int i, int j)
{
    double re, im;
    qru_test_get_c(dt, A, lda, i, j, &re, &im);
    return re;
}

void qru_test_set(qru_dtype dt, void *A, int lda, int i, int j, double v)
{
    qru_test_set_c(dt, A, lda, i, j, v, 0.0);
}

void qru_test_get_c(qru_dtype dt, const void *A, int lda, int i, int j,
                    double *re, double *im)
{
    size_t k = (size_t)i + (size_t)j * (size_t)lda;
    if (cplx(dt))
        k *= 2;
    *im = 0.0;
    if (dt == QRU_DOUBLE || dt == QRU_COMPLEX_DOUBLE) {
        *re = ((const double *)A)[k];
        if (cplx(dt))
            *im = ((const double *)A)[k + 1];
    } else {
        *re = (double)((const float *)A)[k];
        if (cplx(dt))
            *im = (double)((const float *)A)[k + 1];
    }
}

void qru_test_set_c(qru_dtype dt, void *A, int lda, int i, int j, double re,
                    double im)
{
    size_t k = (size_t)i + (size_t)j * (size_t)lda;
    if (cplx(dt))
        k *= 2;
    if (dt == QRU_DOUBLE || dt == QRU_COMPLEX_DOUBLE) {
        ((double *)A)[k] = re;
        if (cplx(dt))
            ((double *)A)[k + 1] = im;
    } else {
        ((float *)A)[k] = (float)re;
        if (cplx(dt))
            ((float *)A)[k + 1] = (float)im;
    }
}

qru_matrix *qru_test_upload(qru_context *ctx, qru_dtype dt, int rows,
                            int cols, int ld, const void *host, int ldh)
{
    qru_matrix *M = NULL;
    int st = qru_matrix_create(ctx, dt, rows, cols, ld, &M);
    ck_assert_msg(st == 0 && M, "qru_matrix_create(%d x %d, ld %d): %d (%s)",
                  rows, cols, ld, st, qru_strerror(st));
    st = qru_matrix_upload(M, host, ldh);
    ck_assert_msg(st == 0, "qru_matrix_upload(%d x %d): %d (%s)", rows, cols,
                  st, qru_strerror(st));
    return M;
}

void *qru_test_download(const qru_matrix *M)
{
    ck_assert_ptr_nonnull(M);
    qru_dtype dt = qru_matrix_dtype(M);
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    int ld = rows > 1 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    int st = qru_matrix_download(M, h, ld);
    ck_assert_msg(st == 0, "qru_matrix_download(%d x %d): %d (%s)", rows, cols,
                  st, qru_strerror(st));
    return h;
}

/* ---- reference checks ---- */

/* rows x cols copy of A in double with leading dimension max(1, rows). */
static double *to_double(qru_dtype dt, int rows, int cols, const void *A,
                         int lda)
{
    int ld = rows > 1 ? rows : 1;
    double *D = qru_test_alloc(QRU_DOUBLE, rows, cols, ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            D[i + (size_t)j * ld] = qru_test_get(dt, A, lda, i, j);
    return D;
}

/* Frobenius norm, scaled so that it neither overflows nor underflows */
static double fro(int rows, int cols, const double *A, int lda)
{
    double mx = 0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double v = fabs(A[i + (size_t)j * lda]);
            if (v > mx || v != v)
                mx = v;
        }
    if (mx == 0 || mx != mx || isinf(mx))
        return mx;
    double s = 0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double v = A[i + (size_t)j * lda] / mx;
            s += v * v;
        }
    return mx * sqrt(s);
}

static double maxd(double a, double b) { return a > b ? a : b; }

/* A complex type's rows x cols array as double complex (interleaved
 * (re, im) doubles, ld max(1, rows)): the rows 2 rows x cols double array
 * whose Frobenius norm is the complex array's. */
static double *to_zdouble(qru_dtype dt, int rows, int cols, const void *A,
                          int lda)
{
    int ld = rows > 1 ? rows : 1;
    double *Z = qru_test_alloc(QRU_DOUBLE, 2 * ld, cols, 2 * ld);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            qru_test_get_c(dt, A, lda, i, j, &Z[2 * (i + (size_t)j * ld)],
                           &Z[2 * (i + (size_t)j * ld) + 1]);
    return Z;
}

/* ||A - Q R||_F / (||A||_F max(n, m) eps), Q n x kq, R kq x m. */
static double backward_error(qru_dtype dt, int n, int m, int kq, const void *A,
                             int lda, const void *Q, int ldq, const void *R,
                             int ldr)
{
    if (n == 0 || m == 0)
        return 0.0;
    double na, e;
    if (cplx(dt)) {
        double *Az = to_zdouble(dt, n, m, A, lda);
        double *Qz = to_zdouble(dt, n, kq, Q, ldq);
        double *Rz = to_zdouble(dt, kq, m, R, ldr);
        double one[2] = {1.0, 0.0}, mone[2] = {-1.0, 0.0};
        na = fro(2 * n, m, Az, 2 * n);
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, kq, mone,
                    Qz, n, Rz, kq, one, Az, n);
        e = fro(2 * n, m, Az, 2 * n);
        free(Az);
        free(Qz);
        free(Rz);
        if (e == 0.0)
            return 0.0;
        return na > 0.0 ? e / (na * (double)(n > m ? n : m) * qru_test_eps(dt))
                        : INFINITY;
    }
    double *Ad = to_double(dt, n, m, A, lda);
    double *Qd = to_double(dt, n, kq, Q, ldq);
    double *Rd = to_double(dt, kq, m, R, ldr);
    na = fro(n, m, Ad, n);
    /* Ad := Ad - Qd Rd */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, m, kq, -1.0, Qd,
                n, Rd, kq, 1.0, Ad, n);
    e = fro(n, m, Ad, n);
    free(Ad);
    free(Qd);
    free(Rd);
    if (e == 0.0)
        return 0.0;
    if (!(na > 0.0))
        return INFINITY;
    return e / (na * (double)(n > m ? n : m) * qru_test_eps(dt));
}

double qru_test_backward_error(qru_dtype dt, int n, int m, const void *A,
                               int lda, const void *Q, int ldq, const void *R,
                               int ldr)
{
    return backward_error(dt, n, m, n, A, lda, Q, ldq, R, ldr);
}

double qru_test_backward_error_econ(qru_dtype dt, int n, int m,
                                    const void *A, int lda, const void *Q1,
                                    int ldq, const void *R, int ldr)
{
    return backward_error(dt, n, m, m, A, lda, Q1, ldq, R, ldr);
}

double qru_test_orth_error_cols(qru_dtype dt, int n, int c, const void *Q,
                                int ldq)
{
    if (n == 0 || c == 0)
        return 0.0;
    if (cplx(dt)) { /* ||I - Q' Q||_F, ' the conjugate transpose */
        double *Qz = to_zdouble(dt, n, c, Q, ldq);
        double *Iz = qru_test_alloc(QRU_DOUBLE, 2 * c, c, 2 * c);
        for (int i = 0; i < c; ++i)
            Iz[2 * (i + (size_t)i * c)] = 1.0;
        double one[2] = {1.0, 0.0}, mone[2] = {-1.0, 0.0};
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, c, c, n,
                    mone, Qz, n, Qz, n, one, Iz, c);
        double e = fro(2 * c, c, Iz, 2 * c);
        free(Qz);
        free(Iz);
        return e / ((double)n * qru_test_eps(dt));
    }
    double *Qd = to_double(dt, n, c, Q, ldq);
    double *Id = qru_test_alloc(QRU_DOUBLE, c, c, c);
    for (int i = 0; i < c; ++i)
        Id[i + (size_t)i * c] = 1.0;
    cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, c, c, n, -1.0, Qd, n,
                Qd, n, 1.0, Id, c);
    double e = fro(c, c, Id, c);
    free(Qd);
    free(Id);
    return e / ((double)n * qru_test_eps(dt));
}

double qru_test_orth_error(qru_dtype dt, int n, const void *Q, int ldq)
{
    return qru_test_orth_error_cols(dt, n, n, Q, ldq);
}

double qru_test_lower_max(qru_dtype dt, int n, int m, const void *R, int ldr)
{
    double mx = 0.0;
    for (int j = 0; j < m; ++j)
        for (int i = j + 1; i < n; ++i) {
            double re, im;
            qru_test_get_c(dt, R, ldr, i, j, &re, &im);
            double v = hypot(re, im);
            if (v > mx || v != v)
                mx = v != v ? INFINITY : v;
        }
    return mx;
}

double qru_test_diff(qru_dtype dt, int rows, int cols, const void *A, int lda,
                     const void *B, int ldb)
{
    double d = 0.0, b = 0.0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            double xr, xi, yr, yi;
            qru_test_get_c(dt, A, lda, i, j, &xr, &xi);
            qru_test_get_c(dt, B, ldb, i, j, &yr, &yi);
            double e = hypot(xr - yr, xi - yi);
            if (e != e)
                return INFINITY;
            d = maxd(d, e);
            b = maxd(b, hypot(yr, yi));
        }
    if (d == 0.0)
        return 0.0;
    if (b == 0.0)
        return INFINITY;
    return d / (b * (double)(rows > cols ? rows : cols) * qru_test_eps(dt));
}

void qru_test_zsvd(int n, int m, const void *A, int lda, double *s)
{
    /* M = [B -C; C B] for A = B + i C: each singular value of A twice */
    const double *a = A;
    size_t n2 = 2 * (size_t)n, m2 = 2 * (size_t)m;
    int k = n < m ? n : m;
    double *M = malloc(sizeof(double) * n2 * m2);
    double *s2 = malloc(sizeof(double) * 2 * (size_t)k);
    double *sup = malloc(sizeof(double) * 2 * (size_t)k);
    ck_assert(M && s2 && sup);
    for (int j = 0; j < m; ++j)
        for (int i = 0; i < n; ++i) {
            double re = a[2 * ((size_t)i + (size_t)j * lda)],
                   im = a[2 * ((size_t)i + (size_t)j * lda) + 1];
            M[i + j * n2] = re;
            M[i + n + (j + m) * n2] = re;
            M[i + n + j * n2] = im;
            M[i + (j + m) * n2] = -im;
        }
    lapack_int info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', 2 * n,
                                     2 * m, M, 2 * n, s2, NULL, 1, NULL, 1,
                                     sup);
    ck_assert_msg(info == 0, "qru_test_zsvd: LAPACKE_dgesvd info %d",
                  (int)info);
    for (int i = 0; i < k; ++i)
        s[i] = s2[2 * i];
    free(M);
    free(s2);
    free(sup);
}

double qru_test_cond2(qru_dtype dt, int n, int m, const void *A, int lda,
                      double *norm2)
{
    ck_assert_msg(n >= m && m >= 1, "qru_test_cond2: needs n >= m >= 1");
    double *As = cplx(dt) ? to_zdouble(dt, n, m, A, lda)
                          : to_double(dt, n, m, A, lda);
    double *s = malloc(sizeof(double) * (size_t)m);
    double *superb = malloc(sizeof(double) * (size_t)(m > 1 ? m : 1));
    ck_assert(s && superb);
    lapack_int info = 0;
    if (cplx(dt))
        qru_test_zsvd(n, m, As, n, s);
    else
        info = LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', n, m, As, n, s,
                              NULL, 1, NULL, 1, superb);
    ck_assert_msg(info == 0, "LAPACKE_dgesvd: info %d", (int)info);
    if (norm2)
        *norm2 = s[0];
    double kappa = s[m - 1] > 0 ? s[0] / s[m - 1] : INFINITY;
    free(As);
    free(s);
    free(superb);
    return kappa;
}

void qru_test_lsq_errors(qru_dtype dt, int n, int m, int r, const void *A,
                         int lda, const void *B, int ldb, const void *X,
                         int ldx, const double *res, double *xerr,
                         double *rerr)
{
    ck_assert_msg(n >= m && m >= 1 && r >= 1,
                  "qru_test_lsq_errors: needs n >= m >= 1, r >= 1");
    double eps = qru_test_eps(dt);
    double scale = (double)(n > m ? n : m) * eps;
    int c = cplx(dt), w = c ? 2 : 1; /* doubles an element */
    double *Ad = c ? to_zdouble(dt, n, m, A, lda) : to_double(dt, n, m, A, lda);
    double *Bd = c ? to_zdouble(dt, n, r, B, ldb) : to_double(dt, n, r, B, ldb);
    double *Bn = malloc(sizeof(double) * (size_t)r);
    ck_assert_ptr_nonnull(Bn);
    for (int j = 0; j < r; ++j)
        Bn[j] = c ? cblas_dznrm2(n, Bd + (size_t)w * j * n, 1)
                  : cblas_dnrm2(n, Bd + (size_t)j * n, 1);

    double anorm;
    double kappa = qru_test_cond2(dt, n, m, A, lda, &anorm);

    /* reference: Bd := [xref; rref-coefficients] with gels */
    lapack_int info =
        c ? LAPACKE_zgels(LAPACK_COL_MAJOR, 'N', n, m, r,
                          (lapack_complex_double *)Ad, n,
                          (lapack_complex_double *)Bd, n)
          : LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', n, m, r, Ad, n, Bd, n);
    ck_assert_msg(info == 0, "LAPACKE_?gels: info %d", (int)info);

    double xe = 0.0, re = 0.0;
    for (int j = 0; j < r; ++j) {
        const double *xref = Bd + (size_t)w * j * n;
        double xn = c ? cblas_dznrm2(m, xref, 1) : cblas_dnrm2(m, xref, 1);
        double rn = n > m ? (c ? cblas_dznrm2(n - m, xref + w * m, 1)
                               : cblas_dnrm2(n - m, xref + m, 1))
                          : 0.0;
        if (X) {
            double dx = 0.0;
            for (int i = 0; i < m; ++i) {
                double xr, xi;
                qru_test_get_c(dt, X, ldx, i, j, &xr, &xi);
                double e = xr - xref[w * i],
                       f = c ? xi - xref[w * i + 1] : 0.0;
                dx += e * e + f * f;
            }
            dx = sqrt(dx);
            double cond = kappa;
            if (xn > 0 && anorm > 0)
                cond += kappa * kappa * rn / (anorm * xn);
            double den = scale * cond * xn;
            double e = dx == 0.0 ? 0.0 : (den > 0 ? dx / den : INFINITY);
            if (e != e)
                e = INFINITY;
            xe = maxd(xe, e);
        }
        if (res) {
            double dr = fabs(res[j] - rn);
            double den = scale * (Bn[j] + kappa * rn + anorm * xn);
            double e = dr == 0.0 ? 0.0 : (den > 0 ? dr / den : INFINITY);
            if (e != e)
                e = INFINITY;
            re = maxd(re, e);
        }
    }
    free(Ad);
    free(Bd);
    free(Bn);
    if (xerr)
        *xerr = xe;
    if (rerr)
        *rerr = re;
}

int qru_test_ndtypes(const qru_context *ctx)
{
    return qru_context_supports(ctx, QRU_DOUBLE) ? 2 : 1;
}

qru_dtype qru_test_dtype(const qru_context *ctx, int i)
{
    (void)ctx;
    return i == 0 ? QRU_FLOAT : QRU_DOUBLE;
}

/* the types of qru_test_ntypes in their order */
static const qru_dtype all_types[] = {QRU_FLOAT, QRU_DOUBLE,
                                      QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE};

int qru_test_ntypes(const qru_context *ctx)
{
    static int told;
    int n = 0;
    for (int i = 0; i < 4; ++i)
        n += qru_context_supports(ctx, all_types[i]);
    if (!told && !qru_context_supports(ctx, QRU_COMPLEX_DOUBLE)) {
        told = 1;
        printf("complex types skipped: the %s backend does not support "
               "them\n", qru_backend_name(qru_context_backend(ctx)));
        fflush(stdout);
    }
    return n;
}

qru_dtype qru_test_type(const qru_context *ctx, int i)
{
    for (int t = 0; t < 4; ++t)
        if (qru_context_supports(ctx, all_types[t]) && i-- == 0)
            return all_types[t];
    return QRU_FLOAT;
}

const char *qru_test_type_name(qru_dtype dt)
{
    return dt == QRU_FLOAT           ? "float"
           : dt == QRU_DOUBLE        ? "double"
           : dt == QRU_COMPLEX_FLOAT ? "complex float"
                                     : "complex double";
}

int qru_test_main(Suite *s)
{
    qru_backend b = qru_test_backend();
    qru_context *ctx = qru_test_context(); /* exits 77 if unavailable */
    printf("backend %s, device %s%s\n", qru_backend_name(b),
           qru_context_device_name(ctx),
           qru_context_supports(ctx, QRU_DOUBLE) ? ""
                                                 : " (no fp64: double skipped)");
    fflush(stdout);
    qru_context_destroy(ctx);

    SRunner *sr = srunner_create(s);
    if (!getenv("CK_FORK"))
        srunner_set_fork_status(sr, b == QRU_BACKEND_CPU ? CK_FORK : CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int nfail = srunner_ntests_failed(sr);
    int nrun = srunner_ntests_run(sr);
    srunner_free(sr);
    if (nrun == 0) {
        fprintf(stderr, "no checks ran\n");
        return 1;
    }
    return nfail == 0 ? 0 : 1;
}
