/** The state runtime (Salt's `State.call_chunks` and what it calls): runs compiled low chunks. */
export { runChunks } from './run-chunks.js';
