/**
 * The mine end to end: real minions run their `mine_functions` (from the minion config and from
 * the pillar, aliases and arguments) when they start, the master keeps the data in its minion
 * data cache, and other minions read it with `mine.get` (glob, grain and compound targets, one or
 * several functions), filtered by the master's `mine_get` ACL and by a minion's `allow_tgt`.
 * `mine.send`, `mine.delete`, `mine.flush`, the runners, a function that throws (the last good
 * data stays), and malformed loads from a raw client (Salt's answers; the master keeps serving).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';
import { rawMinion } from '../support/raw-minion.js';

const srv = mkdtempSync(join(tmpdir(), 'tsalt-mine-it-'));
const pillarRoot = join(srv, 'pillar');
const contentFile = join(srv, 'content.txt');

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 45_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('mine: minions share data through the master', () => {
  const c = new Cluster({
    master: {
      id: 'tsmaster',
      pillar_roots: { base: [pillarRoot] },
      mine_get: {
        alpha: ['.*'],
        bravo: ['grains\\.item', 'role_alias', 'pillar_fun', 'secret_echo', 'sent'],
        rawclient: ['.*'],
        tsmaster: ['.*'],
      },
    },
    minion: {
      mine_functions: {
        'grains.item': ['role'],
        role_alias: [{ mine_function: 'grains.get' }, 'role'],
      },
    },
  });
  const saltOf = async (id: string, args: string[]): Promise<unknown> =>
    (await c.saltJson([id, ...args])).data[id];
  const runJson = async (args: string[]): Promise<unknown> => {
    const r = await c.saltRun([...args, '--out', 'json']);
    return JSON.parse(r.stdout) as unknown;
  };

  beforeAll(async () => {
    mkdirSync(pillarRoot, { recursive: true });
    writeFileSync(join(pillarRoot, 'top.sls'), "base:\n  'bravo':\n    - mine\n");
    writeFileSync(
      join(pillarRoot, 'mine.sls'),
      'mine_functions:\n  pillar_fun:\n    - mine_function: test.echo\n    - from-pillar\n',
    );
    writeFileSync(contentFile, 'good data');
    await c.startMaster();
    await Promise.all([
      c.startMinion('alpha', {
        grains: { role: 'web' },
        mine_functions: {
          'grains.item': ['role'],
          role_alias: [{ mine_function: 'grains.get' }, 'role'],
          file_content: [{ mine_function: 'file.read' }, contentFile],
        },
      }),
      c.startMinion('bravo', { grains: { role: 'db' } }),
      // its start-up update returns to the master as a scheduled job
      c.startMinion('charlie', {
        mine_return_job: true,
        mine_functions: { charlie_fun: [{ mine_function: 'test.echo' }, 'from-charlie'] },
      }),
      // no update at all
      c.startMinion('delta', { mine_enabled: false }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await c.stop();
    rmSync(srv, { recursive: true, force: true });
  });

  it("the start-up update puts each minion's mine_functions (config and pillar) in the master's cache", async () => {
    const cached = (await until(
      'cache.mine',
      () => runJson(['cache.mine']),
      (v) => {
        const m = v as Record<string, Record<string, unknown>>;
        return Boolean(m.alpha?.file_content && m.bravo?.pillar_fun);
      },
    )) as Record<string, Record<string, unknown>>;
    expect(cached.alpha).toEqual({
      'grains.item': { role: 'web' },
      role_alias: 'web',
      file_content: 'good data',
    });
    expect(cached.bravo).toEqual({
      'grains.item': { role: 'db' },
      role_alias: 'db',
      pillar_fun: 'from-pillar',
    });
    expect(cached.delta).toEqual({});
  });

  it("with mine_return_job the update's return reaches the master's job cache", async () => {
    const jobs = (await until(
      'jobs.list_jobs',
      () => runJson(['jobs.list_jobs', 'search_function=mine.update', 'search_target=charlie']),
      (v) => Object.keys(v as object).length > 0,
    )) as Record<string, { Function: string; Target: string }>;
    const [jid] = Object.keys(jobs);
    expect(jobs[jid!]).toMatchObject({ Function: 'mine.update', Target: 'charlie' });
    expect(await runJson(['jobs.lookup_jid', jid!])).toEqual({ charlie: true });
    expect(await saltOf('alpha', ['mine.get', 'charlie', 'charlie_fun'])).toEqual({
      charlie: 'from-charlie',
    });
  });

  it('mine.get from another minion: glob, grain and compound targets, one or several functions', async () => {
    expect(await saltOf('bravo', ['mine.get', '*', 'role_alias'])).toEqual({ alpha: 'web', bravo: 'db' });
    expect(await saltOf('bravo', ['mine.get', 'role:web', 'grains.item', 'grain'])).toEqual({
      alpha: { role: 'web' },
    });
    expect(
      await saltOf('alpha', ['mine.get', 'G@role:db and not L@alpha', 'role_alias', 'compound']),
    ).toEqual({
      bravo: 'db',
    });
    expect(await saltOf('alpha', ['mine.get', 'al*', 'role_alias,grains.item'])).toEqual({
      role_alias: { alpha: 'web' },
      'grains.item': { alpha: { role: 'web' } },
    });
    expect(await saltOf('alpha', ['mine.get', '*', 'role_alias', 'exclude_minion=True'])).toEqual({
      bravo: 'db',
    });
    expect(await runJson(['mine.get', '*', 'pillar_fun'])).toEqual({ bravo: 'from-pillar' });
  });

  it('salt-call on a minion reads the mine through its master too', async () => {
    const r = await runCli('salt-call', [
      '-c',
      c.minionConfDir('bravo'),
      '--out',
      'json',
      'mine.get',
      '*',
      'role_alias',
    ]);
    expect(JSON.parse(r.stdout)).toEqual({ local: { alpha: 'web', bravo: 'db' } });
  });

  it("salt['mine.get'](...) works from a Jinja template", async () => {
    const template =
      "{% set m = salt['mine.get']('*', 'role_alias') %}roles: {{ m | dictsort | map('last') | list | json }}";
    expect(
      await saltOf('alpha', ['slsutil.renderer', `string=${template}`, 'default_renderer=jinja|yaml']),
    ).toEqual({ roles: ['web', 'db'] });
  });

  it("the master's mine_get ACL refuses what it does not allow", async () => {
    expect(await saltOf('alpha', ['mine.get', 'alpha', 'file_content'])).toEqual({ alpha: 'good data' });
    expect(await saltOf('bravo', ['mine.get', 'alpha', 'file_content'])).toEqual({});
    // of two functions asked for, only the allowed one answers
    expect(await saltOf('bravo', ['mine.get', 'alpha', 'file_content,role_alias'])).toEqual({
      role_alias: { alpha: 'web' },
    });
  });

  it('mine.send, with a minion-side allow_tgt that only the named minions pass', async () => {
    expect(await saltOf('bravo', ['mine.send', 'sent', 'mine_function=test.echo', 'hello'])).toBe(true);
    expect(await saltOf('alpha', ['mine.get', 'bravo', 'sent'])).toEqual({ bravo: 'hello' });
    expect(
      await saltOf('alpha', [
        'mine.send',
        'secret_echo',
        'mine_function=test.echo',
        'psst',
        'allow_tgt=alpha',
      ]),
    ).toBe(true);
    expect(await saltOf('alpha', ['mine.get', 'alpha', 'secret_echo'])).toEqual({ alpha: 'psst' });
    expect(await saltOf('bravo', ['mine.get', 'alpha', 'secret_echo'])).toEqual({});
  });

  it('a mine function that throws leaves the last good data', async () => {
    rmSync(contentFile);
    expect(await saltOf('alpha', ['mine.update'])).toBe(true);
    expect(await saltOf('alpha', ['mine.get', 'alpha', 'file_content'])).toEqual({ alpha: 'good data' });
    // the others were updated in the same run
    expect(await saltOf('alpha', ['mine.get', 'alpha', 'role_alias'])).toEqual({ alpha: 'web' });
  });

  it('mine.send of a function that does not exist is False, and the master keeps serving', async () => {
    expect(await saltOf('alpha', ['mine.send', 'no_such.function'])).toBe(false);
    expect(await saltOf('alpha', ['mine.get', 'alpha', 'no_such.function'])).toEqual({});
    expect(await saltOf('alpha', ['test.ping'])).toBe(true);
  });

  it('mine.valid lists the configured entries as Salt shows them', async () => {
    expect(await saltOf('alpha', ['mine.valid'])).toEqual({
      'grains.item': ['role'],
      role_alias: { 'grains.get': ['role'] },
      file_content: { 'file.read': [contentFile] },
    });
  });

  it('mine.delete removes one function, mine.flush all of them', async () => {
    expect(await saltOf('alpha', ['mine.delete', 'role_alias'])).toBe(true);
    expect(await saltOf('bravo', ['mine.get', '*', 'role_alias'])).toEqual({ bravo: 'db' });
    expect(await saltOf('bravo', ['mine.flush'])).toBe(true);
    expect(await saltOf('alpha', ['mine.get', '*', 'role_alias'])).toEqual({});
    const cached = (await runJson(['cache.mine'])) as Record<string, unknown>;
    expect(cached.bravo).toEqual({});
    expect(Object.keys(cached.alpha as object)).not.toContain('role_alias');
  });

  it("malformed mine loads from a raw client get Salt's answers; the master keeps running", async () => {
    const client = await rawMinion(c.root, c.retPort, { timeoutMs: 10_000 });
    const send = client.send;
    try {
      expect(await send({ cmd: '_mine' })).toEqual({});
      expect(await send({ cmd: '_mine', data: 'not a map' })).toBe(false);
      expect(await send({ cmd: '_mine_get', fun: 'x' })).toEqual({});
      expect(await send({ cmd: '_mine_get', tgt: '*', fun: 42 })).toEqual({});
      expect(await send({ cmd: '_mine_delete' })).toEqual({});
      // a target that does not parse: Salt's answer when a master function raises
      expect(await send({ cmd: '_mine_get', tgt: 'G@', fun: 'x', tgt_type: 'compound' })).toBe('');
      await c.master!.waitFor('malformed _mine load: "data" is not a mapping');
      // it may write its own mine, and only its own
      expect(await send({ cmd: '_mine', data: { raw: 1 } })).toBe(true);
      expect(await send({ cmd: '_mine_get', tgt: 'rawclient', fun: 'raw' })).toEqual({ rawclient: 1 });
      expect(await send({ cmd: '_mine_flush' })).toBe(true);
      expect(await send({ cmd: '_mine_flush' })).toBe(false);
    } finally {
      client.close();
    }
    expect(c.master!.alive).toBe(true);
    expect(await saltOf('alpha', ['test.ping'])).toBe(true);
  });
});
