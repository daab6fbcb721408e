/**
 * Per-connection buffer sizes of the master's many-peer ZeroMQ sockets (the request server's
 * ROUTER and the publisher's XPUB). libzmq gives every TCP peer an 8 KiB encoder buffer and an
 * 8 KiB decoder buffer (plus the decoder's reference counters, ~10 KiB more), whatever the
 * traffic: ~29 KiB per minion on the ROUTER and ~24 KiB on the XPUB, measured with 2,000 peers,
 * so ~530 MiB for 10,000 minions. Salt's requests and publishes are a few hundred bytes; with
 * 1 KiB batches a peer costs ~19 KiB (ROUTER) and ~18 KiB (XPUB). A message larger than the batch
 * still goes through whole: the encoder sends it without copying, the decoder reads it into a
 * buffer of its own size.
 *
 * The sizes are libzmq's `ZMQ_IN_BATCH_SIZE`/`ZMQ_OUT_BATCH_SIZE` (DRAFT options 101/102, in
 * the libzmq that zeromq.js ships, built with the draft API). zeromq.js does not name them, so
 * they go through its generic integer setter; without the draft API they are left as they are.
 */
import { capability } from 'zeromq';

const ZMQ_IN_BATCH_SIZE = 101;
const ZMQ_OUT_BATCH_SIZE = 102;

/** The batch size the master's many-peer sockets use (bytes). */
export const PEER_BATCH_BYTES = 1024;

interface IntOptionSetter {
  setInt32Option?(option: number, value: number): void;
}

/**
 * Sets the in/out batch sizes of `socket` (before it binds: libzmq reads them per new peer).
 * Returns false when this libzmq cannot (no draft API), leaving its defaults.
 */
export function limitPeerBuffers(socket: object, bytes = PEER_BATCH_BYTES): boolean {
  const setter = socket as IntOptionSetter;
  if (!capability.draft || typeof setter.setInt32Option !== 'function') return false;
  try {
    setter.setInt32Option(ZMQ_IN_BATCH_SIZE, bytes);
    setter.setInt32Option(ZMQ_OUT_BATCH_SIZE, bytes);
    return true;
  } catch {
    return false;
  }
}
