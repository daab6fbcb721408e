/**
 * Salt's `reactor` runner: `reactor.list` shows what the reactor listens to; `reactor.test`
 * is tsalt's dry run: it matches a tag, renders the reaction files with the given data and
 * checks each reaction, exactly as the reactor would, without starting anything.
 */
import { z } from 'zod';
import { SALT_ERR_REACTOR_REACTION } from '../../../kernel/errors.js';
import { isReactionDef, type ReactionDef, reactionGlobs } from '../../../kernel/reactions/define.js';
import { defineRunner, defineRunnerFunction } from '../../../kernel/runners/define.js';
import { LoopGuard } from '../../reactor/loop-guard.js';
import { Reactor } from '../../reactor/reactor.js';

type Entries = Array<Record<string, string | string[]>>;

function entriesOf(opts: Readonly<Record<string, unknown>>): Entries {
  return Array.isArray(opts.reactor) ? (opts.reactor as Entries) : [];
}

function configDir(opts: Readonly<Record<string, unknown>>): string {
  return typeof opts.config_dir === 'string' ? opts.config_dir : process.cwd();
}

/** The TypeScript reactions, with their functions: they live in the code config, loaded here. */
async function loadReactions(opts: Readonly<Record<string, unknown>>): Promise<ReactionDef[]> {
  if (!Array.isArray(opts.reactions) || opts.reactions.length === 0) return [];
  const { loadConfig } = await import('../../../kernel/config/index.js');
  const { config } = await loadConfig('master', configDir(opts), {});
  return config.reactions.filter(isReactionDef);
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
      run: (ctx) => {
        const out: Entries = entriesOf(ctx.opts).map((e) => ({ ...e }));
        const reactions = Array.isArray(ctx.opts.reactions) ? ctx.opts.reactions : [];
        for (const r of reactions as Array<{ name?: unknown; tags?: unknown }>) {
          if (typeof r?.name !== 'string') continue;
          const tags =
            typeof r.tags === 'string' || Array.isArray(r.tags)
              ? reactionGlobs({ tags: r.tags as string[] })
              : [];
          for (const glob of tags) out.push({ [glob]: [`ts:${r.name}`] });
        }
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
        const opts = ctx.opts;
        const files = opts.file_roots as { base?: string[] } | undefined;
        const reactor = new Reactor({
          entries: entriesOf(opts),
          reactions: await loadReactions(opts),
          files: { configDir: configDir(opts), baseRoots: files?.base ?? [] },
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
