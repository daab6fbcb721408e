/**
 * What the swarm's parent and its worker processes say to each other over IPC, and the
 * counters they keep: the parent sends one {@link WorkerAssignment}, then `go` (start signing
 * in: all workers at once, for an auth storm) and `stop`; a worker answers `ready` once its
 * minions are built and sends its {@link SwarmStats} every `statsEveryMs`.
 */
import type { EncAlgo, SigAlgo } from '../../kernel/crypt/rsa.js';
import type { GrainsSpread } from './grains-spread.js';

export interface WorkerAssignment {
  type: 'assign';
  /** First minion index of this worker, and how many it hosts. */
  from: number;
  count: number;
  /** Minions in the whole swarm (ids are padded to its width). */
  total: number;
  idPrefix: string;
  masterHost: string;
  retPort: number;
  /** Overrides the publish port the master announces in its auth reply. */
  publishPort?: number;
  keysDir: string;
  /** Distinct keys to use (minion i uses key i % keyPool); default one per minion. */
  keyPool?: number;
  spread: GrainsSpread;
  authTimeoutMs: number;
  acceptanceWaitMs: number;
  returnTimeoutMs: number;
  returnTries: number;
  /** Report grains with `_pillar` after signing in (the master caches them for grain targets). */
  reportGrains: boolean;
  /** Verify the master's signature on publishes (`sign_pub_messages`). */
  verifyPublishes: boolean;
  /** Open each distinct publish once for the worker's minions (shared-publish.ts). */
  sharePublishes: boolean;
  encAlgo: EncAlgo;
  sigAlgo: SigAlgo;
  statsEveryMs: number;
  logLevel: string;
}

export type ParentMessage = WorkerAssignment | { type: 'go' } | { type: 'stop' };

export interface SwarmStats {
  minions: number;
  /** Minions holding AES and session keys now. */
  authenticated: number;
  /** Minions whose SUB socket is connecting or connected to the publish port. */
  subscribed: number;
  /** Publishes addressed to a minion of the swarm (after decryption and target matching). */
  jobs: number;
  returns: number;
  /** Sign-ins after the first (master restart, AES rotation). */
  reauths: number;
  /** Why: a publish that did not decrypt (AES key changed), a request the master refused as `bad load` (no such key or session there), or one it could not decrypt (another session there). */
  reauthsPublish: number;
  reauthsBadLoad: number;
  reauthsDecrypt: number;
  /** Failed sign-in attempts, undeliverable returns, failed handlers. */
  errors: number;
  /** Key pending or rejected answers. */
  pending: number;
}

export type WorkerMessage =
  | { type: 'ready'; worker: number }
  | { type: 'stats'; worker: number; stats: SwarmStats; lastError?: string }
  | { type: 'stopped'; worker: number; stats: SwarmStats };

export function emptyStats(): SwarmStats {
  return {
    minions: 0,
    authenticated: 0,
    subscribed: 0,
    jobs: 0,
    returns: 0,
    reauths: 0,
    reauthsPublish: 0,
    reauthsBadLoad: 0,
    reauthsDecrypt: 0,
    errors: 0,
    pending: 0,
  };
}

export function sumStats(all: Iterable<SwarmStats>): SwarmStats {
  const out = emptyStats();
  for (const s of all) for (const k of Object.keys(out) as (keyof SwarmStats)[]) out[k] += s[k];
  return out;
}

/** One readable line: `1000 minions: 1000 authenticated, 1000 subscribed, 3000 jobs, 3000 returns, 0 errors`. */
export function formatStats(s: SwarmStats, procs?: number): string {
  const parts = [
    `${s.authenticated} authenticated`,
    `${s.subscribed} subscribed`,
    `${s.jobs} jobs received`,
    `${s.returns} returns sent`,
    `${s.errors} errors`,
  ];
  if (s.reauths)
    parts.push(
      `${s.reauths} re-auths (publish ${s.reauthsPublish}, bad load ${s.reauthsBadLoad}, request not decrypted ${s.reauthsDecrypt})`,
    );
  if (s.pending) parts.push(`${s.pending} pending/rejected answers`);
  const where = procs !== undefined ? ` in ${procs} process${procs === 1 ? '' : 'es'}` : '';
  return `${s.minions} minions${where}: ${parts.join(', ')}`;
}

/**
 * How many worker processes for `count` minions: each minion holds two TCP connections of
 * tsalt's own ZMTP (its SUB and its request connection, the one its sign-ins and returns share),
 * one file descriptor each; at most `perProc` minions per process keeps a worker near
 * 2 x 2,500 = 5,000 descriptors, well inside the 20,000 allowed, and spreads the minions' CPU
 * over processes.
 */
export function defaultProcs(count: number, perProc = 2500): number {
  return Math.max(1, Math.ceil(count / perProc));
}

/** Splits `count` minions over `procs` workers as evenly as possible: `[from, count]` pairs. */
export function splitRange(count: number, procs: number): Array<[number, number]> {
  const n = Math.max(1, Math.min(procs, count));
  const base = Math.floor(count / n);
  const extra = count % n;
  const out: Array<[number, number]> = [];
  let from = 0;
  for (let i = 0; i < n; i++) {
    const c = base + (i < extra ? 1 : 0);
    out.push([from, c]);
    from += c;
  }
  return out;
}
