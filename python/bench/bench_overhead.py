"""The cost of calling qru through Python: a rank-1 Cholesky update of a
small factor (n = 32, alternately '+' and '-', in place, no finiteness
scan) through qru.cholesky_update, against the same C call looped in C++
(_qru.time_chol_update) on the same arrays and context.  The difference is
what the Python layer adds a call (argument checks and conversion rules,
DLPack import of the arrays, context lookup, wrapping); the issue's target
is <= 10 us a call.

    python bench_overhead.py [numpy] [cupy] [torch]   (default: all found)

numpy runs on the CPU backend; cupy and torch on the CUDA backend, on the
producer's current stream.  Python and C batches of --calls calls
alternate (--batches pairs), each timed with the device synchronised at
its ends; the layer's cost is the median of the paired differences."""
import argparse
import importlib
import statistics
import time

import numpy as np

import qru
from qru import _arrays, _qru


def setup(name, n):
    rng = np.random.default_rng(1)
    B = rng.uniform(-1, 1, (2 * n, n))
    R = np.asfortranarray(np.linalg.cholesky(B.T @ B).T)
    x = 0.1 * rng.uniform(-1, 1, (n, 1))
    if name == "numpy":
        return R, x, lambda: None
    mod = importlib.import_module(name)
    if name == "cupy":
        return (mod.asfortranarray(mod.asarray(R)), mod.asarray(x),
                mod.cuda.get_current_stream().synchronize)
    Rt = mod.from_numpy(np.ascontiguousarray(R.T)).cuda().t()
    return Rt, mod.from_numpy(x).cuda(), mod.cuda.synchronize


def run(name, n, calls, batches):
    R, x, sync = setup(name, n)
    upd = qru.cholesky_update
    for sign in "+-" * 50:  # warm up: contexts, kernels, pools
        upd(R, x, sign, overwrite_R=True, check_finite=False)
    sync()
    P = _arrays.prepare((R, x), ("R", "x"))
    Rc, xc = P.arrays

    def python_batch():
        t0 = time.perf_counter()
        for i in range(calls // 2):
            upd(R, x, "+", overwrite_R=True, check_finite=False)
            upd(R, x, "-", overwrite_R=True, check_finite=False)
        sync()
        return (time.perf_counter() - t0) / calls

    # Python and C batches alternate, so that drifts of the device's time
    # a call (clocks, other load) fall on both; the layer's cost is the
    # median of the differences of neighbouring batches
    py, c, diff = [], [], []
    for _ in range(batches):
        tp = python_batch()
        tc = _qru.time_chol_update(P.ctx, "U", Rc, xc, calls)
        py.append(tp)
        c.append(tc)
        diff.append(tp - tc)
    tp, tc, td = statistics.median(py), statistics.median(c), \
        statistics.median(diff)
    print(f"{name:6s} backend {P.ctx.backend:5s} n = {n}: Python "
          f"{tp * 1e6:8.2f} us/call, C {tc * 1e6:8.2f} us/call, "
          f"Python layer {td * 1e6:6.2f} us/call (median of {batches} "
          f"paired batches, spread {min(diff) * 1e6:.2f} .. "
          f"{max(diff) * 1e6:.2f}; target <= 10)")
    return tp, tc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("producers", nargs="*")
    ap.add_argument("--n", type=int, default=32)
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--batches", type=int, default=15)
    a = ap.parse_args()
    names = a.producers
    if not names:
        names = ["numpy"]
        for m in ("cupy", "torch"):
            try:
                importlib.import_module(m)
                names.append(m)
            except ImportError:
                pass
    print(f"qru {qru.__version__}, backends {qru.backends()}")
    for name in names:
        run(name, a.n, a.calls, a.batches)


if __name__ == "__main__":
    main()
