/**
 * The apt/dpkg backend of the `pkg` module (Salt's `salt/modules/aptpkg.py`): the installed
 * packages from `dpkg-query`, candidates from `apt-cache policy`, installs, removals and
 * upgrades with `apt-get`, version order from Debian's rules. The installed list is kept in
 * the job's `ctx.cache` (Salt's `__context__["pkg.list_pkgs"]`) until something changes it
 * (tsalt's own change, or any change to dpkg's status file).
 */
import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { matchVersion, repoVersions } from './_pkg-apt-avail.js';
import { callApt } from './_pkg-apt-call.js';
import { getSelections, hold, unhold } from './_pkg-apt-select.js';
import { debVersionCompare } from './_pkg-debver.js';
import { execCommand } from './_pkg-exec.js';
import {
  compareDicts,
  type PkgList,
  type PkgVersions,
  parseTargets,
  selectVersions,
  stringify,
} from './_pkg-targets.js';

const APT_LISTS_PATH = '/var/lib/apt/lists';
const CACHE_KEY = 'pkg.list_pkgs';

interface PkgDb {
  installed: PkgList;
  removed: PkgList;
  purge_desired: PkgList;
}

/** Salt's `version_cmp`: -1, 0 or 1; `ignore_epoch` drops the `N:` prefixes first. */
export function versionCmp(a: unknown, b: unknown, ignoreEpoch = false): -1 | 0 | 1 {
  const norm = (x: unknown): string => (ignoreEpoch ? (pyStr(x).split(':').slice(-1)[0] ?? '') : pyStr(x));
  return debVersionCompare(norm(a), norm(b));
}

/** Salt's `salt.utils.versions.compare` with the Debian order. */
export function versionCompare(a: string, oper: '<' | '<=' | '==' | '>=' | '>' | '!=', b: string): boolean {
  const r = versionCmp(a, b);
  switch (oper) {
    case '<':
      return r < 0;
    case '<=':
      return r <= 0;
    case '==':
      return r === 0;
    case '>=':
      return r >= 0;
    case '>':
      return r > 0;
    default:
      return r !== 0;
  }
}

/** The dpkg architecture (the `osarch` grain, else `dpkg --print-architecture`). */
export async function osarch(ctx: ExecContext): Promise<string> {
  const g = ctx.grains.osarch;
  if (typeof g === 'string' && g) return g;
  const cached = ctx.cache.get('pkg.osarch');
  if (typeof cached === 'string') return cached;
  const out = (await execCommand(['dpkg', '--print-architecture'])).stdout.trim();
  ctx.cache.set('pkg.osarch', out);
  return out;
}

function addPkg(list: PkgList, name: string, ver: string): void {
  const have = list[name];
  if (have) {
    if (!have.includes(ver)) have.push(ver);
  } else list[name] = [ver];
}

function sortList(list: PkgList): void {
  for (const v of Object.values(list)) v.sort();
}

/** dpkg's status file: every install, removal or purge rewrites it. */
const DPKG_STATUS = '/var/lib/dpkg/status';

/** The status file's identity now: a kept list read before another change is not served. */
function dpkgStamp(): string {
  try {
    const st = statSync(DPKG_STATUS);
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return '';
  }
}

async function readDb(ctx: ExecContext, useContext = true): Promise<PkgDb> {
  // Salt keeps the list in a forked job's __context__, so a job never sees another job's list;
  // tsalt's job process lives on, so a kept list holds only while dpkg's status file is unchanged
  const stamp = dpkgStamp();
  const cached = ctx.cache.get(CACHE_KEY) as { stamp: string; db: PkgDb } | undefined;
  if (cached && useContext && cached.stamp === stamp) return structuredClone(cached.db);
  const db: PkgDb = { installed: {}, removed: {}, purge_desired: {} };
  const out = await execCommand([
    'dpkg-query',
    '--showformat',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not a template
    '${Status} ${Package} ${Version} ${Architecture}\n',
    '-W',
  ]);
  const arch = await osarch(ctx);
  const x86 = ctx.grains.cpuarch === undefined || ctx.grains.cpuarch === 'x86_64';
  for (const line of out.stdout.split('\n')) {
    const cols = line.split(/\s+/).filter(Boolean);
    if (cols.length < 6) continue;
    const [linetype = '', , status = '', pkgName = '', ver = '', pkgArch = ''] = cols;
    let name = pkgName;
    if (x86 && pkgArch !== 'all' && arch === 'amd64' && arch !== pkgArch) name += `:${pkgArch}`;
    if ((linetype.includes('install') || linetype.includes('hold')) && status.includes('installed'))
      addPkg(db.installed, name, ver);
    else if (linetype.includes('deinstall')) addPkg(db.removed, name, ver);
    else if (linetype.includes('purge') && status === 'installed') addPkg(db.purge_desired, name, ver);
  }
  sortList(db.installed);
  sortList(db.removed);
  sortList(db.purge_desired);
  ctx.cache.set(CACHE_KEY, { stamp, db: structuredClone(db) });
  return db;
}

/** Forgets the cached package list (after a change). */
export function forgetPkgs(ctx: ExecContext): void {
  ctx.cache.delete(CACHE_KEY);
}

/** Salt's `pkg.list_pkgs`: installed packages → version (lists with `versions_as_list`). */
export async function listPkgs(
  ctx: ExecContext,
  o: { versionsAsList?: boolean; removed?: boolean; purgeDesired?: boolean; useContext?: boolean } = {},
): Promise<PkgList | PkgVersions> {
  const db = await readDb(ctx, o.useContext ?? true);
  const ret: PkgList = o.removed
    ? db.removed
    : o.purgeDesired
      ? db.purge_desired
      : { ...db.purge_desired, ...db.installed };
  return o.versionsAsList ? ret : stringify(ret);
}

const installedLists = async (ctx: ExecContext): Promise<PkgList> =>
  (await listPkgs(ctx, { versionsAsList: true })) as PkgList;
const installedStrings = async (ctx: ExecContext, removed = false): Promise<PkgVersions> =>
  (await listPkgs(ctx, { removed })) as PkgVersions;

/** Salt's `pkg.version` (`pkg_resource.version`): one name gives a string, several a map; globs match. */
export async function version(
  ctx: ExecContext,
  names: readonly string[],
  versionsAsList = false,
): Promise<string | string[] | Record<string, string | string[]>> {
  return selectVersions(names.length ? await installedLists(ctx) : {}, names, versionsAsList);
}

/** Salt's `pkg.refresh_db`: `apt-get update`; each source → true (fetched), null (up to date), false (failed). */
export async function refreshDb(
  ctx: ExecContext,
  cacheValidTime = 0,
  failhard = false,
): Promise<Record<string, boolean | null>> {
  // Salt's clear_rtag: a state run that refreshed once does not refresh again
  if (typeof ctx.opts.cachedir === 'string' && ctx.opts.cachedir)
    rmSync(path.join(ctx.opts.cachedir, 'pkg_refresh'), { force: true });
  const ret: Record<string, boolean | null> = {};
  if (cacheValidTime) {
    try {
      if (statSync(APT_LISTS_PATH).mtimeMs / 1000 + cacheValidTime > Date.now() / 1000) return ret;
    } catch {
      // no lists: refresh
    }
  }
  const call = await callApt(ctx, ['apt-get', '-q', 'update']);
  if (call.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(call.stderr);
  const errors: string[] = [];
  for (const line of call.stdout.split('\n')) {
    const cols = line.split(/\s+/).filter(Boolean);
    if (!cols.length) continue;
    let ident = cols.slice(1).join(' ');
    const head = cols[0] ?? '';
    if (head.includes('Get')) {
      ident = ident.replace(/ \[.+B\]$/, '');
      ret[ident] = true;
    } else if (head.includes('Ign')) ret[ident] = false;
    else if (head.includes('Hit')) ret[ident] = null;
    else if (head.includes('Err')) {
      ret[ident] = false;
      errors.push(ident);
    }
  }
  if (failhard && errors.length) throw new SALT_ERR_EXEC_COMMAND(`Error getting repos: ${errors.join(', ')}`);
  return ret;
}

/** The `Candidate:` of `apt-cache policy name` ('' when none). */
export async function candidate(ctx: ExecContext, name: string, fromrepo?: string | null): Promise<string> {
  const cmd = ['apt-cache', '-q', 'policy', name];
  if (fromrepo) cmd.push('-o', `APT::Default-Release=${fromrepo}`);
  const out = await callApt(ctx, cmd);
  for (const line of out.stdout.split('\n')) {
    if (line.includes('Candidate')) {
      const comps = line.trim().split(/\s+/);
      const c = comps.length >= 2 ? (comps[comps.length - 1] ?? '') : '';
      return c.toLowerCase() === '(none)' ? '' : c;
    }
  }
  return '';
}

/** Salt's `pkg.latest_version`: the candidate when it is newer than what is installed, else ''. */
export async function latestVersion(
  ctx: ExecContext,
  names: readonly string[],
  o: { refresh?: boolean; showInstalled?: boolean; fromrepo?: string | null; cacheValidTime?: number } = {},
): Promise<string | Record<string, string>> {
  if (!names.length) return '';
  const ret: Record<string, string> = {};
  for (const n of names) ret[n] = '';
  const pkgs = await installedLists(ctx);
  if (o.refresh ?? true) await refreshDb(ctx, o.cacheValidTime ?? 0);
  for (const name of names) {
    const cand = await candidate(ctx, name, o.fromrepo);
    const installed = pkgs[name] ?? [];
    if (!installed.length || o.showInstalled) ret[name] = cand;
    else if (cand && !installed.some((x) => versionCompare(x, '>=', cand))) ret[name] = cand;
  }
  return names.length === 1 ? (ret[names[0] ?? ''] ?? '') : ret;
}

/** The package name and version inside a .deb (Salt's `lowpkg.bin_pkg_info`), or null. */
async function debInfo(file: string): Promise<{ name: string; version: string } | null> {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-deb's format, not a template
  const out = await execCommand(['dpkg-deb', '-W', '--showformat', '${Package}\t${Version}', file]);
  if (out.retcode !== 0) return null;
  const [name, ver] = out.stdout.split('\t');
  return name && ver ? { name, version: ver } : null;
}

/** `pkg.install`'s arguments (Salt's names). */
export interface InstallArgs {
  name?: string | null;
  pkgs?: unknown;
  sources?: unknown;
  version?: unknown;
  refresh?: boolean;
  fromrepo?: string | null;
  skip_verify?: boolean;
  reinstall?: boolean;
  downloadonly?: boolean;
  force_yes?: boolean;
  force_conf_new?: boolean;
  install_recommends?: boolean;
  only_upgrade?: boolean;
  ignore_epoch?: boolean;
  cache_valid_time?: number;
  saltenv?: string;
}

/** The error Salt raises after a failed install/remove: the changes so far and apt's errors. */
function problem(message: string, errors: string[], changes: unknown): Error {
  return new SALT_ERR_EXEC_COMMAND(message, { details: { errors, changes } });
}

/** Salt's `pkg.install` for apt: returns `{pkg: {old, new}}` of what changed. */
export async function install(ctx: ExecContext, a: InstallArgs): Promise<Record<string, unknown>> {
  let refresh = Boolean(a.refresh);
  const targetsFound = await parseTargets(ctx, a);
  if (!targetsFound) return {};
  if (refresh && targetsFound.type === 'repository') {
    // Salt skips the refresh when every wanted version is already the candidate
    const wanted = Object.entries(targetsFound.pkgs);
    if (wanted.every(([, v]) => v !== null)) {
      refresh = false;
      for (const [n, v] of wanted)
        if ((await latestVersion(ctx, [n], { refresh: false, showInstalled: true })) !== v) refresh = true;
    }
  }
  const old = await installedStrings(ctx);
  const targets: string[] = [];
  const downgrade: string[] = [];
  const toReinstall: Record<string, string> = {};
  const errors: string[] = [];
  const items: { name: string | null; version: string | null; arg: string }[] = [];
  if (targetsFound.type === 'repository') {
    for (const [n, v] of Object.entries(targetsFound.pkgs)) items.push({ name: n, version: v, arg: n });
  } else {
    for (const file of targetsFound.files) {
      const info = await debInfo(file);
      if (!info) ctx.log.error(`pkg.install: Unable to get deb information for ${file}.`);
      items.push({ name: info?.name ?? null, version: info?.version ?? null, arg: file });
    }
  }
  const prefix = ['apt-get', '-q', '-y'];
  if (a.force_yes) prefix.push('--force-yes');
  if (a.force_conf_new) prefix.push('-o', 'DPkg::Options::=--force-confnew');
  else prefix.push('-o', 'DPkg::Options::=--force-confold', '-o', 'DPkg::Options::=--force-confdef');
  if (a.install_recommends !== undefined)
    prefix.push(a.install_recommends ? '--install-recommends' : '--no-install-recommends');
  if (a.only_upgrade) prefix.push('--only-upgrade');
  if (a.skip_verify) prefix.push('--allow-unauthenticated');
  if (a.fromrepo && targetsFound.type === 'repository') prefix.push('-t', a.fromrepo);
  prefix.push('install');
  const compared = items.flatMap((i) => (i.name && i.version && /^[<>]/.test(i.version) ? [i.name] : []));
  let available: Record<string, string[]> | undefined;
  for (const item of items) {
    if (item.version === null) {
      if (targetsFound.type === 'repository' && a.reinstall && item.name && item.name in old)
        toReinstall[item.name] = item.name;
      else targets.push(item.arg);
      continue;
    }
    let ver = item.version;
    let pkgstr = item.arg;
    if (targetsFound.type === 'repository') {
      ver = ver.replace(/^=+/, '');
      if (item.name && /^[<>]/.test(item.version)) {
        available ??= await repoVersions(ctx, compared);
        const candidates = available[item.name] ?? [];
        const target = matchVersion(ver, candidates);
        if (target === null) {
          const list = candidates.length ? candidates.join(', ') : 'None';
          errors.push(`No version matching '${item.name}${ver}' could be found (available: ${list})`);
          continue;
        }
        ver = target;
      }
      pkgstr = `${item.name}=${ver}`;
    }
    const cver = item.name ? (old[item.name] ?? '') : '';
    if (a.reinstall && cver && item.name && versionCompare(ver, '==', cver)) toReinstall[item.name] = pkgstr;
    else if (!cver || versionCompare(ver, '>=', cver)) targets.push(pkgstr);
    else downgrade.push(pkgstr);
  }
  const cmds: string[][] = [];
  const all: string[] = [];
  if (targets.length) {
    all.push(...targets);
    cmds.push([...prefix, ...targets]);
  }
  if (downgrade.length) {
    const cmd = [...prefix];
    if (targetsFound.type === 'repository' && !cmd.includes('--force-yes')) cmd.splice(-1, 0, '--force-yes');
    cmds.push([...cmd, ...downgrade]);
  }
  if (a.downloadonly) cmds[cmds.length - 1]?.push('--download-only');
  if (Object.keys(toReinstall).length) {
    all.push(...Object.keys(toReinstall));
    const cmd = [...prefix];
    if (targetsFound.type === 'repository') cmd.push('--reinstall');
    cmds.push([...cmd, ...Object.values(toReinstall)]);
  }
  let ret: Record<string, unknown> = {};
  if (cmds.length) {
    if (refresh) await refreshDb(ctx, a.cache_valid_time ?? 0);
    const held = (await getSelections(ctx, null, 'hold')).hold ?? [];
    const names = all.map((x) => x.split('=')[0] ?? x);
    const toUnhold = held.filter((x) => names.includes(x));
    if (toUnhold.length) await unhold(ctx, { pkgs: toUnhold }, false);
    for (const cmd of cmds) {
      const out = await callApt(ctx, cmd);
      if (out.retcode !== 0 && out.stderr) errors.push(out.stderr);
    }
    forgetPkgs(ctx);
    const now = await installedStrings(ctx);
    ret = compareDicts(old, now);
    for (const n of Object.keys(toReinstall))
      if (!(n in ret) || n in old) ret[n] = { old: old[n] ?? '', new: now[n] ?? '' };
    if (toUnhold.length) await hold(ctx, { pkgs: toUnhold }, false);
  }
  if (errors.length) throw problem('Problem encountered installing package(s)', errors, ret);
  return ret;
}

/** Salt's `_uninstall` for `pkg.remove` and `pkg.purge`. */
export async function uninstall(
  ctx: ExecContext,
  action: 'remove' | 'purge',
  a: { name?: string | null; pkgs?: unknown },
): Promise<Record<string, unknown>> {
  const parsed = await parseTargets(ctx, { name: a.name, pkgs: a.pkgs });
  const wanted = parsed?.type === 'repository' ? Object.keys(parsed.pkgs) : [];
  const old = await installedStrings(ctx);
  const oldRemoved = await installedStrings(ctx, true);
  const targets = wanted.filter((x) => x in old);
  if (action === 'purge') targets.push(...wanted.filter((x) => x in oldRemoved));
  if (!targets.length) return {};
  const out = await callApt(ctx, ['apt-get', '-q', '-y', action, ...targets]);
  const errors = out.retcode !== 0 && out.stderr ? [out.stderr] : [];
  forgetPkgs(ctx);
  const changes = compareDicts(old, await installedStrings(ctx));
  const ret =
    action === 'purge'
      ? { removed: compareDicts(oldRemoved, await installedStrings(ctx, true)), installed: changes }
      : changes;
  if (errors.length) throw problem('Problem encountered removing package(s)', errors, ret);
  return ret;
}

/** Salt's `pkg.upgrade`: `apt-get upgrade` (or `dist-upgrade`); returns what changed. */
export async function upgrade(
  ctx: ExecContext,
  a: {
    refresh: boolean;
    dist_upgrade: boolean;
    cache_valid_time?: number;
    force_conf_new?: boolean;
    force_yes?: boolean;
    skip_verify?: boolean;
    download_only?: boolean;
    allow_downgrades?: boolean;
  },
): Promise<Record<string, unknown>> {
  if (a.refresh) await refreshDb(ctx, a.cache_valid_time ?? 0);
  const old = await installedStrings(ctx);
  const cmd = ['apt-get', '-q', '-y'];
  const dpkgOpts = a.force_conf_new ? ['--force-confnew'] : ['--force-confold', '--force-confdef'];
  for (const o of dpkgOpts) cmd.push('-o', `DPkg::Options::=${o}`);
  if (a.force_yes) cmd.push('--force-yes');
  if (a.skip_verify) cmd.push('--allow-unauthenticated');
  if (a.download_only) cmd.push('--download-only');
  if (a.allow_downgrades) cmd.push('--allow-downgrades');
  cmd.push(a.dist_upgrade ? 'dist-upgrade' : 'upgrade');
  const result = await callApt(ctx, cmd);
  forgetPkgs(ctx);
  const ret = compareDicts(old, await installedStrings(ctx));
  if (result.retcode !== 0)
    throw new SALT_ERR_EXEC_COMMAND('Problem encountered upgrading packages', {
      details: { changes: ret, result },
    });
  return ret;
}

/** Salt's `pkg.list_upgrades`: name → version `apt-get --just-print` would install. */
export async function listUpgrades(
  ctx: ExecContext,
  a: { refresh: boolean; dist_upgrade: boolean; fromrepo?: string | null; cache_valid_time?: number },
): Promise<Record<string, string>> {
  if (a.refresh) await refreshDb(ctx, a.cache_valid_time ?? 0);
  const cmd = ['apt-get', '--just-print', a.dist_upgrade ? 'dist-upgrade' : 'upgrade'];
  if (a.fromrepo) cmd.push('-o', `APT::Default-Release=${a.fromrepo}`);
  const call = await callApt(ctx, cmd);
  if (call.retcode !== 0) {
    const detail = call.stderr || call.stdout;
    throw new SALT_ERR_EXEC_COMMAND(`Failed to get upgrades${detail ? `: ${detail}` : ''}`);
  }
  const ret: Record<string, string> = {};
  for (const m of call.stdout.matchAll(/^Conf ([^ ]+) \(([^ ]+)/gm)) ret[m[1] ?? ''] = m[2] ?? '';
  return ret;
}
