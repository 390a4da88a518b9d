"""A ten-year window sliding a year at a time through the Mauna Loa CO2
series (data/co2.csv), its trend + seasonal fit kept by qru.LeastSquares in
the Q-less form: 52 rows added and 52 removed a slide, O(m^2) memory (the C
version: `qru demo --part window`).  Prints the trend of each window; the
last line compares the final fit with numpy.linalg.lstsq."""
import pathlib
import sys

import numpy as np
import qru

here = pathlib.Path(__file__).resolve().parents[2] / "data" / "co2.csv"
year, y = np.loadtxt(sys.argv[1] if sys.argv[1:] else here, delimiter=",",
                     skiprows=1, unpack=True)
t = year - year[0]; h = t[-1] / 2; w = 2 * np.pi * t  # trend in s = (t - h) / h
A = np.column_stack([t ** 0, (t - h) / h, np.sin(w), np.cos(w), np.sin(2 * w), np.cos(2 * w)])
b, W, S = y - y.mean(), 520, 52
f = qru.LeastSquares(A[:W], b[:W], q="none")
for i in range(W, len(t) - S + 1, S):  # the window holds rows i-W .. i-1
    f.add_rows(W, A[i:i + S], b[i:i + S])                    # the S newest in,
    f.remove_rows(0, U=A[i - W:i - W + S], e=b[i - W:i - W + S])  # the S oldest out
    x = f.solve()
    print(f"{year[i + S - 1]:.1f}  trend {x[1] / h:.2f} ppm/yr  rms {f.residual() / W ** .5:.2f} ppm")
xs = np.linalg.lstsq(A[i + S - W:i + S], b[i + S - W:i + S], rcond=None)[0]
print(f"relative deviation from lstsq: {np.linalg.norm(x - xs) / np.linalg.norm(xs):.1e}")
