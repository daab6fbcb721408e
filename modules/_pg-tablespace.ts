/**
 * Salt's tablespace functions of the `postgres` module: `tablespace_list` (name → owner, ACL,
 * options, location), `tablespace_exists`, `tablespace_create`, `tablespace_alter` (rename,
 * owner, one option set or reset) and `tablespace_remove`.
 */
import type { z as Zod } from 'zod';
import { defineFunction, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { cli, conn, name, u } from './_pg-args.js';
import { type PgConn, pgExec, psqlQuery, quoteDdl, text } from './_pg-run.js';

export async function tablespaceList(
  ctx: ExecContext,
  c: PgConn,
): Promise<Record<string, Record<string, string>>> {
  const q =
    'SELECT spcname as "Name", pga.rolname as "Owner", spcacl as "ACL", spcoptions as "Opts", ' +
    'pg_tablespace_location(pgts.oid) as "Location" FROM pg_tablespace pgts, pg_roles pga WHERE pga.oid = pgts.spcowner';
  const out: Record<string, Record<string, string>> = {};
  for (const row of await psqlQuery(ctx, q, c)) {
    const { Name, ...rest } = row;
    out[Name ?? ''] = rest;
  }
  return out;
}

const ident = (v: string) => quoteDdl(v, '"') as string;

/** A tablespace option's name: a word (seq_page_cost, random_page_cost, ...), never SQL. */
function optionName(key: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    throw new SALT_ERR_INVOCATION(`Invalid tablespace option: ${key}`);
  return key;
}

/** An option's value as Salt writes it (Python's str): a number, or a word quoted as a literal. */
function optionValue(v: unknown): string {
  const s = pyStr(v);
  return /^[-+]?[0-9.eE+-]+$/.test(s) ? s : (quoteDdl(s) as string);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const tail = (z: typeof Zod) => ({ ...conn(z), runas: u(z) });

export const tablespaceFunctions = {
  tablespace_list: defineFunction({
    args: (z) => z.object(tail(z)),
    doc: `Return a dictionary with information about the tablespaces of the server: Owner, ACL, Opts and Location.${cli('tablespace_list')}`,
    run: (ctx, a) => tablespaceList(ctx, a),
  }),
  tablespace_exists: defineFunction({
    args: (z) => z.object({ name: name(z), ...tail(z) }),
    doc: `Checks if a tablespace exists on the Postgres server.${cli("tablespace_exists 'dbname'")}`,
    run: async (ctx, a) => a.name in (await tablespaceList(ctx, a)),
  }),
  tablespace_create: defineFunction({
    args: (z) => z.object({ name: name(z), location: name(z), options: u(z), owner: u(z), ...tail(z) }),
    doc: `Adds a tablespace at location (an empty directory the server's user owns); options: {seq_page_cost: 1.1, ...}.${cli("tablespace_create tablespacename '/path/datadir'")}`,
    run: (ctx, a) => {
      const owner = text(a.owner);
      let q = `CREATE TABLESPACE ${ident(a.name)} ${owner ? `OWNER ${ident(owner)}` : ''} LOCATION ${quoteDdl(a.location)}`;
      if (isMap(a.options) && Object.keys(a.options).length > 0) {
        const opts = Object.entries(a.options).map(([k, v]) => `${optionName(k)} = ${optionValue(v)}`);
        q += ` WITH ( ${opts.join(', ')} )`;
      }
      return pgExec(ctx, q, a);
    },
  }),
  tablespace_alter: defineFunction({
    args: (z) =>
      z.object({
        name: name(z),
        ...tail(z),
        new_name: u(z),
        new_owner: u(z),
        set_option: u(z),
        reset_option: u(z),
      }),
    doc: `Change a tablespace's name, owner, or options (set_option: one {name: value}; reset_option: a name).${cli('tablespace_alter tsname new_owner=otheruser')}`,
    run: async (ctx, a) => {
      const queries: string[] = [];
      const on = `ALTER TABLESPACE ${ident(a.name)}`;
      const newName = text(a.new_name);
      const newOwner = text(a.new_owner);
      const reset = text(a.reset_option);
      if (newName) queries.push(`${on} RENAME TO ${ident(newName)}`);
      if (newOwner) queries.push(`${on} OWNER TO ${ident(newOwner)}`);
      if (isMap(a.set_option) && Object.keys(a.set_option).length > 0) {
        const [k, v] = Object.entries(a.set_option)[0] as [string, unknown];
        queries.push(`${on} SET (${optionName(k)} = ${optionValue(v)})`);
      }
      if (reset) queries.push(`${on} RESET (${optionName(reset)})`);
      for (const q of queries) if (!(await pgExec(ctx, q, a))) return false;
      return true;
    },
  }),
  tablespace_remove: defineFunction({
    args: (z) => z.object({ name: name(z), ...tail(z) }),
    doc: `Removes a tablespace from the Postgres server.${cli('tablespace_remove tsname')}`,
    run: (ctx, a) => pgExec(ctx, `DROP TABLESPACE ${ident(a.name)}`, a),
  }),
};
