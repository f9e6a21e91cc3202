#!/usr/bin/env bash
# What `oarlog serve` costs over recording alone (docs/BENCHMARKS.md, "The web app"):
# a 100 Hz trace replayed in real time for SECONDS, saved as a session, (a) by `oarlog replay
# --speed 1 --save` — the pipeline and the session writer, as `record` runs them — and (b) by
# `oarlog serve --replay … --speed 1` with a session started and CLIENTS phones on /api/live.
# Prints CPU (user+system, % of one core) and peak RSS of each, interleaved ROUNDS times.
#
#   scripts/bench-serve.sh [SECONDS] [CLIENTS] [ROUNDS]   (defaults 60 3 3)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_RUN=${1:-60}
CLIENTS=${2:-3}
ROUNDS=${3:-3}
BIN=.build/release/oarlog
[ -x "$BIN" ] && [ -x "$BIN-full" ] || { swift build -c release --product oarlog-full >&2 && swift build -c release --product oarlog >&2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$BIN" simulate --minutes 5 --rate 24 --accel-hz 100 --gps-hz 1 --seed 7 -o "$work/sim100.csv" >/dev/null

ticks=$(getconf CLK_TCK)
cpu_of() {  # utime+stime in ticks
    awk '{print $14 + $15}' "/proc/$1/stat"
}
peak_of() {
    awk '/VmHWM/ {print $2}' "/proc/$1/status"
}
measure() {  # measure PID LABEL: CPU over SECONDS_RUN from now, then peak RSS
    local pid=$1 label=$2 c0 c1 peak
    c0=$(cpu_of "$pid")
    sleep "$SECONDS_RUN"
    c1=$(cpu_of "$pid")
    peak=$(peak_of "$pid")
    awk -v a="$c0" -v b="$c1" -v t="$ticks" -v s="$SECONDS_RUN" -v p="$peak" -v l="$label" \
        'BEGIN { printf "%-28s CPU %5.2f %% of a core   peak RSS %5.1f MB\n", l, 100 * (b - a) / t / s, p / 1024 }'
}

for round in $(seq 1 "$ROUNDS"); do
    export OARLOG_DATA_DIR="$work/data-$round"
    "$BIN" replay "$work/sim100.csv" --speed 1 --save --title bench >/dev/null 2>&1 &
    pid=$!
    sleep 2
    measure "$pid" "round $round: replay --save"
    kill -INT "$pid"; wait "$pid" 2>/dev/null || true

    port=$((20000 + RANDOM % 20000))
    "$BIN" serve --replay "$work/sim100.csv" --speed 1 --listen "127.0.0.1:$port" 2>"$work/serve.log" &
    pid=$!
    for _ in $(seq 1 100); do grep -q "control token" "$work/serve.log" && break; sleep 0.1; done
    token=$(awk '/control token/ {print $3}' "$work/serve.log")
    curl -s -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/record/start" >/dev/null
    python3 scripts/ws-listen.py "$port" "$CLIENTS" "$((SECONDS_RUN + 3))" >"$work/clients.txt" &
    listeners=$!
    sleep 2
    measure "$pid" "round $round: serve + $CLIENTS clients"
    wait "$listeners" || true
    echo "    messages per client: $(cat "$work/clients.txt")"
    kill -INT "$pid"; wait "$pid" 2>/dev/null || true
done
