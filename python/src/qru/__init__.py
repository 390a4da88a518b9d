"""qru: updating QR factorisations when rows or columns are added or removed.

The functions follow SciPy's ``scipy.linalg.qr_insert`` and ``qr_delete``
(argument names, shapes, results) and run on the qru C library, on the CPU
(LAPACK) or, for NumPy arrays copied to the device, a GPU backend.

Arrays: NumPy arrays (or anything ``numpy.asarray`` takes) of float64 or
float32, any memory order; float32 stays float32 when every input is
float32, otherwise everything is computed in float64; integers are
converted to float64; complex input is rejected (TypeError).  The results
are new Fortran-ordered arrays; the inputs are never changed.
"""
from __future__ import annotations

import numpy as _np
import numpy as np
from numpy.typing import ArrayLike

from . import _qru

__all__ = ["qr_insert", "qr_delete", "backends", "device_name", "__version__"]
__version__ = _qru.version()


def backends() -> list[str]:
    """The backends this build of qru has: 'cpu', and 'cuda' / 'opencl'
    where they were built."""
    return list(_qru.backends())


def device_name(backend: str = "cpu") -> str:
    """The device a backend runs on (creates the backend's context)."""
    return _qru.device_name(backend)


def _dtype(*arrays):
    for a in arrays:
        if _np.iscomplexobj(a):
            raise TypeError("qru: complex arrays are not supported")
    if all(a.dtype == _np.float32 for a in arrays):
        return _np.float32
    return _np.float64


def _prep(arrays, check_finite):
    arrs = [_np.asarray(a) for a in arrays]
    dt = _dtype(*arrs)
    out = [_np.asfortranarray(a, dtype=dt) for a in arrs]
    if check_finite:
        for a in out:
            if not _np.isfinite(a).all():
                raise ValueError("array must not contain infs or NaNs")
    return out


def _run(backend, Q, R, op, k, U, p):
    try:
        return _qru.qr_update(backend, Q, R, op, k, U, p)
    except _qru.QruNumericalError as e:
        raise _np.linalg.LinAlgError(str(e)) from None


def _check_qr(Q, R):
    if Q.ndim != 2 or R.ndim != 2:
        raise ValueError("Q and R must be 2-D arrays")
    M, N = Q.shape[0], R.shape[1]
    full = Q.shape == (M, M) and R.shape[0] == M
    econ = Q.shape == (M, N) and R.shape == (N, N) and M > N
    if not (full or econ):
        raise ValueError(
            f"Q {Q.shape} and R {R.shape} are neither a full factorisation "
            "(Q (M, M), R (M, N)) nor an economic one (Q (M, N), R (N, N), M > N)")
    if M < N or N < 1:
        raise ValueError("qru needs A (M, N) with M >= N >= 1")
    return M, N, econ


def qr_insert(Q: ArrayLike, R: ArrayLike, u: ArrayLike, k: int,
              which: str = "row", rcond: float | None = None,
              overwrite_qru: bool = False, check_finite: bool = True, *,
              backend: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """QR update on row or column insertions (as ``scipy.linalg.qr_insert``).

    If ``A = Q R``, returns ``Q1, R1`` with ``Q1 R1 = A1``, A1 = A with the
    rows (``which='row'``: u of shape (N,) or (p, N)) or columns
    (``which='col'``: u of shape (M,) or (M, p)) inserted before row or
    column k.  MATLAB: ``[Q1, R1] = qr([A(1:k,:); u; A(k+1:end,:)])`` for
    rows, ``qr([A(:,1:k) u A(:,k+1:end)])`` for columns (0-based k).
    Both full (Q (M, M)) and economic (Q (M, N), R (N, N)) factorisations
    are taken, for rows as well as columns.  ``rcond`` and
    ``overwrite_qru`` are accepted for SciPy compatibility; the inputs are
    never overwritten, and an insertion that leaves the columns dependent
    raises ``numpy.linalg.LinAlgError``.  ``backend``: 'cpu' (default),
    'cuda' or 'opencl'.
    """
    del rcond, overwrite_qru
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")
    Q, R, u = _prep((Q, R, u), check_finite)
    M, N, econ = _check_qr(Q, R)
    if which == "row":
        if u.ndim == 1:
            u = u.reshape(1, -1, order="F")
        if u.ndim != 2 or u.shape[1] != N:
            raise ValueError(f"u must be of shape (N,) or (p, N), N = {N}")
        if not 0 <= k <= M:
            raise ValueError(f"k must be in 0 .. {M} for row insertion")
        return _run(backend, Q, R, 2, int(k), _np.asfortranarray(u), 0)
    if u.ndim == 1:
        u = u.reshape(-1, 1, order="F")
    if u.ndim != 2 or u.shape[0] != M:
        raise ValueError(f"u must be of shape (M,) or (M, p), M = {M}")
    if not 0 <= k <= N:
        raise ValueError(f"k must be in 0 .. {N} for column insertion")
    if N + u.shape[1] > M:
        raise ValueError("qru keeps A1 tall: N + p must be <= M")
    return _run(backend, Q, R, 0, int(k), _np.asfortranarray(u), 0)


def qr_delete(Q: ArrayLike, R: ArrayLike, k: int, p: int = 1,
              which: str = "row", overwrite_qr: bool = False,
              check_finite: bool = True, *,
              backend: str = "cpu") -> tuple[np.ndarray, np.ndarray]:
    """QR downdate on row or column deletions (as ``scipy.linalg.qr_delete``).

    If ``A = Q R``, returns ``Q1, R1`` with ``Q1 R1 = A1``, A1 = A without
    its rows (``which='row'``) or columns (``which='col'``) k .. k+p-1.
    MATLAB: ``[Q1, R1] = qr(A([1:k, k+p+1:end], :))`` for rows,
    ``qr(A(:, [1:k, k+p+1:end]))`` for columns (0-based k).  Full and
    economic factorisations; ``overwrite_qr`` is accepted for SciPy
    compatibility (the inputs are never overwritten).  A row deletion that
    leaves an economic factorisation's columns dependent raises
    ``numpy.linalg.LinAlgError``.  ``backend``: 'cpu' (default), 'cuda'
    or 'opencl'.
    """
    del overwrite_qr
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")
    Q, R = _prep((Q, R), check_finite)
    M, N, econ = _check_qr(Q, R)
    if p < 1:
        raise ValueError("p must be >= 1")
    if which == "row":
        if not (0 <= k and k + p <= M):
            raise ValueError(f"rows k .. k+p-1 must lie in 0 .. {M - 1}")
        if M - p < N:
            raise ValueError("qru keeps A1 tall: M - p must be >= N")
        return _run(backend, Q, R, 3, int(k), None, int(p))
    if not (0 <= k and k + p <= N):
        raise ValueError(f"columns k .. k+p-1 must lie in 0 .. {N - 1}")
    if N - p < 1:
        raise ValueError("at least one column must remain")
    return _run(backend, Q, R, 1, int(k), None, int(p))
