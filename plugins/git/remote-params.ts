/**
 * Reading a remote entry as Salt's master config writes it (`GitProvider.__init__` with
 * `salt.utils.data.repack_dictlist`): a string, or a one-key mapping from the remote's id to a
 * list of one-key mappings of per-remote parameters. Nested lists of one-key mappings (the
 * `saltenv` parameter) are repacked into mappings too. Unknown parameters are refused.
 */

export type RemoteParams = Record<string, unknown>;

/** A malformed remote entry: the reason (the caller wraps it in its own error code). */
export class RemoteEntryError extends Error {
  constructor(
    readonly remote: string,
    reason: string,
  ) {
    super(reason);
  }
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `[{a: 1}, {b: [{c: 2}]}]` → `{a: 1, b: {c: 2}}`; undefined when it is not a list of one-key mappings. */
export function repackDictlist(value: unknown): RemoteParams | undefined {
  if (isMap(value)) return value;
  if (!Array.isArray(value)) return undefined;
  const out: RemoteParams = {};
  for (const item of value) {
    if (!isMap(item)) return undefined;
    for (const [k, v] of Object.entries(item)) {
      const nested = Array.isArray(v) && v.length > 0 && v.every(isMap) ? repackDictlist(v) : undefined;
      out[String(k)] = nested ?? v;
    }
  }
  return out;
}

/** The id (`url`, or `branch url` for git_pillar) and per-remote parameters of one entry. */
export function readRemoteEntry(
  entry: unknown,
  allowed: ReadonlySet<string>,
): { id: string; params: RemoteParams } {
  if (typeof entry === 'string') return { id: entry, params: {} };
  if (!isMap(entry)) throw new RemoteEntryError(String(entry), 'expected a URL or a one-key mapping');
  const keys = Object.keys(entry);
  const id = keys[0];
  if (keys.length !== 1 || id === undefined) {
    throw new RemoteEntryError(JSON.stringify(Object.keys(entry)), 'expected one URL per entry');
  }
  const params = repackDictlist(entry[id]);
  if (!params || Object.keys(params).length === 0) {
    throw new RemoteEntryError(
      id,
      'invalid per-remote configuration: expected a list of one-key mappings (a trailing colon after the URL with no parameters is an error)',
    );
  }
  for (const k of Object.keys(params)) {
    if (!allowed.has(k)) {
      throw new RemoteEntryError(
        id,
        `unknown per-remote option "${k}"; valid parameters are: ${[...allowed].join(', ')}`,
      );
    }
  }
  return { id, params };
}

/** A per-remote string parameter, else the global one. */
export function paramString(params: RemoteParams, key: string, global: string): string {
  const v = params[key];
  return v === undefined || v === null ? global : String(v);
}

/** `salt://a/b/` → `a/b`. */
export function stripSaltPath(path: string): string {
  return path.replace(/^salt:\/\//, '').replace(/^\/+|\/+$/g, '');
}
