"""qru: updating QR and Cholesky factorisations when rows or columns are
added or removed, on the qru C library (CPU, CUDA, OpenCL).

* :func:`qr_insert`, :func:`qr_delete`, :func:`qr_update`: SciPy's
  ``scipy.linalg.qr_insert``, ``qr_delete`` and ``qr_update`` (arguments,
  shapes, results).
* :func:`cholesky_update`, :func:`cholesky_insert`,
  :func:`cholesky_delete`: MATLAB's ``cholupdate`` and Octave's
  ``cholinsert`` / ``choldelete``, rank-k, upper or lower factors.
* :class:`LeastSquares`: ``min ||A x - b||`` held as an updatable QR
  factorisation with full Q, thin Q or no Q.

Arrays: NumPy on the CPU (or OpenCL / CUDA through copies), and CuPy,
PyTorch and JAX arrays on a CUDA device without copies, on the producer's
stream; the rules are in ``qru._arrays`` and docs/python.md.  Errors are
exceptions carrying the library's message: ValueError for a bad argument,
TypeError for a bad element type, ``numpy.linalg.LinAlgError`` for a
numerical failure (lost rank or definiteness).
"""
from __future__ import annotations

from . import _qru
from ._arrays import context as _context
from ._chol import cholesky_delete, cholesky_insert, cholesky_update
from ._lsq import LeastSquares
from ._qr import qr_delete, qr_insert, qr_update

__all__ = ["qr_insert", "qr_delete", "qr_update", "cholesky_update", "cholesky_insert",
           "cholesky_delete", "LeastSquares", "backends", "device_name",
           "__version__"]
__version__ = _qru.version()


def backends() -> list[str]:
    """The backends this build of qru has: 'cpu', and 'cuda' / 'opencl'
    where they were built."""
    return list(_qru.backends())


def device_name(backend: str = "cpu", device: int = -1) -> str:
    """The device a backend runs on (creates the backend's context;
    RuntimeError where the backend has no device here)."""
    return _context(backend, device, 0).device_name
