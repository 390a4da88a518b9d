"""Orthogonal matching pursuit: scikit-learn's
``sklearn.linear_model.orthogonal_mp`` on the C library's ``qru_omp``,
which grows the QR factorisation of the chosen columns by the column
updates instead of refactorising (or, in the Gram form, the Cholesky
factor of their Gram matrix by appended columns), with X, y and the
residual in the backend's memory."""
from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np

from . import _qru
from ._arrays import framework, prepare

#: scikit-learn's warning when the pursuit ends before its stopping rule
PREMATURE = ("Orthogonal matching pursuit ended prematurely due to linear"
             " dependence in the dictionary. The requested precision might"
             " not have been met.")


def _check_args(X, y, n_nonzero_coefs, tol, precompute):
    """scikit-learn's argument rules (ValueError as its
    InvalidParameterError is one)."""
    if n_nonzero_coefs is not None and (
            isinstance(n_nonzero_coefs, bool) or
            not isinstance(n_nonzero_coefs, Integral) or n_nonzero_coefs < 1):
        raise ValueError("n_nonzero_coefs must be an int >= 1 or None; it is "
                         f"{n_nonzero_coefs!r}")
    if tol is not None and (isinstance(tol, bool) or
                            not isinstance(tol, Real) or not tol >= 0):
        raise ValueError(f"tol must be a number >= 0 or None; it is {tol!r}")
    if not (precompute in (True, False) or precompute == "auto"):
        raise ValueError("precompute must be True, False or 'auto'; it is "
                         f"{precompute!r}")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); it is "
                         f"{tuple(X.shape)}")
    if y.ndim not in (1, 2) or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be ({X.shape[0]},) or ({X.shape[0]}, "
                         f"n_targets); it is {tuple(y.shape)}")


def orthogonal_mp(X: Any, y: Any, *, n_nonzero_coefs: int | None = None,
                  tol: float | None = None, precompute: bool | str = False,
                  copy_X: bool = True, return_path: bool = False,
                  return_n_iter: bool = False,
                  backend: str | None = None) -> Any:
    """Orthogonal matching pursuit (OMP), as scikit-learn's
    ``orthogonal_mp``: for each column of y, greedily picks the column of
    X with the largest ``|X' r|`` (columns not normalised; the lowest
    index among ties) and refits y on the chosen columns by least
    squares, until ``n_nonzero_coefs`` columns are chosen or, with
    ``tol``, until ``||r||^2 <= tol`` (tol overrides n_nonzero_coefs).

    MATLAB: ``x = zeros(m, 1); x(S) = X(:, S) \\ y`` with S the greedily
    chosen support.

    ``X`` is (n_samples, n_features), ``y`` (n_samples,) or (n_samples,
    n_targets), of float64 or float32 (float32 when both are; others are
    converted): NumPy arrays (or anything ``numpy.asarray`` takes), or
    CuPy, PyTorch and JAX arrays on a CUDA device, which run on the
    'cuda' backend without a copy through the host (the rules of
    ``qru._arrays``, as for ``qru.nnls``: X and y stay on the device,
    the pursuit runs on the producer's current stream).  ``n_nonzero_coefs`` defaults to
    ``max(int(0.1 * n_features), 1)``.  Returns ``coef``, an array of
    the producer's framework (on X's device for device arrays), shape
    (n_features,) or (n_features, n_targets) (squeezed, as
    scikit-learn's), with ``return_path`` the
    coefficients after each step along a last axis, and with
    ``return_n_iter`` also the number of columns chosen (an int, or a list
    per target).  Where the pursuit ends before its rule (the next column
    is numerically dependent on the chosen ones, y lies in their span to
    rounding, or y = 0) it warns as scikit-learn does (RuntimeWarning)
    and returns the coefficients so far; at most min(n_samples,
    n_features) columns can be independent, so larger counts end so.

    ``precompute`` picks how the correlations ``X' r`` are formed:
    False (scikit-learn's default), from the residual each step (2 n m
    flops a step); True, scikit-learn's Gram form: ``G = X' X`` once,
    then ``X' y`` and the residual updated by the new column of the
    chosen columns' orthonormal basis, with the argmax and the stopping
    rules on the backend's device ((m + n) |S| flops a step, m^2
    elements of memory); 'auto', the one the library's cost model prices faster on
    the backend (the Gram form only within its memory budget,
    ``QRU_OMP_GRAM_MIB``), where scikit-learn's 'auto' takes the Gram
    form when n_samples > n_features.  Both choose the same columns and
    give the same coefficients up to rounding.

    Differences from scikit-learn: the result has the computed type
    (float32 for float32 data; scikit-learn's is float64); ``copy_X`` is
    accepted and has no effect (qru never writes X; with
    ``precompute=True`` qru forms G for each target, where scikit-learn
    forms it once); ``backend`` runs the pursuit of host
    arrays on 'cpu' (the default), 'cuda' or 'opencl' (they are copied to
    the device once a call); with ``return_path`` and targets that stop
    after different counts, the path has the largest count of steps
    (zero after a target's last).  Non-finite values raise ValueError.
    """
    if framework(X).name == "numpy":  # (prepare() rejects a mix)
        X = np.asarray(X)
    if framework(y).name == "numpy":
        y = np.asarray(y)
    _check_args(X, y, n_nonzero_coefs, tol, precompute)
    n, m = X.shape
    if n == 0 or m == 0:
        raise ValueError(f"X is {n} x {m}: it needs a sample and a feature")
    if n_nonzero_coefs is None and tol is None:
        n_nonzero_coefs = max(int(0.1 * m), 1)
    if tol is None and n_nonzero_coefs > m:
        raise ValueError(
            "The number of atoms cannot be more than the number of features")
    # scikit-learn's cap; min(n, m) columns at most are independent
    cap = m if tol is not None else int(n_nonzero_coefs)
    ncoef = min(cap, n)
    P = prepare((X, y if y.ndim == 2 else y.reshape(-1, 1)), ("X", "y"),
                backend)
    X, Y = P.arrays
    t = Y.shape[1]
    # precompute: False the residual form, True the Gram form, 'auto'
    # the one the library's cost model prices faster (QRU_TUNE_OMP_GRAM)
    form = 0 if precompute == "auto" else 2 if precompute else 1
    res = _qru.omp(P.ctx, X, [Y[:, j:j + 1] for j in range(t)], ncoef,
                   -1.0 if tol is None else float(tol), bool(return_path),
                   True, form)
    dt = P.dtype
    n_iters = []
    for st, _, _, sup, _, _ in res:
        # more columns asked than n: the (n + 1)-th would be dependent;
        # with tol, n columns leave r = 0 (tol met) in exact arithmetic
        if st > 0 or (tol is None and len(sup) == ncoef < cap):
            warnings.warn(PREMATURE, RuntimeWarning, stacklevel=2)
        n_iters.append(len(sup))
    # assembled where the results lie (the host or X's device)
    if return_path:
        steps = max(n_iters, default=0)
        coef = P.fw.zeros((m, t, steps), dt, "C")
        for j, (_, _, path, sup, _, _) in enumerate(res):
            k = len(sup)
            if k:  # column s of path: the first s + 1 chosen, then zeros
                coef[sup, j, :k] = P.part(path)[:k, :k]
    else:
        coef = P.fw.zeros((m, t), dt, "C")
        for j, (_, c, _, _, _, _) in enumerate(res):
            coef[:, j:j + 1] = P.part(c)
    coef = P.finish(coef.squeeze())
    if return_n_iter:
        return coef, (n_iters[0] if t == 1 else n_iters)
    return coef
