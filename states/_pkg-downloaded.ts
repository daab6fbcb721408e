/**
 * `pkg.downloaded` (Salt's `downloaded` and `_find_download_targets` in `salt/states/pkg.py`):
 * make sure the named packages (or `pkgs`, with versions) sit in apt's cache, fetched with
 * `pkg.install downloadonly=True` and checked against `pkg.list_downloaded`.
 */
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { desiredPkg, fulfillsVersionString, pkgFailure, repackPkgs } from './_pkg-versions.js';

/** `pkg.downloaded`'s arguments (Salt's names). */
export interface DownloadedArgs {
  name: string;
  version: string | null;
  pkgs: unknown;
  fromrepo: string | null;
  ignore_epoch: boolean | null;
  /** Other keywords, passed to `pkg.install` (less `downloadonly`). */
  kwargs: Record<string, unknown>;
}

type Cache = Record<string, Record<string, unknown>>;
type Wanted = Record<string, string | null>;

const done = (name: string, result: boolean, comment: string): StateReturn => ({
  name,
  changes: {},
  result,
  comment,
});

/** The packages still to fetch, or the state's answer when there is none (or a bad request). */
async function downloadTargets(
  ctx: StateContext,
  a: DownloadedArgs,
  pkgs: unknown,
  cache: Cache,
): Promise<{ targets: Wanted } | { answer: StateReturn }> {
  const normalize = a.kwargs.normalize === undefined ? true : Boolean(a.kwargs.normalize);
  let wanted: Wanted;
  if (pkgs) {
    wanted = repackPkgs(pkgs);
    if (!Object.keys(wanted).length)
      return { answer: done(a.name, false, 'Invalidly formatted pkgs parameter. See minion log.') };
  } else {
    const key = normalize ? String(await ctx.call('pkg.normalize_name', [a.name], {})) : a.name;
    wanted = { [key]: a.version };
    const cver = cache[a.name] ?? {};
    if (a.name in wanted && Object.keys(cver).length) {
      if (a.version !== null && a.version in cver)
        return {
          answer: done(a.name, true, `Version ${a.version} of package '${a.name}' is already downloaded`),
        };
      if (a.version === null)
        return { answer: done(a.name, true, `Package ${a.name} is already downloaded`) };
    }
  }
  let versionSpec = false;
  const targets: Wanted = {};
  for (const [pkgname, pkgver] of Object.entries(wanted)) {
    const cver = Object.keys(cache[pkgname] ?? {});
    if (!cver.length) targets[pkgname] = pkgver;
    else if (pkgver) {
      versionSpec = true;
      if (!(await fulfillsVersionString(ctx, cver, pkgver, a.ignore_epoch))) targets[pkgname] = pkgver;
    }
  }
  if (!Object.keys(targets).length) {
    const which = versionSpec ? ' (matching specified versions)' : '';
    return { answer: done(a.name, true, `All specified packages${which} are already downloaded`) };
  }
  return { targets };
}

/** The targets `pkg.list_downloaded` still lacks after the download (Salt's `_verify_install`). */
async function missing(ctx: StateContext, targets: Wanted, cache: Cache, ignoreEpoch: boolean | null) {
  const failed: string[] = [];
  for (const [pkgname, pkgver] of Object.entries(targets)) {
    const cver = Object.keys(cache[pkgname.split('=')[0] ?? pkgname] ?? {});
    if (!cver.length) failed.push(pkgname);
    else if (!pkgver || pkgver === 'latest') continue;
    else if (pkgver.endsWith('*') && (cver[0] ?? '').startsWith(pkgver.slice(0, -1))) continue;
    else if (!(await fulfillsVersionString(ctx, cver, pkgver, ignoreEpoch))) failed.push(pkgname);
  }
  return failed;
}

/** Salt's `pkg.downloaded`. */
export async function downloaded(ctx: StateContext, a: DownloadedArgs): Promise<StateReturn> {
  if (Array.isArray(a.pkgs) && a.pkgs.length === 0)
    return done(a.name, true, 'No packages to download provided');
  let pkgs = a.pkgs;
  let version = a.version;
  if (a.name && !pkgs) {
    pkgs = version ? [{ [a.name]: version }] : [a.name];
    version = null;
  }
  const { downloadonly: _ignored, ...kwargs } = a.kwargs;
  // Salt hands the state's other keywords (root, ...) to list_downloaded too
  const list = async () => (await ctx.call('pkg.list_downloaded', [], kwargs)) as Cache;
  const found = await downloadTargets(ctx, { ...a, version, kwargs }, pkgs, await list());
  if ('answer' in found) return found.answer;
  const wanted = found.targets;
  if (ctx.test) {
    const summary = Object.keys(wanted).join(', ');
    return {
      name: a.name,
      changes: {},
      result: null,
      comment: `The following packages would be downloaded: ${summary}`,
    };
  }
  let changes: Record<string, unknown>;
  try {
    const kw = {
      ...kwargs,
      name: a.name,
      pkgs,
      version,
      downloadonly: true,
      fromrepo: a.fromrepo,
      ignore_epoch: a.ignore_epoch,
    };
    changes = { ...(((await ctx.call('pkg.install', [], kw)) ?? {}) as Record<string, unknown>) };
  } catch (err) {
    const f = pkgFailure(err);
    return {
      name: a.name,
      result: false,
      changes: f.withoutChanges === undefined ? {} : f.changes,
      comment: f.withoutChanges ?? `An error was encountered while downloading package(s): ${f.message}`,
    };
  }
  const failed = await missing(ctx, wanted, await list(), a.ignore_epoch);
  if (failed.length) {
    const summary = failed.map((x) => desiredPkg(x, wanted)).join(', ');
    return {
      name: a.name,
      changes,
      result: false,
      comment: `The following packages failed to download: ${summary}`,
    };
  }
  if (!Object.keys(changes).length)
    return {
      name: a.name,
      changes,
      result: true,
      comment: `Packages downloaded: ${Object.keys(wanted).join(', ')}`,
    };
  return { name: a.name, changes, result: true, comment: '' };
}
