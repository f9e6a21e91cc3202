#!/usr/bin/env python3
# The polars peer of `oarlog replay TRACE --json` in scripts/bench.sh (docs/BENCHMARKS.md, "The
# polars peer").
#
# Origin: copied on 2026-11-27 from the workplace's shared folder, shared/tools/peer_replay.py,
# the peer issue 30 was measured against ("measured from outside"); written for this project,
# so under the project's licence, Apache License 2.0 (LICENSE). One change, so that it reads
# the native trace exactly as `oarlog replay` does rather than a copy with its header lines
# taken out: the `t` column is read as Float64 with `ignore_errors=True`, which turns the
# trace's `t,kind,values` line into a row of nulls whose kind is neither accel nor gps (the
# `#` lines are comments already). The same rows, the same answers and the same time as the
# original on the stripped copy (1.30-1.39 s whole process, both, on the 10-hour trace).
# Below, the original's text, that line apart.
#
# What a data person would write instead of `oarlog replay`: read the native CSV trace, take the
# accelerometer rows, band-pass + find_peaks on the largest-variance horizontal axis, sum
# haversine over GPS rows. ENGINE: pandas | polars | pyarrow
# Usage: python peer_replay.py ENGINE TRACE.csv  (TRACE: a native trace with its '#' metadata and
# 't,kind,values' header lines removed, e.g. grep -v '^#' long.csv | grep -v '^t,kind' > plain.csv;
# needs numpy, scipy and the engine: pip install polars scipy numpy in a virtual environment).
# Timed as a whole process, as `oarlog replay --json` is.
import sys, time, numpy as np
from scipy.signal import butter, sosfilt, find_peaks
eng, path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
if eng == "polars":
    import polars as pl
    df = pl.read_csv(path, has_header=False, comment_prefix="#", new_columns=["t","kind","a","b","c","d","e","f","g"],
                     schema_overrides={"t": pl.Float64, "a": pl.Float64, "b": pl.Float64, "c": pl.Float64, "d": pl.Float64, "e": pl.Float64, "f": pl.Float64, "g": pl.Float64}, truncate_ragged_lines=True, ignore_errors=True)
    acc = df.filter(pl.col("kind") == "accel"); gps = df.filter(pl.col("kind") == "gps")
    t = acc["t"].to_numpy(); ax = acc["a"].to_numpy(); ay = acc["b"].to_numpy()
    lat = np.radians(gps["a"].to_numpy()); lon = np.radians(gps["b"].to_numpy())
elif eng == "pyarrow":
    import pyarrow.csv as pc, pyarrow.compute as C, pyarrow as pa
    tb = pc.read_csv(path, read_options=pc.ReadOptions(column_names=["t","kind","a","b","c","d","e","f","g"], skip_rows=sum(1 for l in open(path) if l.startswith("#")) if False else 0),
                     parse_options=pc.ParseOptions(invalid_row_handler=lambda r: "skip"),
                     convert_options=pc.ConvertOptions(column_types={"a": pa.float64(), "b": pa.float64(), "c": pa.float64()}))
    acc = tb.filter(C.equal(tb["kind"], "accel")); gps = tb.filter(C.equal(tb["kind"], "gps"))
    t = acc["t"].to_numpy(); ax = acc["a"].to_numpy(); ay = acc["b"].to_numpy()
    lat = np.radians(gps["a"].to_numpy()); lon = np.radians(gps["b"].to_numpy())
else:
    import pandas as pd
    df = pd.read_csv(path, header=None, comment="#", names=["t","kind","a","b","c","d","e","f","g"], engine="c")
    acc = df[df.kind == "accel"]; gps = df[df.kind == "gps"]
    t = acc.t.to_numpy(); ax = acc.a.to_numpy(float); ay = acc.b.to_numpy(float)
    lat = np.radians(gps.a.to_numpy(float)); lon = np.radians(gps.b.to_numpy(float))
t1 = time.perf_counter()
fs = 1.0 / np.median(np.diff(t[:1000]))
h = np.stack([ax - ax.mean(), ay - ay.mean()])
w, v = np.linalg.eigh(np.cov(h)); surge = v[:, -1] @ h
sos = butter(2, [0.1, 2.0], "bandpass", fs=fs, output="sos")
y = sosfilt(sos, surge)
pk, _ = find_peaks(y, height=0.45, distance=int(0.96 * fs))
dl = np.diff(lat); dn = np.diff(lon)
hv = np.sin(dl / 2) ** 2 + np.cos(lat[:-1]) * np.cos(lat[1:]) * np.sin(dn / 2) ** 2
dist = float(np.sum(2 * 6371008.8 * np.arcsin(np.sqrt(hv))))
t2 = time.perf_counter()
rows = len(t) + len(lat)
print(f"{eng}: rows {rows} read {t1-t0:.2f}s analyse {t2-t1:.2f}s total {t2-t0:.2f}s = {rows/(t2-t0)/1e6:.2f} M rows/s; strokes {len(pk)} distance {dist:.0f} m")
