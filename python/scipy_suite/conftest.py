"""Runs SciPy's own tests of qr_insert, qr_delete and qr_update against
qru: scripts/python-check copies the installed SciPy's
scipy/linalg/tests/test_decomp_update.py next to this file, with its line
``from scipy.linalg._decomp_update import qr_delete, qr_update, qr_insert``
replaced by ``from qru import qr_delete, qr_update, qr_insert`` and nothing
else changed.

The classes of the complex dtypes (names ending in _F and _D) are skipped:
qru's qr functions take float32 and float64 arrays (complex dtypes are a
later feature).  QRU_SCIPY_SUITE_BACKEND (cpu, opencl, cuda) runs qru's
functions on that backend (host arrays are copied to the device and the
results back); default: the CPU.
"""
import functools
import os
import re

import pytest

import qru

_COMPLEX = re.compile(r"^Test\w+_[FD]$")
_REAL = re.compile(r"^Test\w+_[fd]$")

_backend = os.environ.get("QRU_SCIPY_SUITE_BACKEND")
if _backend:
    # the test file imports the names from qru after this module ran
    for _name in ("qr_insert", "qr_delete", "qr_update"):
        setattr(qru, _name, functools.wraps(getattr(qru, _name))(
            functools.partial(getattr(qru, _name), backend=_backend)))


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(
        reason="qru: complex dtypes are a later feature (qr_insert, "
               "qr_delete and qr_update take float32 and float64)")
    real = 0
    for item in items:
        name = item.cls.__name__ if item.cls is not None else ""
        if _COMPLEX.match(name):
            item.add_marker(skip)
        elif _REAL.match(name):
            real += 1
    if not real:
        raise pytest.UsageError("no test of a real dtype was collected: "
                                "is this SciPy's test_decomp_update.py?")
