/**
 * Compiles one minion's pillar (Salt's `Pillar.compile_pillar`): the top files, the matched
 * SLS, the external pillars (after them, or first with `ext_pillar_first`), `_errors`, then the
 * minion's `pillar_override` on top. Never throws: every failure is an entry of `_errors`.
 */
import type { RendererDef } from '../renderers/index.js';
import type { ExtPillarDef } from './ext-kind.js';
import { runExtPillars } from './ext-pillar.js';
import { mergePillar, type PillarData } from './merge.js';
import type { PillarOptions } from './options.js';
import type { PillarFunctions } from './pillar-functions.js';
import { errorText, type PillarLog } from './pillar-log.js';
import type { PillarRoots } from './roots.js';
import { renderPillar } from './sls.js';
import { getTops, type IgnoredSls, type MergedTop, mergeTops, topMatches } from './top.js';

/** What the minion asks with (the `_pillar` load, Salt's field names turned camel-case). */
export interface PillarRequest {
  id: string;
  grains: Readonly<Record<string, unknown>>;
  saltenv: string | null;
  pillarenv: string | null;
  pillarOverride: PillarData;
  extraMinionData: Readonly<Record<string, unknown>>;
}

export interface CompileEnv {
  options: PillarOptions;
  extPillars: ReadonlyMap<string, ExtPillarDef>;
  /** The renderers by name (default: the built-ins). */
  renderers?: ReadonlyMap<string, RendererDef>;
  log: PillarLog;
  /** Who compiles (default: the master). */
  role?: 'master' | 'minion';
  /**
   * A masterless minion's in-memory pillar, under the fresh compile (Salt's `ssh_merge_pillar`,
   * on by default on a minion: `pillar.items pillarenv=dev` keeps the keys of the other
   * environments the minion compiled at its start, with the fresh values on top).
   */
  mergeUnder?: PillarData;
  /**
   * `salt[...]` in pillar templates (Salt loads `minion_mods` for every compile): the master's
   * functions as the requesting minion's, or a masterless minion's own. None when absent.
   */
  functions?: PillarFunctions;
}

/** The pillarenv a request compiles: the minion's, else its saltenv with `pillarenv_from_saltenv`, else the master's. */
export function requestPillarenv(req: PillarRequest, o: PillarOptions): string | null {
  if (req.pillarenv) return req.pillarenv;
  if (o.pillarenvFromSaltenv && req.saltenv) return req.saltenv;
  return o.pillarenv;
}

/** Salt's `get_top`: the merged top for a request, with its errors and ignore_missing names. */
export async function compileTop(
  req: PillarRequest,
  env: CompileEnv,
  pillar: PillarData = {},
): Promise<{ top: MergedTop; errors: string[]; ignored: IgnoredSls }> {
  const o = env.options;
  const { tops, errors } = await getTops({
    roots: o.roots,
    stateTop: o.stateTop,
    pillarenv: requestPillarenv(req, o),
    saltenv: req.saltenv,
    strategy: o.strategy,
    render: renderContext(env, req, pillar),
    log: env.log,
  });
  const ignored: IgnoredSls = new Map();
  try {
    return { top: mergeTops(tops, ignored), errors, ignored };
  } catch (err) {
    env.log.error({ err: errorText(err) }, 'Error encountered while rendering pillar top file.');
    return {
      top: new Map(),
      errors: [...errors, 'Error encountered while rendering pillar top file.'],
      ignored,
    };
  }
}

/** The SLS patterns the top gives this minion, by env (Salt's `show_top` answer). */
export function matchedSls(
  req: PillarRequest,
  env: CompileEnv,
  top: MergedTop,
  pillar: PillarData = {},
): Map<string, string[]> {
  const o = env.options;
  return topMatches(
    top,
    { id: req.id, grains: req.grains, pillar, nodegroups: o.nodegroups },
    requestPillarenv(req, o),
  );
}

export async function compilePillar(req: PillarRequest, env: CompileEnv): Promise<PillarData> {
  const o = env.options;
  const merge = (a: PillarData, b: PillarData) => mergePillar(a, b, o.strategy, o.mergeLists, o.renderer);
  const extRun = {
    extPillar: o.extPillar,
    available: env.extPillars,
    strategy: o.strategy,
    mergeLists: o.mergeLists,
    renderer: o.renderer,
    pillarOverride: req.pillarOverride,
    ctx: {
      minionId: req.id,
      grains: req.grains,
      opts: o.opts,
      extraMinionData: req.extraMinionData,
      log: env.log,
      pillarenv: requestPillarenv(req, o),
      saltenv: req.saltenv,
      role: env.role ?? 'master',
      merge,
      compileRoots: (roots: PillarRoots, saltenv: string) =>
        compilePillar(
          { ...req, saltenv, pillarenv: requestPillarenv(req, o), pillarOverride: {} },
          { ...env, options: { ...o, roots, extPillar: [], extPillarFirst: false } },
        ),
    },
  };
  const errors: string[] = [];
  let pillar: PillarData;
  let topErrors: string[];
  if (o.extPillarFirst) {
    const ext = await runExtPillars(extRun, { ...req.pillarOverride }, errors);
    const t = await compileTop(req, env, ext);
    topErrors = t.errors;
    const sls = await renderPillar(
      slsSource(env, t.ignored, req, ext),
      matchedSls(req, env, t.top, ext),
      { ...req.pillarOverride },
      errors,
    );
    pillar = merge(ext, sls);
  } else {
    const t = await compileTop(req, env);
    topErrors = t.errors;
    pillar = await renderPillar(
      slsSource(env, t.ignored, req, {}),
      matchedSls(req, env, t.top),
      { ...req.pillarOverride },
      errors,
    );
    pillar = await runExtPillars(extRun, pillar, errors);
  }
  if (env.mergeUnder) pillar = merge(structuredClone(env.mergeUnder), pillar);
  errors.push(...topErrors);
  if (errors.length > 0) {
    for (const e of errors) env.log.error({ minion: req.id }, `Pillar render error: ${e.split('\n')[0]}`);
    pillar._errors = errors;
  }
  if (Object.keys(req.pillarOverride).length > 0) pillar = merge(pillar, req.pillarOverride);
  return pillar;
}

/** What pillar templates render with: the requesting minion's grains, the pillar so far, the roots. */
function renderContext(env: CompileEnv, req: PillarRequest, pillar: PillarData) {
  const o = env.options;
  let salt: ReturnType<NonNullable<CompileEnv['functions']>> | undefined;
  return {
    grains: req.grains,
    pillar,
    opts: o.opts,
    roots: o.roots,
    renderer: o.renderer,
    renderers: env.renderers,
    // made when a render first asks: a minion's start-up `_pillar` with no template to render
    // (every sign-in's) then costs no copy of the master's options and no render timer
    get salt() {
      salt ??= env.functions?.(req, requestPillarenv(req, o));
      return salt;
    },
  };
}

function slsSource(env: CompileEnv, ignored: IgnoredSls, req: PillarRequest, pillar: PillarData) {
  const o = env.options;
  return {
    roots: o.roots,
    strategy: o.strategy,
    mergeLists: o.mergeLists,
    renderer: o.renderer,
    safeRenderError: o.safeRenderError,
    includesOverrideSls: o.includesOverrideSls,
    ignored,
    render: renderContext(env, req, pillar),
    log: env.log,
  };
}
