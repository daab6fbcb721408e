/**
 * Turns a rendered reaction file (Salt's high-data form: `id: {kind.mod.fun: [ {key: value} ]}`)
 * into reactions, with Salt 3006's argument rules (`salt/utils/reactor.py`, `ReactWrap.run`):
 * `args` (a mapping or a list of one-key mappings) gives the keyword arguments and wins over
 * `arg`/`kwarg`; the legacy form takes `arg` and `kwarg`, and for runner and wheel reactions
 * the remaining keys become keyword arguments. A TypeScript reaction is checked the same way.
 */
import type { NamedReaction, Reaction } from './define.js';
import { SALT_ERR_REACTOR_REACTION, SALT_ERR_REACTOR_RENDER } from './errors.js';

const KINDS: Record<string, Reaction['kind']> = {
  local: 'local',
  cmd: 'local',
  runner: 'runner',
  wheel: 'wheel',
  caller: 'caller',
};

/** Keys of a reaction that are never function arguments. */
const RESERVED = new Set([
  'state',
  'fun',
  'name',
  'order',
  'tgt',
  'tgt_type',
  'expr_form',
  'ret',
  'arg',
  'kwarg',
  'args',
  'timeout',
  'metadata',
  'batch',
  'queue',
]);

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Salt's `repack_dictlist`: a list of one-key mappings as one mapping; undefined if not one. */
function repackDictlist(v: unknown): Record<string, unknown> | undefined {
  if (isMap(v)) return { ...v };
  if (!Array.isArray(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const item of v) {
    if (!isMap(item) || Object.keys(item).length !== 1) return undefined;
    Object.assign(out, item);
  }
  return out;
}

function isDictlist(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.every((i) => isMap(i) && Object.keys(i).length === 1);
}

/** One reaction from its low data (`state`, `fun` and the merged list items). */
export function reactionFromLow(low: Record<string, unknown>, id: string, source: string): NamedReaction {
  const state = String(low.state);
  const kind = KINDS[state];
  const where = `${id} (${source})`;
  if (!kind || !Object.hasOwn(KINDS, state))
    throw new SALT_ERR_REACTOR_REACTION(
      where,
      `unknown reaction kind '${state}' (expected local, cmd, runner, wheel or caller)`,
    );
  const fun = low.fun;
  if (typeof fun !== 'string' || !/^[^.\s]+\.[^\s]+$/.test(fun))
    throw new SALT_ERR_REACTOR_REACTION(where, `'${String(fun)}' is not a function name (module.function)`);
  let arg: unknown[];
  let kwarg: Record<string, unknown>;
  if (low.args !== undefined) {
    if (kind === 'caller' && Array.isArray(low.args) && !isDictlist(low.args)) {
      arg = low.args;
      kwarg = {};
    } else {
      const packed = repackDictlist(low.args);
      if (!packed)
        throw new SALT_ERR_REACTOR_REACTION(
          where,
          "incorrect argument format: 'args' must be a mapping or a list of one-key mappings",
        );
      arg = [];
      kwarg = packed;
    }
  } else {
    if (low.arg !== undefined && !Array.isArray(low.arg))
      throw new SALT_ERR_REACTOR_REACTION(where, "'arg' must be a list of positional arguments");
    if (low.kwarg !== undefined && !isMap(low.kwarg))
      throw new SALT_ERR_REACTOR_REACTION(where, "'kwarg' must be a mapping of keyword arguments");
    arg = (low.arg as unknown[] | undefined) ?? [];
    kwarg = { ...((low.kwarg as Record<string, unknown> | undefined) ?? {}) };
    if ((kind === 'runner' || kind === 'wheel') && (low.arg === undefined || low.kwarg === undefined)) {
      for (const [k, v] of Object.entries(low)) if (!RESERVED.has(k) && !k.startsWith('__')) kwarg[k] = v;
    }
  }
  if (kind !== 'local') return { id, source, kind, fun, arg, kwarg };
  const tgt = low.tgt;
  const tgtOk =
    typeof tgt === 'string' ? tgt !== '' : Array.isArray(tgt) && tgt.every((t) => typeof t === 'string');
  if (!tgtOk)
    throw new SALT_ERR_REACTOR_REACTION(where, `a ${state} reaction needs 'tgt' (a target string or list)`);
  const r: NamedReaction = { id, source, kind, fun, tgt: tgt as string | string[], arg, kwarg };
  const tgtType = low.tgt_type ?? low.expr_form;
  if (typeof tgtType === 'string') r.tgtType = tgtType;
  if (typeof low.ret === 'string') r.ret = low.ret;
  if (isMap(low.metadata)) r.metadata = low.metadata;
  return r;
}

/** The reactions of a rendered file, in file order; a malformed one is a render error. */
export function reactionsFromHigh(high: Record<string, unknown>, source: string): NamedReaction[] {
  const out: NamedReaction[] = [];
  for (const [id, body] of Object.entries(high)) {
    if (id === 'include' || id === 'extend')
      throw new SALT_ERR_REACTOR_RENDER(source, 0, `'${id}' is not supported in reaction files`);
    if (!isMap(body))
      throw new SALT_ERR_REACTOR_RENDER(
        source,
        0,
        `reaction '${id}' is not a mapping of kind.function to arguments`,
      );
    for (const [key, items] of Object.entries(body)) {
      if (key.startsWith('__')) continue;
      const dot = key.indexOf('.');
      const low: Record<string, unknown> = { state: dot < 0 ? key : key.slice(0, dot) };
      if (dot >= 0) low.fun = key.slice(dot + 1);
      if (!Array.isArray(items))
        throw new SALT_ERR_REACTOR_RENDER(source, 0, `reaction '${id}': '${key}' must be followed by a list`);
      for (const item of items) {
        if (typeof item === 'string' && low.fun === undefined) low.fun = item;
        else if (isMap(item)) Object.assign(low, item);
        else
          throw new SALT_ERR_REACTOR_RENDER(
            source,
            0,
            `reaction '${id}': each item under '${key}' must be a one-key mapping (like '- tgt: web1')`,
          );
      }
      out.push(reactionFromLow(low, id, source));
    }
  }
  return out;
}

/** Checks what a TypeScript reaction returned. */
export function checkReaction(value: unknown, id: string, source: string): NamedReaction {
  if (!isMap(value))
    throw new SALT_ERR_REACTOR_REACTION(`${id} (${source})`, 'did not return a reaction object');
  const low: Record<string, unknown> = { ...value, state: value.kind };
  if (value.tgtType !== undefined) low.tgt_type = value.tgtType;
  delete low.kind;
  delete low.tgtType;
  if (low.arg === undefined) low.arg = [];
  if (low.kwarg === undefined) low.kwarg = {};
  return reactionFromLow(low, id, source);
}
