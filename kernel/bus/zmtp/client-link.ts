/**
 * One outgoing ZMTP 3.0 connection, the part tsalt's client sockets share (./req-socket.ts,
 * ./sub-socket.ts): connect, greet, exchange READY (checking the peer's socket type), then
 * hand over whole messages. Frames are small until the peer's READY; messages are capped in
 * size and in parts. `PING` is answered; `ERROR` closes.
 */
import { connect, type Socket } from 'node:net';
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { encodeCommand, FrameDecoder, splitCommand } from './frame.js';
import { checkGreeting, GREETING_BYTES, greeting, parseMetadata, readyCommand } from './handshake.js';

/** Frames accepted before the peer's READY. */
const HANDSHAKE_FRAME_BYTES = 8 * 1024;
/** Parts a message may have, and what each counts against the size limit besides its bytes. */
const MAX_PARTS = 64;
const PART_OVERHEAD_BYTES = 64;

export interface ClientLinkOptions {
  host: string;
  port: number;
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

export class ClientLink {
  readonly socket: Socket;
  ready = false;
  /** Settles once the handshake is over, or rejects if the connection failed first. */
  readonly handshake: Promise<void>;
  readonly #opts: ClientLinkOptions;
  #greeting: Buffer | undefined = Buffer.alloc(0);
  readonly #decoder = new FrameDecoder(HANDSHAKE_FRAME_BYTES);
  #parts: Buffer[] = [];
  #partBytes = 0;
  #settle!: (err?: Error) => void;
  #closed = false;

  constructor(opts: ClientLinkOptions) {
    this.#opts = opts;
    this.handshake = new Promise((resolve, reject) => {
      this.#settle = (err) => (err ? reject(err) : resolve());
    });
    // a failure before anyone awaits the handshake must not surface as an unhandled rejection
    this.handshake.catch(() => undefined);
    const hello = Buffer.concat([greeting(), readyCommand({ 'Socket-Type': opts.socketType })]);
    const socket = connect({ host: opts.host, port: opts.port, noDelay: true });
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
    socket.on('close', () => this.#end(new SALT_ERR_BUS_ZMTP('connection closed by the peer')));
  }

  /** Closes the connection; `onClose` is not called for a close we asked for. */
  destroy(): void {
    this.#closed = true;
    this.#settle(new SALT_ERR_BUS_ZMTP('connection closed'));
    this.socket.destroy();
  }

  #end(err: Error): void {
    this.socket.destroy();
    if (this.#closed) return;
    this.#closed = true;
    this.#settle(err);
    this.#opts.onClose(err);
  }

  #receive(chunk: Buffer): void {
    let data = chunk;
    if (this.#greeting) {
      const have = this.#greeting.length === 0 ? data : Buffer.concat([this.#greeting, data]);
      if (have.length < GREETING_BYTES) {
        if (have[0] !== 0xff) throw new SALT_ERR_BUS_ZMTP('not a ZMTP 3 greeting');
        this.#greeting = Buffer.from(have);
        return;
      }
      checkGreeting(have.subarray(0, GREETING_BYTES));
      this.#greeting = undefined;
      data = have.subarray(GREETING_BYTES);
    }
    this.#decoder.feed(data);
    for (let frame = this.#decoder.next(); frame; frame = this.#decoder.next()) {
      if (this.#closed) return;
      if (frame.command) {
        this.#command(frame.body);
        continue;
      }
      if (!this.ready) throw new SALT_ERR_BUS_ZMTP('message before READY');
      this.#parts.push(frame.body);
      this.#partBytes += frame.body.length + PART_OVERHEAD_BYTES;
      if (this.#partBytes > this.#opts.maxMessageBytes || this.#parts.length > MAX_PARTS)
        throw new SALT_ERR_BUS_ZMTP('message over the size limit');
      if (frame.more) continue;
      const parts = this.#parts;
      this.#parts = [];
      this.#partBytes = 0;
      this.#opts.onMessage(parts);
    }
  }

  #command(body: Buffer): void {
    const { name, data } = splitCommand(body);
    if (this.ready) {
      // PING carries a 2-byte TTL then a context of at most 16 bytes the PONG echoes
      if (name === 'PING') this.socket.write(encodeCommand('PONG', data.subarray(2, 18)));
      else if (name === 'ERROR')
        this.#end(new SALT_ERR_BUS_ZMTP(`the peer sent ERROR: ${data.toString('latin1', 1)}`));
      return;
    }
    if (name !== 'READY') throw new SALT_ERR_BUS_ZMTP(`expected READY, got ${name}`);
    const type = parseMetadata(data).get('socket-type') ?? '';
    if (!this.#opts.peerTypes.has(type))
      throw new SALT_ERR_BUS_ZMTP(
        `a ${this.#opts.socketType} socket cannot talk to a ${type || 'typeless'} socket`,
      );
    this.ready = true;
    this.#decoder.maxFrameBytes = this.#opts.maxMessageBytes;
    const first = this.#opts.afterReady?.();
    if (first) this.socket.write(first);
    this.#settle();
  }
}
