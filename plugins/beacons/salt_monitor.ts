/**
 * The `salt_monitor` beacon (Salt's `salt/beacons/salt_monitor.py`): runs the configured
 * execution functions in order each interval and fires `{salt_fun, ret, [args], [kwargs]}`
 * for each whose return is truthy; a single function given as a string fires every run.
 *
 *   beacons:
 *     salt_monitor:
 *       - salt_fun:
 *           - test.ping
 *           - cmd.run: { args: [uptime], kwargs: [{ python_shell: True }] }
 *       - interval: 3600
 *
 * Salt refuses a function its minion lacks in `validate`; a beacon's validate here cannot ask
 * the minion, so the first run checks them (`sys.list_functions`) and the beacon stays idle,
 * logging Salt's reason, when one is missing.
 */
import { type BeaconContext, defineBeacon } from '../../kernel/index.js';
import { pyStr, pyTruthy } from '../../kernel/python/index.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface Call {
  fun: string;
  args: unknown[];
  kwargs: Record<string, unknown>;
}

/** The configured calls: a string is one function, each list item a name or `{fun: {args, kwargs}}`. */
function calls(saltFun: unknown): Call[] {
  const items = typeof saltFun === 'string' ? [saltFun] : Array.isArray(saltFun) ? saltFun : [];
  return items.map((entry) => {
    if (!isMap(entry)) return { fun: String(entry), args: [], kwargs: {} };
    const [fun, spec] = Object.entries(entry)[0] ?? ['', {}];
    const s = isMap(spec) ? spec : {};
    const args = Array.isArray(s.args) ? s.args : [];
    const kwargs: Record<string, unknown> = {};
    if (Array.isArray(s.kwargs)) for (const kv of s.kwargs) if (isMap(kv)) Object.assign(kwargs, kv);
    return { fun, args, kwargs };
  });
}

/** Salt's checks of one `{fun: {args, kwargs}}` entry: true or the reason it is wrong. */
function checkEntry(entry: Record<string, unknown>): true | string {
  const [fun, spec] = Object.entries(entry)[0] ?? ['', {}];
  for (const [key, value] of Object.entries(isMap(spec) ? spec : {})) {
    if (key === 'args') {
      if (!Array.isArray(value)) return `args key for fun ${fun} must be list`;
    } else if (key === 'kwargs') {
      if (!Array.isArray(value)) return `kwargs key for fun ${fun} must be list of key value pairs`;
      for (const kv of value) if (!isMap(kv)) return `${pyStr(kv)} is not a key / value pair`;
    } else return `key ${key} not allowed under fun ${fun}`;
  }
  return true;
}

/** The first configured function the minion lacks, as Salt's validate words it. */
async function missing(ctx: BeaconContext, wanted: readonly Call[]): Promise<string | undefined> {
  const known = new Set((await ctx.call('sys.list_functions')) as string[]);
  const absent = wanted.find((c) => !known.has(c.fun));
  return absent && `${absent.fun} not in __salt__`;
}

export default defineBeacon({
  name: 'salt_monitor',
  doc: 'Run the configured execution functions and fire their truthy returns.',
  validate(config) {
    if (!('salt_fun' in config)) return "'salt_fun'";
    if (typeof config.salt_fun === 'string' || !Array.isArray(config.salt_fun)) return true;
    for (const entry of config.salt_fun) {
      if (!isMap(entry)) continue;
      const ok = checkEntry(entry);
      if (ok !== true) return ok;
    }
    return true;
  },
  async beacon(ctx, config) {
    const wanted = calls(config.salt_fun);
    if (!ctx.state.has('refused')) {
      const reason = await missing(ctx, wanted);
      ctx.state.set('refused', reason ?? false);
      if (reason) ctx.log.error(`Beacon salt_monitor configuration invalid, not running.\n${reason}`);
    }
    if (ctx.state.get('refused') !== false) return [];
    if (typeof config.salt_fun === 'string') {
      const fun = config.salt_fun;
      return [{ salt_fun: fun, ret: await ctx.call(fun) }];
    }
    const events = [];
    for (const { fun, args, kwargs } of wanted) {
      const ret = await ctx.call(fun, args, kwargs);
      if (!pyTruthy(ret)) continue;
      const event: Record<string, unknown> = { salt_fun: fun, ret };
      if (args.length > 0) event.args = args;
      if (Object.keys(kwargs).length > 0) event.kwargs = kwargs;
      events.push(event);
    }
    return events;
  },
});
