/**
 * Salt's `cpan` execution module (`salt/modules/cpan.py`): install, remove, list and show Perl
 * modules with the `cpan` client, and show CPAN's configuration. Everything is read from
 * `cpan`'s output through `cmd.run` (standard error included), as Salt reads it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { type CpanModuleInfo, parseCpanConfig, parseCpanDetails, parseCpanList } from './_cpan-parse.js';
import { pythonError } from './_py-exception.js';
import { which } from './_which.js';

const cpanRun = async (ctx: ExecContext, args: string[]): Promise<string> =>
  String(await ctx.call('cmd.run', [['cpan', ...args]], { python_shell: false }));

/** Python's `os.listdir` error for a folder that cannot be read. */
async function listdir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT')
      throw pythonError('FileNotFoundError', `[Errno 2] No such file or directory: '${dir}'`);
    if (e.code === 'ENOTDIR') throw pythonError('NotADirectoryError', `[Errno 20] Not a directory: '${dir}'`);
    throw err;
  }
}

async function showConfig(ctx: ExecContext): Promise<Record<string, string>> {
  return parseCpanConfig(await cpanRun(ctx, ['-J']));
}

async function show(ctx: ExecContext, module: string): Promise<CpanModuleInfo> {
  const ret = parseCpanDetails(module, await cpanRun(ctx, ['-D', module]));
  if (ret.error) return ret;
  const buildDir = (await showConfig(ctx)).build_dir;
  if (buildDir !== undefined) {
    const prefix = module.replaceAll('::', '-');
    ret['cpan build dirs'] = (await listdir(buildDir))
      .filter((f) => f.startsWith(prefix))
      .map((f) => path.join(buildDir, f));
  }
  return ret;
}

/** The files a module's MANIFEST lists under `lib/`, placed where the module was installed. */
async function manifestFiles(info: CpanModuleInfo, module: string): Promise<string[]> {
  const insPath = String(info['installed file']).replaceAll(`${module.replaceAll('::', '/')}.pm`, '');
  const files: string[] = [];
  for (const dir of info['cpan build dirs'] ?? []) {
    if (!(await listdir(dir)).includes('MANIFEST')) continue;
    const text = await readFile(path.join(dir, 'MANIFEST'), 'utf8');
    for (const line of text.split(/(?<=\n)/)) {
      if (line.startsWith('lib/')) files.push(line.replaceAll('lib/', insPath).trim());
    }
  }
  return files;
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' cpan.${example}`;

export default defineModule({
  name: 'cpan',
  doc: 'Manage Perl modules with CPAN.',
  virtual: () =>
    which('cpan')
      ? true
      : { ok: false, reason: 'Unable to locate cpan. Make sure it is installed and in the PATH.' },
  functions: {
    install: defineFunction({
      args: (z) => z.object({ module: z.unknown().transform(pyStr) }),
      doc: `Install a Perl module from CPAN; returns its old and new installed versions.${cli('install Template::Alloy')}`,
      run: async (ctx, a) => {
        const ret: Record<string, string | null> = { old: null, new: null };
        const before = await show(ctx, a.module);
        const out = await cpanRun(ctx, ['-i', a.module]);
        if (out.includes("don't know what it is"))
          return { ...ret, error: 'CPAN cannot identify this package' };
        const after = await show(ctx, a.module);
        ret.old = before['installed version'] ?? null;
        if (!('installed version' in after)) throw pythonError('KeyError', "'installed version'");
        ret.new = after['installed version'] ?? null;
        return ret;
      },
    }),
    remove: defineFunction({
      args: (z) => z.object({ module: z.unknown().transform(pyStr), details: z.unknown().default(false) }),
      doc: `Remove a Perl module that CPAN installed, by the files its build's MANIFEST lists; details=True lists each file's fate.${cli(
        'remove Old::Package',
      )}`,
      run: async (ctx, a) => {
        const ret: Record<string, unknown> = { old: null, new: null };
        const info = await show(ctx, a.module);
        if (info.error) return { error: info.error };
        const version = info['installed version'] ?? null;
        if (version === null) return ret;
        ret.old = version;
        if (!info['cpan build dirs']) return { error: 'No CPAN data available to use for uninstalling' };
        const rm: Record<string, string> = {};
        for (const file of await manifestFiles(info, a.module)) {
          if (file in rm) continue;
          rm[file] = pyTruthy(await ctx.call('file.remove', [file])) ? 'removed' : 'unable to remove';
        }
        if (pyTruthy(a.details)) ret.details = rm;
        return ret;
      },
    }),
    list: defineFunction({
      pyName: 'list_',
      doc: `List the installed Perl modules and their versions.${cli('list')}`,
      run: async (ctx) => parseCpanList(await cpanRun(ctx, ['-l'])),
    }),
    show: defineFunction({
      args: (z) => z.object({ module: z.unknown().transform(pyStr) }),
      doc: `Show what CPAN knows of a module: description, files, installed and latest versions, author, build folders.${cli(
        'show Template::Alloy',
      )}`,
      run: (ctx, a) => show(ctx, a.module),
    }),
    show_config: defineFunction({
      doc: `Return CPAN's configuration (the one-line entries of \`cpan -J\`).${cli('show_config')}`,
      run: (ctx) => showConfig(ctx),
    }),
  },
});
