export { readMine } from './mine-bank.js';
export { gatherMine, type MineGetEnv } from './mine-get.js';
export { mineGetEnv, minePlugin } from './mine-plugin.js';
export { requestedFunctions } from './mine-shape.js';
export { mineMasterOptions, mineMinionOptions } from './options.js';
