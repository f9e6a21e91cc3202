#!/bin/sh
# add-boat.sh: adds (or changes the password of) a boat, the coach, the archive or the bridge in a
# mosquitto password file, creating the file when it is missing.
#
#   add-boat.sh [-f PASSWORD_FILE] NAME [PASSWORD_FILE_FOR_THE_PASSWORD]
#
# NAME is the MQTT user name; for a boat it is the boat's topic id (`oarlog record --boat NAME`),
# which the ACL's `pattern write oarlog/%u/#` turns into the only topics it may publish. Use
# letters, digits, '-' and '_' only. The password is read from the terminal (twice) or, when a
# second argument is given, from the first line of that file (for scripts).
# PASSWORD_FILE defaults to /etc/mosquitto/oarlog.passwd. Afterwards reload mosquitto
# (`systemctl reload mosquitto` or `kill -HUP` its pid) so that it reads the file again.
set -eu

passwd_file=/etc/mosquitto/oarlog.passwd
if [ "${1:-}" = "-f" ]; then
    [ $# -ge 2 ] || { echo "add-boat.sh: -f needs a file" >&2; exit 2; }
    passwd_file=$2
    shift 2
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
name=$1
case $name in
    "" | *[!A-Za-z0-9_-]*)
        echo "add-boat.sh: '$name' is not a usable name: letters, digits, '-' and '_' only" >&2
        exit 2
        ;;
    all)
        echo "add-boat.sh: 'all' is the topic level of the coach's plans for every boat, no boat's name (a boat named All is all-boat)" >&2
        exit 2
        ;;
esac
command -v mosquitto_passwd >/dev/null || { echo "add-boat.sh: mosquitto_passwd not found (apt-get install mosquitto)" >&2; exit 1; }

umask 077
create=""
if [ ! -e "$passwd_file" ]; then
    create="-c"
    mkdir -p "$(dirname "$passwd_file")"
fi

if [ $# -eq 2 ]; then
    IFS= read -r password < "$2" || [ -n "${password:-}" ] || { echo "add-boat.sh: $2 is empty" >&2; exit 1; }
    [ -n "$password" ] || { echo "add-boat.sh: $2 is empty" >&2; exit 1; }
    # shellcheck disable=SC2086 # $create is empty or one word
    mosquitto_passwd $create -b "$passwd_file" "$name" "$password"
else
    # shellcheck disable=SC2086
    mosquitto_passwd $create "$passwd_file" "$name"
fi

chmod 600 "$passwd_file"
# The broker drops root for the user mosquitto and reads the file again on a reload as that user.
if [ "$(id -u)" -eq 0 ] && id mosquitto >/dev/null 2>&1; then
    chown mosquitto: "$passwd_file"
fi
echo "$name is in $passwd_file; reload mosquitto to use it"
