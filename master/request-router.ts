/**
 * The request server's socket on `ret_port`: tsalt's own ZMTP ROUTER (kernel/bus/zmtp/
 * router-server.ts), which minions' and clients' libzmq REQ sockets cannot tell from libzmq's
 * ROUTER, at a fraction of its memory per connected minion (docs/transport.md).
 */
import type { Logger } from 'pino';
import { bindHost } from '../kernel/bus/address.js';
import { ZmtpRouter } from '../kernel/bus/zmtp/router-server.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { keepAliveIdleMs } from './tcp-keepalive.js';

/**
 * Largest request a peer may send, in bytes (a job return with a large output is the biggest
 * Salt sends). libzmq had no limit; this one keeps a broken or hostile peer from making the
 * master buffer without end.
 */
export const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

export interface RequestRouter {
  /** Sends a reply: the request's envelope (routing id, delimiter), then the reply. */
  reply(frames: Buffer[]): void;
  close(): Promise<void>;
}

/**
 * Handles one request: `envelope` goes back in front of the reply. A returned promise means
 * "stop reading until it resolves" (the intake queue is full).
 */
export type OnRequest = (envelope: Buffer[], payload: Buffer) => Promise<void> | undefined;

export async function openRequestRouter(
  config: ResolvedMasterConfig,
  log: Logger,
  onRequest: OnRequest,
): Promise<RequestRouter> {
  const router: ZmtpRouter = new ZmtpRouter({
    backlog: config.zmq_backlog,
    maxFrameBytes: MAX_REQUEST_BYTES,
    keepAliveIdleMs: keepAliveIdleMs(config),
    onPeerError: (err) => log.debug({ err: err.message }, 'request peer disconnected'),
    onMessage: (frames) => {
      if (frames.length < 2) return;
      const pause = onRequest(frames.slice(0, -1), frames[frames.length - 1] as Buffer);
      if (!pause) return;
      router.pause();
      void pause.then(() => router.resume());
    },
  });
  await router.bind(bindHost(config.interface), config.ret_port);
  return {
    reply: (frames) => {
      if (!router.send(frames)) log.debug('reply not delivered: the peer is gone');
    },
    close: () => router.close(),
  };
}
