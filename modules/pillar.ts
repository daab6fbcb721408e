/**
 * Salt's `pillar` execution module (`salt/modules/pillar.py`), reading side: the pillar the
 * master compiled for this minion (kept by the minion, given to each job as `opts.pillar`,
 * Salt's `__pillar__`). `items` without keys has the master compile afresh, as Salt does, for
 * the `pillarenv` asked (else the minion's) with `pillar=` merged over, without replacing the
 * kept copy (a masterless minion compiles it itself over its kept copy, _pillar-local.ts);
 * with `pillar_enc=gpg` the override is decrypted here first (_pillar-enc.ts);
 * `raw`, `get`, `ls` and `obfuscate` read the kept copy. Values leave only in the owner's own
 * returns.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_EXEC_VALUE,
} from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { decryptOverride } from './_pillar-enc.js';
import { compileLocalPillar } from './_pillar-local.js';
import { deepCopy, filterBy, isMapping, pyEquals, traverse } from './_traverse.js';

/** An option of the minion config: top-level, else among the plugin options kept in `extra`. */
function option(ctx: ExecContext, name: string): unknown {
  if (ctx.opts[name] !== undefined) return ctx.opts[name];
  const extra = ctx.opts.extra;
  return isMapping(extra) ? extra[name] : undefined;
}

/** The minion's pillar (`opts.pillar`), `{}` before the master has sent one. */
export function minionPillar(ctx: ExecContext): Record<string, unknown> {
  const pillar = ctx.opts.pillar;
  return isMapping(pillar) ? pillar : {};
}

const MISSING = Symbol('missing');

/**
 * A fresh compile (Salt's `items()`: `get_pillar(...).compile_pillar()`) for the `pillarenv`
 * asked (else, with `pillarenv_from_saltenv`, the saltenv; else the minion's), with `pillar=`
 * over it: by the master, or by a masterless minion itself. Undefined where neither can compile.
 */
async function freshPillar(
  ctx: ExecContext,
  kwargs: Readonly<Record<string, unknown>>,
  ext?: Readonly<Record<string, unknown>>,
): Promise<Record<string, unknown> | undefined> {
  // inside a pillar render (_pillar-local.ts, the master's compile) the pillar it sees, never a new compile
  if (ctx.opts.__pillar_render === true) return undefined;
  const link = ctx.master;
  const local = !link?.compilePillar && option(ctx, 'file_client') === 'local';
  if (!link?.compilePillar && !local) return undefined;
  const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
  let pillarenv = text(kwargs.pillarenv);
  if (kwargs.pillarenv === undefined || kwargs.pillarenv === null) {
    pillarenv =
      option(ctx, 'pillarenv_from_saltenv') === true
        ? (text(kwargs.saltenv) ?? text(ctx.opts.saltenv))
        : text(option(ctx, 'pillarenv'));
  }
  const ask = {
    pillarenv,
    saltenv: text(ctx.opts.saltenv),
    pillarOverride: isMapping(kwargs.pillar) ? kwargs.pillar : {},
  };
  if (link?.compilePillar) {
    if (ext)
      ctx.log.warn('the master compiles no on-demand ext_pillar for tsalt minions: pillar.ext ignores it');
    return link.compilePillar(ask);
  }
  return compileLocalPillar(ctx, ask, minionPillar(ctx), ext);
}

/** Salt's `item`/`get`: the in-memory pillar, or a fresh one when `pillarenv` or `saltenv` is given. */
async function pillarFor(ctx: ExecContext, kwargs: Readonly<Record<string, unknown>>) {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (given(kwargs.pillarenv) || given(kwargs.saltenv)) {
    const fresh = await freshPillar(ctx, { pillarenv: kwargs.pillarenv, saltenv: kwargs.saltenv });
    if (fresh) return fresh;
  }
  return minionPillar(ctx);
}

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

/** The arguments of `pillar.get` and `pillar.fetch` (its alias). */
const getArgs = (z: typeof import('zod').z) =>
  z.object({
    key: keyArg(z),
    // left out, the default is Salt's NOT_SET sentinel ('' unless pillar_raise_on_missing)
    default: z.unknown().optional().meta({ argspecDefault: '<Constant.NOT_SET>' }),
    merge: pyFlag(z, false),
    merge_nested_lists: z.unknown().optional(),
    delimiter: z.string().default(':'),
    pillarenv: z.unknown().optional(),
    saltenv: z.unknown().optional(),
  });

/** `items` (and Salt's alias `data`). */
const pillarItems = defineFunction({
  varargs: true,
  varkw: true,
  doc: "Return the minion's pillar data.\n\nPositional keys restrict the answer to those keys (as pillar.item); `pillar` merges override data in.",
  run: async (ctx, _a, { args, kwargs: given }) => {
    const kwargs = { ...given };
    if (kwargs.pillar && kwargs.pillar_enc) {
      try {
        kwargs.pillar = await decryptOverride(ctx, kwargs.pillar, String(kwargs.pillar_enc));
      } catch (err) {
        throw new SALT_ERR_EXEC_COMMAND(`Failed to decrypt pillar override: ${(err as Error).message}`);
      }
    }
    if (args.length === 0) {
      const fresh = await freshPillar(ctx, kwargs);
      if (fresh) return fresh;
    }
    const pillar = deepCopy(minionPillar(ctx)) as Record<string, unknown>;
    if (isMapping(kwargs.pillar)) merge(pillar, kwargs.pillar, false);
    if (args.length === 0) return pillar;
    const out: Record<string, unknown> = {};
    for (const k of args) out[String(k)] = traverse(pillar, String(k), '');
    return out;
  },
});

/**
 * Salt's check of an on-demand external pillar (`Pillar.__valid_on_demand_ext_pillar`): a map
 * whose every key `on_demand_ext_pillar` allows; else it is logged and dropped.
 */
function onDemandExt(ctx: ExecContext, ext: unknown): Record<string, unknown> | undefined {
  if (!isMapping(ext)) {
    if (ext) ctx.log.error(`On-demand pillar ${pyStr(ext)} is not formatted as a dictionary`);
    return undefined;
  }
  const allowed = option(ctx, 'on_demand_ext_pillar') ?? ['libvirt', 'virtkey'];
  if (!Array.isArray(allowed)) {
    ctx.log.error(
      "The 'on_demand_ext_pillar' configuration option is malformed, it should be a list of ext_pillar module names",
    );
    return undefined;
  }
  const refused = Object.keys(ext)
    .filter((k) => !allowed.includes(k))
    .sort();
  if (refused.length === 0) return Object.keys(ext).length > 0 ? ext : undefined;
  ctx.log.error(
    `The following ext_pillar modules are not allowed for on-demand pillar data: ${refused.join(', ')}. Valid on-demand ext_pillar modules are: ${allowed.map(String).join(', ')}. The valid modules can be adjusted by setting the 'on_demand_ext_pillar' config option.`,
  );
  return undefined;
}

/** Salt's `pillar.ext`: a fresh compile with one more (on-demand) external pillar, `pillar` over it. */
async function pillarExt(ctx: ExecContext, external: unknown, pillar: unknown): Promise<unknown> {
  let ext = external;
  if (typeof ext === 'string') {
    try {
      ext = parseYaml(ext);
    } catch (err) {
      throw new SALT_ERR_EXEC_COMMAND(`external is not valid YAML: ${(err as Error).message}`);
    }
  }
  const fresh = await freshPillar(ctx, { pillar }, onDemandExt(ctx, ext));
  return fresh ?? deepCopy(minionPillar(ctx));
}

export default defineModule({
  name: 'pillar',
  doc: 'Extract pillar data for this minion.',
  functions: {
    items: pillarItems,
    data: pillarItems,
    ext: defineFunction({
      args: (z) => z.object({ external: z.unknown(), pillar: z.unknown().default(null) }),
      doc: "Compile the pillar afresh with one more external pillar, `external` (one ext_pillar entry, a map or its YAML text), allowed only when its name is in on_demand_ext_pillar (default: libvirt, virtkey); `pillar` overrides values. A refused one is logged and left out. With a master, tsalt's master compiles no on-demand ext_pillar: the pillar is compiled without it.\n\nCLI Example: salt '*' pillar.ext \"{'libvirt': '_'}\"",
      run: (ctx, a) => pillarExt(ctx, a.external, a.pillar),
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
      varargs: true,
      varkw: true,
      doc: 'The pillar (as pillar.items gives it, with the same arguments) with every value replaced by `<type name>` (shape without secrets).',
      run: async (ctx, _a, { args, kwargs }) => obfuscate(await ctx.call('pillar.items', args, kwargs)),
    }),
    ls: defineFunction({
      varargs: true,
      doc: 'The top-level keys of the pillar as pillar.items gives it (positional keys: only those).',
      run: async (ctx, _a, { args }) => Object.keys((await ctx.call('pillar.items', args)) as object),
    }),
    get: defineFunction({
      args: getArgs,
      doc: "The pillar value at key (a:b:c), else default ('' unless pillar_raise_on_missing).",
      run: async (ctx, a) => {
        const pillar = await pillarFor(ctx, a);
        let fallback: unknown = a.default;
        if (fallback === undefined) fallback = option(ctx, 'pillar_raise_on_missing') === true ? MISSING : '';
        if (a.merge) {
          const mergeLists =
            a.merge_nested_lists === undefined || a.merge_nested_lists === null
              ? option(ctx, 'pillar_merge_lists') === true
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
    fetch: defineFunction({
      args: getArgs,
      doc: 'Same as pillar.get: the pillar value at key (a:b:c), else default.',
      run: (ctx, a) => ctx.call('pillar.get', [], a),
    }),
    keys: defineFunction({
      args: (z) => z.object({ key: keyArg(z), delimiter: z.string().default(':') }),
      doc: 'The keys of the mapping at key (a:b:c) in the pillar.',
      run: (ctx, { key, delimiter }) => {
        const found = traverse(minionPillar(ctx), key, MISSING, delimiter);
        if (found === MISSING) throw new SALT_ERR_EXEC_VALUE(`Pillar key not found: ${key}`);
        if (!isMapping(found)) throw new SALT_ERR_EXEC_VALUE(`Pillar value in key ${key} is not a dict`);
        return Object.keys(found);
      },
    }),
    file_exists: defineFunction({
      args: (z) => z.object({ path: z.string(), saltenv: z.string().nullish() }),
      doc: "Whether path exists under this minion's pillar_roots (of saltenv only, when given).",
      run: (ctx, { path, saltenv }) => {
        const configured = option(ctx, 'pillar_roots');
        let roots = (
          isMapping(configured) ? configured : { base: ['/srv/pillar', '/srv/spm/pillar'] }
        ) as Record<string, unknown>;
        if (saltenv) {
          if (!Object.hasOwn(roots, saltenv)) return false;
          roots = { [saltenv]: roots[saltenv] };
        }
        for (const dirs of Object.values(roots)) {
          for (const dir of Array.isArray(dirs) ? dirs : [dirs]) {
            const full = join(String(dir), path);
            if (existsSync(full) && statSync(full).isFile()) return true;
          }
        }
        return false;
      },
    }),
    filter_by: defineFunction({
      args: (z) =>
        z.object({
          lookup_dict: z.record(z.string(), z.unknown()),
          pillar: z.string(),
          merge: z.unknown().optional(),
          default: z.unknown().default('default'),
          base: z.unknown().optional(),
        }),
      doc: 'Salt filter_by over a pillar key: the lookup_dict entry matching its value (or default).',
      run: (ctx, a) => filterBy(a.lookup_dict, a.pillar, minionPillar(ctx), a.merge, a.default, a.base),
    }),
    item: defineFunction({
      varargs: true,
      varkw: true,
      doc: "A mapping of each key given to its pillar value (`default`, else '', when missing).",
      run: async (ctx, _a, { args, kwargs }) => {
        const pillar = await pillarFor(ctx, kwargs);
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
