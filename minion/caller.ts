/**
 * `salt-call`'s engine (Salt's `salt/cli/caller.py` `BaseCaller.call` / `ZeroMQCaller`): run one
 * function on this minion with the minion's run environment, then, unless local, hand the result
 * to the master as a `_return` with jid `req` (the master allocates the jid, PROTOCOL.md §7).
 *
 * As Salt, a caller that talks to a master signs in first (with the minion's own keys) so that
 * nothing runs when the master is unreachable or has not accepted the key.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import {
  SALT_ERR_AUTH_PENDING,
  SALT_ERR_AUTH_REJECTED,
  SALT_ERR_AUTH_UNREACHABLE,
} from '../kernel/errors.js';
import { genJid } from '../kernel/jid.js';
import { sendToReturners } from '../kernel/jobs/returner-calls.js';
import type { JobReturn } from '../kernel/jobs/types.js';
import type { PillarAsk, UnitLogger } from '../kernel/loader/define.js';
import { packIpc } from '../kernel/serial/index.js';
import { isStringMap } from '../kernel/serial/is-string-map.js';
import type { Credentials, MinionKeys } from './auth.js';
import { procDir } from './execute-job.js';
import { createRunEnv } from './job-env.js';
import { minionReturnerLoader } from './job-returners.js';
import { primaryMaster } from './master-address.js';
import { clearMasterLink, setMasterLink } from './master-link.js';
import { type FunctionResult, makeContext, type RunEnv, runFunction } from './run-function.js';

export interface CallOptions {
  /** The function, `module.function`. */
  fun: string;
  /** The arguments as the CLI parsed them (`parseCliArgs`): positionals and `__kwarg__` maps. */
  arg: readonly unknown[];
  /**
   * The argument words as typed (Salt's `opts["arg"]`): the `fun_args` the returners and the
   * master get, unparsed (`['1', 'k=v']`), as Salt's caller sends them; `arg` when absent.
   */
  cliArgs?: readonly string[];
  /** `--local`: no master at all. */
  local?: boolean;
  /** `--return`: returner names. */
  returners?: readonly string[];
  /** Timeout of the `_return` exchange with the master (default 60 s, Salt's channel default). */
  returnTimeoutMs?: number;
  log: UnitLogger;
}

/** What `salt-call` prints and how it exits. */
export interface CallResult {
  /** The local jid the function ran under (`__pub_jid`). */
  jid: string;
  return: unknown;
  retcode: number;
  /** The outputter the function declares, or `nested` for the missing-function docs. */
  out?: string;
  /** True when the function does not exist and no function starts with its name. */
  missing?: boolean;
  /** Bad arguments or a CommandExecutionError: salt-call prints its own message and sends no return. */
  failure?: FunctionResult['failure'];
  /** Whether the master acknowledged the `_return` (`undefined` when local). */
  returned?: boolean;
  /** The `_return` load sent (or that would have been sent). */
  load?: Record<string, unknown>;
}

/** Salt skips a call to the master when any of these hold (`is_local`). */
export function isLocalCall(
  config: Pick<ResolvedMinionConfig, 'file_client' | 'master_type'>,
  local?: boolean,
): boolean {
  return Boolean(local) || config.file_client === 'local' || config.master_type === 'disable';
}

/**
 * The `_return` load, in Salt's order (`return.json` salt-call entry): `cmd`, `id`, `jid` (`req`),
 * `return`, `retcode`, `out` when declared, `fun`, `fun_args`; `success: true` only when
 * returners were named (Salt sets it before calling them, and the same map goes to the master).
 */
export function buildCallReturn(opts: {
  id: string;
  fun: string;
  arg: readonly unknown[];
  return: unknown;
  retcode: number;
  out?: string;
  withReturners?: boolean;
}): Record<string, unknown> {
  const load: Record<string, unknown> = {
    cmd: '_return',
    id: opts.id,
    jid: 'req',
    return: opts.return,
    retcode: opts.retcode,
  };
  if (opts.out !== undefined) load.out = opts.out;
  load.fun = opts.fun;
  load.fun_args = [...opts.arg];
  if (opts.withReturners) load.success = true;
  return load;
}

interface Session {
  creds: Credentials;
  keys: MinionKeys;
  masterUri: string;
  /** The request connection the sign-in went over, for the call's aes requests. */
  client: ReqClient;
}

/**
 * One sign-in with the minion's keys; pending, rejected and unreachable are errors. The transport
 * and crypto modules load here, so that `--local` never pays for them.
 */
export async function signInOnce(
  config: ResolvedMinionConfig,
  id: string,
  requestTimeoutMs = 60_000,
): Promise<Session> {
  const [{ tcpAddress }, { ReqClient }, { loadOrCreateKeyPair }, { minionAuthParams, newAuthToken, signIn }] =
    await Promise.all([
      import('../kernel/bus/address.js'),
      import('../kernel/bus/req-client.js'),
      import('../kernel/crypt/keys.js'),
      import('./auth.js'),
    ]);
  await mkdir(config.pki_dir, { recursive: true, mode: 0o700 });
  const keys = await loadOrCreateKeyPair(config.pki_dir, 'minion', 2048);
  const masterUri = tcpAddress(primaryMaster(config.master), config.master_port);
  // the request connection the sign-in opens is the one the call's aes requests use
  const client = new ReqClient(masterUri, { timeoutMs: requestTimeoutMs, tries: 1 });
  let outcome: Awaited<ReturnType<typeof signIn>>;
  try {
    outcome = await signIn(minionAuthParams(config, { id, keys, masterUri, token: newAuthToken(), client }));
  } catch (err) {
    client.close();
    throw err;
  }
  if (outcome.status !== 'accepted') client.close();
  switch (outcome.status) {
    case 'accepted':
      return { creds: outcome.creds, keys, masterUri, client };
    case 'pending':
    case 'full':
      throw new SALT_ERR_AUTH_PENDING();
    case 'rejected':
      throw new SALT_ERR_AUTH_REJECTED(id);
    default:
      throw new SALT_ERR_AUTH_UNREACHABLE(masterUri, outcome.message);
  }
}

/** Salt's answer to an unknown function: the docs of the functions that start with its name. */
async function missingFunction(env: RunEnv, fun: string, jid: string): Promise<CallResult | undefined> {
  const docs = await runFunction(env, 'sys.doc', [`${fun}*`], jid);
  if (docs.retcode === 0 && isStringMap(docs.return) && Object.keys(docs.return).length > 0) {
    return {
      jid,
      return: { ...docs.return, [fun]: await env.loader.explain(fun) },
      retcode: 0,
      out: 'nested',
    };
  }
  return { jid, return: await env.loader.explain(fun), retcode: 1, missing: true };
}

/** Runs the function locally, as Salt's caller does: `__pub_fun`, `__pub_pid`, `__pub_jid`, `__pub_tgt`. */
export async function runLocally(
  env: RunEnv,
  config: Pick<ResolvedMinionConfig, 'cachedir'>,
  fun: string,
  arg: readonly unknown[],
): Promise<CallResult> {
  const jid = genJid();
  let spec: unknown;
  try {
    spec = await env.loader.get(fun);
  } catch {
    spec = undefined;
  }
  if (!spec) {
    const missing = await missingFunction(env, fun, jid);
    if (missing) return missing;
  }
  const sdata = { fun, pid: process.pid, jid, tgt: 'salt-call' };
  const procFile = join(procDir(config.cachedir), jid);
  let wroteProc = false;
  try {
    await mkdir(procDir(config.cachedir), { recursive: true });
    await writeFile(procFile, packIpc(sdata));
    wroteProc = true;
  } catch {
    env.log.warn({ path: procFile }, 'Cannot write to process directory');
  }
  try {
    const r = await runFunction(env, fun, arg, jid, undefined, sdata);
    const result: CallResult = { jid, return: r.return, retcode: r.retcode };
    if (r.out !== undefined) result.out = r.out;
    if (r.failure) result.failure = r.failure;
    return result;
  } finally {
    if (wroteProc) await rm(procFile, { force: true });
  }
}

/**
 * `salt-call FUN ARGS`: sign in (unless local), run, and send the `_return` with jid `req`.
 * Throws the sign-in errors (nothing has run then); a `_return` the master does not acknowledge
 * is logged and reported as `returned: false`, the result stands (as in Salt).
 */
export async function callFunction(
  config: ResolvedMinionConfig,
  id: string,
  opts: CallOptions,
): Promise<CallResult> {
  const local = isLocalCall(config, opts.local);
  // The loader needs only the logger's methods; createRunEnv is typed for the daemon's pino root.
  const envPromise = Promise.resolve().then(() => createRunEnv(config, id, opts.log as unknown as Logger));
  const session = local ? undefined : await signInOnce(config, id, opts.returnTimeoutMs);
  let env: Awaited<typeof envPromise>;
  let channel: Awaited<ReturnType<typeof openChannel>> | undefined;
  try {
    env = await envPromise;
    // Salt's `__cli`: a state run under salt-call uses the pillar fetched at its start
    env.opts = Object.freeze({ ...env.opts, __cli: 'salt-call' });
    channel = session ? await openChannel(config, id, session) : undefined;
  } catch (err) {
    session?.client.close();
    throw err;
  }
  // functions that talk to the master (saltutil.sync_modules) go through this process's
  // channel; a one-shot process has nothing to reload afterwards
  const link = channel && {
    request: (load: Record<string, unknown>, opts?: { timeoutMs?: number }) => channel.send(load, opts),
    // pillar.items compiles afresh on the master (for a pillarenv or pillar= of its own)
    compilePillar: (ask: PillarAsk) => askPillar(env, id, channel, session!, ask),
    recycle: () => undefined,
    inProcess: false,
    // the schedule module reaches the minion running on this host, through its bus (as in Salt);
    // the bus code loads only then, so salt-call starts no slower
    manageSchedule: async (call: Readonly<Record<string, unknown>>) =>
      (await import('./local-bus.js')).askRunningMinion(config.sock_dir, id, call),
  };
  if (link) setMasterLink(id, link);
  try {
    if (channel && session) await fetchPillar(env, config, id, channel, session, opts.log);
    else if (local) await compileLocalPillar(env, config, id, opts.log);
    return await callAndReturn(env, config, id, opts, channel, session?.masterUri);
  } finally {
    if (link) clearMasterLink(id, link);
    channel?.close();
  }
}

/**
 * As Salt's salt-call does: report the grains and fetch this minion's pillar (`_pillar`, the
 * private reply) before the function runs, so `pillar.*` see it. A failure is a warning, not a
 * failed call: the function runs with an empty pillar.
 */
async function fetchPillar(
  env: Awaited<ReturnType<typeof createRunEnv>> & { pillar?: Readonly<Record<string, unknown>> },
  config: ResolvedMinionConfig,
  id: string,
  channel: Awaited<ReturnType<typeof openChannel>>,
  session: Session,
  log: CallOptions['log'],
): Promise<void> {
  try {
    const ask = {
      saltenv: config.saltenv ?? null,
      pillarenv: typeof config.extra.pillarenv === 'string' ? config.extra.pillarenv : null,
      pillarOverride: {},
    };
    env.pillar = await askPillar(env, id, channel, session, ask);
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'pillar not received');
  }
}

/** One `_pillar` request: the master compiles this minion's pillar for `ask` (a fresh `pillar.items` too). */
async function askPillar(
  env: Awaited<ReturnType<typeof createRunEnv>>,
  id: string,
  channel: Awaited<ReturnType<typeof openChannel>>,
  session: Session,
  ask: PillarAsk,
): Promise<Record<string, unknown>> {
  const { reply, nonce } = await channel.sendPrivate({
    id,
    grains: env.grains,
    saltenv: ask.saltenv,
    pillarenv: ask.pillarenv,
    pillar_override: ask.pillarOverride,
    extra_minion_data: {},
    ver: '2',
    cmd: '_pillar',
  });
  const { openPrivateReply } = await import('./private-reply.js');
  const pillar = openPrivateReply(reply, 'pillar', {
    minionPem: session.keys.privatePem,
    masterPub: session.creds.masterPub,
    nonce,
  });
  return pillar && typeof pillar === 'object' && !Array.isArray(pillar)
    ? (pillar as Record<string, unknown>)
    : {};
}

/** `--local`: the minion compiles its own pillar from its `pillar_roots` and `ext_pillar`. */
async function compileLocalPillar(
  env: Awaited<ReturnType<typeof createRunEnv>> & { pillar?: Readonly<Record<string, unknown>> },
  config: ResolvedMinionConfig,
  id: string,
  log: CallOptions['log'],
): Promise<void> {
  try {
    const { localPillar } = await import('./local-pillar.js');
    const { saltFunctionsOf } = await import('../plugins/pillar/pillar-functions.js');
    // Salt's first compile: the minion's functions, before it holds any pillar
    const salt = saltFunctionsOf(makeContext(env, 'req', undefined));
    const pillarLog = {
      error: (o: object, m: string) => log.error(o, m),
      warn: (o: object, m: string) => log.warn(o, m),
      debug: (o: object, m: string) => log.debug(o, m),
    };
    env.pillar = await localPillar(
      config as unknown as Readonly<Record<string, unknown>>,
      id,
      env.grains,
      pillarLog,
      salt,
    );
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'local pillar not compiled');
  }
}

async function openChannel(config: ResolvedMinionConfig, id: string, session: Session) {
  const { AesChannel } = await import('./aes-channel.js');
  return new AesChannel({
    client: session.client,
    id,
    privatePem: session.keys.privatePem,
    session: session.creds.session,
    encAlgo: config.encryption_algorithm,
    sigAlgo: config.signing_algorithm,
  });
}

async function callAndReturn(
  env: Awaited<ReturnType<typeof createRunEnv>>,
  config: ResolvedMinionConfig,
  id: string,
  opts: CallOptions,
  channel: Awaited<ReturnType<typeof openChannel>> | undefined,
  masterUri: string | undefined,
): Promise<CallResult> {
  const returners = (opts.returners ?? []).filter(Boolean);
  const result = await runLocally(env, config, opts.fun, opts.arg);
  // as Salt's caller: these end salt-call before any return is sent
  if (result.missing || result.failure) return result;

  const loadOpts: Parameters<typeof buildCallReturn>[0] = {
    id,
    fun: opts.fun,
    arg: opts.cliArgs ?? opts.arg,
    return: result.return,
    retcode: result.retcode,
    withReturners: returners.length > 0,
  };
  if (result.out !== undefined) loadOpts.out = result.out;
  const load = buildCallReturn(loadOpts);
  result.load = load;
  if (channel) {
    try {
      await channel.send(load);
      result.returned = true;
    } catch (err) {
      result.returned = false;
      opts.log.error(
        { master: masterUri, err: (err as Error).message },
        'the return could not be delivered to the master',
      );
    }
  }
  if (returners.length > 0) {
    // `salt-call --return a,b`: after the master, each named returner (with or without a master)
    // in Salt's order (`jid`, `return`, `retcode`, `out`, `id`, `fun`, `fun_args`), with Salt's
    // `success: True` whatever the retcode: the `local` returner prints it as it is
    const ret = {
      jid: result.jid,
      return: result.return,
      retcode: result.retcode,
      ...(result.out !== undefined ? { out: result.out } : {}),
      id,
      fun: opts.fun,
      fun_args: [...(opts.cliArgs ?? opts.arg)],
      success: true,
    } satisfies JobReturn;
    const loader = minionReturnerLoader(config, opts.log);
    await sendToReturners(loader, returners, ret, {}, opts.log);
    // a one-shot process: release the returners' connections so it can exit
    await Promise.all(
      loader.loaded().map(({ def }) => def.close?.(loader.context(def)).catch(() => undefined)),
    );
  }
  return result;
}
