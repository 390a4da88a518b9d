/*
 * What the solvers on the updates (src/solvers/) share.
 */
#ifndef QRU_SOLVER_H
#define QRU_SOLVER_H

#include <limits.h>

#include "../update/update.h"

/* The first checks of a solver on A (argument 2, called name): a usable
 * matrix of the context, n, m >= 1 (returns -2 from the public routine). */
#define QRU_SOLVER_ARG_A(ctx, name, A)                                        \
    do {                                                                       \
        QRU_ARG(NULL, 1, ctx, "ctx is NULL");                                  \
        QRU_ARG_MAT(ctx, 2, name, A, A ? A->dtype : QRU_DOUBLE);               \
        QRU_CHECK(ctx, qru_check_real(A->dtype));                              \
        QRU_ARG(ctx, 2, A->rows >= 1 && A->cols >= 1,                          \
                "%s is %d x %d, but it needs rows >= 1 and cols >= 1", name,   \
                A->rows, A->cols);                                             \
    } while (0)

/* *info (when not NULL) := the steps, the active columns, the residual
 * norm, the columns dropped for good, the form (1 or 2, as
 * qru_solver_info's). */
static inline void qru_solver_report(qru_solver_info *info, int steps,
                                     int active, double rnorm, int dropped,
                                     int form)
{
    if (info) {
        info->iterations = steps;
        info->active = active;
        info->rnorm = rnorm;
        info->dropped = dropped;
        info->form = form;
    }
}

/* The start of a solve on A (n x m) and b (n x 1): a device workspace of
 * delems elements of A's type at *dev (dev->h NULL when it fails), A' b
 * formed in its first m elements and read into out (m doubles) through
 * the host staging hbuf (m elements of the type; one host wait).
 * Returns 0 or a library status. */
static inline int qru_solver_start(qru_context *ctx, const qru_matrix *A,
                                   const qru_matrix *b, size_t delems,
                                   qru_ptr *dev, void *hbuf, double *out)
{
    const qru_backend_ops *o = ctx->ops;
    qru_dtype dt = A->dtype;
    int n = A->rows, m = A->cols;
    dev->h = NULL;
    dev->off = 0;
    int st = delems > (size_t)INT_MAX
                 ? qru_fail(QRU_ERR_ALLOC, "%zu elements of workspace",
                            delems)
                 : 0;
    if (!st)
        st = o->mem_alloc(ctx, qru_dtype_size(dt) * delems, &dev->h);
    if (st) {
        dev->h = NULL;
        return st;
    }
    QRU_TRY(o->gemm(ctx, dt, 'T', 'N', m, 1, n, 1.0, A->p, A->ld, b->p,
                    b->ld, 0.0, *dev, m));
    QRU_TRY(o->download(ctx, dt, m, 1, *dev, m, hbuf, m));
    for (int j = 0; j < m; ++j)
        out[j] = dt == QRU_DOUBLE ? ((const double *)hbuf)[j]
                                  : (double)((const float *)hbuf)[j];
    return 0;
}

/* Appends column t of A to *f, the thin factorisation of the active
 * columns (created from A(:, t) and b when *f is NULL, with room for
 * kmax columns in steps of 32; QRU_UPDATE_FAST).  Returns 0, 1 when the
 * rank rule refuses the column (*f unchanged), or a library status. */
static inline int qru_solver_add_col(qru_context *ctx, const qru_matrix *A,
                                     const qru_matrix *b, int t, int kmax,
                                     qru_lsq **f)
{
    qru_matrix col = *A; /* a header over A(:, t), freed with nothing */
    col.cols = 1;
    col.p = qru_ptr_at(A->p, A->ld, 0, t);
    col.owned = 0;
    if (!*f) {
        qru_lsq_options opt;
        qru_lsq_options_init(&opt);
        opt.q = QRU_Q_THIN;
        opt.col_capacity = kmax < 32 ? kmax : 32;
        int st = qru_lsq_create(ctx, &col, b, &opt, f);
        if (st > 0) {
            qru_lsq_destroy(*f);
            *f = NULL;
            return 1;
        }
        QRU_TRY(st);
        (*f)->upd_alg = QRU_UPDATE_FAST; /* updates, never refactorise */
        return 0;
    }
    int st = qru_upd_run(ctx, *f,
                         (qru_upd_req){QRU_UPD_OP_ADD_COLS, (*f)->m, 1, &col,
                                       NULL, NULL, NULL, 0, NULL, -1});
    return st > 0 ? 1 : st;
}

/* Removes the column at position i of *f (the last one: *f destroyed,
 * NULL). */
static inline int qru_solver_remove_col(qru_context *ctx, qru_lsq **f, int i)
{
    if ((*f)->m == 1) {
        qru_lsq_destroy(*f);
        *f = NULL;
        return 0;
    }
    return qru_upd_run(ctx, *f,
                       (qru_upd_req){QRU_UPD_OP_REMOVE_COLS, i, 1, NULL, NULL,
                                     NULL, NULL, 0, NULL, -1});
}

/* The Gram active set of the solvers' Gram forms (src/solvers/gram_set.c,
 * whose header describes it): G = X' X, the active columns in slots of
 * Gs = G(:, A) and of the inverse factor W (W W' = G(A, A)^-1), the
 * right-hand side S by slot.  The caller sets ctx, dt, m, kmax and the
 * host arrays (slot: kmax ints, sused: kmax chars, smir: kmax doubles,
 * hbuf: staging of m + 2 + kmax elements of dt), then qru_gram_reset. */
typedef struct qru_gram_set {
    qru_context *ctx;
    qru_dtype dt;
    int m, kmax;
    int gk;       /* active columns */
    int hw;       /* slots < hw have been used */
    int last;     /* the slot appended last while W is as it left it, or
                     -1 */
    int flagged;  /* the pivot's failure flag is set on the device */
    int *slot;    /* slot[i]: the slot of the i-th active column */
    char *sused;  /* sused[q]: slot q holds a column */
    double *smir; /* the device's S, by slot */
    void *hbuf;
    qru_ptr dev;  /* G (m x m), Gs (m x kmax), W (kmax x kmax), S, V, T, H
                     (kmax each), OUT: [corr (m); d; flag; z (kmax)] */
} qru_gram_set;

/* The pointers of its device memory. */
typedef struct qru_gram_ptrs {
    qru_ptr G, Gs, W, S, V, T, H, out;
} qru_gram_ptrs;
qru_gram_ptrs qru_gram_ptrs_of(const qru_gram_set *g);
/* The elements of the device memory of a Gram set of m columns and
 * kmax slots. */
size_t qru_gram_elems(int m, int kmax);
/* The host state emptied (no column, S mirrored as zero). */
void qru_gram_reset(qru_gram_set *g);
/* Its memory, G = X' X, Gs, W and S zero, the pivot's flag 0 (no host
 * wait; no memory held where the allocation fails). */
int qru_gram_start(qru_gram_set *g, const qru_matrix *X);
void qru_gram_free(qru_gram_set *g);
/* Appends column t as the g->gk-th active column: its slot the lowest
 * free one, W bordered (gram_border, no wait); its pivot comes with the
 * next solve. */
int qru_gram_add(qru_gram_set *g, int t);
/* The host's part of qru_gram_add: *slot := the lowest free slot, taken
 * by the g->gk-th active column (the pivot's flag cleared where it was
 * set; the caller borders the column on). */
int qru_gram_claim(qru_gram_set *g, int *slot);
/* Removes the i-th active column (the one appended last: no wait; any
 * other: a reflection of W, one wait). */
int qru_gram_remove(qru_gram_set *g, int i);
/* S := rhs (by active position) where it changed: every changed slot
 * but the last by a laset; the last in *qs (-1: none) with its value
 * *sv, for the solving op to set. */
int qru_gram_rhs(qru_gram_set *g, const double *rhs, int *qs, double *sv);
/* S := rhs (by active position, set where it changed), z = W (W' S),
 * corr = G(:, A) z: corr (m), the last pivot *d and z (g->gk, by active
 * position) downloaded in one wait. */
int qru_gram_solve(qru_gram_set *g, const double *rhs, double *corr,
                   double *d, double *z);
/* The dry runs' state of k active columns in slots 0 .. k-1 (W as it
 * was allocated: the plan prices the calls, not the numbers). */
void qru_gram_fill(qru_gram_set *g, int k);

/* The choice of a solver's form (the thin QR or the Gram form) by the
 * dry-run plans (qru_plan_run) of its parts: the start (k < 0: A' b, the
 * Gram form's G, then the solver's first column and solve) and a step
 * from k columns, whose state is made first, unpriced (the Gram slots,
 * or the thin factorisation of A(:, 0:k)).  s is the solver's state,
 * delems its device workspace (qru_solver_start). */
typedef struct qru_gram_part {
    const void *s;
    size_t delems;
    int gram, k;
    double *sec; /* receives the part's seconds */
} qru_gram_part;

/* A part's state on the dry context ctx (A, b: headers of it): the
 * start's workspace at *dev (A' b into scratch, m doubles, through
 * hbuf), the Gram form's start in g (its host arrays those of the
 * solver), and for k > 0 the k columns (the thin form's in *f); *t0 the
 * seconds so far (what the step is priced from). */
int qru_gram_part_begin(qru_context *ctx, const qru_gram_part *p,
                        const qru_matrix *A, const qru_matrix *b, int kmax,
                        qru_ptr *dev, void *hbuf, double *scratch,
                        qru_gram_set *g, qru_lsq **f, double *t0);
/* *p->sec := the part's seconds from t0, its state freed; returns st
 * where it is a library status (< 0), else 0. */
int qru_gram_part_end(qru_context *ctx, const qru_gram_part *p, int st,
                      double t0, qru_ptr dev, qru_gram_set *g, qru_lsq *f);
/* *gram := the form a solver of m columns and kmax slots runs with the
 * tuning value knob (0 auto, 1 the thin QR form, 2 the Gram form): with
 * auto, in double, where the Gram form's memory is within omp_gram_mib
 * and A' A cannot overflow (amax: the largest column norm), the faster
 * of the two plans (fn run on p: the start and steps - 1 steps at the
 * middle one).  The dry runs write the solver's host state. */
int qru_gram_choose(qru_context *ctx, qru_dtype dt, int knob, int m,
                    int kmax, int steps, double amax, qru_plan_fn fn,
                    qru_gram_part *p, int *gram);

#endif
