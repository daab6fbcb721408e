/**
 * The `watchdog` beacon (Salt's `salt/beacons/watchdog.py`, there through the python watchdog
 * library's observer; here through `inotifywait -m`, plugins/beacons/_inotifywait.ts, read as
 * that observer reads inotify on Linux). Each folder under `directories` is watched (not its
 * subfolders) for its `mask` (`create`, `modify`, `delete`, `move`; all by default); the first
 * run starts the watches, later runs fire each event since the last as
 * `{path, change: created|modified|deleted|moved}` tagged `watchdog`. Like the observer, an entry
 * created, deleted or moved, or a file closed after writing, also reports its folder modified.
 *
 *   beacons:
 *     watchdog:
 *       - directories:
 *           /path/to/dir: { mask: [create, modify, delete, move] }
 */
import { dirname, join } from 'node:path';
import { defineBeacon } from '../../kernel/index.js';
import { startWatch, type Watch, type WatchEvent } from './_inotifywait.js';

const DEFAULT_MASK = ['create', 'delete', 'modify', 'move'];
const VALID_MASK = ['create', 'modify', 'delete', 'move'];
const EVENTS = [
  'create',
  'delete',
  'modify',
  'attrib',
  'close_write',
  'moved_from',
  'moved_to',
  'delete_self',
  'move_self',
];
const MASK_OF: Record<string, string> = {
  created: 'create',
  modified: 'modify',
  deleted: 'delete',
  moved: 'move',
};

type Change = { path: string; change: string };

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validate(config: Readonly<Record<string, unknown>>): true | string {
  if (!('directories' in config)) return 'Configuration for watchdog beacon must include directories.';
  if (!isMap(config.directories))
    return 'Configuration for watchdog beacon directories must be a dictionary.';
  for (const spec of Object.values(config.directories)) {
    if (!isMap(spec)) return 'Configuration for watchdog beacon directory path must be a dictionary.';
    if ('mask' in spec) {
      if (!Array.isArray(spec.mask)) return 'Configuration for watchdog beacon mask must be list.';
      if (spec.mask.some((m) => !VALID_MASK.includes(m as string)))
        return 'Configuration for watchdog beacon contains invalid mask';
    }
  }
  return true;
}

/** The observer's events for inotify's, in its order (a move pairs MOVED_FROM with MOVED_TO). */
export function observerEvents(raw: readonly WatchEvent[]): Change[] {
  const out: Change[] = [];
  const push = (path: string, change: string) => {
    const last = out[out.length - 1];
    // the observer's queue skips an event repeating the one before it
    if (last?.path !== path || last.change !== change) out.push({ path, change });
  };
  for (let i = 0; i < raw.length; i++) {
    const ev = raw[i]!;
    const src = ev.name ? join(ev.watched, ev.name) : ev.watched;
    const has = (f: string) => ev.flags.includes(f);
    if (has('MOVED_FROM')) {
      const next = raw[i + 1];
      if (next?.flags.includes('MOVED_TO')) {
        const dest = join(next.watched, next.name);
        push(src, 'moved');
        push(dirname(src), 'modified');
        push(dirname(dest), 'modified');
        i++;
      } else {
        push(src, 'deleted');
        push(dirname(src), 'modified');
      }
    } else if (has('MOVED_TO') || has('CREATE')) {
      push(src, 'created');
      push(dirname(src), 'modified');
    } else if (has('MODIFY') || has('ATTRIB')) push(src, 'modified');
    else if (has('CLOSE_WRITE') && !has('ISDIR')) push(dirname(src), 'modified');
    else if (has('DELETE')) {
      push(src, 'deleted');
      push(dirname(src), 'modified');
    } else if (has('DELETE_SELF') || has('MOVE_SELF')) push(src, 'deleted');
  }
  return out;
}

/** Ends the watches a beacon's state holds (the beacon stopping or pausing, tests). */
export function closeWatchdog(state: Map<string, unknown>): void {
  for (const w of (state.get('watches') as Array<{ watch: Watch }> | undefined) ?? []) w.watch.stop();
  state.delete('watches');
}

export default defineBeacon({
  name: 'watchdog',
  doc: 'Emit the changes in the configured folders.',
  validate,
  close: closeWatchdog,
  async beacon(ctx, config) {
    let watches = ctx.state.get('watches') as Array<{ watch: Watch; masks: string[] }> | undefined;
    if (!watches) {
      // the observer starts whole or not at all (tried again at the next run)
      const started: Array<{ watch: Watch; masks: string[] }> = [];
      try {
        for (const [path, spec] of Object.entries(isMap(config.directories) ? config.directories : {})) {
          const masks = isMap(spec) && Array.isArray(spec.mask) ? (spec.mask as string[]) : DEFAULT_MASK;
          started.push({ watch: await startWatch(path, EVENTS, false), masks });
        }
      } catch (err) {
        for (const w of started) w.watch.stop();
        throw err;
      }
      watches = started;
      ctx.state.set('watches', watches);
    }
    const ret: Array<Change & { tag: string }> = [];
    for (const { watch, masks } of watches) {
      for (const ev of observerEvents(watch.drain()))
        if (masks.includes(MASK_OF[ev.change] ?? '')) ret.push({ tag: 'watchdog', ...ev });
    }
    return ret;
  },
});
