/**
 * The request server's refusals a requester can act on, as they go over the wire (bare strings,
 * as Salt's `bad load` refusals are). tsalt only: Salt's request server takes any size.
 */

/** The answer to a request over the master's `max_request_size` (short: a minion logs it whole). */
export const REQUEST_TOO_LARGE_REPLY = 'bad load: request larger than max_request_size';
