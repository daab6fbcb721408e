/**
 * Messages between the request server's router thread and its worker threads.
 */
import type { SignedInKeys } from './key-cache.js';
import type { Vouched } from './request-handler.js';

export interface WorkerRequest {
  type: 'request';
  seq: number;
  frame: Uint8Array;
  /** What the router thread checked already (an aes request it opened and left to a worker). */
  vouched?: Vouched;
}

export interface WorkerReload {
  type: 'reload';
}

export type ToWorker = WorkerRequest | WorkerReload;

export interface WorkerReply {
  type: 'reply';
  seq: number;
  reply: Uint8Array;
  /** Publish loads, msgpack (IPC form), for the publisher. */
  publishes: Uint8Array[];
  /** Encoded event bodies (tag + `\n\n` + msgpack) for the master bus. */
  events: Uint8Array[];
  /** Minions the request signed in, for the router thread's key caches. */
  signIns: SignedInKeys[];
}

export interface WorkerReady {
  type: 'ready';
}

export interface WorkerFatal {
  type: 'fatal';
  code: string;
  message: string;
}

export type FromWorker = WorkerReply | WorkerReady | WorkerFatal;
