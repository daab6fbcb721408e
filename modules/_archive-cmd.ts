/**
 * Salt's `archive.cmd_zip`, `archive.rar` and `archive.unrar`, merged into `modules/archive.ts`:
 * the `zip`, `rar` and `unrar` programs run with the sources expanded as Salt expands them,
 * their output lines returned. Without the program, Salt's `which` decorator's error.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pySplitlines } from '../kernel/python/index.js';
import { expandSources } from './_archive-pack.js';
import { trimFiles } from './_archive-read.js';
import { needProgram as need, needOneOf } from './_command-not-found.js';

/** `cmd.run` of `cmd` with the options Salt passes; its output lines. */
async function runLines(
  ctx: ExecContext,
  cmd: string[],
  a: { cwd?: string | null; template?: string | null; runas?: string | null },
): Promise<string[]> {
  const kw: Record<string, unknown> = { python_shell: false };
  if (a.cwd) kw.cwd = a.cwd;
  if (a.template) kw.template = a.template;
  if (a.runas) kw.runas = a.runas;
  return pySplitlines(String(await ctx.call('cmd.run', [cmd], kw)));
}

const optional = (z: typeof import('zod').z) => z.string().nullish();

export const archiveCmdFunctions = {
  cmd_zip: defineFunction({
    args: (z) =>
      z.object({
        zip_file: z.string(),
        sources: z.unknown(),
        template: optional(z),
        cwd: optional(z),
        runas: optional(z),
      }),
    doc: "Uses the zip command to create zip files (zip -r); returns its output lines.\n\nCLI Example: salt '*' archive.cmd_zip /tmp/zipfile.zip /tmp/sourcefile1,/tmp/sourcefile2",
    run: (ctx, a) => {
      need('zip');
      return runLines(ctx, ['zip', '-r', a.zip_file, ...expandSources(a.sources)], a);
    },
  }),
  rar: defineFunction({
    args: (z) =>
      z.object({
        rarfile: z.string(),
        sources: z.unknown(),
        template: optional(z),
        cwd: optional(z),
        runas: optional(z),
      }),
    doc: "Uses rar for Linux to create rar files; returns its output lines.\n\nCLI Example: salt '*' archive.rar /tmp/rarfile.rar /tmp/sourcefile1,/tmp/sourcefile2",
    run: (ctx, a) => {
      need('rar');
      return runLines(ctx, ['rar', 'a', '-idp', a.rarfile, ...expandSources(a.sources)], a);
    },
  }),
  unrar: defineFunction({
    args: (z) =>
      z.object({
        rarfile: z.string(),
        dest: z.string(),
        excludes: z.unknown().optional(),
        template: optional(z),
        runas: optional(z),
        trim_output: z.unknown().default(false),
      }),
    doc: "Uses rar for Linux to unpack rar files (unrar, else rar); returns its output lines.\n\nCLI Example: salt '*' archive.unrar /tmp/rarfile.rar /home/strongbad/ excludes=file_1,file_2",
    run: async (ctx, a) => {
      const exe = needOneOf(['unrar', 'rar']);
      const excludes =
        typeof a.excludes === 'string'
          ? a.excludes.split(',').map((x) => x.trim())
          : Array.isArray(a.excludes)
            ? a.excludes.map(String)
            : [];
      const cmd = [exe, 'x', '-idp', a.rarfile, ...excludes.flatMap((x) => ['-x', x]), a.dest];
      return trimFiles(await runLines(ctx, cmd, a), a.trim_output);
    },
  }),
};
