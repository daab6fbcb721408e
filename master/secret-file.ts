/** Writes a secret (an AES key, a user key) to a 0600 file, atomically (temp file, then rename). */
import { randomUUID } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';

export async function writeSecret(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, path);
}
