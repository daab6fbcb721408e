/**
 * Boot-time enabling for the service states (Salt's `_available`, `_enable` and `_disable` in
 * `salt/states/service.py`): check the service exists, then set it to start (or not) at boot,
 * with Salt's comments for each mix of "was it running" and "did it change".
 */
import type { StateContext } from '../plugins/states/index.js';

/** What `_enable`/`_disable` add to the state's return. */
export interface Toggle {
  result?: boolean | null;
  comment?: string;
  changes?: Record<string, unknown>;
}

/** Whether the service exists; sets Salt's failure on `ret` when not. */
export async function available(ctx: StateContext, name: string, ret: Toggle): Promise<boolean> {
  const avail = Boolean(await ctx.call('service.available', [name]));
  if (!avail) {
    ret.result = false;
    ret.comment = `The named service ${name} is not available`;
  }
  return avail;
}

/** `started`: true (running), null (in the desired state), false (dead). */
type Started = boolean | null;

const tail = (started: Started, running: string, desired: string, dead: string): string =>
  started === true ? running : started === null ? desired : dead;

/** Salt's `_enable`. */
export async function enable(
  ctx: StateContext,
  name: string,
  started: Started,
  result = true,
): Promise<Toggle> {
  const ret: Toggle = {};
  if (!(await available(ctx, name, ret))) return ret;
  ret.result = result;
  const before = Boolean(await ctx.call('service.enabled', [name]));
  if (before) {
    if (started === null) ret.changes = {};
    ret.comment = `Service ${name} is already enabled, and ${tail(started, 'is running', 'is in the desired state', 'is dead')}`;
    return ret;
  }
  if (ctx.test) {
    ret.result = null;
    ret.comment = `Service ${name} set to be enabled`;
    return ret;
  }
  let error: string | false = false;
  try {
    if (await ctx.call('service.enable', [name])) {
      ret.changes = {};
      const after = Boolean(await ctx.call('service.enabled', [name]));
      if (before !== after) ret.changes[name] = true;
      ret.comment = `Service ${name} has been enabled, and ${tail(started, 'is running', 'is in the desired state', 'is dead')}`;
      return ret;
    }
  } catch (err) {
    error = (err as Error).message;
  }
  ret.result = false;
  ret.comment = tail(
    started,
    `Failed when setting service ${name} to start at boot, but the service is running`,
    `Failed when setting service ${name} to start at boot, but the service was already running`,
    `Failed when setting service ${name} to start at boot, and the service is dead`,
  );
  if (error) ret.comment += `. Additional information follows:\n\n${error}`;
  return ret;
}

/** Salt's `_disable`. */
export async function disable(
  ctx: StateContext,
  name: string,
  started: Started,
  result = true,
): Promise<Toggle> {
  const ret: Toggle = {};
  if (!(await available(ctx, name, ret))) {
    ret.result = true;
    return ret;
  }
  ret.result = result;
  const before = Boolean(await ctx.call('service.disabled', [name]));
  if (before) {
    if (started === null) ret.changes = {};
    ret.comment = `Service ${name} is already disabled, and ${tail(started, 'is running', 'is in the desired state', 'is dead')}`;
    return ret;
  }
  if (ctx.test) {
    ret.result = null;
    ret.comment = `Service ${name} set to be disabled`;
    return ret;
  }
  if (await ctx.call('service.disable', [name])) {
    ret.changes = {};
    const after = Boolean(await ctx.call('service.disabled', [name]));
    if (before !== after) ret.changes[name] = true;
    ret.comment = `Service ${name} has been disabled, and ${tail(started, 'is running', 'is in the desired state', 'is dead')}`;
    return ret;
  }
  ret.result = false;
  ret.comment = tail(
    started,
    `Failed when setting service ${name} to not start at boot, and is running`,
    `Failed when setting service ${name} to not start at boot, but the service was already running`,
    `Failed when setting service ${name} to not start at boot, and the service is dead`,
  );
  return ret;
}
