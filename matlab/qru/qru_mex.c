/*
 * qru_mex.c: the MEX gateway of qru for Octave and MATLAB.
 *
 * One source, one MEX file (qru_mex), dispatched on its first argument, a
 * command string; the .m files next to it (qru_qr.m, qru_lsq_solve.m,
 * qru_qrinsert.m, ...) are the documented entry points.  Only the MEX API
 * (mex.h) and the public qru API (qru.h) are used, so the same file builds
 * with Octave's `mkoctfile --mex` and with MATLAB's `mex`.
 *
 *   qru_mex('qr', A [, b] [, backend])                  -> Q, R, d
 *   qru_mex('lsq_solve', A, b [, q] [, backend])        -> x, res
 *   qru_mex('lsq_new', A, b [, q] [, backend])          -> handle (uint64)
 *     (q: the form, 'full' (default), 'thin' or 'none')
 *   qru_mex('lsq_update', h, what, j, ...)              what: 'addcols' j U
 *                                                         [A b] |
 *                                                         'removecols' j p |
 *                                                         'addrows' j U e |
 *                                                         'removerows' j p
 *                                                         [U e] |
 *                                                         'modify' U V |
 *                                                         'shiftcols' i j |
 *                                                         'addrowssolve' j
 *                                                         U [e] (pages)
 *                                                         -> x, res, info
 *     (with A b, U e: qru_lsq_add_cols_data, qru_lsq_remove_rows_data)
 *   qru_mex('lsq_get', h)                               -> Q, R, d
 *     (thin form: Q1, R and d economy; Q-less: Q = [], R and d economy)
 *   qru_mex('lsq_query', h, what)                       what: 'residuals'
 *                                                         -> E | 'downdate'
 *                                                         -> c | 'estimate'
 *                                                         -> est
 *   qru_mex('lsq_solve_h', h)                           -> x, res
 *   qru_mex('lsq_size', h)                              -> n, m, P, rows
 *     (pages: A n x m x P and b n x r x P make a qru_lsq_batch, in the
 *     form 'none' (default), 'thin' or 'full'; its updates are 'addrows'
 *     j U [e] (the rows appended to every page; any j in the Q-less
 *     form), 'addrowssolve' j U [e] (the same rows appended, and every
 *     grown page solved, in one call of qru_lsq_batch_add_rows_solve)
 *     -> X, res, info as lsq_solve_h gives them (every page gains the
 *     rows, also one that then fails the rank rule), 'removerows' j p
 *     ('thin', 'full') -> info P x 1,
 *     'removecols' j p, 'addcols' j U [A b] (U n x p x P; with A and b
 *     qru_lsq_batch_add_cols_data, which the Q-less form needs and the
 *     others only check) -> info P x 1 and 'modify' U V ('thin',
 *     'full'; U n x k x P, V m x k x P) -> info P x 1; lsq_solve and
 *     lsq_solve_h give X m x r x P, res 1 x r x P and info P x 1; lsq_get
 *     the pages of Q (thin: n x m, full: n x n), R (full: n x m) and d
 *     (full: n x r); lsq_query 'residuals' (thin, full); lsq_size the
 *     most rows, m, P and the rows of each page)
 *   qru_mex('gp_new', x, y, [ell sf2 sn2 capacity nb] [, backend])
 *                                                       -> handle (uint64)
 *   qru_mex('gp', h, what, ...)                         what: 'insert' j x y
 *                                                         | 'remove' j p |
 *                                                         'predict' xs ->
 *                                                         mean, var | 'lml'
 *                                                         -> lml | 'factor'
 *                                                         -> L | 'data' ->
 *                                                         x, y | 'size' -> n
 *   qru_mex('free', h)                                  (either kind)
 *   qru_mex('qrinsert', Q, R, j, U, orient [, backend]) -> Q1, R1
 *   qru_mex('qrdelete', Q, R, j, p, orient [, backend]) -> Q1, R1
 *   qru_mex('qrupdate', Q, R, U, V [, backend])         -> Q1, R1
 *   qru_mex('qrshift', Q, R, i, j [, backend])          -> Q1, R1
 *     (Q, R full, or economy with n > m: then the thin form, and Q1, R1
 *     economy too; n >= m >= 1; qrupdate: Q1 R1 = Q R + U V', U n x k,
 *     V m x k; qrshift: column i moves to position j.  The updated
 *     matrix may be rank-deficient (QRU_RANK_ACCEPT), except for columns
 *     added in the thin form, which the library refuses: qru:numerical)
 *   qru_mex('cholupdate', R, X, op [, backend])         -> R1, info
 *     (R n x n x P and X n x k x P: the P pages at once,
 *     qru_chol_update_batch; info P x 1, failed pages of R1 = R's)
 *   qru_mex('cholinsert', R, j, X [, backend])          -> R1, info
 *   qru_mex('choldelete', R, j, p [, backend])          -> R1 [, info]
 *     (pages: R n x n x P, X (n+p) x p x P, one j for all: one call of
 *     qru_chol_insert_batch / qru_chol_delete_batch; info P x 1, a
 *     failed page of R1 holds R's page in the new order, zeros in the
 *     rows and columns inserted)
 *   qru_mex('cholshift', R, i, j [, backend])           -> R1
 *   qru_mex('nnls', C, d, maxiter, tol [, backend])     -> x, w, rnorm,
 *                                                         iterations,
 *                                                         status
 *     (qru_nnls: C n x m, d n x 1, n, m >= 1; maxiter 0 and tol < 0 are
 *     the library's defaults; status 0, or the cap when it was reached,
 *     which is no error: x is then the last feasible iterate)
 *   qru_mex('backend' [, backend])                      -> name, device, fp64,
 *                                                         complex
 *
 * Indices j are MATLAB's (1-based); the C API's k is j - 1.  single inputs
 * compute in float (QRU_FLOAT), double inputs in double; if any matrix
 * argument is single, all are converted to single (MATLAB's rule).  If
 * any is complex, all compute in the complex type of that precision
 * (QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE; real arguments get a zero
 * imaginary part, as MATLAB promotes them) and the results are complex;
 * the library takes complex data for the QR factorisation, least squares,
 * the QR and Cholesky updates on the backends that support it
 * (qru_context_supports), and refuses it elsewhere with its reason
 * (qru:unsupported).  Complex arrays are read and written in MATLAB's
 * interleaved complex storage, which is the library's layout: the MEX
 * file is built with the interleaved complex API (MATLAB R2018a and
 * later: mex -R2018a; Octave 7 and later: mkoctfile --mex -R2018a).
 * Built without it (MX_HAS_INTERLEAVED_COMPLEX 0), real data works as
 * before and complex arguments raise qru:usage.  A handle's element type
 * is fixed at creation: complex data given to a real object is refused.
 * The optional trailing backend is 'cpu', 'cuda', 'opencl' or 'auto'; the
 * default is the environment variable QRU_MEX_BACKEND, else 'auto'.
 * Contexts are created once per backend and kept until the MEX file is
 * cleared.  Every failure raises an error through mexErrMsgIdAndTxt:
 *   qru:usage          wrong arguments to the gateway,
 *   qru:badArgument    the library rejected an argument (-i),
 *   qru:numerical      rank or definiteness lost (status > 0),
 *   qru:unsupported    valid, but not supported by this backend or
 *                      routine (QRU_ERR_UNSUPPORTED: e.g. complex data
 *                      given to the least-squares batches with Q on a
 *                      GPU backend),
 *   qru:library        allocation, device or backend error (<= -1000),
 * with the library's text (qru_last_error) for library statuses.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mex.h"
#include "qru.h"

#ifndef MX_HAS_INTERLEAVED_COMPLEX
#define MX_HAS_INTERLEAVED_COMPLEX 0
#endif

/* ---- per-call resources, released before any error is raised ---------- */

#define MAX_TMP 16
static qru_matrix *tmp_mat[MAX_TMP];
static int n_tmp;
static void *tmp_host[MAX_TMP]; /* host arrays (mxMalloc) */
static int n_host;
static qru_lsq *tmp_lsq; /* a factorisation built for one call */
static qru_lsq_batch *tmp_lsqb; /* a batch of them built for one call */

static void release_tmp(void)
{
    for (int i = 0; i < n_tmp; ++i)
        qru_matrix_destroy(tmp_mat[i]);
    n_tmp = 0;
    for (int i = 0; i < n_host; ++i)
        mxFree(tmp_host[i]);
    n_host = 0;
    qru_lsq_destroy(tmp_lsq);
    tmp_lsq = NULL;
    qru_lsq_batch_destroy(tmp_lsqb);
    tmp_lsqb = NULL;
}

static void fail(const char *id, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    release_tmp();
    mexErrMsgIdAndTxt(id, "%s", msg);
}

/* Raises the error for a library status (nothing for 0), with the
 * library's text: the routine, and for a bad argument its number, value
 * and rule (qru_last_error).  fn names the routine if the text is empty. */
static void check(int st, const char *fn)
{
    if (st == 0)
        return;
    const char *id = st > 0                     ? "qru:numerical"
                     : st == QRU_ERR_UNSUPPORTED ? "qru:unsupported"
                     : st <= -1000              ? "qru:library"
                                                : "qru:badArgument";
    const char *why = qru_last_error(NULL);
    if (why[0])
        fail(id, "%s (status %d)", why, st);
    fail(id, "%s: %s (status %d)", fn, qru_strerror(st), st);
}

/* ---- contexts ------------------------------------------------------------ */

static qru_context *contexts[4]; /* indexed by qru_backend */

/* ---- persistent objects (handles): least squares and GPs ------------------ */

#define MAX_HANDLES 256
static struct {
    uint64_t id;
    qru_lsq *f;         /* a least-squares factorisation (qru_lsq.m), */
    qru_lsq_batch *fb;  /* one over pages (qru_lsq.m with 3-D A), or */
    qru_gp *g;          /* a Gaussian process (qru_gp.m) */
    qru_context *ctx;
    qru_dtype dt;
} handles[MAX_HANDLES];
static uint64_t next_handle = 1;

static void free_handle(int i)
{
    qru_lsq_destroy(handles[i].f);
    qru_lsq_batch_destroy(handles[i].fb);
    qru_gp_destroy(handles[i].g);
    handles[i].f = NULL;
    handles[i].fb = NULL;
    handles[i].g = NULL;
    handles[i].id = 0;
}

static void at_exit(void)
{
    release_tmp();
    for (int i = 0; i < MAX_HANDLES; ++i)
        free_handle(i);
    for (int b = 0; b < 4; ++b) {
        qru_context_destroy(contexts[b]);
        contexts[b] = NULL;
    }
}

static int parse_backend(const char *s, qru_backend *b)
{
    if (!strcmp(s, "auto"))
        *b = QRU_BACKEND_AUTO;
    else if (!strcmp(s, "cpu"))
        *b = QRU_BACKEND_CPU;
    else if (!strcmp(s, "cuda"))
        *b = QRU_BACKEND_CUDA;
    else if (!strcmp(s, "opencl"))
        *b = QRU_BACKEND_OPENCL;
    else
        return 0;
    return 1;
}

static qru_context *get_context(qru_backend b)
{
    if (!contexts[b]) {
        qru_context *ctx = NULL;
        int st = qru_context_create(b, &ctx);
        if (st)
            fail("qru:library", "qru_context_create(%s): %s (status %d)",
                 qru_backend_name(b), qru_strerror(st), st);
        contexts[b] = ctx;
    }
    return contexts[b];
}

/* ---- argument helpers ------------------------------------------------------ */

static char *get_string(const mxArray *a, char *buf, size_t len)
{
    if (!mxIsChar(a) || mxGetString(a, buf, (mwSize)len) != 0)
        return NULL;
    for (char *c = buf; *c; ++c)
        *c = (char)tolower((unsigned char)*c);
    return buf;
}

/* Removes a trailing backend name from the argument list (returns the new
 * argument count) and returns the backend to use. */
static int take_backend(int nrhs, const mxArray *prhs[], int min_args,
                        qru_backend *b)
{
    char buf[16];
    if (nrhs > min_args && mxIsChar(prhs[nrhs - 1])) {
        if (!get_string(prhs[nrhs - 1], buf, sizeof buf) ||
            !parse_backend(buf, b))
            fail("qru:usage",
                 "the backend must be 'cpu', 'cuda', 'opencl' or 'auto'");
        return nrhs - 1;
    }
    const char *env = getenv("QRU_MEX_BACKEND");
    *b = QRU_BACKEND_AUTO;
    if (env && *env) {
        size_t n = strlen(env), i;
        for (i = 0; i < n && i + 1 < sizeof buf; ++i)
            buf[i] = (char)tolower((unsigned char)env[i]);
        buf[i] = '\0';
        if (n >= sizeof buf || !parse_backend(buf, b))
            fail("qru:usage", "QRU_MEX_BACKEND='%s' is not a backend name",
                 env);
    }
    return nrhs;
}

/* 1 for the complex element types. */
static int dt_complex(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE;
}

/* 1 for the single-precision types (float, complex float). */
static int dt_single(qru_dtype dt)
{
    return dt == QRU_FLOAT || dt == QRU_COMPLEX_FLOAT;
}

/* bytes of one element of type dt */
static size_t dt_size(qru_dtype dt)
{
    return (dt_single(dt) ? sizeof(float) : sizeof(double)) *
           (dt_complex(dt) ? 2 : 1);
}

static mxClassID dt_class(qru_dtype dt)
{
    return dt_single(dt) ? mxSINGLE_CLASS : mxDOUBLE_CLASS;
}

static mxComplexity dt_complexity(qru_dtype dt)
{
    return dt_complex(dt) ? mxCOMPLEX : mxREAL;
}

/* Complex arrays need the interleaved complex API (see the top). */
static void need_interleaved(const mxArray *a, const char *name)
{
    if (!MX_HAS_INTERLEAVED_COMPLEX && mxIsComplex(a))
        fail("qru:usage", "%s is complex, but this MEX file was built "
                          "without the interleaved complex API: build it "
                          "with mex -R2018a (MATLAB R2018a or later) or "
                          "mkoctfile --mex -R2018a (Octave 7 or later)",
             name);
}

/* A full single or double matrix, real or complex. */
static void need_matrix(const mxArray *a, const char *name)
{
    if (!(mxIsDouble(a) || mxIsSingle(a)) || mxIsSparse(a) ||
        mxGetNumberOfDimensions(a) != 2)
        fail("qru:usage", "%s must be a full single or double matrix", name);
    need_interleaved(a, name);
    if (mxGetM(a) > (size_t)INT32_MAX || mxGetN(a) > (size_t)INT32_MAX)
        fail("qru:usage", "%s is too large", name);
}

/* A real full single or double matrix (the routines without complex
 * data: the GP's points, the non-negative least squares). */
static void need_real_matrix(const mxArray *a, const char *name)
{
    if (!(mxIsDouble(a) || mxIsSingle(a)) || mxIsComplex(a) || mxIsSparse(a) ||
        mxGetNumberOfDimensions(a) != 2)
        fail("qru:usage", "%s must be a real full single or double matrix",
             name);
    need_matrix(a, name);
}

static int get_int(const mxArray *a, const char *name)
{
    if (!mxIsNumeric(a) || mxIsComplex(a) || mxGetNumberOfElements(a) != 1)
        fail("qru:usage", "%s must be a real scalar", name);
    double v = mxGetScalar(a);
    if (v != floor(v) || fabs(v) > 1e9)
        fail("qru:usage", "%s must be an integer", name);
    return (int)v;
}

/* The type the arrays as[0 .. n-1] (NULL entries skipped) compute in:
 * single if any is single, complex if any is complex (MATLAB's rules). */
static qru_dtype dtype_of(const mxArray *const *as, int n)
{
    int single = 0, cplx = 0;
    for (int i = 0; i < n; ++i) {
        single |= as[i] && mxIsSingle(as[i]);
        cplx |= as[i] && mxIsComplex(as[i]);
    }
    if (cplx)
        return single ? QRU_COMPLEX_FLOAT : QRU_COMPLEX_DOUBLE;
    return single ? QRU_FLOAT : QRU_DOUBLE;
}

/* 1 if a holds elements of type dt as they are (class and complexity). */
static int has_dtype(const mxArray *a, qru_dtype dt)
{
    return (dt_single(dt) ? mxIsSingle(a) : mxIsDouble(a)) &&
           !mxIsComplex(a) == !dt_complex(dt);
}

/* The elements of a (single or double, real or complex) where they lie:
 * interleaved (re, im) pairs for a complex array.  Octave's interleaved
 * arrays give them through mxGetData (and Octave 7.3's
 * mxGetComplexSingles refuses a single complex array of the interpreter:
 * "mex_get_data: type mismatch"); MATLAB through the typed accessors. */
static void *array_data(const mxArray *a)
{
    need_interleaved(a, "an argument");
#if MX_HAS_INTERLEAVED_COMPLEX && !defined(HAVE_OCTAVE)
    if (mxIsComplex(a))
        return mxIsSingle(a) ? (void *)mxGetComplexSingles(a)
                             : (void *)mxGetComplexDoubles(a);
#endif
    return mxGetData(a);
}

/* bytes of host memory, freed with the call's temporaries */
static void *host_bytes(size_t bytes)
{
    if (n_host == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    void *v = mxMalloc(bytes > 0 ? bytes : 1);
    tmp_host[n_host++] = v;
    return v;
}

/* The elements of the numeric array a (single or double, real or complex)
 * in type dt: a's own memory when a has type dt, else a converted copy (a
 * temporary; a real a gets a zero imaginary part for a complex dt).  A
 * complex a for a real dt is refused: that happens only when dt is fixed
 * already, by a handle made from real data. */
static const void *host_data(const mxArray *a, qru_dtype dt)
{
    if (mxIsComplex(a) && !dt_complex(dt))
        fail("qru:usage", "complex data given to a real factorization "
                          "(create it from complex data to update it with "
                          "complex data)");
    if (has_dtype(a, dt))
        return array_data(a);
    size_t n = mxGetNumberOfElements(a);
    int sc = mxIsComplex(a) ? 2 : 1, tc = dt_complex(dt) ? 2 : 1;
    const void *src = array_data(a);
    void *t = host_bytes(n * dt_size(dt));
    for (size_t i = 0; i < n; ++i) {
        for (int c = 0; c < tc; ++c) {
            double v = 0;
            if (c < sc)
                v = mxIsSingle(a) ? ((const float *)src)[i * sc + c]
                                  : ((const double *)src)[i * sc + c];
            if (dt_single(dt))
                ((float *)t)[i * tc + c] = (float)v;
            else
                ((double *)t)[i * tc + c] = v;
        }
    }
    return t;
}

static qru_matrix *new_matrix(qru_context *ctx, qru_dtype dt, int rows,
                              int cols)
{
    if (n_tmp == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    qru_matrix *M = NULL;
    check(qru_matrix_create(ctx, dt, rows, cols, 0, &M), "qru_matrix_create");
    tmp_mat[n_tmp++] = M;
    return M;
}

/* A rows x cols matrix of ctx of zeros. */
static qru_matrix *zero_matrix(qru_context *ctx, qru_dtype dt, int rows,
                               int cols)
{
    qru_matrix *M = new_matrix(ctx, dt, rows, cols);
    if (rows == 0 || cols == 0)
        return M;
    size_t bytes = dt_size(dt) * (size_t)rows * cols;
    void *z = host_bytes(bytes);
    memset(z, 0, bytes);
    check(qru_matrix_upload(M, z, rows), "qru_matrix_upload");
    return M;
}

/* A device copy of the numeric array a in type dt. */
static qru_matrix *upload(qru_context *ctx, qru_dtype dt, const mxArray *a)
{
    int rows = (int)mxGetM(a), cols = (int)mxGetN(a);
    qru_matrix *M = new_matrix(ctx, dt, rows, cols);
    if (rows == 0 || cols == 0)
        return M;
    check(qru_matrix_upload(M, host_data(a, dt), rows), "qru_matrix_upload");
    return M;
}

/* Arrays of at least this many elements are made by the interpreter
 * (new_array); smaller ones by the MEX API, whose copy on return is cheap. */
#define OWNED_MIN_ELEMENTS 4096

#if defined(HAVE_OCTAVE)
/* A rows x cols x pages array of zeros of type dt made by the
 * interpreter: builtin zeros(rows, cols, pages, class), and for a complex
 * type builtin complex() of two of them; NULL if a call fails. */
static mxArray *interp_zeros(qru_dtype dt, int rows, int cols, int pages)
{
    mxArray *in[5] = {mxCreateString("zeros"), mxCreateDoubleScalar(rows),
                      mxCreateDoubleScalar(cols), mxCreateDoubleScalar(pages),
                      mxCreateString(dt_single(dt) ? "single" : "double")};
    mxArray *a = NULL;
    mxArray *err = mexCallMATLABWithTrap(1, &a, 5, in, "builtin");
    for (int i = 0; i < 5; ++i)
        mxDestroyArray(in[i]);
    if (!err && a && dt_complex(dt)) {
        mxArray *cin[3] = {mxCreateString("complex"), a, a}, *c = NULL;
        err = mexCallMATLABWithTrap(1, &c, 3, cin, "builtin");
        mxDestroyArray(cin[0]);
        mxDestroyArray(a);
        a = c;
    }
    if (!err && a && has_dtype(a, dt) && !mxIsSparse(a) &&
        mxGetM(a) == (size_t)rows &&
        mxGetNumberOfElements(a) == (size_t)rows * cols * pages &&
        (mxGetNumberOfElements(a) == 0 || array_data(a)))
        return a;
    if (err)
        mxDestroyArray(err);
    if (a)
        mxDestroyArray(a);
    return NULL;
}
#endif

/* A new rows x cols x pages array of zeros of type dt for a result.
 *
 * An Octave built without std::pmr copies an array of
 * mxCreateNumericMatrix into a new one when the MEX function returns it
 * (a second allocation, its page faults, a fill and a copy); an array
 * made by the built-in zeros() through mexCallMATLAB belongs to the
 * interpreter, and returning it copies nothing: such an Octave has the
 * interpreter make the arrays of at least OWNED_MIN_ELEMENTS elements.
 * Octave 7's interleaved complex MEX API allocates a complex array of
 * mxCreateNumericMatrix / mxCreateNumericArray with the bytes of a real
 * one (its flag is set after the allocation), so under Octave complex
 * results are always made by the interpreter.  Should that call fail, the
 * MEX API makes a real array (as with MATLAB, and with an Octave whose
 * arrays can take over the MEX API's memory); a complex one raises
 * qru:library. */
static mxArray *result_array(qru_dtype dt, int rows, int cols, int pages)
{
#if defined(HAVE_OCTAVE)
#if defined(OCTAVE_HAVE_STD_PMR_POLYMORPHIC_ALLOCATOR)
    int owned = dt_complex(dt);
#else
    int owned = dt_complex(dt) ||
                (double)rows * cols * pages >= OWNED_MIN_ELEMENTS;
#endif
    if (owned) {
        mxArray *a = interp_zeros(dt, rows, cols, pages);
        if (a)
            return a;
        if (dt_complex(dt))
            fail("qru:library", "qru_mex: Octave could not make a complex "
                                "%d x %d x %d array", rows, cols, pages);
    }
#endif
    mwSize dims[3] = {(mwSize)rows, (mwSize)cols, (mwSize)pages};
    return mxCreateNumericArray(3, dims, dt_class(dt), dt_complexity(dt));
}

/* A new rows x cols array of zeros of type dt for a result. */
static mxArray *new_array(qru_dtype dt, int rows, int cols)
{
    return result_array(dt, rows, cols, 1);
}

/* Sets the entries below the diagonal of each rows x cols page of the
 * host array a (pages of them, type dt) to zero. */
static void zero_below(qru_dtype dt, void *a, int rows, int cols, int pages)
{
    size_t es = dt_size(dt);
    for (int q = 0; q < pages; ++q) {
        char *page = (char *)a + es * (size_t)rows * cols * q;
        for (int j = 0; j < cols && j < rows; ++j)
            memset(page + ((size_t)j * rows + j + 1) * es, 0,
                   es * (size_t)(rows - j - 1));
    }
}

/* A new MATLAB array holding M; with triu, entries below the diagonal are
 * set to zero (for triangular factors). */
static mxArray *download(const qru_matrix *M, int triu)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M);
    qru_dtype dt = qru_matrix_dtype(M);
    mxArray *a = new_array(dt, rows, cols);
    if (rows == 0 || cols == 0)
        return a;
    int st = qru_matrix_download(M, array_data(a), rows);
    if (st) {
        mxDestroyArray(a);
        check(st, "qru_matrix_download");
    }
    if (triu)
        zero_below(dt, array_data(a), rows, cols, 1);
    return a;
}

/* 1 if ctx computes in host memory (the CPU backend): a MATLAB array of
 * the element type is then used where it lies, without a copy. */
static int host_context(const qru_context *ctx)
{
    return qru_context_backend(ctx) == QRU_BACKEND_CPU;
}

/* j = args[0] and p = args[1] of a block j .. j+p-1 of n rows or
 * columns: p >= 1 and 1 <= j <= n - p + 1. */
static void get_block(const mxArray *const args[], int n, int *j, int *p)
{
    *j = get_int(args[0], "j");
    *p = get_int(args[1], "p");
    if (*p < 1 || *j < 1 || *j + *p - 1 > n)
        fail("qru:usage", "need p >= 1 and 1 <= j <= %d", n - *p + 1);
}

/* ---- pages: arrays rows x cols x P, as batches of the library --------- */

/* The sizes of a, a full array of pages (at most 3 dimensions). */
static void page_dims(const mxArray *a, const char *name, int *rows,
                      int *cols, int *pages)
{
    if (!(mxIsDouble(a) || mxIsSingle(a)) || mxIsSparse(a) ||
        mxGetNumberOfDimensions(a) > 3)
        fail("qru:usage", "%s must be a full single or double array of "
                          "pages (at most 3 dimensions)", name);
    need_interleaved(a, name);
    const mwSize *d = mxGetDimensions(a);
    size_t p = mxGetNumberOfDimensions(a) > 2 ? d[2] : 1;
    if (d[0] > (size_t)INT32_MAX || d[1] > (size_t)INT32_MAX ||
        p > (size_t)INT32_MAX)
        fail("qru:usage", "%s is too large", name);
    *rows = (int)d[0];
    *cols = (int)d[1];
    *pages = (int)p;
}

/* A new rows x cols x pages array of zeros of type dt. */
static mxArray *new_pages(qru_dtype dt, int rows, int cols, int pages)
{
    return result_array(dt, rows, cols, pages);
}

/* A batch of ctx in type dt holding a copy of the pages of a (rows x cols
 * x pages; converted when a has another type). */
static qru_matrix *upload_pages(qru_context *ctx, qru_dtype dt, int rows,
                                int cols, int pages, const mxArray *a)
{
    if (n_tmp == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    qru_matrix *M = NULL;
    check(qru_matrix_create_batch(ctx, dt, rows, cols, 0, pages, 0, &M),
          "qru_matrix_create_batch");
    tmp_mat[n_tmp++] = M;
    if ((size_t)rows * cols * pages > 0)
        check(qru_matrix_upload(M, host_data(a, dt), rows),
              "qru_matrix_upload");
    return M;
}

/* The pages of a as a batch of ctx in type dt.  On a host context, when
 * a has type dt (always for a result array, *copied then 0), a's own
 * memory: the library reads an input there and writes a result there;
 * else a copy (*copied = 1: the caller downloads a result into a).
 * copied NULL: an input, which the library only reads. */
static qru_matrix *pages_of(qru_context *ctx, qru_dtype dt, int rows,
                            int cols, int pages, const mxArray *a,
                            int *copied)
{
    if (copied)
        *copied = 1;
    if (!host_context(ctx) || !has_dtype(a, dt) ||
        (size_t)rows * cols * pages == 0)
        return upload_pages(ctx, dt, rows, cols, pages, a);
    if (n_tmp == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    qru_matrix *M = NULL;
    check(qru_matrix_wrap_batch(ctx, dt, rows, cols, array_data(a), rows,
                                pages, 0, &M),
          "qru_matrix_wrap_batch");
    tmp_mat[n_tmp++] = M;
    if (copied)
        *copied = 0;
    return M;
}

/* Copies the batch M back into the array a of its pages (when pages_of
 * copied it); on failure a is destroyed and the error raised. */
static void pages_back(const qru_matrix *M, mxArray *a, int copied)
{
    int rows = qru_matrix_rows(M);
    if (!copied || mxGetNumberOfElements(a) == 0)
        return;
    int st = qru_matrix_download(M, array_data(a), rows);
    if (st) {
        mxDestroyArray(a);
        check(st, "qru_matrix_download");
    }
}

/* A new P x 1 double array of the ints v. */
static mxArray *int_column(const int *v, int n)
{
    mxArray *a = mxCreateDoubleMatrix((mwSize)n, 1, mxREAL);
    for (int i = 0; i < n; ++i)
        mxGetPr(a)[i] = v[i];
    return a;
}

/* The first index i (0-based) of the n ints v with v[i] != 0, or -1. */
static int first_nonzero(const int *v, int n)
{
    for (int i = 0; i < n; ++i)
        if (v[i])
            return i;
    return -1;
}

/* The numeric array a as a matrix of ctx in type dt that the library only
 * reads: a's own memory on a host context when a has type dt, else a copy
 * (upload). */
static qru_matrix *input(qru_context *ctx, qru_dtype dt, const mxArray *a)
{
    int rows = (int)mxGetM(a), cols = (int)mxGetN(a);
    if (!host_context(ctx) || !has_dtype(a, dt) || rows == 0 || cols == 0)
        return upload(ctx, dt, a);
    if (n_tmp == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    qru_matrix *M = NULL;
    check(qru_matrix_wrap(ctx, dt, rows, cols, array_data(a), rows, &M),
          "qru_matrix_wrap");
    tmp_mat[n_tmp++] = M;
    return M;
}

/* A rows x cols result of type dt: on a host context a new MATLAB array
 * of zeros (*out, new_array) whose memory the returned matrix wraps, so
 * that the library writes the result where MATLAB takes it; else
 * (*out = NULL) a matrix of the context, downloaded by result(). */
static qru_matrix *output(qru_context *ctx, qru_dtype dt, int rows, int cols,
                          mxArray **out)
{
    *out = NULL;
    if (!host_context(ctx) || rows == 0 || cols == 0)
        return new_matrix(ctx, dt, rows, cols);
    if (n_tmp == MAX_TMP)
        fail("qru:library", "qru_mex: too many temporaries");
    mxArray *a = new_array(dt, rows, cols);
    qru_matrix *M = NULL;
    int st = qru_matrix_wrap(ctx, dt, rows, cols, array_data(a), rows, &M);
    if (st)
        mxDestroyArray(a);
    check(st, "qru_matrix_wrap");
    tmp_mat[n_tmp++] = M;
    *out = a;
    return M;
}

/* The MATLAB array of a result made by output(): out itself (with triu,
 * its entries below the diagonal set to zero), or a download of M. */
static mxArray *result(const qru_matrix *M, mxArray *out, int triu)
{
    if (!out)
        return download(M, triu);
    if (triu)
        zero_below(qru_matrix_dtype(M), array_data(out), qru_matrix_rows(M),
                   qru_matrix_cols(M), 1);
    return out;
}

static void need_args(int nrhs, int lo, int hi, const char *usage)
{
    if (nrhs < lo || nrhs > hi)
        fail("qru:usage", "usage: %s", usage);
}

/* ---- QR factorisation and least squares ------------------------------------ */

/* [Q, R, d] = qr(A [, b]) */
static void cmd_qr(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 1, &b);
    need_args(nrhs, 1, 2, "[Q, R, d] = qru_qr(A [, b] [, backend])");
    need_matrix(prhs[0], "A");
    if (nrhs == 2)
        need_matrix(prhs[1], "b");
    if (nrhs == 2 && mxGetM(prhs[1]) != mxGetM(prhs[0]))
        fail("qru:usage", "b must have as many rows as A");
    if (nlhs > 3 || (nlhs == 3 && nrhs < 2))
        fail("qru:usage", "too many outputs");
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, nrhs);
    int n = (int)mxGetM(prhs[0]);
    qru_matrix *A = upload(ctx, dt, prhs[0]);
    qru_matrix *Q = nlhs >= 2 ? new_matrix(ctx, dt, n, n) : NULL;
    qru_matrix *B = nrhs == 2 ? upload(ctx, dt, prhs[1]) : NULL;
    check(qru_qr_factor(ctx, 0, A, Q, B), "qru_qr_factor");
    if (nlhs >= 2) {
        plhs[0] = download(Q, 0);
        plhs[1] = download(A, 1);
        if (nlhs == 3)
            plhs[2] = download(B, 0);
    } else {
        plhs[0] = download(A, 1);
    }
}

static void lsq_solution(int nlhs, mxArray *plhs[], qru_context *ctx,
                         qru_lsq *f)
{
    int m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    qru_dtype dt = qru_lsq_dtype(f);
    qru_matrix *x = new_matrix(ctx, dt, m, r);
    check(qru_lsq_solve(f, x), "qru_lsq_solve");
    plhs[0] = download(x, 0);
    if (nlhs >= 2) {
        mxArray *res = mxCreateDoubleMatrix(1, (mwSize)r, mxREAL);
        int st = qru_lsq_get_residual_norms(f, mxGetPr(res));
        if (st)
            mxDestroyArray(res);
        check(st, "qru_lsq_get_residual_norms");
        plhs[1] = res;
    }
}

/* The form named by the string a: 'full', 'thin' or 'none'. */
static int get_form(const mxArray *a)
{
    char buf[8];
    if (get_string(a, buf, sizeof buf)) {
        if (!strcmp(buf, "full"))
            return QRU_Q_FULL;
        if (!strcmp(buf, "thin"))
            return QRU_Q_THIN;
        if (!strcmp(buf, "none"))
            return QRU_Q_NONE;
    }
    fail("qru:usage", "q must be 'full', 'thin' or 'none'");
    return -1;
}

/* A factorisation of A = prhs[0], b = prhs[1] in the form prhs[2]
 * (nrhs 3) or the full form (nrhs 2). */
static qru_lsq *lsq_from_data(qru_context *ctx, int nrhs,
                              const mxArray *prhs[])
{
    need_matrix(prhs[0], "A");
    need_matrix(prhs[1], "b");
    if (mxGetM(prhs[1]) != mxGetM(prhs[0]))
        fail("qru:usage", "b must have as many rows as A");
    if (mxGetM(prhs[0]) < mxGetN(prhs[0]) || mxGetN(prhs[0]) < 1 ||
        mxGetN(prhs[1]) < 1)
        fail("qru:usage", "A must be n x m with n >= m >= 1 and b n x r, r >= 1");
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    if (nrhs == 3)
        opt.q = get_form(prhs[2]);
    qru_dtype dt = dtype_of(prhs, 2);
    qru_matrix *A = upload(ctx, dt, prhs[0]);
    qru_matrix *B = upload(ctx, dt, prhs[1]);
    qru_lsq *f = NULL;
    check(qru_lsq_create(ctx, A, B, &opt, &f), "qru_lsq_create");
    return f;
}

/* ---- least squares over pages (qru_lsq_batch) ------------------------------ */

/* 1 if A = prhs[0] or b = prhs[1] has pages (more than 2 dimensions). */
static int lsq_pages(const mxArray *prhs[])
{
    return mxGetNumberOfDimensions(prhs[0]) > 2 ||
           mxGetNumberOfDimensions(prhs[1]) > 2;
}

/* A batch of the pages of A = prhs[0] (n x m x P, P >= min_pages) and
 * b = prhs[1] (n x r x P) in the form prhs[2] (nrhs 3: 'full', 'thin' or
 * 'none') or Q-less (nrhs 2); *dt receives its element type. */
static qru_lsq_batch *lsqb_from_data(qru_context *ctx, int nrhs,
                                     const mxArray *prhs[], int min_pages,
                                     qru_dtype *dt)
{
    int n, m, pages, nb, r, pb;
    page_dims(prhs[0], "A", &n, &m, &pages);
    page_dims(prhs[1], "b", &nb, &r, &pb);
    if (nb != n || pb != pages || m < 1 || r < 1)
        fail("qru:usage", "pages: A must be n x m x P and b n x r x P with "
                          "m, r >= 1 (A is %d x %d x %d, b %d x %d x %d)",
             n, m, pages, nb, r, pb);
    if (pages < min_pages)
        fail("qru:usage", "pages: an object needs P >= 1 pages");
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = nrhs == 3 ? get_form(prhs[2]) : QRU_Q_NONE;
    if (opt.q != QRU_Q_NONE && n < m)
        fail("qru:usage", "the %s form needs n >= m (A's pages are %d x %d)",
             opt.q == QRU_Q_THIN ? "thin" : "full", n, m);
    *dt = dtype_of(prhs, 2);
    qru_matrix *A = pages_of(ctx, *dt, n, m, pages, prhs[0], NULL);
    qru_matrix *B = pages_of(ctx, *dt, n, r, pages, prhs[1], NULL);
    qru_lsq_batch *fb = NULL;
    check(qru_lsq_batch_create_ex(ctx, A, B, &opt, &fb),
          "qru_lsq_batch_create_ex");
    return fb;
}

/* The fewest and the most rows of a problem of fb (they differ only
 * after a removal that some problems refused). */
static void lsqb_rows(const qru_lsq_batch *fb, int *lo, int *hi)
{
    int count = qru_lsq_batch_count(fb);
    *lo = *hi = count > 0 ? qru_lsq_batch_rows(fb, 0) : 0;
    for (int i = 1; i < count; ++i) {
        int n = qru_lsq_batch_rows(fb, i);
        *lo = n < *lo ? n : *lo;
        *hi = n > *hi ? n : *hi;
    }
}

/* [X, res, info]: X m x r x P, res 1 x r x P, info P x 1 (0, or the first
 * column where the page fails the rank rule; its page of X is NaN).
 * Without info a failed page raises qru:numerical.  U NULL: the solve of
 * fb as it is (qru_lsq_batch_solve); else the rows U (p x m x P) and e
 * (p x r x P) are appended to every page and every grown page solved in
 * one call (qru_lsq_batch_add_rows_solve: every page gains the rows, also
 * one that then fails the rank rule), res the residual norms after. */
static void lsqb_solution(int nlhs, mxArray *plhs[], qru_context *ctx,
                          qru_lsq_batch *fb, qru_dtype dt,
                          const qru_matrix *U, const qru_matrix *e)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb);
    int pages = qru_lsq_batch_count(fb), copied;
    const char *fn = U ? "qru_lsq_batch_add_rows_solve"
                       : "qru_lsq_batch_solve";
    if (nlhs > 3)
        fail("qru:usage", "too many outputs");
    int *info = host_bytes(sizeof(int) * (size_t)pages);
    mxArray *X = new_pages(dt, m, r, pages);
    qru_matrix *Xm = pages_of(ctx, dt, m, r, pages, X, &copied);
    int st = U ? qru_lsq_batch_add_rows_solve(fb, U, e, Xm, info)
               : qru_lsq_batch_solve(fb, Xm, info);
    if (st < 0 || st > pages || (st > 0 && nlhs < 3)) {
        mxDestroyArray(X);
        int q = first_nonzero(info, pages);
        if (st > 0)
            fail("qru:numerical", "%s: %d of %d pages are rank-deficient "
                                  "(the first: page %d, at column %d)%s",
                 fn, st, pages, q + 1, info[q],
                 U ? "; every page gained the rows" : "");
        check(st, fn);
    }
    pages_back(Xm, X, copied);
    /* the real numbers of a page (two an element if complex) */
    size_t page = (size_t)m * r * (dt_complex(dt) ? 2 : 1);
    void *xd = array_data(X);
    for (int q = 0; q < pages; ++q)
        for (size_t i = 0; info[q] && i < page; ++i) {
            if (dt_single(dt))
                ((float *)xd)[q * page + i] = (float)NAN;
            else
                ((double *)xd)[q * page + i] = NAN;
        }
    plhs[0] = X;
    if (nlhs >= 2) {
        mwSize dims[3] = {1, (mwSize)r, (mwSize)pages};
        mxArray *res = mxCreateNumericArray(3, dims, mxDOUBLE_CLASS, mxREAL);
        int rs = qru_lsq_batch_residual_norms(fb, mxGetPr(res));
        if (rs)
            mxDestroyArray(res);
        check(rs, "qru_lsq_batch_residual_norms");
        plhs[1] = res;
    }
    if (nlhs >= 3)
        plhs[2] = int_column(info, pages);
}

/* The P x 1 info of a batched update whose status st counts the pages
 * that refused it (info[q] > 0): plhs[0] with nlhs 1, else for st > 0
 * qru:numerical naming the first page, what they kept and what the
 * others did (done).  A negative status raises its error. */
static void lsqb_verdicts(int nlhs, mxArray *plhs[], int st, const int *info,
                          int pages, const char *fn, const char *done)
{
    if (st < 0 || st > pages)
        check(st, fn);
    if (nlhs >= 1) {
        plhs[0] = int_column(info, pages);
    } else if (st > 0) {
        int q = first_nonzero(info, pages);
        fail("qru:numerical", "%s: %d of %d pages refused the update (A "
                              "would lose rank; the first: page %d, at %d); "
                              "%s", fn, st, pages, q + 1, info[q], done);
    }
}

/* The rows of an 'addrows' or 'addrowssolve' of the pages fb: args j,
 * U [, e] (U p x m x P, e p x r x P, zeros if omitted), checked: the
 * rows go after each page's last row, j = n + 1, or anywhere in the
 * Q-less form, which keeps no order.  *U and *e receive them as batches
 * of ctx in type dt. */
static void lsqb_new_rows(qru_context *ctx, const qru_lsq_batch *fb,
                          qru_dtype dt, const char *usage, int nargs,
                          const mxArray *args[], qru_matrix **U,
                          qru_matrix **e)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb);
    int pages = qru_lsq_batch_count(fb), hasq = qru_lsq_batch_q_form(fb) !=
                                                QRU_Q_NONE;
    int lo, hi;
    lsqb_rows(fb, &lo, &hi);
    need_args(nargs, 2, 3, usage);
    int j = get_int(args[0], "j"), p, mu, pu;
    if (hasq && j != hi + 1)
        fail("qru:usage", "j = %d, but the forms with Q over pages append "
                          "the rows: j = n + 1 = %d", j, hi + 1);
    if (j < 1 || j > hi + 1)
        fail("qru:usage", "j must satisfy 1 <= j <= %d", hi + 1);
    page_dims(args[1], "U", &p, &mu, &pu);
    if (mu != m || pu != pages || p < 1)
        fail("qru:usage", "U must be p x %d x %d (p x m x P) with p >= 1", m,
             pages);
    *U = pages_of(ctx, dt, p, m, pages, args[1], NULL);
    if (nargs == 3) {
        int pe, re, qe;
        page_dims(args[2], "e", &pe, &re, &qe);
        if (pe != p || re != r || qe != pages)
            fail("qru:usage", "e must be %d x %d x %d (p x r x P)", p, r,
                 pages);
        *e = pages_of(ctx, dt, p, r, pages, args[2], NULL);
    } else {
        /* no right-hand side rows given: b is extended by zeros */
        mxArray *z = new_pages(dt, p, r, pages);
        *e = upload_pages(ctx, dt, p, r, pages, z);
        mxDestroyArray(z);
    }
}

/* One update of the pages fb: 'addrows', j, U [, e] (U p x m x P, e
 * p x r x P, zeros if omitted; the rows go after each page's last row,
 * j = n + 1, or anywhere in the Q-less form, which keeps no order),
 * 'addrowssolve', j, U [, e] (the same rows, and every grown page solved
 * in the same library call) -> X, res, info as lsqb_solution gives them,
 * 'removerows', j, p (forms with Q) -> info P x 1: 0, or > 0 where the
 * page refused the removal (rank; its rows kept), 'removecols', j, p,
 * 'addcols', j, U [, A, b] (forms with Q; U n x p x P, A and b only
 * checked: the library's batches project U on Q1) -> info P x 1: any
 * page's refusal leaves every page as it was, and 'modify', U, V (forms
 * with Q; U n x k x P, V m x k x P) -> info P x 1: a page that refuses
 * keeps its factorisation.  Without info a refusal raises qru:numerical
 * (after the other pages were updated, where they are). */
static void lsqb_update(int nlhs, mxArray *plhs[], qru_context *ctx,
                        qru_lsq_batch *fb, qru_dtype dt, const char *what,
                        int nargs, const mxArray *args[])
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb);
    int pages = qru_lsq_batch_count(fb), hasq = qru_lsq_batch_q_form(fb) !=
                                                QRU_Q_NONE;
    int lo, hi;
    lsqb_rows(fb, &lo, &hi);
    if (!strcmp(what, "addrows")) {
        if (nlhs > 0)
            fail("qru:usage", "too many outputs");
        qru_matrix *U, *e;
        lsqb_new_rows(ctx, fb, dt, "update 'addrows', j, U [, e]", nargs,
                      args, &U, &e);
        check(qru_lsq_batch_add_rows(fb, U, e), "qru_lsq_batch_add_rows");
    } else if (!strcmp(what, "addrowssolve")) {
        if (nlhs > 3)
            fail("qru:usage", "too many outputs");
        qru_matrix *U, *e;
        lsqb_new_rows(ctx, fb, dt, "update 'addrowssolve', j, U [, e]", nargs,
                      args, &U, &e);
        lsqb_solution(nlhs, plhs, ctx, fb, dt, U, e);
    } else if (!strcmp(what, "removerows")) {
        need_args(nargs, 2, 2, "update 'removerows', j, p");
        if (nlhs > 1)
            fail("qru:usage", "too many outputs");
        int j, p;
        get_block(args, lo, &j, &p);
        if (!hasq)
            fail("qru:usage", "the Q-less form over pages cannot remove rows "
                              "(no Q): create it with 'q', 'thin'");
        int *info = host_bytes(sizeof(int) * (size_t)pages);
        int st = qru_lsq_batch_remove_rows(fb, j - 1, p, info);
        char done[96];
        snprintf(done, sizeof done, "they keep their rows, the others lost "
                                    "rows %d..%d", j, j + p - 1);
        lsqb_verdicts(nlhs, plhs, st, info, pages,
                      "qru_lsq_batch_remove_rows", done);
    } else if (!strcmp(what, "removecols")) {
        need_args(nargs, 2, 2, "update 'removecols', j, p");
        if (nlhs > 0)
            fail("qru:usage", "too many outputs");
        int j, p;
        get_block(args, m, &j, &p);
        if (p >= m)
            fail("qru:usage", "p = %d, but A must keep a column (m = %d)", p,
                 m);
        check(qru_lsq_batch_remove_cols(fb, j - 1, p),
              "qru_lsq_batch_remove_cols");
    } else if (!strcmp(what, "addcols")) {
        const char *usage = "update 'addcols', j, U [, A, b]";
        need_args(nargs, 2, 4, usage);
        if (nargs == 3)
            fail("qru:usage", "usage: %s", usage);
        if (nlhs > 1)
            fail("qru:usage", "too many outputs");
        int j = get_int(args[0], "j"), nu, p, pu;
        if (j < 1 || j > m + 1)
            fail("qru:usage", "j must satisfy 1 <= j <= %d", m + 1);
        page_dims(args[1], "U", &nu, &p, &pu);
        if (nu != hi || pu != pages || p < 1)
            fail("qru:usage", "U must be %d x p x %d (n x p x P) with p >= 1",
                 hi, pages);
        if (m + p > lo)
            fail("qru:usage", "p = %d columns make A wide: m + p <= %d", p,
                 lo);
        if (nargs == 4) {
            int na, ma, pa, nb, rb, pb;
            page_dims(args[2], "A", &na, &ma, &pa);
            page_dims(args[3], "b", &nb, &rb, &pb);
            if (na != hi || ma != m || pa != pages || nb != hi || rb != r ||
                pb != pages)
                fail("qru:usage", "A and b must be the current %d x %d x %d "
                                  "and %d x %d x %d", hi, m, pages, hi, r,
                     pages);
        }
        if (!hasq && nargs != 4)
            fail("qru:usage", "the Q-less form over pages adds columns from "
                              "the current A and b: usage: %s", usage);
        qru_matrix *U = pages_of(ctx, dt, hi, p, pages, args[1], NULL);
        int *info = host_bytes(sizeof(int) * (size_t)pages);
        int st;
        if (nargs == 4) {
            qru_matrix *A = pages_of(ctx, dt, hi, m, pages, args[2], NULL);
            qru_matrix *b = pages_of(ctx, dt, hi, r, pages, args[3], NULL);
            st = qru_lsq_batch_add_cols_data(fb, j - 1, U, A, b, info);
        } else {
            st = qru_lsq_batch_add_cols(fb, j - 1, U, info);
        }
        lsqb_verdicts(nlhs, plhs, st, info, pages,
                      nargs == 4 ? "qru_lsq_batch_add_cols_data"
                                 : "qru_lsq_batch_add_cols",
                      "no page gained the columns");
    } else if (!strcmp(what, "modify")) {
        need_args(nargs, 2, 2, "update 'modify', U, V");
        if (nlhs > 1)
            fail("qru:usage", "too many outputs");
        int nu, k, pu, mv, kv, pv;
        page_dims(args[0], "U", &nu, &k, &pu);
        page_dims(args[1], "V", &mv, &kv, &pv);
        if (nu != hi || pu != pages || k < 1)
            fail("qru:usage", "U must be %d x k x %d (n x k x P) with k >= 1",
                 hi, pages);
        if (mv != m || kv != k || pv != pages)
            fail("qru:usage", "V must be %d x %d x %d (m x k x P)", m, k,
                 pages);
        if (k > lo - m)
            fail("qru:usage", "k = %d, but the update needs k <= n - m = %d",
                 k, lo - m);
        if (!hasq)
            fail("qru:usage", "the Q-less form over pages cannot be modified "
                              "(no Q): create it with 'q', 'thin'");
        qru_matrix *U = pages_of(ctx, dt, hi, k, pages, args[0], NULL);
        qru_matrix *V = pages_of(ctx, dt, m, k, pages, args[1], NULL);
        int *info = host_bytes(sizeof(int) * (size_t)pages);
        int st = qru_lsq_batch_modify(fb, U, V, info);
        lsqb_verdicts(nlhs, plhs, st, info, pages, "qru_lsq_batch_modify",
                      "they keep their factorizations, the others were "
                      "modified");
    } else {
        fail("qru:usage", "unknown update '%s' of pages (addrows, "
                          "addrowssolve, removerows, addcols, removecols, "
                          "modify)", what);
    }
}

/* [Q, R, d] of the pages fb: Q n x m x P (thin), n x n x P (full) or []
 * (Q-less), R m x m x P (full: n x m x P, zeros below row m), d m x r x P
 * (full: n x r x P, Q'*b); n the most rows of a page, a page's rows (and
 * in the full form Q's columns) past its own count zero. */
static void lsqb_outputs(int nlhs, mxArray *plhs[], qru_context *ctx,
                         const qru_lsq_batch *fb, qru_dtype dt)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb);
    int pages = qru_lsq_batch_count(fb), lo, hi, copied;
    int form = qru_lsq_batch_q_form(fb), full = form == QRU_Q_FULL;
    if (nlhs > 3)
        fail("qru:usage", "too many outputs");
    lsqb_rows(fb, &lo, &hi);
    static int (*const get[])(const qru_lsq_batch *, qru_matrix *) = {
        qru_lsq_batch_get_q, qru_lsq_batch_get_r, qru_lsq_batch_get_d};
    static const char *const name[] = {"qru_lsq_batch_get_q",
                                       "qru_lsq_batch_get_r",
                                       "qru_lsq_batch_get_d"};
    int rows[3] = {hi, m, full ? hi : m}, cols[3] = {full ? hi : m, m, r};
    for (int w = 0; w < (nlhs > 1 ? nlhs : 1); ++w) {
        if (w == 0 && form == QRU_Q_NONE) {
            plhs[0] = new_array(dt, 0, 0);
            continue;
        }
        mxArray *a = new_pages(dt, rows[w], cols[w], pages);
        qru_matrix *M = pages_of(ctx, dt, rows[w], cols[w], pages, a, &copied);
        int st = pages > 0 ? get[w](fb, M) : 0;
        if (st)
            mxDestroyArray(a);
        check(st, name[w]);
        pages_back(M, a, copied);
        if (w == 1 && full && hi > m) {
            /* the full form's R is n x m, as qr(A): R's pages padded with
             * zero rows */
            mxArray *R = new_pages(dt, hi, m, pages);
            size_t es = dt_size(dt);
            const char *src = array_data(a);
            char *dst = array_data(R);
            for (size_t c = 0; c < (size_t)m * pages; ++c)
                memcpy(dst + c * hi * es, src + c * m * es, m * es);
            mxDestroyArray(a);
            a = R;
        }
        plhs[w] = a;
    }
}

/* E = b - A X of the pages fb with Q: n x r x P (as Q in lsqb_outputs). */
static mxArray *lsqb_residuals(qru_context *ctx, const qru_lsq_batch *fb,
                               qru_dtype dt)
{
    int r = qru_lsq_batch_nrhs(fb), pages = qru_lsq_batch_count(fb);
    int lo, hi, copied;
    lsqb_rows(fb, &lo, &hi);
    mxArray *a = new_pages(dt, hi, r, pages);
    qru_matrix *E = pages_of(ctx, dt, hi, r, pages, a, &copied);
    int st = pages > 0 ? qru_lsq_batch_get_residuals(fb, E) : 0;
    if (st)
        mxDestroyArray(a);
    check(st, "qru_lsq_batch_get_residuals");
    pages_back(E, a, copied);
    return a;
}

/* [x, res] = A \ b */
static void cmd_lsq_solve(int nlhs, mxArray *plhs[], int nrhs,
                          const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 3, &b);
    need_args(nrhs, 2, 3, "[x, res] = qru_lsq_solve(A, b [, q] [, backend])");
    qru_context *ctx = get_context(b);
    if (lsq_pages(prhs)) {
        qru_dtype dt;
        tmp_lsqb = lsqb_from_data(ctx, nrhs, prhs, 0, &dt);
        lsqb_solution(nlhs, plhs, ctx, tmp_lsqb, dt, NULL, NULL);
        return;
    }
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    tmp_lsq = lsq_from_data(ctx, nrhs, prhs);
    lsq_solution(nlhs, plhs, ctx, tmp_lsq);
}

/* ---- handles ------------------------------------------------------------------ */

enum { H_LSQ, H_GP, H_ANY };

/* The slot of the live handle a: of a least-squares object (H_LSQ: one
 * problem, f, or pages, fb), a GP (H_GP) or either (H_ANY). */
static int find_handle(const mxArray *a, int kind)
{
    static const char *const what[] = {"qru_lsq", "qru_gp", "qru_lsq or qru_gp"};
    if (!mxIsUint64(a) || mxGetNumberOfElements(a) != 1)
        fail("qru:usage", "the first argument must be a %s handle", what[kind]);
    uint64_t id = *(const uint64_t *)mxGetData(a);
    for (int i = 0; i < MAX_HANDLES; ++i)
        if (handles[i].id == id && id != 0 &&
            (kind == H_ANY || (kind == H_LSQ) == (handles[i].g == NULL)))
            return i;
    fail("qru:usage", "invalid or freed %s handle", what[kind]);
    return -1;
}

/* A free slot, found before the object is made (nothing to undo). */
static int free_slot(void)
{
    for (int i = 0; i < MAX_HANDLES; ++i)
        if (handles[i].id == 0)
            return i;
    fail("qru:library", "too many qru_lsq and qru_gp objects (delete some)");
    return -1;
}

/* Keeps f, fb or g in the slot and returns its new handle. */
static mxArray *store_handle(int slot, qru_context *ctx, qru_dtype dt,
                             qru_lsq *f, qru_lsq_batch *fb, qru_gp *g)
{
    handles[slot].f = f;
    handles[slot].fb = fb;
    handles[slot].g = g;
    handles[slot].ctx = ctx;
    handles[slot].dt = dt;
    handles[slot].id = next_handle++;
    mxArray *h = mxCreateNumericMatrix(1, 1, mxUINT64_CLASS, mxREAL);
    *(uint64_t *)mxGetData(h) = handles[slot].id;
    return h;
}

static void cmd_lsq_new(int nlhs, mxArray *plhs[], int nrhs,
                        const mxArray *prhs[])
{
    (void)nlhs;
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 3, &b);
    need_args(nrhs, 2, 3, "h = qru_mex('lsq_new', A, b [, q] [, backend])");
    int slot = free_slot();
    qru_context *ctx = get_context(b);
    if (lsq_pages(prhs)) {
        qru_dtype dt;
        qru_lsq_batch *fb = lsqb_from_data(ctx, nrhs, prhs, 1, &dt);
        release_tmp();
        plhs[0] = store_handle(slot, ctx, dt, NULL, fb, NULL);
        return;
    }
    qru_lsq *f = lsq_from_data(ctx, nrhs, prhs);
    release_tmp();
    plhs[0] = store_handle(slot, ctx, qru_lsq_dtype(f), f, NULL, NULL);
}

static void cmd_free(int nlhs, mxArray *plhs[], int nrhs,
                     const mxArray *prhs[])
{
    (void)nlhs;
    (void)plhs;
    need_args(nrhs, 1, 1, "qru_mex('free', h)");
    free_handle(find_handle(prhs[0], H_ANY));
}

/* Runs one update on f (shared by the handle interface and qrinsert /
 * qrdelete).  args: the arguments after 'what'; 'addcols' with A and b
 * and 'removerows' with U and e run the data variants, which the Q-less
 * form needs. */
static void lsq_update(qru_context *ctx, qru_lsq *f, const char *what,
                       int nargs, const mxArray *args[])
{
    int n = qru_lsq_rows(f), m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    qru_dtype dt = qru_lsq_dtype(f);
    if (!strcmp(what, "addcols")) {
        const char *usage = "update 'addcols', j, U [, A, b]";
        need_args(nargs, 2, 4, usage);
        if (nargs == 3)
            fail("qru:usage", "usage: %s", usage);
        int j = get_int(args[0], "j");
        need_matrix(args[1], "U");
        if (j < 1 || j > m + 1)
            fail("qru:usage", "j must satisfy 1 <= j <= %d", m + 1);
        if ((int)mxGetM(args[1]) != n || mxGetN(args[1]) < 1)
            fail("qru:usage", "U must have %d rows and at least one column", n);
        qru_matrix *U = upload(ctx, dt, args[1]);
        if (nargs == 4) {
            need_matrix(args[2], "A");
            need_matrix(args[3], "b");
            qru_matrix *A = upload(ctx, dt, args[2]);
            qru_matrix *B = upload(ctx, dt, args[3]);
            check(qru_lsq_add_cols_data(f, j - 1, U, A, B),
                  "qru_lsq_add_cols_data");
        } else {
            check(qru_lsq_add_cols(f, j - 1, U), "qru_lsq_add_cols");
        }
    } else if (!strcmp(what, "removecols")) {
        need_args(nargs, 2, 2, "update 'removecols', j, p");
        int j, p;
        get_block(args, m, &j, &p);
        check(qru_lsq_remove_cols(f, j - 1, p),
              "qru_lsq_remove_cols");
    } else if (!strcmp(what, "addrows")) {
        need_args(nargs, 2, 3, "update 'addrows', j, U [, e]");
        int j = get_int(args[0], "j");
        need_matrix(args[1], "U");
        if (j < 1 || j > n + 1)
            fail("qru:usage", "j must satisfy 1 <= j <= %d", n + 1);
        int p = (int)mxGetM(args[1]);
        if ((int)mxGetN(args[1]) != m || p < 1)
            fail("qru:usage", "U must have %d columns and at least one row", m);
        qru_matrix *U = upload(ctx, dt, args[1]);
        qru_matrix *e;
        if (nargs == 3) {
            need_matrix(args[2], "e");
            if ((int)mxGetM(args[2]) != p || (int)mxGetN(args[2]) != r)
                fail("qru:usage", "e must be %d x %d", p, r);
            e = upload(ctx, dt, args[2]);
        } else {
            /* no right-hand side rows given: b is extended by zeros */
            e = zero_matrix(ctx, dt, p, r);
        }
        check(qru_lsq_add_rows(f, j - 1, U, e),
              "qru_lsq_add_rows");
    } else if (!strcmp(what, "removerows")) {
        const char *usage = "update 'removerows', j, p [, U, e]";
        need_args(nargs, 2, 4, usage);
        if (nargs == 3)
            fail("qru:usage", "usage: %s", usage);
        int j, p;
        get_block(args, n, &j, &p);
        if (nargs == 4) {
            need_matrix(args[2], "U");
            need_matrix(args[3], "e");
            if ((int)mxGetM(args[2]) != p || (int)mxGetM(args[3]) != p)
                fail("qru:usage", "U and e must have p = %d rows, the rows "
                                  "removed", p);
            qru_matrix *U = upload(ctx, dt, args[2]);
            qru_matrix *e = upload(ctx, dt, args[3]);
            check(qru_lsq_remove_rows_data(f, j - 1, U, e),
                  "qru_lsq_remove_rows_data");
        } else {
            check(qru_lsq_remove_rows(f, j - 1, p), "qru_lsq_remove_rows");
        }
    } else if (!strcmp(what, "modify")) {
        need_args(nargs, 2, 2, "update 'modify', U, V");
        need_matrix(args[0], "U");
        need_matrix(args[1], "V");
        int k = (int)mxGetN(args[0]);
        if ((int)mxGetM(args[0]) != n || k < 1)
            fail("qru:usage", "U must have %d rows and at least one column", n);
        if ((int)mxGetM(args[1]) != m || (int)mxGetN(args[1]) != k)
            fail("qru:usage", "V must be %d x %d (m x k)", m, k);
        qru_matrix *U = upload(ctx, dt, args[0]);
        qru_matrix *V = upload(ctx, dt, args[1]);
        check(qru_lsq_modify(f, U, V), "qru_lsq_modify");
    } else if (!strcmp(what, "shiftcols")) {
        need_args(nargs, 2, 2, "update 'shiftcols', i, j");
        int i = get_int(args[0], "i"), j = get_int(args[1], "j");
        if (i < 1 || i > m || j < 1 || j > m)
            fail("qru:usage", "need 1 <= i, j <= %d", m);
        check(qru_lsq_shift_cols(f, i - 1, j - 1), "qru_lsq_shift_cols");
    } else {
        fail("qru:usage", "unknown update '%s' (addcols, removecols, addrows, "
                          "removerows, modify, shiftcols)", what);
    }
}

static void cmd_lsq_update(int nlhs, mxArray *plhs[], int nrhs,
                           const mxArray *prhs[])
{
    if (nrhs < 2)
        fail("qru:usage", "usage: qru_lsq_update(h, what, j, ...)");
    int i = find_handle(prhs[0], H_LSQ);
    char what[32];
    if (!get_string(prhs[1], what, sizeof what))
        fail("qru:usage", "the update must be a string");
    if (handles[i].fb) {
        lsqb_update(nlhs, plhs, handles[i].ctx, handles[i].fb, handles[i].dt,
                    what, nrhs - 2, prhs + 2);
        return;
    }
    if (!strcmp(what, "addrowssolve"))
        fail("qru:usage", "'addrowssolve' is an update of pages (one "
                          "problem: 'addrows', then lsq_solve_h)");
    if (nlhs > 0)
        fail("qru:usage", "too many outputs");
    lsq_update(handles[i].ctx, handles[i].f, what, nrhs - 2, prhs + 2);
}

static void lsq_outputs(int nlhs, mxArray *plhs[], qru_context *ctx,
                        qru_lsq *f)
{
    int n = qru_lsq_rows(f), m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    qru_dtype dt = qru_lsq_dtype(f);
    if (nlhs > 3)
        fail("qru:usage", "too many outputs");
    if (nlhs < 1)
        nlhs = 1;
    /* the thin form gives the economy factors (Q1 n x m, R and d m rows),
     * the Q-less form Q = [] and the economy R and d */
    int form = qru_lsq_q_form(f), econ = form != QRU_Q_FULL;
    int rr = econ ? m : n;
    qru_matrix *R = new_matrix(ctx, dt, rr, m);
    check(qru_lsq_get_r(f, R), "qru_lsq_get_r");
    if (form == QRU_Q_NONE) {
        plhs[0] = new_array(dt, 0, 0);
    } else {
        qru_matrix *Q = new_matrix(ctx, dt, n, econ ? m : n);
        check(qru_lsq_get_q(f, Q), "qru_lsq_get_q");
        plhs[0] = download(Q, 0);
    }
    if (nlhs >= 2)
        plhs[1] = download(R, 1);
    if (nlhs >= 3) {
        qru_matrix *d = new_matrix(ctx, dt, rr, r);
        check(qru_lsq_get_d(f, d), "qru_lsq_get_d");
        plhs[2] = download(d, 0);
    }
}

static void cmd_lsq_get(int nlhs, mxArray *plhs[], int nrhs,
                        const mxArray *prhs[])
{
    need_args(nrhs, 1, 1, "[Q, R, d] = qru_lsq_get(h)");
    int i = find_handle(prhs[0], H_LSQ);
    if (handles[i].fb)
        lsqb_outputs(nlhs, plhs, handles[i].ctx, handles[i].fb, handles[i].dt);
    else
        lsq_outputs(nlhs, plhs, handles[i].ctx, handles[i].f);
}

/* E = b - A x ('residuals', n x r), the downdate condition ('downdate')
 * or the Q-less error estimate ('estimate') */
static void cmd_lsq_query(int nlhs, mxArray *plhs[], int nrhs,
                          const mxArray *prhs[])
{
    const char *usage = "qru_mex('lsq_query', h, 'residuals'|'downdate'|'estimate')";
    char what[16];
    need_args(nrhs, 2, 2, usage);
    if (nlhs > 1)
        fail("qru:usage", "too many outputs");
    int i = find_handle(prhs[0], H_LSQ);
    qru_lsq *f = handles[i].f;
    double v = 0;
    if (!get_string(prhs[1], what, sizeof what))
        fail("qru:usage", "usage: %s", usage);
    if (handles[i].fb) {
        if (strcmp(what, "residuals"))
            fail("qru:usage", "pages: the query is 'residuals'");
        if (qru_lsq_batch_q_form(handles[i].fb) == QRU_Q_NONE)
            fail("qru:usage", "the Q-less form over pages keeps the residual "
                              "norms only");
        plhs[0] = lsqb_residuals(handles[i].ctx, handles[i].fb, handles[i].dt);
        return;
    }
    if (!strcmp(what, "residuals")) {
        qru_matrix *E = new_matrix(handles[i].ctx, qru_lsq_dtype(f),
                                   qru_lsq_rows(f), qru_lsq_nrhs(f));
        check(qru_lsq_get_residuals(f, E), "qru_lsq_get_residuals");
        plhs[0] = download(E, 0);
        return;
    }
    if (!strcmp(what, "downdate"))
        check(qru_lsq_get_downdate_condition(f, &v),
              "qru_lsq_get_downdate_condition");
    else if (!strcmp(what, "estimate"))
        check(qru_lsq_get_error_estimate(f, &v), "qru_lsq_get_error_estimate");
    else
        fail("qru:usage", "usage: %s", usage);
    plhs[0] = mxCreateDoubleScalar(v);
}

/* [n, m] of a factorisation, without copying it from the device */
static void cmd_lsq_size(int nlhs, mxArray *plhs[], int nrhs,
                         const mxArray *prhs[])
{
    need_args(nrhs, 1, 1, "[n, m, P, rows] = size(F)");
    if (nlhs > 4)
        fail("qru:usage", "too many outputs");
    int i = find_handle(prhs[0], H_LSQ);
    const qru_lsq_batch *fb = handles[i].fb;
    int pages = fb ? qru_lsq_batch_count(fb) : 1, lo, hi;
    if (fb)
        lsqb_rows(fb, &lo, &hi);
    else
        lo = hi = qru_lsq_rows(handles[i].f);
    plhs[0] = mxCreateDoubleScalar(hi);
    if (nlhs >= 2)
        plhs[1] = mxCreateDoubleScalar(fb ? qru_lsq_batch_cols(fb)
                                          : qru_lsq_cols(handles[i].f));
    if (nlhs >= 3)
        plhs[2] = mxCreateDoubleScalar(pages);
    if (nlhs >= 4) {
        plhs[3] = mxCreateDoubleMatrix((mwSize)pages, 1, mxREAL);
        for (int q = 0; q < pages; ++q)
            mxGetPr(plhs[3])[q] = fb ? qru_lsq_batch_rows(fb, q) : hi;
    }
}

static void cmd_lsq_solve_h(int nlhs, mxArray *plhs[], int nrhs,
                            const mxArray *prhs[])
{
    need_args(nrhs, 1, 1, "[x, res] = qru_lsq_solve(h)");
    int i = find_handle(prhs[0], H_LSQ);
    if (handles[i].fb) {
        lsqb_solution(nlhs, plhs, handles[i].ctx, handles[i].fb,
                      handles[i].dt, NULL, NULL);
        return;
    }
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    lsq_solution(nlhs, plhs, handles[i].ctx, handles[i].f);
}

/* ---- MATLAB-style qrinsert / qrdelete ------------------------------------------- */

/* A factorisation holding the caller's Q and R (and d = 0): the full
 * form for Q n x n, the thin form for the economy Q n x m (R m x m);
 * with QRU_RANK_ACCEPT. */
static qru_lsq *lsq_from_qr(qru_context *ctx, const mxArray *Qa,
                            const mxArray *Ra, qru_dtype dt)
{
    int n = (int)mxGetM(Ra);
    qru_matrix *Q = upload(ctx, dt, Qa);
    qru_matrix *R = upload(ctx, dt, Ra);
    qru_matrix *d = zero_matrix(ctx, dt, n, 1);
    /* the updated matrix of qrinsert / qrupdate may be rank-deficient:
     * its QR is still returned */
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.rank = QRU_RANK_ACCEPT;
    qru_lsq *f = NULL;
    check(qru_lsq_create_from_qr(ctx, Q, R, d, &opt, &f),
          "qru_lsq_create_from_qr");
    return f;
}

/* The context and the factorisation of the caller's Q, R (prhs[0], [1]:
 * full, or economy with n > m) in the element type of them and of the
 * matrices mats[0 .. nm-1]. */
static qru_context *qr_args_lsq(const mxArray *prhs[], const mxArray *mats[],
                                int nm, qru_backend b)
{
    need_matrix(prhs[0], "Q");
    need_matrix(prhs[1], "R");
    int n = (int)mxGetM(prhs[0]), m = (int)mxGetN(prhs[1]);
    int kq = (int)mxGetN(prhs[0]), kr = (int)mxGetM(prhs[1]);
    if (!(kq == n && kr == n) && !(kq == m && kr == m && n > m))
        fail("qru:usage", "Q is %d x %d and R %d x %d, but they must be a "
                          "full factorisation ([Q, R] = qr(A): Q n x n, R "
                          "n x m) or an economy one ([Q, R] = qr(A, 0), "
                          "n > m: Q n x m, R m x m)", n, kq, kr, m);
    if (n < m || m < 1)
        fail("qru:usage", "A must be n x m with n >= m >= 1");
    qru_dtype dt = dtype_of(mats, nm);
    qru_context *ctx = get_context(b);
    tmp_lsq = lsq_from_qr(ctx, prhs[0], prhs[1], dt);
    return ctx;
}

/* [Q1, R1] = qrinsert(Q, R, j, U, orient) / qrdelete(Q, R, j, p, orient) */
static void cmd_qrupdate(int insert, int nlhs, mxArray *plhs[], int nrhs,
                         const mxArray *prhs[])
{
    const char *usage = insert
        ? "[Q1, R1] = qru_qrinsert(Q, R, j, U, 'col'|'row' [, backend])"
        : "[Q1, R1] = qru_qrdelete(Q, R, j, p, 'col'|'row' [, backend])";
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 5, &b);
    need_args(nrhs, 5, 5, usage);
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    char orient[8];
    if (!get_string(prhs[4], orient, sizeof orient) ||
        (strcmp(orient, "col") && strcmp(orient, "row")))
        fail("qru:usage", "orient must be 'col' or 'row'");
    const mxArray *mats[3] = {prhs[0], prhs[1], insert ? prhs[3] : NULL};
    qru_context *ctx = qr_args_lsq(prhs, mats, 3, b);
    const char *what = insert ? (orient[0] == 'c' ? "addcols" : "addrows")
                              : (orient[0] == 'c' ? "removecols"
                                                  : "removerows");
    lsq_update(ctx, tmp_lsq, what, 2, prhs + 2);
    lsq_outputs(nlhs < 2 ? 2 : nlhs, plhs, ctx, tmp_lsq);
}

/* [Q1, R1] = qrupdate(Q, R, U, V): Q1 R1 = Q R + U V' (shift 0), or
 * [Q1, R1] = qrshift(Q, R, i, j) (shift 1) */
static void cmd_qrmodify(int shift, int nlhs, mxArray *plhs[], int nrhs,
                         const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 4, &b);
    need_args(nrhs, 4, 4,
              shift ? "[Q1, R1] = qru_qrshift(Q, R, i, j [, backend])"
                    : "[Q1, R1] = qru_qrupdate(Q, R, U, V [, backend])");
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    qru_context *ctx = qr_args_lsq(prhs, prhs, shift ? 2 : 4, b);
    lsq_update(ctx, tmp_lsq, shift ? "shiftcols" : "modify", 2, prhs + 2);
    lsq_outputs(nlhs < 2 ? 2 : nlhs, plhs, ctx, tmp_lsq);
}

/* ---- Cholesky --------------------------------------------------------------------- */

static void need_square(const mxArray *a, const char *name)
{
    need_matrix(a, name);
    if (mxGetM(a) != mxGetN(a))
        fail("qru:usage", "%s must be square", name);
}

/* Sets the optional info output, or raises the error of status st > 0. */
static void chol_info(int st, int nlhs, mxArray *plhs[], const char *fn,
                      const qru_matrix *Rin)
{
    if (st > 0 && nlhs >= 2) {
        plhs[0] = download(Rin, 1); /* the input factor, as MATLAB does */
        plhs[1] = mxCreateDoubleScalar((double)st);
        return;
    }
    check(st, fn);
    if (nlhs >= 2)
        plhs[1] = mxCreateDoubleScalar(0.0);
}

/* [R1, info] = cholupdate(R, X, op) on pages: R n x n x P, X n x k x P. */
static void cholupdate_pages(qru_context *ctx, int nlhs, mxArray *plhs[],
                             const mxArray *prhs[], int sign)
{
    const mwSize *dr = mxGetDimensions(prhs[0]),
                 *dx = mxGetDimensions(prhs[1]);
    int nr = (int)mxGetNumberOfDimensions(prhs[0]),
        nx = (int)mxGetNumberOfDimensions(prhs[1]);
    int n = (int)dr[0], pages = nr > 2 ? (int)dr[2] : 1;
    int k = (int)dx[1], px = nx > 2 ? (int)dx[2] : 1;
    if (nr > 3 || nx > 3 || (int)dr[1] != n || (int)dx[0] != n || px != pages)
        fail("qru:usage", "pages: R must be n x n x P and X n x k x P");
    qru_dtype dt = dtype_of(prhs, 2);
    qru_matrix *R = upload_pages(ctx, dt, n, n, pages, prhs[0]);
    qru_matrix *X = upload_pages(ctx, dt, n, k, pages, prhs[1]);
    int *info = host_bytes(sizeof(int) * (size_t)pages);
    int st = qru_chol_update_batch(ctx, 'U', R, X, sign, R, info);
    if (st < 0 || st > pages)
        check(st, "qru_chol_update_batch");
    mxArray *out = new_pages(dt, n, n, pages);
    if ((size_t)n * pages > 0) {
        int ds = qru_matrix_download(R, array_data(out), n);
        if (ds) {
            mxDestroyArray(out);
            check(ds, "qru_matrix_download");
        }
        zero_below(dt, array_data(out), n, n, pages);
    }
    plhs[0] = out;
    if (nlhs >= 2)
        plhs[1] = int_column(info, pages);
}

/* [R1, info] = cholupdate(R, X, op) */
static void cmd_cholupdate(int nlhs, mxArray *plhs[], int nrhs,
                           const mxArray *prhs[])
{
    qru_backend b;
    char op[4] = "+";
    /* the op string comes before the backend; it is one character */
    if (nrhs >= 3 && mxIsChar(prhs[2]) && mxGetNumberOfElements(prhs[2]) == 1) {
        get_string(prhs[2], op, sizeof op);
        nrhs = take_backend(nrhs, prhs, 3, &b);
        need_args(nrhs, 3, 3, "[R1, info] = qru_cholupdate(R, X [, op] [, backend])");
    } else {
        nrhs = take_backend(nrhs, prhs, 2, &b);
        need_args(nrhs, 2, 2, "[R1, info] = qru_cholupdate(R, X [, op] [, backend])");
    }
    if (strcmp(op, "+") && strcmp(op, "-"))
        fail("qru:usage", "op must be '+' or '-'");
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    if (mxGetNumberOfDimensions(prhs[0]) > 2 ||
        mxGetNumberOfDimensions(prhs[1]) > 2) {
        cholupdate_pages(get_context(b), nlhs, plhs, prhs,
                         op[0] == '+' ? 1 : -1);
        return;
    }
    need_square(prhs[0], "R");
    need_matrix(prhs[1], "X");
    if (mxGetM(prhs[1]) != mxGetM(prhs[0]))
        fail("qru:usage", "X must have as many rows as R");
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, 2);
    /* on the CPU R is read where it lies and the update written into the
     * result itself, an array of zeros of which the library writes only
     * the upper triangle */
    int n = (int)mxGetM(prhs[0]);
    qru_matrix *R = input(ctx, dt, prhs[0]);
    mxArray *out = NULL;
    qru_matrix *R1 = output(ctx, dt, n, n, &out);
    qru_matrix *X = input(ctx, dt, prhs[1]);
    int st = qru_chol_update(ctx, 'U', R, X, op[0] == '+' ? 1 : -1, R1);
    if (st && out)
        mxDestroyArray(out);
    chol_info(st, nlhs, plhs, "qru_chol_update", R);
    if (!st)
        plhs[0] = result(R1, out, !out);
}

/* Places the upper triangles of R's pages (n x n x P) into out's (n1 x
 * n1 x P, of type dt, zeros) in the order after the insertion of p rows
 * and columns at k (n1 = n + p: they stay zero) or the deletion of the
 * rows and columns k+1..k+p (n1 = n - p: they are left out). */
static void place_pages(mxArray *out, const mxArray *R, int n, int n1,
                        int k, int p, int pages, qru_dtype dt)
{
    int insert = n1 > n, sr = mxIsSingle(R);
    /* the real numbers of an element of R and of out */
    size_t sc = mxIsComplex(R) ? 2 : 1, tc = dt_complex(dt) ? 2 : 1;
    const void *src = array_data(R);
    void *dst = array_data(out);
    for (int q = 0; q < pages; ++q) {
        for (int c = 0; c < n; ++c) {
            if (!insert && c >= k && c < k + p)
                continue;
            int c1 = c < k ? c : insert ? c + p : c - p;
            for (int r = 0; r <= c; ++r) {
                if (!insert && r >= k && r < k + p)
                    continue;
                int r1 = r < k ? r : insert ? r + p : r - p;
                size_t i = (size_t)q * n * n + (size_t)c * n + r;
                size_t i1 = (size_t)q * n1 * n1 + (size_t)c1 * n1 + r1;
                for (size_t e = 0; e < sc; ++e) {
                    double v = sr ? ((const float *)src)[i * sc + e]
                                  : ((const double *)src)[i * sc + e];
                    if (dt_single(dt))
                        ((float *)dst)[i1 * tc + e] = (float)v;
                    else
                        ((double *)dst)[i1 * tc + e] = v;
                }
            }
        }
    }
}

/* [R1, info] = cholinsert(R, j, X) (X given: (n+p) x p x P) or
 * choldelete(R, j, p) on pages R n x n x P, one j for every page: one
 * call of qru_chol_insert_batch / qru_chol_delete_batch with k = j - 1.
 * R1 starts as R's upper triangles placed in the new order
 * (place_pages), which a page that fails keeps; info P x 1, the
 * library's status of each page (0 on success). */
static void cholinsdel_pages(qru_context *ctx, int nlhs, mxArray *plhs[],
                             const mxArray *Ra, int j, const mxArray *Xa,
                             int p)
{
    int n, nc, pages;
    page_dims(Ra, "R", &n, &nc, &pages);
    if (nc != n)
        fail("qru:usage", "pages: R must be n x n x P");
    if (Xa) {
        int xr, xp;
        page_dims(Xa, "X", &xr, &p, &xp);
        if (xp != pages || p < 1 || xr != n + p)
            fail("qru:usage", "pages: X must be (n+p) x p x P with p >= 1 "
                              "(n = %d, P = %d)", n, pages);
        if (j < 1 || j > n + 1)
            fail("qru:usage", "j must satisfy 1 <= j <= %d", n + 1);
    } else if (p < 1 || j < 1 || j + p - 1 > n) {
        fail("qru:usage", "need p >= 1 and 1 <= j <= %d", n - p + 1);
    }
    int n1 = Xa ? n + p : n - p, k = j - 1;
    const mxArray *mats[2] = {Ra, Xa};
    qru_dtype dt = dtype_of(mats, 2);
    qru_matrix *L = pages_of(ctx, dt, n, n, pages, Ra, NULL);
    qru_matrix *C = Xa ? pages_of(ctx, dt, n1, p, pages, Xa, NULL) : NULL;
    int *info = host_bytes(sizeof(int) * (size_t)pages);
    mxArray *out = new_pages(dt, n1, n1, pages);
    place_pages(out, Ra, n, n1, k, p, pages, dt);
    int copied;
    qru_matrix *L1 = pages_of(ctx, dt, n1, n1, pages, out, &copied);
    int st = Xa ? qru_chol_insert_batch(ctx, 'U', L, k, C, L1, info)
                : qru_chol_delete_batch(ctx, 'U', L, k, p, L1, info);
    if (st < 0 || st > pages) {
        mxDestroyArray(out);
        check(st, Xa ? "qru_chol_insert_batch" : "qru_chol_delete_batch");
    }
    pages_back(L1, out, copied);
    plhs[0] = out;
    if (nlhs >= 2)
        plhs[1] = int_column(info, pages);
}

/* [R1, info] = cholinsert(R, j, X) */
static void cmd_cholinsert(int nlhs, mxArray *plhs[], int nrhs,
                           const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 3, &b);
    need_args(nrhs, 3, 3, "[R1, info] = qru_cholinsert(R, j, X [, backend])");
    if (nlhs > 2)
        fail("qru:usage", "too many outputs");
    if (mxGetNumberOfDimensions(prhs[0]) > 2 ||
        mxGetNumberOfDimensions(prhs[2]) > 2) {
        int j = get_int(prhs[1], "j");
        cholinsdel_pages(get_context(b), nlhs, plhs, prhs[0], j, prhs[2], 0);
        return;
    }
    need_square(prhs[0], "R");
    int n = (int)mxGetM(prhs[0]);
    int j = get_int(prhs[1], "j");
    need_matrix(prhs[2], "X");
    int p = (int)mxGetN(prhs[2]);
    if ((int)mxGetM(prhs[2]) != n + p || p < 1)
        fail("qru:usage", "X must be (n+p) x p with p >= 1 (here n = %d)", n);
    if (j < 1 || j > n + 1)
        fail("qru:usage", "j must satisfy 1 <= j <= %d", n + 1);
    qru_context *ctx = get_context(b);
    const mxArray *mats[2] = {prhs[0], prhs[2]};
    qru_dtype dt = dtype_of(mats, 2);
    qru_matrix *R = input(ctx, dt, prhs[0]);
    qru_matrix *X = input(ctx, dt, prhs[2]);
    mxArray *out;
    qru_matrix *R1 = output(ctx, dt, n + p, n + p, &out);
    int st = qru_chol_insert(ctx, 'U', R, j - 1, X, R1);
    chol_info(st, nlhs, plhs, "qru_chol_insert", R);
    if (!st)
        plhs[0] = result(R1, out, 1);
}

/* R1 = choldelete(R, j [, p]) */
static void cmd_choldelete(int nlhs, mxArray *plhs[], int nrhs,
                           const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 2, &b);
    need_args(nrhs, 2, 3, "R1 = qru_choldelete(R, j [, p] [, backend])");
    int j = get_int(prhs[1], "j");
    int p = nrhs == 3 ? get_int(prhs[2], "p") : 1;
    if (mxGetNumberOfDimensions(prhs[0]) > 2) {
        if (nlhs > 2)
            fail("qru:usage", "too many outputs");
        cholinsdel_pages(get_context(b), nlhs, plhs, prhs[0], j, NULL, p);
        return;
    }
    if (nlhs > 1)
        fail("qru:usage", "too many outputs");
    need_square(prhs[0], "R");
    int n = (int)mxGetM(prhs[0]);
    if (p < 1 || j < 1 || j + p - 1 > n)
        fail("qru:usage", "need p >= 1 and 1 <= j <= %d", n - p + 1);
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, 1);
    qru_matrix *R = input(ctx, dt, prhs[0]);
    mxArray *out;
    qru_matrix *R1 = output(ctx, dt, n - p, n - p, &out);
    check(qru_chol_delete(ctx, 'U', R, j - 1, p, R1), "qru_chol_delete");
    plhs[0] = result(R1, out, 1);
}

/* R1 = cholshift(R, i, j) */
static void cmd_cholshift(int nlhs, mxArray *plhs[], int nrhs,
                          const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 3, &b);
    need_args(nrhs, 3, 3, "R1 = qru_cholshift(R, i, j [, backend])");
    if (nlhs > 1)
        fail("qru:usage", "too many outputs");
    need_square(prhs[0], "R");
    int n = (int)mxGetM(prhs[0]);
    int i = get_int(prhs[1], "i"), j = get_int(prhs[2], "j");
    if (i < 1 || i > n || j < 1 || j > n)
        fail("qru:usage", "need 1 <= i, j <= %d", n);
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, 1);
    qru_matrix *R = input(ctx, dt, prhs[0]);
    mxArray *out;
    qru_matrix *R1 = output(ctx, dt, n, n, &out);
    check(qru_chol_shift(ctx, 'U', R, i - 1, j - 1, R1), "qru_chol_shift");
    plhs[0] = result(R1, out, 1);
}

/* ---- Gaussian processes ------------------------------------------------------- */

/* count doubles on the host, freed with the call's temporaries */
static double *host_alloc(size_t count)
{
    return host_bytes((count + 1) * sizeof(double));
}

/* The elements of the real vector a (single or double) as doubles on the
 * host; *n receives their count. */
static const double *host_vector(const mxArray *a, const char *name, int *n)
{
    need_real_matrix(a, name);
    size_t k = mxGetNumberOfElements(a);
    if (k > 0 && mxGetM(a) != 1 && mxGetN(a) != 1)
        fail("qru:usage", "%s must be a vector", name);
    double *v = host_alloc(k);
    if (mxIsSingle(a)) {
        const float *s = mxGetData(a);
        for (size_t i = 0; i < k; ++i)
            v[i] = s[i];
    } else if (k > 0) {
        memcpy(v, mxGetData(a), k * sizeof *v);
    }
    *n = (int)k;
    return v;
}

/* A new n x 1 array of class dt holding v. */
static mxArray *vector_out(const double *v, int n, qru_dtype dt)
{
    mxArray *a = mxCreateNumericMatrix((mwSize)n, 1,
        dt == QRU_FLOAT ? mxSINGLE_CLASS : mxDOUBLE_CLASS, mxREAL);
    for (int i = 0; i < n; ++i) {
        if (dt == QRU_FLOAT)
            ((float *)mxGetData(a))[i] = (float)v[i];
        else
            mxGetPr(a)[i] = v[i];
    }
    return a;
}

/* Training points x, y (args[0], [1]) of equal length. */
static int gp_points(const mxArray *const args[], const double **x,
                     const double **y)
{
    int n, ny;
    *x = host_vector(args[0], "x", &n);
    *y = host_vector(args[1], "y", &ny);
    if (ny != n)
        fail("qru:usage", "x and y must have as many elements (%d, %d)", n, ny);
    return n;
}

/* h = gp_new(x, y, [ell sf2 sn2 capacity nb] [, backend]) */
static void cmd_gp_new(int nlhs, mxArray *plhs[], int nrhs,
                       const mxArray *prhs[])
{
    (void)nlhs;
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 3, &b);
    need_args(nrhs, 3, 3, "h = qru_mex('gp_new', x, y, [ell sf2 sn2 capacity "
                          "nb] [, backend])");
    const double *x, *y, *o;
    int n = gp_points(prhs, &x, &y), no;
    o = host_vector(prhs[2], "options", &no);
    if (no != 5 || o[3] != floor(o[3]) || o[4] != floor(o[4]) ||
        fabs(o[3]) > 1e9 || fabs(o[4]) > 1e9)
        fail("qru:usage", "the options must be [ell sf2 sn2 capacity nb], "
                          "capacity and nb integers");
    qru_gp_options opt;
    qru_gp_options_init(&opt);
    opt.lengthscale = o[0];
    opt.signal_var = o[1];
    opt.noise_var = o[2];
    opt.capacity = (int)o[3];
    opt.nb = (int)o[4];
    int slot = free_slot();
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, 2);
    qru_gp *g = NULL;
    check(qru_gp_create(ctx, dt, n, x, y, &opt, &g), "qru_gp_create");
    release_tmp();
    plhs[0] = store_handle(slot, ctx, dt, NULL, NULL, g);
}

/* gp(h, what, ...): the updates, predictions and accessors of a GP */
static void cmd_gp(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    static const struct {
        const char *what, *usage;
        int nargs, nout;
    } calls[] = {
        {"insert", "gp(h, 'insert', j, x, y)", 3, 0},
        {"remove", "gp(h, 'remove', j, p)", 2, 0},
        {"predict", "[mean, var] = gp(h, 'predict', xs)", 1, 2},
        {"lml", "lml = gp(h, 'lml')", 0, 1},
        {"factor", "L = gp(h, 'factor')", 0, 1},
        {"data", "[x, y] = gp(h, 'data')", 0, 2},
        {"size", "n = gp(h, 'size')", 0, 1},
    };
    char what[16];
    if (nrhs < 2 || !get_string(prhs[1], what, sizeof what))
        fail("qru:usage", "usage: qru_mex('gp', h, what, ...)");
    int c = 0, nc = (int)(sizeof calls / sizeof calls[0]);
    while (c < nc && strcmp(what, calls[c].what))
        ++c;
    if (c == nc)
        fail("qru:usage", "unknown GP call '%s' (insert, remove, predict, "
                          "lml, factor, data, size)", what);
    need_args(nrhs - 2, calls[c].nargs, calls[c].nargs, calls[c].usage);
    if (nlhs > (calls[c].nout > 1 ? calls[c].nout : 1))
        fail("qru:usage", "too many outputs");
    int i = find_handle(prhs[0], H_GP);
    qru_gp *g = handles[i].g;
    qru_dtype dt = handles[i].dt;
    int n = qru_gp_size(g);
    const mxArray *const *args = prhs + 2;
    if (!strcmp(what, "insert")) {
        int j = get_int(args[0], "j");
        if (j < 1 || j > n + 1)
            fail("qru:usage", "j must satisfy 1 <= j <= %d", n + 1);
        const double *x, *y;
        int p = gp_points(args + 1, &x, &y);
        check(qru_gp_insert(g, j - 1, p, x, y), "qru_gp_insert");
    } else if (!strcmp(what, "remove")) {
        int j = get_int(args[0], "j"), p = get_int(args[1], "p");
        if (p < 0 || j < 1 || j + p - 1 > n)
            fail("qru:usage", "need p >= 0 and 1 <= j <= %d", n - p + 1);
        check(qru_gp_remove(g, j - 1, p), "qru_gp_remove");
    } else if (!strcmp(what, "predict")) {
        int m;
        const double *xs = host_vector(args[0], "xs", &m);
        double *mean = host_alloc((size_t)m), *var = host_alloc((size_t)m);
        check(qru_gp_predict(g, m, xs, mean, var), "qru_gp_predict");
        plhs[0] = vector_out(mean, m, dt);
        if (nlhs >= 2)
            plhs[1] = vector_out(var, m, dt);
    } else if (!strcmp(what, "lml")) {
        double lml = 0;
        check(qru_gp_log_likelihood(g, &lml), "qru_gp_log_likelihood");
        plhs[0] = vector_out(&lml, 1, dt);
    } else if (!strcmp(what, "factor")) {
        qru_matrix *L = new_matrix(handles[i].ctx, dt, n, n);
        if (n > 0)
            check(qru_gp_get_factor(g, L), "qru_gp_get_factor");
        plhs[0] = download(L, 0);
    } else if (!strcmp(what, "data")) {
        double *x = host_alloc((size_t)n), *y = host_alloc((size_t)n);
        check(qru_gp_get_data(g, x, y), "qru_gp_get_data");
        plhs[0] = vector_out(x, n, dt);
        if (nlhs >= 2)
            plhs[1] = vector_out(y, n, dt);
    } else {
        plhs[0] = mxCreateDoubleScalar(n);
    }
}

/* [x, w, rnorm, iterations, status] = non-negative least squares */
static void cmd_nnls(int nlhs, mxArray *plhs[], int nrhs,
                     const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 4, &b);
    need_args(nrhs, 4, 4, "[x, w, rnorm, iterations, status] = "
                          "qru_mex('nnls', C, d, maxiter, tol [, backend])");
    if (nlhs > 5)
        fail("qru:usage", "too many outputs");
    need_real_matrix(prhs[0], "C");
    need_real_matrix(prhs[1], "d");
    int maxiter = get_int(prhs[2], "maxiter");
    if (!mxIsNumeric(prhs[3]) || mxIsComplex(prhs[3]) ||
        mxGetNumberOfElements(prhs[3]) != 1)
        fail("qru:usage", "tol must be a real scalar");
    double tol = mxGetScalar(prhs[3]);
    qru_context *ctx = get_context(b);
    qru_dtype dt = dtype_of(prhs, 2);
    qru_matrix *C = input(ctx, dt, prhs[0]), *d = input(ctx, dt, prhs[1]);
    int m = (int)mxGetN(prhs[0]);
    mxArray *xo = NULL, *wo = NULL;
    qru_matrix *x = output(ctx, dt, m, 1, &xo), *w = output(ctx, dt, m, 1, &wo);
    qru_solver_info info = {0, 0, 0.0};
    int st = qru_nnls(ctx, C, d, maxiter, tol, x, w, &info);
    if (st < 0) {
        if (xo)
            mxDestroyArray(xo);
        if (wo)
            mxDestroyArray(wo);
        check(st, "qru_nnls");
    }
    plhs[0] = result(x, xo, 0);
    mxArray *wa = result(w, wo, 0);
    if (nlhs >= 2)
        plhs[1] = wa;
    else
        mxDestroyArray(wa);
    if (nlhs >= 3)
        plhs[2] = mxCreateDoubleScalar(info.rnorm);
    if (nlhs >= 4)
        plhs[3] = mxCreateDoubleScalar(info.iterations);
    if (nlhs >= 5)
        plhs[4] = mxCreateDoubleScalar(st);
}

/* [name, device] = backend info */
static void cmd_backend(int nlhs, mxArray *plhs[], int nrhs,
                        const mxArray *prhs[])
{
    qru_backend b;
    nrhs = take_backend(nrhs, prhs, 0, &b);
    need_args(nrhs, 0, 0,
              "[name, device, fp64, complex] = qru_backend([backend])");
    if (nlhs > 4)
        fail("qru:usage", "too many outputs");
    qru_context *ctx = get_context(b);
    plhs[0] = mxCreateString(qru_backend_name(qru_context_backend(ctx)));
    if (nlhs >= 2)
        plhs[1] = mxCreateString(qru_context_device_name(ctx));
    if (nlhs >= 3)
        plhs[2] = mxCreateDoubleScalar(qru_context_supports(ctx, QRU_DOUBLE));
    if (nlhs >= 4)
        plhs[3] = mxCreateDoubleScalar(
            MX_HAS_INTERLEAVED_COMPLEX &&
            qru_context_supports(ctx, QRU_COMPLEX_FLOAT));
}

/* ---- entry point ------------------------------------------------------------------ */

void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    static int registered;
    if (!registered) {
        mexAtExit(at_exit);
        registered = 1;
    }
    release_tmp();
    char cmd[32];
    if (nrhs < 1 || !get_string(prhs[0], cmd, sizeof cmd))
        fail("qru:usage", "qru_mex: the first argument must be a command "
                          "string; use the qru_*.m functions");
    nrhs -= 1;
    prhs += 1;
    if (!strcmp(cmd, "qr"))
        cmd_qr(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_solve"))
        cmd_lsq_solve(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_new"))
        cmd_lsq_new(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_update"))
        cmd_lsq_update(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_get"))
        cmd_lsq_get(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_size"))
        cmd_lsq_size(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_solve_h"))
        cmd_lsq_solve_h(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "lsq_query"))
        cmd_lsq_query(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "free"))
        cmd_free(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "gp_new"))
        cmd_gp_new(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "gp"))
        cmd_gp(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "qrinsert"))
        cmd_qrupdate(1, nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "qrdelete"))
        cmd_qrupdate(0, nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "qrupdate"))
        cmd_qrmodify(0, nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "qrshift"))
        cmd_qrmodify(1, nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "cholupdate"))
        cmd_cholupdate(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "cholinsert"))
        cmd_cholinsert(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "choldelete"))
        cmd_choldelete(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "cholshift"))
        cmd_cholshift(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "nnls"))
        cmd_nnls(nlhs, plhs, nrhs, prhs);
    else if (!strcmp(cmd, "backend"))
        cmd_backend(nlhs, plhs, nrhs, prhs);
    else
        fail("qru:usage", "qru_mex: unknown command '%s'", cmd);
    release_tmp();
}
