/**
 * What the logged-in user's eauth ACL (the `perms` of /login) lets the console offer. A UI
 * hint only: the API checks every call itself. Entries are Salt's: a function regex
 * (`test.*`), `{target: [regexes]}`, `{regex: argsSpec}`, and `@runner`, `@wheel`, `@jobs`
 * (optionally `{'@runner': ['jobs.*']}`).
 */

function matches(regex: string, fun: string): boolean {
  try {
    return new RegExp(`^(?:${regex})`).test(fun);
  } catch {
    return false;
  }
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether one function condition (a regex, `{regex: args}`, or a list of these) allows `fun`. */
function funAllowed(cond: unknown, fun: string): boolean {
  if (typeof cond === 'string') return matches(cond, fun);
  if (Array.isArray(cond)) return cond.some((c) => funAllowed(c, fun));
  if (isMap(cond)) return Object.keys(cond).some((k) => matches(k, fun));
  return false;
}

/** May the user run the minion function `fun` on some target? */
export function mayRunMinion(perms: readonly unknown[], fun: string): boolean {
  return perms.some((p) => {
    if (typeof p === 'string') return !p.startsWith('@') && matches(p, fun);
    if (!isMap(p)) return false;
    return Object.entries(p).some(([key, cond]) => !key.startsWith('@') && funAllowed(cond, fun));
  });
}

/** May the user run the `kind` (`runner` or `wheel`) function `fun`? `@jobs` covers `jobs.*`. */
export function mayRunKind(perms: readonly unknown[], kind: 'runner' | 'wheel', fun: string): boolean {
  const tag = `@${kind}`;
  return perms.some((p) => {
    if (p === tag) return true;
    if (typeof p === 'string')
      return kind === 'runner' && p.startsWith('@') && fun.startsWith(`${p.slice(1)}.`);
    if (!isMap(p)) return false;
    return tag in p && funAllowed(p[tag], fun);
  });
}
