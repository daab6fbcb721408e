import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SaltError } from '../errors.js';
import { type ChildSpec, type ProcessLogger, ProcessManager, type RestartInfo } from './process-manager.js';

// Tiny real children. Each exits when the test process (its master) goes away.
const SCRIPTS: Record<string, string> = {
  'idle.mjs': `
    process.on('disconnect', () => process.exit(0));
    process.send({ type: 'ready' });
    setInterval(() => {}, 1000);
  `,
  'crash-after.mjs': `
    process.on('disconnect', () => process.exit(0));
    process.send({ type: 'ready' });
    setTimeout(() => process.exit(Number(process.env.CRASH_CODE ?? 3)), Number(process.env.CRASH_MS ?? 100));
  `,
  'fatal.mjs': `
    process.send(
      { type: 'fatal', code: 'SALT_ERR_BUS_ADDRESS_IN_USE', message: 'cannot bind 127.0.0.1:4506: address already in use' },
      () => process.exit(1),
    );
  `,
  'exit-early.mjs': `process.exit(2);`,
  'silent.mjs': `
    process.on('disconnect', () => process.exit(0));
    setInterval(() => {}, 1000);
  `,
  'stubborn.mjs': `
    process.on('SIGTERM', () => {});
    process.on('disconnect', () => {});
    process.send({ type: 'ready' });
    setInterval(() => {}, 1000);
  `,
  // Ready on its first run only; later runs die before ready (counted in a file).
  'first-only.mjs': `
    import { readFileSync, writeFileSync } from 'node:fs';
    const f = process.env.COUNT_FILE;
    let n = 0;
    try { n = Number(readFileSync(f, 'utf8')); } catch {}
    writeFileSync(f, String(n + 1));
    if (n === 0) {
      process.send({ type: 'ready' });
      setTimeout(() => process.exit(5), 50);
    } else {
      process.exit(6);
    }
  `,
  'echo.mjs': `
    process.on('disconnect', () => process.exit(0));
    process.on('message', (m) => process.send({ echo: m }));
    process.send({ type: 'ready' });
  `,
};

let dir = '';
const managers: ProcessManager[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-pm-'));
  for (const [name, text] of Object.entries(SCRIPTS)) await writeFile(join(dir, name), text);
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface LogLine {
  level: string;
  obj: object;
  msg: string | undefined;
}

function memoryLog(): ProcessLogger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: string) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
}

function spec(name: string, script: string, extra: Partial<ChildSpec> = {}): ChildSpec {
  return { name, modulePath: join(dir, script), execArgv: [], ...extra };
}

function manager(opts: Partial<ConstructorParameters<typeof ProcessManager>[0]> = {}) {
  const log = memoryLog();
  const pm = new ProcessManager({
    log,
    killTimeoutMs: 1000,
    backoff: { initialMs: 50, maxMs: 400, resetAfterMs: 30_000 },
    ...opts,
  });
  managers.push(pm);
  return { pm, log };
}

function isAlive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ESRCH');
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('ProcessManager', () => {
  it('starts children, restarts one killed with SIGKILL, and stops all', async () => {
    const { pm, log } = manager();
    const a = pm.add(spec('publisher', 'idle.mjs'));
    const b = pm.add(spec('maintenance', 'idle.mjs'));
    await pm.start();
    expect(a.state).toBe('running');
    expect(b.state).toBe('running');
    expect(isAlive(a.pid)).toBe(true);
    expect(isAlive(b.pid)).toBe(true);
    expect(pm.list().map((p) => p.name)).toEqual(['publisher', 'maintenance']);
    expect(pm.get('publisher')).toBe(a);

    const restarted = new Promise<RestartInfo>((resolve) =>
      pm.once('restart', (proc, info) => {
        expect(proc).toBe(a);
        resolve(info);
      }),
    );
    const exitState = new Promise<string>((resolve) => pm.once('exit', (proc) => resolve(proc.state)));
    const oldPid = a.pid!;
    process.kill(oldPid, 'SIGKILL');
    expect(await exitState).toBe('backoff');
    const info = await restarted;
    expect(info.exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(info.delayMs).toBe(50);
    expect(a.restarts).toBe(1);
    expect(a.pid).not.toBe(oldPid);
    await waitFor(() => a.state === 'running');
    expect(b.restarts).toBe(0);
    expect(log.lines.some((l) => l.level === 'error' && JSON.stringify(l.obj).includes('"SIGKILL"'))).toBe(
      true,
    );

    const pids = [a.pid, b.pid];
    await pm.stop();
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(pm.list().every((p) => p.state === 'stopped' && p.pid === undefined)).toBe(true);
  });

  it('start() rejects with the code and message of a child that sends fatal, and stops the others', async () => {
    const { pm } = manager();
    const ok = pm.add(spec('event-publisher', 'idle.mjs'));
    const bad = pm.add(spec('request-server', 'fatal.mjs'));
    const err = await pm.start().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SaltError);
    expect((err as SaltError).code).toBe('SALT_ERR_BUS_ADDRESS_IN_USE');
    expect((err as SaltError).message).toBe('cannot bind 127.0.0.1:4506: address already in use');
    expect(bad.restarts).toBe(0);
    expect(bad.state).toBe('stopped');
    expect(ok.state).toBe('stopped');
    expect(ok.pid).toBeUndefined();
  });

  it('start() rejects when a child exits before it is ready, without restarting it', async () => {
    const { pm } = manager();
    const p = pm.add(spec('maintenance', 'exit-early.mjs'));
    await expect(pm.start()).rejects.toMatchObject({
      code: 'SALT_ERR_PROCESS_CHILD_START',
      message: 'process "maintenance" failed to start: exited with code 2 before it was ready',
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(p.restarts).toBe(0);
    expect(p.state).toBe('stopped');
  });

  it('start() rejects for a missing module and for a child that never reports ready', async () => {
    const { pm } = manager();
    pm.add(spec('ghost', 'no-such-file.mjs'));
    await expect(pm.start()).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_CHILD_START' });

    const { pm: pm2 } = manager({ readyTimeoutMs: 300 });
    const s = pm2.add(spec('silent', 'silent.mjs'));
    await expect(pm2.start()).rejects.toThrow('process "silent" failed to start: not ready after 300 ms');
    expect(s.pid).toBeUndefined();
  });

  it('stop() SIGKILLs a child that ignores SIGTERM within killTimeoutMs, and logs it by name', async () => {
    const { pm, log } = manager({ killTimeoutMs: 500 });
    const s = pm.add(spec('stubborn', 'stubborn.mjs'));
    const i = pm.add(spec('idle', 'idle.mjs'));
    await pm.start();
    const pids = [s.pid, i.pid];
    const t0 = Date.now();
    await pm.stop();
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(500 + 1500);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(s.lastExit).toEqual({ code: null, signal: 'SIGKILL' });
    const survivors = log.lines.find((l) => l.level === 'error' && l.msg?.includes('SIGKILL'));
    expect(survivors?.msg).toContain('stubborn');
    expect(survivors?.msg).not.toContain('idle');
    await pm.stop(); // idempotent
  });

  it('retries a restarted child that never gets ready again, with growing backoff', async () => {
    const { pm } = manager();
    const countFile = join(dir, `count-${Date.now()}`);
    const p = pm.add(spec('flaky', 'first-only.mjs', { env: { COUNT_FILE: countFile } }));
    const delays: number[] = [];
    pm.on('restart', (_proc, info) => delays.push(info.delayMs));
    await pm.start();
    await waitFor(() => p.restarts >= 4);
    expect(delays.slice(0, 4)).toEqual([50, 100, 200, 400]);
    expect(p.state === 'starting' || p.state === 'backoff').toBe(true);
    pm.stopRestarting();
    await waitFor(() => p.state === 'stopped');
    const n = p.restarts;
    await new Promise((r) => setTimeout(r, 600));
    expect(p.restarts).toBe(n);
  });

  it('follows the restart policy: never, and on-failure after a clean exit', async () => {
    const { pm } = manager();
    const never = pm.add(spec('never', 'crash-after.mjs', { restart: 'never', env: { CRASH_MS: '50' } }));
    const clean = pm.add(
      spec('clean', 'crash-after.mjs', { restart: 'on-failure', env: { CRASH_MS: '50', CRASH_CODE: '0' } }),
    );
    const failing = pm.add(
      spec('failing', 'crash-after.mjs', { restart: 'on-failure', env: { CRASH_MS: '50', CRASH_CODE: '4' } }),
    );
    const exits: string[] = [];
    pm.on('exit', (proc) => exits.push(proc.name));
    await pm.start();
    await waitFor(() => never.state === 'stopped' && clean.state === 'stopped' && failing.restarts >= 1);
    expect(never.restarts).toBe(0);
    expect(never.lastExit).toEqual({ code: 3, signal: null });
    expect(clean.restarts).toBe(0);
    expect(exits).toContain('never');
    expect(exits).toContain('clean');
  });

  it('sends messages both ways and rejects unknown names, duplicates and start after stop', async () => {
    const { pm } = manager();
    pm.add(spec('echo', 'echo.mjs'));
    expect(() => pm.add(spec('echo', 'idle.mjs'))).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_PROCESS_DUPLICATE' }),
    );
    await pm.start();
    const got = new Promise<unknown>((resolve) => pm.once('message', (_p, m) => resolve(m)));
    expect(await pm.send('echo', { hello: 1 })).toBe(true);
    expect(await got).toEqual({ echo: { hello: 1 } });
    await expect(pm.send('nope', {})).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_UNKNOWN' });
    await pm.stop();
    expect(await pm.send('echo', {})).toBe(false);
    await expect(pm.start()).rejects.toMatchObject({ code: 'SALT_ERR_PROCESS_STOPPED' });
  });

  it('accepts a pino logger', () => {
    const log: ProcessLogger = pino({ enabled: false });
    expect(new ProcessManager({ log }).list()).toEqual([]);
  });
});
