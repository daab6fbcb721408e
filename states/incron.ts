/**
 * Salt's `incron` state module (`salt/states/incron.py`): `incron.present` and `incron.absent`
 * keep one job (path, mask list, command) in a user's incrontab through the `incron` module.
 */
import { pyStr } from '../kernel/util.js';
import type { IncronTab } from '../modules/_incron-tab.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

/** Python's `",".join(mask)`: a list's items, or a string's characters, joined by commas. */
const joinMask = (mask: unknown): string =>
  (Array.isArray(mask) ? mask.map(pyStr) : typeof mask === 'string' ? [...mask] : [pyStr(mask)]).join(',');

const sortedMasks = (mask: string): string => mask.split(',').sort().join(',');

/** Salt's `_check_cron`: "present", "update" (same path and command, a mask shared) or "absent". */
async function checkJob(ctx: StateContext, user: unknown, path: unknown, mask: string, cmd: string) {
  const tab = (await ctx.call('incron.list_tab', [user])) as IncronTab;
  const want = cmd.endsWith('\n') ? cmd.slice(0, -1) : cmd;
  for (const cron of tab.crons) {
    if (cron.path !== path || cron.cmd !== want) continue;
    if (sortedMasks(cron.mask) === sortedMasks(mask)) return 'present';
    const have = cron.mask.split(',');
    if (mask.split(',').some((m) => have.includes(m))) return 'update';
  }
  return 'absent';
}

const jobArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    path: z.unknown(),
    mask: z.unknown(),
    cmd: z.unknown(),
    user: z.unknown().default('root'),
  });

const present = defineState({
  args: jobArgs,
  doc: `Verifies that the specified incron job is present for the specified user.

name: unique comment describing the entry
path: the path that should be watched
user: the user whose incrontab is edited (default root)
mask: the list of events that should be monitored for
cmd: the command that should be executed`,
  async run(ctx, a): Promise<StateReturn> {
    const mask = joinMask(a.mask);
    const { name, user } = a;
    // Salt's key order: changes, comment, name, result
    const ret: StateReturn = { changes: {}, comment: '', name, result: true };
    if (ctx.test) {
      const status = await checkJob(ctx, user, a.path, mask, pyStr(a.cmd));
      if (status === 'present') return { ...ret, comment: `Incron ${name} already present` };
      const comment =
        status === 'absent' ? `Incron ${name} is set to be added` : `Incron ${name} is set to be updated`;
      return { ...ret, result: null, comment };
    }
    const data = await ctx.call('incron.set_job', [], { user, path: a.path, mask, cmd: a.cmd });
    const who = pyStr(user);
    if (data === 'present') return { ...ret, comment: `Incron ${name} already present` };
    if (data === 'new')
      return { ...ret, comment: `Incron ${name} added to ${who}'s incrontab`, changes: { [who]: name } };
    if (data === 'updated') return { ...ret, comment: `Incron ${name} updated`, changes: { [who]: name } };
    return {
      ...ret,
      result: false,
      comment: `Incron ${name} for user ${who} failed to commit with error \n${pyStr(data)}`,
    };
  },
});

const absent = defineState({
  args: jobArgs,
  doc: `Verifies that the specified incron job is absent for the specified user.

name: unique comment describing the entry
path, mask, cmd: the job to remove
user: the user whose incrontab is edited (default root)`,
  async run(ctx, a): Promise<StateReturn> {
    const mask = joinMask(a.mask);
    const { name, user } = a;
    // Salt's key order: name, result, changes, comment
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    if (ctx.test) {
      const status = await checkJob(ctx, user, a.path, mask, pyStr(a.cmd));
      if (status === 'absent') return { ...ret, comment: `Incron ${name} is absent` };
      return { ...ret, result: null, comment: `Incron ${name} is set to be removed` };
    }
    const data = await ctx.call('incron.rm_job', [], { user, path: a.path, mask, cmd: a.cmd });
    const who = pyStr(user);
    if (data === 'absent') return { ...ret, comment: `Incron ${name} already absent` };
    if (data === 'removed')
      return { ...ret, comment: `Incron ${name} removed from ${who}'s crontab`, changes: { [who]: name } };
    return {
      ...ret,
      result: false,
      comment: `Incron ${name} for user ${who} failed to commit with error ${pyStr(data)}`,
    };
  },
});

export default defineStateModule({
  name: 'incron',
  doc: 'Management of incron, the inotify cron (incron.present, incron.absent).',
  functions: { present, absent },
});
