/**
 * `salt-call --local --out json` for integration tests of execution modules: a masterless
 * minion config under `root` (its `srv` as file_roots, `pillar` as pillar_roots) and a `call`
 * that answers the exit code, the `local` value (undefined when no JSON was printed) and the text.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../tools/local-cluster.js';

export interface LocalCall {
  (...args: string[]): Promise<{ code: number | null; local: unknown; output: string }>;
  /** The config folder (`-c`). */
  etc: string;
}

/** Writes `<root>/etc/minion` (id, `<root>/srv`, `<root>/pillar`) and returns a caller. */
export function localCaller(root: string, id: string): LocalCall {
  const etc = join(root, 'etc');
  mkdirSync(etc, { recursive: true });
  writeFileSync(
    join(etc, 'minion'),
    `id: ${id}\nfile_client: local\nroot_dir: ${join(root, 'root')}\nfile_roots: {base: [${join(root, 'srv')}]}\n` +
      `pillar_roots: {base: [${join(root, 'pillar')}]}\nlog_level: quiet\n`,
  );
  const call = async (...args: string[]) => {
    const r = await runCli('salt-call', ['-c', etc, '--local', '--out', 'json', ...args], 60_000);
    let local: unknown;
    try {
      local = (JSON.parse(r.stdout) as { local: unknown }).local;
    } catch {
      local = undefined; // an error printed as text
    }
    return { code: r.code, local, output: r.stdout + r.stderr };
  };
  return Object.assign(call, { etc });
}
