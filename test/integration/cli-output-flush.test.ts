/**
 * Every client CLI hands everything it prints to a pipe before it exits. The reader waits a
 * moment before it reads, so the pipe (64 KiB on Linux) is full long before the CLI is done:
 * a CLI that exits with output still queued in Node loses the rest (finding 0 of the probe:
 * `salt ... | wc -c` printed 65536 of 688,917 bytes and exited 0).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO } from '../../tools/local-cluster.js';

/** Lines of `seq`: about 6.9 MB of output. */
const LINES = 1_000_000;

interface PipedRun {
  code: number;
  /** What reached the reader at the other end of the pipe. */
  bytes: number;
  stderr: string;
}

/** Runs `dist/cli/<cli>.js ARGS | (sleep 1; wc -c)` in a shell and reports both sides. */
function piped(cli: string, args: string[], file?: string): Promise<PipedRun> {
  const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  const command = [process.execPath, join(REPO, 'dist/cli', `${cli}.js`), ...args].map(quote).join(' ');
  const sink = file ? `(sleep 1; cat > ${quote(file)}; wc -c < ${quote(file)})` : '(sleep 1; wc -c)';
  const script = `${command} 2>"$ERR" | ${sink}; echo "exit=\${PIPESTATUS[0]}"`;
  return new Promise((resolve, reject) => {
    const errFile = join(REPO, `.flush-test-${process.pid}-${Date.now()}.err`);
    const p = spawn('bash', ['-c', script], { env: { ...process.env, ERR: errFile } });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('error', reject);
    p.on('close', () => {
      let stderr = '';
      try {
        stderr = readFileSync(errFile, 'utf8');
      } catch {}
      import('node:fs').then(({ rmSync }) => rmSync(errFile, { force: true }));
      const m = /^\s*(\d+)\s*\nexit=(\d+)\s*$/.exec(out);
      if (!m) reject(new Error(`unexpected shell output: ${out}\n${stderr}`));
      else resolve({ bytes: Number(m[1]), code: Number(m[2]), stderr });
    });
  });
}

describe('CLI output through a pipe: nothing is lost at exit', () => {
  // Salt trims an event value past max_event_size (1 MiB): room for the whole return
  const c = new Cluster({ master: { max_event_size: 64 * 1024 * 1024 } });
  let jid = '';
  let expected = '';

  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('m1');
    // the job salt-run looks up below, and the text every outputter renders
    const r = await c.salt(['--out', 'json', '-v', 'm1', 'cmd.run', `seq 1 ${LINES}`]);
    jid = /jid: (\d+)/.exec(r.stdout)?.[1] ?? /Executing job with jid (\d+)/.exec(r.stdout)?.[1] ?? '';
    expected = Array.from({ length: LINES }, (_, i) => i + 1).join('\n');
  }, 120_000);
  afterAll(() => c.stop());

  for (const out of ['nested', 'json', 'yaml', 'txt', 'raw', 'pprint', 'newline_values_only']) {
    it(`salt --out ${out}: every byte of a ${LINES}-line cmd.run reaches the reader`, async () => {
      const file = join(c.root, `salt-${out}.txt`);
      const args = ['-c', c.confDir, '--out', out, 'm1', 'cmd.run', `seq 1 ${LINES}`];
      const viaPipe = await piped('salt', args, file);
      expect(viaPipe.code, viaPipe.stderr).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(viaPipe.bytes).toBe(Buffer.byteLength(text));
      expect(viaPipe.bytes).toBeGreaterThan(6_000_000);
      // the last line of seq is there, whatever the outputter's quoting
      expect(text).toContain(String(LINES));
      const written = join(c.root, `salt-${out}.out`);
      await c.salt(['--out', out, '--out-file', written, 'm1', 'cmd.run', `seq 1 ${LINES}`]);
      expect(readFileSync(written, 'utf8')).toBe(text);
    }, 120_000);
  }

  it('salt-run jobs.lookup_jid: the whole return reaches the reader', async () => {
    expect(jid).toMatch(/^\d{20}$/);
    const file = join(c.root, 'run.json');
    const r = await piped('salt-run', ['-c', c.confDir, '--out', 'json', 'jobs.lookup_jid', jid], file);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ m1: expected });
  }, 120_000);

  it('salt-call --local: the whole return reaches the reader', async () => {
    const file = join(c.root, 'call.json');
    const conf = c.minionConfDir('m1');
    const args = ['-c', conf, '--local', '--out', 'json', 'cmd.run', `seq 1 ${LINES}`];
    const r = await piped('salt-call', args, file);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ local: expected });
  }, 120_000);

  it('salt-key -F: every fingerprint of 2,000 accepted keys reaches the reader', async () => {
    const accepted = join(c.root, 'etc/salt/pki/master/minions');
    const pem = readFileSync(join(accepted, readdirSync(accepted)[0]!), 'utf8');
    const ids = Array.from({ length: 2000 }, (_, i) => `flush-test-minion-with-a-long-name-${i}`);
    mkdirSync(accepted, { recursive: true });
    for (const id of ids) writeFileSync(join(accepted, id), pem);
    const file = join(c.root, 'keys.json');
    const r = await piped('salt-key', ['-c', c.confDir, '-F', '--out', 'json'], file);
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(readFileSync(file, 'utf8')) as { minions: Record<string, string> };
    expect(Object.keys(listed.minions)).toEqual(expect.arrayContaining(ids));
    expect(r.bytes).toBeGreaterThan(65_536);
  }, 120_000);

  it('a reader that goes away ends salt quietly, with the status of a SIGPIPE', async () => {
    const cmd = [process.execPath, join(REPO, 'dist/cli/salt.js'), '-c', c.confDir, '--out', 'txt']
      .concat(['m1', 'cmd.run', `seq 1 ${LINES}`])
      .map((s) => `'${s}'`)
      .join(' ');
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      const p = spawn('bash', ['-c', `${cmd} | head -c 5; echo " exit=\${PIPESTATUS[0]}"`]);
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      p.stderr.on('data', (d: Buffer) => {
        err += d.toString();
      });
      p.on('close', () => resolve({ stdout: out, stderr: err }));
    });
    expect(stdout).toBe('m1: 1 exit=141\n');
    expect(stderr).toBe('');
  }, 60_000);
});
