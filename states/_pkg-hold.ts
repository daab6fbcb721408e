/**
 * `pkg.held` and `pkg.unheld` (Salt's `held`/`unheld` in `salt/states/pkg.py`) for a package
 * manager whose holds are dpkg selections: the held packages come from `pkg.get_selections`,
 * and `pkg.hold`/`pkg.unhold` change them. Under `test=True` the result stays True, as in Salt.
 */
import type { StateContext, StateReturn } from '../plugins/states/index.js';

interface HoldOne {
  result?: boolean | null;
  comment?: string;
}

async function heldNow(ctx: StateContext): Promise<Set<string>> {
  const sel = (await ctx.call('pkg.get_selections', [], { state: 'hold' })) as Record<string, string[]>;
  return new Set(sel.hold ?? []);
}

function entries(pkgs: unknown): [string, string | null][] {
  if (!Array.isArray(pkgs)) return [];
  return pkgs.map((p) => {
    if (p && typeof p === 'object') {
      const [k, v] = Object.entries(p as Record<string, unknown>)[0] ?? ['', null];
      return [k, v === null || v === undefined ? null : String(v)];
    }
    return [String(p), null];
  });
}

/** Salt's `pkg.held`. */
export async function held(
  ctx: StateContext,
  a: { name: string; version?: string | null; pkgs?: unknown; replace?: boolean },
): Promise<StateReturn> {
  const { name } = a;
  let pkgs = a.pkgs;
  if (Array.isArray(pkgs) && pkgs.length === 0 && !a.replace)
    return { name, changes: {}, result: true, comment: 'No packages to be held provided' };
  if (name && (pkgs === undefined || pkgs === null)) pkgs = a.version ? [{ [name]: a.version }] : [name];
  const locks = await heldNow(ctx);
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const comments: string[] = [];
  const heldPkgs = new Set<string>();
  for (const [pkgName, pkgVer] of entries(pkgs)) {
    heldPkgs.add(pkgName);
    if (locks.has(pkgName)) continue;
    if (ctx.test) {
      comments.push(
        `The following package would be held: ${pkgName}${pkgVer ? ` (version = ${pkgVer})` : ''}`,
      );
      continue;
    }
    const holdRet = (await ctx.call('pkg.hold', [], { name, pkgs: [pkgName], test: false })) as Record<
      string,
      HoldOne
    >;
    const ok = Boolean(holdRet[pkgName]?.result);
    if (!ok) ret.result = false;
    comments.push(ok ? `Package ${pkgName} is now being held` : `Package ${pkgName} was not held`);
    Object.assign(ret.changes, holdRet);
  }
  if (a.replace) {
    for (const pkgName of locks) {
      if (heldPkgs.has(pkgName)) continue;
      if (ctx.test) {
        comments.push(`The following package would be unheld: ${pkgName}`);
        continue;
      }
      const unholdRet = (await ctx.call('pkg.unhold', [], { name, pkgs: [pkgName], test: false })) as Record<
        string,
        HoldOne
      >;
      if (!unholdRet[pkgName]?.result) ret.result = false;
      if (unholdRet[pkgName]?.comment) comments.push(unholdRet[pkgName].comment);
      Object.assign(ret.changes, unholdRet);
    }
  }
  ret.comment = comments.join('\n');
  if (!Object.keys(ret.changes).length && !ret.comment) ret.comment = 'No changes made';
  return ret;
}

/** Salt's `pkg.unheld`. */
export async function unheld(
  ctx: StateContext,
  a: { name: string; version?: string | null; pkgs?: unknown; all?: boolean },
): Promise<StateReturn> {
  const { name } = a;
  let pkgs = a.pkgs;
  if (Array.isArray(pkgs) && pkgs.length === 0 && !a.all)
    return { name, changes: {}, result: true, comment: 'No packages to be unheld provided' };
  if (name && (pkgs === undefined || pkgs === null)) pkgs = [{ [name]: a.version ?? null }];
  const locks = await heldNow(ctx);
  const wanted = new Map(entries(pkgs));
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const comments: string[] = [];
  for (const pkgName of locks) {
    if (!a.all && !wanted.has(pkgName)) continue;
    if (ctx.test) {
      comments.push(
        `The following package would be unheld: ${pkgName}${wanted.get(pkgName) ? ' (version = None)' : ''}`,
      );
      continue;
    }
    const unholdRet = (await ctx.call('pkg.unhold', [], { name, pkgs: [pkgName], test: false })) as Record<
      string,
      HoldOne
    >;
    if (!unholdRet[pkgName]?.result) ret.result = false;
    if (unholdRet[pkgName]?.comment) comments.push(unholdRet[pkgName].comment);
    Object.assign(ret.changes, unholdRet);
  }
  ret.comment = comments.join('\n');
  if (!Object.keys(ret.changes).length && !ret.comment) ret.comment = 'No changes made';
  return ret;
}
