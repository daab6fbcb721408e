/**
 * Salt's `state` execution module (`salt/modules/state.py`): applies SLS files and the
 * highstate, runs single states and raw high or low data, and shows what a run would compile
 * (high data, low chunks, the top file's matches; `_state-show.ts`) and keeps requests
 * (`_state-request.ts`). A run compiles on the minion from files the master's file server
 * serves (or the minion's own `file_roots`), refuses to start while another state job runs
 * unless `queue=True`, and sets Salt's retcodes: 1 when it did not compile, 2 when a state failed.
 */
import { defineFunction, defineModule, RetcodeResult } from '../kernel/index.js';
import type { HighData, LowChunk } from '../plugins/states/index.js';
import { statePillarKwargs } from './_pillar-enc.js';
import { cli, highstate, locked, lowOf, modsArg, modsOf, optional, sls, slsHigh } from './_state-calls.js';
import { disableFunctions } from './_state-disable.js';
import { eventFunctions } from './_state-event.js';
import { orchestrateFunctions } from './_state-orchestrate.js';
import { pauseFunctions } from './_state-pause.js';
import { pillarFailure } from './_state-pillar-check.js';
import { statePkg } from './_state-pkg.js';
import { requestFunctions } from './_state-request.js';
import {
  callHigh,
  EX_STATE_COMPILER_ERROR,
  finish,
  freshStateCall,
  runLow,
  runningStates,
} from './_state-run.js';
import { showFunctions } from './_state-show.js';
import { templateFunctions } from './_state-template.js';
import { verifyChunk } from './_state-verify.js';

export default defineModule({
  name: 'state',
  doc: 'Control the state system on the minion: apply SLS files and the highstate, and show what they compile to.',
  functions: {
    apply: defineFunction({
      pyName: 'apply_',
      args: (z) => z.object({ mods: modsArg(z).nullish() }),
      varkw: true,
      outputter: 'highstate',
      doc: `Apply states: with SLS names, as state.sls; without, the highstate.${cli('state.apply nginx,edit.vim test=True')}`,
      run: (ctx, a, extra) => {
        const kw = { ...extra.kwargs, ...a };
        return modsOf(a.mods).length > 0 ? sls(ctx, a.mods, kw) : highstate(ctx, kw);
      },
    }),
    sls: defineFunction({
      args: (z) =>
        z.object({
          mods: modsArg(z),
          ...optional(z, 'test', 'exclude', 'queue', 'sync_mods', 'state_events'),
        }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute the states in one or more SLS files.${cli('state.sls core,edit.vim pillar=\'{"foo": "bar"}\'')}`,
      run: (ctx, a, extra) => sls(ctx, a.mods, { ...extra.kwargs, ...a }),
    }),
    highstate: defineFunction({
      args: (z) => z.object(optional(z, 'test', 'queue', 'state_events')),
      varkw: true,
      outputter: 'highstate',
      doc: `Retrieve the state data from the salt master for this minion and execute it.${cli('state.highstate test=True')}`,
      run: (ctx, a, extra) => highstate(ctx, { ...extra.kwargs, ...a }),
    }),
    top: defineFunction({
      args: (z) => z.object({ topfn: z.string(), ...optional(z, 'test', 'queue') }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute a specific top file instead of the default.${cli('state.top reverse_top.sls saltenv=dev')}`,
      run: (ctx, a, extra) => highstate(ctx, { ...extra.kwargs, ...a }, a.topfn),
    }),
    test: defineFunction({
      varargs: true,
      varkw: true,
      outputter: 'highstate',
      doc: `Run state.apply with test=True.${cli('state.test nginx')}`,
      run: (ctx, _a, extra) => {
        // Salt's test(*args, **kwargs): state.apply's mods, positional or by name
        const { mods = extra.args[0], ...rest } = extra.kwargs;
        const kw = { ...rest, test: true };
        return modsOf(mods).length > 0 ? sls(ctx, mods, kw) : highstate(ctx, kw);
      },
    }),
    sls_id: defineFunction({
      args: (z) =>
        z.object({ id_: z.string(), mods: modsArg(z), ...optional(z, 'test', 'queue', 'state_events') }),
      varkw: true,
      outputter: 'highstate',
      doc: `Call a single ID from the named SLS files.${cli('state.sls_id my_state my_module')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () => {
          const kw = { ...extra.kwargs, ...a };
          const call = await freshStateCall(ctx, await statePillarKwargs(ctx, kw));
          const failed = pillarFailure(call, kw);
          if (failed) return failed;
          const { high, errors } = await slsHigh(call, a.mods, kw);
          const low = lowOf(high, errors);
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
          const call = await freshStateCall(
            ctx,
            await statePillarKwargs(ctx, { ...extra.kwargs, test: a.test }),
          );
          const chunk: LowChunk = {
            ...args,
            state: a.fun.slice(0, dot),
            fun: a.fun.slice(dot + 1),
            __id__: a.name,
            name: a.name,
          };
          // Salt's verify_data first: a missing function or argument is a list, retcode 1
          const errors = await verifyChunk(ctx, chunk);
          if (errors.length > 0) return new RetcodeResult(errors, EX_STATE_COMPILER_ERROR);
          return finish(await runLow(call, [chunk]));
        }),
    }),
    high: defineFunction({
      args: (z) => z.object({ data: z.record(z.string(), z.unknown()), ...optional(z, 'test', 'queue') }),
      varkw: true,
      outputter: 'highstate',
      doc: `Execute the compound calls stored in a single set of high data.${cli('state.high \'{"vim": {"pkg": ["installed"]}}\'')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () =>
          callHigh(
            await freshStateCall(ctx, await statePillarKwargs(ctx, { ...extra.kwargs, ...a })),
            a.data as HighData,
            [],
          ),
        ),
    }),
    low: defineFunction({
      args: (z) => z.object({ data: z.record(z.string(), z.unknown()), queue: z.unknown().optional() }),
      varkw: true,
      doc: `Execute a single low data call.${cli('state.low \'{"state": "pkg", "fun": "installed", "name": "vi"}\'')}`,
      run: (ctx, a, extra) =>
        locked(ctx, { ...extra.kwargs, ...a }, async () => {
          const d = a.data;
          const errors = await verifyChunk(ctx, d as LowChunk);
          if (errors.length > 0) return new RetcodeResult(errors, EX_STATE_COMPILER_ERROR);
          const chunk = { __id__: String(d.name), ...d } as LowChunk;
          const ret = await runLow(await freshStateCall(ctx, extra.kwargs, true), [chunk]);
          const one = Object.values(ret)[0];
          return one && one.result === false ? new RetcodeResult(one, 2) : one;
        }),
    }),
    pkg: defineFunction({
      args: (z) =>
        z.object({
          pkg_path: z.unknown(),
          pkg_sum: z.unknown(),
          hash_type: z.unknown(),
          test: z.unknown().default(null),
        }),
      varkw: true,
      outputter: 'highstate',
      doc: `Run a packaged state run: a tarball of low chunks, pillar and files as salt-ssh makes it, checked against its hash first.${cli('state.pkg /tmp/salt_state.tgz 760a9353810e36f6d81416366fc426dc md5')}`,
      run: (ctx, a, extra) =>
        statePkg(ctx, {
          pkgPath: String(a.pkg_path),
          pkgSum: String(a.pkg_sum),
          hashType: String(a.hash_type),
          test: a.test,
          kwargs: extra.kwargs,
        }),
    }),
    ...showFunctions,
    ...requestFunctions,
    ...pauseFunctions,
    ...disableFunctions,
    ...templateFunctions,
    ...orchestrateFunctions,
    ...eventFunctions,
    running: defineFunction({
      args: (z) => z.object({ concurrent: z.unknown().optional().default(false) }),
      doc: `Return a list of strings that contain state return data if a state function is already running.${cli('state.running')}`,
      run: (ctx, a) => (a.concurrent ? [] : runningStates(ctx)),
    }),
  },
});
