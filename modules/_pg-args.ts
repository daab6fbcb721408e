/**
 * The argument shapes the `postgres` module's functions share (zod): the connection (`user`,
 * `host`, `port`, `maintenance_db`, `password`, `runas`), names, and Salt's loose values.
 */
import type { z as Zod } from 'zod';

/** An optional argument of any type, None when not given. */
export const u = (z: typeof Zod) => z.unknown().default(null);

/** The connection arguments (psql's `runas` aside). */
export const conn = (z: typeof Zod) => ({
  user: u(z),
  host: u(z),
  port: u(z),
  maintenance_db: u(z),
  password: u(z),
});

/** A name as Salt takes it: a string, or a number made one. */
export const name = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

/** A value as a string, or null when not given. */
export const opt = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** Python truthiness of a flag argument. */
export const truthy = (v: unknown) => Boolean(v) && v !== 0;

/** The CLI example every function's doc ends with. */
export const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' postgres.${example}`;
