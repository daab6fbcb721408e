/**
 * Where a minion's state run reads SLS and top files, and how it renders them (Salt's
 * `HighState.client` and `State.render_state` → `compile_template`): files come through the
 * minion's file client (the master's file server, or its own `file_roots` with
 * `file_client: local`); each renders with its `#!` pipeline or the `renderer` option, with the
 * minion's grains, pillar, opts, `salt[...]` and `salt://` imports, and Salt's template
 * variables `sls`, `slspath`, `tpldir`, `tplfile`.
 */

import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { renderPipeline } from '../plugins/renderers/index.js';
import type { SlsFile, SlsRenderer, SlsSource } from '../plugins/states/index.js';
import { callWithPillar } from './_call-with-pillar.js';
import type { FileClient } from './_file-client.js';
import { templateSalt } from './_template-salt.js';

/** The file client as the state compiler's source of files. */
export function slsSource(fc: FileClient): SlsSource {
  return {
    cacheFile: (url, saltenv) => fc.cacheFile(url, saltenv),
    listStates: (saltenv) => fc.listStates(saltenv),
    envs: () => fc.envs(),
  };
}

/** Salt's `slspath`: the SLS's folder with `/` (`nginx` for `nginx.config` and for `nginx` from `nginx/init.sls`). */
function slspathOf(file: SlsFile): string {
  if (!file.sls) return '';
  const parts = file.sls.split('.');
  return (file.rel.endsWith('/init.sls') ? parts : parts.slice(0, -1)).join('/');
}

/** A renderer of SLS and top files for job `ctx`, seeing `pillar` (the minion's, or a run's override). */
export function slsRenderer(
  ctx: ExecContext,
  fc: FileClient,
  pillar: Readonly<Record<string, unknown>>,
): SlsRenderer {
  // one lookup per name for the whole run: its SLS files and what they import
  const { salt, loadFile } = templateSalt(ctx, fc, callWithPillar(ctx, pillar));
  return async (file) => {
    const source = await readFile(file.path, 'utf8');
    await salt.prepare(source);
    const tpldir = file.rel.includes('/') ? dirname(file.rel) : '';
    const data = await renderPipeline(source, {
      path: file.path,
      defaultPipeline: typeof ctx.opts.renderer === 'string' ? ctx.opts.renderer : 'jinja|yaml',
      context: {
        grains: ctx.grains,
        pillar,
        opts: ctx.opts,
        salt,
        saltenv: file.saltenv,
        sls: file.sls,
        slspath: slspathOf(file),
        tpldir,
        tplfile: file.rel,
        loadFile,
      },
    });
    return data ?? {};
  };
}
