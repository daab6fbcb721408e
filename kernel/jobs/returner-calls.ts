/**
 * Calling returners the way Salt's minion and master do: each named returner in turn, a
 * failing, missing or hanging one logged with its name and never stopping the others or the
 * job. Salt's log texts are kept (`Returner x.returner could not be loaded: ...`,
 * `The return failed for job <jid>: ...`).
 */
import { SALT_ERR_RETURNER_FAILED } from '../errors.js';
import type { UnitLogger } from '../loader/define.js';
import type { ReturnerLoader } from '../loader/returner-loader.js';
import type { ReturnerCallOptions } from './returner-options.js';
import type { JobReturn } from './types.js';

/** Default bound on one returner call. */
export const RETURNER_TIMEOUT_MS = 30_000;

/** `work`, or SALT_ERR_RETURNER_FAILED after `ms`; the timer never keeps the process alive. */
export async function withinTime<T>(work: Promise<T>, ms: number, name: string, method: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new SALT_ERR_RETURNER_FAILED(name, method, `no answer in ${Math.round(ms / 1000)} s`)),
      ms,
    );
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Comma-separated returner names (`salt --return a,b`), deduplicated, in order. */
export function returnerNames(...lists: ReadonlyArray<string | readonly string[] | undefined>): string[] {
  const out: string[] = [];
  for (const list of lists) {
    const items = typeof list === 'string' ? list.split(',') : (list ?? []);
    for (const raw of items) {
      const name = String(raw).trim();
      if (name && !out.includes(name)) out.push(name);
    }
  }
  return out;
}

/** What happened to one returner call. */
export interface ReturnerOutcome {
  name: string;
  ok: boolean;
  error?: string;
}

/** Sends `ret` to each returner in `names`; resolves when all have finished or failed. */
export async function sendToReturners(
  loader: ReturnerLoader,
  names: readonly string[],
  ret: JobReturn,
  call: ReturnerCallOptions,
  log: UnitLogger,
  timeoutMs = RETURNER_TIMEOUT_MS,
): Promise<ReturnerOutcome[]> {
  const outcomes: ReturnerOutcome[] = [];
  for (const name of names) {
    let loaded: Awaited<ReturnType<ReturnerLoader['get']>>;
    try {
      loaded = await loader.get(name);
    } catch (err) {
      const error = (err as Error).message;
      log.error({ returner: name, jid: ret.jid }, `Returner ${name}.returner could not be loaded: ${error}`);
      outcomes.push({ name, ok: false, error });
      continue;
    }
    try {
      const ctx = loader.context(loaded.def, call);
      await withinTime(loaded.def.returner(ret, ctx), timeoutMs, name, 'returner');
      outcomes.push({ name, ok: true });
    } catch (err) {
      const error = (err as Error).message;
      log.error(
        { returner: name, jid: ret.jid, err: error },
        `The return failed for job ${ret.jid}: ${error}`,
      );
      outcomes.push({ name, ok: false, error });
    }
  }
  return outcomes;
}
