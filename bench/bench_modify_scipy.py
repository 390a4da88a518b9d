#!/usr/bin/env python3
"""SciPy's side of the rank-k modification benchmark: the time
of scipy.linalg.qr_update(Q, R, u, v) (full Q, and economic where SciPy
takes it) against refactorising A + u v' with scipy.linalg.qr, for
k = 1, 8, 64, at the shape of bench_modify --cpu-ref (default n = 2000,
m = 750).  Not run by CTest; needs numpy and scipy.

usage: bench_modify_scipy.py [-r repeats] [-o table.txt] [n m]

The table has the layout of the bench_* tables ('%' comment lines, then
a header of column names): t_update / t_refactor, medians of the repeats,
each call on fresh copies (the copies are not timed), check_finite off,
the BLAS threads as the environment sets them (OPENBLAS_NUM_THREADS)."""
import argparse
import datetime
import os
import platform
import statistics
import sys
import time

import numpy as np
import scipy
import scipy.linalg as sl


def median_time(fn, setup, reps):
    ts = []
    for _ in range(reps):
        args = setup()
        t0 = time.perf_counter()
        fn(*args)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-r", type=int, default=5, help="repeats")
    ap.add_argument("-o", default=None, help="output table")
    ap.add_argument("shape", type=int, nargs="*", default=[2000, 750])
    a = ap.parse_args()
    n, m = a.shape
    rng = np.random.default_rng(18)
    A = rng.uniform(-1, 1, (n, m))
    b = rng.uniform(-1, 1, (n, 1))
    Q, R = sl.qr(A)
    Qe, Re = sl.qr(A, mode="economic")
    rows = []
    for k in (1, 8, 64):
        u = rng.uniform(-1, 1, (n, k))
        v = rng.uniform(-1, 1, (m, k))
        A1 = A + u @ v.T
        uu = u[:, 0] if k == 1 else u
        vv = v[:, 0] if k == 1 else v
        def time_update(Q0, R0):
            return median_time(
                lambda Q_, R_, u_, v_: sl.qr_update(Q_, R_, u_, v_,
                                                    overwrite_qruv=True,
                                                    check_finite=False),
                lambda: (Q0.copy(order="F"), R0.copy(order="F"), uu.copy(),
                         vv.copy()), a.r)

        t_full = time_update(Q, R)
        try:
            t_econ = time_update(Qe, Re)
        except ValueError:  # a SciPy that takes rank 1 only there
            t_econ = float("nan")

        def refactor(mode):
            def run(A_):
                Q_, R_ = sl.qr(A_, mode=mode, overwrite_a=True,
                               check_finite=False)
                return Q_.T @ b
            return run

        t_rf = median_time(refactor("full"), lambda: (A1.copy(order="F"),),
                           a.r)
        t_re = median_time(refactor("economic"),
                           lambda: (A1.copy(order="F"),), a.r)
        # the update is right: Q1 R1 = A1
        Q1, R1 = sl.qr_update(Q, R, uu, vv)
        err = np.linalg.norm(Q1 @ R1 - A1) / np.linalg.norm(A1)
        rows.append((n, m, k, a.r, t_full, t_rf, t_rf / t_full, t_econ, t_re,
                     t_re / t_econ, err))
        print(f"k={k} done", file=sys.stderr)
    cols = ("n m k reps t_update_full t_refactor_full speedup_full "
            "t_update_econ t_refactor_econ speedup_econ relerr")
    head = [
        "% bench_modify_scipy.py: scipy.linalg.qr_update vs scipy.linalg.qr",
        f"% device: {platform.processor() or platform.machine()} "
        f"({os.cpu_count()} CPUs), {platform.platform()}",
        f"% date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%dT%H:%MZ}",
        f"% scipy {scipy.__version__}, numpy {np.__version__}, "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}",
        "% precision: double; medians; t_update: qr_update (overwrite_qruv, "
        "check_finite off); t_refactor: qr(A + u v', mode) and Q' b;",
        "% econ: the economic Q (NaN where SciPy refuses it); "
        "speedup = t_refactor / t_update; relerr = ||Q1 R1 - A1|| / ||A1||",
        "% " + cols,
    ]
    lines = head + [" ".join(f"{x:.6g}" for x in r) for r in rows]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.o:
        with open(a.o, "w") as fo:
            fo.write(text)


if __name__ == "__main__":
    main()
