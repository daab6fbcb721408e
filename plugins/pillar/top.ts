/**
 * The pillar top file (Salt's `Pillar.get_tops`, `merge_tops` and `top_matches`): each
 * pillarenv's `top.sls` (and the top files it includes) rendered, merged into
 * `{env: {target: [match options..., sls...]}}` sorted by `order`, then matched against one
 * minion with the kernel's matchers (default `compound`, or the entry's `match:`).
 */
import { type MinionMatchContext, matchType } from '../../kernel/services.js';
import { isMapping } from '../../modules/_traverse.js';
import type { PillarData } from './merge.js';
import { errorText, type PillarLog } from './pillar-log.js';
import { logLine, type PillarRenderContext, renderPillarFile } from './render.js';
import { findFile, findSls, type PillarRoots } from './roots.js';

/** The merged top: env → target → its entries (match options first, then SLS names). */
export type MergedTop = Map<string, Map<string, unknown[]>>;

/** SLS names listed under `ignore_missing: True` targets, by env. */
export type IgnoredSls = Map<string, Set<string>>;

export interface TopSource {
  roots: PillarRoots;
  stateTop: string;
  pillarenv: string | null;
  /** The minion's saltenv (`none` strategy reads only that env's top file). */
  saltenv: string | null;
  strategy: string;
  render: Omit<PillarRenderContext, 'path' | 'saltenv'>;
  log: PillarLog;
}

/** The environments whose top files are read. */
function topEnvs(src: TopSource): string[] {
  const envs = Object.keys(src.roots);
  if (src.pillarenv) return envs.includes(src.pillarenv) ? [src.pillarenv] : [];
  if (src.strategy === 'none') return envs.filter((e) => e === (src.saltenv || 'base'));
  return envs;
}

/** Salt's `get_tops`: the rendered top files by env, and the errors met. */
export async function getTops(
  src: TopSource,
): Promise<{ tops: Map<string, PillarData[]>; errors: string[] }> {
  const tops = new Map<string, PillarData[]>();
  const errors: string[] = [];
  const add = (env: string, data: unknown) => {
    if (!isMapping(data)) return;
    const list = tops.get(env) ?? [];
    list.push(data);
    tops.set(env, list);
  };
  try {
    for (const env of topEnvs(src)) {
      const path = findFile(src.roots, env, src.stateTop);
      if (path) add(env, await renderPillarFile({ ...src.render, path, rel: src.stateTop, saltenv: env }));
    }
  } catch (err) {
    errors.push(`Rendering Primary Top file failed, render error:\n${errorText(err)}`);
    src.log.error({ err: logLine(err) }, 'Pillar top file rendering failed');
  }
  // includes of the top files, each rendered once per env
  const done = new Map<string, Set<string>>();
  for (const [env, list] of tops) {
    const queue: string[] = [];
    for (const top of list) {
      if (Array.isArray(top.include)) queue.push(...top.include.map(String));
      delete top.include;
    }
    const seen = done.get(env) ?? new Set<string>();
    done.set(env, seen);
    for (const sls of queue) {
      if (seen.has(sls)) continue;
      seen.add(sls);
      try {
        const file = findSls(src.roots, env, sls);
        if (!file) throw new Error(`SLS '${sls}' not found`);
        add(
          env,
          await renderPillarFile({ ...src.render, path: file.path, rel: file.source, saltenv: env, sls }),
        );
      } catch (err) {
        errors.push(`Rendering Top file ${sls} failed, render error:\n${errorText(err)}`);
      }
    }
  }
  return { tops, errors };
}

/** Salt's `merge_tops` and `sort_top_targets`. */
export function mergeTops(tops: Map<string, PillarData[]>, ignored: IgnoredSls): MergedTop {
  const top: MergedTop = new Map();
  const orders = new Map<string, Map<string, number>>();
  for (const list of tops.values()) {
    for (const ctop of list) {
      for (const [env, targets] of Object.entries(ctop)) {
        if (env === 'include' || !isMapping(targets)) continue;
        const envTop = top.get(env) ?? new Map<string, unknown[]>();
        top.set(env, envTop);
        const envOrders = orders.get(env) ?? new Map<string, number>();
        orders.set(env, envOrders);
        for (const [tgt, comps] of Object.entries(targets)) {
          const matches: unknown[] = [];
          const states: string[] = [];
          let ignoreMissing = false;
          envOrders.set(tgt, 0);
          for (const comp of Array.isArray(comps) ? comps : []) {
            if (isMapping(comp)) {
              if ('match' in comp) matches.push(comp);
              if ('order' in comp) {
                const order = Number.parseInt(String(comp.order), 10);
                envOrders.set(tgt, Number.isNaN(order) ? 0 : order);
              }
              if (comp.ignore_missing === true) ignoreMissing = true;
            } else if (typeof comp === 'string' && !states.includes(comp)) states.push(comp);
          }
          if (ignoreMissing) {
            const set = ignored.get(env) ?? new Set<string>();
            for (const s of states) set.add(s);
            ignored.set(env, set);
          }
          envTop.set(tgt, [...matches, ...states]);
        }
      }
    }
  }
  const sorted: MergedTop = new Map();
  for (const [env, targets] of top) {
    const order = orders.get(env)!;
    const keys = [...targets.keys()].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    sorted.set(env, new Map(keys.map((k) => [k, targets.get(k)!])));
  }
  return sorted;
}

export interface TopMinion {
  id: string;
  grains: Readonly<Record<string, unknown>>;
  /** The pillar a `match: pillar` entry sees (the ext_pillar data with `ext_pillar_first`). */
  pillar: Readonly<Record<string, unknown>>;
  nodegroups: Readonly<Record<string, unknown>>;
}

/** Salt's `confirm_top`: the entry's `match:` (default `compound`) against the minion; a bad pattern is no match. */
export function confirmTop(target: string, entries: readonly unknown[], minion: TopMinion): boolean {
  let matcher = 'compound';
  for (const e of entries) if (isMapping(e) && typeof e.match === 'string') matcher = e.match;
  try {
    return matchType(matcher, target, minion.id, {
      grains: minion.grains,
      pillar: minion.pillar,
      nodegroups: minion.nodegroups as MinionMatchContext['nodegroups'],
    });
  } catch {
    return false;
  }
}

/** Salt's `top_matches`: `{env: [sls patterns]}` for this minion. */
export function topMatches(
  top: MergedTop,
  minion: TopMinion,
  pillarenv: string | null,
): Map<string, string[]> {
  const matches = new Map<string, string[]>();
  for (const [env, body] of top) {
    if (pillarenv && env !== pillarenv) continue;
    for (const [tgt, entries] of body) {
      if (!confirmTop(tgt, entries, minion)) continue;
      const list = matches.get(env) ?? [];
      matches.set(env, list);
      for (const item of entries) if (typeof item === 'string' && !list.includes(item)) list.push(item);
    }
  }
  return matches;
}
