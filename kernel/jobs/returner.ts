/**
 * Returners: where returns and job loads go. The master job cache is a returner that also
 * implements the job-cache methods (Salt's `local_cache`).
 */
import type { UnitLogger } from '../loader/define.js';
import type { JobReturn, PublishRequest } from './types.js';

/** What a returner's methods receive besides their data. */
export interface ReturnerContext {
  /** The daemon's resolved config (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  readonly log: UnitLogger;
}

/**
 * How a targeted minion that did not return ended, as the client that waited saw it:
 * no live connection, connected but silent, or still running when the client stopped waiting.
 */
export type EndState = 'not_connected' | 'no_response' | 'running';

/** One minion's stored result for a job. */
export interface StoredReturn {
  return: unknown;
  retcode?: number | Record<string, number>;
  success?: boolean | Record<string, boolean>;
  out?: string;
  /** Set instead of a real return when the minion did not return (`return` holds Salt's text). */
  state?: EndState;
}

/** A returner. `returner` is required; the job-cache methods are optional. */
export interface ReturnerDef {
  name: string;
  /** Stores one minion's return. */
  returner(ret: JobReturn, ctx: ReturnerContext): Promise<void>;
  /** Allocates and reserves a new jid (job caches only). */
  prepJid?(ctx: ReturnerContext, opts?: { nocache?: boolean }): Promise<string>;
  /** Stores a job's publish load and its target minions. */
  saveLoad?(
    jid: string,
    load: PublishRequest,
    minions: readonly string[],
    ctx: ReturnerContext,
  ): Promise<void>;
  /** The load of a job, or undefined when unknown. */
  getLoad?(jid: string, ctx: ReturnerContext): Promise<(PublishRequest & { Minions?: string[] }) | undefined>;
  /** The returns of a job, by minion id. */
  getJid?(jid: string, ctx: ReturnerContext): Promise<Record<string, StoredReturn>>;
  /** All known jids with their loads' summary. */
  getJids?(ctx: ReturnerContext): Promise<Record<string, Record<string, unknown>>>;
  /**
   * Records that a targeted minion did not return. Never replaces a real return, and a real
   * return that arrives later is still accepted.
   */
  saveEndState?(jid: string, id: string, state: EndState, ctx: ReturnerContext): Promise<void>;
  /** Removes jobs older than `keepSeconds`; returns how many were removed. */
  cleanOld?(keepSeconds: number, ctx: ReturnerContext): Promise<number>;
}

/**
 * Types a returner.
 * @example
 * export default defineReturner({
 *   name: 'stdout',
 *   async returner(ret) { process.stdout.write(`${JSON.stringify(ret)}\n`); },
 * });
 */
export function defineReturner<R extends ReturnerDef>(def: R): R {
  return def;
}
