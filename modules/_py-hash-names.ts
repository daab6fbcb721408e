/** Python `hashlib` names Node knows under another name (the rest are spelled alike). */
export const PY_HASH_NAMES: Readonly<Record<string, string>> = {
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
};
