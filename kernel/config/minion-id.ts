/**
 * The minion id when the config leaves it unset, as Salt's `apply_minion_config` / `get_id`
 * (simplified: the host name stands in for Salt's FQDN guessing).
 */
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import type { ResolvedMinionConfig } from './resolve.js';

/** The options `resolveMinionId` reads. */
export type MinionIdOptions = Pick<ResolvedMinionConfig, 'id' | 'minion_id_lowercase' | 'append_domain'>;

/** Salt's `_append_domain`: no change when the id already ends with the domain or with a dot. */
function appendDomain(id: string, domain: string): string {
  if (id.endsWith(domain) || id.endsWith('.')) return id;
  return `${id}.${domain}`;
}

/**
 * The configured `id`, or the host name when `id` is `null` or empty (lowercased when
 * `minion_id_lowercase`). `append_domain` is appended unless the id is an IPv4 address.
 */
export function resolveMinionId(config: MinionIdOptions, host: () => string = hostname): string {
  let id = config.id;
  if (id === null || id === '') {
    id = host();
    if (config.minion_id_lowercase) id = id.toLowerCase();
  }
  if (config.append_domain && isIP(id) !== 4) id = appendDomain(id, config.append_domain);
  return id;
}
