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
 * - Element type (float, double, complex float or complex double) is a
 *   run-time property of each matrix (::qru_dtype), and all matrix
 *   arguments of one call must share it.  Every routine works for float
 *   and double; the complex types are taken by the QR factorisation,
 *   least squares, the QR updates and column shift, the Cholesky
 *   factorisation, solve and shift and qru_trsm() on every backend, by
 *   the Cholesky update, insertion and deletion (and their batches) on the
 *   CPU backend, and by the least-squares batches (every form and routine
 *   on the CPU backend, the Q-less form's routines on every backend)
 *   (::qru_dtype says which routines).  With complex data the
 *   ' of the MATLAB specifications is the conjugate transpose, as in
 *   MATLAB.
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
 * - Shared memory.  Where a routine says that two arguments must not
 *   overlap, it returns -i (i the later of the two) when they have an
 *   element in common, wherever their headers come from: views of one
 *   buffer (qru_lsq_view_q(), qru_lsq_view_r()), pointers wrapped into one
 *   allocation (CPU, CUDA) or OpenCL sub-buffers of one buffer.  Matrices
 *   of one allocation with different leading dimensions count as
 *   overlapping when the spans from their first to their last element
 *   overlap; one matrix given for both overlaps itself, even when empty.
 *
 * Non-finite inputs (NaN, +Inf, -Inf)
 * -----------------------------------
 * - By default (as in LAPACK and the BLAS) input data is not scanned.  With
 *   a non-finite value in any input every call still terminates (no hang,
 *   crash or out-of-bounds access) and returns one of its documented
 *   statuses; a call that returns a nonzero status leaves the caller's
 *   data and factorisation bit-identical.  The outputs of a successful call
 *   on non-finite input are unspecified (they may hold NaN or Inf).  The
 *   routines that judge rank or definiteness treat a non-finite pivot as a
 *   numerical failure (a positive status, see below).
 * - With qru_context_set_option(ctx, #QRU_OPTION_CHECK_FINITE, 1) every
 *   routine that takes input data scans it before it changes anything and
 *   returns -i, i the 1-based argument that holds a non-finite value (as
 *   LAPACKE's NaN check does).  Scanned: the input matrices as far as the
 *   routine reads them (e.g. only the referenced triangle of a triangular
 *   or symmetric argument, only triu(R) of qru_lsq_create_from_qr()), the
 *   alpha of qru_trsm() and the host arrays x, y, xs of the Gaussian
 *   process routines; not scanned: output-only arguments and the
 *   factorisation held in a ::qru_lsq or ::qru_gp object.  Arguments are
 *   still checked in order: the checks of argument i (including its scan)
 *   come before those of argument i + 1.  The scan reads every element
 *   once (a host round trip on a GPU).
 *
 * Rank and definiteness
 * ---------------------
 * One tolerance per kind of factorisation, eps = FLT_EPSILON or
 * DBL_EPSILON by element type; the status is the first (1-based) column j
 * that fails.
 * - QR (qru_lsq_solve(), qru_lsq_add_cols(), qru_lsq_batch_solve() (each
 *   problem)): R (n x m) is judged
 *   rank-deficient at column j when R(j,j) is not finite or
 *   |R(j,j)| <= max(n, m) * eps * max_i ||R(1:i,i)||_2, the maximum over
 *   the finite column norms (the column norms of R are those of A, since Q
 *   is orthogonal).  An exactly zero column always fails.
 * - Cholesky (qru_chol_factor(), qru_chol_update() (update and downdate),
 *   qru_chol_update_batch(), qru_chol_insert_batch(),
 *   qru_chol_delete_batch() (each problem),
 *   qru_chol_insert(), qru_chol_delete(), qru_chol_shift(), qru_gp_create(),
 *   qru_gp_insert(), qru_gp_remove()):
 *   the factor of a symmetric (complex: Hermitian) A of order n is judged
 *   not positive definite
 *   at column j when the pivot d_j (= L(j,j)^2, before the square root) is
 *   not finite or d_j <= n * eps * max_i A(i,i), the maximum over the
 *   finite diagonal entries of A (LAPACK dpstrf's default tolerance); a
 *   non-finite diagonal entry of A fails at its own column at the latest.
 *   Since A(i,i) = ||L(i,:)||^2 the tolerance can be evaluated from a
 *   factor as well.
 * - Row removals of the thin and Q-less forms (qru_lsq_remove_rows(),
 *   qru_lsq_remove_rows_data()) judge A1 by the downdate before they
 *   change anything: the removals' rank rule, documented there.
 *
 * API rule (docs/API.md): names qru_<object>_<verb>; create/destroy;
 * outputs last; routines on matrices take the context first, calls on an
 * object that holds its context (qru_matrix, qru_lsq, qru_gp) take the
 * object first; every option set is an enum; -i names argument i, in
 * declaration order; only QRU_API functions are exported.
 */
#ifndef QRU_H
#define QRU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the functions of the public API: the only symbols the shared
 * library exports (it is built with hidden visibility).  On Windows the
 * library's own sources are compiled with QRU_BUILDING (dllexport) and
 * users of the DLL import them (dllimport); a static libqru is used with
 * QRU_STATIC defined (the CMake target qru and qru.pc define it when the
 * library is static), which leaves QRU_API empty. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(QRU_STATIC)
#define QRU_API
#elif defined(QRU_BUILDING)
#define QRU_API __declspec(dllexport)
#else
#define QRU_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define QRU_API __attribute__((visibility("default")))
#else
#define QRU_API
#endif

#define QRU_VERSION_MAJOR 0
#define QRU_VERSION_MINOR 2
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
     *  does not hold (see ::qru_lsq_q). */
    QRU_ERR_NO_Q = -1005,
    /** A device program (OpenCL kernel source) failed to build. */
    QRU_ERR_BUILD = -1006,
    /** An internal invariant failed; please report it. */
    QRU_ERR_INTERNAL = -1099
} qru_status;

/** Backends.  #QRU_BACKEND_AUTO picks CUDA, then OpenCL on a GPU or
 *  accelerator, then the CPU backend; an OpenCL CPU device (e.g. PoCL) only
 *  when a platform or device index asks for it (qru_context_options,
 *  QRU_PLATFORM, QRU_DEVICE) or when the CPU backend cannot be created:
 *  on a CPU, the CPU backend is the faster of the two. */
typedef enum qru_backend {
    QRU_BACKEND_AUTO = 0,
    QRU_BACKEND_CPU = 1,
    QRU_BACKEND_CUDA = 2,
    QRU_BACKEND_OPENCL = 3
} qru_backend;

/** Element types.
 *
 *  The complex types are stored as C99 `float complex` / `double complex`
 *  (C++ `std::complex<float>` / `<double>`): interleaved (re, im) pairs,
 *  the layout of LAPACK, cuBLAS and NumPy's complex64 / complex128; a
 *  leading dimension and an element offset count complex elements.
 *
 *  Complex data (#QRU_COMPLEX_FLOAT, #QRU_COMPLEX_DOUBLE) is supported by
 *  the CPU, CUDA and OpenCL backends (qru_context_supports() says so;
 *  OpenCL's complex double needs a device with double precision, where
 *  qru_matrix_create() and qru_matrix_wrap() return #QRU_ERR_UNSUPPORTED
 *  without it) for: the matrices
 *  (qru_matrix_create() ... qru_matrix_copy()), qru_qr_factor(), the
 *  least-squares factorisation in its three forms (qru_lsq_create(),
 *  qru_lsq_create_from_qr(), qru_lsq_solve(), the accessors and the error
 *  estimate), the four updates in every form (qru_lsq_add_cols(),
 *  qru_lsq_add_cols_data(), qru_lsq_remove_cols(), qru_lsq_add_rows(),
 *  qru_lsq_remove_rows(), qru_lsq_remove_rows_data()),
 *  qru_lsq_modify() and qru_lsq_shift_cols(), with every
 *  ::qru_update_algorithm; qru_chol_factor(), qru_chol_solve(),
 *  qru_chol_update(), qru_chol_insert(), qru_chol_delete(),
 *  qru_chol_shift(), qru_trsm(), qru_chol_update_batch(),
 *  qru_chol_insert_batch(), qru_chol_delete_batch() and their _ex
 *  forms; the least-squares batches in their three forms (#QRU_Q_NONE,
 *  #QRU_Q_THIN, #QRU_Q_FULL: qru_lsq_batch_create(),
 *  qru_lsq_batch_create_ex(), qru_lsq_batch_add_rows(),
 *  qru_lsq_batch_remove_rows(), qru_lsq_batch_remove_cols(),
 *  qru_lsq_batch_add_cols(), qru_lsq_batch_add_cols_data(),
 *  qru_lsq_batch_modify() and their _ex forms, qru_lsq_batch_solve(),
 *  qru_lsq_batch_residual_norms() and the getters).  The batches' rotations are zlartg's (R's diagonal
 *  complex, as in the single routines).  Their MATLAB specifications hold with ' the conjugate
 *  transpose (Q is unitary, d = Q' * b, A + U * V'; A = L * L' is
 *  Hermitian positive definite), and the rank rules use the moduli
 *  |R(j,j)| and the eps of the real base type (FLT_EPSILON for complex
 *  float).  R's diagonal is complex (LAPACK's zgeqrf makes it real; here
 *  R is unique up to the phases of its rows); a Cholesky factor's
 *  diagonal is real and positive, and of A's and a factor's diagonal only
 *  the real parts are read (as LAPACK's zpotrf does).  The updates of one
 *  row or column take their blocked paths with complex data (the Givens
 *  chains and structured rank-1 passes that #QRU_UPDATE_FAST may choose
 *  for p = 1 are real only), and so do qru_chol_update() and the
 *  batched Cholesky routines (rotations, not their structured passes).  Every other routine (the solvers, the GP)
 *  returns #QRU_ERR_UNSUPPORTED for complex data, with the reason in qru_last_error().  A tuning parameter set for a complex type is the one
 *  of its real base type (one block for both). */
typedef enum qru_dtype {
    QRU_FLOAT = 1,
    QRU_DOUBLE = 2,
    QRU_COMPLEX_FLOAT = 3,  /**< complex float: (re, im) float pairs */
    QRU_COMPLEX_DOUBLE = 4  /**< complex double: (re, im) double pairs */
} qru_dtype;

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
QRU_API const char *qru_version(void);

/** Message for a status code; never NULL.  For -i the message names an
 *  invalid argument, for > 0 a numerical failure. */
QRU_API const char *qru_strerror(int status);

/** The message of the last failed call: on @p ctx, or with @p ctx NULL
 *  the calling thread's last failed call (including calls that have no
 *  context, such as qru_context_create(), or whose object argument is
 *  NULL).  It names the routine and, for a bad argument, the argument, its
 *  value and the rule it broke, e.g.
 *  "qru_lsq_remove_rows: argument 3: p = 40, but k + p must be <= n = 30
 *  (k = 0)"; for a numerical failure the column and the test; for a
 *  device error the failing operation and the driver's text.  Never NULL;
 *  "" when nothing has failed.  The text stays valid until the next failed
 *  call on the same context (or, with NULL, in the same thread).  Each
 *  thread has its own record, and each context its own copy, so threads
 *  that use their own contexts never see each other's messages. */
QRU_API const char *qru_last_error(const qru_context *ctx);

/** Name of a backend ("auto", "cpu", "cuda", "opencl"), or "unknown". */
QRU_API const char *qru_backend_name(qru_backend backend);

/** 1 if the backend was compiled into this build of the library, else 0.
 *  For CUDA and OpenCL: their module (libqru_cuda.so, libqru_opencl.so)
 *  was built; whether it loads here says qru_backend_info(). */
QRU_API int qru_backend_compiled(qru_backend backend);

/** Whether @p backend can run here, and on what: info = qru_backend_info(backend).
 *  Creates (and destroys) a context with the default options, as
 *  qru_context_create() would, and writes one line into @p buf (at most
 *  @p n bytes with the terminating NUL; a longer line is cut; 512 bytes
 *  hold it):
 *  - usable: the device, its kind and precisions, and what runs it: "host
 *    CPU (OpenBLAS/LAPACKE) [CPU; single yes, double yes]; BLAS ...
 *    (file), LAPACKE (file)" for the CPU backend, "module <file>" for
 *    CUDA and OpenCL; #QRU_BACKEND_AUTO puts the backend it picks in
 *    front ("cpu: host CPU ...");
 *  - not usable: why, as qru_last_error() words it: not compiled in, no
 *    driver, module not found (with the directories searched) or not
 *    loadable, no device.
 *  The CUDA and OpenCL backends are modules that the library loads when
 *  their first context is made (so linking it maps no CUDA or OpenCL
 *  library): they are looked for next to the library (or the program or
 *  Python extension a static libqru is linked into) and in its qru/
 *  subdirectory, then in the install's <libdir>/qru; with the environment
 *  variable QRU_MODULE_DIR set, only in that directory.
 *  @param[in]  backend which backend (1)
 *  @param[out] buf     the line (2)
 *  @param[in]  n       bytes at buf, >= 1 (3)
 *  @return 0 when a context can be made; else the status
 *          qru_context_create() returns (#QRU_ERR_BACKEND_UNAVAILABLE,
 *          #QRU_ERR_DEVICE, #QRU_ERR_ALLOC) with the reason in @p buf; -1,
 *          -2, -3. */
QRU_API int qru_backend_info(qru_backend backend, char *buf, size_t n);

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
QRU_API void qru_context_options_init(qru_context_options *opt);

/** Creates a context for @p backend with default options.
 *  @param[in]  backend which backend (1)
 *  @param[out] ctx     the new context (2)
 *  @return 0, -1, -2, #QRU_ERR_BACKEND_UNAVAILABLE, #QRU_ERR_ALLOC,
 *          #QRU_ERR_DEVICE. */
QRU_API int qru_context_create(qru_backend backend, qru_context **ctx);

/** Creates a context with options (NULL @p opt means defaults).
 *  Argument numbers: backend (1), opt (2), ctx (3: out). */
QRU_API int qru_context_create_ex(qru_backend backend,
                                  const qru_context_options *opt,
                                  qru_context **ctx);

/** Destroys a context (NULL is allowed).  Matrices and factorisations
 *  created in it must be freed first. */
QRU_API void qru_context_destroy(qru_context *ctx);

/** The backend the context runs on (never #QRU_BACKEND_AUTO). */
QRU_API qru_backend qru_context_backend(const qru_context *ctx);

/** A human-readable name of the device the context runs on. */
QRU_API const char *qru_context_device_name(const qru_context *ctx);

/** The kind of device a context runs on (qru_context_device_type()). */
typedef enum qru_device_type {
    /** A CPU: the CPU backend, or an OpenCL CPU device such as PoCL. */
    QRU_DEVICE_CPU = 1,
    /** A GPU (CUDA, or an OpenCL GPU). */
    QRU_DEVICE_GPU = 2,
    /** Another OpenCL accelerator. */
    QRU_DEVICE_ACCELERATOR = 3
} qru_device_type;

/** The kind of device the context runs on; 0 when @p ctx is NULL. */
QRU_API qru_device_type qru_context_device_type(const qru_context *ctx);

/** 1 if the context's device computes in @p dtype, 0 if not. */
QRU_API int qru_context_supports(const qru_context *ctx, qru_dtype dtype);

/** Options of a context (qru_context_set_option()). */
typedef enum qru_context_option {
    /** 1: every routine scans its input data and returns -i for an
     *  argument i that holds a NaN or an infinity, before it changes
     *  anything (see "Non-finite inputs" in the file documentation);
     *  0 (the default): no scan. */
    QRU_OPTION_CHECK_FINITE = 1,
    /** 1: the fused backend kernels that have a reference implementation
     *  (Householder panels, Givens sweeps and their accumulation) run
     *  through it instead, a sequence of the basic kernels with the same
     *  results up to rounding (for tests and comparisons); 0 (the
     *  default): the backend's own kernels. */
    QRU_OPTION_REFERENCE_OPS = 2
} qru_context_option;

/** Sets an option of the context; it applies to the calls that follow.
 *
 *  MATLAB: `ctx.(opt) = value`
 *
 *  Arguments: ctx (1), opt (2: a ::qru_context_option), value (3: 0 or 1
 *  for both options).  @return 0 or -i. */
QRU_API int qru_context_set_option(qru_context *ctx, qru_context_option opt,
                           int value);

/** Reads an option of the context.
 *
 *  MATLAB: `value = ctx.(opt)`
 *
 *  Arguments: ctx (1), opt (2: a ::qru_context_option), value (3: one int
 *  out).  @return 0 or -i (then *value is not written). */
QRU_API int qru_context_get_option(const qru_context *ctx, qru_context_option opt,
                           int *value);

/** Work a context has queued since its creation or the last
 *  qru_context_reset_stats(): for profiling and the benchmarks. */
typedef struct qru_context_stats {
    long long calls;      /**< backend operations (kernels, vendor BLAS /
                               LAPACK calls, copies, transfers, syncs) */
    long long host_waits; /**< of those, the ones that waited for the
                               device (results read on the host) */
    long long bytes_h2d;  /**< bytes copied host -> device */
    long long bytes_d2h;  /**< bytes copied device -> host */
} qru_context_stats;

/** Reads the context's counters.
 *
 *  MATLAB: `stats = ctx.stats`
 *
 *  Arguments: ctx (1), stats (2: out).  @return 0 or -i. */
QRU_API int qru_context_get_stats(const qru_context *ctx, qru_context_stats *stats);

/** Sets the context's counters to zero.
 *
 *  MATLAB: `ctx.stats = zeros`
 *
 *  @return 0 or -1 if ctx is NULL. */
QRU_API int qru_context_reset_stats(qru_context *ctx);

/** The performance parameters of a context (its tuning block), one set
 *  per element type.  Each starts at the backend's default, measured on
 *  the hardware the backend was tuned on; the environment variable named
 *  with each is read once, when the context is created (a value that does
 *  not parse is ignored).  None changes results beyond rounding. */
typedef enum qru_tuning_param {
    /** Householder block size of qru_qr_factor / qru_lsq_create with
     *  nb = 0 (1..4096; QRU_QR_NB). */
    QRU_TUNE_QR_NB = 1,
    /** Block size of the blocked Cholesky factorisation with nb = 0
     *  (1..4096; QRU_CHOL_NB). */
    QRU_TUNE_CHOL_NB,
    /** The vendor QR (LAPACK / cuSOLVER) is the default from
     *  min(n, m) >= this; 0: never (QRU_GEQRF_MIN_K). */
    QRU_TUNE_GEQRF_MIN_K,
    /** The vendor Cholesky is the default from n >= this; 0: never
     *  (QRU_POTRF_MIN_N). */
    QRU_TUNE_POTRF_MIN_N,
    /** Whole QR factorisations: 0 by the threshold, 1 always qru's own,
     *  2 always the vendor's where the backend has one
     *  (QRU_GEQRF=auto|own|vendor). */
    QRU_TUNE_QR_VENDOR,
    /** The same for the Cholesky factorisation
     *  (QRU_POTRF=auto|own|vendor). */
    QRU_TUNE_CHOL_VENDOR,
    /** Width of the fused Householder panels of the QRU_UPDATE_FAST
     *  updates (1..4096; QRU_UPDATE_PANEL_NB). */
    QRU_TUNE_UPDATE_PANEL_NB,
    /** Narrowest panel that runs on chip which the updates take instead
     *  of a wider one that does not (QRU_UPDATE_PANEL_MIN_NB). */
    QRU_TUNE_UPDATE_PANEL_MIN_NB,
    /** Householder block size of the first phase of the QRU_UPDATE_FAST
     *  row removal (1..4096; QRU_UPDATE_ROWS_NB). */
    QRU_TUNE_UPDATE_ROWS_NB,
    /** The fused Givens sweeps (one work-group) run while
     *  min(p, L) x rows <= this (QRU_SWEEPS_MAX_WORK). */
    QRU_TUNE_SWEEPS_MAX_WORK,
    /** Triangular solves with at most 8 right-hand sides on the left run
     *  qru's own kernel from order m >= this (CUDA; elsewhere unused);
     *  0: never, the vendor's trsm (QRU_TRSV_MIN_M). */
    QRU_TUNE_TRSV_MIN_M,
    /** Look-ahead in adding rows, removing columns and the rank-k
     *  modification (QRU_UPDATE_FAST): 1 runs the rest of a block's
     *  trailing update on a second stream beside the next panel (CUDA,
     *  the default there), 0 keeps every call on the context's stream
     *  (QRU_LOOKAHEAD=off|on).  With 1, qru_lsq_modify() applies its
     *  reflectors to Q and d on the second stream as it makes them (with
     *  full Q in place after a backup copy of Q and d, which a failure
     *  copies back; with thin Q on copies of [Q1, the new k columns]),
     *  taking n n (full) or n (m + k) (thin) more elements of workspace,
     *  and runs without them where that memory cannot be had.  The
     *  results are the same up to rounding; elsewhere (one queue) the
     *  same steps run in order. */
    QRU_TUNE_LOOKAHEAD,
    /** Adding columns and removing rows (QRU_UPDATE_FAST, removing rows
     *  with full Q): 0 the Householder tiles (the engine of adding rows)
     *  or the Givens sweeps, whichever the cost model predicts faster;
     *  1 always the sweeps; 2 always the tiles (QRU_UPDATE_TILES=
     *  auto|off|on).  The results are the same up to rounding. */
    QRU_TUNE_UPDATE_TILES,
    /** qru_omp()'s correlations: 0 the residual form or the Gram form,
     *  whichever the cost model prices faster (the Gram form only where
     *  its memory is within #QRU_TUNE_OMP_GRAM_MIB); 1 always the
     *  residual form; 2 always the Gram form
     *  (QRU_OMP_GRAM=auto|off|on).  Both choose the same columns up to
     *  rounding (qru_omp()). */
    QRU_TUNE_OMP_GRAM,
    /** The most MiB of the context's memory that qru_omp()'s Gram form
     *  may take when the cost model chooses it (0..2^30; 0: never by
     *  choice; QRU_OMP_GRAM_MIB).  It also bounds qru_nnls()'s Gram form
     *  and qru_lars()'s under #QRU_TUNE_NNLS_GRAM / #QRU_TUNE_LARS_GRAM
     *  auto. */
    QRU_TUNE_OMP_GRAM_MIB,
    /** qru_lars()'s active set: 0 the thin QR form or the Gram form,
     *  whichever the cost model prices faster (the Gram form only in
     *  double, within #QRU_TUNE_OMP_GRAM_MIB); 1 the thin QR form; 2 the
     *  Gram form (QRU_LARS_GRAM=auto|off|on).  Under 0 a path the Gram
     *  form runs that meets a degenerate column (one dropped by the
     *  pivot rule) runs again from the start in the thin form: in the
     *  Gram form a copy of an active column ties with it exactly, is
     *  tried and dropped, and scikit-learn's rule for a dropped column
     *  (its correlation set to 0) can then break the Lasso's optimality
     *  conditions, as scikit-learn's own path does.  Both forms follow
     *  the same path up to rounding where the Gram matrix resolves the
     *  active set (qru_lars()). */
    QRU_TUNE_LARS_GRAM,
    /** qru_nnls()'s passive set: 0 the thin QR form or the Gram form,
     *  whichever the cost model prices faster (the Gram form only in
     *  double, where its memory is within #QRU_TUNE_OMP_GRAM_MIB); 1
     *  always the thin QR form; 2 always the Gram form
     *  (QRU_NNLS_GRAM=auto|off|on).  Both reach the same solution up to
     *  rounding where the Gram matrix resolves the passive set
     *  (qru_nnls()). */
    QRU_TUNE_NNLS_GRAM,
    /** Threads of the batched routines (qru_chol_update_batch(),
     *  qru_chol_insert_batch(), qru_chol_delete_batch(),
     *  qru_lsq_batch_add_rows(), qru_lsq_batch_remove_rows(),
     *  qru_lsq_batch_remove_cols(), qru_lsq_batch_add_cols() (and
     *  qru_lsq_batch_add_cols_data()),
     *  qru_lsq_batch_solve(), qru_lsq_batch_create(),
     *  qru_lsq_batch_create_ex() and the QRs, products and verdicts of
     *  qru_lsq_batch_modify()) on the CPU
     *  backend, for the batch's element type: a call cuts its problems
     *  into contiguous chunks that the threads take in turn, where the
     *  batch holds enough work (a small one runs on the calling thread
     *  alone); 0 (the default): the CPUs online that the process may run
     *  on, at most 16 (the thin creation, LAPACK a page, on the calling
     *  thread where OpenBLAS runs threads of its own: the two levels of
     *  threads contend); 1: the calling thread alone (0..256;
     *  QRU_BATCH_THREADS).  The results and verdicts are the same bit for
     *  bit for every value.
     *  The threads belong to the context: started by its first batch that
     *  takes them, ended by qru_context_destroy(), each with one
     *  problem's work in host memory of its own; where one cannot be
     *  started (or its memory had) the batch runs on fewer.  Unused by
     *  the GPU backends. */
    QRU_TUNE_BATCH_THREADS
} qru_tuning_param;

/** Sets a tuning parameter of the context for one element type; it
 *  applies to the calls that follow.
 *
 *  MATLAB: `ctx.tuning.(dtype).(param) = value`
 *
 *  Arguments: ctx (1), dtype (2), param (3: a ::qru_tuning_param),
 *  value (4: in the parameter's range).  @return 0 or -i. */
QRU_API int qru_context_set_tuning(qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int value);

/** Reads a tuning parameter of the context.
 *
 *  MATLAB: `value = ctx.tuning.(dtype).(param)`
 *
 *  Arguments: ctx (1), dtype (2), param (3), value (4: one int out).
 *  @return 0 or -i (then *value is not written). */
QRU_API int qru_context_get_tuning(const qru_context *ctx, qru_dtype dtype,
                           qru_tuning_param param, int *value);

/** Waits until all work queued on the context has finished.
 *  @return 0 or #QRU_ERR_DEVICE (-1 if ctx is NULL). */
QRU_API int qru_context_sync(qru_context *ctx);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Matrices */
/** @{ */

/** Allocates a rows x cols matrix in the context's memory, contents
 *  undefined.  ld = 0 means ld = max(1, rows).
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), ld (5), M (6).
 *  @return 0, -i, #QRU_ERR_UNSUPPORTED, #QRU_ERR_ALLOC. */
QRU_API int qru_matrix_create(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                      int ld, qru_matrix **M);

/** Wraps a caller's buffer without copying: a host pointer for the CPU
 *  backend, a device pointer for CUDA, a cl_mem for OpenCL.  The buffer must
 *  hold ld*cols elements and outlive the matrix; qru_matrix_destroy() does not
 *  free it.  ld = 0 means max(1, rows).
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), mem (5), ld (6), M (7).
 */
QRU_API int qru_matrix_wrap(qru_context *ctx, qru_dtype dtype, int rows, int cols,
                    void *mem, int ld, qru_matrix **M);

/** Allocates a batch of count rows x cols matrices ("pages") in the
 *  context's memory, contents undefined: page i (0-based) starts i*stride
 *  elements after the first, each with leading dimension ld.  ld = 0 means
 *  max(1, rows); stride = 0 means ld*cols.  A matrix of qru_matrix_create()
 *  is a batch of count 1.  The batch routines (qru_chol_update_batch(),
 *  qru_chol_insert_batch(), qru_chol_delete_batch(), qru_lsq_batch_*())
 *  take batches; every other routine that takes a matrix takes exactly one
 *  (count 1) and returns -i for a batch of another count.
 *
 *  MATLAB: `M = zeros(rows, cols, count)`
 *
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), ld (5: >= max(1,
 *  rows) or 0), count (6: >= 0), stride (7: >= ld*cols or 0), M (8).
 *  @return 0, -i, #QRU_ERR_UNSUPPORTED, #QRU_ERR_ALLOC. */
QRU_API int qru_matrix_create_batch(qru_context *ctx, qru_dtype dtype,
                                    int rows, int cols, int ld, int count,
                                    long long stride, qru_matrix **M);

/** Wraps a caller's buffer as a batch (see qru_matrix_create_batch() and
 *  qru_matrix_wrap()): the buffer must hold (count-1)*stride + ld*cols
 *  elements and outlive the batch.
 *
 *  MATLAB: `M = reshape(mem, ...)` (pages at mem + i*stride)
 *
 *  Arguments: ctx (1), dtype (2), rows (3), cols (4), mem (5), ld (6),
 *  count (7: >= 0), stride (8: >= ld*cols or 0 for ld*cols), M (9).
 *  @return 0, -i, #QRU_ERR_UNSUPPORTED, #QRU_ERR_ALLOC. */
QRU_API int qru_matrix_wrap_batch(qru_context *ctx, qru_dtype dtype,
                                  int rows, int cols, void *mem, int ld,
                                  int count, long long stride,
                                  qru_matrix **M);

/** Copies a host column-major array (leading dimension @p ldh) into M.
 *  M = host(1:rows, 1:cols).  A batch takes every page: page i from the
 *  host pages, which lie one after another, page i at host +
 *  i*ldh*cols elements (M(:,:,i) = host(1:rows, 1:cols, i)).
 *  Arguments: M (1), host (2), ldh (3). */
QRU_API int qru_matrix_upload(qru_matrix *M, const void *host, int ldh);

/** Copies M into a host column-major array (leading dimension @p ldh).
 *  host(1:rows, 1:cols) = M.  A batch writes every page, page i at host
 *  + i*ldh*cols elements (as qru_matrix_upload()).
 *  Arguments: M (1), host (2), ldh (3). */
QRU_API int qru_matrix_download(const qru_matrix *M, void *host, int ldh);

/** Copies one matrix into another of the same context, type and size:
 *  B = A.  Batches of the same count are copied page by page (their
 *  strides may differ).  Arguments: A (1), B (2). */
QRU_API int qru_matrix_copy(const qru_matrix *A, qru_matrix *B);

/** Frees a matrix (NULL is allowed); a wrapped buffer is not freed. */
QRU_API void qru_matrix_destroy(qru_matrix *M);

QRU_API int qru_matrix_rows(const qru_matrix *M);   /**< rows, or -1 if M is NULL */
QRU_API int qru_matrix_cols(const qru_matrix *M);   /**< cols, or -1 if M is NULL */
QRU_API int qru_matrix_ld(const qru_matrix *M);     /**< ld, or -1 if M is NULL */
/** The number of pages of a batch (1 for a plain matrix), or -1 if M is
 *  NULL. */
QRU_API int qru_matrix_count(const qru_matrix *M);
/** The elements from one page of a batch to the next (ld*cols unless
 *  given), or -1 if M is NULL. */
QRU_API long long qru_matrix_stride(const qru_matrix *M);
QRU_API qru_dtype qru_matrix_dtype(const qru_matrix *M); /**< element type */
/** The backend memory handle (host pointer, CUDA device pointer or cl_mem)
 *  of the first element's buffer. */
QRU_API void *qru_matrix_data(const qru_matrix *M);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name QR factorisation */
/** @{ */

/** Householder QR factorisation.
 *
 *  With nb >= 1 it runs qru's own blocked Householder QR (the WY blocking of
 *  Andrew 2012, section 3.1; one fused panel call per block of nb columns).
 *  With nb = 0 the backend's vendor factorisation is used where it is
 *  measured faster (on CUDA: cuSOLVER geqrf + ormqr + orgqr; on the CPU and
 *  OpenCL: qru's own QR with the default block size).  The environment
 *  variable QRU_GEQRF=own or =vendor forces one path (for benchmarks).
 *  Either way the signs of R's rows may differ between paths; both satisfy
 *  the specification below.
 *
 *  MATLAB: `[Q, R] = qr(A); d = Q' * B;`  then A := R, Q := Q, B := d.
 *
 *  @param ctx context (1)
 *  @param nb  block size; 0 chooses the backend's default, >= 0 (2)
 *  @param A   n x m, overwritten by the upper trapezoidal R, with exact
 *             zeros below the diagonal (3)
 *  @param Q   NULL, or n x n: receives the full orthogonal factor; must
 *             not overlap A (4)
 *  @param B   NULL, or n x r right-hand sides: overwritten by Q' * B; must
 *             not overlap A or Q (5)
 *  @return 0 or -i; #QRU_ERR_ALLOC / #QRU_ERR_DEVICE on resource failure.
 *  R(i,i) may be zero when A is rank-deficient; this is not an error here
 *  (the least-squares solve reports it).  With #QRU_OPTION_CHECK_FINITE,
 *  A and B are scanned (Q is output only).
 */
QRU_API int qru_qr_factor(qru_context *ctx, int nb, qru_matrix *A,
                          qru_matrix *Q, qru_matrix *B);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Least squares held as an updatable QR factorisation */
/** @{ */

/** How a least-squares factorisation holds its orthogonal factor, chosen
 *  at creation (qru_lsq_options::q) and queried with qru_lsq_q_form().
 *  A is n x m, b is n x r; the memory counts elements of the dtype at the
 *  current sizes (it follows the capacities).  All four updates work in
 *  every form; what each needs from the caller is in its documentation. */
typedef enum qru_lsq_q {
    /** The full factorisation `[Q, R] = qr(A); d = Q' * b`: Q (n x n),
     *  R (n x m), d (n x r); n^2 + n (m + r) elements. */
    QRU_Q_FULL = 0,
    /** The economy factorisation `[Q1, R] = qr(A, 0); d = Q1' * b`, and the
     *  residuals E = b - Q1 d (kept so that d stays exact when columns are
     *  added): Q1 (n x m), R (m x m), d (m x r), E (n x r);
     *  n (m + r) + m (m + r) elements, plus p columns of Q1 and p rows of
     *  R and d while an update of p rows or columns runs. */
    QRU_Q_THIN = 1,
    /** Q-less: R (m x m), d = Q1' b (m x r) and the residual norms
     *  ||b(:,j) - A x(:,j)||_2 (r doubles on the host), and A'A and A'b
     *  for qru_lsq_get_error_estimate(); 2 m (m + r) elements, independent of
     *  n (plus p rows while an update runs).
     *  Removing rows and adding columns need the data:
     *  qru_lsq_remove_rows_data(), qru_lsq_add_cols_data(). */
    QRU_Q_NONE = 2
} qru_lsq_q;

/** What qru_lsq_create_from_qr() takes without a copy
 *  (qru_lsq_options::adopt).  With a full Q, Q fits every update but
 *  added rows, R every update but added rows or columns; with an economy
 *  Q, both fit column removals (the other updates work in p more
 *  columns of Q and rows of R). */
typedef enum qru_lsq_adopt {
    QRU_ADOPT_Q = 1, /**< the caller's Q is the object's Q */
    QRU_ADOPT_R = 2  /**< the caller's R is the object's R */
} qru_lsq_adopt;

/** What an update does when the updated A1 is numerically rank-deficient
 *  by the QR rank rule (qru_lsq_options::rank). */
typedef enum qru_lsq_rank {
    /** The default: qru_lsq_add_cols(), qru_lsq_add_cols_data() and
     *  qru_lsq_modify() return j > 0 and leave the factorisation
     *  unchanged (their documented statuses). */
    QRU_RANK_REFUSE = 0,
    /** The update completes wherever its result is still a valid QR
     *  factorisation of A1 (Q1 orthogonal, Q1 R1 = A1, R1 singular):
     *  qru_lsq_add_cols() in the full form and qru_lsq_modify() in both
     *  forms, as MATLAB's qrinsert / qrupdate and SciPy's qr_insert /
     *  qr_update return a QR of a rank-deficient matrix;
     *  qru_lsq_solve() then reports the rank.  Where a rank-deficient
     *  result would not be a valid factorisation the update still
     *  refuses: added columns in the thin form (their new columns of Q1
     *  cannot be formed) and in the Q-less form, and the row removals'
     *  own rules. */
    QRU_RANK_ACCEPT = 1
} qru_lsq_rank;

/** Options for qru_lsq_create(); initialise with qru_lsq_options_init(). */
typedef struct qru_lsq_options {
    int q;             /**< a ::qru_lsq_q value; default #QRU_Q_FULL */
    int nb;            /**< Householder block size, 0 = backend default */
    int row_capacity;  /**< rows reserved (>= n), 0 = n; grows on demand */
    int col_capacity;  /**< columns reserved (>= m), 0 = m; grows on demand */
    /** qru_lsq_create_from_qr() with a Q only: the caller's buffers the
     *  object takes as its storage instead of copying them, a set of
     *  ::qru_lsq_adopt flags (0: copy both).  The capacity is then what
     *  those buffers hold (row_capacity and col_capacity must be 0):
     *  #QRU_ADOPT_Q: Q n x n with ld = n, or an economy Q n x m (any ld,
     *  which becomes the row capacity); #QRU_ADOPT_R: R n x m with ld = n
     *  (full Q), or m x m with ld = m (economy Q); its strictly lower
     *  part is set to zero.  The updates change these buffers in place
     *  while they fit (see ::qru_lsq_adopt); one that needs more moves
     *  the buffer's contents to storage of the object's own (one copy)
     *  and leaves the caller's buffer as it was before that update.  The
     *  buffers must stay allocated until qru_lsq_destroy(), which does not
     *  free them, and must not be used by the caller meanwhile; a failed
     *  update leaves them as they were.  qru_lsq_view_q() and
     *  qru_lsq_view_r() tell where Q and R are after an update. */
    int adopt;
    /** a ::qru_lsq_rank value; default #QRU_RANK_REFUSE */
    int rank;
} qru_lsq_options;

/** Sets every field of @p opt to its default. */
QRU_API void qru_lsq_options_init(qru_lsq_options *opt);

/** Factorises the least-squares problem min ||A x - b||_2 (A is n x m with
 *  n >= m >= 1, b is n x r with r >= 1) into a new object in the form
 *  opt->q.  A and b are not modified.
 *
 *  MATLAB: `[Q, R] = qr(A); d = Q' * b` (#QRU_Q_FULL);
 *  `[Q1, R] = qr(A, 0); d = Q1' * b; E = b - Q1 * d` (#QRU_Q_THIN);
 *  `R = triu(qr(A, 0)); d = R' \ (A' * b); rho = vecnorm(b - A * (R \ d))`
 *  (#QRU_Q_NONE).
 *
 *  Arguments: ctx (1), A (2), b (3), opt (4, may be NULL for defaults),
 *  f (5).  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
QRU_API int qru_lsq_create(qru_context *ctx, const qru_matrix *A, const qru_matrix *b,
                   const qru_lsq_options *opt, qru_lsq **f);

/** Creates a factorisation object from an existing QR factorisation
 *  (e.g. one computed elsewhere, or by MATLAB's qr); the shape of Q picks
 *  the form (opt->q is ignored):
 *  - Q n x n: #QRU_Q_FULL; R n x m, d = Q' b n x r;
 *  - Q n x m with n > m (economy): #QRU_Q_THIN; R m x m (or n x m: its
 *    first m rows are read), d = Q1' b m x r; the residuals E are taken as
 *    zero (b = Q1 d), as for MATLAB's qrinsert / qrdelete, which know no b;
 *  - Q NULL: #QRU_Q_NONE; R n x m, d = Q' b n x r (the residual norms are
 *    those of d(m+1:n, :)).
 *  triu(R(1:m, :)) is copied (the rest is taken as zero).  The caller
 *  guarantees that Q has orthonormal columns and that R, d belong to it;
 *  they are not checked.
 *
 *  MATLAB: `f.Q = Q; f.R = triu(R); f.d = d;`
 *
 *  Arguments: ctx (1), Q (2: NULL, n x n or n x m), R (3: n x m or, with
 *  an economy Q, m x m; n >= m >= 1; the dtype of Q), d (4: n x r or, with
 *  an economy Q, m x r; r >= 1), opt (5, may be NULL), f (6).
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
QRU_API int qru_lsq_create_from_qr(qru_context *ctx, const qru_matrix *Q,
                           const qru_matrix *R, const qru_matrix *d,
                           const qru_lsq_options *opt, qru_lsq **f);

/** Frees a factorisation (NULL is allowed). */
QRU_API void qru_lsq_destroy(qru_lsq *f);

/** Least-squares solution by back substitution: x = R(1:m,1:m) \ d(1:m,:).
 *
 *  MATLAB: `x = A \ b` (for A of full column rank).
 *
 *  Arguments: f (1), x (2: m x r, same dtype and context; must not
 *  overlap f's storage, as the update inputs below).
 *  @return 0, -i, or j > 0 when A is numerically rank-deficient at column
 *  j by the QR rank rule of the file documentation (R(j,j) not finite or
 *  |R(j,j)| <= max(n, m) eps max_i ||R(1:i,i)||): x is then left
 *  unchanged; or a library status. */
QRU_API int qru_lsq_solve(const qru_lsq *f, qru_matrix *x);

/** Residual norms ||A x - b(:,j)||_2 for j = 1..r: the norms of
 *  d(m+1:n, j) (#QRU_Q_FULL), of E(:, j) (#QRU_Q_THIN), or the norms kept
 *  (#QRU_Q_NONE).
 *
 *  MATLAB: `res(j) = norm(A * x(:,j) - b(:,j))`
 *
 *  Arguments: f (1), res (2: r doubles on the host). */
QRU_API int qru_lsq_get_residual_norms(const qru_lsq *f, double *res);

QRU_API int qru_lsq_rows(const qru_lsq *f);  /**< n, or -1 if f is NULL */
QRU_API int qru_lsq_cols(const qru_lsq *f);  /**< m, or -1 if f is NULL */
QRU_API int qru_lsq_nrhs(const qru_lsq *f);  /**< r, or -1 if f is NULL */
/** 1 if Q is held (#QRU_Q_FULL or #QRU_Q_THIN), 0 if not or f is NULL. */
QRU_API int qru_lsq_has_q(const qru_lsq *f);
/** The form of f (a ::qru_lsq_q value), or -1 if f is NULL. */
QRU_API int qru_lsq_q_form(const qru_lsq *f);
QRU_API qru_dtype qru_lsq_dtype(const qru_lsq *f); /**< element type */

/** Copies R into @p R: n x m (upper trapezoidal, zeros below; rows
 *  m+1..n are zero in the thin and Q-less forms) or m x m (the economy
 *  R), in every form.
 *  MATLAB: `R_out = R` or `R_out = R(1:m, :)`.
 *  Arguments: f (1), R (2: n x m or m x m; must not overlap f's storage). */
QRU_API int qru_lsq_get_r(const qru_lsq *f, qru_matrix *R);

/** Copies Q into @p Q: n x n (#QRU_Q_FULL only) or n x m (its first m
 *  columns, Q1: #QRU_Q_FULL and #QRU_Q_THIN); #QRU_ERR_NO_Q if the form
 *  holds no such Q.
 *  MATLAB: `Q_out = Q` or `Q_out = Q(:, 1:m)`.
 *  Arguments: f (1), Q (2: n x n or n x m; must not overlap f's storage). */
QRU_API int qru_lsq_get_q(const qru_lsq *f, qru_matrix *Q);

/** A new matrix that views the object's Q where it lies, without a copy:
 *  n x n (#QRU_Q_FULL) or n x m (#QRU_Q_THIN), its leading dimension the
 *  row capacity (qru_matrix_ld()); the caller's buffer itself while an
 *  adopted Q (#QRU_ADOPT_Q) has not moved.  The view follows
 *  the updates of f in place but keeps its size; it is valid until an
 *  update changes the size or moves Q, or f is destroyed.  Free it with
 *  qru_matrix_destroy() (the storage stays f's).  It cannot be an input
 *  of an update of f (-i: see "QR updates").  #QRU_ERR_NO_Q for
 *  #QRU_Q_NONE.
 *  MATLAB: `Qv = Q` (a reference, not a copy).
 *  Arguments: f (1), Q (2: the output). */
QRU_API int qru_lsq_view_q(const qru_lsq *f, qru_matrix **Q);

/** A new matrix that views the object's R where it lies, without a copy:
 *  n x m (#QRU_Q_FULL, upper trapezoidal, zeros below) or m x m (the
 *  other forms), its leading dimension that of the storage; the
 *  caller's buffer itself while an adopted R (#QRU_ADOPT_R) has not
 *  moved.  Valid, and freed, as the view of qru_lsq_view_q().
 *  MATLAB: `Rv = R` (a reference, not a copy).
 *  Arguments: f (1), R (2: the output). */
QRU_API int qru_lsq_view_r(const qru_lsq *f, qru_matrix **R);

/** Copies d = Q' b into @p d: n x r (#QRU_Q_FULL only; #QRU_ERR_NO_Q in
 *  the other forms) or m x r (d(1:m, :), every form).
 *  MATLAB: `d_out = Q' * b` or `d_out = Q(:, 1:m)' * b`.
 *  Arguments: f (1), d (2: n x r or m x r; must not overlap f's storage). */
QRU_API int qru_lsq_get_d(const qru_lsq *f, qru_matrix *d);

/** Copies the residuals E = b - A x (n x r) of a #QRU_Q_THIN or
 *  #QRU_Q_FULL factorisation into @p E (#QRU_ERR_NO_Q for #QRU_Q_NONE).
 *  MATLAB: `E = b - A * (A \ b)`.  Arguments: f (1), E (2: n x r; must not overlap f's storage). */
QRU_API int qru_lsq_get_residuals(const qru_lsq *f, qru_matrix *E);

/** The accuracy estimate of the last row removal of a #QRU_Q_THIN or
 *  #QRU_Q_NONE factorisation: c = 1 / min_i |Rz(i,i)|, where Rz' Rz =
 *  I - Qk Qk' and Qk = Q1(rows removed, :) (for Q-less, Qk = U / R;
 *  a Q-less removal of p > m rows: c = 1 / min_i |L(i,i)|, L L' =
 *  I - Qk' Qk, whose eigenvalues other than 1 are those of I - Qk Qk').
 *  c >= 1; c = 1 means the removal loses nothing, a large c that the
 *  removed rows carried much of A (A1 is nearly rank-deficient, or much
 *  smaller than A).  What is lost: #QRU_Q_THIN, like the full form,
 *  keeps the errors of the data before the removal (||A1 - Q1 R1||,
 *  ||Q1 d1 + E1 - b1|| and the solution's backward error of about
 *  eps ||A|| and eps ||b||, not eps ||A1||; Q1 stays orthogonal to
 *  working precision whatever c): at most a factor
 *  1 / sigma_min(Rz) >= ||A|| / ||A1|| (2-norms) less accurate than a
 *  new factorisation of A1, which is c for one row and at least c for
 *  more (by at most the factor ||inv(Rz)||_F min_i |Rz(i,i)|, usually
 *  small).  #QRU_Q_NONE has only R, which holds A'A to about
 *  eps ||A||^2, and ||A||^2 can be c^2 ||A1||^2: R1'R1 - A1'A1 and the
 *  solution lose up to c^2 (docs/accuracy.md).  It judges one removal,
 *  not the drift that many accumulate (qru_lsq_get_error_estimate() measures
 *  that; docs/accuracy.md).  c = 0 if no rows have been removed from f in
 *  these forms.
 *  MATLAB: `c = 1 / min(abs(diag(chol(eye(p) - Qk * Qk'))))`
 *  Arguments: f (1), c (2: the output).  @return 0 or -i (c is then
 *  unchanged). */
QRU_API int qru_lsq_get_downdate_condition(const qru_lsq *f, double *c);

/** The error that the updates of a #QRU_Q_NONE factorisation have
 *  accumulated in its solution x = R \ d, estimated from the Gram matrix
 *  A'A and A'b that the Q-less form keeps alongside R (updated as A
 *  changes, by additions, which do not drift as the downdates of R do):
 *  one step of iterative refinement on the normal equations, whose
 *  correction dx approximates x_exact - x while R'R is close to A'A.
 *  est = max_j ||dx(:,j)|| / ||x(:,j)|| (||dx(:,j)|| where x(:,j) = 0).
 *  Compare it with the accuracy the application needs (or with
 *  kappa(A) max(n, m) eps, the accuracy of a new factorisation) and
 *  refactorise (qru_lsq_create()) when it is exceeded.  It costs
 *  O(m^2 (m + r)) and a host round trip.  Limits: A'A has absolute
 *  errors of about eps times the squared norms of the rows ever added or
 *  removed, so for ill-conditioned A (kappa(A)^2 eps not small) or data
 *  whose scale fell by orders of magnitude the estimate is pessimistic
 *  (docs/accuracy.md).
 *
 *  MATLAB: `x = R \ d; dx = R \ (R' \ (A'*b - A'*A*x));
 *           est = max(vecnorm(dx) ./ vecnorm(x))`
 *
 *  Arguments: f (1: #QRU_Q_NONE), est (2: the output).
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE, or j > 0 when R is
 *  rank-deficient at column j (the rank rule of qru_lsq_solve()). */
QRU_API int qru_lsq_get_error_estimate(const qru_lsq *f, double *est);

/** @} */

/* ------------------------------------------------------------------------ */
/** @name QR updates
 *
 *  The four block updates of Andrew (2012), chapter 4, applied to a
 *  least-squares factorisation ::qru_lsq (A = Q R, d = Q' b, A n x m).
 *  Each update changes A (and b) as its MATLAB specification says and
 *  leaves the object holding the QR factorisation of the new A1 (n1 x m1):
 *  R1 upper trapezoidal with exact zeros below the diagonal, d1 = Q1' b1
 *  and, when Q is held, Q1 orthogonal with Q1 R1 = A1.  Updates chain in
 *  any order and qru_lsq_solve() / qru_lsq_get_residual_norms() solve the updated
 *  problem.  Capacity grows on demand (geometrically).
 *
 *  The problem must stay overdetermined, n1 >= m1 >= 1: an update that
 *  would violate this reports its size argument (p, or U) as invalid.
 *  An update that fails (bad argument, #QRU_ERR_NO_Q, allocation failure,
 *  or the rank-deficiency status of qru_lsq_add_cols()) leaves the
 *  factorisation exactly as it was.
 *
 *  The input matrices of the updates (U, e, A, b, V) must not overlap the
 *  factorisation's storage: its R, Q, d, E and Gram data at their whole
 *  capacity, so neither a view from qru_lsq_view_q() / qru_lsq_view_r()
 *  nor a matrix wrapped inside one (the update may overwrite or move that
 *  storage before it has read its input).  Such an input is refused with
 *  -i, "U overlaps the factorisation's storage"; copy it first
 *  (qru_matrix_copy()).
 *
 *  Block size: the Householder phases work on panels of nb columns;
 *  the default (nb = 0, "auto") is about a tenth of the columns the update
 *  reduces (Andrew 2012, section 5.2), at least 1 (for the first phase of
 *  the #QRU_UPDATE_FAST row removal, whose GEMMs on Q have inner dimension
 *  nb: min(p, 128); for the #QRU_UPDATE_FAST row addition, whose panels
 *  are one fused backend call each: min(m, 64));
 *  see qru_lsq_set_update_block_size().
 */
/** @{ */

/** Algorithms for the QR updates (qru_lsq_set_update_algorithm()).  All
 *  compute the QR factorisation of the updated problem with the same
 *  guarantees (backward stable, Q orthogonal to working precision); they
 *  differ in speed and in rounding.  The default is #QRU_UPDATE_AUTO. */
typedef enum qru_update_algorithm {
    /** The fast update variants.  qru_lsq_remove_rows()
     *  first reduces Q(K, m+1:n)
     *  (K the removed rows) to a p x p triangle with p Householder
     *  reflectors in compact WY form applied to Q(:, m+1:n) by GEMMs
     *  (allowed because the rows m+1:n of R are zero), so that its
     *  Givens sweeps only cover the columns 1:m+p of Q; for p >= 16 the
     *  rotations of the sweeps are accumulated in groups into small
     *  orthogonal blocks applied with GEMMs.  About 4 n (n-m) p + 8 n m p
     *  flops, mostly in GEMMs, instead of 6 n^2 p in rotations.
     *  qru_lsq_add_cols() applies its Givens phase to Q in the same
     *  accumulated way.  qru_lsq_add_rows() and
     *  qru_lsq_remove_cols() factor each block of their structured
     *  Householder phase ((nb + p) x nb panels) in ONE backend call (on a
     *  GPU, one thread block with the panel on chip) instead of 3 per
     *  column, and so does qru_lsq_modify() with its band panels (whose
     *  widths the cost model picks).  See docs/performance.md. */
    QRU_UPDATE_FAST = 0,
    /** The block algorithms of Andrew (2012), sections 4.1 - 4.4 (Givens
     *  strips over all of Q, Householder panels), as in the dissertation. */
    QRU_UPDATE_DISSERTATION = 1,
    /** The default: update or refactorise, whichever a cost model
     *  predicts faster (src/update/policy.c).  On a factorisation that
     *  holds Q or Q1 (#QRU_Q_FULL, #QRU_Q_THIN), each update first
     *  estimates the time of the #QRU_UPDATE_FAST update and of a
     *  refactorisation of the updated matrix in the same form
     *  (A1 = Q(:,1:m) R(1:m,:) changed as the update says, b1 = Q d, or
     *  Q1 d + E, likewise, then the fastest QR the backend has), each
     *  from its plan: the path itself run against a dry-run op table that
     *  records every backend call, its arithmetic and its host waits, timed
     *  with per-backend, per-precision rates (docs/performance.md), and
     *  takes the faster path; both give the QR factorisation of the updated
     *  problem with the same guarantees (the refactorisation's add-columns
     *  rank check is the update's; the thin form's row removal runs the
     *  update's rank rule and sets the downdate condition on either path).
     *  The Q-less form always updates (it has no A to rebuild).  Where the lines fall: docs/performance.md.
     *  The path taken: qru_lsq_last_update_path(). */
    QRU_UPDATE_AUTO = 2,
    /** Refactorise the updated matrix, the path #QRU_UPDATE_AUTO takes
     *  where it predicts it faster (for comparisons and for changes so
     *  large that an update cannot win).  The Q-less form, which has no
     *  A to rebuild, runs #QRU_UPDATE_FAST. */
    QRU_UPDATE_REFACTOR = 3
} qru_update_algorithm;

/** The path of the last successful update (qru_lsq_last_update_path()). */
typedef enum qru_update_path {
    /** No update has succeeded on the factorisation yet. */
    QRU_PATH_NONE = 0,
    /** The last update ran an update algorithm. */
    QRU_PATH_UPDATE = 1,
    /** The last update refactorised the updated matrix
     *  (#QRU_UPDATE_AUTO only). */
    QRU_PATH_REFACTOR = 2
} qru_update_path;

/** How the last successful update of @p f was computed:
 *  #QRU_PATH_UPDATE, #QRU_PATH_REFACTOR (#QRU_UPDATE_AUTO chose to
 *  refactorise), #QRU_PATH_NONE if no update has succeeded yet, or -1 if
 *  f is NULL.  A failed update does not change it.
 *
 *  MATLAB: `path = f.last_path` */
QRU_API int qru_lsq_last_update_path(const qru_lsq *f);

/** Selects the algorithm used by the updates of @p f (both give the QR
 *  factorisation of the updated problem; they differ in speed and in
 *  rounding).  Arguments: f (1), alg (2: a ::qru_update_algorithm value).
 *  @return 0, -1, -2. */
QRU_API int qru_lsq_set_update_algorithm(qru_lsq *f, qru_update_algorithm alg);

/** The update algorithm of @p f (a ::qru_update_algorithm value), or -1
 *  if f is NULL. */
QRU_API int qru_lsq_update_algorithm(const qru_lsq *f);

/** Sets the Householder block size of the updates of @p f: nb >= 1 uses
 *  panels of nb columns (clipped to the columns reduced), nb = 0 restores
 *  the default (about a tenth of the columns reduced, at least 1).
 *  The block size of the initial factorisation (qru_lsq_options::nb) is
 *  not affected.  Arguments: f (1), nb (2).  @return 0, -1, -2. */
QRU_API int qru_lsq_set_update_block_size(qru_lsq *f, int nb);

/** The update block size set for @p f (0 = auto), or -1 if f is NULL. */
QRU_API int qru_lsq_update_block_size(const qru_lsq *f);

/** Adds a block of p columns U after the first k columns of A.
 *  #QRU_Q_FULL (Andrew 2012, section 4.1): U_Q = Q' U, Householder QR of
 *  U_Q(m+1:n, :), then strips of Givens rotations.  #QRU_Q_THIN: U_Q =
 *  Q1' U by block classical Gram-Schmidt with reorthogonalisation (CGS2),
 *  the Householder QR of the remainder gives the new columns of Q1 (made
 *  orthogonal to Q1 once more and orthonormalised again, so that they
 *  stay orthogonal to Q1 when the remainder is ill-conditioned), then
 *  the same rotations.  #QRU_Q_NONE needs A and b:
 *  qru_lsq_add_cols_data().
 *
 *  MATLAB: `A1 = [A(:,1:k) U A(:,k+1:m)];  [Q1, R1] = qr(A1); d1 = Q1' * b`
 *
 *  @param f   factorisation (1)
 *  @param k   columns kept before the block, 0 <= k <= m (2)
 *  @param U   n x p, p >= 1, n >= m + p, in f's context (3)
 *  @return 0; -i; #QRU_ERR_NO_Q for #QRU_Q_NONE; #QRU_ERR_ALLOC /
 *  #QRU_ERR_DEVICE; or j > 0 when A1 is numerically rank-deficient: j is
 *  the first (1-based) column among those the update computes (k+1 ..
 *  m+p) that fails the QR rank rule of the file documentation on R1
 *  (R1(j,j) not finite or |R1(j,j)| <= max(n, m+p) eps
 *  max_i ||R1(1:i,i)||, the maximum over all columns of R1; an exactly
 *  zero column always counts); f is then left unchanged.  The columns
 *  1..k are not judged (they keep R's values, so a rank-deficient
 *  factorisation can still be extended); qru_lsq_solve() judges all
 *  columns with the same rule. */
QRU_API int qru_lsq_add_cols(qru_lsq *f, int k, const qru_matrix *U);

/** qru_lsq_add_cols() in every form, with the current A and b given:
 *  for #QRU_Q_NONE by the corrected semi-normal equations (Bjorck's CSNE:
 *  C = R' \ (A' U), Z = U - A (R \ C), one correction C += R' \ (A' Z),
 *  Z -= A (R \ (R' \ (A' Z)))), R22 from the Householder QR of Z, the new
 *  entries of d and the residual norms from Z and the residuals
 *  b - A (R \ d), then the rotations of qru_lsq_add_cols(); the other
 *  forms do not read A and b (their sizes are checked).  The accuracy of
 *  the Q-less update depends on the condition of A (docs/accuracy.md).
 *
 *  MATLAB: `A1 = [A(:,1:k) U A(:,k+1:m)];  R1 = triu(qr(A1, 0));
 *           d1 = R1' \ (A1' * b)`
 *
 *  Arguments: f (1), k (2), U (3), A (4: n x m, the matrix f factorises),
 *  b (5: n x r, its right-hand sides).  @return as qru_lsq_add_cols(),
 *  without #QRU_ERR_NO_Q. */
QRU_API int qru_lsq_add_cols_data(qru_lsq *f, int k, const qru_matrix *U,
                                  const qru_matrix *A, const qru_matrix *b);

/** Removes the p columns after the first k columns of A (Andrew 2012,
 *  section 4.2: blocked Householder reflectors of length p + 1 restore the
 *  triangle), applied to d and, in the full and thin forms, to Q; the
 *  rows of d that leave the triangle join the residuals.
 *
 *  MATLAB: `A1 = [A(:,1:k) A(:,k+p+1:m)];  [Q1, R1] = qr(A1); d1 = Q1' * b`
 *
 *  Arguments: f (1), k (2: 0 <= k < m), p (3: 1 <= p <= m - k and p < m,
 *  so that m1 >= 1).
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
QRU_API int qru_lsq_remove_cols(qru_lsq *f, int k, int p);

/** Adds a block of p rows U (and right-hand-side rows e) after the first k
 *  rows of A (Andrew 2012, section 4.3: Householder reflectors acting on
 *  one row of R and the p rows of U, blocked with Y = [I; V]), in every
 *  form.  Q becomes Q1 = P' [Q 0; 0 I] H with the rows permuted so that
 *  the new rows sit after row k (#QRU_Q_THIN: its first m columns, and
 *  the residuals gain the reduced rows of e); #QRU_Q_NONE: the residual
 *  norms gain the reduced rows of e.  The cost of #QRU_Q_NONE does not
 *  depend on n.
 *
 *  MATLAB: `A1 = [A(1:k,:); U; A(k+1:n,:)];  b1 = [b(1:k,:); e; b(k+1:n,:)];
 *           [Q1, R1] = qr(A1); d1 = Q1' * b1`
 *
 *  @param f   factorisation (1)
 *  @param k   rows kept before the block, 0 <= k <= n (2)
 *  @param U   p x m, p >= 1, in f's context (3)
 *  @param e   p x r (4)
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
QRU_API int qru_lsq_add_rows(qru_lsq *f, int k, const qru_matrix *U,
                             const qru_matrix *e);

/** Removes the p rows after the first k rows of A (and of b).
 *  #QRU_Q_FULL (Andrew 2012, section 4.4): strips of Givens rotations
 *  reduce the rows k+1..k+p of Q to [D 0], applied to R and d.
 *  #QRU_Q_THIN (Daniel, Gragg, Kaufman and Stewart 1976, in blocks): the
 *  removed rows are completed against Q1 by block classical Gram-Schmidt
 *  with reorthogonalisation (Rz' Rz = I - Qk Qk', Qk = Q1(k+1:k+p, :)),
 *  then the same rotations run on the m + p columns [Q1 Qz].
 *  #QRU_Q_NONE needs the rows: qru_lsq_remove_rows_data().
 *
 *  MATLAB: `A1 = [A(1:k,:); A(k+p+1:n,:)];  b1 = [b(1:k,:); b(k+p+1:n,:)];
 *           [Q1, R1] = qr(A1); d1 = Q1' * b1`
 *
 *  Arguments: f (1), k (2: 0 <= k < n), p (3: 1 <= p <= n - k and
 *  n - p >= m).
 *  @return 0, -i, #QRU_ERR_NO_Q (#QRU_Q_NONE), #QRU_ERR_ALLOC,
 *  #QRU_ERR_DEVICE.  #QRU_Q_FULL: A1 may be rank-deficient
 *  (qru_lsq_solve() then reports it).  #QRU_Q_THIN: j > 0 when A1 is
 *  numerically rank-deficient, i.e. when Rz is numerically singular
 *  (the removals' rank rule): a pivot |Rz(j,j)| is not finite or is
 *  <= 2 max(n, m) eps (j: the first such), or else
 *  s = 1 / ||inv(Rz)||_F, which lies between sigma_min(Rz) / sqrt(p) and
 *  sigma_min(Rz), is <= 2 max(n, m) eps (j: the position of the smallest
 *  |Rz(j,j)|); f is then left unchanged.  A removal that leaves A1 with
 *  an exactly zero column is always refused: sigma_min(Rz) is then
 *  rounding noise of a few eps (its pivots can be much larger: the noise
 *  of the last pivot is divided by the last entry of Rz's null vector).
 *  Both paths of #QRU_UPDATE_AUTO judge the removal so and set the
 *  downdate condition.  The loss of accuracy otherwise:
 *  qru_lsq_get_downdate_condition(). */
QRU_API int qru_lsq_remove_rows(qru_lsq *f, int k, int p);

/** qru_lsq_remove_rows() in every form, with the removed rows given:
 *  for #QRU_Q_NONE the downdate of the triangle [R d] by [U e] (LINPACK's
 *  dchdd in blocks): Qk = U / R, the Cholesky factor Rz' Rz = I - Qk Qk',
 *  dz = Rz' \ (e - Qk d), then the rotations of qru_lsq_remove_rows() on
 *  [R d; 0 dz], and the residual norms lose dz.  With p > m rows the
 *  same downdate runs on the m x m side (O(p m^2 + m^3) flops in place of
 *  O(p^2 m + p^3)): L L' = I - Qk' Qk, R1 = L' R, d1 = L \ (d - Qk' e),
 *  and the residual norms lose ||v||^2 + ||L \ (Qk' v)||^2, v = e - Qk d.
 *  The other forms do not read U and e (their sizes are checked).
 *
 *  MATLAB: `U = A(k+1:k+p,:); e = b(k+1:k+p,:);` then as
 *  qru_lsq_remove_rows(): `R1 = triu(qr(A1, 0)); d1 = R1' \ (A1' * b1)`
 *
 *  Arguments: f (1), k (2), U (3: p x m, p >= 1, the rows of A removed),
 *  e (4: p x r, those of b).
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE, or j > 0 when the
 *  downdate would lose definiteness (A1 numerically rank-deficient), by
 *  the removals' rank rule on the Cholesky factor Lz = Rz' of
 *  M = I - Qk Qk' (p > m: L of M = I - Qk' Qk): its factorisation fails
 *  the Cholesky definiteness rule at column j, a pivot Lz(j,j)^2 is not
 *  finite or is <= 2 max(n, m) eps (j: the first such), or else
 *  1 / ||inv(Lz)||_F^2, which lies between lambda_min(M) / p (m) and
 *  lambda_min(M), is <= 2 max(n, m) eps (j: the position of the smallest
 *  pivot); f is then left unchanged.  A removal that leaves A1 with an
 *  exactly zero column is always refused while R is accurate (R'R = A'A
 *  to working precision, e.g. a new factorisation; the drift of many
 *  updates: qru_lsq_get_error_estimate()): lambda_min(M) is then rounding
 *  noise of a few eps, while the pivots' noise is divided by the square
 *  of the last entry of M's null vector and can exceed any tolerance.
 *  The other forms judge as qru_lsq_remove_rows().  The loss of accuracy
 *  otherwise: qru_lsq_get_downdate_condition(). */
QRU_API int qru_lsq_remove_rows_data(qru_lsq *f, int k, const qru_matrix *U,
                                     const qru_matrix *e);

/** Rank-k modification A1 = A + U V' (MATLAB's qrupdate, SciPy's
 *  qr_update), blocked for k > 1.  #QRU_Q_FULL: W = Q' U; W is reduced
 *  to a k x k triangle from the bottom up (the Householder QR of
 *  W(m+1:n, :), then windows of w + k rows, one panel of k reflectors
 *  each, applied to R by GEMMs), which leaves R upper Hessenberg with
 *  b = w + k - 1 subdiagonals; R + W(1:k, :) V' keeps that band, which
 *  panels of the column removal's kind then reduce (reflectors of length
 *  at most b + 1).  Everything is computed on a copy of R first; the
 *  block reflectors are applied to Q and d (GEMMs) only after the rank
 *  test.  #QRU_Q_THIN: W = Q1' U by CGS2, the remainder U - Q1 W = Qz Rz
 *  (Householder; Qz made orthogonal to Q1 once more and orthonormalised
 *  again, Rz following) extends Q1 by k columns, the same reduction runs on the
 *  m + k rows [R; 0] + [W; Rz] V', the first m columns are kept and the
 *  rows of d that leave the triangle return to the residuals E.  U may
 *  lie in the range of A (Rz is then rank-deficient, which is allowed).
 *  d is updated for the unchanged b.  The window step w and the panel
 *  width p come from the update block size
 *  (qru_lsq_set_update_block_size()) or, by default, from the cost model
 *  (w >= k; narrow blocks on the CPU, wide ones on a GPU).  About 2 n^2 k +
 *  4 n (n - m) k + 4 n m k (w + k) / w + 4 n m (p + b) flops in the full
 *  form, mostly in GEMMs; the thin form's first term is 8 n m k.
 *
 *  MATLAB: `[Q1, R1] = qr(A + U * V'); d1 = Q1' * b`
 *
 *  @param f   factorisation (1: #QRU_Q_FULL or #QRU_Q_THIN)
 *  @param U   n x k, k >= 1, in f's context; for #QRU_Q_THIN with n > m,
 *             k <= n - m (2)
 *  @param V   m x k (3)
 *  @return 0; -i; #QRU_ERR_NO_Q for #QRU_Q_NONE (A + U V' needs Q);
 *  #QRU_ERR_ALLOC / #QRU_ERR_DEVICE; or j > 0 when A1 is numerically
 *  rank-deficient: j is the first (1-based) column of R1 that fails the QR
 *  rank rule of the file documentation (all m columns are judged); f is
 *  then left unchanged. */
QRU_API int qru_lsq_modify(qru_lsq *f, const qru_matrix *U,
                           const qru_matrix *V);

/** Moves column i of A to position j; the columns between move by one
 *  (Octave's qrshift), in every form.  The column permutation leaves R
 *  upper triangular except in its rows lo .. hi (lo = min(i, j),
 *  hi = max(i, j)), which orthogonal transformations restore, applied to
 *  the same rows of d and, in the full and thin forms, to the columns
 *  lo .. hi of Q; the thin form's residuals and the Q-less form's
 *  residual norms stay as they are, so the Q-less form needs no data.
 *  i < j: the columns lo .. hi-1 become upper Hessenberg and Householder
 *  panels of nb columns (nb: the update block size,
 *  qru_lsq_set_update_block_size(), or by default the tuning's
 *  #QRU_TUNE_UPDATE_PANEL_NB) reduce them, one panel_qr each, their block
 *  reflectors applied to R's columns from lo on, to d and to Q by GEMMs:
 *  about 4 (nb + 1) (j - i) (m - i + r + n) flops (n: 0 in the Q-less
 *  form), a panel_qr and three block reflector applications a panel.
 *  i > j: column j carries entries down to row i;
 *  one sweep of i - j Givens rotations from the bottom up, formed from
 *  that column, removes them (the other columns stay triangular):
 *  6 (i - j) (m - j + r + n) flops, one fused backend call for each of
 *  R, d and Q where the backend's sweeps pay off, else about one call a
 *  rotation each.  Both: a copy of the (hi + 1) x (hi - lo + 1) block of
 *  moved columns; the Q-less form also permutes its Gram data (O(m^2)
 *  copies).  The rank does not change, so nothing is judged; i = j
 *  changes nothing.  Not run through #QRU_UPDATE_AUTO's choice (a
 *  refactorisation always costs more); the path is #QRU_PATH_UPDATE.
 *
 *  MATLAB: `p = [1:i, i+2:j+1, i+1, j+2:m]` (i < j) or
 *  `p = [1:j, i+1, j+1:i, i+2:m]` (i > j), `A1 = A(:, p);
 *  [Q1, R1] = qr(A1); d1 = Q1' * b`, i.e. Octave's
 *  `[Q1, R1] = qrshift(Q, R, i+1, j+1)`.
 *
 *  Arguments: f (1), i (2: 0 <= i < m), j (3: 0 <= j < m).
 *  @return 0, -i, #QRU_ERR_ALLOC, #QRU_ERR_DEVICE. */
QRU_API int qru_lsq_shift_cols(qru_lsq *f, int i, int j);

/** @} */

/* ------------------------------------------------------------------------ */
/** @name Cholesky */
/** @{ */

/*  Failure of the Cholesky routines.  Every routine of this section that
 *  produces a factor (qru_chol_factor(), qru_chol_update(),
 *  qru_chol_insert(), qru_chol_delete(), qru_chol_shift(), their batches
 *  qru_chol_update_batch(), qru_chol_insert_batch(),
 *  qru_chol_delete_batch() (each problem), and the GP routines below)
 *  judges
 *  the new factor of A (order n) by the Cholesky definiteness rule of the
 *  file-level documentation: status j > 0 at the first column j whose
 *  pivot d_j = L(j,j)^2 is not finite or d_j <= n eps max_i A(i,i) over
 *  the finite diagonal entries of A, or where A(j,j) is not finite.  So a
 *  matrix that is not positive definite, numerically singular or holds a
 *  NaN / Inf (on the diagonal or off it) gives a positive status, and the
 *  call then leaves its output unchanged bit for bit (except with
 *  #QRU_CHOL_IN_PLACE).  The updates evaluate A(i,i) as ||L(i,:)||^2 from
 *  the factors they get (O(n^2) extra work on the device). */

/** The variants of qru_chol_factor() (QRU_CHOL_IN_PLACE combines with
 *  one of the others by |). */
typedef enum qru_chol_variant {
    /** qru_chol_factor() variant: blocked left-looking Cholesky-Crout (the
     *  default).  For each diagonal block of nb columns: one symmetric
     *  rank-k update of the block by the columns already factored (syrk), ONE
     *  fused unblocked factorisation of the block, one GEMM for the rows below
     *  it and one triangular solve. */
    QRU_CHOL_LEFT = 0,
    /** qru_chol_factor() variant: blocked right-looking ("in place")
     *  Cholesky: factor the diagonal block, solve for the rows below, then
     *  update the whole trailing matrix at once (syrk). */
    QRU_CHOL_RIGHT = 1,
    /** qru_chol_factor() variant: plain column-by-column Cholesky-Crout
     *  (l_ii = sqrt(a_ii - sum_k l_ik^2), l_ji = (a_ji - sum_t l_jt l_it) /
     *  l_ii): the left-looking algorithm with one column per step (nb is
     *  ignored); three backend launches per column. */
    QRU_CHOL_CROUT = 2,
    /** Flag OR-ed into the variant of qru_chol_factor(): factor directly in A,
     *  without the n x n workspace copy.  Faster and lighter, but on failure
     *  (status i > 0) the leading i-1 columns (rows for 'U') of A hold the
     *  partial factor and the rest of the referenced triangle is overwritten
     *  with unspecified values; when the call ran the vendor's potrf (see
     *  qru_chol_factor()) only the leading (i-1) x (i-1) block is guaranteed
     *  to hold the factor of the leading minor (LAPACK potrf semantics). */
    QRU_CHOL_IN_PLACE = 16
} qru_chol_variant;

/** Cholesky factorisation of a symmetric positive definite matrix.
 *
 *  MATLAB: `L = chol(A, 'lower')` (uplo 'L', A = L*L') or
 *          `U = chol(A)` (uplo 'U', A = U'*U).
 *
 *  Complex data (where the backend takes it, ::qru_dtype): A Hermitian
 *  positive definite, ' the conjugate transpose, as in every Cholesky
 *  routine below; the factor's diagonal is real and positive.
 *
 *  Only the triangle named by @p uplo is read and overwritten by the factor;
 *  the other strict triangle is not referenced.
 *
 *  With #QRU_CHOL_LEFT and nb = 0 ("the fastest") the call runs the
 *  vendor's potrf (LAPACKE on the CPU, cuSOLVER on CUDA) where the backend
 *  has one and measured it faster (from an n set per backend); the
 *  environment variable QRU_POTRF=own|vendor forces qru's blocked
 *  algorithm or the vendor routine (any variant) for tests and benchmarks.
 *
 *  @param ctx     context (1)
 *  @param uplo    'L' or 'U' (lower case accepted) (2)
 *  @param A       n x n, overwritten by the factor (3)
 *  @param variant a qru_chol_variant: #QRU_CHOL_LEFT, #QRU_CHOL_RIGHT or
 *                 #QRU_CHOL_CROUT, optionally OR #QRU_CHOL_IN_PLACE; an
 *                 int because the OR of two enum constants is an int,
 *                 which C++ does not convert back to the enum (4)
 *  @param nb      block size, 0 = the backend's default, >= 0 (5)
 *  @return 0; -i; i > 0 when column i fails the definiteness rule (see
 *          "Failure of the Cholesky routines" above: A is not positive
 *          definite, numerically singular, or holds a NaN / Inf): then A
 *          is unchanged, unless #QRU_CHOL_IN_PLACE was given (see there);
 *          the same status on every variant and on the vendor's path (its
 *          factor's diagonal is checked afterwards); #QRU_ERR_ALLOC,
 *          #QRU_ERR_DEVICE, #QRU_ERR_UNSUPPORTED (backend without Cholesky
 *          kernels).  Without #QRU_CHOL_IN_PLACE the call needs n*n
 *          elements of workspace: it saves the triangle there, factors A
 *          in place and restores A on failure.  The call synchronises the
 *          context to read A's diagonal at its start and the failure
 *          information and the factor's diagonal at its end, never per
 *          block. */
QRU_API int qru_chol_factor(qru_context *ctx, char uplo, qru_matrix *A, int variant,
                    int nb);

/** Triangular solve with many right-hand sides (BLAS trsm).
 *
 *  MATLAB: `B = alpha * (op(A) \ B)` (side 'L') or
 *          `B = alpha * (B / op(A))` (side 'R'), op(A) = A (trans 'N'),
 *          A.' ('T') or A' ('C'; the same as 'T' for real data).
 *
 *  Only the @p uplo triangle of A is referenced (with diag 'U' its diagonal
 *  is taken as ones).  No singularity check is made.  Takes complex data
 *  where the backend does (::qru_dtype).
 *
 *  @param ctx   context (1)
 *  @param side  'L' or 'R' (2)
 *  @param uplo  'L' or 'U' (3)
 *  @param trans 'N', 'T' or 'C' (4)
 *  @param diag  'N' or 'U' (unit diagonal) (5)
 *  @param alpha scalar (6)
 *  @param A     k x k triangular, k = rows of B (side 'L') or cols (R) (7)
 *  @param B     m x n, overwritten by the solution; must not overlap A (8)
 *  @return 0, -i, or a library status. */
QRU_API int qru_trsm(qru_context *ctx, char side, char uplo, char trans, char diag,
             double alpha, const qru_matrix *A, qru_matrix *B);

/** Solves A X = B given the Cholesky factor of A.
 *
 *  MATLAB: `B = L' \ (L \ B)` (uplo 'L') or `B = U \ (U' \ B)` (uplo 'U')
 *  (complex data: ' the conjugate transpose).
 *
 *  Arguments: ctx (1), uplo (2), L (3: n x n factor as from
 *  qru_chol_factor(), other triangle not referenced), B (4: n x r,
 *  overwritten by X; must not overlap L).  @return 0, -i, or a library
 *  status. */
QRU_API int qru_chol_solve(qru_context *ctx, char uplo, const qru_matrix *L,
                   qru_matrix *B);

/** Rank-k update or downdate of a Cholesky factor.
 *
 *  MATLAB: `L1 = chol(L*L' + sign*W*W', 'lower')`  (uplo 'L'),
 *          `U1 = chol(U'*U + sign*W*W')`           (uplo 'U');
 *  for k = 1 this is `U1 = cholupdate(U, w, '+')` / `'-'`.
 *
 *  The columns of W are applied one after another, O(k n^2) work: while
 *  k is small (the backend's tuning, 32 on the GPUs), each by one
 *  triangular solve, a scan and one pass over the triangle (Gill, Golub,
 *  Murray and Saunders 1974), the verdict read before L1 is written
 *  (k = 1 needs no copy of L: on the CPU one pass reads L for the solve
 *  and the verdict and a second writes L1; rank k > 1 updates a copy);
 *  otherwise by Givens rotations (update) or hyperbolic rotations
 *  (downdate) on a copy.  L1 is written only on success, and only its
 *  @p uplo triangle.
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    n x n factor (3)
 *  @param W    n x k, k >= 0, not modified; must not overlap L (4)
 *  @param sign +1 (update) or -1 (downdate) (5)
 *  @param L1   n x n: receives the updated factor.  It may be L itself (or
 *              start at L's first element with L's leading dimension:
 *              updated in place); otherwise it must not overlap L, and L
 *              is not modified.  It must not overlap W (6)
 *  @return 0; -i; i > 0 when column i of the new factor of
 *          A1 = L*L' + sign*W*W' fails the definiteness rule (see "Failure
 *          of the Cholesky routines": a downdate that loses definiteness;
 *          a NaN / Inf in L or W; an invalid factor, e.g. with a zero on
 *          the diagonal; with k = 0 the new factor is L, judged the same
 *          way): L and L1 are then unchanged, bit for bit; or a library
 *          status.  With #QRU_OPTION_CHECK_FINITE, the @p uplo triangle
 *          of L (3) and all of W (4) are scanned.  Needs about n*(n/16+k+6)
 *          elements of workspace (rank k > 1: n*n more); by rotations
 *          about n*(n+k) plus min(n*n, 2^20) for A1's diagonal ('U': 2 n*n
 *          more). */
QRU_API int qru_chol_update(qru_context *ctx, char uplo, const qru_matrix *L,
                    const qru_matrix *W, int sign, qru_matrix *L1);

/** Rank-k update or downdate of every Cholesky factor of a batch.
 *
 *  MATLAB: `for i = 1:count, L1(:,:,i) = chol(L(:,:,i)*L(:,:,i)' +
 *  sign*W(:,:,i)*W(:,:,i)', 'lower'); end` (uplo 'U': U1 = chol(U'*U +
 *  sign*W*W') per page).
 *
 *  Each problem is qru_chol_update() on its pages, on a copy of the page
 *  (O(k n^2) work a problem): a problem small enough for a GPU's local
 *  memory (n (n + 1) / 2 + n (k + 1) <= 2560 elements) by k structured
 *  rank-1 passes (p = L \ w, the prefix sums t_j = 1 + sign*sum(p(1:j).^2),
 *  then one pass over the triangle: Gill, Golub, Murray and Saunders'
 *  method C1), several problems a work-group; a larger one by rotations
 *  (for each column, the k Givens (update) or hyperbolic (downdate)
 *  rotations with the columns of W), one work-group a problem; the CPU as
 *  qru_chol_update().  Each problem is judged by the
 *  definiteness rule of qru_chol_update() on its own; a problem that
 *  fails leaves its pages of L and L1 bit-identical, the others are
 *  updated (only the @p uplo triangle of their L1 page is written).  The
 *  call waits for the device once, to read the problems' verdicts (their
 *  norm: a second wait reads them all where some problem failed).
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    batch of count n x n factors (3)
 *  @param W    batch of count n x k pages, k >= 0, not modified; must not
 *              overlap L (4)
 *  @param sign +1 (update) or -1 (downdate) (5)
 *  @param L1   batch of count n x n pages: receives the updated factors.
 *              It may be L itself (or start at L's first element with L's
 *              leading dimension and stride: updated in place); otherwise
 *              it must not overlap L.  It must not overlap W (6)
 *  @param info host array of count ints or NULL (7): info[i] = 0, or j > 0
 *              when column j of problem i's new factor fails the
 *              definiteness rule (qru_chol_update()'s status); not written
 *              when the call returns a negative status
 *  @return 0 when every problem was updated; -i; m > 0: m problems
 *          failed (their info[i] > 0, their pages unchanged; the others
 *          updated); or a library status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE;
 *          then which pages were written is unspecified).  count = 0 is a
 *          quick return after the checks.  With #QRU_OPTION_CHECK_FINITE
 *          the @p uplo triangles of L (3) and all of W (4) are scanned.
 *          Needs about count*(n*n + n*k + n + 1) elements of workspace,
 *          taken in parts of at most about 2^24 elements. */
QRU_API int qru_chol_update_batch(qru_context *ctx, char uplo,
                                  const qru_matrix *L, const qru_matrix *W,
                                  int sign, qru_matrix *L1, int *info);

/** qru_chol_update_batch() with a rank of its own for each problem:
 *  problem i is updated or downdated by the first rank[i] columns of its
 *  page of W (0 <= rank[i] <= k; 0 leaves problem i as it is: its pages
 *  of L and L1 are not written, bit for bit, and info[i] = 0), so a
 *  subset of the problems, or problems whose vectors arrive at different
 *  rates, are updated in one call.
 *
 *  MATLAB: `for i = 1:count, if rank(i) > 0, L1(:,:,i) =
 *  chol(L(:,:,i)*L(:,:,i)' + sign*W(:,1:rank(i),i)*W(:,1:rank(i),i)',
 *  'lower'); end, end` (uplo 'U' as in qru_chol_update_batch()).
 *
 *  As qru_chol_update_batch() (which is this call with rank NULL), one
 *  pass over the batch: each problem takes the steps of rank k and
 *  skips the work of the columns after its rank[i] (on a GPU the problems
 *  of a work-group keep in step), so a problem of rank r gets the result
 *  of rank r: A1's diagonal, the passes and the definiteness rule are
 *  those of W(:, 1:r).  The columns after rank[i] are not read (except
 *  by the #QRU_OPTION_CHECK_FINITE scan).
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    batch of count n x n factors (3)
 *  @param W    batch of count n x k pages, k >= 0 (4), as in
 *              qru_chol_update_batch()
 *  @param sign +1 (update) or -1 (downdate) (5)
 *  @param L1   batch of count n x n pages (6), as in
 *              qru_chol_update_batch()
 *  @param info host array of count ints or NULL (7), as in
 *              qru_chol_update_batch() (0 for a problem of rank 0)
 *  @param rank count ints in host memory, each in 0 .. k, or NULL (8)
 *  @return as qru_chol_update_batch(); 0 without work when every rank
 *          is 0.  With #QRU_OPTION_CHECK_FINITE the @p uplo triangles of
 *          L (3) and all of W (4) are scanned (every column, used or
 *          not).  Workspace as qru_chol_update_batch(), and count
 *          elements more. */
QRU_API int qru_chol_update_batch_ex(qru_context *ctx, char uplo,
                                     const qru_matrix *L,
                                     const qru_matrix *W, int sign,
                                     qru_matrix *L1, int *info,
                                     const int *rank);

/** A batch of count least-squares factorisations of the same size, in
 *  the context's memory, in one of three forms (::qru_lsq_q, chosen at
 *  creation: qru_lsq_batch_create_ex()):
 *  - #QRU_Q_NONE (qru_lsq_batch_create()): for each problem i, R_i (m x m
 *    upper triangular), d_i = Q_i' b_i (m x r, Q_i not kept) and the
 *    residual sums of squares; columns are added from the problems'
 *    current A and b (qru_lsq_batch_add_cols_data());
 *  - #QRU_Q_THIN: Q1_i (n x m), R_i, d_i = Q1_i' b_i and the residuals
 *    E_i = b_i - Q1_i d_i (n x r), as the single #QRU_Q_THIN form; rows
 *    can also be removed (qru_lsq_batch_remove_rows()) and columns added
 *    (qru_lsq_batch_add_cols());
 *  - #QRU_Q_FULL: the #QRU_Q_THIN form's numbers and the complement Q2_i
 *    (n x (n - m)) with d2_i = Q2_i' b_i, so that Q_i = [Q1_i Q2_i] is
 *    the full n x n Q of the single #QRU_Q_FULL form and [d_i; d2_i] =
 *    Q_i' b_i its d (qru_lsq_batch_get_q(), qru_lsq_batch_get_d()); the
 *    same updates as #QRU_Q_THIN.  The complement of any orthonormal Q1
 *    serves, so after every update it is recomputed for the problems
 *    that changed (a Householder QR of [Q1_i 0], about 4/3 n^3 flops a
 *    problem, above the thin update's O(n m p)): for callers who need
 *    the whole Q; the thin form is the cheaper one.
 *  Rows are added to and removed from all problems at once; a problem
 *  whose removal fails keeps its rows, so the row count is per problem
 *  (qru_lsq_batch_rows()).  Columns are removed from
 *  (qru_lsq_batch_remove_cols(), both forms) and added to all problems
 *  at once, and the column count m stays the batch's: an insertion that
 *  a problem refuses changes none of them. */
typedef struct qru_lsq_batch qru_lsq_batch;

/** Q-less QR factorisations of a batch of least-squares problems.
 *
 *  MATLAB: `for i = 1:count, [Q,R(:,:,i)] = qr(A(:,:,i), 0);
 *  d(:,:,i) = Q'*b(:,:,i); end` (Q not kept; R the m x m triangle,
 *  padded with zero rows where n < m).
 *
 *  Each factorisation is rows added to an empty one (R = 0, d = 0): the
 *  rotations of qru_lsq_batch_add_rows(), so the two routines share one
 *  algorithm (O(n m^2) work a problem; on a GPU one work-group a problem).
 *
 *  @param ctx context (1)
 *  @param A   batch of count n x m pages, n >= 0, m >= 1 (2); its dtype is
 *             the batch's
 *  @param b   batch of count n x r pages, r >= 1 (3)
 *  @param fb  receives the batch (4); destroy with qru_lsq_batch_destroy()
 *  @return 0, -i, or a library status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE,
 *          #QRU_ERR_UNSUPPORTED).  With #QRU_OPTION_CHECK_FINITE A (2)
 *          and b (3) are scanned.  Needs about count*(m*r + m + r)
 *          elements of workspace where a problem's m*(m+1)/2 + m*r + m + r
 *          exceeds 2560, else none. */
QRU_API int qru_lsq_batch_create(qru_context *ctx, const qru_matrix *A,
                                 const qru_matrix *b, qru_lsq_batch **fb);

/** QR factorisations of a batch of least-squares problems in a chosen
 *  form (opt->q): #QRU_Q_NONE as qru_lsq_batch_create(), #QRU_Q_THIN,
 *  which keeps every problem's Q1 and residuals, or #QRU_Q_FULL, which
 *  keeps every problem's full Q as well.
 *
 *  MATLAB: `for i = 1:count, [Q1(:,:,i), R(:,:,i)] = qr(A(:,:,i), 0);
 *  d(:,:,i) = Q1(:,:,i)'*b(:,:,i); E(:,:,i) = b(:,:,i) -
 *  Q1(:,:,i)*d(:,:,i); end` (#QRU_Q_THIN);
 *  `for i = 1:count, [Q(:,:,i), R1] = qr(A(:,:,i)); R(:,:,i) =
 *  R1(1:m,:); d(:,:,i) = Q(:,:,i)'*b(:,:,i); end` (#QRU_Q_FULL, with E
 *  as for #QRU_Q_THIN)
 *
 *  #QRU_Q_THIN: every problem's Householder QR in one batched call (R
 *  with LAPACK dgeqrf's signs, Q1 formed backwards from the reflectors
 *  as by orgqr; on a GPU one work-group a problem, on the CPU LAPACK a
 *  page; O(n m^2) work a problem).  As in the #QRU_Q_NONE form nothing
 *  is judged here: a rank-deficient page is factored (Q1 stays
 *  orthonormal) and qru_lsq_batch_solve() refuses it.  #QRU_Q_FULL: the
 *  #QRU_Q_THIN factorisation, then Q1's complement Q2 and d2 = Q2' b
 *  from one more batched Householder QR, of [Q1 0] (n x n) and E
 *  (E = Q2 d2): its reflectors give +-Q1 in the first m columns and the
 *  complement after them; Q1 itself is kept as the thin QR made it.
 *
 *  @param ctx context (1)
 *  @param A   batch of count n x m pages, m >= 1 (2); its dtype is the
 *             batch's
 *  @param b   batch of count n x r pages, r >= 1 (3)
 *  @param opt options (4): NULL for #QRU_Q_NONE; opt->q #QRU_Q_FULL (n >=
 *             m), #QRU_Q_THIN (n >= m) or #QRU_Q_NONE, opt->nb >= 0 (not
 *             used: the batched QR is unblocked), opt->row_capacity the rows
 *             reserved for Q1 and E (and #QRU_Q_FULL's Q2 and d2) (0 or
 *             >= n; grown by half again when
 *             rows are added beyond it), opt->col_capacity 0 or >= m (not
 *             used), opt->adopt 0, opt->rank a ::qru_lsq_rank value (not
 *             used: the batch solve and the row removal judge by their
 *             own rules)
 *  @param fb  receives the batch (5); destroy with qru_lsq_batch_destroy()
 *  @return 0, -i, or a library status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE,
 *          #QRU_ERR_UNSUPPORTED).
 *          With #QRU_OPTION_CHECK_FINITE A (2) and b (3) are scanned.
 *          #QRU_Q_THIN holds count (ncap (m + r) + m (m + r)) elements
 *          (ncap the row capacity) and needs
 *          count*m elements of workspace (the CPU: m plus LAPACK's work
 *          for one page); #QRU_Q_FULL holds count ncap (ncap + r) more,
 *          and it and each update hold count n (2 n + r) elements more
 *          while they run (n the most rows of a problem) and need count*n
 *          elements of workspace. */
QRU_API int qru_lsq_batch_create_ex(qru_context *ctx, const qru_matrix *A,
                                    const qru_matrix *b,
                                    const qru_lsq_options *opt,
                                    qru_lsq_batch **fb);

/** Adds p rows to every problem of a batch.
 *
 *  MATLAB: `for i = 1:count, A(:,:,i) = [A(:,:,i); U(:,:,i)];
 *  b(:,:,i) = [b(:,:,i); e(:,:,i)]; end` (the factorisations of the new
 *  A and b).
 *
 *  Each new row [u e] is rotated into [R d] by m Givens rotations (LAPACK
 *  dlartg's, c >= 0; a zero pivot and a nonzero u(j) swap), the rotated e
 *  adds its squares to the residual sums of squares.  #QRU_Q_THIN: the
 *  same rotations act on the columns of [Q1 0; 0 I] (Q1 gains the rows,
 *  one pass over Q1 per 8 rows), and E gains the rows and the rotated
 *  e's along the new columns (E1 = [E; 0] + X du, as qru_lsq_add_rows()
 *  in the thin form); Q1 and E move to pages of a larger capacity where
 *  the rows do not fit.  #QRU_Q_FULL: as #QRU_Q_THIN, then the
 *  complement Q2 and d2 of every problem that gained rows recomputed
 *  (qru_lsq_batch_create_ex()).  The call does not wait for the
 *  device.
 *
 *  @param fb the batch (1)
 *  @param U  batch of count p x m pages, p >= 1 (2)
 *  @param e  batch of count p x r pages (3)
 *  @return 0, -i (the batch then unchanged, bit for bit), or a library
 *          status.  With #QRU_OPTION_CHECK_FINITE U (2) and e (3) are
 *          scanned.  Workspace as qru_lsq_batch_create(). */
QRU_API int qru_lsq_batch_add_rows(qru_lsq_batch *fb, const qru_matrix *U,
                                   const qru_matrix *e);

/** Adds a number of rows of its own to each problem of a batch: problem
 *  i gains the first rows[i] rows of its pages of U and e (0 <= rows[i]
 *  <= p; 0 leaves problem i as it is, bit for bit), so a subset of the
 *  problems, or problems whose data arrive at different rates, are
 *  updated in one call.
 *
 *  MATLAB: `for i = 1:count, A(:,:,i) = [A(:,:,i); U(1:rows(i),:,i)];
 *  b(:,:,i) = [b(:,:,i); e(1:rows(i),:,i)]; end`.
 *
 *  As qru_lsq_batch_add_rows() (which is this call with rows NULL): the
 *  Q-less form in one pass over the batch (a problem's rows from
 *  rows[i] on are taken as zero rows, which rotate nothing), the thin
 *  form a pass per run of consecutive problems of one row count gaining
 *  one number of rows.  Each problem's row count grows by its rows[i]
 *  (qru_lsq_batch_rows()).
 *
 *  @param fb   the batch (1)
 *  @param U    batch of count p x m pages, p >= 1 (2)
 *  @param e    batch of count p x r pages (3)
 *  @param rows count ints in host memory, each in 0 .. p, or NULL (4)
 *  @return 0, -i (the batch then unchanged, bit for bit), or a library
 *          status.  With #QRU_OPTION_CHECK_FINITE U (2) and e (3) are
 *          scanned (every row, used or not).  Workspace as
 *          qru_lsq_batch_add_rows(), and count elements more in the
 *          Q-less form. */
QRU_API int qru_lsq_batch_add_rows_ex(qru_lsq_batch *fb,
                                      const qru_matrix *U,
                                      const qru_matrix *e, const int *rows);

/** Removes the rows k+1 .. k+p of every problem of a #QRU_Q_THIN or
 *  #QRU_Q_FULL batch (the same rows of each A and b).
 *
 *  MATLAB: `for i = 1:count, A(k+1:k+p,:,i) = []; b(k+1:k+p,:,i) = [];
 *  end` (the factorisations of the new A and b).
 *
 *  Each problem runs the thin algorithm of qru_lsq_remove_rows() on its
 *  own (on a GPU one work-group a problem): the removed rows are
 *  completed against Q1 (Z = E_K - Q1 Qk', Qk = Q1(k+1:k+p, :), once
 *  reorthogonalised; Z = Qz Rz by Gram-Schmidt, twice per column), judged
 *  by the removals' rank rule of qru_lsq_remove_rows() (a pivot |Rz(j,j)|
 *  not finite or <= 2 max(n, m) eps, else s = 1 / ||inv(Rz)||_F <= 2
 *  max(n, m) eps at the smallest pivot; where it passes with
 *  ||inv(Rz)||_F^2 > 4 p, p > 1, Qz is projected against Q1 once more,
 *  Rz corrected and judged again), then p staggered sweeps of
 *  Givens rotations on [Q1 Qz] (one pass over Q1 per 8 sweeps), [R d] and
 *  E.  About 12 n m p flops a problem; the rows below k+p move up.
 *  #QRU_Q_FULL: then the complement Q2 and d2 of every problem that lost
 *  the rows recomputed (qru_lsq_batch_create_ex()).  The call waits for
 *  the device once, to read the problems' verdicts (their count of failures: a second
 *  wait reads them all where some problem failed).
 *
 *  @param fb   the batch (1): #QRU_Q_THIN or #QRU_Q_FULL (#QRU_Q_NONE:
 *              #QRU_ERR_NO_Q, after the checks)
 *  @param k    rows kept before the block (2): 0 <= k < n, n the fewest
 *              rows of a problem
 *  @param p    rows removed (3): 1 <= p <= n - k and n - p >= m
 *  @param info host array of count ints or NULL (4): info[i] = 0, or j > 0
 *              when problem i's removal fails the rank rule (j as the
 *              status of qru_lsq_remove_rows()); not written when the call
 *              returns a negative status
 *  @return 0 when every problem lost the rows; -i; c > 0: c problems
 *          refused the removal (their info[i] > 0, their factorisations
 *          unchanged bit for bit and their row count kept; the others
 *          updated); #QRU_ERR_NO_Q; or a library status (#QRU_ERR_ALLOC,
 *          #QRU_ERR_DEVICE; then which problems were written is
 *          unspecified).  count = 0 is a quick return after the checks.
 *          Needs about count*(n p + (m + p) (m + r + 3 p) + 256 p)
 *          elements of workspace, taken in parts of at most about 2^24
 *          elements. */
QRU_API int qru_lsq_batch_remove_rows(qru_lsq_batch *fb, int k, int p,
                                      int *info);

/** Removes a number of rows of its own from each problem of a
 *  #QRU_Q_THIN or #QRU_Q_FULL batch: problem i loses the rows k+1 .. k+rows[i] (0 <=
 *  rows[i] <= p; 0 leaves problem i as it is, bit for bit), so a subset
 *  of the problems, or a window that drops each problem's oldest rows at
 *  its own rate (the counterpart of qru_lsq_batch_add_rows_ex()), is
 *  updated in one call.
 *
 *  MATLAB: `for i = 1:count, A(k+1:k+rows(i),:,i) = []; b(k+1:k+rows(i),
 *  :,i) = []; end`.
 *
 *  As qru_lsq_batch_remove_rows() (which is this call with rows NULL):
 *  each problem that loses rows runs the thin algorithm of
 *  qru_lsq_remove_rows() on its own and is judged by its rank rule; a
 *  pass over the batch per run of consecutive problems of one row count
 *  and per number of rows its problems lose (the problems of another
 *  number, or of none, are skipped on the device).  A refused problem
 *  keeps its rows (info[i] > 0); the others' row counts fall by rows[i]
 *  (qru_lsq_batch_rows()).
 *
 *  @param fb   the batch (1): #QRU_Q_THIN or #QRU_Q_FULL (#QRU_Q_NONE:
 *              #QRU_ERR_NO_Q, after the checks)
 *  @param k    rows kept before the block (2): k >= 0 (with rows NULL as
 *              in qru_lsq_batch_remove_rows())
 *  @param p    the most rows a problem loses (3): p >= 1 (with rows NULL
 *              as in qru_lsq_batch_remove_rows())
 *  @param info host array of count ints or NULL (4), as in
 *              qru_lsq_batch_remove_rows() (0 where rows[i] = 0)
 *  @param rows count ints in host memory or NULL (5): each in 0 .. p,
 *              and where rows[i] > 0, k + rows[i] <= n_i and n_i -
 *              rows[i] >= m (n_i problem i's rows: A stays tall)
 *  @return as qru_lsq_batch_remove_rows(); 0 without work (and without a
 *          wait) when every rows[i] is 0.  Workspace as
 *          qru_lsq_batch_remove_rows() with p the largest rows[i], and
 *          count elements more. */
QRU_API int qru_lsq_batch_remove_rows_ex(qru_lsq_batch *fb, int k, int p,
                                         int *info, const int *rows);

/** Removes the columns k+1 .. k+p of every problem of a batch (the same
 *  columns of each A; the unknowns m of the batch become m - p).
 *
 *  MATLAB: `for i = 1:count, A(:,k+1:k+p,i) = []; end` (the
 *  factorisations of the new A with the same b)
 *
 *  Each problem on its own (on a GPU one work-group a problem): R's
 *  columns after the block move left, which leaves p subdiagonals in the
 *  columns k+1 .. m-p; for each of them, p Givens rotations of adjacent
 *  rows of [R d] clear them (from the bottom), and the rows m-p+1 .. m of
 *  the rotated d, which leave the triangle, join the residuals:
 *  #QRU_Q_NONE adds their squares to the residual sums of squares;
 *  #QRU_Q_THIN applies the same rotations to the columns of Q1, whose
 *  last p columns then leave it, and adds those columns times the rows of
 *  d to E (E1 = b - Q1(:,1:m-p) d1 = E + Q1(:,m-p+1:m) d(m-p+1:m,:)).
 *  #QRU_Q_FULL: as #QRU_Q_THIN, then every problem's complement Q2 and
 *  d2 recomputed (qru_lsq_batch_create_ex()).
 *  About 3 p (m-k)^2 + 6 p (m-k) (r + n) flops a problem (n: #QRU_Q_THIN
 *  only).  Removing columns cannot make a problem rank-deficient, so no
 *  problem refuses.  The call does not wait for the device.
 *
 *  @param fb the batch (1)
 *  @param k  columns kept before the block (2): 0 <= k < m
 *  @param p  columns removed (3): 1 <= p <= m - k and p < m
 *  @return 0, -i (the batch then unchanged, bit for bit), or a library
 *          status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE; then which problems
 *          were written is unspecified).  count = 0 is a quick return
 *          after the checks.  Needs about count*m*(m - k + r) elements of
 *          workspace, taken in parts of at most about 2^24 elements. */
QRU_API int qru_lsq_batch_remove_cols(qru_lsq_batch *fb, int k, int p);

/** Inserts the p columns of V after column k of every problem of a
 *  #QRU_Q_THIN or #QRU_Q_FULL batch (a page of V a problem; the unknowns m of the batch
 *  become m + p).
 *
 *  MATLAB: `for i = 1:count, A1(:,:,i) = [A(:,1:k,i) V(:,:,i)
 *  A(:,k+1:m,i)]; end` (the factorisations of the new A with the same b)
 *
 *  Each problem as the #QRU_Q_THIN form of qru_lsq_add_cols() (on a GPU
 *  one work-group a problem): W = Q1' V by classical Gram-Schmidt with
 *  reorthogonalisation (CGS2), the remainder Z = V - Q1 W orthonormalised
 *  by modified Gram-Schmidt run twice per column (Z = Qz Rz), then
 *  [R(:,1:k) W R(:,k+1:m); 0 Rz 0] made triangular by p (m - k) Givens
 *  rotations of adjacent rows (each new column cleared below its
 *  diagonal from the bottom), the same rotations on [Q1 Qz] and on
 *  [d; Qz' E], and E1 = E - Qz (Qz' E).  About 12 n p (m + (m - k)/2)
 *  flops a problem.  Each problem is judged by the QR rank rule of the
 *  file documentation on its R1 for the columns k+1 .. m+p (as
 *  qru_lsq_add_cols()): R1(j,j) not finite or |R1(j,j)| <= max(n_i, m+p)
 *  eps max_c ||R1(1:c,c)||.  The column count is the batch's, so a
 *  refusal by any problem leaves every problem as it was: the update is
 *  made in new storage, which replaces the old only when all problems
 *  passed; #QRU_Q_FULL: then every problem's complement Q2 and d2
 *  recomputed (qru_lsq_batch_create_ex()).  The call waits for the device
 *  once, to read the problems' verdicts (their count of failures: a second wait reads
 *  them all where some problem failed).
 *
 *  @param fb   the batch (1): #QRU_Q_THIN or #QRU_Q_FULL (#QRU_Q_NONE:
 *              #QRU_ERR_NO_Q, after the checks; it holds no Q1 to project
 *              V on: qru_lsq_batch_add_cols_data() inserts from A and b)
 *  @param k    columns kept before the new ones (2): 0 <= k <= m
 *  @param V    batch of count n x p pages (3), n the most rows of a
 *              problem (a problem of n_i rows reads the first n_i rows of
 *              its page), 1 <= p and m + p <= n_i for every problem (A
 *              stays tall)
 *  @param info host array of count ints or NULL (4): info[i] = 0, or
 *              j > 0 when problem i refuses the columns (the first
 *              column of its R1 that fails the rank rule, 1-based); not
 *              written when the call returns a negative status
 *  @return 0 when every problem gained the columns; -i; c > 0: c
 *          problems refused them (their info[i] > 0), and no problem
 *          changed, bit for bit; #QRU_ERR_NO_Q; or a library status
 *          (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE; the batch then unchanged).
 *          With #QRU_OPTION_CHECK_FINITE V (3) is scanned.  Holds new
 *          storage of count (ncap + m + p) (m + p + r) elements (ncap the
 *          row capacity) while it runs, and needs about count*(m + r +
 *          256) p elements of workspace, taken in parts of at most about
 *          2^24 elements. */
QRU_API int qru_lsq_batch_add_cols(qru_lsq_batch *fb, int k,
                                   const qru_matrix *V, int *info);

/** qru_lsq_batch_add_cols() in every form, with the current A and b of
 *  the problems given: for #QRU_Q_NONE by the corrected semi-normal
 *  equations (Bjorck's CSNE), each problem's Q1 = A / R and residuals
 *  E = b - Q1 d formed from its A and b (a triangular solve and a
 *  product), then the thin insertion of qru_lsq_batch_add_cols()
 *  against them over the batch: its two passes of classical Gram-Schmidt,
 *  C = Q1' V = R' \ (A' V), Z = V - A (R \ C), and the correction
 *  C += R' \ (A' Z), Z -= A (R \ (R' \ (A' Z))), are CSNE; Z's
 *  orthonormal basis gives R's new rows and d's (from E), the same
 *  rotations, the same rank rule and verdicts; the residual sums of
 *  squares become those of the new residuals E - Qz (Qz' E).  The other
 *  forms do not read A and b (their sizes are checked) and behave exactly
 *  as qru_lsq_batch_add_cols().  The accuracy of the Q-less insertion
 *  depends on the condition of A (docs/accuracy.md), as that of
 *  qru_lsq_add_cols_data().
 *
 *  MATLAB: `for i = 1:count, A1 = [A(:,1:k,i) V(:,:,i) A(:,k+1:m,i)];
 *  R1(:,:,i) = triu(qr(A1, 0)); d1(:,:,i) = R1(:,:,i)' \ (A1' * b(:,:,i));
 *  end`
 *
 *  @param fb   the batch (1), in any form
 *  @param k    columns kept before the new ones (2): 0 <= k <= m
 *  @param V    batch of count n x p pages (3), as qru_lsq_batch_add_cols()
 *  @param A    batch of count n x m pages (4): the matrices the problems
 *              factorise (a problem of n_i rows reads the first n_i rows
 *              of its page)
 *  @param b    batch of count n x r pages (5): their right-hand sides
 *  @param info host array of count ints or NULL (6), as
 *              qru_lsq_batch_add_cols()
 *  @return as qru_lsq_batch_add_cols(), without #QRU_ERR_NO_Q: 0; -i; c
 *          > 0 problems refused the columns (no problem changed, bit for
 *          bit); or a library status (the batch then unchanged).  With
 *          #QRU_OPTION_CHECK_FINITE V (3), A (4) and b (5) are scanned.
 *          #QRU_Q_NONE holds, while it runs, count n (2 m + p + 2 r) +
 *          count (m + p) (m + p + r) elements of new storage and scratch
 *          (n the most rows of a problem), and the workspace of
 *          qru_lsq_batch_add_cols(). */
QRU_API int qru_lsq_batch_add_cols_data(qru_lsq_batch *fb, int k,
                                        const qru_matrix *V,
                                        const qru_matrix *A,
                                        const qru_matrix *b, int *info);

/** The rank-k modification of every problem of a #QRU_Q_THIN or
 *  #QRU_Q_FULL batch: A_i + U_i V_i' (a page of U and of V a problem).
 *
 *  MATLAB: `for i = 1:count, [Q1(:,:,i), R(:,:,i)] = qr(A(:,:,i) +
 *  U(:,:,i)*V(:,:,i)', 0); d(:,:,i) = Q1(:,:,i)'*b(:,:,i); end` (the
 *  factorisations of the new A with the same b; #QRU_Q_FULL: the full Q
 *  and d)
 *
 *  Each problem as the thin form of qru_lsq_modify(): W = Q1' U and
 *  Z = U - Q1 W by classical Gram-Schmidt with reorthogonalisation
 *  (CGS2), Z = Qz Rz by Householder (with dz = Qz' E), so that A + U V'
 *  = [Q1 Qz] M with M = [R + W V'; Rz V'] ((m + k) x m); the Householder
 *  QR M = Qm R1 (with Qm' [d; dz]) gives R1, Q1 := [Q1 Qz] Qm, and the
 *  residuals E := E - Qz dz + [Q1 Qz] ([d; dz] - Qm d1).  The QRs run
 *  over the batch (one work-group a problem on a GPU), the products and
 *  copies as batched BLAS calls over the runs of problems of one row
 *  count (about 4 n m (m + k) + 4 n (m + k) r flops a problem): the
 *  backend calls do not grow with the count.  Each problem is judged by the QR rank rule of the file
 *  documentation on R1 with its row count n_i (as qru_lsq_batch_solve());
 *  a problem that fails keeps its factorisation bit for bit, the others
 *  are updated.  #QRU_Q_FULL: then the complement Q2 and d2 of every
 *  problem that changed recomputed (qru_lsq_batch_create_ex()).  The call
 *  waits for the device once, to read the problems' verdicts (their count of failures:
 *  a second wait reads them all where some problem failed).
 *
 *  @param fb   the batch (1): #QRU_Q_THIN or #QRU_Q_FULL (#QRU_Q_NONE:
 *              #QRU_ERR_NO_Q, after the checks; A + U V' needs Q)
 *  @param U    batch of count n x k pages (2), n the most rows of a
 *              problem (a problem of n_i rows reads the first n_i rows of
 *              its page), 1 <= k <= n_i - m for every problem (A stays
 *              tall by k rows: Z needs room outside Q1's span)
 *  @param V    batch of count m x k pages (3)
 *  @param info host array of count ints or NULL (4): info[i] = 0, or j >
 *              0 when problem i's A + U V' fails the rank rule (the first
 *              column, 1-based); not written when the call returns a
 *              negative status
 *  @return 0 when every problem was modified; -i (the batch then
 *          unchanged, bit for bit); c > 0: c problems refused (their
 *          info[i] > 0, their factorisations unchanged bit for bit; the
 *          others modified); #QRU_ERR_NO_Q; or a library status
 *          (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE; then which problems were
 *          written is unspecified).  With
 *          #QRU_OPTION_CHECK_FINITE U (2) and V (3) are scanned.  Holds
 *          about count (2 n (k + m + r) + (m + k) (2 m + 2 r) + 3 m k)
 *          elements of scratch while it runs (#QRU_Q_FULL: count n (2 n
 *          + r) more) and needs the workspace of the QRs and the solve
 *          (about count (n + m r)). */
QRU_API int qru_lsq_batch_modify(qru_lsq_batch *fb, const qru_matrix *U,
                                 const qru_matrix *V, int *info);

/** qru_lsq_batch_modify() for a subset of the problems: problem i is
 *  modified where mask[i] = 1 and left as it is, bit for bit (info[i] =
 *  0), where mask[i] = 0.
 *
 *  MATLAB: `for i = find(mask), [Q1(:,:,i), R(:,:,i)] = qr(A(:,:,i) +
 *  U(:,:,i)*V(:,:,i)', 0); end`
 *
 *  @param fb   the batch (1), as in qru_lsq_batch_modify()
 *  @param U    (2), as in qru_lsq_batch_modify(), k <= n_i - m checked
 *              for the problems of the mask only
 *  @param V    (3), as in qru_lsq_batch_modify()
 *  @param info (4), as in qru_lsq_batch_modify()
 *  @param mask count ints in host memory, each 0 or 1, or NULL (all) (5)
 *  @return as qru_lsq_batch_modify(); 0 without work (and without a
 *          wait) when every mask[i] is 0. */
QRU_API int qru_lsq_batch_modify_ex(qru_lsq_batch *fb, const qru_matrix *U,
                                    const qru_matrix *V, int *info,
                                    const int *mask);

/** Least-squares solutions of every problem of a batch.
 *
 *  MATLAB: `for i = 1:count, X(:,:,i) = R(:,:,i) \ d(:,:,i); end`
 *  (= A(:,:,i) \ b(:,:,i)).
 *
 *  Each problem is judged by the QR rank rule of the file documentation
 *  with its row count n (R(j,j) not finite or |R(j,j)| <= max(n, m) eps
 *  max_c ||R(1:c,c)||) and solved by back substitution on its own (on a
 *  GPU one work-group a problem).  The call waits for the device once, to
 *  learn whether some problem failed (CUDA: a flag the solve sets; the
 *  other backends: the count of failures); a second wait reads the
 *  verdicts where one did.
 *
 *  @param fb   the batch (1)
 *  @param X    batch of count m x r pages (2): receives the solutions; a
 *              rank-deficient problem's page is not written
 *  @param info host array of count ints or NULL (3): info[i] = 0, or the
 *              first column j (1-based) where problem i fails the rank
 *              rule; not written when the call returns a negative status
 *  @return 0 when every problem was solved; -i; k > 0: k problems failed
 *          (their info[i] > 0; the others solved); or a library status.
 *          count = 0 is a quick return after the checks.  Needs about
 *          count + count*m*r elements of workspace (only count where a
 *          problem fits, as for qru_lsq_batch_create()). */
QRU_API int qru_lsq_batch_solve(const qru_lsq_batch *fb, qru_matrix *X,
                                int *info);

/** Adds p rows to every problem of a batch and solves each grown problem:
 *  the step of a recursive least-squares filter, in one call.
 *
 *  MATLAB: `for i = 1:count, A(:,:,i) = [A(:,:,i); U(:,:,i)];
 *  b(:,:,i) = [b(:,:,i); e(:,:,i)]; X(:,:,i) = A(:,:,i) \ b(:,:,i); end`.
 *
 *  The factorisations become those of qru_lsq_batch_add_rows(fb, U, e),
 *  X and info those of a qru_lsq_batch_solve(fb, X, info) after it (the
 *  same rotations, rank rule and back substitution).  #QRU_Q_NONE: one
 *  pass over each problem's R and d where the backend has it (CUDA, real
 *  data, m + r <= 32: each problem's [R d] is updated and solved in
 *  shared memory, read and written once; the CPU backend solves each
 *  problem while its pages are in the cache), else the two calls' work;
 *  #QRU_Q_THIN and #QRU_Q_FULL: the two calls.  The call waits for the
 *  device as qru_lsq_batch_solve() does.
 *
 *  @param fb   the batch (1)
 *  @param U    batch of count p x m pages, p >= 1 (2)
 *  @param e    batch of count p x r pages (3)
 *  @param X    batch of count m x r pages (4), overlapping none of the
 *              batch's storage, U and e: receives the solutions; a
 *              rank-deficient problem's page is not written
 *  @param info host array of count ints or NULL (5), as in
 *              qru_lsq_batch_solve()
 *  @return 0 when every problem was solved; -i (the batch, X and info
 *          then unchanged); k > 0: k problems failed the rank rule (all
 *          gained the rows; the failed ones' info[i] > 0, their pages of
 *          X unchanged); or a library status.  With
 *          #QRU_OPTION_CHECK_FINITE U (2) and e (3) are scanned.
 *          Workspace as qru_lsq_batch_solve(). */
QRU_API int qru_lsq_batch_add_rows_solve(qru_lsq_batch *fb,
                                         const qru_matrix *U,
                                         const qru_matrix *e, qru_matrix *X,
                                         int *info);

/** Residual norms of every problem: rho(q + i*r) = ||b_i(:,q) - A_i
 *  x_i(:,q)||_2 (0-based q < r, i < count), from the sums of squares kept
 *  (#QRU_Q_THIN, #QRU_Q_FULL: the column norms of the residuals E_i).
 *
 *  MATLAB: `rho(:,i) = sqrt(sum((b(:,:,i) - A(:,:,i)*X(:,:,i)).^2, 1))'`
 *
 *  Arguments: fb (1), rho (2: count*r host doubles).  One host wait.
 *  @return 0, -i, or a library status. */
QRU_API int qru_lsq_batch_residual_norms(const qru_lsq_batch *fb,
                                         double *rho);

/** Copies every problem's R into a caller's batch: `R(:,:,i) = R_i`
 *  (zeros below the diagonal).  Arguments: fb (1), R (2: count m x m
 *  pages, not overlapping the batch's storage).  @return 0, -i, or a
 *  library status. */
QRU_API int qru_lsq_batch_get_r(const qru_lsq_batch *fb, qru_matrix *R);

/** Copies every problem's d = Q'b into a caller's batch: `d(:,:,i) =
 *  d_i` (#QRU_Q_FULL: all n_i rows, `d(1:n_i,:,i) = Q_i' b_i`, the rows
 *  m+1 .. n_i d2_i, whose column norms are the residual norms).
 *  Arguments: fb (1), d (2: count m x r pages; #QRU_Q_FULL: n x r, n the
 *  largest row count, the rows below n_i not written).  @return 0, -i,
 *  or a library status. */
QRU_API int qru_lsq_batch_get_d(const qru_lsq_batch *fb, qru_matrix *d);

/** Copies every problem's Q1 (#QRU_Q_THIN) or full Q (#QRU_Q_FULL) into
 *  a caller's batch: `Q(1:n_i,1:m,i) = Q1_i` (#QRU_Q_THIN);
 *  `Q(1:n_i,1:n_i,i) = Q_i` (#QRU_Q_FULL; Q_i(:,1:m) = Q1_i), the rows
 *  (and #QRU_Q_FULL columns) past a problem's row count n_i not written.
 *  Arguments: fb (1: #QRU_Q_THIN or #QRU_Q_FULL), Q (2: count n x m
 *  pages, #QRU_Q_FULL n x n, n the largest row count, not overlapping the
 *  batch's storage).  @return 0, -i, #QRU_ERR_NO_Q (#QRU_Q_NONE), or a
 *  library status. */
QRU_API int qru_lsq_batch_get_q(const qru_lsq_batch *fb, qru_matrix *Q);

/** Copies every problem's residuals E_i = b_i - A_i x_i into a caller's
 *  batch: `E(1:n_i,:,i) = E_i` (as qru_lsq_batch_get_q()).
 *  Arguments: fb (1: #QRU_Q_THIN or #QRU_Q_FULL), E (2: count n x r
 *  pages).  @return 0,
 *  -i, #QRU_ERR_NO_Q (#QRU_Q_NONE), or a library status. */
QRU_API int qru_lsq_batch_get_residuals(const qru_lsq_batch *fb,
                                        qru_matrix *E);

/** Frees a batch (NULL is allowed). */
QRU_API void qru_lsq_batch_destroy(qru_lsq_batch *fb);

/** The form of the batch (#QRU_Q_FULL, #QRU_Q_THIN or #QRU_Q_NONE), or
 *  -1 if fb is NULL. */
QRU_API int qru_lsq_batch_q_form(const qru_lsq_batch *fb);

/** The number of problems, or -1 if fb is NULL. */
QRU_API int qru_lsq_batch_count(const qru_lsq_batch *fb);
/** The unknowns m of every problem, or -1 if fb is NULL. */
QRU_API int qru_lsq_batch_cols(const qru_lsq_batch *fb);
/** The right-hand sides r of every problem, or -1 if fb is NULL. */
QRU_API int qru_lsq_batch_nrhs(const qru_lsq_batch *fb);
/** The rows n of problem i (0-based; the same for every problem unless
 *  a removal failed for some), or -1 if fb is NULL or i is out of
 *  range. */
QRU_API int qru_lsq_batch_rows(const qru_lsq_batch *fb, int i);

/** Cholesky factor of a matrix with a block of p rows and columns inserted
 *  at position k (for a Gaussian process: p data points added).
 *
 *  MATLAB (A = L*L', A1 symmetric positive definite of order n+p with
 *  A1([1:k, k+p+1:n+p], [1:k, k+p+1:n+p]) = A, C = A1(:, k+1:k+p)):
 *  `L1 = chol(A1, 'lower')`; for p = 1 and uplo 'U' this is Octave's
 *  `cholinsert(U, k+1, C)`.
 *
 *  Work: two triangular solves and a p x p factorisation for the new rows,
 *  and a rank-p downdate of the trailing (n-k) x (n-k) factor.
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    n x n factor of A (3)
 *  @param k    0 <= k <= n: rows/columns before the insertion (4)
 *  @param C    (n+p) x p, p >= 1: the new columns of A1; in the diagonal
 *              block C(k+1:k+p, :) only the @p uplo triangle is read; must
 *              not overlap L (5)
 *  @param L1   (n+p) x (n+p): receives the factor of A1.  It must not
 *              overlap C, nor L, except that it may start at L's first
 *              element with L's leading dimension (a factor kept with
 *              spare capacity, updated in place) (6)
 *  @return 0; -i; i > 0 when column i of the factor of A1 fails the
 *          definiteness rule (see "Failure of the Cholesky routines"; A1
 *          not positive definite, or a NaN / Inf in C or L): L1 (and L)
 *          then unchanged; or a library status.  With
 *          #QRU_OPTION_CHECK_FINITE, the @p uplo triangle of L (3) and
 *          the part of C that is read (5) are scanned.  Needs about
 *          (n+p-k+1)(n+p) + n p elements of workspace, at least
 *          min(n*n, 2^20) ('U': 3 (n+p)^2 more). */
QRU_API int qru_chol_insert(qru_context *ctx, char uplo, const qru_matrix *L, int k,
                    const qru_matrix *C, qru_matrix *L1);

/** Cholesky factor of a matrix with the p rows and columns k+1..k+p
 *  (MATLAB indices) removed (for a Gaussian process: data points removed).
 *
 *  MATLAB: `i = [1:k, k+p+1:n]; L1 = chol(A(i, i), 'lower')` with
 *  A = L*L'; for p = 1 and uplo 'U' this is Octave's `choldelete(U, k+1)`.
 *
 *  Work: a rank-p update of the trailing (n-k-p) x (n-k-p) factor.
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    n x n factor of A (3)
 *  @param k    0 <= k <= n - p (4)
 *  @param p    0 <= p <= n (5)
 *  @param L1   (n-p) x (n-p), same overlap rule as in qru_chol_insert() (6)
 *  @return 0; -i; i > 0 when column i of the new factor fails the
 *          definiteness rule (see "Failure of the Cholesky routines"; only
 *          for an invalid L: a zero or NaN / Inf in a row that stays, or a
 *          pivot that is small for the new order n-p; with p = 0 the new
 *          factor is L, judged the same way): L1 is then unchanged; or a
 *          library status.  Values in the removed rows do not matter to
 *          the result; with #QRU_OPTION_CHECK_FINITE the whole @p uplo
 *          triangle of L (3) is scanned, the removed rows too (L is
 *          checked before k and p).  Needs about (n-k-p)(n-k) + n-p + min(n*n, 2^20)
 *          elements of workspace ('U': 2 n*n more). */
QRU_API int qru_chol_delete(qru_context *ctx, char uplo, const qru_matrix *L, int k,
                    int p, qru_matrix *L1);

/** qru_chol_insert() on every problem of a batch: p rows and columns
 *  inserted at the same position k of count Cholesky factors.
 *
 *  MATLAB: `for i = 1:count, L1(:,:,i) = chol(A1_i, 'lower'); end` with
 *  A1_i as in qru_chol_insert() from L(:,:,i) and C(:,:,i) (uplo 'U':
 *  U1 = chol(A1_i) per page).
 *
 *  Each problem on a copy (O((n+p)^2 p) work a problem): the solve
 *  X = L11 \ C1, the p x p factor of C2 - X'X, the new rows below it and
 *  the rank-p downdate of the trailing factor, as the rotations or the
 *  structured passes of qru_chol_update_batch() (the same local-memory
 *  bound, for order n+p and rank p), several problems a work-group.  Each
 *  problem is judged by the rule of qru_chol_insert() on its own; a
 *  problem that fails leaves its pages of L and L1 bit-identical, the
 *  others are written (only the @p uplo triangle of their L1 page).  The
 *  call waits for the device once, to read the verdicts (their count of failures: a
 *  second wait reads them all where some problem failed).
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    batch of count n x n factors (3)
 *  @param k    0 <= k <= n: rows/columns before the insertion, the same
 *              for every problem (4)
 *  @param C    batch of count (n+p) x p pages, p >= 1: the new columns
 *              of each A1 (of the diagonal block C(k+1:k+p, :) only the
 *              @p uplo triangle is read); must not overlap L (5)
 *  @param L1   batch of count (n+p) x (n+p) pages: receives the factors.
 *              It may start at L's first element with L's leading
 *              dimension and stride (factors kept with spare capacity,
 *              updated in place); otherwise it must not overlap L.  It
 *              must not overlap C (6)
 *  @param info host array of count ints or NULL (7): info[i] = 0, or
 *              qru_chol_insert()'s status j > 0 for problem i; not written
 *              when the call returns a negative status
 *  @return 0 when every problem succeeded; -i; m > 0: m problems failed
 *          (their info[i] > 0, their pages unchanged; the others
 *          written); or a library status (then which pages were written
 *          is unspecified).  count = 0 is a quick return after the
 *          checks.  With #QRU_OPTION_CHECK_FINITE the @p uplo triangles
 *          of L (3) and the part of C that is read (5) are scanned.
 *          Needs about count*(n+p)*(n+2p+1) elements of workspace, taken
 *          in parts of at most about 2^24 elements. */
QRU_API int qru_chol_insert_batch(qru_context *ctx, char uplo,
                                  const qru_matrix *L, int k,
                                  const qru_matrix *C, qru_matrix *L1,
                                  int *info);

/** qru_chol_insert_batch() on a subset of the problems: problem i takes
 *  the insertion where mask[i] = 1 and is left as it is where mask[i] =
 *  0 (its pages of L and L1 not written, bit for bit; info[i] = 0).
 *
 *  MATLAB: `for i = find(mask), L1(:,:,i) = chol(A1_i, 'lower'); end`
 *  (A1_i as in qru_chol_insert_batch()).
 *
 *  One pass over the batch as qru_chol_insert_batch() (which is this call
 *  with mask NULL; on a GPU a masked-out problem keeps in step with its
 *  work-group and writes nothing).
 *
 *  @param ctx, uplo, L, k, C, L1, info arguments 1 .. 7 of
 *              qru_chol_insert_batch() (info[i] = 0 where mask[i] = 0)
 *  @param mask count ints in host memory, each 0 or 1, or NULL (8)
 *  @return as qru_chol_insert_batch(); 0 without work when every mask[i]
 *          is 0.  With #QRU_OPTION_CHECK_FINITE every page of L (3) and
 *          C (5) is scanned, masked or not.  Workspace as
 *          qru_chol_insert_batch(), and count elements more. */
QRU_API int qru_chol_insert_batch_ex(qru_context *ctx, char uplo,
                                     const qru_matrix *L, int k,
                                     const qru_matrix *C, qru_matrix *L1,
                                     int *info, const int *mask);

/** qru_chol_delete() on every problem of a batch: the same p rows and
 *  columns k+1..k+p (MATLAB indices) removed from count Cholesky
 *  factors.
 *
 *  MATLAB: `i = [1:k, k+p+1:n]; for j = 1:count, A = L(:,:,j)*L(:,:,j)';
 *  L1(:,:,j) = chol(A(i, i), 'lower'); end` (uplo 'U': per page
 *  U1 = chol(A(i, i)), A = U'*U).
 *
 *  Each problem on a copy: the rank-p update of the trailing factor by
 *  the removed columns' rows below them, as qru_chol_update_batch()
 *  (the same local-memory bound, for order n-p and rank p), several
 *  problems a work-group.  Each problem is judged by the rule of
 *  qru_chol_delete() on its own; a problem that fails leaves its pages
 *  of L and L1 bit-identical, the others are written (only the @p uplo
 *  triangle of their L1 page).  The call waits for the device once (a
 *  second time where some problem failed, as qru_chol_insert_batch()).
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    batch of count n x n factors (3)
 *  @param k    0 <= k <= n - p, the same for every problem (4)
 *  @param p    0 <= p <= n (5)
 *  @param L1   batch of count (n-p) x (n-p) pages, the overlap rule of
 *              qru_chol_insert_batch() (6)
 *  @param info host array of count ints or NULL (7), as in
 *              qru_chol_insert_batch() (qru_chol_delete()'s statuses)
 *  @return as qru_chol_insert_batch().  Values in the removed rows do not
 *          matter to the result; with #QRU_OPTION_CHECK_FINITE the whole
 *          @p uplo triangles of L (3) are scanned (before k and p).
 *          Needs about count*(n-p)*(n+1) elements of workspace, taken in
 *          parts of at most about 2^24 elements. */
QRU_API int qru_chol_delete_batch(qru_context *ctx, char uplo,
                                  const qru_matrix *L, int k, int p,
                                  qru_matrix *L1, int *info);

/** qru_chol_delete_batch() on a subset of the problems: problem i loses
 *  the rows and columns k+1..k+p where mask[i] = 1 and is left as it is
 *  where mask[i] = 0 (its pages of L and L1 not written, bit for bit;
 *  info[i] = 0).
 *
 *  MATLAB: `i = [1:k, k+p+1:n]; for j = find(mask), A = L(:,:,j)*
 *  L(:,:,j)'; L1(:,:,j) = chol(A(i, i), 'lower'); end`.
 *
 *  One pass over the batch as qru_chol_delete_batch() (which is this call
 *  with mask NULL).
 *
 *  @param ctx, uplo, L, k, p, L1, info arguments 1 .. 7 of
 *              qru_chol_delete_batch() (info[i] = 0 where mask[i] = 0)
 *  @param mask count ints in host memory, each 0 or 1, or NULL (8)
 *  @return as qru_chol_delete_batch(); 0 without work when every mask[i]
 *          is 0.  Workspace as qru_chol_delete_batch(), and count
 *          elements more. */
QRU_API int qru_chol_delete_batch_ex(qru_context *ctx, char uplo,
                                     const qru_matrix *L, int k, int p,
                                     qru_matrix *L1, int *info,
                                     const int *mask);

/** Cholesky factor of a matrix whose row and column i move to position j
 *  (the rows and columns between move by one): Octave's cholshift.
 *
 *  MATLAB (A = L*L', p = [1:i, i+2:j+1, i+1, j+2:n] for i < j,
 *  p = [1:j, i+1, j+1:i, i+2:n] for i > j): `L1 = chol(A(p, p), 'lower')`
 *  (uplo 'L'), `U1 = chol(A(p, p))` (uplo 'U'); for uplo 'U' this is
 *  Octave's `cholshift(U, i+1, j+1)`.
 *
 *  Work: the column shift of qru_lsq_shift_cols() on the upper factor
 *  U = L' (or L itself for 'U') without Q: for i < j Householder panels
 *  on the Hessenberg rows, about 4 (nb + 1) (j - i) (n - i) flops, for
 *  i > j one sweep of i - j Givens rotations, 6 (i - j) (n - j) flops;
 *  then the rows of the new factor with a negative diagonal element are
 *  negated (one backend call each; complex data: the rows i..j scaled by
 *  the conjugate phases of their diagonal elements, one GEMM), so that
 *  the diagonal is positive.
 *
 *  @param ctx  context (1)
 *  @param uplo 'L' or 'U' (2)
 *  @param L    n x n factor of A; only its uplo triangle is read (3)
 *  @param i    0 <= i < n: the row and column that moves (4)
 *  @param j    0 <= j < n: its new position; i = j copies L to L1 (5)
 *  @param L1   n x n: receives the new factor (its uplo triangle); the
 *              same overlap rule as in qru_chol_insert() (6)
 *  @return 0; -i; i > 0 when column i of the new factor fails the
 *          definiteness rule (see "Failure of the Cholesky routines";
 *          only for an invalid L: a zero, NaN or Inf on its diagonal or
 *          a NaN / Inf in its triangle): L1 is then unchanged; or a
 *          library status.  Needs 2 n^2 elements of workspace and that
 *          of the shift. */
QRU_API int qru_chol_shift(qru_context *ctx, char uplo, const qru_matrix *L,
                           int i, int j, qru_matrix *L1);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Gaussian processes */
/** @{ */

/** Exact Gaussian-process regression with one-dimensional inputs, a zero
 *  prior mean and the squared-exponential covariance
 *  k(x, x') = sf2 * exp(-(x - x')^2 / (2 ell^2)), observed with
 *  independent noise of variance sn2, held as the Cholesky factor of
 *  K = k(X, X) + sn2 I that is updated when points are added or removed. */
typedef struct qru_gp qru_gp;

/** Options for qru_gp_create(); initialise with qru_gp_options_init(). */
typedef struct qru_gp_options {
    double lengthscale; /**< ell > 0; default 1 */
    double signal_var;  /**< sf2 > 0; default 1 */
    double noise_var;   /**< sn2 >= 0; default 1e-2 */
    int capacity;       /**< points reserved (>= n), 0 = n; grows on demand */
    int nb;             /**< Cholesky block size, 0 = backend default */
} qru_gp_options;

/** Sets every field of @p opt to its default. */
QRU_API void qru_gp_options_init(qru_gp_options *opt);

/** Creates a GP from n training points (x_i, y_i) given on the host.
 *
 *  MATLAB: `K = sf2*exp(-(x - x').^2/(2*ell^2)) + sn2*eye(n);
 *           L = chol(K, 'lower'); alpha = L' \ (L \ y);`
 *
 *  Arguments: ctx (1), dtype (2: element type of the factor), n (3: >= 0),
 *  x (4: n doubles, may be NULL if n = 0), y (5: n doubles, idem),
 *  opt (6: NULL for defaults), gp (7).
 *  @return 0; -i; i > 0 when column i of the factor of K fails the
 *  definiteness rule (see "Failure of the Cholesky routines"; K(i,i) =
 *  sf2 + sn2, NaN for a non-finite x_i, so a NaN / Inf input fails at its
 *  column at the latest; a repeated input with sn2 = 0 fails at the
 *  later copy), *gp is then not set; or a library status.  A NaN / Inf
 *  in y does not enter the factor: the call succeeds and the GP's
 *  predictions and likelihood are then unspecified. */
QRU_API int qru_gp_create(qru_context *ctx, qru_dtype dtype, int n, const double *x,
                  const double *y, const qru_gp_options *opt, qru_gp **gp);

/** Frees a GP (NULL is allowed). */
QRU_API void qru_gp_destroy(qru_gp *gp);

/** Number of training points, or -1 if gp is NULL. */
QRU_API int qru_gp_size(const qru_gp *gp);

/** Posterior mean and variance of the latent function at m test points.
 *
 *  MATLAB: `Ks = sf2*exp(-(x - xs').^2/(2*ell^2)); mean = Ks' * alpha;
 *           V = L \ Ks; var = sf2 - sum(V.^2, 1)';`
 *
 *  Arguments: gp (1), m (2: >= 0), xs (3: m doubles), mean (4: m doubles
 *  out), var (5: m doubles out, or NULL).  With no training points the
 *  prior (0, sf2) is returned.  The variance is not clamped: where the
 *  posterior variance is near zero, rounding can make it slightly
 *  negative.  @return 0, -i or a library status. */
QRU_API int qru_gp_predict(qru_gp *gp, int m, const double *xs, double *mean,
                   double *var);

/** Log marginal likelihood of the training targets.
 *
 *  MATLAB: `lml = -y'*alpha/2 - sum(log(diag(L))) - n*log(2*pi)/2`
 *
 *  Arguments: gp (1), lml (2: one double out).
 *  @return 0, -i or a library status. */
QRU_API int qru_gp_log_likelihood(qru_gp *gp, double *lml);

/** Inserts p training points before point k (k = n appends), updating the
 *  factor with qru_chol_insert() instead of refactorising.
 *
 *  MATLAB: `x = [x(1:k); xn; x(k+1:end)]; y = [y(1:k); yn; y(k+1:end)];`
 *          followed by the factorisation of qru_gp_create().
 *
 *  Arguments: gp (1), k (2: 0 <= k <= n), p (3: >= 0), x (4: p doubles),
 *  y (5: p doubles).  @return 0; -i; i > 0 when column i of the factor of
 *  the new K fails the definiteness rule, the same status as
 *  qru_gp_create() on the points in their new order (e.g. a repeated
 *  input with sn2 = 0, a NaN / Inf input): the GP is unchanged bit for
 *  bit; or a library status. */
QRU_API int qru_gp_insert(qru_gp *gp, int k, int p, const double *x,
                  const double *y);

/** Removes the training points k+1..k+p (MATLAB indices), updating the
 *  factor with qru_chol_delete().
 *
 *  MATLAB: `x(k+1:k+p) = []; y(k+1:k+p) = [];` and refactorise.
 *
 *  Arguments: gp (1), k (2: 0 <= k), p (3: 0 <= p, k + p <= n).
 *  @return 0, -i, i > 0 (column i of the new factor fails the
 *  definiteness rule, possible only through rounding in the factor: GP
 *  unchanged) or a library status. */
QRU_API int qru_gp_remove(qru_gp *gp, int k, int p);

/** Copies the current n x n lower Cholesky factor of K into @p L (the
 *  strictly upper part of L is set to zero).
 *  MATLAB: `L_out = L`.  Arguments: gp (1), L (2: n x n, the GP's dtype,
 *  in the GP's context).  @return 0, -i or a library status. */
QRU_API int qru_gp_get_factor(const qru_gp *gp, qru_matrix *L);

/** Copies the current training inputs and targets to the host (either
 *  pointer may be NULL).  MATLAB: `x_out = x; y_out = y;`
 *  Arguments: gp (1), x (2: n doubles), y (3: n doubles). */
QRU_API int qru_gp_get_data(const qru_gp *gp, double *x, double *y);

/** @} */

/* ------------------------------------------------------------------------ */
/** @name Solvers on the updates
 *  Active-set solvers that hold their active columns as a factorisation
 *  updated one column at a time (qru_lsq_add_cols / qru_lsq_remove_cols).
 *  Each takes A and b in the context, writes x in the context and reports
 *  what it did in a ::qru_solver_info.  A return > 0 means the solver
 *  stopped before its goal (the iteration cap; a pursuit that ended early:
 *  see each function): the outputs then hold its last iterate, feasible
 *  and consistent.  NaN and infinities in the data are refused (-2, -3);
 *  finite data are taken as they are, not rescaled, so the products the
 *  solvers form (A' b, A' A's entries) must stay within the element
 *  type's range (entries below about sqrt of its largest value over the
 *  problem's size).
 *  @{ */

/** What an active-set solver did. */
typedef struct qru_solver_info {
    int iterations; /**< steps taken: columns added to or removed from the
                         active set */
    int active;     /**< columns in the final active set */
    double rnorm;   /**< ||b - A x||_2 of the returned x */
    int dropped;    /**< columns dropped for good as numerically dependent
                         (qru_lars: the degenerate columns, each without a
                         step; 0 for qru_nnls, which sets a dependent
                         column aside only until the next one enters, and
                         for qru_omp, which stops there) */
    int form;       /**< the form that computed the result, as the
                         tuning values of #QRU_TUNE_OMP_GRAM,
                         #QRU_TUNE_NNLS_GRAM and #QRU_TUNE_LARS_GRAM name
                         them: 1 the residual form (qru_omp) or the thin
                         QR form (qru_nnls, qru_lars), 2 the Gram form;
                         qru_lars under auto: 1 also where a path begun
                         in the Gram form ran again in the thin form */
} qru_solver_info;

/** Non-negative least squares: min ||A x - b||_2 subject to x >= 0, by
 *  the active-set algorithm of Lawson and Hanson (1974, chapter 23).
 *
 *  MATLAB: `x = lsqnonneg(A, b)`, `w = A' * (b - A * x)`
 *
 *  The active set P (the columns whose x_j may be positive) is held as a
 *  #QRU_Q_THIN factorisation of A(:, P), grown by qru_lsq_add_cols() (the
 *  column appended) and shrunk by qru_lsq_remove_cols() as columns enter
 *  and leave (#QRU_UPDATE_FAST), so a step costs O(n |P|) flops and one
 *  product with A, not a new QR.  A step: the column t outside P with
 *  the largest w_t = A(:,t)' (b - A x) > tol_t enters (the lowest index
 *  among equal w_t); z, the least-squares solution on P (R \ d), is
 *  solved, and while a z_j <= 0, x moves towards z as far as it stays
 *  feasible and the columns whose x_j reach 0 leave P, each removal a
 *  step.  A column that the update's rank rule finds dependent on P
 *  (see qru_lsq_add_cols(): so a column whose part outside span(A(:, P))
 *  is below max(n, m) eps times the largest column norm of A(:, P) does
 *  not enter), or whose own z_t comes out <= 0 (Lawson and Hanson's
 *  safeguard), is set aside until the next column enters.  The solve ends
 *  when no w_t > tol_t is left, or P spans the rows of A (b = A x).
 *
 *  Host and device: A and b stay in the context.  w = A' E is one
 *  product with A and the residuals E that the thin form keeps; per step
 *  the host reads w and z together (m + |P| numbers, 1 host wait), and
 *  an added column's rank rule costs 1 more (its R(j,j) and column norms
 *  against those of R, read together): about 2 host waits a step.  x on P
 *  is kept on the host (in double).  The start scans A and b and forms
 *  A' b (3 waits); the end forms x, r = b - A x and w = A' r from A, b
 *  and x (1 wait) and only then writes x and w.  That is the thin QR
 *  form; the Gram form (#QRU_TUNE_NNLS_GRAM; by default taken in double
 *  where the cost model prices it faster) forms G = A' A once and keeps
 *  the inverse of the Cholesky factor of G(P, P): a solve is three
 *  products and one download (m + 2 + |P| numbers, 1 wait), w = A' b -
 *  G(:, P) z formed on the host, an entering column about 10 more calls
 *  and no wait, a leaving one 1 more wait; a column whose pivot
 *  sqrt(G(t,t) - ...) is <= sqrt(n eps) ||A(:, t)||, the resolution of
 *  G, is set aside as the rank rule's refusal is; its accuracy is that
 *  of cond(A(:, P))^2 (m^2 + m min(n, m) + min(n, m)^2 more elements in
 *  the context).
 *
 *  Tolerance: tol_t = tol for every column when tol >= 0 (MATLAB's TolX;
 *  SciPy's nnls takes 0); by default (tol < 0) tol_t = 10 max(n, m) eps
 *  ||A(:,t)||_2 ||b||_2 (eps = FLT_EPSILON or DBL_EPSILON), the rounding
 *  level of w_t, scaled as w_t is: the solution of (A D, s b) is
 *  s D^-1 x for any positive diagonal D and s > 0 up to rounding.
 *
 *  @param ctx     context (1)
 *  @param A       n x m, n, m >= 1; any shape (tall, square or wide) (2)
 *  @param b       n x 1 (3)
 *  @param maxiter the most steps (columns entering plus columns
 *                 leaving), >= 0; 0: 3 m, SciPy's default (4)
 *  @param tol     the tol_t of every column (w_t > tol_t lets column t
 *                 enter), >= 0; < 0: the default above; finite (5)
 *  @param x       m x 1: receives x >= 0; must not overlap A or b (6)
 *  @param w       NULL, or m x 1: receives the dual vector
 *                 w = A' (b - A x) of the returned x (<= tol_j where
 *                 x_j = 0, about 0 where x_j > 0: the KKT conditions;
 *                 lsqnonneg's lambda, which Octave sets to 0 on P);
 *                 must not overlap A, b or x (7)
 *  @param info    NULL, or receives the steps, |P| and ||b - A x||_2 (8)
 *  @return 0; -i for a bad argument i (checked in order); -2 or -3 when
 *          A or b holds a NaN or an infinity (or a column whose 2-norm
 *          overflows the element type): the solver reads the column
 *          norms of A and b (for its tolerance) whatever
 *          #QRU_OPTION_CHECK_FINITE says (with it, the scan of the file
 *          documentation comes first); the cap (maxiter, or 3 m for 0)
 *          when it is reached before the KKT conditions hold: x, w and
 *          info are then those of the last iterate, which is feasible
 *          (x >= 0); or a
 *          library status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE), x, w and
 *          info then unchanged.  Needs the factorisation of up to
 *          min(n, m) columns ((n + m) |P| elements and the updates'
 *          workspace) and 2 m + n + min(n, m) elements more. */
QRU_API int qru_nnls(qru_context *ctx, const qru_matrix *A,
                     const qru_matrix *b, int maxiter, double tol,
                     qru_matrix *x, qru_matrix *w, qru_solver_info *info);

/** Orthogonal matching pursuit (Pati, Rezaiifar and Krishnaprasad 1993),
 *  scikit-learn's orthogonal_mp: starting from S = {} and r = y, each
 *  step picks the column j of X with the largest |X(:,j)' r| (columns
 *  not normalised; the lowest j among ties), appends it to S and sets
 *  r = y - X(:,S) x(S) with x(S) the least-squares solution on X(:,S).
 *  It stops after ncoef columns, or with tol >= 0 as soon as
 *  ||r||^2 <= tol (tested after each step, so at least one column is
 *  chosen; with tol >= 0 pass ncoef = min(n, m) for scikit-learn's rule
 *  that tol overrides n_nonzero_coefs), or early (the return s > 0
 *  below).  X, y and everything of size n or m stay in the context's
 *  memory.  Two forms compute the steps:
 *
 *  - **The residual form** (scikit-learn's precompute = False): the
 *    columns X(:,S) are held as a #QRU_Q_THIN factorisation grown by
 *    qru_lsq_add_cols() at its end, whose residual E = y - Q1 Q1' y
 *    gives X' r and (||r|| / ||y||)^2 by GEMMs; a step brings these
 *    m + 1 numbers to the host, where the argmax is taken.  A step costs
 *    2 n m + O(n k) flops (k = |S|) and two host waits: the download of
 *    [X' r; (||r|| / ||y||)^2] and the rank rule of the update (the
 *    diagonal and the column norms of R, read together); a call of k
 *    steps 2 k + 4 in all (||y||, the first step's download of X' y, the
 *    last one's of ||r||, the k coefficients x(S), which are scattered
 *    into coef on the host and uploaded, and two synchronisations), plus
 *    those of the first column's factorisation (qru_lsq_create: none on
 *    the CPU and OpenCL, one on CUDA, whose cuSOLVER QR reads its
 *    status) and one wherever the context's workspace grows.
 *  - **The Gram form** (scikit-learn's precompute = True,
 *    orthogonal_mp_gram): G = X' X (its upper triangle, one syrk of
 *    n m^2 flops) and X' y are formed once, and the steps run on the
 *    device, the host only queuing them: with R' R = G(S,S), a step
 *    appends the column j chosen by the step before to
 *    B = G(:,S) R^-1 (the correlations of X with an orthonormal basis
 *    of X(:,S)), to the basis Qb = X(:,S) R^-1, to R (a row of B and
 *    the pivot sqrt(G(j,j) - ||B(j,:)||^2)) and to z = R' \ X(:,S)' y,
 *    updates X' r = X' y - B z and the residual r = y - Qb z by the new
 *    columns, and takes the argmax, the stopping rules and the next
 *    column's pivot on the device: O(m k + n k) flops a step.  The host
 *    reads the state after steps 1, 3, 7, 15, 31 and then every 32 and
 *    after the last, so that a call of k steps waits for the host at
 *    most ceil(log2(k + 1)) + k / 32 + 3 times (||y||, the reads, x(S),
 *    one synchronisation); a stop by tol may leave up to 31 queued steps
 *    that do nothing.  It takes m^2 + (m + n) ncoef + ncoef^2 +
 *    2 (m + ncoef) + n elements of the context's memory more, and
 *    10 + 2 ceil(m / 32) + ceil(n / 32).  Unlike
 *    scikit-learn's, whose residual norm ||y||^2 - x(S)' X(:,S)' y
 *    cancels to sqrt(eps) ||y||, the residual norm is the residual's
 *    own, so the stopping rules below are the residual form's.  A column
 *    whose pivot R(k,k)^2 is <= max(n, k) eps max G(i,i) over the k
 *    columns (the definiteness rule of the Cholesky routines on G(S,S);
 *    scikit-learn tests R(k,k)^2 <= eps absolutely) is refused: the Gram
 *    matrix resolves a column's part outside the chosen ones only down
 *    to about sqrt(eps) of its norm, where the QR resolves it to eps.
 *
 *  The form is #QRU_TUNE_OMP_GRAM: by default the one the context's cost
 *  model prices faster (both forms' first step and middle step run
 *  against the plans' dry-run op table; ncoef steps are priced, also
 *  where tol may stop sooner), the Gram form only where its memory is
 *  within #QRU_TUNE_OMP_GRAM_MIB; or forced.  Both forms pick the same
 *  columns in the same order and give the same coefficients up to
 *  rounding (the Gram form's from the normal equations, so that their
 *  error grows with cond(X(:,S))^2 rather than cond(X(:,S))); ties go
 *  to the lowest index in both (exact ties come from equal columns,
 *  whose correlations both forms compute alike).
 *
 *  MATLAB: `x = zeros(m,1); x(S) = X(:,S) \ y` with S the greedily chosen
 *  support.
 *
 *  @param ctx     context (1)
 *  @param X       n x m, n, m >= 1, the dictionary (2)
 *  @param y       n x 1, the dtype of X (3)
 *  @param ncoef   the most columns chosen, 1 <= ncoef <= min(n, m) (4)
 *  @param tol     >= 0: stop once ||y - X x||_2^2 <= tol; < 0: no
 *                 residual test; not NaN (5)
 *  @param coef    m x 1, the output x: nonzero at most at the chosen
 *                 columns; must not overlap X or y (6)
 *  @param path    NULL, or ncoef x ncoef: column s (0-based) holds the
 *                 coefficients of the first s + 1 chosen columns after
 *                 step s + 1, in the order chosen (the least-squares
 *                 solution on them), the rest of the column and the
 *                 columns of steps not taken zero; must not overlap X, y
 *                 or coef (7)
 *  @param support NULL, or ncoef host ints: the chosen columns (0-based)
 *                 in the order chosen, -1 after the last (8)
 *  @param info    NULL, or the output ::qru_solver_info: iterations =
 *                 active = |S|, rnorm = ||y - X x||_2 (9)
 *  @return 0; -i; #QRU_ERR_ALLOC / #QRU_ERR_DEVICE (the outputs are then
 *  unchanged); or s > 0 when step s (1-based) found no column to add
 *  and the pursuit ended early (scikit-learn warns "Orthogonal matching
 *  pursuit ended prematurely due to linear dependence"): the chosen
 *  column is numerically dependent on the s - 1 before it (the QR rank
 *  rule of qru_lsq_add_cols(), or the Gram form's pivot rule above) or
 *  is one of them, or y lies in the span
 *  of X(:,S) to rounding (||r|| <= max(n, s) eps ||y||, the rank rule on
 *  [X(:,S) y]; with tol >= 0 that counts as tol met and returns 0), or
 *  X' r is zero (as for y = 0: s = 1, x = 0) or not finite.  The outputs
 *  then hold the result of the first s - 1 steps, as for a return of 0,
 *  and qru_last_error() says why the pursuit stopped. */
QRU_API int qru_omp(qru_context *ctx, const qru_matrix *X,
                    const qru_matrix *y, int ncoef, double tol,
                    qru_matrix *coef, qru_matrix *path, int *support,
                    qru_solver_info *info);

/** Least angle regression (LAR) and the Lasso path by homotopy (Efron,
 *  Hastie, Johnstone and Tibshirani 2004), step for step as
 *  scikit-learn's `lars_path(X, y, method='lar' | 'lasso', max_iter,
 *  alpha_min, positive)` with its other defaults (no Gram, no intercept,
 *  no normalisation, eps the machine epsilon).
 *
 *  MATLAB: `coefs = lasso(X, y, 'Lambda', alphas, 'Standardize', false,
 *  'Intercept', false)` (lasso = 1): coefs(:, i) minimises
 *  ||y - X b||^2 / (2 n) + alphas(i) ||b||_1; the knots of that path
 *
 *  The active set A (in order of entry) is held as a #QRU_Q_THIN
 *  factorisation X(:, A) D^-1 = Q1 R~ (D: the powers of 2 nearest the
 *  column norms, so that the QR rank rule judges each column against its
 *  own scale, as scikit-learn's absolute pivot does, and the solves are
 *  those of R = R~ D bit for bit), grown by qru_lsq_add_cols() (the
 *  column appended) when a variable enters and shrunk by
 *  qru_lsq_remove_cols() when a Lasso coefficient crosses zero
 *  (#QRU_UPDATE_FAST).  A step:
 *  with the correlations c = X' (y - X b) and C = max |c_j| over the
 *  inactive j (alpha = C / n), the inactive column with the largest
 *  |c_j| enters (ties: the first in scikit-learn's order of the inactive
 *  columns, the lowest index until columns have entered: an entering
 *  column takes the place of the first inactive one); the equiangular
 *  direction u = X_A w A_A with w = (X_A' X_A)^-1 s (s the signs of c on
 *  A, A_A = (s' w)^-1/2) is R \ (R' \ s) and Q1 (R' \ s); the step
 *  gamma is the smallest positive (C -+ c_j) / (A_A -+ X_j' u) and
 *  C / A_A, or, where a coefficient would change sign first, LAR flips
 *  its sign and the Lasso takes the step to zero and removes the column
 *  (the next step adds no column, as scikit-learn's).  With positive = 1
 *  (the Lasso only, as scikit-learn) the path is that of the Lasso with
 *  b >= 0 (MATLAB: no `lasso` option; `lsqlin` with the constraint at
 *  each alpha): C = max(max c_j, 0) (signed) over the inactive j, the
 *  column with the largest c_j enters with the sign +1, gamma is the
 *  smallest positive (C - c_j) / (A_A - X_j' u) and C / A_A (a negative
 *  correlation never enters), and the path ends when C / n <= alpha_min
 *  + FLT_EPSILON: where every correlation is <= 0 at the start (no
 *  step: alphas[0] = alpha_min, the coefficients 0), or after the step
 *  to C / A_A (alpha 0: the last coefficients are the non-negative
 *  least-squares solution on the active columns, which satisfies the
 *  Lasso's conditions at alpha 0).  There qru departs from
 *  scikit-learn, which takes the negative max c_j as the last alpha and
 *  interpolates the last coefficients towards it (they then satisfy
 *  the conditions at an alpha > 0, not at the 0 it reports); the knots
 *  before agree.  With positive = 1 no coefficient of the path is below
 *  0: one whose crossing ties with gamma within rounding (the step not
 *  taken to it) would end an ulp below 0 and is stored as 0.  A column whose
 *  pivot |R(k,k)| comes out below max(1e-7, n eps ||X(:,t)||) (1e-7:
 *  scikit-learn's Cholesky pivot; the second term, float's rounding)
 *  or that the update's rank rule refuses (on the scaled columns: a part
 *  outside the span of the active ones below max(n, m) eps ||X(:,t)||
 *  within a factor of 2) is dropped for good (its correlation set to 0,
 *  no step counted; counted in info->dropped, where scikit-learn warns
 *  "Regressors in active set degenerate").  The path ends when alpha <= alpha_min +
 *  FLT_EPSILON (absolute; below alpha_min - FLT_EPSILON the last
 *  coefficients are interpolated to alpha_min), after max_iter steps,
 *  when |A| = min(n, m), or (Lasso) when alpha grows (the column that
 *  entered is then in active, the path has no step for it): all as
 *  scikit-learn, but for one case: scikit-learn ends at |A| = m, so for
 *  n < m, where LAR's sign changes left alpha > 0 with n columns active,
 *  it goes on adding columns that depend on them (their pivots rounding
 *  errors, dropped with its warning where below 1e-7); the paths agree
 *  up to the step where qru's ends.
 *
 *  Host and device: X and y stay in the context.  c = X' y is one
 *  product; later c is updated on the host (c -= gamma X' u, as
 *  scikit-learn does).  Per step the host uploads s (|A| numbers) and
 *  downloads X' u, R(k,k) and w together (m + 1 + |A| numbers, 1 host
 *  wait); an entering column adds the update's rank rule (4 waits), a
 *  leaving one the correlation of that column with the new residual (1
 *  wait).  The start scans X and y and forms X' y (3 waits), the end
 *  writes coefs (1 wait; 1 more for info's residual).  The path is kept
 *  on the host (double) until then.  That is the thin QR form; the Gram
 *  form (#QRU_TUNE_LARS_GRAM = 2; never by default) forms G = X' X once and keeps the inverse of
 *  the Cholesky factor of G(A, A): a step is three products and one
 *  download (m + 2 + |A| numbers, 1 wait), an entering column 9 more
 *  calls and no wait, a leaving one 2 waits; its pivot rule is
 *  max(1e-7, sqrt(n eps) ||X(:, j)||), the resolution of G, and its
 *  accuracy that of cond(X_A)^2, as scikit-learn's (m^2 + m min(n, m) +
 *  min(n, m)^2 more elements in the context).
 *
 *  @param ctx       context (1)
 *  @param X         n x m, n, m >= 1; any shape (2)
 *  @param y         n x 1 (3)
 *  @param lasso     0: LAR ('lar'), 1: the Lasso path ('lasso') (4)
 *  @param positive  0, or 1: the coefficients constrained to be >= 0
 *                   (scikit-learn's positive = True; needs lasso = 1) (5)
 *  @param max_iter  the most steps, >= 0 (scikit-learn's default: 500) (6)
 *  @param alpha_min the smallest alpha of the path, finite, >= 0 (7)
 *  @param alphas    host array of max_iter + 1 doubles: receives the
 *                   alphas of the steps 0 .. nsteps (max |c_j| / n, with
 *                   positive = 1 max(max c_j, 0) / n; decreasing) (8)
 *  @param active    host array of min(n, m) ints: receives the final
 *                   active set (0-based, in order of entry), the entries
 *                   after it set to -1 (9)
 *  @param coefs     m x c with c >= max_iter + 1, X's type: receives the
 *                   coefficients of steps 0 .. nsteps in its first
 *                   nsteps + 1 columns (the rest unchanged); must not
 *                   overlap X or y (10)
 *  @param nsteps    receives the steps taken (11)
 *  @param info      NULL, or receives the steps, |A|, ||y - X b||_2 of
 *                   the last coefficients and the columns dropped as
 *                   degenerate (12)
 *  @return 0; -i for a bad argument i (checked in order; -5 also for
 *          positive = 1 with lasso = 0); -2 or -3 when X or y holds a NaN or an infinity (scanned whatever
 *          #QRU_OPTION_CHECK_FINITE says); 1 when the equiangular
 *          direction is not defined (s' w not positive and finite: the
 *          active columns are numerically dependent beyond the pivot
 *          rule), the path up to the step before then returned; or a
 *          library status (#QRU_ERR_ALLOC, #QRU_ERR_DEVICE), the outputs
 *          then unchanged.  Needs the factorisation of up to min(n, m)
 *          columns, 3 m + 2 n + 2 min(n, m) + 1 elements in the context
 *          and m (nsteps + 1) doubles on the host. */
QRU_API int qru_lars(qru_context *ctx, const qru_matrix *X,
                     const qru_matrix *y, int lasso, int positive,
                     int max_iter, double alpha_min, double *alphas,
                     int *active, qru_matrix *coefs, int *nsteps,
                     qru_solver_info *info);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* QRU_H */
