/**
 * One state run of a job (Salt's `salt/modules/state.py` around `HighState` and
 * `State.call_high`): the test flag, saltenv and pillar of the call, the lock against a second
 * run (`_check_queue`, `queue=True` waits), compiling high data to low chunks, running them,
 * and the retcode Salt sets (1 when the run did not compile, 2 when a state failed).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ExecContext, RetcodeResult, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { jidToTime, pyTruthy } from '../kernel/util.js';
import { mergePillar } from '../plugins/pillar/index.js';
import type { TopMinion, TopOptions } from '../plugins/states/compile/index.js';
import { highToLow } from '../plugins/states/compile/index.js';
import type {
  HighData,
  LowChunk,
  RunContext,
  SlsRenderer,
  SlsSource,
  StateRunResult,
} from '../plugins/states/index.js';
import { runChunks } from '../plugins/states/runtime/index.js';
import type { FileClient } from './_file-client.js';
import { fileClientOf } from './_file-client-of.js';
import { runningJobs } from './_proc-jobs.js';
import { slsRenderer, slsSource } from './_state-files.js';
import { runPillar } from './_state-pillar.js';

/** Salt's `EX_STATE_COMPILER_ERROR` and `EX_STATE_FAILURE`. */
export const EX_STATE_COMPILER_ERROR = 1;
export const EX_STATE_FAILURE = 2;

/** What every state function of a job shares: the call's flags and where its files come from. */
export interface StateCall {
  ctx: ExecContext;
  test: boolean;
  /** The saltenv of `state.sls` (`base` when none is given or configured). */
  saltenv: string;
  /** The saltenv a highstate is limited to, when one was given or configured. */
  highstateEnv: string | null;
  pillar: Readonly<Record<string, unknown>>;
  /** Fire a progress event per state (`state_events`, or the call's `state_events=True`). */
  stateEvents: boolean;
  fc: FileClient;
  source: SlsSource;
  render: SlsRenderer;
  minion: TopMinion;
  top: TopOptions;
}

/** The keywords every `state.*` function takes besides its own. */
export interface StateKwargs {
  test?: unknown;
  saltenv?: unknown;
  pillarenv?: unknown;
  pillar?: unknown;
  queue?: unknown;
  concurrent?: unknown;
  [kw: string]: unknown;
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Salt's `_get_test_value`: the `test` argument, else the minion's `test` option. */
export function testValue(ctx: ExecContext, test: unknown): boolean {
  if (test !== undefined && test !== null) return pyTruthy(test);
  return ctx.opts.test === true;
}

/** Salt's checks of a call's `pillar=` (a mapping unless `pillar_enc`) and `saltenv` (`lock_saltenv`). */
function checkKwargs(ctx: ExecContext, kw: StateKwargs): void {
  if (
    kw.pillar !== undefined &&
    kw.pillar !== null &&
    (kw.pillar_enc === undefined || kw.pillar_enc === null) &&
    (typeof kw.pillar !== 'object' || Array.isArray(kw.pillar))
  )
    throw new SALT_ERR_INVOCATION(
      'Pillar data must be formatted as a dictionary, unless pillar_enc is specified.',
    );
  const given = kw.saltenv === undefined || kw.saltenv === null ? null : String(kw.saltenv);
  if (given !== null && ctx.opts.lock_saltenv === true && given !== ctx.opts.saltenv)
    throw new Error('lock_saltenv is enabled, saltenv cannot be changed');
}

/**
 * The call's state-run settings (Salt's `get_sls_opts`): `pillar=` must be a mapping, and with
 * `lock_saltenv` a `saltenv=` other than the configured one is refused (Salt's errors).
 */
export function stateCall(
  ctx: ExecContext,
  kw: StateKwargs,
  /** The run's pillar before `pillar=` (default: the minion's in-memory pillar). */
  compiled?: Readonly<Record<string, unknown>>,
): StateCall {
  checkKwargs(ctx, kw);
  const base = compiled ?? record(ctx.opts.pillar);
  const pillar = kw.pillar ? mergePillar({ ...base }, record(kw.pillar)) : base;
  const highstateEnv = str(kw.saltenv) ?? str(ctx.opts.saltenv);
  const fc = fileClientOf(ctx);
  const o = ctx.opts;
  return {
    ctx,
    test: testValue(ctx, kw.test),
    saltenv: highstateEnv ?? 'base',
    highstateEnv,
    pillar,
    stateEvents:
      kw.state_events === undefined || kw.state_events === null
        ? o.state_events === true
        : pyTruthy(kw.state_events),
    fc,
    source: slsSource(fc),
    render: slsRenderer(ctx, fc, pillar),
    minion: {
      id: ctx.id,
      grains: ctx.grains,
      pillar,
      nodegroups: record(o.nodegroups),
    },
    top: {
      state_top: str(o.state_top) ?? 'top.sls',
      top_file_merging_strategy: str(o.top_file_merging_strategy) ?? 'merge',
      env_order: Array.isArray(o.env_order) ? o.env_order.map(String) : [],
      default_top: str(o.default_top) ?? 'base',
      state_top_saltenv: str(o.state_top_saltenv),
      saltenv: highstateEnv,
    },
  };
}

/**
 * A minion's state call with the pillar compiled afresh for it (Salt's `State.__init__`,
 * _state-pillar.ts); `always` where Salt passes no initial pillar (`low`, `show_state_usage`).
 */
export async function freshStateCall(ctx: ExecContext, kw: StateKwargs, always = false): Promise<StateCall> {
  checkKwargs(ctx, kw);
  return stateCall(ctx, kw, await runPillar(ctx, kw, always));
}

/** Salt's `state.running`: a sentence for each other state job running on this minion. */
export function runningStates(ctx: ExecContext): string[] {
  return runningJobs(ctx.opts, ctx.jid)
    .filter((d) => typeof d.fun === 'string' && d.fun.startsWith('state.'))
    .map(
      (d) =>
        `The function "${String(d.fun)}" is running as PID ${String(d.pid)} and was started at ${jidToTime(String(d.jid))} with jid ${String(d.jid)}`,
    );
}

/**
 * Salt's `_check_queue`: with `queue` (or `state_queue`) true, waits until the state jobs
 * started before this one end; otherwise the conflict sentences (retcode 1), or undefined.
 */
export async function checkQueue(
  ctx: ExecContext,
  kw: StateKwargs,
): Promise<RetcodeResult<string[]> | undefined> {
  const queue =
    kw.queue === undefined || kw.queue === null ? ctx.opts.state_queue === true : pyTruthy(kw.queue);
  if (queue) {
    const prior = () =>
      runningJobs(ctx.opts, ctx.jid).some(
        (d) => typeof d.fun === 'string' && d.fun.startsWith('state.') && String(d.jid) < ctx.jid,
      );
    while (prior()) await sleep(250, undefined, { signal: ctx.signal });
    return undefined;
  }
  if (pyTruthy(kw.concurrent ?? false)) return undefined;
  const conflict = runningStates(ctx);
  return conflict.length > 0 ? new RetcodeResult(conflict, EX_STATE_COMPILER_ERROR) : undefined;
}

/** Salt's `check_onfail_requisites`, roughly: a failure some `onfail` state was waiting for. */
function expectedFailure(tag: string, chunks: readonly LowChunk[]): boolean {
  const [state, id, name] = tag.split('_|-');
  return chunks.some((c) =>
    ['onfail', 'onfail_any', 'onfail_all'].some((req) => {
      const list = Array.isArray(c[req]) ? (c[req] as unknown[]) : [];
      return list.some((r) => {
        if (typeof r === 'string') return r === id || r === name;
        return Object.entries(record(r)).some(
          ([mod, target]) => (mod === state || mod === 'sls') && (target === id || target === name),
        );
      });
    }),
  );
}

/** Salt's `check_result`: false for an empty run or a failed state nothing `onfail`ed on. */
export function checkResult(ret: StateRunResult, chunks: readonly LowChunk[] = []): boolean {
  const entries = Object.entries(ret);
  if (entries.length === 0) return false;
  return entries.every(([tag, r]) => r.result !== false || expectedFailure(tag, chunks));
}

/** The job's value: compile errors with retcode 1, a result with retcode 2 when a state failed. */
export function finish(ret: StateRunResult | string[], chunks: readonly LowChunk[] = []): unknown {
  if (Array.isArray(ret)) return new RetcodeResult(ret, EX_STATE_COMPILER_ERROR);
  return checkResult(ret, chunks) ? ret : new RetcodeResult(ret, EX_STATE_FAILURE);
}

/**
 * Salt's `State.event` with `state_events`: `salt/job/<jid>/prog/<id>/<run_num>` carrying the
 * state's result and the run's length, fired to the master as each state ends.
 */
function progressEvents(call: StateCall, length: number): RunContext['progress'] {
  const { ctx } = call;
  const link = ctx.master;
  if (!call.stateEvents || !link) return undefined;
  return (_tag, result) => {
    const load = {
      cmd: '_minion_event',
      id: ctx.id,
      jid: ctx.jid,
      tag: `salt/job/${ctx.jid}/prog/${ctx.id}/${result.__run_num__}`,
      data: { ret: result, len: length },
    };
    link
      .request(load)
      .catch((err: unknown) => ctx.log.debug({ err: String(err) }, 'state event not delivered'));
  };
}

/** Runs low chunks with the call's settings (Salt's `call_chunks`). */
export function runLow(call: StateCall, chunks: readonly LowChunk[]): Promise<StateRunResult> {
  const states = call.ctx.states;
  if (!states) throw new Error('this minion has no state loader');
  return runChunks(chunks, {
    exec: call.ctx,
    states,
    test: call.test,
    failhard: call.ctx.opts.failhard === true,
    pillar: call.pillar,
    progress: progressEvents(call, chunks.length),
  });
}

/** Salt's `call_high`: compiles high data (errors → list, retcode 1) and runs it. */
export async function callHigh(call: StateCall, high: HighData, errors: readonly string[]): Promise<unknown> {
  if (errors.length > 0) return finish([...errors]);
  const low = highToLow(high);
  if (low.errors.length > 0) return finish(low.errors);
  return finish(await runLow(call, low.chunks), low.chunks);
}
