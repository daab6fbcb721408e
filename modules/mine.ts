/**
 * Salt's `mine` execution module (`salt/modules/mine.py`): a minion runs the functions of its
 * `mine_functions` (or one named function) and stores their results on the master
 * (`_mine`), where other minions read them (`_mine_get`, filtered by the master's `mine_get`
 * ACL and by the `allow_tgt` a minion stored with an entry). Masterless (`file_client: local`)
 * the mine is the `mine_cache` key of the minion's own `data` store, as in Salt.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { aclEntry, addResult, requestedFunctions, wrapAcl } from '../plugins/mine/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import {
  configuredMineFunctions,
  type MineFunction,
  mineFunctionAvailable,
  mineIsLocal,
  parseMineFunction,
} from './_mine-functions.js';
import { isMapping } from './_traverse.js';

/** Sends an aes load to the master: true once it answered, false (logged) when it could not be sent. */
async function sendToMaster(ctx: ExecContext, load: Record<string, unknown>): Promise<boolean> {
  try {
    if (!ctx.master) throw new Error(`minion ${ctx.id} has no connection to a master here`);
    await ctx.master.request({ ...load, id: ctx.id });
    return true;
  } catch (err) {
    ctx.log.warn({ cmd: load.cmd, err: (err as Error).message }, 'Unable to send mine data to master.');
    return false;
  }
}

async function localStore(ctx: ExecContext): Promise<Record<string, unknown>> {
  const data = await ctx.call('data.get', ['mine_cache']);
  return isMapping(data) ? data : {};
}

/** Salt's `_mine_store`: merges (or, with `clear`, replaces) `data` into this minion's mine. */
async function store(ctx: ExecContext, data: Record<string, unknown>, clear = false): Promise<unknown> {
  if (mineIsLocal(ctx)) {
    const merged = clear ? data : { ...(await localStore(ctx)), ...data };
    return ctx.call('data.update', ['mine_cache', merged]);
  }
  return sendToMaster(ctx, { cmd: '_mine', data, clear });
}

/** Runs one mine function; undefined (logged, as Salt logs it) when it throws. */
async function runMineFunction(
  ctx: ExecContext,
  f: MineFunction,
  caller: string,
): Promise<{ value: unknown } | undefined> {
  try {
    return { value: await ctx.call(f.fun, f.args, f.kwargs) };
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, `Function ${f.fun} in ${caller} failed to execute`);
    return undefined;
  }
}

function stored(f: MineFunction, value: unknown): unknown {
  return f.allowTgt ? wrapAcl(value, f.allowTgt, f.allowTgtType) : value;
}

/** The functions `mine.update` runs: the argument, or the configured ones (undefined: nothing to do). */
function updateSet(ctx: ExecContext, given: unknown): Record<string, unknown> | undefined {
  if (!given) {
    const configured = configuredMineFunctions(ctx);
    return Object.keys(configured).length > 0 ? configured : undefined;
  }
  if (Array.isArray(given)) return Object.fromEntries(given.map((f) => [String(f), {}]));
  return isMapping(given) ? given : undefined;
}

/** `{minion: data}` (or by function) from the minion's own masterless mine. */
async function localGet(ctx: ExecContext, tgt: unknown, fun: unknown, tgtType: string): Promise<unknown> {
  const ret: Record<string, unknown> = {};
  if (!(await ctx.call(`match.${tgtType}`, [tgt]))) return ret;
  const data = await localStore(ctx);
  const asked = requestedFunctions(fun);
  if (!asked) return ret;
  for (const f of asked.functions) {
    if (!Object.hasOwn(data, f)) continue;
    const entry = data[f];
    const acl = aclEntry(entry);
    addResult(ret, asked, f, ctx.id, acl ? acl.data : entry);
  }
  return ret;
}

const CLI = (lines: string) => `\n\nCLI Example:\n\n    ${lines.split('\n').join('\n    ')}`;

export default defineModule({
  name: 'mine',
  doc: 'The function cache system allows for data to be stored on the master so it can be easily read by other minions.',
  functions: {
    update: defineFunction({
      args: (z) => z.object({ clear: pyFlag(z, false), mine_functions: z.unknown().optional() }),
      doc: `Call the configured functions (\`mine_functions\` from the minion config and the pillar) and send the data back up to the master. With \`clear\` the mine is replaced instead of updated; \`mine_functions\` updates only these.${CLI("salt '*' mine.update")}`,
      run: async (ctx, a) => {
        const functions = updateSet(ctx, a.mine_functions);
        if (!functions) return null;
        const data: Record<string, unknown> = {};
        for (const [alias, definition] of Object.entries(functions)) {
          const f = parseMineFunction(alias, definition);
          if (!(await mineFunctionAvailable(ctx, f.fun))) continue;
          const got = await runMineFunction(ctx, f, 'mine.update');
          if (got) data[alias] = stored(f, got.value);
        }
        return store(ctx, data, a.clear);
      },
    }),
    send: defineFunction({
      args: (z) => z.object({ name: z.string({ error: 'name must be a string' }).min(1) }),
      varargs: true,
      varkw: true,
      doc: `Send a specific function and its result to the salt mine. \`mine_function\` names the function to run (default: name); \`allow_tgt\`/\`allow_tgt_type\` limit which minions may read it. Remaining arguments go to the function.${CLI("salt '*' mine.send network.ip_addrs interface=eth0\nsalt '*' mine.send eth0_ip_addrs mine_function=network.ip_addrs interface=eth0")}`,
      run: async (ctx, a, extra) => {
        const clean = cleanKwargs(extra.kwargs);
        const { mine_function, allow_tgt, allow_tgt_type, ...kwargs } = clean;
        const f: MineFunction = {
          alias: a.name,
          fun: typeof mine_function === 'string' && mine_function ? mine_function : a.name,
          named: Boolean(mine_function),
          args: extra.args,
          kwargs,
        };
        if (allow_tgt) Object.assign(f, { allowTgt: allow_tgt, allowTgtType: allow_tgt_type || undefined });
        const got = await runMineFunction(ctx, f, 'mine.send');
        if (!got) return false;
        return store(ctx, { [a.name]: stored(f, got.value) });
      },
    }),
    get: defineFunction({
      args: (z) =>
        z.object({
          tgt: z.unknown(),
          fun: z.unknown(),
          tgt_type: z.string().default('glob'),
          exclude_minion: pyFlag(z, false),
        }),
      doc: `Get data from the mine: \`{minion: data}\` for one function, \`{function: {minion: data}}\` for a list or comma-separated functions. Pillar matches (alone or in a compound target) are exact.${CLI("salt '*' mine.get '*' network.interfaces\nsalt '*' mine.get 'os:Fedora' network.interfaces grain\nsalt '*' mine.get 'G@os:Fedora and S@192.168.5.0/24' network.ipaddrs compound")}`,
      run: async (ctx, a) => {
        if (mineIsLocal(ctx)) return localGet(ctx, a.tgt, a.fun, a.tgt_type);
        if (!ctx.master) return {};
        const load = { cmd: '_mine_get', id: ctx.id, tgt: a.tgt, fun: a.fun, tgt_type: a.tgt_type };
        const ret = await ctx.master.request(load);
        if (a.exclude_minion && isMapping(ret)) delete ret[ctx.id];
        return ret;
      },
    }),
    delete: defineFunction({
      args: (z) => z.object({ fun: z.string({ error: 'fun must be a string' }) }),
      doc: `Remove specific function contents of minion.${CLI("salt '*' mine.delete 'network.interfaces'")}`,
      run: async (ctx, a) => {
        if (!mineIsLocal(ctx)) return sendToMaster(ctx, { cmd: '_mine_delete', fun: a.fun });
        const data = await localStore(ctx);
        delete data[a.fun];
        return ctx.call('data.update', ['mine_cache', data]);
      },
    }),
    flush: defineFunction({
      doc: `Remove all mine contents of minion.${CLI("salt '*' mine.flush")}`,
      run: (ctx) =>
        mineIsLocal(ctx)
          ? ctx.call('data.update', ['mine_cache', {}])
          : sendToMaster(ctx, { cmd: '_mine_flush' }),
    }),
    valid: defineFunction({
      doc: `List valid entries in mine configuration.${CLI("salt '*' mine.valid")}`,
      run: async (ctx) => {
        const functions = configuredMineFunctions(ctx);
        if (Object.keys(functions).length === 0) return null;
        const ret: Record<string, unknown> = {};
        for (const [alias, definition] of Object.entries(functions)) {
          const f = parseMineFunction(alias, definition);
          if (!(await mineFunctionAvailable(ctx, f.fun))) continue;
          ret[alias] = f.named
            ? { [f.fun]: [...f.args, ...Object.entries(f.kwargs).map(([k, v]) => ({ [k]: v }))] }
            : definition;
        }
        return ret;
      },
    }),
  },
});
