/**
 * Salt's `stringlist` parameter type for git remotes (`salt/utils/gitfs.py` `enforce_types`):
 * a list keeps its items as strings; a string is split at commas and each part trimmed; any
 * other scalar becomes a string first. Used by `refspecs`, `saltenv_whitelist` and
 * `saltenv_blacklist`, global or per remote.
 */
import { z } from 'zod';

/** A value as Salt's `stringlist` type reads it. */
export function toStringList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((v) => String(v));
  return String(value)
    .split(',')
    .map((s) => s.trim());
}

/** The zod schema of a global `stringlist` option: a string or a list, read as Salt reads it. */
export const stringListSchema = z
  .union([z.string(), z.array(z.union([z.string(), z.number(), z.boolean()]))], {
    error: 'expected a string or a list of strings',
  })
  .transform(toStringList);
