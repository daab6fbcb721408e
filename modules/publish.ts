/**
 * Salt's `publish` execution module (`salt/modules/publish.py`): a minion publishes a job to
 * other minions through the master (`minion_pub`, then `pub_ret` until every targeted minion
 * returned or the timeout passed), or runs a runner on the master (`minion_runner`). The master
 * allows each by its `peer` and `peer_run` options (plugins/peer); a refusal is `{}`.
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { yamlifyArg } from '../kernel/util.js';
import { isMapping } from './_traverse.js';

const POLL_SECONDS = 0.3;
const RUNNER_WAIT_MS = 60_000;

/** Whether this minion has no master to publish through (`salt-call --local`, `file_client: local`). */
function masterless(ctx: ExecContext): boolean {
  const o = ctx.opts;
  return !ctx.master || o.local === true || o.file_client === 'local' || o.master_type === 'disable';
}

/** Salt's `_parse_args`: the argument YAML-typed, as a list (none: `[]`). */
function parseArgs(arg: unknown): unknown[] {
  const typed = yamlifyArg(arg);
  if (typed === null || typed === undefined) return [];
  return Array.isArray(typed) ? typed : [typed];
}

/** `via_master` names one of the configured masters; anything else is Salt's invocation error. */
function checkViaMaster(ctx: ExecContext, via: string): void {
  const masters = ([] as unknown[]).concat(ctx.opts.master ?? []).map(String);
  if (masters.includes(via)) return;
  throw new SALT_ERR_INVOCATION(
    `Could not find match for ${via} in list of configured masters ${JSON.stringify(masters)} when using \`via_master\` option`,
  );
}

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

interface PublishCall {
  tgt: unknown;
  fun: string;
  arg?: unknown;
  tgt_type: string;
  returner: string;
  timeout: number;
  via_master?: string | null | undefined;
}

/** Salt's `_publish` with `wait=True`: the returns by minion (`form: clean`) or as the master keeps them (`full`). */
async function publishAndWait(ctx: ExecContext, a: PublishCall, form: 'clean' | 'full'): Promise<unknown> {
  if (masterless(ctx)) {
    ctx.log.error('Cannot run publish commands without a connection to a salt master. No command sent.');
    return {};
  }
  if (a.fun.startsWith('publish.')) {
    ctx.log.info('Cannot publish publish calls. Returning {}');
    return {};
  }
  if (a.via_master) checkViaMaster(ctx, a.via_master);
  const master = ctx.master!;
  const load = {
    cmd: 'minion_pub',
    fun: a.fun,
    arg: parseArgs(a.arg),
    tgt: a.tgt,
    tgt_type: a.tgt_type,
    ret: a.returner,
    tmo: a.timeout,
    form,
    id: ctx.id,
    no_parse: Array.isArray(ctx.opts.no_parse) ? ctx.opts.no_parse : [],
  };
  ctx.log.info(`Publishing '${a.fun}' to the master`);
  let peer: unknown;
  try {
    peer = await master.request(load);
  } catch {
    return `'${a.fun}' publish timed out`;
  }
  if (!isMapping(peer) || Object.keys(peer).length === 0) return {};
  const matched = new Set(Array.isArray(peer.minions) ? peer.minions.map(String) : []);
  // nothing matched: Salt's loop never runs, and the function answers None
  if (matched.size === 0) return null;
  for (let round = 0; ; round++) {
    const got = await master.request({ cmd: 'pub_ret', id: ctx.id, jid: peer.jid });
    const ret = isMapping(got) ? got : {};
    const returned = Object.keys(ret);
    const all = [...matched].every((m) => returned.includes(m));
    if (!all && POLL_SECONDS * round > a.timeout && returned.length === 0) return {};
    if (all || POLL_SECONDS * round > a.timeout) {
      if (form === 'full') return ret;
      return Object.fromEntries(returned.map((m) => [m, isMapping(ret[m]) ? ret[m].ret : undefined]));
    }
    await sleep(POLL_SECONDS);
  }
}

const publishArgs = (z: typeof import('zod').z) =>
  z.object({
    tgt: z.union([z.string(), z.array(z.string())], { error: 'tgt must be a string or a list of strings' }),
    fun: z.string({ error: 'fun must be a string' }),
    arg: z.unknown().optional(),
    tgt_type: z.string().default('glob'),
    returner: z.string().default(''),
    timeout: z.coerce.number({ error: 'timeout must be a number' }).default(5),
    via_master: z.string().nullish(),
  });

const ATTENTION =
  "\n\nAn argument whose value holds an equal sign needs its name: `publish.publish '*' test.kwarg arg='cheese=spam'`.";

export default defineModule({
  name: 'publish',
  doc: 'Publish a command from a minion to a target.',
  functions: {
    publish: defineFunction({
      args: publishArgs,
      doc: `Publish a command from the minion out to other minions. The master must allow it (\`peer\`), and a minion cannot publish publish calls. Arguments for the published function are one comma-free string or a list; \`tgt_type\` is glob, pcre, grain, grain_pcre, pillar, pillar_pcre, ipcidr, range or compound.${ATTENTION}\n\nCLI Example:\n\n    salt system.example.com publish.publish '*' cmd.run 'ls -la /tmp'`,
      run: (ctx, a) => publishAndWait(ctx, a, 'clean'),
    }),
    full_data: defineFunction({
      // Salt's full_data has no via_master
      args: (z) => publishArgs(z).omit({ via_master: true }),
      doc: `Return the full data about the publication, invoked as publish.publish.${ATTENTION}\n\nCLI Example:\n\n    salt system.example.com publish.full_data '*' cmd.run 'ls -la /tmp'`,
      run: (ctx, a) => publishAndWait(ctx, { ...a, via_master: undefined }, 'full'),
    }),
    runner: defineFunction({
      args: (z) =>
        z.object({
          fun: z.string({ error: 'fun must be a string' }),
          arg: z.unknown().optional(),
          timeout: z.coerce.number({ error: 'timeout must be a number' }).default(5),
        }),
      doc: "Execute a runner on the master and return the data from the runner function (the master's `peer_run` must allow it).\n\nCLI Example:\n\n    salt publish.runner manage.down",
      run: async (ctx, a) => {
        if (masterless(ctx)) return 'No access to master. If using salt-call with --local, please remove.';
        ctx.log.info(`Publishing runner '${a.fun}' to the master`);
        const load = {
          cmd: 'minion_runner',
          fun: a.fun,
          arg: parseArgs(a.arg),
          tmo: a.timeout,
          id: ctx.id,
          no_parse: Array.isArray(ctx.opts.no_parse) ? ctx.opts.no_parse : [],
        };
        try {
          // the master answers once the runner returned: Salt's channel waits up to 60 s
          return await ctx.master!.request(load, { timeoutMs: RUNNER_WAIT_MS });
        } catch {
          return `'${a.fun}' runner publish timed out`;
        }
      },
    }),
  },
});
