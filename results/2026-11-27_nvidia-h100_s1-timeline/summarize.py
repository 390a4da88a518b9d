"""Per-kernel summary of an ncu CSV (gpu__time_duration.sum): count and
total time by kernel name, the sum, and the number of launches."""
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1])))
hdr = None
tot = collections.defaultdict(lambda: [0, 0.0])
for r in rows:
    if 'Kernel Name' in r:
        hdr = r
        continue
    if not hdr or len(r) != len(hdr):
        continue
    d = dict(zip(hdr, r))
    if d.get('Metric Name') != 'gpu__time_duration.sum':
        continue
    v = float(d['Metric Value'].replace(',', ''))
    u = d.get('Metric Unit', '')
    # ncu's unit: 'ns'/'nsecond' (the dev12/dev13 tables took 'ns' for
    # microseconds: their "ms" are us and their "us" ns)
    us = (v / 1000 if u in ('ns', 'nsecond') else
          v * 1000 if u in ('ms', 'msecond') else v)
    name = d['Kernel Name'].split('(')[0][:70]
    tot[name][0] += 1
    tot[name][1] += us
n = sum(c for c, _ in tot.values())
s = sum(t for _, t in tot.values())
print(f"{n} kernels, {s/1000:.3f} ms of kernel time")
for k, (c, t) in sorted(tot.items(), key=lambda x: -x[1][1]):
    print(f"{c:5d} {t/1000:8.3f} ms {t/c:8.1f} us  {k}")
