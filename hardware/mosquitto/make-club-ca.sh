#!/bin/sh
# make-club-ca.sh: the club's own certificate authority for its MQTT brokers (OpenSSL).
#
#   make-club-ca.sh DIR ca                       the CA: DIR/club-ca.key (keep it off the brokers) and DIR/club-ca.crt
#   make-club-ca.sh DIR broker NAME HOST...      a broker certificate DIR/NAME.crt + DIR/NAME.key whose
#                                                subjectAltName lists every HOST (a DNS name or an IP address)
#   make-club-ca.sh DIR client NAME              a client certificate DIR/NAME.crt + DIR/NAME.key (optional:
#                                                only if a listener says require_certificate true)
#
# `broker` and `client` make the CA first when DIR has none. An existing file is never overwritten.
# Example:
#   ./make-club-ca.sh ~/club-ca broker launch launch.local 192.168.50.1
#   ./make-club-ca.sh ~/club-ca broker club club.example.org
# Environment: DAYS (certificates, default 825), CA_DAYS (the CA, default 3650), CA_NAME (its common name).
set -eu

usage() {
    sed -n '3,8p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 2 ] || usage
dir=$1
command=$2
shift 2
days=${DAYS:-825}
ca_days=${CA_DAYS:-3650}
ca_name=${CA_NAME:-Oarlog rowing club CA}

mkdir -p "$dir"
umask 077

refuse_existing() {
    for f in "$@"; do
        if [ -e "$f" ]; then
            echo "make-club-ca.sh: $f exists; remove it first to make a new one" >&2
            exit 1
        fi
    done
}

make_ca() {
    refuse_existing "$dir/club-ca.key" "$dir/club-ca.crt"
    openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
        -keyout "$dir/club-ca.key" -out "$dir/club-ca.crt" -days "$ca_days" -subj "/CN=$ca_name" \
        -config /dev/null \
        -addext "basicConstraints=critical,CA:TRUE" \
        -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -addext "subjectKeyIdentifier=hash"
    chmod 644 "$dir/club-ca.crt"
    echo "made $dir/club-ca.crt (give it to every boat, the launch and the club) and $dir/club-ca.key (keep it safe)"
}

ensure_ca() {
    if [ ! -e "$dir/club-ca.crt" ] || [ ! -e "$dir/club-ca.key" ]; then
        make_ca
    fi
}

# sign NAME CN EXTENSIONS: a key and a certificate for NAME signed by the CA.
sign() {
    name=$1
    cn=$2
    extensions=$3
    case $name in
        */* | "" | .*) echo "make-club-ca.sh: bad name '$name'" >&2; exit 2 ;;
    esac
    refuse_existing "$dir/$name.key" "$dir/$name.crt"
    ensure_ca
    ext=$(mktemp)
    csr=$(mktemp)
    trap 'rm -f "$ext" "$csr"' EXIT
    printf '%s\n' "$extensions" > "$ext"
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
        -keyout "$dir/$name.key" -out "$csr" -subj "/CN=$cn" -config /dev/null
    openssl x509 -req -in "$csr" -CA "$dir/club-ca.crt" -CAkey "$dir/club-ca.key" \
        -set_serial "0x$(openssl rand -hex 16)" -sha256 -days "$days" -extfile "$ext" -out "$dir/$name.crt"
    chmod 644 "$dir/$name.crt"
    openssl verify -CAfile "$dir/club-ca.crt" "$dir/$name.crt" >/dev/null
    rm -f "$ext" "$csr"
    trap - EXIT
}

case $command in
    ca)
        [ $# -eq 0 ] || usage
        make_ca
        ;;
    broker)
        [ $# -ge 2 ] || usage
        name=$1
        shift
        san=""
        for host in "$@"; do
            case $host in
                *[!0-9.]*)
                    case $host in
                        *:*) entry="IP:$host" ;;     # IPv6
                        *) entry="DNS:$host" ;;
                    esac
                    ;;
                *) entry="IP:$host" ;;               # only digits and dots: IPv4
            esac
            san="${san:+$san,}$entry"
        done
        sign "$name" "$1" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=$san"
        echo "made $dir/$name.crt for $san and $dir/$name.key (install both on that broker, owned by mosquitto, chmod 600 for the key)"
        ;;
    client)
        [ $# -eq 1 ] || usage
        sign "$1" "$1" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"
        echo "made $dir/$1.crt and $dir/$1.key (for oarlog's client certificate options or mosquitto_pub --cert/--key)"
        ;;
    *)
        usage
        ;;
esac
