/**
 * Salt's `cron` state module (`salt/states/cron.py`): jobs (`cron.present`/`cron.absent`,
 * timed or `special`), environment lines (`cron.env_present`/`cron.env_absent`) and a whole
 * crontab from a file (`cron.file`), through the `cron` execution module.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { type CronTab, cronMatched, needsChange } from '../modules/_crontab.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { unifiedDiff } from './_line-diff.js';

const lower = (v: unknown): string | null => (v === undefined || v === null ? null : String(v).toLowerCase());

interface Check {
  minute?: unknown;
  hour?: unknown;
  daymonth?: unknown;
  month?: unknown;
  dayweek?: unknown;
  comment?: string | null;
  commented?: boolean | null;
  identifier?: string | null;
  special?: string | null;
}

/** Salt's `_check_cron`: 'present', 'update' or 'absent'. */
async function checkCron(ctx: StateContext, user: string, cmd: string, c: Check): Promise<string> {
  const lst = (await ctx.call('cron.list_tab', [user])) as CronTab;
  const ident = c.identifier === undefined || c.identifier === null ? null : String(c.identifier);
  const commented = c.commented === undefined || c.commented === null ? null : c.commented === true;
  const comment = c.comment ?? null;
  if (c.special === undefined || c.special === null) {
    for (const cron of lst.crons) {
      if (!cronMatched(cron, cmd, ident)) continue;
      const pairs: [unknown, unknown][] = [
        [cron.minute, lower(c.minute)],
        [cron.hour, lower(c.hour)],
        [cron.daymonth, lower(c.daymonth)],
        [cron.month, lower(c.month)],
        [cron.dayweek, lower(c.dayweek)],
        [cron.identifier, ident],
        [cron.cmd, cmd],
        [cron.comment, comment],
        [cron.commented, commented],
      ];
      return pairs.some(([x, y]) => needsChange(x, y)) ? 'update' : 'present';
    }
  } else {
    for (const cron of lst.special) {
      if (!cronMatched(cron, cmd, ident)) continue;
      const pairs: [unknown, unknown][] = [
        [cron.spec, c.special],
        [cron.identifier, ident],
        [cron.cmd, cmd],
        [cron.comment, comment],
        [cron.commented, commented],
      ];
      return pairs.some(([x, y]) => needsChange(x, y)) ? 'update' : 'present';
    }
  }
  return 'absent';
}

async function checkEnv(
  ctx: StateContext,
  user: string,
  name: string,
  value: string | null,
): Promise<string> {
  const lst = (await ctx.call('cron.list_tab', [user])) as CronTab;
  const want = value ?? '';
  const found = lst.env.find((e) => e.name === name);
  if (!found) return 'absent';
  return want !== found.value ? 'update' : 'present';
}

const time = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).default('*');
/** `identifier`: False (the default) means the job's command. */
const ident = (z: typeof import('zod').z) =>
  z.union([z.string(), z.number(), z.boolean()]).nullish().default(false);
const identOf = (v: unknown, name: string): string | null =>
  v === false ? name : v === undefined || v === null || v === true ? null : String(v);

const present = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      user: z.string().default('root'),
      minute: time(z),
      hour: time(z),
      daymonth: time(z),
      month: time(z),
      dayweek: time(z),
      comment: z.string().nullish(),
      commented: z.boolean().default(false),
      identifier: ident(z),
      special: z.string().nullish(),
    }),
  doc: "Verify that the specified cron job is present for the specified user (identifier: a job's id, its command by default).",
  async run(ctx, a): Promise<StateReturn> {
    const name = a.name.trim();
    const identifier = identOf(a.identifier, name);
    const ret: StateReturn = { changes: {}, comment: '', name, result: true };
    if (ctx.test) {
      const status = await checkCron(ctx, a.user, name, { ...a, identifier });
      ret.result = null;
      if (status === 'absent') ret.comment = `Cron ${name} is set to be added`;
      else if (status === 'present') {
        ret.result = true;
        ret.comment = `Cron ${name} already present`;
      } else ret.comment = `Cron ${name} is set to be updated`;
      return ret;
    }
    const data =
      a.special === undefined || a.special === null
        ? await ctx.call('cron.set_job', [], {
            user: a.user,
            minute: a.minute,
            hour: a.hour,
            daymonth: a.daymonth,
            month: a.month,
            dayweek: a.dayweek,
            cmd: name,
            comment: a.comment,
            commented: a.commented,
            identifier,
          })
        : await ctx.call('cron.set_special', [], {
            user: a.user,
            special: a.special,
            cmd: name,
            comment: a.comment,
            commented: a.commented,
            identifier,
          });
    if (data === 'present') ret.comment = `Cron ${name} already present`;
    else if (data === 'new' || data === 'updated') {
      ret.comment = data === 'new' ? `Cron ${name} added to ${a.user}'s crontab` : `Cron ${name} updated`;
      ret.changes = { [a.user]: name };
    } else {
      ret.comment = `Cron ${name} for user ${a.user} failed to commit with error \n${String(data)}`;
      ret.result = false;
    }
    return ret;
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      user: z.string().default('root'),
      identifier: ident(z),
      special: z.string().nullish(),
    }),
  varkw: true,
  doc: 'Verify that the specified cron job is absent for the specified user.',
  async run(ctx, a): Promise<StateReturn> {
    const name = a.name.trim();
    const identifier = identOf(a.identifier, name);
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    if (ctx.test) {
      const status = await checkCron(ctx, a.user, name, { identifier });
      ret.result = null;
      if (status === 'absent') {
        ret.result = true;
        ret.comment = `Cron ${name} is absent`;
      } else ret.comment = `Cron ${name} is set to be removed`;
      return ret;
    }
    const data =
      a.special === undefined || a.special === null
        ? await ctx.call('cron.rm_job', [a.user, name], { identifier })
        : await ctx.call('cron.rm_special', [a.user, name], { special: a.special, identifier });
    if (data === 'absent') ret.comment = `Cron ${name} already absent`;
    else if (data === 'removed') {
      ret.comment = `Cron ${name} removed from ${a.user}'s crontab`;
      ret.changes = { [a.user]: name };
    } else {
      ret.comment = `Cron ${name} for user ${a.user} failed to commit with error ${String(data)}`;
      ret.result = false;
    }
    return ret;
  },
});

const envPresent = defineState({
  args: (z) =>
    z.object({ name: z.string(), value: z.unknown().optional(), user: z.string().default('root') }),
  doc: 'Verify that the specified environment variable is present in the crontab of the specified user.',
  async run(ctx, a): Promise<StateReturn> {
    const { name, user } = a;
    const value = a.value === undefined || a.value === null ? null : String(a.value);
    const ret: StateReturn = { changes: {}, comment: '', name, result: true };
    if (ctx.test) {
      const status = await checkEnv(ctx, user, name, value);
      ret.result = null;
      if (status === 'absent') ret.comment = `Cron env ${name} is set to be added`;
      else if (status === 'present') {
        ret.result = true;
        ret.comment = `Cron env ${name} already present`;
      } else ret.comment = `Cron env ${name} is set to be updated`;
      return ret;
    }
    const data = await ctx.call('cron.set_env', [user, name], { value });
    if (data === 'present') ret.comment = `Cron env ${name} already present`;
    else if (data === 'new' || data === 'updated') {
      ret.comment =
        data === 'new' ? `Cron env ${name} added to ${user}'s crontab` : `Cron env ${name} updated`;
      ret.changes = { [user]: name };
    } else {
      ret.comment = `Cron env ${name} for user ${user} failed to commit with error \n${String(data)}`;
      ret.result = false;
    }
    return ret;
  },
});

const envAbsent = defineState({
  args: (z) => z.object({ name: z.string(), user: z.string().default('root') }),
  doc: 'Verify that the specified environment variable is absent from the crontab of the specified user.',
  async run(ctx, a): Promise<StateReturn> {
    const name = a.name.trim();
    const { user } = a;
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    if (ctx.test) {
      const status = await checkEnv(ctx, user, name, null);
      ret.result = null;
      if (status === 'absent') {
        ret.result = true;
        ret.comment = `Cron env ${name} is absent`;
      } else ret.comment = `Cron env ${name} is set to be removed`;
      return ret;
    }
    const data = await ctx.call('cron.rm_env', [user, name]);
    if (data === 'absent') ret.comment = `Cron env ${name} already absent`;
    else if (data === 'removed') {
      ret.comment = `Cron env ${name} removed from ${user}'s crontab`;
      ret.changes = { [user]: name };
    } else {
      ret.comment = `Cron env ${name} for user ${user} failed to commit with error ${String(data)}`;
      ret.result = false;
    }
    return ret;
  },
});

/** `cron.file`: the whole crontab from a salt:// (or local) file, optionally a template. */
const file = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source_hash: z.string().default(''),
      source_hash_name: z.string().nullish(),
      user: z.string().default('root'),
      template: z.string().nullish(),
      context: z.record(z.string(), z.unknown()).nullish(),
      replace: z.boolean().default(true),
      defaults: z.record(z.string(), z.unknown()).nullish(),
      backup: z.string().default(''),
    }),
  varkw: true,
  doc: 'Provides file.managed-like functionality (templating, etc.) for a pre-made crontab file, to be assigned to a given user.',
  async run(ctx, a): Promise<StateReturn> {
    const { name, user } = a;
    const ret: StateReturn = { changes: {}, comment: '', name, result: true };
    const uinfo = (await ctx.call('user.info', [user])) as { groups?: string[] };
    if (!uinfo?.groups?.[0])
      return { changes: {}, comment: `Could not identify group for user ${user}`, name, result: false };
    let current = String(await ctx.call('cron.raw_cron', [user]));
    if (!current.endsWith('\n')) current = `${current}\n`;
    if (!a.replace && current.length > 0) {
      ret.comment = `User ${user} already has a crontab. No changes made`;
      return ret;
    }
    let wanted: string;
    try {
      const tmp = `${os.tmpdir()}/__salt.cronfile.${process.pid}.${Date.now()}`;
      const got = a.template
        ? await ctx.call('cp.get_template', [name, tmp], {
            template: a.template,
            saltenv: ctx.saltenv,
            ...(a.defaults ?? {}),
            ...(a.context ?? {}),
          })
        : await ctx.call('cp.cache_file', [name], { saltenv: ctx.saltenv });
      if (typeof got !== 'string' || got === '') throw new Error(`Source file ${name} not found`);
      wanted = await readFile(got, 'utf8');
      if (a.template) await rm(tmp, { force: true });
    } catch (err) {
      ret.result = false;
      ret.changes = {};
      ret.comment = `Unable to manage file: ${err instanceof Error ? err.message : String(err)}`;
      return ret;
    }
    if (wanted === current) {
      ret.comment = `Crontab for user ${user} is in the correct state`;
      return ret;
    }
    const diff = unifiedDiff(current, wanted);
    if (ctx.test) {
      ret.result = null;
      ret.comment = `The file ${name} is set to be changed`;
      ret.changes = { diff };
      return ret;
    }
    const tmp = `${os.tmpdir()}/__salt.crontab.${process.pid}.${Date.now()}`;
    await writeFile(tmp, wanted, { mode: 0o600 });
    try {
      const out = (await ctx.call('cron.write_cron_file_verbose', [user, tmp])) as {
        retcode: number;
        stderr: string;
      };
      if (out.retcode === 0) {
        ret.comment = `Crontab for user ${user} was updated`;
        ret.changes = { diff };
      } else {
        ret.comment = `Unable to update user ${user} crontab ${tmp}. Error: ${out.stderr}`;
        ret.result = false;
      }
    } finally {
      await rm(tmp, { force: true });
    }
    return ret;
  },
});

export default defineStateModule({
  name: 'cron',
  doc: 'Management of cron, the Unix command scheduler (cron.present, absent, env_present, env_absent, file).',
  functions: { present, absent, env_present: envPresent, env_absent: envAbsent, file },
});
