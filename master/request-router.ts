/**
 * The request server's socket on `ret_port`: tsalt's own ZMTP ROUTER (kernel/bus/zmtp/
 * router-server.ts), which minions' and clients' libzmq REQ sockets cannot tell from libzmq's
 * ROUTER, at a fraction of its memory per connected minion (docs/transport.md).
 */
import type { Logger } from 'pino';
import { bindHost } from '../kernel/bus/address.js';
import { ZmtpRouter } from '../kernel/bus/zmtp/router-server.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { REQUEST_TOO_LARGE_REPLY } from '../kernel/errors.js';
import { packNetwork } from '../kernel/serial/index.js';
import { keepAliveIdleMs } from './tcp-keepalive.js';

/** Room a publish load gets past `max_request_size` on its way to the publisher (the jid, the target list). */
const PUBLISH_SLACK_BYTES = 1024 * 1024;

/** Largest publish load the publisher takes from the request server: a request's own cap and room. */
export function publishHandOffLimit(config: ResolvedMasterConfig): number {
  return config.max_request_size + PUBLISH_SLACK_BYTES;
}

const TOO_LARGE_REPLY = packNetwork(REQUEST_TOO_LARGE_REPLY);

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
    // libzmq had no limit; this one keeps one request from holding the master's memory (a request
    // is held several times over while it is opened: frame, plaintext, decoded values, store row)
    maxFrameBytes: config.max_request_size,
    keepAliveIdleMs: keepAliveIdleMs(config),
    onPeerError: (err) => log.debug({ err: err.message }, 'request peer disconnected'),
    // its bytes were read and dropped as they came: the peer is told, the connection goes on
    onOversized: (envelope, bytes) => {
      log.warn(
        { bytes, max_request_size: config.max_request_size },
        `refused a request of ${bytes} bytes: larger than max_request_size (${config.max_request_size})`,
      );
      if (!router.send([...envelope, TOO_LARGE_REPLY])) log.debug('refusal not delivered: the peer is gone');
    },
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
