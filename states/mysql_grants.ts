/**
 * Salt's `mysql_grants` state module (`salt/states/mysql_grants.py`): privileges on a database
 * or table granted to user@host (optionally WITH GRANT OPTION, revoking the old ones first),
 * or revoked, through the `mysql` execution module.
 */
import { pyTruthy } from '../kernel/util.js';
import { name } from '../modules/_mysql-args.js';
import { rpartitionDot } from '../modules/_mysql-grants.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { getMysqlError, mysqlCaller, stateConn } from './_mysql-state.js';

const grantStateArgs = (z: Parameters<typeof name>[0]) => ({
  name: name(z),
  grant: z.unknown().default(null),
  database: z.unknown().default(null),
  user: z.unknown().default(null),
  host: z.unknown().default('localhost'),
  grant_option: z.unknown().default(false),
  escape: z.unknown().default(true),
});

const s = (v: unknown): string => (v === null || v === undefined ? 'None' : String(v));

const present = defineState({
  args: (z) =>
    z.object({
      ...grantStateArgs(z),
      revoke_first: z.unknown().default(false),
      ssl_option: z.unknown().default(false),
    }),
  varkw: true,
  doc: `Ensure that the grant is present with the specified properties.

grant: the privileges (\`\`select,insert,update\`\`, \`\`ALL\`\`); database: \`\`db.table\`\`, \`\`db.*\`\` or \`\`*.*\`\`; user, host; grant_option; escape: quote the database and table names; revoke_first: revoke the user's grants on that database first; ssl_option: a list of one-key dicts (SSL, X509, CIPHER, ISSUER, SUBJECT).`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const call = mysqlCaller(ctx, stateConn(extra));
    const { grant, database, user, host } = a;
    const ret: StateReturn = {
      name: a.name,
      changes: {},
      result: true,
      comment: `Grant ${s(grant)} on ${s(database)} to ${s(user)}@${s(host)} is already present`,
    };
    if (await call('grant_exists', [grant, database, user, host, a.grant_option, a.escape])) return ret;
    let err = getMysqlError(ctx);
    if (err !== null) return { ...ret, comment: err, result: false };
    if (pyTruthy(a.revoke_first) && !ctx.test) {
      const have = ((await call('user_grants', [user, host])) || []) as string[];
      const [db, table] = rpartitionDot(String(database));
      const myDb = (await call('quote_identifier', [db, table === '*'])) as string;
      for (const line of have) {
        const t = (await call('tokenize_grant', [line])) as { database: string; grant: string[] };
        if (t.database === myDb)
          await call('grant_revoke', [], {
            grant: t.grant.join(',').replace(/,+$/, ''),
            database,
            user,
            host,
            grant_option: a.grant_option,
            escape: a.escape,
          });
      }
    }
    if (ctx.test) return { ...ret, result: null, comment: `MySQL grant ${a.name} is set to be created` };
    if (await call('grant_add', [grant, database, user, host, a.grant_option, a.escape, a.ssl_option]))
      return {
        ...ret,
        comment: `Grant ${s(grant)} on ${s(database)} to ${s(user)}@${s(host)} has been added`,
        changes: { [a.name]: 'Present' },
      };
    err = getMysqlError(ctx);
    return {
      ...ret,
      result: false,
      comment: `Failed to execute: "GRANT ${s(grant)} ON ${s(database)} TO ${s(user)}@${s(host)}"${err !== null ? ` (${err})` : ''}`,
    };
  },
});

const absent = defineState({
  args: (z) => z.object(grantStateArgs(z)),
  varkw: true,
  doc: 'Ensure that the grant is absent.\n\ngrant, database, user, host, grant_option, escape: as for present.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const call = mysqlCaller(ctx, stateConn(extra));
    const { grant, database, user, host } = a;
    const what = `${s(grant)} on ${s(database)}`;
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    if (await call('grant_exists', [grant, database, user, host, a.grant_option, a.escape])) {
      if (ctx.test) return { ...ret, result: null, comment: `MySQL grant ${a.name} is set to be revoked` };
      if (await call('grant_revoke', [grant, database, user, host, a.grant_option]))
        return {
          ...ret,
          comment: `Grant ${what} for ${s(user)}@${s(host)} has been revoked`,
          changes: { [a.name]: 'Absent' },
        };
      const err = getMysqlError(ctx);
      if (err !== null)
        return {
          ...ret,
          result: false,
          comment: `Unable to revoke grant ${what} for ${s(user)}@${s(host)} (${err})`,
        };
    } else {
      const err = getMysqlError(ctx);
      if (err !== null)
        return {
          ...ret,
          result: false,
          comment: `Unable to determine if grant ${what} for ${s(user)}@${s(host)} exists (${err})`,
        };
    }
    return {
      ...ret,
      comment: `Grant ${what} to ${s(user)}@${s(host)} is not present, so it cannot be revoked`,
    };
  },
});

export default defineStateModule({
  name: 'mysql_grants',
  doc: 'Management of MySQL grants.',
  functions: { present, absent },
});
