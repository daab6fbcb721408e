/**
 * Who published a peer job (Salt's `<cachedir>/publish_auth/<jid>`): the minion that asked for
 * it, so that only that minion may read the job's returns (`pub_ret`). One small file per jid.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isJid } from '../../kernel/util.js';

function authDir(cachedir: string): string {
  return join(cachedir, 'publish_auth');
}

/** Records that minion `id` published `jid`. */
export async function recordPublisher(cachedir: string, jid: string, id: string): Promise<void> {
  await mkdir(authDir(cachedir), { recursive: true });
  await writeFile(join(authDir(cachedir), jid), id, { mode: 0o600 });
}

/** The minion that published `jid`; undefined for a jid nobody published this way (or not a jid at all). */
export async function publisherOf(cachedir: string, jid: unknown): Promise<string | undefined> {
  if (typeof jid !== 'string' || !isJid(jid)) return undefined;
  try {
    return await readFile(join(authDir(cachedir), jid), 'utf8');
  } catch {
    return undefined;
  }
}
