/*
 * Non-finite and extreme input values (NaN, +Inf, -Inf, a denormal and a
 * huge finite value) in the QR and Cholesky routines.  The library does
 * not scan its inputs (qru.h, "Non-finite inputs": like LAPACK), but every call
 * must TERMINATE -- no device loop or barrier may depend on the data --
 * and return one of its documented statuses; a call that returns a
 * nonzero status leaves the caller's data and the factorisation
 * bit-identical; and the context stays usable (a sync succeeds after every
 * call).  Outputs of a successful call are not checked (unspecified).
 *
 * Each call runs under a watchdog (alarm()): a call that does not return
 * within WATCHDOG_S seconds ends the program with a failure and the name
 * of the case, instead of hanging (a GPU kernel that never finishes cannot
 * be interrupted any other way).
 *
 * Covered: U and e of qru_lsq_add_rows, U of qru_lsq_add_cols, U and V
 * of qru_lsq_modify,
 * A of qru_lsq_create and qru_qr_factor (own blocked QR and the vendor
 * path), the matrices of qru_chol_factor (each variant, own and vendor),
 * qru_chol_update (L and W, update and downdate) and qru_chol_insert (L
 * and C); the values at the first and last row, inside a panel block and
 * on the diagonal; the update algorithms FAST, DISSERTATION and AUTO; and
 * every panel kernel the backend has (QRU_PANEL_KERNEL = auto / smem /
 * global / grid / reg; with QRU_PANEL_GROUPS=3 the global kernel of CUDA runs as a
 * cooperative launch of 3 blocks).  The sizes make the add-rows panels
 * (64 + 24) x 64, the register kernel's shape.
 *
 * Complex data (complex float and complex double, where the backend takes
 * them): the same cases, the value in the real or the imaginary part of
 * the element (alternating with the position, so that each value lands in
 * both parts), with every panel kernel as for real data; a routine the
 * backend runs for real
 * data only may answer QRU_ERR_UNSUPPORTED, and leaves everything as it
 * was.
 *
 * QRU_TEST_QUICK=1 in the environment runs a subset (NaN inside a block,
 * double only, uplo 'L'), for slow tools such as compute-sanitizer;
 * QRU_TEST_WATCHDOG=<seconds> sets the watchdog's time.
 */
#include <float.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../src/qru_internal.h"
#include "qru_test.h"

/* seconds a call may take (QRU_TEST_WATCHDOG in the environment
 * overrides) */
#define WATCHDOG_S 60

/* ---- watchdog ------------------------------------------------------------ */

static char wd_case[320];

static void wd_fire(int sig)
{
    (void)sig;
    static const char m[] = "\nnonfinite: FAIL: the call did not return "
                            "within the watchdog's time: ";
    ssize_t w = write(2, m, sizeof m - 1);
    w += write(2, wd_case, strnlen(wd_case, sizeof wd_case));
    w += write(2, "\n", 1);
    (void)w;
    _exit(3);
}

static void wd_arm(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(wd_case, sizeof wd_case, fmt, ap);
    va_end(ap);
    const char *e = getenv("QRU_TEST_WATCHDOG");
    int s = e ? atoi(e) : 0;
    alarm(s > 0 ? (unsigned)s : WATCHDOG_S);
}

static void wd_disarm(void) { alarm(0); }

/* ---- values and cases ------------------------------------------------------ */

enum { V_NAN, V_PINF, V_NINF, V_DENORM, V_HUGE, NV };
static const char *vname[NV] = {"NaN", "+Inf", "-Inf", "denormal", "huge"};

static int quick(void)
{
    const char *s = getenv("QRU_TEST_QUICK");
    return s && *s && strcmp(s, "0") != 0;
}
static int nvalues(void) { return quick() ? 1 : NV; }

static double special(qru_dtype dt, int v)
{
    switch (v) {
    case V_NAN:
        return NAN;
    case V_PINF:
        return INFINITY;
    case V_NINF:
        return -INFINITY;
    case V_DENORM: /* below the smallest normal number of the type */
        return dt == QRU_FLOAT ? 1e-40 : 1e-310;
    default: /* 1e308 in double; as large, relative to the range, in float */
        return dt == QRU_FLOAT ? 0.5 * FLT_MAX : 1e308;
    }
}

static const char *tname(qru_dtype dt) { return qru_test_type_name(dt); }

static int is_cplx(qru_dtype dt)
{
    return dt == QRU_COMPLEX_FLOAT || dt == QRU_COMPLEX_DOUBLE;
}

/* Element (i, j) of the host array A (leading dimension ld) takes the
 * value v of special(): a real type the element itself; a complex type
 * its real part (part 0) or its imaginary part (part 1), the other part
 * kept.  Returns the part's name for the case's tag. */
static const char *put_special(qru_dtype dt, void *A, int ld, int i, int j,
                               int v, int part)
{
    if (!is_cplx(dt)) {
        qru_test_set(dt, A, ld, i, j, special(dt, v));
        return "";
    }
    double re, im;
    qru_test_get_c(dt, A, ld, i, j, &re, &im);
    double x = special(qru_dtype_real(dt), v);
    qru_test_set_c(dt, A, ld, i, j, part ? re : x, part ? x : im);
    return part ? " (imaginary part)" : " (real part)";
}

static qru_context *ctx;

/* Panel-kernel settings of the backend (QRU_TUNE_PANEL_KERNEL, by the
 * names of its environment variable). */
static const char *const panel_all[] = {NULL, "smem", "global", "grid",
                                        "reg"};
static int npanel(qru_dtype dt)
{
    (void)dt; /* the complex types' kernels are the real types' */
    qru_backend b = qru_test_backend();
    if (b == QRU_BACKEND_CUDA)
        return 5;
    return b == QRU_BACKEND_OPENCL ? 2 : 1; /* OpenCL: auto, global */
}
static const char *panel_setting(int i)
{
    return qru_test_backend() == QRU_BACKEND_OPENCL && i == 1 ? "global"
                                                               : panel_all[i];
}
static void set_panel(const char *pk)
{
    int v = !pk                        ? QRU_PANEL_KERNEL_AUTO
            : strcmp(pk, "smem") == 0   ? QRU_PANEL_KERNEL_SMEM
            : strcmp(pk, "global") == 0 ? QRU_PANEL_KERNEL_GLOBAL
            : strcmp(pk, "grid") == 0   ? QRU_PANEL_KERNEL_GRID
                                        : QRU_PANEL_KERNEL_REG;
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, QRU_FLOAT, QRU_TUNE_PANEL_KERNEL, v), 0);
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, QRU_DOUBLE, QRU_TUNE_PANEL_KERNEL, v), 0);
}

static const qru_update_algorithm algs[] = {
    QRU_UPDATE_FAST, QRU_UPDATE_DISSERTATION, QRU_UPDATE_AUTO};
static const char *aname[] = {"fast", "dissertation", "auto"};

/* ---- host / device helpers ------------------------------------------------- */

static void setup(void) { ctx = qru_test_context(); }
/* The type of the dtype loops' index i (0 .. NDT-1): 0, 1 the real types
 * the context computes in (qru_test_dtype), 2 complex float, 3 complex
 * double; 0 where the context does not take it (the test returns).
 * quick runs the last real type only. */
enum { NDT = 4 };
static qru_dtype loop_dtype(int i)
{
    int nt = qru_test_ndtypes(ctx);
    if (i < 2)
        return i >= nt || (quick() && i != nt - 1) ? (qru_dtype)0
                                                   : qru_test_dtype(ctx, i);
    qru_dtype dt = i == 2 ? QRU_COMPLEX_FLOAT : QRU_COMPLEX_DOUBLE;
    return quick() || !qru_context_supports(ctx, dt) ? (qru_dtype)0 : dt;
}
#define LOOP_DTYPE(dt)                                                         \
    qru_dtype dt = loop_dtype(_i);                                             \
    if (!dt)                                                                   \
    return
static void teardown(void)
{
    set_panel(NULL);
    qru_context_destroy(ctx);
    ctx = NULL;
}

static void *hrand(qru_dtype dt, int rows, int cols, unsigned *seed)
{
    void *h = qru_test_alloc(dt, rows, cols, rows);
    qru_test_rand(dt, rows, cols, h, rows, seed);
    return h;
}

static size_t nbytes(qru_dtype dt, int rows, int cols)
{
    return qru_test_elsize(dt) * (size_t)(rows > 0 ? rows : 1) * cols;
}

/* 1 if M holds exactly the bytes of h (rows x cols, ld = rows) */
static int same_bits(const qru_matrix *M, const void *h)
{
    void *g = qru_test_download(M);
    int eq = memcmp(g, h, nbytes(qru_matrix_dtype(M), qru_matrix_rows(M),
                                 qru_matrix_cols(M))) == 0;
    free(g);
    return eq;
}

/* R, d and (if held) Q of f on the host */
typedef struct snap {
    void *R, *d, *Q;
} snap;

static void *get_part(const qru_lsq *f, int which)
{
    qru_dtype dt = qru_lsq_dtype(f);
    int n = qru_lsq_rows(f), m = qru_lsq_cols(f), r = qru_lsq_nrhs(f);
    int cols = which == 0 ? m : which == 1 ? r : n;
    /* d: n x r in the full form, m x r (d(1:m, :)) in the others */
    int rows = which == 1 && qru_lsq_q_form(f) != QRU_Q_FULL ? m : n;
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create(ctx, dt, rows, cols, 0, &M), 0);
    int st = which == 0   ? qru_lsq_get_r(f, M)
             : which == 1 ? qru_lsq_get_d(f, M)
                          : qru_lsq_get_q(f, M);
    ck_assert_int_eq(st, 0);
    void *h = qru_test_download(M);
    qru_matrix_destroy(M);
    return h;
}

static snap snap_take(const qru_lsq *f)
{
    snap s = {get_part(f, 0), get_part(f, 1), NULL};
    if (qru_lsq_has_q(f))
        s.Q = get_part(f, 2);
    return s;
}

/* f still holds exactly s (sizes included) */
static int snap_same(const qru_lsq *f, const snap *s, int n, int m, int r)
{
    if (qru_lsq_rows(f) != n || qru_lsq_cols(f) != m || qru_lsq_nrhs(f) != r)
        return 0;
    snap t = snap_take(f);
    qru_dtype dt = qru_lsq_dtype(f);
    int eq = memcmp(t.R, s->R, nbytes(dt, n, m)) == 0 &&
             memcmp(t.d, s->d, nbytes(dt, n, r)) == 0 &&
             (!s->Q || memcmp(t.Q, s->Q, nbytes(dt, n, n)) == 0);
    free(t.R);
    free(t.d);
    free(t.Q);
    return eq;
}

static void snap_free(snap *s)
{
    free(s->R);
    free(s->d);
    free(s->Q);
}

/* After every call: the context still works. */
static void check_alive(const char *tag)
{
    ck_assert_msg(qru_context_sync(ctx) == 0, "%s: sync failed afterwards",
                  tag);
}

/* A documented status of a routine whose arguments number nargs: 0, -i
 * for an argument, a positive numerical status when allowed, or a library
 * status (for complex data also QRU_ERR_UNSUPPORTED: the routine runs
 * for real data only on this backend). */
static int documented(qru_dtype dt, int st, int nargs, int positive_ok)
{
    return st == 0 || (st < 0 && st >= -nargs) || (positive_ok && st > 0) ||
           st == QRU_ERR_ALLOC || st == QRU_ERR_DEVICE ||
           (is_cplx(dt) && st == QRU_ERR_UNSUPPORTED);
}

/* Positions in a rows x cols matrix: 0 first row, 1 last row, 2 inside a
 * panel block (away from its edges), 3 on the diagonal (inside too). */
enum { NPOS = 4 };
static const char *pname[NPOS] = {"first row", "last row", "inside a block",
                                  "diagonal"};
static int npos(void) { return quick() ? 1 : NPOS; }
/* quick: inside a block (the ends for e, which has R columns) */
static int pos_quick(int ip) { return quick() ? 2 : ip; }
static void position(int pos, int rows, int cols, int *i, int *j)
{
    int dmin = rows < cols ? rows : cols;
    switch (pos) {
    case 0:
        *i = 0, *j = cols / 3;
        break;
    case 1:
        *i = rows - 1, *j = cols - 1;
        break;
    case 2:
        *i = rows / 2 + 1, *j = cols / 2 - 3 > 0 ? cols / 2 - 3 : 0;
        if (*i >= rows)
            *i = rows - 1;
        break;
    default:
        *i = *j = dmin / 2 + 1 < dmin ? dmin / 2 + 1 : dmin - 1;
        break;
    }
}

/* ---- QR updates ---------------------------------------------------------------- */

enum { N = 100, M = 80, R = 2, P = 24, PC = 6 };

static qru_lsq *make_lsq(qru_dtype dt, unsigned *seed, int keep_q)
{
    void *A = hrand(dt, N, M, seed), *b = hrand(dt, N, R, seed);
    qru_matrix *Ad = qru_test_upload(ctx, dt, N, M, 0, A, N);
    qru_matrix *bd = qru_test_upload(ctx, dt, N, R, 0, b, N);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = keep_q ? QRU_Q_FULL : QRU_Q_NONE;
    qru_lsq *f = NULL;
    ck_assert_int_eq(qru_lsq_create(ctx, Ad, bd, &opt, &f), 0);
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    free(A);
    free(b);
    return f;
}

/* loop index: dtype */
START_TEST(test_add_rows)
{
    LOOP_DTYPE(dt);
    unsigned seed = 1234u + 17u * (unsigned)_i;
    for (int ip = 0; ip < npanel(dt); ++ip)
        for (int ia = 0; ia < 3; ++ia)
            for (int tgt = 0; tgt < 2; ++tgt) /* U, e */
                for (int iq = 0; iq < npos(); ++iq)
                    for (int v = 0; v < nvalues(); ++v) {
                        int pos = quick() && tgt == 1 ? 0 : pos_quick(iq);
                        if (tgt == 1 && pos > 1)
                            continue; /* e has R columns: its two ends */
                        const char *pk = panel_setting(ip);
                        qru_lsq *f = make_lsq(dt, &seed, (v + iq) % 2 == 0);
                        ck_assert_int_eq(
                            qru_lsq_set_update_algorithm(f, algs[ia]), 0);
                        int rows = P, cols = tgt == 0 ? M : R, i, j;
                        void *U = hrand(dt, P, M, &seed),
                             *e = hrand(dt, P, R, &seed);
                        position(pos, rows, cols, &i, &j);
                        const char *pt =
                            put_special(dt, tgt == 0 ? U : e, P, i, j, v,
                                        (v + iq) % 2);
                        qru_matrix *Ud = qru_test_upload(ctx, dt, P, M, 0, U,
                                                         P);
                        qru_matrix *ed = qru_test_upload(ctx, dt, P, R, 0, e,
                                                         P);
                        snap s = snap_take(f);
                        char tag[200];
                        snprintf(tag, sizeof tag,
                                 "%s add_rows %s panel=%s %s=%s%s at "
                                 "(%d,%d) (%s)",
                                 tname(dt), aname[ia], pk ? pk : "auto",
                                 tgt == 0 ? "U" : "e", vname[v], pt, i, j,
                                 pname[pos]);
                        set_panel(pk);
                        wd_arm("%s", tag);
                        int st = qru_lsq_add_rows(f, N / 2, Ud, ed);
                        check_alive(tag);
                        wd_disarm();
                        set_panel(NULL);
                        ck_assert_msg(documented(dt, st, 4, 0), "%s: status %d",
                                      tag, st);
                        if (st != 0)
                            ck_assert_msg(snap_same(f, &s, N, M, R),
                                          "%s: status %d changed f", tag, st);
                        ck_assert_msg(same_bits(Ud, U) && same_bits(ed, e),
                                      "%s: U or e changed", tag);
                        snap_free(&s);
                        qru_matrix_destroy(Ud);
                        qru_matrix_destroy(ed);
                        free(U);
                        free(e);
                        qru_lsq_destroy(f);
                    }
}
END_TEST

/* loop index: dtype */
START_TEST(test_add_cols)
{
    LOOP_DTYPE(dt);
    unsigned seed = 2345u + 19u * (unsigned)_i;
    for (int ip = 0; ip < npanel(dt); ++ip)
        for (int ia = 0; ia < 3; ++ia)
            for (int iq = 0; iq < npos(); ++iq)
                for (int v = 0; v < nvalues(); ++v) {
                    int pos = pos_quick(iq);
                    const char *pk = panel_setting(ip);
                    /* m + p columns stay below n: M - PC columns first */
                    qru_lsq *f = make_lsq(dt, &seed, 1);
                    ck_assert_int_eq(qru_lsq_remove_cols(f, 0, PC),
                                     0);
                    int m0 = M - PC;
                    ck_assert_int_eq(qru_lsq_set_update_algorithm(f, algs[ia]),
                                     0);
                    void *U = hrand(dt, N, PC, &seed);
                    int i, j;
                    position(pos, N, PC, &i, &j);
                    const char *pt =
                        put_special(dt, U, N, i, j, v, (v + iq) % 2);
                    qru_matrix *Ud = qru_test_upload(ctx, dt, N, PC, 0, U, N);
                    snap s = snap_take(f);
                    char tag[200];
                    snprintf(tag, sizeof tag,
                             "%s add_cols %s panel=%s U=%s%s at (%d,%d) (%s)",
                             tname(dt), aname[ia], pk ? pk : "auto", vname[v],
                             pt, i, j, pname[pos]);
                    set_panel(pk);
                    wd_arm("%s", tag);
                    int st = qru_lsq_add_cols(f, m0 / 2, Ud);
                    check_alive(tag);
                    wd_disarm();
                    set_panel(NULL);
                    ck_assert_msg(documented(dt, st, 3, 1), "%s: status %d", tag,
                                  st);
                    if (st != 0)
                        ck_assert_msg(snap_same(f, &s, N, m0, R),
                                      "%s: status %d changed f", tag, st);
                    ck_assert_msg(same_bits(Ud, U), "%s: U changed", tag);
                    snap_free(&s);
                    qru_matrix_destroy(Ud);
                    free(U);
                    qru_lsq_destroy(f);
                }
}
END_TEST

/* qru_lsq_modify(f, U, V), the value in U (N x PC) or in V (M x PC);
 * loop index: dtype */
START_TEST(test_modify)
{
    LOOP_DTYPE(dt);
    unsigned seed = 4567u + 29u * (unsigned)_i;
    for (int ip = 0; ip < npanel(dt); ++ip)
        for (int ia = 0; ia < 3; ++ia)
            for (int iq = 0; iq < npos(); ++iq)
                for (int v = 0; v < nvalues(); ++v)
                    for (int inv = 0; inv < 2; ++inv) {
                        int pos = pos_quick(iq);
                        const char *pk = panel_setting(ip);
                        qru_lsq *f = make_lsq(dt, &seed, 1);
                        ck_assert_int_eq(
                            qru_lsq_set_update_algorithm(f, algs[ia]), 0);
                        void *U = hrand(dt, N, PC, &seed),
                             *V = hrand(dt, M, PC, &seed);
                        int i, j;
                        position(pos, inv ? M : N, PC, &i, &j);
                        const char *pt =
                            put_special(dt, inv ? V : U, inv ? M : N, i, j, v,
                                        (v + iq + inv) % 2);
                        qru_matrix *Ud = qru_test_upload(ctx, dt, N, PC, 0, U,
                                                         N);
                        qru_matrix *Vd = qru_test_upload(ctx, dt, M, PC, 0, V,
                                                         M);
                        snap s = snap_take(f);
                        char tag[200];
                        snprintf(tag, sizeof tag,
                                 "%s modify %s panel=%s %s=%s%s at (%d,%d) "
                                 "(%s)",
                                 tname(dt), aname[ia], pk ? pk : "auto",
                                 inv ? "V" : "U", vname[v], pt, i, j,
                                 pname[pos]);
                        set_panel(pk);
                        wd_arm("%s", tag);
                        int st = qru_lsq_modify(f, Ud, Vd);
                        check_alive(tag);
                        wd_disarm();
                        set_panel(NULL);
                        /* 0, -i, a rank status; f and U, V unchanged
                         * unless 0 */
                        ck_assert_msg(documented(dt, st, 3, 1) &&
                                          (st == 0 ||
                                           snap_same(f, &s, N, M, R)) &&
                                          same_bits(Ud, U) &&
                                          same_bits(Vd, V),
                                      "%s: status %d, or it changed f, U "
                                      "or V", tag, st);
                        snap_free(&s);
                        qru_matrix_destroy(Ud);
                        qru_matrix_destroy(Vd);
                        free(U);
                        free(V);
                        qru_lsq_destroy(f);
                    }
}
END_TEST

/* qru_lsq_create and qru_qr_factor (own blocked QR with nb = 16, and the
 * backend's default, the vendor's on CUDA); loop index: dtype */
START_TEST(test_factor)
{
    LOOP_DTYPE(dt);
    unsigned seed = 3456u + 23u * (unsigned)_i;
    for (int ip = 0; ip < npanel(dt); ++ip)
        for (int iq = 0; iq < npos(); ++iq)
            for (int v = 0; v < nvalues(); ++v)
                for (int nb = 0; nb <= 16; nb += 16) {
                    int pos = pos_quick(iq);
                    const char *pk = panel_setting(ip);
                    void *A = hrand(dt, N, M, &seed),
                         *b = hrand(dt, N, R, &seed);
                    int i, j;
                    position(pos, N, M, &i, &j);
                    const char *pt =
                        put_special(dt, A, N, i, j, v, (v + iq) % 2);
                    qru_matrix *Ad = qru_test_upload(ctx, dt, N, M, 0, A, N);
                    qru_matrix *bd = qru_test_upload(ctx, dt, N, R, 0, b, N);
                    char tag[200];
                    snprintf(tag, sizeof tag,
                             "%s lsq_create nb=%d panel=%s A=%s%s at (%d,%d) "
                             "(%s)",
                             tname(dt), nb, pk ? pk : "auto", vname[v], pt, i,
                             j, pname[pos]);
                    qru_lsq_options opt;
                    qru_lsq_options_init(&opt);
                    opt.nb = nb;
                    qru_lsq *f = NULL;
                    set_panel(pk);
                    wd_arm("%s", tag);
                    int st = qru_lsq_create(ctx, Ad, bd, &opt, &f);
                    check_alive(tag);
                    wd_disarm();
                    ck_assert_msg(documented(dt, st, 5, 0), "%s: status %d", tag,
                                  st);
                    ck_assert_msg(same_bits(Ad, A) && same_bits(bd, b),
                                  "%s: A or b changed", tag);
                    qru_lsq_destroy(f);

                    /* qru_qr_factor overwrites A: unchanged on failure */
                    qru_matrix *Q = NULL;
                    ck_assert_int_eq(qru_matrix_create(ctx, dt, N, N, 0, &Q),
                                     0);
                    void *Q0 = qru_test_download(Q);
                    snprintf(tag, sizeof tag,
                             "%s qr_factor nb=%d panel=%s A=%s%s at (%d,%d) "
                             "(%s)",
                             tname(dt), nb, pk ? pk : "auto", vname[v], pt, i,
                             j, pname[pos]);
                    wd_arm("%s", tag);
                    st = qru_qr_factor(ctx, nb, Ad, Q, bd);
                    check_alive(tag);
                    wd_disarm();
                    set_panel(NULL);
                    ck_assert_msg(documented(dt, st, 5, 0), "%s: status %d", tag,
                                  st);
                    if (st != 0)
                        ck_assert_msg(same_bits(Ad, A) && same_bits(bd, b) &&
                                          same_bits(Q, Q0),
                                      "%s: status %d changed A, Q or B", tag,
                                      st);
                    free(Q0);
                    qru_matrix_destroy(Q);
                    qru_matrix_destroy(Ad);
                    qru_matrix_destroy(bd);
                    free(A);
                    free(b);
                }
}
END_TEST

/* ---- Cholesky ------------------------------------------------------------------ */

enum { NC = 100, KC = 3, PI = 5 };

/* A = B B' / n + I (n x n, both triangles; ' the conjugate transpose),
 * well conditioned */
static void *spd(qru_dtype dt, int n, unsigned *seed)
{
    void *B = hrand(dt, n, n, seed);
    void *A = qru_test_alloc(dt, n, n, n);
    for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
            double sr = 0, si = 0; /* sum of B(i, k) conj(B(j, k)) */
            for (int k = 0; k < n; ++k) {
                double ar, ai, br, bi;
                qru_test_get_c(dt, B, n, i, k, &ar, &ai);
                qru_test_get_c(dt, B, n, j, k, &br, &bi);
                sr += ar * br + ai * bi;
                si += ai * br - ar * bi;
            }
            sr = sr / n + (i == j ? 1.0 : 0.0);
            si = i == j ? 0.0 : si / n;
            qru_test_set_c(dt, A, n, i, j, sr, si);
            qru_test_set_c(dt, A, n, j, i, sr, -si);
        }
    free(B);
    return A;
}

/* (i, j) gets special value v (put_special, part) and (j, i) its
 * conjugate (both triangles: any uplo reads it) */
static const char *set_sym(qru_dtype dt, void *A, int n, int i, int j, int v,
                           int part)
{
    const char *pt = put_special(dt, A, n, i, j, v, part);
    double re, im;
    qru_test_get_c(dt, A, n, i, j, &re, &im);
    if (i != j)
        qru_test_set_c(dt, A, n, j, i, re, -im);
    return pt;
}

/* (i >= j) of position pos in the n x n lower triangle */
static void position_tri(int pos, int n, int *i, int *j)
{
    position(pos, n, n, i, j);
    if (*i < *j) {
        int t = *i;
        *i = *j;
        *j = t;
    }
}

/* the factor of an SPD matrix (uplo), on the device, and its host copy */
static qru_matrix *factor_of(qru_dtype dt, char uplo, unsigned *seed,
                             void **host)
{
    void *A = spd(dt, NC, seed);
    qru_matrix *L = qru_test_upload(ctx, dt, NC, NC, 0, A, NC);
    ck_assert_int_eq(qru_chol_factor(ctx, uplo, L, QRU_CHOL_LEFT, 0), 0);
    free(A);
    *host = qru_test_download(L);
    return L;
}

/* QRU_POTRF (and, for "own+kernel", QRU_CHOL_PANEL=kernel: CUDA's own
 * panel kernel instead of cuSOLVER's for the diagonal blocks) */
static const char *potrf_set[] = {NULL, "own", "vendor", "own+kernel"};
static void set_potrf(int i)
{
    if (potrf_set[i])
        setenv("QRU_POTRF", i == 3 ? "own" : potrf_set[i], 1);
    if (i == 3)
        setenv("QRU_CHOL_PANEL", "kernel", 1);
}
/* the settings that choose another path on the backend (OpenCL has no
 * vendor Cholesky, the CPU no panel kernel) */
static int npotrf(void)
{
    qru_backend b = qru_test_backend();
    return b == QRU_BACKEND_CUDA ? 4 : b == QRU_BACKEND_CPU ? 3 : 2;
}
static void unset_potrf(void)
{
    unsetenv("QRU_POTRF");
    unsetenv("QRU_CHOL_PANEL");
}

/* loop index: dtype */
START_TEST(test_chol_factor)
{
    LOOP_DTYPE(dt);
    unsigned seed = 4567u + 29u * (unsigned)_i;
    static const int variants[] = {QRU_CHOL_LEFT, QRU_CHOL_RIGHT,
                                   QRU_CHOL_CROUT};
    for (int iu = 0; iu < (quick() ? 1 : 2); ++iu)
        for (int iv = 0; iv < 3; ++iv)
            for (int ipo = 0; ipo < npotrf(); ++ipo)
                for (int iq = 0; iq < npos(); ++iq)
                    for (int v = 0; v < nvalues(); ++v) {
                        if (iv > 0 && ipo == 2)
                            continue; /* the vendor's: LEFT */
                        int pos = pos_quick(iq);
                        char uplo = iu ? 'U' : 'L';
                        void *A = spd(dt, NC, &seed);
                        int i, j;
                        position_tri(pos, NC, &i, &j);
                        const char *pt =
                            set_sym(dt, A, NC, i, j, v, (v + iq) % 2);
                        qru_matrix *Ad =
                            qru_test_upload(ctx, dt, NC, NC, 0, A, NC);
                        char tag[200];
                        snprintf(tag, sizeof tag,
                                 "%s chol_factor %c variant %d potrf=%s "
                                 "A=%s%s at (%d,%d) (%s)",
                                 tname(dt), uplo, variants[iv],
                                 potrf_set[ipo] ? potrf_set[ipo] : "default",
                                 vname[v], pt, i, j, pname[pos]);
                        set_potrf(ipo);
                        wd_arm("%s", tag);
                        int st = qru_chol_factor(ctx, uplo, Ad, variants[iv],
                                                 ipo % 2 ? 32 : 0);
                        check_alive(tag);
                        wd_disarm();
                        unset_potrf();
                        ck_assert_msg(documented(dt, st, 5, 1), "%s: status %d",
                                      tag, st);
                        if (st != 0)
                            ck_assert_msg(same_bits(Ad, A),
                                          "%s: status %d changed A", tag, st);
                        qru_matrix_destroy(Ad);
                        free(A);
                    }
}
END_TEST

/* qru_chol_update (L or W, update and downdate) and qru_chol_insert (L or
 * C); loop index: dtype */
START_TEST(test_chol_update_insert)
{
    LOOP_DTYPE(dt);
    unsigned seed = 5678u + 31u * (unsigned)_i;
    for (int iu = 0; iu < (quick() ? 1 : 2); ++iu)
        for (int op = 0; op < 3; ++op) /* update, downdate, insert */
            for (int tgt = 0; tgt < 2; ++tgt) /* L, or W / C */
                for (int iq = 0; iq < npos(); ++iq)
                    for (int v = 0; v < nvalues(); ++v) {
                        int pos = pos_quick(iq);
                        char uplo = iu ? 'U' : 'L';
                        void *Lh = NULL;
                        qru_matrix *L = factor_of(dt, uplo, &seed, &Lh);
                        int i = 0, j = 0, part = (v + iq + op) % 2;
                        const char *pt = "";
                        if (tgt == 0) { /* in the factor's triangle */
                            position_tri(pos, NC, &i, &j);
                            void *Lb = qru_test_download(L);
                            if (uplo == 'U')
                                pt = put_special(dt, Lb, NC, j, i, v, part);
                            else
                                pt = put_special(dt, Lb, NC, i, j, v, part);
                            ck_assert_int_eq(qru_matrix_upload(L, Lb, NC), 0);
                            free(Lh);
                            Lh = Lb;
                        }
                        int wr = op < 2 ? NC : NC + PI,
                            wc = op < 2 ? KC : PI;
                        void *W = hrand(dt, wr, wc, &seed);
                        if (op > 0) /* a small downdate or new coupling:
                                       stays definite */
                            for (int c = 0; c < wc; ++c)
                                for (int r = 0; r < wr; ++r) {
                                    double re, im;
                                    qru_test_get_c(dt, W, wr, r, c, &re, &im);
                                    qru_test_set_c(dt, W, wr, r, c, 0.05 * re,
                                                   0.05 * im);
                                }
                        if (op == 2) /* C's diagonal block: definite */
                            for (int c = 0; c < wc; ++c)
                                qru_test_set(dt, W, wr, NC / 2 + c, c, 4.0);
                        if (tgt == 1) {
                            position(pos, wr, wc, &i, &j);
                            pt = put_special(dt, W, wr, i, j, v, part);
                        }
                        qru_matrix *Wd =
                            qru_test_upload(ctx, dt, wr, wc, 0, W, wr);
                        qru_matrix *L1 = NULL;
                        void *L10 = NULL;
                        if (op == 2) {
                            ck_assert_int_eq(qru_matrix_create(ctx, dt, wr, wr,
                                                               0, &L1),
                                             0);
                            L10 = qru_test_download(L1);
                        }
                        char tag[200];
                        snprintf(tag, sizeof tag,
                                 "%s chol_%s %c %s=%s%s at (%d,%d) (%s)",
                                 tname(dt),
                                 op == 0   ? "update"
                                 : op == 1 ? "downdate"
                                           : "insert",
                                 uplo,
                                 tgt == 0 ? "L" : (op < 2 ? "W" : "C"),
                                 vname[v], pt, i, j, pname[pos]);
                        wd_arm("%s", tag);
                        int st = op < 2 ? qru_chol_update(ctx, uplo, L, Wd,
                                                          op == 0 ? 1 : -1, L)
                                        : qru_chol_insert(ctx, uplo, L, NC / 2,
                                                          Wd, L1);
                        check_alive(tag);
                        wd_disarm();
                        ck_assert_msg(documented(dt, st, op < 2 ? 5 : 6, 1),
                                      "%s: status %d", tag, st);
                        if (st != 0)
                            ck_assert_msg(same_bits(L, Lh) &&
                                              (!L1 || same_bits(L1, L10)),
                                          "%s: status %d changed the factor",
                                          tag, st);
                        ck_assert_msg(same_bits(Wd, W), "%s: W/C changed",
                                      tag);
                        if (op == 2)
                            ck_assert_msg(same_bits(L, Lh), "%s: L changed",
                                          tag);
                        qru_matrix_destroy(L1);
                        free(L10);
                        qru_matrix_destroy(Wd);
                        free(W);
                        qru_matrix_destroy(L);
                        free(Lh);
                    }
}
END_TEST

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wd_fire;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    /* the global panel kernel of CUDA as a cooperative launch of several
     * blocks even for these short panels (read once, at its first use) */
    setenv("QRU_PANEL_GROUPS", "3", 0);

    Suite *s = suite_create("nonfinite");
    TCase *tq = tcase_create("qr");
    tcase_add_checked_fixture(tq, setup, teardown);
    tcase_set_timeout(tq, 900);
    tcase_add_loop_test(tq, test_add_rows, 0, NDT);
    tcase_add_loop_test(tq, test_add_cols, 0, NDT);
    tcase_add_loop_test(tq, test_modify, 0, NDT);
    tcase_add_loop_test(tq, test_factor, 0, NDT);
    suite_add_tcase(s, tq);
    TCase *tc = tcase_create("chol");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 900);
    tcase_add_loop_test(tc, test_chol_factor, 0, NDT);
    tcase_add_loop_test(tc, test_chol_update_insert, 0, NDT);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
