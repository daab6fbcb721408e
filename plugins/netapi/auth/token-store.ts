/**
 * eauth tokens on the master, as Salt's `localfs` token store keeps them: one file per token
 * under `<cachedir>/tokens`, named by the token (40 hex characters, like Salt's sha1 tokens),
 * holding msgpack `{start, expire, name, eauth, token, groups}`. An expired token is deleted
 * when it is read; a name that is not a token is never looked up (no path tricks).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packIpc, unpackIpc } from '../../../kernel/util.js';

export interface TokenData {
  token: string;
  name: string;
  eauth: string;
  /** Seconds since the epoch, with microseconds (Python `time.time()`). */
  start: number;
  expire: number;
  groups: string[];
}

const TOKEN_RE = /^[0-9a-f]{40}$/;

/** Whether `value` has the shape of a token (and so may name a file). */
export function isTokenShape(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_RE.test(value);
}

/** Salt's `_allow_custom_expire`: `true`, or `{eauth: [users]}` naming the user. */
export function allowCustomExpire(override: unknown, eauth: string, user: string): boolean {
  if (typeof override === 'boolean') return override;
  if (override && typeof override === 'object' && !Array.isArray(override)) {
    const users = (override as Record<string, unknown>)[eauth];
    return Array.isArray(users) && users.includes(user);
  }
  return false;
}

export class TokenStore {
  readonly #dir: string;
  readonly #now: () => number;

  /** `now` returns seconds since the epoch (tests pass a clock). */
  constructor(dir: string, now: () => number = () => Date.now() / 1000) {
    this.#dir = dir;
    this.#now = now;
  }

  get dir(): string {
    return this.#dir;
  }

  /** Creates and stores a token valid for `ttlSeconds`. */
  async create(
    entry: { name: string; eauth: string; groups: readonly string[] },
    ttlSeconds: number,
  ): Promise<TokenData> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    const start = this.#now();
    const data: TokenData = {
      token: randomBytes(20).toString('hex'),
      name: entry.name,
      eauth: entry.eauth,
      start,
      expire: start + ttlSeconds,
      groups: [...entry.groups],
    };
    await writeFile(join(this.#dir, data.token), packIpc(data), { mode: 0o600, flag: 'wx' });
    return data;
  }

  /** The token's data, or undefined when it is unknown, malformed or expired (then removed). */
  async get(token: unknown): Promise<TokenData | undefined> {
    if (!isTokenShape(token)) return undefined;
    let raw: Buffer;
    try {
      raw = await readFile(join(this.#dir, token));
    } catch {
      return undefined;
    }
    let data: Partial<TokenData>;
    try {
      data = unpackIpc(raw) as Partial<TokenData>;
    } catch {
      return undefined;
    }
    if (
      !data ||
      typeof data !== 'object' ||
      data.token !== token ||
      typeof data.name !== 'string' ||
      typeof data.eauth !== 'string' ||
      typeof data.expire !== 'number' ||
      typeof data.start !== 'number'
    )
      return undefined;
    if (data.expire <= this.#now()) {
      await this.remove(token);
      return undefined;
    }
    return { ...data, groups: Array.isArray(data.groups) ? data.groups.map(String) : [] } as TokenData;
  }

  /** Revokes a token (logout). */
  async remove(token: unknown): Promise<void> {
    if (!isTokenShape(token)) return;
    await rm(join(this.#dir, token), { force: true });
  }

  /** Removes every expired token file; resolves with how many went. */
  async prune(): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!isTokenShape(name)) continue;
      const before = await this.#exists(name);
      if (before && !(await this.get(name))) removed++;
    }
    return removed;
  }

  async #exists(name: string): Promise<boolean> {
    try {
      await readFile(join(this.#dir, name));
      return true;
    } catch {
      return false;
    }
  }
}
