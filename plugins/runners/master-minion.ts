/**
 * The master's own minion for orchestration (Salt's `salt.minion.MasterMinion`): an execution
 * context on the master, named as the master is (`<hostname>_master` unless `id` is set), that
 * reads SLS files from the master's file server (`file_client: local` over its `file_roots` and
 * gitfs), runs the built-in execution modules in the runner's process, and reaches minions and
 * the master through the runner's context: `saltutil.cmd` publishes through the master,
 * `saltutil.runner` and `saltutil.wheel` call runner and wheel functions.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  callFunction,
  createModuleLoader,
  type ExecContext,
  functionTable,
  type MinionClient,
  type RunnerContext,
  type UnitLogger,
} from '../../kernel/index.js';
import { cleanKwargs } from '../../modules/_invalid-kwargs.js';
import { BUILTIN_DIRS } from '../builtin-dirs.js';
import { stateFunctions } from '../states/index.js';
import { masterId } from './runner-events.js';

export type Call = (args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>) => Promise<unknown>;

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Salt's `saltutil.cmd` on the master: `{minion: {ret, retcode, jid, out}}` for the minions that
 * returned; with `batch`, Salt's `cmd_batch` (`{minion: {out, ret}}`); with `subset`, Salt's
 * `cmd_subset`; with `expect_minions`, a minion that did not return as `{failed: true}`, and a
 * listed minion the master does not know as `{failed: true}` always, as Salt's `cmd_iter` has it.
 */
export function saltutilCmd(client: MinionClient): Call {
  return async ([tgt, fun], kw) => {
    const arg = Array.isArray(kw.arg) ? kw.arg : [];
    const kwarg = record(kw.kwarg);
    const timeout = typeof kw.timeout === 'number' ? kw.timeout : undefined;
    const batch = kw.batch !== undefined && kw.batch !== null && kw.batch !== false ? String(kw.batch) : '';
    let target = tgt as string | string[];
    let tgtType = typeof kw.tgt_type === 'string' ? kw.tgt_type : 'glob';
    if (!batch && typeof kw.subset === 'number' && kw.subset > 0) {
      // Salt's cmd_subset: `subset` of the targeted minions that have the function, at random
      const fns = await client.cmd(target, 'sys.list_functions', [], { tgtType, timeout });
      target = Object.keys(fns)
        .map((id) => ({ id, order: Math.random() }))
        .sort((x, y) => x.order - y.order)
        .map(({ id }) => id)
        .filter((id) => Array.isArray(fns[id]) && (fns[id] as unknown[]).includes(String(fun)))
        .slice(0, kw.subset);
      tgtType = 'list';
    }
    const full = await client.cmdFull(target, String(fun), arg, {
      tgtType,
      timeout,
      kwargs: kwarg,
      ...(typeof kw.ret === 'string' && kw.ret ? { ret: kw.ret } : {}),
      ...(batch ? { batch, failhard: kw.failhard === true } : {}),
    });
    const out: Record<string, unknown> = {};
    for (const [minion, r] of Object.entries(full.returns)) {
      // Salt's batch returns carry no jid or retcode
      out[minion] = batch
        ? { out: 'highstate', ret: r.return }
        : { ret: r.return, retcode: r.retcode, jid: full.jid, out: 'highstate' };
    }
    // Salt's `expect_minions`: a targeted minion that did not return is there, failed; a listed
    // minion the master does not know is there, failed, either way (Salt's `missing`)
    if (kw.expect_minions === true && !batch)
      for (const id of Object.keys(full.missing)) out[id] = { failed: true };
    for (const id of full.unknown ?? []) out[id] = { failed: true };
    return out;
  };
}

/** Salt's `saltutil.runner` with `full_return`: `{return, success}`. */
function saltutilRunner(rctx: RunnerContext): Call {
  return async ([name], kw) => {
    const kwargs = Object.fromEntries(
      Object.entries(kw).filter(([k]) => k !== 'full_return' && !k.startsWith('__')),
    );
    try {
      return { return: await rctx.call(String(name), [], kwargs), success: true };
    } catch (err) {
      return { return: err instanceof Error ? err.message : String(err), success: false };
    }
  };
}

/** Salt's `saltutil.wheel` on the master: `{return, success}`. */
function saltutilWheel(rctx: RunnerContext): Call {
  return async ([name], kw) => {
    const kwargs = cleanKwargs(kw);
    try {
      return { return: await rctx.wheel(String(name), [], kwargs), success: true };
    } catch (err) {
      return { return: err instanceof Error ? err.message : String(err), success: false };
    }
  };
}

/**
 * The master's id as `MasterMinion` names it: the master's own (`<hostname>_master` unless `id`
 * is set, when it is that id alone), as `salt-run state.orchestrate` heads its output.
 */
export function masterMinionId(opts: Readonly<Record<string, unknown>>): string {
  return masterId(opts, hostname());
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The master's own extension folders of `kind` ('modules', 'states'), first match first, as
 * Salt's loader searches them with the master's opts: `<extension_modules>/<kind>` (where
 * `salt-run saltutil.sync_<kind>` puts `salt://_<kind>`), then `module_dirs`/`states_dirs`.
 */
function extensionDirs(opts: Readonly<Record<string, unknown>>, kind: 'modules' | 'states'): string[] {
  const extmods = typeof opts.extension_modules === 'string' ? [join(opts.extension_modules, kind)] : [];
  return [...extmods, ...strings(kind === 'modules' ? opts.module_dirs : opts.states_dirs)];
}

/** An execution context on the master for a state run of runner context `rctx`. */
export function masterMinion(rctx: RunnerContext, log: UnitLogger): ExecContext {
  const extra = record(rctx.opts.extra);
  const opts = Object.freeze({ ...extra, ...rctx.opts, file_client: 'local', __role: 'master' });
  const id = masterMinionId(rctx.opts);
  const builtins: Record<string, Call> = {
    'saltutil.cmd': saltutilCmd(rctx.client),
    'saltutil.runner': saltutilRunner(rctx),
    'saltutil.wheel': saltutilWheel(rctx),
  };
  const packages = strings((opts as Readonly<Record<string, unknown>>).extensions);
  const loader = createModuleLoader({
    dirs: extensionDirs(opts, 'modules'),
    builtinDirs: [BUILTIN_DIRS.modules],
    packages,
    virtualContext: { opts, grains: {} },
    tsLoader: import.meta.url.endsWith('.ts'),
    log,
  });
  const states = createModuleLoader({
    kind: 'states',
    dirs: extensionDirs(opts, 'states'),
    builtinDirs: [BUILTIN_DIRS.states],
    packages,
    virtualContext: { opts, grains: {} },
    tsLoader: import.meta.url.endsWith('.ts'),
    log,
  });
  const ctx: ExecContext = {
    opts,
    grains: {},
    id,
    jid: rctx.jid,
    log,
    signal: rctx.signal,
    cache: loader.cache,
    functions: functionTable(loader),
    call(fun, args = [], kwargs = {}) {
      const own = builtins[fun];
      return own ? own(args, kwargs) : callFunction(loader, ctx, fun, args, kwargs);
    },
  };
  Object.defineProperty(ctx, 'states', { value: stateFunctions(states, ctx), enumerable: true });
  return ctx;
}
