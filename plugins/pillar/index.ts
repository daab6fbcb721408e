export { type CompileEnv, compilePillar, compileTop, type PillarRequest } from './compile.js';
export { BUILTIN_EXT_PILLARS } from './ext/builtins.js';
export { defineExtPillar, type ExtPillarContext, type ExtPillarDef } from './ext-kind.js';
export { updateGitPillar } from './git-pillar/update.js';
export { mergePillar } from './merge.js';
export { pillarMinionOptionSet, pillarOptions } from './options.js';
export { type PillarPluginOptions, pillarPlugin } from './pillar-plugin.js';
