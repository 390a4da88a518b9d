"""Cholesky factor updates, modelled on MATLAB's cholupdate and Octave's
cholinsert / choldelete and on the C API (rank-k blocks, both triangles).

A factor is upper triangular R with ``A = R'*R`` (``lower=False``, MATLAB's
``chol(A)``), or lower triangular L with ``A = L*L'`` (``lower=True``,
``chol(A, 'lower')``).  Only the factor's triangle is read; positions are
0-based.  A result that is not positive definite (to the library's
definiteness rule) raises ``numpy.linalg.LinAlgError`` and changes
nothing.

Complex arrays (complex64, complex128) are taken where the backend
computes complex Cholesky updates (the cpu backend; TypeError naming the
backend elsewhere: CUDA and OpenCL rotate real factors only): A is Hermitian
positive definite and ' the conjugate transpose, the factor's diagonal
real and positive.  The element type follows NumPy's promotion: float32
and complex64 alone give complex64, any other mix with a complex array
complex128; real arrays alone follow the package's conversion rule.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import _qru
from ._arrays import (_fw_name, numerical, per_problem, prepare,
                      raise_failed_pages)
from ._batch import batch_of, over_pages


def _lib(fn, *args, raw=False):
    """numerical(fn, *args) (raw: fn(*args)); the library's refusal of the
    arrays' type (QRU_ERR_UNSUPPORTED: complex factors on a backend whose
    Cholesky updates are real only) raised as TypeError with its text."""
    try:
        return fn(*args) if raw else numerical(fn, *args)
    except _qru.QruUnsupportedError as e:
        raise TypeError(str(e)) from None


def _factor(R):
    if R.ndim != 2 or R.shape[0] != R.shape[1] or R.shape[0] < 1:
        raise ValueError(f"R must be a square factor (n, n), n >= 1; it is "
                         f"{tuple(R.shape)}")
    return R.shape[0]


def _block(P, x, rows, what):
    if x.ndim == 1:
        x = P.fw.reshape2(x, (x.shape[0], 1))
    if x.ndim != 2 or x.shape[0] != rows or x.shape[1] < 1:
        raise ValueError(f"x must be of shape ({rows},) or ({rows}, p), "
                         f"p >= 1 ({what}); it is {tuple(x.shape)}")
    return x


def _dtype_of(arrays, names):
    """The element type of a batch of NumPy arrays: with a complex array,
    complex64 when every array is float32 or complex64, else complex128;
    else float32 when every array is float32, else float64 (TypeError
    for non-numbers and other complex types)."""
    arrays = [np.asarray(a) for a in arrays]
    for a, nm in zip(arrays, names):
        if a.dtype.kind not in "fiubc" or (
                a.dtype.kind == "c" and a.dtype.itemsize not in (8, 16)):
            raise TypeError(f"qru: {nm} has dtype {a.dtype}, not a real or "
                            "complex number type qru computes in")
    if any(a.dtype.kind == "c" for a in arrays):
        single = all(a.dtype in (np.float32, np.complex64) for a in arrays)
        return np.complex64 if single else np.complex128
    return np.float32 if all(a.dtype == np.float32 for a in arrays) \
        else np.float64


def _empty(lead, R, n1, arrays):
    """The result of a zero-size batch: lead + (n1, n1), of the element
    type the call computes in (_dtype_of)."""
    return np.zeros(lead + (max(n1, 0),) * 2,
                    _dtype_of(arrays, ("R", "x")[:len(arrays)]))


def cholesky_update(R: Any, x: Any, sign: str = "+", *, lower: bool = False,
                    overwrite_R: bool = False, check_finite: bool = True,
                    rank: Any = None, backend: str | None = None,
                    stream: int | None = None) -> Any:
    """Rank-k update or downdate of a Cholesky factor (MATLAB's cholupdate).

    MATLAB: ``R1 = chol(R'*R + x*x')`` (sign '+') or
    ``R1 = chol(R'*R - x*x')`` (sign '-'); with ``lower=True``
    ``L1 = chol(L*L' +/- x*x', 'lower')``.

    ``x`` has shape (n,) (MATLAB's ``cholupdate(R, x, sign)``) or (n, k)
    (k columns applied in one call).  A downdate that loses positive
    definiteness raises ``numpy.linalg.LinAlgError``.  The result is a new
    array, or with ``overwrite_R=True`` R itself where R is already
    column-major of the computed type in the backend's memory (then R is
    updated in place; on failure it is unchanged).  Its other strict
    triangle is R's.

    Batches (NumPy arrays): R of shape (..., n, n) and x of shape (..., n)
    (vectors: x has fewer dimensions than R) or (..., n, k) (blocks: as
    many dimensions as R or more), the leading dimensions broadcast as
    NumPy's, update every factor in one call of the library
    (``qru_chol_update_batch``); the result has the broadcast batch shape
    and is always a new array (an empty one for a zero-size batch).  If
    any problem fails, ``LinAlgError`` names the failed problems and R is
    unchanged.  ``rank`` (batches only; integers of the batch shape, each
    in 0 .. k): problem i takes the first rank[i] columns of its x (a
    vector: 0 or 1), and a problem of rank 0 keeps its factor as it is
    (``qru_chol_update_batch_ex``); MATLAB: ``R1(:,:,i) = chol(R'*R +/-
    x(:,1:rank(i),i)*x(:,1:rank(i),i)')``.
    """
    if sign not in ("+", "-"):
        raise ValueError("sign must be '+' (update) or '-' (downdate)")
    if batch_of((R, x), (2, _xcore(R, x))) is not None:
        return _update_batch(R, x, 1 if sign == "+" else -1, lower,
                             check_finite, backend, stream, rank)
    if rank is not None:
        raise ValueError("rank is for a batch of factors (R of shape "
                         "(..., n, n) with batch dimensions)")
    P = prepare((R, x), ("R", "x"), backend, stream, allow_complex=True)
    R1, x = P.arrays
    n = _factor(R1)
    x = _block(P, x, n, "n = R's order")
    if not (overwrite_R and P.fw.name != "jax") and not P.fw.fresh(R, R1):
        R1 = P.fw.copy(R1)
    _lib(_qru.chol_update, P.ctx, "L" if lower else "U", R1, x,
         1 if sign == "+" else -1, bool(check_finite))
    return P.fw.back(R1)


def _xcore(R, x):
    """The core dimensions of x beside the factor(s) R: 2 (blocks (..., n,
    k)) when x has as many dimensions as R or more, else 1 (vectors (...,
    n))."""
    return 2 if np.ndim(x) >= np.ndim(R) else 1


def _update_batch(R, x, sign, lower, check_finite, backend, stream,
                  rank=None):
    """cholesky_update of a batch of NumPy arrays, (..., n, n) and
    (..., n) or (..., n, k), the batch dimensions broadcast: the pages,
    each column-major, one after another (the transposed pages
    C-contiguous), seen as an n x (count n) column-major array for the
    library's batch."""
    if _fw_name(R) != "numpy" or _fw_name(x) != "numpy":
        raise TypeError("qru: batched cholesky_update (arguments with batch "
                        "dimensions) takes NumPy arrays")
    R, x = np.asarray(R), np.asarray(x)
    n = R.shape[-1] if R.ndim else 0
    if R.ndim < 2 or R.shape[-2] != n or n < 1:
        raise ValueError(f"R must be a batch of square factors (..., n, n), "
                         f"n >= 1; it is {R.shape}")
    if _xcore(R, x) == 1:
        x = x[..., None]
    if x.ndim < 2 or x.shape[-2] != n or x.shape[-1] < 1:
        raise ValueError(f"x must be of shape (..., {n}) or (..., {n}, k), "
                         f"k >= 1; it is {x.shape}")
    lead = np.broadcast_shapes(R.shape[:-2], x.shape[:-2])
    count, k = math.prod(lead), x.shape[-1]
    ranks = per_problem(rank, lead, k, "rank", "x's columns")
    dt = _dtype_of((R, x), ("R", "x"))
    if count == 0:
        return np.zeros(lead + (n, n), dt)
    R = np.broadcast_to(R, lead + (n, n))
    x = np.broadcast_to(x, lead + (n, k))
    Rt = np.ascontiguousarray(np.swapaxes(R.reshape(count, n, n), 1, 2),
                              dtype=dt)
    Xt = np.ascontiguousarray(np.swapaxes(x.reshape(count, n, k), 1, 2),
                              dtype=dt)
    P = prepare((Rt.reshape(count * n, n).T, Xt.reshape(count * k, n).T),
                ("R", "x"), backend, stream, allow_complex=True)
    F, X = P.arrays
    info = np.asarray(_lib(
        _qru.chol_update_batch, P.ctx, "L" if lower else "U", F, X, count,
        sign, bool(check_finite), ranks, raw=True))
    raise_failed_pages(info, lead, "factors not positive definite after "
                       f"the {'update' if sign > 0 else 'downdate'}")
    out = np.swapaxes(np.asarray(F).T.reshape(count, n, n), 1, 2)
    return np.ascontiguousarray(out).reshape(lead + (n, n))


def cholesky_insert(R: Any, k: int, x: Any, *, lower: bool = False,
                    check_finite: bool = True, backend: str | None = None,
                    stream: int | None = None) -> Any:
    """Factor with p rows and columns inserted (Octave's cholinsert).

    MATLAB (k0 = k + 1, A = R'*R of order n, A1 of order n + p with
    ``A1([1:k, k+p+1:end], [1:k, k+p+1:end]) = A`` and
    ``A1(:, k0:k+p) = x``): ``R1 = chol(A1)``; with ``lower=True``
    ``L1 = chol(A1, 'lower')``.

    ``x`` has shape (n + 1,) (one row and column, as ``cholinsert(R, k0,
    x)``) or (n + p, p): the new columns of A1, of which the diagonal
    block ``x[k:k+p]`` is read in the factor's triangle.  ``k`` (0-based,
    0 <= k <= n) is the position of the first new row.  A1 not positive
    definite raises ``numpy.linalg.LinAlgError``.  The result is a new
    array, its other strict triangle zero.

    Batches: R (..., n, n), k an integer or an array of positions, x
    (..., n + 1) (fewer dimensions than R) or (..., n + p, p), the leading
    dimensions broadcast as NumPy's; the results (..., n + p, n + p).
    NumPy arrays with one integer k: every page in one call of the library
    (``qru_chol_insert_batch``); else one call a page.  Pages not positive
    definite are named by one ``LinAlgError``, and R is unchanged.
    """
    cores = (2, 0, _xcore(R, x))
    if batch_of((R, k, x), cores) is not None:
        if _one_call(k, (R, x)):
            return _insdel_batch(R, k, x, 0, lower, check_finite, backend,
                                 stream)
        return over_pages(
            lambda R, k, x: cholesky_insert(
                R, k, x, lower=lower, check_finite=check_finite,
                backend=backend, stream=stream),
            "cholesky_insert", (R, k, x), cores,
            "insertions not positive definite",
            lambda lead: _empty(lead, R, np.shape(x)[-2 if cores[2] == 2
                                                    else -1], (R, x)))
    P = prepare((R, x), ("R", "x"), backend, stream, allow_complex=True)
    R, x = P.arrays
    n = _factor(R)
    if x.ndim == 1:
        x = P.fw.reshape2(x, (x.shape[0], 1))
    x = _block(P, x, n + x.shape[1], "n + p rows")
    if not 0 <= k <= n:
        raise ValueError(f"k must be in 0 .. {n}")
    uplo = "L" if lower else "U"
    return P.out(_lib(_qru.chol_insert, P.ctx, uplo, R, int(k), x,
                      bool(check_finite)), uplo)


def cholesky_delete(R: Any, k: int, p: int = 1, *, lower: bool = False,
                    check_finite: bool = True, backend: str | None = None,
                    stream: int | None = None) -> Any:
    """Factor with the rows and columns k .. k+p-1 removed (choldelete).

    MATLAB (A = R'*R, i = [1:k, k+p+1:n]): ``R1 = chol(A(i, i))``; with
    ``lower=True`` ``L1 = chol(A(i, i), 'lower')``; for p = 1 Octave's
    ``choldelete(R, k+1)``.

    ``k`` is 0-based, 1 <= p, k + p <= n and at least one row stays.  The
    result is a new array, its other strict triangle zero.

    Batches: R (..., n, n) and k an integer or an array of positions (p
    one integer), the leading dimensions broadcast as NumPy's; the results
    (..., n - p, n - p).  NumPy arrays with one integer k: every page in
    one call of the library (``qru_chol_delete_batch``); else one call a
    page.
    """
    cores = (2, 0)
    if batch_of((R, k), cores) is not None:
        if _one_call(k, (R,)):
            return _insdel_batch(R, k, None, p, lower, check_finite, backend,
                                 stream)
        return over_pages(
            lambda R, k: cholesky_delete(
                R, k, p, lower=lower, check_finite=check_finite,
                backend=backend, stream=stream),
            "cholesky_delete", (R, k), cores, "deletions failed",
            lambda lead: _empty(lead, R, np.shape(R)[-1] - p, (R,)))
    P = prepare((R,), ("R",), backend, stream, allow_complex=True)
    (R,) = P.arrays
    n = _factor(R)
    if p < 1 or k < 0 or k + p > n or p >= n:
        raise ValueError(f"rows k .. k+p-1 = {k} .. {k + p - 1} must lie in "
                         f"0 .. {n - 1}, p >= 1, and one row must stay")
    uplo = "L" if lower else "U"
    return P.out(_lib(_qru.chol_delete, P.ctx, uplo, R, int(k), int(p),
                      bool(check_finite)), uplo)


def _one_call(k, arrays):
    """Whether a batched insertion or deletion runs as one library call:
    NumPy arrays and one integer position k."""
    return np.ndim(k) == 0 and isinstance(k, (int, np.integer)) and all(
        _fw_name(a) == "numpy" for a in arrays)


def _insdel_batch(R, k, x, p, lower, check_finite, backend, stream):
    """cholesky_insert (x given) or cholesky_delete (x None, p rows) of a
    batch of NumPy arrays at one position k: the pages of order
    m = max(n, n1) hold R's triangle in their leading block, each
    column-major, one after another (the transposed pages C-contiguous),
    seen as an m x (count m) column-major array; the library writes the
    new factors there in place (qru_chol_insert_batch /
    qru_chol_delete_batch)."""
    R = np.asarray(R)
    n = R.shape[-1] if R.ndim else 0
    if R.ndim < 2 or R.shape[-2] != n or n < 1:
        raise ValueError(f"R must be a batch of square factors (..., n, n), "
                         f"n >= 1; it is {R.shape}")
    k = int(k)
    arrays, shapes = [R], [R.shape[:-2]]
    if x is not None:
        x = np.asarray(x)
        if _xcore(R, x) == 1:
            x = x[..., None]
        p = x.shape[-1] if x.ndim else 0
        if x.ndim < 2 or p < 1 or x.shape[-2] != n + p:
            raise ValueError(f"x must be of shape (..., {n + 1}) or "
                             f"(..., n + p, p), p >= 1 (n = {n}); it is "
                             f"{x.shape}")
        if not 0 <= k <= n:
            raise ValueError(f"k must be in 0 .. {n}")
        arrays.append(x)
        shapes.append(x.shape[:-2])
        n1 = n + p
    else:
        if p < 1 or k < 0 or k + p > n or p >= n:
            raise ValueError(f"rows k .. k+p-1 = {k} .. {k + p - 1} must lie "
                             f"in 0 .. {n - 1}, p >= 1, and one row must "
                             "stay")
        n1 = n - p
    dt = _dtype_of(arrays, ("R", "x"))
    lead = np.broadcast_shapes(*shapes)
    count, m = math.prod(lead), max(n, n1)
    if count == 0:
        return np.zeros(lead + (n1, n1), dt)
    tri = np.tril if lower else np.triu
    Ft = np.zeros((count, m, m), dt)
    Ft[:, :n, :n] = np.swapaxes(
        tri(np.broadcast_to(R, lead + (n, n)).reshape(count, n, n)), 1, 2)
    mats, names = [Ft.reshape(count * m, m).T], ["R"]
    if x is not None:
        Xt = np.ascontiguousarray(np.swapaxes(
            np.broadcast_to(x, lead + (n1, p)).reshape(count, n1, p), 1, 2),
            dtype=dt)
        mats.append(Xt.reshape(count * p, n1).T)
        names.append("x")
    P = prepare(tuple(mats), tuple(names), backend, stream,
                allow_complex=True)
    uplo = "L" if lower else "U"
    if x is not None:
        F, X = P.arrays
        info = _lib(_qru.chol_insert_batch, P.ctx, uplo, F, n, k, X, count,
                    bool(check_finite), raw=True)
        what = "insertions not positive definite"
    else:
        (F,) = P.arrays
        info = _lib(_qru.chol_delete_batch, P.ctx, uplo, F, n, k, p, count,
                    bool(check_finite), raw=True)
        what = "deletions failed"
    raise_failed_pages(np.asarray(info), lead, what)
    out = np.swapaxes(np.asarray(F).T.reshape(count, m, m), 1, 2)
    return np.ascontiguousarray(out[:, :n1, :n1]).reshape(lead + (n1, n1))
