/**
 * Which unit a process child runs, as passed on its command line, and how it is found:
 * an `ext_processes` entry (a module path, a package name, or the index of a `defineProcess`
 * value in a code config) or an `engines:` entry (an engine name with options).
 */
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SALT_ERR_LOADER_INVALID_UNIT, SALT_ERR_LOADER_NOT_AVAILABLE } from '../errors.js';
import { isRecord } from '../guards.js';
import type { UnitLogger } from '../loader/define.js';
import { createNamedUnitFinder } from '../loader/named-units.js';
import { isProcessDef, type ProcessDef } from './define.js';

export type UnitRef =
  | { kind: 'process'; ref: string }
  | { kind: 'process'; index: number; name: string }
  | { kind: 'engine'; name: string; module: string; options: Record<string, unknown> };

/** The process manager's name for a unit's child. */
export function unitChildName(unit: UnitRef): string {
  if (unit.kind === 'engine') return `engine-${unit.name}`;
  return `process-${'ref' in unit ? unit.ref.replace(/^.*[/\\]/, '').replace(/\.[cm]?[jt]s$/, '') : unit.name}`;
}

/** Salt's `engines:` list: a name, or `{ name: { options, engine_module? } }`. */
export function engineUnits(entries: readonly unknown[]): Extract<UnitRef, { kind: 'engine' }>[] {
  const out: Extract<UnitRef, { kind: 'engine' }>[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') out.push({ kind: 'engine', name: entry, module: entry, options: {} });
    else if (isRecord(entry)) {
      for (const [name, raw] of Object.entries(entry)) {
        const options = isRecord(raw) ? { ...raw } : {};
        const module = typeof options.engine_module === 'string' ? options.engine_module : name;
        delete options.engine_module;
        out.push({ kind: 'engine', name, module, options });
      }
    }
  }
  return out;
}

/** `ext_processes`: strings are module paths or package names; objects are `defineProcess` values. */
export function processUnits(entries: readonly unknown[]): Extract<UnitRef, { kind: 'process' }>[] {
  return entries.map((entry, index) =>
    typeof entry === 'string'
      ? { kind: 'process' as const, ref: entry }
      : { kind: 'process' as const, index, name: String((entry as { name?: unknown }).name ?? index) },
  );
}

function readDef(namespace: unknown): ProcessDef | string {
  const def = isRecord(namespace) ? namespace.default : undefined;
  return isProcessDef(def)
    ? def
    : 'the default export is not a defineProcess/defineEngine value ({ name, start })';
}

/** Imports a process module named by path (relative to the config folder) or package name. */
async function importProcessRef(ref: string, configDir: string): Promise<ProcessDef> {
  let href: string;
  if (ref.startsWith('.') || isAbsolute(ref)) href = pathToFileURL(resolve(configDir, ref)).href;
  else {
    try {
      href = pathToFileURL(createRequire(join(resolve(configDir), '_')).resolve(ref)).href;
    } catch {
      try {
        href = pathToFileURL(createRequire(join(process.cwd(), '_')).resolve(ref)).href;
      } catch {
        throw new SALT_ERR_LOADER_NOT_AVAILABLE(
          ref,
          `ext_processes names no such module or package (looked in ${configDir} and ${process.cwd()})`,
        );
      }
    }
  }
  let namespace: unknown;
  try {
    namespace = await import(href);
  } catch (err) {
    throw new SALT_ERR_LOADER_INVALID_UNIT(ref, `cannot be imported: ${(err as Error).message}`);
  }
  const def = readDef(namespace);
  if (typeof def === 'string') throw new SALT_ERR_LOADER_INVALID_UNIT(ref, def);
  return def;
}

export interface FindUnitOptions {
  configDir: string;
  /** The `ext_processes` entries of a config loaded in this process (with its code values). */
  extProcesses: readonly unknown[];
  /** Engine folders in priority order: `<extension_modules>/engines`, then `engines_dirs`. */
  engineDirs: readonly string[];
  packages: readonly string[];
  /** The built-in engine folders (the caller's: the kernel knows no built-in). */
  builtinEngineDirs: readonly string[];
  log: UnitLogger;
}

/**
 * Where a daemon looks for units, from its resolved config: `<extension_modules>/engines`,
 * `engines_dirs`, the `extensions` packages (and, on the master, the `ext_processes` values),
 * and the built-in engine folders its caller passes (plugins/builtin-dirs.ts).
 */
export function unitSearch(
  config: Readonly<Record<string, unknown>>,
  configDir: string,
  log: UnitLogger,
  builtinEngineDirs: readonly string[],
): FindUnitOptions {
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
  return {
    configDir,
    extProcesses: Array.isArray(config.ext_processes) ? config.ext_processes : [],
    engineDirs: [join(String(config.extension_modules), 'engines'), ...list(config.engines_dirs)],
    packages: list(config.extensions),
    builtinEngineDirs,
    log,
  };
}

/** The definition a unit ref names. */
export async function findUnit(unit: UnitRef, o: FindUnitOptions): Promise<ProcessDef> {
  if (unit.kind === 'process') {
    if ('ref' in unit) return importProcessRef(unit.ref, o.configDir);
    const def = o.extProcesses[unit.index];
    if (!isProcessDef(def)) {
      throw new SALT_ERR_LOADER_INVALID_UNIT(
        `ext_processes[${unit.index}]`,
        'not a defineProcess value ({ name, start })',
      );
    }
    return def;
  }
  const finder = createNamedUnitFinder<ProcessDef>({
    kind: 'engines',
    dirs: [...o.engineDirs, ...o.builtinEngineDirs],
    packages: o.packages,
    read: readDef,
    nameOf: (def) => def.name,
    log: o.log,
  });
  const found = await finder.find(unit.module);
  if (!found) {
    throw new SALT_ERR_LOADER_NOT_AVAILABLE(
      unit.module,
      'no engine of that name in <extension_modules>/engines, engines_dirs, the extensions packages or the built-ins',
    );
  }
  return found.def;
}
