/**
 * Runner and wheel functions run on a minion (Salt's `saltutil.runner` and `saltutil.wheel` in
 * `salt/modules/saltutil.py`): the function runs here, in the job's process, with the master's
 * config read from the `master` file beside the minion's (`dirname(conf_file)/master`), as
 * Salt's `RunnerClient`/`WheelClient` built on `master_config` do. The job is stored in the
 * master's job cache under a new jid, and the return is Salt's full return
 * (`{fun, jid, user, fun_args, return, success}`) or the bare return.
 *
 * No events are fired: the runner does not reach the master's bus from a minion. Its
 * `ctx.client` publishes through the master with the local user key, as `salt-run` does, so
 * it works on the master's host only.
 */
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { jobCacheView } from '../client/job-cache-view.js';
import { RunnerMinionClient } from '../client/minion-client.js';
import {
  type ExecContext,
  loadConfig,
  type MasterJobCache,
  masterReturnerLoader,
  openMasterJobCache,
  type ResolvedMasterConfig,
  SALT_ERR_LOADER_NOT_AVAILABLE,
  SaltError,
} from '../kernel/index.js';
import { createRunnerLoader, createWheelLoader, funArgs, invokeFunction } from '../kernel/services.js';
import { genJid } from '../kernel/util.js';
import { BUILTIN_DIRS, BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import { createRunnerContext, emptyJobs, masterId, saltutilCmd } from '../plugins/runners/index.js';

export type MasterKind = 'runner' | 'wheel';

/** A call: the function, its positionals and keywords, and who Salt's `pub_data` says runs it. */
export interface MasterCall {
  kind: MasterKind;
  fun: string;
  args: readonly unknown[];
  kwargs: Readonly<Record<string, unknown>>;
  user: string;
}

/** Salt's full return of a runner or wheel function. */
export interface MasterReturn {
  fun: string;
  jid: string;
  user: string;
  fun_args: unknown[];
  return: unknown;
  success: boolean;
}

/** The master's config, from the `master` file in the minion's config folder. */
async function masterConfig(ctx: ExecContext): Promise<ResolvedMasterConfig> {
  const confFile = typeof ctx.opts.conf_file === 'string' ? ctx.opts.conf_file : '/etc/salt/minion';
  return (await loadConfig('master', dirname(confFile))).config;
}

async function openJobCache(
  config: ResolvedMasterConfig,
  ctx: ExecContext,
): Promise<MasterJobCache | undefined> {
  try {
    return await openMasterJobCache(config, masterReturnerLoader(config, ctx.log, BUILTIN_RETURNERS));
  } catch (err) {
    ctx.log.error({ err }, 'the master job cache is unavailable: the job is not stored');
    return undefined;
  }
}

/**
 * Runs a runner or wheel function here with the master's config.
 * @throws SALT_ERR_LOADER_NOT_AVAILABLE when the master has no such function (Salt's `KeyError`)
 */
export async function runMasterFunction(ctx: ExecContext, call: MasterCall): Promise<MasterReturn> {
  const config = await masterConfig(ctx);
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const runners = createRunnerLoader(opts, ctx.log, [BUILTIN_DIRS.runners]);
  const wheel = createWheelLoader(opts, ctx.log, [BUILTIN_DIRS.wheel]);
  const loader = call.kind === 'runner' ? runners : wheel;
  const spec = await loader.get(call.fun);
  if (!spec) throw new SALT_ERR_LOADER_NOT_AVAILABLE(call.fun, '');
  // Salt's load_args_and_kwargs: a function taking **kwargs also gets the pub data (`__pub_user`)
  const kwargs =
    spec.varkw && call.kind === 'runner' ? { ...call.kwargs, __pub_user: call.user } : call.kwargs;
  const store = await openJobCache(config, ctx);
  let jid = '';
  if (store?.def.prepJid) jid = await store.def.prepJid(store.ctx).catch(() => '');
  if (!jid) jid = genJid();
  const client = new RunnerMinionClient(config);
  const { ctx: rctx, retcode } = createRunnerContext({
    opts,
    log: ctx.log,
    jid,
    user: call.user,
    fire: () => undefined,
    client,
    jobs: store ? jobCacheView(store.def, store.ctx) : emptyJobs(),
    runners,
    wheel,
    signal: ctx.signal ?? new AbortController().signal,
  });
  try {
    const outcome =
      call.kind === 'runner'
        ? await invokeFunction('runner', runners, call.fun, call.args, kwargs, rctx, retcode)
        : await invokeFunction('wheel', wheel, call.fun, call.args, kwargs, rctx, retcode);
    const fun = `${call.kind}.${call.fun}`;
    const ret: MasterReturn = {
      fun,
      jid,
      user: call.user,
      fun_args: funArgs(call.args, kwargs),
      return: outcome.return,
      success: outcome.success,
    };
    if (store) {
      await Promise.resolve(
        store.def.returner(
          {
            id: masterId(opts, hostname()),
            jid,
            fun,
            fun_args: ret.fun_args,
            return: ret.return,
            retcode: outcome.retcode,
            success: ret.success,
          },
          store.ctx,
        ),
      ).catch((err: unknown) => ctx.log.error({ err }, 'Could not store job cache info.'));
    }
    return ret;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/**
 * Salt's `saltutil.cmd` on a minion: a publish through the master whose config is beside the
 * minion's, `{minion: {ret, retcode, jid, out}}` for the minions that returned.
 * @throws SALT_ERR_CLIENT_PUBLISH with Salt's text when no master runs on this host
 */
export async function masterCmd(
  ctx: ExecContext,
  tgt: unknown,
  fun: string,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<unknown> {
  const config = await masterConfig(ctx);
  if (!existsSync(join(config.sock_dir, 'master_event_pub.ipc')))
    throw new SaltError(
      'SALT_ERR_CLIENT_PUBLISH',
      'The salt master could not be contacted. Is master running?',
    );
  const client = new RunnerMinionClient(config);
  try {
    return await saltutilCmd(client)([tgt, fun], kwargs);
  } finally {
    await client.close().catch(() => undefined);
  }
}
