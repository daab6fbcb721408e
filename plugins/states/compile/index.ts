/**
 * The state compiler (Salt's `salt/state.py` `HighState` and `State` compile steps): the top
 * file, SLS files to high data, high data to ordered low chunks.
 */
export { compileHighstate, compileSls, type RenderOptions } from './highstate.js';
export { type HighToLowOptions, highToLow } from './low.js';
export { localSlsHigh, type TemplateHigh, templateHigh } from './template.js';
export { compileTop, type MergedTop, type TopMinion, type TopOptions } from './top.js';
