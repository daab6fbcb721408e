/**
 * The minion side of targeting: does a publish address this minion? Types this minion cannot
 * evaluate yet answer false (and are logged by the caller), never throw.
 */

import { listTarget } from './check-minions.js';
import { globMatch } from './glob.js';

export function matchesTarget(id: string, tgt: unknown, tgtType: unknown): boolean {
  const type = typeof tgtType === 'string' && tgtType ? tgtType : 'glob';
  switch (type) {
    case 'glob':
      return typeof tgt === 'string' && globMatch(tgt, id);
    case 'list':
      return (
        (typeof tgt === 'string' || Array.isArray(tgt)) && listTarget(tgt as string | string[]).includes(id)
      );
    case 'pcre':
      if (typeof tgt !== 'string') return false;
      try {
        return new RegExp(tgt).exec(id)?.index === 0;
      } catch {
        return false;
      }
    default:
      return false;
  }
}
