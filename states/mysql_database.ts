/**
 * Salt's `mysql_database` state module (`salt/states/mysql_database.py`): a database present,
 * with its character set and collation changed when they differ, or absent, through the
 * `mysql` execution module.
 */
import { name } from '../modules/_mysql-args.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { getMysqlError, mysqlCaller, stateConn } from './_mysql-state.js';

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
type DbInfo = { character_set?: string; collate?: string };

const present = defineState({
  args: (z) =>
    z.object({
      name: name(z),
      character_set: z.unknown().default(null),
      collate: z.unknown().default(null),
    }),
  varkw: true,
  doc: `Ensure that the named database is present with the specified properties.

name: the name of the database to manage; character_set, collate: changed when they differ.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = a.name;
    const call = mysqlCaller(ctx, stateConn(extra));
    const ret: StateReturn = {
      name,
      changes: {},
      result: true,
      comment: `Database ${name} is already present`,
    };
    const cs = str(a.character_set);
    const co = str(a.collate);
    const existing = (await call('db_get', [name])) as DbInfo | never[];
    if (existing && !Array.isArray(existing) && Object.keys(existing).length > 0) {
      let alter = false;
      const haveCs = String(existing.character_set ?? 'None');
      if (cs && cs !== haveCs) {
        alter = true;
        ret.comment = `Database character set ${cs} != ${haveCs} needs to be updated`;
        if (ctx.test) ret.result = null;
      }
      const haveCo = String(existing.collate ?? 'None');
      if (co && co !== haveCo) {
        alter = true;
        ret.comment += `\nDatabase collate ${co} != ${haveCo} needs to be updated`;
        if (ctx.test) return { ...ret, result: null };
      }
      if (alter) {
        if (ctx.test) ret.comment += `\nDatabase ${name} is going to be updated`;
        else await call('alter_db', [name], { character_set: cs, collate: co });
      }
      const current = (await call('db_get', [name])) as DbInfo;
      const changes: Record<string, unknown> = {};
      if (existing.collate !== current.collate)
        changes.collate = { before: existing.collate ?? null, now: current.collate ?? null };
      if (existing.character_set !== current.character_set)
        changes.character_set = {
          before: existing.character_set ?? null,
          now: current.character_set ?? null,
        };
      return { ...ret, changes };
    }
    const err = getMysqlError(ctx);
    if (err !== null) return { ...ret, comment: err, result: false };
    if (ctx.test)
      return { ...ret, result: null, comment: `Database ${name} is not present and needs to be created` };
    if (await call('db_create', [name], { character_set: a.character_set, collate: a.collate }))
      return { ...ret, comment: `The database ${name} has been created`, changes: { [name]: 'Present' } };
    const why = getMysqlError(ctx);
    return {
      ...ret,
      result: false,
      comment: `Failed to create database ${name}${why !== null ? ` (${why})` : ''}`,
    };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: name(z) }),
  varkw: true,
  doc: 'Ensure that the named database is absent.\n\nname: the name of the database to remove.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = a.name;
    const call = mysqlCaller(ctx, stateConn(extra));
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    if (await call('db_exists', [name])) {
      if (ctx.test)
        return { ...ret, result: null, comment: `Database ${name} is present and needs to be removed` };
      if (await call('db_remove', [name]))
        return { ...ret, comment: `Database ${name} has been removed`, changes: { [name]: 'Absent' } };
      const err = getMysqlError(ctx);
      if (err !== null)
        return { ...ret, result: false, comment: `Unable to remove database ${name} (${err})` };
    } else {
      const err = getMysqlError(ctx);
      if (err !== null) return { ...ret, result: false, comment: err };
    }
    return { ...ret, comment: `Database ${name} is not present, so it cannot be removed` };
  },
});

export default defineStateModule({
  name: 'mysql_database',
  doc: 'Management of MySQL databases (schemas).',
  functions: { present, absent },
});
