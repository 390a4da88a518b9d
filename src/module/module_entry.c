/*
 * The entry of a backend module (src/qru_module.h), compiled into each
 * module with QRU_MODULE_CUDA or QRU_MODULE_OPENCL defined: the module's
 * one exported symbol, and the library functions its backend calls,
 * forwarded to the library that loaded it through the host table.
 */
#include <stdarg.h>
#include <string.h>

#include "qru_module.h"

#if defined(__GNUC__) || defined(__clang__)
#define QRU_MODULE_EXPORT __attribute__((visibility("default")))
#else
#define QRU_MODULE_EXPORT
#endif

static const qru_module_host *host;

int qru_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    host->failv(status, fmt, ap);
    va_end(ap);
    return status;
}

int qru_wy_left_gemms(qru_context *ctx, const qru_backend_ops *o,
                      qru_dtype dt, char ytop, int mt, int mb, int nb, int nc,
                      qru_ptr Y, int ldy, qru_ptr W, int ldw, qru_ptr A,
                      int lda, qru_ptr B, int ldb, qru_ptr work)
{
    return host->wy_left_gemms(ctx, o, dt, ytop, mt, mb, nb, nc, Y, ldy, W,
                               ldw, A, lda, B, ldb, work);
}

int qru_panel_qr_tp_gather(qru_context *ctx, const qru_backend_ops *o,
                           qru_dtype dt, int mt, int mb, int nb, qru_ptr A,
                           int lda, qru_ptr B, int ldb, qru_ptr Y, int ldy,
                           qru_ptr W, int ldw, qru_ptr tau, qru_ptr work)
{
    return host->panel_qr_tp_gather(ctx, o, dt, mt, mb, nb, A, lda, B, ldb, Y,
                                    ldy, W, ldw, tau, work);
}

#define QRU_FWD_(name, params, args, need, stat) QRU_FWD_##need(name, params, args)
#define QRU_FWD_REQ(name, params, args)
#define QRU_FWD_CAP(name, params, args)
#define QRU_FWD_OPT(name, params, args)                                        \
    int qru_ref_##name params { return host->ref_##name args; }
QRU_OPS(QRU_FWD_)

#if defined(QRU_MODULE_CUDA)
extern const qru_backend_ops qru_cuda_ops;
static const qru_backend_module module = {&qru_cuda_ops, NULL, NULL};
#elif defined(QRU_MODULE_OPENCL)
#include "qru_opencl.h"
static const qru_backend_module module = {&qru_opencl_ops, ocl_build_log,
                                          ocl_tuning_of};
#else
#error "compile the module entry with QRU_MODULE_CUDA or QRU_MODULE_OPENCL"
#endif

QRU_MODULE_EXPORT const qru_backend_module *
qru_backend_module_v1(const qru_module_host *h)
{
    if (!h || h->host_size != sizeof *h ||
        strcmp(h->version, QRU_VERSION_STRING) != 0 ||
        h->context_size != sizeof(qru_context) ||
        h->ops_size != sizeof(qru_backend_ops) ||
        h->matrix_size != sizeof(qru_matrix))
        return NULL;
    host = h;
    return &module;
}
