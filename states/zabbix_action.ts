/**
 * Salt's `zabbix_action` state module (`salt/states/zabbix_action.py`): a Zabbix action
 * described by `params` (eventsource, status, filter, operations, ...) present as described,
 * or absent, through `zabbix.run_query`.
 */
import { pythonError } from '../modules/_py-exception.js';
import { pyShortTypeName } from '../modules/_py-type-name.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { objectAbsent, objectPresent, setItem, type ZabbixObjectKind } from './_zabbix-object-state.js';
import { CONN_DOC, zabbixVirtual } from './_zabbix-state.js';

/** Salt's defaults: `operations` and the filter's `conditions` an empty list when not given. */
function defaults(params: Record<string, unknown>): void {
  params.operations = 'operations' in params ? params.operations : [];
  if (!('filter' in params)) return;
  const filter = params.filter;
  if (typeof filter === 'string') {
    if (!filter.includes('conditions'))
      throw pythonError('TypeError', "'str' object does not support item assignment");
    throw pythonError('TypeError', "string indices must be integers, not 'str'");
  }
  if (filter === null || typeof filter !== 'object')
    throw pythonError('TypeError', `argument of type '${pyShortTypeName(filter)}' is not iterable`);
  const has = filter && typeof filter === 'object' && 'conditions' in filter;
  setItem(filter, 'conditions', has ? (filter as Record<string, unknown>).conditions : []);
}

const KIND: ZabbixObjectKind = {
  object: 'action',
  label: 'Action',
  selects: ['selectOperations', 'selectFilter'],
  defaults,
};

const present = defineState({
  args: (z) => z.object({ name: z.unknown(), params: z.unknown() }),
  varkw: true,
  doc: `Creates Zabbix Action object or if differs update it according defined parameters: params, the action's definition (eventsource, status, esc_period, filter {evaltype, conditions}, operations, ...); a {query_object, query_name} dict stands for that object's id.${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => objectPresent(ctx, KIND, a.name, a.params, extra),
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Makes the Zabbix Action to be absent (either does not exist or delete it).${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => objectAbsent(ctx, KIND, a.name, extra),
});

export default defineStateModule({
  name: 'zabbix_action',
  doc: 'Management of Zabbix Action object over Zabbix API.',
  virtual: zabbixVirtual,
  functions: { present, absent },
});
