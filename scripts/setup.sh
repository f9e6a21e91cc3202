#!/usr/bin/env bash
# Installs what Oarlog needs on a fresh Debian 12 machine (Swift 6.x must already be on PATH),
# then builds `oarlog` in release mode. Safe to run again: it installs only what is missing.
# `scripts/setup.sh --for-tests` installs the packages and stops: `swift test` builds what the
# tests need (in debug), so the test command does not also spend minutes on a release build.
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages: libgps-dev/gpsd (GPS through gpsd), libiio-dev/libiio-utils/iiod (IIO
# accelerometers), python3-scipy (the benchmark's reference peer), libxml2-utils (export checks),
# libsqlite3-dev (the archive's index: GRDB builds on the system SQLite).
# zlib1g-dev (a zip's deflated entries, for `oarlog import`).
# mosquitto/libmosquitto-dev (the fleet: boats to a coach and a club through an MQTT broker),
# python3-jsonschema (payloads checked against Signal K's delta schema), openssl (a test CA).
PACKAGES=(gpsd gpsd-clients libgps-dev libiio-dev libiio-utils iiod python3-scipy python3-numpy python3-pip libxml2-utils libsqlite3-dev zlib1g-dev shellcheck device-tree-compiler
          libjs-leaflet libjs-chart.js node-qrcode-generator zbar-tools chromium chromium-driver python3-selenium curl
          mosquitto mosquitto-clients libmosquitto-dev python3-jsonschema openssl
          libdbus-1-dev dbus-daemon python3-dbus python3-gi)

missing=()
for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

# Garmin's FIT SDK (PyPI) decodes our FIT exports in the tests, as an independent reader.
if ! python3 -c "import garmin_fit_sdk" >/dev/null 2>&1; then
    echo "setup: installing garmin-fit-sdk for $(command -v python3)" >&2
    python3 -m pip install --quiet garmin-fit-sdk 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages garmin-fit-sdk
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "setup: Swift 6.1 or newer is needed on PATH (https://www.swift.org/install/linux/)" >&2
    exit 1
fi
if [ "${1:-}" = "--for-tests" ]; then
    exit 0
fi
# Not for the tests (CI stops above): the benchmark's Python peers (scripts/bench.sh): numpy and scipy (also the Debian packages
# above, for the system's python3) and polars (scripts/peer_replay.py), from PyPI for whichever
# python3 is first on PATH.
peers_missing=()
for module in numpy scipy polars; do
    python3 -c "import $module" >/dev/null 2>&1 || peers_missing+=("$module")
done
if [ ${#peers_missing[@]} -gt 0 ]; then
    echo "setup: installing ${peers_missing[*]} for $(command -v python3) (the benchmark's peers)" >&2
    python3 -m pip install --quiet "${peers_missing[@]}" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages "${peers_missing[@]}" \
        || echo "setup: could not install ${peers_missing[*]}: scripts/bench.sh's peers will not run" >&2
fi

swift build -c release --product oarlog-full >&2
swift build -c release --product oarlog >&2
