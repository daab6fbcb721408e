export { aclEntry, wrapAcl } from './mine-acl.js';
export { readMine } from './mine-bank.js';
export { gatherMine, type MineGetEnv } from './mine-get.js';
export { mineGetEnv, minePlugin } from './mine-plugin.js';
export { addResult, requestedFunctions } from './mine-shape.js';
export { mineMasterOptions, mineMinionOptions } from './options.js';
