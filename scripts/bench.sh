#!/usr/bin/env bash
# Oarlog's throughput benchmarks, with the scipy peer in the same run (docs/BENCHMARKS.md).
#
#   scripts/bench.sh            data (once), the Swift-vs-scipy comparison, then the
#                               package-benchmark suite with its zero-malloc threshold check
#   scripts/bench.sh --quick    the comparisons only (no package-benchmark suite)
#
# Environment: OARLOG_BENCH_DIR (default /tmp/oarlog-bench) holds the data;
# OARLOG_BENCH_SAMPLES (default 20 M) surge samples; OARLOG_BENCH_ROWS (default 10 M) CSV accel rows;
# OARLOG_BIN a release `oarlog` already built (step 4b builds one otherwise). The Python peers need
# numpy, scipy and polars (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1

export OARLOG_BENCH_DIR="${OARLOG_BENCH_DIR:-/tmp/oarlog-bench}"
SAMPLES="${OARLOG_BENCH_SAMPLES:-20000000}"
ROWS="${OARLOG_BENCH_ROWS:-10000000}"
SURGE="$OARLOG_BENCH_DIR/surge-100hz.f32"
TRACE="$OARLOG_BENCH_DIR/trace-100hz.csv"
mkdir -p "$OARLOG_BENCH_DIR"

# The scipy peer's detector, matched to StrokeDetectorConfiguration's defaults: the same
# band-pass (0.1-2 Hz, order-2 Butterworth = two biquads), the shortest refractory time (80 % of
# a 50 spm period), the smallest drive as a fixed height in place of the adaptive threshold.
PEER_ARGS=(--low-hz 0.1 --high-hz 2.0 --height 0.45 --min-period-s 0.96)

# 1. The surge signal, once (again if its size or the generator changed).
if ! python3 - "$SURGE" "$SAMPLES" <<'EOF'
import json, sys
try:
    meta = json.load(open(sys.argv[1] + ".json"))
except OSError:
    sys.exit(1)
sys.exit(0 if meta.get("samples") == int(sys.argv[2]) and meta.get("generator_version") == 2 else 1)
EOF
then
    echo "bench: generating $SAMPLES surge samples in $SURGE" >&2
    python3 scripts/bench-peer.py generate "$SURGE" --samples "$SAMPLES" >/dev/null
    rm -f "$TRACE"
fi

# 2. The Swift side, release build.
swift build -c release --package-path Benchmarks --product oarlog-bench >&2
BENCH="$(swift build -c release --package-path Benchmarks --show-bin-path)/oarlog-bench"

# 3. The CSV trace, once, written by Oarlog's TraceWriter from the same surge signal.
if [ ! -s "$TRACE" ] || [ "$(head -c 20 "$TRACE" | wc -c)" -eq 0 ]; then
    echo "bench: writing the $ROWS-row CSV trace $TRACE" >&2
    "$BENCH" make-trace "$SURGE" "$TRACE" --rows "$ROWS" >&2 || echo "bench: no CSV trace; the replay is not measured" >&2
fi

# 4. The same-run comparison: both sides read the same file, best of 3 whole passes each.
echo "bench: timing oarlog and scipy on $SURGE" >&2
SWIFT_JSON="$("$BENCH" detect "$SURGE" --repeats 10)"
PEER_JSON="$(python3 scripts/bench-peer.py run "$SURGE" "${PEER_ARGS[@]}" --repeats 3)"
# scipy again with Oarlog's own trick: average 4 samples (100 Hz -> 25 Hz) before filtering.
PEER_DEC_JSON="$(python3 scripts/bench-peer.py run "$SURGE" "${PEER_ARGS[@]}" --repeats 3 --decimate 4)"
REPLAY_JSON="$("$BENCH" replay "$TRACE" --repeats 3 2>&1)" || REPLAY_JSON="{\"error\": $(printf '%s' "$REPLAY_JSON" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')}"
# The analyzer alone on its block path (runs of samples up to each 1 Hz fix, as a replay gives
# them), on 3.6 M samples built in memory from the same surge signal.
ANALYZER_JSON="$("$BENCH" analyzer "$SURGE" --samples 3600000 --repeats 5 --block-only)"

python3 - "$SWIFT_JSON" "$PEER_JSON" "$REPLAY_JSON" "$PEER_DEC_JSON" "$SURGE" "$ANALYZER_JSON" <<'EOF'
import json, sys
import numpy as np
swift, peer, replay, peer_dec = (json.loads(a) for a in sys.argv[1:5])
analyzer = json.loads(sys.argv[6])
truth = json.load(open(sys.argv[5] + ".json"))["true_strokes"]
catches = np.fromfile(sys.argv[5] + ".catches", dtype="<f8")
print()
print(f"Stroke detection on {swift['samples']:,} float32 surge samples (100 Hz), best of {swift['repeats']}:")
print(f"  oarlog StrokeDetector   {swift['samples_per_s'] / 1e6:9.1f} M samples/s   {swift['strokes']:7,} strokes"
      f"   ({swift['samples_per_cpu_s'] / 1e6:.1f} M by the thread's CPU time)")
print(f"  scipy sosfilt+find_peaks{peer['samples_per_s'] / 1e6:9.1f} M samples/s   {peer['strokes']:7,} strokes"
      f"   (scipy {peer['scipy']}, numpy {peer['numpy']})")
print(f"  scipy, 4:1 mean first   {peer_dec['samples_per_s'] / 1e6:9.1f} M samples/s   {peer_dec['strokes']:7,} strokes")
print(f"  true strokes in the signal                      {truth:7,}")
print(f"  ratio oarlog / scipy    {swift['samples_per_s'] / peer['samples_per_s']:9.2f}x   (target >= 3x, >= 300 M samples/s)")
print(f"  ratio oarlog / scipy with the same 4:1 decimation  {swift['samples_per_s'] / peer_dec['samples_per_s']:.2f}x")
print()
if "error" in replay:
    print(f"CSV replay: not measured: {replay['error']}")
else:
    print(f"CSV replay end to end ({replay['rows']:,} rows through the pipeline), best of {replay['repeats']}:")
    # The trace has one fix per 100 accelerometer rows; its duration is its accel rows / 100 Hz.
    duration = (replay['rows'] - replay['rows'] // 101) / 100.0
    replay_truth = int(np.sum(catches + 1.0 < duration))
    print(f"  {replay['rows_per_s'] / 1e6:9.1f} M rows/s   {replay['strokes']:,} strokes"
          f" (true: {replay_truth:,})   (target >= 25 M rows/s)")
    print(f"  where the time goes: reader alone {replay['reader_rows_per_s'] / 1e6:.1f} M rows/s,"
          f" analyzer alone (same records in memory) {replay['analyzer_records_per_s'] / 1e6:.1f} M records/s")
print()
print(f"Analyzer alone, block path ({analyzer['samples']:,} samples, 3-axis, tilted, with 1 Hz fixes), best of {analyzer['repeats']}:")
print(f"  {analyzer['block_samples_per_s'] / 1e6:9.1f} M samples/s (median {analyzer['block_median_samples_per_s'] / 1e6:.1f})"
      f"   {analyzer['strokes_block']:,} strokes   (target >= 30 M samples/s)")
print()
EOF

# 4b. Issue 30's rows, each beside its peer in the same run. `oarlog replay TRACE --json` as a
#     user runs it (the release binary, a whole process each time: start-up, format sniffing, the
#     trace read from the page cache, the analysis, the JSON) against the polars peer
#     (scripts/peer_replay.py polars: polars read_csv + numpy principal axis + scipy
#     band-pass/find_peaks + numpy haversine, also a whole process, imports included) on the same
#     simulated 10-hour trace, best of 3 each, with the peak resident memory of each process
#     (/usr/bin/time -f %M); `oarlog replay` on a 1-hour trace; the peak RSS of `oarlog --help`;
#     then the table of the issue's rows with the detector and the analyzer from step 4.
#     OARLOG_BIN names a release `oarlog` already built, with its `oarlog-full` beside it (else
#     both are built here: the front replays, the full program simulates the traces).
if [ -n "${OARLOG_BIN:-}" ]; then
    OARLOG="$OARLOG_BIN"
else
    swift build -c release --product oarlog >&2
    swift build -c release --product oarlog-full >&2
    OARLOG="$(swift build -c release --show-bin-path)/oarlog"
fi
LONG_TRACE="$OARLOG_BENCH_DIR/sim-10h-100hz.csv"
HOUR_TRACE="$OARLOG_BENCH_DIR/sim-1h-100hz.csv"
[ -s "$LONG_TRACE" ] || "$OARLOG" simulate --minutes 600 --rate 24 --accel-hz 100 --gps-hz 1 -o "$LONG_TRACE" >&2
[ -s "$HOUR_TRACE" ] || "$OARLOG" simulate --minutes 60 --rate 24 --accel-hz 100 --gps-hz 1 -o "$HOUR_TRACE" >&2
echo "bench: timing oarlog replay and the polars peer on $LONG_TRACE" >&2
python3 - "$OARLOG" "$LONG_TRACE" "$HOUR_TRACE" "$SWIFT_JSON" "$ANALYZER_JSON" <<'EOF'
import json, os, re, subprocess, sys, tempfile, time

oarlog, long_trace, hour_trace = sys.argv[1:4]
detector, analyzer = json.loads(sys.argv[4]), json.loads(sys.argv[5])
peer = [sys.executable, "scripts/peer_replay.py", "polars"]

def data_rows(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line[:1].isdigit())

def run(argv, repeats=3):
    """Best wall time of `repeats` whole processes (spawn to exit), the largest peak RSS (KiB,
    /usr/bin/time -f %M), the last output."""
    best, rss, out = float("inf"), 0, b""
    with tempfile.NamedTemporaryFile("r") as rss_file:
        for _ in range(repeats):
            started = time.perf_counter()
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file.name] + argv,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - started
            if p.returncode != 0:
                sys.exit(f"bench: {' '.join(argv)} failed ({p.returncode})")
            rss_file.seek(0)
            best, rss, out = min(best, elapsed), max(rss, int(rss_file.read().split()[-1])), p.stdout
    return best, rss, out

rows = data_rows(long_trace)
o_time, o_rss, o_out = run([oarlog, "replay", long_trace, "--json"])
p_time, p_rss, p_out = run(peer + [long_trace])
h_time, h_rss, _ = run([oarlog, "replay", hour_trace, "--json"])
help_time, help_rss, _ = run([oarlog, "--help"], repeats=5)
o_out = json.loads(o_out)
found = re.search(rb"read ([\d.]+)s analyse ([\d.]+)s total [\d.]+s .*strokes (\d+) distance (\d+) m", p_out)
p_read, p_analyse, p_strokes, p_distance = (float(found[1]), float(found[2]), int(found[3]), int(found[4])) if found else (0, 0, 0, 0)
print(f"Whole-process replay of {os.path.basename(long_trace)} ({rows:,} rows, {os.path.getsize(long_trace) / 1e6:.0f} MB,"
      f" 10 h at 100 Hz + 1 Hz GPS), best of 3:")
print(f"  oarlog replay --json  {o_time:6.3f} s  {rows / o_time / 1e6:5.2f} M rows/s  peak RSS {o_rss / 1024:6.1f} MiB"
      f"   {o_out['strokes']:,} strokes, {o_out['distance_m']:.0f} m")
print(f"  polars peer           {p_time:6.3f} s  {rows / p_time / 1e6:5.2f} M rows/s  peak RSS {p_rss / 1024:6.1f} MiB"
      f"   {p_strokes:,} peaks, {p_distance} m   (read_csv {p_read:.2f} s, analysis {p_analyse:.2f} s; the rest is start-up and imports)")
print(f"  ratio peer / oarlog   {p_time / o_time:6.2f}x")
print(f"  oarlog replay --json on the 1-hour trace: {h_time:.3f} s, peak RSS {h_rss / 1024:.1f} MiB")
print(f"  oarlog --help: {help_time:.3f} s, peak RSS {help_rss / 1024:.1f} MiB")
print()

def row(name, now, goal, met):
    print(f"| {name} | {now} | {goal} | {'yes' if met else '**no**'} |")

detector_rate = detector["samples_per_s"] / 1e6
detector_cpu = detector.get("samples_per_cpu_s", detector["samples_per_s"]) / 1e6
analyzer_rate = analyzer["block_samples_per_s"] / 1e6
print("Issue 30 (markdown):")
print("| figure | now | goal | met? |")
print("|---|---|---|---|")
row("`oarlog replay --json`, 10 h at 100 Hz", f"{o_time:.2f} s = {rows / o_time / 1e6:.1f} M rows/s", ">= 10 M rows/s", rows / o_time >= 10e6)
row("the polars peer on the same file", f"{p_time:.2f} s: {p_time / o_time:.1f}x slower than Oarlog", ">= 5x slower", p_time / o_time >= 5)
row("peak RSS of that replay", f"{o_rss / 1024:.1f} MiB", "<= 16 MB", o_rss * 1024 <= 16e6)
row("peak RSS of `oarlog --help`", f"{help_rss / 1024:.1f} MiB", "<= 8 MB", help_rss * 1024 <= 8e6)
row("stroke detector alone (block path)", f"{detector_rate:.0f} M samples/s ({detector_cpu:.0f} M by the thread's CPU time)", ">= 300 M", detector_rate >= 300)
row("analyzer block path with stroke quality", f"{analyzer_rate:.1f} M samples/s", ">= 30 M", analyzer_rate >= 30)
print()
EOF

[ "$QUICK" -eq 1 ] && exit 0

# 5. The package-benchmark suite, stored as baseline `bench` (Benchmarks/.benchmarkBaselines,
#    not committed), printed with --scale (the starred metrics, time and mallocs, per measured
#    iteration of 1 M samples, or per whole CSV file), then checked against the static thresholds:
#    the check fails (non-zero exit) if a hot loop allocates (Benchmarks/Thresholds/*.p90.json,
#    mallocCountTotal 0).
cd Benchmarks
BM=(swift package --allow-writing-to-package-directory benchmark)
"${BM[@]}" baseline update bench --target OarlogThroughput --no-progress --quiet
"${BM[@]}" baseline read bench --target OarlogThroughput --no-progress --scale
"${BM[@]}" thresholds check bench --target OarlogThroughput \
    --filter 'Harness.*' --filter 'StrokeDetector.*' --filter 'RowingAnalyzer.*' --no-progress
