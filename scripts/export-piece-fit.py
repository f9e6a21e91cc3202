#!/usr/bin/env python3
"""What a per-stroke SpeedCoach export's own positions say about its first piece
(docs/DISTANCE.md, "Standing starts"): from the first row to the first at METRES of the device's
distance (or to the end of the first interval), the positions projected on the piece's direction
and fitted by least squares against the device's distance at the same strokes (the slope is the
positions' length per device metre), the straight line between the first and last position, and
the chord sum on the rounded grid.

Usage: scripts/export-piece-fit.py SPEEDCOACH.csv [METRES]   (default 500)
Standard library only.
"""
import math
import sys

EARTH_RADIUS = 6371008.8  # the mean radius, as NK devices measure (docs/DISTANCE.md)


COLUMNS = ("Distance (GPS)", "GPS Lat.", "GPS Lon.")
METRES_PER_UNIT = {"(Meters)": 1.0, "(Kilometers)": 1000.0, "(Miles)": 1609.344}


def strokes(path):
    """(device distance m, latitude, longitude) of each per-stroke row, the columns found by
    their names in the section's header (SpeedCoach layouts differ in which columns they have)."""
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("Per-Stroke Data")), None)
    if start is None or start + 2 >= len(lines):
        sys.exit(f"{path}: no 'Per-Stroke Data' section (a SpeedCoach per-stroke export?)")
    header = [name.strip() for name in lines[start + 2].split(",")]
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        sys.exit(f"{path}:{start + 3}: no column {', '.join(repr(m) for m in missing)} in the per-stroke header")
    columns = [header.index(name) for name in COLUMNS]
    # The distance's unit, from the row under the header, as the project's SpeedCoach reader takes it.
    units = [u.strip() for u in lines[start + 3].split(",")] if start + 3 < len(lines) else []
    unit = units[columns[0]] if len(units) > columns[0] else "(Meters)"
    if unit not in METRES_PER_UNIT:
        sys.exit(f"{path}:{start + 4}: distance in {unit!r}, not one of {', '.join(METRES_PER_UNIT)}")
    scale = METRES_PER_UNIT[unit]
    rows = []
    for number, line in enumerate(lines[start + 4:], start + 5):
        fields = line.split(",")
        if len(fields) <= max(columns) or not fields[0].strip().isdigit():
            continue
        values = [fields[c].strip() for c in columns]
        if "---" in values:
            continue  # a stroke without a fix
        try:
            rows.append((float(values[0]) * scale, float(values[1]), float(values[2])))
        except ValueError:
            sys.exit(f"{path}:{number}: no distance or position in {line[:60]!r}")
    return rows


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    metres = float(sys.argv[2]) if len(sys.argv) > 2 else 500.0
    rows = strokes(sys.argv[1])
    # The piece ends at METRES, or with the first interval (an interval file's distance restarts).
    end = len(rows) - 1
    for k in range(1, len(rows)):
        if rows[k][0] < rows[k - 1][0]:
            end = k - 1
            break
        if rows[k][0] >= metres:
            end = k
            break
    piece = rows[:end + 1]
    lat0 = math.radians(piece[0][1])
    xs = [math.radians(lon - piece[0][2]) * EARTH_RADIUS * math.cos(lat0) for _, _, lon in piece]
    ys = [math.radians(lat - piece[0][1]) * EARTH_RADIUS for _, lat, _ in piece]
    ds = [d for d, _, _ in piece]
    n = len(piece)
    # The piece's direction: the principal axis of its positions.
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    ux, uy = math.cos(angle), math.sin(angle)
    along = [ux * x + uy * y for x, y in zip(xs, ys)]
    if along[-1] < along[0]:
        along = [-a for a in along]

    def fit(lo, hi):
        d, s = ds[lo:hi], along[lo:hi]
        md, ms = sum(d) / len(d), sum(s) / len(s)
        slope = sum((a - md) * (b - ms) for a, b in zip(d, s)) / sum((a - md) ** 2 for a in d)
        residuals = [b - ms - slope * (a - md) for a, b in zip(d, s)]
        rms = math.sqrt(sum(r * r for r in residuals) / len(residuals))
        spread = math.sqrt(sum((a - md) ** 2 for a in d))
        return slope, rms, rms / spread

    def chord(a, b):
        return math.hypot(xs[b] - xs[a], ys[b] - ys[a])

    device = ds[-1] - ds[0]
    slope, rms, slope_error = fit(0, n)
    print(f"{n} strokes from the first row ({ds[0]:.1f} m) to {ds[-1]:.1f} m: the device's {device:.1f} m")
    print(f"positions fitted against the device's distance: slope {slope:.4f} ± {slope_error:.4f}"
          f" ({slope * device:.1f} m), residuals {rms:.2f} m rms")
    half = n // 2
    print(f"  first {half} strokes: slope {fit(0, half)[0]:.4f}; last {n - half}: {fit(half, n)[0]:.4f}")
    print(f"straight line first to last position: {chord(0, n - 1):.1f} m;"
          f" chords on the rounded grid: {sum(chord(k, k + 1) for k in range(n - 1)):.1f} m")


if __name__ == "__main__":
    main()
