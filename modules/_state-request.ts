/**
 * Queued state requests (Salt's `state.request`, `check_request`, `clear_request`,
 * `run_request`): a test run's result kept by name in `<cachedir>/req_state.p` (msgpack, as
 * Salt's `salt.payload` writes it, mode 0600) until someone runs or clears it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, type ExecContext, type FunctionSpec, RetcodeResult } from '../kernel/index.js';
import { packIpc, unpackIpc } from '../kernel/util.js';
import { cli, highstate, modsArg, modsOf, sls } from './_state-calls.js';

/** One stored request: the test run's result, the SLS names and the call's keywords. */
export interface StateRequest {
  test_run: unknown;
  mods: unknown;
  kwargs: Record<string, unknown>;
}

function requestFile(ctx: ExecContext): string {
  return join(String(ctx.opts.cachedir), 'req_state.p');
}

/** Every stored request by name (`{}` when there is none). */
export async function readRequests(ctx: ExecContext): Promise<Record<string, StateRequest>> {
  try {
    const data = unpackIpc(await readFile(requestFile(ctx)));
    return data && typeof data === 'object' ? (data as Record<string, StateRequest>) : {};
  } catch {
    return {};
  }
}

export async function writeRequests(ctx: ExecContext, reqs: Record<string, StateRequest>): Promise<void> {
  await writeFile(requestFile(ctx), packIpc(reqs), { mode: 0o600 });
}

/** Salt's `clear_request`: all of them, or one by name (false when it is not there). */
export async function clearRequest(ctx: ExecContext, name?: string | null): Promise<boolean> {
  if (!name) {
    await rm(requestFile(ctx), { force: true });
    return true;
  }
  const reqs = await readRequests(ctx);
  if (!(name in reqs)) return false;
  delete reqs[name];
  await writeRequests(ctx, reqs);
  return true;
}

/** The `state.*request` functions. */
export const requestFunctions: Record<string, FunctionSpec> = {
  request: defineFunction({
    args: (z) => z.object({ mods: modsArg(z).nullish() }),
    varkw: true,
    outputter: 'highstate',
    doc: `Request that the local admin execute a state run via salt-call state.run_request: the run is tested now and kept.${cli('state.request nginx')}`,
    run: async (ctx, a, extra) => {
      const { mods } = a;
      const { name: named = 'default', ...rest } = extra.kwargs;
      const name = String(named);
      const kw = { ...rest, test: true };
      const value = modsOf(mods).length > 0 ? await sls(ctx, mods, kw) : await highstate(ctx, kw);
      const ret = value instanceof RetcodeResult ? value.value : value;
      const reqs = await readRequests(ctx);
      const kwargs = Object.fromEntries(
        Object.entries(kw).filter(([k, v]) => v !== undefined && !k.startsWith('__')),
      );
      reqs[name] = { test_run: ret, mods: mods ?? null, kwargs };
      await writeRequests(ctx, reqs);
      return value;
    },
  }),
  check_request: defineFunction({
    args: (z) => z.object({ name: z.string().nullish() }),
    doc: `Return the state request information, if any.${cli('state.check_request')}`,
    run: async (ctx, a) => {
      const reqs = await readRequests(ctx);
      return a.name ? (reqs[a.name] ?? {}) : reqs;
    },
  }),
  clear_request: defineFunction({
    args: (z) => z.object({ name: z.string().nullish() }),
    doc: `Clear out the state execution request without executing it.${cli('state.clear_request')}`,
    run: (ctx, a) => clearRequest(ctx, a.name),
  }),
  run_request: defineFunction({
    args: (z) => z.object({ name: z.string().default('default') }),
    varkw: true,
    outputter: 'highstate',
    doc: `Execute the pending state request.${cli('state.run_request')}`,
    run: async (ctx, a, extra) => {
      const req = (await readRequests(ctx))[a.name];
      if (!req || !('mods' in req) || !('kwargs' in req)) return {};
      const { test: _test, ...kw } = { ...req.kwargs, ...extra.kwargs };
      const value = modsOf(req.mods).length > 0 ? await sls(ctx, req.mods, kw) : await highstate(ctx, kw);
      await clearRequest(ctx);
      return value;
    },
  }),
};
