export { pillarPlugin } from './pillar-plugin.js';
