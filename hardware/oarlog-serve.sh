#!/usr/bin/env bash
# Oarlog's web app, started at boot by oarlog-serve.service: `oarlog serve` on the boat's Wi-Fi,
# with the live sensors (the accelerometer through IIO, the GPS through gpsd; either may be
# missing). The cox opens http://BOARD:8080/ on a phone (10.42.0.1 on the access point that
# install.sh --wifi-ap sets up); Start and Stop on the page record a session into
# $OARLOG_DATA_DIR/sessions. The control token is printed to the journal at start
# (`journalctl -u oarlog-serve`) and kept in $OARLOG_DATA_DIR.
set -euo pipefail

OARLOG_BIN=${OARLOG_BIN:-/usr/local/bin/oarlog}
export OARLOG_DATA_DIR=${OARLOG_DATA_DIR:-/data/oarlog}
OARLOG_URI=${OARLOG_URI:-local:}
OARLOG_DEVICE=${OARLOG_DEVICE:-}
OARLOG_RATE=${OARLOG_RATE:-100}
OARLOG_GPSD_HOST=${OARLOG_GPSD_HOST:-localhost}
OARLOG_LISTEN=${OARLOG_LISTEN:-0.0.0.0:8080}

args=(serve --listen "$OARLOG_LISTEN" --gps "$OARLOG_GPSD_HOST:2947" --iio "$OARLOG_URI" --rate "$OARLOG_RATE")
if [ -n "$OARLOG_DEVICE" ]; then args+=(--device "$OARLOG_DEVICE"); fi
mkdir -p "$OARLOG_DATA_DIR"
exec "$OARLOG_BIN" "${args[@]}" </dev/null
