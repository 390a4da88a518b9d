/*
 * The backend modules.  The CUDA and OpenCL backends are not linked into
 * libqru: each is a module of its own (libqru_cuda.so, libqru_opencl.so,
 * CMake MODULE libraries) that libqru loads with dlopen when a context for
 * its backend is first made (module_loader.c), so that linking libqru, or
 * importing the Python package, maps no CUDA or OpenCL library on any
 * machine.
 *
 * A module exports one symbol, the entry QRU_MODULE_ENTRY.  libqru calls it
 * with the host table below and gets the module's table back.  A module
 * links nothing of libqru: the library functions its backend code calls
 * (the error record qru_fail, the reference ops qru_ref_<op>,
 * qru_wy_left_gemms and qru_panel_qr_tp_gather) are defined in the module by module/module_entry.c, which
 * forwards each call through the host table.  So one module serves a
 * shared libqru and the static libqru inside the Python extension alike,
 * and the error text its backend records is the library's.  A module and
 * its library come from one build: the entry refuses a host whose version
 * or structure sizes differ from its own (the module is then reported as
 * built for another qru).
 */
#ifndef QRU_MODULE_H
#define QRU_MODULE_H

#include <stdarg.h>

#include "qru_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QRU_MODULE_ENTRY "qru_backend_module_v1"

/* What libqru gives a module. */
typedef struct qru_module_host {
    const char *version; /* qru_version() */
    size_t host_size, context_size, ops_size, matrix_size; /* sizeof */
    int (*failv)(int status, const char *fmt, va_list ap); /* qru_fail */
    int (*wy_left_gemms)(qru_context *ctx, const qru_backend_ops *o,
                         qru_dtype dt, char ytop, int mt, int mb, int nb,
                         int nc, qru_ptr Y, int ldy, qru_ptr W, int ldw,
                         qru_ptr A, int lda, qru_ptr B, int ldb, qru_ptr work);
    int (*panel_qr_tp_gather)(qru_context *ctx, const qru_backend_ops *o,
                              qru_dtype dt, int mt, int mb, int nb, qru_ptr A,
                              int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy,
                              qru_ptr W, int ldw, qru_ptr tau, qru_ptr work);
    /* the reference implementation of every OPT op of the op list */
#define QRU_HOST_REF_(name, params, args, need, stat)                        \
    QRU_HOST_REF_##need(name, params)
#define QRU_HOST_REF_REQ(name, params)
#define QRU_HOST_REF_CAP(name, params)
#define QRU_HOST_REF_OPT(name, params) int(*ref_##name) params;
    QRU_OPS(QRU_HOST_REF_)
#undef QRU_HOST_REF_OPT
#undef QRU_HOST_REF_CAP
#undef QRU_HOST_REF_REQ
#undef QRU_HOST_REF_
} qru_module_host;

struct qru_ocl_tuning;

/* What a module gives libqru. */
typedef struct qru_backend_module {
    const qru_backend_ops *ops; /* the backend's table */
    /* OpenCL only (NULL otherwise): the accessors that
     * opencl/qru_opencl.h declares, for the tests */
    const char *(*opencl_build_log)(const qru_context *ctx);
    const struct qru_ocl_tuning *(*opencl_tuning)(const qru_context *ctx);
} qru_backend_module;

/* The entry: the module, or NULL when host does not match the module's
 * build. */
typedef const qru_backend_module *qru_backend_module_fn(
    const qru_module_host *host);

/* ---- the loader (module_loader.c) ---- */

/* 1 if backend b is part of this build (the CPU backend always; CUDA and
 * OpenCL when their module was built). */
int qru_module_built(qru_backend b);

/* *ops = the table of backend b, loading its module at the first call in
 * the process: 0, or QRU_ERR_BACKEND_UNAVAILABLE with the reason recorded
 * (not built, no driver library, module not found, not loadable, or built
 * for another qru).  Thread-safe; a loaded module stays loaded. */
int qru_module_load(qru_backend b, const qru_backend_ops **ops);

/* The file a loaded module of backend b was loaded from ("" before). */
const char *qru_module_path(qru_backend b);

#ifdef __cplusplus
}
#endif

#endif /* QRU_MODULE_H */
