#!/bin/sh
# bootstrap-tsalt.sh: installs the tsalt minion on a fresh Debian, Ubuntu, RHEL (and its
# relatives) or Alpine host, points it at its master, and starts it as a service.
#
#   sh bootstrap-tsalt.sh --master salt.example.com [--id web1] [--version 0.1.0-1]
#                         [--source https://host/tsalt | file:///srv/tsalt]
#
# The source is a folder (https://, http:// or file://) holding what `npm run build:deb` and
# `npm run build:sea` make: tsalt-common_<version>_<arch>.deb and tsalt-minion_<version>_<arch>.deb
# for hosts with dpkg, tsalt-<version>-linux-<x64|arm64> (the self-contained executable) for the
# others, and a `latest` file naming the version to take when --version is not given.
#
# Options:
#   --master HOST    the master (written as `master:`); default: salt
#   --id ID          this minion's id (written as `id:`); default: the host's name, chosen by the minion
#   --version V      the version to install; default: the source's `latest`
#   --source URL     where the packages are; default: $TSALT_SOURCE
#   --method M       deb or binary; default: deb where dpkg is, else binary
#   --root DIR       install under DIR instead of / (binary method; for tests and images)
#   --no-start       install and configure, but do not start the service
#   -h, --help       this text
set -eu

MASTER=salt
ID=
VERSION=
SOURCE=${TSALT_SOURCE:-}
METHOD=
ROOT=
START=yes

die() {
  echo "bootstrap-tsalt: error: $*" >&2
  exit 1
}
say() { echo "bootstrap-tsalt: $*"; }
usage() { sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --master) MASTER=${2:?--master needs a value}; shift 2 ;;
    --id) ID=${2:?--id needs a value}; shift 2 ;;
    --version) VERSION=${2:?--version needs a value}; shift 2 ;;
    --source) SOURCE=${2:?--source needs a value}; shift 2 ;;
    --method) METHOD=${2:?--method needs a value}; shift 2 ;;
    --root) ROOT=${2:?--root needs a value}; shift 2 ;;
    --no-start) START=no; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

[ -n "$SOURCE" ] || die "no source: give --source URL (or set TSALT_SOURCE)"
SOURCE=${SOURCE%/}
case "$MASTER" in *[!A-Za-z0-9.:_-]*) die "bad master name: $MASTER" ;; esac
case "$ID" in *[!A-Za-z0-9.@_-]*) die "bad minion id: $ID" ;; esac
if [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then die "run as root (or give --root DIR)"; fi
ROOT=${ROOT%/}

case "$(uname -m)" in
  x86_64 | amd64) NODE_ARCH=x64 DEB_ARCH=amd64 ;;
  aarch64 | arm64) NODE_ARCH=arm64 DEB_ARCH=arm64 ;;
  *) die "no tsalt build for $(uname -m)" ;;
esac

# fetch NAME DEST: copies $SOURCE/NAME to DEST
fetch() {
  case "$SOURCE" in
    file://*) cp "${SOURCE#file://}/$1" "$2" || die "cannot read $SOURCE/$1" ;;
    http://* | https://*)
      if command -v curl >/dev/null; then
        curl -fsSL -o "$2" "$SOURCE/$1" || die "cannot download $SOURCE/$1"
      elif command -v wget >/dev/null; then
        wget -q -O "$2" "$SOURCE/$1" || die "cannot download $SOURCE/$1"
      else
        die "neither curl nor wget is installed"
      fi
      ;;
    *) die "unsupported source $SOURCE (https://, http:// or file://)" ;;
  esac
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ -z "$VERSION" ]; then
  fetch latest "$TMP/latest"
  VERSION=$(tr -d ' \n\r' <"$TMP/latest")
fi
case "$VERSION" in '' | *[!A-Za-z0-9.~+-]*) die "bad version: $VERSION" ;; esac

if [ -z "$METHOD" ]; then
  if [ -z "$ROOT" ] && command -v dpkg >/dev/null; then METHOD=deb; else METHOD=binary; fi
fi

# the minion's settings, read after /etc/salt/minion (a package upgrade leaves them alone)
write_config() {
  mkdir -p "$ROOT/etc/salt/minion.d"
  {
    echo "# written by bootstrap-tsalt.sh"
    echo "master: $MASTER"
    if [ -n "$ID" ]; then echo "id: $ID"; fi
  } >"$ROOT/etc/salt/minion.d/99-bootstrap.conf"
  say "wrote $ROOT/etc/salt/minion.d/99-bootstrap.conf (master: $MASTER${ID:+, id: $ID})"
}

install_deb() {
  fetch "tsalt-common_${VERSION}_${DEB_ARCH}.deb" "$TMP/tsalt-common.deb"
  fetch "tsalt-minion_${VERSION}_${DEB_ARCH}.deb" "$TMP/tsalt-minion.deb"
  if command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$TMP/tsalt-common.deb" "$TMP/tsalt-minion.deb"
  else
    dpkg -i "$TMP/tsalt-common.deb" "$TMP/tsalt-minion.deb"
  fi
}

# the systemd unit of the binary method (the package ships the same one)
write_unit() {
  mkdir -p "$ROOT/etc/systemd/system"
  cat >"$ROOT/etc/systemd/system/salt-minion.service" <<'UNIT'
[Unit]
Description=The Salt Minion (tsalt)
After=network-online.target
Wants=network-online.target

[Service]
Type=notify
NotifyAccess=all
KillMode=process
Restart=on-failure
RestartSec=5
LimitNOFILE=8192
ExecStart=/usr/bin/salt-minion
TimeoutStopSec=30

[Install]
WantedBy=multi-user.target
UNIT
}

# Alpine's OpenRC service
write_openrc() {
  mkdir -p "$ROOT/etc/init.d"
  cat >"$ROOT/etc/init.d/salt-minion" <<'RC'
#!/sbin/openrc-run
description="The Salt minion (tsalt)"
command=/usr/bin/salt-minion
command_args="-c /etc/salt"
command_background=yes
pidfile=/run/salt-minion.pid
# a stop signals the minion alone: its running jobs finish and return by themselves
retry=TERM/30/KILL/5
depend() {
  need net
}
RC
  chmod 755 "$ROOT/etc/init.d/salt-minion"
}

install_binary() {
  if [ -f /etc/alpine-release ] && [ -z "$ROOT" ]; then
    # the executable is built against glibc: Alpine runs it through gcompat
    apk add --no-cache gcompat libstdc++ libgcc >/dev/null
  fi
  fetch "tsalt-${VERSION}-linux-${NODE_ARCH}" "$TMP/tsalt"
  mkdir -p "$ROOT/usr/lib/tsalt" "$ROOT/usr/bin" "$ROOT/var/cache/salt" "$ROOT/var/log/salt"
  install -m 755 "$TMP/tsalt" "$ROOT/usr/lib/tsalt/tsalt.new"
  mv -f "$ROOT/usr/lib/tsalt/tsalt.new" "$ROOT/usr/lib/tsalt/tsalt"
  for cmd in salt-minion salt-call; do ln -sf ../lib/tsalt/tsalt "$ROOT/usr/bin/$cmd"; done
  if [ -d /run/systemd/system ] || [ -n "$ROOT" ]; then write_unit; fi
  if command -v openrc-run >/dev/null || [ -f /etc/alpine-release ]; then write_openrc; fi
}

start_service() {
  if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable salt-minion.service >/dev/null 2>&1
    systemctl restart salt-minion.service
  elif command -v rc-service >/dev/null; then
    rc-update add salt-minion default >/dev/null
    rc-service salt-minion restart
  elif [ -x /etc/init.d/salt-minion ]; then
    /etc/init.d/salt-minion restart
  else
    /usr/bin/salt-minion -d -c /etc/salt
  fi
  say "salt-minion started"
}

write_config
case "$METHOD" in
  deb) install_deb ;;
  binary) install_binary ;;
  *) die "unknown method $METHOD (deb or binary)" ;;
esac
"$ROOT/usr/bin/salt-call" --version >/dev/null || die "the installed salt-call does not run"
say "installed tsalt $VERSION ($METHOD)"
if [ "$START" = yes ] && [ -z "$ROOT" ]; then start_service; fi
