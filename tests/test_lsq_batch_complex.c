/* The least-squares batches (qru_lsq_batch_*) on complex data
 * (QRU_COMPLEX_FLOAT, QRU_COMPLEX_DOUBLE), ' the conjugate transpose: in
 * each form (Q-less, thin, full) creation, rows added (to all problems
 * and per problem), rows removed, columns removed and inserted and the
 * rank-k modification A + U V', every problem after every step against
 * LAPACKE's zgeqrf / zgels of its updated matrix (R by its moduli, which
 * LAPACK fixes up to the phases of its rows; the solution and residual
 * norms by the perturbation bound of least squares; the thin and full
 * forms' Q, d and E by their identities), scaled errors below
 * QRU_TEST_THRESHOLD; problems that refuse (the solve's, the row
 * removal's and the modification's rank rules, an insertion of a column
 * in the span) keep their pages bit for bit, and a refused insertion
 * changes no problem; a NaN in one problem stays in it (its solve
 * refuses).  Every backend takes every form (CUDA and OpenCL
 * by their batch kernels of complex data); creation leaves A and b
 * bit-identical.  The sizes cross the GPU kernels' blocks (QRU_BQ_PB = 8
 * rows or sweeps carried through a pass over Q1), and rows are removed
 * from all problems and per problem. */
#include <stdio.h>

#include "qru_test.h"

static qru_context *ctx;
#include "zref.h"
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

#define THR QRU_TEST_THRESHOLD
static const int forms[3] = {QRU_Q_NONE, QRU_Q_THIN, QRU_Q_FULL};

/* ---- the host copy: problem i is A_i (n_i x m) and B_i (n_i x r), each
 * contiguous (ld n_i), values exact in the batch's type --------------- */

typedef struct zprob {
    int n;
    zd *A, *B;
} zprob;

typedef struct zbatch {
    qru_dtype dt;
    int count, m, r, q;
    zprob *P;
} zbatch;

static zd zval(qru_dtype dt, unsigned *seed)
{
    double re = qru_test_urand(seed), im = qru_test_urand(seed);
    if (dt == QRU_COMPLEX_FLOAT) {
        re = (float)re;
        im = (float)im;
    }
    return re + im * _Complex_I;
}

static zd *zrand(qru_dtype dt, size_t len, unsigned *seed)
{
    zd *Z = zcalloc(len + 1, sizeof(zd));
    for (size_t e = 0; e < len; ++e)
        Z[e] = zval(dt, seed);
    return Z;
}

static int nmax_of(const zbatch *h)
{
    int n = 0;
    for (int i = 0; i < h->count; ++i)
        n = h->P[i].n > n ? h->P[i].n : n;
    return n;
}

/* count pages rows x cols (ld rows) of the host Z as a batch of type dt
 * in one device array (*flat) */
static qru_matrix *zup_pages(qru_dtype dt, int rows, int cols, int count,
                             const zd *Z, qru_matrix **flat)
{
    int ld = rows > 1 ? rows : 1, tc = cols * count > 0 ? cols * count : 1;
    *flat = up_z(dt, ld, tc, Z);
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_wrap_batch(ctx, dt, rows, cols,
                                           qru_matrix_data(*flat), ld, count,
                                           (long long)ld * cols, &M),
                     0);
    return M;
}

/* the pages (rows x cols, ld rows) of A (which 0) or B (1), zeros below
 * a problem's rows */
static zd *gather(const zbatch *h, int which, int rows)
{
    int cols = which ? h->r : h->m;
    zd *Z = zcalloc((size_t)rows * cols * h->count + 1, sizeof(zd));
    for (int i = 0; i < h->count; ++i) {
        const zprob *p = &h->P[i];
        for (int j = 0; j < cols; ++j)
            for (int t = 0; t < p->n; ++t)
                Z[(size_t)i * rows * cols + t + (size_t)j * rows] =
                    (which ? p->B : p->A)[t + (size_t)j * p->n];
    }
    return Z;
}

/* count problems n x m with r right-hand sides; problem dep (if in
 * range) with column m-1 = column 0 (rank-deficient when m > 1) */
static zbatch zbatch_new(qru_dtype dt, int q, int count, int n, int m, int r,
                         int dep, unsigned *seed)
{
    zbatch h = {dt, count, m, r, q, calloc((size_t)count + 1, sizeof(zprob))};
    for (int i = 0; i < count; ++i) {
        h.P[i].n = n;
        h.P[i].A = zrand(dt, (size_t)n * m, seed);
        h.P[i].B = zrand(dt, (size_t)n * r, seed);
        if (i == dep && m > 1)
            memcpy(h.P[i].A + (size_t)(m - 1) * n, h.P[i].A,
                   sizeof(zd) * n);
    }
    return h;
}

static void zbatch_free(zbatch *h)
{
    for (int i = 0; i < h->count; ++i) {
        free(h->P[i].A);
        free(h->P[i].B);
    }
    free(h->P);
}

static qru_lsq_batch *zmake(const zbatch *h)
{
    int n = nmax_of(h);
    zd *Ah = gather(h, 0, n), *Bh = gather(h, 1, n);
    qru_matrix *Af, *Bf;
    qru_matrix *A = zup_pages(h->dt, n, h->m, h->count, Ah, &Af);
    qru_matrix *B = zup_pages(h->dt, n, h->r, h->count, Bh, &Bf);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = h->q;
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, B, &opt, &fb), 0);
    qru_matrix *ms[4] = {A, Af, B, Bf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    free(Ah);
    free(Bh);
    return fb;
}

/* ---- what a batch holds: the pages of its getters (type dt bytes) and
 * the residual norms -------------------------------------------------- */

typedef struct zsnapb {
    int nmax, qc, dr;
    void *pg[4]; /* R, d, Q, E (NULL where the form has none) */
    size_t pb[4]; /* the bytes of one page of each */
    double *rho;
} zsnapb;

static void *getp(qru_lsq_batch *fb, qru_dtype dt, int rows, int cols,
                  int (*get)(const qru_lsq_batch *, qru_matrix *),
                  size_t *page)
{
    int cnt = qru_lsq_batch_count(fb);
    qru_matrix *M = NULL;
    ck_assert_int_eq(
        qru_matrix_create_batch(ctx, dt, rows, cols, rows, cnt, 0, &M), 0);
    *page = qru_test_elsize(dt) * (size_t)rows * cols;
    void *h = calloc(1, *page * cnt + 64);
    ck_assert_int_eq(qru_matrix_upload(M, h, rows), 0);
    ck_assert_int_eq(get(fb, M), 0);
    ck_assert_int_eq(qru_matrix_download(M, h, rows), 0);
    qru_matrix_destroy(M);
    return h;
}

static zsnapb zsnap_b(qru_lsq_batch *fb, qru_dtype dt)
{
    int m = qru_lsq_batch_cols(fb), r = qru_lsq_batch_nrhs(fb);
    int q = qru_lsq_batch_q_form(fb), cnt = qru_lsq_batch_count(fb);
    zsnapb s = {0, m, m, {NULL, NULL, NULL, NULL}, {0, 0, 0, 0}, NULL};
    for (int i = 0; i < cnt; ++i)
        s.nmax = qru_lsq_batch_rows(fb, i) > s.nmax ? qru_lsq_batch_rows(fb, i)
                                                    : s.nmax;
    if (q == QRU_Q_FULL)
        s.qc = s.dr = s.nmax;
    s.pg[0] = getp(fb, dt, m, m, qru_lsq_batch_get_r, &s.pb[0]);
    s.pg[1] = getp(fb, dt, s.dr, r, qru_lsq_batch_get_d, &s.pb[1]);
    if (q != QRU_Q_NONE) {
        s.pg[2] = getp(fb, dt, s.nmax, s.qc, qru_lsq_batch_get_q, &s.pb[2]);
        s.pg[3] = getp(fb, dt, s.nmax, r, qru_lsq_batch_get_residuals,
                       &s.pb[3]);
    }
    s.rho = malloc(sizeof(double) * ((size_t)cnt * r + 1));
    ck_assert_int_eq(qru_lsq_batch_residual_norms(fb, s.rho), 0);
    return s;
}

static void zsnap_free(zsnapb *s)
{
    for (int t = 0; t < 4; ++t)
        free(s->pg[t]);
    free(s->rho);
}

/* problem i the same in a and b, bit for bit */
static int zsame(const zsnapb *a, const zsnapb *b, int i, int r)
{
    for (int t = 0; t < 4; ++t) {
        if (a->pb[t] != b->pb[t])
            return 0;
        if (a->pg[t] && memcmp((char *)a->pg[t] + a->pb[t] * i,
                               (char *)b->pg[t] + b->pb[t] * i, a->pb[t]))
            return 0;
    }
    return !memcmp(a->rho + (size_t)i * r, b->rho + (size_t)i * r,
                   sizeof(double) * r);
}

/* page i of the snapshot's getter t as double complex, rows x cols (the
 * page's first rows of ld ld) */
static zd *zpage(qru_dtype dt, const zsnapb *s, int t, int i, int ld,
                 int rows, int cols)
{
    return to_z(dt, rows, cols, (char *)s->pg[t] + s->pb[t] * i, ld);
}

/* ||X - Y|| / (bn n eps) for rows x cols arrays (ld rows) */
static double zrel(qru_dtype dt, int rows, int cols, const zd *X,
                   const zd *Y, double bn, int n)
{
    double e = 0.0;
    for (size_t t = 0; t < (size_t)rows * cols; ++t)
        e += cabs(X[t] - Y[t]) * cabs(X[t] - Y[t]);
    e = sqrt(e);
    return e == 0.0 ? 0.0
                    : e / ((bn > 0 ? bn : 1.0) * (n > 1 ? n : 1) *
                           qru_test_eps(dt));
}

/* every problem i with on[i] (on NULL: all) against LAPACKE, and the
 * solve's verdicts (the problem dep must be refused, its X page not
 * written); returns the largest scaled error */
static double zcheck_b(const zbatch *h, qru_lsq_batch *fb, const int *on,
                       int dep, const char *tag)
{
    qru_dtype dt = h->dt;
    int m = h->m, r = h->r, cnt = h->count;
    ck_assert_int_eq(qru_lsq_batch_cols(fb), m);
    for (int i = 0; i < cnt; ++i)
        ck_assert_int_eq(qru_lsq_batch_rows(fb, i), h->P[i].n);
    zsnapb s = zsnap_b(fb, dt);
    /* the solutions, a sentinel in X's pages */
    zd *sent = zcalloc((size_t)m * r * cnt + 1, sizeof(zd));
    for (size_t e = 0; e < (size_t)m * r * cnt; ++e)
        sent[e] = 77.25 - 5.5 * _Complex_I;
    qru_matrix *Xf, *X = zup_pages(dt, m, r, cnt, sent, &Xf);
    int *info = malloc(sizeof(int) * (cnt + 1));
    int st = qru_lsq_batch_solve(fb, X, info);
    ck_assert_int_eq(st, dep >= 0 && dep < cnt ? 1 : 0);
    zd *Xh = down_z(Xf);
    double worst = 0.0;
    for (int i = 0; i < cnt; ++i) {
        if (on && !on[i])
            continue;
        const zprob *p = &h->P[i];
        int n = p->n;
        zd *R = zpage(dt, &s, 0, i, m, m, m);
        ck_assert_msg(zlower(m, m, R) == 0.0, "%s: R below the diagonal",
                      tag);
        double er = zr_vs_lapack(dt, n, m, p->A, R, m);
        ck_assert_msg(er < THR, "%s problem %d: |R| error %g", tag, i, er);
        worst = fmax(worst, er);
        const zd *Xi = Xh + (size_t)i * m * r;
        if (i == dep) {
            ck_assert_msg(info[i] > 0, "%s: problem %d not refused", tag, i);
            for (int e = 0; e < m * r; ++e)
                ck_assert(Xi[e] == sent[e]);
        } else {
            ck_assert_int_eq(info[i], 0);
            double xe, re;
            zlsq_errors(dt, n, m, r, p->A, p->B, Xi, s.rho + (size_t)i * r,
                        &xe, &re);
            ck_assert_msg(xe < THR && re < THR,
                          "%s problem %d: x error %g, residual error %g", tag,
                          i, xe, re);
            worst = fmax(worst, fmax(xe, re));
        }
        if (h->q != QRU_Q_NONE) { /* Q (its first qc columns), d, E */
            int qc = h->q == QRU_Q_FULL ? n : m, dr = qc;
            zd *Q = zpage(dt, &s, 2, i, s.nmax, n, qc);
            zd *D = zpage(dt, &s, 1, i, s.dr, dr, r);
            zd *E = zpage(dt, &s, 3, i, s.nmax, n, r);
            double eo = zorth(dt, n, qc, Q);
            double eb = zbackward(dt, n, m, m, p->A, Q, R);
            /* Q' B = d (the full d), and E = B - Q1 d1, scaled by
             * ||B|| n eps */
            zd *T = zcalloc((size_t)qc * r + 1, sizeof(zd));
            zd *F = zcalloc((size_t)n * r + 1, sizeof(zd));
            zd one = 1.0, zero = 0.0, mone = -1.0;
            cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, qc, r, n,
                        &one, Q, n, p->B, n, &zero, T, qc);
            memcpy(F, p->B, sizeof(zd) * (size_t)n * r);
            cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, r, m,
                        &mone, Q, n, D, dr, &one, F, n);
            double bn = fro_z(n, r, p->B, n);
            double ed = zrel(dt, qc, r, D, T, bn, n);
            double ee = zrel(dt, n, r, E, F, bn, n);
            ck_assert_msg(eo < THR && eb < THR && ed < THR && ee < THR,
                          "%s problem %d: orth %g, backward %g, d %g, E %g",
                          tag, i, eo, eb, ed, ee);
            worst = fmax(worst, fmax(fmax(eo, eb), fmax(ed, ee)));
            free(Q);
            free(D);
            free(E);
            free(T);
            free(F);
        }
        free(R);
    }
    qru_matrix_destroy(X);
    qru_matrix_destroy(Xf);
    free(Xh);
    free(sent);
    free(info);
    zsnap_free(&s);
    return worst;
}

/* ---- the host updates ------------------------------------------------ */

/* rows (n x c, ld n) with the rows k .. k+p-1 removed */
static zd *zdrop(const zd *X, int n, int c, int k, int p)
{
    zd *Y = zcalloc((size_t)(n - p) * c + 1, sizeof(zd));
    for (int j = 0; j < c; ++j)
        for (int t = 0, u = 0; t < n; ++t)
            if (t < k || t >= k + p)
                Y[u++ + (size_t)j * (n - p)] = X[t + (size_t)j * n];
    return Y;
}

/* X (n x c) with rows (p x c, ld ldu) appended */
static zd *zappend(const zd *X, int n, int c, const zd *U, int ldu, int p)
{
    zd *Y = zcalloc((size_t)(n + p) * c + 1, sizeof(zd));
    for (int j = 0; j < c; ++j) {
        memcpy(Y + (size_t)j * (n + p), X + (size_t)j * n, sizeof(zd) * n);
        for (int t = 0; t < p; ++t)
            Y[n + t + (size_t)j * (n + p)] = U[t + (size_t)j * ldu];
    }
    return Y;
}

static void zset(zd **X, zd *Y)
{
    free(*X);
    *X = Y;
}

/* rows[i] (rows NULL: p) random rows added to problem i; solve (rows
 * NULL): by qru_lsq_batch_add_rows_solve, whose solutions and verdicts
 * must be those of a qru_lsq_batch_solve after it, bit for bit */
static void zstep_add_rows_s(zbatch *h, qru_lsq_batch *fb, int p,
                             const int *rows, int solve, unsigned *seed)
{
    int cnt = h->count, m = h->m, r = h->r;
    zd *U = zrand(h->dt, (size_t)cnt * p * m, seed);
    zd *F = zrand(h->dt, (size_t)cnt * p * r, seed);
    qru_matrix *Uf, *Ff, *Ub = zup_pages(h->dt, p, m, cnt, U, &Uf);
    qru_matrix *Fb = zup_pages(h->dt, p, r, cnt, F, &Ff);
    if (solve) {
        zd *Z = zcalloc((size_t)m * r * cnt + 1, sizeof(zd));
        qru_matrix *X1f, *X1 = zup_pages(h->dt, m, r, cnt, Z, &X1f);
        qru_matrix *X2f, *X2 = zup_pages(h->dt, m, r, cnt, Z, &X2f);
        int *i1 = calloc((size_t)cnt + 1, sizeof(int)),
            *i2 = calloc((size_t)cnt + 1, sizeof(int));
        int st = qru_lsq_batch_add_rows_solve(fb, Ub, Fb, X1, i1);
        ck_assert_int_eq(qru_lsq_batch_solve(fb, X2, i2), st);
        ck_assert_int_eq(memcmp(i1, i2, sizeof(int) * (size_t)cnt), 0);
        zd *x1 = down_z(X1f), *x2 = down_z(X2f);
        ck_assert_int_eq(memcmp(x1, x2, sizeof(zd) * (size_t)m * r * cnt),
                         0);
        qru_matrix *xs[4] = {X1, X1f, X2, X2f};
        for (int t = 0; t < 4; ++t)
            qru_matrix_destroy(xs[t]);
        free(x1);
        free(x2);
        free(i1);
        free(i2);
        free(Z);
    } else {
        ck_assert_int_eq(qru_lsq_batch_add_rows_ex(fb, Ub, Fb, rows), 0);
    }
    for (int i = 0; i < cnt; ++i) {
        zprob *P = &h->P[i];
        int pi = rows ? rows[i] : p;
        zset(&P->A, zappend(P->A, P->n, m, U + (size_t)i * p * m, p, pi));
        zset(&P->B, zappend(P->B, P->n, r, F + (size_t)i * p * r, p, pi));
        P->n += pi;
    }
    qru_matrix *ms[4] = {Ub, Uf, Fb, Ff};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    free(U);
    free(F);
}

static void zstep_add_rows(zbatch *h, qru_lsq_batch *fb, int p,
                           const int *rows, unsigned *seed)
{
    zstep_add_rows_s(h, fb, p, rows, 0, seed);
}

/* the rows k .. k+p-1 removed from every problem (thin, full), or
 * (rows) the rows k .. k+rows[i]-1 from problem i; problem bad (if in
 * range) made to refuse first (column 0 zero but in row k): it must keep
 * its pages bit for bit, the others pass (a problem without rows to lose
 * bit for bit too) */
static void zstep_remove_rows_ex(zbatch *h, qru_lsq_batch **fb, int k,
                                 int p, const int *rows, int bad,
                                 const char *tag)
{
    int cnt = h->count, m = h->m, r = h->r;
    if (bad >= 0 && bad < cnt) { /* a new batch with that problem */
        zprob *P = &h->P[bad];
        for (int t = 0; t < P->n; ++t)
            P->A[t] = t == k ? 1.0 - 0.5 * _Complex_I : 0.0;
        qru_lsq_batch_destroy(*fb);
        *fb = zmake(h);
    }
    zsnapb before = zsnap_b(*fb, h->dt);
    int *info = malloc(sizeof(int) * (cnt + 1));
    int st = rows ? qru_lsq_batch_remove_rows_ex(*fb, k, p, info, rows)
                  : qru_lsq_batch_remove_rows(*fb, k, p, info);
    int refused = bad >= 0 && bad < cnt;
    ck_assert_msg(st == (refused ? 1 : 0), "%s: remove_rows: %d (%s)", tag,
                  st, qru_last_error(ctx));
    zsnapb after = zsnap_b(*fb, h->dt);
    for (int i = 0; i < cnt; ++i) {
        int pi = rows ? rows[i] : p;
        if (i == bad || pi == 0) {
            if (i == bad)
                ck_assert_msg(info[i] > 0, "%s: problem %d not refused", tag,
                              i);
            ck_assert_msg(zsame(&before, &after, i, r),
                          "%s: problem %d changed", tag, i);
            continue;
        }
        ck_assert_int_eq(info[i], 0);
        zprob *P = &h->P[i];
        zset(&P->A, zdrop(P->A, P->n, m, k, pi));
        zset(&P->B, zdrop(P->B, P->n, r, k, pi));
        P->n -= pi;
    }
    zsnap_free(&before);
    zsnap_free(&after);
    free(info);
}

static void zstep_remove_rows(zbatch *h, qru_lsq_batch **fb, int k, int p,
                              int bad, const char *tag)
{
    zstep_remove_rows_ex(h, fb, k, p, NULL, bad, tag);
}

/* the columns k .. k+p-1 removed from every problem */
static void zstep_remove_cols(zbatch *h, qru_lsq_batch *fb, int k, int p)
{
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, k, p), 0);
    int m = h->m, m1 = m - p;
    for (int i = 0; i < h->count; ++i) {
        zprob *P = &h->P[i];
        zd *Y = zcalloc((size_t)P->n * m1 + 1, sizeof(zd));
        for (int j = 0, c = 0; j < m; ++j)
            if (j < k || j >= k + p)
                memcpy(Y + (size_t)c++ * P->n, P->A + (size_t)j * P->n,
                       sizeof(zd) * P->n);
        zset(&P->A, Y);
    }
    h->m = m1;
}

/* p random columns inserted after column k of every problem (thin,
 * full; Q-less: qru_lsq_batch_add_cols_data with the current A and b);
 * with dep in range, first with problem dep's new column in the
 * span of its columns: the call refuses it and no problem changes */
static void zstep_add_cols(zbatch *h, qru_lsq_batch *fb, int k, int p,
                           int dep, unsigned *seed, const char *tag)
{
    int cnt = h->count, m = h->m, n = nmax_of(h);
    zd *V = zrand(h->dt, (size_t)cnt * n * p, seed);
    int *info = malloc(sizeof(int) * (cnt + 1));
    for (int pass = dep >= 0 && dep < cnt ? 0 : 1; pass < 2; ++pass) {
        zd *W = zcalloc((size_t)cnt * n * p + 1, sizeof(zd));
        memcpy(W, V, sizeof(zd) * (size_t)cnt * n * p);
        if (pass == 0) /* dep's first new column: 2 A(:,0) - i A(:,m-1) */
            for (int t = 0; t < h->P[dep].n; ++t)
                W[(size_t)dep * n * p + t] =
                    2.0 * h->P[dep].A[t] -
                    _Complex_I * h->P[dep].A[t + (size_t)(m - 1) * h->P[dep].n];
        zsnapb before = zsnap_b(fb, h->dt);
        qru_matrix *Vf, *Vb = zup_pages(h->dt, n, p, cnt, W, &Vf);
        int st;
        if (h->q == QRU_Q_NONE) {
            zd *Ah = gather(h, 0, n), *Bh = gather(h, 1, n);
            qru_matrix *Af, *Bf, *Ad = zup_pages(h->dt, n, m, cnt, Ah, &Af),
                                 *Bd = zup_pages(h->dt, n, h->r, cnt, Bh, &Bf);
            st = qru_lsq_batch_add_cols_data(fb, k, Vb, Ad, Bd, info);
            qru_matrix *ms[] = {Ad, Af, Bd, Bf};
            for (int u = 0; u < 4; ++u)
                qru_matrix_destroy(ms[u]);
            free(Ah);
            free(Bh);
        } else {
            st = qru_lsq_batch_add_cols(fb, k, Vb, info);
        }
        qru_matrix_destroy(Vb);
        qru_matrix_destroy(Vf);
        if (pass == 0) {
            ck_assert_int_eq(st, 1);
            ck_assert_msg(info[dep] > 0, "%s: problem %d not refused", tag,
                          dep);
            zsnapb after = zsnap_b(fb, h->dt);
            for (int i = 0; i < cnt; ++i)
                ck_assert_msg(zsame(&before, &after, i, h->r),
                              "%s: problem %d changed by a refused "
                              "insertion", tag, i);
            zsnap_free(&after);
        } else {
            ck_assert_int_eq(st, 0);
            for (int i = 0; i < cnt; ++i) {
                ck_assert_int_eq(info[i], 0);
                zprob *P = &h->P[i];
                zd *Y = zcalloc((size_t)P->n * (m + p) + 1, sizeof(zd));
                for (int j = 0; j < m + p; ++j)
                    for (int t = 0; t < P->n; ++t)
                        Y[t + (size_t)j * P->n] =
                            j < k       ? P->A[t + (size_t)j * P->n]
                            : j < k + p ? W[(size_t)i * n * p + t +
                                            (size_t)(j - k) * n]
                                        : P->A[t + (size_t)(j - p) * P->n];
                zset(&P->A, Y);
            }
            h->m = m + p;
        }
        zsnap_free(&before);
        free(W);
    }
    free(V);
    free(info);
}

/* A_i + U_i V_i' for every problem (thin, full), U n x kk, V m x kk;
 * problem bad (if in range) with U V' = -A(:,0) e_0' (its column 0
 * cancelled): refused, its pages bit for bit */
static void zstep_modify(zbatch *h, qru_lsq_batch *fb, int kk, int bad,
                         unsigned *seed, const char *tag)
{
    int cnt = h->count, m = h->m, n = nmax_of(h);
    zd *U = zrand(h->dt, (size_t)cnt * n * kk, seed);
    zd *V = zrand(h->dt, (size_t)cnt * m * kk, seed);
    if (bad >= 0 && bad < cnt) {
        zprob *P = &h->P[bad];
        for (int j = 0; j < kk; ++j) {
            for (int t = 0; t < n; ++t)
                U[(size_t)bad * n * kk + t + (size_t)j * n] =
                    j == 0 && t < P->n ? -P->A[t] : 0.0;
            for (int t = 0; t < m; ++t)
                V[(size_t)bad * m * kk + t + (size_t)j * m] =
                    j == 0 && t == 0 ? 1.0 : 0.0;
        }
    }
    zsnapb before = zsnap_b(fb, h->dt);
    qru_matrix *Uf, *Ub = zup_pages(h->dt, n, kk, cnt, U, &Uf);
    qru_matrix *Vf, *Vb = zup_pages(h->dt, m, kk, cnt, V, &Vf);
    int *info = malloc(sizeof(int) * (cnt + 1));
    int st = qru_lsq_batch_modify(fb, Ub, Vb, info);
    ck_assert_int_eq(st, bad >= 0 && bad < cnt ? 1 : 0);
    zsnapb after = zsnap_b(fb, h->dt);
    for (int i = 0; i < cnt; ++i) {
        if (i == bad) {
            ck_assert_msg(info[i] > 0, "%s: problem %d not refused", tag, i);
            ck_assert_msg(zsame(&before, &after, i, h->r),
                          "%s: refused problem %d changed", tag, i);
            continue;
        }
        ck_assert_int_eq(info[i], 0);
        zprob *P = &h->P[i];
        zd one = 1.0;
        cblas_zgemm(CblasColMajor, CblasNoTrans, CblasConjTrans, P->n, m, kk,
                    &one, U + (size_t)i * n * kk, n, V + (size_t)i * m * kk,
                    m, &one, P->A, P->n);
    }
    qru_matrix *ms[4] = {Ub, Uf, Vb, Vf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    zsnap_free(&before);
    zsnap_free(&after);
    free(U);
    free(V);
    free(info);
}

/* ---- the tests ------------------------------------------------------ */

/* 0 (printed why) where ctx takes no complex type t or refuses the
 * batches' complex data: then the refusal is checked (test_refused) */
static qru_dtype ctype_of(int t)
{
    int nt = qru_test_ntypes(ctx);
    return nt <= 2 + t ? (qru_dtype)0 : qru_test_type(ctx, 2 + t);
}

/* the creation of form q takes complex data dt, A and b bit-identical */
static void created(qru_dtype dt, int q)
{
    unsigned seed = 5u;
    zbatch h = zbatch_new(dt, q, 2, 6, 3, 1, -1, &seed);
    int n = 6;
    zd *Ah = gather(&h, 0, n);
    qru_matrix *Af, *A = zup_pages(dt, n, 3, 2, Ah, &Af);
    zd *Bh = gather(&h, 1, n);
    qru_matrix *Bf, *B = zup_pages(dt, n, 1, 2, Bh, &Bf);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = q;
    qru_lsq_batch *fb = NULL;
    int st = qru_lsq_batch_create_ex(ctx, A, B, &opt, &fb);
    ck_assert_msg(st == 0, "%s %s batch on %s: %d (%s)",
                  qru_test_type_name(dt),
                  q == QRU_Q_NONE ? "Q-less" : q == QRU_Q_THIN ? "thin" : "full",
                  qru_backend_name(qru_context_backend(ctx)), st,
                  qru_last_error(ctx));
    zd *A2 = down_z(Af), *B2 = down_z(Bf);
    ck_assert(!memcmp(A2, Ah, sizeof(zd) * (size_t)n * 3 * 2));
    ck_assert(!memcmp(B2, Bh, sizeof(zd) * (size_t)n * 2));
    free(A2);
    free(B2);
    qru_lsq_batch_destroy(fb);
    qru_matrix *ms[4] = {A, Af, B, Bf};
    for (int t = 0; t < 4; ++t)
        qru_matrix_destroy(ms[t]);
    free(Ah);
    free(Bh);
    zbatch_free(&h);
}

START_TEST(test_created)
{
    for (int t = 0; t < 2; ++t) {
        qru_dtype dt = ctype_of(t);
        for (int f = 0; dt && f < 3; ++f)
            created(dt, forms[f]);
    }
}
END_TEST

/* sizes (n, m, r): a column, a few, past the GPU kernels' blocks */
static const int SIZES[3][3] = {{7, 1, 1}, {13, 5, 2}, {44, 17, 3}};

/* creation (problem 1 rank-deficient: refused by the solve), rows added
 * to all and per problem, the modification (thin, full), on size z;
 * returns the largest scaled error */
static double zrows_case(qru_dtype dt, int q, int z, unsigned *seed)
{
    int n = SIZES[z][0], m = SIZES[z][1], r = SIZES[z][2];
    char tag[96];
    snprintf(tag, sizeof tag, "%s q=%d n=%d m=%d", qru_test_type_name(dt), q,
             n, m);
    zbatch h = zbatch_new(dt, q, 4, n, m, r, 1, seed);
    qru_lsq_batch *fb = zmake(&h);
    double worst = zcheck_b(&h, fb, NULL, m > 1 ? 1 : -1, tag);
    qru_lsq_batch_destroy(fb);
    zbatch_free(&h);
    h = zbatch_new(dt, q, 4, n, m, r, -1, seed);
    fb = zmake(&h);
    zstep_add_rows(&h, fb, 3, NULL, seed);
    worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, tag));
    const int rows[4] = {2, 0, 1, 2};
    zstep_add_rows(&h, fb, 2, rows, seed);
    worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, tag));
    zstep_add_rows_s(&h, fb, 2, NULL, 1, seed); /* added and solved */
    worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, tag));
    int kk = n - m < 2 ? n - m : 2;
    if (q != QRU_Q_NONE && kk >= 1) {
        zstep_modify(&h, fb, kk, -1, seed, tag);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, tag));
        /* (m = 1: a cancelled A is all rounding, which the relative rank
         * rule takes) */
        zstep_modify(&h, fb, 1, m > 1 ? 2 : -1, seed, tag);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, tag));
    }
    qru_lsq_batch_destroy(fb);
    zbatch_free(&h);
    return worst;
}

/* columns removed (k at the start, in the middle, at the end) and
 * inserted (a refused insertion first; Q-less from A and b), then
 * rows removed (problem 2 refused); on the largest size also more rows
 * added and removed than the kernels carry through one pass over Q1
 * (QRU_BQ_PB = 8), the removal per problem (one problem none) */
static double zcols_case(qru_dtype dt, int q, int z, unsigned *seed)
{
    int n = SIZES[z][0], m = SIZES[z][1], r = SIZES[z][2];
    char tag[96], at[160];
    snprintf(tag, sizeof tag, "%s q=%d n=%d m=%d", qru_test_type_name(dt), q,
             n, m);
    zbatch h = zbatch_new(dt, q, 3, n, m, r, -1, seed);
    qru_lsq_batch *fb = zmake(&h);
    double worst = 0.0;
    for (int c = 0; c < 3; ++c) {
        int k = c == 0 ? 0 : c == 1 ? h.m / 2 : h.m - 2, p = 1 + (c == 1);
        zstep_remove_cols(&h, fb, k, p);
        snprintf(at, sizeof at, "%s, columns %d..%d removed", tag, k,
                 k + p - 1);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
        int ka = c == 2 ? h.m : k;
        zstep_add_cols(&h, fb, ka, p, c == 0 ? 1 : -1, seed, tag);
        snprintf(at, sizeof at, "%s, %d columns inserted at %d", tag, p, ka);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
    }
    if (q != QRU_Q_NONE) {
        zstep_remove_rows(&h, &fb, 0, 2, -1, tag);
        snprintf(at, sizeof at, "%s, rows 0..1 removed", tag);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
        zstep_remove_rows(&h, &fb, n / 2 - 1, 1, 2, tag);
        snprintf(at, sizeof at, "%s, row %d removed", tag, n / 2 - 1);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
    }
    if (q != QRU_Q_NONE && z == 2) {
        zstep_add_rows(&h, fb, 9, NULL, seed);
        snprintf(at, sizeof at, "%s, 9 rows added", tag);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
        const int rows[3] = {9, 5, 0};
        zstep_remove_rows_ex(&h, &fb, 3, 9, rows, -1, tag);
        snprintf(at, sizeof at, "%s, rows 3.. removed per problem", tag);
        worst = fmax(worst, zcheck_b(&h, fb, NULL, -1, at));
    }
    qru_lsq_batch_destroy(fb);
    zbatch_free(&h);
    return worst;
}

/* loop index i: the type i / 3, the form i % 3, over the sizes from z = cols
 * (returns where the context takes no such type) */
static void zrun(int i, int cols)
{
    unsigned seed = 2024u + 7u * (unsigned)i + 100u * (unsigned)cols;
    qru_dtype dt = ctype_of(i / 3);
    int q = forms[i % 3];
    if (!dt)
        return;
    double worst = 0.0;
    for (int z = cols; z < 3; ++z)
        worst = fmax(worst, cols ? zcols_case(dt, q, z, &seed)
                                 : zrows_case(dt, q, z, &seed));
    printf("%s %s q=%d: max scaled error %.3g\n", cols ? "cols" : "rows",
           qru_test_type_name(dt), q, worst);
}

START_TEST(test_rows) { zrun(_i, 0); }
END_TEST

/* a NaN in the imaginary part of one problem's A (loop index: the type
 * i / 3, the form i % 3): creation and added rows keep it to that
 * problem, whose solve alone refuses; the others against LAPACKE */
START_TEST(test_nonfinite)
{
    unsigned seed = 77u + (unsigned)_i;
    qru_dtype dt = ctype_of(_i / 3);
    int q = forms[_i % 3], n = 13, m = 5;
    if (!dt)
        return;
    char tag[96];
    snprintf(tag, sizeof tag, "%s q=%d non-finite", qru_test_type_name(dt),
             q);
    zbatch h = zbatch_new(dt, q, 3, n, m, 2, -1, &seed);
    zd *a = &h.P[1].A[2 + (size_t)3 * n];
    ((double *)a)[1] = NAN; /* (re, im) pairs */
    qru_lsq_batch *fb = zmake(&h);
    const int on[3] = {1, 0, 1};
    zcheck_b(&h, fb, on, 1, tag);
    zstep_add_rows(&h, fb, 3, NULL, &seed);
    zcheck_b(&h, fb, on, 1, tag);
    qru_lsq_batch_destroy(fb);
    zbatch_free(&h);
}
END_TEST

START_TEST(test_cols) { zrun(_i, 1); }
END_TEST

/* the removal of rows near one common dominant row (Rz ill-conditioned:
 * the completion's second pass; loop index: the type i / 2, the form
 * thin or full by i % 2): three problems, the rows k .. k+2 of each plus
 * s a (a random row; complex double s = 20, 15, 10, complex float 10: the
 * errors relative to A1, which zcheck_b does not scale, grow with s as
 * the removal's condition), removed; Q's orthogonality (unscaled, as
 * every check of zcheck_b).  tests/test_lsq_batch.c's real cases go to
 * s = 1e4 with the errors scaled. */
START_TEST(test_remove_near_dominant)
{
    unsigned seed = 4242u + (unsigned)_i;
    qru_dtype dt = ctype_of(_i / 2);
    int q = forms[1 + _i % 2];
    if (!dt)
        return;
    static const int sz[2][2] = {{8, 5}, {40, 6}};
    for (int z = 0; z < 2; ++z) {
        int n = sz[z][0], m = sz[z][1], p = 3, k = (n - p) / 2;
        char tag[96];
        snprintf(tag, sizeof tag, "%s q=%d %d x %d near-dominant rows",
                 qru_test_type_name(dt), q, n, m);
        zbatch h = zbatch_new(dt, q, 3, n, m, 1, -1, &seed);
        for (int i = 0; i < 3; ++i) {
            double s = dt == QRU_COMPLEX_FLOAT ? 10.0 : 20.0 - 5.0 * i;
            for (int j = 0; j < m; ++j) {
                zd a = zval(dt, &seed) * s;
                for (int t = k; t < k + p; ++t) {
                    zd v = h.P[i].A[t + (size_t)j * n] + a;
                    if (dt == QRU_COMPLEX_FLOAT) /* exact in the type */
                        v = (float)creal(v) + (float)cimag(v) * _Complex_I;
                    h.P[i].A[t + (size_t)j * n] = v;
                }
            }
        }
        qru_lsq_batch *fb = zmake(&h);
        zstep_remove_rows(&h, &fb, k, p, -1, tag);
        double w = zcheck_b(&h, fb, NULL, -1, tag);
        if (getenv("QRU_TEST_VERBOSE"))
            printf("%s: worst scaled error %.3g\n", tag, w);
        qru_lsq_batch_destroy(fb);
        zbatch_free(&h);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lsq_batch_complex");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_created);
    tcase_add_loop_test(tc, test_rows, 0, 6);
    tcase_add_loop_test(tc, test_cols, 0, 6);
    tcase_add_loop_test(tc, test_remove_near_dominant, 0, 4);
    tcase_add_loop_test(tc, test_nonfinite, 0, 6);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
