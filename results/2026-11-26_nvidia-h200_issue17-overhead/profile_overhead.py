"""Where the Python layer's time goes for a CuPy call (issue 17): host-side
pieces of qru.cholesky_update(R, x, overwrite_R=True, check_finite=False)
on a 32 x 32 factor, each timed over many calls (no GPU work in them),
and the binding of the two arguments by _qru through DLPack against the
raw tuples of qru._arrays._raw (time_chol_update with reps = 0: bind the
arrays, synchronise twice, no update)."""
import statistics
import time

import cupy as cp
import numpy as np

import qru
from qru import _arrays, _qru


def per_call(fn, n=20000, rounds=7):
    for _ in range(1000):
        fn()
    ts = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        ts.append((time.perf_counter() - t0) / n)
    return statistics.median(ts) * 1e6


n = 32
rng = np.random.default_rng(1)
B = rng.uniform(-1, 1, (2 * n, n))
R = cp.asfortranarray(cp.asarray(np.linalg.cholesky(B.T @ B).T))
x = cp.asarray(0.1 * rng.uniform(-1, 1, (n, 1)))
qru.cholesky_update(R, x, "+", overwrite_R=True, check_finite=False)
P = _arrays.prepare((R, x), ("R", "x"))
ctx = P.ctx
rows = [
    ("prepare (quick path)", lambda: _arrays.prepare((R, x), ("R", "x"))),
    ("_CuPy(R)", lambda: _arrays._CuPy(R)),
    ("current stream", lambda: P.fw.stream(0)),
    ("_raw(R) + _raw(x)", lambda: (_arrays._raw(R), _arrays._raw(x))),
    ("R.__dlpack__() + x.__dlpack__()", lambda: (R.__dlpack__(), x.__dlpack__())),
    ("bind via DLPack (time_chol_update reps 0)",
     lambda: _qru.time_chol_update(ctx, "U", R, x, 0)),
    ("bind raw (time_chol_update reps 0)",
     lambda: _qru.time_chol_update(ctx, "U", _arrays._raw(R), _arrays._raw(x), 0)),
    ("ctx.sync() x2 alone", lambda: (ctx.sync(), ctx.sync())),
]
print(f"qru {qru.__version__}, CuPy {cp.__version__}, device {ctx.device_name}")
for name, fn in rows:
    print(f"{name:44s} {per_call(fn, 5000 if 'bind' in name or 'sync' in name else 20000):8.2f} us")
