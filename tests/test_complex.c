/* Complex data (QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE): on a backend that
 * does not take it, every way in (create, wrap, batches, the GP's dtype)
 * returns QRU_ERR_UNSUPPORTED with the reason; on one that does, the
 * matrices move and copy bit for bit, the routines that do not take
 * complex data yet (the solvers, the GP)
 * return QRU_ERR_UNSUPPORTED and leave their arguments bit-identical, and
 * the QR factorisation, least squares in the three forms, the four
 * updates, the rank-k modification and the column shift hold their MATLAB
 * specifications with ' the conjugate transpose: scaled errors against
 * LAPACKE's zgeqrf / zgels (the moduli of R, which LAPACK fixes up to the
 * phases of its rows) below QRU_TEST_THRESHOLD, and a refused update
 * leaves the factorisation bit-identical.  Below the routines: an op that
 * takes no complex data refuses it, and an OPT op that a backend has for
 * real data only runs its reference op for complex data, counted as such;
 * the fused panels (panel_qr, panel_qr_tp) with every panel kernel of the
 * backend against their reference op and zgeqrf (case "panels"). */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <lapacke.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE
#include "zref.h"

static const qru_dtype ctypes[2] = {QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE};

/* the last error names the dtype */
static void assert_unsupported(int st, const char *what, const char *name)
{
    ck_assert_msg(st == QRU_ERR_UNSUPPORTED, "%s: %d, expected "
                  "QRU_ERR_UNSUPPORTED", what, st);
    const char *e = qru_last_error(ctx);
    ck_assert_msg(strstr(e, name) != NULL, "%s: message '%s' does not name "
                  "%s", what, e, name);
}

START_TEST(test_unsupported_backend)
{
    /* the types of the loops below (prints why the complex ones are
     * skipped where the backend does not take them) */
    ck_assert_int_ge(qru_test_ntypes(ctx), 1);
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        const char *name = qru_test_type_name(dt);
        if (qru_context_supports(ctx, dt))
            continue;
        qru_matrix *M = NULL;
        double mem[8] = {0};
        assert_unsupported(qru_matrix_create(ctx, dt, 2, 2, 0, &M),
                           "qru_matrix_create", name);
        ck_assert_ptr_null(M);
        if (qru_context_backend(ctx) == QRU_BACKEND_CPU ||
            qru_context_backend(ctx) == QRU_BACKEND_CUDA)
            assert_unsupported(qru_matrix_wrap(ctx, dt, 2, 1, mem, 0, &M),
                               "qru_matrix_wrap", name);
        ck_assert_ptr_null(M);
        assert_unsupported(qru_matrix_create_batch(ctx, dt, 2, 2, 0, 3, 0,
                                                   &M),
                           "qru_matrix_create_batch", name);
        ck_assert_ptr_null(M);
        double x[2] = {0.0, 1.0}, y[2] = {1.0, 2.0};
        qru_gp *gp = NULL;
        int st = qru_gp_create(ctx, dt, 2, x, y, NULL, &gp);
        ck_assert_msg(st == QRU_ERR_UNSUPPORTED, "qru_gp_create: %d", st);
        ck_assert_ptr_null(gp);
    }
}
END_TEST

/* The backend's ops with complex data: an op outside the table's
 * complex_ops (chol_r1_rhs, on every backend; chol_rot is in it)
 * returns QRU_ERR_UNSUPPORTED and leaves its arrays bit for bit;
 * panel_qr runs where the backend has it for complex data (one panel_qr
 * call) and is otherwise its reference, the per-column loop, counted as
 * its house / larf / wy_append calls (qru_op_native_dt, the backend
 * table's real_only_ops): |R(j,j)| against zgeqrf's either way. */
/* A random r x c matrix of ctx and its host copy (*host, leading
 * dimension r). */
static qru_matrix *rand_pair(qru_dtype dt, int r, int c, void **host,
                             unsigned *seed)
{
    *host = qru_test_alloc(dt, r, c, r);
    qru_test_rand(dt, r, c, *host, r, seed);
    return qru_test_upload(ctx, dt, r, c, 0, *host, r);
}

START_TEST(test_backend_ops)
{
    unsigned seed = 91u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        const char *name = qru_test_type_name(dt);
        if (!qru_context_supports(ctx, dt))
            continue;
        size_t es = qru_test_elsize(dt);
        int n = 6, k = 2, m = 40, nb = 5;
        void *hl, *hw, *ha;
        qru_matrix *L = rand_pair(dt, n, n, &hl, &seed);
        qru_matrix *W = rand_pair(dt, n, k, &hw, &seed), *info = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, 1, 1, 0, &info), 0);
        ck_assert_int_eq(ctx->ops->laset(ctx, dt, 'A', 1, 1, 0.0, 0.0,
                                         info->p, 1),
                         0);
        /* every backend rotates complex data (chol_rot); the structured
         * passes are real only everywhere */
        ck_assert(ctx->backend_ops->complex_ops & QRU_OPM(chol_rot));
        ck_assert(!(ctx->backend_ops->complex_ops & QRU_OPM(chol_r1_rhs)));
        /* the fused sweeps, their accumulated groups and wy_left compute
         * complex data wherever the backend has them (no reference op in
         * their place: test backend_ops compares them with it) */
        static const qru_op_id fused[] = {QRU_OP_givens_sweeps,
                                          QRU_OP_givens_accum, QRU_OP_wy_left};
        for (int i = 0; i < 3; ++i)
            ck_assert_msg(qru_op_native_dt(ctx, fused[i], dt) ==
                              qru_op_native(ctx, fused[i]),
                          "%s: fused op %d not native for complex data", name,
                          (int)fused[i]);
        int st = ctx->ops->chol_r1_rhs(ctx, dt, n, k, 1, info->p, info->p,
                                       L->p, L->ld, W->p, W->ld, info->p, 1,
                                       info->p);
        ck_assert_msg(st == QRU_ERR_UNSUPPORTED, "%s: chol_r1_rhs: %d", name,
                      st);
        void *dl = qru_test_download(L), *dw = qru_test_download(W);
        ck_assert_msg(memcmp(dl, hl, es * n * n) == 0 &&
                          memcmp(dw, hw, es * n * k) == 0,
                      "%s: a refused op changed its arrays", name);
        free(dl);
        free(dw);

        qru_matrix *A = rand_pair(dt, m, nb, &ha, &seed);
        qru_matrix *Y = NULL, *Wy = NULL, *tau = NULL, *work = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m, nb, 0, &Y), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, m, nb, 0, &Wy), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt, nb, 1, 0, &tau), 0);
        ck_assert_int_eq(qru_matrix_create(ctx, dt,
                                           (int)qru_panel_work(m, nb) + 1, 1,
                                           0, &work),
                         0);
        ck_assert_int_eq(qru_context_sync(ctx), 0);
        ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
        ck_assert_int_eq(ctx->ops->panel_qr(ctx, dt, m, nb, A->p, A->ld, Y->p,
                                            Y->ld, Wy->p, Wy->ld, tau->p,
                                            work->p),
                         0);
        int native = qru_op_native_dt(ctx, QRU_OP_panel_qr, dt);
        ck_assert_int_eq(native,
                         qru_op_native(ctx, QRU_OP_panel_qr) &&
                             !((ctx->backend_ops->real_only_ops >>
                                QRU_OP_panel_qr) &
                               1u));
        ck_assert_msg(qru_ctx_op_calls(ctx, QRU_OP_panel_qr) == native,
                      "%s: %lld panel_qr calls counted, native %d", name,
                      qru_ctx_op_calls(ctx, QRU_OP_panel_qr), native);
        ck_assert_msg(native || qru_ctx_op_calls(ctx, QRU_OP_house) == nb,
                      "%s: the reference panel counted %lld house calls",
                      name, qru_ctx_op_calls(ctx, QRU_OP_house));
        zd *ra = qru_test_download(A);
        zd *za = zmalloc(sizeof(zd) * (size_t)m * nb), ztau[8];
        for (size_t i = 0; i < (size_t)m * nb; ++i)
            za[i] = dt == QRU_COMPLEX_DOUBLE ? ((zd *)ha)[i]
                                             : (zd)((float complex *)ha)[i];
        ck_assert_int_eq(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, nb,
                                        (lapack_complex_double *)za, m,
                                        (lapack_complex_double *)ztau),
                         0);
        double eps = dt == QRU_COMPLEX_DOUBLE ? 2.2e-16 : 1.2e-7;
        for (int j = 0; j < nb; ++j) {
            double got = dt == QRU_COMPLEX_DOUBLE
                             ? cabs(ra[j + (size_t)j * m])
                             : cabsf(((float complex *)ra)[j + (size_t)j * m]);
            double want = cabs(za[j + (size_t)j * m]);
            ck_assert_msg(fabs(got - want) <= 30.0 * m * eps * want,
                          "%s: panel |R(%d,%d)| %g, zgeqrf's %g", name, j, j,
                          got, want);
        }
        free(ra);
        free(za);
        free(ha);
        free(hl);
        free(hw);
        qru_matrix_destroy(A);
        qru_matrix_destroy(Y);
        qru_matrix_destroy(Wy);
        qru_matrix_destroy(tau);
        qru_matrix_destroy(work);
        qru_matrix_destroy(L);
        qru_matrix_destroy(W);
        qru_matrix_destroy(info);
    }
}
END_TEST

/* ---- the fused panels with complex data --------------------------------
 * panel_qr and panel_qr_tp on complex data, with each of the backend's
 * panel kernels (the tuning's panel_kernel: five on CUDA, three on
 * OpenCL, the CPU's one), against the reference op (the per-column
 * house / larf / wy_append loop on the same device, from the same random
 * input) and against LAPACKE's zgeqrf (R, the reflectors V and tau: the
 * same zlarfg conventions), with Q1 = P(:, 1:nb) orthonormal and
 * P' A0 = R for P = I + W Y'.  Scaled errors |x - x_ref| / (s (m + nb)
 * eps), s the largest |A0| (R), 1 (Y, tau) or the largest |W_ref| (W), and
 * the backward and orthogonality errors below QRU_TEST_THRESHOLD (rows of
 * very different scale: the backward errors alone). */

/* max |a(i, j) - b(i, j)| over rows x cols, part 'A' all, 'U' i <= j,
 * 'L' i > j */
static double zdiff(char part, int rows, int cols, const zd *a, int lda,
                    const zd *b, int ldb)
{
    double mx = 0.0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i) {
            if ((part == 'U' && i > j) || (part == 'L' && i <= j))
                continue;
            double e = cabs(a[i + (size_t)j * lda] - b[i + (size_t)j * ldb]);
            mx = e == e && mx == mx ? fmax(mx, e) : NAN;
        }
    return mx;
}

static double zmaxabs(int rows, int cols, const zd *a, int lda)
{
    double mx = 0.0;
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < rows; ++i)
            mx = fmax(mx, cabs(a[i + (size_t)j * lda]));
    return mx;
}

/* The checks of one panel's result (R m x nb in the upper part of Rg, Y,
 * W, tau, all leading dimension m) against the reference op's (Rr, Yr,
 * Wr, taur; NULL: none) and zgeqrf's of A0 (zl, m x nb, and ztau; NULL:
 * none); tau0: every tau must be exactly 0 and R = A0. */
static void panel_checks(qru_dtype dt, const char *tag, int m, int nb,
                         const zd *A0, const zd *Rg, const zd *Y, const zd *W,
                         const zd *tau, const zd *Rr, const zd *Yr,
                         const zd *Wr, const zd *taur, const zd *zl,
                         const zd *ztau, int tau0)
{
    double eps = qru_test_eps(dt), thr = QRU_TEST_THRESHOLD;
    double sa = fmax(zmaxabs(m, nb, A0, m), DBL_MIN);
    double den = (double)(m + nb) * eps;
    /* exact structure: zeros below R's diagonal, unit lower Y */
    ck_assert_msg(zlower(m, nb, Rg) == 0.0, "%s: R not upper triangular",
                  tag);
    for (int j = 0; j < nb; ++j)
        for (int i = 0; i <= j && i < m; ++i)
            ck_assert_msg(Y[i + (size_t)j * m] == (i == j ? 1.0 : 0.0),
                          "%s: Y(%d,%d) = %g%+gi", tag, i, j,
                          creal(Y[i + (size_t)j * m]),
                          cimag(Y[i + (size_t)j * m]));
    if (Rr) {
        double sw = fmax(zmaxabs(m, nb, Wr, m), 1.0);
        double e[4] = {zdiff('U', m, nb, Rg, m, Rr, m) / (sa * den),
                       zdiff('A', m, nb, Y, m, Yr, m) / den,
                       zdiff('A', m, nb, W, m, Wr, m) / (sw * den),
                       zdiff('A', nb, 1, tau, nb, taur, nb) / den};
        const char *nm[4] = {"R", "Y", "W", "tau"};
        for (int q = 0; q < 4; ++q)
            ck_assert_msg(e[q] <= thr, "%s: %s against the reference op: "
                          "scaled error %g", tag, nm[q], e[q]);
    }
    if (zl) {
        /* nz reflectors: zgeqrf's last of a panel with m <= nb (no rows
         * below) makes R(m-1, m-1) real, the library's leaves tau = 0 */
        int nz = m > nb ? nb : m - 1;
        double er = 0.0;
        for (int j = 0; j < nb; ++j)
            for (int i = 0; i <= j && i < m; ++i)
                if (i < j || j < nz)
                    er = fmax(er, cabs(Rg[i + (size_t)j * m] -
                                       zl[i + (size_t)j * m]));
        double e[3] = {er / (sa * den), zdiff('L', m, nz, Y, m, zl, m) / den,
                       zdiff('A', nz, 1, tau, nb, ztau, nb) / den};
        const char *nm[3] = {"R", "V", "tau"};
        for (int q = 0; q < 3; ++q)
            ck_assert_msg(e[q] <= thr, "%s: %s against zgeqrf: scaled "
                          "error %g", tag, nm[q], e[q]);
    }
    if (tau0) {
        for (int j = 0; j < nb; ++j)
            ck_assert_msg(tau[j] == 0.0, "%s: tau(%d) = %g%+gi, not 0", tag,
                          j, creal(tau[j]), cimag(tau[j]));
        ck_assert_msg(zdiff('U', m, nb, Rg, m, A0, m) == 0.0,
                      "%s: R is not A0 with every tau 0", tag);
    }
    /* Q1 = I(:, 1:nb) + W Y(1:nb, :)' orthonormal; A0 + Y (W' A0) = R */
    int k = nb < m ? nb : m;
    zd *Q = zcalloc((size_t)m * k, sizeof(zd)), *S = zcalloc((size_t)nb * nb,
                                                             sizeof(zd));
    zd *D = zmalloc(sizeof(zd) * (size_t)m * nb);
    ck_assert(Q && S && D);
    for (int i = 0; i < k; ++i)
        Q[i + (size_t)i * m] = 1.0;
    zd one = 1.0, zero = 0.0;
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, m, k, nb, &one,
                W, m, Y, m, &one, Q, m);
    double eo = zorth(dt, m, k, Q);
    memcpy(D, A0, sizeof(zd) * (size_t)m * nb);
    cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, nb, nb, m, &one,
                W, m, A0, m, &zero, S, nb);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, nb, nb, &one, Y,
                m, S, nb, &one, D, m);
    double eb = zdiff('A', m, nb, D, m, Rg, m);
    for (int j = 0; j < nb; ++j) /* below the diagonal: exactly 0 */
        for (int i = j + 1; i < m; ++i)
            eb = fmax(eb, cabs(D[i + (size_t)j * m]));
    eb /= sa * den;
    ck_assert_msg(eo <= thr && eb <= thr,
                  "%s: Q1'Q1 - I: %g, P'A0 - R: %g (scaled)", tag, eo, eb);
    free(Q);
    free(S);
    free(D);
}

/* A NaN in the panel: the op returns (every kernel's team branches are
 * uniform), R has exact zeros below its diagonal, Y is unit lower
 * trapezoidal, and R's column nb / 2 holds a NaN (the values are
 * otherwise unspecified, as for every non-finite input). */
static void panel_nan_checks(const char *tag, int m, int nb, const zd *Rg,
                             const zd *Y)
{
    int nan = 0;
    ck_assert_msg(zlower(m, nb, Rg) == 0.0, "%s: R not upper triangular",
                  tag);
    for (int j = 0; j < nb; ++j)
        for (int i = 0; i <= j && i < m; ++i) {
            zd r = Rg[i + (size_t)j * m];
            if (j == nb / 2)
                nan |= isnan(creal(r)) || isnan(cimag(r));
            ck_assert_msg(Y[i + (size_t)j * m] == (i == j ? 1.0 : 0.0),
                          "%s: Y(%d,%d) not unit upper", tag, i, j);
        }
    ck_assert_msg(nan, "%s: no NaN in R(:, %d)", tag, nb / 2);
}

/* A0 (m x nb, leading dimension m) of kind 0: random, 1: upper
 * triangular (every tau 0), 2: rows of very different scale, 3 / 4:
 * everything near the square root of overflow / underflow (the scaled
 * norms), 5: random with one NaN; exact in dt. */
static zd *panel_input(qru_dtype dt, int m, int nb, int kind, unsigned *seed)
{
    zd *A = rand_z(dt, m, nb, seed, NULL);
    int dbl = dt == QRU_COMPLEX_DOUBLE;
    for (int j = 0; j < nb; ++j)
        for (int i = 0; i < m; ++i) {
            zd *a = &A[i + (size_t)j * m];
            if (kind == 1 && i > j)
                *a = 0.0;
            if (kind == 2 && i % 7 == 3)
                *a *= 1e6;
            if (kind == 3)
                *a *= dbl ? 0x1p660 : 0x1p80;
            if (kind == 4)
                *a *= dbl ? 0x1p-660 : 0x1p-80;
        }
    if (kind == 5) /* a NaN imaginary part in the last row, column nb / 2
                      (a complex is an array of its two parts) */
        ((double *)&A[m - 1 + (size_t)(nb / 2) * m])[1] = NAN;
    return A;
}

/* zgeqrf of A0: the result (m x nb) and tau (nb) */
static zd *panel_zgeqrf(int m, int nb, const zd *A0, zd **ztau)
{
    zd *Z = zmalloc(sizeof(zd) * (size_t)m * nb);
    *ztau = zcalloc((size_t)nb, sizeof(zd));
    ck_assert(Z && *ztau);
    memcpy(Z, A0, sizeof(zd) * (size_t)m * nb);
    ck_assert_int_eq(LAPACKE_zgeqrf(LAPACK_COL_MAJOR, m, nb,
                                    (lapack_complex_double *)Z, m,
                                    (lapack_complex_double *)*ztau),
                     0);
    return Z;
}

/* a device matrix's rows x cols as double complex (leading dimension
 * rows) */
static zd *down_part(const qru_matrix *M, int rows, int cols)
{
    zd *Z = down_z(M), *P = zmalloc(sizeof(zd) * (size_t)rows * cols);
    int ld = qru_matrix_rows(M);
    ck_assert_ptr_nonnull(P);
    for (int j = 0; j < cols; ++j)
        memcpy(P + (size_t)j * rows, Z + (size_t)j * ld, sizeof(zd) * rows);
    free(Z);
    return P;
}

/* an m x nb random device matrix with m + pad rows (the padding and the
 * stale contents of an output) */
static qru_matrix *panel_mat(qru_dtype dt, int m, int nb, int pad,
                             unsigned *seed)
{
    zd *Z = rand_z(dt, m + pad, nb, seed, NULL);
    qru_matrix *M = up_z(dt, m + pad, nb, Z);
    free(Z);
    return M;
}

START_TEST(test_panels)
{
    unsigned seed = 4242u;
    qru_backend be = qru_test_backend();
    int npass = be == QRU_BACKEND_CUDA ? 5 : be == QRU_BACKEND_OPENCL ? 3 : 1;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        const char *name = qru_test_type_name(dt);
        if (!qru_context_supports(ctx, dt))
            continue;
        const qru_backend_ops *O = ctx->ops;
        int mx = 0, mx0 = 0;
        ck_assert_int_eq(O->panel_qr_max_nb(ctx, dt, 200, &mx), 0);
        ck_assert_int_eq(O->panel_qr_max_nb(ctx, dt, 0, &mx0), 0);
        ck_assert_msg(mx >= 0 && mx <= mx0 && mx0 <= 1024,
                      "%s: panel_qr_max_nb %d (extra 200), %d (extra 0)",
                      name, mx, mx0);
        /* m, nb, kind: around the block and team sizes, the widest panel
         * with 200 extra rows that runs on chip (the last; the block of
         * the fused update panels), tall ones (several blocks on CUDA) */
        int cases[][3] = {{1, 1, 0},    {5, 5, 0},     {7, 3, 1},
                          {40, 13, 0},  {33, 32, 0},   {129, 32, 2},
                          {300, 17, 3}, {300, 17, 4},  {64, 64, 0},
                          {300, 17, 5}, {64, 64, 5},   {3000, 32, 5},
                          {289, 64, 0}, {1000, 8, 0},  {3000, 32, 0},
                          {0, 0, 0}};
        int last = (int)(sizeof cases / sizeof cases[0]) - 1;
        if (mx > 0) {
            cases[last][0] = mx + 200;
            cases[last][1] = mx;
        }
        for (int pass = 0; pass < npass; ++pass) {
            ck_assert_int_eq(
                qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL, pass), 0);
            for (int c = 0; c <= last; ++c) {
                int m = cases[c][0], nb = cases[c][1], kind = cases[c][2];
                if (m == 0 || (m >= 1000 && pass > 0 && pass != 3))
                    continue;
                /* QRU_TEST_QUICK (the sanitizer runs): panels up to
                 * 64 x 64 elements' worth and the widest on-chip one (the
                 * last case), the tall ones only on the many-block pass */
                if (getenv("QRU_TEST_QUICK") && c < last &&
                    (m >= 1000 ? pass != 3 : m * nb > 4096))
                    continue;
                char tag[96];
                snprintf(tag, sizeof tag, "%s panel_qr kernel %d, %d x %d "
                         "kind %d", name, pass, m, nb, kind);
                zd *A0 = panel_input(dt, m, nb, kind, &seed);
                qru_matrix *M[2][5];
                for (int r = 0; r < 2; ++r) {
                    zd *P = zcalloc((size_t)(m + 3) * nb, sizeof(zd));
                    ck_assert_ptr_nonnull(P);
                    for (int j = 0; j < nb; ++j)
                        memcpy(P + (size_t)j * (m + 3), A0 + (size_t)j * m,
                               sizeof(zd) * m);
                    M[r][0] = up_z(dt, m + 3, nb, P);
                    free(P);
                    M[r][1] = panel_mat(dt, m, nb, 1, &seed);
                    M[r][2] = panel_mat(dt, m, nb, 2, &seed);
                    M[r][3] = panel_mat(dt, nb, 1, 0, &seed);
                    M[r][4] = panel_mat(dt, (int)qru_panel_work(m, nb), 1, 1,
                                        &seed);
                    int (*f)(qru_context *, qru_dtype, int, int, qru_ptr,
                             int, qru_ptr, int, qru_ptr, int, qru_ptr,
                             qru_ptr) = r ? qru_ref_panel_qr : O->panel_qr;
                    ck_assert_int_eq(f(ctx, dt, m, nb, M[r][0]->p,
                                       M[r][0]->ld, M[r][1]->p, M[r][1]->ld,
                                       M[r][2]->p, M[r][2]->ld, M[r][3]->p,
                                       M[r][4]->p),
                                     0);
                }
                zd *g[2][4];
                for (int r = 0; r < 2; ++r)
                    for (int q = 0; q < 4; ++q)
                        g[r][q] = down_part(M[r][q], q == 3 ? nb : m,
                                            q == 3 ? 1 : nb);
                /* zgeqrf: not for kind 1 (every tau 0, zgeqrf's make
                 * the diagonal real) nor 5 (the NaN); kind 2: the
                 * backward errors alone
                 * (the rows of 1e6 leave the reflectors of the trailing
                 * columns ill-conditioned, their forward errors up to
                 * 1e6 eps) */
                zd *ztau = NULL, *zl = NULL;
                if (kind == 0 || kind == 3 || kind == 4)
                    zl = panel_zgeqrf(m, nb, A0, &ztau);
                int fw = kind != 2;
                if (kind == 5) /* the NaN: termination and structure */
                    panel_nan_checks(tag, m, nb, g[0][0], g[0][1]);
                else
                    panel_checks(dt, tag, m, nb, A0, g[0][0], g[0][1],
                                 g[0][2], g[0][3], fw ? g[1][0] : NULL,
                                 g[1][1], g[1][2], g[1][3], zl, ztau,
                                 kind == 1);
                for (int r = 0; r < 2; ++r) {
                    for (int q = 0; q < 4; ++q)
                        free(g[r][q]);
                    for (int q = 0; q < 5; ++q)
                        qru_matrix_destroy(M[r][q]);
                }
                free(A0);
                free(zl);
                free(ztau);
            }
        }
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                                            QRU_PANEL_KERNEL_AUTO),
                         0);
        /* panel_qr_tp: mt, mb, nb, A upper triangular; the widest on-chip
         * panel with 200 rows below (the last) */
        int tcases[][4] = {{64, 200, 64, 1}, {5, 3, 5, 1}, {1, 1, 1, 1},
                           {20, 1, 20, 0},   {0, 9, 4, 0}, {12, 0, 7, 0},
                           {40, 300, 40, 1}, {0, 0, 0, 1}};
        int tl = (int)(sizeof tcases / sizeof tcases[0]) - 1;
        if (mx > 0) {
            tcases[tl][0] = tcases[tl][2] = mx;
            tcases[tl][1] = 200;
        }
        for (int pass = 0; pass < (be == QRU_BACKEND_CUDA ? 2 : 1); ++pass) {
            ck_assert_int_eq(
                qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                                   pass ? QRU_PANEL_KERNEL_REG
                                        : QRU_PANEL_KERNEL_AUTO),
                0);
            for (int c = 0; c <= tl; ++c) {
                int mt = tcases[c][0], mb = tcases[c][1], nb = tcases[c][2];
                int m = mt + mb;
                if (nb == 0)
                    continue;
                char tag[96];
                snprintf(tag, sizeof tag, "%s panel_qr_tp kernel %d, "
                         "%d + %d x %d", name, pass, mt, mb, nb);
                zd *A0 = panel_input(dt, m, nb, 0, &seed);
                if (tcases[c][3])
                    for (int j = 0; j < nb; ++j)
                        for (int i = j + 1; i < mt; ++i)
                            A0[i + (size_t)j * m] = 0.0;
                /* the two parts, with padding rows */
                zd *Pa = zcalloc((size_t)(mt + 2) * nb, sizeof(zd)),
                   *Pb = zcalloc((size_t)(mb + 3) * nb, sizeof(zd));
                ck_assert(Pa && Pb);
                for (int j = 0; j < nb; ++j) {
                    memcpy(Pa + (size_t)j * (mt + 2), A0 + (size_t)j * m,
                           sizeof(zd) * mt);
                    memcpy(Pb + (size_t)j * (mb + 3), A0 + (size_t)j * m + mt,
                           sizeof(zd) * mb);
                    Pa[mt + (size_t)j * (mt + 2)] = 7.0 - 3.0 * _Complex_I;
                    Pb[mb + (size_t)j * (mb + 3)] = -5.0 + 2.0 * _Complex_I;
                }
                qru_matrix *A = up_z(dt, mt + 2, nb, Pa),
                           *B = up_z(dt, mb + 3, nb, Pb),
                           *Y = panel_mat(dt, m, nb, 1, &seed),
                           *W = panel_mat(dt, m, nb, 2, &seed),
                           *tau = panel_mat(dt, nb, 1, 0, &seed),
                           *wk = panel_mat(dt, (int)qru_panel_tp_work(m, nb),
                                           1, 1, &seed);
                ck_assert_int_eq(O->panel_qr_tp(ctx, dt, mt, mb, nb, A->p,
                                                A->ld, B->p, B->ld, Y->p,
                                                Y->ld, W->p, W->ld, tau->p,
                                                wk->p),
                                 0);
                zd *ga = down_z(A), *gb = down_z(B);
                zd *R = zmalloc(sizeof(zd) * (size_t)m * nb);
                ck_assert_ptr_nonnull(R);
                for (int j = 0; j < nb; ++j) {
                    memcpy(R + (size_t)j * m, ga + (size_t)j * (mt + 2),
                           sizeof(zd) * mt);
                    memcpy(R + (size_t)j * m + mt, gb + (size_t)j * (mb + 3),
                           sizeof(zd) * mb);
                    /* the padding rows: untouched */
                    ck_assert_msg(ga[mt + (size_t)j * (mt + 2)] ==
                                          Pa[mt + (size_t)j * (mt + 2)] &&
                                      gb[mb + (size_t)j * (mb + 3)] ==
                                          Pb[mb + (size_t)j * (mb + 3)],
                                  "%s: a padding row changed", tag);
                }
                zd *gy = down_part(Y, m, nb), *gw = down_part(W, m, nb),
                   *gt = down_part(tau, nb, 1), *ztau = NULL;
                zd *zl = panel_zgeqrf(m, nb, A0, &ztau);
                /* the upper triangular A with nothing below it (mb = 0)
                 * leaves every tau 0; zgeqrf's then differs by phases */
                int up = tcases[c][3] && mb == 0;
                panel_checks(dt, tag, m, nb, A0, R, gy, gw, gt, NULL, NULL,
                             NULL, NULL, up ? NULL : zl, ztau, up);
                free(Pa);
                free(Pb);
                free(ga);
                free(gb);
                free(R);
                free(gy);
                free(gw);
                free(gt);
                free(zl);
                free(ztau);
                free(A0);
                qru_matrix_destroy(A);
                qru_matrix_destroy(B);
                qru_matrix_destroy(Y);
                qru_matrix_destroy(W);
                qru_matrix_destroy(tau);
                qru_matrix_destroy(wk);
            }
        }
        ck_assert_int_eq(qru_ctx_set_tuning(ctx, dt, QRU_TUNE_PANEL_KERNEL,
                                            QRU_PANEL_KERNEL_AUTO),
                         0);
    }
}
END_TEST

START_TEST(test_roundtrip)
{
    unsigned seed = 77u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        size_t es = qru_test_elsize(dt);
        ck_assert_int_eq((int)es, dt == QRU_COMPLEX_DOUBLE ? 16 : 8);
        int rows = 7, cols = 5, ld = 9;
        void *h = qru_test_alloc(dt, rows, cols, ld);
        qru_test_rand(dt, rows, cols, h, ld, &seed);
        qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 11, h, ld);
        ck_assert_int_eq(qru_matrix_dtype(M), dt);
        qru_matrix *B = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, rows, cols, 0, &B), 0);
        ck_assert_int_eq(qru_matrix_copy(M, B), 0);
        void *g = qru_test_download(B);
        for (int j = 0; j < cols; ++j)
            ck_assert_int_eq(memcmp((char *)g + es * (size_t)j * rows,
                                    (char *)h + es * (size_t)j * ld,
                                    es * (size_t)rows),
                             0);
        /* a float matrix does not pass for a complex float one */
        qru_matrix *F = NULL;
        qru_dtype base = dt == QRU_COMPLEX_DOUBLE ? QRU_DOUBLE : QRU_FLOAT;
        ck_assert_int_eq(qru_matrix_create(ctx, base, rows, cols, 0, &F), 0);
        ck_assert_int_eq(qru_matrix_copy(M, F), -2);
        /* wrapped host memory (the CPU backend's memory is the host's) */
        if (qru_context_backend(ctx) == QRU_BACKEND_CPU) {
            qru_matrix *W = NULL;
            ck_assert_int_eq(qru_matrix_wrap(ctx, dt, rows, cols, h, ld, &W),
                             0);
            ck_assert_ptr_eq(qru_matrix_data(W), h);
            ck_assert_int_eq(qru_matrix_copy(W, B), 0);
            qru_matrix_destroy(W);
        }
        /* the tuning of a complex type is its base type's */
        int v = -1, w = -2;
        ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_QR_NB, 24),
                         0);
        ck_assert_int_eq(qru_context_get_tuning(ctx, base, QRU_TUNE_QR_NB,
                                                &v),
                         0);
        ck_assert_int_eq(qru_context_get_tuning(ctx, dt, QRU_TUNE_QR_NB, &w),
                         0);
        ck_assert_int_eq(v, 24);
        ck_assert_int_eq(w, 24);
        ck_assert_int_eq(qru_context_set_tuning(ctx, (qru_dtype)5,
                                                QRU_TUNE_QR_NB, 24),
                         -2);
        qru_matrix_destroy(F);
        qru_matrix_destroy(B);
        qru_matrix_destroy(M);
        free(g);
        free(h);
    }
}
END_TEST

/* A square complex matrix of order n with a dominant diagonal (so that
 * the routines would have nothing numerical to refuse). */
static qru_matrix *cmat(qru_dtype dt, int rows, int cols, unsigned *seed,
                        void **host)
{
    int ld = rows > 0 ? rows : 1;
    void *h = qru_test_alloc(dt, rows, cols, ld);
    qru_test_rand(dt, rows, cols, h, ld, seed);
    for (int i = 0; i < rows && i < cols; ++i)
        qru_test_set_c(dt, h, ld, i, i, rows + 2.0, 0.0);
    qru_matrix *M = qru_test_upload(ctx, dt, rows, cols, 0, h, ld);
    *host = h;
    return M;
}

/* M still holds host (bit for bit) */
static void assert_same(const qru_matrix *M, const void *host, const char *w)
{
    void *g = qru_test_download(M);
    size_t es = qru_test_elsize(qru_matrix_dtype(M));
    size_t n = (size_t)qru_matrix_rows(M) * (size_t)qru_matrix_cols(M);
    ck_assert_msg(memcmp(g, host, es * n) == 0, "%s changed its argument", w);
    free(g);
}

START_TEST(test_unsupported_routines)
{
    unsigned seed = 99u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        const char *name = qru_test_type_name(dt);
        int n = 6;
        void *ha, *hw, *hb, *hl1, *hc;
        qru_matrix *A = cmat(dt, n, n, &seed, &ha);
        qru_matrix *W = cmat(dt, n, 2, &seed, &hw);
        qru_matrix *b = cmat(dt, n, 1, &seed, &hb);
        qru_matrix *L1 = cmat(dt, n, n, &seed, &hl1);
        qru_matrix *C = cmat(dt, n + 2, 2, &seed, &hc);
        qru_matrix *AB = NULL, *WB = NULL, *L2 = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n + 2, n + 2, 0, &L2), 0);
        ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, n,
                                               qru_matrix_data(A), n, 1, 0,
                                               &AB),
                         0);
        ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, n, 2,
                                               qru_matrix_data(W), n, 1, 0,
                                               &WB),
                         0);
        /* (the Cholesky routines, qru_trsm and the column shift take
         * complex data: tests/test_chol_complex.c, test_shift below; so
         * do the least-squares batches: tests/test_lsq_batch_complex.c) */
        double gx[2] = {0.0, 1.0}, gy[2] = {1.0, 2.0};
        qru_gp *gp = NULL;
        assert_unsupported(qru_gp_create(ctx, dt, 2, gx, gy, NULL, &gp),
                           "qru_gp_create", name);
        ck_assert_ptr_null(gp);
        qru_matrix *x = NULL, *y = NULL;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, 1, 0, &x), 0);
        assert_unsupported(qru_nnls(ctx, A, b, 0, -1.0, x, NULL, NULL),
                           "qru_nnls", name);
        assert_unsupported(qru_omp(ctx, A, b, 2, -1.0, x, NULL, NULL, NULL),
                           "qru_omp", name);
        (void)y;
        assert_same(A, ha, "a refused call");
        assert_same(W, hw, "a refused call");
        assert_same(L1, hl1, "a refused call");
        qru_matrix_destroy(x);
        qru_matrix_destroy(L2);
        qru_matrix_destroy(AB);
        qru_matrix_destroy(WB);
        qru_matrix_destroy(C);
        qru_matrix_destroy(L1);
        qru_matrix_destroy(b);
        qru_matrix_destroy(W);
        qru_matrix_destroy(A);
        free(ha);
        free(hw);
        free(hb);
        free(hl1);
        free(hc);
    }
}
END_TEST


static const char *form_name(int q)
{
    return q == QRU_Q_FULL ? "full" : q == QRU_Q_THIN ? "thin" : "Q-less";
}

/* f against the problem (A n x m, B n x r): R's zeros, the factors'
 * backward and orthogonality errors, d = Q' b (and the thin form's
 * E = b - Q1 d), R'R = A'A (Q-less), and the least-squares solution and
 * residual norms against zgels.  Returns the largest scaled error. */
static double zcheck(qru_lsq *f, int n, int m, int r, const zd *A,
                     const zd *B, const char *tag)
{
    qru_dtype dt = qru_lsq_dtype(f);
    int q = qru_lsq_q_form(f), rr = q == QRU_Q_FULL ? n : m;
    double thr = QRU_TEST_THRESHOLD, worst = 0.0;
    ck_assert_int_eq(qru_lsq_rows(f), n);
    ck_assert_int_eq(qru_lsq_cols(f), m);
    qru_matrix *Rm = NULL, *Dm = NULL, *Qm = NULL, *Em = NULL, *Xm = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, rr, m, 0, &Rm), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, rr, r, 0, &Dm), 0);
    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, r, 0, &Xm), 0);
    ck_assert_int_eq(qru_lsq_get_r(f, Rm), 0);
    ck_assert_int_eq(qru_lsq_get_d(f, Dm), 0);
    zd *R = down_z(Rm), *D = down_z(Dm), *Q = NULL;
    double low = zlower(rr, m, R);
    ck_assert_msg(low == 0.0, "%s: R has %g below the diagonal", tag, low);
    double er = zr_vs_lapack(dt, n, m, A, R, rr);
    ck_assert_msg(er < thr, "%s: |R| - |R of zgeqrf| %g", tag, er);
    worst = fmax(worst, er);
    if (q != QRU_Q_NONE) {
        int qc = q == QRU_Q_FULL ? n : m;
        ck_assert_int_eq(qru_matrix_create(ctx, dt, n, qc, 0, &Qm), 0);
        ck_assert_int_eq(qru_lsq_get_q(f, Qm), 0);
        Q = down_z(Qm);
        double be = zbackward(dt, n, m, qc, A, Q, R);
        double oe = zorth(dt, n, qc, Q);
        ck_assert_msg(be < thr, "%s: backward error %g", tag, be);
        ck_assert_msg(oe < thr, "%s: orthogonality error %g", tag, oe);
        worst = fmax(worst, fmax(be, oe));
        /* d = Q' b (the thin form: also E = b - Q1 d) */
        zd *T = zmalloc(sizeof(zd) * (size_t)qc * r);
        ck_assert_ptr_nonnull(T);
        zd one = 1.0, zero = 0.0, mone = -1.0;
        cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, qc, r, n,
                    &one, Q, n, B, n, &zero, T, qc);
        double bn = fro_z(n, r, B, n), de = 0.0;
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < qc; ++i)
                de = fmax(de, cabs(T[i + (size_t)j * qc] - D[i + (size_t)j * rr]));
        de /= bn * n * qru_test_eps(dt);
        ck_assert_msg(de < thr, "%s: d - Q'b error %g", tag, de);
        worst = fmax(worst, de);
        if (q == QRU_Q_THIN) {
            ck_assert_int_eq(qru_matrix_create(ctx, dt, n, r, 0, &Em), 0);
            ck_assert_int_eq(qru_lsq_get_residuals(f, Em), 0);
            zd *E = down_z(Em), *F = zmalloc(sizeof(zd) * (size_t)n * r);
            ck_assert_ptr_nonnull(F);
            memcpy(F, B, sizeof(zd) * (size_t)n * r);
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, r, m,
                        &mone, Q, n, D, m, &one, F, n);
            double ee = 0.0;
            for (size_t i = 0; i < (size_t)n * r; ++i)
                ee = fmax(ee, cabs(F[i] - E[i]));
            ee /= bn * n * qru_test_eps(dt);
            ck_assert_msg(ee < thr, "%s: E - (b - Q1 d) error %g", tag, ee);
            worst = fmax(worst, ee);
            free(E);
            free(F);
        }
        free(T);
    } else { /* the error estimate from the Gram data (qru.h) */
        double est = -1.0, ref = 0.0;
        ck_assert_int_eq(qru_lsq_get_error_estimate(f, &est), 0);
        zd one = 1.0, zero = 0.0, mone = -1.0;
        zd *x = zmalloc(sizeof(zd) * m), *t = zmalloc(sizeof(zd) * m);
        zd *res = zmalloc(sizeof(zd) * n);
        ck_assert(x && t && res);
        for (int j = 0; j < r; ++j) {
            memcpy(x, D + (size_t)j * m, sizeof(zd) * m);
            cblas_ztrsv(CblasColMajor, CblasUpper, CblasNoTrans,
                        CblasNonUnit, m, R, m, x, 1);
            memcpy(res, B + (size_t)j * n, sizeof(zd) * n);
            cblas_zgemv(CblasColMajor, CblasNoTrans, n, m, &mone, A, n, x, 1,
                        &one, res, 1);
            cblas_zgemv(CblasColMajor, CblasConjTrans, n, m, &one, A, n, res,
                        1, &zero, t, 1);
            cblas_ztrsv(CblasColMajor, CblasUpper, CblasConjTrans,
                        CblasNonUnit, m, R, m, t, 1);
            cblas_ztrsv(CblasColMajor, CblasUpper, CblasNoTrans,
                        CblasNonUnit, m, R, m, t, 1);
            double xn = cblas_dznrm2(m, x, 1), tn = cblas_dznrm2(m, t, 1);
            ref = fmax(ref, xn > 0.0 ? tn / xn : tn);
        }
        double sv[2];
        zd *W = zmalloc(sizeof(zd) * (size_t)m * m);
        double *sup = zmalloc(sizeof(double) * m), *all = zmalloc(sizeof(double) * m);
        ck_assert(W && sup && all);
        memcpy(W, R, sizeof(zd) * (size_t)m * m);
        qru_test_zsvd(m, m, W, m, all);
        sv[0] = all[0];
        sv[1] = all[m - 1];
        double kappa = sv[0] / sv[1];
        double ee = fabs(est - ref) /
                    ((n > m ? n : m) * qru_test_eps(dt) * kappa * kappa);
        ck_assert_msg(est >= 0.0 && ee < thr, "%s: error estimate %g, "
                      "reference %g (scaled %g)", tag, est, ref, ee);
        worst = fmax(worst, ee);
        free(W);
        free(sup);
        free(all);
        free(x);
        free(t);
        free(res);
    }
    int st = qru_lsq_solve(f, Xm);
    ck_assert_msg(st == 0, "%s: qru_lsq_solve: %d (%s)", tag, st,
                  qru_last_error(ctx));
    zd *X = down_z(Xm);
    double *res = zmalloc(sizeof(double) * r);
    ck_assert_ptr_nonnull(res);
    ck_assert_int_eq(qru_lsq_get_residual_norms(f, res), 0);
    double xe, re;
    zlsq_errors(dt, n, m, r, A, B, X, res, &xe, &re);
    ck_assert_msg(xe < thr, "%s: least-squares solution error %g", tag, xe);
    ck_assert_msg(re < thr, "%s: residual norm error %g", tag, re);
    worst = fmax(worst, fmax(xe, re));
    if (getenv("QRU_TEST_VERBOSE"))
        printf("%-56s worst scaled error %.3g\n", tag, worst);
    free(res);
    free(X);
    free(R);
    free(D);
    free(Q);
    qru_matrix_destroy(Rm);
    qru_matrix_destroy(Dm);
    qru_matrix_destroy(Qm);
    qru_matrix_destroy(Em);
    qru_matrix_destroy(Xm);
    return worst;
}

/* qru_qr_factor: [Q, R] = qr(A); B := Q' B, sizes around the block
 * sizes, with the blocked QR and LAPACK's (QRU_TUNE_QR_VENDOR) */
START_TEST(test_qr_factor)
{
    static const int sz[][2] = {{1, 1}, {5, 3}, {3, 5}, {33, 32}, {70, 70},
                                {100, 65}, {130, 40}};
    unsigned seed = 2024u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        for (int s = 0; s < (int)(sizeof sz / sizeof sz[0]); ++s)
            for (int nb = 0; nb <= 8; nb += 8) {
                int n = sz[s][0], m = sz[s][1], r = 2;
                char tag[128];
                snprintf(tag, sizeof tag, "qr %s %d x %d nb %d",
                         qru_test_type_name(dt), n, m, nb);
                zd *A = rand_z(dt, n, m, &seed, NULL);
                zd *B = rand_z(dt, n, r, &seed, NULL);
                qru_matrix *Am = up_z(dt, n, m, A), *Bm = up_z(dt, n, r, B),
                           *Qm = NULL;
                ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Qm), 0);
                int st = qru_qr_factor(ctx, nb, Am, Qm, Bm);
                ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                              qru_last_error(ctx));
                zd *R = down_z(Am), *Q = down_z(Qm), *D = down_z(Bm);
                ck_assert_msg(zlower(n, m, R) == 0.0, "%s: R not upper", tag);
                double be = zbackward(dt, n, m, n, A, Q, R);
                double oe = zorth(dt, n, n, Q);
                double re = zr_vs_lapack(dt, n, m, A, R, n);
                ck_assert_msg(be < QRU_TEST_THRESHOLD, "%s: backward %g", tag,
                              be);
                ck_assert_msg(oe < QRU_TEST_THRESHOLD, "%s: orth %g", tag, oe);
                ck_assert_msg(re < QRU_TEST_THRESHOLD, "%s: |R| %g", tag, re);
                /* B := Q' B */
                zd one = 1.0, zero = 0.0;
                zd *T = zmalloc(sizeof(zd) * (size_t)n * r);
                cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, n, r,
                            n, &one, Q, n, B, n, &zero, T, n);
                double de = 0.0;
                for (size_t i = 0; i < (size_t)n * r; ++i)
                    de = fmax(de, cabs(T[i] - D[i]));
                de /= fro_z(n, r, B, n) * n * qru_test_eps(dt);
                ck_assert_msg(de < QRU_TEST_THRESHOLD, "%s: Q'B %g", tag, de);
                free(T);
                free(R);
                free(Q);
                free(D);
                free(A);
                free(B);
                qru_matrix_destroy(Am);
                qru_matrix_destroy(Bm);
                qru_matrix_destroy(Qm);
            }
    }
}
END_TEST

/* qru_lsq_create in the three forms, solve and the residual norms; a
 * rank-deficient A is refused by the solve */
START_TEST(test_lsq)
{
    static const int sz[][3] = {{1, 1, 1}, {6, 4, 2}, {40, 40, 1},
                                {90, 33, 3}, {200, 64, 2}};
    unsigned seed = 31u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        for (int s = 0; s < (int)(sizeof sz / sizeof sz[0]); ++s)
            for (int q = 0; q < 3; ++q) {
                int n = sz[s][0], m = sz[s][1], r = sz[s][2];
                char tag[128];
                snprintf(tag, sizeof tag, "lsq %s %s %d x %d r %d",
                         qru_test_type_name(dt), form_name(q), n, m, r);
                zd *A = rand_z(dt, n, m, &seed, NULL);
                zd *B = rand_z(dt, n, r, &seed, NULL);
                qru_matrix *Am = up_z(dt, n, m, A), *Bm = up_z(dt, n, r, B);
                qru_lsq_options opt;
                qru_lsq_options_init(&opt);
                opt.q = q;
                qru_lsq *f = NULL;
                int st = qru_lsq_create(ctx, Am, Bm, &opt, &f);
                ck_assert_msg(st == 0, "%s: create %d (%s)", tag, st,
                              qru_last_error(ctx));
                ck_assert_int_eq(qru_lsq_dtype(f), dt);
                zcheck(f, n, m, r, A, B, tag);
                qru_lsq_destroy(f);
                if (m >= 2) { /* column 2 := column 1: rank m - 1 */
                    memcpy(A + n, A, sizeof(zd) * n);
                    qru_matrix *Ad = up_z(dt, n, m, A), *X = NULL;
                    ck_assert_int_eq(qru_lsq_create(ctx, Ad, Bm, &opt, &f), 0);
                    ck_assert_int_eq(qru_matrix_create(ctx, dt, m, r, 0, &X),
                                     0);
                    st = qru_lsq_solve(f, X);
                    ck_assert_msg(st == 2, "%s: rank-deficient solve %d", tag,
                                  st);
                    qru_matrix_destroy(X);
                    qru_matrix_destroy(Ad);
                    qru_lsq_destroy(f);
                }
                qru_matrix_destroy(Am);
                qru_matrix_destroy(Bm);
                free(A);
                free(B);
            }
    }
}
END_TEST


/* ---- the updates ---- */

/* the rows x cols array X (ld rows) with p columns C (rows x p) inserted
 * after column k, or (C NULL) the p columns after column k removed */
static zd *zcols(const zd *X, int rows, int cols, int k, int p, const zd *C)
{
    int c1 = C ? cols + p : cols - p;
    zd *Y = zmalloc(sizeof(zd) * (size_t)rows * (c1 > 0 ? c1 : 1));
    ck_assert_ptr_nonnull(Y);
    size_t nr = (size_t)rows;
    memcpy(Y, X, sizeof(zd) * nr * k);
    if (C) {
        memcpy(Y + nr * k, C, sizeof(zd) * nr * p);
        memcpy(Y + nr * (k + p), X + nr * k, sizeof(zd) * nr * (cols - k));
    } else {
        memcpy(Y + nr * k, X + nr * (k + p),
               sizeof(zd) * nr * (cols - k - p));
    }
    return Y;
}

/* the same for rows: p rows C (p x cols) inserted after row k, or (C
 * NULL) removed */
static zd *zrows(const zd *X, int rows, int cols, int k, int p, const zd *C)
{
    int r1 = C ? rows + p : rows - p;
    zd *Y = zmalloc(sizeof(zd) * (size_t)(r1 > 0 ? r1 : 1) * cols);
    ck_assert_ptr_nonnull(Y);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < r1; ++i) {
            int src = C ? (i < k ? i : i < k + p ? -1 : i - p)
                        : (i < k ? i : i + p);
            Y[i + (size_t)j * r1] = src >= 0 ? X[src + (size_t)j * rows]
                                             : C[i - k + (size_t)j * p];
        }
    return Y;
}

/* the rows k .. k + p - 1 of X (rows x cols) */
static zd *zrows_of(const zd *X, int rows, int cols, int k, int p)
{
    zd *Y = zmalloc(sizeof(zd) * (size_t)p * cols);
    ck_assert_ptr_nonnull(Y);
    for (int j = 0; j < cols; ++j)
        for (int i = 0; i < p; ++i)
            Y[i + (size_t)j * p] = X[k + i + (size_t)j * rows];
    return Y;
}

enum { OP_ADD_COLS, OP_REMOVE_COLS, OP_ADD_ROWS, OP_REMOVE_ROWS, OP_MODIFY,
       OP_COUNT };
static const char *const op_names[OP_COUNT] = {"add_cols", "remove_cols",
                                               "add_rows", "remove_rows",
                                               "modify"};
static const qru_update_algorithm algs[4] = {
    QRU_UPDATE_DISSERTATION, QRU_UPDATE_FAST, QRU_UPDATE_REFACTOR,
    QRU_UPDATE_AUTO};
static const char *const alg_names[4] = {"dissertation", "fast", "refactor",
                                         "auto"};

static qru_lsq *zfactor(qru_dtype dt, int q, int rank, int n, int m, int r,
                        const zd *A, const zd *B)
{
    qru_matrix *Am = up_z(dt, n, m, A), *Bm = up_z(dt, n, r, B);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = q;
    opt.rank = rank;
    qru_lsq *f = NULL;
    int st = qru_lsq_create(ctx, Am, Bm, &opt, &f);
    ck_assert_msg(st == 0, "qru_lsq_create: %d (%s)", st, qru_last_error(ctx));
    qru_matrix_destroy(Am);
    qru_matrix_destroy(Bm);
    return f;
}

/* One update of f (the problem A, B: n x m, n x r) by op at k with p
 * rows, columns or the rank (C: the new columns n x p, rows p x m with
 * e p x r, or U n x p with V m x p); A1 and B1 receive the updated
 * problem.  Returns the status. */
static int zupdate(qru_lsq *f, int op, int n, int m, int r, int k, int p,
                   const zd *A, const zd *B, const zd *C, const zd *e,
                   const zd *V, zd **A1, zd **B1)
{
    qru_dtype dt = qru_lsq_dtype(f);
    int qless = qru_lsq_q_form(f) == QRU_Q_NONE, st;
    qru_matrix *Cm = NULL, *Em = NULL, *Am = NULL, *Bm = NULL;
    *A1 = *B1 = NULL;
    switch (op) {
    case OP_ADD_COLS:
        Cm = up_z(dt, n, p, C);
        if (qless) {
            Am = up_z(dt, n, m, A);
            Bm = up_z(dt, n, r, B);
            st = qru_lsq_add_cols_data(f, k, Cm, Am, Bm);
        } else {
            st = qru_lsq_add_cols(f, k, Cm);
        }
        *A1 = zcols(A, n, m, k, p, C);
        *B1 = zcols(B, n, r, 0, 0, NULL);
        break;
    case OP_REMOVE_COLS:
        st = qru_lsq_remove_cols(f, k, p);
        *A1 = zcols(A, n, m, k, p, NULL);
        *B1 = zcols(B, n, r, 0, 0, NULL);
        break;
    case OP_ADD_ROWS:
        Cm = up_z(dt, p, m, C);
        Em = up_z(dt, p, r, e);
        st = qru_lsq_add_rows(f, k, Cm, Em);
        *A1 = zrows(A, n, m, k, p, C);
        *B1 = zrows(B, n, r, k, p, e);
        break;
    case OP_REMOVE_ROWS:
        if (qless) {
            zd *U = zrows_of(A, n, m, k, p), *eu = zrows_of(B, n, r, k, p);
            Cm = up_z(dt, p, m, U);
            Em = up_z(dt, p, r, eu);
            free(U);
            free(eu);
            st = qru_lsq_remove_rows_data(f, k, Cm, Em);
        } else {
            st = qru_lsq_remove_rows(f, k, p);
        }
        *A1 = zrows(A, n, m, k, p, NULL);
        *B1 = zrows(B, n, r, k, p, NULL);
        break;
    default: { /* A + U V' */
        Cm = up_z(dt, n, p, C);
        Em = up_z(dt, m, p, V);
        st = qru_lsq_modify(f, Cm, Em);
        *A1 = zcols(A, n, m, 0, 0, NULL);
        *B1 = zcols(B, n, r, 0, 0, NULL);
        zd one = 1.0;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, n, m, p,
                    &one, C, n, V, m, &one, *A1, n);
        break;
    }
    }
    qru_matrix_destroy(Cm);
    qru_matrix_destroy(Em);
    qru_matrix_destroy(Am);
    qru_matrix_destroy(Bm);
    return st;
}

/* f's R, d, Q, E and residual norms (what a refused update must leave) */
typedef struct zsnap {
    void *R, *d, *Q, *E;
    double rho[4];
    size_t bytes[4];
} zsnap;

static void *zget(const qru_lsq *f, int which, int rows, int cols,
                  size_t *bytes)
{
    qru_dtype dt = qru_lsq_dtype(f);
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, rows, cols, 0, &M), 0);
    int st = which == 0   ? qru_lsq_get_r(f, M)
             : which == 1 ? qru_lsq_get_d(f, M)
             : which == 2 ? qru_lsq_get_q(f, M)
                          : qru_lsq_get_residuals(f, M);
    ck_assert_int_eq(st, 0);
    void *h = qru_test_download(M);
    *bytes = qru_test_elsize(dt) * (size_t)rows * (size_t)cols;
    qru_matrix_destroy(M);
    return h;
}

static zsnap zsnap_of(const qru_lsq *f)
{
    zsnap s = {0};
    int n = qru_lsq_rows(f), m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    int q = qru_lsq_q_form(f), rr = q == QRU_Q_FULL ? n : m;
    s.R = zget(f, 0, rr, m, &s.bytes[0]);
    s.d = zget(f, 1, rr, r, &s.bytes[1]);
    if (q != QRU_Q_NONE)
        s.Q = zget(f, 2, n, q == QRU_Q_FULL ? n : m, &s.bytes[2]);
    if (q == QRU_Q_THIN)
        s.E = zget(f, 3, n, r, &s.bytes[3]);
    ck_assert_int_le(r, 4);
    ck_assert_int_eq(qru_lsq_get_residual_norms(f, s.rho), 0);
    return s;
}

static void zsnap_same(const qru_lsq *f, zsnap *s, const char *tag)
{
    zsnap t = zsnap_of(f);
    void *a[4] = {s->R, s->d, s->Q, s->E}, *b[4] = {t.R, t.d, t.Q, t.E};
    for (int i = 0; i < 4; ++i) {
        ck_assert_msg(!a[i] == !b[i] && s->bytes[i] == t.bytes[i] &&
                          (!a[i] || memcmp(a[i], b[i], s->bytes[i]) == 0),
                      "%s: a refused update changed %c", tag, "RdQE"[i]);
        free(a[i]);
        free(b[i]);
    }
    ck_assert_msg(memcmp(s->rho, t.rho, sizeof s->rho) == 0,
                  "%s: a refused update changed the residual norms", tag);
}

/* Each update in each form and algorithm, k at both ends and in the
 * middle, against the updated problem; sizes around the block widths,
 * p = 1 (the one-row and one-column cases), a few and, on the larger
 * problem, past the sweeps' accumulation (17 and 20); loop i: the type,
 * the size and whether the Householder tiles are forced */
START_TEST(test_updates)
{
    static const int sz[][3] = {{30, 9, 2}, {140, 70, 1}};
    unsigned seed = 4242u + (unsigned)_i;
    int t = _i / 4, si = _i % 2, tiles = _i / 2 % 2;
    qru_dtype dt = ctypes[t];
    if (!qru_context_supports(ctx, dt))
        return;
    ck_assert_int_eq(qru_context_set_tuning(ctx, dt, QRU_TUNE_UPDATE_TILES,
                                            tiles ? 2 : 0),
                     0);
    int n = sz[si][0], m = sz[si][1], r = sz[si][2];
    for (int q = 0; q < 3; ++q)
        for (int a = 0; a < 4; ++a)
            for (int op = 0; op < OP_COUNT; ++op) {
                if (op == OP_MODIFY && q == QRU_Q_NONE)
                    continue; /* needs Q */
                for (int pk = 0; pk < 9; ++pk) {
                    int p = pk < 3   ? 1
                            : pk < 6 ? (op == OP_MODIFY ? 3 : 4)
                                     : (op == OP_MODIFY ? 17 : 20);
                    if (pk >= 6 && n < 100)
                        continue;
                    int lim = op == OP_ADD_COLS    ? m
                              : op == OP_ADD_ROWS  ? n
                              : op == OP_REMOVE_COLS ? m - p
                              : op == OP_REMOVE_ROWS ? n - p
                                                     : 0;
                    int k = pk % 3 == 0 ? 0 : pk % 3 == 1 ? lim / 2 : lim;
                    if (op == OP_REMOVE_ROWS && n - p < m)
                        continue;
                    if (op == OP_MODIFY && pk % 3)
                        continue;
                    char tag[160];
                    snprintf(tag, sizeof tag, "%s %s %s %s %d x %d k %d p %d",
                             qru_test_type_name(dt), form_name(q),
                             alg_names[a], op_names[op], n, m, k, p);
                    zd *A = rand_z(dt, n, m, &seed, NULL);
                    zd *B = rand_z(dt, n, r, &seed, NULL);
                    int cr = op == OP_ADD_ROWS ? p : n,
                        cc = op == OP_ADD_ROWS ? m : p;
                    zd *C = rand_z(dt, cr, cc, &seed, NULL);
                    zd *e = rand_z(dt, p, r, &seed, NULL);
                    zd *V = rand_z(dt, m, p, &seed, NULL);
                    qru_lsq *f = zfactor(dt, q, QRU_RANK_REFUSE, n, m, r, A, B);
                    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, algs[a]),
                                     0);
                    zd *A1, *B1;
                    int st = zupdate(f, op, n, m, r, k, p, A, B, C, e, V, &A1,
                                     &B1);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    int n1 = op == OP_ADD_ROWS      ? n + p
                             : op == OP_REMOVE_ROWS ? n - p
                                                    : n;
                    int m1 = op == OP_ADD_COLS      ? m + p
                             : op == OP_REMOVE_COLS ? m - p
                                                    : m;
                    zcheck(f, n1, m1, r, A1, B1, tag);
                    qru_lsq_destroy(f);
                    free(A);
                    free(B);
                    free(C);
                    free(e);
                    free(V);
                    free(A1);
                    free(B1);
                }
            }
}
END_TEST

/* A refused update (a new column that makes A1 rank-deficient) returns
 * the failing column and leaves f bit-identical, in each form and
 * algorithm */
START_TEST(test_refused)
{
    unsigned seed = 5150u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        int n = 24, m = 6, r = 2;
        for (int q = 0; q < 3; ++q)
            for (int a = 0; a < 4; ++a) {
                char tag[128];
                snprintf(tag, sizeof tag, "refused %s %s %s",
                         qru_test_type_name(dt), form_name(q), alg_names[a]);
                zd *A = rand_z(dt, n, m, &seed, NULL);
                zd *B = rand_z(dt, n, r, &seed, NULL);
                qru_lsq *f = zfactor(dt, q, QRU_RANK_REFUSE, n, m, r, A, B);
                ck_assert_int_eq(qru_lsq_set_update_algorithm(f, algs[a]), 0);
                /* a new column (1 + 2i) A(:, 3): dependent */
                zd *C = zmalloc(sizeof(zd) * n);
                for (int i = 0; i < n; ++i)
                    C[i] = (1.0 + 2.0 * _Complex_I) * A[i + 2 * (size_t)n];
                zsnap s = zsnap_of(f);
                zd *A1, *B1;
                int st = zupdate(f, OP_ADD_COLS, n, m, r, 1, 1, A, B, C, NULL,
                                 NULL, &A1, &B1);
                /* A1 = [a1 c a2 a3 ...]: a3 (column 4) is c's multiple */
                ck_assert_msg(st == 4, "%s: a dependent column gave %d", tag,
                              st);
                zsnap_same(f, &s, tag);
                free(A1);
                free(B1);
                free(C);
                zcheck(f, n, m, r, A, B, tag);
                qru_lsq_destroy(f);
                free(A);
                free(B);
            }
    }
}
END_TEST


/* The column shift (column i of A moved to j) in each form, against
 * zgeqrf / zgels of the permuted A; i == j changes nothing */
START_TEST(test_shift)
{
    unsigned seed = 808u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        static const int sz[][3] = {{20, 9, 2}, {90, 70, 1}};
        for (int si = 0; si < 2; ++si)
            for (int q = 0; q < 3; ++q) {
                int n = sz[si][0], m = sz[si][1], r = sz[si][2];
                int pairs[][2] = {{0, m - 1}, {m - 1, 0}, {2, m / 2},
                                  {m / 2, 2}, {3, 3}};
                for (int pi = 0; pi < 5; ++pi) {
                    int i = pairs[pi][0], j = pairs[pi][1];
                    zd *A = rand_z(dt, n, m, &seed, NULL);
                    zd *B = rand_z(dt, n, r, &seed, NULL);
                    qru_lsq *f = zfactor(dt, q, QRU_RANK_REFUSE, n, m, r, A,
                                         B);
                    int st = qru_lsq_shift_cols(f, i, j);
                    char tag[96];
                    snprintf(tag, sizeof tag, "%s %s shift %d x %d i %d j %d",
                             qru_test_type_name(dt), form_name(q), n, m, i, j);
                    ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                                  qru_last_error(ctx));
                    /* A1 = A(:, p): column i at j, the others in order */
                    zd *A1 = zmalloc(sizeof(zd) * (size_t)n * m);
                    ck_assert_ptr_nonnull(A1);
                    for (int c = 0, from = 0; c < m; ++c) {
                        if (c == j) {
                            memcpy(A1 + (size_t)c * n, A + (size_t)i * n,
                                   sizeof(zd) * (size_t)n);
                            continue;
                        }
                        if (from == i)
                            ++from;
                        memcpy(A1 + (size_t)c * n, A + (size_t)from * n,
                               sizeof(zd) * (size_t)n);
                        ++from;
                    }
                    zcheck(f, n, m, r, A1, B, tag);
                    qru_lsq_destroy(f);
                    free(A);
                    free(A1);
                    free(B);
                }
            }
    }
}
END_TEST

/* qru_lsq_create_from_qr: the full and the economy factors of
 * qru_qr_factor, copied and adopted */
START_TEST(test_from_qr)
{
    unsigned seed = 99u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        int n = 50, m = 20, r = 2;
        for (int econ = 0; econ < 2; ++econ)
            for (int adopt = 0; adopt < 2; ++adopt) {
                char tag[96];
                snprintf(tag, sizeof tag, "from_qr %s %s%s",
                         qru_test_type_name(dt), econ ? "economy" : "full",
                         adopt ? " adopted" : "");
                zd *A = rand_z(dt, n, m, &seed, NULL);
                zd *B = rand_z(dt, n, r, &seed, NULL);
                qru_matrix *Rm = up_z(dt, n, m, A), *Dm = up_z(dt, n, r, B),
                           *Qm = NULL;
                ck_assert_int_eq(qru_matrix_create(ctx, dt, n, n, 0, &Qm), 0);
                ck_assert_int_eq(qru_qr_factor(ctx, 0, Rm, Qm, Dm), 0);
                qru_matrix *Q1 = Qm, *R1 = Rm, *D1 = Dm;
                if (econ) { /* the leading columns and rows */
                    zd *Q = down_z(Qm), *R = down_z(Rm), *D = down_z(Dm);
                    zd *Rt = zrows(R, n, m, m, n - m, NULL);
                    zd *Dt = zrows(D, n, r, m, n - m, NULL);
                    Q1 = up_z(dt, n, m, Q);
                    R1 = up_z(dt, m, m, Rt);
                    D1 = up_z(dt, m, r, Dt);
                    free(Q);
                    free(R);
                    free(D);
                    free(Rt);
                    free(Dt);
                }
                qru_lsq_options opt;
                qru_lsq_options_init(&opt);
                opt.q = econ ? QRU_Q_THIN : QRU_Q_FULL;
                opt.adopt = adopt ? 3 : 0;
                qru_lsq *f = NULL;
                int st = qru_lsq_create_from_qr(ctx, Q1, R1, D1, &opt, &f);
                ck_assert_msg(st == 0, "%s: %d (%s)", tag, st,
                              qru_last_error(ctx));
                if (!econ) /* the thin form's E is b's part outside Q1 */
                    zcheck(f, n, m, r, A, B, tag);
                zd *C = rand_z(dt, n, 3, &seed, NULL), *A1, *B1;
                ck_assert_int_eq(zupdate(f, OP_ADD_COLS, n, m, r, 2, 3, A, B,
                                         C, NULL, NULL, &A1, &B1),
                                 0);
                if (!econ)
                    zcheck(f, n, m + 3, r, A1, B1, tag);
                qru_lsq_destroy(f);
                if (econ) {
                    qru_matrix_destroy(Q1);
                    qru_matrix_destroy(R1);
                    qru_matrix_destroy(D1);
                }
                qru_matrix_destroy(Qm);
                qru_matrix_destroy(Rm);
                qru_matrix_destroy(Dm);
                free(A);
                free(B);
                free(C);
                free(A1);
                free(B1);
            }
    }
}
END_TEST


/* QRU_OPTION_CHECK_FINITE: a NaN or Inf in the imaginary part alone is
 * found (-i), and nothing changes */
START_TEST(test_check_finite)
{
    unsigned seed = 61u;
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctypes[t];
        if (!qru_context_supports(ctx, dt))
            continue;
        int n = 12, m = 4, r = 1;
        zd *A = rand_z(dt, n, m, &seed, NULL), *B = rand_z(dt, n, r, &seed, NULL);
        qru_lsq *f = zfactor(dt, QRU_Q_THIN, QRU_RANK_REFUSE, n, m, r, A, B);
        ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 1),
                         0);
        for (int bad = 0; bad < 2; ++bad) {
            zd *C = rand_z(dt, n, 1, &seed, NULL);
            C[5] = creal(C[5]) + (bad ? INFINITY : NAN) * _Complex_I;
            qru_matrix *Bm = up_z(dt, n, r, B), *Cm = up_z(dt, n, 1, C);
            qru_lsq *g = NULL;
            /* the bad column in A: create refuses it as argument 2 */
            qru_matrix *Ab = up_z(dt, n, m, A);
            void *hb = qru_test_download(Ab);
            double re, im;
            qru_test_get_c(dt, hb, n, 5, 1, &re, &im);
            qru_test_set_c(dt, hb, n, 5, 1, re, bad ? INFINITY : NAN);
            ck_assert_int_eq(qru_matrix_upload(Ab, hb, n), 0);
            ck_assert_int_eq(qru_lsq_create(ctx, Ab, Bm, NULL, &g), -2);
            ck_assert_ptr_null(g);
            zsnap s = zsnap_of(f);
            ck_assert_int_eq(qru_lsq_add_cols(f, 1, Cm), -3);
            zsnap_same(f, &s, "check_finite");
            void *after = qru_test_download(Ab); /* A as it was given */
            ck_assert_int_eq(memcmp(hb, after,
                                    qru_test_elsize(dt) * (size_t)n * m),
                             0);
            free(after);
            free(hb);
            free(C);
            qru_matrix_destroy(Bm);
            qru_matrix_destroy(Cm);
            qru_matrix_destroy(Ab);
        }
        ck_assert_int_eq(qru_context_set_option(ctx, QRU_OPTION_CHECK_FINITE, 0),
                         0);
        qru_lsq_destroy(f);
        free(A);
        free(B);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("complex");
    TCase *tc = tcase_create("complex");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_unsupported_backend);
    tcase_add_test(tc, test_roundtrip);
    tcase_add_test(tc, test_backend_ops);
    tcase_add_test(tc, test_unsupported_routines);
    tcase_add_test(tc, test_qr_factor);
    tcase_add_test(tc, test_lsq);
    suite_add_tcase(s, tc);
    /* the updates, a case of their own (CK_RUN_CASE=updates: the
     * sanitizer runs, one case a run, each within its time limit) */
    tc = tcase_create("updates");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_updates, 0, 8);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_shift);
    tcase_add_test(tc, test_from_qr);
    tcase_add_test(tc, test_check_finite);
    suite_add_tcase(s, tc);
    /* the fused panels, a case of their own (CK_RUN_CASE=panels) */
    tc = tcase_create("panels");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_panels);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
