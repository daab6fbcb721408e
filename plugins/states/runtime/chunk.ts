/**
 * Runs one low chunk after its requisites (Salt's `State.call_chunk` in `salt/state.py`):
 * an unmet requisite runs the chunks it names first (a prereq target as a dry run), a
 * requisite naming nothing gives `The following requisites were not found`, a loop gives
 * `Recursive requisite found`; then the chunk runs, or is answered without running
 * (`One or more requisite failed`, `No changes detected`, the onfail and onchanges
 * comments), or runs `mod_watch` when a watched chunk changed.
 */
import { callState } from './call.js';
import { modAggregate, modInit } from './module-hooks.js';
import type { Reqs, Status } from './requisites.js';
import { checkRequisite, matches, SALT_ERR_STATE_REQUISITE } from './requisites.js';
import type { Entry, Low, Run, Running } from './run-state.js';
import { fakeDuration, genTag, trimReq } from './tag.js';

/** How deep requisites may nest before the run gives up (Python's recursion limit stops Salt). */
const MAX_NESTING = 500;

const REQUISITES = [
  'require',
  'require_any',
  'watch',
  'watch_any',
  'prereq',
  'onfail',
  'onfail_any',
  'onchanges',
  'onchanges_any',
];

/** Salt's `check_failhard`: a failed state with `failhard` (its own or the run's) ends the run; never under test. */
export function checkFailhard(run: Run, low: Low, running: Running): boolean {
  if (run.rc.test) return false;
  const failhard = 'failhard' in low ? low.failhard : run.rc.failhard;
  const entry = running[genTag(low)];
  if (!failhard || !entry) return false;
  if (entry.result === null) return false;
  return !entry.result;
}

/** A result for a chunk that did not run, with Salt's key order. */
function notRun(
  run: Run,
  low: Low,
  comment: string,
  extra: Record<string, unknown> = {},
  result = false,
): Entry {
  const { start_time, duration } = fakeDuration();
  const entry: Entry = {
    changes: {},
    result,
    duration,
    start_time,
    comment,
    ...extra,
    __run_num__: run.nextRunNum(),
  };
  for (const key of ['__sls__', '__id__', 'name']) entry[key] = low[key] ?? null;
  return entry;
}

/**
 * Salt's `State.event` after a state: the progress event (`state_events`), or, when the chunk
 * has `fire_event`, `salt/state_result/<jid>/<minion>/<name or fire_event>` to the master in
 * its place (not under `salt-call --local`).
 */
async function fire(run: Run, low: Low, tag: string, entry: Entry | undefined): Promise<void> {
  if (!entry) return;
  const fireEvent = low.fire_event;
  if (!fireEvent) {
    run.rc.progress?.(tag, entry as Parameters<NonNullable<typeof run.rc.progress>>[1]);
    return;
  }
  if (run.rc.exec.opts.local || !(await run.rc.exec.functions.get('event.fire_master'))) return;
  const last = fireEvent === true ? String(entry.name) : String(fireEvent);
  const eventTag = `salt/state_result/${run.rc.exec.jid}/${run.rc.exec.id}/${last}`;
  try {
    await run.rc.exec.call('event.fire_master', [{ ret: entry }, eventTag]);
  } catch (err) {
    run.rc.exec.log.warn({ err, tag: eventTag }, 'firing the state result event failed');
  }
}

/** The requisites that name no chunk, and the chunks the others name (marking prereq targets). */
function lostAndFound(low: Low, kinds: readonly string[], chunks: readonly Low[]) {
  const lost: Record<string, [string, unknown][]> = {};
  const found: Low[] = [];
  for (const kind of kinds) {
    lost[kind] = [];
    if (!(kind in low)) continue;
    for (const req of [low[kind]].flat()) {
      const [key, value] = trimReq(req);
      let hit = false;
      for (const chunk of chunks) {
        if (value === null || value === undefined) continue;
        if (!matches(chunk, key, String(value))) continue;
        if (kind === 'prereq') chunk.__prereq__ = true;
        else if (kind === 'prerequired' && key !== 'sls') chunk.__prerequired__ = true;
        found.push(chunk);
        hit = true;
      }
      if (!hit) lost[kind]?.push([key, value]);
    }
  }
  return { lost, found };
}

function notFoundComment(lost: Record<string, [string, unknown][]>): string {
  let comment = 'The following requisites were not found:\n';
  for (const [kind, reqs] of Object.entries(lost)) {
    if (reqs.length === 0) continue;
    comment += `${' '.repeat(19)}${kind}:\n`;
    for (const [key, value] of reqs) comment += `${' '.repeat(23)}${key}: ${String(value)}\n`;
  }
  return comment;
}

/** The `sls.id` of each requisite that failed, for `One or more requisite failed: ...`. */
function failedRequisites(run: Run, reqs: Reqs, running: Running): string {
  const failed = new Set<string>();
  for (const lows of Object.values(reqs)) {
    for (const req of lows) {
      const tag = genTag(req);
      const r = run.pre[tag] ?? running[tag];
      if (r && r.result === false) failed.add(`${req.__sls__ ?? 'None'}.${req.__id__}`);
    }
  }
  return [...failed].join(', ');
}

/** Runs the chunks an unmet chunk waits for, then the chunk itself (Salt's `unmet` branch). */
async function resolveUnmet(
  run: Run,
  low: Low,
  running: Running,
  chunks: Low[],
  depth: number,
): Promise<Running> {
  const tag = genTag(low);
  const kinds = low.__prereq__ ? REQUISITES : [...REQUISITES, 'prerequired'];
  const { lost, found } = lostAndFound(low, kinds, chunks);
  if (Object.entries(lost).some(([kind, reqs]) => kind !== 'onfail_all' && reqs.length > 0)) {
    const runDict = low.__prereq__ ? run.pre : running;
    const entry = notRun(run, low, notFoundComment(lost));
    runDict[tag] = entry;
    await fire(run, low, tag, entry);
    return running;
  }
  let last: Low | undefined;
  for (const chunk of found) {
    last = chunk;
    const ctag = genTag(chunk);
    if (ctag in running) continue;
    if (run.active.has(ctag)) {
      if (chunk.__prerequired__) {
        // a prereq loop: dry-run this chunk first
        if (!(tag in run.pre)) {
          low.__prereq__ = true;
          run.pre[ctag] = await callState(run, low, running);
        }
        return running;
      }
      run.rc.exec.log.error('Recursive requisite found');
      running[tag] = recursive(run, low);
      await fire(run, low, tag, running[tag]);
      return running;
    }
    running = await callChunk(run, chunk, running, chunks);
    if (checkFailhard(run, chunk, running)) {
      run.failhardHit = true;
      return running;
    }
  }
  if (low.__prereq__) {
    const { status } = await checkRequisite(run, low, running, chunks);
    const ret = await callState(run, low, running);
    run.pre[tag] = ret;
    if (Object.keys(ret.changes).length === 0 && status === 'change') {
      ret.changes = { watch: 'watch' };
      ret.result = null;
    }
  } else if (depth + 1 >= 20) {
    run.rc.exec.log.error('Recursive requisite found');
    running[tag] = recursive(run, low);
  } else {
    running = await callChunk(run, low, running, chunks, depth + 1);
  }
  const lastChunk = last ?? chunks[chunks.length - 1];
  if (lastChunk && checkFailhard(run, lastChunk, running)) run.failhardHit = true;
  return running;
}

function recursive(run: Run, low: Low): Entry {
  const entry: Entry = {
    changes: {},
    result: false,
    comment: 'Recursive requisite found',
    __run_num__: run.nextRunNum(),
  };
  for (const key of ['__sls__', '__id__', 'name']) entry[key] = low[key] ?? null;
  return entry;
}

/** A chunk whose requisite failed: its prereq dry run without the changes, or Salt's comment. */
function requisiteFailed(run: Run, low: Low, running: Running, reqs: Reqs): void {
  const tag = genTag(low);
  const pre = run.pre[tag];
  if (pre) {
    if (Object.keys(pre.changes ?? {}).length > 0) pre.changes = {};
    pre.__run_num__ = run.nextRunNum();
    for (const key of ['__sls__', '__id__', 'name']) pre[key] = low[key] ?? null;
    running[tag] = pre;
    return;
  }
  const entry = notRun(run, low, `One or more requisite failed: ${failedRequisites(run, reqs, running)}`);
  running[tag] = entry;
  run.pre[tag] = entry;
}

async function answer(run: Run, low: Low, running: Running, status: Status, reqs: Reqs): Promise<void> {
  const tag = genTag(low);
  const into = low.__prereq__ ? run.pre : running;
  switch (status) {
    case 'fail':
      requisiteFailed(run, low, running, reqs);
      return;
    case 'change':
      if (low.__prereq__) break;
      {
        let ret = await callState(run, low, running);
        if (Object.keys(ret.changes).length === 0 && !ret.skip_watch) {
          const watch: Low = { ...low, sfun: low.fun, fun: 'mod_watch', __reqs__: reqs };
          ret = await callState(run, watch, running);
        }
        running[tag] = ret;
      }
      return;
    case 'pre': {
      const entry = notRun(run, low, 'No changes detected', {}, true);
      running[tag] = entry;
      run.pre[tag] = entry;
      return;
    }
    case 'onfail':
      running[tag] = notRun(
        run,
        low,
        'State was not run because onfail req did not change',
        { __state_ran__: false },
        true,
      );
      return;
    case 'onchanges':
      running[tag] = notRun(
        run,
        low,
        'State was not run because none of the onchanges reqs changed',
        { __state_ran__: false },
        true,
      );
      return;
    default:
  }
  into[tag] = await callState(run, low, running);
}

/** Salt's `call_chunk`: runs `low` (and what it waits for) into `running`. */
export async function callChunk(
  run: Run,
  given: Low,
  running: Running,
  chunks: Low[],
  depth = 0,
): Promise<Running> {
  // Salt has no guard but Python's recursion limit: a prereq loop ends the run with RecursionError
  if (run.nesting >= MAX_NESTING) {
    throw new SALT_ERR_STATE_REQUISITE(
      `maximum recursion depth exceeded resolving the requisites of ${genTag(given)}`,
    );
  }
  run.nesting += 1;
  try {
    return await chunkBody(run, given, running, chunks, depth);
  } finally {
    run.nesting -= 1;
  }
}

async function chunkBody(
  run: Run,
  given: Low,
  running: Running,
  chunks: Low[],
  depth: number,
): Promise<Running> {
  const low = await modAggregate(run, given, running, chunks);
  await modInit(run, low);
  const tag = genTag(low);
  if (!low.prerequired) run.active.add(tag);
  const { status, reqs } = await checkRequisite(run, low, running, chunks, !low.__prereq__);
  if (status === 'unmet') return resolveUnmet(run, low, running, chunks, depth);
  await answer(run, low, running, status, reqs);
  const entry = running[tag];
  if (entry) {
    await fire(run, low, tag, entry);
    subStateRuns(run, low, running, entry);
  }
  return running;
}

/** Results a state reported for other chunks (Salt's `sub_state_run`). */
function subStateRuns(run: Run, low: Low, running: Running, entry: Entry): void {
  const subs = entry.sub_state_run;
  delete entry.sub_state_run;
  if (!Array.isArray(subs)) return;
  for (const sub of subs as Record<string, unknown>[]) {
    const { start_time, duration } = fakeDuration();
    run.runNum += 1;
    const subLow = (sub.low ?? {}) as Low;
    running[genTag(subLow)] = {
      name: subLow.name,
      changes: (sub.changes ?? {}) as Record<string, unknown>,
      result: (sub.result ?? null) as boolean | null,
      duration: sub.duration ?? duration,
      start_time: sub.start_time ?? start_time,
      comment: sub.comment ?? '',
      __state_ran__: true,
      __run_num__: run.runNum,
      __sls__: low.__sls__ ?? null,
      __id__: low.__id__,
    };
  }
}
