/**
 * Salt's `pkg` execution module, its apt/dpkg backend (`salt/modules/aptpkg.py` with
 * `dpkg_lowpkg.py` and `pkg_resource.py`): list, install, remove, purge, upgrade and hold
 * packages, and manage apt's one-line sources. It loads on the Debian family (or wherever
 * dpkg is); tsalt has no yum/dnf or apk backend yet, so other systems refuse it.
 */
import type { z as Zod } from 'zod';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_INVOCATION,
  type VirtualContext,
} from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pyFlag, pyInt } from './_coerce.js';
import {
  install,
  latestVersion,
  listPkgs,
  listUpgrades,
  refreshDb,
  uninstall,
  upgrade,
  version,
  versionCmp,
} from './_pkg-apt.js';
import { fileDict, fileList, infoInstalled, owner } from './_pkg-apt-info.js';
import { addRepoKey, delRepoKey, getRepoKeys } from './_pkg-apt-keys.js';
import { aptListingFunctions } from './_pkg-apt-listings.js';
import { moreAptFunctions } from './_pkg-apt-more.js';
import { delRepo, getRepo, listRepos, modRepo } from './_pkg-apt-repos.js';
import { getSelections, hold, setSelections, unhold } from './_pkg-apt-select.js';
import { which } from './_which.js';

function virtual(ctx: VirtualContext) {
  const family = ctx.grains.os_family;
  if (family === 'Debian' || (family === undefined && which('dpkg') !== null)) return true as const;
  return {
    ok: false as const,
    reason: `tsalt's pkg module has only the apt/dpkg backend yet (os_family ${pyStr(family ?? 'unknown')})`,
  };
}

/** `test=True` from the keywords (a state passes its own), else the minion's `test` option. */
const testMode = (ctx: ExecContext, kwargs: Record<string, unknown> = {}): boolean =>
  pyTruthy(kwargs.test === undefined ? ctx.opts.test : kwargs.test);
const names = (args: readonly unknown[]): string[] => args.map((a) => pyStr(a));
const optString = (v: unknown): string | null =>
  v === undefined || v === null || v === '' ? null : pyStr(v);

const latest = defineFunction({
  // Salt's `latest_version(*names, **kwargs)`: every positional is a name, the options are keywords
  args: (z) => z.object({}),
  varargs: true,
  varkw: true,
  doc: "Return the latest version of the named packages available for install or upgrade ('' when the newest is installed).",
  run: (ctx, _a, extra) => {
    const kw = extra.kwargs;
    if ('repo' in kw) throw new SALT_ERR_INVOCATION("The 'repo' argument is invalid, use 'fromrepo' instead");
    return latestVersion(ctx, names(extra.args), {
      refresh: kw.refresh === undefined ? true : pyTruthy(kw.refresh),
      showInstalled: pyTruthy(kw.show_installed),
      fromrepo: optString(kw.fromrepo),
      cacheValidTime: Number(kw.cache_valid_time ?? 0) || 0,
    });
  },
});

const targetArgs = (z: typeof Zod) =>
  z.object({ name: z.unknown().optional(), pkgs: z.unknown().optional(), sources: z.unknown().optional() });

export default defineModule({
  name: 'pkg',
  doc: 'Manage packages with apt and dpkg.',
  virtual,
  functions: {
    list_pkgs: defineFunction({
      args: (z) =>
        z.object({
          versions_as_list: pyFlag(z, false),
          removed: pyFlag(z, false),
          purge_desired: pyFlag(z, false),
        }),
      varkw: true,
      doc: 'List the installed packages as {name: version}.',
      run: (ctx, a, extra) =>
        listPkgs(ctx, {
          versionsAsList: a.versions_as_list,
          removed: a.removed,
          purgeDesired: a.purge_desired,
          useContext: extra.kwargs.use_context === undefined ? true : pyTruthy(extra.kwargs.use_context),
        }),
    }),
    version: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: "Return the installed version of the named packages ('' when not installed).",
      run: (ctx, _a, extra) => version(ctx, names(extra.args), pyTruthy(extra.kwargs.versions_as_list)),
    }),
    latest_version: latest,
    available_version: latest,
    upgrade_available: defineFunction({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'True when an upgrade is available for the named package.',
      run: async (ctx, { name }) => (await latestVersion(ctx, [name])) !== '',
    }),
    refresh_db: defineFunction({
      args: (z) => z.object({ cache_valid_time: pyInt(z).default(0), failhard: pyFlag(z, false) }),
      varkw: true,
      doc: 'Update the APT database (apt-get update).',
      run: (ctx, a) => refreshDb(ctx, a.cache_valid_time, a.failhard),
    }),
    install: defineFunction({
      args: (z) =>
        z.object({
          name: z.unknown().optional(),
          refresh: pyFlag(z, false),
          fromrepo: z.unknown().optional(),
          skip_verify: pyFlag(z, false),
          debconf: z.unknown().optional(),
          pkgs: z.unknown().optional(),
          sources: z.unknown().optional(),
          reinstall: pyFlag(z, false),
          downloadonly: pyFlag(z, false),
          ignore_epoch: pyFlag(z, false),
        }),
      varkw: true,
      doc: 'Install packages (name, pkgs with versions, or sources: .deb files); returns {pkg: {old, new}}.',
      run: (ctx, a, extra) => {
        const kw = extra.kwargs;
        return install(ctx, {
          name: optString(a.name),
          pkgs: a.pkgs,
          sources: a.sources,
          version: kw.version,
          refresh: a.refresh,
          fromrepo: optString(a.fromrepo) ?? optString(kw.repo),
          skip_verify: a.skip_verify,
          reinstall: a.reinstall,
          downloadonly: a.downloadonly,
          ignore_epoch: a.ignore_epoch,
          force_yes: pyTruthy(kw.force_yes),
          force_conf_new: pyTruthy(kw.force_conf_new),
          install_recommends:
            kw.install_recommends === undefined ? undefined : pyTruthy(kw.install_recommends),
          only_upgrade: pyTruthy(kw.only_upgrade),
          cache_valid_time: Number(kw.cache_valid_time ?? 0) || 0,
          saltenv: typeof kw.saltenv === 'string' ? kw.saltenv : 'base',
        });
      },
    }),
    remove: defineFunction({
      args: (z) => z.object({ name: z.unknown().optional(), pkgs: z.unknown().optional() }),
      varkw: true,
      doc: 'Remove packages (apt-get remove); returns {pkg: {old, new}}.',
      run: (ctx, a) => uninstall(ctx, 'remove', { name: optString(a.name), pkgs: a.pkgs }),
    }),
    purge: defineFunction({
      args: (z) => z.object({ name: z.unknown().optional(), pkgs: z.unknown().optional() }),
      varkw: true,
      doc: 'Remove packages and their configuration (apt-get purge).',
      run: (ctx, a) => uninstall(ctx, 'purge', { name: optString(a.name), pkgs: a.pkgs }),
    }),
    upgrade: defineFunction({
      args: (z) => z.object({ refresh: pyFlag(z, true), dist_upgrade: pyFlag(z, false) }),
      varkw: true,
      doc: 'Upgrade all packages (apt-get upgrade, or dist-upgrade).',
      run: (ctx, a, extra) => {
        const kw = extra.kwargs;
        return upgrade(ctx, {
          refresh: a.refresh,
          dist_upgrade: a.dist_upgrade,
          cache_valid_time: Number(kw.cache_valid_time ?? 0) || 0,
          force_conf_new: pyTruthy(kw.force_conf_new),
          force_yes: pyTruthy(kw.force_yes),
          skip_verify: pyTruthy(kw.skip_verify),
          download_only: pyTruthy(kw.download_only) || pyTruthy(kw.downloadonly),
          allow_downgrades: pyTruthy(kw.allow_downgrades),
        });
      },
    }),
    list_upgrades: defineFunction({
      args: (z) => z.object({ refresh: pyFlag(z, true), dist_upgrade: pyFlag(z, true) }),
      varkw: true,
      doc: 'List the upgrades available: {name: version}.',
      run: (ctx, a, extra) =>
        listUpgrades(ctx, {
          refresh: a.refresh,
          dist_upgrade: a.dist_upgrade,
          fromrepo: optString(extra.kwargs.fromrepo),
          cache_valid_time: Number(extra.kwargs.cache_valid_time ?? 0) || 0,
        }),
    }),
    hold: defineFunction({
      args: targetArgs,
      varkw: true,
      doc: 'Set packages on hold (dpkg selection "hold").',
      run: (ctx, a, extra) =>
        hold(ctx, { name: optString(a.name), pkgs: a.pkgs, sources: a.sources }, testMode(ctx, extra.kwargs)),
    }),
    unhold: defineFunction({
      args: targetArgs,
      varkw: true,
      doc: 'Take packages off hold.',
      run: (ctx, a, extra) =>
        unhold(
          ctx,
          { name: optString(a.name), pkgs: a.pkgs, sources: a.sources },
          testMode(ctx, extra.kwargs),
        ),
    }),
    get_selections: defineFunction({
      args: (z) => z.object({ pattern: z.unknown().optional(), state: z.unknown().optional() }),
      doc: 'The dpkg selections: {state: [packages]}.',
      run: (ctx, a) => getSelections(ctx, optString(a.pattern), optString(a.state)),
    }),
    set_selections: defineFunction({
      args: (z) =>
        z.object({
          path: z.unknown().optional(),
          selection: z.unknown().optional(),
          clear: pyFlag(z, false),
          saltenv: z.string().default('base'),
        }),
      doc: 'Set dpkg selections from a {state: [packages]} map or a file; returns {pkg: {old, new}}.',
      run: (ctx, a) =>
        setSelections(
          ctx,
          { path: optString(a.path), selection: a.selection, clear: a.clear, saltenv: a.saltenv },
          testMode(ctx),
        ),
    }),
    owner: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: 'The package that owns each path.',
      run: (ctx, _a, extra) => owner(ctx, names(extra.args)),
    }),
    file_list: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: 'The files of the named packages: {errors, files}.',
      run: (ctx, _a, extra) => fileList(ctx, names(extra.args)),
    }),
    file_dict: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: "List the files that belong to a package, grouped by package: {errors, packages: {name: [files]}}. Not specifying any packages will return every package's files.\n\nCLI Example: salt '*' pkg.file_dict hostname mount",
      run: (ctx, _a, extra) => fileDict(ctx, names(extra.args)),
    }),
    info_installed: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: 'Details of installed packages.',
      run: (ctx, _a, extra) =>
        infoInstalled(
          ctx,
          names(extra.args),
          extra.kwargs.failhard === undefined ? true : pyTruthy(extra.kwargs.failhard),
        ),
    }),
    version_cmp: defineFunction({
      args: (z) => z.object({ pkg1: z.unknown(), pkg2: z.unknown(), ignore_epoch: pyFlag(z, false) }),
      varkw: true,
      inline: true,
      doc: 'Compare two Debian versions: -1, 0 or 1.',
      run: (_ctx, a) => versionCmp(a.pkg1, a.pkg2, a.ignore_epoch),
    }),
    list_repos: defineFunction({
      varkw: true,
      doc: "apt's one-line sources: {uri: [entries]}.",
      run: () => listRepos(),
    }),
    get_repo: defineFunction({
      args: (z) => z.object({ repo: z.string() }),
      varkw: true,
      doc: 'The sources entry matching a repo line, or {}.',
      run: (_ctx, { repo }) => getRepo(repo),
    }),
    del_repo: defineFunction({
      args: (z) => z.object({ repo: z.string() }),
      varkw: true,
      doc: 'Delete a repo line from the sources.',
      run: (ctx, { repo }) => delRepo(ctx, repo, (c) => refreshDb(c)),
    }),
    mod_repo: defineFunction({
      args: (z) =>
        z.object({
          repo: z.string(),
          saltenv: z.string().default('base'),
          aptkey: pyFlag(z, true),
        }),
      varkw: true,
      doc: 'Add or modify a repo line in the sources; `keyid`+`keyserver`, `key_url` or `key_text` add its key first.',
      run: (ctx, { repo, saltenv, aptkey }, extra) =>
        modRepo(ctx, repo, { ...extra.kwargs, saltenv, aptkey }, (c) => refreshDb(c)),
    }),
    get_repo_keys: defineFunction({
      args: (z) => z.object({ aptkey: pyFlag(z, true), keydir: z.string().nullish() }),
      doc: 'The keys apt trusts: {keyid: details} (apt-key, or the keyring files in keydir with aptkey=False).',
      run: (ctx, a) => getRepoKeys(ctx, a.aptkey, a.keydir ?? undefined),
    }),
    add_repo_key: defineFunction({
      args: (z) =>
        z.object({
          path: z.string().nullish(),
          text: z.string().nullish(),
          keyserver: z.string().nullish(),
          keyid: z.string().nullish(),
          saltenv: z.string().default('base'),
          aptkey: pyFlag(z, true),
          keydir: z.string().nullish(),
          keyfile: z.string().nullish(),
        }),
      doc: 'Add a repo key from a file or URL (path), a string (text) or a keyserver (keyserver + keyid).',
      run: (ctx, a) =>
        addRepoKey(ctx, {
          path: a.path ?? undefined,
          text: a.text ?? undefined,
          keyserver: a.keyserver ?? undefined,
          keyid: a.keyid ?? undefined,
          saltenv: a.saltenv,
          aptkey: a.aptkey,
          keydir: a.keydir ?? undefined,
          keyfile: a.keyfile ?? undefined,
        }),
    }),
    del_repo_key: defineFunction({
      args: (z) =>
        z.object({ name: z.string().nullish(), aptkey: pyFlag(z, true), keydir: z.string().nullish() }),
      varkw: true,
      doc: 'Remove a repo key by keyid; returns the keyid.',
      run: (ctx, a, extra) =>
        delRepoKey(ctx, a.name ?? undefined, {
          ...extra.kwargs,
          aptkey: a.aptkey,
          ...(a.keydir ? { keydir: a.keydir } : {}),
        }),
    }),
    ...moreAptFunctions,
    ...aptListingFunctions,
  },
});
