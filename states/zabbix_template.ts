/**
 * Salt's `zabbix_template` state module (`salt/states/zabbix_template.py`): a Zabbix template
 * described by `params` (groups, macros, hosts, and its parts: applications, items, graphs,
 * screens, web scenarios, triggers, discovery rules with their prototypes) present as
 * described, or absent, through `zabbix.run_query`.
 *
 * Salt's quirks kept: under test=True the result is True with the changes that would be made;
 * a template that exists (or any real run) has all its parts read, applications first, so on
 * Zabbix 5.4+ (no `application` API object) the state stops there with Salt's SaltException,
 * after the template itself was created or updated.
 */
import type { ExtraArgs } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { saltException } from '../modules/_zabbix-api.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import {
  copyParams,
  isSaltException,
  objectAbsent,
  setItem,
  type ZabbixObjectKind,
} from './_zabbix-object-state.js';
import { CONN_DOC, zabbixVirtual } from './_zabbix-state.js';
import {
  DISCOVERY_PART_ORDER,
  TEMPLATE_PART_ORDER,
  TEMPLATE_PARTS,
  TEMPLATE_RELATIONS,
} from './_zabbix-template-parts.js';
import {
  ownMembers,
  type PartSync,
  pyIter,
  subscript,
  syncPart,
  type ZabbixCall,
} from './_zabbix-template-sync.js';

type Dict = Record<string, unknown>;

const KIND: ZabbixObjectKind = { object: 'template', label: 'Template', selects: [] };
const PART_NAMES: readonly string[] = TEMPLATE_PART_ORDER;

/** A discovery rule's prototypes, kept for after the rule itself is synced. */
interface RuleParts {
  readonly key: unknown;
  readonly parts: Dict;
}

/** Salt's split of `params`: the template's own fields, its parts, the discovery rules' prototypes. */
function splitParams(params: Dict): { template: Dict; parts: Dict; rules: RuleParts[] } {
  const template: Dict = {};
  const parts: Dict = {};
  const rules: RuleParts[] = [];
  for (const [attr, value] of Object.entries(params)) {
    if (attr === 'discoveries') {
      const defs: unknown[] = [];
      for (const rule of pyIter(value)) {
        const key = subscript(rule, TEMPLATE_PARTS.discoveries?.filter ?? 'key_');
        const protos: Dict = {};
        for (const p of DISCOVERY_PART_ORDER) {
          const r = rule as Dict;
          if (!Object.hasOwn(r, p)) continue;
          protos[p] = r[p];
          delete r[p];
        }
        rules.push({ key, parts: protos });
        defs.push(rule);
      }
      parts[attr] = defs;
    } else if (PART_NAMES.includes(attr)) parts[attr] = value;
    else template[attr] = value;
  }
  for (const p of TEMPLATE_PART_ORDER) if (!Object.hasOwn(parts, p)) parts[p] = [];
  for (const r of TEMPLATE_RELATIONS) template[r] = pyTruthy(params[r]) ? params[r] : [];
  return { template, parts, rules };
}

/** Salt's `_diff_and_merge_host_list`: the hosts to set when some defined ones are missing, else []. */
function mergeHosts(defined: unknown, existing: unknown): Dict[] {
  const ids = (list: unknown): string[] =>
    pyIter(list).map((h) => {
      try {
        return pyStr(subscript(h, 'hostid'));
      } catch (e) {
        if ((e as Error).name === 'KeyError')
          throw saltException('List of hosts in template not defined correctly.');
        throw e;
      }
    });
  const want = ids(defined);
  const have = ids(existing);
  const missing = want.filter((h) => !have.includes(h));
  return missing.length ? [...new Set([...missing, ...have])].map((hostid) => ({ hostid })) : [];
}

/** Takes `key` out of a dict, as Salt's `del` on the hosts list (absent: an empty list). */
function takeOut(obj: Dict, key: string): unknown {
  if (!Object.hasOwn(obj, key)) return [];
  const v = obj[key];
  delete obj[key];
  return v;
}

/** The template's own create/update; its id (undefined when a dry run would create it). */
async function syncTemplate(
  s: PartSync,
  name: unknown,
  defined: Dict,
  staticHosts: boolean,
): Promise<{ id: unknown; existed: boolean }> {
  const got = await s.call('run_query', [
    'template.get',
    {
      output: 'extend',
      selectGroups: 'groupid',
      selectHosts: 'hostid',
      selectTemplates: 'templateid',
      selectMacros: 'extend',
      filter: { host: name },
    },
  ]);
  const existing =
    Array.isArray(got) && got.length === 1 ? await s.call('substitute_params', [got[0]]) : false;
  if (!pyTruthy(existing)) {
    s.changes.push({ component: 'template', action: 'create' });
    if (s.test) return { id: undefined, existed: false };
    const created = await s.call('run_query', ['template.create', defined]);
    const id = pyTruthy(created) ? pyIter(subscript(created, 'templateids'))[0] : undefined;
    return { id, existed: false };
  }
  const idKey = String(s.mapper.template);
  const id = subscript(existing, idKey);
  let diff: Dict;
  if (!staticHosts) {
    const hosts = mergeHosts(takeOut(defined, 'hosts'), takeOut(existing as Dict, 'hosts'));
    diff = (await s.call('compare_params', [defined, existing, true])) as Dict;
    const fresh = subscript(diff, 'new') as Dict;
    if (hosts.length) fresh.hosts = hosts;
  } else diff = (await s.call('compare_params', [defined, existing, true])) as Dict;
  const fresh = subscript(diff, 'new');
  if (pyTruthy(fresh)) {
    setItem(fresh, idKey, id);
    setItem(subscript(diff, 'old'), idKey, id);
    s.changes.push({ component: 'template', action: 'update' });
    if (!s.test) await s.call('run_query', ['template.update', fresh]);
  }
  return { id, existed: true };
}

/** The template's parts, then each discovery rule's prototypes, synced under template `id`. */
async function syncParts(s: PartSync, id: unknown, parts: Dict, rules: readonly RuleParts[]): Promise<void> {
  for (const component of TEMPLATE_PART_ORDER) {
    const def = TEMPLATE_PARTS[component];
    if (!def) continue;
    const own = await ownMembers(s.call, component, id);
    const existing = pyTruthy(own) ? await s.call('substitute_params', [own]) : [];
    const defined = await s.call('substitute_params', [parts[component]], {
      extend_params: { [def.qselectpid]: id },
      filter_key: def.filter,
    });
    await syncPart(s, component, id, defined, existing);
  }
  const rule = TEMPLATE_PARTS.discoveries;
  if (!rule) return;
  for (const r of rules) {
    const query: Dict = { ...rule.output, [rule.qselectpid]: id, filter: { [rule.filter]: r.key } };
    const ruleId = await s.call('get_object_id_by_params', [rule.qtype, query]);
    for (const proto of DISCOVERY_PART_ORDER) {
      const own = await ownMembers(s.call, proto, ruleId);
      const existing = pyTruthy(own) ? await s.call('substitute_params', [own]) : [];
      const defined = Object.hasOwn(r.parts, proto)
        ? await s.call('substitute_params', [r.parts[proto]], { extend_params: { [rule.qselectpid]: id } })
        : [];
      await syncPart(s, proto, ruleId, defined, existing, id);
    }
  }
}

/** The comment and changes Salt reports for what was done (or would be). */
function report(s: PartSync, n: string): StateReturn {
  const what = `Zabbix Template "${n}"`;
  const ret: StateReturn = { name: n, result: true, comment: '', changes: {} };
  if (!s.changes.length)
    return { ...ret, comment: `${what} already exists and corresponds to a definition.` };
  const created = s.changes.some((c) => c.component === 'template' && c.action === 'create');
  const [old, fresh, comment] = created
    ? s.test
      ? ['does not exist.', 'would be created according definition.', 'would be created.']
      : ['did not exist.', 'created according definition.', 'created.']
    : s.test
      ? ['differs.', 'would be updated according definition.', 'would be updated.']
      : ['differed.', 'updated according definition.', 'updated.'];
  return {
    ...ret,
    comment: `${what} ${comment}`,
    changes: { [n]: { old: `${what} ${old}`, new: `${what} ${fresh}` } },
  };
}

async function present(
  ctx: StateContext,
  name: unknown,
  given: unknown,
  staticHosts: unknown,
  extra: ExtraArgs,
): Promise<StateReturn> {
  const kw = extra.kwargs;
  const call: ZabbixCall = (fun, args, more = {}) => ctx.call(`zabbix.${fun}`, args, { ...more, ...kw });
  const mapper = (await ctx.call('zabbix.get_zabbix_id_mapper', [], {})) as Dict;
  const s: PartSync = { call, mapper, test: ctx.test, changes: [] };
  const params = setItem(copyParams(given), 'host', name);
  const { template, parts, rules } = splitParams(params);
  const defined = (await call('substitute_params', [template])) as Dict;
  const { id, existed } = await syncTemplate(s, name, defined, pyTruthy(staticHosts));
  // a create that answered nothing leaves Salt's template_id unset; never query parts unfiltered
  if (!existed && !ctx.test && id === undefined)
    throw pythonError(
      'UnboundLocalError',
      "cannot access local variable 'template_id' where it is not associated with a value",
    );
  if (existed || !ctx.test) await syncParts(s, id, parts, rules);
  return report(s, pyStr(name));
}

const presentState = defineState({
  args: (z) =>
    z.object({ name: z.unknown(), params: z.unknown(), static_host_list: z.unknown().default(true) }),
  varkw: true,
  doc: `Creates Zabbix Template object or if differs update it according defined parameters: params, the template's definition (description, groups, macros, hosts, and its applications, items, graphs with gitems, screens, httpTests, triggers, discoveries with their itemprototypes, triggerprototypes, graphprototypes and hostprototypes); a {query_object, query_name} dict stands for that object's id. Members are identified by name (triggers by description, discoveries by key_). static_host_list: True, the hosts given are all the template's hosts; False, hosts linked elsewhere stay.${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => present(ctx, a.name, a.params, a.static_host_list, extra),
});

const absent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Makes the Zabbix Template to be absent (either does not exist or delete it).${CONN_DOC}`,
  run: (ctx, a, extra): Promise<StateReturn> => objectAbsent(ctx, KIND, a.name, extra),
});

const isPresent = defineState({
  args: (z) => z.object({ name: z.unknown() }),
  varkw: true,
  doc: `Check if Zabbix Template already exists.${CONN_DOC}`,
  run: async (ctx, a, extra): Promise<StateReturn> => {
    const n = pyStr(a.name);
    let id: unknown;
    try {
      id = await ctx.call(
        'zabbix.get_object_id_by_params',
        ['template', { filter: { name: a.name } }],
        extra.kwargs,
      );
    } catch (e) {
      if (!isSaltException(e)) throw e;
      id = false;
    }
    const exists = pyTruthy(id);
    return {
      name: n,
      result: exists,
      comment: `Zabbix Template "${n}" ${exists ? 'exists.' : 'does not exist.'}`,
      changes: {},
    };
  },
});

export default defineStateModule({
  name: 'zabbix_template',
  doc: 'Management of Zabbix Template object over Zabbix API.',
  virtual: zabbixVirtual,
  functions: { is_present: isPresent, present: presentState, absent },
});
