/*
 * qru test support: context selection for the backend under test, host
 * arrays of either element type, and reference checks computed in double
 * precision with (C)BLAS / LAPACKE on the host.
 *
 * Every test program built with qru_add_test() (tests/CMakeLists.txt) runs
 * once per compiled backend; the backend comes from the environment variable
 * QRU_TEST_BACKEND (cpu | cuda | opencl, default cpu).  A GPU test on a
 * machine without that GPU exits with 77, which CTest reports as skipped.
 */
#ifndef QRU_TEST_H
#define QRU_TEST_H

#include <check.h>

#include "qru.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Scaled errors below this pass (all checks divide by eps and a size). */
#define QRU_TEST_THRESHOLD 30.0

/** The backend under test: env QRU_TEST_BACKEND = cpu|cuda|opencl
 *  (default cpu).  An unknown name aborts the program. */
qru_backend qru_test_backend(void);

/** A context on the backend under test.  When a GPU backend's context cannot
 *  be created because the backend is unavailable (not compiled in, no
 *  device), prints "SKIP: <backend>: <reason>" and exits with 77.  Any other
 *  failure (and any failure on the CPU backend) aborts the test. */
qru_context *qru_test_context(void);

/** Sets (value != NULL) or unsets the environment variable @p name and
 *  returns a copy of its old value (NULL if unset) for
 *  qru_test_env_restore(), which puts it back and frees the copy. */
char *qru_test_env_set(const char *name, const char *value);
void qru_test_env_restore(const char *name, char *old);

/** qru_test_context() with the environment variable @p var set to
 *  @p value (NULL: unset) while the context is created (the knobs read at
 *  creation), then restored. */
qru_context *qru_test_context_env(const char *var, const char *value);

/** The tester's fixture: a file-scope context ctx and Check's setup /
 *  teardown that create it with qru_test_context() and destroy it, for
 *  tcase_add_checked_fixture(tc, setup, teardown). */
#define QRU_TEST_FIXTURE                                                       \
    static qru_context *ctx;                                                   \
    static void setup(void) { ctx = qru_test_context(); }                      \
    static void teardown(void)                                                 \
    {                                                                          \
        qru_context_destroy(ctx);                                              \
        ctx = NULL;                                                            \
    }

/** Unit roundoff of the type (LAPACK's 'E': 2^-24 or 2^-53). */
double qru_test_eps(qru_dtype dt);

/** Size in bytes of one element. */
size_t qru_test_elsize(qru_dtype dt);

/** Host column-major array of ld*cols elements (at least one), zero-filled;
 *  free with free(). */
void *qru_test_alloc(qru_dtype dt, int rows, int cols, int ld);

/** The one random generator of the tests and benchmarks: the next
 *  uniform(-1, 1) value of the stream *seed (xorshift32; never 0, never
 *  +-1; *seed is advanced; a seed of 0 starts a fixed stream). */
double qru_test_urand(unsigned *seed);

/** x0 (m doubles) := zero but at s random places (drawn by
 *  qru_test_urand(seed)), there +-[1, 2] (a sparse solution of the
 *  solvers' tests and benchmarks). */
void qru_test_sparse(int m, int s, unsigned *seed, double *x0);

/** Fills A(0:rows-1, 0:cols-1) with uniform(-1, 1) values (the padding rows
 *  are not touched; a complex type: both parts).  *seed is advanced. */
void qru_test_rand(qru_dtype dt, int rows, int cols, void *A, int lda,
                   unsigned *seed);

/** A malloc'd n x n symmetric positive definite double matrix (ld n),
 *  A = G G' / (n + extra) + shift I with G n x (n + extra) from
 *  qru_test_urand(seed); shift > 0 bounds its smallest eigenvalue. */
double *qru_test_spd(int n, int extra, double shift, unsigned *seed);

/** A host array of type dt, ld x cols with all ld rows written: (i, j) is
 *  src(i, j) (leading dimension lds) where i < rows and, for tri 'L' / 'U',
 *  j < rows and (i, j) lies in that triangle (tri 'A': every column);
 *  elsewhere the
 *  sentinel sent + i + step j (0 for step = sent = 0).  free() it. */
void *qru_test_from_double(qru_dtype dt, int rows, int cols, int ld,
                           const double *src, int lds, char tri, double sent,
                           double step);

/** Element (i, j) as a double (a complex type: its real part) / set
 *  element (i, j) (a complex type: to v + 0i). */
double qru_test_get(qru_dtype dt, const void *A, int lda, int i, int j);
void qru_test_set(qru_dtype dt, void *A, int lda, int i, int j, double v);
/** Element (i, j) as its real and imaginary parts (0 for a real type) /
 *  set element (i, j) to re + i im (a real type: to re). */
void qru_test_get_c(qru_dtype dt, const void *A, int lda, int i, int j,
                    double *re, double *im);
void qru_test_set_c(qru_dtype dt, void *A, int lda, int i, int j, double re,
                    double im);

/** Creates a rows x cols matrix with leading dimension ld (0: default) in
 *  ctx and uploads host (leading dimension ldh) into it; ck_abort on any
 *  failure. */
qru_matrix *qru_test_upload(qru_context *ctx, qru_dtype dt, int rows,
                            int cols, int ld, const void *host, int ldh);

/** A new host array (leading dimension max(1, rows)) holding M's contents
 *  (synchronises the context); ck_abort on failure.  free() it. */
void *qru_test_download(const qru_matrix *M);

/** A rows x cols matrix with leading dimension ld (not freed with it)
 *  whose first element is element off of M's memory (counted from M's
 *  first element), addressed as kind says: 0 a view, M's buffer handle and
 *  an element offset (the way qru_lsq_view_q() and the library's own
 *  arrays address memory); 1 the caller's way, qru_matrix_wrap() of the
 *  address off elements on (CPU, CUDA: a handle of its own) or of an
 *  OpenCL sub-buffer of M's buffer at that offset.  NULL where kind 1
 *  cannot be made (a sub-buffer outside M's buffer or at an offset the
 *  device cannot align).  Free it with qru_test_alias_free().  Only its
 *  header is made: a call that refuses it never touches the memory. */
qru_matrix *qru_test_alias(qru_context *ctx, const qru_matrix *M, size_t off,
                           int rows, int cols, int ld, int kind);
void qru_test_alias_free(qru_matrix *A, int kind);

/* ---- reference checks on host arrays of type dt, computed in double ----
 * (every check takes the complex types too: computed in double complex,
 * ' the conjugate transpose, moduli for absolute values) */

/** ||A - Q R||_F / (||A||_F max(n, m) eps) with A n x m, Q n x n, R n x m
 *  (the whole of R is used, including what lies below the diagonal). */
double qru_test_backward_error(qru_dtype dt, int n, int m, const void *A,
                               int lda, const void *Q, int ldq, const void *R,
                               int ldr);

/** ||A - Q1 R||_F / (||A||_F n eps) with A n x m, Q1 n x m, R m x m (the
 *  economy factors; the whole of R is used). */
double qru_test_backward_error_econ(qru_dtype dt, int n, int m,
                                    const void *A, int lda, const void *Q1,
                                    int ldq, const void *R, int ldr);

/** ||I - Q' Q||_F / (n eps) for the n x c Q (c <= n). */
double qru_test_orth_error_cols(qru_dtype dt, int n, int c, const void *Q,
                                int ldq);

/** ||I - Q' Q||_F / (n eps) for the n x n Q. */
double qru_test_orth_error(qru_dtype dt, int n, const void *Q, int ldq);

/** max |R(i, j)| over i > j of the n x m R (must be exactly 0). */
double qru_test_lower_max(qru_dtype dt, int n, int m, const void *R, int ldr);

/** max |A(i, j) - B(i, j)| / (max |B| max(rows, cols) eps): a scaled
 *  elementwise comparison of two rows x cols arrays of type dt. */
double qru_test_diff(qru_dtype dt, int rows, int cols, const void *A, int lda,
                     const void *B, int ldb);

/** cond_2(A) = s_max / s_min of the n x m A (n >= m >= 1) of type dt, from
 *  its singular values (LAPACKE_dgesvd in double, zgesvd for a complex
 *  type); INFINITY if s_min = 0.
 *  ||A||_2 in *norm2 unless it is NULL. */
/* The min(n, m) singular values of the complex n x m A (interleaved
 * doubles, ld lda), descending, into s: those of the real [B -C; C B]
 * for A = B + i C by LAPACKE_dgesvd (OpenBLAS 0.3.21's zgemv, under
 * zgesvd, reads past the end of LAPACKE's own work arrays). */
void qru_test_zsvd(int n, int m, const void *A, int lda, double *s);
double qru_test_cond2(qru_dtype dt, int n, int m, const void *A, int lda,
                      double *norm2);

/** Least squares against LAPACKE_dgels (complex types: zgels) applied to
 *  A (n x m, n >= m) and B (n x r) converted to double (complex).  With kappa = cond_2(A) (from the singular
 *  values), xref/rref the reference solution and residual:
 *    xerr = max_j ||x_j - xref_j|| /
 *           (max(n,m) eps (kappa + kappa^2 ||rref_j|| / (||A||_2 ||xref_j||))
 *            ||xref_j||)
 *  (the first-order perturbation bound of least squares), and
 *    rerr = max_j |res_j - ||rref_j||| /
 *           (max(n,m) eps (||b_j|| + kappa ||rref_j|| + ||A||_2 ||xref_j||)).
 *  res may be NULL (then rerr = 0); X may be NULL (then xerr = 0).
 *  Both are compared to QRU_TEST_THRESHOLD. */
void qru_test_lsq_errors(qru_dtype dt, int n, int m, int r, const void *A,
                         int lda, const void *B, int ldb, const void *X,
                         int ldx, const double *res, double *xerr,
                         double *rerr);

/** Runs a Check suite the way every qru test program does and returns the
 *  process exit status: first qru_test_context() is called once (so an
 *  unavailable GPU backend skips the whole program with 77), then the suite
 *  runs with CK_NORMAL output (Check's "100%: Checks: ..." summary line),
 *  in fork mode on the CPU backend and in no-fork mode on GPU backends
 *  (GPU runtimes do not survive fork; the CK_FORK environment variable
 *  overrides).  Returns 0 if every check passed, 1 otherwise. */
int qru_test_main(Suite *s);

/** The element types the context computes in, for loops:
 *  for (int i = 0; i < qru_test_ndtypes(ctx); ++i) dt = qru_test_dtype(ctx, i)
 */
int qru_test_ndtypes(const qru_context *ctx);
qru_dtype qru_test_dtype(const qru_context *ctx, int i);
/** The same with the complex types the context supports after the real
 *  ones (float, double, complex float, complex double); where the context
 *  takes no complex type the first call prints the reason once. */
int qru_test_ntypes(const qru_context *ctx);
qru_dtype qru_test_type(const qru_context *ctx, int i);
const char *qru_test_type_name(qru_dtype dt);

#ifdef __cplusplus
}
#endif

#endif /* QRU_TEST_H */
