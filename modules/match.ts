/**
 * Salt's `match` execution module (`salt/modules/match.py`): does this minion match a target
 * expression of each type, with the kernel's minion-side matchers (or the custom ones a
 * `_matchers` sync brought: plugins/matchers), and the `filter_by` and
 * `search_by` look-ups formulas build on them.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { matchType } from '../kernel/services.js';
import { pyTruthy } from '../kernel/util.js';
import { matchersFromOpts, processMatchers } from '../plugins/matchers/index.js';
import { pyFlag } from './_coerce.js';
import { loadStore } from './_data-store.js';
import { fnmatch } from './_fnmatch.js';
import { dictUpdate } from './_slsutil-dictupdate.js';
import { deepCopy, isMapping } from './_traverse.js';

const TYPES = [
  'compound',
  'glob',
  'pcre',
  'list',
  'grain',
  'grain_pcre',
  'pillar',
  'pillar_pcre',
  'ipcidr',
  'data',
];

function pillarOf(ctx: ExecContext): Record<string, unknown> {
  return isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
}

/** Salt's `data_match` (as meant: Salt 3006's asks a `data.getval` that does not exist). */
function dataMatch(ctx: ExecContext, tgt: unknown): boolean {
  const comps = String(tgt).split(':');
  if (comps.length < 2) return false;
  const store = loadStore(ctx);
  const val = store[comps[0]!];
  if (val === undefined || val === null) return false;
  if (Array.isArray(val)) return val.some((m) => fnmatch(String(m).toLowerCase(), comps[1]!.toLowerCase()));
  if (isMapping(val)) return Object.hasOwn(val, comps[1]!);
  return fnmatch(String(val), comps[1]!);
}

/** One matcher: `tgtType` against this minion (or `minionId`), false on any error as Salt logs it. */
export function matchAs(
  ctx: ExecContext,
  tgtType: string,
  tgt: unknown,
  minionId?: unknown,
  delimiter = ':',
): boolean {
  try {
    if (tgtType === 'data') return dataMatch(ctx, tgt);
    const id = minionId === undefined || minionId === null ? ctx.id : String(minionId);
    const matchCtx = { grains: ctx.grains, pillar: pillarOf(ctx), matchers: processMatchers() };
    return matchType(tgtType === 'list_' ? 'list' : tgtType, tgt, id, matchCtx, delimiter);
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, `match.${tgtType} failed`);
    return false;
  }
}

/** This process's custom matchers (plugins/matchers), loaded before the first match here. */
const ready = (ctx: ExecContext) => matchersFromOpts(ctx.opts, ctx.log);

function checkType(tgtType: string): void {
  if (!TYPES.includes(tgtType) && !processMatchers()?.has(tgtType))
    throw new SALT_ERR_EXEC_VALUE(`'${tgtType}'`);
}

const withId = (name: string, what: string, example: string) =>
  defineFunction({
    args: (z) => z.object({ tgt: z.unknown(), minion_id: z.unknown().optional() }),
    doc: `Return True if the minion ID matches the given ${what} target.

minion_id: specify the minion ID to match against the target expression.

CLI Example:

    salt '*' match.${name} ${example}`,
    inline: true,
    run: async (ctx, a) => {
      await ready(ctx);
      return matchAs(ctx, name, a.tgt, a.minion_id);
    },
  });

const withDelim = (name: string, what: string, example: string) =>
  defineFunction({
    args: (z) => z.object({ tgt: z.unknown(), delimiter: z.string().default(':') }),
    doc: `Return True if the minion matches the given ${what} target. The delimiter argument
can be used to specify a different delimiter.

CLI Example:

    salt '*' match.${name} '${example}'`,
    inline: true,
    run: async (ctx, a) => {
      await ready(ctx);
      return matchAs(ctx, name, a.tgt, undefined, a.delimiter ?? ':');
    },
  });

export default defineModule({
  name: 'match',
  doc: 'The match module allows for match routines to be run and determine target specs.',
  functions: {
    compound: withId('compound', 'compound', "'L@cheese,foo and *'"),
    glob: withId('glob', 'glob', "'*'"),
    pcre: withId('pcre', 'pcre', "'.*'"),
    list: { ...withId('list', 'list', "'server1,server2'"), pyName: 'list_' },
    grain: withDelim('grain', 'grain', 'os:Ubuntu'),
    grain_pcre: withDelim('grain_pcre', 'grain_pcre', 'os:Fedo.*'),
    pillar: withDelim('pillar', 'pillar', 'cheese:foo'),
    pillar_pcre: withDelim('pillar_pcre', 'pillar PCRE', 'cheese:(swiss|american)'),
    ipcidr: defineFunction({
      args: (z) => z.object({ tgt: z.unknown() }),
      doc: `Return True if the minion matches the given ipcidr target.

CLI Example:

    salt '*' match.ipcidr '192.168.44.0/24'`,
      inline: true,
      run: async (ctx, a) => {
        await ready(ctx);
        return matchAs(ctx, 'ipcidr', a.tgt);
      },
    }),
    data: defineFunction({
      args: (z) => z.object({ tgt: z.unknown() }),
      doc: `Return True if the minion matches the given data target (a key of the minion's datastore).

CLI Example:

    salt '*' match.data 'spam:eggs'`,
      run: (ctx, a) => matchAs(ctx, 'data', a.tgt),
    }),
    filter_by: defineFunction({
      args: (z) =>
        z.object({
          lookup: z.unknown(),
          tgt_type: z.string().default('compound'),
          minion_id: z.unknown().optional(),
          merge: z.unknown().optional(),
          merge_lists: pyFlag(z, false),
          default: z.unknown().default('default'),
        }),
      doc: `Return the first match in a dictionary of target patterns.

The keys of lookup are target expressions of tgt_type (default compound) matched against this
minion; the value of the first that matches is returned, merged with merge when given, else the
value of the default key ('default'), else None.

CLI Example:

    salt '*' match.filter_by '{foo*: Foo!, bar*: Bar!}' minion_id=bar03`,
      run: async (ctx, a) => {
        await ready(ctx);
        const tgtType = a.tgt_type ?? 'compound';
        checkType(tgtType);
        if (!isMapping(a.lookup)) throw new SALT_ERR_EXEC_VALUE("'lookup' must be a dictionary");
        for (const key of Object.keys(a.lookup)) {
          if (!matchAs(ctx, tgtType, key, pyTruthy(a.minion_id) ? a.minion_id : undefined)) continue;
          if (pyTruthy(a.merge)) {
            if (!isMapping(a.merge))
              throw new SALT_ERR_EXEC_VALUE('filter_by merge argument must be a dictionary.');
            if (a.lookup[key] === null || a.lookup[key] === undefined) return a.merge;
            dictUpdate(a.lookup[key], deepCopy(a.merge), true, a.merge_lists);
          }
          return a.lookup[key];
        }
        if (a.default === null || a.default === undefined) return null;
        const dflt = String(a.default);
        return Object.hasOwn(a.lookup, dflt) ? a.lookup[dflt] : null;
      },
    }),
    search_by: defineFunction({
      args: (z) =>
        z.object({
          lookup: z.unknown(),
          tgt_type: z.string().default('compound'),
          minion_id: z.unknown().optional(),
        }),
      doc: `Search a dictionary of target strings for matching targets.

Each value of lookup is a list of target expressions; the keys whose lists hold a match for this
minion are returned as a list, or None when none match.

CLI Example:

    salt '*' match.search_by '{web: [node1, node2], db: [node2, node]}'`,
      run: async (ctx, a) => {
        await ready(ctx);
        const tgtType = a.tgt_type ?? 'compound';
        checkType(tgtType);
        if (!isMapping(a.lookup)) throw new SALT_ERR_EXEC_VALUE("'lookup' must be a dictionary");
        const matches: string[] = [];
        for (const [key, targets] of Object.entries(a.lookup)) {
          const list = Array.isArray(targets) ? targets : typeof targets === 'string' ? [...targets] : [];
          for (const t of list) {
            if (matchAs(ctx, tgtType, t, pyTruthy(a.minion_id) ? a.minion_id : undefined)) matches.push(key);
          }
        }
        return matches.length ? matches : null;
      },
    }),
    ifelse: defineFunction({
      // tgt_type, minion_id, merge and merge_lists are keyword-only (after *args), so they come as keywords
      varargs: true,
      varkw: true,
      doc: `Evaluate each pair of arguments up to the last one as a (matcher, value) tuple,
returning value if matched. If none match, returns the last argument.

CLI Example:

    salt '*' match.ifelse 'foo*' 'Foo!' 'bar*' 'Bar!' minion_id=bar03`,
      run: async (ctx, _a, extra) => {
        await ready(ctx);
        const args = extra.args;
        const kw = extra.kwargs;
        const a = {
          tgt_type: typeof kw.tgt_type === 'string' ? kw.tgt_type : undefined,
          minion_id: kw.minion_id,
          merge: kw.merge,
          merge_lists: pyTruthy(kw.merge_lists),
        };
        if (args.length % 2 === 0) {
          throw new SALT_ERR_EXEC_VALUE('The ifelse function must have an odd number of arguments!');
        }
        if (args.length === 1) return args[0];
        const tgtType = a.tgt_type ?? 'compound';
        checkType(tgtType);
        for (let i = 0; i + 1 < args.length; i += 2) {
          const key = args[i] === true ? '*' : args[i] === false ? 'SALT_IFELSE_MATCH_NOTHING' : args[i];
          if (matchAs(ctx, tgtType, key, pyTruthy(a.minion_id) ? a.minion_id : undefined)) {
            const val = args[i + 1];
            if (pyTruthy(a.merge) && isMapping(a.merge)) {
              if (val === null) return a.merge;
              dictUpdate(val, deepCopy(a.merge), true, a.merge_lists);
            }
            return val;
          }
        }
        return args[args.length - 1];
      },
    }),
  },
});
