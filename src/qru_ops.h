/*
 * The backend op list: every operation that the algorithm layer (src/)
 * calls on a backend, with its contract.  This X-macro list is the single
 * place an op is declared; from it are generated
 *  - the function-pointer fields of struct qru_backend_ops (qru_internal.h),
 *  - the op ids QRU_OP_<name> and names (qru_op_name, context.c),
 *  - the counting layer of the context statistics (ops.c),
 *  - the CUDA prototypes qru_cu_<name> and the CUDA, CPU and OpenCL
 *    tables (cuda/cuda_table.cu, src/cpu/cpu_backend.c,
 *    opencl/opencl_backend.c), whose functions follow the naming
 *    <backend prefix>_<name>.
 *
 * QRU_OP(name, params, args, need, stat):
 *  need  REQ: every backend implements it;
 *        OPT: a backend may leave it NULL; the context then uses the
 *             reference implementation qru_ref_<name> (ref_ops.c), written
 *             on top of the REQ ops, so the algorithms call one path;
 *        CAP: a vendor capability (LAPACK / cuSOLVER); NULL when the
 *             backend has none, which the strategy that would use it checks.
 *  stat  what the context statistics record: QUERY (nothing: a question
 *        about the backend, no work), ASYNC (the call), WAIT (the op waits for the device before it returns),
 *        H2D / D2H (m x n elements of dt copied host -> device / device ->
 *        host; the op's 2nd-4th parameters are dt, m, n).
 *
 * Rules every op follows:
 *  - it returns 0 or a library status (QRU_ERR_DEVICE, QRU_ERR_ALLOC, ...);
 *  - it is asynchronous with respect to the host where the backend allows
 *    (work is queued on the context's stream/queue), unless its comment says
 *    it returns a value on the host;
 *  - scalars that the algorithm computes on the device (tau of a Householder
 *    reflector, Givens c and s) stay in device memory (qru_ptr), so an
 *    update needs no host round trip per reflector;
 *  - sizes may be zero (then nothing is done).
 * 'dt' is the element type of every array argument; transpose/side/uplo/
 * diag flags are the BLAS characters.
 *
 * Complex element types (QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE; only where
 * the backend's supports() says so): arrays of
 * interleaved (re, im) pairs, offsets and leading dimensions in complex
 * elements; scalars that the op takes as double (alpha, beta, laset's
 * values) are real.  ' in the contracts below is the conjugate transpose
 * and the conventions are LAPACK's:
 *  - the algorithm layer passes 'C' where it means A' (the adjoint: Q' b,
 *    W' C, ...), 'T' only where it means the plain transpose; a backend
 *    treats 'C' as 'T' for float and double (as the BLAS do), so one call
 *    serves all four types;
 *  - transpose writes B = A' (the conjugate transpose);
 *  - syrk is herk for a complex type (A'A, C's diagonal real);
 *  - house is zlarfg (beta real, tau complex; x = 0 gives tau = 0) and
 *    larf applies H' = I - conj(tau) [1; v][1; v]' (zgeqr2's step), so
 *    that the panel loop of panel_qr leaves R = P' A with P = I + W Y';
 *  - a Givens rotation is zlartg's: c real (stored as a complex element),
 *    s complex, G = [c s; -conj(s) c] acting on pairs as BLAS rot does
 *    (x := c x + s y, y := c y - conj(s) x); givens_make's r is
 *    sign(a) sqrt(|a|^2 + |b|^2), not >= 0;
 *  - a rotation applied to the rows of an array acts as G, one applied to
 *    its columns (from the right: Q's, or the rows of a conjugate-
 *    transposed copy) must act as G', i.e. with conj(s): the algorithm
 *    layer applies the (c, s) formed on a conjugate-transposed copy (as
 *    the column insertion's sweeps are) to Q directly and to d through
 *    its conjugate transpose;
 *  - potrf_full is the Hermitian potrf (its pivots the real parts of the
 *    diagonal), and so are potrf_panel and the Cholesky batches (an
 *    upper factor's page is U = L', the conjugate transpose; C's other
 *    triangle in the insertion's diagonal block the conjugate); chol_rot
 *    and the batches rotate with a real L(i,i) (c real, s = w(i) /
 *    L(i,i)); an info or cnt slot of a complex type is its real part;
 *  - the ops of the solvers and of the real-only structured passes
 *    (chol_r1_*, omp_gram_step, lars_gram_step) take no complex data
 *    yet: the public routines refuse it first (qru_check_real), the
 *    update policy and qru_chol_update do not choose those passes for it,
 *    and the ops return QRU_ERR_UNSUPPORTED;
 *  - the least-squares batches' ops (lsq_batch_*) take complex data with
 *    the conventions above: their rotations are zlartg's (dlartg's
 *    formulas in the contracts below are the real case: |f| for f's
 *    magnitude, sign(f) = f / |f|, s = conj(g / r), a row's partner
 *    rotated by -conj(s)), their rotations of Q1's columns act with
 *    conj(s), Gram-Schmidt and the completions use Q1', and the sums of
 *    squares (rho2, the norms of the rank rules) are of moduli;
 *  - a backend's table says which ops take complex data (complex_ops:
 *    the CPU all but the real-only ones above, CUDA and OpenCL the ops of
 *    the QR family, the Cholesky factorisation and the triangular solves,
 *    chol_rot, the Cholesky batches and the least-squares batches' ops);
 *    a routine that would reach another op refuses complex data up front
 *    (qru_check_complex_ops);
 *  - an OPT op a backend has for real types only runs its reference op
 *    for complex data (the table's real_only_ops, qru_op_native_dt).
 */
#ifndef QRU_OPS_H
#define QRU_OPS_H

/* clang-format off */
#define QRU_OPS(QRU_OP) \
    /* ---- synchronisation and memory ---- */ \
    /* Waits until the work queued on the context's stream/queue is done. */ \
    QRU_OP(sync, (qru_context *ctx), (ctx), REQ, WAIT) \
    /* host -> device, m x n block, host leading dimension lds. */ \
    QRU_OP(upload, (qru_context *ctx, qru_dtype dt, int m, int n, const void *src, int lds, qru_ptr dst, int ldd), (ctx, dt, m, n, src, lds, dst, ldd), REQ, H2D) \
    /* device -> host; returns when the data is on the host. */ \
    QRU_OP(download, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src, int lds, void *dst, int ldd), (ctx, dt, m, n, src, lds, dst, ldd), REQ, D2H) \
    /* device -> device m x n copy.  Source and destination may overlap only \
     * if they have the same leading dimension and the destination starts at \
     * a lower or equal address in column order (i.e. moves towards the \
     * start, as when rows/columns are deleted); otherwise they must not \
     * overlap. */ \
    QRU_OP(copy, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr src, int lds, qru_ptr dst, int ldd), (ctx, dt, m, n, src, lds, dst, ldd), REQ, ASYNC) \
    /* A(i,j) = offdiag for i != j, diag for i == j, restricted to the part \
     * named by uplo: 'U' strictly upper + diagonal, 'L' strictly lower + \
     * diagonal, 'A' all. (LAPACK laset.) */ \
    QRU_OP(laset, (qru_context *ctx, qru_dtype dt, char uplo, int m, int n, double offdiag, double diag, qru_ptr A, int lda), (ctx, dt, uplo, m, n, offdiag, diag, A, lda), REQ, ASYNC) \
    /* B = A' for an m x n A (the tiled transpose kernel of the \
     * dissertation, figure 3.4).  A and B must not overlap. */ \
    QRU_OP(transpose, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A, int lda, qru_ptr B, int ldb), (ctx, dt, m, n, A, lda, B, ldb), REQ, ASYNC) \
    /* ---- BLAS ---- */ \
    QRU_OP(gemm, (qru_context *ctx, qru_dtype dt, char transa, char transb, int m, int n, int k, double alpha, qru_ptr A, int lda, qru_ptr B, int ldb, double beta, qru_ptr C, int ldc), (ctx, dt, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), REQ, ASYNC) \
    /* count products of pages: for p = 0 .. count-1, with X_p the page of \
     * X at X + p sX (element strides), \
     *   C_p = alpha op(A_p) op(B_p) + beta C_p  (op: 'N', 'T', 'C'; the \
     * gemm op's rules for each page), in ONE call (cuBLAS and CLBlast \
     * <t>gemmStridedBatched; the CPU a page at a time on the batch \
     * threads).  The pages of C must not overlap each other, A's or \
     * B's.  The products of a batch's problems of one shape, where a \
     * gemm a problem would be a launch a problem. */ \
    QRU_OP(gemm_batched, (qru_context *ctx, qru_dtype dt, char transa, char transb, int m, int n, int k, double alpha, qru_ptr A, int lda, size_t sA, qru_ptr B, int ldb, size_t sB, double beta, qru_ptr C, int ldc, size_t sC, int count), (ctx, dt, transa, transb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, count), REQ, ASYNC) \
    QRU_OP(trsm, (qru_context *ctx, qru_dtype dt, char side, char uplo, char transa, char diag, int m, int n, double alpha, qru_ptr A, int lda, qru_ptr B, int ldb), (ctx, dt, side, uplo, transa, diag, m, n, alpha, A, lda, B, ldb), REQ, ASYNC) \
    /* Euclidean norm of each of the n columns of the m x n A, written to \
     * host doubles; returns when the values are on the host. */ \
    QRU_OP(col_norms, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A, int lda, double *norms), (ctx, dt, m, n, A, lda, norms), REQ, WAIT) \
    /* The same norms, computed in dt, into the device vector out (n \
     * elements, stride 1; not overlapping A): queued, so that several \
     * blocks' norms come to the host in one download. */ \
    QRU_OP(col_norms_dev, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr A, int lda, qru_ptr out), (ctx, dt, m, n, A, lda, out), REQ, ASYNC) \
    /* The number of elements of the m x n A that are not finite (NaN, \
     * +Inf or -Inf), written to *count on the host; returns when it is \
     * there.  Only the part named by uplo is read, as in laset: 'A' all, \
     * 'U' the upper trapezoid (i <= j), 'L' the lower trapezoid (i >= j). \
     * *count is exact while it is below 2^31 (larger counts are clamped to \
     * INT_MAX, never reported as 0).  Used by the non-finite check of \
     * QRU_OPTION_CHECK_FINITE (qru_check_finite, matrix.c). */ \
    QRU_OP(count_nonfinite, (qru_context *ctx, qru_dtype dt, char uplo, int m, int n, qru_ptr A, int lda, int *count), (ctx, dt, uplo, m, n, A, lda, count), REQ, WAIT) \
    /* The number of nonzero elements of the n-vector x (stride 1), \
     * written to *count on the host; returns when it is there (clamped \
     * as count_nonfinite's).  The verdicts of a batched op \
     * (qru_batch_verdicts, batch.c): mostly all zero, so one number \
     * decides whether the vector itself is read. */ \
    QRU_OP(count_nonzero, (qru_context *ctx, qru_dtype dt, int n, qru_ptr x, int *count), (ctx, dt, n, x, count), REQ, WAIT) \
    /* The verdict flag: *flag a handle on one element of type dt that \
     * the ops taking an 'any' argument may store to from the device, \
     * *hp its address on the host, where their stores are read after \
     * the next wait (sync); the caller zeroes it there before such an \
     * op.  Both NULL where the backend has none (the reference): the \
     * verdicts are then counted (count_nonzero).  One flag a context, \
     * apart from every other buffer. */ \
    QRU_OP(verdict_flag, (qru_context *ctx, qru_dtype dt, qru_ptr *flag, void **hp), (ctx, dt, flag, hp), OPT, QUERY) \
    /* ---- the dissertation's Householder kernels ---- */ \
    /* Householder vector (houseKernel, section 3.1, with LAPACK's larfg \
     * conventions).  alpha is one element, x an n-vector (contiguous). \
     * Finds H = I - tau [1; v][1; v]' with H [alpha; x] = [beta; 0]. \
     * On exit: *alpha = beta, v (n elements) holds the tail of the vector, \
     * *tau holds tau (device memory), and x is set to zero unless v and x \
     * are the same memory.  If x is already zero, tau = 0 and v = 0. */ \
    QRU_OP(house, (qru_context *ctx, qru_dtype dt, int n, qru_ptr alpha, qru_ptr x, qru_ptr v, qru_ptr tau), (ctx, dt, n, alpha, x, v, tau), REQ, ASYNC) \
    /* Applies H = I - tau [1; v][1; v]' from the left to the (1 + m) x n \
     * matrix [top; C]: top is a row of n elements with stride ldt, C is \
     * m x n with leading dimension ldc, v has m elements, tau is one element \
     * in device memory.  work: n elements. */ \
    QRU_OP(larf, (qru_context *ctx, qru_dtype dt, int m, int n, qru_ptr v, qru_ptr tau, qru_ptr top, int ldt, qru_ptr C, int ldc, qru_ptr work), (ctx, dt, m, n, v, tau, top, ldt, C, ldc, work), REQ, ASYNC) \
    /* WY accumulation (section 3.1, lines 34-39 of the listing): given the \
     * m x j blocks W and Y of P_1...P_j = I + W Y', the reflector \
     * P_{j+1} = I - tau y y' with y = Y(:, j) (column j, 0-based), writes \
     * W(:, j) = -tau (y + W(:, 0:j-1) (Y(:, 0:j-1)' y)). \
     * work: j elements. */ \
    QRU_OP(wy_append, (qru_context *ctx, qru_dtype dt, int m, int j, qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work), (ctx, dt, m, j, Y, ldy, W, ldw, tau, work), REQ, ASYNC) \
    /* Computes rotation t from the pair a = X[t*inc], b = X[t*inc + ps] so \
     * that G_t [a; b] = [r; 0]:  r = sqrt(a^2 + b^2) evaluated without \
     * overflow, c = a / r, s = b / r, and c = 1, s = 0 when b = 0 (also when \
     * a = b = 0).  Writes cs[0 .. 2 cnt - 1]; X is only read.  cs must not \
     * overlap X.  Accuracy: for float, evaluate r, c, s in double and round \
     * c and s once (the CPU backend does); a float-only evaluation biases \
     * c^2 + s^2 - 1, which adds up along the long chains of rotations of \
     * the updates (measured: ||Q'Q - I|| 5x larger after 500 rotations). */ \
    QRU_OP(givens_make, (qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X, int inc, int ps, qru_ptr cs), (ctx, dt, cnt, X, inc, ps, cs), REQ, ASYNC) \
    /* Applies rotation t (cs as written by givens_make) to the len pairs of \
     * rotation t, for every t.  The 2 len cnt elements touched must be \
     * distinct (the rotations of one call are independent, so a backend may \
     * run them in parallel); cs must not overlap X. */ \
    QRU_OP(givens_apply, (qru_context *ctx, qru_dtype dt, int cnt, int len, qru_ptr cs, qru_ptr X, int inc, int ps, int es), (ctx, dt, cnt, len, cs, X, inc, ps, es), REQ, ASYNC) \
    /* B := alpha A + beta B for m x n A and B (the dissertation's doubleSum \
     * with one operand).  beta = 0: B is not read (B := alpha A); \
     * alpha = 0: A is not read.  A and B must not overlap unless they are \
     * the same array with lda = ldb. */ \
    QRU_OP(geadd, (qru_context *ctx, qru_dtype dt, int m, int n, double alpha, qru_ptr A, int lda, double beta, qru_ptr B, int ldb), (ctx, dt, m, n, alpha, A, lda, beta, B, ldb), REQ, ASYNC) \
    /* geadd on count pages in ONE call: for p = 0 .. count-1, \
     * B_p := alpha A_p + beta B_p (m x n, A_p at A + p sA, B_p at \
     * B + p sB, element strides; geadd's rules for each page: with \
     * beta = 0 a copy of the pages).  The pages of B must not overlap \
     * each other nor, unless the same array with lda = ldb and sA = sB, \
     * A's. */ \
    QRU_OP(geadd_batched, (qru_context *ctx, qru_dtype dt, int m, int n, double alpha, qru_ptr A, int lda, size_t sA, double beta, qru_ptr B, int ldb, size_t sB, int count), (ctx, dt, m, n, alpha, A, lda, sA, beta, B, ldb, sB, count), REQ, ASYNC) \
    /* BLAS syrk on the uplo triangle of the n x n C: \
     *   trans 'N': C = alpha A A' + beta C, A is n x k; \
     *   trans 'T': C = alpha A' A + beta C, A is k x n. \
     * The other strict triangle of C is neither read nor written.  k may \
     * be 0 (then C = beta C on the triangle). */ \
    QRU_OP(syrk, (qru_context *ctx, qru_dtype dt, char uplo, char trans, int n, int k, double alpha, qru_ptr A, int lda, double beta, qru_ptr C, int ldc), (ctx, dt, uplo, trans, n, k, alpha, A, lda, beta, C, ldc), REQ, ASYNC) \
    /* LAPACK lacpy: B = A on the part named by uplo of the m x n arrays \
     * ('L': lower trapezoid with the diagonal, 'U': upper trapezoid with \
     * the diagonal, 'A': all).  The rest of B is not written; A and B must \
     * not overlap. */ \
    QRU_OP(lacpy, (qru_context *ctx, qru_dtype dt, char uplo, int m, int n, qru_ptr A, int lda, qru_ptr B, int ldb), (ctx, dt, uplo, m, n, A, lda, B, ldb), REQ, ASYNC) \
    /* Unblocked Cholesky of the n x n diagonal block A in ONE call, on the \
     * uplo triangle only ('L': A = L L', 'U': A = U' U; the other strict \
     * triangle is neither read nor written).  info is ONE element of type \
     * dt in device memory holding an integer value: \
     *  - if info != 0 on entry, the op does nothing (an earlier block \
     *    failed; the algorithm layer reads info once, at the end); \
     *  - otherwise, for j = 0..n-1 in order, d = A(j,j) - sum_{t<j} L(j,t)^2 \
     *    ('U': U(t,j)^2); unless d > 0 and d is finite (d <= 0, NaN or \
     *    Inf fail) the op stores info = base + j + 1 and stops in this \
     *    failure state: columns ('U': rows) < j hold their factor (all of \
     *    L(i,t), t < j, i >= t) and columns ('U': rows) j..n-1 of the \
     *    triangle hold those of the identity (L(j,j) = 1, L(i,c) = 0 for \
     *    i > c >= j).  So the trsm / gemm / syrk that the blocked \
     *    algorithms queue after the panel without reading info (the rows \
     *    below the block, the trailing matrix) meet only finite values in \
     *    the block's columns >= j, and the columns < j of the rows below \
     *    come out as their factor whatever the BLAS does with NaN / Inf \
     *    (0 * NaN) in the failed part; \
     *    else L(j,j) = sqrt(d) and L(i,j) = (A(i,j) - sum_{t<j} L(i,t) \
     *    L(j,t)) / L(j,j) for i > j (for 'U' the transposed formulas). \
     * On success info is not written; info keeps the first failure. */ \
    QRU_OP(potrf_panel, (qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A, int lda, qru_ptr info, int base), (ctx, dt, uplo, n, A, lda, info, base), REQ, ASYNC) \
    /* Rank-k update (sign > 0) or downdate (sign < 0) of the n x n lower \
     * triangular factor L by the n x k matrix W, by rotations: \
     *   for i = 0..n-1, for q = 0..k-1 (in this order), with a = L(i,i), \
     *   b = W(i,q):  r = sqrt(a^2 + b^2) (update, computed without \
     *   overflow) or r = sqrt((a - b)(a + b)) (downdate); c = r/a, s = b/a; \
     *   L(i,i) = r; for j > i:  L(j,i) = (L(j,i) + sign s W(j,q)) / c, \
     *   then W(j,q) = c W(j,q) - s L(j,i)  (with the new L(j,i)). \
     * The strictly upper part of L is neither read nor written; W is \
     * overwritten.  info as in potrf_panel: if info != 0 on entry nothing \
     * is done; if a = 0 or r is not > 0 and finite, the op stores \
     * info = base + i + 1 and stops (L and W then hold partial results). */ \
    QRU_OP(chol_rot, (qru_context *ctx, qru_dtype dt, int n, int k, int sign, qru_ptr L, int ldl, qru_ptr W, int ldw, qru_ptr info, int base), (ctx, dt, n, k, sign, L, ldl, W, ldw, info, base), REQ, ASYNC) \
    /* The rank-k update (sign > 0) or downdate (sign < 0) of count \
     * independent Cholesky factors (qru_chol_update_batch), each by the \
     * rotations of chol_rot (for each column i, the k rotations with \
     * W(i,q), q = 0..k-1, in order) on a copy, and judged by the \
     * definiteness rule of qru.h.  Problem b (0 <= b < count) reads the \
     * n x n page L + b sL (ld ldl; uplo 'L': its lower triangle; 'U': the \
     * upper triangle of U = L', read as L) and the n x k page W + b sW \
     * (ld ldw), forms A1's diagonal a_i = ||L(i,:)||^2 + sign \
     * ||W(i,:)||^2 and tol = n eps max_i a_i over the finite a_i, and \
     * fails at the first column j (1-based) where a rotation fails (as in \
     * chol_rot) or a_j is not finite or the new pivot L1(j,j)^2 is not \
     * finite or <= tol: then info[b] = j and its L1 page is not written; \
     * else info[b] = 0 and the uplo triangle of the page L1 + b s1 (ld \
     * ld1) is written.  L1 is L (the same pointer, ld and stride: in \
     * place) or does not overlap it; W is not modified.  info: count \
     * elements of type dt in device memory (integer values), written for \
     * every problem.  With cnt (count elements of type dt in device \
     * memory, integer values in 0..k), problem b is updated by the first \
     * cnt[b] columns of its W page alone (A1's diagonal and the rule as \
     * for rank cnt[b]; the columns after them not read), and where \
     * cnt[b] = 0 its pages are not written and info[b] = 0; cnt a NULL \
     * handle: every problem rank k.  work: count * \
     * qru_chol_batch_work(n, k) elements (qru_internal.h), or one \
     * problem's share where qru_chol_batch_local(dt, n, k) (the GPU \
     * kernels keep such problems in local memory).  n >= 1, k >= 0, \
     * count >= 0. */ \
    QRU_OP(chol_update_batch, (qru_context *ctx, qru_dtype dt, char uplo, int n, int k, int sign, int count, qru_ptr L, int ldl, size_t sL, qru_ptr W, int ldw, size_t sW, qru_ptr L1, int ld1, size_t s1, qru_ptr info, qru_ptr cnt, qru_ptr work), (ctx, dt, uplo, n, k, sign, count, L, ldl, sL, W, ldw, sW, L1, ld1, s1, info, cnt, work), REQ, ASYNC) \
    /* p rows and columns inserted at position k of count independent \
     * Cholesky factors (qru_chol_insert_batch), each judged by the \
     * definiteness rule of qru.h for order n1 = n + p.  Problem b reads \
     * the n x n page L + b sL (ld ldl; uplo 'L': its lower triangle; 'U': \
     * the upper triangle of U = L', read as L) and the n1 x p page \
     * C + b sC (ld ldc: the new columns of A1; of its diagonal block \
     * C(k:k+p-1, :) only the uplo triangle, the other half by symmetry). \
     * A1's diagonal: ||L(i,:)||^2 for the old rows, C(k+q, q) for the new \
     * ones; tol = n1 eps max over its finite entries.  The new factor: \
     * L1(0:k-1, 0:k-1) = L11, the new rows X' with X = L11 \ C(0:k-1,:), \
     * the block D = chol(C2 - X'X) (C2 the diagonal block), below it \
     * Y = (C3 - L21 X) / D' (C3 = C(k+p:n1-1,:)) and the old rows L21 in \
     * the columns 0..k-1, and the trailing block L22 downdated by Y as \
     * chol_update_batch does (sign -1).  It fails at the first column j \
     * (1-based) where A1(j,j) is not finite, a pivot (L11(j,j)^2, the \
     * pivots of D before their square roots, the trailing block's new \
     * pivots) is not finite or <= tol, or a rotation fails: then \
     * info[b] = j and its L1 page is not written; else info[b] = 0 and the \
     * uplo triangle of the n1 x n1 page L1 + b s1 (ld ld1) is written. \
     * L1 is L (the same pointer, ld and stride: in place) or does not \
     * overlap it; C overlaps neither.  info: count elements of type dt in \
     * device memory, written for every problem.  With cnt (count \
     * elements of type dt in device memory, integer values), problem b \
     * takes part only where cnt[b] != 0: else its pages are not written \
     * and info[b] = 0; cnt a NULL handle: every problem.  work: count * \
     * qru_chol_batch_work(n1, p) elements, or one problem's share where \
     * qru_chol_batch_local(dt, n1, p) (the GPU kernels keep such problems \
     * in local memory).  n >= 0, 0 <= k <= n, p >= 1, count >= 0. */ \
    QRU_OP(chol_insert_batch, (qru_context *ctx, qru_dtype dt, char uplo, int n, int k, int p, int count, qru_ptr L, int ldl, size_t sL, qru_ptr C, int ldc, size_t sC, qru_ptr L1, int ld1, size_t s1, qru_ptr info, qru_ptr cnt, qru_ptr work), (ctx, dt, uplo, n, k, p, count, L, ldl, sL, C, ldc, sC, L1, ld1, s1, info, cnt, work), REQ, ASYNC) \
    /* The rows and columns k..k+p-1 removed from count independent \
     * Cholesky factors (qru_chol_delete_batch), each judged by the \
     * definiteness rule of qru.h for order n1 = n - p.  Problem b reads \
     * the n x n page L + b sL (as chol_insert_batch).  A1's diagonal: \
     * ||L(i,:)||^2 of the kept rows; tol = n1 eps max over its finite \
     * entries.  The new factor: L11 and L31 (rows k+p.., columns 0..k-1) \
     * kept, and the trailing block L33 (rows and columns k+p..) updated by \
     * L32 = L(k+p:n-1, k:k+p-1) as chol_update_batch does (sign +1). \
     * It fails at the first column j (1-based) where A1(j,j) is not \
     * finite, a pivot (L11(j,j)^2, the trailing block's new pivots; p = 0: \
     * L's own) is not finite or <= tol, or a rotation fails: then \
     * info[b] = j and its L1 page is not written; else info[b] = 0 and the \
     * uplo triangle of the n1 x n1 page L1 + b s1 (ld ld1) is written. \
     * L1 is L (in place, as chol_insert_batch) or does not overlap it. \
     * info and cnt as chol_insert_batch; work: count * \
     * qru_chol_batch_work(n1, p) elements, or one problem's share where \
     * qru_chol_batch_local(dt, n1, p).  n1 >= 1, 0 <= k <= n - p, \
     * p >= 0, count >= 0. */ \
    QRU_OP(chol_delete_batch, (qru_context *ctx, qru_dtype dt, char uplo, int n, int k, int p, int count, qru_ptr L, int ldl, size_t sL, qru_ptr L1, int ld1, size_t s1, qru_ptr info, qru_ptr cnt, qru_ptr work), (ctx, dt, uplo, n, k, p, count, L, ldl, sL, L1, ld1, s1, info, cnt, work), REQ, ASYNC) \
    /* Rows added to count independent Q-less least-squares \
     * factorisations (qru_lsq_batch_add_rows): problem b (0 <= b < count) \
     * holds the m x m upper triangle R_b = R + b sR (ld ldr; its strictly \
     * lower part is neither read nor written), the m x r page \
     * d_b = D + b sD (ld ldd) and the r residual sums of squares \
     * rho2[b r + q] (device, dt).  For each of the p rows i of the pages \
     * U + b sU (p x m, ldu) and E + b sE (p x r, lde), in order, with the \
     * row u = U(i,:), e = E(i,:) copied: for j = 0..m-1, the rotation of \
     * LAPACK's dlartg (c >= 0) with f = R(j,j), g = u(j): g = 0: c = 1, \
     * s = 0; f = 0: c = 0, s = sign(g), R(j,j) = |g|; else \
     * t = sqrt(f^2 + g^2) (without overflow), c = |f| / t, \
     * R(j,j) = sign(f) t, s = g / R(j,j); then for the columns k > j of \
     * [R d] with x = [R d](j,k), y = [u e](k): [R d](j,k) = c x + s y, \
     * [u e](k) = c y - s x.  Then rho2[b r + q] += e(q)^2.  With cnt \
     * (count elements of type dt in device memory, integer values in \
     * 0..p), problem b takes only its first cnt[b] rows and is left bit \
     * for bit when cnt[b] = 0; cnt a NULL handle: every problem p rows. \
     * U, E and cnt are not modified and overlap none of R, D, rho2.  work: count * \
     * qru_lsq_batch_work(m, r) elements, none where \
     * qru_lsq_batch_local(m, r) (qru_internal.h).  m >= 1, r >= 1, \
     * p >= 0, count >= 0. */ \
    QRU_OP(lsq_batch_add_rows, (qru_context *ctx, qru_dtype dt, int m, int r, int p, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr rho2, qru_ptr U, int ldu, size_t sU, qru_ptr E, int lde, size_t sE, qru_ptr cnt, qru_ptr work), (ctx, dt, m, r, p, count, R, ldr, sR, D, ldd, sD, rho2, U, ldu, sU, E, lde, sE, cnt, work), REQ, ASYNC) \
    /* The solutions X_b = R_b \ d_b of count Q-less factorisations \
     * (qru_lsq_batch_solve; R_b, d_b as in lsq_batch_add_rows) by back \
     * substitution, each judged first by the QR rank rule of qru.h with \
     * the row count n, which every problem shares: problem b fails at \
     * the first column j (1-based) where R(j,j) is not finite or \
     * |R(j,j)| <= max(n, m) eps max_c ||R(0:c,c)||_2 (the maximum over \
     * the finite norms); then info[b] = j and its page X + b sX (m x r, \
     * ldx) is not written; else info[b] = 0 and the page holds X_b.  info: \
     * count elements of type dt in device memory (integer values), \
     * written for every problem; any: a NULL handle, or the backend's \
     * verdict_flag, where a failing problem stores a nonzero value.  \
     * work as for lsq_batch_add_rows.  X overlaps none of R, D.  \
     * m >= 1, r >= 1, n >= 0, count >= 0. */ \
    QRU_OP(lsq_batch_solve, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr X, int ldx, size_t sX, qru_ptr info, qru_ptr any, qru_ptr work), (ctx, dt, m, r, n, count, R, ldr, sR, D, ldd, sD, X, ldx, sX, info, any, work), REQ, ASYNC) \
    /* lsq_batch_add_rows (every problem p rows: cnt a NULL handle), then \
     * lsq_batch_solve of the grown problems with the row count n (the \
     * rows after the addition): R, D, rho2, X, info and any as the two \
     * ops leave them, in one pass over each problem's [R d] where the \
     * backend can.  X overlaps none of R, D, rho2, U, E.  work as for \
     * lsq_batch_add_rows.  Reference: the two ops. */ \
    QRU_OP(lsq_batch_add_solve, (qru_context *ctx, qru_dtype dt, int m, int r, int p, int n, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr rho2, qru_ptr U, int ldu, size_t sU, qru_ptr E, int lde, size_t sE, qru_ptr X, int ldx, size_t sX, qru_ptr info, qru_ptr any, qru_ptr work), (ctx, dt, m, r, p, n, count, R, ldr, sR, D, ldd, sD, rho2, U, ldu, sU, E, lde, sE, X, ldx, sX, info, any, work), OPT, ASYNC) \
    /* Rows added to count independent thin-form least-squares \
     * factorisations (qru_lsq_batch_add_rows of a QRU_Q_THIN batch): \
     * problem b holds R_b, d_b as in lsq_batch_add_rows, Q1_b = Q + b sQ \
     * (n x m, ldq >= n + p) and the residuals E_b = E + b sE (n x r, \
     * lde >= n + p).  The rows [u e] of U + b sU (p x m, ldu) and \
     * F + b sF (p x r, ldf) are rotated into [R d] exactly as in \
     * lsq_batch_add_rows (dlartg's rotations, row by row, j = 0..m-1), \
     * and each rotation (i, j) with its c, s also acts on the pair \
     * (Q(:,j), x_i), Q(:,j) := c Q(:,j) + s x_i, x_i := c x_i - s Q(:,j), \
     * where x_i (n + p rows) starts as the unit vector of row n + i and \
     * Q's rows n .. n+p-1 start as zeros; then, with du_i the rotated \
     * e-part of row i, E := [E; 0] + sum_i x_i du_i (rows n .. n+p-1 of \
     * Q and E written).  The residual sums of squares are not kept (E \
     * holds them).  U and F overlap none of R, D, Q, E.  work: count * \
     * qru_lsq_batch_q_add_work(n, m, r, p) elements (qru_internal.h). \
     * m >= 1, r >= 1, n >= 0, p >= 0, count >= 0. */ \
    QRU_OP(lsq_batch_add_rows_q, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int p, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr U, int ldu, size_t sU, qru_ptr F, int ldf, size_t sF, qru_ptr work), (ctx, dt, m, r, n, p, count, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde, sE, U, ldu, sU, F, ldf, sF, work), REQ, ASYNC) \
    /* The rows k .. k+p-1 removed from count thin-form factorisations \
     * (qru_lsq_batch_remove_rows; R_b, d_b, Q1_b, E_b as in \
     * lsq_batch_add_rows_q, n rows each), the thin algorithm of \
     * qru_lsq_remove_rows per problem: Qk = Q1(K, :), Z = E_K - Q1 Qk' \
     * once reorthogonalised (Z -= Q1 (Q1' Z)), Z = Qz Rz by modified \
     * Gram-Schmidt run twice per column (Rz p x p upper, diagonal >= 0), \
     * judged by the removals' rank rule with tol = 2 max(n, m) eps: \
     * the first j (1-based) with Rz(j,j) not finite or <= tol, else, \
     * where s = 1 / ||inv(Rz)||_F (0 when not finite) is not > tol, the \
     * position of the first smallest pivot.  A problem that fails gets \
     * info[b] = j and its pages are not written.  Otherwise info[b] = 0, \
     * dz = Qz' E, E := E - Qz dz, and the staggered sweeps that turn \
     * [Qk Rz'] (p x (m + p)) into [D 0] (sweep q zeroes the entries \
     * m+q .. q+1 of row q by rotations of the column pairs (j-1, j), from \
     * the right) are applied to the columns of [Q1 Qz] and to the rows \
     * of [R d; 0 dz]; R1 (exact zeros below the diagonal) and d1 are \
     * their rows p .. m+p-1, Q1 := columns p .. m+p-1 and E without the \
     * rows K (rows k+p .. n-1 move up by p; the rows n-p .. n-1 of the \
     * pages are left unspecified).  info: count elements of type dt \
     * in device memory (integer values), written for every problem. \
     * With cnt (count elements of type dt in device memory, integer \
     * values), only the problems b with cnt[b] = p take part: of the \
     * others nothing is read or written, info[b] neither (so calls with \
     * other p over the same problems serve the rest); cnt a NULL \
     * handle: every problem.  work: count * \
     * qru_lsq_batch_q_rm_work(n, m, r, p) elements.  m >= 1, r >= 1, \
     * 0 <= k, 1 <= p, k + p <= n, n - p >= m, count >= 0. */ \
    QRU_OP(lsq_batch_remove_rows_q, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr info, qru_ptr cnt, qru_ptr work), (ctx, dt, m, r, n, k, p, count, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde, sE, info, cnt, work), REQ, ASYNC) \
    /* The columns k .. k+p-1 removed from count least-squares \
     * factorisations in place (qru_lsq_batch_remove_cols): problem b \
     * holds R_b, d_b as in lsq_batch_add_rows (m x m, m x r) and either \
     * (thin = 0, the Q-less form; Q and E not used) the r sums of \
     * squares rho2[b r + q] or \
     * (thin = 1) Q1_b, E_b as in lsq_batch_add_rows_q (n rows; rho2 is \
     * then neither read nor written).  With m1 = m - p and \
     * H = [R(:, 0:k) R(:, k+p:m)] (m x m1), [H d] is rotated: for \
     * j = k .. m1-1, for i = j+p down to j+1, the rotation of the rows \
     * (i-1, i) that zeroes H(i,j) against f = H(i-1,j) (g = H(i,j) = 0: \
     * c = 1, s = 0; else t = sqrt(f^2 + g^2) without overflow, c = f / t, \
     * s = g / t; row i-1 := c row(i-1) + s row(i), row i := c row(i) - \
     * s row(i-1)), applied to the columns j .. m1-1 of H and to d (the \
     * zeroed entries exact zeros).  Then R(0:m, k:m1) := the columns \
     * k .. m1-1 of the rotated H (zeros below the diagonal), \
     * d(0:m1, :) := the rotated d's rows 0 .. m1-1, and with G its rows \
     * m1 .. m-1 (p x r): thin = 0: rho2[b r + q] += ||G(:,q)||^2; \
     * thin = 1: the same rotations on the column pairs (i-1, i) of Q1, \
     * then E += Q1(:, m1:m) G.  R1, d1, Q1 are the leading m1 columns \
     * (rows) of the pages; the rest of them is left unspecified.  work: \
     * count * qru_lsq_batch_rmc_work(m, r, k, p) elements \
     * (qru_internal.h).  m >= 2, r >= 1, 1 <= p < m, 0 <= k <= m1, \
     * n >= 0, count >= 0. */ \
    QRU_OP(lsq_batch_remove_cols, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p, int count, int thin, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr rho2, qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr work), (ctx, dt, m, r, n, k, p, count, thin, R, ldr, sR, D, ldd, sD, rho2, Q, ldq, sQ, E, lde, sE, work), REQ, ASYNC) \
    /* The columns of V inserted after column k of count thin-form \
     * factorisations, from their pages into new ones \
     * (qru_lsq_batch_add_cols): problem b reads R_b, d_b, Q1_b, E_b as \
     * in lsq_batch_add_rows_q (n rows, m unknowns) and the n x p page \
     * V_b = V + b sV (ldv), and writes the factorisation of \
     * [A(:, 0:k) V A(:, k:m)] into R1 + b s1 ((m+p) x (m+p), ld1), \
     * D1 + b sD1 ((m+p) x r, ldd1), Q1' = Q1n + b sQ1 (n x (m+p), ldq1) \
     * and E1 + b sE1 (n x r, lde1): Q1' = [Q1 V]; with Z its last p \
     * columns, W = Q1' Z, Z -= Q1 W, C = Q1' Z, Z -= Q1 C (classical \
     * Gram-Schmidt twice), Z = Qz Rz by modified Gram-Schmidt run twice \
     * per column (Rz p x p upper), dz = Qz' E, E1 = E - Qz dz; then \
     * [R1 d1] = [R(:,0:k) W+C R(:,k:m) d; 0 Rz 0 dz] rotated: for \
     * j = 0 .. p-1, for i = m+j down to k+j+1, the rotation (as \
     * lsq_batch_remove_cols) of the rows (i-1, i) that zeroes the entry \
     * (i, k+j), applied to the columns k+j .. m+p-1 of R1, to d1 and to \
     * the column pairs (i-1, i) of Q1' (R1 exact zeros below the \
     * diagonal).  The verdict, the QR rank rule of qru.h on the columns \
     * k .. m+p-1: info[b] = the first j (1-based) with R1(j,j) not finite \
     * or |R1(j,j)| <= max(n, m+p) eps max_c ||R1(0:c,c)||_2 (the finite \
     * norms), else 0; the new pages of a refused problem are left \
     * unspecified.  The old pages and V are only read; the new ones \
     * overlap none of them.  info: count elements of type dt in device \
     * memory (integer values), written for every problem.  work: count * \
     * qru_lsq_batch_acq_work(m, r, k, p) elements (qru_internal.h). \
     * m >= 1, r >= 1, p >= 1, 0 <= k <= m, n >= m + p, count >= 0. */ \
    QRU_OP(lsq_batch_add_cols_q, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int k, int p, int count, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr V, int ldv, size_t sV, qru_ptr R1, int ld1, size_t s1, qru_ptr D1, int ldd1, size_t sD1, qru_ptr Q1n, int ldq1, size_t sQ1, qru_ptr E1, int lde1, size_t sE1, qru_ptr info, qru_ptr work), (ctx, dt, m, r, n, k, p, count, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde, sE, V, ldv, sV, R1, ld1, s1, D1, ldd1, sD1, Q1n, ldq1, sQ1, E1, lde1, sE1, info, work), REQ, ASYNC) \
    /* The thin QR of count problems (qru_lsq_batch_create_ex of a \
     * QRU_Q_THIN batch): for each b, A_b = A + b sA (n x m, lda) and \
     * B_b = B + b sB (n x r, ldb), only read, are factored by Householder \
     * reflectors H_j = I - tau_j v_j v_j' with LAPACK's conventions \
     * (dgeqrf's: v_j(j) = 1, R(j,j) = beta of dlarfg, of either sign; \
     * tau_j = 0 where the column is zero below the diagonal), and \
     * R_b = R + b sR (m x m, ldr) := R with exact zeros below the \
     * diagonal, Q1_b = Q + b sQ (n x m, ldq) := the first m columns of \
     * H_0 ... H_{m-1} (orgqr), D_b = D + b sD (m x r, ldd) := the rows \
     * 0 .. m-1 of C = H_{m-1} ... H_0 B_b, E_b = E + b sE (n x r, lde) \
     * := B_b - Q1_b D_b (= H_0 ... H_{m-1} [0; C(m:n-1, :)], the GPU \
     * kernels' way; the CPU's is a GEMM).  No rank \
     * test and no verdict: a rank-deficient page gets its QR (Q1 \
     * orthonormal, small or zero pivots), a page with non-finite values \
     * non-finite results, and no problem's values reach another's pages. \
     * The rows n .. of the Q and E pages are not written.  A and B \
     * overlap none of R, D, Q, E.  Workspace query (asked of ctx->table, \
     * uncounted, as geqrf_full's): with a NULL handle in work nothing \
     * is done and *work_elems is set to the elements of type dt that \
     * work must hold for these sizes and count (work_elems is not used \
     * otherwise). \
     * n >= m >= 1, r >= 1, count >= 0. */ \
    QRU_OP(lsq_batch_geqr_thin, (qru_context *ctx, qru_dtype dt, int m, int r, int n, int count, qru_ptr A, int lda, size_t sA, qru_ptr B, int ldb, size_t sB, qru_ptr R, int ldr, size_t sR, qru_ptr D, int ldd, size_t sD, qru_ptr Q, int ldq, size_t sQ, qru_ptr E, int lde, size_t sE, qru_ptr work, size_t *work_elems), (ctx, dt, m, r, n, count, A, lda, sA, B, ldb, sB, R, ldr, sR, D, ldd, sD, Q, ldq, sQ, E, lde, sE, work, work_elems), REQ, ASYNC) \
    /* One step of the Gram form of orthogonal matching pursuit \
     * (qru_omp, src/solvers/omp.c) on its device state ws (the layout \
     * qru_omp_ws_of(n, m, ncoef), qru_internal.h, whose G and c0 the \
     * caller forms), judged on the device: the host queues steps and \
     * reads the state block when it likes.  k < 0 starts: c = c0, \
     * r = inv y (y: n elements, stride 1), rr = rr0, then the pick \
     * below with K = 0 chosen.  k >= 0, where the status is QRU_OMP_RUN \
     * (else nothing is done): column j = state[J] becomes the k-th \
     * (0-based), with w = R(0:k-1,k), l = R(k,k), zk = z(k) as the pick \
     * that chose j wrote them, \
     *   B(:,k) = b = (G(:,j) - B(:,0:k-1) w) / l,  c := c - b zk, \
     *   Qb(:,k) = q = (X(:,j) - Qb(:,0:k-1) w) / l,  r := r - q (zk inv), \
     *   rr = r' r, \
     * then the pick with K = k + 1 chosen.  The pick: status DONE where \
     * K = ncoef (not at the start); else, for K > 0 with \
     * rel = sqrt(max(rr, 0)) and y spanned where rel <= max(n, K+1) eps, \
     * TOL where thr >= 0 and (rel <= thr or spanned), else SPAN where \
     * spanned; else j = the first index of the largest |c(i)| (the first \
     * NaN wins): NONFINITE where c(j) is not finite, ZERO where it is 0, \
     * CHOSEN where j is in S(0:K-1); else R(0:K-1,K) = w = B(j,0:K-1)', \
     * d = G(j,j) - w' w, gmax the larger of state[GMAX] (0 at the start) \
     * and G(j,j) where that is finite, lim = max(n, K+1) eps gmax: \
     * REFUSED (state PIV = d, LIM = lim) unless d is finite and > lim; \
     * else R(K,K) = l = sqrt(d), z(K) = c(j) / l, S(K) = j, state \
     * GMAX = gmax, L = l, ZK = z(K) and the status stays RUN.  Every pick \
     * writes STATUS, K, J (0 before the argmax) and RR, and CJ = c(j) \
     * once it takes the argmax.  G(:,j) is read from the \
     * upper triangle; eps is dt's; the sums and the argmax run in a fixed \
     * order (every run gives the same bits).  n, m >= 1, \
     * 1 <= ncoef <= min(n, m), k < ncoef, m < 2^24. */ \
    QRU_OP(omp_gram_step, (qru_context *ctx, qru_dtype dt, int n, int m, int ncoef, int k, double inv, double rr0, double thr, qru_ptr X, int ldx, qru_ptr y, qru_ptr ws), (ctx, dt, n, m, ncoef, k, inv, rr0, thr, X, ldx, y, ws), REQ, ASYNC) \
    /* The two steps of the Gram active set of the solvers' Gram forms \
     * (src/solvers/gram_set.c, whose header describes the state): G is \
     * m x m (ld m, symmetric), Gs m x kmax (ld m), W kmax x kmax (ld \
     * kmax), V and T kmax-vectors, out the (m + 2 + kmax)-vector \
     * [corr; d; flag; z]; only the leading hw x hw of W and the first \
     * hw columns of Gs are used (1 <= hw <= kmax). \
     * gram_border borders column t of G on in slot q < hw, whose row \
     * and column of W are zero on entry and whose flag out[m + 1] is 0: \
     * Gs(:, q) = G(:, t); v = W' Gs(t, 0:hw-1)' (into V); d2 = G(t, t) \
     * - v' v; where d2 > 0 and finite: d = sqrt(d2), else d = 1 and \
     * out[m + 1] = 1 (potrf_panel's failure state); out[m] = d and \
     * W(0:hw-1, q) = [-W v; 1] / d with its 1 at row q.  T is scratch. \
     * gram_solve: first S(qs) = sv where 0 <= qs < hw (one element of the \
     * right-hand side changed with the solve itself; qs < 0: none), then \
     * V = W' S(0:hw-1), z = W V into out[m + 2 ..], corr = Gs z into \
     * out[0 .. m-1] (S: the kmax-vector of the right-hand side by \
     * slot).  The sums of the backends' kernels run in a fixed \
     * order (a run repeats bit for bit). */ \
    QRU_OP(gram_border, (qru_context *ctx, qru_dtype dt, int m, int kmax, int hw, int t, int q, qru_ptr G, qru_ptr Gs, qru_ptr W, qru_ptr V, qru_ptr T, qru_ptr out), (ctx, dt, m, kmax, hw, t, q, G, Gs, W, V, T, out), OPT, ASYNC) \
    QRU_OP(gram_solve, (qru_context *ctx, qru_dtype dt, int m, int kmax, int hw, qru_ptr Gs, qru_ptr W, qru_ptr S, int qs, double sv, qru_ptr V, qru_ptr out), (ctx, dt, m, kmax, hw, Gs, W, S, qs, sv, V, out), OPT, ASYNC) \
    /* A step of the Gram form of LARS and the Lasso path (qru_lars, \
     * src/solvers/lars.c) on the Gram active set (G, Gs, W, S, V, out as \
     * gram_border's and gram_solve's; V and Vb kmax-vectors of scratch) \
     * and the state ls (the layout \
     * qru_lars_ws_of(m, kmax), qru_internal.h), judged on the device: \
     * the host reads the record and the pick's partial results (one \
     * download of QRU_LARS_REC + 3 npk elements at ls + rec), nothing of \
     * size m.  flags: QRU_LARS_LASSO, QRU_LARS_POSITIVE.  Every mode \
     * ends with the pick's partial results: for each block b < npk of \
     * QRU_LARS_PICK rows, among its inactive columns (sof(j) < 0) the \
     * first in the order "the larger key (positive: cov(j), else \
     * |cov(j)|; a NaN key after any other), then the lower pos(j)": its \
     * cov(j), pos(j) and j at ls + pick + 3 b (-1, -1, -1 where none is \
     * inactive); the host takes the first of the blocks' in that order. \
     * mode QRU_LARS_START: ls's cov holds X' y (the caller's); pos(j) = \
     * j, sof = -1, cof = -1, drop = 0. \
     * mode QRU_LARS_LEAVE: column t leaves slot q from position ci (the \
     * active columns at positions > ci move down one, pos(t) = na, sof(t) \
     * = -1, cof(q) = -1).  (cov(t) is the caller's.) \
     * mode QRU_LARS_STEP (1 <= hw, q < hw): where t >= 0, column t enters \
     * slot q (whose row and column of W are zero, and the flag out(m + 1) \
     * 0), at position na - 1, which column u leaves for ci: gram_border \
     * of t in q, then pos(u) = ci, pos(t) = na - 1; S(qs) = sv where 0 \
     * <= qs < hw (in every case); where t >= 0 and out(m + 1) != 0 or \
     * |out(m)| < piv: status DEGENERATE, D = 0 or |out(m)|, cov(t) = 0, \
     * and the step ends (z, corr, V unspecified).  Else gram_solve: z = \
     * W (W' S) into out + m + 2, corr = Gs z into out; sw = \
     * S(0:hw-1)' z, AA = 1 / sqrt(sw): where not sw > 0 or AA is not \
     * finite, status NODIR, nothing else.  Else, with the active columns \
     * those of sof(j) >= 0 and t (slot q), w = AA z, tiny = FLT_MIN, \
     * dec = 1e15 (float: 1e6) and min+ the smallest positive value (the \
     * largest finite one of dt where none): for the inactive j, c(j) = \
     * rint(AA corr(j) dec) / dec, gamma = min(min+ (C - cov(j)) / (AA - \
     * c(j) + tiny), min+ (C + cov(j)) / (AA + c(j) + tiny) (not with \
     * positive), C / AA); for the active slots p (cof(p) >= 0, and q) \
     * tmp(p) = -P(cof(p), it) / (w(p) + tiny), zpos = min+ tmp: where \
     * zpos < gamma, drop(p) = (tmp(p) == zpos) (p < hw), ND their count, \
     * QD the lowest, and with QRU_LARS_LASSO gamma = zpos; else drop = 0, \
     * ND = 0, QD = -1; P(j, it + 1) = P(j, it) + gamma w(sof(j)) for the \
     * active j (0 where drop is set, with QRU_LARS_LASSO; with \
     * QRU_LARS_POSITIVE 0 where that sum is below 0), 0 for the \
     * others; cov(j) -= gamma c(j) for the inactive j; sof(t) = q, cof(q) \
     * = t; status OK.  The record gets STATUS, D, SW and AA (where \
     * computed), GAMMA, ND and QD (where OK).  P is m x (it + 2) (ld m). \
     * The sums, minima and picks run in an order fixed by the sizes (a \
     * run repeats bit for bit).  m < 2^24. */ \
    QRU_OP(lars_gram_step, (qru_context *ctx, qru_dtype dt, int m, int kmax, int hw, int mode, int flags, int it, int t, int q, int ci, int u, int na, int qs, double sv, double piv, double C, qru_ptr G, qru_ptr Gs, qru_ptr W, qru_ptr S, qru_ptr V, qru_ptr Vb, qru_ptr out, qru_ptr ls, qru_ptr P), (ctx, dt, m, kmax, hw, mode, flags, it, t, q, ci, u, na, qs, sv, piv, C, G, Gs, W, S, V, Vb, out, ls, P), REQ, ASYNC) \
    /* The rank-k update (sign > 0) or downdate (sign < 0) of a Cholesky \
     * factor without a chain of rotations, in ONE pass for all k vectors \
     * (k = 1: Gill, Golub, Murray and Saunders 1974, method C1), in two \
     * ops around the verdict.  L is n x n, lower (uplo 'L') or upper \
     * (uplo 'U': the factor is U = L', and "L(i,j)" below reads U(j,i)); \
     * the other strict triangle is neither read nor written.  The caller \
     * has solved P = L \ W0 (n x k, ldp; its rows p_c are k-vectors) for \
     * the n x k W0 of A1 = L L' + sign W0 W0' = L (I + sign P P') L'.  With \
     * M_j = I + sign sum_{c<j} p_c p_c' (k x k; M_0 = I), \
     *   v_j = M_j^{-1} p_j, delta_j = sqrt(1 + sign p_j' v_j), \
     *   g_j = sign v_j / delta_j (a k-vector), the new factor is \
     *   L1(i,j) = delta_j L(i,j) + g_j' sum_{j<c<=i} L(i,c) p_c, i >= j. \
     * For k = 1, M_j = t_{j-1} with t_{-1} = 1, t_j = t_{j-1} + sign p_j^2, \
     * delta_j = sqrt(t_j / t_{j-1}) and g_j = gamma_j = sign p_j / \
     * (sqrt(t_j) sqrt(t_{j-1})).  M_j^{-1} p_j comes from the LDL' \
     * elimination of M_j bordered by p_j (the GPU: every column on its \
     * own, M_j a prefix sum over tiles of columns; the CPU: M_j \
     * accumulated column by column). \
     * chol_r1_prep reads L, P and W (n x kw, kw >= 0) and writes \
     *  - work: what chol_r1_apply needs (at least qru_chol_r1_work(n, k) \
     *    elements, qru_internal.h): delta, g and the row sums \
     *    of L .* P over the tiles of QRU_CHOL_R1_TILE columns; \
     *  - head[j] = delta_j L(j,j) (the new pivots, j < n); \
     *  - adiag[i] = ||L(i,:)||^2 + sign ||W(i,:)||^2 (the diagonal of \
     *    A1 when W holds the vectors of a rank-kw change of A = L L', \
     *    for the definiteness rule); \
     *  - info (the potrf_panel convention): if info != 0 on entry nothing \
     *    is done; else the first j whose delta_j^2 (k = 1: t_j) or a \
     *    pivot of M_j's elimination is not > 0 or not finite (a downdate \
     *    that leaves A1 not positive definite, or a non-finite P), or \
     *    whose L(j,j) is zero, sets info = base + j + 1, and head is then \
     *    valid for the columns before j only. \
     * L is only read, so a caller that judges the verdict before \
     * chol_r1_apply leaves L bit-identical when it fails. \
     * chol_r1_apply writes L1 (n x n, ld1; L's array in place, or no \
     * overlap with it) on its uplo triangle from L, P and prep's work \
     * (same n and k), which it may overwrite.  Neither looks at info: a \
     * caller applies only after a verdict (or to a copy it discards). \
     * 1 <= k <= 32 (the GPU kernels' bound; chol_r1_max_k's). */ \
    QRU_OP(chol_r1_prep, (qru_context *ctx, qru_dtype dt, char uplo, int n, int k, int sign, qru_ptr L, int ldl, qru_ptr P, int ldp, int kw, qru_ptr W, int ldw, qru_ptr work, qru_ptr head, qru_ptr adiag, qru_ptr info, int base), (ctx, dt, uplo, n, k, sign, L, ldl, P, ldp, kw, W, ldw, work, head, adiag, info, base), REQ, ASYNC) \
    QRU_OP(chol_r1_solve_prep, (qru_context *ctx, qru_dtype dt, char uplo, int n, int sign, qru_ptr L, int ldl, qru_ptr w, qru_ptr p, qru_ptr work, qru_ptr head, qru_ptr adiag, qru_ptr info, int base), (ctx, dt, uplo, n, sign, L, ldl, w, p, work, head, adiag, info, base), OPT, ASYNC) \
    QRU_OP(chol_r1_apply, (qru_context *ctx, qru_dtype dt, char uplo, int n, int k, qru_ptr L, int ldl, qru_ptr L1, int ld1, qru_ptr P, int ldp, qru_ptr work), (ctx, dt, uplo, n, k, L, ldl, L1, ld1, P, ldp, work), REQ, ASYNC) \
    /* The right-hand sides of the same rank-1 change of a Q-less QR \
     * factorisation (R = L', a row u added with sign > 0 or removed with \
     * sign < 0, its right-hand-side row e): with p = L \ u and the delta \
     * of chol_r1_prep's work for k = 1 (L1 = L M), for each column j < r \
     * of the n x r X: \
     *   du[j] = (e_j - p' X(:,j)) / sqrt(t_{n-1})  (the row's residual \
     *           after the change, scaled: rho^2 := rho^2 + sign du^2), \
     *   Y(:,j) = M \ (X(:,j) + sign e_j p), \
     * with M \ x written as prefix sums: y_i = (x_i - sign p_i S_i / \
     * t_{i-1}) / delta_i, S_i = sum_{c<i} p_c x_c.  e: r elements, stride \
     * ince; du: r elements of device memory.  Y may be X (in place) or \
     * must not overlap it. */ \
    QRU_OP(chol_r1_rhs, (qru_context *ctx, qru_dtype dt, int n, int r, int sign, qru_ptr p, qru_ptr work, qru_ptr X, int ldx, qru_ptr Y, int ldy, qru_ptr e, int ince, qru_ptr du), (ctx, dt, n, r, sign, p, work, X, ldx, Y, ldy, e, ince, du), REQ, ASYNC) \
    /* The Givens rotations of the same rank-1 update (sign > 0), in \
     * closed form, applied across the columns of X: with t_{-1} = 1, \
     * t_j = t_{j-1} + p_j^2 (p_j = alpha p[j incp], incp may be \
     * negative: p then points at the element taken first), \
     * c_j = sqrt(t_{j-1} / t_j), \
     * s_j = p_j / sqrt(t_j), for each row i < n: \
     *   x = xin[i]; for j = 0 .. m-1: v = X(i,j); \
     *     Y(i,j) = c_j v + s_j x;  x = c_j x - s_j v; \
     *   xout[i] = x  (m = 0: xout = xin). \
     * They are the rotations that take a row u' into the triangle R \
     * (p = R' \ u, R1 = M' R of chol_r1_apply): Q1 = [Q 0; 0 1] G acts \
     * so on Q's columns with x = Q1's new column (xin = e_k, the new \
     * row's unit vector); and those of a column removal, whose chain on \
     * R is the same row added to the trailing triangle; and, with the \
     * columns taken last to first (ldx = ldy = -ld) and \
     * p_j = -q_{m-1-j} / rho, those of a row k removed from a thin Q1 \
     * (q = Q1(k,:)', x = the row's completion z / rho, \
     * rho = ||e_k - Q1 q||: Q1's row k becomes 0).  X is n x m (ld \
     * ldx, possibly negative); Y (ld ldy) is X (in place), or X one \
     * column to the left \
     * (Y(i,j) at X(i,j-1): the columns move left as they rotate), or \
     * does not overlap X; xin and xout hold n elements (stride 1) and may \
     * be the same; xin may be Y's first column and xout X's last (a \
     * backend reads xin and X before it writes there).  work: \
     * qru_chol_r1_rotate_work(n, m) elements (qru_internal.h). */ \
    QRU_OP(chol_r1_rotate, (qru_context *ctx, qru_dtype dt, int n, int m, double alpha, qru_ptr p, int incp, qru_ptr X, int ldx, qru_ptr Y, int ldy, qru_ptr xin, qru_ptr xout, qru_ptr work), (ctx, dt, n, m, alpha, p, incp, X, ldx, Y, ldy, xin, xout, work), REQ, ASYNC) \
    /* ---- fused panels ---- */ \
    /* Householder QR of the m x nb panel A (0 <= nb <= m) in ONE call: the \
     * same result as this sequence of the ops above (the per-column panel \
     * loop of qru_geqr_wy, src/qr.c), up to rounding: \
     *     laset('A', m, nb, 0, 1, Y, ldy); \
     *     for j = 0 .. nb-1: \
     *         house(m-j-1, &A(j,j), &A(j+1,j), &Y(j+1,j), &tau[j]); \
     *         larf(m-j-1, nb-j-1, &Y(j+1,j), &tau[j], &A(j,j+1), lda, \
     *              &A(j+1,j+1), lda, work); \
     *         wy_append(m, j, Y, ldy, W, ldw, &tau[j], work); \
     * On exit: \
     *  - A: the upper triangle of its leading nb x nb block holds R of the \
     *    panel, every element below the diagonal is exactly zero; \
     *  - Y (m x nb): the reflectors as a unit lower trapezoid (Y(i,j) = 0 \
     *    for i < j, 1 for i = j, v_j below), every element written; \
     *  - W (m x nb): P = H_0 H_1 ... H_{nb-1} = I + W Y' (all of W written); \
     *  - tau: nb elements in device memory (0 where a column below the \
     *    diagonal is already zero; then R(j,j) keeps A(j,j), v_j = 0). \
     * work: at least qru_panel_work(m, nb) elements of device memory \
     * (cross-work-group partial sums on the GPU backends).  A, Y, W, tau \
     * and work must not overlap.  Optional: the reference op is that loop \
     * (ref_ops.c). */ \
    QRU_OP(panel_qr, (qru_context *ctx, qru_dtype dt, int m, int nb, qru_ptr A, int lda, qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work), (ctx, dt, m, nb, A, lda, Y, ldy, W, ldw, tau, work), OPT, ASYNC) \
    /* panel_qr of the (mt + mb) x nb panel [A; B] whose two parts are \
     * stored apart: A is mt x nb (leading dimension lda), B mb x nb (ldb); \
     * rows 0 .. mt-1 of the panel are A's, rows mt .. m-1 B's \
     * (m = mt + mb).  On exit A and B hold their rows of the panel as \
     * panel_qr leaves it (R above, exact zeros below the diagonal); Y, W \
     * (m x nb) and tau as in panel_qr.  The blocks of the row updates: \
     * R's diagonal block over the added rows' columns, no gather.  work: \
     * at least qru_panel_tp_work(m, nb) elements.  A, B, Y, W, tau and \
     * work must not overlap.  Optional: the reference op gathers the \
     * panel into work, runs panel_qr on it and scatters it back. */ \
    QRU_OP(panel_qr_tp, (qru_context *ctx, qru_dtype dt, int mt, int mb, int nb, qru_ptr A, int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr tau, qru_ptr work), (ctx, dt, mt, mb, nb, A, lda, B, ldb, Y, ldy, W, ldw, tau, work), OPT, ASYNC) \
    /* The compact-WY block reflector of a panel applied from the left to \
     * a matrix C = [A; B] whose two parts are stored apart (A mt x nc, \
     * leading dimension lda; B mb x nc, ldb; mb may be 0, then B is not \
     * referenced):  C := C + Y (W' C),  Y and W (mt + mb) x nb (ldy, \
     * ldw; W as panel_qr leaves it, P = I + W Y').  ytop = 'F': Y's rows \
     * 0 .. mt-1 are read; 'I': mt = nb and they are the identity (not \
     * read; the panels of the row updates, Y = [I; V]).  The same result, \
     * up to rounding, as the GEMM sequence (S = work, nb x nc): \
     *     S = W(0:mt-1, :)' A + W(mt:mt+mb-1, :)' B; \
     *     A += Y(0:mt-1, :) S ('I': A += S);  B += Y(mt:mt+mb-1, :) S. \
     * work: at least nb nc elements.  C must not overlap Y, W or work. \
     * Optional: the reference op is that sequence. */ \
    QRU_OP(wy_left, (qru_context *ctx, qru_dtype dt, char ytop, int mt, int mb, int nb, int nc, qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr A, int lda, qru_ptr B, int ldb, qru_ptr work), (ctx, dt, ytop, mt, mb, nb, nc, Y, ldy, W, ldw, A, lda, B, ldb, work), OPT, ASYNC) \
    /* ---- a second queue (look-ahead) ---- */ \
    /* The ops queued after lane(ctx, dt, 1) go to a second queue of the \
     * context (CUDA: a stream of its own and a cuBLAS handle of its own) \
     * when dt's tuning has lookahead on (else lane and lane_mark do \
     * nothing: one queue), \
     * ordered after what was queued on the first before the last \
     * lane_mark(ctx, dt) (without a mark since the last lane(ctx, dt, 1): \
     * everything queued on the first so far); after lane(ctx, dt, 0) they go \
     * to the first queue again, with no wait for the second.  \
     * lane_join(ctx) orders the first queue after everything queued on \
     * the second so far, makes it current and voids an unused mark.  Ops \
     * that two queues run \
     * at once must not touch the same memory (the caller's part).  A \
     * synchronisation (sync, a download) waits for the current queue \
     * only: join first.  Optional: the reference ops do nothing (a \
     * backend with one in-order queue). */ \
    QRU_OP(lane, (qru_context *ctx, qru_dtype dt, int l), (ctx, dt, l), OPT, ASYNC) \
    QRU_OP(lane_mark, (qru_context *ctx, qru_dtype dt), (ctx, dt), OPT, ASYNC) \
    QRU_OP(lane_join, (qru_context *ctx), (ctx), OPT, ASYNC) \
    /* The largest nb for which panel_qr of an (nb + extra) x nb panel runs \
     * on chip, in the local memory of one work-group (the fast case on the \
     * GPU backends; larger panels take a slower kernel), written to *nb; \
     * 0 if none; or a narrower nb whose panels a faster kernel takes \
     * (CUDA's warp-chain kernel, 32 columns in complex double).  The \
     * algorithm layer picks the block size of its fused panels with it. \
     * Optional: the reference op writes 0. */ \
    QRU_OP(panel_qr_max_nb, (qru_context *ctx, qru_dtype dt, int extra, int *nb), (ctx, dt, extra, nb), OPT, QUERY) \
    /* ---- fused Givens sweeps ---- */ \
    /* The staggered sweeps of src/update/update.h in ONE call: for step \
     * t = 0 .. L+p-2, jlo = max(0, t-L+1), cnt = min(t, p-1) - jlo + 1, \
     * i0 = L + 2 jlo - t, and q = 0 .. cnt-1, rotation q acts on the \
     * columns (i0-1+2q, i0+2q) of X, X(row, col) = X[row xrs + col xcs] \
     * (element strides): with make != 0 it is formed (givens_make) from \
     * X(jlo+q, i0-1+2q), X(jlo+q, i0+2q) and written to cs, else read \
     * from cs (layout of the loop of givens_make calls: step by step, 2 cnt \
     * values a step); then it is applied (givens_apply) to the rows \
     * r0 .. nr-1 of its columns, r0 = from_jlo ? jlo : 0.  The results of \
     * the loop of givens_make / givens_apply calls up to rounding (c and s \
     * may be formed with fewer divisions), except that with make and \
     * nr = p the elements X(r, c), c > r, are left unspecified: sweep r \
     * zeroes them up to rounding and the updates treat them as zero, so a \
     * backend may stop rotating row r past its own sweep.  Optional: the \
     * reference op is that loop. */ \
    QRU_OP(givens_sweeps, (qru_context *ctx, qru_dtype dt, int L, int p, int make, qru_ptr X, long xrs, long xcs, int nr, int from_jlo, qru_ptr cs), (ctx, dt, L, p, make, X, xrs, xcs, nr, from_jlo, cs), OPT, ASYNC) \
    /* The groups of qru_upd_sweeps_apply in ONE call: for g = 0 .. \
     * ceil(L / ab) - 1, uhi = L - g ab, ulo = max(1, uhi - ab + 1), \
     * w = uhi - ulo + 1 + p: G_g (w x w, at G + g ldg (ab + p), leading \
     * dimension ldg >= ab + p) := the identity rotated from the right by \
     * the rotations (j, i = u + j), ulo <= u <= uhi, 0 <= j < p, in step \
     * order, rotation (j, i) acting on the local columns (i - ulo, \
     * i - ulo + 1).  Optional: the reference op runs one laset per group \
     * and one givens_apply per step. */ \
    QRU_OP(givens_accum, (qru_context *ctx, qru_dtype dt, int L, int p, int ab, qru_ptr cs, qru_ptr G, int ldg), (ctx, dt, L, p, ab, cs, G, ldg), OPT, ASYNC) \
    /* The vendor's unblocked-to-blocked QR (LAPACK / cuSOLVER geqrf) with \
     * what qru_qr_factor and qru_lsq_create need, in one call: \
     *   A (n x m) := R with exact zeros below the diagonal; \
     *   if Q.h: Q (n x qc, its contents on entry ignored) := the first qc \
     *           columns of the orthogonal factor H_0 ... H_{k-1}, \
     *           k = min(n, m) (orgqr); qc = n (the full Q) or k (the \
     *           economy Q1 of the thin form); \
     *   if B.h and r > 0: B (n x r) := Q' B (ormqr). \
     * Workspace query (not a backend call: the algorithms ask ctx->table, \
     * uncounted): with ws.h == NULL nothing is done (A, Q, B are not \
     * referenced) and *ws_elems is set to the number of elements of type \
     * dt that ws must hold for a call with these n, m, qc and r, with or \
     * without Q and B (ws_elems is not used otherwise).  n, m >= 1.  A, Q, B and ws must not overlap.  Failure \
     * information of the vendor routines (devInfo) is read at the end, so \
     * this op waits for the device before it returns.  Capability: NULL if \
     * the backend has no vendor factorisation; whether the algorithm layer \
     * uses it is decided in src/qr.c (qru_qr_use_vendor, with \
     * geqrf_full_min_k below). */ \
    QRU_OP(geqrf_full, (qru_context *ctx, qru_dtype dt, int n, int m, qru_ptr A, int lda, qru_ptr Q, int ldq, int qc, qru_ptr B, int ldb, int r, qru_ptr ws, size_t *ws_elems), (ctx, dt, n, m, A, lda, Q, ldq, qc, B, ldb, r, ws, ws_elems), CAP, WAIT) \
    /* ---- vendor Cholesky ---- */ \
    /* The vendor's Cholesky (LAPACK / cuSOLVER potrf) of the uplo triangle \
     * of the n x n A, in place, in one call.  The other strict triangle is \
     * neither read nor written.  info is one element of type dt, 0 on \
     * entry (the potrf_panel convention): it is set to the first column j \
     * (1-based; rows for 'U') whose pivot is not > 0, NaN included (a \
     * backend whose vendor routine lets NaN pivots pass finds them on the \
     * factor's diagonal afterwards), or to a negative value if the vendor \
     * routine rejected an argument; then columns < j hold their factor and \
     * the rest of the triangle unspecified values.  Does not wait: the \
     * caller reads info when it next synchronises (src/chol.c reads it \
     * with the diagonals of the definiteness rule, one transfer).  \
     * Workspace query (asked of ctx->table, uncounted, as geqrf_full's): \
     * with ws.h == NULL nothing is done (A and info are \
     * not referenced) and *ws_elems is set to the number of elements of \
     * type dt that ws must hold for this n; ws is not used otherwise beyond \
     * that many elements.  A, info and ws must not overlap.  Capability: \
     * NULL if the backend has no vendor Cholesky; whether the algorithm \
     * layer uses it is decided in src/chol.c (qru_chol_use_vendor, with \
     * potrf_full_min_n below). */ \
    QRU_OP(potrf_full, (qru_context *ctx, qru_dtype dt, char uplo, int n, qru_ptr A, int lda, qru_ptr info, qru_ptr ws, size_t *ws_elems), (ctx, dt, uplo, n, A, lda, info, ws, ws_elems), CAP, ASYNC)
/* clang-format on */

/* Op ids: QRU_OP_gemm, ... and their count. */
typedef enum qru_op_id {
#define QRU_OP_ID_(name, params, args, need, stat) QRU_OP_##name,
    QRU_OPS(QRU_OP_ID_)
#undef QRU_OP_ID_
    QRU_OP_COUNT
} qru_op_id;

#endif /* QRU_OPS_H */
