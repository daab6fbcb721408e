export { jobCachePlugin, PLUGIN_NAME } from './job-cache.js';
