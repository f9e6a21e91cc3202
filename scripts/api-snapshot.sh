#!/usr/bin/env bash
# Records the web API's answers to a fixed set of requests, one file a request, so that a change
# of the server's insides can be checked byte for byte (issue 24: "every API response ... is
# byte-identical before and after").
#
#   scripts/api-snapshot.sh DATA_DIR OUT_DIR       (OARLOG=path/to/oarlog; default the release build)
#
# DATA_DIR is filled with three sessions on first use (the bundled workout, the SpeedCoach interval
# export and the NK logbook over its course, with a note and a boat), and reused as it is after:
# session ids come from the time they were saved, so before and after must read the same folder.
# Compare two runs with `diff -r OUT_A OUT_B`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${OARLOG:-.build/release/oarlog}"
DATA="$1"; OUT="$2"
mkdir -p "$DATA" "$OUT"
export OARLOG_DATA_DIR="$DATA"
if [ -z "$(ls -A "$DATA/sessions" 2>/dev/null)" ]; then
    "$BIN" replay samples/sim-workout.csv --save --title "Sim workout" --boat "Eight" >/dev/null
    sleep 1.1
    "$BIN" replay samples/rowingdata/SpeedCoach2Link_interval.csv --save --title "Intervals" --boat "Single" >/dev/null
    sleep 1.1
    "$BIN" replay samples/rowingdata/nk_logbook.csv --fences samples/nk-course.geojson --save --title "Course piece" >/dev/null
    "$BIN" note last "seat 3 cramp" --at 60 >/dev/null
fi
PORT=$((20000 + RANDOM % 20000))
"$BIN" serve --listen "127.0.0.1:$PORT" --replay samples/sim-workout.csv --speed 1 >"$OUT/.serve.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/api/sessions" && break; sleep 0.1; done
get() { # NAME PATH (a refused request is an answer too)
    curl -s -o "$OUT/$1.body" -w '%{http_code} %{content_type}\n' "http://127.0.0.1:$PORT$2" >"$OUT/$1.head" || echo "curl failed" >>"$OUT/$1.head"
}
get sessions "/api/sessions"
get sessions-search "/api/sessions?search=workout&sort=distance"
get sessions-bad "/api/sessions?from=2026-13-45"
mapfile -t IDS < <(python3 -c 'import json,sys; [print(s["id"]) for s in json.load(sys.stdin)]' <"$OUT/sessions.body")
n=0
for id in "${IDS[@]}"; do
    n=$((n + 1))
    get "s$n" "/api/sessions/$id"
    get "s$n-trail" "/api/sessions/$id/trail?points=200"
    get "s$n-course" "/api/sessions/$id/course"
    get "s$n-pieces" "/api/sessions/$id/pieces"
    get "s$n-curve-piece" "/api/sessions/$id/curve?piece=0&points=50"
    get "s$n-curve-stroke" "/api/sessions/$id/curve?stroke=10&points=50"
    get "s$n-curve-none" "/api/sessions/$id/curve?stroke=100000"
    get "s$n-series" "/api/sessions/$id/series?fields=rate,split,distance_per_stroke&points=100"
    get "s$n-track" "/api/sessions/$id/track"
    for f in gpx tcx csv geojson fit; do get "s$n-export-$f" "/api/sessions/$id/export/$f"; done
done
get bests "/api/bests"
get bests-boat "/api/bests?boat=Eight"
if [ "${#IDS[@]}" -ge 2 ]; then
    get compare "/api/compare?a=${IDS[0]}&b=${IDS[1]}"
fi
get compare-bad "/api/compare?a=nope"
get missing "/api/sessions/no-such-session"
get fleet "/api/fleet"
get coach "/api/coach"
echo "api-snapshot: $(find "$OUT" -name "*.body" | wc -l) answers in $OUT"
