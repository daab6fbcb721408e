/**
 * Salt's `zabbix_usergroup` state module (`salt/states/zabbix_usergroup.py`): a Zabbix user
 * group present (its debug_mode, gui_access, users_status and rights brought in line) or
 * absent, through the `zabbix` execution module.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pyInt } from './_py-int.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

type Rights = Record<string, unknown>[];

/** Each right's values made strings, as Salt makes them (in place) before comparing. */
const stringRights = (wanted: unknown): Rights =>
  (wanted as Rights).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, pyStr(v)])));

/** Salt's rights test: the two lists compared sorted (Python can sort one right, not two). */
function rightsDiffer(w: Rights, current: unknown): boolean {
  const c = current as Rights;
  if (w.length > 1 || c.length > 1)
    throw pythonError('TypeError', "'<' not supported between instances of 'dict' and 'dict'");
  return (
    JSON.stringify(w.map((r) => Object.entries(r).sort())) !==
    JSON.stringify(c.map((r) => Object.entries(r).sort()))
  );
}

const FIELDS = ['debug_mode', 'gui_access', 'rights', 'users_status'] as const;

const present = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Creates new user group (or updates it): debug_mode (0/1), gui_access (0 system default, 1 internal, 2 LDAP, 3 disabled), users_status (0 enabled, 1 disabled), rights (a list of {permission, id}).${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = String(a.name);
    const kw = { ...extra.kwargs };
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const there = pyTruthy(await call('usergroup_exists', [a.name]));
    const update = new Set<(typeof FIELDS)[number]>();
    let usrgrpid = 0;
    if (there) {
      const got = (await call('usergroup_get', [a.name])) as Record<string, unknown>[];
      const group = got[0] as Record<string, unknown>;
      usrgrpid = pyInt(group.usrgrpid);
      for (const f of ['debug_mode', 'gui_access'] as const)
        if (f in kw && pyInt(kw[f]) !== pyInt(group[f])) update.add(f);
      if ('rights' in kw) {
        if (!pyTruthy(group.rights)) update.add('rights');
        else {
          kw.rights = stringRights(kw.rights);
          if (rightsDiffer(kw.rights as Rights, group.rights)) update.add('rights');
        }
      }
      if ('users_status' in kw && pyInt(kw.users_status) !== pyInt(group.users_status))
        update.add('users_status');
    }
    if (ctx.test) {
      if (!there) return { ...ret, result: null, comment: `User group ${name} created.` };
      if (update.size > 0) return { ...ret, result: null, comment: `User group ${name} updated.` };
      return { ...ret, result: true, comment: `User group ${name} already exists.` };
    }
    if (!there) {
      const created = await ctx.call('zabbix.usergroup_create', [a.name], kw);
      if (!hasError(created))
        return {
          ...ret,
          result: true,
          comment: `User group ${name} created.`,
          changes: {
            [name]: { old: `User group ${name} does not exist.`, new: `User group ${name} created.` },
          },
        };
      return { ...ret, comment: `Unable to create user group: ${name}. ${errorOf(created)}` };
    }
    if (update.size === 0) return { ...ret, result: true, comment: `User group ${name} already exists.` };
    const errors: string[] = [];
    const changes: Record<string, unknown> = {};
    for (const f of FIELDS) {
      if (!update.has(f)) continue;
      const res = await call('usergroup_update', [usrgrpid], { [f]: kw[f] });
      if (hasError(res)) errors.push(errorOf(res));
      else changes[f] = kw[f];
    }
    if (errors.length > 0) return { ...ret, changes: {}, result: false, comment: pyStr(errors) };
    return { ...ret, result: true, comment: `User group ${name} updated.`, changes };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the user group does not exist, eventually delete user group.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = String(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const notThere = `User group ${name} does not exist.`;
    const deleted = `User group ${name} deleted.`;
    const there = pyTruthy(await call('usergroup_exists', [a.name]));
    if (ctx.test)
      return there ? { ...ret, result: null, comment: deleted } : { ...ret, result: true, comment: notThere };
    const got = await call('usergroup_get', [a.name]);
    if (!pyTruthy(got)) return { ...ret, result: true, comment: notThere };
    const first = Array.isArray(got) ? (got[0] as Record<string, unknown>) : {};
    const res = 'usrgrpid' in first ? await call('usergroup_delete', [first.usrgrpid]) : false;
    if (pyTruthy(res) && !hasError(res))
      return {
        ...ret,
        result: true,
        comment: deleted,
        changes: { [name]: { old: `User group ${name} exists.`, new: `User group ${name} deleted.` } },
      };
    return { ...ret, comment: `Unable to delete user group: ${name}. ${errorOf(res)}` };
  },
});

export default defineStateModule({
  name: 'zabbix_usergroup',
  doc: 'Management of Zabbix user groups.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
