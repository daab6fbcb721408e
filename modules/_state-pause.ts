/**
 * Salt's `state.pause`, `state.resume` and `state.soft_kill`: they write the msgpack map
 * `<cachedir>/state_pause/<jid>` (state id or `__all__` → `{duration?, kill?}`) that a running
 * state job reads before each state (plugins/states/runtime/pause.ts). Each returns None, as
 * Salt's do. `state.get_pauses` reports the files of running state jobs and removes the others.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, type ExecContext, type FunctionSpec } from '../kernel/index.js';
import { packIpc, unpackIpc } from '../kernel/util.js';
import { runningJobs } from './_proc-jobs.js';
import { cli } from './_state-calls.js';

type PauseData = Record<string, Record<string, unknown>>;

async function update(ctx: ExecContext, jid: string, change: (data: PauseData) => PauseData): Promise<null> {
  const dir = join(String(ctx.opts.cachedir), 'state_pause');
  // a jid names a file in the folder: refuse anything that could leave it
  if (!/^[\w.-]+$/.test(jid)) throw new Error(`Invalid jid: ${jid}`);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, jid);
  let data: PauseData = {};
  try {
    const read = unpackIpc(await readFile(path));
    if (read && typeof read === 'object') data = read as PauseData;
  } catch {
    // no pause file yet
  }
  await writeFile(path, packIpc(change(data)), { mode: 0o600 });
  return null;
}

const args = (z: typeof import('zod').z) =>
  z.object({ jid: z.union([z.string(), z.number()]).transform(String), state_id: z.string().nullish() });

async function readPause(path: string): Promise<unknown> {
  try {
    return unpackIpc(await readFile(path));
  } catch {
    return {};
  }
}

/** Salt's `get_pauses`: the pause data of each running state job; files of ended jobs are removed. */
async function getPauses(ctx: ExecContext, jid: unknown): Promise<Record<string, unknown>> {
  const dir = join(String(ctx.opts.cachedir), 'state_pause');
  let jids: string[];
  try {
    const listed = await readdir(dir);
    jids = jid === undefined || jid === null ? listed : Array.isArray(jid) ? jid.map(String) : [String(jid)];
  } catch {
    return {};
  }
  const active = new Set(
    runningJobs(ctx.opts)
      .filter((d) => typeof d.fun === 'string' && d.fun.startsWith('state.'))
      .map((d) => String(d.jid)),
  );
  const ret: Record<string, unknown> = {};
  for (const scan of jids) {
    if (!/^[\w.-]+$/.test(scan)) continue;
    const path = join(dir, scan);
    if (!active.has(scan)) {
      await rm(path, { force: true });
      continue;
    }
    ret[scan] = await readPause(path);
  }
  return ret;
}

export const pauseFunctions: Record<string, FunctionSpec> = {
  pause: defineFunction({
    args: (z) => args(z).extend({ duration: z.union([z.number(), z.string()]).nullish() }),
    doc: `Set up a state id pause, this instructs a running state to pause at a given state id. This needs to pass in the jid of the running state and can optionally pass in a duration in seconds.${cli('state.pause 20171130110407769519 vim duration=60')}`,
    run: (ctx, a) =>
      update(ctx, a.jid, (data) => {
        const id = a.state_id ?? '__all__';
        data[id] ??= {};
        if (a.duration) data[id].duration = Math.trunc(Number(a.duration));
        return data;
      }),
  }),
  resume: defineFunction({
    args,
    doc: `Remove a pause from a jid, allowing it to continue. If the state_id is not specified then the a general pause will be resumed.${cli('state.resume 20171130110407769519')}`,
    run: (ctx, a) =>
      update(ctx, a.jid, (data) => {
        const id = a.state_id ?? '__all__';
        delete data[id];
        return id === '__all__' ? {} : data;
      }),
  }),
  get_pauses: defineFunction({
    args: (z) => z.object({ jid: z.unknown().optional() }),
    doc: `Get a report on all of the currently paused state runs and pause run settings; a jid (or list of them) narrows it to those runs.${cli('state.get_pauses')}`,
    run: (ctx, a) => getPauses(ctx, a.jid),
  }),
  soft_kill: defineFunction({
    args,
    doc: `Set up a state run to die before executing the given state id; this instructs a running state to safely exit at a given state id. Without a state_id the run dies before its next state.${cli('state.soft_kill 20171130110407769519')}`,
    run: (ctx, a) =>
      update(ctx, a.jid, (data) => {
        const id = a.state_id ?? '__all__';
        data[id] = { ...(data[id] ?? {}), kill: true };
        return data;
      }),
  }),
};
