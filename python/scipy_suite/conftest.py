"""Runs SciPy's own tests of qr_insert, qr_delete, qr_update and nnls
against qru: scripts/python-check copies the installed SciPy's
scipy/linalg/tests/test_decomp_update.py and
scipy/optimize/tests/test_nnls.py next to this file, with their lines
``from scipy.linalg._decomp_update import qr_delete, qr_update, qr_insert``
and ``from scipy.optimize import nnls`` replaced by ``from qru import
...`` of the same names and nothing else changed.

Skipped: in test_decomp_update.py the classes of the complex dtypes
(names ending in _F and _D) on a backend that does not compute in them
(qru's qr functions take complex64 and complex128 on the CPU backend; the
GPU backends take them later); in test_nnls.py the tests of _NNLS_SKIP,
for the reasons given there.  QRU_SCIPY_SUITE_BACKEND (cpu, opencl, cuda)
runs qru's functions on that backend (host arrays are copied to the
device and the results back); default: the CPU.
"""
import functools
import os
import re

import pytest

import qru

_COMPLEX = re.compile(r"^Test\w+_[FD]$")
_REAL = re.compile(r"^Test\w+_[fd]$")

#: the tests of SciPy's test_nnls.py that check what qru does otherwise
_NNLS_SKIP = {
    "test_atol_deprecation_warning":
        "qru: atol is not deprecated in qru.nnls: it is the threshold a "
        "column's dual value must exceed to enter (SciPy's is unused)",
    "test_2D_singleton_RHS_input":
        "qru: rnorm is ||A x - b|| of the returned x as computed (about "
        "6e-16 here); SciPy reports the exact 0 of a least-squares problem "
        "whose active set spans the rows",
}

_backend = os.environ.get("QRU_SCIPY_SUITE_BACKEND")
if _backend:
    # the test files import the names from qru after this module ran
    for _name in ("qr_insert", "qr_delete", "qr_update", "nnls"):
        setattr(qru, _name, functools.wraps(getattr(qru, _name))(
            functools.partial(getattr(qru, _name), backend=_backend)))


def _complex_ok():
    """Whether the backend of the suite computes in complex64 and
    complex128."""
    ctx = qru._arrays.context(_backend or "cpu")
    return ctx.supports_complex(True) and ctx.supports_complex(False)


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(
        reason=f"qru: the {_backend or 'cpu'} backend does not compute in "
               "complex64 / complex128 (the cpu backend does)")
    complex_ok = _complex_ok()
    real = {}
    for item in items:
        module = item.module.__name__
        if module.endswith("test_nnls"):
            real.setdefault(module, 0)
            if item.originalname in _NNLS_SKIP:
                item.add_marker(pytest.mark.skip(
                    reason=_NNLS_SKIP[item.originalname]))
            else:
                real[module] += 1
            continue
        real.setdefault(module, 0)
        name = item.cls.__name__ if item.cls is not None else ""
        if _COMPLEX.match(name):
            if complex_ok:
                real[module] += 1
            else:
                item.add_marker(skip)
        elif _REAL.match(name):
            real[module] += 1
    for module, count in real.items():
        if not count:
            raise pytest.UsageError(f"no test of {module} runs: is it "
                                    "SciPy's test_decomp_update.py or "
                                    "test_nnls.py?")
