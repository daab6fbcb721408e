import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ChildSpec, ProcessManager } from './process-manager.js';

// The helpers run in real children: child.ts is transpiled to child.mjs in a temp dir.
const APP = `
  import { writeFileSync } from 'node:fs';
  import { exitWhenParentDies, installChildSignalHandlers, onParentMessage, signalFatal, signalReady, hasParent } from './child.mjs';
  const marker = process.env.MARKER;
  const hang = process.env.HANG === '1';
  installChildSignalHandlers(async () => {
    if (hang) await new Promise(() => {});
    writeFileSync(marker, 'cleaned');
  }, { timeoutMs: 300 });
  exitWhenParentDies({ shutdown: async () => writeFileSync(marker, 'parent-gone') });
  onParentMessage((m) => { if (m && m.cmd === 'ping') process.send({ pong: true }); });
  setInterval(() => {}, 1000);
  if (process.env.FATAL === '1') {
    await signalFatal({ code: 'SALT_ERR_BUS_ADDRESS_IN_USE', message: 'cannot bind 0.0.0.0:4505: address already in use' });
    process.exit(1);
  }
  await signalReady();
  if (!hasParent()) process.stdout.write('standalone-ready\\n');
`;

// A plain master that forks the app, prints the app's pid once it is ready, and idles.
const MASTER = `
  import { fork } from 'node:child_process';
  const c = fork(new URL('./app.mjs', import.meta.url).pathname, [], { execArgv: [] });
  c.on('message', (m) => { if (m && m.type === 'ready') process.stdout.write(c.pid + '\\n'); });
  setInterval(() => {}, 1000);
`;

let dir = '';
const cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-child-'));
  const here = dirname(fileURLToPath(import.meta.url));
  const source = await readFile(join(here, 'child.ts'), 'utf8');
  const js = ts.transpileModule(source, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  }).outputText;
  await writeFile(join(dir, 'child.mjs'), js);
  await writeFile(join(dir, 'app.mjs'), APP);
  await writeFile(join(dir, 'master.mjs'), MASTER);
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Gone: no such process, or a zombie waiting for an init that does not reap. */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

async function waitFor(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function appManager(env: Record<string, string>, killTimeoutMs = 3000) {
  const log = { info() {}, warn() {}, error() {}, debug() {} };
  const pm = new ProcessManager({ log, killTimeoutMs });
  cleanups.push(() => pm.stop());
  const spec: ChildSpec = { name: 'app', modulePath: join(dir, 'app.mjs'), execArgv: [], env };
  return { pm, proc: pm.add(spec) };
}

describe('child helpers', () => {
  it('signalReady + SIGTERM: cleanup runs and the child exits 0', async () => {
    const marker = join(dir, 'm-term');
    const { pm, proc } = appManager({ MARKER: marker });
    await pm.start();
    expect(proc.state).toBe('running');
    const pong = new Promise<unknown>((resolve) => pm.once('message', (_p, m) => resolve(m)));
    await pm.send('app', { cmd: 'ping' });
    expect(await pong).toEqual({ pong: true });

    const t0 = Date.now();
    await pm.stop();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(proc.lastExit).toEqual({ code: 0, signal: null });
    expect(await readFile(marker, 'utf8')).toBe('cleaned');
  });

  it('a cleanup that hangs is cut off by the bound (exit 1, before the master SIGKILLs)', async () => {
    const { pm, proc } = appManager({ MARKER: join(dir, 'm-hang'), HANG: '1' }, 5000);
    await pm.start();
    const t0 = Date.now();
    await pm.stop();
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(proc.lastExit).toEqual({ code: 1, signal: null });
  });

  it('signalFatal reaches start() as the child error', async () => {
    const { pm } = appManager({ MARKER: join(dir, 'm-fatal'), FATAL: '1' });
    await expect(pm.start()).rejects.toMatchObject({
      code: 'SALT_ERR_BUS_ADDRESS_IN_USE',
      message: 'cannot bind 0.0.0.0:4505: address already in use',
    });
  });

  it('under a master, SIGINT is ignored (the master relays SIGTERM)', async () => {
    const { pm, proc } = appManager({ MARKER: join(dir, 'm-int') });
    await pm.start();
    const pid = proc.pid!;
    process.kill(pid, 'SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    expect(proc.pid).toBe(pid);
    expect(proc.state).toBe('running');
  });

  it('exits when its master is SIGKILLed', async () => {
    const marker = join(dir, 'm-orphan');
    const master: ChildProcess = spawn(process.execPath, [join(dir, 'master.mjs')], {
      env: { ...process.env, MARKER: marker },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => {
      master.kill('SIGKILL');
    });
    const childPid = await new Promise<number>((resolve, reject) => {
      master.stdout?.once('data', (b: Buffer) => resolve(Number(b.toString().trim())));
      master.once('exit', () => reject(new Error('master exited early')));
    });
    expect(isGone(childPid)).toBe(false);
    master.kill('SIGKILL');
    await waitFor(() => isGone(childPid), 5000);
    expect(await readFile(marker, 'utf8')).toBe('parent-gone');
  });

  it('standalone (no IPC): ready is a no-op and SIGINT runs the cleanup', async () => {
    const marker = join(dir, 'm-standalone');
    const app = spawn(process.execPath, [join(dir, 'app.mjs')], {
      env: { ...process.env, MARKER: marker },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => {
      app.kill('SIGKILL');
    });
    await new Promise<void>((resolve) => app.stdout?.once('data', () => resolve()));
    const exited = new Promise<number | null>((resolve) => app.once('exit', (code) => resolve(code)));
    app.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});
