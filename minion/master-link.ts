/**
 * How a running function reaches the master and the job pool. A job process has no master
 * channel: its link relays each aes load to the minion's main process over IPC
 * ({@link MasterRequest}), which sends it through its `AesChannel` and answers. With
 * `multiprocessing: false` the main process registers a direct link. Links are kept by
 * minion id, so several in-process minions do not share one.
 */
import { SALT_ERR_EXEC_SYNC } from '../kernel/errors.js';
import type { MasterLink, PillarAsk } from '../kernel/loader/define.js';
import { packIpc, unpackIpc } from '../kernel/serial/index.js';
import type {
  AbortJob,
  CompilePillarRequest,
  MasterReply,
  MasterRequest,
  RecycleRequest,
  RefreshPillarRequest,
  ScheduleRequest,
} from './job-protocol.js';

export type { MasterLink };

const links = new Map<string, MasterLink>();

export function setMasterLink(id: string, link: MasterLink): void {
  links.set(id, link);
}

export function clearMasterLink(id: string, link: MasterLink): void {
  if (links.get(id) === link) links.delete(id);
}

/** The link of minion `id`, if it has one (what `ExecContext.master` gives a function). */
export function findMasterLink(id: string): MasterLink | undefined {
  return links.get(id);
}

/** The link of minion `id`; throws when the minion has no master (`salt-call --local`). */
export function masterLink(id: string): MasterLink {
  const link = links.get(id);
  if (!link) throw new SALT_ERR_EXEC_SYNC(`minion ${id} has no connection to a master here`);
  return link;
}

export function encodeLoad(value: unknown): string {
  return packIpc(value).toString('base64');
}

/**
 * `exactFloats`: a whole float stays a float (Salt's `1.0`), as a job process needs what the
 * master sent; the main process's own consumers (the scheduler, the beacons) read plain numbers.
 */
export function decodeLoad(text: string, exactFloats = false): unknown {
  return unpackIpc(Buffer.from(text, 'base64'), { exactFloats });
}

/** Minimal view of a Node process with an IPC channel (the real `process`, or a test double). */
export interface IpcEndpoint {
  send?(message: unknown): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** The link of a job process: requests go to the parent over IPC. */
export function ipcMasterLink(endpoint: IpcEndpoint = process): MasterLink {
  let next = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  endpoint.on('message', (raw) => {
    const msg = raw as Partial<MasterReply> | null;
    if (msg?.type !== 'master-reply' || typeof msg.rid !== 'number') return;
    const waiter = pending.get(msg.rid);
    if (!waiter) return;
    pending.delete(msg.rid);
    if (typeof msg.reply === 'string') waiter.resolve(decodeLoad(msg.reply, true));
    else waiter.reject(new SALT_ERR_EXEC_SYNC(`the master request failed: ${msg.error ?? 'no reply'}`));
  });
  /** Sends `make(rid)` to the main process and waits for its `master-reply`. */
  const ask = (
    make: (rid: number) => MasterRequest | RefreshPillarRequest | ScheduleRequest | CompilePillarRequest,
  ): Promise<unknown> => {
    const rid = next++;
    return new Promise((resolve, reject) => {
      pending.set(rid, { resolve, reject });
      if (!endpoint.send?.(make(rid))) {
        pending.delete(rid);
        reject(new SALT_ERR_EXEC_SYNC('the minion process is not reachable from this job'));
      }
    });
  };
  return {
    inProcess: false,
    async refreshPillar() {
      await ask((rid) => ({ type: 'refresh-pillar', rid }));
    },
    async manageSchedule(call) {
      const reply = await ask((rid) => ({ type: 'schedule-request', rid, call: encodeLoad(call) }));
      return (typeof reply === 'object' && reply !== null ? reply : {}) as Record<string, unknown>;
    },
    async compilePillar(req: PillarAsk) {
      const pillar = await ask((rid) => ({ type: 'compile-pillar', rid, ask: encodeLoad(req) }));
      return pillar && typeof pillar === 'object' && !Array.isArray(pillar)
        ? (pillar as Record<string, unknown>)
        : {};
    },
    request(load, opts) {
      const rid = next++;
      return new Promise((resolve, reject) => {
        pending.set(rid, { resolve, reject });
        const msg: MasterRequest = { type: 'master-request', rid, load: encodeLoad(load) };
        if (opts?.timeoutMs !== undefined) msg.timeoutMs = opts.timeoutMs;
        if (!endpoint.send?.(msg)) {
          pending.delete(rid);
          reject(new SALT_ERR_EXEC_SYNC('the minion process is not reachable from this job'));
        }
      });
    },
    recycle() {
      const msg: RecycleRequest = { type: 'recycle' };
      endpoint.send?.(msg);
    },
    abortJob(jid, sig) {
      const msg: AbortJob = { type: 'abort-job', jid, sig };
      return endpoint.send?.(msg) ?? false;
    },
  };
}

/**
 * The main process's side: answers one {@link MasterRequest} with `send` (the minion's aes
 * channel). Never rejects; failures travel back as `error`.
 */
export async function answerMasterRequest(
  msg: MasterRequest,
  send: (load: Record<string, unknown>, opts: { timeoutMs?: number; slow?: boolean }) => Promise<unknown>,
): Promise<MasterReply> {
  try {
    const load = decodeLoad(msg.load, true);
    if (typeof load !== 'object' || load === null || Array.isArray(load))
      throw new Error('load is not a map');
    // a function that gives its request a timeout expects a late answer: the slow connection
    const opts = msg.timeoutMs !== undefined ? { timeoutMs: msg.timeoutMs, slow: true } : {};
    const reply = await send(load as Record<string, unknown>, opts);
    return { type: 'master-reply', rid: msg.rid, reply: encodeLoad(reply) };
  } catch (err) {
    return { type: 'master-reply', rid: msg.rid, error: err instanceof Error ? err.message : String(err) };
  }
}
