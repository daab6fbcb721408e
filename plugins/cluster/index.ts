/** The cluster plugin's door. */
export { clusterPlugin } from './cluster-plugin.js';
export { clusterMinionOptions, clusterOptions } from './options.js';
