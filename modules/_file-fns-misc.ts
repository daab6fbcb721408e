/**
 * Small functions of Salt's `file` module, merged into `modules/file.ts`: `grep` (the grep
 * program over a glob's matches), `sed_contains`, `normpath`, `pardir`, `path_exists_glob`,
 * `lsattr` and `chattr` (the e2fsprogs programs). Returns and errors are Salt 3006's.
 */
import { posix } from 'node:path';
import { defineFunction, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { cli, expand, str } from './_file-args.js';
import { sedEscape } from './_file-fns-text.js';
import { lexists } from './_file-stat.js';
import { pyGlob } from './_py-glob.js';
import { shlexSplit } from './_shlex.js';
import { which } from './_which.js';

/** Python's `os.path.normpath` (POSIX): `.` and `..` resolved lexically, `//` kept at the start. */
export function pyNormpath(path: string): string {
  if (path === '') return '.';
  const lead = path.startsWith('//') && !path.startsWith('///') ? '//' : path.startsWith('/') ? '/' : '';
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..' || (!lead && out.length === 0) || (out.length > 0 && out.at(-1) === '..'))
      out.push(part);
    else if (out.length > 0) out.pop();
  }
  return lead + out.join('/') || '.';
}

/** Salt's `_chattr_has_extended_attrs`: e2fsprogs newer than 1.41.12 (tune2fs's banner). */
async function extendedAttrs(ctx: ExecContext): Promise<boolean> {
  if (!which('tune2fs')) return false;
  const out = String(await ctx.call('cmd.run', [['tune2fs']], { ignore_retcode: true, python_shell: false }));
  const version = /tune2fs (?<v>[0-9.]+)/.exec(out)?.groups?.v;
  if (!version) return false;
  const parts = version.split('.').map(Number);
  const need = [1, 41, 12];
  for (let i = 0; i < Math.max(parts.length, need.length); i++) {
    const d = (parts[i] ?? 0) - (need[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

export const miscFunctions = {
  grep: defineFunction({
    args: (z) => z.object({ path: str(z), pattern: z.coerce.string() }),
    varargs: true,
    doc: `Grep for a string in the specified file (or the files a glob matches); the grep program's run_all return. Each option is its own argument.${cli("salt '*' file.grep /etc/sysconfig/network-scripts/ifcfg-eth0 ipaddr -- -i")}`,
    run: async (ctx, a, extra) => {
      const path = expand(a.path);
      const matches = await pyGlob(path);
      const opts: string[] = [];
      for (const opt of extra.args) {
        const split = shlexSplit(String(opt));
        if (split.length > 1)
          throw new SALT_ERR_INVOCATION(
            `Passing multiple command line arguments in a single string is not supported, please pass the following arguments separately: ${String(opt)}`,
          );
        opts.push(...split);
      }
      const files = matches.length > 0 ? matches : [path];
      return ctx.call('cmd.run_all', [['grep', ...opts, a.pattern, ...files]], { python_shell: false });
    },
  }),
  sed_contains: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        text: z.coerce.string(),
        limit: z.coerce.string().default(''),
        flags: z.string().default('g'),
      }),
    doc: `Return True if the file at path contains text. Utilizes sed to perform the search (line-wise search).${cli("salt '*' file.contains /etc/crontab 'mymaintenance.sh'")}`,
    run: async (ctx, a) => {
      const path = expand(a.path);
      if (!(await lexists(path))) return false;
      const script = `${a.limit ? `/${sedEscape(a.limit, false)}/ ` : ''}s/${sedEscape(a.text, false)}/$/p${a.flags}`;
      const out = await ctx.call('cmd.run', [['sed', '-n', '-r', '-e', script, path]], {
        python_shell: false,
      });
      return Boolean(out);
    },
  }),
  normpath: defineFunction({
    args: (z) => z.object({ path: z.coerce.string() }),
    doc: `Returns Normalize path, eliminating double slashes, etc.${cli("salt '*' file.normpath 'a/b/c/..'")}`,
    inline: true,
    run: (_ctx, a) => pyNormpath(a.path),
  }),
  pardir: defineFunction({
    doc: `Return the relative parent directory path symbol for underlying OS.${cli("salt '*' file.pardir")}`,
    inline: true,
    run: () => posix.normalize('..'),
  }),
  path_exists_glob: defineFunction({
    args: (z) => z.object({ path: z.coerce.string() }),
    doc: `Tests to see if path after expansion is a valid path (file or directory). Expansion allows usage of ? * and character ranges []. Tilde expansion is not supported. Returns True/False.${cli("salt '*' file.path_exists_glob /etc/pam*/pass*")}`,
    run: async (_ctx, a) => (await pyGlob(expand(a.path))).length > 0,
  }),
  lsattr: defineFunction({
    args: (z) => z.object({ path: z.coerce.string() }),
    doc: `Obtain the modifiable attributes of the given file. If path is to a directory, an empty list is returned.${cli("salt '*' file.lsattr foo1.txt")}`,
    run: async (ctx, a) => {
      if (!which('lsattr')) return null;
      if (!(await lexists(a.path)))
        throw new SALT_ERR_INVOCATION(`File or directory does not exist: ${a.path}`);
      const out = String(
        await ctx.call('cmd.run', [['lsattr', a.path]], { ignore_retcode: true, python_shell: false }),
      );
      const pattern = (await extendedAttrs(ctx)) ? /[aAcCdDeijPsStTu]/g : /[acdijstuADST]/g;
      const results: Record<string, string[]> = {};
      for (const line of out.split(/\r?\n/)) {
        if (line === '' || line.startsWith('lsattr: ')) continue;
        const m = /^(\S+)\s+(.*)$/.exec(line.trimStart());
        if (m?.[1] !== undefined && m[2] !== undefined) results[m[2]] = m[1].match(pattern) ?? [];
      }
      return results;
    },
  }),
  chattr: defineFunction({
    varargs: true,
    varkw: true,
    doc: `Change the attributes of files. This function accepts one or more files and the following options: operator (add or remove), attributes ([aAcCdDeijPsStTu]), flags (R, V, f), version.${cli("salt '*' file.chattr foo1.txt foo2.txt operator=add attributes=ai")}`,
    run: async (ctx, _a, extra) => {
      const kw = extra.kwargs;
      const operator = kw.operator;
      if (operator !== 'add' && operator !== 'remove')
        throw new SALT_ERR_INVOCATION("Need an operator: 'add' or 'remove' to modify attributes.");
      if (kw.attributes === undefined || kw.attributes === null)
        throw new SALT_ERR_INVOCATION('Need attributes: [aAcCdDeijPsStTu]');
      const argv = ['chattr', `${operator === 'add' ? '+' : '-'}${String(kw.attributes)}`];
      if (kw.flags !== undefined && kw.flags !== null) argv.push(`-${String(kw.flags)}`);
      if (kw.version !== undefined && kw.version !== null) argv.push('-v', String(kw.version));
      argv.push(...extra.args.map(String));
      return !(await ctx.call('cmd.run', [argv], { python_shell: false }));
    },
  }),
};
