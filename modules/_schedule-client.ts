/**
 * How the schedule module reaches the minion's scheduler (Salt's `manage_schedule` event and
 * its `..._complete` answer; tsalt's job-process link) and the saved schedule file, and the
 * listing every other call starts from (Salt's `list_`).
 */
import type { ExecContext } from '../kernel/index.js';
import { readScheduleFile, scheduleFile, writeScheduleFile } from '../plugins/schedule/index.js';
import { filterListing, type Ret } from './_schedule-build.js';
import { pyYamlDump } from './_yaml-dump.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One `manage_schedule` call; undefined where no minion serves it (Salt's failed event). */
export async function manage(ctx: ExecContext, call: Record<string, unknown>): Promise<Ret | undefined> {
  const serve = ctx.master?.manageSchedule;
  if (!serve) return undefined;
  try {
    return await serve(call);
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'the minion did not answer the schedule call');
    return undefined;
  }
}

export async function saved(ctx: ExecContext): Promise<Ret> {
  return readScheduleFile(scheduleFile(ctx.opts));
}

/**
 * Writes the saved schedule offline. Salt's YAML dump sorts the keys of the jobs it read back
 * from the file (plain dicts) and keeps the order of the one it just built (an OrderedDict,
 * `keep`), which `list offline=True` then shows: the same here.
 */
export async function writeOffline(ctx: ExecContext, schedule: Ret, keep?: string): Promise<void> {
  const out: Ret = {};
  for (const [k, v] of Object.entries(schedule))
    out[k] =
      isMap(v) && k !== keep ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v;
  try {
    await writeScheduleFile(scheduleFile(ctx.opts), out);
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'Failed to persist the updated schedule');
  }
}

/** Salt's `list_(show_all=True, return_yaml=False, where, offline)`: the unfiltered-by-name jobs. */
export async function current(ctx: ExecContext, where?: string, offline = false): Promise<Ret> {
  return listJobs(ctx, {
    show_all: true,
    show_disabled: true,
    where,
    return_yaml: false,
    offline,
  }) as Promise<Ret>;
}

export async function listJobs(
  ctx: ExecContext,
  a: { show_all: boolean; show_disabled: boolean; where?: unknown; return_yaml: boolean; offline: boolean },
): Promise<unknown> {
  let schedule: Ret = {};
  let savedJobs: Ret;
  if (a.offline) {
    schedule = await saved(ctx);
    savedJobs = { ...schedule };
  } else {
    const answer = await manage(ctx, { func: 'list', where: a.where ?? null });
    if (answer?.complete && isMap(answer.schedule)) schedule = answer.schedule;
    savedJobs = await saved(ctx);
  }
  const listed = filterListing(schedule, a.show_all, a.show_disabled);
  if (!a.return_yaml) return listed;
  for (const [k, v] of Object.entries(listed)) if (isMap(v)) v.saved = k in savedJobs;
  return pyYamlDump({ schedule: listed });
}

/** `name` is in the configured schedule (`opts`), in the pillar's, or neither. */
export async function whereIs(ctx: ExecContext, name: string): Promise<'opts' | 'pillar' | undefined> {
  if (name in (await current(ctx, 'opts'))) return 'opts';
  if (name in (await current(ctx, 'pillar'))) return 'pillar';
  return undefined;
}

/** The check tsalt adds to Salt's: the job's function exists on this minion. */
export async function missingFunction(ctx: ExecContext, fun: unknown): Promise<string | undefined> {
  if (typeof fun !== 'string') return undefined;
  if (await ctx.functions.get(fun)) return undefined;
  return ctx.functions.explain(fun);
}
