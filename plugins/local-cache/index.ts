export { localCachePlugin, PLUGIN_NAME } from './local-cache-plugin.js';
