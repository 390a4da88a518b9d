/*
 * One source for device kernels: the bodies in kernels/*.cl are written
 * against these macros and compiled twice,
 *   - by nvcc, included from cuda/*.cu, where each kernel is a function
 *     template over the element type T (instantiated for float and double,
 *     and qru_cplx<float> / <double> for the kernels of complex data);
 *   - by the OpenCL runtime, embedded as program text (opencl/), built once
 *     per context and element type with -DT=float or -DT=double, and
 *     for the complex types with -DT=float2 / double2 -DQRU_R=float /
 *     double -DQRU_CPLX_PROG (the kernels that take complex data only:
 *     opencl/opencl_program.c).
 *
 * Kernel bodies use only:
 *   QRU_KERNEL            before the return type of a kernel (void)
 *   QRU_DEVICE            before a helper function (a template over T in CUDA)
 *   QRU_DEVICE_PLAIN      before a helper function that does not use T
 *   QRU_GLOBAL            address space of a pointer to global memory
 *   QRU_LOCAL             address space of work-group shared memory
 *   QRU_LOCAL_DECL(t,n,s) declares shared array n of s elements of type t
 *   QRU_GID_X/Y, QRU_LID_X/Y, QRU_GROUP_X/Y, QRU_LSIZE_X/Y, QRU_NGROUPS_X/Y
 *   QRU_BARRIER           work-group barrier on local memory
 *   QRU_BARRIER_GLOBAL    work-group barrier also ordering global memory
 *   QRU_SQRT, QRU_FABS, QRU_RSQRT
 *                         precision-generic math (QRU_RSQRT(x) = 1 / sqrt(x))
 *   QRU_RANGE_LO, QRU_RANGE_HI
 *                         2^-900 and 2^900 (float: 2^-100, 2^100; QRU_R
 *                         values, a complex T's by its base): a sum of
 *                         squares between them lost nothing that matters
 *                         to underflow and cannot overflow (the unscaled
 *                         formulas' range)
 *   T                     the element type
 *   QRU_R                 its real base type (T itself for float, double)
 *   QRU_RH                the real type in a helper called with real
 *                         values (QRU_DEVICE over its own T in CUDA)
 *   QRU_CPLX              1 for a complex T, else 0 (a constant: a branch
 *                         on it is folded; both sides compile for any T)
 *   QRU_MUL(a, b), QRU_CMUL(a, b)
 *                         a b and conj(a) b
 *   QRU_CONJ(a), QRU_RE(a), QRU_IM(a), QRU_ABS(a), QRU_ABS2(a)
 *                         conj(a), its real and imaginary parts, |a| and
 *                         |a|^2 (QRU_R; QRU_IM of a real T is 0)
 *   QRU_MKR(r)            the T of the real value r
 *   QRU_ISZERO(a), QRU_FINITE(a)
 *                         a == 0, both parts of a finite
 *   QRU_INV(a)            1 / a (complex: scaled, no overflow)
 *   QRU_DIV(a, b)         a / b (complex: a QRU_INV(b))
 *   QRU_UNIT(a, aa)       a / aa for aa = |a| > 0 finite (real: +-1,
 *                         copysign's, without the division)
 *                         For a real T these are the plain operators
 *                         (QRU_MUL(a, b) is a * b, QRU_CONJ(a) is a, ...),
 *                         so a real kernel compiles to what it was
 *                         without them.  A complex T has +, -, unary -,
 *                         and * and / by a QRU_R, and (T)0 is its zero;
 *                         any other constant is QRU_MKR (OpenCL's
 *                         (float2)1 is (1, 1)), a product of two T is
 *                         QRU_MUL and a comparison QRU_ISZERO or one of
 *                         parts.
 *   QRU_TEAM              items of a "team" that reduce together without a
 *                         work-group barrier (CUDA: a warp of 32; OpenCL
 *                         1.2, which has no sub-group functions: 1)
 *   QRU_TEAM_SUM(x), QRU_TEAM_MAX(x)
 *                         sum / maximum of x over the team, in every item
 *                         (a NaN in any item gives NaN in every item; the
 *                         sum and the two below also for a complex x)
 *   QRU_TEAM_BCAST(x, l)  x of the team's item l, in every item
 *   QRU_TEAM_UNIFORM(x)   x of the team's item 0, in every item: a branch
 *                         on it is taken by the whole team whatever the
 *                         data, so a team operation inside it is reached by
 *                         every item (never branch around one on a value
 *                         each item computed itself from NaN-prone data)
 *   QRU_TEAM_SYNC         orders the team's local-memory accesses
 *   QRU_FENCE_LOCAL       orders this item's local-memory accesses as seen
 *                         by the other items of the work-group
 */
#ifndef QRU_KDEFS_H
#define QRU_KDEFS_H

#if defined(__CUDACC__)
#define QRU_KERNEL template <typename T> __global__
#define QRU_DEVICE template <typename T> __device__ __forceinline__
#define QRU_DEVICE_PLAIN static __device__ __forceinline__
#define QRU_GLOBAL
#define QRU_LOCAL
#define QRU_LOCAL_DECL(type, name, size) __shared__ type name[size]
#define QRU_GID_X (blockIdx.x * blockDim.x + threadIdx.x)
#define QRU_GID_Y (blockIdx.y * blockDim.y + threadIdx.y)
#define QRU_LID_X threadIdx.x
#define QRU_LID_Y threadIdx.y
#define QRU_GROUP_X blockIdx.x
#define QRU_GROUP_Y blockIdx.y
#define QRU_LSIZE_X blockDim.x
#define QRU_LSIZE_Y blockDim.y
#define QRU_NGROUPS_X gridDim.x
#define QRU_NGROUPS_Y gridDim.y
#define QRU_BARRIER __syncthreads()
#define QRU_BARRIER_GLOBAL __syncthreads()
#define QRU_SQRT(x) sqrt(x)
#define QRU_FABS(x) fabs(x)
#define QRU_RSQRT(x) rsqrt(x)
#define QRU_RANGE_LO                                                           \
    (sizeof(QRU_R) == 8 ? (QRU_R)0x1p-900 : (QRU_R)0x1p-100)
#define QRU_RANGE_HI (sizeof(QRU_R) == 8 ? (QRU_R)0x1p900 : (QRU_R)0x1p100)
#define QRU_TEAM 32
#define QRU_TEAM_SYNC __syncwarp()
template <typename U> __device__ inline U qru_team_sum_(U v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <typename U> __device__ inline U qru_team_max_(U v)
{
    for (int o = 16; o > 0; o >>= 1) {
        U w = __shfl_xor_sync(0xffffffffu, v, o);
        v = (w > v || w != w) ? w : v; /* NaN wins, in both partners */
    }
    return v;
}
template <typename U> __device__ inline U qru_team_bcast_(U v, int l)
{
    return __shfl_sync(0xffffffffu, v, l);
}
#define QRU_TEAM_SUM(x) qru_team_sum_(x)
#define QRU_TEAM_MAX(x) qru_team_max_(x)
#define QRU_TEAM_BCAST(x, l) qru_team_bcast_((x), (l))
#define QRU_TEAM_UNIFORM(x) qru_team_bcast_((x), 0)
#define QRU_FENCE_LOCAL __threadfence_block()
/* Complex elements: interleaved (re, im) pairs as cuComplex and C99's
 * complex; T of the complex kernels is qru_cplx<float> / <double>. */
template <typename R> struct qru_cplx {
    R x, y;
    qru_cplx() = default;
    __host__ __device__ constexpr qru_cplx(R re, R im = R(0)) : x(re), y(im)
    {
    }
};
template <typename T> struct qru_kt {
    typedef T real;
    static constexpr int cplx = 0;
};
template <typename R> struct qru_kt<qru_cplx<R>> {
    typedef R real;
    static constexpr int cplx = 1;
};
/* the team operations of a complex value: on its parts */
template <typename R> __device__ inline qru_cplx<R> qru_team_sum_(qru_cplx<R> v)
{
    return qru_cplx<R>(qru_team_sum_(v.x), qru_team_sum_(v.y));
}
template <typename R>
__device__ inline qru_cplx<R> qru_team_bcast_(qru_cplx<R> v, int l)
{
    return qru_cplx<R>(__shfl_sync(0xffffffffu, v.x, l),
                       __shfl_sync(0xffffffffu, v.y, l));
}
/* a load that bypasses L1 (data that other blocks wrote), also of a
 * complex element (its two parts) */
template <typename U> __device__ __forceinline__ U qru_ldcg(const U *p)
{
    return __ldcg(p);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_ldcg(const qru_cplx<R> *p)
{
    return qru_cplx<R>(__ldcg(&p->x), __ldcg(&p->y));
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator+(qru_cplx<R> a, qru_cplx<R> b)
{
    return qru_cplx<R>(a.x + b.x, a.y + b.y);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator-(qru_cplx<R> a, qru_cplx<R> b)
{
    return qru_cplx<R>(a.x - b.x, a.y - b.y);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator-(qru_cplx<R> a)
{
    return qru_cplx<R>(-a.x, -a.y);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> &operator+=(qru_cplx<R> &a,
                                                   qru_cplx<R> b)
{
    a.x += b.x;
    a.y += b.y;
    return a;
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> &operator-=(qru_cplx<R> &a,
                                                   qru_cplx<R> b)
{
    a.x -= b.x;
    a.y -= b.y;
    return a;
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> &operator*=(qru_cplx<R> &a, R r)
{
    a.x *= r;
    a.y *= r;
    return a;
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator*(R r, qru_cplx<R> a)
{
    return qru_cplx<R>(r * a.x, r * a.y);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator*(qru_cplx<R> a, R r)
{
    return qru_cplx<R>(a.x * r, a.y * r);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> operator/(qru_cplx<R> a, R r)
{
    return qru_cplx<R>(a.x / r, a.y / r);
}
#define QRU_KREAL_OPS_(R)                                                      \
    static __device__ __forceinline__ R qru_mul_(R a, R b) { return a * b; }   \
    static __device__ __forceinline__ R qru_conj_(R a) { return a; }           \
    static __device__ __forceinline__ R qru_re_(R a) { return a; }             \
    static __device__ __forceinline__ R qru_im_(R) { return R(0); }            \
    static __device__ __forceinline__ R qru_abs_(R a) { return fabs(a); }      \
    static __device__ __forceinline__ R qru_abs2_(R a) { return a * a; }       \
    static __device__ __forceinline__ bool qru_iszero_(R a)                    \
    {                                                                          \
        return a == R(0);                                                      \
    }                                                                          \
    static __device__ __forceinline__ bool qru_finite_(R a)                    \
    {                                                                          \
        return isfinite(a);                                                    \
    }                                                                          \
    static __device__ __forceinline__ R qru_inv_(R a) { return R(1) / a; }    \
    static __device__ __forceinline__ R qru_div_(R a, R b) { return a / b; }  \
    static __device__ __forceinline__ R qru_unit_(R a, R)                      \
    {                                                                          \
        return copysign(R(1), a);                                              \
    }
QRU_KREAL_OPS_(float)
QRU_KREAL_OPS_(double)
#undef QRU_KREAL_OPS_
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_mul_(qru_cplx<R> a, qru_cplx<R> b)
{
    return qru_cplx<R>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_conj_(qru_cplx<R> a)
{
    return qru_cplx<R>(a.x, -a.y);
}
template <typename R> __device__ __forceinline__ R qru_re_(qru_cplx<R> a)
{
    return a.x;
}
template <typename R> __device__ __forceinline__ R qru_im_(qru_cplx<R> a)
{
    return a.y;
}
template <typename R> __device__ __forceinline__ R qru_abs_(qru_cplx<R> a)
{
    return hypot(a.x, a.y);
}
template <typename R> __device__ __forceinline__ R qru_abs2_(qru_cplx<R> a)
{
    return a.x * a.x + a.y * a.y;
}
template <typename R>
__device__ __forceinline__ bool qru_iszero_(qru_cplx<R> a)
{
    return a.x == R(0) && a.y == R(0);
}
template <typename R>
__device__ __forceinline__ bool qru_finite_(qru_cplx<R> a)
{
    return isfinite(a.x) && isfinite(a.y);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_inv_(qru_cplx<R> a)
{
    R s = fabs(a.x) > fabs(a.y) ? fabs(a.x) : fabs(a.y);
    R re = a.x / s, im = a.y / s, d = s * (re * re + im * im);
    return qru_cplx<R>(re / d, -im / d);
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_div_(qru_cplx<R> a, qru_cplx<R> b)
{
    return qru_mul_(a, qru_inv_(b));
}
template <typename R>
__device__ __forceinline__ qru_cplx<R> qru_unit_(qru_cplx<R> a, R aa)
{
    return a / aa;
}
#define QRU_R typename qru_kt<T>::real
#define QRU_RH T
#define QRU_CPLX (qru_kt<T>::cplx)
#define QRU_MKR(r) (T((typename qru_kt<T>::real)(r)))
#elif defined(__OPENCL_VERSION__)
#ifdef QRU_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define QRU_KERNEL __kernel
#define QRU_DEVICE inline
#define QRU_DEVICE_PLAIN inline
#define QRU_GLOBAL __global
#define QRU_LOCAL __local
#define QRU_LOCAL_DECL(type, name, size) __local type name[size]
#define QRU_GID_X ((int)get_global_id(0))
#define QRU_GID_Y ((int)get_global_id(1))
#define QRU_LID_X ((int)get_local_id(0))
#define QRU_LID_Y ((int)get_local_id(1))
#define QRU_GROUP_X ((int)get_group_id(0))
#define QRU_GROUP_Y ((int)get_group_id(1))
#define QRU_LSIZE_X ((int)get_local_size(0))
#define QRU_LSIZE_Y ((int)get_local_size(1))
#define QRU_NGROUPS_X ((int)get_num_groups(0))
#define QRU_NGROUPS_Y ((int)get_num_groups(1))
#define QRU_BARRIER barrier(CLK_LOCAL_MEM_FENCE)
#define QRU_BARRIER_GLOBAL barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define QRU_SQRT(x) sqrt(x)
#define QRU_FABS(x) fabs(x)
#define QRU_RSQRT(x) rsqrt(x)
#ifdef QRU_FP64
#define QRU_RANGE_LO 0x1p-900
#define QRU_RANGE_HI 0x1p900
#else
#define QRU_RANGE_LO 0x1p-100f
#define QRU_RANGE_HI 0x1p100f
#endif
#define QRU_TEAM 1
#define QRU_TEAM_SYNC
#define QRU_TEAM_SUM(x) (x)
#define QRU_TEAM_MAX(x) (x)
#define QRU_TEAM_BCAST(x, l) (x)
#define QRU_TEAM_UNIFORM(x) (x)
#define QRU_FENCE_LOCAL mem_fence(CLK_LOCAL_MEM_FENCE)
#ifdef QRU_CPLX_PROG
/* T is float2 / double2 (re, im), QRU_R its base type (build options) */
#define QRU_CPLX 1
#define QRU_RH QRU_R
inline T qru_mul_(T a, T b)
{
    return (T)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
inline T qru_inv_(T a)
{
    QRU_R s = fabs(a.x) > fabs(a.y) ? fabs(a.x) : fabs(a.y);
    QRU_R re = a.x / s, im = a.y / s, d = s * (re * re + im * im);
    return (T)(re / d, -im / d);
}
#define qru_div_(a, b) qru_mul_(a, qru_inv_(b))
#define qru_unit_(a, aa) ((a) / (aa))
#define qru_conj_(a) ((T)((a).x, -(a).y))
#define qru_re_(a) ((a).x)
#define qru_im_(a) ((a).y)
#define qru_abs_(a) hypot((a).x, (a).y)
#define qru_abs2_(a) ((a).x * (a).x + (a).y * (a).y)
#define qru_iszero_(a) ((a).x == (QRU_R)0 && (a).y == (QRU_R)0)
#define qru_finite_(a) (isfinite((a).x) && isfinite((a).y))
#define QRU_MKR(r) ((T)((QRU_R)(r), (QRU_R)0))
#else
#define QRU_CPLX 0
#define QRU_R T
#define QRU_RH T
#define qru_mul_(a, b) ((a) * (b))
#define qru_inv_(a) ((T)1 / (a))
#define qru_div_(a, b) ((a) / (b))
#define qru_unit_(a, aa) copysign((T)1, (a))
#define qru_conj_(a) (a)
#define qru_re_(a) (a)
#define qru_im_(a) ((T)0)
#define qru_abs_(a) fabs(a)
#define qru_abs2_(a) ((a) * (a))
#define qru_iszero_(a) ((a) == (T)0)
#define qru_finite_(a) isfinite(a)
#define QRU_MKR(r) ((T)(r))
#endif
#endif
#if !defined(__CUDACC__) && !defined(__OPENCL_VERSION__)
#error "kernels/qru_kdefs.h is for CUDA or OpenCL device code"
#endif

/* The element arithmetic of the vocabulary above (both compilers). */
#define QRU_MUL(a, b) qru_mul_(a, b)
#define QRU_CMUL(a, b) qru_mul_(qru_conj_(a), b)
#define QRU_CONJ(a) qru_conj_(a)
#define QRU_RE(a) qru_re_(a)
#define QRU_IM(a) qru_im_(a)
#define QRU_ABS(a) qru_abs_(a)
#define QRU_ABS2(a) qru_abs2_(a)
#define QRU_ISZERO(a) qru_iszero_(a)
#define QRU_FINITE(a) qru_finite_(a)
#define QRU_INV(a) qru_inv_(a)
#define QRU_DIV(a, b) qru_div_(a, b)
#define QRU_UNIT(a, aa) qru_unit_(a, aa)

/* The order of an argmax over real keys (the selections of OMP,
 * kernels/qru_omp.cl, and LARS, kernels/qru_lars.cl): 1 where key a
 * comes before key b, 0 where b comes before a, -1 where they tie (both
 * NaN, or equal), which the caller breaks by its index or position.  A
 * NaN comes before any other key (nan_first) or after it, then the larger
 * key; a total order, so that any reduction order finds the same one. */
QRU_DEVICE int qru_key_order(QRU_RH a, QRU_RH b, int nan_first)
{
    int na = a != a, nb = b != b;
    if (na != nb)
        return nan_first ? na : nb;
    if (!na && a != b)
        return a > b;
    return -1;
}

#endif /* QRU_KDEFS_H */
