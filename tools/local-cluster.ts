/**
 * Real tsalt daemons for integration tests and benchmarks: a temp root, free loopback ports, a master and
 * minions started from the compiled CLIs, and the real `salt`/`salt-key` CLIs to drive them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MasterJobCache } from '../kernel/jobs/master-job-cache.js';
import type { StoredReturn } from '../kernel/jobs/returner.js';
import { silentLogger } from '../kernel/log.js';
import { freePort } from '../kernel/process/ports.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';

/** The package root (tools/ runs from source under vitest and from dist/tools/ compiled). */
export const REPO = existsSync(resolve(import.meta.dirname, '../package.json'))
  ? resolve(import.meta.dirname, '..')
  : resolve(import.meta.dirname, '../..');
const CLI = join(REPO, 'dist/cli');
/** The compiled public API (`tsalt`), for code configs written by tests. */
export const PUBLIC_API = join(REPO, 'dist/kernel/index.js');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function yaml(obj: Record<string, unknown>): string {
  return `${Object.entries(obj)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;
}

/** Waits until `text` appears in a growing buffer. */
function waitFor(get: () => string, text: string | RegExp, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolveWait, reject) => {
    const tick = (): void => {
      const s = get();
      if (typeof text === 'string' ? s.includes(text) : text.test(s)) resolveWait();
      else if (Date.now() > deadline) {
        reject(
          new Error(
            `timed out waiting for ${what}: ${JSON.stringify(text)}\n--- output ---\n${s.slice(-3000)}`,
          ),
        );
      } else setTimeout(tick, 50);
    };
    tick();
  });
}

/** Runs `cmd` and collects its output and exit code; SIGKILL after `timeoutMs`. */
export function runCommand(
  cmd: string,
  args: string[],
  timeoutMs = 60_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunResult> {
  return new Promise((resolveRun) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Runs a compiled CLI (`dist/cli/<cli>.js`) and collects its output and exit code. */
export function runCli(cli: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  return runCommand(process.execPath, [join(CLI, `${cli}.js`), ...args], timeoutMs);
}

export class Daemon {
  readonly proc: ChildProcess;
  out = '';

  constructor(
    readonly name: string,
    cli: string,
    args: string[],
    readonly logFile?: string,
    /** An executable to run instead of the checkout's `cli` (a self-contained build). */
    program?: string,
  ) {
    // TSALT_DAEMON_NODE_ARGS: extra node flags for the daemons, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`
    // to profile a benchmark's master (forked children and worker threads inherit them)
    const nodeArgs = (process.env.TSALT_DAEMON_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const argv = program ? args : [...nodeArgs, join(CLI, `${cli}.js`), ...args];
    this.proc = spawn(program ?? process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc.stdout?.on('data', (d: Buffer) => {
      this.out += d.toString();
    });
    this.proc.stderr?.on('data', (d: Buffer) => {
      this.out += d.toString();
    });
  }

  waitFor(text: string | RegExp, timeoutMs = 30_000): Promise<void> {
    const file = this.logFile;
    const read = file
      ? () => `${this.out}${existsSync(file) ? readFileSync(file, 'utf8') : ''}`
      : () => this.out;
    return waitFor(read, text, timeoutMs, this.name);
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** SIGTERM (or `signal`) and wait for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<number | null> {
    if (!this.alive) return this.proc.exitCode;
    const exited = new Promise<number | null>((r) => this.proc.once('exit', (code) => r(code)));
    this.proc.kill(signal);
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}

export interface ClusterOptions {
  master?: Record<string, unknown>;
  minion?: Record<string, unknown>;
  /**
   * Daemons log to the console at Salt's default level (warning), as in production, and at
   * info to a log file that readiness is read from (benchmarks). Default: info on the console.
   */
  quiet?: boolean;
  /**
   * With `quiet`: every daemon's log file at Salt's default level (warning) too, as in
   * production, so that info lines (one per job and per return) do not weigh on a benchmark;
   * readiness is then read from the master's ports accepting connections and from each minion
   * answering a `test.ping`.
   */
  productionLogs?: boolean;
}

/** Resolves once a TCP connection to 127.0.0.1:`port` succeeds. */
async function portOpen(port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((res) => {
      const sock = connect({ host: '127.0.0.1', port }, () => {
        sock.destroy();
        res(true);
      });
      sock.on('error', () => res(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class Cluster {
  readonly root: string;
  readonly confDir: string;
  master: Daemon | undefined;
  readonly minions = new Map<string, Daemon>();
  publishPort = 0;
  retPort = 0;
  readonly #opts: ClusterOptions;

  constructor(opts: ClusterOptions = {}) {
    this.#opts = opts;
    this.root = mkdtempSync(join(tmpdir(), 'tsalt-it-'));
    this.confDir = join(this.root, 'etc');
    mkdirSync(this.confDir, { recursive: true });
  }

  /** A log file under the daemon's own root_dir (Salt prefixes paths outside it). */
  #logPath(name: string): string | undefined {
    if (!this.#opts.quiet) return undefined;
    return name === 'master'
      ? join(this.root, 'master.log')
      : join(this.root, 'minions', name.slice('minion-'.length), 'minion.log');
  }

  #logging(name: string): Record<string, unknown> {
    const fileLevel = this.#opts.productionLogs ? 'warning' : 'info';
    return this.#opts.quiet
      ? { log_level: 'warning', log_file: this.#logPath(name), log_level_logfile: fileLevel }
      : { log_level: 'info' };
  }

  async writeMasterConfig(): Promise<void> {
    if (!this.publishPort) {
      this.publishPort = await freePort();
      this.retPort = await freePort();
    }
    writeFileSync(
      join(this.confDir, 'master'),
      yaml({
        root_dir: this.root,
        interface: '127.0.0.1',
        publish_port: this.publishPort,
        ret_port: this.retPort,
        auto_accept: true,
        worker_threads: 2,
        ...this.#logging('master'),
        loop_interval: 1,
        ...this.#opts.master,
      }),
    );
  }

  /**
   * Writes `master.config.ts` beside the YAML config (which it then takes over): the YAML's
   * options plus `fields`, TypeScript object entries such as `plugins: [acme()]`, after the
   * `imports` lines ({@link PUBLIC_API} is the compiled public API's path).
   */
  async writeMasterCodeConfig(imports: string, fields: string): Promise<void> {
    await this.writeMasterConfig();
    writeFileSync(
      join(this.confDir, 'master.config.ts'),
      `import { readFileSync } from 'node:fs';
${imports}

const base: Record<string, unknown> = Object.fromEntries(
  readFileSync(${JSON.stringify(join(this.confDir, 'master'))}, 'utf8').split('\\n').filter(Boolean)
    .map((l: string) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))]),
);

export default { ...base, ${fields} };
`,
    );
  }

  async startMaster(): Promise<Daemon> {
    await this.writeMasterConfig();
    const m = new Daemon('master', 'salt-master', ['-c', this.confDir], this.#logPath('master'));
    this.master = m;
    if (this.#opts.quiet && this.#opts.productionLogs) {
      // the request server binds once its workers are ready, the publisher its port
      await Promise.all([portOpen(this.retPort, 30_000), portOpen(this.publishPort, 30_000)]);
    } else await m.waitFor('salt-master started', 60_000);
    return m;
  }

  /** Each minion gets its own config dir and root under the cluster root. */
  minionConfDir(id: string): string {
    return join(this.root, 'minions', id, 'etc');
  }

  /**
   * Starts minion `id` with this cluster's master; `program`: a self-contained executable to run
   * instead of the checkout's salt-minion.
   */
  async startMinion(
    id: string,
    extra: Record<string, unknown> = {},
    waitStarted = true,
    program?: string,
  ): Promise<Daemon> {
    const dir = this.minionConfDir(id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'minion'),
      yaml({
        id,
        root_dir: join(this.root, 'minions', id),
        master: '127.0.0.1',
        master_port: this.retPort,
        acceptance_wait_time: 1,
        ...this.#logging(`minion-${id}`),
        ...this.#opts.minion,
        ...extra,
      }),
    );
    const d = new Daemon(`minion ${id}`, 'salt-minion', ['-c', dir], this.#logPath(`minion-${id}`), program);
    this.minions.set(id, d);
    if (!waitStarted) return d;
    if (this.#opts.quiet && this.#opts.productionLogs) await this.#answers(id, 30_000);
    else await d.waitFor('salt-minion started');
    return d;
  }

  /** Waits until `id` answers a `test.ping` (its log, at Salt's default level, says nothing). */
  async #answers(id: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { data } = await this.saltJson([id, 'test.ping', '-t', '2']).catch(() => ({
        data: {} as Record<string, unknown>,
      }));
      if (data[id] === true) return;
      if (Date.now() > deadline) throw new Error(`minion ${id} did not answer test.ping in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Runs a CLI against this cluster's master config dir. */
  run(cli: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
    return runCli(cli, ['-c', this.confDir, ...args], timeoutMs);
  }

  /**
   * The job cache's view of a job (returns and end states), polled until `ready` says it is
   * complete or `timeoutMs` passes: the master stores what arrives asynchronously.
   */
  async jobReturns(
    jid: string,
    ready: (stored: Record<string, StoredReturn>) => boolean,
    timeoutMs = 5000,
  ): Promise<Record<string, StoredReturn>> {
    const { def, ctx } = await this.jobCache();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const stored = await def.getJid!(jid, ctx);
      if (ready(stored) || Date.now() > deadline) return stored;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  #jobCache: Promise<MasterJobCache> | undefined;
  /** The master's job cache (`master_job_cache`), opened in this process as the master opens it. */
  jobCache(): Promise<MasterJobCache> {
    this.#jobCache ??= (async () => {
      const { loadConfig } = await import('../kernel/config/index.js');
      const { masterReturnerLoader, openMasterJobCache } = await import('../kernel/jobs/master-job-cache.js');
      const { config } = await loadConfig('master', this.confDir);
      return openMasterJobCache(config, masterReturnerLoader(config, silentLogger(), BUILTIN_RETURNERS));
    })();
    return this.#jobCache;
  }

  salt(args: string[], timeoutMs?: number): Promise<RunResult> {
    return this.run('salt', args, timeoutMs);
  }

  saltKey(args: string[]): Promise<RunResult> {
    return this.run('salt-key', args);
  }

  /** Runs `salt-run` against this cluster's master. */
  saltRun(args: string[], timeoutMs?: number): Promise<RunResult> {
    return this.run('salt-run', args, timeoutMs);
  }

  /** `salt --out json --static` parsed. */
  async saltJson(
    args: string[],
  ): Promise<{ code: number | null; data: Record<string, unknown>; raw: RunResult }> {
    // not --static: that is Salt's quiet batch (no "did not return", exit 0 whatever failed)
    const raw = await this.salt(['--out', 'json', ...args]);
    let data: Record<string, unknown> = {};
    try {
      data = Object.assign({}, ...jsonDocuments(raw.stdout));
    } catch {
      throw new Error(`salt did not print JSON: ${raw.stdout}\n${raw.stderr}`);
    }
    return { code: raw.code, data, raw };
  }

  async stop(): Promise<void> {
    await Promise.all([...this.minions.values()].map((m) => m.stop()));
    await this.master?.stop();
    const jobCache = await this.#jobCache?.catch(() => undefined);
    await jobCache?.def.close?.(jobCache.ctx).catch(() => undefined);
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The JSON documents `salt --out json` prints one after another (one per return). */
export function jsonDocuments(text: string): Record<string, unknown>[] {
  const docs: Record<string, unknown>[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      if (depth++ === 0) start = i;
    } else if (ch === '}' || ch === ']') {
      if (--depth === 0) docs.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
    } else if (depth === 0 && ch !== undefined && !/\s/.test(ch)) throw new Error(`not JSON at ${i}`);
  }
  if (depth !== 0) throw new Error('unterminated JSON');
  return docs;
}
