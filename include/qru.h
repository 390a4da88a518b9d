/**
 * @file qru.h
 * @brief qru: dense QR and Cholesky factorisations that are *updated*, not
 *        recomputed, on CPUs and GPUs.
 *
 * Conventions used throughout this header
 * ---------------------------------------
 * - Matrices are column-major with a leading dimension (ld >= rows, ld >= 1).
 * - All indices in the C API are 0-based.  A position argument k counts the
 *   rows or columns that stay *before* the affected block.  The one-line
 *   MATLAB specifications in the documentation use MATLAB's 1-based
 *   indexing applied to the same objects.
 * - Element type (float or double) is a run-time property of each matrix
 *   (::qru_dtype); every routine works for both, and all matrix arguments of
 *   one call must share it.
 * - Every function that can fail returns an int status:
 *     - 0            success (#QRU_SUCCESS);
 *     - -i           argument i (1-based, in the order of the prototype) is
 *                    invalid; arguments are checked in order and before any
 *                    quick return, so the first bad one is reported;
 *     - > 0          a numerical failure, e.g. the (1-based) column where
 *                    rank or definiteness is lost;
 *     - <= -1000     a library error (allocation, device, unavailable
 *                    backend, ...), see ::qru_status and qru_strerror().
 *   A call that fails leaves its outputs and the caller's factorisation
 *   unchanged, unless its documentation says otherwise.
 * - The library never prints and never aborts.
 */
#ifndef QRU_H
#define QRU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QRU_VERSION_MAJOR 0
#define QRU_VERSION_MINOR 1
#define QRU_VERSION_PATCH 0

/** Library status codes (see the file documentation for the -i range). */
typedef enum qru_status {
    QRU_SUCCESS = 0,
    /** Host or device memory could not be allocated. */
    QRU_ERR_ALLOC = -1001,
    /** The backend is not compiled in, or no device/platform was found. */
    QRU_ERR_BACKEND_UNAVAILABLE = -1002,
    /** The device, driver or a vendor library reported an error. */
    QRU_ERR_DEVICE = -1003,
    /** The request is valid but not supported here (e.g. double on a device
     *  without fp64). */
    QRU_ERR_UNSUPPORTED = -1004,
    /** The operation needs the orthogonal factor Q, which this factorisation
     *  does not hold (created without #QRU_LSQ_KEEP_Q). */
    QRU_ERR_NO_Q = -1005,
    /** A device program (OpenCL kernel source) failed to build. */
    QRU_ERR_BUILD = -1006,
    /** An internal invariant failed; please report it. */
    QRU_ERR_INTERNAL = -1099
} qru_status;

/** Backends.  #QRU_BACKEND_AUTO picks CUDA, then OpenCL, then CPU. */
typedef enum qru_backend {
    QRU_BACKEND_AUTO = 0,
    QRU_BACKEND_CPU = 1,
    QRU_BACKEND_CUDA = 2,
    QRU_BACKEND_OPENCL = 3
} qru_backend;

/** Element types. */
typedef enum qru_dtype { QRU_FLOAT = 1, QRU_DOUBLE = 2 } qru_dtype;

/** A library context: backend, device, stream/queue, vendor-library handles
 *  and a workspace pool.  Not thread-safe: use one context per thread. */
typedef struct qru_context qru_context;

/** A matrix living in a context's memory (host memory for the CPU backend,
 *  device memory for GPU backends). */
typedef struct qru_matrix qru_matrix;

/** A least-squares problem min ||A x - b|| held as its QR factorisation. */
typedef struct qru_lsq qru_lsq;

/* ------------------------------------------------------------------------ */
/** @name Library information */
/** @{ */

/** Version string "MAJOR.MINOR.PATCH". */
const char *qru_version(void);

/** Message for a status code; never NULL.  For -i the message names an
 *  invalid argument, for > 0 a numerical failure. */
const char *qru_strerror(int status);

/** Name of a backend ("auto", "cpu", "cuda", "opencl"), or "unknown". */
const char *qru_backend_name(qru_backend backend);

/** 1 if the backend was compiled into this build of the library, else 0. */
int qru_backend_compiled(qru_backend backend);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Contexts */
/** @{ */

/** Options for qru_context_create_ex().  Initialise with
 *  qru_context_options_init(); fields a backend does not use are ignored. */
typedef struct qru_context_options {
    /** Device index (CUDA ordinal or OpenCL device within the platform);
     *  -1: the backend's default (or the QRU_DEVICE environment variable). */
    int device;
    /** OpenCL platform index; -1: default (or QRU_PLATFORM). */
    int platform;
    /** A stream (cudaStream_t) or command queue (cl_command_queue) to
     *  adopt; NULL: the context creates and owns its own. */
    void *stream;
    /** A cuBLAS handle to adopt; NULL: create one. */
    void *blas_handle;
    /** A cuSOLVER dense handle to adopt; NULL: create one. */
    void *solver_handle;
} qru_context_options;

/** Sets every field of @p opt to its default. */
void qru_context_options_init(qru_context_options *opt);

/** Creates a context for @p backend with default options.
 *  @param[out] ctx     the new context (1)
 *  @param[in]  backend which backend (2)
 *  @return 0, -1, -2, #QRU_ERR_BACKEND_UNAVAILABLE, #QRU_ERR_ALLOC,
 *          #QRU_ERR_DEVICE. */
int qru_context_create(qru_context **ctx, qru_backend backend);

/** Creates a context with options (NULL @p opt means defaults).
 *  Argument numbers: ctx (1), backend (2), opt (3). */
int qru_context_create_ex(qru_context **ctx, qru_backend backend,
                          const qru_context_options *opt);

/** Destroys a context (NULL is allowed).  Matrices and factorisations
 *  created in it must be freed first. */
void qru_context_destroy(qru_context *ctx);

/** The backend the context runs on (never #QRU_BACKEND_AUTO). */
qru_backend qru_context_backend(const qru_context *ctx);

/** A human-readable name of the device the context runs on. */
const char *qru_context_device_name(const qru_context *ctx);

/** 1 if the context's device computes in @p dtype, 0 if not. */
int qru_context_supports(const qru_context *ctx, qru_dtype dtype);

/** Waits until all work queued on the context has finished.
 *  @return 0 or #QRU_ERR_DEVICE (-1 if ctx is NULL). */
int qru_context_sync(qru_context *ctx);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Matrices */
/** @{ */

/** Allocates a rows x cols matrix in the context's memory, contents
 *  undefined.  ld = 0 means ld = max(1, rows).
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), ld (5), M (6).
 *  @return 0, -i, #QRU_ERR_UNSUPPORTED, #QRU_ERR_ALLOC. */
int qru_matrix_create(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, qru_matrix **M);

/** Wraps a caller's buffer without copying: a host pointer for the CPU
 *  backend, a device pointer for CUDA, a cl_mem for OpenCL.  The buffer must
 *  hold ld*cols elements and outlive the matrix; qru_matrix_free() does not
 *  free it.  ld = 0 means max(1, rows).
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), mem (5), ld (6), M (7).
 */
int qru_matrix_wrap(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    void *mem, int ld, qru_matrix **M);

/** Copies a host column-major array (leading dimension @p ldh) into M.
 *  M = host(1:rows, 1:cols).  Arguments: M (1), host (2), ldh (3). */
int qru_matrix_upload(qru_matrix *M, const void *host, int ldh);

/** Copies M into a host column-major array (leading dimension @p ldh).
 *  host(1:rows, 1:cols) = M.  Arguments: M (1), host (2), ldh (3). */
int qru_matrix_download(const qru_matrix *M, void *host, int ldh);

/** Copies one matrix into another of the same context, type and size:
 *  B = A.  Arguments: A (1), B (2). */
int qru_matrix_copy(const qru_matrix *A, qru_matrix *B);

/** Frees a matrix (NULL is allowed); a wrapped buffer is not freed. */
void qru_matrix_free(qru_matrix *M);

int qru_matrix_rows(const qru_matrix *M);   /**< rows, or -1 if M is NULL */
int qru_matrix_cols(const qru_matrix *M);   /**< cols, or -1 if M is NULL */
int qru_matrix_ld(const qru_matrix *M);     /**< ld, or -1 if M is NULL */
qru_dtype qru_matrix_dtype(const qru_matrix *M); /**< element type */
/** The backend memory handle (host pointer, CUDA device pointer or cl_mem)
 *  of the first element's buffer. */
void *qru_matrix_data(const qru_matrix *M);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name QR factorisation */
/** @{ */

/** Blocked Householder QR factorisation (the WY blocking of Andrew 2012,
 *  section 3.1).
 *
 *  MATLAB: `[Q, R] = qr(A); d = Q' * B;`  then A := R, Q := Q, B := d.
 *
 *  @param ctx context (1)
 *  @param A   n x m, overwritten by the upper trapezoidal R, with exact
 *             zeros below the diagonal (2)
 *  @param Q   NULL, or n x n: receives the full orthogonal factor (3)
 *  @param B   NULL, or n x r right-hand sides: overwritten by Q' * B (4)
 *  @param nb  block size; 0 chooses the backend's default, >= 1 (5)
 *  @return 0 or -i; #QRU_ERR_ALLOC / #QRU_ERR_DEVICE on resource failure.
 *  R(i,i) may be zero when A is rank-deficient; this is not an error here
 *  (the least-squares solve reports it).
 */
int qru_qr_factor(qru_context *ctx, qru_matrix *A, qru_matrix *Q,
                  qru_matrix *B, int nb);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Least squares held as an updatable QR factorisation */
/** @{ */

/** Keep the full n x n orthogonal factor Q (needed by the column-adding and
 *  row-removing updates). */
#define QRU_LSQ_KEEP_Q 1u

/** Options for qru_lsq_create(); initialise with qru_lsq_options_init(). */
typedef struct qru_lsq_options {
    unsigned flags;    /**< #QRU_LSQ_KEEP_Q or 0; default #QRU_LSQ_KEEP_Q */
    int nb;            /**< Householder block size, 0 = backend default */
    int row_capacity;  /**< rows reserved (>= n), 0 = n; grows on demand */
    int col_capacity;  /**< columns reserved (>= m), 0 = m; grows on demand */
} qru_lsq_options;

/** Sets every field of @p opt to its default. */
void qru_lsq_options_init(qru_lsq_options *opt);

/** Factorises the least-squares problem min ||A x - b||_2 (A is n x m with
 *  n >= m >= 1, b is n x r with r >= 1) into a new object holding R (n x m,
 *  upper trapezoidal), d = Q' b and, with #QRU_LSQ_KEEP_Q, Q.  A and b are
 *  not modified.
 *
 *  MATLAB: `[Q, R] = qr(A); d = Q' * b;`
 *
 *  Arguments: ctx (1), A (2), b (3), opt (4, may be NULL for defaults),
 *  f (5).  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
int qru_lsq_create(qru_context *ctx, const qru_matrix *A, const qru_matrix *b,
                   const qru_lsq_options *opt, qru_lsq **f);

/** Frees a factorisation (NULL is allowed). */
void qru_lsq_destroy(qru_lsq *f);

/** Least-squares solution by back substitution: x = R(1:m,1:m) \ d(1:m,:).
 *
 *  MATLAB: `x = A \ b` (for A of full column rank).
 *
 *  Arguments: ctx (1), f (2), x (3: m x r, same dtype).
 *  @return 0, -i, or i > 0 when R(i,i) is exactly zero (A is
 *  rank-deficient; x is then left unchanged). */
int qru_lsq_solve(qru_context *ctx, const qru_lsq *f, qru_matrix *x);

/** Residual norms ||A x - b(:,j)||_2 = ||d(m+1:n, j)||_2 for j = 1..r.
 *
 *  MATLAB: `res(j) = norm(d(m+1:n, j))`
 *
 *  Arguments: ctx (1), f (2), res (3: r doubles on the host). */
int qru_lsq_residual(qru_context *ctx, const qru_lsq *f, double *res);

int qru_lsq_rows(const qru_lsq *f);  /**< n, or -1 if f is NULL */
int qru_lsq_cols(const qru_lsq *f);  /**< m, or -1 if f is NULL */
int qru_lsq_nrhs(const qru_lsq *f);  /**< r, or -1 if f is NULL */
int qru_lsq_has_q(const qru_lsq *f); /**< 1 if Q is held, 0 if not or NULL */
qru_dtype qru_lsq_dtype(const qru_lsq *f); /**< element type */

/** Copies R (n x m, upper trapezoidal, zeros below) into @p R.
 *  MATLAB: `R_out = R`.  Arguments: ctx (1), f (2), R (3: n x m). */
int qru_lsq_get_r(qru_context *ctx, const qru_lsq *f, qru_matrix *R);

/** Copies Q (n x n) into @p Q; #QRU_ERR_NO_Q if not held.
 *  MATLAB: `Q_out = Q`.  Arguments: ctx (1), f (2), Q (3: n x n). */
int qru_lsq_get_q(qru_context *ctx, const qru_lsq *f, qru_matrix *Q);

/** Copies d = Q' b (n x r) into @p d.
 *  MATLAB: `d_out = Q' * b`.  Arguments: ctx (1), f (2), d (3: n x r). */
int qru_lsq_get_d(qru_context *ctx, const qru_lsq *f, qru_matrix *d);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* QRU_H */
