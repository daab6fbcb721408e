/**
 * Compares `sys.argspec '*'` (with `--states`, `sys.state_argspec '*'`) of real Salt 3006.18
 * and of tsalt (`salt-call --local`, same minion config) for every function both have, and says
 * "N of M identical" with the differences. With `--record` it writes Salt's argspecs of the
 * functions both have to test/fixtures/salt-argspec/3006.18.json (states-3006.18.json; with
 * modules named, theirs only, the others kept), which
 * test/conformance/salt-argspec.test.ts (salt-state-argspec.test.ts) holds tsalt to.
 * Needs real Salt's source tree (/tmp/wtcli-salt, or TSALT_SALT_SRC with `src` and `shim` or
 * `pylib`); skipped otherwise.
 *
 *   npm run build
 *   node dist/tools/compare-argspec.js [--states] [--record] [module ...]
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { REPO } from './local-cluster.js';

const SALT_HOME = process.env.TSALT_SALT_SRC ?? '/tmp/wtcli-salt';
type Specs = Record<string, unknown>;

const STATES = process.argv.includes('--states');

async function argspecs(cmd: string, argv: string[], env: NodeJS.ProcessEnv): Promise<Specs> {
  const run = promisify(execFile);
  const fun = STATES ? 'sys.state_argspec' : 'sys.argspec';
  const { stdout } = await run(cmd, [...argv, fun, '*', '--out', 'json'], {
    env,
    maxBuffer: 64 << 20,
  });
  return (JSON.parse(stdout) as { local: Specs }).local;
}

function confDir(root: string, id: string): string {
  const dir = join(root, `conf-${id}`);
  for (const d of ['files', 'pillar']) mkdirSync(join(root, d), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const lines = [
    'file_client: local',
    `file_roots: {base: [${join(root, 'files')}]}`,
    `pillar_roots: {base: [${join(root, 'pillar')}]}`,
    `root_dir: ${join(root, `root-${id}`)}`,
    `id: ${id}`,
    'user: root',
    '',
  ];
  writeFileSync(join(dir, 'minion'), lines.join('\n'));
  return dir;
}

/** One function per line, sorted: a fixture whose diffs read function by function. */
function fixtureText(specs: Specs): string {
  const keys = Object.keys(specs).sort();
  return `{\n${keys.map((k) => `  ${JSON.stringify(k)}: ${JSON.stringify(specs[k])}`).join(',\n')}\n}\n`;
}

async function main(): Promise<void> {
  if (!existsSync(join(SALT_HOME, 'src', 'scripts', 'salt-call'))) {
    process.stdout.write(`compare-argspec: skipped: no real Salt at ${SALT_HOME} (set TSALT_SALT_SRC)\n`);
    return;
  }
  const record = process.argv.includes('--record');
  const mods = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const tmp = mkdtempSync(join(tmpdir(), 'tsalt-argspec-'));
  const lib = ['shim', 'pylib'].map((d) => join(SALT_HOME, d)).filter((d) => existsSync(d));
  const env = { ...process.env, PYTHONPATH: [join(SALT_HOME, 'src'), ...lib].join(':') };
  const [salt, ts] = await Promise.all([
    argspecs(
      '/usr/bin/python3',
      [join(SALT_HOME, 'src', 'scripts', 'salt-call'), '--local', '-c', confDir(join(tmp, 'py'), 'as1')],
      env,
    ),
    argspecs(
      process.execPath,
      [join(REPO, 'bin', 'salt-call'), '--local', '-c', confDir(join(tmp, 'ts'), 'as1')],
      process.env,
    ),
  ]);
  rmSync(tmp, { recursive: true, force: true });
  const common = Object.keys(ts)
    .filter((f) => f in salt && (!mods.length || mods.includes(f.slice(0, f.indexOf('.')))))
    .sort();
  const differ = common.filter((f) => !isDeepStrictEqual(salt[f], ts[f]));
  for (const f of differ)
    process.stdout.write(`${f}\n  salt:  ${JSON.stringify(salt[f])}\n  tsalt: ${JSON.stringify(ts[f])}\n`);
  process.stdout.write(`\n${common.length - differ.length} of ${common.length} identical\n`);
  if (record) {
    const dir = join(REPO, 'test', 'fixtures', 'salt-argspec');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, STATES ? 'states-3006.18.json' : '3006.18.json');
    // naming modules re-records theirs and keeps the other modules' entries
    const kept: Record<string, unknown> =
      mods.length && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
    for (const f of Object.keys(kept)) if (mods.includes(f.slice(0, f.indexOf('.')))) delete kept[f];
    for (const f of common) kept[f] = salt[f];
    writeFileSync(
      file,
      fixtureText(
        Object.fromEntries(
          Object.keys(kept)
            .sort()
            .map((f) => [f, kept[f]]),
        ),
      ),
    );
    process.stdout.write(
      `recorded ${common.length} functions in ${file} (${Object.keys(kept).length} in all)\n`,
    );
  }
}

await main();
