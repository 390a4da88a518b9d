"""clock64 marks for the lag-2 chain (a copy, for timing only): clk-patch7.py
of the tensor-panel record with its "loads + sums" anchor moved to the
lag-2 column step.  Usage: python3 clk-lag2.py FILE"""
import os, sys
d = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(d, "../2026-11-27_nvidia-h200_tensor-panel/clk-patch7.py")).read()
old = "T pd = x1 + al * vj + xv;"
new = "T d2 = tp * (x2 + p1 * x1 + pj * al + xp);"
assert src.count(old) == 2
exec(compile(src.replace(old, new), "clk-patch7.py", "exec"))
