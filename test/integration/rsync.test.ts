/**
 * The `rsync` execution module and `rsync.synchronized` through salt-call --local, on real
 * files with the real rsync program. Expectations: Salt 3006.18 on this machine (22 of 23 calls
 * identical in /tmp/lead14/rsync/cmp.py's sequence, byte counts aside).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { type RunResult, runCli } from '../../tools/local-cluster.js';

type RunAll = { retcode: number; stdout: string; stderr: string };
type StateRet = { result: boolean | null; changes: Record<string, string>; comment: string };

describe.skipIf(!which('rsync'))('rsync module and rsync.synchronized', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-rsync-'));
  const conf = join(root, 'conf');
  const src = join(root, 'src');
  const saltCall = (args: string[]): Promise<RunResult> =>
    runCli('salt-call', ['-c', conf, '--local', '--out', 'json', ...args], 60_000);
  const value = (r: RunResult): unknown => (JSON.parse(r.stdout) as { local: unknown }).local;
  const state = async (sls: string, ...more: string[]): Promise<StateRet> => {
    const r = await saltCall(['state.apply', sls, ...more]);
    return Object.values(value(r) as Record<string, StateRet>)[0] as StateRet;
  };
  const files = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

  beforeAll(() => {
    for (const d of ['conf', 'srv/tree/sub', 'src/a/b', 'dst']) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, 'srv/tree/one.txt'), 'one\n');
    writeFileSync(join(root, 'srv/tree/sub/two.txt'), 'two\n');
    writeFileSync(join(root, 'srv/file.txt'), 'file\n');
    for (const f of ['x.txt', 'y.log', 'a/b/z.txt', 'a/keep.txt']) writeFileSync(join(src, f), `${f}\n`);
    writeFileSync(join(root, 'rsyncd.conf'), '[mod]\n  path = /srv\n');
    const sls = (name: string, body: string) => writeFileSync(join(root, 'srv', `${name}.sls`), body);
    const tgt = join(root, 'tgt');
    sls('missing', `${join(root, 'nowhere')}:\n  rsync.synchronized:\n    - source: ${src}/\n`);
    sls('prep', `${tgt}:\n  rsync.synchronized:\n    - source: ${src}/\n    - prepare: True\n`);
    sls(
      'del',
      `${tgt}:\n  rsync.synchronized:\n    - source: ${src}/\n    - delete: True\n    - exclude: ["*.log"]\n`,
    );
    writeFileSync(
      join(conf, 'minion'),
      `id: rsync1\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${join(root, 'srv')}]}\nlog_level: quiet\n`,
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('version, and the config file or why it cannot be read', async () => {
    expect(value(await saltCall(['rsync.version']))).toMatch(/^\d+\.\d+/);
    expect(value(await saltCall(['rsync.config', `conf_path=${join(root, 'rsyncd.conf')}`]))).toBe(
      '[mod]\n  path = /srv\n',
    );
    const missing = await saltCall(['rsync.config', `conf_path=${join(root, 'nope.conf')}`]);
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toContain(`${join(root, 'nope.conf')} does not exist`);
    const dir = await saltCall(['rsync.config', `conf_path=${root}`]);
    expect(dir.stdout + dir.stderr).toContain(`Unable to read ${root}, path is a directory`);
  });

  it('copies with -avz, deletes and excludes; empty paths are refused', async () => {
    const first = value(await saltCall(['rsync.rsync', `${src}/`, join(root, 'dst')])) as RunAll;
    expect(first.retcode).toBe(0);
    expect(first.stdout).toMatch(/^sending incremental file list\nx\.txt\ny\.log\na\/\na\/keep\.txt\n/);
    writeFileSync(join(root, 'dst', 'extra.txt'), 'x');
    const dry = value(
      await saltCall([
        'rsync.rsync',
        `${src}/`,
        join(root, 'dst'),
        'delete=True',
        'exclude=["*.log","a/b"]',
        'dryrun=True',
      ]),
    ) as RunAll;
    expect(dry.stdout).toContain('deleting extra.txt');
    expect(dry.stdout).toContain('(DRY RUN)');
    expect(existsSync(join(root, 'dst', 'extra.txt'))).toBe(true);
    await saltCall(['rsync.rsync', `${src}/`, join(root, 'dst'), 'delete=True', 'exclude=["*.log","a/b"]']);
    expect(existsSync(join(root, 'dst', 'extra.txt'))).toBe(false);
    const ex = join(root, 'excl');
    writeFileSync(ex, '*.log\n');
    await saltCall(['rsync.rsync', `${src}/`, join(root, 'dst2'), `excludefrom=${ex}`, 'exclude=x.txt']);
    expect(files(join(root, 'dst2'))).toEqual(['a', 'a/b', 'a/b/z.txt', 'a/keep.txt', 'x.txt']);
    const empty = await saltCall(['rsync.rsync', '', '']);
    expect(empty.code).toBe(1);
    expect(empty.stdout + empty.stderr).toContain('Passed invalid arguments: src and dst cannot be empty.');
  });

  it('fetches a salt:// directory or file first, and cleans up after', async () => {
    await saltCall(['rsync.rsync', 'salt://tree', join(root, 'dst3')]);
    expect(files(join(root, 'dst3'))).toEqual(['tree', 'tree/one.txt', 'tree/sub', 'tree/sub/two.txt']);
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith('__salt.tmp.')).length;
    await saltCall(['rsync.rsync', 'salt://file.txt', `${join(root, 'dst4')}/`]);
    // Salt's mkstemp name is what rsync copies; the temporary file itself is removed
    expect(files(join(root, 'dst4'))).toEqual([expect.stringMatching(/^__salt\.tmp\.\w{8}$/)]);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith('__salt.tmp.')).length).toBe(before);
    const gone = await saltCall(['rsync.rsync', 'salt://nope', join(root, 'dst5')]);
    expect(gone.stdout + gone.stderr).toContain('salt://nope does not exist');
  });

  it('rsync.synchronized: a missing target, prepare, test=True, changes, then none', async () => {
    const tgt = join(root, 'tgt');
    expect(await state('missing')).toMatchObject({
      result: false,
      comment: `Destination directory ${join(root, 'nowhere')} was not found.`,
    });
    const predicted = await state('prep', 'test=True');
    expect(predicted.result).toBeNull();
    expect(predicted.comment).toMatch(/^- sent \d+ bytes\n- received \d+ bytes\n.*\(DRY RUN\)$/s);
    expect(existsSync(tgt)).toBe(false);
    const made = await state('prep');
    expect(made.result).toBe(true);
    expect(made.changes).toEqual({
      copied: './\na/\na/b/\na/b/z.txt\na/keep.txt\nx.txt\ny.log',
      deleted: 'N/A',
    });
    const again = await state('prep');
    expect([again.result, again.changes]).toEqual([true, {}]);
    writeFileSync(join(tgt, 'extra.txt'), 'x');
    expect((await state('del', 'test=True')).result).toBeNull();
    expect(existsSync(join(tgt, 'extra.txt'))).toBe(true);
    expect((await state('del')).changes).toEqual({ copied: './', deleted: 'extra.txt' });
  });
});
