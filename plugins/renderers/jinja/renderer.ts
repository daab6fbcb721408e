/**
 * The `jinja` renderer (salt/renderers/jinja.py → salt/utils/templates.py `render_jinja_tmpl`):
 * text → text with Salt's template globals (`salt`, `grains`, `pillar`, `opts`, `saltenv`,
 * `sls`, `slspath`, `tpldir`, `tplfile`, ...), StrictUndefined, imports through the context's
 * `loadFile`, and every failure a SALT_ERR_RENDER_* error that says where. `renderJinja` is the
 * same for `file.managed`/`cp.get_template` templates outside a pipeline.
 */

import { dirname } from 'node:path/posix';
import {
  SALT_ERR_RENDER_FAILED,
  SALT_ERR_RENDER_LIMIT,
  SALT_ERR_RENDER_MISSING,
  SALT_ERR_RENDER_SYNTAX,
} from '../errors.js';
import { DEFAULT_RENDER_LIMITS, deadline } from '../limits.js';
import type { RenderContext, RendererDef, RenderLimits } from '../types.js';
import { renderError } from '../where.js';
import { saltGlobals } from './globals.js';
import { SALT_FILTERS, SALT_TESTS } from './salt-filters.js';
import { SaltProxy } from './salt-proxy.js';
import { compile, renderAsync, type TemplateEnv } from './template.js';
import { TemplateError } from './values.js';

/**
 * Salt's template variables for `context` (salt/utils/templates.py `wrap_tmpl_func`): the
 * context's own values over the defaults; an SLS file's `sls`/`tpldir`/... over both. A file
 * template (`file.managed`, `cp.get_template`, `cmd.run`: no `sls`, `tplfile` or `tpldir`) has
 * none of those unless its context gives them, as in Salt.
 */
function templateVars(context: RenderContext): Record<string, unknown> {
  const vars: Record<string, unknown> = {
    salt: new SaltProxy(context.salt),
    __salt__: new SaltProxy(context.salt),
    grains: context.grains,
    __grains__: context.grains,
    pillar: context.pillar,
    __pillar__: context.pillar,
    opts: context.opts,
    __opts__: context.opts,
    saltenv: context.saltenv,
    env: context.saltenv,
    ...context.extra,
  };
  if (context.sls === undefined && context.tplfile === undefined && context.tpldir === undefined) return vars;
  const tplfile = context.tplfile ?? '';
  const tpldir = context.tpldir ?? (tplfile.includes('/') ? tplfile.slice(0, tplfile.lastIndexOf('/')) : '');
  return Object.assign(vars, {
    sls: context.sls ?? '',
    slspath: context.slspath ?? '',
    slsdotpath: (context.slspath ?? '').replace(/\//g, '.'),
    slscolonpath: (context.slspath ?? '').replace(/\//g, ':'),
    sls_path: (context.slspath ?? '').replace(/\//g, '_'),
    tplfile,
    tpldir: tpldir || '.',
    tpldot: tpldir.replace(/\//g, '.'),
    tplpath: tplfile,
  });
}

/** A TemplateError as the SaltError it stands for, with file, line, column and chain. */
function toSaltError(err: TemplateError, path: string, source: string, chain: readonly string[]): Error {
  const Cls =
    err.kind === 'syntax'
      ? SALT_ERR_RENDER_SYNTAX
      : err.kind === 'limit'
        ? SALT_ERR_RENDER_LIMIT
        : err.kind === 'missing'
          ? SALT_ERR_RENDER_MISSING
          : SALT_ERR_RENDER_FAILED;
  const prefix =
    err.kind === 'syntax'
      ? 'Jinja syntax error: '
      : err.kind === 'runtime' && /is undefined|has no attribute|has no key/.test(err.message)
        ? 'Jinja variable '
        : '';
  return renderError(
    Cls,
    {
      path: err.path ?? path,
      line: err.line,
      column: err.column,
      source: err.source ?? source,
      chain: err.chain ?? chain,
    },
    prefix + err.message,
  );
}

/** Options of {@link renderJinja}. */
export interface JinjaOptions {
  readonly path: string;
  readonly limits?: Partial<RenderLimits>;
  readonly chain?: readonly string[];
  readonly checkDeadline?: () => void;
}

/** Renders Jinja `source` with Salt's globals for `context`. */
export async function renderJinja(source: string, context: RenderContext, o: JinjaOptions): Promise<string> {
  const limits: RenderLimits = { ...DEFAULT_RENDER_LIMITS, ...o.limits };
  const chain = o.chain ?? [];
  const vars = templateVars(context);
  const env: TemplateEnv = {
    sandbox: false,
    filters: SALT_FILTERS,
    tests: SALT_TESTS,
    // Salt puts the context in the environment's globals: imports without context see it too
    globals: { ...saltGlobals(() => vars), ...vars },
    load: context.loadFile
      ? (name) => (context.loadFile as NonNullable<RenderContext['loadFile']>)(name, context.saltenv)
      : undefined,
    // relative imports resolve from `tpldir`, a file template's from the one its context gives
    tpldir:
      context.tpldir ??
      (context.tplfile === undefined
        ? typeof vars.tpldir === 'string'
          ? vars.tpldir
          : undefined
        : dirname(context.tplfile)),
    maxDepth: limits.maxDepth,
    maxIterations: limits.maxIterations,
    maxOutput: limits.maxOutput,
    dropTrailingNewline: true,
    checkDeadline: o.checkDeadline ?? deadline(o.path, limits.timeoutMs),
  };
  try {
    const tpl = compile(source, o.path, env, chain);
    const out = await renderAsync(tpl, {}, env);
    // Salt keeps the template's final newline, which Jinja2 drops
    return source.endsWith('\n') ? `${out}\n` : out;
  } catch (err) {
    if (err instanceof TemplateError) throw toSaltError(err, o.path, source, chain);
    if (err instanceof RangeError)
      throw renderError(
        SALT_ERR_RENDER_LIMIT,
        { path: o.path, line: 0, column: 0, chain },
        `the template nests too deeply: ${err.message}`,
      );
    throw err;
  }
}

export const jinjaRenderer: RendererDef = {
  name: 'jinja',
  render: (input, context, step) =>
    renderJinja(String(input), context, {
      path: step.path,
      limits: step.limits,
      chain: step.chain,
      checkDeadline: step.checkDeadline,
    }),
};
