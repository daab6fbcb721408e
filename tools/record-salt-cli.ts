/**
 * Records what real Salt answers to the CLI cases of tools/salt-cli-cases.ts into
 * test/fixtures/salt-cli/salt-3006.18.json (normalized: job ids, seconds, traceback frames).
 *
 *   npm run build
 *   TSALT_SALT_SRC=/path/to/salt-v3006.18 node dist/tools/record-salt-cli.js [case-id ...]
 *
 * With case ids, only those are recorded again; the others are kept.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO } from './local-cluster.js';
import { CLI_CASES, type CliCase, normalizeOutput } from './salt-cli-cases.js';
import { type SaltReference, startSaltReference } from './salt-reference.js';

export const FIXTURE = join(REPO, 'test/fixtures/salt-cli/salt-3006.18.json');

export interface RecordedRun {
  /** The command as it was run, config dirs as placeholders. */
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliFixture {
  salt: string;
  recordedWith: string;
  cases: Record<string, RecordedRun>;
}

/** The command line of a case for a cluster whose config dirs are `master` and `minion`. */
export function caseArgs(c: CliCase, dirs: { master: string; minion: string }): string[] {
  return ['-c', c.conf === 'minion' ? dirs.minion : dirs.master, ...c.args];
}

function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`;
}

/** Runs one case against real Salt. */
export async function runOnSalt(ref: SaltReference, c: CliCase): Promise<RecordedRun> {
  const dirs = { master: ref.confDir, minion: ref.minionConfDir('m1') };
  const r = await ref.cli(c.cli, caseArgs(c, dirs));
  const conf = c.conf === 'minion' ? '<minion-config-dir>' : '<master-config-dir>';
  return {
    command: [c.cli, '-c', conf, ...c.args].map(shellWord).join(' '),
    code: r.code,
    stdout: normalizeOutput(r.stdout),
    stderr: normalizeOutput(r.stderr),
  };
}

async function main(): Promise<void> {
  const src = process.env.TSALT_SALT_SRC;
  if (!src) throw new Error('set TSALT_SALT_SRC to a Salt 3006.18 source tree');
  const only = new Set(process.argv.slice(2));
  const fixture: CliFixture = existsSync(FIXTURE)
    ? (JSON.parse(readFileSync(FIXTURE, 'utf8')) as CliFixture)
    : { salt: '', recordedWith: '', cases: {} };
  const ref = await startSaltReference({ src });
  try {
    const version = await ref.cli('salt', ['--version']);
    fixture.salt = version.stdout.trim();
    fixture.recordedWith =
      'TSALT_SALT_SRC=<salt v3006.18 checkout> node dist/tools/record-salt-cli.js (tools/salt-reference.ts: master, m1 and m2 running, m3 accepted and stopped)';
    for (const c of CLI_CASES) {
      if (only.size > 0 && !only.has(c.id)) continue;
      fixture.cases[c.id] = await runOnSalt(ref, c);
      process.stdout.write(`${c.id}: exit ${fixture.cases[c.id]!.code}\n`);
    }
  } finally {
    await ref.stop();
  }
  const ordered: Record<string, RecordedRun> = {};
  for (const c of CLI_CASES) if (fixture.cases[c.id]) ordered[c.id] = fixture.cases[c.id]!;
  fixture.cases = ordered;
  mkdirSync(dirname(FIXTURE), { recursive: true });
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
