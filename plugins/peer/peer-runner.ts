/**
 * A runner run on a minion's behalf (Salt's `AESFuncs.minion_runner`, `publish.runner` on the
 * minion): when the master's `peer_run` allows the minion that function, the runner runs as a
 * runner job of the master's own user (the public client's `runner`) and its return is the
 * answer. A refusal is Salt's `{}`, and Salt's warning in the master log.
 */
import { SaltClient } from '../../client/index.js';
import type { CommandContext } from '../../kernel/index.js';
import { PEER_ERR_DENIED, PEER_ERR_LOAD } from './errors.js';
import { peerOptions } from './options.js';
import { runnerAllowed } from './peer-acl.js';
import { parseInput } from './peer-args.js';

/** `minion_runner`: the runner's return, or `{}` when the load is malformed or not allowed. */
export async function handleMinionRunner(
  load: Record<string, unknown>,
  ctx: CommandContext,
): Promise<unknown> {
  const id = ctx.id;
  const absent = ['fun', 'arg', 'id'].filter((k) => !(k in load));
  const { fun, arg } = load;
  if (id === undefined || absent.length > 0 || typeof fun !== 'string' || !Array.isArray(arg)) {
    const why = absent.length > 0 ? `no ${absent.join(', ')}` : '"fun" must be a string and "arg" a list';
    const err = new PEER_ERR_LOAD('minion_runner', why);
    ctx.log.warn({ id, code: err.code }, err.message);
    return {};
  }
  if (!runnerAllowed(peerOptions.read(ctx.config).peer_run, id, fun)) {
    const err = new PEER_ERR_DENIED('minion_runner', id, fun);
    ctx.log.warn({ id, code: err.code }, `Minion id ${id} is not who it says it is! ${err.message}`);
    return {};
  }
  const { args, kwargs } = parseInput(arg, Array.isArray(load.no_parse) ? load.no_parse : []);
  const client = new SaltClient(ctx.config);
  try {
    ctx.log.info({ id, fun }, 'running a runner for a minion (peer_run)');
    return await client.runner(fun, args, kwargs);
  } catch (err) {
    // Salt's Runner.run answers a failed runner with its error text
    return (err as Error).message;
  } finally {
    await client.close();
  }
}
