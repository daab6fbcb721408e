/**
 * `pkg.latest` and `pkg.uptodate` (Salt's `latest` and `uptodate` in `salt/states/pkg.py`):
 * install or upgrade to the newest candidate, and upgrade the whole system.
 */
import { pyTruthy } from '../kernel/util.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { pkgFailure, repackPkgs } from './_pkg-versions.js';

const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

/** Salt's `pkg.latest`. */
export async function latest(
  ctx: StateContext,
  a: {
    name: string;
    refresh?: boolean;
    fromrepo?: string | null;
    skip_verify?: boolean;
    pkgs?: unknown;
    kwargs: Record<string, unknown>;
  },
): Promise<StateReturn> {
  const { name } = a;
  const fail = (comment: string, result: boolean | null = false): StateReturn => ({
    name,
    changes: {},
    result,
    comment,
  });
  if (a.kwargs.sources) return fail('The "sources" parameter is not supported.');
  let desiredPkgs: string[];
  // Python's truth: an empty `pkgs:` list is no packages, not badly formatted ones
  if (pyTruthy(a.pkgs)) {
    desiredPkgs = Object.keys(repackPkgs(a.pkgs));
    if (!desiredPkgs.length) return fail('Invalidly formatted "pkgs" parameter. See minion log.');
  } else if (Array.isArray(a.pkgs)) return fail('No packages to install provided', true);
  else desiredPkgs = [name];
  let avail: unknown;
  try {
    avail = await ctx.call('pkg.latest_version', desiredPkgs, {
      fromrepo: a.fromrepo ?? null,
      refresh: Boolean(a.refresh),
    });
  } catch (err) {
    return fail(
      `An error was encountered while checking the newest available version of package(s): ${(err as Error).message}`,
    );
  }
  let cur: unknown;
  try {
    cur = await ctx.call('pkg.version', desiredPkgs);
  } catch (err) {
    return fail((err as Error).message);
  }
  const first = desiredPkgs[0] ?? '';
  const curMap = (typeof cur === 'string' ? { [first]: cur } : cur) as Record<string, string>;
  const availMap = (typeof avail === 'string' ? { [first]: avail } : avail) as Record<string, string>;
  const targets: Record<string, string> = {};
  const problems: string[] = [];
  for (const pkg of desiredPkgs) {
    if (!availMap[pkg]) {
      if (!curMap[pkg]) problems.push(`No information found for '${pkg}'.`);
    } else targets[pkg] = availMap[pkg];
  }
  if (problems.length) return fail(problems.join(' '));
  const tnames = Object.keys(targets);
  if (!tnames.length) {
    const comment =
      desiredPkgs.length > 10
        ? `All ${desiredPkgs.length} packages are up-to-date.`
        : desiredPkgs.length > 1
          ? `All packages are up-to-date (${sorted(desiredPkgs).join(', ')}).`
          : `Package ${first} is already up-to-date`;
    return fail(comment, true);
  }
  const upToDate = a.pkgs ? Object.keys(repackPkgs(a.pkgs)).filter((x) => !(x in targets)) : [];
  if (ctx.test) {
    const comments = [`The following packages would be installed/upgraded: ${sorted(tnames).join(', ')}`];
    if (upToDate.length)
      comments.push(
        upToDate.length <= 10
          ? `The following packages are already up-to-date: ${sorted(upToDate)
              .map((x) => `${x} (${curMap[x]})`)
              .join(', ')}`
          : `${upToDate.length} packages are already up-to-date`,
      );
    return fail(comments.join('\n'), null);
  }
  let changes: Record<string, { new?: string; old?: string }>;
  try {
    const kw: Record<string, unknown> = {
      ...a.kwargs,
      name: null,
      refresh: false,
      fromrepo: a.fromrepo ?? null,
      skip_verify: Boolean(a.skip_verify),
      pkgs: tnames,
    };
    changes = ((await ctx.call('pkg.install', [], kw)) ?? {}) as typeof changes;
  } catch (err) {
    return fail(`An error was encountered while installing package(s): ${pkgFailure(err).message}`);
  }
  if (Object.keys(changes).length) {
    const failed = tnames.filter((x) => {
      const c = changes[x];
      return (
        !c ||
        (c.new != null &&
          !String(c.new)
            .split(',')
            .includes(targets[x] ?? '') &&
          targets[x] !== 'latest')
      );
    });
    const ok = tnames.filter((x) => !failed.includes(x));
    const comments: string[] = [];
    if (failed.length) comments.push(`The following packages failed to update: ${sorted(failed).join(', ')}`);
    if (ok.length)
      comments.push(`The following packages were successfully installed/upgraded: ${sorted(ok).join(', ')}`);
    if (upToDate.length)
      comments.push(
        upToDate.length <= 10
          ? `The following packages were already up-to-date: ${sorted(upToDate).join(', ')}`
          : `${upToDate.length} packages were already up-to-date `,
      );
    return { name, changes, result: !failed.length, comment: comments.join(' ') };
  }
  let comment =
    tnames.length > 10
      ? `${tnames.length} targeted packages failed to update. See debug log for details.`
      : tnames.length > 1
        ? `The following targeted packages failed to update. See debug log for details: (${sorted(tnames).join(', ')}).`
        : `Package ${tnames[0]} failed to update.`;
  if (upToDate.length)
    comment +=
      upToDate.length <= 10
        ? ` The following packages were already up-to-date: ${sorted(upToDate).join(', ')}`
        : `${upToDate.length} packages were already up-to-date`;
  return { name, changes, result: false, comment };
}

/** Salt's `pkg.uptodate`. */
export async function uptodate(
  ctx: StateContext,
  a: { name: string; refresh: unknown; pkgs?: unknown; kwargs: Record<string, unknown> },
): Promise<StateReturn> {
  const ret: StateReturn = { name: a.name, changes: {}, result: false, comment: 'Failed to update' };
  if (typeof a.refresh !== 'boolean') {
    ret.comment = 'refresh must be either True or False';
    return ret;
  }
  let packages: string[];
  let expected: Record<string, { new: string; old: unknown }> = {};
  try {
    const ups = (await ctx.call('pkg.list_upgrades', [], { ...a.kwargs, refresh: a.refresh })) as Record<
      string,
      string
    >;
    for (const [p, v] of Object.entries(ups))
      expected[p] = { new: v, old: await ctx.call('pkg.version', [p]) };
    packages = Object.keys(ups);
    if (Array.isArray(a.pkgs)) {
      const wanted = a.pkgs.map(String);
      packages = packages.filter((p) => wanted.includes(p));
      expected = Object.fromEntries(Object.entries(expected).filter(([p]) => wanted.includes(p)));
    }
  } catch (err) {
    ret.comment = (err as Error).message;
    return ret;
  }
  if (!packages.length) return { ...ret, comment: 'System is already up-to-date', result: true };
  if (ctx.test)
    return { ...ret, comment: 'System update will be performed', changes: expected, result: null };
  try {
    ret.changes = (await ctx.call('pkg.upgrade', [], {
      ...a.kwargs,
      refresh: a.refresh,
      pkgs: a.pkgs ?? null,
    })) as Record<string, unknown>;
  } catch (err) {
    const f = pkgFailure(err);
    ret.changes = f.withoutChanges === undefined ? {} : f.changes;
    ret.comment = f.withoutChanges ?? `An error was encountered while updating packages: ${f.message}`;
    return ret;
  }
  const missing = Array.isArray(a.pkgs) ? Object.keys(expected).filter((p) => !(p in ret.changes)) : [];
  if (missing.length) {
    ret.comment = `The following package(s) failed to update: ${missing.join(', ')}`;
    ret.result = false;
  } else {
    ret.comment = 'Upgrade ran successfully';
    ret.result = true;
  }
  return ret;
}
