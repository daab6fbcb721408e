/**
 * Salt's `zabbix_host` state module (`salt/states/zabbix_host.py`): a Zabbix host present
 * (created in its groups with its interfaces, proxy, inventory and properties, or an existing
 * one brought in line), absent, or linked to exactly the given templates, through the
 * `zabbix` execution module.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyEquals } from '../modules/_traverse.js';
import { field } from '../modules/_zabbix-api.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pyInt } from './_py-int.js';
import {
  comparableInterfaces,
  formatInterfaces,
  type HostInterface,
  listsDiffer,
} from './_zabbix-host-interfaces.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

type Dict = Record<string, unknown>;
type Call = ReturnType<typeof zabbixCaller>;

/** The host properties Salt compares and sends. */
const HOST_PROPERTIES = [
  'description',
  'inventory_mode',
  'ipmi_authtype',
  'ipmi_password',
  'ipmi_privilege',
  'ipmi_username',
  'status',
  'tls_connect',
  'tls_accept',
  'tls_issuer',
  'tls_subject',
  'tls_psk_identity',
  'tls_psk',
];

/** Python's `value[0]`, with the TypeError Salt catches when `value` is False. */
function first(value: unknown): Dict {
  if (!Array.isArray(value)) throw pythonError('TypeError', "'bool' object is not subscriptable");
  if (value.length === 0) throw pythonError('IndexError', 'list index out of range');
  return value[0] as Dict;
}

/** Python's `value[0][key]`. */
const firstField = (value: unknown, key: string): unknown => field(first(value), key);

/** Python's `try: ... except TypeError: return None`. */
async function orTypeError<T>(f: () => Promise<T>): Promise<T | undefined> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof Error && e.name === 'TypeError') return undefined;
    throw e;
  }
}

/** The group names resolved to ids (ints); undefined for the first name not found. */
async function groupIds(call: Call, groups: unknown): Promise<{ ids?: unknown[]; bad?: unknown }> {
  const ids: unknown[] = [];
  for (const g of Array.isArray(groups) ? groups : [groups]) {
    if (typeof g !== 'string') {
      ids.push(g);
      continue;
    }
    const got = await call('hostgroup_get', [], { name: g });
    const id = await orTypeError(async () => pyInt(firstField(got, 'groupid')));
    if (id === undefined) return { bad: g };
    ids.push(id);
  }
  return { ids };
}

/** The proxy's id, found by name (a string) or id; undefined when there is none. */
function proxyId(call: Call, proxy: unknown): Promise<unknown> {
  const params =
    typeof proxy === 'string'
      ? { output: 'proxyid', selectInterface: 'extend', filter: { host: proxy } }
      : { proxyids: pyStr(proxy), output: 'proxyid' };
  return orTypeError(async () => firstField(await call('run_query', ['proxy.get', params]), 'proxyid'));
}

/** The state's inventory: a dict as it is, or a list of dicts with values made strings. */
function inventoryOf(inventory: unknown): Dict {
  if (inventory === null || inventory === undefined) return {};
  if (typeof inventory === 'object' && !Array.isArray(inventory)) return { ...(inventory as Dict) };
  const out: Dict = {};
  for (const item of Array.isArray(inventory) ? inventory : [inventory])
    for (const [k, v] of Object.entries(item as Dict)) out[k] = pyStr(v);
  return out;
}

/** salt.utils.dictdiffer's `changed()`: a key both have, with different values. */
function inventoryChanged(current: unknown, wanted: Dict): boolean {
  if (!current || typeof current !== 'object' || Array.isArray(current))
    throw pythonError(
      'AttributeError',
      `'${current === false ? 'bool' : 'list'}' object has no attribute 'keys'`,
    );
  const cur = current as Dict;
  return Object.keys(cur).some((k) => k in wanted && !pyEquals(wanted[k], cur[k]));
}

const present = defineState({
  args: (z) => z.object({ host: z.unknown(), groups: z.unknown(), interfaces: z.unknown() }),
  varkw: true,
  doc: `Ensures that the host exists, eventually creates new host: groups, its host groups (names or ids); interfaces, a list of {name: [{type: agent|snmp|ipmi|jmx}, {ip: ...}, {dns: ...}, {main: ...}, {useip: ...}, {port: ...}, {details: [...]}]}; proxy_host, a proxy's name or id; inventory, a dict or a list of dicts; inventory_clean (default True); visible_name; and the host properties description, inventory_mode, ipmi_*, status, tls_*.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const host = pyStr(a.host);
    const conn = zabbixConn(extra);
    const call = zabbixCaller(ctx, conn);
    const kw: Dict = { ...extra.kwargs };
    for (const k of Object.keys(conn)) delete kw[k];
    const ret: StateReturn = { name: host, changes: {}, result: false, comment: '' };
    const updated = `Host ${host} updated.`;
    const exists = `Host ${host} already exists.`;
    const createdChanges = { [host]: { old: `Host ${host} does not exist.`, new: `Host ${host} created.` } };
    const interfaces = formatInterfaces(a.interfaces);
    const g = await groupIds(call, a.groups);
    if (g.ids === undefined) return { ...ret, comment: `Invalid group ${pyStr(g.bad)}` };
    const groups = g.ids;
    let proxyHostid: unknown = '0';
    if ('proxy_host' in kw) {
      const proxy = kw.proxy_host;
      delete kw.proxy_host;
      proxyHostid = await proxyId(call, proxy);
      if (proxyHostid === undefined) return { ...ret, comment: `Invalid proxy_host ${pyStr(proxy)}` };
    }
    const inventoryClean = 'inventory_clean' in kw ? kw.inventory_clean : true;
    const inventory = 'inventory' in kw ? kw.inventory : null;
    const newInventory = inventoryOf(inventory);
    const visibleName = 'visible_name' in kw ? kw.visible_name : null;
    const props: Dict = {};
    for (const p of HOST_PROPERTIES) if (p in kw) props[p] = kw[p];

    const there = pyTruthy(await call('host_exists', [a.host]));
    const todo = { host: false, inventory: false, proxy: false, groups: false, interfaces: false };
    const updatedProps: Dict = {};
    let hostid: unknown;
    let inventoryMode: unknown;
    let current: Dict[] = [];
    if (there) {
      const obj = first(await call('host_get', [], { host: a.host }));
      hostid = field(obj, 'hostid');
      for (const [p, v] of Object.entries(props))
        if (!(p in obj) || !pyEquals(obj[p], v)) updatedProps[p] = v;
      todo.host = Object.keys(updatedProps).length > 0;
      const curMode = field(obj, 'inventory_mode');
      inventoryMode = 'inventory_mode' in props ? props.inventory_mode : curMode === '-1' ? '0' : curMode;
      todo.proxy = !pyEquals(proxyHostid, field(obj, 'proxy_hostid'));
      const curGroups = ((await call('hostgroup_get', [], { hostids: hostid })) as Dict[]).map((x) =>
        pyInt(field(x, 'groupid')),
      );
      todo.groups = !sameSet(groups, curGroups);
      const got = await call('hostinterface_get', [], { hostids: hostid });
      if (pyTruthy(got)) {
        current = [...(got as Dict[])].sort((x, y) => pyCmp(field(x, 'main'), field(y, 'main')));
        todo.interfaces = listsDiffer(interfaces, comparableInterfaces(current));
      } else if (pyTruthy(a.interfaces)) todo.interfaces = true;
      if (inventory !== null && inventoryMode !== '-1')
        todo.inventory = inventoryChanged(
          await call('host_inventory_get', [], { hostids: hostid }),
          newInventory,
        );
    }
    const anyUpdate = Object.values(todo).some((x) => x);
    if (ctx.test) {
      if (!there) return { ...ret, result: null, comment: `Host ${host} created.`, changes: createdChanges };
      return anyUpdate
        ? { ...ret, result: null, comment: updated }
        : { ...ret, result: true, comment: exists };
    }
    if (!there) {
      const created = await call('host_create', [a.host, groups, interfaces], {
        proxy_hostid: proxyHostid,
        inventory: newInventory,
        visible_name: visibleName,
        ...props,
      });
      if (!hasError(created))
        return { ...ret, result: true, comment: `Host ${host} created.`, changes: createdChanges };
      return { ...ret, comment: `Unable to create host: ${host}. ${errorOf(created)}` };
    }
    if (!anyUpdate) return { ...ret, result: true, comment: exists };
    const errors: unknown[] = [];
    const changes: Dict = {};
    const check = (res: unknown) => {
      if (hasError(res)) errors.push((res as Dict).error);
    };
    if (todo.host) {
      const res = await call('host_update', [hostid], updatedProps);
      changes.host = pyStr(updatedProps);
      check(res);
    }
    if (todo.inventory) {
      const res = await call('host_inventory_set', [hostid], {
        ...newInventory,
        clear_old: inventoryClean,
        inventory_mode: inventoryMode,
      });
      changes.inventory = pyStr(newInventory);
      check(res);
    }
    if (todo.proxy) {
      const res = await call('host_update', [hostid], { proxy_hostid: proxyHostid });
      changes.proxy_hostid = pyStr(proxyHostid);
      check(res);
    }
    if (todo.groups) {
      const res = await call('host_update', [hostid], { groups });
      changes.groups = pyStr(groups);
      check(res);
    }
    if (todo.interfaces) {
      await syncInterfaces(call, hostid, interfaces, current, check);
      changes.interfaces = pyStr(interfaces);
    }
    if (errors.length > 0) return { ...ret, result: false, comment: pyStr(errors) };
    return { ...ret, result: true, comment: updated, changes };
  },
});

/** Python's `set(a) != set(b)` for ids (ints or strings). */
const sameSet = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  a.every((x) => b.some((y) => pyEquals(x, y))) && b.every((y) => a.some((x) => pyEquals(x, y)));

/** Python's `<` order of two strings (or numbers). */
const pyCmp = (x: unknown, y: unknown): number => {
  if (typeof x !== typeof y)
    throw pythonError('TypeError', "'<' not supported between instances of 'str' and 'int'");
  return (x as string) < (y as string) ? -1 : (x as string) > (y as string) ? 1 : 0;
};

/**
 * Salt's interface update: each wanted interface updates one current interface of its type
 * (created when none is left), then the current ones left over are deleted. Salt files every
 * current interface first in its type's list (its `main` is a non-empty string).
 */
async function syncInterfaces(
  call: Call,
  hostid: unknown,
  wanted: readonly HostInterface[],
  current: readonly Dict[],
  check: (res: unknown) => void,
): Promise<void> {
  const byType: Record<string, unknown[]> = { '1': [], '2': [], '3': [], '4': [] };
  for (const c of current) {
    const list = byType[String(field(c, 'type'))];
    if (list === undefined) throw pythonError('KeyError', `'${pyStr(c.type)}'`);
    if (pyTruthy(field(c, 'main'))) list.unshift(field(c, 'interfaceid'));
    else list.push(c.interfaceid);
  }
  const others: HostInterface[] = [];
  const one = async (i: HostInterface) => {
    const ids = byType[i.type] as unknown[];
    const common = { dns: i.dns, main: i.main, useip: i.useip, port: i.port, details: i.details };
    if (ids.length === 0) return call('hostinterface_create', [hostid, i.ip], { ...common, if_type: i.type });
    return call('hostinterface_update', [], { interfaceid: ids.shift(), ip: i.ip, type: i.type, ...common });
  };
  for (const i of wanted) {
    if (pyTruthy(i.main)) check(await one(i));
    else others.push(i);
  }
  for (const i of others) check(await one(i));
  for (const ids of Object.values(byType))
    for (const id of ids) await call('hostinterface_delete', [], { interfaceids: id });
}

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Ensures that the host does not exists, eventually deletes host.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const notThere = `Host ${name} does not exist.`;
    const deleted = `Host ${name} deleted.`;
    const there = pyTruthy(await call('host_exists', [a.name]));
    if (ctx.test)
      return there ? { ...ret, result: null, comment: deleted } : { ...ret, result: true, comment: notThere };
    const got = await call('host_get', [a.name]);
    if (!pyTruthy(got)) return { ...ret, result: true, comment: notThere };
    const first = Array.isArray(got) ? (got[0] as Dict) : {};
    const res = 'hostid' in first ? await call('host_delete', [first.hostid]) : false;
    if (pyTruthy(res) && !hasError(res))
      return {
        ...ret,
        result: true,
        comment: deleted,
        changes: { [name]: { old: `Host ${name} exists.`, new: deleted } },
      };
    return { ...ret, comment: `Unable to delete host: ${name}. ${errorOf(res)}` };
  },
});

const assignTemplates = defineState({
  args: (z) => z.object({ host: z.unknown(), templates: z.unknown() }),
  varkw: true,
  doc: `Ensures that templates are assigned to the host: templates, the templates' technical names (exactly these stay linked).${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const host = pyStr(a.host);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name: host, changes: {}, result: false, comment: '' };
    const notUpdated = `Unable to update templates on host: ${host}.`;
    if (!pyTruthy(await call('host_exists', [a.host]))) return { ...ret, comment: notUpdated };
    const hostid = firstField(await call('host_get', [], { host: a.host }), 'hostid');
    const templates = pyTruthy(a.templates)
      ? Array.isArray(a.templates)
        ? a.templates
        : [...String(a.templates)]
      : [];
    const linked = await call('host_get', [], {
      hostids: hostid,
      output: '[{"hostid"}]',
      selectParentTemplates: '["templateid"]',
    });
    const current = (firstField(linked, 'parentTemplates') as Dict[]).map((t) => field(t, 'templateid'));
    const wanted: unknown[] = [];
    for (const t of templates) {
      const id = await orTypeError(async () =>
        firstField(await call('template_get', [], { host: t }), 'templateid'),
      );
      if (id === undefined) return { ...ret, comment: `Unable to find template: ${pyStr(t)}.` };
      if (!wanted.some((w) => pyEquals(w, id))) wanted.push(id);
    }
    const differ = !sameSet(current, wanted);
    if (ctx.test)
      return differ
        ? { ...ret, result: null, comment: 'Templates updated.' }
        : { ...ret, result: true, comment: 'Templates already synced.' };
    if (!differ) return { ...ret, result: true, comment: 'Templates already synced.' };
    const res = await call('host_update', [hostid], { templates: wanted });
    if (res === false) return { ...ret, comment: notUpdated };
    return {
      ...ret,
      result: true,
      comment: 'Templates updated.',
      changes: {
        [host]: {
          old: `Host templates: ${current.map((x) => pyStr(x)).join(', ')}`,
          new: `Host templates: ${wanted.map((x) => pyStr(x)).join(', ')}`,
        },
      },
    };
  },
});

export default defineStateModule({
  name: 'zabbix_host',
  doc: 'Management of Zabbix hosts.',
  virtual: zabbixVirtual,
  functions: { present, absent, assign_templates: assignTemplates },
});
