/**
 * A run's minions and their end states: each expected minion waits until its return arrives
 * (returned, or failed with its retcode); at the timeout the ones still silent did not return,
 * or were not connected when presence says they are absent.
 */

export type EndState = 'waiting' | 'returned' | 'failed' | 'no_return' | 'not_connected';

export interface MinionResult {
  readonly id: string;
  readonly state: EndState;
  readonly retcode?: number;
  readonly ret?: unknown;
}

/** The words the console shows for each state. */
export const STATE_LABEL: Readonly<Record<EndState, string>> = {
  waiting: 'waiting',
  returned: 'returned',
  failed: 'failed',
  no_return: 'did not return',
  not_connected: 'not connected',
};

function retcodeOf(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object') {
    const codes = Object.values(v as Record<string, unknown>).filter(
      (x): x is number => typeof x === 'number',
    );
    return codes.find((c) => c !== 0) ?? 0;
  }
  return 0;
}

function failedFlag(v: unknown): boolean {
  if (v === false) return true;
  if (v && typeof v === 'object') return Object.values(v as Record<string, unknown>).some((x) => x === false);
  return false;
}

/** The result of one return (a `salt/job/<jid>/ret/<id>` event's data, or a stored return). */
export function resultOf(id: string, data: Readonly<Record<string, unknown>>): MinionResult {
  const retcode = retcodeOf(data.retcode);
  const ret = data.return;
  if (data.state === 'not_connected') return { id, state: 'not_connected' };
  if (data.state === 'no_response' || data.state === 'running') return { id, state: 'no_return' };
  if (retcode !== 0 || failedFlag(data.success)) return { id, state: 'failed', retcode: retcode || 1, ret };
  return { id, state: 'returned', retcode: 0, ret };
}

/** The minions still waiting at the timeout, settled by presence (`present` undefined: unknown). */
export function settle(
  results: ReadonlyMap<string, MinionResult>,
  present: ReadonlySet<string> | undefined,
): Map<string, MinionResult> {
  const out = new Map(results);
  for (const [id, r] of results) {
    if (r.state !== 'waiting') continue;
    out.set(id, { id, state: present && !present.has(id) ? 'not_connected' : 'no_return' });
  }
  return out;
}

/** Counts per state, for the run's summary line. */
export function tally(results: Iterable<MinionResult>): Record<EndState, number> {
  const t: Record<EndState, number> = { waiting: 0, returned: 0, failed: 0, no_return: 0, not_connected: 0 };
  for (const r of results) t[r.state]++;
  return t;
}
