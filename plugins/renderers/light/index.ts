/**
 * The renderers plugin's light door: what a caller needs before it has anything to render (the
 * render limits, `salt[...]` function tables), without loading a renderer. The pillar compile
 * imports this up front and the full door (../index.ts) with its first file to render, so
 * `salt-call --local` with no pillar top file loads no template engine (issue 25).
 */
export { DEFAULT_RENDER_LIMITS } from '../limits.js';
export { lookedUpSaltFunctions } from '../salt-functions.js';
