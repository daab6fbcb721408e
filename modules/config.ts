/**
 * Salt's `config` execution module (`salt/modules/config.py`): a value looked up in the minion
 * config, then the grains, the pillar, the master config the pillar carries (`pillar_opts`), and
 * Salt's built-in defaults. The job's `opts` are flat, Salt's `__opts__`, with the pillar under
 * `opts.pillar` (Salt's `__pillar__`).
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { gatherBootstrapScript } from './_config-bootstrap.js';
import { CONFIG_DEFAULTS, VALID_PROTOS } from './_config-defaults.js';
import { normalizeMode } from './_file-stat.js';
import { fnmatch } from './_fnmatch.js';
import { dictMerge } from './_slsutil-dictupdate.js';
import { deepCopy, isMapping, traverse } from './_traverse.js';

type Data = Readonly<Record<string, unknown>>;

/** The job's pillar, Salt's `__pillar__`. */
function pillarOf(ctx: ExecContext): Data {
  return isMapping(ctx.opts.pillar) ? ctx.opts.pillar : {};
}

/** The master config the pillar carries with `pillar_opts: True`. */
function masterOf(ctx: ExecContext): Data {
  const m = pillarOf(ctx).master;
  return isMapping(m) ? m : {};
}

const has = (d: Data, k: string): boolean => Object.hasOwn(d, k);
const keyArg = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

const MISSING = Symbol('missing');

/** Salt's `config.get`. */
export function configGet(
  ctx: ExecContext,
  key: string,
  fallback: unknown = '',
  o: {
    delimiter?: string;
    merge?: string | null;
    omitOpts?: boolean;
    omitGrains?: boolean;
    omitPillar?: boolean;
    omitMaster?: boolean;
  } = {},
): unknown {
  const delimiter = o.delimiter ?? ':';
  if (o.merge === undefined || o.merge === null) {
    const sources: Array<[boolean | undefined, unknown]> = [
      [o.omitOpts, ctx.opts],
      [o.omitGrains, ctx.grains],
      [o.omitPillar, pillarOf(ctx)],
      [o.omitMaster, masterOf(ctx)],
      [false, CONFIG_DEFAULTS],
    ];
    for (const [omit, data] of sources) {
      if (omit) continue;
      const got = traverse(data, key, MISSING, delimiter);
      if (got !== MISSING) return got;
    }
    return fallback;
  }
  let strategy = o.merge;
  if (strategy !== 'recurse' && strategy !== 'overwrite') {
    ctx.log.warn(`Unsupported merge strategy '${strategy}'. Falling back to 'recurse'.`);
    strategy = 'recurse';
  }
  let data: Record<string, unknown> = deepCopy({ ...CONFIG_DEFAULTS });
  for (const src of [masterOf(ctx), pillarOf(ctx), ctx.grains, ctx.opts]) {
    data = dictMerge(data, deepCopy(src), strategy);
  }
  const got = traverse(data, key, MISSING, delimiter);
  return got === MISSING ? fallback : got;
}

const omitArgs = (z: typeof import('zod').z) => ({
  omit_opts: pyFlag(z, false),
  omit_grains: pyFlag(z, false),
  omit_pillar: pyFlag(z, false),
  omit_master: pyFlag(z, false),
});

export default defineModule({
  name: 'config',
  doc: 'Return config information: values from the minion config, grains, pillar, master config and defaults.',
  functions: {
    manage_mode: defineFunction({
      args: (z) => z.object({ mode: z.unknown() }),
      doc: "Return a file mode normalized as Salt's file functions use it: `755`, `0o755`, `'0755'` give `'0755'`; None stays None. Kept for backwards compatibility.\n\nCLI Example: salt '*' config.manage_mode 755",
      run: (_ctx, a) => normalizeMode(a.mode),
    }),
    get: defineFunction({
      args: (z) =>
        z.object({
          key: keyArg(z),
          default: z.unknown().default(''),
          delimiter: z.string().default(':'),
          merge: z.string().nullable().optional(),
          // Salt's config.get names these in another order than config.option does
          omit_opts: pyFlag(z, false),
          omit_pillar: pyFlag(z, false),
          omit_master: pyFlag(z, false),
          omit_grains: pyFlag(z, false),
        }),
      doc: `Attempt to retrieve the named value from the minion config file, pillar, grains or the
master config. If the named value is not available, return the value specified by the
\`\`default\`\` argument (an empty string when not given).

Nested values are reached with \`\`:\`\` (or \`\`delimiter\`\`). The stores are searched in this
order, first match wins: minion configuration, grains, pillar, master configuration (with
\`\`pillar_opts\`\`), built-in defaults. With \`\`merge\`\` (\`\`recurse\`\` or \`\`overwrite\`\`) the stores
are merged first (pillar into master config, then grains, then minion config) and then searched.

CLI Example:

    salt '*' config.get pkg:apache
    salt '*' config.get lxc.container_profile:centos merge=recurse`,
      inline: true,
      run: (ctx, a) => {
        const got = configGet(ctx, a.key, MISSING, {
          delimiter: a.delimiter,
          merge: a.merge,
          omitOpts: a.omit_opts,
          omitGrains: a.omit_grains,
          omitPillar: a.omit_pillar,
          omitMaster: a.omit_master,
        });
        if (got === MISSING) return a.default === undefined ? '' : a.default;
        // a value found (not the default) that is an sdb:// reference is read through sdb, as in Salt
        if (typeof got !== 'string' || !got.startsWith('sdb://')) return got;
        return import('../plugins/sdb/index.js').then((sdb) =>
          sdb.sdbGet(got, { opts: ctx.opts, log: ctx.log }),
        );
      },
    }),
    option: defineFunction({
      args: (z) =>
        z.object({
          value: keyArg(z),
          default: z.unknown().optional(),
          ...omitArgs(z),
          omit_all: pyFlag(z, false),
          wildcard: pyFlag(z, false),
        }),
      doc: `Returns the setting for the specified config value, from the minion config, grains,
pillar, master config or Salt's "sane defaults", without recursing into nested data.

default: returned when nothing matches ('' or, with wildcard=True, {}).
omit_opts, omit_grains, omit_pillar, omit_master: skip that store; omit_all: skip them all.
wildcard: match keys as a glob and return a dict of the matching keys and values.

CLI Example:

    salt '*' config.option redis.host`,
      inline: true,
      run: (ctx, a) => {
        const all = a.omit_all;
        const omit = {
          opts: all || a.omit_opts,
          grains: all || a.omit_grains,
          pillar: all || a.omit_pillar,
          master: all || a.omit_master,
        };
        const fallback = a.default ?? (a.wildcard ? {} : '');
        const stores: Array<[boolean, Data]> = [
          [omit.opts, ctx.opts],
          [omit.grains, ctx.grains],
          [omit.pillar, pillarOf(ctx)],
          [omit.master, masterOf(ctx)],
        ];
        if (!a.wildcard) {
          for (const [skip, data] of stores) if (!skip && has(data, a.value)) return data[a.value];
          return has(CONFIG_DEFAULTS, a.value) ? CONFIG_DEFAULTS[a.value] : fallback;
        }
        const ret: Record<string, unknown> = {};
        for (const [skip, data] of [...stores].reverse()) {
          if (skip) continue;
          for (const k of Object.keys(data)) if (fnmatch(k, a.value)) ret[k] = data[k];
        }
        for (const k of Object.keys(CONFIG_DEFAULTS)) {
          if (fnmatch(k, a.value) && !has(ret, k)) ret[k] = CONFIG_DEFAULTS[k];
        }
        return Object.keys(ret).length ? ret : fallback;
      },
    }),
    merge: defineFunction({
      args: (z) =>
        z.object({
          value: keyArg(z),
          default: z.unknown().default(''),
          omit_opts: pyFlag(z, false),
          omit_master: pyFlag(z, false),
          omit_pillar: pyFlag(z, false),
        }),
      doc: `Retrieves an option based on key, merging all matches.

Same as \`\`option()\`\` except that it merges all matches (minion config, master config, pillar),
rather than taking the first match; a string match is returned as it is.

CLI Example:

    salt '*' config.merge schedule`,
      inline: true,
      run: (ctx, a) => {
        let ret: unknown;
        const stores: Array<[boolean, Data]> = [
          [a.omit_opts, ctx.opts],
          [a.omit_master, masterOf(ctx)],
          [a.omit_pillar, pillarOf(ctx)],
        ];
        for (const [skip, data] of stores) {
          if (skip || !has(data, a.value)) continue;
          const tmp = deepCopy(data[a.value]);
          if (ret === undefined) {
            ret = tmp;
            if (typeof ret === 'string') return ret;
          } else if (isMapping(ret) && isMapping(tmp)) ret = { ...tmp, ...ret };
          else if (Array.isArray(ret) && Array.isArray(tmp)) ret = [...ret, ...tmp];
        }
        if (ret === undefined && has(CONFIG_DEFAULTS, a.value)) return CONFIG_DEFAULTS[a.value];
        return ret === undefined ? a.default : ret;
      },
    }),
    dot_vals: defineFunction({
      args: (z) => z.object({ value: keyArg(z) }),
      doc: `Pass in a configuration value that should be preceded by the module name and a dot;
this will return a list of all read key/value pairs.

CLI Example:

    salt '*' config.dot_vals host`,
      inline: true,
      run: (ctx, a) => {
        const ret: Record<string, unknown> = {};
        for (const data of [masterOf(ctx), ctx.opts]) {
          for (const [k, v] of Object.entries(data)) if (k.startsWith(`${a.value}.`)) ret[k] = v;
        }
        return ret;
      },
    }),
    valid_fileproto: defineFunction({
      args: (z) => z.object({ uri: z.union([z.string(), z.number()]).transform(String) }),
      doc: `Returns a boolean value based on whether or not the URI passed has a valid remote
file protocol designation.

CLI Example:

    salt '*' config.valid_fileproto salt://path/to/file`,
      inline: true,
      run: (_ctx, a) => {
        const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(a.uri);
        return VALID_PROTOS.includes(m ? m[1]!.toLowerCase() : '');
      },
    }),
    backup_mode: defineFunction({
      args: (z) => z.object({ backup: z.unknown().default('') }),
      doc: `Return the backup mode.

CLI Example:

    salt '*' config.backup_mode`,
      inline: true,
      run: (ctx, a) => {
        if (pyTruthy(a.backup)) return a.backup;
        if (has(ctx.opts, 'backup_mode')) return ctx.opts.backup_mode;
        if (has(ctx.grains, 'backup_mode')) return ctx.grains.backup_mode;
        const p = pillarOf(ctx);
        return has(p, 'backup_mode') ? p.backup_mode : (masterOf(ctx).backup_mode ?? '');
      },
    }),
    gather_bootstrap_script: defineFunction({
      args: (z) => z.object({ bootstrap: z.unknown().default(null) }),
      doc: `Download the salt-bootstrap script (from bootstrap: a URL or a local file; default the bootstrap_script_url option, else the salt-bootstrap release) into the cloud.deploy.d folders, and return the first path written.

CLI Example:

    salt '*' config.gather_bootstrap_script`,
      run: (ctx, a) => gatherBootstrapScript(ctx, a.bootstrap),
    }),
    items: defineFunction({
      doc: `Return the complete config from the currently running minion process.
This includes defaults for values not set in the config file.

CLI Example:

    salt '*' config.items`,
      inline: true,
      run: (ctx) => ctx.opts,
    }),
  },
});
