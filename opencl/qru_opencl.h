/*
 * Internal interface of the OpenCL backend (opencl/opencl_backend.c).
 *
 * Device selection (qru_context_options / environment):
 *   - opt->stream != NULL: the cl_command_queue is adopted (retained at
 *     creation; finished and released when the qru context is destroyed,
 *     so it stays valid for its owner); its context and
 *     device are used and opt->platform / opt->device are ignored.  The queue
 *     must be in-order, else init returns QRU_ERR_UNSUPPORTED.
 *   - opt->platform >= 0, else env QRU_PLATFORM, else automatic: the first
 *     platform with a GPU, else the first platform with any device.
 *   - opt->device >= 0 (index into the platform's CL_DEVICE_TYPE_ALL list),
 *     else env QRU_DEVICE, else the platform's first GPU, else its first
 *     device.
 *   - An index below -1 in the options is a malformed option: -3 (argument
 *     3 of qru_context_create_ex).  An index past the end, a malformed
 *     environment value, or no platform/device at all give
 *     QRU_ERR_BACKEND_UNAVAILABLE.
 *
 * Programs: the kernels (kernels/qru_kdefs.h and the kernels/ *.cl files,
 * embedded at build time) are built lazily, once per context and precision, with
 * -DT=float or -DT=double -DQRU_FP64 plus the tuning macros below.  double
 * needs cl_khr_fp64; without it supports(QRU_DOUBLE) is 0 and double
 * requests return QRU_ERR_UNSUPPORTED.  A failed build (or kernel creation)
 * is tried again up to 3 times, 100-400 ms apart, because an OpenCL runtime
 * may fail it for a moment when other processes update a shared compiler
 * cache (PoCL 3.x does; on PoCL the builds of one user's qru processes
 * also take turns under a file lock, /tmp/qru-pocl-build-<uid>.lock,
 * because PoCL can abort a process in that race instead of failing the
 * build); if every attempt fails it returns QRU_ERR_BUILD
 * (and again on every later request in that precision); the compiler log
 * stays readable through qru_opencl_build_log().  Elementwise kernels are
 * launched with one work-group shape each (PoCL compiles a kernel once per
 * work-group size).  Extra build options for
 * experiments may be given in env QRU_OCL_BUILD_OPTIONS (read when the
 * context is created, appended last), and
 * env QRU_OCL_FP64=0 makes a context behave as on a device without
 * cl_khr_fp64 (both are used by tests/test_opencl_faults.c).
 *
 * Tuning (parameters of the same kernels, never separate code paths);
 * defaults by device type, each overridable by an environment variable:
 *                                 GPU   Mali GPU   CPU/other   env
 *   work-group size (QRU_RED)      256      64        64       QRU_OCL_WG
 *   transpose tile (QRU_TILE)       32       8        16       QRU_OCL_TILE
 *   elements per work-item           1       4         4       QRU_OCL_VEC
 *   local-memory transpose           1       0         1       QRU_OCL_LOCAL
 *   items a problem of a batch    by size  by size     32       -
 * - work-group size: reductions (col_norms, house, larf, gemv_t) and the
 *   one-work-group kernels; rounded down to a power of 2 and clamped to
 *   what the device and each kernel allow; 1 makes the reductions serial
 *   loops per column;
 * - elements per work-item: the elementwise kernels (laset, copy, geadd,
 *   Givens, ...) loop grid-stride, the grid is shrunk by this factor;
 * - local-memory transpose: 1 uses the tiled kernel of kernels/qru_base.cl
 *   (tiles staged in local memory), 0 CLBlast's omatcopy (no staging);
 * - items a problem of a batch: the batched kernels (kernels/qru_batch.cl,
 *   qru_batch_q.cl; ocl_batch_items) give each problem work-items by its
 *   size on a GPU, and on a CPU device one fixed number, one problem a
 *   work-group, so that each kernel runs at one work-group size: PoCL
 *   compiles a kernel again for every work-group size it is launched
 *   with (tens of seconds each for the batched Cholesky kernels, cold),
 *   and runs a work-group as a loop on one core, where more items only
 *   add turns of that loop.  The private knob chol_batch_wg
 *   (src/qru_tuning.h) still sets the Cholesky kernels' items.
 * Mali (vendor ARM or name Mali): local memory is ordinary global memory
 * there, so staging tiles in it only costs time, work-items that handle
 * several elements keep its vector ALUs busy, and its work-groups are
 * small.  CPU devices (PoCL): one work-group runs as a loop on one core,
 * so moderate groups and several elements per work-item suit them.
 */
#ifndef QRU_OPENCL_H
#define QRU_OPENCL_H

#include "../src/qru_internal.h"

typedef struct qru_ocl_tuning {
    int wg;              /* work-group size of reductions (power of 2) */
    int tile;            /* transpose tile edge */
    int vec;             /* elements per work-item in elementwise kernels */
    int transpose_local; /* 1: tiled local-memory transpose, 0: CLBlast */
    int batch_items;     /* work-items a problem of the batched kernels (a
                          * power of 2); 0: by the problem's size */
} qru_ocl_tuning;

/* The compiler log of the first failed program build of an OpenCL context
 * (its last attempt; if none failed, of its last build; usually empty,
 * warnings are off); "" when there is none or ctx is not an OpenCL
 * context.  Valid until the context is destroyed.  Defined in libqru
 * (src/module_loader.c), which forwards it to the loaded module's
 * ocl_build_log (src/qru_module.h); for the tests. */
const char *qru_opencl_build_log(const qru_context *ctx);

/* The tuning parameters in use by an OpenCL context (NULL otherwise);
 * libqru's, forwarded to the module's ocl_tuning_of like the log. */
const qru_ocl_tuning *qru_opencl_tuning(const qru_context *ctx);

/* The module's own (opencl_program.c), and its table. */
const char *ocl_build_log(const qru_context *ctx);
const qru_ocl_tuning *ocl_tuning_of(const qru_context *ctx);
extern const qru_backend_ops qru_opencl_ops;

#endif /* QRU_OPENCL_H */
