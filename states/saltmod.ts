/**
 * Salt's `salt` state module (`salt/states/saltmod.py`), the states of orchestration: run a
 * state run (`salt.state`) or an execution function (`salt.function`) on targeted minions, a
 * runner (`salt.runner`) or a wheel function (`salt.wheel`) on the master, or wait for events
 * on the master's bus (`salt.wait_for_event`, `_salt-wait-event.ts`). They reach the
 * minions and the master through `saltutil.cmd`, `saltutil.runner` and `saltutil.wheel`, which
 * the orchestration runner's master-side context provides.
 */
import type { z as Zod } from 'zod';
import { pyTruthy } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { parallelRunnersState } from './_salt-parallel.js';
import { waitForEvent } from './_salt-wait-event.js';

type Returns = Record<string, Record<string, unknown>>;

/** The arguments `salt.state` and `salt.function` share, as Salt lists them first. */
const head = (z: typeof Zod) => ({
  name: z.string(),
  tgt: z.union([z.string(), z.array(z.string())]),
  ssh: z.boolean().default(false),
  tgt_type: z.string().default('glob'),
  ret: z.string().default(''),
  // Salt hands these to the returner named by `ret`
  ret_config: z.unknown().optional(),
  ret_kwargs: z.unknown().optional(),
});

/** `fail_minions` as a list, or a warning when it is neither a list nor a string. */
function failMinions(value: unknown, ret: StateReturn): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(',').map((m) => m.trim());
  if (Array.isArray(value)) return value.map(String);
  ret.warnings = [
    ...(ret.warnings ?? []),
    "'fail_minions' needs to be a list or a comma separated string. Ignored.",
  ];
  return [];
}

/** Salt's `check_result(ret, recurse=True)` for one minion's state return. */
function stateSucceeded(ret: unknown): boolean {
  if (!ret || typeof ret !== 'object' || Array.isArray(ret) || Object.keys(ret).length === 0) return false;
  return Object.values(ret).every((r) => {
    if (!r || typeof r !== 'object') return false;
    const result = (r as { result?: unknown }).result;
    return result === undefined ? stateSucceeded(r) : result !== false;
  });
}

function jidOf(cmdRet: Returns): string | undefined {
  const first = Object.values(cmdRet)[0];
  return first && typeof first.jid === 'string' ? first.jid : undefined;
}

function cmdOptions(a: Record<string, unknown>, ctx: StateContext): Record<string, unknown> {
  const kw: Record<string, unknown> = { tgt_type: a.tgt_type, ret: a.ret, timeout: a.timeout };
  if (a.batch !== undefined && a.batch !== null) kw.batch = String(a.batch);
  if (a.subset !== undefined && a.subset !== null) kw.subset = a.subset;
  if (a.failhard === true || ctx.opts.failhard === true) kw.failhard = true;
  kw.expect_minions = a.expect_minions;
  if (a.ret_config) kw.ret_config = a.ret_config;
  if (a.ret_kwargs) kw.ret_kwargs = a.ret_kwargs;
  return kw;
}

/** Salt's masterless check in `salt.state`: a minion (not the master's own) with `file_client: local`. */
function masterlessMinion(ctx: StateContext): boolean {
  return (ctx.opts.__role ?? 'minion') === 'minion' && ctx.opts.file_client === 'local';
}

/** A masterless `salt.state`: the state run on this minion itself (`tgt` ignored), shaped as `saltutil.cmd` returns. */
async function runHere(
  ctx: StateContext,
  fun: string,
  target: Record<string, unknown>,
  kwarg: Record<string, unknown>,
): Promise<Returns> {
  const ret = await ctx.call(fun, [], { ...target, ...kwarg });
  const out =
    ret &&
    typeof ret === 'object' &&
    !Array.isArray(ret) &&
    typeof (ret as { out?: unknown }).out === 'string'
      ? (ret as { out: string }).out
      : 'highstate';
  return { [ctx.id]: { ret, out } };
}

async function stateRun(ctx: StateContext, a: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name: String(a.name), changes: {}, comment: '', result: true };
  const allowFail = Number.parseInt(String(a.allow_fail ?? 0), 10);
  if (Number.isNaN(allowFail)) {
    return { ...ret, result: false, comment: "Passed invalid value for 'allow_fail', must be an int" };
  }
  let fun: string;
  const arg: unknown[] = [];
  if (a.highstate) fun = 'state.highstate';
  else if (a.top) {
    fun = 'state.top';
    arg.push(a.top);
  } else if (a.sls) {
    fun = 'state.sls';
    arg.push(Array.isArray(a.sls) ? a.sls.join(',') : a.sls);
  } else return { ...ret, result: false, comment: 'No highstate or sls specified, no execution made' };
  const kwarg: Record<string, unknown> = {};
  if ((a.test !== undefined && a.test !== null) || ctx.test) kwarg.test = a.test ?? ctx.test;
  if (a.pillar) kwarg.pillar = a.pillar;
  for (const k of ['pillarenv', 'saltenv', 'exclude'])
    if (a[k] !== undefined && a[k] !== null) kwarg[k] = a[k];
  kwarg.queue = a.queue ?? false;
  kwarg.concurrent = a.concurrent ?? false;
  const cmdRet = masterlessMinion(ctx)
    ? await runHere(ctx, fun, a.top ? { topfn: arg.join('') } : a.sls ? { mods: arg.join('') } : {}, kwarg)
    : ((await ctx.call('saltutil.cmd', [a.tgt, fun], { ...cmdOptions(a, ctx), arg, kwarg })) as Returns);
  const jid = jidOf(cmdRet);
  if (jid) ret.__jid__ = jid;
  const allowed = failMinions(a.fail_minions, ret);
  if (Object.keys(cmdRet).length === 0 && a.expect_minions !== false) {
    return { ...ret, result: false, comment: 'No minions returned' };
  }
  const changes: Record<string, unknown> = {};
  const fail: string[] = [];
  const noChange: string[] = [];
  for (const [minion, mdata] of Object.entries(cmdRet)) {
    const mRet = 'ret' in mdata ? mdata.ret : mdata.return;
    const ok = !mdata.failed && ('ret' in mdata || 'return' in mdata) && stateSucceeded(mRet);
    if (!ok) {
      if (!allowed.includes(minion)) fail.push(minion);
      changes[minion] = mRet ?? false;
      continue;
    }
    const changed = Object.values(mRet as Record<string, unknown>).some(
      (s) => s && typeof s === 'object' && Object.keys((s as { changes?: object }).changes ?? {}).length > 0,
    );
    if (changed) changes[minion] = mRet;
    else noChange.push(minion);
  }
  if (Object.keys(changes).length > 0) ret.changes = { out: 'highstate', ret: changes };
  if (fail.length > allowFail) {
    ret.result = false;
    ret.comment = `Run failed on minions: ${fail.join(', ')}`;
  } else {
    ret.comment = 'States ran successfully.';
    if (Object.keys(changes).length > 0) ret.comment += ` Updating ${Object.keys(changes).join(', ')}.`;
    if (noChange.length > 0) ret.comment += ` No changes made to ${noChange.join(', ')}.`;
  }
  if ((a.test || ctx.test) && Object.keys(ret.changes).length > 0 && ret.result === true) ret.result = null;
  return ret;
}

async function functionRun(ctx: StateContext, a: Record<string, unknown>): Promise<StateReturn> {
  const ret: StateReturn = { name: String(a.name), changes: {}, comment: '', result: true };
  let arg = a.arg ?? [];
  if (typeof arg === 'string') {
    ret.warnings = ["Please specify 'arg' as a list of arguments."];
    arg = arg.split(/\s+/).filter((w) => w !== '');
  }
  if (ctx.test) {
    return {
      ...ret,
      result: null,
      comment: `Function ${String(a.name)} would be executed on target ${String(a.tgt)}`,
    };
  }
  let cmdRet: Returns;
  try {
    cmdRet = (await ctx.call('saltutil.cmd', [a.tgt, a.name], {
      ...cmdOptions(a, ctx),
      arg,
      kwarg: a.kwarg ?? {},
    })) as Returns;
  } catch (err) {
    return { ...ret, result: false, comment: err instanceof Error ? err.message : String(err) };
  }
  const jid = jidOf(cmdRet);
  if (jid) ret.__jid__ = jid;
  const allowed = failMinions(a.fail_minions, ret);
  const changes: Record<string, unknown> = {};
  const fail = new Set<string>();
  for (const [minion, mdata] of Object.entries(cmdRet)) {
    if (mdata.retcode) {
      ret.result = false;
      fail.add(minion);
    }
    const mRet = mdata.failed ? false : 'ret' in mdata ? mdata.ret : mdata.return;
    // Salt's `fail_function`: an execution function given the return says whether it succeeded
    const ok =
      !mdata.failed &&
      mRet !== false &&
      (!a.fail_function || pyTruthy(await ctx.call(String(a.fail_function), [mRet])));
    if (!ok && !allowed.includes(minion)) fail.add(minion);
    changes[minion] = mRet;
  }
  if (Object.keys(cmdRet).length === 0) return { ...ret, result: false, comment: 'No minions responded' };
  if (Object.keys(changes).length > 0) ret.changes = { ret: changes };
  if (fail.size > 0) {
    ret.result = false;
    ret.comment = `Running function ${String(a.name)} failed on minions: ${[...fail].join(', ')}`;
  } else ret.comment = 'Function ran successfully.';
  if (Object.keys(changes).length > 0)
    ret.comment += ` Function ${String(a.name)} ran on ${Object.keys(changes).join(', ')}.`;
  return ret;
}

async function masterRun(
  ctx: StateContext,
  kind: 'runner' | 'wheel',
  name: string,
  kwargs: Record<string, unknown>,
): Promise<StateReturn> {
  const label = kind === 'runner' ? 'Runner' : 'Wheel';
  if (ctx.test)
    return { name, result: null, changes: {}, comment: `${label} function '${name}' would be executed.` };
  const full = kind === 'runner' ? { full_return: true } : {};
  const out = (await ctx.call(`saltutil.${kind}`, [name], { ...kwargs, ...full })) as Record<string, unknown>;
  const value = out && typeof out === 'object' && 'return' in out ? out.return : out;
  let success = out && typeof out === 'object' && 'success' in out ? out.success !== false : true;
  if (value && typeof value === 'object' && !Array.isArray(value) && 'Error' in value) success = false;
  const ret: StateReturn = {
    name,
    changes: { return: value },
    result: success,
    comment: `${label} function '${name}' ${success ? 'executed' : 'failed'}.`,
  };
  if (out && typeof out === 'object' && typeof out.jid === 'string') ret.__jid__ = out.jid;
  return ret;
}

export default defineStateModule({
  name: 'salt',
  doc: 'Control the Salt command interface from orchestration: state runs, functions, runners and wheel calls.',
  functions: {
    state: defineState({
      args: (z) =>
        z.object({
          ...head(z),
          highstate: z.boolean().nullish(),
          sls: z.union([z.string(), z.array(z.string())]).nullish(),
          top: z.string().nullish(),
          saltenv: z.string().nullish(),
          test: z.boolean().nullish(),
          pillar: z.record(z.string(), z.unknown()).nullish(),
          pillarenv: z.string().nullish(),
          expect_minions: z.boolean().default(true),
          exclude: z.unknown().optional(),
          fail_minions: z.unknown().optional(),
          allow_fail: z.union([z.number(), z.string()]).default(0),
          concurrent: z.boolean().default(false),
          timeout: z.number().nullish(),
          batch: z.union([z.string(), z.number()]).nullish(),
          queue: z.boolean().default(false),
          subset: z.number().nullish(),
          orchestration_jid: z.string().nullish(),
          failhard: z.boolean().nullish(),
        }),
      varkw: true,
      doc: 'Invoke a state run on a given target.',
      run: (ctx, a) => stateRun(ctx, a),
    }),
    function: defineState({
      args: (z) =>
        z.object({
          ...head(z),
          expect_minions: z.boolean().default(false),
          fail_minions: z.unknown().optional(),
          fail_function: z.string().nullish(),
          arg: z.union([z.string(), z.array(z.unknown())]).nullish(),
          kwarg: z.record(z.string(), z.unknown()).nullish(),
          timeout: z.number().nullish(),
          batch: z.union([z.string(), z.number()]).nullish(),
          subset: z.number().nullish(),
          failhard: z.boolean().nullish(),
        }),
      varkw: true,
      doc: 'Execute a single module function on a remote minion via salt or salt-ssh.',
      run: (ctx, a) => functionRun(ctx, a),
    }),
    wait_for_event: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          id_list: z.array(z.unknown()),
          event_id: z.string().default('id'),
          timeout: z.number().default(300),
          node: z.string().default('master'),
        }),
      doc: 'Watch the master event bus and block until the given tag has been seen for each id in id_list.',
      run: (ctx, a) => waitForEvent(ctx, a),
    }),
    parallel_runners: parallelRunnersState,
    runner: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Execute a runner module on the master.',
      run: (ctx, a, extra) => masterRun(ctx, 'runner', a.name, extra.kwargs),
    }),
    wheel: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Execute a wheel module on the master.',
      run: (ctx, a, extra) => masterRun(ctx, 'wheel', a.name, extra.kwargs),
    }),
  },
});
