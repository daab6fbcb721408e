/**
 * npm extension packages named in config (`extensions: ['@acme/tsalt-ext-x']`). Each declares
 * its unit directories in its package.json: `"tsalt": { "modules": "./dist/modules" }`, the
 * counterpart of Salt's `salt.loader` entry points. Only the named packages are resolved:
 * the loader never scans `node_modules`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { UnitLogger } from './define.js';

/** The unit kinds a package can declare under its `tsalt` field. */
export type ExtensionKind =
  | 'modules'
  | 'states'
  | 'returners'
  | 'runners'
  | 'processes'
  | 'engines'
  | 'beacons'
  | 'outputters'
  | 'matchers'
  | 'grains'
  | 'sdb';

/** Options of {@link resolvePackageDirs}. */
export interface PackageDirsOptions {
  /** Directory whose `node_modules` chain is searched, as `require` would from a file there. */
  resolveFrom: string;
  /** Which field of `tsalt` to read. */
  kind: ExtensionKind;
  log: UnitLogger;
}

/** Finds `<name>/package.json` as Node would from `resolveFrom`, or `undefined`. */
export function findPackageJson(name: string, resolveFrom: string): string | undefined {
  const require = createRequire(join(resolve(resolveFrom), '__tsalt_loader__.js'));
  try {
    return require.resolve(`${name}/package.json`);
  } catch {
    // An `exports` map that hides package.json lands here too: walk the lookup paths instead.
  }
  for (const base of require.resolve.paths(name) ?? []) {
    const candidate = join(base, name, 'package.json');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The directory a package declares for `kind`, or a reason why there is none. `absent` marks
 * the ordinary case of a tsalt package that provides other kinds only (not worth a warning).
 */
export function readPackageDir(
  pkgJsonPath: string,
  kind: ExtensionKind,
): { dir: string } | { reason: string; absent?: true } {
  let pkg: unknown;
  try {
    pkg = JSON.parse(readFileSync(pkgJsonPath, 'utf8'));
  } catch (err) {
    return { reason: `cannot read ${pkgJsonPath}: ${(err as Error).message}` };
  }
  const field = (pkg as { tsalt?: unknown } | null)?.tsalt;
  if (typeof field !== 'object' || field === null || Array.isArray(field))
    return { reason: `${pkgJsonPath} has no "tsalt" field: it is not a tsalt extension package` };
  const rel = (field as Record<string, unknown>)[kind];
  if (rel === undefined) return { reason: `${pkgJsonPath} has no "tsalt.${kind}" field`, absent: true };
  if (typeof rel !== 'string' || rel === '')
    return { reason: `"tsalt.${kind}" in ${pkgJsonPath} is not a path` };
  const dir = resolve(dirname(pkgJsonPath), rel);
  if (!existsSync(dir))
    return { reason: `"tsalt.${kind}" in ${pkgJsonPath} points to ${dir}, which does not exist` };
  return { dir };
}

/**
 * Resolves each named package and returns the directories they declare for `kind`, in the
 * order given. A package that cannot be found, is not a tsalt package, or declares a folder that
 * does not exist is logged at `warn` and skipped; one that provides other kinds only, at `trace`.
 */
export function resolvePackageDirs(packages: readonly string[], options: PackageDirsOptions): string[] {
  const dirs: string[] = [];
  for (const name of packages) {
    const pkgJson = findPackageJson(name, options.resolveFrom);
    if (pkgJson === undefined) {
      options.log.warn(
        { package: name, resolveFrom: options.resolveFrom },
        `extension package ${name} not found`,
      );
      continue;
    }
    const found = readPackageDir(pkgJson, options.kind);
    if ('reason' in found) {
      const level = found.absent ? 'trace' : 'warn';
      options.log[level]({ package: name, path: pkgJson }, `extension package ${name}: ${found.reason}`);
      continue;
    }
    options.log.trace({ package: name, dir: found.dir }, 'extension package dir');
    dirs.push(found.dir);
  }
  return dirs;
}
