"""qr_insert, qr_delete and qr_update with the arguments, results and rules
of SciPy's (``scipy.linalg``), on the qru library.

Three ways a call runs:

* the update: the library's least-squares object made from Q and R
  (``qru_lsq_create_from_qr``) takes the change (``qru_lsq_add_cols``,
  ``_remove_cols``, ``_add_rows``, ``_remove_rows``, ``_modify``, with
  ``qru_lsq_options.rank = QRU_RANK_ACCEPT``).  The object keeps A tall,
  so this path needs M >= N >= 1 before and after the change;
* the refactorisation, for wide factors or results (M < N before or
  after): A1 is formed from Q @ R with the change applied, by the array
  framework on its device, and factorised by ``qru_qr_factor`` on the
  same backend, giving the full Q1 (M1, M1) and R1 (M1, N1) that SciPy
  returns for a wide A1;
* no rows or no columns left: empty arrays of SciPy's shapes (and Q
  itself for a full factorisation without columns).

Batches follow SciPy >= 1.16 (``_batch.py``): Q, R, u, v and k with
leading batch dimensions, broadcast against each other, one call of the
above a page.

Overwriting follows SciPy's table (the _Call.target calls of each
function; docs/python.md): where SciPy would update a caller's buffer
(``overwrite_*=True``, the dtype already right, writable, positive
strides, and for some calls C or Fortran order, or Fortran order only),
Q1 / R1 are the views of that buffer SciPy returns, holding the result;
the library works in the buffer itself when it is Fortran-ordered and the
update fits it (``qru_lsq_options.adopt``), and otherwise in a copy whose
result is copied into the views.
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np

from . import _qru
from ._arrays import is_complex, numerical, prepare
from ._batch import batch_of, over_pages

_ADD_COLS, _REMOVE_COLS, _ADD_ROWS, _REMOVE_ROWS, _MODIFY = range(5)
_RANK_ACCEPT = 1  # qru_lsq_options.rank = QRU_RANK_ACCEPT


def _which(which):
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")


def _int(x, name):
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError(f"'{name}' must be an integer") from None


def _inner(fw):
    """The adapter whose arrays the call computes on (JAX: CuPy, PyTorch
    or NumPy)."""
    return getattr(fw, "inner", fw)


def _check_qr(Q, R):
    """M, N and whether (Q, R) is economic, by SciPy's rules: Q (M, M) and
    R (M, N) (full), or Q (M, N) and R (N, N) with M > N (economic)."""
    if Q.ndim != 2 or R.ndim != 2:
        raise ValueError("Q and R must be 2-D")
    if Q.shape[1] != R.shape[0]:
        raise ValueError(
            f"Q and R do not have compatible shapes: expected (M, M) (M, N) "
            f"or (M, N) (N, N), found {tuple(Q.shape)} {tuple(R.shape)}")
    if Q.shape[0] == Q.shape[1]:
        return Q.shape[0], R.shape[1], False
    if R.shape[0] == R.shape[1] and Q.shape[0] > Q.shape[1]:
        return Q.shape[0], Q.shape[1], True
    raise ValueError(f"expected (M, M) (M, N) or (M, N) (N, N) with M > N, "
                     f"found {tuple(Q.shape)} {tuple(R.shape)}")


def _r_fortran(R):
    """SciPy's full R (a C-ordered NumPy array with more rows than
    columns) in Fortran order, its rows below the square as zeros: the
    library reads only the upper triangle of R's first N rows, and the
    transposing copy of that N x N block costs a fraction of the whole
    array's.  Other arrays as they are (prepare() converts them)."""
    if type(R) is np.ndarray and R.ndim == 2 and R.flags.c_contiguous \
            and not R.flags.f_contiguous and R.shape[0] > R.shape[1] > 0 \
            and R.dtype in (np.float32, np.float64, np.complex64,
                            np.complex128):
        Rf = np.zeros(R.shape, R.dtype, order="F")
        Rf[:R.shape[1]] = R[:R.shape[1]]
        return Rf
    return R


def _finite(P, arrays, names):
    fw = _inner(P.fw)
    for a, nm in zip(arrays, names):
        if a is not None and a.size and not fw.finite(a):
            raise ValueError(f"qru: {nm} contains non-finite values "
                             "(NaN or Inf; check_finite=False skips the "
                             "scan)")


class _Call:
    """One call: the prepared arrays, the caller's originals, the shapes
    before (M, N) and after (M1, N1) and the targets of an overwrite."""

    def __init__(self, P, orig, econ, M, N, M1, N1):
        self.P, self.orig, self.econ = P, orig, econ
        self.M, self.N, self.M1, self.N1 = M, N, M1, N1
        self.fw = _inner(P.fw)
        self.views = [None, None]  # per factor: a function of the buffer
        self.full_out = not econ or M1 <= N1

    def target(self, i, overwrite, layout, view):
        """Factor i (0: Q, 1: R) is overwritten as SciPy's: where the
        caller's buffer qualifies for ``layout``, the result goes to
        view(buffer)."""
        if overwrite and layout and self.P.fw.eligible(
                self.orig[i], self.P.dtype, layout):
            self.views[i] = view

    def mine(self, i):
        """The caller's buffer, when it is factor i's target and the
        prepared array is that buffer itself (no conversion copy)."""
        X, X0 = self.P.arrays[i], self.orig[i]
        return self.views[i] is not None and not self.P.fw.fresh(X0, X)

    def place(self, Q1, R1, in_place=(False, False)):
        """The results as the caller sees them: written into the targets
        (unless they are there already, in_place) and returned as the
        views SciPy returns; the others as they are."""
        out = []
        for i, X1 in enumerate((Q1, R1)):
            view = self.views[i]
            if view is not None:
                V = view(self.orig[i])
                if not in_place[i]:
                    self.fw.assign(V, X1)
                X1 = V
            out.append(X1)
        return self.P.fw.back(out[0]), self.P.fw.back(out[1])


# ---- the three ways ----------------------------------------------------------

def _update(c, op, k, U, p, check_finite, V=None):
    """The library's update of (Q, R), a rank-deficient A1 accepted where
    its QR stays valid: (Q1, R1) and whether each lies in the caller's own
    buffer (at SciPy's view)."""
    P, fw = c.P, c.fw
    Q, R = P.arrays[0], P.arrays[1]
    full = not c.econ
    d = fw.zeros((R.shape[0], 1), P.dtype)  # no b: d = Q' b = 0
    e = fw.zeros((U.shape[0], 1), P.dtype) if op == _ADD_ROWS else V
    staged = (P.fw.device is None) != (P.ctx.dl_device == 1)
    # the buffers the update fits in (qru_lsq_options.adopt): a full Q all
    # but added rows, a full R the deletions and A + U V', economic
    # factors column deletions
    fits = (op != _ADD_ROWS if full else op == _REMOVE_COLS,
            op in (_REMOVE_COLS, _REMOVE_ROWS, _MODIFY) if full
            else op == _REMOVE_COLS)
    work, bits, own = [None, None], 0, [False, False]
    for i, X in enumerate((Q, R)):
        if staged or not fits[i]:
            continue
        if _fortran(X) and (P.fw.fresh(c.orig[i], X) or c.mine(i)):
            work[i], own[i] = X, not P.fw.fresh(c.orig[i], X)
        else:
            work[i] = P.fw.copy(X)  # (SciPy copies as well)
        bits |= 1 << i  # QRU_ADOPT_Q = 1, QRU_ADOPT_R = 2
    Q1, R1, n1, m1 = numerical(
        _qru.qr_update, P.ctx, Q if work[0] is None else work[0],
        R if work[1] is None else work[1], d, op, int(k), U, e, int(p),
        bool(check_finite), bits, _RANK_ACCEPT)
    in_buf = [Q1 is None, R1 is None]
    # None: the factor lies in the buffer given, its leading block
    Q1 = work[0][:n1, :n1 if full else m1] if Q1 is None else fw.wrap(Q1)
    R1 = work[1][:n1 if full else m1, :m1] if R1 is None else fw.wrap(R1)
    in_place = [in_buf[i] and own[i] for i in range(2)]
    if op == _REMOVE_ROWS and full:
        # the library leaves Q1 and R1 in the leading blocks, SciPy returns
        # the trailing ones: move them there (in place, one pass)
        for i, (X, dc) in enumerate(((work[0], p), (work[1], 0))):
            if in_place[i]:
                if fw is P.fw and P.fw.device is None:
                    _qru.shift_block(X, p, dc)
                else:
                    fw.assign(X[p:, dc:], fw.copy(X[:X.shape[0] - p,
                                                    :X.shape[1] - dc]))
    return Q1, R1, in_place


def _conj_overwritten(c, i):
    """SciPy's overwrite of a complex vector argument (one column u
    inserted with a C-ordered Q, the v of a rank-1 qr_update): its buffer
    holds conj(x) afterwards, where SciPy may write it."""
    x = c.orig[i]
    if is_complex(c.P.dtype) and c.P.fw.eligible(x, c.P.dtype, "any"):
        c.P.fw.assign(x, x.conj())


def _fortran(x):
    """Column-major with ld = rows (the buffers the library adopts)."""
    if hasattr(x, "flags"):
        return bool(x.flags.f_contiguous)
    return x.dim() == 2 and (x.shape[0] <= 1 or x.stride(0) == 1) and \
        (x.shape[1] <= 1 or x.stride(1) == x.shape[0])


def _refactor(c, A1):
    """[Q1, R1] = qr(A1) by qru_qr_factor on the call's backend: the full
    Q1 (M1, M1) and R1 (M1, N1), or the economic ones for an economic
    call with a tall A1.  A1 is a Fortran-ordered array of the call's
    framework, overwritten by R1."""
    Q1 = c.fw.wrap(numerical(_qru.qr_factor, c.P.ctx, A1, False))
    if c.full_out:
        return Q1, A1
    return Q1[:, :c.N1], A1[:c.N1, :]


def _product(c):
    """A = Q R (the framework's own product, on its device)."""
    Q, R = c.P.arrays[0], c.P.arrays[1]
    return Q @ R


def _empty(c):
    """Results without rows or columns (SciPy's shapes)."""
    fw, dt = c.fw, c.P.dtype
    if c.M1 == 0:
        return fw.zeros((0, 0), dt), fw.zeros((0, c.N1), dt)
    if c.econ:
        return fw.zeros((c.M1, 0), dt), fw.zeros((0, 0), dt)
    return fw.copy(c.P.arrays[0]), fw.zeros((c.M1, 0), dt)


def _tall(c):
    """True if the library's update applies: A tall with a column, before
    and after."""
    return c.M >= c.N >= 1 and c.M1 >= c.N1 >= 1


# ---- the public functions -----------------------------------------------------

def qr_insert(Q: Any, R: Any, u: Any, k: int, which: str = "row",
              rcond: float | None = None, overwrite_qru: bool = False,
              check_finite: bool = True, *, backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """QR update on row or column insertions (as ``scipy.linalg.qr_insert``).

    MATLAB (1-based, k0 = k + 1): rows ``Q1*R1 = [A(1:k,:); u; A(k0:end,:)]``,
    columns ``Q1*R1 = [A(:,1:k) u A(:,k0:end)]``, where ``A = Q*R``.

    ``u`` has shape (N,) or (p, N) for ``which='row'`` and (M,) or (M, p)
    for ``which='col'``; ``k`` is the row or column the block is inserted
    before, 0 .. M (rows) or 0 .. N (columns), negative values counting
    from the end as in SciPy (-M .. -1).  Full (Q (M, M), R (M, N)) and
    economic (Q (M, N), R (N, N), M > N) factorisations, of any shape.
    Q, R and u must all be float32, all float64, all complex64 or all
    complex128 (ValueError otherwise, as SciPy); the results have that
    dtype.  The complex types run on the CPU backend (TypeError naming the
    backend on the others).

    Results: economic in, economic out while A1 stays tall (Q1 (M1, N1),
    R1 (N1, N1)); otherwise full, Q1 (M1, M1), R1 (M1, N1), as SciPy's.
    Where A and A1 are tall (M >= N >= 1, M1 >= N1) the library updates
    the factors (rows: O(M1 N) work on R plus the rotations applied to Q;
    columns: Q' u and the rotations, O(M^2 p)).  Where A or A1 is wide
    (M < N, or N + p > M after a column insertion) or A has no columns,
    the call refactorises: A1 is formed from Q @ R with u inserted (by
    the array's framework, on its device: at most 2 M^2 N flops) and
    factorised with its full Q1 by ``qru_qr_factor`` on the same backend
    (O(M1^2 N1) flops), the cost of a new factorisation.

    ``rcond``: as SciPy, only for economic column insertions (ValueError
    otherwise); qru's rank rule applies there, not rcond.  A column
    insertion into a full factorisation returns a valid QR of a
    rank-deficient A1 (``QRU_RANK_ACCEPT``); into an economic one, a
    column in the span of Q raises ``numpy.linalg.LinAlgError`` (as SciPy).

    ``overwrite_qru`` (SciPy's rules): a column insertion into a full
    factorisation (M > 1) overwrites Q (C- or Fortran-ordered for a 1-D u,
    Fortran-ordered for a 2-D u) and returns it as Q1; a row insertion
    into an economic factorisation overwrites R (any positive strides for
    one row, Fortran order for more) and returns it as R1.  The library
    works in a Fortran-ordered Q itself; other layouts are updated in a
    copy that is then copied into Q.  u is never written.
    ``check_finite`` scans the inputs (ValueError for NaN or Inf).  Arrays
    of any supported framework (NumPy, CuPy, PyTorch, JAX) by the
    conversion rules of ``qru._arrays``; ``backend`` 'cpu', 'cuda' or
    'opencl' (default: where the arrays are); ``stream`` a CUDA stream
    (default: the producer's).

    Batches (SciPy >= 1.16's rules; NumPy arrays): Q and R (..., M, *),
    u (N,) / (M,) shared by every page or (..., p, N) / (..., M, p) (a
    batch of single rows is (..., 1, N)), k an integer or an integer
    array, one a page; the leading dimensions broadcast as NumPy's.  One
    library call a page (there is no batched update that keeps Q); the
    results (..., M1, *) are new arrays (``overwrite_qru`` is ignored, as
    SciPy's batches ignore it); a zero-size batch raises ValueError, as
    SciPy's; pages that fail numerically are named by one LinAlgError.
    """
    cores = (2, 2, "1|2", 0)
    if batch_of((Q, R, u, k), cores) is not None:
        return over_pages(
            lambda Q, R, u, k: qr_insert(
                Q, R, u, k, which, rcond, overwrite_qru, check_finite,
                backend=backend, stream=stream),
            "qr_insert", (Q, R, u, k), cores, "insertions failed")
    _which(which)
    k = _int(k, "k")
    orig = (Q, R, u)
    P = prepare((Q, _r_fortran(R), u), ("Q", "R", "u"), backend, stream,
                same_dtype=True)
    Q, R, u = P.arrays
    M, N, econ = _check_qr(Q, R)
    fw = _inner(P.fw)
    if u.ndim not in (1, 2):
        raise ValueError("'u' must be either 1- or 2-D")
    row = which == "row"
    if row:
        if rcond is not None:
            raise ValueError("'rcond' is unused when inserting rows and "
                             "must be None")
        if u.shape[-1] != N:
            raise ValueError(f"'u' should be either (N,) or (p, N) when "
                             f"inserting rows, N = {N}; found "
                             f"{tuple(u.shape)}")
        p = 1 if u.ndim == 1 else u.shape[0]
        U = fw.reshape2(u, (1, N)) if u.ndim == 1 else u
        lim, M1, N1 = M, M + p, N
    else:
        if rcond is not None and not econ:
            raise ValueError("'rcond' is not used when updating full, "
                             "(M, M) (M, N) decompositions and must be None")
        if u.shape[0] != M:
            raise ValueError(f"'u' should be either (M,) or (M, p) when "
                             f"inserting columns, M = {M}; found "
                             f"{tuple(u.shape)}")
        p = 1 if u.ndim == 1 else u.shape[1]
        U = fw.reshape2(u, (M, 1)) if u.ndim == 1 else u
        lim, M1, N1 = N, M, N + p
    if not -lim <= k <= lim:
        raise ValueError(f"'k' is out of bounds: {k} not in {-lim} .. {lim}")
    if k < 0:
        k += lim
    if p < 1:
        raise ValueError("'u' is empty")
    c = _Call(P, orig, econ, M, N, M1, N1)
    if row and econ:
        c.target(1, overwrite_qru, "any" if p == 1 else "F", lambda x: x)
    elif not row and not econ and M > 1:
        c.target(0, overwrite_qru, "seg" if u.ndim == 1 else "F",
                 lambda x: x)
    if _tall(c):
        Q1, R1, in_place = _update(c, _ADD_ROWS if row else _ADD_COLS, k, U,
                                   0, check_finite)
        if c.views[0] is not None and u.ndim == 1 and \
                not _fortran(orig[0]):
            _conj_overwritten(c, 2)
        return c.place(Q1, R1, in_place)
    if check_finite:
        _finite(P, (Q, orig[1], u), ("Q", "R", "u"))
    A = _product(c)
    A1 = fw.zeros((M1, N1), P.dtype)
    if row:
        A1[:k, :] = A[:k, :]
        A1[k:k + p, :] = U
        A1[k + p:, :] = A[k:, :]
    else:
        A1[:, :k] = A[:, :k]
        A1[:, k:k + p] = U
        A1[:, k + p:] = A[:, k:]
    out = c.place(*_refactor(c, A1))
    if c.views[0] is not None and u.ndim == 1 and not _fortran(orig[0]):
        _conj_overwritten(c, 2)
    return out


def qr_delete(Q: Any, R: Any, k: int, p: int = 1, which: str = "row",
              overwrite_qr: bool = False, check_finite: bool = True, *,
              backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """QR downdate on row or column deletions (as ``scipy.linalg.qr_delete``).

    MATLAB (1-based): rows ``Q1*R1 = A([1:k, k+p+1:end], :)``, columns
    ``Q1*R1 = A(:, [1:k, k+p+1:end])``, where ``A = Q*R``.

    Removes the rows (``which='row'``) or columns (``which='col'``)
    k .. k+p-1; k may be negative as in SciPy (-M .. -1 for rows,
    -N .. -1 for columns, counting from the end), and k + p must not pass
    the end.  Full and economic factorisations of any shape; dtypes as in
    :func:`qr_insert`.  Results: economic in, economic out while A1 stays
    tall; otherwise full (Q1 (M1, M1), R1 (M1, N1)).  Deleting every row
    gives Q1 (0, 0) and R1 (0, N); every column, Q1 = Q (full; economic:
    (M, 0)) and R1 (M, 0) (economic: (0, 0)).

    Where A and A1 are tall (M >= N, M - p >= N for rows) the library
    downdates the factors; where either is wide (M < N, or M - p < N
    after a row deletion) the call refactorises A1, formed from Q @ R
    without the deleted rows or columns on the array's device (<= 2 M^2 N
    flops), with ``qru_qr_factor`` on the same backend (O(M1^2 N1) flops
    with the full Q1: a new factorisation).  A row deletion that leaves
    an economic factorisation's columns dependent raises
    ``numpy.linalg.LinAlgError``.

    ``overwrite_qr`` (SciPy's rules): Q and R are overwritten where they
    have the dtype, are writable and have positive strides, and Q1 and R1
    are views of them: for rows of a full factorisation the trailing
    blocks ``Q[p:, p:]`` and ``R[p:, :]``; for rows of an economic one
    (Q in C or Fortran order) the rows ``Q[:M-p]`` and R itself; for
    columns Q (economic: ``Q[:, :-p]``) and ``R[:, :-p]`` (economic:
    ``R[:-p, :-p]``), where for p > 1 only Fortran-ordered arrays are
    overwritten.  The library works in Fortran-ordered buffers
    themselves (moving a row deletion's result to the trailing blocks in
    one pass) and in copies for other layouts, copied into the views on
    success; a failed call leaves Q and R as they were.
    Arrays, ``backend`` and ``stream`` as in :func:`qr_insert`; batches as
    there (Q, R and k batched, p one integer).
    """
    cores = (2, 2, 0)
    if batch_of((Q, R, k), cores) is not None:
        return over_pages(
            lambda Q, R, k: qr_delete(Q, R, k, p, which, overwrite_qr,
                                      check_finite, backend=backend,
                                      stream=stream),
            "qr_delete", (Q, R, k), cores, "deletions failed")
    _which(which)
    k, p = _int(k, "k"), _int(p, "p")
    orig = (Q, R)
    P = prepare((Q, _r_fortran(R)), ("Q", "R"), backend, stream,
                same_dtype=True)
    Q, R = P.arrays
    M, N, econ = _check_qr(Q, R)
    row = which == "row"
    lim = M if row else N
    if not -lim <= k < lim:
        raise ValueError(f"'k' is out of bounds: {k} not in {-lim} .. "
                         f"{lim - 1}")
    if k < 0:
        k += lim
    if p <= 0 or k + p > lim:
        raise ValueError(f"'p' is out of range: {p} (k = {k}, "
                         f"{'rows' if row else 'columns'} {lim})")
    M1, N1 = (M - p, N) if row else (M, N - p)
    c = _Call(P, orig, econ, M, N, M1, N1)
    if row and not econ:
        c.target(0, overwrite_qr, "any", lambda x: x[p:, p:])
        c.target(1, overwrite_qr, "any", lambda x: x[p:, :])
    elif row and N > 1:
        pe = p if M - p >= N else M - N  # SciPy's p_eco and p_full
        pf = p - pe
        c.target(0, overwrite_qr, "seg", lambda x: x[pf:M - pe, pf:])
        c.target(1, overwrite_qr, "any", lambda x: x[pf:, :])
    elif not row:
        lay = "any" if p == 1 else "F"
        if econ:
            c.target(0, overwrite_qr, lay, lambda x: x[:, :N - p])
            c.target(1, overwrite_qr, lay, lambda x: x[:N - p, :N - p])
        else:
            c.target(0, overwrite_qr, lay, lambda x: x)
            c.target(1, overwrite_qr, lay, lambda x: x[:, :N - p])
    if check_finite and (M1 == 0 or N1 == 0 or not _tall(c)):
        _finite(P, (Q, orig[1]), ("Q", "R"))
    if M1 == 0 or N1 == 0:
        return c.place(*_empty(c))
    if _tall(c):
        Q1, R1, in_place = _update(c, _REMOVE_ROWS if row else _REMOVE_COLS,
                                   k, None, p, check_finite)
        return c.place(Q1, R1, in_place)
    A = _product(c)
    fw = c.fw
    A1 = fw.zeros((M1, N1), P.dtype)
    if row:
        A1[:k, :] = A[:k, :]
        A1[k:, :] = A[k + p:, :]
    else:
        A1[:, :k] = A[:, :k]
        A1[:, k:] = A[:, k + p:]
    return c.place(*_refactor(c, A1))


def qr_update(Q: Any, R: Any, u: Any, v: Any, overwrite_qruv: bool = False,
              check_finite: bool = True, *, backend: str | None = None,
              stream: int | None = None) -> tuple[Any, Any]:
    """Rank-k QR update (as ``scipy.linalg.qr_update``).

    MATLAB: ``Q1*R1 = A + u*v'``, where ``A = Q*R``.

    ``u`` has shape (M,) or (M, k), ``v`` (N,) or (N, k), both 1-D or both
    2-D; the k columns are applied in one blocked update (not k rank-1
    updates), any k >= 1 (SciPy: k <= min(M, N)).  Full and economic
    factorisations of any shape; dtypes as in :func:`qr_insert`; the
    results have the input's form.  A rank-deficient ``A + u v'`` gives a
    valid QR with a singular R1 (``QRU_RANK_ACCEPT``), as SciPy's.

    Tall A (M >= N): the library's update (``qru_lsq_modify``, about
    2 M^2 k + 4 M N k flops full); an economic factorisation takes at most
    M - N columns a call, so larger k run in blocks of M - N columns.  Wide
    A (M < N): the call refactorises A1 = Q @ R + u @ v.T (formed by the
    array's framework on its device) with ``qru_qr_factor`` on the same
    backend, O(M^2 N) flops.

    ``overwrite_qruv`` (SciPy's rules, M > 1): Q and R are overwritten and
    returned as Q1 and R1 where they have the dtype, are writable and have
    positive strides, Q in C or Fortran order, and for a full
    factorisation with k > 1 both Fortran-ordered.  The library works in
    Fortran-ordered full factors themselves and in copies otherwise,
    copied back on success; u and v are never written.
    Arrays, ``backend`` and ``stream`` as in :func:`qr_insert`; batches as
    there (u and v 1-D: shared; else (..., M, k) and (..., N, k)).
    """
    cores = (2, 2, "1|2", "1|2")
    if batch_of((Q, R, u, v), cores) is not None:
        return over_pages(
            lambda Q, R, u, v: qr_update(Q, R, u, v, overwrite_qruv,
                                         check_finite, backend=backend,
                                         stream=stream),
            "qr_update", (Q, R, u, v), cores, "updates failed")
    orig = (Q, R, u, v)
    P = prepare((Q, _r_fortran(R), u, v), ("Q", "R", "u", "v"), backend,
                stream, same_dtype=True)
    Q, R, u, v = P.arrays
    M, N, econ = _check_qr(Q, R)
    fw = _inner(P.fw)
    if u.ndim not in (1, 2) or v.ndim not in (1, 2):
        raise ValueError("u and v must be either 1- or 2-D")
    if u.ndim != v.ndim:
        raise ValueError("u and v must have the same number of dimensions")
    if u.shape[0] != M:
        raise ValueError(f"u.shape[0] must equal Q.shape[0] = {M}")
    if v.shape[0] != N:
        raise ValueError(f"v.shape[0] must equal R.shape[1] = {N}")
    if u.ndim == 1:
        u, v = fw.reshape2(u, (M, 1)), fw.reshape2(v, (N, 1))
    elif u.shape[1] != v.shape[1]:
        raise ValueError(f"u and v must have the same number of columns "
                         f"(u {tuple(u.shape)}, v {tuple(v.shape)})")
    kk = u.shape[1]
    if kk < 1:
        raise ValueError("u and v have no columns")
    c = _Call(P, orig, econ, M, N, M, N)
    if M > 1:
        full_p = not econ and kk > 1
        c.target(0, overwrite_qruv, "F" if full_p else "seg", lambda x: x)
        c.target(1, overwrite_qruv, "F" if full_p else "any", lambda x: x)
    conj_v = overwrite_qruv and orig[3] is not None and \
        getattr(orig[3], "ndim", 0) == 1
    if _tall(c) and not (econ and kk > M - N):
        Q1, R1, in_place = _update(c, _MODIFY, 0, u, 0, check_finite, V=v)
        out = c.place(Q1, R1, in_place)
        if conj_v:
            _conj_overwritten(c, 3)
        return out
    if _tall(c):
        # economic, k > M - N: blocks of M - N columns, each an update of
        # the previous block's factors
        if check_finite:
            _finite(P, (Q, orig[1], u, v), ("Q", "R", "u", "v"))
        b = M - N
        Q1, R1 = Q, R
        for j in range(0, kk, b):
            q, r, _, _ = numerical(
                _qru.qr_update, P.ctx, Q1, R1, fw.zeros((N, 1), P.dtype),
                _MODIFY, 0, u[:, j:j + b], v[:, j:j + b], 0, False, 0,
                _RANK_ACCEPT)
            Q1, R1 = fw.wrap(q), fw.wrap(r)
        out = c.place(Q1, R1)
        if conj_v:
            _conj_overwritten(c, 3)
        return out
    if check_finite:
        _finite(P, (Q, orig[1], u, v), ("Q", "R", "u", "v"))
    A1 = fw.zeros((M, N), P.dtype)
    A1[...] = _product(c) + u @ (v.conj().T if is_complex(P.dtype) else v.T)
    out = c.place(*_refactor(c, A1))
    if conj_v:
        _conj_overwritten(c, 3)
    return out
