import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

// Salt 3006.18's salt.state on a masterless minion (salt-call --local) runs the state function on
// the minion itself, tgt ignored, and reports it as it reports a targeted run (5 of 5 identical:
// sls found, missing, test=True, highstate without a top file, nothing to run)
describe('salt.state on a masterless minion', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-t-saltmod-local-'));
  const conf = join(root, 'etc');
  const call = async (...args: string[]) => {
    const r = await runCli('salt-call', ['-c', conf, '--local', '--out', 'json', ...args], 60_000);
    const states = (JSON.parse(r.stdout) as { local: Record<string, Record<string, unknown>> }).local;
    return { code: r.code, ret: Object.values(states)[0] ?? {} };
  };

  beforeAll(() => {
    mkdirSync(join(root, 'srv'), { recursive: true });
    mkdirSync(conf, { recursive: true });
    writeFileSync(join(root, 'srv', 'hello.sls'), 'hi:\n  test.succeed_with_changes: []\n');
    writeFileSync(
      join(conf, 'minion'),
      `id: sm1\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${join(root, 'srv')}]}\nlog_level: quiet\n`,
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('runs the sls here, whatever tgt says', async () => {
    const { code, ret } = await call('state.single', 'salt.state', 'name=s', 'tgt=elsewhere', 'sls=hello');
    expect(code).toBe(0);
    expect(ret).toMatchObject({ result: true, comment: 'States ran successfully. Updating sm1.' });
    const changes = ret.changes as { out: string; ret: Record<string, Record<string, { comment: string }>> };
    expect(changes.out).toBe('highstate');
    expect(Object.keys(changes.ret)).toEqual(['sm1']);
    expect(changes.ret.sm1?.['test_|-hi_|-hi_|-succeed_with_changes']?.comment).toBe('Success!');
  });

  it('reports a missing sls as a failed run on this minion', async () => {
    const { code, ret } = await call('state.single', 'salt.state', 'name=s', 'tgt=elsewhere', 'sls=nosuch');
    expect(code).toBe(1);
    expect(ret).toMatchObject({
      result: false,
      comment: 'Run failed on minions: sm1',
      changes: { out: 'highstate', ret: { sm1: ["No matching sls found for 'nosuch' in env 'base'"] } },
    });
  });
});
