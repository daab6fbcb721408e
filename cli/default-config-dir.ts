/**
 * The default `-c`: `$SALT_CONFIG_DIR`, else the checkout's embedded state dir made by
 * `npm start` (`.tsalt/etc/salt`) when it exists, else Salt's `/etc/salt`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package root (where package.json is). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** `npm start`'s self-contained state dir. */
export const EMBEDDED_ROOT = `${PACKAGE_ROOT}.tsalt`;
export const EMBEDDED_CONFIG_DIR = `${EMBEDDED_ROOT}/etc/salt`;

export function defaultConfigDir(): string {
  const env = process.env.SALT_CONFIG_DIR;
  if (env) return env;
  if (existsSync(EMBEDDED_CONFIG_DIR)) return EMBEDDED_CONFIG_DIR;
  return '/etc/salt';
}
