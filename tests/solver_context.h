/*
 * The context fixture (QRU_TEST_FIXTURE) and the element type's name,
 * shared by the tests of the solvers on the updates (solver_check.h for
 * test_nnls.c and test_lars.c, and test_omp.c, which holds its problems
 * its own way).
 * Header-only (static functions) so that each test stays one source file.
 */
#ifndef QRU_SOLVER_CONTEXT_H
#define QRU_SOLVER_CONTEXT_H

#include "qru_test.h"

QRU_TEST_FIXTURE

static const char *dname(qru_dtype dt)
{
    return dt == QRU_DOUBLE ? "double" : "float";
}

#endif
