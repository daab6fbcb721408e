export { commandFallbacksPlugin } from './command-fallbacks-plugin.js';
