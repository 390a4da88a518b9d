"""qru.cholesky_update / cholesky_insert / cholesky_delete against SciPy's
Cholesky factorisation of the updated matrix: upper (R'R) and lower (LL')
factors, rank 1 and rank 3, k at the start, in the middle and at the end,
float64 and float32, every backend that runs here.  Checks: the scaled
residual |F1'F1 - A1| / (|A1| eps n) below 30, the factor triangular with
the other triangle zero, |F1| equal to SciPy's within 30 eps n |A1|^(1/2);
downdates that lose definiteness raise LinAlgError and change nothing;
bad arguments raise ValueError / TypeError; the inputs are never
overwritten unless overwrite_R says so.  Complex64 and complex128 factors
(A Hermitian, ' the conjugate transpose) on the backends that compute in
them (every backend), against SciPy in complex128, single and
batched."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import qru
from conftest import THRESH, eps, host_backends

BACKENDS = host_backends()


def _spd(n, seed, dt):
    """A = B'B (B 2n x n), exact in dt, in double (complex dt: B complex,
    A Hermitian, in complex128)."""
    rng = np.random.default_rng(seed)
    B = _rand(rng, (2 * n, n), np.complex128 if np.iscomplexobj(dt(0))
              else np.float64)
    A = B.conj().T @ B
    return rng, ((A + A.conj().T) / 2).astype(dt).astype(
        np.complex128 if np.iscomplexobj(A) else np.float64)


def _rand(rng, shape, dt):
    """uniform(-1, 1) entries (complex dt: both parts) of type dt."""
    x = rng.uniform(-1, 1, shape)
    if np.iscomplexobj(dt(0)):
        x = x + 1j * rng.uniform(-1, 1, shape)
    return x.astype(dt)


def _factor(A, lower, dt):
    return sl.cholesky(A, lower=lower).astype(dt)


def _check(F1, A1, lower, dt):
    """F1 of dtype dt, triangular, the scaled residual of F1 F1' (or
    F1' F1) against A1 below 30, and F1 SciPy's factor of A1 (real: up to
    signs) within 30 eps n |A1|^(1/2); a complex factor's diagonal real
    and positive."""
    n = A1.shape[0]
    cplx = np.iscomplexobj(F1)
    F = F1.astype(np.complex128 if cplx else np.float64)
    assert F1.dtype == dt
    if lower:
        assert np.all(np.triu(F1, 1) == 0), "not lower triangular"
        G = F @ F.conj().T
    else:
        assert np.all(np.tril(F1, -1) == 0), "not upper triangular"
        G = F.conj().T @ F
    res = np.linalg.norm(G - A1) / (np.linalg.norm(A1) * eps(dt) * n)
    assert res < THRESH, f"residual {res}"
    Fs = sl.cholesky(A1, lower=lower)
    if cplx:
        d = np.diag(F1)
        assert np.all(d.imag == 0) and np.all(d.real > 0), "diagonal"
        diff = np.abs(F - Fs).max()
    else:
        diff = np.abs(np.abs(F) - np.abs(Fs)).max()
    assert diff <= THRESH * eps(dt) * n * np.sqrt(np.abs(A1).max()), diff


def _params_of(dts):
    """The parameters lower, dt (of dts) and backend."""
    def params(f):
        for deco in (pytest.mark.parametrize("lower", [False, True]),
                     pytest.mark.parametrize("dt", dts),
                     pytest.mark.parametrize("backend", BACKENDS)):
            f = deco(f)
        return f
    return params


_rparams = _params_of([np.float64, np.float32])
_cparams = _params_of([np.complex128, np.complex64])
_params = _params_of([np.float64, np.float32, np.complex128, np.complex64])


@_params
@pytest.mark.parametrize("k", [1, 3])
@pytest.mark.parametrize("sign", ["+", "-"])
def test_update(backend, dt, lower, k, sign):
    n = 20
    rng, A = _spd(n, 11, dt)
    F = _factor(A, lower, dt)
    F0 = F.copy()
    Rs = sl.cholesky(A)
    if sign == "+":
        x = _rand(rng, (n, k), dt)
    else:  # x = Rs' z / 2 with |z| = 1 keeps A - x x' definite
        z = _rand(rng, (n, k), A.dtype.type)
        x = 0.5 * Rs.conj().T @ (z / np.linalg.norm(z))
    x = x.astype(dt)
    xv = x[:, 0] if k == 1 else x  # MATLAB's column vector
    F1 = qru.cholesky_update(F, xv, sign, lower=lower, backend=backend)
    x64 = x.astype(A.dtype)
    _check(F1, A + (1 if sign == "+" else -1) * x64 @ x64.conj().T, lower,
           dt)
    assert np.array_equal(F, F0), "input overwritten"


@_params
@pytest.mark.parametrize("where,p", [(w, p) for w in ("start", "middle", "end")
                                     for p in (1, 3)])
def test_insert(backend, dt, lower, where, p):
    n = 16
    rng, A1 = _spd(n + p, 12, dt)
    k = {"start": 0, "middle": n // 2, "end": n}[where]
    keep = [i for i in range(n + p) if not k <= i < k + p]
    A = A1[np.ix_(keep, keep)]
    F = _factor(A, lower, dt)
    F0 = F.copy()
    x = A1[:, k:k + p].astype(dt)
    F1 = qru.cholesky_insert(F, k, x[:, 0] if p == 1 else x, lower=lower,
                             backend=backend)
    assert F1.shape == (n + p, n + p)
    _check(F1, A1, lower, dt)
    assert np.array_equal(F, F0)


@_params
@pytest.mark.parametrize("where,p", [(w, p) for w in ("start", "middle", "end")
                                     for p in (1, 3)])
def test_delete(backend, dt, lower, where, p):
    n = 18
    rng, A = _spd(n, 13, dt)
    k = {"start": 0, "middle": n // 2, "end": n - p}[where]
    F = _factor(A, lower, dt)
    F0 = F.copy()
    F1 = qru.cholesky_delete(F, k, p, lower=lower, backend=backend)
    keep = [i for i in range(n) if not k <= i < k + p]
    _check(F1, A[np.ix_(keep, keep)], lower, dt)
    assert np.array_equal(F, F0)


def _batch(lead, n, k, dt, lower, sign, seed):
    """Factors of shape lead + (n, n), their matrices and downdatable x
    (lead + (n, k)), SciPy's factors of the updated matrices."""
    rng = np.random.default_rng(seed)
    cnt = int(np.prod(lead))
    F = np.empty((cnt, n, n), dt)
    X = np.empty((cnt, n, k), dt)
    A1 = np.empty((cnt, n, n))
    for b in range(cnt):
        B = rng.uniform(-1, 1, (2 * n, n))
        A = (B.T @ B).astype(dt).astype(np.float64)
        Rs = sl.cholesky(A)
        z = rng.uniform(-1, 1, (n, k))
        x = (0.5 * Rs.T @ (z / np.linalg.norm(z))).astype(dt)
        F[b] = _factor(A, lower, dt)
        X[b] = x
        x64 = x.astype(np.float64)
        A1[b] = A + (1 if sign == "+" else -1) * x64 @ x64.T
    return (F.reshape(lead + (n, n)), X.reshape(lead + (n, k)),
            A1.reshape(lead + (n, n)))


@_rparams
@pytest.mark.parametrize("lead,k", [((5,), 1), ((2, 3), 3), ((1,), 2)])
@pytest.mark.parametrize("sign", ["+", "-"])
def test_update_batch(backend, dt, lower, lead, k, sign):
    """Leading batch dimensions (SciPy's batched shapes): every factor as
    the single update gives it; x of shape (..., n) for k = 1."""
    n = 9
    F, X, A1 = _batch(lead, n, k, dt, lower, sign, 21)
    F0 = F.copy()
    xv = X[..., 0] if k == 1 else X
    F1 = qru.cholesky_update(F, xv, sign, lower=lower, backend=backend)
    assert F1.shape == F.shape and F1.dtype == dt
    assert np.array_equal(F, F0), "input overwritten"
    for i in np.ndindex(lead):
        tri = np.tril if lower else np.triu
        _check(tri(F1[i]), A1[i], lower, dt)


@pytest.mark.parametrize("backend", BACKENDS)
def test_update_batch_failure(backend):
    """A batch with one downdate that loses definiteness raises
    LinAlgError naming it, and changes nothing."""
    F, X, _ = _batch((4,), 8, 1, np.float64, False, "-", 22)
    X[2] = 2.0 * F[2].T @ np.eye(8)[:, :1]  # twice R's first row: indefinite
    F0 = F.copy()
    with pytest.raises(np.linalg.LinAlgError, match=r"1 of 4 .*\(2,\)"):
        qru.cholesky_update(F, X, "-", backend=backend)
    assert np.array_equal(F, F0)
    with pytest.raises(ValueError, match="shape"):
        qru.cholesky_update(F, X[:3], "-", backend=backend)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("overwrite", [False, True])
def test_failed_downdate_changes_nothing(backend, overwrite):
    """A downdate that loses definiteness raises LinAlgError and leaves the
    factor as it was, in place or not."""
    rng, A = _spd(12, 14, np.float64)
    R = np.asfortranarray(sl.cholesky(A))
    R0 = R.copy()
    z = rng.uniform(-1, 1, 12)
    x = 2.0 * R.T @ (z / np.linalg.norm(z))  # A - x x' is indefinite
    with pytest.raises(np.linalg.LinAlgError, match="qru_chol_update"):
        qru.cholesky_update(R, x, "-", overwrite_R=overwrite, backend=backend)
    assert np.array_equal(R, R0)


def test_overwrite_in_place():
    """overwrite_R with a column-major float64 factor on the CPU updates it
    in place and returns it; a C-ordered one is converted (a copy)."""
    rng, A = _spd(10, 15, np.float64)
    R = np.asfortranarray(sl.cholesky(A))
    x = rng.uniform(-1, 1, 10)
    R1 = qru.cholesky_update(R, x, overwrite_R=True)
    assert R1 is R
    _check(R, A + np.outer(x, x), False, np.float64)
    Rc = np.ascontiguousarray(sl.cholesky(A))
    Rc0 = Rc.copy()
    R2 = qru.cholesky_update(Rc, x, overwrite_R=True)
    assert np.array_equal(Rc, Rc0) and R2 is not Rc
    _check(R2, A + np.outer(x, x), False, np.float64)


def test_not_definite_insert_raises():
    rng, A = _spd(8, 16, np.float64)
    R = sl.cholesky(A)
    x = np.concatenate([A[:, 0], [A[0, 0] * 0.5]])  # a copy of row 0, smaller
    with pytest.raises(np.linalg.LinAlgError):
        qru.cholesky_insert(R, 8, x)


def test_errors():
    rng, A = _spd(6, 17, np.float64)
    R = sl.cholesky(A)
    x = rng.uniform(-1, 1, 6)
    with pytest.raises(ValueError, match="sign"):
        qru.cholesky_update(R, x, "*")
    with pytest.raises(ValueError, match="square"):
        qru.cholesky_update(R[:, :5], x)
    with pytest.raises(ValueError, match="shape"):
        qru.cholesky_update(R, x[:5])
    with pytest.raises(ValueError, match="shape"):
        qru.cholesky_insert(R, 0, x)  # needs n + 1 = 7 entries
    with pytest.raises(ValueError, match="k must"):
        qru.cholesky_insert(R, 7, np.append(x, 9.0))
    with pytest.raises(ValueError):
        qru.cholesky_delete(R, 5, 2)
    with pytest.raises(ValueError):
        qru.cholesky_delete(R, 0, 6)  # nothing would stay
    if np.dtype(np.clongdouble).itemsize > 16:
        with pytest.raises(TypeError, match="complex"):
            qru.cholesky_update(R.astype(np.clongdouble), x)
    with pytest.raises(TypeError, match="dtype"):
        qru.cholesky_update(R, np.array(["a"] * 6))
    bad = x.copy()
    bad[2] = np.inf
    with pytest.raises(ValueError, match="non-finite"):
        qru.cholesky_update(R, bad)


# ---- complex factors -------------------------------------------------------

@_cparams
@pytest.mark.parametrize("sign", ["+", "-"])
def test_complex_batch(backend, dt, lower, sign):
    """The batched update (one library call), insertion and deletion of
    complex factors of shape (2, 3, n, n), page by page against SciPy."""
    n, k, lead = 9, 2, (2, 3)
    rng = np.random.default_rng(23)
    cnt = 6
    F = np.empty((cnt, n, n), dt)
    X = np.empty((cnt, n, k), dt)
    A1 = []
    for b in range(cnt):
        _, A = _spd(n, 100 + b, dt)
        Rs = sl.cholesky(A)
        z = _rand(rng, (n, k), np.complex128)
        x = (0.5 * Rs.conj().T @ (z / np.linalg.norm(z))).astype(dt)
        F[b] = sl.cholesky(A, lower=lower).astype(dt)
        X[b] = x
        x64 = x.astype(np.complex128)
        A1.append(A + (1 if sign == "+" else -1) * x64 @ x64.conj().T)
    F, X = F.reshape(lead + (n, n)), X.reshape(lead + (n, k))
    F1 = qru.cholesky_update(F, X, sign, lower=lower, backend=backend)
    assert F1.shape == lead + (n, n)
    for b in range(cnt):
        _check(F1.reshape(cnt, n, n)[b], A1[b], lower, dt)
    # insertion of p = 2 rows at k = 4 in every page, then their deletion
    p, kk = 2, 4
    Ai, Fd, C = [], np.empty((cnt, n, n), dt), np.empty((cnt, n + p, p), dt)
    for b in range(cnt):
        _, A = _spd(n + p, 200 + b, dt)
        keep = [i for i in range(n + p) if not kk <= i < kk + p]
        Fd[b] = sl.cholesky(A[np.ix_(keep, keep)], lower=lower).astype(dt)
        C[b] = A[:, kk:kk + p].astype(dt)
        Ai.append(A)
    Fi = qru.cholesky_insert(Fd.reshape(lead + (n, n)), kk,
                             C.reshape(lead + (n + p, p)), lower=lower,
                             backend=backend)
    assert Fi.shape == lead + (n + p, n + p) and Fi.dtype == dt
    for b in range(cnt):
        _check(Fi.reshape(cnt, n + p, n + p)[b], Ai[b], lower, dt)
    Fb = qru.cholesky_delete(Fi, kk, p, lower=lower, backend=backend)
    for b in range(cnt):
        keep = [i for i in range(n + p) if not kk <= i < kk + p]
        _check(Fb.reshape(cnt, n, n)[b], Ai[b][np.ix_(keep, keep)], lower,
               dt)


def test_complex_dtype_rule():
    """NumPy's promotion: float32 with complex64 computes in complex64,
    float64 with complex64 in complex128; an indefinite complex downdate
    raises LinAlgError and changes nothing."""
    rng, A = _spd(8, 24, np.complex64)
    R = sl.cholesky(A.real + 40 * np.eye(8))  # real, definite
    x = _rand(rng, 8, np.complex64)
    R1 = qru.cholesky_update(R.astype(np.float32), x)
    assert R1.dtype == np.complex64
    _check(R1, R.T @ R + np.outer(x.astype(np.complex128),
                                  x.astype(np.complex128).conj()),
           False, np.complex64)
    assert qru.cholesky_update(R, x).dtype == np.complex128
    F = sl.cholesky(A).astype(np.complex128)
    F0 = F.copy()
    with pytest.raises(np.linalg.LinAlgError):
        qru.cholesky_update(F, 10 * x.astype(np.complex128), "-",
                            overwrite_R=True)
    assert np.array_equal(F, F0)
