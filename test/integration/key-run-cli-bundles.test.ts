/**
 * bin/salt-key's and bin/salt-run's single-file CLIs (dist/cli/bundle/salt-key.cjs and
 * salt-run.cjs, run by bin/run-bundle.cjs with a V8 code cache): each prints what its ES module
 * CLI prints, exits as it does, keeps a code cache of its own, and holds no package but
 * commander (plugins share no copy of it).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, REPO, type RunResult, runCommand } from '../../tools/local-cluster.js';

describe('salt-key and salt-run: the single-file CLIs', () => {
  const c = new Cluster();
  const cache = mkdtempSync(join(tmpdir(), 'tsalt-cli-cache-'));
  beforeAll(async () => {
    await c.startMaster();
    await c.startMinion('b1');
  });
  afterAll(async () => {
    await c.stop();
    rmSync(cache, { recursive: true, force: true });
  });

  /** Runs bin/<cli>'s code path, marking a hand-over to the ES modules; `bundle` false: the ES modules alone. */
  const run = (cli: string, args: string[], bundle = true): Promise<RunResult> => {
    const script = [
      `require(${JSON.stringify(join(REPO, 'bin/run-bundle.cjs'))}).runBundle(${JSON.stringify(cli)}, () => {`,
      "  process.stderr.write('[esm]\\n');",
      `  return import(${JSON.stringify(join(REPO, `dist/cli/${cli}.js`))});`,
      '});',
    ].join('\n');
    return runCommand(
      process.execPath,
      ['-e', script, join(REPO, 'bin', cli), '-c', c.confDir, ...args],
      60_000,
      { ...process.env, XDG_CACHE_HOME: cache, TSALT_CLI_BUNDLE: bundle ? '1' : '0' },
    );
  };
  const esmMark = (r: RunResult): RunResult => ({ ...r, stderr: r.stderr.replace(/^\[esm\]\n/, '') });

  // each salt-run is a runner on the master (2-3 s on a loaded machine), each command run twice
  it('salt-key prints what the ES module CLI prints, with the same exit codes', {
    timeout: 180_000,
  }, async () => {
    for (const args of [
      ['-L'],
      ['-L', '--out', 'json'],
      ['-l', 'acc'],
      ['-F'],
      ['-f', 'b1'],
      ['-l', 'bogus'],
      ['--no-such-flag'],
      ['-a', 'nobody', '-y'],
    ]) {
      const bundled = await run('salt-key', args);
      expect(bundled.stderr, args.join(' ')).not.toContain('[esm]');
      expect(bundled, args.join(' ')).toEqual(esmMark(await run('salt-key', args, false)));
    }
    expect((await run('salt-key', ['-L'])).stdout).toContain('Accepted Keys:\nb1\n');
  });

  it('salt-run prints what the ES module CLI prints, with the same exit codes', {
    timeout: 240_000,
  }, async () => {
    for (const args of [
      ['test.arg', '1', 'a=2'],
      ['test.arg', '--out', 'json', '1'],
      ['manage.up'],
      ['-d', 'test.arg'],
      ['no_such.runner'],
      ['--no-such-flag'],
    ]) {
      const bundled = await run('salt-run', args);
      expect(bundled.stderr, args.join(' ')).not.toContain('[esm]');
      expect(bundled, args.join(' ')).toEqual(esmMark(await run('salt-run', args, false)));
    }
    expect((await run('salt-run', ['manage.up'])).stdout).toBe('- b1\n');
  });

  it('keeps one code cache per CLI', () => {
    const files = readdirSync(join(cache, 'tsalt')).filter((f) => f.endsWith('.v8cache'));
    expect(files.filter((f) => /^salt-key-cli-[0-9a-f]{8}\.v8cache$/.test(f))).toHaveLength(1);
    expect(files.filter((f) => /^salt-run-cli-[0-9a-f]{8}\.v8cache$/.test(f))).toHaveLength(1);
  });

  it('hold tsalt code and commander only; zod, the config loader and outputters stay ES modules', () => {
    for (const cli of ['salt-key', 'salt-run']) {
      const text = readFileSync(join(REPO, `dist/cli/bundle/${cli}.cjs`), 'utf8');
      const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] ?? '');
      expect(required.filter((r) => !r.startsWith('node:') && r !== './esm-import.cjs')).toEqual([
        'commander',
      ]);
      expect(text, cli).not.toMatch(/\bimport\(/);
      expect(text, cli).not.toContain('zod');
      const imported = [...text.matchAll(/require\("\.\/esm-import\.cjs"\)\("([^"]+)"\)/g)].map(
        (m) => m[1] ?? '',
      );
      expect(imported, cli).toContain('../../kernel/config/load.js');
      for (const i of imported) expect(existsSync(join(REPO, 'dist/cli/bundle', i)), i).toBe(true);
    }
  });
});
