/**
 * Salt's `iptables` state module (`salt/states/iptables.py`) over the `iptables` execution
 * module: rules (`append`, `insert`, `delete`), chains (`chain_present`, `chain_absent`),
 * policies (`set_policy`) and `flush`, each with `table`, `family` (`ipv6`: ip6tables) and,
 * for rules and policies, `save` (True: the distribution's file; a path: that file). With
 * `state_aggregate` (or `aggregate: True`), `mod_aggregate` gathers the `append` (or `insert`)
 * states of a run into one chunk, as Salt's does.
 */

import { STATE_INTERNAL_KEYWORDS } from '../modules/_iptables-keywords.js';
import { which } from '../modules/_which.js';
import {
  defineAggregate,
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { type RuleVerb, ruleState } from './_iptables-rules.js';

type Kw = Record<string, unknown>;

const base = (z: typeof import('zod').z) =>
  z.object({ name: z.string(), table: z.unknown().default('filter'), family: z.unknown().default('ipv4') });

const blank = (name: string): StateReturn => ({ name, changes: {}, result: null, comment: '' });

const own = (kwargs: Kw): Kw =>
  Object.fromEntries(Object.entries(kwargs).filter(([k]) => !STATE_INTERNAL_KEYWORDS.has(k)));

function need(kwargs: Kw, key: string): unknown {
  if (!(key in kwargs)) throw new Error(`KeyError: '${key}'`);
  return kwargs[key];
}

const strip = (v: unknown): string => String(v).trim();

async function chainPresent(ctx: StateContext, name: string, table: unknown, family: unknown) {
  const ret = blank(name);
  if ((await ctx.call('iptables.check_chain', [table, name, family])) === true) {
    return {
      ...ret,
      result: true,
      comment: `iptables ${name} chain is already exist in ${table} table for ${family}`,
    };
  }
  if (ctx.test)
    return { ...ret, comment: `iptables ${name} chain in ${table} table needs to be set for ${family}` };
  const made = await ctx.call('iptables.new_chain', [table, name, family]);
  if (made === true) {
    return {
      ...ret,
      changes: { locale: name },
      result: true,
      comment: `iptables ${name} chain in ${table} table create success for ${family}`,
    };
  }
  return {
    ...ret,
    result: false,
    comment: `Failed to create ${name} chain in ${table} table: ${strip(made)} for ${family}`,
  };
}

async function chainAbsent(ctx: StateContext, name: string, table: unknown, family: unknown) {
  const ret = blank(name);
  if (!(await ctx.call('iptables.check_chain', [table, name, family]))) {
    return {
      ...ret,
      result: true,
      comment: `iptables ${name} chain is already absent in ${table} table for ${family}`,
    };
  }
  if (ctx.test)
    return { ...ret, comment: `iptables ${name} chain in ${table} table needs to be removed ${family}` };
  const flushed = await ctx.call('iptables.flush', [table, name, family]);
  if (flushed) {
    return {
      ...ret,
      result: false,
      comment: `Failed to flush ${name} chain in ${table} table: ${strip(flushed)} for ${family}`,
    };
  }
  const gone = await ctx.call('iptables.delete_chain', [table, name, family]);
  if (gone === true) {
    return {
      ...ret,
      changes: { locale: name },
      result: true,
      comment: `iptables ${name} chain in ${table} table delete success for ${family}`,
    };
  }
  return {
    ...ret,
    result: false,
    comment: `Failed to delete ${name} chain in ${table} table: ${strip(gone)} for ${family}`,
  };
}

async function setPolicy(ctx: StateContext, name: string, table: unknown, family: unknown, given: Kw) {
  const ret = blank(name);
  const kwargs = own(given);
  const chain = need(kwargs, 'chain');
  if ((await ctx.call('iptables.get_policy', [table, chain, family])) === need(kwargs, 'policy')) {
    return {
      ...ret,
      result: true,
      comment: `iptables default policy for chain ${chain} on table ${table} for ${family} already set to ${kwargs.policy}`,
    };
  }
  if (ctx.test) {
    return {
      ...ret,
      comment: `iptables default policy for chain ${chain} on table ${table} for ${family} needs to be set to ${kwargs.policy}`,
    };
  }
  if (await ctx.call('iptables.set_policy', [table, chain, kwargs.policy, family]))
    return { ...ret, result: false, comment: 'Failed to set iptables default policy' };
  const done = { ...ret, changes: { locale: name }, result: true };
  const save = kwargs.save;
  if (save !== undefined && save !== null && save !== false && save !== '' && save !== 0) {
    await ctx.call('iptables.save', [], { filename: save === true ? null : save, family });
    return {
      ...done,
      comment: `Set and saved default policy for ${chain} to ${kwargs.policy} family ${family}`,
    };
  }
  return { ...done, comment: `Set default policy for ${chain} to ${kwargs.policy} family ${family}` };
}

async function flush(ctx: StateContext, name: string, table: unknown, family: unknown, given: Kw) {
  const ret = blank(name);
  const chain = 'chain' in given ? given.chain : '';
  if (ctx.test) {
    return {
      ...ret,
      comment: `iptables rules in ${name} table ${table} chain ${family} family needs to be flushed`,
    };
  }
  if (await ctx.call('iptables.flush', [table, chain, family]))
    return { ...ret, result: false, comment: 'Failed to flush iptables rules' };
  return {
    ...ret,
    changes: { locale: name },
    result: true,
    comment: `Flush iptables rules in ${table} table ${chain} chain ${family} family`,
  };
}

/** Salt's `mod_aggregate`: the `append`/`insert` chunks not run yet join this one's `rules`. */
function aggregate(low: Kw, chunks: readonly Kw[], running: Readonly<Record<string, unknown>>): Kw {
  if (low.fun !== 'append' && low.fun !== 'insert') return low;
  const rules: Kw[] = [];
  for (const chunk of chunks) {
    // Salt's tag of a chunk: state_|-id_|-name_|-fun
    if (`${chunk.state}_|-${chunk.__id__}_|-${chunk.name}_|-${chunk.fun}` in running) continue;
    if (chunk.state !== 'iptables' || '__agg__' in chunk || chunk.fun !== low.fun) continue;
    const copy = structuredClone(chunk);
    if (rules.some((r) => JSON.stringify(r) === JSON.stringify(copy))) continue;
    rules.push(copy);
    chunk.__agg__ = true;
  }
  if (rules.length) low.rules = Array.isArray(low.rules) ? [...low.rules, ...rules] : rules;
  return low;
}

const rule = (verb: RuleVerb, doc: string) =>
  defineState({
    args: base,
    varkw: true,
    doc,
    run: (ctx, a, extra) => ruleState(ctx, verb, a.name, a.table, a.family, extra.kwargs),
  });

export default defineStateModule({
  name: 'iptables',
  doc: 'Management of iptables: rules, chains, policies (Salt 3006 iptables states).',
  // Salt's loads where the iptables execution module does, which needs the iptables binary
  virtual: () => which('iptables') !== null || { ok: false, reason: 'iptables module could not be loaded' },
  functions: {
    chain_present: defineState({
      args: base,
      doc: 'Verify the chain exists in the table (iptables -N).',
      run: (ctx, a) => chainPresent(ctx, a.name, a.table, a.family),
    }),
    chain_absent: defineState({
      args: base,
      doc: 'Verify the chain is absent from the table: flush it, then delete it (iptables -F, -X).',
      run: (ctx, a) => chainAbsent(ctx, a.name, a.table, a.family),
    }),
    append: rule(
      'append',
      'Append a rule to a chain unless it is there (keywords as iptables.build_rule; chain required).',
    ),
    insert: rule(
      'insert',
      'Insert a rule into a chain at position unless it is there (chain and position required).',
    ),
    delete: rule('delete', 'Delete a rule from a chain, given by its keywords or by position.'),
    set_policy: defineState({
      args: base,
      varkw: true,
      doc: 'Set the default policy of a chain (chain and policy required).',
      run: (ctx, a, extra) => setPolicy(ctx, a.name, a.table, a.family, extra.kwargs),
    }),
    flush: defineState({
      args: base,
      varkw: true,
      doc: 'Flush every rule of a chain, or of the whole table when no chain is given.',
      run: (ctx, a, extra) => flush(ctx, a.name, a.table, a.family, extra.kwargs),
    }),
    mod_aggregate: defineAggregate(
      'Gather the iptables append (or insert) states of a run into one chunk.',
      aggregate,
    ),
  },
});
