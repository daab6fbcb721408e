/**
 * Salt's `alternatives` execution module (salt/modules/alternatives.py): Debian's
 * `update-alternatives` (RedHat's `alternatives`), run as argv, never through a shell.
 * Functions that run the program answer its stdout, or its stderr when it failed.
 */
import { existsSync } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext, RetcodeResult } from '../kernel/index.js';
import { pySplitlines } from '../kernel/util.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

type Run = { retcode: number; stdout: string; stderr: string };

async function run(ctx: ExecContext, args: readonly string[]): Promise<Run> {
  const program = ctx.grains.os_family === 'RedHat' ? 'alternatives' : 'update-alternatives';
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    LC_CTYPE: 'C',
    LC_NUMERIC: 'C',
    LC_TIME: 'C',
    LC_COLLATE: 'C',
    LC_MONETARY: 'C',
    LC_MESSAGES: 'C',
  });
  delete env.LC_ALL;
  const r = await runProcess({
    argv: [which(program) ?? program, ...args],
    cwd: '/',
    env,
    stdin: null,
    timeoutMs: 120_000,
    signal: ctx.signal,
  }).catch((err: Error) => ({ returncode: 127, stdout: Buffer.alloc(0), stderr: Buffer.from(err.message) }));
  return {
    retcode: r.returncode ?? 1,
    stdout: r.stdout.toString('utf8').trimEnd(),
    stderr: r.stderr.toString('utf8').trimEnd(),
  };
}

/** stdout, or stderr when the program failed (`anyFailure`: on any failure, else only when stderr is not empty). */
const answer = (r: Run, anyFailure: boolean) =>
  r.retcode > 0 && (anyFailure || r.stderr !== '') ? r.stderr : r.stdout;

/** As {@link answer}, and a failed run sets the job's retcode (Salt's cmd.run_all without ignore_retcode). */
const changed = (r: Run, anyFailure: boolean) =>
  r.retcode > 0 ? new RetcodeResult(answer(r, anyFailure), r.retcode) : answer(r, anyFailure);

const current = (name: string) => readlink(`/etc/alternatives/${name}`);

/** The master link of a group from the alternatives database file (RedHat, SUSE). */
async function linkFromFile(name: string, dir: string): Promise<string | false> {
  try {
    const lines = pySplitlines(await readFile(`${dir}/${name}`, 'utf8'), true);
    return lines[1] === undefined ? false : lines[1].replace(/\n+$/, '');
  } catch {
    return false;
  }
}

const nameArg = (z: typeof import('zod').z) => z.object({ name: z.string() });
const namePath = (z: typeof import('zod').z) => z.object({ name: z.string(), path: z.string() });
const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' alternatives.${example}`;

export default defineModule({
  name: 'alternatives',
  doc: 'Manage the alternatives system (update-alternatives): which program a generic name runs.',
  virtual: () =>
    existsSync('/etc/alternatives') || {
      ok: false,
      reason: 'Cannot load alternatives module: /etc/alternatives dir not found',
    },
  functions: {
    display: defineFunction({
      args: nameArg,
      doc: `The program's --display text for a group (its error text when there is no such group).${cli('display editor')}`,
      outputter: 'txt',
      run: async (ctx, a) => answer(await run(ctx, ['--display', a.name]), false),
    }),
    show_link: defineFunction({
      args: nameArg,
      doc: `The master link of a group (such as /usr/bin/editor), or False.${cli('show_link editor')}`,
      run: async (ctx, a) => {
        if (ctx.grains.os_family === 'RedHat') return linkFromFile(a.name, '/var/lib/alternatives');
        if (ctx.grains.os_family === 'Suse') return linkFromFile(a.name, '/var/lib/rpm/alternatives');
        const r = await run(ctx, ['--query', a.name]);
        if (r.retcode > 0 && r.stderr !== '') return false;
        const block = r.stdout.split('\n\n')[0] ?? '';
        const line = block.split('\n').find((l) => l.startsWith('Link:'));
        return line ? line.slice(line.indexOf(':') + 1).trim() : false;
      },
    }),
    show_current: defineFunction({
      args: nameArg,
      doc: `The path a group points at now (/etc/alternatives/<name>), or False.${cli('show_current editor')}`,
      run: async (ctx, a) =>
        current(a.name).catch(() => {
          ctx.log.error({ name: a.name }, 'alternative does not exist');
          return false;
        }),
    }),
    check_exists: defineFunction({
      args: namePath,
      doc: `True when the path is registered as an alternative of the group.${cli('check_exists name path')}`,
      run: async (ctx, a) => {
        const r = await run(ctx, ['--display', a.name]);
        if (r.retcode > 0 && r.stderr !== '') return false;
        return pySplitlines(r.stdout).some((l) => l.startsWith(a.path));
      },
    }),
    check_installed: defineFunction({
      args: namePath,
      doc: `True when the group points at this path now.${cli('check_installed name path')}`,
      run: (_ctx, a) =>
        current(a.name).then(
          (p) => p === a.path,
          () => false,
        ),
    }),
    install: defineFunction({
      args: (z) => z.object({ name: z.string(), link: z.string(), path: z.string(), priority: z.unknown() }),
      doc: `Register a path as an alternative of a group, with its master link and priority.${cli('install editor /usr/bin/editor /usr/bin/emacs23 50')}`,
      outputter: 'txt',
      run: async (ctx, a) =>
        changed(await run(ctx, ['--install', a.link, a.name, a.path, String(a.priority)]), false),
    }),
    remove: defineFunction({
      args: namePath,
      doc: `Unregister a path from a group.${cli('remove name path')}`,
      outputter: 'txt',
      run: async (ctx, a) => changed(await run(ctx, ['--remove', a.name, a.path]), true),
    }),
    auto: defineFunction({
      args: nameArg,
      doc: `Put a group in auto mode (the highest priority wins).${cli('auto name')}`,
      run: async (ctx, a) => changed(await run(ctx, ['--auto', a.name]), true),
    }),
    set: defineFunction({
      pyName: 'set_',
      args: namePath,
      doc: `Point a group at a registered path (manual mode).${cli('set name path')}`,
      run: async (ctx, a) => changed(await run(ctx, ['--set', a.name, a.path]), true),
    }),
  },
});
