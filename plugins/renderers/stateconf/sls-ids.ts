/**
 * The stateconf renderer's relative names (salt/renderers/stateconf.py): `.x` and `..x` SLS
 * names in `include`/`exclude` resolve against the including SLS as Python's relative imports
 * do, and a `.id` state id becomes `<sls>::id`.
 */

/** Thrown for a name the renderer cannot resolve; the renderer adds the file. */
export class StateconfError extends Error {}

/** `.b` in `a.x` → `a.b`, `..b` in `a.x.y` → `a.b`: one level up per dot past the first. */
export function relativeToAbsSls(relative: string, sls: string): string {
  const m = /^(\.+)([\s\S]*)$/.exec(relative);
  if (!m) return relative;
  const levels = m[1]?.length ?? 0;
  const parts = sls.split('.');
  if (levels > parts.length)
    throw new StateconfError('Attempted relative include goes beyond top level package');
  return [...parts.slice(0, parts.length - levels), m[2] ?? ''].join('.');
}

/** `.conf` in SLS `web.db` → `web.db::conf`; an id that has `::` resolves as an SLS name. */
export function localToAbsSid(sid: string, sls: string): string {
  if (sid.includes('::')) return relativeToAbsSls(sid, sls);
  const abs = relativeToAbsSls(sid, `${sls}.`);
  const dot = abs.lastIndexOf('.');
  return dot === -1 ? abs : `${abs.slice(0, dot)}::${abs.slice(dot + 1)}`;
}
