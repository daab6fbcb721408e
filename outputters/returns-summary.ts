/**
 * The summary the `salt` CLI prints after the returns when `cli_summary` is on
 * (`salt/cli/salt.py` `_print_returns_summary`).
 */
import { pyValue } from '../kernel/python/index.js';

const RULE = '-------------------------------------------';

function field(v: unknown, key: string): unknown {
  const p = pyValue(v);
  if (p.kind !== 'dict') return undefined;
  return p.value.find(([k]) => k === key)?.[1];
}

function hasField(v: unknown, key: string): boolean {
  const p = pyValue(v);
  return p.kind === 'dict' && p.value.some(([k]) => k === key);
}

/** Salt's `_get_retcode`: a dict's non-zero `retcode` (the highest of a dict of them), 1 for False. */
export function returnRetcode(full: unknown): number {
  const p = pyValue(full);
  if (p.kind === 'bool') return p.value ? 0 : 1;
  const rc = field(full, 'retcode');
  const r = pyValue(rc);
  if (r.kind === 'dict') return Math.max(0, ...r.value.map(([, x]) => Number(x) || 0));
  if (r.kind === 'int' || r.kind === 'float' || r.kind === 'bool') return Number(r.value);
  return 0;
}

/**
 * The summary text for the full returns (`{minion: {ret, retcode, ...}}`), starting with
 * the two blank lines Salt prints and without a trailing newline. `verbose` (`-v`) adds the
 * lists of minions that were not connected, did not respond or failed.
 */
export function renderReturnsSummary(
  returns: Readonly<Record<string, unknown>>,
  opts: { verbose?: boolean } = {},
): string {
  let returned = 0;
  const notReturned: string[] = [];
  const notConnected: string[] = [];
  const noResponse: string[] = [];
  const failed: string[] = [];
  for (const [minion, full] of Object.entries(returns)) {
    const ret = hasField(full, 'ret') ? field(full, 'ret') : full;
    if (typeof ret === 'string' && ret.startsWith('Minion did not return')) {
      if (ret.includes('Not connected')) notConnected.push(minion);
      else if (ret.includes('No response')) noResponse.push(minion);
      notReturned.push(minion);
    } else {
      returned++;
      if (returnRetcode(full)) failed.push(minion);
    }
  }
  const lines = [
    '\n',
    RULE,
    'Summary',
    RULE,
    `# of minions targeted: ${returned + notReturned.length}`,
    `# of minions returned: ${returned}`,
    `# of minions that did not return: ${notReturned.length}`,
    `# of minions with errors: ${failed.length}`,
  ];
  if (opts.verbose) {
    if (notConnected.length) lines.push(`Minions not connected: ${notConnected.join(' ')}`);
    if (noResponse.length) lines.push(`Minions not responding: ${noResponse.join(' ')}`);
    if (failed.length) lines.push(`Minions with failures: ${failed.join(' ')}`);
  }
  lines.push(RULE);
  return lines.join('\n');
}
