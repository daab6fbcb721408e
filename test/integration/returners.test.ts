import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';

/** The JSON lines the fixture returner wrote, once `ready` holds (or the last read). */
async function linesOf(path: string, ready: (lines: Array<Record<string, unknown>>) => boolean) {
  let lines: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 100; i++) {
    lines = existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
    if (ready(lines)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return lines;
}

type Ret = { kind: string; tag: string; ret: { id: string; jid: string; fun: string; return: unknown } };

describe('returners and modules from an npm package (test/fixtures/tsalt-ext-acme)', () => {
  const files = mkdtempSync(join(tmpdir(), 'tsalt-acme-'));
  const minionFile = join(files, 'minion-returns.jsonl');
  const masterFile = join(files, 'master-events.jsonl');
  const c = new Cluster({
    master: {
      extensions: ['tsalt-ext-acme'],
      event_return: 'acme_file',
      event_return_whitelist: ['salt/job/*/new'],
      'acme_file.path': masterFile,
      'acme_file.tag': 'master',
    },
  });
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1', {
      extensions: ['tsalt-ext-acme'],
      'acme_file.path': minionFile,
      'alt.acme_file.tag': 'alternative',
    });
    await c.startMinion('m2');
  });
  afterAll(async () => {
    await c.stop();
    rmSync(files, { recursive: true, force: true });
  });

  it("runs the package's execution module on the minion that names the package", async () => {
    const r = await c.saltJson(['*', 'acme.hello', 'tsalt']);
    expect(r.data.m1).toBe('Hello, tsalt, from m1');
    expect(String(r.data.m2)).toContain("'acme.hello' is not available");
  });

  it('salt --return sends each return to the named returner on the minion', async () => {
    const r = await c.saltJson(['m1', 'test.ping', '--return', 'acme_file']);
    expect(r.data).toEqual({ m1: true });
    const lines = (await linesOf(minionFile, (ls) => ls.length >= 1)) as unknown as Ret[];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: 'return',
      tag: 'acme',
      ret: { id: 'm1', fun: 'test.ping', return: true },
    });
    expect(lines[0]!.ret.jid).toMatch(/^\d{20}$/);
  });

  it('ret_config and ret_kwargs choose the options; a missing or failing returner changes nothing else', async () => {
    const r = await c.saltJson([
      'm1',
      'test.echo',
      'hi',
      '--return',
      'acme_file,no_such_returner',
      '--return_config',
      'alt',
    ]);
    expect(r.data).toEqual({ m1: 'hi' });
    const other = join(files, 'kwargs.jsonl');
    const r2 = await c.saltJson([
      'm1',
      'test.echo',
      'there',
      '--return',
      'acme_file',
      '--return_kwargs',
      `{path: ${other}}`,
    ]);
    expect(r2.data).toEqual({ m1: 'there' });
    const lines = (await linesOf(minionFile, (ls) => ls.length >= 2)) as unknown as Ret[];
    expect(lines[1]).toMatchObject({ tag: 'alternative', ret: { fun: 'test.echo', return: 'hi' } });
    const moved = (await linesOf(other, (ls) => ls.length >= 1)) as unknown as Ret[];
    expect(moved[0]).toMatchObject({ tag: 'acme', ret: { return: 'there' } });
    await linesOf(minionFile, () => c.minions.get('m1')!.out.includes('no_such_returner'));
    expect(c.minions.get('m1')!.out).toContain('Returner no_such_returner.returner could not be loaded');
  });

  it('bad options are refused with the returner named, and the job still returns', async () => {
    const r = await c.saltJson([
      'm1',
      'test.echo',
      'x',
      '--return',
      'acme_file',
      '--return_kwargs',
      '{path: 5}',
    ]);
    expect(r.data).toEqual({ m1: 'x' });
    await linesOf(minionFile, () =>
      c.minions.get('m1')!.out.includes('invalid options for returner "acme_file"'),
    );
    expect(c.minions.get('m1')!.out).toContain('invalid options for returner "acme_file": path:');
  });

  it('event_return hands job events to the returner on the master, in batches', async () => {
    const r = await c.saltJson(['*', 'test.ping']);
    expect(r.code).toBe(0);
    const lines = await linesOf(masterFile, (ls) =>
      ls.some((l) => (l.tags as string[]).some((t) => t.endsWith('/new'))),
    );
    const tags = lines.flatMap((l) => l.tags as string[]);
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.every((t) => /^salt\/job\/\d{20}\/new$/.test(t))).toBe(true);
    expect(lines.every((l) => l.tag === 'master' && l.kind === 'events')).toBe(true);
  });

  it('a job runs while the returner that should get it is missing on the minion', async () => {
    const r = await c.saltJson(['m2', 'test.ping', '--return', 'acme_file']);
    expect(r.data).toEqual({ m2: true });
  });
});

describe('ext_job_cache: the load on the master, every return on the minions, not in the master cache', () => {
  const files = mkdtempSync(join(tmpdir(), 'tsalt-ext-'));
  const masterFile = join(files, 'loads.jsonl');
  const minionFile = join(files, 'returns.jsonl');
  const c = new Cluster({
    master: { extensions: ['tsalt-ext-acme'], ext_job_cache: 'acme_file', 'acme_file.path': masterFile },
  });
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1', { extensions: ['tsalt-ext-acme'], 'acme_file.path': minionFile });
  });
  afterAll(async () => {
    await c.stop();
    rmSync(files, { recursive: true, force: true });
  });

  it('salt sends the job to the ext_job_cache returner without being asked', async () => {
    const r = await c.saltJson(['m1', 'test.ping']);
    expect(r.data).toEqual({ m1: true });
    const loads = await linesOf(masterFile, (ls) => ls.length >= 1);
    expect(loads[0]).toMatchObject({ kind: 'load', fun: 'test.ping', minions: ['m1'] });
    const rets = (await linesOf(minionFile, (ls) => ls.length >= 1)) as unknown as Ret[];
    expect(rets[0]).toMatchObject({ kind: 'return', ret: { id: 'm1', fun: 'test.ping', return: true } });
    const { def, ctx } = await c.jobCache();
    expect(await def.getJid!(rets[0]!.ret.jid, ctx)).toEqual({});
  });
});
