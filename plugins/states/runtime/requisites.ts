/**
 * Whether a chunk's requisites let it run (Salt's `State.check_requisite` in
 * `salt/state.py`): finds the chunks each requisite names (by id, by `state: name` or id,
 * globs, `sls:`), reads their results (the prereq dry runs for `prereq`) and answers one of
 * `met`, `unmet` (a required chunk has not run yet), `fail`, `change` (a watched chunk
 * changed: run `mod_watch`), `pre` (a prereq target would change nothing), `onfail` and
 * `onchanges` (do not run), with the chunks it found per requisite.
 */
import { createError } from '../../../kernel/index.js';
import { fnmatch } from '../../../modules/_fnmatch.js';
import type { Entry, Low, Run, Running } from './run-state.js';
import { genTag, trimReq } from './tag.js';
import { watchToRequire } from './verify.js';

/** A requisite that cannot be read (Salt's SaltRenderError from `check_requisite`). */
export const SALT_ERR_STATE_REQUISITE = createError('SALT_ERR_STATE_REQUISITE', (message: string) => message);

export type Status = 'met' | 'unmet' | 'fail' | 'change' | 'pre' | 'onfail' | 'onchanges';

/** The chunks each requisite kind names. */
export type Reqs = Record<string, Low[]>;

const KINDS = [
  'require',
  'require_any',
  'watch',
  'watch_any',
  'prereq',
  'onfail',
  'onfail_any',
  'onfail_all',
  'onchanges',
  'onchanges_any',
];

const GLOB = /[*?[]/;

/** Python's `fnmatch` of one name, without building a pattern when there is no wildcard. */
export function globMatch(name: string, pattern: string): boolean {
  return GLOB.test(pattern) ? fnmatch(name, pattern) : name === pattern;
}

/** Whether `chunk` is what requisite `{key: value}` names. */
export function matches(chunk: Low, key: string, value: string): boolean {
  if (key === 'sls') return globMatch(String(chunk.__sls__ ?? ''), value);
  if (key !== 'id' && chunk.state !== key) return false;
  return globMatch(String(chunk.name), value) || globMatch(chunk.__id__, value);
}

function disabledRequisites(run: Run): string[] {
  const d = run.rc.exec.opts.disabled_requisites;
  return d === undefined || d === null ? [] : ([d].flat() as string[]);
}

/** The status of a kind's results (one pass of Salt's stats loop). */
function statsOf(kind: string, chunks: readonly Low[], runDict: Running): Set<string> {
  const stats = new Set<string>();
  for (const chunk of chunks) {
    const r = runDict[genTag(chunk)];
    if (!r) {
      stats.add('unmet');
      continue;
    }
    const changed = Object.keys(r.changes ?? {}).length > 0;
    if (kind.startsWith('onfail')) {
      if (r.result === true) {
        stats.add('onfail');
        continue;
      }
    } else if (r.result === false) {
      stats.add('fail');
      continue;
    }
    if (kind.startsWith('onchanges')) {
      stats.add(changed ? 'onchangesmet' : 'onchanges');
      continue;
    }
    if (kind.startsWith('watch') && changed) {
      stats.add('change');
      continue;
    }
    const isPrereq = kind.startsWith('prereq') && !kind.startsWith('prerequired');
    if (isPrereq && r.result === null) stats.add('premet');
    if (isPrereq && r.result !== null) stats.add('pre');
    else if (r.__state_ran__ ?? true) stats.add('met');
  }
  if (kind.endsWith('_any') || kind === 'onfail') {
    if (stats.has('met') || stats.has('change')) stats.delete('fail');
    if (stats.has('onchangesmet')) {
      stats.delete('onchanges');
      stats.delete('fail');
    }
    if (stats.has('onfail') && stats.has('met')) stats.delete('onfail');
  }
  if (kind.endsWith('_all') && stats.has('onfail') && stats.has('met')) stats.delete('met');
  return stats;
}

function statusOf(s: Set<string>): Status {
  if (s.has('unmet')) return 'unmet';
  if (s.has('fail')) return 'fail';
  if (s.has('pre')) return s.has('premet') ? 'met' : 'pre';
  if (s.has('onfail') && !s.has('onchangesmet')) return 'onfail';
  if (s.has('onchanges') && !s.has('onchangesmet')) return 'onchanges';
  if (s.has('change')) return 'change';
  if (s.has('onfail')) return 'onfail';
  return 'met';
}

/** Salt's `check_requisite`: `pre` adds the `prerequired` kind (the chunk is not a prereq dry run). */
export async function checkRequisite(
  run: Run,
  low: Low,
  running: Running,
  chunks: readonly Low[],
  pre = false,
): Promise<{ status: Status; reqs: Reqs }> {
  let present = false;
  if ('watch' in low || 'watch_any' in low) present = await watchToRequire(run.rc.states, low);
  if (
    ['require', 'require_any', 'prerequired', ...KINDS.filter((k) => !k.startsWith('watch'))].some(
      (k) => k in low,
    )
  ) {
    present = true;
  }
  if (!present) return { status: 'met', reqs: {} };
  run.reconcileFinished(Object.values(running));
  const reqs: Reqs = Object.fromEntries(KINDS.map((k) => [k, []]));
  if (pre) reqs.prerequired = [];
  const disabled = disabledRequisites(run);
  for (const kind of Object.keys(reqs)) {
    if (low[kind] === undefined || low[kind] === null) continue;
    if (disabled.includes(kind)) {
      run.rc.exec.log.warn(`The ${kind} requisite has been disabled, Ignoring.`);
      continue;
    }
    for (const req of [low[kind]].flat()) {
      const [key, value] = trimReq(req);
      if (value === null || value === undefined) continue;
      let found = false;
      for (const chunk of chunks) {
        if (key !== 'sls' && typeof value !== 'string') {
          throw new SALT_ERR_STATE_REQUISITE(
            `Could not locate requisite of [${key}] present in state with name [${String(chunk.name)}]`,
          );
        }
        if (matches(chunk, key, String(value))) {
          found = true;
          reqs[kind]?.push(chunk);
        }
      }
      if (!found) return { status: 'unmet', reqs: {} };
    }
  }
  const all = new Set<string>();
  for (const [kind, found] of Object.entries(reqs)) {
    const source = kind.startsWith('prereq') && !kind.startsWith('prerequired') ? run.pre : running;
    const runDict: Running = {};
    for (const chunk of found) {
      const tag = genTag(chunk);
      const entry: Entry | undefined = source[tag];
      if (entry) runDict[tag] = entry;
    }
    await run.reconcile(Object.values(runDict));
    for (const s of statsOf(kind, found, runDict)) all.add(s);
  }
  return { status: statusOf(all), reqs };
}
