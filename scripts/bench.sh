#!/usr/bin/env bash
# Oarlog's throughput benchmarks, with the scipy peer in the same run (docs/BENCHMARKS.md).
#
#   scripts/bench.sh            data (once), the Swift-vs-scipy comparison, then the
#                               package-benchmark suite with its zero-malloc threshold check
#   scripts/bench.sh --quick    the comparison only (no package-benchmark suite)
#
# Environment: OARLOG_BENCH_DIR (default /tmp/oarlog-bench) holds the data;
# OARLOG_BENCH_SAMPLES (default 20 M) surge samples; OARLOG_BENCH_ROWS (default 10 M) CSV accel rows.
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
SWIFT_JSON="$("$BENCH" detect "$SURGE" --repeats 3)"
PEER_JSON="$(python3 scripts/bench-peer.py run "$SURGE" "${PEER_ARGS[@]}" --repeats 3)"
# scipy again with Oarlog's own trick: average 4 samples (100 Hz -> 25 Hz) before filtering.
PEER_DEC_JSON="$(python3 scripts/bench-peer.py run "$SURGE" "${PEER_ARGS[@]}" --repeats 3 --decimate 4)"
REPLAY_JSON="$("$BENCH" replay "$TRACE" --repeats 3 2>&1)" || REPLAY_JSON="{\"error\": $(printf '%s' "$REPLAY_JSON" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')}"

python3 - "$SWIFT_JSON" "$PEER_JSON" "$REPLAY_JSON" "$PEER_DEC_JSON" "$SURGE" <<'EOF'
import json, sys
import numpy as np
swift, peer, replay, peer_dec = (json.loads(a) for a in sys.argv[1:5])
truth = json.load(open(sys.argv[5] + ".json"))["true_strokes"]
catches = np.fromfile(sys.argv[5] + ".catches", dtype="<f8")
print()
print(f"Stroke detection on {swift['samples']:,} float32 surge samples (100 Hz), best of {swift['repeats']}:")
print(f"  oarlog StrokeDetector   {swift['samples_per_s'] / 1e6:9.1f} M samples/s   {swift['strokes']:7,} strokes")
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
