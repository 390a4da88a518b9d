"""Solvers on the updates: active-set methods that hold their active
columns as a QR factorisation updated one column at a time (the C API's
Solvers section)."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _qru
from ._arrays import prepare


def nnls(A: Any, b: Any, maxiter: int | None = None, *,
         atol: float | None = None, backend: str | None = None,
         stream: int | None = None) -> tuple[Any, float]:
    """Solve ``argmin_x ||A x - b||_2`` for ``x >= 0``: SciPy's
    ``scipy.optimize.nnls`` (arguments, results, errors), by the
    Lawson-Hanson active-set algorithm on qru's column updates.

    MATLAB: ``x = lsqnonneg(A, b); rnorm = norm(A*x - b)``

    ``A`` is (m, n) of any shape, ``b`` (m,) or (m, 1).  Returns ``(x,
    rnorm)``: ``x`` (n,) and ``rnorm = ||A x - b||_2`` (a float).
    ``maxiter`` caps the steps (a column entering or leaving the active
    set); ``None`` or 0 is SciPy's default, 3 n.  Reaching it raises
    ``RuntimeError("Maximum number of iterations reached.")``, as SciPy
    does.

    ``atol``: a column enters while its entry of the dual vector
    ``A.T @ (b - A @ x)`` exceeds it (MATLAB's ``TolX``; SciPy's own
    algorithm uses 0, and its ``atol`` is deprecated and unused).  The
    default, ``None``, is the rounding level of each entry,
    ``10 max(m, n) eps ||A[:, j]|| ||b||``.

    The active columns are held as a thin QR factorisation updated as
    they enter and leave (``qru_nnls`` in the C API), and A and b stay in
    the memory of the backend: NumPy arrays on the CPU (or ``backend=``
    'opencl' / 'cuda' through copies), CuPy, PyTorch and JAX arrays on a
    CUDA device without copies (the rules of ``qru._arrays``).  The
    element type follows the package's rule: float32 when A and b are
    both float32 (SciPy computes in float64), else float64; ``x`` is an
    array of the producer's framework.  A NaN or an infinity in A or b
    raises ValueError (SciPy's ``asarray_chkfinite`` does too).  Where the
    solution is not unique (dependent columns), x may differ from
    SciPy's, ``A @ x`` and ``rnorm`` do not.
    """
    if maxiter is not None and int(maxiter) != maxiter:
        raise ValueError(f"maxiter must be an integer; it is {maxiter!r}")
    if atol is not None and not atol >= 0:
        raise ValueError(f"atol must be >= 0; it is {atol!r}")
    P = prepare((A, b), ("A", "b"), backend, stream)
    A, b = P.arrays
    fw = P.fw
    if A.ndim != 2:
        raise ValueError(f"Expected a 2D array, but the shape of A is "
                         f"{tuple(A.shape)}")
    if b.ndim > 2 or (b.ndim == 2 and b.shape[1] != 1) or b.ndim == 0:
        raise ValueError("Expected a 1D array (or 2D with one column), but "
                         f"the shape of b is {tuple(b.shape)}")
    m, n = A.shape
    if b.shape[0] != m:
        raise ValueError(f"Incompatible dimensions. The first dimension of "
                         f"A is {m}, while the shape of b is "
                         f"{(b.shape[0],)}")
    if b.ndim == 1:
        b = fw.reshape2(b, (m, 1))
    if m == 0 or n == 0:
        # no rows: x = 0 fits exactly; no columns: x is empty, r = b
        bh = np.asarray(_host(b), dtype=np.float64)
        if not np.isfinite(bh).all():
            raise ValueError("qru: b holds a NaN or an infinity")
        return fw.zeros((n, 1), P.dtype)[:, 0], float(np.linalg.norm(bh))
    x, _, rnorm, _, _, st = _qru.nnls(
        P.ctx, A, b, int(maxiter or 0), -1.0 if atol is None else float(atol))
    if st > 0:
        raise RuntimeError("Maximum number of iterations reached.")
    return P.out(x)[:, 0], float(rnorm)


def _host(x):
    """x as a host array (CuPy's get, PyTorch's cpu, JAX as it is)."""
    if hasattr(x, "get") and not isinstance(x, np.ndarray):
        return x.get()
    if hasattr(x, "cpu"):
        return x.cpu()
    return x
