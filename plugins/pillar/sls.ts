/**
 * Renders the SLS files a minion's top matches (Salt's `Pillar.render_pillar` and
 * `render_pstate`): each file once, its `include`s (globs, relative `.x` names, `defaults`,
 * `key: a:b` nesting) merged under it, everything merged in top order. Errors are collected in
 * Salt's words, never thrown; with `pillar_safe_render_error` the render details stay in the
 * master log.
 */
import { fnmatchRegExp } from '../../modules/_fnmatch.js';
import { isMapping } from '../../modules/_traverse.js';
import { mergePillar, type PillarData } from './merge.js';
import { errorText, type PillarLog } from './pillar-log.js';
import { logLine, type PillarRenderContext, renderPillarFile } from './render.js';
import { findSls, listSls, type PillarRoots } from './roots.js';
import type { IgnoredSls } from './top.js';

export interface SlsSource {
  roots: PillarRoots;
  strategy: string;
  mergeLists: boolean;
  renderer: string;
  safeRenderError: boolean;
  includesOverrideSls: boolean;
  ignored: IgnoredSls;
  render: Omit<PillarRenderContext, 'path' | 'saltenv' | 'sls' | 'defaults'>;
  log: PillarLog;
}

/** Per env: the rendered SLS by name (`undefined` when it failed) and the SLS names available. */
interface EnvState {
  env: string;
  mods: Map<string, unknown>;
  avail: string[];
}

function merge(src: SlsSource, a: PillarData, b: PillarData): PillarData {
  return mergePillar(a, b, src.strategy, src.mergeLists, src.renderer);
}

/** The available SLS names `pattern` (a Python fnmatch glob) matches. */
function matching(avail: readonly string[], pattern: string): string[] {
  const re = fnmatchRegExp(pattern);
  return avail.filter((a) => re.test(a));
}

/** Names an include pattern stands for (globs over the available SLS; `.x` relative to `sls`). */
function includeNames(st: EnvState, sls: string, source: string, pattern: string): string[] {
  const found = matching(st.avail, pattern.replace(/^\.+/, '').replaceAll('/', '.'));
  let name = pattern;
  if (pattern.startsWith('.')) {
    const parts = source.endsWith('/init.sls') ? sls.split('.') : sls.split('.').slice(0, -1);
    name = [...parts, pattern.slice(1)].join('.');
  }
  found.push(...matching(st.avail, name));
  return found.length > 0 ? found : [name];
}

async function renderPstate(
  src: SlsSource,
  st: EnvState,
  sls: string,
  defaults: Readonly<Record<string, unknown>>,
  errors: string[],
  depth: number,
): Promise<unknown> {
  const file = findSls(src.roots, st.env, sls);
  if (!file) {
    if (src.ignored.get(st.env)?.has(sls)) return undefined;
    if ((src.roots[st.env] ?? []).length > 0) {
      const msg = `Specified SLS '${sls}' in environment '${st.env}' is not available on the salt master`;
      src.log.error({ sls, saltenv: st.env }, 'pillar SLS not available');
      errors.push(msg);
    }
    return undefined;
  }
  let state: unknown;
  // set before rendering: an SLS that includes itself is rendered once
  st.mods.set(sls, undefined);
  try {
    state = await renderPillarFile({
      ...src.render,
      path: file.path,
      rel: file.source,
      saltenv: st.env,
      sls,
      defaults,
    });
  } catch (err) {
    src.log.error({ sls, saltenv: st.env, err: logLine(err) }, `Rendering SLS '${sls}' failed`);
    errors.push(
      src.safeRenderError
        ? `Rendering SLS '${sls}' failed. Please see master log for details.`
        : `Rendering SLS '${sls}' failed, render error:\n${errorText(err)}`,
    );
  }
  st.mods.set(sls, state);
  if (state === undefined || state === null || state === '') return state;
  if (!isMapping(state)) {
    errors.push(`SLS '${sls}' does not render to a dictionary`);
    return state;
  }
  if (!('include' in state)) return state;
  if (!Array.isArray(state.include)) {
    errors.push(`Include Declaration in SLS '${sls}' is not formed as a list`);
    return state;
  }
  const includes = state.include;
  delete state.include;
  let current: PillarData = state;
  const included: PillarData[] = [];
  for (const entry of includes) {
    let pattern: string;
    let incDefaults: Record<string, unknown> = {};
    let key: string | undefined;
    if (isMapping(entry)) {
      const [name, opts] = Object.entries(entry)[0] ?? ['', {}];
      pattern = name;
      if (isMapping(opts)) {
        if (isMapping(opts.defaults)) incDefaults = opts.defaults;
        if (typeof opts.key === 'string') key = opts.key;
      }
    } else pattern = String(entry);
    for (const sub of includeNames(st, sls, file.source, pattern)) {
      let nstate = st.mods.has(sub)
        ? st.mods.get(sub)
        : depth < 64
          ? await renderPstate(src, st, sub, incDefaults, errors, depth + 1)
          : undefined;
      if (!isMapping(nstate) || Object.keys(nstate).length === 0) continue;
      if (key) for (const frag of key.split(':').reverse()) nstate = { [frag]: nstate };
      if (src.includesOverrideSls) current = merge(src, current, nstate as PillarData);
      else included.push(nstate as PillarData);
    }
  }
  if (src.includesOverrideSls) return current;
  // the including SLS is merged last: its values win
  return [...included, current].reduce((acc, s) => merge(src, acc, s));
}

/** Salt's `render_pillar`: the pillar of the matched SLS, merged onto `base`. */
export async function renderPillar(
  src: SlsSource,
  matches: Map<string, string[]>,
  base: PillarData,
  errors: string[],
): Promise<PillarData> {
  let pillar = base;
  for (const [env, patterns] of matches) {
    const st: EnvState = { env, mods: new Map(), avail: listSls(src.roots, env) };
    const files: string[] = [];
    for (const p of patterns) {
      // Salt's available envs are `base` and the roots' envs; each pattern of another env is reported
      if (env !== 'base' && !(env in src.roots))
        errors.push(`No matching pillar environment for environment '${env}' found`);
      const found = matching(st.avail, p);
      files.push(...(found.length > 0 ? found : [p]));
    }
    for (const sls of files) {
      const pstate = await renderPstate(src, st, sls, {}, errors, 0);
      if (pstate === undefined || pstate === null) continue;
      if (!isMapping(pstate)) {
        src.log.error({ sls }, 'The rendered pillar sls file did not return the expected data format');
        continue;
      }
      pillar = merge(src, pillar, pstate);
    }
  }
  return pillar;
}
