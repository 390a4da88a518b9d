"""The conversion rules of qru._arrays on the host: column-major arrays
(also with a leading dimension larger than their rows) are used in place,
other layouts and element types are converted, bad ones rejected with
TypeError / ValueError naming the argument; contexts are cached."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import qru
from qru import _arrays
from conftest import THRESH, scaled_residual


def _spd_factor(n, seed):
    rng = np.random.default_rng(seed)
    B = rng.uniform(-1, 1, (2 * n, n))
    A = B.T @ B
    return rng, A, sl.cholesky(A)


def test_leading_dimension_used_in_place():
    """A block of a larger Fortran array (ld > rows) is wrapped, not
    copied: an allowed overwrite lands in the big array's memory."""
    rng, A, R = _spd_factor(6, 31)
    big = np.asfortranarray(rng.uniform(-1, 1, (10, 6)))
    big[:6] = R
    view = big[:6]  # strides (8, 80): column-major, ld 10
    x = rng.uniform(-1, 1, 6)
    out = qru.cholesky_update(view, x, overwrite_R=True)
    assert np.shares_memory(out, big)
    assert scaled_residual(big[:6].T @ big[:6], A + np.outer(x, x),
                           np.float64, 6) < THRESH
    rest = big[6:].copy()
    qru.cholesky_update(view, x, "-", overwrite_R=True)  # back again
    assert np.array_equal(big[6:], rest), "rows past the view were written"


@pytest.mark.parametrize("layout", ["C", "strided", "negative", "int"])
def test_converted_layouts(layout):
    rng, A, R = _spd_factor(7, 32)
    x = rng.uniform(-1, 1, 7)
    if layout == "C":
        Rin = np.ascontiguousarray(R)
    elif layout == "strided":
        Rin = np.asfortranarray(np.kron(R, np.ones((2, 2))))[::2, ::2]
    elif layout == "negative":
        Rin = np.flip(np.flip(R).copy())  # R, with negative strides
        assert Rin.strides[0] < 0
    else:
        Rin = R
        x = rng.integers(-3, 4, 7)
    R0 = np.array(Rin)
    R1 = qru.cholesky_update(Rin, x, overwrite_R=True)
    assert R1.dtype == np.float64 and R1.flags.f_contiguous
    assert scaled_residual(R1.T @ R1, A + np.outer(x, x), np.float64,
                           7) < THRESH
    if layout != "int":  # converted: the input stays as it was
        assert np.array_equal(Rin, R0)


def test_float32_kept_mixed_promoted():
    rng, A, R = _spd_factor(5, 33)
    x = rng.uniform(-1, 1, 5)
    assert qru.cholesky_update(R.astype(np.float32),
                               x.astype(np.float32)).dtype == np.float32
    assert qru.cholesky_update(R.astype(np.float32), x).dtype == np.float64
    assert qru.cholesky_update(R, [0.1, 0.2, 0.3, 0.4, 0.5]).dtype == np.float64


def test_rejected():
    rng, A, R = _spd_factor(4, 34)
    with pytest.raises(TypeError, match="b is complex"):
        qru.nnls(R, np.ones(4) * 1j)  # (the Cholesky functions take it)
    with pytest.raises(TypeError, match="R has dtype"):
        qru.cholesky_update(R.astype(object), np.ones(4))
    with pytest.raises(ValueError, match="stream"):
        qru.cholesky_update(R, np.ones(4), stream=5)
    with pytest.raises(ValueError, match="unknown backend"):
        qru.cholesky_update(R, np.ones(4), backend="tpu")


def test_contexts_cached():
    rng, A, R = _spd_factor(4, 35)
    qru.cholesky_delete(R, 1)
    n = len(_arrays._contexts)
    for _ in range(3):
        qru.cholesky_delete(R, 1)
        qru.LeastSquares(R, np.ones(4)).solve()
    assert len(_arrays._contexts) == n
    assert ("cpu", -1, 0) in _arrays._contexts


def test_jax_arrays_on_the_cpu():
    """JAX arrays (row-major, immutable) on the CPU: converted, never
    written (even with overwrite_R), results are JAX arrays."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    jax.config.update("jax_enable_x64", True)
    rng, A, R = _spd_factor(6, 36)
    x = rng.uniform(-1, 1, 6)
    Rj = jnp.asarray(R)
    R1 = qru.cholesky_update(Rj, jnp.asarray(x), overwrite_R=True)
    assert type(R1).__module__.split(".")[0] in ("jax", "jaxlib")
    assert np.array_equal(np.asarray(Rj), R)
    R1h = np.asarray(R1)
    assert scaled_residual(R1h.T @ R1h, A + np.outer(x, x), np.float64,
                           6) < THRESH
    M = rng.uniform(-1, 1, (12, 4))
    b = rng.uniform(-1, 1, 12)
    f = qru.LeastSquares(jnp.asarray(M), jnp.asarray(b), "none")
    f.add_rows(12, jnp.asarray(M[:2] * 2), jnp.asarray(b[:2]))
    xs = np.linalg.lstsq(np.vstack([M, 2 * M[:2]]), np.append(b, b[:2]),
                         rcond=None)[0]
    xq = f.solve()
    assert type(xq).__module__.split(".")[0] in ("jax", "jaxlib")
    assert np.allclose(np.asarray(xq), xs, rtol=0, atol=1e-12)


def test_jax_complex_arrays_on_the_cpu():
    """complex64 / complex128 JAX arrays on the CPU: qr_insert,
    cholesky_update and LeastSquares take them, results are JAX arrays of
    the same complex type, equal to the NumPy arrays' results."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(38)
    for dt in (np.complex64, np.complex128):
        A = (rng.uniform(-1, 1, (9, 5)) +
             1j * rng.uniform(-1, 1, (9, 5))).astype(dt)
        u = (rng.uniform(-1, 1, 5) + 1j * rng.uniform(-1, 1, 5)).astype(dt)
        Q, R = np.linalg.qr(A, mode="complete")
        Q, R = Q.astype(dt), R.astype(dt)
        Qj, Rj = qru.qr_insert(jnp.asarray(Q), jnp.asarray(R),
                               jnp.asarray(u), 3, "row")
        Qh, Rh = qru.qr_insert(Q, R, u, 3, "row", backend="cpu")
        for a, h in ((Qj, Qh), (Rj, Rh)):
            assert type(a).__module__.split(".")[0] in ("jax", "jaxlib")
            assert np.asarray(a).dtype == dt
            assert np.array_equal(np.asarray(a), h)
        A1 = np.insert(A, 3, u, axis=0)
        assert scaled_residual(Qh @ Rh, A1, dt, 10) < THRESH
        G = A.conj().T @ A
        L = np.linalg.cholesky(G).conj().T.astype(dt)  # upper: G = L' L
        x = u
        L1 = qru.cholesky_update(jnp.asarray(L), jnp.asarray(x))
        assert np.asarray(L1).dtype == dt
        L1h = np.asarray(L1)
        assert scaled_residual(L1h.conj().T @ L1h,
                               G + np.outer(x, x.conj()), dt, 5) < THRESH
        b = (rng.uniform(-1, 1, 9) + 1j * rng.uniform(-1, 1, 9)).astype(dt)
        f = qru.LeastSquares(jnp.asarray(A), jnp.asarray(b), "none")
        xq = f.solve()
        assert type(xq).__module__.split(".")[0] in ("jax", "jaxlib")
        xs = np.linalg.lstsq(A.astype(np.complex128), b, rcond=None)[0]
        tol = 1e-4 if dt == np.complex64 else 1e-12
        assert np.allclose(np.asarray(xq), xs, rtol=0, atol=tol)


def test_jax_arrays_on_the_cpu_solvers():
    """qru.orthogonal_mp and qru.lars_path on JAX arrays on the CPU: the
    results (coef with and without the path, alphas and coefs, the last
    step alone) are JAX arrays equal to the NumPy arrays' results (the
    same backend on the same numbers: the NumPy calls name the cpu
    backend, which a machine with a GPU would not pick), the steps and
    active sets too."""
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(37)
    X = rng.standard_normal((30, 20))
    Y = X[:, [2, 9, 15]] @ [[1.5, 0], [-2.0, 1], [0, 2]] + \
        0.01 * rng.standard_normal((30, 2))
    cpu = jax.devices("cpu")[0]  # also where JAX's default is a GPU
    Xj, Yj = jax.device_put(X, cpu), jax.device_put(Y, cpu)

    def same(a, b):
        assert type(a).__module__.split(".")[0] in ("jax", "jaxlib")
        assert np.asarray(a).shape == b.shape
        assert np.array_equal(np.asarray(a), b)

    for kw in ({}, {"return_path": True}, {"precompute": True}):
        c, k = qru.orthogonal_mp(Xj, Yj, n_nonzero_coefs=3,
                                 return_n_iter=True, **kw)
        ch, kh = qru.orthogonal_mp(X, Y, n_nonzero_coefs=3,
                                   return_n_iter=True, backend="cpu", **kw)
        same(c, ch)
        assert k == kh
    for rp in (True, False):
        out = qru.lars_path(Xj, Yj[:, 0], method="lasso", max_iter=6,
                            return_path=rp, return_n_iter=True)
        ref = qru.lars_path(X, Y[:, 0], method="lasso", max_iter=6,
                            return_path=rp, return_n_iter=True,
                            backend="cpu")
        same(out[0], ref[0])
        same(out[2], ref[2])
        assert out[1] == ref[1] and out[3] == ref[3]
