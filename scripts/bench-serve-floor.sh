#!/usr/bin/env bash
# The least memory a server like `oarlog serve` can take here, before any of Oarlog's code
# (docs/BENCHMARKS.md, "The floor under `oarlog serve`"): builds Benchmarks/ServeFloor's two
# programs — /api/live on Hummingbird + hummingbird-websocket, and on bare swift-nio — dynamic
# and with `--static-swift-stdlib`, runs each with CLIENTS WebSocket clients for SECONDS, and
# prints its peak RSS (VmHWM) at start and with the clients (`oarlog serve`'s own figure comes
# from scripts/bench-serve.sh). Takes 6-10 minutes the first time (four release builds).
#
#   scripts/bench-serve-floor.sh [SECONDS] [CLIENTS] [ROUNDS]   (defaults 10 3 2)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_RUN=${1:-10}
CLIENTS=${2:-3}
ROUNDS=${3:-2}
FLOOR=Benchmarks/ServeFloor
swift build -c release --package-path "$FLOOR" >&2
swift build -c release --package-path "$FLOOR" --static-swift-stdlib --scratch-path "$FLOOR/.build-static" >&2
peak_kb() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
run() {  # run LABEL PROGRAM: peak RSS at start, then with the clients
    local label=$1 program=$2 port pid start messages
    port=$((20000 + RANDOM % 20000))
    "$program" "$port" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    start=$(peak_kb "$pid")
    messages=$(python3 scripts/ws-listen.py "$port" "$CLIENTS" "$SECONDS_RUN")
    awk -v l="$label" -v s="$start" -v p="$(peak_kb "$pid")" -v c="$CLIENTS" -v m="$messages" \
        'BEGIN { printf "%-34s peak RSS %5.1f MB at start, %5.1f MB with %d clients (messages: %s)\n", l, s / 1024, p / 1024, c, m }'
    kill "$pid"; wait "$pid" 2>/dev/null || true
}
for round in $(seq 1 "$ROUNDS"); do
    echo "round $round:"
    run "Hummingbird, dynamic" "$FLOOR/.build/release/floor-hummingbird"
    run "Hummingbird, static stdlib" "$FLOOR/.build-static/release/floor-hummingbird"
    run "swift-nio only, dynamic" "$FLOOR/.build/release/floor-nio"
    run "swift-nio only, static stdlib" "$FLOOR/.build-static/release/floor-nio"
done
