/* Status codes and the error text: qru_strerror for a status, and the
 * message of the last failed call (qru_last_error).
 *
 * A failure's text is made in two steps.  Where a nonzero status is born
 * (an argument check, a numerical test, a failed op, an allocation) the
 * origin records what went wrong with qru_fail; the public routine that
 * returns the status passes it through qru_ret, which puts the routine's
 * name in front and copies the text to the context.  The text lives in a
 * thread-local record, so threads (each with its own contexts) never see
 * each other's messages; a routine called by another public routine adds
 * its name first and the caller's name goes in front of it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* The calling thread's record: the status and text of the failure that is
 * being returned (open: recorded by qru_fail or qru_ret and not yet
 * replaced), and the number of qru_fail calls (seq) so that a caller can
 * tell whether a callee recorded anything. */
static _Thread_local struct {
    int status;
    int open;
    unsigned long seq;
    char text[QRU_ERRMSG_LEN];
} rec;

static void record(int status, const char *text)
{
    if (text != rec.text)
        snprintf(rec.text, sizeof rec.text, "%s", text);
    rec.status = status;
    rec.open = 1;
    ++rec.seq;
}

int qru_failv(int status, const char *fmt, va_list ap)
{
    char text[QRU_ERRMSG_LEN];
    vsnprintf(text, sizeof text, fmt, ap);
    record(status, text);
    return status;
}

int qru_fail(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    qru_failv(status, fmt, ap);
    va_end(ap);
    return status;
}

int qru_fail_arg(int i, const char *fmt, ...)
{
    char text[QRU_ERRMSG_LEN];
    int n = snprintf(text, sizeof text, "argument %d: ", i);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
    va_end(ap);
    record(-i, text);
    return -i;
}

unsigned long qru_fail_seq(void) { return rec.seq; }

/* the origin's text if it recorded this status, else the status's */
const char *qru_fail_why(int status)
{
    return rec.open && rec.status == status ? rec.text : qru_strerror(status);
}

int qru_ret(const qru_context *ctx, const char *routine, int status)
{
    if (status == 0) {
        rec.open = 0; /* a success closes any earlier record */
        return 0;
    }
    char text[QRU_ERRMSG_LEN];
    const char *why = qru_fail_why(status);
    size_t n = strlen(routine), w = strlen(why);
    if (n > sizeof text / 4)
        n = sizeof text / 4;
    if (w > sizeof text - n - 3)
        w = sizeof text - n - 3; /* the text is cut, never overrun */
    memcpy(text, routine, n);
    memcpy(text + n, ": ", 2);
    memmove(text + n + 2, why, w);
    text[n + 2 + w] = '\0';
    record(status, text);
    if (ctx) /* the context's copy (its memory is never const: cast) */
        snprintf(((qru_context *)ctx)->errmsg, QRU_ERRMSG_LEN, "%s", text);
    return status;
}

const char *qru_last_error(const qru_context *ctx)
{
    return ctx ? ctx->errmsg : rec.text;
}
