"""Two OpenBLAS thread pools in one process: the time of a qru call on the
CPU backend alone and right after NumPy's own BLAS work (a product of
two n x n matrices), with qru's OpenBLAS at 1 thread (the policy qru sets
at import where NumPy's bundled OpenBLAS is loaded too) and at the count
OpenBLAS chose by itself (what the process had before the policy).

    python bench_blas_threads.py [--reps 21] [--rounds 3] [--n 1500]
                                 [--threads T]

The call: qru.qr_delete of one column from full factors of a 2000 x 200
matrix (Fortran-ordered, no overwrite).  Each configuration is timed in
--rounds rounds of --reps calls, the rounds interleaved; printed: the
median of all calls and the spread of the round medians, in ms.  Neither
OPENBLAS_NUM_THREADS nor QRU_BLAS_THREADS should be set (they change what
is measured)."""
import argparse
import os
import statistics
import time

import numpy as np
import scipy.linalg as sl

import qru


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n", type=int, default=1500)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="OpenBLAS's own count (default: the cores)")
    a = ap.parse_args()
    if qru.blas_threads() == -1:
        raise SystemExit("the BLAS qru links is not OpenBLAS")
    rng = np.random.default_rng(0)
    Q, R = sl.qr(rng.random((2000, 200)))
    Q, R = np.asfortranarray(Q), np.asfortranarray(R)
    B = rng.random((a.n, a.n))

    def call(after_numpy):
        if after_numpy:
            B @ B
        t = time.perf_counter()
        qru.qr_delete(Q, R, 100, 1, "col")
        return time.perf_counter() - t

    configs = [(t, after) for t in (1, a.threads) for after in (False, True)]
    times = {c: [] for c in configs}
    for _ in range(a.rounds):
        for c in configs:
            qru.set_blas_threads(c[0])
            call(c[1])  # warm
            times[c].append([call(c[1]) for _ in range(a.reps)])
    print(f"qr_delete, 2000 x 200, one column; NumPy product n = {a.n}; "
          f"{os.cpu_count()} cores; ms (median, round medians)")
    print(f"{'qru BLAS threads':>16} {'alone':>22} {'after NumPy':>22} "
          f"{'ratio':>6}")
    for t in (1, a.threads):
        cells = []
        for after in (False, True):
            runs = times[(t, after)]
            med = statistics.median(x for r in runs for x in r) * 1e3
            rm = [statistics.median(r) * 1e3 for r in runs]
            cells.append((med, f"{med:7.2f} ({min(rm):.2f}-{max(rm):.2f})"))
        print(f"{t:>16} {cells[0][1]:>22} {cells[1][1]:>22} "
              f"{cells[1][0] / cells[0][0]:6.2f}")


if __name__ == "__main__":
    main()
