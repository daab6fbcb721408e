/**
 * Finding an sdb driver by name, in Salt's loader order: drivers plugins registered under the
 * `sdb` kind in this process, then unit files in `<extension_modules>/sdb` (what Salt's
 * `saltutil.sync_sdb` fills), the `sdb_dirs` folders and the `tsalt.sdb` folders of the
 * `extensions` packages, then the built-ins (env, yaml, sqlite3, redis). The file named after the driver
 * is tried first; the others are imported only when it does not declare that name.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KindRegistrar, UnitLogger } from '../../kernel/index.js';
import { resolvePackageDirs, scanDirs, type UnitFile } from '../../kernel/services.js';
import { isSdbDriver, type SdbDriver } from './define.js';

const BUILTIN: Readonly<Record<string, () => Promise<{ default: SdbDriver }>>> = {
  env: () => import('./drivers/env.js'),
  yaml: () => import('./drivers/yaml.js'),
  sqlite3: () => import('./drivers/sqlite3.js'),
  redis: () => import('./drivers/redis.js'),
};

/** The built-in drivers' names. */
export const BUILTIN_SDB_DRIVERS: readonly string[] = Object.keys(BUILTIN);

let kinds: Pick<KindRegistrar, 'all'> | undefined;

/** Lets this process's lookups see the drivers plugins registered (the sdb plugin calls it). */
export function setProcessSdbKinds(registrar: Pick<KindRegistrar, 'all'> | undefined): void {
  kinds = registrar;
}

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** An option as a flat `__opts__` or a resolved config (unknown options under `extra`) holds it. */
export function optionOf(opts: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(opts, name)) return opts[name];
  const extra = opts.extra;
  return typeof extra === 'object' && extra !== null ? (extra as Record<string, unknown>)[name] : undefined;
}

/** The folders searched for driver files, in order. */
export function sdbDirs(opts: Readonly<Record<string, unknown>>, log: UnitLogger): string[] {
  const ext = optionOf(opts, 'extension_modules');
  const packageDirs = resolvePackageDirs(list(optionOf(opts, 'extensions')), {
    resolveFrom: process.cwd(),
    kind: 'sdb',
    log,
  });
  return [
    ...(typeof ext === 'string' && ext ? [join(ext, 'sdb')] : []),
    ...list(optionOf(opts, 'sdb_dirs')),
    ...packageDirs,
  ];
}

async function importDriver(file: UnitFile, log: UnitLogger): Promise<SdbDriver | undefined> {
  try {
    const def = ((await import(pathToFileURL(file.path).href)) as { default?: unknown }).default;
    if (isSdbDriver(def)) return def;
    log.warn(
      { path: file.path },
      'sdb file skipped: its default export is not a defineSdb({ name, get }) value',
    );
  } catch (err) {
    log.warn({ path: file.path, err: (err as Error).message }, 'sdb file skipped: it cannot be imported');
  }
  return undefined;
}

/** The driver named `name`, or `undefined` when no source has one. */
export async function findSdbDriver(
  name: string,
  opts: Readonly<Record<string, unknown>>,
  log: UnitLogger,
): Promise<SdbDriver | undefined> {
  const registered = kinds?.all('sdb').find((d) => d.name === name);
  if (registered) return registered;
  const files = (await scanDirs(sdbDirs(opts, log), { log })).ordered;
  const named = files.filter((f) => f.stem === name);
  for (const file of [...named, ...files.filter((f) => f.stem !== name)]) {
    const def = await importDriver(file, log);
    if (def?.name === name) return def;
  }
  const builtin = Object.hasOwn(BUILTIN, name) ? BUILTIN[name] : undefined;
  if (builtin === undefined) return undefined;
  return (await builtin()).default;
}
