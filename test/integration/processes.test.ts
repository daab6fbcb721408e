import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster, REPO } from '../../tools/local-cluster.js';

describe('ext_processes and engines under the master process manager', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const logFile = join(c.root, 'app.log');
  let hookPort = 0;
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    hookPort = await freePort();
    writeFileSync(logFile, 'old line before the engine started\n');
    writeFileSync(
      join(c.confDir, 'heartbeat.mjs'),
      `export default {
  name: 'heartbeat',
  async start(ctx) {
    const stream = ctx.listen(['acme/ping']);
    (async () => { for await (const ev of stream) await ctx.fire('acme/pong', { got: ev.data.n, from: ctx.name }); })();
    return () => stream.close();
  },
};
`,
    );
    writeFileSync(
      join(c.confDir, 'looper.mjs'),
      `export default { name: 'looper', start() { process.exit(0); } };\n`,
    );
    writeFileSync(
      join(c.confDir, 'crasher.mjs'),
      `export default { name: 'crasher', async start() { await new Promise((r) => setTimeout(r, 200)); throw new Error('crasher gave up'); } };\n`,
    );
    Object.assign(master, {
      ext_processes: ['./heartbeat.mjs', './crasher.mjs', './looper.mjs'],
      engines: [
        { webhook: { address: '127.0.0.1', port: hookPort } },
        { errors_only: { engine_module: 'tail', path: logFile, match: 'ERROR', interval_ms: 50 } },
        'no_such_engine',
      ],
    });
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'acme/',
      'salt/engines/',
      'tsalt/',
    ]);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function waitFor(pred: (e: SaltEvent) => boolean, ms = 10_000): Promise<SaltEvent | undefined> {
    for (let t = 0; t < ms; t += 25) {
      const ev = seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  it('an ext_process gets the bus: it hears events and fires its own', async () => {
    const { EventFirer } = await import('../../kernel/bus/event-bus.js');
    const firer = new EventFirer(masterEventAddresses(join(c.root, 'var/run/salt/master')));
    let pong: SaltEvent | undefined;
    for (let i = 0; i < 40 && !pong; i++) {
      firer.fire('acme/ping', { n: i });
      pong = await waitFor((e) => e.tag === 'acme/pong', 250);
    }
    await firer.close();
    expect(pong?.data).toMatchObject({ from: 'heartbeat' });
  });

  it('a process that dies is restarted with backoff, with an event each time', async () => {
    const restart = await waitFor((e) => e.tag === 'tsalt/process/process-crasher/restart');
    expect(restart?.data).toMatchObject({ name: 'process-crasher', exit_code: 1 });
    expect(c.master!.out).toContain('process-crasher failed: crasher gave up');
  });

  it('a process that exits in a loop is restarted with a growing delay; the master keeps serving', async () => {
    const third = await waitFor(
      (e) => e.tag === 'tsalt/process/process-looper/restart' && Number(e.data.restarts) >= 3,
    );
    expect(third?.data).toMatchObject({ name: 'process-looper', exit_code: 0 });
    const delays = [
      ...c.master!.out.matchAll(/process process-looper exited with code 0; restarting in (\d+) ms/g),
    ]
      .map((m) => Number(m[1]))
      .slice(0, 3);
    expect(delays).toEqual([100, 200, 400]);
    const r = await c.salt(['*', 'test.ping']);
    expect(r.stderr + r.stdout).toContain('No minions matched the target');
  });

  it('the webhook engine turns a POST into salt/engines/hook/<path>', async () => {
    const res = await fetch(`http://127.0.0.1:${hookPort}/deploy/web`, {
      method: 'POST',
      body: '{"rev": "abc"}',
    });
    expect(res.status).toBe(200);
    const ev = await waitFor((e) => e.tag === 'salt/engines/hook/deploy/web');
    expect(ev?.data).toMatchObject({ body: '{"rev": "abc"}', headers: { 'content-length': '14' } });
    const big = await fetch(`http://127.0.0.1:${hookPort}/x`, {
      method: 'POST',
      body: 'x'.repeat(2 * 1024 * 1024),
    }).catch(() => undefined);
    expect(big === undefined || big.status === 413).toBe(true);
  });

  it('the tail engine (aliased with engine_module) fires matching new lines only', async () => {
    await waitFor(() => c.master!.out.includes('engine-errors_only started'));
    await new Promise((r) => setTimeout(r, 200));
    appendFileSync(logFile, 'INFO all good\nERROR disk full\nINFO still fine\n');
    const ev = await waitFor((e) => e.tag === 'tsalt/engines/tail/app.log');
    expect(ev?.data).toMatchObject({ path: logFile, line: 'ERROR disk full' });
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.filter((e) => e.tag === 'tsalt/engines/tail/app.log')).toHaveLength(1);
  });

  it('an engine that does not exist is named in the log and the master keeps serving', async () => {
    await waitFor(() => c.master!.out.includes('no_such_engine'));
    expect(c.master!.out).toContain("'no_such_engine' is not available");
    const r = await c.salt(['*', 'test.ping']);
    expect(r.stderr + r.stdout).toContain('No minions matched the target'); // the master answered
  });
});

describe('a defineProcess value in master.config.ts', () => {
  const c = new Cluster();
  const runs = join(c.root, 'ts-proc-runs');
  const stopped = join(c.root, 'ts-proc-stopped');
  // the first run throws only once the test listens, so its restart event cannot come too early
  const listening = join(c.root, 'ts-proc-listening');
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    await c.writeMasterConfig();
    const index = JSON.stringify(join(REPO, 'dist/kernel/index.js'));
    // the code config takes the YAML options the cluster wrote (one `key: <json>` a line)
    writeFileSync(
      join(c.confDir, 'master.config.ts'),
      `import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { defineConfig, defineProcess } from ${index};

const base: Record<string, unknown> = Object.fromEntries(
  readFileSync(${JSON.stringify(join(c.confDir, 'master'))}, 'utf8').split('\\n').filter(Boolean)
    .map((l: string) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))]),
);
const runs = ${JSON.stringify(runs)};

export default defineConfig({
  ...base,
  ext_processes: [
    defineProcess({
      name: 'ts-proc',
      async start(ctx) {
        appendFileSync(runs, 'x');
        const run = readFileSync(runs, 'utf8').length;
        await ctx.fire('acme/ts-proc/started', { run, ret_port: ctx.opts.ret_port, name: ctx.name });
        if (run === 1) {
          for (let i = 0; i < 1200 && !existsSync(${JSON.stringify(listening)}); i++)
            await new Promise((r) => setTimeout(r, 50));
          throw new Error('ts-proc first run fails');
        }
        const stream = ctx.listen(['acme/ts-proc/ping']);
        void (async () => {
          for await (const ev of stream) await ctx.fire('acme/ts-proc/pong', { n: ev.data.n, run });
        })();
        return () => stream.close();
      },
      stop(ctx) {
        appendFileSync(${JSON.stringify(stopped)}, \`stopped \${ctx.name} \${ctx.signal.aborted}\\n\`);
      },
    }),
  ],
});
`,
    );
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), [
      'acme/',
      'tsalt/',
    ]);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    writeFileSync(listening, '');
  }, 60_000);
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function waitFor(pred: (e: SaltEvent) => boolean, ms = 15_000): Promise<SaltEvent | undefined> {
    for (let t = 0; t < ms; t += 25) {
      const ev = seen.find(pred);
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    return undefined;
  }

  it('starts with the config and a bus client, is restarted after it throws, and stop runs on shutdown', async () => {
    // the first run throws after it fired: the master restarts it, with an event
    const restart = await waitFor((e) => e.tag === 'tsalt/process/process-ts-proc/restart');
    expect(restart?.data).toMatchObject({ name: 'process-ts-proc', exit_code: 1, restarts: 1 });
    expect(c.master!.out).toContain('process-ts-proc failed: ts-proc first run fails');
    const second = await waitFor((e) => e.tag === 'acme/ts-proc/started' && e.data.run === 2);
    expect(second?.data).toMatchObject({ ret_port: c.retPort, name: 'ts-proc' });
    expect(readFileSync(runs, 'utf8')).toBe('xx');
    // a bus client both ways: it hears an event fired here and answers
    const { EventFirer } = await import('../../kernel/bus/event-bus.js');
    const firer = new EventFirer(masterEventAddresses(join(c.root, 'var/run/salt/master')));
    let pong: SaltEvent | undefined;
    for (let i = 0; i < 40 && !pong; i++) {
      firer.fire('acme/ts-proc/ping', { n: i });
      pong = await waitFor((e) => e.tag === 'acme/ts-proc/pong', 250);
    }
    await firer.close();
    expect(pong?.data).toMatchObject({ run: 2 });
    expect(existsSync(stopped)).toBe(false);
    await c.master!.stop();
    expect(readFileSync(stopped, 'utf8')).toBe('stopped ts-proc true\n');
  }, 60_000);
});
