/**
 * One job from start to result: write `proc/<jid>` while it runs (for `saltutil.find_job`),
 * run the function (or each function of a multi-function job), remove the proc file.
 */

import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MinionJobOutcome } from '../kernel/jobs/types.js';
import { packIpc } from '../kernel/serial/index.js';
import type { JobData } from './job-protocol.js';
import { type RunEnv, runFunction } from './run-function.js';
import { fireSaltErrorFor } from './salt-error-event.js';

/** The publish fields Salt passes on as `__pub_*` keywords. */
export function pubData(job: JobData): Record<string, unknown> {
  // a beacon's call (minion/beacon-call.ts) is Salt's direct `__salt__` call: no publish data
  if (job.beacon_call === true) return {};
  const { fun, arg, tgt, jid, ret, id, tgt_type, user } = job;
  // `id`: the minion that published a peer job (Salt's `__pub_id`), in Salt's place
  return id === undefined
    ? { fun, arg, tgt, jid, ret, tgt_type, user }
    : { fun, arg, tgt, jid, ret, id, tgt_type, user };
}

export function procDir(cachedir: string): string {
  return join(cachedir, 'proc');
}

/** A job's result: per-function maps of retcode and success for multi-function jobs, as Salt sends them. */
/** How a job ended (the kernel's {@link MinionJobOutcome}). */
export type JobOutcome = MinionJobOutcome;

/** Proc folders known to exist: made once per process, again only if one vanished. */
const madeProcDirs = new Set<string>();

/**
 * Synchronous on purpose: a proc file is a few hundred bytes, and each asynchronous fs call is a
 * thread-pool round trip that cost more CPU than the write (~0.1 ms a job, measured).
 */
function writeProcFile(cachedir: string, file: string, data: Buffer): void {
  const dir = procDir(cachedir);
  if (!madeProcDirs.has(dir)) {
    mkdirSync(dir, { recursive: true });
    madeProcDirs.add(dir);
  }
  try {
    writeFileSync(file, data);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, data);
  }
}

export async function executeJob(
  env: RunEnv,
  cachedir: string,
  job: JobData,
  signal?: AbortSignal,
): Promise<JobOutcome> {
  const procFile = join(procDir(cachedir), job.jid);
  writeProcFile(cachedir, procFile, packIpc({ ...job, pid: process.pid }));
  try {
    if (Array.isArray(job.fun)) {
      const ret: Record<string, unknown> = {};
      const retcode: Record<string, number> = {};
      const success: Record<string, boolean> = {};
      for (let i = 0; i < job.fun.length; i++) {
        const fun = String(job.fun[i]);
        const args = Array.isArray(job.arg[i]) ? (job.arg[i] as unknown[]) : [];
        const r = await runFunction(env, fun, args, job.jid, signal, pubData(job));
        ret[fun] = r.return;
        retcode[fun] = r.retcode;
        success[fun] = r.success;
      }
      return { return: ret, retcode, success };
    }
    const result = await runFunction(env, String(job.fun), job.arg ?? [], job.jid, signal, pubData(job));
    await fireSaltErrorFor(env, job, result);
    return result;
  } finally {
    try {
      unlinkSync(procFile);
    } catch {
      // already gone (a cleanup of the proc folder): nothing to remove
    }
  }
}
