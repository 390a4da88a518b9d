/*
 * libFuzzer harness over qru's CPU API.
 *
 * The input bytes are decoded into a sequence of calls on one context: the
 * least-squares object (create and create_from_qr in the full, thin and
 * Q-less forms, refusing or accepting rank-deficient results, the four
 * updates with any k and p, the routines that take the problem's data
 * (add_cols_data, remove_rows_data: the harness's copy of A and b, or one
 * with an entry changed), modify, shift, the update algorithms and block
 * sizes, solve, residual), qru_lsq_batch_add_cols_data on a new batch in
 * each form, the
 * Cholesky routines (factor, update/downdate, insert, delete) and the
 * Gaussian process (create, insert, remove, predict, log likelihood), in
 * the dtype chosen by the first byte.  Matrix entries come from a small
 * generator seeded by the input, with NaN, +-Inf, denormals, +-1e308 and
 * other extremes placed where the input says.
 *
 * Each call's status is checked against a model of include/qru.h: an
 * argument the header calls invalid must give exactly -i (the first one in
 * argument order); a valid call may return 0 or the positive / library
 * statuses the header lists for that routine, nothing else.  A call that
 * fails must leave the factorisation bit-identical (R, d, Q, Cholesky
 * factors, GP data compared before and after).  For finite, well-scaled
 * inputs a successful call must leave an accurate factorisation: the
 * scaled residual ||A1 - Q1 R1|| / (||A1|| max(n,m) eps) (and the others
 * below) stays under RES_BOUND, with A1 tracked on the host; this holds
 * for the rank-deficient A1 that QRU_RANK_ACCEPT lets through as well
 * (U copying a column of A, A + U V' with a zero column).
 *
 * Any violation prints the call and aborts, which libFuzzer reports as a
 * crash with the input that caused it.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qru.h"

/* Scaled residuals of a successful call on clean data stay below this
 * bound plus RES_STEP per update the factorisation has gone through (the
 * error of a chain of backward stable steps grows at most linearly). */
#define RES_BOUND 60.0
#define RES_STEP 10.0
#define MAXN 12 /* largest n of a least-squares problem */
#define MAXC 14 /* largest order of a Cholesky factor / GP */
#define MAXOPS 24

#define FAIL(...)                                                              \
    do {                                                                       \
        fprintf(stderr, "fuzz_api: ");                                         \
        fprintf(stderr, __VA_ARGS__);                                          \
        fprintf(stderr, "\n");                                                 \
        abort();                                                               \
    } while (0)

/* ---- input decoding ------------------------------------------------------ */

typedef struct rd {
    const uint8_t *p;
    size_t n, i;
} rd;

static unsigned u8(rd *r) { return r->i < r->n ? r->p[r->i++] : 0u; }
static unsigned u16(rd *r)
{
    unsigned a = u8(r);
    return a | (u8(r) << 8);
}

/* Mostly a value in [lo, hi]; sometimes one just outside, or an extreme. */
static int pick(rd *r, int lo, int hi)
{
    unsigned b = u8(r);
    if (b < 224 || hi < lo)
        return hi >= lo ? lo + (int)(b % (unsigned)(hi - lo + 1)) : lo;
    switch (b & 7) {
    case 0: return lo - 1;
    case 1: return hi + 1;
    case 2: return INT_MIN;
    case 3: return INT_MAX;
    case 4: return -(int)u8(r) - 1;
    case 5: return hi + 1 + (int)u8(r);
    case 6: return INT_MAX - (int)u8(r);
    default: return (int)(u16(r) | (u16(r) << 16));
    }
}

/* Special values placed into generated data. */
static double special(unsigned kind)
{
    switch (kind % 12) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return 4.9406564584124654e-324; /* double denormal */
    case 4: return 1e308;
    case 5: return -1e308;
    case 6: return 0.0;
    case 7: return -0.0;
    case 8: return 1e-40; /* float denormal */
    case 9: return 1e30;
    case 10: return -1e-300;
    default: return 3e38;
    }
}

/* rows x cols (ld = rows) entries uniform in [-1, 1] from a seed in the
 * input, then up to 4 specials.  *clean is cleared when a special other
 * than +-0 was placed. */
static void gen(rd *r, int rows, int cols, double *a, int *clean)
{
    uint32_t s = 0x9e3779b9u ^ (u16(r) * 2654435761u);
    size_t len = (size_t)rows * (size_t)cols;
    for (size_t i = 0; i < len; ++i) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        a[i] = (double)(s >> 8) / (double)(1u << 23) - 1.0;
    }
    unsigned b = u8(r);
    int ns = b < 200 ? 0 : 1 + (int)(b & 3);
    for (int t = 0; t < ns && len > 0; ++t) {
        size_t pos = u16(r) % len;
        unsigned kind = u8(r);
        a[pos] = special(kind);
        if (kind % 12 != 6 && kind % 12 != 7)
            *clean = 0;
    }
}

/* ---- the state --------------------------------------------------------- */

static qru_context *ctx;
static qru_dtype dt;
static double eps;
static size_t es;

typedef struct lsq_state {
    qru_lsq *f;
    int n, m, r;
    int form;  /* QRU_Q_FULL, QRU_Q_THIN or QRU_Q_NONE */
    int has_q; /* Q or Q1 held: form != QRU_Q_NONE */
    int accept; /* created with QRU_RANK_ACCEPT */
    double *A, *b; /* the problem A1, b1 as the caller sees it, ld = n */
    int clean;     /* A and b hold finite, well-scaled data */
    int steps;     /* updates since create */
    /* the largest ||A||, ||b|| so far: an update's error is relative to
     * the data it started from, which may be larger than the result */
    double anorm, bnorm;
    /* the product of the downdate conditions c of the row removals since
     * create (0: none; qru_lsq_get_downdate_condition(), Q-less form):
     * the Q-less R holds A'A only to about eps ||A||^2, each removal
     * multiplies that error relative to the smaller A1'A1 by up to c^2
     * (the thin form's checks need no factor: its A1 = Q1 R1 and b1 =
     * Q1 d1 + E1 hold relative to the data before, its Q1 stays
     * orthogonal and E1 orthogonal to it) */
    double amp;
} lsq_state;

typedef struct chol_state {
    qru_matrix *L; /* the held factor, or NULL */
    char uplo;
    int n;
    /* A = G G' + c I with G n x g: keeps every insert/downdate consistent
     * and positive definite */
    double *G;
    int g;
    double c;
    double anorm; /* the largest ||A|| so far */
    int tracked; /* L is a factor of the A above */
    int steps;
} chol_state;

typedef struct gp_state {
    qru_gp *gp;
    double ell, sf2, sn2;
    int clean;
} gp_state;

static lsq_state LS;
static int trace; /* FUZZ_TRACE=1 in the environment: print the calls */
static chol_state CH;
static gp_state GP;

/* ---- helpers -------------------------------------------------------------- */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        FAIL("out of host memory");
    return p;
}

static double round_dt(double v) { return dt == QRU_FLOAT ? (double)(float)v : v; }

/* New rows x cols matrix (ld = rows + pad) holding host h (ld = rows,
 * doubles, rounded to dt). */
static qru_matrix *mk(int rows, int cols, int pad, const double *h)
{
    qru_matrix *M = NULL;
    int ld = (rows > 1 ? rows : 1) + pad;
    int st = qru_matrix_create(ctx, dt, rows, cols, ld, &M);
    if (st)
        FAIL("qru_matrix_create(%d, %d, %d) = %d", rows, cols, ld, st);
    /* fill the whole buffer, padding included, so that comparisons of the
     * buffer see writes outside the matrix */
    size_t len = (size_t)ld * (size_t)cols;
    unsigned char *buf = qru_matrix_data(M);
    for (size_t i = 0; i < len * es; ++i)
        buf[i] = (unsigned char)(0xA5 ^ i);
    if (h) {
        for (int j = 0; j < cols; ++j)
            for (int i = 0; i < rows; ++i) {
                double v = h[i + (size_t)j * rows];
                if (dt == QRU_DOUBLE)
                    ((double *)buf)[i + (size_t)j * ld] = v;
                else
                    ((float *)buf)[i + (size_t)j * ld] = (float)v;
            }
    }
    return M;
}

static size_t buf_bytes(const qru_matrix *M)
{
    return (size_t)qru_matrix_ld(M) * (size_t)qru_matrix_cols(M) * es;
}

static void *save(const qru_matrix *M)
{
    size_t b = buf_bytes(M);
    void *s = xmalloc(b);
    if (b)
        memcpy(s, qru_matrix_data(M), b);
    return s;
}

static int same(const qru_matrix *M, const void *s)
{
    size_t b = buf_bytes(M);
    return b == 0 || memcmp(qru_matrix_data(M), s, b) == 0;
}

/* element (i, j) of M as a double */
static double at(const qru_matrix *M, int i, int j)
{
    size_t o = (size_t)i + (size_t)j * (size_t)qru_matrix_ld(M);
    return dt == QRU_DOUBLE ? ((const double *)qru_matrix_data(M))[o]
                            : (double)((const float *)qru_matrix_data(M))[o];
}

/* Status check.  bad: the -i the model expects (0: the call is valid).
 * A valid call may return 0, 1..posmax, or one of the library statuses
 * in lib[] (terminated by 0). */
static void check_status(const char *call, int st, int bad, int posmax,
                         const int *lib)
{
    if (trace)
        fprintf(stderr, "  %s -> %d\n", call, st);
    if (bad) {
        if (st != bad)
            FAIL("%s returned %d, the header makes it %d", call, st, bad);
        return;
    }
    if (st == 0 || (st > 0 && st <= posmax))
        return;
    for (; lib && *lib; ++lib)
        if (st == *lib)
            return;
    FAIL("%s returned %d on valid arguments (documented: 0%s)", call, st,
         posmax > 0 ? ", 1..posmax" : "");
}

static const int LIB_ALLOC[] = {QRU_ERR_ALLOC, 0};

/* huge allocations fail with NULL (then QRU_ERR_ALLOC), not an ASan report */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* ---- least squares ------------------------------------------------------ */

typedef struct lsq_snap {
    int n, m, r, form, qc, rr;   /* qc: Q's columns, rr: d's rows */
    unsigned char *R, *Q, *d, *E; /* E: the thin form's residuals */
} lsq_snap;

/* a host copy of the object's R, Q (n x n full, n x m thin), d (n x r
 * full, m x r otherwise) and the thin form's E; NULL f gives zeros */
static void lsq_take(const qru_lsq *f, lsq_snap *s)
{
    memset(s, 0, sizeof *s);
    if (!f)
        return;
    s->n = qru_lsq_rows(f);
    s->m = qru_lsq_cols(f);
    s->r = qru_lsq_nrhs(f);
    s->form = qru_lsq_q_form(f);
    if (s->form != QRU_Q_FULL && s->form != QRU_Q_THIN && s->form != QRU_Q_NONE)
        FAIL("qru_lsq_q_form = %d", s->form);
    if (qru_lsq_has_q(f) != (s->form != QRU_Q_NONE))
        FAIL("qru_lsq_has_q = %d in form %d", qru_lsq_has_q(f), s->form);
    s->qc = s->form == QRU_Q_FULL ? s->n : s->form == QRU_Q_THIN ? s->m : 0;
    s->rr = s->form == QRU_Q_FULL ? s->n : s->m;
    qru_matrix *R = mk(s->n, s->m, 0, NULL), *d = mk(s->rr, s->r, 0, NULL);
    qru_matrix *Q = mk(s->n, s->qc ? s->qc : s->n, 0, NULL);
    qru_matrix *E = mk(s->n, s->r, 0, NULL);
    int st = qru_lsq_get_r(f, R);
    if (st)
        FAIL("qru_lsq_get_r = %d", st);
    st = qru_lsq_get_d(f, d);
    if (st)
        FAIL("qru_lsq_get_d = %d", st);
    st = qru_lsq_get_q(f, Q);
    if (st != (s->form != QRU_Q_NONE ? 0 : QRU_ERR_NO_Q))
        FAIL("qru_lsq_get_q = %d in form %d", st, s->form);
    st = qru_lsq_get_residuals(f, E);
    if (st != (s->form != QRU_Q_NONE ? 0 : QRU_ERR_NO_Q))
        FAIL("qru_lsq_get_residuals = %d in form %d", st, s->form);
    if (s->form == QRU_Q_THIN && s->n > s->m) {
        /* the n x n Q and the n x r d need the full form */
        qru_matrix *Qf = mk(s->n, s->n, 0, NULL), *df = mk(s->n, s->r, 0, NULL);
        void *q0 = save(Qf), *d0 = save(df);
        st = qru_lsq_get_q(f, Qf);
        if (st != QRU_ERR_NO_Q || !same(Qf, q0))
            FAIL("qru_lsq_get_q(n x n) = %d in the thin form", st);
        st = qru_lsq_get_d(f, df);
        if (st != QRU_ERR_NO_Q || !same(df, d0))
            FAIL("qru_lsq_get_d(n x r) = %d in the thin form", st);
        free(q0);
        free(d0);
        qru_matrix_destroy(Qf);
        qru_matrix_destroy(df);
    }
    s->R = save(R);
    s->d = save(d);
    s->Q = s->qc ? save(Q) : NULL;
    s->E = s->form == QRU_Q_THIN ? save(E) : NULL;
    qru_matrix_destroy(R);
    qru_matrix_destroy(d);
    qru_matrix_destroy(Q);
    qru_matrix_destroy(E);
}

static void lsq_drop(lsq_snap *s)
{
    free(s->R);
    free(s->Q);
    free(s->d);
    free(s->E);
    memset(s, 0, sizeof *s);
}

static void lsq_same(const char *call, const lsq_snap *a, const lsq_snap *b)
{
    if (a->n != b->n || a->m != b->m || a->r != b->r || a->form != b->form)
        FAIL("%s failed but changed the sizes or the form (%d x %d, r %d, "
             "form %d -> %d x %d, r %d, form %d)", call, a->n, a->m, a->r,
             a->form, b->n, b->m, b->r, b->form);
    if (memcmp(a->R, b->R, (size_t)a->n * a->m * es) ||
        memcmp(a->d, b->d, (size_t)a->rr * a->r * es) ||
        (a->qc && memcmp(a->Q, b->Q, (size_t)a->n * a->qc * es)) ||
        (a->E && memcmp(a->E, b->E, (size_t)a->n * a->r * es)))
        FAIL("%s failed but changed the factorisation", call);
}

static double snap_at(const unsigned char *h, int ld, int i, int j)
{
    size_t o = (size_t)i + (size_t)j * (size_t)ld;
    return dt == QRU_DOUBLE ? ((const double *)h)[o]
                            : (double)((const float *)h)[o];
}

static double fro(const double *a, size_t len)
{
    double s = 0;
    for (size_t i = 0; i < len; ++i)
        s += a[i] * a[i];
    return sqrt(s);
}

/* The accuracy checks of a successful call on clean data. */
static void lsq_accuracy(const char *call)
{
    lsq_snap s;
    int n = LS.n, m = LS.m, r = LS.r;
    lsq_take(LS.f, &s);
    if (s.n != n || s.m != m || s.r != r || s.form != LS.form)
        FAIL("%s: object is %d x %d (r %d, form %d), the model %d x %d (r %d, "
             "form %d)", call, s.n, s.m, s.r, s.form, n, m, r, LS.form);
    /* on non-finite data the outputs are unspecified (the shared policy) */
    for (int j = 0; j < m && LS.clean; ++j)
        for (int i = j + 1; i < n; ++i)
            if (snap_at(s.R, n, i, j) != 0.0)
                FAIL("%s: R(%d,%d) = %g below the diagonal", call, i + 1,
                     j + 1, snap_at(s.R, n, i, j));
    double bound = RES_BOUND + RES_STEP * LS.steps;
    double ne = (n > m ? n : m) * eps;
    double nA = fro(LS.A, (size_t)n * m), nb = fro(LS.b, (size_t)n * r);
    if (trace)
        fprintf(stderr, "  %s: n=%d m=%d r=%d clean=%d ||A||=%g ||b||=%g\n",
                call, n, m, r, LS.clean, nA, nb);
    if (nA > LS.anorm)
        LS.anorm = nA;
    if (nb > LS.bnorm)
        LS.bnorm = nb;
    nA = LS.anorm;
    nb = LS.bnorm;
    if (!LS.clean || !(nA > 1e-30))
        goto out;
    if (s.qc) {
        /* full: Q (n x n), d (n x r); thin: Q1 (n x m), d (m x r) and
         * b1 = Q1 d1 + E with Q1' E = 0 */
        int qc = s.qc;
        double e = 0, o = 0, dd = 0, qe = 0;
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < n; ++i) {
                double v = LS.A[i + (size_t)j * n];
                for (int t = 0; t <= j && t < qc; ++t)
                    v -= snap_at(s.Q, n, i, t) * snap_at(s.R, n, t, j);
                e += v * v;
            }
        for (int j = 0; j < qc; ++j)
            for (int i = 0; i < qc; ++i) {
                double v = i == j ? -1.0 : 0.0;
                for (int t = 0; t < n; ++t)
                    v += snap_at(s.Q, n, t, i) * snap_at(s.Q, n, t, j);
                o += v * v;
            }
        for (int j = 0; j < r; ++j)
            for (int i = 0; i < n; ++i) {
                double v = LS.b[i + (size_t)j * n];
                for (int t = 0; t < qc; ++t)
                    v -= snap_at(s.Q, n, i, t) * snap_at(s.d, s.rr, t, j);
                if (s.E)
                    v -= snap_at(s.E, n, i, j);
                dd += v * v;
            }
        for (int j = 0; s.E && j < r; ++j)
            for (int i = 0; i < qc; ++i) {
                double v = 0;
                for (int t = 0; t < n; ++t)
                    v += snap_at(s.Q, n, t, i) * snap_at(s.E, n, t, j);
                qe += v * v;
            }
        e = sqrt(e) / (nA * ne);
        o = sqrt(o) / (n * eps);
        dd = nb > 1e-30 ? sqrt(dd) / (nb * ne) : 0;
        qe = nb > 1e-30 ? sqrt(qe) / (nb * ne) : 0;
        if (trace)
            fprintf(stderr, "  scaled errors %.3g %.3g %.3g %.3g, bound "
                    "%.0f\n", e, o, dd, qe, bound);
        if (!(e <= bound) || !(o <= bound) || !(dd <= bound) ||
            !(qe <= bound))
            FAIL("%s: n=%d m=%d r=%d form %d after %d updates: "
                 "||A1-Q1R1||/(||A1|| n eps) = %.3g, ||Q1'Q1-I||/(n eps) = "
                 "%.3g, ||Q1 d1 (+ E1) - b1||/(||b1|| n eps) = %.3g, "
                 "||Q1'E1||/(||b1|| n eps) = %.3g, bound %.0f",
                 call, n, m, r, s.form, LS.steps, e, o, dd, qe, bound);
    } else {
        /* without Q: R'R = A'A and ||d(:,j)||^2 + res_j^2 = ||b(:,j)||^2,
         * both widened by the square of the removals' conditions */
        double amp = LS.amp > 1 ? LS.amp : 1;
        double res[8];
        if (r > 8 || qru_lsq_get_residual_norms(LS.f, res) != 0)
            FAIL("%s: qru_lsq_get_residual_norms failed (r = %d)", call, r);
        double e = 0;
        for (int j = 0; j < m; ++j)
            for (int i = 0; i <= j; ++i) {
                double v = 0;
                for (int t = 0; t < n; ++t)
                    v += LS.A[t + (size_t)i * n] * LS.A[t + (size_t)j * n];
                for (int t = 0; t <= i; ++t)
                    v -= snap_at(s.R, n, t, i) * snap_at(s.R, n, t, j);
                e += v * v;
            }
        e = sqrt(e) / (nA * nA * ne);
        double worst = 0;
        for (int j = 0; j < r; ++j) {
            double x = 0, y = 0;
            for (int i = 0; i < n; ++i)
                x += LS.b[i + (size_t)j * n] * LS.b[i + (size_t)j * n];
            y = res[j] * res[j];
            for (int i = 0; i < m; ++i)
                y += snap_at(s.d, m, i, j) * snap_at(s.d, m, i, j);
            /* relative to the largest ||b||^2 so far: a removal of rows
             * downdates res_j^2 with an error of eps times the old one,
             * and by its downdate condition squared (amp^2: dz = Rz' \
             * (e - Qk d) can be c times larger than e, and its error as
             * well) */
            if (nb > 1e-30) {
                double q = fabs(x - y) / (nb * nb * ne);
                if (q > worst)
                    worst = q;
            }
        }
        if (trace)
            fprintf(stderr, "  scaled errors %.3g %.3g, bound %.0f (x %.3g)\n",
                    e, worst, bound, amp * amp);
        if (!(e <= bound * amp * amp) || !(worst <= bound * amp * amp))
            FAIL("%s: n=%d m=%d (no Q) after %d updates: ||A1'A1-R1'R1||/"
                 "(||A1||^2 n eps) = %.3g, | ||d||^2 + rho^2 - ||b||^2 |/"
                 "(||b||^2 n eps) = %.3g, bound %.0f (x %.3g)",
                 call, n, m, LS.steps, e, worst, bound, amp * amp);
    }
out:
    lsq_drop(&s);
}

static void lsq_reset(void)
{
    qru_lsq_destroy(LS.f);
    free(LS.A);
    free(LS.b);
    memset(&LS, 0, sizeof LS);
}

/* qru_lsq_create / qru_lsq_create_from_qr with decoded (maybe invalid)
 * arguments. */
static void op_lsq_create(rd *r, int from_qr)
{
    int n = 1 + (int)(u8(r) % MAXN), m = 1 + (int)(u8(r) % MAXN);
    int nr = 1 + (int)(u8(r) % 3);
    unsigned corrupt = u8(r) % 24; /* 0..15: none */
    int clean = 1;
    double *A = xmalloc(sizeof(double) * n * m);
    double *b = xmalloc(sizeof(double) * n * nr);
    gen(r, n, m, A, &clean);
    gen(r, n, nr, b, &clean);
    for (int i = 0; i < n * m; ++i)
        A[i] = round_dt(A[i]);
    for (int i = 0; i < n * nr; ++i)
        b[i] = round_dt(b[i]);
    /* well-scaled: finite; the generator's data is, specials aside */
    qru_lsq_options opt, *popt = &opt;
    qru_lsq_options_init(&opt);
    unsigned ob = u8(r);
    int opt_bad = 0, opt_badq = 0; /* opt->q alone: create_from_qr ignores it */
    int rank_bad = 0;
    if (ob < 32) {
        popt = NULL;
    } else {
        /* bit 2 (clear in the seeds of make_corpus.py before the thin
         * form was fuzzed) picks the thin form */
        opt.q = (ob & 4) ? QRU_Q_THIN : (ob & 1) ? QRU_Q_FULL : QRU_Q_NONE;
        if ((ob & 0xe0) == 0xe0) {
            opt.q = 7; /* not a qru_lsq_q */
            opt_badq = 1;
        }
        /* the top three bits 011 and 110 (in no input of the corpus
         * before the rank option was fuzzed) accept rank-deficient
         * results; with the five low bits set, opt->rank is no
         * qru_lsq_rank value instead */
        if ((ob >> 5) == 3 || (ob >> 5) == 6) {
            opt.rank = QRU_RANK_ACCEPT;
            if ((ob & 0x1f) == 0x1f) {
                opt.rank = (ob >> 5) == 3 ? 2 : -1;
                rank_bad = 1;
            }
        }
        opt.nb = pick(r, 0, 5);
        unsigned cb = u8(r);
        opt.row_capacity = (cb & 3) == 0 ? 0 : n + (int)((cb >> 2) & 3) - 1;
        opt.col_capacity = ((cb >> 4) & 3) == 0 ? 0 : m + (int)((cb >> 6) & 3) - 1;
        if (cb == 0xff) /* R alone would need ~2^65 bytes */
            opt.row_capacity = opt.col_capacity = INT_MAX - (int)(ob & 15);
        if (opt.nb < 0 || (opt.row_capacity != 0 && opt.row_capacity < n) ||
            (opt.col_capacity != 0 && opt.col_capacity < m))
            opt_bad = 1;
        /* capacities of any size are valid; keep them small */
        if (opt.row_capacity < 0 || opt.col_capacity < 0)
            opt_bad = 1;
        opt_bad |= rank_bad;
    }
    int pad = (int)(u8(r) % 3);
    qru_matrix *MA = mk(n, m, pad, A), *Mb = mk(n, nr, 0, b);
    qru_matrix *bad_b = NULL, *Qm = NULL, *Rm = NULL;
    qru_matrix *Q1m = NULL, *Rsq = NULL, *dm = NULL; /* the economy QR */
    qru_lsq *sentinel = (qru_lsq *)&sentinel, *f = sentinel;
    qru_lsq **out = &f;
    qru_context *c = ctx;
    const qru_matrix *a2 = MA, *a3 = Mb;
    int want = 0;
    char call[96];

    if (!from_qr) {
        int form = popt ? popt->q : QRU_Q_FULL;
        if (corrupt == 16)
            c = NULL;
        else if (corrupt == 17)
            a2 = NULL;
        else if (corrupt == 18)
            a3 = NULL;
        else if (corrupt == 19) {
            qru_matrix_create(ctx, dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE, n,
                              nr, 0, &bad_b);
            a3 = bad_b;
        } else if (corrupt == 20) {
            qru_matrix_create(ctx, dt, n + 1, nr, 0, &bad_b);
            a3 = bad_b;
        } else if (corrupt == 21)
            out = NULL;
        if (!c)
            want = -1;
        else if (!a2 || m > n)
            want = -2;
        else if (!a3 || corrupt == 19 || corrupt == 20)
            want = -3;
        else if (opt_bad || opt_badq)
            want = -4;
        else if (!out)
            want = -5;
        snprintf(call, sizeof call,
                 "qru_lsq_create(n=%d, m=%d, r=%d, form=%d, rank=%d)", n, m, nr,
                 form, popt ? popt->rank : 0);
        int st = qru_lsq_create(c, a2, a3, popt, out);
        int huge = popt && popt->row_capacity > 1000000;
        if (huge && !want && st != QRU_ERR_ALLOC)
            FAIL("%s: %d, not QRU_ERR_ALLOC, for capacities beyond SIZE_MAX",
                 call, st);
        check_status(call, st, want, 0, huge ? LIB_ALLOC : NULL);
        if (st) {
            if (f != sentinel)
                FAIL("%s failed (%d) but set *f", call, st);
        } else {
            lsq_reset();
            LS.f = f;
            LS.n = n;
            LS.m = m;
            LS.r = nr;
            LS.form = form;
            LS.has_q = form != QRU_Q_NONE;
            LS.accept = popt && popt->rank == QRU_RANK_ACCEPT;
            LS.A = A;
            LS.b = b;
            LS.clean = clean;
            A = b = NULL;
            lsq_accuracy(call);
        }
    } else if (m <= n) {
        /* a genuine QR from qru_qr_factor, then wrapped */
        int withq = (ob & 2) != 0;
        Qm = mk(n, n, 0, NULL);
        int st = qru_qr_factor(ctx, (int)(u8(r) % 4), MA, Qm, Mb);
        if (st)
            FAIL("qru_qr_factor(n=%d, m=%d) = %d", n, m, st);
        Rm = MA;
        const qru_matrix *q2 = withq ? Qm : NULL, *r3 = Rm, *d4 = Mb;
        /* bit 2 with Q (clear in the seeds before the thin form was
         * fuzzed): the economy Q1 = Q(:, 1:m), d(1:m, :) and R m x m or,
         * with bit 3, n x m: the thin form, whose b is Q1 d (E = 0) */
        int econ = withq && (ob & 4) && n > m;
        if (econ) {
            double *h = xmalloc(sizeof(double) * (size_t)n * (size_t)(m + nr));
            for (int j = 0; j < m; ++j)
                for (int i = 0; i < n; ++i)
                    h[i + (size_t)j * n] = at(Qm, i, j);
            Q1m = mk(n, m, (int)((ob >> 4) & 1), h);
            for (int j = 0; j < nr; ++j)
                for (int i = 0; i < n; ++i) {
                    double v = 0;
                    for (int t = 0; t < m; ++t)
                        v += at(Qm, i, t) * at(Mb, t, j);
                    b[i + (size_t)j * n] = v;
                }
            for (int j = 0; j < nr; ++j)
                for (int i = 0; i < m; ++i)
                    h[i + (size_t)j * m] = at(Mb, i, j);
            dm = mk(m, nr, 0, h);
            if (!(ob & 8)) {
                for (int j = 0; j < m; ++j)
                    for (int i = 0; i < m; ++i)
                        h[i + (size_t)j * m] = at(MA, i, j);
                Rsq = mk(m, m, 0, h);
            }
            free(h);
            q2 = Q1m;
            r3 = Rsq ? Rsq : MA;
            d4 = dm;
        }
        int form = !withq ? QRU_Q_NONE : econ ? QRU_Q_THIN : QRU_Q_FULL;
        if (corrupt == 16)
            c = NULL;
        else if (corrupt == 17) {
            qru_matrix_create(ctx, dt, n, n + 1, 0, &bad_b);
            q2 = bad_b;
        } else if (corrupt == 18)
            r3 = NULL;
        else if (corrupt == 19) {
            qru_matrix_create(ctx, dt, qru_matrix_rows(d4) + 1, nr, 0, &bad_b);
            d4 = bad_b;
        } else if (corrupt == 20)
            d4 = NULL;
        else if (corrupt == 21)
            out = NULL;
        if (!c)
            want = -1;
        else if (corrupt == 17)
            want = -2;
        else if (!r3)
            want = -3;
        else if (corrupt == 19 || !d4)
            want = -4;
        else if (opt_bad)
            want = -5;
        else if (!out)
            want = -6;
        snprintf(call, sizeof call,
                 "qru_lsq_create_from_qr(n=%d, m=%d, r=%d, form=%d, rank=%d)", n,
                 m, nr, form, popt ? popt->rank : 0);
        st = qru_lsq_create_from_qr(c, q2, r3, d4, popt, out);
        int huge = popt && popt->row_capacity > 1000000;
        if (huge && !want && st != QRU_ERR_ALLOC)
            FAIL("%s: %d, not QRU_ERR_ALLOC, for capacities beyond SIZE_MAX",
                 call, st);
        check_status(call, st, want, 0, huge ? LIB_ALLOC : NULL);
        if (st) {
            if (f != sentinel)
                FAIL("%s failed (%d) but set *f", call, st);
        } else {
            lsq_reset();
            LS.f = f;
            LS.n = n;
            LS.m = m;
            LS.r = nr;
            LS.form = form;
            LS.has_q = withq;
            LS.accept = popt && popt->rank == QRU_RANK_ACCEPT;
            LS.A = A;
            LS.b = b;
            /* Q R = A to working precision, so the accuracy checks hold
             * with the error of one more step */
            LS.clean = clean;
            LS.steps = 1;
            A = b = NULL;
            lsq_accuracy(call);
        }
    }
    qru_matrix_destroy(MA);
    qru_matrix_destroy(Mb);
    qru_matrix_destroy(Qm);
    qru_matrix_destroy(Q1m);
    qru_matrix_destroy(Rsq);
    qru_matrix_destroy(dm);
    qru_matrix_destroy(bad_b);
    free(A);
    free(b);
}

/* The common frame of an update: snapshot, call, status, unchanged on
 * failure, accuracy on success (the caller updates the model first). */
typedef struct upd {
    char call[128];
    lsq_snap before;
} upd;

static void upd_begin(upd *u) { lsq_take(LS.f, &u->before); }

static void upd_failed(upd *u)
{
    lsq_snap after;
    lsq_take(LS.f, &after);
    lsq_same(u->call, &u->before, &after);
    lsq_drop(&after);
    lsq_drop(&u->before);
}

/* Picks the context / object arguments: sometimes NULL. */
static void pick_cf(rd *r, qru_context **c, qru_lsq **f, int *want)
{
    unsigned b = u8(r);
    *c = ctx;
    *f = LS.f;
    *want = 0;
    if (b >= 254 || !LS.f) { /* the calls on a qru_lsq take f first */
        *f = NULL;
        *want = -1;
    }
}

/* A data argument of the _data routines (argument i): the rows x cols
 * host array h (ld = rows) as a matrix, chosen by one input byte: one row
 * (when rows_ok) or column too many, NULL, the other element type (each
 * -i), one entry changed (the data no longer A's or b's: *wrong), or h
 * itself (padded or not).  *bad is set to -i for the first bad argument. */
static qru_matrix *mk_data(rd *r, int rows, int cols, const double *h,
                           int rows_ok, int i, int *bad, int *wrong)
{
    unsigned db = u8(r);
    int rr = rows, cc = cols;
    if (db == 255 && rows_ok)
        rr++;
    else if (db == 255 || db == 254)
        cc++;
    else if (db == 253) {
        if (!*bad)
            *bad = -i;
        return NULL;
    } else if (db == 252) {
        qru_matrix *M = NULL;
        int st = qru_matrix_create(ctx, dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE,
                                   rows, cols, 0, &M);
        if (st)
            FAIL("qru_matrix_create = %d", st);
        if (!*bad)
            *bad = -i;
        return M;
    }
    if ((rr != rows || cc != cols) && !*bad)
        *bad = -i;
    double *t = xmalloc(sizeof(double) * (size_t)rr * (size_t)cc);
    for (int j = 0; j < cc; ++j)
        for (int q = 0; q < rr; ++q)
            t[q + (size_t)j * rr] =
                q < rows && j < cols ? h[q + (size_t)j * rows] : 0.5;
    if (db >= 240 && db < 252) { /* A or b other than the problem's */
        size_t pos = (size_t)(db - 240) % ((size_t)rr * (size_t)cc);
        t[pos] = round_dt(2 * t[pos] + 1);
        *wrong = 1;
    }
    qru_matrix *M = mk(rr, cc, (int)(db % 2), t);
    free(t);
    return M;
}

/* qru_lsq_add_cols (data = 0) or qru_lsq_add_cols_data (data = 1, with the
 * model's A and b, or wrong ones) */
static void op_add_cols(rd *r, int data)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m;
    int k = pick(r, 0, m);
    int p = (int)(u8(r) % 4);
    int urows = n;
    unsigned ub = u8(r);
    if (ub == 255)
        urows = n + 1;
    if (n == 0) {
        urows = 1;
        p = p ? p : 1;
    }
    int clean = 1;
    double *U = xmalloc(sizeof(double) * urows * (p ? p : 1));
    gen(r, urows, p, U, &clean);
    for (int i = 0; i < urows * p; ++i)
        U[i] = round_dt(U[i]);
    /* bit 1 (clear in the corpus before the rank option was fuzzed): U's
     * first column is a copy of a column of A, so that A1 is
     * rank-deficient */
    if ((ub & 2) && ub != 255 && p > 0 && m > 0)
        memcpy(U, LS.A + (size_t)((ub >> 2) % (unsigned)m) * n,
               sizeof(double) * (size_t)n);
    qru_matrix *MU = mk(urows, p, (int)(ub % 2), U);
    if (!want && (k < 0 || k > m))
        want = -2;
    if (!want && (urows != n || p < 1 || n < m + p))
        want = -3;
    qru_matrix *MA = NULL, *Mb = NULL;
    int wrong = 0;
    if (data) {
        MA = mk_data(r, n, m, LS.A, 1, 4, &want, &wrong);
        Mb = mk_data(r, n, LS.r, LS.b, 1, 5, &want, &wrong);
    }
    upd u;
    snprintf(u.call, sizeof u.call,
             "qru_lsq_add_cols%s(n=%d, m=%d, k=%d, p=%d, alg=%d%s)",
             data ? "_data" : "", n, m, k, p,
             LS.f ? qru_lsq_update_algorithm(LS.f) : -1,
             wrong ? ", wrong A or b" : "");
    upd_begin(&u);
    int st = data ? qru_lsq_add_cols_data(f, k, MU, MA, Mb)
                  : qru_lsq_add_cols(f, k, MU);
    const int lib[] = {LS.has_q || data ? 0 : QRU_ERR_NO_Q, 0};
    if (!want && !LS.has_q && !data && st != QRU_ERR_NO_Q)
        FAIL("%s on a factorisation without Q returned %d", u.call, st);
    /* QRU_RANK_ACCEPT: the full form takes a rank-deficient A1 (its Q1
     * and R1 are still a QR of A1); the thin and Q-less forms refuse it */
    int posmax = LS.accept && LS.form == QRU_Q_FULL ? 0 : m + p;
    check_status(u.call, st, want, posmax, lib);
    if (st > 0 && st <= k)
        FAIL("%s: rank status %d is before the changed columns", u.call, st);
    if (st) {
        upd_failed(&u);
    } else {
        lsq_drop(&u.before);
        double *A1 = xmalloc(sizeof(double) * n * (m + p));
        for (int j = 0; j < m + p; ++j)
            for (int i = 0; i < n; ++i)
                A1[i + (size_t)j * n] =
                    j < k ? LS.A[i + (size_t)j * n]
                    : j < k + p ? U[i + (size_t)(j - k) * n]
                                : LS.A[i + (size_t)(j - p) * n];
        free(LS.A);
        LS.A = A1;
        LS.m = m + p;
        LS.clean &= clean;
        /* the Q-less form computes from the A and b it is given (the
         * others do not read them) */
        if (wrong && LS.form == QRU_Q_NONE)
            LS.clean = 0;
        LS.steps++;
        lsq_accuracy(u.call);
    }
    qru_matrix_destroy(MU);
    qru_matrix_destroy(MA);
    qru_matrix_destroy(Mb);
    free(U);
}

/* A new rows x cols host array from gen, rounded to the element type */
static double *gen_dt(rd *r, int rows, int cols, int *clean)
{
    double *a = xmalloc(sizeof(double) * (size_t)(rows ? rows : 1) *
                        (size_t)cols);
    gen(r, rows, cols, a, clean);
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; ++i)
        a[i] = round_dt(a[i]);
    return a;
}

/* qru_lsq_modify(f, U, V): A := A + U V' (U n x k, V m x k; a wrong
 * row count of U or V one time in 256 each) */
static void op_modify(rd *r)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m;
    int k = (int)(u8(r) % 4);
    unsigned ub = u8(r), vb = u8(r);
    int urows = ub == 255 ? n + 1 : n, vrows = vb == 255 ? m + 1 : m;
    int ucols = k > 0 ? k : 1; /* qru_matrix has no empty shape */
    int clean = 1;
    double *U = gen_dt(r, urows, ucols, &clean),
           *V = gen_dt(r, vrows, ucols, &clean);
    /* bit 1 of vb (clear in the corpus before the rank option was
     * fuzzed): U(:,1) = -A(:,c), V(:,1) = e_c and V(c,:) = 0 otherwise,
     * so that column c of A1 is exactly zero */
    int zc = (vb & 2) && vb != 255 && urows == n && m > 0
                 ? (int)((vb >> 2) % (unsigned)m)
                 : -1;
    if (zc >= 0) {
        for (int i = 0; i < n; ++i)
            U[i] = -LS.A[i + (size_t)zc * n];
        for (int l = 0; l < ucols; ++l)
            for (int j = 0; j < m; ++j)
                if (j == zc || l == 0)
                    V[j + (size_t)l * m] = l == 0 && j == zc ? 1.0 : 0.0;
    }
    qru_matrix *MU = mk(urows, ucols, (int)(ub % 2), U);
    qru_matrix *MV = mk(vrows, ucols, (int)(vb % 2), V);
    if (!want && urows != n)
        want = -2;
    /* the thin form takes k <= n - m columns (n > m) */
    if (!want && LS.form == QRU_Q_THIN && n > m && ucols > n - m)
        want = -2;
    if (!want && vrows != m)
        want = -3;
    upd u;
    snprintf(u.call, sizeof u.call,
             "qru_lsq_modify(n=%d, m=%d, k=%d, alg=%d, zero column %d)", n, m,
             ucols, LS.f ? qru_lsq_update_algorithm(LS.f) : -1, zc);
    upd_begin(&u);
    int st = qru_lsq_modify(f, MU, MV);
    const int lib[] = {LS.has_q ? 0 : QRU_ERR_NO_Q, 0};
    if (!want && !LS.has_q && st != QRU_ERR_NO_Q)
        FAIL("%s on a factorisation without Q returned %d", u.call, st);
    /* QRU_RANK_ACCEPT: both forms with Q take a rank-deficient A1 */
    check_status(u.call, st, want, LS.accept ? 0 : m, lib);
    if (st) {
        upd_failed(&u);
    } else {
        lsq_drop(&u.before);
        /* the model's A holds values of the element type */
        for (int j = 0; j < m; ++j)
            for (int i = 0; i < n; ++i) {
                double a = LS.A[i + (size_t)j * n];
                for (int l = 0; l < ucols; ++l)
                    a += U[i + (size_t)l * n] * V[j + (size_t)l * m];
                LS.A[i + (size_t)j * n] = round_dt(a);
            }
        LS.clean &= clean;
        LS.steps++;
        lsq_accuracy(u.call);
    }
    qru_matrix_destroy(MU);
    qru_matrix_destroy(MV);
    free(U);
    free(V);
}

/* qru_lsq_shift_cols(f, i, j): column i of A moves to position j */
static void op_shift_cols(rd *r)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m;
    int i = pick(r, 0, m - 1), j = pick(r, 0, m - 1);
    if (!want && (i < 0 || i >= m))
        want = -2;
    if (!want && (j < 0 || j >= m))
        want = -3;
    upd u;
    snprintf(u.call, sizeof u.call, "qru_lsq_shift_cols(n=%d, m=%d, i=%d, j=%d)",
             n, m, i, j);
    upd_begin(&u);
    int st = qru_lsq_shift_cols(f, i, j);
    check_status(u.call, st, want, 0, NULL);
    if (st) {
        upd_failed(&u);
        return;
    }
    lsq_drop(&u.before);
    double *col = xmalloc(sizeof(double) * (size_t)(n ? n : 1));
    memcpy(col, LS.A + (size_t)i * n, sizeof(double) * (size_t)n);
    if (i < j)
        memmove(LS.A + (size_t)i * n, LS.A + (size_t)(i + 1) * n,
                sizeof(double) * (size_t)n * (size_t)(j - i));
    else if (i > j)
        memmove(LS.A + (size_t)(j + 1) * n, LS.A + (size_t)j * n,
                sizeof(double) * (size_t)n * (size_t)(i - j));
    memcpy(LS.A + (size_t)j * n, col, sizeof(double) * (size_t)n);
    free(col);
    LS.steps++;
    lsq_accuracy(u.call);
}

static void op_remove_cols(rd *r)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m;
    int k = pick(r, 0, m - 1);
    int p = pick(r, 1, m - (k >= 0 && k < m ? k : 0));
    if (!want && (k < 0 || k >= m))
        want = -2;
    if (!want && (p < 1 || p > m - k || p >= m))
        want = -3;
    upd u;
    snprintf(u.call, sizeof u.call, "qru_lsq_remove_cols(n=%d, m=%d, k=%d, p=%d, alg=%d)",
             n, m, k, p, LS.f ? qru_lsq_update_algorithm(LS.f) : -1);
    upd_begin(&u);
    int st = qru_lsq_remove_cols(f, k, p);
    check_status(u.call, st, want, 0, NULL);
    if (st) {
        upd_failed(&u);
        return;
    }
    lsq_drop(&u.before);
    double *A1 = xmalloc(sizeof(double) * n * (m - p));
    for (int j = 0; j < m - p; ++j)
        for (int i = 0; i < n; ++i)
            A1[i + (size_t)j * n] = LS.A[i + (size_t)(j < k ? j : j + p) * n];
    free(LS.A);
    LS.A = A1;
    LS.m = m - p;
    LS.steps++;
    lsq_accuracy(u.call);
}

static void op_add_rows(rd *r)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m, nr = LS.r;
    int k = pick(r, 0, n);
    int p = (int)(u8(r) % 4);
    unsigned eb = u8(r);
    int ucols = m > 0 ? m : 1, erows = p, ecols = nr > 0 ? nr : 1;
    if (eb == 255)
        ucols++;
    else if (eb == 254)
        erows++;
    else if (eb == 253)
        ecols++;
    if (n + p > 3 * MAXN)
        p = 0; /* keep the problem small: an invalid p of 0 instead */
    int clean = 1;
    double *U = xmalloc(sizeof(double) * (p ? p : 1) * ucols);
    double *e = xmalloc(sizeof(double) * (erows ? erows : 1) * ecols);
    gen(r, p, ucols, U, &clean);
    gen(r, erows, ecols, e, &clean);
    for (int i = 0; i < p * ucols; ++i)
        U[i] = round_dt(U[i]);
    for (int i = 0; i < erows * ecols; ++i)
        e[i] = round_dt(e[i]);
    qru_matrix *MU = mk(p, ucols, (int)(eb % 3), U);
    qru_matrix *Me = mk(erows, ecols, 0, e);
    if (!want && (k < 0 || k > n))
        want = -2;
    if (!want && (p < 1 || ucols != m))
        want = -3;
    if (!want && (erows != p || ecols != nr))
        want = -4;
    upd u;
    snprintf(u.call, sizeof u.call, "qru_lsq_add_rows(n=%d, m=%d, k=%d, p=%d, alg=%d)",
             n, m, k, p, LS.f ? qru_lsq_update_algorithm(LS.f) : -1);
    upd_begin(&u);
    int st = qru_lsq_add_rows(f, k, MU, Me);
    check_status(u.call, st, want, 0, NULL);
    if (st) {
        upd_failed(&u);
    } else {
        lsq_drop(&u.before);
        int n1 = n + p;
        double *A1 = xmalloc(sizeof(double) * n1 * m);
        double *b1 = xmalloc(sizeof(double) * n1 * nr);
        for (int i = 0; i < n1; ++i) {
            for (int j = 0; j < m; ++j)
                A1[i + (size_t)j * n1] =
                    i < k ? LS.A[i + (size_t)j * n]
                    : i < k + p ? U[(i - k) + (size_t)j * p]
                                : LS.A[(i - p) + (size_t)j * n];
            for (int j = 0; j < nr; ++j)
                b1[i + (size_t)j * n1] =
                    i < k ? LS.b[i + (size_t)j * n]
                    : i < k + p ? e[(i - k) + (size_t)j * p]
                                : LS.b[(i - p) + (size_t)j * n];
        }
        free(LS.A);
        free(LS.b);
        LS.A = A1;
        LS.b = b1;
        LS.n = n1;
        LS.clean &= clean;
        LS.steps++;
        lsq_accuracy(u.call);
    }
    qru_matrix_destroy(MU);
    qru_matrix_destroy(Me);
    free(U);
    free(e);
}

/* qru_lsq_remove_rows (data = 0) or qru_lsq_remove_rows_data (data = 1,
 * with the rows of the model's A and b, or wrong ones) */
static void op_remove_rows(rd *r, int data)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int n = LS.n, m = LS.m, nr = LS.r;
    int k = pick(r, 0, n - 1);
    int p = pick(r, 1, n - m);
    qru_matrix *MU = NULL, *Me = NULL;
    int wrong = 0;
    if (data) {
        /* U has p rows: a p outside 1 .. n + 1 becomes n + 1 (refused) */
        if (p < 1 || p > n + 1)
            p = n + 1;
    }
    if (!want && (k < 0 || k >= n))
        want = -2;
    if (data) {
        /* the rows k+1 .. k+p of A and b where they exist */
        double *U = xmalloc(sizeof(double) * (size_t)p * (size_t)(m + nr));
        double *e = U + (size_t)p * m;
        for (int i = 0; i < p; ++i) {
            int s = k >= 0 && k < n - i ? k + i : i % n;
            for (int j = 0; j < m; ++j)
                U[i + (size_t)j * p] = LS.A[s + (size_t)j * n];
            for (int j = 0; j < nr; ++j)
                e[i + (size_t)j * p] = LS.b[s + (size_t)j * n];
        }
        int bad = want;
        MU = mk_data(r, p, m, U, 0, 3, &bad, &wrong);
        if (!want && bad)
            want = bad;
        if (!want && (p > n - k || n - p < m))
            want = -3;
        Me = mk_data(r, p, nr, e, 1, 4, &want, &wrong);
        free(U);
    } else if (!want && (p < 1 || p > n - k || n - p < m))
        want = -3;
    upd u;
    snprintf(u.call, sizeof u.call,
             "qru_lsq_remove_rows%s(n=%d, m=%d, k=%d, p=%d, alg=%d%s)",
             data ? "_data" : "", n, m, k, p,
             LS.f ? qru_lsq_update_algorithm(LS.f) : -1,
             wrong ? ", wrong U or e" : "");
    upd_begin(&u);
    int st = data ? qru_lsq_remove_rows_data(f, k, MU, Me)
                  : qru_lsq_remove_rows(f, k, p);
    qru_matrix_destroy(MU);
    qru_matrix_destroy(Me);
    if (!want && !LS.has_q && !data && st != QRU_ERR_NO_Q)
        FAIL("%s on a factorisation without Q returned %d", u.call, st);
    /* the thin and Q-less forms refuse a rank-deficient A1 (whatever the
     * rank option): j, a column of Rz (p x p) or, Q-less with p > m, of
     * the m x m factor L */
    const int lib[] = {LS.has_q || data ? 0 : QRU_ERR_NO_Q, 0};
    int posmax = LS.form == QRU_Q_THIN ? p
                 : LS.form == QRU_Q_NONE ? (p < m ? p : m)
                                         : 0;
    check_status(u.call, st, want, posmax, lib);
    if (st) {
        upd_failed(&u);
        return;
    }
    lsq_drop(&u.before);
    int n1 = n - p;
    double *A1 = xmalloc(sizeof(double) * n1 * m);
    double *b1 = xmalloc(sizeof(double) * n1 * nr);
    for (int i = 0; i < n1; ++i) {
        int s = i < k ? i : i + p;
        for (int j = 0; j < m; ++j)
            A1[i + (size_t)j * n1] = LS.A[s + (size_t)j * n];
        for (int j = 0; j < nr; ++j)
            b1[i + (size_t)j * n1] = LS.b[s + (size_t)j * n];
    }
    free(LS.A);
    free(LS.b);
    LS.A = A1;
    LS.b = b1;
    LS.n = n1;
    LS.steps++;
    /* the Q-less form downdates by the rows it is given (the others do
     * not read them) */
    if (wrong && LS.form == QRU_Q_NONE)
        LS.clean = 0;
    if (LS.form != QRU_Q_FULL) {
        double cond = -1;
        st = qru_lsq_get_downdate_condition(LS.f, &cond);
        if (st || !(cond >= 1))
            FAIL("%s: qru_lsq_get_downdate_condition = %d, c = %g", u.call, st,
                 cond);
        if (LS.form == QRU_Q_NONE)
            LS.amp = (LS.amp > 1 ? LS.amp : 1) * cond;
        if (trace)
            fprintf(stderr, "  downdate condition %g\n", cond);
    }
    lsq_accuracy(u.call);
}

static void op_lsq_settings(rd *r)
{
    unsigned b = u8(r);
    qru_lsq *f = (b & 0x80) ? NULL : LS.f;
    int st, want = f ? 0 : -1;
    if (b & 1) {
        int alg = pick(r, 0, 3); /* FAST, DISSERTATION, AUTO, REFACTOR */
        if (!want && (alg < 0 || alg > 3))
            want = -2;
        st = qru_lsq_set_update_algorithm(f, (qru_update_algorithm)alg);
        check_status("qru_lsq_set_update_algorithm", st, want, 0, NULL);
        if (!st && qru_lsq_update_algorithm(f) != alg)
            FAIL("qru_lsq_update_algorithm != the one set");
    } else {
        int nb = pick(r, 0, 6);
        if (!want && nb < 0)
            want = -2;
        st = qru_lsq_set_update_block_size(f, nb);
        check_status("qru_lsq_set_update_block_size", st, want, 0, NULL);
        if (!st && qru_lsq_update_block_size(f) != nb)
            FAIL("qru_lsq_update_block_size != the one set");
    }
}

static void op_solve(rd *r)
{
    qru_context *c;
    qru_lsq *f;
    int want;
    pick_cf(r, &c, &f, &want);
    int m = LS.m > 0 ? LS.m : 1, nr = LS.r > 0 ? LS.r : 1;
    unsigned b = u8(r);
    int xr = m + (b == 255), xc = nr + (b == 254);
    if (!want && (xr != LS.m || xc != LS.r))
        want = -2;
    qru_matrix *x = mk(xr, xc, (int)(b % 2), NULL);
    void *x0 = save(x);
    char call[96];
    snprintf(call, sizeof call, "qru_lsq_solve(n=%d, m=%d)", LS.n, LS.m);
    int st = qru_lsq_solve(f, x);
    check_status(call, st, want, LS.m, NULL);
    if (st && !same(x, x0))
        FAIL("%s failed (%d) but changed x", call, st);
    if (!st && LS.clean) {
        /* the padding rows of x stay untouched */
        int ld = qru_matrix_ld(x);
        for (int j = 0; j < xc; ++j)
            if (ld > xr &&
                memcmp((char *)qru_matrix_data(x) + ((size_t)j * ld + xr) * es,
                       (char *)x0 + ((size_t)j * ld + xr) * es,
                       (size_t)(ld - xr) * es))
                FAIL("%s wrote outside x", call);
    }
    free(x0);
    qru_matrix_destroy(x);
    double res[4];
    int st2 = qru_lsq_get_residual_norms(f, (b & 0x40) ? NULL : res);
    if (!want && (b & 0x40))
        want = -2;
    if (want == -2 && !(b & 0x40))
        want = 0; /* x was the bad argument above */
    check_status("qru_lsq_get_residual_norms", st2, want, 0, NULL);
}

/* ---- the batched least squares: qru_lsq_batch_add_cols_data ------------ */

/* A new batch of count rows x cols pages (ld rows, contiguous pages)
 * holding the host pages h (doubles, one after another; NULL: filler) */
static qru_matrix *mkb(qru_dtype t, int rows, int cols, int count,
                       const double *h)
{
    qru_matrix *M = NULL;
    int st = qru_matrix_create_batch(ctx, t, rows, cols, rows, count, 0, &M);
    if (st)
        FAIL("qru_matrix_create_batch(%d, %d, count %d) = %d", rows, cols,
             count, st);
    size_t len = (size_t)rows * (size_t)cols * (size_t)count;
    unsigned char *buf = qru_matrix_data(M);
    for (size_t i = 0; i < len; ++i) {
        double v = h ? h[i] : (double)(i % 7) - 3.0;
        if (t == QRU_DOUBLE)
            ((double *)buf)[i] = v;
        else
            ((float *)buf)[i] = (float)v;
    }
    return M;
}

static size_t bbytes(const qru_matrix *M)
{
    return (size_t)qru_matrix_rows(M) * (size_t)qru_matrix_cols(M) *
           (size_t)qru_matrix_count(M) * es;
}

/* A data argument of qru_lsq_batch_add_cols_data (argument i, count pages
 * rows x cols in h), chosen by one input byte as mk_data's: a row or a
 * column too many, a page too many, NULL, the other element type (each
 * -i), one entry changed (*wrong), or h itself. */
static qru_matrix *mkb_data(rd *r, int rows, int cols, int count,
                            const double *h, int i, int *bad, int *wrong)
{
    unsigned db = u8(r);
    int rr = rows + (db == 255), cc = cols + (db == 254),
        nc = count + (db == 251);
    if (db == 253) {
        if (!*bad)
            *bad = -i;
        return NULL;
    }
    if (db == 252) {
        if (!*bad)
            *bad = -i;
        return mkb(dt == QRU_DOUBLE ? QRU_FLOAT : QRU_DOUBLE, rows, cols,
                   count, NULL);
    }
    if ((rr != rows || cc != cols || nc != count) && !*bad)
        *bad = -i;
    size_t len = (size_t)rr * (size_t)cc * (size_t)nc;
    double *t = xmalloc(sizeof(double) * (len ? len : 1));
    for (int g = 0; g < nc; ++g)
        for (int j = 0; j < cc; ++j)
            for (int q = 0; q < rr; ++q)
                t[q + (size_t)rr * (j + (size_t)cc * g)] =
                    q < rows && j < cols && g < count
                        ? h[q + (size_t)rows * (j + (size_t)cols * g)]
                        : 0.5;
    if (db >= 240 && db < 251 && len > 0) {
        size_t pos = (size_t)(db - 240) % len;
        t[pos] = round_dt(2 * t[pos] + 1);
        *wrong = 1;
    }
    qru_matrix *M = mkb(dt, rr, cc, nc, t);
    free(t);
    return M;
}

typedef struct bsnap {
    qru_matrix *M[4];    /* R, d, Q, E (NULL: not held) */
    unsigned char *h[4]; /* their host copies, len[i] bytes */
    size_t len[4];
    double *rho;
} bsnap;

/* host copies of every page's R, d, Q (Q1 or the full Q) and E and of
 * the residual norms */
static void bsnap_take(const qru_lsq_batch *fb, int form, int n, bsnap *s)
{
    int count = qru_lsq_batch_count(fb), m = qru_lsq_batch_cols(fb),
        r = qru_lsq_batch_nrhs(fb);
    memset(s, 0, sizeof *s);
    s->M[0] = mkb(dt, m, m, count, NULL);
    s->M[1] = mkb(dt, form == QRU_Q_FULL ? n : m, r, count, NULL);
    if (form != QRU_Q_NONE) {
        s->M[2] = mkb(dt, n, form == QRU_Q_FULL ? n : m, count, NULL);
        s->M[3] = mkb(dt, n, r, count, NULL);
    }
    for (int i = 0; i < 4; ++i) {
        if (!s->M[i])
            continue;
        int st = i == 0   ? qru_lsq_batch_get_r(fb, s->M[i])
                 : i == 1 ? qru_lsq_batch_get_d(fb, s->M[i])
                 : i == 2 ? qru_lsq_batch_get_q(fb, s->M[i])
                          : qru_lsq_batch_get_residuals(fb, s->M[i]);
        if (st)
            FAIL("qru_lsq_batch_get_%s = %d", i == 0   ? "r"
                                              : i == 1 ? "d"
                                              : i == 2 ? "q"
                                                       : "residuals", st);
        s->len[i] = bbytes(s->M[i]);
        s->h[i] = xmalloc(s->len[i] + 1);
        memcpy(s->h[i], qru_matrix_data(s->M[i]), s->len[i]);
    }
    s->rho = xmalloc(sizeof(double) * (size_t)(count * r + 1));
    int st = qru_lsq_batch_residual_norms(fb, s->rho);
    if (st)
        FAIL("qru_lsq_batch_residual_norms = %d", st);
}

static void bsnap_drop(bsnap *s)
{
    for (int i = 0; i < 4; ++i) {
        qru_matrix_destroy(s->M[i]);
        free(s->h[i]);
    }
    free(s->rho);
    memset(s, 0, sizeof *s);
}

/* element (i, j) of page g of a snapshot's host copy (rows x cols) */
static double bat(const unsigned char *h, int rows, int cols, int g, int i,
                  int j)
{
    size_t o = (size_t)i + (size_t)rows * ((size_t)j + (size_t)cols * g);
    return dt == QRU_DOUBLE ? ((const double *)h)[o]
                            : (double)((const float *)h)[o];
}

/* A batch of count n x m problems (r right-hand sides) in one of the
 * three forms, created, then qru_lsq_batch_add_cols_data(fb, k, V, A, b,
 * info) with the pages of A and b (or wrong ones) and V of p columns
 * (with vb bit 1 the first column of one page a copy of a column of its
 * A: that problem refuses, and then every problem stays as it was). */
static void op_batch_add_cols(rd *r)
{
    unsigned cb = u8(r);
    int count = cb == 255 ? 0 : 1 + (int)(cb % 3);
    int form = (int)((cb >> 2) % 3); /* FULL, THIN, NONE */
    int n = 1 + (int)(u8(r) % MAXN);
    int m = 1 + (int)(u8(r) % (unsigned)n), nr = 1 + (int)(u8(r) % 3);
    int clean = 1;
    double *A = gen_dt(r, n, m * count, &clean);
    double *b = gen_dt(r, n, nr * count, &clean);
    qru_matrix *MA = mkb(dt, n, m, count, A), *Mb = mkb(dt, n, nr, count, b);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = form;
    opt.rank = (cb >> 5) & 1; /* not used by the batches */
    qru_lsq_batch *fb = NULL;
    char call[160];
    snprintf(call, sizeof call,
             "qru_lsq_batch_create%s(count=%d, n=%d, m=%d, r=%d, form=%d)",
             form == QRU_Q_NONE && (cb & 0x40) ? "" : "_ex", count, n, m, nr,
             form);
    int st = form == QRU_Q_NONE && (cb & 0x40)
                 ? qru_lsq_batch_create(ctx, MA, Mb, &fb)
                 : qru_lsq_batch_create_ex(ctx, MA, Mb, &opt, &fb);
    check_status(call, st, 0, 0, NULL);
    qru_matrix_destroy(MA);
    qru_matrix_destroy(Mb);
    if (qru_lsq_batch_q_form(fb) != form || qru_lsq_batch_count(fb) != count)
        FAIL("%s: form %d, count %d", call, qru_lsq_batch_q_form(fb),
             qru_lsq_batch_count(fb));

    int k = pick(r, 0, m);
    int p = (int)(u8(r) % 4);
    unsigned vb = u8(r);
    int vrows = n + (vb == 255), vcount = count + (vb == 254);
    double *V = gen_dt(r, vrows, p * vcount, &clean);
    int dup = (vb & 2) && vb < 254 && count > 0 && p > 0
                  ? (int)((vb >> 2) % count)
                  : -1;
    if (dup >= 0)
        memcpy(V + (size_t)dup * n * p,
               A + (size_t)n * ((size_t)dup * m + (size_t)((vb >> 4) % m)),
               sizeof(double) * (size_t)n);
    qru_matrix *MV = mkb(dt, vrows, p, vcount, V);
    int want = 0;
    if (k < 0 || k > m)
        want = -2;
    else if (vrows != n || vcount != count || p < 1 || m + p > n)
        want = -3;
    int wrong = 0;
    qru_matrix *DA = mkb_data(r, n, m, count, A, 4, &want, &wrong);
    qru_matrix *Db = mkb_data(r, n, nr, count, b, 5, &want, &wrong);
    int noinfo = (vb & 1) && vb < 254;
    int *info = xmalloc(sizeof(int) * (size_t)(count + 1));
    for (int i = 0; i <= count; ++i)
        info[i] = -7;
    bsnap before, after;
    bsnap_take(fb, form, n, &before);
    snprintf(call, sizeof call,
             "qru_lsq_batch_add_cols_data(count=%d, n=%d, m=%d, r=%d, form=%d, "
             "k=%d, p=%d%s%s)", count, n, m, nr, form, k, p,
             dup >= 0 ? ", a copy of a column" : "",
             wrong ? ", wrong A or b" : "");
    st = qru_lsq_batch_add_cols_data(fb, k, MV, DA, Db, noinfo ? NULL : info);
    check_status(call, st, want, count, LIB_ALLOC);
    int refused = 0;
    for (int i = 0; st >= 0 && !noinfo && i < count; ++i) {
        if (info[i] != 0 && (info[i] <= k || info[i] > m + p))
            FAIL("%s: info[%d] = %d, not 0 or in %d .. %d", call, i, info[i],
                 k + 1, m + p);
        refused += info[i] > 0;
    }
    if (st >= 0 && !noinfo && refused != st)
        FAIL("%s returned %d but %d problems refused", call, st, refused);
    for (int i = 0; i <= count; ++i)
        if ((st < 0 || noinfo || i == count) && info[i] != -7)
            FAIL("%s (%d) wrote info[%d]", call, st, i);
    if (st) {
        bsnap_take(fb, form, n, &after);
        for (int i = 0; i < 4; ++i)
            if (before.len[i] &&
                memcmp(before.h[i], after.h[i], before.len[i]))
                FAIL("%s failed (%d) but changed the batch", call, st);
        if (memcmp(before.rho, after.rho, sizeof(double) * (size_t)(count * nr)))
            FAIL("%s failed (%d) but changed the residual norms", call, st);
        bsnap_drop(&after);
    } else if (qru_lsq_batch_cols(fb) != m + p) {
        FAIL("%s: m = %d after the call", call, qru_lsq_batch_cols(fb));
    } else if (clean && !(wrong && form == QRU_Q_NONE)) {
        /* every page: R1'R1 = A1'A1, ||d1||^2 + rho1^2 = ||b||^2 and, with
         * Q, A1 = Q1 R1 */
        int m1 = m + p, qc = form == QRU_Q_FULL ? n : m1;
        bsnap_take(fb, form, n, &after);
        double *A1 = xmalloc(sizeof(double) * (size_t)n * m1);
        double ne = (n > m1 ? n : m1) * eps, bound = RES_BOUND + RES_STEP;
        for (int g = 0; g < count; ++g) {
            const double *Ag = A + (size_t)g * n * m, *bg = b + (size_t)g * n * nr;
            for (int j = 0; j < m1; ++j)
                for (int i = 0; i < n; ++i)
                    A1[i + (size_t)j * n] =
                        j < k ? Ag[i + (size_t)j * n]
                        : j < k + p ? V[i + (size_t)n * ((size_t)g * p + j - k)]
                                    : Ag[i + (size_t)(j - p) * n];
            double nA = fro(A1, (size_t)n * m1), nb = fro(bg, (size_t)n * nr);
            double e = 0, ea = 0, worst = 0;
            for (int j = 0; j < m1; ++j)
                for (int i = 0; i <= j; ++i) {
                    double v = 0;
                    for (int t = 0; t < n; ++t)
                        v += A1[t + (size_t)i * n] * A1[t + (size_t)j * n];
                    for (int t = 0; t <= i; ++t)
                        v -= bat(after.h[0], m1, m1, g, t, i) *
                             bat(after.h[0], m1, m1, g, t, j);
                    e += v * v;
                }
            for (int j = 0; form != QRU_Q_NONE && j < m1; ++j)
                for (int i = 0; i < n; ++i) {
                    double v = A1[i + (size_t)j * n];
                    for (int t = 0; t <= j; ++t)
                        v -= bat(after.h[2], n, qc, g, i, t) *
                             bat(after.h[0], m1, m1, g, t, j);
                    ea += v * v;
                }
            int dr = form == QRU_Q_FULL ? n : m1;
            for (int j = 0; j < nr; ++j) {
                double x = 0, y = after.rho[g * nr + j] * after.rho[g * nr + j];
                for (int i = 0; i < n; ++i)
                    x += bg[i + (size_t)j * n] * bg[i + (size_t)j * n];
                for (int i = 0; i < m1; ++i)
                    y += bat(after.h[1], dr, nr, g, i, j) *
                         bat(after.h[1], dr, nr, g, i, j);
                double q = nb > 1e-30 ? fabs(x - y) / (nb * nb * ne) : 0;
                if (q > worst)
                    worst = q;
            }
            e = nA > 1e-30 ? sqrt(e) / (nA * nA * ne) : 0;
            ea = nA > 1e-30 ? sqrt(ea) / (nA * ne) : 0;
            if (trace)
                fprintf(stderr, "  page %d: scaled errors %.3g %.3g %.3g, "
                        "bound %.0f\n", g, e, ea, worst, bound);
            if (!(e <= bound) || !(ea <= bound) || !(worst <= bound))
                FAIL("%s: page %d: ||A1'A1-R1'R1||/(||A1||^2 n eps) = %.3g, "
                     "||A1-Q1R1||/(||A1|| n eps) = %.3g, | ||d1||^2 + rho^2 - "
                     "||b||^2 |/(||b||^2 n eps) = %.3g, bound %.0f",
                     call, g, e, ea, worst, bound);
        }
        free(A1);
        bsnap_drop(&after);
    }
    bsnap_drop(&before);
    qru_matrix_destroy(MV);
    qru_matrix_destroy(DA);
    qru_matrix_destroy(Db);
    qru_lsq_batch_destroy(fb);
    free(info);
    free(A);
    free(b);
    free(V);
}

/* ---- Cholesky ------------------------------------------------------------- */

static void chol_reset(void)
{
    qru_matrix_destroy(CH.L);
    free(CH.G);
    memset(&CH, 0, sizeof CH);
}

/* A = G G' + c I (n x n, ld n) */
static void chol_model(const double *G, int n, int g, double c, double *A)
{
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double v = i == j ? c : 0.0;
            for (int t = 0; t < g; ++t)
                v += G[i + (size_t)t * n] * G[j + (size_t)t * n];
            A[i + (size_t)j * n] = round_dt(v);
        }
}

static char pick_uplo(rd *r)
{
    static const char u[] = {'L', 'U', 'l', 'u', 'L', 'U', 'X', '\0'};
    return u[u8(r) % 8];
}

static int uplo_ok(char u) { return u == 'L' || u == 'U' || u == 'l' || u == 'u'; }
static char upc(char u) { return u == 'l' ? 'L' : u == 'u' ? 'U' : u; }

/* ||A - F F'|| / (||A|| n eps) for the factor held in M ('L': F = L,
 * 'U': F = U'), reading only the uplo triangle of M. */
static double chol_residual(const qru_matrix *M, char uplo, const double *A,
                            int n, double scale)
{
    double e = 0;
    int lower = uplo == 'L' || uplo == 'l';
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double v = A[i + (size_t)j * n];
            for (int t = 0; t <= (i < j ? i : j); ++t)
                v -= (lower ? at(M, i, t) * at(M, j, t)
                            : at(M, t, i) * at(M, t, j));
            e += v * v;
        }
    double nA = fro(A, (size_t)n * n);
    if (scale > nA)
        nA = scale;
    return nA > 0 ? sqrt(e) / (nA * (n > 0 ? n : 1) * eps) : 0;
}

static void op_chol_factor(rd *r)
{
    int n = (int)(u8(r) % (MAXC + 1));
    char uplo = pick_uplo(r);
    static const int variants[] = {0, 1, 2, 16, 17, 18, 0, 2, 3, -1, 32, 19};
    int variant = variants[u8(r) % 12];
    int nb = pick(r, 0, 6);
    unsigned mode = u8(r);
    int clean = 1, spd = (mode & 3) != 0;
    /* one spare column for the non-square case below */
    double *A = calloc((size_t)(n ? n : 1) * (size_t)(n + 1), sizeof(double));
    double *G = NULL;
    if (!A)
        FAIL("out of host memory");
    int g = 1 + (int)((mode >> 2) % 4);
    double c = 1.0 + (double)((mode >> 4) & 3);
    if (spd) {
        G = xmalloc(sizeof(double) * (n ? n : 1) * g);
        gen(r, n, g, G, &clean);
        if (!clean)
            spd = 0;
        chol_model(G, n, g, c, A);
    } else {
        gen(r, n, n, A, &clean);
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < j; ++i)
                A[i + (size_t)j * n] = A[j + (size_t)i * n];
        for (int i = 0; i < n * n; ++i)
            A[i] = round_dt(A[i]);
    }
    unsigned cb = u8(r);
    qru_context *cx = cb == 255 ? NULL : ctx;
    int cols = n + (cb == 254);
    qru_matrix *M = mk(n, cols, (int)(cb % 2), A);
    void *M0 = save(M);
    int alg = variant & ~QRU_CHOL_IN_PLACE;
    int want = !cx ? -1
               : !uplo_ok(uplo) ? -2
               : cols != n ? -3
               : (alg != 0 && alg != 1 && alg != 2) ? -4
               : nb < 0 ? -5 : 0;
    char call[96];
    snprintf(call, sizeof call, "qru_chol_factor(uplo=%d, n=%d, variant=%d, nb=%d)",
             uplo, n, variant, nb);
    int st = qru_chol_factor(cx, uplo, (cb == 253) ? NULL : M, variant, nb);
    if (cb == 253 && want == 0)
        want = -3;
    if (cb == 253 && want < -3)
        want = -3;
    check_status(call, st, want, n, NULL);
    if (st < 0 || (st > 0 && !(variant & QRU_CHOL_IN_PLACE))) {
        if (!same(M, M0))
            FAIL("%s failed (%d) but changed A", call, st);
    }
    if (st > 0 && spd)
        FAIL("%s: status %d on G G' + %g I, positive definite", call, st, c);
    if (st == 0 && cb != 253) {
        /* the other strict triangle and the padding are not referenced */
        int lower = uplo == 'L' || uplo == 'l';
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < qru_matrix_ld(M); ++i) {
                int ref = i < n && (lower ? i >= j : i <= j);
                size_t o = ((size_t)i + (size_t)j * qru_matrix_ld(M)) * es;
                if (!ref && memcmp((char *)qru_matrix_data(M) + o,
                                   (char *)M0 + o, es))
                    FAIL("%s wrote A(%d,%d) outside its triangle", call,
                         i + 1, j + 1);
            }
        if (spd) {
            double e = chol_residual(M, uplo, A, n, 0.0);
            if (!(e <= RES_BOUND))
                FAIL("%s: ||A - L L'||/(||A|| n eps) = %.3g", call, e);
        }
    }
    if (st == 0 && spd && cb != 253) {
        chol_reset();
        CH.L = M;
        M = NULL;
        CH.uplo = (uplo == 'L' || uplo == 'l') ? 'L' : 'U';
        CH.n = n;
        CH.G = G;
        G = NULL;
        CH.g = g;
        CH.c = c;
        CH.tracked = 1;
        CH.anorm = fro(A, (size_t)n * n);
    }
    qru_matrix_destroy(M);
    free(M0);
    free(A);
    free(G);
}

/* after a successful change of the held factor: its accuracy */
static void chol_accuracy(const char *call)
{
    if (!CH.tracked)
        return;
    int n = CH.n;
    double *A = xmalloc(sizeof(double) * (n ? n : 1) * n);
    chol_model(CH.G, n, CH.g, CH.c, A);
    if (fro(A, (size_t)n * n) > CH.anorm)
        CH.anorm = fro(A, (size_t)n * n);
    double e = chol_residual(CH.L, CH.uplo, A, n, CH.anorm);
    double bound = RES_BOUND + RES_STEP * CH.steps;
    if (!(e <= bound))
        FAIL("%s: n=%d after %d steps: ||A1 - L1 L1'||/(||A1|| n eps) = %.3g "
             "(bound %.0f)",
             call, n, CH.steps, e, bound);
    free(A);
}

static void op_chol_update(rd *r)
{
    if (!CH.L)
        return;
    int n = CH.n;
    unsigned b = u8(r);
    int sign = (b & 1) ? 1 : -1;
    if ((b & 0xf0) == 0xf0)
        sign = (int)(b & 0x0e) - 4; /* -4..10: mostly invalid */
    char uplo = (b & 0x0e) == 0x0e ? pick_uplo(r) : CH.uplo;
    int kw = (int)(u8(r) % 4);
    /* downdates remove columns of G (stays positive definite) or, with a
     * random W, are likely to fail */
    int from_g = sign == -1 && (b & 0x02) && CH.tracked && CH.g > 0 && kw > 0;
    if (from_g && kw > CH.g)
        kw = CH.g;
    int wrows = n + ((b & 0x0c) == 0x0c);
    int clean = 1;
    double *W = xmalloc(sizeof(double) * (wrows ? wrows : 1) * (kw ? kw : 1));
    if (from_g) {
        memcpy(W, CH.G + (size_t)(CH.g - kw) * n, sizeof(double) * n * kw);
    } else {
        gen(r, wrows, kw, W, &clean);
        for (int i = 0; i < wrows * kw; ++i)
            W[i] = round_dt(W[i]);
    }
    qru_matrix *MW = mk(wrows, kw, 0, W);
    int want = !uplo_ok(uplo) ? -2 : wrows != n ? -4
               : (sign != 1 && sign != -1) ? -5 : 0;
    void *L0 = save(CH.L);
    char call[96];
    snprintf(call, sizeof call, "qru_chol_update(uplo=%d, n=%d, k=%d, sign=%d)",
             uplo, n, kw, sign);
    int st = qru_chol_update(ctx, uplo, CH.L, MW, sign, CH.L);
    check_status(call, st, want, n, NULL);
    if (st && !same(CH.L, L0))
        FAIL("%s failed (%d) but changed L", call, st);
    if (st > 0 && from_g && upc(uplo) == CH.uplo)
        FAIL("%s: downdate by columns of G failed (%d); A - W W' is positive "
             "definite",
             call, st);
    if (st == 0 && kw > 0) {
        if (upc(uplo) != CH.uplo)
            CH.tracked = 0;
        if (CH.tracked && from_g) {
            CH.g -= kw;
        } else if (CH.tracked && sign == 1 && clean) {
            double *G1 = xmalloc(sizeof(double) * (n ? n : 1) * (CH.g + kw));
            memcpy(G1, CH.G, sizeof(double) * n * CH.g);
            memcpy(G1 + (size_t)n * CH.g, W, sizeof(double) * n * kw);
            free(CH.G);
            CH.G = G1;
            CH.g += kw;
        } else {
            CH.tracked = 0;
        }
        CH.steps++;
        chol_accuracy(call);
    }
    free(L0);
    qru_matrix_destroy(MW);
    free(W);
}

static void op_chol_insert(rd *r)
{
    if (!CH.L)
        return;
    int n = CH.n;
    unsigned b = u8(r);
    char uplo = (b & 0x0e) == 0x0e ? pick_uplo(r) : CH.uplo;
    int k = pick(r, 0, n);
    int p = (int)(u8(r) % 4);
    if (n + p > MAXC + 4)
        p = 0;
    int kk = k >= 0 && k <= n ? k : 0;
    int n1 = n + p, clean = 1;
    /* G1: G with p new rows at kk; C = A1(:, kk+1:kk+p) */
    double *G1 = xmalloc(sizeof(double) * (n1 ? n1 : 1) * (CH.g ? CH.g : 1));
    double *newrows = xmalloc(sizeof(double) * (p ? p : 1) * (CH.g ? CH.g : 1));
    gen(r, p, CH.g, newrows, &clean);
    for (int t = 0; t < CH.g; ++t)
        for (int i = 0; i < n1; ++i)
            G1[i + (size_t)t * n1] =
                i < kk ? CH.G[i + (size_t)t * n]
                : i < kk + p ? newrows[(i - kk) + (size_t)t * p]
                             : CH.G[(i - p) + (size_t)t * n];
    double *A1 = xmalloc(sizeof(double) * (n1 ? n1 : 1) * n1);
    chol_model(G1, n1, CH.g, CH.c, A1);
    int crows = n1 + ((b & 0x30) == 0x30);
    double *C = xmalloc(sizeof(double) * (crows ? crows : 1) * (p ? p : 1));
    for (int j = 0; j < p; ++j)
        for (int i = 0; i < crows; ++i)
            C[i + (size_t)j * crows] = i < n1 ? A1[i + (size_t)(kk + j) * n1] : 1.0;
    qru_matrix *MC = mk(crows, p, 0, C);
    int l1n = n1 + ((b & 0xc0) == 0xc0);
    qru_matrix *L1 = mk(l1n, l1n, (int)(b % 2), NULL);
    void *L10 = save(L1), *L0 = save(CH.L);
    int want = !uplo_ok(uplo) ? -2 : (k < 0 || k > n) ? -4
               : (p < 1 || crows != n + p) ? -5 : l1n != n + p ? -6 : 0;
    char call[96];
    snprintf(call, sizeof call, "qru_chol_insert(uplo=%d, n=%d, k=%d, p=%d)",
             uplo, n, k, p);
    int st = qru_chol_insert(ctx, uplo, CH.L, k, MC, L1);
    check_status(call, st, want, n + p, NULL);
    if (!same(CH.L, L0))
        FAIL("%s changed its input L", call);
    if (st && !same(L1, L10))
        FAIL("%s failed (%d) but changed L1", call, st);
    if (st > 0 && CH.tracked && clean && upc(uplo) == CH.uplo)
        FAIL("%s: status %d on a positive definite A1", call, st);
    if (st == 0) {
        qru_matrix_destroy(CH.L);
        CH.L = L1;
        L1 = NULL;
        CH.n = n1;
        free(CH.G);
        CH.G = G1;
        G1 = NULL;
        if (!clean || upc(uplo) != CH.uplo)
            CH.tracked = 0;
        CH.steps++;
        chol_accuracy(call);
    }
    qru_matrix_destroy(L1);
    qru_matrix_destroy(MC);
    free(L10);
    free(L0);
    free(G1);
    free(newrows);
    free(A1);
    free(C);
}

static void op_chol_delete(rd *r)
{
    if (!CH.L)
        return;
    int n = CH.n;
    unsigned b = u8(r);
    char uplo = (b & 0x0e) == 0x0e ? pick_uplo(r) : CH.uplo;
    int p = pick(r, 0, n);
    int k = pick(r, 0, n - (p >= 0 && p <= n ? p : 0));
    int n1 = p >= 0 && p <= n ? n - p : n;
    int l1n = n1 + ((b & 0xc0) == 0xc0);
    qru_matrix *L1 = mk(l1n, l1n, (int)(b % 2), NULL);
    void *L10 = save(L1), *L0 = save(CH.L);
    /* the header: k (4) 0 <= k <= n - p, p (5) 0 <= p <= n; a k beyond
     * n - p is reported as k when p is valid */
    int want = !uplo_ok(uplo) ? -2 : 0;
    if (!want) {
        int p_ok = p >= 0 && p <= n;
        if (k < 0 || k > n || (p_ok && k > n - p))
            want = -4;
        else if (!p_ok || k > n - p)
            want = -5;
        else if (l1n != n - p)
            want = -6;
    }
    char call[96];
    snprintf(call, sizeof call, "qru_chol_delete(uplo=%d, n=%d, k=%d, p=%d)",
             uplo, n, k, p);
    int st = qru_chol_delete(ctx, uplo, CH.L, k, p, L1);
    if (want == -4 && st == -5 && k >= 0 && k <= n)
        want = -5; /* k + p > n may be reported as p: both are named */
    check_status(call, st, want, n, NULL);
    if (!same(CH.L, L0))
        FAIL("%s changed its input L", call);
    if (st && !same(L1, L10))
        FAIL("%s failed (%d) but changed L1", call, st);
    if (st > 0 && CH.tracked && upc(uplo) == CH.uplo)
        FAIL("%s: status %d on a valid factor", call, st);
    if (st == 0) {
        if (CH.tracked) {
            double *G1 = xmalloc(sizeof(double) * (n1 ? n1 : 1) * (CH.g ? CH.g : 1));
            for (int t = 0; t < CH.g; ++t)
                for (int i = 0; i < n1; ++i)
                    G1[i + (size_t)t * n1] = CH.G[(i < k ? i : i + p) + (size_t)t * n];
            free(CH.G);
            CH.G = G1;
        }
        qru_matrix_destroy(CH.L);
        CH.L = L1;
        L1 = NULL;
        CH.n = n1;
        if (upc(uplo) != CH.uplo)
            CH.tracked = 0;
        CH.steps++;
        chol_accuracy(call);
    }
    qru_matrix_destroy(L1);
    free(L10);
    free(L0);
}

/* qru_chol_shift: row and column i of the factored matrix move to j;
 * into another matrix (sometimes of a wrong order) or in place */
static void op_chol_shift(rd *r)
{
    if (!CH.L)
        return;
    int n = CH.n;
    unsigned b = u8(r);
    char uplo = (b & 0x0e) == 0x0e ? pick_uplo(r) : CH.uplo;
    int i = pick(r, 0, n - 1), j = pick(r, 0, n - 1);
    int inplace = (b & 0x30) == 0x30;
    int l1n = n + ((b & 0xc0) == 0xc0);
    qru_matrix *L1 = inplace ? CH.L : mk(l1n, l1n, (int)(b % 2), NULL);
    if (inplace)
        l1n = n;
    void *L10 = save(L1), *L0 = save(CH.L);
    int want = !uplo_ok(uplo)         ? -2
               : i < 0 || i >= n      ? -4
               : j < 0 || j >= n      ? -5
               : l1n != n             ? -6
                                      : 0;
    char call[96];
    snprintf(call, sizeof call, "qru_chol_shift(uplo=%d, n=%d, i=%d, j=%d%s)",
             uplo, n, i, j, inplace ? ", in place" : "");
    int st = qru_chol_shift(ctx, uplo, CH.L, i, j, L1);
    check_status(call, st, want, n, NULL);
    if (!inplace && !same(CH.L, L0))
        FAIL("%s changed its input L", call);
    if (st && !same(L1, L10))
        FAIL("%s failed (%d) but changed L1", call, st);
    if (st == 0) {
        if (CH.tracked && i != j) { /* the generator's rows move alike */
            double *row = xmalloc(sizeof(double) * (size_t)(CH.g ? CH.g : 1));
            for (int t = 0; t < CH.g; ++t)
                row[t] = CH.G[i + (size_t)t * n];
            for (int t = 0; t < CH.g; ++t) {
                double *g = CH.G + (size_t)t * n;
                if (i < j)
                    memmove(g + i, g + i + 1, sizeof(double) * (size_t)(j - i));
                else
                    memmove(g + j + 1, g + j, sizeof(double) * (size_t)(i - j));
                g[j] = row[t];
            }
            free(row);
        }
        if (!inplace) {
            qru_matrix_destroy(CH.L);
            CH.L = L1;
        }
        L1 = NULL;
        if (upc(uplo) != CH.uplo)
            CH.tracked = 0;
        CH.steps++;
        chol_accuracy(call);
    }
    if (!inplace)
        qru_matrix_destroy(L1);
    free(L10);
    free(L0);
}

/* qru_chol_solve with the held factor, then qru_trsm with it. */
static void op_chol_solve(rd *r)
{
    if (!CH.L)
        return;
    int n = CH.n;
    unsigned b = u8(r);
    int nr = 1 + (int)(u8(r) % 3);
    char uplo = (b & 0x0e) == 0x0e ? pick_uplo(r) : CH.uplo;
    int brows = n + ((b & 0x30) == 0x30);
    int clean = 1;
    double *B = xmalloc(sizeof(double) * (brows ? brows : 1) * nr);
    gen(r, brows, nr, B, &clean);
    for (int i = 0; i < brows * nr; ++i)
        B[i] = round_dt(B[i]);
    qru_matrix *MB = mk(brows, nr, (int)(b & 1), B);
    void *L0 = save(CH.L), *B0 = save(MB);
    int same_as_l = (b & 0xc0) == 0xc0;
    const qru_matrix *Bp = same_as_l ? CH.L : MB;
    int want = !uplo_ok(uplo) ? -2
               : (same_as_l || brows != n) ? -4 : 0;
    char call[96];
    snprintf(call, sizeof call, "qru_chol_solve(uplo=%d, n=%d, r=%d)", uplo,
             n, nr);
    int st = qru_chol_solve(ctx, uplo, CH.L, (qru_matrix *)Bp);
    check_status(call, st, want, 0, NULL);
    if (!same(CH.L, L0))
        FAIL("%s changed L", call);
    if (st && !same(MB, B0))
        FAIL("%s failed (%d) but changed B", call, st);
    if (st == 0 && CH.tracked && clean && upc(uplo) == CH.uplo && n > 0) {
        /* backward error ||A X - B|| / (||A|| ||X|| n eps) */
        double *A = xmalloc(sizeof(double) * n * n);
        chol_model(CH.G, n, CH.g, CH.c, A);
        double e = 0, nx = 0;
        for (int j = 0; j < nr; ++j)
            for (int i = 0; i < n; ++i) {
                double v = -B[i + (size_t)j * n];
                for (int t = 0; t < n; ++t)
                    v += A[i + (size_t)t * n] * at(MB, t, j);
                e += v * v;
                nx += at(MB, i, j) * at(MB, i, j);
            }
        double q = nx > 0 ? sqrt(e) / (fro(A, (size_t)n * n) * sqrt(nx) * n * eps)
                          : 0;
        double bound = RES_BOUND + RES_STEP * CH.steps;
        if (!(q <= bound))
            FAIL("%s: ||A X - B||/(||A|| ||X|| n eps) = %.3g (bound %.0f)",
                 call, q, bound);
        free(A);
    }
    /* qru_trsm(side, uplo, trans, diag, alpha, A = L, B) */
    static const char sides[] = {'L', 'R', 'l', 'r', 'X'};
    static const char transs[] = {'N', 'T', 'n', 'c', 'X'};
    static const char diags[] = {'N', 'U', 'n', 'u', 'Z'};
    static const double alphas[] = {1.0, -0.5, 0.0, 2.0, NAN, INFINITY};
    unsigned t = u8(r);
    char side = sides[t % 5], trans = transs[(t / 5) % 5],
         diag = diags[(t / 25) % 5];
    char tu = (b & 0x0e) == 0x0e ? uplo : pick_uplo(r);
    double alpha = alphas[u8(r) % 6];
    /* B is n x nr: side L needs n rows, side R needs n columns */
    int sl = side == 'L' || side == 'l';
    int sr = side == 'R' || side == 'r';
    memcpy(qru_matrix_data(MB), B0, buf_bytes(MB));
    void *B1 = save(MB);
    want = (!sl && !sr) ? -2 : !uplo_ok(tu) ? -3
           : !strchr("NTCntc", trans) ? -4
           : (diag != 'N' && diag != 'U' && diag != 'n' && diag != 'u') ? -5
           : same_as_l ? -8 : (sl ? brows != n : nr != n) ? -8 : 0;
    snprintf(call, sizeof call, "qru_trsm(%c%c%c%c, n=%d, r=%d)", side, tu,
             trans, diag, n, nr);
    st = qru_trsm(ctx, side, tu, trans, diag, alpha, CH.L, (qru_matrix *)Bp);
    check_status(call, st, want, 0, NULL);
    if (!same(CH.L, L0))
        FAIL("%s changed A", call);
    if (st && !same(MB, B1))
        FAIL("%s failed (%d) but changed B", call, st);
    free(L0);
    free(B0);
    free(B1);
    qru_matrix_destroy(MB);
    free(B);
}

/* ---- Gaussian process ------------------------------------------------------ */

typedef struct gp_snap {
    int n;
    double *x, *y;
    void *L;
} gp_snap;

static void gp_take(const qru_gp *g, gp_snap *s)
{
    memset(s, 0, sizeof *s);
    if (!g)
        return;
    s->n = qru_gp_size(g);
    s->x = xmalloc(sizeof(double) * (s->n ? s->n : 1));
    s->y = xmalloc(sizeof(double) * (s->n ? s->n : 1));
    int st = qru_gp_get_data(g, s->x, s->y);
    if (st)
        FAIL("qru_gp_get_data = %d", st);
    qru_matrix *L = mk(s->n, s->n, 0, NULL);
    st = qru_gp_get_factor(g, L);
    if (st)
        FAIL("qru_gp_get_factor = %d", st);
    s->L = save(L);
    qru_matrix_destroy(L);
}

static void gp_drop(gp_snap *s)
{
    free(s->x);
    free(s->y);
    free(s->L);
}

static void gp_same(const char *call, const gp_snap *a, const gp_snap *b)
{
    size_t n = (size_t)a->n;
    if (a->n != b->n || memcmp(a->x, b->x, n * sizeof(double)) ||
        memcmp(a->y, b->y, n * sizeof(double)) ||
        memcmp(a->L, b->L, n * n * es))
        FAIL("%s failed but changed the GP", call);
}

/* ||K - L L'|| / (||K|| n eps) from the GP's own data */
static void gp_accuracy(const char *call)
{
    if (!GP.clean)
        return;
    gp_snap s;
    gp_take(GP.gp, &s);
    int n = s.n;
    double e = 0, nK = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            double d = s.x[i] - s.x[j];
            double v = GP.sf2 * exp(-d * d / (2 * GP.ell * GP.ell)) +
                       (i == j ? GP.sn2 : 0.0);
            v = round_dt(v);
            nK += v * v;
            for (int t = 0; t <= (i < j ? i : j); ++t)
                v -= snap_at(s.L, n, i, t) * snap_at(s.L, n, j, t);
            e += v * v;
        }
    /* K's conditioning matters here only through the noise floor sn2 */
    double bound = RES_BOUND * 4;
    if (n > 0 && !(sqrt(e) / (sqrt(nK) * n * eps) <= bound))
        FAIL("%s: GP n=%d: ||K - L L'||/(||K|| n eps) = %.3g", call, n,
             sqrt(e) / (sqrt(nK) * n * eps));
    gp_drop(&s);
}

static double pick_hyper(rd *r, double dflt)
{
    static const double h[] = {0.5, 1.0, 2.0, 0.1, 0.0, -1.0, NAN, INFINITY,
                               1e-300, 1e300, 1e-8, 3.0};
    unsigned b = u8(r);
    return b < 128 ? dflt : h[b % 12];
}

static void op_gp_create(rd *r)
{
    int n = pick(r, 0, MAXC - 2);
    int len = n >= 0 && n <= MAXC ? n : 0;
    unsigned b = u8(r);
    int clean = 1;
    double *x = xmalloc(sizeof(double) * (len ? len : 1));
    double *y = xmalloc(sizeof(double) * (len ? len : 1));
    gen(r, len, 1, x, &clean);
    gen(r, len, 1, y, &clean);
    if (n > MAXC)
        n = -1 - n / 2; /* keep n within the arrays: negative instead */
    for (int i = 0; i < len; ++i)
        x[i] *= 3.0;
    qru_gp_options opt, *popt = &opt;
    qru_gp_options_init(&opt);
    if (b & 1)
        popt = NULL;
    else {
        opt.lengthscale = pick_hyper(r, 1.0);
        opt.signal_var = pick_hyper(r, 1.0);
        opt.noise_var = pick_hyper(r, 1e-2);
        opt.capacity = pick(r, 0, 2 * MAXC);
        opt.nb = pick(r, 0, 4);
        /* large capacities are real allocations of gigabytes (the host
         * arrays of x and y come first), not tried here */
        if (opt.capacity > 2 * MAXC + 1)
            opt.capacity = -1;
    }
    int bad_opt =
        popt && (!(opt.lengthscale > 0) || !isfinite(opt.lengthscale) ||
                 !(opt.signal_var > 0) || !isfinite(opt.signal_var) ||
                 !(opt.noise_var >= 0) || !isfinite(opt.noise_var) ||
                 opt.capacity < 0 || (opt.capacity && opt.capacity < n) ||
                 opt.nb < 0);
    qru_context *cx = (b & 0xfe) == 0xfe ? NULL : ctx;
    qru_dtype d = (b & 0xfc) == 0xf8 ? (qru_dtype)5 : dt;
    const double *px = (b & 0xf6) == 0xf2 ? NULL : x;
    const double *py = (b & 0xf6) == 0xf4 ? NULL : y;
    qru_gp *sentinel = (qru_gp *)&sentinel, *g = sentinel;
    qru_gp **out = (b & 0xf6) == 0xf6 ? NULL : &g;
    int want = !cx ? -1 : (d != QRU_FLOAT && d != QRU_DOUBLE) ? -2
               : n < 0 ? -3 : (n > 0 && !px) ? -4 : (n > 0 && !py) ? -5
               : bad_opt ? -6 : !out ? -7 : 0;
    char call[160];
    snprintf(call, sizeof call,
             "qru_gp_create(n=%d, ell=%g, sf2=%g, sn2=%g, cap=%d, nb=%d)", n,
             popt ? opt.lengthscale : 1.0, popt ? opt.signal_var : 1.0,
             popt ? opt.noise_var : 1e-2, popt ? opt.capacity : 0,
             popt ? opt.nb : 0);
    int st = qru_gp_create(cx, d, n, px, py, popt, out);
    check_status(call, st, want, n, NULL);
    if (st && g != sentinel)
        FAIL("%s failed (%d) but set *gp", call, st);
    double sn2 = popt ? opt.noise_var : 1e-2;
    double ell = popt ? opt.lengthscale : 1.0, sf2 = popt ? opt.signal_var : 1.0;
    /* noise well above the rounding of K: K is positive definite */
    int pd = clean && sn2 >= 1e-2 && sn2 <= 3 && sf2 >= 0.1 && sf2 <= 3 && ell >= 0.1 && ell <= 3;
    if (st > 0 && pd)
        FAIL("%s: status %d with noise %g", call, st, sn2);
    if (st == 0) {
        qru_gp_destroy(GP.gp);
        GP.gp = g;
        GP.ell = ell;
        GP.sf2 = sf2;
        GP.sn2 = sn2;
        GP.clean = pd;
        gp_accuracy(call);
    }
    free(x);
    free(y);
}

static void op_gp_change(rd *r)
{
    if (!GP.gp)
        return;
    int n = qru_gp_size(GP.gp);
    unsigned b = u8(r);
    qru_gp *g = (b & 0xf0) == 0xf0 ? NULL : GP.gp;
    gp_snap before, after;
    gp_take(GP.gp, &before);
    char call[96];
    int st, want;
    int insert = b & 1;
    int clean = 1;
    if (insert) {
        int k = pick(r, 0, n);
        int p = pick(r, 0, 3);
        if (p > 4 || n + p > 2 * MAXC)
            p = -1 - (p & 7); /* keep p within the arrays */
        int len = p > 0 ? p : 0;
        double x[4] = {0}, y[4] = {0};
        gen(r, len, 1, x, &clean);
        gen(r, len, 1, y, &clean);
        for (int i = 0; i < len; ++i)
            x[i] *= 3.0;
        const double *px = (b & 0x06) == 0x06 ? NULL : x;
        const double *py = (b & 0x0a) == 0x0a ? NULL : y;
        want = !g ? -1 : (k < 0 || k > n) ? -2 : p < 0 ? -3
               : (p > 0 && !px) ? -4 : (p > 0 && !py) ? -5 : 0;
        snprintf(call, sizeof call, "qru_gp_insert(n=%d, k=%d, p=%d)", n, k, p);
        st = qru_gp_insert(g, k, p, px, py);
        check_status(call, st, want, n + (p > 0 ? p : 0), NULL);
        if (st > 0 && GP.clean && clean)
            FAIL("%s: status %d with noise %g", call, st, GP.sn2);
    } else {
        int k = pick(r, 0, n);
        int p = pick(r, 0, n - (k >= 0 && k <= n ? k : 0));
        /* the header: k (2) 0 <= k, p (3) 0 <= p and k + p <= n */
        want = !g ? -1 : k < 0 ? -2 : (p < 0 || p > n - k) ? -3 : 0;
        snprintf(call, sizeof call, "qru_gp_remove(n=%d, k=%d, p=%d)", n, k, p);
        st = qru_gp_remove(g, k, p);
        if (want == -3 && st == -2 && k > n)
            want = -2; /* k beyond n: reported as k (either is named) */
        check_status(call, st, want, n, NULL);
        if (st > 0 && GP.clean)
            FAIL("%s: status %d on a valid factor", call, st);
    }
    gp_take(GP.gp, &after);
    if (st)
        gp_same(call, &before, &after);
    gp_drop(&before);
    gp_drop(&after);
    if (st == 0) {
        GP.clean &= clean;
        gp_accuracy(call);
    }
}

static void op_gp_query(rd *r)
{
    if (!GP.gp)
        return;
    unsigned b = u8(r);
    qru_gp *g = (b & 0xf0) == 0xf0 ? NULL : GP.gp;
    int m = pick(r, 0, 4);
    if (m > 4)
        m = -1 - (m & 7);
    int len = m > 0 ? m : 0, clean = 1;
    double xs[4] = {0}, mean[4], var[4];
    gen(r, len, 1, xs, &clean);
    gp_snap before, after;
    gp_take(GP.gp, &before);
    const double *pxs = (b & 0x06) == 0x06 ? NULL : xs;
    double *pm = (b & 0x0a) == 0x0a ? NULL : mean;
    double *pv = (b & 0x01) ? NULL : var;
    int want = !g ? -1 : m < 0 ? -2 : (m > 0 && !pxs) ? -3
               : (m > 0 && !pm) ? -4 : 0;
    int st = qru_gp_predict(g, m, pxs, pm, pv);
    check_status("qru_gp_predict", st, want, 0, NULL);
    if (st == 0 && GP.clean && clean)
        for (int i = 0; i < m; ++i)
            if (!isfinite(mean[i]) || (pv && !isfinite(var[i])))
                FAIL("qru_gp_predict: non-finite mean/var %g/%g on clean data",
                     mean[i], pv ? var[i] : 0.0);
    double lml;
    double *pl = (b & 0x30) == 0x30 ? NULL : &lml;
    st = qru_gp_log_likelihood(g, pl);
    check_status("qru_gp_log_likelihood", st, !g ? -1 : !pl ? -2 : 0, 0, NULL);
    gp_take(GP.gp, &after);
    gp_same("qru_gp_predict/log_likelihood", &before, &after);
    gp_drop(&before);
    gp_drop(&after);
}

/* ---- matrices and contexts ------------------------------------------------ */

static void op_matrix(rd *r)
{
    unsigned b = u8(r);
    int rows = pick(r, 0, 9), cols = pick(r, 0, 9), ld = pick(r, 0, 12);
    qru_dtype d = (b & 0x30) == 0x30 ? (qru_dtype)0 : dt;
    qru_context *cx = (b & 0xc0) == 0xc0 ? NULL : ctx;
    int eff_ld = ld == 0 ? (rows > 1 ? rows : 1) : ld;
    /* a valid size of 16 TiB or more (up to 2^65 bytes, beyond SIZE_MAX)
     * must fail with QRU_ERR_ALLOC, not wrap or round to a small request;
     * other large sizes are skipped (real allocations of gigabytes) */
    int huge = rows >= 0 && cols > 0 && eff_ld >= rows && eff_ld > 0 &&
               (unsigned __int128)eff_ld * (unsigned)cols * es >=
                   ((unsigned __int128)1 << 44);
    if (!huge && (rows > 64 || cols > 64 || ld > 64))
        return;
    qru_matrix *sentinel = (qru_matrix *)&sentinel, *M = sentinel;
    int want = !cx ? -1 : (d != QRU_FLOAT && d != QRU_DOUBLE) ? -2
               : rows < 0 ? -3 : cols < 0 ? -4
               : (eff_ld < rows || eff_ld < 1) ? -5 : (b & 1) ? -6 : 0;
    char call[96];
    snprintf(call, sizeof call, "qru_matrix_create(rows=%d, cols=%d, ld=%d)",
             rows, cols, ld);
    int st = qru_matrix_create(cx, d, rows, cols, ld, (b & 1) ? NULL : &M);
    if (huge && !want && st != QRU_ERR_ALLOC)
        FAIL("%s: %d, not QRU_ERR_ALLOC, for 16 TiB or more", call, st);
    check_status(call, st, want, 0, LIB_ALLOC);
    /* the same arguments wrap a host buffer (mem is argument 5) */
    static double buf[64 * 64];
    qru_matrix *W = sentinel;
    const void *mem = (b & 2) ? NULL : buf;
    int want_w = !cx ? -1 : (d != QRU_FLOAT && d != QRU_DOUBLE) ? -2
                 : rows < 0 ? -3 : cols < 0 ? -4 : !mem ? -5
                 : (eff_ld < rows || eff_ld < 1) ? -6 : (b & 1) ? -7 : 0;
    int stw = qru_matrix_wrap(cx, d, rows, cols, (void *)mem, ld,
                              (b & 1) ? NULL : &W);
    check_status("qru_matrix_wrap", stw, want_w, 0, NULL);
    if (stw && W != sentinel)
        FAIL("qru_matrix_wrap failed but set *M");
    if (!stw)
        qru_matrix_destroy(W);
    if (st) {
        if (M != sentinel)
            FAIL("%s failed but set *M", call);
        return;
    }
    if (qru_matrix_rows(M) != rows || qru_matrix_cols(M) != cols ||
        qru_matrix_ld(M) != eff_ld || qru_matrix_dtype(M) != dt)
        FAIL("%s: the accessors disagree", call);
    /* upload / download / copy with a host leading dimension and a second
     * matrix that may not match */
    unsigned c = u8(r);
    int ldh = pick(r, rows > 1 ? rows : 1, rows + 3);
    double host[16 * 16];
    memset(host, 0, sizeof host);
    int ok_ldh = ldh >= rows && ldh >= 1 && ldh <= 16 && rows <= 16 && cols <= 16;
    if (ldh > 16 || rows > 16 || cols > 16)
        ldh = -1; /* keep host accesses inside host[]: an invalid ldh */
    want = (c & 1) ? -2 : (!ok_ldh) ? -3 : 0;
    void *h = (c & 1) ? NULL : host;
    st = qru_matrix_upload((c & 0x80) ? NULL : M, h, ldh);
    check_status("qru_matrix_upload", st, (c & 0x80) ? -1 : want, 0, NULL);
    st = qru_matrix_download((c & 0x40) ? NULL : M, h, ldh);
    check_status("qru_matrix_download", st, (c & 0x40) ? -1 : want, 0, NULL);
    qru_matrix *B = NULL;
    int br = rows + ((c & 6) == 6), bc = cols + ((c & 10) == 10);
    if (qru_matrix_create(ctx, dt, br, bc, 0, &B))
        FAIL("qru_matrix_create of a copy target");
    st = qru_matrix_copy((c & 0x20) ? NULL : M, (c & 0x10) ? NULL : B);
    want = (c & 0x20) ? -1 : ((c & 0x10) || br != rows || bc != cols) ? -2 : 0;
    check_status("qru_matrix_copy", st, want, 0, NULL);
    qru_matrix_destroy(B);
    qru_matrix_destroy(M);
}

/* ---- driver ------------------------------------------------------------ */

/* The solvers on the updates (qru_nnls, qru_omp, qru_lars) on a small
 * random problem: a status the header allows (non-finite data: -2 or -3;
 * clean data: 0 or a documented positive stop), the outputs unchanged by
 * a failure, and on success x >= 0 (nnls), at most ncoef nonzeros (omp),
 * at most max_iter steps and finite alphas >= 0 (lars). */
static void op_solvers(rd *r)
{
    unsigned b = u8(r);
    int n = 1 + (int)(u8(r) % 12), m = 1 + (int)(u8(r) % 12);
    int mn = n < m ? n : m, clean = 1;
    double *A = xmalloc(sizeof(double) * (size_t)n * m);
    double *y = xmalloc(sizeof(double) * (size_t)n);
    gen(r, n, m, A, &clean);
    gen(r, n, 1, y, &clean);
    for (int i = 0; i < n * m; ++i)
        A[i] = round_dt(A[i]);
    for (int i = 0; i < n; ++i)
        y[i] = round_dt(y[i]);
    /* finite data whose products overflow (1e30, 1e308) are outside what
     * the solvers promise (qru.h, "Solvers on the updates"): not run */
    for (int i = 0; i < n * m + n; ++i) {
        double v = fabs(i < n * m ? A[i] : y[i - n * m]);
        if (isfinite(v) && v > 1e12) {
            free(A);
            free(y);
            return;
        }
    }
    qru_matrix *MA = mk(n, m, 0, A), *My = mk(n, 1, 0, y);
    if (trace) { /* the problem, for a reproduction elsewhere */
        fprintf(stderr, "clean %d, A (%d x %d) then y, column-major:\n",
                clean, n, m);
        for (int i = 0; i < n * m; ++i)
            fprintf(stderr, "%.17g%c", A[i], i + 1 < n * m ? ' ' : '\n');
        for (int i = 0; i < n; ++i)
            fprintf(stderr, "%.17g%c", y[i], i + 1 < n ? ' ' : '\n');
    }
    qru_solver_info info;
    char call[96];
    int st, kind = (int)(b % 3), bad = 0;
    if (kind == 0) {
        int maxiter = (b & 4) ? (int)(u8(r) % 6) : 0;
        double tol = (b & 8) ? -1.0 : 0.0;
        qru_matrix *x = mk(m, 1, 0, NULL), *w = mk(m, 1, 0, NULL);
        void *x0 = save(x), *w0 = save(w);
        snprintf(call, sizeof call, "qru_nnls(n=%d, m=%d, maxiter=%d)", n, m,
                 maxiter);
        st = qru_nnls(ctx, MA, My, maxiter, tol, x, w, &info);
        bad = st < 0 && (!same(x, x0) || !same(w, w0));
        for (int j = 0; st >= 0 && j < m; ++j)
            if (!(at(x, j, 0) >= 0.0))
                FAIL("%s: x(%d) = %g", call, j, at(x, j, 0));
        free(x0);
        free(w0);
        qru_matrix_destroy(x);
        qru_matrix_destroy(w);
    } else if (kind == 1) {
        int ncoef = 1 + (int)(u8(r) % (unsigned)mn);
        double tol = (b & 8) ? 1e-3 : -1.0;
        qru_matrix *c = mk(m, 1, 0, NULL);
        void *c0 = save(c);
        snprintf(call, sizeof call, "qru_omp(n=%d, m=%d, ncoef=%d)", n, m,
                 ncoef);
        st = qru_omp(ctx, MA, My, ncoef, tol, c, NULL, NULL, &info);
        bad = st < 0 && !same(c, c0);
        int nz = 0;
        for (int j = 0; st >= 0 && j < m; ++j)
            nz += at(c, j, 0) != 0.0;
        if (nz > ncoef)
            FAIL("%s: %d nonzeros", call, nz);
        free(c0);
        qru_matrix_destroy(c);
    } else {
        int max_iter = (int)(u8(r) % 16);
        double *alphas = xmalloc(sizeof(double) * (size_t)(max_iter + 1));
        int *active = xmalloc(sizeof(int) * (size_t)mn), nsteps = -7;
        qru_matrix *C = mk(m, max_iter + 1, 0, NULL);
        void *C0 = save(C);
        int lasso = (int)((b >> 2) & 1), pos = lasso & (int)((b >> 3) & 1);
        snprintf(call, sizeof call,
                 "qru_lars(n=%d, m=%d, lasso=%d, positive=%d, iter=%d)", n, m,
                 lasso, pos, max_iter);
        st = qru_lars(ctx, MA, My, lasso, pos, max_iter, 0.0, alphas, active,
                      C, &nsteps, &info);
        bad = st < 0 && (!same(C, C0) || nsteps != -7);
        if (st >= 0 && (nsteps < 0 || nsteps > max_iter))
            FAIL("%s: nsteps = %d", call, nsteps);
        /* (not monotone: LAR's alphas may grow, as scikit-learn's do) */
        for (int t = 0; st >= 0 && clean && t <= nsteps; ++t)
            if (!(alphas[t] >= 0.0) || !isfinite(alphas[t]))
                FAIL("%s: alpha %d = %g", call, t, alphas[t]);
        /* positive: no coefficient of the path below 0 */
        for (int t = 0; st >= 0 && clean && pos && t <= nsteps; ++t)
            for (int j = 0; j < m; ++j)
                if (at(C, j, t) < 0.0)
                    FAIL("%s: positive, coefs(%d, %d) = %g", call, j, t,
                         at(C, j, t));
        free(C0);
        free(alphas);
        free(active);
        qru_matrix_destroy(C);
    }
    if (bad)
        FAIL("%s failed (%d) but wrote its outputs", call, st);
    if (clean)
        check_status(call, st, 0, INT_MAX, NULL);
    else if (st < 0 && st != -2 && st != -3)
        FAIL("%s on non-finite data returned %d (documented: -2, -3)", call,
             st);
    qru_matrix_destroy(MA);
    qru_matrix_destroy(My);
    free(A);
    free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rd r = {data, size, 0};
    if (size < 2)
        return 0;
    trace = getenv("FUZZ_TRACE") != NULL;
    dt = (u8(&r) & 1) ? QRU_FLOAT : QRU_DOUBLE;
    eps = dt == QRU_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    es = dt == QRU_FLOAT ? sizeof(float) : sizeof(double);
    int st = qru_context_create(QRU_BACKEND_CPU, &ctx);
    if (st)
        FAIL("qru_context_create = %d", st);
    for (int t = 0; t < MAXOPS && r.i < r.n; ++t) {
        /* op bytes 0..15 keep their meaning for the committed corpus;
         * 16..31 add the triangular solves (16, 17), A + U V' (18), the
         * column and Cholesky shifts (19, 20) and the solvers (21), and
         * repeat the rest */
        unsigned opb = u8(&r), op = opb % 32;
        /* the top three bits of the op byte of add_cols (2),
         * remove_rows (5) and the settings (6): 001, 011, 100 and 101 (in
         * no input of the corpus before the _data routines were fuzzed)
         * call qru_lsq_add_cols_data, qru_lsq_remove_rows_data and
         * qru_lsq_batch_add_cols_data (on a new batch) */
        int data = (0x3au >> (opb >> 5)) & 1u;
        if (op >= 16)
            op = op == 16 || op == 17 ? 16
                 : op >= 18 && op <= 21 ? op - 1
                                        : op - 16;
        int have = LS.f != NULL;
        if (trace)
            fprintf(stderr, "op %u at byte %zu\n", op, r.i - 1);
        switch (op) {
        case 0: op_lsq_create(&r, 0); break;
        case 1: op_lsq_create(&r, 1); break;
        case 2: if (have) op_add_cols(&r, data); break;
        case 3: if (have) op_remove_cols(&r); break;
        case 4: if (have) op_add_rows(&r); break;
        case 5: if (have) op_remove_rows(&r, data); break;
        case 6:
            if (data)
                op_batch_add_cols(&r);
            else if (have)
                op_lsq_settings(&r);
            break;
        case 7: if (have) op_solve(&r); break;
        case 8: op_chol_factor(&r); break;
        case 9: op_chol_update(&r); break;
        case 10: op_chol_insert(&r); break;
        case 11: op_chol_delete(&r); break;
        case 12: op_gp_create(&r); break;
        case 13: op_gp_change(&r); break;
        case 14: op_gp_query(&r); break;
        case 15: op_matrix(&r); break;
        case 17: if (have) op_modify(&r); break;
        case 18: if (have) op_shift_cols(&r); break;
        case 19: op_chol_shift(&r); break;
        case 20: op_solvers(&r); break;
        default: op_chol_solve(&r); break;
        }
    }
    lsq_reset();
    chol_reset();
    qru_gp_destroy(GP.gp);
    memset(&GP, 0, sizeof GP);
    qru_context_destroy(ctx);
    ctx = NULL;
    return 0;
}
