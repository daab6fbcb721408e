/**
 * The state top file (Salt's `BaseHighState.get_tops`, `merge_tops`, `verify_tops` and
 * `top_matches`): each saltenv's `top.sls` (or only the call's saltenv, or
 * `state_top_saltenv`), the top files they `include`, merged by `top_file_merging_strategy`
 * (`merge`: base first and authoritative; `same`: each env from its own top file, else
 * `default_top`'s; `merge_all`), then matched against one minion with the kernel's matchers.
 */
import { type MinionMatchContext, matchType } from '../../../kernel/services.js';
import type { SlsRenderer, SlsSource } from '../types.js';
import { type Dict, deepCopy, fnmatchFilter, isDict } from './py.js';
import { AvailStates, getEnvs, getState, topUrl } from './sls-files.js';

export interface TopMinion {
  id: string;
  grains: Readonly<Record<string, unknown>>;
  pillar: Readonly<Record<string, unknown>>;
  nodegroups?: Readonly<Record<string, unknown>>;
}

export interface TopOptions {
  state_top: string;
  top_file_merging_strategy: string;
  env_order: readonly string[];
  default_top: string;
  state_top_saltenv: string | null;
  /** The minion's or the call's saltenv: only that env's top file and matches. */
  saltenv: string | null;
}

/** The merged top: env → target → `[match options..., sls...]`. */
export type MergedTop = Record<string, Record<string, unknown[]>>;

class TopError extends Error {}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function renderTop(render: SlsRenderer, path: string, rel: string, saltenv: string): Promise<Dict> {
  const data = await render({ path, rel, saltenv, sls: '' });
  return isDict(data) ? data : {};
}

/** `get_tops`: the rendered top files by env (an env whose file is missing gets `{}`). */
async function getTops(src: SlsSource, render: SlsRenderer, o: TopOptions): Promise<Map<string, Dict[]>> {
  const tops = new Map<string, Dict[]>();
  const url = topUrl(o.state_top);
  if (o.top_file_merging_strategy === 'same' && !o.saltenv && !o.default_top) {
    throw new TopError(
      "top_file_merging_strategy set to 'same', but no default_top configuration option was set",
    );
  }
  const rel = url.slice('salt://'.length);
  if (o.saltenv) {
    const path = await src.cacheFile(url, o.saltenv);
    tops.set(o.saltenv, [path ? await renderTop(render, path, rel, o.saltenv) : {}]);
  } else {
    const envs = o.state_top_saltenv ? [String(o.state_top_saltenv)] : await getEnvs(src, o.env_order);
    for (const env of envs) {
      const path = await src.cacheFile(url, env);
      const list = tops.get(env) ?? [];
      list.push(path ? await renderTop(render, path, rel, env) : {});
      tops.set(env, list);
    }
  }
  // the first top files' includes (an included top file's own includes are not followed)
  const avail = new AvailStates(src, o.env_order);
  for (const [env, ctops] of [...tops]) {
    const include: string[] = [];
    for (const ctop of ctops) {
      if (!('include' in ctop)) continue;
      if (Array.isArray(ctop.include)) include.push(...ctop.include.map(String));
      delete ctop.include;
    }
    const done = new Set<string>();
    for (const pattern of include) {
      for (const sls of fnmatchFilter(await avail.list(env), pattern)) {
        if (done.has(sls)) continue;
        const found = await getState(src, sls, env);
        tops.get(env)!.push(found ? await renderTop(render, found.dest, found.source.slice(7), env) : {});
        done.add(sls);
      }
    }
  }
  return tops;
}

/** `top[env]`, created empty when missing (Salt's `DefaultOrderedDict`). */
function envOf(top: MergedTop, env: string): Record<string, unknown[]> {
  if (!top[env]) top[env] = {};
  return top[env];
}

function copyTargets(into: Record<string, unknown[]>, targets: unknown): void {
  if (!isDict(targets)) throw new TopError('Unable to render top file. No targets found.');
  for (const [tgt, v] of Object.entries(targets)) into[tgt] = v as unknown[];
}

function mergeMerge(tops: Map<string, Dict[]>): MergedTop {
  const top: MergedTop = {};
  for (const ctop of tops.get('base') ?? []) {
    for (const [env, targets] of Object.entries(ctop)) {
      if (env === 'include') continue;
      copyTargets(envOf(top, env), targets);
    }
  }
  for (const [cenv, ctops] of tops) {
    if (cenv === 'base') continue;
    for (const ctop of ctops) {
      for (const [env, targets] of Object.entries(ctop)) {
        if (env === 'include' || env !== cenv || env in top) continue;
        copyTargets(envOf(top, env), targets);
      }
    }
  }
  return top;
}

function mergeSame(tops: Map<string, Dict[]>, defaultTop: string): MergedTop {
  const top: MergedTop = {};
  const empty = (list: Dict[]) => list.every((t) => Object.keys(t).length === 0);
  for (const [cenv, ctops] of tops) {
    if (empty(ctops)) {
      const fallback = tops.get(defaultTop) ?? [];
      if (empty(fallback)) continue;
      for (const ctop of fallback) {
        if (cenv in ctop) copyTargets(envOf(top, cenv), ctop[cenv]);
      }
      continue;
    }
    for (const ctop of ctops) {
      for (const [env, targets] of Object.entries(ctop)) {
        if (env === 'include' || env !== cenv) continue;
        copyTargets(envOf(top, env), targets);
      }
    }
  }
  return top;
}

function readTarget(entries: unknown): { matchType: unknown; states: string[] } {
  let m: unknown;
  const states: string[] = [];
  for (const item of Array.isArray(entries) ? entries : []) {
    if (isDict(item)) m = item;
    if (typeof item === 'string') states.push(item);
  }
  return { matchType: m, states };
}

function mergeAll(tops: Map<string, Dict[]>): MergedTop {
  const top: MergedTop = {};
  for (const ctops of tops.values()) {
    for (const ctop of ctops) {
      for (const [env, targets] of Object.entries(ctop)) {
        if (env === 'include') continue;
        if (!isDict(targets)) throw new TopError('Unable to render top file. No targets found.');
        const into = envOf(top, env);
        for (const [tgt, v] of Object.entries(targets)) {
          if (!(tgt in into)) {
            into[tgt] = v as unknown[];
            continue;
          }
          const a = readTarget(into[tgt]);
          const b = readTarget(v);
          const merged: unknown[] = [];
          const m = b.matchType ?? a.matchType;
          if (m !== undefined) merged.push(m);
          merged.push(...a.states);
          merged.push(...b.states.filter((s) => !merged.includes(s)));
          into[tgt] = merged;
        }
      }
    }
  }
  return top;
}

/** `merge_tops`: an unknown strategy falls back to `merge`. */
function mergeTops(tops: Map<string, Dict[]>, o: TopOptions): MergedTop {
  if (o.top_file_merging_strategy === 'same') return mergeSame(tops, o.default_top);
  if (o.top_file_merging_strategy === 'merge_all') return mergeAll(tops);
  return mergeMerge(tops);
}

/** `verify_tops`: the top data's shape errors. */
export function verifyTops(top: Dict): string[] {
  const errors: string[] = [];
  for (const [env, matches] of Object.entries(top)) {
    if (env === 'include') continue;
    if (env === '') errors.push('Empty saltenv statement in top file');
    if (!isDict(matches)) {
      errors.push(`The top file matches for saltenv ${env} are not formatted as a dict`);
      continue;
    }
    for (const mods of Object.values(matches)) {
      if (!Array.isArray(mods)) {
        errors.push('Malformed topfile (state declarations not formed as a list)');
        continue;
      }
      for (const mod of mods) {
        if (isDict(mod)) {
          for (const v of Object.values(mod)) {
            if (!v)
              errors.push(
                `Improperly formatted top file matcher in saltenv ${pyDictText(mod)}: ${String(v)} file`,
              );
          }
        } else if (mod === '') errors.push(`Environment ${env} contains an empty sls index`);
      }
    }
  }
  return errors;
}

/** A one-level Python dict repr for `verify_tops`' message. */
function pyDictText(d: Dict): string {
  return `{${Object.entries(d)
    .map(([k, v]) => `'${k}': ${typeof v === 'string' ? `'${v}'` : String(v)}`)
    .join(', ')}}`;
}

/** Salt's `confirm_top`: the target's `match:` (default `compound`) against the minion. */
function confirmTop(target: string, entries: readonly unknown[], minion: TopMinion): boolean {
  let matcher = 'compound';
  for (const e of entries) if (isDict(e) && 'match' in e) matcher = String(e.match);
  try {
    return matchType(matcher, target, minion.id, {
      grains: minion.grains,
      pillar: minion.pillar,
      nodegroups: (minion.nodegroups ?? {}) as MinionMatchContext['nodegroups'],
    });
  } catch {
    return false;
  }
}

/** `top_matches`: `{env: [sls...]}` for this minion (`{env: sls}` entries add to that env). */
async function topMatches(
  top: MergedTop,
  minion: TopMinion,
  o: TopOptions,
  avail: AvailStates,
): Promise<Record<string, string[]>> {
  const matches: Record<string, string[]> = {};
  const filter = async (env: string, target: string, data: unknown): Promise<void> => {
    const entries = typeof data === 'string' ? [data] : Array.isArray(data) ? data : [];
    if (!confirmTop(target, entries, minion)) return;
    matches[env] ??= [];
    for (const item of entries) {
      if (isDict(item) && 'subfilter' in item) {
        const sub = item.subfilter;
        delete item.subfilter;
        if (isDict(sub)) for (const [t, d] of Object.entries(sub)) await filter(env, t, d);
      }
      if (typeof item === 'string') matches[env].push(item);
      else if (isDict(item)) {
        const keys = Object.keys(item);
        const k = keys[keys.length - 1];
        if (k === undefined) continue;
        const v = item[k];
        delete item[k];
        if (!(await avail.has(k))) continue;
        if (!matches[k]) matches[k] = [];
        matches[k].push(String(v));
      }
    }
  };
  for (const [env, body] of Object.entries(top)) {
    if (o.saltenv && env !== o.saltenv) continue;
    if (!isDict(body)) continue;
    for (const [target, data] of Object.entries(body)) await filter(env, target, data);
  }
  return matches;
}

/**
 * Salt's `get_top` + `verify_tops` + `top_matches`: the merged top, this minion's matches and the
 * errors (`verify_tops`'; a top file that fails to render leaves the top empty, as Salt does,
 * and its error is the one entry of `errors` prefixed `Unable to render top file: `).
 */
export async function compileTop(
  source: SlsSource,
  render: SlsRenderer,
  minion: TopMinion,
  o: TopOptions,
): Promise<{ matches: Record<string, string[]>; top: MergedTop; errors: string[] }> {
  let top: MergedTop;
  try {
    top = mergeTops(await getTops(source, render, o), o);
  } catch (err) {
    return { matches: {}, top: {}, errors: [`Unable to render top file: ${errorText(err)}`] };
  }
  const errors = verifyTops(top);
  const matches = await topMatches(deepCopy(top), minion, o, new AvailStates(source, o.env_order));
  return { matches, top, errors };
}
