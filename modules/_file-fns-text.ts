/**
 * More text functions of Salt's `file` module, merged into `modules/file.ts`: `line`, `sed`
 * (the sed program), `patch` (the patch program), `contains_regex`, `contains_glob`,
 * `comment`/`uncomment` (the older names of `comment_line`), `seek_read`, `seek_write`,
 * `truncate`. Returns and error strings are Salt 3006's.
 */
import { open, readFile, realpath, truncate } from 'node:fs/promises';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cli, commentArgs, expand, optStr, str } from './_file-args.js';
import { commentLine, pyRegex } from './_file-edit.js';
import { editLine } from './_file-line.js';
import { isDir, isFile, lexists } from './_file-stat.js';
import { fnmatch } from './_fnmatch.js';
import { shlexSplit } from './_shlex.js';
import { which } from './_which.js';

/** Salt's `_sed_esc`: quotes and slashes escaped, and with `escapeAll` the regex specials too. */
export function sedEscape(s: string, escapeAll: boolean): string {
  let out = s.replace(/'/g, `'"'"'`).replace(/\//g, '\\/');
  if (escapeAll) for (const c of '^.[$()|*+?{') out = out.split(c).join(`\\${c}`);
  return out;
}

async function commentCall(path: string, regex: string, char: string, cmnt: boolean, backup: string | false) {
  const real = await realpath(expand(path)).catch(() => expand(path));
  if (!(await isFile(real))) throw new SALT_ERR_INVOCATION(`File not found: ${real}`);
  return commentLine(real, regex, char, cmnt, backup);
}

function isTest(ctx: ExecContext): boolean {
  return ctx.opts.test === true;
}

export const textFunctions = {
  line: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        content: optStr(z),
        match: optStr(z),
        mode: z.string().nullish(),
        location: z.string().nullish(),
        before: optStr(z),
        after: optStr(z),
        show_changes: pyFlag(z, true),
        backup: z.union([z.boolean(), z.string()]).default(false),
        quiet: pyFlag(z, false),
        indent: pyFlag(z, true),
      }),
    doc: `Line-focused editing of a file: mode ensure, replace, delete or insert, located by match, before, after or location; the diff (show_changes=False: True/False).${cli(`salt '*' file.line /etc/nsswitch.conf "networks:\\tfiles dns" after="hosts:.*?" mode='ensure'`)}`,
    run: (ctx, a) =>
      editLine(a.path, {
        content: a.content,
        match: a.match,
        mode: a.mode,
        location: a.location,
        before: a.before,
        after: a.after,
        showChanges: a.show_changes,
        backup: a.backup,
        quiet: a.quiet,
        indent: a.indent,
        test: isTest(ctx),
      }),
  }),
  sed: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        before: str(z),
        after: str(z),
        limit: z.string().default(''),
        backup: z.union([z.string(), z.literal(false)]).default('.bak'),
        options: z.string().default('-r -e'),
        flags: z.string().default('g'),
        escape_all: pyFlag(z, false),
        negate_match: pyFlag(z, false),
      }),
    doc: `Make a simple edit to a file with the sed program (sed -i -r -e 's/before/after/flags'); the command's run_all return.${cli("salt '*' file.sed /etc/httpd/httpd.conf 'LogLevel warn' 'LogLevel info'")}`,
    run: async (ctx, a) => {
      const path = expand(a.path);
      if (!(await lexists(path))) return false;
      const before = sedEscape(a.before, a.escape_all);
      const after = sedEscape(a.after, a.escape_all);
      const limit = sedEscape(a.limit, a.escape_all);
      const script = `${limit ? `/${limit}/ ` : ''}${a.negate_match ? '!' : ''}s/${before}/${after}/${a.flags}`;
      const argv = ['sed', a.backup ? `-i${a.backup}` : '-i', ...shlexSplit(a.options), script, path];
      return ctx.call('cmd.run_all', [argv], { python_shell: false });
    },
  }),
  patch: defineFunction({
    args: (z) =>
      z.object({
        originalfile: str(z),
        patchfile: str(z),
        options: z.union([z.string(), z.array(z.string())]).default(''),
        dry_run: pyFlag(z, false),
      }),
    doc: `Apply a patch to a file or directory with the patch program (patch <options> -i <patchfile> <originalfile>); the command's run_all return.${cli("salt '*' file.patch /opt/file.txt /tmp/file.txt.patch")}`,
    run: async (ctx, a) => {
      const exe = which('patch');
      if (!exe)
        throw new SALT_ERR_EXEC_COMMAND(
          "patch executable not found. Is the distribution's patch package installed?",
        );
      const argv = [exe, ...(Array.isArray(a.options) ? a.options : shlexSplit(a.options))];
      if (a.dry_run)
        argv.push(['FreeBSD', 'OpenBSD'].includes(String(ctx.grains.kernel)) ? '-C' : '--dry-run');
      if (!argv.includes('-N') && !argv.includes('--forward')) argv.push('--forward');
      if (!argv.some((o) => o === '-r' || o.startsWith('-r ') || o.startsWith('--reject-file')))
        argv.push('--reject-file=-');
      argv.push('-i', a.patchfile);
      if (await isDir(a.originalfile)) {
        argv.push('-d', a.originalfile);
        if (!argv.some((o) => o.startsWith('-p') || o.startsWith('--strip='))) argv.push('--strip=0');
      } else argv.push(a.originalfile);
      return ctx.call('cmd.run_all', [argv], { python_shell: false });
    },
  }),
  contains_regex: defineFunction({
    args: (z) => z.object({ path: str(z), regex: z.string(), lchar: z.string().default('') }),
    doc: `Return True if the regular expression matches on any line of the file; lchar is stripped from each line's left first.${cli("salt '*' file.contains_regex /etc/crontab")}`,
    run: async (_ctx, a) => {
      const path = expand(a.path);
      if (!(await lexists(path))) return false;
      const re = pyRegex(a.regex);
      const text = await readFile(path, 'utf8').catch(() => null);
      if (text === null) return false;
      const strip = a.lchar ? new RegExp(`^[${a.lchar.replace(/[\\\]^-]/g, '\\$&')}]+`) : null;
      return (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).some((l) => re.test(strip ? l.replace(strip, '') : l));
    },
  }),
  contains_glob: defineFunction({
    args: (z) => z.object({ path: str(z), glob_expr: z.string() }),
    doc: `Return True if the glob matches the file's text.${cli("salt '*' file.contains_glob /etc/foobar '*cheese*'")}`,
    run: async (_ctx, a) => {
      const path = expand(a.path);
      if (!(await lexists(path))) return false;
      const text = await readFile(path, 'utf8').catch(() => null);
      return text !== null && fnmatch(text, a.glob_expr);
    },
  }),
  comment: defineFunction({
    args: commentArgs,
    doc: `Comment out the lines matching a regular expression (deprecated: use comment_line).${cli("salt '*' file.comment /etc/modules pcspkr")}`,
    run: (_ctx, a) => commentCall(a.path, a.regex, a.char, true, a.backup),
  }),
  uncomment: defineFunction({
    args: commentArgs,
    doc: `Uncomment the commented lines matching a regular expression (deprecated: use comment_line with cmnt=False).${cli("salt '*' file.uncomment /etc/hosts.deny 'ALL: PARANOID'")}`,
    run: (_ctx, a) => commentCall(a.path, a.regex, a.char, false, a.backup),
  }),
  seek_read: defineFunction({
    args: (z) => z.object({ path: str(z), size: z.coerce.number().int(), offset: z.coerce.number().int() }),
    doc: `Seek to a position in a file and read size bytes from there (as bytes).${cli("salt '*' file.seek_read /path/to/file 4096 0")}`,
    run: async (_ctx, a) => {
      const fh = await open(expand(a.path), 'r');
      try {
        const st = await fh.stat();
        const pos = a.offset < 0 ? Math.max(0, st.size + a.offset) : a.offset;
        const buf = Buffer.alloc(Math.max(0, Math.min(a.size, 64 * 1024 * 1024)));
        const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
        return buf.subarray(0, bytesRead).toString('latin1');
      } finally {
        await fh.close();
      }
    },
  }),
  seek_write: defineFunction({
    args: (z) => z.object({ path: str(z), data: str(z), offset: z.coerce.number().int() }),
    doc: `Seek to a position in a file and write data there; the number of bytes written.${cli(`salt '*' file.seek_write /path/to/file 'some data' 4096`)}`,
    run: async (_ctx, a) => {
      const fh = await open(expand(a.path), 'r+');
      try {
        const { bytesWritten } = await fh.write(Buffer.from(a.data), 0, Buffer.byteLength(a.data), a.offset);
        await fh.sync();
        return bytesWritten;
      } finally {
        await fh.close();
      }
    },
  }),
  truncate: defineFunction({
    args: (z) => z.object({ path: str(z), length: z.coerce.number().int().nonnegative() }),
    doc: `Seek to a position in a file and delete everything after it.${cli("salt '*' file.truncate /path/to/file 512")}`,
    run: async (_ctx, a) => {
      await truncate(expand(a.path), a.length);
      return null;
    },
  }),
};
