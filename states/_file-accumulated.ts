/**
 * Salt's `file.accumulated` state and the accumulators it charges (`salt/states/file.py`
 * `accumulated`, `_load_accumulators`): text gathered for a file during one state run, which
 * `file.managed` hands its template as `accumulator` and `file.blockreplace` adds to its block.
 * Salt keeps them in a file named for the run under the cachedir; here they live in the job's
 * scratch space (`ctx.cache`, Salt's `__context__`) under the job id, so each run starts empty.
 */
import type { ExecContext } from '../kernel/index.js';
import { defineState } from '../plugins/states/index.js';
import { fail, newRet } from './_file-common.js';

/** Accumulated text by target file, then by accumulator name; and which states each feeds. */
export interface Accumulators {
  data: Record<string, Record<string, unknown[]>>;
  deps: Record<string, Record<string, unknown[]>>;
}

const KEY = 'file.accumulators';

/** The current run's accumulators. */
export function accumulators(ctx: ExecContext): Accumulators {
  const key = `${KEY}|${ctx.jid}`;
  let acc = ctx.cache.get(key) as Accumulators | undefined;
  if (!acc) {
    for (const k of [...ctx.cache.keys()]) if (k.startsWith(`${KEY}|`)) ctx.cache.delete(k);
    acc = { data: {}, deps: {} };
    ctx.cache.set(key, acc);
  }
  return acc;
}

/** What `file.managed` puts in its template context as `accumulator`, when any was charged for `name`. */
export function managedAccumulator(ctx: ExecContext, name: string): Record<string, unknown[]> | undefined {
  return accumulators(ctx).data[name];
}

/**
 * The text `file.blockreplace` of state `id` adds to its `content`: the accumulators required
 * into (or watched by) that state, else all of `name`'s, a line each.
 */
export function blockAccumulated(ctx: ExecContext, name: string, id: string, content: string): string {
  const acc = accumulators(ctx);
  const data = acc.data[name];
  if (!data) return content;
  const deps = acc.deps[name] ?? {};
  let picked = Object.keys(deps).filter((a) => (deps[a] ?? []).includes(id) && a in data);
  if (!picked.length) picked = Object.keys(data);
  let out = content;
  for (const a of picked)
    for (const line of data[a] ?? []) out = out === '' ? String(line) : `${out}\n${String(line)}`;
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export const accumulated = defineState({
  args: (z) => z.object({ name: z.string(), filename: z.string(), text: z.unknown() }),
  varkw: true,
  doc: 'Prepare an accumulator which can be used in a template in a file.managed state, or in file.blockreplace.',
  run: async (ctx, a) => {
    const low = ctx.low;
    const name = a.name;
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.accumulated');
    const text = a.text;
    if (text === null || text === undefined) return fail(ret, 'No text supplied for accumulator');
    const asList = (v: unknown): unknown[] =>
      Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
    const deps = [...asList(low.require_in), ...asList(low.watch_in)];
    if (!deps.some((d) => (d && typeof d === 'object' ? 'file' in d : String(d).includes('file'))))
      return fail(ret, `Orphaned accumulator ${name} in ${String(low.__sls__)}:${String(low.__id__)}`);
    const filename = a.filename;
    const chunks = Array.isArray(text) ? text : [text];
    const acc = accumulators(ctx);
    acc.data[filename] ??= {};
    acc.deps[filename] ??= {};
    acc.deps[filename][name] ??= [];
    acc.data[filename][name] ??= [];
    const mine = acc.deps[filename][name];
    const list = acc.data[filename][name];
    for (const d of deps) {
      if (d && typeof d === 'object') mine.push(...Object.values(d));
      else mine.push(...String(d));
    }
    for (const chunk of chunks) {
      if (list.some((x) => same(x, chunk))) continue;
      list.push(chunk);
      ret.comment = `Accumulator ${name} for file ${filename} was charged by text`;
    }
    return ret;
  },
});
