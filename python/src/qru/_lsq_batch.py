"""qru.LeastSquaresBatch: many small Q-less least-squares problems of the
same size (the C API's qru_lsq_batch), updated and solved in one call
each."""
from __future__ import annotations

from typing import Any

import numpy as np

from . import _qru
from ._arrays import _fw_name, numerical, prepare, raise_failed_pages


class LeastSquaresBatch:
    """A batch of least-squares problems ``min ||A[i] x - b[i]||``, each
    held as its Q-less QR factorisation (R and d = Q' b), all gaining rows
    and all solved in one call of the library each.

    MATLAB, for each page i: ``R = triu(qr(A(:,:,i))); d = Q'*b(:,:,i)``.

    ``A`` is (..., n, m) with m >= 1 and n >= 1 (the leading dimensions
    are the batch, as in SciPy's batched linear algebra), ``b`` (..., n)
    or (..., n, r).  The memory kept is about m (m + r) numbers a problem,
    whatever n.  NumPy arrays; the batch runs on the backend chosen
    (``backend=``: 'cpu', 'cuda', 'opencl'; by default the first
    available), and a failed call raises and leaves the batch unchanged.
    """

    def __init__(self, A: Any, b: Any, *, check_finite: bool = True,
                 backend: str | None = None) -> None:
        """Factorises every page of A and b."""
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
        self._dtype = np.float32 if A.dtype == np.float32 and \
            b.dtype == np.float32 else np.float64
        P = prepare((self._pack(A, m), self._pack(b, self._r)), ("A", "b"),
                    backend)
        self._P = P
        self._f = numerical(_qru.LsqBatch, P.ctx, *P.arrays, self._count,
                            bool(check_finite))

    # ---- helpers -------------------------------------------------------------

    @staticmethod
    def _numpy(x, name):
        if _fw_name(x) != "numpy":
            raise TypeError(f"qru: LeastSquaresBatch takes NumPy arrays; "
                            f"{name} is a {type(x).__module__} array")
        x = np.asarray(x)
        if x.dtype.kind not in "fiub":
            raise TypeError(f"qru: {name} has dtype {x.dtype}, not a real "
                            "number type")
        return x

    def _pack(self, X, c):
        """The pages of X (..., rows, c) side by side: rows x (count c),
        column-major, page i in columns i c .. i c + c - 1."""
        rows = X.shape[-2]
        X = X.reshape((self._count, rows, c)).astype(self._dtype, copy=False)
        return np.asfortranarray(np.moveaxis(X, 0, 1).reshape(
            rows, self._count * c))

    # ---- sizes ---------------------------------------------------------------

    @property
    def batch_shape(self) -> tuple:
        """The leading dimensions of A: the batch."""
        return self._lead

    @property
    def shape(self) -> tuple[int, int]:
        """(n, m), the shape of every page of A (n grows with add_rows)."""
        return self._f.rows(), self._m

    @property
    def nrhs(self) -> int:
        """r, the right-hand sides of every problem."""
        return self._r

    @property
    def dtype(self) -> type:
        """numpy.float32 or numpy.float64."""
        return self._dtype

    # ---- the update and the solve --------------------------------------------

    def add_rows(self, U: Any, e: Any = None, *,
                 check_finite: bool = True) -> None:
        """Adds rows to every problem: U (..., p, m) (or (..., m): one
        row) of A and e (..., p, r) of b (zeros if omitted; with a vector
        b, e may be (..., p)).
        MATLAB: ``A1(:,:,i) = [A(:,:,i); U(:,:,i)]``."""
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
        conv = (self._pack(U, self._m), self._pack(e, self._r))
        numerical(self._f.add_rows, *conv, bool(check_finite))

    def solve(self) -> np.ndarray:
        """x (..., m) or (..., m, r): every problem's least-squares
        solution.  MATLAB: ``x(:,:,i) = R(:,:,i) \\ d(:,:,i)``.  Raises
        LinAlgError, naming the problems, when a problem is rank-deficient
        by qru's QR rank rule."""
        X, info = numerical(self._f.solve)
        raise_failed_pages(info, self._lead, "problems rank-deficient")
        X = np.asarray(X).reshape(self._m, self._count, self._r)
        X = np.moveaxis(X, 1, 0).reshape(self._lead + (self._m, self._r))
        return np.ascontiguousarray(X[..., 0] if self._vector else X)

    def residual_norms(self) -> np.ndarray:
        """(...,) or (..., r): ``||b[i] - A[i] x[i]||`` of every problem and
        right-hand side, from the sums of squares kept."""
        rho = np.asarray(self._f.residual()).reshape(self._lead + (self._r,))
        return rho[..., 0] if self._vector else rho
