/** The external pillars tsalt ships (registered by the pillar plugin under the `pillar.ext` kind). */
import type { ExtPillarDef } from '../ext-kind.js';
import { gitPillar } from '../git-pillar/git-pillar.js';
import { cmdJson, cmdYaml } from './cmd.js';
import { fileTree } from './file-tree.js';
import { postgresPillar } from './postgres.js';

export const BUILTIN_EXT_PILLARS: readonly ExtPillarDef[] = [
  cmdYaml,
  cmdJson,
  fileTree,
  postgresPillar,
  gitPillar,
];
