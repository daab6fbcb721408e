/**
 * The `state` module's functions that show what a run would compile without running it
 * (Salt's `state.show_sls`, `show_low_sls`, `show_highstate`, `show_lowstate`, `show_states`, `show_top`,
 * `show_state_usage`, `sls_exists`, `id_exists`). All but `show_state_usage` refuse a pillar
 * that did not render, as Salt's do.
 */
import { defineFunction, type ExecContext, type FunctionSpec, RetcodeResult } from '../kernel/index.js';
import { compileTop } from '../plugins/states/compile/index.js';
import { statePillarKwargs } from './_pillar-enc.js';
import { cli, highstateHigh, lowOf, modsArg, modsOf, optional, shown, slsHigh } from './_state-calls.js';
import { assertPillarRendered } from './_state-pillar-check.js';
import { freshStateCall, type StateCall, type StateKwargs } from './_state-run.js';

/** The call of a showing function: Salt raises "Pillar failed to render" before it compiles. */
async function checkedCall(ctx: ExecContext, kw: StateKwargs): Promise<StateCall> {
  const call = await freshStateCall(ctx, await statePillarKwargs(ctx, kw));
  assertPillarRendered(call, kw);
  return call;
}

export const showFunctions: Record<string, FunctionSpec> = {
  show_sls: defineFunction({
    args: (z) => z.object({ mods: modsArg(z), ...optional(z, 'test', 'queue') }),
    varkw: true,
    doc: `Display the state data from a specific SLS file or files on the master.${cli('state.show_sls core,edit.vim')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await slsHigh(call, a.mods, a);
      return shown(high, errors);
    },
  }),
  show_low_sls: defineFunction({
    args: (z) => z.object({ mods: modsArg(z), ...optional(z, 'test', 'queue') }),
    varkw: true,
    doc: `Display the low data from a specific SLS file.${cli('state.show_low_sls foo')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await slsHigh(call, a.mods, a);
      const low = lowOf(high, errors, true);
      return shown(low.chunks, low.errors);
    },
  }),
  show_highstate: defineFunction({
    args: (z) => z.object(optional(z, 'queue')),
    varkw: true,
    doc: `Retrieve the highstate data from the salt master and display it.${cli('state.show_highstate')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await highstateHigh(call, a);
      // Salt's _set_retcode: check_result of no high data fails (EX_STATE_FAILURE)
      if (errors.length === 0 && Object.keys(high).length === 0) return new RetcodeResult(high, 2);
      return shown(high, errors);
    },
  }),
  show_lowstate: defineFunction({
    args: (z) => z.object(optional(z, 'queue')),
    varkw: true,
    doc: `List out the low data that will be applied to this minion.${cli('state.show_lowstate')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await highstateHigh(call, a);
      const low = lowOf(high, errors);
      return shown(low.chunks, low.errors);
    },
  }),
  show_states: defineFunction({
    args: (z) => z.object(optional(z, 'queue')),
    varkw: true,
    doc: `Returns the list of SLS files the highstate would apply, in the order they run.${cli('state.show_states')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await highstateHigh(call, a);
      const low = lowOf(high, errors);
      return shown([...new Set(low.chunks.map((c) => String(c.__sls__)))], low.errors);
    },
  }),
  show_top: defineFunction({
    args: (z) => z.object(optional(z, 'queue')),
    varkw: true,
    doc: `Return the top data that the minion will use for a highstate.${cli('state.show_top')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const top = await compileTop(call.source, call.render, call.minion, call.top);
      return shown(top.matches, top.errors);
    },
  }),
  show_state_usage: defineFunction({
    args: (z) => z.object(optional(z, 'queue')),
    varkw: true,
    doc: `Retrieve the highstate data from the salt master to analyse used and unused states.${cli('state.show_state_usage')}`,
    run: async (ctx, a, extra) => {
      const call = await freshStateCall(ctx, await statePillarKwargs(ctx, { ...extra.kwargs, ...a }), true);
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
    args: (z) => z.object({ mods: modsArg(z), ...optional(z, 'test', 'queue') }),
    varkw: true,
    doc: `Tests for the existence of a specific SLS or list of SLS files on the master.${cli('state.sls_exists core,edit.vim')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { errors } = await slsHigh(call, a.mods, a);
      return errors.length === 0;
    },
  }),
  id_exists: defineFunction({
    args: (z) => z.object({ ids: modsArg(z), mods: modsArg(z), ...optional(z, 'test', 'queue') }),
    varkw: true,
    doc: `Tests for the existence of a specific ID or list of IDs within the specified SLS file(s).${cli('state.id_exists create_myfile,update_template filestate')}`,
    run: async (ctx, a, extra) => {
      const call = await checkedCall(ctx, { ...extra.kwargs, ...a });
      const { high, errors } = await slsHigh(call, a.mods, a);
      if (errors.length > 0) return false;
      return modsOf(a.ids).every((id) => Object.hasOwn(high, id));
    },
  }),
};
