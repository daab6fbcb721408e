/**
 * Salt's `rsync` state module (`salt/states/rsync.py`): `rsync.synchronized` keeps a target
 * directory in step with a source through the `rsync` execution module, and reports rsync's
 * own summary and the files it copied or deleted. Unlike Salt's, a test run (`test=True`)
 * does not create a missing target for `prepare=True`: rsync's dry run reports it instead.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { pyTruthy } from '../kernel/util.js';
import { which } from '../modules/_which.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** Salt's `_get_summary`: rsync's closing lines (its last paragraph) as a list. */
export function rsyncSummary(out: string): string {
  const blocks = out.split('\n\n');
  const last = (blocks[blocks.length - 1] ?? '').replace(/ {2}/g, '\n');
  return `- ${last
    .split('\n')
    .filter((l) => l)
    .join('\n- ')}`;
}

/** Salt's `_get_changes`: the files rsync listed (after its first line), copied and deleted. */
export function rsyncChanges(out: string): { copied: string; deleted: string } {
  const copied: string[] = [];
  const deleted: string[] = [];
  for (const line of (out.split('\n\n')[0] ?? '').split('\n').slice(1)) {
    if (line.startsWith('deleting ')) deleted.push(line.slice(line.indexOf(' ') + 1));
    else copied.push(line);
  }
  return { copied: copied.sort().join('\n') || 'N/A', deleted: deleted.sort().join('\n') || 'N/A' };
}

type RunAll = { retcode?: number; stdout: string; stderr: string };

const synchronized = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source: z.string(),
      delete: z.unknown().default(false),
      force: z.unknown().default(false),
      update: z.unknown().default(false),
      passwordfile: z.unknown().default(null),
      exclude: z.unknown().default(null),
      excludefrom: z.unknown().default(null),
      prepare: z.unknown().default(false),
      dryrun: z.unknown().default(false),
      additional_opts: z.unknown().default(null),
    }),
  doc: `Guarantee that the source directory is copied to the target (name) with rsync.

source: the source directory; prepare: create the target when it is missing; delete, force, update: rsync's --delete, --force, --update; passwordfile, exclude, excludefrom; dryrun: a trial run, as test=True; additional_opts: a list of further rsync options.`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const prepare = pyTruthy(a.prepare);
    if (!existsSync(a.name) && !pyTruthy(a.force) && !prepare) {
      ret.result = false;
      ret.comment = `Destination directory ${a.name} was not found.`;
      return ret;
    }
    if (!existsSync(a.name) && prepare && !ctx.test) await mkdir(a.name, { recursive: true });
    const dryrun = ctx.test || pyTruthy(a.dryrun);
    const result = (await ctx.call('rsync.rsync', [a.source, a.name], {
      delete: a.delete,
      force: a.force,
      update: a.update,
      passwordfile: a.passwordfile,
      exclude: a.exclude,
      excludefrom: a.excludefrom,
      dryrun,
      additional_opts: a.additional_opts,
    })) as RunAll;
    if (dryrun) return { ...ret, result: null, comment: rsyncSummary(result.stdout) };
    if (result.retcode) return { ...ret, result: false, comment: result.stderr };
    const changes = rsyncChanges(result.stdout);
    ret.comment = rsyncSummary(result.stdout);
    if (changes.copied !== 'N/A' || changes.deleted !== 'N/A') ret.changes = changes;
    return ret;
  },
});

export default defineStateModule({
  name: 'rsync',
  doc: 'Synchronize files and directories with rsync (rsync.synchronized).',
  virtual: () => (which('rsync') ? true : { ok: false, reason: 'Command not found: rsync' }),
  functions: { synchronized },
});
