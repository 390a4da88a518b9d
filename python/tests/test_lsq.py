"""qru.LeastSquares against NumPy on the same data: each form (full Q,
thin Q, Q-less), each update (rows and columns added and removed, the
Q-less ones with the data they need) at k at the start, in the middle and
at the end, p = 1 and 3, float64, float32, complex128 and complex64 (' the
conjugate transpose), one and two right-hand sides, every backend that
runs here.  Checks, below 30: the normal equations' residual
|A1'(b1 - A1 x)| / (|A1| (|A1| |x| + |b1|) eps n),
the residual norms against NumPy's, and where Q is held Q1 R1 = A1, the
orthogonality of Q1 and Q1 d + E = b1.  A failed call leaves the object
unchanged bit for bit; the inputs are never overwritten."""
import numpy as np
import pytest

import qru
from conftest import (THRESH, eps, host_backends, orthogonality,
                      scaled_residual)

BACKENDS = host_backends()
N, M = 40, 8


def _hi(dt):
    """The type the checks compute in: complex128 or float64."""
    return np.complex128 if np.iscomplexobj(dt(0)) else np.float64


def _rand(rng, shape, dt):
    """uniform(-1, 1) entries (complex dt: both parts) of type dt."""
    x = rng.uniform(-1, 1, shape)
    if np.iscomplexobj(dt(0)):
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dt)


def _check(f, A1, b1, dt):
    n, m = A1.shape
    assert f.shape == (n, m)
    x = np.asarray(f.solve(), _hi(dt))
    assert f.solve().dtype == dt
    x2 = x.reshape(m, -1)
    b2 = b1.reshape(n, -1)
    ne = np.linalg.norm(A1.conj().T @ (b2 - A1 @ x2)) / (
        np.linalg.norm(A1) * (np.linalg.norm(A1) * np.linalg.norm(x2) +
                              np.linalg.norm(b2)) * eps(dt) * n)
    assert ne < THRESH, f"normal equations {ne}"
    xs = np.linalg.lstsq(A1, b2, rcond=None)[0]
    rs = np.linalg.norm(b2 - A1 @ xs, axis=0)
    res = np.atleast_1d(f.residual())
    scale = np.linalg.norm(A1) * np.linalg.norm(xs) + np.linalg.norm(b2)
    assert np.all(np.abs(res - rs) <= THRESH * eps(dt) * n * scale), (res, rs)
    if f.q == "none":
        with pytest.raises(ValueError):
            f.Q
        return
    Q, R, d = (np.asarray(a, _hi(dt)) for a in (f.Q, f.R, f.d))
    assert scaled_residual(Q @ R, A1, dt, n) < THRESH
    assert orthogonality(Q, dt) < THRESH
    E = np.asarray(f.residuals, _hi(dt))
    full = Q @ d if f.q == "full" else Q @ d + E
    assert scaled_residual(full, b2, dt, n) < THRESH


def _problem(dt, seed, r):
    rng = np.random.default_rng(seed)
    A = _rand(rng, (N, M), dt)
    b = _rand(rng, (N, r) if r > 1 else N, dt)
    return rng, A, b


def _k(where, hi):
    return {"start": 0, "middle": hi // 2, "end": hi}[where]


CASES = [(w, p) for w in ("start", "middle", "end") for p in (1, 3)]
DTR = [(np.float64, 1), (np.float32, 2), (np.complex128, 1),
       (np.complex64, 2)]


def _params(f):
    for deco in (pytest.mark.parametrize("where,p", CASES),
                 pytest.mark.parametrize("q", ["full", "thin", "none"]),
                 pytest.mark.parametrize("dt,r", DTR),
                 pytest.mark.parametrize("backend", BACKENDS)):
        f = deco(f)
    return f


@_params
@pytest.mark.parametrize("op", ["add_rows", "remove_rows", "add_cols",
                                "remove_cols"])
def test_update(backend, dt, r, q, op, where, p):
    rng, A, b = _problem(dt, 21, r)
    A0, b0 = A.copy(), b.copy()
    f = qru.LeastSquares(A, b, q, backend=backend)
    hi = _hi(dt)
    _check(f, A.astype(hi), b.astype(hi), dt)
    if op == "add_rows":
        k = _k(where, N)
        U = _rand(rng, (p, M), dt)
        e = _rand(rng, (p, r) if r > 1 else p, dt)
        f.add_rows(k, U, e)
        A1, b1 = np.insert(A, k, U, axis=0), np.insert(b, k, e, axis=0)
    elif op == "remove_rows":
        k = _k(where, N - p)
        if q == "none":
            f.remove_rows(k, U=A[k:k + p], e=b[k:k + p])
        else:
            f.remove_rows(k, p)
        A1, b1 = np.delete(A, range(k, k + p), 0), np.delete(b, range(k, k + p), 0)
    elif op == "add_cols":
        k = _k(where, M)
        U = _rand(rng, (N, p), dt)
        if q == "none":
            f.add_cols(k, U, A, b)
        else:
            f.add_cols(k, U)
        A1, b1 = np.insert(A, [k] * p, U, axis=1), b
    else:
        k = _k(where, M - p)
        f.remove_cols(k, p)
        A1, b1 = np.delete(A, range(k, k + p), 1), b
    _check(f, A1.astype(hi), b1.astype(hi), dt)
    assert np.array_equal(A, A0) and np.array_equal(b, b0), "input overwritten"


def _state(f):
    s = [np.array(f.R), np.array(f.d), np.atleast_1d(f.residual()).copy()]
    if f.q != "none":
        s.append(np.array(f.Q))
    return s


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["full", "thin", "none"])
def test_failed_calls_leave_object_unchanged(backend, q):
    rng, A, b = _problem(np.float64, 22, 1)
    f = qru.LeastSquares(A, b, q, backend=backend)
    before = _state(f)
    dep = A[:, :1] + A[:, 1:2]  # a dependent column: lost rank
    with pytest.raises(np.linalg.LinAlgError):
        if q == "none":
            f.add_cols(3, dep, A, b)
        else:
            f.add_cols(3, dep)
    with pytest.raises(ValueError, match="qru_lsq_remove_cols"):
        f.remove_cols(5, 4)  # past the last column
    with pytest.raises(ValueError):
        f.add_rows(N + 1, A[:1], b[:1])  # k past the end
    with pytest.raises(ValueError):
        f.add_rows(0, A[:2, :5], b[:2])  # U with the wrong width
    bad = A[:2].copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        f.add_rows(0, bad, b[:2])
    with pytest.raises(TypeError):
        f.add_rows(0, A[:2].astype(complex), b[:2])
    after = _state(f)
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    _check(f, A, b, np.float64)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["thin", "none"])
def test_remove_rows_losing_rank_raises(backend, q):
    """Removing the only row that has an entry in the last column leaves A
    rank-deficient: the thin and Q-less removals refuse it (thin: the
    update, not the refactorisation the 'auto' algorithm may choose)."""
    rng = np.random.default_rng(23)
    A = rng.uniform(-1, 1, (20, 4))
    A[:, 3] = 0
    A[7, 3] = 1.0
    b = rng.uniform(-1, 1, 20)
    f = qru.LeastSquares(A, b, q, backend=backend)
    f.algorithm = "fast"
    before = _state(f)
    with pytest.raises(np.linalg.LinAlgError):
        f.remove_rows(6, U=A[6:9], e=b[6:9])
    assert all(np.array_equal(x, y) for x, y in zip(before, _state(f)))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("alg", ["fast", "dissertation", "refactor", "auto"])
@pytest.mark.parametrize("q", ["full", "thin", "none"])
def test_algorithms(backend, alg, q):
    """Every algorithm gives the factorisation of the updated problem;
    'refactor' refactorises in the forms that hold Q (the Q-less form,
    with no A to rebuild, updates)."""
    rng, A, b = _problem(np.float64, 31, 1)
    f = qru.LeastSquares(A, b, q, backend=backend)
    f.algorithm = alg
    assert f.algorithm == alg
    U, e = rng.uniform(-1, 1, (2, M)), rng.uniform(-1, 1, 2)
    f.add_rows(3, U, e)
    A1 = np.vstack([A[:3], U, A[3:]])
    b1 = np.concatenate([b[:3], e, b[3:]])
    _check(f, A1, b1, np.float64)
    f.remove_rows(0, 2, U=A1[:2], e=b1[:2])
    _check(f, A1[2:], b1[2:], np.float64)
    with pytest.raises(ValueError, match="algorithm"):
        f.algorithm = "never"


def test_rank_deficient_solve_raises():
    rng = np.random.default_rng(24)
    A = rng.uniform(-1, 1, (15, 4))
    A[:, 2] = A[:, 0]
    f = qru.LeastSquares(A, rng.uniform(-1, 1, 15))
    with pytest.raises(np.linalg.LinAlgError, match="qru_lsq_solve"):
        f.solve()


def test_qless_needs_the_data():
    rng, A, b = _problem(np.float64, 25, 1)
    f = qru.LeastSquares(A, b, "none")
    with pytest.raises(ValueError, match="Q-less"):
        f.remove_rows(0, 2)
    with pytest.raises(ValueError, match="Q-less"):
        f.add_cols(0, A[:, :1])
    with pytest.raises(ValueError, match="Q-less"):
        f.residuals
    assert f.error_estimate() < THRESH * eps(np.float64) * N


def test_vector_and_mixed_types():
    """A vector b gives a vector x and a float residual; arrays given to a
    float32 object are converted to float32; a 1-D U is one row."""
    rng, A, b = _problem(np.float32, 26, 1)
    f = qru.LeastSquares(A, b, "thin")
    assert f.dtype == np.float32 and f.solve().shape == (M,)
    assert isinstance(f.residual(), float)
    row = rng.uniform(-1, 1, M)  # float64
    f.add_rows(N, row, [0.5])
    assert f.shape == (N + 1, M) and f.solve().dtype == np.float32
    _check(f, np.vstack([A, row]).astype(np.float64),
           np.append(b, 0.5).astype(np.float64), np.float32)
    with pytest.raises(ValueError, match="q must"):
        qru.LeastSquares(A, b, "economic")
    assert "q='thin'" in repr(f)


def test_complex_types():
    """Complex A or b make a complex object (complex64 where both are
    float32 or complex64, as NumPy promotes); it converts real arrays
    given to it; a real object refuses complex arrays (TypeError) and
    stays as it was."""
    rng, A, b = _problem(np.float32, 27, 1)
    f = qru.LeastSquares(A, b.astype(np.complex64), "thin")
    assert f.dtype == np.complex64 and f.solve().dtype == np.complex64
    assert qru.LeastSquares(A, b.astype(np.complex128)).dtype == \
        np.complex128
    assert qru.LeastSquares(A.astype(np.float64),
                            b.astype(np.complex64)).dtype == np.complex128
    row = rng.uniform(-1, 1, M)  # float64, converted to complex64
    f.add_rows(N, row, [0.5 + 0.25j])
    hi = np.complex128
    _check(f, np.vstack([A, row]).astype(hi),
           np.append(b, 0.5 + 0.25j).astype(hi), np.complex64)
    g = qru.LeastSquares(A, b, "full")
    before = _state(g)
    with pytest.raises(TypeError, match="U is complex"):
        g.add_rows(0, row + 1j, [0.5])
    with pytest.raises(TypeError, match="U is complex"):
        g.add_cols(0, _rand(rng, (N, 1), np.complex64))
    for a, c in zip(before, _state(g)):
        assert np.array_equal(a, c)


@pytest.mark.parametrize("k", [1, 4])
@pytest.mark.parametrize("q", ["full", "thin"])
@pytest.mark.parametrize("dt,r", DTR)
@pytest.mark.parametrize("backend", BACKENDS)
def test_modify(backend, dt, r, q, k):
    rng, A, b = _problem(dt, 11, r)
    f = qru.LeastSquares(A, b, q=q, backend=backend)
    U = _rand(rng, (N, k), dt)
    V = _rand(rng, (M, k), dt)
    f.modify(U, V)
    hi = _hi(dt)
    A1 = A.astype(hi) + U.astype(hi) @ V.astype(hi).conj().T
    _check(f, A1, b.astype(hi), dt)


@pytest.mark.parametrize("backend", BACKENDS)
def test_modify_failure_and_qless(backend):
    rng, A, b = _problem(np.float64, 12, 1)
    f = qru.LeastSquares(A, b, q="full", backend=backend)
    before = _state(f)
    e0 = np.zeros(M)
    e0[0] = 1.0
    with pytest.raises(np.linalg.LinAlgError):
        f.modify(-A[:, 0], e0)  # column 0 of A + U V' becomes zero
    after = _state(f)
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    g = qru.LeastSquares(A, b, q="none", backend=backend)
    with pytest.raises(ValueError):
        g.modify(A[:, :1], np.ones((M, 1)))
