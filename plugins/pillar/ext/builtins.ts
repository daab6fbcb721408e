/** The external pillars tsalt ships (registered by the pillar plugin under the `pillar.ext` kind). */
import type { ExtPillarDef } from '../ext-kind.js';
import { cmdJson, cmdYaml } from './cmd.js';
import { fileTree } from './file-tree.js';

/**
 * An external pillar whose code loads on its first run: `git`'s pulls in the git client and
 * the checkout code, `postgres`' its SQL handling; a compile that names neither never loads them.
 */
function onFirstRun(name: string, load: () => Promise<ExtPillarDef>): ExtPillarDef {
  return { name, run: async (ctx, args, kwargs) => (await load()).run(ctx, args, kwargs) };
}

export const BUILTIN_EXT_PILLARS: readonly ExtPillarDef[] = [
  cmdYaml,
  cmdJson,
  fileTree,
  onFirstRun('postgres', async () => (await import('./postgres.js')).postgresPillar),
  onFirstRun('git', async () => (await import('../git-pillar/git-pillar.js')).gitPillar),
];
