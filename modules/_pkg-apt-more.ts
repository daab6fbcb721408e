/**
 * More of Salt's apt `pkg` functions, merged into `modules/pkg.ts`: `show` (apt-cache show by
 * package and version, optionally filtered), `autoremove` (`list_only`: what apt-get would
 * remove), `list_downloaded` (the .deb files in apt's cache), `normalize_name`, `parse_arch`.
 */
import { opendir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { defineFunction, type ExecContext, RetcodeResult, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { forgetPkgs, listPkgs, osarch, refreshDb } from './_pkg-apt.js';
import { callApt } from './_pkg-apt-call.js';
import { compareDicts } from './_pkg-targets.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** `name:arch` → its parts (Salt's PKG_ARCH_SEPARATOR is `:`). */
function splitArch(name: string): [string, string | null] {
  const at = name.lastIndexOf(':');
  return at < 0 ? [name, null] : [name.slice(0, at), name.slice(at + 1)];
}

/** Salt's `show`: `{package: {version: {field: value}}}` from `apt-cache show`. */
function parseShow(
  stdout: string,
  filter: readonly string[],
): Record<string, Record<string, Record<string, string>>> {
  const ret: Record<string, Record<string, Record<string, string>>> = {};
  let info: Record<string, string> = {};
  const add = () => {
    const { Package: name, Version: version, ...rest } = info;
    if (name !== undefined && version !== undefined) {
      const versions = ret[name] ?? {};
      versions[version] = { ...versions[version], ...rest };
      ret[name] = versions;
    }
    info = {};
  };
  const keep = (key: string) =>
    ['package', 'version'].includes(key.toLowerCase()) ||
    filter.length === 0 ||
    filter.includes(key.toLowerCase());
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line) {
      add();
      continue;
    }
    const at = line.indexOf(':');
    if (at < 0) continue;
    const key = line.slice(0, at).trim();
    if (keep(key)) info[key] = line.slice(at + 1).trim();
  }
  add();
  return ret;
}

/** The .deb files under `dir`, as Python's `os.walk` lists them: a folder's files, then its folders'. */
async function debs(dir: string): Promise<string[]> {
  const files: string[] = [];
  const dirs: string[] = [];
  try {
    for await (const e of await opendir(dir)) {
      if (e.isDirectory()) dirs.push(join(dir, e.name));
      else if (e.name.endsWith('.deb')) files.push(join(dir, e.name));
    }
  } catch {
    return [];
  }
  for (const d of dirs) files.push(...(await debs(d)));
  return files;
}

export const moreAptFunctions = {
  normalize_name: defineFunction({
    args: (z) => z.object({ name: z.coerce.string() }),
    doc: `Strips the architecture from the specified package name, if necessary.${cli('pkg.normalize_name zsh:amd64')}`,
    run: async (ctx, a) => {
      const arch = await osarch(ctx);
      const [name, given] = splitArch(a.name);
      return [arch, 'all', 'any'].includes(given ?? arch) ? name : a.name;
    },
  }),
  parse_arch: defineFunction({
    args: (z) => z.object({ name: z.coerce.string() }),
    doc: `Parse name and architecture from the specified package name.${cli('pkg.parse_arch zsh:amd64')}`,
    inline: true,
    run: (_ctx, a) => {
      const [name, arch] = splitArch(a.name);
      return { name, arch };
    },
  }),
  show: defineFunction({
    varargs: true,
    varkw: true,
    doc: `Runs an apt-cache show on the passed package names, and returns the results in a nested dictionary (package, version, fields). filter: a comma-separated list of the fields to keep; refresh: refresh the package database first.${cli('pkg.show gawk filter=description,version')}`,
    run: async (ctx, _a, extra) => {
      const kw = cleanKwargs(extra.kwargs);
      const { refresh, filter, ...rest } = kw;
      const unknown = Object.keys(rest);
      if (unknown.length > 0)
        throw new SALT_ERR_INVOCATION(
          `The following keyword arguments are not valid: ${unknown.map((k) => `${k}=${String(rest[k])}`).join(', ')}`,
        );
      const fields = (
        Array.isArray(filter)
          ? filter
          : filter === undefined || filter === null
            ? []
            : String(filter).split(',')
      )
        .map((f) => String(f).trim().toLowerCase())
        .filter(Boolean);
      if (refresh === true) await refreshDb(ctx);
      if (extra.args.length === 0) return {};
      const out = await callApt(ctx, ['apt-cache', 'show', ...extra.args.map(String)]);
      const ret = parseShow(out.stdout, fields);
      // as Salt's cmd.run_all under it: apt-cache's failure is the job's retcode
      return out.retcode !== 0 ? new RetcodeResult(ret, out.retcode) : ret;
    },
  }),
  autoremove: defineFunction({
    args: (z) => z.object({ list_only: pyFlag(z, false), purge: pyFlag(z, false) }),
    doc: `Remove packages not required by another package using apt-get autoremove; with list_only, only list them.${cli('pkg.autoremove list_only=True')}`,
    run: async (ctx: ExecContext, a) => {
      const purge = a.purge ? ['--purge'] : [];
      if (a.list_only) {
        const out = (await callApt(ctx, ['apt-get', '--assume-no', ...purge, 'autoremove'])).stdout;
        const ret: string[] = [];
        let found = false;
        for (const line of out.split('\n')) {
          if (found) {
            if (line.startsWith(' ')) ret.push(...line.split(/\s+/).filter(Boolean));
            else found = false;
          } else if (line.includes('The following packages will be REMOVED:')) found = true;
        }
        return ret.sort();
      }
      const old = (await listPkgs(ctx)) as Record<string, unknown>;
      await callApt(ctx, ['apt-get', '--assume-yes', ...purge, 'autoremove']);
      forgetPkgs(ctx);
      return compareDicts(old, (await listPkgs(ctx)) as Record<string, unknown>);
    },
  }),
  list_downloaded: defineFunction({
    args: (z) => z.object({ root: z.string().nullish() }),
    varkw: true,
    doc: `List prefetched packages downloaded by apt in the local disk (the .deb files under /var/cache/apt).${cli('pkg.list_downloaded')}`,
    run: async (ctx, a) => {
      const cache = a.root ? join(a.root, relative('/', '/var/cache/apt')) : '/var/cache/apt';
      const ret: Record<string, Record<string, unknown>> = {};
      for (const path of await debs(cache)) {
        const info = (await ctx.call('lowpkg.bin_pkg_info', [path])) as {
          name?: string;
          version?: string;
        } | null;
        if (!info?.name || !info.version) continue;
        const st = await stat(path);
        const t = Math.trunc(st.ctimeMs / 1000);
        const versions = ret[info.name] ?? {};
        ret[info.name] = versions;
        versions[info.version] = {
          path,
          size: st.size,
          creation_date_time_t: t,
          creation_date_time: new Date(t * 1000).toISOString().slice(0, 19),
        };
      }
      return ret;
    },
  }),
};
