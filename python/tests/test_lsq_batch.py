"""qru.LeastSquaresBatch against NumPy's lstsq problem by problem: batch
shapes, vector and matrix right-hand sides, both dtypes, chains of added
rows, residual norms, a rank-deficient problem, bad arguments."""
import numpy as np
import pytest

import qru
from conftest import THRESH, eps, host_backends

BACKENDS = host_backends()


def lstsq_pages(A, b):
    """x and the residual norms of every page, in double (b (..., n, r))."""
    lead = A.shape[:-2]
    A2 = A.reshape((-1,) + A.shape[-2:]).astype(np.float64)
    b2 = b.reshape((-1,) + b.shape[-2:]).astype(np.float64)
    x = np.stack([np.linalg.lstsq(a, c, rcond=None)[0]
                  for a, c in zip(A2, b2)])
    rho = np.linalg.norm(b2 - A2 @ x, axis=-2)
    return (x.reshape(lead + x.shape[-2:]),
            rho.reshape(lead + rho.shape[-1:]))


def check_x(x, want, A, dt):
    """x within the least-squares error bound of each page's solution
    (scaled by eps, the order and the condition number)."""
    A2 = A.reshape((-1,) + A.shape[-2:]).astype(np.float64)
    x2 = x.reshape((A2.shape[0], A2.shape[2], -1))
    w2 = want.reshape(x2.shape)
    for a, xi, wi in zip(A2, x2, w2):
        kappa = np.linalg.cond(a)
        err = np.linalg.norm(xi - wi) / (np.linalg.norm(wi) * eps(dt) *
                                         max(a.shape) * kappa ** 2 + 1e-300)
        assert err <= THRESH, err


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("lead,n,m,r", [((7,), 30, 5, None),
                                        ((2, 3), 40, 8, 2),
                                        ((1,), 8, 8, None),
                                        ((4,), 100, 20, 1)])
def test_solve_and_rows(backend, dt, lead, n, m, r):
    rng = np.random.default_rng(n * 7 + m)
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + ((n,) if r is None else (n, r))).astype(dt)
    B = qru.LeastSquaresBatch(A, b, backend=backend)
    assert B.batch_shape == lead and B.shape == (n, m)
    assert B.nrhs == (1 if r is None else r) and B.dtype == dt
    bm = b[..., None] if r is None else b
    for step in range(4):  # the factorisation, then rows added in a chain
        x = B.solve()
        want, rho = lstsq_pages(A, bm)
        assert x.shape == (want[..., 0] if r is None else want).shape
        assert x.dtype == dt
        check_x(x[..., None] if r is None else x, want, A, dt)
        got = B.residual_norms()
        got = got[..., None] if r is None else got
        assert np.allclose(got, rho, rtol=100 * eps(dt) * n,
                           atol=100 * eps(dt) * np.abs(bm).max() * n)
        p = step + 1
        U = rng.uniform(-1, 1, lead + (p, m)).astype(dt)
        e = rng.uniform(-1, 1, lead + (p,) + (() if r is None else (r,)))
        e = e.astype(dt)
        B.add_rows(U, e)
        A = np.concatenate([A, U], axis=-2)
        b = np.concatenate([b, e], axis=-1 if r is None else -2)
        bm = b[..., None] if r is None else b
        assert B.shape == (A.shape[-2], m)


@pytest.mark.parametrize("backend", BACKENDS)
def test_one_row_and_zero_e(backend):
    """U (..., m) is one row; e omitted is zeros."""
    rng = np.random.default_rng(3)
    A = rng.standard_normal((5, 12, 4))
    b = rng.standard_normal((5, 12))
    B = qru.LeastSquaresBatch(A, b, backend=backend)
    u = rng.standard_normal((5, 4))
    B.add_rows(u)
    A1 = np.concatenate([A, u[:, None, :]], axis=1)
    b1 = np.concatenate([b, np.zeros((5, 1))], axis=1)
    want, rho = lstsq_pages(A1, b1[..., None])
    check_x(B.solve()[..., None], want, A1, np.float64)
    assert np.allclose(B.residual_norms(), rho[..., 0], rtol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
def test_rank_deficient(backend):
    """A problem whose pages are rank-deficient: LinAlgError naming it;
    the batch stays usable and the others solve once fixed by rows."""
    rng = np.random.default_rng(4)
    A = rng.standard_normal((3, 10, 4))
    A[1, :, 3] = A[1, :, 0]  # problem 1: two equal columns
    b = rng.standard_normal((3, 10))
    B = qru.LeastSquaresBatch(A, b, backend=backend)
    with pytest.raises(np.linalg.LinAlgError, match=r"1 of 3 .*\(1,\)"):
        B.solve()
    U = np.zeros((3, 1, 4))
    U[:, 0, 3] = 1.0  # column 3 differs from column 0 from now on
    B.add_rows(U)
    A1 = np.concatenate([A, U], axis=1)
    b1 = np.concatenate([b, np.zeros((3, 1))], axis=1)
    want, _ = lstsq_pages(A1, b1[..., None])
    check_x(B.solve()[..., None], want, A1, np.float64)


def test_bad_arguments():
    A = np.ones((2, 5, 3)) + np.eye(5, 3)
    b = np.ones((2, 5))
    with pytest.raises(ValueError, match="batch of matrices"):
        qru.LeastSquaresBatch(A[0], b[0])
    with pytest.raises(ValueError, match="b must be of shape"):
        qru.LeastSquaresBatch(A, b[:, :4])
    with pytest.raises(TypeError, match="dtype"):
        qru.LeastSquaresBatch(A.astype(complex), b)
    B = qru.LeastSquaresBatch(A, b)
    with pytest.raises(ValueError, match="U must be of shape"):
        B.add_rows(np.ones((2, 1, 4)))
    with pytest.raises(ValueError, match="e must be of shape"):
        B.add_rows(np.ones((2, 1, 3)), np.ones((2, 2)))
    A[0, 0, 0] = np.nan
    with pytest.raises(ValueError):
        qru.LeastSquaresBatch(A, b)
