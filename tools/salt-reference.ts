/**
 * Real Salt 3006 run from its source tree (see /work/shared/REAL-SALT.md), as a reference to
 * compare tsalt's CLIs with: a master and minions on loopback under a temp root, and the
 * Salt CLIs to drive them. `TSALT_SALT_SRC` names the source tree (a checkout of v3006.18 with
 * Debian's python3 packages installed); `TSALT_SALT_PYTHON` the interpreter (default
 * `/usr/bin/python3`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../kernel/process/ports.js';
import { type RunResult, runCommand } from './local-cluster.js';

export interface SaltReferenceOptions {
  src: string;
  python?: string;
}

/** A Salt master and minions from a source tree, each daemon in its own process group. */
export class SaltReference {
  readonly root = mkdtempSync(join(tmpdir(), 'salt-ref-'));
  readonly confDir = join(this.root, 'etc');
  readonly #python: string;
  readonly #src: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #daemons = new Map<string, ChildProcess>();
  retPort = 0;
  publishPort = 0;

  constructor(opts: SaltReferenceOptions) {
    this.#src = opts.src;
    this.#python = opts.python ?? '/usr/bin/python3';
    // Debian 12 has no `looseversion` package: a one-line stand-in (REAL-SALT.md)
    const shim = join(this.root, 'shim');
    mkdirSync(shim);
    writeFileSync(join(shim, 'looseversion.py'), 'from distutils.version import LooseVersion\n');
    this.#env = { ...process.env, PYTHONPATH: `${opts.src}:${shim}`, PYTHONWARNINGS: 'ignore' };
    if (!existsSync(join(opts.src, 'salt/_version.txt'))) {
      throw new Error(`${opts.src}/salt/_version.txt is missing: write the version (3006.18) into it`);
    }
  }

  minionConfDir(id: string): string {
    return join(this.root, 'minions', id);
  }

  /** Runs one of Salt's CLIs (`salt`, `salt-run`, ...) with `args` as given. */
  cli(name: string, args: string[], timeoutMs = 120_000): Promise<RunResult> {
    return runCommand(this.#python, [join(this.#src, 'scripts', name), ...args], timeoutMs, this.#env);
  }

  #daemon(name: string, script: string, confDir: string): void {
    const p = spawn(this.#python, [join(this.#src, 'scripts', script), '-c', confDir, '-l', 'quiet'], {
      stdio: 'ignore',
      env: this.#env,
      detached: true,
    });
    this.#daemons.set(name, p);
  }

  async startMaster(): Promise<void> {
    this.publishPort = await freePort();
    this.retPort = await freePort();
    mkdirSync(this.confDir, { recursive: true });
    writeFileSync(
      join(this.confDir, 'master'),
      `interface: 127.0.0.1\npublish_port: ${this.publishPort}\nret_port: ${this.retPort}\nroot_dir: ${this.root}\nuser: root\nauto_accept: True\n`,
    );
    this.#daemon('master', 'salt-master', this.confDir);
  }

  async startMinion(id: string): Promise<void> {
    const dir = this.minionConfDir(id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'minion'),
      `id: ${id}\nmaster: 127.0.0.1\nmaster_port: ${this.retPort}\npublish_port: ${this.publishPort}\nroot_dir: ${join(this.root, 'minions', id, 'root')}\nuser: root\n`,
    );
    this.#daemon(id, 'salt-minion', dir);
  }

  /** Waits until every one of `ids` answers `test.ping`. */
  async waitForMinions(ids: readonly string[], timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.cli('salt', [
        '-c',
        this.confDir,
        '--out',
        'json',
        '--static',
        '-t',
        '3',
        '*',
        'test.ping',
      ]);
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(r.stdout || '{}') as Record<string, unknown>;
      } catch {
        // not up yet
      }
      if (ids.every((id) => data[id] === true)) return;
      if (Date.now() > deadline)
        throw new Error(`Salt minions ${ids.join(', ')} did not answer: ${r.stdout}${r.stderr}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  /** SIGTERM to a daemon's process group (Salt's children included), SIGKILL after 15 s. */
  async stopDaemon(name: string): Promise<void> {
    const p = this.#daemons.get(name);
    if (!p?.pid || p.exitCode !== null || p.signalCode !== null) return;
    const pid = p.pid;
    const exited = new Promise<void>((r) => p.once('exit', () => r()));
    process.kill(-pid, 'SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, 15_000);
    await exited;
    clearTimeout(timer);
    // the group's other processes (Salt's process managers' children)
    await new Promise((r) => setTimeout(r, 500));
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // all gone
    }
    this.#daemons.delete(name);
  }

  async stop(): Promise<void> {
    for (const name of [...this.#daemons.keys()].filter((n) => n !== 'master')) await this.stopDaemon(name);
    await this.stopDaemon('master');
    rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * The setup every CLI case expects (tools/salt-cli-cases.ts): minions m1 and m2 running, m3
 * with an accepted key and stopped.
 */
export async function startSaltReference(opts: SaltReferenceOptions): Promise<SaltReference> {
  const ref = new SaltReference(opts);
  try {
    await ref.startMaster();
    for (const id of ['m1', 'm2', 'm3']) await ref.startMinion(id);
    await ref.waitForMinions(['m1', 'm2', 'm3']);
    await ref.stopDaemon('m3');
    return ref;
  } catch (err) {
    await ref.stop();
    throw err;
  }
}
