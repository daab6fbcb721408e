/**
 * Salt's `reactor` runner: `reactor.list` shows what the reactor listens to; `reactor.test`
 * is tsalt's dry run: it matches a tag, renders the reaction files with the given data and
 * checks each reaction, exactly as the reactor would, without starting anything.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction } from '../../../kernel/index.js';
import { cleanKwargs } from '../../../modules/_invalid-kwargs.js';
import {
  type ReactorSetup,
  reactorDryRun,
  reactorListing,
  reactorOptions,
  SALT_ERR_REACTOR_REACTION,
} from '../../reactor/index.js';

function configDir(opts: Readonly<Record<string, unknown>>): string {
  return typeof opts.config_dir === 'string' ? opts.config_dir : process.cwd();
}

/**
 * The reactor's options as the master has them, TypeScript reactions with their functions:
 * code does not cross into the runner's process, so the config is loaded here.
 */
async function reactorConfig(opts: Readonly<Record<string, unknown>>): Promise<ReactorSetup> {
  const { loadConfig } = await import('../../../kernel/index.js');
  const { config } = await loadConfig('master', configDir(opts), {});
  const own = reactorOptions.read(config);
  return {
    reactor: own.reactor,
    reactions: own.reactions,
    configDir: configDir(opts),
    fileRoots: config.file_roots.base ?? [],
  };
}

function parseData(data: unknown): unknown {
  if (typeof data !== 'string') return data ?? {};
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export default defineRunner({
  name: 'reactor',
  doc: 'Look at the reactor: what it listens to, and what it would do for an event.',
  functions: {
    list: defineRunnerFunction({
      doc: "List the reactor's tag globs and their files (TypeScript reactions as ts:<name>): salt-run reactor.list",
      run: async (ctx) => reactorListing(await reactorConfig(ctx.opts)),
    }),
    test: defineRunnerFunction({
      args: z.object({ tag: z.string().min(1), data: z.unknown().optional() }),
      doc: 'Dry run: match TAG, render the reactions with DATA (a mapping, JSON or key=value) and check them, starting nothing: salt-run reactor.test my/tag \'{"id": "web1"}\'',
      varkw: true,
      run: async (ctx, { tag, data }, extra) => {
        const kw = cleanKwargs(extra.kwargs);
        const payload = data === undefined ? kw : parseData(data);
        const out = await reactorDryRun(await reactorConfig(ctx.opts), tag, payload);
        if (!out) return { tag, matched: false, reactions: [], errors: [] };
        // what the reactor checks before it starts a job, without starting it
        for (const r of out.reactions) {
          let why: string | undefined;
          if (r.kind === 'caller') why = 'caller reactions are not supported by tsalt';
          else if (r.kind !== 'local') {
            const known = await ctx.functions.docs(r.kind, r.fun).catch(() => ({}));
            if (!Object.hasOwn(known, r.fun)) why = `${r.kind} function '${r.fun}' is not available.`;
          }
          if (why) {
            const err = new SALT_ERR_REACTOR_REACTION(`${r.id} (${r.source})`, why);
            out.errors.push({
              stage: 'reaction',
              code: err.code,
              message: err.message,
              file: r.source,
              reaction: r.id,
            });
          }
        }
        if (out.errors.length > 0) ctx.setRetcode(1);
        return {
          tag,
          matched: out.globs.length > 0,
          globs: out.globs,
          reactions: out.reactions,
          errors: out.errors,
        };
      },
    }),
  },
});
