/** The targeting view of a runner's master options (what `expectedMinions` needs). */
import type { TargetingConfig } from '../../../kernel/services.js';

export function targeting(opts: Readonly<Record<string, unknown>>): TargetingConfig {
  const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : '');
  const nodegroups = opts.nodegroups;
  return {
    pki_dir: str('pki_dir'),
    cachedir: str('cachedir'),
    minion_data_cache: opts.minion_data_cache !== false,
    nodegroups: nodegroups && typeof nodegroups === 'object' ? (nodegroups as Record<string, unknown>) : {},
    conf_file: str('conf_file'),
  };
}
