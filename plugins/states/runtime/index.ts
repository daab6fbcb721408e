/** The state runtime (Salt's `State.call_chunks` and what it calls): runs compiled low chunks. */
export { SALT_ERR_STATE_REQUISITE } from './requisites.js';
export { runChunks } from './run-chunks.js';
export { verifyData } from './verify.js';
