/**
 * Salt's hot multi-master: with `master: [a, b, ...]` and `master_type` left at `str`, the minion
 * signs in to every master of the list and takes the publishes of each; a job's return goes back
 * to the master whose publish brought it (a jid that comes from two masters, as in a cluster, runs
 * once, for the first). The masters other than the one signed in to at the start are joined in
 * the background, retried until each accepts the key, so a master that is down or has not
 * accepted the key yet holds up neither the start nor the others.
 *
 * It is also the minion's {@link MasterRoutes} (minion/master-switch.ts): the requests that go to
 * "the master" (pillar, file server, syncs, the schedule's returns, mine.get) go to the first
 * master of the list that is up; what Salt sends to every master (events, beacons, the mine) goes
 * to every master that is up. A master is down from the moment its publish connection drops or a
 * request to it gets no answer, and up again once its request port answers a check (every
 * `master_alive_interval` seconds, 5 when that is 0); with `master_alive_interval` set, masters
 * that are up are checked too (a host that died without closing its connections).
 */
import type { Logger } from 'pino';
import { reachable } from './failover.js';
import type { MasterConnection } from './master-connection.js';
import { type MasterRoutes, noAnswer } from './master-switch.js';

/** What a publish needs of the master it came from: to open it, and to take its return. */
export interface PublishSource {
  openPublish(frame: Buffer): Promise<Record<string, unknown> | undefined>;
  send: MasterConnection['send'];
}

export interface HotMastersOptions {
  /** The minion's master list, host names or addresses. */
  masters: readonly string[];
  /** The index of the master the minion signed in to first. */
  primary: number;
  /** That master's connection, signed in. */
  first: MasterConnection;
  /** A connection to master `index`, not signed in yet. */
  connect(index: number): MasterConnection;
  /**
   * Subscribes to the publisher of `host` (at `publishPort`, which the sign-in told); `lost` is
   * called whenever that connection drops or is refused.
   */
  subscribe(host: string, publishPort: number, source: PublishSource, lost: () => void): { close(): void };
  /** The masters' request port, which the checks try. */
  port: number;
  /** Seconds between checks; `checkUp`: check the masters that are up too. */
  checkS: number;
  checkUp: boolean;
  /** A master other than the first one joined (its start events go there). */
  joined?(conn: MasterConnection): void;
  log: Logger;
}

interface Master {
  readonly host: string;
  conn?: MasterConnection;
  sub?: { close(): void };
  up: boolean;
}

export class HotMasters implements MasterRoutes {
  readonly #masters: Master[];
  #stopped = false;
  #timer: NodeJS.Timeout | undefined;
  #checking = false;

  constructor(private readonly o: HotMastersOptions) {
    this.#masters = o.masters.map((host) => ({ host, up: false }));
  }

  /** Subscribes to the first master, joins every other one in the background, starts the checks. */
  start(): void {
    const first = this.#masters[this.o.primary]!;
    first.conn = this.o.first;
    this.#subscribe(first, this.o.first);
    this.#masters.forEach((m, i) => {
      if (i !== this.o.primary) void this.#join(m, i);
    });
    this.#timer = setInterval(() => void this.#check(), this.o.checkS * 1000);
    this.#timer.unref();
  }

  async #join(m: Master, index: number): Promise<void> {
    const conn = this.o.connect(index);
    m.conn = conn;
    try {
      // retries until the master answers and accepts the key (MasterConnection's sign-in loop)
      await conn.signIn();
    } catch (err) {
      if (!this.#stopped)
        this.o.log.error({ master: m.host, err: (err as Error).message }, 'hot master: no sign-in');
      return;
    }
    if (this.#stopped) return;
    this.#subscribe(m, conn);
    this.o.log.info({ master: m.host }, `hot master: connected to ${m.host} too`);
    this.o.joined?.(conn);
  }

  #subscribe(m: Master, conn: MasterConnection): void {
    m.up = true;
    const source: PublishSource = {
      openPublish: (frame) => conn.openPublish(frame),
      send: (load, opts) => this.#returnTo(m, conn, load, opts),
    };
    m.sub = this.o.subscribe(m.host, conn.creds.publishPort, source, () => this.#lost(m));
  }

  /**
   * A job's return goes to its publisher; when that master gives no answer (it died while the job
   * ran), to the first master that is up: in a cluster it lands in the shared job cache (Salt's
   * minion loses such a return).
   */
  async #returnTo(
    m: Master,
    conn: MasterConnection,
    load: Record<string, unknown>,
    opts: Parameters<MasterConnection['send']>[1],
  ): Promise<unknown> {
    try {
      return await conn.send(load, opts);
    } catch (err) {
      if (!noAnswer(err)) throw err;
      this.#lost(m);
      const other = this.#firstUp();
      if (!other || other === conn) throw err;
      this.o.log.warn(
        { master: m.host, jid: load.jid },
        'the publishing master is gone: return sent to another',
      );
      return other.send(load, opts);
    }
  }

  #lost(m: Master): void {
    if (!m.up || this.#stopped) return;
    m.up = false;
    const next = this.#firstUp();
    this.o.log.warn(
      { master: m.host, now: next?.masterUri },
      `hot master: ${m.host} is down; requests go to the masters that are up`,
    );
  }

  /** Marks up the masters that answer again (and, with `checkUp`, down those that stopped answering). */
  async #check(): Promise<void> {
    if (this.#checking || this.#stopped) return;
    this.#checking = true;
    try {
      const probeMs = Math.max(1000, Math.min(this.o.checkS * 1000, 5000));
      await Promise.all(
        this.#masters.map(async (m) => {
          // a master not joined yet is its sign-in loop's business
          if (!m.sub || (m.up && !this.o.checkUp)) return;
          const answers = await reachable(m.host, this.o.port, probeMs);
          if (this.#stopped) return;
          if (!answers) return this.#lost(m);
          if (m.up) return;
          m.up = true;
          this.o.log.info({ master: m.host }, `hot master: ${m.host} answers again`);
        }),
      );
    } finally {
      this.#checking = false;
    }
  }

  #firstUp(): MasterConnection | undefined {
    return this.#masters.find((m) => m.up && m.sub)?.conn;
  }

  /** The first master of the list that is up; the first one signed in to when none is. */
  first(): MasterConnection {
    return this.#firstUp() ?? this.o.first;
  }

  /** Every master that is up; the first one signed in to when none is. */
  all(): MasterConnection[] {
    const up = this.#masters.filter((m) => m.up && m.sub).map((m) => m.conn!);
    return up.length > 0 ? up : [this.o.first];
  }

  down(conn: MasterConnection): void {
    const m = this.#masters.find((x) => x.conn === conn);
    if (m) this.#lost(m);
  }

  close(): void {
    this.#stopped = true;
    clearInterval(this.#timer);
    for (const m of this.#masters) {
      m.sub?.close();
      // the first connection is the MasterSwitch's to close
      if (m.conn !== this.o.first) m.conn?.close();
    }
  }
}
