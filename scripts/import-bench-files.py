#!/usr/bin/env python3
"""The 200 trace files of the import benchmark (docs/BENCHMARKS.md, issue 31): the bundled traces
that read today, each repeated with its start moved on by whole days, as ImportCommandTests makes
them.  Usage: import-bench-files.py PROJECT_ROOT OUT_DIR"""
import datetime, os, re, sys
root, out = sys.argv[1], sys.argv[2]
src = ["samples/sim-workout.csv", "samples/rowingdata/SpeedCoach2Link_interval.csv", "samples/rowingdata/SpeedCoach2Linkv1.27.csv",
       "Tests/OarlogTraceTests/Fixtures/devices/SpdCoach2_imp_inconsistent.csv", "Tests/OarlogTraceTests/Fixtures/devices/SpeedCoach2v2.12.csv",
       "samples/rowingdata/quiske_per_stroke_seat.csv", "samples/rowingdata/nk_logbook.csv"]
def native(t, d):
    s = datetime.datetime(2026, 5, 2, 7) + datetime.timedelta(days=d)
    return t.replace("# start_utc: 2026-05-02T07:00:00.000Z", "# start_utc: " + s.strftime("%Y-%m-%dT%H:%M:%S.000Z"))
def sc(t, d):
    m = re.search(r"Start Time:,(\d+)/(\d+)/(\d+)", t)
    mo, da, y = int(m.group(1)), int(m.group(2)), m.group(3)
    yy = int(y) + (2000 if len(y) == 2 else 0)
    s = datetime.date(yy, mo, da) + datetime.timedelta(days=d)
    ny = ("%02d" % (s.year % 100)) if len(y) == 2 else str(s.year)
    return t[:m.start(1)] + "%02d/%02d/%s" % (s.month, s.day, ny) + t[m.end(3):]
def col(c, unit):
    def f(t, d):
        lines = []
        for line in t.split("\n"):
            f_ = line.split(",", c + 1)
            try:
                v = float(f_[c])
                if len(f_) > c + 1 and v > 1e9 / unit:
                    f_[c] = repr(v + d * 86400 / unit) if unit == 1 else str(int(v + d * 86400 / unit))
                    line = ",".join(f_)
            except (ValueError, IndexError):
                pass
            lines.append(line)
        return "\n".join(lines)
    return f
shift = [native, sc, sc, sc, sc, col(0, 1), col(2, 0.001)]
for n in range(200):
    s, d = n % 7, n // 7 + 1
    t = open(os.path.join(root, src[s]), encoding="utf-8").read()
    os.makedirs(f"{out}/boat-{s}", exist_ok=True)
    open(f"{out}/boat-{s}/copy-{n}-" + os.path.basename(src[s]), "w", encoding="utf-8").write(shift[s](t, d))
