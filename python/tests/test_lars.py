"""qru.lars_path against scikit-learn's lars_path (where scikit-learn is
installed): 'lar' and 'lasso' on random tall and wide problems and on
problems where a Lasso variable leaves the active set: the same alphas
(1e-12 relative), the same active set in the same order, the same
number of steps (for LAR on wide X up to n active variables, where qru's
path ends and scikit-learn's goes on with dependent columns), the coefficients within 1e-8 relative (float64); in
float32 the same steps, to float32's accuracy; alpha_min (the
interpolated last knot), max_iter, return_path=False and return_n_iter.
Then degenerate problems (duplicate columns, y in the span of one
column, y = 0), where qru departs from scikit-learn by design, by the
Lasso's optimality conditions at each knot; scikit-learn's early stop
where the Lasso's alpha grows; Gram and Xy given as X' X and X' y (and
refused when they are not); argument errors and inputs left as they
were.  positive=True ('lasso'): scikit-learn's path up to its last
knot, every knot optimal for the Lasso with b >= 0, and where the path
ends at alpha 0 SciPy's non-negative least-squares solution.  Every
backend that runs here."""
import warnings

import numpy as np
import pytest

import qru
from conftest import check_bad_data, host_backends

BACKENDS = host_backends()

try:
    from sklearn.linear_model import lars_path as sk_lars
except ImportError:
    sk_lars = None

need_sklearn = pytest.mark.skipif(sk_lars is None,
                                  reason="scikit-learn is not installed")


def problem(n, m, seed, dt=np.float64, s=0):
    """X uniform(-1, 1); y uniform(-1, 1) (s = 0) or X x0 + noise with x0
    nonzero at s columns."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, m))
    if s == 0:
        y = rng.uniform(-1, 1, n)
    else:
        x = np.zeros(m)
        x[rng.choice(m, s, replace=False)] = rng.uniform(1, 2, s)
        y = X @ x + 0.1 * rng.uniform(-1, 1, n)
    return X.astype(dt), y.astype(dt)


def drops(coefs):
    """How many times a nonzero coefficient returns to zero."""
    nz = np.abs(coefs) > 1e-12 * np.abs(coefs).max()
    return int(np.sum(nz[:, :-1] & ~nz[:, 1:]))


def same_path(got, want, tag, rtol=1e-8):
    """got and want, (alphas, active, coefs[, n_iter]): the same steps, the
    same active set, alphas to 1e-12 and coefs to rtol."""
    (a, act, c), (wa, wact, wc) = got[:3], want[:3]
    assert act == list(wact), (tag, act, wact)
    assert a.shape == wa.shape and c.shape == wc.shape, \
        (tag, a.shape, wa.shape)
    # the last alpha of a path that ends at 0 is rounding: atol
    assert np.allclose(a, wa, rtol=1e-12, atol=1e-12 * wa[0]), (tag, a - wa)
    tiny = 1e-12 * np.abs(wc).max()  # scikit-learn's left-over 1e-19s
    for k in range(wc.shape[1]):
        assert np.array_equal(np.flatnonzero(np.abs(c[:, k]) > tiny),
                              np.flatnonzero(np.abs(wc[:, k]) > tiny)), \
            (tag, k)
    assert np.linalg.norm(c - wc) <= rtol * np.linalg.norm(wc), tag


CASES = [  # n, m, seed, s
    (80, 30, 1, 0),     # tall: every variable enters
    (80, 30, 2, 5),
    (40, 120, 3, 0),    # wide: min(n, m) active
    (40, 120, 4, 6),
    (20, 50, 2, 0),     # wide, Lasso variables leave (3 drops)
    (40, 15, 20, 0),    # tall, a Lasso variable leaves
]


@need_sklearn
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["lar", "lasso"])
@pytest.mark.parametrize("case", CASES)
def test_against_sklearn(backend, method, case):
    n, m, seed, s = case
    X, y = problem(n, m, seed, s=s)
    got = qru.lars_path(X, y, method=method, return_n_iter=True,
                        backend=backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its degenerate columns past n
        want = sk_lars(X, y, method=method, return_n_iter=True)
    alphas, active, coefs, n_iter = got
    if n < m and len(active) == n and n_iter < want[3]:
        # LAR's sign changes left alpha > 0 with n columns active: qru's
        # path ends, scikit-learn's goes on adding columns dependent on
        # them (pivots of rounding errors): the same path up to there
        assert method == "lar", case
        wa, wact, wc, _ = want
        want = (wa[:n_iter + 1], wact[:n], wc[:, :n_iter + 1], n_iter)
    same_path(got, want, (case, method))
    assert n_iter == want[3] == len(alphas) - 1
    assert alphas.dtype == coefs.dtype == np.float64
    assert isinstance(active, list) and all(type(j) is int for j in active)


@need_sklearn
def test_drops_happen():
    """The problems meant to have Lasso variables leave do."""
    for n, m, seed, s in CASES[4:]:
        X, y = problem(n, m, seed, s=s)
        assert drops(qru.lars_path(X, y, method="lasso")[2]) >= 1
        assert drops(sk_lars(X, y, method="lasso")[2]) >= 1


@need_sklearn
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["lar", "lasso"])
def test_stops(backend, method):
    """alpha_min (between knots: the last coefficients interpolated; above
    the first: the zero path), max_iter (0 included) and return_path=False
    (the last knot), as scikit-learn."""
    X, y = problem(30, 60, 5, s=4)
    first = np.abs(X.T @ y).max() / 30
    for kw in ({"alpha_min": 0.05}, {"alpha_min": 0.5 * first},
               {"alpha_min": 2 * first}, {"max_iter": 0}, {"max_iter": 7},
               {"max_iter": 7, "alpha_min": 0.05}):
        got = qru.lars_path(X, y, method=method, return_n_iter=True,
                            backend=backend, **kw)
        want = sk_lars(X, y, method=method, return_n_iter=True, **kw)
        same_path(got, want, (method, kw))
        assert got[3] == want[3]
        a, act, c, k = qru.lars_path(X, y, method=method, return_path=False,
                                     return_n_iter=True, backend=backend,
                                     **kw)
        wa, wact, wc, wk = sk_lars(X, y, method=method, return_path=False,
                                   return_n_iter=True, **kw)
        assert a.shape == wa.shape == (1,) and c.shape == wc.shape == (60,)
        assert np.array_equal(a, got[0][-1:]) and np.array_equal(c,
                                                                 got[2][:, -1])
        assert act == wact and k == wk
        assert np.allclose(a, wa, rtol=1e-12, atol=0)
        assert np.linalg.norm(c - wc) <= 1e-8 * max(np.linalg.norm(wc), 1e-300)


@need_sklearn
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("method", ["lar", "lasso"])
def test_float32(backend, method):
    """float32 data: float32 results, scikit-learn's steps (its float32
    path), the coefficients to float32's accuracy: a tall problem to the
    end, a wide one for its first 15 steps (further on, the two roundings
    of float32 part the paths).  Two columns that enter at the same alpha
    to float32's rounding (1e-6 alpha_0: in the tall problem columns 1 and
    16, 1e-7 apart in double) may enter in either order."""
    for n, m, seed, s, k in [(60, 25, 6, 0, 500), (30, 70, 7, 5, 15)]:
        X, y = problem(n, m, seed, np.float32, s)
        a, act, c = qru.lars_path(X, y, method=method, max_iter=k,
                                  backend=backend)
        wa, wact, wc = sk_lars(X, y, method=method, max_iter=k)
        assert a.dtype == c.dtype == np.float32
        assert len(act) == len(wact) and a.shape == wa.shape
        assert c.shape == wc.shape
        i = 0
        while i < len(act):
            if act[i] == wact[i]:
                i += 1
                continue
            assert i + 1 < len(act) and act[i:i + 2] == wact[i:i + 2][::-1]
            assert abs(wa[i] - wa[i + 1]) <= 1e-6 * wa[0], (i, act, wact)
            i += 2
        assert np.allclose(a, wa, rtol=1e-4, atol=1e-6 * wa[0])
        assert np.linalg.norm(c - wc) <= 1e-3 * np.linalg.norm(wc)


def lasso_optimal(X, y, alphas, coefs, tol):
    """The Lasso's conditions at each knot: c = X' (y - X b) / n with
    |c_j| <= alpha everywhere and c_j = alpha sign(b_j) where b_j != 0,
    to tol (relative to the first alpha)."""
    n = X.shape[0]
    for k, alpha in enumerate(alphas):
        b = coefs[:, k]
        c = X.T @ (y - X @ b) / n
        assert np.all(np.abs(c) <= alpha + tol * alphas[0]), k
        nz = b != 0
        assert np.allclose(c[nz], alpha * np.sign(b[nz]),
                           atol=tol * alphas[0], rtol=0), k


@pytest.mark.parametrize("backend", BACKENDS)
def test_degenerate(backend):
    """Duplicate columns (a degenerate column dropped, one of a pair
    active), y a multiple of one column, y = 0: the Lasso path is optimal
    at every knot, LAR's last point is the least-squares fit."""
    X, y = problem(30, 12, 8)
    X[:, 7] = X[:, 2]
    X[:, 9] = -X[:, 4]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, act, c = qru.lars_path(X, y, method="lasso", backend=backend)
    assert len(set(act) & {2, 7}) <= 1 and len(set(act) & {4, 9}) <= 1
    assert np.all(np.diff(a) <= 0)
    lasso_optimal(X, y, a, c, 1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, act, c = qru.lars_path(X, y, method="lar", backend=backend)
    assert len(act) == 10 and a[-1] <= 1e-12 * a[0]
    ls = np.linalg.lstsq(X, y, rcond=None)[0]
    assert np.linalg.norm(X @ (c[:, -1] - ls)) <= 1e-10 * np.linalg.norm(y)
    # y a multiple of a column: one step to alpha = 0
    a, act, c = qru.lars_path(X, 3 * X[:, 5], method="lasso",
                              backend=backend)
    assert act == [5] and len(a) == 2 and a[-1] <= 1e-12 * a[0]
    assert abs(c[5, -1] - 3) <= 1e-12 and np.count_nonzero(c[:, -1]) == 1
    # y = 0: alpha 0 at once, no step
    a, act, c, k = qru.lars_path(X, np.zeros(30), method="lasso",
                                 return_n_iter=True, backend=backend)
    assert k == 0 and act == [] and a.tolist() == [0.0]
    assert c.shape == (12, 1) and not c.any()


@need_sklearn
def test_early_stop_warning():
    """Where the Lasso's alpha grows (the last correlations below
    rounding) the path stops with scikit-learn's ConvergenceWarning, after
    the same steps as scikit-learn."""
    from sklearn.exceptions import ConvergenceWarning
    X, y = problem(40, 120, 4, s=6)
    y = X[:, :30] @ np.linspace(1, 2, 30)  # y in the span: alpha -> 0
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        want = sk_lars(X, y, method="lasso", return_n_iter=True)
    sk_warned = any(issubclass(x.category, ConvergenceWarning) for x in w)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = qru.lars_path(X, y, method="lasso", return_n_iter=True)
    qru_warned = any(issubclass(x.category, ConvergenceWarning) for x in w)
    assert qru_warned == sk_warned
    assert got[1] == want[1] and got[3] == want[3]


def test_conventions():
    """Lists and float32 / float64 mixes (float64), copy_X, copy_Gram,
    verbose and Gram=None / False / 'auto' accepted with no effect, and
    eps up to 1e-7."""
    X, y = problem(25, 10, 9)
    ref = qru.lars_path(X, y, method="lasso")
    for kw in ({"copy_X": False}, {"copy_Gram": False}, {"verbose": 3},
               {"Gram": "auto"}, {"Gram": False}, {"Gram": None},
               {"eps": 1e-7}, {"eps": None}):
        got = qru.lars_path(X, y, method="lasso", **kw)
        assert got[1] == ref[1] and np.array_equal(got[0], ref[0])
        assert np.array_equal(got[2], ref[2])
    got = qru.lars_path(X.tolist(), y.astype(np.float32), method="lasso")
    assert got[2].dtype == np.float64 and got[1] == ref[1]


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_given_products(dt):
    """Gram = X' X (an array or True) and Xy = X' y, as scikit-learn's
    estimators pass them, give the path from X and y; a float64 Gram or
    Xy with float32 X and y makes the result float64 (scikit-learn's
    rule); the products may be in another memory order."""
    X, y = problem(40, 12, 21, dt)
    ref = qru.lars_path(X, y, method="lasso")
    G, c = X.T @ X, X.T @ y
    for kw in ({"Gram": G}, {"Xy": c}, {"Gram": G, "Xy": c},
               {"Gram": True}, {"Gram": np.asfortranarray(G), "Xy": list(c)}):
        got = qru.lars_path(X, y, method="lasso", **kw)
        assert got[1] == ref[1] and np.array_equal(got[0], ref[0])
        assert np.array_equal(got[2], ref[2]) and got[2].dtype == dt
    got = qru.lars_path(X, y, Gram=G.astype(np.float64), method="lasso")
    assert got[2].dtype == np.float64 and got[1] == ref[1]


def test_inputs_unchanged():
    X, y = problem(30, 60, 10)
    Xf, X0, y0 = np.asfortranarray(X), X.copy(), y.copy()
    qru.lars_path(Xf, y, method="lasso", copy_X=False)
    qru.lars_path(X, y)
    assert np.array_equal(Xf, X0) and np.array_equal(X, X0)
    assert np.array_equal(y, y0)


def test_errors():
    X, y = problem(20, 30, 11)
    for pos in (True, np.bool_(True)):
        with pytest.raises(ValueError, match="Positive constraint"):
            qru.lars_path(X, y, method="lar", positive=pos)
    with pytest.raises(ValueError, match="positive"):
        qru.lars_path(X, y, method="lasso", positive=1)
    G, c = X.T @ X, X.T @ y
    with pytest.raises(NotImplementedError, match="Xy"):
        qru.lars_path(X, y, c + 1e-6 * np.linalg.norm(c))
    with pytest.raises(NotImplementedError, match="Xy"):
        qru.lars_path(X, y, X.T @ (2 * y))
    for bad_G in (G + 1e-6 * np.trace(G) * np.eye(30), 4 * G):
        with pytest.raises(NotImplementedError, match="Gram"):
            qru.lars_path(X, y, Gram=bad_G)
    with pytest.raises(ValueError, match="Gram"):
        qru.lars_path(X, y, Gram=G[:-1])
    with pytest.raises(ValueError, match="Xy"):
        qru.lars_path(X, y, c[:-1])
    bad = G.copy()
    bad[3, 4] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        qru.lars_path(X, y, Gram=bad)
    with pytest.raises(ValueError, match="X and Gram cannot both be "
                                         "unspecified"):
        qru.lars_path(None, y, Xy=c)
    with pytest.raises(ValueError, match="X cannot be None if Gram"):
        qru.lars_path(None, y, Gram=G)
    with pytest.raises(NotImplementedError, match="eps"):
        qru.lars_path(X, y, eps=1e-3)
    bad = [{"method": "lars"}, {"max_iter": -1}, {"max_iter": 2.5},
           {"max_iter": True}, {"alpha_min": -1.0},
           {"alpha_min": float("nan")}, {"alpha_min": float("inf")},
           {"eps": 0.0}, {"eps": -1e-9}, {"copy_X": 1},
           {"return_path": "yes"}, {"verbose": "loud"}]
    for kw in bad:
        with pytest.raises(ValueError):
            qru.lars_path(X, y, **kw)
    with pytest.raises(ValueError):
        qru.lars_path(X, y[:-1])
    with pytest.raises(ValueError):
        qru.lars_path(X, y[:, None])
    with pytest.raises(ValueError):
        qru.lars_path(X[0], y)
    with pytest.raises(ValueError):
        qru.lars_path(None, y)
    with pytest.raises(ValueError):
        qru.lars_path(X[:, :0], y)
    check_bad_data(qru.lars_path, X, y)


def positive_optimal(X, y, alphas, coefs, tol):
    """The conditions of the Lasso with b >= 0 at each knot: b >= 0,
    c = X' (y - X b) / n <= alpha everywhere and c_j = alpha where
    b_j > 0, to tol (relative to the first alpha)."""
    n = X.shape[0]
    assert np.all(coefs >= 0)
    for k, alpha in enumerate(alphas):
        b = coefs[:, k]
        c = X.T @ (y - X @ b) / n
        assert np.all(c <= alpha + tol * alphas[0]), k
        nz = b > 0
        assert np.allclose(c[nz], alpha, atol=tol * alphas[0], rtol=0), k


POSITIVE_CASES = [  # n, m, seed, s
    (80, 30, 1, 0),    # tall: ends at alpha 0 (NNLS)
    (80, 30, 2, 5),
    (40, 120, 3, 0),   # wide
    (40, 120, 4, 6),
    (20, 50, 2, 0),
    (100, 20, 12, 0),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", POSITIVE_CASES)
def test_positive(backend, case):
    """positive=True: no coefficient below 0, each knot optimal for the
    Lasso with b >= 0; a path that ends at alpha 0 ends at SciPy's NNLS
    solution; against scikit-learn (where installed) the same steps,
    active set and knots but the last where its path ends at alpha 0
    (scikit-learn interpolates that one towards a negative alpha)."""
    from scipy.optimize import nnls
    n, m, seed, s = case
    X, y = problem(n, m, seed, s=s)
    # (some correlations negative: the constraint matters)
    assert (X.T @ y).min() < 0
    got = qru.lars_path(X, y, method="lasso", positive=True,
                        return_n_iter=True, backend=backend)
    a, act, c, k = got
    assert c.min() >= 0 and len(a) == k + 1 and len(act) >= 1
    assert np.all(np.diff(a) <= 0)
    positive_optimal(X, y, a, c, 1e-10)
    free = qru.lars_path(X, y, method="lasso", backend=backend)[2]
    assert free.min() < 0  # the unconstrained path differs
    if a[-1] == 0:
        x, _ = nnls(X, y)
        assert np.linalg.norm(X @ (c[:, -1] - x)) <= \
            1e-10 * np.linalg.norm(y)
        if n >= m:
            assert np.linalg.norm(c[:, -1] - x) <= 1e-8 * np.linalg.norm(x)
    if sk_lars is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = sk_lars(X, y, method="lasso", positive=True,
                       return_n_iter=True)
    assert want[3] == k and want[1] == act
    last = k + 1 if a[-1] > 0 else k  # the knots compared
    same_path((a[:last], act, c[:, :last]),
              (want[0][:last], want[1], want[2][:, :last]), case)


@pytest.mark.parametrize("backend", BACKENDS)
def test_positive_cases(backend):
    """positive=True: y with every correlation below 0 (no step, the
    coefficients 0, alpha alpha_min); alpha_min between knots (the
    interpolated knot, optimal at alpha_min) and max_iter (a prefix of
    the full path); float32; the drop of a variable whose coefficient
    reaches 0 (exactly 0 after it)."""
    X, y = problem(30, 10, 13)
    X, y = np.abs(X) + 0.01, -np.abs(y) - 0.01
    for amin in (0.0, 0.25):
        a, act, c, k = qru.lars_path(X, y, method="lasso", positive=True,
                                     alpha_min=amin, return_n_iter=True,
                                     backend=backend)
        assert k == 0 and act == [] and a.tolist() == [amin]
        assert not c.any()
    X, y = problem(60, 25, 14, s=4)
    full = qru.lars_path(X, y, method="lasso", positive=True,
                         backend=backend)
    assert len(full[0]) > 5
    amin = 0.5 * (full[0][2] + full[0][3])
    a, act, c = qru.lars_path(X, y, method="lasso", positive=True,
                              alpha_min=amin, backend=backend)
    assert len(a) == 4 and a[-1] == amin
    positive_optimal(X, y, a, c, 1e-10)
    a, act, c = qru.lars_path(X, y, method="lasso", positive=True,
                              max_iter=3, backend=backend)
    assert np.array_equal(a, full[0][:4]) and np.array_equal(c,
                                                             full[2][:, :4])
    a32, act32, c32 = qru.lars_path(X.astype(np.float32),
                                    y.astype(np.float32), method="lasso",
                                    positive=True, max_iter=8,
                                    backend=backend)
    assert c32.dtype == np.float32 and c32.min() >= 0
    assert act32 == full[1][:len(act32)]
    assert np.linalg.norm(c32 - full[2][:, :9]) <= \
        1e-4 * np.linalg.norm(full[2][:, :9])
    # a variable that enters first and leaves: x2 = 0.6 (x0 + x1) + e
    rng = np.random.default_rng(15)
    X = rng.uniform(-1, 1, (100, 20))
    e = rng.uniform(-1, 1, 100)
    X[:, 2] = 0.6 * (X[:, 0] + X[:, 1]) + 0.05 * e
    y = X[:, 0] + X[:, 1] - 0.02 * e + 0.01 * rng.uniform(-1, 1, 100)
    a, act, c = qru.lars_path(X, y, method="lasso", positive=True,
                              backend=backend)
    assert drops(c) >= 1 and c.min() >= 0
    left = np.flatnonzero((c[2, :-1] > 0) & (c[2, 1:] == 0))
    assert left.size >= 1  # exactly 0 once it has left
    positive_optimal(X, y, a, c, 1e-10)
