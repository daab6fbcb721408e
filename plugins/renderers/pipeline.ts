/**
 * Runs a file through its renderer pipeline (Salt's `salt/template.py`, `compile_template` and
 * `template_shebang`): the first line `#!jinja|yaml` (each part a renderer name and its
 * argline) or else the default pipeline, each renderer's output the next one's input. The
 * shebang line stays in the text, as in Salt (YAML reads it as a comment).
 */
import { SALT_ERR_RENDER_UNKNOWN } from './errors.js';
import { DEFAULT_RENDER_LIMITS, deadline } from './limits.js';
import type { RenderContext, RendererDef, RenderLimits } from './types.js';

export interface PipelineOptions {
  /** The file rendered: a path or `salt://` URL, for errors and the js renderer. */
  readonly path: string;
  readonly context: RenderContext;
  /** Salt's `renderer` option (default `jinja|yaml`). */
  readonly defaultPipeline?: string;
  /** The renderers by name (default: the built-ins); a plugin's `all('renderers')` goes here. */
  readonly renderers?: ReadonlyMap<string, RendererDef> | readonly RendererDef[];
  readonly limits?: Partial<RenderLimits>;
  /** The includes/imports that led to this file, outermost first. */
  readonly chain?: readonly string[];
}

/** Salt's old combined names (`yaml_jinja` = `jinja|yaml`). */
const OLD_STYLE: Record<string, string> = {
  yaml_jinja: 'jinja|yaml',
  json_jinja: 'jinja|json',
};

/** The `(name, argline)` steps of a pipeline string. */
export function parsePipeline(pipe: string): Array<{ name: string; argline: string }> {
  const text = OLD_STYLE[pipe.trim()] ?? pipe;
  return text
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const i = p.search(/\s/);
      return i === -1 ? { name: p, argline: '' } : { name: p.slice(0, i), argline: p.slice(i).trim() };
    });
}

/** The pipeline a file asks for: its `#!` first line (not a `#!/` path), else `fallback`. */
export function pipelineOf(source: string, fallback: string): string {
  const first = source.slice(0, source.indexOf('\n') === -1 ? source.length : source.indexOf('\n'));
  return first.startsWith('#!') && !first.startsWith('#!/') ? first.slice(2).trim() : fallback;
}

let builtins: ReadonlyMap<string, RendererDef> | undefined;

/** The built-in renderers, loaded on first use (keeps the import graph acyclic). */
async function builtinRenderers(): Promise<ReadonlyMap<string, RendererDef>> {
  if (!builtins) {
    const { BUILTIN_RENDERERS } = await import('./builtins.js');
    builtins = new Map(BUILTIN_RENDERERS.map((r) => [r.name, r]));
  }
  return builtins;
}

/** Renders `source` through its pipeline; the result is the last renderer's output. */
export async function renderPipeline(source: string, o: PipelineOptions): Promise<unknown> {
  const table =
    o.renderers === undefined
      ? await builtinRenderers()
      : o.renderers instanceof Map
        ? o.renderers
        : new Map((o.renderers as readonly RendererDef[]).map((r) => [r.name, r]));
  const limits: RenderLimits = { ...DEFAULT_RENDER_LIMITS, ...o.limits };
  const steps = parsePipeline(pipelineOf(source, o.defaultPipeline ?? 'jinja|yaml'));
  const known = [...table.keys()].join(', ');
  if (steps.length === 0) throw new SALT_ERR_RENDER_UNKNOWN(o.path, '', known);
  const defs = steps.map((s) => {
    const def = table.get(s.name);
    if (!def) throw new SALT_ERR_RENDER_UNKNOWN(o.path, s.name, known);
    return { def, argline: s.argline };
  });
  const checkDeadline = deadline(o.path, limits.timeoutMs);
  let data: unknown = source;
  for (const { def, argline } of defs) {
    checkDeadline();
    data = await def.render(data, o.context, {
      path: o.path,
      argline,
      limits,
      chain: o.chain ?? [],
      checkDeadline,
      renderers: table,
    });
  }
  return data;
}
