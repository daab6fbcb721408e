/**
 * Salt's `FileserverUpdate.fill_buckets` (salt/master.py): the update process runs one timer
 * per distinct interval; a backend with per-part intervals (gitfs remotes' `update_interval`)
 * puts each part in the bucket of its interval, any other backend updates whole every
 * `gitfs_update_interval` seconds.
 */
import type { FileServerBackend } from './backend-kind.js';

/** What one timer updates: backends, each whole (`ids` undefined) or only some parts. */
export type UpdateBucket = Array<{ name: string; backend: FileServerBackend; ids?: string[] }>;

/** Interval in seconds → what updates on it, for the backends that can update. */
export function updateBuckets(
  backends: readonly { name: string; backend: FileServerBackend }[],
  defaultInterval: number,
): Map<number, UpdateBucket> {
  const buckets = new Map<number, UpdateBucket>();
  const bucket = (interval: number) => {
    const b = buckets.get(interval) ?? [];
    buckets.set(interval, b);
    return b;
  };
  for (const { name, backend } of backends) {
    if (!backend.update) continue;
    const intervals = backend.updateIntervals?.();
    if (!intervals) {
      bucket(defaultInterval).push({ name, backend });
      continue;
    }
    const byInterval = new Map<number, string[]>();
    for (const [id, every] of Object.entries(intervals))
      byInterval.set(every, [...(byInterval.get(every) ?? []), id]);
    for (const [every, ids] of byInterval) bucket(every).push({ name, backend, ids });
  }
  return buckets;
}

/** Runs one bucket's updates in turn; a failing backend is logged and the others still run. */
export async function runBucket(
  bucket: UpdateBucket,
  log: { error(obj: object, msg?: string): void },
): Promise<void> {
  for (const { name, backend, ids } of bucket) {
    try {
      await backend.update?.(ids);
    } catch (err) {
      log.error({ err }, `fileserver update of ${name} failed`);
    }
  }
}
