/**
 * The `local_cache` functions Salt 3006 has beyond the job-store interface: a job's end time
 * (`get_endtime`, `update_endtime`: the plain-text `endtime` file in the job's directory, as
 * Salt's), the newest jobs (`get_jids_filter`, read from each `.load.p` as Salt's), and the
 * thorium register (`save_reg`, `load_reg`), which in Salt 3006 always fails (the file is
 * opened as text for msgpack, and the error report reads a missing `outdir` option): these fail
 * the same way, leaving the same empty register file.
 */
import { mkdir, open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobSummary, PublishRequest, ReturnerContext } from '../kernel/index.js';
import { pyTypeName } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { dirOf, jobsRoot, readMsgpack } from './_local-cache-paths.js';
import { formatJidInstance } from './job-store/summary.js';

/** One entry of `get_jids_filter`: Salt's `format_jid_instance_ext`. */
export type JobSummaryExt = Omit<JobSummary, 'Minions'> & { JID: string };

function summaryExt(jid: string, load: PublishRequest): JobSummaryExt {
  const { StartTime, Minions: _, ...rest } = formatJidInstance(jid, load);
  return { ...rest, JID: jid, StartTime };
}

/** Every stored load with its jid (Salt's `_walk_through`: directories with a `.load.p`). */
async function loads(ctx: ReturnerContext): Promise<Array<{ jid: string; load: PublishRequest }>> {
  const root = jobsRoot(ctx);
  const out: Array<{ jid: string; load: PublishRequest }> = [];
  for (const top of await readdir(root)) {
    for (const sub of await readdir(join(root, top)).catch(() => [] as string[])) {
      const load = (await readMsgpack(join(root, top, sub, '.load.p'))) as PublishRequest | undefined;
      if (!load || typeof load !== 'object' || Object.keys(load).length === 0) continue;
      const jid = load.jid ?? (await readFile(join(root, top, sub, 'jid'), 'utf8').catch(() => undefined));
      if (jid === undefined) throw pythonError('KeyError', "'jid'");
      out.push({ jid: String(jid), load });
    }
  }
  return out;
}

/** The register file and the error Salt 3006 ends every register call with. */
const regFile = (ctx: ReturnerContext): string => join(String(ctx.opts.cachedir), 'thorium', 'register');
const regError = (ctx: ReturnerContext, own: Error): Error =>
  ctx.opts.outdir === undefined ? pythonError('KeyError', "'outdir'") : own;

/** The five functions, spread into the `local_cache` returner. */
export const localCacheExtra = {
  /** The job's stored end time, or false when none was stored. */
  async getEndtime(jid: string, ctx: ReturnerContext): Promise<string | false> {
    try {
      return (await readFile(join(dirOf(String(jid), ctx), 'endtime'), 'utf8')).replace(/^\n+|\n+$/g, '');
    } catch {
      return false;
    }
  },

  /** Stores the job's end time as text (a time that is not text empties the file and is refused, as Salt's). */
  async updateEndtime(jid: string, time: unknown, ctx: ReturnerContext): Promise<void> {
    const dir = dirOf(String(jid), ctx);
    let fh: Awaited<ReturnType<typeof open>>;
    try {
      await mkdir(dir, { recursive: true });
      fh = await open(join(dir, 'endtime'), 'w');
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'Could not write job invocation cache file');
      return;
    }
    try {
      if (typeof time !== 'string' && !(time instanceof Uint8Array))
        throw pythonError('TypeError', `expected str, bytes, or bytearray not ${pyTypeName(time)}`);
      await fh.writeFile(time);
    } finally {
      await fh.close();
    }
  },

  /** The `count` newest jobs, oldest first, without `saltutil.find_job` ones unless asked. */
  async getJidsFilter(count: number, filterFindJob: boolean, ctx: ReturnerContext): Promise<JobSummaryExt[]> {
    const jobs = (await loads(ctx))
      .map(({ jid, load }) => summaryExt(jid, load))
      .filter((j) => !(filterFindJob && j.Function === 'saltutil.find_job'))
      .sort((a, b) => (a.JID < b.JID ? -1 : a.JID > b.JID ? 1 : 0));
    return count > 0 ? jobs.slice(-count) : [];
  },

  /** Salt 3006's `save_reg`: creates `<cachedir>/thorium/register`, then fails writing msgpack to a text file. */
  async saveReg(_data: unknown, ctx: ReturnerContext): Promise<never> {
    const file = regFile(ctx);
    await mkdir(join(file, '..'), { recursive: true });
    await (await open(file, 'a')).close();
    throw regError(ctx, pythonError('TypeError', 'write() argument must be str, not bytes'));
  },

  /** Salt 3006's `load_reg`: fails reading the register (missing, or read as text for msgpack). */
  async loadReg(ctx: ReturnerContext): Promise<never> {
    const file = regFile(ctx);
    const exists = await stat(file).catch(() => undefined);
    throw regError(
      ctx,
      exists
        ? pythonError('TypeError', "a bytes-like object is required, not 'str'")
        : pythonError('FileNotFoundError', `[Errno 2] No such file or directory: '${file}'`),
    );
  },
};
