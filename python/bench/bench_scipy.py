"""qru against SciPy in the same run, on the same inputs (CPU backend,
float64, medians of --repeats timed calls after one untimed):

1. qr_insert / qr_delete with the full Q at n = 4000, m = 1000, p = 100
   (rows at k = n/2, columns at k = m/2): qru.qr_insert / qr_delete
   against scipy.linalg.qr_insert / qr_delete, both with
   check_finite=False (target: qru >= 5x faster).
2. A Q-less sliding window (W rows, m columns, S rows in and S out a
   slide, then the solution): qru.LeastSquares(q='none') against SciPy
   refactorising each window (R of qr([A b], mode='r'), then a triangular
   solve) and against SciPy's qr_insert + qr_delete of the S rows on the
   window's full Q (which needs W^2 numbers: run at --window-q rows) (target:
   qru >= 100x faster).

    python bench_scipy.py [--repeats 5] [--quick]

Prints one line a measurement and the ratios SciPy / qru."""
import argparse
import os
import platform
import statistics
import time

import numpy as np
import scipy
import scipy.linalg as sl

import qru


def median_time(fn, repeats):
    fn()  # untimed: first-use costs
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def report(what, tq, ts, target):
    r = ts / tq
    ok = "meets" if r >= target else "MISSES"
    print(f"{what:44s} qru {tq * 1e3:10.3f} ms  SciPy {ts * 1e3:10.3f} ms  "
          f"ratio {r:8.1f}x ({ok} the {target:g}x target)", flush=True)
    return r


def full_q(n, m, p, repeats):
    rng = np.random.default_rng(1)
    A = rng.uniform(-1, 1, (n, m))
    Q, R = sl.qr(A)
    rows = rng.uniform(-1, 1, (p, m))
    cols = rng.uniform(-1, 1, (n, p))
    cases = [("qr_insert rows", (rows, n // 2, "row")),
             ("qr_insert cols", (cols, m // 2, "col"))]
    out = {}
    for name, (u, k, which) in cases:
        out[name] = report(
            f"{name} n={n} m={m} p={p} full Q",
            median_time(lambda: qru.qr_insert(Q, R, u, k, which,
                                              check_finite=False), repeats),
            median_time(lambda: sl.qr_insert(Q, R, u, k, which,
                                             check_finite=False), repeats), 5)
    for name, (k, which) in [("qr_delete rows", (n // 2, "row")),
                             ("qr_delete cols", (m // 2, "col"))]:
        out[name] = report(
            f"{name} n={n} m={m} p={p} full Q",
            median_time(lambda: qru.qr_delete(Q, R, k, p, which,
                                              check_finite=False), repeats),
            median_time(lambda: sl.qr_delete(Q, R, k, p, which,
                                             check_finite=False), repeats), 5)
    return out


def window_data(W, m, S, slides, seed=2):
    rng = np.random.default_rng(seed)
    N = W + S * slides
    A = rng.uniform(-1, 1, (N, m))
    b = A @ rng.uniform(-1, 1, m) + 0.1 * rng.uniform(-1, 1, N)
    return A, b


def qru_window(A, b, W, S, slides):
    f = qru.LeastSquares(A[:W], b[:W], q="none", check_finite=False)

    def run():
        for j in range(slides):
            i = W + j * S
            f.add_rows(W, A[i:i + S], b[i:i + S], check_finite=False)
            f.remove_rows(0, U=A[i - W:i - W + S], e=b[i - W:i - W + S],
                          check_finite=False)
            x = f.solve()
        return x
    return run, f


def scipy_refactor(A, b, W, S, slides):
    def run():
        for j in range(slides):
            lo = (j + 1) * S
            Rb = sl.qr(np.column_stack([A[lo:lo + W], b[lo:lo + W]]),
                       mode="r", check_finite=False)[0]
            m = A.shape[1]
            x = sl.solve_triangular(Rb[:m, :m], Rb[:m, m],
                                    check_finite=False)
        return x
    return run


def scipy_updates(A, b, W, S, slides):
    Q0, R0 = sl.qr(A[:W])

    def run():
        Q, R = Q0, R0
        for j in range(slides):
            i = W + j * S
            Q, R = sl.qr_insert(Q, R, A[i:i + S], W, "row",
                                check_finite=False)
            Q, R = sl.qr_delete(Q, R, 0, S, "row", check_finite=False)
        return Q, R
    return run


def window(W, Wq, m, S, slides, repeats):
    # each repetition slides the same window from the same start: qru's
    # factorisation is rebuilt untimed before each
    def timed_qru(Wn):
        A, b = window_data(Wn, m, S, slides)
        ts = []
        for _ in range(repeats + 1):
            run, f = qru_window(A, b, Wn, S, slides)
            t0 = time.perf_counter()
            x = run()
            ts.append(time.perf_counter() - t0)
        lo = slides * S
        xs = np.linalg.lstsq(A[lo:lo + Wn], b[lo:lo + Wn], rcond=None)[0]
        dev = np.linalg.norm(x - xs) / np.linalg.norm(xs)
        assert dev < 1e-8, dev
        return statistics.median(ts[1:]), A, b

    tq, A, b = timed_qru(W)
    ts = median_time(scipy_refactor(A, b, W, S, slides), repeats)
    r1 = report(f"window W={W} m={m} S={S} x{slides}: refactor", tq, ts, 100)
    tq2, A2, b2 = timed_qru(Wq)
    ts2 = median_time(scipy_updates(A2, b2, Wq, S, slides), repeats)
    r2 = report(f"window W={Wq} m={m} S={S} x{slides}: qr_ins+del", tq2, ts2,
                100)
    return r1, r2


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true",
                    help="small sizes (a smoke test, not the issue's)")
    a = ap.parse_args()
    print(f"qru {qru.__version__} ({qru.device_name('cpu')}), NumPy "
          f"{np.__version__}, SciPy {scipy.__version__}, Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}",
          flush=True)
    if a.quick:
        full_q(400, 100, 10, a.repeats)
        window(2000, 400, 10, 10, 20, a.repeats)
    else:
        full_q(4000, 1000, 100, a.repeats)
        window(20000, 2000, 20, 10, 50, a.repeats)


if __name__ == "__main__":
    main()
