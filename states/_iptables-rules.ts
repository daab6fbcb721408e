/**
 * The rule states of Salt's `iptables` state module (`salt/states/iptables.py`):
 * `iptables.append`, `iptables.insert` and `iptables.delete` build the rule from the state's
 * keywords (`iptables.build_rule`), check it (`iptables -C`), change it unless `test=True`, and
 * with `save` write the tables to a file. An aggregated chunk (`rules`) runs each rule in turn.
 */

import { STATE_INTERNAL_KEYWORDS } from '../modules/_iptables-keywords.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';

/** Which rule state runs. */
export type RuleVerb = 'append' | 'insert' | 'delete';

type Kw = Record<string, unknown>;

const LETTER: Record<RuleVerb, string> = { append: 'A', insert: 'I', delete: 'D' };

const truthy = (v: unknown): boolean =>
  !(v === null || v === undefined || v === false || v === 0 || v === '') &&
  !(Array.isArray(v) && v.length === 0);

/** The file `save` names, or null for the distribution's (`save: True`). */
const saveFile = (save: unknown): unknown => (save === true ? null : save);

/** Every table's chains' rule lists, in order (what Salt compares before saving again). */
function ruleLists(tables: unknown): unknown[] {
  const out: unknown[] = [];
  for (const chains of Object.values((tables ?? {}) as Record<string, Record<string, { rules?: unknown }>>))
    for (const chain of Object.values(chains)) out.push(chain.rules ?? null);
  return out;
}

function chainOf(kwargs: Kw): string {
  if (!('chain' in kwargs)) throw new Error("KeyError: 'chain'");
  return String(kwargs.chain);
}

/** `rules` of an aggregated chunk: each rule's state in turn, one save at the end. */
async function aggregated(ctx: StateContext, verb: RuleVerb, name: string, family: unknown, kwargs: Kw) {
  const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
  const locale: unknown[] = [];
  const comments: string[] = [];
  let save = false;
  let file: unknown = true;
  for (const one of kwargs.rules as Kw[]) {
    const rule: Kw = { ...one };
    delete rule.rules;
    delete rule.__agg__;
    if (truthy(rule.save)) {
      // Salt's delete never sets `save` here, so an aggregated delete does not save
      if (verb !== 'delete') save = true;
      file = rule.save;
      rule.save = false;
    }
    const { name: n, table = 'filter', family: f = 'ipv4', ...rest } = rule;
    const r = await ruleState(ctx, verb, String(n), table, f, rest);
    if ('locale' in r.changes) locale.push(r.changes.locale);
    comments.push(String(r.comment));
    ret.result = r.result;
  }
  if (save) await ctx.call('iptables.save', [], { filename: saveFile(file), family });
  if (locale.length) ret.changes.locale = locale;
  ret.comment = comments.join('\n');
  return ret;
}

/** Salt's `iptables.append`, `iptables.insert` or `iptables.delete` state. */
export async function ruleState(
  ctx: StateContext,
  verb: RuleVerb,
  name: string,
  table: unknown,
  family: unknown,
  given: Kw,
): Promise<StateReturn> {
  if ('rules' in given) return aggregated(ctx, verb, name, family, given);
  const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
  const kwargs: Kw = {};
  for (const [k, v] of Object.entries(given)) if (!STATE_INTERNAL_KEYWORDS.has(k)) kwargs[k] = v;
  if (verb === 'append') delete kwargs.__agg__;
  kwargs.name = name;
  kwargs.table = table;
  const rule = String(await ctx.call('iptables.build_rule', [], { family, ...kwargs }));
  const full = await ctx.call('iptables.build_rule', [], {
    full: verb === 'append' ? 'True' : true,
    family,
    command: LETTER[verb],
    ...kwargs,
  });
  const command = String(full).trim();
  const chain = chainOf(kwargs);
  const present = (await ctx.call('iptables.check', [table, chain, rule, family])) === true;
  const file = saveFile(kwargs.save);
  const save = () => ctx.call('iptables.save', [], { filename: file, family });
  if (verb !== 'delete' && present) {
    ret.result = true;
    ret.comment =
      verb === 'append'
        ? `iptables rule for ${name} already set (${command}) for ${family}`
        : `iptables rule for ${name} already set for ${family} (${command})`;
    if (truthy(kwargs.save)) {
      const saved = await ctx.call('iptables.get_saved_rules', [], { conf_file: file, family });
      const live = await ctx.call('iptables.get_rules', [], { family });
      if (JSON.stringify(ruleLists(live)) !== JSON.stringify(ruleLists(saved))) {
        const out = await save();
        ret.comment += `\nSaved iptables rule ${name} for ${family}\n${command}\n${out}`;
      }
    }
    return ret;
  }
  if (verb === 'delete' && !present && !('position' in kwargs)) {
    ret.result = true;
    ret.comment = `iptables rule for ${name} already absent for ${family} (${command})`;
    return ret;
  }
  if (ctx.test) {
    ret.comment =
      verb === 'append'
        ? `iptables rule for ${name} needs to be set (${command}) for ${family}`
        : verb === 'insert'
          ? `iptables rule for ${name} needs to be set for ${family} (${command})`
          : `iptables rule for ${name} needs to be deleted for ${family} (${command})`;
    return ret;
  }
  let ok: boolean;
  if (verb === 'append') ok = truthy(await ctx.call('iptables.append', [table, chain, rule, family]));
  else if (verb === 'insert')
    ok = !truthy(await ctx.call('iptables.insert', [table, chain, kwargs.position, rule, family]));
  else {
    const which = 'position' in kwargs ? { position: kwargs.position } : { rule };
    ok = !truthy(await ctx.call('iptables.delete', [table, chain], { family, ...which }));
  }
  if (!ok) {
    ret.result = false;
    ret.comment =
      verb === 'append'
        ? `Failed to set iptables rule for ${name}.\nAttempted rule was ${command} for ${family}`
        : verb === 'insert'
          ? `Failed to set iptables rule for ${name}.\nAttempted rule was ${command}`
          : `Failed to delete iptables rule for ${name}.\nAttempted rule was ${command}`;
    return ret;
  }
  ret.changes = { locale: name };
  ret.result = true;
  ret.comment =
    verb === 'delete'
      ? `Delete iptables rule for ${name} ${command}`
      : `Set iptables rule for ${name} to: ${command} for ${family}`;
  if (truthy(kwargs.save)) {
    const out = await save();
    const done = verb === 'delete' ? 'Deleted and saved' : 'Set and saved';
    ret.comment = `${done} iptables rule ${name} for ${family}\n${command}\n${out}`;
  }
  return ret;
}
