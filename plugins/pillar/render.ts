/**
 * Renders one pillar file (Salt's `compile_template` with `_pillar_rend`): today plain YAML
 * through the `yaml` package, until the renderers plugin's pipeline (`#!jinja|yaml`) replaces
 * this one function. A parse error names the file, line and column, never the offending text
 * (pillar text is secret: the error may reach a log).
 */
import { readFile } from 'node:fs/promises';
import { PILLAR_ERR_RENDER } from './errors.js';

/** What a pillar template sees (grains, the pillar so far, its saltenv and SLS name). */
export interface PillarRenderContext {
  /** The file's path, for errors. */
  path: string;
  saltenv: string;
  sls?: string;
  grains: Readonly<Record<string, unknown>>;
  pillar: Readonly<Record<string, unknown>>;
  opts: Readonly<Record<string, unknown>>;
  /** `include` defaults, visible to the template as variables. */
  defaults?: Readonly<Record<string, unknown>>;
}

/** Renders the file at `ctx.path`: its data (`{}` for an empty file). Throws PILLAR_ERR_RENDER. */
export async function renderPillarFile(ctx: PillarRenderContext): Promise<unknown> {
  const text = await readFile(ctx.path, 'utf8');
  const { parse, YAMLParseError } = await import('yaml');
  try {
    const data = parse(text, { version: '1.1', maxAliasCount: 1000 });
    return data ?? {};
  } catch (err) {
    if (err instanceof YAMLParseError) {
      const pos = err.linePos?.[0];
      const reason = err.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'parse error';
      throw new PILLAR_ERR_RENDER(ctx.path, pos?.line ?? 0, pos?.col ?? 0, reason);
    }
    throw new PILLAR_ERR_RENDER(ctx.path, 0, 0, (err as Error).message);
  }
}
