/**
 * The arguments of a peer publish or runner as the master passes them on (Salt's
 * `salt.utils.args.parse_input` then `condition_input`): `name=value` words become keywords
 * (YAML-typed unless named in the minion's `no_parse`), other words are YAML-typed, maps marked
 * `__kwarg__` are keywords, and the keywords travel as one trailing `__kwarg__` map.
 */
import { conditionInput, parseKwarg, yamlifyArg } from '../../kernel/util.js';
import { isMap } from './peer-acl.js';

export interface ParsedInput {
  args: unknown[];
  kwargs: Record<string, unknown>;
}

/** Salt's `parse_input(args, condition=False, no_parse)`. */
export function parseInput(arg: readonly unknown[], noParse: readonly unknown[] = []): ParsedInput {
  const raw = new Set(noParse.filter((n): n is string => typeof n === 'string'));
  const args: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  for (const a of arg) {
    if (typeof a === 'string') {
      const kw = parseKwarg(a);
      if (kw) kwargs[kw[0]] = raw.has(kw[0]) ? kw[1] : yamlifyArg(kw[1]);
      else args.push(yamlifyArg(a));
    } else if (isMap(a) && a.__kwarg__ === true) {
      const { __kwarg__: _marker, ...rest } = a;
      Object.assign(kwargs, rest);
    } else args.push(a);
  }
  return { args, kwargs };
}

/** Salt's `parse_input(args, no_parse=...)`: the publishable argument list. */
export function publishArgs(arg: readonly unknown[], noParse: readonly unknown[] = []): unknown[] {
  const { args, kwargs } = parseInput(arg, noParse);
  return conditionInput(args, kwargs);
}
