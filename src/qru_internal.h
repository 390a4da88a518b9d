/*
 * qru internal interface: the context and matrix structures and the backend
 * table that every backend (src/cpu, cuda/, opencl/) implements.
 *
 * The algorithm layer (the .c files in src/) is written once, for both precisions,
 * against this table: it passes the element type at run time and addresses
 * memory as (handle, element offset) pairs, so a backend may use host
 * pointers, CUDA device pointers or OpenCL cl_mem buffers alike.
 *
 * Rules every backend op follows:
 *  - it returns 0 or a library status (QRU_ERR_DEVICE, QRU_ERR_ALLOC, ...);
 *  - it is asynchronous with respect to the host where the backend allows
 *    (work is queued on the context's stream/queue), unless its comment says
 *    it returns a value on the host;
 *  - scalars that the algorithm computes on the device (tau of a Householder
 *    reflector, Givens c and s) stay in device memory (qru_ptr), so an
 *    update needs no host round trip per reflector;
 *  - sizes may be zero (then nothing is done).
 */
#ifndef QRU_INTERNAL_H
#define QRU_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "qru.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Backend memory address: a buffer handle plus an offset in elements. */
typedef struct qru_ptr {
    void *h;    /* host pointer, CUDA device pointer or cl_mem */
    size_t off; /* offset in elements of the matrix' dtype */
} qru_ptr;

static inline qru_ptr qru_ptr_add(qru_ptr p, size_t elems)
{
    p.off += elems;
    return p;
}

/* Element (i, j) of a column-major array starting at p with leading
 * dimension ld. */
static inline qru_ptr qru_ptr_at(qru_ptr p, int ld, int i, int j)
{
    p.off += (size_t)i + (size_t)j * (size_t)ld;
    return p;
}

static inline size_t qru_dtype_size(qru_dtype dt)
{
    return dt == QRU_DOUBLE ? sizeof(double) : sizeof(float);
}

/* *bytes = es * rows * cols for a buffer of rows x cols elements of size
 * es; QRU_ERR_ALLOC when that does not fit in a size_t (sizes and
 * capacities are ints, so their product can wrap to a small request). */
static inline int qru_bytes(size_t es, int rows, int cols, size_t *bytes)
{
    size_t r = rows > 0 ? (size_t)rows : 0, c = cols > 0 ? (size_t)cols : 0;
    if (r && c && (c > SIZE_MAX / r || es > SIZE_MAX / (r * c)))
        return QRU_ERR_ALLOC;
    *bytes = es * r * c;
    return 0;
}

typedef struct qru_backend_ops qru_backend_ops;

/* Workspace pool: one growing buffer per context (geometric growth), plus a
 * small host scratch buffer.  Algorithms take their whole workspace at the
 * start of a call and carve it with qru_ptr offsets. */
typedef struct qru_workspace {
    void *h;      /* backend handle */
    size_t bytes; /* capacity */
} qru_workspace;

struct qru_context {
    qru_backend backend;
    const qru_backend_ops *ops;
    void *impl; /* backend state (handles, stream, queue, programs) */
    char device_name[256];
    qru_workspace ws;
    int check_finite; /* QRU_OPTION_CHECK_FINITE (0 after calloc: off) */
};

struct qru_matrix {
    qru_context *ctx;
    qru_dtype dtype;
    int rows, cols, ld;
    qru_ptr p;
    int owned; /* 1: p.h was allocated by qru and is freed with the matrix */
};

/* The backend table.  'dt' is the element type of every array argument.
 * Transpose/side/uplo/diag flags are the BLAS characters. */
struct qru_backend_ops {
    const char *name;
    qru_backend id;
    int default_nb; /* default Householder block size for factorisations */

    /* 0 if the backend can create a context on this machine, else
     * QRU_ERR_BACKEND_UNAVAILABLE. */
    int (*probe)(void);
    int (*init)(qru_context *ctx, const qru_context_options *opt);
    void (*fini)(qru_context *ctx);
    int (*supports)(const qru_context *ctx, qru_dtype dt); /* 1 or 0 */
    int (*sync)(qru_context *ctx);

    /* ---- memory ---- */
    int (*mem_alloc)(qru_context *ctx, size_t bytes, void **h);
    void (*mem_free)(qru_context *ctx, void *h);
    /* host -> device, m x n block, host leading dimension lds. */
    int (*upload)(qru_context *ctx, qru_dtype dt, int m, int n,
                  const void *src, int lds, qru_ptr dst, int ldd);
    /* device -> host; returns when the data is on the host. */
    int (*download)(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                    int lds, void *dst, int ldd);
    /* device -> device m x n copy.  Source and destination may overlap only
     * if they have the same leading dimension and the destination starts at
     * a lower or equal address in column order (i.e. moves towards the
     * start, as when rows/columns are deleted); otherwise they must not
     * overlap. */
    int (*copy)(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src,
                int lds, qru_ptr dst, int ldd);
    /* A(i,j) = offdiag for i != j, diag for i == j, restricted to the part
     * named by uplo: 'U' strictly upper + diagonal, 'L' strictly lower +
     * diagonal, 'A' all. (LAPACK laset.) */
    int (*laset)(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                 double offdiag, double diag, qru_ptr A, int lda);
    /* B = A' for an m x n A (the tiled transpose kernel of the
     * dissertation, figure 3.4).  A and B must not overlap. */
    int (*transpose)(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                     int lda, qru_ptr B, int ldb);

    /* ---- BLAS ---- */
    int (*gemm)(qru_context *ctx, qru_dtype dt, char transa, char transb,
                int m, int n, int k, double alpha, qru_ptr A, int lda,
                qru_ptr B, int ldb, double beta, qru_ptr C, int ldc);
    int (*trsm)(qru_context *ctx, qru_dtype dt, char side, char uplo,
                char transa, char diag, int m, int n, double alpha, qru_ptr A,
                int lda, qru_ptr B, int ldb);
    /* Euclidean norm of each of the n columns of the m x n A, written to
     * host doubles; returns when the values are on the host. */
    int (*col_norms)(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A,
                     int lda, double *norms);
    /* The number of elements of the m x n A that are not finite (NaN,
     * +Inf or -Inf), written to *count on the host; returns when it is
     * there.  Only the part named by uplo is read, as in laset: 'A' all,
     * 'U' the upper trapezoid (i <= j), 'L' the lower trapezoid (i >= j).
     * *count is exact while it is below 2^31 (larger counts are clamped to
     * INT_MAX, never reported as 0).  Used by the non-finite check of
     * QRU_OPTION_CHECK_FINITE (qru_check_finite, matrix.c). */
    int (*count_nonfinite)(qru_context *ctx, qru_dtype dt, char uplo, int m,
                           int n, qru_ptr A, int lda, int *count);

    /* ---- the dissertation's Householder kernels ---- */
    /* Householder vector (houseKernel, section 3.1, with LAPACK's larfg
     * conventions).  alpha is one element, x an n-vector (contiguous).
     * Finds H = I - tau [1; v][1; v]' with H [alpha; x] = [beta; 0].
     * On exit: *alpha = beta, v (n elements) holds the tail of the vector,
     * *tau holds tau (device memory), and x is set to zero unless v and x
     * are the same memory.  If x is already zero, tau = 0 and v = 0. */
    int (*house)(qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha,
                 qru_ptr x, qru_ptr v, qru_ptr tau);
    /* Applies H = I - tau [1; v][1; v]' from the left to the (1 + m) x n
     * matrix [top; C]: top is a row of n elements with stride ldt, C is
     * m x n with leading dimension ldc, v has m elements, tau is one element
     * in device memory.  work: n elements. */
    int (*larf)(qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v,
                qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc,
                qru_ptr work);
    /* WY accumulation (section 3.1, lines 34-39 of the listing): given the
     * m x j blocks W and Y of P_1...P_j = I + W Y', the reflector
     * P_{j+1} = I - tau y y' with y = Y(:, j) (column j, 0-based), writes
     * W(:, j) = -tau (y + W(:, 0:j-1) (Y(:, 0:j-1)' y)).
     * work: j elements. */
    int (*wy_append)(qru_context *ctx, qru_dtype dt, int m, int j, qru_ptr Y,
                     int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work);

    /* ---- update kernels (issue 3) ---- */
    /* The Givens ops work on a "strip" of cnt independent rotations, as the
     * dissertation's makeGivens / applyGivens kernels (section 3.2).  The
     * array X is addressed by element offsets from its start: rotation t
     * (0 <= t < cnt) acts on the pairs of elements
     *     x = X[t*inc + e*es],  y = X[t*inc + ps + e*es],   e = 0 .. len-1
     * (inc, ps, es >= 0; offsets are computed in size_t).  So for pairs of
     * adjacent rows of a column-major array with leading dimension ld use
     * ps = 1, es = ld; for pairs of adjacent columns ps = ld, es = 1.
     * Rotation t is G_t = [c s; -s c] with (c, s) = (cs[2t], cs[2t+1]) held
     * in device memory:  x := c x + s y,  y := c y - s x  (BLAS rot).
     * cnt, len may be 0 (nothing is done). */

    /* Computes rotation t from the pair a = X[t*inc], b = X[t*inc + ps] so
     * that G_t [a; b] = [r; 0]:  r = sqrt(a^2 + b^2) evaluated without
     * overflow, c = a / r, s = b / r, and c = 1, s = 0 when b = 0 (also when
     * a = b = 0).  Writes cs[0 .. 2 cnt - 1]; X is only read.  cs must not
     * overlap X.  Accuracy: for float, evaluate r, c, s in double and round
     * c and s once (the CPU backend does); a float-only evaluation biases
     * c^2 + s^2 - 1, which adds up along the long chains of rotations of
     * the updates (measured: ||Q'Q - I|| 5x larger after 500 rotations). */
    int (*givens_make)(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                       int inc, int ps, qru_ptr cs);
    /* Applies rotation t (cs as written by givens_make) to the len pairs of
     * rotation t, for every t.  The 2 len cnt elements touched must be
     * distinct (the rotations of one call are independent, so a backend may
     * run them in parallel); cs must not overlap X. */
    int (*givens_apply)(qru_context *ctx, qru_dtype dt, int cnt, int len,
                        qru_ptr cs, qru_ptr X, int inc, int ps, int es);
    /* B := alpha A + beta B for m x n A and B (the dissertation's doubleSum
     * with one operand).  beta = 0: B is not read (B := alpha A);
     * alpha = 0: A is not read.  A and B must not overlap unless they are
     * the same array with lda = ldb. */
    int (*geadd)(qru_context *ctx, qru_dtype dt, int m, int n, double alpha,
                 qru_ptr A, int lda, double beta, qru_ptr B, int ldb);

    /* ---- Cholesky kernels (issue 6) ---- */
    /* Default block size of the blocked Cholesky factorisation; 0 means
     * 128. */
    int default_chol_nb;
    /* BLAS syrk on the uplo triangle of the n x n C:
     *   trans 'N': C = alpha A A' + beta C, A is n x k;
     *   trans 'T': C = alpha A' A + beta C, A is k x n.
     * The other strict triangle of C is neither read nor written.  k may
     * be 0 (then C = beta C on the triangle). */
    int (*syrk)(qru_context *ctx, qru_dtype dt, char uplo, char trans, int n,
                int k, double alpha, qru_ptr A, int lda, double beta,
                qru_ptr C, int ldc);
    /* LAPACK lacpy: B = A on the part named by uplo of the m x n arrays
     * ('L': lower trapezoid with the diagonal, 'U': upper trapezoid with
     * the diagonal, 'A': all).  The rest of B is not written; A and B must
     * not overlap. */
    int (*lacpy)(qru_context *ctx, qru_dtype dt, char uplo, int m, int n,
                 qru_ptr A, int lda, qru_ptr B, int ldb);
    /* Unblocked Cholesky of the n x n diagonal block A in ONE call, on the
     * uplo triangle only ('L': A = L L', 'U': A = U' U; the other strict
     * triangle is neither read nor written).  info is ONE element of type
     * dt in device memory holding an integer value:
     *  - if info != 0 on entry, the op does nothing (an earlier block
     *    failed; the algorithm layer reads info once, at the end);
     *  - otherwise, for j = 0..n-1 in order, d = A(j,j) - sum_{t<j} L(j,t)^2
     *    ('U': U(t,j)^2); unless d > 0 and d is finite (d <= 0, NaN or
     *    Inf fail) the op stores info = base + j + 1 and stops in this
     *    failure state: columns ('U': rows) < j hold their factor (all of
     *    L(i,t), t < j, i >= t) and columns ('U': rows) j..n-1 of the
     *    triangle hold those of the identity (L(j,j) = 1, L(i,c) = 0 for
     *    i > c >= j).  So the trsm / gemm / syrk that the blocked
     *    algorithms queue after the panel without reading info (the rows
     *    below the block, the trailing matrix) meet only finite values in
     *    the block's columns >= j, and the columns < j of the rows below
     *    come out as their factor whatever the BLAS does with NaN / Inf
     *    (0 * NaN) in the failed part;
     *    else L(j,j) = sqrt(d) and L(i,j) = (A(i,j) - sum_{t<j} L(i,t)
     *    L(j,t)) / L(j,j) for i > j (for 'U' the transposed formulas).
     * On success info is not written; info keeps the first failure. */
    int (*potrf_panel)(qru_context *ctx, qru_dtype dt, char uplo, int n,
                       qru_ptr A, int lda, qru_ptr info, int base);
    /* Rank-k update (sign > 0) or downdate (sign < 0) of the n x n lower
     * triangular factor L by the n x k matrix W, by rotations:
     *   for i = 0..n-1, for q = 0..k-1 (in this order), with a = L(i,i),
     *   b = W(i,q):  r = sqrt(a^2 + b^2) (update, computed without
     *   overflow) or r = sqrt((a - b)(a + b)) (downdate); c = r/a, s = b/a;
     *   L(i,i) = r; for j > i:  L(j,i) = (L(j,i) + sign s W(j,q)) / c,
     *   then W(j,q) = c W(j,q) - s L(j,i)  (with the new L(j,i)).
     * The strictly upper part of L is neither read nor written; W is
     * overwritten.  info as in potrf_panel: if info != 0 on entry nothing
     * is done; if a = 0 or r is not > 0 and finite, the op stores
     * info = base + i + 1 and stops (L and W then hold partial results). */
    int (*chol_rot)(qru_context *ctx, qru_dtype dt, int n, int k, int sign,
                    qru_ptr L, int ldl, qru_ptr W, int ldw, qru_ptr info,
                    int base);

    /* ---- fused panels (issue 8) ---- */
    /* Householder QR of the m x nb panel A (0 <= nb <= m) in ONE call: the
     * same result as this sequence of the ops above (the per-column panel
     * loop of qru_geqr_wy, src/qr.c), up to rounding:
     *     laset('A', m, nb, 0, 1, Y, ldy);
     *     for j = 0 .. nb-1:
     *         house(m-j-1, &A(j,j), &A(j+1,j), &Y(j+1,j), &tau[j]);
     *         larf(m-j-1, nb-j-1, &Y(j+1,j), &tau[j], &A(j,j+1), lda,
     *              &A(j+1,j+1), lda, work);
     *         wy_append(m, j, Y, ldy, W, ldw, &tau[j], work);
     * On exit:
     *  - A: the upper triangle of its leading nb x nb block holds R of the
     *    panel, every element below the diagonal is exactly zero;
     *  - Y (m x nb): the reflectors as a unit lower trapezoid (Y(i,j) = 0
     *    for i < j, 1 for i = j, v_j below), every element written;
     *  - W (m x nb): P = H_0 H_1 ... H_{nb-1} = I + W Y' (all of W written);
     *  - tau: nb elements in device memory (0 where a column below the
     *    diagonal is already zero; then R(j,j) keeps A(j,j), v_j = 0).
     * work: at least qru_panel_work(m, nb) elements of device memory
     * (cross-work-group partial sums on the GPU backends).  A, Y, W, tau
     * and work must not overlap.  Optional: NULL if the backend has no
     * fused panel (the algorithm layer then runs the loop above). */
    int (*panel_qr)(qru_context *ctx, qru_dtype dt, int m, int nb, qru_ptr A,
                    int lda, qru_ptr Y, int ldy, qru_ptr W, int ldw,
                    qru_ptr tau, qru_ptr work);
    /* The largest nb for which panel_qr of an (nb + extra) x nb panel runs
     * on chip, in the local memory of one work-group (the fast case on the
     * GPU backends; larger panels take a slower kernel); 0 if none.  The
     * algorithm layer picks the block size of its fused panels with it.
     * Optional: NULL if panel_qr has no such limit (CPU). */
    int (*panel_qr_max_nb)(qru_context *ctx, qru_dtype dt, int extra);
    /* ---- fused Givens sweeps (issue 8) ---- */
    /* The staggered sweeps of src/qru_update.h in ONE call: for step
     * t = 0 .. L+p-2, jlo = max(0, t-L+1), cnt = min(t, p-1) - jlo + 1,
     * i0 = L + 2 jlo - t, and q = 0 .. cnt-1, rotation q acts on the
     * columns (i0-1+2q, i0+2q) of X, X(row, col) = X[row xrs + col xcs]
     * (element strides): with make != 0 it is formed (givens_make) from
     * X(jlo+q, i0-1+2q), X(jlo+q, i0+2q) and written to cs, else read
     * from cs (layout of the loop of givens_make calls: step by step, 2 cnt
     * values a step); then it is applied (givens_apply) to the rows
     * r0 .. nr-1 of its columns, r0 = from_jlo ? jlo : 0.  The results of
     * the loop of givens_make / givens_apply calls up to rounding (c and s
     * may be formed with fewer divisions).  Optional
     * (NULL: the algorithm layer runs that loop). */
    int (*givens_sweeps)(qru_context *ctx, qru_dtype dt, int L, int p,
                         int make, qru_ptr X, long xrs, long xcs, int nr,
                         int from_jlo, qru_ptr cs);
    /* The groups of qru_upd_sweeps_apply in ONE call: for g = 0 ..
     * ceil(L / ab) - 1, uhi = L - g ab, ulo = max(1, uhi - ab + 1),
     * w = uhi - ulo + 1 + p: G_g (w x w, at G + g ldg (ab + p), leading
     * dimension ldg >= ab + p) := the identity rotated from the right by
     * the rotations (j, i = u + j), ulo <= u <= uhi, 0 <= j < p, in step
     * order, rotation (j, i) acting on the local columns (i - ulo,
     * i - ulo + 1).  Optional (NULL: one givens_apply per step). */
    int (*givens_accum)(qru_context *ctx, qru_dtype dt, int L, int p, int ab,
                        qru_ptr cs, qru_ptr G, int ldg);

    /* The vendor's unblocked-to-blocked QR (LAPACK / cuSOLVER geqrf) with
     * what qru_qr_factor and qru_lsq_create need, in one call:
     *   A (n x m) := R with exact zeros below the diagonal;
     *   if Q.h: Q (n x n, its contents on entry ignored) := the orthogonal
     *           factor H_0 ... H_{k-1}, k = min(n, m) (orgqr);
     *   if B.h and r > 0: B (n x r) := Q' B (ormqr).
     * Workspace query: with ws.h == NULL nothing is done (A, Q, B are not
     * referenced) and *ws_elems is set to the number of elements of type
     * dt that ws must hold for a call with these n, m and r, with or
     * without Q and B (ws_elems is not used otherwise).  n, m >= 1.  A, Q, B and ws must not overlap.  Failure
     * information of the vendor routines (devInfo) is read at the end, so
     * this op waits for the device before it returns.  Optional: NULL if
     * the backend has no vendor factorisation; whether the algorithm layer
     * uses it is decided in src/qr.c (qru_qr_use_vendor, with
     * geqrf_full_min_k below). */
    int (*geqrf_full)(qru_context *ctx, qru_dtype dt, int n, int m,
                      qru_ptr A, int lda, qru_ptr Q, int ldq, qru_ptr B,
                      int ldb, int r, qru_ptr ws, size_t *ws_elems);
    /* Where geqrf_full is the default (measured per backend): qru_qr_factor
     * and qru_lsq_create with nb = 0 use it when min(n, m) >= this value;
     * 0: never by default (only with QRU_GEQRF=vendor, see src/qr.c). */
    int geqrf_full_min_k;

    /* ---- vendor Cholesky (issue 9) ---- */
    /* The vendor's Cholesky (LAPACK / cuSOLVER potrf) of the uplo triangle
     * of the n x n A, in place, in one call.  The other strict triangle is
     * neither read nor written.  Returns 0, a library status, or info > 0
     * with the potrf_panel meaning: the first column j (1-based; rows for
     * 'U') whose pivot is not > 0, NaN included (a backend whose vendor
     * routine lets NaN pivots pass finds them on the factor's diagonal
     * afterwards); then columns < j hold their factor and the rest of the
     * triangle unspecified values.
     * Workspace query: with ws.h == NULL nothing is done (A is not
     * referenced) and *ws_elems is set to the number of elements of type
     * dt that ws must hold for this n; ws is not used otherwise beyond that
     * many elements.  A and ws must not overlap.  Waits for the device
     * (reads devInfo) before it returns.  Optional: NULL if the backend has
     * no vendor Cholesky; whether the algorithm layer uses it is decided in
     * src/chol.c (qru_chol_use_vendor, with potrf_full_min_n below). */
    int (*potrf_full)(qru_context *ctx, qru_dtype dt, char uplo, int n,
                      qru_ptr A, int lda, qru_ptr ws, size_t *ws_elems);
    /* Where potrf_full is the default (measured per backend):
     * qru_chol_factor with variant QRU_CHOL_LEFT and nb = 0 (and
     * qru_gp_create with nb = 0) use it when n >= this value; 0: never by
     * default (only with QRU_POTRF=vendor). */
    int potrf_full_min_n;
};

/* 1: Householder panels through the backend's panel_qr (when it has one),
 * 0: the per-column loop (the environment's QRU_PANEL=percol, read at each
 * call; for comparisons).  One rule for qru_geqr_wy, the updates and the
 * update policy's cost model (qr.c). */
int qru_use_fused_panel(const qru_backend_ops *o);

/* Elements of the work argument of panel_qr for an m x nb panel. */
static inline size_t qru_panel_work(int m, int nb)
{
    return 2 * (size_t)m + 4 * (size_t)nb + 4 + (size_t)nb * nb;
}


/* ---- algorithm layer (written once, run by every backend) ---- */

/* Blocked Householder QR (qr.c) of the n x m array A in place: on exit A
 * holds R with exact zeros below the diagonal.  The reflectors are applied
 * to the n x r right-hand sides B from the left (B := P' B) and to the
 * nq x n array Q from the right (Q := Q P); pass Q.h / B.h = NULL to skip.
 * ws must hold qru_geqr_wy_workspace(n, m, nq, r, nb) elements. */
size_t qru_geqr_wy_workspace(int n, int m, int nq, int r, int nb);
int qru_geqr_wy(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, int nq, qru_ptr B, int ldb, int r,
                int nb, qru_ptr ws);

/* The whole factorisation of qru_qr_factor / qru_lsq_create (qr.c): A (n x m)
 * := R, Q (n x n, nq = n, or Q.h = NULL) := the orthogonal factor, B
 * (n x r, or B.h = NULL) := Q' B.  Runs the backend's geqrf_full when
 * qru_qr_use_vendor says so, else qru_geqr_wy on Q set to the identity.
 * ws must hold qru_qr_full_workspace(...) elements (same arguments). */
int qru_qr_use_vendor(const qru_context *ctx, int n, int m, int nb_asked);
int qru_qr_full_workspace(qru_context *ctx, qru_dtype dt, int n, int m,
                          int withq, int r, int nb, int nb_asked,
                          size_t *elems);
int qru_qr_full(qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A,
                int lda, qru_ptr Q, int ldq, qru_ptr B, int ldb, int r,
                int nb, int nb_asked, qru_ptr ws);

/* The least-squares object: R (n x m), d (n x r) and optionally Q (n x n),
 * each stored with leading dimension ncap inside buffers sized for
 * ncap x mcap (R), ncap x ncap (Q) and ncap x r (d), so that rows and
 * columns can be added without reallocating each time. */
struct qru_lsq {
    qru_context *ctx;
    qru_dtype dtype;
    int n, m, r;       /* current rows, columns, right-hand sides */
    int ncap, mcap;    /* reserved rows and columns */
    int has_q;
    int nb;            /* Householder block size (0 = backend default) */
    qru_ptr R, Q, d;   /* ld = ncap for all three */
    /* QR updates (update_*.c; both 0 after calloc = the defaults) */
    int upd_nb;        /* update block size, 0 = auto (about a tenth of the
                          columns an update reduces) */
    int upd_alg;       /* qru_update_algorithm */
    /* update policy (update_policy.c; both 0 after calloc) */
    int last_path;     /* QRU_PATH_* of the last successful update */
    int in_policy;     /* 1 while qru_upd_policy runs an update of f */
};

/* The rank rule of the QR routines (lsq.c; documented in include/qru.h):
 * R (n x m) is rank-deficient at column j when R(j,j) is not finite or
 * |R(j,j)| <= max(n, m) eps max_i ||R(1:i,i)||_2 (the maximum over the
 * finite column norms; eps = FLT_EPSILON or DBL_EPSILON).
 * qru_qr_rank_gather reads, for the c columns of a block of R, the
 * diagonal elements (c of them, the first at D, stride ldr + 1) into diag
 * and the norms of the block's columns (rows x c at B, ldr) into norms
 * (host arrays of c doubles; the block's rows must hold every nonzero of
 * its columns).  qru_qr_rank_first applies the rule, with the tolerance of
 * all m gathered columns, to the columns j0..m-1: the first rank-deficient
 * one (1-based), or 0. */
int qru_qr_rank_gather(qru_context *ctx, qru_dtype dt, int rows, int c,
                       qru_ptr B, qru_ptr D, int ldr, double *diag,
                       double *norms);
int qru_qr_rank_first(qru_dtype dt, int n, int m, int j0,
                      const double *diag, const double *norms);

/* The non-finite check (matrix.c; the rule is documented in
 * include/qru.h): 0 when ctx's QRU_OPTION_CHECK_FINITE is off or every
 * scanned element is finite, -argi when one is not, or a library status
 * of the scan.  Scanned part of M: uplo 'A' all of M (k, diag unused);
 * 'L' / 'U': the rows k .. k+c-1 of M (c = M's columns) form a square
 * block of which only the uplo triangle is scanned (its diagonal too
 * unless diag is 'U'), the other rows of M entirely.  Called from each
 * public routine's argument checks, right after argument argi's own
 * checks; M NULL (an omitted optional argument) is skipped. */
int qru_check_finite(qru_context *ctx, int argi, const qru_matrix *M,
                     char uplo, char diag, int k);
/* The same for n doubles on the host. */
int qru_check_finite_host(const qru_context *ctx, int argi, const double *x,
                          size_t n);

/* Makes room for n_new rows and m_new columns (lsq.c); contents are kept.
 * Grows geometrically; returns 0 or a library status (f unchanged then). */
int qru_lsq_reserve(qru_lsq *f, int n_new, int m_new);

/* Backend tables (each defined by its backend; unavailable backends are
 * NULL pointers from qru_backend_table()). */
extern const qru_backend_ops qru_cpu_ops;
const qru_backend_ops *qru_backend_table(qru_backend b);

/* Workspace: returns a buffer of at least 'bytes' bytes (kept by the
 * context, valid until the next qru_ctx_workspace call on the same ctx). */
int qru_ctx_workspace(qru_context *ctx, size_t bytes, qru_ptr *out);

/* Argument checking helpers (src/check.c).  Each returns 1 when the
 * matrix is usable: not NULL, belongs to ctx, has the given dtype. */
int qru_mat_ok(const qru_context *ctx, const qru_matrix *M, qru_dtype dt);

#ifdef __cplusplus
}
#endif

#endif /* QRU_INTERNAL_H */
