/* The batched routines on several threads (QRU_TUNE_BATCH_THREADS: the
 * CPU backend cuts a batch's problems into contiguous chunks that its
 * threads take in turn, src/cpu/cpu_pool.c).  Every batched op (qru_chol_update_batch,
 * qru_chol_insert_batch, qru_chol_delete_batch, their _ex forms with
 * ranks and masks, and qru_lsq_batch_create, _add_rows, _remove_rows
 * (and _ex), _remove_cols, _add_cols (Q-less: _add_cols_data) and
 * _solve in both forms, and the
 * full form's creation and _modify (and _ex) in the thin and full forms)
 * runs with one thread,
 * then with 2, 3, 4, 7 and 64 threads where every problem may have a
 * thread (the private knob QRU_TUNE_BATCH_THREAD_WORK = 0), and with the
 * defaults: the pages, the verdicts and the status agree bit for bit.
 * Problems planted to fail (a downdate that loses definiteness, a NaN, a
 * negative pivot, a rank-deficient solve, a refused removal, a refused
 * insertion of columns, which leaves every problem as it was, a refused
 * modification) fail in
 * their own slots, and their pages are left as they were, whichever
 * thread ran them.  Both precisions; on the GPU backends the knob is
 * unused: one thread and the defaults agree as well. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lapacke.h>

#include "qru_internal.h"
#include "qru_test.h"

QRU_TEST_FIXTURE

#define SENT 3.25

/* The settings compared, the first the reference: threads and the least
 * work a thread (-1: the backend's default). */
static const int SETTINGS[][2] = {{1, -1}, {2, 0}, {3, 0},  {4, 0},
                                  {7, 0},  {64, 0}, {0, -1}};
#define NSET ((int)(sizeof SETTINGS / sizeof SETTINGS[0]))

/* ---- the outputs of a run, as bytes ------------------------------------ */

typedef struct blob {
    unsigned char *p;
    size_t n, cap;
} blob;

static void put(blob *b, const void *x, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = 2 * (b->n + n) + 64;
        b->p = realloc(b->p, b->cap);
        ck_assert_ptr_nonnull(b->p);
    }
    memcpy(b->p + b->n, x, n);
    b->n += n;
}

/* A batch of count rows x cols pages with padding (ld rows + 1, three
 * elements between the pages): page b from h + b rows cols (dense
 * doubles). */
static qru_matrix *up(qru_dtype dt, int rows, int cols, int count,
                      const double *h)
{
    int ld = rows + 1;
    qru_matrix *M = NULL;
    ck_assert_int_eq(qru_matrix_create_batch(ctx, dt, rows, cols, ld, count,
                                             (long long)ld * cols + 3, &M),
                     0);
    int rr = rows > 0 ? rows : 1, cc = cols * count > 0 ? cols * count : 1;
    void *t = qru_test_alloc(dt, rr, cc, rr);
    for (int j = 0; j < cols * count; ++j)
        for (int i = 0; i < rows; ++i)
            qru_test_set(dt, t, rr, i, j, h[i + (size_t)j * rows]);
    ck_assert_int_eq(qru_matrix_upload(M, t, rr), 0);
    free(t);
    return M;
}

/* The pages of M, dense (page b at b rows cols elements); free() it. */
static void *down(const qru_matrix *M, size_t *bytes)
{
    int rows = qru_matrix_rows(M), cols = qru_matrix_cols(M),
        cnt = qru_matrix_count(M), rr = rows > 0 ? rows : 1;
    *bytes = qru_test_elsize(qru_matrix_dtype(M)) * (size_t)rr * cols * cnt;
    void *t = malloc(*bytes + 8);
    ck_assert_int_eq(qru_matrix_download(M, t, rr), 0);
    return t;
}

static void put_mat(blob *b, const qru_matrix *M)
{
    size_t bytes;
    void *t = down(M, &bytes);
    put(b, t, bytes);
    free(t);
}

/* The verdicts: st is the number of planted failures, info[i] > 0 exactly
 * in their slots (want[i]: 0 good, > 0 that column, -1 some column), and
 * their pages of M (before: its pages before the call) unchanged; then
 * the verdicts and the status go to out. */
static void verdicts(const char *tag, int st, int cnt, const int *want,
                     const int *info, const qru_matrix *M,
                     const void *before, blob *out)
{
    int planted = 0;
    size_t bytes, pg = 0;
    void *after = down(M, &bytes);
    pg = bytes / (size_t)(cnt > 0 ? cnt : 1);
    for (int i = 0; i < cnt; ++i) {
        planted += want[i] != 0;
        if (want[i] == 0) {
            ck_assert_msg(info[i] == 0, "%s: problem %d: info %d", tag, i,
                          info[i]);
            continue;
        }
        ck_assert_msg(want[i] < 0 ? info[i] > 0 : info[i] == want[i],
                      "%s: problem %d: info %d, want %d", tag, i, info[i],
                      want[i]);
        ck_assert_msg(!memcmp((char *)after + i * pg, (char *)before + i * pg,
                              pg),
                      "%s: the page of failed problem %d changed", tag, i);
    }
    ck_assert_msg(st == planted, "%s: status %d, %d planted", tag, st,
                  planted);
    free(after);
    put(out, info, sizeof(int) * (size_t)cnt);
    put(out, &st, sizeof st);
}

/* Problems b with b % 5 == 2 are planted to fail. */
static int planted(int b) { return b % 5 == 2; }

/* ---- the Cholesky batches ---------------------------------------------- */

/* The lower Cholesky factor of the n x n A in place (its upper part
 * zeroed). */
static void chol_lower(int n, double *A)
{
    ck_assert_int_eq(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, A, n), 0);
    for (int j = 1; j < n; ++j)
        for (int i = 0; i < j; ++i)
            A[i + (size_t)j * n] = 0;
}

/* The factor F (n x n lower, ld n) as page b of the dense pages P: in the
 * uplo triangle (F' for 'U'), SENT + i in the other. */
static void page_store(char uplo, int n, const double *F, double *P, int b)
{
    double *pg = P + (size_t)b * n * n;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int in = uplo == 'L' ? i >= j : i <= j;
            pg[i + (size_t)j * n] =
                !in ? SENT + i
                    : (uplo == 'L' ? F[i + (size_t)j * n]
                                   : F[j + (size_t)i * n]);
        }
}

/* what: 0 the rank-k update (k vectors, sign), 1 the insertion of p rows
 * and columns at k, 2 the deletion of p rows and columns at k; ext: the
 * _ex call, problem b of rank (3 b + 1) mod (k + 1) (the update) or left
 * out where b mod 4 = 1 (the others). */
static void run_chol(qru_dtype dt, int what, char uplo, int n, int k, int p,
                     int sign, int cnt, int ext, unsigned seed, blob *out)
{
    int n1 = what == 1 ? n + p : what == 2 ? n - p : n;
    int r = what == 0 ? k : p; /* columns of W or C */
    int rows = what == 1 ? n1 : n;
    double *Lh = calloc((size_t)n * n * cnt + 1, sizeof(double));
    double *Xh = calloc((size_t)rows * r * cnt + 1, sizeof(double));
    double *L1h = malloc(sizeof(double) * ((size_t)n1 * n1 * cnt + 1));
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    int *sel = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b < cnt; ++b)
        sel[b] = what == 0 ? (ext ? (3 * b + 1) % (k + 1) : k)
                           : !ext || b % 4 != 1;
    for (size_t e = 0; e < (size_t)n1 * n1 * cnt; ++e)
        L1h[e] = SENT;
    for (int b = 0; b < cnt; ++b) {
        int bad = planted(b) && n1 >= 2;
        double *A = qru_test_spd(what == 1 ? n1 : n, 4, 0.2, &seed);
        double *X = Xh + (size_t)b * rows * r, *F;
        if (what == 1) { /* A1 of order n1; L of A1 without k..k+p-1 */
            F = malloc(sizeof(double) * ((size_t)n * n + 1));
            for (int j = 0, jo = 0; j < n1; ++j) {
                if (j >= k && j < k + p)
                    continue;
                for (int i = 0, io = 0; i < n1; ++i)
                    if (i < k || i >= k + p)
                        F[io++ + (size_t)jo * n] = A[i + (size_t)j * n1];
                ++jo;
            }
            for (int q = 0; q < p; ++q)
                for (int i = 0; i < n1; ++i)
                    X[i + (size_t)q * n1] = A[i + (size_t)(k + q) * n1];
            if (bad) { /* a negative pivot of the new block */
                X[k] = -1.0;
                want[b] = k + 1;
            }
            chol_lower(n, F);
        } else {
            F = A;
            for (size_t e = 0; e < (size_t)n * r && what == 0; ++e)
                X[e] = 0.5 * qru_test_urand(&seed);
            for (int q = 0; q < r && what == 0 && sign < 0; ++q)
                for (int j = 0; j < n; ++j) /* A + W W', downdated back */
                    for (int i = 0; i < n; ++i)
                        F[i + (size_t)j * n] +=
                            X[i + (size_t)q * n] * X[j + (size_t)q * n];
            chol_lower(n, F);
            int jb = b % n;
            if (bad && what == 0 && r > 0 && sign < 0) {
                /* w_0 = 1.1 L(:, jb): definiteness lost at jb + 1 */
                for (int i = 0; i < n; ++i)
                    X[i] = 1.1 * F[i + (size_t)jb * n];
                want[b] = jb + 1;
            } else if (bad && what == 0 && r > 0) {
                X[jb] = NAN;
                want[b] = -1;
            } else if (bad && what == 2) { /* a kept row not finite */
                int rk = k > 0 ? 0 : n - 1;
                F[rk + (size_t)(b % (rk + 1)) * n] = NAN;
                want[b] = -1;
            }
        }
        if (sel[b] == 0) /* not touched: no verdict */
            want[b] = 0;
        page_store(uplo, n, F, Lh, b);
        if (F != A)
            free(F);
        free(A);
    }
    qru_matrix *L = up(dt, n, n, cnt, Lh), *X = NULL;
    qru_matrix *L1 = up(dt, n1, n1, cnt, L1h);
    if (what < 2)
        X = up(dt, rows, r, cnt, Xh);
    size_t bytes;
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    /* in place for the update, so that the failed pages are L's */
    const qru_matrix *M = what == 0 ? L : L1;
    void *before = down(M, &bytes);
    const int *s = ext ? sel : NULL;
    int st = what == 0   ? qru_chol_update_batch_ex(ctx, uplo, L, X, sign, L,
                                                    info, s)
             : what == 1 ? qru_chol_insert_batch_ex(ctx, uplo, L, k, X, L1,
                                                    info, s)
                         : qru_chol_delete_batch_ex(ctx, uplo, L, k, p, L1,
                                                    info, s);
    char tag[96];
    snprintf(tag, sizeof tag, "%s %c n %d k %d p %d sign %d count %d%s",
             what == 0 ? "update" : what == 1 ? "insert" : "delete", uplo,
             n, k, p, sign, cnt, ext ? " (ex)" : "");
    verdicts(tag, st, cnt, want, info, M, before, out);
    put_mat(out, M);
    free(before);
    free(info);
    qru_matrix_destroy(L);
    qru_matrix_destroy(L1);
    qru_matrix_destroy(X);
    free(Lh);
    free(Xh);
    free(L1h);
    free(want);
    free(sel);
}

/* ---- the least-squares batches ------------------------------------------ */

/* count pages of rows x cols uniform(-1, 1) doubles. */
static double *rnd(int rows, int cols, int cnt, unsigned *seed)
{
    size_t ne = (size_t)rows * cols * cnt;
    double *h = malloc(sizeof(double) * (ne + 1));
    for (size_t e = 0; e < ne; ++e)
        h[e] = qru_test_urand(seed);
    return h;
}

/* The batch's pages that get fills (rows x cols, set to SENT first). */
static void put_got(blob *out, qru_dtype dt, int rows, int cols, int cnt,
                    int (*get)(const qru_lsq_batch *, qru_matrix *),
                    const qru_lsq_batch *fb)
{
    double *h = malloc(sizeof(double) * ((size_t)rows * cols * cnt + 1));
    for (size_t e = 0; e < (size_t)rows * cols * cnt; ++e)
        h[e] = SENT;
    qru_matrix *M = up(dt, rows, cols, cnt, h);
    ck_assert_int_eq(get(fb, M), 0);
    put_mat(out, M);
    qru_matrix_destroy(M);
    free(h);
}

/* The batch of cnt problems of the dense pages Ah (n x m) and bh (n x r),
 * thin (opt->q = QRU_Q_THIN) or Q-less. */
static qru_lsq_batch *created(qru_dtype dt, int thin, int n, int m, int r,
                              int cnt, const double *Ah, const double *bh)
{
    qru_matrix *A = up(dt, n, m, cnt, Ah), *bb = up(dt, n, r, cnt, bh);
    qru_lsq_options opt;
    qru_lsq_options_init(&opt);
    opt.q = thin ? QRU_Q_THIN : QRU_Q_NONE;
    qru_lsq_batch *fb = NULL;
    ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, bb, &opt, &fb), 0);
    qru_matrix_destroy(A);
    qru_matrix_destroy(bb);
    return fb;
}

/* The solve of fb's cnt problems (m unknowns, r right-hand sides; want:
 * the planted failures as for verdicts) into out, then X, R, d and the
 * residual norms. */
static void put_solved(qru_dtype dt, const qru_lsq_batch *fb, int m, int r,
                       int cnt, const int *want, int *info, const char *tag,
                       blob *out)
{
    double *xh = malloc(sizeof(double) * ((size_t)m * r * cnt + 1));
    for (size_t e = 0; e < (size_t)m * r * cnt; ++e)
        xh[e] = SENT;
    qru_matrix *X = up(dt, m, r, cnt, xh);
    size_t bytes;
    void *before = down(X, &bytes);
    int st = qru_lsq_batch_solve(fb, X, info);
    verdicts(tag, st, cnt, want, info, X, before, out);
    put_mat(out, X);
    int dr = m; /* the rows of d: the full form's n */
    for (int b = 0; qru_lsq_batch_q_form(fb) == QRU_Q_FULL && b < cnt; ++b)
        dr = b == 0 || qru_lsq_batch_rows(fb, b) > dr
                 ? qru_lsq_batch_rows(fb, b)
                 : dr;
    put_got(out, dt, m, m, cnt, qru_lsq_batch_get_r, fb);
    put_got(out, dt, dr, r, cnt, qru_lsq_batch_get_d, fb);
    double *rho = malloc(sizeof(double) * ((size_t)cnt * r + 1));
    ck_assert_int_eq(qru_lsq_batch_residual_norms(fb, rho), 0);
    put(out, rho, sizeof(double) * (size_t)cnt * r);
    free(rho);
    free(before);
    qru_matrix_destroy(X);
    free(xh);
}

/* A batch of cnt problems of n x m (r right-hand sides) created (thin:
 * opt->q = QRU_Q_THIN), pa rows added, (thin) the rows k .. k+p-1
 * removed, then solved.  Planted problems: columns 0 and 1 equal (Q-less:
 * the solve fails), or column 0 zero outside the removed rows (thin: the
 * removal is refused). */
static void run_lsq(qru_dtype dt, int thin, int n, int m, int r, int pa,
                    int k, int p, int cnt, int each, unsigned seed,
                    blob *out)
{
    double *Ah = rnd(n, m, cnt, &seed), *bh = rnd(n, r, cnt, &seed);
    double *Uh = rnd(pa, m, cnt, &seed), *Eh = rnd(pa, r, cnt, &seed);
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    for (int b = 0; b < cnt; ++b) {
        if (!planted(b) || m < 2)
            continue;
        double *A = Ah + (size_t)b * n * m, *U = Uh + (size_t)b * pa * m;
        want[b] = -1;
        for (int i = 0; i < n; ++i)
            if (!thin)
                A[i + (size_t)n] = A[i];
            else if (i < k || i >= k + p)
                A[i] = 0;
        for (int i = 0; i < pa; ++i)
            if (!thin)
                U[i + (size_t)pa] = U[i];
            else
                U[i] = 0; /* the removed rows lie among the first n */
    }
    qru_lsq_batch *fb = created(dt, thin, n, m, r, cnt, Ah, bh);
    if (pa > 0) {
        qru_matrix *U = up(dt, pa, m, cnt, Uh), *E = up(dt, pa, r, cnt, Eh);
        ck_assert_int_eq(qru_lsq_batch_add_rows(fb, U, E), 0);
        qru_matrix_destroy(U);
        qru_matrix_destroy(E);
    }
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    char tag[96];
    snprintf(tag, sizeof tag, "%s n %d m %d r %d pa %d k %d p %d count %d",
             thin ? "thin" : "Q-less", n, m, r, pa, k, p, cnt);
    int N = n + pa;
    if (thin) { /* the removal; the failed problems' Q1 unchanged */
        size_t bytes;
        double *qh = malloc(sizeof(double) * ((size_t)N * m * cnt + 1));
        for (size_t e = 0; e < (size_t)N * m * cnt; ++e)
            qh[e] = SENT;
        qru_matrix *Q = up(dt, N, m, cnt, qh);
        ck_assert_int_eq(qru_lsq_batch_get_q(fb, Q), 0);
        void *before = down(Q, &bytes);
        int *rw = malloc(sizeof(int) * ((size_t)cnt + 1));
        for (int b = 0; b < cnt; ++b) { /* each: 0, p or p - 1 rows */
            rw[b] = !each || b % 3 == 1 || planted(b) ? p
                    : b % 3 == 0                      ? 0
                                                      : (p > 1 ? p - 1 : p);
            want[b] = rw[b] ? want[b] : 0;
        }
        int st = qru_lsq_batch_remove_rows_ex(fb, k, p, info,
                                              each ? rw : NULL);
        ck_assert_int_eq(qru_matrix_upload(Q, qh, N), 0);
        ck_assert_int_eq(qru_lsq_batch_get_q(fb, Q), 0);
        verdicts(tag, st, cnt, want, info, Q, before, out);
        for (int b = 0; b < cnt; ++b) {
            int rows = qru_lsq_batch_rows(fb, b);
            ck_assert_int_eq(rows, want[b] ? N : N - rw[b]);
            put(out, &rows, sizeof rows);
        }
        for (int b = 0; b < cnt; ++b)
            want[b] = 0; /* the solve of the rows kept */
        put_mat(out, Q);
        put_got(out, dt, N, r, cnt, qru_lsq_batch_get_residuals, fb);
        free(before);
        free(rw);
        qru_matrix_destroy(Q);
        free(qh);
    }
    put_solved(dt, fb, m, r, cnt, want, info, tag, out);
    qru_lsq_batch_destroy(fb);
    free(info);
    free(want);
    free(Ah);
    free(bh);
    free(Uh);
    free(Eh);
}

/* fb's Q (pages n x qc; Q-less: R, qc x qc) in a new batch *Q whose
 * pages held SENT first (*qh: those host pages, for an upload before the
 * next get); returns the pages as they are before an update. */
static void *q_pages(qru_lsq_batch *fb, qru_dtype dt, int n, int qc, int cnt,
                     double **qh, qru_matrix **Q)
{
    int ql = qru_lsq_batch_q_form(fb) == QRU_Q_NONE;
    n = ql ? qc : n;
    *qh = malloc(sizeof(double) * ((size_t)n * qc * cnt + 1));
    for (size_t e = 0; e < (size_t)n * qc * cnt; ++e)
        (*qh)[e] = SENT;
    *Q = up(dt, n, qc, cnt, *qh);
    ck_assert_int_eq((ql ? qru_lsq_batch_get_r : qru_lsq_batch_get_q)(fb, *Q),
                     0);
    size_t bytes;
    return down(*Q, &bytes);
}

/* The insertion of V after column ka: qru_lsq_batch_add_cols, or where
 * A (the batch's current matrices) is not NULL
 * qru_lsq_batch_add_cols_data with A and b. */
static int insert_v(qru_lsq_batch *fb, int ka, const qru_matrix *V,
                    const qru_matrix *A, const qru_matrix *b, int *info)
{
    return A ? qru_lsq_batch_add_cols_data(fb, ka, V, A, b, info)
             : qru_lsq_batch_add_cols(fb, ka, V, info);
}

/* A batch of cnt problems of n x m (r right-hand sides) created (thin:
 * opt->q = QRU_Q_THIN, the batched thin QR), the columns kc .. kc+pc-1
 * removed; then qa columns inserted after column ka (Q-less: from the
 * current A and b), first from V
 * whose planted problems' columns 0 and 1 are equal (refused: every
 * problem left as it was), then from a V without them; then solved. */
static void run_cols(qru_dtype dt, int thin, int n, int m, int r, int kc,
                     int pc, int ka, int qa, int cnt, unsigned seed,
                     blob *out)
{
    double *Ah = rnd(n, m, cnt, &seed), *bh = rnd(n, r, cnt, &seed);
    qru_lsq_batch *fb = created(dt, thin, n, m, r, cnt, Ah, bh);
    ck_assert_int_eq(qru_lsq_batch_remove_cols(fb, kc, pc), 0);
    int m1 = m - pc;
    put_got(out, dt, m1, m1, cnt, qru_lsq_batch_get_r, fb);
    put_got(out, dt, m1, r, cnt, qru_lsq_batch_get_d, fb);
    if (thin)
        put_got(out, dt, n, m1, cnt, qru_lsq_batch_get_q, fb);
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    char tag[96];
    snprintf(tag, sizeof tag, "%s n %d m %d r %d kc %d pc %d ka %d qa %d "
             "count %d", thin ? "thin" : "Q-less", n, m, r, kc, pc, ka, qa,
             cnt);
    qru_matrix *Ad = NULL, *bd = NULL;
    if (!thin && qa > 0) { /* A without the columns kc .. kc+pc-1 */
        double *A1 = malloc(sizeof(double) * ((size_t)n * m1 * cnt + 1));
        for (int b = 0; b < cnt; ++b)
            for (int j = 0; j < m1; ++j)
                memcpy(A1 + ((size_t)b * m1 + j) * n,
                       Ah + ((size_t)b * m + (j < kc ? j : j + pc)) * n,
                       sizeof(double) * n);
        Ad = up(dt, n, m1, cnt, A1);
        bd = up(dt, n, r, cnt, bh);
        free(A1);
    }
    if (qa > 0) {
        double *Vh = rnd(n, qa, cnt, &seed);
        qru_matrix *V;
        if (qa >= 2 && cnt > 2) { /* problem 2 is planted */
            for (int b = 0; b < cnt; ++b)
                if (planted(b)) {
                    double *Vb = Vh + (size_t)b * n * qa;
                    for (int i = 0; i < n; ++i)
                        Vb[i + (size_t)n] = Vb[i];
                    want[b] = ka + 2;
                }
            V = up(dt, n, qa, cnt, Vh);
            double *qh;
            qru_matrix *Q;
            void *before = q_pages(fb, dt, n, m1, cnt, &qh, &Q);
            int st = insert_v(fb, ka, V, Ad, bd, info);
            ck_assert_int_eq(qru_lsq_batch_cols(fb), m1);
            ck_assert_int_eq(qru_matrix_upload(Q, qh, thin ? n : m1), 0);
            ck_assert_int_eq((thin ? qru_lsq_batch_get_q
                                   : qru_lsq_batch_get_r)(fb, Q),
                             0);
            verdicts(tag, st, cnt, want, info, Q, before, out);
            size_t bytes;
            void *after = down(Q, &bytes);
            ck_assert_msg(!memcmp(before, after, bytes),
                          "%s: a refused insertion changed Q1 (R)", tag);
            free(after);
            free(before);
            qru_matrix_destroy(Q);
            qru_matrix_destroy(V);
            free(qh);
            for (int b = 0; b < cnt; ++b) /* the columns of V distinct */
                if (want[b]) {
                    double *Vb = Vh + (size_t)b * n * qa;
                    for (int i = 0; i < n; ++i)
                        Vb[i + (size_t)n] = qru_test_urand(&seed);
                    want[b] = 0;
                }
        }
        V = up(dt, n, qa, cnt, Vh);
        ck_assert_int_eq(insert_v(fb, ka, V, Ad, bd, info), 0);
        m1 += qa;
        ck_assert_int_eq(qru_lsq_batch_cols(fb), m1);
        put(out, info, sizeof(int) * (size_t)cnt);
        if (thin) {
            put_got(out, dt, n, m1, cnt, qru_lsq_batch_get_q, fb);
            put_got(out, dt, n, r, cnt, qru_lsq_batch_get_residuals, fb);
        }
        qru_matrix_destroy(V);
        free(Vh);
    }
    qru_matrix_destroy(Ad);
    qru_matrix_destroy(bd);
    put_solved(dt, fb, m1, r, cnt, want, info, tag, out);
    free(info);
    free(want);
    qru_lsq_batch_destroy(fb);
    free(Ah);
    free(bh);
}

/* ---- the comparisons ----------------------------------------------------- */

/* One case of the list below into out. */
typedef void (*case_fn)(qru_dtype dt, int c, blob *out);

/* Every setting against the first, bit for bit (a GPU backend, where
 * the knob is unused: the first and the defaults only). */
static void compare(qru_dtype dt, case_fn fn, int ncases, const char *name)
{
    int work0, cpu = qru_context_backend(ctx) == QRU_BACKEND_CPU;
    ck_assert_int_eq(
        qru_ctx_get_tuning(ctx, dt, QRU_TUNE_BATCH_THREAD_WORK, &work0), 0);
    for (int c = 0; c < ncases; ++c) {
        blob ref = {NULL, 0, 0};
        for (int s = 0; s < NSET; ++s) {
            if (!cpu && s != 0 && s != NSET - 1)
                continue;
            ck_assert_int_eq(qru_context_set_tuning(ctx, dt,
                                                    QRU_TUNE_BATCH_THREADS,
                                                    SETTINGS[s][0]),
                             0);
            ck_assert_int_eq(
                qru_ctx_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREAD_WORK,
                                   SETTINGS[s][1] < 0 ? work0
                                                      : SETTINGS[s][1]),
                0);
            blob got = {NULL, 0, 0};
            fn(dt, c, s ? &got : &ref);
            if (s == 0)
                continue;
            ck_assert_msg(got.n == ref.n && !memcmp(got.p, ref.p, ref.n),
                          "%s case %d dt %d: %d threads (work %d) differ "
                          "from one thread",
                          name, c, dt, SETTINGS[s][0], SETTINGS[s][1]);
            free(got.p);
        }
        free(ref.p);
    }
}

/* (what, uplo, n, k, p, sign, count, ext): the rank-1 pass (k = 1,
 * n >= 8), the rotations (k = 3, n < 8), problems in local memory and
 * beyond it on a GPU (n = 100), fewer problems than threads; the _ex
 * calls (ranks, masks) */
static const int CHOL_CASES[][8] = {
    {0, 'L', 16, 1, 0, -1, 37, 0}, {0, 'U', 16, 1, 0, 1, 37, 0},
    {0, 'L', 5, 3, 0, -1, 23, 0},  {0, 'U', 100, 2, 0, -1, 9, 0},
    {0, 'L', 9, 0, 0, 1, 3, 0},    {1, 'L', 12, 6, 2, 0, 37, 0},
    {1, 'U', 30, 0, 1, 0, 11, 0},  {2, 'L', 14, 4, 3, 0, 37, 0},
    {2, 'U', 40, 39, 1, 0, 5, 0},  {0, 'L', 16, 3, 0, -1, 37, 1},
    {0, 'U', 100, 2, 0, 1, 9, 1},  {1, 'U', 12, 5, 2, 0, 23, 1},
    {2, 'L', 14, 4, 3, 0, 37, 1},
};

static void chol_case(qru_dtype dt, int c, blob *out)
{
    const int *a = CHOL_CASES[c];
    run_chol(dt, a[0], (char)a[1], a[2], a[3], a[4], a[5], a[6], a[7],
             1000u + 17u * (unsigned)c, out);
}

/* (thin, n, m, r, pa, k, p, count, each); products with Q1 of
 * 1100 x 60 x 4, which a threaded OpenBLAS spreads over its threads;
 * each: qru_lsq_batch_remove_rows_ex, 0, p or p - 1 rows a problem */
static const int LSQ_CASES[][9] = {
    {0, 30, 6, 1, 2, 0, 0, 37, 0},    {0, 0, 20, 2, 25, 0, 0, 23, 0},
    {0, 200, 20, 1, 1, 0, 0, 6, 0},   {1, 40, 8, 2, 3, 5, 4, 37, 0},
    {1, 120, 10, 1, 1, 0, 2, 13, 0},  {1, 25, 3, 1, 0, 20, 5, 4, 0},
    {1, 1100, 60, 1, 2, 500, 4, 5, 0}, {1, 40, 8, 2, 3, 5, 4, 37, 1},
};

static void lsq_case(qru_dtype dt, int c, blob *out)
{
    const int *a = LSQ_CASES[c];
    run_lsq(dt, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
            2000u + 31u * (unsigned)c, out);
}

/* (thin, n, m, r, kc, pc, ka, qa, count): Q-less and thin removals,
 * insertions at the front, the middle and the end (the fifth: products
 * with Q1 of 1100 x 60; the last two Q-less, from A and b) */
static const int COL_CASES[][9] = {
    {0, 30, 8, 2, 2, 3, 0, 0, 37},    {1, 40, 8, 2, 0, 2, 3, 2, 37},
    {1, 120, 12, 1, 5, 1, 11, 4, 13}, {1, 25, 4, 1, 3, 1, 0, 1, 4},
    {1, 1100, 60, 1, 10, 4, 30, 3, 5}, {0, 40, 8, 2, 0, 2, 3, 2, 37},
    {0, 120, 12, 1, 5, 1, 11, 4, 13},
};

static void col_case(qru_dtype dt, int c, blob *out)
{
    const int *a = COL_CASES[c];
    run_cols(dt, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
             3000u + 43u * (unsigned)c, out);
}

/* A batch of cnt problems of n x m (r right-hand sides) created in the
 * form q, then modified by U V' (k columns; ext: the _ex call, problem b
 * left out where b mod 4 = 1), the planted problems' A + U V' losing
 * column 0 (U(:,0) = -A(:,0), V(:,0) = e_0: refused at column 1); then
 * solved. */
static void run_modify(qru_dtype dt, int q, int n, int m, int r, int k,
                       int cnt, int ext, unsigned seed, blob *out)
{
    double *Ah = rnd(n, m, cnt, &seed), *bh = rnd(n, r, cnt, &seed);
    double *Uh = rnd(n, k, cnt, &seed), *Vh = rnd(m, k, cnt, &seed);
    int *want = calloc((size_t)cnt + 1, sizeof(int));
    int *mask = malloc(sizeof(int) * ((size_t)cnt + 1));
    for (int b = 0; b < cnt; ++b) {
        mask[b] = !ext || b % 4 != 1;
        if (!planted(b) || !mask[b])
            continue;
        want[b] = 1;
        for (int i = 0; i < n; ++i)
            Uh[(size_t)b * n * k + i] = -Ah[(size_t)b * n * m + i];
        for (int j = 0; j < m; ++j)
            Vh[(size_t)b * m * k + j] = j == 0;
        for (int c = 1; c < k; ++c) /* V(0, c) = 0: column 0 lost */
            Vh[(size_t)b * m * k + (size_t)c * m] = 0;
    }
    qru_lsq_batch *fb = NULL;
    {
        qru_matrix *A = up(dt, n, m, cnt, Ah), *bb = up(dt, n, r, cnt, bh);
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = q;
        ck_assert_int_eq(qru_lsq_batch_create_ex(ctx, A, bb, &opt, &fb), 0);
        qru_matrix_destroy(A);
        qru_matrix_destroy(bb);
    }
    int qc = q == QRU_Q_FULL ? n : m;
    put_got(out, dt, n, qc, cnt, qru_lsq_batch_get_q, fb);
    double *qh;
    qru_matrix *Q;
    void *before = q_pages(fb, dt, n, qc, cnt, &qh, &Q);
    qru_matrix *U = up(dt, n, k, cnt, Uh), *V = up(dt, m, k, cnt, Vh);
    int *info = malloc(sizeof(int) * ((size_t)cnt + 1));
    int st = qru_lsq_batch_modify_ex(fb, U, V, info, ext ? mask : NULL);
    char tag[96];
    snprintf(tag, sizeof tag, "modify %s n %d m %d r %d k %d count %d%s",
             q == QRU_Q_FULL ? "full" : "thin", n, m, r, k, cnt,
             ext ? " (mask)" : "");
    ck_assert_int_eq(qru_matrix_upload(Q, qh, n), 0);
    ck_assert_int_eq(qru_lsq_batch_get_q(fb, Q), 0);
    verdicts(tag, st, cnt, want, info, Q, before, out);
    put_mat(out, Q);
    for (int b = 0; b < cnt; ++b)
        want[b] = 0;
    put_solved(dt, fb, m, r, cnt, want, info, tag, out);
    qru_lsq_batch_destroy(fb);
    qru_matrix *ms[] = {Q, U, V};
    for (int t = 0; t < 3; ++t)
        qru_matrix_destroy(ms[t]);
    free(before);
    free(qh);
    free(info);
    free(mask);
    free(want);
    free(Ah);
    free(bh);
    free(Uh);
    free(Vh);
}

/* (q, n, m, r, k, count, ext): the two forms, k = 1 and more, masks; the
 * full form's creation with n past 128 */
static const int MOD_CASES[][7] = {
    {QRU_Q_THIN, 30, 6, 2, 2, 37, 0}, {QRU_Q_FULL, 30, 6, 2, 2, 37, 1},
    {QRU_Q_THIN, 120, 12, 1, 5, 13, 1}, {QRU_Q_FULL, 140, 20, 1, 1, 6, 0},
};

static void mod_case(qru_dtype dt, int c, blob *out)
{
    const int *a = MOD_CASES[c];
    run_modify(dt, a[0], a[1], a[2], a[3], a[4], a[5], a[6],
               4000u + 17u * (unsigned)c, out);
}

/* The groups of cases: the Cholesky batches, the least-squares rows,
 * the least-squares columns, the modifications (both forms with Q). */
static const struct {
    case_fn fn;
    int ncases;
    const char *name;
} GROUPS[] = {
    {chol_case, (int)(sizeof CHOL_CASES / sizeof CHOL_CASES[0]), "chol"},
    {lsq_case, (int)(sizeof LSQ_CASES / sizeof LSQ_CASES[0]), "lsq"},
    {col_case, (int)(sizeof COL_CASES / sizeof COL_CASES[0]), "cols"},
    {mod_case, (int)(sizeof MOD_CASES / sizeof MOD_CASES[0]), "modify"},
};

/* _i: the group (_i / 2) and the element type (_i % 2) */
START_TEST(test_threads_cases)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    compare(qru_test_dtype(ctx, _i % 2), GROUPS[_i / 2].fn,
            GROUPS[_i / 2].ncases, GROUPS[_i / 2].name);
}
END_TEST

/* A context whose batches started threads, forked: the child's batches
 * run on threads of its own, give the parent's pages bit for bit, and
 * its context is destroyed (CPU backend; the GPU runtimes do not survive
 * a fork).  The child uses no Check assertion. */
START_TEST(test_threads_fork)
{
    if (qru_test_backend() != QRU_BACKEND_CPU)
        return;
    qru_dtype dt = QRU_DOUBLE;
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREADS, 2), 0);
    ck_assert_int_eq(
        qru_ctx_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREAD_WORK, 0), 0);
    blob ref = {NULL, 0, 0};
    chol_case(dt, 0, &ref);
    usleep(20000); /* the workers asleep on their condition variable */
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        blob got = {NULL, 0, 0};
        chol_case(dt, 0, &got);
        int same = got.n == ref.n && !memcmp(got.p, ref.p, ref.n);
        qru_context_destroy(ctx);
        _exit(same ? 0 : 3);
    }
    int status = 0, waited = 0;
    for (int t = 0; t < 600 && !(waited = waitpid(pid, &status, WNOHANG));
         ++t)
        usleep(100000);
    if (!waited)
        kill(pid, SIGKILL);
    ck_assert_msg(waited == pid, "the forked child did not finish");
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "the forked child's batch: status %d", status);
    chol_case(dt, 0, &ref); /* the parent's threads still serve */
    free(ref.p);
}
END_TEST

/* The batched ops' workspace cut to 1 KiB (QRU_TUNE_BATCH_WORK_KIB, a
 * private knob): the problems that need work in device memory run one
 * or a few a call, with the same results bit for bit as in the one call
 * of the default, in as many backend calls or more: more in some case of
 * the thin groups (lsq, cols), whose problems always take work (every
 * backend; _i as test_threads_cases). */
START_TEST(test_work_parts)
{
    if (_i % 2 >= qru_test_ndtypes(ctx))
        return;
    qru_dtype dt = qru_test_dtype(ctx, _i % 2);
    int kib0, more = 0;
    ck_assert_int_eq(
        qru_ctx_get_tuning(ctx, dt, QRU_TUNE_BATCH_WORK_KIB, &kib0), 0);
    for (int c = 0; c < GROUPS[_i / 2].ncases; ++c) {
        blob ref = {NULL, 0, 0}, got = {NULL, 0, 0}, again = {NULL, 0, 0};
        qru_context_stats s0, s1;
        GROUPS[_i / 2].fn(dt, c, &ref);
        ck_assert_int_eq(
            qru_ctx_set_tuning(ctx, dt, QRU_TUNE_BATCH_WORK_KIB, 1), 0);
        ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
        GROUPS[_i / 2].fn(dt, c, &got);
        ck_assert_int_eq(qru_context_get_stats(ctx, &s1), 0);
        ck_assert_int_eq(
            qru_ctx_set_tuning(ctx, dt, QRU_TUNE_BATCH_WORK_KIB, kib0), 0);
        /* the calls of the one call counted on a second run (the first
         * may set up what the context keeps) */
        ck_assert_int_eq(qru_context_reset_stats(ctx), 0);
        GROUPS[_i / 2].fn(dt, c, &again);
        ck_assert_int_eq(qru_context_get_stats(ctx, &s0), 0);
        ck_assert(again.n == ref.n && !memcmp(again.p, ref.p, ref.n));
        ck_assert_msg(got.n == ref.n && !memcmp(got.p, ref.p, ref.n),
                      "%s case %d dt %d: the batch cut by 1 KiB of work "
                      "differs from its one call",
                      GROUPS[_i / 2].name, c, dt);
        ck_assert_msg(s1.calls >= s0.calls,
                      "%s case %d dt %d: %lld calls cut, %lld in one",
                      GROUPS[_i / 2].name, c, dt, s1.calls, s0.calls);
        more += s1.calls > s0.calls;
        free(ref.p);
        free(got.p);
        free(again.p);
    }
    if (!strcmp(GROUPS[_i / 2].name, "lsq") ||
        !strcmp(GROUPS[_i / 2].name, "cols"))
        ck_assert_msg(more > 0, "%s dt %d: no case was cut into more calls",
                      GROUPS[_i / 2].name, dt);
}
END_TEST

/* The knob's default and range. */
START_TEST(test_threads_knob)
{
    qru_dtype dt = qru_test_dtype(ctx, 0);
    int v = -1;
    ck_assert_int_eq(
        qru_context_get_tuning(ctx, dt, QRU_TUNE_BATCH_THREADS, &v), 0);
    ck_assert_int_eq(v, 0);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREADS, -1), -4);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREADS, 257), -4);
    ck_assert_int_eq(
        qru_context_set_tuning(ctx, dt, QRU_TUNE_BATCH_THREADS, 256), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("batch_threads");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_threads_cases, 0,
                        2 * (int)(sizeof GROUPS / sizeof GROUPS[0]));
    tcase_add_loop_test(tc, test_work_parts, 0,
                        2 * (int)(sizeof GROUPS / sizeof GROUPS[0]));
    tcase_add_test(tc, test_threads_knob);
    tcase_add_test(tc, test_threads_fork);
    suite_add_tcase(s, tc);
    return qru_test_main(s);
}
