/**
 * Extensions for Salt's `postgres` module: what the server offers and has installed, and
 * CREATE/ALTER/DROP EXTENSION as Salt's `create_extension`/`drop_extension` decide them.
 */
import type { ExecContext } from '../kernel/index.js';
import { type PgConn, pgExec, psqlQuery } from './_pg-run.js';
import { looseVersionLess } from './_pg-version.js';

export const NOT_INSTALLED = 'EXTENSION NOT INSTALLED';
export const INSTALLED = 'EXTENSION INSTALLED';
export const TO_UPGRADE = 'EXTENSION TO UPGRADE';
export const TO_MOVE = 'EXTENSION TO MOVE';

type Rows = Record<string, Record<string, string>>;

export async function availableExtensions(ctx: ExecContext, conn: PgConn): Promise<Rows> {
  const out: Rows = {};
  for (const row of await psqlQuery(ctx, 'select * from pg_available_extensions();', conn))
    if ('default_version' in row && row.name !== undefined) out[row.name] = row;
  return out;
}

export async function installedExtensions(ctx: ExecContext, conn: PgConn): Promise<Rows> {
  const q =
    'select a.*, b.nspname as schema_name from pg_extension a,  pg_namespace b where a.extnamespace = b.oid;';
  const out: Rows = {};
  for (const row of await psqlQuery(ctx, q, conn))
    if ('extversion' in row && row.extname !== undefined) out[row.extname] = row;
  return out;
}

export async function isAvailable(ctx: ExecContext, name: string, conn: PgConn): Promise<boolean> {
  return Object.keys(await availableExtensions(ctx, conn)).some(
    (n) => n.toLowerCase() === name.toLowerCase(),
  );
}

/** Salt's `create_metadata`: installed or not, and whether it needs an upgrade or a move. */
export async function createMetadata(
  ctx: ExecContext,
  name: string,
  extVersion: string | null,
  schema: string | null,
  conn: PgConn,
): Promise<string[]> {
  const ext = (await installedExtensions(ctx, conn))[name];
  if (!ext) return [NOT_INSTALLED];
  const ret = [INSTALLED];
  if (extVersion !== null && looseVersionLess(ext.extversion ?? extVersion, extVersion)) ret.push(TO_UPGRADE);
  if (schema !== null && (ext.extrelocatable ?? 'f') === 't' && (ext.schema_name ?? schema) !== schema)
    ret.push(TO_MOVE);
  return ret;
}

export interface DropOpts {
  ifExists: boolean;
  restrict: boolean;
  cascade: boolean;
}

export async function dropExtension(
  ctx: ExecContext,
  name: string,
  o: DropOpts,
  conn: PgConn,
): Promise<boolean> {
  const args = ['DROP EXTENSION'];
  if (o.ifExists) args.push('IF EXISTS');
  args.push(name);
  if (o.cascade) args.push('CASCADE');
  if (o.restrict) args.push('RESTRICT');
  args.push(';');
  if ((await installedExtensions(ctx, conn))[name]) await pgExec(ctx, args.join(' '), conn);
  const gone = !(await installedExtensions(ctx, conn))[name];
  if (!gone) ctx.log.info(`Failed to drop ext: ${name}`);
  return gone;
}

export interface CreateOpts {
  ifNotExists: boolean;
  schema: string | null;
  extVersion: string | null;
  fromVersion: string | null;
}

export async function createExtension(
  ctx: ExecContext,
  name: string,
  o: CreateOpts,
  conn: PgConn,
): Promise<boolean> {
  let md = await createMetadata(ctx, name, o.extVersion, o.schema, conn);
  if (await isAvailable(ctx, name, conn)) {
    let cmd: string;
    if (md.includes(NOT_INSTALLED)) {
      const args = ['CREATE EXTENSION'];
      if (o.ifNotExists) args.push('IF NOT EXISTS');
      args.push(`"${name}"`);
      const with_: string[] = [];
      if (o.schema) with_.push(`SCHEMA "${o.schema}"`);
      if (o.extVersion) with_.push(`VERSION ${o.extVersion}`);
      if (o.fromVersion) with_.push(`FROM ${o.fromVersion}`);
      if (with_.length > 0) args.push('WITH', ...with_);
      args.push(';');
      cmd = args.join(' ').trim();
    } else {
      const args: string[] = [];
      if (o.schema && md.includes(TO_MOVE)) args.push(`ALTER EXTENSION "${name}" SET SCHEMA "${o.schema}";`);
      if (o.extVersion && md.includes(TO_UPGRADE))
        args.push(`ALTER EXTENSION "${name}" UPDATE TO ${o.extVersion};`);
      cmd = args.join(' ').trim();
    }
    if (cmd) await pgExec(ctx, cmd, conn);
  }
  md = await createMetadata(ctx, name, o.extVersion, o.schema, conn);
  const ok = !md.some((f) => f !== INSTALLED);
  if (!ok) ctx.log.info(`Failed to create ext: ${name}`);
  return ok;
}
