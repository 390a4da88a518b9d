"""Runs scikit-learn's own tests of orthogonal_mp and lars_path against
qru: scripts/python-check copies the installed scikit-learn's
sklearn/linear_model/tests/test_omp.py and test_least_angle.py next to
this file, each with one line appended, ``from qru import orthogonal_mp``
or ``from qru import lars_path``, which replaces the name the tests call
(they look it up when they run) and changes nothing else.

test_omp.py: the tests that never call orthogonal_mp (the estimator
classes, which call scikit-learn's own function, and orthogonal_mp_gram)
are skipped.

test_least_angle.py: most of its tests call ``linear_model.lars_path``
or fit the estimators (Lars, LassoLars, LarsCV, LassoLarsCV,
LassoLarsIC), which look up ``lars_path`` in
sklearn.linear_model._least_angle when they run; this module puts qru's
function in both places, so the estimators' paths are qru's.  The tests
in LARS_SKIPPED are skipped with their reasons; every other test must
call qru's lars_path (counted: a test that never does fails).

QRU_SKLEARN_SUITE_BACKEND (cpu, opencl, cuda) runs qru's functions on
that backend (the arrays are copied to the device); default: the CPU.
"""
import functools
import inspect
import os
import re

import pytest

import qru
import sklearn.linear_model
import sklearn.linear_model._least_angle

_CALLS = re.compile(r"\borthogonal_mp\(")

#: test_least_angle.py's tests that cannot apply to qru, with the reason
#: (none with scikit-learn 1.9.1)
LARS_SKIPPED: dict[str, str] = {}

_backend = os.environ.get("QRU_SKLEARN_SUITE_BACKEND")
if _backend:
    # the test files import the names from qru after this module ran
    qru.orthogonal_mp = functools.wraps(qru.orthogonal_mp)(
        functools.partial(qru.orthogonal_mp, backend=_backend))
    qru.lars_path = functools.wraps(qru.lars_path)(
        functools.partial(qru.lars_path, backend=_backend))

_lars_calls = []
_qru_lars = qru.lars_path


@functools.wraps(_qru_lars)
def _counted_lars_path(*args, **kwargs):
    _lars_calls.append(1)
    return _qru_lars(*args, **kwargs)


qru.lars_path = _counted_lars_path
# the name the tests call as linear_model.lars_path, and the one the
# estimator classes look up
sklearn.linear_model.lars_path = _counted_lars_path
sklearn.linear_model._least_angle.lars_path = _counted_lars_path

_OURS = {  # test file: (the name replaced, qru's module of it)
    "test_omp.py": ("orthogonal_mp", "qru._omp"),
    "test_least_angle.py": ("lars_path", "qru._lars"),
}


def pytest_collection_modifyitems(config, items):
    ours = {}
    for item in items:
        base = os.path.basename(item.module.__file__)
        if base not in _OURS:
            raise pytest.UsageError(f"{base} is not one of {sorted(_OURS)}")
        name, module = _OURS[base]
        fn = getattr(item.module, name, None)
        if getattr(fn, "__module__", None) != module:
            raise pytest.UsageError(
                f"{item.module.__file__} calls {fn!r}, not qru's {name}: "
                "was the import line appended?")
        ours.setdefault(base, 0)
        if base == "test_omp.py":
            if _CALLS.search(inspect.getsource(item.function)):
                ours[base] += 1
            else:
                item.add_marker(pytest.mark.skip(
                    reason="qru: does not call orthogonal_mp"))
        elif item.originalname in LARS_SKIPPED:
            item.add_marker(pytest.mark.skip(
                reason=LARS_SKIPPED[item.originalname]))
        else:
            ours[base] += 1
    for base, n in ours.items():
        if not n:
            raise pytest.UsageError(f"no test of {base} calls qru: is this "
                                    "scikit-learn's file?")
    unknown = set(LARS_SKIPPED) - {item.originalname for item in items}
    if "test_least_angle.py" in ours and unknown:
        raise pytest.UsageError("test_least_angle.py has no tests "
                                f"{sorted(unknown)} to skip")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    _lars_calls.clear()
    result = yield
    if os.path.basename(item.module.__file__) == "test_least_angle.py" \
            and not _lars_calls:
        raise AssertionError(f"{item.name} never called qru's lars_path")
    return result
