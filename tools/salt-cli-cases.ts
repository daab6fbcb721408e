/**
 * The command lines of issue 27 that tsalt must answer as Salt 3006.18 does, texts and exit
 * codes included: recorded from real Salt by `tools/record-salt-cli.ts` into
 * `test/fixtures/salt-cli/salt-3006.18.json`, and replayed against tsalt (and against real
 * Salt when one is at hand) by `test/integration/salt-differential.test.ts`.
 *
 * Both sides run the same setup: a master, minions `m1` and `m2` running, `m3` with an
 * accepted key and stopped, and no minion named `ghost*`. `conf: 'minion'` runs the CLI with
 * `m1`'s config dir (salt-call), otherwise with the master's.
 */

import { VERSION } from '../kernel/version.js';

export type CliName = 'salt' | 'salt-run' | 'salt-call' | 'salt-key';

export interface CliCase {
  /** Stable name, the key in the fixture file. */
  id: string;
  /** The item of issue 27 it checks. */
  item: number;
  cli: CliName;
  args: string[];
  conf?: 'master' | 'minion';
  /**
   * What must be identical: `exact` (stdout, stderr, exit code); `help` (exit code, stderr
   * and the first line of stdout: the help text itself lists tsalt's own options); `keys`
   * (exit code, stderr, and the set of keys of each value of the JSON on stdout); `docs`
   * (exit code, stderr, and that stdout is a nested map of runner functions to their docs:
   * tsalt's runners and docs are its own).
   */
  compare?: 'exact' | 'help' | 'keys' | 'docs';
  /**
   * A deliberate difference (listed in the README): what tsalt answers instead, over the
   * recorded answer.
   */
  tsalt?: { code?: number; stdout?: string; why: string };
}

export const CLI_CASES: readonly CliCase[] = [
  // 1. a non-zero retcode or an error: ERROR on stderr
  { id: 'retcode-3', item: 1, cli: 'salt', args: ['m1', 'test.retcode', '3'] },
  { id: 'retcode-3-json', item: 1, cli: 'salt', args: ['--out', 'json', 'm1', 'test.retcode', '3'] },
  {
    id: 'retcode-3-static',
    item: 1,
    cli: 'salt',
    args: ['--static', 'm1', 'test.retcode', '3'],
  },
  // --static prints a state function's returns with the highstate outputter (get_printout)
  {
    id: 'state-single-static',
    item: 1,
    cli: 'salt',
    args: ['--static', 'm1', 'state.single', 'test.succeed_without_changes', 'static-check'],
  },
  {
    id: 'state-static-non-state-data',
    item: 1,
    cli: 'salt',
    args: ['--static', 'm1', 'state.sls_exists', 'nosuch'],
  },
  { id: 'cmd-run-exit-2', item: 1, cli: 'salt', args: ['m1', 'cmd.run', 'exit 2'] },
  { id: 'cmd-retcode-3', item: 1, cli: 'salt', args: ['m1', 'cmd.retcode', 'exit 3'] },
  { id: 'missing-module', item: 1, cli: 'salt', args: ['m1', 'nosuch.fn'] },
  { id: 'missing-function', item: 1, cli: 'salt', args: ['m1', 'test.nosuch'] },
  { id: 'bad-kwarg', item: 1, cli: 'salt', args: ['m1', 'test.ping', 'foo=bar'] },
  { id: 'ping-ok', item: 1, cli: 'salt', args: ['m1', 'test.ping'] },
  { id: 'call-retcode-3', item: 1, cli: 'salt-call', conf: 'minion', args: ['--local', 'test.retcode', '3'] },
  // 2. usage errors, as Salt's optparse gives them
  { id: 'salt-bogus-option', item: 2, cli: 'salt', args: ['--bogus', 'm1', 'test.ping'] },
  { id: 'salt-key-bogus-option', item: 2, cli: 'salt-key', args: ['--bogus'] },
  { id: 'salt-run-bogus-option', item: 2, cli: 'salt-run', args: ['--bogus'] },
  { id: 'salt-call-bogus-option', item: 2, cli: 'salt-call', conf: 'minion', args: ['--bogus'] },
  { id: 'salt-timeout-abc', item: 2, cli: 'salt', args: ['-t', 'abc', 'm1', 'test.ping'] },
  { id: 'salt-timeout-long-abc', item: 2, cli: 'salt', args: ['--timeout=abc', 'm1', 'test.ping'] },
  { id: 'salt-run-timeout-abc', item: 2, cli: 'salt-run', args: ['-t', 'abc', 'jobs.active'] },
  {
    id: 'salt-call-timeout-abc',
    item: 2,
    cli: 'salt-call',
    conf: 'minion',
    args: ['-t', 'abc', 'test.ping'],
  },
  { id: 'salt-timeout-missing', item: 2, cli: 'salt', args: ['m1', 'test.ping', '-t'] },
  { id: 'salt-two-target-types', item: 2, cli: 'salt', args: ['-G', '-E', 'x', 'test.ping'] },
  { id: 'salt-no-target', item: 2, cli: 'salt', args: [], compare: 'help' },
  { id: 'salt-only-target', item: 2, cli: 'salt', args: ['m1'], compare: 'help' },
  { id: 'salt-run-no-function', item: 2, cli: 'salt-run', args: [], compare: 'docs' },
  { id: 'salt-call-no-function', item: 2, cli: 'salt-call', conf: 'minion', args: [], compare: 'help' },
  { id: 'salt-bad-outputter', item: 2, cli: 'salt', args: ['--out', 'nosuchoutputter', 'm1', 'test.ping'] },
  { id: 'salt-key-list-bogus', item: 2, cli: 'salt-key', args: ['-l', 'bogus'] },
  // 3. minions that do not return
  { id: 'list-unknown-minion', item: 3, cli: 'salt', args: ['-t', '2', '-L', 'm1,ghost', 'test.ping'] },
  { id: 'list-only-unknown', item: 3, cli: 'salt', args: ['-L', 'ghost1,ghost2', 'test.ping'] },
  {
    id: 'stopped-minion',
    item: 3,
    cli: 'salt',
    args: ['-t', '2', 'm3', 'test.ping'],
    tsalt: {
      code: 1,
      stdout: 'm3:\n    Minion did not return. [Not connected]\n',
      why: "Salt decides by the minion's IP addresses (all the same on one host); tsalt knows each minion's connection",
    },
  },
  // 4. batches
  { id: 'batch-1', item: 4, cli: 'salt', args: ['-L', 'm1', '-b', '1', 'test.ping'] },
  { id: 'batch-50pc-cmd', item: 4, cli: 'salt', args: ['-L', 'm1', '-b', '50%', 'cmd.run', 'echo hi'] },
  { id: 'batch-json', item: 4, cli: 'salt', args: ['-L', 'm1', '-b', '1', '--out', 'json', 'test.ping'] },
  { id: 'batch-retcode', item: 4, cli: 'salt', args: ['-L', 'm1', '-b', '1', 'test.retcode', '3'] },
  {
    id: 'batch-failhard',
    item: 4,
    cli: 'salt',
    args: ['-L', 'm1', '-b', '1', '--failhard', 'test.retcode', '2'],
  },
  { id: 'batch-unknown-minion', item: 4, cli: 'salt', args: ['-L', 'm1,ghost', '-b', '1', 'test.ping'] },
  {
    id: 'batch-stopped-minion',
    item: 4,
    cli: 'salt',
    args: ['-t', '2', '-L', 'm1,m3', '-b', '1', 'test.ping'],
  },
  // 5. test module return values and texts
  { id: 'fib-json', item: 5, cli: 'salt', args: ['--out', 'json', 'm1', 'test.fib', '10'] },
  { id: 'fib-nested', item: 5, cli: 'salt', args: ['m1', 'test.fib', '10'] },
  { id: 'exception', item: 5, cli: 'salt', args: ['m1', 'test.exception', 'boom'] },
  { id: 'echo-no-argument', item: 5, cli: 'salt', args: ['m1', 'test.echo'] },
  // 6. runners
  {
    id: 'list-jobs-keys',
    item: 6,
    cli: 'salt-run',
    args: ['jobs.list_jobs', '--out', 'json'],
    compare: 'keys',
  },
  {
    id: 'run-missing-function',
    item: 6,
    cli: 'salt-run',
    args: ['nosuch.fn'],
    tsalt: { code: 1, why: 'an unknown runner function fails the command (Salt 3006 exits 0)' },
  },
  // 7. versions
  { id: 'test-version', item: 7, cli: 'salt', args: ['m1', 'test.version'] },
  { id: 'call-test-version', item: 7, cli: 'salt-call', conf: 'minion', args: ['--local', 'test.version'] },
  {
    id: 'grains-version',
    item: 7,
    cli: 'salt',
    args: ['m1', 'grains.item', 'saltversion', 'saltversioninfo'],
  },
  { id: 'manage-versions', item: 7, cli: 'salt-run', args: ['manage.versions'] },
  {
    id: 'salt-version',
    item: 7,
    cli: 'salt',
    args: ['--version'],
    tsalt: { stdout: `salt 3006.18 (Sulfur; tsalt ${VERSION})\n`, why: "tsalt's own version beside Salt's" },
  },
];

/**
 * What differs between two runs of the same command and is not an answer: job ids, the
 * seconds `test.fib` took, a Python traceback's frames (tsalt has none), Python's
 * deprecation warnings, and the config dirs in the command lines.
 */
export function normalizeOutput(text: string): string {
  const lines = text
    .replace(/\d{20}/g, '<JID>')
    // the highstate outputter's clock: start time, durations, the right-aligned total
    .replace(/^( +Started: )\d\d:\d\d:\d\d\.\d+$/gm, '$1<TIME>')
    .replace(/^( +Duration: )[\d.]+ ms$/gm, '$1<SECONDS> ms')
    .replace(/^Total run time: +[\d.]+ (m?s)$/gm, 'Total run time: <SECONDS> $1')
    // test.fib's seconds (a version such as 3006.18 has fewer decimals)
    .replace(/\b\d+\.\d{3,}(?:e-?\d+)?\b|\b\d+(?:\.\d+)?e-\d+\b/g, '<SECONDS>')
    .split('\n')
    .filter((l) => !/DeprecationWarning|^\s+import (?:crypt|spwd)$/.test(l));
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(line);
    if (!line.endsWith('Traceback (most recent call last):')) continue;
    // the frames: every line indented deeper than the one that opens the traceback
    const indent = /^\s*/.exec(line)![0].length;
    let j = i + 1;
    while (j < lines.length && /^\s*/.exec(lines[j]!)![0].length > indent) j++;
    if (j > i + 1) out.push(`${' '.repeat(indent + 2)}<frames>`);
    i = j - 1;
  }
  return out.join('\n');
}

/** The comparable parts of one run, as `compare` says. */
export function comparable(
  c: CliCase,
  run: { code: number | null; stdout: string; stderr: string },
): { code: number | null; stdout: string; stderr: string } {
  const stdout = normalizeOutput(run.stdout);
  const stderr = normalizeOutput(run.stderr);
  if (c.compare === 'help') return { code: run.code, stdout: stdout.split('\n')[0] ?? '', stderr };
  if (c.compare === 'keys') {
    const data = JSON.parse(run.stdout || '{}') as Record<string, Record<string, unknown>>;
    const shapes = new Set(Object.values(data).map((v) => Object.keys(v).join(',')));
    return { code: run.code, stdout: [...shapes].sort().join('\n'), stderr };
  }
  if (c.compare === 'docs') {
    const top = stdout.split('\n').filter((l) => l && !l.startsWith(' '));
    const listing = top.length > 0 && top.every((l) => /^\w+\.\w+:$/.test(l));
    return { code: run.code, stdout: listing ? '<module.function: doc>...' : stdout, stderr };
  }
  return { code: run.code, stdout, stderr };
}
