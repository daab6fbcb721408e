/**
 * What every lowstate client shares (Salt's `NetapiClient` helpers): who is calling, the
 * environment a client runs in, a chunk's function, arguments and target, the ACL checks and
 * the timeout of a synchronous call. clients.ts, batch-client.ts and gather.ts use it.
 */
import type { ResolvedMasterConfig } from '../../kernel/index.js';
import { expectedMinions } from '../../kernel/services.js';
import { authCheck, specCheck, type TargetResolver } from './auth/acl.js';
import type { Chunk } from './body.js';
import { ALL_CLIENTS, type NetapiOptions } from './config.js';
import { NETAPI_ERR_BAD_LOWSTATE, NETAPI_ERR_CLIENT_DISABLED, NETAPI_ERR_FORBIDDEN } from './errors.js';
import type { MasterLink } from './master-client.js';

/** Who is calling: the eauth user behind a token (or inline credentials). */
export interface Identity {
  user: string;
  eauth: string;
  groups: string[];
  authList: unknown[];
  token?: string;
}

export interface ClientEnv {
  link: MasterLink;
  config: ResolvedMasterConfig;
  opts: NetapiOptions;
}

/**
 * Keys of a runner/wheel chunk that are not function keywords: what Salt's `_reformat_low`
 * takes out (credentials, `client`, `fun`, `arg`, `kwarg`) and what salt-api's runner call
 * consumes itself (`timeout`, `full_return`, `print_event`). Everything else is a keyword:
 * SaltGUI's `cache.grains` passes `tgt` that way.
 */
export const RESERVED = new Set([
  'client',
  'fun',
  'arg',
  'kwarg',
  'token',
  'username',
  'password',
  'eauth',
  'user',
  'key',
  'timeout',
  'full_return',
  'print_event',
]);

/** Resolves targets as the master does (for ACL target entries). */
export function targetResolver(config: ResolvedMasterConfig): TargetResolver {
  return async (tgt, tgtType) => new Set((await expectedMinions(config, tgt, tgtType)).minions);
}

function str(chunk: Chunk, key: string): string | undefined {
  const v = chunk[key];
  return typeof v === 'string' && v ? v : undefined;
}

export function funOf(chunk: Chunk): string {
  const fun = chunk.fun;
  if (typeof fun !== 'string' || !fun) throw new NETAPI_ERR_BAD_LOWSTATE('each lowstate chunk needs a "fun"');
  return fun;
}

export function kwargOf(chunk: Chunk): Record<string, unknown> {
  const k = chunk.kwarg;
  if (k === undefined || k === null) return {};
  if (typeof k !== 'object' || Array.isArray(k))
    throw new NETAPI_ERR_BAD_LOWSTATE('"kwarg" must be a mapping');
  return { ...(k as Record<string, unknown>) };
}

export function argOf(chunk: Chunk): unknown[] {
  return Array.isArray(chunk.arg) ? [...chunk.arg] : [];
}

/** The client name of a chunk, checked: known and enabled. */
export function clientOf(chunk: Chunk, enabled: readonly string[]): string {
  const client = chunk.client;
  if (typeof client !== 'string' || !client)
    throw new NETAPI_ERR_BAD_LOWSTATE(
      `each lowstate chunk needs a "client": one of ${ALL_CLIENTS.join(', ')}`,
    );
  if (!(ALL_CLIENTS as readonly string[]).includes(client))
    throw new NETAPI_ERR_BAD_LOWSTATE(
      `unknown client ${JSON.stringify(client)}: use one of ${ALL_CLIENTS.join(', ')}`,
    );
  if (!enabled.includes(client)) throw new NETAPI_ERR_CLIENT_DISABLED(client);
  return client;
}

export interface LocalCall {
  tgt: unknown;
  tgtType: string;
  fun: string;
  arg: unknown[];
  ret: string;
}

export function localCall(chunk: Chunk): LocalCall {
  const fun = funOf(chunk);
  const tgt = chunk.tgt;
  if (tgt === undefined || tgt === null || tgt === '')
    throw new NETAPI_ERR_BAD_LOWSTATE('client local needs a "tgt"');
  if (typeof tgt !== 'string' && !Array.isArray(tgt))
    throw new NETAPI_ERR_BAD_LOWSTATE('"tgt" must be a string or a list');
  const arg = argOf(chunk);
  const kwarg = kwargOf(chunk);
  if (Object.keys(kwarg).length > 0) arg.push({ ...kwarg, __kwarg__: true });
  return {
    tgt,
    tgtType: str(chunk, 'tgt_type') ?? str(chunk, 'expr_form') ?? 'glob',
    fun,
    arg,
    ret: str(chunk, 'ret') ?? '',
  };
}

export async function checkLocal(env: ClientEnv, who: Identity, call: LocalCall): Promise<void> {
  const ok = await authCheck(
    who.authList,
    call.fun,
    call.arg,
    call.tgt,
    call.tgtType,
    targetResolver(env.config),
  );
  if (!ok)
    throw new NETAPI_ERR_FORBIDDEN(
      `user ${who.user} may not run ${call.fun} on target ${JSON.stringify(call.tgt)}`,
    );
}

export function checkSpec(
  who: Identity,
  fun: string,
  arg: unknown[],
  kwarg: Record<string, unknown>,
  form: 'runner' | 'wheel',
) {
  const r = specCheck(who.authList, fun, { arg, kwarg }, form);
  if (r === true) return;
  if (r === false) throw new NETAPI_ERR_FORBIDDEN(`user ${who.user} may not run the ${form} function ${fun}`);
  throw new NETAPI_ERR_BAD_LOWSTATE(r.error.message);
}

export function timeoutOf(env: ClientEnv, chunk: Chunk): number {
  const t = Number(chunk.timeout);
  return Number.isFinite(t) && t > 0 ? Math.min(t, env.opts.sync_timeout_max) : env.config.timeout;
}
