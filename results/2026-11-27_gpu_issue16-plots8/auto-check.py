#!/usr/bin/env python3
"""AUTO against the better path, point by point (issue 16's target:
QRU_UPDATE_AUTO never slower than the better of the update and the
refactorisation on the grids).  For every row of the new-default (AUTO)
TUS tables, double and float: the better of QRU_UPDATE_FAST's time (the
fast run's table, same row) and the refactorisation's (cuSOLVER geqrf +
ormqr + trsm, with orgqr where Q is kept; AUTO's run).  AUTO's path is
read from its call count (the fast run's: the update; else the
refactorisation).  Prints every point, the points where AUTO took the
slower path by more than 5% (measured: the fast run's time against the
refactorisation's), and those where AUTO's time is more than 5% above
the better one (the same path in two runs differs by up to ~45%: the
runs' spread, not the choice).
usage: auto-check.py PLOTSDIR"""
import csv, glob, os, sys

d = sys.argv[1]
rows, exc, wrong, worst = 0, [], [], 1e9
print("| update | prec | set | n | m | p | k | Q | AUTO (ms) | path | FAST (ms) | refactor (ms) | better / AUTO |")
print("|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|---:|---:|")
for f in sorted(glob.glob(os.path.join(d, "new-default", "*_tus_*.csv"))):
    g = f.replace("new-default", "fast")
    a = list(csv.DictReader(open(f)))
    b = list(csv.DictReader(open(g)))
    name = os.path.basename(f).split("_tus_")[0].replace("bench_", "")
    prec = "double" if f.endswith("_d.csv") else "float"
    for ra, rb in zip(a, b):
        key = ("set", "n", "m", "p", "k", "keepq")
        assert all(ra[x] == rb[x] for x in key), (f, ra, rb)
        ta, tf = float(ra["t_update"]), float(rb["t_update"])
        tr = float(ra["t_refactor"]) + (float(ra["t_orgqr"]) if ra["keepq"] == "1" else 0.0)
        best = min(tf, tr)
        ratio = best / ta
        upd = ra["calls"] == rb["calls"]
        rows += 1
        worst = min(worst, ratio)
        line = "| %s | %s | %s | %s | %s | %s | %s | %s | %.3g | %s | %.3g | %.3g | %.3f |" % (
            name, prec, ra["set"], ra["n"], ra["m"], ra["p"], ra["k"],
            "yes" if ra["keepq"] == "1" else "no", 1e3 * ta,
            "update" if upd else "refactor", 1e3 * tf, 1e3 * tr, ratio)
        print(line)
        if (upd and tr < 0.95 * tf) or (not upd and tf < 0.95 * tr):
            wrong.append(line)
        if ratio < 0.95:
            exc.append(line)
print()
print("%d points; AUTO took the slower path (by more than 5%%) at %d:" %
      (rows, len(wrong)))
for e in wrong:
    print(e)
print()
print("AUTO's time more than 5%% above the better one at %d (the smallest "
      "better / AUTO: %.3f):" % (len(exc), worst))
for e in exc:
    print(e)
