"""qru.qr_insert / qru.qr_delete against SciPy on the same inputs: every
update, full and economic factorisations, k at the start, in the middle and
at the end, p = 1 and larger, float64 and float32, each backend built in
(QRU_PYTEST_BACKENDS narrows them, e.g. "cpu").  Checks: the scaled
residual |Q1 R1 - A1| / (|A1| eps max(M, N)) and orthogonality
|Q1'Q1 - I| / (eps M) below 30, R1 upper triangular, |R1| equal to SciPy's
|R1| (the factors are unique up to the signs of R's rows), and the errors
SciPy documents (bad 'which', shapes, non-finite input, lost rank)."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import qru
from conftest import THRESH, host_backends

BACKENDS = host_backends()


def _check(Q1, R1, A1, dt, Rs=None):
    """The checks of this file, with ' the conjugate transpose for complex dt
    (|R1| = |SciPy's R1|: unique up to the phases of R's rows)."""
    eps = np.finfo(dt).eps
    M, N = A1.shape
    assert Q1.dtype == dt and R1.dtype == dt
    wide = np.complex128 if np.iscomplexobj(Q1) else np.float64
    A1 = A1.astype(wide)
    Q1d, R1d = Q1.astype(wide), R1.astype(wide)
    res = np.linalg.norm(Q1d @ R1d - A1) / (np.linalg.norm(A1) * eps * max(M, N))
    orth = np.linalg.norm(Q1d.conj().T @ Q1d - np.eye(Q1.shape[1])) / (eps * M)
    assert res < THRESH, f"residual {res}"
    assert orth < THRESH, f"orthogonality {orth}"
    assert np.all(np.tril(R1, -1) == 0), "R1 not upper triangular"
    if Rs is not None:
        diff = np.abs(np.abs(R1d) - np.abs(Rs.astype(wide))).max()
        assert diff <= THRESH * eps * max(M, N) * np.abs(A1).max(), diff


def _problem(M, N, dt, seed, econ):
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, (M, N)).astype(dt)
    Q, R = sl.qr(A, mode="economic" if econ else "full")
    return rng, A, Q.astype(dt), R.astype(dt)


CASES = [(k, p) for k in ("start", "middle", "end") for p in (1, 3)]


def _k(where, hi):
    return {"start": 0, "middle": hi // 2, "end": hi}[where]


def _params(f):
    for deco in (pytest.mark.parametrize("where,p", CASES),
                 pytest.mark.parametrize("econ", [False, True]),
                 pytest.mark.parametrize("dt", [np.float64, np.float32]),
                 pytest.mark.parametrize("which", ["row", "col"]),
                 pytest.mark.parametrize("backend", BACKENDS)):
        f = deco(f)
    return f


@_params
def test_insert(backend, which, dt, econ, where, p):
    rng, A, Q, R = _problem(30, 8, dt, 1, econ)
    ax = 0 if which == "row" else 1
    k = _k(where, A.shape[ax])
    u = rng.uniform(-1, 1, (p, 8) if ax == 0 else (30, p)).astype(dt)
    Q1, R1 = qru.qr_insert(Q, R, u, k, which, backend=backend)
    A1 = np.concatenate([A[:k], u, A[k:]] if ax == 0 else
                        [A[:, :k], u, A[:, k:]], axis=ax)
    Rs = None
    if not (econ and which == "row"):  # SciPy: economic for columns only
        Rs = sl.qr_insert(Q.astype(np.float64), R.astype(np.float64),
                          u.astype(np.float64), k, which)[1]
    _check(Q1, R1, A1, dt, Rs)
    if econ:
        assert Q1.shape == A1.shape and R1.shape == (A1.shape[1],) * 2


@_params
def test_delete(backend, which, dt, econ, where, p):
    rng, A, Q, R = _problem(30, 8, dt, 3, econ)
    ax = 0 if which == "row" else 1
    k = _k(where, A.shape[ax] - p)
    Q1, R1 = qru.qr_delete(Q, R, k, p, which, backend=backend)
    A1 = np.delete(A, range(k, k + p), axis=ax)
    Rs = None
    if not (econ and which == "row"):
        Rs = sl.qr_delete(Q.astype(np.float64), R.astype(np.float64), k, p,
                          which)[1]
    _check(Q1, R1, A1, dt, Rs)


def test_vector_u_and_dtypes():
    """SciPy's 1-D u (one row or column); float32 stays float32; a mix of
    float32 and float64, or integers, raise ValueError (SciPy's rule)."""
    rng, A, Q, R = _problem(12, 4, np.float64, 5, False)
    row = rng.uniform(-1, 1, 4)
    Q1, R1 = qru.qr_insert(Q, R, row, 12, "row")
    _check(Q1, R1, np.vstack([A, row]), np.float64)
    Q32, R32 = Q.astype(np.float32), R.astype(np.float32)
    col = rng.uniform(-1, 1, 12).astype(np.float32)
    Q2, R2 = qru.qr_insert(Q32, R32, col, 1, "col")
    assert Q2.dtype == np.float32 and R2.dtype == np.float32
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_insert(Q32, R32, col.astype(np.float64), 1, "col")
    with pytest.raises(ValueError, match="int64"):
        qru.qr_insert(Q, R, np.arange(12), 1, "col")


def test_c_ordered_and_strided_input():
    rng, A, Q, R = _problem(20, 5, np.float64, 6, False)
    Qc = np.array(Q, order="C")  # a copy, whatever the layout of Q
    u = rng.uniform(-1, 1, (6, 10))[:, ::2]  # non-contiguous
    Q1, R1 = qru.qr_insert(Qc, R, u[:2], 3, "row")
    _check(Q1, R1, np.insert(A, 3, u[:2], axis=0), np.float64)


OPS = ["insert row", "insert col", "delete row", "delete col", "update"]


def _op(op, Q, R, A, rng, backend, overwrite):
    """One SciPy-shaped call at k = 2 with p = 2 (u, v of rank 1): Q1, R1
    and the updated A1."""
    M, N = A.shape
    if op == "insert row":
        u = rng.uniform(-1, 1, (2, N))
        return qru.qr_insert(Q, R, u, 2, "row", overwrite_qru=overwrite,
                             backend=backend) + (np.insert(A, 2, u, 0),)
    if op == "insert col":
        u = rng.uniform(-1, 1, (M, 2))
        return qru.qr_insert(Q, R, u, 2, "col", overwrite_qru=overwrite,
                             backend=backend) + (np.insert(A, [2, 2], u, 1),)
    if op == "delete row":
        return qru.qr_delete(Q, R, 2, 2, "row", overwrite_qr=overwrite,
                             backend=backend) + (np.delete(A, [2, 3], 0),)
    if op == "delete col":
        return qru.qr_delete(Q, R, 2, 2, "col", overwrite_qr=overwrite,
                             backend=backend) + (np.delete(A, [2, 3], 1),)
    u, v = rng.uniform(-1, 1, M), rng.uniform(-1, 1, N)
    return qru.qr_update(Q, R, u, v, overwrite_qruv=overwrite,
                         backend=backend) + (A + np.outer(u, v),)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_inputs_unchanged(op, econ, backend):
    # without overwrite, no input changes (the library works in a copy of
    # Q where it runs in place)
    rng, A, Q, R = _problem(15, 4, np.float64, 7, econ)
    Q0, R0 = Q.copy(), R.copy()
    Q1, R1, A1 = _op(op, Q, R, A, rng, backend, False)
    _check(Q1, R1, A1, np.float64)
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)
    assert not np.shares_memory(Q1, Q)


def _overwritten(op, econ):
    """Which of a Fortran-ordered Q and R SciPy overwrites in _op's calls
    (k = 2, p = 2, rank 1), and the views of them it returns as Q1, R1."""
    every = (lambda x: x, lambda x: x)
    if op == "insert row":
        return (False, econ), every  # economic: R, for p > 1 in F order
    if op == "insert col":
        return (not econ, False), every  # full: Q (u 2-D: F order)
    if op == "delete row":
        if econ:
            return (True, True), (lambda x: x[:-2], lambda x: x)
        return (True, True), (lambda x: x[2:, 2:], lambda x: x[2:])
    if op == "delete col":
        if econ:
            return (True, True), (lambda x: x[:, :-2], lambda x: x[:-2, :-2])
        return (True, True), (lambda x: x, lambda x: x[:, :-2])
    return (True, True), every


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_overwrite(op, econ, backend):
    # with overwrite, the caller's Q and R hold the results where SciPy's
    # functions overwrite them, and Q1 and R1 are the views of them that
    # SciPy returns (on every backend: a device result is copied in); the
    # other inputs are left as they were
    rng, A, Q, R = _problem(15, 4, np.float64, 9, econ)
    Q, R = np.asfortranarray(Q), np.asfortranarray(R)
    Q0, R0 = Q.copy(), R.copy()
    Q1, R1, A1 = _op(op, Q, R, A, rng, backend, True)
    _check(Q1, R1, A1, np.float64)
    (in_q, in_r), (vq, vr) = _overwritten(op, econ)
    assert np.shares_memory(Q1, Q) == in_q
    assert np.shares_memory(R1, R) == in_r
    if in_q:
        assert vq(Q).shape == Q1.shape and np.array_equal(vq(Q), Q1)
    else:
        assert np.array_equal(Q, Q0)
    if in_r:
        assert vr(R).shape == R1.shape and np.array_equal(vr(R), R1)
    else:
        assert np.array_equal(R, R0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_overwrite_layouts(backend):
    # SciPy's layouts: a C-ordered Q is overwritten by a rank-1 update and
    # a row deletion, not by a deletion of several columns (Fortran order
    # only); a read-only or byte-swapped Q never is
    rng, A, Q, R = _problem(15, 4, np.float64, 10, False)
    Qc = np.array(Q, order="C")  # a copy, whatever the layout of Q
    Q0 = Qc.copy()
    Q1, R1 = qru.qr_delete(Qc, R.copy(), 1, 2, "col", overwrite_qr=True,
                           backend=backend)
    _check(Q1, R1, np.delete(A, [1, 2], 1), np.float64)
    assert np.array_equal(Qc, Q0) and not np.shares_memory(Q1, Qc)
    Q1, R1 = qru.qr_delete(Qc, R.copy(), 2, 2, "row", overwrite_qr=True,
                           backend=backend)
    _check(Q1, R1, np.delete(A, [2, 3], 0), np.float64)
    assert np.array_equal(Q1, Qc[2:, 2:]) and np.shares_memory(Q1, Qc)
    Qc = np.array(Q, order="C")  # a copy, whatever the layout of Q
    u, v = rng.uniform(-1, 1, 15), rng.uniform(-1, 1, 4)
    Q1, R1 = qru.qr_update(Qc, R.copy(), u, v, overwrite_qruv=True,
                           backend=backend)
    _check(Q1, R1, A + np.outer(u, v), np.float64)
    assert Q1 is Qc
    for bad in (np.array(Q, order="F"), Q.astype(">f8")):
        if bad.dtype.isnative:
            bad.flags.writeable = False
        Q1, R1 = qru.qr_delete(bad, R.copy(), 2, 2, "row",
                               overwrite_qr=True, backend=backend)
        _check(Q1, R1, np.delete(A, [2, 3], 0), np.float64)
        assert np.array_equal(bad, Q) and not np.shares_memory(Q1, bad)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape", [(15, 4), (4, 6)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_overwrite_failure_leaves_q(backend, shape, op):
    # a failed call (here: non-finite input, in the library's update of a
    # tall A or in the refactorisation of a wide one) leaves the caller's
    # Q and R bit-identical
    rng, A, Q, R = _problem(*shape, np.float64, 11, False)
    Q, R = np.asfortranarray(Q), np.asfortranarray(R)
    Q[1, 1] = np.nan
    Q0, R0 = Q.copy(), R.copy()
    with pytest.raises(ValueError):
        _op(op, Q, R, A, rng, backend, True)
    assert np.array_equal(Q, Q0, equal_nan=True)
    assert np.array_equal(R, R0)


def test_errors():
    rng, A, Q, R = _problem(10, 4, np.float64, 8, False)
    with pytest.raises(ValueError, match="which"):
        qru.qr_insert(Q, R, np.ones(4), 0, "diag")
    with pytest.raises(ValueError):
        qru.qr_insert(Q, R, np.ones(5), 0, "row")  # wrong length
    with pytest.raises(ValueError):
        qru.qr_insert(Q, R, np.ones(4), 11, "row")  # k past the end
    with pytest.raises(ValueError):
        qru.qr_delete(Q, R, 9, 2, "row")  # rows past the end
    with pytest.raises(ValueError):
        qru.qr_delete(Q[:, :5], R, 0)  # neither full nor economic
    bad = Q.copy()
    bad[1, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        qru.qr_delete(bad, R, 0)
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_delete(Q.astype(complex), R, 0)  # complex Q, real R
    with pytest.raises(ValueError, match="backend"):
        qru.qr_delete(Q, R, 0, backend="tpu")


def test_lost_rank_raises_linalgerror():
    """An economic factorisation cannot take a dependent column (SciPy
    raises LinAlgError there as well); the inputs stay unchanged."""
    rng = np.random.default_rng(9)
    A = rng.uniform(-1, 1, (10, 3))
    Q, R = sl.qr(A, mode="economic")
    Q0, R0 = Q.copy(), R.copy()
    for backend in BACKENDS:
        with pytest.raises(np.linalg.LinAlgError):
            qru.qr_insert(Q, R, A[:, 1] + A[:, 2], 0, "col", backend=backend)
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)


def test_backends_report():
    assert "cpu" in qru.backends()
    assert qru.device_name("cpu")
    assert qru.__version__


@pytest.mark.parametrize("k", [1, 3, 12])
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("backend", BACKENDS)
def test_update(backend, dt, econ, k):
    rng, A, Q, R = _problem(30, 8, dt, 5, econ)
    u = rng.uniform(-1, 1, (30, k)).astype(dt)
    v = rng.uniform(-1, 1, (8, k)).astype(dt)
    if k == 1:
        u, v = u[:, 0], v[:, 0]
    Q0, R0, u0, v0 = Q.copy(), R.copy(), u.copy(), v.copy()
    Q1, R1 = qru.qr_update(Q, R, u, v, backend=backend)
    A1 = A.astype(np.float64) + np.outer(u, v) if k == 1 else \
        A.astype(np.float64) + u.astype(np.float64) @ v.astype(np.float64).T
    Rs = None
    if k <= 8:  # SciPy takes a rank up to min(M, N); qru any k
        Rs = sl.qr_update(Q.astype(np.float64), R.astype(np.float64),
                          u.astype(np.float64), v.astype(np.float64))[1]
    _check(Q1, R1, A1, dt, Rs)
    assert Q1.shape == Q.shape and R1.shape == R.shape
    for a, a0 in ((Q, Q0), (R, R0), (u, u0), (v, v0)):
        assert np.array_equal(a, a0), "an input was overwritten"


@pytest.mark.parametrize("backend", BACKENDS)
def test_update_square_and_errors(backend):
    rng, A, Q, R = _problem(9, 9, np.float64, 6, False)
    u, v = rng.uniform(-1, 1, (9, 2)), rng.uniform(-1, 1, (9, 2))
    Q1, R1 = qru.qr_update(Q, R, u, v, backend=backend)
    _check(Q1, R1, A + u @ v.T, np.float64,
           sl.qr_update(Q, R, u, v)[1])
    # column 2 of A + u v' is zero: a valid QR with R1[2, 2] = 0 (as SciPy)
    rng, A, Q, R = _problem(30, 8, np.float64, 7, False)
    e2 = np.zeros(8)
    e2[2] = 1.0
    for econ in (False, True):
        Qe, Re = (Q[:, :8], R[:8]) if econ else (Q, R)
        Q1, R1 = qru.qr_update(Qe, Re, -A[:, 2], e2, backend=backend)
        A1 = A - np.outer(A[:, 2], e2)
        _check(Q1, R1, A1, np.float64)
        assert abs(R1[2, 2]) < 1e-12 * np.abs(R1).max()
    with pytest.raises(ValueError):
        qru.qr_update(Q, R, A[:-1, 0], e2, backend=backend)  # u's length
    with pytest.raises(ValueError):
        qru.qr_update(Q, R, A[:, :2], e2, backend=backend)  # 2-D u, 1-D v
    with pytest.raises(ValueError):
        qru.qr_update(Q, R, A[:, :2], np.ones((8, 3)), backend=backend)
    bad = A[:, 0].copy()
    bad[3] = np.nan
    with pytest.raises(ValueError):
        qru.qr_update(Q, R, bad, e2, backend=backend)


# ---- complex64 and complex128 -------------------------------------------------

def _cproblem(M, N, dt, seed, econ):
    rng = np.random.default_rng(seed)
    A = (rng.uniform(-1, 1, (M, N)) + 1j * rng.uniform(-1, 1, (M, N))
         ).astype(dt)
    Q, R = sl.qr(A, mode="economic" if econ else "full")
    return rng, A, Q.astype(dt), R.astype(dt)


def _crand(rng, shape, dt):
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)
            ).astype(dt)


def _complex_ok(backend):
    return qru._arrays.context(backend).supports_complex(True)


@pytest.mark.parametrize("where,p", CASES)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
@pytest.mark.parametrize("backend", BACKENDS)
def test_complex(backend, dt, econ, where, p):
    """qr_insert, qr_delete and qr_update of complex factorisations
    against SciPy (A + u v' with v' the conjugate transpose); a backend
    that does not compute in complex raises TypeError naming it."""
    rng, A, Q, R = _cproblem(30, 8, dt, 11, econ)
    if not _complex_ok(backend):
        with pytest.raises(TypeError, match=backend):
            qru.qr_delete(Q, R, 0, 1, "col", backend=backend)
        return
    for which, ax in (("row", 0), ("col", 1)):
        k = _k(where, A.shape[ax])
        u = _crand(rng, (p, 8) if ax == 0 else (30, p), dt)
        Q1, R1 = qru.qr_insert(Q, R, u, k, which, backend=backend)
        A1 = np.concatenate([A[:k], u, A[k:]] if ax == 0 else
                            [A[:, :k], u, A[:, k:]], axis=ax)
        Rs = None
        if not (econ and which == "row"):
            Rs = sl.qr_insert(Q.astype(np.complex128),
                              R.astype(np.complex128),
                              u.astype(np.complex128), k, which)[1]
        _check(Q1, R1, A1, dt, Rs)
        k = _k(where, A.shape[ax] - p)
        Q1, R1 = qru.qr_delete(Q, R, k, p, which, backend=backend)
        Rs = None
        if not (econ and which == "row"):
            Rs = sl.qr_delete(Q.astype(np.complex128),
                              R.astype(np.complex128), k, p, which)[1]
        _check(Q1, R1, np.delete(A, range(k, k + p), axis=ax), dt, Rs)
    u, v = _crand(rng, (30, p), dt), _crand(rng, (8, p), dt)
    Q1, R1 = qru.qr_update(Q, R, u, v, backend=backend)
    _check(Q1, R1, A + u @ v.conj().T, dt)
    # a wide A (refactorised): A + u v'
    rng, A, Q, R = _cproblem(5, 9, dt, 12, False)
    u, v = _crand(rng, 5, dt), _crand(rng, 9, dt)
    Q1, R1 = qru.qr_update(Q, R, u, v, backend=backend)
    _check(Q1, R1, A + np.outer(u, v.conj()), dt)


def test_complex_dtype_rule():
    """complex64 and complex128 do not mix with each other or with real
    arrays (SciPy's rule); SciPy's overwrite of a complex v in a rank-1
    qr_update (v := conj(v)) holds, a real v stays as it is."""
    rng, A, Q, R = _cproblem(10, 4, np.complex128, 13, False)
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_delete(Q.astype(np.complex64), R, 0)
    with pytest.raises(ValueError, match="same dtype"):
        qru.qr_insert(Q, R, np.ones(10), 0, "col")
    if not _complex_ok("cpu"):
        return
    u, v = _crand(rng, 10, np.complex128), _crand(rng, 4, np.complex128)
    v0 = v.copy()
    Q1, R1 = qru.qr_update(Q.copy("F"), R.copy("F"), u, v,
                           overwrite_qruv=True)
    _check(Q1, R1, A + np.outer(u, v0.conj()), np.complex128)
    np.testing.assert_array_equal(v, v0.conj())

