#!/usr/bin/env bash
# Fuzzes Oarlog's input parsers with libFuzzer (docs/FUZZING.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]   each target for SECONDS (default 60); all targets by default
#
# Builds Fuzz/ once with -sanitize=fuzzer,address, seeds each target's corpus from samples/ (and
# the regression inputs in Fuzz/regressions/TARGET/), runs it, and fails on the first crash,
# leak-free or not: the crashing input is kept in $OARLOG_FUZZ_DIR/crashes/TARGET/ and becomes a
# regression test (Tests/OarlogCLITests/FuzzRegressionTests.swift reads Fuzz/regressions/).
# Environment: OARLOG_FUZZ_JOBS (default: the number of cores) targets run at once; OARLOG_FUZZ_DIR (default /tmp/oarlog-fuzz) holds corpora, crashes and logs;
# OARLOG_FUZZ_SANITIZERS (default fuzzer,address) — `fuzzer` alone runs 2–4x more inputs per second
# (Swift's own checks still trap; AddressSanitizer adds the unsafe-pointer code's bounds).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-60}"
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(native speedcoach nk-logbook talos quiske speedcoach-v1 boatcoach coxmate tcx gpx fit
                                     import-zip fences session recovery web-request fleet-message workout-plan)
WORK="${OARLOG_FUZZ_DIR:-/tmp/oarlog-fuzz}"
mkdir -p "$WORK"
# The seeds are written by whichever `oarlog` is built: the release one, or the tests' debug one.
OARLOG_BIN="${OARLOG:-.build/release/oarlog}"
[ -x "$OARLOG_BIN" ] || OARLOG_BIN=.build/debug/oarlog

SANITIZERS="${OARLOG_FUZZ_SANITIZERS:-fuzzer,address}"
case "$SANITIZERS" in
    fuzzer,address) SCRATCH=.build-fuzz ;;
    fuzzer) SCRATCH=.build-fuzz-fast ;;
    *) echo "fuzz: OARLOG_FUZZ_SANITIZERS must be fuzzer,address or fuzzer" >&2; exit 64 ;;
esac
echo "fuzz: building Fuzz/ with -sanitize=$SANITIZERS" >&2
swift build -c release --package-path Fuzz --scratch-path "$SCRATCH" --disable-build-manifest-caching \
    -Xswiftc -sanitize="$SANITIZERS" -Xswiftc -parse-as-library >&2
BIN="$(swift build -c release --package-path Fuzz --scratch-path "$SCRATCH" --show-bin-path)/oarlog-fuzz"

DEVICES=Tests/OarlogTraceTests/Fixtures/devices
# Seeds: small slices of the real files (libFuzzer mutates from them; -max_len bounds the rest).
seed() {  # seed TARGET FILE LINES
    local dir="$WORK/corpus/$1"
    mkdir -p "$dir"
    head -n "$3" "$2" > "$dir/seed-$(basename "$2")-$3"
}
make_seeds() {
    local t="$1"
    case "$t" in
        native) seed native samples/sim-workout.csv 40; seed native samples/sim-workout.csv 400
                seed native Tests/OarlogTraceTests/Fixtures/sample-trace.csv 100 ;;
        speedcoach) seed speedcoach samples/rowingdata/SpeedCoach2Linkv1.27.csv 80
                    seed speedcoach samples/rowingdata/SpeedCoach2Link_interval.csv 80
                    seed speedcoach "$DEVICES/spdcoach2noheader.csv" 40; seed speedcoach "$DEVICES/NKEmporfromgreg.csv" 35
                    seed speedcoach "$DEVICES/impeller_empower.csv" 45; seed speedcoach "$DEVICES/SpeedCoach2v2.12.csv" 136
                    seed speedcoach "$DEVICES/Speedcoach2example.csv" 125; seed speedcoach "$DEVICES/SpdCoachAmbiguous.csv" 40
                    seed speedcoach "$DEVICES/SpdCoach2_imp_inconsistent.csv" 120 ;;
        nk-logbook) seed nk-logbook samples/rowingdata/nk_logbook.csv 30 ;;
        speedcoach-v1) seed speedcoach-v1 "$DEVICES/speedcoachexample.csv" 40 ;;
        boatcoach) seed boatcoach "$DEVICES/boatcoach_otw.csv" 160 ;;
        coxmate) seed coxmate "$DEVICES/coxmate.csv" 60 ;;
        tcx) seed tcx "$DEVICES/3x250m.tcx" 120; seed tcx "$DEVICES/crewnerddata.tcx" 150
             seed tcx "$DEVICES/rowinginmotionexample.TCX" 60 ;;
        gpx) seed gpx Tests/OarlogTraceTests/Fixtures/xml/strava-style.gpx 165; seed gpx Tests/OarlogTraceTests/Fixtures/xml/gpx10.gpx 14
             seed gpx Tests/OarlogTraceTests/Fixtures/xml/nk_logbook.oarlog.gpx 30 ;;
        fit) mkdir -p "$WORK/corpus/fit"; cp "$DEVICES/3x250m.fit" "$WORK/corpus/fit/seed-3x250m.fit"
             [ -f "$WORK/corpus/fit/seed-export.fit" ] || head -n 200 samples/rowingdata/nk_logbook.csv > "$WORK/seed-nk.csv"
             [ -f "$WORK/corpus/fit/seed-export.fit" ] || "$OARLOG_BIN" export "$WORK/seed-nk.csv" --format fit \
                 -o "$WORK/corpus/fit/seed-export.fit" >/dev/null 2>&1 || true ;;
        talos) seed talos Tests/OarlogTraceTests/Fixtures/talos-synthetic.txt 100 ;;
        quiske) seed quiske samples/rowingdata/quiske_per_stroke_seat.csv 4 ;;
        import-zip) mkdir -p "$WORK/corpus/import-zip"
             if [ ! -f "$WORK/corpus/import-zip/seed-club.zip" ]; then
                 python3 - "$WORK/corpus/import-zip" <<'PY'
import sys, zipfile
d = sys.argv[1]
with zipfile.ZipFile(d + "/seed-club.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("a/coxmate.csv", "".join(open("Tests/OarlogTraceTests/Fixtures/devices/coxmate.csv").readlines()[:30]))
    z.write("Tests/OarlogTraceTests/Fixtures/devices/3x250m.fit", "b/3x250m.fit")
with zipfile.ZipFile(d + "/seed-stored.zip", "w", zipfile.ZIP_STORED) as z:
    z.writestr("x.csv", "".join(open("samples/sim-workout.csv").readlines()[:60]))
PY
             fi ;;
        fences) mkdir -p "$WORK/corpus/fences"; cp samples/nk-course.geojson "$WORK/corpus/fences/seed-nk-course.geojson" ;;
        web-request)  # PATH, Authorization header, body (one request per file)
            mkdir -p "$WORK/corpus/web-request"
            printf '/api/sessions/2026-11-24_head-race/notes\nBearer 0123456789abcdef0123456789abcdef\n{"text": "Pushed on 500 to go", "t_s": 30.5}' > "$WORK/corpus/web-request/seed-note"
            printf '/api/record/start\nBearer x\n{"title": "Head race"}' > "$WORK/corpus/web-request/seed-start"
            printf '/api/sessions/%%2E%%2E\nbearer  y \n{"title": null, "code": "042137"}' > "$WORK/corpus/web-request/seed-pair"
            printf '/api/sessions/2026-11-24_head-race/playback\n\n{"seek": 754.5, "speed": 10, "pause": false}' > "$WORK/corpus/web-request/seed-playback"
            printf '/api/live/workout\nBearer x\n{"spec": "3x4:00@22-24spm/2:00r", "starts_at_go": true}' > "$WORK/corpus/web-request/seed-workout"
            printf '/api/live/ghost\nBearer x\n{"course": "NK 2k", "ghost": "2021-03-30T11-13-05Z_nk-logbook-csv:1", "boat": "Eight"}' > "$WORK/corpus/web-request/seed-ghost"
            printf '/api/sessions/2021-03-30T11-13-05Z_nk-logbook-csv/uploads\nBearer x\n{"service": "strava", "force": true}' > "$WORK/corpus/web-request/seed-upload"
            printf '/api/challenges\nBearer x\n{"course": "NK 2k", "under": "9:30", "before": "2026-12-20", "boat": "Eight", "handicap": true, "by": "Coach", "note": "sub 9:30"}' > "$WORK/corpus/web-request/seed-challenge"
            printf '/api/courses\nBearer x\n{"name": "Bridge 2k", "session": "2021-03-30T11-13-05Z_nk-logbook-csv", "start": {"lat_deg": 52.2249, "lon_deg": 6.8526}, "finish": {"lat_deg": 52.2376, "lon_deg": 6.8320}}' > "$WORK/corpus/web-request/seed-course" ;;
        fleet-message)  # the topic, then a Signal K delta as a boat publishes it
            mkdir -p "$WORK/corpus/fleet-message"
            printf '%s\n%s' 'oarlog/alpha/stroke' '{"context":"vessels.urn:mrn:oarlog:boat:alpha","updates":[{"source":{"label":"oarlog","type":"oarlog","src":"alpha"},"timestamp":"2026-06-06T09:03:12.480Z","values":[{"path":"","value":{"name":"Alpha"}},{"path":"performance.rowing.elapsedTime","value":192.48},{"path":"performance.rowing.strokeCount","value":71},{"path":"performance.rowing.strokeRate","value":0.455},{"path":"performance.rowing.strokeRateSmoothed","value":null},{"path":"performance.rowing.driveTime","value":0.8},{"path":"performance.rowing.recoveryTime","value":1.4},{"path":"performance.rowing.peakAcceleration","value":3.1},{"path":"performance.rowing.split","value":111.2},{"path":"performance.rowing.strokeDistance","value":9.9},{"path":"navigation.log","value":871.4}]}],"oarlog":{"session":"2026-06-06T09:00:00.000Z","seq":312,"kind":"stroke"}}' > "$WORK/corpus/fleet-message/seed-stroke"
            printf '%s\n%s' 'oarlog/alpha/position' '{"context":"vessels.urn:mrn:oarlog:boat:alpha","updates":[{"source":{"label":"oarlog"},"timestamp":"2026-06-06T09:03:13.000Z","values":[{"path":"performance.rowing.elapsedTime","value":193},{"path":"navigation.position","value":{"latitude":51.4873,"longitude":-0.2241}},{"path":"navigation.speedOverGround","value":4.5},{"path":"navigation.courseOverGroundTrue","value":1.57},{"path":"navigation.log","value":875}]}],"oarlog":{"session":"2026-06-06T09:00:00.000Z","seq":313,"kind":"position"}}' > "$WORK/corpus/fleet-message/seed-position"
            printf '%s\n%s' 'oarlog/alpha/fence' '{"context":"vessels.urn:mrn:oarlog:boat:alpha","updates":[{"timestamp":"2026-06-06T09:03:14.000Z","values":[{"path":"performance.rowing.elapsedTime","value":194},{"path":"performance.rowing.fence","value":{"name":"fence.cross","fence":"500 m","text":"crossed","fields":{"gate":"500 m","speed_mps":"4.5"}}},{"path":"performance.rowing.session","value":{"state":"ended","title":"t","summary":{"strokeCount":3}}}]}],"oarlog":{"session":"2026-06-06T09:00:00.000Z","seq":314,"kind":"fence"}}' > "$WORK/corpus/fleet-message/seed-fence" ;;
        session|recovery)
            mkdir -p "$WORK/corpus/$t"
            if [ ! -s "$WORK/seed-session.oarlog" ]; then
                head -n 1500 samples/sim-workout.csv > "$WORK/seed-trace.csv"
                # With a plan, so the workout records are in the seed.
                OARLOG_DATA_DIR="$WORK/seed-data" "$OARLOG_BIN" replay "$WORK/seed-trace.csv" --workout 2x0:05/0:03r --save --title seed >/dev/null 2>&1 \
                    || OARLOG_DATA_DIR="$WORK/seed-data" swift run -c release oarlog replay "$WORK/seed-trace.csv" --workout 2x0:05/0:03r --save --title seed >/dev/null
                OARLOG_DATA_DIR="$WORK/seed-data" "$OARLOG_BIN" note last "seed note" --at 5 >/dev/null 2>&1 || true
                cp "$(find "$WORK/seed-data/sessions" -name "*.oarlog" | head -n 1)" "$WORK/seed-session.oarlog"
            fi
            cp "$WORK/seed-session.oarlog" "$WORK/corpus/$t/seed-session.oarlog" ;;
        workout-plan)  # a plan as typed
            mkdir -p "$WORK/corpus/workout-plan"
            for plan in '3x4:00/2:00r' '8x500m@1:48-1:52@34-36spm/1:30r' '4:00,3:00@26spm,2:00,1:00/1:00r' \
                        '3x10:00@20spm,22spm,24spm/2:00r' '20:00' '1x1.5km' '2x90s/10minr'; do
                printf '%s' "$plan" > "$WORK/corpus/workout-plan/seed-$(printf '%s' "$plan" | tr -c 'A-Za-z0-9' '_')"
            done
            printf '%s' '{"name":"Saturday","steps":[{"kind":"warmup","time_s":600},{"repeat":3,"steps":[{"kind":"work","distance_m":500,"rate_spm":[22,24],"split_s_per_500m":[108,112],"label":"race pace"},{"kind":"rest","time_s":90}]},{"kind":"cooldown","time_s":600}]}' \
                > "$WORK/corpus/workout-plan/seed-json" ;;
    esac
    if [ -d "Fuzz/regressions/$t" ]; then cp Fuzz/regressions/"$t"/* "$WORK/corpus/$t/" 2>/dev/null || true; fi
}

# The targets run side by side, one a core (OARLOG_FUZZ_JOBS, default the number of cores): each
# still gets its SECONDS of one core, and the wall time is divided by the number of jobs.
JOBS="${OARLOG_FUZZ_JOBS:-$(nproc)}"
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: OARLOG_FUZZ_JOBS must be a positive number" >&2; exit 64; }
fuzz_one() {  # fuzz_one TARGET: runs it, writes its executions to $WORK/TARGET.runs, exits 1 on a crash
    local t="$1" log="$WORK/$1.log"
    rm -f "$WORK/$t.runs"
    # SWIFT_BACKTRACE off: libFuzzer, not the Swift runtime, must catch a trap to keep the input.
    if OARLOG_FUZZ_TARGET="$t" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$BIN" "$WORK/corpus/$t" \
        -max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
        -artifact_prefix="$WORK/crashes/$t/" -print_final_stats=1 >"$log" 2>&1; then
        local runs
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz: $t: $runs executions in ${SECONDS_PER_TARGET}s, no crash" >&2
        echo "$runs" > "$WORK/$t.runs"
    else
        echo "fuzz: $t: CRASH — input kept in $WORK/crashes/$t/; last lines of $log:" >&2
        tail -n 30 "$log" >&2
        return 1
    fi
}

status=0
total=0
running=0
for t in "${TARGETS[@]}"; do
    make_seeds "$t"
    mkdir -p "$WORK/crashes/$t"
    if [ "$running" -ge "$JOBS" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    echo "fuzz: $t for ${SECONDS_PER_TARGET}s" >&2
    fuzz_one "$t" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
for t in "${TARGETS[@]}"; do
    runs=$(cat "$WORK/$t.runs" 2>/dev/null || echo "?")
    [[ "$runs" =~ ^[0-9]+$ ]] && total=$((total + runs))
done
echo "fuzz: $total executions in all, $([ $status = 0 ] && echo "no crash" || echo "CRASHES above") (-sanitize=$SANITIZERS, $JOBS at a time)" >&2
exit $status
