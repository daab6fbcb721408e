/**
 * Pausing and killing a running state run between states (Salt's `State.check_pause` in
 * `salt/state.py`, driven by `state.pause`, `state.resume` and `state.soft_kill`): before each
 * top-level chunk the runtime reads `<cachedir>/state_pause/<jid>`, a msgpack map of state id
 * (or `__all__`) to `{duration?, kill?}`; an entry with `kill` ends the run, one with
 * `duration` waits that many seconds at most, one without either waits until it changes. The
 * file is removed when the run ends (Salt's `call_high`).
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { unpackIpc } from '../../../kernel/util.js';
import type { Low, Run } from './run-state.js';

/** Where `state.pause`/`state.soft_kill` write for this job; undefined without a cachedir or jid. */
export function pausePath(run: Run): string | undefined {
  const cachedir = run.rc.exec.opts.cachedir;
  const jid = run.rc.exec.jid;
  if (typeof cachedir !== 'string' || !jid) return undefined;
  return join(cachedir, 'state_pause', jid);
}

async function readPause(path: string): Promise<Record<string, Record<string, unknown>> | undefined> {
  try {
    const data = unpackIpc(await readFile(path));
    return data && typeof data === 'object' ? (data as Record<string, Record<string, unknown>>) : undefined;
  } catch {
    return undefined;
  }
}

/** Salt's `check_pause`: `run`, or `kill` when the run must stop before `low`. */
export async function checkPause(run: Run, low: Low): Promise<'run' | 'kill'> {
  const path = pausePath(run);
  if (!path) return 'run';
  const start = Date.now();
  for (;;) {
    const data = await readPause(path);
    if (!data) return 'run';
    const key = low.__id__ in data ? low.__id__ : '__all__' in data ? '__all__' : '';
    if (!key) return 'run';
    const entry = data[key] ?? {};
    if ('duration' in entry && (Date.now() - start) / 1000 > Number(entry.duration)) return 'run';
    if ('kill' in entry) return 'kill';
    await sleep(1000, undefined, { signal: run.rc.exec.signal });
  }
}

/** Removes the job's pause file at the end of a run. */
export async function clearPause(run: Run): Promise<void> {
  const path = pausePath(run);
  if (path) await rm(path, { force: true });
}
