"""qru.LeastSquaresBatch: many small least-squares problems of the same
size (the C API's qru_lsq_batch), Q-less or with a thin or full Q,
updated and solved in one call each."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _qru
from ._arrays import _fw_name, per_problem, prepare, raise_failed_pages
from ._chol import _lib

_FORMS = {"full": 0, "thin": 1, "none": 2}


class LeastSquaresBatch:
    """A batch of least-squares problems ``min ||A[i] x - b[i]||``, each
    held as its QR factorisation, all gaining (and, in the thin and full
    forms, losing) rows, losing and gaining columns (the Q-less form
    given the current A and b) and all solved in one call of the library
    each.

    MATLAB, for each page i (``q``): ``R = triu(qr(A(:,:,i))); d =
    Q'*b(:,:,i)`` ('none', Q-less, the default), ``[Q1, R] =
    qr(A(:,:,i), 0); d = Q1'*b(:,:,i)`` ('thin'), ``[Q, R] =
    qr(A(:,:,i)); d = Q'*b(:,:,i)`` ('full': Q n x n, d n x r; R kept as
    its m x m triangle).

    ``A`` is (..., n, m) with m >= 1 and n >= 1 ('thin', 'full': n >= m; the
    leading dimensions are the batch, as in SciPy's batched linear
    algebra), ``b`` (..., n) or (..., n, r).  The memory kept is about
    m (m + r) numbers a problem whatever n ('none'), or (n + m)(m + r)
    ('thin': Q1 and the residuals E = b - A x as well, so that rows can
    be removed and columns added), or n (n + r) more ('full': the rest of
    Q and of d, recomputed after every update, about n^3 flops a
    problem: the thin form is the cheaper one).  NumPy arrays; the batch
    runs on the backend chosen
    (``backend=``: 'cpu', 'cuda', 'opencl'; by default the first
    available), and a failed call raises and leaves the batch unchanged,
    except ``remove_rows``, which updates the problems that took the
    removal.  Complex A or b (complex64, complex128: NumPy's promotion,
    ' the conjugate transpose, ``modify``'s A + U V') make a complex batch
    in every form on every backend.
    """

    def __init__(self, A: Any, b: Any, q: str = "none", *,
                 check_finite: bool = True,
                 backend: str | None = None) -> None:
        """Factorises every page of A and b in the form ``q`` ('none',
        'thin' or 'full')."""
        if q not in _FORMS:
            raise ValueError("q must be 'none', 'thin' or 'full'")
        A, b = self._numpy(A, "A"), self._numpy(b, "b")
        if A.ndim < 3:
            raise ValueError(f"A must be a batch of matrices (..., n, m); "
                             f"it is {A.shape}")
        self._lead, (n, m) = A.shape[:-2], A.shape[-2:]
        self._vector = b.ndim == A.ndim - 1
        b = b[..., None] if self._vector else b
        if b.shape[:-2] != self._lead or b.shape[-2] != n or b.shape[-1] < 1:
            raise ValueError(f"b must be of shape {self._lead + (n,)} or "
                             f"{self._lead + (n, 'r')}, r >= 1; it is "
                             f"{b.shape}")
        if n < 1 or m < 1:
            raise ValueError(f"A's pages are {n} x {m}: n, m >= 1 needed")
        self._count = int(np.prod(self._lead))
        if self._count < 1:
            raise ValueError("the batch is empty")
        self._m, self._r = m, b.shape[-1]
        single = all(x.dtype in (np.float32, np.complex64) for x in (A, b))
        if A.dtype.kind == "c" or b.dtype.kind == "c":
            self._dtype = np.complex64 if single else np.complex128
        else:
            self._dtype = np.float32 if A.dtype == np.float32 and \
                b.dtype == np.float32 else np.float64
        P = prepare((self._pack(A, m), self._pack(b, self._r)), ("A", "b"),
                    backend, allow_complex=True)
        self._P = P
        self._f = _lib(_qru.LsqBatch, P.ctx, *P.arrays, self._count,
                            _FORMS[q], bool(check_finite))

    # ---- helpers -------------------------------------------------------------

    @staticmethod
    def _numpy(x, name):
        if _fw_name(x) != "numpy":
            raise TypeError(f"qru: LeastSquaresBatch takes NumPy arrays; "
                            f"{name} is a {type(x).__module__} array")
        x = np.asarray(x)
        if x.dtype.kind not in "fiubc" or (
                x.dtype.kind == "c" and
                x.dtype not in (np.complex64, np.complex128)):
            raise TypeError(f"qru: {name} has dtype {x.dtype}, not a "
                            "number type qru computes in")
        return x

    def _pack(self, X, c):
        """The pages of X (..., rows, c) side by side: rows x (count c),
        column-major, page i in columns i c .. i c + c - 1."""
        rows = X.shape[-2]
        if X.dtype.kind == "c" and np.dtype(self._dtype).kind != "c":
            raise TypeError(f"qru: complex data ({X.dtype}) for a batch of "
                            f"{np.dtype(self._dtype).name}")
        X = X.reshape((self._count, rows, c)).astype(self._dtype, copy=False)
        return np.asfortranarray(np.moveaxis(X, 0, 1).reshape(
            rows, self._count * c))

    def _unpack(self, M, c):
        """The inverse of _pack: M rows x (count c) as (..., rows, c)."""
        M = np.asarray(M)
        rows = M.shape[0]
        M = np.moveaxis(M.reshape(rows, self._count, c), 1, 0)
        return np.ascontiguousarray(M.reshape(self._lead + (rows, c)))

    # ---- sizes ---------------------------------------------------------------

    @property
    def batch_shape(self) -> tuple:
        """The leading dimensions of A: the batch."""
        return self._lead

    @property
    def shape(self) -> tuple[int, int]:
        """(n, m), the shape of every page of A (n grows with add_rows and
        shrinks with remove_rows; the largest n of the problems where a
        removal was refused for some, see ``rows``; m changes with
        add_cols and remove_cols)."""
        return int(self.rows.max()), self._m

    @property
    def rows(self) -> np.ndarray:
        """(...,) ints: the row count of every problem, the same for all
        unless ``remove_rows`` was refused for some or ``add_rows`` was
        given ``rows``."""
        return np.asarray(self._f.all_rows(), np.int64).reshape(self._lead)

    @property
    def q(self) -> str:
        """The form: 'none', 'thin' or 'full'."""
        return {0: "full", 1: "thin", 2: "none"}[self._f.q_form]

    @property
    def nrhs(self) -> int:
        """r, the right-hand sides of every problem."""
        return self._r

    @property
    def dtype(self) -> type:
        """numpy.float32, numpy.float64, numpy.complex64 or
        numpy.complex128 (complex when A or b is: complex64 where both
        are float32 or complex64, as NumPy promotes)."""
        return self._dtype

    # ---- the update and the solve --------------------------------------------

    def add_rows(self, U: Any, e: Any = None, *, rows: Any = None,
                 check_finite: bool = True) -> None:
        """Adds rows to every problem: U (..., p, m) (or (..., m): one
        row) of A and e (..., p, r) of b (zeros if omitted; with a vector
        b, e may be (..., p)).  ``rows`` (integers of the batch's shape,
        each in 0 .. p; default all p): problem i gains only the first
        rows[i] rows of its pages, and a problem given 0 stays as it is.
        MATLAB: ``A1(:,:,i) = [A(:,:,i); U(1:rows(i),:,i)]``."""
        U, e, p = self._rows_args(U, e)
        counts = per_problem(rows, self._lead, p, "rows", "U's rows")
        conv = (self._pack(U, self._m), self._pack(e, self._r))
        _lib(self._f.add_rows, *conv, bool(check_finite), counts)

    def add_rows_solve(self, U: Any, e: Any = None, *,
                       check_finite: bool = True) -> np.ndarray:
        """``add_rows(U, e)`` then ``solve()`` in one call (the step of a
        recursive least-squares filter): returns x (..., m) or
        (..., m, r).  The Q-less form on a GPU updates and solves each
        problem in one pass over its factors.  Every problem gains the
        rows, also when LinAlgError then names rank-deficient ones.
        MATLAB: ``A(:,:,i) = [A(:,:,i); U(:,:,i)]; x(:,:,i) = A(:,:,i) \\
        b(:,:,i)``."""
        U, e, _ = self._rows_args(U, e)
        conv = (self._pack(U, self._m), self._pack(e, self._r))
        X, info = _lib(self._f.add_rows_solve, *conv, bool(check_finite))
        raise_failed_pages(info, self._lead, "problems rank-deficient")
        X = self._unpack(X, self._r)
        return np.ascontiguousarray(X[..., 0] if self._vector else X)

    def _rows_args(self, U: Any, e: Any):
        """U (..., p, m) and e (..., p, r) of add_rows, checked, and p."""
        U = self._numpy(U, "U")
        if U.ndim == len(self._lead) + 1:
            U = U[..., None, :]
        p = U.shape[-2] if U.ndim >= 2 else 0
        if U.shape[:-2] != self._lead or U.shape[-1] != self._m or p < 1:
            raise ValueError(f"U must be of shape {self._lead + ('p', self._m)}"
                             f" or {self._lead + (self._m,)}; it is "
                             f"{U.shape}")
        if e is None:
            e = np.zeros(self._lead + (p, self._r), self._dtype)
        e = self._numpy(e, "e")
        if self._vector and e.shape == self._lead + (p,):
            e = e[..., None]
        if e.shape != self._lead + (p, self._r):
            alt = f" or {self._lead + (p,)}" if self._vector else ""
            raise ValueError(f"e must be of shape "
                             f"{self._lead + (p, self._r)}{alt}; it is "
                             f"{e.shape}")
        return U, e, p

    def remove_rows(self, k: int, p: int = 1, *, rows: Any = None) -> None:
        """Removes the rows k .. k+p-1 (0-based) of every problem's A and b
        (the thin and full forms; 0 <= k, 1 <= p, k + p <= n and n - p >=
        m, n the fewest rows of a problem, else ValueError).  ``rows`` (integers of
        the batch's shape, each in 0 .. p; default all p): problem i loses
        only the rows k .. k+rows[i]-1, and a problem given 0 stays as it
        is (the bounds then hold for each problem that loses rows).

        MATLAB: ``A(k+1:k+p,:,i) = []; b(k+1:k+p,:,i) = []`` (with rows:
        ``A(k+1:k+rows(i),:,i) = []``)

        A problem whose removal would leave its A numerically
        rank-deficient (the removals' rank rule of qru.LeastSquares)
        refuses it: its factorisation and row count stay as they were,
        the other problems lose the rows, and one
        ``numpy.linalg.LinAlgError`` names the refused problems (``rows``
        then tells the row counts apart).  The Q-less form cannot remove
        rows without their data and raises ValueError."""
        if self.q == "none":
            raise ValueError("the Q-less batch cannot remove rows (no Q): "
                             "use q='thin'")
        counts = per_problem(rows, self._lead, int(p), "rows", "p")
        info = np.asarray(_lib(self._f.remove_rows, int(k), int(p),
                                    counts))
        # info: the first numerically singular pivot of Rz, not a column
        raise_failed_pages(info, self._lead, "problems refused the removal",
                           {int(i): f"A1 rank-deficient (pivot {info[i]} "
                            "of the removed rows' Rz)"
                            for i in np.flatnonzero(info)})

    def remove_cols(self, k: int, p: int = 1) -> None:
        """Removes the columns k .. k+p-1 (0-based) of every problem's A
        (both forms; 0 <= k, 1 <= p, k + p <= m and p < m, else
        ValueError); the problems then have m - p unknowns.

        MATLAB: ``A(:,k+1:k+p,i) = []``

        Removing columns cannot make a problem rank-deficient: every
        problem takes it.  The residuals (or, Q-less, the residual norms)
        grow by what the removed columns explained."""
        _lib(self._f.remove_cols, int(k), int(p))
        self._m -= int(p)

    def add_cols(self, k: int, V: Any, A: Any = None, b: Any = None, *,
                 check_finite: bool = True) -> None:
        """Inserts the columns V (..., n, p) (or (..., n): one column)
        after column k (0-based) of every problem's A (n = ``shape[0]``,
        the most rows of a problem: a problem of fewer ``rows`` takes the
        first rows of its page; 0 <= k <= m and m + p <= the fewest rows,
        else ValueError); the problems then have m + p unknowns.  The
        Q-less form needs the current ``A`` (..., n, m) and ``b`` (..., n)
        or (..., n, r) (what the batch factorises, before the update;
        ``qru_lsq_batch_add_cols_data``: the corrected semi-normal
        equations); the thin and full forms take them as well (only their
        shapes are checked).

        MATLAB: ``A1(:,:,i) = [A(:,1:k,i) V(:,:,i) A(:,k+1:m,i)]``

        A problem whose new A would be numerically rank-deficient (a new
        column in the span of the others, or not finite with
        ``check_finite=False``; qru's QR rank rule, as
        ``LeastSquares.add_cols``) refuses the columns, and since m is the
        batch's no problem changes then: one ``numpy.linalg.LinAlgError``
        names the refusing problems.  The Q-less form without A and b
        raises ValueError."""
        if (A is None) != (b is None):
            raise ValueError("add_cols takes both A and b, or neither")
        if A is None and self.q == "none":
            raise ValueError("the Q-less batch needs the current A and b: "
                             "add_cols(k, V, A, b)")
        V = self._numpy(V, "V")
        n = self.shape[0]
        if V.ndim == len(self._lead) + 1:
            V = V[..., None]
        if V.shape[:-1] != self._lead + (n,) or V.shape[-1] < 1:
            raise ValueError(f"V must be of shape {self._lead + (n, 'p')} or "
                             f"{self._lead + (n,)}; it is {V.shape}")
        p = V.shape[-1]
        if A is None:
            info = np.asarray(_lib(self._f.add_cols, int(k),
                                   self._pack(V, p), bool(check_finite)))
        else:
            A, b = self._numpy(A, "A"), self._numpy(b, "b")
            b = b[..., None] if b.ndim == len(self._lead) + 1 else b
            r = self._r
            if A.shape != self._lead + (n, self._m):
                raise ValueError(f"A must be of shape "
                                 f"{self._lead + (n, self._m)}; it is "
                                 f"{A.shape}")
            if b.shape != self._lead + (n, r):
                raise ValueError(f"b must be of shape {self._lead + (n, r)} "
                                 f"or {self._lead + (n,)}; it is {b.shape}")
            info = np.asarray(_lib(self._f.add_cols_data, int(k),
                                   self._pack(V, p), self._pack(A, self._m),
                                   self._pack(b, r), bool(check_finite)))
        raise_failed_pages(info, self._lead, "problems refused the columns "
                           "(none changed)")
        self._m += p

    def modify(self, U: Any, V: Any, *, mask: Any = None,
               check_finite: bool = True) -> None:
        """The rank-k modification of every problem's A: A[i] + U[i] @
        V[i].T (complex: V[i].conj().T) for U (..., n, k) (or (..., n):
        k = 1; n = ``shape[0]``, the most rows of a problem: a problem of
        fewer ``rows`` takes the first rows of its page) and V (..., m,
        k) (or (..., m)); b is
        unchanged.  The thin and full forms (1 <= k <= each problem's
        rows - m, else ValueError); the Q-less form cannot (it has no Q)
        and raises ValueError.  ``mask`` (0/1 integers of the batch's
        shape; default all 1): the problems given 0 stay as they are.

        MATLAB: ``A(:,:,i) = A(:,:,i) + U(:,:,i)*V(:,:,i)'``

        A problem whose new A would be numerically rank-deficient (qru's
        QR rank rule) refuses: it stays as it was, the other problems are
        modified, and one ``numpy.linalg.LinAlgError`` names the refusing
        problems."""
        if self.q == "none":
            raise ValueError("the Q-less batch cannot take A + U V' (no Q): "
                             "use q='thin' or q='full'")
        U, V = self._numpy(U, "U"), self._numpy(V, "V")
        n, nl = self.shape[0], len(self._lead)
        U = U[..., None] if U.ndim == nl + 1 else U
        V = V[..., None] if V.ndim == nl + 1 else V
        if U.shape[:-1] != self._lead + (n,) or U.shape[-1] < 1:
            raise ValueError(f"U must be of shape {self._lead + (n, 'k')} or "
                             f"{self._lead + (n,)}; it is {U.shape}")
        k = U.shape[-1]
        if V.shape != self._lead + (self._m, k):
            raise ValueError(f"V must be of shape "
                             f"{self._lead + (self._m, k)}; it is {V.shape}")
        flags = per_problem(mask, self._lead, 1, "mask", "0 or 1")
        info = np.asarray(_lib(self._f.modify, self._pack(U, k),
                                    self._pack(V, k), bool(check_finite),
                                    flags))
        raise_failed_pages(info, self._lead, "problems refused the "
                           "modification (the others modified)")

    def _get(self, which, c, pad):
        M = self._unpack(_lib(self._f.get, which), c)
        if pad:  # the rows (and a full Q's columns) past a problem's rows
            nr = self.rows.reshape(self._lead + (1, 1))
            out = np.arange(M.shape[-2])[:, None] >= nr
            if which == "Q" and self.q == "full":
                out = out | (np.arange(M.shape[-1])[None, :] >= nr)
            M[np.broadcast_to(out, M.shape)] = 0
        return M

    @property
    def R(self) -> np.ndarray:
        """R (..., m, m), every problem's upper triangle.

        MATLAB: ``R(:,:,i)`` of ``qr(A(:,:,i), 0)``."""
        return self._get("R", self._m, False)

    @property
    def d(self) -> np.ndarray:
        """d = Q' b (..., m, r) (r kept for a vector b); the full form's
        (..., n, r), all of Q' b, padded as ``Q`` (its rows m .. n-1 hold
        the residual norms: ``norm(d[i, m:], axis=0)``).

        MATLAB: ``d(:,:,i) = Q1'*b(:,:,i)`` ('full': ``Q'*b(:,:,i)``)."""
        full = self.q == "full"
        return self._get("d", self._r, full)

    @property
    def Q(self) -> np.ndarray:
        """Q1 (..., n, m), the thin form's orthonormal columns: A[i] =
        Q[i] @ R[i]; the full form's whole Q (..., n, n), orthogonal, with
        A[i] = Q[i][:, :m] @ R[i].  Where row counts differ (a refused
        removal), n is the largest and the rows (and the full form's
        columns) of a page past its problem's count are zero.  The Q-less
        form raises ValueError.

        MATLAB: ``Q1(:,:,i)`` of ``[Q1, R] = qr(A(:,:,i), 0)`` ('full':
        ``Q(:,:,i)`` of ``[Q, R] = qr(A(:,:,i))``)."""
        if self.q == "none":
            raise ValueError("the Q-less batch holds no Q")
        return self._get("Q", self.shape[0] if self.q == "full" else self._m,
                         True)

    @property
    def residuals(self) -> np.ndarray:
        """E = b - A x (..., n) or (..., n, r), in the thin and full forms
        (padded as ``Q``).  The Q-less form raises ValueError
        (``residual_norms()``).

        MATLAB: ``E(:,:,i) = b(:,:,i) - A(:,:,i)*x(:,:,i)``."""
        if self.q == "none":
            raise ValueError("the Q-less batch keeps the residual norms "
                             "only (residual_norms())")
        E = self._get("E", self._r, True)
        return E[..., 0] if self._vector else E

    def solve(self) -> np.ndarray:
        """x (..., m) or (..., m, r): every problem's least-squares
        solution.  MATLAB: ``x(:,:,i) = R(:,:,i) \\ d(:,:,i)``.  Raises
        LinAlgError, naming the problems, when a problem is rank-deficient
        by qru's QR rank rule."""
        X, info = _lib(self._f.solve)
        raise_failed_pages(info, self._lead, "problems rank-deficient")
        X = self._unpack(X, self._r)
        return np.ascontiguousarray(X[..., 0] if self._vector else X)

    def residual_norms(self) -> np.ndarray:
        """(...,) or (..., r): ``||b[i] - A[i] x[i]||`` of every problem and
        right-hand side, from the sums of squares kept (thin: the column
        norms of the residuals kept)."""
        rho = np.asarray(self._f.residual()).reshape(self._lead + (self._r,))
        return rho[..., 0] if self._vector else rho
