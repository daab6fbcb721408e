/**
 * Salt's `state` runner (`salt/runners/state.py`): orchestration. `state.orchestrate` (alias
 * `orch`, `sls`) compiles SLS files from the master's file server and runs them on the master's
 * own minion (`<id>_master`), whose `salt.state`, `salt.function`, `salt.runner` states reach
 * the minions and the master; `state.orchestrate_single` runs one such state. Returns Salt's
 * `{data: {<id>_master: result}, outputter: highstate, retcode}`.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, type RunnerContext } from '../../../kernel/index.js';
import { RetcodeResult } from '../../../kernel/util.js';
import { slsHigh } from '../../../modules/_state-calls.js';
import { callHigh, checkResult, runLow, stateCall } from '../../../modules/_state-run.js';
import type { LowChunk, StateRunResult } from '../../states/index.js';
import { masterMinion } from '../master-minion.js';

const orchArgs = z.object({
  mods: z.union([z.string(), z.array(z.string())]),
  saltenv: z.string().nullish(),
  test: z.unknown().optional(),
  exclude: z.unknown().optional(),
  pillar: z.unknown().optional(),
  pillarenv: z.string().nullish(),
  pillar_enc: z.string().nullish(),
  orchestration_jid: z.string().nullish(),
});

/** Salt's orchestration return, with its retcode set on the runner. */
function orchestration(rctx: RunnerContext, id: string, value: unknown) {
  const running = value instanceof RetcodeResult ? value.value : value;
  const ok = !Array.isArray(running) && checkResult(running as StateRunResult);
  const retcode = ok ? 0 : 1;
  if (retcode !== 0) rctx.setRetcode(retcode);
  return { data: { [id]: running }, outputter: 'highstate', retcode };
}

const orchestrate = defineRunnerFunction({
  args: orchArgs,
  outputter: 'highstate',
  doc: 'Execute a state run from the master, used as a powerful orchestration system.\n\nCLI Example: salt-run state.orchestrate webserver saltenv=dev test=True',
  run: async (rctx, a) => {
    if (
      a.pillar !== undefined &&
      a.pillar !== null &&
      (typeof a.pillar !== 'object' || Array.isArray(a.pillar))
    )
      throw new Error('Pillar data must be formatted as a dictionary');
    const mm = masterMinion(rctx, rctx.log);
    const call = stateCall(mm, { test: a.test, saltenv: a.saltenv, pillar: a.pillar });
    const { high, errors } = await slsHigh(call, a.mods, { exclude: a.exclude });
    return orchestration(rctx, mm.id, await callHigh(call, high, errors));
  },
});

export default defineRunner({
  name: 'state',
  doc: 'Execute orchestration functions: state runs across minions from the master.',
  functions: {
    orchestrate,
    orch: orchestrate,
    sls: orchestrate,
    orchestrate_single: defineRunnerFunction({
      args: z.object({
        fun: z.string(),
        name: z.string(),
        test: z.unknown().optional(),
        pillar: z.unknown().optional(),
      }),
      varkw: true,
      outputter: 'highstate',
      doc: 'Execute a single state orchestration routine.\n\nCLI Example: salt-run state.orchestrate_single fun=salt.wheel name=key.list_all',
      run: async (rctx, a, extra) => {
        const mm = masterMinion(rctx, rctx.log);
        const dot = a.fun.indexOf('.');
        const call = stateCall(mm, { test: a.test, pillar: a.pillar });
        const chunk: LowChunk = {
          ...extra.kwargs,
          state: a.fun.slice(0, dot),
          fun: a.fun.slice(dot + 1),
          name: a.name,
          __id__: a.name,
        };
        return orchestration(rctx, mm.id, await runLow(call, [chunk]));
      },
    }),
  },
});
