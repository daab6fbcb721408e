export { wheelPlugin } from './wheel-plugin.js';
