"""Runs python/examples/sliding_window.py as a user would (its own
process, the repository's data/co2.csv): one line a slide with a trend in
the range the series has (0.5 to 3 ppm/yr over 1958-2001), and the final
window's fit equal to numpy.linalg.lstsq's to 1e-9."""
import os
import pathlib
import re
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_sliding_window_example():
    out = subprocess.run(
        [sys.executable, str(ROOT / "python" / "examples" / "sliding_window.py")],
        capture_output=True, text=True, check=True, timeout=300,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))).stdout
    lines = out.strip().splitlines()
    year = np.loadtxt(ROOT / "data" / "co2.csv", delimiter=",", skiprows=1)[:, 0]
    assert len(lines) == (len(year) - 520) // 52 + 1
    trends = [float(re.search(r"trend (\S+) ppm/yr", ln).group(1))
              for ln in lines[:-1]]
    assert all(0.5 < tr < 3.0 for tr in trends), trends
    assert trends[-1] > trends[0]  # the rise accelerates
    dev = float(lines[-1].rsplit(":", 1)[1])
    assert dev < 1e-9, lines[-1]
