/**
 * The AES key that encrypts publishes (Salt keeps it in shared memory; tsalt's children are
 * separate processes, so the key lives in a 0600 file `cachedir/.aes` and a rotation nudges them).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { writeSecret } from './secret-file.js';

export interface AesSecret {
  /** The 76-character Crypticle key string. */
  key: string;
  /** Identifies this key generation (serial reservations belong to one generation). */
  generation: string;
  /** When the key was made (ms since epoch). */
  created: number;
}

export function aesKeyPath(cachedir: string): string {
  return join(cachedir, '.aes');
}

/** Makes a new AES key generation and stores it. */
export async function rotateAesKey(cachedir: string): Promise<AesSecret> {
  const secret: AesSecret = {
    key: Crypticle.generateKeyString(),
    generation: randomUUID(),
    created: Date.now(),
  };
  await writeSecret(aesKeyPath(cachedir), JSON.stringify(secret));
  return secret;
}

/** Reads the current AES key generation. */
export async function readAesKey(cachedir: string): Promise<AesSecret> {
  return JSON.parse(await readFile(aesKeyPath(cachedir), 'utf8')) as AesSecret;
}
