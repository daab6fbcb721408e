/**
 * The connection keywords every `postgres_*` state takes (`user` is the system user psql runs
 * as; `db_*` the server and role), as a zod shape.
 */
import type { z as Zod } from 'zod';
import type { StateReturn } from '../plugins/states/index.js';

export const pgStateConn = (z: typeof Zod) => ({
  user: z.unknown().default(null),
  maintenance_db: z.unknown().default(null),
  db_password: z.unknown().default(null),
  db_host: z.unknown().default(null),
  db_port: z.unknown().default(null),
  db_user: z.unknown().default(null),
});

/** The same keywords in the order Salt's extension and tablespace.absent states take them (`db_user` third). */
export const pgStateConnUserFirst = (z: typeof Zod) => {
  const { user, maintenance_db, db_user, ...rest } = pgStateConn(z);
  return { user, maintenance_db, db_user, ...rest };
};

/** The state's connection keywords as the module's. */
export interface StateDbArgs {
  user?: unknown;
  maintenance_db?: unknown;
  db_password?: unknown;
  db_host?: unknown;
  db_port?: unknown;
  db_user?: unknown;
}

export const dbArgs = (a: StateDbArgs): Record<string, unknown> => ({
  maintenance_db: a.maintenance_db ?? null,
  runas: a.user ?? null,
  host: a.db_host ?? null,
  user: a.db_user ?? null,
  port: a.db_port ?? null,
  password: a.db_password ?? null,
});

/**
 * What a `present` state starts from: the unchanged return (`<Noun> <name> is already <done>`)
 * and the module's connection keywords.
 */
export const pgPresentStart = (
  name: string,
  noun: string,
  a: StateDbArgs,
  done = 'present',
): { ret: StateReturn; db: Record<string, unknown> } => ({
  ret: { name, changes: {}, result: true, comment: `${noun} ${name} is already ${done}` },
  db: dbArgs(a),
});

export const pgName = (z: typeof Zod) => z.union([z.string(), z.number()]).transform(String);

/** Salt's state modules load when the `postgres` module's psql is there. */
export { psqlPresent } from '../modules/_pg-run.js';
