"""qr_insert / qr_delete / qr_update where SciPy's rules go past the
library's tall least-squares object, on each backend built in
(QRU_PYTEST_BACKENDS narrows them): wide factors and results (the
refactorisation by qru_qr_factor on the call's backend), results without
rows or columns, negative k, the dtype rule, rank-deficient results,
economic updates of more than M - N columns, and the BLAS thread policy.
SciPy's own test file (scripts/python-check runs it against qru) covers
the rest of its semantics on the CPU."""
import os
import subprocess
import sys

import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import qru
from conftest import THRESH, host_backends

BACKENDS = host_backends()
DTS = [np.float64, np.float32]


def _problem(M, N, dt, seed, econ=False):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (M, N)).astype(dt)
    Q, R = sl.qr(A, mode="economic" if econ else "full")
    return rng, A, Q.astype(dt), R.astype(dt)


def _check(Q1, R1, A1, dt, full=True, unique=True):
    """Q1 R1 = A1, Q1 orthonormal, R1 upper trapezoidal, SciPy's shapes,
    and where A1's factorisation is unique up to the signs of R1's rows
    (unique), |R1| equal to that of SciPy's QR of A1."""
    M1, N1 = A1.shape
    assert isinstance(Q1, np.ndarray) and isinstance(R1, np.ndarray)
    assert Q1.dtype == dt and R1.dtype == dt
    r = M1 if full or M1 <= N1 else N1
    assert Q1.shape == (M1, r) and R1.shape == (r, N1)
    eps = np.finfo(dt).eps
    A1 = A1.astype(np.float64)
    Q, R = Q1.astype(np.float64), R1.astype(np.float64)
    scale = max(np.linalg.norm(A1), 1.0) * eps * max(M1, N1, 1)
    assert np.linalg.norm(Q @ R - A1) / scale < THRESH
    assert np.linalg.norm(Q.T @ Q - np.eye(r)) / (eps * max(M1, 1)) < THRESH
    assert np.all(np.tril(R1, -1) == 0)
    if unique:
        Rs = sl.qr(A1, mode="full" if full else "economic")[1]
        assert np.abs(np.abs(R) - np.abs(Rs)).max() <= THRESH * scale


# ---- wide factors and results: the refactorisation ---------------------------

WIDE = [  # (shape, economic, call, the A1 it factorises; U (12, 12))
    ((7, 12), False, lambda Q, R, U, b: qru.qr_insert(Q, R, U[0], 3, "row",
                                                     backend=b),
     lambda A, U: np.insert(A, 3, U[0], 0)),
    ((7, 12), False, lambda Q, R, U, b: qru.qr_insert(Q, R, U[:7, 0], 12,
                                                     "col", backend=b),
     lambda A, U: np.insert(A, 12, U[:7, 0], 1)),
    ((7, 12), False, lambda Q, R, U, b: qru.qr_delete(Q, R, 2, 3, "row",
                                                     backend=b),
     lambda A, U: np.delete(A, [2, 3, 4], 0)),
    ((7, 12), False, lambda Q, R, U, b: qru.qr_delete(Q, R, 0, 6, "col",
                                                     backend=b),
     lambda A, U: A[:, 6:]),  # wide in, square out
    ((7, 12), False, lambda Q, R, U, b: qru.qr_update(Q, R, U[:7, :2],
                                                     U[:, 2:4], backend=b),
     lambda A, U: A + U[:7, :2] @ U[:, 2:4].T),
    ((8, 8), False, lambda Q, R, U, b: qru.qr_insert(Q, R, U[:8, :3], 4,
                                                    "col", backend=b),
     lambda A, U: np.insert(A, [4, 4, 4], U[:8, :3], 1)),
    ((8, 8), False, lambda Q, R, U, b: qru.qr_delete(Q, R, 7, 1, "row",
                                                    backend=b),
     lambda A, U: A[:7]),
    ((12, 7), True, lambda Q, R, U, b: qru.qr_insert(Q, R, U[:, :7], 7,
                                                    "col", backend=b),
     lambda A, U: np.hstack([A, U[:, :7]])),
    ((12, 7), True, lambda Q, R, U, b: qru.qr_delete(Q, R, 4, 7, "row",
                                                    backend=b),
     lambda A, U: np.delete(A, range(4, 11), 0)),
    ((1, 8), False, lambda Q, R, U, b: qru.qr_update(Q, R, U[0, :1],
                                                    U[1, :8], backend=b),
     lambda A, U: A + np.outer(U[0, :1], U[1, :8])),
]


@pytest.mark.parametrize("case", range(len(WIDE)))
@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_wide(backend, dt, case):
    # a wide A or A1 is refactorised on the call's backend: SciPy's full
    # factors (Q1 (M1, M1), R1 (M1, N1)) of the updated matrix, in the
    # input's dtype; the inputs are not changed
    shape, econ, call, updated = WIDE[case]
    rng, A, Q, R = _problem(*shape, dt, 20 + case, econ)
    U = rng.uniform(-1, 1, (12, 12)).astype(dt)
    Q0, R0 = Q.copy(), R.copy()
    Q1, R1 = call(Q, R, U, backend)
    _check(Q1, R1, updated(A.astype(np.float64), U.astype(np.float64)), dt)
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_wide_overwrite(backend):
    # a row deletion from a wide full factorisation with overwrite_qr: the
    # refactorised Q1 and R1 are written into the trailing blocks of the
    # caller's Q and R (SciPy's views), strided ones included
    rng, A, Q, R = _problem(7, 12, np.float64, 30)
    base = np.zeros((14, 7 * 3))
    Qs = base[::2, ::3]  # not column-major: computed in a copy
    Qs[...] = Q
    Rf = np.asfortranarray(R)
    Q1, R1 = qru.qr_delete(Qs, Rf, 1, 2, "row", True, backend=backend)
    _check(Q1, R1, np.delete(A, [1, 2], 0), np.float64)
    assert np.shares_memory(Q1, base) and np.array_equal(Qs[2:, 2:], Q1)
    assert np.shares_memory(R1, Rf) and np.array_equal(Rf[2:], R1)


# ---- no rows or columns left, negative k, bad positions ----------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_empty_results(backend):
    for econ in (False, True):
        _, A, Q, R = _problem(12, 7, np.float64, 31, econ)
        Q1, R1 = qru.qr_delete(Q, R, 0, 12, "row", backend=backend)
        assert Q1.shape == (0, 0) and R1.shape == (0, 7)
        Q1, R1 = qru.qr_delete(Q, R, -7, 7, "col", backend=backend)
        if econ:
            assert Q1.shape == (12, 0) and R1.shape == (0, 0)
        else:  # Q itself stays a valid factor of the empty A1
            assert np.array_equal(Q1, Q) and R1.shape == (12, 0)
            assert not np.shares_memory(Q1, Q)
    _, A, Q, R = _problem(1, 1, np.float32, 32)
    Q1, R1 = qru.qr_delete(Q, R, 0, 1, "row", backend=backend)
    assert Q1.shape == (0, 0) and R1.shape == (0, 1)
    assert Q1.dtype == np.float32 and R1.dtype == np.float32
    # and back: columns into a factorisation without columns, rows into
    # one without rows (refactorisations)
    rng, A, Q, R = _problem(6, 1, np.float64, 33)
    Q0, R0 = qru.qr_delete(Q, R, 0, 1, "col", backend=backend)
    u = rng.uniform(-1, 1, (6, 2))
    Q1, R1 = qru.qr_insert(Q0, R0, u, 0, "col", backend=backend)
    _check(Q1, R1, u, np.float64)
    Q0, R0 = qru.qr_delete(Q, R, 0, 6, "row", backend=backend)
    Q1, R1 = qru.qr_insert(Q0, R0, u[:3, :1], 0, "row", backend=backend)
    _check(Q1, R1, u[:3, :1], np.float64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_negative_k(backend):
    # k < 0 counts from the end, as in SciPy: the same results as k + M
    # (rows) or k + N (columns)
    rng, A, Q, R = _problem(10, 6, np.float64, 34)
    u = rng.uniform(-1, 1, (2, 6))
    for which, n in (("row", 10), ("col", 6)):
        for k in (-1, -3, -n):
            a = qru.qr_delete(Q, R, k, 1, which, backend=backend)
            b = qru.qr_delete(Q, R, k + n, 1, which, backend=backend)
            assert all(np.array_equal(x, y) for x, y in zip(a, b))
        with pytest.raises(ValueError, match="'k'"):
            qru.qr_delete(Q, R, -n - 1, 1, which, backend=backend)
        with pytest.raises(ValueError, match="'k'"):
            qru.qr_delete(Q, R, n, 1, which, backend=backend)
        with pytest.raises(ValueError, match="'p'"):
            qru.qr_delete(Q, R, -2, 3, which, backend=backend)
    Q1, R1 = qru.qr_insert(Q, R, u, -2, "row", backend=backend)
    _check(Q1, R1, np.insert(A, [8, 8], u, 0), np.float64)
    col = rng.uniform(-1, 1, 10)
    Q1, R1 = qru.qr_insert(Q, R, col, -6, "col", backend=backend)
    _check(Q1, R1, np.insert(A, 0, col, 1), np.float64)
    with pytest.raises(ValueError, match="'k'"):
        qru.qr_insert(Q, R, u, 11, "row", backend=backend)
    with pytest.raises(ValueError, match="'k'"):
        qru.qr_insert(Q, R, u, -11, "row", backend=backend)


# ---- dtypes -------------------------------------------------------------------

def test_dtype_rule():
    # SciPy's rule: Q, R and u (v) all float32, all float64, all complex64
    # or all complex128 (either byte order); other dtypes and mixes raise
    # ValueError; complex runs on the CPU backend
    rng, A, Q, R = _problem(8, 4, np.float64, 35)
    u = rng.uniform(-1, 1, 8)
    for dt in ("int8", "int64", "uint16", "bool", "float16", "longdouble",
               "clongdouble"):
        for args in ((Q.astype(dt), R), (Q, R.astype(dt))):
            with pytest.raises(ValueError, match="dtype"):
                qru.qr_delete(*args, 0, 1, "col")
        with pytest.raises(ValueError, match="dtype"):
            qru.qr_insert(Q, R, u.astype(dt), 0, "col")
        with pytest.raises(ValueError, match="dtype"):
            qru.qr_update(Q, R, u, np.ones(4, dt))
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_delete(Q.astype(np.float32), R, 0)
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_update(Q, R, u.astype(np.float32), np.ones(4))
    for dt in (np.complex64, np.complex128):
        Q1, R1 = qru.qr_delete(Q.astype(dt), R.astype(dt), 0)
        assert Q1.dtype == dt and R1.dtype == dt
    Q1, R1 = qru.qr_delete(Q.astype(">f8"), R.astype(">f8"), 0)
    assert Q1.dtype == np.float64 and Q1.dtype.isnative
    Q1, R1 = qru.qr_insert(Q.tolist(), R.tolist(), u.tolist(), 0, "col")
    _check(Q1, R1, np.insert(A, 0, u, 1), np.float64)
    Q1, R1 = qru.qr_delete(Q.astype(np.float32), R.astype(np.float32), 0)
    assert Q1.dtype == np.float32 and R1.dtype == np.float32
    # the other functions keep the conversion rule
    F = np.linalg.cholesky(A.T @ A).T
    assert qru.cholesky_update(F, np.arange(4)).dtype == np.float64


# ---- rank-deficient results -------------------------------------------------------

@pytest.mark.parametrize("backend", BACKENDS)
def test_rank_deficient(backend):
    # a full column insertion and an update (full or economic) return a
    # valid QR of a rank-deficient A1, as SciPy's (R1 singular); an
    # economic column insertion of a column in the span of Q raises
    # LinAlgError, as SciPy's
    rng, A, Q, R = _problem(12, 4, np.float64, 36)
    dep = A[:, 1] - 2 * A[:, 3]
    Q1, R1 = qru.qr_insert(Q, R, dep, 2, "col", backend=backend)
    _check(Q1, R1, np.insert(A, 2, dep, 1), np.float64, unique=False)
    assert np.abs(np.diag(R1)).min() <= 1e-12 * np.abs(R1).max()
    e0 = np.eye(4)[0]
    for econ in (False, True):
        Qe, Re = (Q[:, :4], R[:4]) if econ else (Q, R)
        Q1, R1 = qru.qr_update(Qe, Re, -A[:, 0], e0, backend=backend)
        _check(Q1, R1, A - np.outer(A[:, 0], e0), np.float64, not econ,
               unique=False)
        assert abs(R1[0, 0]) <= 1e-12 * np.abs(R1).max()
    with pytest.raises(np.linalg.LinAlgError):
        qru.qr_insert(Q[:, :4], R[:4], dep, 2, "col", backend=backend)
    # LeastSquares keeps refusing (the default rule)
    f = qru.LeastSquares(A, np.ones(12), "full", backend=backend)
    with pytest.raises(np.linalg.LinAlgError):
        f.add_cols(2, dep)


@pytest.mark.parametrize("backend", BACKENDS)
def test_economic_update_in_blocks(backend):
    # an economic factorisation takes M - N columns of u a library call;
    # more run in blocks (here 7 columns in blocks of 3), with the overwrite
    # of the caller's Q and R as SciPy's
    rng, A, Q, R = _problem(10, 7, np.float64, 37, econ=True)
    u, v = rng.uniform(-1, 1, (10, 7)), rng.uniform(-1, 1, (7, 7))
    Q1, R1 = qru.qr_update(Q, R, u, v, backend=backend)
    _check(Q1, R1, A + u @ v.T, np.float64, full=False)
    Qf, Rf = np.asfortranarray(Q), np.asfortranarray(R)
    Q2, R2 = qru.qr_update(Qf, Rf, u, v, True, backend=backend)
    assert Q2 is Qf and R2 is Rf and np.array_equal(Q1, Q2)


# ---- BLAS threads ----------------------------------------------------------------

def _threads_at_import(**env):
    """qru.blas_threads() in a fresh interpreter that imported NumPy (its
    own OpenBLAS) and qru, with the thread variables of env only."""
    e = {k: v for k, v in os.environ.items() if k not in (
        "QRU_BLAS_THREADS", "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS",
        "OMP_NUM_THREADS")}
    e.update(env)
    out = subprocess.run(
        [sys.executable, "-c", "import numpy, qru; print(qru.blas_threads())"],
        env=e, capture_output=True, text=True, check=True)
    return int(out.stdout)


def test_blas_threads():
    # with NumPy's own OpenBLAS loaded beside the extension's, qru sets its
    # OpenBLAS to one thread at import (no oversubscription of the cores);
    # QRU_BLAS_THREADS chooses the count, OPENBLAS_NUM_THREADS leaves
    # OpenBLAS's own choice; set_blas_threads changes it at run time
    if qru.blas_threads() == -1:
        pytest.skip("the BLAS qru links is not OpenBLAS")
    if qru._other_openblas():
        assert _threads_at_import() == 1
    assert _threads_at_import(QRU_BLAS_THREADS="2") == 2
    # (OpenBLAS caps the count it reads from the environment at the cores)
    cores = len(os.sched_getaffinity(0))
    assert _threads_at_import(OPENBLAS_NUM_THREADS="2") == min(2, cores)
    n = qru.blas_threads()
    try:
        assert qru.set_blas_threads(2) == 2 and qru.blas_threads() == 2
        _, A, Q, R = _problem(40, 10, np.float64, 38)
        _check(*qru.qr_delete(Q, R, 3, 1, "col"), np.delete(A, 3, 1),
               np.float64)
    finally:
        qru.set_blas_threads(n)
    with pytest.raises(ValueError):
        qru.set_blas_threads(0)
