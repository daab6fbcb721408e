/**
 * A small TCP load balancer for tests and benchmarks, as the one Salt 3007's cluster sits behind:
 * it listens on `host:port` and pipes each connection it takes to one backend, chosen per
 * connection by a function of the connection's number (round robin by default); a backend that
 * refuses the connection passes it to the next one (as HAProxy's `redispatch`). `cut()` drops
 * every connection it carries, so a client's next connection (a reconnect) is routed afresh: a
 * switch mid-session.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

export class TcpBalancer {
  readonly #server: Server;
  readonly #open = new Set<Socket>();
  #count = 0;
  /** The backend connection `n` (from 0) goes to. */
  choose: (n: number) => number;
  /** How many connections each backend got. */
  readonly routed: number[];

  constructor(
    readonly backends: readonly Backend[],
    choose?: (n: number) => number,
  ) {
    this.routed = backends.map(() => 0);
    this.choose = choose ?? ((n) => n % backends.length);
    this.#server = createServer((client) => this.#pipe(client));
  }

  #pipe(client: Socket): void {
    const first = this.choose(this.#count++);
    client.pause();
    client.on('error', () => undefined);
    const attempt = (tried: number): void => {
      const index = (first + tried) % this.backends.length;
      const to = this.backends[index]!;
      const server = connect({ host: to.host, port: to.port });
      server.once('error', () => {
        if (tried + 1 < this.backends.length && !client.destroyed) attempt(tried + 1);
        else client.destroy();
      });
      server.once('connect', () => {
        if (client.destroyed) {
          server.destroy();
          return;
        }
        this.routed[index]! += 1;
        server.on('error', () => undefined);
        for (const s of [client, server]) {
          this.#open.add(s);
          s.on('close', () => {
            this.#open.delete(s);
            client.destroy();
            server.destroy();
          });
        }
        client.pipe(server);
        server.pipe(client);
        client.resume();
      });
    };
    attempt(0);
  }

  listen(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => resolve());
    });
  }

  /** Drops every connection under way (the listener stays). */
  cut(): void {
    for (const s of this.#open) s.destroy();
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
