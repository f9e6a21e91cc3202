#!/usr/bin/env bash
# Oarlog recorder, started at boot by oarlog-record.service. Writes one directory per start under
# $OARLOG_DATA_DIR with the accelerometer trace (oarlog accel --capture) and the GPS trace
# (oarlog gps --capture). If either stops, the other is stopped and the script fails, so
# systemd restarts both. (When `oarlog record` — one merged session file — is available, it
# replaces the two captures here.)
set -euo pipefail

OARLOG_BIN=${OARLOG_BIN:-/usr/local/bin/oarlog}
OARLOG_DATA_DIR=${OARLOG_DATA_DIR:-/data/oarlog}
OARLOG_URI=${OARLOG_URI:-local:}
OARLOG_DEVICE=${OARLOG_DEVICE:-}
OARLOG_RATE=${OARLOG_RATE:-100}
OARLOG_GPSD_HOST=${OARLOG_GPSD_HOST:-localhost}

# The wall clock may be wrong until the GPS sets it: the name only needs to be unique.
session="$OARLOG_DATA_DIR/$(date -u +%Y%m%dT%H%M%SZ)-boot$(cut -c1-8 /proc/sys/kernel/random/boot_id)-$$"
mkdir -p "$session"

accel_args=(accel --uri "$OARLOG_URI" --rate "$OARLOG_RATE" --capture "$session/accel.csv")
if [ -n "$OARLOG_DEVICE" ]; then accel_args+=(--device "$OARLOG_DEVICE"); fi

"$OARLOG_BIN" gps --host "$OARLOG_GPSD_HOST" --capture "$session/gps.csv" >/dev/null &
gps=$!
"$OARLOG_BIN" "${accel_args[@]}" >/dev/null &
accel=$!

stop() {
    kill -INT "$gps" "$accel" 2>/dev/null || true
    wait "$gps" "$accel" 2>/dev/null || true
}
trap 'stop; exit 0' INT TERM

# Whichever ends first ends the recording; systemd restarts it.
status=0
wait -n "$gps" "$accel" || status=$?
echo "oarlog-record: a recorder stopped (status $status); stopping the other" >&2
stop
exit 1
