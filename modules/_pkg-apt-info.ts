/**
 * What dpkg knows about installed packages, for the apt backend (Salt's `aptpkg.owner`,
 * `dpkg_lowpkg.file_list` and `dpkg_lowpkg.info` behind `aptpkg.info_installed`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { type ExecContext, RetcodeResult, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { execCommand } from './_pkg-exec.js';

/** Salt's `pkg.owner`: the package that installed each path ('' when none); one path gives a string. */
export async function owner(
  ctx: ExecContext,
  paths: readonly string[],
): Promise<string | Record<string, string> | RetcodeResult<string | Record<string, string>>> {
  if (!paths.length) return '';
  const ret: Record<string, string> = {};
  // the last dpkg's exit code is the job's, as Salt's cmd.run_stdout leaves it
  let last = 0;
  for (const p of paths) {
    const out = await execCommand(['dpkg', '-S', p], { signal: ctx.signal });
    last = out.retcode;
    const found = out.stdout.split(':')[0] ?? '';
    ret[p] = found.toLowerCase().includes('no path found') ? '' : found;
  }
  const values = Object.values(ret);
  const value = values.length === 1 ? (values[0] ?? '') : ret;
  return last === 0 ? value : new RetcodeResult(value, last);
}

/** The files of each named installed package (every one with none named), or Salt's error text. */
async function filesByPackage(
  ctx: ExecContext,
  packages: readonly string[],
): Promise<Map<string, string[]> | string> {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's format, not a template
  const format = '-f=${db:Status-Status}\t${binary:Package}\n';
  const out = await execCommand(['dpkg-query', format, '-W', ...packages], { signal: ctx.signal });
  if (out.retcode !== 0) return `Error:  ${out.stderr}`;
  const found = new Map<string, string[]>();
  for (const line of out.stdout.split('\n')) {
    const [status, pkg] = line.split('\t');
    if (status !== 'installed' || !pkg) continue;
    const list = await execCommand(['dpkg', '-L', pkg], { signal: ctx.signal });
    found.set(
      pkg,
      list.stdout.split('\n').filter((f) => f !== ''),
    );
  }
  return found;
}

/** Salt's `pkg.file_list`: every file of the named installed packages (of all, with none named). */
export async function fileList(
  ctx: ExecContext,
  packages: readonly string[],
): Promise<{ errors: string[]; files: string[] } | string> {
  const found = await filesByPackage(ctx, packages);
  if (typeof found === 'string') return found;
  return { errors: [], files: [...new Set([...found.values()].flat())].sort() };
}

/** Salt's `pkg.file_dict`: the files of each named installed package (of all, with none named). */
export async function fileDict(
  ctx: ExecContext,
  packages: readonly string[],
): Promise<{ errors: string[]; packages: Record<string, string[]> } | string> {
  const found = await filesByPackage(ctx, packages);
  if (typeof found === 'string') return found;
  return { errors: [], packages: Object.fromEntries(found) };
}

const FIELDS: readonly [string, string][] = [
  ['package', '${Package}'],
  ['revision', '${binary:Revision}'],
  ['architecture', '${Architecture}'],
  ['maintainer', '${Maintainer}'],
  ['summary', '${Summary}'],
  ['source', '${source:Package}'],
  ['version', '${Version}'],
  ['section', '${Section}'],
  ['installed_size', '${Installed-size}'],
  ['size', '${Size}'],
  ['MD5', '${MD5sum}'],
  ['SHA1', '${SHA1}'],
  ['SHA256', '${SHA256}'],
  ['origin', '${Origin}'],
  ['homepage', '${Homepage}'],
  ['status', '${db:Status-Abbrev}'],
];
/** The record separator; dpkg-query reads `\\` as one backslash, as in Salt's format. */
const END = '\n*/~^\\\\*\n';

function installDate(pkg: string | undefined): string | undefined {
  if (!pkg) return undefined;
  for (const file of [`/var/lib/dpkg/info/${pkg}.list`]) {
    try {
      const secs = Math.floor(statSync(file).mtimeMs / 1000);
      return `${new Date(secs * 1000).toISOString().slice(0, 19)}Z`;
    } catch {
      // not there
    }
  }
  return undefined;
}

function license(pkg: string): string {
  const file = `/usr/share/doc/${pkg}/copyright`;
  if (!existsSync(file)) return '';
  const found = new Set<string>();
  for (const line of readFileSync(file, 'latin1').split('\n'))
    if (line.startsWith('License:')) found.add(line.slice('License:'.length).trim());
  return [...found].sort().join(', ');
}

/** Salt's `lowpkg.info`: dpkg's fields of each package, by name. */
async function lowpkgInfo(
  ctx: ExecContext,
  packages: readonly string[],
  failhard: boolean,
): Promise<Record<string, Record<string, string>>> {
  const format = `${FIELDS.map(([k, v]) => `${k}:${v}`).join('\n')}\ndescription:\${Description}\n${END}`;
  const out = await execCommand(['dpkg-query', '-W', `-f=${format}`, ...packages], {
    signal: ctx.signal,
    rstrip: false,
  });
  const ret: Record<string, Record<string, string>> = {};
  if (out.retcode !== 0) {
    if (failhard) throw new SALT_ERR_EXEC_COMMAND(`Error getting packages information: ${out.stderr.trim()}`);
    return ret;
  }
  for (const chunk of out.stdout.split(/\r?\n\*\/~\^\\\*\r?\n?/)) {
    if (!chunk.trim()) continue;
    const at = chunk.indexOf('\ndescription:');
    const head = at >= 0 ? chunk.slice(0, at) : chunk;
    const data: Record<string, string> = {};
    for (const line of head.split('\n')) {
      const t = line.trim();
      const colon = t.indexOf(':');
      if (colon < 0) continue;
      const value = t.slice(colon + 1);
      if (value) data[t.slice(0, colon)] = value;
      // Salt sets install_date once the package name is read: it comes second
      const date = installDate(data.package);
      if (date && !('install_date' in data)) data.install_date = date;
    }
    data.description = at >= 0 ? chunk.slice(at + '\ndescription:'.length) : '';
    delete data.installed_size;
    const lic = data.package ? license(data.package) : '';
    if (lic) data.license = lic;
    if (data.package) ret[data.package] = data;
  }
  return ret;
}

const RENAME: Readonly<Record<string, string>> = {
  package: 'name',
  origin: 'vendor',
  section: 'group',
  maintainer: 'packager',
  homepage: 'url',
};

/** Salt's `pkg.info_installed`: the installed packages' details, with Salt's key names. */
export async function infoInstalled(
  ctx: ExecContext,
  names: readonly string[],
  failhard = true,
): Promise<Record<string, Record<string, string>>> {
  const ret: Record<string, Record<string, string>> = {};
  for (const [name, info] of Object.entries(await lowpkgInfo(ctx, names, failhard))) {
    if ((info.status ?? 'ii')[1] !== 'i') continue;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(info)) {
      if (k === 'status') continue;
      out[RENAME[k] ?? k] = v;
    }
    ret[name] = out;
  }
  return ret;
}
