/**
 * Reads `iptables-save` text (a saved rules file or the live tables) into Salt's structure:
 * `{ table: { chain: { policy, 'packet count', 'byte count', rules, rules_comment } } }`, each
 * rule the options it names (by Salt's keys, in Salt's option order) with their values in lists.
 */

import { IPTABLES_OPTIONS, optionOf } from './_iptables-options.js';
import { shlexSplit } from './_shlex.js';

/** One rule: each option's values, as Salt's argparse-based reader collects them. */
export type IptablesRule = Record<string, string[]>;

/** One chain of a table. */
export interface IptablesChain {
  policy: string;
  'packet count': string;
  'byte count': string;
  rules: IptablesRule[];
  /** The rules that carry a comment, by that comment (the last such rule wins). */
  rules_comment: Record<string, IptablesRule>;
}

export type IptablesTables = Record<string, Record<string, IptablesChain>>;

/**
 * Joins a rule line's words the way Salt does before it parses them: `! --opt v` becomes
 * `--opt '! v'`, a flag without a value gets `''`, and the words after an option up to the next
 * option become one value.
 */
function pairUp(words: string[]): string[] {
  const args = [...words];
  let i = 0;
  while (i + 1 < args.length) {
    const swap = args[i] === '!' && (args[i + 1] ?? '').startsWith('-');
    if (swap) [args[i], args[i + 1]] = [args[i + 1] ?? '', args[i] ?? ''];
    if ((args[i] ?? '').startsWith('-')) {
      i += 1;
      if ((args[i] ?? '').startsWith('-') || (args[i] === '!' && !swap)) args.splice(i, 0, '');
      else {
        while (i + 1 < args.length && args[i + 1] !== '!' && !(args[i + 1] ?? '').startsWith('-')) {
          args[i] += ` ${args.splice(i + 1, 1)[0]}`;
        }
      }
    }
    i += 1;
  }
  if ((args[args.length - 1] ?? '').startsWith('-')) args.push('');
  return args;
}

/** The options of one `-A` line, keyed and ordered as Salt's reader returns them (`append` kept). */
function readRule(line: string): Record<string, string[]> {
  const args = pairUp(shlexSplit(line));
  const found = new Map<string, string[]>();
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i] ?? '';
    if (!word.startsWith('-') || word === '-') continue;
    const opt = optionOf(word);
    if (!opt || i + 1 >= args.length) continue;
    i += 1;
    const list = found.get(opt.key) ?? [];
    list.push(args[i] ?? '');
    found.set(opt.key, list);
  }
  const out: Record<string, string[]> = {};
  for (const o of IPTABLES_OPTIONS) {
    const v = found.get(o.key);
    if (v) out[o.key] = v;
  }
  return out;
}

/** Parses `iptables-save` output; lines that are neither tables, chains nor `-A` rules are skipped. */
export function parseIptablesSave(text: string): IptablesTables {
  const ret: IptablesTables = {};
  let table = '';
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.startsWith('*')) {
      table = line.replaceAll('*', '');
      ret[table] = {};
    } else if (line.startsWith(':')) {
      const comps = line.trim().split(/\s+/);
      const chain = (comps[0] ?? '').replaceAll(':', '');
      const [pcount = '', bcount = ''] = (comps[2] ?? '').replace(/[[\]]/g, '').split(':');
      const chains = ret[table] ?? {};
      ret[table] = chains;
      chains[chain] = {
        policy: comps[1] ?? '',
        'packet count': pcount,
        'byte count': bcount,
        rules: [],
        rules_comment: {},
      };
    } else if (line.startsWith('-A')) {
      const parsed = readRule(line);
      const chain = parsed.append?.[0] ?? '';
      const rule: IptablesRule = {};
      for (const [k, v] of Object.entries(parsed)) if (k !== 'append') rule[k] = v;
      const entry = ret[table]?.[chain];
      if (!entry) continue;
      if (parsed.comment) entry.rules_comment[(parsed.comment[0] ?? '').replace(/^"+|"+$/g, '')] = rule;
      entry.rules.push(rule);
    }
  }
  return ret;
}
