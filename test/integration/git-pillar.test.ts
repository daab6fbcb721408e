/**
 * git_pillar end to end: a real master compiles pillar from a real git repository (file://)
 * for real minions; each minion's secret reaches only that minion (not the other, the bus, a
 * log); `salt-run git_pillar.update` fetches a new commit that `saltutil.refresh_pillar` then
 * brings; a remote whose URL holds a password and cannot be fetched is logged without it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { Cluster } from '../../tools/local-cluster.js';

const SECRET_A = 'gitpillar-alpha-5e1c';
const SECRET_B = 'gitpillar-bravo-77d0';
const URL_PASSWORD = 'url-password-0b9f';

const srv = mkdtempSync(join(tmpdir(), 'tsalt-gitpillar-it-'));
const repo = join(srv, 'pillar-repo');
const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: gitEnv, stdio: 'pipe' });

function commit(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, rel)), { recursive: true });
    writeFileSync(join(repo, rel), text);
  }
  git('add', '-A');
  git('commit', '-qm', 'c');
}

describe('git_pillar: compiled on the master from git, private to each minion', () => {
  const down = `http://deploy:${URL_PASSWORD}@127.0.0.1:9/pillar.git`;
  const c = new Cluster({
    quiet: true,
    master: {
      pillar_roots: { base: [join(srv, 'empty')] },
      ext_pillar: [{ git: [`master file://${repo}`, { [`master ${down}`]: [{ name: 'down' }] }] }],
      git_pillar_update_interval: 3600,
      log_level_logfile: 'debug',
    },
  });
  let events: EventListener;
  const seen: SaltEvent[] = [];

  beforeAll(async () => {
    mkdirSync(join(srv, 'empty'), { recursive: true });
    mkdirSync(repo, { recursive: true });
    git('init', '-q', '-b', 'master');
    commit({
      'top.sls':
        "base:\n  '*':\n    - common\n  alpha:\n    - secrets.alpha\n  bravo:\n    - secrets.bravo\n",
      'common.sls': 'version: 1\nwho: {{ grains.id }}\n',
      'secrets/alpha.sls': `secret: ${SECRET_A}\n`,
      'secrets/bravo.sls': `secret: ${SECRET_B}\n`,
    });
    await c.startMaster();
    events = new EventListener(masterEventAddresses(join(c.root, 'var/run/salt/master')), ['']);
    await events.ready();
    void (async () => {
      for await (const ev of events) seen.push(ev);
    })();
    await Promise.all([c.startMinion('alpha'), c.startMinion('bravo')]);
  }, 60_000);
  afterAll(async () => {
    events?.close();
    await c.stop();
    rmSync(srv, { recursive: true, force: true });
  });

  it('each minion gets its own secret from the repository, and no other', async () => {
    const r = await c.saltJson(['*', 'pillar.items']);
    expect(r.data.alpha).toEqual({ version: 1, who: 'alpha', secret: SECRET_A });
    expect(r.data.bravo).toEqual({ version: 1, who: 'bravo', secret: SECRET_B });
    await new Promise((res) => setTimeout(res, 500));
    // pillar.items returns are the owners' own; the bus carries them only as those returns
    const leaks = seen.filter((e) => {
      const text = JSON.stringify(e);
      const owner = (e.data as { id?: string }).id;
      return (
        (text.includes(SECRET_A) && owner !== 'alpha') ||
        (text.includes(SECRET_B) && owner !== 'bravo') ||
        (text.includes('secret') && !e.tag.includes('/ret/'))
      );
    });
    expect(leaks.map((e) => e.tag)).toEqual([]);
    const log = readFileSync(join(c.root, 'master.log'), 'utf8');
    expect(log).not.toContain(SECRET_A);
    expect(log).not.toContain(SECRET_B);
  });

  it('the unreachable remote is logged with its code and without the password in its URL', () => {
    const log = readFileSync(join(c.root, 'master.log'), 'utf8');
    expect(log).toContain('PILLAR_ERR_GIT_REMOTE');
    expect(log).toContain('deploy:***@127.0.0.1:9');
    expect(log).not.toContain(URL_PASSWORD);
  });

  it('salt-run git_pillar.update fetches a new commit; refresh_pillar brings it', async () => {
    commit({ 'common.sls': 'version: 2\nwho: {{ grains.id }}\n' });
    const r = await c.saltRun(['--out', 'json', 'git_pillar.update']);
    expect(JSON.parse(r.stdout)).toEqual({
      [`master file://${repo}`]: true,
      'master http://deploy:***@127.0.0.1:9/pillar.git': false,
    });
    expect(r.stdout + r.stderr).not.toContain(URL_PASSWORD);
    await c.saltJson(['alpha', 'saltutil.refresh_pillar', 'wait=True']);
    const after = await c.saltJson(['alpha', 'pillar.item', 'version']);
    expect(after.data.alpha).toEqual({ version: 2 });
    const none = await c.saltRun(['--out', 'json', 'git_pillar.update', 'repo=nosuch']);
    expect(none.stdout + none.stderr).toContain('Specified git branch/repo not found in ext_pillar config');
    expect(readFileSync(join(c.root, 'master.log'), 'utf8')).not.toContain(URL_PASSWORD);
  });

  it('event.send with_pillar: the keys asked for from the minion’s own pillar (all with True)', async () => {
    const sent = await c.saltJson(['alpha', 'event.send', 'myco/gp/subset', 'with_pillar=["who", "nope"]']);
    expect(sent.data.alpha).toBe(true);
    const all = await c.saltJson(['bravo', 'event.send', 'myco/gp/all', 'with_pillar=True']);
    expect(all.data.bravo).toBe(true);
    const wait = async (tag: string) => {
      for (let i = 0; i < 100; i++) {
        const ev = seen.find((e) => e.tag === tag);
        if (ev) return (ev.data as { data: Record<string, unknown> }).data;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`no event ${tag}`);
    };
    expect((await wait('myco/gp/subset')).pillar).toEqual({ who: 'alpha' });
    expect((await wait('myco/gp/all')).pillar).toEqual({ version: 1, who: 'bravo', secret: SECRET_B }); // bravo's in-memory pillar: not refreshed
  });

  it('pillar.items compiles afresh on the master (pillarenv, pillar=); pillar.raw keeps the in-memory copy', async () => {
    commit({ 'common.sls': 'version: 3\nwho: {{ grains.id }}\n' });
    await c.saltRun(['--out', 'json', 'git_pillar.update']);
    const fresh = await c.saltJson(['bravo', 'pillar.items']);
    expect(fresh.data.bravo).toEqual({ version: 3, who: 'bravo', secret: SECRET_B });
    const raw = await c.saltJson(['bravo', 'pillar.raw']);
    expect(raw.data.bravo).toEqual({ version: 1, who: 'bravo', secret: SECRET_B });
    const over = await c.saltJson(['bravo', 'pillar.items', 'pillar={"version": 9, "extra": true}']);
    expect(over.data.bravo).toEqual({ version: 9, who: 'bravo', secret: SECRET_B, extra: true });
    // a pillarenv no remote serves: git_pillar compiles nothing for it
    const dev = await c.saltJson(['bravo', 'pillar.items', 'pillarenv=dev']);
    expect(dev.data.bravo).toEqual({});
    expect((await c.saltJson(['bravo', 'pillar.item', 'version'])).data.bravo).toEqual({ version: 1 });
  });
});
