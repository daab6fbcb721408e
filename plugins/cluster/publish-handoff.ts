/**
 * How a publish made on this master reaches the cluster process: the `jobPublished` tap (in the
 * request server's threads) pushes the publish load, as the publisher receives it, to the cluster
 * process's PULL socket `<sock_dir>/cluster_pull.ipc`; the cluster process sends it to every
 * peer. A push never blocks a publish: while the cluster process is down loads wait in the
 * socket's queue (bounded, the oldest dropped).
 */
import { join } from 'node:path';
import { ZmtpPusher } from '../../kernel/services.js';
import { packIpc } from '../../kernel/util.js';

/** The fields of a stored job that make the load minions receive (master/handlers/publish.ts). */
const LOAD_FIELDS = [
  'fun',
  'arg',
  'tgt',
  'jid',
  'ret',
  'tgt_type',
  'user',
  'delimiter',
  'metadata',
  'to',
  'ret_config',
  'ret_kwargs',
  'module_executors',
  'executor_opts',
] as const;

export function clusterPullPath(sockDir: string): string {
  return join(sockDir, 'cluster_pull.ipc');
}

/** The publish load of a stored job: its load fields, without the request's own (`cmd`, `kwargs`, ...). */
export function publishLoadOf(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const load: Record<string, unknown> = {};
  for (const k of LOAD_FIELDS) if (stored[k] !== undefined) load[k] = stored[k];
  return load;
}

export class PublishHandOff {
  #pusher: ZmtpPusher | undefined;

  constructor(private readonly sockDir: string) {}

  send(stored: Readonly<Record<string, unknown>>): void {
    this.#pusher ??= new ZmtpPusher({
      path: clusterPullPath(this.sockDir),
      hwm: 10_000,
      reconnectMaxMs: 2000,
    });
    this.#pusher.send(packIpc(publishLoadOf(stored)));
  }

  async close(): Promise<void> {
    await this.#pusher?.close();
    this.#pusher = undefined;
  }
}
