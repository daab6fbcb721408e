export { eventReturnPlugin } from './event-return-plugin.js';
