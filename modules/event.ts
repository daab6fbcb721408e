/**
 * Salt's `event` execution module (`salt/modules/event.py`): a minion fires events to the
 * master through its authenticated channel (`_minion_event`; the master refuses tags in its
 * own namespaces, master/handlers/minion-event.ts), and `fire` on its own local bus, where the
 * minion's engines listen (`_minion-bus.ts`).
 */
import { z } from 'zod';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { fireOnOwnBus } from './_minion-bus.js';
import { isMapping } from './_traverse.js';

/**
 * Whether this minion runs without a master (`salt-call --local`, `file_client: local`; for
 * `event.send`, also `master_type: disable`, which Salt's `fire_master` does not check).
 */
function masterless(ctx: ExecContext, disabled = false): boolean {
  const o = ctx.opts;
  const local = o.local === true || o.file_client === 'local' || (disabled && o.master_type === 'disable');
  return local && o.use_master_when_local !== true;
}

/** Salt's `_dict_subset`: the named keys of a map (missing ones skipped). */
function subset(keys: readonly unknown[], from: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (typeof k === 'string' && k in from) out[k] = from[k];
  return out;
}

async function fireMaster(ctx: ExecContext, data: unknown, tag: string, preload?: unknown): Promise<boolean> {
  if (masterless(ctx)) {
    ctx.log.warn(`Local mode detected. Event with tag ${tag} will NOT be sent.`);
    return false;
  }
  const load: Record<string, unknown> = { id: ctx.id, cmd: '_minion_event', pretag: null, data, tag };
  if (isMapping(preload)) Object.assign(load, preload, { id: ctx.id, cmd: '_minion_event' });
  try {
    if (!ctx.master) throw new SALT_ERR_EXEC_SYNC(`minion ${ctx.id} has no connection to a master here`);
    await ctx.master.request(load);
    return true;
  } catch (err) {
    ctx.log.warn({ tag, err: (err as Error).message }, 'event not delivered to the master');
    return false;
  }
}

/** Salt's `event.fire`: `data` under `tag` on the bus of the minion running on this host; False when none runs. */
async function fireHere(ctx: ExecContext, data: unknown, tag: string): Promise<boolean> {
  try {
    return await fireOnOwnBus(String(ctx.opts.sock_dir ?? ''), ctx.id, tag, data);
  } catch (err) {
    ctx.log.debug({ tag, err: (err as Error).message }, 'event not fired on the minion bus');
    return false;
  }
}

const tagArg = z.string({ error: 'tag must be a string' }).min(1, 'tag must not be empty');

export default defineModule({
  name: 'event',
  doc: "Fire events from the minion to the master event bus, or on the minion's own bus.",
  functions: {
    fire: defineFunction({
      args: z.object({ data: z.unknown(), tag: z.string({ error: 'tag must be a string' }) }),
      doc: "Fire an event on the local minion event bus. Data must be formed as a dict.\n\nReturns False when no minion runs on this host or the event is refused.\n\nCLI Example: salt '*' event.fire '{\"data\":\"my event data\"}' 'tag'",
      run: (ctx, { data, tag }) => fireHere(ctx, data, tag),
    }),
    fire_master: defineFunction({
      args: z.object({ data: z.unknown(), tag: tagArg, preload: z.unknown().optional() }),
      doc: "Fire an event off up to the master server.\n\nReturns True when the master took it.\n\nCLI Example: salt '*' event.fire_master '{\"data\":\"my event data\"}' 'tag'",
      run: (ctx, { data, tag, preload }) => fireMaster(ctx, data, tag, preload),
    }),
    send: defineFunction({
      args: z.object({
        tag: tagArg,
        data: z.unknown().optional(),
        preload: z.unknown().optional(),
        with_env: z.unknown().default(false),
        with_grains: z.unknown().default(false),
        with_pillar: z.unknown().default(false),
        with_env_opts: z.unknown().default(false),
      }),
      varkw: true,
      doc: 'Send an event to the Salt Master, with optional environment, grains and pillar data; extra keywords become data keys, and `data` (a map) overrides them.\n\nCLI Example: salt-call event.send myco/mytag foo=Foo bar=Bar',
      run: (ctx, a, extra) => {
        const out: Record<string, unknown> = {};
        if (a.with_env) {
          const env = { ...process.env } as Record<string, unknown>;
          out.environ = Array.isArray(a.with_env) ? subset(a.with_env, env) : env;
        }
        if (a.with_grains) {
          out.grains = Array.isArray(a.with_grains) ? subset(a.with_grains, ctx.grains) : { ...ctx.grains };
        }
        // the minion's own pillar, on the master bus: only when the caller asks for it (Salt warns in its doc)
        if (a.with_pillar) {
          const pillar = isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
          out.pillar = Array.isArray(a.with_pillar) ? subset(a.with_pillar, pillar) : { ...pillar };
        }
        if (a.with_env_opts) {
          // Salt's opts always hold `saltenv` (None unless set), so its 'base' fallback never shows
          out.saltenv = ctx.opts.saltenv ?? null;
          out.pillarenv = ctx.opts.pillarenv ?? null;
        }
        // the `__pub_*` keywords stay in the data, as in Salt's (its kwargs are the job's)
        Object.assign(out, extra.kwargs);
        if (isMapping(a.data)) Object.assign(out, a.data);
        // masterless, Salt sends it to the minion's own bus (event.fire) instead of the master
        return masterless(ctx, true) ? fireHere(ctx, out, a.tag) : fireMaster(ctx, out, a.tag, a.preload);
      },
    }),
  },
});
