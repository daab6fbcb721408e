/**
 * Parsers for the `git` program's output, as Salt's `git` module reads it: `ls-remote`,
 * `remote --verbose`, `fetch` (what it updated), `status --porcelain -z`, `config --get-regexp`.
 */

/** `<sha>\t<ref>` lines → `{ref: sha}`. */
export function parseRefs(output: string): Record<string, string> {
  const ret: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const m = /^\s*(\S+)\s+(.+)$/.exec(line);
    if (m) ret[m[2] as string] = m[1] as string;
  }
  return ret;
}

export interface RemoteUrls {
  fetch?: string;
  push?: string;
}

/** `origin\t<url> (fetch)` lines → `{origin: {fetch, push}}`. */
export function parseRemotes(output: string, redact: (s: string) => string): Record<string, RemoteUrls> {
  const ret: Record<string, RemoteUrls> = {};
  for (const line of output.split('\n')) {
    const m = /^\s*(\S+)\s+(.+?)\s+(\S+)\s*$/.exec(line);
    if (!m) continue;
    const action = (m[3] as string).replace(/^\(+/, '').replace(/\)+$/, '').toLowerCase();
    if (action !== 'fetch' && action !== 'push') continue;
    const name = m[1] as string;
    const entry = ret[name] ?? {};
    entry[action] = redact(m[2] as string);
    ret[name] = entry;
  }
  return ret;
}

const UPDATE_RE = /^[\s*]*(?:([0-9a-f]+)\.\.([0-9a-f]+)|\[(?:new (tag|branch)|tag update)\])\s+(.+)->/;

/** What `git fetch` said it changed: new/updated branches and tags, keyed as Salt keys them. */
export function parseFetch(output: string): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  const list = (k: string) => {
    const got = (ret[k] as string[] | undefined) ?? [];
    ret[k] = got;
    return got;
  };
  for (const line of output.split('\n')) {
    const m = UPDATE_RE.exec(line);
    if (!m) continue;
    const ref = (m[4] as string).trimEnd();
    if (m[3] !== undefined) list(m[3] === 'tag' ? 'new tags' : 'new branches').push(ref);
    else if (m[1] !== undefined) {
      const upd = (ret['updated branches'] as Record<string, unknown> | undefined) ?? {};
      upd[ref] = { old: m[1], new: m[2] };
      ret['updated branches'] = upd;
    } else list('updated tags').push(ref);
  }
  return ret;
}

const STATE_NAMES: Record<string, string> = { M: 'modified', A: 'new', D: 'deleted', '??': 'untracked' };

/** Appends `value` to the list under `key`. */
function push(ret: Record<string, string[]>, key: string, value: string): void {
  const list = ret[key];
  if (list) list.push(value);
  else ret[key] = [value];
}

export function parseStatus(output: string): Record<string, string[]> {
  const ret: Record<string, string[]> = {};
  for (const line of output.split('\0')) {
    const m = /^\s*(\S+)\s+(.+)$/s.exec(line);
    if (!m) continue;
    push(ret, STATE_NAMES[m[1] as string] ?? (m[1] as string), m[2] as string);
  }
  return ret;
}

export function parseConfigRegexp(output: string): Record<string, string[]> {
  const ret: Record<string, string[]> = {};
  for (const line of output.split('\n')) {
    const m = /^\s*(\S+)\s+(.+)$/.exec(line);
    if (m) push(ret, m[1] as string, m[2] as string);
  }
  return ret;
}
