/**
 * Salt's `lowpkg` on Debian (salt/modules/dpkg_lowpkg.py): dpkg itself, below apt. The file
 * lists are the `pkg` module's (which reads dpkg's database the same way); `list_pkgs` and
 * `bin_pkg_info` ask dpkg-query and dpkg -I, as argv.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  RetcodeResult,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';
import { runProcess } from './_spawn.js';

async function run(
  ctx: ExecContext,
  argv: string[],
): Promise<{ retcode: number; stdout: string; stderr: string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.LC_MESSAGES = 'C';
  env.LC_CTYPE = 'C';
  const r = await runProcess({ argv, cwd: '/', env, stdin: null, timeoutMs: 300_000, signal: ctx.signal });
  return {
    retcode: r.returncode ?? 1,
    stdout: r.stdout.toString('utf8').trimEnd(),
    stderr: r.stderr.toString('utf8').trimEnd(),
  };
}

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
      run: (ctx, _a, extra) => ctx.call('pkg.file_list', extra.args),
    }),
    file_dict: defineFunction({
      args: (z) => z.object({}),
      varargs: true,
      varkw: true,
      doc: `The files of the named packages (all packages when none is named), by package: {errors, packages: {name: [files]}}.${cli('file_dict hostname mount')}`,
      run: (ctx, _a, extra) => ctx.call('pkg.file_dict', extra.args),
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
