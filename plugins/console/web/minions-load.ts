/**
 * Loading the minions list: the light, paged `GET /minions?grains=...&offset=..&limit=..`
 * (only the grains the list shows), the keys (`GET /keys`) and presence (`manage.present`),
 * page after page so the first rows show at once with 10,000 minions. A minion's full grains
 * (`GET /minions/<id>`) and one grain of every minion (for a `grain:glob` filter) are asked
 * for only when needed.
 */
import { mayRunKind, mayRunMinion } from './acl.js';
import { get, runner, type Session } from './api.js';

export interface MinionRow {
  readonly id: string;
  readonly os: string;
  readonly saltversion: string;
  readonly up: boolean | undefined;
  readonly key: string;
  /** The grains the list has of this minion (the light ones, plus any a filter asked for). */
  readonly grains: Readonly<Record<string, unknown>>;
}

/** The grains the list shows: asked for every minion. */
export const LIST_GRAINS = ['os', 'osrelease', 'saltversion'] as const;

/** Minions per `GET /minions` page. */
export const PAGE = 2000;

const KEY_STATES: readonly [string, string][] = [
  ['minions', 'accepted'],
  ['minions_pre', 'pending'],
  ['minions_rejected', 'rejected'],
  ['minions_denied', 'denied'],
];

interface Page {
  readonly return: [Record<string, Record<string, unknown>>];
  readonly _page?: { total: number };
}

type Grains = Record<string, Record<string, unknown>>;

/** Every page of `GET /minions` with only `grains`; `onPage` sees the growing result. */
export async function listGrains(
  s: Session,
  grains: readonly string[],
  onPage?: (sofar: Grains) => void,
): Promise<Grains> {
  const out: Grains = {};
  for (let offset = 0; ; offset += PAGE) {
    const q = new URLSearchParams({ grains: grains.join(','), offset: String(offset), limit: String(PAGE) });
    const body = (await get(s.token, `/minions?${q}`)) as Page;
    Object.assign(out, body.return[0]);
    onPage?.(out);
    if (offset + PAGE >= (body._page?.total ?? 0)) return out;
  }
}

function rowsOf(
  grains: Grains,
  keyOf: ReadonlyMap<string, string>,
  present: ReadonlySet<string> | undefined,
): MinionRow[] {
  const ids = new Set(Object.keys(grains));
  for (const [id, k] of keyOf) if (k === 'accepted') ids.add(id);
  return [...ids].sort().map((id) => {
    const g = grains[id] ?? {};
    return {
      id,
      os: [g.os, g.osrelease].filter((x) => x !== undefined).join(' '),
      saltversion: String(g.saltversion ?? ''),
      up: present ? present.has(id) : undefined,
      key: keyOf.get(id) ?? '',
      grains: g,
    };
  });
}

/** Loads the list; `onRows` gets the rows after each page (the last call has them all). */
export async function loadMinions(s: Session, onRows: (rows: MinionRow[]) => void): Promise<MinionRow[]> {
  // GET /minions needs grains.items: without it, say so rather than ask and be refused
  if (!mayRunMinion(s.perms, 'grains.items'))
    throw new Error(`Your eauth ACL does not allow grains.items, which the minions list reads.`);
  // the keys and presence are asked for beside the first page
  const extras = Promise.all([
    mayRunKind(s.perms, 'wheel', 'key.list_all')
      ? (get(s.token, '/keys').catch(() => ({ return: {} })) as Promise<{ return: Record<string, string[]> }>)
      : undefined,
    mayRunKind(s.perms, 'runner', 'manage.present')
      ? runner(s.token, 'manage.present').catch(() => undefined)
      : undefined,
  ]);
  const keyOf = new Map<string, string>();
  let present: Set<string> | undefined;
  let extrasIn = false;
  let last: Grains = {};
  const grains = listGrains(s, LIST_GRAINS, (sofar) => {
    last = sofar;
    onRows(rowsOf(sofar, extrasIn ? keyOf : new Map(), present));
  });
  const [keys, presentList] = await extras;
  for (const [field, label] of KEY_STATES) for (const id of keys?.return[field] ?? []) keyOf.set(id, label);
  present = Array.isArray(presentList) ? new Set(presentList.map(String)) : undefined;
  extrasIn = true;
  onRows(rowsOf(last, keyOf, present));
  await grains;
  return rowsOf(last, keyOf, present);
}

/** One minion's full grains, from the master's cache. */
export async function minionGrains(s: Session, id: string): Promise<Record<string, unknown>> {
  const body = (await get(s.token, `/minions/${encodeURIComponent(id)}`)) as Page;
  const g = body.return[0][id];
  if (!g) throw new Error(`The master has no grains of ${id} in its cache.`);
  return g;
}
