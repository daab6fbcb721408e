/**
 * The stateconf renderer's rewrites of an SLS's high data (salt/renderers/stateconf.py, in its
 * order): `id: mod.fn` shorthand → `id: {mod.fn: []}`, relative includes/excludes, implicit
 * ordering requires (`-o`), the `.start` and `.goal` states, `.id` → `<sls>::id` renames with a
 * `name` added, and the `stateconf.set` values gathered into the SLS's template context.
 */
import { localToAbsSid, relativeToAbsSls, StateconfError } from './sls-ids.js';

type High = Record<string, unknown>;
type Args = unknown[];

/** The state function stateconf reads its context from, and its module. */
export const STATE_FUNC = 'stateconf.set';
export const STATE_NAME = 'stateconf';
const START_SID = '.start';
const GOAL_SID = '.goal';

const REQUISITES = [
  'require',
  'require_in',
  'watch',
  'watch_in',
  'use',
  'use_in',
  'listen',
  'listen_in',
  'onchanges',
  'onchanges_in',
  'onfail',
  'onfail_in',
];
const REQUIRE = ['require', 'watch', 'listen', 'onchanges', 'onfail'];
const REQUIRE_IN = ['require_in', 'watch_in', 'listen_in', 'onchanges_in', 'onfail_in'];

/**
 * What stateconf keeps between the files one run renders, as Salt's module globals do: the
 * `stateconf.set` values by state id (and those under `extend`), and the requires declared
 * under `extend` that implicit ordering checks.
 */
export interface StateconfMemory {
  readonly conf: Map<string, Record<string, unknown>>;
  readonly confExtend: Map<string, Record<string, unknown>>;
  readonly extendedRequire: Map<string, Array<[string, unknown]>>;
  readonly extendedRequireIn: Map<string, Array<[string, unknown]>>;
}

export function newMemory(): StateconfMemory {
  return { conf: new Map(), confExtend: new Map(), extendedRequire: new Map(), extendedRequireIn: new Map() };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A record's entries, or a failure of the whole preprocessing (Salt's broad `except`). */
function entriesOf(v: unknown): Array<[string, unknown]> {
  if (!isRecord(v)) throw new TypeError('not a mapping');
  return Object.entries(v);
}

/** `mod` of `mod.fn`. */
export function stateName(sname: string): string {
  const dot = sname.indexOf('.');
  return dot === -1 ? sname : sname.slice(0, dot);
}

/** The (state id, its states, state name, args) of every state, as Salt's `statelist`. */
function* statelist(
  data: High,
  skip: readonly string[] = ['include', 'exclude'],
): Generator<[string, Record<string, unknown>, string, unknown]> {
  for (const [sid, states] of Object.entries(data)) {
    if (sid.startsWith('__') || skip.includes(sid)) continue;
    for (const [sname, args] of entriesOf(states)) {
      if (sname.startsWith('__')) continue;
      yield [sid, states as Record<string, unknown>, sname, args];
    }
  }
}

/** The single-key items of a list: (item, key, value), only keys in `names` when given. */
function* nvlist(
  list: unknown,
  names?: readonly string[],
): Generator<[Record<string, unknown>, string, unknown]> {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    if (!isRecord(item)) continue;
    const first = Object.entries(item)[0];
    if (first && (names === undefined || names.includes(first[0]))) yield [item, first[0], first[1]];
  }
}

/** The `{mod: id}` items under the named requisites of a state's args. */
function* nvlist2(
  list: unknown,
  names: readonly string[],
): Generator<[Record<string, unknown>, string, unknown]> {
  for (const [, , value] of nvlist(list, names)) yield* nvlist(value);
}

export function rewriteShorthand(data: High): void {
  for (const [sid, states] of Object.entries(data))
    if (typeof states === 'string') data[sid] = { [states]: [] };
}

export function rewriteIncludesExcludes(data: High, sls: string, saltenv: string): void {
  const includes = data.include;
  if (Array.isArray(includes)) {
    includes.forEach((each: unknown, i) => {
      let env = saltenv;
      let incl: unknown = each;
      if (isRecord(each)) {
        const keys = Object.keys(each);
        const last = keys[keys.length - 1];
        if (last === undefined) throw new TypeError('popitem(): dictionary is empty');
        env = last;
        incl = each[last];
        delete each[last];
      }
      if (typeof incl === 'string' && incl.startsWith('.'))
        includes[i] = { [env]: relativeToAbsSls(incl, sls) };
    });
  }
  const excludes = data.exclude;
  if (Array.isArray(excludes))
    for (const ex of excludes)
      if (isRecord(ex) && typeof ex.sls === 'string' && ex.sls.startsWith('.'))
        ex.sls = relativeToAbsSls(ex.sls, sls);
}

/** The first state id (not `extend`) that uses `names`, which implicit ordering cannot order. */
export function namesDeclIn(data: High): string | undefined {
  for (const [sid, , , args] of statelist(data)) {
    if (sid === 'extend') continue;
    for (const _ of nvlist(args, ['names'])) return sid;
  }
  return undefined;
}

function push(map: Map<string, Array<[string, unknown]>>, key: string, v: [string, unknown]): void {
  const list = map.get(key) ?? [];
  list.push(v);
  map.set(key, list);
}

/** `-o`: each state requires the one before it; requires that point forward are errors. */
export function addImplicitRequires(data: High, memory: StateconfMemory): void {
  const tag = (sid: string, state: string) => `${sid}:${stateName(state)}`;
  const before = new Set<string>();
  const after = new Set<string>();
  for (const [sid, states] of Object.entries(data)) {
    const keys = isRecord(states)
      ? Object.keys(states)
      : Array.isArray(states)
        ? states
        : [...String(states)];
    for (const state of keys) {
      if (typeof state !== 'string') throw new TypeError('state name is not a string');
      after.add(tag(sid, state));
    }
  }
  let prev: [string, string] | undefined;
  for (const [sid, states, sname, args] of statelist(data)) {
    if (sid === 'extend') {
      for (const [esid, , , eargs] of statelist(states)) {
        for (const [, rstate, rsid] of nvlist2(eargs, REQUIRE))
          push(memory.extendedRequire, tag(esid, rstate), [rstate, rsid]);
        for (const [, rstate, rsid] of nvlist2(eargs, REQUIRE_IN))
          push(memory.extendedRequireIn, tag(esid, rstate), [rstate, rsid]);
      }
      continue;
    }
    const me = tag(sid, sname);
    after.delete(me);
    const reqs: Array<[string, unknown]> = [...nvlist2(args, REQUIRE)].map(([, s, i]) => [s, i]);
    for (const [rstate, rsid] of [...reqs, ...(memory.extendedRequire.get(me) ?? [])])
      if (after.has(tag(String(rsid), rstate)))
        throw new StateconfError(
          `State(${me}) can't require/watch/listen/onchanges/onfail a state(${tag(String(rsid), rstate)}) defined after it!`,
        );
    const reqIns: Array<[string, unknown]> = [...nvlist2(args, REQUIRE_IN)].map(([, s, i]) => [s, i]);
    for (const [rstate, rsid] of [...reqIns, ...(memory.extendedRequireIn.get(me) ?? [])])
      if (before.has(tag(String(rsid), rstate)))
        throw new StateconfError(
          `State(${me}) can't require_in/watch_in/listen_in/onchanges_in/onfail_in a state(${tag(String(rsid), rstate)}) defined before it!`,
        );
    if (prev !== undefined) {
      const item = { [prev[0]]: prev[1] };
      const existing = nvlist(args, ['require']).next();
      if (!existing.done) {
        const value = existing.value[2];
        if (!Array.isArray(value)) throw new TypeError('require is not a list');
        value.unshift(item);
      } else if (Array.isArray(args)) args.push({ require: [item] });
      else throw new TypeError('state arguments are not a list');
    }
    before.add(me);
    prev = [stateName(sname), sid];
  }
}

/** `-s`: a `.start` state that is `require_in` the SLS's first state. */
export function addStartState(data: High, sls: string): void {
  if (START_SID in data)
    throw new StateconfError(`Can't generate start state(${START_SID})! The same state id already exists!`);
  if (Object.keys(data).length === 0) return;
  const first = Object.entries(data).find(
    ([sid, states]) =>
      !['include', 'exclude', 'extend'].includes(sid) &&
      !sid.startsWith('__') &&
      (!isRecord(states) || !('__sls__' in states) || states.__sls__ === sls),
  );
  if (!first) throw new StateconfError("Can't determine the first state in the sls file!");
  const firstState = entriesOf(first[1])[0]?.[0];
  if (firstState === undefined) throw new TypeError('StopIteration: the first state id has no state');
  data[START_SID] = { [STATE_FUNC]: [{ require_in: [{ [stateName(firstState)]: first[0] }] }] };
}

/** The `.goal` state that requires every state of the SLS. */
export function addGoalState(data: High): void {
  if (GOAL_SID in data)
    throw new StateconfError(`Can't generate goal state(${GOAL_SID})! The same state id already exists!`);
  const require: Args = [];
  for (const [sid, states, state] of statelist(data, ['include', 'exclude', 'extend'])) {
    if ('__sls__' in states) continue;
    require.push({ [stateName(state)]: sid });
  }
  data[GOAL_SID] = { [STATE_FUNC]: [{ require }] };
}

/** `.id` → `<sls>::id` for ids and the requisites that name them; a `name` is added when missing. */
export function renameStateIds(data: High, sls: string, isExtend = false): void {
  if ('extend' in data && !isExtend && isRecord(data.extend)) renameStateIds(data.extend, sls, true);
  for (const [, , , args] of statelist(data))
    for (const [req, sname, sid] of nvlist2(args, REQUISITES))
      if (typeof sid === 'string' && sid.startsWith('.')) req[sname] = localToAbsSid(sid, sls);
  for (const sid of Object.keys(data)) {
    if (!sid.startsWith('.')) continue;
    const newSid = localToAbsSid(sid, sls);
    if (newSid in data)
      throw new StateconfError(
        `Can't rename state id(${sid}) into ${newSid} because the later already exists!`,
      );
    for (const [sname, args] of entriesOf(data[sid])) {
      if (stateName(sname) === STATE_NAME) continue;
      if (!Array.isArray(args)) throw new TypeError('state arguments are not a list');
      const named = args.some((a) => isRecord(a) && Object.keys(a)[0] === 'name');
      if (!named) args.unshift({ name: sid.slice(1) });
    }
    data[newSid] = data[sid];
    delete data[sid];
  }
}

/** Gathers each `stateconf.set`'s `- key: value` items into `memory.conf` by state id. */
export function extractStateConfs(data: High, memory: StateconfMemory, isExtend = false): void {
  for (const [sid, states] of Object.entries(data)) {
    if (sid === 'extend' && !isExtend) {
      if (isRecord(states)) extractStateConfs(states, memory, true);
      continue;
    }
    if (!isRecord(states)) continue;
    const key = STATE_NAME in states ? STATE_NAME : STATE_FUNC in states ? STATE_FUNC : undefined;
    if (key === undefined) continue;
    const to = isExtend ? memory.confExtend : memory.conf;
    const conf = to.get(sid) ?? {};
    to.set(sid, conf);
    const items = states[key];
    if (Array.isArray(items))
      for (const item of items) {
        if (!isRecord(item)) continue;
        const first = Object.entries(item)[0];
        if (first) conf[first[0]] = first[1];
      }
    const ext = isExtend ? undefined : memory.confExtend.get(sid);
    if (ext) {
      for (const req of REQUIRE)
        if (req in ext) {
          const more = conf[req] ?? [];
          ext[req] = [...(ext[req] as unknown[]), ...(Array.isArray(more) ? more : [])];
        }
      Object.assign(conf, ext);
    }
  }
}
