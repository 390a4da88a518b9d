/*
 * The flop model of the library: floating-point operation counts of the
 * routines qru runs and of those the benchmarks compare with, in one
 * place.  The update policy (src/update/) predicts with it; the
 * benchmarks (bench/) include it for their tables.  A flop is one real addition, subtraction, multiplication or
 * division (a square root counts as one); the counts are the same for
 * float and double.  Complex data follows LAPACK's convention (working
 * note 41): a complex multiplication is 6 real flops and an addition 2,
 * so a multiply-add costs 8 against the real 2, and every count below is
 * multiplied by flops_type_factor(dt) = 4 for the complex types (the
 * plans, src/plan.c, and the benchmarks' tables apply it).  Sizes follow qru's convention: A is n x m (n rows,
 * m columns, n >= m), r right-hand sides, an update inserts or deletes p
 * rows or columns after the first k.
 *
 * Two kinds of counts live here:
 *
 *  1. LAPACK / BLAS routines of the references (cuSOLVER, cuBLAS, LAPACKE):
 *     the usual operation counts of the algorithms (the ones LAPACK's
 *     working note 41 tabulates), derived below from the column-by-column
 *     Householder algorithm.  Lower-order terms are kept where they are
 *     cheap to state; they matter only for tiny sizes.
 *
 *  2. The four QR updates of src/update/.
 *     These are NOT the dissertation's asymptotic formulas: each function
 *     below walks the same loops as the C code (same block size rule
 *     qru_upd_nb(), same Givens step schedule) and adds up the arithmetic
 *     of every backend operation it issues, with the per-operation costs
 *     of flops_op_*() below.  Pure data movement (copy, transpose, laset,
 *     the row shift of Q) counts zero.  So "flops / time" is the rate at
 *     which the update does the arithmetic it actually does, and two
 *     updates of the same size can be compared by their work.
 *
 * Per-operation costs (the backend table of src/qru_internal.h):
 *   gemm(m, n, k)          2 m n k
 *   trsm (side L, order m, n right-hand sides)   m^2 n
 *   house(len)             3 len + 4: norm of the tail (2 len), the
 *                          scaling of the tail (len), beta/tau (~4)
 *   larf(len, nc)          4 (len + 1) nc: w = [top; C]' [1; v] (2 (len+1)
 *                          per column) and the rank-1 update (2 (len+1))
 *   wy_append(rb, j)       4 rb j + rb: z = Y(:, 0:j-1)' y (2 rb j),
 *                          W(:, 0:j-1) z (2 rb j), adding y and scaling (rb)
 *   givens_make            6 per rotation (hypot, two divisions; ~)
 *   givens_apply(len)      6 len per rotation (4 multiplications, 2 adds)
 *   geadd(m, n) with alpha = beta = 1    m n (one addition per element)
 *   col_norms(m, n)        2 m n
 */
#ifndef QRU_FLOPS_H
#define QRU_FLOPS_H

#include "qru.h" /* qru_dtype */

/* The factor of an element type's counts: 1 for float and double, 4 for
 * complex float and complex double (LAPACK's convention: a complex
 * multiply-add is 8 real flops, the real one 2). */
static inline double flops_type_factor(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE ? 4.0 : 1.0;
}

/* ---- 1. reference routines --------------------------------------------- */

/* Householder QR of an n x m matrix, n >= m (LAPACK geqrf).  Column j
 * (0-based) needs a reflector of length L = n - j (about 3 L flops: the
 * norm, the scaling) and its application to the m - j - 1 columns to the
 * right (4 L per column: a dot product and an axpy).  Summing
 * 4 (n - j)(m - j - 1) + 3 (n - j) over j gives
 *   2 n m^2 - 2 m^3 / 3 + n m + m^2 + O(m)
 * (the blocked algorithm does the same arithmetic, grouped into GEMMs). */
static inline double flops_geqrf(double n, double m)
{
    if (n < m) { /* wide: the roles swap (not used by the benchmarks) */
        double t = n;
        n = m;
        m = t;
    }
    return 2.0 * n * m * m - 2.0 * m * m * m / 3.0 + n * m + m * m +
           14.0 * m / 3.0;
}

/* Applying Q' (n x n, the product of m reflectors of lengths n, n-1, ...,
 * n-m+1) to an n x r matrix from the left (LAPACK ormqr, side 'L'):
 * reflector j costs 4 (n - j) r, in all 4 n m r - 2 m^2 r + 2 m r. */
static inline double flops_ormqr(double n, double m, double r)
{
    return r * (4.0 * n * m - 2.0 * m * m + 2.0 * m);
}

/* Forming the first q columns of Q (n x q, from m reflectors, q >= m)
 * (LAPACK orgqr).  Reflector j (of length n - j) is applied to the q - j
 * columns to its right: 4 (n - j)(q - j) each, summed:
 *   4 n m q - 2 m^2 (n + q) + 4 m^3 / 3  (leading terms). */
static inline double flops_orgqr(double n, double q, double m)
{
    return 4.0 * n * m * q - 2.0 * m * m * (n + q) + 4.0 * m * m * m / 3.0;
}

/* Triangular solve with an m x m triangle and r right-hand sides (trsm,
 * side 'L'): m (m + 1) / 2 multiplications and m (m - 1) / 2 additions per
 * right-hand side. */
static inline double flops_trsm(double m, double r) { return m * m * r; }

/* Cholesky factorisation of an n x n matrix (potrf):
 * sum over j of (n - j)^2 (the update of the trailing column block) gives
 * n^3 / 3 + n^2 / 2 + n / 6. */
static inline double flops_potrf(double n)
{
    return n * n * n / 3.0 + n * n / 2.0 + n / 6.0;
}

static inline double flops_gemm(double m, double n, double k)
{
    return 2.0 * m * n * k;
}

/* The reference every update is compared with: solving the least-squares
 * problem of the updated n1 x m1 matrix A1 from scratch, geqrf + ormqr
 * (Q' b) + trsm (R \ (Q' b)). */
static inline double flops_lsq_refactor(double n1, double m1, double r)
{
    return flops_geqrf(n1, m1) + flops_ormqr(n1, m1, r) + flops_trsm(m1, r);
}

/* ---- 2. the updates, counted along the code ----------------------------- */

static inline double flops_op_house(double len) { return 3.0 * len + 4.0; }
static inline double flops_op_larf(double len, double nc)
{
    return 4.0 * (len + 1.0) * nc;
}
static inline double flops_op_wy_append(double rb, double j)
{
    return 4.0 * rb * j + rb;
}
static inline double flops_op_wy_left(double rb, double jb, double nc)
{
    return 4.0 * rb * jb * nc; /* two GEMMs: W' B, then B += Y (W' B) */
}
static inline double flops_op_wy_right(double nr, double rb, double jb)
{
    return 4.0 * nr * rb * jb; /* two GEMMs: Q W, then Q += (Q W) Y' */
}
static inline double flops_op_rot(double len) { return 6.0 + 6.0 * len; }

/* qru_upd_nb(): the update block size for a reduction of ncols columns. */
static inline int flops_upd_nb(int nb, int ncols)
{
    int b = nb > 0 ? nb : (ncols + 5) / 10;
    if (b > ncols)
        b = ncols;
    return b < 1 ? 1 : b;
}

/* qru_upd_panel() of src/update/panel.c: the panel of columns
 * c0 .. c0+jb-1 of an nrows x ncols array, reflectors of length
 * min(bw, nrows - 1 - c) + 1, then the trailing columns by the block
 * reflector. */
static inline double flops_upd_panel(int nrows, int ncols, int c0, int jb,
                                     int bw)
{
    long last = (long)c0 + jb + bw;
    double rb = (double)((last < nrows ? last : nrows) - c0);
    double f = 0.0;
    for (int j = 0; j < jb; ++j) {
        int c = c0 + j;
        int len = nrows - 1 - c;
        if (len > bw)
            len = bw;
        if (len < 0)
            len = 0;
        f += flops_op_house(len) + flops_op_larf(len, c0 + jb - 1 - c) +
             flops_op_wy_append(rb, j);
    }
    int nct = ncols - c0 - jb;
    if (nct > 0)
        f += flops_op_wy_left(rb, jb, nct);
    return f;
}

/* Adding p columns after column k (qru_lsq_add_cols, needs Q):
 *   U_Q = Q' U                        2 n^2 p
 *   Householder QR of U_Q(m+1:n, :)   panels of nb columns on nz = n - m rows
 *   rank check                        column norms of the (m+p) x s block
 *   Givens strips                     p (m - k) rotations of length <= s
 *                                     (s = m + p - k) on R, then each
 *                                     applied to Q (length n) and d (r)
 *   merged block reflector            GEMMs of the panel merge
 *   Q := Q P, d := P' d               4 n nz p + 4 nz p r
 * In all about 2 n^2 p + 4 n (n - m) p + 6 p (m - k)(n + s) + lower order. */
static inline double flops_add_cols(int n, int m, int p, int k, int r, int nb)
{
    int nz = n - m, L = m - k, s = m + p - k, mr = m + p;
    int b = flops_upd_nb(nb, p);
    double f = flops_gemm(n, p, n);
    for (int i = 0; i < p; i += b) {
        int jb = p - i < b ? p - i : b;
        f += flops_upd_panel(nz, p, i, jb, nz);
    }
    if (L > 0) {
        /* step t rotates pairs for new columns j = lo..hi (see
         * qru_sweep_step, src/ref_ops.c); rotation of column j acts on
         * the s - j trailing entries of two rows of R1 */
        for (int t = 0; t < p + L - 1; ++t) {
            int lo = t - L + 1 > 0 ? t - L + 1 : 0;
            int hi = t < p - 1 ? t : p - 1;
            if (hi < lo)
                continue;
            f += (double)(hi - lo + 1) * flops_op_rot(s - lo);
            /* the same rotations on Q (rows of length n) and d (length r) */
            f += (double)(hi - lo + 1) * (flops_op_rot(n) + flops_op_rot(r) -
                                          12.0);
        }
    }
    f += 2.0 * (double)mr * s; /* column norms of the rank check */
    for (int i = b; i < p; i += b) {
        int jb = p - i < b ? p - i : b;
        f += flops_gemm(i, jb, nz) + flops_gemm(nz, jb, i);
    }
    f += flops_op_wy_right(n, nz, p) + flops_op_wy_left(nz, p, r);
    return f;
}

/* Removing p columns after column k (qru_lsq_remove_cols, Q
 * optional): the m1 - k = m - p - k columns right of the gap carry a band
 * of p subdiagonals; panels of nb columns of reflectors of length p + 1
 * reduce them and the block reflectors (rb = jb + p rows) are applied to
 * the trailing columns, to d and, with Q, to Q:
 *   about 2 (p + nb)(m - p - k)^2 + 4 (p + nb)(m - p - k)(n + r). */
static inline double flops_remove_cols(int n, int m, int p, int k, int r,
                                       int keepq, int nb)
{
    int m1 = m - p, nred = m1 - k;
    int b = flops_upd_nb(nb, nred);
    double f = 0.0;
    for (int c0 = k; c0 < m1; c0 += b) {
        int jb = m1 - c0 < b ? m1 - c0 : b;
        int rb = jb + p;
        f += flops_upd_panel(n, m1, c0, jb, p);
        f += flops_op_wy_left(rb, jb, r);
        if (keepq)
            f += flops_op_wy_right(n, rb, jb);
    }
    return f;
}

/* Adding p rows (qru_lsq_add_rows, Q optional): m reflectors of
 * length p + 1 (one row of R, the p new rows), panels of nb columns in the
 * form Y = [I; V]; per panel two GEMMs of inner size jb and p and one of
 * size jb for the trailing columns and for d, and with Q the same on the
 * n1 = n + p rows of Q:
 *   about 4 p m^2 + 2 nb m^2 + 4 (p + nb) m (r + n1 [Q]). */
static inline double flops_add_rows(int n, int m, int p, int k, int r,
                                    int keepq, int nb)
{
    (void)k;
    int n1 = n + p;
    int b = flops_upd_nb(nb, m);
    double f = 0.0;
    for (int c0 = 0; c0 < m; c0 += b) {
        int jb = m - c0 < b ? m - c0 : b;
        for (int j = 0; j < jb; ++j) {
            int c = c0 + j;
            f += flops_op_house(p) + flops_op_larf(p, c0 + jb - 1 - c) +
                 flops_op_wy_append(jb + p, j);
        }
        int nct = m - c0 - jb;
        for (int pass = 0; pass < 2; ++pass) {
            int nc = pass == 0 ? nct : r;
            if (nc <= 0)
                continue;
            f += flops_gemm(jb, nc, jb) + flops_gemm(jb, nc, p) +
                 (double)jb * nc + flops_gemm(p, nc, jb);
        }
        if (keepq)
            f += flops_gemm(n1, jb, jb) + flops_gemm(n1, jb, p) +
                 (double)n1 * jb + flops_gemm(n1, p, jb);
    }
    return f;
}

/* Removing p rows after row k (qru_lsq_remove_rows, needs Q): sweep
 * q = 0..p-1 zeroes Q(k+q, j) for j = n-1 down to q+1 with rotations of
 * adjacent columns, p (n - 1) - p (p - 1) / 2 rotations in all; each acts
 * on two columns of Q (length n) and of the composite [R'; d'] (length
 * m + r):  about 6 p n (n + m + r). */
static inline double flops_remove_rows(int n, int m, int p, int k, int r)
{
    (void)k;
    double nrot = (double)p * (n - 1) - (double)p * (p - 1) / 2.0;
    return nrot * (flops_op_rot(n) + flops_op_rot(m + r) - 6.0);
}

/* The rank-k modification A1 = A + U V' (qru_lsq_modify, src/update/
 * modify.c), with its block sizes: nbh (the QR of k columns), nb1 (the
 * windows' step: windows of nb1 + k rows), nb2 (phase 2's panels, band
 * b = min(nb1 + k - 1, top - 1)); thin: the form with Q1 (n x m), whose
 * reduction runs on m + k rows.
 *   W = Q' U                               2 n^2 k (thin: CGS2, 8 n m k,
 *                                          the QR of U - Q1 W and Qz)
 *   full, n - m > k: QR of W(m+1:n, :)     on n - m rows, then 4 n (n-m) k
 *                                          on Q and 4 (n-m) k r on d
 *   windows (top - k) / nb1 of them        panel of (nb1 + k) x k, on R
 *                                          4 (nb1 + k) k (m - s), on Q
 *                                          4 n (nb1 + k) k, on d
 *   R + W(1:k,:) V'                        2 k m k
 *   phase 2: panels of nb2 columns         flops_upd_panel with band b, on Q
 *                                          4 n (nb2 + b) nb2 a panel, on d
 *   rank rule                              2 m^2
 * About 2 n^2 k + 4 n (n - m) k + 4 n m k (nb1 + k) / nb1 + 4 n m (nb2 + b)
 * (full form): for nb1 = k and nb2 ~ b ~ 2 k, 2 n^2 k + 4 n^2 k + 20 n m k.
 * flops_modify_parts: *fq the part of it in GEMMs over all n rows of Q
 * (W = Q' U or CGS2's, and every block reflector applied to Q), *fqb
 * that of the block reflectors alone (either may be NULL). */
static inline double flops_modify_parts(int n, int m, int k, int r, int thin,
                                        int nbh, int nb1, int nb2, double *fq,
                                        double *fqb)
{
    int top = thin || n - m > k ? m + k : n;
    int lower = !thin && n - m > k;
    int b = nb1 + k - 1 < top - 1 ? nb1 + k - 1 : top - 1;
    double f = 0.0, q = 0.0; /* all, and on Q's n rows */
    if (b < 0)
        b = 0;
    double q0; /* W = Q' U, or the thin form's CGS2 */
    if (thin) {
        q0 = 8.0 * (double)n * m * k;
        f += 6.0 * (double)n * k * k + 4.0 * (double)n * k * r;
    } else {
        q0 = flops_gemm(n, k, n);
    }
    if (lower) {
        int nz = n - m;
        for (int i = 0; i < k; i += nbh) {
            int jb = k - i < nbh ? k - i : nbh;
            f += flops_upd_panel(nz, k, i, jb, nz);
        }
        q += flops_op_wy_right(n, nz, k);
        f += flops_op_wy_left(nz, k, r);
    }
    for (int e = top; e > k; e -= nb1) {
        int s = e - nb1 - k > 0 ? e - nb1 - k : 0, h = e - s;
        f += flops_upd_panel(h, k, 0, k, h) +
             (s < m ? flops_op_wy_left(h, k, m - s) : 0.0) +
             flops_op_wy_left(h, k, r);
        q += flops_op_wy_right(n, h, k);
    }
    f += flops_gemm(k < top ? k : top, m, k);
    for (int c0 = 0; c0 < m; c0 += nb2) {
        int jb = m - c0 < nb2 ? m - c0 : nb2;
        long last = (long)c0 + jb + b;
        int rb = (int)((last < top ? last : top) - c0);
        f += flops_upd_panel(top, m, c0, jb, b) + flops_op_wy_left(rb, jb, r);
        q += flops_op_wy_right(n, rb, jb);
    }
    if (fq)
        *fq = q0 + q;
    if (fqb)
        *fqb = q;
    return f + q0 + q + 2.0 * (double)m * m; /* column norms, rank rule */
}
static inline double flops_modify(int n, int m, int k, int r, int thin,
                                  int nbh, int nb1, int nb2)
{
    return flops_modify_parts(n, m, k, r, thin, nbh, nb1, nb2, (double *)0,
                              (double *)0);
}

#endif /* QRU_FLOPS_H */
