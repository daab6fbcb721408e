/**
 * Custom grain modules (Salt's `_grains`): unit files whose default export is a
 * `defineGrains(...)`. Searched in `<extension_modules>/grains`, then `grains_dirs`, then the
 * `tsalt.grains` folder of each `extensions` package; the first file of a stem wins. Every unit
 * runs once, in file-name order, each bounded in time; a unit that fails is logged and skipped.
 */
import { pathToFileURL } from 'node:url';
import { SALT_ERR_LOADER_INVALID_UNIT } from '../errors.js';
import { isRecord } from '../guards.js';
import type { Grains, GrainsModuleDef, UnitLogger } from './define.js';
import { resolvePackageDirs } from './packages.js';
import { scanDirs, type UnitFile } from './scan.js';
import { readVirtualResult } from './validate.js';

/** Default bound on one unit's import and `grains()` call. */
export const GRAINS_UNIT_TIMEOUT_MS = 2000;

/** Options of {@link loadCustomGrains}. */
export interface CustomGrainsOptions {
  /** Directories in priority order: `<extension_modules>/grains`, then `grains_dirs`. */
  dirs: readonly string[];
  /** npm package names from config `extensions`; each one's `tsalt.grains` dir is searched after `dirs`. */
  packages?: readonly string[];
  /** Directory to resolve `packages` from. Default `process.cwd()`. */
  resolveFrom?: string;
  opts: Readonly<Record<string, unknown>>;
  id: string;
  /** The core grains; handed to units, and the base each unit's grains lie over. */
  core: Grains;
  /** Merges one unit's grains over those so far (`grains_deep_merge`). Default: top-level replace. */
  merge?: (base: Grains, over: Readonly<Record<string, unknown>>) => Record<string, unknown>;
  /** Bound on one unit (import and `grains()`), in ms. Default {@link GRAINS_UNIT_TIMEOUT_MS}. */
  timeoutMs?: number;
  log: UnitLogger;
}

/** The unit's definition, or why it is not one. */
function readGrainsDef(namespace: unknown): GrainsModuleDef | string {
  const def = isRecord(namespace) ? namespace.default : undefined;
  if (!isRecord(def)) return 'the default export is not a grains definition object';
  if (typeof def.name !== 'string' || def.name === '') return '`name` must be a non-empty string';
  if (typeof def.grains !== 'function') return '`grains` must be a function';
  if (def.virtual !== undefined && typeof def.virtual !== 'function') return '`virtual` must be a function';
  return def as unknown as GrainsModuleDef;
}

/** `work` or a rejection after `ms`; the timer never keeps the process alive. */
async function bounded<T>(work: () => Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One unit's grains, or `undefined` when it refuses to load. Throws what the unit throws. */
async function runUnit(
  file: UnitFile,
  grains: Grains,
  options: CustomGrainsOptions,
): Promise<Record<string, unknown> | undefined> {
  const def = readGrainsDef(await import(pathToFileURL(file.path).href));
  if (typeof def === 'string') throw new SALT_ERR_LOADER_INVALID_UNIT(file.path, def);
  if (def.virtual) {
    const answer = await def.virtual({ opts: options.opts, grains });
    const decision = readVirtualResult(answer, { name: def.name, functions: {} }, file.path);
    if (!decision.load) {
      options.log.debug({ unit: def.name, path: file.path, reason: decision.reason }, 'grains unit refused');
      return undefined;
    }
  }
  const out: unknown = await def.grains({ opts: options.opts, id: options.id, core: grains });
  if (!isRecord(out)) throw new SALT_ERR_LOADER_INVALID_UNIT(file.path, 'grains() must return an object');
  return out;
}

/**
 * Runs every custom grain module and returns the core grains with theirs laid over, in file-name
 * order (a later file's keys win). A unit that cannot be imported, throws, returns something other
 * than an object or takes longer than the bound is logged at `warn` and skipped. A unit that
 * blocks the event loop (synchronous busy work) cannot be interrupted.
 */
export async function loadCustomGrains(options: CustomGrainsOptions): Promise<Record<string, unknown>> {
  const { packages = [], resolveFrom = process.cwd(), log } = options;
  const packageDirs = resolvePackageDirs(packages, { resolveFrom, kind: 'grains', log });
  const found = await scanDirs([...options.dirs, ...packageDirs], { log });
  for (const c of found.collisions) log.warn(c, `grains file collision: ${c.kept} shadows ${c.ignored}`);
  const files = [...found.ordered].sort((a, b) => (a.stem < b.stem ? -1 : a.stem > b.stem ? 1 : 0));
  const merge = options.merge ?? ((base, over) => ({ ...base, ...over }));
  const ms = options.timeoutMs ?? GRAINS_UNIT_TIMEOUT_MS;
  let grains: Record<string, unknown> = { ...options.core };
  for (const file of files) {
    try {
      const out = await bounded(() => runUnit(file, grains, options), ms);
      if (out === undefined) continue;
      grains = merge(grains, out);
      log.trace({ unit: file.stem, path: file.path, keys: Object.keys(out).length }, 'grains unit ran');
    } catch (err) {
      log.warn(
        { unit: file.stem, path: file.path, err: err instanceof Error ? err.message : String(err) },
        `custom grains ${file.stem} skipped: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return grains;
}
