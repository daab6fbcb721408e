/**
 * Salt's `jobs` runner (`salt/runners/jobs.py`): what ran, what is running, and what came
 * back, from the master job cache (any `master_job_cache` store, through the returner
 * interface) and from the minions (`saltutil.running`).
 */
import { z } from 'zod';
import {
  defineRunner,
  defineRunnerFunction,
  type RunnerContext,
  SALT_ERR_RUNNER,
  type StoredReturn,
} from '../../../kernel/index.js';
import { checkJid, formatJid, listingEntry, parseTime, splitInput } from './_job-format.js';

const jidArg = z.union([z.string(), z.number()]);
const globsArg = z.union([z.string(), z.array(z.string())]).optional();

/** Salt's `list_job`: the job's load, formatted, with `Result` (the stored returns). */
async function listJob(ctx: RunnerContext, jid: string, displayProgress: boolean) {
  if (displayProgress) ctx.progress({ message: `Querying returner: ${ctx.jobs.name}` });
  const load = await ctx.jobs.getLoad(jid);
  const result = await ctx.jobs.getJid(jid);
  if (!load && Object.keys(result).length === 0) {
    throw new SALT_ERR_RUNNER(
      `jid ${jid} was not found in the job cache (${ctx.jobs.name}): it never ran, or it expired (keep_jobs_seconds)`,
    );
  }
  return { jid, ...formatJid(jid, load), Result: result as Record<string, StoredReturn> };
}

export interface ListJobsArgs {
  search_function?: string | readonly string[];
  search_target?: string | readonly string[];
  search_metadata?: Record<string, unknown>;
  start_time?: string;
  end_time?: string;
}

/** Salt's `list_jobs`: `{jid: {Function, Arguments, Target, Target-type, User, StartTime}}`. */
async function listJobs(ctx: RunnerContext, a: ListJobsArgs, displayProgress: boolean) {
  if (displayProgress) ctx.progress({ message: `Querying returner ${ctx.jobs.name} for jobs.` });
  const query = {
    ...(a.search_function !== undefined && { searchFunction: splitInput(a.search_function) }),
    ...(a.search_target !== undefined && { searchTarget: splitInput(a.search_target) }),
    ...(a.start_time !== undefined && { startTime: parseTime('start_time', a.start_time) }),
    ...(a.end_time !== undefined && { endTime: parseTime('end_time', a.end_time) }),
  };
  const jobs = await ctx.jobs.listJobs(query);
  const out: Record<string, Record<string, unknown>> = {};
  // oldest first, as Salt's dict of a sorted store listing prints
  for (const job of [...jobs].sort((x, y) => (x.jid < y.jid ? -1 : x.jid > y.jid ? 1 : 0))) {
    if (a.search_metadata && !metadataMatches(job as unknown as Record<string, unknown>, a.search_metadata))
      continue;
    out[job.jid] = listingEntry(job);
  }
  const searched = Object.keys(query).length > 0 || a.search_metadata !== undefined;
  if (searched && Object.keys(out).length === 0) ctx.warn('No jobs in the job cache match the search.');
  return out;
}

function metadataMatches(job: Record<string, unknown>, wanted: Record<string, unknown>): boolean {
  const md = job.Metadata as Record<string, unknown> | undefined;
  if (!md || typeof md !== 'object') return false;
  return Object.entries(wanted).some(([k, v]) => md[k] === v);
}

export default defineRunner({
  name: 'jobs',
  doc: 'A convenient way to manage jobs and look up their results.',
  functions: {
    active: defineRunnerFunction({
      args: z.object({ display_progress: z.boolean().default(false) }),
      doc: 'Return a report on all actively running jobs from a job id centric perspective.',
      run: async (ctx, { display_progress }) => {
        const running = await ctx.client.cmd('*', 'saltutil.running');
        if (display_progress)
          ctx.progress({ message: `Attempting to contact minions: ${JSON.stringify(Object.keys(running))}` });
        const ret: Record<string, Record<string, unknown> & { Running: unknown[]; Returned: string[] }> = {};
        for (const [minion, data] of Object.entries(running)) {
          if (display_progress) ctx.progress({ message: `Received reply from minion ${minion}` });
          if (!Array.isArray(data)) continue;
          for (const job of data as Record<string, unknown>[]) {
            const jid = String(job.jid);
            const entry = ret[jid] ?? { ...formatJid(jid, job), Running: [], Returned: [] };
            ret[jid] = entry;
            entry.Running.push({ [minion]: job.pid ?? null });
          }
        }
        for (const [jid, entry] of Object.entries(ret)) {
          for (const minion of Object.keys(await ctx.jobs.getJid(jid))) {
            if (!entry.Returned.includes(minion)) entry.Returned.push(minion);
          }
        }
        return ret;
      },
    }),
    list_job: defineRunnerFunction({
      args: z.object({
        jid: jidArg,
        ext_source: z.string().optional(),
        display_progress: z.boolean().default(false),
      }),
      doc: 'List a specific job given by its jid: its load and its stored returns (Result).',
      run: (ctx, { jid, display_progress }) => listJob(ctx, checkJid(jid), display_progress),
    }),
    lookup_jid: defineRunnerFunction({
      args: z.object({
        jid: jidArg,
        ext_source: z.string().optional(),
        returned: z.boolean().default(true),
        missing: z.boolean().default(false),
        display_progress: z.boolean().default(false),
      }),
      doc: 'Return the printout from a previously executed job: {minion: return}; missing=True adds the minions that did not return.',
      run: async (ctx, { jid, returned, missing, display_progress }) => {
        const data = await listJob(ctx, checkJid(jid), display_progress);
        const ret: Record<string, unknown> = {};
        for (const [minion, r] of Object.entries(data.Result)) {
          if (display_progress) ctx.progress({ [minion]: r.return });
          if (returned) ret[minion] = r.return;
        }
        if (missing) {
          const targeted = (data as { Minions?: string[] }).Minions ?? [];
          for (const id of targeted) if (!(id in data.Result)) ret[id] = 'Minion did not return';
        }
        const first = Object.values(data.Result)[0];
        return first?.out ? { outputter: first.out, data: ret } : ret;
      },
    }),
    print_job: defineRunnerFunction({
      args: z.object({ jid: jidArg, ext_source: z.string().optional() }),
      doc: 'Print a specific job: {jid: {Function, Arguments, Target, ..., Result}}.',
      run: async (ctx, { jid }) => {
        const id = checkJid(jid);
        const { jid: _j, ...rest } = await listJob(ctx, id, false);
        void _j;
        return { [id]: rest };
      },
    }),
    list_jobs: defineRunnerFunction({
      args: z.object({
        ext_source: z.string().optional(),
        outputter: z.string().optional(),
        search_metadata: z.record(z.string(), z.unknown()).optional(),
        search_function: globsArg,
        search_target: globsArg,
        start_time: z.string().optional(),
        end_time: z.string().optional(),
        display_progress: z.boolean().default(false),
      }),
      doc: 'List all detectable jobs and associated functions, optionally filtered by function, target, metadata and start time.',
      run: async (ctx, a) => {
        const out = await listJobs(ctx, a, a.display_progress);
        return a.outputter ? { outputter: a.outputter, data: out } : out;
      },
    }),
    last_run: defineRunnerFunction({
      args: z.object({
        ext_source: z.string().optional(),
        outputter: z.string().optional(),
        metadata: z.record(z.string(), z.unknown()).optional(),
        function: globsArg,
        target: globsArg,
        display_progress: z.boolean().default(false),
      }),
      doc: 'List the most recent job (print_job of it), optionally of a function, target or metadata; False when none.',
      run: async (ctx, a) => {
        const all = await listJobs(
          ctx,
          {
            ...(a.function !== undefined && { search_function: a.function }),
            ...(a.target !== undefined && { search_target: a.target }),
            ...(a.metadata !== undefined && { search_metadata: a.metadata }),
          },
          a.display_progress,
        );
        const last = Object.keys(all).sort().pop();
        if (!last) return false;
        const { jid: _j, ...rest } = await listJob(ctx, last, false);
        void _j;
        return { [last]: rest };
      },
    }),
    exit_success: defineRunnerFunction({
      args: z.object({ jid: jidArg, ext_source: z.string().optional() }),
      doc: 'Check whether a job ran successfully everywhere: {minion: bool}. salt-run exits 1 when one is False.',
      run: async (ctx, { jid }) => {
        const data = await listJob(ctx, checkJid(jid), false);
        const ret: Record<string, boolean> = {};
        for (const id of (data as { Minions?: string[] }).Minions ?? []) {
          const r = data.Result[id];
          ret[id] = Boolean(r && r.state === undefined && r.return);
        }
        for (const [id, r] of Object.entries(data.Result))
          if (r.state === undefined && r.return) ret[id] = true;
        if (Object.values(ret).some((ok) => !ok)) ctx.setRetcode(1);
        return ret;
      },
    }),
  },
});
