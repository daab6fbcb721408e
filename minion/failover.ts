/**
 * Salt's `master_type: failover` (Salt's `eval_master` and its `__master_alive` /
 * `__master_failback` schedule entries): the minion signs in to the first master of its list
 * that answers; every `master_alive_interval` seconds it checks that its master's request port
 * still takes a connection, and when it does not, it moves to the next master of the list that
 * does (round the list). With `master_failback`, while on another master it checks the first one
 * every `master_failback_interval` seconds and goes back once it answers.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';

/** Whether host:port takes a TCP connection within `timeoutMs`. */
export function reachable(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The index of the first master answering, trying them in order from `from` (round the list) until one does. */
export async function firstAlive(
  masters: readonly string[],
  port: number,
  from: number,
  opts: { signal: AbortSignal; log: Logger; probeMs: number },
): Promise<number> {
  for (let round = 0; ; round++) {
    for (let k = 0; k < masters.length; k++) {
      const i = (from + k) % masters.length;
      if (opts.signal.aborted) throw new Error('minion stopped');
      if (await reachable(masters[i]!, port, opts.probeMs)) return i;
    }
    if (round === 0) opts.log.warn({ masters }, 'no master of the list answers; retrying');
    await sleep(1000, undefined, { signal: opts.signal }).catch(() => undefined);
  }
}

export interface FailoverWatchOptions {
  masters: readonly string[];
  port: number;
  aliveIntervalS: number;
  failback: boolean;
  failbackIntervalS: number;
  log: Logger;
  /** The master in use now. */
  current(): number;
  /** Signs in to master `index` and switches to it; rejects when it cannot. */
  switchTo(index: number, why: 'failover' | 'failback'): Promise<void>;
}

/**
 * Watches the master in use; `stop` ends the watch. The alive check and the failback check run one
 * at a time, in the order their timers fire: a check due while the other runs waits for it instead
 * of being skipped (with equal intervals, skipping starved the failback check, which always fired
 * while the alive check held the turn).
 */
export function watchMasters(o: FailoverWatchOptions): { stop(): void } {
  const stop = new AbortController();
  const probeMs = Math.max(1000, Math.min(o.aliveIntervalS * 1000, 5000));
  const alive = async (): Promise<void> => {
    const at = o.current();
    if (await reachable(o.masters[at]!, o.port, probeMs)) return;
    o.log.warn({ master: o.masters[at] }, 'the master does not answer; failing over to the next one');
    const next = await firstAlive(o.masters, o.port, (at + 1) % o.masters.length, {
      signal: stop.signal,
      log: o.log,
      probeMs,
    });
    await o.switchTo(next, 'failover');
  };
  const back = async (): Promise<void> => {
    if (o.current() === 0 || !(await reachable(o.masters[0]!, o.port, probeMs))) return;
    o.log.info({ master: o.masters[0] }, 'the first master answers again; failing back');
    await o.switchTo(0, 'failback');
  };
  const turns = serialTurns(stop.signal, o.log);
  const aliveTimer = setInterval(() => turns.run('failover', alive), o.aliveIntervalS * 1000);
  const failbackTimer = o.failback
    ? setInterval(() => turns.run('failback', back), (o.failbackIntervalS || o.aliveIntervalS) * 1000)
    : undefined;
  return {
    stop() {
      stop.abort();
      clearInterval(aliveTimer);
      clearInterval(failbackTimer);
    },
  };
}

/** Runs named checks one after another; a check already waiting or running is not queued twice. */
function serialTurns(
  signal: AbortSignal,
  log: Logger,
): { run(name: string, check: () => Promise<void>): void } {
  const queued = new Set<string>();
  let tail: Promise<void> = Promise.resolve();
  return {
    run(name, check) {
      if (queued.has(name) || signal.aborted) return;
      queued.add(name);
      tail = tail.then(async () => {
        try {
          if (!signal.aborted) await check();
        } catch (err) {
          if (!signal.aborted)
            log.warn({ err: (err as Error).message }, `${name} did not complete; retrying`);
        } finally {
          queued.delete(name);
        }
      });
    },
  };
}
