export * from '../serial/salt-types.js';
export * from './repr.js';
export * from './value.js';
