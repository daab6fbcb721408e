/**
 * Salt's `zabbix_valuemap` state module (`salt/states/zabbix_valuemap.py`): a Zabbix value
 * map described by `params` (its mappings; on Zabbix 5.4+ also its `hostid`) present as
 * described, or absent, through `zabbix.run_query`.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { objectAbsent, objectPresent, type ZabbixObjectKind } from './_zabbix-object-state.js';
import { CONN_DOC, zabbixVirtual } from './_zabbix-state.js';

const KIND: ZabbixObjectKind = { object: 'valuemap', label: 'Value map', selects: ['selectMappings'] };

const present = defineState({
  args: (z) => z.object({ name: z.unknown(), params: z.unknown() }),
  varkw: true,
  doc: `Creates Zabbix Value map object or if differs update it according defined parameters: params, the value map's definition (mappings: a list of {value, newvalue}); a {query_object, query_name} dict stands for that object's id.${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => objectPresent(ctx, KIND, a.name, a.params, extra),
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Makes the Zabbix Value map to be absent (either does not exist or delete it).${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => objectAbsent(ctx, KIND, a.name, extra),
});

export default defineStateModule({
  name: 'zabbix_valuemap',
  doc: 'Management of Zabbix Value map object over Zabbix API.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
