"""qru.orthogonal_mp against scikit-learn's orthogonal_mp where scikit-learn
is installed, else against the NumPy OMP below (written plainly: the
argmax of |X' r|, then least squares on the chosen columns): the same
columns chosen in the same order (the path's nonzeros step by step), the
coefficients within 1e-8 (float64, relative to their norm), on wide and
tall X, with n_nonzero_coefs and with tol, one and several targets,
float64 and float32, every backend that runs here, in the residual and
the Gram form (precompute False and True) and the cost model's choice.  Then scikit-learn's
return conventions (squeezed shapes, return_path, return_n_iter), its
warning where the pursuit ends early (y = 0, duplicate columns, more
columns than can be independent), its argument errors, and inputs left
as they were."""
import warnings

import numpy as np
import pytest

import qru
from conftest import check_bad_data, host_backends

BACKENDS = host_backends()

try:
    from sklearn.linear_model import orthogonal_mp as sk_omp
except ImportError:  # the NumPy reference alone
    sk_omp = None


def np_omp(X, y, n_nonzero_coefs=None, tol=None):
    """OMP on one target in float64: (coef, path (m, steps)), scikit-learn's
    stopping rules without its early stops."""
    X = np.asarray(X, np.float64)
    y = np.asarray(y, np.float64)
    n, m = X.shape
    if n_nonzero_coefs is None:
        n_nonzero_coefs = max(int(0.1 * m), 1)
    cap = m if tol is not None else n_nonzero_coefs
    cap = min(cap, n)
    r, S, path = y.copy(), [], []
    x = np.zeros(0)
    while len(S) < cap:
        S.append(int(np.argmax(np.abs(X.T @ r))))
        x = np.linalg.lstsq(X[:, S], y, rcond=None)[0]
        r = y - X[:, S] @ x
        step = np.zeros(m)
        step[S] = x
        path.append(step)
        if tol is not None and r @ r <= tol:
            break
    coef = np.zeros(m)
    coef[S] = x
    return coef, np.array(path).T


def reference(X, y, n_nonzero_coefs=None, tol=None):
    """scikit-learn's path if it is installed, else np_omp's: (coef,
    path (m, steps)) of one target, in float64."""
    X = np.asarray(X, np.float64)
    y = np.asarray(y, np.float64)
    if sk_omp is None:
        return np_omp(X, y, n_nonzero_coefs, tol)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        path = sk_omp(X, y, n_nonzero_coefs=n_nonzero_coefs, tol=tol,
                      return_path=True)
    path = path.reshape(X.shape[1], -1)
    return path[:, -1], path


def problem(n, m, s, noise, seed, dt=np.float64, x0=False):
    """X uniform(-1, 1); y = X x0 + noise with x0 nonzero at s columns
    (|x0| in [1, 2]), or random (s = 0); (X, y) or with x0 (X, y, x0)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, m)).astype(dt)
    x = np.zeros(m)
    if s == 0:
        y = rng.uniform(-1, 1, n)
    else:
        x[rng.choice(m, s, replace=False)] = \
            rng.choice([-1, 1], s) * rng.uniform(1, 2, s)
        y = X.astype(np.float64) @ x
        if noise:
            y += noise * rng.uniform(-1, 1, n)
    return (X, y.astype(dt), x) if x0 else (X, y.astype(dt))


def same_steps(path, ref, tag):
    """The path's nonzero pattern step by step is the reference's: the
    same columns in the same order."""
    assert path.shape == ref.shape, (tag, path.shape, ref.shape)
    for s in range(ref.shape[1]):
        got = np.flatnonzero(path[:, s])
        want = np.flatnonzero(ref[:, s])
        assert np.array_equal(got, want), (tag, s, got, want)


CASES = [  # n, m, s, noise, n_nonzero_coefs, tol
    (40, 120, 5, 0.05, 5, None),
    (40, 120, 0, 0.0, 40, None),      # wide, min(n, m) columns
    (80, 30, 0, 0.0, 30, None),       # tall, every column
    (80, 30, 0, 0.0, 1, None),
    (60, 150, 6, 0.05, None, 0.5),    # tol
    (60, 150, 6, 0.05, None, 1e-4),
    (100, 250, 10, 0.01, None, None),  # the default count, 25
]


@pytest.mark.parametrize("precompute", [False, True, "auto"])
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", CASES)
def test_against_reference(backend, case, precompute):
    """Each form (precompute: the residual form, the Gram form, the cost
    model's choice) against the reference."""
    n, m, s, noise, k, tol = case
    X, y = problem(n, m, s, noise, 7 + n + m)
    path = qru.orthogonal_mp(X, y, n_nonzero_coefs=k, tol=tol,
                             return_path=True, backend=backend,
                             precompute=precompute)
    coef = qru.orthogonal_mp(X, y, n_nonzero_coefs=k, tol=tol,
                             backend=backend, precompute=precompute)
    want, ref = reference(X, y, k, tol)
    path = path.reshape(m, -1)
    same_steps(path, ref, case)
    assert coef.shape == (m,) and coef.dtype == np.float64
    assert np.linalg.norm(coef - want) <= 1e-8 * np.linalg.norm(want), case
    assert np.linalg.norm(path - ref) <= 1e-8 * np.linalg.norm(ref), case
    # the path's last step is the coefficients, up to the rounding of a
    # solve with several right-hand sides against one with one (the
    # backends' BLAS may take different kernels for them), which is
    # relative to the largest coefficient, not to each
    assert np.allclose(path[:, -1], coef, rtol=0,
                       atol=8 * np.finfo(coef.dtype).eps *
                       np.abs(coef).max()), case
    if tol is not None:
        assert np.sum((y - X @ coef) ** 2) <= tol


@pytest.mark.parametrize("backend", BACKENDS)
def test_targets(backend):
    """Several targets: each its own pursuit, as one at a time."""
    X, _ = problem(50, 90, 0, 0.0, 11)
    rng = np.random.default_rng(12)
    Y = rng.uniform(-1, 1, (50, 3))
    coef, n_iter = qru.orthogonal_mp(X, Y, n_nonzero_coefs=7,
                                     return_n_iter=True, backend=backend)
    path = qru.orthogonal_mp(X, Y, n_nonzero_coefs=7, return_path=True,
                             backend=backend)
    assert coef.shape == (90, 3) and path.shape == (90, 3, 7)
    assert n_iter == [7, 7, 7]
    for j in range(3):
        one = qru.orthogonal_mp(X, Y[:, j], n_nonzero_coefs=7,
                                backend=backend)
        assert np.array_equal(coef[:, j], one)
        want, ref = reference(X, Y[:, j], 7)
        same_steps(path[:, j, :], ref, j)
        assert np.linalg.norm(one - want) <= 1e-8 * np.linalg.norm(want)


@pytest.mark.parametrize("precompute", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_float32(backend, precompute):
    """float32 data: a float32 result, the columns of the float64
    pursuit on the same values, coefficients to float32's accuracy."""
    X, y = problem(60, 140, 6, 0.01, 21, np.float32)
    coef = qru.orthogonal_mp(X, y, n_nonzero_coefs=6, backend=backend,
                             precompute=precompute)
    assert coef.dtype == np.float32
    want, _ = reference(X, y, 6)
    assert np.array_equal(np.flatnonzero(coef), np.flatnonzero(want))
    assert np.linalg.norm(coef - want) <= 1e-4 * np.linalg.norm(want)


@pytest.mark.parametrize("precompute", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_recovery(backend, precompute):
    """A sparse x0 with well-separated nonzeros and y = X x0: recovered;
    asking for more columns ends early, with scikit-learn's warning."""
    X, y, x0 = problem(100, 256, 8, 0.0, 31, x0=True)
    kw = {"backend": backend, "precompute": precompute}
    coef, n_iter = qru.orthogonal_mp(X, y, n_nonzero_coefs=8,
                                     return_n_iter=True, **kw)
    assert n_iter == 8
    assert np.array_equal(np.flatnonzero(coef), np.flatnonzero(x0))
    assert np.abs(coef - x0).max() <= 1e-12
    with pytest.warns(RuntimeWarning, match="ended prematurely"):
        more, n_iter = qru.orthogonal_mp(X, y, n_nonzero_coefs=12,
                                         return_n_iter=True, **kw)
    assert n_iter == 8 and np.array_equal(more, coef)
    with warnings.catch_warnings():  # tol = 0 is met: no warning
        warnings.simplefilter("error")
        exact = qru.orthogonal_mp(X, y, tol=0.0, **kw)
    assert np.array_equal(exact, coef)


@pytest.mark.parametrize("precompute", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_early_stops(backend, precompute):
    """scikit-learn's RuntimeWarning and the coefficients so far: y = 0,
    a duplicate column holding all of y, and more columns than the
    samples (only n can be independent)."""
    X, y = problem(30, 40, 0, 0.0, 41)
    kw = {"backend": backend, "precompute": precompute}
    with pytest.warns(RuntimeWarning, match="ended prematurely"):
        coef, n_iter = qru.orthogonal_mp(X, np.zeros(30), n_nonzero_coefs=3,
                                         return_n_iter=True, **kw)
    assert n_iter == 0 and np.all(coef == 0) and coef.shape == (40,)
    Xd = X.copy()
    Xd[:, 9] = Xd[:, 4]
    with pytest.warns(RuntimeWarning, match="ended prematurely"):
        coef, n_iter = qru.orthogonal_mp(Xd, 2 * Xd[:, 4], n_nonzero_coefs=2,
                                         return_n_iter=True, **kw)
    assert n_iter == 1 and np.flatnonzero(coef).tolist() == [4]
    assert abs(coef[4] - 2) <= 1e-14
    with pytest.warns(RuntimeWarning, match="ended prematurely"):
        coef, n_iter = qru.orthogonal_mp(X, y, n_nonzero_coefs=35,
                                         return_n_iter=True, **kw)
    assert n_iter == 30
    want, _ = reference(X, y, 30)
    assert np.linalg.norm(coef - want) <= 1e-8 * np.linalg.norm(want)


def test_conventions():
    """scikit-learn's shapes: a (n, 1) y squeezes like a vector, one
    feature to a 0-d array; the default count max(int(0.1 m), 1)."""
    X, y = problem(20, 50, 0, 0.0, 51)
    assert qru.orthogonal_mp(X, y[:, None], n_nonzero_coefs=3).shape == (50,)
    c, n_iter = qru.orthogonal_mp(X, y, return_n_iter=True)
    assert n_iter == 5 and np.count_nonzero(c) == 5
    c, n_iter = qru.orthogonal_mp(X[:, :9], y, return_n_iter=True)
    assert n_iter == 1
    assert qru.orthogonal_mp(X[:, :1], y).shape == ()
    p = qru.orthogonal_mp(X, y, n_nonzero_coefs=4, return_path=True)
    assert p.shape == (50, 4)
    c, n_iter = qru.orthogonal_mp(X.tolist(), y.tolist(), tol=1e300,
                                  return_n_iter=True)
    assert n_iter == 1 and isinstance(c, np.ndarray)
    # precompute picks the form (the same columns, the coefficients up
    # to rounding); copy_X is accepted (qru never writes X)
    base = qru.orthogonal_mp(X, y, n_nonzero_coefs=3)
    for pre in (True, False, "auto"):
        c = qru.orthogonal_mp(X, y, n_nonzero_coefs=3, precompute=pre,
                              copy_X=False)
        assert np.array_equal(np.flatnonzero(c), np.flatnonzero(base))
        assert np.allclose(c, base, rtol=1e-12, atol=0)


def test_inputs_unchanged():
    X, y = problem(30, 60, 4, 0.01, 61)
    Xf, X0, y0 = np.asfortranarray(X), X.copy(), y.copy()
    qru.orthogonal_mp(Xf, y, n_nonzero_coefs=10, return_path=True)
    qru.orthogonal_mp(X, y, tol=0.1)
    assert np.array_equal(Xf, X0) and np.array_equal(X, X0)
    assert np.array_equal(y, y0)


def test_errors():
    X, y = problem(20, 30, 0, 0.0, 71)
    with pytest.raises(ValueError, match="cannot be more"):
        qru.orthogonal_mp(X, y, n_nonzero_coefs=31)
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError):
            qru.orthogonal_mp(X, y, n_nonzero_coefs=bad)
    for bad in (-1e-9, float("nan"), "a"):
        with pytest.raises(ValueError):
            qru.orthogonal_mp(X, y, tol=bad)
    with pytest.raises(ValueError):
        qru.orthogonal_mp(X, y[:-1])
    with pytest.raises(ValueError):
        qru.orthogonal_mp(X[0], y)
    with pytest.raises(ValueError):
        qru.orthogonal_mp(X, y, precompute="never")
    check_bad_data(qru.orthogonal_mp, X, y)


def test_reference_is_sklearns():
    """The NumPy reference takes scikit-learn's steps (when installed)."""
    if sk_omp is None:
        pytest.skip("scikit-learn is not installed")
    for case in CASES:
        n, m, s, noise, k, tol = case
        X, y = problem(n, m, s, noise, 7 + n + m)
        coef, path = np_omp(X, y, k, tol)
        want, ref = reference(X, y, k, tol)
        same_steps(path, ref, case)
        assert np.linalg.norm(coef - want) <= 1e-8 * np.linalg.norm(want)
