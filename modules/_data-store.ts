/**
 * The minion's datastore file (Salt's `<cachedir>/datastore`, `salt/modules/data.py`): a msgpack
 * map written as Salt writes it (`salt.payload.dump`, `use_bin_type=True`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { packIpc, unpackIpc } from '../kernel/util.js';
import { isMapping } from './_traverse.js';

export type Store = Record<string, unknown>;

export function storePath(ctx: ExecContext): string {
  return join(String(ctx.opts.cachedir ?? '/var/cache/salt/minion'), 'datastore');
}
/** Salt's `data.load`: the store, or `{}` when the file is missing or unreadable. */
export function loadStore(ctx: ExecContext): Store {
  try {
    const got = unpackIpc(readFileSync(storePath(ctx)));
    return isMapping(got) ? got : {};
  } catch {
    return {};
  }
}

export function dumpStore(ctx: ExecContext, store: Store): boolean {
  try {
    const path = storePath(ctx);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, packIpc(store), { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
