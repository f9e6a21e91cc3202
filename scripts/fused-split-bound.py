#!/usr/bin/env python3
"""The best per-stroke split scatter a live (causal) fused speed can reach on the simulator's
sensors (docs/SPEED.md, "Why 1 Hz cannot meet 0.5 live").

The accelerometer's white noise (sigma_a per sample at fs) integrates to a random walk in speed;
Doppler speeds (sigma_d at gps_hz) correct it. A Kalman filter on that speed error alone, with the
bias known (what any live filter can at best do), run for T seconds: each stroke's displayed split
is the mean of the filtered speed over the stroke, and its error is printed as m/s and s/500 m
(at the simulated crew's 3.9 m/s at 20 spm and 4.77 m/s at 32 spm). numpy only.

    python3 scripts/fused-split-bound.py
"""
import numpy as np, sys
def floor(fs=100, sigma_a=0.05, sigma_d=0.07, gps_hz=1, period=3.0, T=4000, seed=1, smooth=False):
    rng=np.random.default_rng(seed); dt=1/fs; n=int(T*fs)
    q=(sigma_a*dt)**2            # speed variance added per sample
    walk=np.cumsum(rng.normal(0,sigma_a*dt,n))   # integration error e(t): fused = true + e - xhat
    step=int(round(fs/gps_hz)); R=sigma_d**2
    xhat=np.zeros(n); P=1.0; x=0.0
    idx=0
    for k in range(n):
        P+=q
        if k%step==0:
            z=walk[k]+rng.normal(0,sigma_d)   # Doppler sees the integration error plus noise
            K=P/(P+R); x+=K*(z-x); P*=(1-K)
        xhat[k]=x
    err=walk-xhat
    m=int(period*fs); start=int(60*fs)
    per=[err[i:i+m].mean() for i in range(start,n-m,m)]
    return np.sqrt(np.mean(np.square(per)))
for fs in (25,100,500):
  for gps in (1,10):
    e20=floor(fs=fs,gps_hz=gps,period=3.0); e32=floor(fs=fs,gps_hz=gps,period=1.875)
    v20,v32=3.9,4.77
    s20=e20*500/v20**2; s32=e32*500/v32**2
    print(f"accel {fs:3d} Hz, GPS {gps:2d} Hz: per-stroke speed rms 20 spm {e20:.4f} m/s ({s20:.2f} s/500m), 32 spm {e32:.4f} ({s32:.2f}); both {np.sqrt((s20**2+s32**2)/2):.2f}")
