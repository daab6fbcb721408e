export { consolePlugin } from './console-plugin.js';
export { consoleEnabled } from './enabled.js';
