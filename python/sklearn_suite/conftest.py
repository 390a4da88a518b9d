"""Runs scikit-learn's own tests of orthogonal_mp against qru:
scripts/python-check copies the installed scikit-learn's
sklearn/linear_model/tests/test_omp.py next to this file with one line
appended, ``from qru import orthogonal_mp``, which replaces the name the
tests call (they look it up when they run) and changes nothing else.

The tests that never call orthogonal_mp (the estimator classes, which call
scikit-learn's own function, and orthogonal_mp_gram) are skipped.
QRU_SKLEARN_SUITE_BACKEND (cpu, opencl, cuda) runs qru's function on that
backend (the arrays are copied to the device); default: the CPU.
"""
import functools
import inspect
import os
import re

import pytest

import qru

_CALLS = re.compile(r"\borthogonal_mp\(")

_backend = os.environ.get("QRU_SKLEARN_SUITE_BACKEND")
if _backend:
    # the test file imports the name from qru after this module ran
    qru.orthogonal_mp = functools.wraps(qru.orthogonal_mp)(
        functools.partial(qru.orthogonal_mp, backend=_backend))


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="qru: does not call orthogonal_mp")
    ours = 0
    for item in items:
        fn = getattr(item.module, "orthogonal_mp", None)
        if getattr(fn, "__module__", None) != "qru._omp":
            raise pytest.UsageError(
                f"{item.module.__file__} calls {fn!r}, not qru's "
                "orthogonal_mp: was the import line appended?")
        if _CALLS.search(inspect.getsource(item.function)):
            ours += 1
        else:
            item.add_marker(skip)
    if not ours:
        raise pytest.UsageError("no test calls orthogonal_mp: is this "
                                "scikit-learn's test_omp.py?")
