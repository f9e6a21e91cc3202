#!/usr/bin/env bash
# Oarlog recorder, started at boot by oarlog-record.service: `oarlog record --auto` — a session
# opens by itself when rowing begins and closes after OARLOG_IDLE seconds without a stroke, from
# the accelerometer through IIO and the GPS through gpsd (either may be missing), into
# $OARLOG_DATA_DIR/sessions. SIGINT/SIGTERM close the open session cleanly.
set -euo pipefail

OARLOG_BIN=${OARLOG_BIN:-/usr/local/bin/oarlog}
export OARLOG_DATA_DIR=${OARLOG_DATA_DIR:-/data/oarlog}
OARLOG_URI=${OARLOG_URI:-local:}
OARLOG_DEVICE=${OARLOG_DEVICE:-}
OARLOG_RATE=${OARLOG_RATE:-100}
OARLOG_GPSD_HOST=${OARLOG_GPSD_HOST:-localhost}
OARLOG_IDLE=${OARLOG_IDLE:-120}

args=(record --auto --idle "$OARLOG_IDLE" --gps "$OARLOG_GPSD_HOST:2947" --iio "$OARLOG_URI" --rate "$OARLOG_RATE")
if [ -n "$OARLOG_DEVICE" ]; then args+=(--device "$OARLOG_DEVICE"); fi
mkdir -p "$OARLOG_DATA_DIR"
exec "$OARLOG_BIN" "${args[@]}" </dev/null
