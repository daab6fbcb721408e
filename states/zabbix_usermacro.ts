/**
 * Salt's `zabbix_usermacro` state module (`salt/states/zabbix_usermacro.py`): a Zabbix user
 * macro, global or on a host (`hostid`), present with its value or absent, through the
 * `zabbix` execution module.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { CONN_DOC, errorOf, hasError, zabbixCaller, zabbixConn, zabbixVirtual } from './_zabbix-state.js';

/** Salt's comment texts, on a host or global. */
function texts(name: string, hostid: unknown) {
  if (!pyTruthy(hostid))
    return {
      created: `Usermacro ${name} created.`,
      updated: `Usermacro ${name} updated.`,
      notCreated: `Unable to create usermacro: ${name}. `,
      exists: `Usermacro ${name} already exists.`,
      createdChanges: {
        [name]: { old: `Usermacro ${name} does not exist.`, new: `Usermacro ${name} created.` },
      },
      deleted: `Usermacro ${name} deleted.`,
      notDeleted: `Unable to delete usermacro: ${name}.`,
      notExists: `Usermacro ${name} does not exist.`,
      deletedChanges: { [name]: { old: `Usermacro ${name} exists.`, new: `Usermacro ${name} deleted.` } },
    };
  const h = pyStr(hostid);
  return {
    created: `Usermacro ${name} created on hostid ${h}.`,
    updated: `Usermacro ${name} updated on hostid ${h}.`,
    notCreated: `Unable to create usermacro: ${name} on hostid ${h}. `,
    exists: `Usermacro ${name} already exists on hostid ${h}.`,
    createdChanges: {
      [name]: {
        old: `Usermacro ${name} does not exist on hostid ${h}.`,
        new: `Usermacro ${name} created on hostid ${h}.`,
      },
    },
    deleted: `Usermacro ${name} deleted from hostid ${h}.`,
    notDeleted: `Unable to delete usermacro: ${name} from hostid ${h}.`,
    notExists: `Usermacro ${name} does not exist on hostid ${h}.`,
    deletedChanges: {
      [name]: {
        old: `Usermacro ${name} exists on hostid ${h}.`,
        new: `Usermacro ${name} deleted from ${h}.`,
      },
    },
  };
}

type Call = ReturnType<typeof zabbixCaller>;

/** The macro as `usermacro_get` finds it (on the host, or among the global ones). */
const find = (call: Call, name: unknown, hostid: unknown) =>
  pyTruthy(hostid)
    ? call('usermacro_get', [name], { hostids: hostid })
    : call('usermacro_get', [name], { globalmacro: true });

const present = defineState({
  args: (z) => z.object({ name: z.unknown(), value: z.unknown(), hostid: z.unknown().default(null) }),
  varkw: true,
  doc: `Creates a new usermacro (global, or on the host hostid), or updates its value.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const t = texts(name, a.hostid);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const onHost = pyTruthy(a.hostid);
    const found = await find(call, a.name, a.hostid);
    let update = false;
    let macroid = 0;
    if (pyTruthy(found)) {
      const obj = (found as Record<string, unknown>[])[0] as Record<string, unknown>;
      macroid = Number.parseInt(String(onHost ? obj.hostmacroid : obj.globalmacroid), 10);
      update = pyStr(a.value) !== obj.value;
    }
    if (ctx.test) {
      if (!pyTruthy(found)) return { ...ret, result: null, comment: t.created };
      return update
        ? { ...ret, result: null, comment: t.updated }
        : { ...ret, result: true, comment: t.exists };
    }
    if (pyTruthy(found)) {
      if (!update) return { ...ret, result: true, comment: t.exists };
      const res = await call(onHost ? 'usermacro_update' : 'usermacro_updateglobal', [macroid], {
        value: a.value,
      });
      if (typeof res !== 'number' && hasError(res))
        return { ...ret, changes: {}, comment: pyStr([errorOf(res)]) };
      return {
        ...ret,
        result: true,
        comment: t.updated,
        changes: typeof res === 'number' ? {} : { value: a.value },
      };
    }
    const created = onHost
      ? await call('usermacro_create', [a.name, a.value, a.hostid])
      : await call('usermacro_createglobal', [a.name, a.value]);
    if (!hasError(created)) return { ...ret, result: true, comment: t.created, changes: t.createdChanges };
    return { ...ret, comment: t.notCreated + errorOf(created) };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown(), hostid: z.unknown().default(null) }),
  varkw: true,
  doc: `Ensures that the usermacro (global, or on the host hostid) does not exist.${CONN_DOC}`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const name = pyStr(a.name);
    const t = texts(name, a.hostid);
    const call = zabbixCaller(ctx, zabbixConn(extra));
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    const found = await find(call, a.name, a.hostid);
    if (ctx.test)
      return pyTruthy(found)
        ? { ...ret, result: null, comment: t.deleted }
        : { ...ret, result: true, comment: t.notExists };
    if (!pyTruthy(found)) return { ...ret, result: true, comment: t.notExists };
    const obj = (found as Record<string, unknown>[])[0] as Record<string, unknown>;
    const key = pyTruthy(a.hostid) ? 'hostmacroid' : 'globalmacroid';
    const res =
      key in obj
        ? await call(pyTruthy(a.hostid) ? 'usermacro_delete' : 'usermacro_deleteglobal', [obj[key]])
        : false;
    if (pyTruthy(res) && !hasError(res))
      return { ...ret, result: true, comment: t.deleted, changes: t.deletedChanges };
    return { ...ret, comment: t.notDeleted + errorOf(res) };
  },
});

export default defineStateModule({
  name: 'zabbix_usermacro',
  doc: 'Management of Zabbix usermacros.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
