"""Batched least squares against SciPy, in the same run on the same data:
count problems of n rows and m unknowns each gain one row and are solved.

qru: ``qru.LeastSquaresBatch`` (Q-less factorisations of the whole batch):
``add_rows`` then ``solve``, one library call each.  SciPy: each problem's
economic factors (``scipy.linalg.qr(mode='economic')``, untimed) updated
by ``scipy.linalg.qr_insert`` (the batch in one call where SciPy takes
stacked arrays, else problem by problem) and solved by
``solve_triangular`` (batched likewise) -- SciPy has no Q-less update.  Medians of --repeats
timed runs after one untimed; each run starts from the same
factorisations (made untimed).  "max rel. diff. of x": max |x_qru -
x_scipy| / max |x_scipy|.  On the CPU backend the batch runs on the
threads QRU_BATCH_THREADS gives (unset: the CPUs online; 1: one thread),
which the output names.

    OPENBLAS_NUM_THREADS=2 [QRU_BATCH_THREADS=1] python bench_batch.py
        [--backend cpu] [--count 10000] [--n 200] [--m 20] [--repeats 3]
        [--table FILE]
"""
import argparse
import datetime
import os
import shlex
import statistics
import sys
import time

import numpy as np
import scipy
import scipy.linalg as sl

import qru

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_solvers import machine  # noqa: E402


def scipy_run(Q, R, u, b1, n):
    """x of every problem after inserting row u at the end (SciPy)."""
    try:  # stacked arrays in one call (SciPy versions that take batches)
        Q1, R1 = sl.qr_insert(Q, R, u[:, None, :], n, which="row")
    except ValueError:
        pairs = [sl.qr_insert(Q[i], R[i], u[i], n, which="row")
                 for i in range(len(Q))]
        Q1 = np.stack([p[0] for p in pairs])
        R1 = np.stack([p[1] for p in pairs])
    c = np.einsum("ink,in->ik", Q1, b1)
    try:  # batched where SciPy takes stacks
        return sl.solve_triangular(R1, c[..., None])[..., 0]
    except ValueError:
        return np.stack([sl.solve_triangular(R1[i], c[i])
                         for i in range(len(Q))])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cpu",
                    choices=["cpu", "cuda", "opencl"])
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--m", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--table", help="write the Markdown table to this file")
    a = ap.parse_args()
    cnt, n, m = a.count, a.n, a.m
    rng = np.random.default_rng(7)
    A = rng.uniform(-1, 1, (cnt, n, m))
    b = rng.uniform(-1, 1, (cnt, n))
    u = rng.uniform(-1, 1, (cnt, m))
    e = rng.uniform(-1, 1, cnt)
    b1 = np.concatenate([b, e[:, None]], axis=1)
    QR = [np.linalg.qr(A[i]) for i in range(cnt)]
    Q = np.stack([q for q, _ in QR])
    R = np.stack([r for _, r in QR])

    tq, tp = [], []
    for rep in range(a.repeats + 1):
        B = qru.LeastSquaresBatch(A, b, backend=a.backend)
        t0 = time.perf_counter()
        B.add_rows(u, e[:, None])
        xq = B.solve()
        t1 = time.perf_counter()
        xp = scipy_run(Q, R, u, b1, n)
        t2 = time.perf_counter()
        if rep:
            tq.append(t1 - t0)
            tp.append(t2 - t1)
    mq, mp = statistics.median(tq), statistics.median(tp)
    diff = float(np.abs(xq - xp).max() / np.abs(xp).max())

    cmd = " ".join(shlex.quote(x) for x in
                   ["python", os.path.relpath(sys.argv[0])] + sys.argv[1:])
    date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"Date: {date}", f"Machine: {machine()}",
            f"Backend: {a.backend}, device: {qru.device_name(a.backend)}"
            + (", QRU_BATCH_THREADS="
               f"{os.environ.get('QRU_BATCH_THREADS', 'unset')}"
               if a.backend == "cpu" else ""),
            f"Versions: qru {qru.__version__}, NumPy {np.__version__}, "
            f"SciPy {scipy.__version__}",
            f"Command: `{cmd}` (medians of {a.repeats} timed runs after "
            "one untimed)"]
    rows = ["| problems | n x m | qru add row + solve (ms) | SciPy qr_insert "
            "+ solve_triangular (ms) | SciPy / qru | max rel. diff. of x |",
            "| ---: | --- | ---: | ---: | ---: | ---: |",
            f"| {cnt} | {n} x {m} | {1e3 * mq:.2f} | {1e3 * mp:.1f} | "
            f"{mp / mq:.1f}x | {diff:.1e} |"]
    text = "  \n".join(head) + "\n\n" + "\n".join(rows) + "\n"
    print(text)
    if a.table:
        with open(a.table, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
