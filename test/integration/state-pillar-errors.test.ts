/**
 * A pillar that does not render stops `state.*` before anything runs, as Salt 3006's
 * `_get_pillar_errors` does: through a real master and minion (a broken SLS in `pillar_roots`)
 * and through `salt-call --local`. The running functions return Salt's list with retcode 5, the
 * showing ones raise "Pillar failed to render", `force=True` runs anyway, and a highstate also
 * refuses an empty `_errors` (Salt's `HighState._check_pillar`, retcode 1).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, runCli } from '../../tools/local-cluster.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-pillar-errors-'));
const states = join(top, 'states');
const pillarDir = join(top, 'pillar');
const marker = join(top, 'ran');
const c = new Cluster({ master: { file_roots: { base: [states] }, pillar_roots: { base: [pillarDir] } } });

const FAILED = [
  'Pillar failed to render with the following messages:',
  "Rendering SLS 'broken' failed. Please see master log for details.",
];
const RAISED =
  "Pillar failed to render. Additional info follows:\n\n- Rendering SLS 'broken' failed. Please see master log for details.";

function write(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** A masterless minion's config dir `name` over the states and `pillarRoot`. */
function localConf(name: string, pillarRoot: string): string {
  const dir = join(top, name);
  const lines = [`id: ${name}`, 'file_client: local', `root_dir: ${join(top, `${name}-root`)}`];
  lines.push(`file_roots: {base: [${states}]}`, `pillar_roots: {base: [${pillarRoot}]}`, '');
  write(dir, { minion: lines.join('\n') });
  return dir;
}

beforeAll(async () => {
  write(states, {
    'top.sls': "base:\n  '*':\n    - one\n",
    'one.sls': `touch_marker:\n  file.touch:\n    - name: ${marker}\n`,
  });
  write(pillarDir, {
    'top.sls': "base:\n  '*':\n    - good\n    - broken\n",
    'good.sls': 'secret_value: hunter2\n',
    'broken.sls': 'a: {{ undefined_thing.x }}\n',
  });
  await c.startMaster();
  await c.startMinion('pe1');
}, 120_000);

afterAll(async () => {
  await c.stop();
  rmSync(top, { recursive: true, force: true });
});

describe('a pillar that fails to render, through a master', () => {
  it('state.apply, state.sls, state.highstate and state.sls_id answer the list with retcode 5 and run nothing', async () => {
    for (const args of [
      ['state.apply'],
      ['state.apply', 'one'],
      ['state.sls', 'one'],
      ['state.highstate'],
      ['state.sls_id', 'touch_marker', 'one'],
      ['state.top', 'top.sls'],
    ]) {
      const { data } = await c.saltJson(['pe1', ...args]);
      expect(data.pe1, args.join(' ')).toEqual(FAILED);
    }
    expect((await c.salt(['pe1', 'state.apply', '--retcode-passthrough'])).code).toBe(5);
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  it('the show functions raise Salt\'s "Pillar failed to render" with the errors', async () => {
    for (const args of [['state.show_sls', 'one'], ['state.show_highstate'], ['state.show_top']]) {
      const { data } = await c.saltJson(['pe1', ...args]);
      expect(String(data.pe1), args.join(' ')).toMatch(/^ERROR: /);
      expect(String(data.pe1).endsWith(RAISED), args.join(' ')).toBe(true);
    }
  }, 60_000);

  it('force=True runs the states; the pillar never reaches the answer', async () => {
    const raw = await c.salt(['pe1', 'state.apply', 'one', 'force=True', '--out', 'json']);
    expect(raw.stdout).toContain('file_|-touch_marker_|-');
    expect(raw.stdout).not.toContain('hunter2');
    expect(existsSync(marker)).toBe(true);
  }, 60_000);
});

describe('a pillar that fails to render, salt-call --local', () => {
  const conf = localConf('local1', pillarDir);
  const call = (args: string[]) => runCli('salt-call', ['--local', '-c', conf, ...args], 60_000);

  it('state.apply prints the list; --retcode-passthrough exits 5, otherwise 1', async () => {
    const plain = await call(['state.apply', '--out', 'json']);
    expect(JSON.parse(plain.stdout)).toEqual({ local: FAILED });
    expect(plain.code).toBe(1);
    expect((await call(['state.apply', '--retcode-passthrough', '--out', 'json'])).code).toBe(5);
  }, 60_000);

  it('state.show_sls is salt-call\'s "Error running" with the errors, exit 1', async () => {
    const r = await call(['state.show_sls', 'one']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error running 'state.show_sls': ${RAISED}\n`);
  }, 60_000);

  it('a pillar= override carrying _errors stops state.sls; an empty one stops only the highstate', async () => {
    const good = localConf('local2', join(top, 'nopillar'));
    const run = async (args: string[]) => {
      const r = await runCli('salt-call', ['--local', '-c', good, '--out', 'json', ...args], 60_000);
      return { code: r.code, local: (JSON.parse(r.stdout) as { local: unknown }).local };
    };
    expect(await run(['state.sls', 'one', 'pillar={"_errors": ["boom"]}', '--retcode-passthrough'])).toEqual({
      code: 5,
      local: [FAILED[0], 'boom'],
    });
    expect(await run(['state.apply', 'pillar={"_errors": []}', '--retcode-passthrough'])).toEqual({
      code: 1,
      local: [FAILED[0]],
    });
    const sls = await run(['state.sls', 'one', 'pillar={"_errors": []}', 'test=True']);
    expect(sls.code).toBe(0);
    expect(Object.keys(sls.local as object)).toEqual([`file_|-touch_marker_|-${marker}_|-touch`]);
  }, 120_000);
});
