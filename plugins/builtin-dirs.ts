/**
 * Where tsalt's own units are, for every unit kind: the one list the daemons, CLIs and tools
 * hand to the kernel's loaders, which know no built-in of their own. Each loader searches the
 * operator's folders first and these last, first match wins (Salt's `_module_dirs` in
 * `salt/loader/__init__.py`: `--module-dirs`, `<extension_modules>/<kind>`, `<kind>_dirs`,
 * then `SALT_BASE_PATH/<kind>`), with the `extensions` packages between.
 *
 * The paths are relative to this file, so they name the compiled folders (`dist/modules`) in a
 * daemon and the sources under vitest.
 *
 * Kinds with no entry here: outputters (outputters/builtin.ts, a table of static imports
 * loaded by name and tried before `<extension_modules>/output`, so that a short CLI run imports
 * only the outputter it prints with), grains (the core grains are code, minion/grains.ts) and
 * `ext_processes` (named by path or package, never searched for).
 */
import { fileURLToPath } from 'node:url';

const folder = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** The built-in folder of each kind that is found by scanning folders. */
export const BUILTIN_DIRS = Object.freeze({
  /** Execution modules (after `<extension_modules>/modules`, `module_dirs`, packages). */
  modules: folder('../modules/'),
  /** State modules (after `<extension_modules>/states`, `states_dirs`, packages). */
  states: folder('../states/'),
  /** Runners (after `<extension_modules>/runners`, `runner_dirs`, packages). */
  runners: folder('./runners/functions/'),
  /** Wheel modules (after `<extension_modules>/wheel`, `wheel_dirs`). */
  wheel: folder('./wheel/functions/'),
  /** Engines, master and minion (after `<extension_modules>/engines`, `engines_dirs`, packages). */
  engines: folder('./engines/'),
  /** Minion beacons (after `<extension_modules>/beacons`, `beacons_dirs`, packages). */
  beacons: folder('./beacons/'),
});

/**
 * The built-in returners, name → entry file (after `<extension_modules>/returners`,
 * `returner_dirs`, packages). A map, not a folder: returners/ holds the returners' helpers and
 * tests beside their entry files, and a returner found by name need not import the others.
 */
export const BUILTIN_RETURNERS: Readonly<Record<string, URL>> = Object.freeze({
  local: new URL('../returners/local.js', import.meta.url),
  local_cache: new URL('../returners/local-cache.js', import.meta.url),
  job_store: new URL('../returners/job-store/index.js', import.meta.url),
  postgres: new URL('../returners/postgres/index.js', import.meta.url),
  redis: new URL('../returners/redis/index.js', import.meta.url),
  mattermost: new URL('../returners/mattermost.js', import.meta.url),
});
