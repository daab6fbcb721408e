/**
 * Salt's `salt.parallel_runners` state (`salt/states/saltmod.py`): run several runner functions
 * on the master at once (through `saltutil.runner`, full return), then merge their returns: when
 * every one answered highstate data (`state.orchestrate`), the changes are theirs by runner id
 * and a runner fails by its retcode; otherwise the changes hold each return and a runner fails by
 * its exit code.
 */
import { renderNested } from '../outputters/nested.js';
import { defineState, type StateContext, type StateReturn } from '../plugins/states/index.js';

type Dict = Record<string, unknown>;
const isDict = (v: unknown): v is Dict => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A highstate return's `data` (a mapping). */
const dataOf = (out: Dict | undefined): Dict => (isDict(out?.data) ? out.data : {});

/** Salt's `repack_dictlist`: a list of one-key mappings (or a mapping) as one mapping. */
function repack(config: unknown): Dict {
  if (isDict(config)) return { ...config };
  const out: Dict = {};
  if (Array.isArray(config)) for (const item of config) if (isDict(item)) Object.assign(out, item);
  return out;
}

/** The changes inside highstate data: each state's, or an orchestration's own `ret`. */
function extractChanges(obj: unknown): Dict {
  if (!isDict(obj)) return {};
  if ('changes' in obj) {
    const ch = obj.changes;
    return isDict(ch) && ch.out === 'highstate' && 'ret' in ch ? (ch.ret as Dict) : (ch as Dict);
  }
  const found: Dict = {};
  for (const [key, value] of Object.entries(obj)) {
    const change = extractChanges(value);
    if (change && (!isDict(change) || Object.keys(change).length)) found[key] = change;
  }
  return found;
}

async function parallelRunners(ctx: StateContext, name: string, given: unknown): Promise<StateReturn> {
  const runners: unknown = typeof given === 'string' ? { [given]: [{ [name]: given }] } : given;
  if (!isDict(runners))
    return { name, result: false, changes: {}, comment: 'The runners parameter must be a string or dict.' };
  const configs: Record<string, Dict> = {};
  for (const [id, raw] of Object.entries(runners)) {
    const config = raw === null || raw === undefined ? {} : repack(raw);
    if (!('name' in config)) config.name = id;
    configs[id] = config;
  }
  const ids = Object.keys(configs);
  const settled = await Promise.allSettled(
    ids.map((id) => {
      const c = configs[id] as Dict;
      const kwarg = isDict(c.kwarg) ? c.kwarg : {};
      return ctx.call('saltutil.runner', [String(c.name)], { ...kwarg, full_return: true });
    }),
  );
  const firstFailure = settled.find((s) => s.status === 'rejected');
  if (firstFailure) {
    const err = (firstFailure as PromiseRejectedResult).reason;
    const msg = err instanceof Error ? err.message : String(err);
    return {
      name,
      result: false,
      success: false,
      changes: {},
      comment: `One of the runners raised an exception: ${msg}`,
    };
  }
  const outputs: Record<string, Dict> = {};
  ids.forEach((id, i) => {
    const full = (settled[i] as PromiseFulfilledResult<unknown>).value;
    const value = isDict(full) && 'return' in full ? full.return : full;
    outputs[id] = isDict(value) ? value : {};
  });
  const highstate = Object.values(outputs).every((o) => o.outputter === 'highstate' && 'data' in o);
  let failed: string[];
  let comment: string;
  let changes: Dict;
  if (highstate) {
    failed = ids.filter((id) => (dataOf(outputs[id]).retcode ?? 0) !== 0);
    comment = failed.length
      ? failed
          .map(
            (id) =>
              `Runner ${id} failed with return value:\n${renderNested(outputs[id], { color: false }, 2)}`,
          )
          .join('\n')
      : 'All runner functions executed successfully.';
    changes = {};
    for (const id of ids) {
      const ch = extractChanges(outputs[id]?.data);
      if (Object.keys(ch).length) changes[id] = ch;
    }
  } else {
    failed = ids.filter((id) => (outputs[id]?.exit_code ?? 0) !== 0);
    if (!failed.length) comment = 'All runner functions executed successfully.';
    else if (failed.length === 1) comment = `Runner ${failed[0]} failed.`;
    else comment = `Runners ${failed.join(', ')} failed.`;
    changes = { ret: outputs };
  }
  return { name, result: failed.length === 0, changes, comment };
}

export const parallelRunnersState = defineState({
  args: (z) => z.object({ name: z.string(), runners: z.unknown() }),
  varkw: true,
  doc: 'Execute several runner functions on the master in parallel (each runner: name, and kwarg for its keywords).',
  run: (ctx, a) => parallelRunners(ctx, a.name, a.runners),
});
