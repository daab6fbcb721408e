/**
 * Salt's `pillar` execution module (`salt/modules/pillar.py`), reading side. tsalt's master
 * has no pillar sources yet (its `_pillar` answer is always `{}`, master/handlers/
 * pillar.ts), so every minion's pillar is empty and these answer what Salt answers with no
 * pillar: `items` `{}`, `get` the default, `item` the defaults. The lookups are the real ones
 * over {@link minionPillar}, ready for when pillar data reaches job processes.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { deepCopy, isMapping, pyEquals, traverse } from './_traverse.js';

/** The minion's pillar: empty, as tsalt's master serves none. */
export function minionPillar(_ctx: ExecContext): Record<string, unknown> {
  return {};
}

const MISSING = Symbol('missing');

/** Salt's `dictupdate.update(dest, upd, merge_lists)`: recursive, lists merged or replaced. */
function merge(dest: Record<string, unknown>, upd: Record<string, unknown>, mergeLists: boolean) {
  for (const [k, v] of Object.entries(upd)) {
    const cur = dest[k];
    if (isMapping(cur) && isMapping(v)) merge(cur, v, mergeLists);
    else if (mergeLists && Array.isArray(cur) && Array.isArray(v))
      dest[k] = [...cur, ...v.filter((x) => !cur.some((y) => pyEquals(x, y)))];
    else dest[k] = deepCopy(v);
  }
  return dest;
}

const keyArg = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export default defineModule({
  name: 'pillar',
  doc: 'Module for reading the minion pillar (tsalt serves no pillar yet: it is empty).',
  functions: {
    items: defineFunction({
      varargs: true,
      varkw: true,
      doc: "Return the minion's pillar data.\n\nPositional keys restrict the answer to those keys (as pillar.item); `pillar` merges override data in.",
      run: (ctx, _a, { args, kwargs }) => {
        const pillar = deepCopy(minionPillar(ctx)) as Record<string, unknown>;
        if (isMapping(kwargs.pillar)) merge(pillar, kwargs.pillar, false);
        if (args.length === 0) return pillar;
        const out: Record<string, unknown> = {};
        for (const k of args) out[String(k)] = traverse(pillar, String(k), '');
        return out;
      },
    }),
    raw: defineFunction({
      args: (z) => z.object({ key: z.string().nullish() }),
      doc: 'The in-memory pillar, or the value of one top-level key.',
      run: (ctx, { key }) => {
        const pillar = minionPillar(ctx);
        return key ? (pillar[key] ?? {}) : pillar;
      },
    }),
    obfuscate: defineFunction({
      args: (z) => z.object({ pillarenv: z.unknown().optional(), saltenv: z.unknown().optional() }),
      doc: 'The pillar with every value replaced by `<type name>` (shape without secrets).',
      run: (ctx) => obfuscate(minionPillar(ctx)),
    }),
    ls: defineFunction({
      args: (z) => z.object({ pillarenv: z.unknown().optional(), saltenv: z.unknown().optional() }),
      doc: 'The top-level pillar keys.',
      run: (ctx) => Object.keys(minionPillar(ctx)),
    }),
    get: defineFunction({
      args: (z) =>
        z.object({
          key: keyArg(z),
          default: z.unknown().optional(),
          merge: pyFlag(z, false),
          merge_nested_lists: z.unknown().optional(),
          delimiter: z.string().default(':'),
          pillarenv: z.unknown().optional(),
          saltenv: z.unknown().optional(),
        }),
      doc: "The pillar value at key (a:b:c), else default ('' unless pillar_raise_on_missing).",
      run: (ctx, a) => {
        const pillar = minionPillar(ctx);
        let fallback: unknown = a.default;
        if (fallback === undefined) fallback = ctx.opts.pillar_raise_on_missing ? MISSING : '';
        if (a.merge) {
          const mergeLists =
            a.merge_nested_lists === undefined || a.merge_nested_lists === null
              ? Boolean(ctx.opts.pillar_merge_lists)
              : Boolean(a.merge_nested_lists);
          const found = traverse(pillar, a.key, MISSING, a.delimiter);
          if (isMapping(fallback) && isMapping(found))
            return merge(deepCopy(fallback) as Record<string, unknown>, found, mergeLists);
          if (Array.isArray(fallback) && Array.isArray(found)) {
            const out = deepCopy(fallback) as unknown[];
            for (const x of found) if (!out.some((y) => pyEquals(x, y))) out.push(x);
            return out;
          }
        }
        const v = traverse(pillar, a.key, fallback, a.delimiter);
        if (v === MISSING) throw new SALT_ERR_EXEC_VALUE(`Pillar key not found: ${a.key}`);
        return v;
      },
    }),
    item: defineFunction({
      varargs: true,
      varkw: true,
      doc: "A mapping of each key given to its pillar value (`default`, else '', when missing).",
      run: (ctx, _a, { args, kwargs }) => {
        const pillar = minionPillar(ctx);
        const fallback = kwargs.default ?? '';
        const delimiter = typeof kwargs.delimiter === 'string' ? kwargs.delimiter : ':';
        const out: Record<string, unknown> = {};
        for (const k of args) out[String(k)] = traverse(pillar, String(k), fallback, delimiter);
        return out;
      },
    }),
  },
});

/** Salt's `_obfuscate_inner`: containers kept, leaves replaced by their Python type name. */
function obfuscate(v: unknown): unknown {
  if (isMapping(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, obfuscate(x)]));
  if (Array.isArray(v)) return v.map(obfuscate);
  if (v === null) return '<NoneType>';
  if (typeof v === 'boolean') return '<bool>';
  if (typeof v === 'number') return Number.isInteger(v) ? '<int>' : '<float>';
  if (typeof v === 'bigint') return '<int>';
  return '<str>';
}
