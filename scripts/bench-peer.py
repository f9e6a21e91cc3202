#!/usr/bin/env python3
"""The scipy reference peer for Oarlog's stroke-detector benchmark (docs/BENCHMARKS.md).

Two jobs, both on the same data the Swift benchmarks read:

  generate  writes a realistic boat surge-acceleration signal (m/s², 100 Hz) as raw little-endian
            float32 to PATH, plus PATH.json with its parameters and the true stroke count, and
            PATH.catches (float64 catch times, s) so a shorter replay can be checked too.
            Deterministic: the same seed gives the same bytes.
  run       times scipy on that file: butter(2, [lo, hi], 'bandpass', fs, output='sos') + sosfilt
            + find_peaks(height, distance), the textbook equivalent of Oarlog's StrokeDetector, and
            prints one JSON line: samples, strokes, best and median seconds, samples per second.
  replay    the peer of `oarlog replay TRACE --json` on a native CSV trace: polars read_csv, the
            mounting with numpy, scipy band-pass + find_peaks, numpy haversine distance; prints
            one JSON line (what it found, the time of each step). scripts/bench.sh times the whole
            process, as it does `oarlog replay`.

Only numpy and scipy (and polars for `replay`); no Oarlog code.
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np

GENERATOR_VERSION = 2
SAMPLE_RATE_HZ = 100.0


def stroke_plan(duration_s, rng):
    """Catch times and periods: a rate wandering 20-28 spm around 24 spm (a 10-minute cycle),
    with ±0.4 spm stroke-to-stroke jitter. Returns (catch_times_s, periods_s)."""
    catches, periods = [], []
    t = 0.5
    while t < duration_s + 5.0:
        rate_spm = 24.0 + 4.0 * np.sin(2.0 * np.pi * t / 600.0) + rng.normal(0.0, 0.4)
        period = 60.0 / rate_spm
        catches.append(t)
        periods.append(period)
        t += period
    return np.asarray(catches), np.asarray(periods)


def surge_shape(tau, period, gain):
    """Surge acceleration (m/s²) at tau seconds after the catch of a stroke of `period` seconds:
    a sharp check at the catch, the drive's broad positive pulse, a dip at the finish, and the
    small surge of the recovery as the crew moves toward the stern. Not yet mean-free."""
    drive = 0.5 + 0.16 * period  # drive duration, s (0.9 s at 24 spm, 0.77 s at 36 spm)
    a = np.zeros_like(tau)
    catch = tau < 0.12
    a = np.where(catch, -3.0 * np.sin(np.pi * tau / 0.12) ** 2, a)
    in_drive = (tau >= 0.12) & (tau < drive)
    a = np.where(in_drive, 3.5 * np.clip(np.sin(np.pi * (tau - 0.12) / (drive - 0.12)), 0.0, 1.0) ** 1.5, a)
    finish = (tau >= drive) & (tau < drive + 0.25)
    a = np.where(finish, -1.2 * np.sin(np.pi * (tau - drive) / 0.25), a)
    rec_len = np.maximum(period - drive - 0.25, 0.1)
    recovery = tau >= drive + 0.25
    a = np.where(recovery, 0.5 * np.sin(np.pi * np.clip((tau - drive - 0.25) / rec_len, 0.0, 1.0)), a)
    return gain * a


def generate(path, samples, seed):
    rng = np.random.default_rng(seed)
    duration_s = samples / SAMPLE_RATE_HZ
    catches, periods = stroke_plan(duration_s, rng)
    gains = 1.0 + 0.1 * rng.standard_normal(len(catches))
    # Each stroke's mean over its own period, removed so the boat's speed stays steady.
    fine = np.linspace(0.0, 1.0, 2001)
    means = np.array([np.mean(surge_shape(fine * p, p, 1.0)) for p in np.round(periods, 3)])
    tmp = path + ".tmp"
    chunk = 1 << 20
    with open(tmp, "wb") as f:
        for start in range(0, samples, chunk):
            n = min(chunk, samples - start)
            t = (start + np.arange(n)) / SAMPLE_RATE_HZ
            i = np.searchsorted(catches, t, side="right") - 1
            before_first = i < 0
            i = np.maximum(i, 0)
            tau = t - catches[i]
            a = surge_shape(tau, periods[i], gains[i]) - gains[i] * means[i]
            a = np.where(before_first, 0.0, a)
            # Sensor noise, hull vibration at 7.3 Hz and a slow drift (waves, trim).
            a += 0.35 * rng.standard_normal(n)
            a += 0.15 * np.sin(2.0 * np.pi * 7.3 * t)
            a += 0.10 * np.sin(2.0 * np.pi * t / 17.0)
            f.write(a.astype("<f4").tobytes())
    os.replace(tmp, path)
    # Strokes whose drive lies wholly inside the data.
    complete = catches + 0.5 + 0.16 * periods < duration_s
    true_strokes = int(np.sum(complete))
    catches[complete].astype("<f8").tofile(path + ".catches")
    meta = {
        "generator_version": GENERATOR_VERSION,
        "samples": samples,
        "sample_rate_hz": SAMPLE_RATE_HZ,
        "seed": seed,
        "dtype": "float32 little-endian",
        "units": "m/s^2 surge (boat fore-aft acceleration, gravity removed)",
        "true_strokes": true_strokes,
    }
    with open(path + ".json", "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def run(path, low_hz, high_hz, height, min_period_s, repeats, decimate):
    """Times the detection. With `decimate` > 1 the signal is first averaged over blocks of that
    many samples (inside the timed region), as Oarlog's detector does, and filtered at the
    lower rate."""
    from scipy.signal import butter, find_peaks, sosfilt
    import scipy

    x = np.fromfile(path, dtype="<f4")
    fs = SAMPLE_RATE_HZ / decimate
    sos = butter(2, [low_hz, high_hz], btype="bandpass", fs=fs, output="sos")
    distance = max(1, int(round(min_period_s * fs)))
    usable = x.size - x.size % decimate
    times, strokes = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        xd = x[:usable].reshape(-1, decimate).mean(axis=1) if decimate > 1 else x
        y = sosfilt(sos, xd)
        peaks, _ = find_peaks(y, height=height, distance=distance)
        times.append(time.perf_counter() - start)
        strokes = len(peaks)
    best = min(times)
    return {
        "peer": "scipy",
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "samples": int(x.size),
        "strokes": strokes,
        "band_hz": [low_hz, high_hz],
        "height_mps2": height,
        "decimate": decimate,
        "distance_samples": distance,
        "filtered_dtype": str(y.dtype),
        "repeats": repeats,
        "best_s": best,
        "median_s": statistics.median(times),
        "samples_per_s": x.size / best,
    }


def replay(path, low_hz, high_hz, height, min_period_s):
    """The polars peer of `oarlog replay TRACE --json`: reads a native Oarlog CSV trace with
    polars, finds the strokes with scipy and the distance with numpy, and returns what it found
    with the time each step took (the caller times the whole process, imports included).

    The trace's rows are ragged (`t,accel,ax,ay,az`, `t,gps,lat,lon,speed,course,hacc[,alt,utc]`,
    `#` metadata), so `read_csv` gets the widest row's schema and fills the missing fields with
    nulls. The mounting is found as a person would: gravity = the mean acceleration, the surge
    axis = the principal axis of the horizontal covariance (`numpy.linalg.eigh`), its sign from the
    skew of the jerk (the catch is the sharpest change); then the surge is band-passed (`butter` +
    `sosfilt`, two biquads as Oarlog's detector) and the drives found with `find_peaks`; the
    distance is the haversine sum over consecutive fixes."""
    started = time.perf_counter()
    import polars as pl
    from scipy.signal import butter, find_peaks, sosfilt
    import scipy

    imported = time.perf_counter()
    schema = {"t": pl.Float64, "kind": pl.String, "c1": pl.Float64, "c2": pl.Float64, "c3": pl.Float64,
              "c4": pl.Float64, "c5": pl.Float64, "c6": pl.Float64, "c7": pl.Float64}
    df = pl.read_csv(path, has_header=False, comment_prefix="#", schema=schema, truncate_ragged_lines=True,
                     ignore_errors=True, missing_columns="insert")  # ignore_errors: the `t,kind,values` header
    accel = df.filter(pl.col("kind") == "accel").select("t", "c1", "c2", "c3").to_numpy()
    gps = df.filter(pl.col("kind") == "gps").select("t", "c1", "c2").to_numpy()
    rows = int(df.filter(pl.col("kind").is_not_null()).height)
    read = time.perf_counter()

    t, a = accel[:, 0], accel[:, 1:4]
    fs = 1.0 / float(np.median(np.diff(t[: min(len(t), 10_000)])))
    g = a.mean(axis=0)
    up = g / np.linalg.norm(g)
    dynamic = a - g
    horizontal = dynamic - np.outer(dynamic @ up, up)
    _, vectors = np.linalg.eigh(np.cov(horizontal.T))
    axis = vectors[:, -1]
    surge = horizontal @ axis
    jerk = np.diff(sosfilt(butter(1, 8.0, "lowpass", fs=fs, output="sos"), surge)) * fs
    skew = np.mean(jerk ** 3) / np.mean(jerk ** 2) ** 1.5
    if skew < 0:
        surge = -surge
    sos = butter(2, [low_hz, high_hz], btype="bandpass", fs=fs, output="sos")
    band = sosfilt(sos, surge)
    peaks, _ = find_peaks(band, height=height, distance=max(1, int(round(min_period_s * fs))))
    strokes = len(peaks)
    periods = np.diff(t[peaks])
    rate = float(60.0 / np.mean(periods[(periods > 0) & (periods < 7.5)])) if strokes > 1 else None
    detected = time.perf_counter()

    lat, lon = np.radians(gps[:, 1]), np.radians(gps[:, 2])
    dlat, dlon = np.diff(lat), np.diff(lon)
    h = np.sin(dlat / 2) ** 2 + np.cos(lat[:-1]) * np.cos(lat[1:]) * np.sin(dlon / 2) ** 2
    distance = float(np.sum(2 * 6_371_008.8 * np.arcsin(np.sqrt(h))))
    done = time.perf_counter()
    return {
        "peer": "polars",
        "polars": pl.__version__,
        "scipy": scipy.__version__,
        "numpy": np.__version__,
        "rows": rows,
        "accel_samples": int(len(t)),
        "fixes": int(len(gps)),
        "strokes": strokes,
        "avg_stroke_rate_spm": rate,
        "distance_m": distance,
        "elapsed_s": float(t[-1] - t[0]) if len(t) else None,
        "import_s": imported - started,
        "read_s": read - imported,
        "strokes_s": detected - read,
        "distance_s": done - detected,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate", help="write the float32 surge file and its .json")
    g.add_argument("path")
    g.add_argument("--samples", type=int, default=20_000_000)
    g.add_argument("--seed", type=int, default=2024)
    r = sub.add_parser("run", help="time scipy sosfilt + find_peaks on the file")
    r.add_argument("path")
    # Defaults: StrokeDetectorConfiguration's band (0.1-2 Hz, two biquads = butter order 2 band-pass),
    # its smallest drive (0.45 m/s²) and its shortest refractory time (80 % of a 50 spm period).
    r.add_argument("--low-hz", type=float, default=0.1)
    r.add_argument("--high-hz", type=float, default=2.0)
    r.add_argument("--height", type=float, default=0.45, help="peak height, m/s² after the band-pass")
    r.add_argument("--min-period-s", type=float, default=0.96, help="refractory period: find_peaks distance")
    r.add_argument("--repeats", type=int, default=3)
    r.add_argument("--decimate", type=int, default=1, help="average blocks of this many samples first")
    q = sub.add_parser("replay", help="the polars peer of `oarlog replay TRACE --json` on a native CSV trace")
    q.add_argument("path")
    q.add_argument("--low-hz", type=float, default=0.1)
    q.add_argument("--high-hz", type=float, default=2.0)
    q.add_argument("--height", type=float, default=0.45, help="peak height, m/s² after the band-pass")
    q.add_argument("--min-period-s", type=float, default=0.96, help="refractory period: find_peaks distance")
    a = p.parse_args()
    if a.command == "replay":
        print(json.dumps(replay(a.path, a.low_hz, a.high_hz, a.height, a.min_period_s)))
        return
    if a.command == "generate":
        print(json.dumps(generate(a.path, a.samples, a.seed)))
    else:
        if not os.path.exists(a.path):
            sys.exit(f"bench-peer: no data at {a.path}; run `bench-peer.py generate {a.path}` first")
        print(json.dumps(run(a.path, a.low_hz, a.high_hz, a.height, a.min_period_s, a.repeats, a.decimate)))


if __name__ == "__main__":
    main()
