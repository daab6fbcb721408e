/**
 * Salt's `zabbix_user` state module (`salt/states/zabbix_user.py`): a Zabbix user present
 * (created with its groups; an existing one's groups, medias and, with password_reset, its
 * password brought in line), absent, and the Admin password set (admin_password_present),
 * through the `zabbix` execution module.
 *
 * As Salt's: present and absent make their changes under test=True too (their test branch
 * sets a result but does not return); a new user is created without its medias (the next
 * run adds them).
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyEquals } from '../modules/_traverse.js';
import { field, versionCmp } from '../modules/_zabbix-api.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pyInt } from './_py-int.js';
import { flag, get, listsDiffer, namedAttrs } from './_zabbix-host-interfaces.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

type Dict = Record<string, unknown>;

const MEDIA_ATTRS = new Set(['active', 'mediatype', 'period', 'severity', 'sendto']);
const MEDIA_TYPES: Readonly<Record<string, number>> = { mail: 1, jabber: 2, sms: 3 };

/** Salt's `_media_format`: the state's `medias` as Zabbix media objects. */
function formatMedias(data: unknown): Dict[] {
  if (!pyTruthy(data)) return [];
  const out: Dict[] = [];
  for (const [name, v] of namedAttrs(data, MEDIA_ATTRS)) {
    const severities = get(v, 'severity', 'HD');
    const has = (s: string) =>
      typeof severities === 'string'
        ? severities.includes(s)
        : Array.isArray(severities) && severities.includes(s);
    out.push({
      active: flag(v, 'active') === '1' ? '0' : '1',
      mediatypeid: pyStr(MEDIA_TYPES[pyStr(get(v, 'mediatype', 'mail')).toLowerCase()] ?? 1),
      period: get(v, 'period', '1-7,00:00-24:00'),
      sendto: get(v, 'sendto', name),
      severity: String(Number.parseInt([...'DHAWIN'].map((s) => (has(s) ? '1' : '0')).join(''), 2)),
    });
  }
  return out;
}

/** The group ids of a user's `usrgrps`, as ints. */
const groupIds = (groups: unknown): number[] =>
  (Array.isArray(groups) ? (groups as Dict[]) : []).map((g) => pyInt(field(g, 'usrgrpid')));

/** Python's `list(set(a) - set(b))` of small ints (a set iterates those in order). */
const missing = (a: readonly number[], b: readonly number[]): number[] =>
  [...new Set(a.filter((x) => !b.includes(x)))].sort((x, y) => x - y);

const sameSet = (a: readonly number[], b: readonly number[]): boolean =>
  a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));

/** Python's `value[0]`. */
function first(value: unknown): Dict {
  if (!Array.isArray(value)) throw pythonError('TypeError', "'bool' object is not subscriptable");
  if (value.length === 0) throw pythonError('IndexError', 'list index out of range');
  return value[0] as Dict;
}

const present = defineState({
  args: (z) =>
    z.object({
      alias: z.unknown(),
      passwd: z.unknown(),
      usrgrps: z.unknown(),
      medias: z.unknown().default(null),
      password_reset: z.unknown().default(false),
    }),
  varkw: true,
  doc: `Ensures that the user exists, eventually creates new user: passwd; usrgrps, user group ids; medias, a list of {name: [{mediatype: mail|jabber|sms}, {sendto: ...}, {active: ...}, {period: ...}, {severity: 'DHAWIN' letters}]}; password_reset, set the password even when the user exists. As Salt's, it makes its changes under test=True too.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const alias = pyStr(a.alias);
    const medias = a.medias ?? [];
    const usrgrps = (Array.isArray(a.usrgrps) ? a.usrgrps : [...pyStr(a.usrgrps)]).map((x) => pyInt(x));
    const conn = zabbixConn(extra);
    const call = zabbixCaller(ctx, conn);
    let ret: StateReturn = { name: alias, changes: {}, result: false, comment: '' };
    const updated = `User ${alias} updated.`;
    const exists = `User ${alias} already exists.`;
    const there = pyTruthy(await call('user_exists', [a.alias]));
    const version = await call('apiinfo_version');
    let userid: unknown;
    let updGroups = false;
    let updMedias = false;
    let userMedias: Dict[] = [];
    let wantedMedias: Dict[] = [];
    if (there) {
      const user = first(await call('user_get', [a.alias]));
      userid = field(user, 'userid');
      updGroups = !sameSet(groupIds(get(user, 'usrgrps', [])), usrgrps);
      userMedias = get(user, 'medias', []) as Dict[];
      wantedMedias = formatMedias(medias);
      if (pyTruthy(userMedias)) {
        const copies = userMedias.map((m) => {
          const c = { ...m };
          for (const k of ['userid', 'mediaid']) {
            if (!(k in c)) throw pythonError('KeyError', `'${k}'`);
            delete c[k];
          }
          return c;
        });
        updMedias = listsDiffer(wantedMedias, copies);
      } else if (pyTruthy(medias)) updMedias = true;
    }
    const reset = pyTruthy(a.password_reset);
    if (ctx.test) {
      if (!there) ret = { ...ret, result: null, comment: `User ${alias} created.` };
      else if (updGroups || reset || updMedias) ret = { ...ret, result: null, comment: updated };
      else ret = { ...ret, result: true, comment: exists };
    }
    if (!there) {
      const created = await call('user_create', [a.alias, a.passwd, usrgrps], extra.kwargs);
      if (!hasError(created))
        return {
          ...ret,
          result: true,
          comment: `User ${alias} created.`,
          changes: { [alias]: { old: `User ${alias} does not exist.`, new: `User ${alias} created.` } },
        };
      return { ...ret, result: false, comment: `Unable to create user: ${alias}. ${errorOf(created)}` };
    }
    if (!(updGroups || reset || updMedias)) return { ...ret, result: true, comment: exists };
    const errors: unknown[] = [];
    const changes: Dict = { ...ret.changes };
    if (versionCmp(version, '3.4') > 0) {
      const updates: Dict = {};
      if (updGroups) updates.usrgrps = usrgrps;
      if (reset) updates.passwd = a.passwd;
      if (updMedias) updates.medias = wantedMedias;
      const res = await call('user_update', [userid], updates);
      const fresh = first(await call('user_get', [a.alias]));
      if (hasError(res)) errors.push((res as Dict).error);
      else {
        if (updGroups) changes.usrgrps = pyStr(field(fresh, 'usrgrps'));
        if (updMedias) changes.medias = pyStr(wantedMedias);
        if (reset) changes.passwd = 'updated';
      }
      const left = missing(usrgrps, groupIds(field(fresh, 'usrgrps')));
      if (left.length > 0 && updGroups) errors.push(`Unable to update group(s): ${pyStr(left)}`);
    } else {
      let groupsNow: unknown;
      if (updGroups) {
        await call('user_update', [userid], { usrgrps });
        groupsNow = await call('usergroup_get', [], { userids: userid });
        const left = missing(
          usrgrps,
          (groupsNow as Dict[]).map((g) => pyInt(field(g, 'usrgrpid'))),
        );
        if (left.length > 0) errors.push(`Unable to update group(s): ${pyStr(left)}`);
        changes.usrgrps = pyStr(groupsNow);
      }
      if (reset) {
        const res = await call('user_update', [userid], { passwd: a.passwd });
        if (!hasError(res)) changes.passwd = 'updated';
        else if (groupsNow === undefined)
          throw pythonError(
            'UnboundLocalError',
            "cannot access local variable 'updated_groups' where it is not associated with a value",
          );
        else errors.push(field(groupsNow, 'error'));
      }
      if (updMedias) {
        for (const m of userMedias) {
          const res = await call('user_deletemedia', [field(m, 'mediaid')]);
          if (hasError(res)) errors.push((res as Dict).error);
        }
        for (const m of wantedMedias) {
          const res = await call('user_addmedia', [], {
            userids: userid,
            active: m.active,
            mediatypeid: m.mediatypeid,
            period: m.period,
            sendto: m.sendto,
            severity: m.severity,
          });
          if (hasError(res)) errors.push((res as Dict).error);
        }
        changes.medias = pyStr(wantedMedias);
      }
    }
    if (errors.length > 0) return { ...ret, changes: {}, result: false, comment: pyStr(errors) };
    return { ...ret, result: true, comment: updated, changes };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the user does not exist, eventually delete user. As Salt's, it deletes under test=True too.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    // Salt's typo, kept
    const deleted = `USer ${name} deleted.`;
    const got = await call('user_get', [a.name]);
    if (!pyTruthy(got)) return { ...ret, result: true, comment: `User ${name} does not exist.` };
    const firstUser = Array.isArray(got) ? (got[0] as Dict) : {};
    const res = 'userid' in firstUser ? await call('user_delete', [firstUser.userid]) : false;
    if (pyTruthy(res) && !hasError(res))
      return {
        ...ret,
        result: true,
        comment: deleted,
        changes: { [name]: { old: `User ${name} exists.`, new: `User ${name} deleted.` } },
      };
    return { ...ret, comment: `Unable to delete user: ${name}. ${errorOf(res)}` };
  },
});

const LOGIN_ERRORS = ['Login name or password is incorrect', 'Incorrect user name or password'];

const adminPasswordPresent = defineState({
  args: (z) => z.object({ name: z.unknown(), password: z.unknown().default(null) }),
  varkw: true,
  doc: `Initial change of Zabbix Admin password to the password taken from one of the sources (in order of importance): password, _connection_password, the zabbix.password option; the default 'zabbix' is tried last to log in.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const kw = extra.kwargs;
    const ret: StateReturn = { name: pyStr(a.name), changes: {}, result: false, comment: '' };
    const conn: Dict = { _connection_user: 'Admin' };
    if ('_connection_url' in kw) conn._connection_url = kw._connection_url;
    const passwords: unknown[] = [];
    const configured = await ctx.call('config.option', ['zabbix.password', null], {});
    if (pyTruthy(configured)) passwords.push(configured);
    if ('_connection_password' in kw) passwords.push(kw._connection_password);
    if (pyTruthy(a.password)) passwords.push(a.password);
    const unique: string[] = [];
    const seen: unknown[] = [];
    for (const p of passwords)
      if (!seen.some((s) => pyEquals(s, p))) {
        seen.push(p);
        unique.push(pyStr(p));
      }
    unique.reverse();
    const desired = unique[0];
    if (desired === undefined)
      return { ...ret, comment: 'Could not find any Zabbix Admin password setting! See documentation.' };
    unique.push('zabbix');
    let user: unknown = false;
    for (const pwd of unique) {
      conn._connection_password = pwd;
      try {
        user = await ctx.call('zabbix.user_get', ['Admin'], conn);
      } catch (e) {
        if (!(e instanceof Error) || !LOGIN_ERRORS.some((m) => e.message.includes(m))) throw e;
        user = false;
      }
      if (pyTruthy(user)) {
        if (pwd === desired) return { ...ret, result: true, comment: 'Admin password is correct.' };
        break;
      }
    }
    if (!pyTruthy(user)) return ret;
    if (ctx.test) return { ...ret, result: null, comment: `Password for user Admin updated to '${desired}'` };
    const res = await ctx.call('zabbix.user_update', [field(first(user), 'userid')], {
      ...conn,
      passwd: desired,
    });
    if (!pyTruthy(res)) return ret;
    return { ...ret, result: true, changes: { passwd: `changed to '${desired}'` } };
  },
});

export default defineStateModule({
  name: 'zabbix_user',
  doc: 'Management of Zabbix users.',
  virtual: zabbixVirtual,
  functions: { present, absent, admin_password_present: adminPasswordPresent },
});
