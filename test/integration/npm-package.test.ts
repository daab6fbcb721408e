/**
 * The npm package as a user gets it: `npm pack` of the checkout, installed with npm into a
 * fresh project, puts Salt's seven commands in `node_modules/.bin`; `salt-call --local
 * test.ping` runs from there, and the plugin author's entry points import with their typings.
 * The dependencies come from this checkout's node_modules (offline, install scripts skipped),
 * so the test needs no registry; what it checks is the package: its files, bins and exports.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../tools/local-cluster.js';

const run = promisify(execFile);
const COMMANDS = ['salt', 'salt-api', 'salt-call', 'salt-key', 'salt-master', 'salt-minion', 'salt-run'];

describe('the npm package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-npm-package-'));
  const project = join(dir, 'project');
  const bin = join(project, 'node_modules', '.bin');
  let tarball = '';

  beforeAll(async () => {
    const packed = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(dir, info!.filename);
    // the project starts with this checkout's dependencies (hard links: nothing is copied or
    // fetched); npm then adds the package and removes what it does not need
    mkdirSync(project);
    await run('cp', ['-al', join(REPO, 'node_modules'), join(project, 'node_modules')]);
    rmSync(join(project, 'node_modules', '.package-lock.json'), { force: true });
    writeFileSync(join(project, 'package.json'), '{"name":"tsalt-user","version":"1.0.0","private":true}\n');
    await run(
      'npm',
      [
        'install',
        '--offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-save',
        '--loglevel=error',
        tarball,
      ],
      { cwd: project, maxBuffer: 64 * 1024 * 1024 },
    );
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships the built code, the commands and the docs, and no tests or benchmarks', async () => {
    const { stdout } = await run('tar', ['tzf', tarball], { maxBuffer: 64 * 1024 * 1024 });
    const files = stdout.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/kernel/index.js');
    expect(files).toContain('package/dist/kernel/index.d.ts');
    expect(files).toContain('package/docs/config.md');
    // the web console's bundle, built by `npm run build`, ships; its sources do not
    for (const f of ['index.html', 'app.js', 'app.css'])
      expect(files).toContain(`package/dist/plugins/console/assets/${f}`);
    for (const c of COMMANDS) expect(files).toContain(`package/bin/${c}`);
    // the single-file CLIs and what runs them (tools/build-cli-bundle.ts)
    for (const f of [
      'bin/run-bundle.cjs',
      'dist/cli/bundle/salt.cjs',
      'dist/cli/bundle/salt-key.cjs',
      'dist/cli/bundle/salt-run.cjs',
      'dist/cli/bundle/esm-import.cjs',
      // the job process's single-module build (tools/build-process-bundle.ts)
      'dist/minion/bundle/job-process.js',
    ])
      expect(files).toContain(`package/${f}`);
    expect(files.filter((f) => /\.test\.|\/dist\/(bench|tools|test)\//.test(f))).toEqual([]);
  });

  it("puts Salt's seven commands on the PATH", () => {
    expect(
      readdirSync(bin)
        .filter((f) => f.startsWith('salt'))
        .sort(),
    ).toEqual(COMMANDS);
  });

  it('runs salt-call --local test.ping from the installed package', async () => {
    const conf = join(dir, 'conf');
    mkdirSync(conf, { recursive: true });
    writeFileSync(
      join(conf, 'minion'),
      `id: pkg-minion\nfile_client: local\nroot_dir: ${join(dir, 'root')}\nuser: root\n`,
    );
    const ping = await run(join(bin, 'salt-call'), ['--local', '-c', conf, 'test.ping', '--out', 'json']);
    expect(JSON.parse(ping.stdout)).toEqual({ local: true });
    const version = await run(join(bin, 'salt-call'), ['--version']);
    expect(version.stdout).toMatch(/^salt-call 3006\.\d+ \(Sulfur; tsalt \d+\.\d+\.\d+\)\n$/);
    // the package runs from its own folder, not from this checkout
    expect(existsSync(join(project, 'node_modules', 'tsalt', 'dist', 'cli', 'salt-call.js'))).toBe(true);
  });

  it("exports the plugin author's entry points, each with its typings", async () => {
    const script = [
      "const core = await import('tsalt');",
      "const client = await import('tsalt/client');",
      "const states = await import('tsalt/states');",
      'console.log(JSON.stringify([typeof core.definePlugin, typeof core.defineTask, typeof client.LocalClient, typeof states.defineStateModule]));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual(['function', 'function', 'function', 'function']);
    const pkg = join(project, 'node_modules', 'tsalt');
    const { default: manifest } = await import(join(pkg, 'package.json'), { with: { type: 'json' } });
    const exports = (manifest as { exports: Record<string, { types: string; default: string }> }).exports;
    for (const [name, entry] of Object.entries(exports)) {
      expect(existsSync(join(pkg, entry.types)), `${name} types`).toBe(true);
      expect(existsSync(join(pkg, entry.default)), `${name} code`).toBe(true);
    }
  });
});
