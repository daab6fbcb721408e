/**
 * Runs one low chunk's state function (Salt's `State.call` and `call_parallel` in
 * `salt/state.py`, with the `OutputUnifier` that wraps it): verifies the chunk, runs the
 * `onlyif`/`unless`/`creates` checks, calls the function with its keywords (the internal
 * ones left out) under the run's test flag (forced on for a prereq's dry run), applies
 * `check_cmd`, turns a throw into Salt's exception result, numbers and times the result,
 * honours `reload_*` and retries as `retry` says. `parallel: True` starts the function and
 * returns a placeholder that {@link Run.reconcile} fills in: Salt forks a process, tsalt runs
 * the state concurrently in the same process.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SALT_ERR_INVOCATION } from '../../../kernel/index.js';
import { type InvocationDetails, pyStr } from '../../../kernel/util.js';
import { deepCopy } from '../compile/py.js';
import type { StateReturn } from '../define.js';
import { functionKwargs } from '../keywords.js';
import { runCheck, runCheckCmd } from './checks.js';
import { exceptionComment } from './exception.js';
import { formatLog } from './format-log.js';
import { checkRefresh } from './refresh.js';
import { retryInterval, verifyRetryData } from './retry.js';
import type { Entry, Low, Run, Running } from './run-state.js';
import { durationMs, nowMicros, startTimeOf } from './tag.js';
import { verifyData } from './verify.js';

/** Salt's `content_check`: what a state function must return. */
function contentCheck(ret: unknown): asserts ret is StateReturn {
  let problem = '';
  if (!ret || typeof ret !== 'object' || Array.isArray(ret))
    problem = 'Malformed state return. Data must be a dictionary type.';
  else {
    const r = ret as Record<string, unknown>;
    if (!r.changes || typeof r.changes !== 'object' || Array.isArray(r.changes))
      problem = "'Changes' should be a dictionary.";
    else {
      const missing = ['name', 'result', 'changes', 'comment'].filter((k) => !(k in r));
      if (missing.length)
        problem = `The following keys were not present in the state return: ${missing.join(', ')}.`;
    }
  }
  if (problem) throw new Error(problem);
}

/** Salt's `unify`: a comment list joined with newlines, a result made a boolean unless None. */
export function unify(ret: Entry): Entry {
  if (Array.isArray(ret.comment))
    ret.comment = ret.comment.map((c) => (typeof c === 'string' ? c : pyStr(c))).join('\n');
  if (ret.result !== null && ret.result !== undefined) ret.result = Boolean(ret.result);
  return ret;
}

/** The saltenv a chunk's function runs in (Salt's `__env__`). */
function saltenvOf(low: Low): string {
  if (typeof low.saltenv === 'string') return low.saltenv;
  if (low.__env__ !== undefined && low.__env__ !== null) return String(low.__env__);
  return 'base';
}

/** Calls the state function itself. */
async function invoke(run: Run, low: Low, running: Running, test: boolean): Promise<Entry> {
  const ret: unknown = await run.rc.states.call(`${low.state}.${low.fun}`, functionKwargs(low), {
    test,
    saltenv: saltenvOf(low),
    low: deepCopy(low),
    pillar: run.pillar,
    running: running as Record<string, StateReturn>,
  });
  // a return that is no dict stays as it is, for callState's content check to report
  return ret !== null && typeof ret === 'object' && !Array.isArray(ret)
    ? { ...(ret as Entry) }
    : (ret as Entry);
}

/** Salt's wording for keywords a function cannot take: `'x' is ...` or `'x', 'y' and 'z' are ...`. */
export function invalidKeywordsMessage(extra: readonly string[], full: string): string {
  if (extra.length === 1) return `'${extra[0]}' is an invalid keyword argument for '${full}'`;
  const head = extra
    .slice(0, -1)
    .map((k) => `'${k}'`)
    .join(', ');
  return `${head} and '${extra.at(-1)}' are invalid keyword arguments for '${full}'`;
}

/**
 * Salt's `format_call` in `State.call`: a keyword the state function cannot take (and that is
 * not one of the state system's own) is a SaltInvocationError raised outside the state's own
 * error handling, so it ends the whole run as a call with invalid arguments.
 */
async function checkKeywords(run: Run, low: Low): Promise<void> {
  const full = `${low.state}.${low.fun}`;
  const accepts = await run.rc.states.accepts(full);
  if (!accepts || accepts === 'any') return;
  const extra = Object.keys(functionKwargs(low)).filter((k) => !accepts.includes(k));
  if (extra.length === 0) return;
  const details: InvocationDetails = { kind: 'type', fun: full };
  throw new SALT_ERR_INVOCATION(invalidKeywordsMessage(extra, full), { details });
}

/** The keyword `name` of a chunk, or its id (what an exception result is named). */
function nameOf(low: Low): unknown {
  return low.name || low.__id__;
}

/** A parallel state: runs in the background, its result timed on its own (Salt's `_call_parallel_target`). */
function callParallel(run: Run, low: Low, running: Running, test: boolean): Entry {
  const placeholder: Entry = {
    name: nameOf(low),
    result: null,
    changes: {},
    comment: 'Started in a separate process',
  };
  const attempt = async (): Promise<Entry> => {
    try {
      return unify(await invoke(run, low, running, test));
    } catch (err) {
      return { result: false, name: nameOf(low), changes: {}, comment: exceptionComment(err) };
    }
  };
  const body = async (): Promise<Entry> => {
    const start = nowMicros();
    let ret = await attempt();
    ret.start_time = startTimeOf(start);
    ret.duration = durationMs(start, nowMicros());
    ret.__parallel__ = true;
    if (!('retry' in low)) return ret;
    const retry = verifyRetryData(low.retry, run.rc.exec.log);
    if (test) {
      ret.comment = [ret.comment ? String(ret.comment) : '', wouldRetry(retry)].join('  ');
      return ret;
    }
    // as Salt: a retry's result is the function's own, its duration about nothing
    for (let n = 1; retry.attempts >= n && retry.until !== ret.result; n += 1) {
      const interval = retryInterval(retry);
      await sleep(interval * 1000, undefined, { signal: run.rc.exec.signal });
      const orig = ret;
      ret = await attempt();
      const mark = nowMicros();
      ret.duration = durationMs(mark, nowMicros());
      const said = ret.comment
        ? `Attempt ${n}: Returned a result of "${pyStr(ret.result)}", with the following comment: "${String(ret.comment)}"`
        : '';
      ret.comment = [String(orig.comment), said].join('\n');
      ret.duration = (ret.duration as number) + (orig.duration as number) + interval * 1000;
      if (n === 1) ret.start_time = orig.start_time;
    }
    return ret;
  };
  run.startParallel(placeholder, body());
  return placeholder;
}

function wouldRetry(r: { interval: number; splay: number; attempts: number; until: boolean }): string {
  return `The state would be retried every ${r.interval} seconds (with a splay of up to ${r.splay} seconds) a maximum of ${r.attempts} times or until a result of ${pyStr(r.until)} is returned`;
}

/** Runs `low`'s state function and returns its result entry (Salt's `State.call` under its `OutputUnifier`). */
export async function callState(run: Run, low: Low, running: Running, retries = 1): Promise<Entry> {
  const ret = await call(run, low, running, retries);
  try {
    contentCheck(ret);
  } catch (err) {
    // Salt's OutputUnifier replaces the whole entry
    return {
      result: false,
      name: 'later',
      changes: {},
      comment: `An exception occurred in this state: ${(err as Error).message}`,
    };
  }
  return unify(ret);
}

async function call(run: Run, low: Low, running: Running, retries: number): Promise<Entry> {
  const start = nowMicros();
  const errors = await verifyData(run.rc.states, low);
  if (errors.length > 0) {
    const ret: Entry = {
      result: false,
      name: low.name,
      changes: {},
      comment: errors.map((e) => `${e}\n`).join(''),
      __run_num__: run.nextRunNum(),
    };
    formatLog(ret, run.rc.exec.log);
    await checkRefresh(run, low, ret);
    return ret;
  }
  await checkKeywords(run, low);
  const prereq = Boolean(low.__prereq__);
  const test = prereq || run.rc.test;
  const full = `${low.state}.${low.fun}`;
  let ret: Entry = { result: false, name: low.name, changes: {} };
  try {
    if (
      ['unless', 'onlyif', 'creates'].some((k) => k in low) &&
      !(await run.rc.states.has(`${low.state}.mod_run_check`))
    ) {
      Object.assign(ret, await runCheck(run, low));
    }
    if (ret.result === false) {
      ret =
        !prereq && low.parallel
          ? callParallel(run, low, running, test)
          : await invoke(run, low, running, test);
    }
    if ('check_cmd' in low) {
      const own = await run.rc.states.has(`${low.state}.mod_run_check_cmd`);
      const accepts = await run.rc.states.accepts(full);
      if (!own || !(accepts === 'any' || accepts?.includes('check_cmd')))
        Object.assign(ret, await runCheckCmd(run, low));
    }
  } catch (err) {
    if (run.rc.exec.signal.aborted) throw err;
    ret = { result: false, name: nameOf(low), changes: {}, comment: exceptionComment(err) };
  }
  if (prereq) {
    low.__prereq__ = false;
    return ret;
  }
  // Salt's OutputUnifier around State.call replaces a malformed return whole, unstamped
  if (ret === null || typeof ret !== 'object' || Array.isArray(ret)) return ret;
  ret.__sls__ = low.__sls__ ?? null;
  ret.__run_num__ = run.nextRunNum();
  formatLog(ret, run.rc.exec.log);
  await checkRefresh(run, low, ret);
  ret.start_time = startTimeOf(start);
  ret.duration = durationMs(start, nowMicros());
  ret.__id__ = low.__id__;
  if ('retry' in low && !('parallel' in low)) ret = await retryState(run, low, running, unify(ret), retries);
  return ret;
}

/** Runs the state again while its result is not `until`, or says it would (Salt's retry in `State.call`). */
async function retryState(run: Run, low: Low, running: Running, ret: Entry, retries: number): Promise<Entry> {
  const retry = verifyRetryData(low.retry, run.rc.exec.log);
  low.retry = retry;
  if (run.rc.test) {
    ret.comment = [ret.comment ? String(ret.comment) : '', wouldRetry(retry)].join('  ');
    return ret;
  }
  if (retry.until === ret.result || retry.attempts <= retries) return ret;
  const interval = retryInterval(retry);
  run.rc.exec.log.info(
    `State result does not match retry until value, state will be re-run in ${interval} seconds`,
  );
  await sleep(interval * 1000, undefined, { signal: run.rc.exec.signal });
  const next = await callState(run, low, running, retries + 1);
  next.comment = [
    `Attempt ${retries}: Returned a result of "${pyStr(ret.result)}", with the following comment: "${String(ret.comment)}"`,
    next.comment ? String(next.comment) : '',
  ].join('\n');
  next.duration = (next.duration as number) + (ret.duration as number) + interval * 1000;
  if (retries === 1) next.start_time = ret.start_time;
  return next;
}
