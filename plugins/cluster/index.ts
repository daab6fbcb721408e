/** The cluster plugin's door. */
export { clusterPlugin } from './cluster-plugin.js';
export { clusterOptions } from './options.js';
