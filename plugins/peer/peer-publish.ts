/**
 * The minion's side of peer publish on the master (Salt's `AESFuncs.minion_pub`, `pub_ret`
 * and `minion_publish`): a signed-in minion publishes a job to other minions when the master's
 * `peer` allows it, then reads the returns of that job (and only of jobs it published). Jobs go
 * out through the public client, as any local client's would, with the publishing minion's id
 * in the load (Salt's `__pub_id`).
 */
import { LocalClient } from '../../client/index.js';
import type { CommandContext } from '../../kernel/index.js';
import { PEER_ERR_DENIED, PEER_ERR_LOAD } from './errors.js';
import { peerOptions } from './options.js';
import { type PeerCall, publishAllowed, splitCompound } from './peer-acl.js';
import { publishArgs } from './peer-args.js';
import { publisherOf, recordPublisher } from './publish-auth.js';

const PUBLISH_KEYS = ['fun', 'arg', 'tgt', 'ret', 'id'] as const;

function refuse(ctx: CommandContext, err: Error & { code: string }): Record<string, never> {
  ctx.log.warn({ id: ctx.id, code: err.code }, err.message);
  return {};
}

function isTarget(v: unknown): v is string | string[] {
  return typeof v === 'string' || (Array.isArray(v) && v.every((t) => typeof t === 'string'));
}

/** The checked call of a `minion_pub`/`minion_publish` load, or the refusal already logged. */
async function verified(
  cmd: string,
  load: Readonly<Record<string, unknown>>,
  ctx: CommandContext,
): Promise<(PeerCall & { id: string; ret: string }) | undefined> {
  const id = ctx.id;
  const absent = PUBLISH_KEYS.filter((k) => !(k in load));
  if (id === undefined || absent.length > 0) {
    refuse(ctx, new PEER_ERR_LOAD(cmd, absent.length > 0 ? `no ${absent.join(', ')}` : 'no minion id'));
    return undefined;
  }
  const { fun, arg, tgt } = load;
  const tgtType = load.tgt_type ?? 'glob';
  if (typeof fun !== 'string' || !Array.isArray(arg) || !isTarget(tgt) || typeof tgtType !== 'string') {
    refuse(ctx, new PEER_ERR_LOAD(cmd, '"fun" must be a string, "arg" a list, "tgt" a string or a list'));
    return undefined;
  }
  const call = { ...splitCompound(fun, arg), tgt, tgtType };
  const { peer } = peerOptions.read(ctx.config);
  if (!(await publishAllowed(ctx.config, peer, id, call))) {
    refuse(ctx, new PEER_ERR_DENIED(cmd, id, fun));
    return undefined;
  }
  const noParse = Array.isArray(load.no_parse) ? load.no_parse : [];
  return {
    ...call,
    arg: publishArgs(call.arg, noParse),
    id,
    ret: typeof load.ret === 'string' ? load.ret : '',
  };
}

function publishOptions(call: PeerCall & { id: string; ret: string }) {
  return {
    tgt: call.tgt,
    fun: call.fun,
    arg: call.arg,
    tgtType: call.tgtType,
    ret: call.ret,
    kwargs: { id: call.id },
  };
}

/** `minion_pub`: publishes the job and answers `{jid, minions}` at once (`{jid: 0, minions: []}` when nothing matched). */
export async function handleMinionPub(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  const call = await verified('minion_pub', load, ctx);
  if (!call) return {};
  const client = new LocalClient(ctx.config);
  try {
    const pub = await client.publish(publishOptions(call));
    await recordPublisher(ctx.config.cachedir, pub.jid, call.id);
    ctx.log.info({ id: call.id, fun: call.fun, jid: pub.jid }, 'published a peer job');
    return { jid: pub.jid, minions: pub.minions };
  } catch (err) {
    if (/No minions matched|could not resolve minions/.test((err as Error).message))
      return { jid: 0, minions: [] };
    ctx.log.warn({ id: call.id, err: (err as Error).message }, 'the peer publish failed');
    return {};
  } finally {
    await client.close();
  }
}

/** Salt's `get_cache_returns`: `{minion: {ret, out?}}` for the minions that returned. */
async function cacheReturns(
  ctx: CommandContext,
  jid: string,
): Promise<Record<string, Record<string, unknown>>> {
  const { def, ctx: storeCtx } = ctx.jobCache;
  const stored = (await def.getJid?.(jid, storeCtx)) ?? {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [minion, r] of Object.entries(stored)) {
    if (r.state !== undefined) continue;
    out[minion] = r.out !== undefined ? { ret: r.return, out: r.out } : { ret: r.return };
  }
  return out;
}

/** `pub_ret`: the returns so far of a job this minion published; `{}` for anyone else's. */
export async function handlePubRet(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  if (!('jid' in load && 'id' in load) || ctx.id === undefined) {
    return refuse(ctx, new PEER_ERR_LOAD('pub_ret', 'it needs "jid" and "id"'));
  }
  const publisher = await publisherOf(ctx.config.cachedir, load.jid);
  if (publisher !== ctx.id)
    return refuse(ctx, new PEER_ERR_DENIED('pub_ret', ctx.id, `the returns of ${String(load.jid)}`));
  return cacheReturns(ctx, load.jid as string);
}

/** Salt's `int()` of a `tmo`/`timeout` value; undefined when it has none, null when it cannot be read. */
function timeoutOf(load: Readonly<Record<string, unknown>>): number | null | undefined {
  let seconds: number | null | undefined;
  for (const key of ['tmo', 'timeout']) {
    if (!(key in load)) continue;
    const v = load[key];
    const n =
      typeof v === 'number'
        ? Math.trunc(v)
        : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)
          ? Number(v)
          : Number.NaN;
    seconds = Number.isFinite(n) ? n : null;
    if (seconds === null) return null;
  }
  return seconds;
}

/**
 * `minion_publish`: publishes the job, waits for the returns (the load's `tmo`/`timeout`, else
 * the master's `timeout`) and answers them: `{minion: return}`, or with `form: full` each
 * minion's whole return (`return` renamed `ret`) and `__jid__`.
 */
export async function handleMinionPublish(
  load: Record<string, unknown>,
  ctx: CommandContext,
): Promise<unknown> {
  const timeout = timeoutOf(load);
  if (timeout === null)
    return refuse(
      ctx,
      new PEER_ERR_LOAD(
        'minion_publish',
        `Failed to parse timeout value: ${String(load.tmo ?? load.timeout)}`,
      ),
    );
  const call = await verified('minion_publish', load, ctx);
  if (!call) return {};
  const full = load.form === 'full';
  const client = new LocalClient(ctx.config);
  const ret: Record<string, unknown> = {};
  try {
    await client.listen();
    const pub = await client.publish(publishOptions(call));
    const gathering = {
      timeout: timeout ?? ctx.config.timeout,
      gatherJobTimeout: ctx.config.gather_job_timeout,
    };
    for await (const got of client.collect(pub, gathering)) {
      if (!('ret' in got)) continue;
      if (full) {
        const { return: value, ...rest } = got.ret as unknown as Record<string, unknown>;
        ret[got.id] = { ...rest, ret: value };
      } else ret[got.id] = got.ret.return;
    }
    for (const [minion, r] of Object.entries(await cacheReturns(ctx, pub.jid)))
      if (!(minion in ret)) ret[minion] = r;
    if (full) ret.__jid__ = pub.jid;
    return ret;
  } catch (err) {
    ctx.log.warn({ id: call.id, err: (err as Error).message }, 'the peer publish failed');
    return ret;
  } finally {
    await client.close();
  }
}
