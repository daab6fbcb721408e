export { compilePillar, type PillarRequest } from './compile.js';
export { defineExtPillar, type ExtPillarContext, type ExtPillarDef } from './ext-kind.js';
export { mergePillar } from './merge.js';
export { pillarPlugin } from './pillar-plugin.js';
