/**
 * One request on the request server (port 4506): decode the envelope, decrypt and verify
 * aes loads, dispatch by `cmd` through the kernel's command registry (kernel/commands/), encrypt
 * the reply (PROTOCOL.md §3). Malformed or hostile input gets Salt's bare-string refusals and
 * never throws out of `handle`.
 */
import { isValidMinionId } from '../kernel/auth/minion-id.js';
import type { CommandDef } from '../kernel/commands/define.js';
import { x931Recover } from '../kernel/crypt/rsa.js';
import type { Registry } from '../kernel/registry.js';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';
import { type Effects, type HandlerEnv, newEffects } from './handlers/context.js';
import { privateReply } from './private-reply.js';
import { isKeyListPublish } from './request-affinity.js';
import { RequestContext } from './request-context.js';

export interface HandledRequest {
  reply: Buffer;
  effects: Effects;
}

/**
 * What the router thread vouches for in an aes request it leaves to a worker: it opened the load
 * with this session key and checked the minion's token against this accepted key. The worker
 * takes both as they are, instead of reading the key files and redoing the checks.
 */
export interface Vouched {
  pub: string;
  session: string;
}

/** A request {@link RequestHandler.handleLight} left to a worker, untouched. */
export interface LeftToWorker {
  left: true;
  /** Set for an aes request (`_pillar`): what the router thread has checked already. */
  vouched?: Vouched;
}

const BAD_LOAD = 'bad load';

/**
 * Which requests a caller takes on: `all` (a worker thread); `light`, a signed-in minion's aes
 * requests registered on the light lane; `minion`, everything a minion sends (its `_auth`
 * sign-in and every aes request, `_pillar` included). The rest is left to a worker unopened.
 */
type Scope = 'all' | 'light' | 'minion';

/** Most remembered minion tokens (one per minion; the oldest is forgotten past this). */
const TOKEN_MEMO_LIMIT = 65_536;

/**
 * Salt's `request_server_ttl` check (salt/channel/server.py, v3 aes requests only): a load whose
 * `ts` is more than `ttl` seconds in the past is refused; a `ts` in the future passes, as in
 * Salt. A missing or non-numeric `ts` is refused too (Salt's KeyError leaves the minion without
 * a reply). `ttl` 0 disables the check.
 */
function expired(ts: unknown, ttl: number): boolean {
  if (ttl <= 0) return false;
  if (typeof ts !== 'number' || !Number.isFinite(ts)) return true;
  return Date.now() / 1000 - ts > ttl;
}

/** A clear load that is a minion's sign-in. */
const isSignIn = (load: unknown): boolean => isStringMap(load) && load.cmd === '_auth';
/** A user's publish the router thread may take on (request-affinity.ts). */
const isLightPublish = (load: unknown): boolean =>
  isStringMap(load) && isKeyListPublish(load.cmd, load.tgt_type);

/** The request's age for the log line, whole seconds as Salt's `%d` prints it. */
function ageText(ts: unknown): string {
  return typeof ts === 'number' && Number.isFinite(ts)
    ? String(Math.trunc(Date.now() / 1000 - ts))
    : 'unknown';
}

export class RequestHandler {
  readonly #env: HandlerEnv;
  readonly #commands: Registry<CommandDef>;
  /**
   * The last token each minion proved with its accepted key. A minion's `tok` is its X9.31
   * signature of "salt": deterministic, so it is the same bytes on every request until the key
   * changes. Checking it costs a 2048-bit modular exponentiation (~40 µs), so a token equal to
   * the one verified for the same key is accepted without redoing it.
   */
  readonly #tokens = new Map<string, { pub: string; tok: Buffer }>();

  constructor(env: HandlerEnv) {
    this.#env = env;
    this.#commands = env.kernel.commands;
  }

  /** Handles one request; `vouched`: what the router thread checked already (worker threads). */
  async handle(frame: Uint8Array, vouched?: Vouched): Promise<HandledRequest> {
    return (await this.#handleOrLeave(frame, 'all', vouched)) as HandledRequest;
  }

  /**
   * Handles a minion's `aes` request unless its command runs on a worker thread (registered
   * without the `light` lane); every other request (users' clear commands, sign-ins) is left to a
   * worker unopened: then resolves {@link LeftToWorker},
   * having stored, fired and answered nothing (it may have filled its key caches), and the
   * caller sends the frame to a worker. For the request server's router thread, which so spares
   * the light requests (`_return`, `_minion_event`, the file server) two thread hand-offs each.
   */
  handleLight(frame: Uint8Array): Promise<HandledRequest | LeftToWorker> {
    return this.#handleOrLeave(frame, 'light');
  }

  /**
   * Handles whatever a minion sends (its `_auth` sign-in, `_pillar` and the light requests) and
   * a user's `publish` that targets by glob or list; leaves users' other clear commands to a
   * worker as {@link handleLight} does. For the request
   * server's router thread on a machine where worker threads gain nothing (light-lane.ts): there
   * a sign-in costs its RSA and files without the hand-offs and a third isolate's JIT.
   */
  handleMinion(frame: Uint8Array): Promise<HandledRequest | LeftToWorker> {
    return this.#handleOrLeave(frame, 'minion');
  }

  async #handleOrLeave(
    frame: Uint8Array,
    scope: Scope,
    vouched?: Vouched,
  ): Promise<HandledRequest | LeftToWorker> {
    const effects = newEffects();
    try {
      const reply = await this.#handle(frame, effects, scope, vouched);
      if (!Buffer.isBuffer(reply)) return reply;
      const fired = this.#env.kernel.hooks.eventFired;
      // `isUsed()` counts the kernel's own interceptor: only taps mean someone listens
      if (effects.events.length > 0 && fired.taps.length > 0)
        for (const event of effects.events) fired.call(event);
      return { reply, effects };
    } catch (err) {
      this.#env.kernel.log.error({ err }, 'server-side exception handling payload');
      return { reply: packNetwork('Server-side exception handling payload'), effects: newEffects() };
    }
  }

  /** The reply, or (only for a `scope` other than `all`) word that the request is left to a worker. */
  async #handle(
    frame: Uint8Array,
    effects: Effects,
    scope: Scope,
    vouched: Vouched | undefined,
  ): Promise<Buffer | LeftToWorker> {
    let payload: unknown;
    try {
      // the sealed load stays a view of the frame (both live as long as this request)
      payload = unpackNetwork(frame, { viewBytes: true, exactFloats: true });
    } catch {
      this.#env.kernel.log.warn({ bytes: frame.length }, 'undecodable request');
      return packNetwork(BAD_LOAD);
    }
    if (!isStringMap(payload) || !('enc' in payload) || !('load' in payload)) return packNetwork(BAD_LOAD);
    if (
      scope !== 'all' &&
      payload.enc !== 'aes' &&
      !(scope === 'minion' && (isSignIn(payload.load) || isLightPublish(payload.load)))
    )
      return { left: true };
    const version = typeof payload.version === 'number' ? payload.version : 0;
    if (version < this.#env.config.minimum_auth_version) {
      this.#env.kernel.log.warn({ version }, 'request below minimum_auth_version refused');
      return packNetwork(BAD_LOAD);
    }
    if (payload.enc === 'clear') {
      if (!isStringMap(payload.load)) return packNetwork('payload and load must be a dict');
      return packNetwork(await this.#clear(payload.load, version, effects));
    }
    if (payload.enc === 'aes') return this.#aes(payload, version, effects, scope === 'light', vouched);
    return packNetwork(BAD_LOAD);
  }

  async #clear(load: Record<string, unknown>, version: number, effects: Effects): Promise<unknown> {
    const def = this.#commands.get(String(load.cmd));
    if (def?.enc !== 'clear') {
      this.#env.kernel.log.warn({ cmd: String(load.cmd) }, 'unknown or unavailable clear command');
      return {};
    }
    return def.handle(load, new RequestContext(this.#env, effects, undefined, version));
  }

  #tokenValid(id: string, pub: string, tok: Uint8Array): boolean {
    const known = this.#tokens.get(id);
    if (known && known.pub === pub && known.tok.equals(tok)) return true;
    let ok = false;
    try {
      ok = x931Recover(pub, Buffer.from(tok)).toString('latin1') === 'salt';
    } catch {
      ok = false;
    }
    if (!ok) return false;
    if (this.#tokens.size >= TOKEN_MEMO_LIMIT && !known) {
      const oldest = this.#tokens.keys().next();
      if (!oldest.done) this.#tokens.delete(oldest.value);
    }
    // an unpooled copy: a pooled one (Buffer.from) kept its whole 8 KiB pool slab alive, one
    // slab per minion (~7.5 KiB of request-server memory per connected minion, heap snapshot)
    const kept = Buffer.allocUnsafeSlow(tok.length);
    kept.set(tok);
    this.#tokens.set(id, { pub, tok: kept });
    return true;
  }

  async #aes(
    payload: Record<string, unknown>,
    version: number,
    effects: Effects,
    light: boolean,
    vouched: Vouched | undefined,
  ): Promise<Buffer | LeftToWorker> {
    const env = this.#env;
    const id = payload.id;
    if (typeof id === 'string' && id.includes('\0')) return packNetwork('bad load: id contains a null byte');
    if (!isValidMinionId(id)) return packNetwork(BAD_LOAD);
    const pub = vouched ? vouched.pub : env.cache.acceptedKey(id);
    let session = vouched ? env.cache.sessionFor(id, vouched.session) : env.cache.session(id);
    if (!pub || !session || !(payload.load instanceof Uint8Array)) {
      env.kernel.log.warn({ id }, 'aes request from a minion without an accepted key or session');
      return packNetwork(BAD_LOAD);
    }
    const sealed = Buffer.isBuffer(payload.load) ? payload.load : Buffer.from(payload.load);
    let load: unknown;
    try {
      load = session.loads(sealed);
    } catch {
      // the cached session may be a second old: another worker may have signed the minion in again
      const fresh = vouched ? undefined : env.cache.session(id, { fresh: true });
      try {
        if (!fresh || fresh === session) throw new Error('same session');
        load = fresh.loads(sealed);
        session = fresh;
      } catch {
        env.kernel.log.warn({ id }, 'aes request failed to decrypt');
        return packNetwork('Some exception handling minion payload');
      }
    }
    if (!isStringMap(load)) return packNetwork(BAD_LOAD);
    const nonce = load.nonce;
    delete load.nonce;
    if (version > 2 && expired(load.ts, env.config.request_server_ttl)) {
      env.kernel.log.warn(
        { id, ts: load.ts, request_server_ttl: env.config.request_server_ttl },
        `Received request from ${id} with expired ttl: ${ageText(load.ts)} > ${env.config.request_server_ttl}`,
      );
      return packNetwork(BAD_LOAD);
    }
    if (load.id !== id) {
      env.kernel.log.warn({ id, inner: String(load.id) }, 'aes request id mismatch');
      return packNetwork(BAD_LOAD);
    }
    const tok = load.tok;
    delete load.tok;
    if (!(tok instanceof Uint8Array) || (!vouched && !this.#tokenValid(id, pub, tok))) {
      env.kernel.log.warn({ id }, 'aes request with an invalid token');
      return packNetwork(BAD_LOAD);
    }
    const cmd = String(load.cmd);
    const def = this.#commands.get(cmd);
    let ret: unknown = {};
    if (def?.enc !== 'aes') env.kernel.log.warn({ id, cmd }, 'unknown aes command');
    else if (light && def.lane !== 'light')
      return { left: true, vouched: { pub, session: session.keyString } };
    else {
      const ctx = new RequestContext(env, effects, id, version);
      if (def.reply === 'private') {
        if (typeof nonce !== 'string') return packNetwork(BAD_LOAD);
        return packNetwork(privateReply(env.keys.privatePem, pub, await def.handle(load, ctx), nonce));
      }
      ret = await def.handle(load, ctx);
    }
    return packNetwork(session.dumps(ret, typeof nonce === 'string' ? nonce : undefined));
  }
}
