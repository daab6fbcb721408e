/**
 * git.latest and archive.extracted through real daemons: a master serving an SLS and a tar.gz
 * from its file_roots, a minion cloning a local file:// repository and extracting the archive
 * from salt://, with test=True predictions, the changes of a first apply and the quiet second one.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { Cluster } from '../../tools/local-cluster.js';

type Entry = Record<string, unknown> & {
  result: boolean | null;
  comment: string;
  changes: Record<string, unknown>;
};

const ready = which('git') !== null && which('tar') !== null;

describe.skipIf(!ready)('git.latest and archive.extracted through a master and a minion', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const srv = join(c.root, 'srv', 'salt');
  const work = join(c.root, 'work');
  const repo = join(work, 'remote.git');
  const url = `file://${repo}`;
  const checkout = join(work, 'checkout');
  const dest = join(work, 'app');
  let head = '';

  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd,
      encoding: 'utf8',
    }).trim();
  const apply = async (...args: string[]) => {
    const r = await c.saltJson(['m1', 'state.apply', 'deploy', ...args]);
    return { code: r.code, ret: r.data.m1 as Record<string, Entry> };
  };
  const gitKey = `git_|-code_|-${url}_|-latest`;
  const arcKey = `archive_|-app_|-${dest}_|-extracted`;

  beforeAll(async () => {
    const src = join(work, 'src');
    mkdirSync(join(src, 'bundle'), { recursive: true });
    git(src, 'init', '-q', '-b', 'main');
    writeFileSync(join(src, 'README'), 'hello\n');
    git(src, 'add', 'README');
    git(src, 'commit', '-qm', 'first');
    git(work, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
    git(src, 'push', '-q', repo, 'main');
    head = git(src, 'rev-parse', 'HEAD');
    writeFileSync(join(src, 'bundle', 'app.conf'), 'port: 80\n');
    mkdirSync(srv, { recursive: true });
    execFileSync('tar', ['czf', join(srv, 'app.tar.gz'), 'bundle'], { cwd: src });
    writeFileSync(
      join(srv, 'deploy.sls'),
      [
        'code:',
        '  git.latest:',
        `    - name: ${url}`,
        `    - target: ${checkout}`,
        'app:',
        '  archive.extracted:',
        `    - name: ${dest}`,
        '    - source: salt://app.tar.gz',
        '    - require:',
        '      - git: code',
        '',
      ].join('\n'),
    );
    Object.assign(master, { file_roots: { base: [srv] } });
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(() => c.stop());

  it('predicts under test=True and changes nothing', async () => {
    const { code, ret } = await apply('test=True');
    expect(code).toBe(0);
    expect(ret[gitKey]).toMatchObject({
      result: null,
      comment: `Repository ${url} would be cloned to ${checkout}`,
      changes: { new: `${url} => ${checkout}` },
    });
    expect(ret[arcKey]).toMatchObject({
      result: null,
      comment:
        'Archive salt://app.tar.gz would be cached (if necessary) and checked to discover if extraction is needed',
    });
  }, 60_000);

  it('clones and extracts on the first apply, then reports both present', async () => {
    const first = await apply();
    expect(first.code).toBe(0);
    expect(first.ret[gitKey]).toMatchObject({
      result: true,
      comment: `${url} cloned to ${checkout}`,
      changes: { new: `${url} => ${checkout}`, revision: { old: null, new: head } },
    });
    expect(first.ret[arcKey]).toMatchObject({
      result: true,
      comment: `salt://app.tar.gz extracted to ${dest}/, due to absence of one or more files/dirs. Output was trimmed to False number of lines`,
    });
    expect(readFileSync(join(dest, 'bundle', 'app.conf'), 'utf8')).toBe('port: 80\n');
    expect(readFileSync(join(checkout, 'README'), 'utf8')).toBe('hello\n');
    const second = await apply();
    expect(second.code).toBe(0);
    expect(second.ret[gitKey]).toMatchObject({
      result: true,
      changes: {},
      comment: `Repository ${checkout} is up-to-date`,
    });
    expect(second.ret[arcKey]).toMatchObject({
      result: true,
      changes: {},
      comment: 'All files in archive are already present',
    });
  }, 90_000);
});
