/**
 * One outgoing ZMTP 3.0 connection, the part tsalt's client sockets share (./req-socket.ts,
 * ./sub-socket.ts, ./push-socket.ts), over TCP or a unix socket (libzmq's `ipc://`): connect,
 * greet, exchange READY (checking the peer's socket type), then hand over whole messages.
 * Frames are small until the peer's READY; messages are capped in size and in parts. `PING` is
 * answered; `ERROR` closes.
 */
import { connect, type Socket } from 'node:net';
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import type { ZmtpEndpoint } from '../address.js';
import { splitCommand } from './frame.js';
import { greeting, readyCommand } from './handshake.js';
import { MessageAssembler } from './message-assembler.js';
import { answerCommand, READY, ZmtpStream } from './stream.js';

/** What a connection does, wherever it connects. */
export interface ClientLinkSpec {
  /** Ours, sent in READY. */
  socketType: string;
  /** The peer types we may talk to. */
  peerTypes: ReadonlySet<string>;
  maxMessageBytes: number;
  /** Bytes to send right after the handshake (subscriptions). */
  afterReady?: () => Buffer | undefined;
  onMessage: (parts: Buffer[]) => void;
  /** The connection is gone (or never came up); `err` says why. Called once. */
  onClose: (err: Error) => void;
}

export type ClientLinkOptions = ZmtpEndpoint & ClientLinkSpec;

export class ClientLink {
  readonly socket: Socket;
  /** Settles once the handshake is over, or rejects if the connection failed first. */
  readonly handshake: Promise<void>;
  readonly #opts: ClientLinkOptions;
  readonly #stream: ZmtpStream;
  readonly #messages: MessageAssembler;
  #settle!: (err?: Error) => void;
  #settled = false;
  #closed = false;

  constructor(opts: ClientLinkOptions) {
    this.#opts = opts;
    this.#stream = new ZmtpStream(opts.peerTypes, opts.maxMessageBytes);
    this.#messages = new MessageAssembler(opts.maxMessageBytes);
    this.handshake = new Promise((resolve, reject) => {
      this.#settle = (err) => {
        this.#settled = true;
        if (err) reject(err);
        else resolve();
      };
    });
    // a failure before anyone awaits the handshake must not surface as an unhandled rejection
    this.handshake.catch(() => undefined);
    const hello = Buffer.concat([greeting(), readyCommand({ 'Socket-Type': opts.socketType })]);
    const socket =
      opts.path === undefined
        ? connect({ host: opts.host, port: opts.port, noDelay: true })
        : connect({ path: opts.path });
    this.socket = socket;
    socket.on('connect', () => socket.write(hello));
    socket.on('data', (chunk: Buffer) => {
      try {
        this.#receive(chunk);
      } catch (err) {
        this.#end(err as Error);
      }
    });
    socket.on('error', (err) => this.#end(err));
    // errors are built only when someone hears of them: a close we asked for needs none (building
    // one, stack and all, was ~2 % of a swarm worker's CPU in a sign-in storm)
    socket.on('close', () => {
      if (!this.#closed) this.#end(new SALT_ERR_BUS_ZMTP('connection closed by the peer'));
    });
  }

  /** Closes the connection; `onClose` is not called for a close we asked for. */
  destroy(): void {
    this.#closed = true;
    if (!this.#settled) this.#settle(new SALT_ERR_BUS_ZMTP('connection closed'));
    this.socket.destroy();
  }

  #end(err: Error): void {
    this.socket.destroy();
    if (this.#closed) return;
    this.#closed = true;
    this.#settle(err);
    this.#opts.onClose(err);
  }

  /** The handshake is over. */
  get ready(): boolean {
    return this.#stream.ready;
  }

  #receive(chunk: Buffer): void {
    this.#stream.feed(chunk);
    for (let frame = this.#stream.next(); frame; frame = this.#stream.next()) {
      if (this.#closed) return;
      if (frame === READY) {
        const first = this.#opts.afterReady?.();
        if (first) this.socket.write(first);
        this.#settle();
      } else if (frame.command) {
        const { name, data } = splitCommand(frame.body);
        const answer = answerCommand(name, data);
        if (answer === 'close')
          this.#end(new SALT_ERR_BUS_ZMTP(`the peer sent ERROR: ${data.toString('latin1', 1)}`));
        else if (answer) this.socket.write(answer);
      } else {
        const parts = this.#messages.add(frame);
        if (parts) this.#opts.onMessage(parts);
      }
    }
  }
}
