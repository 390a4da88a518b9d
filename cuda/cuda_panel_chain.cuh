/*
 * The warp-chain panel (CUDA only; included by cuda/cuda_panel.cu after
 * kernels/qru_panel.cl, whose register-panel reflector qru_preg_house it
 * uses): the contract of qru_panel_qr for
 * panels of at most QRU_PREG_LEN (288) rows and PC_NB columns (64; 32 in
 * complex double: pc_dim), with the serial part of the column steps on
 * ONE warp and no block barrier between them.
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
 *     and hand column r + 2 over (slot r + 2 and its barrier).
 *   - Hand-offs are one-shot shared-memory barriers (mbarrier, sm_80
 *     and later: the release of the writer's stores and the acquire of
 *     the reader's, and an order compute-sanitizer's racecheck follows,
 *     which it does not for flags): ref[j] completes when the chain
 *     warp's 32 lanes have arrived after publishing reflector j, hand[c]
 *     when those of column c's helper have after leaving it in slot c
 *     (every lane arrives: with lane 0 alone after a __syncwarp, racecheck
 *     cannot see that the other lanes' stores are ordered before the
 *     hand-off and reports hazards).
 *     Each barrier is armed by one warp and awaited by others that never
 *     arrive on it, and each wait is for a step that an earlier step of
 *     the pipeline guarantees, so no order of the warps deadlocks.
 *   - At the end, after one block barrier, every warp: the dots
 *     Z(c, q) = Y(:, c)' Y(:, q), c < q (pc_dots: in double on the FP64
 *     tensor cores, in the other types 4 x 4 tiles; done by one helper in
 *     turn during the chain they cost ~16% of the panel), then W = -Y T by
 *     larft's recurrence on W's columns (pc_w: in double by blocks of 8
 *     columns, the products on the tensor cores; in the other types a row
 *     a thread in registers; T itself is never formed: its recursive
 *     build and a W = -Y T product took 26 + 17 us of a 264 x 64 panel on
 *     an H100, cuBLAS trmm three launches and ~30 us), then A (R with
 *     exact zeros), Y, W and tau written.
 *   - The panel may lie in two arrays (panel_qr_tp: rows below mt in B).
 *   - Complex data (one code for every type: the element arithmetic of
 *     kernels/qru_kdefs.h, a real T's plain operators): the conventions
 *     of kernels/qru_panel.cl, LAPACK's zgeqr2: zlarfg's reflectors
 *     (beta real, tau = (beta - alpha) / beta, v = x / (alpha - beta)),
 *     H' = I - conj(tau) v v' applied to the columns (x -= conj(tau) v
 *     (v'x)), Z = Y'Y of the conjugate transpose and W = -Y T with
 *     zlarft's T, which is what the other kernels' T and trmm give.
 *
 * Shared memory: PC_LOCAL_BYTES(T) (212 KiB in double and complex float,
 * 179 KiB in complex double): the device must grant the opt-in
 * (cuda_panel.cu checks; else the other kernels).
 */
#ifndef QRU_CUDA_PANEL_CHAIN_CUH
#define QRU_CUDA_PANEL_CHAIN_CUH

/* Build constants (the fastest of the variants measured): helper warps,
 * the sleep between the polls of a hand-off barrier before sm_90 (ns);
 * a helper's columns in groups of PC_G (pc_dim below) */
#define PC_HELPERS 7
/* the chain warp and the helpers (a ninth warp would cap the registers at
 * 168: three warps on one of the four schedulers' 16384) */
#define PC_WARPS (PC_HELPERS + 1)
#define PC_THREADS (PC_WARPS * QRU_TEAM)
#define PC_LEN QRU_PREG_LEN
/* the stride of P's slots: PC_LEN + 4, so that the 8 slots of a tensor-core
 * fragment (8 columns x 4 rows) fall on distinct banks */
#define PC_LDP (PC_LEN + 4)
#define PC_POLL_NS 32
/* The limits that depend on the element type T (complex data as real
 * where they fit the registers): nb, the panel's columns at most (64;
 * 32 for a 16-byte element, complex double, whose 4 registers an element
 * would not let a helper hold 9 columns of QRU_PREG_R rows); k, the
 * columns a helper holds (1..nb-1 spread over the helpers); g, a
 * helper's columns in groups of g (threes where they divide so, else all
 * at once, but one at a time for a 16-byte element: its 5 at once spill,
 * and a complex sum is two interleaved reductions already); the bytes of
 * shared memory: P, Tm, Rs, tau, then (8-byte aligned) the 2 nb hand-off
 * barriers. */
template <typename T> struct pc_dim {
    static constexpr int nb = sizeof(T) <= 8 ? 64 : 32;
    static constexpr int k = (nb - 1 + PC_HELPERS - 1) / PC_HELPERS;
    static constexpr int g = k % 3 == 0 ? 3 : sizeof(T) <= 8 ? k : 1;
    static constexpr size_t bar_off =
        (((size_t)PC_LDP * nb + 2 * (size_t)nb * nb + nb) * sizeof(T) + 7) /
        8 * 8;
    static constexpr size_t bytes = bar_off + 2 * nb * sizeof(uint64_t);
    static_assert(nb <= 2 * QRU_TEAM,
                  "the chain reads rows j - 1 and j from registers 0 and 1");
};
/* those of the element type T in scope (the kernel's and its helpers'
 * template parameter) */
#define PC_NB (pc_dim<T>::nb)
#define PC_K (pc_dim<T>::k)
#define PC_G (pc_dim<T>::g)
#define PC_ZB (PC_NB / 4) /* 4 x 4 tiles of Z */
#define PC_LOCAL_BYTES(T) (pc_dim<T>::bytes)

/* The hand-off barriers, each used for one phase: pc_bar_init sets the
 * arrivals it waits for; pc_arrive by each arriving lane after its stores
 * (release); pc_wait returns once the phase is complete (acquire: the
 * stores before the arrivals are visible).  Before sm_80 (no mbarrier;
 * never launched there: the kernel needs more shared memory than those
 * devices grant) the same contract as a counter in the barrier's word. */
static __device__ __forceinline__ unsigned pc_sh(const uint64_t *b)
{
    return (unsigned)__cvta_generic_to_shared(b);
}
static __device__ __forceinline__ void pc_bar_init(uint64_t *b, unsigned n)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(pc_sh(b)),
                 "r"(n)
                 : "memory");
#else
    (void)n;
    *b = 0;
#endif
}
static __device__ __forceinline__ void pc_arrive(uint64_t *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("{\n\t.reg .b64 st;\n\t"
                 "mbarrier.arrive.shared::cta.b64 st, [%0];\n\t}" ::"r"(
                     pc_sh(b))
                 : "memory");
#else
    __threadfence_block();
    atomicAdd((unsigned long long *)b, 1ull);
#endif
}
static __device__ __forceinline__ void pc_wait(uint64_t *b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    /* try_wait suspends the thread in hardware until the phase completes
     * or a time limit passes */
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(pc_sh(b))
                     : "memory");
    } while (!done);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned done;
    for (;;) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], 0;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(pc_sh(b))
                     : "memory");
        if (done)
            break;
        __nanosleep(PC_POLL_NS);
    }
#else
    while (*(const volatile unsigned long long *)b < QRU_TEAM)
        __nanosleep(PC_POLL_NS);
    __threadfence_block();
#endif
}

/* A value of lane (lane ^ o), also of a complex element (its parts) */
template <typename U>
static __device__ __forceinline__ U pc_shfl_xor(U v, int o)
{
    return __shfl_xor_sync(0xffffffffu, v, o);
}
template <typename R>
static __device__ __forceinline__ qru_cplx<R> pc_shfl_xor(qru_cplx<R> v,
                                                          int o)
{
    return qru_cplx<R>(__shfl_xor_sync(0xffffffffu, v.x, o),
                       __shfl_xor_sync(0xffffffffu, v.y, o));
}

/* One halving step of a warp reduction of N values a lane (a[0..N-1] of
 * every lane): lanes whose bit O is set keep the upper half of their
 * values and send the lower, the others the reverse; afterwards
 * a[0..N/2-1] are sums over lane pairs (lane, lane ^ O).  Steps with
 * O = 16, 8, 4, 2 (and 1) leave a lane N/16 (N/32) of the N warp sums
 * (pc_halved_at): one exchange a value instead of a butterfly each. */
template <typename T, int N, int O>
static __device__ __forceinline__ void pc_halve(T *a, int lane)
{
    int h = (lane & O) != 0;
#pragma unroll
    for (int k = 0; k < N / 2; ++k) {
        T mine = h ? a[k + N / 2] : a[k], other = h ? a[k] : a[k + N / 2];
        a[k] = mine + pc_shfl_xor(other, O);
    }
}
/* The first of the N / 32 sums a lane holds after the five steps (the
 * others follow it); for N = 32 after four steps, half of it is the sum
 * the lane pair holds */
template <int N> static __device__ __forceinline__ int pc_halved_at(int lane)
{
    return (N / 2) * ((lane >> 4) & 1) + (N / 4) * ((lane >> 3) & 1) +
           (N / 8) * ((lane >> 2) & 1) + (N / 16) * ((lane >> 1) & 1) +
           (N / 32) * (lane & 1);
}

/* Z(c, q) = Y(:, c)' Y(:, q), c < q (the reflectors in P's slots, rows
 * past m zero; Y(:, c)' the conjugate transpose for complex data), into
 * Tm's strict upper part, by warp w of the block.
 * On the CUDA cores: 4 x 4 tiles (c block <= q block), a warp's rows in
 * its lanes, the tile's 16 partial sums reduced by halving (8 x 8 tiles
 * are slower: more registers, fewer warps in flight). */
template <typename T>
static __device__ __forceinline__ void pc_dots(int m, int nb, const T *P,
                                               T *Tm, int w, int lane)
{
    for (int tl = w; tl < PC_ZB * (PC_ZB + 1) / 2; tl += PC_WARPS) {
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
                yc[u] = P[(long)(4 * cb + u) * PC_LDP + i];
                yq[u] = P[(long)(4 * qb + u) * PC_LDP + i];
            }
#pragma unroll
            for (int u = 0; u < 4; ++u)
#pragma unroll
                for (int v = 0; v < 4; ++v)
                    acc[4 * u + v] += QRU_CMUL(yc[u], yq[v]);
        }
        pc_halve<T, 16, 16>(acc, lane);
        pc_halve<T, 8, 8>(acc, lane);
        pc_halve<T, 4, 4>(acc, lane);
        pc_halve<T, 2, 2>(acc, lane);
        acc[0] += pc_shfl_xor(acc[0], 1);
        int e = pc_halved_at<32>(lane) / 2; /* both lanes of a pair */
        int c = 4 * cb + e / 4, q = 4 * qb + e % 4;
        if (!(lane & 1) && c < q && q < nb)
            Tm[c + q * PC_NB] = acc[0];
    }
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/* double on the tensor cores (mma m8n8k4, FP64, sm_80 and later; exact
 * FP64 products and sums, in another order): the 36 8 x 8 tiles of Z's
 * upper block triangle, PC_DT a warp, each a sum over the rows in steps of
 * 4.  Fragments (PTX ISA, mma.m8n8k4 .f64): lane l holds A(l / 4, l % 4),
 * B(l % 4, l / 4) and C(l / 4, 2 (l % 4) + {0, 1}); A(c, k) = Y(i0 + k, c)
 * and B(k, q) = Y(i0 + k, q) are both P[col * PC_LDP + i0 + l % 4]. */
#define PC_DT (((PC_NB / 8) * (PC_NB / 8 + 1) / 2 + PC_WARPS - 1) / PC_WARPS)
template <>
__device__ __forceinline__ void pc_dots<double>(int m, int nb,
                                                const double *P, double *Tm,
                                                int w, int lane)
{
    typedef double T; /* PC_NB and PC_DT: double's */
    int ca[PC_DT], qa[PC_DT], any = 0;
    double acc[PC_DT][2];
#pragma unroll
    for (int u = 0; u < PC_DT; ++u) {
        int tl = w + u * PC_WARPS, qb = 0, cb = tl;
        while (cb > qb) { /* tl = qb (qb + 1) / 2 + cb, cb <= qb */
            cb -= qb + 1;
            ++qb;
        }
        int ok = tl < (PC_NB / 8) * (PC_NB / 8 + 1) / 2 && 8 * qb < nb;
        ca[u] = ok ? (8 * cb + lane / 4) * PC_LDP + lane % 4 : -1;
        qa[u] = ok ? (8 * qb + lane / 4) * PC_LDP + lane % 4 : -1;
        acc[u][0] = acc[u][1] = 0.0;
        any |= ok;
    }
    if (!any)
        return;
#pragma unroll 2
    for (int i0 = 0; i0 < m; i0 += 4) {
#pragma unroll
        for (int u = 0; u < PC_DT; ++u) {
            if (ca[u] < 0) /* uniform in the warp */
                continue;
            double a = P[ca[u] + i0], b = P[qa[u] + i0];
            asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                "{%0, %1}, {%2}, {%3}, {%0, %1};"
                : "+d"(acc[u][0]), "+d"(acc[u][1])
                : "d"(a), "d"(b));
        }
    }
#pragma unroll
    for (int u = 0; u < PC_DT; ++u) {
        if (ca[u] < 0)
            continue;
        int tl = w + u * PC_WARPS, qb = 0, cb = tl;
        while (cb > qb) {
            cb -= qb + 1;
            ++qb;
        }
        int c = 8 * cb + lane / 4, q = 8 * qb + 2 * (lane % 4);
#pragma unroll
        for (int h = 0; h < 2; ++h)
            if (c < q + h && q + h < nb)
                Tm[c + (q + h) * PC_NB] = acc[u][h];
    }
}
#endif

/* Y (m x nb) := P's slots, warp w's columns (rows unrolled: the loads
 * issue together, a loop a row took ~5000 cycles for a 264 x 64 panel) */
template <typename T>
static __device__ __forceinline__ void pc_out_y(int m, int nb, const T *P,
                                                T *Y, long oy, int ldy,
                                                int w, int lane)
{
    for (int j = w; j < nb; j += PC_WARPS)
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            if (i < m)
                Y[QRU_IDX(oy, i, j, ldy)] = P[i + (long)j * PC_LDP];
        }
}

/* W = -Y T (T never formed) and Y written out, by the whole block; P's
 * slots hold Y on entry, Tm Z's strict upper part.  On the CUDA cores:
 * column by column, a row a thread (rows past the block's threads in a
 * second round),
 *     W(:, j) = -tau_j (Y(:, j) + W(:, 0:j-1) Z(0:j-1, j)),
 * larft's recurrence for T's columns applied to W directly (zlarft's for
 * complex data: T(0:j-1, j) = -tau_j T(0:j-1, 0:j-1) Z(0:j-1, j),
 * T(j, j) = tau_j, with Z = Y'Y of the conjugate transpose, so that
 * W(:, j) = -Y(:, 0:j) T(0:j, j) is the line above; tau_j = 0 gives
 * W(:, j) = 0, as T's zero row and column do); W's row in registers, Z's
 * column read by the whole block at once. */
template <typename T>
static __device__ __forceinline__ void
pc_w(int m, int nb, T *P, const T *Tm, const T *tv, T *W, long ow, int ldw,
     T *Y, long oy, int ldy, int lid, int w, int lane)
{
    for (int i = lid; i < m; i += PC_THREADS) {
        T wr[PC_NB];
#pragma unroll
        for (int j = 0; j < PC_NB; ++j) {
            if (j >= nb) /* uniform */
                break;
            T s = P[(long)j * PC_LDP + i];
#pragma unroll
            for (int l = 0; l < j; ++l)
                s += QRU_MUL(wr[l], Tm[l + j * PC_NB]);
            wr[j] = QRU_MUL(-tv[j], s);
            W[QRU_IDX(ow, i, j, ldw)] = wr[j];
        }
    }
    pc_out_y(m, nb, P, Y, oy, ldy, w, lane);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/* double on the tensor cores: the same recurrence in blocks J of 8
 * columns, W's rows in 8-row tiles, a warp's tiles its own throughout (a
 * row of W needs only its own row of Y, so no block barrier between the
 * blocks):
 *     S = Y(:, J) + W(:, 0:j0-1) Z(0:j0-1, J)     (mma m8n8k4 f64)
 *     then within J, a row a lane, the 8 columns by the recurrence above.
 * Y is written out first; then slot j of P holds Y(:, j) until block J
 * replaces it by W(:, j), which the later blocks read. */
#define PC_WT ((PC_LEN / 8 + PC_WARPS - 1) / PC_WARPS) /* tiles a warp */
template <>
__device__ __forceinline__ void
pc_w<double>(int m, int nb, double *P, const double *Tm, const double *tv,
             double *W, long ow, int ldw, double *Y, long oy, int ldy,
             int lid, int w, int lane)
{
    typedef double T; /* PC_NB: double's */
    pc_out_y(m, nb, P, Y, oy, ldy, w, lane);
    __syncthreads();
    int nt = (m + 7) / 8, g = lane / 4, t = lane % 4;
#pragma unroll
    for (int j0 = 0; j0 < PC_NB; j0 += 8) {
        if (j0 >= nb) /* uniform */
            break;
        double acc[PC_WT][2];
#pragma unroll
        for (int u = 0; u < PC_WT; ++u) {
            int row = 8 * (w + u * PC_WARPS) + g;
            if (row < 8 * nt) { /* uniform in the warp */
                acc[u][0] = P[(long)(j0 + 2 * t) * PC_LDP + row];
                acc[u][1] = P[(long)(j0 + 2 * t + 1) * PC_LDP + row];
            }
        }
        for (int k0 = 0; k0 < j0; k0 += 4) {
            double b = Tm[(k0 + t) + (j0 + g) * PC_NB]; /* Z(k0+t, j0+g) */
#pragma unroll
            for (int u = 0; u < PC_WT; ++u) {
                int rt = w + u * PC_WARPS;
                if (rt >= nt)
                    continue;
                double a = P[(long)(k0 + t) * PC_LDP + 8 * rt + g];
                asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
                    "{%0, %1}, {%2}, {%3}, {%0, %1};"
                    : "+d"(acc[u][0]), "+d"(acc[u][1])
                    : "d"(a), "d"(b));
            }
        }
#pragma unroll
        for (int u = 0; u < PC_WT; ++u) {
            int row = 8 * (w + u * PC_WARPS) + g;
            if (row < 8 * nt) {
                P[(long)(j0 + 2 * t) * PC_LDP + row] = acc[u][0];
                P[(long)(j0 + 2 * t + 1) * PC_LDP + row] = acc[u][1];
            }
        }
        __syncwarp();
        for (int e = lane; e < 8 * PC_WT; e += QRU_TEAM) {
            int rt = w + (e / 8) * PC_WARPS, row = 8 * rt + e % 8;
            if (rt >= nt)
                continue;
            /* every load first (the stores below could alias them for
             * the compiler, which then serialised the columns), then
             * the recurrence (columns past nb: unused values) */
            double sv[8], wl[8];
#pragma unroll
            for (int jj = 0; jj < 8; ++jj)
                sv[jj] = P[(long)(j0 + jj) * PC_LDP + row];
#pragma unroll
            for (int jj = 0; jj < 8; ++jj) {
                double s = sv[jj];
#pragma unroll
                for (int l = 0; l < jj; ++l)
                    s += wl[l] * Tm[(j0 + l) + (j0 + jj) * PC_NB];
                wl[jj] = -tv[j0 + jj] * s;
            }
#pragma unroll
            for (int jj = 0; jj < 8; ++jj)
                if (j0 + jj < nb) {
                    P[(long)(j0 + jj) * PC_LDP + row] = wl[jj];
                    if (row < m)
                        W[QRU_IDX(ow, row, j0 + jj, ldw)] = wl[jj];
                }
        }
        __syncwarp();
    }
}
#endif

template <typename T>
__global__ void __launch_bounds__(PC_THREADS, 1)
    qru_panel_qr_chain(int m, int mt, int nb, T *A, long oa, int lda, T *B,
                       long ob, int ldb, T *Y, long oy, int ldy, T *W,
                       long ow, int ldw, T *tau, long ot)
{
/* element (i, c) of the panel [A; B] (panel_qr_tp; mt = m: A alone) */
#define PC_AT(i, c)                                                            \
    (*((i) < mt ? &A[QRU_IDX(oa, i, c, lda)]                                  \
                : &B[QRU_IDX(ob, (i) - mt, c, ldb)]))
    extern __shared__ __align__(16) unsigned char qru_panel_smem_[];
    T *P = (T *)qru_panel_smem_;  /* slot c: column c, then reflector c */
    T *Tm = P + PC_LDP * PC_NB;   /* Z (strict upper part) */
    T *Rs = Tm + PC_NB * PC_NB;   /* R (upper triangle) */
    T *tv = Rs + PC_NB * PC_NB;   /* tau */
    uint64_t *ref = (uint64_t *)(qru_panel_smem_ + pc_dim<T>::bar_off);
    /* ref[j]: reflector j in slot j; hand[c]: column c in slot c */
    uint64_t *hand = ref + PC_NB;
    int lid = threadIdx.x, w = lid / QRU_TEAM, lane = lid % QRU_TEAM;
    for (int e = lid; e < 2 * PC_NB; e += PC_THREADS)
        pc_bar_init(&ref[e], QRU_TEAM);
    __syncthreads();
    if (w == 0) { /* the chain */
        T x[QRU_PREG_R], v[QRU_PREG_R];
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) {
            int i = lane + QRU_TEAM * r;
            x[r] = i < m ? PC_AT(i, 0) : (T)0;
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
            pc_arrive(&ref[j]);
            if (++j >= nb)
                break;
            /* column j: reflectors 0..j-2 applied by its helper; apply
             * j - 1 (v, t: x -= d v, d = conj(t) v'x, H' as the helpers
             * apply it) and form reflector j with ONE batched team
             * reduction: the dot, and the sums over the rows below j that
             * give the new sum of squares without a second pass (xx and
             * vv the sums of |x|^2 and |v|^2, xv = v'x there),
             *     ss = |x - d v|^2 = xx - 2 Re(d conj(xv)) + |d|^2 vv,
             * taken where it cannot have lost more than a bit to
             * cancellation (ss >= xx / 2) and no square can over- or
             * underflow; else qru_preg_house recomputes it. */
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                v[r] = i > j - 1 ? x[r] : (i == j - 1 ? QRU_MKR(1) : (T)0);
            }
            pc_wait(&hand[j]);
            const T *sl = P + (long)j * PC_LDP;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                x[r] = sl[lane + QRU_TEAM * r];
            QRU_R xx = (QRU_R)0, vv = (QRU_R)0;
            T xv = (T)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                T xb = i > j ? x[r] : (T)0, vb = i > j ? v[r] : (T)0;
                xx += QRU_ABS2(xb);
                xv += QRU_MUL(xb, QRU_CONJ(vb));
                vv += QRU_ABS2(vb);
            }
            /* rows j - 1 and j (below 2 QRU_TEAM: registers 0 and 1) from
             * the lanes that hold them, one shuffle each; v is 0 above
             * row j - 1 and 1 at it, so v'x = x(j-1) + conj(v(j)) x(j) +
             * xv.  Sums in every lane, bit-identical (an xor butterfly
             * adds the same pairs in every lane), so branches on them are
             * uniform. */
            T al = QRU_TEAM_BCAST(j < QRU_TEAM ? x[0] : x[1], j % QRU_TEAM);
            T vj = QRU_TEAM_BCAST(j < QRU_TEAM ? v[0] : v[1], j % QRU_TEAM);
            T x1 = QRU_TEAM_BCAST(j - 1 < QRU_TEAM ? x[0] : x[1],
                                  (j - 1) % QRU_TEAM);
            xx = QRU_TEAM_SUM(xx);
            xv = QRU_TEAM_SUM(xv);
            vv = QRU_TEAM_SUM(vv);
            T pd = x1 + QRU_MUL(al, QRU_CONJ(vj)) + xv;
            T d = QRU_MUL(QRU_CONJ(t), pd);
            if (QRU_ISZERO(t))
                d = (T)0;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                x[r] -= QRU_MUL(d, v[r]);
            al -= QRU_MUL(d, vj);
            QRU_R ss = xx - QRU_RE(QRU_MUL((QRU_R)2 * d, QRU_CONJ(xv))) +
                       QRU_ABS2(d) * vv;
            QRU_R al2 = QRU_ABS2(al);
            T *vo = P + (long)j * PC_LDP;
            if (ss >= (QRU_R)0.5 * xx && ss > QRU_SSQ_LO &&
                ss < QRU_SSQ_HI && al2 < QRU_SSQ_HI) {
                /* zlarfg's reflector (qru_larfg_beta): beta real, of the
                 * sign opposite to Re(al), tau = (beta - al) / beta, v =
                 * x / (al - beta) */
                QRU_R b = QRU_SQRT(al2 + ss);
                if (QRU_RE(al) >= (QRU_R)0)
                    b = -b;
                T beta = QRU_MKR(b), g = al - beta, f;
                if constexpr (QRU_CPLX) {
                    /* f = 1 / g = conj(g) / |g|^2 and tau = -g / b (as
                     * qru_preg_house's (beta - al) / b): two real
                     * divisors, not one (b |g|^2 could overflow); none
                     * over- or underflows in the ranges above
                     * (sqrt(ss) <= |b| <= |g| <= |al| + |b|) */
                    f = QRU_CONJ(g) * ((QRU_R)1 / QRU_ABS2(g));
                    t = -g / b;
                } else {
                    /* one division: 1 / (beta g), no over- or underflow
                     * in the ranges above */
                    T inv = (T)1 / (beta * g);
                    f = beta * inv;
                    t = -g * g * inv;
                }
#pragma unroll
                for (int r = 0; r < QRU_PREG_R; ++r) {
                    int i = lane + QRU_TEAM * r;
                    if (i > j)
                        x[r] = QRU_MUL(x[r], f);
                    else if (i == j)
                        x[r] = beta;
                    vo[i] = i > j ? x[r] : (i == j ? QRU_MKR(1) : (T)0);
                }
                if (lane == 0)
                    tv[j] = t;
            } else {
                t = qru_preg_house<T>(m, j, x, vo, tv, lane);
            }
        }
    } else if (w <= PC_HELPERS) { /* a helper: columns c = w + k PC_HELPERS */
        T a[PC_K][QRU_PREG_R];
#pragma unroll
        for (int k = 0; k < PC_K; ++k) {
            int c = w + k * PC_HELPERS;
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r) {
                int i = lane + QRU_TEAM * r;
                a[k][r] = (c < nb && i < m) ? PC_AT(i, c) : (T)0;
            }
        }
        if (w == 1 && nb > 1) { /* column 1 needs no reflector before it */
#pragma unroll
            for (int r = 0; r < QRU_PREG_R; ++r)
                P[PC_LDP + lane + QRU_TEAM * r] = a[0][r];
            pc_arrive(&hand[1]);
        }
        for (int q = 0; q < nb; ++q) { /* reflector q */
            pc_wait(&ref[q]);
            T t = tv[q];
            T v[QRU_PREG_R];
            const T *s = P + (long)q * PC_LDP;
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
                T *o = P + (long)c2 * PC_LDP;
#pragma unroll
                for (int k = 0; k < PC_K; ++k)
                    if (w + k * PC_HELPERS == c2) {
                        if (!QRU_ISZERO(t)) {
                            T d = (T)0;
#pragma unroll
                            for (int r = 0; r < QRU_PREG_R; ++r)
                                d += QRU_MUL(a[k][r], QRU_CONJ(v[r]));
                            d = QRU_MUL(QRU_CONJ(t), QRU_TEAM_SUM(d));
#pragma unroll
                            for (int r = 0; r < QRU_PREG_R; ++r)
                                a[k][r] -= QRU_MUL(d, v[r]);
                        }
#pragma unroll
                        for (int r = 0; r < QRU_PREG_R; ++r)
                            o[lane + QRU_TEAM * r] = a[k][r];
                    }
                pc_arrive(&hand[c2]);
            }
            if (!QRU_ISZERO(t)) { /* the rest */
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
                            d[u] += QRU_MUL(a[g + u][r], QRU_CONJ(v[r]));
                    }
#pragma unroll
                    for (int u = 0; u < PC_G; ++u) {
                        int c = w + (g + u) * PC_HELPERS;
                        T sum = QRU_TEAM_SUM(d[u]); /* no branch: they
                                                     * interleave */
                        d[u] = c > c2 && c < nb ? QRU_MUL(QRU_CONJ(t), sum)
                                                : (T)0;
                    }
#pragma unroll
                    for (int u = 0; u < PC_G; ++u)
#pragma unroll
                        for (int r = 0; r < QRU_PREG_R; ++r)
                            a[g + u][r] -= QRU_MUL(d[u], v[r]);
                }
            }
        }
    }
    __syncthreads();
    pc_dots<T>(m, nb, P, Tm, w, lane);
    __syncthreads();
    pc_w<T>(m, nb, P, Tm, tv, W, ow, ldw, Y, oy, ldy, lid, w, lane);
    /* A (R with exact zeros), tau */
    for (int j = w; j < nb; j += PC_WARPS)
#pragma unroll
        for (int r = 0; r < QRU_PREG_R; ++r) { /* the loads issue together */
            int i = lane + QRU_TEAM * r;
            if (i < m)
                PC_AT(i, j) = i <= j ? Rs[i + j * PC_NB] : (T)0;
        }
    for (int j = lid; j < nb; j += PC_THREADS)
        tau[ot + j] = tv[j];
#undef PC_AT
}

#endif /* QRU_CUDA_PANEL_CHAIN_CUH */
