"""qru against SciPy in the same run, on the same inputs (CPU backend,
float64, medians of --repeats timed calls after one untimed):

1. qr_insert / qr_delete with the full Q at n = 4000, m = 1000, p = 100
   (rows at k = n/2, columns at k = m/2): qru.qr_insert / qr_delete
   against scipy.linalg.qr_insert / qr_delete, both with
   check_finite=False (target: qru >= 5x faster), first returning new
   arrays, then with overwrite_qr(u)=True on fresh copies (each consumes
   its input: SciPy Q and R, qru Q, whose result is a view); then the same changes
   on a factorisation kept across calls (qru.LeastSquares with the full Q
   against SciPy overwriting its own outputs): a removal and the
   insertion that undoes it, timed together.
2. A Q-less sliding window (W rows, m columns, S rows in and S out a
   slide, then the solution): qru.LeastSquares(q='none') against SciPy
   refactorising each window (LAPACK's geqrf of [A b] through
   scipy.linalg.lapack, then a triangular solve) and against SciPy's
   qr_insert + qr_delete of the S rows on the window's full Q (which
   needs W^2 numbers: run at W = 2000) (target: qru >= 100x faster).
   qru's slide costs the same at every W, a refactorisation grows with W:
   it is timed at W = 5000, 20000 and 100000.

3. p = 1 (one row, one column, rank 1): qru.qr_insert / qr_delete /
   qr_update against SciPy's on 4000 x 1000 full factors (Q 4000 x 4000)
   and 20000 x 200 economic ones (Q1 20000 x 200): a row inserted and
   deleted at k = n/2, a column inserted at k = m (the end) and k = m/2,
   deleted at k = m/2, and A + u v'; both returning new arrays
   (check_finite=False), then both overwriting fresh copies (untimed) of
   Q and R with overwrite_qr(u)(v)=True (target: qru >= 1.5x faster);
   the calls of qru and SciPy alternate (one of each a round), and the
   load average is printed before the table.
   Ends with the markdown table of docs/python.md ("p = 1").
4. Non-negative least squares: qru.nnls against scipy.optimize.nnls on
   random uniform(-1, 1) problems of 2000 x 500 and 4000 x 1000 (about
   half the columns active), float64; checks that both find the same
   active set.  Ends with the markdown table of docs/python.md ("nnls").
5. Orthogonal matching pursuit: qru.orthogonal_mp against
   sklearn.linear_model.orthogonal_mp (its default, the QR/Cholesky path
   without the Gram matrix), both with their defaults, at n x m =
   2000 x 4000 with 200 nonzeros and 4000 x 8000 with 400 (y = X x0 plus
   noise, X in Fortran order; the large size one timed call each, about
   a minute in all); the columns chosen must agree.  Ends with the
   markdown table of docs/python.md ("Orthogonal matching pursuit").

6. The Lasso path: qru.lars_path(method='lasso') against
   sklearn.linear_model.lars_path(method='lasso') (no Gram), max_iter
   500, at n x m = 2000 x 1000 (X standard normal in Fortran order, y =
   X x0 plus noise with 100 nonzeros), medians of 3 timed calls; the
   steps and the final active set must agree.  Ends with the markdown
   table of docs/python.md ("LARS and the Lasso path").

    python bench_scipy.py [--repeats 5]
                          [--only fullq|window|p1|nnls|omp|lars] [--quick]

Prints one line a measurement and the ratios SciPy / qru."""
import argparse
import os
import platform
import statistics
import time

import numpy as np
import scipy
import scipy.linalg as sl
import scipy.optimize as so

import qru
from bench_solvers import sparse_problem  # (the same problems)


def median_time(fn, repeats):
    fn()  # untimed: first-use costs
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def median_time_setup(setup, fn, repeats):
    """median_time of fn(*setup()), setup untimed (fresh inputs a call)."""
    ts = []
    for i in range(repeats + 1):
        args = setup()
        t0 = time.perf_counter()
        fn(*args)
        if i:  # the first is untimed
            ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def median_pair(fq, fs, setup, repeats):
    """Medians of fq(*setup()) and fs(*setup()) timed in turn (one of
    each a round, setup untimed, the first round untimed), so that load
    from other work on the machine falls on both alike."""
    ts = ([], [])
    for i in range(repeats + 1):
        for fn, t in zip((fq, fs), ts):
            args = setup()
            t0 = time.perf_counter()
            fn(*args)
            if i:
                t.append(time.perf_counter() - t0)
    return statistics.median(ts[0]), statistics.median(ts[1])


def report(what, tq, ts, target, other="SciPy"):
    """One line: the times, the ratio and, where there is a target
    (not None), whether the ratio meets it."""
    r = ts / tq
    ok = "" if target is None else \
        f" ({'meets' if r >= target else 'MISSES'} the {target:g}x target)"
    print(f"{what:44s} qru {tq * 1e3:10.3f} ms  {other} {ts * 1e3:10.3f} ms  "
          f"ratio {r:8.1f}x{ok}", flush=True)
    return r


def full_q(n, m, p, repeats):
    """The SciPy-shaped calls (new arrays out, as SciPy's), then the same
    changes as pairs (remove then add back) on a factorisation kept across
    calls: qru.LeastSquares(q='full') against SciPy's calls with
    overwrite_qr(u)=True on their own outputs."""
    rng = np.random.default_rng(1)
    A = rng.uniform(-1, 1, (n, m))
    Q, R = sl.qr(A)
    rows = rng.uniform(-1, 1, (p, m))
    cols = rng.uniform(-1, 1, (n, p))
    calls = [("qr_insert rows", qru.qr_insert, sl.qr_insert, (rows, n // 2, "row")),
             ("qr_insert cols", qru.qr_insert, sl.qr_insert, (cols, m // 2, "col")),
             ("qr_delete rows", qru.qr_delete, sl.qr_delete, (n // 2, p, "row")),
             ("qr_delete cols", qru.qr_delete, sl.qr_delete, (m // 2, p, "col"))]
    for name, fq, fs, args in calls:
        report(f"{name} n={n} m={m} p={p} full Q",
               median_time(lambda: fq(Q, R, *args, check_finite=False), repeats),
               median_time(lambda: fs(Q, R, *args, check_finite=False), repeats),
               5)
    # overwrite: both consume a fresh Fortran-ordered copy of Q and R
    # (SciPy overwrites Q and R, qru Q; the copies are not timed)
    ow = {"qr_insert": "overwrite_qru", "qr_delete": "overwrite_qr"}

    def fresh():
        return np.array(Q, order="F"), np.array(R, order="F")
    for name, fq, fs, args in calls:
        kw = {ow[name.split()[0]]: True, "check_finite": False}
        report(f"{name} n={n} m={m} p={p} full Q, overwrite",
               median_time_setup(fresh, lambda Qw, Rw: fq(Qw, Rw, *args, **kw),
                                 repeats),
               median_time_setup(fresh, lambda Qw, Rw: fs(Qw, Rw, *args, **kw),
                                 repeats),
               5)
    f = qru.LeastSquares(A, rng.uniform(-1, 1, n), "full", check_finite=False)
    f.algorithm = "fast"  # always update (never the cost model's refactorisation)
    kept = [("rows", lambda: (f.remove_rows(n // 2, p),
                              f.add_rows(n // 2, rows, check_finite=False)),
             lambda Q, R: sl.qr_insert(*sl.qr_delete(Q, R, n // 2, p, "row",
                                                     True, False),
                                       rows, n // 2, "row", None, True, False)),
            ("cols", lambda: (f.remove_cols(m // 2, p),
                              f.add_cols(m // 2, cols, check_finite=False)),
             lambda Q, R: sl.qr_insert(*sl.qr_delete(Q, R, m // 2, p, "col",
                                                     True, False),
                                       cols, m // 2, "col", None, True, False))]
    for name, fq, fs in kept:
        state = [np.array(Q, order="F"), np.array(R, order="F")]

        def scipy_pair():
            state[:] = fs(*state)
        report(f"delete+insert {name}, kept full Q (no copies)",
               median_time(fq, repeats), median_time(scipy_pair, repeats), 5)


def p1(sizes, repeats):
    """The p = 1 updates, new arrays and overwritten inputs; returns the
    rows of the markdown table."""
    rows = []
    for n, m, mode in sizes:
        rng = np.random.default_rng(3)
        Q, R = sl.qr(rng.uniform(-1, 1, (n, m)), mode=mode)
        row, col = rng.uniform(-1, 1, m), rng.uniform(-1, 1, n)
        u, v = rng.uniform(-1, 1, n), rng.uniform(-1, 1, m)
        cases = [("insert row, k = n/2", "qr_insert", (row, n // 2, "row")),
                 ("delete row, k = n/2", "qr_delete", (n // 2, 1, "row")),
                 ("insert column, k = m", "qr_insert", (col, m, "col")),
                 ("insert column, k = m/2", "qr_insert", (col, m // 2, "col")),
                 ("delete column, k = m/2", "qr_delete", (m // 2, 1, "col")),
                 ("rank-1 update", "qr_update", (u, v))]
        ow = {"qr_insert": "overwrite_qru", "qr_delete": "overwrite_qr",
              "qr_update": "overwrite_qruv"}

        def fresh():
            return np.array(Q, order="F"), np.array(R, order="F")
        for name, fn, args in cases:
            fq, fs = getattr(qru, fn), getattr(sl, fn)
            what = f"{n} x {m} {mode}, {name}"
            tq, ts = median_pair(
                lambda: fq(Q, R, *args, check_finite=False),
                lambda: fs(Q, R, *args, check_finite=False),
                lambda: (), repeats)
            report(what, tq, ts, 1.5)
            kw = {ow[fn]: True, "check_finite": False}
            tqo, tso = median_pair(
                lambda Qw, Rw: fq(Qw, Rw, *args, **kw),
                lambda Qw, Rw: fs(Qw, Rw, *args, **kw), fresh, repeats)
            report(what + ", overwrite", tqo, tso, 1.5)
            rows.append(f"| {n} x {m} {mode} | {name} | {tq * 1e3:.2f} | "
                        f"{ts * 1e3:.2f} | {ts / tq:.2f}x | "
                        f"{tqo * 1e3:.2f} | {tso * 1e3:.2f} | "
                        f"{tso / tqo:.2f}x |")
    return rows


def nnls(sizes, repeats):
    """qru.nnls and scipy.optimize.nnls on the same problems; returns the
    rows of the markdown table."""
    rows = []
    for n, m in sizes:
        rng = np.random.default_rng(4)
        A = np.asfortranarray(rng.uniform(-1, 1, (n, m)))
        b = rng.uniform(-1, 1, n)
        xq, rq = qru.nnls(A, b)
        xs, rs = so.nnls(A, b)
        same = bool(np.array_equal(xq > 0, xs > 0))
        tq = median_time(lambda: qru.nnls(A, b), repeats)
        ts = median_time(lambda: so.nnls(A, b), repeats)
        report(f"nnls {n} x {m}", tq, ts, 1)
        print(f"    {int((xq > 0).sum())} active; active sets "
              f"{'equal' if same else 'DIFFER'}; |x - x_SciPy| / |x_SciPy| "
              f"{np.linalg.norm(xq - xs) / np.linalg.norm(xs):.1e}; rnorm "
              f"{rq:.12g} (SciPy {rs:.12g})", flush=True)
        rows.append(f"| {n} x {m} | {int((xq > 0).sum())} | "
                    f"{'yes' if same else 'no'} | {tq * 1e3:.1f} | "
                    f"{ts * 1e3:.1f} | {ts / tq:.2f}x |")
    return rows


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
            # LAPACK's geqrf of [A b] alone (SciPy's cheapest QR)
            X = np.empty((W, A.shape[1] + 1), order="F")
            X[:, :-1], X[:, -1] = A[lo:lo + W], b[lo:lo + W]
            Rb = sl.lapack.dgeqrf(X, overwrite_a=True)[0]
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


def window(Ws, Wq, m, S, slides, repeats):
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

    for W in Ws:  # qru's slide does not depend on W, SciPy's refactor does
        tq, A, b = timed_qru(W)
        ts = median_time(scipy_refactor(A, b, W, S, slides), repeats)
        report(f"window W={W} m={m} S={S} x{slides}: refactor", tq, ts, 100)
    tq2, A2, b2 = timed_qru(Wq)
    ts2 = median_time(scipy_updates(A2, b2, Wq, S, slides), repeats)
    report(f"window W={Wq} m={m} S={S} x{slides}: qr_ins+del", tq2, ts2, 100)


def first_and_median(fn, repeats):
    """fn's result (its first, untimed call) and the median time of
    repeats more calls."""
    out = fn()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return out, statistics.median(ts)


def sklearn_row(what, first, tq, ts, same, diff):
    """Reports a measurement against scikit-learn (same: (what agrees,
    whether it does); diff: (the result's name, its relative difference))
    and returns its row of the markdown table, first its leading cells."""
    report(what, tq, ts, None, "sklearn")
    print(f"  {same[0]}: {same[1]}, |{diff[0]} - sklearn's| / |sklearn's| "
          f"= {diff[1]:.1e}", flush=True)
    return (f"| {first} | {tq * 1e3:.1f} | {ts * 1e3:.1f} | {ts / tq:.2f}x | "
            f"{'yes' if same[1] else 'NO'} | {diff[1]:.0e} |")


def omp(sizes, repeats):
    """qru.orthogonal_mp against scikit-learn's on the same X and y
    (sizes: (n, m, nonzeros, timed calls or None for repeats)); returns
    the rows of the markdown table."""
    from sklearn.linear_model import orthogonal_mp as sk_omp
    rows = []
    for n, m, k, reps in sizes:
        reps = reps or repeats
        X, y = sparse_problem(n, m, k, 0.01, 4)
        cq, tq = first_and_median(
            lambda: qru.orthogonal_mp(X, y, n_nonzero_coefs=k), reps)
        cs, ts = first_and_median(
            lambda: sk_omp(X, y, n_nonzero_coefs=k), reps)
        same = np.array_equal(np.flatnonzero(cq), np.flatnonzero(cs))
        diff = np.linalg.norm(cq - cs) / np.linalg.norm(cs)
        rows.append(sklearn_row(
            f"omp {n} x {m}, {k} nonzeros ({reps} timed)", f"{n} x {m} | {k}",
            tq, ts, ("same support", same), ("coef", diff)))
    return rows


def lars(sizes):
    """qru.lars_path against scikit-learn's, method='lasso', on the same X
    and y (sizes: (n, m, nonzeros, max_iter, timed calls)); returns the
    rows of the markdown table."""
    from sklearn.linear_model import lars_path as sk_lars
    rows = []
    for n, m, k, steps, reps in sizes:
        X, y = sparse_problem(n, m, k, 0.5, 5)
        (aq, actq, cq), tq = first_and_median(
            lambda: qru.lars_path(X, y, method="lasso", max_iter=steps),
            reps)
        (as_, acts, cs), ts = first_and_median(
            lambda: sk_lars(X, y, method="lasso", max_iter=steps), reps)
        same = len(aq) == len(as_) and actq == list(acts)
        diff = np.linalg.norm(cq - cs) / np.linalg.norm(cs) if \
            cq.shape == cs.shape else float("inf")
        rows.append(sklearn_row(
            f"lasso path {n} x {m}, {len(aq) - 1} steps ({reps} timed)",
            f"{n} x {m} | {len(aq) - 1}", tq, ts,
            ("same steps and active set", same), ("coefs", diff)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--only",
                    choices=["fullq", "window", "p1", "nnls", "omp",
                             "lars"])
    ap.add_argument("--quick", action="store_true",
                    help="small sizes (a smoke test, not the issue's)")
    a = ap.parse_args()
    print(f"qru {qru.__version__} ({qru.device_name('cpu')}), NumPy "
          f"{np.__version__}, SciPy {scipy.__version__}, Python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}",
          flush=True)
    if a.only in (None, "fullq"):
        full_q(*((400, 100, 10) if a.quick else (4000, 1000, 100)), a.repeats)
    if a.only in (None, "window"):
        window(*(([2000], 400, 10) if a.quick else
                 ([5000, 20000, 100000], 2000, 20)), 10, 50, a.repeats)
    if a.only in (None, "p1"):
        load0 = os.getloadavg()[0]
        rows = p1([(400, 100, "full"), (2000, 20, "economic")] if a.quick
                  else [(4000, 1000, "full"), (20000, 200, "economic")],
                  a.repeats)
        print(f"\nload average (1 min) {load0:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after")
        print("\n| factors | p = 1 | qru ms | SciPy ms | qru / SciPy | "
              "qru ms, overwrite | SciPy ms, overwrite | qru / SciPy |\n"
              "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        print("\n".join(rows), flush=True)
    if a.only in (None, "nnls"):
        rows = nnls([(400, 100), (800, 200)] if a.quick
                    else [(2000, 500), (4000, 1000)], a.repeats)
        print("\n| A (float64) | active | same active set as SciPy | qru ms "
              "| SciPy ms | SciPy / qru |\n"
              "| --- | ---: | --- | ---: | ---: | ---: |")
        print("\n".join(rows), flush=True)
    if a.only in (None, "omp"):
        # the large size: one timed call each (about 15 s a call here)
        rows = omp([(200, 400, 20, None)] if a.quick else
                   [(2000, 4000, 200, None), (4000, 8000, 400, 1)],
                   a.repeats)
        print("\n| n x m | nonzeros | qru ms | scikit-learn ms | "
              "scikit-learn / qru | same support | coef difference |\n"
              "| --- | ---: | ---: | ---: | ---: | --- | ---: |")
        print("\n".join(rows), flush=True)
    if a.only in (None, "lars"):
        rows = lars([(400, 200, 20, 100, 3)] if a.quick else
                    [(2000, 1000, 100, 500, 3)])
        print("\n| n x m | steps | qru ms | scikit-learn ms | "
              "scikit-learn / qru | same steps and active set | "
              "coefs difference |\n"
              "| --- | ---: | ---: | ---: | ---: | --- | ---: |")
        print("\n".join(rows), flush=True)


if __name__ == "__main__":
    main()
