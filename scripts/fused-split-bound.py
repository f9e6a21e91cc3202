#!/usr/bin/env python3
"""The best per-stroke split scatter a live fused speed can reach on the simulator's sensors
(docs/SPEED.md, "Why 1 Hz cannot meet 0.5 live").

The accelerometer's white noise (sigma_a per sample at fs) integrates to a random walk in speed;
Doppler speeds (sigma_d at gps_hz) correct it. A Kalman filter on that speed error alone, with the
bias known (what any live filter can at best do), run for T seconds: each stroke's displayed split
is the mean of the speed over the stroke, and its error is printed as m/s and s/500 m (at the
simulated crew's 3.9 m/s at 20 spm and 4.77 m/s at 32 spm). Two estimates of that mean:
  filtered   each sample's speed from what was known at that sample (a forward filter);
  stroke end each sample's speed from everything known when the stroke ends, when its split is
             shown (a Rauch-Tung-Striebel pass back over the stroke: the most a live display can
             use). Each figure is the rms over four seeds of 4,000 s each (the speed error drifts slowly, so
one seed's figure moves by a few per cent). numpy only.

    python3 scripts/fused-split-bound.py
"""
import numpy as np


def floor(fs=100, sigma_a=0.05, sigma_d=0.07, gps_hz=1, period=3.0, T=4000, seed=1):
    """(filtered, stroke end): the rms over strokes of the stroke's mean speed error, m/s."""
    rng = np.random.default_rng(seed)
    dt = 1 / fs
    n = int(T * fs)
    q = (sigma_a * dt) ** 2            # speed variance added per sample
    walk = np.cumsum(rng.normal(0, sigma_a * dt, n))   # integration error e(t): fused = true + e - xhat
    step = int(round(fs / gps_hz))
    R = sigma_d ** 2
    xf = np.zeros(n)
    Pf = np.zeros(n)
    P, x = 1.0, 0.0
    for k in range(n):
        P += q
        if k % step == 0:
            z = walk[k] + rng.normal(0, sigma_d)   # Doppler sees the integration error plus noise
            K = P / (P + R)
            x += K * (z - x)
            P *= (1 - K)
        xf[k], Pf[k] = x, P
    m = int(period * fs)
    start = int(60 * fs)
    filtered, stroke_end = [], []
    for i in range(start, n - m, m):
        b = i + m
        xs = np.empty(m)
        xs[-1] = xf[b - 1]
        for j in range(m - 2, -1, -1):   # RTS on a random walk: gain P/(P+q)
            k = i + j
            xs[j] = xf[k] + Pf[k] / (Pf[k] + q) * (xs[j + 1] - xf[k])
        filtered.append((walk[i:b] - xf[i:b]).mean())
        stroke_end.append((walk[i:b] - xs).mean())
    return np.sqrt(np.mean(np.square(filtered))), np.sqrt(np.mean(np.square(stroke_end)))


def split(e, v):
    return e * 500 / v ** 2


for fs in (25, 100, 500):
    for gps in (1, 10):
        def seeds(period):
            runs = np.array([floor(fs=fs, gps_hz=gps, period=period, seed=seed) for seed in (1, 2, 3, 4)])
            return np.sqrt(np.mean(np.square(runs), axis=0))
        (f20, s20), (f32, s32) = seeds(3.0), seeds(1.875)
        for name, e20, e32 in (("filtered  ", f20, f32), ("stroke end", s20, s32)):
            a, b = split(e20, 3.9), split(e32, 4.77)
            print(f"accel {fs:3d} Hz, GPS {gps:2d} Hz, {name}: per-stroke speed rms 20 spm {e20:.4f} m/s ({a:.2f} s/500m), "
                  f"32 spm {e32:.4f} ({b:.2f}); both {np.sqrt((a * a + b * b) / 2):.3f}")
