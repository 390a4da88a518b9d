#!/bin/sh
# Tests of the qru program (CTest: cli/plot, cli/data, cli/batch):
#   run_cli_tests.sh plot <qru> <work dir>   qru demo --plot DIR --csv DIR
#   run_cli_tests.sh data <qru> <work dir>   --data diagnostics on bad files
#   run_cli_tests.sh batch <qru> <work dir>  qru demo --part batch (double
#                                            and single) and its report
# Exit status 0 passed, 1 failed.
set -u
what="$1"; qru="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# check_png FILE: the PNG signature, an IHDR of a plausible size, and the
# CRC of every chunk (python3's zlib, when present, also inflates IDAT)
check_png() {
  sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
  [ "$sig" = "89504e470d0a1a0a" ] || { bad "$1: not a PNG signature ($sig)"; return; }
  if command -v python3 >/dev/null 2>&1; then
    python3 - "$1" <<'PY' || bad "$1: chunk check failed"
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
i, idat, w, h = 8, b'', 0, 0
while i < len(d):
    n = struct.unpack('>I', d[i:i+4])[0]
    t, body = d[i+4:i+8], d[i+8:i+8+n]
    assert zlib.crc32(t + body) & 0xffffffff == struct.unpack('>I', d[i+8+n:i+12+n])[0], t
    if t == b'IHDR':
        w, h = struct.unpack('>II', body[:8])
    if t == b'IDAT':
        idat += body
    i += 12 + n
raw = zlib.decompress(idat)
assert 200 <= w <= 4000 and 200 <= h <= 4000 and len(raw) == h * (1 + 3 * w), (w, h, len(raw))
# the figure is not blank: some pixels are neither white nor one colour
assert len(set(raw)) > 8
PY
  fi
}

case "$what" in
plot)
  "$qru" demo --backend cpu --plot figs --csv csv > out.txt 2> err.txt ||
    { bad "qru demo --plot failed"; cat out.txt err.txt; }
  for f in fit window gp; do
    [ -f "figs/$f.png" ] || { bad "figs/$f.png missing"; continue; }
    check_png "figs/$f.png"
    [ -f "csv/$f.csv" ] || { bad "csv/$f.csv missing"; continue; }
    [ "$(head -1 "csv/$f.csv")" = "series,x,y" ] || bad "csv/$f.csv: no header"
    rows=$(tail -n +2 "csv/$f.csv" | grep -cE '^[a-z_]+,-?[0-9.e+-]+,-?[0-9.e+-]+$')
    all=$(tail -n +2 "csv/$f.csv" | wc -l)
    [ "$rows" -gt 20 ] && [ "$rows" -eq "$all" ] || bad "csv/$f.csv: $rows numeric rows of $all"
  done
  for s in data model trend; do grep -q "^$s," csv/fit.csv || bad "fit.csv lacks $s"; done
  for s in trend update_ms refactor_ms; do grep -q "^$s," csv/window.csv || bad "window.csv lacks $s"; done
  for s in mean lower upper observed; do grep -q "^$s," csv/gp.csv || bad "gp.csv lacks $s"; done
  # the window's first run: the medians it prints are those of its slides'
  # times in the CSV (sort and awk: no python3 on a bare machine)
  line=$(sed -n '/^run 1 /{n;p;}' out.txt)
  for k in update refactor; do
    got=$(printf '%s\n' "$line" | sed -n "s/.*median): .*$k \([0-9.]*\) ms.*/\1/p")
    med=$(grep "^${k}_ms," csv/window.csv | cut -d, -f3 | sort -g |
      awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
                                else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    awk -v g="$got" -v m="$med" 'BEGIN { d = g - m; exit !(g != "" && m != "" && d <= 0.0015 && d >= -0.0015) }' ||
      bad "window: the printed median $k time '$got' ms is not the CSV's ($med)"
  done
  ;;
data)
  # expect_data NAME STATUS TEXT...: qru demo --data NAME exits with STATUS
  # and its stderr contains every TEXT
  expect_data() {
    f="$1"; want="$2"; shift 2
    "$qru" demo --backend cpu --part fit --data "$f" > out.txt 2> err.txt
    st=$?
    [ "$st" -eq "$want" ] || bad "$f: exit status $st, expected $want"
    for t in "$@"; do
      grep -qF -- "$t" err.txt || { bad "$f: stderr lacks '$t'"; cat err.txt; }
    done
  }
  # a good series (monthly, 12 years) with a header, a NaN line and a bad line
  awk 'BEGIN { print "year,ppm"; for (i = 0; i < 144; i++) {
         t = 1990 + i / 12; printf "%.4f,%.4f\n", t, 350 + 1.5 * (t - 1990) + sin(6.2832 * t);
         if (i == 20) print "NaN,NaN"; if (i == 30) print "1992.6;351" } }' > good.csv
  expect_data good.csv 0 "good.csv:1: skipped: not two numbers (a header?)" \
    "good.csv:23: skipped: a value is not finite" "good.csv:34: skipped: expected 'year,value'" \
    "3 line(s) skipped, 144 data rows read"
  printf '2000.0,1\n2000.5,2\n2000.25,3\n' > back.csv
  expect_data back.csv 1 "back.csv:3: the time 2000.25 is not after 2000.5 (line 2)" "increase strictly"
  printf '2000.5,1\n2000.5,2\n' > equal.csv
  expect_data equal.csv 1 "equal.csv:2: the time 2000.5 is not after 2000.5 (line 1)"
  printf '2000.1,1\n2000.2,2\n2000.3,3\n' > few.csv
  expect_data few.csv 1 "3 data rows, but the trend + seasonal model has 7 coefficients"
  awk 'BEGIN { for (i = 0; i < 30; i++) printf "%d.0,%d\n", 1980 + i, 340 + i }' > yearly.csv
  expect_data yearly.csv 1 "only 1 different time(s) of the year" "rank deficient"
  awk 'BEGIN { for (i = 0; i < 60; i++) printf "%.4f,400\n", 2000 + i / 12 }' > flat.csv
  expect_data flat.csv 1 "every value is 400"
  ;;
batch)
  "$qru" demo --help | grep -qE '^  --part NAME .* batch' ||
    bad "qru demo --help does not list the batch part"
  for prec in double single; do
    "$qru" demo --backend cpu --precision $prec --part batch > out.txt 2> err.txt ||
      { bad "qru demo --part batch ($prec) failed"; cat out.txt err.txt; continue; }
    grep -q '^batch       PASS$' out.txt || bad "$prec: no 'batch PASS' line"
    grep -q '^qru demo: 1 part(s), all PASS$' out.txt || bad "$prec: no summary"
    grep -q "^backend     cpu, .*, $prec\$" out.txt || bad "$prec: no backend line"
    grep -q '^speed       158 quarters x 11 series' out.txt || bad "$prec: no speed line"
    # every series: its name, its transform and three finite numbers
    for s in realgdp realcons realinv realgovt realdpi cpi m1 tbilrate unemp pop realint; do
      grep -qE "^  $s +(growth %/yr|level) +-?[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}\$" out.txt ||
        bad "$prec: no line of the series $s"
    done
    # the two times and their ratio (single / batch, within the rounding of
    # the printed numbers: 0.001 ms, 0.01)
    tb=$(sed -n 's/^ *batch (qru_lsq_batch) *\([0-9.]*\) ms.*/\1/p' out.txt)
    ts=$(sed -n 's/^ *single calls (qru_lsq) *\([0-9.]*\) ms.*/\1/p' out.txt)
    r=$(sed -n 's/^ *batch \([0-9.]*\)x faster than the single calls$/\1/p' out.txt)
    awk -v b="$tb" -v s="$ts" -v r="$r" 'BEGIN { if (!(b > 0 && s > 0 && r > 0)) exit 1
        d = r - s / b; tol = 0.005 + r * (0.0005 / b + 0.0005 / s) + 0.001 * r
        exit !(d * d <= tol * tol) }' ||
      bad "$prec: times '$tb' and '$ts' ms do not give the ratio '$r'"
  done
  # --data replaces the CO2 series, not the batch part's embedded data
  awk 'BEGIN { for (i = 0; i < 144; i++) { t = 1990 + i / 12;
         printf "%.4f,%.4f\n", t, 350 + 1.5 * (t - 1990) + sin(6.2832 * t) } }' > good.csv
  "$qru" demo --backend cpu --part batch --data good.csv > out.txt 2> err.txt &&
    grep -q '^batch       PASS$' out.txt || bad "--part batch with --data failed"
  ;;
*)
  echo "usage: run_cli_tests.sh plot|data|batch <qru> <work dir>"; exit 1 ;;
esac
[ "$fail" -eq 0 ] && echo "cli/$what: all checks passed"
exit "$fail"
