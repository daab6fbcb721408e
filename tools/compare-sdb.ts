/**
 * Runs the sdb cases (the `sdb` module with env, yaml, yaml+gpg and sqlite3 profiles, `sdb://`
 * values in the minion config, `config.get`, a pillar template calling `salt['sdb.get']`) on
 * real Salt 3006.18 and on tsalt with `salt-call --local`, and says which are identical: the
 * JSON return and the exit code, or for a usage error the `Passed invalid arguments` line (the
 * usage text after it is each side's own docstring). Random values are judged by length and
 * alphabet. Needs real Salt's source tree (/tmp/wtcli-salt, or TSALT_SALT_SRC); skipped otherwise.
 *
 *   npm run build
 *   node dist/tools/compare-sdb.js
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './local-cluster.js';

const SALT_HOME = process.env.TSALT_SALT_SRC ?? '/tmp/wtcli-salt';

/** One case: the arguments after the function's name, and whether its value is random. */
const CASES: ReadonlyArray<{ args: string[]; random?: boolean }> = [
  ...[
    'sdb.get sdb://osenv/SDBCMP_VAR',
    'sdb.get sdb://osenv/SDBCMP_NOPE',
    'sdb.set sdb://osenv/SDBCMP_NEW bar',
    'sdb.set sdb://osenv/SDBCMP_VAR other',
    'sdb.get sdb://myyaml/app:db:pass',
    'sdb.get sdb://myyaml/app',
    'sdb.get sdb://myyaml/app:hosts',
    'sdb.get sdb://merged_lists/app:hosts',
    'sdb.get sdb://myyaml/list:1:name',
    'sdb.get sdb://myyaml/list:name',
    'sdb.get sdb://myyaml/missing:key',
    'sdb.get sdb://myyaml/extra',
    'sdb.get sdb://nosuch/key',
    'sdb.get sdb://nosuch/key strict=True',
    'sdb.get plainvalue',
    'sdb.get plainvalue strict=True',
    'sdb.get sdb://osenv',
    'sdb.get sdb://osenv/ strict=True',
    'sdb.get sdb://nodriver/foo',
    'sdb.get sdb://nodriver/foo strict=True',
    'sdb.get 42',
    'sdb.get 42 strict=True',
    'sdb.get sdb://badprof/key',
    'sdb.set sdb://myyaml/app x',
    'sdb.set sdb://nosuch/x y',
    'sdb.set notsdb y',
    'sdb.delete sdb://osenv/SDBCMP_VAR',
    'sdb.delete sdb://nosuch/x',
    'sdb.delete notsdb',
    'sdb.set sdb://mysqlite/k1 v1',
    'sdb.get sdb://mysqlite/k1',
    'sdb.set sdb://mysqlite/k2 {a: [1, 2], b: true}',
    'sdb.get sdb://mysqlite/k2',
    'sdb.get sdb://mysqlite/nokey',
    'sdb.delete sdb://mysqlite/k1',
    'sdb.get_or_set_hash sdb://mysqlite/k1',
    'sdb.get_or_set_hash notsdb',
    'sdb.get_or_set_hash sdb://nosuch/x',
    'sdb.get sdb://pprof/extra',
    'sdb.get sdb://gpgyaml/db:pass',
    'sdb.get sdb://gpgyaml/db:user',
    'config.get resolved_at_load',
    'config.get nested_at_load',
    'config.get unknown_at_load',
    'config.get raw_ref',
    'config.get from_sdb',
    'config.get osenv',
    'config.get nosuchkey',
    'config.get nosuchkey default=sdb://osenv/SDBCMP_VAR',
    'pillar.get from_sdb',
    'pillar.get raw_ref',
  ].map((line) => ({ args: splitCase(line) })),
  { args: ['sdb.get_or_set_hash', 'sdb://mysqlite/pw', '12'], random: true },
  { args: ['sdb.get_or_set_hash', 'sdb://mysqlite/pw2', '5', 'chars=ab'], random: true },
];

/** `sdb.set sdb://x/k {a: [1, 2]}`: the function, the URI, then the rest as one argument. */
function splitCase(line: string): string[] {
  const parts = line.split(' ');
  return parts.length > 3 && parts[0] === 'sdb.set'
    ? [...parts.slice(0, 2), parts.slice(2).join(' ')]
    : parts;
}

function writeFixtures(tmp: string): void {
  mkdirSync(join(tmp, 'data'), { recursive: true });
  mkdirSync(join(tmp, 'pillar'), { recursive: true });
  writeFileSync(
    join(tmp, 'data', 'a.yaml'),
    'app:\n  db:\n    user: admin\n    pass: s3cret\n  hosts: [h1, h2]\nlist:\n  - name: one\n  - name: two\n',
  );
  writeFileSync(join(tmp, 'data', 'b.yaml'), 'app:\n  db:\n    pass: override\n  hosts: [h3]\nextra: 7\n');
  writeFileSync(join(tmp, 'pillar', 'top.sls'), "base:\n  '*':\n    - p\n");
  writeFileSync(
    join(tmp, 'pillar', 'p.sls'),
    `from_sdb: {{ salt['sdb.get']('sdb://myyaml/app:db:user') }}\nraw_ref: sdb://osenv/SDBCMP_VAR\npprof:\n  driver: yaml\n  files: [${join(tmp, 'data', 'b.yaml')}]\n`,
  );
  const keys = join(tmp, 'gpgkeys');
  mkdirSync(keys, { recursive: true, mode: 0o700 });
  const env = { ...process.env, GNUPGHOME: keys };
  const gpg = (args: string[], input?: string) =>
    execFileSync('gpg', ['--batch', ...args], { env, input, stdio: ['pipe', 'pipe', 'ignore'] }).toString();
  gpg(['--passphrase', '', '--quick-gen-key', 'cmp <cmp@example.invalid>', 'default', 'default', 'never']);
  const cipher = gpg(['--armor', '--trust-model', 'always', '-e', '-r', 'cmp@example.invalid'], 'gpg-secret');
  const block = cipher
    .trimEnd()
    .split('\n')
    .map((l) => `    ${l}`);
  writeFileSync(join(tmp, 'data', 'g.yaml'), ['db:', '  user: gadmin', '  pass: |', ...block, ''].join('\n'));
}

function confDir(tmp: string, side: string): string {
  const dir = join(tmp, side);
  mkdirSync(dir, { recursive: true });
  const data = join(tmp, 'data');
  writeFileSync(
    join(dir, 'minion'),
    `id: sdbcmp
file_client: local
user: root
root_dir: ${join(dir, 'root')}
gpg_keydir: ${join(tmp, 'gpgkeys')}
pillar_roots: {base: [${join(tmp, 'pillar')}]}
osenv: {driver: env}
myyaml: {driver: yaml, files: [${data}/a.yaml, ${data}/b.yaml]}
merged_lists: {driver: yaml, files: [${data}/a.yaml, ${data}/b.yaml], merge: {merge_lists: true}}
gpgyaml: {driver: yaml, gpg: true, files: [${data}/g.yaml]}
mysqlite: {driver: sqlite3, database: ${join(dir, 'sdb.sqlite')}}
badprof: {driver: nosuchdriver}
nodriver: {foo: bar}
resolved_at_load: sdb://osenv/SDBCMP_VAR
nested_at_load: {inner: 'sdb://myyaml/app:db:user', lst: ['sdb://myyaml/extra', plain]}
unknown_at_load: sdb://nosuch/x
`,
  );
  return dir;
}

interface Outcome {
  code: number | null;
  value: unknown;
  /** The usage error line, when the call printed one. */
  usage?: string;
}

function run(cmd: string, argv: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(cmd, [...argv, '--out', 'json'], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
    });
    child.on('close', (code) => {
      const usage = err.split('\n').find((l) => l.startsWith('Passed invalid arguments'));
      let value: unknown;
      try {
        value = (JSON.parse(out) as { local: unknown }).local;
      } catch {
        value = undefined;
      }
      resolve({ code, value, usage });
    });
  });
}

function same(a: Outcome, b: Outcome, random: boolean): boolean {
  if (a.code !== b.code) return false;
  if (a.usage !== undefined || b.usage !== undefined) return a.usage === b.usage;
  if (random) {
    const alphabet = (v: unknown) => typeof v === 'string' && /^[ab]*$/.test(v);
    return String(a.value).length === String(b.value).length && alphabet(a.value) === alphabet(b.value);
  }
  return JSON.stringify(a.value) === JSON.stringify(b.value);
}

async function main(): Promise<void> {
  if (!existsSync(join(SALT_HOME, 'src', 'scripts', 'salt-call'))) {
    process.stdout.write(`compare-sdb: skipped: no real Salt at ${SALT_HOME} (set TSALT_SALT_SRC)\n`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'tsalt-compare-sdb-'));
  writeFixtures(tmp);
  const env = { ...process.env, SDBCMP_VAR: 'hello' };
  const pyEnv = { ...env, PYTHONPATH: `${join(SALT_HOME, 'src')}:${join(SALT_HOME, 'shim')}` };
  const py = [
    '/usr/bin/python3',
    join(SALT_HOME, 'src', 'scripts', 'salt-call'),
    '--local',
    '-c',
    confDir(tmp, 'py'),
  ];
  const ts = [process.execPath, join(REPO, 'bin', 'salt-call'), '--local', '-c', confDir(tmp, 'ts')];
  let identical = 0;
  for (const c of CASES) {
    // in order, one at a time: the sqlite3 cases build on each other
    const a = await run(py[0] ?? '', [...py.slice(1), ...c.args], pyEnv);
    const b = await run(ts[0] ?? '', [...ts.slice(1), ...c.args], env);
    const ok = same(a, b, c.random === true);
    if (ok) identical += 1;
    process.stdout.write(`${ok ? 'same  ' : 'DIFFER'} ${c.args.join(' ')}\n`);
    if (!ok)
      process.stdout.write(
        `  salt:  ${a.code} ${a.usage ?? JSON.stringify(a.value)}\n  tsalt: ${b.code} ${b.usage ?? JSON.stringify(b.value)}\n`,
      );
  }
  execFileSync('gpgconf', ['--homedir', join(tmp, 'gpgkeys'), '--kill', 'all'], { stdio: 'ignore' });
  rmSync(tmp, { recursive: true, force: true });
  process.stdout.write(`\n${identical} of ${CASES.length} identical\n`);
}

await main();
