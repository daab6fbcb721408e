/**
 * Returners: where returns, job loads and events go (Salt's `salt/returners/*`). A returner
 * implements `returner`; a job store (usable as `master_job_cache`) also implements the job
 * methods; `eventReturn` makes it usable for `event_return`. Method names and meanings follow
 * Salt's returner interface, in camelCase.
 */
import type { z } from 'zod';
import type { UnitLogger, VirtualResult } from '../loader/define.js';
import type { JobReturn, PublishRequest, SaltEvent } from './types.js';

/** What a returner's methods receive besides their data. */
export interface ReturnerContext<O = Readonly<Record<string, unknown>>> {
  /** The daemon's resolved config (read-only). */
  readonly opts: Readonly<Record<string, unknown>>;
  readonly log: UnitLogger;
  /**
   * The returner's own options, validated by its `options` schema: read from the config
   * (`<name>.<key>` or `returner.<name>.<key>` as in Salt; with `ret_config: X`,
   * `X.<name>.<key>` first) and overridden by the job's `ret_kwargs`.
   */
  readonly options: O;
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

/** A job load as stored, with the minions it targeted (Salt's `get_load` answer). */
export type StoredLoad = PublishRequest & { Minions?: string[] };

/** One job in a listing: Salt's `format_jid_instance` shape. */
export interface JobSummary {
  Function: string | string[];
  Arguments: unknown[];
  Target: string | string[];
  'Target-type': string;
  User: string;
  /** Salt's `jid_to_time` text, e.g. `2026, Nov 22 13:31:05.123456`. */
  StartTime: string;
  /** The targeted minions, when the store knows them. */
  Minions?: string[];
}

/** A search over stored jobs (`jobs.list_jobs`). Every given field must match. */
export interface JobQuery {
  /** Glob(s) matched against the job's function name(s). */
  searchFunction?: string | readonly string[];
  /** Glob(s) matched against the job's target (or one of its targeted minions). */
  searchTarget?: string | readonly string[];
  /** Only jobs started at or after this time. */
  startTime?: Date;
  /** Only jobs started at or before this time. */
  endTime?: Date;
  /** At most this many jobs, newest first. */
  limit?: number;
}

/**
 * A returner. `returner` is required; everything else is optional, as in Salt.
 * `O` is the type of its validated options.
 */
export interface ReturnerDef<O = Readonly<Record<string, unknown>>> {
  name: string;
  /** One line about what it stores and where. */
  doc?: string;
  /** zod schema of the returner's options; bad options are a clear error naming the returner. */
  options?: z.ZodType<O>;
  /** Whether this returner can run here (a missing client library, a missing setting). */
  virtual?(ctx: ReturnerContext<O>): VirtualResult | Promise<VirtualResult>;
  /** Stores one minion's return. */
  returner(ret: JobReturn, ctx: ReturnerContext<O>): Promise<void>;
  /** Allocates and reserves a new jid (or reserves `passedJid`). */
  prepJid?(ctx: ReturnerContext<O>, opts?: { nocache?: boolean; passedJid?: string }): Promise<string>;
  /** Stores a job's publish load and its target minions. */
  saveLoad?(
    jid: string,
    load: PublishRequest,
    minions: readonly string[],
    ctx: ReturnerContext<O>,
  ): Promise<void>;
  /** Adds minions to a job's target list (Salt's `save_minions`, used by syndics and batches). */
  saveMinions?(jid: string, minions: readonly string[], ctx: ReturnerContext<O>): Promise<void>;
  /** The load of a job, or undefined when unknown. */
  getLoad?(jid: string, ctx: ReturnerContext<O>): Promise<StoredLoad | undefined>;
  /** The returns of a job, by minion id (empty when none or unknown). */
  getJid?(jid: string, ctx: ReturnerContext<O>): Promise<Record<string, StoredReturn>>;
  /** For each minion, the jid of the last job that ran `fun` on it (Salt's `get_fun`). */
  getFun?(fun: string, ctx: ReturnerContext<O>): Promise<Record<string, string>>;
  /** Every stored job, by jid. */
  getJids?(ctx: ReturnerContext<O>): Promise<Record<string, JobSummary>>;
  /**
   * Jobs matching a query, newest first, by jid: a store that can search should implement it;
   * otherwise callers filter `getJids`.
   */
  listJobs?(query: JobQuery, ctx: ReturnerContext<O>): Promise<Array<JobSummary & { jid: string }>>;
  /** Every minion that has stored a return. */
  getMinions?(ctx: ReturnerContext<O>): Promise<string[]>;
  /**
   * Records that a targeted minion did not return. Never replaces a real return, and a real
   * return that arrives later is still accepted.
   */
  saveEndState?(jid: string, id: string, state: EndState, ctx: ReturnerContext<O>): Promise<void>;
  /** Removes jobs older than `keepSeconds`; returns how many were removed. */
  cleanOldJobs?(keepSeconds: number, ctx: ReturnerContext<O>): Promise<number>;
  /** Stores a batch of bus events (`event_return`). */
  eventReturn?(events: readonly SaltEvent[], ctx: ReturnerContext<O>): Promise<void>;
  /** Releases connections and flushes buffers; called once when the daemon stops. */
  close?(ctx: ReturnerContext<O>): Promise<void>;
}

/**
 * Types a returner; `options` (a zod schema) types `ctx.options` in every method.
 * @example
 * export default defineReturner({
 *   name: 'stdout',
 *   async returner(ret) { process.stdout.write(`${JSON.stringify(ret)}\n`); },
 * });
 */
export function defineReturner<O = Readonly<Record<string, unknown>>>(def: ReturnerDef<O>): ReturnerDef<O> {
  return def;
}
