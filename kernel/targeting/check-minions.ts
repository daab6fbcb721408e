/**
 * The master's view of a target: which accepted minions are expected to answer
 * (Salt's `CkMinions.check_minions`). Target types the master cannot resolve yet are
 * greedy: every accepted minion is expected and each minion decides for itself.
 */
import { SALT_ERR_INVOCATION } from '../errors.js';
import { globMatch } from './glob.js';

export interface CheckResult {
  minions: string[];
  missing: string[];
}

/** Splits a `list` target given as an array or a comma-separated string. */
export function listTarget(tgt: string | readonly string[]): string[] {
  const items = typeof tgt === 'string' ? tgt.split(',') : [...tgt];
  return items.map((s) => String(s).trim()).filter(Boolean);
}

export function checkMinions(
  tgt: string | readonly string[],
  tgtType: string,
  accepted: readonly string[],
): CheckResult {
  switch (tgtType) {
    case 'glob': {
      if (typeof tgt !== 'string') throw new SALT_ERR_INVOCATION('a glob target must be a string');
      return { minions: accepted.filter((id) => globMatch(tgt, id)), missing: [] };
    }
    case 'list': {
      const wanted = listTarget(tgt);
      const known = new Set(accepted);
      return {
        minions: wanted.filter((id) => known.has(id)),
        missing: wanted.filter((id) => !known.has(id)),
      };
    }
    case 'pcre': {
      if (typeof tgt !== 'string') throw new SALT_ERR_INVOCATION('a pcre target must be a string');
      let re: RegExp;
      try {
        re = new RegExp(tgt);
      } catch (err) {
        throw new SALT_ERR_INVOCATION(
          `invalid regular expression ${JSON.stringify(tgt)}: ${(err as Error).message}`,
        );
      }
      return { minions: accepted.filter((id) => re.exec(id)?.index === 0), missing: [] };
    }
    default:
      return { minions: [...accepted], missing: [] };
  }
}
