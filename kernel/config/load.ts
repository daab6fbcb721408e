/**
 * `-c DIR`: finds the config file in DIR (only there), reads it, merges Salt's includes and the
 * caller's overrides, and resolves the result. Data files (Salt's plain `master`/`minion` YAML,
 * `.yaml`, `.json`) are read directly; cosmiconfig is imported only for `.ts`/`.mjs`/`.js`.
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { SALT_ERR_CONFIG_LOAD } from '../errors.js';
import { type ConfigKind, searchPlaces } from './constants.js';
import type { ConfigEnv } from './define-config.js';
import { readIncludes } from './includes.js';
import type { ResolvedMasterConfig, ResolvedMinionConfig } from './resolve.js';
import { asConfigObject, parseSaltYaml, readJsonFile, readSaltYamlFile } from './salt-yaml.js';
import type { UserMasterConfig } from './schema-master.js';
import type { UserMinionConfig } from './schema-minion.js';

/** What `loadConfig` returns. */
export interface LoadedConfig<C> {
  /** The main config file read, or `null` when DIR has none (defaults, includes, overrides). */
  path: string | null;
  config: C;
  /** Unknown options, deprecations, ignored files: for the caller to log. */
  warnings: string[];
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The config files present in `dir`, in search order (the first one is used). */
export function findConfigFiles(kind: ConfigKind, dir: string): string[] {
  return searchPlaces(kind)
    .map((place) => posix.join(dir, place))
    .filter(isFile);
}

function isModulePath(path: string): boolean {
  return /\.(?:ts|mjs|js)$/.test(path);
}

/** Loads a `.ts`/`.mjs`/`.js` config with cosmiconfig and evaluates what it exports. */
async function loadModuleConfig(kind: ConfigKind, file: string): Promise<Record<string, unknown>> {
  try {
    const { cosmiconfig } = await import('cosmiconfig');
    const yamlLoader = (_path: string, content: string) => parseSaltYaml(content);
    // `load(file)`, not `search(dir)`: cosmiconfig's search also honours a meta config found
    // in the working directory, which could add places outside DIR. We searched DIR ourselves.
    const explorer = cosmiconfig(`tsalt-${kind}`, {
      searchPlaces: [...searchPlaces(kind)],
      searchStrategy: 'none',
      ignoreEmptySearchPlaces: false,
      cache: false,
      loaders: { noExt: yamlLoader, '.yaml': yamlLoader },
    });
    const result = await explorer.load(file);
    let exported: unknown = await result?.config;
    // cosmiconfig reports both an empty file and a missing default export as empty.
    if (exported === undefined && (await readFile(file, 'utf8')).trim() !== '') {
      throw new TypeError('the config module has no default export');
    }
    if (typeof exported === 'function') {
      const env: ConfigEnv = { kind };
      exported = await (exported as (env: ConfigEnv) => unknown)(env);
    }
    return asConfigObject(exported);
  } catch (cause) {
    throw new SALT_ERR_CONFIG_LOAD(file, { cause });
  }
}

async function readMainFile(kind: ConfigKind, file: string): Promise<Record<string, unknown>> {
  if (isModulePath(file)) return loadModuleConfig(kind, file);
  if (file.endsWith('.json')) return readJsonFile(file);
  return readSaltYamlFile(file);
}

/**
 * Reads the `kind` config from `configDir` and resolves it.
 * Order of precedence, lowest first: schema defaults, the main file, `<kind>.d/*.conf`
 * (`default_include`) and `include` files, then `overrides` (e.g. from command-line flags).
 * Throws `SALT_ERR_CONFIG_LOAD` (unreadable file) or `SALT_ERR_CONFIG_INVALID` (bad values).
 */
export function loadConfig(
  kind: 'master',
  configDir: string,
  overrides?: UserMasterConfig,
): Promise<LoadedConfig<ResolvedMasterConfig>>;
export function loadConfig(
  kind: 'minion',
  configDir: string,
  overrides?: UserMinionConfig,
): Promise<LoadedConfig<ResolvedMinionConfig>>;
export async function loadConfig(
  kind: ConfigKind,
  configDir: string,
  overrides: UserMasterConfig | UserMinionConfig = {},
): Promise<LoadedConfig<ResolvedMasterConfig | ResolvedMinionConfig>> {
  const dir = posix.resolve(configDir);
  const warnings: string[] = [];
  const found = findConfigFiles(kind, dir);
  const main = found[0] ?? null;
  if (found.length > 1) {
    warnings.push(`config file ${main} is used; ignoring ${found.slice(1).join(', ')}`);
  }
  if (main === null && !isDirectory(dir)) {
    warnings.push(`config directory ${dir} does not exist: using defaults`);
  }

  const sources = new Map<string, string>();
  const fromMain = main === null ? {} : await readMainFile(kind, main);
  for (const key of Object.keys(fromMain)) sources.set(key, main ?? dir);

  const defaultInclude = fromMain.default_include ?? `${kind}.d/*.conf`;
  const defaults = await readIncludes(defaultInclude, dir);
  const extra = await readIncludes(fromMain.include, dir);
  for (const pattern of extra.unmatched) warnings.push(`include "${pattern}" matches no files`);
  for (const file of [...defaults.files, ...extra.files]) {
    for (const key of file.keys) sources.set(key, file.path);
  }
  for (const key of Object.keys(overrides)) sources.set(key, 'overrides');

  const raw: Record<string, unknown> = {
    ...fromMain,
    ...defaults.options,
    ...extra.options,
    ...overrides,
    conf_file: main ?? posix.join(dir, kind),
    config_dir: dir,
  };
  const sourceOf = (key: string) => {
    const source = sources.get(key);
    return source === undefined || source === main ? undefined : source;
  };
  const { resolveConfig } = await import('./resolve.js');
  const resolved = resolveConfig(kind, raw, { label: main ?? dir, sourceOf });
  return { path: main, config: resolved.config, warnings: [...warnings, ...resolved.warnings] };
}
