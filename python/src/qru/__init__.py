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
* :func:`nnls`: SciPy's ``scipy.optimize.nnls`` (non-negative least
  squares, Lawson-Hanson) on the column updates.
* :func:`orthogonal_mp`: scikit-learn's ``orthogonal_mp`` (orthogonal
  matching pursuit) on the column updates.
* :func:`lars_path`: scikit-learn's ``lars_path`` (least angle regression
  and the Lasso path) on the column updates.

BLAS threads: the CPU backend calls the system BLAS the extension links,
which is not the OpenBLAS that NumPy and SciPy wheels bundle; two
OpenBLAS thread pools on the same cores oversubscribe them (a pool left
spinning after NumPy's work slows qru's next call).  Where another
OpenBLAS is loaded in the process, qru sets its own to one thread at
import (:func:`set_blas_threads` changes it, :func:`blas_threads` reads
it; the environment variable ``QRU_BLAS_THREADS`` sets it at import, and
``OPENBLAS_NUM_THREADS`` / ``OMP_NUM_THREADS`` leave OpenBLAS's own
choice).

Arrays: NumPy on the CPU (or OpenCL / CUDA through copies), and CuPy,
PyTorch and JAX arrays on a CUDA device without copies, on the producer's
stream; the rules are in ``qru._arrays`` and docs/python.md.  Errors are
exceptions carrying the library's message: ValueError for a bad argument,
TypeError for a bad element type, ``numpy.linalg.LinAlgError`` for a
numerical failure (lost rank or definiteness).
"""
from __future__ import annotations

import os

from . import _qru
from ._arrays import context as _context
from ._chol import cholesky_delete, cholesky_insert, cholesky_update
from ._lars import lars_path
from ._lsq import LeastSquares
from ._lsq_batch import LeastSquaresBatch
from ._omp import orthogonal_mp
from ._qr import qr_delete, qr_insert, qr_update
from ._solvers import nnls

__all__ = ["qr_insert", "qr_delete", "qr_update", "cholesky_update", "cholesky_insert",
           "cholesky_delete", "LeastSquares", "nnls", "backends", "device_name",
           "show_config", "blas_threads", "set_blas_threads", "__version__"]
__all__ += ["orthogonal_mp", "lars_path", "LeastSquaresBatch"]
__version__ = _qru.version()


def blas_threads() -> int:
    """The thread count of the BLAS that qru's CPU backend calls (the
    OpenBLAS the extension links, not NumPy's copy); -1 where that BLAS is
    not OpenBLAS."""
    return _qru.blas_threads()


def set_blas_threads(n: int) -> int:
    """Sets the thread count of the BLAS that qru's CPU backend calls
    (OpenBLAS's ``openblas_set_num_threads``; NumPy's own BLAS is not
    touched) and returns the count now (-1: not OpenBLAS, nothing set)."""
    return _qru.set_blas_threads(int(n))


def _other_openblas() -> bool:
    """True if an OpenBLAS other than the extension's is mapped in this
    process (NumPy's or SciPy's bundled copy): two thread pools."""
    mine = _qru.blas_library()
    if not mine:
        return False
    mine = os.path.realpath(mine)
    try:
        with open("/proc/self/maps") as f:
            paths = {line.split(None, 5)[-1].strip() for line in f
                     if "openblas" in line.lower()}
    except OSError:
        return False
    return any(os.path.realpath(p) != mine for p in paths if p.startswith("/"))


def _blas_policy() -> None:
    """The thread policy at import (the module documentation)."""
    n = os.environ.get("QRU_BLAS_THREADS")
    if n:
        set_blas_threads(int(n))
    elif not any(os.environ.get(v) for v in (
            "OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")) \
            and _other_openblas():
        set_blas_threads(1)


_blas_policy()


def backends() -> list[str]:
    """The backends this build of qru has: 'cpu', and 'cuda' / 'opencl'
    where they were built."""
    return list(_qru.backends())


def device_name(backend: str = "cpu", device: int = -1) -> str:
    """The device a backend runs on (creates the backend's context;
    RuntimeError where the backend has no device here)."""
    return _context(backend, device, 0).device_name


def show_config(mode: str = "stdout"):
    """The build and what it finds here, as ``numpy.show_config()``: qru's
    version, the backends built and, for each, whether it runs on this
    machine and on what (the device; for the CPU backend the BLAS and
    LAPACKE it calls, for CUDA and OpenCL the module file) or why not
    (module not found or not loadable, no driver, no device), then the
    backend ``'auto'`` picks.  The lines are those of ``qru info`` (the C
    library's ``qru_backend_info``).  Each backend is tried by creating a
    context, which loads its module (and the CUDA or OpenCL libraries);
    on a machine without a CUDA driver nothing of CUDA is loaded.

    ``mode='stdout'`` prints; ``mode='dicts'`` returns
    ``{'version': str, 'backends': {name: {'built': bool, 'usable':
    bool, 'info': str}}, 'auto': str or None}`` instead."""
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', not {mode!r}")
    built = backends()
    config = {"version": __version__, "backends": {}, "auto": None}
    for b in ("cpu", "cuda", "opencl"):
        st, line = _qru.backend_info(b)
        config["backends"][b] = {"built": b in built, "usable": st == 0,
                                 "info": line}
    st, line = _qru.backend_info("auto")
    if st == 0:
        config["auto"] = line
    if mode == "dicts":
        return config
    print(f"qru {config['version']}")
    print("backends compiled in: " + " ".join(built))
    for b, c in config["backends"].items():
        print(f"  {b:<7} {'usable' if c['usable'] else 'unavailable'}: "
              f"{c['info']}")
    print(f"auto picks {config['auto'] or 'none'}")
    return None
