/*
 * One source for device kernels: the bodies in kernels/*.cl are written
 * against these macros and compiled twice,
 *   - by nvcc, included from cuda/*.cu, where each kernel is a function
 *     template over the element type T (instantiated for float and double);
 *   - by the OpenCL runtime, embedded as program text (opencl/), built once
 *     per context and precision with -DT=float or -DT=double.
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
 *                         2^-900 and 2^900 (float: 2^-100, 2^100): a sum of
 *                         squares between them lost nothing that matters
 *                         to underflow and cannot overflow (the unscaled
 *                         formulas' range)
 *   T                     the element type
 *   QRU_TEAM              items of a "team" that reduce together without a
 *                         work-group barrier (CUDA: a warp of 32; OpenCL
 *                         1.2, which has no sub-group functions: 1)
 *   QRU_TEAM_SUM(x), QRU_TEAM_MAX(x)
 *                         sum / maximum of x over the team, in every item
 *                         (a NaN in any item gives NaN in every item)
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
#define QRU_RANGE_LO (sizeof(T) == 8 ? (T)0x1p-900 : (T)0x1p-100)
#define QRU_RANGE_HI (sizeof(T) == 8 ? (T)0x1p900 : (T)0x1p100)
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
#define QRU_TEAM_SUM(x) qru_team_sum_(x)
#define QRU_TEAM_MAX(x) qru_team_max_(x)
#define QRU_TEAM_BCAST(x, l) __shfl_sync(0xffffffffu, (x), (l))
#define QRU_TEAM_UNIFORM(x) __shfl_sync(0xffffffffu, (x), 0)
#define QRU_FENCE_LOCAL __threadfence_block()
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
#endif
#if !defined(__CUDACC__) && !defined(__OPENCL_VERSION__)
#error "kernels/qru_kdefs.h is for CUDA or OpenCL device code"
#endif

#endif /* QRU_KDEFS_H */
