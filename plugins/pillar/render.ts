/**
 * Renders one pillar file (Salt's `compile_template` with `_pillar_rend`) through the
 * renderers plugin's pipeline (`#!jinja|yaml` by default, the master's `renderer` option):
 * templates see `grains`, `pillar`, `opts`, `salt`, `saltenv`, `sls`, `slspath`, `tpldir`,
 * `tplfile` and an include's `defaults`; `import_yaml`/`include` read from the same pillarenv's roots.
 * A failure becomes PILLAR_ERR_RENDER, whose message names the file, line and column and whose
 * `logLine` leaves out the quoted source line (pillar text is secret: logs never show it).
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RenderErrorDetails, RendererDef, SaltFunctions } from '../renderers/index.js';
import { PILLAR_ERR_RENDER } from './errors.js';
import { findFile, type PillarRoots } from './roots.js';

/** What a pillar template sees (grains, the pillar so far, its saltenv and SLS name). */
export interface PillarRenderContext {
  /** The file's path, for errors. */
  path: string;
  /** The file relative to its root (`x/init.sls`), for `tplfile`/`tpldir`. */
  rel?: string;
  saltenv: string;
  sls?: string;
  grains: Readonly<Record<string, unknown>>;
  pillar: Readonly<Record<string, unknown>>;
  opts: Readonly<Record<string, unknown>>;
  /** `include` defaults, visible to the template as variables. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Where `import_yaml`/`include` look (the pillar roots). */
  roots?: PillarRoots;
  /** The default pipeline (Salt's `renderer`). */
  renderer?: string;
  /** The renderers by name (default: the built-ins). */
  renderers?: ReadonlyMap<string, RendererDef>;
  /** `salt['mod.fn']` (the compiling side's functions; none when absent). */
  salt?: SaltFunctions;
}

/** File texts by path, kept while the file's mtime and size stay the same (1,000 minions read the same files). */
const texts = new Map<string, { mtimeMs: number; size: number; text: string }>();
const MAX_CACHED = 10_000;

/** The text of `path`, read again only when the file changed. */
export function readText(path: string): string {
  const st = statSync(path);
  const hit = texts.get(path);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.text;
  const text = readFileSync(path, 'utf8');
  if (texts.size >= MAX_CACHED) texts.clear();
  texts.set(path, { mtimeMs: st.mtimeMs, size: st.size, text });
  return text;
}

/** The error text for a log line: file, line, column and reason, never the quoted source. */
export function logLine(err: unknown): string {
  const d = (err as { details?: Partial<RenderErrorDetails> }).details;
  if (d && typeof d.file === 'string') {
    const reason = String(d.reason ?? '').split('\n')[0];
    return `${d.file}, line ${d.line ?? 0}, column ${d.column ?? 0}: ${reason}`;
  }
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

let renderersDoor: Promise<typeof import('../renderers/index.js')> | undefined;
/** The renderers' door, imported once (a master renders several files for each minion's compile). */
function renderers(): Promise<typeof import('../renderers/index.js')> {
  renderersDoor ??= import('../renderers/index.js');
  return renderersDoor;
}

/** Renders the file at `ctx.path`: its data (`{}` for an empty file). Throws PILLAR_ERR_RENDER. */
export async function renderPillarFile(ctx: PillarRenderContext): Promise<unknown> {
  const source = readText(ctx.path);
  const rel = ctx.rel ?? '';
  const tpldir = rel.includes('/') ? dirname(rel) : '';
  try {
    await ctx.salt?.prepare?.(source);
    // the renderers (Jinja, YAML, gpg, ...: ~40 modules) load with the first file to render, so
    // a pillar without files (`salt-call --local` with no top file) never loads them
    const { NO_SALT_FUNCTIONS, renderPipeline } = await renderers();
    const data = await renderPipeline(source, {
      path: ctx.path,
      defaultPipeline: ctx.renderer ?? 'jinja|yaml',
      renderers: ctx.renderers,
      context: {
        grains: ctx.grains,
        pillar: ctx.pillar,
        opts: ctx.opts,
        salt: ctx.salt ?? NO_SALT_FUNCTIONS,
        saltenv: ctx.saltenv,
        sls: ctx.sls ?? '',
        slspath: ctx.sls
          ? ctx.sls
              .split('.')
              .slice(0, rel.endsWith('/init.sls') ? undefined : -1)
              .join('/')
          : '',
        tpldir,
        tplfile: rel,
        extra: ctx.defaults,
        loadFile: async (name, saltenv) => {
          const path = ctx.roots ? findFile(ctx.roots, saltenv, name.replace(/^salt:\/\//, '')) : undefined;
          if (!path) return undefined;
          const text = readText(path);
          await ctx.salt?.prepare?.(text);
          return { source: text, path };
        },
      },
    });
    return data ?? {};
  } catch (err) {
    const d = (err as { details?: Partial<RenderErrorDetails> }).details;
    throw new PILLAR_ERR_RENDER(err instanceof Error ? err.message : String(err), {
      cause: err,
      details: d ?? {
        file: ctx.path,
        line: 0,
        column: 0,
        reason: err instanceof Error ? err.message : String(err),
      },
    });
  }
}
