/**
 * A ZMTP 3.0 ROUTER over Node's own TCP sockets: the many-peer end of Salt's request channel
 * (port 4506). Minions' and clients' libzmq REQ (and DEALER) sockets see a libzmq ROUTER: each
 * message is handed over with the peer's routing id in front, and a reply whose first part is
 * that id goes back to that peer. As with the publisher (./pub-server.ts), the point is memory:
 * libzmq keeps ~18 KiB per connected peer, a Node socket a few KiB.
 *
 * Routing ids are ours, 5 bytes like libzmq's own (a zero byte, then a 32-bit counter); a peer's
 * `Identity` property is not used, so a reconnecting peer gets a new id and replies meant for
 * the old connection are dropped, as libzmq's ROUTER drops messages to unknown peers.
 */
import type { Socket } from 'node:net';
import { encodeMessage, FLAG_MORE, type Frame, frameHeader } from './frame.js';
import { MessageAssembler } from './message-assembler.js';
import { ZmtpPeer, ZmtpServer, type ZmtpServerOptions } from './server.js';
import type { ZmtpStream } from './stream.js';

export interface ZmtpRouterOptions extends ZmtpServerOptions {
  /** A whole message: the sender's routing id, then the parts it sent. */
  onMessage: (frames: Buffer[]) => void;
  /** Given, a message with a part over `maxFrameBytes` (read and dropped) comes here, envelope and size. */
  onOversized?: (envelope: Buffer[], bytes: number) => void;
}

/** Replies up to this size are joined into one buffer; larger ones are written part by part. */
const JOIN_BELOW_BYTES = 64 * 1024;

class RequesterPeer extends ZmtpPeer {
  readonly key: number;
  readonly id: Buffer;
  readonly messages: MessageAssembler;
  /** The largest part skipped in the message being read. */
  oversized = 0;

  constructor(socket: Socket, stream: ZmtpStream, key: number, maxMessageBytes: number) {
    super(socket, stream);
    this.key = key;
    this.id = Buffer.allocUnsafe(5);
    this.id[0] = 0;
    this.id.writeUInt32BE(key, 1);
    // messages are handed over with the routing id in front (it counts as one of the parts)
    this.messages = new MessageAssembler(maxMessageBytes, this.id);
  }
}

export class ZmtpRouter extends ZmtpServer<RequesterPeer> {
  readonly #onMessage: (frames: Buffer[]) => void;
  readonly #onOversized: ((envelope: Buffer[], bytes: number) => void) | undefined;
  readonly #byKey = new Map<number, RequesterPeer>();
  #nextKey = Math.floor(Math.random() * 0xffffffff);
  #paused = false;

  constructor(opts: ZmtpRouterOptions) {
    super('ROUTER', ['REQ', 'DEALER', 'ROUTER'], opts);
    this.#onMessage = opts.onMessage;
    this.#onOversized = opts.onOversized;
    this.skipOversized = opts.onOversized !== undefined;
  }

  /**
   * Sends `frames[1..]` as one message to the peer whose routing id is `frames[0]`. Returns false
   * (and sends nothing) when that peer is gone.
   */
  send(frames: readonly Buffer[]): boolean {
    const id = frames[0];
    if (id?.length !== 5 || id[0] !== 0 || frames.length < 2) return false;
    const peer = this.#byKey.get(id.readUInt32BE(1));
    if (!peer || peer.socket.destroyed) return false;
    const parts = frames.slice(1);
    let total = 0;
    for (const p of parts) total += p.length;
    if (total < JOIN_BELOW_BYTES) {
      peer.socket.write(encodeMessage(parts));
      return true;
    }
    // a large reply is not copied: headers and parts go out in one writev
    peer.socket.cork();
    parts.forEach((part, i) => {
      peer.socket.write(frameHeader(part.length, i < parts.length - 1 ? FLAG_MORE : 0));
      peer.socket.write(part);
    });
    peer.socket.uncork();
    return true;
  }

  /**
   * Stops reading requests (the caller's queue is full) until {@link resume}. Peers still in
   * their handshake finish it (and are paused then), so their handshake timer does not drop them.
   */
  pause(): void {
    if (this.#paused) return;
    this.#paused = true;
    for (const peer of this.peers) if (peer.ready) peer.socket.pause();
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    for (const peer of this.peers) peer.socket.resume();
  }

  protected newPeer(socket: Socket, stream: ZmtpStream): RequesterPeer {
    let key = this.#nextKey;
    while (this.#byKey.has(key)) key = (key + 1) >>> 0;
    this.#nextKey = (key + 1) >>> 0;
    const peer = new RequesterPeer(socket, stream, key, this.maxFrameBytes);
    this.#byKey.set(key, peer);
    return peer;
  }

  protected override onReady(peer: RequesterPeer): void {
    if (this.#paused) peer.socket.pause();
  }

  protected onFrame(peer: RequesterPeer, frame: Frame): void {
    if (frame.oversized !== undefined) peer.oversized = Math.max(peer.oversized, frame.oversized);
    const parts = peer.messages.add(frame);
    if (parts && peer.oversized === 0) this.#onMessage(parts);
    else if (parts) this.#onOversized?.(parts.slice(0, -1), peer.oversized);
    if (parts) peer.oversized = 0;
  }

  protected override onClosed(peer: RequesterPeer): void {
    this.#byKey.delete(peer.key);
  }
}
