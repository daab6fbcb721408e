/**
 * Runs the `gem` execution module and the `gem` states on real Salt 3006.18 and on tsalt with
 * `salt-call --local --out json`, the same calls in the same order over throwaway gems
 * (tools/gem-fixture.ts: a local `file://` source, a temp GEM_HOME and gemrc), and says which
 * returns are identical (logging off: cmd's log lines are not the gem module's). Each side starts from a fresh gem home at the same path. A state's
 * return is compared by name, result, comment and changes; a traceback by its last line.
 * Needs real Salt's source tree (/tmp/wtcli-salt, or TSALT_SALT_SRC) and `gem`.
 *
 *   npm run build && node dist/tools/compare-gem.js
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type GemFixture, makeGemFixture, resetGemFixture } from './gem-fixture.js';
import { REPO } from './local-cluster.js';

const SALT_HOME = process.env.TSALT_SALT_SRC ?? '/tmp/wtcli-salt';
const A = 'tsalt-gemfix-a';
const B = 'tsalt-gemfix-b';

interface Side {
  cmd: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
}

/** The calls, in order (each side runs them all on a fresh gem home). */
function cases(fx: GemFixture): string[][] {
  const st = (fn: string, ...kw: string[]) => ['state.single', `gem.${fn}`, ...kw];
  return [
    ['gem.version'],
    ['gem.list', 'tsalt-gemfix'],
    ['gem.sources_list'],
    st('installed', `name=${A}`, 'test=True'),
    st('installed', `name=${A}`, 'version=1.0.0'),
    st('installed', `name=${A}`, 'version=1.0.0'),
    st('installed', `name=${A}`, 'version=>=1.0'),
    st('installed', `name=${A}`, 'version=>1.0.0', 'test=True'),
    st('installed', `name=${A}`, 'version=<=0.5', 'test=True'),
    st('installed', `name=${A}`, 'version=1.1.0', 'test=True'),
    ['gem.list', 'tsalt-gemfix'],
    ['gem.list_upgrades'],
    ['gem.install', B, `gem_bin=${fx.gemBin}`],
    ['gem.install', A, 'pre_releases=True'],
    ['gem.list', 'tsalt-gemfix', `gem_bin=${fx.gemBin}`],
    ['gem.update', B],
    ['gem.install', 'tsalt-gemfix-nope'],
    ['gem.install', A, `install_dir=${fx.dir}/elsewhere`],
    ['gem.uninstall', `${A} ${B}`],
    ['gem.list', 'tsalt-gemfix'],
    st('installed', `name=${B}`, 'version=0.1.0', 'rdoc=True', 'ri=True', `source=${fx.source}`),
    st('installed', 'name=tsalt-gemfix-nope'),
    st('installed', `name=${A}`, 'ruby=2.7', 'pre_releases=True'),
    st('removed', `name=${A}`, 'test=True'),
    st('removed', `name=${A}`),
    st('removed', `name=${A}`),
    st('removed', `name=${B}`, `gem_bin=${fx.gemBin}`),
    st('sources_add', `name=${fx.source2}`, 'test=True'),
    st('sources_add', `name=${fx.source2}`),
    st('sources_add', `name=${fx.source2}`),
    ['gem.sources_list'],
    st('sources_remove', `name=${fx.source2}`, 'test=True'),
    st('sources_remove', `name=${fx.source2}`),
    st('sources_remove', `name=${fx.source2}`),
    ['gem.sources_add', `${fx.dir}/no-such-source/`],
    ['gem.sources_remove', fx.source2],
    ['gem.update_system'],
    ['gem.version', `gem_bin=${fx.dir}/no-such-gem`],
    ['gem.list', 'ruby=2.7', 'prefix=tsalt-gemfix'],
  ];
}

type Outcome = { code: number | null; value: unknown; text: string };

const execFileP = promisify(execFile);

async function run(side: Side, argv: string[]): Promise<Outcome> {
  const full = [...side.argv, ...argv, '--out', 'json', '--log-level', 'quiet'];
  let got: { code: number | null; stdout: string; stderr: string };
  try {
    got = { code: 0, ...(await execFileP(side.cmd, full, { env: side.env, maxBuffer: 1 << 24 })) };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    got = { code: e.code ?? null, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
  let value: unknown;
  try {
    value = normalize((JSON.parse(got.stdout) as { local: unknown }).local);
  } catch {
    value = undefined;
  }
  return { code: got.code, value, text: `${got.stdout}${got.stderr}`.trim() };
}

/** A state run's one return without timings, a traceback reduced to its last line. */
function normalize(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const entries = Object.entries(v as Record<string, unknown>);
  const first = entries[0]?.[1] as Record<string, unknown> | undefined;
  if (entries.length !== 1 || !entries[0]?.[0].startsWith('gem_|-') || !first) return v;
  let comment = first.comment;
  if (typeof comment === 'string' && comment.includes('Traceback'))
    comment = comment.trim().split('\n').at(-1);
  return { name: first.name, result: first.result, comment, changes: first.changes };
}

function confDir(root: string, id: string): string {
  const dir = join(root, `conf-${id}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'minion'),
    `id: ${id}\nfile_client: local\nroot_dir: ${join(root, `root-${id}`)}\nuser: root\n`,
  );
  return dir;
}

async function main(): Promise<void> {
  if (!existsSync(join(SALT_HOME, 'src', 'scripts', 'salt-call'))) {
    process.stdout.write(`compare-gem: skipped: no real Salt at ${SALT_HOME} (set TSALT_SALT_SRC)\n`);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'tsalt-compare-gem-'));
  const fx = makeGemFixture(join(tmp, 'gems'));
  const env = { ...process.env, ...fx.env, HOME: join(tmp, 'home') };
  const salt = join(SALT_HOME, 'src', 'scripts', 'salt-call');
  const pythonPath = `${join(SALT_HOME, 'src')}:${join(SALT_HOME, 'pylib')}`;
  const sides: Side[] = [
    { cmd: '/usr/bin/python3', argv: [salt], env: { ...env, PYTHONPATH: pythonPath } },
    { cmd: process.execPath, argv: [join(REPO, 'bin', 'salt-call')], env },
  ].map((s, i) => ({ ...s, argv: [...s.argv, '--local', '-c', confDir(join(tmp, `side${i}`), 'gemcmp')] }));
  const list = cases(fx);
  const results: Outcome[][] = [];
  for (const side of sides) {
    resetGemFixture(fx);
    const got: Outcome[] = [];
    for (const c of list) got.push(await run(side, c));
    results.push(got);
  }
  let same = 0;
  list.forEach((c, i) => {
    const a = results[0]?.[i] as Outcome;
    const b = results[1]?.[i] as Outcome;
    const ok =
      a.code === b.code &&
      (a.value !== undefined || b.value !== undefined
        ? JSON.stringify(a.value) === JSON.stringify(b.value)
        : a.text === b.text);
    if (ok) same += 1;
    process.stdout.write(`${ok ? 'same  ' : 'DIFFER'} ${c.join(' ').replaceAll(tmp, '<tmp>')}\n`);
    if (!ok || process.env.VERBOSE)
      process.stdout.write(`  salt  (${a.code}): ${a.text}\n  tsalt (${b.code}): ${b.text}\n`);
  });
  rmSync(tmp, { recursive: true, force: true });
  process.stdout.write(`\n${same} of ${list.length} identical\n`);
}

await main();
