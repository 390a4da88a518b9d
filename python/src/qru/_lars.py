"""Least angle regression and the Lasso path: scikit-learn's
``sklearn.linear_model.lars_path`` on the C library's ``qru_lars``, which
grows and shrinks the QR factorisation of the active columns by the
column updates instead of refactorising, with X and y in the backend's
memory."""
from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Any

import numpy as np

from . import _qru
from ._arrays import framework, prepare

#: scikit-learn's default eps (the machine epsilon of float64)
EPS = float(np.finfo(float).eps)

#: scikit-learn's warning where the Lasso's alpha grows (rounding
#: dominates the remaining correlations) and the path stops there
EARLY_STOP = ("Early stopping the lars path, as the residues are small and"
              " the current value of alpha is no longer well controlled."
              " %i iterations, alpha=%.3e, previous alpha=%.3e, with an"
              " active set of %i regressors.")


#: scikit-learn's warning where a column is dropped as degenerate (its
#: first sentence; qru reports the count once a path)
DEGENERATE = ("Regressors in active set degenerate. qru.lars_path dropped %i"
              " regressor(s) whose Cholesky pivot (|R(k,k)| of the active"
              " columns' QR) was below 1e-7 or whose column the QR rank rule"
              " found dependent on the active ones.")


def _convergence_warning() -> type:
    """scikit-learn's ConvergenceWarning where it is installed (so that
    code catching it catches qru's), else UserWarning (its base)."""
    try:
        from sklearn.exceptions import ConvergenceWarning
    except ImportError:
        return UserWarning
    return ConvergenceWarning


def _is_bool(v) -> bool:
    return isinstance(v, (bool, np.bool_))


def _check_args(X, y, max_iter, alpha_min, method, eps, verbose, flags):
    """scikit-learn's argument rules (ValueError as its
    InvalidParameterError is one)."""
    if isinstance(max_iter, bool) or not isinstance(max_iter, Integral) \
            or max_iter < 0:
        raise ValueError(f"max_iter must be an int >= 0; it is {max_iter!r}")
    if isinstance(alpha_min, bool) or not isinstance(alpha_min, Real) or \
            not 0 <= alpha_min < np.inf:
        raise ValueError("alpha_min must be a finite number >= 0; it is "
                         f"{alpha_min!r}")
    if not isinstance(method, str) or method not in ("lar", "lasso"):
        raise ValueError(f"method must be 'lar' or 'lasso'; it is {method!r}")
    if eps is not None and (isinstance(eps, bool) or
                            not isinstance(eps, Real) or not eps > 0):
        raise ValueError(f"eps must be a number > 0 or None; it is {eps!r}")
    if not (_is_bool(verbose) or isinstance(verbose, Integral)):
        raise ValueError(f"verbose must be an int or a bool; it is "
                         f"{verbose!r}")
    for name, v in flags.items():
        if not _is_bool(v):
            raise ValueError(f"{name} must be a bool; it is {v!r}")
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features); it is "
                         f"{tuple(X.shape)}")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be ({X.shape[0]},); it is "
                         f"{tuple(y.shape)}")


def _probe_tol(X, *dtypes) -> float:
    """The rounding allowed between a product of X given by the caller
    and qru's: n_samples roundings of the coarsest type, 16 times."""
    eps = max(np.finfo(d).eps if np.issubdtype(d, np.floating)
              else np.finfo(np.float64).eps for d in dtypes)
    return 16.0 * max(X.shape) * float(eps)


def _given_products(X, y, Gram, Xy):
    """Gram (an array) and Xy, where the caller gives them with X and y
    (as scikit-learn's estimators do with their precompute), must be
    X' X and X' y to rounding: qru computes the path from X and y and
    uses neither, so a product of something else (a Gram matrix with a
    ridge, a Xy of another y) raises NotImplementedError instead of being
    ignored.  Gram is checked on a fixed random vector v (||G v - X' (X
    v)|| against ||X||_F^2 ||v||), Xy in full.  Returns X, converted to
    float64 where X and y are float32 and a given product is not
    (scikit-learn's result type: float32 only where every input is)."""
    given = [] if Gram is None or isinstance(Gram, (bool, str)) else [Gram]
    if (not given and Xy is None) or X.ndim != 2 or y.ndim != 1 or \
            y.shape[0] != X.shape[0] or not X.size or \
            X.dtype.kind not in "biuf" or y.dtype.kind not in "biuf":
        return X  # nothing given, or _check_args and prepare say what is
        # wrong with X and y
    wide = [X.dtype, y.dtype]
    Xd = X.astype(np.float64)
    nX = float(np.linalg.norm(Xd))
    if given:
        G = np.asarray(Gram)
        m = X.shape[1]
        if G.shape != (m, m):
            raise ValueError(f"Gram must be ({m}, {m}) for X {X.shape}; "
                             f"it is {G.shape}")
        v = np.random.default_rng(0).standard_normal(m)
        d = G.astype(np.float64) @ v - Xd.T @ (Xd @ v)
        if not np.all(np.isfinite(d)):
            raise ValueError("X or Gram holds a NaN or an infinity")
        if not np.linalg.norm(d) <= _probe_tol(X, G.dtype, X.dtype) * \
                nX * nX * np.linalg.norm(v):
            raise NotImplementedError(
                "qru.lars_path: Gram is not X' X (qru_lars computes the "
                "path from X and cannot use another Gram matrix)")
        wide.append(G.dtype)
    if Xy is not None:
        c = np.asarray(Xy)
        if c.shape != (X.shape[1],):
            raise ValueError(f"Xy must be ({X.shape[1]},); it is {c.shape}")
        d = c.astype(np.float64) - Xd.T @ y.astype(np.float64)
        if not np.all(np.isfinite(d)):
            raise ValueError("X, y or Xy holds a NaN or an infinity")
        if not np.linalg.norm(d) <= _probe_tol(X, c.dtype, X.dtype) * \
                nX * float(np.linalg.norm(y.astype(np.float64))):
            raise NotImplementedError(
                "qru.lars_path: Xy is not X' y (qru_lars computes the path "
                "from X and y and cannot use another Xy)")
        wide.append(c.dtype)
    if X.dtype == np.float32 and y.dtype == np.float32 and \
            any(d != np.float32 for d in wide):
        return Xd
    return X

def lars_path(X: Any, y: Any, Xy: Any = None, *, Gram: Any = None,
              max_iter: int = 500, alpha_min: float = 0,
              method: str = "lar", copy_X: bool = True,
              eps: float | None = EPS, copy_Gram: bool = True,
              verbose: int = 0, return_path: bool = True,
              return_n_iter: bool = False, positive: bool = False,
              backend: str | None = None) -> Any:
    """Least angle regression (``method='lar'``) or the Lasso path
    (``method='lasso'``, by homotopy), as scikit-learn's ``lars_path``:
    the knots of the path of ``min ||y - X b||^2 / (2 n_samples) + alpha
    ||b||_1`` (the Lasso) or of LAR, from ``alpha = max |X' y| /
    n_samples`` down to ``alpha_min`` or until ``max_iter`` steps or
    ``min(n_samples, n_features)`` active variables.  Step for step as
    scikit-learn (the same entering variable, ties and order included,
    the same steps, the same stopping rules); the active columns are held
    as a QR factorisation updated by a column at a time.

    ``positive=True`` (``method='lasso'`` only; with 'lar' scikit-learn's
    ValueError) constrains the coefficients to be >= 0: only positive
    correlations enter, and a coefficient that reaches 0 leaves.  Where
    the path runs to its end (alpha 0) its last coefficients are the
    non-negative least-squares solution on the active columns;
    scikit-learn's there are interpolated towards a negative alpha that
    it reports as 0 (the knots before agree).

    MATLAB: ``coefs = lasso(X, y, 'Lambda', alphas, 'Standardize',
    false, 'Intercept', false)`` gives the Lasso path's columns at its
    knots ``alphas``.

    ``X`` is (n_samples, n_features), ``y`` (n_samples,), of float64 or
    float32 (float32 when both are; others are converted): NumPy arrays
    (or anything ``numpy.asarray`` takes), or CuPy, PyTorch and JAX
    arrays on a CUDA device, which run on the 'cuda' backend without a
    copy through the host (the rules of ``qru._arrays``, as for
    ``qru.nnls``: X and y stay on the device, the path runs on the
    producer's current stream).
    Returns ``alphas`` (n_alphas + 1,) (``max |c_j| / n_samples`` at
    each step, decreasing), ``active`` (the final active set, a list in
    order of entry) and ``coefs`` (n_features, n_alphas + 1), in the
    computed type, arrays of the producer's framework (on X's device for
    device arrays; the library computes alphas on the host, and they are
    copied there), and with
    ``return_n_iter`` also ``n_iter``; with ``return_path=False``,
    ``alpha`` (1,), ``active`` and ``coef`` (n_features,) of the last
    step.  Where the Lasso's alpha grows (rounding dominates) the path
    stops with scikit-learn's ConvergenceWarning; where the equiangular
    direction is not defined (active columns numerically dependent beyond
    the pivot rule) it stops at the step before with a ConvergenceWarning
    carrying the library's reason.  ConvergenceWarning is scikit-learn's
    where it is installed, else UserWarning.

    ``Gram`` and ``Xy`` (scikit-learn's precomputed X' X and X' y, which
    its estimators pass) are accepted with X and y where they are those
    products to rounding (Gram checked on a random vector, Xy in full) and
    are not used: qru computes the path from X and y; a Gram or Xy of
    something else raises NotImplementedError; X = None raises
    scikit-learn's ValueError
    (Gram alone is its ``lars_path_gram``).  Other differences:
    ``eps`` (the floor of scikit-learn's Cholesky pivots) is accepted up
    to 1e-7, qru's pivot rule, where it has no effect, and raises
    NotImplementedError above; ``copy_X``, ``copy_Gram`` and ``verbose``
    are accepted and have no effect (qru never writes X, and prints
    nothing); where columns are dropped as degenerate (pivot below 1e-7,
    or dependent by the QR rank rule on the columns scaled to about unit
    norm) qru warns once with scikit-learn's first sentence
    ("Regressors in active set degenerate.") and their count, where
    scikit-learn warns a column; ``backend`` runs the path of host
    arrays on 'cpu' (the default), 'cuda' or 'opencl' (X and y are copied
    to the device once a call); with device arrays, a Gram or Xy array
    raises NotImplementedError (they are checked against X on the
    host).  In degenerate cases (ties, dependent columns,
    several coefficients crossing zero at once) qru follows the rules in
    qru.h's ``qru_lars``, which depart from scikit-learn where it has a
    bug.  Non-finite values raise ValueError.
    """
    if method == "lar" and _is_bool(positive) and positive:
        raise ValueError(
            "Positive constraint not supported for 'lar' coding method.")
    if X is None:
        # scikit-learn's errors: lars_path needs X (its lars_path_gram
        # takes Gram and Xy alone)
        if Gram is None or Gram is False:
            raise ValueError("X and Gram cannot both be unspecified.")
        raise ValueError("X cannot be None if Gram is not None: qru.lars_path "
                         "computes the path from X and y")
    if y is None:
        raise ValueError("qru.lars_path needs y")
    host = [framework(a).name == "numpy" for a in (X, y)]
    X = np.asarray(X) if host[0] else X  # (prepare() rejects a mix)
    y = np.asarray(y) if host[1] else y
    if all(host):
        X = _given_products(X, y, Gram, Xy)
    elif (Gram is not None and not isinstance(Gram, (bool, str))) or \
            Xy is not None:
        raise NotImplementedError(
            "qru.lars_path: Gram and Xy are checked against X on the host; "
            "with device arrays give neither (qru computes the path from X "
            "and y)")
    _check_args(X, y, max_iter, alpha_min, method, eps, verbose,
                {"copy_X": copy_X, "copy_Gram": copy_Gram,
                 "return_path": return_path, "return_n_iter": return_n_iter,
                 "positive": positive})
    if eps is not None and eps > 1e-7:
        raise NotImplementedError(f"qru.lars_path: eps = {eps!r} > 1e-7 is "
                                  "not supported (qru_lars's pivot rule is "
                                  "1e-7)")
    n, m = X.shape
    if n == 0 or m == 0:
        raise ValueError(f"X is {n} x {m}: it needs a sample and a feature")
    P = prepare((X, y.reshape(-1, 1)), ("X", "y"), backend)
    Xc, Yc = P.arrays
    st, alphas, active, coefs, n_iter, why, dropped = _qru.lars(
        P.ctx, Xc, Yc, method == "lasso", bool(positive), int(max_iter),
        float(alpha_min))
    dt = P.dtype
    alphas = np.asarray(alphas, dt)
    coefs = P.part(coefs)[:, :n_iter + 1]  # (X's type)
    active = [int(j) for j in active]
    if dropped:
        warnings.warn(DEGENERATE % dropped, _convergence_warning(),
                      stacklevel=2)
    if st > 0:
        warnings.warn(f"qru.lars_path: {why}", _convergence_warning(),
                      stacklevel=2)
    elif method == "lasso" and n_iter > 0 and alphas[-2] < alphas[-1]:
        warnings.warn(EARLY_STOP % (n_iter, alphas[-1], alphas[-2],
                                    len(active)),
                      _convergence_warning(), stacklevel=2)
    if return_path:
        out = (P.host_out(alphas), active, P.finish(coefs))
    else:
        out = (P.host_out(alphas[-1:].copy()), active,
               P.finish(P.fw.copy(coefs[:, -1:])[:, 0]))
    return out + (n_iter,) if return_n_iter else out
