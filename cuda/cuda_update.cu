/*
 * CUDA versions of the QR-update ops (contracts in src/qru_internal.h; the
 * CPU versions in src/cpu/cpu_update_kernels.inc are the reference): the
 * strip-wise Givens kernels of Andrew (2012) section 3.2 and doubleSum.
 * Kernel bodies: kernels/qru_update.cl.  All asynchronous on the stream.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <cooperative_groups.h>

#include "qru_cuda.h"

#include "qru_kdefs.h"
/* the sweeps kernels' teams: 8 lanes of a warp take a rotation */
#define QRU_SWEEP_TEAM 8
#define QRU_SWEEP_SYNC __syncwarp(0xFFu << ((threadIdx.x & 31u) & ~7u))
#include "qru_update.cl"

template <typename T>
static int givens_make_t(qru_context *ctx, int cnt, qru_ptr X, int inc,
                         int ps, qru_ptr cs)
{
    qru_givens_make<T><<<qru_blocks(cnt, 256, 1u << 20), 256, 0,
                         qru_cuda(ctx)->stream>>>(
        cnt, (const T *)X.h, (long)X.off, (long)inc, (long)ps, (T *)cs.h,
        (long)cs.off);
    return qru_cuda_launched();
}

int qru_cu_givens_make(qru_context *ctx, qru_dtype dt, int cnt, qru_ptr X,
                       int inc, int ps, qru_ptr cs)
{
    if (cnt <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, givens_make_t, ctx, cnt, X, inc, ps, cs);
}

template <typename T>
static int givens_apply_t(qru_context *ctx, int cnt, int len, qru_ptr cs,
                          qru_ptr X, int inc, int ps, int es)
{
    /* run the grid's x dimension along the smaller memory stride */
    int tfirst = inc < es;
    int n0 = tfirst ? cnt : len, n1 = tfirst ? len : cnt;
    qru_givens_apply<T><<<qru_grid2d(n0, n1), qru_block2d(), 0,
                          qru_cuda(ctx)->stream>>>(
        cnt, len, (const T *)cs.h, (long)cs.off, (T *)X.h, (long)X.off,
        (long)inc, (long)ps, (long)es, tfirst);
    return qru_cuda_launched();
}

int qru_cu_givens_apply(qru_context *ctx, qru_dtype dt, int cnt, int len,
                        qru_ptr cs, qru_ptr X, int inc, int ps, int es)
{
    if (cnt <= 0 || len <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, givens_apply_t, ctx, cnt, len, cs, X, inc, ps,
                          es);
}

/* geadd and geadd_batched: the kernel qru_geadd over the pages */
template <typename T>
static int geadd_batched_t(qru_context *ctx, int m, int n, double alpha,
                           qru_ptr A, int lda, size_t sA, double beta,
                           qru_ptr B, int ldb, size_t sB, int count)
{
    long cols = (long)n * count;
    qru_geadd<T><<<qru_grid2d(m, cols > INT_MAX ? INT_MAX : (int)cols),
                   qru_block2d(), 0, qru_cuda(ctx)->stream>>>(
        m, n, count, (T)alpha, (const T *)A.h, (long)A.off, lda, (long)sA,
        (T)beta, (T *)B.h, (long)B.off, ldb, (long)sB);
    return qru_cuda_launched();
}

int qru_cu_geadd_batched(qru_context *ctx, qru_dtype dt, int m, int n,
                         double alpha, qru_ptr A, int lda, size_t sA,
                         double beta, qru_ptr B, int ldb, size_t sB, int count)
{
    if (m <= 0 || n <= 0 || count <= 0)
        return 0;
    if (alpha == 0.0 && beta == 1.0)
        return 0; /* B unchanged */
    return QRU_CU_BY_TYPE(dt, geadd_batched_t, ctx, m, n, alpha, A, lda, sA,
                          beta, B, ldb, sB, count);
}

int qru_cu_geadd(qru_context *ctx, qru_dtype dt, int m, int n, double alpha,
                 qru_ptr A, int lda, double beta, qru_ptr B, int ldb)
{
    return qru_cu_geadd_batched(ctx, dt, m, n, alpha, A, lda, 0, beta, B, ldb,
                                0, 1);
}

/* ---- block reflectors ------------------------------------------- */

/* wy_left: the GEMM sequence on cuBLAS (three GEMMs and a geadd, one
 * backend call; complex data: W' is CUBLAS_OP_C).  The portable kernel qru_wy_left (kernels/qru_update.cl,
 * OpenCL's) is about 3x slower than this sequence on the trailing blocks
 * of an update on an H200: its FP64 FMAs from shared memory reach ~6% of
 * the CUDA cores' rate at 10 warps an SM. */
int qru_cu_wy_left(qru_context *ctx, qru_dtype dt, char ytop, int mt,
                   int mb, int nb, int nc, qru_ptr Y, int ldy, qru_ptr W,
                   int ldw, qru_ptr A, int lda, qru_ptr B, int ldb,
                   qru_ptr work)
{
    return qru_wy_left_gemms(ctx, &ctx->table, dt, ytop, mt, mb, nb, nc, Y,
                             ldy, W, ldw, A, lda, B, ldb, work);
}

/* ---- fused Givens sweeps ---------------------------------------- */

/* One block of SWEEP_THREADS threads (128 teams of 8 lanes, a rotation per
 * team at a time) runs every step; one barrier a step (two with the window
 * in shared memory). */
#define SWEEP_THREADS 1024

/* The window of active columns in dynamic shared memory
 * (qru_sweeps_lds_body). */
template <typename T>
__global__ void __launch_bounds__(SWEEP_THREADS)
    qru_givens_sweeps_smem(int L, int p, int make, T *X, long ox, long xrs,
                           long xcs, int nr, int from_jlo, T *cs, long ocs,
                           int W)
{
    extern __shared__ __align__(16) unsigned char qru_sweeps_smem_[];
    qru_sweeps_lds_body(L, p, make, X, ox, xrs, xcs, nr, from_jlo, cs, ocs, W,
                        (T *)qru_sweeps_smem_);
}

/* Bytes of dynamic shared memory qru_givens_sweeps_smem<T> may take on the
 * context's device (the opt-in maximum, raised once per device and type). */
template <typename T> static size_t sweeps_smem_cap(qru_context *ctx)
{
    static long cache[QRU_CUDA_MAXDEV];
    return qru_cuda_smem_optin(ctx, (const void *)qru_givens_sweeps_smem<T>, cache, 0);
}

/* The chain of rows (qru_sweeps_chain_body): the rows' rings and the
 * step's rotations in dynamic shared memory. */
template <typename T>
__global__ void __launch_bounds__(SWEEP_THREADS)
    qru_givens_sweeps_chain(int L, int p, T *X, long ox, long xrs, long xcs,
                            T *cs, long ocs)
{
    extern __shared__ __align__(16) unsigned char qru_chain_smem_[];
    T *S = (T *)qru_chain_smem_;
    qru_sweeps_chain_body(L, p, X, ox, xrs, xcs, cs, ocs, S,
                          S + (long)p * (p + 2));
}

/* A launch of ncl blocks of nthr threads as one thread-block cluster on
 * the context's stream (attr: the caller's storage for the cluster
 * attribute), and its outcome: 1 launched, 0 failed (e.g. no room for the
 * cluster; the error is cleared and the caller falls back). */
static cudaLaunchConfig_t cluster_config(qru_context *ctx, int ncl, int nthr,
                                         size_t bytes,
                                         cudaLaunchAttribute *attr)
{
    cudaLaunchConfig_t cfg = {};
    attr->id = cudaLaunchAttributeClusterDimension;
    attr->val.clusterDim.x = (unsigned)ncl;
    attr->val.clusterDim.y = 1;
    attr->val.clusterDim.z = 1;
    cfg.gridDim = dim3((unsigned)ncl, 1, 1);
    cfg.blockDim = dim3((unsigned)nthr, 1, 1);
    cfg.dynamicSmemBytes = bytes;
    cfg.stream = qru_cuda(ctx)->stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

static int cluster_launched(cudaError_t e)
{
    if (e == cudaSuccess)
        return 1;
    qru_cuda_clear();
    return 0;
}

/* The chain of rows spread over a thread-block cluster when the rings do
 * not fit one block: block b holds the rows rb.r[b] .. rb.r[b+1]-1
 * (about equal ring memory and work each) and forms the rotations of the
 * sweeps it holds into its buffer of the step (two, alternating: a block
 * writes the buffer of step t + 2 only after the barrier of step t + 1,
 * which every block passes after reading step t's); after a cluster
 * barrier each block gathers the rotations of the sweeps above its last
 * row from their owners' shared memory and applies them to its rows. */
#define CHAIN_CL_MAX 8
struct chain_rows {
    int r[CHAIN_CL_MAX + 1];
};

template <typename T>
__global__ void __launch_bounds__(SWEEP_THREADS)
    qru_givens_sweeps_chain_cluster(int L, int p, T *X, long ox, long xrs,
                                    long xcs, T *cs, long ocs, chain_rows rb,
                                    long ring_elems)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    extern __shared__ __align__(16) unsigned char qru_chain_cl_smem_[];
    int b = (int)cl.block_rank(), ncl = (int)cl.num_blocks();
    int rlo = rb.r[b], rhi = rb.r[b + 1];
    T *S = (T *)qru_chain_cl_smem_;
    T *Rown = S + ring_elems; /* 2 x 2 p */
    T *Rl = Rown + 4 * (long)p; /* 2 p */
    int nsteps = L > 0 ? L + p - 1 : 0;
    long off = 0;
    for (int t = 0; t <= nsteps; ++t) {
        T *Rt = Rown + 2 * (long)p * (t & 1);
        qru_chain_move_make(L, p, t, nsteps, rlo, rhi, X, ox, xrs, xcs, cs,
                            ocs, off, S, Rt);
        if (t == nsteps)
            break;
        cl.sync();
        int lo, cnt, i0, a, bb;
        qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &bb);
        /* the rotations of the sweeps lo .. min(hi, rhi - 1) */
        int need = rhi - lo < cnt ? rhi - lo : cnt;
        for (int q = threadIdx.x; q < need; q += blockDim.x) {
            int j = lo + q, o = 0;
            while (o + 1 < ncl && rb.r[o + 1] <= j)
                ++o;
            const T *src = cl.map_shared_rank(Rt, o);
            Rl[2 * q] = src[2 * q];
            Rl[2 * q + 1] = src[2 * q + 1];
        }
        __syncthreads();
        qru_chain_apply(L, p, t, nsteps, rlo, rhi, S, Rl);
        off += cnt;
        __syncthreads();
    }
    /* no block may leave while another can still read its rotations */
    cl.sync();
#endif
}

/* The cluster size (2, 4 or 8; 0: none fits cap bytes a block) and the
 * rows of each block for the chain of p rows: boundaries where the rings
 * (row r: 2 r + 3 slots) reach b / ncl of their total. */
template <typename T>
static int chain_cluster_rows(int p, size_t cap, chain_rows *rb,
                              long *ring_max, size_t *bytes)
{
    long total = (long)p * (p + 2);
    for (int ncl = 2; ncl <= CHAIN_CL_MAX; ncl *= 2) {
        long mx = 0;
        rb->r[0] = 0;
        for (int b = 1; b < ncl; ++b) {
            int r = rb->r[b - 1];
            while (r < p && (long)r * (r + 2) < total * b / ncl)
                ++r;
            rb->r[b] = r;
        }
        rb->r[ncl] = p;
        for (int b = 0; b < ncl; ++b) {
            long e = (long)rb->r[b + 1] * (rb->r[b + 1] + 2) -
                     (long)rb->r[b] * (rb->r[b] + 2);
            mx = e > mx ? e : mx;
        }
        size_t need = ((size_t)mx + 6 * (size_t)p) * sizeof(T);
        if (need <= cap) {
            *ring_max = mx;
            *bytes = need;
            return ncl;
        }
    }
    return 0;
}

template <typename T>
static int chain_cluster_launch(qru_context *ctx, int L, int p, qru_ptr X,
                                long xrs, long xcs, qru_ptr cs, int *launched)
{
    static long cache[QRU_CUDA_MAXDEV];
    *launched = 0;
    size_t cap = qru_cuda_smem_optin(
        ctx, (const void *)qru_givens_sweeps_chain_cluster<T>, cache, 9);
    chain_rows rb;
    long ring = 0;
    size_t bytes = 0;
    int ncl = cap > 0 ? chain_cluster_rows<T>(p, cap, &rb, &ring, &bytes) : 0;
    if (ncl == 0)
        return 0;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg =
        cluster_config(ctx, ncl, SWEEP_THREADS, bytes, &attr);
    *launched = cluster_launched(cudaLaunchKernelEx(
        &cfg, qru_givens_sweeps_chain_cluster<T>, L, p, (T *)X.h,
        (long)X.off, xrs, xcs, (T *)cs.h, (long)cs.off, rb, ring));
    return 0;
}

template <typename T> static size_t chain_smem_cap(qru_context *ctx)
{
    static long cache[QRU_CUDA_MAXDEV];
    return qru_cuda_smem_optin(ctx, (const void *)qru_givens_sweeps_chain<T>,
                               cache, 0);
}

/* The window of qru_givens_sweeps_smem spread over a thread-block cluster
 * (Hopper's distributed shared memory) when it does not fit one block:
 * block b of the cluster holds the rows b nrb .. (b+1) nrb - 1 of the
 * window and forms the rotations of the sweeps it owns (the rotation of
 * sweep j is formed from row j); after a cluster barrier every block
 * copies the step's rotations from their owners' shared memory and
 * applies them to its rows.  Rotation buffers alternate between steps, so
 * one cluster barrier a step suffices: a block writes the buffer of step
 * t + 2 only after the barrier of step t + 1, which every block passes
 * after it has read the rotations of step t.  Without make the rotations
 * come from cs and the blocks never wait for each other.  The rotations,
 * their order and their arithmetic are those of qru_givens_sweeps. */
#define SWEEP_CL_THREADS 512
#define SWEEP_CL_MAX 8 /* the portable cluster size */

template <typename T>
__global__ void __launch_bounds__(SWEEP_CL_THREADS)
    qru_givens_sweeps_cluster(int L, int p, int make, T *X, long ox,
                              long xrs, long xcs, int nr, int from_jlo, T *cs,
                              long ocs, int W, int nrb)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    namespace cg = cooperative_groups;
    cg::cluster_group cl = cg::this_cluster();
    extern __shared__ __align__(16) unsigned char qru_sweeps_cl_smem_[];
    int pc = p < L ? p : L; /* rotations a step, at most */
    T *S = (T *)qru_sweeps_cl_smem_;     /* W x nrb */
    T *Rb = S + (long)W * nrb;            /* 2 x 2 pc: the owned rotations */
    T *Rl = Rb + 4 * (long)pc;            /* 2 pc: the step's rotations */
    int b = (int)cl.block_rank(), lid = threadIdx.x, nt = blockDim.x;
    int rlo = b * nrb, rhi = rlo + nrb < nr ? rlo + nrb : nr;
    if (rhi < rlo)
        rhi = rlo;
    int nsteps = L > 0 ? L + p - 1 : 0;
    int a0 = 0, b0 = -1;
    long off = 0;
    for (int t = 0; t <= nsteps; ++t) {
        int lo, cnt, i0, a, bb;
        qru_sweep_at(L, p, t, nsteps, &lo, &cnt, &i0, &a, &bb);
        qru_sweeps_window(X, ox, xrs, xcs, rlo, rhi, W, S, nrb, a0, b0, a, bb,
                          lid, nt);
        if (t == nsteps)
            break;
        __syncthreads();
        T *Rt = Rb + 2 * (long)pc * (t & 1);
        if (make) {
            /* the rotations of the sweeps lo + q this block holds */
            int q0 = rlo - lo > 0 ? rlo - lo : 0;
            int q1 = rhi - lo < cnt ? rhi - lo : cnt;
            for (int q = q0 + lid; q < q1; q += nt) {
                int ca = i0 - 1 + 2 * q, rr = lo + q - rlo;
                T c, sn;
                qru_sweep_cs(S[(long)(ca % W) * nrb + rr],
                             S[(long)((ca + 1) % W) * nrb + rr], &c, &sn);
                Rt[2 * q] = c;
                Rt[2 * q + 1] = sn;
                long pcs = ocs + 2 * (off + q);
                cs[pcs] = c;
                cs[pcs + 1] = sn;
            }
            cl.sync();
            for (int q = lid; q < cnt; q += nt) {
                const T *o = cl.map_shared_rank(Rt, (lo + q) / nrb);
                Rl[2 * q] = o[2 * q];
                Rl[2 * q + 1] = o[2 * q + 1];
            }
        } else {
            for (int q = lid; q < cnt; q += nt) {
                Rl[2 * q] = cs[ocs + 2 * (off + q)];
                Rl[2 * q + 1] = cs[ocs + 2 * (off + q) + 1];
            }
        }
        __syncthreads();
        /* rows r0 .. of this block: every (rotation, row) pair once */
        int r0 = from_jlo ? lo : 0;
        int l0 = r0 > rlo ? r0 - rlo : 0, nact = rhi - rlo - l0;
        if (nact > 0)
            for (int e = lid; e < cnt * nact; e += nt) {
                int q = e / nact, rr = l0 + e % nact;
                T c = Rl[2 * q], sn = Rl[2 * q + 1];
                if (qru_rot_skip(c, sn))
                    continue;
                int ca = i0 - 1 + 2 * q;
                T *xa = S + (long)(ca % W) * nrb + rr;
                T *xb = S + (long)((ca + 1) % W) * nrb + rr;
                T x = *xa, y = *xb;
                *xa = qru_rot_x(c, sn, x, y);
                *xb = qru_rot_y(c, sn, x, y);
            }
        off += cnt;
        __syncthreads();
        a0 = a;
        b0 = bb;
    }
    /* no block may leave while another can still read its rotations */
    if (make)
        cl.sync();
#endif
}

/* The cluster size and rows a block for the sweeps of L, p on nr rows:
 * the smallest cluster (2, 4 or 8 blocks) whose blocks' windows and
 * rotation buffers fit cap bytes each; 0 if none does. */
template <typename T>
static int sweeps_cluster_size(int L, int p, int nr, size_t cap, int *nrb,
                               size_t *bytes)
{
    int W = 2 * (p < L ? p : L) + 2, pc = p < L ? p : L;
    for (int ncl = 2; ncl <= SWEEP_CL_MAX; ncl *= 2) {
        int rows = (nr + ncl - 1) / ncl;
        size_t need = ((size_t)W * (size_t)(rows > 0 ? rows : 1) +
                       6 * (size_t)pc) * sizeof(T);
        if (need <= cap) {
            *nrb = rows;
            *bytes = need;
            return ncl;
        }
    }
    return 0;
}

/* Launches the cluster kernel (compute capability 9.0 or later, the
 * kernel's shared memory opt-in raised once per device and type): 0 with
 * *launched = 1 when it runs, 0 with *launched = 0 when the device or the
 * sizes do not allow it (the caller falls back). */
template <typename T>
static int sweeps_cluster_launch(qru_context *ctx, int L, int p, int make,
                                 qru_ptr X, long xrs, long xcs, int nr,
                                 int from_jlo, qru_ptr cs, int *launched)
{
    static long cache[QRU_CUDA_MAXDEV];
    *launched = 0;
    size_t cap = qru_cuda_smem_optin(
        ctx, (const void *)qru_givens_sweeps_cluster<T>, cache, 9);
    int nrb = 0;
    size_t bytes = 0;
    int ncl = cap > 0 ? sweeps_cluster_size<T>(L, p, nr, cap, &nrb, &bytes)
                      : 0;
    if (ncl == 0)
        return 0;
    int W = 2 * (p < L ? p : L) + 2;
    cudaLaunchAttribute attr;
    cudaLaunchConfig_t cfg =
        cluster_config(ctx, ncl, SWEEP_CL_THREADS, bytes, &attr);
    *launched = cluster_launched(cudaLaunchKernelEx(
        &cfg, qru_givens_sweeps_cluster<T>, L, p, make, (T *)X.h, (long)X.off,
        xrs, xcs, nr, from_jlo, (T *)cs.h, (long)cs.off, W, nrb));
    return 0;
}

/* The shared-memory kernel when its window fits one block, else the
 * chain of rows when the sweeps form their rotations on p rows (in one
 * block, else in a cluster), else the cluster window when it fits a
 * cluster, else the global-memory kernel (the tuning's sweeps_kernel,
 * qru_sweeps_kernel in src/qru_tuning.h: GLOBAL forces the global-memory
 * kernel, CLUSTER the cluster window, WINDOW the one-block window, CHAIN
 * the one-block chain, CHAINCLUSTER the cluster chain, where they fit).
 * Measured on an H100 (docs/performance.md): at p = 100 the window (35 ms
 * for the removal of 100 rows from 12000 x 6000) beats the chain
 * (41 ms); where the window does not fit, the chain beats the
 * global-memory kernel (p = 150: 28 against 45 ms adding columns to
 * 8000 x 3000) and the per-step launches (p = 200 in float: 27 against
 * 33 ms). */
template <typename T>
static int givens_sweeps_t(qru_context *ctx, int L, int p, int make, qru_ptr X,
                           long xrs, long xcs, int nr, int from_jlo,
                           qru_ptr cs)
{
    cudaStream_t st = qru_cuda(ctx)->stream;
    int kind = qru_cu_tuning<T>(ctx)->sweeps_kernel;
    int W = 2 * (p < L ? p : L) + 2;
    size_t bytes = (size_t)W * (size_t)(nr > 0 ? nr : 1) * sizeof(T);
    int fits = bytes <= sweeps_smem_cap<T>(ctx);
    size_t cbytes = ((size_t)p * (size_t)(p + 2) + 2 * (size_t)p) * sizeof(T);
    int chain = make && nr == p && cbytes <= chain_smem_cap<T>(ctx);
    if ((kind == QRU_SWEEPS_KERNEL_CHAIN && !chain) ||
        (kind == QRU_SWEEPS_KERNEL_WINDOW && !fits))
        kind = QRU_SWEEPS_KERNEL_AUTO; /* a forced kernel that does not
                                          fit: the default */
    int as_auto = kind == QRU_SWEEPS_KERNEL_AUTO; /* the default's rules */
    if (kind == QRU_SWEEPS_KERNEL_CHAIN || (as_auto && !fits && chain)) {
        qru_givens_sweeps_chain<T><<<1, SWEEP_THREADS, cbytes, st>>>(
            L, p, (T *)X.h, (long)X.off, xrs, xcs, (T *)cs.h, (long)cs.off);
        return qru_cuda_launched();
    }
    if ((as_auto && !fits) || kind == QRU_SWEEPS_KERNEL_CHAINCLUSTER) {
        int launched = 0;
        int rc = make && nr == p
                     ? chain_cluster_launch<T>(ctx, L, p, X, xrs, xcs, cs,
                                               &launched)
                     : 0;
        if (rc || launched)
            return rc;
        if (kind == QRU_SWEEPS_KERNEL_CHAINCLUSTER)
            as_auto = 1;
    }
    if (kind == QRU_SWEEPS_KERNEL_CLUSTER || (as_auto && !fits)) {
        int launched = 0;
        int rc = sweeps_cluster_launch<T>(ctx, L, p, make, X, xrs, xcs, nr,
                                          from_jlo, cs, &launched);
        if (rc || launched)
            return rc;
        as_auto = 1;
    }
    if ((as_auto || kind == QRU_SWEEPS_KERNEL_WINDOW) && fits) {
        qru_givens_sweeps_smem<T><<<1, SWEEP_THREADS, bytes, st>>>(
            L, p, make, (T *)X.h, (long)X.off, xrs, xcs, nr, from_jlo,
            (T *)cs.h, (long)cs.off, W);
        return qru_cuda_launched();
    }
    qru_givens_sweeps<T><<<1, SWEEP_THREADS, 0, st>>>(
        L, p, make, (T *)X.h, (long)X.off, xrs, xcs, nr, from_jlo,
        (T *)cs.h, (long)cs.off);
    return qru_cuda_launched();
}

int qru_cu_givens_sweeps(qru_context *ctx, qru_dtype dt, int L, int p,
                         int make, qru_ptr X, long xrs, long xcs, int nr,
                         int from_jlo, qru_ptr cs)
{
    if (L <= 0 || p <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, givens_sweeps_t, ctx, L, p, make, X, xrs, xcs,
                          nr, from_jlo, cs);
}

/* qru_givens_accum_lds_body: ACC_LANES lanes a row, the rows of a block
 * in dynamic shared memory. */
#define ACC_LANES 8

template <typename T>
__global__ void qru_givens_accum_smem(int L, int p, int ab, const T *cs,
                                      long ocs, T *G, long og, int ldg, int rb)
{
    extern __shared__ __align__(16) unsigned char qru_accum_smem_[];
    qru_givens_accum_lds_body(L, p, ab, cs, ocs, G, og, ldg, rb,
                              (T *)qru_accum_smem_);
}

/* Rows a block of qru_givens_accum_smem for groups of width up to w (32,
 * 16 or 8: the most that fit the device's shared memory; the opt-in
 * raised once per device and type), or 0: the global-memory kernel. */
template <typename T> static int accum_rows(qru_context *ctx, int w)
{
    static long cache[QRU_CUDA_MAXDEV];
    size_t cap = qru_cuda_smem_optin(
        ctx, (const void *)qru_givens_accum_smem<T>, cache, 0);
    for (int rb = 32; rb >= 8 && cap > 0; rb /= 2)
        if ((size_t)w * rb * sizeof(T) <= cap)
            return rb;
    return 0;
}

/* Grid: x over the rows of a group's matrix (128 a block), y over the
 * groups. */
template <typename T>
static int givens_accum_t(qru_context *ctx, int L, int p, int ab, qru_ptr cs,
                          qru_ptr G, int ldg)
{
    int ng = (L + ab - 1) / ab, w = ab + p;
    int rb = accum_rows<T>(ctx, w);
    if (rb > 0) {
        dim3 grid((unsigned)((w + rb - 1) / rb), (unsigned)ng);
        qru_givens_accum_smem<T>
            <<<grid, rb * ACC_LANES, (size_t)w * rb * sizeof(T),
               qru_cuda(ctx)->stream>>>(L, p, ab, (const T *)cs.h,
                                        (long)cs.off, (T *)G.h, (long)G.off,
                                        ldg, rb);
        return qru_cuda_launched();
    }
    dim3 grid((unsigned)((w + 127) / 128), (unsigned)ng);
    qru_givens_accum<T><<<grid, 128, 0, qru_cuda(ctx)->stream>>>(
        L, p, ab, (const T *)cs.h, (long)cs.off, (T *)G.h, (long)G.off, ldg);
    return qru_cuda_launched();
}

int qru_cu_givens_accum(qru_context *ctx, qru_dtype dt, int L, int p, int ab,
                        qru_ptr cs, qru_ptr G, int ldg)
{
    if (L <= 0 || p <= 0 || ab <= 0)
        return 0;
    return QRU_CU_BY_TYPE(dt, givens_accum_t, ctx, L, p, ab, cs, G, ldg);
}

/* ---- the closed-form rotations of a rank-1 row update ---- */

template <typename T>
static int chol_r1_rotate_t(qru_context *ctx, int n, int m, double alpha,
                            qru_ptr p, int incp, qru_ptr X, int ldx,
                            qru_ptr Y, int ldy, qru_ptr xin, qru_ptr xout,
                            qru_ptr work)
{
    cudaStream_t s = qru_cuda(ctx)->stream;
    if (m <= 0) /* xout = xin */
        return qru_cuda_status(cudaMemcpyAsync(
            (T *)xout.h + xout.off, (const T *)xin.h + xin.off,
            sizeof(T) * (size_t)n, cudaMemcpyDeviceToDevice, s));
    int segs = (m + QRU_CHOL_R1_ROTW - 1) / QRU_CHOL_R1_ROTW;
    qru_r1rot_cs<T><<<1, QRU_RED, 0, s>>>(m, (T)alpha, (const T *)p.h,
                                          (long)p.off, incp, (T *)work.h,
                                          (long)work.off);
    QRU_TRY(qru_cuda_launched());
    dim3 items(128, 1), grid((unsigned)((n + 127) / 128), (unsigned)segs);
    qru_r1rot_part<T><<<grid, items, 0, s>>>(
        n, m, (const T *)X.h, (long)X.off, ldx, (const T *)xin.h,
        (long)xin.off, (T *)work.h, (long)work.off);
    QRU_TRY(qru_cuda_launched());
    qru_r1rot_apply<T><<<grid, items, 0, s>>>(
        n, m, (const T *)X.h, (long)X.off, ldx, (T *)Y.h, (long)Y.off, ldy,
        (T *)xout.h, (long)xout.off, (const T *)work.h, (long)work.off);
    return qru_cuda_launched();
}

int qru_cu_chol_r1_rotate(qru_context *ctx, qru_dtype dt, int n, int m,
                          double alpha, qru_ptr p, int incp, qru_ptr X,
                          int ldx, qru_ptr Y, int ldy, qru_ptr xin,
                          qru_ptr xout, qru_ptr work)
{
    if (n <= 0)
        return 0;
    return dt == QRU_DOUBLE
               ? chol_r1_rotate_t<double>(ctx, n, m, alpha, p, incp, X, ldx,
                                          Y, ldy, xin, xout, work)
               : chol_r1_rotate_t<float>(ctx, n, m, alpha, p, incp, X, ldx,
                                         Y, ldy, xin, xout, work);
}
