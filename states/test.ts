/**
 * Salt's `test` state module (`salt/states/test.py`): states that succeed or fail, with or
 * without changes, on demand; for trying requisites, orchestration and outputters.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const PRETEND = { testing: { old: 'Unchanged', new: 'Something pretended to change' } };

function commentOf(extra: Record<string, unknown>, fallback: string): string {
  return typeof extra.comment === 'string' ? extra.comment : fallback;
}

const succeedWithoutChanges = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Returns successful.',
  run: (_ctx, { name }, extra): StateReturn => ({
    name,
    changes: {},
    result: true,
    comment: commentOf(extra.kwargs, 'Success!'),
  }),
});

/** Salt's choice for `changes`/`result`: a boolean, or `Random` (any case) for a coin toss. */
function choose(value: unknown, option: 'changes' | 'result'): boolean {
  if (typeof value === 'boolean') return value;
  if (String(value).toLowerCase() === 'random') return Math.random() < 0.5;
  throw new SALT_ERR_INVOCATION(
    option === 'changes'
      ? "You have specified the state option 'changes' with invalid arguments. It must be either True, False, or 'Random'"
      : "You have specified the state option 'result' with invalid arguments. It must be either True, False, or 'Random'",
  );
}

function warningsOf(warnings: unknown): string[] | undefined {
  if (warnings === undefined || warnings === null) return undefined;
  if (typeof warnings === 'string') return [warnings];
  if (Array.isArray(warnings)) return warnings as string[];
  throw new SALT_ERR_INVOCATION(
    "You have specified the state option 'warnings' with invalid arguments. It must be a string or a list of strings",
  );
}

const configurableTestState = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      changes: z.unknown().default(true),
      result: z.unknown().default(true),
      comment: z.unknown().default(''),
      warnings: z.unknown().optional(),
    }),
  doc: 'A configurable test state: changes and result True, False or Random, a comment and warnings.',
  run: (ctx, args): StateReturn => {
    const withChanges = args.changes === true || (args.changes !== false && choose(args.changes, 'changes'));
    const ret: StateReturn = {
      name: args.name,
      changes: withChanges ? structuredClone(PRETEND) : {},
      result: choose(args.result, 'result'),
      comment: args.comment as string,
    };
    const warnings = warningsOf(args.warnings);
    if (warnings) ret.warnings = warnings;
    if (ctx.test) {
      ret.result = args.changes === false ? true : null;
      ret.comment = args.comment ? (args.comment as string) : 'This is a test';
    }
    return ret;
  },
});

/** Python's name of each type check_pillar checks, as its comment prints it. */
const PILLAR_TYPES = {
  present: 'None',
  boolean: "<class 'bool'>",
  integer: "<class 'int'>",
  string: "(<class 'str'>,)",
  listing: "<class 'list'>",
  dictionary: "<class 'dict'>",
} as const;
type PillarCheck = keyof typeof PILLAR_TYPES;

/** Python's isinstance for a pillar value (a bool is an int there too). */
function isOfType(value: unknown, check: PillarCheck): boolean {
  switch (check) {
    case 'present':
      return true;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'boolean' || Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'listing':
      return Array.isArray(value);
    case 'dictionary':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

/** `pillar.get` of a `a:b:c` key (Salt's default delimiter); undefined when missing or None. */
function pillarGet(pillar: Readonly<Record<string, unknown>>, key: string): unknown {
  let cur: unknown = pillar;
  for (const part of key.split(':')) {
    if (Array.isArray(cur) && /^\d+$/.test(part)) cur = cur[Number(part)];
    else if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[part];
    else return undefined;
  }
  return cur ?? undefined;
}

function keysToCheck(value: unknown): string[] {
  if (value === undefined || value === null || value === '' || value === false) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.map(String);
  throw new TypeError('check_pillar takes a key or a list of keys');
}

function checkPillar(
  pillar: Readonly<Record<string, unknown>>,
  args: Partial<Record<PillarCheck, unknown>> & { name: string; verbose: unknown },
): StateReturn {
  const checks = Object.keys(PILLAR_TYPES) as PillarCheck[];
  if (!checks.some((c) => keysToCheck(args[c]).length > 0)) {
    throw new SALT_ERR_INVOCATION('Missing required argument text.');
  }
  const ret: StateReturn = { name: args.name, changes: {}, result: true, comment: '' };
  const failed = new Map<string, string | null>();
  const fine = new Map<string, string>();
  for (const check of checks) {
    for (const key of keysToCheck(args[check])) {
      const value = pillarGet(pillar, key);
      if (value === undefined) failed.set(key, null);
      else if (!isOfType(value, check)) failed.set(key, PILLAR_TYPES[check]);
      else if (args.verbose) fine.set(key, PILLAR_TYPES[check]);
      if (value === undefined || !isOfType(value, check)) ret.result = false;
    }
  }
  let comment = '';
  for (const [key, type] of failed)
    comment += `Pillar key "${key}" ${type === null ? 'is missing' : `is not ${type}`}.\n`;
  if (args.verbose && fine.size > 0) {
    comment += 'Those keys passed the check:\n';
    for (const [key, type] of fine) comment += `- ${key} (${type})\n`;
  }
  ret.comment = comment;
  return ret;
}

/** The `__reqs__['watch']` chunks that changed something, as `state: id` (Salt's mod_watch). */
function watchedWithChanges(
  low: Readonly<Record<string, unknown>>,
  running: Readonly<Record<string, StateReturn>>,
): string[] {
  const reqs = low.__reqs__ as { watch?: readonly Record<string, unknown>[] } | undefined;
  const out: string[] = [];
  for (const req of reqs?.watch ?? []) {
    const tag = `${req.state}_|-${req.__id__}_|-${req.name}_|-${req.fun}`;
    const changes = running[tag]?.changes;
    if (changes && Object.keys(changes).length > 0) out.push(`${req.state}: ${req.__id__}`);
  }
  return out;
}

export default defineStateModule({
  name: 'test',
  doc: 'States that succeed or fail on demand, for trying requisites and outputters.',
  functions: {
    nop: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'A no-op state that does nothing.',
      run: (_ctx, { name }) => ({ name, changes: {}, result: true, comment: 'Success!' }),
    }),
    succeed_without_changes: succeedWithoutChanges,
    fail_without_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns failure.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: {},
        result: false,
        comment: ctx.test
          ? "If we weren't testing, this would be a failure!"
          : commentOf(extra.kwargs, 'Failure!'),
      }),
    }),
    succeed_with_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns True with a non-empty changes dictionary.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: structuredClone(PRETEND),
        result: ctx.test ? null : true,
        comment: ctx.test
          ? "If we weren't testing, this would be successful with changes"
          : commentOf(extra.kwargs, 'Success!'),
      }),
    }),
    fail_with_changes: defineState({
      args: (z) => z.object({ name: z.string() }),
      varkw: true,
      doc: 'Returns False with a non-empty changes dictionary.',
      run: (ctx, { name }, extra) => ({
        name,
        changes: structuredClone(PRETEND),
        result: ctx.test ? null : false,
        comment: ctx.test
          ? "If we weren't testing, this would be failed with changes"
          : commentOf(extra.kwargs, 'Failure!'),
      }),
    }),
    configurable_test_state: configurableTestState,
    show_notification: defineState({
      args: (z) => z.object({ name: z.string(), text: z.unknown().optional() }),
      varkw: true,
      doc: 'Returns successful with the text argument as the comment.',
      run: (_ctx, { name, text }) => {
        if (!text) throw new SALT_ERR_INVOCATION('Missing required argument text.');
        return { name, changes: {}, result: true, comment: text as string };
      },
    }),
    mod_watch: defineState({
      args: (z) => z.object({ name: z.string(), sfun: z.string().optional() }),
      varkw: true,
      doc: 'What a watch runs: result, comment and changes from the keywords, or the watched states that changed.',
      run: (ctx, { name }, extra) => {
        const kw = extra.kwargs;
        return {
          name,
          result: 'result' in kw ? (kw.result as boolean | null) : true,
          comment: 'comment' in kw ? (kw.comment as string) : 'Watch statement fired.',
          changes:
            'changes' in kw
              ? (kw.changes as Record<string, unknown>)
              : { 'Requisites with changes': watchedWithChanges(ctx.low, ctx.running) },
        };
      },
    }),
    check_pillar: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          present: z.unknown().optional(),
          boolean: z.unknown().optional(),
          integer: z.unknown().optional(),
          string: z.unknown().optional(),
          listing: z.unknown().optional(),
          dictionary: z.unknown().optional(),
          verbose: z.unknown().default(false),
        }),
      doc: 'Checks that pillar keys are present and, optionally, of a type.',
      run: (ctx, args) => checkPillar(ctx.pillar, args),
    }),
  },
});
