/**
 * `_pillar` (Salt's `AESFuncs._pillar`): compiles the asking minion's pillar and keeps it, with
 * the grains the minion reports, in the minion data cache (`<cachedir>/minions/<id>/data.p`,
 * mode 0600) for `-I`/`-J` and `I@`/`J@` targeting and `cache.pillar`. The answer goes back
 * encrypted to that minion alone (the command's `private` reply, PROTOCOL.md §3); the refresh
 * event names the minion only.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { CommandContext } from '../../kernel/index.js';
import { isStringMap, packIpc } from '../../kernel/util.js';
import { type CompileEnv, compilePillar, type PillarRequest, requestPillarenv } from './compile.js';
import type { PillarData } from './merge.js';
import { PillarCache } from './pillar-cache.js';

const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** The request a `_pillar` load makes, or undefined when it lacks `id`/`grains` (Salt answers False). */
export function pillarRequest(load: Record<string, unknown>, id: string): PillarRequest | undefined {
  if (!isStringMap(load.grains)) return undefined;
  return {
    id,
    // Salt sets grains['id'] to the load's id
    grains: { ...load.grains, id },
    saltenv: strOrNull(load.saltenv ?? load.env),
    pillarenv: strOrNull(load.pillarenv),
    pillarOverride: isStringMap(load.pillar_override) ? load.pillar_override : {},
    extraMinionData: isStringMap(load.extra_minion_data) ? load.extra_minion_data : {},
  };
}

/** Writes the minion data cache entry (synchronous: this runs in a request worker). */
export function storeMinionData(cachedir: string, id: string, grains: unknown, pillar: PillarData): void {
  const dir = join(cachedir, 'minions', id);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.data.p.${process.pid}.${threadId}`);
  writeFileSync(tmp, packIpc({ grains, pillar }), { mode: 0o600 });
  renameSync(tmp, join(dir, 'data.p'));
}

export interface PillarService {
  env(ctx: CommandContext): CompileEnv;
  cache?: PillarCache;
}

/** The `_pillar` handler: the compiled pillar, or false for a load without `id`/`grains`. */
export async function handlePillar(
  load: Record<string, unknown>,
  ctx: CommandContext,
  service: PillarService,
): Promise<unknown> {
  const id = ctx.id;
  if (id === undefined) return false;
  const req = pillarRequest(load, id);
  if (!req) return false;
  const env = service.env(ctx);
  const cache = Object.keys(req.pillarOverride).length === 0 ? service.cache : undefined;
  const key = PillarCache.key(id, requestPillarenv(req, env.options));
  if (load.clean_cache) service.cache?.clear(id);
  let pillar = cache?.get(key);
  if (!pillar) {
    pillar = await compilePillar(req, env);
    cache?.set(key, pillar);
  }
  if (ctx.config.minion_data_cache) {
    storeMinionData(ctx.config.cachedir, id, req.grains, pillar);
    ctx.fire(`minion/refresh/${id}`, { 'Minion data cache refresh': id });
  }
  return pillar;
}
