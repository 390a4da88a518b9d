"""qr_insert, qr_delete and qr_update with the arguments and results of
SciPy's."""
from __future__ import annotations

from typing import Any

from . import _qru
from ._arrays import numerical, prepare


def _which(which):
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")


def _check_qr(Q, R):
    if Q.ndim != 2 or R.ndim != 2:
        raise ValueError("Q and R must be 2-D arrays")
    M, N = Q.shape[0], R.shape[1]
    full = tuple(Q.shape) == (M, M) and R.shape[0] == M
    econ = tuple(Q.shape) == (M, N) and tuple(R.shape) == (N, N) and M > N
    if not (full or econ):
        raise ValueError(
            f"Q {tuple(Q.shape)} and R {tuple(R.shape)} are neither a full "
            "factorisation (Q (M, M), R (M, N)) nor an economic one "
            "(Q (M, N), R (N, N), M > N)")
    if M < N or N < 1:
        raise ValueError("qru needs A (M, N) with M >= N >= 1")
    return M, N


def _in_place(P, op, orig, overwrite):
    """The buffers of Q and R for an update of op that may run in them (the
    library's qru_lsq_options.adopt: with a full Q, Q fits every update
    but added rows, R the deletions and the rank-k modification; with an
    economic Q both fit column deletions), and the adopt flags; None where
    the factor would not stay there, or where the backend stages host
    arrays.  The caller's own array when ``overwrite`` allows it, else a
    column-major copy (as SciPy copies): the result is then a view of it
    and nothing is copied out of the library."""
    Q, R = P.arrays[0], P.arrays[1]
    full = Q.shape[0] == Q.shape[1]
    if (P.fw.device is None) != (P.ctx.dl_device == 1):  # staged
        return None, None, 0
    fits = (op != 2 if full else op == 1, op in (1, 3, 4) if full else op == 1)
    mine = overwrite and P.fw.name != "jax"  # JAX arrays are immutable
    out, bits = [None, None], 0
    for i, X in enumerate((Q, R)):
        if fits[i]:
            ok = _contiguous_f(X) and (P.fw.fresh(orig[i], X) or
                                       (mine and _writable(X)))
            out[i] = X if ok else P.fw.copy(X)
            bits |= 1 << i  # QRU_ADOPT_Q = 1, QRU_ADOPT_R = 2
    return out[0], out[1], bits


def _contiguous_f(x):
    """Column-major with ld = rows (the library adopts such buffers)."""
    if hasattr(x, "flags"):
        return x.flags.f_contiguous
    return x.dim() == 2 and (x.shape[0] <= 1 or x.stride(0) == 1) and \
        (x.shape[1] <= 1 or x.stride(1) == x.shape[0])


def _writable(x):
    flags = getattr(x, "flags", None)
    return flags is None or getattr(flags, "writeable", True)


def _run(P, op, k, U, p, check_finite, V=None, orig=(None, None),
         overwrite=False):
    Q, R = P.arrays[0], P.arrays[1]
    d = P.fw.zeros((R.shape[0], 1), P.dtype)  # no b: d = Q' b = 0
    e = P.fw.zeros((U.shape[0], 1), P.dtype) if op == 2 else V
    Qw, Rw, bits = _in_place(P, op, orig, overwrite)
    Q1, R1, n1, m1 = numerical(
        _qru.qr_update, P.ctx, Q if Qw is None else Qw,
        R if Rw is None else Rw, d, op, int(k), U, e, int(p),
        bool(check_finite), bits)
    full = Q.shape[0] == Q.shape[1]
    # None: the factor lies in the buffer given, its leading block
    Q1 = P.fw.back(Qw[:n1, :n1 if full else m1]) if Q1 is None else P.out(Q1)
    R1 = P.fw.back(Rw[:n1 if full else m1, :m1]) if R1 is None else P.out(R1)
    return Q1, R1


def qr_insert(Q: Any, R: Any, u: Any, k: int, which: str = "row",
              rcond: float | None = None, overwrite_qru: bool = False,
              check_finite: bool = True, *, backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """QR update on row or column insertions (as ``scipy.linalg.qr_insert``).

    MATLAB (1-based, k0 = k + 1): rows ``Q1*R1 = [A(1:k,:); u; A(k0:end,:)]``,
    columns ``Q1*R1 = [A(:,1:k) u A(:,k0:end)]``, where ``A = Q*R``.

    ``u`` has shape (N,) or (p, N) for ``which='row'`` and (M,) or (M, p)
    for ``which='col'``; ``k`` (0-based) is the row or column the block is
    inserted before.  Both full (Q (M, M), R (M, N)) and economic (Q (M, N),
    R (N, N)) factorisations are taken, for rows as well as columns; the
    results have the form of the input.  ``rcond`` is accepted for SciPy
    compatibility.  With ``overwrite_qru`` a column insertion into a full,
    column-major, writable Q runs in Q's own buffer and returns it as Q1
    (as SciPy consumes Q); otherwise Q, R and u are not changed (R and u
    never are).
    ``check_finite`` scans the inputs (ValueError for NaN or
    Inf).  An insertion that leaves the columns numerically dependent
    raises ``numpy.linalg.LinAlgError``.  Arrays of any supported
    framework (NumPy, CuPy, PyTorch, JAX) by the conversion rules of
    ``qru._arrays``; ``backend`` 'cpu', 'cuda' or 'opencl' (default: where
    the arrays are); ``stream`` a CUDA stream (default: the producer's).
    """
    del rcond
    _which(which)
    Q0, R0 = Q, R
    P = prepare((Q, R, u), ("Q", "R", "u"), backend, stream)
    Q, R, u = P.arrays
    M, N = _check_qr(Q, R)
    if which == "row":
        if u.ndim == 1:
            u = P.fw.reshape2(u, (1, u.shape[0]))
        if u.ndim != 2 or u.shape[1] != N:
            raise ValueError(f"u must be of shape (N,) or (p, N), N = {N}")
        if not 0 <= k <= M:
            raise ValueError(f"k must be in 0 .. {M} for row insertion")
        return _run(P, 2, k, u, 0, check_finite, orig=(Q0, R0))
    if u.ndim == 1:
        u = P.fw.reshape2(u, (u.shape[0], 1))
    if u.ndim != 2 or u.shape[0] != M:
        raise ValueError(f"u must be of shape (M,) or (M, p), M = {M}")
    if not 0 <= k <= N:
        raise ValueError(f"k must be in 0 .. {N} for column insertion")
    if N + u.shape[1] > M:
        raise ValueError("qru keeps A1 tall: N + p must be <= M")
    return _run(P, 0, k, u, 0, check_finite, orig=(Q0, R0),
                overwrite=overwrite_qru)


def qr_delete(Q: Any, R: Any, k: int, p: int = 1, which: str = "row",
              overwrite_qr: bool = False, check_finite: bool = True, *,
              backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """QR downdate on row or column deletions (as ``scipy.linalg.qr_delete``).

    MATLAB (1-based): rows ``Q1*R1 = A([1:k, k+p+1:end], :)``, columns
    ``Q1*R1 = A(:, [1:k, k+p+1:end])``, where ``A = Q*R``.

    Removes the rows (``which='row'``) or columns (``which='col'``)
    k .. k+p-1 (0-based).  Full and economic factorisations.  With
    ``overwrite_qr`` the deletion runs in the buffers of a column-major,
    writable Q and R (full factors; economic ones: columns), and Q1 and R1
    are views of their leading blocks, as SciPy's; on failure they are as
    they were.  A row deletion that leaves an economic
    factorisation's columns dependent raises ``numpy.linalg.LinAlgError``.
    Arrays, ``backend`` and ``stream`` as in :func:`qr_insert`.
    """
    _which(which)
    Q0, R0 = Q, R
    P = prepare((Q, R), ("Q", "R"), backend, stream)
    Q, R = P.arrays
    M, N = _check_qr(Q, R)
    if p < 1:
        raise ValueError("p must be >= 1")
    if which == "row":
        if not (0 <= k and k + p <= M):
            raise ValueError(f"rows k .. k+p-1 must lie in 0 .. {M - 1}")
        if M - p < N:
            raise ValueError("qru keeps A1 tall: M - p must be >= N")
        return _run(P, 3, k, None, p, check_finite, orig=(Q0, R0),
                    overwrite=overwrite_qr)
    if not (0 <= k and k + p <= N):
        raise ValueError(f"columns k .. k+p-1 must lie in 0 .. {N - 1}")
    if N - p < 1:
        raise ValueError("at least one column must remain")
    return _run(P, 1, k, None, p, check_finite, orig=(Q0, R0),
                overwrite=overwrite_qr)


def qr_update(Q: Any, R: Any, u: Any, v: Any, overwrite_qruv: bool = False,
              check_finite: bool = True, *, backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """Rank-k QR update (as ``scipy.linalg.qr_update``).

    MATLAB: ``Q1*R1 = A + u*v'``, where ``A = Q*R``.

    ``u`` has shape (M,) or (M, k), ``v`` (N,) or (N, k); the k columns
    are applied in one blocked update (not k rank-1 updates).  Full
    (Q (M, M), R (M, N)) and economic (Q (M, N), R (N, N)) factorisations;
    the economic form takes k <= M - N (qru completes Q1 by the part of u
    outside its range).  With ``overwrite_qruv`` the update of full,
    column-major, writable Q and R runs in their buffers and returns views
    of them; otherwise no input is changed.  A numerically
    rank-deficient ``A + u v'`` raises ``numpy.linalg.LinAlgError``.
    Arrays, ``backend`` and ``stream`` as in :func:`qr_insert`.
    """
    Q0, R0 = Q, R
    P = prepare((Q, R, u, v), ("Q", "R", "u", "v"), backend, stream)
    Q, R, u, v = P.arrays
    M, N = _check_qr(Q, R)
    if u.ndim == 1:
        u = P.fw.reshape2(u, (u.shape[0], 1))
    if v.ndim == 1:
        v = P.fw.reshape2(v, (v.shape[0], 1))
    if u.ndim != 2 or u.shape[0] != M:
        raise ValueError(f"u must be of shape (M,) or (M, k), M = {M}")
    if v.ndim != 2 or v.shape[0] != N:
        raise ValueError(f"v must be of shape (N,) or (N, k), N = {N}")
    if u.shape[1] != v.shape[1] or u.shape[1] < 1:
        raise ValueError(f"u and v must have the same k >= 1 columns "
                         f"(u {tuple(u.shape)}, v {tuple(v.shape)})")
    if Q.shape[1] == N and M > N and u.shape[1] > M - N:
        raise ValueError(f"an economic factorisation takes k <= M - N = "
                         f"{M - N} columns in u (k = {u.shape[1]})")
    return _run(P, 4, 0, u, 0, check_finite, V=v, orig=(Q0, R0),
                overwrite=overwrite_qruv)
