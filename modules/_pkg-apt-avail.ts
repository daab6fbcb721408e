/**
 * Version comparisons in apt installs (Salt's `aptpkg.list_repo_pkgs` for named packages and
 * `salt.utils.pkg.match_version`): a wanted `>=1.2` or `<2.0` becomes the first version
 * `apt-cache show` lists that satisfies it.
 */
import type { ExecContext } from '../kernel/index.js';
import { callApt } from './_pkg-apt-call.js';
import { debVersionCompare } from './_pkg-debver.js';
import { cmpSatisfies, isCmpOperator } from './_version-cmp.js';

/** Salt's `list_repo_pkgs(*names, byrepo=False)`: each package's versions, as apt-cache lists them. */
export async function repoVersions(
  ctx: ExecContext,
  names: readonly string[],
): Promise<Record<string, string[]>> {
  const out = await callApt(ctx, ['apt-cache', 'show', ...names]);
  const ret: Record<string, string[]> = {};
  let current: string | undefined;
  for (const line of out.stdout.split('\n')) {
    if (!line.trim()) continue;
    const m = /^Package: (.+)/.exec(line);
    if (m && m[1] !== current) {
      current = m[1];
      continue;
    }
    const [key, rest] = line.trim().split(/\s+(.*)/s);
    if (key !== 'Version:' || current === undefined) continue;
    const list = ret[current] ?? [];
    list.push(rest ?? '');
    ret[current] = list;
  }
  return ret;
}

/** Salt's `match_version`: the first candidate satisfying `desired` (`>=1.2`, `<2.0`, `1.0`), or null. */
export function matchVersion(desired: string, candidates: readonly string[]): string | null {
  const m = /^(<=>|!=|>=|<=|>>|<<|<>|>|<|=)?\s?([^<>=]+)$/.exec(desired);
  const oper = (m ? m[1] || '==' : '==') as string;
  const version = m ? (m[2] ?? '') : desired;
  if (!isCmpOperator(oper)) return null;
  return candidates.find((c) => cmpSatisfies(oper, debVersionCompare(c, version))) ?? null;
}
