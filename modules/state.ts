/**
 * Salt's `state` execution module (`salt/modules/state.py`): applies SLS files and the
 * highstate, runs single states and raw high or low data, and shows what a run would compile
 * (high data, low chunks, the top file's matches). A run compiles on the minion from files the
 * master's file server serves (or the minion's own `file_roots`), refuses to start while
 * another state job runs unless `queue=True`, and sets Salt's retcodes: 1 when it did not
 * compile, 2 when a state failed.
 */
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, type ExecContext, RetcodeResult } from '../kernel/index.js';
import { compileHighstate, compileSls, compileTop, highToLow } from '../plugins/states/compile/index.js';
import type { HighData, LowChunk } from '../plugins/states/types.js';
import { clearRequest, readRequests, writeRequests } from './_state-request.js';
import {
  callHigh,
  checkQueue,
  EX_STATE_COMPILER_ERROR,
  finish,
  runLow,
  runningStates,
  type StateCall,
  type StateKwargs,
  stateCall,
} from './_state-run.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** `mods` as Salt's `split_input`: a comma-separated string or a list. */
function modsOf(mods: unknown): string[] {
  if (mods === undefined || mods === null || mods === '') return [];
  const list = Array.isArray(mods) ? mods : String(mods).split(',');
  return list.map((m) => String(m).trim()).filter((m) => m !== '');
}

const modsArg = (z: typeof Zod) =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]);

/** The SLS files named by `mods` of the call's saltenv, compiled to high data (with `exclude`). */
function slsHigh(call: StateCall, mods: unknown, kw: StateKwargs) {
  return compileSls(call.source, call.render, modsOf(mods), call.saltenv, { exclude: kw.exclude });
}

function highstateHigh(call: StateCall, kw: StateKwargs) {
  return compileHighstate(call.source, call.render, call.minion, { ...call.top, exclude: kw.exclude });
}

/** `state.top`'s call: the highstate of another top file (and only its saltenv, when one is given). */
function withTop(call: StateCall, topfn: string, saltenv: string | null): StateCall {
  const state_top = topfn.replace(/^salt:\/\//, '');
  return {
    ...call,
    top: { ...call.top, state_top, state_top_saltenv: saltenv ?? call.top.state_top_saltenv },
  };
}

/** Runs `fn` unless another state run holds the minion (`queue=True` waits for it). */
async function locked(ctx: ExecContext, kw: StateKwargs, fn: () => Promise<unknown>): Promise<unknown> {
  const conflict = await checkQueue(ctx, kw);
  return conflict ?? fn();
}

/** A compile's value for the `show_*` functions: the data, or its errors with retcode 1. */
function shown<T>(data: T, errors: readonly string[]): T | RetcodeResult<string[]> {
  return errors.length > 0 ? new RetcodeResult([...errors], EX_STATE_COMPILER_ERROR) : data;
}

async function sls(ctx: ExecContext, mods: unknown, kw: StateKwargs): Promise<unknown> {
  return locked(ctx, kw, async () => {
    const call = stateCall(ctx, kw);
    const { high, errors } = await slsHigh(call, mods, kw);
    return callHigh(call, high, errors);
  });
}

async function highstate(ctx: ExecContext, kw: StateKwargs, topfn?: string): Promise<unknown> {
  return locked(ctx, kw, async () => {
    const base = stateCall(ctx, kw);
    const call = topfn ? withTop(base, topfn, base.highstateEnv) : base;
    const { high, errors } = await highstateHigh(call, kw);
    if (errors.length === 0 && Object.keys(high).length === 0) {
      const top = await compileTop(call.source, call.render, call.minion, call.top);
      const comment =
        Object.keys(top.matches).length === 0
          ? 'No Top file or master_tops data matches found. Please see master log for details.'
          : 'No states found for this minion';
      const ret = {
        'no_|-states_|-states_|-None': {
          result: false,
          comment,
          name: 'No States',
          changes: {},
          __run_num__: 0,
        },
      };
      return new RetcodeResult(ret, 2);
    }
    return callHigh(call, high, errors);
  });
}

/** The low chunks of high data, or the compile errors. */
function lowOf(high: HighData, errors: readonly string[], ctx: ExecContext) {
  if (errors.length > 0) return { chunks: [] as LowChunk[], errors: [...errors] };
  return highToLow(high, { stateAutoOrder: ctx.opts.state_auto_order !== false });
}

const common = (z: typeof Zod) => ({
  test: z.unknown().optional(),
  queue: z.unknown().optional(),
  saltenv: z.string().nullish(),
  pillarenv: z.string().nullish(),
  pillar: z.unknown().optional(),
  exclude: z.unknown().optional(),
});

export default defineModule({
  name: 'state',
  doc: 'Control the state system on the minion: apply SLS files and the highstate, and show what they compile to.',
  functions: {
    apply: defineFunction({
      args: (z) => z.object({ mods: modsArg(z).nullish(), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Apply states: with SLS names, as state.sls; without, the highstate.${cli('state.apply nginx,edit.vim test=True')}`,
      run: (ctx, a, extra) => {
        const kw = { ...extra.kwargs, ...a };
        return modsOf(a.mods).length > 0 ? sls(ctx, a.mods, kw) : highstate(ctx, kw);
      },
    }),
    sls: defineFunction({
      args: (z) => z.object({ mods: modsArg(z), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute the states in one or more SLS files.${cli('state.sls core,edit.vim pillar=\'{"foo": "bar"}\'')}`,
      run: (ctx, a, extra) => sls(ctx, a.mods, { ...extra.kwargs, ...a }),
    }),
    highstate: defineFunction({
      args: (z) => z.object(common(z)),
      varkw: true,
      outputter: 'highstate',
      doc: `Retrieve the state data from the salt master for this minion and execute it.${cli('state.highstate test=True')}`,
      run: (ctx, a, extra) => highstate(ctx, { ...extra.kwargs, ...a }),
    }),
    top: defineFunction({
      args: (z) => z.object({ topfn: z.string(), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute a specific top file instead of the default.${cli('state.top reverse_top.sls saltenv=dev')}`,
      run: (ctx, a, extra) => highstate(ctx, { ...extra.kwargs, ...a }, a.topfn),
    }),
    test: defineFunction({
      args: (z) => z.object({ mods: modsArg(z).nullish(), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Run state.apply with test=True.${cli('state.test nginx')}`,
      run: (ctx, a, extra) => {
        const kw = { ...extra.kwargs, ...a, test: true };
        return modsOf(a.mods).length > 0 ? sls(ctx, a.mods, kw) : highstate(ctx, kw);
      },
    }),
    sls_id: defineFunction({
      args: (z) => z.object({ id_: z.string(), mods: modsArg(z), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Call a single ID from the named SLS files.${cli('state.sls_id my_state my_module')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () => {
          const kw = { ...extra.kwargs, ...a };
          const call = stateCall(ctx, kw);
          const { high, errors } = await slsHigh(call, a.mods, kw);
          const low = lowOf(high, errors, ctx);
          if (low.errors.length > 0) return finish(low.errors);
          const chunks = low.chunks.filter((c) => c.__id__ === a.id_);
          if (chunks.length === 0)
            throw new Error(
              `No matches for ID '${a.id_}' found in SLS '${modsOf(a.mods).join(',')}' within saltenv '${call.saltenv}'`,
            );
          return finish(await runLow(call, chunks), low.chunks);
        }),
    }),
    single: defineFunction({
      args: (z) =>
        z.object({
          fun: z.string(),
          name: z.string(),
          test: z.unknown().optional(),
          queue: z.unknown().optional(),
        }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute a single state function with the named kwargs.${cli('state.single pkg.installed name=vim')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () => {
          const dot = a.fun.indexOf('.');
          if (dot <= 0) return new RetcodeResult('Invalid function passed', EX_STATE_COMPILER_ERROR);
          const args = Object.fromEntries(
            Object.entries(extra.kwargs).filter(([k]) => !k.startsWith('__pub_')),
          );
          delete args.pillar;
          delete args.saltenv;
          const call = stateCall(ctx, { ...extra.kwargs, test: a.test });
          const chunk: LowChunk = {
            ...args,
            state: a.fun.slice(0, dot),
            fun: a.fun.slice(dot + 1),
            __id__: a.name,
            name: a.name,
          };
          return finish(await runLow(call, [chunk]));
        }),
    }),
    high: defineFunction({
      args: (z) => z.object({ data: z.record(z.string(), z.unknown()), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute the compound calls stored in a single set of high data.${cli('state.high \'{"vim": {"pkg": ["installed"]}}\'')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, () =>
          callHigh(stateCall(ctx, { ...extra.kwargs, ...a }), a.data as HighData, []),
        ),
    }),
    low: defineFunction({
      args: (z) => z.object({ data: z.record(z.string(), z.unknown()), queue: z.unknown().optional() }),
      varkw: true,
      doc: `Execute a single low data call.${cli('state.low \'{"state": "pkg", "fun": "installed", "name": "vi"}\'')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () => {
          const d = a.data;
          const missing = ['state', 'fun', 'name'].filter((k) => typeof d[k] !== 'string');
          if (missing.length > 0)
            return new RetcodeResult(
              missing.map((k) => `Missing "${k}" data`),
              EX_STATE_COMPILER_ERROR,
            );
          const chunk = { __id__: String(d.name), ...d } as LowChunk;
          const ret = await runLow(stateCall(ctx, extra.kwargs), [chunk]);
          const one = Object.values(ret)[0];
          return one && one.result === false ? new RetcodeResult(one, 2) : one;
        }),
    }),
    show_sls: defineFunction({
      args: (z) => z.object({ mods: modsArg(z), ...common(z) }),
      varkw: true,
      doc: `Display the state data from a specific SLS file or files on the master.${cli('state.show_sls core,edit.vim')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { high, errors } = await slsHigh(call, a.mods, a);
        return shown(high, errors);
      },
    }),
    show_low_sls: defineFunction({
      args: (z) => z.object({ mods: modsArg(z), ...common(z) }),
      varkw: true,
      doc: `Display the low data from a specific SLS file.${cli('state.show_low_sls foo')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { high, errors } = await slsHigh(call, a.mods, a);
        const low = lowOf(high, errors, ctx);
        return shown(low.chunks, low.errors);
      },
    }),
    show_highstate: defineFunction({
      args: (z) => z.object(common(z)),
      varkw: true,
      doc: `Retrieve the highstate data from the salt master and display it.${cli('state.show_highstate')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { high, errors } = await highstateHigh(call, a);
        return shown(high, errors);
      },
    }),
    show_lowstate: defineFunction({
      args: (z) => z.object(common(z)),
      varkw: true,
      doc: `List out the low data that will be applied to this minion.${cli('state.show_lowstate')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { high, errors } = await highstateHigh(call, a);
        const low = lowOf(high, errors, ctx);
        return shown(low.chunks, low.errors);
      },
    }),
    show_top: defineFunction({
      args: (z) => z.object(common(z)),
      varkw: true,
      doc: `Return the top data that the minion will use for a highstate.${cli('state.show_top')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const top = await compileTop(call.source, call.render, call.minion, call.top);
        return shown(top.matches, top.errors);
      },
    }),
    show_state_usage: defineFunction({
      args: (z) => z.object(common(z)),
      varkw: true,
      doc: `Retrieve the highstate data from the salt master to analyse used and unused states.${cli('state.show_state_usage')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const top = await compileTop(call.source, call.render, call.minion, call.top);
        const usage: Record<string, Record<string, unknown>> = {};
        for (const env of await call.source.envs()) {
          const matched = top.matches[env] ?? [];
          const states = await call.source.listStates(env);
          const used = states.filter((s) => matched.includes(s));
          const unused = states.filter((s) => !matched.includes(s));
          usage[env] = {
            used,
            unused,
            count_all: states.length,
            count_used: used.length,
            count_unused: unused.length,
          };
        }
        return usage;
      },
    }),
    sls_exists: defineFunction({
      args: (z) => z.object({ mods: modsArg(z), ...common(z) }),
      varkw: true,
      doc: `Tests for the existence of a specific SLS or list of SLS files on the master.${cli('state.sls_exists core,edit.vim')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { errors } = await slsHigh(call, a.mods, a);
        return errors.length === 0;
      },
    }),
    id_exists: defineFunction({
      args: (z) => z.object({ ids: modsArg(z), mods: modsArg(z), ...common(z) }),
      varkw: true,
      doc: `Tests for the existence of a specific ID or list of IDs within the specified SLS file(s).${cli('state.id_exists create_myfile,update_template filestate')}`,
      run: async (ctx, a, extra) => {
        const call = stateCall(ctx, { ...extra.kwargs, ...a });
        const { high, errors } = await slsHigh(call, a.mods, a);
        if (errors.length > 0) return false;
        return modsOf(a.ids).every((id) => Object.hasOwn(high, id));
      },
    }),
    request: defineFunction({
      args: (z) =>
        z.object({ mods: modsArg(z).nullish(), name: z.string().default('default'), ...common(z) }),
      varkw: true,
      outputter: 'highstate',
      doc: `Request that the local admin execute a state run via salt-call state.run_request: the run is tested now and kept.${cli('state.request nginx')}`,
      run: async (ctx, a, extra) => {
        const { name, mods, ...rest } = a;
        const kw = { ...extra.kwargs, ...rest, test: true };
        const value = modsOf(mods).length > 0 ? await sls(ctx, mods, kw) : await highstate(ctx, kw);
        const ret = value instanceof RetcodeResult ? value.value : value;
        const reqs = await readRequests(ctx);
        const kwargs = Object.fromEntries(
          Object.entries(kw).filter(([k, v]) => v !== undefined && !k.startsWith('__')),
        );
        reqs[name] = { test_run: ret, mods: mods ?? null, kwargs };
        await writeRequests(ctx, reqs);
        return value;
      },
    }),
    check_request: defineFunction({
      args: (z) => z.object({ name: z.string().nullish() }),
      doc: `Return the state request information, if any.${cli('state.check_request')}`,
      run: async (ctx, a) => {
        const reqs = await readRequests(ctx);
        return a.name ? (reqs[a.name] ?? {}) : reqs;
      },
    }),
    clear_request: defineFunction({
      args: (z) => z.object({ name: z.string().nullish() }),
      doc: `Clear out the state execution request without executing it.${cli('state.clear_request')}`,
      run: (ctx, a) => clearRequest(ctx, a.name),
    }),
    run_request: defineFunction({
      args: (z) => z.object({ name: z.string().default('default') }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute the pending state request.${cli('state.run_request')}`,
      run: async (ctx, a, extra) => {
        const req = (await readRequests(ctx))[a.name];
        if (!req || !('mods' in req) || !('kwargs' in req)) return {};
        const { test: _test, ...kw } = { ...req.kwargs, ...extra.kwargs };
        const value = modsOf(req.mods).length > 0 ? await sls(ctx, req.mods, kw) : await highstate(ctx, kw);
        await clearRequest(ctx);
        return value;
      },
    }),
    running: defineFunction({
      args: (z) => z.object({ concurrent: z.unknown().optional() }),
      doc: `Return a list of strings that contain state return data if a state function is already running.${cli('state.running')}`,
      run: (ctx, a) => (a.concurrent ? [] : runningStates(ctx)),
    }),
  },
});
