/**
 * Salt's `SqlBaseExtPillar` (`salt/pillar/sql_base.py`) without the database: how the
 * `ext_pillar` arguments become queries (`extract_queries`: positional strings or `[query,
 * depth]`, then keyword queries sorted by name, each under its own root key) and how rows
 * become nested pillar data (`process_fields`/`process_results`: the first `depth` columns
 * nest, the rest are leaves; `as_list`, `with_lists`, `ignore_null`, `as_json`).
 */
import { dictUpdate, isMapping } from '../../../modules/_traverse.js';

export interface SqlQuery {
  query: string;
  depth: number;
  as_list: boolean;
  as_json: boolean;
  with_lists: number[] | null;
  ignore_null: boolean;
}

/** Salt's `extract_queries`: `[root or null, query]` in Salt's order, empty ones dropped. */
export function extractQueries(
  args: readonly unknown[],
  kwargs: Readonly<Record<string, unknown>>,
): [string | null, SqlQuery][] {
  const buffer: [string | null, unknown][] = [
    ...args.map((a) => [null, a] as [null, unknown]),
    ...Object.keys(kwargs)
      .filter((k) => !k.startsWith('__'))
      .sort()
      .map((k) => [k, kwargs[k]] as [string, unknown]),
  ];
  const kept = buffer.filter(
    ([, q]) =>
      (typeof q === 'string' && q.length > 0) ||
      (Array.isArray(q) && q.length > 0 && Boolean(q[0])) ||
      (isMapping(q) && typeof q.query === 'string' && q.query.length > 0),
  );
  return kept.map(([root, q]) => {
    const d: SqlQuery = {
      query: '',
      depth: 0,
      as_list: false,
      as_json: false,
      with_lists: null,
      ignore_null: false,
    };
    if (typeof q === 'string') d.query = q;
    else if (Array.isArray(q)) {
      d.query = String(q[0]);
      if (q.length > 1) d.depth = Number(q[1]);
    } else if (isMapping(q)) {
      Object.assign(d, q);
      const wl = q.with_lists as unknown;
      if (typeof wl === 'string' && wl) d.with_lists = wl.split(',').map((i) => Number.parseInt(i, 10));
    }
    return [root, d];
  });
}

type Node = Record<string, unknown>;
const key = (v: unknown): string => (v === null || v === undefined ? 'None' : String(v));

/** Salt's `process_fields` + `process_results` for one query's rows, into `focus`. */
export function processRows(
  focus: Node,
  fields: readonly string[],
  rows: readonly unknown[][],
  q: SqlQuery,
): void {
  const num = fields.length;
  const depth = q.depth === 0 || q.depth >= num ? num - 1 : q.depth;
  const withLists = q.with_lists ?? [];
  const listify = new Map<Node, unknown[]>();
  const mark = (crd: Node, v: unknown) => {
    const l = listify.get(crd) ?? [];
    listify.set(crd, l);
    if (!l.includes(key(v))) l.push(key(v));
  };
  for (const ret of rows) {
    let crd = focus;
    if (q.as_json && num === 1) {
      if (isMapping(ret[0])) dictUpdate(crd, ret[0]);
      continue;
    }
    for (let i = 0; i < depth - 1; i++) {
      if (withLists.includes(i + 1)) mark(crd, ret[i]);
      const k = key(ret[i]);
      if (!(k in crd)) {
        crd[k] = {};
        crd = crd[k] as Node;
      } else if (Array.isArray(crd[k])) {
        const temp: Node = {};
        (crd[k] as unknown[]).push(temp);
        crd = temp;
      } else if (!isMapping(crd[k])) {
        const temp: Node = {};
        crd[k] = q.as_list ? [crd[k], temp] : temp;
        crd = temp;
      } else crd = crd[k] as Node;
    }
    if (depth === num - 1) {
      const nk = key(ret[num - 2]);
      const leaf = ret[num - 1];
      if ((q.as_list && nk in crd) || withLists.includes(num - 1)) {
        if (nk in crd) {
          if (!Array.isArray(crd[nk])) crd[nk] = [crd[nk]];
        } else crd[nk] = [];
        (crd[nk] as unknown[]).push(leaf);
      } else if (!q.ignore_null || leaf !== null) crd[nk] = leaf;
    } else {
      const dk = key(ret[depth - 1]);
      if (!(dk in crd)) crd[dk] = {};
      if (withLists.includes(depth)) mark(crd, ret[depth - 1]);
      crd = crd[dk] as Node;
      for (let i = depth; i < num; i++) {
        const nk = fields[i] as string;
        if (withLists.includes(i + 1)) mark(crd, nk);
        if (q.as_list && nk in crd) {
          if (Array.isArray(crd[nk])) (crd[nk] as unknown[]).push(ret[i]);
          else crd[nk] = [crd[nk], ret[i]];
        } else if (!q.ignore_null || ret[i] !== null) crd[nk] = ret[i];
      }
    }
  }
  for (const [d, keys] of [...listify].reverse()) {
    for (const k of keys as string[]) {
      if (isMapping(d[k])) d[k] = Object.values(d[k] as Node);
      else if (Array.isArray(d[k])) d[k] = [d[k]];
    }
  }
}
