# shellcheck shell=sh
# The start/stop/status logic the tsalt sysvinit scripts share (salt-minion, salt-master,
# salt-api). A script sets NAME (the command), DESC, and optionally DAEMON, PIDFILE and
# STOP_TIMEOUT, then sources this file with the action in $1. POSIX sh, no distribution
# helpers needed: Debian, RHEL and Alpine hosts without systemd all run it.
#
# stop signals the main process only and waits for it: a minion's jobs still running in its
# job processes finish and send their returns themselves (so a restart never kills a job).

: "${DAEMON:=/usr/bin/$NAME}"
: "${PIDFILE:=/var/run/$NAME.pid}"
: "${STOP_TIMEOUT:=30}"
: "${CONFIG_DIR:=/etc/salt}"
# shellcheck disable=SC1090
[ -r "/etc/default/$NAME" ] && . "/etc/default/$NAME"

salt_pid() {
  [ -r "$PIDFILE" ] || return 1
  pid=$(tr -dc '0-9' < "$PIDFILE")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

salt_start() {
  if pid=$(salt_pid); then
    echo "$DESC is already running (pid $pid)"
    return 0
  fi
  [ -x "$DAEMON" ] || { echo "$DAEMON is missing" >&2; return 5; }
  printf 'Starting %s: ' "$DESC"
  # shellcheck disable=SC2086
  "$DAEMON" -d -c "$CONFIG_DIR" --pid-file "$PIDFILE" $DAEMON_ARGS || { echo failed; return 1; }
  # -d returns once the background copy runs; it writes the pidfile when it starts
  i=0
  while [ "$i" -lt 100 ]; do
    if salt_pid >/dev/null; then echo "$NAME."; return 0; fi
    sleep 0.2 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  echo "failed (no pidfile $PIDFILE)"
  return 1
}

salt_stop() {
  if ! pid=$(salt_pid); then
    echo "$DESC is not running"
    rm -f "$PIDFILE"
    return 0
  fi
  printf 'Stopping %s: ' "$DESC"
  kill -TERM "$pid" 2>/dev/null
  i=0
  while kill -0 "$pid" 2>/dev/null; do
    if [ "$i" -ge $((STOP_TIMEOUT * 5)) ]; then
      kill -KILL "$pid" 2>/dev/null
      break
    fi
    sleep 0.2 2>/dev/null || sleep 1
    i=$((i + 1))
  done
  rm -f "$PIDFILE"
  echo "$NAME."
}

salt_status() {
  if pid=$(salt_pid); then
    echo "$DESC is running (pid $pid)"
    return 0
  fi
  if [ -e "$PIDFILE" ]; then
    echo "$DESC is not running, but $PIDFILE exists"
    return 1
  fi
  echo "$DESC is not running"
  return 3
}

case "$1" in
  start) salt_start ;;
  stop) salt_stop ;;
  status) salt_status ;;
  restart | force-reload) salt_stop && salt_start ;;
  try-restart | condrestart)
    if salt_pid >/dev/null; then salt_stop && salt_start; fi
    ;;
  *)
    echo "Usage: $0 {start|stop|status|restart|try-restart|force-reload}" >&2
    exit 2
    ;;
esac
