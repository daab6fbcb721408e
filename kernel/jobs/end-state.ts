/**
 * End states of minions that did not return: a client that gave up on a minion fires
 * `tsalt/job/end/<jid>/<id>` with `{jid, id, state}` on the master bus, and the master's
 * maintenance process records it in the job cache beside the returns.
 */
export const END_STATE_TAG = 'tsalt/job/end/';
