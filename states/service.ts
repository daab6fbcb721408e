/**
 * Salt's `service` state module (`salt/states/service.py`): services running or dead, enabled
 * or disabled at boot, masked or unmasked (systemd), and `mod_watch`, which restarts (or
 * reloads) a running service when a watched state changed. It drives the `service` execution
 * module, whichever backend it runs on.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { modBeacon } from './_mod-beacon.js';
import { available, disable, enable, type Toggle } from './_service-toggle.js';

const sleep = (s: number): Promise<void> => new Promise((r) => setTimeout(r, s * 1000));

/** `enable` as Salt reads it: a string through `is_true`; only real booleans count after that. */
function enableFlag(v: unknown): boolean | null {
  if (typeof v === 'string') {
    const n = Number.parseInt(v, 10);
    return Number.isNaN(n) ? v.toLowerCase() === 'true' : n > 0;
  }
  return typeof v === 'boolean' ? v : null;
}

function delay(v: unknown): number {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

const apply = (ret: StateReturn, t: Toggle): void => {
  if (t.result !== undefined) ret.result = t.result;
  if (t.comment !== undefined) ret.comment = t.comment;
  if (t.changes !== undefined) ret.changes = t.changes;
};

function enabledUsedError(ret: StateReturn): StateReturn {
  ret.result = false;
  ret.comment = `Service ${ret.name} uses non-existent option "enabled".  Perhaps "enable" option was intended?`;
  return ret;
}

async function offline(ctx: StateContext): Promise<boolean> {
  if (!(await ctx.functions.get('service.offline'))) return false;
  return Boolean(await ctx.call('service.offline', []));
}

async function status(ctx: StateContext, name: string, sig: unknown): Promise<boolean> {
  return Boolean(await ctx.call('service.status', [name, sig ?? null]));
}

/** Whether `service.masked` exists on this minion's backend (systemd). */
async function maskedNow(
  ctx: StateContext,
  name: string,
  runtime: boolean,
): Promise<boolean | 'unavailable'> {
  try {
    return Boolean(await ctx.call('service.masked', [name, runtime]));
  } catch (err) {
    if ((err as { code?: string }).code === 'SALT_ERR_LOADER_NOT_AVAILABLE') return 'unavailable';
    throw err;
  }
}

async function running(
  ctx: StateContext,
  name: string,
  enableArg: unknown,
  sig: unknown,
  initDelay: unknown,
  kwargs: Record<string, unknown>,
): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  if ('enabled' in kwargs) return enabledUsedError(ret);
  const en = enableFlag(enableArg);
  if (await offline(ctx)) return { ...ret, comment: 'Running in OFFLINE mode. Nothing to do' };
  if (!(await available(ctx, name, ret as Toggle))) {
    if (ctx.test) {
      ret.result = null;
      ret.comment = `Service ${name} not present; if created in this state run, it would have been started`;
    }
    return ret;
  }
  const before = await status(ctx, name, sig);
  const beforeEnabled = Boolean(await ctx.call('service.enabled', [name]));
  let unmaskComment = '';
  if (pyTruthy(kwargs.unmask))
    unmaskComment = String((await unmasked(ctx, name, pyTruthy(kwargs.unmask_runtime))).comment);
  if (before) {
    ret.comment = [`The service ${name} is already running`, unmaskComment].filter(Boolean).join('\n');
    if (en === true && !beforeEnabled) apply(ret, await enable(ctx, name, null));
    else if (en === false && beforeEnabled) apply(ret, await disable(ctx, name, null));
    return ret;
  }
  if (ctx.test) {
    ret.result = null;
    ret.comment = [`Service ${name} is set to start`, unmaskComment].filter(Boolean).join('\n');
    return ret;
  }
  let started: boolean;
  try {
    started = Boolean(await ctx.call('service.start', [name]));
  } catch (err) {
    return { ...ret, result: false, comment: (err as Error).message };
  }
  if (!started) {
    ret.result = false;
    ret.comment = `Service ${name} failed to start`;
    if (en === true) apply(ret, await enable(ctx, name, false, false));
    else if (en === false) apply(ret, await disable(ctx, name, false, false));
    return ret;
  }
  const d = delay(initDelay);
  if (d) await sleep(d);
  const after = await status(ctx, name, sig);
  const afterEnabled = Boolean(await ctx.call('service.enabled', [name]));
  if ((beforeEnabled !== afterEnabled || before !== after) && !Object.keys(ret.changes).length)
    ret.changes[name] = after;
  if (after) ret.comment = `Started service ${name}`;
  else {
    ret.comment = `Service ${name} failed to start`;
    ret.result = false;
  }
  if (en === true) apply(ret, await enable(ctx, name, after, after));
  else if (en === false) apply(ret, await disable(ctx, name, after, after));
  if (d) ret.comment = `${String(ret.comment)}\nDelayed return for ${pyStr(initDelay)} seconds`;
  if (pyTruthy(kwargs.unmask)) ret.comment = [String(ret.comment), unmaskComment].join('\n');
  return ret;
}

async function dead(
  ctx: StateContext,
  name: string,
  enableArg: unknown,
  sig: unknown,
  initDelay: unknown,
  kwargs: Record<string, unknown>,
): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  if ('enabled' in kwargs) return enabledUsedError(ret);
  const en = enableFlag(enableArg);
  if (await offline(ctx)) return { ...ret, comment: 'Running in OFFLINE mode. Nothing to do' };
  if (!(await available(ctx, name, ret as Toggle))) {
    if (ctx.test) {
      ret.result = null;
      ret.comment = `Service ${name} not present; if created in this state run, it would have been stopped`;
    } else ret.result = true;
    return ret;
  }
  const before = await status(ctx, name, sig);
  const beforeEnabled = Boolean(await ctx.call('service.enabled', [name]));
  if (!before) {
    ret.comment = `The service ${name} is already dead`;
    if (en === true && !beforeEnabled) apply(ret, await enable(ctx, name, null));
    else if (en === false && beforeEnabled) apply(ret, await disable(ctx, name, null));
    return ret;
  }
  if (ctx.test) return { ...ret, result: null, comment: `Service ${name} is set to be killed` };
  if (!(await ctx.call('service.stop', [name]))) {
    ret.result = false;
    ret.comment = `Service ${name} failed to die`;
    if (en === true) apply(ret, await enable(ctx, name, true, false));
    else if (en === false) apply(ret, await disable(ctx, name, true, false));
    return ret;
  }
  const d = delay(initDelay);
  if (d) await sleep(d);
  const after = Boolean(await ctx.call('service.status', [name]));
  const afterEnabled = Boolean(await ctx.call('service.enabled', [name]));
  if ((beforeEnabled !== afterEnabled || before !== after) && !Object.keys(ret.changes).length)
    ret.changes[name] = after;
  if (after) {
    ret.result = false;
    ret.comment = `Service ${name} failed to die`;
  } else ret.comment = `Service ${name} was killed`;
  if (en === true) apply(ret, await enable(ctx, name, after, !after));
  else if (en === false) apply(ret, await disable(ctx, name, after, !after));
  return ret;
}

async function masked(ctx: StateContext, name: string, runtime: boolean): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const type = runtime ? 'runtime masked' : 'masked';
  const expected = { [type]: { old: false, new: true } };
  try {
    const now = await maskedNow(ctx, name, runtime);
    if (now === 'unavailable')
      return { ...ret, result: false, comment: 'Service masking not available on this minion' };
    if (now) return { ...ret, comment: `Service ${name} is already ${type}` };
    if (ctx.test)
      return { ...ret, result: null, changes: expected, comment: `Service ${name} would be ${type}` };
    await ctx.call('service.mask', [name, runtime]);
    if (await maskedNow(ctx, name, runtime))
      return { ...ret, changes: expected, comment: `Service ${name} was ${type}` };
    return { ...ret, comment: `Failed to mask service ${name}` };
  } catch (err) {
    return { ...ret, result: false, comment: (err as Error).message };
  }
}

async function unmasked(ctx: StateContext, name: string, runtime: boolean): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const type = runtime ? 'runtime masked' : 'masked';
  const action = runtime ? 'runtime unmasked' : 'unmasked';
  const expected = { [type]: { old: true, new: false } };
  try {
    const now = await maskedNow(ctx, name, runtime);
    if (now === 'unavailable')
      return { ...ret, result: false, comment: 'Service masking not available on this minion' };
    if (!now) return { ...ret, comment: `Service ${name} was already ${action}` };
    if (ctx.test)
      return { ...ret, result: null, changes: expected, comment: `Service ${name} would be ${action}` };
    await ctx.call('service.unmask', [name, runtime]);
    if (!(await maskedNow(ctx, name, runtime)))
      return { ...ret, changes: expected, comment: `Service ${name} was ${action}` };
    return { ...ret, comment: `Failed to unmask service ${name}` };
  } catch (err) {
    return { ...ret, result: false, comment: (err as Error).message };
  }
}

async function modWatch(
  ctx: StateContext,
  name: string,
  a: { sfun?: unknown; sig?: unknown; reload?: unknown; force?: unknown; init_delay?: unknown },
): Promise<StateReturn> {
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  let fun: string;
  let verb: string;
  let past: string;
  if (a.sfun === 'dead') {
    verb = 'stop';
    past = 'stopped';
    if (!(await status(ctx, name, a.sig))) return { ...ret, comment: `Service is already ${past}` };
    fun = 'service.stop';
  } else if (a.sfun === 'running') {
    if (await status(ctx, name, a.sig)) {
      if (pyTruthy(a.reload)) {
        [fun, verb] = pyTruthy(a.force)
          ? ['service.force_reload', 'forcefully reload']
          : ['service.reload', 'reload'];
      } else [fun, verb] = ['service.restart', 'restart'];
    } else [fun, verb] = ['service.start', 'start'];
    past = `${verb}ed`;
  } else
    return {
      ...ret,
      result: false,
      comment: `Unable to trigger watch for service.${pyStr(a.sfun ?? 'None')}`,
    };
  if (ctx.test) return { ...ret, result: null, comment: `Service is set to be ${past}` };
  if (verb === 'start') await ctx.call('service.stop', [name]);
  let result: boolean;
  try {
    result = Boolean(await ctx.call(fun, [name]));
  } catch (err) {
    return { ...ret, result: false, comment: (err as Error).message };
  }
  const d = delay(a.init_delay);
  if (d) await sleep(d);
  return {
    name,
    changes: { [name]: result },
    result,
    comment: result ? `Service ${past}` : `Failed to ${verb} the service`,
  };
}

const stateArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    enable: z.unknown().optional(),
    sig: z.unknown().optional(),
    init_delay: z.unknown().optional(),
  });

export default defineStateModule({
  name: 'service',
  doc: 'Services running or dead, enabled or disabled at boot, masked or unmasked.',
  functions: {
    running: defineState({
      args: stateArgs,
      varkw: true,
      doc: 'Ensure the service is running; enable: also set it to start at boot (or not).',
      run: (ctx, a, extra) => running(ctx, a.name, a.enable, a.sig, a.init_delay, extra.kwargs),
    }),
    dead: defineState({
      args: stateArgs,
      varkw: true,
      doc: 'Ensure the service is not running; enable: also set it to start at boot (or not).',
      run: (ctx, a, extra) => dead(ctx, a.name, a.enable, a.sig, a.init_delay, extra.kwargs),
    }),
    enabled: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Ensure the service starts at boot.',
      run: async (ctx, { name }) => {
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        apply(ret, await enable(ctx, name, null));
        if (ctx.test && ret.comment === `The named service ${name} is not available`) {
          ret.result = null;
          ret.comment = `Service ${name} not present; if created in this state run, it would have been enabled`;
        }
        return ret;
      },
    }),
    disabled: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Ensure the service does not start at boot.',
      run: async (ctx, { name }) => {
        const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
        apply(ret, await disable(ctx, name, null));
        return ret;
      },
    }),
    masked: defineState({
      args: (z) => z.object({ name: z.string(), runtime: z.unknown().default(false) }),
      doc: 'Ensure the service is masked (systemd).',
      run: (ctx, a) => masked(ctx, a.name, pyTruthy(a.runtime)),
    }),
    unmasked: defineState({
      args: (z) => z.object({ name: z.string(), runtime: z.unknown().default(false) }),
      doc: 'Ensure the service is not masked (systemd).',
      run: (ctx, a) => unmasked(ctx, a.name, pyTruthy(a.runtime)),
    }),
    mod_watch: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          sfun: z.unknown().optional(),
          sig: z.unknown().optional(),
          // Salt's defaults, as sys.state_argspec shows them; each is read by truthiness
          reload: z.unknown().default(false),
          full_restart: z.unknown().default(false),
          init_delay: z.unknown().optional(),
          force: z.unknown().default(false),
        }),
      varkw: true,
      doc: 'What a watch requisite runs: restart (or reload, or start) a running service, stop a dead one.',
      run: (ctx, a) => modWatch(ctx, a.name, a),
    }),
    mod_beacon: modBeacon({
      module: 'service',
      beacon: 'service',
      supported: ['running', 'dead'],
      callsIt: 'beacon',
      settings: (name, _sfun, data) => ({
        services: {
          [name]: {
            onchangeonly: data('onchangeonly', true),
            delay: data('delay', 0),
            emitatstartup: data('emitatstartup', false),
            // Salt 3006's reads emitatstartup here too
            uncleanshutdown: data('emitatstartup', null),
          },
        },
        interval: data('interval', 60),
      }),
    }),
  },
});
