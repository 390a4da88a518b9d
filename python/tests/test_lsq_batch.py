"""qru.LeastSquaresBatch against NumPy's lstsq problem by problem: batch
shapes, vector and matrix right-hand sides, both dtypes, the three forms,
chains of added rows, removed rows (thin form: Q1 and R of each page,
a refused removal, a number of rows a problem), removed columns (both
forms) and inserted ones (thin form, a refused insertion), residual
norms, the full form's Q and d through every update, a rank-deficient
problem, bad arguments."""
import numpy as np
import pytest

import qru
from conftest import (THRESH, eps, host_backends, orthogonality,
                      scaled_residual)

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
@pytest.mark.parametrize("q", ["none", "thin"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("lead,n,m,r", [((7,), 30, 5, None),
                                        ((2, 3), 40, 8, 2),
                                        ((1,), 8, 8, None),
                                        ((4,), 100, 20, 1)])
def test_solve_and_rows(backend, q, dt, lead, n, m, r):
    rng = np.random.default_rng(n * 7 + m)
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + ((n,) if r is None else (n, r))).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    assert B.batch_shape == lead and B.shape == (n, m) and B.q == q
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
@pytest.mark.parametrize("q", ["none", "thin", "full"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("r", [None, 2])
def test_add_rows_solve(backend, q, dt, r):
    """add_rows_solve: the rows added and every grown problem solved in
    one call, against each page's least squares and a solve after it; a
    rank-deficient problem raises LinAlgError and every problem still
    gains the rows."""
    rng = np.random.default_rng(17)
    lead, n, m, p = (2, 3), 30, 6, 2
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + ((n,) if r is None else (n, r))).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    for step in range(2):
        U = rng.uniform(-1, 1, lead + (p, m)).astype(dt)
        e = rng.uniform(-1, 1, lead + ((p,) if r is None else (p, r)))
        e = e.astype(dt)
        x = B.add_rows_solve(U, e)
        A = np.concatenate([A, U], axis=-2)
        b = np.concatenate([b, e], axis=-1 if r is None else -2)
        bm = b[..., None] if r is None else b
        assert B.shape == (n + p * (step + 1), m) and x.dtype == dt
        want, _ = lstsq_pages(A, bm)
        check_x(x[..., None] if r is None else x, want, A, dt)
        assert np.array_equal(x, B.solve())
    U = rng.uniform(-1, 1, lead + (1, m)).astype(dt)
    U[1, 2, 0, 1] = U[1, 2, 0, 0]
    A2 = A[..., :n, :].copy()
    A2[1, 2, :, 1] = A2[1, 2, :, 0]  # problem (1, 2): two equal columns
    B2 = qru.LeastSquaresBatch(A2, b[..., :n] if r is None else b[..., :n, :],
                               q, backend=backend)
    with pytest.raises(np.linalg.LinAlgError, match=r"1 of 6 .*\(1, 2\)"):
        B2.add_rows_solve(U)
    assert B2.shape == (n + 1, m)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["none", "thin"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_rows_each(backend, q, dt):
    """add_rows(U, e, rows=...): problem i gains U[i, :rows[i]] only (0:
    none, to the bit), against each page's least squares; bad rows raise
    ValueError with the batch unchanged."""
    rng = np.random.default_rng(5)
    lead, n, m, r, p = (2, 3), 20, 6, 2, 3
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, r)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    R0 = B.R.copy()
    U = rng.uniform(-1, 1, lead + (p, m)).astype(dt)
    e = rng.uniform(-1, 1, lead + (p, r)).astype(dt)
    rows = np.array([[0, 1, 3], [2, 0, 3]])
    for bad in (np.array([[0, 1, 4], [2, 0, 3]]), rows[0], rows * 0.5):
        with pytest.raises(ValueError):
            B.add_rows(U, e, rows=bad)
    assert np.array_equal(B.R, R0)
    B.add_rows(U, e, rows=rows)
    x = B.solve()
    for idx in np.ndindex(lead):
        k = rows[idx]
        A1 = np.concatenate([A[idx], U[idx][:k]])
        b1 = np.concatenate([b[idx], e[idx][:k]])
        want, _ = lstsq_pages(A1[None], b1[None])
        check_x(x[idx][None], want, A1[None], dt)
        if k == 0:
            assert np.array_equal(B.R[idx], R0[idx])
    assert np.array_equal(B.rows, n + rows)


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


def check_thin(B, A, b, dt):
    """B (thin) against the pages of A (..., n, m) and b (..., n, r): Q1
    orthonormal, A = Q1 R with R upper triangular, x and the residuals
    as lstsq's."""
    n = A.shape[-2]
    Q, R = B.Q, B.R
    assert Q.shape == A.shape and R.shape == A.shape[:-2] + (A.shape[-1],) * 2
    assert Q.dtype == dt and R.dtype == dt
    for qi, ri, ai in zip(Q.reshape((-1,) + Q.shape[-2:]),
                          R.reshape((-1,) + R.shape[-2:]),
                          A.reshape((-1,) + A.shape[-2:])):
        assert orthogonality(qi, dt) <= THRESH
        assert np.array_equal(ri, np.triu(ri))
        assert scaled_residual(qi.astype(np.float64) @ ri, ai, dt,
                               n) <= THRESH
    want, rho = lstsq_pages(A, b)
    check_x(B.solve().reshape(want.shape), want, A, dt)
    tol = dict(rtol=100 * eps(dt) * n,
               atol=100 * eps(dt) * np.abs(b).max() * n)
    assert np.allclose(B.residual_norms().reshape(rho.shape), rho, **tol)
    E = b.astype(np.float64) - A.astype(np.float64) @ want
    assert np.allclose(B.residuals.reshape(E.shape), E, **tol)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("p", [1, 4])
@pytest.mark.parametrize("r", [None, 2])
def test_thin_remove_rows(backend, dt, where, p, r):
    """Rows removed from every page, twice, and rows added between: the
    thin factors, x and the residuals of each page's updated A and b."""
    rng = np.random.default_rng(p * 10 + len(where))
    lead, n, m = (2, 3), 30, 6
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, 1 if r is None else r)).astype(dt)
    B = qru.LeastSquaresBatch(A, b[..., 0] if r is None else b, q="thin",
                              backend=backend)
    check_thin(B, A, b, dt)
    for step in range(2):
        n = A.shape[-2]
        k = {"start": 0, "middle": n // 2, "end": n - p}[where]
        B.remove_rows(k, p)
        A = np.delete(A, np.s_[k:k + p], axis=-2)
        b = np.delete(b, np.s_[k:k + p], axis=-2)
        assert B.shape == (n - p, m)
        assert np.array_equal(B.rows, np.full(lead, n - p))
        check_thin(B, A, b, dt)
        U = rng.uniform(-1, 1, lead + (2, m)).astype(dt)
        e = rng.uniform(-1, 1, b.shape[:-2] + (2, b.shape[-1])).astype(dt)
        B.add_rows(U, e[..., 0] if r is None else e)
        A = np.concatenate([A, U], axis=-2)
        b = np.concatenate([b, e], axis=-2)
        check_thin(B, A, b, dt)
    assert (B.residuals.shape == b.shape[:-1] if r is None
            else B.residuals.shape == b.shape)


@pytest.mark.parametrize("backend", BACKENDS)
def test_refused_removal(backend):
    """A problem whose A would lose its rank refuses the removal: one
    LinAlgError names it, it keeps its rows and factors, the others lose
    the rows; Q and the residuals are padded with zero rows."""
    rng = np.random.default_rng(5)
    A = rng.standard_normal((3, 12, 4))
    A[1, 3:, 3] = 0.0  # problem 1: only rows 0 .. 2 reach column 3
    b = rng.standard_normal((3, 12, 2))
    B = qru.LeastSquaresBatch(A, b, "thin", backend=backend)
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 3 problems refused .*\(1,\)"):
        B.remove_rows(0, 3)
    assert np.array_equal(B.rows, [9, 12, 9]) and B.shape == (12, 4)
    Q, R, E = B.Q, B.R, B.residuals
    assert Q.shape == (3, 12, 4) and E.shape == (3, 12, 2)
    A1, b1 = A[:, 3:], b[:, 3:]
    for i in (0, 2):
        assert not Q[i, 9:].any() and not E[i, 9:].any()
        assert orthogonality(Q[i, :9], np.float64) <= THRESH
        assert scaled_residual(Q[i, :9] @ R[i], A1[i], np.float64,
                               9) <= THRESH
    assert scaled_residual(Q[1] @ R[1], A[1], np.float64, 12) <= THRESH
    x = B.solve()
    for i, (a, c) in enumerate([(A1[0], b1[0]), (A[1], b[1]),
                                (A1[2], b1[2])]):
        want = np.linalg.lstsq(a, c, rcond=None)[0]
        check_x(x[i][None], want[None], a[None], np.float64)
        assert np.allclose(B.residual_norms()[i],
                           np.linalg.norm(c - a @ want, axis=0), rtol=1e-10)
        assert np.allclose(E[i, :a.shape[0]], c - a @ want, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("k", [0, 5])
def test_remove_rows_each(backend, dt, k):
    """remove_rows(k, p, rows=...): problem i loses rows k .. k+rows[i]-1
    only (0: none, to the bit; the problems' row counts differ from an
    add_rows(rows=) first), against each page's least squares and thin
    factors; bad rows raise ValueError with the batch unchanged."""
    rng = np.random.default_rng(15 + k)
    lead, n, m, r, p = (2, 3), 20, 6, 2, 4
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, r)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, "thin", backend=backend)
    U = rng.uniform(-1, 1, lead + (2, m)).astype(dt)
    e = rng.uniform(-1, 1, lead + (2, r)).astype(dt)
    add = np.array([[0, 2, 1], [1, 0, 2]])
    B.add_rows(U, e, rows=add)
    A = [np.concatenate([A[i], U[i][:add[i]]]) for i in np.ndindex(lead)]
    b = [np.concatenate([b[i], e[i][:add[i]]]) for i in np.ndindex(lead)]
    R0, Q0, E0 = B.R.copy(), B.Q.copy(), B.residuals.copy()
    rows = np.array([[4, 0, 1], [4, 3, 0]])
    for bad in (np.array([[4, 0, 5], [4, 3, 0]]), rows[0], rows * 0.5,
                np.array([[-1, 0, 1], [4, 3, 0]])):
        with pytest.raises(ValueError):
            B.remove_rows(k, p, rows=bad)
    assert np.array_equal(B.R, R0)
    B.remove_rows(k, p, rows=rows)
    x = B.solve()
    Q, R, E = B.Q, B.R, B.residuals
    for j, idx in enumerate(np.ndindex(lead)):
        c = rows[idx]
        A1 = np.delete(A[j], np.s_[k:k + c], axis=0)
        b1 = np.delete(b[j], np.s_[k:k + c], axis=0)
        n1 = A1.shape[0]
        assert B.rows[idx] == n1
        want, _ = lstsq_pages(A1[None], b1[None])
        check_x(x[idx][None], want, A1[None], dt)
        assert orthogonality(Q[idx][:n1], dt) <= THRESH
        assert scaled_residual(Q[idx][:n1] @ R[idx], A1, dt, n1) <= THRESH
        if c == 0:
            assert np.array_equal(R[idx], R0[idx])
            assert np.array_equal(Q[idx][:n1], Q0[idx][:n1])
            assert np.array_equal(E[idx][:n1], E0[idx][:n1])


def test_forms_and_bad_removals():
    rng = np.random.default_rng(6)
    A = rng.standard_normal((2, 8, 3))
    b = rng.standard_normal((2, 8))
    with pytest.raises(ValueError, match="q must be"):
        qru.LeastSquaresBatch(A, b, q="economy")
    for q in ("thin", "full"):
        with pytest.raises(ValueError):  # thin and full need n >= m
            qru.LeastSquaresBatch(A[:, :2], b[:, :2], q=q)
    N = qru.LeastSquaresBatch(A, b)
    assert N.q == "none"
    with pytest.raises(ValueError, match="Q-less"):
        N.remove_rows(0)
    with pytest.raises(ValueError, match="Q-less"):
        N.Q
    with pytest.raises(ValueError, match="Q-less"):
        N.residuals
    assert N.R.shape == (2, 3, 3) and N.d.shape == (2, 3, 1)
    B = qru.LeastSquaresBatch(A, b, q="thin")
    for k, p in [(-1, 1), (8, 1), (0, 0), (6, 3), (0, 6)]:
        with pytest.raises(ValueError):
            B.remove_rows(k, p)
    assert B.shape == (8, 3)
    want, _ = lstsq_pages(A, b[..., None])
    check_x(B.solve()[..., None], want, A, np.float64)


def test_bad_arguments():
    A = np.ones((2, 5, 3)) + np.eye(5, 3)
    b = np.ones((2, 5))
    with pytest.raises(ValueError, match="batch of matrices"):
        qru.LeastSquaresBatch(A[0], b[0])
    with pytest.raises(ValueError, match="b must be of shape"):
        qru.LeastSquaresBatch(A, b[:, :4])
    with pytest.raises(TypeError, match="dtype"):
        qru.LeastSquaresBatch(A.astype(object), b)
    B = qru.LeastSquaresBatch(A, b)
    with pytest.raises(TypeError, match="complex"):
        B.add_rows(np.ones((2, 1, 3), complex))
    with pytest.raises(ValueError, match="U must be of shape"):
        B.add_rows(np.ones((2, 1, 4)))
    with pytest.raises(ValueError, match="e must be of shape"):
        B.add_rows(np.ones((2, 1, 3)), np.ones((2, 2)))
    A[0, 0, 0] = np.nan
    with pytest.raises(ValueError):
        qru.LeastSquaresBatch(A, b)


def check_qless(B, A, b, dt):
    """B (Q-less) against the pages of A and b (..., n, r): |R| as
    NumPy's QR's up to the signs of its rows, x and the residual norms as
    lstsq's."""
    n = A.shape[-2]
    R = B.R
    for ri, ai in zip(R.reshape((-1,) + R.shape[-2:]),
                      A.reshape((-1,) + A.shape[-2:])):
        assert np.array_equal(ri, np.triu(ri))
        want = np.linalg.qr(ai.astype(np.float64), mode="r")
        err = np.linalg.norm(np.abs(ri) - np.abs(want)) / (
            np.linalg.norm(ai) * max(ai.shape) * eps(dt) *
            np.linalg.cond(ai))
        assert err <= THRESH, err
    want, rho = lstsq_pages(A, b)
    check_x(B.solve().reshape(want.shape), want, A, dt)
    tol = dict(rtol=100 * eps(dt) * n,
               atol=100 * eps(dt) * np.abs(b).max() * n)
    assert np.allclose(B.residual_norms().reshape(rho.shape), rho, **tol)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["none", "thin"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("p", [1, 3])
def test_remove_cols(backend, q, dt, where, p):
    """Columns removed from every page, twice: R (and Q1, E), x and the
    residuals of each page's A with the columns gone."""
    rng = np.random.default_rng(p * 100 + len(where) + len(q))
    lead, n, m = (2, 3), 30, 9
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, 2)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    for step in range(2):
        m = A.shape[-1]
        k = {"start": 0, "middle": (m - p) // 2, "end": m - p}[where]
        B.remove_cols(k, p)
        A = np.delete(A, np.s_[k:k + p], axis=-1)
        assert B.shape == (n, m - p) and B.R.shape == lead + (m - p,) * 2
        (check_thin if q == "thin" else check_qless)(B, A, b, dt)


def check_full(B, A, b, dt):
    """B (full) against the pages of A (..., n, m) and b (..., n, r): the
    thin form's checks on Q's first m columns, Q orthogonal (n x n),
    d = Q' b (all n rows), its rows m .. n-1 the residual norms."""
    n, m = A.shape[-2:]
    Q, d = B.Q, B.d
    assert Q.shape == A.shape[:-1] + (n,) and d.shape == b.shape
    assert Q.dtype == dt and d.dtype == dt
    for qi, di, bi in zip(Q.reshape((-1, n, n)),
                          d.reshape((-1, n, b.shape[-1])),
                          b.reshape((-1,) + b.shape[-2:])):
        assert orthogonality(qi, dt) <= THRESH
        assert scaled_residual(di, qi.T.astype(np.float64) @ bi, dt,
                               n) <= THRESH
    _, rho = lstsq_pages(A, b)
    assert np.allclose(np.linalg.norm(d[..., m:, :].astype(np.float64),
                                      axis=-2), rho,
                       rtol=100 * eps(dt) * n,
                       atol=100 * eps(dt) * np.abs(b).max() * n)
    thin = B.Q[..., :m]
    assert np.array_equal(thin, Q[..., :m])
    check_thin(_ThinView(B, thin), A, b, dt)


class _ThinView:
    """A full batch seen as check_thin's thin one (Q its first m columns)."""

    def __init__(self, B, Q1):
        self._B, self.Q = B, Q1

    def __getattr__(self, name):
        return getattr(self._B, name)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("n,m", [(12, 4), (40, 33), (70, 20)])
def test_full_form(backend, dt, n, m):
    """q='full': every problem's n x n Q and d = Q' b through a chain of
    the four updates (rows added, each problem its own count; rows
    removed; columns removed and inserted); a problem that gains no row
    keeps its Q to the bit."""
    rng = np.random.default_rng(n + m)
    lead, r = (2, 2), 2
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, r)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, "full", backend=backend)
    assert B.q == "full"
    check_full(B, A, b, dt)
    p = 3
    U = rng.uniform(-1, 1, lead + (p, m)).astype(dt)
    e = rng.uniform(-1, 1, lead + (p, r)).astype(dt)
    B.add_rows(U, e)
    A = np.concatenate([A, U], axis=-2)
    b = np.concatenate([b, e], axis=-2)
    check_full(B, A, b, dt)
    Q0 = B.Q
    each = np.array([[1, 0], [1, 1]])
    B.add_rows(U, e, rows=each)
    assert np.array_equal(B.Q[0, 1, :n + p, :n + p], Q0[0, 1])
    B.remove_rows(n + p, 1, rows=each)  # the rows just added again
    assert np.array_equal(B.rows, np.full(lead, n + p))
    check_full(B, A, b, dt)
    B.remove_rows(2, 4)
    A, b = np.delete(A, np.s_[2:6], axis=-2), np.delete(b, np.s_[2:6], -2)
    check_full(B, A, b, dt)
    B.remove_cols(1, 2)
    A = np.delete(A, np.s_[1:3], axis=-1)
    check_full(B, A, b, dt)
    V = rng.uniform(-1, 1, lead + (A.shape[-2], 3)).astype(dt)
    B.add_cols(0, V)
    A = np.concatenate([V, A], axis=-1)
    check_full(B, A, b, dt)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["thin", "full"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_modify(backend, q, dt):
    """A + U V' for every page (k = 2, then k = 1 as vectors), then under
    a mask (the pages left out unchanged to the bit), then a page whose
    new A loses a column refuses (LinAlgError names it; it stays, the
    others are modified); the Q-less form and bad shapes: ValueError."""
    rng = np.random.default_rng(11 + len(q))
    lead, n, m, r = (2, 3), 25, 6, 2
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n, r)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    check = check_full if q == "full" else check_thin
    for k in (2, 1):
        U = rng.uniform(-1, 1, lead + (n, k)).astype(dt)
        V = rng.uniform(-1, 1, lead + (m, k)).astype(dt)
        if k == 1:
            B.modify(U[..., 0], V[..., 0])
        else:
            B.modify(U, V)
        A = A + U @ np.swapaxes(V, -1, -2)
        check(B, A, b, dt)
    mask = np.array([[1, 0, 1], [0, 1, 1]])
    Q0 = B.Q
    U = rng.uniform(-1, 1, lead + (n, 2)).astype(dt)
    V = rng.uniform(-1, 1, lead + (m, 2)).astype(dt)
    B.modify(U, V, mask=mask)
    A = A + mask[..., None, None] * (U @ np.swapaxes(V, -1, -2))
    check(B, A, b, dt)
    assert np.array_equal(B.Q[0, 1], Q0[0, 1])
    U = rng.uniform(-1, 1, lead + (n, 1)).astype(dt)
    V = np.zeros(lead + (m, 1), dt)
    V[..., 0, 0] = 1
    U[1, 2, :, 0] = -A[1, 2, :, 0]
    R0 = B.R
    with pytest.raises(np.linalg.LinAlgError, match=r"\(1, 2\)"):
        B.modify(U, V)
    assert np.array_equal(B.R[1, 2], R0[1, 2])
    A1 = A + U @ np.swapaxes(V, -1, -2)
    A1[1, 2] = A[1, 2]
    check(B, A1, b, dt)
    with pytest.raises(ValueError):
        B.modify(U[..., :2, :], V)
    with pytest.raises(ValueError):
        B.modify(U, V, mask=mask * 2)
    with pytest.raises(ValueError, match="Q-less"):
        qru.LeastSquaresBatch(A, b, backend=backend).modify(U, V)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["thin", "none"])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("p", [1, 3])
def test_add_cols(backend, q, dt, where, p):
    """Columns inserted into every page (one column as a vector; the
    Q-less form from the current A and b), then some removed and more
    inserted: R (and Q1), x and the residuals of each page's new A."""
    rng = np.random.default_rng(p * 10 + len(where) + len(q))
    lead, n, m = (4,), 25, 6
    A = rng.uniform(-1, 1, lead + (n, m)).astype(dt)
    b = rng.uniform(-1, 1, lead + (n,)).astype(dt)
    B = qru.LeastSquaresBatch(A, b, q, backend=backend)
    check = check_thin if q == "thin" else check_qless
    for step in range(2):
        m = A.shape[-1]
        k = {"start": 0, "middle": m // 2, "end": m}[where]
        V = rng.uniform(-1, 1, lead + (n, p)).astype(dt)
        data = (A, b) if q == "none" else ()
        B.add_cols(k, V[..., 0] if p == 1 else V, *data)
        A = np.concatenate([A[..., :k], V, A[..., k:]], axis=-1)
        assert B.shape == (n, m + p)
        check(B, A, b[..., None], dt)
        B.remove_cols(1, 2)
        A = np.delete(A, np.s_[1:3], axis=-1)
        check(B, A, b[..., None], dt)


@pytest.mark.parametrize("backend", BACKENDS)
def test_add_cols_qless_refused(backend):
    """A Q-less batch (2 x 3 problems): a new column in the span of one
    problem's A: one LinAlgError names it and no problem changes; without
    A and b, with one of them, of the wrong shapes, with a NaN in A:
    ValueError."""
    rng = np.random.default_rng(17)
    A = rng.standard_normal((2, 3, 20, 5))
    b = rng.standard_normal((2, 3, 20))
    B = qru.LeastSquaresBatch(A, b, backend=backend)
    V = rng.standard_normal((2, 3, 20, 2))
    V[1, 2, :, 0] = A[1, 2, :, 0] - 2 * A[1, 2, :, 1]
    before = [B.R, B.d, B.residual_norms()]
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 6 problems refused the columns.*\(1, 2\)"):
        B.add_cols(1, V, A, b)
    for x, y in zip(before, [B.R, B.d, B.residual_norms()]):
        assert np.array_equal(x, y)
    with pytest.raises(ValueError, match="current A and b"):
        B.add_cols(1, V)
    with pytest.raises(ValueError, match="both A and b"):
        B.add_cols(1, V, A)
    with pytest.raises(ValueError, match="A must be of shape"):
        B.add_cols(1, V, A[..., 1:], b)
    with pytest.raises(ValueError, match="b must be of shape"):
        B.add_cols(1, V, A, b[..., 1:])
    A[0, 1, 3, 2] = np.nan
    with pytest.raises(ValueError):
        B.add_cols(1, V, A, b)
    assert B.shape == (20, 5)
    for x, y in zip(before, [B.R, B.d, B.residual_norms()]):
        assert np.array_equal(x, y)


@pytest.mark.parametrize("backend", BACKENDS)
def test_add_cols_refused_and_rows(backend):
    """A new column in the span of one problem's A: one LinAlgError names
    it and no problem changes; problems of different row counts (a
    refused row removal) take the first rows of their pages of V."""
    rng = np.random.default_rng(12)
    A = rng.standard_normal((3, 12, 4))
    A[1, 3:, 3] = 0.0  # problem 1 refuses the removal of rows 0 .. 2
    b = rng.standard_normal((3, 12, 2))
    B = qru.LeastSquaresBatch(A, b, "thin", backend=backend)
    with pytest.raises(np.linalg.LinAlgError):
        B.remove_rows(0, 3)
    V = rng.standard_normal((3, 12, 2))
    V[2, :9, 1] = A[2, 3:, 0] - A[2, 3:, 2]  # problem 2: in the span
    before = [B.R, B.d, B.Q, B.residuals]
    with pytest.raises(np.linalg.LinAlgError,
                       match=r"1 of 3 problems refused the columns.*\(2,\)"):
        B.add_cols(1, V)
    assert B.shape == (12, 4)
    for x, y in zip(before, [B.R, B.d, B.Q, B.residuals]):
        assert np.array_equal(x, y)
    V[2, :, 1] = rng.standard_normal(12)
    B.add_cols(1, V)
    assert B.shape == (12, 6) and np.array_equal(B.rows, [9, 12, 9])
    Q, R, E = B.Q, B.R, B.residuals
    for i in range(3):
        rows = slice(3, 12) if i != 1 else slice(0, 12)
        nv = 9 if i != 1 else 12
        a = np.concatenate([A[i, rows, :1], V[i, :nv], A[i, rows, 1:]],
                           axis=-1)
        c = b[i, rows]
        assert orthogonality(Q[i, :nv], np.float64) <= THRESH
        assert scaled_residual(Q[i, :nv] @ R[i], a, np.float64, nv) <= THRESH
        want = np.linalg.lstsq(a, c, rcond=None)[0]
        check_x(B.solve()[i][None], want[None], a[None], np.float64)
        assert np.allclose(E[i, :nv], c - a @ want, atol=1e-12)


def test_bad_column_updates():
    rng = np.random.default_rng(13)
    A = rng.standard_normal((2, 8, 3))
    b = rng.standard_normal((2, 8))
    N = qru.LeastSquaresBatch(A, b)
    with pytest.raises(ValueError, match="Q-less"):
        N.add_cols(0, np.ones((2, 8)))
    with pytest.raises(ValueError, match="V must be of shape"):
        N.add_cols(0, np.ones((2, 7, 1)), A, b)
    with pytest.raises(ValueError):
        N.add_cols(4, np.ones((2, 8, 1)), A, b)
    B = qru.LeastSquaresBatch(A, b, q="thin")
    for k, p in [(-1, 1), (3, 1), (0, 0), (2, 2), (0, 3)]:
        with pytest.raises(ValueError):
            B.remove_cols(k, p)
        with pytest.raises(ValueError):
            N.remove_cols(k, p)
    with pytest.raises(ValueError, match="V must be of shape"):
        B.add_cols(0, np.ones((2, 7, 1)))
    for k, p in [(-1, 1), (4, 1), (0, 6)]:
        with pytest.raises(ValueError):
            B.add_cols(k, rng.standard_normal((2, 8, p)))
    V = rng.standard_normal((2, 8, 1))
    V[1, 4, 0] = np.nan
    with pytest.raises(ValueError):
        B.add_cols(0, V)
    with pytest.raises(np.linalg.LinAlgError, match=r"\(1,\)"):
        B.add_cols(0, V, check_finite=False)
    assert B.shape == (8, 3) and N.shape == (8, 3)
    want, _ = lstsq_pages(A, b[..., None])
    check_x(B.solve()[..., None], want, A, np.float64)


def crandn(rng, shape, dt):
    """Complex normal values of dtype dt."""
    return (rng.standard_normal(shape) +
            1j * rng.standard_normal(shape)).astype(dt)


def check_complex(B, A, b, dt):
    """Every page's solution and residual norms against NumPy's complex
    lstsq (the least-squares bound, scaled by eps, the order and
    cond^2), R's moduli against NumPy's QR (R is unique up to the phases
    of its rows)."""
    x, rho = B.solve(), B.residual_norms()
    for i in range(A.shape[0]):
        a, c = A[i].astype(np.complex128), b[i].astype(np.complex128)
        want = np.linalg.lstsq(a, c, rcond=None)[0]
        kappa = np.linalg.cond(a)
        scale = eps(dt) * max(a.shape) * kappa ** 2
        err = np.linalg.norm(x[i] - want) / (np.linalg.norm(want) * scale)
        assert err <= THRESH, err
        res = np.linalg.norm(c - a @ want, axis=0)
        rerr = np.abs(rho[i] - res).max() / (np.linalg.norm(c) * scale)
        assert rerr <= THRESH, rerr
        r_np = np.linalg.qr(a, mode="r")
        rd = np.abs(np.abs(B.R[i]) - np.abs(np.triu(r_np))).max()
        assert rd <= THRESH * eps(dt) * max(a.shape) * np.linalg.norm(a), rd


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("q", ["none", "thin", "full"])
@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_complex(backend, q, dt):
    """Complex batches on every backend: creation, added rows, removed
    and inserted columns (Q-less: from A and b), (thin, full) removed rows and the
    modification A + U V' against NumPy."""
    rng = np.random.default_rng(11)
    A, b = crandn(rng, (3, 9, 4), dt), crandn(rng, (3, 9, 2), dt)
    B = qru.LeastSquaresBatch(A, b, q=q, backend=backend)
    assert B.dtype is dt
    check_complex(B, A, b, dt)
    U, e = crandn(rng, (3, 2, 4), dt), crandn(rng, (3, 2, 2), dt)
    B.add_rows(U, e)
    A, b = np.concatenate([A, U], axis=-2), np.concatenate([b, e], axis=-2)
    check_complex(B, A, b, dt)
    B.remove_cols(1)
    A = np.delete(A, 1, axis=-1)
    check_complex(B, A, b, dt)
    V = crandn(rng, (3, 11, 2), dt)
    if q == "none":
        B.add_cols(1, V, A, b)
    else:
        B.add_cols(1, V)
    A = np.concatenate([A[..., :1], V, A[..., 1:]], axis=-1)
    check_complex(B, A, b, dt)
    if q != "none":
        B.remove_rows(2, 3)
        A, b = np.delete(A, range(2, 5), axis=-2), \
            np.delete(b, range(2, 5), axis=-2)
        check_complex(B, A, b, dt)
        U, V = crandn(rng, (3, 8, 2), dt), crandn(rng, (3, 5, 2), dt)
        B.modify(U, V)
        A = A + U @ np.conj(np.swapaxes(V, -1, -2))
        check_complex(B, A, b, dt)
