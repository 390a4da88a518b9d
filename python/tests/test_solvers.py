"""qru.nnls against scipy.optimize.nnls on the same data, every backend
that runs here: random tall, square and wide problems (float64: the same
active set and x within 1e-8 relative; float32: the KKT conditions at
float32's rounding level and SciPy's residual), a positive unconstrained
solution, x = 0, duplicate columns (the same A x and residual, never two
copies active), exact ties (the lowest index first), b as (m,) or (m, 1)
and C-ordered A, empty problems, the iteration cap (RuntimeError, as
SciPy), atol, and the argument errors (ValueError, as SciPy).  The inputs
are never overwritten."""
import numpy as np
import pytest
from scipy.optimize import nnls as scipy_nnls

import qru
from conftest import THRESH, eps, host_backends

BACKENDS = host_backends()
SHAPES = [(200, 50), (60, 60), (30, 80), (90, 7)]


def _problem(m, n, seed, dt=np.float64):
    rng = np.random.default_rng(seed)
    return (rng.uniform(-1, 1, (m, n)).astype(dt),
            rng.uniform(-1, 1, m).astype(dt))


def _kkt(A, b, x, dt):
    """The KKT conditions of x in float64: x >= 0, w = A'(b - A x) at the
    rounding level where x > 0 and below it (or negative) where x = 0."""
    A, b, x = (np.asarray(a, np.float64) for a in (A, b, x))
    m, n = A.shape
    w = A.T @ (b - A @ x)
    scale = THRESH * max(m, n) * eps(dt) * np.linalg.norm(A) * (
        np.linalg.norm(b) + np.linalg.norm(A) * np.linalg.norm(x))
    assert np.all(x >= 0)
    assert np.all(np.abs(w[x > 0]) <= scale), np.abs(w[x > 0]).max()
    assert np.all(w[x == 0] <= scale), w[x == 0].max()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_float64(backend, shape, seed):
    A, b = _problem(*shape, seed)
    A0, b0 = A.copy(), b.copy()
    x, rnorm = qru.nnls(A, b, backend=backend)
    xs, rs = scipy_nnls(A, b)
    assert np.array_equal(A, A0) and np.array_equal(b, b0)
    assert x.shape == (shape[1],) and x.dtype == np.float64
    assert isinstance(rnorm, float)
    assert np.array_equal(x > 0, xs > 0)
    assert np.linalg.norm(x - xs) <= 1e-8 * np.linalg.norm(xs)
    assert abs(rnorm - rs) <= 1e-8 * max(rs, 1.0)
    assert abs(rnorm - np.linalg.norm(A @ x - b)) <= 1e-12 * np.linalg.norm(b)
    _kkt(A, b, x, np.float64)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shape", SHAPES)
def test_random_float32(backend, shape):
    A, b = _problem(*shape, 3, np.float32)
    x, rnorm = qru.nnls(A, b, backend=backend)
    assert x.dtype == np.float32
    _kkt(A, b, x, np.float32)
    _, rs = scipy_nnls(A.astype(np.float64), b.astype(np.float64))
    # x is optimal for float32's rounding: its residual is SciPy's
    assert abs(rnorm - rs) <= 1e-4 * max(rs, 1.0)


@pytest.mark.parametrize("backend", BACKENDS)
def test_positive_and_zero(backend):
    rng = np.random.default_rng(4)
    A = rng.uniform(-1, 1, (120, 30))
    x0 = rng.uniform(1, 2, 30)
    b = A @ x0 + 1e-3 * rng.uniform(-1, 1, 120)
    x, rnorm = qru.nnls(A, b, backend=backend)
    xl = np.linalg.lstsq(A, b, rcond=None)[0]
    assert np.all(x > 0)
    assert np.linalg.norm(x - xl) <= 1e-10 * np.linalg.norm(xl)
    # A >= 0, b <= 0: A'b <= 0 and x = 0
    A, b = np.abs(A), -np.abs(b)
    x, rnorm = qru.nnls(A, b, backend=backend)
    assert np.all(x == 0)
    assert abs(rnorm - np.linalg.norm(b)) <= 1e-14 * np.linalg.norm(b)


@pytest.mark.parametrize("backend", BACKENDS)
def test_duplicates(backend):
    A, b = _problem(80, 24, 5)
    A[:, 1:16:2] = A[:, 0:16:2]
    A[:, 20] = A[:, 16]
    A[:, 23] = A[:, 16]
    b += A[:, 0] + A[:, 4] + A[:, 16]
    x, rnorm = qru.nnls(A, b, backend=backend)
    xs, rs = scipy_nnls(A, b)
    assert np.linalg.norm(A @ x - A @ xs) <= 1e-10 * np.linalg.norm(b)
    assert abs(rnorm - rs) <= 1e-10 * rs
    for j in range(0, 16, 2):
        assert not (x[j] > 0 and x[j + 1] > 0)
    assert (x[[16, 20, 23]] > 0).sum() <= 1
    _kkt(A, b, x, np.float64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_ties(backend):
    # equal w_j: the lowest index enters first, as in SciPy (x[0] = 1 up
    # to rounding: the Gram form's 3 / sqrt(3)^2 need not be 1 exactly)
    A, b = np.ones((3, 2)), np.ones(3)
    x, rnorm = qru.nnls(A, b, backend=backend)
    xs, rs = scipy_nnls(A, b)
    eps = np.finfo(np.float64).eps
    assert xs[1] == 0.0 and x[1] == 0.0
    assert abs(x[0] - xs[0]) <= 4 * eps and abs(x[0] - 1.0) <= 4 * eps
    A, b = np.eye(6), np.ones(6)
    with pytest.raises(RuntimeError):
        qru.nnls(A, b, maxiter=2, backend=backend)
    x, rnorm = qru.nnls(A, b, backend=backend)
    assert np.array_equal(x, np.ones(6)) and rnorm == 0.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_shapes_and_layouts(backend):
    A, b = _problem(40, 12, 6)
    x, r = qru.nnls(A, b, backend=backend)
    for A1, b1 in ((np.ascontiguousarray(A), b), (A, b[:, None]),
                   (np.asfortranarray(A), b.copy()), (A.tolist(), b.tolist())):
        x1, r1 = qru.nnls(A1, b1, backend=backend)
        assert x1.shape == (12,)
        assert np.allclose(x1, x, rtol=1e-12, atol=1e-14) and \
            abs(r1 - r) <= 1e-12 * r
    # maxiter positional, as SciPy's first signature
    x2, _ = qru.nnls(A, b, 100, backend=backend)
    assert np.array_equal(x2, x)
    # integer data computes in float64
    xi, _ = qru.nnls(np.array([[1, 0], [1, 0], [0, 1]]), np.array([2, 1, 1]),
                     backend=backend)
    assert xi.dtype == np.float64 and np.allclose(xi, [1.5, 1.0])


def test_empty():
    x, r = qru.nnls(np.zeros((3, 0)), np.array([3.0, 4.0, 0.0]))
    assert x.shape == (0,) and r == 5.0
    x, r = qru.nnls(np.zeros((0, 3)), np.zeros(0))
    assert np.array_equal(x, np.zeros(3)) and r == 0.0


@pytest.mark.parametrize("backend", BACKENDS)
def test_maxiter_and_atol(backend):
    A, b = _problem(40, 30, 7)
    with pytest.raises(RuntimeError, match="Maximum number of iterations"):
        qru.nnls(A, b, maxiter=1, backend=backend)
    with pytest.raises(RuntimeError):
        scipy_nnls(A, b, maxiter=1)
    # atol: the w a column needs to enter; above every w_j of x = 0,
    # nothing enters
    big = float((A.T @ b).max()) * 1.01
    x, r = qru.nnls(A, b, atol=big, backend=backend)
    assert np.all(x == 0) and abs(r - np.linalg.norm(b)) <= 1e-14 * r
    x0, _ = qru.nnls(A, b, atol=0.0, backend=backend)
    xs, _ = scipy_nnls(A, b)
    assert np.linalg.norm(x0 - xs) <= 1e-8 * np.linalg.norm(xs)


def test_errors():
    A, b = _problem(10, 4, 8)
    with pytest.raises(ValueError, match="2D"):
        qru.nnls(b, b)
    with pytest.raises(ValueError):
        qru.nnls(A, np.ones((10, 2)))
    with pytest.raises(ValueError, match="Incompatible dimensions"):
        qru.nnls(A, np.ones(9))
    for bad in (np.nan, np.inf, -np.inf):
        A1 = A.copy()
        A1[3, 2] = bad
        with pytest.raises(ValueError, match="argument 2"):
            qru.nnls(A1, b)
        b1 = b.copy()
        b1[9] = bad
        with pytest.raises(ValueError, match="argument 3"):
            qru.nnls(A, b1)
    with pytest.raises(ValueError, match="atol"):
        qru.nnls(A, b, atol=-1.0)
    with pytest.raises(ValueError, match="maxiter"):
        qru.nnls(A, b, maxiter=-1)
    with pytest.raises(ValueError, match="maxiter"):
        qru.nnls(A, b, maxiter=2.5)
    with pytest.raises(TypeError):
        qru.nnls(A.astype(np.complex128), b)
