/*
 * The CPU backend: host memory, OpenBLAS through CBLAS, and plain C
 * versions of the dissertation's kernels (cpu_kernels.inc, instantiated once
 * per precision below).  It is the reference every GPU backend is tested
 * against and the "sequential update" of the dissertation's comparisons.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cblas.h>
#include <lapacke.h>

#include "../qru_internal.h"
#include "cpu_pool.h"

/* Asks the caches for the len bytes at p (a column's part of a factor),
 * to be read (write 0) or written (1) soon.  The batches fetch the next
 * problem's page while they work on one, so that the memory's latency
 * overlaps the arithmetic: the hardware's prefetchers stop at the 4 KiB
 * pages of memory, and a batch streams its pages from memory where a
 * single call finds its factor in cache. */
#if defined(__GNUC__) || defined(__clang__)
#define QRU_PREFETCH(p, w) __builtin_prefetch((p), (w), 2)
#else
#define QRU_PREFETCH(p, w) ((void)(p), (void)(w))
#endif
static void cpu_prefetch(const void *p, size_t len, int write)
{
    const char *a = p, *e = a + (len ? len - 1 : 0);
    for (; a < e; a += 64) {
        if (write)
            QRU_PREFETCH(a, 1);
        else
            QRU_PREFETCH(a, 0);
    }
    if (write)
        QRU_PREFETCH(e, 1);
    else
        QRU_PREFETCH(e, 0);
}

/* cpu_prefetch of the triangle of the n x n factor at A (ld lda, es-byte
 * elements; uplo 'L': each column from its diagonal down, 'U': down to
 * it). */
static void cpu_prefetch_tri(char uplo, int n, const void *A, int lda,
                             size_t es, int write)
{
    for (int j = 0; j < n; ++j)
        cpu_prefetch((const char *)A + ((size_t)j * (size_t)lda +
                                        (uplo == 'U' ? 0 : (size_t)j)) * es,
                     (size_t)(uplo == 'U' ? j + 1 : n - j) * es, write);
}

#include <complex.h>
#undef I /* complex.h's imaginary unit: not a name the kernels reserve */

/* The kernels' type macros (cpu_kernels.inc): a real T's are the identity
 * or its BLAS routine, a complex T's conjugate, take the modulus, pass
 * alpha and beta by address, and use the conjugated rank-1 update. */
#define CONJ(x) (x)
#define RE(x) (x)
#define ABS(x) fabs(x)
#define FINITE(x) isfinite(x)
#define NRM2(n, x, inc) BL(nrm2)(n, x, inc)
#define GEMV(tr, m, n, a, A, lda, x, incx, b, y, incy)                         \
    BL(gemv)(CblasColMajor, tr, m, n, a, A, lda, x, incx, b, y, incy)
#define GERC(m, n, a, x, incx, y, incy, A, lda)                                \
    BL(ger)(CblasColMajor, m, n, a, x, incx, y, incy, A, lda)
#define ROT(n, x, incx, y, incy, c, s) BL(rot)(n, x, incx, y, incy, c, s)
#define GEMM(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)                    \
    BL(gemm)(CblasColMajor, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)
#define GERU(m, n, a, x, incx, y, incy, A, lda)                                \
    BL(ger)(CblasColMajor, m, n, a, x, incx, y, incy, A, lda)
#define CPLX 0

#define T float
#define TR float
#define SFX s
#define BL(x) cblas_s##x
#define LP(x) LAPACKE_s##x
#define LPQ(x) LAPACKE_sor##x
#include "cpu_kernels.inc"
#include "cpu_chol_kernels.inc"
#include "cpu_batch_kernels.inc"
#include "cpu_update_kernels.inc"
#include "cpu_batch_q_kernels.inc"
#include "cpu_batch_cols_kernels.inc"
#undef T
#undef TR
#undef SFX
#undef BL
#undef LP
#undef LPQ

#define T double
#define TR double
#define SFX d
#define BL(x) cblas_d##x
#define LP(x) LAPACKE_d##x
#define LPQ(x) LAPACKE_dor##x
#include "cpu_kernels.inc"
#include "cpu_chol_kernels.inc"
#include "cpu_batch_kernels.inc"
#include "cpu_update_kernels.inc"
#include "cpu_batch_q_kernels.inc"
#include "cpu_batch_cols_kernels.inc"
#undef T
#undef TR
#undef SFX
#undef BL
#undef LP
#undef LPQ
#undef CONJ
#undef RE
#undef ABS
#undef FINITE
#undef NRM2
#undef GEMV
#undef GERC
#undef ROT
#undef GEMM
#undef GERU
#undef CPLX

/* Complex float and complex double: the kernels of the QR factorisation
 * and its updates (cpu_kernels.inc, cpu_update_kernels.inc), of the
 * Cholesky routines, of the Cholesky and least-squares batches
 * (cpu_chol_kernels.inc, cpu_batch_kernels.inc, cpu_batch_q_kernels.inc,
 * cpu_batch_cols_kernels.inc; not their real-only parts). */
#define CPLX 1
#define CONJ(x) conj(x)
#define RE(x) creal(x)
#define ABS(x) cabs(x)
#define FINITE(x) (isfinite(creal(x)) && isfinite(cimag(x)))
#define GEMV(tr, m, n, a, A, lda, x, incx, b, y, incy)                         \
    BL(gemv)(CblasColMajor, tr, m, n, &(T){a}, A, lda, x, incx, &(T){b}, y,  \
             incy)
#define GERC(m, n, a, x, incx, y, incy, A, lda)                                \
    BL(gerc)(CblasColMajor, m, n, &(T){a}, x, incx, y, incy, A, lda)
#define CPU_SFX_(a, b) a##_##b
#define CPU_SFX(a, b) CPU_SFX_(a, b)
#define ROT(n, x, incx, y, incy, c, s)                                         \
    CPU_SFX(crot, SFX)(n, x, incx, y, incy, c, s)
#define GEMM(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)                    \
    BL(gemm)(CblasColMajor, ta, tb, m, n, k, &(T){a}, A, lda, B, ldb,        \
             &(T){b}, C, ldc)
#define GERU(m, n, a, x, incx, y, incy, A, lda)                                \
    BL(geru)(CblasColMajor, m, n, &(T){a}, x, incx, y, incy, A, lda)

#define T float complex
#define TR float
#define SFX c
#define BL(x) cblas_c##x
#define LP(x) LAPACKE_c##x
#define LPQ(x) LAPACKE_cun##x
#define NRM2(n, x, inc) cblas_scnrm2(n, x, inc)
#include "cpu_kernels.inc"
#include "cpu_chol_kernels.inc"
#include "cpu_batch_kernels.inc"
#include "cpu_update_kernels.inc"
#include "cpu_batch_q_kernels.inc"
#include "cpu_batch_cols_kernels.inc"
#undef T
#undef TR
#undef SFX
#undef BL
#undef LP
#undef LPQ
#undef NRM2

#define T double complex
#define TR double
#define SFX z
#define BL(x) cblas_z##x
#define LP(x) LAPACKE_z##x
#define LPQ(x) LAPACKE_zun##x
#define NRM2(n, x, inc) cblas_dznrm2(n, x, inc)
#include "cpu_kernels.inc"
#include "cpu_chol_kernels.inc"
#include "cpu_batch_kernels.inc"
#include "cpu_update_kernels.inc"
#include "cpu_batch_q_kernels.inc"
#include "cpu_batch_cols_kernels.inc"
#undef T
#undef TR
#undef SFX
#undef BL
#undef LP
#undef LPQ
#undef NRM2
#undef CONJ
#undef RE
#undef ABS
#undef FINITE
#undef GEMV
#undef GERC
#undef ROT
#undef GEMM
#undef GERU
#undef CPU_SFX
#undef CPU_SFX_
#undef CPLX

/* Host address of element p.  A NULL handle (an empty buffer, only passed
 * with zero sizes) stays NULL: arithmetic on a null pointer is undefined
 * even with a zero offset. */
#define HP(dt, p)                                                              \
    ((p).h ? (void *)((char *)(p).h + (p).off * qru_dtype_size(dt)) : NULL)
#define SP(p) ((p).h ? (float *)(p).h + (p).off : (float *)NULL)
#define DP(p) ((p).h ? (double *)(p).h + (p).off : (double *)NULL)
#define CP(p) ((p).h ? (float complex *)(p).h + (p).off : (float complex *)NULL)
#define ZP(p)                                                                  \
    ((p).h ? (double complex *)(p).h + (p).off : (double complex *)NULL)

/* f##_s, _d, _c or _z by the element type dt, with the same arguments
 * (arrays as HP(dt, p): a void pointer, the kernel's own type by
 * conversion; scalars converted to the kernel's T). */
#define CPU_BY_TYPE(dt, f, ...)                                                \
    ((dt) == QRU_DOUBLE          ? f##_d(__VA_ARGS__)                          \
     : (dt) == QRU_FLOAT         ? f##_s(__VA_ARGS__)                          \
     : (dt) == QRU_COMPLEX_FLOAT ? f##_c(__VA_ARGS__)                          \
                                 : f##_z(__VA_ARGS__))

/* The ops that take no complex data (the routines that call them refuse
 * it first: qru_check_real; the updates' p = 1 variants and the
 * structured Cholesky passes are not chosen for it, qru_upd_p1_variant,
 * chol_update.c): QRU_ERR_UNSUPPORTED, not a wrong result. */
#define CPU_REAL_ONLY(dt, op)                                                  \
    do {                                                                       \
        if (qru_dtype_complex(dt))                                             \
            return qru_fail(QRU_ERR_UNSUPPORTED, "the CPU op " op " takes "    \
                            "no complex data");                                \
    } while (0)

/* The ops above that refuse complex data (CPU_REAL_ONLY), and the
 * solvers' Gram ops (reference ops here, for real data); the table's
 * complex_ops is every other op. */
#define CPU_REAL_ONLY_OPS                                                      \
    (QRU_OPM(chol_r1_prep) | QRU_OPM(chol_r1_solve_prep) |                     \
     QRU_OPM(chol_r1_apply) | QRU_OPM(chol_r1_rhs) |                           \
     QRU_OPM(chol_r1_rotate) | QRU_OPM(omp_gram_step) |                       \
     QRU_OPM(lars_gram_step) | QRU_OPM(gram_border) | QRU_OPM(gram_solve))

/* OpenBLAS's configuration text, where the BLAS is OpenBLAS (weak: NULL
 * with another BLAS). */
#if defined(__GNUC__) || defined(__clang__)
extern char *openblas_get_config(void) __attribute__((weak));
#define QRU_OPENBLAS_CONFIG() (openblas_get_config ? openblas_get_config() : NULL)
/* OpenBLAS's own threads (1 with another BLAS) */
extern int openblas_get_num_threads(void) __attribute__((weak));
#define QRU_OPENBLAS_THREADS()                                                 \
    (openblas_get_num_threads ? openblas_get_num_threads() : 1)
#else
#define QRU_OPENBLAS_CONFIG() NULL
#define QRU_OPENBLAS_THREADS() 1
#endif

/* The file the function at f was loaded from, or "?". */
static const char *file_of(void *f)
{
    Dl_info info;
    return dladdr(f, &info) && info.dli_fname && info.dli_fname[0]
               ? info.dli_fname
               : "?";
}

void qru_cpu_libraries(char *buf, size_t n)
{
    const char *cfg = QRU_OPENBLAS_CONFIG();
    snprintf(buf, n, "BLAS %s%s(%s), LAPACKE (%s)", cfg ? cfg : "",
             cfg ? " " : "", file_of((void *)cblas_dgemm),
             file_of((void *)LAPACKE_dgeqrf));
}

static int cpu_probe(void) { return 0; }

static int cpu_init(qru_context *ctx, const qru_context_options *opt)
{
    (void)opt;
    strcpy(ctx->device_name, "host CPU (OpenBLAS/LAPACKE)");
    ctx->impl = NULL;
    return 0;
}

/* the batched ops' threads (cpu_pool.c), if any were started */
static void cpu_fini(qru_context *ctx)
{
    qru_cpu_pool_free(ctx->impl);
    ctx->impl = NULL;
}

static int cpu_supports(const qru_context *ctx, qru_dtype dt)
{
    (void)ctx;
    return dt == QRU_FLOAT || dt == QRU_DOUBLE || qru_dtype_complex(dt);
}

static qru_device_type cpu_device_type(const qru_context *ctx)
{
    (void)ctx;
    return QRU_DEVICE_CPU;
}

static int cpu_sync(qru_context *ctx)
{
    (void)ctx;
    return 0;
}

/* Buffers of CPU_HUGE_MIN bytes or more are aligned to CPU_HUGE_ALIGN and
 * advised onto transparent huge pages (Linux; elsewhere just aligned). */
enum { CPU_HUGE_MIN = 4 << 20, CPU_HUGE_ALIGN = 2 << 20 };

static int cpu_alloc(qru_context *ctx, size_t bytes, void **h)
{
    (void)ctx;
    /* 64-byte alignment for vector loads; never a zero-size request (and
     * no rounding past SIZE_MAX to a small one) */
    if (bytes > SIZE_MAX - 63)
        return QRU_ERR_ALLOC;
    size_t b = (bytes + 63) / 64 * 64;
    void *p = NULL;
    if (b >= CPU_HUGE_MIN) {
        /* large buffers (an n x n Q) on transparent huge pages: a first
         * touch of 2 MiB instead of 4 KiB a page fault */
        if (posix_memalign(&p, CPU_HUGE_ALIGN, b) != 0)
            return QRU_ERR_ALLOC;
#ifdef MADV_HUGEPAGE
        (void)madvise(p, b, MADV_HUGEPAGE);
#endif
        *h = p;
        return 0;
    }
    if (posix_memalign(&p, 64, b ? b : 64) != 0)
        return QRU_ERR_ALLOC;
    *h = p;
    return 0;
}

static void cpu_free(qru_context *ctx, void *h)
{
    (void)ctx;
    free(h);
}

/* Column-by-column copy; memmove handles the overlapping "towards the
 * start" case allowed by the table contract. */
static void copy2d(size_t es, int m, int n, const char *src, int lds,
                   char *dst, int ldd)
{
    if (m <= 0 || n <= 0)
        return;
    if (lds == ldd && m == lds) {
        memmove(dst, src, es * (size_t)m * (size_t)n);
        return;
    }
    for (int j = 0; j < n; ++j)
        memmove(dst + es * (size_t)j * ldd, src + es * (size_t)j * lds,
                es * (size_t)m);
}

static int cpu_upload(qru_context *ctx, qru_dtype dt, int m, int n,
                      const void *src, int lds, qru_ptr dst, int ldd)
{
    (void)ctx;
    copy2d(qru_dtype_size(dt), m, n, src, lds, HP(dt, dst), ldd);
    return 0;
}

static int cpu_download(qru_context *ctx, qru_dtype dt, int m, int n,
                        qru_ptr src, int lds, void *dst, int ldd)
{
    (void)ctx;
    copy2d(qru_dtype_size(dt), m, n, HP(dt, src), lds, dst, ldd);
    return 0;
}

static int cpu_copy(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                    int lds, qru_ptr dst, int ldd)
{
    (void)ctx;
    copy2d(qru_dtype_size(dt), m, n, HP(dt, src), lds, HP(dt, dst), ldd);
    return 0;
}

static int cpu_laset(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     double off, double dg, qru_ptr A, int lda)
{
    (void)ctx;
    CPU_BY_TYPE(dt, laset, uplo, m, n, off, dg, HP(dt, A), lda);
    return 0;
}

static int cpu_transpose(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, qru_ptr B, int ldb)
{
    (void)ctx;
    CPU_BY_TYPE(dt, transpose, m, n, HP(dt, A), lda, HP(dt, B), ldb);
    return 0;
}

/* BLAS transposition: 'T' the transpose, 'C' the conjugate transpose
 * (a real type's transpose), else none. */
static enum CBLAS_TRANSPOSE cbt_of(qru_dtype dt, char t)
{
    if (t == 'C' || t == 'c')
        return qru_dtype_complex(dt) ? CblasConjTrans : CblasTrans;
    return (t == 'T' || t == 't') ? CblasTrans : CblasNoTrans;
}
static enum CBLAS_TRANSPOSE cbt(char t) { return cbt_of(QRU_DOUBLE, t); }

/* y := alpha M x + beta y ('N') or alpha M' x + beta y ('T') for the
 * rows x cols M; y (stride incy) is not read when beta = 0. */
/* y := alpha op(M) x + beta y for the rows x cols M (t: 'N', 'T' or
 * 'C'); y (stride incy) is not read when beta = 0. */
static void cpu_gemv(qru_dtype dt, char t, int rows, int cols, double alpha,
                     qru_ptr M, int ldm, qru_ptr x, int incx, double beta,
                     qru_ptr y, int incy)
{
    int ny = cbt(t) == CblasTrans ? cols : rows;
    if (beta == 0.0) /* not read (the gemm contract): no BLAS's scaling
                      * by 0 may keep a NaN of it */
        for (int i = 0; i < ny; ++i) {
            if (dt == QRU_DOUBLE)
                DP(y)[(size_t)i * incy] = 0.0;
            else if (dt == QRU_FLOAT)
                SP(y)[(size_t)i * incy] = 0.0f;
            else if (dt == QRU_COMPLEX_FLOAT)
                CP(y)[(size_t)i * incy] = 0.0f;
            else
                ZP(y)[(size_t)i * incy] = 0.0;
        }
    if (dt == QRU_DOUBLE)
        cblas_dgemv(CblasColMajor, cbt(t), rows, cols, alpha, DP(M), ldm,
                    DP(x), incx, beta, DP(y), incy);
    else if (dt == QRU_FLOAT)
        cblas_sgemv(CblasColMajor, cbt(t), rows, cols, (float)alpha, SP(M),
                    ldm, SP(x), incx, (float)beta, SP(y), incy);
    else if (dt == QRU_COMPLEX_FLOAT)
        cblas_cgemv(CblasColMajor, cbt_of(dt, t), rows, cols,
                    &(float complex){(float)alpha}, CP(M), ldm, CP(x), incx,
                    &(float complex){(float)beta}, CP(y), incy);
    else
        cblas_zgemv(CblasColMajor, cbt_of(dt, t), rows, cols,
                    &(double complex){alpha}, ZP(M), ldm, ZP(x), incx,
                    &(double complex){beta}, ZP(y), incy);
}

/* The complex gemm (cpu_gemm's checks done): the conjugate transpose
 * 'C', alpha and beta by address. */
static int cpu_gemm_complex(qru_dtype dt, char ta, char tb, int m, int n,
                            int k, double alpha, qru_ptr A, int lda,
                            qru_ptr B, int ldb, double beta, qru_ptr C,
                            int ldc)
{
    if (k <= 0) { /* C = beta C */
        for (int j = 0; j < n; ++j)
            if (dt == QRU_COMPLEX_DOUBLE)
                cblas_zdscal(m, beta, ZP(C) + (size_t)j * ldc, 1);
            else
                cblas_csscal(m, (float)beta, CP(C) + (size_t)j * ldc, 1);
        return 0;
    }
    if (dt == QRU_COMPLEX_DOUBLE)
        cblas_zgemm(CblasColMajor, cbt_of(dt, ta), cbt_of(dt, tb), m, n, k,
                    &(double complex){alpha}, ZP(A), lda, ZP(B), ldb,
                    &(double complex){beta}, ZP(C), ldc);
    else
        cblas_cgemm(CblasColMajor, cbt_of(dt, ta), cbt_of(dt, tb), m, n, k,
                    &(float complex){(float)alpha}, CP(A), lda, CP(B), ldb,
                    &(float complex){(float)beta}, CP(C), ldc);
    return 0;
}

static int cpu_gemm(qru_context *ctx, qru_dtype dt, char ta, char tb, int m,
                    int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B,
                    int ldb, double beta, qru_ptr C, int ldc)
{
    (void)ctx;
    if (m <= 0 || n <= 0)
        return 0;
    /* one column or one row of C: a matrix-vector product (OpenBLAS
     * before 0.3.27 packs A for a GEMM with n = 1, which took twice the
     * time of its GEMV: 6.4 ms against 3.1 ms for X' r, X 2000 x 4000,
     * on the 2-core CI machine) */
    int tra = cbt(ta) == CblasTrans, trb = cbt(tb) == CblasTrans;
    if (k > 0 && n == 1 && (!trb || !qru_dtype_complex(dt))) {
        /* C(:, 1) = alpha op(A) op(B)(:, 1) */
        cpu_gemv(dt, ta, tra ? k : m, tra ? m : k, alpha, A, lda, B,
                 trb ? ldb : 1, beta, C, 1);
        return 0;
    }
    if (k > 0 && m == 1 && !qru_dtype_complex(dt)) {
        /* C(1, :)' = alpha op(B)' op(A)(1, :)' */
        cpu_gemv(dt, trb ? 'N' : 'T', trb ? n : k, trb ? k : n, alpha, B,
                 ldb, A, tra ? 1 : lda, beta, C, ldc);
        return 0;
    }
    if (qru_dtype_complex(dt))
        return cpu_gemm_complex(dt, ta, tb, m, n, k, alpha, A, lda, B, ldb,
                                beta, C, ldc);
    if (k <= 0) { /* C = beta C (BLAS does this too, but be explicit) */
        if (dt == QRU_DOUBLE)
            for (int j = 0; j < n; ++j)
                cblas_dscal(m, beta, DP(C) + (size_t)j * ldc, 1);
        else
            for (int j = 0; j < n; ++j)
                cblas_sscal(m, (float)beta, SP(C) + (size_t)j * ldc, 1);
        return 0;
    }
    if (dt == QRU_DOUBLE)
        cblas_dgemm(CblasColMajor, cbt(ta), cbt(tb), m, n, k, alpha, DP(A),
                    lda, DP(B), ldb, beta, DP(C), ldc);
    else
        cblas_sgemm(CblasColMajor, cbt(ta), cbt(tb), m, n, k, (float)alpha,
                    SP(A), lda, SP(B), ldb, (float)beta, SP(C), ldc);
    return 0;
}

static int cpu_trsm(qru_context *ctx, qru_dtype dt, char side, char uplo,
                    char ta, char diag, int m, int n, double alpha, qru_ptr A,
                    int lda, qru_ptr B, int ldb)
{
    (void)ctx;
    if (m <= 0 || n <= 0)
        return 0;
    enum CBLAS_SIDE s = (side == 'L') ? CblasLeft : CblasRight;
    enum CBLAS_UPLO u = (uplo == 'U') ? CblasUpper : CblasLower;
    enum CBLAS_DIAG d = (diag == 'U') ? CblasUnit : CblasNonUnit;
    int cx = qru_dtype_complex(dt);
    /* One right-hand side (a column, or with side 'R' a row: x op(A) = b
     * is op(A)' x' = b'): BLAS trsv, 2-3x OpenBLAS's trsm for it (complex:
     * a column only, a row's op(A)' may be the conjugate) */
    int one = (side == 'L' ? n == 1 : m == 1 && !cx) && alpha != 0.0;
    if (one) {
        int k = side == 'L' ? m : n, inc = side == 'L' ? 1 : ldb;
        char t = side == 'L' ? ta : (ta == 'N' ? 'T' : 'N');
        if (dt == QRU_DOUBLE) {
            cblas_dtrsv(CblasColMajor, u, cbt(t), d, k, DP(A), lda, DP(B),
                        inc);
            if (alpha != 1.0)
                cblas_dscal(k, alpha, DP(B), inc);
        } else if (dt == QRU_FLOAT) {
            cblas_strsv(CblasColMajor, u, cbt(t), d, k, SP(A), lda, SP(B),
                        inc);
            if (alpha != 1.0)
                cblas_sscal(k, (float)alpha, SP(B), inc);
        } else if (dt == QRU_COMPLEX_DOUBLE) {
            cblas_ztrsv(CblasColMajor, u, cbt_of(dt, t), d, k, ZP(A), lda,
                        ZP(B), inc);
            if (alpha != 1.0)
                cblas_zdscal(k, alpha, ZP(B), inc);
        } else {
            cblas_ctrsv(CblasColMajor, u, cbt_of(dt, t), d, k, CP(A), lda,
                        CP(B), inc);
            if (alpha != 1.0)
                cblas_csscal(k, (float)alpha, CP(B), inc);
        }
        return 0;
    }
    if (dt == QRU_DOUBLE)
        cblas_dtrsm(CblasColMajor, s, u, cbt(ta), d, m, n, alpha, DP(A), lda,
                    DP(B), ldb);
    else if (dt == QRU_FLOAT)
        cblas_strsm(CblasColMajor, s, u, cbt(ta), d, m, n, (float)alpha,
                    SP(A), lda, SP(B), ldb);
    else if (dt == QRU_COMPLEX_DOUBLE)
        cblas_ztrsm(CblasColMajor, s, u, cbt_of(dt, ta), d, m, n,
                    &(double complex){alpha}, ZP(A), lda, ZP(B), ldb);
    else
        cblas_ctrsm(CblasColMajor, s, u, cbt_of(dt, ta), d, m, n,
                    &(float complex){(float)alpha}, CP(A), lda, CP(B), ldb);
    return 0;
}

static int cpu_col_norms(qru_context *ctx, qru_dtype dt, int m, int n,
                         qru_ptr A, int lda, double *norms)
{
    (void)ctx;
    CPU_BY_TYPE(dt, col_norms, m, n, HP(dt, A), lda, norms);
    return 0;
}

static int cpu_col_norms_dev(qru_context *ctx, qru_dtype dt, int m, int n,
                             qru_ptr A, int lda, qru_ptr out)
{
    (void)ctx;
    size_t es = qru_dtype_size(dt);
    for (int j = 0; j < n; ++j) {
        double v;
        CPU_BY_TYPE(dt, col_norms, m, 1,
                    (void *)((char *)HP(dt, A) + es * (size_t)j * lda), lda,
                    &v);
        if (dt == QRU_DOUBLE)
            DP(out)[j] = v;
        else if (dt == QRU_FLOAT)
            SP(out)[j] = (float)v;
        else if (dt == QRU_COMPLEX_FLOAT)
            CP(out)[j] = (float)v;
        else
            ZP(out)[j] = v;
    }
    return 0;
}

static int cpu_count_nonfinite(qru_context *ctx, qru_dtype dt, char uplo,
                               int m, int n, qru_ptr A, int lda, int *count)
{
    (void)ctx;
    char u = (uplo == 'U' || uplo == 'u')   ? 'U'
             : (uplo == 'L' || uplo == 'l') ? 'L'
                                            : 'A';
    size_t c = 0;
    if (m > 0 && n > 0)
        c = CPU_BY_TYPE(dt, count_nonfinite, u, m, n, HP(dt, A), lda);
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

static int cpu_count_nonzero(qru_context *ctx, qru_dtype dt, int n,
                             qru_ptr x, int *count)
{
    (void)ctx;
    size_t c = 0;
    if (n > 0)
        c = CPU_BY_TYPE(dt, count_nonzero, n, HP(dt, x));
    *count = c > INT_MAX ? INT_MAX : (int)c;
    return 0;
}

static int cpu_house(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha,
                     qru_ptr x, qru_ptr v, qru_ptr tau)
{
    (void)ctx;
    CPU_BY_TYPE(dt, house, n, HP(dt, alpha), HP(dt, x), HP(dt, v),
                HP(dt, tau));
    return 0;
}

static int cpu_larf(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
                    qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
                    qru_ptr work)
{
    (void)ctx;
    CPU_BY_TYPE(dt, larf, m, n, HP(dt, v), HP(dt, tau), HP(dt, top), ldt,
                HP(dt, C), ldc, HP(dt, work));
    return 0;
}

static int cpu_wy_append(qru_context *ctx, qru_dtype dt, int m, int j,
                         qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau,
                         qru_ptr work)
{
    (void)ctx;
    CPU_BY_TYPE(dt, wy_append, m, j, HP(dt, Y), ldy, HP(dt, W), ldw,
                HP(dt, tau), HP(dt, work));
    return 0;
}

/* ---- update kernels ---- */
static int cpu_givens_make(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                           int inc, int ps, qru_ptr cs)
{
    (void)ctx;
    if (cnt <= 0)
        return 0;
    CPU_BY_TYPE(dt, givens_make, cnt, HP(dt, X), (size_t)inc, (size_t)ps,
                HP(dt, cs));
    return 0;
}

static int cpu_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                            qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    (void)ctx;
    if (cnt <= 0 || len <= 0)
        return 0;
    CPU_BY_TYPE(dt, givens_apply, cnt, len, HP(dt, cs), HP(dt, X),
                (size_t)inc, (size_t)ps, es);
    return 0;
}

static int cpu_chol_r1_rotate(qru_context *ctx, qru_dtype dt, int n, int m,
                              double alpha, qru_ptr p, int incp, qru_ptr X,
                              int ldx, qru_ptr Y, int ldy, qru_ptr xin,
                              qru_ptr xout, qru_ptr work)
{
    (void)ctx;
    CPU_REAL_ONLY(dt, "chol_r1_rotate");
    if (n <= 0)
        return 0;
    if (dt == QRU_DOUBLE)
        chol_r1_rotate_d(n, m, alpha, DP(p), incp, DP(X), ldx, DP(Y), ldy,
                         DP(xin), DP(xout), DP(work));
    else
        chol_r1_rotate_s(n, m, alpha, SP(p), incp, SP(X), ldx, SP(Y), ldy,
                         SP(xin), SP(xout), SP(work));
    return 0;
}

static int cpu_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                             int make, qru_ptr X, long xrs, long xcs, int nr,
                             int from_jlo, qru_ptr cs)
{
    (void)ctx;
    if (L <= 0 || p <= 0)
        return 0;
    CPU_BY_TYPE(dt, givens_sweeps, L, p, make, HP(dt, X), xrs, xcs, nr,
                from_jlo, HP(dt, cs));
    return 0;
}

static int cpu_geadd(qru_context *ctx, qru_dtype dt, int m, int n,
                     double alpha, qru_ptr A, int lda, double beta, qru_ptr B,
                     int ldb)
{
    (void)ctx;
    if (m <= 0 || n <= 0)
        return 0;
    CPU_BY_TYPE(dt, geadd, m, n, alpha, HP(dt, A), lda, beta, HP(dt, B), ldb);
    return 0;
}

/* ---- Cholesky kernels ---- */
/* syrk of a complex type: BLAS herk, C = alpha A A' + beta C ('N') or
 * alpha A' A + beta C ('T' or 'C') on the u triangle, ' the conjugate
 * transpose (C's diagonal comes out real). */
static int cpu_herk(qru_dtype dt, enum CBLAS_UPLO u, char trans, int n, int k,
                    double alpha, qru_ptr A, int lda, double beta, qru_ptr C,
                    int ldc)
{
    enum CBLAS_TRANSPOSE t =
        cbt(trans) == CblasTrans ? CblasConjTrans : CblasNoTrans;
    if (k <= 0) { /* C = beta C on the triangle */
        for (int j = 0; j < n; ++j) {
            int i0 = u == CblasUpper ? 0 : j, i1 = u == CblasUpper ? j + 1 : n;
            if (dt == QRU_COMPLEX_DOUBLE)
                cblas_zdscal(i1 - i0, beta, ZP(C) + i0 + (size_t)j * ldc, 1);
            else
                cblas_csscal(i1 - i0, (float)beta,
                             CP(C) + i0 + (size_t)j * ldc, 1);
        }
        return 0;
    }
    if (dt == QRU_COMPLEX_DOUBLE)
        cblas_zherk(CblasColMajor, u, t, n, k, alpha, ZP(A), lda, beta, ZP(C),
                    ldc);
    else
        cblas_cherk(CblasColMajor, u, t, n, k, (float)alpha, CP(A), lda,
                    (float)beta, CP(C), ldc);
    return 0;
}

static int cpu_syrk(qru_context *ctx, qru_dtype dt, char uplo, char trans,
                    int n, int k, double alpha, qru_ptr A, int lda,
                    double beta, qru_ptr C, int ldc)
{
    (void)ctx;
    if (n <= 0 || (k <= 0 && beta == 1.0))
        return 0;
    enum CBLAS_UPLO u = (uplo == 'U') ? CblasUpper : CblasLower;
    if (qru_dtype_complex(dt)) /* A'A with ' the conjugate transpose */
        return cpu_herk(dt, u, trans, n, k, alpha, A, lda, beta, C, ldc);
    if (k <= 0) { /* C = beta C on the triangle */
        if (dt == QRU_DOUBLE)
            for (int j = 0; j < n; ++j) {
                int i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : n;
                cblas_dscal(i1 - i0, beta, DP(C) + i0 + (size_t)j * ldc, 1);
            }
        else
            for (int j = 0; j < n; ++j) {
                int i0 = uplo == 'U' ? 0 : j, i1 = uplo == 'U' ? j + 1 : n;
                cblas_sscal(i1 - i0, (float)beta, SP(C) + i0 + (size_t)j * ldc,
                            1);
            }
        return 0;
    }
    if (dt == QRU_DOUBLE)
        cblas_dsyrk(CblasColMajor, u, cbt(trans), n, k, alpha, DP(A), lda,
                    beta, DP(C), ldc);
    else
        cblas_ssyrk(CblasColMajor, u, cbt(trans), n, k, (float)alpha, SP(A),
                    lda, (float)beta, SP(C), ldc);
    return 0;
}

static int cpu_lacpy(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                     qru_ptr A, int lda, qru_ptr B, int ldb)
{
    (void)ctx;
    CPU_BY_TYPE(dt, lacpy, uplo, m, n, HP(dt, A), lda, HP(dt, B), ldb);
    return 0;
}

/* The info slot of the potrf_panel convention (a dt element; complex:
 * its real part): whether it is set, and info := base + bad where
 * bad != 0. */
static int cpu_info_get(qru_dtype dt, qru_ptr info)
{
    switch (dt) {
    case QRU_DOUBLE:
        return *DP(info) != 0.0;
    case QRU_FLOAT:
        return *SP(info) != 0.0f;
    case QRU_COMPLEX_DOUBLE:
        return *ZP(info) != 0.0;
    default:
        return *CP(info) != 0.0f;
    }
}
static void cpu_info_set(qru_dtype dt, qru_ptr info, int base, int bad)
{
    if (!bad)
        return;
    switch (dt) {
    case QRU_DOUBLE:
        *DP(info) = (double)(base + bad);
        break;
    case QRU_FLOAT:
        *SP(info) = (float)(base + bad);
        break;
    case QRU_COMPLEX_DOUBLE:
        *ZP(info) = (double)(base + bad);
        break;
    default:
        *CP(info) = (float)(base + bad);
    }
}

static int cpu_potrf_panel(qru_context *ctx, qru_dtype dt, char uplo, int n,
                           qru_ptr A, int lda, qru_ptr info, int base)
{
    (void)ctx;
    if (cpu_info_get(dt, info) || n <= 0)
        return 0;
    cpu_info_set(dt, info, base,
                 CPU_BY_TYPE(dt, potrf_panel, uplo, n, HP(dt, A), lda));
    return 0;
}

static int cpu_chol_rot(qru_context *ctx, qru_dtype dt, int n, int k,
                        int sign, qru_ptr L, int ldl, qru_ptr W, int ldw,
                        qru_ptr info, int base)
{
    (void)ctx;
    if (cpu_info_get(dt, info) || n <= 0 || k <= 0)
        return 0;
    cpu_info_set(dt, info, base,
                 CPU_BY_TYPE(dt, chol_rot, n, k, sign, HP(dt, L), ldl,
                             HP(dt, W), ldw));
    return 0;
}

/* ---- batched ops: the problems over the context's threads ----
 * Each op packs its arguments, and its range function runs the kernel
 * on problems b0 .. b0 + cnt - 1 (every paged array, info and rho2 moved
 * to problem b0) with one problem's work; cpu_batch_run splits the batch
 * over the threads of the pool in ctx->impl (cpu_pool.c). */

/* Array x of the arguments a at problem b0, whose pages are s apart. */
#define CPU_PAGE(a, x, s) qru_ptr_add((a)->x, (size_t)b0 * (size_t)(s))

/* Runs fn over the count problems of args on the threads the tuning's
 * batch_threads and batch_thread_work give a batch of count problems of
 * about flops each (at least one); a thread's work: pw elements (the
 * caller's: work).  lapack: the problems are LAPACK calls (the thin
 * creation), which by default (batch_threads 0) run on the calling thread
 * where OpenBLAS runs threads of its own: each page's blocked QR then
 * spreads over them, and two levels of threads contend (2-core machine,
 * docs/performance.md: 300 pages of 400 x 40 in 111 ms on one batch
 * thread, 190 ms on two). */
static void cpu_batch_run(qru_context *ctx, qru_dtype dt, int count,
                          double flops, size_t pw, qru_cpu_range_fn fn,
                          const void *args, qru_ptr work, int lapack)
{
    const qru_tuning *t = qru_ctx_tuning(ctx, dt);
    int nt = t->batch_threads > 0 ? t->batch_threads
             : lapack && QRU_OPENBLAS_THREADS() > 1 ? 1
                                                     : qru_cpu_auto_threads();
    if (t->batch_thread_work > 0) {
        double by = (double)count * flops / (double)t->batch_thread_work;
        if (by < (double)nt)
            nt = by < 1.0 ? 1 : (int)by;
    }
    qru_cpu_pool *pool = ctx->impl;
    qru_cpu_pool_run(&pool, nt, count, pw * qru_dtype_size(dt), fn, args,
                     work);
    ctx->impl = pool;
}

/* gemm_batched: the pages b0 .. b0 + cnt - 1, a gemm each. */
typedef struct cpu_gemm_batch_args {
    qru_context *ctx;
    qru_dtype dt;
    char ta, tb;
    int m, n, k, lda, ldb, ldc;
    double alpha, beta;
    qru_ptr A, B, C;
    size_t sA, sB, sC;
} cpu_gemm_batch_args;

static void cpu_gemm_batch_range(const void *v, int b0, int cnt, qru_ptr work)
{
    const cpu_gemm_batch_args *a = v;
    (void)work;
    for (int i = b0; i < b0 + cnt; ++i) {
        size_t p = (size_t)i;
        cpu_gemm(a->ctx, a->dt, a->ta, a->tb, a->m, a->n, a->k, a->alpha,
                 qru_ptr_add(a->A, p * a->sA), a->lda,
                 qru_ptr_add(a->B, p * a->sB), a->ldb, a->beta,
                 qru_ptr_add(a->C, p * a->sC), a->ldc);
    }
}

/* The pages on the batch threads as BLAS calls (lapack: with a threaded
 * OpenBLAS, by default on the calling thread, each GEMM on its threads). */
static int cpu_gemm_batched(qru_context *ctx, qru_dtype dt, char ta, char tb,
                            int m, int n, int k, double alpha, qru_ptr A,
                            int lda, size_t sA, qru_ptr B, int ldb, size_t sB,
                            double beta, qru_ptr C, int ldc, size_t sC,
                            int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    cpu_gemm_batch_args a = {ctx, dt, ta, tb, m, n, k, lda, ldb, ldc,
                             alpha, beta, A, B, C, sA, sB, sC};
    qru_ptr none = {NULL, 0};
    cpu_batch_run(ctx, dt, count, 2.0 * m * (double)n * (k > 0 ? k : 1), 0,
                  cpu_gemm_batch_range, &a, none, 1);
    return 0;
}

static int cpu_geadd_batched(qru_context *ctx, qru_dtype dt, int m, int n,
                             double alpha, qru_ptr A, int lda, size_t sA,
                             double beta, qru_ptr B, int ldb, size_t sB,
                             int count)
{
    (void)ctx;
    if (m <= 0 || n <= 0)
        return 0;
    for (int i = 0; i < count; ++i) {
        qru_ptr Ai = qru_ptr_add(A, (size_t)i * sA);
        qru_ptr Bi = qru_ptr_add(B, (size_t)i * sB);
        CPU_BY_TYPE(dt, geadd, m, n, alpha, HP(dt, Ai), lda, beta, HP(dt, Bi),
                    ldb);
    }
    return 0;
}

typedef struct cpu_chol_batch_args {
    qru_dtype dt;
    int ins; /* chol_insdel_batch: 1 insert, 0 delete; -1 the update */
    char uplo;
    int n, k, p, sign, ldl, ldc, ld1;
    qru_ptr L, C, L1, info, cnt; /* C: W of the update; cnt: the update's
                                  * ranks, the others' mask */
    size_t sL, sC, s1;
} cpu_chol_batch_args;

static void cpu_chol_batch_range(const void *v, int b0, int cnt,
                                 qru_ptr work)
{
    const cpu_chol_batch_args *a = v;
    qru_ptr L = CPU_PAGE(a, L, a->sL), C = CPU_PAGE(a, C, a->sC),
            L1 = CPU_PAGE(a, L1, a->s1), info = CPU_PAGE(a, info, 1),
            K = a->cnt.h ? CPU_PAGE(a, cnt, 1) : a->cnt;
    qru_dtype dt = a->dt;
    if (a->ins < 0)
        CPU_BY_TYPE(dt, chol_update_batch, a->uplo, a->n, a->k, a->sign, cnt,
                    HP(dt, L), a->ldl, a->sL, HP(dt, C), a->ldc, a->sC,
                    HP(dt, L1), a->ld1, a->s1, HP(dt, info), HP(dt, K),
                    HP(dt, work));
    else
        CPU_BY_TYPE(dt, chol_insdel_batch, a->ins, a->uplo, a->n, a->k, a->p,
                    cnt, HP(dt, L), a->ldl, a->sL,
                    a->ins ? HP(dt, C) : NULL, a->ldc, a->sC, HP(dt, L1),
                    a->ld1, a->s1, HP(dt, info), HP(dt, K), HP(dt, work));
}

/* The Cholesky batches: order n1 and rank r of the new factors, about
 * n1^2 (3 r + 1) flops a problem (the copy and the rotations). */
static void cpu_chol_batch(qru_context *ctx, const cpu_chol_batch_args *a,
                           int count, int n1, int r, qru_ptr work)
{
    cpu_batch_run(ctx, a->dt, count, (double)n1 * n1 * (3.0 * r + 1.0),
                  qru_chol_batch_work(n1, r), cpu_chol_batch_range, a, work,
                  0);
}

static int cpu_chol_update_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                 int n, int k, int sign, int count,
                                 qru_ptr L, int ldl, size_t sL, qru_ptr W,
                                 int ldw, size_t sW, qru_ptr L1, int ld1,
                                 size_t s1, qru_ptr info, qru_ptr cnt,
                                 qru_ptr work)
{
    if (n <= 0 || count <= 0)
        return 0;
    cpu_chol_batch_args a = {dt, -1, uplo, n, k, 0, sign, ldl, ldw, ld1,
                             L, W, L1, info, cnt, sL, sW, s1};
    cpu_chol_batch(ctx, &a, count, n, k, work);
    return 0;
}

static int cpu_chol_insert_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                 int n, int k, int p, int count, qru_ptr L,
                                 int ldl, size_t sL, qru_ptr C, int ldc,
                                 size_t sC, qru_ptr L1, int ld1, size_t s1,
                                 qru_ptr info, qru_ptr cnt, qru_ptr work)
{
    if (n + p <= 0 || count <= 0)
        return 0;
    cpu_chol_batch_args a = {dt, 1, uplo, n, k, p, 0, ldl, ldc, ld1,
                             L, C, L1, info, cnt, sL, sC, s1};
    cpu_chol_batch(ctx, &a, count, n + p, p, work);
    return 0;
}

static int cpu_chol_delete_batch(qru_context *ctx, qru_dtype dt, char uplo,
                                 int n, int k, int p, int count, qru_ptr L,
                                 int ldl, size_t sL, qru_ptr L1, int ld1,
                                 size_t s1, qru_ptr info, qru_ptr cnt,
                                 qru_ptr work)
{
    if (n - p <= 0 || count <= 0)
        return 0;
    qru_ptr none = {NULL, 0};
    cpu_chol_batch_args a = {dt, 0, uplo, n, k, p, 0, ldl, 1, ld1,
                             L, none, L1, info, cnt, sL, 0, s1};
    cpu_chol_batch(ctx, &a, count, n - p, p, work);
    return 0;
}

/* The least-squares batches: the arguments of all their ops (what an op
 * lacks is unused).  lapack: where the thin creation's range functions
 * store LAPACK's first nonzero info (a bad argument). */
typedef struct cpu_lsq_batch_args {
    qru_dtype dt;
    int m, r, n, k, p, thin;
    int ldr, ldd, ldq, lde, ldu, ldf, ldx, ldv, ld1, ldd1, ldq1, lde1;
    qru_ptr R, D, Q, E, U, F, X, V, R1, D1, Q1n, E1, rho2, info, cnt;
    size_t sR, sD, sQ, sE, sU, sF, sX, sV, s1, sD1, sQ1, sE1;
    lapack_int lw;
    atomic_int *lapack;
} cpu_lsq_batch_args;

static void cpu_lsq_batch_add_rows_range(const void *v, int b0, int cnt,
                                         qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            rho2 = CPU_PAGE(a, rho2, a->r), U = CPU_PAGE(a, U, a->sU),
            E = CPU_PAGE(a, E, a->sE),
            C = a->cnt.h ? CPU_PAGE(a, cnt, 1) : a->cnt;
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_add_rows, a->m, a->r, a->p, cnt, HP(dt, R),
                a->ldr, a->sR, HP(dt, D), a->ldd, a->sD, HP(dt, rho2),
                HP(dt, U), a->ldu, a->sU, HP(dt, E), a->lde, a->sE, HP(dt, C),
                HP(dt, work));
}

static int cpu_lsq_batch_add_rows(qru_context *ctx, qru_dtype dt, int m,
                                  int r, int p, int count, qru_ptr R,
                                  int ldr, size_t sR, qru_ptr D, int ldd,
                                  size_t sD, qru_ptr rho2, qru_ptr U,
                                  int ldu, size_t sU, qru_ptr E, int lde,
                                  size_t sE, qru_ptr cnt, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .p = p, .ldr = ldr,
                            .ldd = ldd, .ldu = ldu, .lde = lde, .R = R,
                            .D = D, .U = U, .E = E, .rho2 = rho2, .cnt = cnt,
                            .sR = sR, .sD = sD, .sU = sU, .sE = sE};
    /* a rotation of the row with each row of [R d] */
    cpu_batch_run(ctx, dt, count, 3.0 * p * m * (m + 2.0 * r),
                  qru_lsq_batch_work(m, r), cpu_lsq_batch_add_rows_range,
                  &a, work, 0);
    return 0;
}

static void cpu_lsq_batch_solve_range(const void *v, int b0, int cnt,
                                      qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            X = CPU_PAGE(a, X, a->sX), info = CPU_PAGE(a, info, 1);
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_solve, a->m, a->r, a->n, cnt, HP(dt, R), a->ldr,
                a->sR, HP(dt, D), a->ldd, a->sD, HP(dt, X), a->ldx, a->sX,
                HP(dt, info), HP(dt, work));
}

/* (any: never a flag, the CPU has no verdict_flag) */
static int cpu_lsq_batch_solve(qru_context *ctx, qru_dtype dt, int m, int r,
                               int n, int count, qru_ptr R, int ldr,
                               size_t sR, qru_ptr D, int ldd, size_t sD,
                               qru_ptr X, int ldx, size_t sX, qru_ptr info,
                               qru_ptr any, qru_ptr work)
{
    (void)any;
    if (m <= 0 || r <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .n = n, .ldr = ldr,
                            .ldd = ldd, .ldx = ldx, .R = R, .D = D, .X = X,
                            .info = info, .sR = sR, .sD = sD, .sX = sX};
    /* the column norms and the back substitution */
    cpu_batch_run(ctx, dt, count, (double)m * m * (r + 1.0),
                  qru_lsq_batch_work(m, r), cpu_lsq_batch_solve_range, &a,
                  work, 0);
    return 0;
}

/* A range's additions, then its solves (the range's pages still in the
 * cache). */
static void cpu_lsq_batch_add_solve_range(const void *v, int b0, int cnt,
                                          qru_ptr work)
{
    cpu_lsq_batch_add_rows_range(v, b0, cnt, work);
    cpu_lsq_batch_solve_range(v, b0, cnt, work);
}

static int cpu_lsq_batch_add_solve(qru_context *ctx, qru_dtype dt, int m,
                                   int r, int p, int n, int count, qru_ptr R,
                                   int ldr, size_t sR, qru_ptr D, int ldd,
                                   size_t sD, qru_ptr rho2, qru_ptr U,
                                   int ldu, size_t sU, qru_ptr E, int lde,
                                   size_t sE, qru_ptr X, int ldx, size_t sX,
                                   qru_ptr info, qru_ptr any, qru_ptr work)
{
    (void)any;
    if (m <= 0 || r <= 0 || count <= 0)
        return 0;
    qru_ptr none = {NULL, 0};
    cpu_lsq_batch_args a = {
        .dt = dt, .m = m, .r = r, .p = p, .n = n, .ldr = ldr, .ldd = ldd,
        .ldu = ldu, .lde = lde, .ldx = ldx, .R = R, .D = D, .U = U, .E = E,
        .X = X, .rho2 = rho2, .info = info, .cnt = none, .sR = sR, .sD = sD,
        .sU = sU, .sE = sE, .sX = sX};
    cpu_batch_run(ctx, dt, count,
                  3.0 * p * m * (m + 2.0 * r) + (double)m * m * (r + 1.0),
                  qru_lsq_batch_work(m, r), cpu_lsq_batch_add_solve_range,
                  &a, work, 0);
    return 0;
}

static void cpu_lsq_batch_add_rows_q_range(const void *v, int b0, int cnt,
                                           qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            Q = CPU_PAGE(a, Q, a->sQ), E = CPU_PAGE(a, E, a->sE),
            U = CPU_PAGE(a, U, a->sU), F = CPU_PAGE(a, F, a->sF);
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_add_rows_q, a->m, a->r, a->n, a->p, cnt,
                HP(dt, R), a->ldr, a->sR, HP(dt, D), a->ldd, a->sD, HP(dt, Q),
                a->ldq, a->sQ, HP(dt, E), a->lde, a->sE, HP(dt, U), a->ldu,
                a->sU, HP(dt, F), a->ldf, a->sF, HP(dt, work));
}

static int cpu_lsq_batch_add_rows_q(qru_context *ctx, qru_dtype dt, int m,
                                    int r, int n, int p, int count,
                                    qru_ptr R, int ldr, size_t sR, qru_ptr D,
                                    int ldd, size_t sD, qru_ptr Q, int ldq,
                                    size_t sQ, qru_ptr E, int lde, size_t sE,
                                    qru_ptr U, int ldu, size_t sU, qru_ptr F,
                                    int ldf, size_t sF, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .n = n, .p = p,
                            .ldr = ldr, .ldd = ldd, .ldq = ldq, .lde = lde,
                            .ldu = ldu, .ldf = ldf, .R = R, .D = D, .Q = Q,
                            .E = E, .U = U, .F = F, .sR = sR, .sD = sD,
                            .sQ = sQ, .sE = sE, .sU = sU, .sF = sF};
    /* the rotations of [R d], then of Q1's columns, and E's update */
    cpu_batch_run(ctx, dt, count,
                  p * (3.0 * m * (m + 2.0 * r) +
                       (n + (double)p) * (6.0 * m + 2.0 * r)),
                  qru_lsq_batch_q_add_work(n, m, r, p),
                  cpu_lsq_batch_add_rows_q_range, &a, work, 0);
    return 0;
}

static void cpu_lsq_batch_remove_rows_q_range(const void *v, int b0,
                                              int cnt, qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            Q = CPU_PAGE(a, Q, a->sQ), E = CPU_PAGE(a, E, a->sE),
            info = CPU_PAGE(a, info, 1),
            C = a->cnt.h ? CPU_PAGE(a, cnt, 1) : a->cnt;
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_remove_rows_q, a->m, a->r, a->n, a->k, a->p, cnt,
                HP(dt, R), a->ldr, a->sR, HP(dt, D), a->ldd, a->sD, HP(dt, Q),
                a->ldq, a->sQ, HP(dt, E), a->lde, a->sE, HP(dt, info),
                HP(dt, C), HP(dt, work));
}

static int cpu_lsq_batch_remove_rows_q(qru_context *ctx, qru_dtype dt, int m,
                                       int r, int n, int k, int p, int count,
                                       qru_ptr R, int ldr, size_t sR,
                                       qru_ptr D, int ldd, size_t sD,
                                       qru_ptr Q, int ldq, size_t sQ,
                                       qru_ptr E, int lde, size_t sE,
                                       qru_ptr info, qru_ptr cnt,
                                       qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .n = n, .k = k,
                            .p = p, .ldr = ldr, .ldd = ldd, .ldq = ldq,
                            .lde = lde, .R = R, .D = D, .Q = Q, .E = E,
                            .info = info, .cnt = cnt, .sR = sR, .sD = sD,
                            .sQ = sQ, .sE = sE};
    /* the completion (three products with Q1), Gram-Schmidt, the sweeps
     * on [Q1 Qz] and on [R d] */
    double mp = (double)m + p;
    cpu_batch_run(ctx, dt, count,
                  p * (6.0 * n * m + 4.0 * n * p + 6.0 * mp * (n + m + r)),
                  qru_lsq_batch_q_rm_work(n, m, r, p),
                  cpu_lsq_batch_remove_rows_q_range, &a, work, 0);
    return 0;
}
static void cpu_lsq_batch_remove_cols_range(const void *v, int b0, int cnt,
                                            qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            rho2 = a->thin ? a->rho2 : CPU_PAGE(a, rho2, a->r),
            Q = a->thin ? CPU_PAGE(a, Q, a->sQ) : a->Q,
            E = a->thin ? CPU_PAGE(a, E, a->sE) : a->E;
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_remove_cols, a->m, a->r, a->n, a->k, a->p, cnt,
                a->thin, HP(dt, R), a->ldr, a->sR, HP(dt, D), a->ldd, a->sD,
                HP(dt, rho2), HP(dt, Q), a->ldq, a->sQ, HP(dt, E), a->lde,
                a->sE, HP(dt, work));
}

static int cpu_lsq_batch_remove_cols(qru_context *ctx, qru_dtype dt, int m,
                                     int r, int n, int k, int p, int count,
                                     int thin, qru_ptr R, int ldr, size_t sR,
                                     qru_ptr D, int ldd, size_t sD,
                                     qru_ptr rho2, qru_ptr Q, int ldq,
                                     size_t sQ, qru_ptr E, int lde, size_t sE,
                                     qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .n = n, .k = k,
                            .p = p, .thin = thin, .ldr = ldr, .ldd = ldd,
                            .ldq = ldq, .lde = lde, .R = R, .D = D, .Q = Q,
                            .E = E, .rho2 = rho2, .sR = sR, .sD = sD,
                            .sQ = sQ, .sE = sE};
    /* the rotations of [R d] (and of Q1's columns), E's update */
    double L = (double)m - k;
    cpu_batch_run(ctx, dt, count,
                  3.0 * p * L * L + 6.0 * p * L * (r + (thin ? n : 0)),
                  qru_lsq_batch_rmc_work(m, r, k, p),
                  cpu_lsq_batch_remove_cols_range, &a, work, 0);
    return 0;
}

static void cpu_lsq_batch_add_cols_q_range(const void *v, int b0, int cnt,
                                           qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            Q = CPU_PAGE(a, Q, a->sQ), E = CPU_PAGE(a, E, a->sE),
            V = CPU_PAGE(a, V, a->sV), R1 = CPU_PAGE(a, R1, a->s1),
            D1 = CPU_PAGE(a, D1, a->sD1), Q1n = CPU_PAGE(a, Q1n, a->sQ1),
            E1 = CPU_PAGE(a, E1, a->sE1), info = CPU_PAGE(a, info, 1);
    qru_dtype dt = a->dt;
    CPU_BY_TYPE(dt, lsq_batch_add_cols_q, a->m, a->r, a->n, a->k, a->p, cnt,
                HP(dt, R), a->ldr, a->sR, HP(dt, D), a->ldd, a->sD, HP(dt, Q),
                a->ldq, a->sQ, HP(dt, E), a->lde, a->sE, HP(dt, V), a->ldv,
                a->sV, HP(dt, R1), a->ld1, a->s1, HP(dt, D1), a->ldd1, a->sD1,
                HP(dt, Q1n), a->ldq1, a->sQ1, HP(dt, E1), a->lde1, a->sE1,
                HP(dt, info), HP(dt, work));
}

static int cpu_lsq_batch_add_cols_q(
    qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p,
    int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD,
    qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr V,
    int ldv, size_t sV, qru_ptr R1, int ld1, size_t s1, qru_ptr D1, int ldd1,
    size_t sD1, qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1, int lde1,
    size_t sE1, qru_ptr info, qru_ptr work)
{
    if (m <= 0 || r <= 0 || p <= 0 || count <= 0)
        return 0;
    cpu_lsq_batch_args a = {
        .dt = dt,   .m = m,       .r = r,       .n = n,       .k = k,
        .p = p,     .ldr = ldr,   .ldd = ldd,   .ldq = ldq,   .lde = lde,
        .ldv = ldv, .ld1 = ld1,   .ldd1 = ldd1, .ldq1 = ldq1, .lde1 = lde1,
        .R = R,     .D = D,       .Q = Q,       .E = E,       .V = V,
        .R1 = R1,   .D1 = D1,     .Q1n = Q1n,   .E1 = E1,     .info = info,
        .sR = sR,   .sD = sD,     .sQ = sQ,     .sE = sE,     .sV = sV,
        .s1 = s1,   .sD1 = sD1,   .sQ1 = sQ1,   .sE1 = sE1};
    /* CGS2 and the Gram-Schmidt of Z, the rotations of [R1 d1] and Q1' */
    cpu_batch_run(ctx, dt, count,
                  12.0 * n * p * ((double)m + 0.5 * (m - k)) +
                      3.0 * p * (double)(m - k) * (m + p + r),
                  qru_lsq_batch_acq_work(m, r, k, p),
                  cpu_lsq_batch_add_cols_q_range, &a, work, 0);
    return 0;
}

static void cpu_lsq_batch_geqr_thin_range(const void *v, int b0, int cnt,
                                          qru_ptr work)
{
    const cpu_lsq_batch_args *a = v;
    qru_ptr A = CPU_PAGE(a, U, a->sU), B = CPU_PAGE(a, F, a->sF),
            R = CPU_PAGE(a, R, a->sR), D = CPU_PAGE(a, D, a->sD),
            Q = CPU_PAGE(a, Q, a->sQ), E = CPU_PAGE(a, E, a->sE);
    qru_dtype dt = a->dt;
    lapack_int info = CPU_BY_TYPE(
        dt, lsq_batch_geqr_thin, a->m, a->r, a->n, cnt, HP(dt, A), a->ldu,
        a->sU, HP(dt, B), a->ldf, a->sF, HP(dt, R), a->ldr, a->sR, HP(dt, D),
        a->ldd, a->sD, HP(dt, Q), a->ldq, a->sQ, HP(dt, E), a->lde, a->sE,
        HP(dt, work), a->lw);
    if (info)
        atomic_store(a->lapack, (int)info);
}
#undef CPU_PAGE

static int cpu_chol_r1_prep(qru_context *ctx, qru_dtype dt, char uplo, int n,
                            int k, int sign, qru_ptr L, int ldl, qru_ptr p,
                            int ldp, int kw, qru_ptr W, int ldw, qru_ptr work,
                            qru_ptr head, qru_ptr adiag, qru_ptr info,
                            int base)
{
    CPU_REAL_ONLY(dt, "chol_r1_prep");
    (void)ctx;
    if (n <= 0 || cpu_info_get(dt, info))
        return 0;
    cpu_info_set(dt, info, base,
                 dt == QRU_DOUBLE
                     ? chol_r1_prep_d(uplo, n, k, sign, DP(L), ldl, DP(p),
                                      ldp, kw, DP(W), ldw, DP(work), DP(head),
                                      DP(adiag))
                     : chol_r1_prep_s(uplo, n, k, sign, SP(L), ldl, SP(p),
                                      ldp, kw, SP(W), ldw, SP(work), SP(head),
                                      SP(adiag)));
    return 0;
}

static int cpu_chol_r1_solve_prep(qru_context *ctx, qru_dtype dt, char uplo,
                                  int n, int sign, qru_ptr L, int ldl,
                                  qru_ptr w, qru_ptr p, qru_ptr work,
                                  qru_ptr head, qru_ptr adiag, qru_ptr info,
                                  int base)
{
    CPU_REAL_ONLY(dt, "chol_r1_solve_prep");
    (void)ctx;
    if (n <= 0 || cpu_info_get(dt, info))
        return 0;
    cpu_info_set(dt, info, base,
                 dt == QRU_DOUBLE
                     ? chol_r1_solve_prep_d(uplo, n, sign, DP(L), ldl, DP(w),
                                            DP(p), DP(work), DP(head),
                                            DP(adiag))
                     : chol_r1_solve_prep_s(uplo, n, sign, SP(L), ldl, SP(w),
                                            SP(p), SP(work), SP(head),
                                            SP(adiag)));
    return 0;
}

static int cpu_chol_r1_apply(qru_context *ctx, qru_dtype dt, char uplo, int n,
                             int k, qru_ptr L, int ldl, qru_ptr L1, int ld1,
                             qru_ptr p, int ldp, qru_ptr work)
{
    CPU_REAL_ONLY(dt, "chol_r1_apply");
    (void)ctx;
    if (n <= 0)
        return 0;
    if (dt == QRU_DOUBLE)
        chol_r1_apply_d(uplo, n, k, DP(L), ldl, DP(L1), ld1, DP(p), ldp,
                        DP(work), NULL, 0);
    else
        chol_r1_apply_s(uplo, n, k, SP(L), ldl, SP(L1), ld1, SP(p), ldp,
                        SP(work), NULL, 0);
    return 0;
}

static int cpu_chol_r1_rhs(qru_context *ctx, qru_dtype dt, int n, int r,
                           int sign, qru_ptr p, qru_ptr work, qru_ptr X,
                           int ldx, qru_ptr Y, int ldy, qru_ptr e, int ince,
                           qru_ptr du)
{
    CPU_REAL_ONLY(dt, "chol_r1_rhs");
    (void)ctx;
    if (n <= 0 || r <= 0)
        return 0;
    if (dt == QRU_DOUBLE)
        chol_r1_rhs_d(n, r, sign, DP(p), DP(work), DP(X), ldx, DP(Y), ldy,
                      DP(e), ince, DP(du));
    else
        chol_r1_rhs_s(n, r, sign, SP(p), SP(work), SP(X), ldx, SP(Y), ldy,
                      SP(e), ince, SP(du));
    return 0;
}

static int cpu_omp_gram_step(qru_context *ctx, qru_dtype dt, int n, int m,
                             int ncoef, int k, double inv, double rr0,
                             double thr, qru_ptr X, int ldx, qru_ptr y,
                             qru_ptr ws)
{
    CPU_REAL_ONLY(dt, "omp_gram_step");
    (void)ctx;
    if (dt == QRU_DOUBLE)
        omp_gram_step_d(n, m, ncoef, k, inv, rr0, thr, DP(X), ldx,
                        k < 0 ? DP(y) : NULL, DP(ws));
    else
        omp_gram_step_s(n, m, ncoef, k, (float)inv, (float)rr0, (float)thr,
                        SP(X), ldx, k < 0 ? SP(y) : NULL, SP(ws));
    return 0;
}

static int cpu_lars_gram_step(qru_context *ctx, qru_dtype dt, int m,
                              int kmax, int hw, int mode, int flags, int it,
                              int t, int q, int ci, int u, int na, int qs,
                              double sv, double piv, double C, qru_ptr G,
                              qru_ptr Gs, qru_ptr W, qru_ptr S, qru_ptr V,
                              qru_ptr Vb, qru_ptr out, qru_ptr ls, qru_ptr P)
{
    CPU_REAL_ONLY(dt, "lars_gram_step");
    (void)ctx, (void)Vb;
    if (m <= 0 || (mode == QRU_LARS_STEP && hw <= 0))
        return 0;
    if (dt == QRU_DOUBLE)
        lars_gram_step_d(m, kmax, hw, mode, flags, it, t, q, ci, u, na, qs,
                         sv, piv, C, DP(G), DP(Gs), DP(W), DP(S), DP(V),
                         DP(out), DP(ls), DP(P));
    else
        lars_gram_step_s(m, kmax, hw, mode, flags, it, t, q, ci, u, na, qs,
                         (float)sv, (float)piv, (float)C, SP(G), SP(Gs),
                         SP(W), SP(S), SP(V), SP(out), SP(ls), SP(P));
    return 0;
}

/* ---- fused panels ---- */
static int cpu_panel_qr(qru_context *ctx, qru_dtype dt, int m, int nb,
                        qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W,
                        int ldw, qru_ptr tau, qru_ptr work)
{
    (void)ctx;
    if (m <= 0 || nb <= 0)
        return 0;
    CPU_BY_TYPE(dt, panel_qr, m, nb, HP(dt, A), lda, HP(dt, Y), ldy,
                HP(dt, W), ldw, HP(dt, tau), HP(dt, work));
    return 0;
}

/* LAPACK's lwork for geqrf + ormqr (r > 0) + orgqr (qc columns) of an
 * n x m problem (workspace queries; no array is accessed). */
static int lapack_lwork(qru_dtype dt, int n, int m, int qc, int r,
                        size_t *lw)
{
    int k = n < m ? n : m;
    double d[4] = {0, 0, 0, 0}, best = 1.0;
    float s[4] = {0, 0, 0, 0};
    double complex z[4] = {0, 0, 0, 0};
    float complex c[4] = {0, 0, 0, 0};
    lapack_int info;
    for (int which = 0; which < 3; ++which) {
        if (which == 1 && r <= 0)
            continue;
        double got;
        /* LAPACK P geqrf, P U mqr (Q' C: 'T', complex 'C') or P U gqr */
#define QRU_LWORK_(P, U, tr, a)                                                \
    (which == 0   ? LAPACKE_##P##geqrf_work(LAPACK_COL_MAJOR, n, m, a, n, a, a, \
                                            -1)                                \
     : which == 1 ? LAPACKE_##P##U##mqr_work(LAPACK_COL_MAJOR, 'L', tr, n, r, \
                                             k, a, n, a, a, n, a, -1)          \
                  : LAPACKE_##P##U##gqr_work(LAPACK_COL_MAJOR, n, qc, k, a, n, \
                                             a, a, -1))
        if (dt == QRU_COMPLEX_DOUBLE) {
            info = QRU_LWORK_(z, un, 'C', z);
            got = creal(z[0]);
        } else if (dt == QRU_COMPLEX_FLOAT) {
            info = QRU_LWORK_(c, un, 'C', c);
            got = crealf(c[0]);
        } else if (dt == QRU_DOUBLE) {
            info = QRU_LWORK_(d, or, 'T', d);
            got = d[0];
        } else {
            info = QRU_LWORK_(s, or, 'T', s);
            got = s[0];
        }
#undef QRU_LWORK_
        if (info != 0)
            return QRU_ERR_INTERNAL;
        if (got > best)
            best = got;
    }
    *lw = (size_t)best;
    return 0;
}

/* LAPACKE geqrf + ormqr (Q'B) + orgqr (Q's qc columns), ws = [tau (k),
 * work]. */
static int cpu_geqrf_full(qru_context *ctx, qru_dtype dt, int n, int m,
                          qru_ptr A, int lda, qru_ptr Q, int ldq, int qc,
                          qru_ptr B, int ldb, int r, qru_ptr ws,
                          size_t *ws_elems)
{
    (void)ctx;
    int k = n < m ? n : m;
    if (n <= 0 || m <= 0) {
        if (!ws.h)
            *ws_elems = 0;
        return 0;
    }
    size_t lw = 0;
    int st = lapack_lwork(dt, n, m, qc, r, &lw);
    if (st)
        return st;
    if (!ws.h) {
        *ws_elems = (size_t)k + lw;
        return 0;
    }
    lapack_int info = 0;
    /* LAPACK P geqrf, P U mqr (Q' B: 'T', complex 'C'), P U gqr on arrays of
     * ET (pointers PP), then R's zeros */
#define QRU_GEQRF_(P, U, tr, ET, PP)                                           \
    do {                                                                       \
        ET *a = PP(A), *tau = PP(ws), *w = tau + k;                            \
        info = LAPACKE_##P##geqrf_work(LAPACK_COL_MAJOR, n, m, a, lda, tau, w, \
                                       (lapack_int)lw);                        \
        if (!info && B.h && r > 0)                                             \
            info = LAPACKE_##P##U##mqr_work(LAPACK_COL_MAJOR, 'L', tr, n, r,   \
                                            k, a, lda, tau, PP(B), ldb, w,     \
                                            (lapack_int)lw);                   \
        if (!info && Q.h) {                                                    \
            lacpy_##P('L', n, k, a, lda, PP(Q), ldq);                          \
            info = LAPACKE_##P##U##gqr_work(LAPACK_COL_MAJOR, n, qc, k, PP(Q), \
                                            ldq, tau, w, (lapack_int)lw);      \
        }                                                                      \
        if (!info && n > 1)                                                    \
            laset_##P('L', n - 1, m < n - 1 ? m : n - 1, 0.0, 0.0, a + 1,      \
                      lda);                                                    \
    } while (0)
    if (dt == QRU_COMPLEX_DOUBLE)
        QRU_GEQRF_(z, un, 'C', double complex, ZP);
    else if (dt == QRU_COMPLEX_FLOAT)
        QRU_GEQRF_(c, un, 'C', float complex, CP);
    else if (dt == QRU_DOUBLE)
        QRU_GEQRF_(d, or, 'T', double, DP);
    else
        QRU_GEQRF_(s, or, 'T', float, SP);
#undef QRU_GEQRF_
    return info == 0 ? 0 : QRU_ERR_INTERNAL; /* info < 0: a bad argument */
}

/* The thin QR of count pages by LAPACK (lsq_batch_geqr_thin in
 * qru_ops.h): work = tau (m) and LAPACK's work for geqrf, ormqr and
 * orgqr, reused for every page. */
static int cpu_lsq_batch_geqr_thin(qru_context *ctx, qru_dtype dt, int m,
                                   int r, int n, int count, qru_ptr A,
                                   int lda, size_t sA, qru_ptr B, int ldb,
                                   size_t sB, qru_ptr R, int ldr, size_t sR,
                                   qru_ptr D, int ldd, size_t sD, qru_ptr Q,
                                   int ldq, size_t sQ, qru_ptr E, int lde,
                                   size_t sE, qru_ptr work,
                                   size_t *work_elems)
{
    size_t lw = 0;
    if (m > 0 && n > 0) {
        int st = lapack_lwork(dt, n, m, m, r, &lw);
        if (st)
            return st;
    }
    if (!work.h) {
        *work_elems = m > 0 && n > 0 ? (size_t)m + lw : 0;
        return 0;
    }
    if (m <= 0 || r <= 0 || n <= 0 || count <= 0)
        return 0;
    atomic_int lapack = 0;
    cpu_lsq_batch_args a = {.dt = dt, .m = m, .r = r, .n = n, .ldu = lda,
                            .ldf = ldb, .ldr = ldr, .ldd = ldd, .ldq = ldq,
                            .lde = lde, .U = A, .F = B, .R = R, .D = D,
                            .Q = Q, .E = E, .sU = sA, .sF = sB, .sR = sR,
                            .sD = sD, .sQ = sQ, .sE = sE,
                            .lw = (lapack_int)lw, .lapack = &lapack};
    /* geqrf, ormqr, orgqr and the GEMM of E; each thread's work: tau
     * and LAPACK's (m + lw elements) */
    cpu_batch_run(ctx, dt, count,
                  4.0 * n * (double)m * m + 6.0 * n * (double)m * r,
                  (size_t)m + lw, cpu_lsq_batch_geqr_thin_range, &a, work,
                  1);
    /* a nonzero info: a bad argument */
    return atomic_load(&lapack) == 0 ? 0 : QRU_ERR_INTERNAL;
}

/* LAPACK potrf of the uplo triangle (potrf_full in qru_ops.h).
 * OpenBLAS's potrf tests pivots with "<= 0", which lets a NaN pivot pass:
 * after a successful call the first diagonal element of the factor that
 * is not > 0 (a NaN) gives the failing column, as potrf_panel would. */
static int cpu_potrf_full(qru_context *ctx, qru_dtype dt, char uplo, int n,
                          qru_ptr A, int lda, qru_ptr info_slot, qru_ptr ws,
                          size_t *ws_elems)
{
    (void)ctx;
    if (!ws.h) {
        *ws_elems = 0;
        return 0;
    }
    if (n <= 0)
        return 0;
    char u = (uplo == 'U' || uplo == 'u') ? 'U' : 'L';
    lapack_int info;
    /* LAPACK P potrf on ET (pointers PP; complex: the Hermitian A, whose
     * pivots are the real parts of the diagonal) */
#define QRU_POTRF_(P, ET, PP, RE_)                                             \
    do {                                                                       \
        ET *a = PP(A);                                                         \
        info = LAPACKE_##P##potrf_work(LAPACK_COL_MAJOR, u, n, a, lda);        \
        for (int j = 0; info == 0 && j < n; ++j)                               \
            if (!(RE_(a[(size_t)j * lda + j]) > 0))                            \
                info = j + 1;                                                  \
    } while (0)
#define QRU_ID_(x) (x)
    if (dt == QRU_DOUBLE)
        QRU_POTRF_(d, double, DP, QRU_ID_);
    else if (dt == QRU_FLOAT)
        QRU_POTRF_(s, float, SP, QRU_ID_);
    else if (dt == QRU_COMPLEX_DOUBLE)
        QRU_POTRF_(z, double complex, ZP, creal);
    else
        QRU_POTRF_(c, float complex, CP, crealf);
#undef QRU_POTRF_
#undef QRU_ID_
    if (info != 0) { /* the potrf_panel convention: only if still 0 */
        if (dt == QRU_DOUBLE && DP(info_slot)[0] == 0.0)
            DP(info_slot)[0] = (double)info;
        else if (dt == QRU_FLOAT && SP(info_slot)[0] == 0.0f)
            SP(info_slot)[0] = (float)info;
        else if (dt == QRU_COMPLEX_DOUBLE && ZP(info_slot)[0] == 0.0)
            ZP(info_slot)[0] = (double)info;
        else if (dt == QRU_COMPLEX_FLOAT && CP(info_slot)[0] == 0.0f)
            CP(info_slot)[0] = (float)info;
    }
    return 0;
}

/* Every REQ op of the list (qru_ops.h) is cpu_<name>; the OPT and CAP
 * ops the CPU has are named below (the others are the reference ops). */
#define CPU_OP_(name, params, args, need, stat) CPU_OP_##need(name)
#define CPU_OP_REQ(name) .name = cpu_##name,
#define CPU_OP_OPT(name)
#define CPU_OP_CAP(name)
const qru_backend_ops qru_cpu_ops = {
    .name = "cpu",
    .id = QRU_BACKEND_CPU,
    .probe = cpu_probe,
    .init = cpu_init,
    .fini = cpu_fini,
    .supports = cpu_supports,
    .device_type = cpu_device_type,
    .mem_alloc = cpu_alloc,
    .mem_free = cpu_free,
    QRU_OPS(CPU_OP_)
    .panel_qr = cpu_panel_qr,
    .givens_sweeps = cpu_givens_sweeps,
    .chol_r1_solve_prep = cpu_chol_r1_solve_prep,
    .lsq_batch_add_solve = cpu_lsq_batch_add_solve,
    .geqrf_full = cpu_geqrf_full,
    .potrf_full = cpu_potrf_full,
    .complex_ops = ((1ull << QRU_OP_COUNT) - 1) & ~CPU_REAL_ONLY_OPS,
    /* one block per element type (float has double's values) */
    .tuning = {[QRU_TUNING_FLOAT] = {.qr_nb = 32,
                                     .chol_nb = 128,
                                     .geqrf_min_k = 0,
                                     .potrf_min_n = 1,
                                     .upd_panel_nb = 64,
                                     .upd_panel_min_nb = 16,
                                     .upd_rows_nb = 128,
                                     .sweeps_max_work = 32768,
                                     .upd_tiles = 0,
                                     .omp_gram = 0,
                                     .omp_gram_mib = 2048,
                                     .lars_gram = 0,
                                     .nnls_gram = 0,
                                     .batch_threads = 0,
                                     .sweeps_acc_min_p = 16,
                                     .sweeps_acc_nb = 48,
                                     .chol_r1_max_k = 1,
                                     .upd_givens = 0,
                                     .upd_r1 = 0,
                                     .batch_thread_work = 100000,
                                     .cost = {8e9, 20e9, 20e9, 1e-7, 0.0, 0.0, 0.0, 0.0, 40e9,
                        0.0, 0.0, 0.0, 0.0}},
               [QRU_TUNING_DOUBLE] = {
                   .qr_nb = 32,
                   .chol_nb = 128,
                   /* LAPACK's QR measured no faster than qru's blocked
                    * QR on OpenBLAS: only with QRU_TUNE_QR_VENDOR = 2 */
                   .geqrf_min_k = 0,
                   /* LAPACKE potrf measured faster than qru's own
                    * QRU_CHOL_LEFT at every n (docs/performance.md) */
                   .potrf_min_n = 1,
                   .upd_panel_nb = 64,
                   .upd_panel_min_nb = 16,
                   .upd_rows_nb = 128,
                   .sweeps_max_work = 32768,
                   /* tiles or sweeps by the cost model */
                   .upd_tiles = 0,
                   /* OMP's Gram form where priced faster, G up to
                    * 2 GiB of host memory */
                   .omp_gram = 0,
                   .omp_gram_mib = 2048,
                   .lars_gram = 0,
                   .nnls_gram = 0,
                   /* the batched ops on the online CPUs (at most 16) */
                   .batch_threads = 0,
                   /* sweeps of p >= 16 rotations a step accumulated in
                    * groups of max(p, 48) */
                   .sweeps_acc_min_p = 16,
                   .sweeps_acc_nb = 48,
                   .chol_r1_max_k = 1,
                   .upd_givens = 0,
                   .upd_r1 = 0,
                   /* a thread for each 100000 flops of a batch (the
                    * threads' start, docs/performance.md) */
                   .batch_thread_work = 100000,
                   /* rate_upd: BLAS rot and the fused sweeps over long
                    * lines (bench_plan_ops, rank-1 and p = 1 updates);
                    * per_call: a host function call, not a launch */
                   .cost = {8e9, 20e9, 20e9, 1e-7, 0.0, 0.0, 0.0, 0.0, 40e9,
                        0.0, 0.0, 0.0, 0.0}}},
};

