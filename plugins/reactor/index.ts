export { reactorPlugin } from './reactor-plugin.js';
