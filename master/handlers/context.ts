/**
 * What a request handler needs from the request server worker it runs in, and the effects it
 * hands back (publishes and events are sent by the worker's host thread, which owns the sockets).
 */

import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import type { MasterJobCache } from '../../kernel/jobs/master-job-cache.js';
import type { PublishLoad } from '../../kernel/jobs/types.js';
import type { Kernel } from '../../kernel/kernel.js';
import type { ReturnerLoader } from '../../kernel/loader/returner-loader.js';
import type { KeyCache, SignedInKeys } from '../key-cache.js';

export interface MasterKeys {
  privatePem: string;
  /** `master.pub`, cleaned (trimmed), as sent to minions. */
  publicPem: string;
}

export interface HandlerEnv {
  readonly config: ResolvedMasterConfig;
  readonly kernel: Kernel;
  readonly keys: MasterKeys;
  readonly cache: KeyCache;
  /** The master job cache (`master_job_cache`) with its context. */
  readonly jobCache: MasterJobCache;
  /** Every other returner this master may call (`ext_job_cache`, `event_return`). */
  readonly returners: ReturnerLoader;
  /** The current AES key string (re-read after a rotation). */
  aesKey(): string;
  /** Valid user keys (`.<user>_key` contents) that may publish. */
  userKeys(): readonly string[];
}

/** Side effects a handler asks its host to perform, in order, after it returns. */
export interface Effects {
  publishes: PublishLoad[];
  events: { tag: string; data: Record<string, unknown> }[];
  /**
   * Minions signed in (key, session and the mtimes of their files as this thread saw them): the
   * host thread takes them into its own caches, so that their next requests, which it handles
   * itself, need no file read.
   */
  signIns: SignedInKeys[];
}

export function newEffects(): Effects {
  return { publishes: [], events: [], signIns: [] };
}
