/**
 * `salt-call --local state.apply` for integration tests of state modules: a masterless minion
 * config under a cluster's temp root serving `srv`, and its run's states keyed by their id.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../tools/local-cluster.js';

export interface StateEntry {
  result: boolean | null;
  comment: string;
  changes: Record<string, unknown>;
  [key: string]: unknown;
}

/** Writes `<root>/local-etc/minion` (id, `file_roots` of `srv`) and returns an `apply(sls, ...args)`. */
export function localApply(
  root: string,
  id: string,
  srv: string,
): (sls: string, ...extra: string[]) => Promise<Record<string, StateEntry>> {
  const etc = join(root, 'local-etc');
  mkdirSync(etc, { recursive: true });
  writeFileSync(
    join(etc, 'minion'),
    `id: ${id}\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${srv}]}\nlog_level: quiet\n`,
  );
  return async (sls, ...extra) => {
    const argv = ['-c', etc, '--local', '--out', 'json', 'state.apply', sls, ...extra];
    const r = await runCli('salt-call', argv, 60_000);
    const ret = (JSON.parse(r.stdout) as { local: Record<string, StateEntry> }).local;
    return Object.fromEntries(Object.entries(ret).map(([k, v]) => [k.split('_|-')[1] as string, v]));
  };
}
