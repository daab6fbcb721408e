/**
 * Renders one SLS and, recursively, what it includes (Salt's `BaseHighState.render_state`
 * and `merge_included_states`): `include` entries as `sls`, `.rel`/`..rel`, `{env: sls}`
 * and `{_xenv: sls}`, globs against the saltenv's SLS names, each `env:sls` rendered once
 * per compile; conflicting ids across files are an error. Errors are Salt's strings.
 */
import type { SlsRenderer, SlsSource } from '../types.js';
import { type Dict, deepCopy, fnmatchFilter, isDict, pyEqual, pyOrderedRepr, pyOrderedStr } from './py.js';
import { type AutoOrder, handleExclude, handleExtend, handleIorder, handleStateDecls } from './sls-decls.js';
import { type AvailStates, getState } from './sls-files.js';

/** One compile's shared state (Salt keeps it on the `HighState` object). */
/** How deep includes may nest (Salt recurses until Python's recursion limit). */
const MAX_DEPTH = 200;

export interface RenderRun {
  source: SlsSource;
  render: SlsRenderer;
  avail: AvailStates;
  auto: AutoOrder;
  /** `env:sls` already rendered (Salt's `mods`). */
  mods: Set<string>;
  /** The matches being rendered (`{env: [sls]}`): an include of an env named here resolves there. */
  matches: Readonly<Record<string, readonly string[]>>;
  /** The include nesting of the SLS being rendered. */
  depth: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Python truthiness of rendered data (`if state:`). */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isDict(v)) return Object.keys(v).length > 0;
  return Boolean(v);
}

/** `merge_included_states`: `state`'s ids into `high`, its `__extend__`/`__exclude__` appended. */
export function mergeIncludedStates(high: Dict, state: Dict, errors: string[]): void {
  for (const key of ['__extend__', '__exclude__'] as const) {
    if (!(key in state)) continue;
    const list = Array.isArray(high[key]) ? (high[key] as unknown[]) : [];
    list.push(...(state[key] as unknown[]));
    high[key] = list;
    delete state[key];
  }
  for (const [id, body] of Object.entries(state)) {
    const had = high[id];
    if (id in high && !pyEqual(had, body)) {
      const a = had as Dict;
      const b = body as Dict;
      errors.push(
        `Detected conflicting IDs, SLS IDs need to be globally unique.\n    The conflicting ID is '${id}' and is found in SLS '${String(a.__env__)}:${String(a.__sls__)}' and SLS '${String(b.__env__)}:${String(b.__sls__)}'`,
      );
    }
  }
  Object.assign(high, state);
}

/** The SLS a relative include names, or an error text. */
function relativeInclude(
  inc: string,
  sls: string,
  saltenv: string,
  isInit: boolean,
): string | { error: string } {
  const m = /^(\.+)(.*)$/s.exec(inc);
  if (!m) return { error: `Badly formatted include ${inc} found in include in SLS '${saltenv}:${sls}'` };
  const levels = m[1]!.length;
  const comps = sls.split('.');
  if (isInit) comps.push('init');
  if (levels > comps.length) {
    return {
      error: `Attempted relative include of '${inc}' within SLS '${saltenv}:${sls}' goes beyond top level package `,
    };
  }
  return [...comps.slice(0, comps.length - levels), m[2]].join('.');
}

/** Python's `dict.popitem()` of an include entry: its last key and value. */
function popLast(d: Dict): [string, unknown] | undefined {
  const keys = Object.keys(d);
  const k = keys[keys.length - 1];
  return k === undefined ? undefined : [k, d[k]];
}

async function renderIncludes(
  run: RenderRun,
  state: Dict,
  include: unknown[],
  where: { sls: string; saltenv: string; isInit: boolean },
  errors: string[],
): Promise<void> {
  const { sls, saltenv } = where;
  for (const entry of include) {
    let envKey = saltenv;
    let inc: unknown = entry;
    if (isDict(entry)) {
      const last = popLast(entry);
      if (!last) continue;
      [envKey, inc] = last;
    }
    const incText = pyOrderedStr(inc);
    if (!(await run.avail.has(envKey)) && !(await run.avail.has('__env__'))) {
      errors.push(
        `Nonexistent saltenv '${envKey}' found in include of '${incText}' within SLS '${saltenv}:${sls}'`,
      );
      continue;
    }
    let target = incText;
    if (target.startsWith('.')) {
      const rel = relativeInclude(target, sls, saltenv, where.isInit);
      if (typeof rel !== 'string') {
        errors.push(rel.error);
        continue;
      }
      target = rel;
    }
    let resolved: string[];
    if (envKey !== '_xenv') {
      const known = envKey in run.matches || fnmatchFilter(await run.avail.list(envKey), target).length > 0;
      resolved = known ? [envKey] : [];
    } else {
      resolved = [];
      for (const aenv of Object.keys(run.matches)) {
        if (fnmatchFilter(await run.avail.list(aenv), target).length > 0) resolved.push(aenv);
      }
    }
    if (resolved.length === 1 || resolved.includes(saltenv)) {
      const found = fnmatchFilter(await run.avail.list(saltenv), target);
      const targets = found.length > 0 ? found : [target];
      for (const t of targets) {
        const rEnv = resolved.length === 1 ? resolved[0]! : saltenv;
        if (run.mods.has(`${rEnv}:${t}`)) continue;
        if (run.depth >= MAX_DEPTH) {
          errors.push(`Rendering SLS '${rEnv}:${t}' failed: includes nest deeper than ${MAX_DEPTH} levels`);
          continue;
        }
        run.depth++;
        const [nstate, errs] = await renderState(run, t, rEnv).finally(() => {
          run.depth--;
        });
        if (truthy(nstate)) {
          mergeIncludedStates(state, nstate, errors);
          Object.assign(state, nstate);
        }
        errors.push(...errs);
      }
      continue;
    }
    if (resolved.length === 0) {
      const envs = envKey === '_xenv' ? Object.keys(run.matches).join(', ') : envKey;
      errors.push(
        `Unknown include: Specified SLS ${envKey}: ${target} is not available on the salt master in saltenv(s): ${envs} `,
      );
    } else {
      errors.push(
        `Ambiguous include: Specified SLS ${envKey}: ${target} is available on the salt master in multiple available saltenvs: ${resolved.join(', ')}`,
      );
    }
  }
}

/** `render_state`: one SLS with its includes merged in, and the errors met. */
export async function renderState(run: RenderRun, sls: string, saltenv: string): Promise<[Dict, string[]]> {
  const errors: string[] = [];
  const found = await getState(run.source, sls, saltenv);
  let state: unknown;
  if (!found) {
    errors.push(
      `Specified SLS ${sls} in saltenv ${saltenv} is not available on the salt master or through a configured fileserver`,
    );
  } else {
    try {
      state = await run.render({ path: found.dest, rel: found.source.slice('salt://'.length), saltenv, sls });
    } catch (err) {
      errors.push(`Rendering SLS '${saltenv}:${sls}' failed: ${errorText(err)}`);
    }
    run.mods.add(`${saltenv}:${sls}`);
  }
  if (!truthy(state)) return [{}, errors];
  if (!isDict(state)) {
    errors.push(`SLS ${sls} does not render to a dictionary`);
    // Salt then fails to merge it into the high data
    errors.push(`Error when rendering state with contents: ${pyOrderedRepr(state)}`);
    return [{}, errors];
  }
  // the renderer's data may be cached by the caller: work on a copy
  const data = deepCopy(state);
  let include: unknown[] = [];
  if ('include' in data) {
    if (!Array.isArray(data.include)) {
      errors.push(`Include Declaration in SLS ${sls} is not formed as a list`);
    } else {
      include = data.include;
      delete data.include;
    }
  }
  handleExtend(data, sls, saltenv, errors);
  handleExclude(data, sls, errors);
  handleStateDecls(data, sls, saltenv, errors);
  const isInit = found?.source.endsWith('/init.sls') ?? false;
  await renderIncludes(run, data, include, { sls, saltenv, isInit }, errors);
  handleIorder(data, run.auto);
  return [data, errors];
}
