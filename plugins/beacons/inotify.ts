/**
 * The `inotify` beacon (Salt's `salt/beacons/inotify.py`, there through pyinotify; here through
 * `inotifywait -m`, plugins/beacons/_inotifywait.ts). Each path under `files` is watched for its
 * `mask` (inotify's event names; `create`, `delete` and `modify` by default), with `recurse` and
 * `auto_add` for folders; `exclude` drops events by path prefix, glob or `{<regex>: {regex: True}}`.
 * The first run sets the watches up (a path that does not exist yet is tried again at each run);
 * later runs fire each event since the last as `{path, change}` (`change` like `IN_MODIFY` or
 * `IN_CREATE|IN_ISDIR`), tagged with the watched folder's path. `coalesce` merges repeats.
 *
 *   beacons:
 *     inotify:
 *       - files:
 *           /etc/important_file: { mask: [modify] }
 *           /opt: { mask: [create, delete], recurse: True, auto_add: True, exclude: [/opt/tmp] }
 *       - disable_during_state_run: True
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defineBeacon } from '../../kernel/index.js';
import { startWatch, type Watch, type WatchEvent } from './_inotifywait.js';

const VALID_MASK = [
  'access',
  'attrib',
  'close_nowrite',
  'close_write',
  'create',
  'delete',
  'delete_self',
  'excl_unlink',
  'ignored',
  'modify',
  'moved_from',
  'moved_to',
  'move_self',
  'oneshot',
  'onlydir',
  'open',
  'unmount',
];
// watch flags, not events: inotifywait has no name for them
const FLAGS_ONLY = new Set(['excl_unlink', 'ignored', 'oneshot', 'onlydir']);
const DEFAULT_MASK = ['create', 'delete', 'modify'];

type PathConfig = Record<string, unknown>;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validate(config: Readonly<Record<string, unknown>>): true | string {
  if (!('files' in config)) return 'Configuration for inotify beacon must include files.';
  const files = config.files;
  if (!isMap(files)) return 'Configuration for inotify beacon invalid, files must be a dict.';
  for (const spec of Object.values(files)) {
    if (!isMap(spec)) return 'Configuration for inotify beacon must be a list of dictionaries.';
    if (!['mask', 'recurse', 'auto_add'].some((k) => k in spec))
      return 'Configuration for inotify beacon must contain mask, recurse or auto_add items.';
    if ('auto_add' in spec && typeof spec.auto_add !== 'boolean')
      return 'Configuration for inotify beacon auto_add must be boolean.';
    if ('recurse' in spec && typeof spec.recurse !== 'boolean')
      return 'Configuration for inotify beacon recurse must be boolean.';
    if ('mask' in spec) {
      if (!Array.isArray(spec.mask)) return 'Configuration for inotify beacon mask must be list.';
      for (const m of spec.mask)
        if (!VALID_MASK.includes(m as string))
          return `Configuration for inotify beacon invalid mask option ${String(m)}.`;
    }
  }
  return true;
}

/** Python's fnmatch on a whole path (`*` crosses `/`). */
function fnmatch(name: string, pattern: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 's').test(name);
}

function excluded(pathname: string, excludes: unknown, log: (msg: string) => void): boolean {
  if (!Array.isArray(excludes)) return false;
  let out = false;
  for (const ex of excludes) {
    if (isMap(ex)) {
      const [pattern] = Object.keys(ex);
      if (pattern !== undefined && isMap(ex[pattern]) && (ex[pattern] as PathConfig).regex) {
        try {
          if (new RegExp(pattern).test(pathname)) out = true;
        } catch {
          log(`Failed to compile regex: ${pattern}`);
        }
      }
    } else if (typeof ex === 'string') {
      if (ex.includes('*') ? fnmatch(pathname, ex) : pathname.startsWith(ex)) out = true;
    }
  }
  return out;
}

/** The configured path an event belongs to: its watch's path or the nearest configured parent. */
function configuredPath(watched: string, files: Record<string, unknown>): string {
  let path = watched;
  while (path !== '/') {
    if (path in files) break;
    const up = dirname(path);
    if (up === path) break;
    path = up;
  }
  return path;
}

interface Watched {
  sig: string;
  watch: Watch;
  /** The folders pyinotify would be watching: the path (its tree under `recurse`), and auto-added ones. */
  known: Set<string>;
  autoAdd: boolean;
}

const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);

function treeOf(path: string, recurse: boolean): Set<string> {
  const known = new Set([trim(path)]);
  if (!recurse || !statSync(path).isDirectory()) return known;
  for (const e of readdirSync(path, { recursive: true, withFileTypes: true }))
    if (e.isDirectory()) known.add(join(e.parentPath, e.name));
  return known;
}

/**
 * inotifywait watches every folder of the tree as it comes; pyinotify only the ones it was given
 * (`recurse`) and, under `auto_add`, a new folder once it reads that folder's creation, then
 * reporting what the folder already holds as created, after the events read with it.
 */
function asPyinotify(w: Watched, raw: WatchEvent[]): WatchEvent[] {
  const out: WatchEvent[] = [];
  const added = new Set<string>();
  const queue = [...raw];
  for (let i = 0; i < queue.length; i++) {
    const ev = queue[i]!;
    if (!w.known.has(ev.watched) || (added.has(ev.watched) && i < raw.length)) continue;
    out.push(ev);
    const dir = join(ev.watched, ev.name);
    if (!w.autoAdd || !ev.flags.includes('CREATE') || !ev.flags.includes('ISDIR') || w.known.has(dir))
      continue;
    w.known.add(dir);
    added.add(dir);
    try {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isFile()) queue.push({ watched: dir, name: e.name, flags: ['CREATE'] });
        else if (e.isDirectory()) queue.push({ watched: dir, name: e.name, flags: ['CREATE', 'ISDIR'] });
      }
    } catch {
      // gone again before it was read, as pyinotify finds it
    }
  }
  return out;
}

function watchesOf(state: Map<string, unknown>): Map<string, Watched> {
  let w = state.get('watches') as Map<string, Watched> | undefined;
  if (!w) {
    w = new Map();
    state.set('watches', w);
  }
  return w;
}

/** Ends every watch a beacon's state holds (the beacon stopping or pausing, tests). */
export function closeInotify(state: Map<string, unknown>): void {
  for (const { watch } of watchesOf(state).values()) watch.stop();
  state.delete('watches');
}

export default defineBeacon({
  name: 'inotify',
  doc: 'Emit the inotify events on the configured files and folders.',
  validate,
  close: closeInotify,
  async beacon(ctx, config) {
    const files = isMap(config.files) ? config.files : {};
    const watches = watchesOf(ctx.state);
    const raw: WatchEvent[] = [];
    for (const w of watches.values()) raw.push(...asPyinotify(w, w.watch.drain()));
    const ret: Array<{ tag: string; path: string; change: string }> = [];
    const seen = new Set<string>();
    for (const ev of raw) {
      const pathname = ev.name ? resolve(ev.watched, ev.name) : resolve(ev.watched);
      const change = ev.flags.map((f) => `IN_${f}`).join('|');
      if (config.coalesce === true) {
        const key = `${ev.watched}\0${pathname}\0${change}`;
        if (seen.has(key)) continue;
        seen.add(key);
      }
      const path = configuredPath(ev.watched, files);
      const spec = files[path];
      if (excluded(pathname, isMap(spec) ? spec.exclude : undefined, (m) => ctx.log.warn({ path }, m))) {
        ctx.log.info({ path }, `Excluding ${pathname} from event for ${path}`);
        continue;
      }
      ret.push({ tag: ev.watched, path: pathname, change });
    }
    for (const [path, specRaw] of Object.entries(files)) {
      const spec: PathConfig = isMap(specRaw) ? specRaw : {};
      const mask = Array.isArray(spec.mask) ? (spec.mask as string[]) : DEFAULT_MASK;
      const events = mask.filter((m) => !FLAGS_ONLY.has(m));
      const recursive = spec.recurse === true || spec.auto_add === true;
      const sig = JSON.stringify([events, recursive]);
      const have = watches.get(path);
      if (have?.sig === sig) continue;
      have?.watch.stop();
      watches.delete(path);
      if (!existsSync(path) || events.length === 0) continue;
      try {
        const known = treeOf(path, spec.recurse === true);
        const watch = await startWatch(path, events, recursive);
        watches.set(path, { sig, watch, known, autoAdd: spec.auto_add === true });
      } catch (err) {
        ctx.log.warn({ path, err: (err as Error).message }, `Unable to watch ${path}`);
      }
    }
    return ret;
  },
});
