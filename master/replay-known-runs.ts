/**
 * Which replayed publishes a connecting minion is known to have run already (no Salt
 * counterpart: Salt replays nothing). The publisher replays recent publishes to minions that
 * (re)connect (master/publish-replay.ts); a minion drops a jid it has seen, but a stock Salt
 * minion's jid queue lives in memory, so one restarted together with its master would run a
 * replayed job again. The master's job cache says which minions returned a job: a publish is
 * not replayed to a minion whose return is stored.
 *
 * A tsalt minion names itself on connecting. A stock Salt minion's SUB socket does not (libzmq
 * sends no identity for SUB), so its connection is known only by its address: the minions whose
 * cached `ipv4`/`ipv6` grains hold that address, less those connected under their own name, are
 * the candidates, and a publish is skipped when every candidate it may target has returned it.
 * A publish every targeted minion (the job's stored minion list) has returned is replayed to
 * nobody. What the job cache cannot answer is replayed, as before.
 */
import { matchesTarget } from '../kernel/targeting/match.js';
import type { ReplayItem } from './publish-replay.js';

/** What the master's caches say about one job. */
export interface JobRuns {
  /** Minions whose real return (not a "did not return" record) is stored. */
  returned: readonly string[];
  /** The minions the job targeted, when the job cache has its load. */
  expected?: readonly string[];
}

/** Where the facts come from (master/replay-run-facts.ts reads the master's caches). */
export interface RunFacts {
  job(jid: string): Promise<JobRuns | undefined>;
  /** Every minion with cached grains, and its addresses. */
  addresses(): Promise<ReadonlyMap<string, readonly string[]>>;
}

/** The connection a replay goes to. */
export interface ReplayConnection {
  /** The id it named (tsalt minions); undefined for a stock Salt minion. */
  id?: string | undefined;
  /** Its remote address. */
  address?: string | undefined;
}

/** A job's facts are asked again after this long. */
export const JOB_FACTS_FRESH_MS = 1000;
/** The address index is rebuilt at most this often. */
export const ADDRESS_FACTS_FRESH_MS = 10_000;
/** Jobs whose facts are kept at most. */
const MAX_JOBS_KEPT = 2000;

const ID_TARGETS = new Set(['glob', 'list', 'pcre']);

interface Kept<T> {
  at: number;
  value: Promise<T>;
}

interface JobKnown {
  returned: ReadonlySet<string>;
  expected: ReadonlySet<string> | undefined;
}

/** `::ffff:10.0.0.1` is 10.0.0.1; IPv6 in lower case. */
export function plainAddress(address: string): string {
  const a = address.toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

export class KnownRuns {
  readonly #facts: RunFacts;
  readonly #jobs = new Map<string, Kept<JobKnown | undefined>>();
  #byAddress: Kept<ReadonlyMap<string, readonly string[]>> | undefined;

  constructor(facts: RunFacts) {
    this.#facts = facts;
  }

  /**
   * The publishes among `items` to replay to `conn`: those it is not known to have run, in
   * order. `present` are the minions connected under their own name now (none of them is
   * behind an unnamed connection).
   */
  async filter(
    conn: ReplayConnection,
    items: readonly ReplayItem[],
    present: ReadonlySet<string> = new Set(),
  ): Promise<ReplayItem[]> {
    if (items.length === 0) return [];
    const candidates = conn.id === undefined ? await this.#candidates(conn.address, present) : [conn.id];
    const known = await Promise.all(items.map((item) => this.#job(item.jid)));
    return items.filter((item, i) => !this.#ran(item, known[i], candidates, conn.id !== undefined));
  }

  #ran(
    item: ReplayItem,
    known: JobKnown | undefined,
    candidates: readonly string[],
    named: boolean,
  ): boolean {
    if (!known) return false;
    if (named) return known.returned.has(candidates[0] as string);
    // every minion the job targeted has returned: nobody needs it again
    if (known.expected && known.expected.size > 0 && [...known.expected].every((m) => known.returned.has(m)))
      return true;
    const targeted = candidates.filter((id) => mayTarget(item, id, known.expected));
    return targeted.length > 0 && targeted.every((id) => known.returned.has(id));
  }

  async #candidates(address: string | undefined, present: ReadonlySet<string>): Promise<string[]> {
    if (!address) return [];
    const now = Date.now();
    if (!this.#byAddress || now - this.#byAddress.at > ADDRESS_FACTS_FRESH_MS)
      this.#byAddress = { at: now, value: this.#index() };
    const ids = (await this.#byAddress.value).get(plainAddress(address)) ?? [];
    return ids.filter((id) => !present.has(id));
  }

  async #index(): Promise<ReadonlyMap<string, readonly string[]>> {
    const out = new Map<string, string[]>();
    try {
      for (const [id, addresses] of await this.#facts.addresses()) {
        for (const a of new Set(addresses.map(plainAddress))) {
          const ids = out.get(a);
          if (ids) ids.push(id);
          else out.set(a, [id]);
        }
      }
    } catch {
      // no candidates: replays go out as before
    }
    return out;
  }

  #job(jid: string): Promise<JobKnown | undefined> {
    const now = Date.now();
    const kept = this.#jobs.get(jid);
    if (kept && now - kept.at <= JOB_FACTS_FRESH_MS) return kept.value;
    if (this.#jobs.size >= MAX_JOBS_KEPT) {
      for (const [k, v] of this.#jobs) if (now - v.at > JOB_FACTS_FRESH_MS) this.#jobs.delete(k);
      if (this.#jobs.size >= MAX_JOBS_KEPT) this.#jobs.clear();
    }
    const value = this.#facts.job(jid).then(
      (runs): JobKnown | undefined =>
        runs && {
          returned: new Set(runs.returned),
          expected: runs.expected ? new Set(runs.expected) : undefined,
        },
      () => undefined,
    );
    this.#jobs.set(jid, { at: now, value });
    return value;
  }
}

/** Whether the job may target minion `id`: its stored minion list, else its id target. */
function mayTarget(item: ReplayItem, id: string, expected: ReadonlySet<string> | undefined): boolean {
  if (expected) return expected.has(id);
  if (!ID_TARGETS.has(item.tgtType)) return true;
  try {
    return matchesTarget(id, item.tgt, item.tgtType);
  } catch {
    return true;
  }
}
