/* qru_strerror: messages for status codes. */
#include <stdio.h>

#include "qru_internal.h"

const char *qru_strerror(int status)
{
    /* Messages for -i and > 0 are formatted into a thread-local buffer. */
    static _Thread_local char buf[96];
    switch (status) {
    case QRU_SUCCESS:
        return "success";
    case QRU_ERR_ALLOC:
        return "memory allocation failed";
    case QRU_ERR_BACKEND_UNAVAILABLE:
        return "backend unavailable (not compiled in, or no device found)";
    case QRU_ERR_DEVICE:
        return "device, driver or vendor library error";
    case QRU_ERR_UNSUPPORTED:
        return "operation not supported by this device (e.g. no fp64)";
    case QRU_ERR_NO_Q:
        return "the operation needs Q, which the factorisation does not keep";
    case QRU_ERR_BUILD:
        return "device program failed to build";
    case QRU_ERR_INTERNAL:
        return "internal error";
    default:
        break;
    }
    if (status < 0 && status > -1000) {
        snprintf(buf, sizeof buf, "argument %d is invalid", -status);
        return buf;
    }
    if (status > 0) {
        snprintf(buf, sizeof buf,
                 "numerical failure at column %d (rank or definiteness lost)",
                 status);
        return buf;
    }
    return "unknown status";
}
