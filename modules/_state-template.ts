/**
 * Salt's `state.template` and `state.template_str` (`salt/modules/state.py`): run the states
 * of one template that does not come from the file server, a file on the minion or a string,
 * rendered with the minion's renderer pipeline, grains and pillar.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFunction, type ExecContext, RetcodeResult } from '../kernel/index.js';
import { localSlsHigh, templateHigh } from '../plugins/states/compile/index.js';
import { statePillarKwargs } from './_pillar-enc.js';
import { cli, locked } from './_state-calls.js';
import { pillarFailure } from './_state-pillar-check.js';
import { callHigh, EX_STATE_COMPILER_ERROR, finish, freshStateCall, type StateKwargs } from './_state-run.js';

const TEMPLATE_STR = '<template-str>';

/** `state.template_str`: the string rendered as an SLS, then run (Salt's `State.call_template_str`). */
export function templateStr(ctx: ExecContext, tem: string, kw: StateKwargs): Promise<unknown> {
  return locked(ctx, kw, async () => {
    const call = await freshStateCall(ctx, await statePillarKwargs(ctx, kw));
    // as Salt's compile_template_str: the string goes through a file of its own
    const dir = await mkdtemp(join(tmpdir(), 'tsalt-tpl-'));
    let rendered: unknown;
    try {
      const path = join(dir, 'template.sls');
      await writeFile(path, tem, { mode: 0o600 });
      rendered = await call.render({ path, rel: 'template.sls', saltenv: call.saltenv, sls: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const got = templateHigh(rendered, TEMPLATE_STR);
    // Salt returns what rendered, and an empty run is a failed one
    if (got === 'empty') return finish({});
    if (got.errors.length > 0) return finish(got.errors);
    return callHigh(call, got.high, []);
  });
}

/** `state.template`: the SLS file at a path on the minion (`.sls` added), rendered and run. */
export function templateFile(ctx: ExecContext, tem: string, kw: StateKwargs): Promise<unknown> {
  const { env: _env, ...rest } = kw;
  return locked(ctx, rest, async () => {
    const call = await freshStateCall(ctx, await statePillarKwargs(ctx, rest));
    const failed = pillarFailure(call, rest);
    if (failed) return failed;
    const path = tem.endsWith('.sls') ? tem : `${tem}.sls`;
    const saltenv = typeof rest.saltenv === 'string' ? rest.saltenv : '';
    if (!existsSync(path)) {
      ctx.log.error(`Template does not exist: ${path}`);
      return new RetcodeResult(
        [`Specified SLS ${path} on local filesystem cannot be found.`],
        EX_STATE_COMPILER_ERROR,
      );
    }
    let rendered: unknown;
    try {
      rendered = await call.render({ path, rel: path, saltenv, sls: path });
    } catch (err) {
      return finish([`Rendering SLS '${saltenv}:${path}' failed: ${(err as Error).message}`]);
    }
    const { high, errors } = localSlsHigh(rendered, path, saltenv, ctx.opts.state_auto_order !== false);
    if (errors.length > 0) return finish(errors);
    return callHigh(call, high, []);
  });
}

/** The two functions; spread into the `state` module's functions. */
export const templateFunctions = {
  template: defineFunction({
    args: (z) => z.object({ tem: z.string(), queue: z.unknown().optional() }),
    varkw: true,
    outputter: 'highstate',
    doc: `Execute the states of a template file on the minion, read from its path rather than asked of the master.${cli("state.template '<Path to template on the minion>'")}`,
    run: (ctx, a, extra) => templateFile(ctx, a.tem, { ...extra.kwargs, queue: a.queue }),
  }),
  template_str: defineFunction({
    args: (z) => z.object({ tem: z.string(), queue: z.unknown().optional() }),
    varkw: true,
    outputter: 'highstate',
    doc: `Execute the states of an SLS template given as a string.${cli("state.template_str '<Template String>'")}`,
    run: (ctx, a, extra) => templateStr(ctx, a.tem, { ...extra.kwargs, queue: a.queue }),
  }),
};
