/**
 * The light form of `GET /minions`, for the web console and other callers that list many
 * minions: `?grains=os,osrelease` answers only those grains of each minion, and
 * `?offset=N&limit=M` one page of the sorted accepted ids, with `_page: {offset, limit, total}`
 * beside `return`. Without any of these parameters the answer is salt-api's (every grain of
 * every minion), so pepper and SaltGUI see what they always saw.
 */
import { NETAPI_ERR_BAD_QUERY } from './errors.js';

/** What the query asks for; `undefined` from {@link listingQuery}: the full answer. */
export interface ListingQuery {
  /** Only these top-level grains; undefined: every grain. */
  readonly grains: readonly string[] | undefined;
  readonly offset: number;
  /** The page's size; undefined: to the end. */
  readonly limit: number | undefined;
}

/** The largest page one request may ask for. */
export const MAX_PAGE = 10_000;

function one(q: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const v = q[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new NETAPI_ERR_BAD_QUERY(`"${name}" must be given once`);
  return v;
}

function count(q: Readonly<Record<string, unknown>>, name: string, max: number): number | undefined {
  const v = one(q, name);
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v) || Number(v) > max)
    throw new NETAPI_ERR_BAD_QUERY(
      `"${name}" must be a whole number from 0 to ${max}, not ${JSON.stringify(v)}`,
    );
  return Number(v);
}

/** Reads the listing parameters of a request's query; throws NETAPI_ERR_BAD_QUERY on a bad one. */
export function listingQuery(query: unknown): ListingQuery | undefined {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const rawGrains = one(q, 'grains');
  const offset = count(q, 'offset', Number.MAX_SAFE_INTEGER);
  const limit = count(q, 'limit', MAX_PAGE);
  if (rawGrains === undefined && offset === undefined && limit === undefined) return undefined;
  let grains: string[] | undefined;
  if (rawGrains !== undefined) {
    grains = rawGrains
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean);
    if (grains.length === 0)
      throw new NETAPI_ERR_BAD_QUERY('"grains" must name at least one grain (grains=os,osrelease)');
  }
  return { grains, offset: offset ?? 0, limit };
}

/** The ids of one page of `ids` (already sorted). */
export function pageOf(ids: readonly string[], q: ListingQuery): string[] {
  return ids.slice(q.offset, q.limit === undefined ? undefined : q.offset + q.limit);
}

/** Only the asked-for grains of a minion, in the order asked; a grain it lacks is left out. */
export function pickGrains(
  grains: Readonly<Record<string, unknown>>,
  names: readonly string[] | undefined,
): Readonly<Record<string, unknown>> {
  if (!names) return grains;
  const out: Record<string, unknown> = {};
  for (const n of names) if (Object.hasOwn(grains, n)) out[n] = grains[n];
  return out;
}
