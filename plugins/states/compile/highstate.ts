/**
 * SLS files to high data (Salt's `BaseHighState.render_highstate`, with what `state.sls`,
 * `state.show_sls`, `state.highstate` and `state.show_highstate` do around it): each matched
 * SLS (globs against the saltenv's SLS names) rendered once with its includes, merged in
 * order, duplicate `__extend__` entries dropped, the call's `exclude` appended to `__exclude__`.
 */
import type { HighData, SlsRenderer, SlsSource } from '../types.js';
import { type Dict, fnmatchFilter, pyEqual } from './py.js';
import { mergeIncludedStates, type RenderRun, renderState } from './render-state.js';
import { AvailStates } from './sls-files.js';
import { compileTop, type TopMinion, type TopOptions } from './top.js';
import { verifyHigh } from './verify.js';

export interface RenderOptions {
  /** Salt's `state_auto_order` (default true): declarations without `order` are numbered in definition order. */
  stateAutoOrder?: boolean;
  /** Salt's `env_order`. */
  envOrder?: readonly string[];
}

/** `clean_duplicate_extends`: each `{id: body}` of `__extend__` once. */
function cleanDuplicateExtends(high: Dict): void {
  if (!Array.isArray(high.__extend__)) return;
  const seen: Array<[string, unknown]> = [];
  for (const ext of high.__extend__ as Dict[]) {
    for (const item of Object.entries(ext)) {
      if (!seen.some(([k, v]) => k === item[0] && pyEqual(v, item[1]))) seen.push(item);
    }
  }
  high.__extend__ = seen.map(([k, v]) => ({ [k]: v }));
}

/** `render_highstate`: `{env: [sls patterns]}` → high data, and the errors. */
export async function renderHighstate(
  source: SlsSource,
  render: SlsRenderer,
  matches: Readonly<Record<string, readonly string[]>>,
  o: RenderOptions = {},
): Promise<{ high: HighData; errors: string[] }> {
  const run: RenderRun = {
    source,
    render,
    avail: new AvailStates(source, o.envOrder),
    auto: { enabled: o.stateAutoOrder ?? true, next: 10000 },
    mods: new Set(),
    matches,
    depth: 0,
  };
  const high: Dict = {};
  const all: string[] = [];
  // Salt keeps the last env's list when an env is unknown (the variable outlives the loop)
  let statefiles: string[] = [];
  for (const [saltenv, states] of Object.entries(matches)) {
    for (const match of states) {
      if (await run.avail.has(saltenv)) statefiles = fnmatchFilter(await run.avail.list(saltenv), match);
      else if (await run.avail.has('__env__'))
        statefiles = fnmatchFilter(await run.avail.list('__env__'), match);
      else all.push(`No matching salt environment for environment '${saltenv}' found`);
      if (statefiles.length === 0) statefiles = [match];
      for (const sls of statefiles) {
        if (run.mods.has(`${saltenv}:${sls}`)) continue;
        const [state, errors] = await renderState(run, sls, saltenv);
        if (Object.keys(state).length > 0) mergeIncludedStates(high, state, errors);
        const mine = `SLS ${match} in saltenv`;
        for (const e of errors) {
          all.push(
            e.includes('is not available') && e.includes(mine)
              ? `No matching sls found for '${match}' in env '${saltenv}'`
              : e,
          );
        }
      }
    }
  }
  cleanDuplicateExtends(high);
  return { high: high as HighData, errors: all };
}

/** Salt's `split_input` of `exclude`: a comma list or a list. */
function excludeList(exclude: unknown): unknown[] {
  if (exclude === undefined || exclude === null || exclude === '' || exclude === false) return [];
  if (Array.isArray(exclude)) return exclude;
  if (typeof exclude === 'string') return exclude.split(',').map((s) => s.trim());
  return [exclude];
}

function addExclude(high: HighData, exclude: unknown): void {
  const list = excludeList(exclude);
  if (list.length === 0) return;
  const h = high as Dict;
  if (Array.isArray(h.__exclude__)) (h.__exclude__ as unknown[]).push(...list);
  else h.__exclude__ = list;
}

/**
 * `state.sls`/`state.show_sls`: the named SLS of `saltenv` with their includes → high data;
 * the errors are the render errors and `verify_high`'s (as `show_sls` reports them).
 */
export async function compileSls(
  source: SlsSource,
  render: SlsRenderer,
  mods: readonly string[],
  saltenv: string,
  o: RenderOptions & { exclude?: unknown } = {},
): Promise<{ high: HighData; errors: string[] }> {
  const { high, errors } = await renderHighstate(source, render, { [saltenv]: mods }, o);
  errors.push(...verifyHigh(high));
  addExclude(high, o.exclude);
  return { high, errors };
}

/**
 * `state.highstate`/`state.show_highstate`: the top file's matches for this minion → high data;
 * the errors are the top file's (`verify_tops`) and the render errors.
 */
export async function compileHighstate(
  source: SlsSource,
  render: SlsRenderer,
  minion: TopMinion,
  o: TopOptions & RenderOptions & { exclude?: unknown },
): Promise<{ high: HighData; errors: string[] }> {
  const top = await compileTop(source, render, minion, o);
  const { high, errors } = await renderHighstate(source, render, top.matches, {
    stateAutoOrder: o.stateAutoOrder,
    envOrder: o.envOrder ?? o.env_order,
  });
  addExclude(high, o.exclude);
  return { high, errors: [...top.errors, ...errors] };
}
