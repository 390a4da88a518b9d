#!/usr/bin/env python3
"""Regenerate data/co2.csv from statsmodels' datasets/co2/co2.csv.

Usage:  python3 make_co2_csv.py STATSMODELS_CO2_CSV > co2.csv

The input has a header "date,co2" with dates as YYYYMMDD and some empty co2
fields (missing weeks).  The output has a header "year,co2_ppm" and one row
per non-missing week: the decimal year year + (day_of_year - 1) / days_in_year
with 6 decimals, and the concentration in ppm as given (1 decimal).
Only the Python standard library is used.
"""
import csv
import datetime
import sys


def main(path):
    out = sys.stdout
    out.write("year,co2_ppm\n")
    with open(path, newline="") as f:
        for rec in csv.DictReader(f):
            if not rec["co2"].strip():
                continue  # missing value
            s = rec["date"].strip()
            day = datetime.date(int(s[:4]), int(s[4:6]), int(s[6:8]))
            jan1 = datetime.date(day.year, 1, 1)
            ndays = (datetime.date(day.year + 1, 1, 1) - jan1).days
            year = day.year + (day - jan1).days / ndays
            out.write("%.6f,%.1f\n" % (year, float(rec["co2"])))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: make_co2_csv.py STATSMODELS_CO2_CSV > co2.csv")
    main(sys.argv[1])
