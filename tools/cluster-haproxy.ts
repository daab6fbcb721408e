/**
 * HAProxy in front of a cluster's masters, for the cluster benchmark (bench/cluster-bench.ts) when
 * it is installed (`apt-get install -y haproxy`; CI does not need it): mode tcp, round robin, the
 * masters' request and publish ports on one address, health checks every second so that a dead
 * master gets no new connection. A process holds two descriptors per connection and this container
 * caps a process at 20,000 open files, so `procs` HAProxy processes bind the same ports
 * (SO_REUSEPORT: the kernel spreads the connections over them), each with `maxconn` of its own.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HaproxyOptions {
  /** The address it listens on. */
  host: string;
  /** The ports it listens on, each forwarded to the same port of every backend. */
  ports: readonly number[];
  /** The masters' addresses. */
  backends: readonly string[];
  procs: number;
  /** Connections per process. */
  maxconn: number;
}

/** The `haproxy` binary's path, or undefined when it is not installed. */
export function haproxyBin(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

function config(o: HaproxyOptions): string {
  const lines = [
    'global',
    `  maxconn ${o.maxconn}`,
    '  nbthread 1',
    'defaults',
    '  mode tcp',
    '  timeout connect 5s',
    // minion connections are idle between jobs: never cut for that
    '  timeout client 24h',
    '  timeout server 24h',
    '  option redispatch',
    '  retries 3',
  ];
  for (const port of o.ports) {
    lines.push(
      `listen p${port}`,
      `  bind ${o.host}:${port}`,
      '  balance roundrobin',
      ...o.backends.map((b, i) => `  server m${i} ${b}:${port} check inter 1s fall 2 rise 2`),
    );
  }
  return `${lines.join('\n')}\n`;
}

export class Haproxy {
  readonly #procs: ChildProcess[] = [];
  readonly #dir = mkdtempSync(join(tmpdir(), 'tsalt-haproxy-'));
  #output = '';

  constructor(private readonly o: HaproxyOptions) {}

  /** Starts the processes; resolves once each has been up a second (it exits at once on a bad config). */
  async start(): Promise<void> {
    const bin = haproxyBin();
    if (!bin) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
    const cfg = join(this.#dir, 'haproxy.cfg');
    writeFileSync(cfg, config(this.o));
    for (let i = 0; i < this.o.procs; i++) {
      const p = spawn(bin, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
      p.stdout?.on('data', (d) => (this.#output += d));
      p.stderr?.on('data', (d) => (this.#output += d));
      this.#procs.push(p);
    }
    await new Promise((r) => setTimeout(r, 1000));
    const dead = this.#procs.find((p) => p.exitCode !== null);
    if (dead) throw new Error(`haproxy exited (${dead.exitCode}): ${this.#output.slice(-2000)}`);
  }

  get pids(): number[] {
    return this.#procs.map((p) => p.pid!);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.#procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.exitCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGTERM');
          }),
      ),
    );
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/** Established TCP connections to `host:port` now (the masters' side), from `ss`. */
export function connectionsTo(host: string, port: number): number {
  const r = spawnSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} )`, 'src', host], {
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean).length : -1;
}
