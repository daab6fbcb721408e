/**
 * Salt's `mysql_user` state module (`salt/states/mysql_user.py`): an account present with the
 * wanted password (or hash, or a passwordless or unix_socket login), or absent, through the
 * `mysql` execution module. The password is compared by the server and never shown.
 */
import { pyTruthy } from '../kernel/util.js';
import { name } from '../modules/_mysql-args.js';
import { isTrue } from '../modules/_mysql-sql.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { getMysqlError, mysqlCaller, stateConn } from './_mysql-state.js';

const present = defineState({
  args: (z) =>
    z.object({
      name: name(z),
      host: name(z).default('localhost'),
      password: z.unknown().default(null),
      password_hash: z.unknown().default(null),
      allow_passwordless: z.unknown().default(false),
      unix_socket: z.unknown().default(false),
      password_column: z.unknown().default(null),
      auth_plugin: z.unknown().default('mysql_native_password'),
    }),
  varkw: true,
  doc: `Ensure that the named user is present with the specified properties. A passwordless user can be configured by omitting \`\`password\`\` and \`\`password_hash\`\`, and setting \`\`allow_passwordless\`\` to \`\`True\`\`.

host: host for which this user/password combo applies; password, or password_hash; allow_passwordless; unix_socket (with allow_passwordless: the unix_socket auth plugin).`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name: user, host } = a;
    const call = mysqlCaller(ctx, stateConn(extra));
    const ret: StateReturn = {
      name: user,
      changes: {},
      result: true,
      comment: `User ${user}@${host} is already present`,
    };
    const passwordless = !pyTruthy(a.password) && !pyTruthy(a.password_hash);
    const socket = pyTruthy(a.unix_socket);
    const fail = (comment: string): StateReturn => ({ ...ret, comment, result: false });
    if (passwordless) {
      if (!isTrue(a.allow_passwordless) && !socket)
        return fail('Either password or password_hash must be specified, unless allow_passwordless is True');
      if (
        await call('user_exists', [user, host], {
          passwordless: true,
          unix_socket: a.unix_socket,
          password_column: a.password_column,
        })
      ) {
        if (pyTruthy(a.allow_passwordless)) ret.comment += ' with passwordless login';
        return ret;
      }
    } else if (
      await call('user_exists', [user, host, a.password, a.password_hash], {
        unix_socket: a.unix_socket,
        password_column: a.password_column,
      })
    ) {
      if (a.auth_plugin === 'mysql_native_password') {
        ret.comment += ' with the desired password';
        if (pyTruthy(a.password_hash) && !pyTruthy(a.password)) ret.comment += ' hash';
      } else ret.comment += '. Unable to verify password.';
      return ret;
    }
    let err = getMysqlError(ctx);
    if (err !== null) return fail(err);
    if (await call('user_exists', [user, host], { unix_socket: a.unix_socket })) {
      if (ctx.test) {
        let comment = `Password for user ${user}@${host} is set to be `;
        let result: boolean | null = null;
        if (passwordless) {
          comment += 'cleared';
          if (!isTrue(a.allow_passwordless)) {
            comment += ', but allow_passwordless != True';
            result = false;
          }
        } else comment += 'changed';
        return { ...ret, comment, result };
      }
      if (
        await call('user_chpass', [
          user,
          host,
          a.password,
          a.password_hash,
          a.allow_passwordless,
          a.unix_socket,
        ])
      )
        return {
          ...ret,
          comment: `Password for user ${user}@${host} has been ${passwordless ? 'cleared' : 'changed'}`,
          changes: { [user]: 'Updated' },
        };
      let comment = `Failed to ${passwordless ? 'clear' : 'change'} password for user ${user}@${host}`;
      err = getMysqlError(ctx);
      if (err !== null) comment += ` (${err})`;
      if (passwordless && !isTrue(a.allow_passwordless))
        comment += '. Note: allow_passwordless must be True to permit passwordless login.';
      return fail(comment);
    }
    err = getMysqlError(ctx);
    if (err !== null) return fail(err);
    if (ctx.test) {
      let comment = `User ${user}@${host} is set to be added`;
      let result: boolean | null = null;
      if (pyTruthy(a.allow_passwordless)) {
        comment += ' with passwordless login';
        if (!isTrue(a.allow_passwordless)) {
          comment += ', but allow_passwordless != True';
          result = false;
        }
      }
      if (socket) comment += ' using unix_socket';
      return { ...ret, comment, result };
    }
    if (
      await call('user_create', [user, host, a.password, a.password_hash, a.allow_passwordless], {
        unix_socket: a.unix_socket,
        password_column: a.password_column,
        auth_plugin: a.auth_plugin,
      })
    ) {
      let comment = `The user ${user}@${host} has been added`;
      if (pyTruthy(a.allow_passwordless)) comment += ' with passwordless login';
      if (socket) comment += ' using unix_socket';
      return { ...ret, comment, changes: { [user]: 'Present' } };
    }
    err = getMysqlError(ctx);
    return fail(`Failed to create user ${user}@${host}${err !== null ? ` (${err})` : ''}`);
  },
});

const absent = defineState({
  args: (z) => z.object({ name: name(z), host: name(z).default('localhost') }),
  varkw: true,
  doc: 'Ensure that the named user is absent.\n\nname: the name of the user to remove; host: its host.',
  async run(ctx, a, extra): Promise<StateReturn> {
    const { name: user, host } = a;
    const call = mysqlCaller(ctx, stateConn(extra));
    const ret: StateReturn = { name: user, changes: {}, result: true, comment: '' };
    if (await call('user_exists', [user, host])) {
      if (ctx.test) return { ...ret, result: null, comment: `User ${user}@${host} is set to be removed` };
      if (await call('user_remove', [user, host]))
        return { ...ret, comment: `User ${user}@${host} has been removed`, changes: { [user]: 'Absent' } };
    }
    const err = getMysqlError(ctx);
    if (err !== null) return { ...ret, result: false, comment: err };
    return { ...ret, comment: `User ${user}@${host} is not present, so it cannot be removed` };
  },
});

export default defineStateModule({
  name: 'mysql_user',
  doc: 'Management of MySQL users.',
  functions: { present, absent },
});
