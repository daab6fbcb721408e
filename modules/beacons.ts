/**
 * Salt's `beacons` execution module (`salt/modules/beacons.py`), reading side: the beacons
 * the minion runs (its config's `beacons` mapping, as Salt lists them; tsalt serves no pillar,
 * so pillar beacons add none) and the beacon modules it could run (built-in, the
 * `<extension_modules>/beacons` and `beacons_dirs` folders, extension packages).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineFunction, defineModule, type ExecContext, isBeaconDef } from '../kernel/index.js';
import { resolvePackageDirs, scanDirs } from '../kernel/services.js';
import { BUILTIN_DIRS } from '../plugins/builtin-dirs.js';
import { currentBeacons, manageFunctions } from './_beacons-fns.js';
import { pyFlag } from './_coerce.js';
import { pyYamlDump } from './_yaml-dump.js';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** The folders searched for beacon modules, in the minion's order. */
export function beaconDirs(opts: Readonly<Record<string, unknown>>): string[] {
  const ext = typeof opts.extension_modules === 'string' ? [join(opts.extension_modules, 'beacons')] : [];
  return [...ext, ...strings(opts.beacons_dirs), BUILTIN_DIRS.beacons];
}

/** The names the beacon modules in `dirs` (and extension packages) declare, sorted. */
export async function availableBeacons(ctx: ExecContext, dirs: readonly string[]): Promise<string[]> {
  const packageDirs = resolvePackageDirs(strings(ctx.opts.extensions), {
    resolveFrom: process.cwd(),
    kind: 'beacons',
    log: ctx.log,
  });
  const found = await scanDirs([...dirs, ...packageDirs], {
    log: ctx.log,
    tsLoader: import.meta.url.endsWith('.ts'),
  });
  const names = new Set<string>();
  for (const file of found.ordered) {
    try {
      const def = ((await import(pathToFileURL(file.path).href)) as { default?: unknown }).default;
      if (isBeaconDef(def)) names.add(def.name);
    } catch (err) {
      ctx.log.debug({ path: file.path, err: (err as Error).message }, 'beacon module skipped');
    }
  }
  return [...names].sort();
}

/** The configured beacons (Salt's `_get_beacons`): the running minion's, else its config's. */
async function configured(ctx: ExecContext, includeOpts: boolean): Promise<Record<string, unknown>> {
  return includeOpts ? currentBeacons(ctx) : {};
}

export default defineModule({
  name: 'beacons',
  doc: 'Module for managing the beacons a minion runs and listing the beacon modules it has.',
  functions: {
    ...manageFunctions((ctx) => availableBeacons(ctx, beaconDirs(ctx.opts))),
    list: defineFunction({
      pyName: 'list_',
      args: (z) =>
        z.object({
          return_yaml: pyFlag(z, true),
          include_pillar: pyFlag(z, true),
          include_opts: pyFlag(z, true),
        }),
      varkw: true,
      doc: 'List the beacons currently configured on the minion.\n\nreturn_yaml=False returns the mapping instead of YAML text.',
      run: async (ctx, { return_yaml, include_opts }) => {
        const beacons = await configured(ctx, include_opts);
        return return_yaml ? pyYamlDump({ beacons }) : beacons;
      },
    }),
    list_available: defineFunction({
      args: (z) => z.object({ return_yaml: pyFlag(z, true) }),
      varkw: true,
      doc: 'List the beacon modules available on the minion.',
      run: async (ctx, { return_yaml }) => {
        const beacons = await availableBeacons(ctx, beaconDirs(ctx.opts));
        if (beacons.length === 0) return { beacons: {} };
        return return_yaml ? pyYamlDump({ beacons }) : beacons;
      },
    }),
  },
});
