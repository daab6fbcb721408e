/**
 * Runs the everyday execution modules (config, match, defaults, slsutil, data, environ, random,
 * status, disk, mount, ps, network) on real Salt 3006.18 and on tsalt with `salt-call --local`
 * and the same arguments, and says which returns are identical: by value where deterministic,
 * by shape (keys and JSON types) where they move with time. Needs real Salt's source tree
 * (/tmp/wtcli-salt, or TSALT_SALT_SRC with a `src` and `shim` inside); skipped otherwise.
 *
 *   npm run build
 *   node dist/tools/compare-modules.js [fun-prefix ...]      # e.g. `status.` or `config.get`
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMPARE_CASES,
  type CompareCase,
  sameEntries,
  sameShape,
  sameType,
  sameValue,
} from './compare-modules-cases.js';
import { REPO } from './local-cluster.js';

const SALT_HOME = process.env.TSALT_SALT_SRC ?? '/tmp/wtcli-salt';

interface Side {
  cmd: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
}

function run(side: Side, c: CompareCase): Promise<{ ok: boolean; value: unknown; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(side.cmd, [...side.argv, c.fun, ...c.args, '--out', 'json'], { env: side.env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.resume();
    child.on('close', () => {
      try {
        const parsed = JSON.parse(out) as { local: unknown };
        resolve({ ok: true, value: parsed.local, text: out });
      } catch {
        resolve({ ok: false, value: undefined, text: out });
      }
    });
  });
}

function confDir(root: string, id: string, roots: string): string {
  const dir = join(root, `conf-${id}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'minion'),
    [
      'file_client: local',
      `file_roots: {base: [${join(roots, 'files')}]}`,
      `pillar_roots: {base: [${join(roots, 'pillar')}]}`,
      `root_dir: ${join(root, `root-${id}`)}`,
      `id: ${id}`,
      'user: root',
      'my_opt: {a: 1, b: [x, y]}',
      'mongo.db: mine',
      '',
    ].join('\n'),
  );
  return dir;
}

/** Fixture files both minions read: a formula with defaults.yaml and a template. */
function writeRoots(roots: string): void {
  mkdirSync(join(roots, 'files', 'formula'), { recursive: true });
  mkdirSync(join(roots, 'pillar'), { recursive: true });
  writeFileSync(join(roots, 'files', 'formula', 'defaults.yaml'), 'formula:\n  port: 80\n  users: [a, b]\n');
  writeFileSync(join(roots, 'files', 'tpl.sls'), 'id: {{ grains.id | length }}\nsum: {{ 1 + 2 }}\n');
}

async function main(): Promise<void> {
  if (!existsSync(join(SALT_HOME, 'src', 'scripts', 'salt-call'))) {
    process.stdout.write(`compare-modules: skipped: no real Salt at ${SALT_HOME} (set TSALT_SALT_SRC)\n`);
    return;
  }
  const filters = process.argv.slice(2);
  const cases = COMPARE_CASES.filter((c) => !filters.length || filters.some((f) => c.fun.startsWith(f)));
  const tmp = mkdtempSync(join(tmpdir(), 'tsalt-compare-'));
  writeRoots(tmp);
  const py: Side = {
    cmd: '/usr/bin/python3',
    argv: [
      join(SALT_HOME, 'src', 'scripts', 'salt-call'),
      '--local',
      '-c',
      confDir(join(tmp, 'py'), 'cmp1', tmp),
    ],
    env: { ...process.env, PYTHONPATH: `${join(SALT_HOME, 'src')}:${join(SALT_HOME, 'shim')}` },
  };
  const ts: Side = {
    cmd: process.execPath,
    // its own root dir (its own datastore), the same id
    argv: [join(REPO, 'bin', 'salt-call'), '--local', '-c', confDir(join(tmp, 'ts'), 'cmp1', tmp)],
    env: process.env,
  };
  let same = 0;
  const differ: string[] = [];
  for (const c of cases) {
    const [a, b] = await Promise.all([run(py, c), run(ts, c)]);
    const judges = { value: sameValue, shape: sameShape, type: sameType, entries: sameEntries };
    const judge = judges[c.mode];
    const ok = a.ok && b.ok && judge(a.value, b.value);
    const label = `${c.fun} ${c.args.join(' ')}`.trim();
    if (ok) same += 1;
    else differ.push(label);
    process.stdout.write(`${ok ? 'same  ' : 'DIFFER'} [${c.mode}] ${label}\n`);
    if (!ok && process.env.VERBOSE && c.mode !== 'type')
      process.stdout.write(`  salt:  ${a.text.trim()}\n  tsalt: ${b.text.trim()}\n`);
  }
  rmSync(tmp, { recursive: true, force: true });
  process.stdout.write(`\n${same} of ${cases.length} identical\n`);
  if (differ.length) process.stdout.write(`differ: ${differ.join('; ')}\n`);
}

await main();
