import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster, type RunResult, runCli } from '../../tools/local-cluster.js';

function saltCall(confDir: string, args: string[], timeoutMs = 30_000): Promise<RunResult> {
  return runCli('salt-call', ['-c', confDir, ...args], timeoutMs);
}

function writeMinionConfig(dir: string, conf: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'minion'),
    `${Object.entries(conf)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join('\n')}\n`,
  );
}

describe('salt-call', () => {
  const c = new Cluster();
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['salt/job/']);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
  });
  afterAll(async () => {
    events.close();
    await c.stop();
  });

  async function returnEvent(id: string, fun: string): Promise<SaltEvent> {
    for (let i = 0; i < 200; i++) {
      const ev = seen.find(
        (e) => /^salt\/job\/\d{20}\/ret\//.test(e.tag) && e.data.id === id && e.data.fun === fun,
      );
      if (ev) return ev;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no return event for ${id} ${fun}: ${seen.map((e) => e.tag).join(', ')}`);
  }

  async function cachedReturn(jid: string, id: string): Promise<Record<string, unknown>> {
    const { def, ctx } = await c.jobCache();
    return ((await def.getJid!(jid, ctx))[id] ?? {}) as Record<string, unknown>;
  }

  it('prints under local: and returns through the master while the minion daemon runs', async () => {
    const r = await saltCall(c.minionConfDir('m1'), ['test.ping']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('local:\n    True\n');
    expect(r.code).toBe(0);
    const ev = await returnEvent('m1', 'test.ping');
    const jid = ev.tag.split('/')[2]!;
    expect(ev.data).toMatchObject({ cmd: '_return', id: 'm1', jid, return: true, retcode: 0, fun_args: [] });
    expect((await cachedReturn(jid, 'm1')).return).toBe(true);
  });

  it('passes args as the salt CLI parses them; the master sees fun_args as typed', async () => {
    const r = await saltCall(c.minionConfDir('m1'), ['--out', 'json', 'test.arg', 'a', '1', 'k=v']);
    expect(r.code).toBe(0);
    const local = (JSON.parse(r.stdout) as { local: { args: unknown[]; kwargs: Record<string, unknown> } })
      .local;
    expect(local.args).toEqual(['a', 1]);
    expect(local.kwargs.__pub_tgt).toBe('salt-call');
    const ev = await returnEvent('m1', 'test.arg');
    // as Salt's caller: its load's fun_args are the words as typed (opts["arg"]), not the parsed ones
    expect(ev.data.fun_args).toEqual(['a', '1', 'k=v']);
  });

  it('works with no minion daemon: signs in with the minion keys by itself', async () => {
    const dir = join(c.root, 'minions', 'solo', 'etc');
    writeMinionConfig(dir, {
      id: 'solo',
      root_dir: join(c.root, 'minions', 'solo'),
      master: '127.0.0.1',
      master_port: c.retPort,
    });
    const r = await saltCall(dir, ['test.echo', 'hello']);
    expect(r.stdout).toBe('local:\n    hello\n');
    expect(r.code).toBe(0);
    const ev = await returnEvent('solo', 'test.echo');
    expect((await cachedReturn(ev.tag.split('/')[2]!, 'solo')).return).toBe('hello');
    expect(existsSync(join(c.root, 'minions', 'solo', 'etc/salt/pki/minion/minion.pem'))).toBe(true);
    expect(existsSync(join(c.root, 'minions', 'solo', 'etc/salt/pki/minion/minion_master.pub'))).toBe(true);
  });

  it("exits 1 on a failed function, or with the function's retcode with --retcode-passthrough", async () => {
    const plain = await saltCall(c.minionConfDir('m1'), ['test.retcode', '3']);
    expect(plain.code).toBe(1);
    const through = await saltCall(c.minionConfDir('m1'), ['--retcode-passthrough', 'test.retcode', '3']);
    expect(through.code).toBe(3);
    const ev = await returnEvent('m1', 'test.retcode');
    expect(ev.data.retcode).toBe(3);
  });

  it('--local runs with no master at all', async () => {
    const dir = join(c.root, 'minions', 'nomaster', 'etc');
    writeMinionConfig(dir, {
      id: 'nomaster',
      root_dir: join(c.root, 'minions', 'nomaster'),
      master: '127.0.0.1',
      master_port: 1,
    });
    const r = await saltCall(dir, ['--local', 'test.ping']);
    expect(r.stdout).toBe('local:\n    True\n');
    expect(r.code).toBe(0);
    expect(existsSync(join(c.root, 'minions', 'nomaster', 'etc/salt/pki/minion/minion.pem'))).toBe(false);
  });

  it('an unreachable master is a clear error after auth_timeout, and nothing runs', async () => {
    const dir = join(c.root, 'minions', 'lost', 'etc');
    writeMinionConfig(dir, {
      id: 'lost',
      root_dir: join(c.root, 'minions', 'lost'),
      master: '127.0.0.1',
      master_port: 1,
      auth_timeout: 1,
    });
    const started = Date.now();
    const r = await saltCall(dir, ['test.ping']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Attempt to authenticate with the salt master failed');
    expect(r.stderr).toContain('SALT_ERR_AUTH_UNREACHABLE');
  });

  it('an unknown function: the message on stderr and exit 255, as Salt', async () => {
    const r = await saltCall(c.minionConfDir('m1'), ['--local', 'test.nope']);
    expect(r.code).toBe(255);
    expect(r.stderr).toBe("'test.nope' is not available.\n");
  });
});
