/**
 * The `sh` beacon (Salt's `salt/beacons/sh.py`): attaches `strace -f -e execve` to each running
 * shell process (a `status.procs` command that is one of `cmd.shells`) and fires, per command
 * a shell executes, `{cmd, args, user}` tagged with the shell's pid. Needs strace (and the right
 * to trace: root, or ptrace allowed); without strace the module is not offered, as in Salt.
 *
 *   beacons:
 *     sh: []
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { defineBeacon } from '../../kernel/index.js';
import { which } from '../../modules/_which.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One attached strace: what it has written to stderr since the last run, and whose shell it is. */
interface Traced {
  child: ChildProcess;
  err: string;
  user: unknown;
  alive: boolean;
}

/** Every strace this process started, ended when the process exits. */
const running = new Set<ChildProcess>();
let reaperSet = false;

function attach(pid: string, user: unknown): Traced {
  const child = spawn('strace', ['-f', '-e', 'execve', '-p', pid], { stdio: ['ignore', 'ignore', 'pipe'] });
  const t: Traced = { child, err: '', user, alive: true };
  running.add(child);
  if (!reaperSet) {
    reaperSet = true;
    process.once('exit', () => {
      for (const c of running) c.kill();
    });
  }
  child.stderr?.setEncoding('utf8').on('data', (s: string) => {
    t.err += s;
  });
  const gone = () => {
    t.alive = false;
    running.delete(child);
  };
  child.on('exit', gone).on('error', gone);
  return t;
}

/** Salt's `execve` line reading: the quoted path is the command, the next quoted strings its args. */
export function execveEvents(err: string, pid: string, user: unknown): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const line of err.split('\n')) {
    if (!line.includes('execve')) continue;
    const event: Record<string, unknown> = { args: [], tag: pid };
    const comps = line.split('execve')[1]!.split('"');
    comps.forEach((field, ind) => {
      if (ind === 1) event.cmd = field;
      else if (ind % 2 !== 0) (event.args as string[]).push(field);
    });
    event.user = user;
    events.push(event);
  }
  return events;
}

export default defineBeacon({
  available: () => (which('strace') ? true : 'strace is missing.'),
  name: 'sh',
  doc: 'Fire the commands that running shells execute (strace of their execve calls).',
  async beacon(ctx) {
    // Salt asks cmd.shells again only within 5 seconds of the last time it noted
    const start = Date.now() / 1000;
    const lastAt = ctx.state.get('last_shells') as number | undefined;
    if (lastAt === undefined || start - lastAt <= 5) ctx.state.set('shells', await ctx.call('cmd.shells'));
    if (lastAt === undefined || start - lastAt > 5) ctx.state.set('last_shells', start);
    const shells = (ctx.state.get('shells') as string[] | undefined) ?? [];
    const procs = await ctx.call('status.procs');
    const traced = (ctx.state.get('vt') as Map<string, Traced> | undefined) ?? new Map<string, Traced>();
    ctx.state.set('vt', traced);
    for (const [pid, proc] of Object.entries(isMap(procs) ? procs : {})) {
      const p = isMap(proc) ? proc : {};
      const cmd = String(p.cmd ?? '').replace(/^-+/, '');
      if (!shells.some((shell) => String(shell).includes(cmd))) continue;
      if (!traced.has(pid)) traced.set(pid, attach(pid, p.user));
    }
    const events = [];
    for (const [pid, t] of traced) {
      const err = t.err;
      t.err = '';
      events.push(...execveEvents(err, pid, t.user));
      if (!t.alive) traced.delete(pid);
    }
    return events;
  },
  // the attached straces end with the beacon (Salt's sh beacon leaves them to the process)
  close(state) {
    const traced = state.get('vt') as Map<string, Traced> | undefined;
    for (const t of traced?.values() ?? []) t.child.kill();
    state.delete('vt');
  },
});
