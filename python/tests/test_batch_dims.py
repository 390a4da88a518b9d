"""Batch dimensions of qr_insert / qr_delete / qr_update (SciPy >= 1.16's
rules: Q and R (..., M, *), u and v (..., *) or (..., *, p) by SciPy's
"1|2" rule, k an array of positions, the batch shapes broadcast) and of
the Cholesky functions (R (..., n, n); x (..., n) vectors when it has
fewer dimensions than R, else (..., n, k) blocks; k an array of
positions).  Every page against SciPy's own result on the same page
(|R1| equal to SciPy's, the scaled residual and orthogonality of
test_qr_update), float32 and float64, batch shapes with broadcasting;
zero-size batches (ValueError for the QR functions, as SciPy; empty
results for the Cholesky ones); bad shapes raise the exceptions SciPy
raises; pages that fail are named by one LinAlgError."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import qru
from conftest import host_backends
from test_cholesky import _check as _check_chol
from test_qr_update import _check as _check_qr

BACKENDS = host_backends()
DTYPES = [np.float64, np.float32]


def _factors(lead, M, N, dt, seed, econ=False):
    """A (lead + (M, N)) and its batched QR (SciPy's, in dt)."""
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1, 1, lead + (M, N)).astype(dt)
    Q, R = sl.qr(A, mode="economic" if econ else "full")
    return rng, A, Q.astype(dt), R.astype(dt)


def _pages(lead):
    return list(np.ndindex(lead))


def _compare_qr(res, ref, A1, dt):
    """qru's batched (Q1, R1) against SciPy's batched result and the
    matrices A1 (lead + (M1, N1)) page by page."""
    Q1, R1 = res
    Qs, Rs = ref
    assert Q1.shape == Qs.shape and R1.shape == Rs.shape
    assert Q1.dtype == dt and R1.dtype == dt
    for i in _pages(Q1.shape[:-2]):
        _check_qr(Q1[i], R1[i], A1[i], dt, Rs[i])


def _insert_rows(A, u, k):
    k = k + A.shape[0] if k < 0 else k
    return np.concatenate([A[:k], np.atleast_2d(u), A[k:]])


def _insert_cols(A, u, k):
    u = u[:, None] if u.ndim == 1 else u
    return np.concatenate([A[:, :k], u, A[:, k:]], axis=1)


# (Q, R batch; u shape (None: the core alone); k shape), the batch after
# broadcasting: same batch, u or k shared, and dimensions of length 1
# broadcast against each other
INSERT_CASES = [
    ((4,), (4,), ()),
    ((4,), None, (4,)),
    ((2, 3), (2, 3), (2, 3)),
    ((2, 1), (3,), (2, 1)),
    ((1,), (5,), ()),
]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("which", ["row", "col"])
@pytest.mark.parametrize("lead,ulead,klead", INSERT_CASES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_insert(backend, lead, ulead, klead, which, econ, dt):
    M, N, p = 9, 4, 2
    rng, A, Q, R = _factors(lead, M, N, dt, 1, econ)
    ushape = (p, N) if which == "row" else (M, p)
    u = rng.uniform(-1, 1, (ulead or ()) + ushape).astype(dt)
    hi = M if which == "row" else N
    k = rng.integers(-hi, hi + 1, size=klead)
    if which == "col":
        k = np.abs(k)
    Q0, R0 = Q.copy(), R.copy()
    res = qru.qr_insert(Q, R, u, k, which, backend=backend)
    ref = sl.qr_insert(Q, R, u, k, which)
    bl = np.broadcast_shapes(lead, ulead or (), klead)
    Ab = np.broadcast_to(A, bl + A.shape[-2:]).astype(np.float64)
    ub = np.broadcast_to(u, bl + u.shape[-2:]).astype(np.float64)
    kb = np.broadcast_to(k, bl)
    A1 = np.stack([(_insert_rows if which == "row" else _insert_cols)(
        Ab[i], ub[i], int(kb[i])) for i in _pages(bl)]).reshape(
            bl + ((M + p, N) if which == "row" else (M, N + p)))
    _compare_qr(res, ref, A1, dt)
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_insert_vector_u(backend, dt):
    """A 1-D u is one row shared by every page (SciPy's "1|2" rule: a
    batch of single rows is (..., 1, N))."""
    rng, A, Q, R = _factors((3,), 7, 3, dt, 2)
    u = rng.uniform(-1, 1, 3).astype(dt)
    res = qru.qr_insert(Q, R, u, 2, backend=backend)
    ref = sl.qr_insert(Q, R, u, 2)
    A1 = np.stack([_insert_rows(A[i].astype(np.float64), u, 2)
                   for i in range(3)])
    _compare_qr(res, ref, A1, dt)
    U = np.broadcast_to(u, (3, 1, 3))
    _compare_qr(qru.qr_insert(Q, R, U, 2, backend=backend), ref, A1, dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("which", ["row", "col"])
@pytest.mark.parametrize("lead,klead", [((4,), ()), ((4,), (4,)),
                                        ((2, 1), (3,)), ((1, 2), (2,))])
@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_delete(backend, lead, klead, which, econ, dt):
    M, N, p = 10, 4, 2
    rng, A, Q, R = _factors(lead, M, N, dt, 3, econ)
    hi = M if which == "row" else N
    k = rng.integers(0, hi - p + 1, size=klead)
    bl = np.broadcast_shapes(lead, klead)
    res = qru.qr_delete(Q, R, k, p, which, backend=backend)
    ref = sl.qr_delete(Q, R, k, p, which)
    Ab = np.broadcast_to(A, bl + A.shape[-2:]).astype(np.float64)
    kb = np.broadcast_to(k, bl)
    A1 = np.empty(bl + ((M - p, N) if which == "row" else (M, N - p)))
    for i in _pages(bl):
        keep = [j for j in range(hi) if not kb[i] <= j < kb[i] + p]
        A1[i] = Ab[i][keep] if which == "row" else Ab[i][:, keep]
    _compare_qr(res, ref, A1, dt)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("econ", [False, True])
@pytest.mark.parametrize("uvlead,kk", [(None, 1), (None, 2), ((4,), 2),
                                       ((2, 4), 1), ((1,), 3)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_update(backend, uvlead, kk, econ, dt):
    M, N = 9, 4
    rng, A, Q, R = _factors((4,), M, N, dt, 4, econ)
    shp = (lambda r: (r,)) if uvlead is None and kk == 1 else \
        (lambda r: (uvlead or ()) + (r, kk))
    u = rng.uniform(-1, 1, shp(M)).astype(dt)
    v = rng.uniform(-1, 1, shp(N)).astype(dt)
    res = qru.qr_update(Q, R, u, v, backend=backend)
    ref = sl.qr_update(Q, R, u, v)
    u2 = u[:, None] if u.ndim == 1 else u
    v2 = v[:, None] if v.ndim == 1 else v
    A1 = A.astype(np.float64) + u2.astype(np.float64) @ \
        np.swapaxes(v2.astype(np.float64), -1, -2)
    _compare_qr(res, ref, A1, dt)


@pytest.mark.parametrize("backend", BACKENDS)
def test_qr_zero_size_batches(backend):
    """SciPy refuses zero-size batches (ValueError); so does qru."""
    _, _, Q2, R2 = _factors((), 6, 3, np.float64, 5)
    Q, R = np.zeros((0, 6, 6)), np.zeros((0, 6, 3))
    cases = [("qr_insert", (Q, R, np.ones(3), 0)),
             ("qr_delete", (Q, R, 0)),
             ("qr_update", (Q, R, np.ones(6), np.ones(3))),
             ("qr_insert", (Q2, R2, np.ones(3), np.zeros((2, 0), int)))]
    for name, args in cases:
        with pytest.raises(ValueError, match="zero-size batches"):
            getattr(sl, name)(*args)
        with pytest.raises(ValueError, match="zero-size batches"):
            getattr(qru, name)(*args, backend=backend)


def test_qr_bad_shapes_raise_as_scipy():
    """Batch shapes that do not broadcast, and pages of bad core shapes,
    raise the exception SciPy raises (ValueError)."""
    rng, A, Q, R = _factors((3,), 6, 3, np.float64, 6)
    cases = [
        lambda m: m.qr_insert(Q, R[:2], np.ones(3), 0),
        lambda m: m.qr_insert(Q, R, np.ones((2, 1, 3)), 0),
        lambda m: m.qr_insert(Q, R, np.ones(4), 0),
        lambda m: m.qr_insert(Q, R, np.ones(3), [0, 1]),
        lambda m: m.qr_insert(Q, R, np.ones(3), [0, 1, 9]),
        lambda m: m.qr_delete(Q, R, [0, 1, 2, 3]),
        lambda m: m.qr_delete(Q, R, [0, 6, 1]),
        lambda m: m.qr_delete(Q[:, :, :5], R, 0),
        lambda m: m.qr_update(Q, R, np.ones((3, 6, 1)), np.ones(3)),
        lambda m: m.qr_update(Q, R, np.ones((2, 6, 1)), np.ones((2, 3, 1))),
        lambda m: m.qr_update(Q, R, np.ones((3, 5, 1)), np.ones((3, 3, 1))),
    ]
    for case in cases:
        with pytest.raises(ValueError) as es:
            case(sl)
        with pytest.raises(es.type):
            case(qru)
    with pytest.raises(TypeError):
        qru.qr_insert(Q, R, np.ones(3), np.array([0.5, 1, 2]))


def test_qr_batch_failure_names_pages():
    """An economic column insertion that makes page 1's columns dependent
    raises LinAlgError naming that page (SciPy raises LinAlgError too);
    the inputs are unchanged."""
    rng, A, Q, R = _factors((3,), 8, 3, np.float64, 7, econ=True)
    u = rng.uniform(-1, 1, (3, 8, 1))
    u[1, :, 0] = A[1, :, 0] + A[1, :, 2]
    Q0, R0 = Q.copy(), R.copy()
    with pytest.raises(np.linalg.LinAlgError):
        sl.qr_insert(Q, R, u, 1, "col")
    with pytest.raises(np.linalg.LinAlgError, match=r"1 of 3 .*\(1,\): "):
        qru.qr_insert(Q, R, u, 1, "col")
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)


def test_qr_batch_never_overwrites():
    """SciPy's batched calls work on read-only broadcast pages and never
    overwrite; qru's neither, whatever overwrite_* says."""
    rng, A, Q, R = _factors((2,), 6, 3, np.float64, 8)
    Q, R = np.asfortranarray(Q), np.asfortranarray(R)
    Q0, R0 = Q.copy(), R.copy()
    qru.qr_delete(Q, R, 0, 2, "row", overwrite_qr=True)
    qru.qr_insert(Q, R, np.ones((2, 6, 1)), 1, "col", overwrite_qru=True)
    qru.qr_update(Q, R, np.ones(6), np.ones(3), overwrite_qruv=True)
    assert np.array_equal(Q, Q0) and np.array_equal(R, R0)


# ---- Cholesky ---------------------------------------------------------------

def _spd_batch(lead, n, dt, seed):
    rng = np.random.default_rng(seed)
    B = rng.uniform(-1, 1, lead + (2 * n, n))
    A = (np.swapaxes(B, -1, -2) @ B).astype(dt).astype(np.float64)
    return rng, A


def _chol(A, lower, dt):
    F = np.empty(A.shape, dt)
    for i in _pages(A.shape[:-2]):
        F[i] = sl.cholesky(A[i], lower=lower)
    return F


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("Rlead,xshape", [
    ((2, 1), (3, "n")),          # vectors, batch (2, 3) by broadcasting
    ((4,), ("n",)),              # one vector for every factor
    ((), (4, "n", 2)),           # one factor, a batch of blocks
    ((3,), (1, "n", 2)),         # one block for every factor
    ((2, 3), (2, 3, "n", 1)),    # blocks of one column
])
@pytest.mark.parametrize("backend", BACKENDS)
def test_cholesky_update_broadcast(backend, Rlead, xshape, lower, dt):
    n = 7
    rng, A = _spd_batch(Rlead, n, dt, 11)
    F = _chol(A, lower, dt)
    xs = tuple(n if s == "n" else s for s in xshape)
    x = (0.1 * rng.uniform(-1, 1, xs)).astype(dt)
    F1 = qru.cholesky_update(F, x, "-", lower=lower, backend=backend)
    x2 = x[..., None] if x.ndim < F.ndim else x
    bl = np.broadcast_shapes(Rlead, x2.shape[:-2])
    assert F1.shape == bl + (n, n) and F1.dtype == dt
    Ab = np.broadcast_to(A, bl + (n, n))
    xb = np.broadcast_to(x2, bl + x2.shape[-2:]).astype(np.float64)
    Fb = np.broadcast_to(F, bl + (n, n))
    tri = np.tril if lower else np.triu
    for i in _pages(bl):
        single = qru.cholesky_update(Fb[i], xb[i].astype(dt), "-",
                                     lower=lower, backend=backend)
        _check_chol(tri(F1[i]), Ab[i] - xb[i] @ xb[i].T, lower, dt)
        assert np.allclose(tri(F1[i]), tri(single),
                           atol=30 * np.finfo(dt).eps * n)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("backend", BACKENDS)
def test_cholesky_update_rank(backend, lower, dt):
    """rank=: factor i takes the first rank[i] columns of its x (0: the
    factor as it was, to the bit); vectors take 0 or 1; bad ranks raise
    ValueError; a single factor takes no rank."""
    n, k, lead = 7, 3, (2, 3)
    rng, A = _spd_batch(lead, n, dt, 21)
    F = _chol(A, lower, dt)
    x = (0.1 * rng.uniform(-1, 1, lead + (n, k))).astype(dt)
    rank = np.array([[0, 1, 3], [2, 0, 3]])
    F1 = qru.cholesky_update(F, x, "-", lower=lower, rank=rank,
                             backend=backend)
    tri = np.tril if lower else np.triu
    x64 = x.astype(np.float64)
    for i in _pages(lead):
        c = rank[i]
        if c == 0:
            assert np.array_equal(F1[i], F[i])
            continue
        _check_chol(tri(F1[i]), A[i] - x64[i][:, :c] @ x64[i][:, :c].T,
                    lower, dt)
    v = x[..., 0]
    F2 = qru.cholesky_update(F, v, "+", lower=lower,
                             rank=(rank > 1).astype(int), backend=backend)
    for i in _pages(lead):
        if rank[i] <= 1:
            assert np.array_equal(F2[i], F[i])
        else:
            _check_chol(tri(F2[i]), A[i] + np.outer(v[i], v[i]).astype(
                np.float64), lower, dt)
    for bad in (rank + 1, rank[0], rank * 0.5, -rank - 1):
        with pytest.raises(ValueError):
            qru.cholesky_update(F, x, "-", lower=lower, rank=bad,
                                backend=backend)
    with pytest.raises(ValueError):
        qru.cholesky_update(F[0, 0], x[0, 0], rank=1, backend=backend)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("lead,klead,vector", [
    ((3,), (), True), ((3,), (3,), False), ((2, 1), (4,), True)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_cholesky_insert_delete_batch(backend, lead, klead, vector, lower,
                                      dt):
    """cholesky_insert and cholesky_delete over a batch (one library call
    a page), k an array of positions."""
    n, p = 6, 1 if vector else 2
    rng, A1 = _spd_batch(lead, n + p, dt, 12)
    k = rng.integers(0, n + 1, size=klead)
    bl = np.broadcast_shapes(lead, klead)
    A1b = np.broadcast_to(A1, bl + (n + p, n + p))
    kb = np.broadcast_to(k, bl)
    # the factors of A1 without rows/columns k .. k+p-1, and those columns
    F = np.empty(bl + (n, n), dt)
    X = np.empty(bl + (n + p, p), dt)
    for i in _pages(bl):
        keep = [j for j in range(n + p) if not kb[i] <= j < kb[i] + p]
        F[i] = sl.cholesky(A1b[i][np.ix_(keep, keep)], lower=lower)
        X[i] = A1b[i][:, kb[i]:kb[i] + p]
    x = X[..., 0] if vector else X
    kk = np.broadcast_to(k, bl)
    G = qru.cholesky_insert(F, kk, x, lower=lower, backend=backend)
    assert G.shape == bl + (n + p, n + p) and G.dtype == dt
    for i in _pages(bl):
        _check_chol(G[i], A1b[i], lower, dt)
    D = qru.cholesky_delete(G, kk, p, lower=lower, backend=backend)
    assert D.shape == bl + (n, n) and D.dtype == dt
    for i in _pages(bl):
        keep = [j for j in range(n + p) if not kb[i] <= j < kb[i] + p]
        _check_chol(D[i], A1b[i][np.ix_(keep, keep)], lower, dt)


def _np_chol(A, lower):
    """NumPy's factor of one page: L, or R = L' (upper)."""
    L = np.linalg.cholesky(A)
    return L if lower else L.T


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("lead,xlead,vector", [
    ((4,), (4,), True), ((2, 3), (1, 3), False), ((3,), (), True),
    ((3,), (1,), False), ((1, 1), (2, 1), True)])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_cholesky_insert_delete_one_call(backend, where, lead, xlead,
                                         vector, lower, dt, monkeypatch):
    """One integer k: every page in one library call
    (qru_chol_insert_batch / qru_chol_delete_batch), each page against
    NumPy's factor of its modified A; R and x unchanged."""
    from qru import _chol
    calls = []
    for name in ("chol_insert_batch", "chol_delete_batch", "chol_insert",
                 "chol_delete"):
        fn = getattr(_chol._qru, name)
        monkeypatch.setattr(_chol._qru, name,
                            lambda *a, _f=fn, _n=name: calls.append(_n)
                            or _f(*a))
    n, p = 7, 1 if vector else 2
    k = {"start": 0, "middle": n // 2, "end": n}[where]
    bl = np.broadcast_shapes(lead, xlead)
    fl = (1,) * (len(bl) - len(lead)) + lead
    xl = (1,) * (len(bl) - len(xlead)) + xlead
    # A1 the same along the axes that R or x broadcast
    base = tuple(1 if a == 1 or b == 1 else c for a, b, c in zip(fl, xl, bl))
    rng, A1 = _spd_batch(base, n + p, dt, 21)
    keep = [j for j in range(n + p) if not k <= j < k + p]
    Af = np.broadcast_to(A1, fl + (n + p, n + p))[..., keep, :][..., keep]
    F = np.empty(fl + (n, n), dt)
    for i in _pages(fl):
        F[i] = _np_chol(Af[i], lower)
    F = F.reshape(lead + (n, n))
    X = np.broadcast_to(A1, xl + (n + p, n + p))[..., :, k:k + p]
    X = np.ascontiguousarray(X.reshape(xlead + (n + p, p))).astype(dt)
    x = X[..., 0] if vector else X
    F0, x0 = F.copy(), x.copy()
    G = qru.cholesky_insert(F, k, x, lower=lower, backend=backend)
    assert calls == ["chol_insert_batch"]
    assert G.shape == bl + (n + p, n + p) and G.dtype == dt
    assert np.array_equal(F, F0) and np.array_equal(x, x0)
    Fb = np.broadcast_to(F, bl + (n, n))
    Xb = np.broadcast_to(X, bl + (n + p, p))
    for i in _pages(bl):
        # A1 of this page from the stored (rounded) factor and x
        Fi = Fb[i].astype(np.float64)
        M = np.empty((n + p, n + p))
        M[np.ix_(keep, keep)] = Fi @ Fi.T if lower else Fi.T @ Fi
        M[:, k:k + p] = Xb[i]
        M[k:k + p, :] = Xb[i].T
        _check_chol(G[i], M, lower, dt)
        assert np.abs(np.abs(G[i]) - np.abs(_np_chol(M, lower))).max() <= \
            1e3 * np.finfo(dt).eps * np.sqrt(np.abs(M).max()) * n
    calls.clear()
    D = qru.cholesky_delete(G, k, p, lower=lower, backend=backend)
    assert calls == ["chol_delete_batch"]
    assert D.shape == bl + (n, n) and D.dtype == dt
    for i in _pages(bl):
        Gi = G[i].astype(np.float64)
        Mi = Gi @ Gi.T if lower else Gi.T @ Gi
        Mi = Mi[np.ix_(keep, keep)]
        _check_chol(D[i], Mi, lower, dt)
        assert np.abs(np.abs(D[i]) - np.abs(_np_chol(Mi, lower))).max() <= \
            1e3 * np.finfo(dt).eps * np.sqrt(np.abs(Mi).max()) * n


@pytest.mark.parametrize("backend", BACKENDS)
def test_cholesky_one_call_failures(backend):
    """One integer k: a page that is not positive definite is named by one
    LinAlgError; the inputs are unchanged; bad k or p raise ValueError."""
    rng, A = _spd_batch((3,), 5, np.float64, 23)
    F = _chol(A, False, np.float64)
    x = np.concatenate([A[:, :, 0], 10.0 * A[:, :1, 0]], axis=1)
    x[1, -1] = -1.0
    F0, x0 = F.copy(), x.copy()
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 3 .*\(1,\) at column 6;"):
        qru.cholesky_insert(F, 5, x, backend=backend)
    assert np.array_equal(F, F0) and np.array_equal(x, x0)
    with pytest.raises(ValueError):
        qru.cholesky_insert(F, 6, x, backend=backend)
    with pytest.raises(ValueError):
        qru.cholesky_insert(F, 0, np.ones((3, 5)), backend=backend)
    with pytest.raises(ValueError):
        qru.cholesky_delete(F, 4, 2, backend=backend)
    with pytest.raises(ValueError):
        qru.cholesky_delete(F, 0, 5, backend=backend)
    G = F.copy()
    G[2, 3, 3] = 0.0  # a zero pivot in a row that stays
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 3 .*\(2,\) at column"):
        qru.cholesky_delete(G, 0, 1, backend=backend)


@pytest.mark.parametrize("dt", DTYPES)
def test_cholesky_zero_size_batches(dt):
    """No SciPy counterpart: an empty batch gives an empty result of the
    batch's shape (as NumPy's batched linalg)."""
    R = np.zeros((0, 5, 5), dt)
    assert qru.cholesky_update(R, np.zeros((0, 5), dt)).shape == (0, 5, 5)
    assert qru.cholesky_update(R, np.zeros((2, 1, 5, 2), dt)).shape == \
        (2, 0, 5, 5)
    G = qru.cholesky_insert(R, 0, np.zeros((0, 6), dt))
    assert G.shape == (0, 6, 6) and G.dtype == dt
    D = qru.cholesky_delete(R, np.zeros(0, int), 2)
    assert D.shape == (0, 3, 3) and D.dtype == dt


def test_cholesky_batch_errors():
    rng, A = _spd_batch((3,), 5, np.float64, 13)
    F = _chol(A, False, np.float64)
    with pytest.raises(ValueError):
        qru.cholesky_update(F, np.ones((2, 5)))  # batches (3,) and (2,)
    with pytest.raises(ValueError):
        qru.cholesky_update(F, np.ones((3, 4)))  # vectors of 4, n = 5
    with pytest.raises(ValueError):
        qru.cholesky_insert(F, [0, 1], np.ones(6))
    with pytest.raises(ValueError):
        qru.cholesky_insert(F, [0, 9, 1], np.ones(6))  # k past n
    with pytest.raises(ValueError):
        qru.cholesky_delete(F, [0, 1, 5], 1)
    # an insertion that is not positive definite in page 2 only
    x = np.concatenate([A[:, :, 0], 0.5 * A[:, :1, 0]], axis=1)
    x[:2, -1] = 10.0 * A[:2, 0, 0]
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 3 .*\(2,\) at column 6;"):
        qru.cholesky_insert(F, 5, x)  # one call (one k)
    with pytest.raises(np.linalg.LinAlgError, match=r"1 of 3 .*\(2,\): "):
        qru.cholesky_insert(F, np.full(3, 5), x)  # a call a page
