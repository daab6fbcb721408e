/**
 * The `wheel` clear command (Salt's `ClearFuncs.wheel`): check the user key, run the wheel
 * function here, synchronously, and answer `{tag, data: {fun, jid, tag, user, return,
 * success}}`, firing `salt/wheel/<jid>/new` and `/ret`. Wheel functions are short master-side
 * operations (keys, config); a throw becomes Salt's `Exception occurred in wheel ...` return.
 */
import { genJid } from '../../jid.js';
import { checkClearAuth } from '../../runners/auth.js';
import type { WheelContext } from '../../runners/define.js';
import type { RunnerLoader } from '../../runners/loader.js';
import type { Effects, HandlerEnv } from './context.js';

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

const loaders = new WeakMap<HandlerEnv, RunnerLoader<WheelContext>>();

async function loaderFor(env: HandlerEnv): Promise<RunnerLoader<WheelContext>> {
  let l = loaders.get(env);
  if (!l) {
    const { createWheelLoader } = await import('../../runners/loader.js');
    l = createWheelLoader(env.config as unknown as Record<string, unknown>, env.kernel.log);
    loaders.set(env, l);
  }
  return l;
}

export async function handleWheel(
  env: HandlerEnv,
  load: Record<string, unknown>,
  effects: Effects,
): Promise<unknown> {
  const auth = checkClearAuth(load, env.userKeys());
  if ('error' in auth) {
    env.kernel.log.warn({ user: load.user, fun: load.fun }, 'wheel refused: bad user key');
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
  const { invokeFunction, normalizeArgs } = await import('../../runners/invoke.js');
  const { args, kwargs } = normalizeArgs(load.arg, kwarg);
  const jid = genJid();
  const tag = `salt/wheel/${jid}`;
  const data: Record<string, unknown> = { fun: `wheel.${fun}`, jid, tag, user: auth.user };
  effects.events.push({ tag: `${tag}/new`, data: { ...data } });
  const ctx: WheelContext = {
    opts: env.config as unknown as Record<string, unknown>,
    log: env.kernel.log,
    jid,
    user: auth.user,
    fireEvent: (t, d) => effects.events.push({ tag: t, data: d }),
  };
  const outcome = await invokeFunction('wheel', await loaderFor(env), fun, args, kwargs, ctx);
  data.return = outcome.return;
  data.success = outcome.success;
  effects.events.push({ tag: `${tag}/ret`, data: { ...data } });
  return { tag, data };
}
