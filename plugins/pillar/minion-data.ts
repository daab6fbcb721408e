/**
 * `_pillar`: the minion reports its grains (kept in the minion data cache, Salt's
 * `<cachedir>/minions/<id>/data.p`, for targeting) and gets its pillar back (sent privately by
 * the kernel, PROTOCOL.md §3). tsalt has no pillar sources yet: the pillar is empty.
 */

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { CommandContext } from '../../kernel/index.js';
import { isStringMap, packIpc } from '../../kernel/util.js';

/** Stores the minion's grains in the minion data cache; returns the minion's pillar. */
export function handlePillar(load: Record<string, unknown>, ctx: CommandContext): unknown {
  const pillar = {};
  const id = ctx.id;
  if (id !== undefined && isStringMap(load.grains)) {
    // synchronous: this runs in a request worker, and a start-up storm brings one per minion
    const dir = join(ctx.config.cachedir, 'minions', id);
    mkdirSync(dir, { recursive: true });
    const tmp = join(dir, `.data.p.${process.pid}.${threadId}`);
    writeFileSync(tmp, packIpc({ grains: load.grains, pillar }));
    renameSync(tmp, join(dir, 'data.p'));
    ctx.fire(`minion/refresh/${id}`, { 'Minion data cache refresh': id });
  }
  return pillar;
}
