/*
 * The context fixture and the element type's name, shared by the tests of
 * the solvers on the updates (solver_check.h for test_nnls.c and
 * test_lars.c, and test_omp.c, which holds its problems its own way).
 * Header-only (static functions) so that each test stays one source file.
 */
#ifndef QRU_SOLVER_CONTEXT_H
#define QRU_SOLVER_CONTEXT_H

#include "qru_test.h"

static qru_context *ctx;
static void setup(void) { ctx = qru_test_context(); }
static void teardown(void)
{
    qru_context_destroy(ctx);
    ctx = NULL;
}

static const char *dname(qru_dtype dt)
{
    return dt == QRU_DOUBLE ? "double" : "float";
}

#endif
