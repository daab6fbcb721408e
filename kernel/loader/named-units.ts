/**
 * Finding a unit by the name it declares (returners, engines): unit files in the given
 * folders, then the packages' `tsalt.<kind>` folders, then the built-ins. The file named after
 * the unit (`job-store.mjs` or `job_store.mjs` for `job_store`) is tried first; the others are
 * imported only when that fails, once per process.
 */
import { pathToFileURL } from 'node:url';
import { SALT_ERR_LOADER_INVALID_UNIT } from '../errors.js';
import type { UnitLogger } from './define.js';
import { type ExtensionKind, resolvePackageDirs } from './packages.js';
import { scanDirs, type UnitFile } from './scan.js';

export interface NamedUnitOptions<T> {
  kind: ExtensionKind;
  /** Folders in priority order. */
  dirs: readonly string[];
  packages?: readonly string[];
  resolveFrom?: string;
  /** Built-in units: name → module URL. */
  builtin?: Readonly<Record<string, URL>>;
  /** The unit in an imported namespace, or why it is not one. */
  read(namespace: unknown): T | string;
  nameOf(unit: T): string;
  log: UnitLogger;
}

export interface FoundUnit<T> {
  readonly def: T;
  /** `builtin` or the file path. */
  readonly source: string;
}

/** A finder; `find` resolves `undefined` when no unit has the name, and throws for a broken file named after it. */
export function createNamedUnitFinder<T>(options: NamedUnitOptions<T>): {
  find(name: string): Promise<FoundUnit<T> | undefined>;
} {
  const { log } = options;
  let files: Promise<readonly UnitFile[]> | undefined;
  let byName: Promise<Map<string, UnitFile>> | undefined;

  const unitFiles = (): Promise<readonly UnitFile[]> => {
    files ??= (async () => {
      const packageDirs = resolvePackageDirs(options.packages ?? [], {
        resolveFrom: options.resolveFrom ?? process.cwd(),
        kind: options.kind,
        log,
      });
      const found = await scanDirs([...options.dirs, ...packageDirs], { log });
      for (const c of found.collisions)
        log.warn(c, `${options.kind} file collision: ${c.kept} shadows ${c.ignored}`);
      return found.ordered;
    })();
    return files;
  };

  const importUnit = async (href: string, label: string): Promise<T> => {
    let namespace: unknown;
    try {
      namespace = await import(href);
    } catch (err) {
      throw new SALT_ERR_LOADER_INVALID_UNIT(label, `cannot be imported: ${(err as Error).message}`);
    }
    const def = options.read(namespace);
    if (typeof def === 'string') throw new SALT_ERR_LOADER_INVALID_UNIT(label, def);
    return def;
  };
  const importFile = (path: string) => importUnit(pathToFileURL(path).href, path);

  const indexByName = (): Promise<Map<string, UnitFile>> => {
    byName ??= (async () => {
      const out = new Map<string, UnitFile>();
      for (const file of await unitFiles()) {
        try {
          const name = options.nameOf(await importFile(file.path));
          if (!out.has(name)) out.set(name, file);
        } catch (err) {
          log.warn({ path: file.path, err: (err as Error).message }, `${options.kind} file skipped`);
        }
      }
      return out;
    })();
    return byName;
  };

  return {
    async find(name) {
      const all = await unitFiles();
      const guess = all.find((f) => f.stem === name || f.stem.replace(/-/g, '_') === name);
      let guessError: unknown;
      if (guess) {
        const def = await importFile(guess.path).catch((err: unknown) => {
          guessError = err;
          return undefined;
        });
        if (def !== undefined && options.nameOf(def) === name) return { def, source: guess.path };
      }
      const file = (await indexByName()).get(name);
      if (file) return { def: await importFile(file.path), source: file.path };
      // the file named after the unit is broken: say why rather than "not available"
      if (guessError) throw guessError;
      const builtin = options.builtin?.[name];
      if (builtin) return { def: await importUnit(builtin.href, name), source: 'builtin' };
      return undefined;
    },
  };
}
