"""qru.LeastSquares: min ||A x - b|| held as an updatable QR factorisation
(the C API's qru_lsq) in one of three forms."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _qru
from ._arrays import convert_like, numerical, prepare

_FORMS = {"full": 0, "thin": 1, "none": 2}


class LeastSquares:
    """A least-squares problem ``min ||A x - b||`` held as its QR
    factorisation, kept up to date while rows and columns of A come and go.

    MATLAB (``q``): ``[Q, R] = qr(A); d = Q'*b`` ('full'),
    ``[Q1, R] = qr(A, 0); d = Q1'*b`` ('thin'),
    ``R = triu(qr(A, 0)); d = R' \\ (A'*b)`` ('none', Q-less).

    ``A`` is (n, m) with n >= m >= 1, ``b`` (n,) or (n, r), real or
    complex: complex A or b make a complex object (complex64 where both
    are float32 or complex64, else complex128, as NumPy promotes; Q
    unitary and ' the conjugate transpose in the MATLAB lines), on a
    backend that takes complex data (TypeError elsewhere); a real object
    refuses complex arrays in its updates (TypeError).  The memory
    kept: 'full' n^2 + n (m + r), 'thin' (n + m)(m + r), 'none' about
    2 m (m + r) numbers whatever n (the form for sliding windows); all
    updates work in every form, but the Q-less form needs the data for
    two of them: ``remove_rows`` the removed rows (``U``, ``e``) and
    ``add_cols`` the current ``A`` and ``b``.

    The arrays may come from NumPy, CuPy, PyTorch or JAX (the conversion
    rules of ``qru._arrays``); the object lives in the memory of the
    backend that ran its creation (on the CUDA stream current then, or
    ``stream=``), and the arrays given to its methods are converted to its
    framework's column-major form of its element type.  Results (x, the
    factors) are arrays of that framework.  A failed update (bad argument,
    numerical failure) raises and leaves the object unchanged.
    """

    def __init__(self, A: Any, b: Any, q: str = "full", *,
                 check_finite: bool = True, backend: str | None = None,
                 stream: int | None = None) -> None:
        """Factorises A and b: the MATLAB lines of the class documentation
        for the form ``q`` ('full', 'thin' or 'none')."""
        if q not in _FORMS:
            raise ValueError("q must be 'full', 'thin' or 'none'")
        P = prepare((A, b), ("A", "b"), backend, stream, allow_complex=True)
        A, b = P.arrays
        if A.ndim != 2:
            raise ValueError(f"A must be 2-D; it is {tuple(A.shape)}")
        self._vector = b.ndim == 1
        b = self._2d(P.fw, b, "b", A.shape[0])
        self._P = P
        self._f = _qru.Lsq(P.ctx, A, b, _FORMS[q], bool(check_finite))
        self._alg = "auto"

    # ---- helpers ---------------------------------------------------------

    @staticmethod
    def _2d(fw, x, name, rows=None):
        """x as a 2-D array: a vector as one column (rows = its length) or,
        with rows given and x of another length, one row."""
        if x.ndim == 1:
            col = rows is None or x.shape[0] == rows
            x = fw.reshape2(x, (x.shape[0], 1) if col else (1, x.shape[0]))
        if x.ndim != 2:
            raise ValueError(f"{name} must be 1-D or 2-D")
        return x

    def _conv(self, arrays, names):
        P = self._P
        return convert_like(P.fw, P.dtype, arrays, names, check=True)

    def _run(self, fn, *args):
        numerical(fn, *args)

    # ---- sizes -------------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        """(n, m), the shape of A.  MATLAB: ``[n, m] = size(A)``"""
        return self._f.rows, self._f.cols

    @property
    def nrhs(self) -> int:
        """r, the number of right-hand sides.  MATLAB: ``r = size(b, 2)``"""
        return self._f.nrhs

    @property
    def q(self) -> str:
        """The form: 'full', 'thin' or 'none'."""
        return ("full", "thin", "none")[self._f.q_form]

    @property
    def dtype(self) -> type:
        """numpy.float32 or numpy.float64."""
        return self._P.dtype

    @property
    def algorithm(self) -> str:
        """How the updates run: 'auto' (the default: update, or
        refactorise where the plans predict that faster, in the forms
        that hold Q), 'fast' or 'dissertation' (always update), or
        'refactor' (always refactorise, in the forms that hold Q)."""
        return self._alg

    @algorithm.setter
    def algorithm(self, name: str) -> None:
        algs = {"fast": 0, "dissertation": 1, "auto": 2, "refactor": 3}
        if name not in algs:
            raise ValueError("algorithm must be 'auto', 'fast', "
                             "'dissertation' or 'refactor'")
        self._f.set_algorithm(algs[name])
        self._alg = name

    # ---- the updates ---------------------------------------------------------

    def add_rows(self, k: int, U: Any, e: Any = None, *,
                 check_finite: bool = True) -> None:
        """Adds the p rows U (p, m) (or (m,)) of A and e (p, r) of b
        (zeros if omitted) before row k (0-based).

        MATLAB: ``A = [A(1:k,:); U; A(k+1:end,:)]; b = [b(1:k,:); e; b(k+1:end,:)]``
        """
        U, e = self._conv((U, e), ("U", "e"))
        fw = self._P.fw
        U = self._2d(fw, U, "U", rows=-1)
        if e is None:
            e = fw.zeros((U.shape[0], self.nrhs), self.dtype)
        e = self._2d(fw, e, "e", U.shape[0])
        self._run(self._f.add_rows, int(k), U, e, bool(check_finite))

    def remove_rows(self, k: int, p: int | None = None, U: Any = None,
                    e: Any = None, *, check_finite: bool = True) -> None:
        """Removes the rows k .. k+p-1 (0-based) of A and b.

        MATLAB: ``A(k+1:k+p, :) = []; b(k+1:k+p, :) = []``

        The Q-less form needs the rows removed: ``U = A[k:k+p]`` and
        ``e = b[k:k+p]`` (p is then U's row count); the other forms take
        them as well (only their sizes are checked).  A Q-less or thin
        removal that would leave A numerically rank-deficient raises
        ``numpy.linalg.LinAlgError``.
        """
        if U is None:
            if self.q == "none":
                raise ValueError(
                    "the Q-less form needs the rows removed: "
                    "remove_rows(k, U=A[k:k+p], e=b[k:k+p])")
            if e is not None:
                raise ValueError("e is given without U")
            self._run(self._f.remove_rows, int(k), 1 if p is None else int(p))
            return
        U, e = self._conv((U, e), ("U", "e"))
        fw = self._P.fw
        U = self._2d(fw, U, "U", rows=-1)
        if p is not None and p != U.shape[0]:
            raise ValueError(f"p = {p}, but U has {U.shape[0]} rows")
        if e is None:
            raise ValueError("remove_rows with U needs e, the rows of b")
        e = self._2d(fw, e, "e", U.shape[0])
        self._run(self._f.remove_rows_data, int(k), U, e, bool(check_finite))

    def add_cols(self, k: int, U: Any, A: Any = None, b: Any = None, *,
                 check_finite: bool = True) -> None:
        """Adds the p columns U (n, p) (or (n,)) of A before column k
        (0-based).

        MATLAB: ``A = [A(:,1:k) U A(:,k+1:end)]``

        The Q-less form needs the current ``A`` (n, m) and ``b`` (what the
        object factorises, before the update); the other forms take them
        as well (only their sizes are checked).  Columns that make A
        numerically rank-deficient raise ``numpy.linalg.LinAlgError``.
        """
        if (A is None) != (b is None):
            raise ValueError("add_cols takes both A and b, or neither")
        if A is None and self.q == "none":
            raise ValueError("the Q-less form needs the current A and b: "
                             "add_cols(k, U, A, b)")
        U, A, b = self._conv((U, A, b), ("U", "A", "b"))
        fw = self._P.fw
        U = self._2d(fw, U, "U")
        if A is None:
            self._run(self._f.add_cols, int(k), U, bool(check_finite))
            return
        A = self._2d(fw, A, "A")
        b = self._2d(fw, b, "b")
        self._run(self._f.add_cols_data, int(k), U, A, b, bool(check_finite))

    def remove_cols(self, k: int, p: int = 1) -> None:
        """Removes the columns k .. k+p-1 (0-based) of A.

        MATLAB: ``A(:, k+1:k+p) = []``
        """
        self._run(self._f.remove_cols, int(k), int(p))

    def modify(self, U: Any, V: Any, *, check_finite: bool = True) -> None:
        """Rank-k modification of A: A + U V' for U (n, k) (or (n,)) and
        V (m, k) (or (m,)), in one blocked update; b is unchanged.

        MATLAB: ``A = A + U*V'``

        The full and thin forms (thin: k <= n - m); the Q-less form
        cannot (it has no Q) and raises ValueError.  A numerically
        rank-deficient result raises ``numpy.linalg.LinAlgError`` and
        leaves the object unchanged.
        """
        if self.q == "none":
            raise ValueError("the Q-less form cannot take A + U V' (no Q): "
                             "use the full or thin form")
        U, V = self._conv((U, V), ("U", "V"))
        fw = self._P.fw
        U = self._2d(fw, U, "U")
        V = self._2d(fw, V, "V")
        self._run(self._f.modify, U, V, bool(check_finite))

    # ---- the solution and the factors -----------------------------------------

    def solve(self) -> Any:
        """The least-squares solution, (m,) for a vector b, else (m, r).

        MATLAB: ``x = A \\ b`` (= ``R(1:m,1:m) \\ d(1:m,:)``)

        A numerically rank-deficient A raises ``numpy.linalg.LinAlgError``.
        """
        x = self._P.out(numerical(self._f.solve))
        return x[:, 0] if self._vector else x

    def residual(self) -> float | np.ndarray:
        """The residual norms ||A x - b|| (a float for a vector b).

        MATLAB: ``res(j) = norm(A*x(:,j) - b(:,j))``
        """
        r = np.asarray(self._f.residual())
        return float(r[0]) if self._vector else r

    def _get(self, which, full):
        return self._P.out(self._f.get(which, full))

    @property
    def R(self) -> Any:
        """R: (n, m) in the full form, (m, m) otherwise.

        MATLAB: ``R`` of ``[Q, R] = qr(A)`` or of ``qr(A, 0)``."""
        return self._get("R", self.q == "full")

    @property
    def Q(self) -> Any:
        """Q: (n, n) in the full form, Q1 (n, m) in the thin form.

        MATLAB: ``Q`` of ``[Q, R] = qr(A)`` or of ``qr(A, 0)``.  The Q-less
        form raises ValueError."""
        if self.q == "none":
            raise ValueError("the Q-less form holds no Q")
        return self._get("Q", self.q == "full")

    @property
    def d(self) -> Any:
        """d = Q' b: (n, r) in the full form, (m, r) otherwise.

        MATLAB: ``d = Q'*b``."""
        return self._get("d", self.q == "full")

    @property
    def residuals(self) -> Any:
        """E = b - A x (n, r), in the full and thin forms.

        MATLAB: ``E = b - A*(A \\ b)``."""
        if self.q == "none":
            raise ValueError("the Q-less form keeps the residual norms "
                             "only (residual())")
        return self._get("E", False)

    @property
    def downdate_condition(self) -> float:
        """The accuracy estimate of the last row removal (thin and Q-less
        forms; 0 if none): c = 1 / min |diag(Rz)|, Rz' Rz = I - Qk Qk'.

        MATLAB: ``c = 1 / min(abs(diag(chol(eye(p) - Qk*Qk'))))``"""
        return self._f.downdate_condition

    def error_estimate(self) -> float:
        """The relative error the updates of a Q-less factorisation have
        accumulated in x (one refinement step on the normal equations).

        MATLAB: ``dx = R \\ (R' \\ (A'*b - A'*A*x)); est = max(vecnorm(dx) ./ vecnorm(x))``
        """
        if self.q != "none":
            raise ValueError("error_estimate is for the Q-less form")
        return numerical(self._f.error_estimate)

    def __repr__(self) -> str:
        n, m = self.shape
        return (f"qru.LeastSquares(n={n}, m={m}, r={self.nrhs}, q='{self.q}', "
                f"dtype={np.dtype(self.dtype).name}, "
                f"backend='{self._P.ctx.backend}')")
