/*
 * The OpenCL backend's cost model, measured on its device.
 *
 * The plans (src/plan.c) price every op of a strategy with the context's
 * qru_cost_model (src/qru_tuning.h), and QRU_UPDATE_AUTO runs the cheaper
 * plan.  The constants of the backend's table (opencl_backend.c) were
 * fitted to PoCL on a 2-core CPU; a GPU behind a vendor driver is another
 * machine (a launch of 5-10 us, a host wait of 10-50 us, TB/s, kernels at
 * 100 GFLOP/s to TFLOP/s), and on it those constants chose the slower path
 * for small updates.  So a context on a device that the constants were
 * not fitted on (a GPU or an accelerator) measures the terms the plans use
 * when it is created, and its tuning blocks take them; on a CPU device
 * the constants stay.  The private knob cost_calibrate (QRU_COST_CALIBRATE,
 * read at creation) forces it: on (the tests, on PoCL) or off.
 *
 * Once per device and process: the first context's values are kept in a
 * table under a lock, and every later context on the device takes them
 * (values out of bounds are not measured again: those contexts keep the
 * constants; after a failed op, a build or an allocation of that
 * context, the next context measures).  It runs on a queue of its own
 * in the context's OpenCL context, so a queue the caller gave sees none
 * of its work or waits.  On a GPU it takes a few milliseconds, plus the
 * builds of the kernels and of CLBlast's gemm in each element type (which
 * the first ops of the context would pay otherwise).
 *
 * Each time is the fastest of a few runs (load only adds time), each run
 * a batch of r calls and one clFinish, priced as the model prices it:
 * per_wait + r (per_call + the op's own time).
 *  - per_call: 64 launches of a one-element laset against one: the time
 *    a further call adds (the host's enqueue or the device's launch gap,
 *    the longer), as a chain of ops sees it;
 *  - per_wait: one such launch and clFinish, less per_call (the round
 *    trip of a host wait: a download, a norm, a verdict);
 *  - bandwidth: the copy op on a 64 MiB float matrix (8 MiB on a CPU
 *    device), whose elements the model counts twice (read and write);
 *  - rate_upd: givens_apply on 256 rotations of 8192 pairs (64 x 4096 on
 *    a CPU device): the update kernels are element-wise or reduction
 *    kernels of its kind, and the model prices them as their flops at
 *    rate_upd or their bytes at the bandwidth, the larger;
 *  - blas3_call: the gemm op (CLBlast) on an update's small product
 *    (32 x 2 = (32 x 32)' (32 x 2)): its time less per_call and its work
 *    at rate_upd (CLBlast runs helper kernels and host-side setup a call:
 *    40-55 us a call on an H200's OpenCL, priced at 6 us without it);
 *  - rate_gemm: the gemm op (CLBlast) as the blocked QR and the updates
 *    call it (blas3_call taken off each call), a block reflector of 32 columns applied to 512 columns of
 *    2048 rows (256 of 1024 on a CPU device): S = W' A, then Y S (the
 *    model also uses it for syrk, trsm and wy_left; CLBlast on PoCL runs
 *    these shapes at about half its 256^3 rate, and priced at that rate
 *    the refactorisations looked cheaper than they are);
 *  - col_step: panel_qr of a panel that fits in local memory (nb <= 32
 *    columns and 32 rows more, the update's panels): its time less
 *    per_call and the model's flops / bytes term, a column;
 *  - panel_rows: panel_qr of 1024 x 32 (the refactorisation's tall panels,
 *    the global-memory kernel unless it fits on chip): where its column
 *    steps cost f >= 1.25 times col_step, the rows from which the model's
 *    2 + log2(rows / panel_rows) / 2 gives f (within the two panels'
 *    rows); else 0 (no limit);
 *  - sweep_step: givens_sweeps of L = 32, p = 4 over 256 rows (one work-
 *    group, local memory where it fits): its time less per_call and the
 *    flops / bytes term, a step (L + p - 1 steps).
 * The panels and sweeps run on data reset by a laset in the same batch,
 * whose modelled time is taken off.  per_call, per_wait and the bandwidth
 * once (float), the rest in each element type (double only where the
 * device has fp64).  rate_qr, qr_elem and qr_col are not measured: no
 * OpenCL op is priced with them (the backend has no vendor QR or
 * Cholesky; a refactorisation is qru's own, panel_qr and gemm, priced
 * above).  A value outside wide plausible bounds (a broken timer or
 * device) leaves the constants.
 */
#include <math.h>
#include <pthread.h>

#include "ocl_internal.h"

/* ops of the measurement */
enum { C_TINY, C_COPY, C_ROT, C_GEMM_S, C_GEMM, C_PANEL_S, C_PANEL_T,
       C_SWEEPS };

typedef struct cal {
    qru_context *ctx;
    qru_dtype dt;
    int big;        /* sizes of a GPU or accelerator, else of a CPU */
    void *buf;      /* one buffer for every array */
    size_t copy_n;  /* float elements of the copied matrix */
    int rot_cnt, rot_len, g_rows, g_nc, ms, nbs, mt, nbt, swL, swp, swr;
    size_t o_x, o_cs, o_a, o_b, o_c, o_d, o_y, o_w, o_tau, o_work; /* elems */
    double per_call, per_wait, bw; /* measured so far */
} cal;

enum {
    CAL_TILE = 1024,
    CAL_GEMM_NB = 32,
    CAL_SW_L = 32,
    CAL_SW_P = 4,
    CAL_SW_ROWS = 256
};

static qru_ptr at(const cal *c, size_t off)
{
    qru_ptr p = {c->buf, off};
    return p;
}

/* One call of op k (the panels and sweeps after the laset that resets
 * their data). */
static int cal_op(cal *c, int k)
{
    qru_context *ctx = c->ctx;
    qru_dtype dt = c->dt;
    int st;
    switch (k) {
    case C_TINY:
        return ocl_laset(ctx, QRU_FLOAT, 'A', 1, 1, 0.0, 1.0, at(c, 0), 1);
    case C_COPY: {
        int n = (int)(c->copy_n / CAL_TILE);
        return ocl_copy(ctx, QRU_FLOAT, CAL_TILE, n, at(c, 0), CAL_TILE,
                        at(c, c->copy_n), CAL_TILE);
    }
    case C_ROT: /* rotation t on columns 2t, 2t + 1 of a len x 2 cnt X */
        return ocl_givens_apply(ctx, dt, c->rot_cnt, c->rot_len, at(c, c->o_cs),
                                at(c, c->o_x), 2 * c->rot_len, c->rot_len, 1);
    case C_GEMM_S: /* an update's small product: nb x 2 = (nb x nb)' B */
        return ocl_gemm(ctx, dt, 'T', 'N', CAL_GEMM_NB, 2, CAL_GEMM_NB, 1.0,
                        at(c, c->o_b), CAL_GEMM_NB, at(c, c->o_a),
                        CAL_GEMM_NB, 0.0, at(c, c->o_c), CAL_GEMM_NB);
    case C_GEMM: { /* S = W' A, D = Y S: A rows x nc, W = Y rows x nb */
        int rows = c->g_rows, nc = c->g_nc, nb = CAL_GEMM_NB;
        if ((st = ocl_gemm(ctx, dt, 'T', 'N', nb, nc, rows, 1.0,
                           at(c, c->o_b), rows, at(c, c->o_a), rows, 0.0,
                           at(c, c->o_c), nb)))
            return st;
        return ocl_gemm(ctx, dt, 'N', 'N', rows, nc, nb, 1.0, at(c, c->o_b),
                        rows, at(c, c->o_c), nb, 0.0, at(c, c->o_d), rows);
    }
    case C_PANEL_S:
    case C_PANEL_T: {
        int m = k == C_PANEL_S ? c->ms : c->mt;
        int nb = k == C_PANEL_S ? c->nbs : c->nbt;
        if ((st = ocl_laset(ctx, dt, 'A', m, nb, 0.5, 1.0, at(c, c->o_a), m)))
            return st;
        return ocl_panel_qr(ctx, dt, m, nb, at(c, c->o_a), m, at(c, c->o_y),
                            m, at(c, c->o_w), m, at(c, c->o_tau),
                            at(c, c->o_work));
    }
    default: /* C_SWEEPS: X is swr x (L + p), column-major */
        if ((st = ocl_laset(ctx, dt, 'A', c->swr, c->swL + c->swp, 0.5, 1.0,
                            at(c, c->o_a), c->swr)))
            return st;
        return ocl_givens_sweeps(ctx, dt, c->swL, c->swp, 1, at(c, c->o_a), 1,
                                 c->swr, c->swr, 0,
                                 at(c, c->o_cs + 2 * (size_t)c->rot_cnt));
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The fastest of `trials` batches of r calls of op k, each ended by one
 * clFinish (seconds, in *t). */
static int batch(cal *c, int k, int r, int trials, double *t)
{
    cl_command_queue q = IMPL(c->ctx)->q;
    double best = INFINITY;
    int st = ocl_cl_status(clFinish(q));
    for (int i = 0; !st && i < trials; ++i) {
        double t0 = now();
        for (int j = 0; !st && j < r; ++j)
            st = cal_op(c, k);
        if (!st)
            st = ocl_cl_status(clFinish(q));
        double dt = now() - t0;
        if (dt < best)
            best = dt;
    }
    *t = best;
    return st;
}

/* An op's own time in a batch of r calls that took t (the calls' and the
 * wait's share taken off; calls: backend calls a batch item makes), at
 * least a tenth of what the item took, so that a rate stays finite. */
static double own_time(const cal *c, double t, int r, int calls)
{
    double item = t / r;
    double own = (t - c->per_wait) / r - calls * c->per_call;
    return own > 0.1 * item ? own : 0.1 * item;
}

/* The model's flops / bytes term of an op (the rate of its kind). */
static double work_term(const cal *c, double flops, double rate, double elems)
{
    double tf = rate > 0.0 ? flops / rate : 0.0;
    double tm = elems * (double)qru_dtype_size(c->dt) / c->bw;
    return tf > tm ? tf : tm;
}

/* per_call, per_wait and the bandwidth. */
static int measure_common(cal *c)
{
    int st;
    double t1, tn, tc;
    enum { N = 64 };
    if ((st = batch(c, C_TINY, 1, 8, &t1)) ||
        (st = batch(c, C_TINY, N, 3, &tn)))
        return st;
    c->per_call = (tn - t1) / (N - 1);
    if (c->per_call < 0.05 * t1) /* the wait is all the batch's time */
        c->per_call = 0.05 * t1;
    c->per_wait = t1 > c->per_call ? t1 - c->per_call : 0.0;
    int r = c->big ? 4 : 2;
    if ((st = batch(c, C_COPY, r, 3, &tc)))
        return st;
    c->bw = 2.0 * (double)c->copy_n * sizeof(float) / own_time(c, tc, r, 1);
    return 0;
}

/* The rates and steps of c->dt into *m (per_call, per_wait and the
 * bandwidth already there). */
static int measure_dtype(cal *c, qru_cost_model *m)
{
    int st, r = c->big ? 4 : 2, tr = c->big ? 3 : 2;
    double t;
    /* rate_upd */
    if ((st = batch(c, C_ROT, r, tr, &t)))
        return st;
    double pairs = (double)c->rot_cnt * c->rot_len;
    double own = own_time(c, t, r, 1);
    m->rate_upd = 6.0 * pairs / own;
    /* blas3_call: a small gemm's own time less its work at rate_upd (a
     * lower bound of the BLAS's rate, so the term is not overstated) */
    if ((st = batch(c, C_GEMM_S, 4 * r, tr, &t)))
        return st;
    double nb = CAL_GEMM_NB;
    m->blas3_call = own_time(c, t, 4 * r, 1) -
                    work_term(c, 4.0 * nb * nb, m->rate_upd, nb * nb + 4 * nb);
    if (m->blas3_call < 0.0)
        m->blas3_call = 0.0;
    /* rate_gemm: two calls, blas3_call each taken off */
    if ((st = batch(c, C_GEMM, r, tr, &t)))
        return st;
    double tg = own_time(c, t, r, 2) - 2.0 * m->blas3_call;
    if (tg < 0.1 * own_time(c, t, r, 2))
        tg = 0.1 * own_time(c, t, r, 2);
    m->rate_gemm = 4.0 * c->g_rows * (double)c->g_nc * CAL_GEMM_NB / tg;
    /* col_step: the panel less its laset and the flops / bytes term */
    double lap, steps_t;
    if (c->nbs > 0) {
        if ((st = batch(c, C_PANEL_S, r, tr, &t)))
            return st;
        double ms = c->ms, nbs = c->nbs;
        lap = ms * nbs * (double)qru_dtype_size(c->dt) / c->bw;
        double s = own_time(c, t, r, 2) - lap -
                   work_term(c, 4.0 * ms * nbs * nbs, m->rate_upd,
                             3.0 * ms * nbs);
        m->col_step = s > 0.0 ? s / nbs : 0.0;
    }
    if ((st = batch(c, C_PANEL_T, r, tr, &t)))
        return st;
    double mt = c->mt, nbt = c->nbt;
    lap = mt * nbt * (double)qru_dtype_size(c->dt) / c->bw;
    steps_t = own_time(c, t, r, 2) - lap -
              work_term(c, 4.0 * mt * nbt * nbt, m->rate_upd, 3.0 * mt * nbt);
    if (steps_t < 0.0)
        steps_t = 0.0;
    if (c->nbs <= 0 || m->col_step <= 0.0) { /* the tall panel alone */
        m->col_step = steps_t / nbt;
        m->panel_rows = 0.0;
    } else {
        /* f column steps of col_step each column: 2 + log2(mt / pr) / 2 */
        double f = steps_t / (nbt * m->col_step);
        double pr = mt / exp2(2.0 * (f - 2.0));
        m->panel_rows = f < 1.25 ? 0.0 : pr < c->ms ? c->ms : pr > mt ? mt : pr;
    }
    /* sweep_step */
    if ((st = batch(c, C_SWEEPS, r, tr, &t)))
        return st;
    double L = c->swL, p = c->swp, nr = c->swr;
    double sw = own_time(c, t, r, 2) -
                nr * (L + p) * (double)qru_dtype_size(c->dt) / c->bw -
                work_term(c, 6.0 * L * p * nr, m->rate_upd, 4.0 * L * p * nr);
    m->sweep_step = sw > 0.0 ? sw / (L + p - 1.0) : 0.0;
    return 0;
}

static int in(double v, double lo, double hi)
{
    return isfinite(v) && v >= lo && v <= hi;
}

/* Wide bounds: a value outside them is a broken measurement. */
static int plausible(const qru_cost_model *m)
{
    return in(m->per_call, 1e-8, 1e-2) && in(m->per_wait, 0.0, 0.1) &&
           in(m->bandwidth, 1e8, 1e14) && in(m->rate_upd, 1e6, 1e16) &&
           in(m->rate_gemm, 1e6, 1e16) && in(m->col_step, 0.0, 1e-2) &&
           in(m->sweep_step, 0.0, 1e-2) && in(m->panel_rows, 0.0, 1e6) &&
           in(m->blas3_call, 0.0, 1e-2);
}

/* The sizes and the layout of the buffer; 0 or a status. */
static int setup(cal *c, const ocl_impl *im)
{
    c->big = (im->type & CL_DEVICE_TYPE_CPU) == 0;
    c->copy_n = (c->big ? (size_t)64 << 20 : (size_t)8 << 20) / sizeof(float);
    c->rot_cnt = c->big ? 256 : 64;
    c->rot_len = c->big ? 8192 : 4096;
    c->g_rows = c->big ? 2048 : 1024;
    c->g_nc = c->big ? 512 : 256;
    c->mt = 1024;
    c->nbt = 32;
    c->swL = CAL_SW_L;
    c->swp = CAL_SW_P;
    c->swr = CAL_SW_ROWS;
    /* offsets in elements, the buffer sized for double (float's arrays
     * take half of it) */
    size_t es = sizeof(double), o = 0,
           rot = 2 * (size_t)c->rot_cnt * c->rot_len,
           g = (size_t)c->g_rows * c->g_nc, pan = (size_t)c->mt * c->nbt;
    c->o_x = o, o += rot;
    c->o_cs = o, o += 2 * (size_t)c->rot_cnt + 2 * (size_t)CAL_SW_L * CAL_SW_P;
    c->o_a = o, o += g > pan ? g : pan;
    c->o_b = o, o += (size_t)c->g_rows * CAL_GEMM_NB;
    c->o_c = o, o += (size_t)CAL_GEMM_NB * c->g_nc;
    c->o_d = o, o += g;
    c->o_y = o, o += pan;
    c->o_w = o, o += pan;
    c->o_tau = o, o += (size_t)c->nbt;
    c->o_work = o, o += qru_panel_work(c->mt, c->nbt);
    size_t bytes = o * es, cb = 2 * c->copy_n * sizeof(float);
    if (cb > bytes)
        bytes = cb;
    if (im->max_alloc && bytes > im->max_alloc)
        return QRU_ERR_ALLOC;
    return ocl_alloc(c->ctx, bytes, &c->buf);
}

/* The data of c->dt, the rotations, the on-chip panel's width, and one
 * call of each op (the builds, CLBlast's included, and PoCL's compile of
 * a kernel for its work-group size happen here, untimed). */
static int prepare_dtype(cal *c)
{
    qru_context *ctx = c->ctx;
    qru_dtype dt = c->dt;
    int st, nb = 0;
    int xr = c->rot_len, xc = 2 * c->rot_cnt, gr = c->g_rows;
    if ((st = ocl_laset(ctx, dt, 'A', xr, xc, 0.5, 1.0, at(c, c->o_x), xr)) ||
        (st = ocl_givens_make(ctx, dt, c->rot_cnt, at(c, c->o_x), 2 * xr, xr,
                              at(c, c->o_cs))) ||
        (st = ocl_laset(ctx, dt, 'A', gr, c->g_nc, 0.5, 1.0, at(c, c->o_a),
                        gr)) ||
        (st = ocl_laset(ctx, dt, 'A', gr, CAL_GEMM_NB, 0.5, 1.0,
                        at(c, c->o_b), gr)) ||
        (st = ocl_panel_qr_max_nb(ctx, dt, 32, &nb)))
        return st;
    c->nbs = nb < 32 ? nb : 32;
    if (c->nbs < 8) /* no panel on chip worth the name */
        c->nbs = 0;
    c->ms = c->nbs + 32;
    for (int k = C_ROT; k <= C_SWEEPS; ++k)
        if ((k != C_PANEL_S || c->nbs > 0) && (st = cal_op(c, k)))
            return st;
    return ocl_cl_status(clFinish(IMPL(ctx)->q));
}

/* Measures the model of each element type that want[] names into m[]:
 * ok[d] = 1 where measured and plausible, 0 where measured and not
 * plausible, -1 where an op failed (a build, an allocation: the
 * context's own trouble, not the device's); the context's queue is left
 * as it was. */
static void measure(qru_context *ctx, const int want[2], qru_cost_model m[2],
                    int ok[2])
{
    ocl_impl *im = IMPL(ctx);
    cal c;
    memset(&c, 0, sizeof c);
    c.ctx = ctx;
    ok[0] = ok[1] = -1;
    cl_int err = CL_SUCCESS;
    cl_command_queue q = clCreateCommandQueue(im->clctx, im->device, 0, &err);
    if (err != CL_SUCCESS || !q)
        return;
    cl_command_queue own = im->q;
    im->q = q;
    int st = setup(&c, im);
    if (!st) {
        c.dt = QRU_FLOAT;
        st = ocl_cl_status(clFinish(q));
        if (!st) /* compiles the copy and laset kernels (float) */
            st = cal_op(&c, C_COPY);
        if (!st)
            st = cal_op(&c, C_TINY);
        if (!st)
            st = measure_common(&c);
    }
    for (int d = 0; !st && d < 2; ++d) {
        if (!want[d])
            continue;
        c.dt = d ? QRU_DOUBLE : QRU_FLOAT;
        m[d].per_call = c.per_call;
        m[d].per_wait = c.per_wait;
        m[d].bandwidth = c.bw;
        if (prepare_dtype(&c) == 0 && measure_dtype(&c, &m[d]) == 0)
            ok[d] = plausible(&m[d]);
    }
    clFinish(q);
    if (c.buf)
        ocl_free(ctx, c.buf);
    im->q = own;
    clReleaseCommandQueue(q);
}

/* ---- once per device and process ----------------------------------- */

enum { CAL_DEVICES = 16 };
static struct {
    cl_device_id dev;
    int state[2]; /* 0: not measured (or an op failed: the next context
                   * tries), 1: measured, -1: not plausible */
    qru_cost_model m[2];
} cache[CAL_DEVICES];
static int ncache;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether element type d of ctx takes a measured model. */
static int wanted(const qru_context *ctx, const ocl_impl *im, int d)
{
    if (d == QRU_TUNING_DOUBLE && !im->fp64)
        return 0;
    switch (ctx->tuning[d].cost_calibrate) {
    case QRU_COST_CALIBRATE_ON:
        return 1;
    case QRU_COST_CALIBRATE_OFF:
        return 0;
    default:
        return (im->type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR)) !=
               0;
    }
}

/* The measured terms into the context's block (the rest stays). */
static void apply(qru_cost_model *to, const qru_cost_model *m)
{
    to->per_call = m->per_call;
    to->per_wait = m->per_wait;
    to->bandwidth = m->bandwidth;
    to->rate_upd = m->rate_upd;
    to->rate_gemm = m->rate_gemm;
    to->col_step = m->col_step;
    to->panel_rows = m->panel_rows;
    to->sweep_step = m->sweep_step;
    to->blas3_call = m->blas3_call;
}

void ocl_calibrate(qru_context *ctx)
{
    ocl_impl *im = IMPL(ctx);
    int want[2];
    for (int d = 0; d < 2; ++d)
        want[d] = wanted(ctx, im, d);
    if (!want[0] && !want[1])
        return;
    pthread_mutex_lock(&cache_lock);
    int e = 0;
    while (e < ncache && cache[e].dev != im->device)
        ++e;
    if (e == ncache && ncache < CAL_DEVICES) {
        memset(&cache[e], 0, sizeof cache[e]);
        cache[e].dev = im->device;
        ++ncache;
    }
    int todo[2] = {0, 0};
    qru_cost_model m[2];
    int ok[2] = {-1, -1};
    for (int d = 0; d < 2; ++d) {
        todo[d] = want[d] && (e == CAL_DEVICES || cache[e].state[d] == 0);
        m[d] = ctx->tuning[d].cost;
    }
    if (todo[0] || todo[1])
        measure(ctx, todo, m, ok);
    for (int d = 0; d < 2; ++d) {
        if (e < CAL_DEVICES && todo[d]) {
            cache[e].state[d] = ok[d] == 1 ? 1 : ok[d] == 0 ? -1 : 0;
            cache[e].m[d] = m[d];
        }
        if (!want[d])
            continue;
        if (todo[d] ? ok[d] == 1 : cache[e].state[d] == 1)
            apply(&ctx->tuning[d].cost, todo[d] ? &m[d] : &cache[e].m[d]);
    }
    pthread_mutex_unlock(&cache_lock);
}
