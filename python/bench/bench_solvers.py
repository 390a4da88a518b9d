"""qru's solvers against their peers in the same run, on the same data
(float64, medians of --repeats timed calls after one untimed call each):

- qru.nnls against scipy.optimize.nnls: A uniform(-1, 1) (Fortran
  order), b uniform(-1, 1), 2000 x 500 and 4000 x 1000 (about half the
  columns active);
- qru.orthogonal_mp against sklearn.linear_model.orthogonal_mp (both with
  n_nonzero_coefs): X standard normal, y = X x0 + 0.01 noise, x0 with k
  nonzeros, 2000 x 4000 (k = 200) and 4000 x 8000 (k = 400), in each
  form of --omp-form (default residual): residual (precompute=False for
  both: X' r a step), gram (precompute=True for both: G = X' X once,
  then X' y - G(:, S) x), auto (qru's cost model picks; scikit-learn's
  'auto', the Gram form where n > m);
- qru.lars_path against sklearn.linear_model.lars_path, method='lasso',
  max_iter 500: X standard normal 2000 x 1000, y = X x0 + 0.5 noise, x0
  with 100 nonzeros.

--backend picks qru's backend: 'cpu' (NumPy arrays), 'opencl' (NumPy
arrays, backend='opencl': copied to the device once a call), 'cuda'
(CuPy arrays for nnls, orthogonal_mp and lars_path, copied to the device
once before the timed calls and staying there, so that the times are the
solves' and not the host-to-device copies of A or X; without CuPy, host
arrays with backend='cuda', copied each call).  The peers run on the
host CPU.  A peer that cannot be imported is reported as missing
(its cells empty) and qru is still timed.

Agreement: the same active set (nnls: x > 0; orthogonal_mp: the support;
lars_path: the final active set in the same order and the same number of
steps) and max |x_qru - x_peer| / max |x_peer| (lars_path: over the whole
path of coefficients).  Steps: qru_nnls's iterations (columns added and
removed), the columns chosen, the path's steps.

--table FILE writes the Markdown table (with the date, the machine, the
backend's device and the command); --sweep times each solver at the
sizes scaled by 1/4 .. --max-scale (the rows and columns both; nonzeros
and steps with them) while the data fit in --mem-fraction of the memory
(host, or the CUDA device's) and writes --csv (default
bench_solvers.csv) and, where matplotlib can be imported, a PNG plot
(--png, default bench_solvers.png).

    OPENBLAS_NUM_THREADS=2 python bench_solvers.py [--backend cpu]
        [--repeats 3] [--only nnls,omp,lars] [--table FILE]
        [--omp-form residual,gram,auto]
        [--sweep [--max-scale 2] [--csv FILE] [--png FILE]]
    python bench_solvers.py --plot FILE.csv [--png FILE]
"""
import argparse
import datetime
import importlib
import os
import platform
import shlex
import statistics
import sys
import time

import numpy as np

import qru
from qru import _qru
from qru._arrays import prepare

#: the sizes of the table: (n, m, nonzeros or None, steps or None)
SIZES = {
    "nnls": [(2000, 500, None, None), (4000, 1000, None, None)],
    "omp": [(2000, 4000, 200, None), (4000, 8000, 400, None)],
    "lars": [(2000, 1000, 100, 500)],
}

PEERS = {
    "nnls": ("scipy.optimize", "nnls", "scipy.optimize.nnls"),
    "omp": ("sklearn.linear_model", "orthogonal_mp",
            "sklearn orthogonal_mp"),
    "lars": ("sklearn.linear_model", "lars_path", "sklearn lars_path"),
}


def peer(solver):
    """(the peer function or None, its name, version or why missing)"""
    mod, name, label = PEERS[solver]
    try:
        m = importlib.import_module(mod)
        top = importlib.import_module(mod.split(".")[0])
        return getattr(m, name), label, getattr(top, "__version__", "?")
    except ImportError as e:
        return None, label, f"missing ({e})"


class Backend:
    """qru's backend: the arrays it takes and its synchronisation."""

    def __init__(self, name):
        self.name = name
        self.cp = None
        if name == "cuda":
            try:
                self.cp = importlib.import_module("cupy")
            except ImportError:
                self.cp = None
        self.device = qru.device_name(name)

    def args(self, A, b):
        """The solver's arrays A (or X) and b (or y), and its keywords:
        CuPy arrays on the device (copied once, here), else the host
        arrays and backend=."""
        if self.cp is not None:  # CuPy: on the device, no copies
            return (self.cp.asfortranarray(self.cp.asarray(A)),
                    self.cp.asarray(b)), {}
        return (A, b), {"backend": self.name}

    def host(self, x):
        return x.get() if self.cp is not None and \
            isinstance(x, self.cp.ndarray) else np.asarray(x)

    def sync(self):
        if self.cp is not None:
            self.cp.cuda.get_current_stream().synchronize()

    def label(self):
        if self.name == "cuda":
            return "cuda (CuPy arrays for nnls, orthogonal_mp and " \
                "lars_path)" if self.cp is not None \
                else "cuda (host arrays: CuPy not installed)"
        return self.name


def timed(fn, repeats, sync=lambda: None):
    """fn's result (its first, untimed call) and the median time of
    repeats more calls."""
    out = fn()
    sync()
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        sync()
        ts.append(time.perf_counter() - t0)
    return out, statistics.median(ts)


def sparse_problem(n, m, k, noise, seed):
    """X standard normal (n x m, Fortran order) and y = X x0 + noise, x0
    with k nonzeros of magnitude 1 to 2 and random signs."""
    rng = np.random.default_rng(seed)
    X = np.asfortranarray(rng.standard_normal((n, m)))
    x0 = np.zeros(m)
    x0[rng.choice(m, k, replace=False)] = rng.choice([-1, 1], k) * \
        rng.uniform(1, 2, k)
    return X, X @ x0 + noise * rng.standard_normal(n)


def max_rel(a, b):
    """max |a - b| / max |b| (inf where the shapes differ)"""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    if a.shape != b.shape:
        return float("inf")
    d = float(np.abs(a - b).max()) if a.size else 0.0
    s = float(np.abs(b).max()) if b.size else 0.0
    return d / s if s > 0 else d


def run_nnls(be, n, m, k, steps, repeats):
    rng = np.random.default_rng(4)
    A = np.asfortranarray(rng.uniform(-1, 1, (n, m)))
    b = rng.uniform(-1, 1, n)
    args, kw = be.args(A, b)
    (xq, _), tq = timed(lambda: qru.nnls(*args, **kw), repeats, be.sync)
    xq = be.host(xq)
    # qru_nnls's iterations (untimed): the C call the wrapper makes
    P = prepare((args[0], args[1].reshape(-1, 1)), ("A", "b"),
                kw.get("backend"))
    nsteps = int(_qru.nnls(P.ctx, *P.arrays, 0, -1.0)[3])
    fn, _, _ = peer("nnls")
    row = {"qru_s": tq, "steps": nsteps, "size": f"{n} x {m}"}
    if fn is not None:
        (xs, _), ts = timed(lambda: fn(A, b), repeats)
        row.update(peer_s=ts, same=bool(np.array_equal(xq > 0, xs > 0)),
                   diff=max_rel(xq, xs))
    return row


#: --omp-form: orthogonal_mp's precompute for qru and scikit-learn
OMP_FORMS = {"residual": False, "gram": True, "auto": "auto"}


def run_omp(be, n, m, k, steps, repeats, form="residual"):
    X, y = sparse_problem(n, m, k, 0.01, 4)
    pre = OMP_FORMS[form]
    args, kw = be.args(X, y)
    (cq, kq), tq = timed(lambda: qru.orthogonal_mp(
        *args, n_nonzero_coefs=k, return_n_iter=True, precompute=pre,
        **kw), repeats, be.sync)
    cq = be.host(cq)
    fn, _, _ = peer("omp")
    row = {"qru_s": tq, "steps": int(kq),
           "size": f"{n} x {m}, {k} nonzeros, {form}"}
    if fn is not None:
        cs, ts = timed(lambda: fn(X, y, n_nonzero_coefs=k, precompute=pre),
                       repeats)
        row.update(peer_s=ts, same=bool(np.array_equal(
            np.flatnonzero(cq), np.flatnonzero(cs))), diff=max_rel(cq, cs))
    return row


def run_lars(be, n, m, k, steps, repeats):
    X, y = sparse_problem(n, m, k, 0.5, 5)
    args, kw = be.args(X, y)
    (aq, actq, cq, kq), tq = timed(lambda: qru.lars_path(
        *args, method="lasso", max_iter=steps, return_n_iter=True, **kw),
        repeats, be.sync)
    cq = be.host(cq)
    fn, _, _ = peer("lars")
    row = {"qru_s": tq, "steps": int(kq),
           "size": f"{n} x {m}, max_iter {steps}"}
    if fn is not None:
        (as_, acts, cs, ks), ts = timed(lambda: fn(
            X, y, method="lasso", max_iter=steps, return_n_iter=True),
            repeats)
        row.update(peer_s=ts, same=bool(kq == ks and actq == list(acts)),
                   diff=max_rel(cq, cs))
    return row


RUN = {"nnls": run_nnls, "omp": run_omp, "lars": run_lars}


def row_md(solver, r, be):
    _, label, _ = peer(solver)
    name = {"nnls": "nnls", "omp": "orthogonal_mp",
            "lars": "lars_path (lasso)"}[solver]
    cells = [name, r["size"], be.name, f"{r['qru_s'] * 1e3:.1f}"]
    if "peer_s" in r:
        cells += [label, f"{r['peer_s'] * 1e3:.1f}",
                  f"{r['peer_s'] / r['qru_s']:.2f}x"]
    else:
        cells += [f"{label}: missing", "", ""]
    cells += [str(r["steps"]),
              f"{r['qru_s'] / max(r['steps'], 1) * 1e6:.0f}"]
    if "peer_s" in r:
        cells += ["yes" if r["same"] else "NO", f"{r['diff']:.1e}"]
    else:
        cells += ["", ""]
    return "| " + " | ".join(cells) + " |"


HEADER = ("| solver | size | backend | qru ms | peer | peer ms | "
          "peer / qru | steps | qru us / step | same active set | "
          "max rel. diff. of x |\n"
          "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | "
          "--- | ---: |")


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} CPUs, OPENBLAS_NUM_THREADS="
            f"{os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, load "
            f"average (1 min) {os.getloadavg()[0]:.2f} at the start")


def versions():
    out = [f"qru {qru.__version__}", f"NumPy {np.__version__}"]
    for s in ("nnls", "omp"):  # SciPy, scikit-learn
        _, label, v = peer(s)
        out.append(f"{label.split()[0].split('.')[0]} {v}")
    return ", ".join(out) + f", Python {platform.python_version()}"


def free_bytes(be):
    """Memory the data may take: the CUDA device's free memory, else the
    host's MemAvailable."""
    if be.cp is not None:
        return be.cp.cuda.Device().mem_info[0]
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 4 << 30


def sweep(be, solvers, repeats, max_scale, mem_fraction, csv_path,
          png_path, forms=("residual",)):
    """Each solver at its table's first size scaled by 1/4 .. max_scale
    (powers of 2) while its arrays (X or A, a copy for the peer, and the
    path for lars) fit in mem_fraction of the free memory."""
    rows = []
    avail = free_bytes(be) * mem_fraction
    for s in solvers:
        n0, m0, k0, st0 = SIZES[s][0]
        scale = 0.25
        while scale <= max_scale:
            n, m = int(n0 * scale), int(m0 * scale)
            k = None if k0 is None else max(1, int(k0 * scale))
            st = None if st0 is None else max(1, int(st0 * scale))
            need = 8 * n * m * 3 + (8 * m * (st + 1) if st else 0)
            if need > avail:
                print(f"sweep {s} {n} x {m}: {need / 2**30:.1f} GiB > "
                      f"{avail / 2**30:.1f} GiB available: stop", flush=True)
                break
            for f in forms if s == "omp" else [None]:
                r = RUN[s](be, n, m, k, st, repeats,
                           **({"form": f} if f else {}))
                print(row_md(s, r, be), flush=True)
                name = s if f is None or len(forms) == 1 else f"omp-{f}"
                rows.append((name, n, m, k or "", st or "", r))
            scale *= 2
    with open(csv_path, "w") as f:
        f.write("solver,n,m,nonzeros,max_iter,backend,qru_s,peer_s,ratio,"
                "steps,same_active_set,max_rel_diff\n")
        for s, n, m, k, st, r in rows:
            ps = r.get("peer_s")
            peer_cells = ["", "", "", ""] if ps is None else [
                f"{ps:.6g}", f"{ps / r['qru_s']:.4g}", str(r["same"]),
                f"{r['diff']:.3g}"]
            f.write(",".join([s, str(n), str(m), str(k), str(st), be.name,
                              f"{r['qru_s']:.6g}", peer_cells[0],
                              peer_cells[1], str(r["steps"]),
                              peer_cells[2], peer_cells[3]]) + "\n")
    print(f"sweep: {len(rows)} rows in {csv_path}")
    plot_csv(csv_path, png_path)


def plot_csv(csv_path, png_path):
    """The PNG of a sweep's CSV: each solver's seconds against n x m, qru
    and its peer, log-log."""
    import csv
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("sweep: matplotlib is not installed: no plot")
        return
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    solvers = list(dict.fromkeys(r["solver"] for r in rows))
    fig, axes = plt.subplots(1, len(solvers), figsize=(5 * len(solvers), 4),
                             squeeze=False)
    for ax, s in zip(axes[0], solvers):
        pts = [r for r in rows if r["solver"] == s]
        x = [int(r["n"]) * int(r["m"]) for r in pts]
        ax.loglog(x, [float(r["qru_s"]) for r in pts], "o-",
                  label=f"qru ({pts[0]['backend']})")
        if all(r["peer_s"] for r in pts):
            ax.loglog(x, [float(r["peer_s"]) for r in pts], "s--",
                      label=peer(s.split("-")[0])[1])  # omp-gram: omp
        ax.set_xlabel("n x m")
        ax.set_ylabel("seconds (median)")
        ax.set_title(s)
        ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    print(f"sweep: plot in {png_path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cpu",
                    choices=["cpu", "cuda", "opencl"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default="nnls,omp,lars",
                    help="comma-separated: nnls, omp, lars")
    ap.add_argument("--table", help="write the Markdown table to this file")
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--max-scale", type=float, default=2.0)
    ap.add_argument("--mem-fraction", type=float, default=0.5)
    ap.add_argument("--csv", default="bench_solvers.csv")
    ap.add_argument("--png", default="bench_solvers.png")
    ap.add_argument("--plot", metavar="CSV",
                    help="only plot a sweep's CSV into --png")
    ap.add_argument("--omp-form", default="residual",
                    help="comma-separated forms of orthogonal_mp, each "
                    "timed: residual, gram, auto")
    a = ap.parse_args()
    if a.plot:
        plot_csv(a.plot, a.png)
        return
    solvers = [s for s in a.only.split(",") if s]
    for s in solvers:
        if s not in RUN:
            ap.error(f"--only: {s!r} is not one of nnls, omp, lars")
    forms = [f for f in a.omp_form.split(",") if f]
    for f in forms:
        if f not in OMP_FORMS:
            ap.error(f"--omp-form: {f!r} is not one of residual, gram, "
                     "auto")
    be = Backend(a.backend)
    cmd = " ".join(shlex.quote(x) for x in
                   ["python", os.path.relpath(sys.argv[0])] + sys.argv[1:])
    date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    head = [f"Date: {date}", f"Machine: {machine()}",
            f"Backend: {be.label()}, device: {be.device}",
            f"Versions: {versions()}",
            f"Command: `{cmd}` (medians of {a.repeats} timed calls after "
            "one untimed)"]
    print("\n".join(head), flush=True)
    if a.sweep:
        sweep(be, solvers, a.repeats, a.max_scale, a.mem_fraction, a.csv,
              a.png, forms)
        return
    lines = []
    for s in solvers:
        for n, m, k, st in SIZES[s]:
            for f in forms if s == "omp" else [None]:
                r = RUN[s](be, n, m, k, st, a.repeats,
                           **({"form": f} if f else {}))
                lines.append(row_md(s, r, be))
                print(lines[-1], flush=True)
    text = "\n".join(f"{h}  " if i < len(head) - 1 else h
                     for i, h in enumerate(head))
    text += "\n\n" + HEADER + "\n" + "\n".join(lines) + "\n"
    print("\n" + HEADER + "\n" + "\n".join(lines))
    if a.table:
        with open(a.table, "w") as f:
            f.write(text)
        print(f"table written to {a.table}")


if __name__ == "__main__":
    main()
