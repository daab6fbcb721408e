/**
 * The master's RSA key pair in `pki_dir` (`master.pem` 0400, `master.pub`), made on first start.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanKey, loadOrCreateKeyPair } from '../kernel/crypt/keys.js';
import type { MasterKeys } from './handlers/context.js';

export async function ensureMasterKeys(pkiDir: string, bits: number): Promise<void> {
  await loadOrCreateKeyPair(pkiDir, 'master', bits);
}

export async function readMasterKeys(pkiDir: string): Promise<MasterKeys> {
  const [privatePem, pub] = await Promise.all([
    readFile(join(pkiDir, 'master.pem'), 'utf8'),
    readFile(join(pkiDir, 'master.pub'), 'utf8'),
  ]);
  return { privatePem, publicPem: cleanKey(pub) };
}
