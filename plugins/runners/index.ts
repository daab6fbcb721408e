export { runnersPlugin } from './runners-plugin.js';
