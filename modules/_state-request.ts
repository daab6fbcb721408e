/**
 * Queued state requests (Salt's `state.request`, `check_request`, `clear_request`,
 * `run_request`): a test run's result kept by name in `<cachedir>/req_state.p` (msgpack, as
 * Salt's `salt.payload` writes it, mode 0600) until someone runs or clears it.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { packIpc, unpackIpc } from '../kernel/util.js';

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
