/**
 * Salt's `reactor` runner: `reactor.list` shows what the reactor listens to; `reactor.test`
 * is tsalt's dry run: it matches a tag, renders the reaction files with the given data and
 * checks each reaction, exactly as the reactor would, without starting anything.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction, SALT_ERR_REACTOR_REACTION } from '../../../kernel/index.js';
import { reactionGlobs } from '../../reactor/define.js';
import { LoopGuard } from '../../reactor/loop-guard.js';
import { reactorOptions } from '../../reactor/options.js';
import { Reactor } from '../../reactor/reactor.js';

type Entries = Array<Record<string, string | string[]>>;

function configDir(opts: Readonly<Record<string, unknown>>): string {
  return typeof opts.config_dir === 'string' ? opts.config_dir : process.cwd();
}

/**
 * The reactor's options as the master has them, TypeScript reactions with their functions:
 * code does not cross into the runner's process, so the config is loaded here.
 */
async function reactorConfig(opts: Readonly<Record<string, unknown>>) {
  const { loadConfig } = await import('../../../kernel/index.js');
  const { config } = await loadConfig('master', configDir(opts), {});
  return { ...reactorOptions.read(config), fileRoots: config.file_roots.base ?? [] };
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
      run: async (ctx) => {
        const { reactor, reactions } = await reactorConfig(ctx.opts);
        const out: Entries = reactor.map((e) => ({ ...e }));
        for (const r of reactions)
          for (const glob of reactionGlobs(r)) out.push({ [glob]: [`ts:${r.name}`] });
        return out;
      },
    }),
    test: defineRunnerFunction({
      args: z.object({ tag: z.string().min(1), data: z.unknown().optional() }),
      doc: 'Dry run: match TAG, render the reactions with DATA (a mapping, JSON or key=value) and check them, starting nothing: salt-run reactor.test my/tag \'{"id": "web1"}\'',
      varkw: true,
      run: async (ctx, { tag, data }, extra) => {
        const kw = Object.fromEntries(Object.entries(extra.kwargs).filter(([k]) => !k.startsWith('__')));
        const payload = data === undefined ? kw : parseData(data);
        const conf = await reactorConfig(ctx.opts);
        const reactor = new Reactor({
          entries: conf.reactor,
          reactions: conf.reactions,
          files: { configDir: configDir(ctx.opts), baseRoots: conf.fileRoots },
          log: { debug: () => undefined, info: () => undefined, warn: () => undefined },
          guard: new LoopGuard(),
        });
        const out = await reactor.handle(tag, payload);
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
