#!/usr/bin/env bash
# Sets up a fresh board (Raspberry Pi OS / Debian 12, or Armbian) to record with Oarlog:
# the accelerometer's device-tree overlay, gpsd for the GPS (and PPS), udev rules, the
# recorder's systemd unit, a data partition, and a read-only root.
#
#   sudo hardware/install.sh --board rpi --sensor mpu6050 --int-pin 4 --gps /dev/ttyACM0 \
#        --binary .build/release/oarlog --data-partition LABEL=OARLOG-DATA
#
# --root DIR writes into DIR instead of / (an SD card mounted on a laptop, or a test), without
# installing packages or touching the running system. --dry-run prints every step and changes
# nothing. Running it again gives the same result (each file edit is a marked block, replaced).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

ROOT=/
DRY_RUN=0
BOARD=rpi
SENSOR=mpu6050
INT_PIN=4
I2C_ADDR=""
GPS_DEVICE=""
PPS_PIN=""
BINARY=""
DATA_PARTITION="LABEL=OARLOG-DATA"
READONLY=1
PACKAGES=1
SERVE=0
WIFI_SSID=""
WIFI_PASSWORD=""
WIFI_INTERFACE=wlan0
KIOSK=0

usage() {
    cat <<'USAGE'
Usage: install.sh [options]
  --root DIR              install into DIR instead of / (no packages, no running-system changes)
  --dry-run               print what would be done; change nothing
  --board rpi|armbian|none  where the accelerometer overlay goes (default rpi)
  --sensor mpu6050|adxl345  the accelerometer on I2C (default mpu6050)
  --int-pin N             GPIO of the sensor's interrupt line (default 4; 'none' for no line:
                          an ADXL345 is then polled; an MPU-6050 needs it)
  --i2c-addr 0xNN         sensor address if not the default (MPU-6050 0x68/0x69)
  --gps DEVICE            GPS device for gpsd (/dev/ttyACM0, /dev/serial0); default: USB auto
  --pps-pin N             GPIO of the GPS's PPS output (adds dtoverlay=pps-gpio and /dev/pps0)
  --binary PATH           the oarlog executable to install as /usr/local/bin/oarlog
  --data-partition SPEC   fstab source of the data partition mounted on /data (default LABEL=OARLOG-DATA)
  --no-readonly           keep the root file system writable
  --no-packages           do not apt-get install anything
  --serve                 start the web app at boot (oarlog serve: the cox's phone starts and
                          stops sessions) instead of the headless recorder (oarlog record --auto)
  --wifi-ap SSID          make the board a Wi-Fi access point for the crew's phones
                          (NetworkManager, the board at 10.42.0.1); needs --wifi-password
  --wifi-password PASS    WPA2 passphrase of the access point, 8 to 63 characters
  --wifi-interface IF     the Wi-Fi interface for the access point (default wlan0)
  --kiosk                 show the web app full screen on a display attached to the board
                          (Chromium --kiosk under cage); implies --serve
USAGE
}

die() { echo "install.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a directory}; shift 2 ;;
        --dry-run) DRY_RUN=1; shift ;;
        --board) BOARD=${2:?}; shift 2 ;;
        --sensor) SENSOR=${2:?}; shift 2 ;;
        --int-pin) INT_PIN=${2:?}; shift 2 ;;
        --i2c-addr) I2C_ADDR=${2:?}; shift 2 ;;
        --gps) GPS_DEVICE=${2:?}; shift 2 ;;
        --pps-pin) PPS_PIN=${2:?}; shift 2 ;;
        --binary) BINARY=${2:?}; shift 2 ;;
        --data-partition) DATA_PARTITION=${2:?}; shift 2 ;;
        --no-readonly) READONLY=0; shift ;;
        --no-packages) PACKAGES=0; shift ;;
        --serve) SERVE=1; shift ;;
        --wifi-ap) WIFI_SSID=${2:?--wifi-ap needs an SSID}; shift 2 ;;
        --wifi-password) WIFI_PASSWORD=${2:?--wifi-password needs a passphrase}; shift 2 ;;
        --wifi-interface) WIFI_INTERFACE=${2:?}; shift 2 ;;
        --kiosk) KIOSK=1; SERVE=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
done

case "$BOARD" in rpi|armbian|none) ;; *) die "--board must be rpi, armbian or none" ;; esac
case "$SENSOR" in mpu6050|adxl345) ;; *) die "--sensor must be mpu6050 or adxl345" ;; esac
case "$INT_PIN" in none|[0-9]|[0-9][0-9]) ;; *) die "--int-pin must be a GPIO number or none" ;; esac
if [ -n "$PPS_PIN" ]; then case "$PPS_PIN" in [0-9]|[0-9][0-9]) ;; *) die "--pps-pin must be a GPIO number" ;; esac; fi
if [ -n "$I2C_ADDR" ]; then case "$I2C_ADDR" in 0x[0-9a-fA-F][0-9a-fA-F]) ;; *) die "--i2c-addr must look like 0x69" ;; esac; fi
if [ "$SENSOR" = mpu6050 ] && [ "$INT_PIN" = none ]; then
    die "the MPU-6050 driver (inv_mpu6050) needs its INT line wired; give --int-pin"
fi
if [ -n "$WIFI_SSID" ]; then
    [ ${#WIFI_SSID} -le 32 ] || die "--wifi-ap: an SSID has at most 32 bytes"
    if [ ${#WIFI_PASSWORD} -lt 8 ] || [ ${#WIFI_PASSWORD} -gt 63 ]; then
        die "--wifi-ap needs --wifi-password of 8 to 63 characters (WPA2)"
    fi
    case "$WIFI_SSID$WIFI_PASSWORD" in *$'\n'*) die "--wifi-ap/--wifi-password: no line breaks" ;; esac
elif [ -n "$WIFI_PASSWORD" ]; then
    die "--wifi-password without --wifi-ap"
fi
case "$WIFI_INTERFACE" in *[!a-zA-Z0-9_-]*|"") die "--wifi-interface must be an interface name such as wlan0" ;; esac
[ -d "$ROOT" ] || die "--root $ROOT is not a directory"
ROOT=$(cd "$ROOT" && pwd)
LIVE=0
if [ "$ROOT" = / ]; then
    LIVE=1
    ROOT=""
fi
if [ -n "$BINARY" ] && [ ! -x "$BINARY" ]; then die "--binary $BINARY is not an executable"; fi

step() { echo "==> $*"; }

# Writes stdin to $ROOT$1 (mode $2), or shows it in a dry run.
put_file() {
    local path=$1 mode=$2 content
    content=$(cat)
    if [ "$DRY_RUN" = 1 ]; then
        echo "would write $ROOT$path (mode $mode):"
        printf '%s\n' "$content" | sed 's/^/    | /'
        return
    fi
    mkdir -p "$(dirname "$ROOT$path")"
    printf '%s\n' "$content" >"$ROOT$path"
    chmod "$mode" "$ROOT$path"
    echo "wrote $ROOT$path"
}

# Replaces (or appends) the block between "# >>> oarlog" and "# <<< oarlog" in $ROOT$1 with stdin.
put_block() {
    local path=$1 block tmp
    block=$(cat)
    if [ "$DRY_RUN" = 1 ]; then
        echo "would set the oarlog block of $ROOT$path to:"
        printf '%s\n' "$block" | sed 's/^/    | /'
        return
    fi
    mkdir -p "$(dirname "$ROOT$path")"
    touch "$ROOT$path"
    tmp=$(mktemp)
    awk '/^# >>> oarlog/{skip=1; next} /^# <<< oarlog/{skip=0; next} !skip' "$ROOT$path" >"$tmp"
    {
        cat "$tmp"
        echo "# >>> oarlog (managed by oarlog hardware/install.sh; edits inside are replaced)"
        printf '%s\n' "$block"
        echo "# <<< oarlog"
    } >"$ROOT$path"
    rm -f "$tmp"
    echo "updated $ROOT$path"
}

# Copies a file from this folder.
put_copy() {
    local source=$1 path=$2 mode=$3
    put_file "$path" "$mode" <"$here/$source"
}

# Runs a command on the live system only.
run_live() {
    if [ "$DRY_RUN" = 1 ] || [ "$LIVE" = 0 ]; then
        echo "would run: $*"
        return
    fi
    echo "running: $*"
    "$@"
}

# 1. Packages.
step "packages"
pkgs=(gpsd gpsd-clients pps-tools libiio0 libiio-utils i2c-tools device-tree-compiler)
# The web app serves Leaflet and Chart.js from where Debian installs them.
if [ "$SERVE" = 1 ]; then pkgs+=(libjs-leaflet libjs-chart.js); fi
if [ -n "$WIFI_SSID" ]; then pkgs+=(network-manager); fi
if [ "$KIOSK" = 1 ]; then pkgs+=(cage chromium fonts-dejavu-core); fi
if [ "$PACKAGES" = 1 ] && [ "$LIVE" = 1 ]; then
    run_live apt-get update
    run_live env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"
else
    echo "not installing packages here; on the board: apt-get install ${pkgs[*]}"
fi

# 2. The accelerometer (and PPS) in the device tree.
step "device tree: $SENSOR on I2C${INT_PIN:+, interrupt GPIO $INT_PIN}${PPS_PIN:+, PPS on GPIO $PPS_PIN}"
case "$BOARD" in
    rpi)
        if [ -d "$ROOT/boot/firmware" ] || [ "$LIVE" = 0 ]; then boot="/boot/firmware"; else boot="/boot"; fi
        lines=("dtparam=i2c_arm=on")
        if [ "$SENSOR" = mpu6050 ]; then
            line="dtoverlay=i2c-sensor,mpu6050,int_pin=$INT_PIN"
            if [ -n "$I2C_ADDR" ]; then line="$line,addr=$I2C_ADDR"; fi
            lines+=("$line")
        else
            overlay_source="$here/overlays/oarlog-adxl345.dts"
            if [ "$INT_PIN" = none ]; then
                overlay_text=$(sed -e '/interrupt-parent/d' -e '/interrupts = /d' "$overlay_source")
            else
                overlay_text=$(sed -e "s/interrupts = <17 1>;/interrupts = <$INT_PIN 1>;/" "$overlay_source")
            fi
            if [ -n "$I2C_ADDR" ]; then
                overlay_text=$(printf '%s\n' "$overlay_text" | sed -e "s/reg = <0x53>;/reg = <$I2C_ADDR>;/" -e "s/adxl345@53/adxl345@${I2C_ADDR#0x}/")
            fi
            put_file "/usr/local/share/oarlog/oarlog-adxl345.dts" 0644 <<<"$overlay_text"
            if [ "$DRY_RUN" = 1 ]; then
                echo "would compile the overlay: dtc -@ -I dts -O dtb -o $ROOT$boot/overlays/oarlog-adxl345.dtbo"
            elif command -v dtc >/dev/null 2>&1; then
                mkdir -p "$ROOT$boot/overlays"
                dtc -@ -q -I dts -O dtb -o "$ROOT$boot/overlays/oarlog-adxl345.dtbo" "$ROOT/usr/local/share/oarlog/oarlog-adxl345.dts"
                echo "wrote $ROOT$boot/overlays/oarlog-adxl345.dtbo"
            else
                die "dtc (device-tree-compiler) is needed to build the ADXL345 overlay"
            fi
            lines+=("dtoverlay=oarlog-adxl345")
        fi
        if [ -n "$PPS_PIN" ]; then lines+=("dtoverlay=pps-gpio,gpiopin=$PPS_PIN"); fi
        if [ "$GPS_DEVICE" = /dev/serial0 ] || [ "$GPS_DEVICE" = /dev/ttyAMA0 ] || [ "$GPS_DEVICE" = /dev/ttyS0 ]; then
            # A UART GPS: the serial port on, its login console off (cmdline.txt, below).
            lines+=("enable_uart=1")
        fi
        printf '%s\n' "${lines[@]}" | put_block "$boot/config.txt"
        if [ "$GPS_DEVICE" = /dev/serial0 ] || [ "$GPS_DEVICE" = /dev/ttyAMA0 ] || [ "$GPS_DEVICE" = /dev/ttyS0 ]; then
            if [ -f "$ROOT$boot/cmdline.txt" ]; then
                if [ "$DRY_RUN" = 1 ]; then
                    echo "would remove console=serial0,* from $ROOT$boot/cmdline.txt"
                else
                    sed -i -e 's/console=serial0,[0-9]* *//' -e 's/console=ttyAMA0,[0-9]* *//' "$ROOT$boot/cmdline.txt"
                    echo "updated $ROOT$boot/cmdline.txt (no serial console on the GPS's UART)"
                fi
            fi
        fi
        ;;
    armbian)
        put_copy overlays/oarlog-mpu6050-armbian.dts /usr/local/share/oarlog/oarlog-mpu6050-armbian.dts 0644
        echo "Armbian: check the bus and INT pin in /usr/local/share/oarlog/oarlog-mpu6050-armbian.dts, then:"
        echo "    armbian-add-overlay /usr/local/share/oarlog/oarlog-mpu6050-armbian.dts"
        ;;
    none)
        echo "no overlay: the sensor is expected in the device tree already"
        ;;
esac

# 3. udev rules: stable names, monotonic IIO timestamps.
step "udev rules"
put_copy udev/99-oarlog.rules /etc/udev/rules.d/99-oarlog.rules 0644

# 4. gpsd.
step "gpsd"
gps_devices=${GPS_DEVICE}
if [ -n "$PPS_PIN" ]; then gps_devices="${gps_devices:+$gps_devices }/dev/pps0"; fi
put_file /etc/default/gpsd 0644 <<GPSD
# gpsd for Oarlog (written by hardware/install.sh).
START_DAEMON="true"
# Find USB receivers when plugged in.
USBAUTO="true"
# Receivers to open at start (a UART GPS, the PPS device).
DEVICES="$gps_devices"
# -n: poll the receiver even without clients, so the fix is ready when recording starts.
GPSD_OPTIONS="-n"
GPSD

# 5. Oarlog itself: binary, recorder, settings, unit.
step "oarlog recorder"
if [ -n "$BINARY" ]; then
    # `oarlog` is a small front; every command but a plain replay is in oarlog-full beside it.
    FULL="$(dirname "$BINARY")/oarlog-full"
    if [ "$DRY_RUN" = 1 ]; then
        echo "would install $BINARY as $ROOT/usr/local/bin/oarlog"
        [ ! -x "$FULL" ] || echo "would install $FULL as $ROOT/usr/local/bin/oarlog-full"
    else
        install -D -m 0755 "$BINARY" "$ROOT/usr/local/bin/oarlog"
        echo "wrote $ROOT/usr/local/bin/oarlog"
        if [ -x "$FULL" ]; then
            install -D -m 0755 "$FULL" "$ROOT/usr/local/bin/oarlog-full"
            echo "wrote $ROOT/usr/local/bin/oarlog-full"
        else
            echo "warning: no $FULL beside $BINARY: oarlog runs only a plain replay without it" >&2
        fi
    fi
else
    echo "no --binary given: install the oarlog executable as /usr/local/bin/oarlog yourself"
fi
put_copy oarlog-record.sh /usr/local/bin/oarlog-record 0755
put_copy oarlog-serve.sh /usr/local/bin/oarlog-serve 0755
device_setting=""
if [ "$SENSOR" = adxl345 ]; then device_setting="adxl345"; fi
sed -e "s|^OARLOG_DEVICE=.*|OARLOG_DEVICE=\"$device_setting\"|" "$here/oarlog.default" | put_file /etc/default/oarlog 0644
# The services run as their own user, made at boot by systemd-sysusers, with the data directory
# theirs (systemd-tmpfiles): not root.
put_copy sysusers/oarlog.conf /etc/sysusers.d/oarlog.conf 0644
put_copy tmpfiles/oarlog.conf /etc/tmpfiles.d/oarlog.conf 0644
put_copy systemd/oarlog-record.service /etc/systemd/system/oarlog-record.service 0644
put_copy systemd/oarlog-serve.service /etc/systemd/system/oarlog-serve.service 0644
# The web app's pages (oarlog serve looks for them in /usr/local/share/oarlog/web).
if [ "$SERVE" = 1 ]; then
    while IFS= read -r page; do
        put_copy "../Web/$page" "/usr/local/share/oarlog/web/$page" 0644
    done < <(cd "$here/../Web" && find . -type f | sed 's|^\./||' | sort)
fi
put_copy SETUP.md /usr/local/share/doc/oarlog/SETUP.md 0644

# Enables one unit for TARGET (a symlink, as systemctl enable makes) and disables others.
enable_unit() {  # enable_unit UNIT TARGET
    if [ "$DRY_RUN" = 1 ]; then
        echo "would enable $1 ($2.wants)"
    else
        mkdir -p "$ROOT/etc/systemd/system/$2.wants"
        ln -sfn "/etc/systemd/system/$1" "$ROOT/etc/systemd/system/$2.wants/$1"
        echo "enabled $1"
    fi
}
disable_unit() {  # disable_unit UNIT TARGET
    if [ -L "$ROOT/etc/systemd/system/$2.wants/$1" ]; then
        if [ "$DRY_RUN" = 1 ]; then echo "would disable $1"; else rm -f "$ROOT/etc/systemd/system/$2.wants/$1"; echo "disabled $1"; fi
    fi
}
if [ "$SERVE" = 1 ]; then
    disable_unit oarlog-record.service multi-user.target
    enable_unit oarlog-serve.service multi-user.target
else
    disable_unit oarlog-serve.service multi-user.target
    enable_unit oarlog-record.service multi-user.target
fi

# 5b. The boat's Wi-Fi: an access point the crew's phones join (NetworkManager shares
# 10.42.0.0/24 with DHCP; the board is 10.42.0.1).
if [ -n "$WIFI_SSID" ]; then
    step "Wi-Fi access point '$WIFI_SSID' on $WIFI_INTERFACE"
    put_file /etc/NetworkManager/system-connections/oarlog-boat.nmconnection 0600 <<NMCONNECTION
# The boat's Wi-Fi access point (written by hardware/install.sh --wifi-ap).
[connection]
id=oarlog-boat
type=wifi
interface-name=$WIFI_INTERFACE
autoconnect=true

[wifi]
mode=ap
ssid=$WIFI_SSID
band=bg
channel=6

[wifi-security]
key-mgmt=wpa-psk
proto=rsn
pairwise=ccmp
group=ccmp
psk=$WIFI_PASSWORD

[ipv4]
method=shared
address1=10.42.0.1/24

[ipv6]
method=disabled
NMCONNECTION
    echo "phones join '$WIFI_SSID' and open http://10.42.0.1:8080/"
fi

# 5c. A screen on the board: Chromium in kiosk mode under cage, as its own user.
if [ "$KIOSK" = 1 ]; then
    step "kiosk: the web app full screen on the board's display"
    put_copy systemd/oarlog-kiosk.service /etc/systemd/system/oarlog-kiosk.service 0644
    if [ "$LIVE" = 1 ] && ! id oarlog-kiosk >/dev/null 2>&1; then
        run_live useradd --system --create-home --home-dir /var/lib/oarlog-kiosk-home --groups video,render,input,tty oarlog-kiosk
    elif [ "$LIVE" = 0 ]; then
        echo "would run on the board: useradd --system --groups video,render,input,tty oarlog-kiosk"
    fi
    enable_unit oarlog-kiosk.service graphical.target
    run_live systemctl set-default graphical.target
fi

# 6. The data partition on /data, and the read-only root.
step "data partition $DATA_PARTITION on /data"
put_block /etc/fstab <<FSTAB
$DATA_PARTITION  /data  ext4  defaults,noatime,commit=5,nofail,x-systemd.device-timeout=10s  0  2
FSTAB
if [ "$DRY_RUN" = 1 ]; then
    echo "would create $ROOT/data"
else
    mkdir -p "$ROOT/data"
fi

run_live systemd-tmpfiles --create /etc/tmpfiles.d/oarlog.conf

if [ "$READONLY" = 1 ]; then
    step "read-only root (overlay in RAM; /data stays writable)"
    put_file /etc/overlayroot.local.conf 0644 <<'OVERLAY'
# Read-only root for Oarlog (written by hardware/install.sh): the root file system is mounted
# read-only under a RAM overlay, so a power cut cannot corrupt it. /data (fstab) stays writable.
overlayroot="tmpfs:recurse=0"
OVERLAY
    if [ "$BOARD" = rpi ]; then
        run_live raspi-config nonint enable_overlayfs
    else
        run_live env DEBIAN_FRONTEND=noninteractive apt-get install -y overlayroot
    fi
    echo "to change the system later: overlayroot-chroot (or raspi-config nonint disable_overlayfs and reboot)"
fi

run_live systemd-sysusers
run_live udevadm control --reload
run_live systemctl daemon-reload
step "done. Reboot, then check: oarlog devices; oarlog accel; oarlog gps (hardware/SETUP.md, 'On the water')"
