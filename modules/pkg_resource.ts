/**
 * Salt's `pkg_resource` execution module (`salt/modules/pkg_resource.py`): the helpers behind
 * the pkg modules, callable on their own. Targets are parsed as the `pkg` module parses them
 * (`_pkg-targets.ts`), names normalized through `pkg.normalize_name` where a pkg module is
 * loaded; versions compare as Salt's generic `LooseVersion` (Salt looks for a `version_cmp`
 * function, not `pkg.version_cmp`, so never uses dpkg's order here). `add_pkg`, `sort_pkglist`
 * and `stringify` change their argument in place and return None, as Salt's.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { isDict, pyRepr, pyStr, pyTruthy } from '../kernel/util.js';
import { looseVersionCmp } from '../states/_gem-version.js';
import { parseGrainsYaml } from './_grains-file.js';
import {
  addPkgInPlace,
  formatPkgList,
  formatVersion,
  sortPkglistInPlace,
  stringifyInPlace,
} from './_pkg-resource-lists.js';
import { type PkgList, selectVersions } from './_pkg-targets.js';
import { pythonError } from './_py-exception.js';
import { cmpSatisfies, isCmpOperator } from './_version-cmp.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' pkg_resource.${example}`;

async function has(ctx: ExecContext, fun: string): Promise<boolean> {
  return (await ctx.functions.get(fun)) !== undefined;
}

/** `pkg.normalize_name` when a pkg module has it and `normalize` is true, else the name as it is. */
async function normalizer(ctx: ExecContext, normalize: unknown): Promise<(name: unknown) => Promise<string>> {
  if (pyTruthy(normalize) && (await has(ctx, 'pkg.normalize_name')))
    return async (name) => pyStr(await ctx.call('pkg.normalize_name', [name]));
  return async (name) => pyStr(name);
}

/** Salt's `pack_sources`: `[{name: source}, ...]` as one `{name: source}`; {} for anything else. */
async function packSources(
  ctx: ExecContext,
  sources: unknown,
  normalize: unknown,
): Promise<Record<string, unknown>> {
  const norm = await normalizer(ctx, normalize);
  let list = sources;
  if (typeof list === 'string') {
    try {
      list = parseGrainsYaml(list);
    } catch (err) {
      ctx.log.error(String(err));
      return {};
    }
  }
  if (list === null || list === undefined || typeof list === 'number' || typeof list === 'boolean')
    throw new SALT_ERR_INVOCATION(
      `'${list === null || list === undefined ? 'NoneType' : typeof list === 'boolean' ? 'bool' : Number.isInteger(list) ? 'int' : 'float'}' object is not iterable`,
    );
  const items: unknown[] =
    typeof list === 'string' ? [...list] : Array.isArray(list) ? list : Object.keys(list as object);
  const ret: Record<string, unknown> = {};
  for (const source of items) {
    if (!isDict(source) || Object.keys(source).length !== 1) {
      ctx.log.error(`Invalid input: ${pyRepr(sources)}`);
      ctx.log.error('Input must be a list of 1-element dicts');
      return {};
    }
    const [key, value] = Object.entries(source)[0] as [string, unknown];
    ret[await norm(key)] = value;
  }
  return ret;
}

/** Salt's `_repack_pkgs`: a `pkgs` list as `{name: version-or-None}`; a repeated name is an error. */
async function repackPkgs(
  ctx: ExecContext,
  pkgs: unknown,
  normalize: unknown,
): Promise<Record<string, string | null>> {
  const norm = await normalizer(ctx, normalize);
  const packed: Record<string, string | null> = {};
  const valid =
    Array.isArray(pkgs) &&
    pkgs.every(
      (e) =>
        typeof e === 'string' ||
        typeof e === 'number' ||
        typeof e === 'boolean' ||
        (isDict(e) && Object.keys(e).length === 1),
    );
  if (valid) {
    for (const e of pkgs) {
      const [name, ver] = isDict(e) ? (Object.entries(e)[0] as [string, unknown]) : [e, null];
      packed[await norm(name)] = ver === null || ver === undefined ? null : pyStr(ver);
    }
  }
  const size =
    typeof pkgs === 'string'
      ? [...pkgs].length
      : Array.isArray(pkgs)
        ? pkgs.length
        : isDict(pkgs)
          ? Object.keys(pkgs).length
          : null;
  if (size === null)
    throw new SALT_ERR_INVOCATION(
      `object of type '${typeof pkgs === 'boolean' ? 'bool' : Number.isInteger(pkgs) ? 'int' : 'float'}' has no len()`,
    );
  if (size !== Object.keys(packed).length)
    throw new SALT_ERR_INVOCATION(
      `You are passing a list of packages that contains duplicated packages names: ${typeof pkgs === 'string' ? pkgs : pyRepr(pkgs)}. This cannot be processed. In case you are targeting different versions of the same package, please target them individually`,
    );
  return packed;
}

/** Salt's `parse_targets`: `[targets, type]`, type `repository`, `file` or `advisory`; `[None, None]` when there is nothing. */
async function parseTargets(
  ctx: ExecContext,
  a: { name: unknown; pkgs: unknown; sources: unknown; saltenv: unknown; normalize: unknown },
  kwargs: Record<string, unknown>,
): Promise<[unknown, string | null]> {
  const none: [null, null] = [null, null];
  const version = kwargs.version ?? null;
  if (pyTruthy(a.pkgs) && pyTruthy(a.sources)) {
    ctx.log.error('Only one of "pkgs" and "sources" can be used.');
    return none;
  }
  if ('advisory_ids' in kwargs) {
    if (pyTruthy(a.pkgs)) return none;
    return pyTruthy(kwargs.advisory_ids) ? [kwargs.advisory_ids, 'advisory'] : [[a.name ?? null], 'advisory'];
  }
  if (pyTruthy(a.pkgs)) {
    const pkgs = await repackPkgs(ctx, a.pkgs, a.normalize);
    return Object.keys(pkgs).length ? [pkgs, 'repository'] : none;
  }
  if (pyTruthy(a.sources) && ctx.grains.os !== 'MacOS') {
    const sources = await packSources(ctx, a.sources, a.normalize);
    if (!Object.keys(sources).length) return none;
    const files: unknown[] = [];
    for (const [name, src] of Object.entries(sources)) {
      if (await ctx.call('config.valid_fileproto', [src]))
        files.push(await ctx.call('cp.cache_file', [src, a.saltenv]));
      else if (!pyStr(src).startsWith('/'))
        throw new SALT_ERR_INVOCATION(
          `Path ${pyStr(src)} for package ${name} is either not absolute or an invalid protocol`,
        );
      else files.push(src);
    }
    return [files, 'file'];
  }
  if (pyTruthy(a.name)) {
    if (typeof a.name !== 'string')
      throw pythonError(
        'AttributeError',
        `'${typeof a.name === 'number' ? (Number.isInteger(a.name) ? 'int' : 'float') : typeof a.name === 'boolean' ? 'bool' : Array.isArray(a.name) ? 'list' : 'dict'}' object has no attribute 'split'`,
      );
    const norm = await normalizer(ctx, a.normalize);
    const packed: Record<string, unknown> = {};
    for (const n of a.name.split(',')) packed[await norm(n)] = version;
    return [packed, 'repository'];
  }
  ctx.log.error('No package sources provided');
  return none;
}

/** Salt's generic `version_cmp` (LooseVersion), and `compare` over it. */
function versionCompare(ver1: unknown, oper: unknown, ver2: unknown, ignoreEpoch: unknown): boolean {
  const op = pyStr(oper);
  if (!isCmpOperator(op)) return false;
  const norm = (v: unknown) => {
    const s = pyStr(v);
    return pyTruthy(ignoreEpoch) ? s.slice(s.indexOf(':') + 1) : s;
  };
  return cmpSatisfies(op, looseVersionCmp(norm(ver1), norm(ver2)));
}

export default defineModule({
  name: 'pkg_resource',
  doc: 'Helpers the package modules share: target parsing, version lists and comparisons.',
  functions: {
    pack_sources: defineFunction({
      args: (z) => z.object({ sources: z.unknown(), normalize: z.unknown().default(true) }),
      doc: `Pack a list of one-entry {name: source} maps (or its YAML text) into one map; package names are normalized (architecture stripped) unless normalize=False.${cli(`pack_sources '[{"foo": "salt://foo.deb"}, {"bar": "salt://bar.deb"}]'`)}`,
      run: (ctx, a) => packSources(ctx, a.sources, a.normalize),
    }),
    parse_targets: defineFunction({
      args: (z) =>
        z.object({
          name: z.unknown().default(null),
          pkgs: z.unknown().default(null),
          sources: z.unknown().default(null),
          saltenv: z.unknown().default('base'),
          normalize: z.unknown().default(true),
        }),
      varkw: true,
      doc: `Turn pkg.install's name/pkgs/sources into [targets, kind]: kind 'repository' ({name: version}), 'file' (local paths of the package files) or 'advisory'; [None, None] when there is nothing to act on.${cli('parse_targets pkgs=\'["vim", {"curl": "7.8"}]\'')}`,
      run: (ctx, a, extra) => parseTargets(ctx, a, extra.kwargs),
    }),
    version: defineFunction({
      varargs: true,
      varkw: true,
      doc: `The installed versions of the named packages (globs allowed): one string for one name, else {name: version}.${cli('version vim')}`,
      run: async (ctx, _a, extra) => {
        const { versions_as_list: asList, ...kwargs } = extra.kwargs;
        const names = extra.args.map((n) => pyStr(n));
        const pkgs = names.length
          ? ((await ctx.call('pkg.list_pkgs', [], { ...kwargs, versions_as_list: true })) as PkgList)
          : {};
        return selectVersions(pkgs, names, pyTruthy(asList));
      },
    }),
    add_pkg: defineFunction({
      args: (z) => z.object({ pkgs: z.unknown(), name: z.unknown(), pkgver: z.unknown() }),
      doc: `Append a version to a package's list in a {name: [versions]} map, in place (returns None).${cli("add_pkg '{}' bind 9")}`,
      run: (_ctx, a) => {
        addPkgInPlace(a.pkgs, a.name, a.pkgver);
        return null;
      },
    }),
    sort_pkglist: defineFunction({
      args: (z) => z.object({ pkgs: z.unknown() }),
      doc: `Sort and deduplicate each version list of a {name: [versions]} map, in place (returns None).${cli('sort_pkglist \'{"vim": ["2.1", "1.0"]}\'')}`,
      run: (_ctx, a) => {
        sortPkglistInPlace(a.pkgs);
        return null;
      },
    }),
    stringify: defineFunction({
      args: (z) => z.object({ pkgs: z.unknown() }),
      doc: `Join each version list of a {name: [versions]} map with commas, in place (returns None).${cli('stringify \'{"vim": ["7.1"]}\'')}`,
      run: (_ctx, a) => {
        stringifyInPlace(a.pkgs);
        return null;
      },
    }),
    version_clean: defineFunction({
      args: (z) => z.object({ verstr: z.unknown() }),
      doc: `Clean a version string through pkg.version_clean where the pkg module has one; else the version as given.${cli('version_clean 1.2-3')}`,
      run: async (ctx, a) =>
        pyTruthy(a.verstr) && (await has(ctx, 'pkg.version_clean'))
          ? ctx.call('pkg.version_clean', [a.verstr])
          : a.verstr,
    }),
    version_compare: defineFunction({
      args: (z) =>
        z.object({
          ver1: z.unknown(),
          oper: z.unknown(),
          ver2: z.unknown(),
          ignore_epoch: z.unknown().default(false),
        }),
      doc: `Whether ver1 <oper> ver2 holds, oper one of ==, !=, >=, <=, >, < (compared as loose versions).${cli("version_compare '3.5' '<=' '2.4'")}`,
      run: (_ctx, a) => versionCompare(a.ver1, a.oper, a.ver2, a.ignore_epoch),
    }),
    check_extra_requirements: defineFunction({
      args: (z) => z.object({ pkgname: z.unknown(), pkgver: z.unknown() }),
      doc: `Whether an installed package meets extra requirements, through pkg.check_extra_requirements where the pkg module has one; else True.${cli('check_extra_requirements vim 1.0')}`,
      run: async (ctx, a) =>
        pyTruthy(a.pkgver) && (await has(ctx, 'pkg.check_extra_requirements'))
          ? ctx.call('pkg.check_extra_requirements', [a.pkgname, a.pkgver])
          : true,
    }),
    format_pkg_list: defineFunction({
      args: (z) => z.object({ packages: z.unknown(), versions_as_list: z.unknown(), attr: z.unknown() }),
      doc: 'Shape list_pkgs data ({name: [{epoch, version, release, ...}]}) as version strings, lists, or the attributes asked for.',
      run: async (ctx, a) => {
        const parseArch = async (name: string) => {
          if (!(await has(ctx, 'pkg.parse_arch'))) return { name, arch: null };
          return (await ctx.call('pkg.parse_arch', [name])) as { name: string; arch: string | null };
        };
        return formatPkgList(a.packages, a.versions_as_list, a.attr, parseArch);
      },
    }),
    format_version: defineFunction({
      args: (z) => z.object({ epoch: z.unknown(), version: z.unknown(), release: z.unknown() }),
      doc: 'A version string for list_pkgs: epoch:version-release, each part only when it is set.',
      run: (_ctx, a) => formatVersion(a.epoch, a.version, a.release),
    }),
  },
});
