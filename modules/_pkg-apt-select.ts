/**
 * dpkg selections for the apt backend (Salt's `aptpkg.get_selections`, `set_selections`,
 * `hold`, `unhold`): `dpkg --get-selections` read into `{state: [pkg]}`, single lines fed to
 * `dpkg --set-selections`, and holds built on them.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { callApt } from './_pkg-apt-call.js';
import { execCommand } from './_pkg-exec.js';

/** dpkg selection state → packages. */
export type Selections = Record<string, string[]>;

function parseSelections(lines: readonly string[]): Selections {
  const ret: Selections = {};
  for (const line of lines) {
    const cols = line.split(/\s+/).filter(Boolean);
    if (cols.length !== 2) continue;
    const [pkg = '', state = ''] = cols;
    const list = ret[state] ?? [];
    list.push(pkg);
    ret[state] = list;
  }
  return ret;
}

/** Salt's `pkg.get_selections`: `{state: [pkgs]}`, for a glob `pattern`, or only `state`. */
export async function getSelections(
  ctx: ExecContext,
  pattern?: string | null,
  state?: string | null,
): Promise<Selections> {
  const out = await execCommand(['dpkg', '--get-selections', pattern || '*'], { signal: ctx.signal });
  const ret = parseSelections(out.stdout.split('\n'));
  return state ? { [state]: ret[state] ?? [] } : ret;
}

const VALID_STATES = ['install', 'hold', 'deinstall', 'purge'];

/** Salt's `pkg.set_selections`: `{pkg: {old, new}}` for each package whose state changed. */
export async function setSelections(
  ctx: ExecContext,
  a: { path?: string | null; selection?: unknown; clear?: boolean; saltenv?: string },
  test: boolean,
): Promise<Record<string, { old: string | null; new: string }>> {
  const ret: Record<string, { old: string | null; new: string }> = {};
  if (!a.path && !a.selection) return ret;
  if (a.path && a.selection)
    throw new SALT_ERR_INVOCATION(
      "The 'selection' and 'path' arguments to pkg.set_selections are mutually exclusive, and cannot be specified together",
    );
  let selection: unknown = a.selection;
  if (typeof selection === 'string') {
    try {
      selection = parseYaml(selection);
    } catch (err) {
      throw new SALT_ERR_INVOCATION(`Improperly-formatted selection: ${(err as Error).message}`);
    }
  }
  if (a.path) {
    let file = a.path;
    if (/^[a-z0-9+.-]+:\/\//i.test(file)) {
      const cached = await ctx.call('cp.cache_file', [file, a.saltenv ?? 'base']);
      if (typeof cached !== 'string' || !cached) throw new SALT_ERR_EXEC_COMMAND(`Unable to cache ${file}`);
      file = cached;
    }
    selection = parseSelections(readFileSync(file, 'utf8').split('\n'));
  }
  if (!selection || typeof selection !== 'object' || Array.isArray(selection)) return ret;
  const sel = selection as Record<string, unknown>;
  const bad = Object.keys(sel).filter((s) => !VALID_STATES.includes(s));
  if (bad.length) throw new SALT_ERR_INVOCATION(`Invalid state(s): ${bad.join(', ')}`);
  if (a.clear && !test) {
    const res = await callApt(ctx, ['dpkg', '--clear-selections']);
    if (res.retcode !== 0)
      throw new SALT_ERR_EXEC_COMMAND(`Running dpkg --clear-selections failed: ${res.stderr}`);
  }
  const current: Record<string, string> = {};
  for (const [state, pkgs] of Object.entries(await getSelections(ctx)))
    for (const p of pkgs) current[p] = state;
  for (const [state, pkgs] of Object.entries(sel)) {
    for (const p of Array.isArray(pkgs) ? pkgs : [pkgs]) {
      const pkg = pyStr(p);
      if (current[pkg] === state || test) continue;
      const res = await callApt(ctx, ['dpkg', '--set-selections'], { stdin: `${pkg} ${state}` });
      if (res.retcode !== 0) ctx.log.error(`failed to set state ${state} for package ${pkg}`);
      else ret[pkg] = { old: current[pkg] ?? null, new: state };
    }
  }
  return ret;
}

/** One package's hold/unhold result (Salt's per-target dict). */
export interface HoldResult {
  name: string;
  changes: Record<string, unknown>;
  result: boolean | null;
  comment: string;
}

/** The packages `hold`/`unhold` act on: `pkgs`, else the names of `sources`, else `name`. */
function holdTargets(a: { name?: string | null; pkgs?: unknown; sources?: unknown }): string[] {
  const hasPkgs = Array.isArray(a.pkgs) && a.pkgs.length > 0;
  const hasSources = Array.isArray(a.sources) && a.sources.length > 0;
  if (!a.name && !hasPkgs && !hasSources)
    throw new SALT_ERR_INVOCATION('One of name, pkgs, or sources must be specified.');
  if (hasPkgs && hasSources) throw new SALT_ERR_INVOCATION('Only one of pkgs or sources can be specified.');
  const list: unknown[] = hasPkgs ? (a.pkgs as unknown[]) : hasSources ? (a.sources as unknown[]) : [a.name];
  return list.map((t) => (t && typeof t === 'object' ? (Object.keys(t)[0] ?? '') : pyStr(t)));
}

/** Salt's `pkg.hold`. */
export async function hold(
  ctx: ExecContext,
  a: { name?: string | null; pkgs?: unknown; sources?: unknown },
  test: boolean,
): Promise<Record<string, HoldResult>> {
  const ret: Record<string, HoldResult> = {};
  for (const target of holdTargets(a)) {
    const r: HoldResult = { name: target, changes: {}, result: false, comment: '' };
    ret[target] = r;
    const state = await getSelections(ctx, target, 'hold');
    if (!Object.keys(state).length) r.comment = `Package ${target} not currently held.`;
    else if (!(state.hold ?? []).length) {
      if (test) {
        r.result = null;
        r.comment = `Package ${target} is set to be held.`;
      } else {
        const res = await setSelections(ctx, { selection: { hold: [target] } }, false);
        r.changes = res[target] ?? {};
        r.result = true;
        r.comment = `Package ${target} is now being held.`;
      }
    } else {
      r.result = true;
      r.comment = `Package ${target} is already set to be held.`;
    }
  }
  return ret;
}

/** Salt's `pkg.unhold`. */
export async function unhold(
  ctx: ExecContext,
  a: { name?: string | null; pkgs?: unknown; sources?: unknown },
  test: boolean,
): Promise<Record<string, HoldResult>> {
  const ret: Record<string, HoldResult> = {};
  for (const target of holdTargets(a)) {
    const r: HoldResult = { name: target, changes: {}, result: false, comment: '' };
    ret[target] = r;
    const state = await getSelections(ctx, target);
    if (!Object.keys(state).length) r.comment = `Package ${target} does not have a state.`;
    else if ((state.hold ?? []).length) {
      if (test) {
        r.result = null;
        r.comment = `Package ${target} is set not to be held.`;
      } else {
        const res = await setSelections(ctx, { selection: { install: [target] } }, false);
        r.changes = res[target] ?? {};
        r.result = true;
        r.comment = `Package ${target} is no longer being held.`;
      }
    } else {
      r.result = true;
      r.comment = `Package ${target} is already set not to be held.`;
    }
  }
  return ret;
}
