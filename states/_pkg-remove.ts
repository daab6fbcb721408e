/**
 * `pkg.removed` and `pkg.purged` (Salt's `_find_remove_targets` and `_uninstall` in
 * `salt/states/pkg.py`): the installed packages that match the names (and versions), removed
 * or purged through `pkg.remove`/`pkg.purge`, then checked against the new package list.
 */
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { fulfillsVersionString, pkgFailure, repackPkgs } from './_pkg-versions.js';

type PkgList = Record<string, string[]>;

async function findRemoveTargets(
  ctx: StateContext,
  name: string,
  version: string | null,
  pkgs: unknown,
  ignoreEpoch: boolean | null,
): Promise<string[] | StateReturn> {
  const cur = (await ctx.call('pkg.list_pkgs', [], { versions_as_list: true })) as PkgList;
  let toRemove: Record<string, string | null>;
  if (pkgs) {
    toRemove = repackPkgs(pkgs);
    if (!Object.keys(toRemove).length)
      return {
        name,
        changes: {},
        result: false,
        comment: 'Invalidly formatted pkgs parameter. See minion log.',
      };
  } else toRemove = { [name]: version };
  let versionSpec = false;
  const targets: string[] = [];
  for (const [pkgname, pkgver] of Object.entries(toRemove)) {
    const cver = cur[pkgname] ?? [];
    if (!cver.length) continue;
    if (pkgver === null) {
      targets.push(pkgname);
      continue;
    }
    versionSpec = true;
    if (await fulfillsVersionString(ctx, cver, pkgver, ignoreEpoch)) targets.push(pkgname);
  }
  if (!targets.length)
    return {
      name,
      changes: {},
      result: true,
      comment: `All specified packages${versionSpec ? ' (matching specified versions)' : ''} are already absent`,
    };
  return targets;
}

/** The names `parse_targets` gives for `name` or `pkgs`. */
function paramsOf(name: string, pkgs: unknown): string[] {
  if (Array.isArray(pkgs) ? pkgs.length : pkgs) return Object.keys(repackPkgs(pkgs));
  return name ? name.split(',') : [];
}

/** Salt's `_uninstall` with its error handling (`removed`/`purged`). */
export async function uninstall(
  ctx: StateContext,
  action: 'remove' | 'purge',
  a: { name: string; version?: string | null; pkgs?: unknown; ignore_epoch?: boolean | null },
): Promise<StateReturn> {
  const { name } = a;
  // as in Salt, a bad target list (a name given twice) is not caught: the state's exception
  const params = paramsOf(name, a.pkgs);
  const found = await findRemoveTargets(ctx, name, a.version ?? null, a.pkgs, a.ignore_epoch ?? null);
  try {
    let targets: string[];
    if (!Array.isArray(found)) {
      if (action !== 'purge') return found;
      targets = [];
    } else targets = found;
    if (action === 'purge') {
      const oldRemoved = (await ctx.call('pkg.list_pkgs', [], {
        versions_as_list: true,
        removed: true,
      })) as PkgList;
      targets.push(...params.filter((x) => x in oldRemoved));
    }
    targets.sort();
    if (!targets.length)
      return {
        name,
        changes: {},
        result: true,
        comment: `None of the targeted packages are installed${action === 'purge' ? ' or partially installed' : ''}`,
      };
    if (ctx.test) {
      const changes: Record<string, unknown> = {};
      for (const x of targets) changes[x] = { new: `${action}d`, old: '' };
      return {
        name,
        changes,
        result: null,
        comment: `The following packages will be ${action}d: ${targets.join(', ')}.`,
      };
    }
    const changes = (await ctx.call(`pkg.${action}`, [], { name, pkgs: a.pkgs ?? null })) as Record<
      string,
      unknown
    >;
    const now = (await ctx.call('pkg.list_pkgs', [], { versions_as_list: true })) as PkgList;
    const failed = params.filter((p) => p in now);
    if (action === 'purge') {
      const nowRemoved = (await ctx.call('pkg.list_pkgs', [], {
        versions_as_list: true,
        removed: true,
      })) as PkgList;
      failed.push(...params.filter((p) => p in nowRemoved));
    }
    failed.sort();
    if (failed.length)
      return {
        name,
        changes,
        result: false,
        comment: `The following packages failed to ${action}: ${failed.join(', ')}.`,
      };
    const notInstalled = params.filter((x) => !targets.includes(x)).sort();
    const comments = notInstalled.length
      ? [
          `The following packages were not installed: ${notInstalled.join(', ')}`,
          `The following packages were ${action}d: ${targets.join(', ')}.`,
        ]
      : [`All targeted packages were ${action}d.`];
    return { name, changes, result: true, comment: comments.join(' ') };
  } catch (err) {
    const f = pkgFailure(err);
    const verb = action === 'purge' ? 'purging' : 'removing';
    return {
      name,
      result: false,
      changes: f.withoutChanges === undefined ? {} : f.changes,
      comment: f.withoutChanges ?? `An error was encountered while ${verb} package(s): ${f.message}`,
    };
  }
}
