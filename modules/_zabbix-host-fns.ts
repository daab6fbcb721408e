/**
 * Salt's `zabbix` host, host group and host interface functions (`host_*`, `hostgroup_*`,
 * `hostinterface_*`): each logs in, makes one API call and answers what Salt answers.
 */
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName } from './_py-type-name.js';
import {
  apiVersion,
  asList,
  field,
  type Kwargs,
  listAll,
  mapToListOfDicts,
  orFalse,
  paramsExtend,
  resultKey,
  withLogin,
} from './_zabbix-api.js';
import { cli, opt, req } from './_zabbix-args.js';

/** Salt's `INTERFACE_DEFAULT_PORTS`, indexed by the interface type as Salt indexes it. */
const INTERFACE_DEFAULT_PORTS = [10050, 161, 623, 12345];

export async function hostGet(
  ctx: ExecContext,
  host: unknown,
  name: unknown,
  hostids: unknown,
  kw: Kwargs,
): Promise<unknown> {
  return withLogin(ctx, kw, async (s) => {
    const filter: Record<string, unknown> = {};
    const params: Record<string, unknown> = { output: 'extend', filter };
    if (!pyTruthy(name) && !pyTruthy(hostids) && !pyTruthy(host)) return false;
    if (pyTruthy(name)) filter.name = name;
    if (pyTruthy(hostids)) params.hostids = hostids;
    if (pyTruthy(host) && !('host' in filter)) filter.host = host;
    return orFalse(await s.result('host.get', paramsExtend(params, kw)));
  });
}

export async function hostgroupGet(
  ctx: ExecContext,
  name: unknown,
  groupids: unknown,
  hostids: unknown,
  kw: Kwargs,
): Promise<unknown> {
  return withLogin(ctx, kw, async (s) => {
    const params: Record<string, unknown> = { output: 'extend' };
    if (!pyTruthy(groupids) && !pyTruthy(name) && !pyTruthy(hostids)) return false;
    if (pyTruthy(name)) params.filter = { name };
    if (pyTruthy(groupids)) params.groupids = groupids;
    if (pyTruthy(hostids)) params.hostids = hostids;
    return orFalse(await s.result('hostgroup.get', paramsExtend(params, kw)));
  });
}

/** Salt's `INTERFACE_DEFAULT_PORTS[if_type]`, with Python's errors for a bad index. */
function defaultPort(ifType: unknown): number {
  if (typeof ifType !== 'number' || !Number.isInteger(ifType))
    throw pythonError('TypeError', `list indices must be integers or slices, not ${pyShortTypeName(ifType)}`);
  const port = INTERFACE_DEFAULT_PORTS.at(ifType);
  if (port === undefined) throw pythonError('IndexError', 'list index out of range');
  return port;
}

export const hostFunctions = {
  host_create: defineFunction({
    args: (z) => z.object({ host: req(z), groups: req(z), interfaces: req(z) }),
    varkw: true,
    doc: `Create a host (host.create): host, the technical name; groups, host group ids (one or a list); interfaces, the host's interfaces (a dict or a list of them); visible_name, its visible name. The new host's ids, False on failure.${cli('host_create technicalname 4 interfaces=\'{type: 1, main: 1, useip: 1, ip: "192.168.3.1", dns: "", port: 10050}\' visible_name=\'Host Visible Name\'')}`,
    run: (ctx, a, extra) => {
      const params = {
        host: a.host,
        groups: mapToListOfDicts(asList(a.groups), 'groupid'),
        interfaces: asList(a.interfaces),
      };
      return resultKey(ctx, extra.kwargs, 'host.create', paramsExtend(params, extra.kwargs, true), 'hostids');
    },
  }),
  host_delete: defineFunction({
    args: (z) => z.object({ hostids: req(z) }),
    varkw: true,
    doc: `Delete hosts (host.delete): hostids, one id or a list. The deleted ids, False on failure.${cli('host_delete 10106')}`,
    run: (ctx, a, extra) => resultKey(ctx, extra.kwargs, 'host.delete', asList(a.hostids), 'hostids'),
  }),
  host_exists: defineFunction({
    args: (z) => z.object({ host: opt(z), hostid: opt(z), name: opt(z), node: opt(z), nodeids: opt(z) }),
    varkw: true,
    doc: `Checks if at least one host that matches the given filter criteria exists: host (technical name), hostid or name (visible name); node and nodeids are for Zabbix before 2.4. True or False.${cli("host_exists 'Zabbix server'")}`,
    run: async (ctx, a, extra) => {
      await apiVersion(ctx, extra.kwargs);
      const v = (x: unknown) => (pyTruthy(x) ? x : null);
      return pyTruthy(await hostGet(ctx, v(a.host), v(a.name), v(a.hostid), extra.kwargs));
    },
  }),
  host_get: defineFunction({
    args: (z) => z.object({ host: opt(z), name: opt(z), hostids: opt(z) }),
    varkw: true,
    doc: `Retrieve hosts by host (technical name), name (visible name) or hostids (host.get, output extend). The hosts found, False when none.${cli("host_get 'Zabbix server'")}`,
    run: (ctx, a, extra) => hostGet(ctx, a.host, a.name, a.hostids, extra.kwargs),
  }),
  host_update: defineFunction({
    args: (z) => z.object({ hostid: req(z) }),
    varkw: true,
    doc: `Update a host (host.update): hostid, and the properties to set (groups: host group ids; visible_name: the visible name). The updated ids, False on failure.${cli("host_update 10084 name='Zabbix server2'")}`,
    run: (ctx, a, extra) => {
      const kw = { ...extra.kwargs };
      const params: Record<string, unknown> = { hostid: a.hostid };
      if ('groups' in kw) {
        params.groups = mapToListOfDicts(kw.groups, 'groupid');
        delete kw.groups;
      }
      return withLogin(ctx, kw, async (s) =>
        field(await s.result('host.update', paramsExtend(params, kw, true)), 'hostids'),
      );
    },
  }),
  host_inventory_get: defineFunction({
    args: (z) => z.object({ hostids: req(z) }),
    varkw: true,
    doc: `Retrieve the inventory of a host (host.get with selectInventory): hostids. The inventory, False when there is none.${cli('host_inventory_get 101054')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const params: Record<string, unknown> = { selectInventory: 'extend' };
        if (pyTruthy(a.hostids)) params.hostids = a.hostids;
        const res = await s.result('host.get', paramsExtend(params, extra.kwargs));
        if (!pyTruthy(res)) return false;
        const inv = field((res as unknown[])[0], 'inventory');
        return pyTruthy(inv) ? inv : false;
      }),
  }),
  host_inventory_set: defineFunction({
    args: (z) => z.object({ hostid: req(z) }),
    varkw: true,
    doc: `Update the inventory of a host (host.update): hostid, and the inventory fields as keywords; inventory_mode (0 manual, 1 automatic, -1 disabled; default 0); clear_old: clear the existing fields first. The update's result.${cli('host_inventory_set 101054 asset_tag=jml3322 type=vm clear_old=True')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const kw = { ...extra.kwargs };
        const clearOld = pyTruthy(kw.clear_old);
        delete kw.clear_old;
        const mode = 'inventory_mode' in kw ? kw.inventory_mode : '0';
        delete kw.inventory_mode;
        const inventory = paramsExtend({}, kw);
        const params: Record<string, unknown> = {};
        if (pyTruthy(a.hostid)) params.hostid = a.hostid;
        if (clearOld) {
          params.inventory_mode = '-1';
          await s.query('host.update', params);
        }
        params.inventory_mode = mode;
        params.inventory = inventory;
        return s.result('host.update', params);
      }),
  }),
  host_list: defineFunction({
    varkw: true,
    doc: `Retrieve all hosts (host.get, output extend).${cli('host_list')}`,
    run: (ctx, _a, extra) => listAll(ctx, extra.kwargs, 'host.get'),
  }),
  hostgroup_create: defineFunction({
    args: (z) => z.object({ name: req(z) }),
    varkw: true,
    doc: `Create a host group (hostgroup.create): name. The new group's ids, False on failure.${cli('hostgroup_create MyNewGroup')}`,
    run: (ctx, a, extra) =>
      resultKey(
        ctx,
        extra.kwargs,
        'hostgroup.create',
        paramsExtend({ name: a.name }, extra.kwargs),
        'groupids',
      ),
  }),
  hostgroup_delete: defineFunction({
    args: (z) => z.object({ hostgroupids: req(z) }),
    varkw: true,
    doc: `Delete host groups (hostgroup.delete): hostgroupids, one id or a list. The deleted ids, False on failure.${cli('hostgroup_delete 23')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'hostgroup.delete', asList(a.hostgroupids), 'groupids'),
  }),
  hostgroup_exists: defineFunction({
    args: (z) => z.object({ name: opt(z), groupid: opt(z), node: opt(z), nodeids: opt(z) }),
    varkw: true,
    doc: `Checks if at least one host group that matches the given filter criteria exists: name or groupid; node and nodeids are for Zabbix before 2.4. True or False.${cli('hostgroup_exists MyNewGroup')}`,
    run: async (ctx, a, extra) => {
      await apiVersion(ctx, extra.kwargs);
      const v = (x: unknown) => (pyTruthy(x) ? x : null);
      return pyTruthy(await hostgroupGet(ctx, v(a.name), v(a.groupid), null, extra.kwargs));
    },
  }),
  hostgroup_get: defineFunction({
    args: (z) => z.object({ name: opt(z), groupids: opt(z), hostids: opt(z) }),
    varkw: true,
    doc: `Retrieve host groups by name, groupids or hostids (hostgroup.get, output extend). The groups found, False when none.${cli('hostgroup_get MyNewGroup')}`,
    run: (ctx, a, extra) => hostgroupGet(ctx, a.name, a.groupids, a.hostids, extra.kwargs),
  }),
  hostgroup_update: defineFunction({
    args: (z) => z.object({ groupid: req(z), name: opt(z) }),
    varkw: true,
    doc: `Update a host group (hostgroup.update): groupid, and name, its new name. The updated ids, False on failure.${cli("hostgroup_update 24 name='Renamed Name'")}`,
    run: (ctx, a, extra) => {
      const params: Record<string, unknown> = { groupid: a.groupid };
      if (pyTruthy(a.name)) params.name = a.name;
      return resultKey(ctx, extra.kwargs, 'hostgroup.update', paramsExtend(params, extra.kwargs), 'groupids');
    },
  }),
  hostgroup_list: defineFunction({
    varkw: true,
    doc: `Retrieve all host groups (hostgroup.get, output extend).${cli('hostgroup_list')}`,
    run: (ctx, _a, extra) => listAll(ctx, extra.kwargs, 'hostgroup.get'),
  }),
  hostinterface_get: defineFunction({
    args: (z) => z.object({ hostids: req(z) }),
    varkw: true,
    doc: `Retrieve the interfaces of hosts (hostinterface.get, output extend): hostids. The interfaces, False when none.${cli('hostinterface_get 101054')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const params: Record<string, unknown> = { output: 'extend' };
        if (pyTruthy(a.hostids)) params.hostids = a.hostids;
        return orFalse(await s.result('hostinterface.get', paramsExtend(params, extra.kwargs)));
      }),
  }),
  hostinterface_create: defineFunction({
    args: (z) =>
      z.object({
        hostid: req(z),
        ip_: req(z),
        dns: z.unknown().default(''),
        main: z.unknown().default(1),
        if_type: z.unknown().default(1),
        useip: z.unknown().default(1),
        port: opt(z),
      }),
    varkw: true,
    doc: `Create a host interface (hostinterface.create): hostid, ip_, dns, main (default 1), if_type (1 agent, 2 SNMP, 3 IPMI, 4 JMX), useip (default 1), port (without one, Salt's default for the type). The new interface's ids.${cli('hostinterface_create 10105 192.193.194.197')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const port = pyTruthy(a.port) ? a.port : defaultPort(a.if_type);
        const params = {
          hostid: a.hostid,
          ip: a.ip_,
          dns: a.dns,
          main: a.main,
          port,
          type: a.if_type,
          useip: a.useip,
        };
        return field(
          await s.result('hostinterface.create', paramsExtend(params, extra.kwargs)),
          'interfaceids',
        );
      }),
  }),
  hostinterface_delete: defineFunction({
    args: (z) => z.object({ interfaceids: req(z) }),
    varkw: true,
    doc: `Delete host interfaces (hostinterface.delete): interfaceids, one id or a list. The deleted ids.${cli('hostinterface_delete 50')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'hostinterface.delete', asList(a.interfaceids), 'interfaceids'),
  }),
  hostinterface_update: defineFunction({
    args: (z) => z.object({ interfaceid: req(z) }),
    varkw: true,
    doc: `Update a host interface (hostinterface.update): interfaceid, and the properties to set. The updated ids.${cli('hostinterface_update 6 ip_=0.0.0.2')}`,
    run: (ctx, a, extra) =>
      resultKey(
        ctx,
        extra.kwargs,
        'hostinterface.update',
        paramsExtend({ interfaceid: a.interfaceid }, extra.kwargs),
        'interfaceids',
      ),
  }),
};
