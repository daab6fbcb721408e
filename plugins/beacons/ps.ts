/**
 * The `ps` beacon (Salt's `salt/beacons/ps.py`): for each configured process name, `running`
 * fires `{name: "Running"}` while one runs, `stopped` fires `{name: "Stopped"}` while none does
 * (any other value fires `{name: false}` while none does). Names are psutil's `Process.name()`.
 *
 *   beacons:
 *     ps:
 *       - processes:
 *           salt-master: running
 *           mysql: stopped
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { defineBeacon } from '../../kernel/index.js';

/** psutil's name: the kernel's `comm`, or the command line's program when comm was cut at 15. */
function processName(pid: string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (name.length < 15) return name;
    const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0] ?? '';
    const exe = basename(argv0.split(' ')[0] ?? '');
    return exe.startsWith(name) ? exe : name;
  } catch {
    return undefined;
  }
}

function runningNames(): Set<string> {
  const names = new Set<string>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const name = processName(pid);
    if (name !== undefined) names.add(name);
  }
  return names;
}

export default defineBeacon({
  name: 'ps',
  doc: 'Emit whether the configured processes are running or stopped.',
  validate(config) {
    if (!('processes' in config)) return 'Configuration for ps beacon requires processes.';
    const p = config.processes;
    if (typeof p !== 'object' || p === null || Array.isArray(p))
      return 'Processes for ps beacon must be a dictionary.';
    return true;
  },
  beacon(_ctx, config) {
    const procs = runningNames();
    const ret: Array<Record<string, string | boolean>> = [];
    for (const [name, want] of Object.entries((config.processes ?? {}) as Record<string, unknown>)) {
      if (want === 'running') {
        if (procs.has(name)) ret.push({ [name]: 'Running' });
      } else if (!procs.has(name)) ret.push({ [name]: want === 'stopped' ? 'Stopped' : false });
    }
    return ret;
  },
});
