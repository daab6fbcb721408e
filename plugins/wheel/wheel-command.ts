/**
 * The `wheel` clear command (Salt's `ClearFuncs.wheel`): check the user key, run the wheel
 * function here, synchronously, and answer `{tag, data: {fun, jid, tag, user, return,
 * success}}`, firing `salt/wheel/<jid>/new` and `/ret`. Wheel functions are short master-side
 * operations (keys, config); a throw becomes Salt's `Exception occurred in wheel ...` return.
 */

import type { CommandContext, WheelContext } from '../../kernel/index.js';
import type { RunnerLoader } from '../../kernel/services.js';
import { genJid } from '../../kernel/util.js';
import { BUILTIN_DIRS } from '../builtin-dirs.js';

// The wheel loader and invoker are loaded on the first `wheel` request: a request-server worker
// that only serves minions never needs them.

/** Load keys that are not arguments of the wheel function. */
const CLIENT_KEYS = new Set([
  'cmd',
  'fun',
  'key',
  'user',
  'eauth',
  'token',
  'username',
  'password',
  'arg',
  'kwarg',
  'jid',
  'client',
  'print_event',
  'full_return',
  '__user__',
  '__jid__',
  '__tag__',
  '__current_eauth_user',
  '__current_eauth_groups',
]);

/** One wheel loader per master config (one per request-server thread). */
const loaders = new WeakMap<object, RunnerLoader<WheelContext>>();

async function loaderFor(ctx: CommandContext): Promise<RunnerLoader<WheelContext>> {
  let l = loaders.get(ctx.config);
  if (!l) {
    const { createWheelLoader } = await import('../../kernel/services.js');
    l = createWheelLoader(ctx.config as unknown as Record<string, unknown>, ctx.log, [BUILTIN_DIRS.wheel]);
    loaders.set(ctx.config, l);
  }
  return l;
}

/** The `wheel` clear command's handler. */
export async function handleWheel(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const auth = ctx.clearUser(load);
  if ('error' in auth) {
    ctx.log.warn({ user: load.user, fun: load.fun }, 'wheel refused: bad user key');
    return auth;
  }
  const fun = load.fun;
  if (typeof fun !== 'string' || !fun.includes('.')) {
    return {
      error: { name: 'SaltInvocationError', message: `"${String(fun)}" is not a wheel function name` },
    };
  }
  // Salt passes the load's own keys as the function's keywords (`match`, `include_rejected`)
  const topLevel: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(load)) if (!CLIENT_KEYS.has(k)) topLevel[k] = v;
  const kwarg = { ...topLevel, ...(load.kwarg && typeof load.kwarg === 'object' ? load.kwarg : {}) };
  const { invokeFunction, normalizeArgs } = await import('../../kernel/services.js');
  const { args, kwargs } = normalizeArgs(load.arg, kwarg);
  const jid = genJid();
  const tag = `salt/wheel/${jid}`;
  const data: Record<string, unknown> = { fun: `wheel.${fun}`, jid, tag, user: auth.user };
  ctx.fire(`${tag}/new`, { ...data });
  const wheelCtx: WheelContext = {
    opts: ctx.config as unknown as Record<string, unknown>,
    log: ctx.log,
    jid,
    user: auth.user,
    fireEvent: (t, d) => ctx.fire(t, d),
  };
  const outcome = await invokeFunction('wheel', await loaderFor(ctx), fun, args, kwargs, wheelCtx);
  data.return = outcome.return;
  data.success = outcome.success;
  ctx.fire(`${tag}/ret`, { ...data });
  return { tag, data };
}
