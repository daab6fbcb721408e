/**
 * An event bus whose pub path Salt's own listeners can read too. Salt 3006's bus is not ZeroMQ:
 * `salt.utils.event.get_event(..., listen=True)` connects a `salt.transport.ipc`
 * IPCMessageSubscriber, which sends nothing and reads a msgpack stream of
 * `{"head": {}, "body": <tag>\n\n<msgpack data>}` maps; fed tsalt's ZMTP greeting it fails
 * ("'int' object is not subscriptable"). A ZMTP peer (tsalt's listeners, libzmq) sends its
 * greeting, first byte 0xFF, as soon as it connects. So the pub path is this listener's: a
 * connection whose first byte is 0xFF goes to the bus's ZMTP publisher, one silent for
 * {@link SALT_SUBSCRIBER_WAIT_MS} (or saying anything else) is Salt's and gets every event in
 * Salt's framing, from the moment it connected (Salt's subscribers filter tags themselves).
 * Used for the minion's bus and the master's.
 */
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { parseEndpoint } from '../kernel/bus/address.js';
import type { EventBusAddresses } from '../kernel/bus/event-bus.js';
import { EventPublisher, type EventPublisherOptions } from '../kernel/bus/event-publisher.js';
import { SALT_ERR_BUS_ADDRESS } from '../kernel/errors.js';

/**
 * How long a silent connection may still turn out to be a ZMTP peer. Generous: a tsalt
 * listener whose process is busy (a CLI loading its code on a loaded host) may send its
 * greeting late, and one taken for Salt's would never see an event; a Salt listener only
 * waits this long for its first events, none lost (those published meanwhile are held).
 */
export const SALT_SUBSCRIBER_WAIT_MS = 2000;
/** Bytes a Salt subscriber may leave unread before events are dropped for it. */
const SALT_SUBSCRIBER_MAX_BYTES = 64 * 1024 * 1024;
/** Events kept for a connection while it is told apart. */
const MAX_HELD = 10_000;

const HEAD = Buffer.from([0x82, 0xa4, ...Buffer.from('head'), 0x80, 0xa4, ...Buffer.from('body')]);

/** Salt's IPC framing of one event body: msgpack `{"head": {}, "body": <bin>}`. */
export function saltIpcFrame(body: Buffer): Buffer {
  const n = body.length;
  let len: Buffer;
  if (n < 0x100) len = Buffer.from([0xc4, n]);
  else if (n < 0x10000) len = Buffer.from([0xc5, n >> 8, n & 0xff]);
  else {
    len = Buffer.alloc(5);
    len[0] = 0xc6;
    len.writeUInt32BE(n, 1);
  }
  return Buffer.concat([HEAD, len, body]);
}

export class SaltIpcPub {
  readonly #adopt: (socket: Socket, head: Buffer) => void;
  readonly #salt = new Set<Socket>();
  /** Connections not told apart yet, and the event bodies published meanwhile. */
  readonly #held = new Map<Socket, Buffer[]>();
  #server: Server | undefined;

  /** `adopt` takes a ZMTP peer's connection with the bytes read from it. */
  constructor(adopt: (socket: Socket, head: Buffer) => void) {
    this.#adopt = adopt;
  }

  async bindPath(path: string): Promise<void> {
    await rm(path, { force: true });
    const server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ path }, () => resolve());
    });
    this.#server = server;
  }

  /** Sends an event body to Salt's subscribers (and holds it for those not told apart yet). */
  publish(body: Buffer): void {
    for (const held of this.#held.values()) if (held.length < MAX_HELD) held.push(body);
    if (this.#salt.size === 0) return;
    const frame = saltIpcFrame(body);
    for (const s of this.#salt) if (s.writableLength <= SALT_SUBSCRIBER_MAX_BYTES) s.write(frame);
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of [...this.#salt, ...this.#held.keys()]) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    if (!this.#server) {
      socket.destroy();
      return;
    }
    this.#held.set(socket, []);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      this.#held.delete(socket);
      this.#salt.delete(socket);
    });
    const decide = (head: Buffer | undefined): void => {
      clearTimeout(timer);
      socket.off('data', decide);
      if (head && head[0] === 0xff) {
        this.#held.delete(socket);
        this.#adopt(socket, head);
        return;
      }
      // Salt's subscriber: what was published since it connected, then every event
      const held = this.#held.get(socket) ?? [];
      this.#held.delete(socket);
      this.#salt.add(socket);
      socket.on('data', () => undefined);
      for (const body of held) socket.write(saltIpcFrame(body));
    };
    const timer = setTimeout(() => decide(undefined), SALT_SUBSCRIBER_WAIT_MS);
    socket.on('data', decide);
  }
}

/**
 * Binds an event bus (EventPublisher) whose pub path Salt's listeners may read too; closing
 * the bus closes that listener.
 * @throws SALT_ERR_BUS_ADDRESS when an address is not `ipc://`
 */
export async function bindEventBus(
  addrs: EventBusAddresses,
  opts: EventPublisherOptions,
): Promise<EventPublisher> {
  const path = parseEndpoint(addrs.pub).path;
  if (path === undefined) throw new SALT_ERR_BUS_ADDRESS(addrs.pub);
  let bus: EventPublisher | undefined;
  const front = new SaltIpcPub((socket, head) => (bus ? bus.adopt(socket, head) : socket.destroy()));
  bus = new EventPublisher({ ...opts, onPublish: (body) => front.publish(body) });
  try {
    await front.bindPath(path);
    await bus.bind(addrs);
  } catch (err) {
    bus.close();
    await front.close();
    throw err;
  }
  void bus.run().finally(() => front.close());
  return bus;
}
