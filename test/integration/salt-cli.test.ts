import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO } from '../../tools/local-cluster.js';

describe('salt CLI: batches, several functions, summary, output files, retcodes', () => {
  const c = new Cluster();
  beforeAll(async () => {
    await c.startMaster();
    await Promise.all(['b1', 'b2', 'b3', 'b4'].map((id) => c.startMinion(id)));
  });
  afterAll(() => c.stop());

  it('-b 2 runs on every responding minion, at most two at a time', async () => {
    const r = await c.salt(['-b', '2', '*', 'test.ping']);
    expect(r.code).toBe(0);
    const runs = [...r.stdout.matchAll(/Executing run on \[(.*)\]/g)].map((m) => m[1]!.split(', ').length);
    expect(runs.every((n) => n <= 2)).toBe(true);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(4);
    // each return with its job's jid and retcode, as Salt's batch shows them (nested sorts the keys)
    for (const id of ['b1', 'b2', 'b3', 'b4']) expect(r.stdout).toContain(`${id}:\n    True\n`);
    expect(r.stdout.match(/^jid:\n {4}\d{20}$/gm)).toHaveLength(4);
    expect(r.stdout.match(/^retcode:\n {4}0$/gm)).toHaveLength(4);
  });

  it('-b 50% --static prints all returns at once', async () => {
    const r = await c.salt(['-b', '50%', '--static', '--out', 'json', '*', 'test.ping']);
    expect(JSON.parse(r.stdout)).toEqual({ b1: true, b2: true, b3: true, b4: true });
  });

  it('--failhard stops the batch at the first failure', async () => {
    const r = await c.salt(['-b', '1', '--failhard', '*', 'cmd.run', 'exit 3']);
    expect(r.stderr).toMatch(
      /^\[ERROR {3}\] Minion b\d returned with non-zero exit code\. Batch run stopped due to failhard\n$/,
    );
    expect(r.stdout.match(/Executing run on/g)?.length).toBe(1);
    // Salt's batch exits with the highest retcode
    expect(r.code).toBe(3);
  });

  it('--batch-safe-limit switches to batches past the limit', async () => {
    const r = await c.salt(['--batch-safe-limit', '3', '--batch-safe-size', '2', '*', 'test.ping']);
    expect(r.stdout).toContain('NOTICE: Too many minions targeted, switching to batch execution.');
    expect(r.stdout).toContain('Executing run on');
  });

  it("several functions in one job, with Salt's return shape", async () => {
    const r = await c.saltJson(['b1', 'test.ping,test.echo', ',', 'hello']);
    expect(r.data).toEqual({ b1: { 'test.ping': true, 'test.echo': 'hello' } });
  });

  it('--summary counts returned and failed minions', async () => {
    const r = await c.salt(['--summary', '-L', 'b1,ghost', 'test.ping']);
    expect(r.stdout).toContain('# of minions targeted: 2');
    expect(r.stdout).toContain('# of minions returned: 1');
    expect(r.stdout).toContain('# of minions that did not return: 1');
  });

  it('--retcode-passthrough exits with the highest retcode', async () => {
    const r = await c.salt(['--retcode-passthrough', 'b1', 'cmd.run', 'exit 5']);
    expect(r.code).toBe(5);
  });

  it('--out-file and --out-file-append', async () => {
    const file = join(c.root, 'out.txt');
    await c.salt(['--out-file', file, 'b1', 'test.echo', 'one']);
    await c.salt(['--out-file', file, '--out-file-append', 'b2', 'test.echo', 'two']);
    expect(readFileSync(file, 'utf8')).toBe('b1:\n    one\nb2:\n    two\n');
  });

  it('a bad batch size is refused before anything is sent', async () => {
    const r = await c.salt(['-b', '0', '*', 'test.ping']);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain('invalid batch size');
  });

  it('an outputter from the extension folder is a plugin kind: --out loads it on demand', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const dir = join(c.root, 'var/cache/salt/master/extmods/output');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'shout.mjs'),
      "export default { name: 'shout', render: (data) => JSON.stringify(data).toUpperCase() };\n",
    );
    const r = await c.salt(['--out', 'shout', 'b1', 'test.echo', 'hi']);
    expect(r.stdout).toBe('{"B1":"HI"}\n');
    // an unknown outputter falls back to nested, as Salt's does
    const unknown = await c.salt(['--out', 'nosuch', 'b1', 'test.ping']);
    expect(unknown).toEqual({
      code: 0,
      stdout: 'b1:\n    True\n',
      stderr: '[ERROR   ] Invalid outputter nosuch specified, fall back to nested\n',
    });
    // a function that declares the custom outputter gets it without --out
    const ext = join(c.root, 'minions/b1/var/cache/salt/minion/extmods/modules');
    mkdirSync(ext, { recursive: true });
    writeFileSync(
      join(ext, 'loud.mjs'),
      "export default { name: 'loud', functions: { say: { outputter: 'shout', run: () => 'quiet words' } } };\n",
    );
    const declared = await c.salt(['b1', 'loud.say']);
    expect(declared.stdout).toBe('{"B1":"QUIET WORDS"}\n');
  });

  it('Ctrl-C while waiting prints the jid and how to look the job up later', async () => {
    const { spawn } = await import('node:child_process');
    const p = spawn(
      process.execPath,
      [join(REPO, 'dist/cli/salt.js'), '-c', c.confDir, 'b1', 'test.sleep', '5'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    await new Promise((r) => setTimeout(r, 1500));
    p.kill('SIGINT');
    const code = await new Promise<number | null>((r) => p.on('exit', r));
    expect(out).toMatch(/Exiting gracefully on Ctrl-c\nThis job's jid is: (\d{20})\n/);
    expect(out).toMatch(/salt-run jobs\.lookup_jid \d{20}\n$/);
    expect(code).toBe(1);
    // the job cache shows the minion as still running when the client gave up
    const jid = /This job's jid is: (\d{20})/.exec(out)![1]!;
    const stored = await c.jobReturns(jid, (s) => Boolean(s.b1));
    expect(stored.b1?.state).toBe('running');
  });
});
