/**
 * Salt's `supervisord` state module (`salt/states/supervisord.py`): `supervisord.running`
 * (added, started, restarted or updated as asked), `supervisord.dead` and `mod_watch` (a
 * restart), for one program or a `group:`, through the `supervisord` execution module.
 */
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

type Status = Record<string, { state: string; reason: string }>;
interface Ctl {
  user: string | null;
  conf_file: string | null;
  bin_env: string | null;
}

/** Salt's `_check_error`: a failure unless supervisorctl's error means "already so". */
function checkError(result: unknown, success: string): Partial<StateReturn> {
  const text = typeof result === 'string' ? result : '';
  const hasError =
    typeof result === 'string' ? text.includes('ERROR') : Object.hasOwn(result as object, 'ERROR');
  if (!hasError) return { comment: success };
  if (['already started', 'not running', 'process group already active'].some((s) => text.includes(s)))
    return { comment: success };
  return { comment: text, result: false };
}

const isStopped = (state: string | undefined) =>
  state !== undefined && ['STOPPED', 'STOPPING', 'EXITED', 'FATAL', 'BACKOFF'].includes(state);

const groupsOf = (all: Status) =>
  [
    ...new Set(Object.keys(all).flatMap((p) => (p.includes(':') ? [p.slice(0, p.indexOf(':') + 1)] : []))),
  ].sort();

/** Whether the program or group is stopped (a group: any of its programs), or null if unknown. */
function stoppedNow(
  all: Status,
  name: string,
  groups: readonly string[],
): { stopped: boolean | null; type: string | null } {
  if (groups.includes(name))
    return {
      stopped: Object.keys(all).some((p) => p.startsWith(name) && isStopped(all[p]?.state)),
      type: 'group',
    };
  if (name in all) return { stopped: isStopped(all[name]?.state), type: 'service' };
  return { stopped: null, type: null };
}

const ctlOf = (a: Ctl): Record<string, unknown> => ({
  user: a.user,
  conf_file: a.conf_file,
  bin_env: a.bin_env,
});

function testRun(ret: StateReturn, name: string, matches: Map<string, boolean>): StateReturn {
  if (matches.size === 0) {
    const what = name.endsWith(':') ? `Group '${name}'` : `Service ${name}`;
    return { ...ret, result: null, comment: `${what} will be added and started` };
  }
  const toStart = [...matches].filter(([, running]) => !running).map(([p]) => p);
  if (toStart.length === 0)
    return {
      ...ret,
      comment: name.endsWith(':')
        ? `All services in group '${name}' are already running`
        : `Service ${name} is already running`,
    };
  const comment = !name.endsWith(':')
    ? `Service ${name} will be started`
    : toStart.length === matches.size
      ? `All services in group '${name}' will be started`
      : `The following services will be started: ${toStart.join(' ')}`;
  return { ...ret, result: null, comment };
}

async function running(
  ctx: StateContext,
  a: Ctl & { name: string; restart: unknown; update: unknown },
): Promise<StateReturn> {
  const name = a.name.endsWith(':*') ? a.name.slice(0, -1) : a.name;
  const ret: StateReturn = { name, result: true, comment: '', changes: {} };
  const c = ctlOf(a);
  const all = (await ctx.call('supervisord.status', [], c)) as Status;
  const groups = groupsOf(all);
  const matches = new Map<string, boolean>();
  if (name in all) matches.set(name, all[name]?.state.toLowerCase() === 'running');
  else if (groups.includes(name))
    for (const p of Object.keys(all).filter((x) => x.startsWith(name)))
      matches.set(p, all[p]?.state.toLowerCase() === 'running');
  if (ctx.test) return testRun(ret, name, matches);
  const changes: string[] = [];
  let justUpdated = false;
  if (a.update) {
    const result = String(await ctx.call('supervisord.update', [], c));
    Object.assign(ret, checkError(result, 'Updating supervisor'));
    justUpdated = result.includes(`${name}: updated`);
  } else if (matches.size === 0) {
    const comment = `Adding service: ${name}`;
    await ctx.call('supervisord.reread', [], c);
    Object.assign(ret, checkError(await ctx.call('supervisord.add', [name], c), comment));
    changes.push(comment);
  }
  const { stopped, type } = stoppedNow(all, name, groups);
  const kind = type !== null ? ` ${type}` : '';
  if (stopped === false) {
    if (a.restart && !justUpdated) {
      const comment = `Restarting${kind}: ${name}`;
      Object.assign(ret, checkError(await ctx.call('supervisord.restart', [name], c), comment));
      changes.push(comment);
    } else
      ret.comment = justUpdated
        ? `Not starting updated${kind}: ${name}`
        : `Not starting already running${kind}: ${name}`;
  } else if (!justUpdated) {
    const comment = `Starting${kind}: ${name}`;
    changes.push(comment);
    Object.assign(ret, checkError(await ctx.call('supervisord.start', [name], c), comment));
  }
  if (ret.result && changes.length > 0) ret.changes = { [name]: changes.join(' ') };
  return ret;
}

const ctlShape = (z: typeof import('zod').z) => ({
  user: z.string().nullable().default(null),
  conf_file: z.string().nullable().default(null),
  bin_env: z.string().nullable().default(null),
});

const runningState = (restartDefault: boolean) =>
  defineState({
    args: (z) =>
      z.object({
        name: z.string(),
        restart: z.unknown().default(restartDefault),
        update: z.unknown().default(false),
        ...ctlShape(z),
      }),
    varkw: true,
    doc: `Ensure the named service (a program or a 'group:') is running: added if supervisord does not know it, started if stopped, restarted (restart=${restartDefault ? 'True' : 'False'} by default) if running; update=True runs supervisorctl update first.`,
    run: (ctx, a) => running(ctx, a),
  });

const dead = defineState({
  args: (z) => z.object({ name: z.string(), ...ctlShape(z) }),
  varkw: true,
  doc: "Ensure the named service (a program or a 'group:') is not running.",
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = { name, result: true, comment: '', changes: {} };
    if (ctx.test) return { ...ret, result: null, comment: `Service ${name} is set to be stopped` };
    const comment = `Stopping service: ${name}`;
    const c = ctlOf(a);
    const all = (await ctx.call('supervisord.status', [], c)) as Status;
    const { stopped } = stoppedNow(all, name, groupsOf(all));
    if (stopped === null) return { ...ret, comment: `Service ${name} doesn't exist` };
    if (stopped) return { ...ret, comment: `Service ${name} is not running` };
    // Salt checks the dict {name: output} for "ERROR", so only a program named ERROR fails here
    const result = { [name]: await ctx.call('supervisord.stop', [name], c) };
    Object.assign(ret, checkError(result, comment));
    ret.changes = { [name]: comment };
    return ret;
  },
});

export default defineStateModule({
  name: 'supervisord',
  doc: 'Programs run by supervisord (supervisord.running, supervisord.dead).',
  functions: { running: runningState(false), dead, mod_watch: runningState(true) },
});
