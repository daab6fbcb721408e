/**
 * The frame the publisher sends to every minion (Salt's `PubServerChannel.wrap_payload`):
 * `{enc: 'aes', load: Crypticle(master AES).dumps(load)}`, signed with `master.pem` when
 * `sign_pub_messages` is on.
 */
import type { Crypticle } from '../kernel/crypt/crypticle.js';
import { rsaSign } from '../kernel/crypt/rsa.js';
import { packNetwork } from '../kernel/serial/index.js';

export interface WrapOptions {
  /** `master.pem`: sign the encrypted load (PKCS#1 v1.5, SHA-1). */
  signWith?: string;
  /** Fixed IV, for conformance tests only. */
  iv?: Buffer;
}

/** Encrypts and frames a publish load that already carries its `serial`. */
export function wrapPublish(load: Record<string, unknown>, aes: Crypticle, opts: WrapOptions = {}): Buffer {
  const enc = aes.dumps(load, undefined, opts.iv);
  const envelope: Record<string, unknown> = { enc: 'aes', load: enc };
  if (opts.signWith) {
    envelope.sig_algo = 'PKCS1v15-SHA1';
    envelope.sig = rsaSign(opts.signWith, enc);
  }
  return packNetwork(envelope);
}
