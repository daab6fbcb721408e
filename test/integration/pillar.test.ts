/**
 * Pillar end to end: a real master compiles each minion's pillar from real pillar_roots and
 * ext_pillars in a temp dir and sends it privately; real minions read it with pillar.*, get
 * targeted by it (-I, -J, I@), refresh it; and one minion's secret is nowhere but in its own
 * pillar.* returns: not in the other's returns, on the event bus, in a log, in the job cache.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster, runCli } from '../../tools/local-cluster.js';

const SECRET_A = 'sekrit-of-alpha-7f3a';
const SECRET_B = 'sekrit-of-bravo-91cd';

function write(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** Every file under `dir` (recursively) whose bytes contain `text`. */
function filesContaining(dir: string, text: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p).includes(text)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

const srv = mkdtempSync(join(tmpdir(), 'tsalt-pillar-it-'));
const pillarRoot = join(srv, 'pillar');
const treeRoot = join(srv, 'tree');

describe('pillar: compiled on the master, private to each minion', () => {
  const c = new Cluster({
    quiet: true,
    master: {
      pillar_roots: { base: [pillarRoot] },
      nodegroups: { backends: 'L@bravo,charlie' },
      ext_pillar: [
        { file_tree: { root_dir: treeRoot } },
        { cmd_json: `echo '{"ext_json": {"for": "%s"}}'` },
        { cmd_yaml: { not_a: 'command' } },
      ],
      log_level_logfile: 'debug',
    },
  });
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    write(pillarRoot, {
      'top.sls': `base:
  '*':
    - common
  'alpha':
    - secrets.alpha
  'bravo':
    - secrets.bravo
  'role:frontend':
    - match: grain
    - web
  'alpha,charlie':
    - match: list
    - listed
  '^br.*':
    - match: pcre
    - pcre
  'G@role:backend and not alpha':
    - match: compound
    - compound
  'backends':
    - match: nodegroup
    - nodegroup
  '127.0.0.0/8':
    - match: ipcidr
    - loopback
  'bravo*':
    - broken
    - nothere
`,
      'common.sls': "common:\n  motd: '{{ grains.id }} says hi'\n  list: [1, 2]\n",
      'secrets/alpha.sls': `secret: ${SECRET_A}\nteam: ops\nalpha_only: true\n`,
      'secrets/bravo.sls': `secret: ${SECRET_B}\nteam: dev\n`,
      'web.sls': 'matched_grain: true\n',
      'listed.sls': 'matched_list: true\n',
      'pcre.sls': 'matched_pcre: true\n',
      'compound.sls': 'matched_compound: true\n',
      'nodegroup.sls': 'matched_nodegroup: true\n',
      'loopback.sls': 'matched_ipcidr: true\n',
      'broken.sls': `a: 1\nb: [oops ${SECRET_B}\n`,
    });
    write(treeRoot, { 'hosts/alpha/tree_key': 'from-file-tree\n' });
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['']);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    await Promise.all([
      c.startMinion('alpha', { grains: { role: 'frontend' }, log_level_logfile: 'debug' }),
      c.startMinion('bravo', { grains: { role: 'backend' }, log_level_logfile: 'debug' }),
    ]);
  }, 60_000);
  afterAll(async () => {
    events?.close();
    await c.stop();
    rmSync(srv, { recursive: true, force: true });
  });

  const items = async (id: string): Promise<Record<string, unknown>> => {
    const r = await c.saltJson([id, 'pillar.items']);
    return r.data[id] as Record<string, unknown>;
  };

  // first, before any pillar.* call of bravo's own puts its secret in its own returns
  it("bravo's secret is in no return of alpha's, no event, no log line, no job cache file", async () => {
    // jobs on both minions that do not read the pillar, and alpha's own pillar reads
    await c.saltJson(['*', 'test.ping']);
    await c.saltJson(['*', 'grains.items']);
    await c.saltJson(['*', 'saltutil.refresh_pillar']);
    const mine = await c.saltJson(['alpha', 'pillar.items']);
    expect(JSON.stringify(mine.data)).toContain(SECRET_A);
    expect(JSON.stringify(mine.data)).not.toContain(SECRET_B);
    await new Promise((r) => setTimeout(r, 500));
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.filter((e) => JSON.stringify(e).includes(SECRET_B)).map((e) => e.tag)).toEqual([]);
    // logs at debug level: the master's and both minions'
    const logs = [
      join(c.root, 'master.log'),
      join(c.root, 'minions/alpha/minion.log'),
      join(c.root, 'minions/bravo/minion.log'),
    ];
    for (const f of logs) expect(readFileSync(f, 'utf8').length).toBeGreaterThan(0);
    expect(logs.filter((f) => readFileSync(f, 'utf8').includes(SECRET_B))).toEqual([]);
    expect(logs.filter((f) => readFileSync(f, 'utf8').includes(SECRET_A))).toEqual([]);
    // the job cache (alpha's own pillar.items return is the only place alpha's secret may be)
    expect(filesContaining(join(c.root, 'var/cache/salt/master/jobs'), SECRET_B)).toEqual([]);
    // the minions' own caches (proc files of running jobs) hold neither secret of the other
    expect(filesContaining(join(c.root, 'minions/alpha'), SECRET_B)).toEqual([]);
  });

  it.each([
    ['glob', 'alpha', 'alpha_only', true],
    ['grain', 'alpha', 'matched_grain', true],
    ['list', 'alpha', 'matched_list', true],
    ['pcre', 'bravo', 'matched_pcre', true],
    ['compound', 'bravo', 'matched_compound', true],
    ['nodegroup', 'bravo', 'matched_nodegroup', true],
    ['ipcidr', 'alpha', 'matched_ipcidr', true],
  ])('top matcher %s: %s gets %s, the other minion does not', async (_kind, id, key, value) => {
    const other = id === 'alpha' ? 'bravo' : 'alpha';
    const r = await c.saltJson(['-L', `${id},${other}`, 'pillar.item', key]);
    expect((r.data[id] as Record<string, unknown>)[key]).toEqual(value);
    if (key !== 'matched_ipcidr') expect((r.data[other] as Record<string, unknown>)[key]).toBe('');
  });

  it('pillar.items: SLS (rendered with Jinja), ext_pillars, and _errors as Salt reports them', async () => {
    const a = await items('alpha');
    expect(a.common).toEqual({ motd: 'alpha says hi', list: [1, 2] });
    expect(a.tree_key).toBe('from-file-tree');
    expect(a.ext_json).toEqual({ for: 'alpha' });
    // the malformed cmd_yaml entry fails alone: the other ext_pillars are there
    expect(a._errors).toEqual(['Failed to load ext_pillar cmd_yaml: expected a command string']);
    const b = await items('bravo');
    expect(b.team).toBe('dev');
    expect(b.ext_json).toEqual({ for: 'bravo' });
    expect(b._errors).toEqual([
      "Rendering SLS 'broken' failed. Please see master log for details.",
      "Specified SLS 'nothere' in environment 'base' is not available on the salt master",
      'Failed to load ext_pillar cmd_yaml: expected a command string',
    ]);
    // the master log names the file and line of the YAML error (not its text)
    const log = readFileSync(join(c.root, 'master.log'), 'utf8');
    expect(log).toMatch(new RegExp(`${join(pillarRoot, 'broken.sls')}, line \\d+, column \\d+: `));
  });

  it('pillar.get (paths, default, merge), item, raw, ls, keys, obfuscate, fetch, filter_by', async () => {
    const call = async (...args: string[]) => (await c.saltJson(['alpha', ...args])).data.alpha;
    expect(await call('pillar.get', 'common:motd')).toBe('alpha says hi');
    expect(await call('pillar.get', 'common|list', 'delimiter=|')).toEqual([1, 2]);
    expect(await call('pillar.get', 'nope:nothing', 'default=fallback')).toBe('fallback');
    expect(await call('pillar.get', 'common', 'default={"extra": 1}', 'merge=True')).toEqual({
      extra: 1,
      motd: 'alpha says hi',
      list: [1, 2],
    });
    expect(await call('pillar.fetch', 'team')).toBe('ops');
    expect(await call('pillar.item', 'team', 'common:list')).toEqual({ team: 'ops', 'common:list': [1, 2] });
    expect(await call('pillar.raw', 'team')).toBe('ops');
    expect(await call('pillar.keys', 'common')).toEqual(['motd', 'list']);
    expect(((await call('pillar.ls')) as string[]).sort()).toContain('secret');
    expect(await call('pillar.obfuscate')).toMatchObject({
      secret: '<str>',
      common: { list: ['<int>', '<int>'] },
    });
    expect(await call('pillar.filter_by', '{"ops": "O", "dev": "D"}', 'team')).toBe('O');
  });

  it('salt-call fetches its pillar from the master before the function runs', async () => {
    const r = await runCli('salt-call', [
      '-c',
      c.minionConfDir('bravo'),
      '--out',
      'json',
      'pillar.get',
      'team',
    ]);
    expect(JSON.parse(r.stdout)).toEqual({ local: 'dev' });
  });

  it('-I, -J and I@ target by the pillar the master compiled', async () => {
    expect((await c.saltJson(['-I', 'team:ops', 'test.ping'])).data).toEqual({ alpha: true });
    expect((await c.saltJson(['-J', 'team:d.v', 'test.ping'])).data).toEqual({ bravo: true });
    expect((await c.saltJson(['-C', 'I@team:ops or I@matched_pcre:True', 'test.ping'])).data).toEqual({
      alpha: true,
      bravo: true,
    });
  });

  it('salt-run pillar.show_pillar and pillar.show_top', async () => {
    const shown = await c.saltRun(['--out', 'json', 'pillar.show_pillar', 'alpha']);
    expect(JSON.parse(shown.stdout)).toMatchObject({ secret: SECRET_A, matched_grain: true });
    const top = await c.saltRun(['--out', 'json', 'pillar.show_top']);
    expect(JSON.parse(top.stdout).base['role:frontend']).toEqual([{ match: 'grain' }, 'web']);
  });

  it('saltutil.refresh_pillar fetches the new pillar and fires minion_pillar_refresh_complete', async () => {
    write(pillarRoot, { 'secrets/alpha.sls': `secret: ${SECRET_A}\nteam: sre\nalpha_only: true\n` });
    expect((await c.saltJson(['alpha', 'pillar.get', 'team'])).data.alpha).toBe('ops');
    expect((await c.saltJson(['alpha', 'saltutil.refresh_pillar'])).data.alpha).toBe(true);
    expect((await c.saltJson(['alpha', 'pillar.get', 'team'])).data.alpha).toBe('sre');
    expect(
      seen.some(
        (e) => e.tag === 'minion_pillar_refresh_complete' && (e.data as { id?: string }).id === 'alpha',
      ),
    ).toBe(true);
    // the master's data cache follows: -I and cache.pillar see the new value
    expect((await c.saltJson(['-I', 'team:sre', 'test.ping'])).data).toEqual({ alpha: true });
    const cached = await c.saltRun(['--out', 'json', 'cache.pillar', 'alpha']);
    expect(JSON.parse(cached.stdout).alpha.team).toBe('sre');
  });
});
