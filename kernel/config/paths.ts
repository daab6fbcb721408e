/**
 * Salt's path rules (`salt/config/__init__.py`: `prepend_root_dir`, `should_prepend_root_dir`,
 * `_adjust_log_file_override`, the `sock_dir` length rule), so a Salt config keeps its meaning
 * and every consumer gets absolute paths. POSIX paths only, as on Salt's Linux builds.
 */
import { posix } from 'node:path';
import type { ConfigKind } from './constants.js';

/** Options Salt always prefixes with `root_dir` (when present and set). */
export const ROOT_DIR_PATH_OPTIONS: Readonly<Record<ConfigKind, readonly string[]>> = {
  master: [
    'pki_dir',
    'cachedir',
    'pidfile',
    'sock_dir',
    'extension_modules',
    'autosign_file',
    'autoreject_file',
    'autosign_grains_dir',
  ],
  minion: ['pki_dir', 'cachedir', 'sock_dir', 'extension_modules', 'pidfile'],
};

/** Log options Salt prefixes only when they are not URLs (`udp://`, `file://`, ...). */
export const ROOT_DIR_LOG_OPTIONS: Readonly<Record<ConfigKind, readonly string[]>> = {
  master: ['log_file', 'key_logfile'],
  minion: ['log_file'],
};

/** Python's `urlparse(value).scheme != ""`: a letter, then letters, digits, `+`, `-` or `.`, then `:`. */
export function hasUrlScheme(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value);
}

/**
 * Salt's `prepend_root_dir` for one value. An absolute path already under `rootDir` stays
 * (normalised); any other path, absolute or relative, is placed under `rootDir`.
 * `rootDir` is made absolute against the working directory, as Salt's `os.path.abspath`.
 * Unlike Salt, a value equal to `rootDir` itself stays `rootDir` (Salt doubles it).
 */
export function prependRootDir(rootDir: string, value: string): string {
  const root = posix.resolve(rootDir);
  let out: string;
  if (root === '/') out = posix.join('/', value);
  else if (value === root || value.startsWith(`${root}/`)) out = posix.normalize(value);
  else out = posix.join(root, value);
  // Python's normpath (inside Salt's path join) drops trailing slashes.
  return out.length > 1 ? out.replace(/\/+$/, '') : out;
}

/** Salt's `_adjust_log_file_override`: `log_dir` places a relative or default `log_file`. */
export function adjustLogFile(raw: Record<string, unknown>, defaultLogFile: string): Record<string, unknown> {
  const logDir = raw.log_dir;
  if (typeof logDir !== 'string' || logDir === '') return raw;
  const logFile = raw.log_file;
  if (typeof logFile === 'string' && logFile !== '') {
    if (posix.isAbsolute(logFile)) return raw;
    return { ...raw, log_file: posix.join(logDir, logFile) };
  }
  return { ...raw, log_file: posix.join(logDir, posix.basename(defaultLogFile)) };
}

/** The path options of a parsed config, before and after resolution. */
export interface PathFields {
  root_dir: string;
  cachedir: string;
  sock_dir: string;
  extension_modules: string | null;
  module_dirs: string[];
  [key: string]: unknown;
}

/**
 * Resolves every path option of a parsed config as Salt's `apply_master_config` /
 * `apply_minion_config` do, in the same order:
 * 1. `sock_dir` longer than `cachedir` + 10 characters becomes `<cachedir>/.salt-unix`;
 * 2. an unset `extension_modules` becomes `<cachedir>/extmods`;
 * 3. `root_dir` is prepended to the path options (log files only when not URLs).
 * `root_dir` itself becomes absolute, and relative `module_dirs` are resolved against the
 * working directory (Salt uses them as given, which means the same thing).
 */
export function resolvePaths<T extends PathFields>(
  kind: ConfigKind,
  config: T,
): T & { extension_modules: string } {
  const out: Record<string, unknown> = { ...config };
  if (config.sock_dir.length > config.cachedir.length + 10) {
    out.sock_dir = posix.join(config.cachedir, '.salt-unix');
  }
  out.extension_modules = config.extension_modules || posix.join(config.cachedir, 'extmods');
  const rootDir = posix.resolve(config.root_dir);
  for (const key of ROOT_DIR_PATH_OPTIONS[kind]) {
    const value = out[key];
    if (typeof value === 'string') out[key] = prependRootDir(rootDir, value);
  }
  for (const key of ROOT_DIR_LOG_OPTIONS[kind]) {
    const value = out[key];
    if (typeof value === 'string' && !hasUrlScheme(value)) out[key] = prependRootDir(rootDir, value);
  }
  out.root_dir = rootDir;
  out.module_dirs = config.module_dirs.map((dir) => posix.resolve(dir));
  return out as T & { extension_modules: string };
}
