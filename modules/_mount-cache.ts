/**
 * Salt's mount cache (`salt/utils/mount.py`): `<cachedir>/mounts`, a YAML mapping
 * `{mounts: {<mount point>: {device, fstype, mkmnt, opts}}}` that `mount.mounted` keeps of the
 * options it mounted with, to remount when one goes missing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { isMapping } from './_traverse.js';
import { pyYamlDump } from './_yaml-dump.js';

type Cache = { mounts?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

const cacheFile = (ctx: ExecContext) => join(String(ctx.opts.cachedir ?? '/var/cache/salt/minion'), 'mounts');

export function readMountCache(ctx: ExecContext): Cache {
  try {
    const yaml = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    const got: unknown = yaml.parse(readFileSync(cacheFile(ctx), 'utf8'));
    return isMapping(got) ? (got as Cache) : {};
  } catch {
    return {};
  }
}

export function writeMountCache(ctx: ExecContext, cache: Cache): boolean {
  try {
    writeFileSync(cacheFile(ctx), pyYamlDump(cache));
    return true;
  } catch (err) {
    ctx.log.error(`Failed to cache mounts: ${(err as Error).message}`);
    return false;
  }
}
