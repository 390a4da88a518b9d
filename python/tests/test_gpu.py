"""Arrays on a CUDA device through DLPack: CuPy, PyTorch and JAX producers
(each skipped where it is not installed, where it sees no CUDA device, or
where this build of qru has no CUDA backend).  The results are checked on
the host against the same problems solved by NumPy / SciPy (the scaled
checks of the other tests, below 30), and: results are arrays of the
producer's framework on the producer's device; the inputs are not
overwritten; C-ordered and integer inputs are converted; an allowed
overwrite works in place (same device pointer); the context runs on the
producer's current stream (and the legacy default stream 0 becomes
cudaStreamLegacy); numerical failures raise LinAlgError."""
import importlib

import numpy as np
import pytest

import qru
from qru import _arrays
from conftest import THRESH, eps, orthogonality, scaled_residual

# NumPy only (the GPU machine may have no SciPy): upper Cholesky factors
# and QR factorisations by numpy.linalg


def chol(A, lower=False):
    L = np.linalg.cholesky(A)
    return L if lower else L.T.copy()


def qr(A, econ):
    return np.linalg.qr(A, mode="reduced" if econ else "complete")

if "cuda" not in qru.backends():
    pytest.skip("this build of qru has no CUDA backend",
                allow_module_level=True)


class Producer:
    """Moves NumPy arrays to the device and back, for one framework."""

    def __init__(self, name):
        self.name = name
        self.mod = importlib.import_module(name)
        if name == "cupy":
            self.mod.cuda.runtime.getDeviceCount()
        elif name == "torch":
            if not self.mod.cuda.is_available():
                raise RuntimeError("torch sees no CUDA device")
        else:
            self.mod.config.update("jax_enable_x64", True)  # float64 kept
            self.gpu = self.mod.devices("gpu")[0]

    def dev(self, a, order="F"):
        a = np.asarray(a, order=order)
        if self.name == "cupy":
            return self.mod.array(a, order=order)
        if self.name == "torch":
            t = self.mod.from_numpy(np.ascontiguousarray(a.T if order == "F"
                                                         else a)).cuda()
            return t.t() if order == "F" else t
        return self.mod.device_put(a, self.gpu)

    def host(self, x):
        if self.name == "cupy":
            return self.mod.asnumpy(x)
        if self.name == "torch":
            return x.cpu().numpy()
        return np.asarray(x)

    def is_mine(self, x):
        return type(x).__module__.split(".")[0] in (
            ("jax", "jaxlib") if self.name == "jax" else (self.name,))

    def sync(self):
        if self.name == "cupy":
            self.mod.cuda.get_current_stream().synchronize()
        elif self.name == "torch":
            self.mod.cuda.synchronize()


def _producer(name):
    try:
        return Producer(name)
    except Exception as e:  # not installed, or no device
        pytest.skip(f"{name}: {e}")


@pytest.fixture(params=["cupy", "torch", "jax"])
def pr(request):
    return _producer(request.param)


DTS = [np.float64, np.float32]


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("which", ["row", "col"])
@pytest.mark.parametrize("econ", [False, True])
def test_qr_insert_delete(pr, dt, which, econ):
    rng = np.random.default_rng(41)
    A = rng.uniform(-1, 1, (30, 8)).astype(dt)
    Q, R = (a.astype(dt) for a in qr(A, econ))
    u = rng.uniform(-1, 1, (2, 8) if which == "row" else (30, 2)).astype(dt)
    Qd, Rd, ud = pr.dev(Q), pr.dev(R), pr.dev(u, "C")  # u C-ordered
    Q1, R1 = qru.qr_insert(Qd, Rd, ud, 3, which)
    assert pr.is_mine(Q1) and pr.is_mine(R1)
    pr.sync()
    A1 = np.insert(A, [3, 3], u, axis=0 if which == "row" else 1)
    Q1h, R1h = pr.host(Q1), pr.host(R1)
    assert Q1h.dtype == dt
    assert scaled_residual(Q1h.astype(float) @ R1h, A1, dt, 32) < THRESH
    assert orthogonality(Q1h, dt) < THRESH
    Q2, R2 = qru.qr_delete(Q1, R1, 3, 2, which)
    Q2h, R2h = pr.host(Q2), pr.host(R2)
    assert scaled_residual(Q2h.astype(float) @ R2h, A, dt, 32) < THRESH
    assert np.array_equal(pr.host(Qd), Q) and np.array_equal(pr.host(ud), u)


@pytest.mark.parametrize("dt", DTS)
@pytest.mark.parametrize("lower", [False, True])
def test_cholesky(pr, dt, lower):
    rng = np.random.default_rng(42)
    n, p = 24, 3
    B = rng.uniform(-1, 1, (2 * n, n))
    A = B.T @ B
    F = chol(A, lower=lower).astype(dt)
    x = rng.uniform(-1, 1, (n, p)).astype(dt)
    Fd = pr.dev(F)
    F1 = qru.cholesky_update(Fd, pr.dev(x), lower=lower)
    assert pr.is_mine(F1)
    x64 = x.astype(float)
    A1 = A + x64 @ x64.T
    F1h = pr.host(F1).astype(float)
    G = F1h @ F1h.T if lower else F1h.T @ F1h
    assert scaled_residual(G, A1, dt, n) < THRESH
    F2 = pr.host(qru.cholesky_delete(F1, 5, p, lower=lower)).astype(float)
    keep = [i for i in range(n) if not 5 <= i < 5 + p]
    A2 = A1[np.ix_(keep, keep)]
    assert np.all((np.triu(F2, 1) if lower else np.tril(F2, -1)) == 0)
    G = F2 @ F2.T if lower else F2.T @ F2
    assert scaled_residual(G, A2, dt, n) < THRESH
    F3 = qru.cholesky_insert(pr.dev(F2.astype(dt)), 5,
                             pr.dev(A1[:, 5:5 + p].astype(dt)), lower=lower)
    F3h = pr.host(F3).astype(float)
    G = F3h @ F3h.T if lower else F3h.T @ F3h
    assert scaled_residual(G, A1, dt, n) < THRESH
    assert np.array_equal(pr.host(Fd), F), "input overwritten"
    z = rng.uniform(-1, 1, n)
    Rs = chol(A)
    bad = (2.0 * Rs.T @ (z / np.linalg.norm(z))).astype(dt)
    with pytest.raises(np.linalg.LinAlgError):
        qru.cholesky_update(Fd, pr.dev(bad), "-", lower=lower)
    assert np.array_equal(pr.host(Fd), F)


@pytest.mark.parametrize("q", ["full", "thin", "none"])
def test_least_squares(pr, q):
    rng = np.random.default_rng(43)
    A = rng.uniform(-1, 1, (50, 6))
    b = rng.uniform(-1, 1, 50)
    f = qru.LeastSquares(pr.dev(A), pr.dev(b), q)
    U, e = rng.uniform(-1, 1, (4, 6)), rng.uniform(-1, 1, 4)
    f.add_rows(50, pr.dev(U), pr.dev(e))
    A1, b1 = np.vstack([A, U]), np.append(b, e)
    f.remove_rows(0, U=pr.dev(A1[:3]), e=pr.dev(b1[:3]))
    A1, b1 = A1[3:], b1[3:]
    C = rng.uniform(-1, 1, (51, 2))
    f.add_cols(2, pr.dev(C), pr.dev(A1), pr.dev(b1))
    A1 = np.hstack([A1[:, :2], C, A1[:, 2:]])
    f.remove_cols(0, 1)
    A1 = A1[:, 1:]
    x = f.solve()
    assert pr.is_mine(x) and tuple(x.shape) == (7,)
    xs, rs = np.linalg.lstsq(A1, b1, rcond=None)[:2]
    assert np.linalg.norm(pr.host(x) - xs) <= THRESH * eps(np.float64) * \
        51 * np.linalg.cond(A1) * np.linalg.norm(xs)
    assert abs(f.residual() - np.sqrt(rs[0])) <= THRESH * eps(np.float64) * 51
    if q != "none":
        Q, R = pr.host(f.Q), pr.host(f.R)
        assert scaled_residual(Q @ R, A1, np.float64, 51) < THRESH


def _close(xd, xh, dt, n, scale):
    """max |xd - xh| <= THRESH eps n scale (xd from the device, xh from
    the host, each as the solver returns it)."""
    xd, xh = np.asarray(xd, np.float64), np.asarray(xh, np.float64)
    assert xd.shape == xh.shape
    assert np.abs(xd - xh).max() <= THRESH * eps(dt) * n * scale


@pytest.mark.parametrize("dt", DTS)
def test_solvers(pr, dt):
    """qru.nnls, qru.orthogonal_mp (the residual and Gram forms, one and
    two targets, with the path) and qru.lars_path (LAR, the Lasso, the
    last step alone) on device arrays, C-ordered y and X included: the
    results are arrays of the producer's framework with the NumPy
    results' shapes and types (alphas too), the same supports, active
    sets and steps, and the coefficients within rounding of theirs (the
    CPU backend on the same data); the inputs are not overwritten."""
    rng = np.random.default_rng(46)
    n, m = 60, 40
    X = rng.standard_normal((n, m)).astype(dt)
    x0 = np.zeros((m, 2))
    x0[[3, 11, 25], 0] = [1.5, -2.0, 1.0]
    x0[[7, 18, 30], 1] = [-1.0, 1.2, 2.5]
    Y = (X.astype(float) @ x0 + 0.01 * rng.standard_normal((n, 2))) \
        .astype(dt)
    Xd, Yd, yd = pr.dev(X), pr.dev(Y, "C"), pr.dev(Y[:, 0])
    cond = float(np.linalg.cond(X.astype(float)))
    big = float(np.abs(x0).max()) * cond

    x, r = qru.nnls(Xd, yd)
    xh, rh = qru.nnls(X, Y[:, 0])
    assert pr.is_mine(x) and isinstance(r, float)
    _close(pr.host(x), xh, dt, n, big)
    assert abs(r - rh) <= THRESH * eps(dt) * n * np.linalg.norm(Y[:, 0])

    for pre in (False, True):
        c, k = qru.orthogonal_mp(Xd, yd, n_nonzero_coefs=3, precompute=pre,
                                 return_n_iter=True)
        ch, kh = qru.orthogonal_mp(X, Y[:, 0], n_nonzero_coefs=3,
                                   precompute=pre, return_n_iter=True)
        assert pr.is_mine(c) and k == kh == 3
        assert pr.host(c).dtype == ch.dtype == dt
        assert np.array_equal(np.flatnonzero(pr.host(c)), [3, 11, 25])
        _close(pr.host(c), ch, dt, n, big)
        C, K = qru.orthogonal_mp(Xd, Yd, n_nonzero_coefs=3, precompute=pre,
                                 return_path=True, return_n_iter=True)
        Ch = qru.orthogonal_mp(X, Y, n_nonzero_coefs=3, precompute=pre,
                               return_path=True)
        assert pr.is_mine(C) and K == [3, 3] and Ch.shape == (m, 2, 3)
        _close(pr.host(C), Ch, dt, n, big)

    for method, kw in (("lar", {}), ("lasso", {}),
                       ("lasso", {"positive": True})):
        a, act, cf, it = qru.lars_path(Xd, yd, method=method, max_iter=8,
                                       return_n_iter=True, **kw)
        ah, acth, cfh, ith = qru.lars_path(X, Y[:, 0], method=method,
                                           max_iter=8, return_n_iter=True,
                                           **kw)
        assert pr.is_mine(a) and pr.is_mine(cf)
        assert act == acth and it == ith
        assert pr.host(cf).dtype == cfh.dtype == dt
        _close(pr.host(a), ah, dt, n, float(np.abs(ah).max()))
        _close(pr.host(cf), cfh, dt, n, big)
        a1, act1, c1 = qru.lars_path(Xd, yd, method=method, max_iter=8,
                                     return_path=False, **kw)
        assert pr.is_mine(a1) and pr.is_mine(c1) and act1 == acth
        assert tuple(c1.shape) == (m,) and tuple(a1.shape) == (1,)
        _close(pr.host(c1), cfh[:, -1], dt, n, big)
    assert np.array_equal(pr.host(Xd), X) and np.array_equal(pr.host(Yd), Y)
    with pytest.raises(NotImplementedError, match="Gram"):
        qru.lars_path(Xd, yd, Gram=pr.dev(X.T @ X))
    with pytest.raises(TypeError):
        qru.orthogonal_mp(Xd, Y[:, 0])


def _ptr(x):
    if hasattr(x, "data_ptr"):
        return x.data_ptr()
    if hasattr(x, "data") and hasattr(x.data, "ptr"):
        return x.data.ptr
    return x.unsafe_buffer_pointer()


@pytest.mark.parametrize("overwrite", [False, True])
def test_qr_delete_in_place(pr, overwrite):
    """A row deletion from full factors runs in copies of Q and R that
    become Q1 and R1 (the inputs unchanged), or with overwrite_qr in Q and
    R themselves, whose trailing blocks are returned as SciPy's (CuPy,
    PyTorch; JAX arrays are immutable: always copies)."""
    rng = np.random.default_rng(45)
    A = rng.uniform(-1, 1, (30, 8))
    Q, R = qr(A, False)
    Qd, Rd = pr.dev(Q), pr.dev(R)
    Q1, R1 = qru.qr_delete(Qd, Rd, 3, 2, "row", overwrite_qr=overwrite)
    pr.sync()
    A1 = np.delete(A, [3, 4], axis=0)
    Q1h, R1h = pr.host(Q1), pr.host(R1)
    assert Q1h.shape == (28, 28)
    assert scaled_residual(Q1h @ R1h, A1, np.float64, 30) < THRESH
    assert orthogonality(Q1h, np.float64) < THRESH
    if overwrite and pr.name != "jax":
        # SciPy's views: the trailing blocks Q[2:, 2:] and R[2:, :] of the
        # buffers the library worked in (Fortran order, 8-byte elements)
        assert _ptr(Q1) == _ptr(Qd) + (2 * 30 + 2) * 8
        assert _ptr(R1) == _ptr(Rd) + 2 * 8
        assert np.array_equal(pr.host(Qd)[2:, 2:], Q1h)
    else:
        assert np.array_equal(pr.host(Qd), Q)
        assert np.array_equal(pr.host(Rd), R)
        if pr.name != "jax":
            assert _ptr(Q1) != _ptr(Qd) and _ptr(R1) != _ptr(Rd)


def test_overwrite_in_place_and_streams():
    """CuPy: an F-ordered float64 factor with overwrite_R is updated at its
    own address; a call on a non-blocking stream runs in a context on
    that stream; the legacy default stream (0) is cudaStreamLegacy."""
    cp = _producer("cupy").mod
    rng = np.random.default_rng(44)
    B = rng.uniform(-1, 1, (20, 10))
    A = B.T @ B
    R = cp.asfortranarray(cp.asarray(chol(A)))
    x = cp.asarray(rng.uniform(-1, 1, 10))
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        R1 = qru.cholesky_update(R, x, overwrite_R=True)
        assert R1.data.ptr == R.data.ptr
        dev = R.device.id
        assert ("cuda", dev, s.ptr) in _arrays._contexts
        s.synchronize()
    Rh = cp.asnumpy(R)
    xh = cp.asnumpy(x)
    assert scaled_residual(Rh.T @ Rh, A + np.outer(xh, xh), np.float64,
                           10) < THRESH
    with cp.cuda.Stream.null:
        qru.cholesky_update(R, x, "-", overwrite_R=True)
        assert ("cuda", dev, _arrays.LEGACY_STREAM) in _arrays._contexts
    Rh = cp.asnumpy(R)
    assert scaled_residual(Rh.T @ Rh, A, np.float64, 10) < THRESH


def test_torch_stream():
    torch = _producer("torch").mod
    rng = np.random.default_rng(45)
    A = torch.tensor(rng.uniform(-1, 1, (12, 4)), device="cuda")
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        f = qru.LeastSquares(A, A[:, 0] + 2 * A[:, 1], "thin")
        x = f.solve()
        assert ("cuda", A.device.index, s.cuda_stream) in _arrays._contexts
    s.synchronize()
    assert torch.allclose(x.cpu(), torch.tensor([1.0, 2, 0, 0],
                                                dtype=torch.float64),
                          atol=1e-12)


def test_mixed_frameworks_and_devices_rejected():
    cp = _producer("cupy").mod
    R = cp.eye(4)
    with pytest.raises(TypeError, match="numpy"):
        qru.cholesky_update(R, np.ones(4))
    with pytest.raises(ValueError, match="backend 'cpu'"):
        qru.cholesky_update(R, cp.ones(4), backend="cpu")
