/** Where `local_cache` keeps things under the cachedir, and its msgpack reader. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReturnerContext } from '../kernel/index.js';
import { jidDir, unpackIpc } from '../kernel/util.js';

/** `<cachedir>/jobs`. */
export function jobsRoot(ctx: ReturnerContext): string {
  return join(String(ctx.opts.cachedir), 'jobs');
}

/** A job's directory: `<cachedir>/jobs/<h[0:2]>/<h[2:]>` with `hash_type`. */
export function dirOf(jid: string, ctx: ReturnerContext): string {
  return jidDir(jid, jobsRoot(ctx), String(ctx.opts.hash_type ?? 'sha256'));
}

/** A msgpack file's value, undefined when missing or unreadable. */
export async function readMsgpack(path: string): Promise<unknown> {
  try {
    return unpackIpc(await readFile(path));
  } catch {
    return undefined;
  }
}
