/**
 * `pkg.installed` (Salt's `installed` and `_find_install_targets` in `salt/states/pkg.py`): work
 * out which of the wanted packages (by name, `pkgs` with versions, or `sources` files) are
 * missing or at another version, predict under `test=True`, install them through `pkg.install`,
 * check the result, and set or lift holds with `hold:`.
 */
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { desiredPkg, fulfillsVersionString, pkgFailure, repackPkgs } from './_pkg-versions.js';

/** `pkg.installed`'s arguments (Salt's names). */
export interface InstalledArgs {
  name: string;
  version?: string | null;
  refresh?: boolean;
  fromrepo?: string | null;
  skip_verify?: boolean;
  skip_suggestions?: boolean;
  pkgs?: unknown;
  sources?: unknown;
  allow_updates?: boolean;
  ignore_epoch?: boolean | null;
  reinstall?: boolean;
  /** Other keywords (`hold`, `install_recommends`, ...), passed to `pkg.install`. */
  kwargs: Record<string, unknown>;
}

type Desired = Record<string, string | null>;

interface Targets {
  desired: Desired;
  targets: Desired;
  toReinstall: Desired;
  warnings: string[];
}

function packSources(sources: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(sources)) return out;
  for (const item of sources)
    if (item && typeof item === 'object')
      for (const [k, v] of Object.entries(item as Record<string, unknown>)) out[k] = String(v);
  return out;
}

async function debVersion(ctx: StateContext, src: string): Promise<string | null> {
  // the version inside a package file, as Salt's lowpkg.bin_pkg_info reads it
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('dpkg-deb', ['-f', src, 'Version'], (err, stdout) =>
      resolve(err ? null : stdout.trim() || null),
    );
  }).then((v) => {
    if (v === null) ctx.log.debug({ src }, 'could not read the package version');
    return v as string | null;
  });
}

async function findTargets(ctx: StateContext, a: InstalledArgs): Promise<Targets | { done: StateReturn }> {
  const fail = (comment: string, result: boolean | null = false): { done: StateReturn } => ({
    done: { name: a.name, changes: {}, result, comment },
  });
  const hasPkgs = Array.isArray(a.pkgs) ? a.pkgs.length > 0 : Boolean(a.pkgs);
  const hasSources = Array.isArray(a.sources) ? a.sources.length > 0 : Boolean(a.sources);
  if (hasPkgs && hasSources) return fail('Only one of "pkgs" and "sources" is permitted.');
  let cur: Record<string, string[]>;
  try {
    cur = (await ctx.call('pkg.list_pkgs', [], { versions_as_list: true })) as Record<string, string[]>;
  } catch (err) {
    return fail((err as Error).message);
  }
  const desired: Desired = hasPkgs
    ? repackPkgs(a.pkgs)
    : hasSources
      ? packSources(a.sources)
      : { [a.name]: a.version ?? null };
  if (!Object.keys(desired).length)
    return fail(`Invalidly formatted '${hasPkgs ? 'pkgs' : 'sources'}' parameter. See minion log.`);
  if (!hasPkgs && !hasSources) {
    const cver = cur[a.name] ?? [];
    if (a.version && cver.includes(a.version) && !a.reinstall)
      return fail(`Version ${a.version} of package '${a.name}' is already installed`, true);
    if (cver.length && !a.version && !a.reinstall)
      return fail(`Package ${a.name} is already installed`, true);
  }
  const wantsLatest = hasSources ? [] : Object.keys(desired).filter((k) => desired[k] === 'latest');
  if (wantsLatest.length) {
    const got = await ctx.call('pkg.latest_version', wantsLatest, { refresh: Boolean(a.refresh) });
    const resolved: Record<string, unknown> =
      wantsLatest.length === 1 ? { [wantsLatest[0] ?? '']: got } : (got as Record<string, unknown>);
    for (const [k, v] of Object.entries(resolved)) {
      const have = cur[k];
      desired[k] = v ? String(v) : have?.length ? (have[have.length - 1] ?? null) : null;
    }
  }
  const targets: Desired = {};
  const toReinstall: Desired = {};
  const problems: string[] = [];
  const warnings: string[] = [];
  let versionSpec = false;
  for (const [pkgName, versionString] of Object.entries(desired)) {
    const cver = cur[pkgName] ?? [];
    if (!cver.length) {
      targets[pkgName] = versionString;
      continue;
    }
    let verstr: string | null;
    if (hasSources) {
      if (a.reinstall) {
        toReinstall[pkgName] = versionString;
        continue;
      }
      const src = versionString ?? '';
      const file = src.startsWith('file://') ? src.slice(7) : src;
      if (/^[a-z0-9+.-]+:\/\//i.test(file)) {
        const cached = await ctx.call('cp.cache_file', [src, ctx.saltenv]).catch(() => false);
        if (typeof cached !== 'string' || !cached) {
          problems.push(`Unable to cache ${src}: file not found`);
          continue;
        }
        verstr = await debVersion(ctx, cached);
      } else verstr = await debVersion(ctx, file);
      if (verstr === null) {
        warnings.push(`Failed to parse metadata for ${src}`);
        continue;
      }
    } else {
      verstr = versionString;
      if (a.reinstall) {
        toReinstall[pkgName] = versionString;
        continue;
      }
      if (verstr === null) continue;
    }
    versionSpec = true;
    const ok = await fulfillsVersionString(
      ctx,
      cver,
      verstr,
      a.ignore_epoch,
      !hasSources && Boolean(a.allow_updates),
    );
    if (!ok) {
      if (a.reinstall) toReinstall[pkgName] = versionString;
      else targets[pkgName] = versionString;
    }
  }
  if (problems.length) return fail(problems.join(' '));
  if (!Object.keys(targets).length && !Object.keys(toReinstall).length) {
    const ret = fail(
      `All specified packages are already installed${versionSpec && !hasSources ? ' and are at the desired version' : ''}`,
      true,
    );
    if (warnings.length) ret.done.warnings = warnings;
    return ret;
  }
  return { desired, targets, toReinstall, warnings };
}

interface HoldOne {
  name: string;
  changes: Record<string, unknown>;
  result: boolean | null;
  comment: string;
}

async function holdCall(
  ctx: StateContext,
  hold: unknown,
  name: string,
  pkgs: unknown,
  sources: unknown,
): Promise<Record<string, HoldOne>> {
  const fun = hold ? 'pkg.hold' : 'pkg.unhold';
  return (await ctx.call(fun, [], { name, pkgs, sources, test: ctx.test })) as Record<string, HoldOne>;
}

/** Salt's `pkg.installed` for this minion's package manager. */
export async function installed(ctx: StateContext, a: InstalledArgs): Promise<StateReturn> {
  const { name } = a;
  if (Array.isArray(a.pkgs) && a.pkgs.length === 0)
    return { name, changes: {}, result: true, comment: 'No packages to install provided' };
  let pkgs = a.pkgs;
  const hasSources = Array.isArray(a.sources) ? a.sources.length > 0 : Boolean(a.sources);
  let version = a.version ?? null;
  if (name && !pkgs && !hasSources) {
    pkgs = version ? [{ [name]: version }] : [name];
    version = null;
  }
  let refresh = Boolean(a.refresh);
  const found = await findTargets(ctx, { ...a, pkgs, version });
  const wantHold = 'hold' in a.kwargs;
  if ('done' in found) {
    const result = found.done;
    if (wantHold) {
      let holdRet: Record<string, HoldOne>;
      try {
        holdRet = await holdCall(ctx, a.kwargs.hold, name, pkgs, a.sources);
      } catch (err) {
        return { name, changes: {}, result: false, comment: (err as Error).message };
      }
      const all = Object.values(holdRet);
      const ordered = [
        ...all.filter((h) => Object.keys(h.changes).length),
        ...all.filter((h) => !Object.keys(h.changes).length && h.result),
        ...all.filter((h) => !h.result),
      ];
      for (const h of ordered) {
        result.comment = `${String(result.comment)}.\n${h.comment}`;
        result.result = h.result;
        if (Object.keys(h.changes).length) result.changes[h.name] = h.changes;
      }
    }
    return result;
  }
  const { desired, targets, toReinstall, warnings } = found;
  const withWarnings = (ret: StateReturn): StateReturn => {
    if (warnings.length) ret.warnings = [...(ret.warnings ?? []), ...warnings];
    return ret;
  };
  let sources = a.sources;
  if (pkgs) {
    pkgs = [
      ...Object.entries(targets).map(([k, v]) => ({ [k]: v })),
      ...Object.entries(toReinstall).map(([k, v]) => ({ [k]: v })),
    ];
  } else if (hasSources) {
    const old = a.sources as Record<string, unknown>[];
    const first = (x: Record<string, unknown>): string => Object.keys(x)[0] ?? '';
    sources = [...old.filter((x) => first(x) in targets), ...old.filter((x) => first(x) in toReinstall)];
  }
  const comment: string[] = [];
  const changes: Record<string, unknown> = {};
  if (ctx.test) {
    const tnames = Object.keys(targets);
    if (tnames.length) {
      for (const x of tnames) changes[x] = { new: 'installed', old: '' };
      comment.push(`The following packages would be installed/updated: ${tnames.join(', ')}`);
    }
    const rnames = Object.keys(toReinstall);
    if (rnames.length) {
      const shown = rnames.map((r) => (hasSources ? r : desiredPkg(r, toReinstall)));
      for (const x of shown) changes[x] = { new: 'installed', old: '' };
      comment.push(`The following packages would be reinstalled: ${shown.join(', ')}`);
    }
    return withWarnings({ name, changes, result: null, comment: comment.join('\n') });
  }
  let pkgRet: Record<string, unknown> = {};
  if (Object.keys(targets).length || Object.keys(toReinstall).length) {
    try {
      const kw: Record<string, unknown> = {
        ...a.kwargs,
        name: null,
        refresh,
        version,
        fromrepo: a.fromrepo ?? null,
        skip_verify: Boolean(a.skip_verify),
        pkgs,
        sources,
        reinstall: Object.keys(toReinstall).length > 0,
        ignore_epoch: a.ignore_epoch ?? null,
        saltenv: ctx.saltenv,
      };
      delete kw.hold;
      pkgRet = ((await ctx.call('pkg.install', [], kw)) ?? {}) as Record<string, unknown>;
    } catch (err) {
      const f = pkgFailure(err);
      return withWarnings({
        name,
        result: false,
        changes: f.withoutChanges === undefined ? {} : f.changes,
        comment: f.withoutChanges ?? `An error was encountered while installing package(s): ${f.message}`,
      });
    }
    refresh = false;
    if (pkgRet && typeof pkgRet === 'object') Object.assign(changes, pkgRet);
  }
  void refresh;
  let modifiedHold: HoldOne[] = [];
  let notModifiedHold: HoldOne[] = [];
  let failedHold: HoldOne[] = [];
  if (wantHold) {
    let holdRet: Record<string, HoldOne>;
    try {
      holdRet = await holdCall(ctx, a.kwargs.hold, name, Object.keys(desired), undefined);
    } catch (err) {
      comment.push((err as Error).message);
      return withWarnings({ name, changes, result: false, comment: comment.join('\n') });
    }
    const all = Object.values(holdRet);
    modifiedHold = all.filter((h) => Object.keys(h.changes).length);
    notModifiedHold = all.filter((h) => !Object.keys(h.changes).length && h.result);
    failedHold = all.filter((h) => !h.result);
  }
  let modified: string[];
  let notModified: string[];
  let failed: string[];
  if (hasSources) {
    modified = Object.keys(changes).filter((x) => x in targets);
    notModified = Object.keys(desired).filter((x) => !(x in targets) && !(x in toReinstall));
    failed = Object.keys(targets).filter((x) => !modified.includes(x));
  } else {
    const now = (await ctx.call('pkg.list_pkgs', [], { versions_as_list: true })) as Record<string, string[]>;
    const ok: string[] = [];
    const bad: string[] = [];
    for (const [pkgname, pkgver] of Object.entries(desired)) {
      const cver = now[pkgname.split('=')[0] ?? pkgname];
      if (!cver?.length) bad.push(pkgname);
      else if (pkgver === 'latest' || !pkgver) ok.push(pkgname);
      else if (pkgver.endsWith('*') && (cver[0] ?? '').startsWith(pkgver.slice(0, -1))) ok.push(pkgname);
      else if (await fulfillsVersionString(ctx, cver, pkgver, a.ignore_epoch)) ok.push(pkgname);
      else bad.push(pkgname);
    }
    modified = ok.filter((x) => x in targets);
    notModified = ok.filter((x) => !(x in targets) && !(x in toReinstall));
    failed = bad.filter((x) => x in targets);
  }
  const show = (list: string[]): string =>
    (hasSources ? list : list.map((x) => desiredPkg(x, desired))).join(', ');
  if (modified.length) {
    const summary = show(modified);
    comment.push(
      summary.length < 20
        ? `The following packages were installed/updated: ${summary}`
        : `${modified.length} targeted package${modified.length > 1 ? 's' : ''} ${modified.length > 1 ? 'were' : 'was'} installed/updated.`,
    );
  }
  for (const h of modifiedHold) {
    comment.push(h.comment);
    const hc = h.changes as { old?: unknown; new?: unknown };
    const c = changes[h.name] as { old: string; new: string } | undefined;
    if (c) {
      c.new = `${c.new.length ? `${c.new}\n` : ''}${String(hc.new)}`;
      c.old = `${c.old.length ? `${c.old}\n` : ''}${String(hc.old)}`;
    } else changes[h.name] = { new: String(hc.new) };
  }
  if (notModified.length) {
    comment.push(
      notModified.length <= 20
        ? `The following packages were already installed: ${show(notModified)}`
        : `${notModified.length} targeted package${notModified.length > 1 ? 's' : ''} ${notModified.length > 1 ? 'were' : 'was'} already installed`,
    );
  }
  for (const h of notModifiedHold) comment.push(h.comment);
  let result = true;
  if (failed.length) {
    comment.unshift(`The following packages failed to install/update: ${show(failed)}`);
    result = false;
  }
  if (failedHold.length) {
    for (const h of failedHold) comment.push(h.comment);
    result = false;
  }
  for (const r of Object.keys(toReinstall)) {
    const pkgstr = hasSources ? r : desiredPkg(r, desired);
    if (a.reinstall && r in pkgRet) comment.push(`Package ${pkgstr} was reinstalled.`);
    else if (a.reinstall) {
      comment.push(`Reinstall was not successful for package ${pkgstr}.`);
      result = false;
    }
  }
  return withWarnings({ name, changes, result, comment: comment.join('\n') });
}
