/**
 * The minion's writes to its own mine (Salt's `AESFuncs._mine`, `_mine_delete`, `_mine_flush`),
 * always to the bank of the minion that signed the request (`ctx.id`; the request server has
 * checked the load's `id` against it). Kept only with `minion_data_cache` or `enforce_mine_cache`,
 * as in Salt; otherwise answered as if kept. A load without its keys gets Salt's `{}`.
 */
import type { CommandContext } from '../../kernel/index.js';
import { isStringMap } from '../../kernel/util.js';
import { MINE_ERR_LOAD } from './errors.js';
import { flushMine, readMine, writeMine } from './mine-bank.js';
import { mineMasterOptions } from './options.js';

function keeps(ctx: CommandContext): boolean {
  return ctx.config.minion_data_cache || mineMasterOptions.read(ctx.config).enforce_mine_cache;
}

function missing(load: Readonly<Record<string, unknown>>, keys: readonly string[]): string | undefined {
  const absent = keys.filter((k) => !(k in load));
  return absent.length > 0 ? `no ${absent.join(', ')}` : undefined;
}

function refuse(ctx: CommandContext, cmd: string, why: string): void {
  const err = new MINE_ERR_LOAD(cmd, why);
  ctx.log.warn({ id: ctx.id, code: err.code }, err.message);
}

/** `_mine`: merges `data` into the minion's mine (replaces it with `clear`); true. */
export async function handleMine(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const why = missing(load, ['id', 'data']);
  if (why) {
    refuse(ctx, '_mine', why);
    return {};
  }
  if (!isStringMap(load.data)) {
    refuse(ctx, '_mine', '"data" is not a mapping');
    return false;
  }
  const id = ctx.id;
  if (id === undefined || !keeps(ctx)) return true;
  const cachedir = ctx.config.cachedir;
  let data = load.data;
  if (!load.clear) {
    const old = await readMine(cachedir, id);
    if (old) data = Object.assign(old, data);
  }
  writeMine(cachedir, id, data);
  return true;
}

/** `_mine_delete`: removes one function from the minion's mine; true, false when the bank is unreadable. */
export async function handleMineDelete(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const why = missing(load, ['id', 'fun']);
  if (why) {
    refuse(ctx, '_mine_delete', why);
    return {};
  }
  const id = ctx.id;
  if (id === undefined || !keeps(ctx)) return true;
  const data = await readMine(ctx.config.cachedir, id);
  if (!data) return false;
  const fun = load.fun;
  if (typeof fun === 'string' && Object.hasOwn(data, fun)) {
    delete data[fun];
    writeMine(ctx.config.cachedir, id, data);
  }
  return true;
}

/** `_mine_flush`: removes the minion's whole mine; true, false when it had none (Salt's cache answer). */
export function handleMineFlush(load: Record<string, unknown>, ctx: CommandContext): unknown {
  const why = missing(load, ['id']);
  if (why) {
    refuse(ctx, '_mine_flush', why);
    return {};
  }
  const id = ctx.id;
  if (id === undefined || !keeps(ctx)) return true;
  return flushMine(ctx.config.cachedir, id);
}
