/**
 * The per-user cache folder of the CLIs (`$XDG_CACHE_HOME/tsalt`, else `~/.cache/tsalt`):
 * facts that are slow to compute and cheap to re-check, never state a daemon depends on.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function userCacheDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tsalt');
}
