/**
 * Salt's `zabbix_hostgroup` state module (`salt/states/zabbix_hostgroup.py`): a Zabbix host
 * group present or absent, through the `zabbix` execution module.
 */
import { pyTruthy } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

const present = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the host group exists, eventually creates new host group.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = String(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const created = `Host group ${name} created.`;
    const exists = `Host group ${name} already exists.`;
    const changes = {
      [name]: { old: `Host group ${name} does not exist.`, new: `Host group ${name} created.` },
    };
    const there = pyTruthy(await call('hostgroup_exists', [a.name]));
    if (ctx.test) {
      if (there) return { ...ret, result: true, comment: exists };
      return { ...ret, result: null, comment: created, changes };
    }
    if (there) return { ...ret, result: true, comment: exists };
    const res = await call('hostgroup_create', [a.name]);
    if (!hasError(res)) return { ...ret, result: true, comment: created, changes };
    return { ...ret, result: false, comment: `Unable to create host group: ${name}. ${errorOf(res)}` };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the host group does not exist, eventually delete host group.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = String(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const deleted = `Host group ${name} deleted.`;
    const notThere = `Host group ${name} does not exist.`;
    const changes = { [name]: { old: `Host group ${name} exists.`, new: `Host group ${name} deleted.` } };
    const there = pyTruthy(await call('hostgroup_exists', [a.name]));
    if (ctx.test) {
      if (!there) return { ...ret, result: true, comment: notThere };
      return { ...ret, result: null, comment: deleted, changes };
    }
    const got = await call('hostgroup_get', [a.name]);
    if (!pyTruthy(got)) return { ...ret, result: true, comment: notThere };
    const first = Array.isArray(got) ? (got[0] as Record<string, unknown>) : {};
    const res = 'groupid' in first ? await call('hostgroup_delete', [first.groupid]) : false;
    if (pyTruthy(res) && !hasError(res)) return { ...ret, result: true, comment: deleted, changes };
    return { ...ret, result: false, comment: `Unable to delete host group: ${name}. ${errorOf(res)}` };
  },
});

export default defineStateModule({
  name: 'zabbix_hostgroup',
  doc: 'Management of Zabbix host groups.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
