/**
 * A ZMTP 3.0 PULL socket over Node's own sockets: the bound end of the master's internal
 * hand-offs (`master_event_pull.ipc`, where every process fires events, and
 * `publish_pull.ipc`, where the request server hands publishes to the publisher). PUSH peers
 * (./push-socket.ts, or libzmq's PUSH) connect; each whole message is handed over as it
 * arrives, in order per peer.
 */
import type { Socket } from 'node:net';
import type { Frame } from './frame.js';
import { MessageAssembler } from './message-assembler.js';
import { ZmtpPeer, ZmtpServer, type ZmtpServerOptions } from './server.js';
import type { ZmtpStream } from './stream.js';

export interface ZmtpPullerOptions extends ZmtpServerOptions {
  /** One whole message: its parts. */
  onMessage: (parts: Buffer[]) => void;
}

class PusherPeer extends ZmtpPeer {
  readonly messages: MessageAssembler;

  constructor(socket: Socket, stream: ZmtpStream, maxMessageBytes: number) {
    super(socket, stream);
    this.messages = new MessageAssembler(maxMessageBytes);
  }
}

export class ZmtpPuller extends ZmtpServer<PusherPeer> {
  readonly #onMessage: (parts: Buffer[]) => void;

  constructor(opts: ZmtpPullerOptions) {
    super('PULL', ['PUSH'], opts);
    this.#onMessage = opts.onMessage;
  }

  protected newPeer(socket: Socket, stream: ZmtpStream): PusherPeer {
    return new PusherPeer(socket, stream, this.maxFrameBytes);
  }

  protected onFrame(peer: PusherPeer, frame: Frame): void {
    const parts = peer.messages.add(frame);
    if (parts) this.#onMessage(parts);
  }
}
