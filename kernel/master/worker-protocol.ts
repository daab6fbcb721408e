/**
 * Messages between the request server's router thread and its worker threads.
 */
export interface WorkerRequest {
  type: 'request';
  seq: number;
  frame: Uint8Array;
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
