export { peerOptions } from './options.js';
export { peerPlugin } from './peer-plugin.js';
