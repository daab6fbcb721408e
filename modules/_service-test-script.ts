/**
 * Test support for the service module and states: a throwaway sysvinit script in /etc/init.d
 * whose daemon is a shell loop with a pid file, and its removal (boot links included).
 * Service names must start with `tsalt-t`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { which } from './_which.js';

/** Whether this machine runs sysvinit scripts here (root, /etc/init.d, `service`, no systemd as PID 1). */
export function canRunInitScripts(): boolean {
  if (process.getuid?.() !== 0 || !existsSync('/etc/init.d') || existsSync('/run/systemd/system'))
    return false;
  try {
    execFileSync('sh', ['-c', 'command -v service && command -v update-rc.d'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether Salt's systemd module runs "offline" here: systemctl installed, systemd not PID 1.
 * Salt then adds the systemd-only functions to the sysvinit ones, and the service states'
 * `running`/`dead` do nothing.
 */
export function systemdOffline(): boolean {
  return !existsSync('/run/systemd/system') && which('systemctl') !== null;
}

/** Writes /etc/init.d/<name>: start, stop, restart, reload, force-reload and status (LSB exit codes). */
export function writeInitScript(name: string): void {
  if (!name.startsWith('tsalt-t')) throw new Error(`test service names start with tsalt-t: ${name}`);
  const pid = `/run/${name}.pid`;
  writeFileSync(
    `/etc/init.d/${name}`,
    `#!/bin/sh
### BEGIN INIT INFO
# Provides:          ${name}
# Required-Start:
# Required-Stop:
# Default-Start:     2 3 4 5
# Default-Stop:      0 1 6
# Short-Description: tsalt test service
### END INIT INFO
PIDFILE=${pid}
running() { [ -f $PIDFILE ] && kill -0 "$(cat $PIDFILE)" 2>/dev/null; }
case "$1" in
  start) running && exit 0; sh -c 'while :; do sleep 1; done' >/dev/null 2>&1 & echo $! > $PIDFILE; exit 0;;
  stop) if running; then kill "$(cat $PIDFILE)"; fi; rm -f $PIDFILE; exit 0;;
  restart|force-reload) "$0" stop; "$0" start;;
  reload) running || exit 7; exit 0;;
  status) running && { echo running; exit 0; }; echo stopped; exit 3;;
  *) echo "Usage: $0 {start|stop|restart|reload|force-reload|status}"; exit 2;;
esac
`,
    { mode: 0o755 },
  );
}

/** Stops the daemon and removes the script and its boot links. */
export function removeInitScript(name: string): void {
  if (!name.startsWith('tsalt-t')) throw new Error(`test service names start with tsalt-t: ${name}`);
  const run = (argv: string[]): void => {
    try {
      execFileSync(argv[0] ?? '', argv.slice(1), { stdio: 'ignore' });
    } catch {
      // already gone
    }
  };
  if (existsSync(`/etc/init.d/${name}`)) run([`/etc/init.d/${name}`, 'stop']);
  rmSync(`/etc/init.d/${name}`, { force: true });
  run(['update-rc.d', name, 'remove']);
  rmSync(`/run/${name}.pid`, { force: true });
  // a mask `service.mask` left (a link to /dev/null)
  const unit = `/etc/systemd/system/${name}.service`;
  try {
    if (lstatSync(unit).isSymbolicLink()) rmSync(unit);
  } catch {
    // not masked
  }
}
