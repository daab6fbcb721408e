/**
 * `local_cache`: the default master job cache, in Salt's own on-disk layout
 * (`<cachedir>/jobs/<h[0:2]>/<h[2:]>/` with `jid`, `.load.p`, `.minions.p`,
 * `<minion>/return.p`, `<minion>/out.p`; PROTOCOL.md §8), so it survives restarts and
 * Salt's tools can read it.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  defineReturner,
  type EndState,
  type JobReturn,
  type JobSummary,
  type PublishRequest,
  type ReturnerContext,
  SALT_ERR_JOB_DUPLICATE_RETURN,
  type StoredReturn,
} from '../kernel/index.js';
import { genJid, isJid, isValidMinionId, packIpc } from '../kernel/util.js';
import { localCacheExtra } from './_local-cache-extra.js';
import { dirOf, jobsRoot, readMsgpack } from './_local-cache-paths.js';
import { formatJidInstance, searchJobs } from './job-store/summary.js';

const END_TEXT: Record<EndState, string> = {
  not_connected: 'Not connected',
  no_response: 'No response',
  running: 'Still running when the client stopped waiting',
};

/** One job directory met by {@link walkJobs}. */
interface JobDir {
  jid: string;
  dir: string;
  load: PublishRequest | undefined;
  minions: string[];
}

/** Every job directory with a `jid` file (Salt's `_walk_through`): one readdir per directory. */
async function* walkJobs(ctx: ReturnerContext, withLoad = true): AsyncGenerator<JobDir> {
  const root = jobsRoot(ctx);
  const tops = await readdir(root).catch(() => [] as string[]);
  for (const top of tops) {
    const subs = await readdir(join(root, top)).catch(() => [] as string[]);
    for (const sub of subs) {
      const dir = join(root, top, sub);
      const jid = await readFile(join(dir, 'jid'), 'utf8').catch(() => undefined);
      if (!jid) continue;
      const load = withLoad
        ? ((await readMsgpack(join(dir, '.load.p'))) as PublishRequest | undefined)
        : undefined;
      const minions = withLoad
        ? ((await readMsgpack(join(dir, '.minions.p'))) as string[] | undefined)
        : undefined;
      yield { jid: jid.trim(), dir, load, minions: Array.isArray(minions) ? minions : [] };
    }
  }
}

/** The minion ids that stored a real return in a job directory. */
async function returnedMinions(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.') || name === 'jid' || name === 'nocache' || name === 'endtime') continue;
    if (await stat(join(dir, name, 'return.p')).catch(() => undefined)) out.push(name);
  }
  return out;
}

async function getJids(ctx: ReturnerContext): Promise<Record<string, JobSummary>> {
  const out: Record<string, JobSummary> = {};
  for await (const job of walkJobs(ctx)) {
    if (job.load) out[job.jid] = formatJidInstance(job.jid, job.load, job.minions);
  }
  return out;
}

const localCache = defineReturner({
  name: 'local_cache',

  async prepJid(ctx, opts) {
    if (opts?.passedJid) {
      const dir = dirOf(opts.passedJid, ctx);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'jid'), opts.passedJid);
      return opts.passedJid;
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const jid = genJid({ unique_jid: Boolean(ctx.opts.unique_jid) });
      const dir = dirOf(jid, ctx);
      try {
        await mkdir(join(dir, '..'), { recursive: true });
        await mkdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        throw err;
      }
      await writeFile(join(dir, 'jid'), jid);
      if (opts?.nocache) await writeFile(join(dir, 'nocache'), '');
      return jid;
    }
    throw new Error('could not allocate a jid directory after 5 tries');
  },

  async saveLoad(jid: string, load: PublishRequest, minions: readonly string[], ctx) {
    const dir = dirOf(jid, ctx);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'jid'), jid);
    await writeFile(join(dir, '.load.p'), packIpc(load));
    await writeFile(join(dir, '.minions.p'), packIpc([...minions]));
  },

  async saveMinions(jid: string, minions: readonly string[], ctx) {
    const dir = dirOf(jid, ctx);
    await mkdir(dir, { recursive: true });
    const known = (await readMsgpack(join(dir, '.minions.p'))) as string[] | undefined;
    const all = [...new Set([...(Array.isArray(known) ? known : []), ...minions])];
    await writeFile(join(dir, '.minions.p'), packIpc(all));
  },

  getJids,

  async listJobs(query, ctx) {
    return searchJobs(await getJids(ctx), query);
  },

  async getFun(fun: string, ctx) {
    const out: Record<string, string> = {};
    for await (const job of walkJobs(ctx)) {
      const f = job.load?.fun;
      if (f !== fun && !(Array.isArray(f) && f.includes(fun))) continue;
      for (const id of await returnedMinions(job.dir)) {
        const seen = out[id];
        if (seen === undefined || seen < job.jid) out[id] = job.jid;
      }
    }
    return out;
  },

  async getMinions(ctx) {
    const out = new Set<string>();
    for await (const job of walkJobs(ctx, false)) {
      for (const id of await returnedMinions(job.dir)) out.add(id);
    }
    return [...out].sort();
  },

  async returner(ret: JobReturn, ctx) {
    if (!isValidMinionId(ret.id) || !isJid(ret.jid)) return;
    const dir = dirOf(ret.jid, ctx);
    const hn = join(dir, ret.id);
    try {
      await mkdir(hn, { recursive: true });
    } catch (err) {
      ctx.log.error({ jid: ret.jid, err: (err as Error).message }, 'job cache: cannot create return dir');
      return;
    }
    try {
      await writeFile(
        join(hn, 'return.p'),
        packIpc({ return: ret.return, retcode: ret.retcode, success: ret.success }),
        {
          flag: 'wx',
        },
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new SALT_ERR_JOB_DUPLICATE_RETURN(ret.id, ret.jid);
      }
      throw err;
    }
    if (ret.out) await writeFile(join(hn, 'out.p'), packIpc(ret.out));
  },

  async saveEndState(jid: string, id: string, state: EndState, ctx) {
    if (!isValidMinionId(id) || !isJid(jid)) return;
    const hn = join(dirOf(jid, ctx), id);
    if (await stat(join(hn, 'return.p')).catch(() => undefined)) return;
    await mkdir(hn, { recursive: true });
    await writeFile(join(hn, 'state.p'), packIpc({ state, ts: Date.now() / 1000 }));
  },

  async getLoad(jid: string, ctx) {
    const dir = dirOf(jid, ctx);
    const load = (await readMsgpack(join(dir, '.load.p'))) as PublishRequest | undefined;
    if (!load) return undefined;
    const minions = (await readMsgpack(join(dir, '.minions.p'))) as string[] | undefined;
    return { ...load, Minions: minions ?? [] };
  },

  async getJid(jid: string, ctx) {
    const dir = dirOf(jid, ctx);
    const out: Record<string, StoredReturn> = {};
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch {
      return out;
    }
    for (const name of entries.sort()) {
      if (name.startsWith('.') || name === 'jid' || name === 'nocache' || name === 'endtime') continue;
      const ret = (await readMsgpack(join(dir, name, 'return.p'))) as StoredReturn | undefined;
      if (!ret) {
        const end = (await readMsgpack(join(dir, name, 'state.p'))) as { state?: EndState } | undefined;
        if (end?.state)
          out[name] = { return: `Minion did not return. [${END_TEXT[end.state]}]`, state: end.state };
        continue;
      }
      const outName = await readMsgpack(join(dir, name, 'out.p'));
      out[name] = typeof outName === 'string' ? { ...ret, out: outName } : ret;
    }
    return out;
  },

  async cleanOldJobs(keepSeconds: number, ctx) {
    const root = jobsRoot(ctx);
    const cutoff = Date.now() - keepSeconds * 1000;
    let removed = 0;
    let tops: string[];
    try {
      tops = await readdir(root);
    } catch {
      return 0;
    }
    for (const top of tops) {
      let subs: string[];
      try {
        subs = await readdir(join(root, top));
      } catch {
        continue;
      }
      for (const sub of subs) {
        const dir = join(root, top, sub);
        try {
          const st = await stat(join(dir, 'jid'));
          if (st.ctimeMs >= cutoff) continue;
        } catch {
          // a job dir without a jid file is debris: remove it
        }
        await rm(dir, { recursive: true, force: true });
        removed++;
      }
      if ((await readdir(join(root, top)).catch(() => ['x'])).length === 0)
        await rm(join(root, top), { recursive: true, force: true });
    }
    return removed;
  },
});

/** With Salt's other local_cache functions (end times, the newest jobs, the thorium register). */
export default Object.assign(localCache, localCacheExtra);
