/**
 * One `inotifywait -m` (Debian's inotify-tools) child for the file-watching beacons: the kernel's
 * inotify events on a path, queued until the next beacon run drains them. The child is run under
 * a shell that ends it when the minion goes away (its stdin closes), so no watcher outlives it.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface WatchEvent {
  /** The watched path the event came through (a subfolder's own path under `recursive`). */
  watched: string;
  /** The entry's name inside it, '' for the watched path itself. */
  name: string;
  /** inotify's flags without `IN_`, as inotifywait prints them: `CREATE`, `ISDIR`, … */
  flags: string[];
}

export interface Watch {
  readonly path: string;
  drain(): WatchEvent[];
  stop(): void;
}

// inotifywait's aliases it adds beside the real flag (CLOSE after CLOSE_WRITE, MOVE after MOVED_TO)
const ALIASES = new Set(['CLOSE', 'MOVE']);

function parse(buffer: string, queue: WatchEvent[]): string {
  let rest = buffer;
  for (;;) {
    const parts = rest.split('\0');
    if (parts.length < 4) return rest;
    const [watched = '', name = '', flags = ''] = parts;
    queue.push({
      watched: watched.length > 1 ? watched.replace(/\/+$/, '') : watched,
      name,
      flags: flags.split(',').filter((f) => f !== '' && !ALIASES.has(f)),
    });
    rest = parts.slice(3).join('\0').replace(/^\n/, '');
  }
}

// runs inotifywait, ends it when our end of stdin closes, and exits with its status
const SUPERVISE =
  'exec 3<&0; inotifywait "$@" & p=$!; { read _ <&3; kill $p 2>/dev/null; } & r=$!; wait $p; s=$?; kill $r 2>/dev/null; exit $s';

/**
 * Starts watching `path` for `events` (inotifywait's names: `create`, `modify`, …), resolving once
 * the watches are in place; rejects when inotifywait cannot run or refuses the path.
 */
export function startWatch(path: string, events: readonly string[], recursive: boolean): Promise<Watch> {
  const args = ['-m', '--format', '%w%0%f%0%e%0', ...events.flatMap((e) => ['-e', e])];
  if (recursive) args.push('-r');
  args.push('--', path);
  const child: ChildProcess = spawn('sh', ['-c', SUPERVISE, 'sh', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const queue: WatchEvent[] = [];
  let pending = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    pending = parse(pending + chunk, queue);
  });
  const stop = () => {
    child.stdin?.end();
    child.kill();
  };
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      err += chunk;
      if (err.includes('Watches established.')) {
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve({ path, drain: () => queue.splice(0, queue.length), stop });
      }
    });
    child.on('error', (e) => reject(e));
    child.on('exit', () => reject(new Error(err.trim() || `inotifywait stopped watching ${path}`)));
  });
}
