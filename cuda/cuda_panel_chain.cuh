/*
 * The warp-chain panel (CUDA only; included by cuda/cuda_panel.cu after
 * kernels/qru_panel.cl, whose register-panel reflector qru_preg_house and
 * T builder qru_panel_tbuild it uses): the contract of qru_panel_qr for
 * panels of at most QRU_PREG_LEN (288) rows and PC_NB (64) columns, with
 * the serial part of the column steps on ONE warp and no block barrier
 * between them.
 *
 *   - The chain warp (warp 0) holds the current column j in registers
 *     (row i = lane + 32 r): it forms reflector j, publishes it as a full
 *     column (0 above row j, 1 at it) in slot j of the shared array P with
 *     tau_j, then takes column j + 1 from slot j + 1, where a helper has
 *     left it with reflectors 0..j-1 applied, and applies reflector j.
 *     So a column step on the critical path is one reflector and one
 *     reflector application to one column, on one warp.
 *   - The helper warps (1..PC_HELPERS) hold the other columns (column c
 *     on helper 1 + (c - 1) % PC_HELPERS) in registers.  For each
 *     published reflector r they apply it to their columns c >= r + 2
 *     (batched warp reductions), the column the chain takes next first,
 *     and hand column r + 2 over (slot r + 2 and its flag).
 *   - Hand-offs are flags in shared memory (volatile, ordered by
 *     __threadfence_block); every flag is set by one warp and awaited by
 *     others that never set it, and each wait is for a value that an
 *     earlier step of the pipeline guarantees, so no order of the warps
 *     deadlocks.
 *   - At the end, after one block barrier, every warp: the dots
 *     Z(c, q) = Y(:, c)' Y(:, q), c < q, that T needs (4 x 4 tiles; done
 *     by one helper in turn during the chain they cost ~16% of the
 *     panel), T from tau and Z (qru_panel_tbuild), W = -Y T (register
 *     tiles of PC_WC columns; cuBLAS trmm took three launches and ~30 us
 *     a 264 x 64 panel on an H100), then A (R with exact zeros), Y, W and
 *     tau written.
 *
 * Shared memory: PC_LOCAL_BYTES(T) (212 KB in double): the device
 * must grant the opt-in (cuda_panel.cu checks; else the register kernel).
 */
#ifndef QRU_CUDA_PANEL_CHAIN_CUH
#define QRU_CUDA_PANEL_CHAIN_CUH

/* Build constants (the variants tried are in
 * results/2026-11-26_nvidia-h200_warp-panel/README.md): helper warps,
 * a helper's columns in groups of PC_G, the sleep between the polls of a
 * flag (ns) */
#define PC_HELPERS 7
#define PC_THREADS ((PC_HELPERS + 1) * QRU_TEAM)
#define PC_NB 64
#define PC_LEN QRU_PREG_LEN
/* columns a helper holds: 1..PC_NB-1 spread over the helpers */
#define PC_K ((PC_NB - 1 + PC_HELPERS - 1) / PC_HELPERS)
#define PC_G (PC_K % 3 == 0 ? 3 : PC_K) /* a helper's columns in groups */
#define PC_POLL_NS 32
/* W = -Y T at the end: the warps in two halves by rows (rows lane + 32 r,
 * r < PC_WR0 in the first, the others in the second), a warp's columns
 * w % PC_HW + PC_HW u, u < PC_WC, spread so that the triangle's work is
 * even */
#define PC_HW ((PC_HELPERS + 1) / 2)
#define PC_WC (PC_NB / PC_HW)
#define PC_WR0 ((QRU_PREG_R + 1) / 2)
static_assert(PC_NB <= 2 * QRU_TEAM,
              "the chain reads rows j - 1 and j from registers 0 and 1");
static_assert((PC_HELPERS + 1) % 2 == 0 && PC_NB % PC_HW == 0,
              "the W = -Y T split needs an even warp count dividing PC_NB");
#define PC_LOCAL_BYTES(T)                                                      \
    (((size_t)PC_LEN * PC_NB + 2 * (size_t)PC_NB * PC_NB + PC_NB) *           \
         sizeof(T) +                                                           \
     (PC_NB + 1) * sizeof(int))

/* flags: wait until *f >= v (then this warp's later reads see what was
 * written before the flag was set); set *f = v after the warp's writes */
static __device__ __forceinline__ void pc_wait(const int *f, int v)
{
    /* a warp that waits sleeps between its polls, so that the waiting
     * warps' loads do not crowd out the shared-memory and shuffle
     * traffic of the ones working */
    while (*(const volatile int *)f < v)
        __nanosleep(PC_POLL_NS);
    __threadfence_block();
}
static __device__ __forceinline__ void pc_set(int *f, int v, int lane)
{
    __syncwarp();
    if (lane == 0) {
        __threadfence_block();
        *(volatile int *)f = v;
    }
}

/* The sums over the warp of 16 values a lane (a[e] of every lane), with
 * 16 exchanges instead of 16 butterflies: halving, each lane keeps one
 * half of its values and sends the other.  Returns the sum of a[*e],
 * held by both lanes of a pair (lane and lane ^ 1). */
template <typename T>
static __device__ __forceinline__ T pc_sum16(const T (&a)[16], int lane,
                                             int *e)
{
    T b[8], c[4], d[2];
    int h = (lane >> 4) & 1;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
        T mine = h ? a[k + 8] : a[k], other = h ? a[k] : a[k + 8];
        b[k] = mine + __shfl_xor_sync(0xffffffffu, other, 16);
    }
    h = (lane >> 3) & 1;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        T mine = h ? b[k + 4] : b[k], other = h ? b[k] : b[k + 4];
        c[k] = mine + __shfl_xor_sync(0xffffffffu, other, 8);
    }
    h = (lane >> 2) & 1;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        T mine = h ? c[k + 2] : c[k], other = h ? c[k] : c[k + 2];
        d[k] = mine + __shfl_xor_sync(0xffffffffu, other, 4);
    }
    h = (lane >> 1) & 1;
    T f = (h ? d[1] : d[0]) +
          __shfl_xor_sync(0xffffffffu, h ? d[0] : d[1], 2);
    f += __shfl_xor_sync(0xffffffffu, f, 1);
    *e = ((lane >> 4) & 1) * 8 + ((lane >> 3) & 1) * 4 +
         ((lane >> 2) & 1) * 2 + ((lane >> 1) & 1);
    return f;
}

template <typename T>
__global__ void __launch_bounds__(PC_THREADS, 1)
    qru_panel_qr_chain(int m, int nb, T *A, long oa, int lda, T *Y, long oy,
                       int ldy, T *W, long ow, int ldw, T *tau, long ot)
{
    extern __shared__ __align__(16) unsigned char qru_panel_smem_[];
    T *P = (T *)qru_panel_smem_;  /* slot c: column c, then reflector c */
    T *Tm = P + PC_LEN * PC_NB;   /* Z (strict lower part), then T */
    T *Rs = Tm + PC_NB * PC_NB;   /* R (upper triangle) */
    T *tv = Rs + PC_NB * PC_NB;   /* tau */
    int *nref = (int *)(tv + PC_NB); /* reflectors published */
    int *hand = nref + 1;            /* hand[c]: column c in slot c */
    int lid = threadIdx.x, w = lid / QRU_TEAM, lane = lid % QRU_TEAM;
    for (int e = lid; e <= PC_NB; e += PC_THREADS)
        nref[e] = 0;
    __syncthreads();
    if (w == 0) { /* the chain */
        T x[QRU_PREG_R], v[QRU_PREG_R];
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            x[r] = i < m ? A[QRU_IDX(oa, i, 0, lda)] : (T)0;
        }
        T t = qru_preg_house<T>(m, 0, x, P, tv, lane);
        for (int j = 0;;) {
            /* R(0:j-1, j), R(j, j) = beta (j < 64: two rows a lane; to
             * shared memory: a global store here would make the next
             * fence wait for it) */
            if (lane <= j)
                Rs[lane + j * PC_NB] = x[0];
            if (lane + QRU_TEAM <= j)
                Rs[lane + QRU_TEAM + j * PC_NB] = x[1];
            pc_set(nref, j + 1, lane);
            if (++j >= nb)
                break;
            /* column j: reflectors 0..j-2 applied by its helper; apply
             * j - 1 (v, t) and form reflector j with ONE batched team
             * reduction: the dot, and the sums over the rows below j that
             * give the new sum of squares without a second pass,
             *     ss = |x - d v|^2 = xx - 2 d xv + d^2 vv,
             * taken where it cannot have lost more than a bit to
             * cancellation (ss >= xx / 2) and no square can over- or
             * underflow; else qru_preg_house recomputes it. */
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                v[r] = i > j - 1 ? x[r] : (i == j - 1 ? (T)1 : (T)0);
            }
            pc_wait(&hand[j], 1);
            const T *sl = P + (long)j * PC_LEN;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                x[r] = sl[lane + QRU_TEAM * r];
            T xx = (T)0, xv = (T)0, vv = (T)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                T xb = i > j ? x[r] : (T)0, vb = i > j ? v[r] : (T)0;
                xx += xb * xb;
                xv += xb * vb;
                vv += vb * vb;
            }
            /* rows j - 1 and j (below 2 QRU_TEAM: registers 0 and 1) from
             * the lanes that hold them, one shuffle each; v is 0 above
             * row j - 1 and 1 at it, so x'v = x(j-1) + x(j) v(j) + xv.
             * Sums in every lane, bit-identical (an xor butterfly adds
             * the same pairs in every lane), so branches on them are
             * uniform. */
            T al = __shfl_sync(0xffffffffu, j < QRU_TEAM ? x[0] : x[1],
                               j % QRU_TEAM);
            T vj = __shfl_sync(0xffffffffu, j < QRU_TEAM ? v[0] : v[1],
                               j % QRU_TEAM);
            T x1 = __shfl_sync(0xffffffffu,
                               j - 1 < QRU_TEAM ? x[0] : x[1],
                               (j - 1) % QRU_TEAM);
            xx = QRU_TEAM_SUM(xx);
            xv = QRU_TEAM_SUM(xv);
            vv = QRU_TEAM_SUM(vv);
            T pd = x1 + al * vj + xv;
            T d = t * pd;
            if (t == (T)0)
                d = (T)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                x[r] -= d * v[r];
            al -= d * vj;
            T ss = xx - (T)2 * d * xv + d * d * vv;
            T *vo = P + (long)j * PC_LEN;
            if (ss >= (T)0.5 * xx && ss > QRU_SSQ_LO && ss < QRU_SSQ_HI &&
                al * al < QRU_SSQ_HI) {
                T beta = QRU_SQRT(al * al + ss);
                if (al >= (T)0)
                    beta = -beta;
                /* one division: 1 / (beta (al - beta)), no over- or
                 * underflow in the ranges above */
                T inv = (T)1 / (beta * (al - beta));
                T f = beta * inv;
                t = -(al - beta) * (al - beta) * inv;
#pragma unroll
                for (int r = 0; r < QRU_PREG_R; ++r) {
                    int i = lane + QRU_TEAM * r;
                    if (i > j)
                        x[r] *= f;
                    else if (i == j)
                        x[r] = beta;
                    vo[i] = i > j ? x[r] : (i == j ? (T)1 : (T)0);
                }
                if (lane == 0)
                    tv[j] = t;
            } else {
                t = qru_preg_house<T>(m, j, x, vo, tv, lane);
            }
        }
    } else { /* a helper: columns c = w + k PC_HELPERS */
        T a[PC_K][QRU_PREG_R];
#pragma unroll
        for (int k = 0; k < PC_K; ++k) {
            int c = w + k * PC_HELPERS;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                a[k][r] = (c < nb && i < m) ? A[QRU_IDX(oa, i, c, lda)]
                                            : (T)0;
            }
        }
        if (w == 1 && nb > 1) { /* column 1 needs no reflector before it */
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                P[PC_LEN + lane + QRU_TEAM * r] = a[0][r];
            pc_set(&hand[1], 1, lane);
        }
        for (int q = 0; q < nb; ++q) { /* reflector q */
            pc_wait(nref, q + 1);
            T t = tv[q];
            T v[QRU_PREG_R];
            const T *s = P + (long)q * PC_LEN;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                v[r] = s[lane + QRU_TEAM * r];
            /* first the column the chain takes next (c2 = q + 2: then it
             * has reflectors 0..q), then the rest in groups of PC_G whose
             * reductions interleave (a group runs when its last column is
             * one of mine still waiting for reflector q; the others in it
             * get d = 0) */
            int c2 = q + 2;
            if (c2 < nb && (c2 - 1) % PC_HELPERS == w - 1) {
                T *o = P + (long)c2 * PC_LEN;
#pragma unroll
                for (int k = 0; k < PC_K; ++k)
                    if (w + k * PC_HELPERS == c2) {
                        if (t != (T)0) {
                            T d = (T)0;
#pragma unroll
                            for (int r = 0; r < QRU_PREG_R; ++r)
                                d += a[k][r] * v[r];
                            d = t * QRU_TEAM_SUM(d);
#pragma unroll
                            for (int r = 0; r < QRU_PREG_R; ++r)
                                a[k][r] -= d * v[r];
                        }
#pragma unroll
                        for (int r = 0; r < QRU_PREG_R; ++r)
                            o[lane + QRU_TEAM * r] = a[k][r];
                    }
                pc_set(&hand[c2], 1, lane);
            }
            if (t != (T)0) { /* the rest */
#pragma unroll
                for (int g = 0; g < PC_K; g += PC_G) {
                    int last = w + (g + PC_G - 1) * PC_HELPERS;
                    if (last < c2 + 1 || w + g * PC_HELPERS >= nb)
                        continue; /* uniform in the warp */
                    T d[PC_G];
#pragma unroll
                    for (int u = 0; u < PC_G; ++u) {
                        d[u] = (T)0;
#pragma unroll
                        for (int r = 0; r < QRU_PREG_R; ++r)
                            d[u] += a[g + u][r] * v[r];
                    }
#pragma unroll
                    for (int u = 0; u < PC_G; ++u) {
                        int c = w + (g + u) * PC_HELPERS;
                        T sum = QRU_TEAM_SUM(d[u]); /* no branch: they
                                                     * interleave */
                        d[u] = c > c2 && c < nb ? t * sum : (T)0;
                    }
#pragma unroll
                    for (int u = 0; u < PC_G; ++u)
#pragma unroll
                        for (int r = 0; r < QRU_PREG_R; ++r)
                            a[g + u][r] -= d[u] * v[r];
                }
            }
        }
    }
    __syncthreads();
    /* Z(c, q) = Y(:, c)' Y(:, q), c < q (the strict lower part of Tm, for
     * T): 4 x 4 tiles (c block <= q block), a warp's rows in its lanes,
     * the 16 partial sums of a tile reduced together (pc_sum16) */
    for (int tl = w; tl < (PC_NB / 4) * (PC_NB / 4 + 1) / 2;
         tl += PC_THREADS / QRU_TEAM) {
        int qb = 0, cb = tl; /* tl = qb (qb + 1) / 2 + cb, cb <= qb */
        while (cb > qb) {
            cb -= qb + 1;
            ++qb;
        }
        if (4 * qb >= nb)
            continue;
        T acc[16];
#pragma unroll
        for (int e = 0; e < 16; ++e)
            acc[e] = (T)0;
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            T yc[4], yq[4];
#pragma unroll
            for (int u = 0; u < 4; ++u) {
                yc[u] = P[(long)(4 * cb + u) * PC_LEN + i];
                yq[u] = P[(long)(4 * qb + u) * PC_LEN + i];
            }
#pragma unroll
            for (int u = 0; u < 4; ++u)
#pragma unroll
                for (int v = 0; v < 4; ++v)
                    acc[4 * u + v] += yc[u] * yq[v];
        }
        int e;
        T z = pc_sum16<T>(acc, lane, &e);
        int c = 4 * cb + e / 4, q = 4 * qb + e % 4;
        if (!(lane & 1) && c < q && q < nb)
            Tm[q + c * PC_NB] = tv[q] != (T)0 ? z : (T)0;
    }
    __syncthreads();
    qru_panel_tbuild<T>(nb, Tm, PC_NB, tv, lid, PC_THREADS);
    {
        /* W = -Y T (T upper triangular: only l <= j) */
        int h = w / PC_HW, r0 = h ? PC_WR0 : 0,
            nr = h ? QRU_PREG_R - PC_WR0 : PC_WR0, wc = w % PC_HW;
        T acc[PC_WC][PC_WR0];
#pragma unroll
        for (int u = 0; u < PC_WC; ++u)
#pragma unroll
            for (int r = 0; r < PC_WR0; ++r)
                acc[u][r] = (T)0;
        for (int l = 0; l < nb; ++l) {
            T y[PC_WR0];
            const T *yl = P + (long)l * PC_LEN + lane + QRU_TEAM * r0;
#pragma unroll
            for (int r = 0; r < PC_WR0; ++r)
                y[r] = r < nr ? yl[QRU_TEAM * r] : (T)0;
#pragma unroll
            for (int u = 0; u < PC_WC; ++u) {
                int j = wc + PC_HW * u;
                if (l <= j && j < nb) { /* uniform in the warp */
                    T t = Tm[l + j * PC_NB];
#pragma unroll
                    for (int r = 0; r < PC_WR0; ++r)
                        acc[u][r] += y[r] * t;
                }
            }
        }
#pragma unroll
        for (int u = 0; u < PC_WC; ++u)
#pragma unroll
            for (int r = 0; r < PC_WR0; ++r) {
                int i = lane + QRU_TEAM * (r0 + r), j = wc + PC_HW * u;
                if (r < nr && i < m && j < nb)
                    W[QRU_IDX(ow, i, j, ldw)] = -acc[u][r];
            }
    }
    /* A (R with exact zeros), Y, tau */
    for (int j = w; j < nb; j += PC_THREADS / QRU_TEAM)
        for (int i = lane; i < m; i += QRU_TEAM) {
            A[QRU_IDX(oa, i, j, lda)] = i <= j ? Rs[i + j * PC_NB] : (T)0;
            Y[QRU_IDX(oy, i, j, ldy)] = P[i + (long)j * PC_LEN];
        }
    for (int j = lid; j < nb; j += PC_THREADS)
        tau[ot + j] = tv[j];
}

#endif /* QRU_CUDA_PANEL_CHAIN_CUH */
