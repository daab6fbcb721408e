/**
 * bin/salt's single-file CLI (dist/cli/bundle/salt.cjs, run by bin/run-bundle.cjs with a V8 code
 * cache): it prints what the ES module CLI prints, hands over to it where it must (an `--out`
 * outputter, a batch, a config not in the cache), keeps its code cache, and holds no package.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCacheDir } from '../../kernel/cache/user-cache-dir.js';
import { Cluster, REPO, type RunResult, runCommand } from '../../tools/local-cluster.js';

const BUNDLE = join(REPO, 'dist/cli/bundle/salt.cjs');

describe('salt: the single-file CLI', () => {
  const c = new Cluster();
  const cache = mkdtempSync(join(tmpdir(), 'tsalt-cli-cache-'));
  beforeAll(async () => {
    await c.startMaster();
    await Promise.all(['u1', 'u2'].map((id) => c.startMinion(id)));
  });
  afterAll(async () => {
    await c.stop();
    rmSync(cache, { recursive: true, force: true });
  });

  /**
   * Runs bin/salt's code path with a marker where it hands over to the ES modules: `bundle`
   * false runs the ES module CLI alone (TSALT_CLI_BUNDLE=0).
   */
  const salt = (args: string[], bundle = true): Promise<RunResult> => {
    const script = [
      `require(${JSON.stringify(join(REPO, 'bin/run-bundle.cjs'))}).runBundle('salt', () => {`,
      "  process.stderr.write('[esm]\\n');",
      `  return import(${JSON.stringify(join(REPO, 'dist/cli/salt.js'))});`,
      '});',
    ].join('\n');
    return runCommand(
      process.execPath,
      ['-e', script, join(REPO, 'bin/salt'), '-c', c.confDir, ...args],
      60_000,
      {
        ...process.env,
        XDG_CACHE_HOME: cache,
        TSALT_CLI_BUNDLE: bundle ? '1' : '0',
      },
    );
  };
  /** The code cache file (one per installed copy of tsalt). */
  const codeCache = (): string => {
    const files = readdirSync(join(cache, 'tsalt')).filter((f) => /^salt-cli-[0-9a-f]{8}\.v8cache$/.test(f));
    expect(files).toHaveLength(1);
    return join(cache, 'tsalt', files[0] ?? '');
  };
  /** Without what differs between two runs: job ids, a state's start time and duration. */
  const steady = (s: string): string =>
    s
      .replace(/\d{20}/g, '<jid>')
      .replace(/\d\d:\d\d:\d\d\.\d+/g, '<time>')
      .replace(/[\d.]+ ms/g, '<ms>');

  it('prints what the ES module CLI prints, without handing over', async () => {
    // the first run fills the config cache (through the ES modules), the second the code cache
    expect((await salt(['*', 'test.ping'])).stderr).toBe('[esm]\n');
    // one minion each: returns from several print in the order they arrive
    const commands = [
      ['u1', 'test.ping'],
      ['u1', 'test.arg', '1', 'a=2', 'b=[1, 2]'],
      ['-L', 'u2', 'cmd.run', 'echo hi; exit 3'],
      ['ghost', 'test.ping'],
      ['--static', 'u1', 'test.echo', 'same'],
      ['u2', 'state.single', 'test.nop', 'name=n', '--state-output=terse'],
    ];
    for (const command of commands) {
      // generous timeouts: a first job process starting on a loaded machine must not make one run differ
      const args = ['-t', '60', '--gather-job-timeout', '30', ...command];
      const esm = await salt(args, false);
      const bundled = await salt(args);
      expect(bundled.stderr, args.join(' ')).not.toContain('[esm]');
      expect({ ...bundled, stdout: steady(bundled.stdout) }, args.join(' ')).toEqual({
        ...esm,
        stdout: steady(esm.stdout),
        stderr: esm.stderr.replace('[esm]\n', ''),
      });
      expect(bundled.stdout.length, args.join(' ')).toBeGreaterThan(0);
    }
    const code = codeCache();
    // V8 takes the cache: a run that used it does not write it again
    const before = statSync(code).mtimeMs;
    expect((await salt(['*', 'test.ping'])).code).toBe(0);
    expect(statSync(code).mtimeMs).toBe(before);
  });

  it('hands over to the ES modules for --out, batches and a config it has not cached', async () => {
    for (const args of [
      ['-t', '60', '--out', 'json', '*', 'test.ping'],
      ['-t', '60', '-b', '1', '*', 'test.ping'],
    ]) {
      const r = await salt(args);
      expect(r.stderr, args.join(' ')).toBe('[esm]\n');
      expect(r.code).toBe(0);
    }
    expect(
      JSON.parse((await salt(['-t', '60', '--out', 'json', '--static', '*', 'test.ping'])).stdout),
    ).toEqual({
      u1: true,
      u2: true,
    });
    // a corrupt code cache is only a slower start
    const code = codeCache();
    const key = readFileSync(code).subarray(0, readFileSync(code).indexOf(10) + 1);
    writeFileSync(code, Buffer.concat([key, Buffer.from('not a code cache')]));
    const r = await salt(['u1', 'test.ping']);
    expect(r).toEqual({ code: 0, stdout: 'u1:\n    True\n', stderr: '' });
  });

  it('holds tsalt code only: node: built-ins, and dist/ modules it imports as ES modules', () => {
    const text = readFileSync(BUNDLE, 'utf8');
    const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
    expect(required.length).toBeGreaterThan(0);
    expect(required.filter((r) => !r.startsWith('node:') && r !== './esm-import.cjs')).toEqual([]);
    // a script from a code cache cannot import(): the ES modules load through esm-import.cjs
    expect(text).not.toMatch(/\bimport\(/);
    const imported = [...text.matchAll(/require\("\.\/esm-import\.cjs"\)\("([^"]+)"\)/g)].map(
      (m) => m[1] ?? '',
    );
    expect(imported).toContain('../../kernel/config/load.js');
    for (const i of imported) expect(existsSync(join(REPO, 'dist/cli/bundle', i)), i).toBe(true);
  });

  it("bin/run-bundle.cjs's cache folder is the CLIs' (kernel/cache/user-cache-dir.ts)", () => {
    const runner = createRequire(import.meta.url)('../../bin/run-bundle.cjs') as { userCacheDir(): string };
    expect(runner.userCacheDir()).toBe(userCacheDir());
  });
});

describe('bin/run-bundle.cjs: when the ES module CLI runs instead', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-run-bundle-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A copy of the runner over a stand-in bundle whose `main` answers `ran`. */
  const tree = (ran: boolean, bundleNewer: boolean): string => {
    const dir = mkdtempSync(join(root, 't-'));
    for (const d of ['bin', 'dist/cli/bundle']) mkdirSync(join(dir, d), { recursive: true });
    copyFileSync(join(REPO, 'bin/run-bundle.cjs'), join(dir, 'bin/run-bundle.cjs'));
    const bundle = join(dir, 'dist/cli/bundle/salt.cjs');
    const entry = join(dir, 'dist/cli/salt.js');
    writeFileSync(
      bundle,
      `exports.main = async () => { process.stdout.write('bundle\\n'); return ${ran}; };\n`,
    );
    writeFileSync(entry, '');
    const [older, newer] = bundleNewer ? [entry, bundle] : [bundle, entry];
    utimesSync(older, new Date(1_000_000_000_000), new Date(1_000_000_000_000));
    utimesSync(newer, new Date(1_000_000_100_000), new Date(1_000_000_100_000));
    return dir;
  };
  const run = async (dir: string, env: Record<string, string> = {}): Promise<string> => {
    const script = `require(${JSON.stringify(join(dir, 'bin/run-bundle.cjs'))}).runBundle('salt', () => process.stdout.write('esm\\n'))`;
    const r = await runCommand(process.execPath, ['-e', script], 30_000, {
      ...process.env,
      XDG_CACHE_HOME: join(root, 'cache'),
      ...env,
    });
    expect(r.stderr).toBe('');
    return r.stdout;
  };

  it('runs the bundle, which may hand over', async () => {
    expect(await run(tree(true, true))).toBe('bundle\n');
    expect(await run(tree(false, true))).toBe('bundle\nesm\n');
  });

  it('runs the ES modules for a bundle older than their build, a missing one, or TSALT_CLI_BUNDLE=0', async () => {
    expect(await run(tree(true, false))).toBe('esm\n');
    expect(await run(tree(true, true), { TSALT_CLI_BUNDLE: '0' })).toBe('esm\n');
    const dir = tree(true, true);
    rmSync(join(dir, 'dist/cli/bundle'), { recursive: true });
    expect(await run(dir)).toBe('esm\n');
  });
});
