/**
 * Salt's `lowpkg` on Debian (salt/modules/dpkg_lowpkg.py): dpkg itself, below apt. The file
 * lists are the `pkg` module's (which reads dpkg's database the same way); `list_pkgs` and
 * `bin_pkg_info` ask dpkg-query and dpkg -I, as argv.
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  RetcodeResult,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { contextRetcode, pySplitlines, pyStr } from '../kernel/util.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { compareDicts } from './_pkg-targets.js';
import { runProcess } from './_spawn.js';

async function run(
  ctx: ExecContext,
  argv: string[],
  stdin: string | null = null,
): Promise<{ retcode: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LC_MESSAGES = 'C';
  env.LC_CTYPE = 'C';
  const r = await runProcess({
    argv,
    cwd: '/',
    env,
    stdin: stdin === null ? null : Buffer.from(stdin),
    timeoutMs: 300_000,
    signal: ctx.signal,
  });
  // Salt runs these through cmd.run_all: the job's retcode is the last command's
  contextRetcode.set(ctx, r.returncode ?? 1);
  return {
    retcode: r.returncode ?? 1,
    stdout: r.stdout.toString('utf8').trimEnd(),
    stderr: r.stderr.toString('utf8').trimEnd(),
  };
}

/** dpkg-query's fields for `info`, in Salt's order; the record ends with a line no field has. */
const INFO_FIELDS =
  'package:${Package}\\nrevision:${binary:Revision}\\narchitecture:${Architecture}\\nmaintainer:${Maintainer}\\nsummary:${Summary}\\nsource:${source:Package}\\nversion:${Version}\\nsection:${Section}\\ninstalled_size:${Installed-size}\\nsize:${Size}\\nMD5:${MD5sum}\\nSHA1:${SHA1}\\nSHA256:${SHA256}\\norigin:${Origin}\\nhomepage:${Homepage}\\nstatus:${db:Status-Abbrev}\\ndescription:${Description}\\n\\n*/~^\\\\*\\n';

/** When dpkg installed `pkg` (its file list's mtime), as Salt's ISO form with a Z. */
async function installDate(pkg: string): Promise<string | undefined> {
  const st = await stat(`/var/lib/dpkg/info/${pkg}.list`).catch(() => undefined);
  if (!st) return undefined;
  return `${new Date(Math.floor(st.mtimeMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The `License:` names of a package's copyright file, sorted and joined (Salt's `_get_pkg_license`). */
async function licenseOf(pkg: string): Promise<string> {
  // read as UTF-8, leaving out what does not decode (Salt's errors="ignore")
  const text = (await readFile(`/usr/share/doc/${pkg}/copyright`, 'utf8').catch(() => '')).replaceAll(
    '\uFFFD',
    '',
  );
  const names = new Set<string>();
  for (const line of text.split('\n'))
    if (line.startsWith('License:')) names.add(line.slice('License:'.length).trim());
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(', ');
}

/** Salt's `_get_pkg_info`: one record per package dpkg knows, its keys in dpkg-query's order. */
async function pkgInfo(ctx: ExecContext, packages: string[], failhard: boolean) {
  const r = await run(ctx, ['dpkg-query', '-W', `-f=${INFO_FIELDS}`, ...packages]);
  if (r.retcode !== 0) {
    if (failhard) throw new SALT_ERR_EXEC_COMMAND(`Error getting packages information: ${r.stderr}`);
    return [];
  }
  const out: Record<string, string>[] = [];
  for (const rec of `${r.stdout}\n`.split(/\r?\n\*\/~\^\\\*(?:\r?\n|)/)) {
    if (!rec.trim()) continue;
    const at = rec.indexOf('\ndescription:');
    const head = at === -1 ? rec : rec.slice(0, at);
    const data: Record<string, string> = {};
    for (const raw of head.split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      const colon = line.indexOf(':');
      const value = line.slice(colon + 1);
      if (value) data[line.slice(0, colon)] = value;
      const date = data.package === undefined ? undefined : await installDate(data.package);
      if (date) data.install_date = date;
    }
    data.description = at === -1 ? '' : rec.slice(at + '\ndescription:'.length);
    out.push(data);
  }
  return out;
}

/** A file listing; Salt's "Error:  ..." text when dpkg-query failed, which left the job's retcode 1. */
const listed = (got: unknown) => (typeof got === 'string' ? new RetcodeResult(got, 1) : got);

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' lowpkg.${example}`;

export default defineModule({
  name: 'lowpkg',
  doc: "dpkg's own view of packages (Debian family): installed versions, file lists, a .deb file's name and version.",
  virtual: (ctx) =>
    ctx.grains.os_family === 'Debian' || {
      ok: false,
      reason: 'The dpkg execution module cannot be loaded: only works on Debian family systems.',
    },
  functions: {
    list_pkgs: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: `The installed packages (all, or the named ones) as {name: version}, from dpkg-query; "Error:  <stderr>" when dpkg-query fails.${cli('list_pkgs')}`,
      run: async (ctx, _a, extra) => {
        const out = await run(ctx, [
          'dpkg-query',
          '-f=${db:Status-Status}\t${binary:Package}\t${Version}\n',
          '-W',
          ...extra.args.map((p) => pyStr(p)),
        ]);
        if (out.retcode !== 0) {
          ctx.log.error({ stderr: out.stderr }, 'dpkg-query failed');
          return new RetcodeResult(`Error:  ${out.stderr}`, out.retcode);
        }
        const pkgs: Record<string, string> = {};
        for (const line of pySplitlines(out.stdout)) {
          const [status, name = '', version = ''] = line.split('\t');
          if (status === 'installed') pkgs[name] = version;
        }
        return pkgs;
      },
    }),
    file_list: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: `The files of the named packages (all packages when none is named): {errors, files}.${cli('file_list hostname mount')}`,
      run: async (ctx, _a, extra) => listed(await ctx.call('pkg.file_list', extra.args)),
    }),
    file_dict: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: `The files of the named packages (all packages when none is named), by package: {errors, packages: {name: [files]}}.${cli('file_dict hostname mount')}`,
      run: async (ctx, _a, extra) => listed(await ctx.call('pkg.file_dict', extra.args)),
    }),
    info: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: `A detailed summary of the named packages (all packages when none is named), by name: dpkg's fields, install_date, description and license. failhard (default True): fail when a name matches no package; with False answer {}.${cli('info')}\n    salt '*' lowpkg.info apache2 bash\n    salt '*' lowpkg.info 'php5*' failhard=false`,
      run: async (ctx, _a, extra) => {
        const { failhard = true, ...rest } = cleanKwargs(extra.kwargs);
        const bad = Object.entries(rest);
        if (bad.length > 0)
          throw new SALT_ERR_INVOCATION(
            `The following keyword arguments are not valid: ${bad.map(([k, v]) => `${k}=${pyStr(v)}`).join(', ')}`,
          );
        const ret: Record<string, Record<string, string>> = {};
        const fail = failhard !== false && failhard !== 0 && failhard !== null && failhard !== '';
        for (const pkg of await pkgInfo(ctx, extra.args.map(pyStr), fail)) {
          delete pkg.installed_size;
          const name = pkg.package ?? '';
          const lic = await licenseOf(name);
          if (lic) pkg.license = lic;
          ret[name] = pkg;
        }
        return ret;
      },
    }),
    unpurge: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      doc: `Set each named package's selection back to 'install' (undoing a purge or deinstall selection); the changes to the packages marked for purge, as {name: {old, new}}.${cli('unpurge curl')}`,
      run: async (ctx, _a, extra) => {
        if (extra.args.length === 0) return {};
        const marked = async () =>
          (await ctx.call('pkg.list_pkgs', [], { purge_desired: true })) as Record<string, unknown>;
        const old = await marked();
        await run(ctx, ['dpkg', '--set-selections'], extra.args.map((p) => `${pyStr(p)} install\n`).join(''));
        return compareDicts(old, await marked());
      },
    }),
    bin_pkg_info: defineFunction({
      args: (z) => z.object({ path: z.string(), saltenv: z.string().default('base') }),
      doc: `The name, version and arch of a .deb file (a local absolute path, or a salt:// or other URL fetched first).${cli('bin_pkg_info /root/foo-1.2.3-1ubuntu1_all.deb')}`,
      run: async (ctx, a) => {
        let file = a.path;
        if (await ctx.call('config.valid_fileproto', [file])) {
          const cached = await ctx.call('cp.cache_file', [file, a.saltenv]);
          if (!cached)
            throw new SALT_ERR_EXEC_COMMAND(`Unable to retrieve ${file} from saltenv '${a.saltenv}'`);
          file = String(cached);
        } else if (!existsSync(file)) throw new SALT_ERR_EXEC_COMMAND(`${file} does not exist on minion`);
        else if (!path.isAbsolute(file)) throw new SALT_ERR_INVOCATION(`${file} does not exist on minion`);
        const r = await run(ctx, ['dpkg', '-I', file]);
        if (r.retcode !== 0) {
          throw new SALT_ERR_EXEC_COMMAND(`Unable to get info for ${file}${r.stderr ? `: ${r.stderr}` : ''}`);
        }
        const ret: Record<string, string> = {};
        for (const raw of pySplitlines(r.stdout)) {
          const line = raw.trim();
          const last = line.split(/\s+/).at(-1) ?? '';
          if (/^Package *:/.test(line)) ret.name = last;
          else if (/^Version *:/.test(line)) ret.version = last;
          else if (/^Architecture *:/.test(line)) ret.arch = last;
        }
        const missing = ['name', 'version', 'arch'].filter((k) => !(k in ret));
        if (missing.length)
          throw new SALT_ERR_EXEC_COMMAND(`Unable to get ${missing.join(', ')} for ${file}`);
        if (
          ctx.grains.cpuarch === 'x86_64' &&
          ret.arch !== 'all' &&
          ctx.grains.osarch === 'amd64' &&
          ret.arch !== 'amd64'
        ) {
          ret.name = `${ret.name}:${ret.arch}`;
        }
        return ret;
      },
    }),
  },
});
