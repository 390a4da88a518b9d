"""Shared by the tests: the backends to run (QRU_PYTEST_BACKENDS narrows
them, e.g. "cpu"), the 30-unit threshold and the scaled checks."""
import os

import numpy as np
import pytest

import qru

THRESH = 30.0


def _usable(backend):
    try:
        qru.device_name(backend)
        return True
    except RuntimeError:
        return False


def host_backends():
    """The backends of this build that run here and take host arrays
    (all of them: a device backend copies them)."""
    avail = qru.backends()
    asked = os.environ.get("QRU_PYTEST_BACKENDS")
    names = asked.split(",") if asked else avail
    return [b for b in names if b in avail and _usable(b)]


def eps(dt):
    return float(np.finfo(dt).eps)


def scaled_residual(X, Y, dt, n):
    """|X - Y|_F / (|Y|_F eps n) (complex X or Y in complex128)."""
    X, Y = np.asarray(X), np.asarray(Y)
    t = np.complex128 if np.iscomplexobj(X) or np.iscomplexobj(Y) \
        else np.float64
    X, Y = X.astype(t), Y.astype(t)
    return np.linalg.norm(X - Y) / (np.linalg.norm(Y) * eps(dt) * n)


def orthogonality(Q, dt):
    """|Q' Q - I|_F / (eps n) (' the conjugate transpose)."""
    Q = np.asarray(Q)
    Q = Q.astype(np.complex128 if np.iscomplexobj(Q) else np.float64)
    return (np.linalg.norm(Q.conj().T @ Q - np.eye(Q.shape[1])) /
            (eps(dt) * Q.shape[0]))


def check_bad_data(fn, X, y):
    """fn(X, y) of a solver on (X, y): a NaN in X and an infinity in y
    are bad arguments 2 and 3 (ValueError), a complex X a TypeError."""
    Xn = X.copy()
    Xn[3, 4] = np.nan
    with pytest.raises(ValueError, match="argument 2"):
        fn(Xn, y)
    yn = y.copy()
    yn[5] = np.inf
    with pytest.raises(ValueError, match="argument 3"):
        fn(X, yn)
    with pytest.raises(TypeError):
        fn(X.astype(np.complex128), y)
