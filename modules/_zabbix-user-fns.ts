/**
 * Salt's `zabbix` user and user group functions (`user_*`, `usergroup_*`). Zabbix 5.4 renamed
 * the user's `alias` to `username`: the functions that name users ask the API's version first,
 * as Salt does, and the media functions of Zabbix before 4.0 answer Salt's refusal.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName } from './_py-type-name.js';
import {
  apiVersion,
  asList,
  field,
  iterate,
  type Kwargs,
  listAll,
  mapToListOfDicts,
  orFalse,
  paramsExtend,
  resultKey,
  versionCmp,
  withLogin,
} from './_zabbix-api.js';
import { cli, opt, req } from './_zabbix-args.js';

/** The user's login field for this API version: `username` after 5.2, else `alias`. */
async function usernameField(ctx: ExecContext, kw: Kwargs): Promise<string> {
  return versionCmp(await apiVersion(ctx, kw), '5.2') > 0 ? 'username' : 'alias';
}

export async function userGet(
  ctx: ExecContext,
  alias: unknown,
  userids: unknown,
  kw: Kwargs,
): Promise<unknown> {
  return withLogin(ctx, kw, async (s) => {
    const uf = await usernameField(ctx, kw);
    const filter: Record<string, unknown> = {};
    const params: Record<string, unknown> = {
      output: 'extend',
      selectUsrgrps: 'extend',
      selectMedias: 'extend',
      selectMediatypes: 'extend',
      filter,
    };
    if (!pyTruthy(userids) && !pyTruthy(alias))
      return { result: false, comment: 'Please submit alias or userids parameter to retrieve users.' };
    if (pyTruthy(alias)) filter[uf] = alias;
    if (pyTruthy(userids)) params.userids = userids;
    return orFalse(await s.result('user.get', paramsExtend(params, kw)));
  });
}

export async function usergroupGet(
  ctx: ExecContext,
  name: unknown,
  usrgrpids: unknown,
  userids: unknown,
  kw: Kwargs,
): Promise<unknown> {
  return withLogin(ctx, kw, async (s) => {
    await apiVersion(ctx, kw);
    const filter: Record<string, unknown> = {};
    const params: Record<string, unknown> = { selectRights: 'extend', output: 'extend', filter };
    if (!pyTruthy(name) && !pyTruthy(usrgrpids) && !pyTruthy(userids)) return false;
    if (pyTruthy(name)) filter.name = name;
    if (pyTruthy(usrgrpids)) params.usrgrpids = usrgrpids;
    if (pyTruthy(userids)) params.userids = userids;
    return orFalse(await s.result('usergroup.get', paramsExtend(params, kw)));
  });
}

/** Salt's answer for a media method Zabbix 4.0 removed. */
const removedMethod = (method: string) => ({
  result: false,
  comment: `Method '${method}' removed in Zabbix 4.0+ use 'user.update'`,
});

export const userFunctions = {
  user_create: defineFunction({
    args: (z) => z.object({ alias: req(z), passwd: req(z), usrgrps: req(z) }),
    varkw: true,
    doc: `Create a user (user.create): alias, the login name; passwd; usrgrps, user group ids (one or a list); firstname, the user's name. The new user's ids.${cli("user_create james password007 [7,12] firstname='James Bond'")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const uf = await usernameField(ctx, extra.kwargs);
        const params = {
          [uf]: a.alias,
          passwd: a.passwd,
          usrgrps: mapToListOfDicts(asList(a.usrgrps), 'usrgrpid'),
        };
        return field(await s.result('user.create', paramsExtend(params, extra.kwargs, true)), 'userids');
      }),
  }),
  user_delete: defineFunction({
    args: (z) => z.object({ users: req(z) }),
    varkw: true,
    doc: `Delete users (user.delete): users, one id or a list. The deleted ids.${cli('user_delete 15')}`,
    run: (ctx, a, extra) => resultKey(ctx, extra.kwargs, 'user.delete', asList(a.users), 'userids'),
  }),
  user_exists: defineFunction({
    args: (z) => z.object({ alias: req(z) }),
    varkw: true,
    doc: `Checks if a user with this login name exists. True or False.${cli('user_exists james')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const uf = await usernameField(ctx, extra.kwargs);
        return pyTruthy(await s.result('user.get', { output: 'extend', filter: { [uf]: a.alias } }));
      }),
  }),
  user_get: defineFunction({
    args: (z) => z.object({ alias: opt(z), userids: opt(z) }),
    varkw: true,
    doc: `Retrieve users by alias (login name) or userids, with their groups, media and media types (user.get). The users found, False when none.${cli('user_get james')}`,
    run: (ctx, a, extra) => userGet(ctx, a.alias, a.userids, extra.kwargs),
  }),
  user_update: defineFunction({
    args: (z) => z.object({ userid: req(z) }),
    varkw: true,
    doc: `Update a user (user.update): userid, and the properties to set (usrgrps: user group ids; medias or user_medias: the user's media; firstname: the user's name). The updated ids.${cli("user_update 16 visible_name='James Brown'")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const version = await apiVersion(ctx, extra.kwargs);
        const kw = { ...extra.kwargs };
        let medias: unknown = kw.medias ?? null;
        delete kw.medias;
        const userMedias = kw.user_medias;
        delete kw.user_medias;
        if (medias === null) medias = userMedias ?? null;
        else if (Array.isArray(medias)) medias = [...medias, ...iterate(userMedias ?? [])];
        else
          throw pythonError(
            'AttributeError',
            `'${pyShortTypeName(medias)}' object has no attribute 'extend'`,
          );
        const params: Record<string, unknown> = { userid: a.userid };
        if (versionCmp(version, '3.4') < 0 && medias !== null)
          return { result: false, comment: 'Setting medias available in Zabbix 3.4+' };
        if (versionCmp(version, '5.0') > 0 && medias !== null) params.medias = medias;
        else if (medias !== null) params.user_medias = medias;
        if ('usrgrps' in kw) {
          params.usrgrps = mapToListOfDicts(kw.usrgrps, 'usrgrpid');
          delete kw.usrgrps;
        }
        return field(await s.result('user.update', paramsExtend(params, kw, true)), 'userids');
      }),
  }),
  user_getmedia: defineFunction({
    args: (z) => z.object({ userids: opt(z) }),
    varkw: true,
    doc: `Retrieve the media of users: userids (with Zabbix 4.0 and later, from user.get). The media.${cli('user_getmedia 3')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        if (versionCmp(await apiVersion(ctx, extra.kwargs), '3.4') > 0) {
          const users = await userGet(ctx, null, a.userids, extra.kwargs);
          const medias: unknown[] = [];
          for (const user of iterate(users)) {
            if (!user || typeof user !== 'object' || Array.isArray(user))
              throw pythonError('AttributeError', `'${pyShortTypeName(user)}' object has no attribute 'get'`);
            medias.push(...iterate((user as Record<string, unknown>).medias ?? []));
          }
          return medias;
        }
        const params: Record<string, unknown> = {};
        if (pyTruthy(a.userids)) params.userids = a.userids;
        return s.result('usermedia.get', paramsExtend(params, extra.kwargs));
      }),
  }),
  user_addmedia: defineFunction({
    args: (z) =>
      z.object({
        userids: req(z),
        active: req(z),
        mediatypeid: req(z),
        period: req(z),
        sendto: req(z),
        severity: req(z),
      }),
    varkw: true,
    doc: `Add a medium to users (user.addmedia, Zabbix before 4.0; later ones answer that it was removed).${cli("user_addmedia 4 active=0 mediatypeid=1 period='1-7,00:00-24:00' sendto='support2@example.com' severity=63")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        if (versionCmp(await apiVersion(ctx, extra.kwargs), '3.4') > 0) return removedMethod('user.addmedia');
        const params = {
          users: asList(a.userids).map((userid) => ({ userid })),
          medias: [
            {
              active: a.active,
              mediatypeid: a.mediatypeid,
              period: a.period,
              sendto: a.sendto,
              severity: a.severity,
            },
          ],
        };
        return field(await s.result('user.addmedia', params), 'mediaids');
      }),
  }),
  user_deletemedia: defineFunction({
    args: (z) => z.object({ mediaids: req(z) }),
    varkw: true,
    doc: `Delete media (user.deletemedia, Zabbix before 4.0; later ones answer that it was removed).${cli('user_deletemedia 27')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        if (versionCmp(await apiVersion(ctx, extra.kwargs), '3.4') > 0)
          return removedMethod('user.deletemedia');
        return field(await s.result('user.deletemedia', asList(a.mediaids)), 'mediaids');
      }),
  }),
  user_list: defineFunction({
    varkw: true,
    doc: `Retrieve all users (user.get, output extend).${cli('user_list')}`,
    run: (ctx, _a, extra) => listAll(ctx, extra.kwargs, 'user.get'),
  }),
  usergroup_create: defineFunction({
    args: (z) => z.object({ name: req(z) }),
    varkw: true,
    doc: `Create a user group (usergroup.create): name, and its properties (gui_access, users_status, rights, ...). The new group's ids.${cli('usergroup_create GroupName')}`,
    run: (ctx, a, extra) =>
      resultKey(
        ctx,
        extra.kwargs,
        'usergroup.create',
        paramsExtend({ name: a.name }, extra.kwargs),
        'usrgrpids',
      ),
  }),
  usergroup_delete: defineFunction({
    args: (z) => z.object({ usergroupids: req(z) }),
    varkw: true,
    doc: `Delete user groups (usergroup.delete): usergroupids, one id or a list. The deleted ids.${cli('usergroup_delete 28')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'usergroup.delete', asList(a.usergroupids), 'usrgrpids'),
  }),
  usergroup_exists: defineFunction({
    args: (z) => z.object({ name: opt(z), node: opt(z), nodeids: opt(z) }),
    varkw: true,
    doc: `Checks if at least one user group that matches the given filter criteria exists: name; node and nodeids are for Zabbix before 2.4. True or False.${cli('usergroup_exists Guests')}`,
    run: async (ctx, a, extra) => {
      await apiVersion(ctx, extra.kwargs);
      return pyTruthy(await usergroupGet(ctx, pyTruthy(a.name) ? a.name : '', null, null, extra.kwargs));
    },
  }),
  usergroup_get: defineFunction({
    args: (z) => z.object({ name: opt(z), usrgrpids: opt(z), userids: opt(z) }),
    varkw: true,
    doc: `Retrieve user groups by name, usrgrpids or userids, with their rights (usergroup.get). The groups found, False when none.${cli('usergroup_get Guests')}`,
    run: (ctx, a, extra) => usergroupGet(ctx, a.name, a.usrgrpids, a.userids, extra.kwargs),
  }),
  usergroup_update: defineFunction({
    args: (z) => z.object({ usrgrpid: req(z) }),
    varkw: true,
    doc: `Update a user group (usergroup.update): usrgrpid, and the properties to set. The updated ids.${cli('usergroup_update 8 name=guestsRenamed')}`,
    run: (ctx, a, extra) =>
      resultKey(
        ctx,
        extra.kwargs,
        'usergroup.update',
        paramsExtend({ usrgrpid: a.usrgrpid }, extra.kwargs),
        'usrgrpids',
      ),
  }),
  usergroup_list: defineFunction({
    varkw: true,
    doc: `Retrieve all user groups (usergroup.get, output extend).${cli('usergroup_list')}`,
    run: (ctx, _a, extra) => listAll(ctx, extra.kwargs, 'usergroup.get'),
  }),
};
